-- bench/pairs.lua: the pair test as a Lua script pays for it, and the
-- memory a box costs. Run by bench/run.lua (`make bench`), which puts
-- ./bench on LUA_PATH and the build directory on LUA_CPATH.
--
-- Every row calls its function the same way, as a local: f(a, b) over the
-- same 1024 pairs, round and round, so the loop's own cost is the same in
-- every row and the ratios compare only what is called:
--   obb's intersects, an empty C function that checks both boxes with
--   luaL_checkudata (bench/emptyc.c: the floor any binding that checks its
--   arguments the usual way pays), and the pure-Lua test in
--   bench/pure_lua_sat.lua on the same boxes as tables.
local obb = require "obb"
local benchc = require "benchc"
local sat = require "pure_lua_sat"
local report = require "report"

local M = {}

local PAIRS = 1024 -- distinct pairs, reused
local N = tonumber(os.getenv("OBB_BENCH_CALLS")) or 2000000
local RUNS = tonumber(os.getenv("OBB_BENCH_RUNS")) or 7

-- Deterministic pseudo-random numbers in [0, 1), the same every run.
local function rng(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  end
end

-- Two parallel lists of boxes, in obb and as pure-Lua tables, spread so
-- that about half the pairs overlap (the same tuning as core_bench.c).
local function make2(spread)
  local r = rng(7)
  local A, B, LA, LB = {}, {}, {}, {}
  for k = 1, 2 * PAIRS do
    local x, y = (r() * 2 - 1) * spread, (r() * 2 - 1) * spread
    local hx, hy = 0.1 + 0.9 * r(), 0.1 + 0.9 * r()
    local ang = (r() * 2 - 1) * math.pi
    local box, lbox = obb.new2(x, y, hx, hy, ang), sat.new2(x, y, hx, hy, ang)
    if k <= PAIRS then A[k], LA[k] = box, lbox
    else B[k - PAIRS], LB[k - PAIRS] = box, lbox end
  end
  return A, B, LA, LB
end

local function make3(spread)
  local r = rng(11)
  local A, B, LA, LB = {}, {}, {}, {}
  for k = 1, 2 * PAIRS do
    local c = { (r() * 2 - 1) * spread, (r() * 2 - 1) * spread,
                (r() * 2 - 1) * spread }
    local e = { 0.1 + 0.9 * r(), 0.1 + 0.9 * r(), 0.1 + 0.9 * r() }
    local q = { r() * 2 - 1, r() * 2 - 1, r() * 2 - 1, r() * 2 - 1 + 1e-9 }
    local box = obb.new3(c[1], c[2], c[3], e[1], e[2], e[3],
                         q[1], q[2], q[3], q[4])
    -- The table box gets obb's own axes, so both answer the same question.
    local ax = { box:axes() }
    local u = { { ax[1], ax[2], ax[3] }, { ax[4], ax[5], ax[6] },
                { ax[7], ax[8], ax[9] } }
    local lbox = sat.new3(c, e, u)
    if k <= PAIRS then A[k], LA[k] = box, lbox
    else B[k - PAIRS], LB[k - PAIRS] = box, lbox end
  end
  return A, B, LA, LB
end

local function overlap_fraction(f, A, B)
  local n = 0
  for k = 1, PAIRS do if f(A[k], B[k]) then n = n + 1 end end
  return n / PAIRS
end

-- The spread at which about half the pairs overlap, by bisection.
local function tune(make, f)
  local lo, hi = 0.01, 1000
  for _ = 1, 30 do
    local mid = math.sqrt(lo * hi)
    local A, B = make(mid)
    if overlap_fraction(f, A, B) > 0.5 then lo = mid else hi = mid end
  end
  return math.sqrt(lo * hi)
end

-- The timed loop: f over the pairs, n calls in all (or the call given as
-- source, e.g. a method call). Each row compiles its own copy of the loop:
-- LuaJIT records traces per function prototype, and a loop shared by every
-- row would be specialised on the first row's f, then patched with side
-- traces for the others, timing the patching.
local LOOP = [[
local f, A, B, PAIRS = ...
return function(n)
  local k = 0
  for _ = 1, n do
    k = k + 1
    if k > PAIRS then k = 1 end
    local _ = CALL
  end
end]]
local load = loadstring or load
local function looper(f, A, B, call)
  local src = LOOP:gsub("CALL", call or "f(A[k], B[k])")
  return assert(load(src, "=looper"))(f, A, B, PAIRS)
end

-- Under LuaJIT with the FFI fast path on (lua/obb/jit.lua), the classic
-- functions it replaced; nil otherwise.
local jit_path = package.loaded["obb.jit"]
local classic = jit_path and jit_path.status == "ffi" and jit_path.classic

local function pair_rows(dim, A, B, LA, LB, intersects, check, pure)
  for k = 1, PAIRS do -- the three must agree before they are timed
    local want = intersects(A[k], B[k])
    if pure(LA[k], LB[k]) ~= want then
      error(("pure-Lua %dD test disagrees with obb on pair %d"):format(dim, k))
    end
  end
  local frac = overlap_fraction(intersects, A, B)
  local t_obb = report.time(looper(intersects, A, B), N, RUNS)
  local t_check = report.time(looper(check, A, B), N, RUNS)
  local t_pure = report.time(looper(pure, LA, LB), N, RUNS)
  local t_nocheck = report.time(looper(benchc.nocheck, A, B), N, RUNS)
  local t_method = report.time(looper(nil, A, B, "A[k]:intersects(B[k])"), N, RUNS)
  local name = ("%dD intersects(a, b)"):format(dim)
  if classic then
    -- the FFI path against the C core's own loop (within 2x is the
    -- target), the classic binding and the pure-Lua test (1.5x faster)
    local methods = dim == 2 and obb.obb2 or obb.obb3
    local t_classic = report.time(looper(classic[methods].intersects, A, B), N, RUNS)
    local t_core = report.core[("obb%d_intersects"):format(dim)]
    name = ("%dD intersects(a, b), FFI fast path"):format(dim)
    if t_core then report.row(name, t_obb, "C core loop (no Lua)", t_core) end
    report.row(name, t_obb, "classic binding (Lua C API)", t_classic)
    if dim == 2 then
      -- the floor: the same checks and arithmetic inlined, no call at all
      local floor = require "jit_floor2"
      for k = 1, PAIRS do
        if floor.intersects(A[k], B[k]) ~= intersects(A[k], B[k]) or
           (floor.margin(A[k], B[k]) <= 0) ~= intersects(A[k], B[k]) then
          error(("bench/jit_floor2.lua disagrees with obb on pair %d"):format(k))
        end
      end
      local t_floor = report.time(looper(floor.intersects, A, B), N, RUNS)
      local t_margin = report.time(looper(floor.margin, A, B), N, RUNS)
      report.row("2D the same test inlined in Lua (floor)", t_floor,
                 "pure-Lua SAT", t_pure)
      report.row("2D the floor, verdict as a number", t_margin,
                 "pure-Lua SAT", t_pure)
    end
  end
  report.row(name, t_obb, "empty C, luaL_checkudata", t_check)
  report.row(name, t_obb, "pure-Lua SAT", t_pure)
  report.row(("%dD a:intersects(b), method call"):format(dim), t_method,
             "intersects(a, b)", t_obb)
  report.row("empty C function, no checks", t_nocheck)
  report.note(("%dD: %.0f%% of the %d pairs overlap"):format(dim, 100 * frac,
                                                            PAIRS))
  return t_obb, t_check, t_pure
