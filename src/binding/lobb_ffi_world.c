/*
** lobb_ffi_world.c: the world entry points of the LuaJIT FFI fast path
** (src/binding/lobb_ffi.h), in the header's order, and the C half of its add.
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
  lw->ffi.pending = b;
  lw->ffi.ticket = lw->ffi.ticket < INT_MAX ? lw->ffi.ticket + 1 : 1;
  lw->ffi.pending_ticket = lw->ffi.ticket;
  return lw->ffi.ticket;
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
  int ok = lw != NULL && lw->ffi.pending_ticket != 0 &&
           lua_type(L, 3) == LUA_TNUMBER &&
           lua_tonumber(L, 3) == (lua_Number)lw->ffi.pending_ticket;
  if (ok) {
    b = lw->ffi.pending;
    lw->ffi.pending_ticket = 0;
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

int lobb_ffi_world_character(void *world, double id, double *out) {
  int k, q;
  obb_character_state s;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  if (lw == NULL) return 0;
  obb_world_character_state(lw->w, k, &s);
  out[0] = s.on_floor;
  out[1] = s.on_wall;
  out[2] = s.on_ceiling;
  out[3] = s.on_floor ? s.ground.other : -1;
  for (q = 0; q < 3; q++) {
    out[4 + q] = s.on_floor ? s.ground.n[q] : 0;
    out[7 + q] = s.platform[q];
  }
  return lw->dim;
}

/* ---- moves ------------------------------------------------------------- */

/* What a move's callbacks share: where its records go (at most cap of
** them; n counts on), and how each other is answered. */
typedef struct ffi_hits {
  double *hits;
  int n, cap, response;
  const unsigned char *set; /* a response set's, by class, or NULL */
  lworld *lw;
  int asks;                 /* a filter function: asked from Lua (OBB_ASK) */
  const double *answers;    /* a run again of a move that asked: its answers,
                            ** other and response each, in order */
  int nanswers, answered, wrong;
} ffi_hits;

/* The answers of a move run again (lobb_ffi_world_recommit): the next one,
** which must be about this other; -1 (f->wrong) otherwise. */
static int replayed(ffi_hits *f, const obb_move_hit *hit) {
  const double *a = f->answers + 2 * f->answered;
  if (f->answered >= f->nanswers || a[0] != hit->other ||
      !(a[1] >= OBB_IGNORE && a[1] <= OBB_BOUNCE) || a[1] != (int)a[1]) {
    f->wrong = 1;
    return -1;
  }
  f->answered++;
  return (int)a[1];
}

