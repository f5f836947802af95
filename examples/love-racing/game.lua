-- examples/love-racing/game.lua: the racing game's rules and its track,
-- without LÖVE (main.lua draws it; spec/love_racing_spec.lua runs it on
-- plain Lua). docs/love.md, "The racing game".
--
-- The world is y down, as LÖVE draws it (a positive angle turns clockwise
-- on screen). The track is a closed circuit 12 units wide: a center line
-- of straights and rounded corners (each corner an arc of segments of at
-- most 15 degrees, one corner bent inward), and a barrier of thin turned
-- boxes, one per segment, HALF_W to each side of it. Checkpoints are thin
-- boxes across the track, of a sensor class (world:set_sensor_class): the
-- moves cross them, and world:events gives each car's "begin" with each
-- checkpoint it reaches, however fast it goes and however thin the
-- checkpoint; reaching them in order and then the start line again counts
-- a lap.
--
-- Four cars, turned rectangles 5 x 2.4, in one world with the barriers and
-- the checkpoints. Each fixed step every car in turn (the others stand
-- still meanwhile) is driven by the autopilot: it steers toward a point of
-- its own lane LOOK waypoints ahead (at most MAX_TURN rad/s; the lanes
-- weave, so cars meet each other and the barriers), slows for the turn it
-- still has to make, and world:move(car, gx, gy, angle, nil, out)
-- moves it toward the goal center while it turns to the goal angle:
-- barriers and the other cars slide, the checkpoints (sensors) are
-- crossed. Each collision the move reports costs speed (more the more
-- head on) and leans the next goal away from what was hit. A car stuck
-- (slow and pressed against something for a while) backs up for half a
-- second. After every car has moved, the step's events advance the cars'
-- checkpoints and laps.
--
-- game.new() -> g. g:step([input]) advances one step of DT: every car on
-- the autopilot, or car 1 by input = { steer = -1..1, throttle = -1..1 }
-- when given. g:check_step() -> nil or why the step broke a rule;
-- g:check_end() -> nil or why the run failed; both only look.
-- game.play(frames) runs the autopilot with the checks.
--
-- The checks are the game's own, independent of the mover, made after
-- every car's move (g.checking, which game.play and main.lua's --frames
-- set): the car's pose as the move returned it, in a fresh box, against
-- every barrier (box:intersects, then box:penetration: no deeper than TOL
-- times the pair's scale, depth_of below; the deepest a car ends in the
-- race is 2e-13 of it, within the touching band);
-- the path of its center, from where it started through every contact
-- center the move reported to where it ended, crosses no barrier's line;
-- its center is on the track (inside exactly one of the two barriers'
-- polygons). After all the moves, no two cars overlap deeper than TOL.
-- The out and events tables are reused: a step allocates nothing of its
-- own.

local obb = require "obb"

local M = {}

M.DT = 1 / 60
M.CI_FRAMES = 900     -- what .ci/love.sh and the spec run: 15 s of racing
M.HALF_W = 6          -- the track's half width, center line to barrier
M.THIN = 0.25         -- a barrier's half thickness
M.CAR_HX, M.CAR_HY = 2.5, 1.2 -- a car's half length and half width
M.MAX_TURN = 5        -- rad/s
M.ACCEL, M.BRAKE = 25, 40 -- units/s^2
M.LOOK = 3            -- waypoints ahead the autopilot aims at
M.SEG = 5             -- the longest segment of the center line
M.ARC_STEP = math.pi / 12 -- a corner's arc, in segments of at most 15 degrees
M.TOL = 1e-9          -- "inside": deeper than TOL times the pair's scale
M.PUSH = 0.5          -- units/s a hit leans the next goal away from it
M.STUCK = 20          -- steps slow and pressed against something: stuck
M.REVERSE, M.REVERSE_STEPS = 8, 30 -- a stuck car backs up at this speed, this long
M.SCRAPE = 0.15       -- the speed a head-on hit costs (a graze costs less)

-- The center line's corners (x, y, radius of the rounded corner), in the
-- order the cars run them: clockwise on screen, a dent in the bottom side.
M.CORNERS = {
  { 12, 14, 10 }, { 108, 14, 10 }, { 108, 68, 10 }, { 80, 68, 10 },
  { 62, 42, 10 }, { 44, 68, 10 }, { 12, 68, 10 },
}
M.START = 20 -- the start line is 20 units into the first straight (A to B)

