/*
** lobb_world.c: the Lua face of worlds (obb.world2, obb.world3): their
** life and their items, and the guards every world file shares.
**
** A world userdata points to a core obb_world (obb_world.c) and keeps two
** user values: a table item -> id and an array id + 1 -> item. Items are
** any Lua values but nil and NaN; the core only sees ids, so no C pointer to
** a Lua value is ever kept. Each item's class (w:set_class, what a
** response set answers by) is the core's (obb_world_set_class): a move
** given a response set reads it in C (lobb_move.c), and a host's C code
** sees the classes a script set, and the other way round.
**
** The guards: a world is recognised by its tag. It is locked while a
** query copies out its results or a move runs its filter
** (lobb_world_query.c, lobb_move.c), both inside lobb_world_pcall, and
** busy while add writes its tables; a locked or busy world cannot be
** changed or closed, and the fast paths leave it to the classic methods.
** The queries, the movers and the FFI's entry points (lobb_ffi_world.c)
** are in files of their own; this one registers all of their methods.
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "lobb_world.h"
#include "obb_events_impl.h"
#include "obb_math.h"

/* A world is a userdata of exactly sizeof(lworld) ending with the address
** of this constant, as boxes are told apart (lobb_box.h): two API calls
** and a compare instead of the metatable's four, on every method call
** (w:update runs once per item and frame). Scripts cannot write raw bytes
** into a userdata, nor other modules know the address. */
static const char world_tag = 'w';

lworld *lobb_world_test(lua_State *L, int idx) {
  lworld *lw = (lworld *)lua_touserdata(L, idx);
  return lw != NULL && lobb_rawlen(L, idx) == sizeof(lworld) &&
                 lw->tag == &world_tag ? lw : NULL;
}

/* Pushes the world's table k (UV_BYITEM or UV_BYID). The debug library
** can replace a user value with anything; that is an error, never a read
** of a non-table. */
void lobb_world_pushitems(lua_State *L, int k) {
  lobb_getuv(L, 1, k);
  if (!lua_istable(L, -1)) luaL_error(L, "world's item tables were replaced");
}

lworld *lobb_world_checkopen(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  if (lw == NULL) lobb_typeerror(L, 1, LOBB_WORLD);
  if (lw->w == NULL) luaL_error(L, "world is closed");
  return lw;
}

/* Whether thread co, which holds a world's FFI filter lock, has left its
** filter: parked in a yield (suspended), or ended (dead, by an error or
** not). A thread that resumed another is in the middle of its filter
** (what runs now runs for it), as is the thread running now. */
static int owner_gone(lua_State *L, lua_State *co) {
  lua_Debug ar;
  if (co == L) return 0;
  if (lua_status(co) != 0) return 1; /* suspended, or dead by an error */
  return lua_getstack(co, 0, &ar) == 0; /* else it resumed a thread */
}

void lobb_world_unstale(lua_State *L, lworld *lw) {
  int gone = 1;
  if (lw->ffi.flock == 0) return;
  lobb_getuv(L, 1, UV_OWNER);
  if (lua_istable(L, -1)) lua_rawgeti(L, -1, 1);
  else lua_pushnil(L);
  /* true: the main thread, which cannot yield, is in its filter */
  if (lua_type(L, -1) == LUA_TBOOLEAN) gone = 0;
  else if (lua_type(L, -1) == LUA_TTHREAD)
    gone = owner_gone(L, lua_tothread(L, -1));
  lua_pop(L, 2);
  if (gone) {
    lw->lock -= lw->ffi.flock;
    lw->ffi.flock = 0;
    lw->ffi.fserial = lw->ffi.fserial < INT_MAX ? lw->ffi.fserial + 1 : 0;
  }
}

lworld *lobb_world_checkmutable(lua_State *L, const char *what) {
  lworld *lw = lobb_world_checkopen(L);
  lobb_world_unstale(L, lw);
  if (lw->lock > 0)
    luaL_error(L, "cannot %s items of a world during its query", what);
  if (lw->busy > 0)
    luaL_error(L, "cannot %s items of a world while it adds one "
               "(from a finalizer)", what);
  return lw;
}

static void check_item(lua_State *L, int idx) {
  if (lua_isnoneornil(L, idx)) lobb_typeerror(L, idx, "item (any value but nil)");
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number x = lua_tonumber(L, idx);
    if (x != x) luaL_argerror(L, idx, "item must not be NaN");
  }
}

/* A live id of the world, or -1: what the item table says is checked
** against the core, so a table the debug library rewrote can name no id
** the core does not hold. */
static int live_id(const lworld *lw, lua_Number x) {
  int id = x >= 0 && x < INT_MAX ? (int)x : -1;
  return id >= 0 && (lua_Number)id == x && obb_world_box(lw->w, id) != NULL
             ? id : -1;
}

