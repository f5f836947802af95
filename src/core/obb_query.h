/*
** obb_query.h: helpers shared by the query files (rays, distances,
** primitives, merging). Internal.
**
** Everything here works in a box's local frame, where the box is the
** axis-aligned set |x_i| <= e_i around the origin. Local coordinates come
** from obb2_local / obb3_local, the same arithmetic as the contains tests,
** so a point that `contains` accepts is also inside here.
*/
#ifndef OBB_QUERY_H
#define OBB_QUERY_H

#include "obb_math.h"

/* Clips the line p + s*d, s in [*lo, *hi], to the slabs |x_i| <= e_i
** (n = 2 or 3). Returns 1 with *lo, *hi narrowed when something is left,
** 0 when the line misses. A zero component of d (including -0.0) is a line
** parallel to that slab: inside it or not, decided by |p_i| <= e_i, so no
** 0/0 ever happens. Closed: a line touching a face is kept. NaN (from
** numbers past the range of doubles) is a miss, as obb_inside has it. */
static inline int obb_clip_slabs(int n, const double *p, const double *d,
                                 const double *e, double *lo, double *hi) {
  int i;
  for (i = 0; i < n; i++) {
    if (d[i] == 0.0) {
      if (!(fabs(p[i]) <= e[i])) return 0;
    } else {
      double t1 = (-e[i] - p[i]) / d[i], t2 = (e[i] - p[i]) / d[i];
      if (t1 != t1 || t2 != t2) return 0;
      if (t1 > t2) { double s = t1; t1 = t2; t2 = s; }
      if (t1 > *lo) *lo = t1;
      if (t2 < *hi) *hi = t2;
      if (*lo > *hi) return 0;
    }
  }
  return 1;
}

/* Length of (x, y, z). The plain sum of squares when it is safely inside
** the range of doubles; otherwise scaled by the largest component first, so
** that squaring neither overflows nor underflows. (No fmax: it is a library
** call on some targets, and this runs in inner loops.) */
static inline double obb_len3(double x, double y, double z) {
  double s = x * x + y * y + z * z, m;
  if (s > 1e-290 && s < 1e290) return sqrt(s);
  x = fabs(x); y = fabs(y); z = fabs(z);
  m = x > y ? x : y;
  m = m > z ? m : z;
  if (!(m > 0.0) || !obb_finite(m)) return m;
  x /= m; y /= m; z /= m;
  return m * sqrt(x * x + y * y + z * z);
}

/* How far the local coordinate x lies outside [-e, e] (0 inside). */
static inline double obb_excess(double x, double e) {
  double a = fabs(x) - e;
  return a > 0.0 ? a : 0.0;
}

static inline double obb_clamp(double x, double e) {
  return x < -e ? -e : x > e ? e : x;
}

#endif
