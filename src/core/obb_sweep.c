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
** depends on where the boxes are, so it is taken at its largest over the
** step (at one of its ends: it is convex in t), which bounds every time
** intersects could report; within those bounds the first time it does is
** searched for (graze). Either way the time reported is one at which
** obbN_intersects holds for the moved boxes.
*/
#include "obb.h"
#include "obb_math.h"
#include "obb_sat.h"
#include "obb_touch.h"

int obb_sat_entry(const double *s, const double *r, const double *v, int n,
                  double band, double *t, double *t_out, double *t_err) {
  obb_entry e;
  int k;
  obb_entry_start(&e);
  for (k = 0; k < n; k++)
    if (!obb_entry_axis(&e, k, s[k], r[k], v[k], band)) return -1;
  return obb_entry_end(&e, t, t_out, t_err);
}

/* Whether the boxes of a sweep, moved to time t, intersect. */
typedef int (*touch_at_fn)(const void *ctx, double t);

/* Grazing boxes (they pass within the band without meeting) touch while
** their gap is within a band that itself changes as they move, so there
** is no formula for the time: the first time in [lo, hi] at which they
** intersect is found by 32 samples, then bisection to the last bit, or -1
** when no sample touches (a contact so brief, at the band's very edge, is
** left to rounding anyway). */
static double graze(touch_at_fn at, const void *ctx, double lo, double hi) {
  double prev = lo;
  int i, j;
  if (at(ctx, lo)) return lo;
  for (i = 1; i <= 32; i++) {
    double t = i == 32 ? hi : lo + (hi - lo) * (i / 32.0);
    if (at(ctx, t)) {
      for (j = 0; j < 64; j++) {
        double mid = prev + (t - prev) * 0.5;
        if (mid <= prev || mid >= t) break;
        if (at(ctx, mid)) t = mid;
        else prev = mid;
      }
      return t;
    }
    prev = t;
  }
  return -1;
}

typedef struct sweep2 {
  const obb2 *a, *b;
  const double *va, *vb;
} sweep2;

typedef struct sweep3 {
  const obb3 *a, *b;
  const double *va, *vb;
} sweep3;

/* The computed entry time is right to rounding, which leaves the moved
** boxes a hair apart about half the time. Step t forward by doubling
** amounts, within the entry's rounding error, to the first time at which
** obbN_intersects holds for the boxes moved the way translate moves them
** (c + v * t), so that t and intersects agree. The moved centers are
** rounded to their last bit, which shifts the gap by a few ulps of the
** largest coordinate M: the window counts that too (pos_err). Returns -1
** when no time in the window makes them intersect: boxes that pass at the
** very edge of the touching band, where rounding of their centers decides,
** and the sweep then reports no contact rather than a time at which
** intersects says apart. */
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

/* The time the gap takes, at relative speed v along the contact axis, to
** change by 8 ulps of the largest coordinate over the step (n
** coordinates; centers ca, cb moving by va, vb). */
static double pos_err(int n, const double *ca, const double *va,
                      const double *cb, const double *vb, double v) {
  double m = 0;
  int q;
  for (q = 0; q < n; q++)
    m = obb_max3(m, obb_fmax(fabs(ca[q]), fabs(ca[q] + va[q])),
                 obb_fmax(fabs(cb[q]), fabs(cb[q] + vb[q])));
  return 8 * DBL_EPSILON * m / fabs(v);
}

static int touch_at2(const void *ctx, double t) {
  const sweep2 *w = (const sweep2 *)ctx;
  obb2 ma, mb;
  moved2(w->a, w->b, w->va, w->vb, t, &ma, &mb);
  return obb2_intersects(&ma, &mb);
}

static int touch_at3(const void *ctx, double t) {
  const sweep3 *w = (const sweep3 *)ctx;
  obb3 ma, mb;
  moved3(w->a, w->b, w->va, w->vb, t, &ma, &mb);
  return obb3_intersects(&ma, &mb);
}

