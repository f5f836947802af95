-- characters.lua: the options of world:set_character, one panel each.
--
-- In each a player (a 0.5 x 1 box) is stepped as a game steps it, in a
-- world whose up is +y (its slope the default 45 degrees): gravity 30, a
-- walking speed, one world:move a frame at 60 Hz. Each scene is run twice:
-- with the option (green: the box every few frames, faint, and where it
-- ends) and without it (orange, dashed); where the player started is blue,
-- dashed:
--   snap           walking over a crest and down a 35 degree ramp, it
--                  stays on the surface; without, it flies off the crest;
--   stop_on_slope  standing on a 38 degree ramp for 2 seconds, it stays
--                  put; without, it creeps down;
--   step           walking into a ledge of the step height, it steps up;
--                  without, it stops at the ledge;
--   corner         jumping straight up under a ledge whose end is over its
--                  side by less than corner, it is nudged aside and goes
--                  up past it; without, it bonks its head;
--   block_on_wall  walking into a 60 degree ramp (steeper than a floor),
--                  it does not climb; without, it slides up it.
-- The script checks each against the rule it shows.
--
--   lua examples/characters.lua [picture.svg]   (make examples runs it;
--   make docs-images draws docs/characters.svg)
local obb = require "obb"

local svg_path = arg and arg[1]
local pic = svg_path and require("obb.svg").new { width = 960 }

local GRAVITY, DT = 30, 1 / 60
local HW, HH = 0.25, 0.5 -- the player's half extents
local GAP = 8            -- panel width, world units

local WITH = { stroke = "#1a7f37", fill = "#1a7f37", fill_opacity = 0.04, width = 0.75, axes = false }
local WITH_END = { stroke = "#1a7f37", fill = "#1a7f37", fill_opacity = 0.3, width = 1.5, axes = false }
local WITHOUT = { stroke = "#ff7f0e", fill = "none", width = 0.75, dash = "3 2", axes = false }
local WITHOUT_END = { stroke = "#ff7f0e", fill = "#ff7f0e", fill_opacity = 0.15, width = 1.5, dash = "4 3",
                      axes = false }
local START = { stroke = "#1f77b4", fill = "none", width = 1, dash = "2 2", axes = false }
local STATIC = { stroke = "#555555", fill = "#555555", fill_opacity = 0.25, axes = false }

-- A slab whose top face goes from (x0, y0) at angle a (radians,
-- counter-clockwise) for length len, thick thick.
local function slab(w, name, x0, y0, a, len, thick)
  local c, s = math.cos(a), math.sin(a)
  local hl, ht = len / 2, thick / 2
  w:add(name, x0 + hl * c + ht * s, y0 + hl * s - ht * c, hl, ht, a)
end

