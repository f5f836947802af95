/*
** lobb_bump.c: obb.bump's C half (lua/obb/bump.lua, "bump's loop in
** C"): the rectangles obb.bump keeps, by the world's ids, and bump's loop
** (src/core/obb_bump.c) run with the filter's answers guessed, for Lua to
** ask the filter after, in the order the loop asked, and to run the loop
** again from the first wrong guess (the FFI path's filter functions do
** the same for obb's own move: lobb_ffi_world.c).
**
** A world's rectangles: each is set by obb.bump after the item's box (add,
** update), and forgotten whenever the box changes any other way (every
** update and remove of the world clears it: lobb_bump_forget), so a
** rectangle the loop reads is always the one of the box the broad phase
** found. An item without one sends the move to Lua's loop. A guess is the
** filter's last answer about that other (OBB_BUMP_SLIDE before any).
**
** The loop's records, read by obb.bump in one layout from either path
** (lobb_ffi.h, LOBB_FFI_BUMP_*): per ask, the other's id, the answer, the
** step, whether it hits, and bump's narrow phase of the pair (overlaps,
** ti, normal, touch) with the other's rectangle; per col, its ask and the
** goal its response gave (where each step starts and goes follows from
** the cols before it).
** The classic function writes them into Lua tables, numbers with their
** Lua 5.3 subtype (obb_bump.h); the FFI entry into the caller's doubles.
*/
#include <string.h>

#include "lobb_ffi.h"
#include "lobb_world.h"
#include "obb_bump.h"
#include "obb_math.h"

/* The asks a move may make before Lua's loop makes it instead: bump's
** loop asks about a crowd of n crossed others n (n + 1) / 2 times. */
#define MAX_ASKS 65536

/* Integers larger than this leave the loop to Lua (obb_bump.h). */
#define MAX_INT 67108864.0 /* 2^26 */

#define HAS_RECT 0x80 /* in lbump.tag: the rectangle is set */
#define GUESS 0x07    /* in lbump.tag: the last answer + 1 (0: none) */

typedef struct bask {
  int other, kind, step, hit;
  obb_bump_hit h;
  obb_bump_rect o;
} bask;

typedef struct bcol {
  int ask, has_goal;
  obb_bump_num g[2];
} bcol;

/* A world's rectangles, guesses and the records of its last run. */
struct lbump {
  obb_bump_rect *rects; /* by id, rect_cap of them */
  unsigned char *tag;   /* by id, n of them: HAS_RECT, GUESS */
  size_t n, rect_cap;
  bask *asks;
  size_t ask_cap;
  bcol *cols;
  size_t col_cap;
  int *fixed; /* the answers asked before: other, kind */
  size_t fixed_cap;
  const struct brun *copy; /* the run obb._bump.check copies out, or NULL */
};

/* ---- the store --------------------------------------------------------- */

static void *resize(lworld *lw, void *p, size_t *cap, size_t want,
                    size_t size) {
  size_t n = *cap < 16 ? 16 : *cap;
  void *q;
  if (want <= *cap) return p;
  while (n < want) n *= 2;
  if (n > ((size_t)-1) / size) return NULL;
  q = lw->alloc(lw->ud, p, *cap * size, n * size);
  if (q != NULL) *cap = n;
  return q;
}

static lbump *bump_of(lworld *lw) {
  if (lw->bump == NULL) {
    lw->bump = (lbump *)lw->alloc(lw->ud, NULL, 0, sizeof(lbump));
    if (lw->bump != NULL) memset(lw->bump, 0, sizeof(lbump));
  }
  return lw->bump;
}

/* Room for id in the store: 0 when memory runs out. */
static int reach(lworld *lw, lbump *b, int id) {
  size_t want = (size_t)id + 1, n = b->n;
  obb_bump_rect *r;
  unsigned char *t;
  if (want <= n) return 1;
  r = (obb_bump_rect *)resize(lw, b->rects, &b->rect_cap, want, sizeof *r);
  if (r == NULL) return 0;
  b->rects = r;
  t = (unsigned char *)resize(lw, b->tag, &b->n, want, 1);
  if (t == NULL) return 0;
  memset(t + n, 0, b->n - n);
  b->tag = t;
  return 1;
}

