/*
** obb_tightfit3.c: a 3D box fitted to points, tighter than the covariance
** fit.
**
** The method, in the spirit of DiTO (Larsson and Kallberg, 2011) with an
** exact 2D step:
**   1. The covariance fit gives a first frame and the scale of the set.
**   2. A sample S of 26 points: the extremes along 13 directions (DiTO-26's
**      normals) taken in the covariance frame, so the whole method turns
**      with the points instead of depending on the world axes.
**   3. Candidate axes: the covariance axes, the 13 directions, and the
**      normals and edges of DiTO's base triangles and the tetrahedra built
**      on them from S (on every pair of extremes, not only the farthest,
**      so that ties cannot make the result depend on the input's order).
**   4. For a given axis a, the best box with a as one of its axes is exact:
**      its other two axes are the minimum-area rectangle (obb_minrect2) of
**      the points projected on the plane orthogonal to a. Each candidate is
**      scored that way on S; the best is then refined on all the points by
**      re-solving about each of its axes in turn while the volume drops
**      (each step can only keep or lower the volume). The covariance frame
**      is refined the same way, and the smaller result is kept.
**   5. The box is measured on every point with obb3_local, the arithmetic
**      obb3_contains_point uses, so every point is contained exactly; if
**      the plain covariance box is smaller, that box is returned instead,
**      so the tight fit is never larger.
** Every choice between candidates treats values within a small relative
** tolerance as tied and breaks the tie by a second criterion, never by
** the order things were found in: rotated copies of a point set then get
** the same box (up to rounding).
** Volumes are compared with every half extent floored at 2^-40 of the
** set's size, so flat and collinear sets (volume zero up to rounding) are
** ranked by area, then length, instead of by rounding noise.
*/
#include "obb.h"
#include "obb_fit.h"
#include "obb_hull2.h"
#include "obb_math.h"

#define NDIRS 13
#define NSAMPLE (2 * NDIRS)
#define MAXAXES 512 /* distinct lines; a few hundred in practice */
#define MAXSTEPS 12

