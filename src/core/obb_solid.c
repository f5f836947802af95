/*
** obb_solid.c: moving solids (obb_world_move_solid): an item moved to a
** goal pose that nothing stops, which carries what rests on it, pushes
** what its motion goes into and reports what it crushes (obb_world.h,
** "moving solids"; docs/reference.md, "Moving solids").
**
** A solid's move runs in two halves. The first changes nothing: one
** search finds the others within reach of the solid's motion (a turning
** solid's: everything the box can reach at any rotation along the
** segment); for each, the separating axes once (contact) tell whether it
** touches the solid where it starts (within the band), how deep and its
** way out; one that does not touch is classified against the solid's
** motion with the mover's own test (obb_move_pair.c, the solid as the
** mover: the certified sweep for a turning solid), and one that does only
** when its response needs it (settle). The filter is asked about what
** the solid touches or is inside, then about what rests on its riders
** (find_stacks: a search per wave of riders), then about what its motion
** meets, in the order met; then each other's goal is worked out (plan):
** a rider's center carried by the solid's rigid motion, turned with it
** (R_RIDE) or not; a pushed other's, from the time the motion meets it,
** along the face it is met on (carried with it by a turning solid); and on
** out of the solid along that face where its goal is left inside it.
** The second half commits the solid, then moves each of those others,
** farthest ahead first, by the world's own mover (obb_world_move,
** obb_world_move_turning) with the solid left out, committing each before
** the next moves, so each stops at what is in its way as a move does and
** never passes through anything; a pushed other that slid along something
** is pushed on along it (push_on). What did not get out of the solid's
** way is crushed (crushed).
**
** Everything the second half changes is logged (the boxes before and
** after) in a scratch buffer of the world, so that a move that fails on
** the way (out of memory, a filter that aborts) is undone, and so is one
** whose callback never returned (obb_world_undo_solid, which the Lua
** binding calls after a filter's error); obb_world_redo_solid gives an
** undone move back (the FFI path writes its records in between).
*/
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "obb_bounds.h"
#include "obb_events.h"
#include "obb_mover.h"
#include "obb_sat.h"

/* What the solid does to an other. */
enum { R_NONE, R_RIDE, R_STAND, R_PUSH, R_CROSS };

/* A pushed other that slides along something on its way is pushed on
** along it up to this many more times (the planes it met kept, at most
** PUSH_PLANES). */
#define PUSH_TRIES 4
#define PUSH_PLANES 8

/* An other the solid's move reaches. */
typedef struct scand {
  int id;
  int touching;   /* within the band of the solid where it starts, not
                  ** deeper (a stack's, resting on a rider: see support) */
  int inside;     /* deeper than the band in the solid where it starts */
  int met;        /* the solid's motion goes deeper than the band into it */
  int floor;      /* touching on a floor face, by the world's up */
  int role;       /* R_* */
  int support;    /* resting on a rider: the index of that rider (-1: none) */
  int asked;      /* the filter was asked about it: 1 + its turn */
  int pending;    /* found resting on the rider being looked at */
  int expanded;   /* a rider: what rests on it was looked for */
  int wave;       /* a rider whose resting others are looked for now */
  int crushed;
  int settled;    /* met says whether the solid's motion meets it */
  double t;       /* met: when */
  double n[3];    /* touching or inside: its way out of the solid (or the
                  ** support) where it starts; else where it is met */
  double nmet[3]; /* met: its way out, on the face it is met on */
  double depth;   /* inside: how deep */
  double dist;    /* squared distance between the centers, for the order */
  double dist2;   /* resting on a rider: the same to the rider's */
  double rb[6];   /* a rider of the wave: its bounds */
  double key;     /* how far ahead it is, for the order of the moves */
  double t0;      /* when the solid starts to move it */
  double goal[3]; /* where its move goes */
  double turn[3]; /* R_RIDE: its turn (2D turn[0]; 3D a rotation vector) */
  double n1[3];   /* its way out at the solid's goal (a record's normal) */
  double d[3];    /* how far it moved */
  double end_depth;
} scand;

/* The undo log: the boxes before, as the second half changes them. */
typedef struct log_head {
  double changes; /* the world's change count after the last change
                  ** logged, or after the undo (-1: nothing to undo) */
  int n, cap;
  int undone;     /* 1: undone, and nothing changed the world since */
} log_head;

typedef struct log_entry {
  int id;
  anybox box;     /* before */
  anybox to;      /* after */
} log_entry;

typedef struct solid {
  obb_world *w;
  int dim, id;
  anybox b0, b1;      /* the solid where it starts and at its goal */
  double c0[3], d[3]; /* its center where it starts, and its translation */
  double turn;        /* its turn: 2D the angle, 3D the angle about axis */
  double axis[3];
  int has_up;
  mover m;            /* its motion, for obb_move_classify */
  scand *c;
  int nc, cap;
  int *order;         /* the others it moves, in the order they move, then
                      ** every other in the order asked */
  int nasked, nmove;
  int *slot;          /* the others by id: open addressing, 1 + index */
  unsigned mask;
  int oom;
  int nplanes;        /* a pushed other's move: the planes it met */
  double planes[PUSH_PLANES][3];
  obb_solid_filter_fn filter;
  obb_move_filter_fn movers;
  void *ctx;
} solid;

/* ---- small geometry --------------------------------------------------- */

static const double *c_of(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->c : ((const obb3 *)b)->c;
}

static int deeper(int dim, const void *a, const void *b) {
  return dim == 2 ? obb2_overlaps((const obb2 *)a, (const obb2 *)b)
                  : obb3_overlaps((const obb3 *)a, (const obb3 *)b);
}

/* b's way out of a (unit, z = 0 in 2D) and how deep; 0 when apart. */
static int way_out(int dim, const void *a, const void *b, double n[3],
                   double *depth) {
  double m[3] = {0, 0, 0};
  int r = dim == 2
      ? obb2_penetration((const obb2 *)a, (const obb2 *)b, m, depth)
      : obb3_penetration((const obb3 *)a, (const obb3 *)b, m, depth);
  /* obbN_penetration moves a out of b: b's way out of a is the other way */
  n[0] = -m[0] + 0.0;
  n[1] = -m[1] + 0.0;
  n[2] = dim == 3 ? -m[2] + 0.0 : 0;
  return r;
}

