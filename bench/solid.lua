-- bench/solid.lua: world:move_solid, run by bench/run.lua (`make bench`)
-- after the other movers' rows, printing its rows with require "report".
--
-- The scene: a platform sliding right along a long floor, N riders on its
-- top, M crates stacked against its front face (each one touching it).
-- Every step the platform moves 0.05 to the right: it carries its N riders
-- and pushes its M crates, which slide along the floor (a step is a
-- frame of a game with a moving solid). Three ways to do a step:
--   - world:move_solid with a response set (the floor ignored, riders and
--     crates by the default rule: the riders rest on it, the crates are in
--     its way) and an out table: one call;
--   - the N + M world:moves of the same items a game would make if it
--     knew which ride and which are pushed: world:update of the platform,
--     then a world:move of each rider and each crate by the platform's
--     step (a response set ignoring the platform); target: move_solid is
--     no slower;
--   - the same done by hand in Lua, as a game without move_solid writes it
--     (and as the platformer example did): the riders found by a
--     world:query_box over the platform's top and a test in Lua of each
--     one's bottom against it, world:update of the platform, a world:move
--     of each rider, then a world:query_box of the platform where it ends
--     and a world:push of everything in it; target: move_solid is at least
--     3x faster under LuaJIT.
-- A row is per step (per solid's move), the median of the runs.
local obb = require "obb"
local report = require "report"

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local STEPS = QUICK and 200 or 2000
local DX = 0.05
local FLOOR, PLATFORM, RIDER, CRATE = 1, 2, 3, 4

-- The scene: the platform (half width n + 1, height m, on the floor), its
-- riders and its crates; returns the world, the platform, the riders, the
-- crates.
local function scene(n, m)
  local w = obb.world2({ up = { 0, 1 }, cell = 2 })
  local floor, platform = { kind = "floor" }, { kind = "platform" }
  w:add(floor, 0, -0.5, 1e6, 0.5):set_class(floor, FLOOR)
  w:add(platform, 0, m / 2, n + 1, m / 2):set_class(platform, PLATFORM)
  local riders, crates = {}, {}
  for i = 1, n do
    local r = { kind = "rider" }
    w:add(r, -n - 1 + 2 * i, m + 0.5, 0.4, 0.5):set_class(r, RIDER)
    riders[i] = r
  end
  for j = 1, m do
    local c = { kind = "crate" }
    w:add(c, n + 1.5, j - 0.5, 0.5, 0.5):set_class(c, CRATE)
    crates[j] = c
  end
  return w, platform, riders, crates
end

local SOLID = obb.responses({ [FLOOR] = false }) -- the rest: the default rule
local MOVE = obb.responses({ [PLATFORM] = false })

local function run_solid(n, m)
  local w, platform = scene(n, m)
  local out = {}
  local x = 0
  local function steps(k)
    for _ = 1, k do
      x = x + DX
      w:move_solid(platform, x, m / 2, SOLID, out, MOVE)
    end
  end
  local t = report.time(steps, STEPS)
  local rides, pushes = 0, 0
  for i = 2, #out, obb.SOLID2.stride do
    if out[i] == "ride" then rides = rides + 1 elseif out[i] == "push" then pushes = pushes + 1 end
  end
  assert(rides == n and pushes == m, ("the scene's step carries %d (of %d) and pushes %d (of %d)")
    :format(rides, n, pushes, m))
  return t
end

local function run_moves(n, m)
  local w, platform, riders, crates = scene(n, m)
  local x = 0
  local function steps(k)
    for _ = 1, k do
      x = x + DX
      w:update(platform, x, m / 2, n + 1, m / 2)
      for i = 1, n do
        local r = riders[i]
        local rx, ry = w:get(r)
        w:move(r, rx + DX, ry, MOVE)
      end
      for j = 1, m do
        local c = crates[j]
        local cx, cy = w:get(c)
        w:move(c, cx + DX, cy, MOVE)
      end
    end
  end
  return report.time(steps, STEPS)
end

local function run_by_hand(n, m)
  local w, platform = scene(n, m)
  local x, hit, riders = 0, {}, {}
  local top = obb.new2(0, 0, 1, 1)
  local box = obb.new2(0, 0, 1, 1)
  local function ignore_platform(_, other) return other ~= platform and "slide" end
  local function not_floor(item) return item.kind ~= "floor" and item ~= platform end
  local function push_out(_, other) return other == platform and "slide" end
  local function steps(k)
    for _ = 1, k do
      -- the riders: what rests on the platform's top
      local px, py, hx, hy = w:get(platform)
      top:set(px, py + hy, hx, 0.001)
      local count = w:query_box(top, hit, not_floor)
      local nr = 0
      for i = 1, count do
        local it = hit[i]
        local _, iy, _, ihy = w:get(it)
        if math.abs(iy - ihy - (py + hy)) < 1e-9 then
          nr = nr + 1
          riders[nr] = it
        end
      end
      x = x + DX
      w:update(platform, x, m / 2, n + 1, m / 2)
      for i = 1, nr do
        local r = riders[i]
        local rx, ry = w:get(r)
        w:move(r, rx + DX, ry, ignore_platform)
      end
      -- what it went into: pushed out
      w:get(platform, box)
      count = w:query_box(box, hit, not_floor)
      for i = 1, count do
        local it = hit[i]
        if box:overlaps(w:get(it, top)) then w:push(it, push_out) end
      end
    end
  end
  return report.time(steps, STEPS)
end

local function run()
  report.section(("Moving solids: a platform carrying N riders and pushing M crates, per step (%s)")
    :format(rawget(_G, "jit") and (package.loaded["obb.jit"] or {}).status or "classic"))
  for _, size in ipairs({ { 4, 4 }, { 16, 16 } }) do
    local n, m = size[1], size[2]
    local t_solid = run_solid(n, m)
    local t_moves = run_moves(n, m)
    local t_hand = run_by_hand(n, m)
    report.row(("move_solid, N = %d, M = %d"):format(n, m), t_solid, "N + M world:moves", t_moves)
    report.row(("move_solid, N = %d, M = %d"):format(n, m), t_solid, "by hand: update, query, push", t_hand)
  end
  report.note("the same scene every row; a step carries every rider and pushes every crate 0.05")
end

run()
