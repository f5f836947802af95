/*
** bench/core_bench.c: the speed of the C core's pair tests, without Lua.
**
**   core_bench [pairs [runs]]      defaults: 1000000 pairs, 7 runs
**
** Times obb2_intersects and obb3_intersects over random pairs drawn from a
** pool of boxes (random sizes and rotations) whose spread is tuned so that
** about half the pairs overlap, and, in the same run, two reference tests
** written the usual way: the 2D test that projects both boxes' corners on
** the four axes, and the plain scalar 15-axis 3D test (Ericson's TestOBBOBB
** with an epsilon on |R|). Each figure is the median of the runs, in CPU
** time of this process, so a busy machine disturbs it less.
**
** The output is for bench/run.lua, which prints it in the shared table:
** tab-separated lines "row name seconds [baseline seconds]",
** "bytes name bytes" and "note text".
**
** Every test is called through a function pointer the compiler cannot see
** through, as the Lua binding calls the core: nothing is inlined into the
** timing loop, for obb's functions or the references.
**
** Then the sweeps: obbN_sweep_turning (boxes that move and turn) against
** obbN_sweep (the same pairs moving without turning) on two scenes of
** 100,000 pairs (a tenth of the pairs asked for): random pairs (centers
** within 4 of the origin, half extents 0.05 to 2, displacements up to 6 per
** coordinate, turns up to a quarter turn per step), and a racing scene (a
** car of 4 by 2 driving 2 to 8 units a step and steering up to 0.15 rad,
** against a thin barrier, 0.1 thick and 2 to 12 long, turned at random
** within 10 of it); and, beyond the targets, the random pairs spinning pi
** to 6 pi a step. The notes count hits and "limit" answers.
**
** Last, the sine and cosine that 2D boxes are built from: obb_sincos
** (src/core/obb_trig.c) against libm's sin and cos of the same angle (which gcc
** merges into one sincos call), over as many random angles in [-8, 8] as
** there are pairs: random, so that libm's branches between argument ranges
** are as unpredictable as a game's fresh angles make them.
*/
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "obb.h"
#include "obb_math.h"

#ifndef POOL
#define POOL 1024 /* boxes per pool: 48 KiB in 2D, 120 KiB in 3D */
#endif

typedef int (*test2_fn)(const obb2 *, const obb2 *);
typedef int (*test3_fn)(const obb3 *, const obb3 *);
typedef void (*sincos_fn)(double, double *, double *);

