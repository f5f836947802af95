/*
** obb_hull2.c: planar convex hull (Andrew's monotone chain) with exact
** orientation tests, and the minimum-area enclosing rectangle by rotating
** calipers.
**
** Exactness. The points are first scaled by a power of two (exact) so the
** largest coordinate is below 1; then products cannot overflow and the
** orientation test is exact: a fast floating-point evaluation with
** Shewchuk's error bound answers almost every call, and the rare uncertain
** one is recomputed as an exact sum of six exact products
** (obb_two_product, obb_exact.h, gives each product's rounding error). The
** hull is therefore strictly convex and in counter-clockwise order, with collinear and duplicate points removed,
** whatever the input; only products that underflow (coordinates below
** about 1e-150 of the largest) escape exactness, and then only the choice
** among nearly equal hull points can change, never enclosure, which callers
** measure on all the points.
*/
#include <math.h>
#include <stdlib.h>

#include "obb_exact.h"
#include "obb_hull2.h"
#include "obb_math.h"

/* x + y = s + err exactly (Knuth's TwoSum, no branch). */
static void two_sum(double a, double b, double *s, double *err) {
  double x = a + b, bv = x - a, av = x - bv;
  *s = x;
  *err = (a - av) + (b - bv);
}

/* Adds x to the expansion e (nonoverlapping, increasing magnitude) of
** length *len, keeping that property (Shewchuk's Grow-Expansion). */
static void grow(double *e, int *len, double x) {
  int i;
  for (i = 0; i < *len; i++) two_sum(x, e[i], &x, &e[i]);
  e[(*len)++] = x;
}

static void add_product(double *e, int *len, double a, double b) {
  double err, p = obb_two_product(a, b, &err); /* a*b = p + err */
  grow(e, len, p);
  grow(e, len, err);
}

/* The exact sign (as -1, 0 or 1) of the orientation of a, b, c. */
static double orient_exact(const double *a, const double *b, const double *c) {
  double e[12];
  int len = 0, i;
  add_product(e, &len, a[0], b[1]);
  add_product(e, &len, -a[0], c[1]);
  add_product(e, &len, -a[1], b[0]);
  add_product(e, &len, a[1], c[0]);
  add_product(e, &len, b[0], c[1]);
  add_product(e, &len, -b[1], c[0]);
  /* The most significant non-zero component carries the sign. */
  for (i = len - 1; i >= 0; i--)
    if (e[i] != 0.0) return e[i] > 0.0 ? 1.0 : -1.0;
  return 0.0;
}

/* Positive when a, b, c turn counter-clockwise, negative clockwise, zero
** when collinear; the sign is exact (see the file comment). */
static double orient(const double *a, const double *b, const double *c) {
  /* Shewchuk's ccwerrboundA = (3 + 16 eps) eps with eps = 2^-53. */
  const double bound = (3.0 + 16.0 * (DBL_EPSILON / 2)) * (DBL_EPSILON / 2);
  double l = (a[0] - c[0]) * (b[1] - c[1]);
  double r = (a[1] - c[1]) * (b[0] - c[0]);
  double det = l - r, sum;
  if (l > 0.0) {
    if (r <= 0.0) return det;
    sum = l + r;
  } else if (l < 0.0) {
    if (r >= 0.0) return det;
    sum = -l - r;
  } else {
    return det;
  }
  if (det >= bound * sum || -det >= bound * sum) return det;
  return orient_exact(a, b, c);
}

static int cmp_xy(const void *pa, const void *pb) {
  const double *a = (const double *)pa, *b = (const double *)pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] != b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/* Hull of the m sorted distinct points p into h (room for 2m points), in
** counter-clockwise order starting from the lowest-leftmost point; returns
** the vertex count (1 for one point, 2 for collinear points). */
static size_t monotone_chain(const double *p, size_t m, double *h) {
  size_t k = 0, i, t;
  if (m < 3) {
    for (i = 0; i < 2 * m; i++) h[i] = p[i];
    return m;
  }
  for (i = 0; i < m; i++) { /* lower chain, left to right */
    while (k >= 2 && orient(h + 2 * (k - 2), h + 2 * (k - 1), p + 2 * i) <= 0)
      k--;
    h[2 * k] = p[2 * i]; h[2 * k + 1] = p[2 * i + 1]; k++;
  }
  t = k + 1;
  for (i = m - 1; i-- > 0;) { /* upper chain, right to left */
    while (k >= t && orient(h + 2 * (k - 2), h + 2 * (k - 1), p + 2 * i) <= 0)
      k--;
    h[2 * k] = p[2 * i]; h[2 * k + 1] = p[2 * i + 1]; k++;
  }
  return k - 1; /* the last point repeats the first */
}

