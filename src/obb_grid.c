/*
** obb_grid.c: all overlapping pairs by a hierarchical grid (obb_grid.h).
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "obb_grid.h"

#define NO_LEVEL INT_MIN
#define MAX_LEVELS 64 /* boxes far smaller than the largest share a level */
#define MAX_LEVEL 1074 /* 2^-1074 is the smallest double above 0 */

typedef struct gbox { /* a present box, in index order */
  double lo[3], hi[3];
  long long c[3]; /* its corner cell (0 on axes beyond dim) */
  int id;         /* its index in the caller's array */
  int level;      /* then its level's index in lv[] */
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

/* The neighbours a cell tests: half of them, so that each pair of adjacent
** cells is looked at once. The first 4 lie in the cell's plane (2D). */
static const signed char half[13][3] = {
  {1, 0, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0},
  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {0, 0, 1}, {1, 0, 1},
  {-1, 1, 1}, {0, 1, 1}, {1, 1, 1}
};

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
  obb_grid_pair_fn f;
  void *ctx;
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

static int overlap(const gent *a, const gent *b) {
  return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] &&
         a->lo[1] <= b->hi[1] && b->lo[1] <= a->hi[1] &&
         a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2];
}

static void report(const grid_run *r, int a, int b) {
  if (a < b) r->f(r->ctx, a, b);
  else r->f(r->ctx, b, a);
}

/* Every pair within slot s, and between s and each existing neighbour. */
static void cell_pairs(const grid_run *r, long s, int l, const long long k[3],
                       int nhalf) {
  const gent *en = r->en;
  const glevel *v = &r->lv[l];
  int p, q, a0 = r->end[s - 1], a1 = r->end[s], h;
  for (p = a0; p < a1; p++)
    for (q = p + 1; q < a1; q++)
      if (overlap(&en[p], &en[q])) report(r, en[p].id, en[q].id);
  for (h = 0; h < nhalf; h++) {
    long long m[3];
    long t;
    int b0, b1;
    m[0] = k[0] + half[h][0];
    m[1] = k[1] + half[h][1];
    m[2] = k[2] + half[h][2];
    if (v->dense) { /* a fixed step away, inside the border */
      t = s + (long)((half[h][2] * v->w[1] + half[h][1]) * v->w[0] +
                     half[h][0]);
    } else {
      t = slot_at(r, l, m);
      if (t < 0) continue;
    }
    b0 = r->end[t - 1];
    b1 = r->end[t];
    for (p = a0; p < a1; p++)
      for (q = b0; q < b1; q++)
        if (overlap(&en[p], &en[q])) report(r, en[p].id, en[q].id);
  }
}

