/*
** lobb_box.c: the Lua face of boxes, obb.obb2 and obb.obb3: constructors,
** pair tests, accessors, in-place updates and metamethods (registered by
** lobb_types.c), and the box functions exported to host programs
** (lobb.h).
**
** Every method raises on an argument it does not take, and every update
** checks all its arguments before it writes.
*/
#include <string.h>

#include "lobb_box.h"

/* The tags after each box (lobb_box.h explains them). */
const char lobb_box_tags[2] = {2, 3};

/* A fresh userdata of the type dim, tagged, without a metatable yet. */
static void *alloc_box(lua_State *L, int dim) {
  if (dim == 2) {
    lobb_ud2 *u = (lobb_ud2 *)lobb_newuserdata(L, sizeof *u);
    u->tag = LOBB_TAG2;
    return u;
  } else {
    lobb_ud3 *u = (lobb_ud3 *)lobb_newuserdata(L, sizeof *u);
    u->tag = LOBB_TAG3;
    return u;
  }
}

/* The metatable comes from the calling function's upvalues, which only the
** debug library can replace: with anything but a table that is an error,
** not a metatable Lua would take for one. */
void *lobb_newbox(lua_State *L, int dim) {
  void *p = alloc_box(L, dim);
  lua_pushvalue(L, lua_upvalueindex(dim == 2 ? LOBB_UV_OBB2 : LOBB_UV_OBB3));
  if (!lua_istable(L, -1)) luaL_error(L, "obb: an upvalue was replaced");
  lua_setmetatable(L, -2);
  return p;
}

static void copy_box(void *to, const void *from, int dim) {
  if (dim == 2) *(obb2 *)to = *(const obb2 *)from;
  else *(obb3 *)to = *(const obb3 *)from;
}

/* A box's center and half extents, whatever its type. */
static double *box_c(void *b, int dim) {
  return dim == 2 ? ((obb2 *)b)->c : ((obb3 *)b)->c;
}

static double *box_e(void *b, int dim) {
  return dim == 2 ? ((obb2 *)b)->e : ((obb3 *)b)->e;
}

static void check_status(lua_State *L, int idx, obb_status s) {
  if (s != OBB_OK) lobb_statuserror(L, idx, s);
}