/* DiTO-26's directions, as coefficients on the covariance axes. */
static const double dirs[NDIRS][3] = {
  {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {1, 1, -1}, {1, -1, 1},
  {1, -1, -1}, {1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1}, {0, 1, 1},
  {0, 1, -1}
};

/* The volume (over 8) of half extents e, in units of the set's size (inv
** is a power of two, so the scaling is exact and the products can neither
** overflow nor underflow), with each extent floored at TAU. */
#define TAU 0x1p-40
static double quality(const double e[3], double inv) {
  return obb_fmax(e[0] * inv, TAU) * obb_fmax(e[1] * inv, TAU) *
         obb_fmax(e[2] * inv, TAU);
}

static double surface(const double e[3], double inv) {
  double a = obb_fmax(e[0] * inv, TAU), b = obb_fmax(e[1] * inv, TAU);
  double c = obb_fmax(e[2] * inv, TAU);
  return a * b + b * c + c * a;
}

/* Half extents of the points p (relative to ref) in frame u. */
static void half_ranges(const double *p, size_t n, const double ref[3],
                        const double u[3][3], double e[3]) {
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  size_t i;
  int j;
  for (i = 0; i < n; i++) {
    double l[3];
    obb3_local(ref, u, p + 3 * i, l);
    for (j = 0; j < 3; j++) {
      lo[j] = obb_fmin(lo[j], l[j]);
      hi[j] = obb_fmax(hi[j], l[j]);
    }
  }
  for (j = 0; j < 3; j++) e[j] = 0.5 * (hi[j] - lo[j]);
}

/* The frame u whose third axis is a (unit) and whose first two span the
** minimum-area rectangle of the points projected on the plane orthogonal
** to a. Right-handed: u[0] x u[1] = a. scratch: 2n + OBB_MINRECT2_SCRATCH. */
static void frame_about(const double *p, size_t n, const double ref[3],
                        const double axis[3], double *scratch,
                        double u[3][3]) {
  double v[3], w[3], ax[3] = {0, 0, 0}, d[2], ext[2], t, a[3];
  double *xy = scratch;
  size_t i;
  int k;
  a[0] = axis[0]; a[1] = axis[1]; a[2] = axis[2]; /* axis may alias u */
  k = fabs(a[0]) <= fabs(a[1]) ? 0 : 1;
  if (fabs(a[2]) < fabs(a[k])) k = 2;
  ax[k] = 1.0; /* the world axis least aligned with a */
  obb_cross3(a, ax, v);
  obb_normalize3(v);
  obb_cross3(a, v, w);
  obb_normalize3(w);
  for (i = 0; i < n; i++) {
    double q[3];
    q[0] = p[3 * i] - ref[0];
    q[1] = p[3 * i + 1] - ref[1];
    q[2] = p[3 * i + 2] - ref[2];
    xy[2 * i] = obb_dot3(q, v);
    xy[2 * i + 1] = obb_dot3(q, w);
  }
  obb_minrect2(xy, n, scratch + 2 * n, d, ext);
  for (k = 0; k < 3; k++) u[0][k] = d[0] * v[k] + d[1] * w[k];
  t = obb_dot3(u[0], a); /* re-orthogonalise against rounding */
  for (k = 0; k < 3; k++) u[0][k] -= t * a[k];
  obb_normalize3(u[0]);
  obb_cross3(a, u[0], u[1]);
  obb_normalize3(u[1]);
  for (k = 0; k < 3; k++) u[2][k] = a[k];
}

static void copy_frame(double dst[3][3], const double src[3][3]) {
  int j, k;
  for (j = 0; j < 3; j++)
    for (k = 0; k < 3; k++) dst[j][k] = src[j][k];
}

/* Orders the axes by decreasing extent e (reordered too), negating the
** last one after an odd permutation to stay right-handed. A canonical
** order makes the descent below independent of how the input frame
** happened to list its axes, so rotated inputs take the same path. */
static void sort_frame(double u[3][3], double e[3]) {
  int i, j, k;
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2 - i; j++)
      if (e[j + 1] > e[j]) {
        double t = e[j];
        e[j] = e[j + 1];
        e[j + 1] = t;
        for (k = 0; k < 3; k++) {
          t = u[j][k];
          u[j][k] = u[j + 1][k];
          u[j + 1][k] = -t; /* a swap and a negation: a rotation */
        }
      }
}

/* Coordinate descent: re-solve about each axis of u, in order of
** decreasing extent, and restart from the first improvement (by more than
** a relative 1e-10, so rounding noise decides nothing); stop when no axis
** improves or after MAXSTEPS solves. The axis last solved about is skipped:
** re-solving about it gives the same frame. Returns the final quality. */
static double refine(const double *p, size_t n, const double ref[3],
                     double u[3][3], const double *last, double inv,
                     double *scratch) {
  double e[3], q, t[3][3], a[3] = {0, 0, 0};
  int steps = 0, k, improved = 1;
  if (last != NULL) { a[0] = last[0]; a[1] = last[1]; a[2] = last[2]; }
  half_ranges(p, n, ref, (const double(*)[3])u, e);
  q = quality(e, inv);
  while (improved && steps < MAXSTEPS) {
    improved = 0;
    sort_frame(u, e);
    for (k = 0; k < 3 && steps < MAXSTEPS; k++) {
      double qt, et[3];
      if (fabs(obb_dot3(u[k], a)) > 1 - 1e-12) continue;
      frame_about(p, n, ref, u[k], scratch, t);
      steps++;
      half_ranges(p, n, ref, (const double(*)[3])t, et);
      qt = quality(et, inv);
      if (qt < q * (1 - 1e-10)) {
        q = qt;
        copy_frame(u, (const double(*)[3])t);
        e[0] = et[0]; e[1] = et[1]; e[2] = et[2];
        a[0] = u[2][0]; a[1] = u[2][1]; a[2] = u[2][2];
        improved = 1;
        break;
      }
    }
  }
  return q;
}

