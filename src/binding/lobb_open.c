/*
** lobb.c: the module's entry point, luaopen_obb, and the argument checks
** every binding file shares.
*/
#include <math.h>
#include <string.h>

#include "lobb_internal.h"
#include "lobb_jit.h"

void lobb_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup, "too many upvalues");
  for (; l->name != NULL; l++) {
    int i;
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

/* ---- argument checks ------------------------------------------------ */

static const char *lobb_typename(lua_State *L, int idx) {
  const char *name = NULL;
  if (luaL_getmetafield(L, idx, "__name")) { /* pushes nothing if absent */
    name = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  return name != NULL ? name : lobb_basetypename(L, idx);
}

int lobb_typeerror(lua_State *L, int idx, const char *expected) {
  const char *msg = lua_pushfstring(L, "%s expected, got %s", expected,
                                    lobb_typename(L, idx));
  return luaL_argerror(L, idx, msg);
}

static int notfinite_error(lua_State *L, int idx, lua_Number x) {
  const char *got = x != x ? "nan" : x > 0 ? "inf" : "-inf";
  return luaL_argerror(
      L, idx, lua_pushfstring(L, "finite number expected, got %s", got));
}

lua_Number lobb_checkfinite(lua_State *L, int idx) {
  lua_Number x;
  if (lua_type(L, idx) != LUA_TNUMBER) lobb_typeerror(L, idx, "number");
  x = lua_tonumber(L, idx);
  if (x - x != 0) notfinite_error(L, idx, x);
  return x;
}

void lobb_checkvec(lua_State *L, int idx, int n, double *v) {
  int i;
  for (i = 0; i < n; i++) v[i] = lobb_checkfinite(L, idx + i);
}

void lobb_checkextents(lua_State *L, int idx, int n, double *e) {
  int i;
  for (i = 0; i < n; i++) e[i] = lobb_checkextent(L, idx + i);
}

void lobb_checkquat(lua_State *L, int idx, double q[4]) {
  lobb_checkvec(L, idx, 4, q);
  if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    luaL_argerror(L, idx, "quaternion is zero");
}

void lobb_checkdirection(lua_State *L, int idx, int n, double *d) {
  int i, zero = 1;
  lobb_checkvec(L, idx, n, d);
  for (i = 0; i < n; i++)
    if (d[i] != 0.0) zero = 0;
  if (zero) luaL_argerror(L, idx, "direction must not be zero");
}

lua_Number lobb_checkmaxt(lua_State *L, int idx) {
  lua_Number t;
  if (lua_isnoneornil(L, idx)) return HUGE_VAL;
  if (lua_type(L, idx) != LUA_TNUMBER) lobb_typeerror(L, idx, "number");
  t = lua_tonumber(L, idx);
  if (t != t) luaL_argerror(L, idx, "max_t must not be nan");
  if (t < 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "max_t must be >= 0, got %f", t));
  return t;
}

lua_Number lobb_checkextent(lua_State *L, int idx) {
  lua_Number x = lobb_checkfinite(L, idx);
  if (x < 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "half extent must be >= 0, got %f", x));
  return x;
}

void lobb_checknargs(lua_State *L, int n) {
  if (lua_gettop(L) > n) lobb_typeerror(L, n + 1, "no value");
}

int lobb_pushnumbers(lua_State *L, const double *v, int n) {
  int i;
  luaL_checkstack(L, n, NULL);
  for (i = 0; i < n; i++) lua_pushnumber(L, v[i]);
  return n;
}

int lobb_statuserror(lua_State *L, int idx, obb_status s) {
  return luaL_argerror(L, idx, obb_status_string(s));
}

int lobb_checkmatrix(lua_State *L, int idx, double *m, int n, int alt_n) {
  int count, i;
  if (lua_type(L, idx) == LUA_TTABLE) {
    lobb_checknargs(L, idx);
    count = (int)lobb_rawlen(L, idx);
    if (count != n && count != alt_n) {
      const char *msg = alt_n != n
          ? lua_pushfstring(L, "table of %d or %d numbers expected, got %d",
                            n, alt_n, count)
          : lua_pushfstring(L, "table of %d numbers expected, got %d", n,
                            count);
      luaL_argerror(L, idx, msg);
    }
    for (i = 0; i < count; i++) {
      lua_Number x;
      lua_rawgeti(L, idx, i + 1);
      x = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || x - x != 0)
        luaL_argerror(L, idx, lua_pushfstring(
            L, "matrix entry %d is not a finite number", i + 1));
      m[i] = x;
      lua_pop(L, 1);
    }
    return count;
  }
  count = lua_gettop(L) - idx + 1;
  if (count != alt_n) count = n;
  lobb_checknargs(L, idx + count - 1);
  lobb_checkvec(L, idx, count, m);
  return count;
}

