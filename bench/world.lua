-- bench/world.lua: worlds of moving boxes, run by bench/run.lua (`make
-- bench`) after the pair rows, printing its rows with require "report".
--
-- Per frame, every moving box takes a step of a random walk (velocity and
-- spin, bouncing off the walls) and is updated in the world, then all
-- intersecting pairs are collected, exact test included. Scenes (the same
-- in bench/world_bench.c):
--   walk      1,000 / 10,000 / 50,000 boxes spread evenly, ~1 neighbour each
--   cluster   the same boxes crowded into 8 blobs
--   mixed     half extents from 0.05 to 40, log-uniform, a few 10x larger
--   static    the walk with 90% of the boxes never moving
-- Rows, each against a baseline measured in the same run:
--   from Lua: obb.world2 (w:update per box, then w:pairs) against the
--     pure-Lua spatial hash of bench/lua_spatial_hash.lua on the same boxes
--     and moves (both must find the same number of pairs);
--   C core:   obb_world_update + obb_world_pairs without Lua against the
--     brute-force O(n^2) loop in C (bench/world_bench.c; same pair count).
-- Memory: bytes per item, the C arrays (from world_bench) and the world's
-- Lua tables (item <-> id), against a spatial hash item.
--
-- The C program is found at $OBB_WORLD_BENCH, else next to obb.so in the
-- build directory ($BUILD/world_bench); without it the C rows are skipped.
-- OBB_BENCH_QUICK=1 runs fewer frames and sizes (for a smoke test).
local obb = require "obb"
local report = require "report"
local hash = require "lua_spatial_hash"

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local SIZES = QUICK and { 1000, 10000 } or { 1000, 10000, 50000 }
local KINDS = { "walk", "cluster", "mixed", "static" }

local rng = require "rng" -- bench/rng.lua

-- A scene as parallel arrays (struct of arrays, as a game would keep them).
local function make_scene(kind, n)
  local r = rng(12345 + n)
  local size = math.sqrt(n) * 4
  local sc = { n = n, size = size, x = {}, y = {}, vx = {}, vy = {}, a = {},
               va = {}, hx = {}, hy = {}, moves = {} }
  for i = 1, n do
    local x, y = r() * size, r() * size
    local hx, hy = 0.5 + r(), 0.5 + r()
    local moves = true
    if kind == "cluster" then
      local c = (i - 1) % 8
      local cx = size * (0.2 + 0.6 * ((c * 37) % 8) / 7)
      local cy = size * (0.2 + 0.6 * ((c * 11) % 8) / 7)
      local rad = size * 0.05 * (r() + r() + r()) / 3
      local t = r() * 2 * math.pi
      x, y = cx + rad * math.cos(t), cy + rad * math.sin(t)
    elseif kind == "mixed" then
      local k = math.exp(math.log(0.05) + r() * (math.log(40) - math.log(0.05)))
      hx, hy = k * (0.5 + r()), k * (0.5 + r())
      if (i - 1) % 1000 == 0 then hx, hy = hx * 10, hy * 10 end
    elseif kind == "static" then
      moves = (i - 1) % 10 == 0
    end
    sc.x[i], sc.y[i], sc.hx[i], sc.hy[i], sc.moves[i] = x, y, hx, hy, moves
    sc.vx[i], sc.vy[i] = (r() - 0.5) * 0.2, (r() - 0.5) * 0.2
    sc.a[i], sc.va[i] = r() * 2 * math.pi, (r() - 0.5) * 0.1
  end
  return sc
end

-- One frame: step every moving box and update it in `world` (an obb world
-- or a spatial hash: the same update signature), then collect the pairs.
local function frame(sc, world, out)
  local x, y, vx, vy, a, va, hx, hy, moves =
    sc.x, sc.y, sc.vx, sc.vy, sc.a, sc.va, sc.hx, sc.hy, sc.moves
  local size = sc.size
  for i = 1, sc.n do
    if moves[i] then
      local nx, ny = x[i] + vx[i], y[i] + vy[i]
      if nx < 0 or nx > size then vx[i] = -vx[i] end
      if ny < 0 or ny > size then vy[i] = -vy[i] end
      local na = a[i] + va[i]
      x[i], y[i], a[i] = nx, ny, na
      world:update(i, nx, ny, hx[i], hy[i], na)
    end
  end
  return world:pairs(out)
end

local function fill(sc, world)
  for i = 1, sc.n do world:add(i, sc.x[i], sc.y[i], sc.hx[i], sc.hy[i], sc.a[i]) end
  return world
