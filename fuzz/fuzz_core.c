/*
** fuzz_core.c: libFuzzer harness for the geometry core (no Lua).
**
** The input is read as a stream of numbers: each starts with a tag byte
** that picks a hostile special value (NaN, infinities, subnormals, 1e300,
** zero, ...), a small exact value (multiples of 1/4, so touching boxes are
** common), or eight raw bytes. Boxes, points and matrices are built from
** them and every answer is checked against the documented contract, not
** only for crashes:
**   - a constructor either fails (leaving its output untouched) or gives a
**     valid box with finite numbers; a box built from an angle has the
**     axis (cos, sin) of it, each within 1 ulp of long double cosl, sinl;
**   - intersects is symmetric, a box intersects and contains itself,
**     contains(box) implies intersects, a box contains its center and its
**     corners, and its aabb holds its corners;
**   - intersects and contains follow the touching rule (obb.h, README
**     "Precision") against a reference computed in long double: apart by
**     more than the band B = OBB_TOUCH_REL * S + OBB_TOUCH_COORD * M +
**     OBB_TOUCH_FLOOR is apart, by less is touching; only within SLACK of
**     the band's edge, the rounding of the double tests, may either answer
**     come;
**   - a fitted box contains every point exactly;
**   - transform either fails leaving the box unchanged or encloses the
**     image of every corner;
**   - no NaN or infinity comes out for inputs of moderate size;
**   - every output of every core function (obb.h, obb_world.h) is written
**     on every call, for every finite input up to DBL_MAX: outputs are
**     filled with a sentinel (a NaN whose bits no arithmetic makes) before
**     each call and none may remain; pointers the function must leave
**     alone (a failed constructor, transform, merge) are compared whole.
**     Built with MemorySanitizer (`make fuzz-core-msan`), every output is
**     also read in a branch here, so one computed from uninitialised
**     memory inside the core (which a sentinel cannot see) is reported;
**   - the movement math (obb_clip, obb_clip_goal, obb_clip_planes) keeps
**     what it leaves alone bit for bit and stops exactly at the start;
**   - the movers on the shapes that broke them (round five): a box moved
**     toward any finite goal between two walls, touching, sliding or
**     bouncing, turning or not, ends between them; a crate turning about
**     the vertical, or a point, slides over the seam of flush tiles (thick
**     or segments) to its goal;
**   - a move that stops to ask its filter (obb_world_move_start, resumed
**     one answer at a time) ends exactly as the same move answered in C:
**     the same end, count and records, bit for bit; and so does the move
**     of obb_world_move_with given the answers as a response set by
**     class, whose commit gives the item that end;
**   - the queries keep their documented promises (a point that contains
**     accepts is its own closest point, signed distance <= 0 exactly
**     inside, penetration, contacts and a still sweep exactly when
**     intersects, a merge contains both boxes, ...).
** A broken rule calls abort(), which libFuzzer reports as a crash.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obb.h"
#include "obb_world.h"

/* The rounding of the tests themselves, relative to the configuration's
** size (center distance plus all half extents): within this of the band's
** edge either answer is right. 2^-44 is 256 ulps, a sixteenth of the band.
** In absolute terms, for subnormal sizes, 2^-1068: a quarter of its floor. */
#define SLACK 0x1p-44
#define SLACK_FLOOR 0x1p-1068

/* Inputs at most this large cannot overflow a sum of a few of them. */
#define MODERATE 1e300

/* An absolute floor under every tolerance: subnormal numbers round by a
** fixed 5e-324, which no relative tolerance covers. */
#define TINY 1e-300

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static const double specials[] = {
  0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 1e-3, 1e-6, 1e-12, 1e6, 1e7,
  1e-300, -1e-300, 4.9406564584124654e-324, 2.2250738585072014e-308,
  1e300, -1e300, DBL_MAX, -DBL_MAX, DBL_EPSILON, 1.0 + DBL_EPSILON,
  1.0 - DBL_EPSILON / 2, 0.70710678118654752, 3.14159265358979324,
  1.57079632679489662, HUGE_VAL, -HUGE_VAL
};
#define NSPECIALS (sizeof specials / sizeof specials[0])

static int byte(reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static double number(reader *r) {
  int tag = byte(r);
  if (tag < 64) return specials[tag % NSPECIALS];
  if (tag == 64) return nan("");
  if (tag < 192) return (tag - 128) / 4.0; /* -15.75 .. 15.75 exactly */
  {
    double x = 0.0;
    uint8_t raw[8] = {0};
    size_t k = r->n < 8 ? r->n : 8;
    memcpy(raw, r->p, k);
    r->p += k; r->n -= k;
    memcpy(&x, raw, sizeof x);
    return x;
  }
}

#define FAIL(what) fail(what, __LINE__)
static void fail(const char *what, int line) {
  fprintf(stderr, "fuzz_core: broken rule at line %d: %s\n", line, what);
  abort();
}

/* ---- every output written -------------------------------------------- */

/* A signalling NaN with a payload no arithmetic produces (operations on
** finite numbers give the default quiet NaN at most). */
#define SENTINEL_BITS 0x7FF4B0B0DEADBEEFULL

static void fill(double *v, int n) {
  uint64_t bits = SENTINEL_BITS;
  int i;
  for (i = 0; i < n; i++) memcpy(v + i, &bits, sizeof bits);
}

/* Fails when an output still holds the sentinel. Every value is compared
** in a branch, so that MemorySanitizer reports an output computed from
** uninitialised memory. */
#define WRITTEN(v, n, what) written(v, n, what, __LINE__)
static void written(const double *v, int n, const char *what, int line) {
  int i;
  for (i = 0; i < n; i++) {
    uint64_t bits;
    memcpy(&bits, v + i, sizeof bits);
    if (bits == SENTINEL_BITS) {
      fprintf(stderr, "fuzz_core: output %d of %s not written\n", i, what);
      fail("every output is written", line);
    }
  }
}

static int finite_all(const double *v, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

static int moderate_all(const double *v, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(v[i]) <= MODERATE)) return 0;
  return 1;
}

/* ---- long double references ---------------------------------------- */

/* Largest signed gap over the separating axes (positive: apart by that
** much; negative: overlapping on every axis). Cross products use Kahan's
** a*b - c*d, accurate relative to their own size, so nearly parallel edges
** still give a well-directed axis. */
static double dop(double a, double b, double c, double d) {
  double w = c * d;
  return fma(a, b, -w) + fma(-c, d, w);
}

static long double gap_on(const long double d[3], const long double l[3],
                          const obb3 *a, const obb3 *b) {
  long double ra = 0, rb = 0, t = d[0] * l[0] + d[1] * l[1] + d[2] * l[2];
  int k;
  for (k = 0; k < 3; k++) {
    ra += a->e[k] * fabsl(a->u[k][0] * l[0] + a->u[k][1] * l[1] +
                          a->u[k][2] * l[2]);
    rb += b->e[k] * fabsl(b->u[k][0] * l[0] + b->u[k][1] * l[1] +
                          b->u[k][2] * l[2]);
  }
  return fabsl(t) - ra - rb;
}

