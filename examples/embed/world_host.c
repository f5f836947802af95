/*
** world_host.c: an engine and its script sharing one world.
**
** The engine makes the world in C with lobb_pushworld (the userdata owns
** it), adds its level from C with lobb_world_add (a floor, a wall, coins of
** class 2, a patrolling guard, the player: each item a Lua value), and
** hands the world to the script (examples/embed/world_game.lua), which
** moves the player with a response set and removes the coins it crosses.
** The engine reads every result back in C: the player's box by its id
** (lobb_world_id), the coins gone, the items by id (lobb_world_item). It
** moves the guard itself with obb_world_move_with (its own filter and
** report contexts, a commit) and the script sees it there. Every answer
** is checked against the core's own: the program fails (exit 1) the
** moment C and the script disagree. What the host functions refuse they
** refuse as the methods do (a second add of an item, an add from a
** query's filter). Last the script closes the world and the engine finds
** it closed.
**
**   usage: world_host path/to/world_game.lua
*/
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "lobb.h"
#include "obb_world.h"

#define COIN 2 /* the coins' class, as world_game.lua knows it */
#define NCOINS 3
#define NSTEPS 12

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "world_host: %s\n", what);
    failures++;
  }
}

/* Adds the item on top of the stack (popped) to the world at widx with a
** box of center (x, y) and half extents (hx, hy); its id. */
static int add_box(lua_State *L, int widx, double x, double y, double hx,
                   double hy) {
  double c[2], e[2];
  obb2 b;
  int id;
  c[0] = x; c[1] = y; e[0] = hx; e[1] = hy;
  obb2_init(&b, c, e, 0);
  id = lobb_world_add(L, widx, -1, &b);
  lua_pop(L, 1);
  return id;
}

/* The guard's filter and report, each with a context of its own. */
typedef struct guard_brain { int asked; } guard_brain;
typedef struct guard_log { int hits; double last_n[3]; } guard_log;

static int guard_filter(void *ctx, int item, const obb_move_hit *hit) {
  (void)item;
  (void)hit;
  ((guard_brain *)ctx)->asked++;
  return OBB_TOUCH; /* the guard stops at whatever it meets */
}

static void guard_report(void *ctx, const obb_move_hit *hit) {
  guard_log *log = (guard_log *)ctx;
  log->hits++;
  memcpy(log->last_n, hit->n, sizeof log->last_n);
}

/* Calls the script's function fn with the world at widx and the nargs
** values on top of the stack; leaves its nres results there instead. */
static void call(lua_State *L, const char *fn, int widx, int nargs, int nres) {
  int base = lua_gettop(L) - nargs;
  lua_getglobal(L, fn);
  lua_insert(L, base + 1);
  lua_pushvalue(L, widx);
  lua_insert(L, base + 2);
  lua_call(L, nargs + 1, nres);
}

/* lobb_checkworld on the value at 1: raises for a closed world. */
static int check_world(lua_State *L) {
  lobb_checkworld(L, 1);
  return 0;
}

/* host_add(world, item [, hx]): lobb_world_add with a box of half extents
** hx (1 by default) at the origin, for the script and for the refusals
** below; returns the id. */
static int host_add(lua_State *L) {
  double c[2] = {0, 0}, e[2];
  obb2 b;
  e[0] = e[1] = luaL_optnumber(L, 3, 1);
  memcpy(b.c, c, sizeof c);
  b.u[0] = 1; b.u[1] = 0;
  memcpy(b.e, e, sizeof e); /* not obb2_init: a negative extent passes */
  lua_pushinteger(L, lobb_world_add(L, 1, 2, &b));
  return 1;
}

/* Calls host_add(world, item, hx) protected: whether it raised a message
** holding want. */
static int add_refused(lua_State *L, int world, const char *item, double hx,
                       const char *want) {
  int st, found;
  lua_pushcfunction(L, host_add);
  lua_pushvalue(L, world);
  lua_pushstring(L, item);
  lua_pushnumber(L, hx);
  st = lua_pcall(L, 3, 1, 0);
  found = st != 0 && strstr(lua_tostring(L, -1), want) != NULL;
  if (st != 0 && !found) fprintf(stderr, "world_host: %s\n", lua_tostring(L, -1));
  lua_pop(L, 1);
  return found;
}

