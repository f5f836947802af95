/*
** lobb_solid.c: the Lua face of moving solids (obb_solid.c): w:move_solid,
** the world's up (w:set_up, w:up, and the options up and slope of
** obb.world2{...} and obb.world3{...}), and obb.SOLID2 / obb.SOLID3, the
** offsets of a solid's records.
**
** A solid's move runs the core inside lua_pcall with the world locked, as
** a move does (lobb_move.c): its two filters are Lua and may raise, yield
** or try to change the world, which the lock refuses. Unlike a move, the
** core changes the world as it goes (the solid, then each other it moves,
** so that each move sees the ones before), and logs what it changed: a
** filter's error leaves the core by longjmp, and the world is then put
** back as it was (obb_world_undo_solid) before the error goes on; so is a
** move whose records could not be written. The records are gathered in
** the world's scratch buffer and written raw into out: a call with a
** reused table makes no garbage.
*/
#include <math.h>
#include <string.h>

#include "lobb_responses.h"
#include "lobb_world.h"
#include "obb_math.h"

/* A solid's record: other, what, t, nx, ny[, nz], dx, dy[, dz], depth. */
#define SOLID_STRIDE(dim) ((dim) == 2 ? 8 : 10)

/* The stack of the protected half, run(world, item, filter, out, byid,
** bad, movers), as run_locked passes it. */
enum { RUN_WORLD = 1, RUN_ITEM, RUN_FILTER, RUN_OUT, RUN_BYID, RUN_BAD,
       RUN_MOVERS };

/* A filter argument: a Lua function, a response set or a response name. */
typedef struct lfilter {
  int fn;        /* 1: a Lua function (RUN_FILTER or RUN_MOVERS) */
  int response;  /* without a function or a set: every other's response
                 ** (-1: the solid's default, what the core tells it) */
  const unsigned char *set; /* a response set's, by class */
} lfilter;

struct lsolid {
  lua_State *L;  /* the thread of the protected half, once it runs */
  lworld *lw;
  int dim, id;
  anybox goal;
  lfilter filter, movers;
  int n, crushed;
  int entered;   /* the core was called: its changes are undone on error */
  int oom;
  size_t nhits;  /* records gathered in lw->buf */
  const char *bad; /* a filter's answer that is no response */
  int bad_type;  /* 1: bad is the answer's type name; 2: a name with a zero
                 ** byte, up to there; 3: "oneway" in a world without up */
  int bad_arg;   /* which filter answered it: 1 the solid's, 2 the movers' */
};

static int world_has_up(const lworld *lw) {
  double up[3], slope;
  return obb_world_up(lw->w, up, &slope);
}

/* The response a filter's answer at idx names (a solid's filter: from
** "ride" to "oneway" too), or -1 with s->bad set, and s->bad_arg to arg
** (1: the solid's filter, 2: the movers'; or the argument itself). */
static int response_of(lua_State *L, int idx, lsolid *s, int solid, int arg) {
  if (!lua_toboolean(L, idx)) return OBB_IGNORE;
  s->bad_arg = arg;
  if (lua_type(L, idx) == LUA_TSTRING) {
    int zero, r = lobb_toresponse(L, idx, &zero);
    s->bad = lua_tostring(L, idx); /* valid until the pcall returns: copied
                                   ** by then */
    s->bad_type = zero ? 2 : 0;
    if (r < 0 || r > (solid ? OBB_ONEWAY : OBB_BOUNCE)) return -1;
    if (r == OBB_ONEWAY && !world_has_up(s->lw)) {
      s->bad_type = 3;
      return -1;
    }
    s->bad = NULL;
    return r;
  }
  s->bad = luaL_typename(L, idx);
  s->bad_type = 1;
  return -1;
}