static void bounds_of_box(int dim, const void *b, double out[6]) {
  if (dim == 2) obb2_bounds((const obb2 *)b, out);
  else obb3_bounds((const obb3 *)b, out);
}

/* b (the world's dimension) with its center at p, into out. */
static void with_center(int dim, const void *b, const double *p, anybox *out) {
  if (dim == 2) {
    out->b2 = *(const obb2 *)b;
    out->b2.c[0] = p[0];
    out->b2.c[1] = p[1];
  } else {
    out->b3 = *(const obb3 *)b;
    memcpy(out->b3.c, p, sizeof out->b3.c);
  }
}

/* The quaternion of a turn by angle about the unit axis. */
static void quat_of(const double axis[3], double angle, double q[4]) {
  double sn, cs;
  int i;
  obb_sincos(0.5 * angle, &sn, &cs);
  for (i = 0; i < 3; i++) q[i] = axis[i] * sn;
  q[3] = cs;
}

/* b turned by turn (2D: turn[0]; 3D: the rotation vector), as a turning
** move turns an item (obbN_rotate), in place. */
static void turn_box(int dim, anybox *b, const double turn[3]) {
  if (dim == 2) {
    if (turn[0] != 0) obb2_rotate(&b->b2, turn[0]);
  } else {
    double big = fmax(fabs(turn[0]), fmax(fabs(turn[1]), fabs(turn[2])));
    double axis[3], q[4], len;
    int i;
    if (big == 0) return;
    for (i = 0; i < 3; i++) axis[i] = turn[i] / big;
    len = sqrt(obb_dot3(axis, axis));
    for (i = 0; i < 3; i++) axis[i] /= len;
    quat_of(axis, big * len, q);
    obb3_rotate(&b->b3, q);
  }
}

/* The rotation vector of the turn that takes rotation q0 to q1 (unit
** quaternions), the short way: r = q1 q0*, or -r, whichever has w >= 0,
** by 2 atan2(|v|, w) about its vector part v; as the turning move takes a
** goal rotation (lobb_move_turn). */
static void turn_between(const double q1[4], const double q0[4],
                         double out[3]) {
  const double *g = q1, *c = q0;
  double v[3], w, big, len, angle;
  int q;
  w = g[3] * c[3] + (g[0] * c[0] + g[1] * c[1] + g[2] * c[2]);
  v[0] = (g[0] * c[3] - g[3] * c[0]) - (g[1] * c[2] - g[2] * c[1]);
  v[1] = (g[1] * c[3] - g[3] * c[1]) - (g[2] * c[0] - g[0] * c[2]);
  v[2] = (g[2] * c[3] - g[3] * c[2]) - (g[0] * c[1] - g[1] * c[0]);
  if (w < 0) {
    w = -w;
    for (q = 0; q < 3; q++) v[q] = -v[q];
  }
  out[0] = out[1] = out[2] = 0;
  big = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
  if (!(big > 0)) return;
  len = big * sqrt((v[0] / big) * (v[0] / big) + (v[1] / big) * (v[1] / big) +
                   (v[2] / big) * (v[2] / big));
  angle = 2 * obb_atan2(len, w);
  for (q = 0; q < 3; q++) out[q] = v[q] / len * angle;
}

/* How far b must go along the unit direction dir to leave a, which it is
** inside: along each separating axis of the pair, until their projections
** just touch there; the first axis to get there. */
static double exit_along(int dim, const void *a, const void *b,
                         const double dir[3]) {
  double k = HUGE_VAL;
  int i;
  if (dim == 2) {
    obb_axes2 x;
    obb2_sat_axes((const obb2 *)a, (const obb2 *)b, &x);
    for (i = 0; i < 4; i++) {
      double v = x.L[i][0] * dir[0] + x.L[i][1] * dir[1], kk;
      if (v == 0) continue;
      kk = (x.r[i] - (v > 0 ? x.s[i] : -x.s[i])) / fabs(v);
      if (kk < k) k = kk;
    }
  } else {
    obb_axes3 x;
    obb3_sat_axes((const obb3 *)a, (const obb3 *)b, &x);
    for (i = 0; i < x.n; i++) {
      double v = obb_dot3(x.L[i], dir), kk;
      if (v == 0) continue;
      kk = (x.r[i] - (v > 0 ? x.s[i] : -x.s[i])) / fabs(v);
      if (kk < k) k = kk;
    }
  }
  return k > 0 && obb_finite(k) ? k : 0;
}

/* ---- the solid's rigid motion ------------------------------------------ */

/* The solid's center and axes at time t of its motion: its box there. */
static void solid_at(const solid *s, double t, anybox *b) {
  double p[3];
  int q;
  for (q = 0; q < 3; q++) p[q] = s->c0[q] + t * s->d[q];
  if (t == 0) {
    *b = s->b0;
    return;
  }
  with_center(s->dim, &s->b0, p, b);
  if (s->turn == 0) return;
  if (s->dim == 2) {
    obb2_rotate(&b->b2, t * s->turn);
  } else {
    double qt[4];
    quat_of(s->axis, t * s->turn, qt);
    obb3_rotate(&b->b3, qt);
  }
}