/* What the host functions refuse, as the methods refuse it: another value
** is no world, an item is entered once, a box must be valid, and nothing
** is added during a query (the script tries from a query's filter,
** through the global host_add). */
static void refusals(lua_State *L, int world, int me) {
  double c[2] = {0, 0}, e[2] = {1, 1};
  obb2 b;
  obb2_init(&b, c, e, 0);
  lobb_pushobb2(L, &b); /* a box is no world */
  check(lobb_testworld(L, -1) == NULL && lobb_world_id(L, -1, me) == -1,
        "a box is no world");
  check(lobb_world_item(L, -2, 0) == LUA_TNIL, "a box has no items");
  lua_pop(L, 2);
  check(add_refused(L, world, "floor", 1, "already in the world"),
        "an item entered twice");
  check(add_refused(L, world, "rock", -1, "no valid obb2"),
        "a box with a negative extent");
  lua_pushcfunction(L, host_add);
  lua_setglobal(L, "host_add");
  lua_getglobal(L, "add_from_filter");
  lua_pushvalue(L, world);
  lua_call(L, 1, 1);
  check(lua_isstring(L, -1) &&
            strstr(lua_tostring(L, -1), "during its query") != NULL,
        "an add during the world's query");
  lua_pop(L, 1);
}

/* The script moves the player NSTEPS times; after each step C asks the
** core where the same move ends (obb_world_move_with with the response
** set the script's obb.responses makes, no commit) before the script
** moves, and reads the player's box back after. Returns the coins the
** script crossed. */
static int run_player(lua_State *L, obb_world *w, int world, int me) {
  unsigned char responses[OBB_NCLASSES];
  obb_move_calls calls = {0};
  int step, coins = 0;
  memset(responses, OBB_SLIDE, sizeof responses);
  responses[COIN] = OBB_CROSS; /* obb.responses{[2] = "cross"} in C */
  calls.responses = responses;
  for (step = 0; step < NSTEPS; step++) {
    int id = lobb_world_id(L, world, me);
    const obb2 *box = (const obb2 *)obb_world_box(w, id);
    double goal[2], x, y;
    obb2 expect;
    goal[0] = box->c[0] + 1.5; /* runs right, pressed to the floor */
    goal[1] = box->c[1] - 0.5;
    check(obb_world_move_with(w, id, goal, NULL, &calls, &expect) >= 0,
          "the core's move");
    lua_pushvalue(L, me);
    lua_pushnumber(L, 1.5);
    lua_pushnumber(L, -0.5);
    call(L, "step", world, 3, 3); /* step(world, me, 1.5, -0.5) */
    x = lua_tonumber(L, -3);
    y = lua_tonumber(L, -2);
    coins += (int)lua_tointeger(L, -1);
    lua_pop(L, 3);
    box = (const obb2 *)obb_world_box(w, id);
    check(box->c[0] == x && box->c[1] == y, "the script's answer is the box");
    check(memcmp(box, &expect, sizeof expect) == 0,
          "the script's move ends where the core's does, bit for bit");
  }
  return coins;
}

/* C moves the guard right with its own filter and report, each with its
** own context, committed in the same call; the script then sees it where
** C put it. */
static void run_guard(lua_State *L, obb_world *w, int world, int guard) {
  guard_brain brain = {0};
  guard_log log = {0};
  obb_move_calls calls = {0};
  double goal[2] = {3, 0.5}, x, y;
  obb2 end;
  calls.filter = guard_filter;
  calls.filter_ctx = &brain;
  calls.report = guard_report;
  calls.report_ctx = &log;
  calls.commit = 1; /* the world changes: no copy of the box, no update */
  check(obb_world_move_with(w, guard, goal, NULL, &calls, &end) == 0,
        "the guard walks along the floor freely");
  goal[0] = 30;
  check(obb_world_move_with(w, guard, goal, NULL, &calls, &end) == 1,
        "the guard meets the player");
  check(brain.asked == 1 && log.hits == 1 && log.last_n[0] == -1,
        "the guard's filter and report, each with its own context");
  check(memcmp(obb_world_box(w, guard), &end, sizeof end) == 0,
        "the guard's move is committed");
  printf("guard: stopped at x %.2f (%s)\n", end.c[0],
         obb_response_name(OBB_TOUCH));
  lua_pushliteral(L, "guard");
  call(L, "look", world, 1, 2); /* look(world, "guard") */
  x = lua_tonumber(L, -2);
  y = lua_tonumber(L, -1);
  lua_pop(L, 2);
  check(x == end.c[0] && y == end.c[1], "the script sees the guard's move");
}

