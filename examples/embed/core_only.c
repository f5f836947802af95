/*
** core_only.c: the geometry core without Lua, as an engine that never
** runs a script would use it (linked against libobbcore.a, no liblua).
** It checks a few answers and fails (exit 1) when one is wrong.
*/
#include <math.h>
#include <stdio.h>

#include "obb.h"

int main(void) {
  obb2 car, wall;
  obb3 crate, probe;
  double c[3] = {0, 0, 0}, e[3] = {1, 1, 1}, q[4] = {0, 0, 0, 1};
  double p[3] = {2.2, 0, 0}, turned[4];
  double car_c[2] = {10, 5}, car_e[2] = {2, 1}, bad_e[2] = {-1, 1};
  double wall_min[2] = {11, -10}, wall_max[2] = {12, 10};
  int bad = 0;

  /* 45 degrees about z: (0, 0, sin(pi/8), cos(pi/8)) */
  turned[0] = 0; turned[1] = 0;
  turned[2] = sin(atan(1.0) / 2); turned[3] = cos(atan(1.0) / 2);
  if (obb2_init(&car, car_c, car_e, 0.5) != OBB_OK) bad++;
  if (obb2_from_aabb(&wall, wall_min, wall_max) != OBB_OK) bad++;
  bad += !obb2_intersects(&car, &wall);
  bad += obb2_init(&car, c, bad_e, 0) != OBB_ENEGATIVE; /* refused */

  obb3_init(&crate, c, e, q);
  obb3_init(&probe, p, e, turned); /* a cube turned 45 degrees about z */
  /* its corner reaches x = 2.2 - sqrt(2) < 1: they overlap */
  bad += !obb3_intersects(&crate, &probe);
  p[0] = 2.5;
  obb3_init(&probe, p, e, turned); /* 2.5 - sqrt(2) > 1: apart */
  bad += obb3_intersects(&crate, &probe);

  /* Moved and turned in place: the probe, turned back by -45 degrees and
  ** moved 1.5 to the left, is a unit cube at x = 1: it touches the crate. */
  {
    double back[4], left[3] = {-1.5, 0, 0}, big[2] = {1e308, 0}, l[3];
    double zero[4] = {0, 0, 0, 0};
    back[0] = 0; back[1] = 0; back[2] = -turned[2]; back[3] = turned[3];
    bad += obb3_rotate(&probe, back) != OBB_OK;
    bad += obb3_translate(&probe, left) != OBB_OK;
    bad += !obb3_intersects(&crate, &probe);
    bad += obb3_rotate(&probe, zero) != OBB_EZERO;
    /* 2D: a quarter turn takes the car's axis (cos 0.5, sin 0.5) to
    ** (-sin 0.5, cos 0.5); an overflowing move is refused and leaves the
    ** box as it was */
    bad += obb2_rotate(&car, 2 * atan(1.0)) != OBB_OK ||
           fabs(car.u[0] + sin(0.5)) > 1e-15 || fabs(car.u[1] - cos(0.5)) > 1e-15;
    l[0] = car.c[0];
    obb2_translate(&car, big);
    bad += obb2_translate(&car, big) != OBB_ENOTFINITE || car.c[0] != l[0] + 1e308;
  }

  if (bad) {
    fprintf(stderr, "core_only: %d check(s) failed\n", bad);
    return 1;
  }
  printf("core only: boxes built and tested without Lua\n");
  return 0;
}
