/*
** obb_trig.c: the sine and cosine of one angle together (obb_sincos), for
** the 2D boxes built from angles.
**
** libm's sin and cos are accurate, but on random angles they lose much of
** their time to mispredicted branches between their argument ranges. Here
** every angle below 2^20 in magnitude takes one path, with no branch that
** depends on it, and both results stay faithfully rounded: within 1 ulp of
** the true values (about 0.8 ulp at worst; `make check-trig` measures it).
** Larger angles, infinities and NaN go to libm, whose reduction handles
** any size. The steps:
**
** 1. Reduction. n = a * 2/pi rounded to the nearest integer (|n| < 2^20),
**    then r = a - n pi/2, |r| <= pi/4 (a hair more where a * 2/pi rounds
**    the other way next to a half-integer: harmless). Cody and Waite's
**    method: pi/2 is split into P1 + P2 + P3 of at most 33 significant bits
**    each, so that n Pi is exact, and P4, the next 53 bits; the rest is
**    below 2^-159. a - n P1 is exact; n P2 and n P3 are subtracted with
**    Dekker's Fast2Sum, which keeps each rounding error (see the two cases
**    below), so r comes out as y + yy, off by at most 2^-104 |r| + 2^-135.
**    The nearest a double below 2^20 comes to a multiple of pi/2 is 2^-60.5
**    (the double nearest 29 pi/2), so that is 2^-74 of r at worst: y + yy
**    can be taken as exact.
** 2. Kernels. sin and cos of y + yy, |y| <= pi/4, by polynomials in
**    z = y^2 with the coefficients of fdlibm's __kernel_sin and
**    __kernel_cos (Sun Microsystems 1993, k_sin.c and k_cos.c: minimax,
**    error below 2^-58 on [-pi/4, pi/4]), yy entering to first order, and
**    for cos the rounding error of 1 - z/2 added back separately, as in
**    FreeBSD's k_cos.c (Bruce Evans). The coefficients are theirs; the code
**    is ours. The two polynomials are evaluated side by side, after their
**    first term in pairs of terms by powers of z^2 (a shorter chain of
**    dependent operations than Horner's rule); with GNU C (gcc, clang) as
**    one pair of doubles.
** 3. Quadrant. n mod 4 says which kernel result is the sine and which the
**    cosine, and their signs: read from small tables, not branched on.
**
** The products n Pi are exact, so a fused multiply-add (where a compiler
** contracts one) changes no step of the reduction; it would only move the
** kernels' rounding by a hair. To keep every build's results identical,
** contraction is off: gcc in -std=c99 mode never contracts, and clang,
** which does within an expression by default, is told not to.
*/
#include "obb_math.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* 2/pi rounded, and pi/2 = P1 + P2 + P3 + P4 + O(2^-159). */
#define INV_PIO2 0x1.45f306dc9c883p-1
#define PIO2_1 0x1.921fb544p+0
#define PIO2_2 0x1.0b4611a6p-34
#define PIO2_3 0x1.3198a2ep-69
#define PIO2_4 0x1.b839a252049c1p-104
/* Adding then subtracting 1.5 * 2^52 rounds a number below 2^51 in
** magnitude to an integer, the nearest one in the default rounding mode. */
#define ROUNDER 0x1.8p+52

/* fdlibm k_sin.c: sin(y) ~ y + y z (S1 + S2 z + ... + S6 z^5). */
#define S1 -1.66666666666666324348e-01
#define S2 8.33333333332248946124e-03
#define S3 -1.98412698298579493134e-04
#define S4 2.75573137070700676789e-06
#define S5 -2.50507602534068634195e-08
#define S6 1.58969099521155010221e-10
/* fdlibm k_cos.c: cos(y) ~ 1 - z/2 + z^2 (C1 + C2 z + ... + C6 z^5). */
#define C1 4.16666666666666019037e-02
#define C2 -1.38888888888741095749e-03
#define C3 2.48015872894767294178e-05
#define C4 -2.75573143513906633035e-07
#define C5 2.08757232129817482790e-09
#define C6 -1.13596475577881948265e-11