static double settle2(const obb2 *a, const obb2 *b, const double va[2],
                      const double vb[2], double t, double err) {
  double d = DBL_EPSILON * obb_fmax(t, DBL_MIN), tt = t;
  obb2 ma, mb;
  for (;;) {
    moved2(a, b, va, vb, tt, &ma, &mb);
    if (obb2_intersects(&ma, &mb)) return tt;
    if (tt >= 1 || d > 4 * err) return -1;
    tt = obb_fmin(1.0, t + d);
    d *= 2;
  }
}

static double settle3(const obb3 *a, const obb3 *b, const double va[3],
                      const double vb[3], double t, double err) {
  double d = DBL_EPSILON * obb_fmax(t, DBL_MIN), tt = t;
  obb3 ma, mb;
  for (;;) {
    moved3(a, b, va, vb, tt, &ma, &mb);
    if (obb3_intersects(&ma, &mb)) return tt;
    if (tt >= 1 || d > 4 * err) return -1;
    tt = obb_fmin(1.0, t + d);
    d *= 2;
  }
}

/* No contact during the step: t = +inf and a zero normal, so that every
** output is written. */
static int no_contact(int dim, double *t, double *n) {
  int i;
  *t = HUGE_VAL;
  for (i = 0; i < dim; i++) n[i] = 0.0;
  return 0;
}

int obb2_sweep(const obb2 *a, const obb2 *b, const double va[2],
               const double vb[2], double *t, double n[2]) {
  obb_axes2 ax;
  double w[2], v[4], depth, err, half = 1.0, band, out;
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
  k = obb_sat_entry(ax.s, ax.r, v, 4, 0.0, t, &out, &err);
  if (k >= 0) {
    err += pos_err(2, a->c, va, b->c, vb, v[k]);
    *t = settle2(a, b, va, vb, *t, err);
  } else { /* a grazing contact, or none */
    sweep2 ctx;
    ctx.a = a; ctx.b = b; ctx.va = va; ctx.vb = vb;
    band = obb_fmax(band2(a, b, va, vb, 0.0), band2(a, b, va, vb, 1.0));
    k = obb_sat_entry(ax.s, ax.r, v, 4, half * band, t, &out, &err);
    if (k < 0) return no_contact(2, t, n);
    *t = graze(touch_at2, &ctx, *t, out);
  }
  if (*t < 0) return no_contact(2, t, n);
  /* v > 0: b moves along +L relative to a, so it arrives on a's -L side
  ** and a's way out is +L; in general n = sign(v) * L. */
  n[0] = (v[k] > 0 ? ax.L[k][0] : -ax.L[k][0]) + 0.0;
  n[1] = (v[k] > 0 ? ax.L[k][1] : -ax.L[k][1]) + 0.0;
  return 1;
}

int obb3_sweep(const obb3 *a, const obb3 *b, const double va[3],
               const double vb[3], double *t, double n[3]) {
  obb_axes3 ax;
  double w[3], v[15], depth, err, half = 1.0, band, out;
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
  k = obb_sat_entry(ax.s, ax.r, v, ax.n, 0.0, t, &out, &err);
  if (k >= 0) {
    err += pos_err(3, a->c, va, b->c, vb, v[k]);
    *t = settle3(a, b, va, vb, *t, err);
  } else { /* a grazing contact, or none */
    sweep3 ctx;
    ctx.a = a; ctx.b = b; ctx.va = va; ctx.vb = vb;
    band = obb_fmax(band3(a, b, va, vb, 0.0), band3(a, b, va, vb, 1.0));
    k = obb_sat_entry(ax.s, ax.r, v, ax.n, half * band, t, &out, &err);
    if (k < 0) return no_contact(3, t, n);
    *t = graze(touch_at3, &ctx, *t, out);
  }
  if (*t < 0) return no_contact(3, t, n);
  for (q = 0; q < 3; q++) n[q] = (v[k] > 0 ? ax.L[k][q] : -ax.L[k][q]) + 0.0;
  return 1;
}
