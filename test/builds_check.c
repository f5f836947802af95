/*
** builds_check.c: `make check-builds`. The 3D test comes in three builds
** that must answer identically on every pair (src/core/obb3.c): the
** scalar reference, pairs of doubles (SSE2/NEON) and, where the processor
** has it, four doubles (AVX2). The Makefile compiles this file with the
** core three times (-U__SSE2__ -DOBB_NO_AVX2, -DOBB_NO_AVX2, default);
** each run prints a digest of the verdicts over the same pairs, and the
** digests must be equal.
**
** The pairs are those where builds could part: random boxes, and boxes
** touching a face of another, moved off it (or into it) by a few ulps or
** by 0.5 to 2 touching bands, where the verdict turns.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "obb.h"

static uint64_t state = 88172645463325252ULL;

static double uniform(void) { /* xorshift64, in [0, 1) */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (double)(state >> 11) * 0x1p-53;
}

static double range(double lo, double hi) { return lo + (hi - lo) * uniform(); }

static void random_box(obb3 *b) {
  double c[3], e[3], q[4];
  int i;
  for (i = 0; i < 3; i++) {
    c[i] = uniform() < 0.25 ? 0 : range(-1, 1) * pow(10, range(-3, 7));
    e[i] = uniform() < 0.06 ? 0 : pow(10, range(-6, 6));
  }
  for (i = 0; i < 4; i++) q[i] = uniform() < 0.2 ? 0 : range(-1, 1);
  if (q[3] == 0 && q[0] == 0 && q[1] == 0 && q[2] == 0) q[3] = 1;
  obb3_init(b, c, e, q);
}

/* b moved onto a face of a (b's support vertex on a random point of it),
** then off or into it by a little. */
static void near_pair(obb3 *a, obb3 *b) {
  double f[3], c[3], band;
  int k = (int)(uniform() * 3), i, j;
  double sgn = uniform() < 0.5 ? -1 : 1;
  random_box(a);
  random_box(b);
  for (i = 0; i < 3; i++) f[i] = a->c[i] + sgn * a->e[k] * a->u[k][i];
  for (j = 0; j < 3; j++) {
    double t = j == k ? 0 : a->e[j] * range(-1, 1);
    double side = (b->u[j][0] * a->u[k][0] + b->u[j][1] * a->u[k][1] +
                   b->u[j][2] * a->u[k][2]) * sgn > 0 ? -1 : 1;
    for (i = 0; i < 3; i++)
      f[i] += t * a->u[j][i] - side * b->e[j] * b->u[j][i];
  }
  band = OBB_TOUCH_REL * (a->e[0] + a->e[1] + a->e[2] + b->e[0] + b->e[1] +
                          b->e[2]);
  for (i = 0; i < 3; i++)
    c[i] = uniform() < 0.5
               ? f[i] * (1 + floor(range(-6, 7)) * 0x1p-53)
               : f[i] + sgn * range(-2, 2) * band * a->u[k][i];
  obb3_translate(b, (double[3]){c[0] - b->c[0], c[1] - b->c[1], c[2] - b->c[2]});
}

int main(void) {
  uint64_t digest = 1469598103934665603ULL;
  long hits = 0, n;
  for (n = 0; n < 2000000; n++) {
    obb3 a, b;
    int r;
    if (n & 1) near_pair(&a, &b);
    else { random_box(&a); random_box(&b); }
    r = obb3_intersects(&a, &b) | obb3_intersects(&b, &a) << 1;
    hits += r & 1;
    digest = (digest ^ (uint64_t)r) * 1099511628211ULL;
  }
  printf("%016llx %ld\n", (unsigned long long)digest, hits);
  return 0;
}