static double along(const double *h, size_t i, const double *o,
                    const double d[2]) {
  return (h[2 * i] - o[0]) * d[0] + (h[2 * i + 1] - o[1]) * d[1];
}

/* Moves vertex index k of the convex polygon h (nh vertices) to where the
** projection on d, measured from o, is largest. The exact projections of
** a convex polygon rise and fall once around it, so climbing finds the
** maximum from anywhere: forward, then backward. Rounding can make two
** nearly coincident vertices look like a small dip on the way up, so the
** climb steps over drops smaller than tol (a few ulps of the polygon's
** size) and keeps the best vertex seen; it stops once it is tol below
** that best. At most one lap each way. */
static size_t climb(const double *h, size_t nh, size_t k, const double *o,
                    const double d[2], double tol) {
  size_t steps, i = k, best = k;
  double bv = along(h, k, o, d);
  for (steps = 0; steps < nh; steps++) {
    size_t next = i + 1 == nh ? 0 : i + 1;
    double v = along(h, next, o, d);
    if (v < bv - tol) break;
    i = next;
    if (v > bv) { bv = v; best = i; }
  }
  i = best;
  for (steps = 0; steps < nh; steps++) {
    size_t prev = i == 0 ? nh - 1 : i - 1;
    double v = along(h, prev, o, d);
    if (v < bv - tol) break;
    i = prev;
    if (v > bv) { bv = v; best = i; }
  }
  return best;
}

/* Rotating calipers over the strictly convex counter-clockwise polygon h of
** nh >= 3 vertices. For edge i with unit direction d, the rectangle's
** sides are the extreme projections on d (vertices r and l) and the
** farthest vertex t along the inward normal (-d[1], d[0]); the extremes
** move forward with i, so starting each climb from the previous edge's
** extreme makes the whole sweep O(nh). */
static void calipers(const double *h, size_t nh, double u[2], double ext[2]) {
  size_t i, r = 0, t = 0, l = 0;
  double best = HUGE_VAL, best_perim = HUGE_VAL, lo[2], hi[2], tol;
  lo[0] = hi[0] = h[0];
  lo[1] = hi[1] = h[1];
  for (i = 1; i < nh; i++) {
    lo[0] = obb_fmin(lo[0], h[2 * i]); hi[0] = obb_fmax(hi[0], h[2 * i]);
    lo[1] = obb_fmin(lo[1], h[2 * i + 1]); hi[1] = obb_fmax(hi[1], h[2 * i + 1]);
  }
  /* Projections are computed from coordinate differences, so their
  ** rounding error scales with the polygon's size, not its position. */
  tol = 64 * DBL_EPSILON * ((hi[0] - lo[0]) + (hi[1] - lo[1]));
  for (i = 0; i < nh; i++) {
    size_t j = i + 1 == nh ? 0 : i + 1;
    const double *o = h + 2 * i;
    double d[2], nrm[2], neg[2], w, ht, area;
    d[0] = h[2 * j] - o[0];
    d[1] = h[2 * j + 1] - o[1];
    obb_normalize2(d);
    nrm[0] = -d[1]; nrm[1] = d[0];
    neg[0] = -d[0]; neg[1] = -d[1];
    r = climb(h, nh, r, o, d, tol);
    l = climb(h, nh, l, o, neg, tol);
    t = climb(h, nh, t, o, nrm, tol);
    w = along(h, r, o, d) - along(h, l, o, d);
    ht = along(h, t, o, nrm);
    area = w * ht;
    /* Exact ties are common (every edge of an acute triangle gives area
    ** twice the triangle's): the smaller perimeter breaks them, with a
    ** tolerance so that rounding alone never decides and rotated copies
    ** of a point set get the same rectangle. */
    if (area < best * (1 - 1e-12) ||
        (area <= best * (1 + 1e-12) && w + ht < best_perim * (1 - 1e-12))) {
      best = area;
      best_perim = w + ht;
      u[0] = d[0]; u[1] = d[1];
      ext[0] = w; ext[1] = ht;
    }
  }
}

