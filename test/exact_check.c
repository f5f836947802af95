/*
** test/exact_check.c: obb_two_product and obb_diff_of_products
** (src/core/obb_exact.c, which the core uses instead of libm's fma)
** against the CPU's fused multiply-add. `make check-exact` builds this
** file alone with the instruction enabled (-mfma on x86-64; aarch64 always
** has it), the core's objects without it, and runs it.
**
** obb_two_product(a, b, &e) must give e = fma(a, b, -fl(a*b)), bit for
** bit, for every pair of doubles (NaN's payloads aside: a NaN must answer
** a NaN). Independently of both, the exact error a*b - p is computed in a
** 113-bit float (GCC and clang's __float128 on x86, long double on
** aarch64), where it is always exact: it tells the pairs whose error is a
** double (there the answer must be that error) from those whose is not
** (products below 2^-969, where it is rounded, as fma rounds it: e must
** still be fma's). The pairs:
**   - special values and their neighbours, all pairs: zeros, the smallest
**     subnormal, DBL_MIN, 1, the near range's edges (2^+-480), 2^+-600,
**     DBL_MAX, infinities, NaN;
**   - random bit patterns (every exponent, subnormals, infinities, NaNs);
**   - random significands with the product's exponent spread evenly from
**     below the subnormals (2^-1100) to beyond overflow (2^1030), so
**     that deep underflow, the subnormal products and the products next
**     to DBL_MAX are as frequent as ordinary ones;
**   - short significands (1 to 27 bits), whose products are often exact
**     (error 0) or exactly half-way;
**   - factors with products right at DBL_MIN and at DBL_MAX.
** obb_diff_of_products(a, b, c, d) must give Kahan's a*b - c*d as computed
** with the instruction, fl(fma(a, b, -w) + fma(-c, d, w)) with w = c*d,
** bit for bit (zeros' signs included) on: unit vectors' components (what
** the core gives it: cross products of box axes), nearly parallel pairs
** of them (angles from 2^-1 down to 2^-1070, where the products
** underflow), and random factors with |a*b| and |c*d| between 2^-969 and
** 2^1000 (its stated range); beyond that range (products down to the
** subnormals and beyond) the differences are counted and printed, and
** must stay within 1 ulp of the reference's answer.
**
** It prints the counts and fails (exit status 1) on any mismatch the
** above does not allow.
**
**   exact_check [random cases per kind, default 4000000]
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obb_exact.h"

#if defined(__SIZEOF_FLOAT128__) && (defined(__x86_64__) || defined(__i386__))
__extension__ typedef __float128 wide;
#define HAVE_WIDE 1
#elif LDBL_MANT_DIG >= 113
typedef long double wide;
#define HAVE_WIDE 1
#else
#define HAVE_WIDE 0
#endif

#if !defined(__FMA__) && !defined(__aarch64__)
#error "build exact_check.c with the fused multiply-add enabled (-mfma)"
#endif

static double hw_fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}

static long failures = 0;

static int same(double x, double y) {
  if (x != x) return y != y;
  return memcmp(&x, &y, sizeof x) == 0;
}

/* ---- random numbers (splitmix64: small, and the same on every host) ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd64(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rnd_unit(void) { return (double)(rnd64() >> 11) * 0x1p-53; }

static long rnd_int(long lo, long hi) {
  return lo + (long)(rnd64() % (uint64_t)(hi - lo + 1));
}

static double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* A random double with `bits` significant bits (1 to 53) in [1, 2), times
** 2^e (exact, or rounded where 2^e * m falls among the subnormals), with a
** random sign. */
static double rnd_scaled(int bits, int e) {
  uint64_t m = rnd64() >> (64 - 52);
  double x;
  m &= ~((UINT64_C(1) << (53 - bits)) - 1) & ((UINT64_C(1) << 52) - 1);
  x = from_bits((UINT64_C(1023) << 52) | m);
  x = ldexp(x, e);
  return rnd64() & 1 ? -x : x;
}

/* ---- obb_two_product ------------------------------------------------------ */

static long tp_cases = 0, tp_same = 0, tp_repr = 0, tp_unrepr = 0, tp_nonfinite = 0;