static long double ref_gap3(const obb3 *a, const obb3 *b) {
  long double d[3], best = -HUGE_VALL;
  int i, k;
  for (k = 0; k < 3; k++) d[k] = (long double)b->c[k] - a->c[k];
  for (i = 0; i < 15; i++) {
    long double l[3], g, len;
    if (i < 6) {
      const double *u = i < 3 ? a->u[i] : b->u[i - 3];
      l[0] = u[0]; l[1] = u[1]; l[2] = u[2];
    } else {
      const double *p = a->u[(i - 6) / 3], *q = b->u[(i - 6) % 3];
      l[0] = dop(p[1], q[2], p[2], q[1]);
      l[1] = dop(p[2], q[0], p[0], q[2]);
      l[2] = dop(p[0], q[1], p[1], q[0]);
    }
    len = sqrtl(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (!(len > 0)) continue;
    for (k = 0; k < 3; k++) l[k] /= len;
    g = gap_on(d, l, a, b);
    if (g > best) best = g;
  }
  return best;
}

static obb3 lift2(const obb2 *b) {
  obb3 r;
  r.c[0] = b->c[0]; r.c[1] = b->c[1]; r.c[2] = 0;
  r.e[0] = b->e[0]; r.e[1] = b->e[1]; r.e[2] = 0;
  r.u[0][0] = b->u[0]; r.u[0][1] = b->u[1]; r.u[0][2] = 0;
  r.u[1][0] = -b->u[1]; r.u[1][1] = b->u[0]; r.u[1][2] = 0;
  r.u[2][0] = 0; r.u[2][1] = 0; r.u[2][2] = 1;
  return r;
}

/* How much inner sticks out of outer (<= 0: inside). */
static long double ref_excess3(const obb3 *outer, const obb3 *inner) {
  long double worst = -HUGE_VALL;
  int i, j;
  for (i = 0; i < 3; i++) {
    long double l = 0, r;
    for (j = 0; j < 3; j++)
      l += ((long double)inner->c[j] - outer->c[j]) * outer->u[i][j];
    r = fabsl(l);
    for (j = 0; j < 3; j++)
      r += inner->e[j] * fabsl((long double)outer->u[i][0] * inner->u[j][0] +
                               (long double)outer->u[i][1] * inner->u[j][1] +
                               (long double)outer->u[i][2] * inner->u[j][2]);
    r -= outer->e[i];
    if (r > worst) worst = r;
  }
  return worst;
}

static long double size3(const obb3 *a, const obb3 *b) {
  long double s = 0;
  int k;
  for (k = 0; k < 3; k++)
    s += fabsl((long double)b->c[k] - a->c[k]) + a->e[k] + b->e[k];
  return s;
}

/* The touching band of the pair (obb.h), in long double. */
static long double band3(const obb3 *a, const obb3 *b) {
  long double m = 0;
  int k;
  for (k = 0; k < 3; k++) {
    if (fabsl((long double)a->c[k]) > m) m = fabsl((long double)a->c[k]);
    if (fabsl((long double)b->c[k]) > m) m = fabsl((long double)b->c[k]);
  }
  return OBB_TOUCH_REL * size3(a, b) + OBB_TOUCH_COORD * m + OBB_TOUCH_FLOOR;
}

/* Whether the answer follows the touching rule: got (touching or
** contained) must be false when the reference gap (or excess) exceeds the
** band by more than the slack, true when it is below the band by more. */
static int rule_ok(int got, long double gap, const obb3 *a, const obb3 *b) {
  long double size = size3(a, b), band = band3(a, b), slack;
  if (!(size <= MODERATE)) return 1; /* sums may overflow: no promise */
  slack = SLACK * size + SLACK_FLOOR;
  return !(gap > band + slack && got) && !(gap < band - slack && !got);
}

static long double maxl(long double x, long double y) { return x > y ? x : y; }

/* Prints a box to stderr before a broken rule, so a finding can be turned
** into a spec without a debugger. */
static void dump3(const char *name, const obb3 *b) {
  fprintf(stderr,
          "%s: c = %.17g %.17g %.17g, e = %.17g %.17g %.17g\n"
          "  u0 = %.17g %.17g %.17g\n  u1 = %.17g %.17g %.17g\n"
          "  u2 = %.17g %.17g %.17g\n",
          name, b->c[0], b->c[1], b->c[2], b->e[0], b->e[1], b->e[2],
          b->u[0][0], b->u[0][1], b->u[0][2], b->u[1][0], b->u[1][1],
          b->u[1][2], b->u[2][0], b->u[2][1], b->u[2][2]);
}

static void dump2(const char *name, const obb2 *b) {
  fprintf(stderr, "%s: c = %.17g %.17g, e = %.17g %.17g, u = %.17g %.17g\n",
          name, b->c[0], b->c[1], b->e[0], b->e[1], b->u[0], b->u[1]);
}

static void queries2(reader *r, const obb2 *a, const obb2 *b,
                     const double p[2]);
static void queries3(reader *r, const obb3 *a, const obb3 *b,
                     const double p[3]);

/* ---- 2D ------------------------------------------------------------- */

/* Whether got is within 1 ulp of the true value ref (faithfully rounded):
** the spacing of doubles at ref is the unit (the subnormal one below
** DBL_MIN). long double has 11 bits more than double on x86-64, so sinl
** and cosl are references far finer than an ulp. */
static int within_ulp(double got, long double ref) {
  long double m = fabsl(ref);
  int e;
  if (m == 0) return got == 0;
  (void)frexpl(m, &e);
  return fabsl((long double)got - ref) <
         ldexpl(1.0L, e - 1 < DBL_MIN_EXP - 1 ? DBL_MIN_EXP - DBL_MANT_DIG
                                              : e - DBL_MANT_DIG);
}

static int build2(reader *r, obb2 *b) {
  obb2 before;
  obb_status s;
  double v[6];
  int i, kind = byte(r) % 3;
  for (i = 0; i < 6; i++) v[i] = number(r);
  memset(b, 0xAB, sizeof *b);
  before = *b;
  if (kind == 0) s = obb2_init(b, v, v + 2, v[4]);
  else if (kind == 1) s = obb2_from_aabb(b, v, v + 2);
  else s = obb2_from_axis(b, v, v + 2, v + 4);
  if (s != OBB_OK) {
    if (memcmp(b, &before, sizeof *b) != 0) FAIL("failed 2D constructor wrote");
    return 0;
  }
  if (!obb2_is_valid(b)) FAIL("2D constructor made an invalid box");
  /* an angle's axis is (cos, sin) of it to within an ulp (obb_sincos) */
  if (kind == 0 && (!within_ulp(b->u[0], cosl(v[4])) ||
                    !within_ulp(b->u[1], sinl(v[4])))) {
    fprintf(stderr, "angle %a\n", v[4]);
    dump2("b", b);
    FAIL("2D axis is not (cos, sin) of the angle within 1 ulp");
  }
  return 1;
}

static void check_box2(const obb2 *b) {
  double corners[8], box[4], a = obb2_angle(b);
  double m = fabs(b->c[0]) + fabs(b->c[1]) + b->e[0] + b->e[1];
  double tol = 8 * DBL_EPSILON * m + TINY;
  int k;
  if (!obb2_intersects(b, b)) FAIL("2D box does not intersect itself");
  if (!obb2_contains_box(b, b)) FAIL("2D box does not contain itself");
  if (!obb2_contains_point(b, b->c)) FAIL("2D center not inside");
  if (!(a > -3.14159265358979324 && a <= 3.14159265358979324))
    FAIL("2D angle out of (-pi, pi]");
  fill(corners, 8);
  fill(box, 4);
  obb2_corners(b, corners);
  obb2_aabb(b, box);
  WRITTEN(corners, 8, "obb2_corners");
  WRITTEN(box, 4, "obb2_aabb");
  if (!moderate_all(b->c, 2) || !moderate_all(b->e, 2)) return;
  if (!finite_all(corners, 8) || !finite_all(box, 4))
    FAIL("2D corners or aabb not finite");
  for (k = 0; k < 4; k++) {
    double x = corners[2 * k], y = corners[2 * k + 1];
    if (!obb2_contains_point(b, corners + 2 * k))
      FAIL("2D corner outside its box"); /* the touching rule: exactly */
    if (x < box[0] - tol || x > box[2] + tol || y < box[1] - tol ||
        y > box[3] + tol)
      FAIL("2D corner outside its aabb");
  }
}

static void pair2(reader *r) {
  obb2 a, b;
  obb3 a3, b3;
  double p[2];
  int ab, ba, cab;
  const char *broken = NULL;
  if (!build2(r, &a) || !build2(r, &b)) return;
  check_box2(&a);
  check_box2(&b);
  ab = obb2_intersects(&a, &b);
  ba = obb2_intersects(&b, &a);
  cab = obb2_contains_box(&a, &b);
  a3 = lift2(&a); b3 = lift2(&b);
  if (ab != ba) broken = "2D intersects not symmetric";
  else if (cab && !ab) broken = "2D contains(box) without intersects";
  else if (!rule_ok(ab, ref_gap3(&a3, &b3), &a3, &b3))
    broken = "2D intersects breaks the touching rule";
  else if (!rule_ok(cab, maxl(ref_excess3(&a3, &b3), ref_gap3(&a3, &b3)),
                    &a3, &b3))
    broken = "2D contains(box) breaks the touching rule";
  p[0] = number(r); p[1] = number(r);
  if (broken == NULL && isfinite(p[0]) && isfinite(p[1])) {
    obb3 pt;
    memset(&pt, 0, sizeof pt);
    pt.c[0] = p[0]; pt.c[1] = p[1];
    pt.u[0][0] = pt.u[1][1] = pt.u[2][2] = 1;
    if (!rule_ok(obb2_contains_point(&a, p), ref_excess3(&a3, &pt), &a3,
                 &pt)) {
      fprintf(stderr, "point %.17g %.17g\n", p[0], p[1]);
      broken = "2D contains(point) wrong";
    }
  }
  if (broken != NULL) {
    dump2("a", &a);
    dump2("b", &b);
    FAIL(broken);
  }
  if (!isfinite(p[0]) || !isfinite(p[1])) { p[0] = b.c[0]; p[1] = b.c[1]; }
  queries2(r, &a, &b, p);
}

static void transform2(reader *r) {
  obb2 b, before;
  double m[6], corners[8];
  int i;
  if (!build2(r, &b)) return;
  for (i = 0; i < 6; i++) m[i] = number(r);
  before = b;
  obb2_corners(&b, corners);
  if (obb2_transform(&b, m) != OBB_OK) {
    if (memcmp(&b, &before, sizeof b) != 0) FAIL("failed 2D transform wrote");
    return;
  }
  if (!obb2_is_valid(&b)) FAIL("2D transform made an invalid box");
  if (!moderate_all(m, 6) || !moderate_all(before.c, 2) ||
      !moderate_all(before.e, 2) || !finite_all(corners, 8))
    return;
  {
    /* Every image corner within the result, up to rounding relative to
    ** the numbers involved. */
    double s = fabs(b.c[0]) + fabs(b.c[1]) + b.e[0] + b.e[1], tol;
    obb2 big = b;
    for (i = 0; i < 6; i++) s += fabs(m[i]) * (1 + fabs(before.c[0]) +
                                               fabs(before.c[1]) +
                                               before.e[0] + before.e[1]);
    tol = 1e-12 * s + TINY;
    if (!isfinite(tol)) return;
    big.e[0] += tol; big.e[1] += tol;
    for (i = 0; i < 4; i++) {
      double x = corners[2 * i], y = corners[2 * i + 1];
      double t[2];
      t[0] = m[0] * x + m[2] * y + m[4];
      t[1] = m[1] * x + m[3] * y + m[5];
      if (isfinite(t[0]) && isfinite(t[1]) && !obb2_contains_point(&big, t))
        FAIL("2D transform does not enclose the image");
    }
  }
}

static void fit2(reader *r) {
  double pts[2 * 16];
  obb2 b;
  size_t n = (size_t)(byte(r) % 16) + 1, i;
  for (i = 0; i < 2 * n; i++) pts[i] = number(r);
  memset(&b, 0xAB, sizeof b);
  if (obb2_fit_points(&b, pts, n) != OBB_OK) return;
  if (!obb2_is_valid(&b)) FAIL("2D fit made an invalid box");
  for (i = 0; i < n; i++)
    if (!obb2_contains_point(&b, pts + 2 * i))
      FAIL("2D fitted box misses a point");
}

/* ---- 3D ------------------------------------------------------------- */

static int build3(reader *r, obb3 *b) {
  obb3 before, q;
  obb_status s;
  double c[3], e[3], v[4], axes[3][3];
  int i, j, kind = byte(r) % 3;
  for (i = 0; i < 3; i++) c[i] = number(r);
  for (i = 0; i < 3; i++) e[i] = number(r);
  for (i = 0; i < 4; i++) v[i] = number(r);
  memset(b, 0xAB, sizeof *b);
  before = *b;
  if (kind == 0) {
    s = obb3_init(b, c, e, v);
  } else if (kind == 1) {
    s = obb3_from_aabb(b, c, e);
  } else {
    /* axes of a quaternion, nudged by a small amount, maybe reflected */
    double eps = number(r) * 1e-7;
    if (obb3_init(&q, c, e, v) != OBB_OK) return 0;
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) axes[i][j] = q.u[i][j] + (i == j ? eps : 0);
    if (byte(r) & 1)
      for (j = 0; j < 3; j++) axes[2][j] = -axes[2][j];
    s = obb3_from_axes(b, c, e, (const double(*)[3])axes);
  }
  if (s != OBB_OK) {
    if (memcmp(b, &before, sizeof *b) != 0) FAIL("failed 3D constructor wrote");
    return 0;
  }
  if (!obb3_is_valid(b)) FAIL("3D constructor made an invalid box");
  return 1;
}

