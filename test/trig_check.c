/*
** test/trig_check.c: the accuracy of obb_sincos (src/core/obb_trig.c), which
** obb2_init, set_angle, rotate and the 2D fit use. `make check-trig`
** builds it against the core's objects and runs it; CI runs it with gcc
** and with clang.
**
** Every result is compared with long double sinl and cosl (a 64-bit
** significand on x86-64, 11 bits beyond double, so the reference's own
** error is a few thousandths of an ulp; where long double is no wider than
** double the check is skipped) and must be within 1 ulp of it: faithfully
** rounded. The angles:
**   - special values: +-0 (sin keeps the sign, cos is exactly 1), the
**     smallest subnormals, the edges of the reduced range, the largest
**     doubles; infinities and NaN give NaN;
**   - every double within 2 ulps of a multiple of pi/4 up to the limit
**     and a little past it, so each multiple of pi/2 (where the reduction
**     cancels most) and each half-way point (where the quadrant flips);
**   - millions of random angles: uniform in [-8, 8] (a game's range),
**     uniform in [-2^20, 2^20] (the whole reduced range), and log-uniform
**     in magnitude from 2^-1074 to 2^30 (tiny, subnormal, and past the
**     limit where libm takes over).
** Each answer is also compared with obb_sincos_scalar: the same source
** built with OBB_TRIG_SCALAR (see the Makefile), which evaluates the two
** polynomials one after the other instead of as a pair of doubles; the
** two must agree to the bit, so the build without GNU C is checked too.
** It prints the largest error seen, in ulps, and fails (exit status 1) on
** any result further than 1 ulp, on a difference between the two builds,
** or on a wrong special value.
**
** obb_atan2 (the angle of a vector, for obb2_angle and the turning move)
** is checked the same way against atan2l, within 2 ulps (fdlibm's method
** adds the rounding of y / x: 1.5 ulps at worst measured): on unit
** vectors at random angles, on random pairs of every sign and of
** magnitudes 2^-300 to 2^300, and on atan2's special values (zeros of
** both signs, infinities, NaN), which must be libm's to the bit.
**
**   trig_check [random angles per kind, default 2000000]
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obb.h"
#include "obb_math.h"

#define SUBNORMAL_MIN 4.9406564584124654e-324

/* src/core/obb_trig.c built with OBB_TRIG_SCALAR. */
void obb_sincos_scalar(double a, double *s, double *c);

static long failures = 0;
static double worst = 0.0, worst_at = 0.0;
static const char *worst_what = "";
static long checked = 0;

/* The error of got against the true value ref, in units of the spacing of
** doubles at ref (below DBL_MIN, the subnormal spacing). Within 1 ulp is
** the same as faithfully rounded: got is one of the two doubles around
** ref. */
static double ulps(double got, long double ref) {
  long double m = fabsl(ref), ulp;
  int e;
  if (m == 0) return got == 0 ? 0.0 : HUGE_VAL;
  (void)frexpl(m, &e); /* m in [2^(e-1), 2^e) */
  ulp = ldexpl(1.0L, e - 1 < DBL_MIN_EXP - 1 ? DBL_MIN_EXP - DBL_MANT_DIG
                                             : e - DBL_MANT_DIG);
  return (double)(fabsl((long double)got - ref) / ulp);
}

static int same_bits(double x, double y) {
  return memcmp(&x, &y, sizeof x) == 0;
}

static void check_one(double a) {
  double s, c, es, ec, s1, c1;
  obb_sincos(a, &s, &c);
  obb_sincos_scalar(a, &s1, &c1);
  if (!same_bits(s, s1) || !same_bits(c, c1)) {
    if (failures < 20)
      fprintf(stderr, "trig_check: sincos(%a) = (%a, %a), but (%a, %a) "
              "built with OBB_TRIG_SCALAR\n", a, s, c, s1, c1);
    failures++;
  }
  es = ulps(s, sinl(a));
  ec = ulps(c, cosl(a));
  checked++;
  if (!(es < 1.0) || !(ec < 1.0)) {
    if (failures < 20)
      fprintf(stderr,
              "trig_check: sincos(%a) = (%a, %a): %.3f and %.3f ulps off "
              "(sinl %.21Lg, cosl %.21Lg)\n",
              a, s, c, es, ec, sinl(a), cosl(a));
    failures++;
  }
  if (es > worst) { worst = es; worst_at = a; worst_what = "sin"; }
  if (ec > worst) { worst = ec; worst_at = a; worst_what = "cos"; }
}

