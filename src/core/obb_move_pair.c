/*
** obb_move_pair.c: what one other does to a leg of a move (obb_move.c):
** the geometry of one pair, for a translation and for a turning leg.
**
** A leg moves the item (its box at the leg's start) by the remainder r,
** and turns it by wl on a turning leg. Against one other, the touching
** rule turned around decides: the other blocks only from the first time
** the two overlap by more than the band B on every axis (the separating-
** axis test over time, obb_sat.h), and the item stops where it first
** meets it exactly; an other the item already overlaps by more than B is
** OVERLAP, a plane it may not go deeper along; a pair too thin to overlap
** by more than B blocks where the item would pass through it. A turning
** leg asks the certified turning sweep (obb_sweep_turning.h) the same
** question. Most others a leg finds near are told apart on one axis
** first (near_pair2, near_pair3), without the divisions of the entry
** times.
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "obb_mover.h"
#include "obb_sat.h"
#include "obb_sweep_turning.h"
#include "obb_touch.h"

/* The separating axes of the item and an other, as obbN_sat_axes gives
** them; n, s and r read them alike in either dimension. */
typedef struct axes {
  int n;
  const double *s, *r;
  union {
    obb_axes2 a2;
    obb_axes3 a3;
  } raw;
} axes;

/* The separating axes of the item and other into x. */
static void pair_axes(const mover *m, const void *other, axes *x) {
  if (m->dim == 2) {
    obb2_sat_axes(&m->item.b2, (const obb2 *)other, &x->raw.a2);
    x->n = 4;
    x->s = x->raw.a2.s;
    x->r = x->raw.a2.r;
  } else {
    obb3_sat_axes(&m->item.b3, (const obb3 *)other, &x->raw.a3);
    x->n = x->raw.a3.n;
    x->s = x->raw.a3.s;
    x->r = x->raw.a3.r;
  }
}

/* The unit normal of axis k pointing the way s(t) shrinks on it when the
** speed there is v (the item's way into the other), z = 0 in 2D. */
static void axis_normal(const mover *m, const axes *x, int k, double v,
                        double n[3]) {
  int q;
  if (m->dim == 2) {
    const double *L = x->raw.a2.L[k];
    n[0] = (v > 0 ? L[0] : -L[0]) + 0.0;
    n[1] = (v > 0 ? L[1] : -L[1]) + 0.0;
    n[2] = 0;
  } else {
    const double *L = x->raw.a3.L[k];
    for (q = 0; q < 3; q++) n[q] = (v > 0 ? L[q] : -L[q]) + 0.0;
  }
}

/* Whether the two overlap by more than band; if so the penetration normal
** and depth (found as obbN_penetration finds them). */
static inline int pair_deeper(const mover *m, const void *other,
                              const axes *x, double band, double n[3],
                              double *depth) {
  n[2] = 0;
  return obb_sat_deeper(x->s, x->r, x->n, band) &&
         (m->dim == 2
              ? obb2_sat_min(&m->item.b2, (const obb2 *)other, &x->raw.a2, n,
                             depth)
              : obb3_sat_min(&m->item.b3, (const obb3 *)other, &x->raw.a3, n,
                             depth)) >= 0;
}

/* The pair's band with the item's center at p. */
static double band_at(const mover *m, const double p[3], const void *other) {
  return obb_pair_band(m->dim, p, extents(m->dim, &m->item),
                       center_of(m->dim, other), extents(m->dim, other));
}

/* obb_pair_band of a 2D pair with the item's center at p, written out:
** its sums and maxima in its order (its S starts at 0.0, which adds
** nothing to |d| plus extents, never -0); e: the extents' sums, item's
** plus other's. */
static inline double band2_at(const double p[2], const double *oc,
                              const double e[2]) {
  double S = (fabs(oc[0] - p[0]) + e[0]) + (fabs(oc[1] - p[1]) + e[1]);
  double M = obb_max3(obb_max3(0.0, fabs(p[0]), fabs(oc[0])), fabs(p[1]),
                      fabs(oc[1]));
  return obb_band(S, M);
}

/* The pair's band at its largest while the item's center runs from
** pos + t0 r to pos + t1 r: at one of the two (it grows with the distance
** between the centers and with the largest coordinate, both convex in t);
** in 2D written out, the extents' sums shared by both. Taken over the
** times the two overlap at all (not over the whole leg), so that a leg
** far longer than the scene does not widen the band past the other's
** thickness and carry the item through it. */
static double span_band(const mover *m, const void *other, double t0,
                        double t1) {
  double a[3], b[3];
  int q;
  for (q = 0; q < 3; q++) {
    a[q] = m->pos[q] + t0 * m->r[q];
    b[q] = m->pos[q] + t1 * m->r[q];
  }
  if (m->dim == 2) {
    const obb2 *o = (const obb2 *)other;
    double e[2];
    e[0] = m->item.b2.e[0] + o->e[0];
    e[1] = m->item.b2.e[1] + o->e[1];
    return obb_fmax(band2_at(a, o->c, e), band2_at(b, o->c, e));
  }
  return obb_fmax(band_at(m, a, other), band_at(m, b, other));
}

