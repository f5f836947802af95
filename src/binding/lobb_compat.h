/*
** lobb_compat.h: the only place that knows Lua versions apart (internal).
** Supports Lua 5.1 (and LuaJIT 2.1), 5.2, 5.3 and 5.4.
*/
#ifndef LOBB_COMPAT_H
#define LOBB_COMPAT_H

#include "lua.h"
#include "lauxlib.h"

#if !defined(LUA_VERSION_NUM) || LUA_VERSION_NUM < 501 || LUA_VERSION_NUM > 504
#error "obb supports Lua 5.1 (and LuaJIT), 5.2, 5.3 and 5.4"
#endif

#if LUA_VERSION_NUM >= 504
#define lobb_newuserdata(L, size) lua_newuserdatauv((L), (size), 0)
#else
#define lobb_newuserdata(L, size) lua_newuserdata((L), (size))
#endif

#if LUA_VERSION_NUM >= 502
#define lobb_rawlen(L, idx) lua_rawlen((L), (idx))
#else
#define lobb_rawlen(L, idx) lua_objlen((L), (idx))
#endif

/* A userdata with n user values (worlds keep their item tables there).
** 5.4 has them natively; before, a userdata has one (in 5.1 its
** environment, a table), so a table holding the n values stands in.
** lobb_getuv pushes value k; lobb_setuv pops the top into value k. */
#if LUA_VERSION_NUM >= 504
#define LOBB_HAS_CLOSE 1 /* __close and to-be-closed variables */
#define lobb_newuserdatan(L, size, n) lua_newuserdatauv((L), (size), (n))
#define lobb_getuv(L, idx, k) ((void)lua_getiuservalue((L), (idx), (k)))
#define lobb_setuv(L, idx, k) ((void)lua_setiuservalue((L), (idx), (k)))
#else
#define LOBB_HAS_CLOSE 0
#if LUA_VERSION_NUM >= 502
#define lobb_getuvtable(L, idx) lua_getuservalue((L), (idx))
#define lobb_setuvtable(L, idx) lua_setuservalue((L), (idx))
#else
#define lobb_getuvtable(L, idx) lua_getfenv((L), (idx))
#define lobb_setuvtable(L, idx) lua_setfenv((L), (idx))
#endif
static inline void *lobb_newuserdatan(lua_State *L, size_t size, int n) {
  void *p = lua_newuserdata(L, size);
  lua_createtable(L, n, 0);
  lobb_setuvtable(L, -2);
  return p;
}
/* The debug library can replace the holder table with another value (or
** none): reading then gives nil, and writing makes a new holder. */
static inline void lobb_getuv(lua_State *L, int idx, int k) {
  lobb_getuvtable(L, idx);
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, k);
    lua_remove(L, -2);
  } else {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
}
static inline void lobb_setuv(lua_State *L, int idx, int k) {
  if (idx < 0 && idx > LUA_REGISTRYINDEX) idx = lua_gettop(L) + idx + 1;
  lobb_getuvtable(L, idx);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, -1);
    lobb_setuvtable(L, idx);
  }
  lua_insert(L, -2);
  lua_rawseti(L, -2, k);
  lua_pop(L, 1);
}
#endif

/* What a type error calls a value whose metatable has no __name. From 5.3
** the io library names its handles "FILE*"; 5.1, LuaJIT and 5.2 register
** the same metatable under that name without the field, so it is looked up
** there, and type errors read alike on every version. */
#if LUA_VERSION_NUM < 503
static inline const char *lobb_basetypename(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    int is_file;
    lua_getfield(L, LUA_REGISTRYINDEX, "FILE*");
    is_file = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    if (is_file) return "FILE*";
  }
  return luaL_typename(L, idx);
}
#else
#define lobb_basetypename(L, idx) luaL_typename((L), (idx))
#endif

/* luaL_setfuncs with upvalues exists from 5.2 (and in LuaJIT, under the
** same name but not in plain 5.1), so obb carries its own. */
void lobb_setfuncs(lua_State *L, const luaL_Reg *l, int nup);

#endif
