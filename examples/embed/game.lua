-- game.lua: the script half of examples/embed/host.c.
--
-- The engine calls frame() once a frame with boxes it made in C. The
-- script answers with plain values and moves the player in place; the
-- engine reads the player back. `obb` here is the engine's preloaded copy.

local obb = require "obb"

-- Under LuaJIT (`make embed-test LUA=luajit`) the engine's copy, linked
-- in and preloaded, has no file: its FFI fast path is on all the same
-- (luaopen_obb hands obb.jit its functions' addresses).
if rawget(_G, "jit") and os.getenv("OBB_NO_FFI") == nil then
  local status = require("obb.jit").status
  assert(status == "ffi", "the fast path is off in a static host: " .. status)
  print("embed host: LuaJIT's FFI fast path on, obb linked in")
end

-- frame(n, player, walls, crate, probe) -> walls hit, probe touches crate
function frame(_, player, walls, crate, probe)
  assert(obb.type(player) == "obb2" and obb.type(crate) == "obb3")
  local hits = 0
  for i = 1, #walls do
    if player:intersects(walls[i]) then hits = hits + 1 end
  end
  if hits > 0 then
    -- The player only drives right, so it can only hit the right wall:
    -- move it left until its bounding box clears the wall's left face.
    local _, _, maxx = player:aabb()
    local wall_minx = walls[4]:aabb()
    player:translate(wall_minx - maxx - 1e-6, 0)
  end
  return hits, probe:intersects(crate)
end
