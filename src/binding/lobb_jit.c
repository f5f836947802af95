/*
** lobb_jit.c: the start of the LuaJIT FFI fast path (lua/obb/jit.lua):
** handing the module table to obb.jit, with the file this module was
** loaded from, the way require found it. The entry points obb.jit calls
** are lobb_ffi_box.c's and lobb_ffi_world.c's.
**
** package.searchpath could name another copy of obb.so (a different
** directory first on the path, a loader of the host's own such as LOVE's),
** whose functions would then read boxes made by this one. dladdr names the
** object the code runs from; asking the dynamic loader for that name again
** (RTLD_NOLOAD: only if it is loaded already) and finding luaopen_obb at
** the same address proves ffi.load(name) binds to this object.
*/
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dladdr and RTLD_NOLOAD in glibc */
#endif
#include <string.h>

#include "lobb.h"
#include "lobb_jit.h"

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#endif

#if LUA_VERSION_NUM == 501
#if defined(RTLD_NODELETE)
#define PIN RTLD_NODELETE
#else
#define PIN 0
#endif

/* The file this object was loaded from, or NULL. Asking for it pins the
** object (RTLD_NODELETE): LuaJIT's lua_close runs finalizers again, up to
** ten rounds, after the first round has unloaded the C modules, and a
** finalizer made during the first that calls obb would jump into unmapped
** code (a script's own proxies can do that). */
static const char *self_path(void) {
#if (defined(__unix__) || defined(__APPLE__)) && defined(RTLD_NOLOAD)
  int (*self)(lua_State *) = luaopen_obb;
  void *addr, *h;
  Dl_info info;
  /* ISO C has no conversion from a function pointer to void *; POSIX
  ** (dlsym) guarantees the two have one representation. */
  memcpy(&addr, &self, sizeof addr);
  if (dladdr(addr, &info) && info.dli_fname != NULL &&
      info.dli_fname[0] != '\0') {
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | PIN);
    if (h != NULL) {
      int same = dlsym(h, "luaopen_obb") == addr;
      dlclose(h); /* pinned all the same */
      if (same) return info.dli_fname;
    }
  }
#endif
  return NULL;
}
#endif

/* Under LuaJIT, obb.jit replaces the hot methods by FFI calls into this
** object, given the module table at lib and this object's file. obb.jit
** absent, or false in package.loaded, OBB_NO_FFI=1, no ffi, or any error
** keeps the classic functions: nothing here can fail the require.
**
** install also gets the real metatables (getmetatable gives only the
** method tables, and a script can give its own userdata a __metatable
** naming them): obb.jit recognises a box or a world by the metatable
** debug.getmetatable sees, which no script can give a userdata without
** the debug library. And it gets the second half of its add, a C function,
** so that the world is marked busy only inside one C call, as the classic
** add marks it, never across Lua code that could raise in between. */
void lobb_open_jit(lua_State *L, int lib, int mt2, int mt3, int mtw,
                   int ffi_add) {
#if LUA_VERSION_NUM == 501 /* LuaJIT's lua.h says 5.1 too */
  int top = lua_gettop(L);
  const char *path = self_path(); /* first: it pins the object */
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED"); /* package.loaded */
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "obb.jit"); /* false: the user said no */
    if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
      lua_settop(L, top);
      return;
    }
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "obb.jit");
  if (lua_isfunction(L, -2) && lua_pcall(L, 1, 1, 0) == 0 &&
      lua_istable(L, -1)) {
    lua_getfield(L, -1, "install");
    lua_pushvalue(L, lib);
    if (path != NULL) lua_pushstring(L, path);
    else lua_pushnil(L);
    lua_pushvalue(L, mt2);
    lua_pushvalue(L, mt3);
    lua_pushvalue(L, mtw);
    lua_pushvalue(L, ffi_add);
    (void)lua_pcall(L, 6, 0, 0);
  }
  lua_settop(L, top);
#else
  (void)L;
  (void)lib;
  (void)mt2;
  (void)mt3;
  (void)mtw;
  (void)ffi_add;
#endif
}
