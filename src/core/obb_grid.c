/*
** obb_grid.c: all overlapping pairs by a hierarchical grid (obb_grid.h).
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "obb_grid.h"

#define MAX_LEVELS 64 /* distinct levels (size classes) kept apart */
#define MAX_LEVEL 1074 /* 2^-1074 is the smallest double above 0 */
/* The finest cells: side 2^-1022, the smallest normal double, so that a
** level's scale 2^-level stays finite (2^1080 overflowed, and boxes of
** subnormal size got no cells at all: world pairs missed them). Smaller
** boxes share these cells; coarser is always correct. */
#define MIN_LEVEL (-1022)
#define NLEVELS ((MAX_LEVEL - MIN_LEVEL) / 2 + 1) /* even levels only */
#define LEVEL_INDEX(lev) (((lev) - MIN_LEVEL) / 2)

typedef struct gbox { /* a present box, in index order */
  long long c[3]; /* its corner cell (0 on axes beyond dim) */
  int id;         /* its index in the caller's array */
  int level;      /* its level, then that level's index in lv[] */
} gbox;

/* A box filed under its cell: the sorted copy the pair loops read. */
typedef struct gent {
  double lo[3], hi[3];
  int id, level;
} gent;

typedef struct gcell { /* a cell of a sparse (hashed) level */
  long long k[3];
  int level;
  int slot; /* its slot in the hash table, to empty it after */
} gcell;

typedef struct glevel {
  long long lo[3], hi[3]; /* bounds of its boxes' corner cells */
  long long o[3], w[3];   /* a dense level's first cell and extent, with
                          ** a border of empty cells: no neighbour of an
                          ** occupied cell falls outside, so the pair loops
                          ** need no bounds checks */
  size_t base;            /* a dense level's first slot */
  double scale;           /* 2^-level */
  int count, dense;
} glevel;


void obb_grid_init(obb_grid *g, obb_alloc alloc, void *ud) {
  memset(g, 0, sizeof *g);
  g->alloc = alloc;
  g->ud = ud;
}

void obb_grid_free(obb_grid *g) {
  if (g->boxes) g->alloc(g->ud, g->boxes, g->boxes_cap, 0);
  if (g->entries) g->alloc(g->ud, g->entries, g->entries_cap, 0);
  if (g->ints) g->alloc(g->ud, g->ints, g->ints_cap, 0);
  if (g->slots) g->alloc(g->ud, g->slots, g->slots_cap, 0);
  if (g->cells) g->alloc(g->ud, g->cells, g->cells_cap, 0);
  g->boxes = g->entries = g->ints = g->slots = g->cells = NULL;
  g->boxes_cap = g->entries_cap = g->ints_cap = g->slots_cap = 0;
  g->cells_cap = 0;
}

size_t obb_grid_memory(const obb_grid *g) {
  return g->boxes_cap + g->entries_cap + g->ints_cap + g->slots_cap +
         g->cells_cap;
}

static int ensure(obb_grid *g, void **p, size_t *cap, size_t need) {
  void *q;
  if (need <= *cap) return 1;
  if (need < ((size_t)-1) / 2) need += need / 2; /* room to grow */
  /* free first: the contents are rebuilt every call anyway */
  if (*p) g->alloc(g->ud, *p, *cap, 0);
  *p = NULL;
  *cap = 0;
  q = g->alloc(g->ud, NULL, 0, need);
  if (q == NULL) return 0;
  *p = q;
  *cap = need;
  return 1;
}

/* The cell coordinate of x at a level, x * 2^-level rounded down: scaling
** by a power of two is exact (or at worst rounds monotonically), so a point
** inside a box always falls in one of the box's cells. */
static long long cell_of(double x, double scale) {
  double v;
  /* Bounds of a box near DBL_MAX may have overflowed to infinity; they
  ** count as +-DBL_MAX, which still lies beyond every finite point. */
  if (x > DBL_MAX) x = DBL_MAX;
  else if (x < -DBL_MAX) x = -DBL_MAX;
  v = x * scale;
  if (!(v > -4e18)) v = -4e18; /* unreachable: cell numbers are < 2^41 */
  if (v > 4e18) v = 4e18;
  {
    /* floor without a libm call (not inlined on baseline x86-64) */
    long long k = (long long)v;
    return (double)k > v ? k - 1 : k;
  }
}

