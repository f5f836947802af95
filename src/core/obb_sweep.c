/*
** obb_sweep.c: time of first contact of two boxes moving linearly (without
** turning) over one step, by the separating-axis test over time intervals
** (Eberly, "Dynamic Collision Detection using Oriented Bounding Boxes").
**
** While the boxes only translate, the candidate axes stay fixed. On each,
** the projected distance between centers moves linearly,
** s(t) = s + t * v with v = (vb - va) . L, and the projections overlap
** while |s(t)| <= r: an interval of t. The boxes intersect exactly when
** every axis overlaps, so the times they intersect are the intersection
** of these intervals, and first contact is its start: the latest entry
** over all axes, whose axis is the contact normal.
**
** Touching is decided as obbN_intersects decides it, with the band of
** obb_touch.h. The time reported is that of exact contact (the band plays
** no part) when the boxes reach each other. Boxes that only graze, passing
** within the band without meeting, still touch: on each axis the
** projections then count as overlapping while |s(t)| <= r + B. The band
** depends on where the boxes are, so it is taken first at its largest over
** the step (at one of its ends: it is convex in t), which finds every
** contact intersects could report, then at the time found. Either time is
** settled against obbN_intersects itself.
*/
#include "obb.h"
#include "obb_math.h"
#include "obb_sat.h"
#include "obb_touch.h"

/* Entries within this many ulps (of the axis's own rounding) count as
** equal, so ties go to the lower axis id rather than to rounding. */
#define TIE_ULPS 16

/* Intersects per-axis entry/exit intervals over the n axes, each radius
** grown by band. Returns the index of the axis entered last, with its
** entry time in *t, or -1 when the intervals do not meet within [0, 1]. */
static int first_contact(const double *s, const double *r, const double *v,
                         int n, double band, double *t, double *t_err) {
  double enter = -1, exit = 1, tie = 0;
  int k, best = -1;
  for (k = 0; k < n; k++) {
    double t0, t1, err, rk = r[k] + band;
    if (v[k] == 0) {
      if (fabs(s[k]) > rk) return -1; /* apart on L for the whole step */
      continue;
    }
    t0 = (-rk - s[k]) / v[k];
    t1 = (rk - s[k]) / v[k];
    if (t0 > t1) { double x = t0; t0 = t1; t1 = x; }
    err = TIE_ULPS * DBL_EPSILON * (fabs(s[k]) + rk) / fabs(v[k]);
    if (best < 0 || t0 > enter + fmax(tie, err)) {
      enter = t0;
      tie = err;
      best = k;
    }
    if (t1 < exit) exit = t1;
  }
  if (best < 0 || enter > exit || enter > 1 || exit < 0) return -1;
  *t = fmax(enter, 0.0);
  *t_err = tie;
  return best;
}

/* The computed entry time is right to rounding, which leaves the moved
** boxes a hair apart about half the time. Step t forward by doubling
** amounts, within the entry's rounding error, to the first time at which
** obbN_intersects holds for the boxes moved the way translate moves them
** (c + v * t), so that t and intersects agree. */
/* Entry and exit times are ratios (s +- r) / v: halving s, r and v alike
** keeps them, and keeps a relative velocity near DBL_MAX finite. */
static void halve(double *s, double *r, int n) {
  int k;
  for (k = 0; k < n; k++) {
    s[k] *= 0.5;
    r[k] *= 0.5;
  }
}

/* The boxes moved to time t, the way translate moves them. */
static void moved2(const obb2 *a, const obb2 *b, const double va[2],
                   const double vb[2], double t, obb2 *ma, obb2 *mb) {
  *ma = *a; *mb = *b;
  ma->c[0] = a->c[0] + va[0] * t; ma->c[1] = a->c[1] + va[1] * t;
  mb->c[0] = b->c[0] + vb[0] * t; mb->c[1] = b->c[1] + vb[1] * t;
}

static void moved3(const obb3 *a, const obb3 *b, const double va[3],
                   const double vb[3], double t, obb3 *ma, obb3 *mb) {
  int q;
  *ma = *a; *mb = *b;
  for (q = 0; q < 3; q++) {
    ma->c[q] = a->c[q] + va[q] * t;
    mb->c[q] = b->c[q] + vb[q] * t;
  }
}

/* The pair's band at time t. */
static double band2(const obb2 *a, const obb2 *b, const double va[2],
                    const double vb[2], double t) {
  obb2 ma, mb;
  moved2(a, b, va, vb, t, &ma, &mb);
  return obb2_pair_band(&ma, &mb);
}

static double band3(const obb3 *a, const obb3 *b, const double va[3],
                    const double vb[3], double t) {
  obb3 ma, mb;
  moved3(a, b, va, vb, t, &ma, &mb);
  return obb3_pair_band(&ma, &mb);
}