static void check_box3(const obb3 *b) {
  double corners[24], box[6], q[4], m = 0, tol;
  obb3 again;
  int k;
  if (!obb3_intersects(b, b)) FAIL("3D box does not intersect itself");
  if (!obb3_contains_box(b, b)) FAIL("3D box does not contain itself");
  if (!obb3_contains_point(b, b->c)) FAIL("3D center not inside");
  fill(q, 4);
  obb3_rotation(b, q);
  WRITTEN(q, 4, "obb3_rotation");
  if (!finite_all(q, 4) || q[3] < 0 ||
      fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) > 1e-15)
    FAIL("3D rotation not a unit quaternion with w >= 0");
  if (obb3_init(&again, b->c, b->e, q) != OBB_OK) FAIL("3D rotation rejected");
  for (k = 0; k < 9; k++)
    if (fabs(again.u[k / 3][k % 3] - b->u[k / 3][k % 3]) > 1e-14)
      FAIL("3D rotation does not give back the axes");
  fill(corners, 24);
  fill(box, 6);
  obb3_corners(b, corners);
  obb3_aabb(b, box);
  WRITTEN(corners, 24, "obb3_corners");
  WRITTEN(box, 6, "obb3_aabb");
  if (!moderate_all(b->c, 3) || !moderate_all(b->e, 3)) return;
  for (k = 0; k < 3; k++) m += fabs(b->c[k]) + b->e[k];
  tol = 16 * DBL_EPSILON * m + TINY;
  if (!finite_all(corners, 24) || !finite_all(box, 6))
    FAIL("3D corners or aabb not finite");
  for (k = 0; k < 8; k++) {
    const double *p = corners + 3 * k;
    int i;
    if (!obb3_contains_point(b, p)) FAIL("3D corner outside its box");
    for (i = 0; i < 3; i++)
      if (p[i] < box[i] - tol || p[i] > box[i + 3] + tol)
        FAIL("3D corner outside its aabb");
  }
}

static void pair3(reader *r) {
  obb3 a, b, pt;
  int ab, ba, cab, cba;
  const char *broken = NULL;
  if (!build3(r, &a) || !build3(r, &b)) return;
  check_box3(&a);
  check_box3(&b);
  ab = obb3_intersects(&a, &b);
  ba = obb3_intersects(&b, &a);
  cab = obb3_contains_box(&a, &b);
  cba = obb3_contains_box(&b, &a);
  if ((cab || cba) && !(ab && ba))
    broken = "3D contains(box) without intersects";
  else if (ab != ba) broken = "3D intersects not symmetric";
  else if (!rule_ok(ab, ref_gap3(&a, &b), &a, &b))
    broken = "3D intersects breaks the touching rule";
  else if (!rule_ok(cab, maxl(ref_excess3(&a, &b), ref_gap3(&a, &b)), &a, &b))
    broken = "3D contains(box) breaks the touching rule";
  memset(&pt, 0, sizeof pt);
  pt.c[0] = number(r); pt.c[1] = number(r); pt.c[2] = number(r);
  pt.u[0][0] = pt.u[1][1] = pt.u[2][2] = 1;
  if (broken == NULL && finite_all(pt.c, 3) &&
      !rule_ok(obb3_contains_point(&a, pt.c), ref_excess3(&a, &pt), &a,
               &pt)) {
    fprintf(stderr, "point %.17g %.17g %.17g\n", pt.c[0], pt.c[1], pt.c[2]);
    broken = "3D contains(point) wrong";
  }
  if (broken != NULL) {
    fprintf(stderr, "ab %d ba %d cab %d cba %d\n", ab, ba, cab, cba);
    dump3("a", &a);
    dump3("b", &b);
    FAIL(broken);
  }
  if (!finite_all(pt.c, 3)) memcpy(pt.c, b.c, sizeof pt.c);
  queries3(r, &a, &b, pt.c);
}

static void transform3(reader *r) {
  obb3 b, before;
  double m[12], corners[24];
  int i, k;
  if (!build3(r, &b)) return;
  for (i = 0; i < 12; i++) m[i] = number(r);
  before = b;
  obb3_corners(&b, corners);
  if (obb3_transform(&b, m) != OBB_OK) {
    if (memcmp(&b, &before, sizeof b) != 0) FAIL("failed 3D transform wrote");
    return;
  }
  if (!obb3_is_valid(&b)) FAIL("3D transform made an invalid box");
  if (!moderate_all(m, 12) || !moderate_all(before.c, 3) ||
      !moderate_all(before.e, 3) || !finite_all(corners, 24))
    return;
  {
    double s = 0, t = 1, tol;
    obb3 big = b;
    for (k = 0; k < 3; k++) {
      s += fabs(b.c[k]) + b.e[k];
      t += fabs(before.c[k]) + before.e[k];
    }
    for (i = 0; i < 12; i++) s += fabs(m[i]) * t;
    tol = 1e-12 * s + TINY;
    if (!isfinite(tol)) return;
    for (k = 0; k < 3; k++) big.e[k] += tol;
    for (i = 0; i < 8; i++) {
      const double *p = corners + 3 * i;
      double tp[3];
      for (k = 0; k < 3; k++)
        tp[k] = m[4 * k] * p[0] + m[4 * k + 1] * p[1] + m[4 * k + 2] * p[2] +
                m[4 * k + 3];
      if (finite_all(tp, 3) && !obb3_contains_point(&big, tp))
        FAIL("3D transform does not enclose the image");
    }
  }
}

static void fit3(reader *r) {
  double pts[3 * 16];
  obb3 b;
  size_t n = (size_t)(byte(r) % 16) + 1, i;
  for (i = 0; i < 3 * n; i++) pts[i] = number(r);
  memset(&b, 0xAB, sizeof b);
  if (obb3_fit_points(&b, pts, n) != OBB_OK) return;
  if (!obb3_is_valid(&b)) FAIL("3D fit made an invalid box");
  for (i = 0; i < n; i++)
    if (!obb3_contains_point(&b, pts + 3 * i))
      FAIL("3D fitted box misses a point");
}

