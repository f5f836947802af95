/*
** lobb_world.c: the Lua face of worlds (obb.world2, obb.world3).
**
** A world userdata points to a core obb_world (obb_world.c) and keeps two
** user values: a table item -> id and an array id + 1 -> item. Items are
** any Lua values but nil and NaN; the core only sees ids, so no C pointer to
** a Lua value is ever kept.
**
** Every query runs in two phases. The search walks the tree in C and
** records ids (or pairs, or ray hits) in a scratch buffer, calling no Lua
** at all, so nothing can change the world under it. The results are then
** copied into the caller's table, and the filter called, inside lua_pcall
** with the world locked: a filter that tries to add, update, remove or
** close gets a clear error, and the lock is released whatever happens
** (even a filter error) before the error goes on. The scratch buffer
** belongs to the world and grows as needed, so a query in a steady state
** allocates nothing; a query made while another fills its results (from a
** filter, or from a finalizer) uses a buffer of its own, freed after.
*/
#include <stdlib.h>

#include "lobb_box.h"

#define LOBB_WORLD "obb.world"

#define UV_WORLD (LOBB_NUPVALUES + 1) /* the world metatable upvalue */
#define UV_FILL (LOBB_NUPVALUES + 2)  /* fill(), made once: in 5.1 and
                                      ** LuaJIT pushing a C function
                                      ** allocates a closure every time */
#define NUV_WORLD (LOBB_NUPVALUES + 2)
#define UV_BYITEM 1 /* user values of a world */
#define UV_BYID 2

typedef struct scratch {
  unsigned char *p;
  size_t cap;
} scratch;

typedef struct lworld {
  const void *tag; /* &world_tag: what marks a world (see to_world) */
  obb_world *w; /* NULL once closed */
  int dim;
  int lock; /* > 0 while results are copied out and filters run */
  scratch buf;
  lua_Alloc alloc;
  void *ud;
} lworld;

/* A world is a userdata of exactly sizeof(lworld) starting with the
** address of this constant, as boxes are told apart in lobb_internal.h:
** two API calls and a compare instead of the metatable's four, on every
** method call (w:update runs once per item and frame). Scripts cannot
** write raw bytes into a userdata, nor other modules know the address. */
static const char world_tag = 'w';

static lworld *to_world(lua_State *L, int idx) {
  lworld *lw = (lworld *)lua_touserdata(L, idx);
  return lw != NULL && lobb_rawlen(L, idx) == sizeof(lworld) &&
                 lw->tag == &world_tag ? lw : NULL;
}

static lworld *check_world(lua_State *L) {
  lworld *lw = to_world(L, 1);
  if (lw == NULL) lobb_typeerror(L, 1, LOBB_WORLD);
  if (lw->w == NULL) luaL_error(L, "world is closed");
  return lw;
}

static lworld *check_mutable(lua_State *L, const char *what) {
  lworld *lw = check_world(L);
  if (lw->lock > 0)
    luaL_error(L, "cannot %s items of a world during its query", what);
  return lw;
}

static void check_item(lua_State *L, int idx) {
  if (lua_isnoneornil(L, idx)) lobb_typeerror(L, idx, "item (any value but nil)");
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number x = lua_tonumber(L, idx);
    if (x != x) luaL_argerror(L, idx, "item must not be NaN");
  }
}

/* The item's id, or -1 when it is not in the world. */
static int item_id(lua_State *L, int idx) {
  int id = -1;
  lobb_getuv(L, 1, UV_BYITEM);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TNUMBER) id = (int)lua_tointeger(L, -1);
  lua_pop(L, 2);
  return id;
}

static int check_id(lua_State *L, int idx) {
  int id;
  check_item(L, idx);
  id = item_id(L, idx);
  if (id < 0) luaL_argerror(L, idx, "item is not in the world");
  return id;
}

/* ---- boxes from arguments -------------------------------------------- */

