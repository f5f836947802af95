/*
** obb_cells.c: the uniform hash grid of a world with a cell size (see
** obb_cells.h).
*/
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "obb_bounds.h"
#include "obb_cells.h"

void obb_cells_init(obb_cells *g, int dim, obb_alloc alloc, void *ud) {
  g->size = g->inv = 0;
  g->dim = dim;
  g->items = NULL;
  g->buckets = NULL;
  g->alloc = alloc;
  g->ud = ud;
  obb_cells_free(g);
}

/* No item filed: empty ranges, no width. */
static void reset_filed(obb_cells *g) {
  int q, j;
  g->count = 0;
  for (q = 0; q < 3; q++) {
    g->lo[q] = INT_MAX;
    g->hi[q] = INT_MIN;
    g->wide[q] = 0;
    for (j = 0; j <= OBB_CELLS_WIDE; j++) g->nwide[q][j] = 0;
  }
}

void obb_cells_free(obb_cells *g) {
  if (g->items != NULL)
    g->alloc(g->ud, g->items, (size_t)g->cap * sizeof(obb_cells_item), 0);
  if (g->buckets != NULL)
    g->alloc(g->ud, g->buckets, (size_t)g->nb * sizeof(int), 0);
  g->items = NULL;
  g->buckets = NULL;
  g->cap = g->nb = 0;
  g->loose = -1;
  reset_filed(g);
}

size_t obb_cells_memory(const obb_cells *g) {
  return (size_t)g->cap * sizeof(obb_cells_item) +
         (size_t)g->nb * sizeof(int);
}

/* A cell's hash: kx KX + ky KY + kz KZ modulo 2^32 (so that the next cell
** of a row adds KX), its top bits the bucket (bucket_at). The cells of a
** block, of a row, a column or a diagonal, spread over the buckets more
** evenly than at random, so fewer share one, and it costs a shift a cell
** (KX is 2^32 over the golden ratio; KY and KZ were picked among random
** odd numbers for the fewest cells sharing a bucket in filled rectangles,
** boxes, slabs, lines of many slopes and random scatters). Where a cell's
** items come in a search does not depend on the hash: a bucket keeps
** each cell's items in the order they came, whatever other cells share
** it. Unsigned arithmetic, the same everywhere. */
#define KX 0x9E3779B1u
#define KY 0xEAB477D3u
#define KZ 0x77064C2Du
static uint32_t key_sum(int kx, int ky, int kz) {
  return (uint32_t)kx * KX + (uint32_t)ky * KY + (uint32_t)kz * KZ;
}

static unsigned bucket_at(const obb_cells *g, uint32_t h) {
  return (unsigned)(h >> g->shift);
}

static unsigned bucket_of(const obb_cells *g, int kx, int ky, int kz) {
  return bucket_at(g, key_sum(kx, ky, kz));
}

/* Pushes id on the front of list *head. */
static void link_front(obb_cells *g, int *head, int id) {
  obb_cells_item *it = &g->items[id];
  it->prev = -1;
  it->next = *head;
  if (*head >= 0) g->items[*head].prev = id;
  *head = id;
}

static void unlink_from(obb_cells *g, int *head, int id) {
  obb_cells_item *it = &g->items[id];
  if (it->prev >= 0) g->items[it->prev].next = it->next;
  else *head = it->next;
  if (it->next >= 0) g->items[it->next].prev = it->prev;
}

static int *bucket_head(obb_cells *g, const int k[3]) {
  return &g->buckets[bucket_of(g, k[0], k[1], k[2])];
}

/* 32 - log2(nb), for nb a power of two (16 or more: 28 or less). */
static int shift_for(int nb) {
  int shift = 32;
  while ((1 << (32 - shift)) < nb) shift--;
  return shift;
}

/* A bucket array of nb (a power of two) with every filed item in it, in
** order of ids; keeps the old one when memory runs out. */
static void rehash(obb_cells *g, int nb) {
  int *p = (int *)g->alloc(g->ud, NULL, 0, (size_t)nb * sizeof(int));
  int i;
  if (p == NULL) return;
  if (g->buckets != NULL)
    g->alloc(g->ud, g->buckets, (size_t)g->nb * sizeof(int), 0);
  g->buckets = p;
  g->nb = nb;
  g->shift = shift_for(nb);
  for (i = 0; i < nb; i++) p[i] = -1;
  for (i = 0; i < g->cap; i++)
    if (g->items[i].where == OBB_CELLS_IN)
      link_front(g, bucket_head(g, g->items[i].k), i);
}