/* ilogb for a finite x > 0, from the exponent bits when x is normal. */
static int exponent_of(double x) {
  unsigned long long bits;
  int ex;
  memcpy(&bits, &x, sizeof bits);
  ex = (int)((bits >> 52) & 0x7FF);
  return ex != 0 ? ex - 1023 : ilogb(x);
}

static unsigned long long hash_key(const long long k[3], int level) {
  unsigned long long h = (unsigned long long)k[0] * 0x9E3779B97F4A7C15ULL;
  h ^= (unsigned long long)k[1] * 0xC2B2AE3D27D4EB4FULL;
  h ^= (unsigned long long)k[2] * 0x165667B19E3779F9ULL;
  h ^= (unsigned long long)(unsigned)level * 0x27D4EB2F165667C5ULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  return h;
}

/* The slot of cell k at a level, or the empty slot where it would go. */
static int *find_slot(int *s, const gcell *cell, size_t mask,
                      const long long k[3], int level) {
  size_t i = (size_t)hash_key(k, level) & mask;
  for (;;) {
    const gcell *p;
    if (s[i] < 0) return &s[i];
    p = &cell[s[i]];
    if (p->level == level && p->k[0] == k[0] && p->k[1] == k[1] &&
        p->k[2] == k[2])
      return &s[i];
    i = (i + 1) & mask;
  }
}

static const double *box_at(const void *base, size_t stride, int i) {
  return (const double *)(const void *)((const char *)base +
                                        (size_t)i * stride);
}

/* Grows the slot table to nslots (all empty) when it is smaller. */
static int ensure_slots(obb_grid *g, size_t nslots) {
  size_t i;
  int *sl;
  if (nslots * sizeof(int) <= g->slots_cap) return 1;
  if (g->slots) g->alloc(g->ud, g->slots, g->slots_cap, 0);
  g->slots = g->alloc(g->ud, NULL, 0, nslots * sizeof(int));
  g->slots_cap = g->slots ? nslots * sizeof(int) : 0;
  if (g->slots == NULL) return 0;
  sl = (int *)g->slots;
  for (i = 0; i < nslots; i++) sl[i] = -1;
  return 1;
}

/* Candidate pairs are collected here and handed over a batch at a time:
** the loops that find them then have no call in them, and the caller's
** exact tests run back to back. */
#define BATCH 512

/* What the pair loops share. Slot s (a dense level's cell, or a hashed
** cell after all dense ones) holds entries end[s - 1] .. end[s] - 1, and
** end[-1] is 0. */
typedef struct grid_run {
  const gent *en;
  const int *end;
  const glevel *lv;
  const int *sl;   /* hash slots: cell number */
  const gcell *cell;
  size_t mask, hashed0; /* the first hashed cell's slot */
  int dim;
  int n;           /* pairs in ab */
  obb_grid_pairs_fn f;
  void *ctx;
  int ab[2 * BATCH];
} grid_run;

/* A dense level's slot of cell k. */
static size_t dense_slot(const glevel *v, const long long k[3]) {
  return v->base + (size_t)(((k[2] - v->o[2]) * v->w[1] + (k[1] - v->o[1])) *
                                v->w[0] + (k[0] - v->o[0]));
}

/* The slot of cell k at level index l, or -1 when no box is filed there. */
static long slot_at(const grid_run *r, int l, const long long k[3]) {
  const glevel *v = &r->lv[l];
  int j;
  for (j = 0; j < 3; j++)
    if (k[j] < v->lo[j] || k[j] > v->hi[j]) return -1;
  if (v->dense) {
    return (long)dense_slot(v, k);
  } else {
    int c = *find_slot((int *)r->sl, r->cell, r->mask, k, l);
    return c < 0 ? -1 : (long)(r->hashed0 + (size_t)c);
  }
}

static void flush(grid_run *r) {
  if (r->n > 0) r->f(r->ctx, r->ab, r->n);
  r->n = 0;
}

