-- bench/query.lua: a query's filter, a response set against a Lua filter
-- function (issue 40), run by bench/run.lua (`make bench`) after the world
-- rows, printing its rows with require "report".
--
-- The scene: a 2D level of 16 px tiles, 160 x 90 cells, about 15% of them
-- wall tiles (class 0), with 800 pickups (class 1), 1,500 bullets (class 2)
-- and 200 enemies (class 3), small boxes dropped into free cells, some
-- turned. The calls, each the same in both rows of a pair:
--   line of sight: w:raycast from each enemy to a point 3 to 10 tiles
--     away (where the player might be: max_t = 1, the segment between
--     them), ignoring pickups and bullets: with the set
--     obb.responses{[PICKUP] = false, [BULLET] = false} against the
--     closure function(e) local c = w:class(e) return c ~= PICKUP and
--     c ~= BULLET end, which a game writes without sets;
--   blast: w:query_box with a box of 5 x 5 tiles at each enemy, keeping
--     only enemies (obb.responses{default = false, [ENEMY] = "touch"}
--     against function(e) return w:class(e) == ENEMY end).
-- A row is the median time per call over repeated passes over the 200
-- enemies; the ratio is the speed-up over the filter function. A third row
-- of each gives the same calls without a filter, for what the search
-- itself costs (its results include what the set leaves out).
-- OBB_BENCH_QUICK=1 makes fewer passes.
local obb = require "obb"
local report = require "report"
local rng = require "rng" -- bench/rng.lua

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local PICKUP, BULLET, ENEMY = 1, 2, 3 -- walls keep class 0
local TILE, W, H = 16, 160, 90

local function scene()
  local r = rng(4040)
  local w = obb.world2({ cell = TILE })
  local used, enemies = {}, {}
  local function free_cell()
    while true do
      local cx, cy = math.floor(r() * W), math.floor(r() * H)
      if not used[cy * W + cx] then
        used[cy * W + cx] = true
        return cx * TILE + TILE / 2, cy * TILE + TILE / 2
      end
    end
  end
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      if cx == 0 or cy == 0 or cx == W - 1 or cy == H - 1 or r() < 0.13 then
        used[cy * W + cx] = true
        w:add({}, cx * TILE + TILE / 2, cy * TILE + TILE / 2, TILE / 2, TILE / 2)
      end
    end
  end
  local function spawn(class, n, hx, hy)
    for _ = 1, n do
      local x, y = free_cell()
      local item = {}
      w:add(item, x, y, hx, hy, r() < 0.3 and r() * math.pi or 0)
      w:set_class(item, class)
      if class == ENEMY then
        local a, d = r() * 2 * math.pi, (3 + 7 * r()) * TILE
        enemies[#enemies + 1] = { x, y, d * math.cos(a), d * math.sin(a) }
      end
    end
  end
  spawn(PICKUP, 800, 4, 4)
  spawn(BULLET, 1500, 2, 1)
  spawn(ENEMY, 200, 6, 7)
  return w, enemies
end

local w, enemies = scene()
local NE = #enemies
local out = {}

local sight_set = obb.responses({ [PICKUP] = false, [BULLET] = false })
local function sight_fn(e)
  local c = w:class(e)
  return c ~= PICKUP and c ~= BULLET
end
local blast_set = obb.responses({ default = false, [ENEMY] = "touch" })
local function blast_fn(e) return w:class(e) == ENEMY end

-- Runs n calls (n a multiple of NE) of the line of sight with filter;
-- the hits found.
local function sight(n, filter)
  local found = 0
  for _ = 1, n / NE do
    for i = 1, NE do
      local e = enemies[i]
      found = found + w:raycast(e[1], e[2], e[3], e[4], 1, out, filter)
    end
  end
  return found
end
local blast_box = obb.new2(0, 0, 2.5 * TILE, 2.5 * TILE)
local function blast(n, filter)
  local found = 0
  for _ = 1, n / NE do
    for i = 1, NE do
      local e = enemies[i]
      blast_box:set_center(e[1], e[2])
      found = found + w:query_box(blast_box, out, filter)
    end
  end
  return found
end

-- the set and the function agree on the scene
assert(sight(NE, sight_set) == sight(NE, sight_fn), "line of sight: set and function disagree")
assert(blast(NE, blast_set) == blast(NE, blast_fn), "blast: set and function disagree")

local N = NE * (QUICK and 20 or 200)
local jit = rawget(_G, "jit") and "LuaJIT" or _VERSION
report.section(("A query's filter: a response set against a Lua function (%s, %d items)")
  :format(jit, w:count()))
local t_fn = report.time(function(n) sight(n, sight_fn) end, N)
local t_set = report.time(function(n) sight(n, sight_set) end, N)
local t_none = report.time(function(n) sight(n, nil) end, N)
report.row("raycast line of sight, response set", t_set, "the same, Lua filter (w:class)", t_fn)
report.row("raycast line of sight, no filter", t_none, "the same, Lua filter (w:class)", t_fn)
local b_fn = report.time(function(n) blast(n, blast_fn) end, N)
t_set = report.time(function(n) blast(n, blast_set) end, N)
t_none = report.time(function(n) blast(n, nil) end, N)
report.row("query_box 5x5 tiles, enemies only, response set", t_set, "the same, Lua filter (w:class)", b_fn)
report.row("query_box 5x5 tiles, no filter", t_none, "the same, Lua filter (w:class)", b_fn)
report.note(("per call with the Lua filter: the line of sight %s, the blast %s")
  :format(report.format_time(t_fn), report.format_time(b_fn)))
report.note(("the line of sight finds %.1f hits with the set, %.1f without a filter;")
  :format(sight(NE, sight_set) / NE, sight(NE, nil) / NE))
report.note(("the blast %.1f enemies with the set, %.1f items without a filter")
  :format(blast(NE, blast_set) / NE, blast(NE, nil) / NE))
w:close()
