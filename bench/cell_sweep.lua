-- bench/cell_sweep.lua: the crossing loop of bench/cross.lua (its game in
-- bench/cross_game.lua) played by world:move with its filter in worlds of
-- several broad phases, timed interleaved as bench/cross.lua times its
-- rows: which cell size is best, and how far the default world
-- (obb.world2(), which chooses its cells) is from it (issue 42).
--
--   luajit bench/cell_sweep.lua [names [rounds]]
--
-- names: a comma-separated list of contenders (bench/cross_game.lua's:
-- world2(), tree, "cells N"), by default world2(), tree and cells of 4 to
-- 128; rounds: timed frames per contender (31). Each contender first plays
-- 30 frames (its world chooses, LuaJIT compiles), then the rounds, one
-- frame of each in turn, a full collection before each; the median frame
-- per move, and its ratio to the fastest world with cells.
local C = require "cross_game"  -- bench/cross_game.lua
local P = require "platformer"  -- bench/platformer.lua

local names = {}
for name in (arg[1] or "world2(),tree,cells 4,cells 8,cells 16,cells 32,cells 64,cells 128"):gmatch("[^,]+") do
  names[#names + 1] = name
end
local rounds = tonumber(arg[2] or 31)
local sc = C.make_scene()
local cs = {}
for i, name in ipairs(names) do
  local c = C.contender(name, sc)
  c.st, c.out = P.copy_state(sc), {}
  for _ = 1, 30 do c.frame(c.w, c.st, c.out) end
  cs[i] = c
end
P.interleave(cs, rounds)
local best
for _, c in ipairs(cs) do
  if c.name:match("^cells") and (not best or c.t < best) then best = c.t end
end
print(("world:move + filter in the crossing loop (%s, median of %d frames, per move)")
  :format(rawget(_G, "jit") and jit.version or _VERSION, rounds))
for _, c in ipairs(cs) do
  print(("  %-9s %8.0f ns  %.2fx the best cells' time  (cell %g)")
    :format(c.name, c.t * 1e9, c.t / best, (c.w:broad_phase())))
end