/* ---- queries, merges, fits, moves and worlds -------------------------- */
/*
** Every other function of obb.h and obb_world.h, on the boxes a pair
** built: each output filled with the sentinel before the call and checked
** after it (WRITTEN), then the documented promises. Points, directions and
** velocities are finite, as the binding makes them, but up to DBL_MAX;
** promises about the numbers' size (finite results, enclosure) are checked
** for moderate inputs only (the answer past 1e300 is unspecified, but
** always written).
*/

/* A finite number from the stream (0 for NaN and infinities). */
static double finite_number(reader *r) {
  double x = number(r);
  return isfinite(x) ? x : 0.0;
}

static int moderate_box2(const obb2 *b) {
  return moderate_all(b->c, 2) && moderate_all(b->e, 2);
}

static int moderate_box3(const obb3 *b) {
  return moderate_all(b->c, 3) && moderate_all(b->e, 3);
}

static int unit(const double *n, int dim) {
  double s = 0;
  int i;
  for (i = 0; i < dim; i++) s += n[i] * n[i];
  return fabs(s - 1) <= 1e-12;
}

static int zeros(const double *v, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (v[i] != 0) return 0;
  return 1;
}

/* What a world reports, per id (a world here holds ids 0 and 1). */
typedef struct seen {
  int hits[2], pairs;
} seen;

static void on_hit(void *ctx, int id) {
  if (id < 0 || id > 1) FAIL("world reported an id it does not hold");
  ((seen *)ctx)->hits[id]++;
}

static double on_ray(void *ctx, int id, double t, const double n[3],
                     double maxt) {
  WRITTEN(&t, 1, "obb_world_raycast t");
  WRITTEN(n, 3, "obb_world_raycast n");
  if (!(t >= 0) || t > maxt) FAIL("world ray t outside [0, maxt]");
  on_hit(ctx, id);
  return maxt;
}

static void on_pair(void *ctx, int a, int b) {
  if (a != 0 || b != 1) FAIL("world pair is not (0, 1)");
  ((seen *)ctx)->pairs++;
}

#define WFAIL(what)                                                     \
  do {                                                                  \
    if (dim == 2) {                                                     \
      dump2("a", (const obb2 *)a);                                      \
      dump2("b", (const obb2 *)b);                                      \
    } else {                                                            \
      dump3("a", (const obb3 *)a);                                      \
      dump3("b", (const obb3 *)b);                                      \
    }                                                                   \
    fprintf(stderr, "p = %a %a %a, d = %a %a %a, maxt %a, seen %d %d\n", \
            p[0], p[1], dim == 3 ? p[2] : 0, d[0], d[1],                 \
            dim == 3 ? d[2] : 0, maxt, s.hits[0], s.hits[1]);           \
    FAIL(what);                                                         \
  } while (0)

/* A world holding a and b (dim 2 or 3) answers what each box does (for
** moderate inputs: beyond, a band can overflow to infinity, which the
** world's bounds do not follow). */
static void world_check(int dim, const void *a, const void *b,
                        const double *p, const double *d, double maxt,
                        const int in[2], const int ray[2], int hit,
                        int moderate) {
  obb_world *w = obb_world_new(dim, 0.25, NULL, NULL);
  seen s;
  if (w == NULL) return;
  if (obb_world_add(w, a) != 0 || obb_world_add(w, b) != 1) {
    obb_world_free(w);
    return; /* out of memory */
  }
  memset(&s, 0, sizeof s);
  if (obb_world_query_point(w, p, on_hit, &s) == 0 && moderate &&
      (s.hits[0] != in[0] || s.hits[1] != in[1]))
    WFAIL("world query_point disagrees with contains");
  memset(&s, 0, sizeof s);
  if (obb_world_query_box(w, a, on_hit, &s) == 0 && moderate &&
      (s.hits[0] != 1 || s.hits[1] != hit))
    WFAIL("world query_box disagrees with intersects");
  memset(&s, 0, sizeof s);
  if (obb_world_raycast(w, p, d, maxt, on_ray, &s) == 0 && moderate &&
      (s.hits[0] != ray[0] || s.hits[1] != ray[1]))
    WFAIL("world raycast disagrees with the box's raycast");
  memset(&s, 0, sizeof s);
  if (obb_world_pairs(w, on_pair, &s) == 0 && moderate && s.pairs != hit)
    WFAIL("world pairs disagree with intersects");
  /* the rest of the API: what it holds, moves and removals */
  if (obb_world_dim(w) != dim || obb_world_count(w) != 2 ||
      obb_world_memory(w) == 0 || obb_world_box(w, 2) != NULL ||
      obb_world_box(w, 0) == NULL ||
      memcmp(obb_world_box(w, 0), a,
             dim == 2 ? sizeof(obb2) : sizeof(obb3)) != 0)
    WFAIL("world does not hold what was added");
  obb_world_update(w, 1, a); /* b moves onto a: now they intersect */
  memset(&s, 0, sizeof s);
  if (obb_world_pairs(w, on_pair, &s) == 0 && s.pairs != 1)
    WFAIL("world pairs miss two equal boxes");
  obb_world_remove(w, 0);
  if (obb_world_count(w) != 1 || obb_world_box(w, 0) != NULL ||
      obb_world_reserve(w) != 0 || obb_world_add(w, b) != 0)
    WFAIL("world remove, reserve and add");
  obb_world_free(w);
}

#define QFAIL2(what)                                                    \
  do {                                                                  \
    dump2("a", a);                                                      \
    dump2("b", b);                                                      \
    fprintf(stderr, "p = %a %a\n", p[0], p[1]);                         \
    FAIL(what);                                                         \
  } while (0)