static int read_point(lua_State *L, int t, int dim, double *p) {
  int j;
  for (j = 0; j < dim; j++) {
    lua_rawgeti(L, t, j + 1);
    if (lua_type(L, -1) != LUA_TNUMBER) return 0;
    p[j] = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (p[j] - p[j] != 0) return 0;
  }
  return 1;
}

size_t lobb_checkpoints(lua_State *L, int idx, int dim, double **out) {
  size_t len, n, i;
  int nested;
  double *buf;
  if (lua_type(L, idx) != LUA_TTABLE) lobb_typeerror(L, idx, "table");
  len = lobb_rawlen(L, idx);
  lua_rawgeti(L, idx, 1);
  nested = lua_type(L, -1) == LUA_TTABLE;
  lua_pop(L, 1);
  n = nested ? len : len / dim;
  if (n == 0 || (!nested && len % dim != 0))
    luaL_argerror(L, idx, lua_pushfstring(
        L, nested ? "at least one point expected"
                  : "flat array of %d numbers per point expected, got %d numbers",
        dim, (int)len));
  if (n > ((size_t)-1) / (dim * sizeof(double)))
    luaL_argerror(L, idx, "too many points");
  buf = (double *)lobb_newuserdata(L, n * dim * sizeof(double));
  for (i = 0; i < n; i++) {
    int ok;
    if (nested) {
      lua_rawgeti(L, idx, (int)i + 1);
      ok = lua_type(L, -1) == LUA_TTABLE &&
           read_point(L, lua_gettop(L), dim, buf + dim * i);
      lua_pop(L, 1);
    } else {
      int j;
      ok = 1;
      for (j = 0; ok && j < dim; j++) {
        double x;
        lua_rawgeti(L, idx, (int)(dim * i + j) + 1);
        x = lua_tonumber(L, -1);
        ok = lua_type(L, -1) == LUA_TNUMBER && x - x == 0;
        lua_pop(L, 1);
        buf[dim * i + j] = x;
      }
    }
    if (!ok)
      luaL_argerror(L, idx, lua_pushfstring(
          L, "point %d is not %d finite numbers", (int)i + 1, dim));
  }
  *out = buf;
  return n;
}

/* ---- boxes: creation and checks ------------------------------------- */

/* The tags after each box (lobb_internal.h explains them). */
const char lobb_box_tags[2] = {2, 3};

obb2 *lobb_new2(lua_State *L) {
  lobb_ud2 *p = (lobb_ud2 *)lobb_newuserdata(L, sizeof *p);
  p->tag = LOBB_TAG2;
  lua_pushvalue(L, lua_upvalueindex(LOBB_UV_OBB2));
  lua_setmetatable(L, -2);
  return &p->box;
}

obb3 *lobb_new3(lua_State *L) {
  lobb_ud3 *p = (lobb_ud3 *)lobb_newuserdata(L, sizeof *p);
  p->tag = LOBB_TAG3;
  lua_pushvalue(L, lua_upvalueindex(LOBB_UV_OBB3));
  lua_setmetatable(L, -2);
  return &p->box;
}

obb2 *lobb_check2(lua_State *L, int idx) {
  obb2 *b = lobb_to2(L, idx);
  if (b == NULL) lobb_typeerror(L, idx, LOBB_OBB2);
  return b;
}

obb3 *lobb_check3(lua_State *L, int idx) {
  obb3 *b = lobb_to3(L, idx);
  if (b == NULL) lobb_typeerror(L, idx, LOBB_OBB3);
  return b;
}

/* The exported trio works from any C function, without our upvalues: the
** checks need none (the tag), pushing takes the metatable from the
** registry. */
static void push_registry_meta(lua_State *L, const char *tname) {
  lua_getfield(L, LUA_REGISTRYINDEX, tname);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    luaL_error(L, "module '" LOBB_LIBNAME "' is not open in this state");
  }
}

obb2 *lobb_testobb2(lua_State *L, int idx) {
  return lobb_to2(L, idx);
}

obb3 *lobb_testobb3(lua_State *L, int idx) {
  return lobb_to3(L, idx);
}

obb2 *lobb_checkobb2(lua_State *L, int idx) {
  return lobb_check2(L, idx);
}

obb3 *lobb_checkobb3(lua_State *L, int idx) {
  return lobb_check3(L, idx);
}

obb2 *lobb_pushobb2(lua_State *L, const obb2 *b) {
  lobb_ud2 *p;
  push_registry_meta(L, LOBB_OBB2);
  p = (lobb_ud2 *)lobb_newuserdata(L, sizeof *p);
  p->box = *b;
  p->tag = LOBB_TAG2;
  lua_insert(L, -2);
  lua_setmetatable(L, -2);
  return &p->box;
}

obb3 *lobb_pushobb3(lua_State *L, const obb3 *b) {
  lobb_ud3 *p;
  push_registry_meta(L, LOBB_OBB3);
  p = (lobb_ud3 *)lobb_newuserdata(L, sizeof *p);
  p->box = *b;
  p->tag = LOBB_TAG3;
  lua_insert(L, -2);
  lua_setmetatable(L, -2);
  return &p->box;
}

