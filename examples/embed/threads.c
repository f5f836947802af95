/*
** threads.c: two lua_States, each with obb, used from two threads at once.
**
** obb keeps no C globals: its metatables live in each state's registry and
** in upvalues, so states never share anything. This host runs the same
** deterministic workload (boxes built, moved, turned, tested, fitted, and
** bad calls caught) first in one thread to get each seed's answer, then in
** two threads at the same time, several rounds, and fails unless every
** concurrent run gives exactly the answer its seed gave alone.
**
**   usage: threads            (exit status 0 when all runs agree)
*/
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "lobb.h"

#define ROUNDS 4
#define RESULT_SIZE 128

/* Plain Lua 5.1 to 5.4; the seed arrives as the chunk's argument. */
static const char workload[] =
  "local obb = require 'obb'\n"
  "local seed = ...\n"
  "local function rnd() seed = (seed * 16807) % 2147483647\n"
  "  return seed / 2147483647 end\n"
  "local b2, b3 = {}, {}\n"
  "for i = 1, 120 do b2[i] = obb.new2(rnd() * 100, rnd() * 100,\n"
  "  1 + rnd() * 4, 1 + rnd() * 4, rnd() * 6) end\n"
  "for i = 1, 40 do b3[i] = obb.new3(rnd() * 20, rnd() * 20, rnd() * 20,\n"
  "  1 + rnd(), 1 + rnd(), 1 + rnd(), rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, 1) end\n"
  "local total, errors = 0, 0\n"
  "for frame = 1, 30 do\n"
  "  for i, b in ipairs(b2) do b:rotate(0.01 * i):translate(rnd() - 0.5, rnd() - 0.5) end\n"
  "  for _, b in ipairs(b3) do b:rotate(rnd() - 0.5, 0, 0, 4) end\n"
  "  for i = 1, #b2 - 1 do for j = i + 1, #b2 do\n"
  "    if b2[i]:intersects(b2[j]) then total = total + 1 end end end\n"
  "  for i = 1, #b3 - 1 do for j = i + 1, #b3 do\n"
  "    if b3[i]:intersects(b3[j]) then total = total + 1000 end end end\n"
  "  local f = obb.fit2({ b2[frame]:corners() })\n"
  "  if f:contains(b2[frame]:center()) then total = total + 7 end\n"
  "  if not pcall(obb.new2, 0, 0, -1, 1) then errors = errors + 1 end\n"
  "  if not pcall(b2[1].intersects, b2[1], b3[1]) then errors = errors + 1 end\n"
  "end\n"
  "local x, y = b2[1]:center()\n"
  "return string.format('%d %d %.17g %.17g %s', total, errors, x, y,\n"
  "  tostring(b3[1]))\n";

/* Runs the workload with a seed in a fresh state; the result (or the
** error) lands in out. Returns 0 on success. */
static int run(long seed, char out[RESULT_SIZE]) {
  int status;
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    strcpy(out, "out of memory");
    return 1;
  }
  luaL_openlibs(L);
#if LUA_VERSION_NUM >= 502
  luaL_requiref(L, LOBB_LIBNAME, luaopen_obb, 0); /* into package.loaded */
  lua_pop(L, 1);
#else
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_obb);
  lua_setfield(L, -2, LOBB_LIBNAME);
  lua_pop(L, 2);
#endif
  status = luaL_loadbuffer(L, workload, sizeof workload - 1, "=workload");
  if (status == 0) {
    lua_pushnumber(L, (lua_Number)seed);
    status = lua_pcall(L, 1, 1, 0);
  }
  snprintf(out, RESULT_SIZE, "%s", lua_tostring(L, -1));
  lua_close(L);
  return status;
}

typedef struct job {
  long seed;
  const char *expected;
  int mismatches;
  char got[RESULT_SIZE];
} job;

static void *worker(void *arg) {
  job *j = (job *)arg;
  int r;
  for (r = 0; r < ROUNDS; r++) {
    if (run(j->seed, j->got) != 0 || strcmp(j->got, j->expected) != 0)
      j->mismatches++;
  }
  return NULL;
}

int main(void) {
  char ref[2][RESULT_SIZE];
  job jobs[2];
  pthread_t tid[2];
  int i, bad = 0;

  for (i = 0; i < 2; i++) {
    if (run(1234 + 999 * i, ref[i]) != 0) {
      fprintf(stderr, "threads: workload failed: %s\n", ref[i]);
      return 1;
    }
  }
  if (strcmp(ref[0], ref[1]) == 0) {
    fprintf(stderr, "threads: two seeds gave one answer; the test is blind\n");
    return 1;
  }
  for (i = 0; i < 2; i++) {
    jobs[i].seed = 1234 + 999 * i;
    jobs[i].expected = ref[i];
    jobs[i].mismatches = 0;
    if (pthread_create(&tid[i], NULL, worker, &jobs[i]) != 0) {
      fprintf(stderr, "threads: pthread_create failed\n");
      return 1;
    }
  }
  for (i = 0; i < 2; i++) pthread_join(tid[i], NULL);
  for (i = 0; i < 2; i++) {
    if (jobs[i].mismatches) {
      fprintf(stderr, "threads: state %d: %d of %d runs differ: got '%s', "
              "expected '%s'\n", i, jobs[i].mismatches, ROUNDS, jobs[i].got,
              ref[i]);
      bad = 1;
    }
  }
  if (bad) return 1;
  printf("threads: 2 states x %d rounds at once agree with the serial runs\n",
         ROUNDS);
  return 0;
}
