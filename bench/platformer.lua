-- bench/platformer.lua: the platformer's movers as bench/move.lua and
-- bench/cross.lua play them: the step of a mover, the frame functions (one
-- for obb's world:move and the pure-Lua mover, which take centers and fill
-- out, one for bump.lua's API, which takes left, top and returns cols), and
-- the lockstep check that plays several worlds move by move.
--
-- A state st holds the movers: st.n of them, mover i being the item
-- st.items[i] with center st.x[i], st.y[i], half extents st.hx[i],
-- st.hy[i], velocity st.vx[i], st.vy[i], and st.g[i] whether it stood on
-- something after its last move; st.seed, the random numbers' state.
-- Coordinates grow downwards, as in LÖVE and bump.lua.
local report = require "report"
local M = {}

M.GRAVITY, M.MAX_FALL, M.JUMP, M.JUMP_P, M.MAX_RUN = 0.4, 8, 7, 0.02, 3
local GRAVITY, MAX_FALL, JUMP, JUMP_P, MAX_RUN = M.GRAVITY, M.MAX_FALL, M.JUMP, M.JUMP_P, M.MAX_RUN

-- The mover's next velocity, from its state and two random numbers (always
-- two per mover per frame, whatever happened): a random walk on its
-- running speed, gravity, a jump now and then when it stands on something.
function M.step(st, i, r1, r2)
  local vx = st.vx[i] + (r1 - 0.5) * 0.6
  if vx > MAX_RUN then vx = MAX_RUN elseif vx < -MAX_RUN then vx = -MAX_RUN end
  local vy = st.vy[i] + GRAVITY
  if vy > MAX_FALL then vy = MAX_FALL end
  if st.g[i] and r2 < JUMP_P then vy = -JUMP end
  return vx, vy
end