int obb_cells_reserve(obb_cells *g, int cap) {
  int nb = 16, i;
  if (cap > g->cap) {
    obb_cells_item *p;
    if ((size_t)cap > ((size_t)-1) / sizeof(obb_cells_item)) return 0;
    p = (obb_cells_item *)g->alloc(g->ud, g->items,
                                   (size_t)g->cap * sizeof(obb_cells_item),
                                   (size_t)cap * sizeof(obb_cells_item));
    if (p == NULL) return 0;
    for (i = g->cap; i < cap; i++) p[i].where = OBB_CELLS_NONE;
    g->items = p;
    g->cap = cap;
  }
  while (nb / 2 < cap && nb <= INT_MAX / 2) nb *= 2; /* two per record */
  if (g->nb < nb) rehash(g, nb);
  return g->nb > 0;
}

/* floor(y), exactly, for y in (-2^31, 2^31) (no call to floor: a
** conversion and a compare). */
static int ifloor(double y) {
  int i = (int)y; /* toward zero */
  return i - (y < i);
}

/* The cell of x is floor(x * inv): x * inv never decreases as x grows, nor
** does its floor, so [x0, x1] covers the cells of x0 .. x1 exactly. The
** width class j of bounds scaled to [a, b] (cells) is the eighths of a
** cell above b - a, rounding included: j / 8 > b - a, in reals. */
int obb_cells_place(const obb_cells *g, const double bounds[6], int k[3],
                    int wide[3]) {
  int q;
  k[2] = 0;
  wide[2] = 0;
  for (q = 0; q < g->dim; q++) {
    double a = bounds[q] * g->inv, b = bounds[q + 3] * g->inv;
    if (!(a >= -OBB_CELLS_LIMIT && b < OBB_CELLS_LIMIT && a <= b))
      return 0; /* NaN and inf too */
    k[q] = ifloor(a);
    if (ifloor(b) - k[q] >= OBB_CELLS_SPAN) return 0;
    wide[q] = ifloor((b - a + 0x1p-40) * 8) + 1;
  }
  return 1;
}

static void count_wide(obb_cells *g, const unsigned char wide[3], int by) {
  int q;
  for (q = 0; q < g->dim; q++) {
    int j = wide[q];
    g->nwide[q][j] += by;
    if (by > 0 && j > g->wide[q]) g->wide[q] = j;
    while (g->wide[q] > 0 && g->nwide[q][g->wide[q]] == 0) g->wide[q]--;
  }
}

/* Keeps the range of lower corners filed up to date. */
static void note_corner(obb_cells *g, obb_cells_item *it, const int k[3]) {
  int q;
  for (q = 0; q < 3; q++) {
    it->k[q] = k[q];
    if (k[q] < g->lo[q]) g->lo[q] = k[q];
    if (k[q] > g->hi[q]) g->hi[q] = k[q];
  }
}

static void set_wide(obb_cells *g, obb_cells_item *it, const int wide[3]) {
  it->wide[0] = (unsigned char)wide[0];
  it->wide[1] = (unsigned char)wide[1];
  it->wide[2] = (unsigned char)wide[2];
  count_wide(g, it->wide, 1);
}

void obb_cells_insert(obb_cells *g, int id, const int k[3],
                      const int wide[3]) {
  obb_cells_item *it = &g->items[id];
  note_corner(g, it, k);
  set_wide(g, it, wide);
  it->where = OBB_CELLS_IN;
  link_front(g, bucket_head(g, k), id);
  g->count++;
}

void obb_cells_update(obb_cells *g, int id, const int k[3],
                      const int wide[3]) {
  obb_cells_item *it = &g->items[id];
  if (it->k[0] != k[0] || it->k[1] != k[1] || it->k[2] != k[2]) {
    unlink_from(g, bucket_head(g, it->k), id);
    note_corner(g, it, k);
    link_front(g, bucket_head(g, k), id);
  }
  if (it->wide[0] != wide[0] || it->wide[1] != wide[1] ||
      it->wide[2] != wide[2]) {
    count_wide(g, it->wide, -1);
    set_wide(g, it, wide);
  }
}