/* xorshift64*: a small deterministic generator, state passed explicitly. */
static double rnd(unsigned long long *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double uniform(unsigned long long *s, double lo, double hi) {
  return lo + (hi - lo) * rnd(s);
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *xs, int n) {
  qsort(xs, (size_t)n, sizeof *xs, cmp_double);
  return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

/* ---- references ------------------------------------------------------ */

/* The textbook 2D test: corners of both boxes projected on each box's two
** edge normals, intervals compared (touching intersects). */
static void corners2(const obb2 *b, double p[4][2]) {
  double ax = b->e[0] * b->u[0], ay = b->e[0] * b->u[1];
  double bx = -b->e[1] * b->u[1], by = b->e[1] * b->u[0];
  int k;
  for (k = 0; k < 4; k++) {
    double s = k == 1 || k == 2 ? 1 : -1, t = k >= 2 ? 1 : -1;
    p[k][0] = b->c[0] + s * ax + t * bx;
    p[k][1] = b->c[1] + s * ay + t * by;
  }
}

static int ref2_corners(const obb2 *a, const obb2 *b) {
  double pa[4][2], pb[4][2], axes[4][2];
  int i, k;
  corners2(a, pa);
  corners2(b, pb);
  axes[0][0] = a->u[0]; axes[0][1] = a->u[1];
  axes[1][0] = -a->u[1]; axes[1][1] = a->u[0];
  axes[2][0] = b->u[0]; axes[2][1] = b->u[1];
  axes[3][0] = -b->u[1]; axes[3][1] = b->u[0];
  for (i = 0; i < 4; i++) {
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY,
           bmax = -INFINITY;
    for (k = 0; k < 4; k++) {
      double x = pa[k][0] * axes[i][0] + pa[k][1] * axes[i][1];
      double y = pb[k][0] * axes[i][0] + pb[k][1] * axes[i][1];
      amin = fmin(amin, x); amax = fmax(amax, x);
      bmin = fmin(bmin, y); bmax = fmax(bmax, y);
    }
    if (amax < bmin || bmax < amin) return 0;
  }
  return 1;
}

/* Ericson, Real-Time Collision Detection, 4.4.1, as printed. */
static int ref3_ericson(const obb3 *a, const obb3 *b) {
  double R[3][3], AR[3][3], t[3], d[3], ra, rb;
  int i, j;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      R[i][j] = a->u[i][0] * b->u[j][0] + a->u[i][1] * b->u[j][1] +
                a->u[i][2] * b->u[j][2];
  for (i = 0; i < 3; i++) d[i] = b->c[i] - a->c[i];
  for (i = 0; i < 3; i++)
    t[i] = d[0] * a->u[i][0] + d[1] * a->u[i][1] + d[2] * a->u[i][2];
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) AR[i][j] = fabs(R[i][j]) + 1e-12;
  for (i = 0; i < 3; i++) {
    ra = a->e[i];
    rb = b->e[0] * AR[i][0] + b->e[1] * AR[i][1] + b->e[2] * AR[i][2];
    if (fabs(t[i]) > ra + rb) return 0;
  }
  for (j = 0; j < 3; j++) {
    ra = a->e[0] * AR[0][j] + a->e[1] * AR[1][j] + a->e[2] * AR[2][j];
    rb = b->e[j];
    if (fabs(t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j]) > ra + rb)
      return 0;
  }
  for (i = 0; i < 3; i++) {
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (j = 0; j < 3; j++) {
      int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      ra = a->e[i1] * AR[i2][j] + a->e[i2] * AR[i1][j];
      rb = b->e[j1] * AR[i][j2] + b->e[j2] * AR[i][j1];
      if (fabs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) > ra + rb) return 0;
    }
  }
  return 1;
}

/* The floor: the same loop and indirect call, reading both boxes, no test. */
static int floor2(const obb2 *a, const obb2 *b) {
  return a->c[0] < b->c[0];
}

static int floor3(const obb3 *a, const obb3 *b) {
  return a->c[0] < b->c[0];
}

/* ---- pools and pairs ------------------------------------------------- */

typedef struct pairs {
  unsigned short *a, *b; /* indices into the pool */
  long n;
} pairs;

static void make_pairs(pairs *p, long n, unsigned long long *s) {
  long k;
  p->n = n;
  p->a = malloc((size_t)n * sizeof *p->a);
  p->b = malloc((size_t)n * sizeof *p->b);
  if (p->a == NULL || p->b == NULL) {
    fprintf(stderr, "core_bench: out of memory\n");
    exit(1);
  }
  for (k = 0; k < n; k++) {
    int i = (int)(rnd(s) * POOL), j;
    do j = (int)(rnd(s) * POOL); while (j == i);
    p->a[k] = (unsigned short)i;
    p->b[k] = (unsigned short)j;
  }
}

/* Unit-spread centers are scaled by `spread`; sizes and rotations fixed. */
static void make_pool2(obb2 *pool, const double (*unit)[3], double spread,
                       unsigned long long seed) {
  int i;
  for (i = 0; i < POOL; i++) {
    double c[2], e[2], angle;
    e[0] = uniform(&seed, 0.1, 1.0);
    e[1] = uniform(&seed, 0.1, 1.0);
    angle = uniform(&seed, -3.14159265, 3.14159265);
    c[0] = spread * unit[i][0];
    c[1] = spread * unit[i][1];
    obb2_init(&pool[i], c, e, angle);
  }
}

