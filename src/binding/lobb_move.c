/*
** lobb_move.c: the Lua face of the movers (obb_move.c): w:move, w:check,
** w:push, and obb.clip / obb.reflect for the velocities a game keeps.
**
** A move runs the core mover inside lua_pcall with the world locked, as
** a query's second phase does (lobb_world_pcall): the filter is Lua, so it
** may raise, yield or try to change the world; the lock turns the change
** into a clear error, and the pcall releases the lock before any error
** goes on. The world itself changes only after the mover has finished
** and everything was checked: a move that raises leaves the item where
** it was. Collisions are gathered in the world's scratch buffer and
** written raw into the caller's table, so a move with a reused table
** makes no garbage. The FFI's moves (lobb_ffi_world.c) share only the
** commit.
*/
#include <math.h>
#include <string.h>

#include "lobb_responses.h"
#include "lobb_world.h"
#include "obb_math.h"

/* The stack of the protected half, run(world, item, filter, out, byid,
** bad), as run_locked passes it: the world, the item, the filter function
** (or nil), the table for the collisions (or nil), the world's id -> item
** table, and a slot that keeps a filter's bad answer alive. */
enum { RUN_WORLD = 1, RUN_ITEM, RUN_FILTER, RUN_OUT, RUN_BYID, RUN_BAD };

typedef struct lmove {
  lua_State *L;
  lworld *lw;
  int dim, id;
  int filter;         /* 1: call the Lua filter (RUN_FILTER) */
  int response;       /* without one: every other's response */
  const unsigned char *set; /* a response set's, by class (no Lua call) */
  int push;           /* 1: a push, else a move */
  int ground;         /* 1: w:ground (obb_world_ground into g) */
  obb_ground g;
  int turning;        /* 1: a move that turns by turn */
  double turn[3];
  anybox end;         /* a move: the item's box where it ends */
  double goal[3], actual[3], max_dist, moved;
  int inside;         /* a push: still inside a pushing other */
  int n;              /* the core's answer */
  int oom;
  size_t nhits;       /* collisions gathered in lw->buf */
  const char *bad;    /* a filter's answer that is no response */
  int bad_type;       /* 1: bad is the answer's type name; 2: bad is a
                      ** name with a zero byte in it, up to that byte */
} lmove;

/* The response a filter's answer (at idx) names (false or nil: ignore;
** lobb_toresponse, the binding's one reading of names), or -1 with m->bad
** set. */
static int response_of(lua_State *L, int idx, lmove *m) {
  if (!lua_toboolean(L, idx)) return OBB_IGNORE;
  if (lua_type(L, idx) == LUA_TSTRING) {
    int zero, r = lobb_toresponse(L, idx, &zero);
    if (r >= 0 && r <= OBB_BOUNCE) return r; /* a solid's names are not a
                                              ** mover's answers */
    m->bad_type = zero ? 2 : 0;
    m->bad = lua_tostring(L, idx); /* valid until the pcall returns: copied
                                   ** by then */
    return -1;
  }
  m->bad = luaL_typename(L, idx);
  m->bad_type = 1;
  return -1;
}

/* The core's filter: filter(item, other, nx, ny[, nz], t, depth). */
static int on_filter(void *ctx, int item, const obb_move_hit *hit) {
  lmove *m = (lmove *)ctx;
  lua_State *L = m->L;
  int r;
  (void)item;
  if (m->set != NULL) return m->set[lobb_world_class(m->lw, hit->other)];
  if (!m->filter) return m->response;
  lua_pushvalue(L, RUN_FILTER);
  lua_pushvalue(L, RUN_ITEM);
  lua_rawgeti(L, RUN_BYID, hit->other + 1);
  lobb_pushnumbers(L, hit->n, m->dim);
  lua_pushnumber(L, hit->t);
  lua_pushnumber(L, hit->depth);
  lua_call(L, 4 + m->dim, 1);
  r = response_of(L, -1, m);
  if (r < 0) {
    lua_replace(L, RUN_BAD); /* keeps a bad string alive until it is copied */
    return -1;
  }
  lua_pop(L, 1);
  return r;
}