-- The cars: lane (units from the center line, + to the right of travel),
-- how far it weaves about it (units; the outer ones scrape the barriers),
-- how fast it weaves (rad/s), top speed (units/s), its colour (main.lua).
M.CARS = {
  { lane = -2.5, weave = 3.2, rate = 0.9, top = 42, colour = { 0.95, 0.3, 0.25 } },
  { lane = 2.5, weave = 2.6, rate = 1.3, top = 43, colour = { 0.3, 0.6, 1.0 } },
  { lane = -1.0, weave = 2.5, rate = 1.7, top = 44, colour = { 1.0, 0.85, 0.2 } },
  { lane = 1.0, weave = 2.0, rate = 1.1, top = 46, colour = { 0.35, 0.9, 0.45 } },
}

local DT = M.DT
local HALF_W, THIN = M.HALF_W, M.THIN
local S = obb.MOVE_STRIDE2 -- other, response, t, nx, ny, x, y, depth
local atan2 = math.atan2 or math.atan
local sqrt, sin, cos, tan, abs = math.sqrt, math.sin, math.cos, math.tan, math.abs
local min, max, ceil, pi = math.min, math.max, math.ceil, math.pi

-- the world's classes: barriers keep 0; checkpoints are a sensor class
local CHECKPOINT, CAR = 1, 2

local function wrap(a) return (a + pi) % (2 * pi) - pi end

-- ---- the track ---------------------------------------------------------------

