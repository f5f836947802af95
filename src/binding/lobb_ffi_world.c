/*
** lobb_ffi_world.c: the world entry points of the LuaJIT FFI fast path
** (include/lobb_ffi.h), in the header's order, and the C half of its add.
**
** Each does what its classic method (lobb_world.c, lobb_move.c,
** lobb_world_query.c) does in the one fast case, with the same checks on
** the same helpers, or reports that it did nothing, having changed
** nothing: obb.jit (lua/obb/jit.lua) then calls the classic method. A
** world is recognised by its tag (lobb_world_usable), after jit.lua has
** checked its real metatable; it must be open, neither in a query nor
** adding, since Lua code (a filter, a finalizer) may call here from inside
** either. No Lua runs in any of them but the add's second half.
*/
#include <limits.h>
#include <string.h>

#include "lobb_ffi.h"
#include "lobb_responses.h"
#include "lobb_world.h"
#include "obb_math.h"

/* The dimension nv numbers after the item describe (as update and add
** take them), or 0. */
static int jit_dim(int nv) {
  return nv == 4 || nv == 5 ? 2 : nv == 6 || nv == 10 ? 3 : 0;
}

int lobb_ffi_world_update(void *world, double id, const double *v, int nv) {
  int k, dim = jit_dim(nv);
  lworld *lw = dim != 0 ? lobb_world_usableid(world, dim, id, &k) : NULL;
  anybox b;
  if (lw == NULL ||
      !lobb_world_tobox(dim, v, nv, obb_world_box(lw->w, k), &b))
    return 0;
  lobb_world_setbox(lw, k, &b);
  return 1;
}

int lobb_ffi_world_reserve(void *world, const double *v, int nv) {
  int dim = jit_dim(nv);
  lworld *lw = dim != 0 ? lobb_world_usable(world, dim) : NULL;
  anybox b;
  if (lw == NULL || !lobb_world_tobox(dim, v, nv, NULL, &b) ||
      obb_world_reserve(lw->w) < 0)
    return -1;
  lw->pending = b;
  lw->ticket = lw->ticket < INT_MAX ? lw->ticket + 1 : 1;
  lw->pending_ticket = lw->ticket;
  return lw->ticket;
}

/* The FFI add's second half, add(w, item, ticket) (lobb_ffi.h): enters
** the item and the box that lobb_ffi_world_reserve kept under ticket, as
** world_add does, and returns the world; false (having changed nothing)
** when that box is no longer waiting (another add came between, or the
** ticket is not the last one given) or the world or the item is not as
** the fast path checked: the classic add then runs. Reached by hand
** (debug.getupvalue), it can only enter an item that add would take with
** a box made from numbers add would take. */
int lobb_world_ffi_add(lua_State *L) {
  lworld *lw = lobb_world_usable(lobb_world_test(L, 1), 0);
  anybox b;
  int ok = lw != NULL && lw->pending_ticket != 0 &&
           lua_type(L, 3) == LUA_TNUMBER &&
           lua_tonumber(L, 3) == (lua_Number)lw->pending_ticket;
  if (ok) {
    b = lw->pending;
    lw->pending_ticket = 0;
    ok = !lua_isnoneornil(L, 2) &&
         !(lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2));
  }
  lua_settop(L, 2);
  if (!ok || lobb_world_itemid(L, 2) >= 0) {
    lua_pushboolean(L, 0);
    return 1;
  }
  return lobb_world_enter(L, lw, &b);
}

int lobb_ffi_world_get(void *world, double id, double *out) {
  int k;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  return lw != NULL ? lobb_world_tonumbers(lw->dim, obb_world_box(lw->w, k),
                                           out)
                    : 0;
}

/* ---- moves: w:check's first half, then the commit ---------------------- */

typedef struct ffi_hits {
  double *hits;
  int n, cap, response;
  const unsigned char *set; /* a response set's, by class, or NULL */
  lworld *lw;
  double *asks; /* a filter function's asks (NULL: none; below) */
  int nasks, ask_cap, nfixed, wrong;
  int last; /* the answer to the ask before, answered or guessed */
} ffi_hits;

