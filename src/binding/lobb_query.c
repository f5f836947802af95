/*
** lobb_query.c: the Lua face of the queries (rays, closest points,
** distances, classification, circles/spheres/segments/planes, merging),
** methods of obb.obb2 and obb.obb3 (listed in lobb_box.c).
**
** Every query returns plain numbers, booleans or a short interned string,
** or nil for "nothing": no tables, no garbage.
*/
#include "lobb_box.h"

static double check_radius(lua_State *L, int idx) {
  double r = lobb_checkfinite(L, idx);
  if (r < 0.0)
    luaL_argerror(L, idx, lua_pushfstring(L, "radius must be >= 0, got %f", r));
  return r;
}

/* raycast(ox, oy, dx, dy [, max_t]) / raycast(ox, oy, oz, dx, dy, dz
** [, max_t]) -> hit: t, normal..., false; inside: 0, zeros..., true;
** miss: nil */
static int box_raycast(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double o[3], d[3], n[3] = {0, 0, 0}, t = 0, max_t;
  int r, i;
  lobb_checknargs(L, 2 + 2 * dim);
  lobb_checkvec(L, 2, dim, o);
  lobb_checkdirection(L, 2 + dim, dim, d);
  max_t = lobb_checkmaxt(L, 2 + 2 * dim);
  r = dim == 2 ? obb2_raycast((obb2 *)b, o, d, max_t, &t, n)
               : obb3_raycast((obb3 *)b, o, d, max_t, &t, n);
  if (r == OBB_RAY_MISS) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, t);
  for (i = 0; i < dim; i++) lua_pushnumber(L, n[i]);
  lua_pushboolean(L, r == OBB_RAY_INSIDE);
  return dim + 2;
}

static int box_closest_point(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double p[3], out[3];
  lobb_checknargs(L, 1 + dim);
  lobb_checkvec(L, 2, dim, p);
  if (dim == 2) obb2_closest_point((obb2 *)b, p, out);
  else obb3_closest_point((obb3 *)b, p, out);
  return lobb_pushnumbers(L, out, dim);
}

/* distance(x, y [, z]) -> d, or distance(box) -> d, then the closest
** point on self and the one on box */
static int box_distance(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_tobox_or_number(L, 2, dim);
  double p[6], d;
  if (b == NULL) {
    lobb_checknargs(L, 1 + dim);
    lobb_checkvec(L, 2, dim, p);
    lua_pushnumber(L, dim == 2 ? obb2_distance_point((obb2 *)a, p)
                               : obb3_distance_point((obb3 *)a, p));
    return 1;
  }
  lobb_checknargs(L, 2);
  d = dim == 2 ? obb2_distance((obb2 *)a, (obb2 *)b, p, p + 2)
               : obb3_distance((obb3 *)a, (obb3 *)b, p, p + 3);
  lua_pushnumber(L, d);
  return 1 + lobb_pushnumbers(L, p, 2 * dim);
}

static int box_signed_distance(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double p[3];
  lobb_checknargs(L, 1 + dim);
  lobb_checkvec(L, 2, dim, p);
  lua_pushnumber(L, dim == 2 ? obb2_signed_distance((obb2 *)b, p)
                             : obb3_signed_distance((obb3 *)b, p));
  return 1;
}

static int box_classify(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_checkbox(L, 2, dim);
  int c;
  lobb_checknargs(L, 2);
  c = dim == 2 ? obb2_classify((obb2 *)a, (obb2 *)b)
               : obb3_classify((obb3 *)a, (obb3 *)b);
  if (c == OBB_CONTAINS) lua_pushliteral(L, "contains");
  else if (c == OBB_INTERSECTS) lua_pushliteral(L, "intersects");
  else lua_pushliteral(L, "disjoint");
  return 1;
}

/* intersects_circle(x, y, r) (2D) / intersects_sphere(x, y, z, r) (3D) */
static int box_intersects_ball(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double c[3], r;
  lobb_checknargs(L, 2 + dim);
  lobb_checkvec(L, 2, dim, c);
  r = check_radius(L, 2 + dim);
  lua_pushboolean(L, dim == 2 ? obb2_intersects_circle((obb2 *)b, c, r)
                              : obb3_intersects_sphere((obb3 *)b, c, r));
  return 1;
}

static int box_intersects_segment(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double p[6];
  lobb_checknargs(L, 1 + 2 * dim);
  lobb_checkvec(L, 2, 2 * dim, p);
  lua_pushboolean(L, dim == 2 ? obb2_intersects_segment((obb2 *)b, p, p + 2)
                              : obb3_intersects_segment((obb3 *)b, p, p + 3));
  return 1;
}

LOBB_TWINS(raycast)
LOBB_TWINS(closest_point)
LOBB_TWINS(distance)
LOBB_TWINS(signed_distance)
LOBB_TWINS(classify)
LOBB_TWINS(intersects_segment)

int box2_intersects_circle(lua_State *L) { return box_intersects_ball(L, 2); }
int box3_intersects_sphere(lua_State *L) { return box_intersects_ball(L, 3); }

/* plane_side(nx, ny, nz, d) for the plane n.x = d (3D only) */
int box3_plane_side(lua_State *L) {
  obb3 *b = (obb3 *)lobb_checkbox(L, 1, 3);
  double n[3], d;
  lobb_checknargs(L, 5);
  lobb_checkvec(L, 2, 3, n);
  d = lobb_checkfinite(L, 5);
  if (n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0)
    return luaL_argerror(L, 2, "plane normal must not be zero");
  lua_pushinteger(L, obb3_plane_side(b, n, d));
  return 1;
}

/* obb.merge(a, b) and a:merge(b): a new box of a's type enclosing both;
** an error, as transform's and translate's, when it would not be finite. */
int mod_merge(lua_State *L) {
  obb2 *a2 = (obb2 *)lobb_tobox(L, 1, 2);
  obb_status s;
  lobb_checknargs(L, 2);
  if (a2 != NULL) {
    obb2 *b2 = (obb2 *)lobb_checkbox(L, 2, 2), m;
    s = obb2_merge(a2, b2, &m);
    if (s != OBB_OK) return luaL_error(L, "merge result is not finite");
    *(obb2 *)lobb_newbox(L, 2) = m;
  } else {
    obb3 *a3 = (obb3 *)lobb_tobox(L, 1, 3), *b3, m;
    if (a3 == NULL) return lobb_typeerror(L, 1, LOBB_OBB2 " or " LOBB_OBB3);
    b3 = (obb3 *)lobb_checkbox(L, 2, 3);
    s = obb3_merge(a3, b3, &m);
    if (s != OBB_OK) return luaL_error(L, "merge result is not finite");
    *(obb3 *)lobb_newbox(L, 3) = m;
  }
  return 1;
}