int lobb_world_itemid(lua_State *L, int idx) {
  int id = -1;
  lobb_world_pushitems(L, UV_BYITEM);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TNUMBER)
    id = live_id(lobb_world_test(L, 1), lua_tonumber(L, -1));
  lua_pop(L, 2);
  return id;
}

int lobb_world_checkid(lua_State *L, int idx) {
  int id;
  check_item(L, idx);
  id = lobb_world_itemid(L, idx);
  if (id < 0) luaL_argerror(L, idx, "item is not in the world");
  return id;
}

/* ---- boxes from arguments -------------------------------------------- */

/* A box at idx, or the numbers lobb_checkboxargs reads from idx on;
** without a rotation the box keeps old's (none when old is NULL). */
static void box_args(lua_State *L, lworld *lw, int idx, anybox *b,
                     const void *old) {
  const void *src = lobb_tobox_or_number(L, idx, lw->dim);
  if (src == NULL) {
    lobb_checkboxargs(L, idx, lw->dim, b, old);
    return;
  }
  lobb_checknargs(L, idx);
  lobb_checkvalidbox(L, idx, lw->dim, src); /* checked, not trusted */
  if (lw->dim == 2) b->b2 = *(const obb2 *)src;
  else b->b3 = *(const obb3 *)src;
}

/* ---- construction and life ------------------------------------------- */

/* The option key of a world's table of options at the top of the stack,
** a finite number within [0, max] (max DBL_MAX: no bound); raises naming
** the key. */
static double option_number(lua_State *L, const char *key, double max) {
  lua_Number x;
  if (lua_type(L, -1) != LUA_TNUMBER)
    luaL_argerror(L, 1, lua_pushfstring(L, "option '%s' must be a number, got %s",
                                        key, luaL_typename(L, -1)));
  x = lua_tonumber(L, -1);
  if (x - x != 0)
    luaL_argerror(L, 1, lua_pushfstring(L, "option '%s' must be finite, got %s", key,
                                        x != x ? "nan" : x > 0 ? "inf" : "-inf"));
  if (x < 0 || x > max)
    luaL_argerror(L, 1, max < DBL_MAX
        ? lua_pushfstring(L, "option '%s' must be in [0, 1e6], got %f", key, x)
        : lua_pushfstring(L, "option '%s' must be >= 0, got %f", key, x));
  lua_pop(L, 1);
  return x;
}

/* obb.world2{margin = m, cell = c, up = {x, y}, slope = a}: only those
** keys (up and slope: lobb_world_up_option, once the world is made). */
static void world_options(lua_State *L, double *margin, double *cell) {
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    const char *k;
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_argerror(L, 1, lua_pushfstring(L, "option names must be strings, got %s",
                                          luaL_typename(L, -1)));
    k = lua_tostring(L, -1);
    if (!lobb_isname(L, -1, "margin") && !lobb_isname(L, -1, "cell") &&
        !lobb_isname(L, -1, "up") && !lobb_isname(L, -1, "slope"))
      luaL_argerror(L, 1, lua_pushfstring(L, "unknown option '%s'%s", k,
                                          lobb_zeronote(L, -1)));
  }
  lua_getfield(L, 1, "margin");
  if (lua_isnil(L, -1)) lua_pop(L, 1);
  else *margin = option_number(L, "margin", 1e6);
  lua_getfield(L, 1, "cell");
  if (lua_isnil(L, -1)) lua_pop(L, 1);
  else *cell = option_number(L, "cell", DBL_MAX);
}

/* The classes of a world without a core (closed, or not yet made): none,
** so every id is of class 0. */
static void no_classes(lworld *lw) {
  static unsigned char *const none = NULL;
  static const size_t zero = 0;
  lw->classes = &none;
  lw->nclasses = &zero;
}

/* Pushes a new world of dimension dim (margin as obb_world_new takes it,
** cell as obb_world_set_cell) with the metatable at index mt (a table,
** checked by the caller; not a negative index), its two item tables and
** its core world made with the state's allocator; raises when memory
** runs out (the userdata then frees what was made, by __gc). */

static lworld *make_world(lua_State *L, int dim, double margin, double cell,
                          int mt) {
  lworld *lw = (lworld *)lobb_newuserdatan(L, sizeof(lworld), 3);
  lw->tag = &world_tag;
  lw->w = NULL;
  lw->dim = dim;
  lw->lock = 0;
  lw->busy = 0;
  lw->job = NULL;
  lw->move = NULL;
  lw->solid = NULL;
  lw->buf.p = NULL;
  lw->buf.cap = 0;
  no_classes(lw);
  memset(&lw->ffi, 0, sizeof lw->ffi);
  memset(&lw->ev, 0, sizeof lw->ev);
  lw->ev.saved = NULL;
  lw->ffi.asking = NULL;
  lw->ffi.moved_id = -1;
  lw->bump = NULL;
  lw->alloc = lua_getallocf(L, &lw->ud);
  lua_pushvalue(L, mt);
  lua_setmetatable(L, -2); /* from here __gc frees whatever is made */
  lua_newtable(L);
  lobb_setuv(L, -2, UV_BYITEM);
  lua_newtable(L);
  lobb_setuv(L, -2, UV_BYID);
  lw->w = obb_world_new(dim, margin, (obb_alloc)lw->alloc, lw->ud);
  if (lw->w == NULL || obb_world_set_cell(lw->w, cell) != 0)
    luaL_error(L, "not enough memory");
  obb_world_class_store(lw->w, &lw->classes, &lw->nclasses);
  return lw;
}

