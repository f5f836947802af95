-- racing.lua: a top-down racing game, cars (turned rectangles) cornering at
-- speed round an octagonal track of thin turned barriers, scraping them and
-- each other, and never passing through one.
--
-- The barriers (0.1 thick: the track's two octagons, and baffles jutting in
-- from the outer one that funnel the outer cars inward) and the cars are
-- items of one 2D world. Each frame every car in turn steers (a goal angle)
-- and drives (a goal center), and world:move(car, gx, gy, angle) moves it
-- there, turning while it moves: what it meets is found with the certified
-- turning sweep (never after the first contact, however fast the car turns
-- or how thin the barrier), and it slides along it. The turn goes on while
-- it does not drive the car into what it touches (a car that meets a
-- barrier nose first steers away from it), and stops where it would (a car
-- flush against a barrier cannot swing its tail into it). A car that
-- scraped something loses speed, and its next goal leans a little away from
-- what it scraped (the game's choice: the barrier pushes it back onto the
-- track). Other cars stand still while one moves, and are met like
-- barriers.
--
-- The script checks itself, independently of the mover: every frame's first
-- leg (the whole motion toward the goal, turning at the constant rate, up to
-- the first collision the move reports and the time it had turned as far as
-- it ends), sampled, overlaps nothing; no car's
-- center ever crosses a barrier's line within the barrier's length, along
-- the path of centers through every contact the move reports; no car ends a
-- frame inside a barrier or another car; every car laps the track; some
-- scrape the barriers and each other.
--
-- Laps are counted by events: eight checkpoints, thin lines across the
-- track (0.02 thick: a car crosses one within a single frame), are sensors
-- (world:set_sensor), which the moves cross, and world:events gives each
-- car's "begin" with each checkpoint it reaches, however fast; reaching
-- them in order, and the first again, counts a lap. The script checks the
-- count against the angle each car's center has gone round, and that every
-- checkpoint's begin came from a move (a time along it).
--
--   lua examples/racing.lua [picture.svg]     (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local DT, FRAMES = 1 / 30, 900
local R_IN, R_OUT = 30, 60 -- the track runs between two octagons
local THIN = 0.05          -- a barrier's half thickness
local SAMPLES = 16         -- poses the self-check samples per first leg
local PUSH = 0.3           -- how far a scraped car's next goal leans away

local atan2 = math.atan2 or math.atan
local sqrt, cos, sin, min, max, pi = math.sqrt, math.cos, math.sin, math.min, math.max, math.pi

local world = obb.world2()
local barriers, is_barrier = {}, {}

-- A barrier is a thin box along the segment p..q (a little longer, so
-- that neighbours close their corners).
local function add_barrier(px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  local len = sqrt(dx * dx + dy * dy)
  local b = { name = "barrier " .. (#barriers + 1), px = px, py = py, qx = qx, qy = qy,
              box = obb.new2((px + qx) / 2, (py + qy) / 2, len / 2 + THIN, THIN, atan2(dy, dx)) }
  barriers[#barriers + 1] = b
  is_barrier[b] = true
  world:add(b, b.box)
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

-- The checkpoints: radial lines across the whole track at k * 45 degrees
-- + 0.2 rad (a car cannot go round one), from r = 27 to 57.5, over both
-- barriers; sensors (they pair with the barriers too, which the laps
-- ignore).
local CP0 = 0.2 -- the first checkpoint's angle: the line a lap starts at
local checkpoints = {}
for k = 0, 7 do
  local a = k * pi / 4 + CP0
  local cx, cy = polar(42.25, a)
  local cp = { name = "checkpoint " .. k, index = k, angle = a,
               box = obb.new2(cx, cy, 15.25, 0.01, a) }
  checkpoints[k + 1] = cp
  world:add(cp, cp.box)
  world:set_sensor(cp)
end

-- Four cars on the start line; each aims for its own racing line (radius)
-- and weaves around it, so the outer and inner ones scrape the barriers,
-- and they cross each other's paths.
local cars = {}
for i, line in ipairs({ 34, 41, 48, 54 }) do
  local car = { name = "car " .. i, line = line, weave = 4 + i * 0.5, speed = 0,
                top = 36 + 4 * i, laps_angle = 0, wall_hits = 0, car_hits = 0,
                pushx = 0, pushy = 0, next_cp = 0, laps = -1 } -- -1: before the first line
  car.box = obb.new2(line, 0, 2.2, 1.1, pi / 2) -- heading +y: counter-clockwise
  car.last_angle = 0
  cars[i] = car
  world:add(car, car.box)
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

-- ---- the self-checks (independent of the mover) ---------------------------

local probe = obb.new2(0, 0, 1, 1)
local found = {}
local worst_sampled, crossings, worst_depth, legs_sampled = 0, 0, 0, 0

-- The deepest overlap of box with any item but skip and the checkpoints
-- (sensors: nothing is solid about them), in units of the pair's touching
-- band (obb.TOUCH_*): at most 1 is touching.
local function deepest(box, skip)
  local deep = 0
  local cx, cy = box:center()
  local hx, hy = box:half_extents()
  for i = 1, world:query_box(box, found) do
    local other = found[i]
    if other ~= skip and not other.angle then
      local ob = other.box
      local _, _, depth = box:penetration(ob)
      if depth and depth > 0 then
        local ox, oy = ob:center()
        local ohx, ohy = ob:half_extents()
        local band = obb.TOUCH_REL * (math.abs(ox - cx) + math.abs(oy - cy) + hx + hy + ohx + ohy)
          + obb.TOUCH_COORD * max(math.abs(cx), math.abs(cy), math.abs(ox), math.abs(oy))
          + obb.TOUCH_FLOOR
        deep = max(deep, depth / band)
      end
    end
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

-- The car's center went from (x0, y0) to (x1, y1): it may not have crossed
-- a barrier's line within the barrier.
local function check_center(x0, y0, x1, y1)
  for _, b in ipairs(barriers) do
    if crosses(x0, y0, x1, y1, b) then crossings = crossings + 1 end
  end
end

-- The motion from the pose (cx, cy, a) by (dx, dy) and the turn w, up to
-- time t: poses sampled along it overlap nothing (the car itself aside).
local function check_leg(car, cx, cy, a, dx, dy, w, t)
  local hx, hy = car.box:half_extents()
  for k = 0, SAMPLES do
    local s = t * k / SAMPLES
    probe:set(cx + dx * s, cy + dy * s, hx, hy, a + w * s)
    worst_sampled = max(worst_sampled, deepest(probe, car))
  end
  legs_sampled = legs_sampled + 1
end

-- ---- driving ------------------------------------------------------------

local out = {}
local STRIDE = obb.MOVE_STRIDE2 -- other, response, t, nx, ny, x, y, depth

local function drive(car, t)
  local w = steer(car, t)
  car.speed = min(car.top, car.speed + 20 * DT)
  local a0 = car.box:angle()
  local a = a0 + w / 2 -- along the heading halfway through the turn
  local x0, y0 = car.box:center()
  local dx = car.speed * DT * cos(a) + car.pushx
  local dy = car.speed * DT * sin(a) + car.pushy
  local x, y, n, a1 = world:move(car, x0 + dx, y0 + dy, a0 + w, nil, out)
  -- the checks: the first leg is the motion toward the goal at the
  -- constant turn, up to the first collision, and up to the time at
  -- which the car had turned as far as it ended (a turn stops at the end
  -- of a leg, and then turns no more); the centers' path runs through
  -- every contact
  local t1 = n > 0 and out[3] or 1
  if w ~= 0 then
    local turned = (a1 - a0 + pi) % (2 * pi) - pi
    t1 = min(t1, max(0, turned / w))
  end
  check_leg(car, x0, y0, a0, dx, dy, w, t1)
  local px, py = x0, y0
  for i = 0, n - 1 do
    local cx, cy = out[i * STRIDE + 6], out[i * STRIDE + 7]
    check_center(px, py, cx, cy)
    px, py = cx, cy
  end
  check_center(px, py, x, y)
  world:get(car, car.box)
  -- scraping costs speed, and the next goal leans away from what was hit
  car.pushx, car.pushy = 0, 0
  local hits = 0
  for i = 0, n - 1 do
    local other, response = out[i * STRIDE + 1], out[i * STRIDE + 2]
    local nx, ny = out[i * STRIDE + 4], out[i * STRIDE + 5]
    if response ~= "cross" then -- (a checkpoint: the events tell)
      if is_barrier[other] then car.wall_hits = car.wall_hits + 1 else car.car_hits = car.car_hits + 1 end
      car.pushx, car.pushy = car.pushx + nx * PUSH * DT, car.pushy + ny * PUSH * DT
      hits = hits + 1
    end
  end
  if hits > 0 then car.speed = car.speed * 0.85 end
end

-- The frame's events: a car's "begin" with the checkpoint it needs next
-- advances it; the first checkpoint after the last is a lap.
local ev, is_car, untimed = {}, {}, 0
for _, car in ipairs(cars) do is_car[car] = true end
local function events()
  for i = 0, world:events(ev) - 1 do
    local cp, car, kind, t = ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3], ev[4 * i + 4]
    if is_car[car] then
      if t == false then untimed = untimed + 1 end
      if kind == "begin" and cp.index == car.next_cp then
        car.next_cp = (car.next_cp + 1) % #checkpoints
        if cp.index == 0 then car.laps = car.laps + 1 end
      end
    end
  end
end
events() -- the checkpoints' pairs with the barriers, where the race starts

for frame = 1, FRAMES do
  local t = frame * DT
  for _, car in ipairs(cars) do drive(car, t) end
  events()
  for _, car in ipairs(cars) do
    worst_depth = max(worst_depth, deepest(car.box, car))
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

local scraped, bumped = 0, 0
for _, car in ipairs(cars) do
  local laps = car.laps_angle / (2 * pi)
  -- the laps the center went round past the first checkpoint's line (its
  -- front reaches the line first: the events may count one more)
  local by_angle = math.floor((car.laps_angle - CP0) / (2 * pi))
  print(string.format("%s: %.2f laps, %d by the checkpoints' events, %d barrier contacts, %d car contacts",
                      car.name, laps, car.laps, car.wall_hits, car.car_hits))
  assert(laps >= 1, car.name .. " did not complete a lap")
  assert(car.laps >= 1 and (car.laps == by_angle or car.laps == by_angle + 1),
         car.name .. ": " .. car.laps .. " laps by the events, " .. by_angle .. " by the angle")
  scraped, bumped = scraped + car.wall_hits, bumped + car.car_hits
end
assert(untimed == 0, untimed .. " events of a car came from no move")
assert(scraped > 0, "no car touched a barrier: the example shows nothing")
assert(bumped > 0, "no car touched another: the example shows nothing")
assert(crossings == 0, crossings .. " times a car's center crossed a barrier")
-- a car stopped at a barrier touches it, within the touching band (two
-- bands: a car that slid along at a depth within the band where it was may
-- end where the band is smaller, and start its next frame there)
assert(worst_sampled <= 2, "a sampled pose overlapped by " .. worst_sampled .. " bands")
assert(worst_depth <= 2, "a car ended a frame inside something, by " .. worst_depth .. " bands")
print(string.format("racing: ok, no barrier crossed (%d legs sampled, deepest sampled overlap %.2f bands,"
  .. " at the end of a frame %.2f bands)", legs_sampled, worst_sampled, worst_depth))

if arg and arg[1] then
  local svg = require "obb.svg"
  local pic = svg.new { width = 640, title = "racing: last frame" }
  for _, b in ipairs(barriers) do pic:box(b.box, { stroke = "#555555", fill = "#999999", axes = false }) end
  for _, cp in ipairs(checkpoints) do pic:box(cp.box, { stroke = "#3a9a4a", fill = "none", axes = false }) end
  for _, car in ipairs(cars) do
    pic:box(car.box, deepest(car.box, car) > 0 and "colliding" or "free")
  end
  assert(pic:write(arg[1]))
end
world:close()