static void make_pool3(obb3 *pool, const double (*unit)[3], double spread,
                       unsigned long long seed) {
  int i, k;
  for (i = 0; i < POOL; i++) {
    double c[3], e[3], q[4];
    for (k = 0; k < 3; k++) {
      c[k] = spread * unit[i][k];
      e[k] = uniform(&seed, 0.1, 1.0);
    }
    for (k = 0; k < 4; k++) q[k] = uniform(&seed, -1.0, 1.0);
    if (obb3_init(&pool[i], c, e, q) != OBB_OK) { /* q = 0: vanishingly rare */
      q[3] = 1.0;
      obb3_init(&pool[i], c, e, q);
    }
  }
}

static long count2(test2_fn f, const obb2 *pool, const pairs *p, long n) {
  long k, hits = 0;
  for (k = 0; k < n; k++) hits += f(&pool[p->a[k]], &pool[p->b[k]]);
  return hits;
}

static long count3(test3_fn f, const obb3 *pool, const pairs *p, long n) {
  long k, hits = 0;
  for (k = 0; k < n; k++) hits += f(&pool[p->a[k]], &pool[p->b[k]]);
  return hits;
}

/* The spread at which about half the first 100,000 pairs overlap. */
static double tune2(obb2 *pool, const double (*unit)[3], const pairs *p,
                    unsigned long long seed) {
  double lo = 0.01, hi = 1000.0;
  long n = p->n < 100000 ? p->n : 100000;
  int it;
  for (it = 0; it < 40; it++) {
    double mid = sqrt(lo * hi);
    make_pool2(pool, unit, mid, seed);
    if (count2(obb2_intersects, pool, p, n) * 2 > n) lo = mid; else hi = mid;
  }
  return sqrt(lo * hi);
}

static double tune3(obb3 *pool, const double (*unit)[3], const pairs *p,
                    unsigned long long seed) {
  double lo = 0.01, hi = 1000.0;
  long n = p->n < 100000 ? p->n : 100000;
  int it;
  for (it = 0; it < 40; it++) {
    double mid = sqrt(lo * hi);
    make_pool3(pool, unit, mid, seed);
    if (count3(obb3_intersects, pool, p, n) * 2 > n) lo = mid; else hi = mid;
  }
  return sqrt(lo * hi);
}

/* ---- timing ---------------------------------------------------------- */

#define MAX_RUNS 99

/* Median seconds per test; the function pointer is read from a volatile so
** the call cannot be inlined or specialised. */
static double time2(test2_fn f, const obb2 *pool, const pairs *p, int runs,
                    long *hits) {
  test2_fn volatile vf = f;
  double xs[MAX_RUNS];
  int r;
  *hits = count2(vf, pool, p, p->n); /* warm-up */
  for (r = 0; r < runs; r++) {
    double t0 = cpu_seconds();
    long h = count2(vf, pool, p, p->n);
    xs[r] = (cpu_seconds() - t0) / (double)p->n;
    if (h != *hits) {
      fprintf(stderr, "core_bench: results changed between runs\n");
      exit(1);
    }
  }
  return median(xs, runs);
}

static double time3(test3_fn f, const obb3 *pool, const pairs *p, int runs,
                    long *hits) {
  test3_fn volatile vf = f;
  double xs[MAX_RUNS];
  int r;
  *hits = count3(vf, pool, p, p->n);
  for (r = 0; r < runs; r++) {
    double t0 = cpu_seconds();
    long h = count3(vf, pool, p, p->n);
    xs[r] = (cpu_seconds() - t0) / (double)p->n;
    if (h != *hits) {
      fprintf(stderr, "core_bench: results changed between runs\n");
      exit(1);
    }
  }
  return median(xs, runs);
}


/* ---- sweeps ----------------------------------------------------------- */

typedef struct case2 {
  obb2 a, b;
  double va[2], vb[2], wa, wb;
} case2;

typedef struct case3 {
  obb3 a, b;
  double va[3], vb[3], ra[3], rb[3];
} case3;