void obb_cells_add_loose(obb_cells *g, int id) {
  g->items[id].where = OBB_CELLS_LOOSE;
  link_front(g, &g->loose, id);
}

void obb_cells_remove(obb_cells *g, int id) {
  obb_cells_item *it = &g->items[id];
  if (it->where == OBB_CELLS_LOOSE) {
    unlink_from(g, &g->loose, id);
  } else if (it->where == OBB_CELLS_IN) {
    unlink_from(g, bucket_head(g, it->k), id);
    count_wide(g, it->wide, -1);
    if (--g->count == 0) reset_filed(g);
  }
  it->where = OBB_CELLS_NONE;
}

/* ---- searches ---------------------------------------------------------- */

/* What a search does with an item: a query's f for the items whose bounds
** overlap its own, or a ray's f and maxs. */
typedef struct visitor {
  obb_cells_hit_fn hit;
  obb_cells_ray_fn ray;
  void *ctx;
  double maxs;
  const double *bounds;       /* a query's */
  const unsigned char *aabbs; /* the items' bounds, stride bytes apart */
  size_t stride;
  int skip;                   /* a query's item never hit (-1: none) */
} visitor;

static inline void visit(visitor *v, int id) {
  if (v->ray != NULL) v->maxs = v->ray(v->ctx, id, v->maxs);
  else if (id != v->skip &&
           obb_box_overlap((const double *)(v->aabbs + (size_t)id * v->stride),
                           v->bounds))
    v->hit(v->ctx, id);
}

static void visit_loose(const obb_cells *g, visitor *v) {
  int id;
  for (id = g->loose; id >= 0; id = g->items[id].next) visit(v, id);
}

/* Every filed item, in order of ids: a search that would look in more
** cells than there are records. */
static void visit_all(const obb_cells *g, visitor *v) {
  int id;
  for (id = 0; id < g->cap; id++)
    if (g->items[id].where == OBB_CELLS_IN) visit(v, id);
}

/* The items of cell k, from the first id of its bucket (the records are
** passed in, not read from g after each callback). */
static void visit_cell(const obb_cells_item *items, int id, int kx, int ky,
                       int kz, visitor *v) {
  while (id >= 0) {
    const obb_cells_item *it = &items[id];
    int next = it->next;
    if (it->k[0] == kx && it->k[1] == ky && it->k[2] == kz) visit(v, id);
    id = next;
  }
}

/* The widest item filed on axis q, in cells: above the width of every
** one, in reals. */
static double width(const obb_cells *g, int q) {
  return g->wide[q] * 0.125;
}

/* The lower corner cells [*a, *b] on axis q of the filed items that may
** overlap [x0, x1] on it; 0 when there are none (NaN bounds included). An
** item overlapping it has its max at or above x0, and its min at most its
** width below, so its corner cell is at least the cell of y0 - width, y0
** the scaled x0: computed here below its rounding. */
static inline int axis_range(const obb_cells *g, int q, double x0,
                             double x1, int *a, int *b) {
  double y0 = x0 * g->inv, y1 = x1 * g->inv, z0;
  int lo = g->lo[q], hi = g->hi[q];
  if (!(y0 <= y1) || y1 < lo) return 0; /* NaN, min > max, before all */
  z0 = (y0 - width(g, q)) - 0x1p-44 * (fabs(y0) + 8);
  if (!(z0 < (double)hi + 1)) return 0; /* beyond all (+inf: NaN) */
  *a = z0 <= lo ? lo : ifloor(z0);
  *b = y1 >= hi ? hi : ifloor(y1);
  return 1;
}

