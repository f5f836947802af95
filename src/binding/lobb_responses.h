/*
** lobb_responses.h: response sets, the declarative filter of the movers
** (internal; lobb_responses.c).
**
** obb.responses(t) makes one: for each item class (0..255, w:set_class)
** the response (obb_world.h's OBB_IGNORE to OBB_BOUNCE, and a solid's
** OBB_RIDE to OBB_ONEWAY, which a move takes as OBB_SLIDE) a move gives
** an other of that class. Passed where a filter goes, it is read in C, once
** per other met, as the function filter
**   function(item, other) local r = t[w:class(other)]
**     if r == nil then r = t.default end return r end
** would answer (lobb_move.c; lobb_ffi_world.c on LuaJIT's fast path), with
** no Lua call. A set never changes once made.
**
** The userdata follows every obb type's layout rule (lobb_box.h): the C
** struct, then the tag, the address of a constant only obb knows.
*/
#ifndef LOBB_RESPONSES_H
#define LOBB_RESPONSES_H

#include "lobb_check.h"
#include "obb_world.h"

#define LOBB_RESPONSES "obb.responses" /* the metatable's name, obb.type's */
#define LOBB_NCLASSES OBB_NCLASSES

typedef struct lobb_responses {
  unsigned char r[LOBB_NCLASSES]; /* the response by the other's class */
  unsigned char def;              /* t.default's, for tostring */
  const void *tag;                /* LOBB_TAG_RESPONSES */
} lobb_responses;

extern const char lobb_responses_tag; /* only the address matters */

#define LOBB_TAG_RESPONSES ((const void *)&lobb_responses_tag)

/* The set at idx, or NULL for any other value (its size and tag, as
** boxes are told apart: no metatable or registry lookup). */
static inline const lobb_responses *lobb_toresponses(lua_State *L, int idx) {
  const lobb_responses *s = (const lobb_responses *)lua_touserdata(L, idx);
  return s != NULL && lobb_rawlen(L, idx) == sizeof(lobb_responses) &&
                 s->tag == LOBB_TAG_RESPONSES ? s : NULL;
}

/* Pushes the response r (OBB_IGNORE .. OBB_CRUSH) as Lua shows it: its
** name (obb_response_name), or false for OBB_IGNORE. */
void lobb_pushresponse(lua_State *L, int r);
/* The response the string at idx names as Lua names them (a mover's
** "touch" to "bounce", a solid's "ride" to "oneway", whole: "ignore" is
** false in Lua), or -1, with *zero set when the string has a zero byte (it
** then names none). A mover's filter takes a mover's only. */
int lobb_toresponse(lua_State *L, int idx, int *zero);

/* Fills the set's metatable at mtr (luaopen_obb made it) and sets
** obb.responses and obb._response_names into the table at lib. */
void lobb_open_responses(lua_State *L, int lib, int mtr);

#endif