static int new_world(lua_State *L, int dim) {
  double margin = OBB_WORLD_MARGIN, cell = OBB_WORLD_CELL_AUTO;
  lworld *lw;
  lobb_checknargs(L, 1);
  if (lua_istable(L, 1)) {
    world_options(L, &margin, &cell);
  } else if (!lua_isnoneornil(L, 1)) {
    margin = lobb_checkfinite(L, 1);
    if (margin < 0 || margin > 1e6)
      luaL_argerror(L, 1, "margin must be in [0, 1e6]");
  }
  if (!lua_istable(L, lua_upvalueindex(UV_WORLD)))
    return luaL_error(L, "obb: an upvalue was replaced");
  lw = make_world(L, dim, margin, cell, lua_upvalueindex(UV_WORLD));
  if (lua_istable(L, 1)) lobb_world_up_option(L, lw, 1);
  return 1;
}

/* obb.world2([margin]), obb.world3([margin]),
** obb.world2{margin = m, cell = c}, obb.world3{...} */
static int mod_world2(lua_State *L) { return new_world(L, 2); }
static int mod_world3(lua_State *L) { return new_world(L, 3); }

static void free_buffer(lworld *lw) {
  if (lw->buf.p != NULL) lw->alloc(lw->ud, lw->buf.p, lw->buf.cap, 0);
  lw->buf.p = NULL;
  lw->buf.cap = 0;
}

static void release(lworld *lw) {
  free_buffer(lw);
  if (lw->ffi.asking != NULL)
    lw->alloc(lw->ud, lw->ffi.asking, obb_move_state_size(), 0);
  lw->ffi.asking = NULL;
  lobb_bump_free(lw);
  obb_world_free(lw->w);
  lw->w = NULL;
  no_classes(lw);
}

/* Closing (close, __close, or __gc called by hand) is refused while a
** query reads the world's core and buffer or add writes its tables. */
static void check_closable(lua_State *L, lworld *lw) {
  lobb_world_unstale(L, lw);
  if (lw->lock > 0) luaL_error(L, "cannot close a world during its query");
  if (lw->busy > 0)
    luaL_error(L, "cannot close a world while it adds an item");
}

/* __gc: the collector runs it once the world is unreachable, so never
** during its query; called by hand (debug.getmetatable) it closes the
** world like close, with the same refusals. Any other argument is
** ignored, and a second call does nothing. */
static int world_gc(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  if (lw != NULL) {
    check_closable(L, lw);
    release(lw);
    lobb_events_free(lw);
  }
  return 0;
}

/* w:close() and __close: frees the world now; later calls raise "world is
** closed". Closing twice is harmless. */
static int world_close(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  int kept;
  if (lw == NULL) return lobb_typeerror(L, 1, LOBB_WORLD);
  check_closable(L, lw);
  kept = lobb_events_close(L, lw); /* events not yet taken stay for w:events */
  release(lw);
  lua_newtable(L); /* drop the items, so they can be collected */
  lobb_setuv(L, 1, UV_BYITEM);
  if (kept) return 0; /* their items too, once they are taken */
  lua_newtable(L);
  lobb_setuv(L, 1, UV_BYID);
  return 0;
}

static int world_tostring(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  if (lw == NULL) return lobb_typeerror(L, 1, LOBB_WORLD);
  if (lw->w == NULL)
    lua_pushfstring(L, LOBB_WORLD "%d (closed)", lw->dim);
  else
    lua_pushfstring(L, LOBB_WORLD "%d (%d items)", lw->dim,
                    obb_world_count(lw->w));
  return 1;
}

/* ---- items ------------------------------------------------------------ */

/* Protected: write_item(world, item, id) enters the item in both tables.
** Growing a table can run finalizers, which must find the world as it
** was; it is marked busy meanwhile, so they cannot change it. */
static int write_item(lua_State *L) {
  int id = (int)lua_tointeger(L, 3);
  if (lobb_world_test(L, 1) == NULL) return 0; /* called by hand */
  lobb_world_pushitems(L, UV_BYID);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, id + 1);
  lobb_world_pushitems(L, UV_BYITEM);
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lua_rawset(L, -3);
  return 0;
}