typedef int (*sweep2_fn)(const case2 *, double *, double *);
typedef int (*sweep3_fn)(const case3 *, double *, double *);

static int trans2(const case2 *c, double *t, double *n) {
  return obb2_sweep(&c->a, &c->b, c->va, c->vb, t, n);
}
static int turn2(const case2 *c, double *t, double *n) {
  return obb2_sweep_turning(&c->a, &c->b, c->va, c->vb, c->wa, c->wb, t, n);
}
static int trans3(const case3 *c, double *t, double *n) {
  return obb3_sweep(&c->a, &c->b, c->va, c->vb, t, n);
}
static int turn3(const case3 *c, double *t, double *n) {
  return obb3_sweep_turning(&c->a, &c->b, c->va, c->vb, c->ra, c->rb, t, n);
}

static void random_axis(unsigned long long *s, double k[3]) {
  double l;
  do {
    k[0] = uniform(s, -1, 1); k[1] = uniform(s, -1, 1); k[2] = uniform(s, -1, 1);
    l = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
  } while (l < 0.1 || l > 1);
  k[0] /= l; k[1] /= l; k[2] /= l;
}

static void random_box2(unsigned long long *s, obb2 *b) {
  double c[2], e[2];
  c[0] = uniform(s, -4, 4); c[1] = uniform(s, -4, 4);
  e[0] = uniform(s, 0.05, 2); e[1] = uniform(s, 0.05, 2);
  obb2_init(b, c, e, uniform(s, -3.14159265, 3.14159265));
}

static void random_box3(unsigned long long *s, obb3 *b) {
  double c[3], e[3], q[4];
  int k;
  for (k = 0; k < 3; k++) {
    c[k] = uniform(s, -4, 4);
    e[k] = uniform(s, 0.05, 2);
  }
  do {
    for (k = 0; k < 4; k++) q[k] = uniform(s, -1, 1);
  } while (obb3_init(b, c, e, q) != OBB_OK);
}

#define QUARTER 1.5707963267948966
#define PI_ 3.14159265358979323846

/* A turn of lo to hi radians, either way. */
static double turn_of(unsigned long long *s, double lo, double hi) {
  double w = uniform(s, lo, hi);
  return rnd(s) < 0.5 ? -w : w;
}

static void random_cases2(case2 *c, long n, double lo, double hi,
                          unsigned long long *s) {
  long i;
  for (i = 0; i < n; i++) {
    random_box2(s, &c[i].a);
    random_box2(s, &c[i].b);
    c[i].va[0] = uniform(s, -6, 6); c[i].va[1] = uniform(s, -6, 6);
    c[i].vb[0] = uniform(s, -6, 6); c[i].vb[1] = uniform(s, -6, 6);
    c[i].wa = turn_of(s, lo, hi);
    c[i].wb = turn_of(s, lo, hi);
  }
}

static void random_cases3(case3 *c, long n, double lo, double hi,
                          unsigned long long *s) {
  long i;
  int k;
  for (i = 0; i < n; i++) {
    double ka[3], kb[3], wa, wb;
    random_box3(s, &c[i].a);
    random_box3(s, &c[i].b);
    random_axis(s, ka);
    random_axis(s, kb);
    wa = turn_of(s, lo, hi);
    wb = turn_of(s, lo, hi);
    for (k = 0; k < 3; k++) {
      c[i].va[k] = uniform(s, -6, 6);
      c[i].vb[k] = uniform(s, -6, 6);
      c[i].ra[k] = ka[k] * wa;
      c[i].rb[k] = kb[k] * wb;
    }
  }
}

