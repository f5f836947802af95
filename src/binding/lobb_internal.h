/*
** lobb_internal.h: what the binding's .c files share (internal).
**
** Every function the module registers carries the two metatables as
** upvalues, so checking a userdata's type is a pointer compare, not the
** registry lookup (a string hash) that luaL_checkudata does. The userdata
** size is checked too: debug.setmetatable could put our metatable on some
** other userdata, and that must fail cleanly rather than be read as a box.
**
** Boxes, checked on every pair test, go further (bench/, `make bench`: the
** metatable compare costs four Lua API calls per argument, more than the
** 2D test itself). A box's userdata is the box followed by a tag, the
** address of a constant in lobb.c; a userdata of exactly that size whose
** tag matches is a box, two API calls and a compare. Scripts cannot write
** raw bytes into a userdata, other modules do not know the address, and
** debug.setmetatable cannot forge the tag; lua_touserdata still points at
** the box itself.
*/
#ifndef LOBB_INTERNAL_H
#define LOBB_INTERNAL_H

#include "lobb.h"
#include "obb_world.h"
#include "lobb_compat.h"

#define LOBB_UV_OBB2 1
#define LOBB_UV_OBB3 2
#define LOBB_NUPVALUES 2

/* A full userdata with the metatable in upvalue uv and the given size. */
static inline void *lobb_toudata(lua_State *L, int idx, int uv, size_t size) {
  void *p = lua_touserdata(L, idx);
  if (p != NULL && lua_getmetatable(L, idx)) {
    int ok = lua_rawequal(L, -1, lua_upvalueindex(uv));
    lua_pop(L, 1);
    if (ok && lobb_rawlen(L, idx) == size) return p;
  }
  return NULL;
}

/* The userdata of a box: the box, then its tag (see above). */
typedef struct lobb_ud2 { obb2 box; const void *tag; } lobb_ud2;
typedef struct lobb_ud3 { obb3 box; const void *tag; } lobb_ud3;
extern const char lobb_box_tags[2]; /* lobb.c; only the addresses matter */
#define LOBB_TAG2 ((const void *)&lobb_box_tags[0])
#define LOBB_TAG3 ((const void *)&lobb_box_tags[1])

/* The box at idx, or NULL for any other value. */
static inline obb2 *lobb_to2(lua_State *L, int idx) {
  lobb_ud2 *p = (lobb_ud2 *)lua_touserdata(L, idx);
  return p != NULL && lobb_rawlen(L, idx) == sizeof *p && p->tag == LOBB_TAG2
             ? &p->box : NULL;
}

static inline obb3 *lobb_to3(lua_State *L, int idx) {
  lobb_ud3 *p = (lobb_ud3 *)lua_touserdata(L, idx);
  return p != NULL && lobb_rawlen(L, idx) == sizeof *p && p->tag == LOBB_TAG3
             ? &p->box : NULL;
}

obb2 *lobb_check2(lua_State *L, int idx);
obb3 *lobb_check3(lua_State *L, int idx);
obb2 *lobb_new2(lua_State *L); /* pushes a fresh box (contents unset) */
obb3 *lobb_new3(lua_State *L);

/* Raises "bad argument #idx to 'f' (<expected> expected, got <type>)". */
int lobb_typeerror(lua_State *L, int idx, const char *expected);
/* A finite number (not a numeric string): NaN and infinities are errors. */
lua_Number lobb_checkfinite(lua_State *L, int idx);
/* n finite numbers at idx, idx + 1, ... into v. */
void lobb_checkvec(lua_State *L, int idx, int n, double *v);
/* n half extents (finite numbers >= 0) at idx, idx + 1, ... into e. */
void lobb_checkextents(lua_State *L, int idx, int n, double *e);
/* A quaternion x, y, z, w at idx..idx + 3: finite, not all zero (the
** error names argument idx). */
void lobb_checkquat(lua_State *L, int idx, double q[4]);
/* A ray's direction: n finite numbers, not all zero (the cast would be
** empty), reported on argument idx. */
void lobb_checkdirection(lua_State *L, int idx, int n, double *d);
/* A ray's max_t: a number >= 0, math.huge allowed; nil or absent for no
** limit (HUGE_VAL). */
lua_Number lobb_checkmaxt(lua_State *L, int idx);
/* A finite number >= 0. */
lua_Number lobb_checkextent(lua_State *L, int idx);
/* At most n arguments: an extra one is reported, since it usually means a
** 3D call on a 2D box or a misplaced argument. */
void lobb_checknargs(lua_State *L, int n);
/* Pushes v[0..n-1] as numbers, returning n: how queries answer without
** making a table. */
int lobb_pushnumbers(lua_State *L, const double *v, int n);
/* Raises the error for a failed core call on argument idx. */
int lobb_statuserror(lua_State *L, int idx, obb_status s);

/* Reads a matrix of n or alt_n numbers from the arguments starting at idx
** or from a table there; returns how many were read. */
int lobb_checkmatrix(lua_State *L, int idx, double *m, int n, int alt_n);
/* Reads points (a flat array of numbers, or an array of {x, y[, z]}) into a
** buffer that lives on the stack as a userdata; returns the point count. */
size_t lobb_checkpoints(lua_State *L, int idx, int dim, double **out);

/* A box from the numbers cx, cy, hx, hy [, angle] at idx on (lobb_obb2.c),
** or cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw] (lobb_obb3.c), with nothing
** after them. Without the rotation the box keeps old's (none when old is
** NULL). Every argument is checked before b is written; b may be old. */
void lobb_checkboxargs2(lua_State *L, int idx, obb2 *b, const obb2 *old);
void lobb_checkboxargs3(lua_State *L, int idx, obb3 *b, const obb3 *old);

extern const luaL_Reg lobb_obb2_funcs[], lobb_obb2_methods[], lobb_obb2_meta[];
extern const luaL_Reg lobb_obb3_funcs[], lobb_obb3_methods[], lobb_obb3_meta[];
extern const luaL_Reg lobb_query2_methods[], lobb_query3_methods[],
    lobb_query_funcs[]; /* lobb_query.c */
extern const luaL_Reg lobb_collide2_methods[],
    lobb_collide3_methods[]; /* lobb_collide.c */
/* lobb_world.c: the world type and obb.world2/world3, registered into the
** module table on top; worlds need a third metatable upvalue. */
void lobb_open_world(lua_State *L, int mt2, int mt3);

#endif
