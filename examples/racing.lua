-- racing.lua: a top-down racing game, cars (turned rectangles) cornering at
-- speed round an octagonal track of thin turned barriers, and never passing
-- through one.
--
-- The barriers (0.1 thick: the track's two octagons, and baffles jutting in
-- from the outer one that funnel the outer cars inward) are static items
-- of a 2D world, `track`. Each frame every car steers (a turn w) and drives
-- (a displacement d), and that whole motion, turning while it moves, is
-- cast through the track with world:cast_turning. The first barrier met
-- stops the car there (the time is certified: never after the first
-- contact, however fast the car turns or how thin the barrier); the car
-- steps off it by a skin, loses speed, and goes on with the rest of its
-- move clipped along the barrier (obb.clip), cast again. Cars push each
-- other apart (a second world, `traffic`, and world:collisions' push-out
-- vectors), each push swept through the track with world:cast, so that no
-- push moves a car through a barrier either.
--
-- The script checks itself, independently of the sweeps: along every leg
-- of every car's motion, poses sampled up to the contact overlap no
-- barrier; no car's center ever crosses a barrier's line within the
-- barrier's length; no car ends a frame inside a barrier; every car laps
-- the track; some scrape the barriers.
--
--   lua examples/racing.lua [picture.svg]     (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local DT, FRAMES = 1 / 30, 900
local R_IN, R_OUT = 30, 60 -- the track runs between two octagons
local THIN = 0.05          -- a barrier's half thickness
local SKIN = 0.01          -- how far a car steps off a barrier it met
local LEGS = 4             -- casts per car and frame, at most
local SAMPLES = 16         -- poses the self-check samples per leg

local atan2 = math.atan2 or math.atan
local sqrt, cos, sin, min, max, pi = math.sqrt, math.cos, math.sin, math.min, math.max, math.pi

local track, traffic = obb.world2(), obb.world2()
local barriers = {}

-- A barrier is a thin box along the segment p..q (a little longer, so
-- that neighbours close their corners).
local function add_barrier(px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  local len = sqrt(dx * dx + dy * dy)
  local b = { name = "barrier " .. (#barriers + 1), px = px, py = py, qx = qx, qy = qy,
              box = obb.new2((px + qx) / 2, (py + qy) / 2, len / 2 + THIN, THIN, atan2(dy, dx)) }
  barriers[#barriers + 1] = b
  track:add(b, b.box)
end

local function polar(r, a) return r * cos(a), r * sin(a) end

for _, r in ipairs({ R_IN, R_OUT }) do
  for k = 0, 7 do
    local px, py = polar(r, (k + 0.5) * pi / 4)
    local qx, qy = polar(r, (k + 1.5) * pi / 4)
    add_barrier(px, py, qx, qy)
  end
end
-- Baffles: from the outer octagon's corners inward and forward (the cars
-- run counter-clockwise), so a car that meets one slides along it, inward.
for k = 0, 6, 2 do
  local a = (k + 0.5) * pi / 4
  local px, py = polar(R_OUT - 0.2, a)
  local qx, qy = polar(50, a + 0.2)
  add_barrier(px, py, qx, qy)
end

-- Four cars on the start line; each aims for its own racing line (radius)
-- and weaves around it, so the outer and inner ones scrape the barriers.
local cars = {}
for i, line in ipairs({ 34, 41, 48, 54 }) do
  local car = { name = "car " .. i, line = line, weave = 4 + i, speed = 0,
                top = 36 + 4 * i, laps_angle = 0, wall_hits = 0, car_hits = 0 }
  car.box = obb.new2(line, 0, 2.2, 1.1, pi / 2) -- heading +y: counter-clockwise
  car.last_angle = 0
  cars[i] = car
  traffic:add(car, car.box)
end

-- The turn the car wants this frame, toward its racing line, at most
-- 3 rad/s.
local function steer(car, t)
  local x, y = car.box:center()
  local r = sqrt(x * x + y * y)
  local target = car.line + car.weave * sin(t * 0.9 + car.line)
  -- the track's tangent (counter-clockwise), bent toward the racing line
  local tx, ty = -y / r, x / r
  local bend = max(-0.6, min(0.6, (target - r) * 0.15))
  local turn = atan2(ty + bend * y / r, tx + bend * x / r) - car.box:angle()
  turn = (turn + pi) % (2 * pi) - pi
  return max(-3 * DT, min(3 * DT, turn))
end

-- ---- the self-checks (independent of the sweeps) ----------------------

local probe = obb.new2(0, 0, 1, 1)
local found = {}
local worst_sampled, crossings, worst_depth = 0, 0, 0

-- The deepest overlap of box with any barrier (0 when apart or touching).
local function deepest(box)
  local deep = 0
  for i = 1, track:query_box(box, found) do
    local _, _, depth = box:penetration(found[i].box)
    if depth and depth > deep then deep = depth end
  end
  return deep
end

-- Whether the segment a..b crosses the segment p..q (strictly: from one
-- side of the other's line to the other).
local function side(px, py, qx, qy, x, y) return (qx - px) * (y - py) - (qy - py) * (x - px) end
local function crosses(ax, ay, bx, by, p)
  local s1, s2 = side(p.px, p.py, p.qx, p.qy, ax, ay), side(p.px, p.py, p.qx, p.qy, bx, by)
  local s3, s4 = side(ax, ay, bx, by, p.px, p.py), side(ax, ay, bx, by, p.qx, p.qy)
  return s1 * s2 < 0 and s3 * s4 < 0
end

-- A car's center moved from (x0, y0) to where it is now: it may not have
-- crossed a barrier's line within the barrier.
local function check_center(car, x0, y0)
  local x1, y1 = car.box:center()
  for _, b in ipairs(barriers) do
    if crosses(x0, y0, x1, y1, b) then crossings = crossings + 1 end
  end
end

-- A leg of the car's motion, from its pose now by (dx, dy) and the turn w,
-- up to time t: poses sampled along it overlap no barrier.
local function check_leg(car, dx, dy, w, t)
  local cx, cy = car.box:center()
  local hx, hy = car.box:half_extents()
  local a = car.box:angle()
  for k = 0, SAMPLES do
    local s = t * k / SAMPLES
    probe:set(cx + dx * s, cy + dy * s, hx, hy, a + w * s)
    worst_sampled = max(worst_sampled, deepest(probe))
  end
end

-- ---- driving ------------------------------------------------------------

local out, out2 = {}, {}
local ignore -- the barrier a car steps off, which that step's cast skips
local function not_ignored(item) return item ~= ignore end
local missed_by_end_pose = 0

-- Translates the car by (dx, dy), or as far as the track lets it (a push,
-- a step off the barrier `skip`).
local function shove(car, dx, dy, skip)
  ignore = skip
  local n = track:cast(car.box, dx, dy, out2, skip and not_ignored or nil)
  ignore = nil
  local s = n > 0 and out2[2] or 1
  local x0, y0 = car.box:center()
  car.box:translate(dx * s, dy * s)
  check_center(car, x0, y0)
end

local function drive(car, t)
  local w = steer(car, t)
  car.speed = min(car.top, car.speed + 20 * DT)
  local a = car.box:angle() + w / 2 -- along the heading halfway through the turn
  local dx, dy = car.speed * DT * cos(a), car.speed * DT * sin(a)
  local scraped = false
  for _ = 1, LEGS do
    local n = track:cast_turning(car.box, dx, dy, w, out)
    local tc = n > 0 and out[2] or 1
    check_leg(car, dx, dy, w, tc)
    local x0, y0 = car.box:center()
    if n > 0 then
      -- would a game that checks only where the car ends have seen it?
      probe:set(x0 + dx, y0 + dy, 2.2, 1.1, car.box:angle() + w)
      if not probe:intersects(out[1].box) then missed_by_end_pose = missed_by_end_pose + 1 end
    end
    car.box:translate(dx * tc, dy * tc):rotate(w * tc)
    check_center(car, x0, y0)
    if n == 0 then break end
    local barrier, nx, ny = out[1], out[3], out[4]
    scraped = true
    car.wall_hits = car.wall_hits + 1
    shove(car, nx * SKIN, ny * SKIN, barrier)
    -- the rest of the move, less its part into the barrier
    dx, dy = obb.clip(dx * (1 - tc), dy * (1 - tc), nx, ny)
    w = w * (1 - tc)
  end
  if scraped then car.speed = car.speed * 0.85 end -- scraping costs speed
  traffic:update(car, car.box)
end

for frame = 1, FRAMES do
  local t = frame * DT
  for _, car in ipairs(cars) do drive(car, t) end
  for _, car in ipairs(cars) do -- cars push each other apart, half each
    local n = traffic:collisions(car, out)
    car.touching = n > 0
    for i = 1, n do
      shove(car, out[3 * i - 1] / 2, out[3 * i] / 2)
      car.car_hits = car.car_hits + 1
    end
    traffic:update(car, car.box)
  end
  for _, car in ipairs(cars) do
    worst_depth = max(worst_depth, deepest(car.box))
    local x, y = car.box:center()
    local a = atan2(y, x)
    local d = (a - car.last_angle + pi) % (2 * pi) - pi
    car.laps_angle, car.last_angle = car.laps_angle + d, a
  end
  if frame % 150 == 0 then
    local parts = {}
    for _, car in ipairs(cars) do
      parts[#parts + 1] = string.format("%s %.2f laps", car.name, car.laps_angle / (2 * pi))
    end
    print(string.format("t = %4.1f s  %s", t, table.concat(parts, ", ")))
  end
end

local scraped = 0
for _, car in ipairs(cars) do
  local laps = car.laps_angle / (2 * pi)
  print(string.format("%s: %.2f laps, %d barrier contacts, %d car contacts", car.name, laps,
                      car.wall_hits, car.car_hits))
  assert(laps >= 1, car.name .. " did not complete a lap")
  scraped = scraped + car.wall_hits
end
assert(scraped > 0, "no car touched a barrier: the example shows nothing")
assert(crossings == 0, crossings .. " times a car's center crossed a barrier")
-- a car stopped at a barrier touches it; rounding may leave a hair of overlap
assert(worst_sampled < 1e-9, "a sampled pose overlapped a barrier by " .. worst_sampled)
assert(worst_depth < 1e-9, "a car ended a frame inside a barrier, depth " .. worst_depth)
print(string.format("racing: ok, no barrier crossed (deepest sampled overlap %.1e, at the end of a frame %.1e;"
  .. " %d contacts not seen where the car would have ended)", worst_sampled, worst_depth, missed_by_end_pose))

if arg and arg[1] then
  local svg = require "obb.svg"
  local pic = svg.new { width = 640, title = "racing: last frame" }
  for _, b in ipairs(barriers) do pic:box(b.box, { stroke = "#555555", fill = "#999999", axes = false }) end
  for _, car in ipairs(cars) do pic:box(car.box, car.touching and "colliding" or "free") end
  assert(pic:write(arg[1]))
end
track:close()
traffic:close()