/* A box at idx, or the numbers lobb_checkboxargs2/3 read from idx on;
** without a rotation the box keeps old's (none when old is NULL). */
static void box_args2(lua_State *L, int idx, obb2 *b, const obb2 *old) {
  const obb2 *src = (obb2 *)lobb_tobox(L, idx, 2);
  if (src != NULL) {
    lobb_checknargs(L, idx);
    *b = *src;
    return;
  }
  if (lua_type(L, idx) != LUA_TNUMBER)
    lobb_typeerror(L, idx, "number or " LOBB_OBB2);
  lobb_checkboxargs(L, idx, 2, b, old);
}

static void box_args3(lua_State *L, int idx, obb3 *b, const obb3 *old) {
  const obb3 *src = (obb3 *)lobb_tobox(L, idx, 3);
  if (src != NULL) {
    lobb_checknargs(L, idx);
    *b = *src;
    return;
  }
  if (lua_type(L, idx) != LUA_TNUMBER)
    lobb_typeerror(L, idx, "number or " LOBB_OBB3);
  lobb_checkboxargs(L, idx, 3, b, old);
}

typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

static void box_args(lua_State *L, lworld *lw, int idx, anybox *b,
                     const void *old) {
  if (lw->dim == 2) box_args2(L, idx, &b->b2, (const obb2 *)old);
  else box_args3(L, idx, &b->b3, (const obb3 *)old);
}

/* ---- construction and life ------------------------------------------- */

static int new_world(lua_State *L, int dim) {
  lworld *lw;
  double margin = OBB_WORLD_MARGIN;
  lobb_checknargs(L, 1);
  if (!lua_isnoneornil(L, 1)) {
    margin = lobb_checkfinite(L, 1);
    if (margin < 0 || margin > 1e6)
      luaL_argerror(L, 1, "margin must be in [0, 1e6]");
  }
  lw = (lworld *)lobb_newuserdatan(L, sizeof(lworld), 2);
  lw->tag = &world_tag;
  lw->w = NULL;
  lw->dim = dim;
  lw->lock = 0;
  lw->buf.p = NULL;
  lw->buf.cap = 0;
  lw->alloc = lua_getallocf(L, &lw->ud);
  lua_pushvalue(L, lua_upvalueindex(UV_WORLD));
  lua_setmetatable(L, -2); /* from here __gc frees whatever is made */
  lua_newtable(L);
  lobb_setuv(L, -2, UV_BYITEM);
  lua_newtable(L);
  lobb_setuv(L, -2, UV_BYID);
  lw->w = obb_world_new(dim, margin, (obb_alloc)lw->alloc, lw->ud);
  if (lw->w == NULL) return luaL_error(L, "not enough memory");
  return 1;
}

/* obb.world2([margin]), obb.world3([margin]) */
static int l_world2(lua_State *L) { return new_world(L, 2); }
static int l_world3(lua_State *L) { return new_world(L, 3); }

static void free_buffer(lworld *lw) {
  if (lw->buf.p != NULL) lw->alloc(lw->ud, lw->buf.p, lw->buf.cap, 0);
  lw->buf.p = NULL;
  lw->buf.cap = 0;
}

static void release(lworld *lw) {
  free_buffer(lw);
  obb_world_free(lw->w);
  lw->w = NULL;
}

/* __gc: runs once the world is unreachable, so never during its query. */
static int mm_gc(lua_State *L) {
  lworld *lw = to_world(L, 1);
  if (lw != NULL) release(lw);
  return 0;
}

/* w:close() and __close: frees the world now; later calls raise "world is
** closed". Closing twice is harmless. */
static int m_close(lua_State *L) {
  lworld *lw = to_world(L, 1);
  if (lw == NULL) return lobb_typeerror(L, 1, LOBB_WORLD);
  if (lw->lock > 0)
    return luaL_error(L, "cannot close a world during its query");
  release(lw);
  lua_newtable(L); /* drop the items, so they can be collected */
  lobb_setuv(L, 1, UV_BYITEM);
  lua_newtable(L);
  lobb_setuv(L, 1, UV_BYID);
  return 0;
}

static int mm_tostring(lua_State *L) {
  lworld *lw = to_world(L, 1);
  if (lw == NULL) return lobb_typeerror(L, 1, LOBB_WORLD);
  if (lw->w == NULL)
    lua_pushfstring(L, LOBB_WORLD "%d (closed)", lw->dim);
  else
    lua_pushfstring(L, LOBB_WORLD "%d (%d items)", lw->dim,
                    obb_world_count(lw->w));
  return 1;
}