end

-- Median seconds per frame over `frames` frames (after one warm-up frame),
-- and the pair count of each frame.
local function time_frames(sc, world, frames)
  local out, xs, counts = {}, {}, {}
  frame(sc, world, out)
  for f = 1, frames do
    local t0 = os.clock()
    counts[f] = frame(sc, world, out)
    xs[f] = os.clock() - t0
  end
  return report.median(xs), counts
end

local function frames_for(n, slow)
  local f = n <= 1000 and 40 or (n <= 10000 and 15 or 5)
  if slow then f = math.max(3, math.floor(f / 4)) end
  if QUICK then f = math.max(2, math.floor(f / 4)) end
  return f
end

-- The hash's cell: about the size of a typical box, as its users tune it.
local CELL = { walk = 4, cluster = 4, static = 4, mixed = 8 }

-- The part of a frame that is the script's, not the world's: the same loop
-- calling an update that does nothing (an empty C function: the call costs
-- what any call to C costs) and no pairs; then an update that only reads
-- its arguments the way obb's does (benchc.args_world: the same Lua API
-- calls, no geometry). Nil without benchc.so.
local function script_floors(kind, n)
  local ok, benchc = pcall(require, "benchc")
  if not ok then return nil end
  local items = {}
  for i = 1, n do items[i] = i end
  local nothing = { update = benchc.nocheck, pairs = function() return 0 end }
  return time_frames(make_scene(kind, n), nothing, frames_for(n)),
         time_frames(make_scene(kind, n), benchc.args_world(items), frames_for(n))
end

-- The walk frames from Lua, by size: for the scaling note and the rows
-- against the C core.
local lua_walk = {}

