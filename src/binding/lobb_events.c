/*
** lobb_events.c: the Lua face of sensors and events (obb_events.c):
** w:set_sensor, w:sensor, w:set_sensor_class, w:sensor_class, w:events,
** and the FFI's two halves of w:events.
**
** The core keeps a byte of flags per item: bit SENSOR_ITEM for the item's
** own mark (w:set_sensor), bit SENSOR_CLASS for its class's (a sensor
** class, w:set_sensor_class, kept here a bit per class), and an item is a
** sensor when either is set; w:set_class keeps the class bit
** (lobb_events_setclass).
**
** w:events writes the events into out, one by one, reading each from the
** core's queue just before writing it: writing can run finalizers, which
** may change the world (more events come after these), take its events
** themselves, or close it. The events are taken only once all are
** written (nothing is lost when a write raises), and only when no other
** take came in between (counted in lw->ev.takes): otherwise the other
** take had them, and this one answers none rather than the same twice.
** The ids of removed items that events name are held by the core until
** the events are taken, and their items stay in the world's id -> item
** table until then, so an event can always give its items.
*/
#include <math.h>
#include <string.h>

#include "lobb_world.h"
#include "lobb_ffi.h"
#include "obb_events_impl.h"

enum { SENSOR_ITEM = 1, SENSOR_CLASS = 2 };

static int class_bit(const lworld *lw, int c) {
  return (lw->ev.classes[c >> 3] >> (c & 7)) & 1;
}

/* ---- sensors ------------------------------------------------------------- */

/* The on argument at idx: nil or absent (true), or a boolean. */
static int check_on(lua_State *L, int idx) {
  if (lua_isnoneornil(L, idx)) return 1;
  if (!lua_isboolean(L, idx)) lobb_typeerror(L, idx, "boolean or nil");
  return lua_toboolean(L, idx);
}

/* A sensor class at idx: an integer in [1, 255]. */
static int check_class(lua_State *L, int idx) {
  lua_Number c;
  if (lua_type(L, idx) != LUA_TNUMBER) lobb_typeerror(L, idx, "number");
  c = lua_tonumber(L, idx);
  if (!(c >= 1 && c <= 255 && c == floor(c))) { /* NaN too */
    lua_pushvalue(L, idx);
    luaL_argerror(L, idx, lua_pushfstring(L,
        "sensor class must be an integer in [1, 255], got %s",
        lua_tostring(L, -1)));
  }
  return (int)c;
}

/* Item id's flags with bit set to on. */
static int set_flag(lworld *lw, int id, int bit, int on) {
  int f = obb_world_sensor(lw->w, id);
  return obb_world_set_sensor(lw->w, id, on ? f | bit : f & ~bit);
}

/* w:set_sensor(item [, on]) -> w */
int lobb_world_set_sensor(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "make sensors of");
  int id = lobb_world_checkid(L, 2), on = check_on(L, 3);
  lobb_checknargs(L, 3);
  if (set_flag(lw, id, SENSOR_ITEM, on) != 0)
    return luaL_error(L, "not enough memory");
  lua_settop(L, 1);
  return 1;
}

/* w:sensor(item) -> whether it is a sensor (itself or by its class) */
int lobb_world_sensor(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  int id = lobb_world_checkid(L, 2);
  lobb_checknargs(L, 2);
  lua_pushboolean(L, obb_world_sensor(lw->w, id) != 0);
  return 1;
}

/* w:set_sensor_class(class [, on]) -> w: every item of the class, now and
** later, is a sensor (or no longer by its class). */
int lobb_world_set_sensor_class(lua_State *L) {
  lworld *lw = lobb_world_checkmutable(L, "make sensors of");
  int c = check_class(L, 2), on = check_on(L, 3), id, j;
  lobb_checknargs(L, 3);
  if (class_bit(lw, c) == on) {
    lua_settop(L, 1);
    return 1;
  }
  lw->ev.classes[c >> 3] ^= (unsigned char)(1 << (c & 7));
  for (id = 0; (size_t)id < *lw->nclasses; id++) {
    if (lobb_world_class(lw, id) != c || obb_world_box(lw->w, id) == NULL) continue;
    if (set_flag(lw, id, SENSOR_CLASS, on) != 0) { /* only on: undone */
      for (j = 0; j < id; j++)
        if (lobb_world_class(lw, j) == c && obb_world_box(lw->w, j) != NULL)
          set_flag(lw, j, SENSOR_CLASS, 0); /* never fails */
      lw->ev.classes[c >> 3] ^= (unsigned char)(1 << (c & 7));
      return luaL_error(L, "not enough memory");
    }
  }
  lua_settop(L, 1);
  return 1;
}

