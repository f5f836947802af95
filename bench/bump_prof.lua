-- bench/bump_prof.lua: bench/bump.lua's busy game (300 movers among 1,400
-- tiles, a filter function, the cols read) played by one contender, for
-- counting instructions per move with callgrind rather than timing them:
-- on the interpreters a count varies by a few percent from run to run,
-- where a time on a shared machine varies by much more. Under LuaJIT the
-- counts include the compiler's work and wander as much as the times
-- (docs/performance.md, "By instructions").
--
--   lua5.4 bench/bump_prof.lua obb|bump|floor moves   one contender
--   lua5.4 bench/bump_prof.lua                         the table
--
-- obb: `require "obb.bump"`; bump: bump.lua itself ($OBB_BENCH_BUMP);
-- floor: bump's API alone, replaying obb.bump's answers (bench/bump_game.lua).
-- With no arguments (`make bump-prof`) it runs each under callgrind for
-- 10,000 and 20,000 moves, on the interpreter running it: the difference
-- over 10,000 is a move's instructions, setup excluded. The floor records
-- its answers for 20,000 moves whatever the count, so that the recording
-- is setup too.
local G = require "bump_game"
local report = require "report" -- bench/report.lua: report.instructions
local RECORDED = 20000

-- Instructions per move of contender who, counted by callgrind.
local function count(who)
  local function total(n) return report.instructions("bench/bump_prof.lua", who .. " " .. n) end
  return (total(20000) - total(10000)) / 10000
end

local who, n = arg[1], tonumber(arg[2])
if who == nil then
  local ok, why = G.load_bump()
  if not ok then error("bench/bump_prof.lua: bump.lua: " .. tostring(why), 0) end
  local bump = count("bump")
  print(("instructions per busy move (callgrind, %s), ratios against bump.lua's")
    :format(rawget(_G, "jit") and jit.version or _VERSION))
  print(("  bump.lua  %8.0f"):format(bump))
  for _, c in ipairs({ "obb", "floor" }) do
    local k = count(c)
    print(("  %-8s  %8.0f  %5.2fx"):format(c == "obb" and "obb.bump" or c, k, bump / k))
  end
  return
end
if not (n and n >= 0 and n <= RECORDED) then
  error("usage: bench/bump_prof.lua obb|bump|floor moves (0 .. " .. RECORDED .. ")", 0)
end
local B
if who == "obb" then
  B = require "obb.bump"
elseif who == "bump" then
  B = assert(G.load_bump())
elseif who == "floor" then
  local R, N, V = G.recorder(require "obb.bump")
  G.game(R, 300, 1400)(RECORDED)
  B = G.replayer(N, V)
else
  error("bench/bump_prof.lua: obb, bump or floor, got " .. tostring(who), 0)
end
local seen = G.game(B, 300, 1400)(n)
print(who, n, seen) -- what the moves met: the same for the three
