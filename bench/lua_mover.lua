-- bench/lua_mover.lua: the pure-Lua baseline for the move benchmark
-- (bench/move.lua): bump.lua's world:move for turned 2D boxes, by the rules
-- obb's world:move follows (issue 19, "Move boxes through a world"),
-- written as a careful LuaJIT programmer would write it: boxes kept as
-- parallel arrays (struct of arrays), a loose uniform grid for the broad
-- phase (each box in the cell of its center), one broad-phase query per
-- move, no table or closure made per call, scratch arrays reused from move
-- to move: no garbage once its arrays have grown. For LuaJIT's traces the
-- hot loops avoid branches (math.min and max, weights of 0 or 1, a first
-- pass that stores margins and a second that tests them): side traces of
-- a loop whose branches leave many values live do not compile in LuaJIT
-- 2.1 ("NYI: register coalescing too complex"), and the move then runs
-- partly in the interpreter, at about a third of the speed and unevenly
-- from run to run. Under the interpreters (Lua 5.1 to 5.4), where a call
-- to math.min costs more than a branch, the few leaf functions concerned
-- have plain forms with branches; both give the same answers.
--
--   local mover = require "lua_mover"
--   local w = mover.new(64)                    -- cell side
--   w:add(item, cx, cy, hx, hy [, angle])
--   local ax, ay, n = w:move(item, gx, gy, filter, out)
--   w:check(...)                               -- the same, not committed
--   w:update(item, cx, cy)                     -- put it there, no collisions
--   w:overlaps(item)                           -- others it overlaps (> B)
--
-- Boxes are centers (cx, cy), the unit axis (ux, uy) = (cos, sin angle),
-- half extents (hx, hy); an item keeps its rotation while it moves.
-- filter is nil (every other "slide"), a response for all ("slide",
-- "touch", "cross", "bounce") or filter(item, other, nx, ny, t, depth)
-- returning one of them, or false/nil to ignore other; it is called only
-- for real hits, at most once per other per move. out gets, per collision,
-- in the order met (stride 8, stale tail set to nil):
--   other, response, t, nx, ny, x, y, depth
-- t the time along its leg, (nx, ny) the way the item must move to get
-- away, (x, y) the item's center at contact, depth > 0 only for an other
-- the item already overlapped when the leg began.
--
-- The rules, in short (the issue's draft, which obb's C follows):
-- - B, the pair touching band: 2^-40 * S + 2^-50 * M + 2^-1066, S = |dx|
--   + |dy| between the centers plus every half extent, M the largest
--   |coordinate| of the two centers. On the four face axes L (the item's
--   two, then the other's), s = (c_other - c_item) . L and R the sum of
--   the projection radii.
-- - OVERLAP: |s| < R - B on every axis at the leg's start. Never stops the
--   item; its penetration normal (the axis of least overlap R - |s|)
--   becomes a plane the item may not go deeper along.
-- - BLOCK: the first t in [0, 1] with |s(t)| <= R - B on every axis (per
--   axis entry and exit times, intersected; the axis entered last gives
--   the normal). The item stops at the exact contact (the latest entry
--   with radius R, clamped to [0, t_block]): it ends touching, never
--   overlapping; a contact that stays within the band (a floor slid
--   along, the seam of flush tiles, a corner passed) never blocks.
-- - A leg: OVERLAP others first (their response; planes), then the
--   earliest BLOCK others (ties: others whose stop time is within the
--   time their gap takes to close by their band, as obb's mover decides;
--   nearest center first): ignore and cross exclude the other for the rest of the move;
--   touch ends it; slide adds the normal to the planes; bounce reflects
--   the remainder; then the remainder is clipped against every plane met
--   (Quake's slide; a crease stops the item, and so does a slide that
--   would turn back against the move's direction). At most 8 legs. Every other
--   is re-tested on every leg (only ignored and crossed ones are not);
--   each is reported once per move.
-- Where the draft leaves a choice, this mover takes: distances between
-- centers at the leg's start; ties in both time and distance in the
-- grid's order; overlaps answered nearest first, and the blocks found
-- again when their planes changed the remainder; a bounce in a group of
-- ties reflects what still goes into its normal (so flush tiles reflect
-- once); planes kept once each; the axis entered last decided by exact
-- comparison (ties to the lower axis); after 8 legs the rest of the
-- remainder is dropped. new(cell, { retest_ties = true }) answers only the
-- first of a group of ties (the most head-on, then the nearest) and tests
-- the others again on the next leg: bump's way, which the draft's "ask
-- each" is not (bench/move_check.lua shows what it changes).
local abs, sqrt, floor, ceil, huge = math.abs, math.sqrt, math.floor, math.ceil, math.huge
local min, max = math.min, math.max
local cos, sin = math.cos, math.sin

local M = {}

local JIT = rawget(_G, "jit") ~= nil

local REL, COORD, FLOOR = 2 ^ -40, 2 ^ -50, 2 ^ -1066
local EPS = 2 ^ -52
local SNAP = 8 * EPS      -- |cos| within this of 0 or 1 is exactly 0 or 1
local TIE = 16 * EPS      -- least overlaps this close (of S) tie (lower axis)
local PLANE_TOL = 2 ^ -40 -- a remainder this much into a plane is along it
local BIG, TINY = 2 ^ 1000, 2 ^ -1000
local MAX_LEGS = 8
M.MAX_LEGS = MAX_LEGS
M.STRIDE = 8

local IGNORE, TOUCH, CROSS, SLIDE, BOUNCE = 0, 1, 2, 3, 4
local CODES = { touch = TOUCH, cross = CROSS, slide = SLIDE, bounce = BOUNCE }
local NAMES = { [TOUCH] = "touch", [CROSS] = "cross", [SLIDE] = "slide",
                [BOUNCE] = "bounce" }

-- Cell keys: one number per cell, cells within +-2^25 of the origin; never
-- small, so the cells table has no array part (LuaJIT's traces cannot look
-- a number up in a table that has both).
local KEY, KEY0 = 67108864, 33554432 * 67108864
local function key(kx, ky) return kx * KEY + ky + KEY0 end

local World = {}
World.__index = World

-- cell: the grid's cell side, best about twice what a move's query spans
-- (the item, how far it moves, the largest item).
-- opts.retest_ties: answer only the first of several others met at one
-- time (the most head-on, then the nearest) and test the rest again on
-- the next leg, against the remainder that answer left (bump's way; see
-- the tie note above); by default every tied other is answered.
function M.new(cell, opts)
  return setmetatable({
    cell = cell or 64, cells = {}, ids = {}, items = {}, count = 0,
    retest_ties = opts and opts.retest_ties or false,
    -- boxes, by id: center, unit axis, half extents, bounding half widths,
    -- the cell the box is linked in; the largest bounding half widths
    cx = {}, cy = {}, ux = {}, uy = {}, hx = {}, hy = {}, wx = {}, wy = {},
    kx = {}, ky = {}, maxw = 0, maxh = 0,
    -- per-move marks, by id: stamps instead of clearing
    excl = {}, rep = {}, rstamp = {}, rcode = {},
    stamp = 0, gstamp = 0,
    -- scratch: candidates, blocks, overlaps, planes
    cand = {}, dov = {}, dbl = {}, keep = {},
    bid = {}, bt = {}, bnx = {}, bny = {}, bd = {}, bg = {}, btie = {},
    oid = {}, onx = {}, ony = {}, odep = {}, od = {}, og = {},
    px = {}, py = {},
  }, World)
end

-- The grid is loose: an item is linked in the one cell that holds its
-- center, and a query reaches further by the largest bounding half width
-- of any item (maxw, maxh), so an item is never found twice and a move
-- relinks it only when its center changes cells.
local function link(self, id, kx, ky)
  local cells = self.cells
  local k = key(kx, ky)
  local c = cells[k]
  if not c then
    c = { [0] = 0 }
    cells[k] = c
  end
  local m = c[0] + 1
  c[m], c[0] = id, m
  self.kx[id], self.ky[id] = kx, ky
end

local function unlink(self, id)
  local c = self.cells[key(self.kx[id], self.ky[id])]
  local m = c[0]
  for j = 1, m do
    if c[j] == id then
      c[j], c[m], c[0] = c[m], nil, m - 1
      return
    end
  end
end

-- Sets id's center, and its cell when that changed.
local function place(self, id, cx, cy)
  local cs = self.cell
  self.cx[id], self.cy[id] = cx, cy
  local kx, ky = floor(cx / cs), floor(cy / cs)
  if kx ~= self.kx[id] or ky ~= self.ky[id] then
    if self.kx[id] then unlink(self, id) end
    link(self, id, kx, ky)
  end
end

function World:add(item, cx, cy, hx, hy, angle)
  assert(item ~= nil and self.ids[item] == nil, "bad item")
  local id = self.count + 1
  self.count = id
  self.ids[item], self.items[id] = id, item
  local ux, uy = 1, 0
  if angle and angle ~= 0 then ux, uy = cos(angle), sin(angle) end
  self.ux[id], self.uy[id], self.hx[id], self.hy[id] = ux, uy, hx, hy
  self.wx[id] = hx * abs(ux) + hy * abs(uy)
  self.wy[id] = hx * abs(uy) + hy * abs(ux)
  if self.wx[id] > self.maxw then self.maxw = self.wx[id] end
  if self.wy[id] > self.maxh then self.maxh = self.wy[id] end
  self.excl[id], self.rep[id], self.rstamp[id] = 0, 0, 0
  self.rcode[id] = IGNORE
  place(self, id, cx, cy)
  return self
end

-- Moves item's center to (cx, cy) without collisions (its half extents
-- and rotation stay; obb's update(item, cx, cy, hx, hy) with the same half
-- extents does the same).
function World:update(item, cx, cy)
  place(self, self.ids[item], cx, cy)
  return self
end

function World:get(item)
  local id = self.ids[item]
  return self.cx[id], self.cy[id]
end

-- |cos| of the angle between two unit axes, snapped to exactly 0 within
-- SNAP of it and to exactly 1 within SNAP of 1 (as obb does, so aligned
-- boxes that touch overlap by exactly 0), without a branch: floor(c / SNAP)
-- is 0 below SNAP, and floor(c * UP) is 1 from 1 - SNAP on (c <= 1 + eps).
-- (The interpreters get the plain forms with branches: there, calls to
-- math.min, max, floor and ceil cost more than branches. The same holds
-- for span and visit below.)
local UP = 1 / (1 - SNAP)
local snap
if JIT then
  snap = function(c)
    c = c * min(1, floor(c * (1 / SNAP)))
    return c + (1 - c) * floor(c * UP)
  end
else
  snap = function(c)
    if c < SNAP then return 0 elseif c * UP >= 1 then return 1 end
    return c
  end
end

-- The entry and exit times of one axis, |s + t * v| <= k: by division, so
-- that v == 0 gives [-inf, inf] when |s| < k and an empty or out-of-range
-- interval when |s| > k (|s| == k exactly with v == 0 never reaches here:
-- see pair) without a branch.
local span
if JIT then
  span = function(s, k, v)
    local a, b = (-k - s) / v, (k - s) / v
    return min(a, b), max(a, b)
  end
else
  span = function(s, k, v)
    local a, b = (-k - s) / v, (k - s) / v
    if a < b then return a, b end
    return b, a
  end
end

-- pair's two tests (see pair, below) as margins, without a branch: the
-- first > 0 when the pair may OVERLAP, the second <= 0 when it may BLOCK
-- (with half the band and without the snapping of |cos| to 0 and 1, so a
-- pair pair answers for is never left out).
-- The candidate loop stores both and a second loop keeps the candidates
-- that pass; pair then answers for those. Split so for LuaJIT: a loop
-- whose branches leave many values live makes side traces that do not
-- compile ("register coalescing too complex"), and the move falls back to
-- the interpreter.
local function classify(px, py, iux, iuy, ihx, ihy, ocx, ocy, oux, ouy, ohx, ohy, rx, ry)
  local dx, dy = ocx - px, ocy - py
  local c = abs(iux * oux + iuy * ouy)
  local s = abs(iux * ouy - iuy * oux)
  local band = 0.5 * (REL * (abs(dx) + abs(dy) + ihx + ihy + ohx + ohy) +
                      (COORD * max(abs(px), abs(py), abs(ocx), abs(ocy)) + FLOOR))
  local k0 = ihx + ohx * c + ohy * s - band
  local k1 = ihy + ohx * s + ohy * c - band
  local k2 = ohx + ihx * c + ihy * s - band
  local k3 = ohy + ihx * s + ihy * c - band
  local s0 = dx * iux + dy * iuy
  local s1 = dy * iux - dx * iuy
  local s2 = dx * oux + dy * ouy
  local s3 = dy * oux - dx * ouy
  local e0, x0 = span(s0, k0, -(rx * iux + ry * iuy))
  local e1, x1 = span(s1, k1, -(ry * iux - rx * iuy))
  local e2, x2 = span(s2, k2, -(rx * oux + ry * ouy))
  local e3, x3 = span(s3, k3, -(ry * oux - rx * ouy))
  local exit = min(x0, x1, x2, x3)
  return min(k0 - abs(s0), k1 - abs(s1), k2 - abs(s2), k3 - abs(s3)),
         max(max(e0, e1, e2, e3) - min(exit, 1), -exit)
end

-- One pair: the item (center px, py, axis iux, iuy, half extents ihx, ihy)
-- moving by (rx, ry) against another box. Returns
--   1, nx, ny, depth    OVERLAP (deeper than the band at the start)
--   2, nx, ny, t_stop   BLOCK
--   0                   neither
-- Written for LuaJIT's traces: few branches on the common path (an other
-- that neither overlaps nor blocks), min and max instead.
local function pair(px, py, iux, iuy, ihx, ihy, ocx, ocy, oux, ouy, ohx, ohy, rx, ry)
  local dx, dy = ocx - px, ocy - py
  local c = snap(abs(iux * oux + iuy * ouy))
  local s = snap(abs(iux * ouy - iuy * oux))
  local scale = abs(dx) + abs(dy) + ihx + ihy + ohx + ohy
  local band = REL * scale + (COORD * max(abs(px), abs(py), abs(ocx), abs(ocy)) + FLOOR)
  local r0 = ihx + ohx * c + ohy * s
  local r1 = ihy + ohx * s + ohy * c
  local r2 = ohx + ihx * c + ihy * s
  local r3 = ohy + ihx * s + ihy * c
  -- the axes: (iux, iuy), (-iuy, iux), (oux, ouy), (-ouy, oux)
  local s0 = dx * iux + dy * iuy
  local s1 = dy * iux - dx * iuy
  local s2 = dx * oux + dy * ouy
  local s3 = dy * oux - dx * ouy
  local k0, k1, k2, k3 = r0 - band, r1 - band, r2 - band, r3 - band
  local a0, a1, a2, a3 = abs(s0), abs(s1), abs(s2), abs(s3)
  if min(k0 - a0, k1 - a1, k2 - a2, k3 - a3) > 0 then
    -- OVERLAP (|s| < R - B on every axis): the least overlap, ties to the
    -- lower axis; the item leaves along -L when the other lies on L's +
    -- side
    local tie = TIE * scale
    local best, k, sk = r0 - a0, 0, s0
    local o = r1 - a1
    if o < best - tie then best, k, sk = o, 1, s1 end
    o = r2 - a2
    if o < best - tie then best, k, sk = o, 2, s2 end
    o = r3 - a3
    if o < best - tie then best, k, sk = o, 3, s3 end
    local lx, ly
    if k == 0 then lx, ly = iux, iuy
    elseif k == 1 then lx, ly = -iuy, iux
    elseif k == 2 then lx, ly = oux, ouy
    else lx, ly = -ouy, oux end
    if sk >= 0 then lx, ly = -lx, -ly end
    return 1, lx + 0.0, ly + 0.0, best
  end
  -- s(t) = s + t * v on each axis, v = -(r . L); BLOCK when the spans of
  -- |s(t)| <= R - B meet within [0, 1]
  local v0 = -(rx * iux + ry * iuy)
  local v1 = -(ry * iux - rx * iuy)
  local v2 = -(rx * oux + ry * ouy)
  local v3 = -(ry * oux - rx * ouy)
  local e0, x0 = span(s0, k0, v0)
  local e1, x1 = span(s1, k1, v1)
  local e2, x2 = span(s2, k2, v2)
  local e3, x3 = span(s3, k3, v3)
  local exit = min(x0, x1, x2, x3)
  local enter = max(e0, e1, e2, e3)
  if not (enter <= min(exit, 1) and exit >= 0) then return 0 end
  local tb = max(enter, 0)
  -- the stop: the exact contact, the latest entry with radius R, clamped
  -- to [0, t_block]
  local ts = min(max((span(s0, r0, v0)), (span(s1, r1, v1)), (span(s2, r2, v2)), (span(s3, r3, v3)), 0), tb)
  -- the normal, n = sign(v) * L of the axis entered last (exact ties to
  -- the lower axis; an axis with v == 0 enters at -inf), picked by weights
  -- 0 or 1 rather than by branches. (obb's sweep also counts entries
  -- within 16 ulps of each other as tied: the two differ only at a corner
  -- met exactly but for rounding.)
  local w0 = 1 - min(1, (enter - e0) * BIG)
  local w1 = (1 - w0) * (1 - min(1, (enter - e1) * BIG))
  local w2 = (1 - w0 - w1) * (1 - min(1, (enter - e2) * BIG))
  local w3 = 1 - w0 - w1 - w2
  w0, w1 = w0 * v0 / max(abs(v0), TINY), w1 * v1 / max(abs(v1), TINY)
  w2, w3 = w2 * v2 / max(abs(v2), TINY), w3 * v3 / max(abs(v3), TINY)
  local lx = w0 * iux - w1 * iuy + w2 * oux - w3 * ouy
  local ly = w0 * iuy + w1 * iux + w2 * ouy + w3 * oux
  -- another other ties with this one when, at its stop time, the item is
  -- within its band too: the gap closes at |v| of the blocking axis
  local vb = abs(w0 * v0) + abs(w1 * v1) + abs(w2 * v2) + abs(w3 * v3)
  return 2, lx + 0.0, ly + 0.0, ts, band / vb
