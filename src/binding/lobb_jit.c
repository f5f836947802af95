/*
** lobb_jit.c: the C half of the LuaJIT FFI fast path (lua/obb/jit.lua):
** which file this module was loaded from, the way require found it.
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

void lobb_pushselfpath(lua_State *L) {
#if (defined(__unix__) || defined(__APPLE__)) && defined(RTLD_NOLOAD)
  int (*self)(lua_State *) = luaopen_obb;
  void *addr, *h;
  Dl_info info;
  /* ISO C has no conversion from a function pointer to void *; POSIX
  ** (dlsym) guarantees the two have one representation. */
  memcpy(&addr, &self, sizeof addr);
  if (dladdr(addr, &info) && info.dli_fname != NULL &&
      info.dli_fname[0] != '\0') {
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h != NULL) {
      int same = dlsym(h, "luaopen_obb") == addr;
      dlclose(h);
      if (same) {
        lua_pushstring(L, info.dli_fname);
        return;
      }
    }
  }
#endif
  lua_pushnil(L);
}