/* The FFI path's guess of the filter function's answer about other: its
** last answer about it; for an other it never answered about, the answer
** to the ask before in this move (OBB_SLIDE for the first). A crowd the
** filter answers alike is then guessed right from its second other on:
** one run more, not one per other. */
static int guessed(const ffi_hits *f, int other) {
  const lworld *lw = f->lw;
  int g = (size_t)other < lw->nguess ? lw->guess[other] : 0;
  return g != 0 ? g - 1 : f->last;
}

/* Keeps answer r about other as its next guess (none when memory runs
** out: a guess is only a guess); lw->guess holds r + 1, 0 for none. */
static void remember(lworld *lw, int other, int r) {
  if ((size_t)other >= lw->nguess) {
    size_t n = lw->nguess < 64 ? 64 : lw->nguess;
    unsigned char *p;
    while (n <= (size_t)other) n *= 2;
    p = (unsigned char *)lw->alloc(lw->ud, lw->guess, lw->nguess, n);
    if (p == NULL) return;
    memset(p + lw->nguess, 0, n - lw->nguess);
    lw->guess = p;
    lw->nguess = n;
  }
  lw->guess[other] = (unsigned char)(r + 1);
}

/* The i-th ask of a move: the first nfixed were asked of the filter in
** the runs before (their answers are in the records), the others are
** guessed and recorded for Lua to ask (lobb_ffi.h); those beyond the
** buffer only counted (the caller runs again with room for all of them,
** once). -1 aborts the run: a record that is not the same ask as before
** (f->wrong). */
static int ffi_ask(ffi_hits *f, const obb_move_hit *hit) {
  int i = f->nasks++, r, q;
  double *a;
  if (i < f->nfixed) {
    a = f->asks + LOBB_FFI_ASK_RECORD * i; /* (nfixed <= ask_cap) */
    if (a[0] != hit->other || !(a[1] >= OBB_IGNORE && a[1] <= OBB_BOUNCE) ||
        a[1] != (int)a[1]) {
      f->wrong = 1;
      return -1;
    }
    r = (int)a[1];
    remember(f->lw, hit->other, r);
    return f->last = r;
  }
  r = f->last = guessed(f, hit->other);
  if (i >= f->ask_cap) return r;
  a = f->asks + LOBB_FFI_ASK_RECORD * i;
  a[0] = hit->other;
  a[1] = r;
  a[2] = hit->t;
  for (q = 0; q < 3; q++) a[3 + q] = hit->n[q];
  a[6] = hit->depth;
  return r;
}

static int ffi_filter(void *ctx, int item, const obb_move_hit *hit) {
  ffi_hits *f = (ffi_hits *)ctx;
  (void)item;
  if (f->asks != NULL) return ffi_ask(f, hit);
  return f->set != NULL ? f->set[lobb_world_class(f->lw, hit->other)]
                        : f->response;
}

static void ffi_report(void *ctx, const obb_move_hit *h) {
  ffi_hits *f = (ffi_hits *)ctx;
  double *r;
  int q;
  if (f->hits == NULL) return; /* a run that only commits (recommit) */
  if (f->n++ >= f->cap) return; /* counted: the caller then runs classic */
  r = f->hits + LOBB_FFI_MOVE_RECORD * (f->n - 1); /* 3D's layout in 2D too */
  r[0] = h->other;
  r[1] = h->response;
  r[2] = h->t;
  for (q = 0; q < 3; q++) {
    r[3 + q] = h->n[q];
    r[6 + q] = h->p[q];
  }
  r[9] = h->depth;
}

/* The dimension of a move of nv numbers after the item in a world of
** dimension dim, and whether it turns; 0 when there is no such form. */
static int move_form(int dim, int nv, int *turning) {
  *turning = nv == dim + (dim == 2 ? 1 : 4);
  return nv == dim || *turning ? dim : 0;
}

