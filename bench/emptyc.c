/*
** bench/emptyc.c: the floor of a Lua-to-C pair test, for `make bench` only
** (built as benchc.so, never part of the obb module).
**
** benchc.check2(a, b) / benchc.check3(a, b) take the same two boxes as
** obb's intersects, check both with luaL_checkudata (the registry lookup
** most bindings use) and return a constant boolean: everything a pair test
** costs except the geometry. benchc.nocheck(a, b) skips even the checks: the
** bare cost of calling C from Lua.
*/
#include "lua.h"
#include "lauxlib.h"

/* The metatable names obb registers (LOBB_OBB2, LOBB_OBB3 in src/lobb.h). */
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

int luaopen_benchc(lua_State *L);

int luaopen_benchc(lua_State *L) {
  lua_newtable(L);
  lua_pushcfunction(L, check2);
  lua_setfield(L, -2, "check2");
  lua_pushcfunction(L, check3);
  lua_setfield(L, -2, "check3");
  lua_pushcfunction(L, nocheck);
  lua_setfield(L, -2, "nocheck");
  return 1;
}
