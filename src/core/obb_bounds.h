/*
** obb_bounds.h: axis-aligned bounds of boxes and the tests on them that the
** world's broad phase and the ray casts share (internal).
**
** Bounds are double[6]: min x, y, z then max x, y, z (z = [0, 0] in 2D).
** A ray cast against a box first tests the box's bounds exactly as the
** world's broad phase does, so a box and a world holding it agree on every
** ray, even where the exact test alone would be lost to rounding (an
** origin 1e17 away from a unit box).
*/
#ifndef OBB_BOUNDS_H
#define OBB_BOUNDS_H

#include <float.h>

#include "obb.h"
#include "obb_math.h"
#include "obb_touch.h"

/* Bounds are grown by this many touching bands (obb_touch.h) of what they
** hold: a pair the exact tests call touching is apart by at most its band
** on their axes, so by at most sqrt(3) bands in any direction, and must
** never be dropped because its bounding boxes just missed. The factor
** leaves room for the rounding of the bounds themselves; the cost is a
** few more candidates within 1e-10 of touching. */
#define OBB_BOUNDS_BANDS 32

/* The box's bounding box, grown as above. Written out rather than looped:
** the world bounds every box it files, the movers every leg, and a 2D
** box's z (0 and 0) then folds away. */
static inline void obb_pad_bounds(const double c[3], const double h[3],
                                  double out[6]) {
  double m = 0.0, pad;
  if (fabs(c[0]) + h[0] > m) m = fabs(c[0]) + h[0];
  if (fabs(c[1]) + h[1] > m) m = fabs(c[1]) + h[1];
  if (fabs(c[2]) + h[2] > m) m = fabs(c[2]) + h[2];
  pad = OBB_BOUNDS_BANDS * obb_band(h[0] + h[1] + h[2], m);
  out[0] = c[0] - h[0] - pad;
  out[1] = c[1] - h[1] - pad;
  out[2] = c[2] - h[2] - pad;
  out[3] = c[0] + h[0] + pad;
  out[4] = c[1] + h[1] + pad;
  out[5] = c[2] + h[2] + pad;
}

static inline void obb2_bounds(const obb2 *b, double out[6]) {
  double h[3], c[3];
  h[0] = b->e[0] * fabs(b->u[0]) + b->e[1] * fabs(b->u[1]);
  h[1] = b->e[0] * fabs(b->u[1]) + b->e[1] * fabs(b->u[0]);
  h[2] = 0;
  c[0] = b->c[0]; c[1] = b->c[1]; c[2] = 0;
  obb_pad_bounds(c, h, out);
}

static inline void obb3_bounds(const obb3 *b, double out[6]) {
  double h[3];
  int i;
  for (i = 0; i < 3; i++)
    h[i] = b->e[0] * fabs(b->u[0][i]) + b->e[1] * fabs(b->u[1][i]) +
           b->e[2] * fabs(b->u[2][i]);
  obb_pad_bounds(b->c, h, out);
}

/* The bounds of everything a turning box (center c, half extents e, dim
** numbers each) can reach while its center moves by d (3 numbers, z = 0
** in 2D): whatever its rotation, every point of it lies within rho (the
** length of its half extents) of its center, which runs along the
** segment from c to c + d; so the box fits, at every time of the step, in
** the square (cube) of half side rho about a point of that segment. Those
** at both ends are padded as obb_pad_bounds pads a box's (with the half
** sides rho, whose sum is at least the sum of the half extents that a
** pair's band counts) and joined: the padding only grows with the
** coordinates, so the ends' cover the points between. (world:cast_turning,
** the turning move) */
static inline void obb_turning_bounds(int dim, const double *c,
                                      const double *e, const double d[3],
                                      double out[6]) {
  double h[3], c0[3], c1[3], b[6], rho = 0;
  int q;
  for (q = 0; q < dim; q++) rho += e[q] * e[q];
  rho = sqrt(rho) * (1 + 0x1p-50); /* above the rounded root */
  for (q = 0; q < 3; q++) {
    h[q] = q < dim ? rho : 0;
    c0[q] = q < dim ? c[q] : 0;
    c1[q] = q < dim ? c[q] + d[q] : 0;
  }
  obb_pad_bounds(c0, h, out);
  obb_pad_bounds(c1, h, b);
  for (q = 0; q < 3; q++) {
    if (b[q] < out[q]) out[q] = b[q];
    if (b[q + 3] > out[q + 3]) out[q + 3] = b[q + 3];
  }
}

static inline int obb_box_overlap(const double a[6], const double b[6]) {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] &&
         a[2] <= b[5] && b[2] <= a[5];
}

/* The band of a ray from o against any box inside bounds box, grown as
** obb_pad_bounds grows: a ray's band counts the distance from its origin
** (obb_touch.h), which the box's own bounds cannot know. It only grows
** from a box's bounds to bounds around them, as a tree's nodes are. */
static inline double obb_ray_pad(const double box[6], const double o[3]) {
  double S = 0.0, M = 0.0;
  int i;
  for (i = 0; i < 3; i++) {
    double mid = 0.5 * box[i] + 0.5 * box[i + 3];
    double half = 0.5 * box[i + 3] - 0.5 * box[i];
    S += fabs(o[i] - mid) + 2 * half;
    if (fabs(o[i]) > M) M = fabs(o[i]);
    if (fabs(box[i]) > M) M = fabs(box[i]);
    if (fabs(box[i + 3]) > M) M = fabs(box[i + 3]);
  }
  return OBB_BOUNDS_BANDS * obb_band(S, M);
}

/* Does the segment o + s*d, s in [0, maxs], touch box, grown by the ray's
** band (obb_ray_pad)? A zero component of d tests the origin against that
** slab instead of dividing by zero. */
static inline int obb_box_ray(const double bounds[6], const double o[3],
                              const double d[3], double maxs) {
  double lo = 0.0, hi = maxs, box[6], pad = obb_ray_pad(bounds, o);
  int i;
  for (i = 0; i < 3; i++) {
    box[i] = bounds[i] - pad;
    box[i + 3] = bounds[i + 3] + pad;
  }
  for (i = 0; i < 3; i++) {
    if (d[i] == 0.0) {
      if (o[i] < box[i] || o[i] > box[i + 3]) return 0;
    } else {
      double s1 = (box[i] - o[i]) / d[i], s2 = (box[i + 3] - o[i]) / d[i];
      if (s1 > s2) { double s = s1; s1 = s2; s2 = s; }
      if (s1 > lo) lo = s1;
      if (s2 < hi) hi = s2;
      if (lo > hi) return 0;
    }
  }
  return 1;
}

#endif
