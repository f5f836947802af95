/*
** lobb_check.c: the argument checks and pushes every binding file shares
** (declared in lobb_check.h). Each check raises a Lua error that names
** the argument, luaL_argerror style, and writes nothing on failure.
*/
#include <math.h>
#include <string.h>

#include "lobb_check.h"

void lobb_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup, "too many upvalues");
  for (; l->name != NULL; l++) {
    int i;
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

/* The value's __name when it is a string, else its base type name. The
** name stays on the stack until the message is made: a __name that is a
** number would be converted to a fresh string that nothing else holds
** (and that lua_pushfstring could collect first). */
int lobb_typeerror(lua_State *L, int idx, const char *expected) {
  const char *name;
  if (luaL_getmetafield(L, idx, "__name")) { /* pushes nothing if absent */
    if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1);
    else {
      lua_pop(L, 1);
      name = lobb_basetypename(L, idx);
    }
  } else {
    name = lobb_basetypename(L, idx);
  }
  return luaL_argerror(
      L, idx, lua_pushfstring(L, "%s expected, got %s", expected, name));
}

int lobb_isname(lua_State *L, int idx, const char *name) {
  size_t len;
  const char *s;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  s = lua_tolstring(L, idx, &len);
  return len == strlen(name) && memcmp(s, name, len) == 0;
}

const char *lobb_zeronote(lua_State *L, int idx) {
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  return s != NULL && strlen(s) != len ? " followed by a zero byte" : "";
}

int lobb_checkoption(lua_State *L, int idx, const char *const lst[]) {
  size_t len;
  const char *s = luaL_checklstring(L, idx, &len);
  int i;
  for (i = 0; lst[i] != NULL; i++)
    if (strlen(lst[i]) == len && memcmp(lst[i], s, len) == 0) return i;
  return luaL_argerror(L, idx, lua_pushfstring(L, "invalid option '%s'%s", s,
                                               lobb_zeronote(L, idx)));
}

static int notfinite_error(lua_State *L, int idx, lua_Number x) {
  const char *got = x != x ? "nan" : x > 0 ? "inf" : "-inf";
  return luaL_argerror(
      L, idx, lua_pushfstring(L, "finite number expected, got %s", got));
}

lua_Number lobb_checkfinite(lua_State *L, int idx) {
  lua_Number x;
  if (lua_type(L, idx) != LUA_TNUMBER) lobb_typeerror(L, idx, "number");
  x = lua_tonumber(L, idx);
  if (x - x != 0) notfinite_error(L, idx, x);
  return x;
}

void lobb_checkvec(lua_State *L, int idx, int n, double *v) {
  int i;
  for (i = 0; i < n; i++) v[i] = lobb_checkfinite(L, idx + i);
}

void lobb_checkextents(lua_State *L, int idx, int n, double *e) {
  int i;
  for (i = 0; i < n; i++) e[i] = lobb_checkextent(L, idx + i);
}

void lobb_checkquat(lua_State *L, int idx, double q[4]) {
  lobb_checkvec(L, idx, 4, q);
  if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    luaL_argerror(L, idx, "quaternion is zero");
}

void lobb_checkdirection(lua_State *L, int idx, int n, double *d) {
  int i, zero = 1;
  lobb_checkvec(L, idx, n, d);
  for (i = 0; i < n; i++)
    if (d[i] != 0.0) zero = 0;
  if (zero) luaL_argerror(L, idx, "direction must not be zero");
}

lua_Number lobb_checkmaxt(lua_State *L, int idx) {
  lua_Number t;
  if (lua_isnoneornil(L, idx)) return HUGE_VAL;
  if (lua_type(L, idx) != LUA_TNUMBER) lobb_typeerror(L, idx, "number");
  t = lua_tonumber(L, idx);
  if (t != t) luaL_argerror(L, idx, "max_t must not be nan");
  if (t < 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "max_t must be >= 0, got %f", t));
  return t;
}

lua_Number lobb_checkextent(lua_State *L, int idx) {
  lua_Number x = lobb_checkfinite(L, idx);
  if (x < 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "half extent must be >= 0, got %f", x));
  return x;
}

int lobb_pushnumbers(lua_State *L, const double *v, int n) {
  int i;
  luaL_checkstack(L, n, NULL);
  for (i = 0; i < n; i++) lua_pushnumber(L, v[i]);
  return n;
}