/* Whether two entries' bounds overlap, as 0 or 1 without a branch. */
static inline int overlap2(const gent *a, const gent *b) {
  return (a->lo[0] <= b->hi[0]) & (b->lo[0] <= a->hi[0]) &
         (a->lo[1] <= b->hi[1]) & (b->lo[1] <= a->hi[1]);
}

static inline int overlap3(const gent *a, const gent *b) {
  return overlap2(a, b) & (a->lo[2] <= b->hi[2]) & (b->lo[2] <= a->hi[2]);
}

/* Entry a against entries p .. q - 1: every pair is written and kept only
** when the bounds overlap (the count moves by the test's 0 or 1), so the
** loop has no branch on a test whose outcome is a coin toss. */
static inline void scan(grid_run *r, const gent *a, int p, int q, int dim) {
  const gent *en = r->en;
  int *ab = r->ab;
  while (p < q) {
    int n = r->n, room = BATCH - n, end = q - p < room ? q : p + room;
    if (dim == 2) {
      for (; p < end; p++) {
        ab[2 * n] = a->id;
        ab[2 * n + 1] = en[p].id;
        n += overlap2(a, &en[p]);
      }
    } else {
      for (; p < end; p++) {
        ab[2 * n] = a->id;
        ab[2 * n + 1] = en[p].id;
        n += overlap3(a, &en[p]);
      }
    }
    r->n = n;
    if (n == BATCH) flush(r);
  }
}

/* Every pair of a dense level. The cells of a row (fixed y and z) are
** consecutive slots, so the neighbours a cell looks at (half of them: the
** other half look at it) are a few runs of consecutive slots, hence of
** consecutive entries: the next cell on x, and the three cells above on y;
** in 3D also the three rows of three cells above on z. Each box scans
** those runs, and the boxes after it in its own cell. dim is a constant
** at each call, so each loop is compiled for its dimension. */
static inline void dense_pairs_dim(grid_run *r, const glevel *v, int dim) {
  const int *end = r->end;
  long wx = (long)v->w[0], wxy = (long)(v->w[0] * v->w[1]);
  long long y, z;
  for (z = v->lo[2]; z <= v->hi[2]; z++)
    for (y = v->lo[1]; y <= v->hi[1]; y++) {
      long long k[3];
      long s, s1;
      k[0] = v->lo[0]; k[1] = y; k[2] = z;
      s = (long)dense_slot(v, k);
      s1 = s + (long)(v->hi[0] - v->lo[0]);
      for (; s <= s1; s++) {
        int p, p1 = end[s];
        for (p = end[s - 1]; p < p1; p++) {
          const gent *a = &r->en[p];
          scan(r, a, p + 1, end[s + 1], dim);
          scan(r, a, end[s + wx - 2], end[s + wx + 1], dim);
          if (dim == 3) {
            long t = s + wxy;
            scan(r, a, end[t - wx - 2], end[t - wx + 1], dim);
            scan(r, a, end[t - 2], end[t + 1], dim);
            scan(r, a, end[t + wx - 2], end[t + wx + 1], dim);
          }
        }
      }
    }
}

static void dense_pairs(grid_run *r, const glevel *v) {
  if (r->dim == 2) dense_pairs_dim(r, v, 2);
  else dense_pairs_dim(r, v, 3);
}

/* The neighbours a cell of a sparse level looks at: half of them, so that
** each pair of adjacent cells is looked at once. The first 4 lie in the
** cell's plane (2D). */
static const signed char half[13][3] = {
  {1, 0, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0},
  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {0, 0, 1}, {1, 0, 1},
  {-1, 1, 1}, {0, 1, 1}, {1, 1, 1}
};

