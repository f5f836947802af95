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

/* luaL_setfuncs with upvalues exists from 5.2 (and in LuaJIT, under the
** same name but not in plain 5.1), so obb carries its own. */
void lobb_setfuncs(lua_State *L, const luaL_Reg *l, int nup);

#endif
