/*
** lobb_bump.c: obb._bump, obb.bump's C half as classic Lua functions
** (lua/obb/bump.lua, "bump's loop in C"; lobb_bump.h says what it does):
** an item's rectangle, its update, and bump's loop run with its records
** written into Lua tables, numbers with their Lua 5.3 subtype.
*/
#include "lobb_bump.h"
#include "lobb_ffi.h"
#include "lobb_responses.h"
#include "obb_math.h"

/* The number at idx with its subtype; 0 for anything else, or an integer
** beyond LOBB_BUMP_MAX_INT. */
static int to_num(lua_State *L, int idx, lobb_bump_num *n) {
  if (lua_type(L, idx) != LUA_TNUMBER) return 0;
  n->v = lua_tonumber(L, idx);
  n->isint = 0;
#if LUA_VERSION_NUM >= 503
  if (lua_isinteger(L, idx)) {
    n->isint = 1;
    return n->v <= LOBB_BUMP_MAX_INT && n->v >= -LOBB_BUMP_MAX_INT;
  }
#endif
  return 1;
}

static void push_num(lua_State *L, lobb_bump_num n) {
#if LUA_VERSION_NUM >= 503
  if (n.isint) {
    lua_pushinteger(L, (lua_Integer)n.v);
    return;
  }
#endif
  lua_pushnumber(L, n.v);
}

static int to_rect(lua_State *L, int idx, lobb_bump_rect *r) {
  return to_num(L, idx, &r->x) && to_num(L, idx + 1, &r->y) &&
         to_num(L, idx + 2, &r->w) && to_num(L, idx + 3, &r->h);
}

/* The world at 1, usable (lobb_world_usable, 2D), and the live id of the
** item at 2; NULL when either is not. */
static lworld *usable_item(lua_State *L, int *id) {
  lworld *lw = lobb_world_usable(lobb_world_test(L, 1), 2);
  if (lw == NULL || lua_isnoneornil(L, 2)) return NULL;
  lobb_getuv(L, 1, UV_BYITEM);
  if (!lua_istable(L, -1)) return NULL;
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  *id = -1;
  if (lua_type(L, -1) == LUA_TNUMBER) {
    lua_Number x = lua_tonumber(L, -1);
    if (x >= 0 && x < (lua_Number)(1 << 30) && x == (int)x &&
        obb_world_box(lw->w, (int)x) != NULL)
      *id = (int)x;
  }
  lua_pop(L, 2);
  return *id >= 0 ? lw : NULL;
}

/* obb._bump.rect(w, item, x, y, width, height) -> true, or false when the
** loop cannot take it (the item then goes by Lua's loop) */
static int bump_rect(lua_State *L) {
  int id;
  lworld *lw = usable_item(L, &id);
  lobb_bump_rect r;
  int ok = lw != NULL && to_rect(L, 3, &r) && lobb_bump_set(lw, id, &r);
  if (lw != NULL && !ok) lobb_bump_forget(lw, id);
  lua_pushboolean(L, ok);
  return 1;
}

/* obb._bump.update(w, item, x, y, width, height) -> true: the item's box
** (center x + width / 2, ...) and its rectangle; false, having changed
** nothing, when the world or the numbers are not for it */
static int bump_update(lua_State *L) {
  int id;
  lworld *lw = usable_item(L, &id);
  lobb_bump_rect r;
  lua_pushboolean(L, lw != NULL && to_rect(L, 3, &r) && lobb_bump_update(lw, id, &r));
  return 1;
}

/* Fixes the nfixed answers of the asks table at t (lobb_bump_fix); 0 for
** a record that is not one. */
static int read_fixed(lua_State *L, int t, lbump *b, int nfixed) {
  int i, j;
  for (i = 0; i < nfixed; i++) {
    lua_Number v[2];
    for (j = 0; j < 2; j++) {
      lua_rawgeti(L, t, LOBB_FFI_BUMP_ASK * i + 1 + j);
      v[j] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
      lua_pop(L, 1);
    }
    if (!lobb_bump_fix(b, i, v[0], v[1])) return 0;
  }
  return 1;
}

/* The optional integer at idx, as an int; out of [-1, LOBB_BUMP_MAX_ASKS]
** it is LOBB_BUMP_MAX_ASKS + 1 (which no caller takes). */
static int small_int(lua_State *L, int idx, int def) {
  lua_Integer v = luaL_optinteger(L, idx, def);
  return v >= -1 && v <= LOBB_BUMP_MAX_ASKS ? (int)v : LOBB_BUMP_MAX_ASKS + 1;
}

/* Record k (0-based) of n numbers v into the table at t. */
static void set_record(lua_State *L, int t, size_t k, int stride,
                       const lobb_bump_num *v, int n) {
  lua_Integer base = (lua_Integer)(stride * k);
  int j;
  for (j = 0; j < n; j++) {
    push_num(L, v[j]);
    lua_rawseti(L, t, base + 1 + j);
  }
}

/* The records of run res into the tables asks, others (the items asked
** about, from the world's table by id at byid) and cols. */
static void write_records(lua_State *L, const lbump *b,
                          const lobb_bump_run *res, int nfixed, int byid,
                          int asks, int others, int cols) {
  lobb_bump_num v[LOBB_FFI_BUMP_ASK];
  size_t i;
  for (i = (size_t)nfixed; i < res->nasks; i++) {
    set_record(L, asks, i, LOBB_FFI_BUMP_ASK, v, lobb_bump_ask_values(b, i, v));
    lua_rawgeti(L, byid, b->asks[i].other + 1);
    lua_rawseti(L, others, (lua_Integer)i + 1);
  }
  for (i = 0; i < res->ncols; i++)
    set_record(L, cols, i, LOBB_FFI_BUMP_COL, v, lobb_bump_col_values(b, i, v));
}

