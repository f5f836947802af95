-- make dist-check: run by each platform's interpreter (or its emulator)
-- with package.path and package.cpath pointing into one unpacked archive
-- and nowhere else, so the obb it finds is the archive's: loads it and
-- checks a few answers, the Lua layer and, under LuaJIT, the FFI path.
local obb = require "obb"
local a, b = obb.new2(0, 0, 1, 1), obb.new2(2, 0, 1, 1)
assert(a:intersects(b), "touching boxes intersect")
local w = obb.world2()
w:add("wall", 5, 0, 1, 4)
w:add("p", 0, 0, 1, 1)
local x, y, n = w:move("p", 10, 0)
assert(x == 3 and y == 0 and n == 1, "the mover stops at the wall")
local bump = require "obb.bump"
local bw = bump.newWorld()
bw:add("wall", 10, 0, 10, 10)
bw:add("p", 0, 0, 5, 5)
assert(bw:move("p", 20, 0) == 5, "obb.bump slides to the wall")
local status = "-"
if rawget(_G, "jit") then
  status = require("obb.jit").status
  assert(status == "ffi", "LuaJIT takes the FFI path: " .. tostring(status))
  assert(obb.jit_status == "ffi", "obb.jit_status says so: " .. tostring(obb.jit_status))
else
  assert(obb.jit_status == "classic: not LuaJIT", "obb.jit_status: " .. tostring(obb.jit_status))
end
print(("dist: obb %s on %s, %s"):format(obb._VERSION, _VERSION, status))
