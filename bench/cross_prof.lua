-- bench/cross_prof.lua: the crossing loop of bench/cross.lua (its game in
-- bench/cross_game.lua) played by one contender, for counting
-- instructions per move with callgrind rather than timing them: on the
-- interpreters a count varies by a few percent from run to run, where a
-- time on a shared machine varies by much more. Under LuaJIT the counts
-- include the compiler's work and wander as much as the times.
--
--   lua5.4 bench/cross_prof.lua NAME frames   one contender, frames of 500 moves
--   lua5.4 bench/cross_prof.lua                the table (make cross-prof)
--
-- NAME: bump.lua ($OBB_BENCH_BUMP), obb.bump, world2() (obb.world2()),
-- "cells N" (obb.world2{cell = N}), tree (obb.world2{cell = 0}). With no
-- arguments it runs each under callgrind for 10 and 20 frames, on the
-- interpreter running it: the difference over 5,000 moves is a move's
-- instructions, setup excluded (bump.lua's row is left out without
-- $OBB_BENCH_BUMP). Each run prints the contender, its frames and a
-- digest of where its movers ended.
local C = require "cross_game"   -- bench/cross_game.lua
local G = require "bump_game"    -- bench/bump_game.lua: bump.lua's loader
local P = require "platformer"   -- bench/platformer.lua
local report = require "report"  -- bench/report.lua: report.instructions

local who, frames = arg[1], tonumber(arg[2])
if who == nil then
  local bump = G.load_bump()
  local function total(name, n) return report.instructions("bench/cross_prof.lua", ("'%s' %d"):format(name, n)) end
  print(("instructions per move of the crossing loop (callgrind, %s, 5,000 moves)")
    :format(rawget(_G, "jit") and jit.version or _VERSION))
  local base
  for _, name in ipairs(C.NAMES) do
    if bump or name ~= "bump.lua" then
      local k = (total(name, 20) - total(name, 10)) / (10 * C.NMOVERS)
      base = base or k
      print(("  %-9s %8.0f  %5.2fx the first"):format(name, k, base / k))
    end
  end
  return
end
if not (frames and frames >= 0) then
  error("usage: bench/cross_prof.lua bump.lua|obb.bump|world2()|'cells N'|tree frames", 0)
end
local sc = C.make_scene()
local c = C.contender(who, sc, who == "bump.lua" and assert(G.load_bump()), require "obb.bump")
local st, out = P.copy_state(sc), {}
for _ = 1, frames do c.frame(c.w, st, out) end
local sx, sy = 0, 0
for i = 1, st.n do sx, sy = sx + st.x[i] * i, sy + st.y[i] * i end
print(who, frames, ("digest %.17g %.17g"):format(sx, sy))