/* Adds the line of a as a candidate unless it is zero or (nearly) one
** already there; symmetric inputs propose the same line many times. */
static void add_axis(double axes[][3], int *na, const double a[3]) {
  int i;
  if (*na >= MAXAXES) return;
  axes[*na][0] = a[0]; axes[*na][1] = a[1]; axes[*na][2] = a[2];
  if (!obb_normalize3(axes[*na])) return;
  for (i = 0; i < *na; i++)
    if (fabs(obb_dot3(axes[i], axes[*na])) > 1 - 1e-13) return;
  (*na)++;
}

static void sub3(const double a[3], const double b[3], double out[3]) {
  out[0] = a[0] - b[0]; out[1] = a[1] - b[1]; out[2] = a[2] - b[2];
}

/* A triangle's normal and edges, as candidate axes. */
static void add_triangle(double axes[][3], int *na, const double *a,
                         const double *b, const double *c) {
  double ab[3], bc[3], ca[3], nrm[3];
  sub3(b, a, ab); sub3(c, b, bc); sub3(a, c, ca);
  obb_cross3(ab, bc, nrm);
  add_axis(axes, na, nrm);
  add_axis(axes, na, ab);
  add_axis(axes, na, bc);
  add_axis(axes, na, ca);
}

/* The triangles of the two tetrahedra DiTO builds on base triangle
** p0 p1 p2 with the sample points farthest from its plane on either side;
** every point tied for farthest (within a relative 1e-12) is used, so that
** no tie is decided by the order of the sample. */
static void tetra_axes(const double s[NSAMPLE][3], const double *p0,
                       const double *p1, const double *p2, double axes[][3],
                       int *na) {
  double d[3], r[3], nrm[3], h[NSAMPLE], lo = 0, hi = 0;
  int i;
  sub3(p1, p0, d);
  sub3(p2, p0, r);
  obb_cross3(d, r, nrm);
  if (!obb_normalize3(nrm)) return;
  add_triangle(axes, na, p0, p1, p2);
  for (i = 0; i < NSAMPLE; i++) {
    sub3(s[i], p0, r);
    h[i] = obb_dot3(r, nrm);
    lo = obb_fmin(lo, h[i]);
    hi = obb_fmax(hi, h[i]);
  }
  for (i = 0; i < NSAMPLE; i++)
    if ((lo < 0 && h[i] <= lo * (1 - 1e-12)) ||
        (hi > 0 && h[i] >= hi * (1 - 1e-12))) {
      add_triangle(axes, na, p0, p1, s[i]);
      add_triangle(axes, na, p1, p2, s[i]);
      add_triangle(axes, na, p2, p0, s[i]);
    }
}

/* Candidate axes from DiTO's construction on sample s. DiTO takes the
** farthest pair of extremes as the base edge; every pair is taken here
** (and every point tied for farthest from its line), because lattice-like
** inputs tie often and the pick must not depend on the sample's order. */
static void dito_axes(const double s[NSAMPLE][3], double axes[][3], int *na) {
  int k, i;
  for (k = 0; k < NDIRS; k++) {
    const double *p0 = s[2 * k], *p1 = s[2 * k + 1];
    double d[3], dist[NSAMPLE], best = 0;
    sub3(p1, p0, d);
    if (!(obb_dot3(d, d) > 0)) continue;
    for (i = 0; i < NSAMPLE; i++) { /* the farthest from that line */
      double r[3], x[3];
      sub3(s[i], p0, r);
      obb_cross3(r, d, x);
      dist[i] = obb_dot3(x, x);
      best = obb_fmax(best, dist[i]);
    }
    if (!(best > 0)) continue;
    for (i = 0; i < NSAMPLE; i++)
      if (dist[i] >= best * (1 - 1e-12)) tetra_axes(s, p0, p1, s[i], axes, na);
  }
}