static double settle2(const obb2 *a, const obb2 *b, const double va[2],
                      const double vb[2], double t, double err) {
  double d = DBL_EPSILON * fmax(t, DBL_MIN), tt = t;
  obb2 ma, mb;
  for (;;) {
    moved2(a, b, va, vb, tt, &ma, &mb);
    if (obb2_intersects(&ma, &mb)) return tt;
    if (tt >= 1 || d > 4 * err) return t; /* keep the computed time */
    tt = fmin(1.0, t + d);
    d *= 2;
  }
}

static double settle3(const obb3 *a, const obb3 *b, const double va[3],
                      const double vb[3], double t, double err) {
  double d = DBL_EPSILON * fmax(t, DBL_MIN), tt = t;
  obb3 ma, mb;
  for (;;) {
    moved3(a, b, va, vb, tt, &ma, &mb);
    if (obb3_intersects(&ma, &mb)) return tt;
    if (tt >= 1 || d > 4 * err) return t;
    tt = fmin(1.0, t + d);
    d *= 2;
  }
}

int obb2_sweep(const obb2 *a, const obb2 *b, const double va[2],
               const double vb[2], double *t, double n[2]) {
  obb_axes2 ax;
  double w[2], v[4], depth, err, half = 1.0, band;
  int k;
  obb2_sat_axes(a, b, &ax);
  if (obb2_sat_min(a, b, &ax, n, &depth) >= 0) {
    *t = 0;
    return 1;
  }
  w[0] = vb[0] - va[0];
  w[1] = vb[1] - va[1];
  if (!obb_finite(w[0]) || !obb_finite(w[1])) { /* |v| near DBL_MAX */
    w[0] = 0.5 * vb[0] - 0.5 * va[0];
    w[1] = 0.5 * vb[1] - 0.5 * va[1];
    halve(ax.s, ax.r, 4);
    half = 0.5;
  }
  for (k = 0; k < 4; k++) v[k] = obb_dot2(w, ax.L[k]);
  k = first_contact(ax.s, ax.r, v, 4, 0.0, t, &err);
  if (k < 0) { /* a grazing contact, or none */
    band = fmax(band2(a, b, va, vb, 0.0), band2(a, b, va, vb, 1.0));
    if (first_contact(ax.s, ax.r, v, 4, half * band, t, &err) < 0) return 0;
    k = first_contact(ax.s, ax.r, v, 4, half * band2(a, b, va, vb, *t), t,
                      &err);
    if (k < 0) return 0;
  }
  *t = settle2(a, b, va, vb, *t, err);
  /* v > 0: b moves along +L relative to a, so it arrives on a's -L side
  ** and a's way out is +L; in general n = sign(v) * L. */
  n[0] = (v[k] > 0 ? ax.L[k][0] : -ax.L[k][0]) + 0.0;
  n[1] = (v[k] > 0 ? ax.L[k][1] : -ax.L[k][1]) + 0.0;
  return 1;
}

int obb3_sweep(const obb3 *a, const obb3 *b, const double va[3],
               const double vb[3], double *t, double n[3]) {
  obb_axes3 ax;
  double w[3], v[15], depth, err, half = 1.0, band;
  int k, q;
  obb3_sat_axes(a, b, &ax);
  if (obb3_sat_min(a, b, &ax, n, &depth) >= 0) {
    *t = 0;
    return 1;
  }
  for (q = 0; q < 3; q++) w[q] = vb[q] - va[q];
  if (!obb_finite(w[0]) || !obb_finite(w[1]) || !obb_finite(w[2])) {
    for (q = 0; q < 3; q++) w[q] = 0.5 * vb[q] - 0.5 * va[q];
    halve(ax.s, ax.r, ax.n);
    half = 0.5;
  }
  for (k = 0; k < ax.n; k++) v[k] = obb_dot3(w, ax.L[k]);
  k = first_contact(ax.s, ax.r, v, ax.n, 0.0, t, &err);
  if (k < 0) { /* a grazing contact, or none */
    band = fmax(band3(a, b, va, vb, 0.0), band3(a, b, va, vb, 1.0));
    if (first_contact(ax.s, ax.r, v, ax.n, half * band, t, &err) < 0) return 0;
    k = first_contact(ax.s, ax.r, v, ax.n, half * band3(a, b, va, vb, *t), t,
                      &err);
    if (k < 0) return 0;
  }
  *t = settle3(a, b, va, vb, *t, err);
  for (q = 0; q < 3; q++) n[q] = (v[k] > 0 ? ax.L[k][q] : -ax.L[k][q]) + 0.0;
  return 1;
}
