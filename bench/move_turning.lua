-- bench/move_turning.lua: world:move's turning form on the racing example's
-- track, run by bench/run.lua (`make bench`) after the other movers' rows,
-- printing its rows with require "report".
--
-- The cases: the racing game of examples/racing.lua played with the turning
-- move (its 16 barriers of the two octagons, its 4 baffles, 8 cars on
-- racing lines that weave across the track, so that they scrape the
-- barriers), every car's pose and goal (center and angle) recorded each
-- frame: FRAMES * 8 moves, of which the notes give the share that met a
-- barrier (the cars met in the game are not in the replay's world). Each
-- row then replays every recorded move from its recorded pose in a world
-- holding the track and one car (world:update puts it there, world:check
-- moves it without committing, so every row answers the same questions):
--   - world:check with the goal angle (the turning move), against
--     world:check to the same goal without it (today's non-turning move:
--     the car keeps its angle); the target is within 3x;
--   - the turning move against the racing example's former hand-written
--     loop (before issue 30): world:cast_turning of the whole motion, the
--     car stopped at the first barrier, stepped off it by a skin of 0.01
--     (world:cast), the rest of the move clipped along it (obb.clip) and
--     cast again, up to 4 casts; from box:set instead of world:update. The
--     target is faster.
-- A row is the median of RUNS passes over all the cases, per move.
local obb = require "obb"
local report = require "report"

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local FRAMES = QUICK and 60 or 600
local RUNS = QUICK and 3 or 7
local DT, THIN, SKIN, LEGS = 1 / 30, 0.05, 0.01, 4
local HX, HY = 2.2, 1.1

local atan2 = math.atan2 or math.atan
local sqrt, cos, sin, min, max, pi = math.sqrt, math.cos, math.sin, math.min, math.max, math.pi

-- The track of examples/racing.lua into world w.
local function track(w)
  local function barrier(px, py, qx, qy)
    local dx, dy = qx - px, qy - py
    local len = sqrt(dx * dx + dy * dy)
    w:add({ barrier = true }, (px + qx) / 2, (py + qy) / 2, len / 2 + THIN, THIN, atan2(dy, dx))
  end
  for _, r in ipairs({ 30, 60 }) do
    for k = 0, 7 do
      local a0, a1 = (k + 0.5) * pi / 4, (k + 1.5) * pi / 4
      barrier(r * cos(a0), r * sin(a0), r * cos(a1), r * sin(a1))
    end
  end
  for k = 0, 6, 2 do
    local a = (k + 0.5) * pi / 4
    barrier((60 - 0.2) * cos(a), (60 - 0.2) * sin(a), 50 * cos(a + 0.2), 50 * sin(a + 0.2))
  end
  return w
end

-- The racing game with the turning move, recording every car's move: the
-- cases (x, y, angle, gx, gy, goal angle), and how many met something.
local function record()
  local w = track(obb.world2())
  local cars, out = {}, {}
  for i = 1, 8 do
    local line = 33 + 3 * i
    local car = { line = line, weave = 3 + i, speed = 0, top = 34 + 3 * i, pushx = 0, pushy = 0,
                  x = line * cos(i * pi / 4), y = line * sin(i * pi / 4), a = i * pi / 4 + pi / 2 }
    w:add(car, car.x, car.y, HX, HY, car.a)
    cars[i] = car
  end
  local cases, met = {}, 0
  for frame = 1, FRAMES do
    local t = frame * DT
    for _, car in ipairs(cars) do
      local x, y, a = car.x, car.y, car.a
      local r = sqrt(x * x + y * y)
      local target = car.line + car.weave * sin(t * 0.9 + car.line)
      local bend = max(-0.6, min(0.6, (target - r) * 0.15))
      local turn = atan2(x / r + bend * y / r, -y / r + bend * x / r) - a
      turn = max(-3 * DT, min(3 * DT, (turn + pi) % (2 * pi) - pi))
      car.speed = min(car.top, car.speed + 20 * DT)
      local h = a + turn / 2
      local gx = x + car.speed * DT * cos(h) + car.pushx
      local gy = y + car.speed * DT * sin(h) + car.pushy
      cases[#cases + 1] = { x, y, a, gx, gy, a + turn }
      local n
      car.x, car.y, n, car.a = w:move(car, gx, gy, a + turn, nil, out)
      car.pushx, car.pushy = 0, 0
      local wall = false
      for k = 0, n - 1 do
        car.pushx = car.pushx + out[k * 8 + 4] * 0.3 * DT
        car.pushy = car.pushy + out[k * 8 + 5] * 0.3 * DT
        if out[k * 8 + 1].barrier then wall = true end
      end
      if n > 0 then car.speed = car.speed * 0.85 end
      if wall then met = met + 1 end
    end
  end
  w:close()
  return cases, met
end

-- The racing example's loop before issue 30, on a box not in the world.
local function hand_loop(w, box, dx, dy, dw, out, out2)
  for _ = 1, LEGS do
    local n = w:cast_turning(box, dx, dy, dw, out)
    local tc = n > 0 and out[2] or 1
    box:translate(dx * tc, dy * tc):rotate(dw * tc)
    if n == 0 then break end
    local barrier, nx, ny = out[1], out[3], out[4]
    -- step off by a skin, the barrier met skipped
    local m = w:cast(box, nx * SKIN, ny * SKIN, out2, function(item) return item ~= barrier end)
    local s = m > 0 and out2[2] or 1
    box:translate(nx * SKIN * s, ny * SKIN * s)
    dx, dy = obb.clip(dx * (1 - tc), dy * (1 - tc), nx, ny)
    dw = dw * (1 - tc)
  end
end

local function run()
  local cases, met = record()
  local n = #cases
  report.section(("Moving boxes that turn: a car on the racing track, %d recorded moves (%s)")
                 :format(n, QUICK and "quick" or "median of " .. RUNS .. " runs"))
  local w = track(obb.world2())
  local car = {}
  w:add(car, 0, 0, HX, HY)
  local out, out2 = {}, {}
  local function turning(reps)
    for _ = 1, reps do
      for i = 1, n do
        local c = cases[i]
        w:update(car, c[1], c[2], HX, HY, c[3])
        w:check(car, c[4], c[5], c[6], nil, out)
      end
    end
  end
  local function straight(reps)
    for _ = 1, reps do
      for i = 1, n do
        local c = cases[i]
        w:update(car, c[1], c[2], HX, HY, c[3])
        w:check(car, c[4], c[5], nil, out)
      end
    end
  end
  local function update_only(reps)
    for _ = 1, reps do
      for i = 1, n do
        local c = cases[i]
        w:update(car, c[1], c[2], HX, HY, c[3])
      end
    end
  end
  -- the hand-written loop's world: the track alone (its cars were elsewhere)
  local wt = track(obb.world2())
  local box = obb.new2(0, 0, HX, HY)
  local function by_hand(reps)
    for _ = 1, reps do
      for i = 1, n do
        local c = cases[i]
        box:set(c[1], c[2], HX, HY, c[3])
        hand_loop(wt, box, c[4] - c[1], c[5] - c[2], c[6] - c[3], out, out2)
      end
    end
  end
  local per = function(f) return report.time(f, 1, RUNS) / n end
  local t_turn, t_straight, t_hand, t_update = per(turning), per(straight), per(by_hand), per(update_only)
  report.row("move turning (world:check, angle)", t_turn, "world:check, not turning", t_straight)
  report.row("move turning (world:check, angle)", t_turn, "hand-written cast loop, SKIN", t_hand)
  report.row("world:update alone (in both world rows)", t_update)
  report.note(("racing track: %.1f%% of the recorded moves met a barrier; ratios less the"
    .. " update: %.2fx of the non-turning move, %.2fx faster than the hand-written loop")
    :format(100 * met / n, (t_turn - t_update) / (t_straight - t_update), t_hand / (t_turn - t_update)))
  w:close()
  wt:close()
end

run()
