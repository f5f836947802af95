/*
** bench/world_bench.c: the C core's world (obb_world.c) against the
** brute-force O(n^2) loop, without Lua.
**
**   world_bench [frames]        default 20 frames per scene
**
** Scenes of 1,000, 10,000 and 50,000 2D boxes, each frame moving every box
** (a random walk: velocity and spin, bouncing off the walls), updating it in
** the world and collecting every intersecting pair, exact test included:
**   walk      uniform spread, about one neighbour per box;
**   cluster   the same boxes crowded into 8 tight clusters;
**   mixed     half extents from 0.05 to 40 (log-uniform), a few huge;
**   static    the walk scene with 90% of the boxes never moving.
** The scenes and their motion are bench/world.lua's, draw for draw (the
** same generator and seed), so its Lua frames and these C frames move the
** very same boxes. The brute-force loop tests every pair (bounding boxes
** first, then the exact test) on the same boxes; it runs one frame (it is
** slow) and must find the same number of pairs, or the bench fails.
**
** Output lines for bench/world.lua, tab-separated:
**   "world <scene> <n> <seconds per frame> <pairs> <bytes>"
**   "brute <scene> <n> <seconds per frame> <pairs>"
*/
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "obb_world.h"

typedef struct body {
  double x, y, vx, vy, a, va, hx, hy;
  int id, moves;
} body;

typedef struct scene {
  body *b;
  int n;
  double size; /* the square's side */
} scene;

/* bench/world.lua's rng(): Park and Miller's minimal standard generator,
** which every Lua computes alike in doubles (products stay below 2^53). */
static double rnd(unsigned long long *s) {
  *s = (*s * 16807ULL) % 2147483647ULL;
  return (double)*s / 2147483647.0;
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void make_scene(scene *sc, const char *kind, int n,
                       unsigned long long *s) {
  int i;
  sc->n = n;
  sc->size = sqrt((double)n) * 4.0; /* 16 units of area per box */
  sc->b = (body *)malloc((size_t)n * sizeof(body));
  if (sc->b == NULL) {
    fprintf(stderr, "world_bench: out of memory\n");
    exit(1);
  }
  for (i = 0; i < n; i++) {
    body *b = &sc->b[i];
    b->x = rnd(s) * sc->size;
    b->y = rnd(s) * sc->size;
    b->hx = 0.5 + rnd(s);
    b->hy = 0.5 + rnd(s);
    b->moves = 1;
    if (strcmp(kind, "cluster") == 0) {
      /* 8 clusters, each a gaussian-ish blob a tenth of the square wide */
      int c = i % 8;
      double cx = sc->size * (0.2 + 0.6 * ((c * 37) % 8) / 7.0);
      double cy = sc->size * (0.2 + 0.6 * ((c * 11) % 8) / 7.0);
      double r1 = rnd(s), r2 = rnd(s), r3 = rnd(s); /* in Lua's order */
      double r = sc->size * 0.05 * (r1 + r2 + r3) / 3;
      double t = rnd(s) * 6.283185307179586;
      b->x = cx + r * cos(t);
      b->y = cy + r * sin(t);
    } else if (strcmp(kind, "mixed") == 0) {
      double k = exp(log(0.05) + rnd(s) * (log(40.0) - log(0.05)));
      b->hx = k * (0.5 + rnd(s));
      b->hy = k * (0.5 + rnd(s));
      if (i % 1000 == 0) { b->hx *= 10; b->hy *= 10; } /* a few huge */
    } else if (strcmp(kind, "static") == 0) {
      b->moves = i % 10 == 0;
    }
    b->vx = (rnd(s) - 0.5) * 0.2;
    b->vy = (rnd(s) - 0.5) * 0.2;
    b->a = rnd(s) * 6.283185307179586;
    b->va = (rnd(s) - 0.5) * 0.1;
  }
}

static void step(scene *sc) {
  int i;
  for (i = 0; i < sc->n; i++) {
    body *b = &sc->b[i];
    if (!b->moves) continue;
    b->x += b->vx;
    b->y += b->vy;
    b->a += b->va;
    if (b->x < 0 || b->x > sc->size) b->vx = -b->vx;
    if (b->y < 0 || b->y > sc->size) b->vy = -b->vy;
  }
}

static void to_box(const body *b, obb2 *o) {
  double c[2], e[2];
  c[0] = b->x; c[1] = b->y;
  e[0] = b->hx; e[1] = b->hy;
  obb2_init(o, c, e, b->a);
}

static void count_pair(void *ctx, int a, int b) {
  (void)a; (void)b;
  ++*(long *)ctx;
}

static double run_world(scene *sc, int frames, long *pairs, size_t *bytes) {
  obb_world *w = obb_world_new(2, -1, NULL, NULL);
  double t0, t;
  int i, f;
  obb2 o;
  if (w == NULL) exit(1);
  for (i = 0; i < sc->n; i++) {
    to_box(&sc->b[i], &o);
    sc->b[i].id = obb_world_add(w, &o);
    if (sc->b[i].id < 0) exit(1);
  }
  t0 = cpu_seconds();
  for (f = 0; f < frames; f++) {
    step(sc);
    for (i = 0; i < sc->n; i++) {
      if (!sc->b[i].moves) continue;
      to_box(&sc->b[i], &o);
      obb_world_update(w, sc->b[i].id, &o);
    }
    *pairs = 0;
    if (obb_world_pairs(w, count_pair, pairs) != 0) exit(1);
  }
  t = (cpu_seconds() - t0) / frames;
  *bytes = obb_world_memory(w);
  obb_world_free(w);
  return t;
}

/* Every pair: bounding boxes first (cheap), then the exact test. */
static double run_brute(scene *sc, long *pairs) {
  obb2 *o = (obb2 *)malloc((size_t)sc->n * sizeof(obb2));
  double *bb = (double *)malloc((size_t)sc->n * 4 * sizeof(double));
  double t0, t;
  int i, j;
  if (o == NULL || bb == NULL) exit(1);
  t0 = cpu_seconds();
  step(sc);
  for (i = 0; i < sc->n; i++) {
    to_box(&sc->b[i], &o[i]);
    obb2_aabb(&o[i], bb + 4 * i);
  }
  *pairs = 0;
  for (i = 0; i < sc->n; i++) {
    const double *a = bb + 4 * i;
    for (j = i + 1; j < sc->n; j++) {
      const double *b = bb + 4 * j;
      if (a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3] &&
          obb2_intersects(&o[i], &o[j]))
        ++*pairs;
    }
  }
  t = cpu_seconds() - t0;
  free(o);
  free(bb);
  return t;
}