/* Calls the Lua filter at idx as a move's filter is called:
** f(a, b, nx, ny[, nz], t, depth[, default]), for one result, then its
** response (solid: a solid's), or -1. */
static int ask_lua(lsolid *s, int idx, int item, int other, const double *n,
                   double t, double depth, const char *def, int solid) {
  lua_State *L = s->L;
  int r;
  lua_pushvalue(L, idx);
  if (item < 0) lua_pushvalue(L, RUN_ITEM);
  else lua_rawgeti(L, RUN_BYID, item + 1);
  lua_rawgeti(L, RUN_BYID, other + 1);
  lobb_pushnumbers(L, n, s->dim);
  lua_pushnumber(L, t);
  lua_pushnumber(L, depth);
  if (def != NULL) lua_pushstring(L, def);
  lua_call(L, 4 + s->dim + (def != NULL), 1);
  r = response_of(L, -1, s, solid, idx == RUN_FILTER ? 1 : 2);
  if (r < 0) {
    lua_replace(L, RUN_BAD); /* keeps a bad string alive until copied */
    return -1;
  }
  lua_pop(L, 1);
  return r;
}

/* The core's filter of the solid: what it does to hit->other. */
static int on_filter(void *ctx, int solid, const obb_solid_hit *hit) {
  lsolid *s = (lsolid *)ctx;
  (void)solid;
  if (s->filter.set != NULL)
    return s->filter.set[lobb_world_class(s->lw, hit->other)];
  if (!s->filter.fn)
    return s->filter.response < 0 ? hit->what : s->filter.response;
  return ask_lua(s, RUN_FILTER, -1, hit->other, hit->n, hit->t, hit->depth,
                 obb_response_name(hit->what), 1);
}

/* The core's filter of the riders' and the pushed others' moves. */
static int on_movers(void *ctx, int item, const obb_move_hit *hit) {
  lsolid *s = (lsolid *)ctx;
  if (s->movers.set != NULL)
    return s->movers.set[lobb_world_class(s->lw, hit->other)];
  if (!s->movers.fn) return s->movers.response;
  return ask_lua(s, RUN_MOVERS, item, hit->other, hit->n, hit->t, hit->depth,
                 NULL, 0);
}

/* The core's report: one record into the world's scratch buffer. */
static void on_report(void *ctx, const obb_solid_hit *hit) {
  lsolid *s = (lsolid *)ctx;
  lworld *lw = s->lw;
  size_t need = (s->nhits + 1) * sizeof(obb_solid_hit);
  if (s->oom) return;
  if (need > lw->buf.cap) {
    size_t cap = lw->buf.cap < 256 ? 256 : lw->buf.cap * 2;
    void *p = cap > lw->buf.cap ? lw->alloc(lw->ud, lw->buf.p, lw->buf.cap, cap)
                                : NULL;
    if (p == NULL) { s->oom = 1; return; }
    lw->buf.p = (unsigned char *)p;
    lw->buf.cap = cap;
  }
  memcpy(lw->buf.p + s->nhits++ * sizeof(obb_solid_hit), hit, sizeof *hit);
}

/* The records into out (RUN_OUT), raw, SOLID_STRIDE(dim) values each,
** and what an earlier, longer result left cleared. */
static void write_records(lua_State *L, const lsolid *s) {
  const obb_solid_hit *h = (const obb_solid_hit *)s->lw->buf.p;
  lua_Integer k = 0;
  size_t i;
  int q;
  for (i = 0; i < s->nhits; i++, h++) {
    k = (lua_Integer)i * SOLID_STRIDE(s->dim);
    lua_rawgeti(L, RUN_BYID, h->other + 1);
    lua_rawseti(L, RUN_OUT, ++k);
    lobb_pushresponse(L, h->what);
    lua_rawseti(L, RUN_OUT, ++k);
    lua_pushnumber(L, h->t);
    lua_rawseti(L, RUN_OUT, ++k);
    for (q = 0; q < s->dim; q++) {
      lua_pushnumber(L, h->n[q]);
      lua_rawseti(L, RUN_OUT, ++k);
    }
    for (q = 0; q < s->dim; q++) {
      lua_pushnumber(L, h->d[q]);
      lua_rawseti(L, RUN_OUT, ++k);
    }
    lua_pushnumber(L, h->depth);
    lua_rawseti(L, RUN_OUT, ++k);
  }
  lobb_cleartail(L, RUN_OUT, k);
}

