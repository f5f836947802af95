-- demo.lua: a tiny "game loop" over rotating boxes, in 2D and 3D.
--
-- Forty rotated rectangles drift and spin in a walled 2D arena, and ten
-- boxes tumble in a 3D room. Every frame the script moves each box in place
-- (set_center, rotate), tests every pair with intersects, and prints the
-- colliding pairs. At the end it draws the last 2D frame (colliding boxes
-- red, free ones blue, axes from each center) and a projected picture of
-- the 3D scene.
--
--   make demo                                  writes demo.svg, demo3d.svg
--   lua examples/demo.lua [out2d.svg [out3d.svg]]   (with obb on the paths)
--
-- Runs unchanged on Lua 5.1 to 5.4 and LuaJIT; the output is the same on
-- each, since the random numbers come from our own generator.

local obb = require "obb"
local svg = require "obb.svg"

local out2d = arg and arg[1] or "demo.svg"
local out3d = arg and arg[2] or "demo3d.svg"

-- Park-Miller: exact in doubles and in 5.3 integers alike.
local seed = 20261121
local function random(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * (seed / 2147483647)
end

local FRAMES, DT = 6, 0.5
local W, H = 100, 70

-- ---- 2D: rotating rectangles in a box-shaped arena --------------------

local boxes, moves = {}, {}
for i = 1, 40 do
  local b = obb.new2(random(8, W - 8), random(8, H - 8), random(1, 5), random(0.5, 3),
                     random(-math.pi, math.pi))
  boxes[i] = b
  moves[i] = { vx = random(-4, 4), vy = random(-4, 4), spin = random(-1, 1) }
end

local function step2d()
  for i, b in ipairs(boxes) do
    local m = moves[i]
    local x, y = b:center()
    x, y = x + m.vx * DT, y + m.vy * DT
    -- bounce the center off the arena's walls
    if x < 0 or x > W then m.vx = -m.vx; x = x < 0 and -x or 2 * W - x end
    if y < 0 or y > H then m.vy = -m.vy; y = y < 0 and -y or 2 * H - y end
    b:set_center(x, y)
    b:rotate(m.spin * DT)
  end
end

-- Fills `hit` (box index -> true) and returns the colliding pairs as text.
local function collide(list, hit, names)
  local pairs_found = {}
  for k in pairs(hit) do hit[k] = nil end
  for i = 1, #list - 1 do
    for j = i + 1, #list do
      if list[i]:intersects(list[j]) then
        hit[i], hit[j] = true, true
        pairs_found[#pairs_found + 1] = names and (names[i] .. "-" .. names[j]) or (i .. "-" .. j)
      end
    end
  end
  return #pairs_found, table.concat(pairs_found, " ")
end

-- ---- 3D: tumbling boxes ------------------------------------------------

local names3 = { "A", "B", "C", "D", "E", "F", "G", "H", "I", "J" }
local boxes3, moves3 = {}, {}
for i = 1, #names3 do
  local ax, ay, az = random(-1, 1), random(-1, 1), random(-1, 1)
  local len = math.sqrt(ax * ax + ay * ay + az * az)
  local half = random(0.2, 0.6) -- quaternion for a turn of 2*half rad
  local s = math.sin(half) / len
  boxes3[i] = obb.new3(random(-7, 7), random(-1, 2), random(-7, 7),
                       random(0.5, 2), random(0.3, 1.2), random(0.5, 1.5),
                       ax * s, ay * s, az * s, math.cos(half))
  -- each frame: a small turn about a random axis, and a drift to the middle
  local bx, by, bz = random(-1, 1), random(-1, 1), random(-1, 1)
  local blen = math.sqrt(bx * bx + by * by + bz * bz)
  local t = random(0.05, 0.2) / blen
  moves3[i] = { q = { bx * t, by * t, bz * t, 1 }, pull = random(0.02, 0.06) }
end

local function step3d()
  for i, b in ipairs(boxes3) do
    local m = moves3[i]
    local x, y, z = b:center()
    b:set_center(x * (1 - m.pull), y, z * (1 - m.pull))
    b:rotate(m.q[1], m.q[2], m.q[3], m.q[4]) -- normalised by the module
  end
end

-- ---- the loop ------------------------------------------------------------

local hit2, hit3 = {}, {}
for frame = 1, FRAMES do
  step2d()
  step3d()
  local n2, list2 = collide(boxes, hit2)
  local n3, list3 = collide(boxes3, hit3, names3)
  print(string.format("frame %d  2D: %2d pairs  %s", frame, n2, list2))
  print(string.format("         3D: %2d pairs  %s", n3, list3))
end

-- ---- pictures ------------------------------------------------------------

local pic = svg.new { width = 800, view = { -2, -2, W + 2, H + 2 },
                      title = string.format("obb demo: frame %d, 2D", FRAMES) }
pic:polygon({ 0, 0, W, 0, W, H, 0, H }, { stroke = "#999999", fill = "none", axes = false })
for i, b in ipairs(boxes) do
  pic:box(b, hit2[i] and "colliding" or "free")
end
assert(pic:write(out2d))

local pic3 = svg.new { width = 800, camera = { yaw = 0.7, pitch = 0.5, distance = 40 },
                       title = string.format("obb demo: frame %d, 3D", FRAMES) }
-- the floor's outline, for depth cues
local floor = { stroke = "#bbbbbb", dash = false }
pic3:line3(-9, -3, -9, 9, -3, -9, floor)
pic3:line3(9, -3, -9, 9, -3, 9, floor)
pic3:line3(9, -3, 9, -9, -3, 9, floor)
pic3:line3(-9, -3, 9, -9, -3, -9, floor)
for i, b in ipairs(boxes3) do
  pic3:box(b, { stroke = hit3[i] and "#d62728" or "#1f77b4",
                fill = hit3[i] and "#d62728" or "#1f77b4",
                fill_opacity = hit3[i] and 0.3 or 0.12, label = names3[i] })
end
assert(pic3:write(out3d))
print("wrote " .. out2d .. " and " .. out3d)
