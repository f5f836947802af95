-- responses_turning.lua: the responses of world:move's turning form, side
-- by side.
--
-- In each panel a car (a turned rectangle) drives up and to the right
-- toward a wall leaning by 10 degrees, for 8 frames, steering toward a goal
-- angle at a constant rate: every frame is one turning move,
-- world:move(car, x + vx, y + vy, a + turn, response), from where the last
-- one left it. It answers "touch", "cross", "slide" or "bounce", and the
-- slide twice: steering away from the wall and steering into it. The
-- script checks each panel against the rule it shows (docs/reference.md,
-- the 2D turning form):
--   touch              stops where it meets the wall (touching it), the turn
--                      stopped at the same time as the translation, and
--                      stays there;
--   cross              ends at the goal pose, the wall reported on the way;
--   slide, steer away  keeps the move along the wall, and keeps turning:
--                      it reaches the goal angle;
--   slide, steer in    keeps the move along the wall, but the turn would
--                      swing its nose into the wall: it stops turning at
--                      the contact and slides on pressed against the wall;
--   bounce             the rest of the frame's move is mirrored off the
--                      wall, the turn goes on (the game then mirrors its
--                      velocity, so the car drives away).
-- and, independently of the mover, that no pose it ends a frame at (a
-- fresh obb.new2 box there) overlaps the wall deeper than the touching band
-- (cross excepted: it drives through).
--
--   lua examples/responses_turning.lua [picture.svg]   (make examples runs
--   it; make docs-images draws docs/responses_turning.svg)
local obb = require "obb"

local abs, max = math.abs, math.max

local FRAMES = 8
local HX, HY = 0.6, 0.3                      -- the car's half extents
local VX, VY = 0.5, 0.5                      -- its move per frame
local A0 = 0.9                               -- its heading at the start
local W = math.rad(-10)                      -- the wall leans right by 10 degrees
local WX, WY, WHX, WHY = 2.2, 2.5, 0.1, 3.1  -- the wall, from the panel's origin
local NX, NY = -math.cos(W), -math.sin(W)    -- the wall's face toward the car
local UX, UY = -math.sin(W), math.cos(W)     -- along the wall, upward

-- The panels: the response, the goal angle, where the panel sits, the title
-- and what the panel shows.
local PANELS = {
  { "touch", 1.4, 0, 0, "touch", "stops at the wall, and so does the turn" },
  { "cross", 1.4, 8, 0, "cross", "drives through to the goal pose" },
  { "bounce", 1.4, 16, 0, "bounce", "the rest mirrored, still turning" },
  { "slide", 1.4, 0, -9, "slide, steering away",
    "steers from 0.9 to 1.4 rad: slides, keeps turning" },
  { "slide", 0.4, 8, -9, "slide, steering in",
    "steers from 0.9 to 0.4 rad: slides, stops turning" },
}

local function near(a, b, tol) return abs(a - b) <= (tol or 1e-9) * (1 + abs(b)) end

-- The pair band of the touching rule (docs/reference.md, "Conventions").
local function band(a, b)
  local ax, ay = a:center()
  local bx, by = b:center()
  local ahx, ahy = a:half_extents()
  local bhx, bhy = b:half_extents()
  local S = abs(bx - ax) + abs(by - ay) + ahx + ahy + bhx + bhy
  local M = max(abs(ax), abs(ay), abs(bx), abs(by))
  return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
end

-- How deep the car at (x, y, a) is in the wall (0 when apart or touching)
-- and the band: a fresh box, not the world's.
local function depth(wall, x, y, a)
  local car = obb.new2(x, y, HX, HY, a)
  local _, _, d = car:penetration(wall)
  return d or 0, band(car, wall)
end

-- Whether the car at (x, y, a) touches the wall (or overlaps it).
local function touches(wall, x, y, a) return obb.new2(x, y, HX, HY, a):intersects(wall) end

