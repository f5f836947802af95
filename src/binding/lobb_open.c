/*
** lobb_open.c: the module's entry point, luaopen_obb.
**
** It makes the four metatables (2D boxes, 3D boxes, worlds, response
** sets) and lets each type's file fill its own: lobb_box.c the boxes and
** their constructors, lobb_world.c the worlds, lobb_responses.c the sets
** (and lobb_bump.c obb._bump, obb.bump's C half; obb._lua, what the Lua
** files share, is made here);
** under LuaJIT, lobb_jit.c then hands the module to the FFI fast path.
** Every function it registers is a closure over the box metatables, so
** type checks and new boxes never look in the registry (lobb_box.h).
**
** The metatables are also named in the registry, where host programs'
** pushes (lobb.h) find them, and a name holds one metatable per Lua state.
** A second copy of the module in the same state (another obb.so, opened
** with package.loadlib) would refill them with its own functions, which
** know only its own tags: the first copy's boxes would then be refused
** by their own methods and its worlds never freed. So each copy marks the
** metatables it makes with a key only it has, the address of its tags (a
** light userdata, which no script can make), and a copy that finds the
** names taken by metatables without its mark refuses to open, before it
** makes anything. Opening the same copy again (require after
** package.loaded.obb = nil) refills its own metatables, as before.
*/
#include "lobb_box.h"
#include "lobb_jit.h"
#include "lobb_responses.h"
#include "lobb_world.h"

/* This copy's mark: only the address matters. */
#define OWN_MARK ((void *)lobb_box_tags)

/* Raises unless the registry's tname is free or a metatable this copy
** made. */
static void check_name(lua_State *L, const char *tname) {
  int own = 0;
  lua_getfield(L, LUA_REGISTRYINDEX, tname);
  if (lua_isnil(L, -1)) own = 1;
  else if (lua_istable(L, -1)) {
    lua_pushlightuserdata(L, OWN_MARK);
    lua_rawget(L, -2);
    own = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (!own)
    luaL_error(L, "obb: the metatable '%s' of this Lua state belongs to "
               "another copy of the module (another obb.so) or to another "
               "module; obb opens once per state", tname);
}

/* The offsets of a move record's fields in world:move's out table, by
** name (record i at i * stride + offset), for dimension dim. */
static void push_offsets(lua_State *L, int dim) {
  static const char *const names2[] = {"other", "response", "t", "nx", "ny",
                                       "x", "y", "depth", NULL};
  static const char *const names3[] = {"other", "response", "t", "nx", "ny",
                                       "nz", "x", "y", "z", "depth", NULL};
  const char *const *n = dim == 2 ? names2 : names3;
  int i;
  lua_createtable(L, 0, MOVE_STRIDE(dim) + 1);
  for (i = 0; n[i] != NULL; i++) {
    lua_pushinteger(L, i + 1);
    lua_setfield(L, -2, n[i]);
  }
  lua_pushinteger(L, MOVE_STRIDE(dim));
  lua_setfield(L, -2, "stride");
}

/* A metatable named tname in the registry, with this copy's mark, left on
** the stack. */
static int new_type(lua_State *L, const char *tname) {
  luaL_newmetatable(L, tname);
  lua_pushlightuserdata(L, OWN_MARK);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  return lua_gettop(L);
}

/* obb._lua: what the binding hands obb's Lua files (lua/obb/) to share.
** finite(v): whether v is a finite number (not NaN, not an infinity, not
** a numeric string), the test bump, svg, tiled and jit make of numbers.
** A Lua function, which LuaJIT compiles into its callers' traces (a C
** function would end them); v - v is 0 exactly when v is finite. */
static const char lua_shared[] =
    "local type = type\n"
    "return { finite = function(v) return type(v) == 'number' and v - v == 0 end }\n";

static void open_lua_shared(lua_State *L, int lib) {
  if (luaL_loadbuffer(L, lua_shared, sizeof lua_shared - 1, "=obb._lua") != 0)
    lua_error(L);
  lua_call(L, 0, 1);
  lua_setfield(L, lib, "_lua");
}

int luaopen_obb(lua_State *L) {
  int mt2, mt3, mtw, mtr, lib, ffi_add;
  check_name(L, LOBB_OBB2);
  check_name(L, LOBB_OBB3);
  check_name(L, LOBB_WORLD);
  check_name(L, LOBB_RESPONSES);
  mt2 = new_type(L, LOBB_OBB2);
  mt3 = new_type(L, LOBB_OBB3);
  mtw = new_type(L, LOBB_WORLD);
  mtr = new_type(L, LOBB_RESPONSES);
  lua_newtable(L);
  lib = lua_gettop(L);
  lobb_open_boxes(L, lib, mt2, mt3);
  lobb_open_responses(L, lib, mtr);
  lobb_open_world(L, lib, mt2, mt3, mtw);
  ffi_add = lua_gettop(L);
  lobb_open_bump(L, lib);
  open_lua_shared(L, lib);
  lua_pushliteral(L, OBB_VERSION);
  lua_setfield(L, lib, "_VERSION");
  /* the touching rule's constants (obb.h), for scripts that reason
  ** about it */
  lua_pushnumber(L, OBB_TOUCH_REL);
  lua_setfield(L, lib, "TOUCH_REL");
  lua_pushnumber(L, OBB_TOUCH_COORD);
  lua_setfield(L, lib, "TOUCH_COORD");
  lua_pushnumber(L, OBB_TOUCH_FLOOR);
  lua_setfield(L, lib, "TOUCH_FLOOR");
  /* the strides of the tables world:move and world:cast fill */
  lua_pushinteger(L, MOVE_STRIDE(2));
  lua_setfield(L, lib, "MOVE_STRIDE2");
  lua_pushinteger(L, MOVE_STRIDE(3));
  lua_setfield(L, lib, "MOVE_STRIDE3");
  lua_pushinteger(L, CAST_STRIDE(2));
  lua_setfield(L, lib, "CAST_STRIDE2");
  lua_pushinteger(L, CAST_STRIDE(3));
  lua_setfield(L, lib, "CAST_STRIDE3");
  push_offsets(L, 2);
  lua_setfield(L, lib, "MOVE2");
  push_offsets(L, 3);
  lua_setfield(L, lib, "MOVE3");
  /* the FFI fast path, under LuaJIT */
  lobb_open_jit(L, lib, mt2, mt3, mtw, mtr, ffi_add);
  lua_settop(L, lib);
  return 1;
}
