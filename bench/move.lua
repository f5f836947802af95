-- bench/move.lua: moving boxes through a world (world:move), run by
-- bench/run.lua (`make bench`) after the world rows, printing its rows with
-- require "report".
--
-- The scene: a platformer level of 16 px tiles, exactly 1,382 of them
-- (floor, ceiling, side walls, ten staircases, platforms), and 1,000
-- movers of about a tile's size (10-14 x 11-14 px) dropped into free
-- cells. Per frame every mover takes a step: a random walk on its
-- horizontal speed, gravity, now and then a jump when it stands on
-- something. It moves with world:move(item, goal) and a nil filter (every
-- other slides, movers included), and each collision it gets back takes
-- the normal's component out of its velocity (obb.clip's idiom) and tells
-- it whether it stands. About 56% of the moves meet something. Coordinates
-- grow downwards, as in LÖVE and bump.lua.
-- Rows, each against a baseline measured in the same run (the ratio is the
-- speed-up over the baseline):
--   AA:     every tile axis-aligned: obb's world:move against bump.lua's
--           (loaded from $OBB_BENCH_BUMP; these rows are skipped without
--           it), and the pure-Lua mover of bench/lua_mover.lua against
--           bump, and bump alone;
--   turned: every tile and every mover turned by a random angle: obb's
--           world:move against the pure-Lua mover (always run);
--   cells:  obb's default world (obb.world2(), which chooses its broad
--           phase, issue 42), a world of the tree alone
--           (obb.world2{cell = 0}) and one with cells of a tile's size
--           (obb.world2{cell = 16}, issue 29): the turned scene in each,
--           against each other and the pure-Lua mover, the AA scene
--           against bump.lua and the default against cells of 16;
--   filter: the AA scene with a bump-style filter, movers crossing each
--           other and sliding on tiles: obb's world:move with a response
--           set (the movers of class 1, obb.responses{[1] = "cross"})
--           against the same with the filter function
--           function(item, other) if other > NTILES then return "cross" end
--           return "slide" end, and each against bump.lua's world:move
--           with that function (when $OBB_BENCH_BUMP is set); the cross
--           records are read and skipped, the slide ones clip the
--           velocity. obb's worlds here have cells of a tile's size,
--           what a bump-style game of 16 px tiles asks for, and the
--           filter function is timed in obb's default world too.
-- obb's rows are skipped while obb's world has no move method. Each timed
-- run starts from the same state and plays the same frames (the random
-- numbers do not depend on what happened); a row is the median frame over
-- 1,000 moves.
-- Before a pair is timed, the worlds play CHECK_FRAMES frames in lockstep:
-- every move is made in each world from the same position to the same
-- goal, and the final centers must agree within TOL = 1e-6 px (rounding
-- alone moves them by about 1e-13). A move that does not is counted, the
-- first three printed, and the follower's item is put where the first
-- world's ended, so one disagreement does not spread; more than MAX_BAD of
-- the moves disagreeing is an error: 0.1% for two movers of the same rules
-- (obb and the pure-Lua mover), none for obb's broad phases (a world with
-- cells answers bit for bit as the tree's: they are compared to the bit),
-- 2% for bump.lua, which differs from those
-- rules in known ways (bench/move_check.lua sorts them; on this scene
-- about 0.3% of the moves: bump snags on the side of the next tile of a
-- flush floor when rounding leaves the item inside the floor by 1e-14).
-- The pure-Lua mover's moves are also checked never to end inside a tile
-- or a mover.
-- Garbage: collectgarbage("count") with the collector stopped, before and
-- after 100,000 moves, the same frames played once before (bump: 2,000
-- moves, scaled, as it makes a few KB per move).
-- OBB_BENCH_QUICK=1 plays fewer frames (a smoke test for CI).
local obb = require "obb"
local report = require "report"
local lua_mover = require "lua_mover"
local P = require "platformer" -- bench/platformer.lua: the step, frames, lockstep
local copy_state, lockstep, place = P.copy_state, P.lockstep, P.place
local frame_out, frame_filter, frame_bump_filter = P.frame_out, P.frame_out, P.frame_bump
local function frame_bump() return frame_bump_filter(nil) end

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local CHECK_FRAMES = QUICK and 10 or 60  -- lockstep frames before timing
local TIME_FRAMES = QUICK and 3 or 21    -- timed frames (median)
local GARBAGE_FRAMES = QUICK and 10 or 100
-- the largest fraction of moves that may disagree
local MAX_BAD = { same_rules = 0.001, bump = 0.02, same_world = 0 }

