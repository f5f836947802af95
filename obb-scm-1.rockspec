rockspec_format = "3.0"
package = "obb"
version = "scm-1"
source = {
   url = "git+https://example.invalid/obb.git",
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
test_dependencies = {
   "busted",
}
-- `luarocks make` then `luarocks test`: the suite against the module built
-- here (the "luarocks" task in .busted).
test = {
   type = "busted",
   flags = { "--run=luarocks" },
}
build = {
   type = "builtin",
   modules = {
      obb = {
         sources = {
            "src/obb2.c",
            "src/obb3.c",
            "src/obb_fit.c",
            "src/obb_trig.c",
            "src/obb_hull2.c",
            "src/obb_tightfit2.c",
            "src/obb_tightfit3.c",
            "src/lobb.c",
            "src/lobb_obb2.c",
            "src/lobb_obb3.c",
            "src/obb_ray.c",
            "src/obb_distance.c",
            "src/obb_prims.c",
            "src/obb_merge.c",
            "src/lobb_query.c",
            "src/obb_penetrate.c",
            "src/obb_contact.c",
            "src/obb_sweep.c",
            "src/lobb_collide.c",
            "src/obb_tree.c",
            "src/obb_world.c",
            "src/obb_grid.c",
            "src/lobb_world.c",
         },
         incdirs = { "src" },
         libraries = { "m" },
      },
      ["obb.svg"] = "lua/obb/svg.lua",
   },
}
