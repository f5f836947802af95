/*
** lobb_world_query.c: a world's queries (w:query_box, w:query_point,
** w:raycast, w:cast, w:cast_turning, w:pairs, w:collisions), each in two
** phases.
**
** The search walks the tree in C and records ids (or pairs, or ray hits)
** in a scratch buffer, calling no Lua at all, so nothing can change the
** world under it. The results are then copied into the caller's table,
** and the filter called, by fill, a protected C half that
** lobb_world_pcall runs with the world locked: a filter that tries to
** add, update, remove or close gets a clear error, and the lock is
** released whatever happens (even a filter error) before the error goes
** on. A response set in the filter's place (obb.responses) is read in the
** first phase instead: an item whose class the set answers OBB_IGNORE
** (false) is never recorded (a pair, unless the set keeps both), and no
** Lua runs per item. The scratch buffer belongs to the world and grows as
** needed, so a query in a steady state allocates nothing; a query made
** while another fills its results (from a filter, or from a finalizer)
** uses a buffer of its own, freed after. The FFI's casts
** (lobb_ffi_world.c) share the first phase and the sort
** (lobb_world_casthits), and its raycast the ray's (lobb_world_rayhits);
** the FFI's queries read a set as the first phase here does
** (lobb_world_keeps).
*/
#include <limits.h>
#include <stdlib.h>

#include "lobb_responses.h"
#include "lobb_world.h"

/* ---- phase 1, the search into a scratch buffer ------------------------- */

enum { K_IDS, K_PAIRS, K_RAYS, K_CONTACTS };

typedef struct search {
  lworld *lw;
  scratch *s;
  size_t n, size; /* records so far, bytes per record */
  int oom;
  int self;         /* collisions: the item's own id, skipped */
  const unsigned char *keep; /* a response set's answers, or NULL: every
                             ** item (lobb_world_keeps) */
  const void *box;  /* collisions: the item's box */
} search;

/* An empty search of records of size bytes into s, for lw. */
static void search_init(search *q, lworld *lw, scratch *s, size_t size) {
  q->lw = lw;
  q->s = s;
  q->n = 0;
  q->size = size;
  q->oom = 0;
  q->self = -1;
  q->keep = NULL;
}

static void *next_rec(search *q) {
  size_t need = (q->n + 1) * q->size;
  if (need > q->s->cap) {
    size_t cap = q->s->cap < 256 ? 256 : q->s->cap;
    void *p;
    while (cap < need) {
      if (cap > ((size_t)-1) / 2) { q->oom = 1; return NULL; }
      cap *= 2;
    }
    p = q->lw->alloc(q->lw->ud, q->s->p, q->s->cap, cap);
    if (p == NULL) { q->oom = 1; return NULL; }
    q->s->p = (unsigned char *)p;
    q->s->cap = cap;
  }
  return q->s->p + q->n++ * q->size;
}

/* Whether the search keeps item id (its response set's answer). */
static int keeps(const search *q, int id) {
  return lobb_world_keeps(q->lw, q->keep, id);
}

static void on_id(void *ctx, int id) {
  search *q = (search *)ctx;
  int *r;
  if (!keeps(q, id)) return;
  r = (int *)next_rec(q);
  if (r != NULL) *r = id;
}

/* A pair is kept when the set keeps both items. */
static void on_pair(void *ctx, int a, int b) {
  search *q = (search *)ctx;
  int *r;
  if (!keeps(q, a) || !keeps(q, b)) return;
  r = (int *)next_rec(q);
  if (r != NULL) { r[0] = a; r[1] = b; }
}

static double on_ray(void *ctx, int id, double t, const double n[3],
                     double maxt) {
  search *q = (search *)ctx;
  ray_rec *r;
  if (!keeps(q, id)) return maxt;
  r = (ray_rec *)next_rec(q);
  if (r != NULL) {
    r->t = t; r->id = id; r->dist = 0;
    r->n[0] = n[0]; r->n[1] = n[1]; r->n[2] = n[2];
  }
  return maxt;
}