/* The core's report: one collision into the world's scratch buffer. */
static void on_report(void *ctx, const obb_move_hit *hit) {
  lmove *m = (lmove *)ctx;
  lworld *lw = m->lw;
  size_t need = (m->nhits + 1) * sizeof(obb_move_hit);
  if (m->oom) return;
  if (need > lw->buf.cap) {
    size_t cap = lw->buf.cap < 256 ? 256 : lw->buf.cap * 2;
    void *p = cap > lw->buf.cap ? lw->alloc(lw->ud, lw->buf.p, lw->buf.cap, cap)
                                : NULL;
    if (p == NULL) { m->oom = 1; return; }
    lw->buf.p = (unsigned char *)p;
    lw->buf.cap = cap;
  }
  memcpy(lw->buf.p + m->nhits++ * sizeof(obb_move_hit), hit, sizeof *hit);
}

/* Writes the collisions into out (RUN_OUT), raw, MOVE_STRIDE(dim) numbers
** each, and clears what an earlier, longer result left behind. */
static void write_hits(lua_State *L, const lmove *m) {
  const obb_move_hit *h = (const obb_move_hit *)m->lw->buf.p;
  lua_Integer k = 0;
  size_t i;
  int q;
  for (i = 0; i < m->nhits; i++, h++) {
    k = (lua_Integer)i * MOVE_STRIDE(m->dim);
    lua_rawgeti(L, RUN_BYID, h->other + 1);
    lua_rawseti(L, RUN_OUT, ++k);
    lobb_pushresponse(L, h->response); /* never ignore: not reported */
    lua_rawseti(L, RUN_OUT, ++k);
    lua_pushnumber(L, h->t);
    lua_rawseti(L, RUN_OUT, ++k);
    for (q = 0; q < m->dim; q++) {
      lua_pushnumber(L, h->n[q]);
      lua_rawseti(L, RUN_OUT, ++k);
    }
    for (q = 0; q < m->dim; q++) {
      lua_pushnumber(L, h->p[q]);
      lua_rawseti(L, RUN_OUT, ++k);
    }
    lua_pushnumber(L, h->depth);
    lua_rawseti(L, RUN_OUT, ++k);
  }
  lobb_cleartail(L, RUN_OUT, k);
}

/* Protected: run(world, item, filter, out, byid, bad) runs the world's
** move (lw->move) and writes out. Nothing here changes the world. */
/* No pointer crosses Lua: run reached by hand (debug.getupvalue) finds the
** move through the world, and only while that move runs and once. */
int lobb_move_run(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  lmove *m = lw->move;
  if (m == NULL || m->L != NULL)
    return luaL_error(L, "obb: run called outside a move");
  m->L = L;
  if (m->ground)
    m->n = obb_world_ground(m->lw->w, m->id, m->max_dist,
                            m->set != NULL || m->filter ||
                                    m->response != OBB_SLIDE
                                ? on_filter /* a set too: it reads it */
                                : NULL,
                            m, &m->g);
  else if (m->push)
    m->n = obb_world_push(m->lw->w, m->id, m->max_dist, on_filter, m,
                          m->actual, &m->moved, &m->inside);
  else {
    /* a response set is read by the core, by class, with no call back
    ** here; so is nil (every other slides: no filter at all) */
    obb_move_calls calls;
    calls.filter = m->set == NULL && (m->filter || m->response != OBB_SLIDE)
                       ? on_filter : NULL;
    calls.filter_ctx = m;
    calls.report = on_report;
    calls.report_ctx = m;
    calls.responses = m->set;
    calls.commit = 0; /* the binding commits once out is written */
    m->n = obb_world_move_with(m->lw->w, m->id, m->goal,
                               m->turning ? m->turn : NULL, &calls, &m->end);
    memcpy(m->actual, m->dim == 2 ? m->end.b2.c : m->end.b3.c,
           (size_t)m->dim * sizeof(double));
  }
  if (m->n >= 0 && !m->oom && !m->push && !m->ground &&
      lua_istable(L, RUN_OUT))
    write_hits(L, m);
  lua_pushvalue(L, RUN_BAD); /* a bad answer outlives the call on the stack */
  return 1;
}

/* The filter argument at idx: nil (every other slides), a response name,
** a response set (obb.responses), or a function. */
/* Raises the error for a string that names no response (m->bad). */
static void bad_response(lua_State *L, int idx, const lmove *m) {
  luaL_argerror(L, idx, lua_pushfstring(L, "unknown response '%s'%s", m->bad,
      m->bad_type == 2 ? " followed by a zero byte" : ""));
}