-- The movers' places in a level of cols by rows tiles of side t: the
-- cells free (solid(c, row) false, c and row from 0), with 8 free
-- neighbours, on a checkerboard (two movers' centers at least t*sqrt(2)
-- apart, more than two turned movers reach), as centers, at least n of
-- them, shuffled with the random numbers r.
function M.free_cells(solid, cols, rows, t, n, r)
  local cells = {}
  for c = 1, cols - 2 do
    for row = 1, rows - 2 do
      if (c + row) % 2 == 0 then
        local free = true
        for dc = -1, 1 do
          for dr = -1, 1 do
            if solid(c + dc, row + dr) then free = false end
          end
        end
        if free then cells[#cells + 1] = { (c + 0.5) * t, (row + 0.5) * t } end
      end
    end
  end
  assert(#cells >= n, "the level has too few free cells for its movers")
  for i = #cells, 2, -1 do
    local j = 1 + math.floor(r() * i)
    cells[i], cells[j] = cells[j], cells[i]
  end
  return cells
end

-- A copy of the movers' state (each timed run starts from the same one):
-- items and sizes shared, the rest copied.
function M.copy_state(sc)
  local st = { n = sc.n, seed = sc.seed, items = sc.items, hx = sc.hx, hy = sc.hy,
               x = {}, y = {}, vx = {}, vy = {}, g = {} }
  for i = 1, sc.n do
    st.x[i], st.y[i], st.vx[i], st.vy[i], st.g[i] = sc.x[i], sc.y[i], sc.vx[i], sc.vy[i], sc.g[i]
  end
  return st
end

-- Where the timed frames start: where the lockstep check left st.
function M.adopt(sc, st)
  sc.x, sc.y, sc.vx, sc.vy, sc.g, sc.seed = st.x, st.y, st.vx, st.vy, st.g, st.seed
end

-- Each frame function below is compiled anew (load) for the world it
-- plays, so that every contender has its own: under LuaJIT a loop's
-- traces are made for the first world it runs, and would stand in the
-- way of the next one's, the order of the rows deciding the figures.
local load = loadstring or load

-- A frame of world:move(item, goal, filter, out) (filter nil, a response
-- name or set, or a function): each record but a cross clips the
-- velocity, a floor below stands the mover.
local FRAME_OUT = [[
local step, filter = ...
return function(w, st, out)
  local I, X, Y, VX, VY, G = st.items, st.x, st.y, st.vx, st.vy, st.g
  local s = st.seed
  for i = 1, st.n do
    s = (s * 16807) % 2147483647
    local r1 = s / 2147483647
    s = (s * 16807) % 2147483647
    local vx, vy = step(st, i, r1, s / 2147483647)
    local ax, ay, n = w:move(I[i], X[i] + vx, Y[i] + vy, filter, out)
    local on = false
    for k = 0, n - 1 do
      if out[k * 8 + 2] ~= "cross" then
        local nx, ny = out[k * 8 + 4], out[k * 8 + 5]
        local d = vx * nx + vy * ny
        if d < 0 then vx, vy = vx - d * nx, vy - d * ny end
        if ny < -0.5 then on = true end
      end
    end
    X[i], Y[i], VX[i], VY[i], G[i] = ax, ay, vx, vy, on
  end
  st.seed = s
end
]]

-- The same frame through bump.lua's API (obb.bump's too): left, top, the
-- cols read.
local FRAME_BUMP = [[
local step, filter = ...
return function(w, st)
  local I, X, Y, VX, VY, G, HX, HY = st.items, st.x, st.y, st.vx, st.vy, st.g, st.hx, st.hy
  local s = st.seed
  for i = 1, st.n do
    s = (s * 16807) % 2147483647
    local r1 = s / 2147483647
    s = (s * 16807) % 2147483647
    local vx, vy = step(st, i, r1, s / 2147483647)
    local hx, hy = HX[i], HY[i]
    local ax, ay, cols, n = w:move(I[i], X[i] + vx - hx, Y[i] + vy - hy, filter)
    local on = false
    for k = 1, n do
      local col = cols[k]
      if col.type ~= "cross" then
        local nm = col.normal
        local nx, ny = nm.x, nm.y
        local d = vx * nx + vy * ny
        if d < 0 then vx, vy = vx - d * nx, vy - d * ny end
        if ny < -0.5 then on = true end
      end
    end
    X[i], Y[i], VX[i], VY[i], G[i] = ax + hx, ay + hy, vx, vy, on
  end
  st.seed = s
end
]]

-- The frame functions of bump's API (their worlds take left, top).
local bump_frames = setmetatable({}, { __mode = "k" })

-- A new frame function for a world taking centers and out.
function M.frame_out(filter)
  return assert(load(FRAME_OUT, "=frame"))(M.step, filter)
end

-- A new frame function for a world of bump's API.
function M.frame_bump(filter)
  local frame = assert(load(FRAME_BUMP, "=frame_bump"))(M.step, filter)
  bump_frames[frame] = true
  return frame
end

-- Puts every mover of world w where st says (each timed run starts from
-- the same state, whatever the run before left in the world).
function M.place(w, st, bump_api)
  for i = 1, st.n do
    local item, hx, hy = st.items[i], st.hx[i], st.hy[i]
    if bump_api then w:update(item, st.x[i] - hx, st.y[i] - hy)
    else w:update(item, st.x[i], st.y[i], hx, hy) end
  end
end

-- Whether frame plays a world of bump's API.
function M.is_bump(frame) return bump_frames[frame] == true end

-- Times the frames of several contenders interleaved, so that whatever
-- else the machine does falls on all of them alike: rounds rounds, each
-- playing one frame of every contender in turn (the order turned by one
-- each round), a full collection before each frame (not timed, so that
-- each frame pays for collecting its own garbage). Each contender c plays
-- c.frame(c.w, c.st, c.out) and gets c.t, its median frame's seconds per
-- mover.
function M.interleave(cs, rounds)
  local n = #cs
  for _, c in ipairs(cs) do c.xs = {} end
  for r = 1, rounds do
    for k = 0, n - 1 do
      local c = cs[(r + k) % n + 1]
      collectgarbage("collect")
      local t0 = os.clock()
      c.frame(c.w, c.st, c.out)
      c.xs[r] = os.clock() - t0
    end
  end
  for _, c in ipairs(cs) do c.t = report.median(c.xs) / c.st.n end
end

-- Every world behind one interface, for the lockstep check only (its
-- closures cost nothing that is timed), with the filter its moves pass
-- (nil: none). The normal of a cross record is given as 0, 0: it clips
-- nothing and stands on nothing. kind "bump": bump's API (bump.lua,
-- obb.bump); "lua": the pure-Lua mover (its moves are checked never to end
-- inside another box); else a world taking centers and out.
function M.side(kind, w, name, filter)
  local out = {}
  local s = { kind = kind, w = w, out = out, name = name }
  if kind == "bump" then
    local cols, n
    function s.move(item, gx, gy, hx, hy)
      local x, y
      x, y, cols, n = w:move(item, gx - hx, gy - hy, filter)
      return x + hx, y + hy, n
    end
    function s.normal(k)
      if cols[k].type == "cross" then return 0, 0 end
      return cols[k].normal.x, cols[k].normal.y
    end
    function s.sync(item, cx, cy, hx, hy) w:update(item, cx - hx, cy - hy) end
  else
    function s.move(item, gx, gy)
      return w:move(item, gx, gy, filter, out)
    end
    function s.normal(k)
      if out[(k - 1) * 8 + 2] == "cross" then return 0, 0 end
      return out[(k - 1) * 8 + 4], out[(k - 1) * 8 + 5]
    end
    function s.sync(item, cx, cy, hx, hy) w:update(item, cx, cy, hx, hy) end
  end
  return s