/* ---- items ------------------------------------------------------------ */

/* w:add(item, box | numbers) -> w */
static int m_add(lua_State *L) {
  lworld *lw = check_mutable(L, "add");
  anybox b;
  int id;
  check_item(L, 2);
  if (item_id(L, 2) >= 0) return luaL_argerror(L, 2, "item is already in the world");
  box_args(L, lw, 3, &b, NULL);
  /* The tables are written before the core, with the id it will use, so a
  ** memory error in Lua leaves the core untouched (a stale id -> item entry
  ** for a free id is harmless: only item -> id says what is in). */
  id = obb_world_reserve(lw->w);
  if (id < 0) return luaL_error(L, "not enough memory");
  lobb_getuv(L, 1, UV_BYID);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, id + 1);
  lobb_getuv(L, 1, UV_BYITEM);
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lua_rawset(L, -3);
  obb_world_add(lw->w, &b); /* cannot fail after obb_world_reserve */
  lua_settop(L, 1);
  return 1;
}

/* w:update(item, cx, cy, hx, hy [, angle]) on a 2D world, the call a game
** makes for every moving item and frame, with every check of the general
** path below but fewer API calls; returns 0 (having changed nothing) for
** anything else, or anything wrong, which the general path then takes (and
** reports). Without an angle the box keeps its rotation, and no sine or
** cosine is taken. */
static int update2_fast(lua_State *L) {
  lworld *lw = to_world(L, 1);
  lua_Number v[5];
  obb2 b;
  lua_Integer id;
  int i, nv = lua_gettop(L) - 2;
  if (lw == NULL || lw->w == NULL || lw->lock > 0 || lw->dim != 2 ||
      (nv != 4 && nv != 5))
    return 0;
  for (i = 0; i < nv; i++) {
    if (lua_type(L, 3 + i) != LUA_TNUMBER) return 0;
    v[i] = lua_tonumber(L, 3 + i);
    if (v[i] - v[i] != 0) return 0; /* NaN or infinite */
  }
  if (v[2] < 0 || v[3] < 0) return 0;
  lobb_getuv(L, 1, UV_BYITEM);
  lua_pushvalue(L, 2); /* nil or NaN finds nothing: the slow path says so */
  lua_rawget(L, -2);
  if (lua_type(L, -1) != LUA_TNUMBER) return 0;
  id = lua_tointeger(L, -1);
  b.c[0] = v[0]; b.c[1] = v[1];
  b.e[0] = v[2]; b.e[1] = v[3];
  if (nv == 5) {
    obb2_set_angle(&b, v[4]);
  } else {
    const obb2 *old = (const obb2 *)obb_world_box(lw->w, (int)id);
    if (old == NULL) return 0; /* cannot happen: item -> id lists live ids */
    b.u[0] = old->u[0]; b.u[1] = old->u[1];
  }
  obb_world_update(lw->w, (int)id, &b);
  lua_settop(L, 1);
  return 1;
}

/* w:update(item, box | numbers) -> w */
static int m_update(lua_State *L) {
  lworld *lw;
  int top = lua_gettop(L);
  if (update2_fast(L)) return 1;
  lua_settop(L, top);
  lw = check_mutable(L, "update");
  int id = check_id(L, 2);
  anybox b;
  box_args(L, lw, 3, &b, obb_world_box(lw->w, id));
  obb_world_update(lw->w, id, &b);
  lua_settop(L, 1);
  return 1;
}

/* w:remove(item) -> w */
static int m_remove(lua_State *L) {
  lworld *lw = check_mutable(L, "remove");
  int id = check_id(L, 2);
  lobb_checknargs(L, 2);
  lobb_getuv(L, 1, UV_BYITEM);
  lua_pushvalue(L, 2);
  lua_pushnil(L);
  lua_rawset(L, -3);
  lobb_getuv(L, 1, UV_BYID);
  lua_pushnil(L);
  lua_rawseti(L, -2, id + 1);
  obb_world_remove(lw->w, id);
  if (obb_world_count(lw->w) == 0) { /* the core freed its arrays */
    free_buffer(lw);
    lua_newtable(L); /* fresh tables: emptied ones keep their size */
    lobb_setuv(L, 1, UV_BYITEM);
    lua_newtable(L);
    lobb_setuv(L, 1, UV_BYID);
  }
  lua_settop(L, 1);
  return 1;
}