void lobb_checkvalidbox(lua_State *L, int idx, int dim, const void *box) {
  const double *v = (const double *)box;
  size_t i, n = dim == 2 ? sizeof(obb2) / sizeof(double)
                         : sizeof(obb3) / sizeof(double);
  if (dim == 2 ? obb2_is_valid((const obb2 *)box)
               : obb3_is_valid((const obb3 *)box))
    return;
  for (i = 0; i < n; i++)
    if (v[i] - v[i] != 0) luaL_argerror(L, idx, "box is not finite");
  luaL_argerror(L, idx,
                "box is not valid (negative extent or axes not orthonormal)");
}

int lobb_statuserror(lua_State *L, int idx, obb_status s) {
  return luaL_argerror(L, idx, obb_status_string(s));
}

int lobb_checkmatrix(lua_State *L, int idx, double *m, int n, int alt_n) {
  int count, i;
  if (lua_type(L, idx) == LUA_TTABLE) {
    lobb_checknargs(L, idx);
    count = (int)lobb_rawlen(L, idx);
    if (count != n && count != alt_n) {
      const char *msg = alt_n != n
          ? lua_pushfstring(L, "table of %d or %d numbers expected, got %d",
                            n, alt_n, count)
          : lua_pushfstring(L, "table of %d numbers expected, got %d", n,
                            count);
      luaL_argerror(L, idx, msg);
    }
    for (i = 0; i < count; i++) {
      lua_Number x;
      lua_rawgeti(L, idx, i + 1);
      x = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || x - x != 0)
        luaL_argerror(L, idx, lua_pushfstring(
            L, "matrix entry %d is not a finite number", i + 1));
      m[i] = x;
      lua_pop(L, 1);
    }
    return count;
  }
  count = lobb_trimnils(L) - idx + 1;
  if (count != alt_n) count = n;
  lobb_checknargs(L, idx + count - 1);
  lobb_checkvec(L, idx, count, m);
  return count;
}

/* A nested point {x, y[, z]}: exactly dim finite numbers, so that a 3D
** point given to a 2D fit is refused rather than read without its z. */
static int read_point(lua_State *L, int t, int dim, double *p) {
  int j;
  if (lobb_rawlen(L, t) != (size_t)dim) return 0;
  for (j = 0; j < dim; j++) {
    lua_rawgeti(L, t, j + 1);
    if (lua_type(L, -1) != LUA_TNUMBER) return 0;
    p[j] = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (p[j] - p[j] != 0) return 0;
  }
  return 1;
}

size_t lobb_checkpoints(lua_State *L, int idx, int dim, double **out) {
  size_t len, n, i;
  int nested;
  double *buf;
  if (lua_type(L, idx) != LUA_TTABLE) lobb_typeerror(L, idx, "table");
  len = lobb_rawlen(L, idx);
  lua_rawgeti(L, idx, 1);
  nested = lua_type(L, -1) == LUA_TTABLE;
  lua_pop(L, 1);
  n = nested ? len : len / dim;
  if (n == 0 || (!nested && len % dim != 0))
    luaL_argerror(L, idx, lua_pushfstring(
        L, nested ? "at least one point expected"
                  : "flat array of %d numbers per point expected, got %d numbers",
        dim, (int)len));
  if (n > ((size_t)-1) / (dim * sizeof(double)))
    luaL_argerror(L, idx, "too many points");
  buf = (double *)lobb_newuserdata(L, n * dim * sizeof(double));
  for (i = 0; i < n; i++) {
    int ok;
    if (nested) {
      lua_rawgeti(L, idx, (int)i + 1);
      ok = lua_type(L, -1) == LUA_TTABLE &&
           read_point(L, lua_gettop(L), dim, buf + dim * i);
      lua_pop(L, 1);
    } else {
      int j;
      ok = 1;
      for (j = 0; ok && j < dim; j++) {
        double x;
        lua_rawgeti(L, idx, (int)(dim * i + j) + 1);
        x = lua_tonumber(L, -1);
        ok = lua_type(L, -1) == LUA_TNUMBER && x - x == 0;
        lua_pop(L, 1);
        buf[dim * i + j] = x;
      }
    }
    if (!ok)
      luaL_argerror(L, idx, lua_pushfstring(
          L, "point %d is not %d finite numbers", (int)i + 1, dim));
  }
  *out = buf;
  return n;
}

