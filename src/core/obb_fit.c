/*
** obb_fit.c: boxes fitted to point sets by the covariance (principal axes)
** of the points.
**
** The axes are the eigenvectors of the points' covariance matrix. Every
** degenerate input (one point, duplicates, collinear or coplanar points)
** still gives orthonormal axes, since a symmetric eigensolver always
** returns an orthonormal basis, and then zero extents on the flat
** directions. Extents are measured last, from the final center with the
** same arithmetic that obbN_contains_point uses, so every input point is
** contained exactly, not just up to rounding: obbN_enclose_points
** (obb_fit.h), which the tight fits use too.
*/
#include "obb_fit.h"
#include "obb_math.h"

obb_status obb_check_points(const double *p, size_t n, int dim) {
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  size_t i;
  int j;
  if (n == 0) return OBB_EEMPTY;
  if (!obb_all_finite(p, (size_t)dim * n)) return OBB_ENOTFINITE;
  for (i = 0; i < n; i++)
    for (j = 0; j < dim; j++) {
      double x = p[(size_t)dim * i + j];
      if (x < lo[j]) lo[j] = x;
      if (x > hi[j]) hi[j] = x;
    }
  for (j = 0; j < dim; j++)
    if (!obb_finite(hi[j] - lo[j])) return OBB_ENOTFINITE;
  return OBB_OK;
}

/* The largest coordinate deviation from the mean (1 when there is none):
** deviations are divided by it so that squaring them can neither overflow
** for huge clouds nor underflow for tiny ones. */
static double spread(const double *p, size_t n, int dim, const double *mean) {
  double m = 0.0;
  size_t i;
  int j;
  for (i = 0; i < n; i++)
    for (j = 0; j < dim; j++) m = obb_fmax(m, fabs(p[dim * i + j] - mean[j]));
  return m > 0.0 && obb_finite(m) ? m : 1.0;
}

obb_status obb2_fit_points(obb2 *b, const double *xy, size_t n) {
  double mean[2] = {0, 0}, sxx = 0, syy = 0, sxy = 0, u[2], scale;
  size_t i;
  obb_status s = obb_check_points(xy, n, 2);
  if (s != OBB_OK) return s;
  for (i = 0; i < n; i++) {
    mean[0] += xy[2 * i] / (double)n;
    mean[1] += xy[2 * i + 1] / (double)n;
  }
  scale = spread(xy, n, 2, mean);
  for (i = 0; i < n; i++) {
    double dx = (xy[2 * i] - mean[0]) / scale;
    double dy = (xy[2 * i + 1] - mean[1]) / scale;
    sxx += dx * dx; syy += dy * dy; sxy += dx * dy;
  }
  {
    /* The major axis of a 2x2 symmetric matrix, in closed form. */
    double a = 0.5 * obb_atan2(2 * sxy, sxx - syy);
    obb_sincos(a, &u[1], &u[0]);
  }
  return obb2_enclose_points(b, xy, n, mean, u);
}

