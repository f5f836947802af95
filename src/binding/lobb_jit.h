/*
** lobb_jit.h: the start of the LuaJIT FFI fast path (internal;
** lobb_jit.c).
*/
#ifndef LOBB_JIT_H
#define LOBB_JIT_H

#include "lua.h"

/* Under LuaJIT, hands the module table at lib, the metatables at mt2,
** mt3, mtw (boxes, worlds) and mtr (response sets) and the FFI add's
** second half at ffi_add (lobb_ffi_world.c) to obb.jit (lua/obb/jit.lua),
** which installs the FFI-backed methods; elsewhere, or when anything
** fails, keeps the classic ones. Never raises (but for memory); sets the
** module's jit_status to "ffi" or "classic: " and the reason, and leaves
** no sentinel of a failed require in package.loaded. */
void lobb_open_jit(lua_State *L, int lib, int mt2, int mt3, int mtw,
                   int mtr, int ffi_add);

#endif
