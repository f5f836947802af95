-- Finalizers that call obb while the state closes end normally: LuaJIT's
-- lua_close runs finalizers again after it has unloaded the C modules
-- (FreeLibrary on Windows), so the module pins itself (lobb_jit.c,
-- pin_self). spec/hostile4_spec.lua checks the same on Linux; this is its
-- child, for make test-windows (prints "closing", then must exit with 0).
local obb = require "obb"
local other = obb.new2(1000, 2000, 3, 4, 0.5)
local w = obb.world2(); w:add(1, 0, 0, 1, 1)
local n = 0
local function arm()
  local function f()
    n = n + 1
    other:corners(); w:get(1); w:check(1, 3, 0)
    if n < 100 then arm() end
  end
  if rawget(_G, "newproxy") then getmetatable(newproxy(true)).__gc = f
  else setmetatable({}, { __gc = f }) end
end
arm()
print("closing")
