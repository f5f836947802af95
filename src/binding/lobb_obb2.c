/*
** lobb_obb2.c: the Lua face of 2D boxes (obb.obb2).
*/
#include <math.h>

#include "lobb_internal.h"
#include "obb_math.h"

static int push_status(lua_State *L, int idx, obb_status s) {
  if (s != OBB_OK) return lobb_statuserror(L, idx, s);
  return 1;
}

void lobb_checkboxargs2(lua_State *L, int idx, obb2 *b, const obb2 *old) {
  obb2 n;
  lobb_checknargs(L, idx + 4);
  lobb_checkvec(L, idx, 2, n.c);
  lobb_checkextents(L, idx + 2, 2, n.e);
  if (!lua_isnoneornil(L, idx + 4)) {
    obb2_set_angle(&n, lobb_checkfinite(L, idx + 4));
  } else if (old != NULL) {
    n.u[0] = old->u[0]; n.u[1] = old->u[1];
  } else {
    n.u[0] = 1; n.u[1] = 0;
  }
  *b = n;
}

/* obb.new2(cx, cy, hx, hy [, angle]) */
static int l_new2(lua_State *L) {
  obb2 b;
  lobb_checkboxargs2(L, 1, &b, NULL);
  *lobb_new2(L) = b;
  return 1;
}

/* obb.from_aabb2(minx, miny, maxx, maxy) */
static int l_from_aabb2(lua_State *L) {
  obb2 b;
  double v[4];
  int i;
  obb_status s;
  lobb_checknargs(L, 4);
  for (i = 0; i < 4; i++) v[i] = lobb_checkfinite(L, i + 1);
  s = obb2_from_aabb(&b, v, v + 2);
  if (s != OBB_OK) /* blame the max that is below its min */
    return luaL_argerror(L, v[0] > v[2] ? 3 : 4, "max is less than min");
  *lobb_new2(L) = b;
  return 1;
}

/* obb.from_axes2(cx, cy, hx, hy, ux, uy) */
static int l_from_axes2(lua_State *L) {
  obb2 b;
  double v[6];
  int i;
  lobb_checknargs(L, 6);
  for (i = 0; i < 6; i++)
    v[i] = i == 2 || i == 3 ? lobb_checkextent(L, i + 1)
                            : lobb_checkfinite(L, i + 1);
  push_status(L, 5, obb2_from_axis(&b, v, v + 2, v + 4));
  *lobb_new2(L) = b;
  return 1;
}

/* obb.fit2(points [, method]): method "tight" (the default: the
** minimum-area rectangle) or "covariance". The tight fit's scratch is a
** userdata, so an error cannot leak it. */
static int l_fit2(lua_State *L) {
  static const char *const methods[] = {"tight", "covariance", NULL};
  obb2 b;
  double *pts, *scratch;
  size_t n;
  int tight;
  lobb_checknargs(L, 2);
  /* the option first: lobb_checkpoints pushes its buffer, which would
  ** take an absent argument 2's place. LuaJIT's checkoption would take
  ** a table or a boolean for the default: refuse them as 5.4 does. */
  if (!lua_isnoneornil(L, 2) && !lua_isstring(L, 2))
    lobb_typeerror(L, 2, "string");
  tight = luaL_checkoption(L, 2, "tight", methods) == 0;
  n = lobb_checkpoints(L, 1, 2, &pts);
  if (tight) {
    if (n > ((size_t)-1 / sizeof(double) - 4) / 6)
      return luaL_argerror(L, 1, "too many points");
    scratch = (double *)lobb_newuserdata(
        L, OBB2_TIGHT_SCRATCH(n) * sizeof(double));
    push_status(L, 1, obb2_fit_points_tight(&b, pts, n, scratch));
  } else {
    push_status(L, 1, obb2_fit_points(&b, pts, n));
  }
  *lobb_new2(L) = b;
  return 1;
}

/* ---- queries -------------------------------------------------------- */

static int m_intersects(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b = lobb_check2(L, 2);
  lua_pushboolean(L, obb2_intersects(a, b));
  return 1;
}

/* contains(x, y) or contains(box) */
static int m_contains(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    double p[2];
    lobb_checkvec(L, 2, 2, p);
    lobb_checknargs(L, 3);
    lua_pushboolean(L, obb2_contains_point(a, p));
    return 1;
  }
  b = lobb_to2(L, 2);
  if (b == NULL) return lobb_typeerror(L, 2, "number or " LOBB_OBB2);
  lobb_checknargs(L, 2);
  lua_pushboolean(L, obb2_contains_box(a, b));
  return 1;
}

/* transform(a, b, c, d, e, f) or transform({a, b, c, d, e, f}) */
static int m_transform(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double m[6];
  lobb_checkmatrix(L, 2, m, 6, 6);
  if (obb2_transform(b, m) != OBB_OK)
    return luaL_error(L, "transform result is not finite");
  lua_settop(L, 1);
  return 1;
}