-- The car's frames: every pose it ends a frame at, the goal it was given
-- and what it met.
local function drive(response, goal_angle, ox, oy)
  local world = obb.world2()
  world:add("wall", ox + WX, oy + WY, WHX, WHY, W)
  local x, y, a = ox, oy, A0
  world:add("car", x, y, HX, HY, a)
  local rate = (goal_angle - A0) / FRAMES      -- reaches the goal angle in 8 frames
  local vx, vy = VX, VY
  local frames, out = { { x = x, y = y, a = a, n = 0 } }, {}
  for _ = 1, FRAMES do
    local ga = a + rate
    if abs(goal_angle - a) <= abs(rate) * (1 + 1e-9) then ga = goal_angle end
    local gx, gy = x + vx, y + vy
    local px, py, pa = x, y, a
    local n
    x, y, n, a = world:move("car", gx, gy, ga, response, out)
    local f = { x = x, y = y, a = a, n = n, gx = gx, gy = gy, ga = ga, px = px, py = py, pa = pa }
    if n > 0 then
      assert(n == 1 and out[1] == "wall" and out[2] == response, response .. ": the wall, once a frame")
      f.t, f.nx, f.ny, f.cx, f.cy, f.depth = out[3], out[4], out[5], out[6], out[7], out[8]
      -- a bouncing game mirrors its velocity too, or it would drive into
      -- the wall again next frame
      local into = vx * f.nx + vy * f.ny
      if response == "bounce" and into < 0 then
        vx, vy = vx - 2 * into * f.nx, vy - 2 * into * f.ny
      end
    end
    frames[#frames + 1] = f
  end
  return frames, world:get("wall", obb.new2(0, 0, 1, 1))
end

-- The first frame that met the wall.
local function first_contact(frames, what)
  for k, f in ipairs(frames) do
    if f.n > 0 then return k, f end
  end
  error(what .. ": never met the wall")
end

local function along(x, y) return x * UX + y * UY end

-- Each panel's rule.
local CHECKS = {}

function CHECKS.touch(frames, wall)
  local k, c = first_contact(frames, "touch")
  assert(c.depth == 0 and c.t > 0 and c.t < 1, "touch: met during the frame")
  assert(c.x == c.cx and c.y == c.cy, "touch stops at the contact")
  assert(touches(wall, c.x, c.y, c.a), "touch: ends touching the wall")
  -- the translation and the turn stopped at the same time t
  assert(near(c.x, c.px + c.t * (c.gx - c.px)) and near(c.y, c.py + c.t * (c.gy - c.py)),
         "touch: the center stopped at t")
  assert(near(c.a, c.pa + c.t * (c.ga - c.pa)), "touch: the turn stopped at t")
  assert(c.a < c.ga - 1e-3, "touch: the turn stopped short of the frame's goal angle")
  -- and it stays there: every later frame is stopped at once
  for j = k + 1, #frames do
    local f = frames[j]
    assert(f.n == 1, "touch: the wall stops every later frame")
    assert(near(f.x, c.x) and near(f.y, c.y) and near(f.a, c.a), "touch: it stays at the contact pose")
  end
  local last = frames[#frames]
  assert(last.a < 1.4 - 0.05, "touch: short of the goal angle")
end

function CHECKS.cross(frames, wall)
  local last, met, inside = frames[#frames], 0, false
  for _, f in ipairs(frames) do
    met = met + f.n
    local d, b = depth(wall, f.x, f.y, f.a)
    if d > b then inside = true end
  end
  assert(met > 0, "cross: the wall reported on the way")
  assert(inside, "cross: the car went into the wall")
  local ox, oy = frames[1].x, frames[1].y
  assert(last.x == ox + FRAMES * VX and last.y == oy + FRAMES * VY, "cross reaches the goal center")
  assert(near(last.a, 1.4), "cross reaches the goal angle")
end

-- The slide's translation: every frame ends as far along the wall as its
-- goal (the tangential move is kept exactly), so the car ends as far along
-- as 8 frames of its velocity take it.
local function slides(frames, what)
  local k = first_contact(frames, what)
  for j = k, #frames do
    local f = frames[j]
    assert(f.n == 1, what .. ": the wall met every frame from the first contact on")
    assert(near(f.nx, NX) and near(f.ny, NY), what .. ": the wall's normal")
    assert(near(along(f.x, f.y), along(f.gx, f.gy)), what .. ": keeps the move along the wall")
    assert((f.x - f.gx) * NX + (f.y - f.gy) * NY > 1e-3, what .. ": the move into the wall is clipped")
  end
  local s, e = frames[1], frames[#frames]
  assert(near(along(e.x, e.y), along(s.x, s.y) + FRAMES * along(VX, VY)), what .. ": the progress along")
  return k, frames[k]
end

CHECKS["slide, steering away"] = function(frames)
  local k = slides(frames, "slide, steering away")
  for j = k, #frames do
    assert(near(frames[j].a, frames[j].ga), "slide, steering away: turns as far as steered every frame")
  end
  assert(near(frames[#frames].a, 1.4), "slide, steering away: reaches the goal angle")
end

CHECKS["slide, steering in"] = function(frames, wall)
  local k, c = slides(frames, "slide, steering in")
  assert(near(c.a, c.pa + c.t * (c.ga - c.pa)), "slide, steering in: turns until the contact")
  assert(c.a > c.ga + 1e-3, "slide, steering in: the turn stops at the contact")
  for j = k, #frames do
    local f = frames[j]
    assert(j == k or near(f.a, c.a), "slide, steering in: and turns no more")
    assert(touches(wall, f.x, f.y, f.a), "slide, steering in: pressed against the wall")
  end
  assert(frames[#frames].a > 0.4 + 0.05, "slide, steering in: short of the goal angle")
end

function CHECKS.bounce(frames)
  local k, c = first_contact(frames, "bounce")
  -- the rest of the frame's move, from the contact, mirrored off the wall
  local rx, ry = c.gx - c.cx, c.gy - c.cy
  local into = rx * NX + ry * NY
  assert(into < 0, "bounce: the rest went into the wall")
  assert(near(c.x, c.cx + rx - 2 * into * NX) and near(c.y, c.cy + ry - 2 * into * NY),
         "bounce mirrors the rest of the translation")
  assert(near(c.a, c.ga), "bounce: the turn goes on")
  for j = k + 1, #frames do
    local f, p = frames[j], frames[j - 1]
    assert(f.n == 0, "bounce: then drives away")
    assert((f.x - p.x) * NX + (f.y - p.y) * NY > 0.1, "bounce: away from the wall")
  end
  assert(near(frames[#frames].a, 1.4), "bounce: reaches the goal angle")
end

-- ---- the picture -------------------------------------------------------------

local svg_path = arg and arg[1]
local pic = svg_path and require("obb.svg").new { width = 960 }

local START = { stroke = "#1f77b4", fill = "#1f77b4", fill_opacity = 0.25, width = 2, axes = false }
local FRAME = { stroke = "#1f77b4", fill = "#1f77b4", fill_opacity = 0.05, width = 1, axes = false }
local MET = { stroke = "#ff7f0e", fill = "#ff7f0e", fill_opacity = 0.08, width = 1, axes = false }
local END = { stroke = "#1a7f37", fill = "#1a7f37", fill_opacity = 0.25, width = 2, axes = false }
local GOAL = { stroke = "#777777", fill = "none", dash = "4 3", width = 1.2, axes = false }
local WALL = { stroke = "#d62728", fill = "#d62728", fill_opacity = 0.25, axes = false }
local TITLE = { size = 15, color = "#000000" }
local NOTE = { size = 12, color = "#444444" }

-- The car at (x, y, a) in style st, with a wedge at its nose.
local function car(x, y, a, st)
  local b = obb.new2(x, y, HX, HY, a)
  pic:box(b, st)
  local c, s = math.cos(a), math.sin(a)
  local function at(u, v) return x + u * c - v * s, y + u * s + v * c end
  local p1x, p1y = at(HX, 0)
  local p2x, p2y = at(0.35 * HX, 0.7 * HY)
  local p3x, p3y = at(0.35 * HX, -0.7 * HY)
  pic:polygon({ p1x, p1y, p2x, p2y, p3x, p3y },
              { stroke = st.stroke, fill = st.stroke, fill_opacity = 0.6, width = 0.5 })
end

local function draw(frames, wall, goal_angle, ox, oy, title, note)
  pic:box(wall, WALL)
  car(ox + FRAMES * VX, oy + FRAMES * VY, goal_angle, GOAL)
  for k = 2, #frames - 1 do
    local f = frames[k]
    car(f.x, f.y, f.a, f.n > 0 and MET or FRAME)
  end
  local s, e = frames[1], frames[#frames]
  car(s.x, s.y, s.a, START)
  car(e.x, e.y, e.a, END)
  for k = 2, #frames do
    local p, f = frames[k - 1], frames[k]
    pic:line(p.x, p.y, f.x, f.y, { stroke = "#333333", width = 1, dash = "2 2" })
    if f.n > 0 then pic:point(f.cx, f.cy, { radius = 2.5 }) end
  end
  pic:text(ox - 1, oy + 7.1, title, TITLE)
  pic:text(ox - 1, oy + 6.5, note, NOTE)
end

-- ---- the panels ----------------------------------------------------------------

for _, p in ipairs(PANELS) do
  local response, goal_angle, ox, oy, title, note = p[1], p[2], p[3], p[4], p[5], p[6]
  local frames, wall = drive(response, goal_angle, ox, oy)
  CHECKS[title](frames, wall)
  if response ~= "cross" then
    for k, f in ipairs(frames) do
      local d, b = depth(wall, f.x, f.y, f.a)
      assert(d <= 2 * b, ("%s: frame %d ends %.3g deep in the wall (band %.3g)"):format(title, k - 1, d, b))
    end
  end
  if pic then draw(frames, wall, goal_angle, ox, oy, title, note) end
  local e = frames[#frames]
  print(("%-21s ends at %7.3f %7.3f, angle %6.3f (goal %.3f)"):format(title, e.x - ox, e.y - oy, e.a, goal_angle))
end

if pic then
  local lx, ly = 15.4, -8.2
  local legend = {
    { START, "start" }, { FRAME, "after each of the 8 frames" }, { MET, "a frame that met the wall" },
    { END, "end" }, { GOAL, "goal pose (no wall)" },
  }
  for i, l in ipairs(legend) do
    local y = ly + 5.6 - (i - 1) * 0.9
    car(lx, y, 0, l[1])
    pic:text(lx + 1, y - 0.15, l[2], NOTE)
  end
  pic:point(lx, ly + 5.6 - 5 * 0.9, { radius = 2.5 })
  pic:text(lx + 1, ly + 5.6 - 5 * 0.9 - 0.15, "the center at contact", NOTE)
  assert(pic:write(svg_path))
end
print("responses_turning: ok")
