-- bench/bump.lua: the one-line switch, `require "obb.bump"` against
-- bump.lua itself (read from $OBB_BENCH_BUMP; the rows are skipped
-- without it), playing the same bump-style frames: movers with gravity, a
-- random walk and jumps, a filter function (coins cross, the rest slide),
-- the cols read. Both follow bump's rules, so both play the same game
-- (test/bump_side_by_side.lua checks it call by call); the time is per
-- world:move.
--   small: one mover among 35 items (a menu, a puzzle room)
--   busy:  300 movers among about 1,400 16-px tiles
-- and, for each, the floor: what bump's API costs any library in this game
-- (the filter calls and the cols), without a library's own work.
local report = require "report"
local G = require "bump_game" -- the game, bump.lua and the floor
local game = G.game

-- Before a row is timed, both play its first moves from the same state
-- and every move must end alike (the end, the count of cols and the first
-- col's other, type and ti); the game goes on differently after any
-- difference, so the check stops at the first and raises. (bump's order
-- of two cols tied in ti and distance is its unstable sort's: the scenes
-- here have none within the moves checked.) obb.bump follows bump.lua as
-- its repository has it since commit ca27d8c, which still calls itself
-- 3.1.7; the tag v3.1.7 before it slides a move of length zero that
-- overlaps to the touch, as the busy scene's sixth move does: that file
-- stops the check there (docs/performance.md).
local CHECK_MOVES = os.getenv("OBB_BENCH_QUICK") == "1" and 2000 or 20000
local function lockstep(bump, obbbump, name, nm, nt)
  local a, b = {}, {}
  game(bump, nm, nt)(CHECK_MOVES, a)
  game(obbbump, nm, nt)(CHECK_MOVES, b)
  for k = 1, CHECK_MOVES do
    if a[k] ~= b[k] then
      error(("bench/bump.lua, %s: move %d differs (bump.lua before commit ca27d8c?):\n  bump.lua: %s\n"
        .. "  obb.bump: %s"):format(name, k, a[k], b[k]))
    end
  end
  report.note(("%s: %d moves checked in lockstep, bump.lua and obb.bump alike"):format(name, CHECK_MOVES))
end


-- The floor's time per move: the median of 7 runs of n moves, each from
-- the game's start (a replay has only those moves).
local function time_floor(obbbump, nm, nt, n)
  local R, N, V = G.recorder(obbbump)
  game(R, nm, nt)(n)
  local xs = {}
  for r = 1, 7 do
    local play = game(G.replayer(N, V), nm, nt)
    collectgarbage("collect")
    local t0 = os.clock()
    play(n)
    xs[r] = (os.clock() - t0) / n
  end
  return report.median(xs)
end

local function rows(bump, obbbump)
  report.section("obb.bump against bump.lua: the one-line switch (per world:move, filter function)")
  for _, case in ipairs({
    -- the small world's moves take well under a microsecond: enough of
    -- them that a run lasts many ticks of os.clock (4 ms on some machines)
    { "small: 1 mover among 35 items", 1, 34, 200000 },
    { "busy: 300 movers, 1,400 tiles", 300, 1400, 20000 },
  }) do
    local name, nm, nt, n = case[1], case[2], case[3], tonumber(os.getenv("OBB_BENCH_CALLS")) or case[4]
    lockstep(bump, obbbump, name, nm, nt)
    local t_bump = report.time(game(bump, nm, nt), n)
    report.row("obb.bump vs bump.lua, " .. name, report.time(game(obbbump, nm, nt), n), "bump.lua", t_bump)
    report.row("obb.bump { rules = \"obb\" } vs bump.lua, " .. name,
      report.time(game(obbbump, nm, nt, { rules = "obb" }), n), "bump.lua", t_bump)
    report.row("floor (bump's API alone: filter, cols) vs bump.lua, " .. name, time_floor(obbbump, nm, nt, n),
      "bump.lua", t_bump)
  end
end

local bump, why = G.load_bump()
if not bump then
  report.note("obb.bump vs bump.lua rows skipped: " .. why)
else
  rows(bump, require "obb.bump")
end
