/*
** obb2.c: rotated rectangles. Construction, the 4-axis separating-axis
** test, containment, transform, corners and bounds.
*/
#include "obb.h"
#include "obb_math.h"
#include "obb_touch.h"

const char *obb_status_string(obb_status s) {
  switch (s) {
    case OBB_OK: return "ok";
    case OBB_ENOTFINITE: return "number is NaN or infinite";
    case OBB_ENEGATIVE: return "negative extent";
    case OBB_EZERO: return "zero-length axis or quaternion";
    case OBB_ENOTORTHO: return "axes not orthonormal";
    case OBB_ENOTAFFINE: return "last row must be 0 0 0 1";
    case OBB_EEMPTY: return "no points";
  }
  return "unknown status";
}

static obb_status check_extents(const double e[2]) {
  if (!obb_all_finite(e, 2)) return OBB_ENOTFINITE;
  if (e[0] < 0.0 || e[1] < 0.0) return OBB_ENEGATIVE;
  return OBB_OK;
}

obb_status obb2_init(obb2 *b, const double c[2], const double e[2],
                     double angle) {
  obb_status s = check_extents(e);
  if (s != OBB_OK) return s;
  if (!obb_all_finite(c, 2) || !obb_finite(angle)) return OBB_ENOTFINITE;
  b->c[0] = c[0]; b->c[1] = c[1];
  b->e[0] = e[0]; b->e[1] = e[1];
  obb_sincos(angle, &b->u[1], &b->u[0]);
  return OBB_OK;
}

obb_status obb2_from_aabb(obb2 *b, const double min[2], const double max[2]) {
  int i;
  if (!obb_all_finite(min, 2) || !obb_all_finite(max, 2))
    return OBB_ENOTFINITE;
  if (min[0] > max[0] || min[1] > max[1]) return OBB_ENEGATIVE;
  /* Half extents measured from the rounded center so the box still reaches
  ** both given corners. */
  for (i = 0; i < 2; i++) {
    double c = min[i] * 0.5 + max[i] * 0.5;
    b->c[i] = c;
    b->e[i] = obb_fmax(max[i] - c, c - min[i]);
  }
  b->u[0] = 1.0; b->u[1] = 0.0;
  return OBB_OK;
}

obb_status obb2_from_axis(obb2 *b, const double c[2], const double e[2],
                          const double axis[2]) {
  double u[2];
  obb_status s = check_extents(e);
  if (s != OBB_OK) return s;
  if (!obb_all_finite(c, 2) || !obb_all_finite(axis, 2))
    return OBB_ENOTFINITE;
  u[0] = axis[0]; u[1] = axis[1];
  if (!obb_normalize2(u)) return OBB_EZERO;
  if (fabs(sqrt(axis[0] * axis[0] + axis[1] * axis[1]) - 1.0) >
      OBB_AXIS_TOLERANCE)
    return OBB_ENOTORTHO;
  b->c[0] = c[0]; b->c[1] = c[1];
  b->e[0] = e[0]; b->e[1] = e[1];
  b->u[0] = u[0]; b->u[1] = u[1];
  return OBB_OK;
}

int obb2_is_valid(const obb2 *b) {
  double len2 = b->u[0] * b->u[0] + b->u[1] * b->u[1];
  return obb_finite(b->c[0]) && obb_finite(b->c[1]) &&
         obb_finite(b->e[0]) && obb_finite(b->e[1]) && b->e[0] >= 0.0 &&
         b->e[1] >= 0.0 && fabs(len2 - 1.0) <= 16 * DBL_EPSILON;
}

obb_status obb2_set_angle(obb2 *b, double angle) {
  if (!obb_finite(angle)) return OBB_ENOTFINITE;
  obb_sincos(angle, &b->u[1], &b->u[0]);
  return OBB_OK;
}

obb_status obb2_translate(obb2 *b, const double d[2]) {
  double c[2];
  c[0] = b->c[0] + d[0];
  c[1] = b->c[1] + d[1];
  if (!obb_all_finite(c, 2)) return OBB_ENOTFINITE;
  b->c[0] = c[0]; b->c[1] = c[1];
  return OBB_OK;
}