-- The center line: each corner rounded by an arc of radius r tangent to
-- both of its sides, in segments of at most ARC_STEP; the straights cut
-- into pieces of at most SEG. Returns the points, closed (the last joins
-- the first), and the index of the point where the first straight begins.
local function center_line(corners)
  local n, arcs = #corners, {}
  for i = 1, n do
    local p, v, q = corners[(i - 2) % n + 1], corners[i], corners[i % n + 1]
    local d1x, d1y = v[1] - p[1], v[2] - p[2]
    local d2x, d2y = q[1] - v[1], q[2] - v[2]
    local l1, l2 = sqrt(d1x * d1x + d1y * d1y), sqrt(d2x * d2x + d2y * d2y)
    d1x, d1y, d2x, d2y = d1x / l1, d1y / l1, d2x / l2, d2y / l2
    local turn = atan2(d1x * d2y - d1y * d2x, d1x * d2x + d1y * d2y)
    local r = v[3]
    local t = r * tan(abs(turn) / 2)
    local sx, sy = v[1] - d1x * t, v[2] - d1y * t -- where the arc starts
    local sg = turn > 0 and 1 or -1
    local cx, cy = sx - d1y * r * sg, sy + d1x * r * sg -- its center
    local a0 = atan2(sy - cy, sx - cx)
    local m = max(1, ceil(abs(turn) / M.ARC_STEP))
    local arc = {}
    for k = 0, m do
      local a = a0 + turn * k / m
      arc[#arc + 1] = { cx + r * cos(a), cy + r * sin(a) }
    end
    arcs[i] = arc
  end
  local pts = {}
  for i = 1, n do
    local arc, nxt = arcs[i], arcs[i % n + 1]
    for k = 1, #arc do pts[#pts + 1] = arc[k] end
    -- the straight from this arc's end to the next one's start
    local ax, ay = arc[#arc][1], arc[#arc][2]
    local bx, by = nxt[1][1], nxt[1][2]
    local len = sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
    local pieces = ceil(len / M.SEG)
    for k = 1, pieces - 1 do
      pts[#pts + 1] = { ax + (bx - ax) * k / pieces, ay + (by - ay) * k / pieces }
    end
  end
  return pts, #arcs[1]
end

-- For each point of a closed line: the unit tangent (the way the cars run)
-- and the miter normal (to the right of travel, y down: (-ty, tx) turns
-- the tangent clockwise on screen), scaled so that the offset lines keep
-- their distance from every segment.
local function frames_of(pts)
  local n = #pts
  for i = 1, n do
    local p, v, q = pts[(i - 2) % n + 1], pts[i], pts[i % n + 1]
    local ax, ay = v[1] - p[1], v[2] - p[2]
    local bx, by = q[1] - v[1], q[2] - v[2]
    local la, lb = sqrt(ax * ax + ay * ay), sqrt(bx * bx + by * by)
    ax, ay, bx, by = ax / la, ay / la, bx / lb, by / lb
    local tx, ty = ax + bx, ay + by
    local lt = sqrt(tx * tx + ty * ty)
    tx, ty = tx / lt, ty / lt
    local mx, my = -ty, tx
    local k = 1 / (mx * -ay + my * ax) -- 1 / cos(half the turn)
    v.tx, v.ty, v.nx, v.ny = tx, ty, mx * k, my * k
  end
end

-- A barrier: a thin box along the segment p..q, a little longer (THIN at
-- each end) so that neighbours close their joins.
local function add_barrier(g, side, i, px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  local len = sqrt(dx * dx + dy * dy)
  local b = { kind = "barrier", side = side, index = i, px = px, py = py, qx = qx, qy = qy,
              box = obb.new2((px + qx) / 2, (py + qy) / 2, len / 2 + THIN, THIN, atan2(dy, dx)) }
  g.barriers[#g.barriers + 1] = b
  g.world:add(b, b.box)
end

-- The checkpoint across the track at center-line point i.
local function add_checkpoint(g, i)
  local v = g.line[i]
  local cp = { kind = "checkpoint", index = #g.checkpoints, at = i,
               box = obb.new2(v[1], v[2], 0.15, HALF_W - 2 * THIN, atan2(v.ty, v.tx)) }
  g.checkpoints[#g.checkpoints + 1] = cp
  g.world:add(cp, cp.box)
  g.world:set_class(cp, CHECKPOINT)
end

-- Whether (x, y) is inside the closed polygon poly (a flat list x1, y1, ...).
local function inside(poly, x, y)
  local n, c = #poly, false
  local jx, jy = poly[n - 1], poly[n]
  for i = 1, n, 2 do
    local ix, iy = poly[i], poly[i + 1]
    if (iy > y) ~= (jy > y) and x < (jx - ix) * (y - iy) / (jy - iy) + ix then c = not c end
    jx, jy = ix, iy
  end
  return c
end
M.inside = inside

local function build_track(g)
  local pts, straight = center_line(M.CORNERS)
  frames_of(pts)
  g.line = pts
  -- the barriers: the center line offset HALF_W to each side
  local left, right = {}, {}
  local n = #pts
  for i = 1, n do
    local v = pts[i]
    left[2 * i - 1], left[2 * i] = v[1] - v.nx * HALF_W, v[2] - v.ny * HALF_W
    right[2 * i - 1], right[2 * i] = v[1] + v.nx * HALF_W, v[2] + v.ny * HALF_W
  end
  g.left, g.right = left, right
  g.barriers = {}
  for _, side in ipairs { "left", "right" } do
    local poly = g[side]
    for i = 1, n do
      local j = i % n + 1
      add_barrier(g, side, i, poly[2 * i - 1], poly[2 * i], poly[2 * j - 1], poly[2 * j])
    end
  end
  -- the distance along the center line to each point; the start line
  -- and three checkpoints at a quarter of a lap from each other
  local along, total = { 0 }, 0
  for i = 2, n + 1 do
    local p, q = pts[i - 1], pts[(i - 1) % n + 1]
    total = total + sqrt((q[1] - p[1]) ^ 2 + (q[2] - p[2]) ^ 2)
    along[i] = total
  end
  g.length = total
  local function point_at(d)
    d = d % total
    for i = 1, n do
      if along[i + 1] > d then
        -- the nearer of the segment's two ends
        if d - along[i] < along[i + 1] - d then return i end
        return i % n + 1
      end
    end
    return 1
  end
  local start = point_at(along[straight] + M.START)
  g.checkpoints = {}
  for k = 0, 3 do add_checkpoint(g, point_at(along[start] + k * total / 4)) end
  g.start = start
end

-- ---- the cars ------------------------------------------------------------------

local Game = {}
Game.__index = Game

local function scratch(n)
  local t = {}
  for i = 1, n do t[i] = false end
  return t
end

function M.new()
  local g = setmetatable({}, Game)
  g.world = obb.world2()
  g.world:set_sensor_class(CHECKPOINT) -- never blocks, and has events
  build_track(g)
  -- the grid: behind each other on the start straight, past the start
  -- line, the fastest at the back
  g.cars = {}
  local n = #g.line
  for i, spec in ipairs(M.CARS) do
    local at = (g.start + (#M.CARS - i) * 2 + 1) % n + 1
    local v = g.line[at]
    local side = (i % 2 == 0) and 1 or -1
    local x, y = v[1] + v.nx * side * 2.5, v[2] + v.ny * side * 2.5
    local car = {
      kind = "car", index = i, spec = spec, x = x, y = y, a = atan2(v.ty, v.tx), speed = 0, n = 0,
      -- progress: the next waypoint, waypoints passed (need: to the start
      -- line), the next checkpoint, laps and the frame of the first
      wp = at % n + 1, passed = 0, need = (g.start - at) % n, next_cp = 1, laps = 0, lap_frame = false,
      wall_hits = 0, car_hits = 0, reversals = 0,
      -- the autopilot's state: the lean away from the last hit, steps
      -- stuck, steps left backing up, held in place by the last move
      push_x = 0, push_y = 0, stuck = 0, reverse = 0, held = false,
      -- the last hit: its frame, the contact center and the normal
      hit = false, hit_x = 0, hit_y = 0, hit_nx = 0, hit_ny = 0,
    }
    car.box = obb.new2(x, y, M.CAR_HX, M.CAR_HY, car.a)
    g.cars[i] = car
    g.world:add(car, car.box)
    g.world:set_class(car, CAR)
  end
  g.out = scratch(32 * S)
  g.ev = scratch(32 * 4) -- world:events: sensor, other, "begin" or "end", t
  -- the path of the last moved car's center: where it started, the
  -- contact centers, where it ended (x, y pairs)
  g.path, g.path_n = scratch(2 * 80), 0
  g.probe, g.probe2 = obb.new2(0, 0, 1, 1), obb.new2(0, 0, 1, 1)
  g.frame = 0
  g.stats = { wall_hits = 0, car_hits = 0, worst_depth = 0 } -- worst_depth: depth / scale
  g.failed = nil
  return g
end

-- The autopilot: the turn this step (radians, before it is limited to
-- MAX_TURN * DT) and the speed it wants, for a car aiming at its lane
-- LOOK waypoints ahead.
local function autopilot(g, car)
  local n, spec = #g.line, car.spec
  local v = g.line[(car.wp + M.LOOK - 2) % n + 1]
  local lane = spec.lane + spec.weave * sin(g.frame * DT * spec.rate + car.index)
  local edge = HALF_W - M.CAR_HY + 0.5 -- a little beyond where it scrapes
  lane = max(-edge, min(edge, lane))
  local tx, ty = v[1] + v.nx * lane, v[2] + v.ny * lane
  local err = wrap(atan2(ty - car.y, tx - car.x) - car.a)
  -- slow down for a sharp turn ahead: the heading two more waypoints on
  local w = g.line[(car.wp + M.LOOK) % n + 1]
  local ahead = abs(wrap(atan2(w.ty, w.tx) - car.a))
  local want = spec.top * (1 - 0.45 * min(1, (abs(err) + ahead) / 1.2))
  return err, want
end

-- Moves car one step: steer (turn, at most MAX_TURN * DT), speed up or
-- slow down, then the turning move.
local function drive(g, car, input)
  local turn, want
  if input then
    local th = input.throttle or 0
    turn = (input.steer or 0) * M.MAX_TURN * DT
    want = th > 0 and car.spec.top or th < 0 and (car.speed > 0.5 and 0 or -M.REVERSE) or car.speed * 0.99
  else
    turn, want = autopilot(g, car)
    -- stuck (slow, and pressed against something for a while): back up
    -- for a moment, still steering toward the lane
    if car.reverse > 0 then
      car.reverse, want = car.reverse - 1, -M.REVERSE
    elseif car.stuck > M.STUCK then
      car.reverse, car.stuck, want = M.REVERSE_STEPS, 0, -M.REVERSE
      car.reversals = car.reversals + 1
    end
  end
  local mt = M.MAX_TURN * DT
  turn = max(-mt, min(mt, turn))
  local dv = max(-M.BRAKE * DT, min(M.ACCEL * DT, want - car.speed))
  car.speed = car.speed + dv
  local world, out, path = g.world, g.out, g.path
  path[1], path[2] = car.x, car.y -- the center's path, for the checks
  local pn = 2
  local a = car.a + turn / 2 -- along the heading halfway through the turn
  local step = car.speed * DT
  local x0, y0 = car.x, car.y
  local gx, gy = x0 + step * cos(a) + car.push_x, y0 + step * sin(a) + car.push_y
  local x, y, n, a1 = world:move(car, gx, gy, car.a + turn, nil, out)
  car.push_x, car.push_y = 0, 0
  car.x, car.y, car.a, car.n = x, y, a1, n
  world:get(car, car.box)
  -- what it met, in the order met; each contact center is on the path
  for i = 0, n - 1 do
    local k = i * S
    local other, response = out[k + 1], out[k + 2]
    path[pn + 1], path[pn + 2] = out[k + 6], out[k + 7]
    pn = pn + 2
    if response ~= "cross" then -- (a checkpoint: the step's events tell)
      if other.kind == "car" then
        car.car_hits = car.car_hits + 1
        g.stats.car_hits = g.stats.car_hits + 1
      else
        car.wall_hits = car.wall_hits + 1
        g.stats.wall_hits = g.stats.wall_hits + 1
      end
      -- a scrape costs speed, more the more head on it is
      local nx, ny = out[k + 4], out[k + 5]
      car.speed = car.speed * (1 - M.SCRAPE * abs(nx * cos(a1) + ny * sin(a1)))
      -- and the next goal leans away from what it hit
      car.push_x, car.push_y = car.push_x + nx * M.PUSH * DT, car.push_y + ny * M.PUSH * DT
      car.hit, car.hit_x, car.hit_y, car.hit_nx, car.hit_ny = g.frame, out[k + 6], out[k + 7], nx, ny
    end
  end
  path[pn + 1], path[pn + 2] = x, y
  g.path_n = pn + 2
  -- held: it hit something and went less than a third of the way it
  -- drove. Stuck: held, or slow against something, for STUCK steps.
  if car.hit == g.frame then
    local moved = sqrt((x - x0) ^ 2 + (y - y0) ^ 2)
    car.held = moved < abs(step) / 3
    if car.reverse == 0 and (car.held or abs(car.speed) < 4) then car.stuck = car.stuck + 1 end
  elseif car.stuck > 0 then
    car.stuck = car.stuck - 1
  end
  -- the waypoints passed: a point is passed once the car is beyond the
  -- line through it across the track
  local line = g.line
  for _ = 1, 8 do
    local v = line[car.wp]
    if (x - v[1]) * v.tx + (y - v[2]) * v.ty < 0 then break end
    car.wp = car.wp % #line + 1
    car.passed = car.passed + 1
  end
end

-- ---- the checks ------------------------------------------------------------------

-- Whether the segment a..b crosses the segment p..q (strictly: from one
-- side of the other's line to the other).
local function side(px, py, qx, qy, x, y) return (qx - px) * (y - py) - (qy - py) * (x - px) end
local function crosses(ax, ay, bx, by, p)
  local s1, s2 = side(p.px, p.py, p.qx, p.qy, ax, ay), side(p.px, p.py, p.qx, p.qy, bx, by)
  local s3, s4 = side(ax, ay, bx, by, p.px, p.py), side(ax, ay, bx, by, p.qx, p.qy)
  return s1 * s2 < 0 and s3 * s4 < 0
end

-- How deep box a is in box b (0 apart or touching), and the scale the
-- tolerance is relative to: the pair's size and distance from the origin.
local function depth_of(a, b)
  if not a:intersects(b) then return 0, 1 end
  local _, _, depth = a:penetration(b)
  local ax, ay = a:center()
  local bx, by = b:center()
  local ahx, ahy = a:half_extents()
  local bhx, bhy = b:half_extents()
  return depth, 1 + max(abs(ax), abs(ay), abs(bx), abs(by)) + ahx + ahy + bhx + bhy
end

-- The path of the car's center this step (g.path) crosses no barrier's
-- line, and it ends on the track.
local function check_path(g, car)
  local path = g.path
  for i = 1, g.path_n - 3, 2 do
    local ax, ay, bx, by = path[i], path[i + 1], path[i + 2], path[i + 3]
    for _, b in ipairs(g.barriers) do
      if crosses(ax, ay, bx, by, b) then
        return ("frame %d: car %d's center crossed the %s barrier %d, from (%.4f, %.4f) to (%.4f, %.4f)")
          :format(g.frame, car.index, b.side, b.index, ax, ay, bx, by)
      end
    end
  end
  if inside(g.left, car.x, car.y) == inside(g.right, car.x, car.y) then
    return ("frame %d: car %d is off the track at (%.4f, %.4f)"):format(g.frame, car.index, car.x, car.y)
  end
  return nil
end

-- nil, or why car broke a rule in its move: called right after it, while
-- g.path is its center's path (g:step does when g.checking is set).
function Game:check_car(car)
  local g = self
  local probe = g.probe
  probe:set(car.x, car.y, M.CAR_HX, M.CAR_HY, car.a) -- a fresh box with the pose the move returned
  if not (car.x == car.x and car.y == car.y and car.a == car.a) then
    return ("frame %d: car %d's pose is not a number"):format(g.frame, car.index)
  end
  for _, b in ipairs(g.barriers) do
    local depth, scale = depth_of(probe, b.box)
    g.stats.worst_depth = max(g.stats.worst_depth, depth / scale)
    if depth > M.TOL * scale then
      return ("frame %d: car %d ends inside the %s barrier %d by %.3g at (%.4f, %.4f)")
        :format(g.frame, car.index, b.side, b.index, depth, car.x, car.y)
    end
  end
  return check_path(g, car)
end

function Game:step(input)
  self.frame = self.frame + 1
  for i, car in ipairs(self.cars) do
    drive(self, car, i == 1 and input or nil)
    if self.checking and not self.failed then self.failed = self:check_car(car) end
  end
  self:events()
end

-- The step's events, in the order the moves met them: a car's "begin"
-- with the checkpoint it needs next advances it, and the start line after
-- the last checkpoint counts a lap. The time along the move (ev[4 i + 4])
-- would place the moment within the step; the order is enough here.
function Game:events()
  local ev, ncp = self.ev, #self.checkpoints
  for i = 0, self.world:events(ev) - 1 do
    local cp, car, kind = ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3]
    if kind == "begin" and car.kind == "car" and cp.index == car.next_cp then
      car.next_cp = (car.next_cp + 1) % ncp
      if cp.index == 0 then
        car.laps = car.laps + 1
        if car.laps == 1 then car.lap_frame = self.frame end
      end
    end
  end
end

-- nil, or why the last step broke a rule: every car's own checks (made
-- right after its move, when its path is known), and no two cars overlap
-- deeper than the touching band where they all ended.
function Game:check_step()
  if self.failed then return self.failed end
  local cars, probe, probe2 = self.cars, self.probe, self.probe2
  for i = 1, #cars do
    local a = cars[i]
    probe:set(a.x, a.y, M.CAR_HX, M.CAR_HY, a.a)
    for j = i + 1, #cars do
      local b = cars[j]
      probe2:set(b.x, b.y, M.CAR_HX, M.CAR_HY, b.a)
      local depth, scale = depth_of(probe, probe2)
      if depth > M.TOL * scale then
        return ("frame %d: cars %d and %d overlap by %.3g"):format(self.frame, i, j, depth)
      end
    end
  end
  return nil
end

-- nil, or why the whole run failed: every car completed a lap (through
-- every checkpoint in order) and passed a lap's worth of waypoints, and
-- the cars scraped the barriers and each other.
function Game:check_end()
  for _, car in ipairs(self.cars) do
    if car.laps < 1 then
      return ("car %d completed no lap in %d frames (next checkpoint %d, %d waypoints passed)")
        :format(car.index, self.frame, car.next_cp, car.passed)
    end
    if car.passed < car.need then
      return ("car %d passed %d of the %d waypoints round to the start line")
        :format(car.index, car.passed, car.need)
    end
  end
  if self.stats.wall_hits == 0 then return "no car scraped a barrier: the example shows nothing" end
  if self.stats.car_hits == 0 then return "no car touched another: the example shows nothing" end
  return nil
end

-- Runs the autopilot for frames steps with the checks: true, or false and
-- why; and the game.
function M.play(frames)
  local g = M.new()
  g.checking = true
  for _ = 1, frames do
    g:step()
    local why = g:check_step()
    if why then return false, why, g end
  end
  local why = g:check_end()
  if why then return false, why, g end
  return true, nil, g
end

return M