static void expect_exact(double a, double want_s, double want_c) {
  double s, c;
  obb_sincos(a, &s, &c);
  if (!same_bits(s, want_s) || !same_bits(c, want_c)) {
    fprintf(stderr, "trig_check: sincos(%a) = (%a, %a), want exactly (%a, %a)\n",
            a, s, c, want_s, want_c);
    failures++;
  }
}

static void specials(void) {
  static const double edges[] = {
    SUBNORMAL_MIN, 2.2250738585072014e-308, 1e-300, 0x1p-27,
    0x1p-26, 1e-8, 0.5, 0.78539816339744828, 0.78539816339744839,
    1.5707963267948966, 3.1415926535897931, 4.7123889803846897,
    6.2831853071795862, 8.0, 45.553093477052, 1e3, 1e5,
    OBB_SINCOS_LIMIT, 1e7, 1e15, 1e22, 1e300, DBL_MAX
  };
  size_t i;
  double s, c;
  expect_exact(0.0, 0.0, 1.0);
  expect_exact(-0.0, -0.0, 1.0);
  expect_exact(SUBNORMAL_MIN, SUBNORMAL_MIN, 1.0);
  expect_exact(-SUBNORMAL_MIN, -SUBNORMAL_MIN, 1.0);
  expect_exact(1e-300, 1e-300, 1.0);
  for (i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    double x = edges[i];
    int k;
    for (k = 0; k < 3; k++) x = nextafter(x, 0.0);
    for (k = 0; k < 7 && x < HUGE_VAL; k++, x = nextafter(x, HUGE_VAL)) {
      check_one(x);
      check_one(-x);
    }
  }
  /* beyond the limit the results are libm's own */
  for (i = 0; i < 3; i++) {
    double x = i == 0 ? OBB_SINCOS_LIMIT : i == 1 ? 1e10 : DBL_MAX;
    obb_sincos(x, &s, &c);
    if (!same_bits(s, sin(x)) || !same_bits(c, cos(x))) {
      fprintf(stderr, "trig_check: sincos(%a) is not libm's\n", x);
      failures++;
    }
  }
  {
    double bad[3];
    bad[0] = HUGE_VAL; bad[1] = -HUGE_VAL; bad[2] = nan("");
    for (i = 0; i < 3; i++) {
      obb_sincos(bad[i], &s, &c);
      if (s == s || c == c) {
        fprintf(stderr, "trig_check: sincos(%g) = (%g, %g), want NaN\n",
                bad[i], s, c);
        failures++;
      }
    }
  }
}

/* Every double within 2 ulps of k pi/4, for k pi/4 up to 1.01 times the
** limit (k pi/4 itself taken in long double, whose rounding is far below
** the doubles' spacing there). */
static void near_multiples(void) {
  const long double pio4 = 0.785398163397448309615660845819875721L;
  long kmax = (long)(OBB_SINCOS_LIMIT * 1.01 / 0.78539816339744831);
  long k;
  for (k = 1; k <= kmax; k++) {
    double x = (double)(k * pio4);
    int i;
    x = nextafter(nextafter(x, 0.0), 0.0);
    for (i = 0; i < 5; i++, x = nextafter(x, HUGE_VAL)) {
      check_one(x);
      check_one(-x);
    }
  }
}