/* Point p (and direction n, when not NULL) carried by the solid from its
** pose at (the box bt) to its goal: written in bt's frame, then read in
** the goal's. A motion without a turn moves p by the translation alone,
** the axes playing no part: c1 + (p - ct). */
static void carry(const solid *s, const anybox *bt, const double *p,
                  double *out, const double *n, double *nout) {
  const double *ct = c_of(s->dim, bt), *c1 = c_of(s->dim, &s->b1);
  double r[3] = {0, 0, 0};
  int q;
  for (q = 0; q < s->dim; q++) r[q] = p[q] - ct[q];
  if (s->turn == 0) {
    for (q = 0; q < s->dim; q++) out[q] = c1[q] + r[q];
    if (n != NULL) memcpy(nout, n, 3 * sizeof(double));
    return;
  }
  if (s->dim == 2) {
    const double *u = bt->b2.u, *v = s->b1.b2.u;
    double x = u[0] * r[0] + u[1] * r[1], y = u[0] * r[1] - u[1] * r[0];
    out[0] = c1[0] + (v[0] * x - v[1] * y);
    out[1] = c1[1] + (v[1] * x + v[0] * y);
    if (n != NULL) {
      x = u[0] * n[0] + u[1] * n[1];
      y = u[0] * n[1] - u[1] * n[0];
      nout[0] = v[0] * x - v[1] * y + 0.0;
      nout[1] = v[1] * x + v[0] * y + 0.0;
      nout[2] = 0;
    }
  } else {
    const double(*u)[3] = bt->b3.u, (*v)[3] = s->b1.b3.u;
    double l[3], m[3];
    int i;
    for (i = 0; i < 3; i++) l[i] = obb_dot3(u[i], r);
    for (q = 0; q < 3; q++)
      out[q] = c1[q] + (l[0] * v[0][q] + l[1] * v[1][q] + l[2] * v[2][q]);
    if (n != NULL) {
      for (i = 0; i < 3; i++) m[i] = obb_dot3(u[i], n);
      for (q = 0; q < 3; q++)
        nout[q] = m[0] * v[0][q] + m[1] * v[1][q] + m[2] * v[2][q] + 0.0;
    }
  }
}

/* ---- the others: the scratch array and its index by id ----------------- */

static scand *add_cand(solid *s, int id) {
  scand *c;
  if (s->nc == s->cap) {
    int cap = s->cap * 2;
    void *p = cap > 0 && (size_t)cap < ((size_t)-1) / sizeof(scand)
        ? obb_world_scratch(s->w, OBB_SCRATCH_SOLID, (size_t)cap * sizeof(scand))
        : NULL;
    if (p == NULL) {
      s->oom = 1;
      return NULL;
    }
    s->c = (scand *)p;
    s->cap = cap;
  }
  c = &s->c[s->nc++];
  memset(c, 0, sizeof *c);
  c->id = id;
  c->support = -1;
  return c;
}

static unsigned slot_of(const solid *s, int id) {
  return ((unsigned)id * 2654435761u) & s->mask;
}

static int find(const solid *s, int id) {
  unsigned k = slot_of(s, id);
  while (s->slot[k] != 0) {
    if (s->c[s->slot[k] - 1].id == id) return s->slot[k] - 1;
    k = (k + 1) & s->mask;
  }
  return -1;
}

/* The index at twice the others' capacity, at least 64 slots, with every
** other in it. */
static int reindex(solid *s) {
  size_t n = 64;
  int i;
  while (n < 2 * (size_t)s->cap) n *= 2;
  s->slot = (int *)obb_world_scratch(s->w, OBB_SCRATCH_SOLID_INDEX,
                                     n * sizeof(int));
  if (s->slot == NULL) {
    s->oom = 1;
    return 0;
  }
  s->mask = (unsigned)n - 1;
  memset(s->slot, 0, n * sizeof(int));
  for (i = 0; i < s->nc; i++) {
    unsigned k = slot_of(s, s->c[i].id);
    while (s->slot[k] != 0) k = (k + 1) & s->mask;
    s->slot[k] = i + 1;
  }
  return 1;
}

/* ---- the first half: who is what ---------------------------------------- */

/* Other id near the solid: what the solid's start and motion are to it. */
/* Whether the solid's motion goes deeper than the band into other box ob
** (the mover's classification, obb_move_pair.c): into *t and n (ob's way
** out) when it does. */
static int meets(const solid *s, const void *ob, double *t, double n[3]) {
  cand k;
  int met, q;
  if (s->m.r[0] == 0 && s->m.r[1] == 0 && s->m.r[2] == 0 && s->m.wl == 0)
    return 0;
  memset(&k, 0, sizeof k);
  if (s->m.wl != 0 && !s->m.point) {
    cand k2;
    int got = obb_move_classify_turning((mover *)&s->m, ob, &k, &k2);
    if (got > 1) k = k2; /* (inside after all: rounding) */
    met = got > 0 && k.kind == BLOCK;
  } else {
    met = obb_move_classify((mover *)&s->m, ob, &k) == BLOCK;
  }
  if (!met) return 0;
  *t = k.t;
  for (q = 0; q < 3; q++) n[q] = -k.n[q] + 0.0; /* the solid's way out, turned */
  return 1;
}

/* Whether box b touches box a (obbN_intersects' rule), and then b's way
** out of a (as obbN_penetration gives it, turned), how deep, and whether
** deeper than the band (obbN_overlaps' rule): the separating axes worked
** out once for the three. */
static int contact(int dim, const void *a, const void *b, double n[3],
                   double *depth, int *inside) {
  double m[3] = {0, 0, 0};
  if (dim == 2) {
    obb_axes2 x;
    obb2_sat_axes((const obb2 *)a, (const obb2 *)b, &x);
    if (obb2_sat_min((const obb2 *)a, (const obb2 *)b, &x, m, depth) < 0)
      return 0;
    *inside = obb_sat_deeper(x.s, x.r, 4,
                             obb2_pair_band((const obb2 *)a, (const obb2 *)b));
  } else {
    obb_axes3 x;
    obb3_sat_axes((const obb3 *)a, (const obb3 *)b, &x);
    if (obb3_sat_min((const obb3 *)a, (const obb3 *)b, &x, m, depth) < 0)
      return 0;
    *inside = obb_sat_deeper(x.s, x.r, x.n,
                             obb3_pair_band((const obb3 *)a, (const obb3 *)b));
  }
  n[0] = -m[0] + 0.0;
  n[1] = -m[1] + 0.0;
  n[2] = dim == 3 ? -m[2] + 0.0 : 0;
  return 1;
}

