/*
** lobb_obb3.c: the Lua face of 3D boxes (obb.obb3).
*/
#include <math.h>

#include "lobb_internal.h"

void lobb_checkboxargs3(lua_State *L, int idx, obb3 *b, const obb3 *old) {
  obb3 n;
  double c[3], e[3], q[4] = {0, 0, 0, 1};
  int i;
  lobb_checknargs(L, idx + 9);
  lobb_checkvec(L, idx, 3, c);
  lobb_checkextents(L, idx + 3, 3, e);
  /* a nil in the quaternion's place is an error unless nothing follows */
  if (!lua_isnoneornil(L, idx + 6) || lua_gettop(L) > idx + 6) {
    lobb_checkquat(L, idx + 6, q);
  } else if (old != NULL) {
    n = *old;
    for (i = 0; i < 3; i++) { n.c[i] = c[i]; n.e[i] = e[i]; }
    *b = n;
    return;
  }
  obb3_init(&n, c, e, q); /* cannot fail: every part was checked */
  *b = n;
}

/* obb.new3(cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw]) */
static int l_new3(lua_State *L) {
  obb3 b;
  lobb_checkboxargs3(L, 1, &b, NULL);
  *lobb_new3(L) = b;
  return 1;
}

/* obb.from_aabb3(minx, miny, minz, maxx, maxy, maxz) */
static int l_from_aabb3(lua_State *L) {
  obb3 b;
  double lo[3], hi[3];
  int i;
  lobb_checknargs(L, 6);
  lobb_checkvec(L, 1, 3, lo);
  lobb_checkvec(L, 4, 3, hi);
  for (i = 0; i < 3; i++)
    if (lo[i] > hi[i]) return luaL_argerror(L, 4 + i, "max is less than min");
  obb3_from_aabb(&b, lo, hi);
  *lobb_new3(L) = b;
  return 1;
}

/* obb.from_axes3(cx, cy, cz, hx, hy, hz, ux, uy, uz, vx, vy, vz, wx, wy, wz) */
static int l_from_axes3(lua_State *L) {
  obb3 b;
  double c[3], e[3], u[3][3];
  obb_status s;
  lobb_checknargs(L, 15);
  lobb_checkvec(L, 1, 3, c);
  lobb_checkextents(L, 4, 3, e);
  lobb_checkvec(L, 7, 3, u[0]);
  lobb_checkvec(L, 10, 3, u[1]);
  lobb_checkvec(L, 13, 3, u[2]);
  s = obb3_from_axes(&b, c, e, (const double(*)[3])u);
  if (s != OBB_OK) return lobb_statuserror(L, 7, s);
  *lobb_new3(L) = b;
  return 1;
}

/* obb.fit3(points [, method]): method "tight" (the default) or
** "covariance". The tight fit's scratch is a userdata, so an error cannot
** leak it. */
static int l_fit3(lua_State *L) {
  static const char *const methods[] = {"tight", "covariance", NULL};
  obb3 b;
  double *pts, *scratch;
  size_t n;
  int tight;
  obb_status s;
  lobb_checknargs(L, 2);
  /* the option first: lobb_checkpoints pushes its buffer, which would
  ** take an absent argument 2's place. LuaJIT's checkoption would take
  ** a table or a boolean for the default: refuse them as 5.4 does. */
  if (!lua_isnoneornil(L, 2) && !lua_isstring(L, 2))
    lobb_typeerror(L, 2, "string");
  tight = luaL_checkoption(L, 2, "tight", methods) == 0;
  n = lobb_checkpoints(L, 1, 3, &pts);
  if (tight) {
    if (n > ((size_t)-1 / sizeof(double) - 4) / 8)
      return luaL_argerror(L, 1, "too many points");
    scratch = (double *)lobb_newuserdata(
        L, OBB3_TIGHT_SCRATCH(n) * sizeof(double));
    s = obb3_fit_points_tight(&b, pts, n, scratch);
  } else {
    s = obb3_fit_points(&b, pts, n);
  }
  if (s != OBB_OK) return lobb_statuserror(L, 1, s);
  *lobb_new3(L) = b;
  return 1;
}

/* ---- queries -------------------------------------------------------- */

static int m_intersects(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b = lobb_check3(L, 2);
  lua_pushboolean(L, obb3_intersects(a, b));
  return 1;
}

/* contains(x, y, z) or contains(box) */
static int m_contains(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    double p[3];
    lobb_checkvec(L, 2, 3, p);
    lobb_checknargs(L, 4);
    lua_pushboolean(L, obb3_contains_point(a, p));
    return 1;
  }
  b = lobb_to3(L, 2);
  if (b == NULL) return lobb_typeerror(L, 2, "number or " LOBB_OBB3);
  lobb_checknargs(L, 2);
  lua_pushboolean(L, obb3_contains_box(a, b));
  return 1;
}

/* transform(m11, m12, m13, m14, m21, ..., m34 [, 0, 0, 0, 1]) or the same
** 12 or 16 numbers in a table, row-major. */
static int m_transform(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double m[16];
  if (lobb_checkmatrix(L, 2, m, 12, 16) == 16) {
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
      return luaL_argerror(L, 2, obb_status_string(OBB_ENOTAFFINE));
  }
  if (obb3_transform(b, m) != OBB_OK)
    return luaL_error(L, "transform result is not finite");
  lua_settop(L, 1);
  return 1;
}