void lobb_bump_forget(lworld *lw, int id) {
  lbump *b = lw->bump;
  if (b != NULL && id >= 0 && (size_t)id < b->n) b->tag[id] &= GUESS;
}

void lobb_bump_free(lworld *lw) {
  lbump *b = lw->bump;
  if (b == NULL) return;
  if (b->rects != NULL)
    lw->alloc(lw->ud, b->rects, b->rect_cap * sizeof(obb_bump_rect), 0);
  if (b->tag != NULL) lw->alloc(lw->ud, b->tag, b->n, 0);
  if (b->asks != NULL) lw->alloc(lw->ud, b->asks, b->ask_cap * sizeof(bask), 0);
  if (b->cols != NULL) lw->alloc(lw->ud, b->cols, b->col_cap * sizeof(bcol), 0);
  if (b->fixed != NULL)
    lw->alloc(lw->ud, b->fixed, b->fixed_cap * sizeof(int), 0);
  lw->alloc(lw->ud, b, sizeof *b, 0);
  lw->bump = NULL;
}

size_t lobb_bump_memory(const lworld *lw) {
  const lbump *b = lw->bump;
  if (b == NULL) return 0;
  return sizeof *b + b->rect_cap * sizeof(obb_bump_rect) + b->n +
         b->ask_cap * sizeof(bask) + b->col_cap * sizeof(bcol) +
         b->fixed_cap * sizeof(int);
}

/* A rectangle bump takes: finite, w and h positive, integers within
** MAX_INT (obb_bump.h). */
static int good_rect(const obb_bump_rect *r) {
  const obb_bump_num *v = &r->x;
  int i;
  for (i = 0; i < 4; i++)
    if (!obb_finite(v[i].v) || (v[i].isint && !(v[i].v <= MAX_INT &&
                                                 v[i].v >= -MAX_INT)))
      return 0;
  return r->w.v > 0 && r->h.v > 0;
}

