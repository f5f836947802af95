/*
** lobb_responses.c: response sets (lobb_responses.h): obb.responses(t),
** and the set's metamethods (tostring, reading set[class] and
** set.default). A set is made once, from a table, and never changes: a
** move reads its responses in C, so nothing a filter could do to a table
** meanwhile can reach it.
**
** And the binding's one reading and writing of response names
** (lobb_toresponse, lobb_pushresponse), on the core's one table of them
** (obb_response_name, obb_response_code): a filter's answers, set
** entries, records and tostring all go through here, and
** obb._response_names hands the same names to the Lua layer (obb.jit's
** world methods, obb.bump).
*/
#include <math.h>
#include <string.h>

#include "lobb_responses.h"
#include "obb_world.h"

const char lobb_responses_tag = 'r';

void lobb_pushresponse(lua_State *L, int r) {
  if (r == OBB_IGNORE) lua_pushboolean(L, 0);
  else lua_pushstring(L, obb_response_name(r));
}

int lobb_toresponse(lua_State *L, int idx, int *zero) {
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  int r;
  *zero = strlen(s) != len; /* "touch\0x" names none: no strcmp sees it */
  if (*zero) return -1;
  r = obb_response_code(s);
  return r > OBB_IGNORE ? r : -1; /* "ignore" is false in Lua */
}

/* The class a key at idx names (0..255), or -1. */
static int class_of(lua_State *L, int idx) {
  lua_Number k;
  if (lua_type(L, idx) != LUA_TNUMBER) return -1;
  k = lua_tonumber(L, idx);
  return k >= 0 && k < LOBB_NCLASSES && k == floor(k) ? (int)k : -1;
}

/* The response the value at v names, for the entry called what
** ("class 3", "default"); raises on argument 1 for anything else. */
static unsigned char response_of(lua_State *L, int v, const char *what) {
  if (lua_type(L, v) == LUA_TBOOLEAN && !lua_toboolean(L, v))
    return OBB_IGNORE;
  if (lua_type(L, v) == LUA_TSTRING) {
    int zero, r = lobb_toresponse(L, v, &zero);
    if (r >= 0) return (unsigned char)r;
    luaL_argerror(L, 1, lua_pushfstring(L, "%s: unknown response '%s'%s",
        what, lua_tostring(L, v), zero ? " followed by a zero byte" : ""));
  }
  luaL_argerror(L, 1, lua_pushfstring(L,
      "%s: response name or false expected, got %s", what,
      luaL_typename(L, v)));
  return 0;
}

/* The name of the key at idx for an error message, pushed (a number as
** tostring shows it: 256, 1.5). */
static const char *key_name(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_pushvalue(L, idx);
    return lua_tostring(L, -1); /* converts the copy only */
  }
  if (lua_type(L, idx) == LUA_TSTRING)
    return lua_pushfstring(L, "'%s'%s", lua_tostring(L, idx),
                           lobb_zeronote(L, idx));
  return lua_pushfstring(L, "of type %s", luaL_typename(L, idx));
}

/* obb.responses(t) -> set: t maps classes (integers 0..255) to responses
** ("touch", "cross", "slide", "bounce", a solid's "ride", "stand", "push",
** "oneway", or false: ignored), and may give
** default (the response of every class t leaves out; "slide" when absent).
** Read raw: t's metatable plays no part. */
static int mod_responses(lua_State *L) {
  lobb_responses *s;
  unsigned char r[LOBB_NCLASSES], def = OBB_SLIDE, set[LOBB_NCLASSES];
  int c;
  if (lua_type(L, 1) != LUA_TTABLE) lobb_typeerror(L, 1, "table");
  lobb_checknargs(L, 1);
  memset(r, 0, sizeof r);
  memset(set, 0, sizeof set);
  lua_pushnil(L);
  while (lua_next(L, 1)) { /* key at 2, value at 3 */
    if (lobb_isname(L, 2, "default")) {
      def = response_of(L, 3, "default");
    } else {
      c = class_of(L, 2);
      if (c < 0)
        luaL_argerror(L, 1, lua_pushfstring(L,
            "key %s is no class (an integer in [0, 255] or 'default' "
            "expected)", key_name(L, 2)));
      r[c] = response_of(L, 3, lua_pushfstring(L, "class %d", c));
      lua_pop(L, 1); /* the entry's name */
      set[c] = 1;
    }
    lua_pop(L, 1);
  }
  s = (lobb_responses *)lobb_newuserdata(L, sizeof(lobb_responses));
  for (c = 0; c < LOBB_NCLASSES; c++) s->r[c] = set[c] ? r[c] : def;
  s->def = def;
  s->tag = LOBB_TAG_RESPONSES;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_setmetatable(L, -2);
  return 1;
}

static const lobb_responses *check_set(lua_State *L) {
  const lobb_responses *s = lobb_toresponses(L, 1);
  if (s == NULL) lobb_typeerror(L, 1, LOBB_RESPONSES);
  return s;
}

/* set[class] -> the class's response; set.default -> the default; any
** other key -> nil. */
static int responses_index(lua_State *L) {
  const lobb_responses *s = check_set(L);
  int c = class_of(L, 2);
  if (c >= 0) lobb_pushresponse(L, s->r[c]);
  else if (lobb_isname(L, 2, "default")) /* whole: not "default\0x" */
    lobb_pushresponse(L, s->def);
  else lua_pushnil(L);
  return 1;
}

/* tostring(set): obb.responses{[1] = "cross", default = "slide"}, the
** classes whose response is not the default, as a table that makes the
** same set. */
static int responses_tostring(lua_State *L) {
  const lobb_responses *s = check_set(L);
  luaL_Buffer b;
  int c;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, LOBB_RESPONSES "{");
  for (c = 0; c < LOBB_NCLASSES; c++) {
    if (s->r[c] == s->def) continue;
    if (s->r[c] == OBB_IGNORE) lua_pushfstring(L, "[%d] = false, ", c);
    else lua_pushfstring(L, "[%d] = \"%s\", ", c, obb_response_name(s->r[c]));
    luaL_addvalue(&b);
  }
  if (s->def == OBB_IGNORE) luaL_addstring(&b, "default = false}");
  else {
    lua_pushfstring(L, "default = \"%s\"}", obb_response_name(s->def));
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

/* obb._response_names: {"touch", "cross", "slide", "bounce"}, each at its
** value (OBB_IGNORE, 0, is false in Lua and has no entry), from the core's
** names: what the Lua layer reads instead of a list of its own. */
static void push_names(lua_State *L) {
  int r;
  lua_createtable(L, OBB_BOUNCE, 0);
  for (r = OBB_TOUCH; r <= OBB_BOUNCE; r++) {
    lua_pushstring(L, obb_response_name(r));
    lua_rawseti(L, -2, r);
  }
}

void lobb_open_responses(lua_State *L, int lib, int mtr) {
  lua_pushliteral(L, LOBB_RESPONSES);
  lua_setfield(L, mtr, "__name");
  lua_pushcfunction(L, responses_index);
  lua_setfield(L, mtr, "__index");
  lua_pushcfunction(L, responses_tostring);
  lua_setfield(L, mtr, "__tostring");
  lua_pushboolean(L, 0); /* getmetatable(set) is false: nothing to change */
  lua_setfield(L, mtr, "__metatable");
  lua_pushvalue(L, mtr);
  lua_pushcclosure(L, mod_responses, 1);
  lua_setfield(L, lib, "responses");
  push_names(L);
  lua_setfield(L, lib, "_response_names");
}