static int m_corners(lua_State *L) {
  double v[8];
  obb2_corners(lobb_check2(L, 1), v);
  return lobb_pushnumbers(L, v, 8);
}

static int m_aabb(lua_State *L) {
  double v[4];
  obb2_aabb(lobb_check2(L, 1), v);
  return lobb_pushnumbers(L, v, 4);
}

static int m_center(lua_State *L) {
  return lobb_pushnumbers(L, lobb_check2(L, 1)->c, 2);
}

static int m_half_extents(lua_State *L) {
  return lobb_pushnumbers(L, lobb_check2(L, 1)->e, 2);
}

static int m_axes(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double v[4];
  v[0] = b->u[0]; v[1] = b->u[1]; v[2] = -b->u[1]; v[3] = b->u[0];
  return lobb_pushnumbers(L, v, 4);
}

static int m_angle(lua_State *L) {
  lua_pushnumber(L, obb2_angle(lobb_check2(L, 1)));
  return 1;
}

/* ---- in-place updates: each checks every argument before it writes ---- */

static int m_set(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  lobb_checkboxargs2(L, 2, b, b);
  lua_settop(L, 1);
  return 1;
}

static int m_set_center(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double x = lobb_checkfinite(L, 2), y = lobb_checkfinite(L, 3);
  lobb_checknargs(L, 3);
  b->c[0] = x; b->c[1] = y;
  lua_settop(L, 1);
  return 1;
}

static int m_set_half_extents(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double x = lobb_checkextent(L, 2), y = lobb_checkextent(L, 3);
  lobb_checknargs(L, 3);
  b->e[0] = x; b->e[1] = y;
  lua_settop(L, 1);
  return 1;
}

static int m_set_angle(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double a = lobb_checkfinite(L, 2);
  lobb_checknargs(L, 2);
  obb2_set_angle(b, a);
  lua_settop(L, 1);
  return 1;
}

static int m_translate(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double x = lobb_checkfinite(L, 2), y = lobb_checkfinite(L, 3);
  double cx = b->c[0] + x, cy = b->c[1] + y;
  lobb_checknargs(L, 3);
  if (cx - cx != 0 || cy - cy != 0)
    return luaL_error(L, "translate result is not finite");
  b->c[0] = cx; b->c[1] = cy;
  lua_settop(L, 1);
  return 1;
}

/* rotate(angle): turns the box about its center, counter-clockwise. */
static int m_rotate(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double a = lobb_checkfinite(L, 2), c, s, x, y;
  lobb_checknargs(L, 2);
  obb_sincos(a, &s, &c);
  x = c * b->u[0] - s * b->u[1];
  y = s * b->u[0] + c * b->u[1];
  /* renormalise so that many small turns do not drift off unit length */
  {
    double len = sqrt(x * x + y * y);
    b->u[0] = x / len; b->u[1] = y / len;
  }
  lua_settop(L, 1);
  return 1;
}

static int m_clone(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  lobb_checknargs(L, 1);
  *lobb_new2(L) = *b;
  return 1;
}

static int mm_tostring(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  lua_pushfstring(L, "obb2(%f, %f, %f, %f, %f)", b->c[0], b->c[1], b->e[0],
                  b->e[1], obb2_angle(b));
  return 1;
}

/* Equal when center, axis and half extents are equal (not set equality:
** a box turned half a turn is the same set but a different value). */
static int mm_eq(lua_State *L) {
  obb2 *a = lobb_to2(L, 1), *b = lobb_to2(L, 2);
  lua_pushboolean(L, a != NULL && b != NULL && a->c[0] == b->c[0] &&
                         a->c[1] == b->c[1] && a->u[0] == b->u[0] &&
                         a->u[1] == b->u[1] && a->e[0] == b->e[0] &&
                         a->e[1] == b->e[1]);
  return 1;
}

const luaL_Reg lobb_obb2_funcs[] = {
  {"new2", l_new2},
  {"from_aabb2", l_from_aabb2},
  {"from_axes2", l_from_axes2},
  {"fit2", l_fit2},
  {NULL, NULL}
};

const luaL_Reg lobb_obb2_methods[] = {
  {"intersects", m_intersects},
  {"contains", m_contains},
  {"transform", m_transform},
  {"corners", m_corners},
  {"aabb", m_aabb},
  {"center", m_center},
  {"half_extents", m_half_extents},
  {"axes", m_axes},
  {"angle", m_angle},
  {"set", m_set},
  {"set_center", m_set_center},
  {"set_half_extents", m_set_half_extents},
  {"set_angle", m_set_angle},
  {"translate", m_translate},
  {"rotate", m_rotate},
  {"clone", m_clone},
  {NULL, NULL}
};

const luaL_Reg lobb_obb2_meta[] = {
  {"__tostring", mm_tostring},
  {"__eq", mm_eq},
  {NULL, NULL}
};
