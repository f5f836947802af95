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
test = {
   type = "busted",
}
build = {
   type = "builtin",
   modules = {
      obb = {
         sources = {
            "src/obb2.c",
            "src/obb3.c",
            "src/obb_fit.c",
            "src/lobb.c",
            "src/lobb_obb2.c",
            "src/lobb_obb3.c",
         },
         incdirs = { "src" },
         libraries = { "m" },
      },
   },
}
