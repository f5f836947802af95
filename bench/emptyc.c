/*
** bench/emptyc.c: the floor of a Lua-to-C pair test, for `make bench` only
** (built as benchc.so, never part of the obb module).
**
** benchc.check2(a, b) / benchc.check3(a, b) take the same two boxes as
** obb's intersects, check both with luaL_checkudata (the registry lookup
** most bindings use) and return a constant boolean: everything a pair test
** costs except the geometry. benchc.nocheck(a, b) skips even the checks: the
** bare cost of calling C from Lua.
**
** benchc.args_world(items) makes a stand-in for a 2D world holding the
** given items (an array): its update(item, cx, cy, hx, hy [, angle]) makes
** exactly the Lua API calls of obb's fast world:update (the type tag and
** size, each number's type and value, the item's id from a table kept as a
** user value, the world returned) and nothing else: the floor of reading
** those arguments through the Lua C API, for bench/world.lua. Its
** pairs(out) finds nothing and returns 0.
*/
#include "lua.h"
#include "lauxlib.h"

#include "lobb_compat.h"

/* The metatable names obb registers (LOBB_OBB2, LOBB_OBB3 in include/lobb.h). */
#include "lobb.h"

static int check2(lua_State *L) {
  luaL_checkudata(L, 1, LOBB_OBB2);
  luaL_checkudata(L, 2, LOBB_OBB2);
  lua_pushboolean(L, 1);
  return 1;
}

static int check3(lua_State *L) {
  luaL_checkudata(L, 1, LOBB_OBB3);
  luaL_checkudata(L, 2, LOBB_OBB3);
  lua_pushboolean(L, 1);
  return 1;
}

static int nocheck(lua_State *L) {
  lua_pushboolean(L, 1);
  return 1;
}

static const char args_tag = 'a';

static int args_update(lua_State *L) {
  const void *const *p = (const void *const *)lua_touserdata(L, 1);
  lua_Number v[5], sum = 0;
  int i, nv = lua_gettop(L) - 2;
  if (p == NULL || lobb_rawlen(L, 1) != sizeof(void *) || *p != &args_tag ||
      (nv != 4 && nv != 5))
    return luaL_error(L, "args_world: bad call");
  for (i = 0; i < nv; i++) {
    if (lua_type(L, 3 + i) != LUA_TNUMBER) return luaL_error(L, "number");
    v[i] = lua_tonumber(L, 3 + i);
    sum += v[i];
  }
  lobb_getuv(L, 1, 1);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  if (lua_type(L, -1) != LUA_TNUMBER) return luaL_error(L, "no such item");
  if (lua_tointeger(L, -1) < 0 || sum != sum) return luaL_error(L, "bad id");
  lua_settop(L, 1);
  return 1;
}

static int no_pairs(lua_State *L) {
  lua_pushinteger(L, 0);
  return 1;
}

static int args_world(lua_State *L) {
  const void **p;
  lua_Integer i, n;
  luaL_checktype(L, 1, LUA_TTABLE);
  n = (lua_Integer)lobb_rawlen(L, 1);
  p = (const void **)lobb_newuserdatan(L, sizeof(void *), 1);
  *p = &args_tag;
  lua_newtable(L); /* item -> id */
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, (int)i);
    lua_pushinteger(L, i - 1);
    lua_rawset(L, -3);
  }
  lobb_setuv(L, -2, 1);
  lua_newtable(L); /* its metatable: __index = { update = ..., pairs = ... } */
  lua_newtable(L);
  lua_pushcfunction(L, args_update);
  lua_setfield(L, -2, "update");
  lua_pushcfunction(L, no_pairs);
  lua_setfield(L, -2, "pairs");
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  return 1;
}

int luaopen_benchc(lua_State *L);

int luaopen_benchc(lua_State *L) {
  lua_newtable(L);
  lua_pushcfunction(L, check2);
  lua_setfield(L, -2, "check2");
  lua_pushcfunction(L, check3);
  lua_setfield(L, -2, "check3");
  lua_pushcfunction(L, nocheck);
  lua_setfield(L, -2, "nocheck");
  lua_pushcfunction(L, args_world);
  lua_setfield(L, -2, "args_world");
  return 1;
}
