/*
** lobb_jit.c: the start of the LuaJIT FFI fast path (lua/obb/jit.lua):
** handing obb.jit the module table and the addresses of the functions it
** calls: the core's, and the entry points the binding's internal
** lobb_ffi.h declares, in lobb_ffi_box.c (boxes), lobb_ffi_world.c
** (worlds) and lobb_ffi_bump.c (obb.bump's). Being handed them, rather
** than finding the module's file and opening it again, obb.jit can only
** ever call this copy of obb, and needs no file at all; and the entry
** points need not be exported (lobb_ffi.h hides them).
*/
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD and RTLD_NODELETE in glibc */
#endif
#include <string.h>

#include "lobb.h"
#include "lobb_ffi.h"
#include "lobb_jit.h"
#include "obb.h"

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

/* glibc 2.34 moved dladdr, dlopen and dlclose from libdl into libc under a
** new version, GLIBC_2.34, which a module built there would need: it
** would not load on an older glibc. libc still exports them under the
** architecture's first version, the one libdl has always had, so they are
** bound to that: the module needs nothing newer than glibc 2.17 (`make
** check-imports`; docs/precision.md). Weak, because a fully static
** program has no versioned libc to bind them to: it gets none, and pins
** nothing, having nothing that could be unloaded. Other C libraries,
** other architectures (whose first versions differ) and other systems
** keep the plain declarations. (Only pin_self, below, under LuaJIT and
** Lua 5.1, calls them.) */
#if LUA_VERSION_NUM == 501 && defined(__GLIBC__) && !defined(__UCLIBC__) && \
    defined(__ELF__) && \
    ((defined(__x86_64__) && !defined(__ILP32__)) || defined(__aarch64__))
#if defined(__x86_64__)
#define LOBB_DL_VERSION "GLIBC_2.2.5"
#else
#define LOBB_DL_VERSION "GLIBC_2.17"
#endif
#define LOBB_DL_WEAK 1
extern __typeof__(dladdr) dladdr __attribute__((weak));
extern __typeof__(dlopen) dlopen __attribute__((weak));
extern __typeof__(dlclose) dlclose __attribute__((weak));
__asm__(".symver dladdr,dladdr@" LOBB_DL_VERSION);
__asm__(".symver dlopen,dlopen@" LOBB_DL_VERSION);
__asm__(".symver dlclose,dlclose@" LOBB_DL_VERSION);
#endif

#if LUA_VERSION_NUM == 501
/* The functions obb.jit declares (its cdef, lua/obb/jit_sigs.lua), by
** name: it calls them through these pointers, never by looking the module
** up again, so the fast path works wherever luaopen_obb runs (a shared
** object under any name or path, a fused LÖVE game, Windows, a host that
** links obb statically and registers luaopen_obb in package.preload).
** obb.jit refuses to install unless this list and its cdef agree. */
typedef void (*any_fn)(void);
#define ENTRY(f) {#f, (any_fn)f}
static const struct {
  const char *name;
  any_fn fn;
} entries[] = {
  ENTRY(obb2_set_angle), ENTRY(obb2_angle), ENTRY(obb2_translate),
  ENTRY(obb2_rotate), ENTRY(obb2_contains_point), ENTRY(obb2_contains_box),
  ENTRY(obb2_corners), ENTRY(obb3_init), ENTRY(obb3_set_rotation),
  ENTRY(obb3_rotation), ENTRY(obb3_translate), ENTRY(obb3_rotate),
  ENTRY(obb3_contains_point), ENTRY(obb3_contains_box), ENTRY(obb3_corners),
  ENTRY(obb2_raycast), ENTRY(obb3_raycast), ENTRY(obb2_closest_point),
  ENTRY(obb2_distance_point), ENTRY(obb3_closest_point),
  ENTRY(obb3_distance_point), ENTRY(obb2_distance), ENTRY(obb3_distance),
  ENTRY(obb2_intersects_circle), ENTRY(obb3_intersects_sphere),
  ENTRY(obb2_overlaps), ENTRY(obb3_overlaps), ENTRY(obb2_penetration),
  ENTRY(obb3_penetration),
  ENTRY(lobb_ffi_world_update), ENTRY(lobb_ffi_world_reserve),
  ENTRY(lobb_ffi_world_get), ENTRY(lobb_ffi_world_character),
  ENTRY(lobb_ffi_world_move),
  ENTRY(lobb_ffi_world_move_ask), ENTRY(lobb_ffi_world_answer),
  ENTRY(lobb_ffi_world_drop),
  ENTRY(lobb_ffi_world_commit), ENTRY(lobb_ffi_world_recommit),
  ENTRY(lobb_ffi_world_cast),
  ENTRY(lobb_ffi_world_cast_turning), ENTRY(lobb_ffi_world_query_box),
  ENTRY(lobb_ffi_world_query_point), ENTRY(lobb_ffi_world_raycast),
  ENTRY(lobb_ffi_world_events), ENTRY(lobb_ffi_world_events_done),
  ENTRY(lobb_ffi_intersects2),
  ENTRY(lobb_ffi_intersects3), ENTRY(lobb_ffi_sweep2), ENTRY(lobb_ffi_sweep3),
  ENTRY(lobb_ffi_bump_rect), ENTRY(lobb_ffi_bump_update),
  ENTRY(lobb_ffi_bump_check),
  ENTRY(lobb_ffi_world_move_solid), ENTRY(lobb_ffi_world_redo_solid),
};

