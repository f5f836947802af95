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
-- filter, a response set against a function (bench/query.lua), and moving
-- boxes through a world (bench/move.lua; it reads bump.lua from
-- $OBB_BENCH_BUMP), turning ones on the racing track (bench/move_turning.lua),
-- obb.bump (bench/bump.lua), sensors and events (bench/events.lua): each,
-- when it exists, is run as a chunk and prints its own rows with
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

print(("obb benchmarks, %s, %s"):format(_VERSION, os.date("!%Y-%m-%d %H:%M UTC")))
report.header()
if core then run_core(core) end
require("pairs").run()
require("sweeps").run()
for _, chunk in ipairs({ "bench/world.lua", "bench/query.lua", "bench/move.lua", "bench/move_turning.lua",
                         "bench/bump.lua", "bench/events.lua" }) do
  local f = io.open(chunk, "r")
  if f then
    f:close()
    dofile(chunk)
  end
end