/* w:sensor_class(class) -> whether the class is a sensor class */
int lobb_world_sensor_class(lua_State *L) {
  lworld *lw = lobb_world_checkopen(L);
  int c = check_class(L, 2);
  lobb_checknargs(L, 2);
  lua_pushboolean(L, class_bit(lw, c));
  return 1;
}

void lobb_events_setclass(lua_State *L, lworld *lw, int id, int c) {
  int on = class_bit(lw, c);
  if (class_bit(lw, lobb_world_class(lw, id)) == on) return;
  if (set_flag(lw, id, SENSOR_CLASS, on) != 0)
    luaL_error(L, "not enough memory");
}

/* ---- closing --------------------------------------------------------------- */

int lobb_events_close(lua_State *L, lworld *lw) {
  const obb_event *q;
  obb_event *p;
  int n;
  if (lw->w == NULL) return lw->ev.nsaved > 0; /* closed already */
  n = obb_world_events(lw->w, &q); /* what changed last is not lost */
  if (n < 0) return luaL_error(L, "not enough memory");
  if (n == 0) return 0;
  p = (obb_event *)lw->alloc(lw->ud, NULL, 0, (size_t)n * sizeof(obb_event));
  if (p == NULL) return luaL_error(L, "not enough memory");
  memcpy(p, q, (size_t)n * sizeof(obb_event));
  lobb_events_free(lw);
  lw->ev.saved = p;
  lw->ev.nsaved = lw->ev.saved_cap = n;
  return 1;
}

void lobb_events_free(lworld *lw) {
  if (lw->ev.saved != NULL)
    lw->alloc(lw->ud, lw->ev.saved,
              (size_t)lw->ev.saved_cap * sizeof(obb_event), 0);
  lw->ev.saved = NULL;
  lw->ev.nsaved = lw->ev.saved_cap = 0;
}

/* ---- taking the events ----------------------------------------------------- */

/* Event i of a take begun at count takes: from the core's queue, or from
** those kept when the world closed; 0 when another take came meanwhile
** (it had them). */
static int fetch(lworld *lw, double takes, int i, obb_event *e) {
  const obb_event *q;
  int n;
  if (lw->ev.takes != takes) return 0;
  if (lw->w != NULL) {
    n = obb_events_queue(lw->w, &q);
  } else {
    q = lw->ev.saved;
    n = lw->ev.nsaved;
  }
  if (q == NULL || i >= n) return 0;
  *e = q[i];
  return 1;
}

/* Releasing a held id: its entry in the id -> item table at ctx's index
** goes (clearing a key never allocates). */
typedef struct released_ctx {
  lua_State *L;
  int byid;
} released_ctx;

static void on_released(void *ctx, int id) {
  released_ctx *r = (released_ctx *)ctx;
  lua_pushnil(r->L);
  lua_rawseti(r->L, r->byid, id + 1);
}

/* Takes the first n events (written): the core lets go of the ids held
** for them (their entries in the id -> item table at byid go), or, the
** world closed, those kept drop, and with the last of them the table. */
static void take(lua_State *L, lworld *lw, int n, int byid) {
  lw->ev.takes += 1;
  if (lw->w != NULL) {
    released_ctx r;
    r.L = L;
    r.byid = byid;
    obb_world_events_done(lw->w, n, on_released, &r);
    return;
  }
  if (n < lw->ev.nsaved) { /* closed while they were written: the rest stay */
    memmove(lw->ev.saved, lw->ev.saved + n,
            (size_t)(lw->ev.nsaved - n) * sizeof(obb_event));
    lw->ev.nsaved -= n;
    return;
  }
  lobb_events_free(lw);
}

