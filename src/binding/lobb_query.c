/*
** lobb_query.c: the Lua face of the queries (rays, closest points,
** distances, classification, circles/spheres/segments/planes, merging).
**
** Every query returns plain numbers, booleans or a short interned string,
** or nil for "nothing": no tables, no garbage.
*/

#include "lobb_internal.h"

static double check_radius(lua_State *L, int idx) {
  double r = lobb_checkfinite(L, idx);
  if (r < 0.0)
    luaL_argerror(L, idx, lua_pushfstring(L, "radius must be >= 0, got %f", r));
  return r;
}

/* hit: t, normal..., false; inside: 0, zeros..., true; miss: nil */
static int push_ray(lua_State *L, int r, double t, const double *n, int dim) {
  int i;
  if (r == OBB_RAY_MISS) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, t);
  for (i = 0; i < dim; i++) lua_pushnumber(L, n[i]);
  lua_pushboolean(L, r == OBB_RAY_INSIDE);
  return dim + 2;
}

static int push_class(lua_State *L, int c) {
  if (c == OBB_CONTAINS) lua_pushliteral(L, "contains");
  else if (c == OBB_INTERSECTS) lua_pushliteral(L, "intersects");
  else lua_pushliteral(L, "disjoint");
  return 1;
}

/* ---- 2D -------------------------------------------------------------- */

/* raycast(ox, oy, dx, dy [, max_t]) */
static int q2_raycast(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double o[2], d[2], n[2] = {0, 0}, t = 0, max_t;
  int r;
  lobb_checknargs(L, 6);
  lobb_checkvec(L, 2, 2, o);
  lobb_checkdirection(L, 4, 2, d);
  max_t = lobb_checkmaxt(L, 6);
  r = obb2_raycast(b, o, d, max_t, &t, n);
  return push_ray(L, r, t, n, 2);
}

static int q2_closest_point(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double p[2], out[2];
  lobb_checknargs(L, 3);
  lobb_checkvec(L, 2, 2, p);
  obb2_closest_point(b, p, out);
  return lobb_pushnumbers(L, out, 2);
}

/* distance(x, y) -> d, or distance(box) -> d, ax, ay, bx, by */
static int q2_distance(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b;
  double p[4];
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lobb_checknargs(L, 3);
    lobb_checkvec(L, 2, 2, p);
    lua_pushnumber(L, obb2_distance_point(a, p));
    return 1;
  }
  b = lobb_to2(L, 2);
  if (b == NULL) return lobb_typeerror(L, 2, "number or " LOBB_OBB2);
  lobb_checknargs(L, 2);
  lua_pushnumber(L, obb2_distance(a, b, p, p + 2));
  return 1 + lobb_pushnumbers(L, p, 4);
}

static int q2_signed_distance(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double p[2];
  lobb_checknargs(L, 3);
  lobb_checkvec(L, 2, 2, p);
  lua_pushnumber(L, obb2_signed_distance(b, p));
  return 1;
}

static int q2_classify(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b = lobb_check2(L, 2);
  lobb_checknargs(L, 2);
  return push_class(L, obb2_classify(a, b));
}

static int q2_intersects_circle(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double c[2], r;
  lobb_checknargs(L, 4);
  lobb_checkvec(L, 2, 2, c);
  r = check_radius(L, 4);
  lua_pushboolean(L, obb2_intersects_circle(b, c, r));
  return 1;
}

static int q2_intersects_segment(lua_State *L) {
  obb2 *b = lobb_check2(L, 1);
  double p[4];
  lobb_checknargs(L, 5);
  lobb_checkvec(L, 2, 4, p);
  lua_pushboolean(L, obb2_intersects_segment(b, p, p + 2));
  return 1;
}

/* ---- 3D -------------------------------------------------------------- */

/* raycast(ox, oy, oz, dx, dy, dz [, max_t]) */
static int q3_raycast(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double o[3], d[3], n[3] = {0, 0, 0}, t = 0, max_t;
  int r;
  lobb_checknargs(L, 8);
  lobb_checkvec(L, 2, 3, o);
  lobb_checkdirection(L, 5, 3, d);
  max_t = lobb_checkmaxt(L, 8);
  r = obb3_raycast(b, o, d, max_t, &t, n);
  return push_ray(L, r, t, n, 3);
}