/* Protected: run(world, item, filter, out, byid, bad, movers) runs the
** world's solid move (lw->solid) and writes out. No pointer crosses Lua:
** run reached by hand (from the registry) finds the move through the
** world, and only while that move runs and once. */
static int solid_run(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  lsolid *s = lw->solid;
  if (s == NULL || s->L != NULL)
    return luaL_error(L, "obb: run called outside a solid's move");
  s->L = L;
  s->entered = 1;
  s->n = obb_world_move_solid(lw->w, s->id, &s->goal, on_filter, on_movers,
                              on_report, s, &s->crushed);
  if (s->n >= 0 && !s->oom && lua_istable(L, RUN_OUT)) write_records(L, s);
  lua_pushvalue(L, RUN_BAD); /* a bad answer outlives the call */
  return 1;
}

/* The protected half's function, kept in the registry (made once: in
** 5.1 and LuaJIT pushing a C function makes a closure). */
static const char run_key = 's';

static void push_run(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&run_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (lua_type(L, -1) == LUA_TFUNCTION) return;
  lua_pop(L, 1);
  lua_pushlightuserdata(L, (void *)&run_key);
  lua_pushcfunction(L, solid_run);
  lua_rawset(L, LUA_REGISTRYINDEX);
  lua_pushlightuserdata(L, (void *)&run_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
}

/* Raises the error for an answer that is no response (s->bad). */
static void bad_response(lua_State *L, int idx, const lsolid *s) {
  if (s->bad_type == 3)
    luaL_argerror(L, idx, "response 'oneway' needs a world with an up "
                          "(obb.world2{up = {0, 1}}, world:set_up)");
  if (s->bad_type == 1)
    luaL_argerror(L, idx, lua_pushfstring(L,
        "filter returned a %s (a response name, false or nil expected)",
        s->bad));
  luaL_argerror(L, idx, lua_pushfstring(L, "unknown response '%s'%s", s->bad,
      s->bad_type == 2 ? " followed by a zero byte" : ""));
}

/* A filter argument at idx (solid: the solid's filter): nil, a response
** name, a response set or a function. */
static void check_filter(lua_State *L, int idx, lsolid *s, lfilter *f,
                         int solid) {
  const lobb_responses *set = lobb_toresponses(L, idx);
  f->fn = 0;
  f->response = solid ? -1 : OBB_SLIDE;
  f->set = set != NULL ? set->r : NULL; /* on the caller's stack */
  if (set != NULL) {
    int c;
    if (solid && !world_has_up(s->lw))
      for (c = 0; c < LOBB_NCLASSES; c++)
        if (set->r[c] == OBB_ONEWAY) {
          s->bad_type = 3;
          bad_response(L, idx, s);
        }
    return;
  }
  if (lua_isnoneornil(L, idx)) return;
  if (lua_type(L, idx) == LUA_TFUNCTION) {
    f->fn = 1;
    return;
  }
  if (lua_type(L, idx) != LUA_TSTRING)
    lobb_typeerror(L, idx, "function, response name, obb.responses or nil");
  f->response = response_of(L, idx, s, solid, solid ? 1 : 2);
  if (f->response < 0) bad_response(L, idx, s);
}

/* Runs s protected, with the world locked (and the world's solid set, as
** lobb_world_pcall sets its move); puts the world back and raises what
** the filters raised or answered wrongly. */
static void run_locked(lua_State *L, lsolid *s, int filter, int out,
                       int movers) {
  lworld *lw = s->lw;
  lsolid *outer = lw->solid;
  int st;
  push_run(L);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  if (s->filter.fn) lua_pushvalue(L, filter);
  else lua_pushnil(L);
  if (out) lua_pushvalue(L, out);
  else lua_pushnil(L);
  lobb_world_pushitems(L, UV_BYID);
  lua_pushnil(L); /* RUN_BAD */
  if (s->movers.fn) lua_pushvalue(L, movers);
  else lua_pushnil(L);
  lw->solid = s;
  lw->lock++;
  st = lua_pcall(L, RUN_MOVERS, 1, 0);
  lw->lock--;
  lw->solid = outer;
  if (st != 0 || s->oom || s->n == -1) {
    if (s->entered && lw->w != NULL) obb_world_undo_solid(lw->w);
    if (st != 0) lobb_world_filtererror(L);
    luaL_error(L, "not enough memory");
  }
  if (s->bad != NULL || s->bad_type == 3)
    bad_response(L, s->bad_arg == 1 ? filter : movers, s);
  if (s->n == -3)
    luaL_error(L, "goal is too far: the solid's motion overflows");
  if (s->n < 0) luaL_error(L, "not enough memory");
}

/* The goal box: the solid's, its center at the goal and, in the turning
** form, its rotation the goal's (as w:update takes an angle or a
** quaternion). Returns how many numbers of the rotation it took. */
static int check_goal(lua_State *L, lsolid *s) {
  const void *box = obb_world_box(s->lw->w, s->id);
  double c[3], g[4];
  int dim = s->dim, q, idx = 3 + dim;
  lobb_checkvec(L, 3, dim, c);
  if (dim == 2) {
    s->goal.b2 = *(const obb2 *)box;
    for (q = 0; q < 2; q++) s->goal.b2.c[q] = c[q];
    if (lua_type(L, idx) != LUA_TNUMBER) return 0;
    g[0] = lobb_checkfinite(L, idx);
    obb2_set_angle(&s->goal.b2, g[0]);
    return 1;
  }
  s->goal.b3 = *(const obb3 *)box;
  for (q = 0; q < 3; q++) s->goal.b3.c[q] = c[q];
  if (lua_type(L, idx) != LUA_TNUMBER) return 0;
  lobb_checkquat(L, idx, g);
  obb3_set_rotation(&s->goal.b3, g);
  return 4;
}

/* w:move_solid(item, gx, gy [, angle] [, filter [, out [, movers]]]) and
** (item, gx, gy, gz [, qx, qy, qz, qw] [, filter [, out [, movers]]])
** -> n, crushed */
int lobb_world_move_solid(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "move");
  lsolid s;
  int filter, out, movers;
  memset(&s, 0, sizeof s);
  s.lw = lw;
  s.dim = lw->dim;
  s.id = lobb_world_checkid(L, 2);
  filter = 3 + s.dim + check_goal(L, &s);
  out = filter + 1;
  movers = filter + 2;
  check_filter(L, filter, &s, &s.filter, 1);
  if (!lua_isnoneornil(L, out) && lua_type(L, out) != LUA_TTABLE)
    lobb_typeerror(L, out, "table or nil");
  check_filter(L, movers, &s, &s.movers, 0);
  lobb_checknargs(L, movers);
  run_locked(L, &s, filter, lua_istable(L, out) ? out : 0, movers);
  { /* obb.bump forgets the rectangles of the boxes it moved */
    const obb_solid_hit *h = (const obb_solid_hit *)lw->buf.p;
    size_t i;
    lobb_bump_forget(lw, s.id);
    for (i = 0; i < s.nhits; i++)
      if (h[i].what != OBB_CROSS) lobb_bump_forget(lw, h[i].other);
  }
  lua_pushinteger(L, s.n);
  lua_pushinteger(L, s.crushed);
  return 2;
}