/* Other id near the solid: what the solid's start and motion are to it.
** Whether the motion meets an other the solid touches is only asked when
** its response needs it (settle: a rider needs no sweep). */
static void on_near(void *ctx, int id) {
  solid *s = (solid *)ctx;
  const void *ob = obb_world_box(s->w, id);
  const double *oc;
  scand *c;
  double n[3] = {0, 0, 0}, depth = 0, t = 0;
  int touching, inside = 0, q;
  if (s->oom) return;
  touching = contact(s->dim, &s->b0, ob, n, &depth, &inside);
  if (!touching && !meets(s, ob, &t, n)) return;
  c = add_cand(s, id);
  if (c == NULL) return;
  c->touching = touching && !inside;
  c->inside = inside;
  c->settled = !touching || inside; /* met (or not) is known */
  c->met = !touching;
  memcpy(c->n, n, sizeof c->n);
  c->depth = inside ? depth : 0;
  if (c->met) {
    c->t = t;
    memcpy(c->nmet, n, sizeof c->nmet);
  }
  c->floor = c->touching && obb_world_is_floor(s->w, c->n);
  oc = c_of(s->dim, ob);
  for (q = 0; q < s->dim; q++)
    c->dist += (oc[q] - s->c0[q]) * (oc[q] - s->c0[q]);
}

/* Whether the motion meets other c, asked once. */
static int settle(const solid *s, scand *c) {
  if (!c->settled) {
    c->settled = 1;
    c->met = meets(s, obb_world_box(s->w, c->id), &c->t, c->nmet);
  }
  return c->met;
}

/* The time the filter is told of: 0 for an other touched or inside where
** the solid starts, else when it is met. */
static double t_of(const scand *c) {
  return c->touching || c->inside || c->support >= 0 ? 0 : c->t;
}

