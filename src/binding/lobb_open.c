/*
** lobb_open.c: the module's entry point, luaopen_obb.
**
** It makes the three metatables (2D boxes, 3D boxes, worlds) and lets each
** type's file fill its own: lobb_box.c the boxes and their constructors,
** lobb_world.c the worlds; under LuaJIT, lobb_jit.c then hands the module
** to the FFI fast path. Every function it registers is a closure over
** the box metatables, so type checks and new boxes never look in the
** registry (lobb_box.h).
*/
#include "lobb_box.h"
#include "lobb_jit.h"

/* A metatable named tname in the registry (where host programs' pushes
** find it), left on the stack. */
static int new_type(lua_State *L, const char *tname) {
  luaL_newmetatable(L, tname);
  return lua_gettop(L);
}

int luaopen_obb(lua_State *L) {
  int mt2 = new_type(L, LOBB_OBB2), mt3 = new_type(L, LOBB_OBB3), lib;
  lua_newtable(L);
  lib = lua_gettop(L);
  lobb_open_boxes(L, lib, mt2, mt3);
  lobb_open_world(L, mt2, mt3); /* the module table on top */
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
  lua_pushinteger(L, 8);
  lua_setfield(L, lib, "MOVE_STRIDE2");
  lua_pushinteger(L, 10);
  lua_setfield(L, lib, "MOVE_STRIDE3");
  lua_pushinteger(L, 4);
  lua_setfield(L, lib, "CAST_STRIDE2");
  lua_pushinteger(L, 5);
  lua_setfield(L, lib, "CAST_STRIDE3");
  lobb_open_jit(L, lib); /* the FFI fast path, under LuaJIT */
  return 1;
}
