-- racing.lua: a top-down racing game, cars (rotated rectangles) against the
-- walls of an octagonal track and against each other.
--
-- The walls are static items of a 2D world; each frame every car drives
-- along its heading, the world is told where it went (update), and
-- world:collisions gives each car the walls and cars it overlaps with the
-- vector that pushes it out (n * depth of box:penetration). A car that hits
-- a wall is pushed out and loses speed; two cars that touch share the push.
-- The script checks itself: every car laps the track, some scrape the walls,
-- and no car ends a frame inside a wall.
--
--   lua examples/racing.lua [picture.svg]     (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local DT, FRAMES = 1 / 30, 900
local R_IN, R_OUT = 30, 60 -- the track runs between two octagons

local world = obb.world2()
local walls = {}

-- A wall is a thin box along the segment p..q.
local function add_wall(px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  local len = math.sqrt(dx * dx + dy * dy)
  local wall = { name = "wall " .. (#walls + 1),
                 box = obb.new2((px + qx) / 2, (py + qy) / 2, len / 2 + 1, 1, math.atan2 and
                                math.atan2(dy, dx) or math.atan(dy, dx)) }
  walls[#walls + 1] = wall
  world:add(wall, wall.box)
end

for _, r in ipairs({ R_IN, R_OUT }) do
  for k = 0, 7 do
    local a0, a1 = (k + 0.5) * math.pi / 4, (k + 1.5) * math.pi / 4
    add_wall(r * math.cos(a0), r * math.sin(a0), r * math.cos(a1), r * math.sin(a1))
  end
end

-- Four cars on the start line; each aims for its own racing line (radius)
-- and weaves around it, so the outer and inner ones scrape the walls.
local cars = {}
for i, line in ipairs({ 36, 42, 48, 54 }) do
  local car = { name = "car " .. i, line = line, weave = 4 + i, speed = 0,
                top = 26 + 2 * i, laps_angle = 0, wall_hits = 0, car_hits = 0 }
  car.box = obb.new2(line, 0, 2.2, 1.1, math.pi / 2) -- heading +y: counter-clockwise
  car.last_angle = 0
  cars[i] = car
  world:add(car, car.box)
end

local function steer(car, t)
  local x, y = car.box:center()
  local r = math.sqrt(x * x + y * y)
  local target = car.line + car.weave * math.sin(t * 0.9 + car.line)
  -- the track's tangent (counter-clockwise), bent toward the racing line
  local tx, ty = -y / r, x / r
  local bend = math.max(-0.6, math.min(0.6, (target - r) * 0.15))
  local dx, dy = tx + bend * x / r, ty + bend * y / r
  local want = math.atan2 and math.atan2(dy, dx) or math.atan(dy, dx)
  local turn = want - car.box:angle()
  turn = (turn + math.pi) % (2 * math.pi) - math.pi
  local max_turn = 3 * DT
  car.box:rotate(math.max(-max_turn, math.min(max_turn, turn)))
end

local out = {}
local worst_depth = 0
for frame = 1, FRAMES do
  local t = frame * DT
  for _, car in ipairs(cars) do
    steer(car, t)
    car.speed = math.min(car.top, car.speed + 20 * DT)
    local ux, uy = car.box:axes()
    car.box:translate(ux * car.speed * DT, uy * car.speed * DT)
    world:update(car, car.box)
  end
  for _, car in ipairs(cars) do
    local n = world:collisions(car, out)
    car.touching = n > 0
    for i = 1, n do
      local other, dx, dy = out[3 * i - 2], out[3 * i - 1], out[3 * i]
      if other.speed then -- another car: each takes half the push
        car.box:translate(dx / 2, dy / 2)
        car.car_hits = car.car_hits + 1
      else
        car.box:translate(dx, dy)
        car.speed = car.speed * 0.7 -- scraping a wall costs speed
        car.wall_hits = car.wall_hits + 1
      end
    end
    world:update(car, car.box)
  end
  -- no car may end a frame inside a wall (touching is allowed)
  for _, car in ipairs(cars) do
    for _, wall in ipairs(walls) do
      local _, _, depth = car.box:penetration(wall.box)
      if depth and depth > worst_depth then worst_depth = depth end
    end
    local x, y = car.box:center()
    local a = math.atan2 and math.atan2(y, x) or math.atan(y, x)
    local d = (a - car.last_angle + math.pi) % (2 * math.pi) - math.pi
    car.laps_angle, car.last_angle = car.laps_angle + d, a
  end
  if frame % 150 == 0 then
    local parts = {}
    for _, car in ipairs(cars) do
      parts[#parts + 1] = string.format("%s %.2f laps", car.name, car.laps_angle / (2 * math.pi))
    end
    print(string.format("t = %4.1f s  %s", t, table.concat(parts, ", ")))
  end
end

local scraped = 0
for _, car in ipairs(cars) do
  local laps = car.laps_angle / (2 * math.pi)
  print(string.format("%s: %.2f laps, %d wall contacts, %d car contacts", car.name, laps,
                      car.wall_hits, car.car_hits))
  assert(laps >= 1, car.name .. " did not complete a lap")
  scraped = scraped + car.wall_hits
end
assert(scraped > 0, "no car touched a wall: the example shows nothing")
-- a pushed-out car is left touching; rounding may leave a hair of overlap
assert(worst_depth < 1e-9, "a car ended a frame inside a wall, depth " .. worst_depth)
print(string.format("racing: ok (deepest overlap left after push-out: %.1e)", worst_depth))

if arg and arg[1] then
  local svg = require "obb.svg"
  local pic = svg.new { width = 640, title = "racing: last frame" }
  for _, wall in ipairs(walls) do pic:box(wall.box, { stroke = "#555555", fill = "#999999", axes = false }) end
  for _, car in ipairs(cars) do pic:box(car.box, car.touching and "colliding" or "free") end
  assert(pic:write(arg[1]))
end
world:close()