static int ffi_filter(void *ctx, int item, const obb_move_hit *hit) {
  ffi_hits *f = (ffi_hits *)ctx;
  (void)item;
  if (f->asks) return OBB_ASK;
  if (f->answers != NULL) return replayed(f, hit);
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
** its turn (zeros for none); NULL when the classic method must run. */
static lworld *move_start(void *world, double id, const double *v, int nv,
                          int *k, double turn[3]) {
  lworld *lw = lobb_world_usableid(world, 0, id, k);
  int dim, turning;
  turn[0] = turn[1] = turn[2] = 0;
  if (lw == NULL || (dim = move_form(lw->dim, nv, &turning)) == 0 ||
      !obb_all_finite(v, (size_t)dim))
    return NULL;
  if (turning && !lobb_move_turn(dim, obb_world_box(lw->w, *k), v + dim, turn))
    return NULL;
  return lw;
}

static void hits_init(ffi_hits *f, lworld *lw, double *hits, int cap) {
  memset(f, 0, sizeof *f);
  f->hits = hits;
  f->cap = cap;
  f->lw = lw;
}

/* The end of a move of item k whose core answer is n and end box end:
** -1 for the classic method (an error, records beyond cap, a box that is
** not finite); else committed at once (commit) or kept for
** lobb_ffi_world_commit under a new ticket, and the results into actual
** (lobb_ffi.h); the number of records. */
static int move_end(lworld *lw, int k, int n, const anybox *end,
                    const ffi_hits *f, int commit, double *actual) {
  int dim = lw->dim;
  double rest[4];
  const double *c = dim == 2 ? end->b2.c : end->b3.c;
  lw->ffi.moved_id = -1;
  actual[11] = f->n;
  if (f->n > f->cap) return LOBB_FFI_FULL;
  if (n < 0 || !obb_all_finite(c, (size_t)dim)) return -1;
  memcpy(actual, c, (size_t)dim * sizeof(double));
  if (dim == 2) actual[2] = obb2_angle(&end->b2);
  else obb3_rotation(&end->b3, actual + 3);
  actual[7] = obb_world_changes(lw->w);
  actual[8] = dim;
  actual[12] = obb_world_move_end(lw->w, rest);
  if (commit) {
    lobb_world_setbox(lw, k, end);
    return n;
  }
  lw->ffi.moved = *end;
  lw->ffi.moved_id = k;
  lw->ffi.moved_ticket =
      lw->ffi.moved_ticket < INT_MAX ? lw->ffi.moved_ticket + 1 : 1;
  actual[10] = lw->ffi.moved_ticket;
  return n;
}

int lobb_ffi_world_move(void *world, double id, const double *v, int nv,
                        int response, const void *responses, double *hits,
                        int cap, double *actual, int commit) {
  int k, n;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, turn);
  const lobb_responses *set = (const lobb_responses *)responses;
  ffi_hits f;
  anybox end;
  if (lw == NULL || cap < 0) return -1;
  if (set != NULL ? set->tag != LOBB_TAG_RESPONSES
                  : response < OBB_TOUCH || response > OBB_BOUNCE)
    return -1;
  hits_init(&f, lw, hits, cap);
  f.response = response;
  f.set = set != NULL ? set->r : NULL;
  if (obb_world_character(lw->w, k, NULL)) { /* the kit's move */
    obb_move_calls calls;
    memset(&calls, 0, sizeof calls);
    calls.filter = ffi_filter;
    calls.filter_ctx = calls.report_ctx = &f;
    calls.report = ffi_report;
    n = obb_world_move_with(lw->w, k, v, turn, &calls, &end);
  } else {
    n = obb_world_move_turning(lw->w, k, v, turn, ffi_filter, ffi_report, &f,
                               &end);
  }
  return move_end(lw, k, n, &end, &f, commit, actual);
}

/* ---- moves that ask a filter function --------------------------------- */

/* The question of the move that stopped to ask into actual (lobb_ffi.h),
** the world locked for its filter (flock) under a new serial; returns
** LOBB_FFI_ASKING. */
static int asked(lworld *lw, int k, double *actual) {
  obb_move_hit q;
  int q3;
  actual[11] = obb_world_move_question(lw->ffi.asking, &q);
  if (lw->ffi.flock == 0) {
    lw->lock++;
    lw->ffi.flock = 1;
  }
  lw->ffi.asking_id = k;
  actual[8] = lw->dim;
  actual[13] = lw->ffi.fserial;
  actual[14] = q.other;
  actual[15] = q.t;
  for (q3 = 0; q3 < 3; q3++) actual[16 + q3] = q.n[q3];
  actual[19] = q.depth;
  return LOBB_FFI_ASKING;
}

/* The lock an asking move holds, released. */
static void unlock_asking(lworld *lw) {
  if (lw->ffi.flock == 1) {
    lw->ffi.flock = 0;
    lw->lock--;
  }
}

/* The asking move's answer n (end box end) into actual: asked again, or
** ended (the lock released). */
static int asking_result(lworld *lw, int k, int n, const anybox *end,
                         const ffi_hits *f, int commit, double *actual) {
  if (n == OBB_MOVE_ASKING) return asked(lw, k, actual);
  unlock_asking(lw);
  lw->ffi.fserial = lw->ffi.fserial < INT_MAX ? lw->ffi.fserial + 1 : 0;
  return move_end(lw, k, n, end, f, commit, actual);
}