end

-- Bytes per object: collectgarbage("count") before and after making n of
-- them, stored in a table that was sized beforehand.
local function footprint(n, make)
  local t = {}
  for i = 1, n do t[i] = false end
  collectgarbage("collect"); collectgarbage("collect")
  local before = collectgarbage("count")
  for i = 1, n do t[i] = make(i) end
  collectgarbage("collect"); collectgarbage("collect")
  local bytes = (collectgarbage("count") - before) * 1024 / n
  assert(#t == n) -- t kept the objects alive through the measurement
  return bytes
end

function M.run()
  report.section(("pair test from Lua: %d calls over %d pairs, median of %d runs")
                 :format(N, PAIRS, RUNS))
  local A, B, LA, LB = make2(tune(make2, obb.obb2.intersects))
  pair_rows(2, A, B, LA, LB, obb.obb2.intersects, benchc.check2,
            sat.intersects2)
  A, B, LA, LB = make3(tune(make3, obb.obb3.intersects))
  pair_rows(3, A, B, LA, LB, obb.obb3.intersects, benchc.check3,
            sat.intersects3)

  report.section(_VERSION .. " memory per box (100,000 boxes)")
  local n = 100000
  local b2 = footprint(n, function(i) return obb.new2(i, 0, 1, 1, 0.5) end)
  local l2 = footprint(n, function(i) return sat.new2(i, 0, 1, 1, 0.5) end)
  local b3 = footprint(n, function(i)
    return obb.new3(i, 0, 0, 1, 1, 1, 0, 0, 0, 1)
  end)
  local l3 = footprint(n, function(i)
    return sat.new3({ i, 0, 0 }, { 1, 1, 1 }, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } })
  end)
  report.bytes("obb2 userdata", b2, "pure-Lua 2D box (table)", l2)
  report.bytes("obb3 userdata", b3, "pure-Lua 3D box (tables)", l3)
end

return M