/* After write_item failed: takes the item -> id entry for the item at
** index 2 out again if it was written. Lua 5.1 steps the collector as a C
** function returns, so a finalizer's error can come after both writes;
** the id stays free, and the next add, which takes it, would otherwise
** make this item a ghost of that one. Clearing a key never allocates. */
static void unwrite_item(lua_State *L, int id) {
  lobb_getuv(L, 1, UV_BYITEM);
  if (lua_istable(L, -1)) {
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == id) {
      lua_pushvalue(L, 2);
      lua_pushnil(L);
      lua_rawset(L, -4);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Enters the item at index 2 with box b into the world at index 1 (lw),
** the item checked not to be in it. The tables are
** written before the core, with the id it will use, so an error in Lua
** (memory, or a finalizer's) leaves the core untouched (a stale id -> item
** entry for a free id is harmless: only item -> id says what is in, and
** only for live ids; the item -> id entry is taken out again). The world
** is busy only inside this call, so however the error comes, it is never
** left busy. write is the index of write_item (an upvalue's, or the
** stack's); returns the id. */
static int enter(lua_State *L, lworld *lw, const anybox *b, int write) {
  int id = obb_world_reserve(lw->w), st;
  if (id < 0) return luaL_error(L, "not enough memory");
  lua_pushvalue(L, write);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lw->busy++;
  st = lua_pcall(L, 3, 0, 0);
  lw->busy--;
  if (st != 0) {
    unwrite_item(L, id); /* the error stays on top */
    return lua_error(L);
  }
  obb_world_add(lw->w, b); /* cannot fail after obb_world_reserve */
  lobb_bump_forget(lw, id); /* a rectangle left by the id's last item */
  return id;
}

int lobb_world_enter(lua_State *L, lworld *lw, const anybox *b) {
  enter(L, lw, b, lua_upvalueindex(UV_WRITE));
  lua_settop(L, 1);
  return 1;
}

/* w:add(item, box | numbers) -> w */
static int world_add(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "add");
  anybox b;
  check_item(L, 2);
  if (lobb_world_itemid(L, 2) >= 0)
    return luaL_argerror(L, 2, "item is already in the world");
  box_args(L, lw, 3, &b, NULL);
  return lobb_world_enter(L, lw, &b);
}

/* The world at p, by its tag, open or closed. */
lworld *lobb_world_tagged(void *p) {
  lworld *lw = (lworld *)p;
  return lw != NULL && lw->tag == &world_tag ? lw : NULL;
}

/* The world at p when a fast path (update2_fast, the FFI's) may change or
** read it: a world (by its tag), open, not in a query nor adding, of
** dimension dim (0: any). */
lworld *lobb_world_usable(void *p, int dim) {
  lworld *lw = (lworld *)p;
  return lw != NULL && lw->tag == &world_tag && lw->w != NULL &&
                 lw->lock == 0 && lw->busy == 0 &&
                 (dim == 0 || lw->dim == dim) ? lw : NULL;
}

lworld *lobb_world_usableid(void *p, int dim, double id, int *out_id) {
  lworld *lw = lobb_world_usable(p, dim);
  *out_id = lw != NULL ? live_id(lw, id) : -1;
  return *out_id >= 0 ? lw : NULL;
}

void lobb_world_setbox(lworld *lw, int id, const void *b) {
  obb_world_update(lw->w, id, b);
  lobb_bump_forget(lw, id);
}

/* The box from the nv numbers v after the item (as update and add take
** them), keeping old's rotation when none is given (old NULL: no rotation
** is then the identity, as add makes it); 0 for numbers the general path
** refuses (and reports). */
int lobb_world_tobox(int dim, const double *v, int nv,
                            const void *old, anybox *b) {
  int i;
  for (i = 0; i < nv; i++)
    if (v[i] - v[i] != 0) return 0; /* NaN or infinite */
  if (dim == 2) {
    double a = nv == 5 ? v[4] : 0.0;
    if (v[2] < 0 || v[3] < 0) return 0;
    if (obb2_init(&b->b2, v, v + 2, a) != OBB_OK) return 0;
    if (nv == 4 && old != NULL) {
      b->b2.u[0] = ((const obb2 *)old)->u[0];
      b->b2.u[1] = ((const obb2 *)old)->u[1];
    }
    return 1;
  }
  if (v[3] < 0 || v[4] < 0 || v[5] < 0) return 0;
  if (nv == 10) return obb3_init(&b->b3, v, v + 3, v + 6) == OBB_OK;
  if (old != NULL) {
    b->b3 = *(const obb3 *)old;
    for (i = 0; i < 3; i++) { b->b3.c[i] = v[i]; b->b3.e[i] = v[i + 3]; }
    return 1;
  }
  {
    static const double identity[4] = {0, 0, 0, 1};
    return obb3_init(&b->b3, v, v + 3, identity) == OBB_OK;
  }
}

int lobb_world_tonumbers(int dim, const void *src, double *v) {
  int i;
  if (dim == 2) {
    const obb2 *b = (const obb2 *)src;
    v[0] = b->c[0]; v[1] = b->c[1]; v[2] = b->e[0]; v[3] = b->e[1];
    v[4] = obb2_angle(b);
    return 5;
  }
  for (i = 0; i < 3; i++) {
    v[i] = ((const obb3 *)src)->c[i];
    v[i + 3] = ((const obb3 *)src)->e[i];
  }
  obb3_rotation((const obb3 *)src, v + 6);
  return 10;
}

/* w:update(item, cx, cy, hx, hy [, angle]) on a 2D world, the call a game
** makes for every moving item and frame, with every check of the general
** path below but fewer API calls; returns 0 (having changed nothing) for
** anything else, or anything wrong, which the general path then takes (and
** reports). Without an angle the box keeps its rotation, and no sine or
** cosine is taken. */
static int update2_fast(lua_State *L) {
  lworld *lw = lobb_world_usable(lobb_world_test(L, 1), 2);
  double v[5];
  anybox b;
  int i, id, nv = lobb_trimnils(L) - 2;
  if (lw == NULL || (nv != 4 && nv != 5)) return 0;
  for (i = 0; i < nv; i++) {
    if (lua_type(L, 3 + i) != LUA_TNUMBER) return 0;
    v[i] = lua_tonumber(L, 3 + i);
  }
  lobb_getuv(L, 1, UV_BYITEM);
  if (!lua_istable(L, -1)) return 0;
  lua_pushvalue(L, 2); /* nil or NaN finds nothing: the slow path says so */
  lua_rawget(L, -2);
  if (lua_type(L, -1) != LUA_TNUMBER) return 0;
  id = live_id(lw, lua_tonumber(L, -1));
  if (id < 0 || !lobb_world_tobox(2, v, nv, obb_world_box(lw->w, id), &b))
    return 0;
  lobb_world_setbox(lw, id, &b);
  lua_settop(L, 1);
  return 1;
}

/* w:update(item, box | numbers) -> w */
static int world_update(lua_State *L) {
  lworld *lw;
  int top = lua_gettop(L), id;
  anybox b;
  if (update2_fast(L)) return 1;
  lua_settop(L, top);
  lw = lobb_world_checkmutable(L, "update");
  id = lobb_world_checkid(L, 2);
  box_args(L, lw, 3, &b, obb_world_box(lw->w, id));
  lobb_world_setbox(lw, id, &b);
  lua_settop(L, 1);
  return 1;
}

/* w:remove(item) -> w. Removing the last item gives the world fresh
** tables (emptied ones keep their size); they are made first, while the
** world is still whole: making them can run finalizers, which may use the
** world, so everything is checked again after. From the checks on,
** nothing allocates until the core and the tables agree again. */
static int world_remove(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "remove");
  int id, fresh;
  check_item(L, 2);
  lobb_checknargs(L, 2);
  fresh = obb_world_count(lw->w) == 1;
  if (fresh) {
    lua_newtable(L); /* at 3: by item */
    lua_newtable(L); /* at 4: by id */
  }
  lw = lobb_world_checkmutable(L, "remove");
  id = lobb_world_checkid(L, 2);
  lobb_world_pushitems(L, UV_BYITEM);
  lua_pushvalue(L, 2);
  lua_pushnil(L);
  lua_rawset(L, -3); /* clearing a key never allocates */
  lobb_world_pushitems(L, UV_BYID);
  obb_world_remove(lw->w, id); /* its class back to 0, for the next add */
  if (!obb_world_held(lw->w, id)) { /* else kept for its events */
    lua_pushnil(L);
    lua_rawseti(L, -2, id + 1);
  }
  lobb_bump_forget(lw, id);
  if (obb_world_count(lw->w) == 0) { /* the core freed its arrays */
    free_buffer(lw);
    if (fresh) {
      lua_pushvalue(L, 3);
      lobb_setuv(L, 1, UV_BYITEM);
      lua_pushvalue(L, 4);
      if (obb_events_idle(lw->w)) lobb_setuv(L, 1, UV_BYID);
    }
  }
  lua_settop(L, 1);
  return 1;
}

/* w:has(item) -> boolean (false for nil and NaN, never an error) */
static int world_has(lua_State *L) {
  int in = 0;
  lobb_world_checkopen(L);
  lobb_checknargs(L, 2);
  if (!lua_isnoneornil(L, 2) &&
      !(lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2)))
    in = lobb_world_itemid(L, 2) >= 0;
  lua_pushboolean(L, in);
  return 1;
}