/* The world and item id of a move of the nv numbers v after the item, with
** its dimension and form checked as the classic method checks them, and
** the turn of the turning form; NULL when the classic method must run. */
static lworld *move_start(void *world, double id, const double *v, int nv,
                          int *k, int *turning, double turn[3]) {
  lworld *lw = lobb_world_usableid(world, 0, id, k);
  int dim;
  if (lw == NULL || (dim = move_form(lw->dim, nv, turning)) == 0 ||
      !obb_all_finite(v, (size_t)dim))
    return NULL;
  if (*turning && !lobb_move_turn(dim, obb_world_box(lw->w, *k), v + dim, turn))
    return NULL;
  return lw;
}

/* Runs the move of item k by f, keeps its final box for the commit, and
** writes actual (lobb_ffi.h); the core's count, or -1 for a move the
** classic method must run. */
static int ffi_move(lworld *lw, int k, const double *v, int turning,
                    const double *turn, ffi_hits *f, double *actual) {
  double rest[4];
  int n, dim = lw->dim;
  if (turning)
    n = obb_world_move_turning(lw->w, k, v, turn, ffi_filter, ffi_report, f,
                               &lw->moved);
  else {
    memcpy(&lw->moved, obb_world_box(lw->w, k),
           dim == 2 ? sizeof(obb2) : sizeof(obb3));
    n = obb_world_move(lw->w, k, v, ffi_filter, ffi_report, f,
                       dim == 2 ? lw->moved.b2.c : lw->moved.b3.c);
  }
  lw->moved_id = -1;
  if (n < 0 || f->n > f->cap ||
      !obb_all_finite(dim == 2 ? lw->moved.b2.c : lw->moved.b3.c,
                      (size_t)dim))
    return -1;
  lw->moved_id = k;
  lw->moved_ticket = lw->moved_ticket < INT_MAX ? lw->moved_ticket + 1 : 1;
  if (actual == NULL) return n;
  memcpy(actual, dim == 2 ? lw->moved.b2.c : lw->moved.b3.c,
         (size_t)dim * sizeof(double));
  if (dim == 2 && turning) actual[2] = obb2_angle(&lw->moved.b2);
  if (dim == 3 && turning) obb3_rotation(&lw->moved.b3, actual + 3);
  actual[7] = obb_world_changes(lw->w);
  actual[8] = dim;
  actual[10] = lw->moved_ticket;
  actual[12] = obb_world_move_end(lw->w, rest);
  return n;
}

static void hits_init(ffi_hits *f, lworld *lw, double *hits, int cap) {
  memset(f, 0, sizeof *f);
  f->hits = hits;
  f->cap = cap;
  f->lw = lw;
  f->last = OBB_SLIDE;
}

int lobb_ffi_world_move(void *world, double id, const double *v, int nv,
                        int response, const void *responses, double *hits,
                        int cap, double *actual) {
  int k, turning;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, &turning, turn);
  const lobb_responses *set = (const lobb_responses *)responses;
  ffi_hits f;
  if (lw == NULL || cap < 0) return -1;
  if (set != NULL ? set->tag != LOBB_TAG_RESPONSES
                  : response < OBB_TOUCH || response > OBB_BOUNCE)
    return -1;
  hits_init(&f, lw, hits, cap);
  f.response = response;
  f.set = set != NULL ? set->r : NULL;
  return ffi_move(lw, k, v, turning, turn, &f, actual);
}

int lobb_ffi_world_move_asking(void *world, double id, const double *v,
                               int nv, double *asks, int ask_cap, int nfixed,
                               double *hits, int cap, double *actual) {
  int k, turning, n;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, &turning, turn);
  ffi_hits f;
  if (lw == NULL || cap < 0 || ask_cap < 0 || nfixed < 0 || nfixed > ask_cap)
    return -1;
  hits_init(&f, lw, hits, cap);
  f.asks = asks;
  f.ask_cap = ask_cap;
  f.nfixed = nfixed;
  n = ffi_move(lw, k, v, turning, turn, &f, actual);
  actual[9] = f.nasks;
  actual[11] = f.n;
  if (f.wrong) return -1;
  if (f.nasks > ask_cap) return -2;
  if (f.n > cap) return -3;
  return n;
}

int lobb_ffi_world_filter_lock(void *world) {
  lworld *lw = lobb_world_usable(world, 0);
  if (lw == NULL) return -1;
  lw->lock++;
  lw->flock = 1;
  return lw->fserial;
}