/* w:events(out) -> n: out[4i-3 .. 4i] is event i, sensor, other, "begin"
** or "end", and the time along the move (false: not a move's) */
int lobb_world_events(lua_State *L) {
  lworld *lw = lobb_world_test(L, 1);
  const obb_event *q;
  double takes;
  int n, i;
  if (lw == NULL) return lobb_typeerror(L, 1, LOBB_WORLD);
  lobb_checknargs(L, 2);
  if (!lua_istable(L, 2)) return lobb_typeerror(L, 2, "table");
  if (lw->w == NULL) {
    if (lw->ev.nsaved == 0) return luaL_error(L, "world is closed");
    n = lw->ev.nsaved;
    lua_newtable(L); /* the closed world's next id -> item table: made first */
  } else {
    lobb_world_unstale(L, lw);
    if (lw->lock > 0)
      return luaL_error(L, "cannot take the events of a world during its query");
    if (lw->busy > 0)
      return luaL_error(L, "cannot take the events of a world while it adds "
                        "an item (from a finalizer)");
    n = obb_world_events(lw->w, &q);
    if (n < 0) return luaL_error(L, "not enough memory");
    lua_pushnil(L);
  }
  lobb_world_pushitems(L, UV_BYID); /* at 4 */
  takes = lw->ev.takes;
  for (i = 0; i < n; i++) {
    lua_Integer k = (lua_Integer)i * 4;
    obb_event e;
    if (!fetch(lw, takes, i, &e)) break;
    lua_rawgeti(L, 4, e.sensor + 1);
    lua_rawseti(L, 2, k + 1);
    lua_rawgeti(L, 4, e.other + 1);
    lua_rawseti(L, 2, k + 2);
    lua_pushstring(L, e.kind == OBB_EVENT_BEGIN ? "begin" : "end");
    lua_rawseti(L, 2, k + 3);
    if (e.t >= 0) lua_pushnumber(L, e.t);
    else lua_pushboolean(L, 0);
    lua_rawseti(L, 2, k + 4);
  }
  if (i < n || lw->ev.takes != takes) { /* another take had them */
    lobb_cleartail(L, 2, 0);
    lua_pushinteger(L, 0);
    return 1;
  }
  lobb_cleartail(L, 2, (lua_Integer)n * 4);
  if (lw->w == NULL && lw->ev.nsaved <= n) { /* the last kept: the table goes */
    lua_pushvalue(L, 3);
    lobb_setuv(L, 1, UV_BYID);
  }
  take(L, lw, n, 4);
  lua_pushinteger(L, n);
  return 1;
}

/* ---- the FFI's halves (lobb_ffi.h) ------------------------------------------ */

int lobb_ffi_world_events(void *world, double *out, int cap, double *info) {
  lworld *lw = lobb_world_usable(world, 0);
  const obb_event *q;
  int n, i;
  if (lw == NULL || cap < 0) return -1;
  n = obb_world_events(lw->w, &q);
  if (n < 0) return -1;
  info[0] = lw->ev.takes;
  for (i = 0; i < n && i < cap; i++, out += 4) {
    out[0] = q[i].sensor;
    out[1] = q[i].other;
    out[2] = q[i].kind;
    out[3] = q[i].t;
  }
  return n;
}

typedef struct ffi_released {
  double *ids;
  int n;
} ffi_released;

static void on_ffi_released(void *ctx, int id) {
  ffi_released *r = (ffi_released *)ctx;
  r->ids[r->n++] = id;
}

int lobb_ffi_world_events_done(void *world, double takes, int n,
                               double *released) {
  lworld *lw = lobb_world_usable(world, 0);
  const obb_event *q;
  ffi_released r;
  if (lw == NULL || lw->ev.takes != takes || n < 0 ||
      n > obb_events_queue(lw->w, &q))
    return -1;
  r.ids = released;
  r.n = 0;
  lw->ev.takes += 1;
  obb_world_events_done(lw->w, n, on_ffi_released, &r);
  return r.n;
}