static void queries2(reader *r, const obb2 *a, const obb2 *b,
                     const double p[2]) {
  double d[2], q[2], va[2], vb[2], zero[2] = {0, 0}, out[4], n[2], t;
  double pts[3 * OBB2_MAX_CONTACTS], depth, rad, maxt, angle, x, y;
  double fitpts[2 * 9], scratch[OBB2_TIGHT_SCRATCH(9)];
  int i, res, hit = obb2_intersects(a, b), in[2], ray[2], moderate, tight;
  obb2 m, before;
  obb_status st;
  for (i = 0; i < 2; i++) {
    d[i] = finite_number(r);
    q[i] = finite_number(r);
    va[i] = finite_number(r);
    vb[i] = finite_number(r);
  }
  maxt = fabs(number(r));
  if (maxt != maxt) maxt = HUGE_VAL;
  rad = fabs(finite_number(r));
  angle = finite_number(r);
  tight = (byte(r) & 3) == 1;
  in[0] = obb2_contains_point(a, p);
  in[1] = obb2_contains_point(b, p);
  moderate = moderate_box2(a) && moderate_box2(b) && moderate_all(p, 2) &&
             moderate_all(d, 2) && moderate_all(q, 2) &&
             moderate_all(va, 2) && moderate_all(vb, 2) && rad <= MODERATE;

  /* a point: closest point, distance, signed distance, circle */
  fill(out, 2);
  obb2_closest_point(a, p, out);
  WRITTEN(out, 2, "obb2_closest_point");
  if (in[0] && (out[0] != p[0] || out[1] != p[1]))
    QFAIL2("2D closest point of a contained point is not the point");
  x = obb2_distance_point(a, p);
  y = obb2_signed_distance(a, p);
  WRITTEN(&x, 1, "obb2_distance_point");
  WRITTEN(&y, 1, "obb2_signed_distance");
  if (moderate && (!isfinite(x) || !isfinite(y) || x < 0 || (x == 0) != in[0] ||
                   (y <= 0) != in[0] || (y > 0 && y != x)))
    QFAIL2("2D distance or signed distance breaks its contract");
  if (obb2_intersects_circle(a, p, 0.0) != in[0])
    QFAIL2("2D circle of radius 0 is not contains");
  if (in[0] && !obb2_intersects_circle(a, p, rad))
    QFAIL2("2D circle around a contained point misses");

  /* two boxes: distance, classify, penetration, contacts, sweeps */
  fill(out, 4);
  x = obb2_distance(a, b, out, out + 2);
  WRITTEN(&x, 1, "obb2_distance");
  WRITTEN(out, 4, "obb2_distance points");
  if (hit && (x != 0 || memcmp(out, out + 2, 2 * sizeof *out) != 0))
    QFAIL2("2D distance of intersecting boxes is not 0 at one point");
  if (moderate && (!(x >= 0) || !isfinite(x) || !finite_all(out, 4) ||
                   (!hit && !(x > 0))))
    QFAIL2("2D distance breaks its contract");
  res = obb2_classify(a, b);
  if (res != (obb2_contains_box(a, b) ? OBB_CONTAINS
              : hit                   ? OBB_INTERSECTS
                                      : OBB_DISJOINT))
    QFAIL2("2D classify disagrees with contains and intersects");
  fill(n, 2);
  fill(&depth, 1);
  res = obb2_penetration(a, b, n, &depth);
  WRITTEN(n, 2, "obb2_penetration n");
  WRITTEN(&depth, 1, "obb2_penetration depth");
  if (res != hit) QFAIL2("2D penetration disagrees with intersects");
  if (!res && (!zeros(n, 2) || depth != 0))
    QFAIL2("2D penetration apart: n and depth not zero");
  if (res && moderate && (!unit(n, 2) || !(depth >= 0) || !isfinite(depth)))
    QFAIL2("2D penetration: not a unit normal and a depth >= 0");
  fill(n, 2);
  fill(pts, 3 * OBB2_MAX_CONTACTS);
  res = obb2_contacts(a, b, n, pts);
  WRITTEN(n, 2, "obb2_contacts n");
  WRITTEN(pts, 3 * OBB2_MAX_CONTACTS, "obb2_contacts points");
  if ((res > 0) != hit || res < 0 || res > OBB2_MAX_CONTACTS)
    QFAIL2("2D contacts disagree with intersects");
  if (res == 0 && !zeros(n, 2)) QFAIL2("2D contacts apart: n not zero");
  if (!zeros(pts + 3 * res, 3 * (OBB2_MAX_CONTACTS - res)))
    QFAIL2("2D contacts: unused slots not zero");
  if (moderate && !finite_all(pts, 3 * res))
    QFAIL2("2D contacts not finite");
  fill(&t, 1);
  fill(n, 2);
  res = obb2_sweep(a, b, zero, zero, &t, n);
  WRITTEN(&t, 1, "obb2_sweep t");
  WRITTEN(n, 2, "obb2_sweep n");
  if (res != hit || (res && t != 0) || (!res && (t != HUGE_VAL || !zeros(n, 2))))
    QFAIL2("2D sweep without motion disagrees with intersects");
  fill(&t, 1);
  fill(n, 2);
  res = obb2_sweep(a, b, va, vb, &t, n);
  WRITTEN(&t, 1, "obb2_sweep t");
  WRITTEN(n, 2, "obb2_sweep n");
  if ((hit && (!res || t != 0)) || (res && !(t >= 0 && t <= 1)) ||
      (!res && (t != HUGE_VAL || !zeros(n, 2))))
    QFAIL2("2D sweep breaks its contract");

  /* a ray from p along d, and the segment p..q */
  fill(&t, 1);
  fill(n, 2);
  res = obb2_raycast(a, p, d, maxt, &t, n);
  WRITTEN(&t, 1, "obb2_raycast t");
  WRITTEN(n, 2, "obb2_raycast n");
  if ((res == OBB_RAY_INSIDE) != in[0])
    QFAIL2("2D raycast inside exactly when contains");
  if ((res == OBB_RAY_INSIDE && (t != 0 || !zeros(n, 2))) ||
      (res == OBB_RAY_MISS && (t != HUGE_VAL || !zeros(n, 2))) ||
      (res == OBB_RAY_HIT && (!(t >= 0 && t <= maxt) || !unit(n, 2))))
    QFAIL2("2D raycast breaks its contract");
  ray[0] = res != OBB_RAY_MISS;
  ray[1] = obb2_raycast(b, p, d, maxt, &t, n) != OBB_RAY_MISS;
  res = obb2_intersects_segment(a, p, q);
  if ((in[0] || obb2_contains_point(a, q)) && !res)
    QFAIL2("2D segment with an end inside misses");
  if (p[0] == q[0] && p[1] == q[1] && res != in[0])
    QFAIL2("2D segment of one point is not contains");

  /* a merge */
  fill((double *)&m, 6);
  before = m;
  st = obb2_merge(a, b, &m);
  if (st != OBB_OK) {
    if (memcmp(&m, &before, sizeof m) != 0) QFAIL2("failed 2D merge wrote");
    if (moderate) QFAIL2("2D merge of moderate boxes failed");
    if (st != OBB_ENOTFINITE || obb_status_string(st) == NULL)
      QFAIL2("2D merge failed with another status");
  } else {
    WRITTEN((const double *)&m, 6, "obb2_merge");
    if (!obb2_is_valid(&m)) QFAIL2("2D merge made an invalid box");
    if (moderate && (!obb2_contains_box(&m, a) || !obb2_contains_box(&m, b)))
      QFAIL2("2D merge does not contain both boxes");
  }

  /* fits of both boxes' corners and p (the tight fit only when the
  ** input asks: it costs more than everything else here together) */
  obb2_corners(a, fitpts);
  obb2_corners(b, fitpts + 8);
  fitpts[16] = p[0]; fitpts[17] = p[1];
  for (i = 0; i < (tight ? 2 : 1); i++) {
    fill((double *)&m, 6);
    before = m;
    st = i == 0 ? obb2_fit_points(&m, fitpts, 9)
                : obb2_fit_points_tight(&m, fitpts, 9, scratch);
    if (st != OBB_OK) {
      if (memcmp(&m, &before, sizeof m) != 0) QFAIL2("failed 2D fit wrote");
    } else {
      int k;
      WRITTEN((const double *)&m, 6, i == 0 ? "obb2_fit_points"
                                            : "obb2_fit_points_tight");
      if (!obb2_is_valid(&m)) QFAIL2("2D fit made an invalid box");
      for (k = 0; k < 9; k++)
        if (!obb2_contains_point(&m, fitpts + 2 * k))
          QFAIL2("2D fit misses a point");
    }
  }

  /* moves: a failure leaves the box as it was */
  m = *a;
  before = m;
  st = obb2_translate(&m, va);
  if (st != OBB_OK ? memcmp(&m, &before, sizeof m) != 0 : !obb2_is_valid(&m))
    QFAIL2("2D translate");
  if (obb2_rotate(&m, angle) != OBB_OK || !obb2_is_valid(&m))
    QFAIL2("2D rotate by a finite angle");
  if (obb2_set_angle(&m, angle) != OBB_OK || !obb2_is_valid(&m))
    QFAIL2("2D set_angle to a finite angle");

  world_check(2, a, b, p, d, maxt, in, ray, hit, moderate);
}

#define QFAIL3(what)                                                    \
  do {                                                                  \
    dump3("a", a);                                                      \
    dump3("b", b);                                                      \
    fprintf(stderr, "p = %a %a %a\n", p[0], p[1], p[2]);                \
    FAIL(what);                                                         \
  } while (0)

