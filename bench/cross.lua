-- bench/cross.lua: the crossing loop (issue 42), run by bench/run.lua
-- (`make bench`) after bench/move.lua, printing its rows with
-- require "report".
--
-- A LÖVE platformer as bump.lua's users write it: a level of 16 px tiles
-- (ground of uneven height filled down to the bottom row, a ceiling, side
-- walls, rows of floating platforms: 2,954 tiles), 500 movers of about a
-- tile's size (10-14 x 11-14 px: players and enemies) dropped into free
-- cells, every item a table. Per frame each mover takes the step of
-- bench/platformer.lua (a random walk on its running speed, gravity, now
-- and then a jump when it stands on something) and moves with a filter
-- function that answers "cross" for another mover (players and enemies
-- pass through each other) and "slide" for a tile:
--
--   function(item, other) if other.mover then return "cross" end return "slide" end
--
-- The collisions come back every frame and are read: each one but a cross
-- clips the velocity, and a floor stands the mover. Contenders, each with
-- its own world, frame function and filter (compiled apart, so that under
-- LuaJIT no contender runs on another's traces):
--   bump.lua       bump.newWorld() (cellSize 64, its default), from
--                  $OBB_BENCH_BUMP (its rows are skipped without it);
--   obb.bump       require "obb.bump", the one-line switch, newWorld();
--   world2()       obb's world:move(item, gx, gy, filter, out) in the
--                  default obb.world2();
--   cells 16       the same in obb.world2{cell = 16};
--   tree           the same in obb.world2{cell = 0}, the tree alone.
-- First every contender plays CHECK_FRAMES frames in lockstep
-- (bench/platformer.lua): obb.bump must end every move where bump.lua
-- does, bit for bit, but for 1% (OBB_BUMP_BAD); obb's worlds must end
-- every move alike, bit for bit; obb's world:move may differ from
-- bump.lua on at most 5% of the moves (RULES_BAD), by more than 1e-6 px,
-- in the known ways. Then the timed frames, all
-- from the state the check left: TIME_ROUNDS rounds, each playing one
-- frame of every contender in turn (the order turned by one each round),
-- so that whatever else the machine does falls on all of them alike; a
-- full collection before each frame (not timed), so that each frame pays
-- for collecting its own garbage. A row is a contender's median frame,
-- per move, against a baseline of the same rounds.
-- Garbage of world:move with the filter: WARM_FRAMES frames played, a full
-- collection, the collector stopped, a frame, GARBAGE_FRAMES frames played, and
-- the difference of collectgarbage("count"), per 1,000 moves, JIT on: over
-- every frame (under LuaJIT the compiler's own objects count too: each
-- trace it makes is one, and this game's random walk keeps finding new
-- side exits), and over the frames in which the compiler made no trace.
-- OBB_BENCH_QUICK=1 plays fewer frames (a smoke test for CI).
local report = require "report"
local P = require "platformer" -- bench/platformer.lua
local C = require "cross_game" -- bench/cross_game.lua: the game

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local CHECK_FRAMES = QUICK and 10 or 60
local TIME_ROUNDS = QUICK and 5 or 31
local WARM_FRAMES = QUICK and 10 or 60
local GARBAGE_FRAMES = QUICK and 20 or 200

-- obb.bump and bump.lua: the moves that may end apart. A mover resting on
-- a floor whose top lies on a line of bump.lua's grid (cells of 64 px: a
-- row of tiles in four here) may find itself inside the floor by 1e-14
-- after a slide; bump.lua's next projection then covers only the cells
-- above the line, so it never meets the next floor tile, which its own
-- narrow phase would have found (the snag at a seam, bench/move.lua);
-- obb.bump's broad phase finds every rectangle the move's touches, meets
-- it, and stops at its side: 94 of 60,000 moves (0.16%) here, each
-- ending short of bump.lua's; none with the level 4 or 8 px lower, its
-- tops off the grid's lines (so the two follow the same rules elsewhere).
local OBB_BUMP_BAD = 0.01

