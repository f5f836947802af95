/*
** lobb_collide.c: the Lua face of penetration, contact manifolds and
** swept tests (methods of obb.obb2 and obb.obb3).
**
** Every normal points the way the box the method is called on (self) must
** move to leave the other. Nothing here allocates: results are plain
** numbers, or go into a table the caller passes.
*/
#include "lobb_internal.h"

/* a:penetration(b) -> nx, ny[, nz], depth | nil */
static int m_penetration2(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b = lobb_check2(L, 2);
  double v[3];
  lobb_checknargs(L, 2);
  if (!obb2_penetration(a, b, v, &v[2])) {
    lua_pushnil(L);
    return 1;
  }
  return lobb_pushnumbers(L, v, 3);
}

static int m_penetration3(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b = lobb_check3(L, 2);
  double v[4];
  lobb_checknargs(L, 2);
  if (!obb3_penetration(a, b, v, &v[3])) {
    lua_pushnil(L);
    return 1;
  }
  return lobb_pushnumbers(L, v, 4);
}

/* The optional table of contacts(b [, out]): its index, or 0 when absent. */
static int opt_out(lua_State *L, int idx) {
  lobb_checknargs(L, idx);
  if (lua_isnoneornil(L, idx)) return 0;
  if (lua_type(L, idx) != LUA_TTABLE) lobb_typeerror(L, idx, "table or nil");
  return idx;
}

/* Returns count, the normal (dim numbers), then, without a table, the
** points' numbers; with a table, fills out[1..count*stride] and clears
** the slots up to the largest manifold, so #out is count*stride. */
static int push_contacts(lua_State *L, int out, int count, const double *n,
                         int dim, const double *pts, int max) {
  int stride = dim + 1, i;
  if (out) {
    for (i = 0; i < max * stride; i++) {
      if (i < count * stride) lua_pushnumber(L, pts[i]);
      else lua_pushnil(L);
      lua_rawseti(L, out, i + 1);
    }
  }
  lua_pushinteger(L, count);
  lobb_pushnumbers(L, n, dim);
  if (out) return 1 + dim;
  return 1 + dim + lobb_pushnumbers(L, pts, count * stride);
}

/* a:contacts(b [, out]) -> count, nx, ny[, x, y, depth, ...] | nil */
static int m_contacts2(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b = lobb_check2(L, 2);
  double n[2], pts[3 * OBB2_MAX_CONTACTS];
  int out = opt_out(L, 3), count = obb2_contacts(a, b, n, pts);
  if (count == 0) {
    lua_pushnil(L);
    return 1;
  }
  return push_contacts(L, out, count, n, 2, pts, OBB2_MAX_CONTACTS);
}

static int m_contacts3(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b = lobb_check3(L, 2);
  double n[3], pts[4 * OBB3_MAX_CONTACTS];
  int out = opt_out(L, 3), count = obb3_contacts(a, b, n, pts);
  if (count == 0) {
    lua_pushnil(L);
    return 1;
  }
  return push_contacts(L, out, count, n, 3, pts, OBB3_MAX_CONTACTS);
}

/* a:sweep(b, vax, vay, vbx, vby) -> t, nx, ny | nil */
static int m_sweep2(lua_State *L) {
  obb2 *a = lobb_check2(L, 1), *b = lobb_check2(L, 2);
  double va[2], vb[2], r[3];
  lobb_checkvec(L, 3, 2, va);
  lobb_checkvec(L, 5, 2, vb);
  lobb_checknargs(L, 6);
  if (!obb2_sweep(a, b, va, vb, &r[0], r + 1)) {
    lua_pushnil(L);
    return 1;
  }
  return lobb_pushnumbers(L, r, 3);
}

/* a:sweep(b, vax, vay, vaz, vbx, vby, vbz) -> t, nx, ny, nz | nil */
static int m_sweep3(lua_State *L) {
  obb3 *a = lobb_check3(L, 1), *b = lobb_check3(L, 2);
  double va[3], vb[3], r[4];
  lobb_checkvec(L, 3, 3, va);
  lobb_checkvec(L, 6, 3, vb);
  lobb_checknargs(L, 8);
  if (!obb3_sweep(a, b, va, vb, &r[0], r + 1)) {
    lua_pushnil(L);
    return 1;
  }
  return lobb_pushnumbers(L, r, 4);
}

const luaL_Reg lobb_collide2_methods[] = {
  {"penetration", m_penetration2},
  {"contacts", m_contacts2},
  {"sweep", m_sweep2},
  {NULL, NULL}
};

const luaL_Reg lobb_collide3_methods[] = {
  {"penetration", m_penetration3},
  {"contacts", m_contacts3},
  {"sweep", m_sweep3},
  {NULL, NULL}
};