/* Every pair within a sparse level's cell, and between it and each of its
** neighbours that holds boxes (found in the hash table). */
static void sparse_pairs(grid_run *r, long s, int l, const long long k[3]) {
  int p, h, p1 = r->end[s], nhalf = r->dim == 2 ? 4 : 13;
  for (p = r->end[s - 1]; p < p1; p++) scan(r, &r->en[p], p + 1, p1, r->dim);
  for (h = 0; h < nhalf; h++) {
    long long m[3];
    long t;
    m[0] = k[0] + half[h][0];
    m[1] = k[1] + half[h][1];
    m[2] = k[2] + half[h][2];
    t = slot_at(r, l, m);
    if (t < 0) continue;
    for (p = r->end[s - 1]; p < p1; p++)
      scan(r, &r->en[p], r->end[t - 1], r->end[t], r->dim);
  }
}

/* Entry e against the boxes of another level l whose corner cells lie in
** c0 .. c1: on a dense level each row of cells is one run of entries. */
static void probe_level(grid_run *r, const gent *e, int l,
                        const long long c0[3], const long long c1[3]) {
  const glevel *v = &r->lv[l];
  long long k[3];
  for (k[2] = c0[2]; k[2] <= c1[2]; k[2]++)
    for (k[1] = c0[1]; k[1] <= c1[1]; k[1]++) {
      if (v->dense) {
        long s;
        k[0] = c0[0];
        s = (long)dense_slot(v, k);
        scan(r, e, r->end[s - 1], r->end[s + (long)(c1[0] - c0[0])], r->dim);
        continue;
      }
      for (k[0] = c0[0]; k[0] <= c1[0]; k[0]++) {
        long t = slot_at(r, l, k);
        if (t >= 0) scan(r, e, r->end[t - 1], r->end[t], r->dim);
      }
    }
}

/* ---- filing the boxes ------------------------------------------------ */

/* The level of a box: 2^level just above its largest side (even levels
** only: fewer levels to look across), and never finer than 2^-40 of its
** distance from the origin, so that cell numbers stay below 2^41. */
static inline int level_of(const double *b, int dim) {
  double sd = 0, m = 0;
  int j, lev = -1000;
  for (j = 0; j < dim; j++) {
    double w = b[j + 3] - b[j];
    if (w > sd) sd = w;
    if (fabs(b[j]) > m) m = fabs(b[j]);
    if (fabs(b[j + 3]) > m) m = fabs(b[j + 3]);
  }
  /* bounds of a box near DBL_MAX can overflow to infinity: the coarsest
  ** level (cells of side 2^1074) takes those */
  if (sd > 0) lev = sd <= DBL_MAX ? exponent_of(sd) + 1 : MAX_LEVEL;
  lev += lev & 1;
  if (m > 0 && (m > DBL_MAX || exponent_of(m) - 40 > lev))
    lev = m <= DBL_MAX ? exponent_of(m) - 40 : MAX_LEVEL;
  if (lev < MIN_LEVEL) lev = MIN_LEVEL;
  return lev > MAX_LEVEL ? MAX_LEVEL : lev; /* 2^-level stays > 0 */
}

/* Lists the present boxes in gb with their levels; returns how many. */
static inline int list_boxes(gbox *gb, const void *base, size_t stride,
                             int n, int dim) {
  int i, np = 0;
  for (i = 0; i < n; i++) {
    const double *b = box_at(base, stride, i);
    int lev;
    if (!(b[0] <= b[3])) continue;
    lev = level_of(b, dim);
    gb[np].id = i;
    gb[np].level = lev;
    np++;
  }
  return np;
}

/* Which of lv's slots each level in use gets: the levels present, each
** its own slot from the coarsest down, so sizes that differ by any factor
** never share cells (one huge box does not push the small ones into its
** cells). Only beyond MAX_LEVELS distinct levels (sizes spanning more than
** 4^64) are the finest merged into the finest kept: coarser is always
** correct. slot[] is indexed by LEVEL_INDEX; raw[k] is slot k's level. */
static void assign_levels(const gbox *gb, int np, signed char *slot,
                          int *raw) {
  unsigned char present[NLEVELS];
  int o, i, k = 0, kept[MAX_LEVELS];
  memset(present, 0, sizeof present);
  for (o = 0; o < np; o++) present[LEVEL_INDEX(gb[o].level)] = 1;
  for (i = NLEVELS - 1; i >= 0 && k < MAX_LEVELS; i--)
    if (present[i]) kept[k++] = i; /* coarsest first */
  for (o = 0; o < k; o++) { /* slots from the finest kept up */
    slot[kept[o]] = (signed char)(k - 1 - o);
    raw[k - 1 - o] = MIN_LEVEL + 2 * kept[o];
  }
  for (i = kept[k - 1] - 1; i >= 0; i--) slot[i] = 0; /* merged */
}