static void check_product(double a, double b) {
  double e, p = obb_two_product(a, b, &e), want = hw_fma(a, b, -p);
  tp_cases++;
  if (!same(p, a * b)) {
    if (failures < 20)
      fprintf(stderr, "exact_check: two_product(%a, %a) = %a, not fl(a*b) %a\n",
              a, b, p, a * b);
    failures++;
  }
  if (!same(e, want)) {
    if (failures < 20)
      fprintf(stderr, "exact_check: two_product(%a, %a): error %a, fma %a\n",
              a, b, e, want);
    failures++;
  } else if (same(p, a * b)) {
    tp_same++;
  }
  if (p - p != 0.0) {
    tp_nonfinite++;
    return;
  }
#if HAVE_WIDE
  {
    wide exact = (wide)a * (wide)b - (wide)p;
    double r = (double)exact;
    if (!same(r, want)) {
      if (failures < 20)
        fprintf(stderr, "exact_check: fma(%a, %a, %a) = %a, but the error "
                "rounds to %a\n", a, b, -p, want, r);
      failures++;
    }
    if ((wide)r == exact) {
      tp_repr++;
    } else {
      tp_unrepr++;
      if (fabs(p) > 0x1p-969) {
        if (failures < 20)
          fprintf(stderr, "exact_check: a*b - p not a double for %a * %a\n",
                  a, b);
        failures++;
      }
    }
  }
#endif
}

static void product_specials(void) {
  static const double base[] = {
    0.0, 4.9406564584124654e-324, 0x1p-1060, 0x1p-1022, 0x1p-969, 0x1p-600,
    0x1p-480, 1e-300, 1.0 / 3, 1.0, 1.5, 0x1p+27, 0x1p+480, 0x1p+600,
    1e300, 0x1p+1000, DBL_MAX
  };
  double v[4 * 7 * sizeof base / sizeof base[0] + 4];
  size_t n = 0, i, j;
  for (i = 0; i < sizeof base / sizeof base[0]; i++) {
    double x = base[i];
    int k;
    for (k = 0; k < 3 && x > 0; k++) x = nextafter(x, 0.0);
    for (k = 0; k < 7 && x < HUGE_VAL; k++, x = nextafter(x, HUGE_VAL)) {
      v[n++] = x;
      v[n++] = -x;
    }
  }
  v[n++] = HUGE_VAL;
  v[n++] = -HUGE_VAL;
  v[n++] = nan("");
  v[n++] = -nan("");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) check_product(v[i], v[j]);
}

static void product_random(long count) {
  long i;
  /* every bit pattern */
  /* (each random number drawn in its own statement: the order in which a
  ** call's arguments are evaluated is unspecified, and the cases must be
  ** the same whatever the compiler) */
  for (i = 0; i < count; i++) {
    double a = from_bits(rnd64());
    check_product(a, from_bits(rnd64()));
  }
  /* the product's exponent spread evenly over the whole range */
  for (i = 0; i < count; i++) {
    int e = (int)rnd_int(-1100, 1030);
    int ea = (int)rnd_int(e - 1023 > -1074 ? e - 1023 : -1074,
                          e + 1074 < 1023 ? e + 1074 : 1023);
    double a = rnd_scaled(53, ea);
    check_product(a, rnd_scaled(53, e - ea));
  }
  /* short significands: exact products, halfway cases */
  for (i = 0; i < count; i++) {
    int e = (int)rnd_int(-1100, 1030);
    int ea = (int)rnd_int(e - 1023 > -1074 ? e - 1023 : -1074,
                          e + 1074 < 1023 ? e + 1074 : 1023);
    double a = rnd_scaled((int)rnd_int(1, 27), ea);
    check_product(a, rnd_scaled((int)rnd_int(1, 53), e - ea));
  }
  /* products at DBL_MIN and at DBL_MAX: b = target / a, nudged */
  for (i = 0; i < count; i++) {
    double a = rnd_scaled(53, (int)rnd_int(-60, 60));
    double t = i & 1 ? DBL_MAX : DBL_MIN;
    double b = t / a;
    int k = (int)rnd_int(-3, 3);
    for (; k > 0; k--) b = nextafter(b, HUGE_VAL);
    for (; k < 0; k++) b = nextafter(b, -HUGE_VAL);
    check_product(a, b);
    check_product(ldexp(a, 400), ldexp(b, -400));
  }
}

/* ---- obb_diff_of_products ------------------------------------------------- */

static double hw_kahan(double a, double b, double c, double d) {
  double w = c * d;
  return hw_fma(a, b, -w) + hw_fma(-c, d, w);
}

struct dop_kind {
  const char *name;
  int strict; /* 1: must match; 0: may be 1 ulp away */
  long cases, differ;
};

