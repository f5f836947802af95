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

#include <string.h>

#include "obb.h"
#include "obb_math.h"

static inline double obb_band(double S, double M) {
  return OBB_TOUCH_REL * S + (OBB_TOUCH_COORD * M + OBB_TOUCH_FLOOR);
}

static inline double obb_max3(double a, double b, double c) {
  double m = a > b ? a : b;
  return m > c ? m : c;
}

/* The band of a pair of boxes: symmetric in a and b, bit for bit. Summed
** per coordinate, (|d_i| + (ea_i + eb_i)) then across, so that the lanes
** of a vector register compute it together (it is on the path of every
** pair test, a few dozen instructions), and the scalar code below gives
** the same bits. */
#if defined(__GNUC__) && \
    (defined(__SSE2__) || (defined(__ARM_NEON) && defined(__aarch64__)))
__extension__ typedef double obb_v2d __attribute__((vector_size(16)));
__extension__ typedef long long obb_v2i __attribute__((vector_size(16)));

static inline obb_v2d obb_ld2(const double *p) {
  obb_v2d r;
  memcpy(&r, p, sizeof r);
  return r;
}

static inline obb_v2d obb_vabs(obb_v2d x) {
  const obb_v2i m = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  return (obb_v2d)((obb_v2i)x & m);
}

/* lane-wise x > y ? x : y, as obb_max3 */
static inline obb_v2d obb_vmax(obb_v2d x, obb_v2d y) {
  obb_v2i m = (obb_v2i)(x > y);
  return (obb_v2d)((m & (obb_v2i)x) | (~m & (obb_v2i)y));
}

/* S's lanes (|d_i| + (ea_i + eb_i)) and M's lanes max(|ca_i|, |cb_i|) for
** coordinates 0 and 1. */
static inline void obb_pair_lanes(const double *ca, const double *ea,
                                  const double *cb, const double *eb,
                                  double *s01, double *m01) {
  obb_v2d a = obb_ld2(ca), b = obb_ld2(cb);
  obb_v2d s = obb_vabs(b - a) + (obb_ld2(ea) + obb_ld2(eb));
  obb_v2d m = obb_vmax(obb_vabs(a), obb_vabs(b));
  s01[0] = s[0]; s01[1] = s[1];
  m01[0] = m[0]; m01[1] = m[1];
}
#else
static inline void obb_pair_lanes(const double *ca, const double *ea,
                                  const double *cb, const double *eb,
                                  double *s01, double *m01) {
  int i;
  for (i = 0; i < 2; i++) {
    double x = fabs(ca[i]), y = fabs(cb[i]);
    s01[i] = fabs(cb[i] - ca[i]) + (ea[i] + eb[i]);
    m01[i] = x > y ? x : y;
  }
}
#endif

static inline double obb2_pair_band(const obb2 *a, const obb2 *b) {
  double s[2], m[2];
  obb_pair_lanes(a->c, a->e, b->c, b->e, s, m);
  return obb_band(s[0] + s[1], m[0] > m[1] ? m[0] : m[1]);
}

static inline double obb3_pair_band(const obb3 *a, const obb3 *b) {
  double s[2], m[2];
  double x = fabs(a->c[2]), y = fabs(b->c[2]);
  obb_pair_lanes(a->c, a->e, b->c, b->e, s, m);
  return obb_band((s[0] + s[1]) +
                      (fabs(b->c[2] - a->c[2]) + (a->e[2] + b->e[2])),
                  obb_max3(m[0], m[1], x > y ? x : y));
}

/* The band of a box and a point (a ray's origin, a segment's farther end,
** a circle's or sphere's center), with r the radius (0 for points). */
static inline double obb2_point_band(const obb2 *b, const double p[2],
                                     double r) {
  double S = fabs(p[0] - b->c[0]) + fabs(p[1] - b->c[1]) +
             ((b->e[0] + b->e[1]) + r);
  double M = obb_max3(fabs(b->c[0]), fabs(b->c[1]),
                      fabs(p[0]) > fabs(p[1]) ? fabs(p[0]) : fabs(p[1]));
  return obb_band(S, M);
}

static inline double obb3_point_band(const obb3 *b, const double p[3],
                                     double r) {
  double S = fabs(p[0] - b->c[0]) + fabs(p[1] - b->c[1]) +
             fabs(p[2] - b->c[2]) + ((b->e[0] + b->e[1] + b->e[2]) + r);
  double M = obb_max3(obb_max3(fabs(b->c[0]), fabs(b->c[1]), fabs(b->c[2])),
                      obb_max3(fabs(p[0]), fabs(p[1]), fabs(p[2])), 0.0);
  return obb_band(S, M);
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
