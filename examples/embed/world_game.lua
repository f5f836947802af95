-- world_game.lua: the script half of examples/embed/world_host.c.
--
-- The engine makes a world in C (lobb_pushworld), fills it from C and
-- hands it to these functions; the script moves the player through it with
-- a response set (by the classes the engine gave in C), picks up the
-- coins it crosses, and the engine reads the results back in C.

local obb = require "obb"

local COIN = 2 -- the class the engine gives its coins (obb_world_set_class)
local RESPONSES = obb.responses { [COIN] = "cross" } -- the rest: "slide"
local STRIDE, OTHER, RESPONSE = obb.MOVE2.stride, obb.MOVE2.other, obb.MOVE2.response
local out = {}

-- Under LuaJIT the world's methods run on the FFI fast path here too.
if rawget(_G, "jit") and os.getenv("OBB_NO_FFI") == nil then
  assert(obb.jit_status == "ffi", "the fast path is off in a static host: " .. obb.jit_status)
end

-- step(world, player, dx, dy) -> x, y, coins: moves the player by (dx, dy)
-- and removes every coin it crossed from the world.
function step(world, player, dx, dy)
  assert(obb.type(world) == "world2", "the engine's world is a 2D world")
  local x, y = world:get(player)
  local ax, ay, n = world:move(player, x + dx, y + dy, RESPONSES, out)
  local coins = 0
  for i = 0, n - 1 do
    local other = out[i * STRIDE + OTHER]
    if out[i * STRIDE + RESPONSE] == "cross" and world:class(other) == COIN then
      world:remove(other)
      coins = coins + 1
    end
  end
  return ax, ay, coins
end

-- look(world, item) -> x, y: where the script sees an item the engine
-- moves in C.
function look(world, item)
  local x, y = world:get(item)
  return x, y
end

-- add_from_filter(world) -> the error the engine's host_add raised when
-- called from a query's filter (the world is locked then).
function add_from_filter(world)
  local err
  world:query_point(0, -1, {}, function() -- inside the floor
    local ok, e = pcall(host_add, world, "from a filter")
    if not ok then err = e end
    return true
  end)
  return err
end

-- done(world): the script closes the world; the engine must not use its
-- obb_world from then on (lobb_testworld gives NULL).
function done(world)
  world:close()
end