/* A floor under the pair's band for apart_on: half its OBB_TOUCH_REL part
** over the extents alone (its S sums them with the distances, so at
** least them, to rounding, for which the half leaves room), so that the
** many pairs told apart do not pay for the band itself. */
static double band_floor(const mover *m, const void *other) {
  double e;
  if (m->dim == 2) {
    const double *ie = m->item.b2.e, *oe = ((const obb2 *)other)->e;
    e = (ie[0] + ie[1]) + (oe[0] + oe[1]);
  } else {
    const double *ie = m->item.b3.e, *oe = ((const obb3 *)other)->e;
    e = (ie[0] + ie[1] + ie[2]) + (oe[0] + oe[1] + oe[2]);
  }
  return 0.5 * OBB_TOUCH_REL * e;
}

/* Whether axis k keeps the two from overlapping by more than band for the
** whole leg: s(t) = s + v t, t in [0, 1], stays beyond r - band by a
** margin of 2^-45 of the terms (thousands of times the rounding of the
** times obb_sat_entry works out, so that its entry on k comes after the
** leg or its exit before it; plus a floor for subnormal sizes). Then the
** item neither overlaps the other by more than the band now (pair_deeper)
** nor goes deeper within the leg (obb_sat_entry with -band gives -1): the
** other is NONE, told here without the divisions, as are most of the
** others a leg finds near, apart or touching and sliding along (their gap
** within the band, the margin far inside it). A band less than the
** pair's only makes the test stricter. */
static inline int apart_on(const double *s, const double *r,
                           const double *v, double band, int k) {
  double s0 = s[k], s1 = s0 + v[k];
  double edge = (r[k] - band) +
                (0x1p-45 * (fabs(s0) + fabs(v[k]) + r[k]) + 0x1p-1000);
  return (s0 > edge && s1 > edge) || (s0 < -edge && s1 < -edge);
}

/* The speed of s(t) = s + t * v on a 2D axis L while the item moves by r
** and the other stands: v = -(r . L) (without the z term, 0 * 0, which
** could only change the sign of a zero speed: nothing here tells the two
** zeros apart). */
static double speed2(const mover *m, const double L[2]) {
  return -(m->r[0] * L[0] + m->r[1] * L[1]);
}

/* The separating axes of the item and other into x and the speeds on them
** into v, in 2D; 0 as soon as an axis keeps the two apart (apart_on, with
** band a floor under the pair's): the item's own axes are tried before
** the other's are worked out, and most of the pairs a leg rejects are
** rejected there. The axes and speeds are worked out in locals and kept
** in x and v only for a pair found near (a rejected pair's need not go
** through memory). */
static int near_pair2(const mover *m, const obb2 *other, double band,
                      axes *x, double *v) {
  obb_axes2 a;
  double w[4];
  obb2_sat_turn t;
  obb2_sat_axes_a(&m->item.b2, other, &a, &t);
  w[0] = speed2(m, a.L[0]);
  w[1] = speed2(m, a.L[1]);
  if (apart_on(a.s, a.r, w, band, 0) || apart_on(a.s, a.r, w, band, 1))
    return 0;
  obb2_sat_axes_b(&m->item.b2, other, &a, &t);
  w[2] = speed2(m, a.L[2]);
  w[3] = speed2(m, a.L[3]);
  if (apart_on(a.s, a.r, w, band, 2) || apart_on(a.s, a.r, w, band, 3))
    return 0;
  x->n = 4;
  x->raw.a2 = a;
  x->s = x->raw.a2.s;
  x->r = x->raw.a2.r;
  memcpy(v, w, sizeof w);
  return 1;
}

/* near_pair2 in 3D, every axis worked out first. */
static int near_pair3(const mover *m, const obb3 *other, double band,
                      axes *x, double *v) {
  int k;
  pair_axes(m, other, x);
  for (k = 0; k < x->n; k++) v[k] = -obb_dot3(m->r, x->raw.a3.L[k]);
  for (k = 0; k < x->n; k++)
    if (apart_on(x->s, x->r, v, band, k)) return 0;
  return 1;
}

