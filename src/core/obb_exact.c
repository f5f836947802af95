/*
** obb_exact.c: exact products with + - * alone (obb_exact.h says why).
**
** The product's error is Dekker's TwoProduct: Veltkamp's split cuts each
** factor into two halves of at most 26 significant bits, whose four
** products are exact, and their sum less fl(a*b), taken in the right
** order, is the exact error. That holds while nothing overflows (the split
** multiplies by 2^27 + 1) and nothing underflows (the halves' products
** must be multiples of the smallest subnormal): for factors between
** 2^-480 and 2^480. Others are first scaled by 2^600 or 2^-600, which is
** exact, and the error scaled back with one rounding, so the answer is
** what fma(a, b, -p) rounds to, over the whole range of doubles
** (test/exact_check.c compares them on millions of factors: make
** check-exact).
**
** Kahan's a*b - c*d also needs fl(a*b - w) with one rounding. It is the
** sum of three doubles, p + e - w (p and e the product and its error);
** TwoSum makes it s + t exactly, and fl(s + t + e) is fl(s + ro(t + e)),
** where ro rounds to odd (Boldo and Melquiond, "Emulation of FMA and
** correctly rounded sums: proved algorithms using rounding to odd", IEEE
** Trans. Computers 57(4), 2008): the odd last bit remembers that t + e
** was not a double, so the final rounding cannot be misled into a tie.
**
** The proofs take each operation as written, rounded on its own. A
** compiler that fused a product into the next addition (GCC does by
** default in its GNU modes, clang within an expression, where the CPU
** has a fused multiply-add) would compute something else, which would
** need proofs of its own. The Makefile builds with -ffp-contract=off; the
** pragmas below hold this file to it whatever the flags (but for clang
** given -ffp-contract=fast explicitly, which overrides them). `make
** check-exact` also checks it built as a LuaRocks build on such a CPU
** would build it.
*/
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <stdint.h>
#include <string.h>

#include "obb_exact.h"
#include "obb_math.h"

/* 2^27 + 1: Veltkamp's constant for 53-bit doubles. */
#define SPLITTER 134217729.0
/* Factors within [NEAR_LO, NEAR_HI] in magnitude need no scaling: the
** split of 2^480 is far from overflowing, and the halves' products, each
** a multiple of ulp(a) * ulp(b) >= 2^(-480 - 52 - 480 - 52) = 2^-1064,
** are multiples of the smallest subnormal, 2^-1074. */
#define NEAR_LO 0x1p-480
#define NEAR_HI 0x1p+480
/* Brings a factor outside that range back inside (exactly: a power of
** two): 2^600 * [2^-1074, 2^-480) is [2^-474, 2^120), 2^-600 * (2^480,
** 2^1024) is (2^-120, 2^424). */
#define FAR_UP 0x1p+600
#define FAR_DOWN 0x1p-600

/* x = *hi + *lo exactly, each with at most 26 significant bits. */
static void split(double x, double *hi, double *lo) {
  double c = SPLITTER * x;
  double h = c - (c - x);
  *hi = h;
  *lo = x - h;
}