/* ---- the module ----------------------------------------------------- */

/* obb.type(v): "obb2", "obb3" or nil, never an error. Like io.type it
** answers for Lua's view of the type too: a box that debug.setmetatable
** gave another metatable is no longer called a box here (the methods, which
** only need the memory to be a box, still take it). */
static int l_type(lua_State *L) {
  if (lobb_to2(L, 1) && lobb_toudata(L, 1, LOBB_UV_OBB2, sizeof(lobb_ud2)))
    lua_pushliteral(L, "obb2");
  else if (lobb_to3(L, 1) &&
           lobb_toudata(L, 1, LOBB_UV_OBB3, sizeof(lobb_ud3)))
    lua_pushliteral(L, "obb3");
  else lua_pushnil(L);
  return 1;
}

static const luaL_Reg lib_funcs[] = {
  {"type", l_type},
  {NULL, NULL}
};

/* Leaves a metatable named tname on the stack; fill_type fills it. */
static void new_type(lua_State *L, const char *tname) {
  luaL_newmetatable(L, tname);
  lua_pushstring(L, tname);
  lua_setfield(L, -2, "__name"); /* 5.1 and 5.2 do not set it */
}

/* Registers funcs into the table at the top, closed over both metatables
** (expected at stack positions mt2 and mt3). */
static void set_closures(lua_State *L, int mt2, int mt3, const luaL_Reg *l) {
  lua_pushvalue(L, mt2);
  lua_pushvalue(L, mt3);
  lobb_setfuncs(L, l, LOBB_NUPVALUES);
}

static void fill_type(lua_State *L, int mt, int mt2, int mt3,
                      const luaL_Reg *methods, const luaL_Reg *meta) {
  lua_pushvalue(L, mt);
  set_closures(L, mt2, mt3, meta);
  lua_newtable(L);
  set_closures(L, mt2, mt3, methods);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

/* Adds more methods to the type whose metatable is at mt. */
static void add_methods(lua_State *L, int mt, int mt2, int mt3,
                        const luaL_Reg *methods) {
  lua_getfield(L, mt, "__index");
  set_closures(L, mt2, mt3, methods);
  lua_pop(L, 1);
}

/* ---- LuaJIT: the FFI fast path -------------------------------------- */

/* Under LuaJIT, obb.jit (lua/obb/jit.lua) replaces the hot methods by FFI
** calls into this object, given the module table (on top) and this
** object's file (lobb_jit.c). obb.jit absent, or false in package.loaded,
** OBB_NO_FFI=1, no ffi, or any error keeps the classic functions: nothing
** here can fail the require. */
static void open_jit(lua_State *L) {
#if LUA_VERSION_NUM == 501 /* LuaJIT's lua.h says 5.1 too */
  int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED"); /* package.loaded */
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "obb.jit"); /* false: the user said no */
    if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
      lua_settop(L, top);
      return;
    }
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "obb.jit");
  if (lua_isfunction(L, -2) && lua_pcall(L, 1, 1, 0) == 0 &&
      lua_istable(L, -1)) {
    lua_getfield(L, -1, "install");
    lua_pushvalue(L, top);
    lobb_pushselfpath(L);
    (void)lua_pcall(L, 2, 0, 0);
  }
  lua_settop(L, top);
#else
  (void)L;
#endif
}

int luaopen_obb(lua_State *L) {
  int mt2, mt3;
  new_type(L, LOBB_OBB2);
  mt2 = lua_gettop(L);
  new_type(L, LOBB_OBB3);
  mt3 = lua_gettop(L);
  fill_type(L, mt2, mt2, mt3, lobb_obb2_methods, lobb_obb2_meta);
  fill_type(L, mt3, mt2, mt3, lobb_obb3_methods, lobb_obb3_meta);
  lua_newtable(L);
  set_closures(L, mt2, mt3, lib_funcs);
  set_closures(L, mt2, mt3, lobb_obb2_funcs);
  set_closures(L, mt2, mt3, lobb_obb3_funcs);
  set_closures(L, mt2, mt3, lobb_query_funcs);
  add_methods(L, mt2, mt2, mt3, lobb_query2_methods); /* lobb_query.c */
  add_methods(L, mt3, mt2, mt3, lobb_query3_methods);
  add_methods(L, mt2, mt2, mt3, lobb_collide2_methods); /* lobb_collide.c */
  add_methods(L, mt3, mt2, mt3, lobb_collide3_methods);
  lobb_open_world(L, mt2, mt3); /* worlds: lobb_world.c */
  lua_pushliteral(L, OBB_VERSION);
  lua_setfield(L, -2, "_VERSION");
  lua_getfield(L, mt2, "__index");
  lua_setfield(L, -2, "obb2"); /* the method tables, for extension */
  lua_getfield(L, mt3, "__index");
  lua_setfield(L, -2, "obb3");
  open_jit(L);
  return 1;
}