static void queries3(reader *r, const obb3 *a, const obb3 *b,
                     const double p[3]) {
  double d[3], q[3], va[3], vb[3], zero[3] = {0, 0, 0}, out[6], n[3], t;
  double pts[4 * OBB3_MAX_CONTACTS], depth, rad, maxt, quat[4], x, y;
  double fitpts[3 * 17], scratch[OBB3_TIGHT_SCRATCH(17)];
  int i, res, hit = obb3_intersects(a, b), in[2], ray[2], moderate, tight;
  obb3 m, before;
  obb_status st;
  for (i = 0; i < 3; i++) {
    d[i] = finite_number(r);
    q[i] = finite_number(r);
    va[i] = finite_number(r);
    vb[i] = finite_number(r);
  }
  maxt = fabs(number(r));
  if (maxt != maxt) maxt = HUGE_VAL;
  rad = fabs(finite_number(r));
  for (i = 0; i < 4; i++) quat[i] = finite_number(r);
  tight = (byte(r) & 3) == 1;
  in[0] = obb3_contains_point(a, p);
  in[1] = obb3_contains_point(b, p);
  moderate = moderate_box3(a) && moderate_box3(b) && moderate_all(p, 3) &&
             moderate_all(d, 3) && moderate_all(q, 3) &&
             moderate_all(va, 3) && moderate_all(vb, 3) && rad <= MODERATE;

  fill(out, 3);
  obb3_closest_point(a, p, out);
  WRITTEN(out, 3, "obb3_closest_point");
  if (in[0] && (out[0] != p[0] || out[1] != p[1] || out[2] != p[2]))
    QFAIL3("3D closest point of a contained point is not the point");
  x = obb3_distance_point(a, p);
  y = obb3_signed_distance(a, p);
  WRITTEN(&x, 1, "obb3_distance_point");
  WRITTEN(&y, 1, "obb3_signed_distance");
  if (moderate && (!isfinite(x) || !isfinite(y) || x < 0 || (x == 0) != in[0] ||
                   (y <= 0) != in[0] || (y > 0 && y != x)))
    QFAIL3("3D distance or signed distance breaks its contract");
  if (obb3_intersects_sphere(a, p, 0.0) != in[0])
    QFAIL3("3D sphere of radius 0 is not contains");
  if (in[0] && !obb3_intersects_sphere(a, p, rad))
    QFAIL3("3D sphere around a contained point misses");
  if (!zeros(d, 3)) {
    res = obb3_plane_side(a, d, rad);
    if (res < -1 || res > 1) QFAIL3("3D plane side not -1, 0 or 1");
  }

  fill(out, 6);
  x = obb3_distance(a, b, out, out + 3);
  WRITTEN(&x, 1, "obb3_distance");
  WRITTEN(out, 6, "obb3_distance points");
  if (hit && (x != 0 || memcmp(out, out + 3, 3 * sizeof *out) != 0))
    QFAIL3("3D distance of intersecting boxes is not 0 at one point");
  if (moderate && (!(x >= 0) || !isfinite(x) || !finite_all(out, 6) ||
                   (!hit && !(x > 0))))
    QFAIL3("3D distance breaks its contract");
  res = obb3_classify(a, b);
  if (res != (obb3_contains_box(a, b) ? OBB_CONTAINS
              : hit                   ? OBB_INTERSECTS
                                      : OBB_DISJOINT))
    QFAIL3("3D classify disagrees with contains and intersects");
  fill(n, 3);
  fill(&depth, 1);
  res = obb3_penetration(a, b, n, &depth);
  WRITTEN(n, 3, "obb3_penetration n");
  WRITTEN(&depth, 1, "obb3_penetration depth");
  if (res != hit) QFAIL3("3D penetration disagrees with intersects");
  if (!res && (!zeros(n, 3) || depth != 0))
    QFAIL3("3D penetration apart: n and depth not zero");
  if (res && moderate && (!unit(n, 3) || !(depth >= 0) || !isfinite(depth)))
    QFAIL3("3D penetration: not a unit normal and a depth >= 0");
  fill(n, 3);
  fill(pts, 4 * OBB3_MAX_CONTACTS);
  res = obb3_contacts(a, b, n, pts);
  WRITTEN(n, 3, "obb3_contacts n");
  WRITTEN(pts, 4 * OBB3_MAX_CONTACTS, "obb3_contacts points");
  if ((res > 0) != hit || res < 0 || res > OBB3_MAX_CONTACTS)
    QFAIL3("3D contacts disagree with intersects");
  if (res == 0 && !zeros(n, 3)) QFAIL3("3D contacts apart: n not zero");
  if (!zeros(pts + 4 * res, 4 * (OBB3_MAX_CONTACTS - res)))
    QFAIL3("3D contacts: unused slots not zero");
  if (moderate && !finite_all(pts, 4 * res))
    QFAIL3("3D contacts not finite");
  fill(&t, 1);
  fill(n, 3);
  res = obb3_sweep(a, b, zero, zero, &t, n);
  WRITTEN(&t, 1, "obb3_sweep t");
  WRITTEN(n, 3, "obb3_sweep n");
  if (res != hit || (res && t != 0) || (!res && (t != HUGE_VAL || !zeros(n, 3))))
    QFAIL3("3D sweep without motion disagrees with intersects");
  fill(&t, 1);
  fill(n, 3);
  res = obb3_sweep(a, b, va, vb, &t, n);
  WRITTEN(&t, 1, "obb3_sweep t");
  WRITTEN(n, 3, "obb3_sweep n");
  if ((hit && (!res || t != 0)) || (res && !(t >= 0 && t <= 1)) ||
      (!res && (t != HUGE_VAL || !zeros(n, 3))))
    QFAIL3("3D sweep breaks its contract");

  fill(&t, 1);
  fill(n, 3);
  res = obb3_raycast(a, p, d, maxt, &t, n);
  WRITTEN(&t, 1, "obb3_raycast t");
  WRITTEN(n, 3, "obb3_raycast n");
  if ((res == OBB_RAY_INSIDE) != in[0])
    QFAIL3("3D raycast inside exactly when contains");
  if ((res == OBB_RAY_INSIDE && (t != 0 || !zeros(n, 3))) ||
      (res == OBB_RAY_MISS && (t != HUGE_VAL || !zeros(n, 3))) ||
      (res == OBB_RAY_HIT && (!(t >= 0 && t <= maxt) || !unit(n, 3))))
    QFAIL3("3D raycast breaks its contract");
  ray[0] = res != OBB_RAY_MISS;
  ray[1] = obb3_raycast(b, p, d, maxt, &t, n) != OBB_RAY_MISS;
  res = obb3_intersects_segment(a, p, q);
  if ((in[0] || obb3_contains_point(a, q)) && !res)
    QFAIL3("3D segment with an end inside misses");
  if (p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && res != in[0])
    QFAIL3("3D segment of one point is not contains");

  fill((double *)&m, 15);
  before = m;
  st = obb3_merge(a, b, &m);
  if (st != OBB_OK) {
    if (memcmp(&m, &before, sizeof m) != 0) QFAIL3("failed 3D merge wrote");
    if (moderate) QFAIL3("3D merge of moderate boxes failed");
    if (st != OBB_ENOTFINITE || obb_status_string(st) == NULL)
      QFAIL3("3D merge failed with another status");
  } else {
    WRITTEN((const double *)&m, 15, "obb3_merge");
    if (!obb3_is_valid(&m)) QFAIL3("3D merge made an invalid box");
    if (moderate && (!obb3_contains_box(&m, a) || !obb3_contains_box(&m, b)))
      QFAIL3("3D merge does not contain both boxes");
  }

  obb3_corners(a, fitpts); /* as in 2D */
  obb3_corners(b, fitpts + 24);
  fitpts[48] = p[0]; fitpts[49] = p[1]; fitpts[50] = p[2];
  for (i = 0; i < (tight ? 2 : 1); i++) {
    fill((double *)&m, 15);
    before = m;
    st = i == 0 ? obb3_fit_points(&m, fitpts, 17)
                : obb3_fit_points_tight(&m, fitpts, 17, scratch);
    if (st != OBB_OK) {
      if (memcmp(&m, &before, sizeof m) != 0) QFAIL3("failed 3D fit wrote");
    } else {
      int k;
      WRITTEN((const double *)&m, 15, i == 0 ? "obb3_fit_points"
                                             : "obb3_fit_points_tight");
      if (!obb3_is_valid(&m)) QFAIL3("3D fit made an invalid box");
      for (k = 0; k < 17; k++)
        if (!obb3_contains_point(&m, fitpts + 3 * k))
          QFAIL3("3D fit misses a point");
    }
  }

  m = *a;
  before = m;
  st = obb3_translate(&m, va);
  if (st != OBB_OK ? memcmp(&m, &before, sizeof m) != 0 : !obb3_is_valid(&m))
    QFAIL3("3D translate");
  before = m;
  st = obb3_rotate(&m, quat);
  if (st != OBB_OK ? memcmp(&m, &before, sizeof m) != 0 : !obb3_is_valid(&m))
    QFAIL3("3D rotate");
  before = m;
  st = obb3_set_rotation(&m, quat);
  if (st != OBB_OK ? memcmp(&m, &before, sizeof m) != 0 : !obb3_is_valid(&m))
    QFAIL3("3D set_rotation");

  world_check(3, a, b, p, d, maxt, in, ray, hit, moderate);
}

/* ---- the movement math (obb_clip.c) --------------------------------- */

/* A unit vector of dim numbers from the input (z = 0 in 2D), or 0. */
static int unit_from(reader *r, int dim, double n[3]) {
  double len = 0;
  int i;
  for (i = 0; i < 3; i++) n[i] = i < dim ? finite_number(r) : 0;
  for (i = 0; i < dim; i++) len = fmax(len, fabs(n[i]));
  if (!(len > 0 && len < 1e150)) return 0;
  for (i = 0; i < dim; i++) n[i] /= len;
  len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (i = 0; i < dim; i++) n[i] /= len;
  return 1;
}