/* The cells of the box lo .. hi (cell coordinates, z = 0 in 2D). The
** arrays and the box are read once: a callback could change g for all
** the compiler knows, and would have them read again for every cell. */
static void visit_block(const obb_cells *g, const int lo[3], const int hi[3],
                        visitor *v) {
  const obb_cells_item *items = g->items;
  const int *buckets = g->buckets;
  int shift = g->shift;
  int x0 = lo[0], x1 = hi[0], y0 = lo[1], y1 = hi[1], z0 = lo[2], z1 = hi[2];
  int x, y, z;
  for (z = z0; z <= z1; z++)
    for (y = y0; y <= y1; y++) {
      uint32_t h = key_sum(x0, y, z);
      for (x = x0; x <= x1; x++, h += KX)
        visit_cell(items, buckets[h >> shift], x, y, z, v);
    }
}

/* visit_block for a query in 2D, where every filed item's z cell is 0:
** the same cells, and the same items in the same order, without the z
** loop, the z key or the ray's branch per item, and with what it reads
** in locals (the movers search once per move, the queries once per
** call). */
static void query_block2(const obb_cells *g, const int lo[3],
                         const int hi[3], const visitor *v) {
  const obb_cells_item *items = g->items;
  const int *buckets = g->buckets;
  const double *bounds = v->bounds;
  const unsigned char *aabbs = v->aabbs;
  size_t stride = v->stride;
  obb_cells_hit_fn hit = v->hit;
  void *ctx = v->ctx;
  int shift = g->shift, skip = v->skip;
  int x0 = lo[0], x1 = hi[0], y0 = lo[1], y1 = hi[1];
  int x, y;
  for (y = y0; y <= y1; y++) {
    uint32_t h = key_sum(x0, y, 0);
    for (x = x0; x <= x1; x++, h += KX) {
      int id = buckets[h >> shift];
      while (id >= 0) {
        const obb_cells_item *it = &items[id];
        int next = it->next;
        if (it->k[0] == x && it->k[1] == y && id != skip &&
            obb_box_overlap((const double *)(aabbs + (size_t)id * stride),
                            bounds))
          hit(ctx, id);
        id = next;
      }
    }
  }
}

/* The cells of a query's bounds, or every filed item when they are
** more. */
static void visit_bounds(const obb_cells *g, const double bounds[6],
                         visitor *v) {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, q;
  double n = 1;
  for (q = 0; q < g->dim; q++) {
    if (!axis_range(g, q, bounds[q], bounds[q + 3], &lo[q], &hi[q])) return;
    n *= (double)hi[q] - lo[q] + 1;
  }
  if (n > g->cap) visit_all(g, v);
  else if (g->dim == 2) query_block2(g, lo, hi, v);
  else visit_block(g, lo, hi, v);
}

void obb_cells_query(const obb_cells *g, const double bounds[6],
                     const double *aabbs, size_t stride, int skip,
                     obb_cells_hit_fn f, void *ctx) {
  visitor v;
  v.hit = f;
  v.ray = NULL;
  v.ctx = ctx;
  v.maxs = 0;
  v.bounds = bounds;
  v.aabbs = (const unsigned char *)aabbs;
  v.stride = stride;
  v.skip = skip;
  visit_loose(g, &v);
  if (g->count > 0) visit_bounds(g, bounds, &v);
}

/* ---- rays ------------------------------------------------------------ */

/* A ray through the cells: origin, direction, its major axis, and tol, how
** far from the ray an item's bounds may be and still be met: the ray's
** band for the union of the filed bounds (obb_ray_pad, which only grows
** from bounds to bounds around them), plus far more than the rounding of
** the positions computed here and in obb_box_ray. */
typedef struct ray {
  double o[3], d[3], tol;
  int major;
} ray;

/* The bounds around every item filed (obb_bounds.h's double[6]): from
** the lower corners' range to a cell beyond the widest item, with a cell
** of room on each side for rounding (z within a cell of 0 in 2D). */
static void filed_bounds(const obb_cells *g, double out[6]) {
  int q;
  out[2] = -g->size;
  out[5] = g->size;
  for (q = 0; q < g->dim; q++) {
    out[q] = ((double)g->lo[q] - 1) * g->size;
    out[q + 3] = ((double)g->hi[q] + 2 + width(g, q)) * g->size;
  }
}