/* xorshift64*, as in bench/core_bench.c: uniform in [0, 1). */
static double rnd(unsigned long long *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static void random_angles(long n) {
  unsigned long long s = 0x9E3779B97F4A7C15ULL;
  long i;
  for (i = 0; i < n; i++) check_one(16.0 * rnd(&s) - 8.0);
  for (i = 0; i < n; i++)
    check_one((2.0 * rnd(&s) - 1.0) * OBB_SINCOS_LIMIT);
  for (i = 0; i < n; i++) {
    /* |a| = m 2^e, e uniform in [-1074, 30] */
    double m = 1.0 + rnd(&s), a;
    int e = (int)(rnd(&s) * 1105.0) - 1075;
    a = ldexp(m, e);
    check_one(rnd(&s) < 0.5 ? -a : a);
  }
}

/* ---- obb_atan2 ---- */

static double worst_atan = 0.0, worst_atan_y = 0.0, worst_atan_x = 0.0;

static void check_atan2(double y, double x) {
  double a = obb_atan2(y, x), e = ulps(a, atan2l(y, x));
  checked++;
  if (!(e <= 2.0)) {
    if (failures < 20)
      fprintf(stderr, "trig_check: atan2(%a, %a) = %a: %.3f ulps off\n", y,
              x, a, e);
    failures++;
  }
  if (e > worst_atan) {
    worst_atan = e;
    worst_atan_y = y;
    worst_atan_x = x;
  }
}

static void atan2_specials(void) {
  static const double v[] = {0.0, -0.0, 1.0, -1.0, SUBNORMAL_MIN, -SUBNORMAL_MIN,
                             DBL_MAX, -DBL_MAX, HUGE_VAL, -HUGE_VAL};
  size_t i, j, n = sizeof v / sizeof v[0];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double a = obb_atan2(v[i], v[j]), b = atan2(v[i], v[j]);
      if (!same_bits(a, b) && !(v[i] != 0 && v[j] != 0 &&
                                fabs(v[i]) != HUGE_VAL && fabs(v[j]) != HUGE_VAL &&
                                ulps(a, atan2l(v[i], v[j])) <= 2.0)) {
        fprintf(stderr, "trig_check: atan2(%a, %a) = %a, libm %a\n", v[i],
                v[j], a, b);
        failures++;
      }
    }
  if (obb_atan2(nan(""), 1.0) == obb_atan2(nan(""), 1.0) ||
      obb_atan2(1.0, nan("")) == obb_atan2(1.0, nan(""))) {
    fprintf(stderr, "trig_check: atan2 of NaN is not NaN\n");
    failures++;
  }
}

static void random_atan2(long n) {
  unsigned long long s = 0x2545F4914F6CDD1DULL;
  long i;
  for (i = 0; i < n; i++) { /* unit vectors, as a box's axis */
    double sn, cs;
    obb_sincos((2.0 * rnd(&s) - 1.0) * 4.0, &sn, &cs);
    check_atan2(sn, cs);
  }
  for (i = 0; i < n; i++) {
    double y = ldexp(2.0 * rnd(&s) - 1.0, (int)(rnd(&s) * 600.0) - 300);
    double x = ldexp(2.0 * rnd(&s) - 1.0, (int)(rnd(&s) * 600.0) - 300);
    check_atan2(y, x);
  }
}

/* obb2_init and set_angle store exactly what obb_sincos gives. */
static void boxes(void) {
  unsigned long long s = 12345;
  int i;
  for (i = 0; i < 1000; i++) {
    double a = (2.0 * rnd(&s) - 1.0) * 100.0, sn, cs;
    obb2 b;
    static const double c[2] = {0, 0}, e[2] = {1, 1};
    obb_sincos(a, &sn, &cs);
    if (obb2_init(&b, c, e, a) != OBB_OK || b.u[0] != cs ||
        b.u[1] != sn || obb2_set_angle(&b, -a) != OBB_OK ||
        b.u[0] != cs || b.u[1] != -sn) {
      fprintf(stderr, "trig_check: obb2 axes of %a are not obb_sincos's\n", a);
      failures++;
    }
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  if (n < 0) {
    fprintf(stderr, "usage: trig_check [random angles per kind]\n");
    return 2;
  }
  if (LDBL_MANT_DIG < DBL_MANT_DIG + 8) {
    printf("trig_check: skipped: long double has %d bits, too few to judge "
           "an ulp of double\n", LDBL_MANT_DIG);
    return 0;
  }
  specials();
  near_multiples();
  random_angles(n);
  boxes();
  atan2_specials();
  random_atan2(n);
  printf("trig_check: %ld angles, largest error %.4f ulp (%s of %a); "
         "atan2 %.4f ulp (of %a, %a); %ld failures\n",
         checked, worst, worst_what, worst_at, worst_atan, worst_atan_y,
         worst_atan_x, failures);
  return failures == 0 ? 0 : 1;
}