/* obb_clip writes out on every call, gives v back for a zero normal, keeps
** v's components where n is 0 bit for bit, and makes no NaN of moderate
** input; obb_clip_goal keeps the goal's coordinates along the plane;
** obb_clip_planes either keeps some of the move or stops exactly at
** from, and stays finite on moderate input. */
static void clip(reader *r) {
  int dim = 2 + byte(r) % 2, i, np = 1 + byte(r) % 4, k, got;
  double v[3], n[3], out[3], times = 1 + byte(r) % 2;
  double from[3] = {0, 0, 0}, goal[3] = {0, 0, 0}, before[3];
  double planes[4][3], primal[3];
  for (i = 0; i < dim; i++) {
    v[i] = finite_number(r);
    n[i] = byte(r) % 3 == 0 ? 0 : finite_number(r);
  }
  fill(out, dim);
  got = obb_clip(dim, v, n, times, out);
  WRITTEN(out, dim, "obb_clip out");
  if (got != !zeros(n, dim)) FAIL("obb_clip answers 0 exactly for a zero normal");
  for (i = 0; i < dim; i++)
    if (n[i] == 0 && memcmp(&out[i], &v[i], sizeof v[i]) != 0)
      FAIL("obb_clip keeps v's components where n is 0");
  if (moderate_all(v, dim) && moderate_all(n, dim) && !finite_all(out, dim))
    FAIL("obb_clip of moderate numbers is finite");
  if (!unit_from(r, dim, n)) return;
  for (i = 0; i < dim; i++) {
    from[i] = finite_number(r);
    goal[i] = finite_number(r);
  }
  memcpy(before, goal, sizeof before);
  obb_clip_goal(dim, from, goal, n, times);
  for (i = 0; i < dim; i++)
    if (n[i] == 0 && memcmp(&goal[i], &before[i], sizeof goal[i]) != 0)
      FAIL("obb_clip_goal keeps the goal's coordinates along the plane");
  for (k = 0; k < np; k++)
    if (!unit_from(r, dim, planes[k])) return;
  for (i = 0; i < 3; i++) primal[i] = i < dim ? finite_number(r) : 0;
  got = obb_clip_planes(dim, from, goal, (const double(*)[3])planes, np, primal);
  if (!got && memcmp(goal, from, (size_t)dim * sizeof(double)) != 0)
    FAIL("obb_clip_planes stops exactly where the move started");
  if (moderate_all(from, dim) && moderate_all(before, dim) && !finite_all(goal, dim))
    FAIL("obb_clip_planes of moderate numbers is finite");
}

/* ---- the movers' hard shapes (round five, docs/hardening.md) ---------- */

typedef union anybox_f {
  obb2 b2;
  obb3 b3;
} anybox_f;

/* An axis-aligned box of dim coordinates. */
static void init_box(int dim, anybox_f *b, const double *c, const double *e) {
  static const double q[4] = {0, 0, 0, 1};
  if (dim == 2) obb2_init(&b->b2, c, e, 0.0);
  else obb3_init(&b->b3, c, e, q);
}

static int fixed_response(void *ctx, int item, const obb_move_hit *hit) {
  (void)item;
  (void)hit;
  return *(const int *)ctx;
}

/* A number from the stream in [lo, hi] (lo for NaN). */
static double clamped(reader *r, double lo, double hi) {
  double x = finite_number(r);
  return x > lo ? (x < hi ? x : hi) : lo;
}

/* A box of half size h between two walls 1 thick whose inner faces are
** at x = -1 and 1, moved toward any finite goal, with or without a turn
** (2D), touching, sliding or bouncing: it ends between the walls (within
** the band), however long the move. */
static void corridor(reader *r) {
  int dim = 2 + byte(r) % 2, resp = OBB_TOUCH + byte(r) % 4, q;
  double h = clamped(r, 0.01, 0.9), rx = h, goal[3], actual[3];
  double turn[3] = {0, 0, 0};
  obb_world *w = obb_world_new(dim, 0.25, NULL, NULL);
  double c[3] = {0, 0, 0}, e[3] = {0.5, 10, 10};
  anybox_f wall, item;
  if (resp == OBB_CROSS) resp = OBB_SLIDE;
  if (w == NULL) return;
  /* the line to the goal crosses x = +-1 within the walls' extent */
  goal[0] = finite_number(r);
  for (q = 1; q < dim; q++) goal[q] = goal[0] * clamped(r, -1, 1);
  if (dim == 2) turn[0] = byte(r) % 2 ? clamped(r, -3, 3) : 0;
  c[0] = -1.5;
  init_box(dim, &wall, c, e);
  if (obb_world_add(w, &wall) != 0) goto done;
  c[0] = 1.5;
  init_box(dim, &wall, c, e);
  if (obb_world_add(w, &wall) != 1) goto done;
  c[0] = 0;
  e[0] = e[1] = e[2] = h;
  init_box(dim, &item, c, e);
  if (obb_world_add(w, &item) != 2) goto done;
  if (turn[0] != 0) {
    if (obb_world_move_turning(w, 2, goal, turn, fixed_response, NULL, &resp,
                               &item) < 0)
      goto done;
    actual[0] = item.b2.c[0];
    actual[1] = item.b2.c[1];
    rx = h * (fabs(item.b2.u[0]) + fabs(item.b2.u[1]));
  } else if (obb_world_move(w, 2, goal, fixed_response, NULL, &resp,
                            actual) < 0) {
    goto done;
  }
  /* a move that ends beside the walls (y and z only grow toward the goal's,
  ** whatever it met) stayed beside them all along */
  for (q = 1; q < dim; q++)
    if (!(fabs(actual[q]) < 9)) goto done;
  if (!(fabs(actual[0]) <= 1 - rx + 1e-9)) {
    fprintf(stderr, "dim %d h %a goal %a %a %a turn %a response %d: x %a\n",
            dim, h, goal[0], goal[1], dim == 3 ? goal[2] : 0, turn[0], resp,
            actual[0]);
    FAIL("a move passed through a wall of its corridor");
  }
done:
  obb_world_free(w);
}

/* Flush tiles, two thick ones or two segments, and a mover across their
** seam: a crate turning about the vertical (3D) or a point (2D), turning
** or not. Nothing stops it short of its goal. */
static void seam(reader *r) {
  int dim = 2 + byte(r) % 2, flat = dim == 2 && byte(r) % 2, n;
  double tile = 0.25 + (byte(r) % 16) * 0.25, h = clamped(r, 0.05, 0.9);
  double a = clamped(r, -1.5, 1.5), goal[3], turn[3] = {0, 0, 0};
  double c[3] = {0, 0, 0}, e[3];
  anybox_f box, end;
  obb_world *w = obb_world_new(dim, 0.25, NULL, NULL);
  if (w == NULL) return;
  e[0] = tile;
  e[1] = flat ? 0 : 0.5;
  e[2] = tile;
  c[1] = flat ? 0 : -0.5;
  init_box(dim, &box, c, e);
  if (obb_world_add(w, &box) != 0) goto done;
  c[0] = 2 * tile;
  init_box(dim, &box, c, e);
  if (obb_world_add(w, &box) != 1) goto done;
  c[0] = 0;
  c[1] = dim == 3 ? h : 0;
  e[0] = e[1] = e[2] = dim == 3 ? h : 0;
  init_box(dim, &box, c, e);
  if (obb_world_add(w, &box) != 2) goto done;
  goal[0] = 3 * tile;
  goal[1] = c[1];
  goal[2] = 0;
  if (dim == 2) turn[0] = a;
  else turn[1] = a;
  n = obb_world_move_turning(w, 2, goal, turn, NULL, NULL, NULL, &end);
  if (n < 0) goto done;
  if (n != 0 || (dim == 2 ? end.b2.c[0] : end.b3.c[0]) != goal[0]) {
    fprintf(stderr, "dim %d flat %d tile %a h %a turn %a: x %a, %d hits\n",
            dim, flat, tile, h, a, dim == 2 ? end.b2.c[0] : end.b3.c[0], n);
    FAIL("a seam of flush tiles stopped a turning slide");
  }
done:
  obb_world_free(w);
}

/* A move that asks (obb_world_move_start) against the same move whose
** filter answers in C: the answers, given one question at a time, give
** the same end, the same count and the same records, bit for bit. */
typedef struct asked {
  int answer[8];         /* by id */
  obb_move_hit hits[64]; /* the reports, in order */
  int n;
} asked;

static int answer_from(void *ctx, int item, const obb_move_hit *hit) {
  (void)item;
  return ((const asked *)ctx)->answer[hit->other];
}

static int ask_later(void *ctx, int item, const obb_move_hit *hit) {
  (void)ctx;
  (void)item;
  (void)hit;
  return OBB_ASK;
}

static void keep_hit(void *ctx, const obb_move_hit *hit) {
  asked *a = (asked *)ctx;
  if (a->n < 64) a->hits[a->n] = *hit;
  a->n++;
}

/* The same move by obb_world_move_with, each other's answer given as a
** response set by class (other i of class i), the report with a context
** of its own and a filter that must not be called (it would abort):
** the same count, end and records as want's (a, end) bit for bit; then
** committed, the item's box is that end (unchanged when it failed). */
static void with_set(obb_world *w, int n, int dim, const int *answer,
                     const double *goal, const double *turn, int want,
                     const asked *a, const void *end) {
  unsigned char set[OBB_NCLASSES];
  obb_move_calls calls;
  anybox_f end3, before;
  size_t size = dim == 2 ? sizeof(obb2) : sizeof(obb3);
  asked c;
  int i, got;
  memset(set, 0, sizeof set);
  memset(&c, 0, sizeof c);
  memset(&calls, 0, sizeof calls);
  for (i = 0; i < n; i++) {
    set[i] = (unsigned char)answer[i];
    if (obb_world_set_class(w, i, i) != 0 || obb_world_class(w, i) != i)
      FAIL("obb_world_set_class");
  }
  calls.filter = ask_later;
  calls.report = keep_hit;
  calls.report_ctx = &c;
  calls.responses = set;
  got = obb_world_move_with(w, 0, goal, turn, &calls, &end3);
  if (got != want || c.n != a->n || memcmp(&end3, end, size) != 0 ||
      memcmp(c.hits, a->hits, (size_t)(c.n < 64 ? c.n : 64) *
                                  sizeof(obb_move_hit)) != 0)
    FAIL("obb_world_move_with's response set answers otherwise than a filter");
  memcpy(&before, obb_world_box(w, 0), size);
  calls.commit = 1;
  got = obb_world_move_with(w, 0, goal, turn, &calls, NULL);
  if (got != want ||
      memcmp(obb_world_box(w, 0), got >= 0 ? end : (const void *)&before,
             size) != 0)
    FAIL("obb_world_move_with's commit");
}