/* 0 when the ray is better served by visiting every filed item: a zero
** or non-finite direction, an origin so far out that tol is a cell. */
static int ray_setup(const obb_cells *g, const double o[3], const double d[3],
                     ray *r) {
  double m = 0, bounds[6];
  int q;
  filed_bounds(g, bounds);
  r->major = 0;
  for (q = 0; q < 3; q++) {
    r->o[q] = o[q];
    r->d[q] = d[q];
    if (fabs(o[q]) > m) m = fabs(o[q]);
    if (fabs(bounds[q]) > m) m = fabs(bounds[q]);
    if (fabs(bounds[q + 3]) > m) m = fabs(bounds[q + 3]);
    if (q < g->dim && fabs(d[q]) > fabs(d[r->major])) r->major = q;
  }
  r->tol = obb_ray_pad(bounds, o) + 0x1p-36 * (m + g->size);
  if (!(r->tol < g->size) || !(fabs(d[r->major]) > 0)) return 0;
  /* every s computed below is finite: |x - o| / |d| for x within the
  ** filed cells */
  return (m + m + g->size * (OBB_CELLS_SPAN + 2)) / fabs(d[r->major]) <
         HUGE_VAL;
}

/* Visits the column of lower corner cells k on the ray's major axis: the
** cells on the other axes the ray passes near while the items filed there
** can reach it. Returns 0 when the column starts beyond maxs (so do all
** after it). */
static int visit_column(const obb_cells *g, const ray *r, int k, visitor *v) {
  int a = r->major, lo[3], hi[3], q;
  double x0 = k * g->size - r->tol;
  double x1 = ((double)k + 1 + width(g, a)) * g->size + r->tol;
  double s0 = (x0 - r->o[a]) / r->d[a], s1 = (x1 - r->o[a]) / r->d[a];
  if (s0 > s1) { double s = s0; s0 = s1; s1 = s; }
  if (s0 < 0) s0 = 0;
  if (s0 > v->maxs) return 0;
  if (s1 > v->maxs) s1 = v->maxs;
  if (s1 < s0) return 1; /* behind the origin */
  lo[2] = hi[2] = 0;
  for (q = 0; q < g->dim; q++) {
    double y0, y1;
    if (q == a) {
      lo[q] = hi[q] = k;
      continue;
    }
    y0 = r->o[q] + s0 * r->d[q];
    y1 = r->o[q] + s1 * r->d[q];
    if (y0 > y1) { double y = y0; y0 = y1; y1 = y; }
    if (!axis_range(g, q, y0 - r->tol, y1 + r->tol, &lo[q], &hi[q])) return 1;
  }
  visit_block(g, lo, hi, v);
  return 1;
}

/* The filed items near the ray, column by column along its major axis,
** pruned by maxs as the callbacks lower it. */
static void visit_ray(const obb_cells *g, const ray *r, visitor *v) {
  int a = r->major, k0, k1, k, step;
  double x0 = r->o[a], x1 = r->o[a] + v->maxs * r->d[a], per = 1;
  int q;
  if (x0 > x1) { double x = x0; x0 = x1; x1 = x; }
  if (!axis_range(g, a, x0 - r->tol, x1 + r->tol, &k0, &k1)) return;
  for (q = 0; q < g->dim; q++)
    if (q != a) per *= width(g, q) + width(g, a) + 3;
  if (((double)k1 - k0 + 1) * per > g->cap) {
    visit_all(g, v);
    return;
  }
  step = r->d[a] > 0 ? 1 : -1;
  for (k = step > 0 ? k0 : k1; k >= k0 && k <= k1; k += step)
    if (!visit_column(g, r, k, v)) break;
}

void obb_cells_raycast(const obb_cells *g, const double o[3],
                       const double d[3], double *maxs, obb_cells_ray_fn f,
                       void *ctx) {
  visitor v;
  ray r;
  v.hit = NULL;
  v.ray = f;
  v.ctx = ctx;
  v.maxs = *maxs;
  v.bounds = NULL;
  v.aabbs = NULL;
  v.stride = 0;
  v.skip = -1;
  visit_loose(g, &v);
  if (g->count > 0) {
    if (ray_setup(g, o, d, &r)) visit_ray(g, &r, &v);
    else visit_all(g, &v);
  }
  *maxs = v.maxs;
}