local function lua_rows()
  report.section("World of moving 2D boxes from Lua: update all + all pairs, per frame")
  local floors = {}
  for _, kind in ipairs(KINDS) do
    for _, n in ipairs(SIZES) do
      if kind == "walk" or n <= 10000 then
        local t, p = time_frames(make_scene(kind, n), fill(make_scene(kind, n), obb.world2()),
                                 frames_for(n))
        collectgarbage()
        local th, ph = time_frames(make_scene(kind, n),
                                   fill(make_scene(kind, n), hash.new(CELL[kind])),
                                   frames_for(n, true))
        collectgarbage()
        -- Both use the same exact test, but obb turns angles into axes in
        -- C and the hash with math.cos/sin: a pair touching to the last
        -- bit may go either way. More than that is a bug.
        for f = 1, #ph do
          if math.abs(p[f] - ph[f]) > 2 + p[f] * 1e-4 then
            error(("world and spatial hash disagree on %s %d, frame %d: %d vs %d pairs")
                  :format(kind, n, f, p[f], ph[f]))
          end
        end
        p = p[#p]
        report.row(("world2 %s %d (%d pairs)"):format(kind, n, p), t,
                   "pure-Lua spatial hash", th)
        if kind == "walk" then
          lua_walk[n] = t
          local floor, args = script_floors(kind, n)
          if floor then
            floors[#floors + 1] = { n = n, t = t, th = th, floor = floor, args = args }
          end
        end
      end
    end
  end
  -- Both frames include the script's own loop and a call per box: the
  -- rows below take that floor out of both, leaving what each structure
  -- itself costs.
  for _, f in ipairs(floors) do
    report.row(("world2 walk %d, the script's loop taken out"):format(f.n), f.t - f.floor,
               "spatial hash, the same taken out", f.th - f.floor)
    report.row(("walk %d: script loop, update only reading its args"):format(f.n), f.args,
               "spatial hash frame", f.th)
    report.note(("walk %d: the script's loop with an empty C update takes %.2f ms;"
                 .. " reading update's arguments through the Lua C API, %.2f ms more")
                :format(f.n, f.floor * 1e3, (f.args - f.floor) * 1e3))
  end
  if lua_walk[1000] and lua_walk[SIZES[#SIZES]] then
    local n = SIZES[#SIZES]
    report.note(("walk: %dx the boxes cost %.1fx the time per frame (linear: %dx)")
                :format(n / 1000, lua_walk[n] / lua_walk[1000], n / 1000))
  end
end

local function c_rows()
  local path = os.getenv("OBB_WORLD_BENCH")
  if not path then
    local cpath = package.searchpath and package.searchpath("obb", package.cpath)
    path = cpath and cpath:gsub("obb%.so$", "world_bench")
  end
  local f = path and io.open(path, "r")
  if not f then
    report.note("bench/world_bench.c not built: C core world rows skipped")
    return nil
  end
  f:close()
  report.section("World in the C core (no Lua): update all + all pairs, per frame")
  local p = assert(io.popen(path .. (QUICK and " 3" or " 10"), "r"))
  local world, bytes, shown = {}, {}, {}
  for line in p:lines() do
    local fld = {}
    for x in (line .. "\t"):gmatch("([^\t]*)\t") do fld[#fld + 1] = x end
    local key = fld[2] .. " " .. fld[3]
    if fld[1] == "world" then
      world[key] = { t = tonumber(fld[4]), pairs = fld[5] }
      bytes[tonumber(fld[3])] = tonumber(fld[6]) / tonumber(fld[3])
    elseif fld[1] == "brute" then
      local w = world[key]
      report.row(("obb_world %s (%s pairs)"):format(key, w.pairs), w.t,
                 "brute-force O(n^2) loop in C", tonumber(fld[4]))
      shown[key] = true
    end
  end
  local ok, how, code = p:close()
  if not ok then error(("%s failed (%s %s)"):format(path, how, code)) end
  for _, kind in ipairs(KINDS) do
    local w = world[kind .. " 50000"]
    if w and not shown[kind .. " 50000"] then -- too slow for brute force
      report.row(("obb_world %s 50000 (%s pairs)"):format(kind, w.pairs), w.t)
    end
  end
  -- What the script side adds to a frame: the whole frame from Lua (the
  -- script's walk, w:update per box, w:pairs) against the C core's frame on
  -- the same scene (bench/world_bench.c draws the scenes with this file's
  -- generator and seed, and moves the boxes the same way).
  for _, n in ipairs(SIZES) do
    local w = world["walk " .. n]
    if w and lua_walk[n] and n >= 10000 then
      report.row(("world2 walk %d frame from %s"):format(n, rawget(_G, "jit") and jit.version or _VERSION),
                 lua_walk[n], "the C core's frame", w.t)
    end
  end
  return bytes
end

local function memory_rows(c_bytes)
  report.section("Memory per world item (10,000 2D boxes)")
  local n = 10000
  local sc = make_scene("walk", n)
  collectgarbage()
  collectgarbage()
  local k0 = collectgarbage("count")
  local w = fill(sc, obb.world2())
  collectgarbage()
  local lua_bytes = (collectgarbage("count") - k0) * 1024 / n
  collectgarbage()
  k0 = collectgarbage("count")
  local h = fill(sc, hash.new(4))
  collectgarbage()
  local hash_bytes = (collectgarbage("count") - k0) * 1024 / n
  report.bytes("world2 item: Lua tables (item <-> id)", lua_bytes)
  if c_bytes and c_bytes[n] then
    report.bytes("world2 item: C (box, bounds, tree, grid scratch)", c_bytes[n])
    report.bytes("world2 item: total", lua_bytes + c_bytes[n],
                 "pure-Lua spatial hash item", hash_bytes)
  else
    report.bytes("world2 item: Lua side only", lua_bytes,
                 "pure-Lua spatial hash item", hash_bytes)
  end
  report.note("C arrays grow by doubling: capacity, not only what is used")
  return w, h
end

-- world:pairs() with 40,000 boxes, alone and with one box 1e30 times
-- larger among them: the grid keeps every size class on its own level, so
-- the huge box costs its 40,000 pairs and not a quadratic scan.
local function size_mix_rows()
  report.section("world2:pairs() with one box far larger than the rest (40,000 boxes)")
  local function median_pairs(big)
    local r = rng(7)
    local w = obb.world2()
    for i = 1, 40000 do
      w:add(i, r() * 2000, r() * 2000, 0.5 + r(), 0.5 + r(), r() * 6)
    end
    if big then w:add("big", 0, 0, 1e30, 1e30, 0.3) end
    local out, xs = {}, {}
    w:pairs(out)
    for f = 1, QUICK and 3 or 9 do
      local t0 = os.clock()
      w:pairs(out)
      xs[f] = os.clock() - t0
    end
    w:close()
    return report.median(xs)
  end
  local alone = median_pairs(false)
  report.row("pairs(): 40,000 boxes and one 1e30 box", median_pairs(true),
             "40,000 boxes alone", alone)
end

lua_rows()
size_mix_rows()
memory_rows(c_rows())
