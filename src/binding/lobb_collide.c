/*
** lobb_collide.c: the Lua face of penetration, contact manifolds and
** swept tests (methods of obb.obb2 and obb.obb3, listed in lobb_box.c).
**
** Every normal points the way the box the method is called on (self) must
** move to leave the other. Nothing here allocates: results are plain
** numbers, or go into a table the caller passes.
*/
#include "lobb_box.h"

/* a:penetration(b) -> nx, ny[, nz], depth | nil */
static int box_penetration(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_checkbox(L, 2, dim);
  double v[4];
  int hit;
  lobb_checknargs(L, 2);
  hit = dim == 2 ? obb2_penetration((obb2 *)a, (obb2 *)b, v, &v[2])
                 : obb3_penetration((obb3 *)a, (obb3 *)b, v, &v[3]);
  if (!hit) {
    lua_pushnil(L);
    return 1;
  }
  return lobb_pushnumbers(L, v, dim + 1);
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

/* a:contacts(b [, out]) -> count, nx, ny[, nz][, x, y[, z], depth, ...]
** | nil */
static int box_contacts(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_checkbox(L, 2, dim);
  double n[3], pts[4 * OBB3_MAX_CONTACTS];
  int out = opt_out(L, 3), count;
  count = dim == 2 ? obb2_contacts((obb2 *)a, (obb2 *)b, n, pts)
                   : obb3_contacts((obb3 *)a, (obb3 *)b, n, pts);
  if (count == 0) {
    lua_pushnil(L);
    return 1;
  }
  return push_contacts(L, out, count, n, dim, pts,
                       dim == 2 ? OBB2_MAX_CONTACTS : OBB3_MAX_CONTACTS);
}

/* a:sweep(b, vax, vay, vbx, vby [, wa, wb]) -> t, nx, ny | nil, and
** a:sweep(b, vax, vay, vaz, vbx, vby, vbz [, rax, ray, raz, rbx, rby, rbz])
** -> t, nx, ny, nz | nil. With turns, an undecided sweep answers
** t_safe, nx, ny[, nz], "limit". The turns come all or none: a lone extra
** number is refused as an extra argument, as the translational form
** always refused it. */
static int box_sweep(lua_State *L, int dim) {
  void *a = lobb_checkbox(L, 1, dim), *b = lobb_checkbox(L, 2, dim);
  double va[3], vb[3], ra[3], rb[3], r[4];
  int hit, moves = 2 + 2 * dim;
  lobb_checkvec(L, 3, dim, va);
  lobb_checkvec(L, 3 + dim, dim, vb);
  if (lobb_trimnils(L) <= moves + 1) {
    lobb_checknargs(L, moves);
    hit = dim == 2 ? obb2_sweep((obb2 *)a, (obb2 *)b, va, vb, &r[0], r + 1)
                   : obb3_sweep((obb3 *)a, (obb3 *)b, va, vb, &r[0], r + 1);
  } else {
    int turns = dim == 2 ? 1 : 3;
    lobb_checkvec(L, moves + 1, turns, ra);
    lobb_checkvec(L, moves + 1 + turns, turns, rb);
    lobb_checknargs(L, moves + 2 * turns);
    hit = dim == 2 ? obb2_sweep_turning((obb2 *)a, (obb2 *)b, va, vb, ra[0],
                                        rb[0], &r[0], r + 1)
                   : obb3_sweep_turning((obb3 *)a, (obb3 *)b, va, vb, ra, rb,
                                        &r[0], r + 1);
  }
  if (hit == OBB_SWEEP_NONE) {
    lua_pushnil(L);
    return 1;
  }
  lobb_pushnumbers(L, r, dim + 1);
  if (hit == OBB_SWEEP_LIMIT) {
    lua_pushliteral(L, "limit");
    return dim + 2;
  }
  return dim + 1;
}

LOBB_TWINS(penetration)
LOBB_TWINS(contacts)
LOBB_TWINS(sweep)
