-- bench/events.lua: sensors and events (issue 45), run by bench/run.lua
-- (`make bench`) after the moves, printing its rows with require "report".
--
-- The scene: a 2D level of 16 px tiles, 200 x 100 cells, about 10,000 of
-- them wall tiles, 500 movers (10 px boxes, each frame one world:move by
-- its velocity, sliding along the walls, a new heading when blocked; the
-- movers ignore each other), and 50 zones of 2 to 5 tiles square. A frame
-- is the 500 moves, then the frame's events:
--   - "no sensor": the level and the movers alone (the baseline);
--   - "w:events": the zones are sensors, and w:events(out) gives the
--     frame's begins and ends, every one a move passed through included;
--   - "Lua from w:pairs": the zones are items of their own class, which
--     the movers cross (the same moves), and the events are worked out in
--     Lua, as a game does without events: w:pairs with a response set
--     keeping movers and zones (the tiles' pairs stay in C), the pairs of a
--     zone and a mover keyed by number, and the difference with the last
--     frame's (no garbage: two tables reused);
--   - "quiet": the zones are sensors inside solid blocks of wall, where no
--     mover ever goes: the frames have no event, and the row is what having
--     50 sensors costs a frame (the same scene with the zones no sensors is
--     its baseline).
-- The events' own cost is a frame's less the frame without sensors: the
-- row "events ..." sets that of w:events (the moves' share and the call)
-- against that of the Lua way. OBB_BENCH_QUICK=1 makes fewer frames.
local obb = require "obb"
local report = require "report"
local rng = require "rng" -- bench/rng.lua

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local TILE, W, H = 16, 200, 100
local MOVER, ZONE = 1, 2 -- tiles keep class 0
local NMOVERS, NZONES = 500, 50

-- The level: which cells are walls (the same in every world), the free
-- cells the movers start in, the zones' boxes and the blocks of the quiet
-- scene.
local function level()
  local r = rng(4545)
  local wall, free, zones, blocks = {}, {}, {}, {}
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      wall[cy * W + cx] = cx == 0 or cy == 0 or cx == W - 1 or cy == H - 1 or r() < 0.45
    end
  end
  for _ = 1, NZONES do -- quiet: a zone inside a solid block of 6 x 6 cells
    local cx, cy = 1 + math.floor(r() * (W - 8)), 1 + math.floor(r() * (H - 8))
    for y = cy, cy + 5 do for x = cx, cx + 5 do wall[y * W + x] = true end end
    blocks[#blocks + 1] = { (cx + 3) * TILE, (cy + 3) * TILE, 1.5 * TILE, 1.5 * TILE }
  end
  for i = 0, W * H - 1 do if not wall[i] then free[#free + 1] = i end end
  for _ = 1, NZONES do
    local c = free[1 + math.floor(r() * #free)]
    local h = (1 + math.floor(r() * 4)) * TILE / 2
    zones[#zones + 1] = { (c % W) * TILE + TILE / 2, math.floor(c / W) * TILE + TILE / 2, h, h }
  end
  local movers = {}
  for i = 1, NMOVERS do
    local c = free[1 + math.floor(r() * #free)]
    local a = r() * 2 * math.pi
    local speed = 1 + 2 * r()
    movers[i] = { (c % W) * TILE + TILE / 2, math.floor(c / W) * TILE + TILE / 2,
                  speed * math.cos(a), speed * math.sin(a) }
  end
  return wall, zones, blocks, movers
end

local WALL, ZONES, BLOCKS, MOVERS = level()
local filter = obb.responses({ [MOVER] = false, [ZONE] = "cross" }) -- tiles slide

-- A world of the level: zones (a list of boxes) as sensors or as items of
-- class ZONE; its movers' state, copied.
local function world(zones, sensors)
  local w = obb.world2({ cell = TILE })
  local ntiles = 0
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      if WALL[cy * W + cx] then
        w:add({}, cx * TILE + TILE / 2, cy * TILE + TILE / 2, TILE / 2, TILE / 2)
        ntiles = ntiles + 1
      end
    end
  end
  local movers, items = {}, {}
  for i, m in ipairs(MOVERS) do
    local item = { i }
    w:add(item, m[1], m[2], 5, 5):set_class(item, MOVER)
    movers[i] = { item, m[3], m[4] }
  end
  for i, z in ipairs(zones or {}) do
    local item = { -i }
    w:add(item, z[1], z[2], z[3], z[4]):set_class(item, ZONE)
    if sensors then w:set_sensor(item) end
    items[#items + 1] = item
  end
  return w, movers, ntiles, items
end

-- One frame's moves: each mover by its velocity, a new heading (the same
-- in every world: from the mover's own numbers) when it was blocked.
local function moves(w, movers)
  for i = 1, #movers do
    local m = movers[i]
    local item, vx, vy = m[1], m[2], m[3]
    local x, y = w:get(item)
    local _, _, _, why = w:move(item, x + vx, y + vy, filter)
    if why ~= "goal" then m[2], m[3] = vy, -vx end
  end
end

local out = {}

-- The frames of each world: each returns a function of n that runs n
-- frames (and one that counts the events seen).
local function frames_plain(w, movers)
  return function(n) for _ = 1, n do moves(w, movers) end end
end

local function frames_events(w, movers)
  local events = 0
  return function(n)
    for _ = 1, n do
      moves(w, movers)
      events = events + w:events(out)
    end
  end, function() return events end
end

-- The Lua way: the pairs of a zone and a mover from w:pairs, keyed by
-- number (zone index * 1024 + mover index), against the last frame's.
local function frames_lua(w, movers)
  local keep = obb.responses({ default = false, [MOVER] = "cross", [ZONE] = "cross" })
  local pout, prev, cur, ev = {}, {}, {}, {}
  local events = 0
  local function diff()
    local np, k = w:pairs(pout, keep), 0
    for i = 1, 2 * np, 2 do
      local a, b = pout[i][1], pout[i + 1][1]
      if a < 0 and b > 0 then cur[-a * 1024 + b] = true
      elseif b < 0 and a > 0 then cur[-b * 1024 + a] = true end
    end
    for key in pairs(cur) do
      if not prev[key] then ev[k + 1], ev[k + 2], k = key, "begin", k + 2 end
    end
    for key in pairs(prev) do
      if not cur[key] then ev[k + 1], ev[k + 2], k = key, "end", k + 2 end
      prev[key] = nil
    end
    prev, cur = cur, prev
    return k / 2
  end
  diff() -- where they start
  return function(n)
    for _ = 1, n do
      moves(w, movers)
      events = events + diff()
    end
  end, function() return events, ev end
end

-- Seconds per frame of each of the frame functions fs, timed in turns (so
-- that what disturbs the machine meanwhile falls on all of them alike),
-- the least of the rounds: the differences between them are a few percent.
local function interleaved(fs, frames, rounds)
  local best = {}
  for k = 1, #fs do
    fs[k](frames) -- warm-up: caches, traces
    best[k] = math.huge
  end
  for _ = 1, rounds do
    for k = 1, #fs do
      collectgarbage("collect")
      local t0 = os.clock()
      fs[k](frames)
      best[k] = math.min(best[k], (os.clock() - t0) / frames)
    end
  end
  return best
end

local jit = rawget(_G, "jit") and "LuaJIT" or _VERSION
local w1, m1, ntiles = world(ZONES, true)
local w2, m2 = world(ZONES, false)
local w3, m3 = world(BLOCKS, true)
local w4, m4 = world(BLOCKS, false)
local w5, m5 = world(ZONES, false)
w1:events(out) -- where they start
w3:events(out)

report.section(("Sensors and events (%s, %d tiles, %d movers, %d zones)")
  :format(jit, ntiles, NMOVERS, NZONES))
local f1, n1 = frames_events(w1, m1)
local f3, n3 = frames_events(w3, m3)
local f5, n5 = frames_lua(w5, m5)
local frames, rounds = QUICK and 5 or 20, QUICK and 3 or 15
local t = interleaved({ frames_plain(w2, m2), f1, f5, frames_plain(w4, m4), f3 }, frames, rounds)
local plain = "frame: 500 moves, zones no sensors"
report.row(plain, t[1])
report.row("frame: 500 moves, then w:events", t[2], plain, t[1])
report.row("frame: 500 moves, then events from w:pairs", t[3], plain, t[1])
report.row("events: w:events (frame less no sensors)", t[2] - t[1],
           "the same, Lua from w:pairs", t[3] - t[1])
report.row("quiet frame: 50 sensors, no event", t[5], "the same, the zones no sensors", t[4])
local all = (rounds + 1) * frames
report.note(("events a frame: %.2f from w:events, %.2f from w:pairs in Lua (the same: no mover")
  :format(n1() / all, n5() / all))
report.note(("here passes a zone within one frame); %d in the quiet frames; the quiet")
  :format(n3()))
report.note(("frame costs %+.1f%% for its 50 sensors, the busy one %+.1f%% for its events")
  :format((t[5] / t[4] - 1) * 100, (t[2] / t[1] - 1) * 100))
w1:close(); w2:close(); w3:close(); w4:close(); w5:close()
