/*
** obb_math.h: small vector helpers shared by the core's .c files (internal).
*/
#ifndef OBB_MATH_H
#define OBB_MATH_H

#include <float.h>
#include <stddef.h>
#include <math.h>

#define OBB_PI 3.14159265358979323846

/* isfinite without relying on C99 classification macros being fast. */
static inline int obb_finite(double x) { return x - x == 0.0; }

/* The larger and the smaller of a and b, as C99's fmax and fmin (a NaN
** loses to a number), with the sign of zero decided: max(-0, +0) is +0
** and min(-0, +0) is -0, whatever the order. C leaves that open, and
** glibc's libm, a compiler's inlined maxsd and mingw-w64's differ, so the
** answers (a sweep's t = 0, say) would not be the same bits everywhere. */
static inline double obb_fmax(double a, double b) {
  if (a > b) return a;
  if (b > a) return b;
  if (a == b) return a == 0.0 ? a + b : a; /* (-0) + (+0) is +0 */
  return a != a ? b : a;
}

static inline double obb_fmin(double a, double b) {
  if (a < b) return a;
  if (b < a) return b;
  if (a == b) return a == 0.0 ? -(-a - b) : a; /* -((+0) + (-0)) is -0 */
  return a != a ? b : a;
}

/* Whether v[0..n-1] are all finite. */
static inline int obb_all_finite(const double *v, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!obb_finite(v[i])) return 0;
  return 1;
}

/* Sine and cosine of a together, each faithfully rounded (within 1 ulp of
** the true value), without data-dependent branches for |a| below
** OBB_SINCOS_LIMIT; libm's sin and cos beyond (obb_trig.c). */
#define OBB_SINCOS_LIMIT 0x1p+20
void obb_sincos(double a, double *s, double *c);

/* The angle of (x, y), atan2(y, x) in [-pi, pi], with + - * / only
** (fdlibm's method, obb_trig.c): the same bits on every platform, within
** 2 ulps of the true value; atan2's results for zeros, infinities and NaN.
** obb2_angle and the turning move's turn take it. */
double obb_atan2(double y, double x);

static inline double obb_dot2(const double a[2], const double b[2]) {
  return a[0] * b[0] + a[1] * b[1];
}

static inline double obb_dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void obb_cross3(const double a[3], const double b[3],
                              double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Scales v to unit length; returns 0 (leaving v alone) when v is zero or
** not finite. Scaling by the largest component first keeps tiny and huge
** vectors from underflowing or overflowing in the squared length. */
static inline int obb_normalize3(double v[3]) {
  double m = obb_fmax(fabs(v[0]), obb_fmax(fabs(v[1]), fabs(v[2])));
  double x, y, z, len;
  if (!(m > 0.0) || !obb_finite(m)) return 0;
  x = v[0] / m; y = v[1] / m; z = v[2] / m;
  len = sqrt(x * x + y * y + z * z);
  v[0] = x / len; v[1] = y / len; v[2] = z / len;
  return 1;
}

static inline int obb_normalize2(double v[2]) {
  double m = obb_fmax(fabs(v[0]), fabs(v[1]));
  double x, y, len;
  if (!(m > 0.0) || !obb_finite(m)) return 0;
  x = v[0] / m; y = v[1] / m;
  len = sqrt(x * x + y * y);
  v[0] = x / len; v[1] = y / len;
  return 1;
}

/* Quaternion q at unit length, into out: divided by its largest |component|
** first (so components from 5e-324 to 1.7e308 neither underflow nor
** overflow in the squares), then by its length. Every use of a quaternion
** goes through here (a box's rotation, the turning move's goal), so any two
** scales of one quaternion that are exact in doubles give the same bits.
** Returns 0 (out untouched) when q is zero; q must be finite. */
static inline int obb_quat_unit(const double q[4], double out[4]) {
  double m, x, y, z, w, n;
  m = obb_fmax(fmax(fabs(q[0]), fabs(q[1])), obb_fmax(fabs(q[2]), fabs(q[3])));
  if (!(m > 0.0)) return 0;
  x = q[0] / m; y = q[1] / m; z = q[2] / m; w = q[3] / m;
  n = sqrt(x * x + y * y + z * z + w * w);
  out[0] = x / n; out[1] = y / n; out[2] = z / n; out[3] = w / n;
  return 1;
}

/* The binary exponent of the largest |v[i]| for the indices in idx (0 when
** they are all zero). A transform divides its linear part by 2^exponent,
** exactly, before multiplying it out, and scales the extents back at the
** end: entries that are subnormal (or huge) would otherwise lose their
** significant bits in the products, and the box its direction. */
static inline int obb_exponent_of_max(const double *v, const int *idx,
                                      int n) {
  double m = 0.0;
  int i, e = 0;
  for (i = 0; i < n; i++) m = obb_fmax(m, fabs(v[idx[i]]));
  if (m > 0.0) (void)frexp(m, &e);
  return e;
}

/* Coordinates of point (x, y) in the frame of a 2D box. Every function that
** decides containment goes through here, so a box fitted to points (whose
** extents are measured with this same arithmetic) contains them exactly. */
static inline void obb2_local(const double c[2], const double u[2], double x,
                              double y, double out[2]) {
  double dx = x - c[0], dy = y - c[1];
  out[0] = dx * u[0] + dy * u[1];
  out[1] = dy * u[0] - dx * u[1];
}

static inline void obb3_local(const double c[3], const double u[3][3],
                              const double p[3], double out[3]) {
  double d[3];
  d[0] = p[0] - c[0]; d[1] = p[1] - c[1]; d[2] = p[2] - c[2];
  out[0] = obb_dot3(d, u[0]);
  out[1] = obb_dot3(d, u[1]);
  out[2] = obb_dot3(d, u[2]);
}

/* |cos| of the angle between two unit axes, snapped to exactly 0 or 1 when
** rounding alone keeps it from being so: identical or axis-swapped boxes
** then compare exactly in containment tests. */
static inline double obb_snap_abs(double r) {
  r = fabs(r);
  if (r < 8 * DBL_EPSILON) return 0.0;
  if (r > 1.0 - 8 * DBL_EPSILON) return 1.0;
  return r;
}

/* |cos| snapped up to exactly 1 when within rounding of it, never down:
** the intersection tests use it for projection radii, so that a box turned
** by quarter turns (whose axes are unit only to an ulp) reaches as far as
** containment says it does, while no radius ever shrinks (which could
** separate boxes that touch). Touching stays intersecting. */
static inline double obb_abs_up(double r) {
  r = fabs(r);
  return r > 1.0 - 8 * DBL_EPSILON ? 1.0 : r;
}

#endif