/* Each box's corner cell, its level's slot in lv (assign_levels), and
** each level's bounds; returns the mask of slots used. */
static inline unsigned long long corner_cells(gbox *gb, int np,
                                              const void *base,
                                              size_t stride, int dim,
                                              glevel *lv,
                                              const signed char *slot,
                                              const int *raw) {
  unsigned long long used = 0;
  int o, j;
  for (o = 0; o < np; o++) {
    gbox *x = &gb[o];
    const double *b = box_at(base, stride, x->id);
    int l = slot[LEVEL_INDEX(x->level)];
    glevel *v = &lv[l];
    x->level = l;
    if (!(used >> l & 1)) {
      used |= 1ULL << l;
      v->scale = ldexp(1.0, -raw[l]);
      v->count = 0;
      for (j = 0; j < 3; j++) {
        v->lo[j] = j < dim ? LLONG_MAX : 0;
        v->hi[j] = j < dim ? LLONG_MIN : 0;
      }
    }
    v->count++;
    x->c[2] = 0;
    for (j = 0; j < dim; j++) {
      long long c = cell_of(b[j], v->scale);
      x->c[j] = c;
      if (c < v->lo[j]) v->lo[j] = c;
      if (c > v->hi[j]) v->hi[j] = c;
    }
  }
  return used;
}

/* Copies box x's bounds into its entry. */
static inline void fill_entry(gent *t, const double *b, const gbox *x,
                              int dim) {
  int j;
  for (j = 0; j < dim; j++) {
    t->lo[j] = b[j];
    t->hi[j] = b[j + 3];
  }
  if (dim == 2) t->lo[2] = t->hi[2] = 0;
  t->id = x->id;
  t->level = x->level;
}

/* ---- all pairs -------------------------------------------------------- */

/* What the steps of obb_grid_pairs share: the levels, the boxes, the
** scratch arrays laid out for them, and the run the pair loops read. */
typedef struct grid_plan {
  glevel lv[MAX_LEVELS];
  int raw[MAX_LEVELS];     /* slot k's level (assign_levels) */
  unsigned long long used; /* the mask of lv's slots in use */
  gbox *gb;
  gent *en;
  int np, ncells;          /* present boxes; hashed cells filed */
  size_t S, nhashed;       /* dense levels' slots; hashed levels' boxes */
  int *bslot, *end, *sl;   /* each box's slot; as grid_run; hash slots */
  gcell *cell;
  size_t mask;
  grid_run r;
} grid_plan;

/* Makes each level in use dense or hashed, and counts the slots of the
** dense ones and the boxes of the hashed ones. */
static void plan_levels(grid_plan *pl, int dim) {
  int l, j;
  pl->S = pl->nhashed = 0;
  /* A level whose cells would not outnumber its boxes by much is dense. */
  for (l = 0; l < MAX_LEVELS; l++) {
    glevel *v = &pl->lv[l];
    double cells = 1;
    if (!(pl->used >> l & 1)) continue;
    for (j = 0; j < 3; j++) {
      int pad = j < dim ? 1 : 0;
      v->o[j] = v->lo[j] - pad;
      v->w[j] = v->hi[j] - v->lo[j] + 1 + 2 * pad;
      cells *= (double)v->w[j];
    }
    v->dense = cells <= 3.0 * v->count + 64;
    if (v->dense) {
      v->base = pl->S;
      pl->S += (size_t)cells;
    } else {
      pl->nhashed += (size_t)v->count;
    }
  }
}