end
M.pair = pair

-- Clips (rx, ry) against the planes (Quake's slide): unchanged when it
-- goes into none; else along the first plane it goes into whose slide
-- goes into no other and not back against the move's direction (fx, fy);
-- else stopped (a crease, in 2D).
local function clip(rx, ry, PX, PY, np, fx, fy)
  local len = sqrt(rx * rx + ry * ry)
  if len == 0 then return 0, 0 end
  local tol = -PLANE_TOL * len
  local into = false
  for i = 1, np do
    if rx * PX[i] + ry * PY[i] < tol then
      into = true
      break
    end
  end
  if not into then return rx, ry end
  for i = 1, np do
    local pxi, pyi = PX[i], PY[i]
    local d = rx * pxi + ry * pyi
    if d < 0 then
      local qx, qy = rx - d * pxi, ry - d * pyi
      local qtol = -PLANE_TOL * sqrt(qx * qx + qy * qy)
      local ok = true
      for j = 1, np do
        if j ~= i and qx * PX[j] + qy * PY[j] < qtol then
          ok = false
          break
        end
      end
      if ok and qx * fx + qy * fy > 0 then return qx, qy end
    end
  end
  return 0, 0
end
M.clip = clip

local function add_plane(PX, PY, np, nx, ny)
  for i = 1, np do
    if PX[i] == nx and PY[i] == ny then return np end
  end
  np = np + 1
  PX[np], PY[np] = nx, ny
  return np
end

-- The response for other (id o): cached for the move, else the filter's.
local function respond(self, stamp, fcode, ffun, item, o, nx, ny, t, depth)
  local RST = self.rstamp
  if RST[o] == stamp then return self.rcode[o] end
  local code = fcode
  if ffun then
    local r = ffun(item, self.items[o], nx, ny, t, depth)
    if not r then
      code = IGNORE
    else
      code = CODES[r]
      if not code then error(("unknown response '%s'"):format(tostring(r)), 3) end
    end
  end
  RST[o], self.rcode[o] = stamp, code
  return code
end

local function put(out, n, other, code, t, nx, ny, x, y, depth)
  local b = n * 8
  out[b + 1], out[b + 2], out[b + 3], out[b + 4] = other, NAMES[code], t, nx
  out[b + 5], out[b + 6], out[b + 7], out[b + 8] = ny, x, y, depth
  return n + 1
end

-- Appends to CAND, from position nc on, the ids in cell k whose bounding
-- boxes meet [lox, hix] x [loy, hiy]; returns the new count. A cell looked
-- at is made if missing (so, after the first frames, every cell a query
-- meets exists, and the test for it always goes one way).
local visit
if JIT then
  visit = function(cells, k, lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    local c = cells[k]
    if not c then
      c = { [0] = 0 }
      cells[k] = c
    end
    for j = 1, c[0] do
      local o = c[j]
      local ox, oy, owx, owy = CX[o], CY[o], WX[o], WY[o]
      -- appended always, counted when the boxes meet: 1 - ceil(max(0,
      -- gap)) is 1 or 0, without a branch
      CAND[nc + 1] = o
      nc = nc + 1 - min(1, ceil(max(0, ox - owx - hix, lox - ox - owx, oy - owy - hiy, loy - oy - owy)))
    end
    return nc
  end
else
  visit = function(cells, k, lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    local c = cells[k]
    if not c then return nc end
    for j = 1, c[0] do
      local o = c[j]
      local ox, oy, owx, owy = CX[o], CY[o], WX[o], WY[o]
      if ox - owx <= hix and lox <= ox + owx and oy - owy <= hiy and loy <= oy + owy then
        nc = nc + 1
        CAND[nc] = o
      end
    end
    return nc
  end
end

-- Fills self.cand with the ids whose bounding boxes meet the box of half
-- widths (wx, wy) around (px, py), grown by the band; returns the count.
-- A move asks once, for its whole reach: however it slides or bounces, its
-- center stays within |r| of where it began (each leg's remainder is at
-- most what is left of the last). A query no wider than a cell meets at
-- most 2 x 2 cells, visited without a loop (LuaJIT traces short nested
-- loops badly); wider ones loop.
local function gather(self, px, py, wx, wy)
  local g = REL * (abs(px) + abs(py) + wx + wy) * 16 + FLOOR
  local lox, hix, loy, hiy = px - wx - g, px + wx + g, py - wy - g, py + wy + g
  local cs, cells = self.cell, self.cells
  local CX, CY, WX, WY, CAND = self.cx, self.cy, self.wx, self.wy, self.cand
  local mw, mh = self.maxw, self.maxh
  local x0, x1 = floor((lox - mw) / cs), floor((hix + mw) / cs)
  local y0, y1 = floor((loy - mh) / cs), floor((hiy + mh) / cs)
  local nc = 0
  if x1 - x0 <= 1 and y1 - y0 <= 1 then
    nc = visit(cells, key(x0, y0), lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    nc = visit(cells, key(x0 + 1, y0), lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    nc = visit(cells, key(x0, y0 + 1), lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    return visit(cells, key(x0 + 1, y0 + 1), lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
  end
  for kx = x0, x1 do
    for ky = y0, y1 do
      nc = visit(cells, key(kx, ky), lox, hix, loy, hiy, CX, CY, WX, WY, CAND, nc)
    end
  end
  return nc
end

-- The move without committing it: returns the final center and the
-- collision count (out filled as described above).
function World:check(item, gx, gy, filter, out)
  local id = self.ids[item]
  if not id then error("item is not in the world", 2) end
  local fcode, ffun = SLIDE, nil
  if filter ~= nil then
    if type(filter) == "string" then
      fcode = CODES[filter]
      if not fcode then error(("unknown response '%s'"):format(filter), 2) end
    else
      ffun = filter
    end
  end
  local CX, CY, UX, UY, HX, HY = self.cx, self.cy, self.ux, self.uy, self.hx, self.hy
  local ITEMS, EXCL, REP = self.items, self.excl, self.rep
  local CAND, DOV, DBL, KEEP = self.cand, self.dov, self.dbl, self.keep
  local BID, BT, BNX, BNY, BD, BG = self.bid, self.bt, self.bnx, self.bny, self.bd, self.bg
  local BTIE = self.btie
  local OID, ONX, ONY, ODEP, OD, OG = self.oid, self.onx, self.ony, self.odep,
    self.od, self.og
  local PX, PY = self.px, self.py
  local retest = self.retest_ties
  local stamp = self.stamp + 1
  self.stamp = stamp
  EXCL[id] = stamp
  local px, py = CX[id], CY[id]
  local iux, iuy, ihx, ihy, iwx, iwy = UX[id], UY[id], HX[id], HY[id], self.wx[id], self.wy[id]
  local rx, ry = gx - px, gy - py
  local fx, fy = rx, ry -- the move's direction (a bounce's after one)
  local reach = sqrt(rx * rx + ry * ry)
  local nc = gather(self, px, py, iwx + reach, iwy + reach)
  local np, n = 0, 0
  local done = false
  for _ = 1, MAX_LEGS do
    if done or (rx == 0 and ry == 0) then break end
    -- classify every candidate: OVERLAP, BLOCK or nothing; the overlaps
    -- are answered first, and when their planes change the remainder the
    -- blocks are found again for the new one
    local nb
    local first = true
    while true do
      -- under LuaJIT, every candidate's two margins, without a branch,
      -- then the ones that may overlap or block; the interpreters test
      -- every candidate with pair at once (branches cost them little, and
      -- calls to math.min and max much)
      local no
      local nk = 0
      if JIT then
        for j = 1, nc do
          local o = CAND[j]
          DOV[j], DBL[j] = classify(px, py, iux, iuy, ihx, ihy, CX[o], CY[o], UX[o], UY[o], HX[o], HY[o],
                                    rx, ry)
        end
        for j = 1, nc do
          if (DOV[j] > 0 or DBL[j] <= 0) and EXCL[CAND[j]] ~= stamp then
            nk = nk + 1
            KEEP[nk] = CAND[j]
          end
        end
      else
        for j = 1, nc do
          if EXCL[CAND[j]] ~= stamp then
            nk = nk + 1
            KEEP[nk] = CAND[j]
          end
        end
      end
      nb, no = 0, 0
      for j = 1, nk do
        local o = KEEP[j]
        local ocx, ocy = CX[o], CY[o]
        local kind, nx, ny, x, tie = pair(px, py, iux, iuy, ihx, ihy, ocx, ocy, UX[o], UY[o],
                                          HX[o], HY[o], rx, ry)
        if kind ~= 0 then
          local ddx, ddy = ocx - px, ocy - py
          if kind == 2 then
            nb = nb + 1
            BID[nb], BNX[nb], BNY[nb], BT[nb], BD[nb], BG[nb] = o, nx, ny, x,
              ddx * ddx + ddy * ddy, 0
            BTIE[nb] = tie
          elseif first then
            no = no + 1
            OID[no], ONX[no], ONY[no], ODEP[no], OD[no], OG[no] = o, nx, ny, x,
              ddx * ddx + ddy * ddy, false
          end
        end
      end
      if no == 0 then break end
      first = false
      -- the overlaps, nearest first
      for _ = 1, no do
        local kb, db = 0, huge
        for k = 1, no do
          if not OG[k] and OD[k] < db then kb, db = k, OD[k] end
        end
        OG[kb] = true
        local o, nx, ny, depth = OID[kb], ONX[kb], ONY[kb], ODEP[kb]
        local code = respond(self, stamp, fcode, ffun, item, o, nx, ny, 0, depth)
        if code == IGNORE then
          EXCL[o] = stamp
        else
          if REP[o] ~= stamp then
            REP[o] = stamp
            n = put(out, n, ITEMS[o], code, 0, nx, ny, px, py, depth)
          end
          if code == CROSS then
            EXCL[o] = stamp
          elseif code == TOUCH then
            rx, ry, done = 0, 0, true
            break
          else
            np = add_plane(PX, PY, np, nx, ny)
          end
        end
      end
      if done then break end
      local qx, qy = clip(rx, ry, PX, PY, np, fx, fy)
      if qx == rx and qy == ry then break end
      rx, ry = qx, qy
      if rx == 0 and ry == 0 then
        done = true
        break
      end
    end
    if done then break end
    -- the earliest blocks: answered in time order, ties nearest first,
    -- until one stops the item (or none is left)
    while true do
      local tmin = huge
      for k = 1, nb do
        if BT[k] < tmin and EXCL[BID[k]] ~= stamp then tmin = BT[k] end
      end
      if tmin == huge then
        px, py, done = px + rx, py + ry, true
        break
      end
      local g = self.gstamp + 1
      self.gstamp = g
      -- the remainder after this group, bounces applied
      local stop, qx, qy = false, (1 - tmin) * rx, (1 - tmin) * ry
      while true do
        local kb, db, hb = 0, huge, -huge
        for k = 1, nb do
          if BT[k] <= tmin + BTIE[k] and BG[k] ~= g and EXCL[BID[k]] ~= stamp then
            if retest then
              local h = -(rx * BNX[k] + ry * BNY[k])
              if h > hb or (h == hb and BD[k] < db) then kb, db, hb = k, BD[k], h end
            elseif BD[k] < db then
              kb, db = k, BD[k]
            end
          end
        end
        if kb == 0 then break end
        BG[kb] = g
        local o, t, nx, ny = BID[kb], BT[kb], BNX[kb], BNY[kb]
        local code = respond(self, stamp, fcode, ffun, item, o, nx, ny, t, 0)
        if code == IGNORE then
          EXCL[o] = stamp
        else
          if REP[o] ~= stamp then
            REP[o] = stamp
            n = put(out, n, ITEMS[o], code, t, nx, ny, px + t * rx, py + t * ry, 0)
          end
          if code == CROSS then
            EXCL[o] = stamp
          elseif code == TOUCH then
            px, py, done = px + t * rx, py + t * ry, true
            break
          else
            stop = true
            if code == SLIDE then
              np = add_plane(PX, PY, np, nx, ny)
            else
              -- bounce: reflect what still goes into n (ties with the
              -- same normal reflect once)
              local d = qx * nx + qy * ny
              if d < 0 then
                qx, qy = qx - 2 * d * nx, qy - 2 * d * ny
                fx, fy = qx, qy
              end
            end
            -- the other tied others are tested again on the next leg
            if retest then break end
          end
        end
      end
      if done then break end
      if stop then
        px, py = px + tmin * rx, py + tmin * ry
        rx, ry = qx, qy
        if np > 0 then rx, ry = clip(rx, ry, PX, PY, np, fx, fy) end
        break
      end
    end
  end
  -- stale entries of an earlier, longer result
  local i = n * 8 + 1
  while out[i] ~= nil do
    out[i] = nil
    i = i + 1
  end
  return px, py, n
end

-- How many others the item overlaps deeper than the band (a move never
-- ends so, unless it began so).
function World:overlaps(item)
  local id = self.ids[item]
  local CX, CY, UX, UY, HX, HY, CAND = self.cx, self.cy, self.ux, self.uy, self.hx, self.hy, self.cand
  local px, py = CX[id], CY[id]
  local iux, iuy, ihx, ihy = UX[id], UY[id], HX[id], HY[id]
  local count = 0
  for j = 1, gather(self, px, py, self.wx[id], self.wy[id]) do
    local o = CAND[j]
    if o ~= id and classify(px, py, iux, iuy, ihx, ihy, CX[o], CY[o], UX[o], UY[o], HX[o], HY[o], 0, 0) > 0 then
      count = count + 1
    end
  end
  return count
end

-- The move, committed.
function World:move(item, gx, gy, filter, out)
  local x, y, n = self:check(item, gx, gy, filter, out)
  place(self, self.ids[item], x, y)
  return x, y, n
end

return M