void obb_sincos(double a, double *s, double *c) {
  /* sin(r + n pi/2) and cos(r + n pi/2) by n mod 4:
  **   n mod 4:   0         1          2          3
  **   sin:       sin r     cos r      -sin r     -cos r
  **   cos:       cos r     -sin r     -cos r     sin r      */
  static const double sin_sign[4] = {1.0, 1.0, -1.0, -1.0};
  static const double cos_sign[4] = {1.0, -1.0, -1.0, 1.0};
  double t, fn, x1, b, cc, d, r1, e1, r2, e2, y, yy;
  double z, w, hz, nwc, ps, pc, k[2];
  unsigned q;
  if (!(fabs(a) < OBB_SINCOS_LIMIT)) { /* huge, infinite or NaN */
    *s = sin(a);
    *c = cos(a);
    return;
  }
  /* 1. r = a - n pi/2 = y + yy. */
  t = a * INV_PIO2 + ROUNDER;
  fn = t - ROUNDER;
  q = (unsigned)(long)fn & 3u; /* n mod 4, for negative n too */
  x1 = a - fn * PIO2_1;        /* exact: multiples of 2^-53 below 1 */
  b = fn * PIO2_2;             /* exact */
  cc = fn * PIO2_3;            /* exact */
  d = fn * PIO2_4;             /* rounded, but below 2^-83 */
  /* r1 + e1 = x1 - b exactly. Fast2Sum needs |x1| >= |b|; otherwise
  ** |x1 - b| < 2^-12.9 is a multiple of 2^-65, exact, and e1 = 0. */
  r1 = x1 - b;
  e1 = (x1 - r1) - b;
  /* r2 + e2 = r1 - cc exactly, the same way: where |r1| < |cc| < 2^-48.7,
  ** r1 is a multiple of 2^-65 and cc of 2^-96, so r1 - cc is exact. */
  r2 = r1 - cc;
  e2 = (r1 - r2) - cc;
  y = r2;
  yy = (e1 + e2) - d; /* at most an ulp of y, or 2^-38 of it near n pi/2 */
  /* 2. The kernels on y + yy. */
  z = y * y;
  w = z * z;
#if defined(__GNUC__) && !defined(OBB_TRIG_SCALAR)
  {
    /* Both polynomials at once, as a pair of doubles (GNU C's vector
    ** extension: SSE2 on x86-64, NEON on arm64). Lane by lane these are
    ** the operations of the #else branch, so the results are the same to
    ** the bit; spec/trig_check.c checks that with OBB_TRIG_SCALAR. */
    typedef double pair __attribute__((vector_size(2 * sizeof(double))));
    const pair k1 = {S1, C1}, k2 = {S2, C2}, k3 = {S3, C3}, k4 = {S4, C4},
               k5 = {S5, C5}, k6 = {S6, C6};
    pair zz = {z, z}, ww = {w, w}, p;
    p = k1 + zz * ((k2 + zz * k3) + ww * ((k4 + zz * k5) + ww * k6));
    ps = p[0];
    pc = p[1];
  }
#else
  ps = S1 + z * ((S2 + z * S3) + w * ((S4 + z * S5) + w * S6));
  pc = C1 + z * ((C2 + z * C3) + w * ((C4 + z * C5) + w * C6));
#endif
  hz = 0.5 * z;
  nwc = hz - 1.0; /* -(1 - z/2), rounded */
  /* sin(y + yy) = y + y z ps + yy (1 - z/2); the sign of y keeps
  ** sin(-0) = -0 (which the sum alone would round to +0). */
  k[0] = copysign(y + (ps * (z * y) - yy * nwc), y);
  /* cos(y + yy) = (1 - z/2) + z^2 pc - y yy, where ((1 + nwc) - hz) is
  ** exactly the rounding error of -nwc (both steps are exact). */
  k[1] = (((1.0 + nwc) - hz) + (pc * w - y * yy)) - nwc;
  /* 3. The quadrant. */
  *s = k[q & 1u] * sin_sign[q];
  *c = k[(q & 1u) ^ 1u] * cos_sign[q];
}

