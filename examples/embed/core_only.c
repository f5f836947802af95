/*
** core_only.c: the geometry core without Lua, as an engine that never
** runs a script would use it (linked against libobbcore.a, no liblua).
** It checks a few answers and fails (exit 1) when one is wrong.
*/
#include <math.h>
#include <stdio.h>

#include "obb_world.h"

/* Counts a move's collisions, and keeps the last normal. */
static void on_hit(void *ctx, const obb_move_hit *hit) {
  double *seen = (double *)ctx;
  seen[0] += 1;
  seen[1] = hit->n[0];
  seen[2] = hit->n[1];
}

/* A player falls onto a floor of two flush tiles while running right: it
** lands on their seam, slides along them and ends at the goal's x. */
static int move_check(void) {
  obb_world *w = obb_world_new(2, -1, NULL, NULL);
  obb2 b;
  double c[2], e[2] = {0.5, 0.5}, pe[2] = {0.25, 0.25}, goal[2], at[2];
  double seen[3] = {0, 0, 0};
  int bad = 0, player, n;
  if (w == NULL) return 1;
  c[0] = 0; c[1] = 0;
  obb2_init(&b, c, e, 0);
  bad += obb_world_add(w, &b) < 0;
  c[0] = 1;
  obb2_init(&b, c, e, 0);
  bad += obb_world_add(w, &b) < 0;
  c[0] = 0.25; c[1] = 2;
  obb2_init(&b, c, pe, 0);
  player = obb_world_add(w, &b);
  goal[0] = 1.25; goal[1] = -3;
  n = obb_world_move(w, player, goal, NULL, on_hit, seen, at);
  /* lands at y = 0.75 on both tiles (one time: both reported), slides */
  bad += n != 2 || seen[0] != 2 || seen[1] != 0 || seen[2] != 1;
  bad += at[0] != 1.25 || at[1] != 0.75;
  obb_world_free(w);
  return bad;
}

/* The movement math without a world (obb_clip.c): a velocity clipped
** against an axis-aligned normal loses exactly that component and keeps
** the other bit for bit; a goal clipped against a wall keeps its
** coordinate along the wall exactly; a move into a corner stops; in 3D a
** move into two walls slides along their crease. */
static int clip_check(void) {
  double v[2] = {3.0000000000000004, -7.1}, n[2] = {0, 5}, out[3];
  double from[3] = {0.1, 0.2, 0}, goal[3] = {1.7000000000000002, -2.3, 0};
  double up[3] = {0, 1, 0}, corner[2][3] = {{0, 1, 0}, {-1, 0, 0}};
  double crease[2][3] = {{0, 1, 0}, {-1, 0, 0}}, g3[3] = {1, -1, 5};
  double f3[3] = {0, 0, 0}, primal[3] = {1, -1, 0}, forward[3] = {1, -1, 5};
  int bad = 0;
  bad += obb_clip(2, v, n, 1, out) != 1 || out[0] != v[0] || out[1] != 0;
  bad += obb_clip(2, v, n, 2, out) != 1 || out[0] != v[0] || out[1] != 7.1;
  bad += obb_clip(2, v, f3, 1, out) != 0 || out[0] != v[0]; /* zero normal */
  bad += obb_clip_goal(2, from, goal, up, 1) != 1;
  bad += goal[0] != 1.7000000000000002 || fabs(goal[1] - 0.2) > 1e-15;
  goal[0] = 1; goal[1] = -1;
  bad += obb_clip_planes(2, from, goal, (const double(*)[3])corner, 2,
                         primal) != 0 || goal[0] != from[0] || goal[1] != from[1];
  bad += obb_clip_planes(3, f3, g3, (const double(*)[3])crease, 2, forward) != 1;
  bad += g3[0] != 0 || g3[1] != 0 || g3[2] != 5;
  return bad;
}

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

  bad += move_check();
  bad += clip_check();

  if (bad) {
    fprintf(stderr, "core_only: %d check(s) failed\n", bad);
    return 1;
  }
  printf("core only: boxes built, tested and moved through a world without Lua\n");
  return 0;
}