/* w:has(item) -> boolean (false for nil and NaN, never an error) */
static int m_has(lua_State *L) {
  int in = 0;
  check_world(L);
  lobb_checknargs(L, 2);
  if (!lua_isnoneornil(L, 2) &&
      !(lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2)))
    in = item_id(L, 2) >= 0;
  lua_pushboolean(L, in);
  return 1;
}

static int m_count(lua_State *L) {
  lworld *lw = check_world(L);
  lua_pushinteger(L, obb_world_count(lw->w));
  return 1;
}

/* w:memory() -> bytes the world holds outside Lua's heap (its C arrays
** and scratch; collectgarbage("count") does not see them) */
static int m_memory(lua_State *L) {
  lworld *lw = check_world(L);
  lobb_checknargs(L, 1);
  lua_pushnumber(L, (lua_Number)(obb_world_memory(lw->w) + lw->buf.cap));
  return 1;
}

/* w:get(item) -> numbers as add takes them; w:get(item, box) -> box, set */
static int m_get(lua_State *L) {
  lworld *lw = check_world(L);
  int id = check_id(L, 2), i;
  const void *src = obb_world_box(lw->w, id);
  double v[10];
  lobb_checknargs(L, 3);
  if (!lua_isnoneornil(L, 3)) {
    if (lw->dim == 2) *lobb_checkobb2(L, 3) = *(const obb2 *)src;
    else *lobb_checkobb3(L, 3) = *(const obb3 *)src;
    lua_settop(L, 3);
    return 1;
  }
  if (lw->dim == 2) {
    const obb2 *b = (const obb2 *)src;
    v[0] = b->c[0]; v[1] = b->c[1]; v[2] = b->e[0]; v[3] = b->e[1];
    v[4] = obb2_angle(b);
  } else {
    const obb3 *b = (const obb3 *)src;
    for (i = 0; i < 3; i++) { v[i] = b->c[i]; v[i + 3] = b->e[i]; }
    obb3_rotation(b, v + 6);
  }
  i = lw->dim == 2 ? 5 : 10;
  luaL_checkstack(L, i, NULL);
  for (id = 0; id < i; id++) lua_pushnumber(L, v[id]);
  return i;
}

/* ---- queries: phase 1, the search into a scratch buffer ---------------- */

enum { K_IDS, K_PAIRS, K_RAYS, K_CONTACTS };

typedef struct ray_rec { /* a ray hit; also a contact (t unused) */
  double t, n[3];
  int id;
} ray_rec;

typedef struct search {
  lworld *lw;
  scratch *s;
  size_t n, size; /* records so far, bytes per record */
  int oom;
  int self;         /* collisions: the item's own id, skipped */
  const void *box;  /* collisions: the item's box */
} search;

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

static void on_id(void *ctx, int id) {
  int *r = (int *)next_rec((search *)ctx);
  if (r != NULL) *r = id;
}

static void on_pair(void *ctx, int a, int b) {
  int *r = (int *)next_rec((search *)ctx);
  if (r != NULL) { r[0] = a; r[1] = b; }
}

static double on_ray(void *ctx, int id, double t, const double n[3],
                     double maxt) {
  ray_rec *r = (ray_rec *)next_rec((search *)ctx);
  if (r != NULL) {
    r->t = t; r->id = id;
    r->n[0] = n[0]; r->n[1] = n[1]; r->n[2] = n[2];
  }
  return maxt;
}

/* The other item's id and the vector that moves the item out of it:
** penetration normal times depth, as a:penetration(b) gives them. */
static void on_contact(void *ctx, int id) {
  search *q = (search *)ctx;
  const void *other;
  ray_rec *r;
  double n[3] = {0, 0, 0}, depth = 0;
  int i;
  if (id == q->self) return;
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
  for (i = 0; i < 3; i++) r->n[i] = n[i] * depth + 0.0;
}

