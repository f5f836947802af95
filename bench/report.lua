-- bench/report.lua: the one table that `make bench` prints, shared by every
-- benchmark script (bench/pairs.lua, bench/world.lua, ...).
--
-- A row is one measurement and, when there is one, the baseline it is
-- compared with, measured in the same run: the ratio column is
-- baseline / measurement, so "4.0x" means four times faster than the
-- baseline and "0.5x" twice as slow. Ratios are what carry over between
-- machines; the absolute figures are for the machine at hand.
--
--   local report = require "report"      -- LUA_PATH includes ./bench/?.lua
--   report.section("2D pair test from Lua")
--   local t = report.time(function(n) for i = 1, n do f(a, b) end end, 1e6)
--   report.row("obb intersects", t, "empty C function", t_empty)
--   report.bytes("obb2 userdata", 88, "pure-Lua table box", 200)
--
-- Timing uses os.clock (CPU time of this process), so time spent waiting for
-- the CPU on a busy machine is not counted; report.time takes the median of
-- several runs, so one disturbed run does not move the figure.
local M = {}

local NAME_W, VALUE_W, BASE_W = 46, 11, 30

-- Seconds per op of the C core's rows (bench/core_bench.c), by the first
-- word of their names ("obb2_intersects"), once bench/run.lua has read them.
M.core = {}

local function pad_right(s, w)
  if #s >= w then return s end
  return s .. string.rep(" ", w - #s)
end

local function pad_left(s, w)
  if #s >= w then return s end
  return string.rep(" ", w - #s) .. s
end

-- Seconds in the unit that keeps 3 or 4 significant digits readable.
function M.format_time(s)
  if s < 1e-6 then return string.format("%.1f ns", s * 1e9) end
  if s < 1e-3 then return string.format("%.2f us", s * 1e6) end
  if s < 1 then return string.format("%.2f ms", s * 1e3) end
  return string.format("%.2f s", s)
end

function M.format_bytes(b)
  if b < 10000 then return string.format("%.0f B", b) end
  if b < 1e7 then return string.format("%.1f KiB", b / 1024) end
  return string.format("%.1f MiB", b / (1024 * 1024))
end

local function line(name, value, base_name, ratio)
  print(pad_right(name, NAME_W) .. pad_left(value, VALUE_W) .. "   " ..
        pad_right(base_name or "", BASE_W) .. pad_left(ratio or "", 8))
end

-- Prints the column titles; call once, before the first section.
function M.header()
  line("benchmark", "per op", "baseline (same run)", "ratio")
  print(string.rep("-", NAME_W + VALUE_W + 3 + BASE_W + 8))
end

-- A blank line and a title for a group of rows.
function M.section(title)
  print("")
  print("## " .. title)
end

local function ratio(base, value)
  if base == nil or value == nil or value <= 0 then return nil end
  local r = base / value
  return string.format(r >= 10 and "%.0fx" or "%.1fx", r)
end

-- One timed row. baseline_name and baseline_seconds may be nil.
function M.row(name, seconds_per_op, baseline_name, baseline_seconds)
  line(name, M.format_time(seconds_per_op), baseline_name,
       ratio(baseline_seconds, seconds_per_op))
end

-- One memory row; the ratio is baseline bytes / these bytes (how many times
-- smaller), like the time rows.
function M.bytes(name, bytes, baseline_name, baseline_bytes)
  line(name, M.format_bytes(bytes), baseline_name,
       ratio(baseline_bytes, bytes))
end

-- A free-form note under the table's rows (units, what a row means).
function M.note(text)
  print("   " .. text)
end

function M.median(xs)
  local s = {}
  for i = 1, #xs do s[i] = xs[i] end
  table.sort(s)
  local n = #s
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

-- Median seconds per op of fn(n), which must do n operations, over `runs`
-- runs (default 7) after one warm-up run. n should make a run last well
-- above the clock's resolution (10 ms or more).
function M.time(fn, n, runs)
  runs = runs or 7
  fn(n) -- warm-up: caches, page faults, JIT traces under LuaJIT
  local xs = {}
  for r = 1, runs do
    collectgarbage("collect")
    local t0 = os.clock()
    fn(n)
    xs[r] = (os.clock() - t0) / n
  end
  return M.median(xs)
end

-- Instructions that callgrind counts in a run of this interpreter (arg[-1])
-- on script with args (a string, passed to the shell as it is): for the
-- benchmarks that count rather than time (bench/bump_prof.lua,
-- bench/cross_prof.lua).
function M.instructions(script, args)
  local cmd = ("valgrind --tool=callgrind --callgrind-out-file=/dev/null %s %s %s 2>&1")
    :format(arg[-1], script, args)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local c = out:match("Collected : (%d+)")
  if not c then error(script .. ": " .. cmd .. " gave:\n" .. out, 0) end
  return tonumber(c)
end

return M
