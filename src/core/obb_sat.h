/*
** obb_sat.h: the separating-axis candidates of a pair of boxes, shared by
** penetration, contacts and sweeps (internal).
**
** For a pair of boxes a, b the candidate axes are a's face normals, b's
** face normals and, in 3D, the normalised cross products of an edge
** direction of a with one of b (exactly parallel edges give no axis: the
** face axes cover that case). On a unit axis L, with d = b.c - a.c,
** s = d.L is the projected distance between the centers and r the sum of
** the two projection radii, so the boxes overlap on L iff |s| <= r, by
** r - |s|. These are the face normals of the Minkowski difference, so the
** least overlap over them is the exact penetration depth.
** Because the axes depend only on the boxes' orientations, the same list
** serves every translate of the pair (which is what a sweep needs).
*/
#ifndef OBB_SAT_H
#define OBB_SAT_H

#include <float.h>
#include <math.h>

#include "obb.h"
#include "obb_math.h"

/* Axis ids, which are also the tie-breaking order: lower id wins a tie.
** 2D: 0, 1 are a's axes u, perp(u); 2, 3 are b's.
** 3D: 0..2 a's axes, 3..5 b's axes, 6 + 3*i + j the edge axis a_i x b_j. */
#define OBB_AXIS_EDGE 6

typedef struct obb_axes2 {
  double L[4][2];  /* unit axes */
  double s[4];     /* d . L */
  double r[4];     /* sum of projection radii on L */
  double scale;    /* |d| + all extents (L1): size of the configuration */
} obb_axes2;

typedef struct obb_axes3 {
  int n;           /* number of axes: 6 + the non-degenerate edge axes */
  int id[15];
  double L[15][3];
  double s[15];
  double r[15];
  double scale;
} obb_axes3;

void obb2_sat_axes(const obb2 *a, const obb2 *b, obb_axes2 *ax);
void obb3_sat_axes(const obb3 *a, const obb3 *b, obb_axes3 *ax);

/* obb2_sat_axes is these two halves: a's axes (0, 1), then b's (2, 3) and
** the scale, so that a caller may look at a's axes before it computes
** b's (the movers of obb_move.c find most pairs apart there). t carries
** what the halves share: d = b.c - a.c and c, s, |cos| and |sin| of the
** turn from a's axes to b's, exact 0 or 1 when the boxes are aligned up
** to rounding, so aligned boxes that touch give an overlap of exactly 0. */
typedef struct obb2_sat_turn {
  double d[2], c, s;
} obb2_sat_turn;

static inline void obb2_sat_axes_a(const obb2 *a, const obb2 *b,
                                   obb_axes2 *ax, obb2_sat_turn *t) {
  const double *ea = a->e, *eb = b->e;
  t->d[0] = b->c[0] - a->c[0];
  t->d[1] = b->c[1] - a->c[1];
  t->c = obb_snap_abs(a->u[0] * b->u[0] + a->u[1] * b->u[1]);
  t->s = obb_snap_abs(a->u[0] * b->u[1] - a->u[1] * b->u[0]);
  ax->L[0][0] = a->u[0]; ax->L[0][1] = a->u[1];
  ax->L[1][0] = -a->u[1]; ax->L[1][1] = a->u[0];
  ax->r[0] = ea[0] + eb[0] * t->c + eb[1] * t->s;
  ax->r[1] = ea[1] + eb[0] * t->s + eb[1] * t->c;
  ax->s[0] = obb_dot2(t->d, ax->L[0]);
  ax->s[1] = obb_dot2(t->d, ax->L[1]);
}

static inline void obb2_sat_axes_b(const obb2 *a, const obb2 *b,
                                   obb_axes2 *ax, const obb2_sat_turn *t) {
  const double *ea = a->e, *eb = b->e;
  ax->L[2][0] = b->u[0]; ax->L[2][1] = b->u[1];
  ax->L[3][0] = -b->u[1]; ax->L[3][1] = b->u[0];
  ax->r[2] = eb[0] + ea[0] * t->c + ea[1] * t->s;
  ax->r[3] = eb[1] + ea[0] * t->s + ea[1] * t->c;
  ax->s[2] = obb_dot2(t->d, ax->L[2]);
  ax->s[3] = obb_dot2(t->d, ax->L[3]);
  ax->scale = fabs(t->d[0]) + fabs(t->d[1]) + ea[0] + ea[1] + eb[0] + eb[1];
}