static int world_count(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  lobb_checknargs(L, 1);
  lua_pushinteger(L, obb_world_count(lw->w));
  return 1;
}

/* #w: Lua passes the world twice (5.2 on), so no argument count here. */
static int world_len(lua_State *L) {
  lua_pushinteger(L, obb_world_count(lobb_world_checkopen(L)->w));
  return 1;
}

/* w:memory() -> bytes the world holds outside Lua's heap (its C arrays
** and scratch; collectgarbage("count") does not see them) */
static int world_memory(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  lobb_checknargs(L, 1);
  lua_pushnumber(L, (lua_Number)(obb_world_memory(lw->w) + lw->buf.cap +
                                 (lw->ffi.asking != NULL ? obb_move_state_size()
                                                         : 0) +
                                 lobb_bump_memory(lw)));
  return 1;
}

/* w:broad_phase() -> the side of its cells (0: the tree alone), and how
** many times it filed its items in cells of a side it chose */
static int world_broad_phase(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  double choices;
  lobb_checknargs(L, 1);
  lua_pushnumber(L, (lua_Number)obb_world_cell(lw->w, &choices));
  lua_pushinteger(L, (lua_Integer)choices);
  return 2;
}

/* w:get(item) -> numbers as add takes them; w:get(item, box) -> box, set */
static int world_get(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  int id = lobb_world_checkid(L, 2), i, n;
  const void *src = obb_world_box(lw->w, id);
  double v[10];
  lobb_checknargs(L, 3);
  if (!lua_isnoneornil(L, 3)) {
    void *b = lobb_checkbox(L, 3, lw->dim);
    if (lw->dim == 2) *(obb2 *)b = *(const obb2 *)src;
    else *(obb3 *)b = *(const obb3 *)src;
    lua_settop(L, 3);
    return 1;
  }
  n = lobb_world_tonumbers(lw->dim, src, v);
  luaL_checkstack(L, n, NULL);
  for (i = 0; i < n; i++) lua_pushnumber(L, v[i]);
  return n;
}

