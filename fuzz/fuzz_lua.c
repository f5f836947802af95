/*
** fuzz_lua.c: libFuzzer harness for the Lua API.
**
** Each input runs in a fresh Lua state (5.4, or 5.1 and LuaJIT: `make
** fuzz LUA=...`) that has obb opened as a host engine would. The driver script
** fuzz/fuzz_lua.lua (path fixed at build time in FUZZ_DRIVER) reads the
** input bytes as a program: it calls every function and method the module
** exposes with random arguments of every type, feeds results back in,
** drops objects, forces collections, calls __gc and __close by hand, and
** passes callbacks that raise or call back into the module. Every call is
** made under pcall, so only Lua errors may come out: a crash, a sanitizer
** report, a leak, or the driver's own abort on a broken rule is a finding.
**
** The allocator caps each state at MEMORY_LIMIT bytes, so inputs that grow
** a world without bound end in a clean "not enough memory" error, which
** also exercises every allocation-failure path of the binding.
**
** Two copies of the module are in the process: the one linked in, and the
** shared object FUZZ_MODULE (built with the same instrumentation, loaded
** once and kept). Under LuaJIT the state opens the shared object's, so
** that its FFI fast path (lua/obb/jit.lua, found through FUZZ_LUA_PATH)
** can bind to a file and runs: the fuzzed methods are then the FFI ones.
** Elsewhere it opens the linked one. The other copy's luaopen_obb is the
** driver's second argument: opening it in the same state must fail.
*/
#define _GNU_SOURCE /* RTLD_* in glibc */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/lsan_interface.h>

#include "lauxlib.h"
#include "lobb.h"
#include "lua.h"
#include "lualib.h"

#ifndef FUZZ_DRIVER
#define FUZZ_DRIVER "fuzz/fuzz_lua.lua"
#endif
#ifndef FUZZ_MODULE
#define FUZZ_MODULE "build/lua5.4-fuzz/obb.so"
#endif
#ifndef FUZZ_LUA_PATH
#define FUZZ_LUA_PATH "lua/?.lua"
#endif

#define MEMORY_LIMIT ((size_t)64 << 20)

#ifndef LUA_OK
#define LUA_OK 0 /* Lua 5.1 and LuaJIT */
#endif

typedef struct budget {
  size_t used;
} budget;

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  budget *b = (budget *)ud;
  if (ptr == NULL) osize = 0;
  if (nsize == 0) {
    free(ptr);
    b->used -= osize;
    return NULL;
  }
  if (nsize > osize && b->used + (nsize - osize) > MEMORY_LIMIT) return NULL;
  ptr = realloc(ptr, nsize);
  if (ptr != NULL) b->used = b->used - osize + nsize;
  return ptr;
}

/* The shared object's luaopen_obb: loaded once, never unloaded (each
** state's ffi.load and package.loadlib of it then only count references),
** so its code and coverage counters stay put between inputs. */
static lua_CFunction shared_open;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  void *h = dlopen(FUZZ_MODULE, RTLD_NOW | RTLD_LOCAL), *sym;
  (void)argc;
  (void)argv;
  sym = h != NULL ? dlsym(h, "luaopen_obb") : NULL;
  if (sym == NULL) {
    fprintf(stderr, "fuzz_lua: cannot load %s: %s\n", FUZZ_MODULE, dlerror());
    abort();
  }
  /* POSIX: dlsym's result converts to a function pointer */
  memcpy(&shared_open, &sym, sizeof shared_open);
  return 0;
}

/* package.path gets FUZZ_LUA_PATH first, so require "obb.jit" finds the
** tree's own. */
static void set_path(lua_State *L) {
  lua_getglobal(L, "package");
  lua_pushliteral(L, FUZZ_LUA_PATH ";");
  lua_getfield(L, -2, "path");
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

/* Whether the state is LuaJIT's. */
static int is_luajit(lua_State *L) {
  int jit;
  lua_getglobal(L, "jit");
  jit = lua_istable(L, -1);
  lua_pop(L, 1);
  return jit;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  budget mem = {0};
  int capped = 1;
  lua_CFunction first, second;
  lua_State *L = lua_newstate(limited_alloc, &mem);
  if (L == NULL) { /* 64-bit LuaJIT takes no allocator: no cap there */
    L = luaL_newstate();
    capped = 0;
  }
  if (L == NULL) return 0;
  luaL_openlibs(L);
  set_path(L);
  first = is_luajit(L) ? shared_open : luaopen_obb;
  second = first == luaopen_obb ? shared_open : luaopen_obb;
  /* package.loaded.obb = luaopen_obb("obb"), as luaL_requiref does */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "loaded");
  lua_pushcfunction(L, first);
  lua_pushliteral(L, LOBB_LIBNAME);
  lua_call(L, 1, 1);
  lua_setfield(L, -2, LOBB_LIBNAME);
  lua_pop(L, 2);
  if (luaL_loadfile(L, FUZZ_DRIVER) != LUA_OK) {
    fprintf(stderr, "fuzz_lua: cannot load driver: %s\n",
            lua_tostring(L, -1));
    abort();
  }
  lua_pushlstring(L, (const char *)data, size);
  lua_pushcfunction(L, second);
  /* The driver catches every error of the module itself; what reaches here
  ** is the driver reporting a broken rule, or memory running out outside
  ** any pcall (in the driver's own bookkeeping), which is not a finding. */
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (msg != NULL && strstr(msg, "BROKEN RULE") != NULL) {
      fprintf(stderr, "fuzz_lua: %s\n", msg);
      abort();
    }
  }
  lua_close(L);
  if (capped && mem.used != 0) {
    /* Either a real leak (LeakSanitizer then shows where it was allocated)
    ** or a free or realloc given the wrong old size, which breaks hosts
    ** whose allocators trust osize. */
    fprintf(stderr, "fuzz_lua: %zu bytes still allocated after lua_close\n",
            mem.used);
    __lsan_do_leak_check();
    abort();
  }
  return 0;
}