/* A blocker met corner to corner touches on several axes at once, and
** which of them is its normal is a matter of rounding (the slower one
** closes last). Every axis on which the item, at the stop time, overlaps
** by no more than the band and goes deeper is kept, the blocking one
** first; meet_blockers chooses among them (choose_normal). */
static void corner_normals(const mover *m, const axes *x, const double *v,
                           double band, int kb, cand *c) {
  int k;
  memcpy(c->corner[0], c->n, sizeof c->n);
  c->ncorner = 1;
  for (k = 0; k < x->n && c->ncorner < MAX_CORNER; k++) {
    double st = x->s[k] + v[k] * c->t, *n = c->corner[c->ncorner];
    int a, seen = 0;
    if (k == kb || !(x->r[k] - fabs(st) <= band) || !(st * v[k] < 0))
      continue;
    axis_normal(m, x, k, v[k], n);
    for (a = 0; a < c->ncorner; a++) /* the boxes' axes may coincide */
      if (parallel(n, c->corner[a])) seen = 1;
    if (!seen) c->ncorner++;
  }
}

/* Whether s, from s0 to s1 on an axis whose radii sum to r, passes through
** the pair's slab |s| <= r: from strictly outside it on one side to beyond
** the band on the other. A pair that thin (r <= band: a point, a segment or
** a flat box against a flat one) can overlap by no more than the band, so
** this is what going into it means there. */
static int passes(double s0, double s1, double r, double band) {
  return (s0 > r && s1 < -(r + band)) || (s0 < -r && s1 > r + band);
}

/* When the item first goes deeper than the band into the other, on axis
** kb (returned; -1 when it never does within the leg), into *t, or, when
** earlier, when it first meets it exactly (band 0); the band, taken over
** the times they meet (span_band), into *band. On an axis that thin (r <=
** band) the item goes in by passing through it: that axis is the normal,
** and the item stops half a band short of it, on the side it came from,
** so that the next move (rounding or not) still starts on that side. */
static int entry_time(const mover *m, const void *other, const axes *x,
                      const double *v, double *t, double *band) {
  obb_entry deep, meet;
  double t0, t1, tb, out, err, b;
  int k, kb, flat = -1;
  obb_entry_start(&meet);
  for (k = 0; k < x->n; k++)
    if (!obb_entry_axis(&meet, k, x->s[k], x->r[k], v[k], 0.0)) return -1;
  if (obb_entry_end(&meet, &t0, &t1, &err) < 0) return -1;
  b = span_band(m, other, t0, t1);
  obb_entry_start(&deep);
  for (k = 0; k < x->n; k++) {
    double s = x->s[k], r = x->r[k], level = -b;
    if (!(r > b)) {
      if (!passes(s, s + v[k], r, b)) return -1;
      level = 0.5 * b;
      if (flat < 0) flat = k;
    }
    if (!obb_entry_axis(&deep, k, s, r, v[k], level)) return -1;
  }
  kb = obb_entry_end(&deep, &tb, &out, &err);
  if (kb < 0) return -1;
  *t = t0 < tb ? t0 : tb;
  *band = b;
  return flat >= 0 ? flat : kb;
}

/* The squared distance between the item's center at pos and the other's,
** for ties (summed from the first square: 0 plus a square is that
** square). */
static double center_dist(const mover *m, const void *other) {
  const double *oc = center_of(m->dim, other), *p = m->pos;
  double d = (oc[0] - p[0]) * (oc[0] - p[0]) + (oc[1] - p[1]) * (oc[1] - p[1]);
  if (m->dim == 3) d += (oc[2] - p[2]) * (oc[2] - p[2]);
  return d;
}

/* Sorts the other into NONE, OVERLAP (deeper than the band now) or BLOCK
** (the item, moved by r, goes deeper than the band at some t in [0, 1]),
** filling c. */
int obb_move_classify(mover *m, const void *other, cand *c) {
  axes x;
  double band, v[15];
  int kb;
  band = band_floor(m, other);
  if (m->dim == 2 ? !near_pair2(m, (const obb2 *)other, band, &x, v)
                  : !near_pair3(m, (const obb3 *)other, band, &x, v))
    return NONE;
  band = band_at(m, m->pos, other);
  if (pair_deeper(m, other, &x, band, c->n, &c->depth)) {
    c->kind = OVERLAP;
    c->t = 0;
    c->tie = 0;
    c->dist = center_dist(m, other);
    return OVERLAP;
  }
  kb = entry_time(m, other, &x, v, &c->t, &band);
  if (kb < 0) return NONE;
  c->kind = BLOCK;
  /* another other ties when, at this one's time, the item is within its
  ** band of it too: the gap closes at |v| per unit of t */
  c->tie = band / fabs(v[kb]);
  c->depth = 0;
  c->dist = center_dist(m, other);
  axis_normal(m, &x, kb, v[kb], c->n);
  corner_normals(m, &x, v, band, kb, c);
  return BLOCK;
}

