/*
** lobb.h: the Lua binding of obb, for host programs that embed Lua.
**
** A host opens the module with luaL_requiref(L, LOBB_LIBNAME, luaopen_obb, 0)
** or through package.preload, then hands its own boxes to scripts with
** lobb_pushobb2/3 and reads boxes back with lobb_checkobb2/3 (which raise a
** Lua error on a wrong value) or lobb_testobb2/3 (which return NULL). The
** returned pointers stay valid while the userdata is reachable from Lua.
** Worlds are shared the same way (lobb_pushworld, below). Like the rest
** of Lua's C API, the functions that can raise must run inside a
** protected call (lua_pcall of a C function) when the host wants to
** catch their errors.
*/
#ifndef LOBB_H
#define LOBB_H

#include "obb.h"
#include "obb_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inside extern "C", as lua.hpp does it: Lua's headers have no guard of
** their own, and a C++ host would otherwise see C++ linkage for them. */
#include "lua.h"

#define LOBB_LIBNAME "obb"
#define LOBB_OBB2 "obb.obb2" /* metatable names in the registry */
#define LOBB_OBB3 "obb.obb3"
#define LOBB_WORLD "obb.world"

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

/* ---- worlds shared by the host and its scripts -------------------------
**
** A world a script sees is a userdata (obb.world2 / obb.world3) that owns
** a core world (obb_world.h); its items are Lua values on the script's
** side and ids in C. The host may call the core on the world's obb_world
** (queries, moves with obb_world_move_with, obb_world_update,
** obb_world_set_class, obb_world_box, ...) and sees what scripts did, and
** the other way round, with these rules:
** - Ownership: the userdata owns the obb_world. The host never frees it
**   (obb_world_free): it is freed when a script closes the world
**   (world:close()) or the userdata is collected. A host that keeps a
**   world across calls keeps the userdata reachable (a registry reference,
**   luaL_ref) and reads the obb_world back with lobb_checkworld (or
**   lobb_testworld) after running script code: a world a script closed
**   gives NULL there (lobb_checkworld raises "world is closed").
** - Items: add and remove the items of such a world only through the
**   binding (lobb_world_add and lobb_world_remove here, or the script's
**   world:add and world:remove), never with obb_world_add/_remove, so
**   that every id has its Lua item. Everything else is the host's to do
**   in C.
** - Not while it runs: no C call may change a world while one of its
**   queries or moves runs (from a filter, or a C function a filter
**   calls), as obb_world.h says of every callback; the binding refuses
**   scripts then, and lobb_world_add / lobb_world_remove raise.
** Each index below may be negative (relative to the top). */

/* Pushes a new, empty world of dimension dim (2 or 3; a margin as
** obb_world_new takes it: outside [0, 1e6], or NaN, means the default) made
** with the state's allocator, and returns its core world, which the
** userdata owns (above). Like obb.world2(), it chooses its cells from its
** items (OBB_WORLD_CELL_AUTO); obb_world_set_cell may set them before any
** item is added. Raises for a dim other than 2 or 3, when the module is
** not open in this state, or when memory runs out. */
LOBB_API obb_world *lobb_pushworld(lua_State *L, int dim, double margin);
/* The core world of the world at idx, or NULL when the value there is no
** world or a closed one. */
LOBB_API obb_world *lobb_testworld(lua_State *L, int idx);
/* lobb_testworld, raising a Lua error naming the argument instead of
** giving NULL ("obb.world expected", "world is closed"). */
LOBB_API obb_world *lobb_checkworld(lua_State *L, int idx);

/* Adds the Lua value at itemidx (any value but nil and NaN, not yet in the
** world) to the world at widx with box (an obb2 or obb3 of the world's
** dimension, valid: obbN_is_valid; copied), as world:add does, and returns
** its id (>= 0). Raises for anything world:add refuses (a value that is
** no open world, an item already in it, a world during its query), a
** NULL or invalid box, or when memory runs out. */
LOBB_API int lobb_world_add(lua_State *L, int widx, int itemidx,
                            const void *box);
/* Removes the item of id from the world at widx, as world:remove does.
** Raises when id is no live item of an open world at widx, or the world
** is in a query. */
LOBB_API void lobb_world_remove(lua_State *L, int widx, int id);
/* The id of the Lua value at itemidx in the world at widx, or -1 when it
** is not in the world (or widx holds no open world). Never raises, pushes
** nothing. */
LOBB_API int lobb_world_id(lua_State *L, int widx, int itemidx);
/* Pushes the item (the Lua value) of id in the world at widx, or nil when
** id is no live item of an open world there, and returns its type
** (LUA_TNIL for none), as lua_rawgeti does from 5.3 on. */
LOBB_API int lobb_world_item(lua_State *L, int widx, int id);

#ifdef __cplusplus
}
#endif

#endif
