/*
** lobb_jit.h: what the LuaJIT FFI fast path (lua/obb/jit.lua) needs from
** the C side (internal; lobb_jit.c).
*/
#ifndef LOBB_JIT_H
#define LOBB_JIT_H

#include "lua.h"

/* Pushes the file name of the shared object that holds luaopen_obb, or nil
** when there is none to hand to ffi.load: a platform without dladdr, or a
** module linked into the host program (a preloaded module, an embedding
** engine). The name is given only when loading it again is sure to give
** this very object, so the FFI calls the same code as the binding. */
void lobb_pushselfpath(lua_State *L);

#endif