end

-- Plays frames with side a and its followers in lockstep: every move is
-- made in each world from the same position to the same goal. Each
-- follower is { side, max_bad [, tol [, ref]] }, compared with the side ref
-- (a, or a follower before it): a move whose final center differs from
-- ref's by more than tol (default 1e-6 px; rounding alone moves them by
-- about 1e-13; 0: bit for bit) is counted and the first three printed;
-- more than max_bad of the moves (a fraction) is an error, as is a move of
-- the pure-Lua mover that ends inside another box. The state follows a,
-- and every follower whose item ended anywhere else than a's is put where
-- a's ended, so that one disagreement does not spread and every world
-- starts each move where the others do.
function M.lockstep(a, followers, st, frames)
  local moves, bad, inside = 0, {}, 0
  local mover_side = a.kind == "lua" and a or nil
  for f, fw in ipairs(followers) do
    bad[f] = 0
    if fw[1].kind == "lua" then mover_side = fw[1] end
  end
  local ex, ey = {}, {} -- each side's end of the move
  local I, X, Y, VX, VY, G, HX, HY = st.items, st.x, st.y, st.vx, st.vy, st.g, st.hx, st.hy
  for _ = 1, frames do
    local s = st.seed
    for i = 1, st.n do
      s = (s * 16807) % 2147483647
      local r1 = s / 2147483647
      s = (s * 16807) % 2147483647
      local vx, vy = M.step(st, i, r1, s / 2147483647)
      local item, hx, hy = I[i], HX[i], HY[i]
      local gx, gy = X[i] + vx, Y[i] + vy
      local ax, ay, n = a.move(item, gx, gy, hx, hy)
      ex[a], ey[a] = ax, ay
      moves = moves + 1
      for f, fw in ipairs(followers) do
        local b, tol, ref = fw[1], fw[3] or 1e-6, fw[4] or a
        local bx, by = b.move(item, gx, gy, hx, hy)
        ex[b], ey[b] = bx, by
        local rx, ry = ex[ref], ey[ref]
        if not (math.abs(rx - bx) <= tol and math.abs(ry - by) <= tol) then
          bad[f] = bad[f] + 1
          if bad[f] <= 3 then
            report.note(("%s vs %s: mover %d, (%.17g, %.17g) to (%.17g, %.17g): (%.17g, %.17g) vs (%.17g, %.17g)")
                        :format(ref.name, b.name, i, X[i], Y[i], gx, gy, rx, ry, bx, by))
          end
        end
      end
      for _, fw in ipairs(followers) do
        local b = fw[1]
        if ex[b] ~= ax or ey[b] ~= ay then b.sync(item, ax, ay, hx, hy) end
      end
      if mover_side and mover_side.w:overlaps(item) > 0 then inside = inside + 1 end
      local on = false
      for k = 1, n do
        local nx, ny = a.normal(k)
        local d = vx * nx + vy * ny
        if d < 0 then vx, vy = vx - d * nx, vy - d * ny end
        if ny < -0.5 then on = true end
      end
      X[i], Y[i], VX[i], VY[i], G[i] = ax, ay, vx, vy, on
    end
    st.seed = s
  end
  for f, fw in ipairs(followers) do
    local tol = fw[3] or 1e-6
    report.note(("%s vs %s: %d of %d moves end %s (limit %.1f%%)")
                :format((fw[4] or a).name, fw[1].name, bad[f], moves,
                        tol == 0 and "anywhere else (bit for bit)" or ("more than %g px apart"):format(tol),
                        fw[2] * 100))
  end
  if mover_side then
    report.note(("%s: %d moves, %d end inside another box"):format(mover_side.name, moves, inside))
  end
  for f, fw in ipairs(followers) do
    if bad[f] > fw[2] * moves then
      error(("%s vs %s: %d of %d moves disagree, more than %.1f%%")
            :format((fw[4] or a).name, fw[1].name, bad[f], moves, fw[2] * 100))
    end
  end
  if inside > 0 then error(("%d moves of the pure-Lua mover end inside another box"):format(inside)) end
end

return M