/* A cast's hit, with the squared distance from the cast box's center. */
static void on_cast(void *ctx, int id, double t, const double n[3]) {
  search *q = (search *)ctx;
  const double *a = q->lw->dim == 2 ? ((const obb2 *)q->box)->c
                                    : ((const obb3 *)q->box)->c;
  const void *other = obb_world_box(q->lw->w, id);
  const double *b = q->lw->dim == 2 ? ((const obb2 *)other)->c
                                    : ((const obb3 *)other)->c;
  ray_rec *r;
  int i;
  if (!keeps(q, id)) return;
  r = (ray_rec *)next_rec(q);
  if (r == NULL) return;
  r->t = t; r->id = id; r->dist = 0;
  for (i = 0; i < 3; i++) r->n[i] = n[i];
  for (i = 0; i < q->lw->dim; i++) r->dist += (b[i] - a[i]) * (b[i] - a[i]);
}

/* The other item's id and the vector that moves the item out of it:
** penetration normal times depth, as a:penetration(b) gives them. */
static void on_contact(void *ctx, int id) {
  search *q = (search *)ctx;
  const void *other;
  ray_rec *r;
  double n[3] = {0, 0, 0}, depth = 0;
  int i;
  if (id == q->self || !keeps(q, id)) return;
  other = obb_world_box(q->lw->w, id);
  if (q->lw->dim == 2) {
    if (!obb2_penetration((const obb2 *)q->box, (const obb2 *)other, n, &depth))
      depth = 0; /* intersects said yes: a touch too close to call */
  } else if (!obb3_penetration((const obb3 *)q->box, (const obb3 *)other, n,
                               &depth)) {
    depth = 0;
  }
  r = (ray_rec *)next_rec(q);
  if (r == NULL) return;
  r->id = id;
  r->t = 0;
  r->dist = 0;
  for (i = 0; i < 3; i++) r->n[i] = n[i] * depth + 0.0;
}

