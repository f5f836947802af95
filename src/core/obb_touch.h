/*
** obb_touch.h: the touching rule, written once (internal).
**
** A box is closed, but a box built, turned or moved in doubles is only
** known to rounding: cos(pi/2) is not 0, a corner is rounded to its last
** bit, a neighbour placed flush lands a few ulps off. Asked exactly, such
** shapes come out apart about half the time, and two queries about one pair
** can disagree. So every query decides with the same band B (obb.h):
**
**   B = OBB_TOUCH_REL * S + OBB_TOUCH_COORD * M + OBB_TOUCH_FLOOR
**
** - S, the size of the question: |dx| + |dy| (+ |dz|) between the centers
**   (or the center and the point, the ray's origin, the circle's center)
**   plus every half extent and radius. Rounding in the tests and in
**   construction, turning, corners and transforms needs about 2^-48 of S
**   (measured, docs/precision.md); 2^-40, about 4,000 ulps, leaves a
**   factor of 256, and is still 1,000 times finer than 1e-9.
** - M, the largest |coordinate| of those centers and points: a point at
**   x = 1e7 is only known to 2e-9, whatever the box's size, so a tiny box
**   far out still contains its own corners. 2^-50 is 4 ulps of M.
** - The floor, for sizes in the subnormal range, where rounding is
**   absolute (2^-1074 per operation) instead of relative.
**
** Pairs of boxes are apart when the separating-axis test finds an axis on
** which their projections are further apart than B; everything else (a
** point, a ray, a segment, a circle, a sphere) meets a box when it meets
** the box grown by B along each of its axes.
*/
#ifndef OBB_TOUCH_H
#define OBB_TOUCH_H

#include "obb.h"
#include "obb_math.h"

static inline double obb_band(double S, double M) {
  return OBB_TOUCH_REL * S + (OBB_TOUCH_COORD * M + OBB_TOUCH_FLOOR);
}

static inline double obb_max3(double a, double b, double c) {
  double m = a > b ? a : b;
  return m > c ? m : c;
}

/* The band of a pair of boxes with n coordinates (centers ca, cb, half
** extents ea, eb): symmetric in the two boxes, bit for bit. Every query and
** every build of the pair tests computes it here. */
static inline double obb_pair_band(int n, const double *ca, const double *ea,
                                   const double *cb, const double *eb) {
  double S = 0.0, M = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    S += fabs(cb[i] - ca[i]) + (ea[i] + eb[i]);
    M = obb_max3(M, fabs(ca[i]), fabs(cb[i]));
  }
  return obb_band(S, M);
}

static inline double obb2_pair_band(const obb2 *a, const obb2 *b) {
  return obb_pair_band(2, a->c, a->e, b->c, b->e);
}

static inline double obb3_pair_band(const obb3 *a, const obb3 *b) {
  return obb_pair_band(3, a->c, a->e, b->c, b->e);
}

/* Whether a pair overlaps by more than band on each of its n separating
** axes (projected distances s, projection radii r: obb_sat.h): the rule
** of obbN_overlaps and of the movers' "already inside". */
static inline int obb_sat_deeper(const double *s, const double *r, int n,
                                 double band) {
  int k;
  for (k = 0; k < n; k++)
    if (!(fabs(s[k]) < r[k] - band)) return 0;
  return 1;
}
/* The band of a box (center c, half extents e) and a point p (a ray's
** origin, a segment's end, a circle's or sphere's center), with r the
** radius (0 for points). */
static inline double obb_point_band(int n, const double *c, const double *e,
                                    const double *p, double r) {
  double S = r, M = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    S += fabs(p[i] - c[i]) + e[i];
    M = obb_max3(M, fabs(c[i]), fabs(p[i]));
  }
  return obb_band(S, M);
}

static inline double obb2_point_band(const obb2 *b, const double p[2],
                                     double r) {
  return obb_point_band(2, b->c, b->e, p, r);
}

static inline double obb3_point_band(const obb3 *b, const double p[3],
                                     double r) {
  return obb_point_band(3, b->c, b->e, p, r);
}

/* The box's half extents grown by the band. */
static inline void obb_grow(int n, const double *e, double band,
                            double *out) {
  int i;
  for (i = 0; i < n; i++) out[i] = e[i] + band;
}

/* Whether local coordinates l lie in the box of half extents e grown by
** band: the one point-in-box test (contains, distances, rays, segments,
** circles, spheres and worlds all come here). */
static inline int obb_inside(int n, const double *l, const double *e,
                             double band) {
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(l[i]) <= e[i] + band)) return 0;
  return 1;
}

#endif
