-- platformer.lua: a platformer's push-out, with penetration vectors.
--
-- The player is a box that runs right, falls under gravity and jumps. After
-- each move it is pushed out of every solid it overlaps by the minimum
-- translation, box:penetration(solid) -> nx, ny, depth, and the part of its
-- velocity that points into the solid is removed. A push whose normal
-- points mostly up means the player stands on something, so it may jump:
-- that is how one test handles floors, walls, ceilings and a tilted ramp.
-- The script checks itself: the player reaches the flag, stands on the
-- ramp on the way, and never ends a frame inside a solid.
--
--   lua examples/platformer.lua [picture.svg]   (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local DT, GRAVITY, RUN, JUMP = 1 / 60, -30, 6, 13
local FLAG_X = 44

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

local player = obb.new2(0, 0.75, 0.4, 0.75)
local vx, vy -- set each frame: vx by the input, vy by gravity and jumps
vy = 0
local grounded_on, stood_on = nil, {}
local worst_depth, trail = 0, {}

for frame = 1, 60 * 20 do
  -- input: always run right; jump when standing and something is ahead
  vx = RUN
  if grounded_on and (frame % 50 == 0) then vy = JUMP end
  vy = vy + GRAVITY * DT
  player:translate(vx * DT, vy * DT)

  -- push-out: a few passes, since leaving one solid can touch another
  grounded_on = nil
  for _ = 1, 3 do
    local moved = false
    for _, s in ipairs(solids) do
      local nx, ny, depth = player:penetration(s.box)
      if depth and depth > 0 then
        player:translate(nx * depth, ny * depth)
        moved = true
        local into = vx * nx + vy * ny -- velocity component into the solid
        if into < 0 then vx, vy = vx - into * nx, vy - into * ny end
      end
      if nx and ny > 0.7 then -- touching or pushed up: standing on it
        grounded_on = s.name
        stood_on[s.name] = stood_on[s.name] or frame
      end
    end
    if not moved then break end
  end
  for _, s in ipairs(solids) do
    local _, _, depth = player:penetration(s.box)
    if depth and depth > worst_depth then worst_depth = depth end
  end

  local x, y = player:center()
  if frame % 30 == 0 then trail[#trail + 1] = player:clone() end
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

local x = player:center()
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
  pic:box(player, "colliding")
  assert(pic:write(arg[1]))
end