/* a*b - p exactly, for p = fl(a*b) and a, b within [NEAR_LO, NEAR_HI]
** (Dekker): every partial sum below is a double. */
static double dekker_error(double a, double b, double p) {
  double ah, al, bh, bl;
  split(a, &ah, &al);
  split(b, &bh, &bl);
  return (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
}

/* Multiplies x by FAR_UP or FAR_DOWN until it is within the near range,
** at most once (see FAR_UP); returns the power of two applied, as a count
** of 600s with its sign. */
static int bring_near(double *x) {
  double m = fabs(*x);
  if (m > NEAR_HI) {
    *x *= FAR_DOWN;
    return -1;
  }
  if (m < NEAR_LO) {
    *x *= FAR_UP;
    return 1;
  }
  return 0;
}

/* x * 2^(-600 k) for k in -2..2, with one rounding: the steps before the
** last are exact (see the callers). */
static double scale_back(double x, int k) {
  for (; k > 0; k--) x *= FAR_DOWN;
  for (; k < 0; k++) x *= FAR_UP;
  return x;
}

/* The error of p = fl(a*b) when a or b is outside the near range, zero
** or not finite: what fma(a, b, -p) gives. Rare: kept out of line, so
** that the near case inlines small. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static double far_error(double a, double b, double p) {
  double as = a, bs = b, ps, es;
  int k;
  if (!obb_finite(p))
    /* An overflow of finite factors: a*b - inf is -inf. Otherwise an
    ** infinite or NaN factor: NaN (inf - inf, or the NaN itself). */
    return obb_finite(a) && obb_finite(b) ? -p : p - p;
  if (a == 0.0 || b == 0.0) return 0.0; /* (+-0) - (+-0), same signs: +0 */
  /* a*b = (as * bs) * 2^(-600 k), as and bs in the near range. */
  k = bring_near(&as) + bring_near(&bs);
  ps = as * bs;
  es = dekker_error(as, bs, ps);
  if (fabs(p) > DBL_MIN) {
    /* a*b is a normal number, so it rounds to p as as*bs rounds to ps
    ** (p = ps * 2^(-600 k)), and the error is es scaled back. When k is
    ** 2 (both factors were tiny), ps is above 2^178, es a multiple of
    ** 2^72, and the first step down exact; scaling up is exact as long
    ** as the result is finite, which it is (it is below ulp(p)). */
    return scale_back(es, k);
  }
  /* |p| <= DBL_MIN: a*b is within half the subnormals' spacing of p, so
  ** the error rounds to a zero; fma gives it the sign of a*b - p, +0 when
  ** that is 0. Here k > 0 (the near range's products are above 2^-960),
  ** so p scaled up is exact, and within a factor 2 of ps (Sterbenz: the
  ** difference is exact); the rounded sum with es has the exact sign. */
  es = (ps - scale_back(p, -k)) + es;
  return es < 0.0 ? -0.0 : 0.0;
}

static inline double two_product(double a, double b, double *err) {
  double p = a * b, fa = fabs(a), fb = fabs(b);
  if (fa >= NEAR_LO && fa <= NEAR_HI && fb >= NEAR_LO && fb <= NEAR_HI)
    *err = dekker_error(a, b, p);
  else
    *err = far_error(a, b, p);
  return p;
}

double obb_two_product(double a, double b, double *err) {
  return two_product(a, b, err);
}

/* x + y = *s + *err exactly (Knuth's TwoSum, no branch). */
static void two_sum(double x, double y, double *s, double *err) {
  double t = x + y, yv = t - x, xv = t - yv;
  *s = t;
  *err = (x - xv) + (y - yv);
}

/* x + y rounded to odd: the exact sum when it is a double, else the one
** of the two doubles around it whose last bit is 1. For finite x, y whose
** sum does not overflow. */
static double add_round_odd(double x, double y) {
  double s, r;
  uint64_t bits;
  two_sum(x, y, &s, &r);
  if (r == 0.0) return s;
  memcpy(&bits, &s, sizeof bits);
  if ((bits & 1) == 0) {
    /* s is not 0 (else x + y would be exact): step one ulp towards the
    ** exact sum, away from zero when r has s's sign. */
    if ((r > 0.0) == (s > 0.0)) bits++;
    else bits--;
    memcpy(&s, &bits, sizeof s);
  }
  return s;
}

double obb_diff_of_products(double a, double b, double c, double d) {
  double mw, e, p, pe, s, t, v;
  /* mw = -fl(c*d) and e = fl(w - c*d) = fma(-c, d, w): the exact error
  ** (with fma's signs of zero). */
  mw = two_product(-c, d, &e);
  p = two_product(a, b, &pe);
  if (!obb_finite(p) || !obb_finite(mw)) return (p + mw) + e; /* NaN, inf */
  /* fl(a*b - w) = fl(s + t + pe) with one rounding; s alone when t + pe
  ** is 0 (s + 0 would turn an s of -0 into +0, fma keeps it). Exact
  ** while pe is (|a*b| >= 2^-969 or 0): below, pe is rounded and so may
  ** the sum be, by an ulp, where it is itself as small. */
  two_sum(p, mw, &s, &t);
  if (!obb_finite(s)) return s + e;
  v = add_round_odd(t, pe);
  if (v != 0.0) s += v;
  return s + e;
}