-- A scene: a world with up +y, its statics (each { name, add } where add
-- adds it), and a player at (x, y) made a character with options.
local function scene(statics, x, y, options)
  local w = obb.world2 { up = { 0, 1 } }
  for _, s in ipairs(statics) do s[2](w, s[1]) end
  local p = { x = x, y = y, vy = 0, path = {} }
  w:add("player", x, y, HW, HH)
  w:set_character("player", options)
  -- one frame: walking at vx, jumping at vy = jump when given; on a floor
  -- nothing down, gravity added
  function p.step(vx, jump)
    if jump then p.vy = jump elseif w:is_on_floor("player") then p.vy = 0 end
    p.vy = p.vy - GRAVITY * DT
    p.x, p.y = w:move("player", p.x + vx * DT, p.y + p.vy * DT)
    p.path[#p.path + 1] = { p.x, p.y }
  end
  p.world, p.statics = w, statics
  return p
end

local function box_at(x, y) return obb.new2(x, y, HW, HH) end

-- Draws a panel: the statics, where the player started, both runs.
local function draw(title, ox, with, without, every)
  if not pic then return end
  for _, s in ipairs(with.statics) do pic:box(with.world:get(s[1], obb.new2(0, 0, 1, 1)), STATIC) end
  for _, run in ipairs({ { without, WITHOUT, WITHOUT_END }, { with, WITH, WITH_END } }) do
    local p, st, last = run[1], run[2], run[3]
    for i = every, #p.path - 1, every do pic:box(box_at(p.path[i][1], p.path[i][2]), st) end
    -- the path of its center, a segment every 0.15 or so
    local px, py = p.start[1], p.start[2]
    for i = 1, #p.path do
      local q = p.path[i]
      if (q[1] - px) ^ 2 + (q[2] - py) ^ 2 >= 0.15 ^ 2 or (i == #p.path and (q[1] ~= px or q[2] ~= py)) then
        pic:line(px, py, q[1], q[2], { stroke = st.stroke, width = 1, dash = st.dash })
        px, py = q[1], q[2]
      end
    end
    pic:box(box_at(p.x, p.y), last)
  end
  pic:box(box_at(with.start[1], with.start[2]), START)
  pic:text(ox + 0.2, 5.6, title)
end

-- Runs a scene with and without the options, frames frames of step(i).
local function both(statics, x, y, options, frames, step)
  local runs = {}
  for k, opts in ipairs({ options, {} }) do
    local p = scene(statics, x, y, opts)
    p.start = { x, y }
    p.floor, p.wall, p.ceiling, p.top = {}, {}, {}, y
    for i = 1, frames do
      step(p, i)
      local w = p.world
      p.floor[i], p.wall[i], p.ceiling[i] = w:is_on_floor("player"), w:is_on_wall("player"),
                                            w:is_on_ceiling("player")
      p.top = math.max(p.top, p.y)
    end
    runs[k] = p
  end
  return runs[1], runs[2]
end

local function all(t, v)
  for i = 1, #t do if t[i] ~= v then return false end end
  return true
end

local function count(t, v)
  local n = 0
  for i = 1, #t do if t[i] == v then n = n + 1 end end
  return n
end

local function add_box(x, y, hw, hh)
  return function(w, name) w:add(name, x, y, hw, hh) end
end

-- snap
do
  local ox, a = 0, math.rad(-35)
  local crest = ox + 2.5
  local len = 3 / math.sin(-a)
  local foot = crest + len * math.cos(a)
  local statics = {
    { "top", add_box(ox + 1.25, 2.5, 1.25, 0.5) },
    { "ramp", function(w, name) slab(w, name, crest, 3, a, len, 0.6) end },
    { "bottom", add_box((foot + ox + 7.5) / 2, -0.25, (ox + 7.5 - foot) / 2, 0.25) },
  }
  local with, without = both(statics, ox + 0.6, 3.5, { snap = 0.5 }, 56, function(p) p.step(7) end)
  assert(with.x > foot and without.x > foot, "snap: both walked down the ramp")
  assert(all(with.floor, true), "snap: on the floor every frame")
  local off = count(without.floor, false)
  assert(off > 0, "snap: without it, off the floor")
  -- with snap never farther from the surface than a frame's fall; without,
  -- it flies off the crest, well above the ramp
  local highest = 0
  for _, q in ipairs(without.path) do
    local x = q[1] - HW -- the ramp's highest point under the box is at its left end
    if x > crest and x < foot then highest = math.max(highest, q[2] - HH - (3 + (x - crest) * math.tan(a))) end
  end
  assert(highest > 0.1, "snap: without it, it takes off")
  draw("snap", ox, with, without, 7)
  print(("snap           on the floor %d of %d frames; without, off it %d frames, up to %.2f above the ramp")
        :format(count(with.floor, true), #with.floor, off, highest))
end

-- stop_on_slope
do
  local ox, a = GAP, math.rad(38)
  local statics = { { "ramp", function(w, name) slab(w, name, ox + 0.5, 0, a, 7.5, 0.6) end } }
  -- dropped just above the ramp, where it rests on it
  local x = ox + 4
  local y = (x + HW - ox - 0.5) * math.tan(a) + HH + 0.01
  local with, without = both(statics, x, y, { stop_on_slope = true }, 120, function(p) p.step(0) end)
  local landed = 0
  for i = 1, #with.floor do
    if with.floor[i] then landed = i break end
  end
  assert(landed > 0 and landed < 10, "stop_on_slope: lands")
  for i = landed, #with.floor do assert(with.floor[i], "stop_on_slope: on the floor from then on") end
  for i = landed + 1, #with.path do
    assert(with.path[i][1] == with.path[landed][1] and with.path[i][2] == with.path[landed][2],
           "stop_on_slope: not moved, bit for bit")
  end
  local crept = math.sqrt((without.x - with.x) ^ 2 + (without.y - with.y) ^ 2)
  assert(without.x < with.x - 0.1 and without.y < with.y, "stop_on_slope: without it, it creeps down")
  draw("stop_on_slope", ox, with, without, 30)
  print(("stop_on_slope  landed in frame %d, then still for %d frames, bit for bit; without, crept %.2f down")
        :format(landed, #with.path - landed, crept))
end

-- step
do
  local ox, h = 2 * GAP, 0.4
  local ledge = ox + 3.5
  local statics = { { "floor", add_box(ox + 3.75, -0.25, 3.75, 0.25) },
                    { "ledge", add_box((ledge + ox + 7.5) / 2, h / 2, (ox + 7.5 - ledge) / 2, h / 2) } }
  local with, without = both(statics, ox + 0.6, HH, { step = h }, 72, function(p) p.step(4) end)
  assert(with.x > ledge + HW and math.abs(with.y - (HH + h)) < 1e-9, "step: up onto the ledge")
  assert(with.floor[#with.floor] and with.world:ground("player") == "ledge", "step: standing on it")
  assert(math.abs(without.x - (ledge - HW)) < 1e-9 and without.y == HH, "step: without it, stopped at the ledge")
  assert(without.wall[#without.wall], "step: without it, on the wall")
  assert(without.top == HH, "step: without it, never higher")
  draw("step", ox, with, without, 12)
  print(("step           onto the %g ledge, at x %.2f; without, stopped at its face, at x %.2f")
        :format(h, with.x - ox, without.x - ox))
end

-- corner
do
  local ox, corner, clip = 3 * GAP, 0.15, 0.1
  local x = ox + 2.5
  local bottom = 1.6 -- the ledge's underside: the head hits it after 0.6
  local statics = { { "floor", add_box(ox + 3.75, -0.25, 3.75, 0.25) },
                    { "ledge", add_box(x + HW - clip + 1.5, bottom + 0.25, 1.5, 0.25) } }
  local with, without = both(statics, x, HH, { corner = corner }, 24, function(p, i)
    p.step(0, i == 1 and 12 or nil)
  end)
  assert(math.abs(with.x - (x - clip)) < 1e-9, "corner: nudged aside by the overlap")
  assert(with.top - HH > bottom + 0.5, "corner: up past the ledge")
  assert(without.x == x, "corner: without it, not nudged")
  assert(without.top + HH <= bottom + 1e-9, "corner: without it, the head stopped at the ledge")
  assert(count(without.ceiling, true) > 0, "corner: without it, it bonks")
  draw("corner", ox, with, without, 4)
  print(("corner         nudged %.2f aside, up to %.2f (the ledge's top %.2f); without, bonked at %.2f")
        :format(x - with.x, with.top - HH, bottom + 0.5, without.top + HH))
end

-- block_on_wall
do
  local ox, a = 4 * GAP, math.rad(60)
  local foot = ox + 3.5
  local statics = { { "floor", add_box(ox + 3.75, -0.25, 3.75, 0.25) },
                    { "ramp", function(w, name) slab(w, name, foot, 0, a, 4, 0.6) end } }
  local with, without = both(statics, ox + 0.6, HH, { block_on_wall = true }, 63, function(p) p.step(8) end)
  assert(with.top <= HH + 1e-9, "block_on_wall: never climbs")
  assert(with.wall[#with.wall], "block_on_wall: on the wall")
  assert(without.top > HH + 0.01, "block_on_wall: without it, it slides up")
  draw("block_on_wall", ox, with, without, 8)
  print(("block_on_wall  never above %.2f; without, slid up to %.2f")
        :format(with.top - HH, without.top - HH))
end

if pic then assert(pic:write(svg_path)) end
print("characters: ok")