int lobb_ffi_world_move_ask(void *world, double id, const double *v, int nv,
                            double *hits, int cap, double *actual,
                            int commit) {
  int k, n;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, turn);
  ffi_hits f;
  anybox end;
  if (lw == NULL || cap < 0) return -1;
  /* a character's move is several moves: its filter is asked from C */
  if (obb_world_character(lw->w, k, NULL)) return -1;
  if (lw->ffi.asking == NULL) {
    lw->ffi.asking = lw->alloc(lw->ud, NULL, 0, obb_move_state_size());
    if (lw->ffi.asking == NULL) return -1;
  }
  lw->ffi.fserial = lw->ffi.fserial < INT_MAX ? lw->ffi.fserial + 1 : 0;
  hits_init(&f, lw, hits, cap);
  f.asks = 1;
  n = obb_world_move_start(lw->ffi.asking, lw->w, k, v, turn, ffi_filter,
                           ffi_report, &f, &end);
  return asking_result(lw, k, n, &end, &f, commit, actual);
}

/* The world of an asking move that still holds its lock under serial,
** or NULL: the lock was taken back meanwhile (its filter yielded and the
** world was used from elsewhere: lobb_world_unstale), or the world was
** closed. */
static lworld *asking_world(void *world, int serial) {
  lworld *lw = lobb_world_tagged(world);
  return lw != NULL && lw->w != NULL && lw->ffi.flock == 1 &&
                 lw->ffi.fserial == serial && lw->ffi.asking != NULL
             ? lw
             : NULL;
}

int lobb_ffi_world_answer(void *world, int serial, int response,
                          double *hits, int cap, double *actual, int commit) {
  lworld *lw = asking_world(world, serial);
  ffi_hits f;
  anybox end;
  obb_move_hit q;
  int n;
  if (lw == NULL) return LOBB_FFI_REFUSED;
  if (response < OBB_IGNORE || response > OBB_BOUNCE || cap < 0) {
    lobb_ffi_world_drop(world, serial);
    return LOBB_FFI_REFUSED;
  }
  hits_init(&f, lw, hits, cap);
  f.asks = 1;
  f.n = obb_world_move_question(lw->ffi.asking, &q); /* the records so far */
  n = obb_world_move_resume(lw->ffi.asking, response, &f, &end);
  return asking_result(lw, lw->ffi.asking_id, n, &end, &f, commit, actual);
}

void lobb_ffi_world_drop(void *world, int serial) {
  lworld *lw = asking_world(world, serial);
  if (lw == NULL) return;
  unlock_asking(lw);
  lw->ffi.fserial = lw->ffi.fserial < INT_MAX ? lw->ffi.fserial + 1 : 0;
}

/* ---- the commit --------------------------------------------------------- */

/* Gives item k the box parked under ticket, when the world's change
** count is still stamp; 0, having changed nothing, otherwise. */
static int commit_parked(lworld *lw, int k, double stamp, double ticket) {
  if (lw->ffi.moved_id != k || lw->ffi.moved_ticket != ticket ||
      obb_world_changes(lw->w) != stamp)
    return 0;
  lw->ffi.moved_id = -1;
  lobb_world_setbox(lw, k, &lw->ffi.moved);
  return 1;
}

int lobb_ffi_world_commit(void *world, double id, double stamp,
                          double ticket) {
  int k;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  return lw != NULL && commit_parked(lw, k, stamp, ticket);
}

int lobb_ffi_world_recommit(void *world, double id, const double *v, int nv,
                            const double *answers, int nanswers,
                            double stamp) {
  int k, n;
  double turn[3];
  lworld *lw = move_start(world, id, v, nv, &k, turn);
  ffi_hits f;
  anybox end;
  if (lw == NULL || nanswers < 0 || obb_world_changes(lw->w) != stamp)
    return 0;
  hits_init(&f, lw, NULL, INT_MAX);
  f.answers = answers;
  f.nanswers = nanswers;
  n = obb_world_move_turning(lw->w, k, v, turn, ffi_filter, ffi_report, &f,
                             &end);
  if (n < 0 || f.wrong || f.answered != nanswers) return 0;
  lobb_world_setbox(lw, k, &end);
  return 1;
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