/* ---- classes ------------------------------------------------------------ */

/* w:set_class(item, class) -> w: class an integer in [0, 255], kept by
** the core (obb_world_set_class: only a class other than 0 allocates). */
static int world_set_class(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "set the class of");
  int id = lobb_world_checkid(L, 2);
  lua_Number c;
  if (lua_type(L, 3) != LUA_TNUMBER) lobb_typeerror(L, 3, "number");
  c = lua_tonumber(L, 3);
  if (!(c >= 0 && c < OBB_NCLASSES && c == floor(c))) { /* NaN too */
    lua_pushvalue(L, 3); /* shown as tostring shows it: 256, 1.5 */
    luaL_argerror(L, 3, lua_pushfstring(L,
        "class must be an integer in [0, 255], got %s", lua_tostring(L, -1)));
  }
  lobb_checknargs(L, 3);
  lobb_events_setclass(L, lw, id, (int)c); /* a sensor class's items */
  if (obb_world_set_class(lw->w, id, (int)c) != 0)
    return luaL_error(L, "not enough memory");
  lua_settop(L, 1);
  return 1;
}

/* w:class(item) -> class (0 unless set_class gave another) */
static int world_class(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  int id = lobb_world_checkid(L, 2);
  lobb_checknargs(L, 2);
  lua_pushinteger(L, lobb_world_class(lw, id));
  return 1;
}

/* ---- the protected halves ----------------------------------------------- */

/* Raises the error at the top, which a filter (or a finalizer) raised. A
** filter runs inside the query's C call, so it cannot yield: Lua's own
** message says "across a C-call boundary", which this one explains. */
int lobb_world_filtererror(lua_State *L) {
  if (lua_type(L, -1) == LUA_TSTRING &&
      strstr(lua_tostring(L, -1), "yield across") != NULL)
    return luaL_error(L, "a world query's filter cannot yield (%s)",
                      lua_tostring(L, -1));
  return lua_error(L); /* any other error value goes on unchanged */
}

void lobb_world_pcall(lua_State *L, lworld *lw, int uv, int nargs,
                      void *state, scratch *own) {
  const struct job *job = lw->job; /* a query from a filter nests */
  struct lmove *move = lw->move;
  int st;
  lua_pushvalue(L, lua_upvalueindex(uv));
  lua_insert(L, -nargs - 1);
  if (uv == UV_FILL) lw->job = (const struct job *)state;
  else lw->move = (struct lmove *)state;
  lw->lock++;
  st = lua_pcall(L, nargs, 1, 0);
  lw->lock--;
  lw->job = job;
  lw->move = move;
  if (own != NULL && own->p != NULL) lw->alloc(lw->ud, own->p, own->cap, 0);
  if (st != 0) lobb_world_filtererror(L);
}

/* ---- for the results' tables ------------------------------------------ */

void lobb_cleartail(lua_State *L, int t, lua_Integer k) {
  for (;;) {
    lua_rawgeti(L, t, ++k);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, t, k);
  }
  lua_pop(L, 1);
}

/* ---- registration ------------------------------------------------------ */

