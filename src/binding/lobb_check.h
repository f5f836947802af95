/*
** lobb_check.h: the argument checks and pushes every binding file shares
** (internal; lobb_check.c).
**
** Each check reads one kind of input (a finite number, half extents, a
** quaternion, a ray's direction...), raises a Lua error naming the
** argument when it is wrong, luaL_argerror style, and writes its output
** only when every part is right: a method that checks all its arguments
** before it writes never half-updates anything.
*/
#ifndef LOBB_CHECK_H
#define LOBB_CHECK_H

#include "lobb.h"
#include "lobb_compat.h"

/* Raises "bad argument #idx to 'f' (<expected> expected, got <type>)". */
int lobb_typeerror(lua_State *L, int idx, const char *expected);
/* Whether the value at idx is the string name, whole. A Lua string may
** hold zero bytes, where strcmp on lua_tostring would stop: "cell\0x" is
** no "cell". Every name the binding reads goes through here or
** lobb_checkoption. */
int lobb_isname(lua_State *L, int idx, const char *name);
/* " followed by a zero byte" when the string at idx holds one (a message
** made with %s shows it only up to there), else "". */
const char *lobb_zeronote(lua_State *L, int idx);
/* luaL_checkoption without a default, comparing whole strings (Lua's
** compares with strcmp: "first\0x" would be "first"). */
int lobb_checkoption(lua_State *L, int idx, const char *const lst[]);
/* A finite number (not a numeric string): NaN and infinities are errors. */
lua_Number lobb_checkfinite(lua_State *L, int idx);
/* n finite numbers at idx, idx + 1, ... into v. */
void lobb_checkvec(lua_State *L, int idx, int n, double *v);
/* A finite number >= 0. */
lua_Number lobb_checkextent(lua_State *L, int idx);
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
/* At most n arguments: an extra one is reported, since it usually means a
** 3D call on a 2D box or a misplaced argument. Inline: every method calls
** it, the pair tests included. */
/* Drops the trailing nils from the stack, returning how many arguments
** remain: what a function that tells its forms apart by their count
** counts, so that a wrapper passing nil for an optional argument gets the
** form without it. */
static inline int lobb_trimnils(lua_State *L) {
  int top = lua_gettop(L);
  while (top > 0 && lua_isnil(L, top)) top--;
  lua_settop(L, top);
  return top;
}
static inline void lobb_checknargs(lua_State *L, int n) {
  int i, top = lua_gettop(L);
  for (i = n + 1; i <= top; i++) /* trailing nils are no values */
    if (!lua_isnil(L, i)) lobb_typeerror(L, i, "no value");
}
/* Pushes v[0..n-1] as numbers, returning n: how queries answer without
** making a table. */
int lobb_pushnumbers(lua_State *L, const double *v, int n);
/* The box userdata at idx (dim 2 or 3, its payload at box), raising
** "box is not finite" (or "box is not valid ...") unless obbN_is_valid
** holds. For what keeps a box: a host (lobb.h) or LuaJIT's FFI can write
** any numbers into a box, and one NaN box in a world hides every item. */
void lobb_checkvalidbox(lua_State *L, int idx, int dim, const void *box);
/* Raises the error for a failed core call on argument idx. */
int lobb_statuserror(lua_State *L, int idx, obb_status s);

/* Reads a matrix of n or alt_n numbers from the arguments starting at idx
** or from a table there; returns how many were read. */
int lobb_checkmatrix(lua_State *L, int idx, double *m, int n, int alt_n);
/* Reads points (a flat array of numbers, or an array of {x, y[, z]} with
** exactly dim numbers each) into a buffer that lives on the stack as a
** userdata; returns the point count. */
size_t lobb_checkpoints(lua_State *L, int idx, int dim, double **out);

#endif