/* Grows the scratch arrays (and the hash table, when a level is hashed)
** to the plan, and clears end[]; returns 0 when memory runs out. */
static int reserve(obb_grid *g, grid_plan *pl) {
  size_t np = (size_t)pl->np, nslots;
  pl->sl = NULL;
  pl->cell = NULL;
  pl->mask = 0;
  if (!ensure(g, &g->ints, &g->ints_cap,
              (np + pl->S + pl->nhashed + 1) * sizeof(int)) ||
      !ensure(g, &g->entries, &g->entries_cap, np * sizeof(gent)))
    return 0;
  if (pl->nhashed > 0) {
    for (nslots = 16; nslots < 2 * pl->nhashed; nslots *= 2) {}
    pl->mask = nslots - 1;
    if (!ensure(g, &g->cells, &g->cells_cap, pl->nhashed * sizeof(gcell)) ||
        !ensure_slots(g, nslots))
      return 0;
    pl->sl = (int *)g->slots;
    pl->cell = (gcell *)g->cells;
  }
  pl->en = (gent *)g->entries;
  pl->bslot = (int *)g->ints;
  pl->end = pl->bslot + np + 1; /* end[-1] stays 0 */
  pl->end[-1] = 0;
  memset(pl->end, 0, (pl->S + pl->nhashed) * sizeof(int));
  return 1;
}

/* Box o's slot: its cell on a dense level, else its hashed cell's (the
** cell is filed in the hash table when it is new). */
static size_t slot_of_box(grid_plan *pl, int o) {
  const gbox *x = &pl->gb[o];
  const glevel *v = &pl->lv[x->level];
  int *p;
  if (v->dense) return dense_slot(v, x->c);
  p = find_slot(pl->sl, pl->cell, pl->mask, x->c, x->level);
  if (*p < 0) {
    gcell *nc = &pl->cell[pl->ncells];
    nc->k[0] = x->c[0]; nc->k[1] = x->c[1]; nc->k[2] = x->c[2];
    nc->level = x->level;
    nc->slot = (int)(p - pl->sl);
    *p = pl->ncells++;
  }
  return pl->S + (size_t)*p;
}

/* Sets up the run, then files the boxes' entries in slot order. */
static void file_boxes(grid_plan *pl, int dim, const void *base,
                       size_t stride, obb_grid_pairs_fn f, void *ctx) {
  grid_run *r = &pl->r;
  int *end = pl->end, o;
  size_t s;
  r->en = pl->en;
  r->end = end;
  r->lv = pl->lv;
  r->sl = pl->sl;
  r->cell = pl->cell;
  r->mask = pl->mask;
  r->hashed0 = pl->S;
  r->dim = dim;
  r->n = 0;
  r->f = f;
  r->ctx = ctx;
  /* each box's slot, counted */
  pl->ncells = 0;
  for (o = 0; o < pl->np; o++) {
    s = slot_of_box(pl, o);
    pl->bslot[o] = (int)s;
    end[s]++;
  }
  /* counting sort: end[s] becomes the slot's first entry, then, as the
  ** entries are placed, one past its last */
  {
    int sum = 0;
    size_t ns = pl->S + (size_t)pl->ncells;
    for (s = 0; s < ns; s++) {
      int t = end[s];
      end[s] = sum;
      sum += t;
    }
  }
  for (o = 0; o < pl->np; o++) {
    const gbox *x = &pl->gb[o];
    gent *t = &pl->en[end[pl->bslot[o]]++];
    if (dim == 2) fill_entry(t, box_at(base, stride, x->id), x, 2);
    else fill_entry(t, box_at(base, stride, x->id), x, 3);
  }
}

/* Every pair of boxes of one level: the dense levels, then each hashed
** cell. */
static void same_level_pairs(grid_plan *pl) {
  int l, i;
  for (l = 0; l < MAX_LEVELS; l++)
    if ((pl->used >> l & 1) && pl->lv[l].dense)
      dense_pairs(&pl->r, &pl->lv[l]);
  for (i = 0; i < pl->ncells; i++)
    sparse_pairs(&pl->r, (long)(pl->S + (size_t)i), pl->cell[i].level,
                 pl->cell[i].k);
}