static int cmp_ray(const void *a, const void *b) {
  const ray_rec *x = (const ray_rec *)a, *y = (const ray_rec *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* Ray and cast hits, nearest (first met) first. */
static void sort_hits(search *q) {
  if (q->n > 1) qsort(q->s->p, q->n, q->size, cmp_ray);
}

/* A cast of box by d into q (turn NULL: w:cast, else w:cast_turning's
** turn); the core's answer. */
static int cast_search(search *q, const void *box, const double *d,
                       const double *turn) {
  q->box = box;
  return turn == NULL
             ? obb_world_cast(q->lw->w, box, d, on_cast, q)
             : obb_world_cast_turning(q->lw->w, box, d, turn, on_cast, q);
}

int lobb_world_casthits(lworld *lw, const void *box, const double *d,
                        const double *turn, const unsigned char *keep,
                        const ray_rec **hits, size_t *n) {
  search q;
  search_init(&q, lw, &lw->buf, sizeof(ray_rec));
  q.keep = keep;
  if (cast_search(&q, box, d, turn) < 0 || q.oom || q.n > INT_MAX)
    return -1;
  sort_hits(&q);
  *hits = (const ray_rec *)q.s->p; /* NULL when none was ever found */
  *n = q.n;
  return 0;
}

int lobb_world_rayhits(lworld *lw, const double *o, const double *d,
                       double maxt, const unsigned char *keep,
                       const ray_rec **hits, size_t *n) {
  search q;
  search_init(&q, lw, &lw->buf, sizeof(ray_rec));
  q.keep = keep;
  if (obb_world_raycast(lw->w, o, d, maxt, on_ray, &q) != 0 || q.oom ||
      q.n > INT_MAX)
    return -1;
  sort_hits(&q);
  *hits = (const ray_rec *)q.s->p; /* NULL when none was ever found */
  *n = q.n;
  return 0;
}

/* ---- phase 2, results into the caller's table -------------------------- */

typedef struct job { /* the results a query found, for fill */
  int kind, dim;
  const unsigned char *recs;
  size_t n;
} job;

/* The stack of fill: its arguments, then the world's id -> item table. */
enum { FILL_WORLD = 1, FILL_OUT, FILL_FILTER, FILL_BYID };

/* Protected: fill(world, out, filter) -> count, the results of the query
** the world is running (lw->job). No pointer crosses Lua: fill reached by
** hand (debug.getupvalue) can only copy out the current query's results,
** or raise. */
int lobb_world_fill(lua_State *L) {
  lworld *lw = lobb_world_test(L, FILL_WORLD);
  const job *j = lw != NULL ? lw->job : NULL;
  int filter, nv;
  lua_Integer k = 0, count = 0;
  size_t i;
  if (j == NULL || lua_type(L, FILL_OUT) != LUA_TTABLE)
    return luaL_error(L, "obb: fill called outside a world query");
  filter = !lua_isnil(L, FILL_FILTER);
  nv = j->dim;
  lua_settop(L, FILL_FILTER);
  lobb_world_pushitems(L, UV_BYID); /* at FILL_BYID */
  for (i = 0; i < j->n; i++) {
    const int *ids = NULL;
    const ray_rec *r = NULL;
    int a, nitems = j->kind == K_PAIRS ? 2 : 1, m;
    if (j->kind == K_IDS) {
      a = ((const int *)j->recs)[i];
    } else if (j->kind == K_PAIRS) {
      ids = (const int *)j->recs + 2 * i;
      a = ids[0];
    } else {
      r = (const ray_rec *)j->recs + i;
      a = r->id;
    }
    if (filter) {
      lua_pushvalue(L, FILL_FILTER);
      lua_rawgeti(L, FILL_BYID, a + 1);
      if (nitems == 2) lua_rawgeti(L, FILL_BYID, ids[1] + 1);
      lua_call(L, nitems, 1);
      m = lua_toboolean(L, -1);
      lua_pop(L, 1);
      if (!m) continue;
    }
    lua_rawgeti(L, FILL_BYID, a + 1);
    lua_rawseti(L, FILL_OUT, ++k);
    if (j->kind == K_PAIRS) {
      lua_rawgeti(L, FILL_BYID, ids[1] + 1);
      lua_rawseti(L, FILL_OUT, ++k);
    } else if (j->kind == K_RAYS) {
      lua_pushnumber(L, r->t);
      lua_rawseti(L, FILL_OUT, ++k);
    }
    if (j->kind == K_RAYS || j->kind == K_CONTACTS) {
      for (m = 0; m < nv; m++) {
        lua_pushnumber(L, r->n[m]);
        lua_rawseti(L, FILL_OUT, ++k);
      }
    }
    count++;
  }
  lobb_cleartail(L, FILL_OUT, k);
  lua_pushinteger(L, count);
  return 1;
}

/* The search's buffer when it is a private one (the world's was in use),
** else NULL. */
static scratch *own_buffer(const search *q) {
  return q->s != &q->lw->buf ? q->s : NULL;
}

/* Frees the search's private buffer and raises "not enough memory". */
static int search_failed(lua_State *L, lworld *lw, search *q) {
  scratch *own = own_buffer(q);
  if (own != NULL && own->p != NULL) lw->alloc(lw->ud, own->p, own->cap, 0);
  return luaL_error(L, "not enough memory");
}

/* Runs the search s (already done into q) through phase 2 and returns the
** count, or raises; frees a private buffer either way. */
static int finish(lua_State *L, lworld *lw, search *q, int kind, int out,
                  int filter) {
  job j;
  if (q->oom) return search_failed(L, lw, q);
  j.kind = kind;
  j.dim = lw->dim;
  j.recs = q->s->p;
  j.n = q->n;
  if (kind == K_RAYS) sort_hits(q);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, out);
  if (filter) lua_pushvalue(L, filter);
  else lua_pushnil(L);
  lobb_world_pcall(L, lw, UV_FILL, FILL_FILTER, &j, own_buffer(q));
  return 1;
}

/* Checks out (a table) and filter (a function, a response set or nil) at
** out, out + 1, and prepares the search (a set's answers in q->keep: the
** set stays on the caller's stack for the whole call); returns the
** filter function's index, or 0. */
static int begin(lua_State *L, lworld *lw, search *q, scratch *own, int out,
                 size_t size) {
  const lobb_responses *set = lobb_toresponses(L, out + 1);
  luaL_checktype(L, out, LUA_TTABLE);
  lobb_checknargs(L, out + 1);
  if (set == NULL && !lua_isnoneornil(L, out + 1) &&
      lua_type(L, out + 1) != LUA_TFUNCTION)
    lobb_typeerror(L, out + 1, "function, obb.responses or nil");
  own->p = NULL;
  own->cap = 0;
  /* the world's buffer is in use */
  search_init(q, lw, lw->lock > 0 ? own : &lw->buf, size);
  q->keep = set != NULL ? set->r : NULL;
  return set != NULL || lua_isnoneornil(L, out + 1) ? 0 : out + 1;
}

/* w:query_box(box, out [, filter]) -> n */
int lobb_world_query_box(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  const void *box = lobb_checkbox(L, 2, lw->dim);
  int filter = begin(L, lw, &q, &own, 3, sizeof(int));
  if (obb_world_query_box(lw->w, box, on_id, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_IDS, 3, filter);
}

/* w:query_point(x, y[, z], out [, filter]) -> n */
int lobb_world_query_point(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  double p[3];
  int filter;
  lobb_checkvec(L, 2, lw->dim, p);
  filter = begin(L, lw, &q, &own, 2 + lw->dim, sizeof(int));
  if (obb_world_query_point(lw->w, p, on_id, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_IDS, 2 + lw->dim, filter);
}

/* w:raycast(ox, oy[, oz], dx, dy[, dz], max_t | nil, out [, filter]) -> n;
** out gets item, t, nx, ny[, nz] per hit, nearest first. */
int lobb_world_raycast(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  double o[3], d[3], maxt;
  int dim = lw->dim, filter, out = 3 + 2 * dim;
  lobb_checkvec(L, 2, dim, o);
  lobb_checkdirection(L, 2 + dim, dim, d);
  maxt = lobb_checkmaxt(L, out - 1); /* as b:raycast takes it */
  filter = begin(L, lw, &q, &own, out, sizeof(ray_rec));
  if (obb_world_raycast(lw->w, o, d, maxt, on_ray, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_RAYS, out, filter);
}

/* w:cast(box, dx, dy[, dz], out [, filter]) -> n; out gets item, t, nx,
** ny[, nz] per item the box touches when moved by d, first met first
** (ties: nearer centers first). */
int lobb_world_cast(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  double d[3] = {0, 0, 0};
  int dim = lw->dim, filter, out = 3 + dim;
  const void *box = lobb_checkbox(L, 2, dim);
  lobb_checkvec(L, 3, dim, d);
  filter = begin(L, lw, &q, &own, out, sizeof(ray_rec));
  if (cast_search(&q, box, d, NULL) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_RAYS, out, filter);
}

/* w:cast_turning(box, dx, dy, w, out [, filter]) and
** w:cast_turning(box, dx, dy, dz, rx, ry, rz, out [, filter]) -> n: as
** w:cast, with the box turning by w radians (2D) or the rotation vector r
** (3D) as it moves, each item as obbN_sweep_turning answers it (an item
** it could not decide at its safe time). */
int lobb_world_cast_turning(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  double d[3] = {0, 0, 0}, r[3] = {0, 0, 0};
  int dim = lw->dim, turns = dim == 2 ? 1 : 3, filter, out = 3 + dim + turns;
  const void *box = lobb_checkbox(L, 2, dim);
  lobb_checkvec(L, 3, dim, d);
  lobb_checkvec(L, 3 + dim, turns, r);
  filter = begin(L, lw, &q, &own, out, sizeof(ray_rec));
  if (cast_search(&q, box, d, r) < 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_RAYS, out, filter);
}

/* w:pairs(out [, filter]) -> n; out gets a1, b1, a2, b2, ... */
int lobb_world_pairs(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  int filter = begin(L, lw, &q, &own, 2, 2 * sizeof(int));
  if (obb_world_pairs(lw->w, on_pair, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_PAIRS, 2, filter);
}

/* w:collisions(item, out [, filter]) -> n; out gets other, dx, dy[, dz]
** per item the given one intersects, (dx, dy[, dz]) moving it out. */
int lobb_world_collisions(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  search q;
  scratch own;
  int id = lobb_world_checkid(L, 2);
  int filter = begin(L, lw, &q, &own, 3, sizeof(ray_rec));
  q.self = id;
  q.box = obb_world_box(lw->w, id);
  if (obb_world_query_box(lw->w, q.box, on_contact, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_CONTACTS, 3, filter);
}