int main(int argc, char **argv) {
  static const char *kinds[] = {"walk", "cluster", "mixed", "static"};
  static const int sizes[] = {1000, 10000, 50000};
  int frames = argc > 1 ? atoi(argv[1]) : 20, k, s;
  if (frames < 1) frames = 1;
  for (k = 0; k < 4; k++) {
    for (s = 0; s < 3; s++) {
      unsigned long long seed = 12345ULL + (unsigned)sizes[s];
      scene sc;
      long pairs = 0, bpairs = 0;
      size_t bytes = 0;
      double t, tb;
      make_scene(&sc, kinds[k], sizes[s], &seed);
      t = run_world(&sc, frames, &pairs, &bytes);
      printf("world\t%s\t%d\t%.6g\t%ld\t%lu\n", kinds[k], sc.n, t, pairs,
             (unsigned long)bytes);
      fflush(stdout);
      /* The brute force runs the next frame of the same boxes; the world
      ** counts that frame again for the comparison. */
      if (strcmp(kinds[k], "walk") == 0 || sizes[s] <= 10000) {
        scene copy = sc;
        copy.b = (body *)malloc((size_t)sc.n * sizeof(body));
        if (copy.b == NULL) exit(1);
        memcpy(copy.b, sc.b, (size_t)sc.n * sizeof(body));
        tb = run_brute(&sc, &bpairs);
        run_world(&copy, 1, &pairs, &bytes);
        if (pairs != bpairs) {
          fprintf(stderr, "world_bench: %s %d: world found %ld pairs, brute "
                  "force %ld\n", kinds[k], sc.n, pairs, bpairs);
          return 1;
        }
        printf("brute\t%s\t%d\t%.6g\t%ld\n", kinds[k], sc.n, tb, bpairs);
        fflush(stdout);
        free(copy.b);
      }
      free(sc.b);
    }
  }
  return 0;
}
