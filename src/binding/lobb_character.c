/*
** lobb_character.c: the Lua face of the character kit (obb_character.c):
** w:set_character, w:character, and what a character's last move left
** it (w:is_on_floor, w:is_on_wall, w:is_on_ceiling, w:floor_normal,
** w:floor, w:platform_motion). w:ground, which asks a filter, is lobb_move.c's.
** A character's moves are w:move's own: the core runs the kit for an item
** made a character, so nothing of it is here.
*/
#include <string.h>

#include "lobb_world.h"
#include "obb_math.h"

static const char *const leave_names[] = {"all", "up", "none", NULL};

/* The option at key of the table at idx: a length >= 0 (0 when absent). */
static double length_option(lua_State *L, int idx, const char *key) {
  double v = 0;
  lua_getfield(L, idx, key);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      luaL_argerror(L, 3, lua_pushfstring(L, "option '%s': number expected, "
                                          "got %s", key, luaL_typename(L, -1)));
    v = lua_tonumber(L, -1);
    if (!obb_finite(v) || v < 0)
      luaL_argerror(L, 3, lua_pushfstring(L, "option '%s' must be a finite "
                                          "number >= 0", key));
  }
  lua_pop(L, 1);
  return v;
}

/* The option at key: a boolean (false when absent). */
static int flag_option(lua_State *L, int idx, const char *key) {
  int v = 0;
  lua_getfield(L, idx, key);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TBOOLEAN)
      luaL_argerror(L, 3, lua_pushfstring(L, "option '%s': boolean expected, "
                                          "got %s", key, luaL_typename(L, -1)));
    v = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

/* Every key of the table at idx is an option: a misspelt one (snap_length)
** is an error, not an option silently off. */
static void known_options(lua_State *L, int idx) {
  static const char *const keys[] = {"snap", "step", "corner",
                                     "stop_on_slope", "block_on_wall",
                                     "leave", NULL};
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int i, known = 0;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING)
      for (i = 0; keys[i] != NULL && !known; i++)
        known = lobb_isname(L, -1, keys[i]);
    if (!known) {
      const char *name = lua_type(L, -1) == LUA_TSTRING
                             ? lua_tostring(L, -1)
                             : luaL_typename(L, -1);
      luaL_argerror(L, 3, lua_pushfstring(L, "unknown option '%s'", name));
    }
  }
}

/* w:set_character(item, options) -> w; w:set_character(item, nil) -> w */
int lobb_world_set_character(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "set a character of");
  int id = lobb_world_checkid(L, 2);
  obb_character c;
  lobb_checknargs(L, 3);
  if (lua_isnoneornil(L, 3)) {
    obb_world_set_character(lw->w, id, NULL);
    lua_settop(L, 1);
    return 1;
  }
  if (lua_type(L, 3) != LUA_TTABLE) lobb_typeerror(L, 3, "table or nil");
  known_options(L, 3);
  memset(&c, 0, sizeof c);
  c.snap = length_option(L, 3, "snap");
  c.step = length_option(L, 3, "step");
  c.corner = length_option(L, 3, "corner");
  c.stop_on_slope = flag_option(L, 3, "stop_on_slope");
  c.block_on_wall = flag_option(L, 3, "block_on_wall");
  lua_getfield(L, 3, "leave");
  if (!lua_isnil(L, -1)) {
    int i, found = -1;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (i = 0; leave_names[i] != NULL && found < 0; i++)
        if (lobb_isname(L, -1, leave_names[i])) found = i;
    if (found < 0)
      luaL_argerror(L, 3, "option 'leave' must be \"all\", \"up\" or \"none\"");
    c.leave = found;
  }
  lua_pop(L, 1);
  if (obb_world_set_character(lw->w, id, &c) != 0)
    luaL_error(L, "not enough memory");
  lua_settop(L, 1);
  return 1;
}

/* w:character(item) -> options table, or nil for an item no character */
int lobb_world_character(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  int id = lobb_world_checkid(L, 2);
  obb_character c;
  lobb_checknargs(L, 2);
  if (!obb_world_character(lw->w, id, &c)) {
    lua_pushnil(L);
    return 1;
  }
  lua_createtable(L, 0, 6);
  lua_pushnumber(L, c.snap);
  lua_setfield(L, -2, "snap");
  lua_pushnumber(L, c.step);
  lua_setfield(L, -2, "step");
  lua_pushnumber(L, c.corner);
  lua_setfield(L, -2, "corner");
  lua_pushboolean(L, c.stop_on_slope);
  lua_setfield(L, -2, "stop_on_slope");
  lua_pushboolean(L, c.block_on_wall);
  lua_setfield(L, -2, "block_on_wall");
  lua_pushstring(L, leave_names[c.leave]);
  lua_setfield(L, -2, "leave");
  return 1;
}

/* The state of the character at 2 (zeros for an item no character). */
static lworld *state_of(lua_State *L, obb_character_state *s) {
  lworld *lw = lobb_world_checkopen(L);
  int id = lobb_world_checkid(L, 2);
  lobb_checknargs(L, 2);
  obb_world_character_state(lw->w, id, s);
  return lw;
}

/* w:is_on_floor(item) / w:is_on_wall(item) / w:is_on_ceiling(item) ->
** boolean */
enum { ON_FLOOR, ON_WALL, ON_CEILING };

static int push_flag(lua_State *L, int which) {
  obb_character_state s;
  state_of(L, &s);
  lua_pushboolean(L, which == ON_FLOOR ? s.on_floor
                     : which == ON_WALL ? s.on_wall : s.on_ceiling);
  return 1;
}

int lobb_world_is_on_floor(lua_State *L) { return push_flag(L, ON_FLOOR); }
int lobb_world_is_on_wall(lua_State *L) { return push_flag(L, ON_WALL); }
int lobb_world_is_on_ceiling(lua_State *L) { return push_flag(L, ON_CEILING); }

/* w:floor_normal(item) -> nx, ny[, nz] (zeros off the floor) */
int lobb_world_floor_normal(lua_State *L) {
  obb_character_state s;
  lworld *lw = state_of(L, &s);
  static const double zero[3] = {0, 0, 0};
  return lobb_pushnumbers(L, s.on_floor ? s.ground.n : zero, lw->dim);
}

/* w:floor(item) -> other, nx, ny[, nz]; nil off the floor */
int lobb_world_floor(lua_State *L) {
  obb_character_state s;
  lworld *lw = state_of(L, &s);
  if (!s.on_floor || s.ground.other < 0) {
    lua_pushnil(L);
    return 1;
  }
  lobb_world_pushitems(L, UV_BYID);
  lua_rawgeti(L, -1, s.ground.other + 1);
  lua_remove(L, -2);
  return 1 + lobb_pushnumbers(L, s.ground.n, lw->dim);
}

/* w:platform_motion(item) -> dx, dy[, dz] */
int lobb_world_platform_motion(lua_State *L) {
  obb_character_state s;
  lworld *lw = state_of(L, &s);
  return lobb_pushnumbers(L, s.platform, lw->dim);
}