/* Across levels: of each two levels, the boxes of one look into the cells
** of the other that could hold a box reaching them: a box's corner cell is
** at most one below the low corner's cell on each axis, and not above the
** high corner's. Either side finds every pair once; the side with fewer
** cells to look at does it (few huge boxes look into the fine level rather
** than every small box into the huge ones' cells). probe[l] gets the
** levels that level l's boxes look into. */
/* x to the power dim (2 or 3) by multiplication: libm's pow differs
** between platforms (and needs glibc 2.29), and the side chosen must not. */
static double power(double x, int dim) {
  return dim == 2 ? x * x : x * x * x;
}

static void probing_sides(const grid_plan *pl, int dim,
                          unsigned long long probe[MAX_LEVELS]) {
  const glevel *lv = pl->lv;
  const int *raw = pl->raw;
  int a, b;
  for (a = 0; a < MAX_LEVELS; a++) probe[a] = 0;
  for (a = 0; a < MAX_LEVELS; a++) {
    if (!(pl->used >> a & 1)) continue;
    for (b = a + 1; b < MAX_LEVELS; b++) {
      double up, down; /* cells a box of a looks at in b, and back */
      if (!(pl->used >> b & 1)) continue;
      up = (double)lv[a].count * power(3.0, dim);
      down = raw[b] - raw[a] > 30 ? HUGE_VAL
           : (double)lv[b].count * power(ldexp(1.0, raw[b] - raw[a]) + 2, dim);
      if (down < up) probe[b] |= 1ULL << a;
      else probe[a] |= 1ULL << b;
    }
  }
}

/* Every pair of boxes of two levels: each box looks into the cells of
** the levels its own level probes (probing_sides). */
static void cross_level_pairs(grid_plan *pl, int dim) {
  unsigned long long probe[MAX_LEVELS];
  int o, l, j;
  if ((pl->used & (pl->used - 1)) == 0) return; /* a single level */
  probing_sides(pl, dim, probe);
  for (o = 0; o < pl->np; o++) {
    const gent *e = &pl->en[o];
    unsigned long long m = probe[e->level];
    for (l = 0; m != 0; l++, m >>= 1) {
      long long c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
      const glevel *v = &pl->lv[l];
      if (!(m & 1)) continue;
      for (j = 0; j < dim; j++) {
        c0[j] = cell_of(e->lo[j], v->scale) - 1;
        c1[j] = cell_of(e->hi[j], v->scale);
        if (c0[j] < v->lo[j]) c0[j] = v->lo[j];
        if (c1[j] > v->hi[j]) c1[j] = v->hi[j];
      }
      if (c0[0] <= c1[0]) probe_level(&pl->r, e, l, c0, c1);
    }
  }
}

/* Lists and files the boxes (one step a function), then hands over every
** pair of one level and of two. */
int obb_grid_pairs(obb_grid *g, int dim, const void *base, size_t stride,
                   int n, obb_grid_pairs_fn f, void *ctx) {
  grid_plan pl;
  signed char slot[NLEVELS];
  int i;
  if (n <= 0) return 0;
  if ((size_t)n > ((size_t)INT_MAX) / 8) return -1;
  if (!ensure(g, &g->boxes, &g->boxes_cap, (size_t)n * sizeof(gbox)))
    return -1;
  pl.gb = (gbox *)g->boxes;
  pl.np = dim == 2 ? list_boxes(pl.gb, base, stride, n, 2)
                   : list_boxes(pl.gb, base, stride, n, 3);
  if (pl.np == 0) return 0;
  assign_levels(pl.gb, pl.np, slot, pl.raw);
  pl.used = dim == 2
          ? corner_cells(pl.gb, pl.np, base, stride, 2, pl.lv, slot, pl.raw)
          : corner_cells(pl.gb, pl.np, base, stride, 3, pl.lv, slot, pl.raw);
  plan_levels(&pl, dim);
  if (!reserve(g, &pl)) return -1;
  file_boxes(&pl, dim, base, stride, f, ctx);
  same_level_pairs(&pl);
  cross_level_pairs(&pl, dim);
  flush(&pl.r);
  for (i = 0; i < pl.ncells; i++) pl.sl[pl.cell[i].slot] = -1; /* all empty */
  return 0;
}