/* ---- the world's up --------------------------------------------------- */

/* The up at v (dim numbers) and slope for lw, or an error naming what. */
static void set_up(lua_State *L, lworld *lw, const double *v, double slope,
                   int arg, const char *what) {
  int q, zero = 1;
  for (q = 0; q < lw->dim; q++)
    if (v[q] != 0) zero = 0;
  if (zero)
    luaL_argerror(L, arg, lua_pushfstring(L, "%s must not be zero", what));
  if (!(slope >= 0 && slope < 1.57079632679489661923))
    luaL_argerror(L, arg, lua_pushfstring(L,
        "slope must be in [0, pi/2), got %f", slope));
  if (obb_world_set_up(lw->w, v, slope) != 0)
    luaL_argerror(L, arg, lua_pushfstring(L, "%s is not valid", what));
}

/* w:set_up(ux, uy[, uz] [, slope]) -> w; w:set_up(false) -> w: none */
int lobb_world_set_up(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "set the up of");
  double v[3], slope = OBB_SLOPE_DEFAULT;
  int n = lobb_trimnils(L) - 1;
  if (n == 1 && lua_type(L, 2) == LUA_TBOOLEAN && !lua_toboolean(L, 2)) {
    obb_world_set_up(lw->w, NULL, 0);
    lua_settop(L, 1);
    return 1;
  }
  if (n < lw->dim) lobb_typeerror(L, 2 + (n > 0 ? n : 0), "number");
  lobb_checkvec(L, 2, lw->dim, v);
  if (n > lw->dim) slope = lobb_checkfinite(L, 2 + lw->dim);
  lobb_checknargs(L, 2 + lw->dim);
  set_up(L, lw, v, slope, 2, "up");
  lua_settop(L, 1);
  return 1;
}