obb_status obb3_fit_points_tight(obb3 *b, const double *xyz, size_t n,
                                 double *scratch) {
  obb3 cov, fit;
  double ref[3], inv, s[NSAMPLE][3], axes[MAXAXES][3], f[3][3], g[3][3];
  double vmin[NDIRS], vmax[NDIRS], zero[3] = {0, 0, 0};
  double sscratch[2 * NSAMPLE + OBB_MINRECT2_SCRATCH(NSAMPLE)];
  double best = HUGE_VAL, best_sa = HUGE_VAL, qf, qg, d, e[3];
  size_t i, imin[NDIRS], imax[NDIRS];
  int na = 0, j, k, ex;
  obb_status st = obb3_fit_points(&cov, xyz, n);
  if (st != OBB_OK) return st;
  d = obb_fmax(cov.e[0], obb_fmax(cov.e[1], cov.e[2]));
  if (d == 0.0) { /* all points equal */
    *b = cov;
    return OBB_OK;
  }
  frexp(d, &ex); /* d < 2^ex */
  inv = ldexp(1.0, -ex);
  for (k = 0; k < 3; k++) ref[k] = cov.c[k];
  for (k = 0; k < NDIRS; k++) {
    vmin[k] = HUGE_VAL; vmax[k] = -HUGE_VAL;
    imin[k] = imax[k] = 0;
  }
  for (i = 0; i < n; i++) {
    double l[3];
    obb3_local(ref, (const double(*)[3])cov.u, xyz + 3 * i, l);
    for (k = 0; k < NDIRS; k++) {
      double v = obb_dot3(dirs[k], l);
      if (v < vmin[k]) { vmin[k] = v; imin[k] = i; }
      if (v > vmax[k]) { vmax[k] = v; imax[k] = i; }
    }
  }
  for (k = 0; k < NDIRS; k++) {
    sub3(xyz + 3 * imin[k], ref, s[2 * k]);
    sub3(xyz + 3 * imax[k], ref, s[2 * k + 1]);
  }
  for (k = 0; k < 3; k++) add_axis(axes, &na, cov.u[k]);
  for (k = 0; k < NDIRS; k++) {
    double a[3];
    for (j = 0; j < 3; j++)
      a[j] = dirs[k][0] * cov.u[0][j] + dirs[k][1] * cov.u[1][j] +
             dirs[k][2] * cov.u[2][j];
    add_axis(axes, &na, a);
  }
  dito_axes((const double(*)[3])s, axes, &na);
  copy_frame(f, (const double(*)[3])cov.u); /* should no score be finite */
  for (k = 0; k < na; k++) { /* score each candidate on the sample */
    double t[3][3], et[3], q, sa;
    frame_about(&s[0][0], NSAMPLE, zero, axes[k], sscratch, t);
    half_ranges(&s[0][0], NSAMPLE, zero, (const double(*)[3])t, et);
    q = quality(et, inv);
    sa = surface(et, inv);
    /* Exact ties are common on few points (every face of a tetrahedron
    ** can give the same volume): the smaller surface breaks them, with a
    ** tolerance so that rounding alone never decides. The same box found
    ** with its axes in another order is no problem: refine sorts them. */
    if (q < best * (1 - 1e-10) ||
        (q <= best * (1 + 1e-10) && sa < best_sa * (1 - 1e-10))) {
      best = q;
      best_sa = sa;
      copy_frame(f, (const double(*)[3])t);
    }
  }
  qf = refine(xyz, n, ref, f, NULL, inv, scratch);
  copy_frame(g, (const double(*)[3])cov.u);
  qg = refine(xyz, n, ref, g, NULL, inv, scratch);
  if (qg < qf * (1 - 1e-10)) copy_frame(f, (const double(*)[3])g);
  half_ranges(xyz, n, ref, (const double(*)[3])f, e);
  sort_frame(f, e); /* decreasing extent, as the covariance fit */
  st = obb3_enclose_points(&fit, xyz, n, ref, (const double(*)[3])f);
  if (st != OBB_OK || quality(fit.e, inv) > quality(cov.e, inv)) {
    /* Reordering axes (and negating one) keeps the same box, exactly. */
    sort_frame(cov.u, cov.e);
    *b = cov;
    return OBB_OK;
  }
  *b = fit;
  return OBB_OK;
}