static int q3_closest_point(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double p[3], out[3];
  lobb_checknargs(L, 4);
  lobb_checkvec(L, 2, 3, p);
  obb3_closest_point(b, p, out);
  return lobb_pushnumbers(L, out, 3);
}

static int q3_distance(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b;
  double p[6];
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lobb_checknargs(L, 4);
    lobb_checkvec(L, 2, 3, p);
    lua_pushnumber(L, obb3_distance_point(a, p));
    return 1;
  }
  b = lobb_to3(L, 2);
  if (b == NULL) return lobb_typeerror(L, 2, "number or " LOBB_OBB3);
  lobb_checknargs(L, 2);
  lua_pushnumber(L, obb3_distance(a, b, p, p + 3));
  return 1 + lobb_pushnumbers(L, p, 6);
}

static int q3_signed_distance(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double p[3];
  lobb_checknargs(L, 4);
  lobb_checkvec(L, 2, 3, p);
  lua_pushnumber(L, obb3_signed_distance(b, p));
  return 1;
}

static int q3_classify(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b = lobb_check3(L, 2);
  lobb_checknargs(L, 2);
  return push_class(L, obb3_classify(a, b));
}

static int q3_intersects_sphere(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double c[3], r;
  lobb_checknargs(L, 5);
  lobb_checkvec(L, 2, 3, c);
  r = check_radius(L, 5);
  lua_pushboolean(L, obb3_intersects_sphere(b, c, r));
  return 1;
}

static int q3_intersects_segment(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double p[6];
  lobb_checknargs(L, 7);
  lobb_checkvec(L, 2, 6, p);
  lua_pushboolean(L, obb3_intersects_segment(b, p, p + 3));
  return 1;
}

/* plane_side(nx, ny, nz, d) for the plane n.x = d */
static int q3_plane_side(lua_State *L) {
  obb3 *b = lobb_check3(L, 1);
  double n[3], d;
  lobb_checknargs(L, 5);
  lobb_checkvec(L, 2, 3, n);
  d = lobb_checkfinite(L, 5);
  if (n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0)
    return luaL_argerror(L, 2, "plane normal must not be zero");
  lua_pushinteger(L, obb3_plane_side(b, n, d));
  return 1;
}

/* ---- merging --------------------------------------------------------- */

/* obb.merge(a, b) and a:merge(b): a new box of a's type enclosing both. */
static int q_merge(lua_State *L) {
  obb2 *a2 = lobb_to2(L, 1);
  lobb_checknargs(L, 2);
  if (a2 != NULL) {
    obb2 *b2 = lobb_check2(L, 2), m;
    obb2_merge(a2, b2, &m);
    *lobb_new2(L) = m;
  } else {
    obb3 *a3 = lobb_to3(L, 1), *b3, m;
    if (a3 == NULL) return lobb_typeerror(L, 1, LOBB_OBB2 " or " LOBB_OBB3);
    b3 = lobb_check3(L, 2);
    obb3_merge(a3, b3, &m);
    *lobb_new3(L) = m;
  }
  return 1;
}

const luaL_Reg lobb_query2_methods[] = {
  {"raycast", q2_raycast},
  {"closest_point", q2_closest_point},
  {"distance", q2_distance},
  {"signed_distance", q2_signed_distance},
  {"classify", q2_classify},
  {"intersects_circle", q2_intersects_circle},
  {"intersects_segment", q2_intersects_segment},
  {"merge", q_merge},
  {NULL, NULL}
};

const luaL_Reg lobb_query3_methods[] = {
  {"raycast", q3_raycast},
  {"closest_point", q3_closest_point},
  {"distance", q3_distance},
  {"signed_distance", q3_signed_distance},
  {"classify", q3_classify},
  {"intersects_sphere", q3_intersects_sphere},
  {"intersects_segment", q3_intersects_segment},
  {"plane_side", q3_plane_side},
  {"merge", q_merge},
  {NULL, NULL}
};

const luaL_Reg lobb_query_funcs[] = {
  {"merge", q_merge},
  {NULL, NULL}
};
