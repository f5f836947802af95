/*
** lobb_types.c: the box types, each declared here in full: every method
** and metamethod of obb.obb2 and obb.obb3, wherever its body is
** (lobb_box.c, lobb_query.c, lobb_collide.c), the module functions that
** make boxes, and how the metatables are filled.
*/
#include "lobb_box.h"
#include "lobb_responses.h"
#include "lobb_world.h"

static const luaL_Reg box2_methods[] = {
  {"intersects", box2_intersects},
  {"contains", box2_contains},
  {"transform", box2_transform},
  {"corners", box2_corners},
  {"aabb", box2_aabb},
  {"center", box2_center},
  {"half_extents", box2_half_extents},
  {"axes", box2_axes},
  {"angle", box2_angle},
  {"set", box2_set},
  {"set_center", box2_set_center},
  {"set_half_extents", box2_set_half_extents},
  {"set_angle", box2_set_angle},
  {"translate", box2_translate},
  {"rotate", box2_rotate},
  {"clone", box2_clone},
  {"raycast", box2_raycast},
  {"closest_point", box2_closest_point},
  {"distance", box2_distance},
  {"signed_distance", box2_signed_distance},
  {"classify", box2_classify},
  {"intersects_circle", box2_intersects_circle},
  {"intersects_segment", box2_intersects_segment},
  {"merge", mod_merge},
  {"penetration", box2_penetration},
  {"overlaps", box2_overlaps},
  {"contacts", box2_contacts},
  {"sweep", box2_sweep},
  {NULL, NULL}
};

static const luaL_Reg box2_meta[] = {
  {"__tostring", box2_tostring},
  {"__eq", box2_eq},
  {NULL, NULL}
};

static const luaL_Reg box3_methods[] = {
  {"intersects", box3_intersects},
  {"contains", box3_contains},
  {"transform", box3_transform},
  {"corners", box3_corners},
  {"aabb", box3_aabb},
  {"center", box3_center},
  {"half_extents", box3_half_extents},
  {"axes", box3_axes},
  {"rotation", box3_rotation},
  {"set", box3_set},
  {"set_center", box3_set_center},
  {"set_half_extents", box3_set_half_extents},
  {"set_rotation", box3_set_rotation},
  {"translate", box3_translate},
  {"rotate", box3_rotate},
  {"clone", box3_clone},
  {"raycast", box3_raycast},
  {"closest_point", box3_closest_point},
  {"distance", box3_distance},
  {"signed_distance", box3_signed_distance},
  {"classify", box3_classify},
  {"intersects_sphere", box3_intersects_sphere},
  {"intersects_segment", box3_intersects_segment},
  {"plane_side", box3_plane_side},
  {"merge", mod_merge},
  {"penetration", box3_penetration},
  {"overlaps", box3_overlaps},
  {"contacts", box3_contacts},
  {"sweep", box3_sweep},
  {NULL, NULL}
};

static const luaL_Reg box3_meta[] = {
  {"__tostring", box3_tostring},
  {"__eq", box3_eq},
  {NULL, NULL}
};

/* Whether the value at idx carries the metatable named tname in the
** registry (its real one, as debug.getmetatable sees it). */
static int has_metatable(lua_State *L, int idx, const char *tname) {
  int same;
  if (!lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, tname);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* obb.type(v): "obb2", "obb3", "world2", "world3", "obb.responses" or
** nil, never an error. Like io.type it answers for Lua's view of the
** type too: a box that debug.setmetatable gave another metatable is no
** longer called a box here (the methods, which only need the memory to be
** a box, still take it). A closed world is still a world (its methods
** say it is closed). */
static int mod_type(lua_State *L) {
  const lworld *lw;
  int dim;
  for (dim = 2; dim <= 3; dim++) {
    if (lobb_tobox(L, 1, dim) != NULL && lua_getmetatable(L, 1)) {
      int same = lua_rawequal(L, -1, lua_upvalueindex(
                                         dim == 2 ? LOBB_UV_OBB2 : LOBB_UV_OBB3));
      lua_pop(L, 1);
      if (same) {
        lua_pushstring(L, dim == 2 ? "obb2" : "obb3");
        return 1;
      }
    }
  }
  lw = lobb_world_test(L, 1);
  if (lw != NULL && has_metatable(L, 1, LOBB_WORLD)) {
    lua_pushstring(L, lw->dim == 2 ? "world2" : "world3");
    return 1;
  }
  if (lobb_toresponses(L, 1) != NULL && has_metatable(L, 1, LOBB_RESPONSES)) {
    lua_pushliteral(L, LOBB_RESPONSES);
    return 1;
  }
  lua_pushnil(L);
  return 1;
}

static const luaL_Reg box_funcs[] = {
  {"type", mod_type},
  {"new2", box2_new},
  {"from_aabb2", box2_from_aabb},
  {"from_axes2", box2_from_axes},
  {"fit2", box2_fit},
  {"new3", box3_new},
  {"from_aabb3", box3_from_aabb},
  {"from_axes3", box3_from_axes},
  {"fit3", box3_fit},
  {"merge", mod_merge},
  {NULL, NULL}
};

/* Registers l into the table at the top, closed over both metatables. */
static void set_closures(lua_State *L, int mt2, int mt3, const luaL_Reg *l) {
  lua_pushvalue(L, mt2);
  lua_pushvalue(L, mt3);
  lobb_setfuncs(L, l, LOBB_NUPVALUES);
}

/* A type's metatable: its metamethods, __index its method table, and
** __metatable the method table too, so that getmetatable(box) gives the
** methods (obb.obb2 / obb.obb3, open to extension) and never the metatable
** itself, which a script could otherwise strip of __index or __eq for
** every box. */
static void fill_type(lua_State *L, int mt, int mt2, int mt3,
                      const char *tname, const luaL_Reg *methods,
                      const luaL_Reg *meta) {
  lua_pushvalue(L, mt);
  lua_pushstring(L, tname);
  lua_setfield(L, -2, "__name"); /* 5.1 and 5.2 do not set it */
  set_closures(L, mt2, mt3, meta);
  lua_newtable(L);
  set_closures(L, mt2, mt3, methods);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

void lobb_open_boxes(lua_State *L, int lib, int mt2, int mt3) {
  fill_type(L, mt2, mt2, mt3, LOBB_OBB2, box2_methods, box2_meta);
  fill_type(L, mt3, mt2, mt3, LOBB_OBB3, box3_methods, box3_meta);
  lua_pushvalue(L, lib);
  set_closures(L, mt2, mt3, box_funcs);
  lua_getfield(L, mt2, "__index");
  lua_setfield(L, -2, "obb2"); /* the method tables, for extension */
  lua_getfield(L, mt3, "__index");
  lua_setfield(L, -2, "obb3");
  lua_pop(L, 1);
}