local T = 16                -- tile side
local COLS, ROWS = 160, 60  -- level size in tiles
local NTILES, NMOVERS = 1382, 1000
local MAX_RUN = P.MAX_RUN

local rng = require "rng" -- bench/rng.lua

-- The level: tiles by cell (key col * 1000 + row), as a list of centers.
local function make_level()
  local r = rng(4242)
  local solid, tiles = {}, {}
  local function put(c, row)
    local k = c * 1000 + row
    if not solid[k] and #tiles < NTILES then
      solid[k] = true
      tiles[#tiles + 1] = { (c + 0.5) * T, (row + 0.5) * T }
    end
  end
  for c = 0, COLS - 1 do put(c, ROWS - 1) end -- floor
  for c = 0, COLS - 1 do put(c, 0) end        -- ceiling
  for row = 1, ROWS - 2 do                    -- side walls
    put(0, row)
    put(COLS - 1, row)
  end
  -- staircases on the floor: up 4 steps, down 4
  for s = 0, 9 do
    local c0 = 6 + s * 16
    for i = 0, 6 do
      local h = 4 - math.abs(i - 3)
      for j = 1, h do put(c0 + i, ROWS - 1 - j) end
    end
  end
  -- platforms: runs of 3 to 12 tiles with gaps of 2 to 7, row by row, until
  -- the count is reached (the last run is cut short)
  local rows = { 8, 14, 20, 26, 32, 38, 44, 50, 11, 17, 23, 29, 35, 41, 47 }
  for _, row in ipairs(rows) do
    local c = 2 + math.floor(r() * 6)
    while c < COLS - 2 and #tiles < NTILES do
      local len = 3 + math.floor(r() * 10)
      for i = 0, len - 1 do
        if c + i < COLS - 2 then put(c + i, row) end
      end
      c = c + len + 2 + math.floor(r() * 6)
    end
  end
  assert(#tiles == NTILES, "the level has too few places for its tiles")
  -- movers' cells (bench/platformer.lua)
  local cells = P.free_cells(function(c, row) return solid[c * 1000 + row] end, COLS, ROWS, T, NMOVERS, r)
  return tiles, cells
end

-- A scene: the tiles (centers, half extents, angles) and the movers'
-- starting state; turned: every tile and mover at a random angle.
local function make_scene(turned)
  local tiles, cells = make_level()
  local r = rng(turned and 777 or 555)
  local sc = { tiles = tiles, tangle = {}, n = NMOVERS, first = NTILES + 1, items = {},
               x = {}, y = {}, vx = {}, vy = {}, g = {}, hx = {}, hy = {}, a = {},
               seed = 99991 }
  for i = 1, NTILES do sc.tangle[i] = turned and r() * math.pi or 0 end
  for i = 1, NMOVERS do
    sc.items[i], sc.x[i], sc.y[i] = NTILES + i, cells[i][1], cells[i][2]
    sc.hx[i], sc.hy[i] = 5 + r() * 2, 5.5 + r() * 1.5
    sc.a[i] = turned and r() * math.pi or 0
    sc.vx[i], sc.vy[i], sc.g[i] = (r() - 0.5) * 2 * MAX_RUN, 0, false
  end
  return sc
end

-- Worlds holding the scene. obb and the pure-Lua mover take centers, half
-- extents and an angle; bump.lua left, top, width, height.
local function fill_centers(w, sc, st)
  for i = 1, NTILES do
    local t = sc.tiles[i]
    w:add(i, t[1], t[2], T / 2, T / 2, sc.tangle[i])
  end
  for i = 1, sc.n do w:add(sc.first + i - 1, st.x[i], st.y[i], sc.hx[i], sc.hy[i], sc.a[i]) end
  return w
end

local function fill_bump(w, sc, st)
  for i = 1, NTILES do
    local t = sc.tiles[i]
    w:add(i, t[1] - T / 2, t[2] - T / 2, T, T)
  end
  for i = 1, sc.n do
    w:add(sc.first + i - 1, st.x[i] - sc.hx[i], st.y[i] - sc.hy[i], 2 * sc.hx[i], 2 * sc.hy[i])
  end
  return w
end

-- Median seconds per move over TIME_FRAMES frames (after two warm-up
-- frames), from a copy of the state.
local function time_moves(frame, w, sc, out)
  local st = copy_state(sc)
  place(w, st, P.is_bump(frame))
  frame(w, st, out)
  frame(w, st, out)
  local xs = {}
  for f = 1, TIME_FRAMES do
    collectgarbage("step")
    local t0 = os.clock()
    frame(w, st, out)
    xs[f] = os.clock() - t0
  end
  return report.median(xs) / st.n
end

-- Bytes of garbage per `moves` moves: `frames` frames played once to warm
-- up (the world's cells and scratch arrays grow to what these frames
-- need, LuaJIT compiles its traces), then the same frames again with the
-- collector stopped (no full collection before: it would shrink the Lua
-- stack, which the next calls grow again), scaled to `moves`.
local function garbage(frame, w, sc, out, frames, moves)
  local bump_world = P.is_bump(frame)
  local st = copy_state(sc)
  place(w, st, bump_world)
  for _ = 1, frames do frame(w, st, out) end
  st = copy_state(sc)
  place(w, st, bump_world)
  collectgarbage("stop")
  local k0 = collectgarbage("count")
  for _ = 1, frames do frame(w, st, out) end
  local k1 = collectgarbage("count")
  collectgarbage("restart")
  return (k1 - k0) * 1024 / (frames * st.n) * moves
end

local BUMP_CELL = 64 -- bump's default, and its fastest here
local LUA_CELL = 64

-- A move through a crowd: n items stacked in one place, the mover
-- crossing them all ("cross": each is reported, none stops it). Twice the
-- crowd should take about twice the time (ratio near 0.5x): the others a
-- move has met are found by hash. Before issue 25 a linear scan made it
-- quadratic (0.25x).
local function crowd()
  local n = QUICK and 2000 or 32000
  local function move_through(count)
    local w = obb.world2()
    for i = 1, count do w:add(i, 10, 0, 1, 1) end
    w:add("p", 0, 0, 1, 1)
    local out = {}
    local t = report.time(function(k)
      for _ = 1, k do
        local _, _, met = w:check("p", 20, 0, "cross", out)
        assert(met == count, "the mover met every item of the crowd")
      end
    end, 1, QUICK and 1 or 5)
    w:close()
    return t
  end
  local t1 = move_through(n)
  report.row(("move: through a crowd of %d (cross) vs %d"):format(2 * n, n), move_through(2 * n),
             ("a crowd of %d"):format(n), t1)
end

-- A world with cells of a tile's size (as a bump game's cellSize), when
-- the module has them; nil otherwise.
local function cell_world()
  return pcall(obb.world2, { cell = T }) and obb.world2({ cell = T }) or nil
end

-- A world of the tree alone (cell = 0; a module without cells: its only
-- world).
local function tree_world()
  return pcall(obb.world2, { cell = 0 }) and obb.world2({ cell = 0 }) or obb.world2()
end

-- Every world behind one interface for the lockstep check
-- (bench/platformer.lua), named by its kind and scene.
local NAMES = { obb = "obb", bump = "bump.lua", lua = "pure-Lua mover", cells = "obb, cells",
                tree = "obb, tree" }
local function side(kind, w, scene, filter)
  return P.side(kind, w, NAMES[kind] .. " (" .. scene .. ")", filter)
end

-- The AA scene with a filter (see the header): a response set, the filter
-- function it stands for, and bump.lua with that function (bump nil:
-- skipped).
local function filters(bump)
  local sc = make_scene(false)
  local st = copy_state(sc)
  local function cross_movers(_, other)
    if other > NTILES then return "cross" end
    return "slide"
  end
  local set = obb.responses({ [1] = "cross" })
  local ws = fill_centers(cell_world() or obb.world2(), sc, st)
  local wf = fill_centers(cell_world() or obb.world2(), sc, st)
  local wd = fill_centers(obb.world2(), sc, st)
  for i = sc.first, sc.first + sc.n - 1 do ws:set_class(i, 1) end
  local followers = { { side("obb", wf, "AA, filter function", cross_movers), MAX_BAD.same_rules },
                      { side("obb", wd, "AA, filter function, obb.world2()", cross_movers), MAX_BAD.same_world, 0 } }
  local wb = bump and fill_bump(bump.newWorld(BUMP_CELL), sc, st)
  if wb then followers[3] = { side("bump", wb, "AA, filter function", cross_movers), MAX_BAD.bump } end
  lockstep(side("obb", ws, "AA, response set", set), followers, st, CHECK_FRAMES)
  P.adopt(sc, st)
  local out = {}
  local f_set, f_fn = frame_filter(set), frame_filter(cross_movers)
  local t_set = time_moves(f_set, ws, sc, out)
  local t_fn = time_moves(f_fn, wf, sc, out)
  report.row("move, filter: obb response set vs obb filter function", t_set, "obb world:move + filter function",
             t_fn)
  report.row("move, filter: function, obb.world2() vs cells of 16", time_moves(frame_filter(cross_movers), wd, sc, out),
             "obb filter function, cells of 16", t_fn)
  if wb then
    local t_bump = time_moves(frame_bump_filter(cross_movers), wb, sc)
    report.row("move, filter: obb response set vs bump (1,000 movers, AA)", t_set,
               "bump.lua world:move + filter", t_bump)
    report.row("move, filter: obb filter function vs bump (1,000 movers, AA)", t_fn,
               "bump.lua world:move + filter", t_bump)
  end
  local moves_g = GARBAGE_FRAMES * NMOVERS
  report.bytes(("move garbage, %d moves: obb, response set"):format(moves_g),
               garbage(f_set, ws, sc, out, GARBAGE_FRAMES, moves_g))
  report.bytes(("move garbage, %d moves: obb, filter function"):format(moves_g),
               garbage(f_fn, wf, sc, out, GARBAGE_FRAMES, moves_g))
  ws:close()
  wf:close()
  wd:close()
end

local function run()
  report.section(("Moving boxes: world:move, 1,000 movers among 1,382 tiles, per move (%s)")
                 :format(QUICK and "quick" or "median of " .. TIME_FRAMES .. " frames"))
  local probe = obb.world2()
  local has_move = probe.move ~= nil
  probe:close()
  if not has_move then report.note("obb's world has no move method yet: obb's rows skipped") end
  local bump, why = require("bump_game").load_bump() -- bench/bump_game.lua
  if not bump then
    report.note("bump.lua rows skipped: " .. why .. " (bump 3.1.7: see docs/performance.md)")
  end
  local out = {}
  local moves_g = GARBAGE_FRAMES * NMOVERS

  -- axis-aligned tiles: obb and the pure-Lua mover against bump
  if bump then
    local aa = make_scene(false)
    local st = copy_state(aa)
    local wb = fill_bump(bump.newWorld(BUMP_CELL), aa, st)
    local wl = fill_centers(lua_mover.new(LUA_CELL), aa, st)
    local wo = has_move and fill_centers(obb.world2(), aa, st)
    local wc = has_move and cell_world()
    if wc then fill_centers(wc, aa, st) end
    local lua_side, bump_side = side("lua", wl, "AA"), side("bump", wb, "AA")
    if wo then
      local followers = { { bump_side, MAX_BAD.bump }, { lua_side, MAX_BAD.same_rules } }
      if wc then followers[3] = { side("cells", wc, "AA, cell 16"), MAX_BAD.same_world, 0 } end
      lockstep(side("obb", wo, "AA"), followers, st, CHECK_FRAMES)
    else
      lockstep(lua_side, { { bump_side, MAX_BAD.bump } }, st, CHECK_FRAMES)
    end
    -- the timed frames start where the check ended
    P.adopt(aa, st)
    local f_bump, f_obb = frame_bump(), frame_out()
    local t_bump = time_moves(f_bump, wb, aa)
    local t_lua = time_moves(frame_out(), wl, aa, out)
    if wo then
      report.row("move: obb vs bump (1,000 movers, 1,382 AA tiles)", time_moves(f_obb, wo, aa, out),
                 "bump.lua world:move", t_bump)
    end
    if wc then
      local t_cells = time_moves(frame_out(), wc, aa, out)
      report.row("move: obb, cells of 16 vs bump (1,000 movers, AA)", t_cells, "bump.lua world:move", t_bump)
      report.row("move: obb.world2() vs cells of 16 (AA)", time_moves(frame_out(), wo, aa, out),
                 "obb world:move, cells of 16", t_cells)
    end
    report.row("move: pure-Lua mover vs bump (1,000 movers, 1,382 AA tiles)", t_lua, "bump.lua world:move",
               t_bump)
    report.row("move: bump.lua alone (1,000 movers, 1,382 AA tiles)", t_bump)
    local g_bump = garbage(f_bump, wb, aa, nil, 2, moves_g)
    if wo then
      report.bytes(("move garbage, %d moves: obb (AA)"):format(moves_g),
                   garbage(f_obb, wo, aa, out, GARBAGE_FRAMES, moves_g), "bump.lua (2,000 moves, scaled)",
                   g_bump)
      wo:close()
      if wc then wc:close() end
    else
      report.bytes(("move garbage, %d moves: bump.lua (AA, 2,000 moves, scaled)"):format(moves_g), g_bump)
    end
  end

  -- every tile and mover turned: obb against the pure-Lua mover; obb's
  -- default world (obb.world2()), the tree's alone (cell = 0) and cells of
  -- a tile's size (when the module has them)
  local tu = make_scene(true)
  local st = copy_state(tu)
  local wl = fill_centers(lua_mover.new(LUA_CELL), tu, st)
  local wo = has_move and fill_centers(obb.world2(), tu, st)
  local wt = has_move and fill_centers(tree_world(), tu, st)
  local wc = has_move and cell_world()
  if wc then fill_centers(wc, tu, st) end
  if wo then
    local followers = { { side("lua", wl, "turned"), MAX_BAD.same_rules },
                        { side("tree", wt, "turned, cell 0"), MAX_BAD.same_world, 0 } }
    if wc then followers[3] = { side("cells", wc, "turned, cell 16"), MAX_BAD.same_world, 0 } end
    lockstep(side("obb", wo, "turned"), followers, st, CHECK_FRAMES)
  else
    lockstep(side("lua", wl, "turned"), {}, st, CHECK_FRAMES)
  end
  P.adopt(tu, st)
  local f_lua, f_obb, f_tree, f_cells = frame_out(), frame_out(), frame_out(), frame_out()
  local t_lua = time_moves(f_lua, wl, tu, out)
  if wo then
    local t_obb, t_tree = time_moves(f_obb, wo, tu, out), time_moves(f_tree, wt, tu, out)
    report.row("move: obb vs pure-Lua mover (1,000 movers, 1,382 turned tiles)", t_obb,
               "pure-Lua mover (lua_mover.lua)", t_lua)
    if wc then
      local t_cells = time_moves(f_cells, wc, tu, out)
      report.row("move: obb, cells of 16 vs tree (1,000 movers, turned)", t_cells, "obb world:move, tree", t_tree)
      report.row("move: obb, cells of 16 vs pure-Lua mover (turned)", t_cells, "pure-Lua mover (lua_mover.lua)",
                 t_lua)
      report.row("move: obb.world2() vs cells of 16 (turned)", t_obb, "obb world:move, cells of 16", t_cells)
    end
  else
    report.row("move: pure-Lua mover (1,000 movers, 1,382 turned tiles)", t_lua)
  end
  local g_lua = garbage(f_lua, wl, tu, out, GARBAGE_FRAMES, moves_g)
  if wo then
    report.bytes(("move garbage, %d moves: obb (turned)"):format(moves_g),
                 garbage(f_obb, wo, tu, out, GARBAGE_FRAMES, moves_g), "pure-Lua mover", g_lua)
    wo:close()
    wt:close()
  end
  if wc then
    report.bytes(("move garbage, %d moves: obb, cells (turned)"):format(moves_g),
                 garbage(f_cells, wc, tu, out, GARBAGE_FRAMES, moves_g))
    wc:close()
  end
  report.bytes(("move garbage, %d moves: pure-Lua mover (turned)"):format(moves_g), g_lua)
  if has_move then
    crowd()
    filters(bump)
  end
  report.note("garbage: collectgarbage(\"count\") before and after, the collector stopped, the same frames"
              .. " played once before; under LuaJIT it also counts the compiler's own objects (traces)")
end

run()