/* The protected half of obb._bump.check, (w, nfixed, byid, asks, others,
** cols): the records of the run it copies out into the tables (nothing
** unless w is copying one: reached by hand, it does nothing). */
static int copy_records(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  const lobb_bump_run *res =
      lw != NULL && lw->bump != NULL ? lw->bump->copy : NULL;
  if (res != NULL)
    write_records(L, lw->bump, res, (int)lua_tointeger(L, 2), 3, 4, 5, 6);
  return 0;
}

/* The records of run res into the tables at 11, 12 and 13, protected
** (copy_records, upvalue 1), with the world busy meanwhile. */
static void copy_out(lua_State *L, lworld *lw, const lobb_bump_run *res,
                     int nfixed) {
  int st;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushinteger(L, nfixed);
  lobb_world_pushitems(L, UV_BYID);
  lua_pushvalue(L, 11);
  lua_pushvalue(L, 12);
  lua_pushvalue(L, 13);
  lw->busy++;
  lw->bump->copy = res;
  st = lua_pcall(L, 6, 0, 0);
  lw->bump->copy = NULL;
  lw->busy--;
  if (st != 0) lua_error(L);
}

/* obb._bump.check(w, item, x, y, width, height, goalx, goaly, all,
** nfixed, asks, others, cols, commit) -> status, goalx, goaly, nasks,
** ncols, committed: bump's loop for item (its rectangle given), every
** answer all (>= 0) or the nfixed in asks then guessed, its records into
** the three tables (lobb_ffi.h's layout, from index 1; asks from nfixed
** on); with commit, a move that needs no asking is committed here
** (committed true). status: 0 done, 1 handoff (lobb_bump.h), -1 for
** Lua's loop, -3 when a fixed answer is not this run's. The tables are
** written with the world busy, as add writes the item tables (a finalizer may run meanwhile: a run it makes
** goes by Lua's loop, and it cannot close the world under the records),
** inside lua_pcall (upvalue 1, copy_records), so that an error there
** still leaves the world as it was. */
static int bump_check(lua_State *L) {
  int id, all, nfixed, rc;
  lworld *lw = usable_item(L, &id);
  lobb_bump_rect r;
  lobb_bump_num goal[2];
  lobb_bump_run res;
  lua_settop(L, 14);
  if (lw == NULL || !to_rect(L, 3, &r) || !lobb_bump_good(&r) ||
      !to_num(L, 7, &goal[0]) || !to_num(L, 8, &goal[1]) ||
      !obb_finite(goal[0].v) || !obb_finite(goal[1].v))
    goto refuse;
  all = small_int(L, 9, -1);
  nfixed = small_int(L, 10, 0);
  luaL_checktype(L, 11, LUA_TTABLE);
  luaL_checktype(L, 12, LUA_TTABLE);
  luaL_checktype(L, 13, LUA_TTABLE);
  if (!lobb_bump_runnable(lw, all, nfixed)) goto refuse;
  rc = read_fixed(L, 11, lw->bump, nfixed)
           ? lobb_bump_check(lw, id, &r, goal, all, nfixed, &res) : -3;
  if (rc < 0) {
    lua_pushinteger(L, rc);
    return 1;
  }
  if (res.nasks > (size_t)nfixed || res.ncols > 0) copy_out(L, lw, &res, nfixed);
  lua_pushinteger(L, rc);
  push_num(L, goal[0]);
  push_num(L, goal[1]);
  lua_pushinteger(L, (lua_Integer)res.nasks);
  lua_pushinteger(L, (lua_Integer)res.ncols);
  lua_pushboolean(L, lua_toboolean(L, 14) && lobb_bump_commit(lw, id, &r, goal, rc, &res));
  return 6;
refuse:
  lua_pushinteger(L, -1);
  return 1;
}


/* Sets field name of the table on top to n. */
static void set_const(lua_State *L, const char *name, int n) {
  lua_pushinteger(L, n);
  lua_setfield(L, -2, name);
}

void lobb_open_bump(lua_State *L, int lib) {
  lua_createtable(L, 0, 12);
  lua_pushcfunction(L, bump_rect);
  lua_setfield(L, -2, "rect");
  lua_pushcfunction(L, bump_update);
  lua_setfield(L, -2, "update");
  lua_pushcfunction(L, copy_records);
  lua_pushcclosure(L, bump_check, 1);
  lua_setfield(L, -2, "check");
  /* the records' strides and the answers' kinds, for obb.bump */
  set_const(L, "ASK", LOBB_FFI_BUMP_ASK);
  set_const(L, "COL", LOBB_FFI_BUMP_COL);
  set_const(L, "DONE", LOBB_BUMP_DONE);
  set_const(L, "NONE", OBB_IGNORE);
  set_const(L, "TOUCH", OBB_TOUCH);
  set_const(L, "CROSS", OBB_CROSS);
  set_const(L, "SLIDE", OBB_SLIDE);
  set_const(L, "BOUNCE", OBB_BOUNCE);
  set_const(L, "OTHER", OBB_BUMP_OTHER);
  lua_setfield(L, lib, "_bump");
}