/* A car (a) at the origin heading th, a barrier (b) within 10 of it. */
static void racing_cases2(case2 *c, long n, unsigned long long *s) {
  long i;
  for (i = 0; i < n; i++) {
    double ca[2] = {0, 0}, ea[2] = {2, 1}, cb[2], eb[2], th, v;
    th = uniform(s, -3.14159265, 3.14159265);
    v = uniform(s, 2, 8);
    obb2_init(&c[i].a, ca, ea, th);
    c[i].va[0] = v * cos(th); c[i].va[1] = v * sin(th);
    c[i].wa = uniform(s, -0.15, 0.15);
    cb[0] = uniform(s, -10, 10); cb[1] = uniform(s, -10, 10);
    eb[0] = uniform(s, 1, 6); eb[1] = 0.05;
    obb2_init(&c[i].b, cb, eb, uniform(s, -3.14159265, 3.14159265));
    c[i].vb[0] = c[i].vb[1] = 0;
    c[i].wb = 0;
  }
}

static void racing_cases3(case3 *c, long n, unsigned long long *s) {
  long i;
  int k;
  for (i = 0; i < n; i++) {
    double ca[3] = {0, 0, 0.7}, ea[3] = {2, 1, 0.7}, cb[3], eb[3], q[4];
    double th = uniform(s, -3.14159265, 3.14159265), v = uniform(s, 2, 8), ph;
    q[0] = q[1] = 0; q[2] = sin(th / 2); q[3] = cos(th / 2);
    obb3_init(&c[i].a, ca, ea, q);
    c[i].va[0] = v * cos(th); c[i].va[1] = v * sin(th); c[i].va[2] = 0;
    c[i].ra[0] = c[i].ra[1] = 0;
    c[i].ra[2] = uniform(s, -0.15, 0.15);
    cb[0] = uniform(s, -10, 10); cb[1] = uniform(s, -10, 10); cb[2] = 1;
    eb[0] = uniform(s, 1, 6); eb[1] = 0.05; eb[2] = 1;
    ph = uniform(s, -3.14159265, 3.14159265);
    q[2] = sin(ph / 2); q[3] = cos(ph / 2);
    obb3_init(&c[i].b, cb, eb, q);
    for (k = 0; k < 3; k++) c[i].vb[k] = c[i].rb[k] = 0;
  }
}

/* Median seconds per sweep; counts[r] how many answered r (0, 1, 2). */
static double time_sweeps2(sweep2_fn f, const case2 *c, long n, int runs,
                           long counts[3]) {
  sweep2_fn volatile vf = f;
  double xs[MAX_RUNS], t, nn[2];
  long i;
  int r;
  counts[0] = counts[1] = counts[2] = 0;
  for (i = 0; i < n; i++) counts[vf(&c[i], &t, nn)]++;
  for (r = 0; r < runs; r++) {
    double t0 = cpu_seconds();
    for (i = 0; i < n; i++) vf(&c[i], &t, nn);
    xs[r] = (cpu_seconds() - t0) / (double)n;
  }
  return median(xs, runs);
}

static double time_sweeps3(sweep3_fn f, const case3 *c, long n, int runs,
                           long counts[3]) {
  sweep3_fn volatile vf = f;
  double xs[MAX_RUNS], t, nn[3];
  long i;
  int r;
  counts[0] = counts[1] = counts[2] = 0;
  for (i = 0; i < n; i++) counts[vf(&c[i], &t, nn)]++;
  for (r = 0; r < runs; r++) {
    double t0 = cpu_seconds();
    for (i = 0; i < n; i++) vf(&c[i], &t, nn);
    xs[r] = (cpu_seconds() - t0) / (double)n;
  }
  return median(xs, runs);
}