/* Asked order: by time, others inside first, then nearer centers, ids. */
static int cmp_asked(const void *a, const void *b) {
  const scand *x = (const scand *)a, *y = (const scand *)b;
  double tx = t_of(x), ty = t_of(y);
  if (tx != ty) return tx < ty ? -1 : 1;
  if (x->inside != y->inside) return x->inside ? -1 : 1;
  if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* Asks the filter about c (default: what it gets without one): its
** response, or -1 when the filter aborted. */
static int ask(solid *s, scand *c, int def) {
  obb_solid_hit hit;
  int r;
  c->asked = ++s->nasked;
  /* a sensor, or a solid that is one, never pushes nor carries: crossed,
  ** its filter never asked (as a move crosses a sensor) */
  if (obb_world_sensor(s->w, c->id) != 0 || obb_world_sensor(s->w, s->id) != 0)
    return OBB_CROSS;
  if (s->filter == NULL) return def;
  memset(&hit, 0, sizeof hit);
  hit.other = c->id;
  hit.what = def;
  hit.t = t_of(c);
  memcpy(hit.n, c->n, sizeof hit.n);
  hit.depth = c->depth;
  r = s->filter(s->ctx, s->id, &hit);
  if (r < 0) return -1;
  if (r == OBB_TOUCH || r == OBB_SLIDE || r == OBB_BOUNCE || r > OBB_ONEWAY)
    return def;
  return r;
}

/* What the solid does to c, by its response r. */
static int role_of(const solid *s, scand *c, int r) {
  switch (r) {
  case OBB_RIDE:
  case OBB_STAND:
    if (c->touching && (!s->has_up || c->floor))
      return r == OBB_RIDE ? R_RIDE : R_STAND;
    return settle(s, c) || c->inside ? R_PUSH : R_NONE;
  case OBB_ONEWAY:
    if (!s->has_up) return R_NONE;
    if (c->touching && c->floor) return R_STAND;
    return settle(s, c) && !c->inside && obb_world_is_floor(s->w, c->nmet)
        ? R_PUSH : R_NONE;
  case OBB_PUSH:
    return settle(s, c) || c->inside ? R_PUSH : R_NONE;
  case OBB_CROSS:
    return settle(s, c) || c->inside ? R_CROSS : R_NONE;
  default:
    return R_NONE;
  }
}

/* Other id near the riders of this wave (scand.wave): found (pending,
** resting on the first of them it rests on, by the world's up) when the
** filter was not asked about it yet; added when it is no other of the
** solid's. */
static void on_above(void *ctx, int id) {
  solid *s = (solid *)ctx;
  const void *ob;
  double n[3], depth, ob_b[6];
  int i, k, in;
  if (s->oom || id == s->id) return;
  k = find(s, id);
  if (k >= 0 && (s->c[k].asked || s->c[k].pending || s->c[k].wave)) return;
  ob = obb_world_box(s->w, id);
  bounds_of_box(s->dim, ob, ob_b);
  for (i = 0; i < s->nc; i++) {
    scand *c;
    const void *rb;
    const double *oc, *rc;
    int q;
    if (!s->c[i].wave || !obb_box_overlap(s->c[i].rb, ob_b)) continue;
    rb = obb_world_box(s->w, s->c[i].id);
    if (!contact(s->dim, rb, ob, n, &depth, &in) || in ||
        !obb_world_is_floor(s->w, n))
      continue;
    if (k < 0) {
      c = add_cand(s, id);
      if (c == NULL) return;
      if ((unsigned)s->nc * 2 > s->mask) {
        reindex(s); /* with the new one */
      } else {
        unsigned j = slot_of(s, id);
        while (s->slot[j] != 0) j = (j + 1) & s->mask;
        s->slot[j] = s->nc;
      }
    } else {
      c = &s->c[k];
    }
    c->support = i;
    c->pending = 1;
    memcpy(c->n, n, sizeof c->n);
    oc = c_of(s->dim, ob);
    rc = c_of(s->dim, rb);
    c->dist2 = 0;
    for (q = 0; q < s->dim; q++) c->dist2 += (oc[q] - rc[q]) * (oc[q] - rc[q]);
    return;
  }
}

/* The pending other nearest its rider (then the lower id), or -1. */
static int next_pending(const solid *s) {
  int i, best = -1;
  for (i = 0; i < s->nc; i++) {
    const scand *c = &s->c[i];
    if (!c->pending) continue;
    if (best < 0 || c->dist2 < s->c[best].dist2 ||
        (c->dist2 == s->c[best].dist2 && c->id < s->c[best].id))
      best = i;
  }
  return best;
}

/* What rests on the riders rides too (a stack of crates on a platform),
** even where the solid's motion would go into it: in waves (the riders
** found so far, then those found resting on them, ...), one search each,
** the others resting on a rider of the wave that the filter was not asked
** about are asked, nearest their rider first, told OBB_RIDE as the
** default and the face they rest on; a rider's answer makes them riders,
** any other what it would be for the solid alone. Returns 1, 0 when
** memory ran out, -1 when the filter aborted. */
static int find_stacks(solid *s) {
  if (!s->has_up) return 1;
  if (!reindex(s)) return 0;
  for (;;) {
    double b[6];
    int i, j, wave = 0;
    /* the wave: the riders not looked at yet, in one search */
    for (i = 0; i < s->nc; i++) {
      scand *c = &s->c[i];
      c->wave = (c->role == R_RIDE || c->role == R_STAND) && !c->expanded;
      if (!c->wave) continue;
      c->expanded = 1;
      bounds_of_box(s->dim, obb_world_box(s->w, c->id), c->rb);
      if (wave++ == 0) {
        memcpy(b, c->rb, sizeof b);
      } else {
        int q;
        for (q = 0; q < 3; q++) {
          if (c->rb[q] < b[q]) b[q] = c->rb[q];
          if (c->rb[q + 3] > b[q + 3]) b[q + 3] = c->rb[q + 3];
        }
      }
    }
    if (wave == 0) return 1;
    if (obb_world_query_others(s->w, b, s->id, on_above, s) != 0) s->oom = 1;
    for (i = 0; i < s->nc; i++) s->c[i].wave = 0;
    if (s->oom) return 0;
    while ((j = next_pending(s)) >= 0) {
      scand *c = &s->c[j];
      int r;
      c->pending = 0;
      r = ask(s, c, OBB_RIDE);
      if (r < 0) return -1;
      if (r == OBB_RIDE || r == OBB_STAND || r == OBB_ONEWAY) {
        c->role = r == OBB_RIDE ? R_RIDE : R_STAND;
      } else {
        c->support = -1; /* what it is to the solid alone */
        if (c->met) memcpy(c->n, c->nmet, sizeof c->n);
        c->role = role_of(s, c, r);
      }
    }
  }
}

/* ---- the plan: where each other goes ----------------------------------- */

/* Where c goes: a rider, its center carried by the solid's motion, turned
** with it (R_RIDE) or not; a pushed other, carried by that motion from the
** time it is met, as on the face it is met on (which keeps it in front of
** that face however the solid turns), but by a solid that only translates
** only as far along the face's normal as the face goes (c->n1: no drag
** along it). Then on out along that face, turned with the solid to its
** goal, when the solid's goal is left inside it. */
static void plan(solid *s, scand *c) {
  const void *ob = obb_world_box(s->w, c->id);
  const double *n0 = c->n;
  double t0 = 0;
  anybox bt, end;
  int q;
  if (c->role == R_PUSH && c->met) {
    t0 = c->t;
    n0 = c->nmet;
  }
  c->t0 = t0;
  solid_at(s, t0, &bt);
  carry(s, &bt, c_of(s->dim, ob), c->goal, n0, c->n1);
  if (c->role == R_PUSH && s->turn == 0) {
    /* pushed out of the way by a solid that only translates: straight
    ** along the face, as far as the face goes (a door does not drag what
    ** it pushes along itself); a turning solid's face carries it */
    double along = 0, r[3];
    for (q = 0; q < 3; q++) r[q] = (1 - t0) * s->d[q];
    for (q = 0; q < s->dim; q++) along += r[q] * c->n1[q];
    along = obb_fmax(along, 0.0); /* a face that goes away pushes nothing */
    for (q = 0; q < s->dim; q++) c->goal[q] -= r[q] - along * c->n1[q];
  }
  c->turn[0] = c->turn[1] = c->turn[2] = 0;
  if (c->role == R_RIDE && s->turn != 0) {
    double w = (1 - t0) * s->turn;
    if (s->dim == 2) c->turn[0] = w;
    else for (q = 0; q < 3; q++) c->turn[q] = w * s->axis[q];
  }
  /* a solid that only translates leaves a rider where it was on it, and a
  ** pushed other in front of the face it was met on, as close as it was:
  ** neither deeper (the common case, at no cost) */
  if (s->turn == 0 && !c->inside) return;
  with_center(s->dim, ob, c->goal, &end);
  turn_box(s->dim, &end, c->turn);
  if (deeper(s->dim, &s->b1, &end)) {
    double k = exit_along(s->dim, &s->b1, &end, c->n1);
    for (q = 0; q < s->dim; q++) c->goal[q] += k * c->n1[q];
  }
}

/* Farthest ahead first: by how far each is along the sum of the moves
** (a stack rising: its top first), then ids. */
static int cmp_order(const void *a, const void *b, const solid *s) {
  const scand *x = &s->c[*(const int *)a], *y = &s->c[*(const int *)b];
  if (x->key != y->key) return x->key > y->key ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* An insertion sort of the moves' order (qsort has no context). */
static void sort_order(solid *s, int n) {
  int i, j;
  for (i = 1; i < n; i++) {
    int v = s->order[i];
    for (j = i; j > 0 && cmp_order(&s->order[j - 1], &v, s) > 0; j--)
      s->order[j] = s->order[j - 1];
    s->order[j] = v;
  }
}

/* ---- the undo log --------------------------------------------------------- */

static log_head *log_peek(obb_world *w) {
  return (log_head *)obb_world_scratch(w, OBB_SCRATCH_SOLID_LOG, 0);
}

static log_entry *log_entries(log_head *h) {
  return (log_entry *)(void *)((unsigned char *)h + sizeof(log_head));
}

/* Room for n changes; NULL when memory runs out. */
static log_head *log_begin(obb_world *w, int n) {
  log_head *h = (log_head *)obb_world_scratch(
      w, OBB_SCRATCH_SOLID_LOG, sizeof(log_head) + (size_t)n * sizeof(log_entry));
  if (h == NULL) return NULL;
  h->n = 0;
  h->cap = n;
  h->changes = -1;
  h->undone = 0;
  return h;
}

/* Gives item id the box b, logging the box it had. */
static void log_update(obb_world *w, log_head *h, int id, const void *b) {
  log_entry *e = &log_entries(h)[h->n++];
  e->id = id;
  if (obb_world_dim(w) == 2) {
    e->box.b2 = *(const obb2 *)obb_world_box(w, id);
    e->to.b2 = *(const obb2 *)b;
  } else {
    e->box.b3 = *(const obb3 *)obb_world_box(w, id);
    e->to.b3 = *(const obb3 *)b;
  }
  obb_world_update(w, id, b);
  h->changes = obb_world_changes(w);
}

/* Gives the item of the last change logged the box b instead, as part of
** the same change (the box before kept). */
static void log_again(obb_world *w, log_head *h, const void *b) {
  log_entry *e = &log_entries(h)[h->n - 1];
  if (obb_world_dim(w) == 2) e->to.b2 = *(const obb2 *)b;
  else e->to.b3 = *(const obb3 *)b;
  obb_world_update(w, e->id, b);
  h->changes = obb_world_changes(w);
}

int obb_world_undo_solid(obb_world *w) {
  log_head *h = log_peek(w);
  int i;
  if (h == NULL || h->n == 0 || h->undone ||
      h->changes != obb_world_changes(w))
    return 0;
  for (i = h->n - 1; i >= 0; i--) {
    const log_entry *e = &log_entries(h)[i];
    obb_world_update(w, e->id, &e->box);
  }
  h->undone = 1;
  h->changes = obb_world_changes(w);
  return 1;
}

int obb_world_redo_solid(obb_world *w) {
  log_head *h = log_peek(w);
  int i;
  if (h == NULL || h->n == 0 || !h->undone ||
      h->changes != obb_world_changes(w))
    return 0;
  for (i = 0; i < h->n; i++) {
    const log_entry *e = &log_entries(h)[i];
    obb_world_update(w, e->id, &e->to);
  }
  h->undone = 0;
  h->changes = obb_world_changes(w);
  return 1;
}

/* ---- the second half: the moves ------------------------------------------ */

/* The movers' filter: the solid is never met. */
static int movers_filter(void *ctx, int item, const obb_move_hit *hit) {
  const solid *s = (const solid *)ctx;
  if (hit->other == s->id) return OBB_IGNORE;
  return s->movers != NULL ? s->movers(s->ctx, item, hit) : OBB_SLIDE;
}

/* Whether the solid's motion from c's time on goes deeper than the band
** into end, where c ended: it did not get out of the solid's way (it
** ends inside the solid at its goal, or the solid passed through it). */
static int in_the_way(const solid *s, const scand *c, const anybox *end) {
  mover m;
  cand k, k2;
  anybox bt;
  int q;
  if (s->m.r[0] == 0 && s->m.r[1] == 0 && s->m.r[2] == 0 && s->m.wl == 0)
    return deeper(s->dim, &s->b1, end);
  memset(&m, 0, offsetof(mover, pos));
  solid_at(s, c->t0, &bt);
  m.dim = s->dim;
  m.item = bt;
  for (q = 0; q < 3; q++) {
    m.pos[q] = s->c0[q] + c->t0 * s->d[q];
    m.r[q] = c_of(s->dim, &s->b1)[q] - m.pos[q];
  }
  if (s->dim == 2) m.pos[2] = m.r[2] = 0;
  m.wl = (1 - c->t0) * s->turn;
  memcpy(m.axis, s->axis, sizeof m.axis);
  m.turning = m.wl != 0;
  m.point = s->m.point;
  memset(&k, 0, sizeof k);
  if (m.wl != 0 && !m.point) return obb_move_classify_turning(&m, end, &k, &k2) > 0;
  return obb_move_classify(&m, end, &k) != NONE;
}

/* Whether c, moved to end, is crushed: when it ends deeper than the band
** in the solid at its goal; else, for a rider, when it stopped short,
** along the face it rests on (c->n1), of where the solid took that face
** by more than the band (short_by: the solid came up into it, or through
** it); for a pushed other, when it stopped short of its goal (which is out
** of the way) and the solid's motion from the time it met it goes deeper
** than the band into it where it ended (it did not get out of the way,
** ahead or sideways: the solid went through it). An other the solid was
** inside when it started: only when it still is. */
static int crushed(const solid *s, const scand *c, const anybox *end,
                   double short_by) {
  int at_goal = memcmp(c_of(s->dim, end), c->goal,
                       (size_t)s->dim * sizeof(double)) == 0;
  int short_of;
  /* where it was planned to go, by a solid that only translates: out of
  ** its way (plan), at no cost */
  if (at_goal && s->turn == 0 && !c->inside) return 0;
  short_of = short_by > obb_pair_band(s->dim, c_of(s->dim, &s->b1),
                                      extents(s->dim, &s->b1),
                                      c_of(s->dim, end), extents(s->dim, end));
  if (deeper(s->dim, &s->b1, end)) return 1;
  if (c->inside) return 0;
  if (c->role == R_PUSH) return !at_goal && in_the_way(s, c, end);
  return short_of;
}

/* The planes a pushed other's move met (responses that stop or slide). */
static void on_plane(void *ctx, const obb_move_hit *hit) {
  solid *s = (solid *)ctx;
  if (hit->response == OBB_CROSS || s->nplanes == PUSH_PLANES) return;
  memcpy(s->planes[s->nplanes++], hit->n, sizeof hit->n);
}

/* A pushed other stopped short of its goal by what it slid along: pushed
** on along those planes (their crease, in 3D) as far as it takes to get
** as far along the face's normal as its goal (a crate pushed up a ramp
** gets out of the door's way), committing each try; up to PUSH_TRIES
** more moves. at: where it is; 0, or the mover's error. */
static int push_on(solid *s, log_head *h, scand *c, anybox *end) {
  double *at = s->dim == 2 ? end->b2.c : end->b3.c;
  int i, q, n = 0;
  for (i = 0; i < PUSH_TRIES; i++) {
    double k = 0, g[3] = {0, 0, 0}, u[3] = {0, 0, 0}, along = 0;
    for (q = 0; q < s->dim; q++) k += (c->goal[q] - at[q]) * c->n1[q];
    if (!(k > obb_pair_band(s->dim, c_of(s->dim, &s->b1),
                            extents(s->dim, &s->b1), at, extents(s->dim, end))))
      break;
    for (q = 0; q < s->dim; q++) g[q] = at[q] + k * c->n1[q];
    if (!obb_clip_planes(s->dim, at, g, (const double(*)[3])s->planes,
                         s->nplanes, c->n1))
      break; /* wedged */
    for (q = 0; q < s->dim; q++) {
      u[q] = g[q] - at[q];
      along += u[q] * c->n1[q];
    }
    if (!(along > 0x1p-10 * k)) break; /* no way on along the face */
    for (q = 0; q < s->dim; q++) g[q] = at[q] + u[q] * (k / along);
    if (!obb_all_finite(g, (size_t)s->dim)) break;
    n = obb_world_move(s->w, c->id, g, movers_filter, on_plane, s, g);
    if (n < 0) return n;
    memcpy(at, g, (size_t)s->dim * sizeof(double));
    log_again(s->w, h, end);
  }
  return 0;
}

/* Moves c as planned and commits it: 0, or the mover's error. */
static int move_one(solid *s, log_head *h, scand *c) {
  const void *ob = obb_world_box(s->w, c->id);
  double start[3] = {0, 0, 0}, pen[3], depth = 0, short_by = 0;
  anybox end;
  int n, q;
  memcpy(start, c_of(s->dim, ob), (size_t)s->dim * sizeof(double));
  if (c->role == R_RIDE) {
    n = obb_world_move_turning(s->w, c->id, c->goal, c->turn, movers_filter,
                               NULL, s, &end);
  } else {
    double at[3];
    s->nplanes = 0;
    n = obb_world_move(s->w, c->id, c->goal, movers_filter,
                       c->role == R_PUSH ? on_plane : NULL, s, at);
    with_center(s->dim, ob, at, &end);
  }
  if (n < 0) return n;
  log_update(s->w, h, c->id, &end);
  if (c->role == R_PUSH && s->nplanes > 0 &&
      memcmp(c_of(s->dim, &end), c->goal, (size_t)s->dim * sizeof(double)) != 0) {
    n = push_on(s, h, c, &end);
    if (n < 0) return n;
  }
  for (q = 0; q < s->dim; q++) {
    c->d[q] = c_of(s->dim, &end)[q] - start[q];
    short_by += (c->goal[q] - c_of(s->dim, &end)[q]) * c->n1[q];
  }
  if (crushed(s, c, &end, short_by)) {
    double off = 0;
    c->crushed = 1;
    if (deeper(s->dim, &s->b1, &end)) way_out(s->dim, &s->b1, &end, pen, &depth);
    if (c->role == R_PUSH) { /* how far short of its goal */
      for (q = 0; q < s->dim; q++)
        off += (c->goal[q] - c_of(s->dim, &end)[q]) *
               (c->goal[q] - c_of(s->dim, &end)[q]);
      short_by = sqrt(off);
    }
    c->end_depth = obb_fmax(c->inside ? depth : obb_fmax(short_by, depth), 0.0);
  }
  return 0;
}

/* ---- the move ------------------------------------------------------------- */

/* The solid's goal box (goal's center and rotation, its extents) and its
** motion; -3 when the motion is not finite. */
static int set_motion(solid *s, const void *goal) {
  int q, same;
  double b[6];
  if (s->dim == 2) {
    const obb2 *g = (const obb2 *)goal;
    s->b1.b2 = s->b0.b2;
    memcpy(s->b1.b2.c, g->c, sizeof g->c);
    same = g->u[0] == s->b0.b2.u[0] && g->u[1] == s->b0.b2.u[1];
    if (!same) memcpy(s->b1.b2.u, g->u, sizeof g->u);
  } else {
    const obb3 *g = (const obb3 *)goal;
    s->b1.b3 = s->b0.b3;
    memcpy(s->b1.b3.c, g->c, sizeof g->c);
    same = memcmp(g->u, s->b0.b3.u, sizeof g->u) == 0;
    if (!same) memcpy(s->b1.b3.u, g->u, sizeof g->u);
  }
  s->turn = 0;
  memset(s->axis, 0, sizeof s->axis);
  for (q = 0; q < 3; q++) s->d[q] = 0;
  for (q = 0; q < s->dim; q++) s->d[q] = c_of(s->dim, &s->b1)[q] - s->c0[q];
  if (!obb_all_finite(c_of(s->dim, &s->b1), (size_t)s->dim) ||
      !obb_all_finite(s->d, 3))
    return -3;
  if (!same) {
    if (s->dim == 2) {
      const double *u = s->b0.b2.u, *v = s->b1.b2.u;
      s->turn = obb_atan2(u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1]);
    } else {
      double q0[4], q1[4], r[3], big;
      obb3_rotation(&s->b0.b3, q0);
      obb3_rotation(&s->b1.b3, q1);
      turn_between(q1, q0, r);
      big = fmax(fabs(r[0]), fmax(fabs(r[1]), fabs(r[2])));
      if (big > 0) {
        for (q = 0; q < 3; q++) s->axis[q] = r[q] / big;
        s->turn = big * sqrt(obb_dot3(s->axis, s->axis));
        obb_normalize3(s->axis);
      }
    }
    if (!obb_finite(s->turn)) return -3;
  }
  bounds_of_box(s->dim, &s->b1, b);
  return obb_all_finite(b, 6) ? 0 : -3;
}

/* The solid's motion as a mover's (its box, pos, r, turn), for the
** classification of each pair. */
static void set_mover(solid *s) {
  mover *m = &s->m;
  memset(m, 0, offsetof(mover, pos));
  m->dim = s->dim;
  m->item = s->b0;
  memcpy(m->pos, s->c0, sizeof m->pos);
  memcpy(m->r, s->d, sizeof m->r);
  m->wl = s->turn;
  memcpy(m->axis, s->axis, sizeof m->axis);
  m->turning = s->turn != 0;
  m->point = is_point(s->dim, extents(s->dim, &s->b0));
}

/* The bounds of everything the solid can reach on its way. */
static void reach_bounds(const solid *s, double out[6]) {
  int q;
  if (s->turn != 0) {
    obb_turning_bounds(s->dim, s->c0, extents(s->dim, &s->b0), s->d, out);
    return;
  }
  bounds_of_box(s->dim, &s->b0, out);
  for (q = 0; q < 3; q++) {
    double a = out[q] + s->d[q], b = out[q + 3] + s->d[q];
    if (a < out[q]) out[q] = a;
    if (b > out[q + 3]) out[q + 3] = b;
  }
}

/* The first half: the others, their responses and their moves; the
** number of others to move, or -1 (memory), -2 (a filter aborted). */
static int first_half(solid *s) {
  double b[6], sum[3] = {0, 0, 0};
  int i, nmove = 0, q;
  reach_bounds(s, b);
  if (obb_world_query_others(s->w, b, s->id, on_near, s) != 0) s->oom = 1;
  if (s->oom) return -1;
  if (s->nc > 1) qsort(s->c, (size_t)s->nc, sizeof(scand), cmp_asked);
  /* what it touches or is inside first, then what rests on its riders,
  ** then what its motion goes into, in the order met */
  for (i = 0; i < s->nc; i++) {
    scand *c = &s->c[i];
    int r;
    if (!c->touching && !c->inside) continue;
    r = ask(s, c, c->touching && c->floor ? OBB_RIDE : OBB_PUSH);
    if (r < 0) return -2;
    c->role = role_of(s, c, r);
  }
  i = find_stacks(s);
  if (i < 0) return -2;
  if (i == 0) return -1;
  for (i = 0; i < s->nc; i++) {
    scand *c = &s->c[i];
    int r;
    if (c->asked) continue;
    r = ask(s, c, OBB_PUSH);
    if (r < 0) return -2;
    c->role = role_of(s, c, r);
  }
  for (i = 0; i < s->nc; i++) {
    scand *c = &s->c[i];
    if (c->role == R_NONE || c->role == R_CROSS) continue;
    plan(s, c);
    nmove++;
  }
  /* the moves' order, then every other in the order asked */
  s->order = (int *)obb_world_scratch(s->w, OBB_SCRATCH_SOLID_INDEX,
                                      (size_t)(nmove + s->nc + 1) * sizeof(int));
  if (s->order == NULL) return -1;
  nmove = 0;
  for (i = 0; i < s->nc; i++) {
    const scand *c = &s->c[i];
    const double *oc;
    if (c->role == R_NONE || c->role == R_CROSS) continue;
    oc = c_of(s->dim, obb_world_box(s->w, c->id));
    for (q = 0; q < s->dim; q++) sum[q] += c->goal[q] - oc[q];
    s->order[nmove++] = i;
  }
  for (i = 0; i < s->nc; i++) s->order[nmove + s->c[i].asked - 1] = i;
  s->nmove = nmove;
  for (i = 0; i < nmove; i++) {
    scand *c = &s->c[s->order[i]];
    const double *oc = c_of(s->dim, obb_world_box(s->w, c->id));
    c->key = 0;
    for (q = 0; q < s->dim; q++) c->key += (oc[q] - s->c0[q]) * sum[q];
  }
  sort_order(s, nmove);
  return nmove;
}

/* One record per other affected, in the order asked. */
static int report_all(solid *s, obb_solid_report_fn report, void *ctx,
                      int *crushed) {
  int i, n = 0, nc = 0;
  for (i = 0; i < s->nasked; i++) {
    const scand *c = &s->c[s->order[s->nmove + i]];
    obb_solid_hit hit;
    if (c->role == R_NONE) continue;
    n++;
    if (c->crushed) nc++;
    if (report == NULL) continue;
    memset(&hit, 0, sizeof hit);
    hit.other = c->id;
    hit.what = c->crushed ? OBB_CRUSH
             : c->role == R_RIDE ? OBB_RIDE
             : c->role == R_STAND ? OBB_STAND
             : c->role == R_PUSH ? OBB_PUSH : OBB_CROSS;
    if (c->role == R_CROSS) {
      hit.t = t_of(c);
      memcpy(hit.n, c->n, sizeof hit.n);
    } else {
      hit.t = c->role == R_PUSH && c->met ? c->t : 0;
      memcpy(hit.n, c->n1, sizeof hit.n);
      memcpy(hit.d, c->d, sizeof hit.d);
      hit.depth = c->crushed ? c->end_depth : 0;
    }
    report(ctx, &hit);
  }
  if (crushed != NULL) *crushed = nc;
  return n;
}

int obb_world_move_solid(obb_world *w, int id, const void *goal,
                         obb_solid_filter_fn filter, obb_move_filter_fn movers,
                         obb_solid_report_fn report, void *ctx, int *crushed) {
  solid s;
  log_head *h = log_peek(w);
  const void *box = obb_world_box(w, id);
  double rest[4], up[3], slope;
  int why, nmove, i, rc;
  if (crushed != NULL) *crushed = 0;
  if (h != NULL) { /* nothing of an earlier move is undone from here on */
    h->n = 0;
    h->changes = -1;
    h->undone = 0;
  }
  if (box == NULL) return -1;
  memset(&s, 0, sizeof s);
  s.w = w;
  s.dim = obb_world_dim(w);
  s.id = id;
  s.filter = filter;
  s.movers = movers;
  s.ctx = ctx;
  s.has_up = obb_world_up(w, up, &slope);
  if (s.dim == 2) s.b0.b2 = *(const obb2 *)box;
  else s.b0.b3 = *(const obb3 *)box;
  memcpy(s.c0, c_of(s.dim, box), (size_t)s.dim * sizeof(double));
  rc = set_motion(&s, goal);
  if (rc < 0) return rc;
  set_mover(&s);
  s.cap = 32;
  s.c = (scand *)obb_world_scratch(w, OBB_SCRATCH_SOLID, 32 * sizeof(scand));
  if (s.c == NULL) return -1;
  nmove = first_half(&s);
  if (nmove < 0) return nmove;
  /* the second half: the solid, then each other */
  h = log_begin(w, nmove + 1);
  if (h == NULL) return -1;
  why = obb_world_move_end(w, rest);
  log_update(w, h, id, &s.b1);
  for (i = 0; i < nmove; i++) {
    rc = move_one(&s, h, &s.c[s.order[i]]);
    if (rc < 0) {
      obb_world_undo_solid(w);
      h->n = 0; /* nothing to redo */
      obb_world_set_move_end(w, why, rest);
      return rc;
    }
  }
  obb_world_set_move_end(w, why, rest); /* the moves inside are no move's */
  obb_character_solid_moved(w, id, &s.b0, &s.b1);
  return report_all(&s, report, ctx, crushed);
}