/* Akl-Toussaint filter: drops, in place, the points strictly inside the
** polygon of the extreme points along 8 directions (every 45 degrees);
** returns how many are kept. A point strictly left of every edge of that
** closed polygon lies inside the hull of its vertices, so it cannot be a
** hull vertex; the exact orientation test makes this hold even when the
** rounded sums below pick slightly different extremes. Clouds lose most of
** their points here, before the O(n log n) sort. */
static size_t drop_interior(double *p, size_t n) {
  size_t best[8] = {0, 0, 0, 0, 0, 0, 0, 0}, i, m = 0, k = 0;
  double key[8], top[8], poly[2 * 9];
  int j;
  for (i = 0; i < n; i++) {
    double x = p[2 * i], y = p[2 * i + 1];
    key[0] = -y; key[1] = x - y; key[2] = x; key[3] = x + y;
    key[4] = y; key[5] = y - x; key[6] = -x; key[7] = -x - y;
    for (j = 0; j < 8; j++)
      if (i == 0 || key[j] > top[j]) { top[j] = key[j]; best[j] = i; }
  }
  for (j = 0; j < 8; j++) { /* counter-clockwise, without repeats */
    const double *q = p + 2 * best[j];
    if (m > 0 && q[0] == poly[2 * m - 2] && q[1] == poly[2 * m - 1]) continue;
    poly[2 * m] = q[0]; poly[2 * m + 1] = q[1]; m++;
  }
  while (m > 1 && poly[0] == poly[2 * m - 2] && poly[1] == poly[2 * m - 1]) m--;
  if (m < 3) return n;
  poly[2 * m] = poly[0]; poly[2 * m + 1] = poly[1];
  for (i = 0; i < n; i++) {
    size_t e;
    for (e = 0; e < m; e++)
      if (orient(poly + 2 * e, poly + 2 * e + 2, p + 2 * i) <= 0) break;
    if (e < m) { /* not strictly inside: keep */
      p[2 * k] = p[2 * i]; p[2 * k + 1] = p[2 * i + 1]; k++;
    }
  }
  return k;
}

void obb_minrect2(const double *xy, size_t n, double *scratch, double u[2],
                  double ext[2]) {
  double *p = scratch, *h = scratch + 2 * n, m = 0.0;
  size_t i, k, nh;
  int ex = 0;
  for (i = 0; i < 2 * n; i++) m = obb_fmax(m, fabs(xy[i]));
  if (m > 0.0) frexp(m, &ex); /* m < 2^ex */
  for (i = 0; i < 2 * n; i++) p[i] = ldexp(xy[i], -ex);
  n = drop_interior(p, n);
  qsort(p, n, 2 * sizeof(double), cmp_xy);
  for (i = k = 0; i < n; i++) /* drop duplicates */
    if (k == 0 || p[2 * i] != p[2 * k - 2] || p[2 * i + 1] != p[2 * k - 1]) {
      p[2 * k] = p[2 * i]; p[2 * k + 1] = p[2 * i + 1]; k++;
    }
  nh = monotone_chain(p, k, h);
  u[0] = 1.0; u[1] = 0.0;
  ext[0] = ext[1] = 0.0;
  if (nh == 2) {
    u[0] = h[2] - h[0];
    u[1] = h[3] - h[1];
    obb_normalize2(u);
    ext[0] = (h[2] - h[0]) * u[0] + (h[3] - h[1]) * u[1];
  } else if (nh >= 3) {
    calipers(h, nh, u, ext);
  }
  ext[0] = ldexp(ext[0], ex);
  ext[1] = ldexp(ext[1], ex);
}