/* The least the pair's band can be while the item's center runs from pos
** to pos + r (obb_touch.h: the band grows with the distance between the
** centers and with the largest coordinate, so each is taken at its least
** over the segment), a hair less for the rounding of these sums: a
** turning leg may not go deeper than this into an other it touches. */
static double floor_band(const mover *m, const void *other) {
  const double *oc = center_of(m->dim, other), *oe = extents(m->dim, other),
               *ie = extents(m->dim, &m->item);
  double S = 0, M = 0;
  int q;
  for (q = 0; q < m->dim; q++) {
    double p0 = m->pos[q], p1 = m->pos[q] + m->r[q];
    double a = oc[q] - p0, b = oc[q] - p1;
    S += (a > 0) == (b > 0) && a != 0 && b != 0 ? fmin(fabs(a), fabs(b)) : 0;
    S += ie[q] + oe[q];
    M = obb_max3(M, fabs(oc[q]),
                 (p0 > 0) == (p1 > 0) ? fmin(fabs(p0), fabs(p1)) : 0);
  }
  return obb_band(S, M) * (1 - 0x1p-20);
}

/* Whether any of the box's dim half extents is at most tol. */
static int thin(int dim, const double *e, double tol) {
  return e[0] <= tol || e[1] <= tol || (dim == 3 && e[2] <= tol);
}

/* The turning sweep of the item's leg against other: no deeper than the
** band at its least over the leg (obbN_sweep_turning_within, which stops
** an item that deep already at once), whether the item starts apart from
** it, touching or overlapping it (over). A pair that may be flat (each
** box thin along some axis: segments, flat boxes) may never overlap by
** more than that, and is swept from apart to where they first touch
** instead (obbN_sweep_turning), so a turning segment cannot pass through
** a wall of no thickness. */
static int sweep_turning(mover *m, const void *other, int over, double *t,
                         double n[3]) {
  static const double zero[3] = {0, 0, 0};
  double floor = floor_band(m, other);
  int flat = thin(m->dim, extents(m->dim, &m->item), floor) &&
             thin(m->dim, extents(m->dim, other), floor);
  if (m->dim == 2) {
    const obb2 *a = &m->item.b2, *b = (const obb2 *)other;
    if (over || !flat || obb2_intersects(a, b))
      return obb2_sweep_turning_within(a, b, m->r, m->wl, floor, t, n);
    return obb2_sweep_turning(a, b, m->r, zero, m->wl, 0.0, t, n);
  } else {
    const obb3 *a = &m->item.b3, *b = (const obb3 *)other;
    double rv[3];
    int q;
    for (q = 0; q < 3; q++) rv[q] = m->wl * m->axis[q];
    if (over || !flat || obb3_intersects(a, b))
      return obb3_sweep_turning_within(a, b, m->r, rv, floor, t, n);
    return obb3_sweep_turning(a, b, m->r, zero, rv, zero, t, n);
  }
}

/* classify for a turning leg (the item moves by r and turns by w), into
** c (and c2): BLOCK at the certified time the item could first go deeper
** than the band into the other (a flat pair: first touches it, from
** apart), else NONE. An other the item overlaps by more than the band
** at the leg's start is OVERLAP, as in classify (a plane for the
** translation), and, in c2, a BLOCK where the turn could take the item
** deeper into it than it is. A sweep that cannot decide
** (OBB_SWEEP_LIMIT) blocks at its safe time. Returns how many of c, c2
** are set. */
int obb_move_classify_turning(mover *m, const void *other, cand *c,
                               cand *c2) {
  axes x;
  double band, depth = 0, t = 0, n[3] = {0, 0, 0};
  int over, r, q, k = 0;
  const double *oc = center_of(m->dim, other);
  band = band_at(m, m->pos, other);
  pair_axes(m, other, &x);
  over = pair_deeper(m, other, &x, band, c->n, &depth);
  c->dist = 0;
  for (q = 0; q < m->dim; q++)
    c->dist += (oc[q] - m->pos[q]) * (oc[q] - m->pos[q]);
  c->tie = 0;
  c->depth = 0;
  c->ncorner = 1;
  if (over) {
    c->kind = OVERLAP;
    c->t = 0;
    c->depth = depth;
    *c2 = *c;
    c = c2;
    k = 1;
  }
  r = sweep_turning(m, other, over, &t, n);
  if (r == OBB_SWEEP_NONE) return k;
  c->kind = BLOCK;
  c->t = t;
  c->depth = 0;
  c->limit = r == OBB_SWEEP_LIMIT;
  c->inside = over;
  for (q = 0; q < 3; q++) c->n[q] = n[q] + 0.0;
  memcpy(c->corner[0], c->n, sizeof c->n);
  return k + 1;
}