/* Sets item id's rectangle r (good_rect); 0 (it stays unset) when memory
** runs out. */
static int put_rect(lworld *lw, int id, const obb_bump_rect *r) {
  lbump *b = bump_of(lw);
  if (b == NULL || !reach(lw, b, id)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  b->rects[id] = *r;
  b->tag[id] |= HAS_RECT;
  return 1;
}

/* Sets item id's rectangle; 0 (it stays unset) for a rectangle the loop
** does not take, or memory. */
static int set_rect(lworld *lw, int id, const obb_bump_rect *r) {
  if (!good_rect(r)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  return put_rect(lw, id, r);
}

/* The box obb.bump gives a rectangle: center x + w / 2, half extents
** w / 2 (its arithmetic), rotation kept (bump's rules: none); 0 for a
** center that overflows (w:update refuses it). */
static int box_of(const obb_bump_rect *r, const obb2 *old, obb2 *box) {
  *box = *old;
  box->c[0] = r->x.v + r->w.v / 2;
  box->c[1] = r->y.v + r->h.v / 2;
  box->e[0] = r->w.v / 2;
  box->e[1] = r->h.v / 2;
  return obb_finite(box->c[0]) && obb_finite(box->c[1]);
}

/* ---- a run ------------------------------------------------------------- */

struct brun {
  lworld *lw;
  lbump *b;
  int all;    /* every answer (>= 0), else guessed or fixed */
  int nfixed; /* the first answers: b->fixed */
  size_t nasks, ncols;
  int wrong; /* a fixed answer is not for the other this run asks about */
  int oom;
};
typedef struct brun brun;

static const obb_bump_rect *on_rect(void *ctx, int id) {
  const lbump *b = ((brun *)ctx)->b;
  return (size_t)id < b->n && (size_t)id < b->rect_cap &&
         (b->tag[id] & HAS_RECT) ? &b->rects[id] : NULL;
}

static int guessed(const lbump *b, int other) {
  int g = (size_t)other < b->n ? b->tag[other] & GUESS : 0;
  return g == 0 ? OBB_BUMP_SLIDE : g - 1;
}

static void remember(lbump *b, int other, int kind) {
  if ((size_t)other < b->n)
    b->tag[other] = (unsigned char)((b->tag[other] & HAS_RECT) | (kind + 1));
}

static int on_ask(void *ctx, const obb_bump_step *p, int other,
                  const obb_bump_hit *hit) {
  brun *r = (brun *)ctx;
  lbump *b = r->b;
  size_t i = r->nasks;
  bask *a;
  if (i >= MAX_ASKS) return -1;
  a = (bask *)resize(r->lw, b->asks, &b->ask_cap, i + 1, sizeof *a);
  if (a == NULL) {
    r->oom = 1;
    return -1;
  }
  b->asks = a;
  a += i;
  if (r->all >= 0) a->kind = r->all;
  else if ((int)i < r->nfixed) {
    if (b->fixed[2 * i] != other) {
      r->wrong = 1;
      return -1;
    }
    a->kind = b->fixed[2 * i + 1];
    remember(b, other, a->kind);
  } else a->kind = guessed(b, other);
  a->other = other;
  a->step = p->index;
  a->hit = hit != NULL;
  if (hit != NULL) {
    a->h = *hit;
    a->o = b->rects[other];
  }
  r->nasks++;
  return a->kind;
}

static int on_col(void *ctx, const obb_bump_step *p, int ask, int kind,
                  const obb_bump_num *goal) {
  brun *r = (brun *)ctx;
  lbump *b = r->b;
  bcol *c;
  (void)kind;
  (void)p;
  c = (bcol *)resize(r->lw, b->cols, &b->col_cap, r->ncols + 1, sizeof *c);
  if (c == NULL) {
    r->oom = 1;
    return -1;
  }
  b->cols = c;
  c += r->ncols++;
  c->ask = ask;
  c->has_goal = goal != NULL;
  if (goal != NULL) {
    c->g[0] = goal[0];
    c->g[1] = goal[1];
  }
  return 0;
}

/* The fixed answers' room (nfixed pairs): 0 when memory runs out. */
static int fixed_room(lworld *lw, lbump *b, int nfixed) {
  int *f = (int *)resize(lw, b->fixed, &b->fixed_cap, 2 * (size_t)nfixed + 2,
                         sizeof(int));
  if (f == NULL) return 0;
  b->fixed = f;
  return 1;
}

/* Runs bump's loop for item id from *r toward goal, the answers all (>= 0)
** or the nfixed in b->fixed then guessed. Returns obb_bump_check's code,
** or -3 when a fixed answer is not this run's (the world changed). */
static int run(lworld *lw, int id, const obb_bump_rect *r, obb_bump_num goal[2],
               int all, int nfixed, brun *out) {
  obb_bump_io io;
  int rc;
  memset(out, 0, sizeof *out);
  out->lw = lw;
  out->b = lw->bump;
  out->all = all;
  out->nfixed = nfixed;
  io.rect = on_rect;
  io.ask = on_ask;
  io.col = on_col;
  io.ctx = out;
  rc = obb_bump_check(lw->w, &io, id, r, goal);
  if (out->wrong) return -3;
  return rc == -2 ? -1 : rc;
}

/* The move of run res (status rc, from r to goal) committed here, as
** obb.bump would commit it after asking: when it needs no asking (every
** answer all, or none asked), it is done, and it moved. Returns 1 when
** it committed (the item's box and rectangle at goal). */
static int commit_run(lworld *lw, int id, const obb_bump_rect *r,
                      const obb_bump_num goal[2], int rc, const brun *res) {
  obb_bump_rect to = *r;
  obb2 box;
  if (rc != OBB_BUMP_DONE || (res->all < 0 && res->nasks > 0) ||
      (goal[0].v == r->x.v && goal[1].v == r->y.v))
    return 0;
  to.x = goal[0];
  to.y = goal[1];
  if (!good_rect(&to) ||
      !box_of(&to, (const obb2 *)obb_world_box(lw->w, id), &box))
    return 0;
  obb_world_update(lw->w, id, &box);
  put_rect(lw, id, &to);
  return 1;
}

/* A recorded other's id, or -1 for a number that is none (NaN, out of
** range: no conversion to int of those). */
static int id_or_none(double v) {
  return v >= 0 && v < (double)(1 << 30) && v == (int)v ? (int)v : -1;
}

/* Whether an answer all (>= 0) or nfixed answers in [0, MAX_ASKS] can be
** taken, and the world's store is there. */
static int runnable(lworld *lw, int all, int nfixed) {
  return lw->bump != NULL && all >= -1 && all <= OBB_BUMP_OTHER &&
         nfixed >= 0 && nfixed <= MAX_ASKS && fixed_room(lw, lw->bump, nfixed);
}

/* ---- the FFI's entry points ------------------------------------------- */

static obb_bump_rect rect_of(double x, double y, double w, double h) {
  obb_bump_rect r;
  r.x.v = x;
  r.y.v = y;
  r.w.v = w;
  r.h.v = h;
  r.x.isint = r.y.isint = r.w.isint = r.h.isint = 0;
  return r;
}

int lobb_ffi_bump_rect(void *world, double id, double x, double y, double w,
                       double h) {
  int k;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect rect = rect_of(x, y, w, h);
  if (lw == NULL) return 0;
  return set_rect(lw, k, &rect);
}

int lobb_ffi_bump_update(void *world, double id, double x, double y,
                         double w, double h) {
  int k;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect rect = rect_of(x, y, w, h);
  obb2 box;
  if (lw == NULL || !good_rect(&rect) ||
      !box_of(&rect, (const obb2 *)obb_world_box(lw->w, k), &box))
    return 0;
  obb_world_update(lw->w, k, &box);
  put_rect(lw, k, &rect);
  return 1;
}

static void put_num(double *d, obb_bump_num n) { *d = n.v; }

static void put_ask(double *d, const bask *a) {
  d[0] = a->other;
  d[1] = a->kind;
  d[2] = a->step;
  d[3] = a->hit;
  if (!a->hit) return;
  d[4] = a->h.overlaps;
  put_num(d + 5, a->h.ti);
  put_num(d + 6, a->h.nx);
  put_num(d + 7, a->h.ny);
  put_num(d + 8, a->h.tx);
  put_num(d + 9, a->h.ty);
  put_num(d + 10, a->o.x);
  put_num(d + 11, a->o.y);
  put_num(d + 12, a->o.w);
  put_num(d + 13, a->o.h);
}

int lobb_ffi_bump_check(void *world, double id, const double *in, int all,
                        int nfixed, int commit, double *asks, int ask_cap,
                        double *cols, int col_cap, double *out) {
  int k, rc, i;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect r;
  obb_bump_num goal[2];
  brun res;
  lbump *b;
  if (lw == NULL || !runnable(lw, all, nfixed) || nfixed > ask_cap)
    return -1;
  b = lw->bump;
  for (i = 0; i < nfixed; i++) {
    const double *a = asks + (size_t)LOBB_FFI_BUMP_ASK * i;
    if (!(a[1] >= OBB_BUMP_NONE && a[1] <= OBB_BUMP_OTHER)) return -3;
    b->fixed[2 * i] = id_or_none(a[0]);
    b->fixed[2 * i + 1] = (int)a[1];
  }
  r = rect_of(in[0], in[1], in[2], in[3]);
  goal[0].v = in[4];
  goal[1].v = in[5];
  goal[0].isint = goal[1].isint = 0;
  if (!good_rect(&r) || !obb_finite(goal[0].v) || !obb_finite(goal[1].v))
    return -1;
  rc = run(lw, k, &r, goal, all, nfixed, &res);
  out[0] = goal[0].v;
  out[1] = goal[1].v;
  out[2] = (double)res.nasks;
  out[3] = (double)res.ncols;
  out[4] = 0;
  if (rc < 0) return rc;
  if (res.nasks > (size_t)ask_cap || res.ncols > (size_t)col_cap) return -2;
  if (commit) out[4] = commit_run(lw, k, &r, goal, rc, &res);
  for (i = nfixed; (size_t)i < res.nasks; i++)
    put_ask(asks + (size_t)LOBB_FFI_BUMP_ASK * i, &b->asks[i]);
  for (i = 0; (size_t)i < res.ncols; i++) {
    double *c = cols + (size_t)LOBB_FFI_BUMP_COL * i;
    const bcol *bc = &b->cols[i];
    c[0] = bc->ask;
    c[1] = bc->has_goal;
    c[2] = bc->g[0].v;
    c[3] = bc->g[1].v;
  }
  return rc;
}

/* ---- the classic functions (obb._bump) -------------------------------- */

/* The number at idx with its subtype; 0 for anything else, or an integer
** beyond MAX_INT. */
static int to_num(lua_State *L, int idx, obb_bump_num *n) {
  if (lua_type(L, idx) != LUA_TNUMBER) return 0;
  n->v = lua_tonumber(L, idx);
  n->isint = 0;
#if LUA_VERSION_NUM >= 503
  if (lua_isinteger(L, idx)) {
    n->isint = 1;
    return n->v <= MAX_INT && n->v >= -MAX_INT;
  }
#endif
  return 1;
}

static void push_num(lua_State *L, obb_bump_num n) {
#if LUA_VERSION_NUM >= 503
  if (n.isint) {
    lua_pushinteger(L, (lua_Integer)n.v);
    return;
  }
#endif
  lua_pushnumber(L, n.v);
}

static int to_rect(lua_State *L, int idx, obb_bump_rect *r) {
  return to_num(L, idx, &r->x) && to_num(L, idx + 1, &r->y) &&
         to_num(L, idx + 2, &r->w) && to_num(L, idx + 3, &r->h);
}

/* The world at 1, usable (lobb_world_usable, 2D), and the live id of the
** item at 2; NULL when either is not. */
static lworld *usable_item(lua_State *L, int *id) {
  lworld *lw = lobb_world_usable(lobb_world_test(L, 1), 2);
  if (lw == NULL || lua_isnoneornil(L, 2)) return NULL;
  lobb_getuv(L, 1, UV_BYITEM);
  if (!lua_istable(L, -1)) return NULL;
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  *id = -1;
  if (lua_type(L, -1) == LUA_TNUMBER) {
    lua_Number x = lua_tonumber(L, -1);
    if (x >= 0 && x < (lua_Number)(1 << 30) && x == (int)x &&
        obb_world_box(lw->w, (int)x) != NULL)
      *id = (int)x;
  }
  lua_pop(L, 2);
  return *id >= 0 ? lw : NULL;
}

/* obb._bump.rect(w, item, x, y, width, height) -> true, or false when the
** loop cannot take it (the item then goes by Lua's loop) */
static int bump_rect(lua_State *L) {
  int id;
  lworld *lw = usable_item(L, &id);
  obb_bump_rect r;
  int ok = lw != NULL && to_rect(L, 3, &r) && set_rect(lw, id, &r);
  if (lw != NULL && !ok) lobb_bump_forget(lw, id);
  lua_pushboolean(L, ok);
  return 1;
}

/* obb._bump.update(w, item, x, y, width, height) -> true: the item's box
** (center x + width / 2, ...) and its rectangle; false, having changed
** nothing, when the world or the numbers are not for it */
static int bump_update(lua_State *L) {
  int id;
  lworld *lw = usable_item(L, &id);
  obb_bump_rect r;
  obb2 box;
  if (lw == NULL || !to_rect(L, 3, &r) || !good_rect(&r) ||
      !box_of(&r, (const obb2 *)obb_world_box(lw->w, id), &box)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  obb_world_update(lw->w, id, &box);
  put_rect(lw, id, &r);
  lua_pushboolean(L, 1);
  return 1;
}

/* Reads the nfixed answers of the asks table at t into b->fixed; 0 for a
** record that is not one. */
static int read_fixed(lua_State *L, int t, lbump *b, int nfixed) {
  int i, j;
  for (i = 0; i < nfixed; i++) {
    lua_Number v[2];
    for (j = 0; j < 2; j++) {
      lua_rawgeti(L, t, LOBB_FFI_BUMP_ASK * i + 1 + j);
      v[j] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
      lua_pop(L, 1);
    }
    if (!(v[1] >= OBB_BUMP_NONE && v[1] <= OBB_BUMP_OTHER)) return 0;
    b->fixed[2 * i] = id_or_none(v[0]);
    b->fixed[2 * i + 1] = (int)v[1];
  }
  return 1;
}

/* The optional integer at idx, as an int; out of [-1, MAX_ASKS + 1] it is
** MAX_ASKS + 1 (which no caller takes). */
static int small_int(lua_State *L, int idx, int def) {
  lua_Integer v = luaL_optinteger(L, idx, def);
  return v >= -1 && v <= MAX_ASKS ? (int)v : MAX_ASKS + 1;
}

static void set_field(lua_State *L, int t, lua_Integer k, obb_bump_num n) {
  push_num(L, n);
  lua_rawseti(L, t, k);
}

static void set_int(lua_State *L, int t, lua_Integer k, int v) {
  lua_pushinteger(L, v);
  lua_rawseti(L, t, k);
}

/* The records of run res into the tables asks, others (the items asked
** about, from the world's table by id at byid) and cols. */
static void write_records(lua_State *L, const lbump *b, const brun *res,
                          int nfixed, int byid, int asks, int others,
                          int cols) {
  size_t i;
  for (i = (size_t)nfixed; i < res->nasks; i++) {
    const bask *a = &b->asks[i];
    lua_Integer k = (lua_Integer)(LOBB_FFI_BUMP_ASK * i);
    set_int(L, asks, k + 1, a->other);
    set_int(L, asks, k + 2, a->kind);
    set_int(L, asks, k + 3, a->step);
    set_int(L, asks, k + 4, a->hit);
    lua_rawgeti(L, byid, a->other + 1);
    lua_rawseti(L, others, (lua_Integer)i + 1);
    if (!a->hit) continue;
    set_int(L, asks, k + 5, a->h.overlaps);
    set_field(L, asks, k + 6, a->h.ti);
    set_field(L, asks, k + 7, a->h.nx);
    set_field(L, asks, k + 8, a->h.ny);
    set_field(L, asks, k + 9, a->h.tx);
    set_field(L, asks, k + 10, a->h.ty);
    set_field(L, asks, k + 11, a->o.x);
    set_field(L, asks, k + 12, a->o.y);
    set_field(L, asks, k + 13, a->o.w);
    set_field(L, asks, k + 14, a->o.h);
  }
  for (i = 0; i < res->ncols; i++) {
    const bcol *c = &b->cols[i];
    lua_Integer k = (lua_Integer)(LOBB_FFI_BUMP_COL * i);
    set_int(L, cols, k + 1, c->ask);
    set_int(L, cols, k + 2, c->has_goal);
    if (!c->has_goal) continue;
    set_field(L, cols, k + 3, c->g[0]);
    set_field(L, cols, k + 4, c->g[1]);
  }
}

/* The protected half of obb._bump.check, (w, nfixed, byid, asks, others,
** cols): the records of the run it copies out into the tables (nothing
** unless w is copying one: reached by hand, it does nothing). */
static int copy_records(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  const brun *res = lw != NULL && lw->bump != NULL ? lw->bump->copy : NULL;
  if (res != NULL)
    write_records(L, res->b, res, (int)lua_tointeger(L, 2), 3, 4, 5, 6);
  return 0;
}

/* The records of run res into the tables at 11, 12 and 13, protected
** (copy_records, upvalue 1), with the world busy meanwhile. */
static void copy_out(lua_State *L, lworld *lw, brun *res, int nfixed) {
  int st;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushinteger(L, nfixed);
  lobb_world_pushitems(L, UV_BYID);
  lua_pushvalue(L, 11);
  lua_pushvalue(L, 12);
  lua_pushvalue(L, 13);
  lw->busy++;
  lw->bump->copy = res;
  st = lua_pcall(L, 6, 0, 0);
  lw->bump->copy = NULL;
  lw->busy--;
  if (st != 0) lua_error(L);
}

/* obb._bump.check(w, item, x, y, width, height, goalx, goaly, all,
** nfixed, asks, others, cols, commit) -> status, goalx, goaly, nasks,
** ncols, committed: bump's loop for item (its rectangle given), every
** answer all (>= 0) or the nfixed in asks then guessed, its records into
** the three tables (lobb_ffi.h's layout, from index 1; asks from nfixed
** on); with commit, a move that needs no asking is committed here
** (committed true). status: 0 done, 1 handoff (obb_bump.h), -1 for Lua's
** loop, -3 when a fixed answer is not this run's. The tables are written with the world busy, as add
** writes the item tables (a finalizer may run meanwhile: a run it makes
** goes by Lua's loop, and it cannot close the world under the records),
** inside lua_pcall (upvalue 1, copy_records), so that an error there
** still leaves the world as it was. */
static int bump_check(lua_State *L) {
  int id, all, nfixed, rc;
  lworld *lw = usable_item(L, &id);
  obb_bump_rect r;
  obb_bump_num goal[2];
  brun res;
  lua_settop(L, 14);
  if (lw == NULL || !to_rect(L, 3, &r) || !good_rect(&r) ||
      !to_num(L, 7, &goal[0]) || !to_num(L, 8, &goal[1]) ||
      !obb_finite(goal[0].v) || !obb_finite(goal[1].v))
    goto refuse;
  all = small_int(L, 9, -1);
  nfixed = small_int(L, 10, 0);
  luaL_checktype(L, 11, LUA_TTABLE);
  luaL_checktype(L, 12, LUA_TTABLE);
  luaL_checktype(L, 13, LUA_TTABLE);
  if (!runnable(lw, all, nfixed)) goto refuse;
  rc = read_fixed(L, 11, lw->bump, nfixed)
           ? run(lw, id, &r, goal, all, nfixed, &res) : -3;
  if (rc < 0) {
    lua_pushinteger(L, rc);
    return 1;
  }
  if (res.nasks > (size_t)nfixed || res.ncols > 0) copy_out(L, lw, &res, nfixed);
  lua_pushinteger(L, rc);
  push_num(L, goal[0]);
  push_num(L, goal[1]);
  lua_pushinteger(L, (lua_Integer)res.nasks);
  lua_pushinteger(L, (lua_Integer)res.ncols);
  lua_pushboolean(L, lua_toboolean(L, 14) && commit_run(lw, id, &r, goal, rc, &res));
  return 6;
refuse:
  lua_pushinteger(L, -1);
  return 1;
}


/* Sets field name of the table on top to n. */
static void set_const(lua_State *L, const char *name, int n) {
  lua_pushinteger(L, n);
  lua_setfield(L, -2, name);
}

void lobb_open_bump(lua_State *L, int lib) {
  lua_createtable(L, 0, 12);
  lua_pushcfunction(L, bump_rect);
  lua_setfield(L, -2, "rect");
  lua_pushcfunction(L, bump_update);
  lua_setfield(L, -2, "update");
  lua_pushcfunction(L, copy_records);
  lua_pushcclosure(L, bump_check, 1);
  lua_setfield(L, -2, "check");
  /* the records' strides and the answers' kinds, for obb.bump */
  set_const(L, "ASK", LOBB_FFI_BUMP_ASK);
  set_const(L, "COL", LOBB_FFI_BUMP_COL);
  set_const(L, "NONE", OBB_BUMP_NONE);
  set_const(L, "TOUCH", OBB_BUMP_TOUCH);
  set_const(L, "CROSS", OBB_BUMP_CROSS);
  set_const(L, "SLIDE", OBB_BUMP_SLIDE);
  set_const(L, "BOUNCE", OBB_BUMP_BOUNCE);
  set_const(L, "OTHER", OBB_BUMP_OTHER);
  lua_setfield(L, lib, "_bump");
}