/* ---- the angle of a vector ------------------------------------------------
**
** obb_atan2 is fdlibm's e_atan2.c and s_atan.c (Sun Microsystems 1993):
** the ratio t = |y / x| is reduced to |t'| <= 7/16 against one of atan(0.5),
** atan(1), atan(1.5) and atan(inf) = pi/2, each kept in two parts (hi + lo),
** through atan(t) = atan(c) + atan((t - c) / (1 + c t)); a minimax
** polynomial of degree 11 in t'^2 does the rest (error below 2^-64 of
** the result), and the quadrant is set with pi in two parts. fdlibm
** branches on the high word of t; comparing t with the same thresholds
** (0.4375, 0.6875, 1.1875, 2.4375, 2^66: each has a zero low word) takes
** the same branches. The coefficients are fdlibm's; the code is ours.
** Only + - * / and comparisons: with contraction off (above) the result is
** the same bits on every platform, which libm's atan2 does not promise. */

/* atan(0.5), atan(1), atan(1.5) and atan(inf), high and low parts. */
static const double ATAN_HI[4] = {
  0x1.dac670561bb4fp-2, 0x1.921fb54442d18p-1, 0x1.f730bd281f69bp-1,
  0x1.921fb54442d18p+0
};
static const double ATAN_LO[4] = {
  0x1.a2b7f222f65e2p-56, 0x1.1a62633145c07p-55, 0x1.007887af0cbbdp-56,
  0x1.1a62633145c07p-54
};
/* fdlibm s_atan.c: atan(x) ~ x - x (z T(z)), z = x^2, split into the odd
** and even powers of w = z^2. */
#define AT0 0x1.555555555550dp-2
#define AT1 -0x1.999999998ebc4p-3
#define AT2 0x1.24924920083ffp-3
#define AT3 -0x1.c71c6fe231671p-4
#define AT4 0x1.745cdc54c206ep-4
#define AT5 -0x1.3b0f2af749a6dp-4
#define AT6 0x1.10d66a0d03d51p-4
#define AT7 -0x1.dde2d52defd9ap-5
#define AT8 0x1.97b4b24760debp-5
#define AT9 -0x1.2b4442c6a6c2fp-5
#define AT10 0x1.0ad3ae322da11p-6
/* pi rounded, and the rest of it */
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53

/* atan(t) for t >= 0 (+inf included). */
static double atan_nonneg(double t) {
  double z, w, s1, s2;
  int id;
  if (t >= 0x1p66) return ATAN_HI[3] + ATAN_LO[3];
  if (t < 0.4375) {
    if (t < 0x1p-29) return t;
    id = -1;
  } else if (t < 1.1875) {
    if (t < 0.6875) {
      id = 0;
      t = (2.0 * t - 1.0) / (2.0 + t);
    } else {
      id = 1;
      t = (t - 1.0) / (t + 1.0);
    }
  } else if (t < 2.4375) {
    id = 2;
    t = (t - 1.5) / (1.0 + 1.5 * t);
  } else {
    id = 3;
    t = -1.0 / t;
  }
  z = t * t;
  w = z * z;
  s1 = z * (AT0 + w * (AT2 + w * (AT4 + w * (AT6 + w * (AT8 + w * AT10)))));
  s2 = w * (AT1 + w * (AT3 + w * (AT5 + w * (AT7 + w * AT9))));
  if (id < 0) return t - t * (s1 + s2);
  return ATAN_HI[id] - ((t * (s1 + s2) - ATAN_LO[id]) - t);
}

double obb_atan2(double y, double x) {
  double z;
  int xneg = signbit(x) != 0, yneg = signbit(y) != 0;
  if (x != x || y != y) return x + y;
  if (y == 0) /* +-0 toward +x, +-pi toward -x */
    return !xneg ? y : yneg ? -PI_HI : PI_HI;
  if (x == 0 || (fabs(y) == HUGE_VAL && fabs(x) != HUGE_VAL))
    return yneg ? -ATAN_HI[3] : ATAN_HI[3];
  if (fabs(x) == HUGE_VAL) {
    if (fabs(y) == HUGE_VAL)
      z = xneg ? 3 * ATAN_HI[1] : ATAN_HI[1];
    else
      z = xneg ? PI_HI : 0.0;
    return yneg ? -z : z;
  }
  /* y / x may overflow to inf (atan gives pi/2) or underflow (t itself) */
  z = atan_nonneg(fabs(y / x));
  if (!xneg) return yneg ? -z : z;
  z = PI_HI - (z - PI_LO);
  return yneg ? -z : z;
}