static void check_filter(lua_State *L, int idx, lmove *m) {
  const lobb_responses *s = lobb_toresponses(L, idx);
  m->filter = 0;
  m->response = OBB_SLIDE;
  m->set = s != NULL ? s->r : NULL; /* the set stays on the caller's stack */
  if (lua_isnoneornil(L, idx) || s != NULL) return;
  if (lua_type(L, idx) == LUA_TFUNCTION) {
    m->filter = 1;
    return;
  }
  if (lua_type(L, idx) != LUA_TSTRING)
    lobb_typeerror(L, idx, "function, response name, obb.responses or nil");
  m->response = response_of(L, idx, m);
  if (m->response < 0) bad_response(L, idx, m);
}

/* Runs m (item at 2, filter at filter, out at out or 0) protected, with
** the world locked; raises what the filter raised or answered wrongly. */
static void run_locked(lua_State *L, lmove *m, int filter, int out) {
  m->oom = 0;
  m->nhits = 0;
  m->bad = NULL;
  m->L = NULL;
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  if (m->filter) lua_pushvalue(L, filter);
  else lua_pushnil(L);
  if (out) lua_pushvalue(L, out);
  else lua_pushnil(L);
  lobb_world_pushitems(L, UV_BYID);
  lua_pushnil(L); /* RUN_BAD: a bad answer, kept alive */
  lobb_world_pcall(L, m->lw, UV_RUN, RUN_BAD, m, NULL); /* RUN_BAD args */
  if (m->bad != NULL) {
    if (m->bad_type == 1)
      luaL_argerror(L, filter, lua_pushfstring(L,
          "filter returned a %s (a response name, false or nil expected)",
          m->bad));
    bad_response(L, filter, m);
  }
  if (m->n == -1 || m->oom) luaL_error(L, "not enough memory");
  if (m->n == -3) luaL_error(L, "result is not finite");
  if (!obb_all_finite(m->actual, (size_t)m->dim))
    luaL_error(L, "result is not finite");
}

void lobb_move_commit(lworld *lw, int id, const double *center) {
  const void *old = obb_world_box(lw->w, id);
  if (lw->dim == 2) {
    obb2 b = *(const obb2 *)old;
    memcpy(b.c, center, sizeof b.c);
    lobb_world_setbox(lw, id, &b);
  } else {
    obb3 b = *(const obb3 *)old;
    memcpy(b.c, center, sizeof b.c);
    lobb_world_setbox(lw, id, &b);
  }
}

/* An angle in (-pi, pi]: the same turn, the short way. fmod is exact, so
** the same bits on every platform; a difference of two angles in (-pi,
** pi] takes at most one step. */
static double wrap_angle(double a) {
  static const double pi = 3.14159265358979323846, two_pi = 2 * pi;
  if (a > pi || a <= -pi) {
    if (a > two_pi || a < -two_pi) a = fmod(a, two_pi);
    if (a > pi) a -= two_pi;
    else if (a <= -pi) a += two_pi;
  }
  return a;
}

/* The turn that takes box (of dimension dim) to the goal rotation g, into
** turn, the short way. 2D: g[0] is the goal angle; the turn is the goal
** less the box's angle as box:angle() gives it, wrapped to (-pi, pi]
** (wrap_angle). 3D: g is the goal quaternion (any non-zero scale); the
** turn is the rotation r = g c* from the box's rotation c as
** box:rotation() gives it (w >= 0), both first at unit length exactly as
** box:set_rotation takes a quaternion (obb_quat_unit: every scale of g
** exact in doubles gives the same turn): by 2 atan2(|v|, w) about v, r or
** -r, whichever has w >= 0 (at most pi); none when v = 0 (g = c gives
** exactly 0: the products cancel to the bit). Returns 0 for a g the
** classic method refuses (not finite; a zero quaternion). */
int lobb_move_turn(int dim, const void *box, const double *g, double turn[3]) {
  double u[4], r[4], c[4], v[3], w, big, len, angle;
  int q;
  turn[0] = turn[1] = turn[2] = 0;
  if (!obb_all_finite(g, dim == 2 ? 1 : 4)) return 0;
  if (dim == 2) {
    turn[0] = wrap_angle(g[0] - obb2_angle((const obb2 *)box));
    return 1;
  }
  if (!obb_quat_unit(g, u)) return 0; /* as box:set_rotation takes it */
  g = u;
  obb3_rotation((const obb3 *)box, r);
  /* c the same way: g = c at any scale gives 0 (c is unit: never fails) */
  if (!obb_quat_unit(r, c)) return 0;
  w = g[3] * c[3] + (g[0] * c[0] + g[1] * c[1] + g[2] * c[2]);
  v[0] = (g[0] * c[3] - g[3] * c[0]) - (g[1] * c[2] - g[2] * c[1]);
  v[1] = (g[1] * c[3] - g[3] * c[1]) - (g[2] * c[0] - g[0] * c[2]);
  v[2] = (g[2] * c[3] - g[3] * c[2]) - (g[0] * c[1] - g[1] * c[0]);
  if (w < 0) { /* -r is the same rotation, the short way round */
    w = -w;
    for (q = 0; q < 3; q++) v[q] = -v[q];
  }
  big = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
  if (big > 0) { /* scaled: no overflow, no underflow */
    len = big * sqrt((v[0] / big) * (v[0] / big) + (v[1] / big) * (v[1] / big) +
                     (v[2] / big) * (v[2] / big));
    angle = 2 * obb_atan2(len, w);
    for (q = 0; q < 3; q++) turn[q] = v[q] / len * angle;
  }
  return 1;
}