/* The engine, inside a protected call: every lobb_ function that raises
** raises into main's lua_pcall. */
static int engine(lua_State *L) {
  obb_world *w = lobb_pushworld(L, 2, OBB_WORLD_MARGIN); /* the userdata's */
  int world = lua_gettop(L), me, player, guard, coin[NCOINS], i;
  lua_pushliteral(L, "floor");
  add_box(L, world, 0, -1, 20, 1);
  lua_pushliteral(L, "wall");
  add_box(L, world, 12, 2, 1, 2);
  for (i = 0; i < NCOINS; i++) {
    lua_pushfstring(L, "coin %d", i + 1);
    coin[i] = add_box(L, world, 2 + 2 * i, 0.5, 0.25, 0.25);
    obb_world_set_class(w, coin[i], COIN); /* what the script's set reads */
  }
  lua_pushliteral(L, "guard");
  guard = add_box(L, world, -6, 0.5, 0.5, 0.5);
  lua_newtable(L); /* the player, a table: 'me' */
  me = lua_gettop(L);
  lua_pushliteral(L, "player");
  lua_setfield(L, me, "name");
  lua_pushvalue(L, me);
  player = add_box(L, world, 0, 0.5, 0.5, 0.5);
  check(lobb_world_id(L, world, me) == player, "the player's id");
  check(lobb_world_item(L, world, player) == LUA_TTABLE &&
            lua_rawequal(L, -1, me),
        "the player's item, by its id");
  lua_pop(L, 1);

  check(run_player(L, w, world, me) == NCOINS, "the script took every coin");
  check(((const obb2 *)obb_world_box(w, player))->c[0] == 10.5,
        "the player stops at the wall");
  for (i = 0; i < NCOINS; i++) {
    check(obb_world_box(w, coin[i]) == NULL, "a coin the script removed");
    check(lobb_world_item(L, world, coin[i]) == LUA_TNIL, "its item is gone");
    lua_pop(L, 1);
  }
  run_guard(L, w, world, guard);
  refusals(L, world, me);

  lobb_world_remove(L, world, guard); /* as world:remove("guard") */
  lua_pushliteral(L, "guard");
  check(lobb_world_id(L, world, -1) == -1, "the guard C removed is gone");
  lua_pop(L, 1);
  check(lobb_checkworld(L, world) == w, "the world read back");
  call(L, "done", world, 0, 0); /* the script closes the world */
  check(lobb_testworld(L, world) == NULL, "a world the script closed");
  check(lobb_world_id(L, world, me) == -1, "no ids in a closed world");
  lua_pushcfunction(L, check_world);
  lua_pushvalue(L, world);
  check(lua_pcall(L, 1, 0, 0) != 0 &&
            strstr(lua_tostring(L, -1), "world is closed") != NULL,
        "lobb_checkworld raises for a closed world");
  lua_pop(L, 1);
  printf("world_host: %d steps, %d coins, the guard and the close ok\n",
         NSTEPS, NCOINS);
  return 0;
}

int main(int argc, char **argv) {
  lua_State *L;
  if (argc != 2) {
    fprintf(stderr, "usage: %s world_game.lua\n", argv[0]);
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  lua_getglobal(L, "package"); /* obb linked in: package.preload */
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_obb);
  lua_setfield(L, -2, LOBB_LIBNAME);
  lua_pop(L, 2);
  if (luaL_dofile(L, argv[1]) != 0) { /* it requires obb: open from here on */
    fprintf(stderr, "world_host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_pushcfunction(L, engine);
  if (lua_pcall(L, 0, 0, 0) != 0) {
    fprintf(stderr, "world_host: %s\n", lua_tostring(L, -1));
    failures++;
  }
  lua_close(L);
  if (failures) {
    fprintf(stderr, "world_host: %d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