obb_status obb2_rotate(obb2 *b, double angle) {
  double c, s, x, y, len;
  if (!obb_finite(angle)) return OBB_ENOTFINITE;
  obb_sincos(angle, &s, &c);
  x = c * b->u[0] - s * b->u[1];
  y = s * b->u[0] + c * b->u[1];
  /* renormalised, so that many small turns do not drift off unit length */
  len = sqrt(x * x + y * y);
  b->u[0] = x / len; b->u[1] = y / len;
  return OBB_OK;
}

double obb2_angle(const obb2 *b) {
  double a = obb_atan2(b->u[1], b->u[0]);
  /* atan2 gives -pi for (-1, -0.0); the documented range is (-pi, pi]. */
  return a == -OBB_PI ? OBB_PI : a + 0.0;
}

/* Separating-axis test in a's frame: the axes are a's two and b's two. On
** each, the boxes overlap unless the projected distance between centers
** exceeds the sum of the projection radii (e0*|a0.L| + e1*|a1.L|) by more
** than the band (obb_touch.h): touching boxes intersect. */
int obb2_intersects(const obb2 *a, const obb2 *b) {
  double d[2], t0, t1, c, s, ac, as, g0, g1, g2, g3;
  double band = obb2_pair_band(a, b);
  const double *ea = a->e, *eb = b->e;
  d[0] = b->c[0] - a->c[0];
  d[1] = b->c[1] - a->c[1];
  t0 = d[0] * a->u[0] + d[1] * a->u[1];
  t1 = d[1] * a->u[0] - d[0] * a->u[1];
  /* b's axis 0 in a's frame is (c, s); b's axis 1 is (-s, c). */
  c = a->u[0] * b->u[0] + a->u[1] * b->u[1];
  s = a->u[0] * b->u[1] - a->u[1] * b->u[0];
  /* Snapped up to 1 when within rounding of it (obb_math.h): a box turned
  ** a quarter turn then reaches as far as containment says it does. */
  ac = obb_abs_up(c); as = obb_abs_up(s);
  /* All four axes, joined rather than returning at the first separating
  ** one: the work is a few multiply-adds, and on a mix of overlapping and
  ** separate pairs the early returns cost more in mispredicted branches
  ** than they save (bench/core_bench.c: about 16 ns per test with them,
  ** 9 ns without, on the README's machine). The largest gap is compared
  ** with the band once, rather than the band added to every radius. */
  g0 = fabs(t0) - (ea[0] + eb[0] * ac + eb[1] * as);
  g1 = fabs(t1) - (ea[1] + eb[0] * as + eb[1] * ac);
  g2 = fabs(d[0] * b->u[0] + d[1] * b->u[1]) - (eb[0] + ea[0] * ac + ea[1] * as);
  g3 = fabs(d[1] * b->u[0] - d[0] * b->u[1]) - (eb[1] + ea[0] * as + ea[1] * ac);
  g0 = g0 > g1 ? g0 : g1;
  g2 = g2 > g3 ? g2 : g3;
  return !((g0 > g2 ? g0 : g2) > band);
}

int obb2_contains_point(const obb2 *b, const double p[2]) {
  double l[2];
  obb2_local(b->c, b->u, p[0], p[1], l);
  return obb_inside(2, l, b->e, obb2_point_band(b, p, 0.0));
}

/* inner lies in outer iff, on each of outer's axes, inner's projection
** (center offset plus projection radius) stays within outer's extent,
** grown by the pair's band. Only boxes that intersect can contain: at the
** band's edge the two tests, computed differently, could otherwise
** disagree by rounding. */
int obb2_contains_box(const obb2 *outer, const obb2 *inner) {
  double l[2], c, s, band = obb2_pair_band(outer, inner);
  const double *eo = outer->e, *ei = inner->e;
  obb2_local(outer->c, outer->u, inner->c[0], inner->c[1], l);
  c = obb_snap_abs(outer->u[0] * inner->u[0] + outer->u[1] * inner->u[1]);
  s = obb_snap_abs(outer->u[0] * inner->u[1] - outer->u[1] * inner->u[0]);
  return fabs(l[0]) + (ei[0] * c + ei[1] * s) <= eo[0] + band &&
         fabs(l[1]) + (ei[0] * s + ei[1] * c) <= eo[1] + band &&
         obb2_intersects(outer, inner);
}