static int cmp_ray(const void *a, const void *b) {
  const ray_rec *x = (const ray_rec *)a, *y = (const ray_rec *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* ---- queries: phase 2, results into the caller's table ----------------- */

typedef struct job {
  int kind, dim;
  const unsigned char *recs;
  size_t n;
} job;

/* Protected: fill(job, out, filter, world) -> count. */
static int fill(lua_State *L) {
  const job *j = (const job *)lua_touserdata(L, 1);
  int filter = !lua_isnil(L, 3), nv = j->dim;
  lua_Integer k = 0, count = 0;
  size_t i;
  lobb_getuv(L, 4, UV_BYID); /* at 5 */
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
      lua_pushvalue(L, 3);
      lua_rawgeti(L, 5, a + 1);
      if (nitems == 2) lua_rawgeti(L, 5, ids[1] + 1);
      lua_call(L, nitems, 1);
      m = lua_toboolean(L, -1);
      lua_pop(L, 1);
      if (!m) continue;
    }
    lua_rawgeti(L, 5, a + 1);
    lua_rawseti(L, 2, ++k);
    if (j->kind == K_PAIRS) {
      lua_rawgeti(L, 5, ids[1] + 1);
      lua_rawseti(L, 2, ++k);
    } else if (j->kind == K_RAYS) {
      lua_pushnumber(L, r->t);
      lua_rawseti(L, 2, ++k);
    }
    if (j->kind == K_RAYS || j->kind == K_CONTACTS) {
      for (m = 0; m < nv; m++) {
        lua_pushnumber(L, r->n[m]);
        lua_rawseti(L, 2, ++k);
      }
    }
    count++;
  }
  /* clear what an earlier, longer result left behind, so #out is right */
  for (;;) {
    lua_rawgeti(L, 2, ++k);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, 2, k);
  }
  lua_pushinteger(L, count);
  return 1;
}

/* Runs the search s (already done into q) through phase 2 and returns the
** count, or raises; frees a private buffer either way. */
static int finish(lua_State *L, lworld *lw, search *q, int kind, int out,
                  int filter) {
  job j;
  int st;
  if (q->oom) {
    if (q->s != &lw->buf && q->s->p != NULL)
      lw->alloc(lw->ud, q->s->p, q->s->cap, 0);
    return luaL_error(L, "not enough memory");
  }
  j.kind = kind;
  j.dim = lw->dim;
  j.recs = q->s->p;
  j.n = q->n;
  if (kind == K_RAYS && q->n > 1) qsort(q->s->p, q->n, q->size, cmp_ray);
  lua_pushvalue(L, lua_upvalueindex(UV_FILL));
  lua_pushlightuserdata(L, &j);
  lua_pushvalue(L, out);
  if (filter) lua_pushvalue(L, filter);
  else lua_pushnil(L);
  lua_pushvalue(L, 1);
  lw->lock++;
  st = lua_pcall(L, 4, 1, 0);
  lw->lock--;
  if (q->s != &lw->buf && q->s->p != NULL)
    lw->alloc(lw->ud, q->s->p, q->s->cap, 0);
  if (st != 0) return lua_error(L);
  return 1;
}

/* Checks out (a table) and filter (a function or nil) at out, out + 1,
** and prepares the search; returns the filter's index or 0. */
static int begin(lua_State *L, lworld *lw, search *q, scratch *own, int out,
                 size_t size) {
  luaL_checktype(L, out, LUA_TTABLE);
  lobb_checknargs(L, out + 1);
  if (!lua_isnoneornil(L, out + 1)) luaL_checktype(L, out + 1, LUA_TFUNCTION);
  q->lw = lw;
  q->n = 0;
  q->size = size;
  q->oom = 0;
  q->self = -1;
  own->p = NULL;
  own->cap = 0;
  q->s = lw->lock > 0 ? own : &lw->buf; /* the world's buffer is in use */
  return lua_isnoneornil(L, out + 1) ? 0 : out + 1;
}