static int m_corners(lua_State *L) {
  double v[24];
  obb3_corners(lobb_check3(L, 1), v);
  return lobb_pushnumbers(L, v, 24);
}

static int m_aabb(lua_State *L) {
  double v[6];
  obb3_aabb(lobb_check3(L, 1), v);
  return lobb_pushnumbers(L, v, 6);
}

static int m_center(lua_State *L) {
  return lobb_pushnumbers(L, lobb_check3(L, 1)->c, 3);
}

static int m_half_extents(lua_State *L) {
  return lobb_pushnumbers(L, lobb_check3(L, 1)->e, 3);
}

static int m_axes(lua_State *L) {
  return lobb_pushnumbers(L, &lobb_check3(L, 1)->u[0][0], 9);
}

static int m_rotation(lua_State *L) {
  double q[4];
  obb3_rotation(lobb_check3(L, 1), q);
  return lobb_pushnumbers(L, q, 4);
}

/* ---- in-place updates: each checks every argument before it writes ---- */

static int m_set(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  lobb_checkboxargs3(L, 2, b, b);
  lua_settop(L, 1);
  return 1;
}

static int m_set_center(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double c[3];
  lobb_checkvec(L, 2, 3, c);
  lobb_checknargs(L, 4);
  b->c[0] = c[0]; b->c[1] = c[1]; b->c[2] = c[2];
  lua_settop(L, 1);
  return 1;
}

static int m_set_half_extents(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double e[3];
  lobb_checkextents(L, 2, 3, e);
  lobb_checknargs(L, 4);
  b->e[0] = e[0]; b->e[1] = e[1]; b->e[2] = e[2];
  lua_settop(L, 1);
  return 1;
}

static int m_set_rotation(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double q[4];
  lobb_checkquat(L, 2, q);
  lobb_checknargs(L, 5);
  obb3_set_rotation(b, q);
  lua_settop(L, 1);
  return 1;
}

static int m_translate(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double d[3], c[3];
  int i;
  lobb_checkvec(L, 2, 3, d);
  lobb_checknargs(L, 4);
  for (i = 0; i < 3; i++) {
    c[i] = b->c[i] + d[i];
    if (c[i] - c[i] != 0) return luaL_error(L, "translate result is not finite");
  }
  b->c[0] = c[0]; b->c[1] = c[1]; b->c[2] = c[2];
  lua_settop(L, 1);
  return 1;
}

/* rotate(qx, qy, qz, qw): turns the box about its center by the rotation q
** given in world space (applied after the box's own rotation). */
static int m_rotate(lua_State *L) {
  obb3 *b = lobb_check3(L, 1), r;
  double q[4], u[3][3];
  int i, j;
  lobb_checkquat(L, 2, q);
  lobb_checknargs(L, 5);
  obb3_set_rotation(&r, q);
  for (i = 0; i < 3; i++) /* new axis i = R * u_i; R's columns are r.u */
    for (j = 0; j < 3; j++)
      u[i][j] = r.u[0][j] * b->u[i][0] + r.u[1][j] * b->u[i][1] +
                r.u[2][j] * b->u[i][2];
  /* back through the quaternion: re-orthonormalises, so that many small
  ** turns do not drift */
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) r.u[i][j] = u[i][j];
  obb3_rotation(&r, q);
  obb3_set_rotation(b, q);
  lua_settop(L, 1);
  return 1;
}

static int m_clone(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  lobb_checknargs(L, 1);
  *lobb_new3(L) = *b;
  return 1;
}

static int mm_tostring(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double q[4];
  obb3_rotation(b, q);
  lua_pushfstring(L, "obb3(%f, %f, %f, %f, %f, %f, %f, %f, %f, %f)", b->c[0],
                  b->c[1], b->c[2], b->e[0], b->e[1], b->e[2], q[0], q[1],
                  q[2], q[3]);
  return 1;
}

/* Equal when center, axes and half extents are equal. */
static int mm_eq(lua_State *L) {
  obb3 *a = lobb_to3(L, 1), *b = lobb_to3(L, 2);
  int eq = a != NULL && b != NULL, i, j;
  for (i = 0; eq && i < 3; i++) {
    eq = a->c[i] == b->c[i] && a->e[i] == b->e[i];
    for (j = 0; eq && j < 3; j++) eq = a->u[i][j] == b->u[i][j];
  }
  lua_pushboolean(L, eq);
  return 1;
}

const luaL_Reg lobb_obb3_funcs[] = {
  {"new3", l_new3},
  {"from_aabb3", l_from_aabb3},
  {"from_axes3", l_from_axes3},
  {"fit3", l_fit3},
  {NULL, NULL}
};

const luaL_Reg lobb_obb3_methods[] = {
  {"intersects", m_intersects},
  {"contains", m_contains},
  {"transform", m_transform},
  {"corners", m_corners},
  {"aabb", m_aabb},
  {"center", m_center},
  {"half_extents", m_half_extents},
  {"axes", m_axes},
  {"rotation", m_rotation},
  {"set", m_set},
  {"set_center", m_set_center},
  {"set_half_extents", m_set_half_extents},
  {"set_rotation", m_set_rotation},
  {"translate", m_translate},
  {"rotate", m_rotate},
  {"clone", m_clone},
  {NULL, NULL}
};

const luaL_Reg lobb_obb3_meta[] = {
  {"__tostring", mm_tostring},
  {"__eq", mm_eq},
  {NULL, NULL}
};
