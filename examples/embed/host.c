/*
** host.c: a tiny "engine" that embeds Lua and obb.
**
** The engine owns its collision boxes as plain obb2/obb3 structs (the C
** core, include/obb.h). Each frame it moves them, hands copies to the game
** script with lobb_pushobb2/3, calls the script's frame(), and reads back
** the player box the script moved with lobb_checkobb2. The module is
** preloaded (package.preload), so `require "obb"` never touches
** package.cpath. Every answer the script gives is checked against the core,
** so the program fails (exit 1) the moment the two disagree.
**
**   usage: host path/to/game.lua
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "lobb.h"
#include "obb.h"

#define NWALLS 4
#define NFRAMES 16

static int failures = 0;

static void check(int ok, int frame, const char *what) {
  if (!ok) {
    fprintf(stderr, "host: frame %d: %s\n", frame, what);
    failures++;
  }
}

/* Registers luaopen_obb in package.preload, the way an engine ships a C
** module inside its own executable. */
static void preload_obb(lua_State *L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_obb);
  lua_setfield(L, -2, LOBB_LIBNAME);
  lua_pop(L, 1);
  /* no C module may come from a file: prove the preload is what loads */
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "cpath");
  lua_pop(L, 1);
}

int main(int argc, char **argv) {
  lua_State *L;
  obb2 player, walls[NWALLS];
  obb3 crate, probe;
  double zero3[3] = {0, 0, 0}, ext3[3] = {1, 1, 1}, q[4] = {0, 0, 0, 1};
  /* The level: a 20 x 10 room of four thin walls, and a player crate. */
  static const double wall_min[NWALLS][2] = {
      {-10, -5.5}, {-10, 5}, {-10.5, -5}, {10, -5}};
  static const double wall_max[NWALLS][2] = {
      {10, -5}, {10, 5.5}, {-10, 5}, {10.5, 5}};
  static const double player_e[2] = {1, 0.5};
  int frame, i;

  if (argc != 2) {
    fprintf(stderr, "usage: %s game.lua\n", argv[0]);
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  preload_obb(L);
  if (luaL_dofile(L, argv[1]) != 0) {
    fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }

  for (i = 0; i < 4; i++) obb2_from_aabb(&walls[i], wall_min[i], wall_max[i]);
  obb2_init(&player, zero3, player_e, 0);
  obb3_init(&crate, zero3, ext3, q);

  for (frame = 1; frame <= NFRAMES; frame++) {
    int hits = 0, top = lua_gettop(L);
    obb2 *moved;
    double c[3], e[3] = {1.5, 0.25, 0.25}, qq[4];

    /* Engine side: the player drives right 0.8 a frame, turning 0.3 rad;
    ** the probe (a long 3D stick) circles the crate, turning as it goes. */
    player.c[0] += 0.8;
    obb2_set_angle(&player, obb2_angle(&player) + 0.3);
    c[0] = 2.5 * cos(frame * 0.5); c[1] = 0.5; c[2] = 2.5 * sin(frame * 0.5);
    qq[0] = 0; qq[1] = sin(frame * 0.25); qq[2] = 0; qq[3] = cos(frame * 0.25);
    obb3_init(&probe, c, e, qq);
    for (i = 0; i < NWALLS; i++) hits += obb2_intersects(&player, &walls[i]);

    /* Script side: frame(n, player, walls, crate, probe) returns the number
    ** of walls the player hits and whether the probe touches the crate; it
    ** pushes the player out of the walls in place. */
    lobb_pushobb2(L, &player); /* top + 1: kept here to read back */
    lua_getglobal(L, "frame");
    lua_pushinteger(L, frame);
    lua_pushvalue(L, top + 1);
    lua_createtable(L, NWALLS, 0);
    for (i = 0; i < NWALLS; i++) {
      lobb_pushobb2(L, &walls[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lobb_pushobb3(L, &crate);
    lobb_pushobb3(L, &probe);
    if (lua_pcall(L, 5, 2, 0) != 0) {
      fprintf(stderr, "host: frame %d: %s\n", frame, lua_tostring(L, -1));
      lua_close(L);
      return 1;
    }
    check(lua_type(L, -2) == LUA_TNUMBER && lua_tointeger(L, -2) == hits,
          frame, "script's wall hit count differs from the core's");
    check(lua_toboolean(L, -1) == obb3_intersects(&crate, &probe), frame,
          "script's 3D answer differs from the core's");

    /* Read the player back and adopt it: the script may only have moved
    ** it left, and only when it hit a wall. */
    check(lobb_testobb3(L, top + 1) == NULL, frame, "a 2D box tested as 3D");
    check(lobb_testobb2(L, -1) == NULL, frame, "a boolean tested as a box");
    moved = lobb_checkobb2(L, top + 1);
    check(moved->c[1] == player.c[1] && moved->u[0] == player.u[0] &&
              moved->u[1] == player.u[1],
          frame, "script changed more than the player's x");
    check(hits ? moved->c[0] < player.c[0] : moved->c[0] == player.c[0],
          frame, "script's push-out is wrong");
    check(!obb2_intersects(moved, &walls[3]), frame,
          "player still in the right wall after the push-out");
    printf("frame %2d: walls hit %d, probe %s the crate, player x %.2f -> %.2f\n",
           frame, hits, obb3_intersects(&crate, &probe) ? "touches" : "misses",
           player.c[0], moved->c[0]);
    player = *moved;
    lua_settop(L, top);
  }
  lua_close(L);
  if (failures) {
    fprintf(stderr, "host: %d check(s) failed\n", failures);
    return 1;
  }
  printf("embed host: %d frames ok\n", NFRAMES);
  return 0;
}