/* w:up() -> ux, uy[, uz], slope; nil without an up */
int lobb_world_up(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  double up[3], slope;
  lobb_checknargs(L, 1);
  if (!obb_world_up(lw->w, up, &slope)) {
    lua_pushnil(L);
    return 1;
  }
  lobb_pushnumbers(L, up, lw->dim);
  lua_pushnumber(L, slope);
  return lw->dim + 1;
}

/* The options up = {x, y[, z]} and slope = angle of the table at opts
** (obb.world2{...}): a table of dim numbers, and a number. */
void lobb_world_up_option(lua_State *L, lworld *lw, int opts) {
  double v[3] = {0, 0, 0}, slope = OBB_SLOPE_DEFAULT;
  int q;
  lua_getfield(L, opts, "slope");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      luaL_argerror(L, 1, lua_pushfstring(L,
          "option 'slope' must be a number, got %s", luaL_typename(L, -1)));
    slope = lua_tonumber(L, -1);
  }
  lua_getfield(L, opts, "up");
  if (lua_isnil(L, -1)) {
    if (!lua_isnil(L, -2))
      luaL_argerror(L, 1, "option 'slope' needs the option 'up'");
    lua_pop(L, 2);
    return;
  }
  if (!lua_istable(L, -1) || lobb_rawlen(L, -1) != (size_t)lw->dim)
    luaL_argerror(L, 1, lua_pushfstring(L,
        "option 'up' must be a table of %d numbers", lw->dim));
  for (q = 0; q < lw->dim; q++) {
    lua_rawgeti(L, -1, q + 1);
    if (lua_type(L, -1) != LUA_TNUMBER || !obb_finite(lua_tonumber(L, -1)))
      luaL_argerror(L, 1, lua_pushfstring(L,
          "option 'up' must be a table of %d finite numbers", lw->dim));
    v[q] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  if (!(slope >= 0 && slope < 1.57079632679489661923))
    luaL_argerror(L, 1, lua_pushfstring(L,
        "option 'slope' must be in [0, pi/2), got %f", slope));
  set_up(L, lw, v, slope, 1, "option 'up'");
  lua_pop(L, 2);
}

/* obb.SOLID2, obb.SOLID3: the offsets of a solid's record's fields in
** w:move_solid's out table, by name (record i at i * stride + offset). */
void lobb_open_solid(lua_State *L, int lib) {
  static const char *const names2[] = {"other", "what", "t", "nx", "ny",
                                       "dx", "dy", "depth", NULL};
  static const char *const names3[] = {"other", "what", "t", "nx", "ny",
                                       "nz", "dx", "dy", "dz", "depth", NULL};
  int dim, i;
  for (dim = 2; dim <= 3; dim++) {
    const char *const *n = dim == 2 ? names2 : names3;
    lua_createtable(L, 0, SOLID_STRIDE(dim) + 1);
    for (i = 0; n[i] != NULL; i++) {
      lua_pushinteger(L, i + 1);
      lua_setfield(L, -2, n[i]);
    }
    lua_pushinteger(L, SOLID_STRIDE(dim));
    lua_setfield(L, -2, "stride");
    lua_setfield(L, lib, dim == 2 ? "SOLID2" : "SOLID3");
  }
}