/* The turning form's goal rotation at idx (lobb_move_turn), checked, into
** m->turn. Returns how many numbers it took. */
static int check_turn(lua_State *L, int idx, lmove *m) {
  double g[4];
  m->turning = 1;
  if (m->dim == 2) g[0] = lobb_checkfinite(L, idx);
  else lobb_checkquat(L, idx, g);
  lobb_move_turn(m->dim, obb_world_box(m->lw->w, m->id), g, m->turn);
  return m->dim == 2 ? 1 : 4;
}

/* Why a move ended, by OBB_END_* (obb_world_move_end). */
static const char *const end_names[] = {"goal", "blocked", "legs", "turn"};

/* Pushes why the world's last move ended (its name). */
static void push_end(lua_State *L, const lworld *lw) {
  double rest[4];
  lua_pushstring(L, end_names[obb_world_move_end(lw->w, rest)]);
}

/* w:move / w:check (item, gx, gy[, gz] [, filter [, out]])
** -> ax, ay[, az], n, why; turning, (item, gx, gy, angle [, filter
** [, out]]) -> ax, ay, n, angle, why in 2D and (item, gx, gy, gz, qx, qy,
** qz, qw [, filter [, out]]) -> ax, ay, az, n, qx, qy, qz, qw, why in 3D:
** the count always right after the center */
static int move(lua_State *L, int apply) {
  lworld *lw = lobb_world_checkmutable(L, "move");
  lmove m;
  int dim = lw->dim, filter = 3 + dim, out = 4 + dim;
  memset(&m, 0, sizeof m);
  m.lw = lw;
  m.dim = dim;
  m.id = lobb_world_checkid(L, 2);
  lobb_checkvec(L, 3, dim, m.goal);
  if (lua_type(L, filter) == LUA_TNUMBER) { /* the turning form */
    int k = check_turn(L, filter, &m);
    filter += k;
    out += k;
  }
  check_filter(L, filter, &m);
  lobb_checknargs(L, out);
  if (!lua_isnoneornil(L, out) && lua_type(L, out) != LUA_TTABLE)
    lobb_typeerror(L, out, "table or nil");
  run_locked(L, &m, filter, lua_istable(L, out) ? out : 0);
  if (m.turning) {
    double q[4];
    if (apply) lobb_world_setbox(lw, m.id, &m.end);
    lobb_pushnumbers(L, m.actual, dim);
    lua_pushinteger(L, m.n);
    if (dim == 2) {
      lua_pushnumber(L, obb2_angle(&m.end.b2));
    } else {
      obb3_rotation(&m.end.b3, q);
      lobb_pushnumbers(L, q, 4);
    }
    push_end(L, lw);
    return dim == 2 ? dim + 3 : dim + 6;
  }
  if (apply) lobb_world_setbox(lw, m.id, &m.end);
  lobb_pushnumbers(L, m.actual, dim);
  lua_pushinteger(L, m.n);
  push_end(L, lw);
  return dim + 2;
}

/* w:remainder() -> dx, dy[, dz], turn: what the world's last move or
** check left undone when its legs ran out (zeros otherwise) */
int lobb_world_remainder(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  double rest[4];
  lobb_checknargs(L, 1);
  obb_world_move_end(lw->w, rest);
  lobb_pushnumbers(L, rest, lw->dim);
  lua_pushnumber(L, rest[3]);
  return lw->dim + 1;
}

int lobb_world_move(lua_State *L) { return move(L, 1); }
int lobb_world_check(lua_State *L) { return move(L, 0); }

