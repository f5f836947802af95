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

/* The box's bounding box, grown by a few ulps of its coordinates: the exact
** tests round too, and a pair they call touching must never be dropped
** because its bounding boxes, rounded the other way, just missed. */
static inline void obb_pad_bounds(const double c[3], const double h[3],
                                  double out[6]) {
  int i;
  for (i = 0; i < 3; i++) {
    double pad = (fabs(c[i]) + h[i]) * (8 * DBL_EPSILON);
    out[i] = c[i] - h[i] - pad;
    out[i + 3] = c[i] + h[i] + pad;
  }
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

static inline int obb_box_overlap(const double a[6], const double b[6]) {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] &&
         a[2] <= b[5] && b[2] <= a[5];
}

/* Does the segment o + s*d, s in [0, maxs], touch box? A zero component of
** d tests the origin against that slab instead of dividing by zero. */
static inline int obb_box_ray(const double box[6], const double o[3],
                              const double d[3], double maxs) {
  double lo = 0.0, hi = maxs;
  int i;
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