static struct dop_kind k_unit = {"unit vectors' cross products", 1, 0, 0};
static struct dop_kind k_parallel = {"nearly parallel unit vectors", 1, 0, 0};
static struct dop_kind k_range = {"factors, |a*b| in [2^-969, 2^1000], |c*d| below", 1, 0, 0};
static struct dop_kind k_tiny = {"unit vectors with tiny components", 0, 0, 0};
static struct dop_kind k_beyond = {"factors, |a*b| below 2^-969", 0, 0, 0};
static struct dop_kind k_special = {"special values (inf, NaN, zeros)", 1, 0, 0};

static void check_dop(struct dop_kind *k, double a, double b, double c, double d) {
  double got = obb_diff_of_products(a, b, c, d), want = hw_kahan(a, b, c, d);
  k->cases++;
  if (same(got, want)) return;
  k->differ++;
  if (k->strict || !(fabs(got - want) < 0x1p-968)) {
    if (failures < 20)
      fprintf(stderr, "exact_check: diff_of_products(%a, %a, %a, %a) = %a, "
              "with fma %a (%s)\n", a, b, c, d, got, want, k->name);
    failures++;
  }
}

static void cross_check(struct dop_kind *k, const double u[3], const double v[3]) {
  check_dop(k, u[1], v[2], u[2], v[1]);
  check_dop(k, u[2], v[0], u[0], v[2]);
  check_dop(k, u[0], v[1], u[1], v[0]);
}

static void rnd_direction(double u[3]) {
  double len;
  do {
    u[0] = 2 * rnd_unit() - 1;
    u[1] = 2 * rnd_unit() - 1;
    u[2] = 2 * rnd_unit() - 1;
    len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  } while (!(len > 0.1 && len <= 1.0));
  u[0] /= len; u[1] /= len; u[2] /= len;
}

/* As obb_normalize3 does it (src/core/obb_math.h). */
static void obb_normalize_for_check(double v[3]) {
  double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2]))), x, y, z, len;
  x = v[0] / m; y = v[1] / m; z = v[2] / m;
  len = sqrt(x * x + y * y + z * z);
  v[0] = x / len; v[1] = y / len; v[2] = z / len;
}

/* Four factors of `bits` bits, times 2^e0 .. 2^e3. */
static void rnd_four(double f[4], int bits, int e0, int e1, int e2, int e3) {
  f[0] = rnd_scaled(bits, e0);
  f[1] = rnd_scaled(bits, e1);
  f[2] = rnd_scaled(bits, e2);
  f[3] = rnd_scaled(bits, e3);
}

static void dop_random(long count) {
  double f[4];
  long i;
  for (i = 0; i < count; i++) {
    double u[3], v[3];
    rnd_direction(u);
    rnd_direction(v);
    cross_check(&k_unit, u, v);
  }
  for (i = 0; i < count; i++) {
    /* v: u turned by about 2^-s, or one of u's components nudged */
    double u[3], v[3], w[3], len;
    int s = (int)rnd_int(1, 1070), j;
    rnd_direction(u);
    if (i % 4 == 0) {
      /* an axis-aligned box against one turned by 2^-s */
      u[0] = 1; u[1] = 0; u[2] = 0;
      v[0] = 1; v[1] = rnd_scaled(53, -s); v[2] = i % 8 ? 0 : rnd_scaled(53, -s);
    } else {
      rnd_direction(w);
      for (j = 0; j < 3; j++) v[j] = u[j] + ldexp(w[j], -s);
    }
    len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (j = 0; j < 3; j++) v[j] /= len;
    if (i & 1) cross_check(&k_parallel, u, v);
    else cross_check(&k_parallel, v, u);
  }
  for (i = 0; i < count; i++) {
    /* axes within 2^-s of a coordinate axis in two directions, s up to
    ** 1074: their products fall below 2^-969 */
    double u[3], v[3];
    int j;
    for (j = 0; j < 3; j++) {
      u[j] = rnd_scaled(53, -(int)rnd_int(0, 1074));
      v[j] = rnd_scaled(53, -(int)rnd_int(0, 1074));
    }
    u[i % 3] = v[(i / 3) % 3] = 1.0;
    obb_normalize_for_check(u);
    obb_normalize_for_check(v);
    cross_check(&k_tiny, u, v);
  }
  for (i = 0; i < count; i++) {
    int e1 = (int)rnd_int(-968, 999), e2 = (int)rnd_int(-1100, 999);
    int ea = (int)rnd_int(e1 - 1022 > -1074 ? e1 - 1022 : -1074,
                          e1 + 1074 < 1023 ? e1 + 1074 : 1023);
    int ec = (int)rnd_int(e2 - 1022 > -1074 ? e2 - 1022 : -1074,
                          e2 + 1074 < 1023 ? e2 + 1074 : 1023);
    int bits = i % 3 ? 53 : (int)rnd_int(1, 27);
    if (i % 2) e2 = e1 + (int)rnd_int(-2, 2); /* nearly cancelling */
    if (e2 > 999) e2 = e1;
    rnd_four(f, bits, ea, e1 - ea, ec, e2 - ec);
    check_dop(&k_range, f[0], f[1], f[2], f[3]);
  }
  for (i = 0; i < count; i++) {
    /* |a*b| below the range, |c*d| anywhere below 2^1000 */
    int e1 = (int)rnd_int(-1100, -970);
    int e2 = i % 4 == 3 ? (int)rnd_int(-1100, 999) : (int)rnd_int(-1100, -900);
    int ea = (int)rnd_int(e1 - 1022 > -1074 ? e1 - 1022 : -1074, 0);
    int ec = (int)rnd_int(e2 - 1022 > -1074 ? e2 - 1022 : -1074,
                          e2 + 1074 < 1023 ? e2 + 1074 : 1023);
    int bits = i % 3 ? 53 : (int)rnd_int(1, 27);
    if (i % 2) e2 = e1 + (int)rnd_int(-2, 2);
    rnd_four(f, bits, ea, e1 - ea, ec, e2 - ec);
    check_dop(&k_beyond, f[0], f[1], f[2], f[3]);
  }
}

