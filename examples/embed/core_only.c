/*
** core_only.c: the geometry core without Lua, as an engine that never
** runs a script would use it (linked against libobbcore.a, no liblua):
** boxes, a world, moves, the movement math, classes and response sets
** (obb_world_move_with). It checks a few answers and fails (exit 1) when
** one is wrong.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "obb_events.h"
#include "obb_events.h"
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

/* A filter that answers a response set by class, as obb_move_calls'
** responses do in C: what the two must agree with, bit for bit. */
typedef struct by_class { obb_world *w; const unsigned char *set; } by_class;

static int set_filter(void *ctx, int item, const obb_move_hit *hit) {
  const by_class *b = (const by_class *)ctx;
  (void)item;
  return b->set[obb_world_class(b->w, hit->other)];
}

/* The report's own context: a count. */
static void count_hit(void *ctx, const obb_move_hit *hit) {
  (void)hit;
  ++*(int *)ctx;
}

/* Classes and response sets in the core, the responses' names, and
** obb_world_move_with: a box runs right, turning, through a row of boxes
** of class 1 (pickups: crossed), into one of class 0 (a wall: slid along),
** with the set read in C; the same move with a filter callback answering
** the set ends at the same bits, and a committing move changes the world
** exactly as obb_world_update would. */
static int calls_check(void) {
  obb_world *w = obb_world_new(2, -1, NULL, NULL);
  unsigned char set[OBB_NCLASSES];
  obb_move_calls calls = {0};
  by_class filter;
  obb2 b, end1, end2;
  double c[2] = {0, 0}, e[2] = {0.5, 0.5}, goal[2] = {9, 0}, turn[1] = {1};
  int bad = 0, i, mover, wall, id[3], n1, n2, reports = 0;
  size_t before;
  if (w == NULL) return 1;
  bad += strcmp(obb_response_name(OBB_CROSS), "cross") != 0;
  bad += strcmp(obb_response_name(OBB_RIDE), "ride") != 0;
  bad += obb_response_name(OBB_CRUSH + 1) != NULL || obb_response_name(-1) != NULL;
  for (i = OBB_IGNORE; i <= OBB_ONEWAY; i++)
    bad += obb_response_code(obb_response_name(i)) != i;
  /* "crush" names a record, never an answer */
  bad += obb_response_code(obb_response_name(OBB_CRUSH)) != -1;
  bad += obb_response_code("Touch") != -1 || obb_response_code(NULL) != -1;
  mover = obb_world_add(w, (obb2_init(&b, c, e, 0), &b));
  for (i = 0; i < 3; i++) {
    c[0] = 2 + 2 * i;
    id[i] = obb_world_add(w, (obb2_init(&b, c, e, 0), &b));
    bad += obb_world_class(w, id[i]) != 0;
  }
  c[0] = 9; c[1] = 0.5;
  wall = obb_world_add(w, (obb2_init(&b, c, e, 0.3), &b));
  before = obb_world_memory(w);
  for (i = 0; i < 3; i++) bad += obb_world_set_class(w, id[i], 1) != 0;
  bad += obb_world_memory(w) <= before; /* the class array */
  bad += obb_world_set_class(w, wall, 256) != -1 || obb_world_set_class(w, 99, 1) != -1;
  bad += obb_world_class(w, id[1]) != 1 || obb_world_class(w, 99) != 0;
  memset(set, OBB_SLIDE, sizeof set);
  set[1] = OBB_CROSS;
  calls.responses = set;
  calls.report = count_hit;
  calls.report_ctx = &reports;
  n1 = obb_world_move_with(w, mover, goal, turn, &calls, &end1);
  filter.w = w;
  filter.set = set;
  n2 = obb_world_move_turning(w, mover, goal, turn, set_filter, NULL, &filter,
                              &end2);
  bad += n1 != 4 || n2 != n1 || reports != n1; /* 3 crossed, the wall */
  bad += memcmp(&end1, &end2, sizeof end1) != 0;
  bad += memcmp(obb_world_box(w, mover), &end1, sizeof end1) == 0; /* no commit */
  calls.commit = 1;
  n1 = obb_world_move_with(w, mover, goal, turn, &calls, NULL);
  bad += n1 != 4 || memcmp(obb_world_box(w, mover), &end1, sizeof end1) != 0;
  goal[0] = HUGE_VAL; /* a goal that is not finite: -3, no commit */
  bad += obb_world_move_with(w, wall, goal, NULL, &calls, &end2) != -3;
  bad += ((const obb2 *)obb_world_box(w, wall))->c[0] != 9;
  obb_world_remove(w, id[2]); /* its class goes with it */
  bad += obb_world_add(w, (obb2_init(&b, c, e, 0), &b)) != id[2];
  bad += obb_world_class(w, id[2]) != 0;
  obb_world_free(w);
  return bad;
}

/* Sensors and obb_world_move_with's commit: a box runs right through a
** thin sensor, by translation and turning, committed in the call (no
** obb_world_update by the host); each commit is the move's, so its events
** are the move's own, swept along its path: a begin and an end, with
** their times, however thin the sensor. */
static int events_check(void) {
  obb_world *w = obb_world_new(2, -1, NULL, NULL);
  obb_move_calls calls = {0};
  const obb_event *ev;
  obb2 b;
  double c[2] = {0, 0}, e[2] = {0.5, 0.5}, goal[2] = {6, 0}, turn[1] = {1};
  double ze[2] = {0.01, 2};
  int bad = 0, mover, zone, n, k;
  if (w == NULL) return 1;
  mover = obb_world_add(w, (obb2_init(&b, c, e, 0), &b));
  c[0] = 3;
  zone = obb_world_add(w, (obb2_init(&b, c, ze, 0), &b));
  bad += obb_world_set_sensor(w, zone, 1) != 0;
  bad += obb_world_events(w, &ev) != 0;
  calls.commit = 1;
  for (k = 0; k < 2; k++) { /* there, then back turning */
    n = obb_world_move_with(w, mover, goal, k ? turn : NULL, &calls, NULL);
    bad += n != 1; /* the sensor, crossed */
    bad += ((const obb2 *)obb_world_box(w, mover))->c[0] != goal[0];
    n = obb_world_events(w, &ev);
    bad += n != 2;
    if (n == 2) {
      bad += ev[0].sensor != zone || ev[0].other != mover;
      bad += ev[0].kind != OBB_EVENT_BEGIN || ev[1].kind != OBB_EVENT_END;
      bad += !(ev[0].t > 0 && ev[0].t < ev[1].t && ev[1].t < 1);
    }
    obb_world_events_done(w, n < 0 ? 0 : n, NULL, NULL);
    goal[0] = 0;
  }
  obb_world_free(w);
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
  bad += calls_check();
  bad += events_check();

  if (bad) {
    fprintf(stderr, "core_only: %d check(s) failed\n", bad);
    return 1;
  }
  printf("core only: boxes built, tested and moved through a world without Lua\n");
  return 0;
}