static void sweep_rows(long n, int runs, unsigned long long *s) {
  case2 *c2 = malloc((size_t)n * sizeof *c2);
  case3 *c3 = malloc((size_t)n * sizeof *c3);
  const char *scene[3] = {"random pairs", "racing scene",
                          "spinning pi to 6 pi"};
  int sc;
  if (c2 == NULL || c3 == NULL) {
    fprintf(stderr, "core_bench: out of memory\n");
    exit(1);
  }
  printf("section\tC core: turning sweeps against the same pairs not turning, "
         "%ld pairs per scene, median of %d runs\n", n, runs);
  for (sc = 0; sc < 3; sc++) {
    long k2[3], k2t[3], k3[3], k3t[3];
    double t2, t2t, t3, t3t;
    if (sc == 0) {
      random_cases2(c2, n, 0, QUARTER, s);
      random_cases3(c3, n, 0, QUARTER, s);
    } else if (sc == 1) {
      racing_cases2(c2, n, s);
      racing_cases3(c3, n, s);
    } else {
      random_cases2(c2, n, PI_, 6 * PI_, s);
      random_cases3(c3, n, PI_, 6 * PI_, s);
    }
    t2 = time_sweeps2(trans2, c2, n, runs, k2);
    t2t = time_sweeps2(turn2, c2, n, runs, k2t);
    t3 = time_sweeps3(trans3, c3, n, runs, k3);
    t3t = time_sweeps3(turn3, c3, n, runs, k3t);
    printf("row\tobb2_sweep_turning, %s\t%.6g\tobb2_sweep, not turning\t%.6g\n",
           scene[sc], t2t, t2);
    printf("row\tobb3_sweep_turning, %s\t%.6g\tobb3_sweep, not turning\t%.6g\n",
           scene[sc], t3t, t3);
    printf("note\t%s: turning / translational time %.1fx (2D), %.1fx (3D); "
           "hits %.1f%% (2D), %.1f%% (3D) turning, %.1f%%, %.1f%% not; "
           "\"limit\" %ld of %ld (2D), %ld of %ld (3D)\n",
           scene[sc], t2t / t2, t3t / t3, 100.0 * (double)k2t[1] / (double)n,
           100.0 * (double)k3t[1] / (double)n,
           100.0 * (double)k2[1] / (double)n, 100.0 * (double)k3[1] / (double)n,
           k2t[2], n, k3t[2], n);
  }
  free(c2);
  free(c3);
}

/* ---- sine and cosine -------------------------------------------------- */

static void libm_sincos(double a, double *s, double *c) {
  *s = sin(a);
  *c = cos(a);
}

static double sum_sincos(sincos_fn f, const double *angles, long n) {
  double sum = 0.0;
  long k;
  for (k = 0; k < n; k++) {
    double s, c;
    f(angles[k], &s, &c);
    sum += s + c;
  }
  return sum;
}

/* Median seconds per call of f(angle, &s, &c). */
static double time_sincos(sincos_fn f, const double *angles, long n,
                          int runs) {
  sincos_fn volatile vf = f;
  double xs[MAX_RUNS], sum = sum_sincos(vf, angles, n); /* warm-up */
  int r;
  for (r = 0; r < runs; r++) {
    double t0 = cpu_seconds();
    double again = sum_sincos(vf, angles, n);
    xs[r] = (cpu_seconds() - t0) / (double)n;
    if (again != sum) {
      fprintf(stderr, "core_bench: results changed between runs\n");
      exit(1);
    }
  }
  return median(xs, runs);
}

/* Pairs on which two tests disagree: a correctness check, not a timing. */
static long disagree2(test2_fn f, test2_fn g, const obb2 *pool,
                      const pairs *p) {
  long k, n = 0;
  for (k = 0; k < p->n; k++) {
    const obb2 *a = &pool[p->a[k]], *b = &pool[p->b[k]];
    n += !f(a, b) != !g(a, b);
  }
  return n;
}

static long disagree3(test3_fn f, test3_fn g, const obb3 *pool,
                      const pairs *p) {
  long k, n = 0;
  for (k = 0; k < p->n; k++) {
    const obb3 *a = &pool[p->a[k]], *b = &pool[p->b[k]];
    n += !f(a, b) != !g(a, b);
  }
  return n;
}