int lobb_ffi_world_filter_unlock(void *world, int serial) {
  lworld *lw = lobb_world_tagged(world);
  if (lw == NULL || lw->flock != 1 || lw->fserial != serial) return 0;
  lw->flock = 0;
  lw->lock--;
  return 1;
}

/* Gives item k the box parked under ticket, when the world's change
** count is still stamp; 0, having changed nothing, otherwise. */
static int commit_parked(lworld *lw, int k, double stamp, double ticket) {
  if (lw->moved_id != k || lw->moved_ticket != ticket ||
      obb_world_changes(lw->w) != stamp)
    return 0;
  lw->moved_id = -1;
  lobb_world_setbox(lw, k, &lw->moved);
  return 1;
}

int lobb_ffi_world_commit(void *world, double id, double stamp,
                          double ticket) {
  int k;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  return lw != NULL && commit_parked(lw, k, stamp, ticket);
}

int lobb_ffi_world_recommit(void *world, double id, const double *v, int nv,
                            double *asks, int nasks, double stamp) {
  int k, turning, n;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, &turning, turn);
  ffi_hits f;
  if (lw == NULL || nasks < 0 || obb_world_changes(lw->w) != stamp) return 0;
  hits_init(&f, lw, NULL, INT_MAX);
  f.asks = asks;
  f.ask_cap = nasks; /* a run that asks more is not that move */
  f.nfixed = nasks;
  n = ffi_move(lw, k, v, turning, turn, &f, NULL);
  if (n < 0 || f.wrong || f.nasks != nasks) return 0;
  return commit_parked(lw, k, stamp, lw->moved_ticket);
}

/* Whether box, behind a userdata carrying the real metatable of dimension
** dim's boxes (jit.lua checked), is a genuine box: its tag. */
static int ffi_isbox(const void *box, int dim) {
  return dim == 2 ? ((const lobb_ud2 *)box)->tag == LOBB_TAG2
                  : ((const lobb_ud3 *)box)->tag == LOBB_TAG3;
}

/* A query's response set: 1 with its answers at *keep (NULL for no set),
** or 0 when responses, behind a userdata carrying the sets' real metatable
** (jit_world.lua checked), is no genuine set (its tag). */
static int ffi_keep(const void *responses, const unsigned char **keep) {
  const lobb_responses *set = (const lobb_responses *)responses;
  *keep = NULL;
  if (set == NULL) return 1;
  if (set->tag != LOBB_TAG_RESPONSES) return 0;
  *keep = set->r;
  return 1;
}

/* ---- casts: phase 1 and the sort of the classic ones, no phase 2 -------- */

/* The n hits r into hits (at most cap); their count, or -1. */
static int ffi_hits_out(const ray_rec *r, size_t n, double *hits, int cap) {
  size_t i;
  int k;
  if (n > (size_t)cap) return -1;
  for (i = 0; i < n; i++, r++) {
    double *h = hits + LOBB_FFI_CAST_RECORD * i; /* 3D's layout in 2D too */
    h[0] = r->id;
    h[1] = r->t;
    for (k = 0; k < 3; k++) h[2 + k] = r->n[k];
  }
  return (int)n;
}

/* turn NULL for w:cast, else w:cast_turning's turn. */
static int ffi_cast(void *world, const void *box, const double *d,
                    const double *turn, int dim, const void *responses,
                    double *hits, int cap) {
  lworld *lw = dim == 2 || dim == 3 ? lobb_world_usable(world, dim) : NULL;
  const unsigned char *keep;
  const ray_rec *r;
  size_t n;
  if (lw == NULL || cap < 0 || !obb_all_finite(d, (size_t)dim) ||
      (turn != NULL && !obb_all_finite(turn, dim == 2 ? 1 : 3)))
    return -1;
  if (!ffi_isbox(box, dim) || !ffi_keep(responses, &keep)) return -1;
  /* the box is the userdata's first field */
  if (lobb_world_casthits(lw, box, d, turn, keep, &r, &n) != 0) return -1;
  return ffi_hits_out(r, n, hits, cap);
}