/* The axis of least overlap: returns its index in ax (not its id) and sets
** n to the direction in which a must move to leave b (-L or L) and depth
** to the overlap (clamped to >= 0), or returns -1 when the boxes are apart.
** Whether they touch is decided as obbN_intersects decides it. */
int obb2_sat_min(const obb2 *a, const obb2 *b, const obb_axes2 *ax,
                 double n[2], double *depth);
int obb3_sat_min(const obb3 *a, const obb3 *b, const obb_axes3 *ax,
                 double n[3], double *depth);

/* Over a step t in [0, 1] in which the projected distance on axis k moves
** as s[k] + t * v[k], intersects the per-axis intervals on which
** |s(t)| <= r[k] + band, over the n axes (band may be negative: the
** movers of obb_move.c ask when the boxes overlap by more than a band).
** Returns the index of the axis entered last (ties, within the entry's
** rounding *t_err, go to the lower index), with its entry time in *t
** (clamped to >= 0) and the first exit in *t_out (clamped to <= 1), or -1
** when the intervals do not meet within [0, 1]. (obb_sweep.c) */
int obb_sat_entry(const double *s, const double *r, const double *v, int n,
                  double band, double *t, double *t_out, double *t_err);

/* obb_sat_entry one axis at a time, so that a caller may run it for two
** bands in one pass over the axes (the movers of obb_move.c) and get the
** bits of two calls: obb_entry_start, then obb_entry_axis for axes 0 ..
** n - 1 in order (0 from it: the intervals do not meet, stop there), then
** obb_entry_end. */
typedef struct obb_entry {
  double enter, exit, tie, latest;
  int best;
} obb_entry;

/* Entries within this many ulps (of the axis's own rounding) count as
** equal, so ties go to the lower axis id rather than to rounding. */
#define OBB_ENTRY_TIE_ULPS 16

static inline void obb_entry_start(obb_entry *e) {
  e->enter = -1;
  e->exit = 1;
  e->tie = 0;
  e->latest = -1;
  e->best = -1;
}

static inline int obb_entry_axis(obb_entry *e, int k, double s, double r,
                                 double v, double band) {
  double t0, t1, err, rk = r + band;
  if (rk < 0) return 0; /* a band shrinking r below 0: never overlap */
  if (v == 0) return !(fabs(s) > rk); /* 0: apart on L for the whole step */
  t0 = (-rk - s) / v;
  t1 = (rk - s) / v;
  if (t0 > t1) { double x = t0; t0 = t1; t1 = x; }
  err = OBB_ENTRY_TIE_ULPS * DBL_EPSILON * (fabs(s) + rk) / fabs(v);
  if (e->best < 0 || t0 > e->enter + obb_fmax(e->tie, err)) {
    e->enter = t0;
    e->tie = err;
    e->best = k;
  }
  if (t0 > e->latest) e->latest = t0;
  if (t1 < e->exit) e->exit = t1;
  return 1;
}

/* The tie rule picks the axis, never whether they meet: an axis crawling
** (tiny |v|, so a large err) whose entry comes after the step still keeps
** them apart for all of it (an item sliding along a face it touches at
** the band's edge, its remainder clipped to rounding). */
static inline int obb_entry_end(const obb_entry *e, double *t, double *t_out,
                                double *t_err) {
  if (e->best < 0 || e->enter > e->exit || e->latest > 1 || e->exit < 0)
    return -1;
  *t = obb_fmax(e->enter, 0.0);
  *t_out = obb_fmin(e->exit, 1.0);
  *t_err = e->tie;
  return e->best;
}

#endif