static const luaL_Reg world_methods[] = {
  {"add", world_add},
  {"update", world_update},
  {"remove", world_remove},
  {"memory", world_memory},
  {"broad_phase", world_broad_phase},
  {"has", world_has},
  {"get", world_get},
  {"set_class", world_set_class},
  {"class", world_class},
  {"count", world_count},
  {"query_box", lobb_world_query_box},
  {"query_point", lobb_world_query_point},
  {"raycast", lobb_world_raycast},
  {"pairs", lobb_world_pairs},
  {"collisions", lobb_world_collisions},
  {"cast", lobb_world_cast},
  {"cast_turning", lobb_world_cast_turning},
  {"move", lobb_world_move},
  {"check", lobb_world_check},
  {"remainder", lobb_world_remainder},
  {"push", lobb_world_push},
  {"set_ties", lobb_world_set_ties},
  {"move_solid", lobb_world_move_solid},
  {"set_up", lobb_world_set_up},
  {"up", lobb_world_up},
  {"set_character", lobb_world_set_character},
  {"character", lobb_world_character},
  {"is_on_floor", lobb_world_is_on_floor},
  {"is_on_wall", lobb_world_is_on_wall},
  {"is_on_ceiling", lobb_world_is_on_ceiling},
  {"floor_normal", lobb_world_floor_normal},
  {"floor", lobb_world_floor},
  {"platform_motion", lobb_world_platform_motion},
  {"ground", lobb_world_ground},
  {"set_sensor", lobb_world_set_sensor},
  {"sensor", lobb_world_sensor},
  {"set_sensor_class", lobb_world_set_sensor_class},
  {"sensor_class", lobb_world_sensor_class},
  {"events", lobb_world_events},
  {"close", world_close},
  {NULL, NULL}
};

static const luaL_Reg world_meta[] = {
  {"__gc", world_gc},
#if LOBB_HAS_CLOSE
  {"__close", world_close},
#endif
  {"__len", world_len},
  {"__tostring", world_tostring},
  {NULL, NULL}
};

static const luaL_Reg world_funcs[] = {
  {"world2", mod_world2},
  {"world3", mod_world3},
  {"clip", lobb_mod_clip},
  {"reflect", lobb_mod_reflect},
  {NULL, NULL}
};

/* Called from luaopen_obb with the module table at lib and the three
** metatables (lobb_open.c makes them): fills the world metatable
** (protected as the boxes' are: getmetatable(w) gives the method table)
** and registers world2/world3, every function closed over the two box
** metatables, the world metatable and the two protected helpers. Leaves
** on the stack the second half of the FFI fast path's add
** (lobb_world_ffi_add, for lobb_open_jit), made here with the methods'
** upvalues. */
void lobb_open_world(lua_State *L, int lib, int mt2, int mt3, int mtw) {
  int fn, wr, run;
  lua_pushliteral(L, LOBB_WORLD);
  lua_setfield(L, mtw, "__name");
  lua_pushcfunction(L, lobb_world_fill);
  fn = lua_gettop(L);
  lua_pushcfunction(L, write_item);
  wr = lua_gettop(L);
  lua_pushcfunction(L, lobb_move_run);
  run = lua_gettop(L);
  lua_pushvalue(L, mtw);
#define PUSH_UPVALUES() \
  (lua_pushvalue(L, mt2), lua_pushvalue(L, mt3), lua_pushvalue(L, mtw), \
   lua_pushvalue(L, fn), lua_pushvalue(L, wr), lua_pushvalue(L, run))
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_meta, NUV_WORLD);
  lua_pop(L, 1);
  lua_newtable(L);
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_methods, NUV_WORLD);
  lua_pushvalue(L, -1);
  lua_setfield(L, mtw, "__index");
  lua_setfield(L, mtw, "__metatable");
  lua_pushvalue(L, lib);
  PUSH_UPVALUES();
  lobb_setfuncs(L, world_funcs, NUV_WORLD);
  lua_pop(L, 1);
  lobb_open_solid(L, lib);
  PUSH_UPVALUES();
  lua_pushcclosure(L, lobb_world_ffi_add, NUV_WORLD);
#undef PUSH_UPVALUES
  lua_replace(L, fn);
  lua_settop(L, fn);
}

/* ---- for host programs (lobb.h) ----------------------------------------- */

/* These work from any C function, without the methods' upvalues: a world
** is recognised by its tag, pushing takes the metatable from the registry,
** and what goes through a method's body runs in a C function of its own,
** called with the world at 1 and the item at 2 as a method is. */

static int absindex(lua_State *L, int idx) {
  return idx > 0 || idx <= LUA_REGISTRYINDEX ? idx : lua_gettop(L) + idx + 1;
}

obb_world *lobb_pushworld(lua_State *L, int dim, double margin) {
  lworld *lw;
  int mt;
  if (dim != 2 && dim != 3)
    luaL_error(L, "lobb_pushworld: dim must be 2 or 3, got %d", dim);
  lua_getfield(L, LUA_REGISTRYINDEX, LOBB_WORLD);
  if (!lua_istable(L, -1))
    luaL_error(L, "module '" LOBB_LIBNAME "' is not open in this state");
  mt = lua_gettop(L);
  lw = make_world(L, dim, margin, OBB_WORLD_CELL_AUTO, mt);
  lua_remove(L, mt);
  return lw->w;
}