/* w:set_ties(mode) -> w: "each" or "first" (obb_world_set_ties) */
int lobb_world_set_ties(lua_State *L) {
  static const char *const modes[] = {"each", "first", NULL};
  lworld *lw = lobb_world_checkmutable(L, "set_ties");
  int mode = lobb_checkoption(L, 2, modes); /* whole: not "first\0x" */
  lobb_checknargs(L, 2);
  obb_world_set_ties(lw->w, mode == 0 ? OBB_TIES_EACH : OBB_TIES_FIRST);
  lua_settop(L, 1);
  return 1;
}

/* w:push(item [, filter [, max_dist]]) -> ax, ay[, az], moved, inside */
int lobb_world_push(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "push");
  lmove m;
  memset(&m, 0, sizeof m);
  m.lw = lw;
  m.dim = lw->dim;
  m.push = 1;
  m.id = lobb_world_checkid(L, 2);
  check_filter(L, 3, &m);
  m.max_dist = HUGE_VAL;
  if (!lua_isnoneornil(L, 4)) {
    if (lua_type(L, 4) != LUA_TNUMBER) lobb_typeerror(L, 4, "number or nil");
    m.max_dist = lua_tonumber(L, 4);
    if (!(m.max_dist >= 0)) /* NaN too */
      luaL_argerror(L, 4, "max_dist must be a number >= 0");
  }
  lobb_checknargs(L, 4);
  run_locked(L, &m, 3, 0);
  lobb_move_commit(lw, m.id, m.actual);
  lobb_pushnumbers(L, m.actual, m.dim);
  lua_pushnumber(L, m.moved);
  lua_pushboolean(L, m.inside);
  return m.dim + 2;
}

/* w:ground(item [, distance [, filter]]) -> other, nx, ny[, nz], gap,
** floor, mx, my[, mz]; nil when it stands on nothing within distance */
int lobb_world_ground(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "ask the ground of");
  lmove m;
  double up[3], slope;
  memset(&m, 0, sizeof m);
  m.lw = lw;
  m.dim = lw->dim;
  m.ground = 1;
  m.id = lobb_world_checkid(L, 2);
  if (!lua_isnoneornil(L, 3)) {
    if (lua_type(L, 3) != LUA_TNUMBER) lobb_typeerror(L, 3, "number or nil");
    m.max_dist = lua_tonumber(L, 3);
    if (!obb_finite(m.max_dist) || m.max_dist < 0)
      luaL_argerror(L, 3, "distance must be a finite number >= 0");
  }
  check_filter(L, 4, &m);
  lobb_checknargs(L, 4);
  if (!obb_world_up(lw->w, up, &slope))
    luaL_error(L, "world has no up (obb.world2{up = {0, 1}}, world:set_up)");
  run_locked(L, &m, 4, 0);
  if (m.n == 0) {
    lua_pushnil(L);
    return 1;
  }
  lobb_world_pushitems(L, UV_BYID);
  lua_rawgeti(L, -1, m.g.other + 1);
  lua_remove(L, -2);
  lobb_pushnumbers(L, m.g.n, m.dim);
  lua_pushnumber(L, m.g.gap);
  lua_pushboolean(L, m.g.floor);
  lobb_pushnumbers(L, m.g.motion, m.dim);
  return 2 * m.dim + 3;
}

/* ---- velocities ------------------------------------------------------ */

/* obb.clip(vx, vy[, vz], nx, ny[, nz]) / obb.reflect(...): v less (clip)
** or less twice (reflect) its part into the normal, when it goes into it
** (v . n < 0); else v as it is. n need not be unit, but not zero. */
static int velocity(lua_State *L, double times) {
  double v[3], n[3], out[3];
  int dim = lobb_trimnils(L) == 6 ? 3 : 2;
  if (lua_gettop(L) != 4 && lua_gettop(L) != 6)
    return luaL_error(L, "4 numbers (2D) or 6 (3D) expected, got %d",
                      lua_gettop(L));
  lobb_checkvec(L, 1, dim, v);
  lobb_checkvec(L, 1 + dim, dim, n);
  if (!obb_clip(dim, v, n, times, out))
    luaL_argerror(L, 1 + dim, "normal must be non-zero");
  if (!obb_all_finite(out, (size_t)dim)) luaL_error(L, "result is not finite");
  return lobb_pushnumbers(L, out, dim);
}

int lobb_mod_clip(lua_State *L) { return velocity(L, 1); }
int lobb_mod_reflect(lua_State *L) { return velocity(L, 2); }