/* A table of the entries, name -> light userdata holding the function's
** address (ISO C has no conversion from a function pointer to void *;
** POSIX and Windows give both one representation). */
static void push_entries(lua_State *L) {
  size_t i;
  lua_createtable(L, 0, (int)(sizeof entries / sizeof entries[0]));
  for (i = 0; i < sizeof entries / sizeof entries[0]; i++) {
    void *p;
    memcpy(&p, &entries[i].fn, sizeof p);
    lua_pushlightuserdata(L, p);
    lua_setfield(L, -2, entries[i].name);
  }
}

/* Keeps this object loaded until the process ends: LuaJIT's lua_close
** runs finalizers again, up to ten rounds, after the first round has
** unloaded the C modules, and a finalizer made during the first that
** calls obb would jump into unmapped code (a script's own proxies can do
** that). dlopen of the object's own file with RTLD_NODELETE pins it; on
** Windows, GetModuleHandleEx's PIN flag on the DLL holding this function
** (FreeLibrary then leaves it mapped). */
static void pin_self(void) {
#if (defined(__unix__) || defined(__APPLE__)) && defined(RTLD_NODELETE) && \
    defined(RTLD_NOLOAD)
  int (*self)(lua_State *) = luaopen_obb;
  void *addr, *h;
  Dl_info info;
  memcpy(&addr, &self, sizeof addr);
#if defined(LOBB_DL_WEAK)
  if (dladdr == NULL || dlopen == NULL || dlclose == NULL) return;
#endif
  if (dladdr(addr, &info) && info.dli_fname != NULL &&
      info.dli_fname[0] != '\0') {
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    if (h != NULL) dlclose(h); /* pinned all the same */
  }
#elif defined(_WIN32)
  int (*self)(lua_State *) = luaopen_obb;
  void *addr;
  HMODULE h;
  memcpy(&addr, &self, sizeof addr);
  (void)GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_PIN,
                           (LPCSTR)addr, &h);
#endif
}
#endif

#if LUA_VERSION_NUM == 501
/* Pushes "classic: " followed by the value at idx, if it is a string or a
** number, or by what names it otherwise (an error object may be any
** value), and then that reason alone: two strings. */
static void push_classic(lua_State *L, int idx) {
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) {
    lua_pushvalue(L, idx);
    (void)lua_tostring(L, -1); /* a number into a string, on the copy */
  } else {
    lua_pushfstring(L, "an error object of type %s",
                    lua_typename(L, lua_type(L, idx)));
  }
  lua_pushliteral(L, "classic: ");
  lua_pushvalue(L, -2);
  lua_concat(L, 2);
  lua_insert(L, -2); /* status, reason */
}

/* obb.jit could not be loaded (the reason at the top, popped): the
** module's jit_status says why, and package.loaded["obb.jit"] (at loaded,
** or 0 when there is no package.loaded) becomes a table with the same
** status and reason, in place of whatever the failed require left there
** (LuaJIT's require leaves a sentinel when a module raises, and a later
** require("obb.jit") would then raise "loop or previous error loading
** module" instead of saying why). */
static void jit_unavailable(lua_State *L, int lib, int loaded) {
  int why = lua_gettop(L);
  push_classic(L, why); /* status, reason */
  lua_pushvalue(L, -2);
  lua_setfield(L, lib, "jit_status");
  if (loaded != 0) {
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "status");
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "reason");
    lua_pushliteral(L, "obb.jit");
    lua_insert(L, -2);
    lua_rawset(L, loaded);
  }
  lua_settop(L, why - 1);
}
#endif