/* Cyclic Jacobi eigenvectors of a symmetric 3x3 matrix a (destroyed); the
** eigenvectors are returned as the rows of v, orthonormal. */
static void jacobi3(double a[3][3], double v[3][3]) {
  int sweep, p, q, k;
  for (p = 0; p < 3; p++)
    for (q = 0; q < 3; q++) v[p][q] = p == q;
  for (sweep = 0; sweep < 64; sweep++) {
    double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
    if (off == 0.0) break;
    for (p = 0; p < 2; p++)
      for (q = p + 1; q < 3; q++) {
        double theta, t, c, s;
        if (a[p][q] == 0.0) continue;
        theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        if (!obb_finite(t)) t = 0.5 / theta; /* theta huge: t ~ 1/(2 theta) */
        c = 1 / sqrt(t * t + 1);
        s = t * c;
        for (k = 0; k < 3; k++) { /* a = J^T a J */
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (k = 0; k < 3; k++) {
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (k = 0; k < 3; k++) { /* rows of v are eigenvectors */
          double vp = v[p][k], vq = v[q][k];
          v[p][k] = c * vp - s * vq;
          v[q][k] = s * vp + c * vq;
        }
      }
  }
}

obb_status obb3_fit_points(obb3 *b, const double *xyz, size_t n) {
  double mean[3] = {0, 0, 0}, cov[3][3] = {{0}}, u[3][3], d, scale;
  size_t i;
  int j, k;
  obb_status s = obb_check_points(xyz, n, 3);
  if (s != OBB_OK) return s;
  for (i = 0; i < n; i++)
    for (j = 0; j < 3; j++) mean[j] += xyz[3 * i + j] / (double)n;
  scale = spread(xyz, n, 3, mean);
  for (i = 0; i < n; i++) {
    double dv[3];
    for (j = 0; j < 3; j++) dv[j] = (xyz[3 * i + j] - mean[j]) / scale;
    for (j = 0; j < 3; j++)
      for (k = j; k < 3; k++) cov[j][k] += dv[j] * dv[k];
  }
  /* Normalise the matrix too, so the rotations see entries near 1. */
  d = 0;
  for (j = 0; j < 3; j++)
    for (k = j; k < 3; k++) d = obb_fmax(d, fabs(cov[j][k]));
  for (j = 0; j < 3; j++)
    for (k = j; k < 3; k++) {
      cov[j][k] = d > 0 ? cov[j][k] / d : 0.0;
      cov[k][j] = cov[j][k];
    }
  if (!obb_finite(d)) return OBB_ENOTFINITE;
  jacobi3(cov, u);
  /* Re-orthonormalise against drift and make the frame right-handed. */
  obb_normalize3(u[0]);
  d = obb_dot3(u[1], u[0]);
  for (k = 0; k < 3; k++) u[1][k] -= d * u[0][k];
  obb_normalize3(u[1]);
  obb_cross3(u[0], u[1], u[2]);
  return obb3_enclose_points(b, xyz, n, mean, (const double(*)[3])u);
}

obb_status obb2_enclose_points(obb2 *b, const double *xy, size_t n,
                               const double ref[2], const double u[2]) {
  double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
  double mid[2], c[2], e[2] = {0, 0};
  size_t i;
  for (i = 0; i < n; i++) {
    double l[2];
    obb2_local(ref, u, xy[2 * i], xy[2 * i + 1], l);
    lo[0] = obb_fmin(lo[0], l[0]); hi[0] = obb_fmax(hi[0], l[0]);
    lo[1] = obb_fmin(lo[1], l[1]); hi[1] = obb_fmax(hi[1], l[1]);
  }
  mid[0] = 0.5 * (lo[0] + hi[0]);
  mid[1] = 0.5 * (lo[1] + hi[1]);
  c[0] = ref[0] + mid[0] * u[0] - mid[1] * u[1];
  c[1] = ref[1] + mid[0] * u[1] + mid[1] * u[0];
  for (i = 0; i < n; i++) {
    double l[2];
    obb2_local(c, u, xy[2 * i], xy[2 * i + 1], l);
    e[0] = obb_fmax(e[0], fabs(l[0]));
    e[1] = obb_fmax(e[1], fabs(l[1]));
  }
  if (!obb_all_finite(c, 2) || !obb_all_finite(e, 2)) return OBB_ENOTFINITE;
  b->c[0] = c[0]; b->c[1] = c[1];
  b->u[0] = u[0]; b->u[1] = u[1];
  b->e[0] = e[0]; b->e[1] = e[1];
  return OBB_OK;
}

obb_status obb3_enclose_points(obb3 *b, const double *xyz, size_t n,
                               const double ref[3], const double u[3][3]) {
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, c[3], e[3] = {0, 0, 0};
  size_t i;
  int j, k;
  for (i = 0; i < n; i++) {
    double l[3];
    obb3_local(ref, u, xyz + 3 * i, l);
    for (j = 0; j < 3; j++) {
      lo[j] = obb_fmin(lo[j], l[j]);
      hi[j] = obb_fmax(hi[j], l[j]);
    }
  }
  for (k = 0; k < 3; k++) {
    c[k] = ref[k];
    for (j = 0; j < 3; j++) c[k] += 0.5 * (lo[j] + hi[j]) * u[j][k];
  }
  for (i = 0; i < n; i++) {
    double l[3];
    obb3_local(c, u, xyz + 3 * i, l);
    for (j = 0; j < 3; j++) e[j] = obb_fmax(e[j], fabs(l[j]));
  }
  if (!obb_all_finite(c, 3) || !obb_all_finite(e, 3)) return OBB_ENOTFINITE;
  for (j = 0; j < 3; j++) {
    b->c[j] = c[j];
    b->e[j] = e[j];
    for (k = 0; k < 3; k++) b->u[j][k] = u[j][k];
  }
  return OBB_OK;
}