static void asking(reader *r) {
  int dim = 2 + byte(r) % 2, n = 2 + byte(r) % 6, i, q, got, want, turns;
  double goal[3], turn[3] = {0, 0, 0};
  static double state[4096];
  anybox_f end1, end2;
  asked a, b;
  obb_world *w;
  if (obb_move_state_size() > sizeof state) FAIL("obb_move_state_size");
  w = obb_world_new(dim, 0.25, NULL, NULL);
  if (w == NULL) return;
  memset(&a, 0, sizeof a);
  for (i = 0; i < n; i++) {
    double c[3], e[3];
    anybox_f box;
    for (q = 0; q < 3; q++) {
      c[q] = clamped(r, -8, 8);
      e[q] = clamped(r, 0, 4);
    }
    init_box(dim, &box, c, e);
    if (obb_world_add(w, &box) != i) goto done;
    a.answer[i] = byte(r) % 5; /* OBB_IGNORE .. OBB_BOUNCE */
  }
  for (q = 0; q < dim; q++) goal[q] = clamped(r, -20, 20);
  turns = byte(r) % 2;
  if (turns) for (q = 0; q < (dim == 2 ? 1 : 3); q++) turn[q] = clamped(r, -3, 3);
  b = a;
  want = obb_world_move_turning(w, 0, goal, turn, answer_from, keep_hit, &a,
                                &end1);
  got = obb_world_move_start(state, w, 0, goal, turns ? turn : NULL,
                             ask_later, keep_hit, &b, &end2);
  for (i = 0; got == OBB_MOVE_ASKING; i++) {
    obb_move_hit hit;
    int kept = obb_world_move_question(state, &hit);
    if (kept < 0 || kept > b.n || hit.other <= 0 || hit.other >= n || i > 64)
      FAIL("a move that asks asked wrongly");
    b.n = kept;
    got = obb_world_move_resume(state, b.answer[hit.other], &b, &end2);
  }
  if (got != want || a.n != b.n ||
      memcmp(&end1, &end2, dim == 2 ? sizeof(obb2) : sizeof(obb3)) != 0 ||
      memcmp(a.hits, b.hits, (size_t)(a.n < 64 ? a.n : 64) *
                                 sizeof(obb_move_hit)) != 0) {
    fprintf(stderr, "dim %d n %d turns %d: got %d want %d, %d and %d hits, "
            "ends %a %a and %a %a\n", dim, n, turns, got, want, b.n, a.n,
            end2.b2.c[0], end2.b2.c[1], end1.b2.c[0], end1.b2.c[1]);
    FAIL("a move that asks ends otherwise than one answered in C");
  }
  with_set(w, n, dim, a.answer, goal, turns ? turn : NULL, want, &a, &end1);
done:
  obb_world_free(w);
}

static double len2(const double n[3]) {
  return n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
}

/* Adds a box of the world's dimension, center c, half extents e, turned
** by angle about z (2D) or y (3D); its id, or -1. */
static int add_turned(obb_world *w, int dim, const double *c,
                      const double *e, double angle) {
  anybox_f b;
  if (dim == 2) {
    if (obb2_init(&b.b2, c, e, angle) != OBB_OK) return -1;
  } else {
    double q[4] = {0, 0, 0, 1};
    q[1] = sin(angle / 2);
    q[3] = cos(angle / 2);
    if (obb3_init(&b.b3, c, e, q) != OBB_OK) return -1;
  }
  return obb_world_add(w, &b);
}

/* A character (its options from the stream) in a room: a floor and two
** walls, each 1 thick, a ledge and a ramp anywhere in it, moved toward
** goals up to 1e3 away, touching, sliding or bouncing: it never leaves the
** room (it ends between the walls and above the floor, within the
** band), and the state each move leaves is sane (on a floor: a ground,
** its unit normal a floor's). */
static void character(reader *r) {
  int dim = 2 + byte(r) % 2, v = dim - 1, id, k, q;
  double up[3] = {0, 0, 0}, c[3] = {0, 0, 0}, e[3] = {10, 10, 10};
  double h = clamped(r, 0.01, 2), goal[3] = {0, 0, 0};
  obb_character o;
  obb_character_state st;
  obb_ground g;
  obb_world *w = obb_world_new(dim, 0.25, NULL, NULL);
  if (w == NULL) return;
  up[v] = 1;
  if (obb_world_set_up(w, up, clamped(r, 0, 1.5)) != 0) goto done;
  c[v] = -0.5;
  e[v] = 0.5;
  if (add_turned(w, dim, c, e, 0) < 0) goto done; /* the floor */
  if (dim == 3) e[1] = 1e4; /* the room is a slice across y */
  for (k = -1; k <= 1; k += 2) { /* the walls, at x = +-10 inside, far
                                 ** higher than any goal */
    c[0] = k * 10.5;
    c[v] = 0;
    e[0] = 0.5;
    e[v] = 1e4;
    if (add_turned(w, dim, c, e, 0) < 0) goto done;
  }
  for (k = 0; k < 2; k++) { /* a ledge, a ramp */
    c[0] = clamped(r, -9, 9);
    c[v] = clamped(r, -1, 6);
    e[0] = clamped(r, 0, 4);
    e[v] = clamped(r, 0, 2);
    if (add_turned(w, dim, c, e, k ? clamped(r, -1.5, 1.5) : 0) < 0) goto done;
  }
  c[0] = clamped(r, -5, 5);
  c[v] = 8;
  e[0] = clamped(r, 0.01, 1);
  e[v] = h;
  if (dim == 3) {
    c[1] = 0;
    e[1] = clamped(r, 0.01, 1);
  }
  if ((id = add_turned(w, dim, c, e, 0)) < 0) goto done;
  o.snap = clamped(r, 0, 2);
  o.step = clamped(r, 0, 2);
  o.corner = clamped(r, 0, 1);
  o.stop_on_slope = byte(r) % 2;
  o.block_on_wall = byte(r) % 2;
  o.leave = byte(r) % 3;
  if (obb_world_set_character(w, id, &o) != 0) FAIL("set_character refused");
  for (k = 0; k < 6; k++) {
    int resp = OBB_TOUCH + byte(r) % 4;
    obb_move_calls calls;
    anybox_f end;
    const double *at;
    if (resp == OBB_CROSS) resp = OBB_SLIDE;
    memset(&calls, 0, sizeof calls);
    calls.filter = fixed_response;
    calls.filter_ctx = &resp;
    calls.commit = 1;
    for (q = 0; q < dim; q++) goal[q] = clamped(r, -1e3, 1e3);
    if (dim == 3) goal[1] = 0;
    if (obb_world_move_with(w, id, goal, NULL, &calls, &end) < 0) continue;
    at = dim == 2 ? end.b2.c : end.b3.c;
    if (!(fabs(at[0]) <= 10 - e[0] + 1e-6) || !(at[v] >= h - 1e-6)) {
      fprintf(stderr, "dim %d goal %a %a %a: ends at %a %a\n", dim, goal[0],
              goal[1], goal[2], at[0], at[v]);
      FAIL("a character left its room");
    }
    if (!obb_world_character_state(w, id, &st)) FAIL("no state");
    if (st.on_floor && (st.ground.other < 0 ||
                        !obb_world_is_floor(w, st.ground.n) ||
                        fabs(len2(st.ground.n) - 1) > 1e-9))
      FAIL("on a floor without a floor");
  }
  if (obb_world_ground(w, id, clamped(r, 0, 100), NULL, NULL, &g) > 0 &&
      !(g.gap >= 0 && fabs(len2(g.n) - 1) <= 1e-9))
    FAIL("a ground with no gap or no normal");
done:
  obb_world_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r;
  r.p = data;
  r.n = size;
  while (r.n > 0) {
    int k = byte(&r);
    if (k >= 250) { /* the seeds' first bytes keep their cases */
      character(&r);
      continue;
    }
    switch (k % 10) {
      case 0: pair2(&r); break;
      case 1: transform2(&r); break;
      case 2: fit2(&r); break;
      case 3: pair3(&r); break;
      case 4: transform3(&r); break;
      case 5: clip(&r); break;
      case 6: fit3(&r); break;
      case 7: corridor(&r); break;
      case 8: seam(&r); break;
      default: asking(&r); break;
    }
  }
  return 0;
}