int main(int argc, char **argv) {
  static double unit[POOL][3];
  static obb2 pool2[POOL];
  static obb3 pool3[POOL];
  unsigned long long s = 0x9E3779B97F4A7C15ULL;
  long npairs = argc > 1 ? atol(argv[1]) : 1000000;
  int runs = argc > 2 ? atoi(argv[2]) : 7, i, k;
  long hits, ref_hits;
  double t, tref;
  pairs p;

  if (npairs < 1 || runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "usage: core_bench [pairs >= 1 [runs 1..%d]]\n",
            MAX_RUNS);
    return 2;
  }
  for (i = 0; i < POOL; i++)
    for (k = 0; k < 3; k++) unit[i][k] = uniform(&s, -1.0, 1.0);
  make_pairs(&p, npairs, &s);

  make_pool2(pool2, (const double (*)[3])unit,
             tune2(pool2, (const double (*)[3])unit, &p, 11), 11);
  t = time2(obb2_intersects, pool2, &p, runs, &hits);
  tref = time2(ref2_corners, pool2, &p, runs, &ref_hits);
  printf("section\tC core, built with the Makefile's CFLAGS: %ld random pairs from a pool of "
         "%d boxes, median of %d runs\n", p.n, POOL, runs);
  printf("row\tobb2_intersects (%.1f%% of pairs overlap)\t%.6g\t"
         "2D corner projection (C)\t%.6g\n", 100.0 * (double)hits /
         (double)p.n, t, tref);
  printf("note\t2D: %ld of %ld pairs answered differently by the "
         "reference\n", disagree2(obb2_intersects, ref2_corners, pool2, &p),
         p.n);
  printf("row\tloop and call alone, 2D (floor)\t%.6g\n",
         time2(floor2, pool2, &p, runs, &ref_hits));

  make_pool3(pool3, (const double (*)[3])unit,
             tune3(pool3, (const double (*)[3])unit, &p, 12), 12);
  t = time3(obb3_intersects, pool3, &p, runs, &hits);
  tref = time3(ref3_ericson, pool3, &p, runs, &ref_hits);
  printf("row\tobb3_intersects (%.1f%% of pairs overlap)\t%.6g\t"
         "3D plain 15-axis (C)\t%.6g\n", 100.0 * (double)hits / (double)p.n,
         t, tref);
  printf("note\t3D: %ld of %ld pairs answered differently by the "
         "reference\n", disagree3(obb3_intersects, ref3_ericson, pool3, &p),
         p.n);
  printf("row\tloop and call alone, 3D (floor)\t%.6g\n",
         time3(floor3, pool3, &p, runs, &ref_hits));

  sweep_rows(p.n / 10 > 0 ? p.n / 10 : 1, runs, &s);

  {
    double *angles = malloc((size_t)p.n * sizeof *angles);
    long j, differ = 0, further = 0;
    if (angles == NULL) {
      fprintf(stderr, "core_bench: out of memory\n");
      return 1;
    }
    for (j = 0; j < p.n; j++) angles[j] = uniform(&s, -8.0, 8.0);
    t = time_sincos(obb_sincos, angles, p.n, runs);
    tref = time_sincos(libm_sincos, angles, p.n, runs);
    printf("row\tobb_sincos (random angles in [-8, 8])\t%.6g\t"
           "libm sin+cos (C)\t%.6g\n", t, tref);
    /* how often the two differ, and whether ever by more than one step */
    for (j = 0; j < p.n; j++) {
      double got[2], want[2];
      int m;
      obb_sincos(angles[j], &got[0], &got[1]);
      libm_sincos(angles[j], &want[0], &want[1]);
      for (m = 0; m < 2; m++) {
        differ += got[m] != want[m];
        further += got[m] != want[m] &&
                   got[m] != nextafter(want[m], HUGE_VAL) &&
                   got[m] != nextafter(want[m], -HUGE_VAL);
      }
    }
    printf("note\tsincos: %.2f%% of obb_sincos's results differ from libm's, "
           "%ld of them by more than one ulp\n",
           100.0 * (double)differ / (2.0 * (double)p.n), further);
    free(angles);
  }

  printf("bytes\tsizeof(obb2)\t%u\n", (unsigned)sizeof(obb2));
  printf("bytes\tsizeof(obb3)\t%u\n", (unsigned)sizeof(obb3));
  free(p.a);
  free(p.b);
  return 0;
}
