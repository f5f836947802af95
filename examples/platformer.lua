-- platformer.lua: a platformer's player moved by world:move.
--
-- The player is an item of a world that also holds the level's solids. Each
-- frame it runs right, falls under gravity and sometimes jumps: its velocity
-- gives a goal, and world:move sweeps its box there, sliding along what it
-- meets (the default response), so it never passes through a solid nor
-- ends a frame inside one, however fast it goes. Then the part of the
-- velocity that points into each collision's normal is removed (obb.clip),
-- and a normal pointing mostly up means the player stands on something, so
-- it may jump: that is how one call handles floors, walls, ceilings and a
-- tilted ramp. The script checks itself: the player reaches the flag,
-- stands on the ramp on the way, and never ends a frame inside a solid.
-- (examples/love-platformer/ is the same idea as a LÖVE game.)
--
--   lua examples/platformer.lua [picture.svg]   (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local DT, GRAVITY, RUN, JUMP = 1 / 60, -30, 6, 13
local FLAG_X = 44
local S = obb.MOVE_STRIDE2 -- the numbers per collision in out

-- The level: ground with a gap, a 20 degree ramp up to a ledge, a floating
-- platform, a low ceiling block and a last piece of ground under the flag.
local solids = {
  { name = "ground", box = obb.from_aabb2(-5, -1, 14, 0) },
  { name = "ramp", box = obb.new2(18, 0.9, 5, 0.5, math.rad(20)) },
  { name = "ledge", box = obb.from_aabb2(22, 0, 30, 2.6) },
  { name = "platform", box = obb.from_aabb2(31, 4, 35, 4.5) },
  { name = "ceiling", box = obb.from_aabb2(24, 6.2, 28, 7) },
  { name = "far ground", box = obb.from_aabb2(34, -1, 50, 0) },
}
local world = obb.world2()
for _, s in ipairs(solids) do world:add(s, s.box) end

local player = { name = "player", box = obb.new2(0, 0.75, 0.4, 0.75) }
world:add(player, player.box)
local vx, vy -- set each frame: vx by the input, vy by gravity and jumps
vy = 0
local grounded_on, stood_on = nil, {}
local worst_depth, trail = 0, {}
local out, hits = {}, {} -- reused every frame: no garbage

for frame = 1, 60 * 20 do
  -- input: always run right; jump when standing, every 50 frames
  vx = RUN
  if grounded_on and (frame % 50 == 0) then vy = JUMP end
  vy = vy + GRAVITY * DT

  -- the move: from the center toward center + velocity * DT
  local x, y = world:get(player)
  local n
  x, y, n = world:move(player, x + vx * DT, y + vy * DT, nil, out)
  grounded_on = nil
  for i = 0, n - 1 do
    local other, nx, ny = out[i * S + 1], out[i * S + 4], out[i * S + 5]
    vx, vy = obb.clip(vx, vy, nx, ny) -- no velocity left into what it met
    if ny > 0.7 then -- pushed up: standing on it
      grounded_on = other.name
      stood_on[other.name] = stood_on[other.name] or frame
    end
  end

  -- the check: how deep the player ends in any solid (push-out vectors)
  for i = 0, world:collisions(player, hits) - 1 do
    local dx, dy = hits[3 * i + 2], hits[3 * i + 3]
    local depth = math.sqrt(dx * dx + dy * dy)
    if depth > worst_depth then worst_depth = depth end
  end

  world:get(player, player.box)
  if frame % 30 == 0 then trail[#trail + 1] = player.box:clone() end
  if frame % 60 == 0 then
    print(string.format("t = %4.1f s  player at (%6.2f, %5.2f)  %s", frame * DT, x, y,
                        grounded_on and ("on the " .. grounded_on) or "in the air"))
  end
  assert(y > -10, "the player fell out of the level")
  if x >= FLAG_X then
    print(string.format("reached the flag at t = %.2f s", frame * DT))
    break
  end
end

local x = world:get(player)
assert(x >= FLAG_X, "the player did not reach the flag")
assert(stood_on.ramp, "the player never stood on the ramp")
assert(stood_on.ledge and stood_on["far ground"], "the player skipped part of the level")
assert(worst_depth < 1e-9, "the player ended a frame inside a solid, depth " .. worst_depth)
print(string.format("platformer: ok (first stood on the ramp at frame %d; deepest overlap left: %.1e)",
                    stood_on.ramp, worst_depth))

if arg and arg[1] then
  local svg = require "obb.svg"
  local pic = svg.new { width = 800, title = "platformer: the run, a box every half second" }
  for _, s in ipairs(solids) do pic:box(s.box, { stroke = "#555555", fill = "#999999", axes = false }) end
  for _, b in ipairs(trail) do pic:box(b, { axes = false }) end
  pic:box(player.box, "colliding")
  assert(pic:write(arg[1]))
end