static void checkboxargs2(lua_State *L, int idx, obb2 *b, const obb2 *old) {
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

static void checkboxargs3(lua_State *L, int idx, obb3 *b, const obb3 *old) {
  obb3 n;
  double c[3], e[3], q[4] = {0, 0, 0, 1};
  int i;
  lobb_checknargs(L, idx + 9);
  lobb_checkvec(L, idx, 3, c);
  lobb_checkextents(L, idx + 3, 3, e);
  /* a nil in the quaternion's place is an error unless nothing follows */
  if (!lua_isnoneornil(L, idx + 6) || lobb_trimnils(L) > idx + 6) {
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

void lobb_checkboxargs(lua_State *L, int idx, int dim, void *b,
                       const void *old) {
  if (dim == 2) checkboxargs2(L, idx, (obb2 *)b, (const obb2 *)old);
  else checkboxargs3(L, idx, (obb3 *)b, (const obb3 *)old);
}

/* ---- constructors (module functions) --------------------------------- */

/* obb.new2(cx, cy, hx, hy [, angle]) and
** obb.new3(cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw]) */
static int box_new(lua_State *L, int dim) {
  union { obb2 b2; obb3 b3; } b;
  lobb_checkboxargs(L, 1, dim, &b, NULL);
  copy_box(lobb_newbox(L, dim), &b, dim);
  return 1;
}

/* obb.from_aabb2(minx, miny, maxx, maxy) and obb.from_aabb3(min xyz, max
** xyz): the error blames the first max below its min. */
static int box_from_aabb(lua_State *L, int dim) {
  union { obb2 b2; obb3 b3; } b;
  double lo[3], hi[3];
  int i;
  lobb_checknargs(L, 2 * dim);
  lobb_checkvec(L, 1, dim, lo);
  lobb_checkvec(L, 1 + dim, dim, hi);
  for (i = 0; i < dim; i++)
    if (lo[i] > hi[i])
      return luaL_argerror(L, 1 + dim + i, "max is less than min");
  if (dim == 2) obb2_from_aabb(&b.b2, lo, hi);
  else obb3_from_aabb(&b.b3, lo, hi);
  copy_box(lobb_newbox(L, dim), &b, dim);
  return 1;
}

/* obb.from_axes2(cx, cy, hx, hy, ux, uy) and
** obb.from_axes3(cx, cy, cz, hx, hy, hz, ux, uy, uz, vx, vy, vz, wx, wy, wz):
** the error of bad axes names the first axis argument. */
static int box_from_axes(lua_State *L, int dim) {
  union { obb2 b2; obb3 b3; } b;
  double c[3], e[3], u[3][3];
  int i, naxes = dim == 2 ? 1 : 3;
  obb_status s;
  lobb_checknargs(L, 2 * dim + dim * naxes);
  lobb_checkvec(L, 1, dim, c);
  lobb_checkextents(L, 1 + dim, dim, e);
  for (i = 0; i < naxes; i++) lobb_checkvec(L, 1 + 2 * dim + dim * i, dim, u[i]);
  s = dim == 2 ? obb2_from_axis(&b.b2, c, e, u[0])
               : obb3_from_axes(&b.b3, c, e, (const double(*)[3])u);
  check_status(L, 1 + 2 * dim, s);
  copy_box(lobb_newbox(L, dim), &b, dim);
  return 1;
}

/* obb.fit2(points [, method]) and obb.fit3: method "tight" (the default)
** or "covariance". The tight fit's scratch is a userdata, so an error
** cannot leak it. */
static int box_fit(lua_State *L, int dim) {
  static const char *const methods[] = {"tight", "covariance", NULL};
  union { obb2 b2; obb3 b3; } b;
  double *pts, *scratch;
  size_t n, per_point = dim == 2 ? 6 : 8; /* OBBn_TIGHT_SCRATCH's slope */
  int tight;
  obb_status s;
  lobb_checknargs(L, 2);
  /* the option first: lobb_checkpoints pushes its buffer, which would
  ** take an absent argument 2's place. LuaJIT's checkoption would take
  ** a table or a boolean for the default: refuse them as 5.4 does. */
  if (!lua_isnoneornil(L, 2) && !lua_isstring(L, 2))
    lobb_typeerror(L, 2, "string");
  if (lua_type(L, 2) == LUA_TSTRING) { /* "tight\0x" names no method */
    size_t len;
    const char *s = lua_tolstring(L, 2, &len);
    if (strlen(s) != len) luaL_argerror(L, 2, "method name with a zero byte");
  }
  tight = luaL_checkoption(L, 2, "tight", methods) == 0;
  n = lobb_checkpoints(L, 1, dim, &pts);
  if (tight) {
    if (n > ((size_t)-1 / sizeof(double) - 4) / per_point)
      return luaL_argerror(L, 1, "too many points");
    scratch = (double *)lobb_newuserdata(
        L, (dim == 2 ? OBB2_TIGHT_SCRATCH(n) : OBB3_TIGHT_SCRATCH(n)) *
               sizeof(double));
    s = dim == 2 ? obb2_fit_points_tight(&b.b2, pts, n, scratch)
                 : obb3_fit_points_tight(&b.b3, pts, n, scratch);
  } else {
    s = dim == 2 ? obb2_fit_points(&b.b2, pts, n)
                 : obb3_fit_points(&b.b3, pts, n);
  }
  check_status(L, 1, s);
  copy_box(lobb_newbox(L, dim), &b, dim);
  return 1;
}

/* ---- pair tests --------------------------------------------------------- */

/* a:f(b) -> boolean, for a pair test of each dimension */
static int pair_test(lua_State *L, int dim,
                     int (*f2)(const obb2 *, const obb2 *),
                     int (*f3)(const obb3 *, const obb3 *)) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_checkbox(L, 2, dim);
  lobb_checknargs(L, 2);
  lua_pushboolean(L, dim == 2 ? f2((obb2 *)a, (obb2 *)b)
                              : f3((obb3 *)a, (obb3 *)b));
  return 1;
}

/* touching counts (closed boxes) */
static int box_intersects(lua_State *L, int dim) {
  return pair_test(L, dim, obb2_intersects, obb3_intersects);
}

/* deeper than the touching band */
static int box_overlaps(lua_State *L, int dim) {
  return pair_test(L, dim, obb2_overlaps, obb3_overlaps);
}

/* contains(x, y [, z]) or contains(box) */
static int box_contains(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_tobox_or_number(L, 2, dim);
  int in;
  if (b == NULL) {
    double p[3];
    lobb_checkvec(L, 2, dim, p);
    lobb_checknargs(L, 1 + dim);
    in = dim == 2 ? obb2_contains_point((obb2 *)a, p)
                  : obb3_contains_point((obb3 *)a, p);
  } else {
    lobb_checknargs(L, 2);
    in = dim == 2 ? obb2_contains_box((obb2 *)a, (obb2 *)b)
                  : obb3_contains_box((obb3 *)a, (obb3 *)b);
  }
  lua_pushboolean(L, in);
  return 1;
}

/* ---- accessors: plain numbers, no table ------------------------------ */

static int box_corners(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double v[24];
  lobb_checknargs(L, 1);
  if (dim == 2) obb2_corners((obb2 *)b, v);
  else obb3_corners((obb3 *)b, v);
  return lobb_pushnumbers(L, v, dim == 2 ? 8 : 24);
}

static int box_aabb(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double v[6];
  lobb_checknargs(L, 1);
  if (dim == 2) obb2_aabb((obb2 *)b, v);
  else obb3_aabb((obb3 *)b, v);
  return lobb_pushnumbers(L, v, 2 * dim);
}

static int box_center(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  lobb_checknargs(L, 1);
  return lobb_pushnumbers(L, box_c(b, dim), dim);
}

static int box_half_extents(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  lobb_checknargs(L, 1);
  return lobb_pushnumbers(L, box_e(b, dim), dim);
}

/* 2D: ux, uy, vx, vy (v = perp(u)); 3D: the three axes, row by row. */
static int box_axes(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double v[4];
  lobb_checknargs(L, 1);
  if (dim == 3) return lobb_pushnumbers(L, &((obb3 *)b)->u[0][0], 9);
  v[0] = ((obb2 *)b)->u[0]; v[1] = ((obb2 *)b)->u[1];
  v[2] = -v[1]; v[3] = v[0];
  return lobb_pushnumbers(L, v, 4);
}

int box2_angle(lua_State *L) {
  obb2 *b = (obb2 *)lobb_checkbox(L, 1, 2);
  lobb_checknargs(L, 1);
  lua_pushnumber(L, obb2_angle(b));
  return 1;
}

int box3_rotation(lua_State *L) {
  obb3 *b = (obb3 *)lobb_checkbox(L, 1, 3);
  double q[4];
  lobb_checknargs(L, 1);
  obb3_rotation(b, q);
  return lobb_pushnumbers(L, q, 4);
}

static int box_clone(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  lobb_checknargs(L, 1);
  copy_box(lobb_newbox(L, dim), b, dim);
  return 1;
}

/* ---- in-place updates: each returns the box, for chaining ------------- */

/* transform(a, b, c, d, e, f) or transform({...}) in 2D;
** transform(m11, m12, m13, m14, m21, ..., m34 [, 0, 0, 0, 1]) or the same
** 12 or 16 numbers in a table, row-major, in 3D. */
static int box_transform(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double m[16];
  obb_status s;
  if (dim == 2) {
    lobb_checkmatrix(L, 2, m, 6, 6);
    s = obb2_transform((obb2 *)b, m);
  } else {
    if (lobb_checkmatrix(L, 2, m, 12, 16) == 16 &&
        (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1))
      return luaL_argerror(L, 2, obb_status_string(OBB_ENOTAFFINE));
    s = obb3_transform((obb3 *)b, m);
  }
  if (s != OBB_OK) return luaL_error(L, "transform result is not finite");
  lua_settop(L, 1);
  return 1;
}

static int box_set(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  lobb_checkboxargs(L, 2, dim, b, b);
  lua_settop(L, 1);
  return 1;
}

/* set_center(x, y [, z]) and set_half_extents(hx, hy [, hz]) */
static int set_part(lua_State *L, int dim, int extents) {
  void *b = lobb_checkbox(L, 1, dim);
  double v[3];
  if (extents) lobb_checkextents(L, 2, dim, v);
  else lobb_checkvec(L, 2, dim, v);
  lobb_checknargs(L, 1 + dim);
  memcpy(extents ? box_e(b, dim) : box_c(b, dim), v, dim * sizeof(double));
  lua_settop(L, 1);
  return 1;
}

static int box_set_center(lua_State *L, int dim) { return set_part(L, dim, 0); }
static int box_set_half_extents(lua_State *L, int dim) {
  return set_part(L, dim, 1);
}

int box2_set_angle(lua_State *L) {
  obb2 *b = (obb2 *)lobb_checkbox(L, 1, 2);
  double a = lobb_checkfinite(L, 2);
  lobb_checknargs(L, 2);
  obb2_set_angle(b, a);
  lua_settop(L, 1);
  return 1;
}

int box3_set_rotation(lua_State *L) {
  obb3 *b = (obb3 *)lobb_checkbox(L, 1, 3);
  double q[4];
  lobb_checkquat(L, 2, q);
  lobb_checknargs(L, 5);
  obb3_set_rotation(b, q);
  lua_settop(L, 1);
  return 1;
}

static int box_translate(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  double d[3];
  obb_status s;
  lobb_checkvec(L, 2, dim, d);
  lobb_checknargs(L, 1 + dim);
  s = dim == 2 ? obb2_translate((obb2 *)b, d) : obb3_translate((obb3 *)b, d);
  if (s != OBB_OK) return luaL_error(L, "translate result is not finite");
  lua_settop(L, 1);
  return 1;
}

/* rotate(angle) in 2D, counter-clockwise; rotate(qx, qy, qz, qw) in 3D,
** in world space, after the box's own rotation. About the center. */
static int box_rotate(lua_State *L, int dim) {
  void *b = lobb_checkbox(L, 1, dim);
  if (dim == 2) {
    double a = lobb_checkfinite(L, 2);
    lobb_checknargs(L, 2);
    obb2_rotate((obb2 *)b, a); /* cannot fail: a is finite */
  } else {
    double q[4];
    lobb_checkquat(L, 2, q);
    lobb_checknargs(L, 5);
    obb3_rotate((obb3 *)b, q); /* cannot fail: q is finite, non-zero */
  }
  lua_settop(L, 1);
  return 1;
}

/* ---- metamethods --------------------------------------------------------- */

int box2_tostring(lua_State *L) {
  obb2 *b = (obb2 *)lobb_checkbox(L, 1, 2);
  lua_pushfstring(L, "obb2(%f, %f, %f, %f, %f)", b->c[0], b->c[1], b->e[0],
                  b->e[1], obb2_angle(b));
  return 1;
}

int box3_tostring(lua_State *L) {
  obb3 *b = (obb3 *)lobb_checkbox(L, 1, 3);
  double q[4];
  obb3_rotation(b, q);
  lua_pushfstring(L, "obb3(%f, %f, %f, %f, %f, %f, %f, %f, %f, %f)", b->c[0],
                  b->c[1], b->c[2], b->e[0], b->e[1], b->e[2], q[0], q[1],
                  q[2], q[3]);
  return 1;
}

/* Equal when center, axes and half extents are equal (not set equality:
** a box turned half a turn is the same set but a different value). Any
** other value is unequal, never an error. */
static int box_eq(lua_State *L, int dim) {
  const double *a = (const double *)lobb_tobox(L, 1, dim);
  const double *b = (const double *)lobb_tobox(L, 2, dim);
  size_t i, n = dim == 2 ? sizeof(obb2) / sizeof(double)
                         : sizeof(obb3) / sizeof(double);
  int eq = a != NULL && b != NULL;
  for (i = 0; eq && i < n; i++) eq = a[i] == b[i];
  lua_pushboolean(L, eq);
  return 1;
}

LOBB_TWINS(new)
LOBB_TWINS(from_aabb)
LOBB_TWINS(from_axes)
LOBB_TWINS(fit)
LOBB_TWINS(intersects)
LOBB_TWINS(overlaps)
LOBB_TWINS(contains)
LOBB_TWINS(corners)
LOBB_TWINS(aabb)
LOBB_TWINS(center)
LOBB_TWINS(half_extents)
LOBB_TWINS(axes)
LOBB_TWINS(clone)
LOBB_TWINS(transform)
LOBB_TWINS(set)
LOBB_TWINS(set_center)
LOBB_TWINS(set_half_extents)
LOBB_TWINS(translate)
LOBB_TWINS(rotate)
LOBB_TWINS(eq)

/* ---- for host programs (lobb.h) --------------------------------------- */

/* These work from any C function, without our upvalues: the checks need
** none (the tag), pushing takes the metatable from the registry. */
static void *push_box(lua_State *L, const void *b, int dim) {
  void *p;
  lua_getfield(L, LUA_REGISTRYINDEX, LOBB_BOXNAME(dim));
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    luaL_error(L, "module '" LOBB_LIBNAME "' is not open in this state");
  }
  p = alloc_box(L, dim);
  copy_box(p, b, dim);
  lua_insert(L, -2);
  lua_setmetatable(L, -2);
  return p;
}

obb2 *lobb_testobb2(lua_State *L, int idx) {
  return (obb2 *)lobb_tobox(L, idx, 2);
}

obb3 *lobb_testobb3(lua_State *L, int idx) {
  return (obb3 *)lobb_tobox(L, idx, 3);
}

obb2 *lobb_checkobb2(lua_State *L, int idx) {
  return (obb2 *)lobb_checkbox(L, idx, 2);
}

obb3 *lobb_checkobb3(lua_State *L, int idx) {
  return (obb3 *)lobb_checkbox(L, idx, 3);
}

obb2 *lobb_pushobb2(lua_State *L, const obb2 *b) {
  return (obb2 *)push_box(L, b, 2);
}

obb3 *lobb_pushobb3(lua_State *L, const obb3 *b) {
  return (obb3 *)push_box(L, b, 3);
}