/* The image of the box is the parallelogram spanned by v_i = e_i * L u_i.
** The smallest rectangle around a parallelogram has a side along one of its
** edges, the longer one; aligned with edge direction f, its half extents are
** the support sum_i e_i |L u_i . f|. For a rectangle image this is exact. */
obb_status obb2_transform(obb2 *b, const double m[6]) {
  static const int linear[4] = {0, 1, 2, 3};
  double lu[2][2], u[2], len[2], c[2], e[2], l[4];
  int i, p, ex;
  if (!obb_all_finite(m, 6)) return OBB_ENOTFINITE;
  ex = obb_exponent_of_max(m, linear, 4);
  for (i = 0; i < 4; i++) l[i] = ldexp(m[i], -ex);
  lu[0][0] = l[0] * b->u[0] + l[2] * b->u[1];
  lu[0][1] = l[1] * b->u[0] + l[3] * b->u[1];
  lu[1][0] = -l[0] * b->u[1] + l[2] * b->u[0];
  lu[1][1] = -l[1] * b->u[1] + l[3] * b->u[0];
  for (i = 0; i < 2; i++)
    len[i] = b->e[i] * sqrt(obb_dot2(lu[i], lu[i]));
  p = len[0] >= len[1] ? 0 : 1;
  u[0] = lu[p][0]; u[1] = lu[p][1];
  if (!obb_normalize2(u)) {
    p = 1 - p;
    u[0] = lu[p][0]; u[1] = lu[p][1];
    if (!obb_normalize2(u)) { /* L is zero: the image is a point */
      p = 0;
      u[0] = b->u[0]; u[1] = b->u[1];
    }
  }
  if (p == 1) { /* u is the new axis 1; axis 0 is u turned clockwise */
    double t = u[0];
    u[0] = u[1]; u[1] = -t;
  }
  for (i = 0; i < 2; i++) {
    double f[2];
    f[0] = i == 0 ? u[0] : -u[1];
    f[1] = i == 0 ? u[1] : u[0];
    e[i] = ldexp(b->e[0] * fabs(obb_dot2(lu[0], f)) +
                 b->e[1] * fabs(obb_dot2(lu[1], f)), ex);
  }
  c[0] = m[0] * b->c[0] + m[2] * b->c[1] + m[4];
  c[1] = m[1] * b->c[0] + m[3] * b->c[1] + m[5];
  if (!obb_all_finite(c, 2) || !obb_all_finite(e, 2)) return OBB_ENOTFINITE;
  b->c[0] = c[0]; b->c[1] = c[1];
  b->u[0] = u[0]; b->u[1] = u[1];
  b->e[0] = e[0]; b->e[1] = e[1];
  return OBB_OK;
}

void obb2_corners(const obb2 *b, double out[8]) {
  static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
  double ax = b->e[0] * b->u[0], ay = b->e[0] * b->u[1];
  double bx = -b->e[1] * b->u[1], by = b->e[1] * b->u[0];
  int k;
  for (k = 0; k < 4; k++) {
    out[2 * k] = b->c[0] + sx[k] * ax + sy[k] * bx;
    out[2 * k + 1] = b->c[1] + sx[k] * ay + sy[k] * by;
  }
}

void obb2_aabb(const obb2 *b, double out[4]) {
  double hx = b->e[0] * fabs(b->u[0]) + b->e[1] * fabs(b->u[1]);
  double hy = b->e[0] * fabs(b->u[1]) + b->e[1] * fabs(b->u[0]);
  out[0] = b->c[0] - hx; out[1] = b->c[1] - hy;
  out[2] = b->c[0] + hx; out[3] = b->c[1] + hy;
}