int lobb_ffi_world_cast(void *world, const void *box, const double *d,
                        int dim, const void *responses, double *hits,
                        int cap) {
  return ffi_cast(world, box, d, NULL, dim, responses, hits, cap);
}

int lobb_ffi_world_cast_turning(void *world, const void *box,
                                const double *d, const double *turn, int dim,
                                const void *responses, double *hits,
                                int cap) {
  return ffi_cast(world, box, d, turn, dim, responses, hits, cap);
}

/* ---- raycast: phase 1 and the sort of the classic one, no phase 2 ------- */

int lobb_ffi_world_raycast(void *world, const double *o, const double *d,
                           double maxt, int dim, const void *responses,
                           double *hits, int cap) {
  lworld *lw = dim == 2 || dim == 3 ? lobb_world_usable(world, dim) : NULL;
  const unsigned char *keep;
  const ray_rec *r;
  size_t n;
  int i, zero = 1;
  if (lw == NULL || cap < 0 || !obb_all_finite(o, (size_t)dim) ||
      !obb_all_finite(d, (size_t)dim) || !(maxt >= 0) ||
      !ffi_keep(responses, &keep))
    return -1;
  for (i = 0; i < dim; i++)
    if (d[i] != 0.0) zero = 0;
  if (zero) return -1; /* the classic method's "direction must not be zero" */
  if (lobb_world_rayhits(lw, o, d, maxt, keep, &r, &n) != 0) return -1;
  return ffi_hits_out(r, n, hits, cap);
}

/* ---- queries: phase 1 straight into the caller's buffer ---------------- */

/* The ids the core reports, in the order it reports them (the order the
** classic method's phase 1 records them and its phase 2 writes them), the
** first cap of them kept; n counts on to cap + 1, which means too many.
** The items a response set leaves out are not reported (lobb_world_keeps,
** as the classic method's phase 1 leaves them out). */
typedef struct ffi_ids {
  double *ids;
  int n, cap;
  const lworld *lw;
  const unsigned char *keep;
} ffi_ids;

static void ffi_on_id(void *ctx, int id) {
  ffi_ids *f = (ffi_ids *)ctx;
  if (!lobb_world_keeps(f->lw, f->keep, id)) return;
  if (f->n < f->cap) f->ids[f->n] = id;
  if (f->n <= f->cap) f->n++;
}

/* The count of a search that returned rc into f, or -1. */
static int ffi_ids_count(int rc, const ffi_ids *f) {
  return rc != 0 || f->n > f->cap ? -1 : f->n;
}

/* Starts f for lw's query into ids (cap of them) with the set responses
** (or NULL); 0 when it is no genuine set. */
static int ffi_ids_init(ffi_ids *f, const lworld *lw, const void *responses,
                        double *ids, int cap) {
  f->ids = ids;
  f->n = 0;
  f->cap = cap;
  f->lw = lw;
  return ffi_keep(responses, &f->keep);
}

int lobb_ffi_world_query_box(void *world, const void *box, int dim,
                             const void *responses, double *ids, int cap) {
  lworld *lw = dim == 2 || dim == 3 ? lobb_world_usable(world, dim) : NULL;
  ffi_ids f;
  if (lw == NULL || cap < 0 || !ffi_isbox(box, dim) ||
      !ffi_ids_init(&f, lw, responses, ids, cap))
    return -1;
  /* the box is the userdata's first field */
  return ffi_ids_count(obb_world_query_box(lw->w, box, ffi_on_id, &f), &f);
}

int lobb_ffi_world_query_point(void *world, const double *p, int dim,
                               const void *responses, double *ids, int cap) {
  lworld *lw = dim == 2 || dim == 3 ? lobb_world_usable(world, dim) : NULL;
  ffi_ids f;
  if (lw == NULL || cap < 0 || !obb_all_finite(p, (size_t)dim) ||
      !ffi_ids_init(&f, lw, responses, ids, cap))
    return -1;
  return ffi_ids_count(obb_world_query_point(lw->w, p, ffi_on_id, &f), &f);
}
