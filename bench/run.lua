-- bench/run.lua: `make bench`, one table from every benchmark, measured in
-- one run.
--
--   lua bench/run.lua path/to/core_bench
--
-- with LUA_PATH holding ./bench/?.lua and LUA_CPATH the build directory
-- (obb.so and benchc.so); the Makefile sets both. Sections, in order: the C
-- core (bench/core_bench.c, its lines turned into rows here), the pair test
-- from Lua and memory (bench/pairs.lua), the sweeps from Lua, turning and
-- not (bench/sweeps.lua), then the worlds (bench/world.lua), a query's
-- filter, a response set against a function (bench/query.lua), moving
-- boxes through a world (bench/move.lua; it reads bump.lua from
-- $OBB_BENCH_BUMP), the crossing loop (bench/cross.lua), turning ones on
-- the racing track (bench/move_turning.lua), moving solids
-- (bench/solid.lua), obb.bump (bench/bump.lua), sensors and events
-- (bench/events.lua): each, when it exists, is run as a chunk and prints
-- its own rows with
-- require "report".
local report = require "report"

local core = arg[1]

local function run_core(path)
  local p = assert(io.popen(path, "r"))
  for line in p:lines() do
    local f = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
    if f[1] == "section" then report.section(f[2])
    elseif f[1] == "row" then
      report.row(f[2], tonumber(f[3]), f[4], tonumber(f[5]))
      -- kept by the name's first word (obb2_intersects), for later rows
      report.core[f[2]:match("^%S+")] = tonumber(f[3])
    elseif f[1] == "bytes" then report.bytes(f[2], tonumber(f[3]))
    elseif f[1] == "note" then report.note(f[2])
    else print(line) end
  end
  local ok, how, code = p:close()
  if not ok then error(("%s failed (%s %s)"):format(path, how, code)) end
end

-- OBB_BENCH_ONLY="move cross" runs only the sections named (core, pairs,
-- sweeps, world, query, move, cross, move_turning, solid, character, bump, events), for timing a
-- few rows
-- again without the rest.
local only = os.getenv("OBB_BENCH_ONLY")
local function wanted(name)
  if not only or only == "" then return true end
  for w in only:gmatch("[%w_]+") do
    if w == name then return true end
  end
  return false
end

print(("obb benchmarks, %s, %s"):format(_VERSION, os.date("!%Y-%m-%d %H:%M UTC")))
report.header()
if core and wanted("core") then run_core(core) end
if wanted("pairs") then require("pairs").run() end
if wanted("sweeps") then require("sweeps").run() end
for _, name in ipairs({ "world", "query", "move", "cross", "move_turning", "solid", "character", "bump", "events" }) do
  local chunk = "bench/" .. name .. ".lua"
  local f = io.open(chunk, "r")
  if f and wanted(name) then dofile(chunk) end
  if f then f:close() end
end
