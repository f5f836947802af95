rockspec_format = "3.0"
package = "obb"
version = "1.0.0-1"
source = {
   url = "git+https://example.invalid/obb.git",
   tag = "v1.0.0",
}
description = {
   summary = "Oriented bounding boxes (2D and 3D) for Lua, with the math in C",
   detailed = [[
      Construction, transform, containment and separating-axis intersection
      tests for rotated rectangles and oriented boxes, as userdata whose
      queries return plain numbers and allocate nothing.
   ]],
   license = "MIT",
   labels = { "geometry", "collision", "gamedev" },
}
dependencies = {
   "lua >= 5.1, < 5.5",
}
-- `luarocks make` then `luarocks test`: the suite against the module built
-- here, with the system's busted (Debian's lua-busted, which LuaRocks does
-- not see as a rock), by the Lua LuaRocks runs (test/luarocks_test.lua).
test = {
   type = "command",
   script = "test/luarocks_test.lua",
}
build = {
   -- On Unix LuaRocks runs the Makefile (`make rock`, the "make" build type
   -- of the unix override below), so that the module gets the flags `make`
   -- gives it, -ffp-contract=off among them (the same answers, bit for bit,
   -- on every platform: docs/precision.md), which the builtin type has no
   -- field for; CC, CFLAGS and LUA_INCDIR are LuaRocks' own. Elsewhere
   -- (Windows: untested) the builtin type builds it from this list.
   type = "builtin",
   modules = {
      obb = {
         -- Every .c under src/core/ and src/binding/, sorted; .ci/rocks.sh
         -- fails when this list and the folders differ.
         sources = {
            "src/core/obb2.c",
            "src/core/obb3.c",
            "src/core/obb_cast.c",
            "src/core/obb_cells.c",
            "src/core/obb_character.c",
            "src/core/obb_character_store.c",
            "src/core/obb_clip.c",
            "src/core/obb_contact.c",
            "src/core/obb_distance.c",
            "src/core/obb_events.c",
            "src/core/obb_exact.c",
            "src/core/obb_fit.c",
            "src/core/obb_grid.c",
            "src/core/obb_hull2.c",
            "src/core/obb_merge.c",
            "src/core/obb_move.c",
            "src/core/obb_move_pair.c",
            "src/core/obb_penetrate.c",
            "src/core/obb_prims.c",
            "src/core/obb_ray.c",
            "src/core/obb_solid.c",
            "src/core/obb_sweep.c",
            "src/core/obb_sweep_turning.c",
            "src/core/obb_tightfit2.c",
            "src/core/obb_tightfit3.c",
            "src/core/obb_tree.c",
            "src/core/obb_trig.c",
            "src/core/obb_world.c",
            "src/binding/lobb_box.c",
            "src/binding/lobb_bump.c",
            "src/binding/lobb_bump_run.c",
            "src/binding/lobb_bump_store.c",
            "src/binding/lobb_character.c",
            "src/binding/lobb_check.c",
            "src/binding/lobb_collide.c",
            "src/binding/lobb_events.c",
            "src/binding/lobb_ffi_box.c",
            "src/binding/lobb_ffi_bump.c",
            "src/binding/lobb_ffi_solid.c",
            "src/binding/lobb_ffi_world.c",
            "src/binding/lobb_jit.c",
            "src/binding/lobb_move.c",
            "src/binding/lobb_open.c",
            "src/binding/lobb_query.c",
            "src/binding/lobb_responses.c",
            "src/binding/lobb_solid.c",
            "src/binding/lobb_types.c",
            "src/binding/lobb_world.c",
            "src/binding/lobb_world_query.c",
         },
         incdirs = { "include", "src/core", "src/binding" },
      },
   },
   -- the Lua modules, on every platform: every file of lua/obb/
   -- (spec/ship_spec.lua holds this list to the folder)
   install = {
      lua = {
         -- bump.lua's world API over an obb world (README, "Coming from bump.lua")
         ["obb.bump"] = "lua/obb/bump.lua",
         ["obb.bump_obb"] = "lua/obb/bump_obb.lua",
         -- LuaJIT's FFI fast path (docs/love.md)
         ["obb.jit"] = "lua/obb/jit.lua",
         ["obb.jit_bump"] = "lua/obb/jit_bump.lua",
         ["obb.jit_sigs"] = "lua/obb/jit_sigs.lua",
         ["obb.jit_world"] = "lua/obb/jit_world.lua",
         -- loads the C module in a shipped LOVE game, and draws (docs/love.md)
         ["obb.loader"] = "lua/obb/loader.lua",
         ["obb.love"] = "lua/obb/love.lua",
         -- Tiled maps (Lua or JSON export, read as data) into worlds (docs/tiled.md)
         ["obb.mapdata"] = "lua/obb/mapdata.lua",
         ["obb.svg"] = "lua/obb/svg.lua",
         ["obb.tiled"] = "lua/obb/tiled.lua",
      },
   },
   -- A Windows DLL exports only what OBB_API marks when OBB_BUILD_DLL is
   -- defined (include/obb.h), as obb.so exports only the public API.
   platforms = {
      unix = {
         type = "make",
         build_target = "rock",
         build_variables = {
            CC = "$(CC)",
            CFLAGS = "$(CFLAGS)",
            LUA_INCDIR = "$(LUA_INCDIR)",
         },
         install_pass = false,
         install = { lib = { obb = "build/luarocks/obb.so" } },
      },
      windows = { modules = { obb = { defines = { "OBB_BUILD_DLL" } } } },
   },
}