static int search_failed(lua_State *L, lworld *lw, search *q) {
  if (q->s != &lw->buf && q->s->p != NULL)
    lw->alloc(lw->ud, q->s->p, q->s->cap, 0);
  return luaL_error(L, "not enough memory");
}

/* w:query_box(box, out [, filter]) -> n */
static int m_query_box(lua_State *L) {
  lworld *lw = check_world(L);
  search q;
  scratch own;
  const void *box = lw->dim == 2 ? (const void *)lobb_checkobb2(L, 2)
                                 : (const void *)lobb_checkobb3(L, 2);
  int filter = begin(L, lw, &q, &own, 3, sizeof(int));
  if (obb_world_query_box(lw->w, box, on_id, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_IDS, 3, filter);
}

/* w:query_point(x, y[, z], out [, filter]) -> n */
static int m_query_point(lua_State *L) {
  lworld *lw = check_world(L);
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
static int m_raycast(lua_State *L) {
  lworld *lw = check_world(L);
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

/* w:pairs(out [, filter]) -> n; out gets a1, b1, a2, b2, ... */
static int m_pairs(lua_State *L) {
  lworld *lw = check_world(L);
  search q;
  scratch own;
  int filter = begin(L, lw, &q, &own, 2, 2 * sizeof(int));
  if (obb_world_pairs(lw->w, on_pair, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_PAIRS, 2, filter);
}

/* w:collisions(item, out [, filter]) -> n; out gets other, dx, dy[, dz]
** per item the given one intersects, (dx, dy[, dz]) moving it out. */
static int m_collisions(lua_State *L) {
  lworld *lw = check_world(L);
  search q;
  scratch own;
  int id = check_id(L, 2);
  int filter = begin(L, lw, &q, &own, 3, sizeof(ray_rec));
  q.self = id;
  q.box = obb_world_box(lw->w, id);
  if (obb_world_query_box(lw->w, q.box, on_contact, &q) != 0)
    return search_failed(L, lw, &q);
  return finish(L, lw, &q, K_CONTACTS, 3, filter);
}

/* ---- registration ------------------------------------------------------ */

static const luaL_Reg world_methods[] = {
  {"add", m_add},
  {"update", m_update},
  {"remove", m_remove},
  {"memory", m_memory},
  {"has", m_has},
  {"get", m_get},
  {"count", m_count},
  {"query_box", m_query_box},
  {"query_point", m_query_point},
  {"raycast", m_raycast},
  {"pairs", m_pairs},
  {"collisions", m_collisions},
  {"close", m_close},
  {NULL, NULL}
};

static const luaL_Reg world_meta[] = {
  {"__gc", mm_gc},
#if LOBB_HAS_CLOSE
  {"__close", m_close},
#endif
  {"__len", m_count},
  {"__tostring", mm_tostring},
  {NULL, NULL}
};

static const luaL_Reg world_funcs[] = {
  {"world2", l_world2},
  {"world3", l_world3},
  {NULL, NULL}
};

/* Called from luaopen_obb with the module table on top: makes the world
** metatable and registers world2/world3, every function closed over the
** two box metatables and the world metatable. */
void lobb_open_world(lua_State *L, int mt2, int mt3) {
  int lib = lua_gettop(L), mtw, fn;
  luaL_newmetatable(L, LOBB_WORLD);
  lua_pushliteral(L, LOBB_WORLD);
  lua_setfield(L, -2, "__name");
  mtw = lua_gettop(L);
  lua_pushcfunction(L, fill);
  fn = lua_gettop(L);
  lua_pushvalue(L, mtw);
#define PUSH_UPVALUES() \
  (lua_pushvalue(L, mt2), lua_pushvalue(L, mt3), lua_pushvalue(L, mtw), \
   lua_pushvalue(L, fn))
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_meta, NUV_WORLD);
  lua_pop(L, 1);
  lua_newtable(L);
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_methods, NUV_WORLD);
  lua_setfield(L, mtw, "__index");
  lua_pushvalue(L, lib);
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_funcs, NUV_WORLD);
  lua_pop(L, 1);
#undef PUSH_UPVALUES
  lua_settop(L, lib);
}
