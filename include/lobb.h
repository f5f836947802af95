/*
** lobb.h: the Lua binding of obb, for host programs that embed Lua.
**
** A host opens the module with luaL_requiref(L, LOBB_LIBNAME, luaopen_obb, 0)
** or through package.preload, then hands its own boxes to scripts with
** lobb_pushobb2/3 and reads boxes back with lobb_checkobb2/3 (which raise a
** Lua error on a wrong value) or lobb_testobb2/3 (which return NULL). The
** returned pointers stay valid while the userdata is reachable from Lua.
*/
#ifndef LOBB_H
#define LOBB_H

#include "obb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inside extern "C", as lua.hpp does it: Lua's headers have no guard of
** their own, and a C++ host would otherwise see C++ linkage for them. */
#include "lua.h"

#define LOBB_LIBNAME "obb"
#define LOBB_OBB2 "obb.obb2" /* metatable names in the registry */
#define LOBB_OBB3 "obb.obb3"

#ifndef LOBB_API
#define LOBB_API extern OBB_API
#endif

LOBB_API int luaopen_obb(lua_State *L);

LOBB_API obb2 *lobb_testobb2(lua_State *L, int idx);
LOBB_API obb2 *lobb_checkobb2(lua_State *L, int idx);
LOBB_API obb2 *lobb_pushobb2(lua_State *L, const obb2 *b);

LOBB_API obb3 *lobb_testobb3(lua_State *L, int idx);
LOBB_API obb3 *lobb_checkobb3(lua_State *L, int idx);
LOBB_API obb3 *lobb_pushobb3(lua_State *L, const obb3 *b);

#ifdef __cplusplus
}
#endif

#endif