/* Under LuaJIT, obb.jit replaces the hot methods by FFI calls into this
** object, given the module table at lib and the entries above. obb.jit
** absent, or false in package.loaded, OBB_NO_FFI=1, no ffi, or any error
** keeps the classic functions: nothing here can fail the require. The
** module's field jit_status then says which path runs and why: obb.jit's
** status ("ffi", or "classic: " and the reason), or, when obb.jit itself
** could not be loaded (a shipped game without one of its files, or with
** one that raises), "classic: " and that error, which obb.jit's stand-in
** in package.loaded says too (jit_unavailable). On Lua 5.1 to 5.4 (no
** global jit), "classic: not LuaJIT", and obb.jit is not loaded.
**
** install also gets the real metatables (of boxes, worlds and, last,
** response sets; getmetatable gives only the method tables, and a script
** can give its own userdata a __metatable naming them): obb.jit
** recognises a box, a world or a set by the metatable debug.getmetatable
** sees, which no script can give a userdata without
** the debug library. And it gets the second half of its add, a C function,
** so that the world is marked busy only inside one C call, as the classic
** add marks it, never across Lua code that could raise in between. */
void lobb_open_jit(lua_State *L, int lib, int mt2, int mt3, int mtw,
                   int mtr, int ffi_add) {
#if LUA_VERSION_NUM == 501 /* LuaJIT's lua.h says 5.1 too */
  int top = lua_gettop(L), loaded = 0, jit;
  pin_self();
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED"); /* package.loaded */
  if (lua_istable(L, -1)) {
    loaded = lua_gettop(L);
    lua_pushliteral(L, "obb.jit"); /* false: the user said no */
    lua_rawget(L, loaded);
    if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
      lua_pushliteral(L, "classic: package.loaded[\"obb.jit\"] is false");
      lua_setfield(L, lib, "jit_status");
      lua_settop(L, top);
      return;
    }
    lua_pop(L, 1);
  }
  /* globals read raw, as obb.jit reads them: no __index of _G runs here */
  lua_pushliteral(L, "jit"); /* Lua 5.1 is 501 too: not LuaJIT, as obb.jit says */
  lua_rawget(L, LUA_GLOBALSINDEX);
  if (lua_isnil(L, -1)) {
    lua_pushliteral(L, "classic: not LuaJIT");
    lua_setfield(L, lib, "jit_status");
    lua_settop(L, top);
    return;
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "require");
  lua_rawget(L, LUA_GLOBALSINDEX);
  if (!lua_isfunction(L, -1)) {
    lua_pushliteral(L, "no function require");
    jit_unavailable(L, lib, 0);
    lua_settop(L, top);
    return;
  }
  lua_pushliteral(L, "obb.jit");
  if (lua_pcall(L, 1, 1, 0) != 0) {
    jit_unavailable(L, lib, loaded);
    lua_settop(L, top);
    return;
  }
  if (!lua_istable(L, -1)) {
    lua_pushfstring(L, "require(\"obb.jit\") gave a %s, not a table",
                    lua_typename(L, lua_type(L, -1)));
    jit_unavailable(L, lib, loaded);
    lua_settop(L, top);
    return;
  }
  jit = lua_gettop(L);
  lua_getfield(L, jit, "install");
  lua_pushvalue(L, lib);
  push_entries(L);
  lua_pushvalue(L, mt2);
  lua_pushvalue(L, mt3);
  lua_pushvalue(L, mtw);
  lua_pushvalue(L, ffi_add);
  lua_pushvalue(L, mtr);
  if (lua_pcall(L, 7, 0, 0) != 0) { /* install never raises; a stranger might */
    push_classic(L, -1);
    lua_setfield(L, jit, "reason");
    lua_setfield(L, jit, "status");
    lua_pop(L, 1);
  }
  lua_getfield(L, jit, "status");
  if (lua_type(L, -1) != LUA_TSTRING) {
    lua_pop(L, 1);
    lua_pushliteral(L, "classic: obb.jit.status is not a string");
  }
  lua_setfield(L, lib, "jit_status");
  lua_settop(L, top);
#else
  lua_pushliteral(L, "classic: not LuaJIT");
  lua_setfield(L, lib, "jit_status");
  (void)mt2;
  (void)mt3;
  (void)mtw;
  (void)mtr;
  (void)ffi_add;
#endif
}