static void dop_specials(void) {
  static const double v[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0x1p-600, 0x1p+600,
                             DBL_MAX, HUGE_VAL, -HUGE_VAL, 0.0 /* NaN */};
  double w[sizeof v / sizeof v[0]];
  size_t n = sizeof v / sizeof v[0], i, j, k, l;
  memcpy(w, v, sizeof v);
  w[n - 1] = nan("");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        for (l = 0; l < n; l++) {
          /* only where the inputs stay in the stated range, or are not
          ** finite: huge finite products are beyond it */
          double ab = w[i] * w[j], cd = w[k] * w[l];
          int finite_in = w[i] - w[i] == 0 && w[j] - w[j] == 0 &&
                          w[k] - w[k] == 0 && w[l] - w[l] == 0;
          if (finite_in && !(fabs(ab) < 0x1p1000 && fabs(cd) < 0x1p1000))
            continue;
          check_dop(&k_special, w[i], w[j], w[k], w[l]);
        }
}

static void report_dop(const struct dop_kind *k) {
  printf("exact_check: diff_of_products, %s: %ld cases, %ld identical",
         k->name, k->cases, k->cases - k->differ);
  if (k->differ > 0) printf(" (the others less than 2^-968 away)");
  printf("\n");
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 4000000;
  if (n < 0) {
    fprintf(stderr, "usage: exact_check [random cases per kind]\n");
    return 2;
  }
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("fma")) {
    fprintf(stderr, "exact_check: this CPU has no fused multiply-add, the "
            "reference\n");
    return 2;
  }
#endif
  /* the reference itself: (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104 */
  if (hw_fma(1 + 0x1p-52, 1 + 0x1p-52, -(1 + 0x1p-51)) != 0x1p-104) {
    fprintf(stderr, "exact_check: the reference fma is not fused\n");
    return 2;
  }
  product_specials();
  product_random(n);
  printf("exact_check: two_product: %ld pairs, %ld identical to fma "
         "(%ld with a non-finite product)\n",
         tp_cases, tp_same, tp_nonfinite);
#if HAVE_WIDE
  printf("exact_check: two_product: of the finite ones, %ld with an error "
         "that is a double (all exact), %ld without (fma's rounding of it)\n",
         tp_repr, tp_unrepr);
#else
  printf("exact_check: no 113-bit float here: errors not classified\n");
#endif
  dop_specials();
  dop_random(n);
  report_dop(&k_unit);
  report_dop(&k_parallel);
  report_dop(&k_range);
  report_dop(&k_special);
  report_dop(&k_tiny);
  report_dop(&k_beyond);
  printf("exact_check: %ld failures\n", failures);
  return failures == 0 ? 0 : 1;
}