-- obb's world:move and bump.lua (or obb.bump): the moves that may end
-- more than 1e-6 px apart. bump.lua stops a slide at the side of the next
-- tile of a flush floor when rounding left the mover 1e-14 inside the
-- floor (docs/performance.md, "How bump.lua's answers differ from the
-- rules"); this level's long floors and steps give more such seams than
-- bench/move.lua's: 1.8% of 30,000 moves, each of them bump.lua stopping
-- short of where obb's mover slides on.
local RULES_BAD = 0.05

-- The lockstep check (see the header); the state it leaves in sc.
local function check(sc, cs)
  local st = P.copy_state(sc)
  local sides = {}
  for _, c in ipairs(cs) do sides[c.name] = P.side(c.kind, c.w, c.name, c.filter) end
  local lead = sides["bump.lua"] or sides["world2()"]
  local followers = {}
  if sides["bump.lua"] then
    followers[#followers + 1] = { sides["obb.bump"], OBB_BUMP_BAD, 0 }
    followers[#followers + 1] = { sides["world2()"], RULES_BAD }
  else
    followers[#followers + 1] = { sides["obb.bump"], RULES_BAD }
  end
  followers[#followers + 1] = { sides["cells 16"], 0, 0, sides["world2()"] }
  followers[#followers + 1] = { sides["tree"], 0, 0, sides["world2()"] }
  P.lockstep(lead, followers, st, CHECK_FRAMES)
  P.adopt(sc, st)
end

-- Seconds per move of each contender: TIME_ROUNDS rounds of one frame
-- each, interleaved (see the header); the median frame.
local function time_all(sc, cs)
  for _, c in ipairs(cs) do
    c.st = P.copy_state(sc)
    c.out = {}
    P.place(c.w, c.st, c.kind == "bump")
    c.frame(c.w, c.st, c.out) -- warm-up: caches, LuaJIT's traces
    c.frame(c.w, c.st, c.out)
  end
  P.interleave(cs, TIME_ROUNDS)
end

-- Bytes of garbage per 1,000 moves of contender c (see the header): over
-- every frame, and over the frames in which LuaJIT's compiler made no
-- trace (every frame elsewhere), with how many those were.
local function garbage(sc, c)
  local st = P.copy_state(sc)
  local jit_, traces = rawget(_G, "jit"), 0
  local function count() traces = traces + 1 end
  P.place(c.w, st, c.kind == "bump")
  for _ = 1, WARM_FRAMES do c.frame(c.w, st, c.out) end
  if jit_ then jit_.attach(count, "trace") end
  collectgarbage("collect")
  collectgarbage("stop")
  c.frame(c.w, st, c.out) -- (what the collection shrank regrows here: not counted)
  local all, quiet, nquiet = 0, 0, 0
  for _ = 1, GARBAGE_FRAMES do
    traces = 0
    local k0 = collectgarbage("count")
    c.frame(c.w, st, c.out)
    local kib = collectgarbage("count") - k0
    all = all + kib
    if traces == 0 then quiet, nquiet = quiet + kib, nquiet + 1 end
  end
  collectgarbage("restart")
  if jit_ then jit_.attach(count) end -- (the handler alone: detached)
  local function per_1000(kib, frames) return kib * 1024 / (math.max(frames, 1) * sc.n) * 1000 end
  return per_1000(all, GARBAGE_FRAMES), per_1000(quiet, nquiet), nquiet
end

local function run()
  local sc = C.make_scene()
  report.section(("The crossing loop: %d movers among %d tiles, a filter function (movers cross, tiles slide),"
                  .. " table items, per move (%s)")
                 :format(C.NMOVERS, #sc.tiles, QUICK and "quick" or "median of " .. TIME_ROUNDS .. " frames"))
  local bump, why = require("bump_game").load_bump() -- bench/bump_game.lua
  if not bump then report.note("bump.lua rows skipped: " .. why) end
  local cs = C.contenders(sc, bump, require "obb.bump")
  check(sc, cs)
  time_all(sc, cs)
  local base = cs["bump.lua"] or cs["cells 16"]
  local base_name = bump and "bump.lua world:move + filter" or "world:move + filter, cells of 16"
  local rows = {
    { "cross: obb.bump", "obb.bump" },
    { "cross: world:move + filter, obb.world2()", "world2()" },
    { "cross: world:move + filter, cells of 16", "cells 16" },
    { "cross: world:move + filter, tree (cell = 0)", "tree" },
  }
  for _, row in ipairs(rows) do
    local c = cs[row[2]]
    if c ~= base and (bump or c ~= cs["world2()"]) then -- (else the row below)
      report.row(row[1] .. " vs " .. (bump and "bump.lua" or "cells of 16"), c.t, base_name, base.t)
    end
  end
  report.row("cross: obb.world2() vs cells of 16", cs["world2()"].t, "world:move + filter, cells of 16",
             cs["cells 16"].t)
  if bump then report.row("cross: bump.lua alone", cs["bump.lua"].t) end
  for _, name in ipairs({ "world2()", "cells 16" }) do
    local all, quiet, nquiet = garbage(sc, cs[name])
    report.bytes(("cross garbage per 1,000 moves: world:move + filter, %s"):format(name), all)
    if rawget(_G, "jit") then
      report.bytes(("  the same, in the %d frames of %d that compiled no trace"):format(nquiet, GARBAGE_FRAMES),
                   quiet)
    end
  end
  report.note("garbage: after a full collection, the collector stopped, " .. GARBAGE_FRAMES * C.NMOVERS
              .. " moves; under LuaJIT the compiler's own objects (traces) count in the first row")
  for _, c in ipairs(cs) do
    if c.w.close then c.w:close() end
  end
end

run()