obb_world *lobb_testworld(lua_State *L, int idx) {
  lworld *lw = lobb_world_test(L, idx);
  return lw != NULL ? lw->w : NULL;
}

obb_world *lobb_checkworld(lua_State *L, int idx) {
  lworld *lw = lobb_world_test(L, idx);
  if (lw == NULL) lobb_typeerror(L, idx, LOBB_WORLD);
  if (lw->w == NULL) luaL_argerror(L, idx, "world is closed");
  return lw->w;
}

/* The open world at idx, or an error naming the host function fn. */
static lworld *host_world(lua_State *L, int idx, const char *fn) {
  lworld *lw = lobb_world_test(L, idx);
  if (lw == NULL)
    luaL_error(L, "%s: obb.world expected, got %s", fn,
               lobb_basetypename(L, idx));
  if (lw->w == NULL) luaL_error(L, "%s: world is closed", fn);
  return lw;
}

/* host_add(world, item, box): lobb_world_add's body, world:add's checks
** and end with a C box; returns the id. */
static int host_add(lua_State *L) {
  lworld *lw = host_world(L, 1, "lobb_world_add");
  const void *box = lua_touserdata(L, 3);
  anybox b;
  lw = lobb_world_checkmutable(L, "add");
  if (lua_isnil(L, 2) || (lua_type(L, 2) == LUA_TNUMBER &&
                          lua_tonumber(L, 2) != lua_tonumber(L, 2)))
    return luaL_error(L, "lobb_world_add: item must be a value but nil and NaN");
  if (lobb_world_itemid(L, 2) >= 0)
    return luaL_error(L, "lobb_world_add: item is already in the world");
  if (box == NULL) return luaL_error(L, "lobb_world_add: box is NULL");
  if (lw->dim == 2) {
    b.b2 = *(const obb2 *)box;
    if (!obb2_is_valid(&b.b2))
      return luaL_error(L, "lobb_world_add: box is no valid obb2 (obb2_is_valid)");
  } else {
    b.b3 = *(const obb3 *)box;
    if (!obb3_is_valid(&b.b3))
      return luaL_error(L, "lobb_world_add: box is no valid obb3 (obb3_is_valid)");
  }
  lua_settop(L, 2);
  lua_pushcfunction(L, write_item); /* at 3 */
  lua_pushinteger(L, enter(L, lw, &b, 3));
  return 1;
}

int lobb_world_add(lua_State *L, int widx, int itemidx, const void *box) {
  int id;
  widx = absindex(L, widx);
  itemidx = absindex(L, itemidx);
  luaL_checkstack(L, 4, NULL);
  lua_pushcfunction(L, host_add);
  lua_pushvalue(L, widx);
  lua_pushvalue(L, itemidx);
  lua_pushlightuserdata(L, (void *)box);
  lua_call(L, 3, 1);
  id = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return id;
}

void lobb_world_remove(lua_State *L, int widx, int id) {
  lworld *lw;
  widx = absindex(L, widx);
  lw = host_world(L, widx, "lobb_world_remove");
  if (obb_world_box(lw->w, id) == NULL)
    luaL_error(L, "lobb_world_remove: %d is no item's id in the world", id);
  luaL_checkstack(L, 3, NULL);
  lua_pushcfunction(L, world_remove);
  lua_pushvalue(L, widx);
  if (lobb_world_item(L, widx, id) == LUA_TNIL)
    luaL_error(L, "lobb_world_remove: world's item tables were replaced");
  lua_call(L, 2, 0);
}

int lobb_world_id(lua_State *L, int widx, int itemidx) {
  lworld *lw;
  int id = -1;
  widx = absindex(L, widx);
  itemidx = absindex(L, itemidx);
  lw = lobb_world_test(L, widx);
  if (lw == NULL || lw->w == NULL || lua_isnoneornil(L, itemidx) ||
      !lua_checkstack(L, 2))
    return -1;
  lobb_getuv(L, widx, UV_BYITEM);
  if (lua_istable(L, -1)) {
    lua_pushvalue(L, itemidx); /* NaN finds nothing: rawget never raises */
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TNUMBER) id = live_id(lw, lua_tonumber(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return id;
}

int lobb_world_item(lua_State *L, int widx, int id) {
  lworld *lw;
  widx = absindex(L, widx);
  lw = lobb_world_test(L, widx);
  luaL_checkstack(L, 2, NULL);
  if (lw == NULL || lw->w == NULL || obb_world_box(lw->w, id) == NULL) {
    lua_pushnil(L);
    return LUA_TNIL;
  }
  lobb_getuv(L, widx, UV_BYID);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_pushnil(L);
    return LUA_TNIL;
  }
  lua_rawgeti(L, -1, id + 1);
  lua_remove(L, -2);
  return lua_type(L, -1);
}