int obb_grid_pairs(obb_grid *g, int dim, const void *base, size_t stride,
                   int n, obb_grid_pair_fn f, void *ctx) {
  glevel lv[MAX_LEVELS];
  grid_run r;
  gbox *gb;
  gent *en;
  int *bslot, *end, *sl = NULL;
  gcell *cell = NULL;
  size_t S = 0, nhashed = 0, nslots = 0, mask = 0, s;
  int i, j, o, np = 0, top = NO_LEVEL, floor_level, ncells = 0, l;
  int nhalf = dim == 2 ? 4 : 13;
  unsigned long long used = 0;
  if (n <= 0) return 0;
  if ((size_t)n > ((size_t)INT_MAX) / 8) return -1;
  if (!ensure(g, &g->boxes, &g->boxes_cap, (size_t)n * sizeof(gbox)))
    return -1;
  gb = (gbox *)g->boxes;
  /* Levels: 2^level just above the box's largest side, and never finer
  ** than 2^-40 of its distance from the origin (cell numbers < 2^41). */
  for (i = 0; i < n; i++) {
    const double *b = box_at(base, stride, i);
    gbox *x;
    double sd = 0, m = 0;
    int lev = -1000;
    if (!(b[0] <= b[3])) continue;
    x = &gb[np++];
    x->id = i;
    for (j = 0; j < 3; j++) {
      x->lo[j] = j < dim ? b[j] : 0;
      x->hi[j] = j < dim ? b[j + 3] : 0;
    }
    for (j = 0; j < dim; j++) {
      double w = b[j + 3] - b[j];
      if (w > sd) sd = w;
      if (fabs(b[j]) > m) m = fabs(b[j]);
      if (fabs(b[j + 3]) > m) m = fabs(b[j + 3]);
    }
    /* bounds of a box near DBL_MAX can overflow to infinity: the
    ** coarsest level (cells of side 2^1074) takes those */
    if (sd > 0) {
      int t = sd <= DBL_MAX ? exponent_of(sd) + 1 : MAX_LEVEL;
      if (t > lev) lev = t;
    }
    lev += lev & 1; /* even levels only: fewer levels to look across */
    if (m > 0 && (m > DBL_MAX || exponent_of(m) - 40 > lev))
      lev = m <= DBL_MAX ? exponent_of(m) - 40 : MAX_LEVEL;
    if (lev > MAX_LEVEL) lev = MAX_LEVEL; /* 2^-level stays > 0 */
    x->level = lev;
    if (lev > top) top = lev;
  }
  if (np == 0) return 0;
  floor_level = top - (MAX_LEVELS - 1);
  /* corner cells, and each level's bounds */
  for (o = 0; o < np; o++) {
    gbox *x = &gb[o];
    glevel *v;
    if (x->level < floor_level) x->level = floor_level; /* coarser is fine */
    l = x->level - floor_level;
    x->level = l;
    v = &lv[l];
    if (!(used >> l & 1)) {
      used |= 1ULL << l;
      v->scale = ldexp(1.0, -(floor_level + l));
      v->count = 0;
      for (j = 0; j < 3; j++) {
        v->lo[j] = LLONG_MAX;
        v->hi[j] = LLONG_MIN;
      }
    }
    v->count++;
    for (j = 0; j < 3; j++) {
      long long c = j < dim ? cell_of(x->lo[j], v->scale) : 0;
      x->c[j] = c;
      if (c < v->lo[j]) v->lo[j] = c;
      if (c > v->hi[j]) v->hi[j] = c;
    }
  }
  /* A level whose cells would not outnumber its boxes by much is dense. */
  for (l = 0; l < MAX_LEVELS; l++) {
    glevel *v = &lv[l];
    double cells = 1;
    if (!(used >> l & 1)) continue;
    for (j = 0; j < 3; j++) {
      int pad = j < dim ? 1 : 0;
      v->o[j] = v->lo[j] - pad;
      v->w[j] = v->hi[j] - v->lo[j] + 1 + 2 * pad;
      cells *= (double)v->w[j];
    }
    v->dense = cells <= 3.0 * v->count + 64;
    if (v->dense) {
      v->base = S;
      S += (size_t)cells;
    } else {
      nhashed += (size_t)v->count;
    }
  }
  if (!ensure(g, &g->ints, &g->ints_cap,
              ((size_t)np + S + nhashed + 1) * sizeof(int)) ||
      !ensure(g, &g->entries, &g->entries_cap, (size_t)np * sizeof(gent)))
    return -1;
  if (nhashed > 0) {
    for (nslots = 16; nslots < 2 * nhashed; nslots *= 2) {}
    mask = nslots - 1;
    if (!ensure(g, &g->cells, &g->cells_cap, nhashed * sizeof(gcell)) ||
        !ensure_slots(g, nslots))
      return -1;
    sl = (int *)g->slots;
    cell = (gcell *)g->cells;
  }
  bslot = (int *)g->ints;
  end = bslot + np + 1; /* end[-1] stays 0 */
  end[-1] = 0;
  memset(end, 0, (S + nhashed) * sizeof(int));
  r.en = en = (gent *)g->entries;
  r.end = end;
  r.lv = lv;
  r.sl = sl;
  r.cell = cell;
  r.mask = mask;
  r.hashed0 = S;
  r.f = f;
  r.ctx = ctx;
  /* each box's slot, counted */
  for (o = 0; o < np; o++) {
    const gbox *x = &gb[o];
    const glevel *v = &lv[x->level];
    if (v->dense) {
      s = dense_slot(v, x->c);
    } else {
      int *p = find_slot(sl, cell, mask, x->c, x->level);
      if (*p < 0) {
        gcell *nc = &cell[ncells];
        nc->k[0] = x->c[0]; nc->k[1] = x->c[1]; nc->k[2] = x->c[2];
        nc->level = x->level;
        nc->slot = (int)(p - sl);
        *p = ncells++;
      }
      s = S + (size_t)*p;
    }
    bslot[o] = (int)s;
    end[s]++;
  }
  /* counting sort: end[s] becomes the slot's first entry, then, as the
  ** entries are placed, one past its last */
  {
    int sum = 0;
    size_t ns = S + (size_t)ncells;
    for (s = 0; s < ns; s++) {
      int t = end[s];
      end[s] = sum;
      sum += t;
    }
  }
  for (o = 0; o < np; o++) {
    const gbox *x = &gb[o];
    gent *t = &en[end[bslot[o]]++];
    memcpy(t->lo, x->lo, sizeof t->lo);
    memcpy(t->hi, x->hi, sizeof t->hi);
    t->id = x->id;
    t->level = x->level;
  }
  /* same level: each occupied cell against itself and half its neighbours */
  for (l = 0; l < MAX_LEVELS; l++) {
    const glevel *v = &lv[l];
    long long k[3];
    if (!(used >> l & 1) || !v->dense) continue;
    for (k[2] = v->lo[2]; k[2] <= v->hi[2]; k[2]++)
      for (k[1] = v->lo[1]; k[1] <= v->hi[1]; k[1]++) {
        k[0] = v->lo[0];
        s = dense_slot(v, k);
        for (; k[0] <= v->hi[0]; k[0]++, s++)
          if (end[(long)s - 1] < end[s]) cell_pairs(&r, (long)s, l, k, nhalf);
      }
  }
  for (i = 0; i < ncells; i++)
    cell_pairs(&r, (long)(S + (size_t)i), cell[i].level, cell[i].k, nhalf);
  /* across levels: of each two levels, the boxes of one look into the
  ** cells of the other that could hold a box reaching them: a box's corner
  ** cell is at most one below the low corner's cell on each axis, and not
  ** above the high corner's. Either side finds every pair once; the side
  ** with fewer cells to look at does it (few huge boxes look into the fine
  ** level rather than every small box into the huge ones' cells). */
  if ((used & (used - 1)) != 0) {
    unsigned long long probe[MAX_LEVELS];
    int a, b;
    for (a = 0; a < MAX_LEVELS; a++) probe[a] = 0;
    for (a = 0; a < MAX_LEVELS; a++) {
      if (!(used >> a & 1)) continue;
      for (b = a + 1; b < MAX_LEVELS; b++) {
        double up, down; /* cells a box of a looks at in b, and back */
        if (!(used >> b & 1)) continue;
        up = (double)lv[a].count * pow(3.0, dim);
        down = b - a > 30 ? HUGE_VAL
             : (double)lv[b].count * pow(ldexp(1.0, b - a) + 2, dim);
        if (down < up) probe[b] |= 1ULL << a;
        else probe[a] |= 1ULL << b;
      }
    }
    for (o = 0; o < np; o++) {
      const gent *e = &en[o];
      unsigned long long m = probe[e->level];
      for (l = 0; m != 0; l++, m >>= 1) {
        long long c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0}, k[3];
        const glevel *v = &lv[l];
        if (!(m & 1)) continue;
        for (j = 0; j < dim; j++) {
          c0[j] = cell_of(e->lo[j], v->scale) - 1;
          c1[j] = cell_of(e->hi[j], v->scale);
          if (c0[j] < v->lo[j]) c0[j] = v->lo[j];
          if (c1[j] > v->hi[j]) c1[j] = v->hi[j];
        }
        for (k[2] = c0[2]; k[2] <= c1[2]; k[2]++)
          for (k[1] = c0[1]; k[1] <= c1[1]; k[1]++)
            for (k[0] = c0[0]; k[0] <= c1[0]; k[0]++) {
              long t = slot_at(&r, l, k);
              int p, b1;
              if (t < 0) continue;
              b1 = end[t];
              for (p = end[t - 1]; p < b1; p++)
                if (overlap(&en[p], e)) report(&r, en[p].id, e->id);
            }
      }
    }
  }
  for (i = 0; i < ncells; i++) sl[cell[i].slot] = -1; /* all empty again */
  return 0;
}
