-- obb.bump: bump.lua's world API (kikito's bump.lua 3.1, MIT) over an obb
-- world, so that a game switches with one line:
--
--   local bump = require "obb.bump"
--
-- docs/reference.md, "Coming from bump.lua", lists where it answers differently and
-- why. This file shares no code with bump.lua: bump's behaviour is
-- followed from its documentation and observed answers; spec/bump_spec.lua
-- and spec/bump_faithful_spec.lua check it, test/bump_side_by_side.lua
-- compares it call by call with a bump.lua you give it.
--
-- - Rectangles are bump's: top-left corners and sizes, in the game's own
--   frame (y down on a LÖVE screen). add and update take an optional
--   trailing angle in radians, the rectangle turned about its center;
--   getRect then returns it fifth.
-- - A world follows bump's rules (options.rules = "bump", the default)
--   or obb's ("obb"); one holding a turned rectangle follows obb's.
-- - bump's rules: move, check and project are bump's algorithm: its narrow
--   phase (bump.rect.detectCollision), its responses and its loop (each
--   col list's first col resolved by its response, every other met once),
--   over obb's broad phase (world:query_box around the move). The filter
--   runs here in Lua with obb's world unlocked, as bump runs it. A move or
--   check is made by the same loop in C first ("bump's loop in C" below),
--   the filter asked after it; this file's loop goes on where it cannot.
-- - obb's rules: world:move and world:check are one call to obb's C mover,
--   with a filter that maps bump's filter(item, other) to obb's responses;
--   the cols are built from the out records, bump's fields (move,
--   itemRect, slide, bounce) replayed from them. A move of length zero
--   runs bump's loop over project. A custom response stops the item where
--   obb meets the other, as "touch"; the function is then called as bump
--   calls it, and bump's loop runs the rest of the move in Lua. project
--   places the rectangle in obb's world for one world:check with every
--   answer turned to "cross" (under the item itself when the rectangle is
--   the item's): it cannot run inside a move's filter. These, and the lock
--   of obb's world while its call runs the filter, are
--   lua/obb/bump_obb.lua's.
-- - Either way user code (a filter, a response) never runs while obb's box
--   and bump's record disagree, so one that raises, or yields from a
--   coroutine that is dropped, leaves them agreeing.
-- - cellSize is the size of the obb world's cells (obb.world2{cell =}:
--   its broad phase, a uniform grid as bump's), and serves toCell,
--   toWorld, countCells and world.rows.
--
-- Why bump's loop lives in C as well as here (issue 41, measured on
-- 2026-11-29): the simpler shape, one loop in Lua over one step in C (the
-- C step finding the others and their narrow phase, this file ordering
-- them, asking the filter and applying the responses; branch
-- h3-bump-stage1), gives bump's answers (every bump spec passes, make
-- bump-side-by-side finds no difference) but not the speed. On the busy
-- scene (make bump-prof, Lua 5.4) it costs 44,000 to 50,900 instructions
-- a move against 29,700 to 30,400 with the loop in C (the bar was +5%):
-- the loop's work runs in the interpreter, 585 to 694 virtual-machine
-- instructions a move against 347, with 1.5 C steps a move where the C
-- loop takes one run. make bench: 2.8 to 3.4 us a busy move on Lua 5.4
-- (2.9x to 3.1x bump.lua) against 2.0 to 2.1 us (4.2x), and on LuaJIT 3.4
-- to 4.5 us (1.6x to 2.2x) against 0.77 to 0.91 us (4.8x to 7.2x): the
-- loop over a step's others and the loop over the steps do not compile
-- into the game's trace ("register coalescing too complex", inner loops,
-- traces too long). So the C loop makes a move in one call, guessing the
-- filter's answers, and this file's loop (loopFrom) goes on where it
-- cannot.

local obb = require "obb"
local finite = obb._lua.finite -- (src/binding/lobb_open.c)

local abs, floor, ceil, min, max = math.abs, math.floor, math.ceil, math.min, math.max
local huge = math.huge
local type, error, pairs, ipairs, pcall, tostring, setmetatable = type, error, pairs, ipairs, pcall, tostring,
  setmetatable
local clip, reflect = obb.clip, obb.reflect
-- Items are compared by identity, as bump.lua compares them: an item's
-- class may have an __eq that calls two entities equal.
local rawequal = rawequal
local sort, format = table.sort, string.format

-- bump's margin for a point inside a rectangle (rect.containsPoint,
-- world:queryPoint).
local DELTA = 1e-10

local bump = {
  _VERSION = "obb.bump " .. obb._VERSION .. " (bump.lua 3.1 API)",
  _DESCRIPTION = "bump.lua's world API over an obb world",
}

-- ---- arguments ----------------------------------------------------------

-- level: 1 for the caller of the function that calls argError, 2 for its
-- caller's caller, ...
local function argError(fname, i, msg, level)
  error(format("bad argument #%d to '%s' (%s)", i, fname, msg), (level or 1) + 2)
end

-- A move by bump's rules whose arithmetic overflows (a coordinate of a
-- col or of where the item ends beyond the largest number, the rectangle
-- at its end included: goals near 1e308, or others that far the other
-- way) raises this, naming the goal, having changed nothing; bump.lua
-- computes infinities there. ax, w: where the move ended in x (not
-- finite: goalX, argument i, is named, else goalY). Called by resolve or
-- projectBump.
local function overflowError(fname, i, ax, w, level)
  if finite(ax + w / 2) then i = i + 1 end
  argError(fname, i, "the move overflows (goals this far from the rectangles it meets are "
    .. "beyond the largest number)", level or 3)
end

local function shown(v)
  return type(v) == "string" and format("%q", v) or tostring(v)
end

-- The rectangle x, y, w, h given as arguments i .. i + 3 of fname.
local function checkRect(fname, i, x, y, w, h)
  if not finite(x) then argError(fname, i, "x must be a finite number, got " .. shown(x), 2) end
  if not finite(y) then argError(fname, i + 1, "y must be a finite number, got " .. shown(y), 2) end
  if not (finite(w) and w > 0) then argError(fname, i + 2, "w must be a positive number, got " .. shown(w), 2) end
  if not (finite(h) and h > 0) then argError(fname, i + 3, "h must be a positive number, got " .. shown(h), 2) end
end

-- ---- rectangles (bump.rect) ---------------------------------------------

local function nearest(v, a, b)
  if abs(a - v) < abs(b - v) then return a end
  return b
end

local function rect_getNearestCorner(x, y, w, h, px, py)
  return nearest(px, x, x + w), nearest(py, y, y + h)
end

-- Liang-Barsky: the segment (x1, y1)-(x2, y2) against the rectangle, in the
-- parameter range [t1, t2] (default [0, 1]): the parameters where it enters
-- and leaves, and the normals of the sides it crosses there; nil if it
-- misses. Sides in the order left, right, top, bottom; for each, p is how
-- fast the segment goes out through it and q how far inside it starts.
-- Unrolled by hand: a loop here, hot on its own, becomes a LuaJIT trace of
-- its own that the move's trace cannot enter (an inner loop).
local function rect_getSegmentIntersectionIndices(x, y, w, h, x1, y1, x2, y2, t1, t2)
  local dx, dy = x2 - x1, y2 - y1
  local n1x, n1y, n2x, n2y = 0, 0, 0, 0
  t1, t2 = t1 or 0, t2 or 1
  local p, q, r
  p, q = -dx, x1 - x -- left
  if p == 0 then
    if q <= 0 then return nil end
  else
    r = q / p
    if p < 0 then -- going in through this side
      if r > t2 then return nil end
      if r > t1 then t1, n1x, n1y = r, -1, 0 end
    else -- going out
      if r < t1 then return nil end
      if r < t2 then t2, n2x, n2y = r, -1, 0 end
    end
  end
  p, q = dx, x + w - x1 -- right
  if p == 0 then
    if q <= 0 then return nil end
  else
    r = q / p
    if p < 0 then
      if r > t2 then return nil end
      if r > t1 then t1, n1x, n1y = r, 1, 0 end
    else
      if r < t1 then return nil end
      if r < t2 then t2, n2x, n2y = r, 1, 0 end
    end
  end
  p, q = -dy, y1 - y -- top
  if p == 0 then
    if q <= 0 then return nil end
  else
    r = q / p
    if p < 0 then
      if r > t2 then return nil end
      if r > t1 then t1, n1x, n1y = r, 0, -1 end
    else
      if r < t1 then return nil end
      if r < t2 then t2, n2x, n2y = r, 0, -1 end
    end
  end
  p, q = dy, y + h - y1 -- bottom
  if p == 0 then
    if q <= 0 then return nil end
  else
    r = q / p
    if p < 0 then
      if r > t2 then return nil end
      if r > t1 then t1, n1x, n1y = r, 0, 1 end
    else
      if r < t1 then return nil end
      if r < t2 then t2, n2x, n2y = r, 0, 1 end
    end
  end
  return t1, t2, n1x, n1y, n2x, n2y
end

-- The Minkowski difference of rectangle 2 and rectangle 1.
local function rect_getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
  return x2 - x1 - w1, y2 - y1 - h1, w1 + w2, h1 + h2
end

-- Strictly inside, by more than DELTA.
local function rect_containsPoint(x, y, w, h, px, py)
  return px - x > DELTA and py - y > DELTA and x + w - px > DELTA and y + h - py > DELTA
end

-- Overlapping by more than their borders.
local function rect_isIntersecting(x1, y1, w1, h1, x2, y2, w2, h2)
  return x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1
end

-- The squared distance between the centers (summed as bump sums it: the
-- order of cols with equal ti depends on its last bit).
local function rect_getSquareDistance(x1, y1, w1, h1, x2, y2, w2, h2)
  local dx = x1 - x2 + (w1 - w2) / 2
  local dy = y1 - y2 + (h1 - h2) / 2
  return dx * dx + dy * dy
end

-- bump's measure of an overlap: minus the area of rectangle 1 that the
-- nearest corner of the difference cuts out (its col.ti when overlapping).
local function overlapTi(x1, y1, w1, h1, x2, y2, w2, h2)
  local dx, dy, dw, dh = rect_getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
  local px, py = rect_getNearestCorner(dx, dy, dw, dh, 0, 0)
  return -(min(w1, abs(px)) * min(h1, abs(py)))
end

-- bump's narrow phase for two axis-aligned rectangles, rectangle 1 moving
-- to (goalX, goalY), in numbers: true, overlaps, ti, the normal and the
-- touch; or false. No table: the move's loop builds a col only for the
-- first one it keeps.
local function detect(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
  local dx, dy = goalX - x1, goalY - y1
  local x, y, w, h = rect_getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
  if rect_containsPoint(x, y, w, h, 0, 0) then
    local ti = overlapTi(x1, y1, w1, h1, x2, y2, w2, h2)
    if dx == 0 and dy == 0 then -- the shorter way out
      local px, py = rect_getNearestCorner(x, y, w, h, 0, 0)
      if abs(px) < abs(py) then py = 0 else px = 0 end
      local nx = px > 0 and 1 or px < 0 and -1 or 0
      local ny = py > 0 and 1 or py < 0 and -1 or 0
      return true, true, ti, nx, ny, x1 + px, y1 + py
    end
    -- back along the move
    local t, _, nx, ny = rect_getSegmentIntersectionIndices(x, y, w, h, 0, 0, dx, dy, -huge, 1)
    if not t then return false end
    return true, true, ti, nx, ny, x1 + dx * t, y1 + dy * t
  end
  local t1, t2, n1x, n1y = rect_getSegmentIntersectionIndices(x, y, w, h, 0, 0, dx, dy, -huge, huge)
  -- entering before the goal, not through a corner only, not behind
  if not (t1 and t1 < 1 and abs(t1 - t2) >= DELTA and (0 < t1 + DELTA or (t1 == 0 and t2 > 0))) then
    return false
  end
  return true, false, t1, n1x, n1y, x1 + dx * t1, y1 + dy * t1
end

-- bump's narrow phase as bump.rect.detectCollision: a col table
-- (overlaps, ti, move, normal, touch, itemRect, otherRect) or nil.
local function rect_detectCollision(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
  goalX, goalY = goalX or x1, goalY or y1
  local hit, overlaps, ti, nx, ny, tx, ty = detect(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
  if not hit then return nil end
  return {
    overlaps = overlaps, ti = ti,
    move = { x = goalX - x1, y = goalY - y1 }, normal = { x = nx, y = ny }, touch = { x = tx, y = ty },
    itemRect = { x = x1, y = y1, w = w1, h = h1 },
    otherRect = { x = x2, y = y2, w = w2, h = h2 },
  }
end

bump.rect = {
  getNearestCorner = rect_getNearestCorner,
  getSegmentIntersectionIndices = rect_getSegmentIntersectionIndices,
  getDiff = rect_getDiff,
  containsPoint = rect_containsPoint,
  isIntersecting = rect_isIntersecting,
  getSquareDistance = rect_getSquareDistance,
  detectCollision = rect_detectCollision,
}

-- ---- responses (bump.responses) ---------------------------------------------
-- bump's response functions, response(world, col, x, y, w, h, goalX,
-- goalY, filter) -> goalX, goalY, cols, len. The world maps these four to
-- obb's C mover; they run in Lua only when a custom response calls them,
-- or when a move goes on after a custom response (see World:check).

-- The C half (obb._bump, src/binding/lobb_bump.h): the kinds of answers
-- its loop records; and the built-in responses' names by kind
-- (obb._response_names, the core's one list of them).
local CB = obb._bump
local ASK, COL = CB.ASK, CB.COL
local NONE, TOUCH, CROSS, SLIDE, BOUNCE, OTHER = CB.NONE, CB.TOUCH, CB.CROSS, CB.SLIDE, CB.BOUNCE, CB.OTHER
local DONE = CB.DONE
local NAMES = obb._response_names

-- The goal clipped (slide) or mirrored (bounce) in the normal at the
-- touch when the rest of the move goes into it: obb.clip and obb.reflect
-- of the rest (the core's, as obb's mover clips), the coordinates along
-- the plane kept bit for bit (on axis-aligned normals, bump's rule).
-- A rest that large may overflow (clip and reflect cannot below it): the
-- goal is then NaN, and the move raises (overflowError), as obb's mover
-- raises "result is not finite".
local BIG = 4e307
local function clipGoal(fn, col, goalX, goalY)
  local t, n = col.touch, col.normal
  local rx, ry = goalX - t.x, goalY - t.y
  local cx, cy
  if abs(rx) < BIG and abs(ry) < BIG then
    cx, cy = fn(rx, ry, n.x, n.y)
  else
    local ok
    ok, cx, cy = pcall(fn, rx, ry, n.x, n.y)
    if not ok then return 0 / 0, 0 / 0 end
  end
  if cx ~= rx then goalX = t.x + cx end
  if cy ~= ry then goalY = t.y + cy end
  return goalX, goalY
end

-- The goal bump's slide (kind SLIDE) or bounce (BOUNCE) gives col on a
-- move toward (gx, gy), as bump computes it for an axis-aligned normal:
-- the goal's coordinate across the normal becomes the touch's (slide) or
-- is mirrored in it (bounce), whichever side of the touch the goal is; a
-- move of length zero keeps its goal (slide) or stops at the touch
-- (bounce). A turned normal (obb's extension) takes clipGoal's projection.
local function builtinGoal(kind, col, gx, gy)
  local t, n, m = col.touch, col.normal, col.move
  if n.x ~= 0 and n.y ~= 0 then return clipGoal(kind == SLIDE and clip or reflect, col, gx, gy) end
  if m.x == 0 and m.y == 0 then -- not moving (an overlap)
    if kind == SLIDE then return gx, gy end
    return t.x, t.y
  end
  if kind == SLIDE then
    if n.x ~= 0 then return t.x, gy end
    return gx, t.y
  end
  local bx, by = gx - t.x, gy - t.y
  if n.x == 0 then by = -by else bx = -bx end
  return t.x + bx, t.y + by
end

local RESPONSE = {} -- by kind
RESPONSE[TOUCH] = function(_, col)
  return col.touch.x, col.touch.y, {}, 0
end

RESPONSE[CROSS] = function(world, col, x, y, w, h, goalX, goalY, filter)
  local cols, len = world:project(col.item, x, y, w, h, goalX, goalY, filter)
  return goalX, goalY, cols, len
end

-- slide and bounce: builtinGoal's, kept in col.slide (col.bounce).
for _, kind in ipairs({ SLIDE, BOUNCE }) do
  local field = NAMES[kind]
  RESPONSE[kind] = function(world, col, _, _, w, h, goalX, goalY, filter)
    local t = col.touch
    goalX, goalY = builtinGoal(kind, col, goalX or t.x, goalY or t.y)
    col[field] = { x = goalX, y = goalY }
    local cols, len = world:project(col.item, t.x, t.y, w, h, goalX, goalY, filter)
    return goalX, goalY, cols, len
  end
end

-- bump.responses by name; each one's kind, and its name for the C mover.
local KIND, BUILTIN = {}, {}
bump.responses = {}
for kind, name in ipairs(NAMES) do
  local r = RESPONSE[kind]
  bump.responses[name], KIND[r], BUILTIN[r] = r, kind, name
end
local touch, cross, slide, bounce = RESPONSE[TOUCH], RESPONSE[CROSS], RESPONSE[SLIDE], RESPONSE[BOUNCE]

local function defaultFilter() return NAMES[SLIDE] end

-- ---- the C loop's calls ----------------------------------------------------
-- bump's loop in C ("bump's loop in C" below says how moves use it) reads
-- the rectangles it keeps beside obb's boxes, set here whenever bump's
-- record changes.


-- The C loop's calls: the FFI's on LuaJIT's fast path (obb.jit_bump,
-- built by obb.jit), else the classic functions (also when that file is
-- missing or raises: the same answers), with a record set as the FFI's.
local core, CLASSIC
do
  local jit = package.loaded["obb.jit"]
  core = type(jit) == "table" and jit.status == "ffi" and type(jit.extension) == "function"
    and jit.extension("bump")
  core = type(core) == "table" and core
  CLASSIC = not core
  core = core or {
    rect = CB.rect,
    update = CB.update,
    records = function() return { asks = {}, others = {}, cols = {}, names = {} } end,
  }
end
local newRecords, itemOf = core.records, core.item

-- Under LuaJIT's FFI a move's C loop starts a trace of its own: a call of
-- a C function the compiler does not record (gcinfo, its answer dropped)
-- ends the trace there and the compiler starts another after it ("trace
-- stitching"). Else the trace of the game's loop goes on through the move,
-- and where the move's paths part after the C loop (asks or none, cols or
-- none) a side trace would take over every value live in the game's loop
-- and in the move's calls: more than the registers, which LuaJIT does not
-- handle ("NYI: register coalescing too complex"), so those paths ran in
-- the interpreter, the compiler trying them again every few moves.
-- (The classic binding's C functions end a trace the same way.) Only
-- LuaJIT's own gcinfo, a C function, is called: a Lua function put in its
-- place before obb.bump loads would run on every move.
local splitTrace = not CLASSIC and rawget(_G, "gcinfo")
if type(splitTrace) ~= "function" then
  splitTrace = nil
else
  local dbg = rawget(_G, "debug")
  local info = type(dbg) == "table" and type(dbg.getinfo) == "function" and dbg.getinfo(splitTrace, "S")
  if not (info and info.what == "C") then splitTrace = nil end
end

-- Each world's record set while no call uses it (false while one does),
-- kept here and not in the world table: no script reaches a record set
-- (docs/hardening.md, "Round five"). Weak values too: a record set is
-- scratch (one is made when the collector took it), and a table of weak
-- keys alone is an ephemeron table, which Lua 5.2's collector traverses
-- again and again while its values are large (after a move through 100
-- coins, the next move on another world took 9 s instead of 13 ms).
local records = setmetatable({}, { __mode = "kv" })

-- The item's rectangle r for the C loop (core.rect): one it does not take
-- leaves the item to Lua's loop.
local function setRect(self, item, r)
  core.rect(self._w, item, r.x, r.y, r.w, r.h)
end

-- Commits a move of item to (ax, ay): obb's box (center ax + w / 2, ...)
-- and the rectangle r, in bump's record and the C loop's.
local function commitRect(self, item, r, ax, ay)
  self._changes = self._changes + 1
  if not core.update(self._w, item, ax, ay, r.w, r.h) then
    local rhw, rhh = r.w / 2, r.h / 2
    self._w:update(item, ax + rhw, ay + rhh, rhw, rhh)
  end
  r.x, r.y = ax, ay
end

-- ---- the world ------------------------------------------------------------

-- obb's rules (lua/obb/bump_obb.lua), built the first time a world needs
-- them (obbRules, below).
local OBB, obbRules

-- project places a rectangle that is no item's under this key.
local PROBE = setmetatable({}, { __tostring = function() return "obb.bump probe" end })

local World = {}
local World_mt = {}
-- world.rows and world.nonEmptyCells: bump's grid, made when read (views,
-- below), for code that draws it (bump_debug.lua). obb keeps no grid.
local views = {}
function World_mt.__index(self, k)
  local m = World[k]
  if m ~= nil then return m end
  local view = views[k]
  if view ~= nil then return view(self) end
  return nil
end

-- The item's rectangle; level as argError's, for the function calling this.
local function rectOf(self, fname, item, level)
  local rect = self.rects[item]
  if rect == nil then
    if item == nil then argError(fname, 2, "item expected, got nil", level + 1) end
    argError(fname, 2, "item " .. tostring(item) .. " is not in the world", level + 1)
  end
  return rect
end

local function checkFilter(fname, i, filter, level)
  if filter ~= nil and type(filter) ~= "function" then
    argError(fname, i, "filter must be a function or nil, got " .. type(filter), level + 1)
  end
end

-- The world's scratch tables and boxes are taken while in use and given
-- back after, so that a filter that queries the world again gets its own
-- (and an error leaves the world a new one next time).
local function newTable() return {} end
local function newBox() return obb.new2(0, 0, 0, 0) end

local function take(self, key, make)
  local v = self[key]
  if v then
    self[key] = false
    return v
  end
  return make()
end

local function give(self, key, v) self[key] = v end

local function turned(rect) return rect.angle ~= nil and rect.angle ~= 0 end

-- The rectangle's bounding rectangle when it is turned by a: box:aabb of
-- the box it is (obb's sine and cosine: the same bits everywhere).
local function bounding(self, x, y, w, h, a)
  if a == nil or a == 0 then return x, y, w, h end
  local box = take(self, "_bbox", newBox)
  box:set(x + w / 2, y + h / 2, w / 2, h / 2, a)
  local l, t, r, b = box:aabb()
  give(self, "_bbox", box)
  return l, t, r - l, b - t
end

-- The response named name in the table responses (a world's), or the
-- error bump raises for a name with none.
local function responseOf(responses, name)
  local r = responses[name]
  if r == nil then error(format("Unknown collision type: %s (%s)", tostring(name), type(name)), 0) end
  return r
end

-- obb's world takes no add, update or remove while its C call runs a
-- filter (it raises). self._lock counts this world's calls under way that
-- run one; a C call cannot yield, so the count always comes back down.

-- Takes the items removed while locked out of obb's world, once no call
-- is under way.
local function flush(self)
  if self._lock > 0 or self._npending == 0 then return end
  local ow, pending = self._w, self._pending
  for item in pairs(pending) do
    pending[item] = nil
    ow:remove(item)
  end
  self._npending = 0
end

local function unlock(self, ok, ...)
  self._lock = self._lock - 1
  if not ok then
    flush(self)
    error((...), 0)
  end
  return ...
end

-- fn(...), a call of obb's world that runs a filter, with the world
-- counted locked; an error is passed on once pending removals are done.
-- The caller flushes after a call that returns (collect still reads the
-- rectangles of others removed meanwhile).
local function locked(self, fn, ...)
  self._lock = self._lock + 1
  return unlock(self, pcall(fn, ...))
end

local function refuseLocked(self, fname)
  if self._lock > 0 then
    error(format("cannot %s items from inside a filter of this world's move, check, project or query "
      .. "(obb's world is locked until the call returns; world:remove is done then)", fname), 3)
  end
end

-- The rules a world's moves follow (options.rules): bump.lua's by
-- default, obb's on request. A world follows obb's while it holds a
-- turned rectangle (bump's rules know only axis-aligned ones).
local RULES = { bump = true, obb = true }

function bump.newWorld(cellSize, options)
  if cellSize == nil then cellSize = 64 end
  if not (finite(cellSize) and cellSize > 0) then
    argError("newWorld", 1, "cellSize must be a positive number, got " .. shown(cellSize))
  end
  if options ~= nil and type(options) ~= "table" then
    argError("newWorld", 2, "options must be a table or nil, got " .. type(options))
  end
  local rules = options and options.rules or "bump"
  if not RULES[rules] then
    argError("newWorld", 2, "options.rules must be \"bump\" or \"obb\", got " .. shown(rules))
  end
  local self = setmetatable({
    rules = rules,
    _turned = 0,          -- how many of its rectangles are turned
    cellSize = cellSize,  -- obb's cells, toCell, toWorld and countCells
    rects = {},           -- item -> {x, y, w, h [, angle]}, as given
    responses = {},
    -- bump's cells as obb's broad phase; obb's rules meet ties as bump
    -- does: the first only, then look again
    _w = obb.world2({ cell = cellSize }):set_ties("first"),
    _out = {},            -- obb's out records, reused
    _box = obb.new2(0, 0, 0, 0),
    _box2 = obb.new2(0, 0, 0, 0),
    _lock = 0,            -- calls of obb's world running a filter (locked)
    _pending = {},        -- item -> rect: removed while locked, still in obb's world
    _npending = 0,
    _changes = 0,         -- adds, updates, removes and responses: a filter that
                          -- changes the world sends the C loop's move to Lua's
  }, World_mt)
  -- the methods are the world's own fields (a raw hit, the fastest lookup
  -- on every Lua); __index is left for the views
  for k, f in pairs(World) do self[k] = f end
  self._st = { names = {}, busy = false } -- obb's rules' (bump_obb.lua)
  for kind, name in ipairs(NAMES) do self:addResponse(name, RESPONSE[kind]) end
  return self
end

function World:addResponse(name, response)
  self.responses[name] = response
  self._changes = self._changes + 1 -- the C loop's answers name responses
end

-- ---- items ------------------------------------------------------------------

local function checkAngle(fname, i, a)
  if a ~= nil and not finite(a) then
    argError(fname, i, "angle must be a finite number or nil, got " .. shown(a), 2)
  end
end

function World:add(item, x, y, w, h, angle)
  if item == nil or item ~= item then argError("add", 2, "item (any value but nil and NaN) expected") end
  if self.rects[item] ~= nil then argError("add", 2, "item " .. tostring(item) .. " is already in the world") end
  checkRect("add", 3, x, y, w, h)
  checkAngle("add", 7, angle)
  refuseLocked(self, "add")
  self._w:add(item, x + w / 2, y + h / 2, w / 2, h / 2, angle)
  local rect = { x = x, y = y, w = w, h = h, angle = angle }
  self.rects[item] = rect
  self._changes = self._changes + 1
  setRect(self, item, rect)
  if turned(rect) then self._turned = self._turned + 1 end
  return item
end

-- From inside a filter obb runs, the item leaves bump's record now (every
-- lookup, and the rest of the call, treat it as gone, as bump.lua's do)
-- and obb's world when the call returns.
function World:remove(item)
  local rect = rectOf(self, "remove", item, 1)
  if self._lock > 0 then
    self._pending[item] = rect
    self._npending = self._npending + 1
  else
    self._w:remove(item)
  end
  self.rects[item] = nil
  self._changes = self._changes + 1
  if turned(rect) then self._turned = self._turned - 1 end
end

function World:update(item, x, y, w, h, angle)
  local rect = rectOf(self, "update", item, 1)
  w, h = w or rect.w, h or rect.h
  checkRect("update", 3, x, y, w, h)
  checkAngle("update", 7, angle)
  refuseLocked(self, "update")
  if angle ~= nil then
    self._w:update(item, x + w / 2, y + h / 2, w / 2, h / 2, angle)
    self._turned = self._turned + (angle ~= 0 and 1 or 0) - (turned(rect) and 1 or 0)
    rect.angle = angle
  else -- keeps the rotation exactly
    self._w:update(item, x + w / 2, y + h / 2, w / 2, h / 2)
  end
  rect.x, rect.y, rect.w, rect.h = x, y, w, h
  self._changes = self._changes + 1
  setRect(self, item, rect)
end

function World:hasItem(item)
  return item ~= nil and self.rects[item] ~= nil
end

function World:countItems()
  local ow = self._w
  return ow:count() - (ow:has(PROBE) and 1 or 0) - self._npending
end

function World:getItems()
  local items, len = {}, 0
  for item in pairs(self.rects) do
    len = len + 1
    items[len] = item
  end
  return items, len
end

-- x, y, w, h, and the angle when the item was given one.
function World:getRect(item)
  local rect = item ~= nil and self.rects[item] or rectOf(self, "getRect", item, 1)
  if rect.angle ~= nil then return rect.x, rect.y, rect.w, rect.h, rect.angle end
  return rect.x, rect.y, rect.w, rect.h
end

-- bump's grid arithmetic, for code that draws its cells: obb has no grid.
function World:toCell(x, y)
  local c = self.cellSize
  return floor(x / c) + 1, floor(y / c) + 1
end

function World:toWorld(cx, cy)
  local c = self.cellSize
  return (cx - 1) * c, (cy - 1) * c
end

-- bump's grid as bump.lua keeps it: rows[cy][cx] is the cell
-- { x = cx, y = cy, items = { [item] = true }, itemCount = n } of every
-- cell an item's rectangle (its bounding rectangle if turned) covers.
-- Built anew on each read: a fresh table a drawing can walk. A grid of more
-- than MAX_CELLS cells raises (a rectangle a mod made a light-year wide).
local MAX_CELLS = 1e7

local function grid(self)
  local c, rows, cells = self.cellSize, {}, 0
  for item, r in pairs(self.rects) do
    local x, y, w, h = bounding(self, r.x, r.y, r.w, r.h, r.angle)
    local cl, ct, cr, cb = floor(x / c) + 1, floor(y / c) + 1, ceil((x + w) / c), ceil((y + h) / c)
    cells = cells + (cr - cl + 1) * (cb - ct + 1)
    if cells > MAX_CELLS then
      error(format("bump's grid would have more than %d cells (cellSize %s)", MAX_CELLS, tostring(c)), 3)
    end
    for cy = ct, cb do
      local row = rows[cy]
      if not row then row = {}; rows[cy] = row end
      for cx = cl, cr do
        local cell = row[cx]
        if not cell then
          cell = { x = cx, y = cy, items = {}, itemCount = 0 }
          row[cx] = cell
        end
        cell.items[item] = true
        cell.itemCount = cell.itemCount + 1
      end
    end
  end
  return rows
end

views.rows = grid

function views.nonEmptyCells(self)
  local set = {}
  for _, row in pairs(grid(self)) do
    for _, cell in pairs(row) do set[cell] = true end
  end
  return set
end

-- How many cells of bump's grid the items' rectangles cover.
function World:countCells()
  local n = 0
  for _, row in pairs(grid(self)) do
    for _ in pairs(row) do n = n + 1 end
  end
  return n
end

-- ---- project ----------------------------------------------------------------

-- bump's order of two cols of a step of the rectangle (x, y, w, h): the
-- one met at ti against the rectangle (ox, oy, ow, oh) comes before the
-- one met at bti against (bx, by, bw, bh) by ti, then by the squared
-- distance between the centers (summed as bump sums it); nil for a tie.
local function before(x, y, w, h, ti, ox, oy, ow, oh, bti, bx, by, bw, bh)
  if ti ~= bti then return ti < bti end
  local da = rect_getSquareDistance(x, y, w, h, ox, oy, ow, oh)
  local db = rect_getSquareDistance(x, y, w, h, bx, by, bw, bh)
  if da ~= db then return da < db end
  return nil
end

local function byTiThenDistance(a, b)
  local ir, ar, br = a.itemRect, a.otherRect, b.otherRect
  local first = before(ir.x, ir.y, ir.w, ir.h, a.ti, ar.x, ar.y, ar.w, ar.h, b.ti, br.x, br.y, br.w, br.h)
  if first == nil then return a._i < b._i end -- obb's order: a stable sort
  return first
end

-- The box (center, half extents, no turn) around the rectangle's move
-- from (x, y) to (goalX, goalY): obb's broad phase of bump's rules, every
-- rectangle that touches it, a little more to spare rounding. A move
-- longer than the largest double (goals near 1e308, either way) is not
-- measured by its length, which overflows, but by its halves; the box
-- then reaches at most that far. (A rectangle whose far side at the goal
-- overflows is refused before: checkGoal.)
local DBL_MAX = 1.7976931348623157e308
local function aroundMove(x, y, w, h, goalX, goalY)
  local l, t = min(goalX, x), min(goalY, y)
  local r, b = max(goalX + w, x + w), max(goalY + h, y + h)
  local hw, hh = (r - l) / 2, (b - t) / 2
  local pad = 1e-9 * (abs(l) + abs(t) + hw + hh)
  if hw + pad < huge and hh + pad < huge then return l + hw, t + hh, hw + pad, hh + pad, 0 end
  hw, hh = r / 2 - l / 2, b / 2 - t / 2
  pad = 1e-9 * abs(l) + 1e-9 * abs(t) + 1e-9 * hw + 1e-9 * hh
  return l / 2 + r / 2, t / 2 + b / 2, min(hw + pad, DBL_MAX), min(hh + pad, DBL_MAX), 0
end

-- The others near a step of the rectangle from (x, y) to (goalX, goalY),
-- obb's broad phase of bump's rules (aroundMove's box), in the world's
-- scratch table "_found", taken: the caller gives it back. Returns it and
-- their count.
local function stepOthers(self, x, y, w, h, goalX, goalY)
  local box, found = take(self, "_box", newBox), take(self, "_found", newTable)
  box:set(aroundMove(x, y, w, h, goalX, goalY))
  local n = self._w:query_box(box, found)
  give(self, "_box", box)
  return found, n
end

-- Whether this world's moves follow bump's rules now.
local function bumpRules(self) return self.rules == "bump" and self._turned == 0 end

-- project by bump's rules: the others near the move (obb's broad phase:
-- every rectangle that touches the box around the whole move, a little
-- more to spare rounding) each asked to the filter, then bump's narrow
-- phase (rect_detectCollision) on the ones it answers. The filter runs
-- here in Lua with obb's world unlocked: it may add, update, remove or
-- query, as with bump.lua.
local function projectBump(self, item, x, y, w, h, goalX, goalY, filter)
  -- found stays taken while the filters run: one that projects gets its own
  local found, n = stepOthers(self, x, y, w, h, goalX, goalY)
  local rects, cols, len = self.rects, {}, 0
  for i = 1, n do
    local other = found[i]
    if not rawequal(other, item) and rects[other] ~= nil then
      local name = filter(item, other)
      local o = rects[other] -- a filter may have removed it: no col then
      if name and o ~= nil then
        local col = rect_detectCollision(x, y, w, h, o.x, o.y, o.w, o.h, goalX, goalY)
        if col and not (finite(col.touch.x) and finite(col.touch.y)) then
          give(self, "_found", found)
          overflowError("project", 7, col.touch.x, 0)
        end
        if col then
          col.other, col.item, col.type, col._i = other, item, name, len + 1
          len = len + 1
          cols[len] = col
        end
      end
    end
  end
  give(self, "_found", found)
  if len > 1 then sort(cols, byTiThenDistance) end
  for i = 1, len do cols[i]._i = nil end
  return cols, len
end

-- Every collision the rectangle (x, y, w, h) would meet moving in a
-- straight line to (goalX, goalY), as bump's project: no response is
-- applied, every other met is reported once, ordered by ti then distance.
function World:project(item, x, y, w, h, goalX, goalY, filter)
  checkRect("project", 3, x, y, w, h)
  goalX, goalY = goalX or x, goalY or y
  if not finite(goalX) then argError("project", 7, "goalX must be a finite number, got " .. shown(goalX)) end
  if not finite(goalY) then argError("project", 8, "goalY must be a finite number, got " .. shown(goalY)) end
  checkFilter("project", 9, filter, 1)
  filter = filter or defaultFilter
  if bumpRules(self) then
    local cols, len = projectBump(self, item, x, y, w, h, goalX, goalY, filter)
    return cols, len
  end
  local cols, len = obbRules().project(self, item, x, y, w, h, goalX, goalY, filter)
  return cols, len
end

-- ---- move and check -----------------------------------------------------------

-- The filter, answering false about the others in visited (bump's
-- visitedFilter).
local function visitedFilterOf(visited, filter)
  return function(it, other)
    if visited[other] then return false end
    return filter(it, other)
  end
end

-- ---- bump's loop ------------------------------------------------------------
-- bump's World:check (project; the first col of each projection resolved
-- by its response, which projects again; every other met once: visited),
-- in Lua: loopFrom. For a world following bump's rules it runs without
-- bump's garbage: no visitedFilter closure (the visited set is asked
-- here, before the filter), and of each projection only its first col is
-- made, the one the loop keeps (bump's loop takes a project's first col
-- and drops the rest), with the filter called on the same others in the
-- same order. A move by bump's rules is made by the same loop in C first
-- ("bump's loop in C", below); this one goes on where that one cannot,
-- and makes the moves of obb's rules that need bump's loop (a move of
-- length zero, the rest of a move after a custom response).

-- Keeps in best the col met at ti against o's rectangle (ox, oy, ow, oh)
-- when it is met first so far (byTiThenDistance: ti, then the distance,
-- then the order found).
local function keepFirst(best, x, y, w, h, other, name, overlaps, ti, nx, ny, tx, ty, ox, oy, ow, oh)
  if best.has and not before(x, y, w, h, ti, ox, oy, ow, oh, best.ti, best.ox, best.oy, best.ow, best.oh) then
    return
  end
  best.has, best.other, best.name, best.overlaps, best.ti = true, other, name, overlaps, ti
  best.nx, best.ny, best.tx, best.ty = nx, ny, tx, ty
  best.ox, best.oy, best.ow, best.oh = ox, oy, ow, oh
end

-- One other of projectFirst's, the filter having answered name about it:
-- bump's narrow phase on its rectangle as it is now (a filter may have
-- removed it: no col then), kept in best if met first so far.
local function considerAnswer(best, rects, x, y, w, h, goalX, goalY, other, name)
  local o = rects[other]
  if not name or o == nil then return end
  local ox, oy, ow, oh = o.x, o.y, o.w, o.h
  local hit, overlaps, ti, nx, ny, tx, ty = detect(x, y, w, h, ox, oy, ow, oh, goalX, goalY)
  if not hit then return end
  keepFirst(best, x, y, w, h, other, name, overlaps, ti, nx, ny, tx, ty, ox, oy, ow, oh)
end

-- One other of projectFirst's: asked to the filter unless visited, and
-- considered (considerAnswer).
local function consider(best, rects, item, x, y, w, h, goalX, goalY, filter, visited, other)
  if rawequal(other, item) or rects[other] == nil or visited[other] then return end
  considerAnswer(best, rects, x, y, w, h, goalX, goalY, other, filter(item, other))
end

-- The col best holds (nil if none), for the step from (x, y) to (goalX,
-- goalY); best is left empty.
local function colOf(best, item, x, y, w, h, goalX, goalY)
  if not best.has then return nil end
  local col = {
    overlaps = best.overlaps, ti = best.ti,
    move = { x = goalX - x, y = goalY - y }, normal = { x = best.nx, y = best.ny },
    touch = { x = best.tx, y = best.ty },
    itemRect = { x = x, y = y, w = w, h = h },
    otherRect = { x = best.ox, y = best.oy, w = best.ow, h = best.oh },
    other = best.other, item = item, type = best.name,
  }
  best.has, best.other, best.name = false, nil, nil -- not kept alive by the scratch
  return col
end

local function newBest() return { has = false } end

-- projectBump's first col (nil if none), the others in visited not asked.
-- The common path runs no loop: a mover alone in its cells finds only
-- itself, and a loop LuaJIT has compiled as a trace of its own would stop
-- the trace of the function around it (an inner loop) on every move.
local function projectFirst(self, item, x, y, w, h, goalX, goalY, filter, visited)
  -- found and best stay taken while the filters run: one that projects
  -- gets its own
  local found, n = stepOthers(self, x, y, w, h, goalX, goalY)
  local rects, best = self.rects, take(self, "_best", newBest)
  if n >= 1 then
    consider(best, rects, item, x, y, w, h, goalX, goalY, filter, visited, found[1])
    if n >= 2 then
      for i = 2, n do
        consider(best, rects, item, x, y, w, h, goalX, goalY, filter, visited, found[i])
      end
    end
  end
  give(self, "_found", found)
  local col = colOf(best, item, x, y, w, h, goalX, goalY)
  give(self, "_best", best)
  return col
end

-- Whether world:project(item, x, y, w, h, goalX, goalY, filter) would be
-- projectBump's: the world's own project, bump's rules, arguments it takes.
local function projectsBump(self, x, y, goalX, goalY)
  return self.project == World.project and bumpRules(self)
    and finite(x) and finite(y) and finite(goalX) and finite(goalY)
end

-- The loop from col (or a projection's list, pcols): the built-in
-- responses are followed here, their project being projectFirst; anything
-- else (a custom response, a project of the game's, an argument project
-- refuses, obb's rules) is called as bump's loop calls it, with bump's
-- visitedFilter made then (vf: the visited set is then the closure's for
-- good, not reused). visited holds the item and the others of cols. By
-- bump's rules, an overflow ends the loop (resolve raises).
local function loopFrom(self, item, x, y, w, h, goalX, goalY, filter, visited, cols, len, vf, col, pcols, plen)
  -- a move that meets nothing (the common one) runs no loop (projectFirst)
  while col ~= nil or pcols ~= nil do
    if pcols ~= nil then
      if not (plen > 0) then break end -- luacheck: ignore 581 (bump's test, NaN too)
      col = pcols[1]
    elseif col == nil then
      break
    end
    len = len + 1
    cols[len] = col
    visited[col.other] = true
    local response = responseOf(self.responses, col.type)
    local ct, bumps = col.touch, bumpRules(self)
    if bumps and not (finite(ct.x) and finite(ct.y)) then -- bump's arithmetic overflowed: resolve raises
      goalX, goalY = ct.x + ct.y, ct.x + ct.y
      break
    end
    -- a built-in response's goal and where it projects from (sx, sy)
    local gx, gy, sx, sy = goalX, goalY, nil, nil
    if response == touch then
      sx, sy, gx, gy = false, false, col.touch.x, col.touch.y
    elseif response == cross then
      sx, sy = x, y
    elseif (response == slide or response == bounce) and gx ~= nil and gy ~= nil then
      gx, gy = builtinGoal(KIND[response], col, gx, gy)
      sx, sy = ct.x, ct.y
    end
    if sx == false then -- touch: the loop ends there
      goalX, goalY, col, pcols = gx, gy, nil, nil
    elseif bumps and sx ~= nil and not (finite(gx) and finite(gy)) then -- overflowed: resolve raises
      goalX, goalY, col, pcols = gx, gy, nil, nil
    elseif sx ~= nil and projectsBump(self, sx, sy, gx, gy) then
      if response ~= cross then col[BUILTIN[response]] = { x = gx, y = gy } end -- col.slide, col.bounce
      goalX, goalY = gx, gy
      col, pcols = projectFirst(self, col.item, sx, sy, w, h, gx, gy, filter, visited), nil
    else -- the response itself, as bump's loop calls it
      vf = vf or visitedFilterOf(visited, filter)
      goalX, goalY, pcols, plen = response(self, col, x, y, w, h, goalX, goalY, vf)
    end
  end
  if vf == nil then -- the visited set is ours alone: cleared, kept
    visited[item] = nil
    if len > 0 then
      for i = 1, len do visited[cols[i].other] = nil end
    end
    give(self, "_visited", visited)
  end
  return goalX, goalY, cols, len
end

-- The visited set of a loop that met the others of cols[1 .. len].
local function visitedOf(self, item, cols, len)
  local visited = take(self, "_visited", newTable)
  visited[item] = true
  for i = 1, len do visited[cols[i].other] = true end
  return visited
end

-- bump's World:check of item from (x, y, w, h) toward (goalX, goalY), in
-- Lua (loopFrom from the first projection).
local function bumpCheck(self, item, x, y, w, h, goalX, goalY, filter)
  local visited = visitedOf(self, item, nil, 0)
  local vf, col, pcols, plen
  if projectsBump(self, x, y, goalX, goalY) then
    col = projectFirst(self, item, x, y, w, h, goalX, goalY, filter, visited)
  else
    vf = visitedFilterOf(visited, filter)
    pcols, plen = self:project(item, x, y, w, h, goalX, goalY, vf)
  end
  return loopFrom(self, item, x, y, w, h, goalX, goalY, filter, visited, {}, 0, vf, col, pcols, plen)
end

-- ---- bump's loop in C ------------------------------------------------------
-- A move by bump's rules is made first by bump's loop in C (obb._bump,
-- src/binding/lobb_bump_run.c; under LuaJIT through the FFI, obb.jit_bump):
-- the steps, narrow phase, responses and arithmetic of loopFrom above, each
-- number with its Lua subtype, the filter's answers guessed (its last
-- answer about each other). The filter is then asked here about the
-- others the loop asked about, in its order, and the loop run again from
-- the first wrong guess with every answer so far fixed: a filter that
-- answers by what the other is costs one run. The cols are made from the
-- loop's records as projectFirst makes them. Lua's loop goes on where the
-- C loop cannot: from a col whose response is the game's (a handoff), and
-- from the ask where a filter changed the world (or a run the C side
-- refused after answers were asked): that step is redone here, the
-- answers before it kept, as bumpCheck would have gone on.

-- The item the loop's ask q is about: from the classic check's others, or
-- (the FFI's) by its id.
local function otherOf(R, q)
  if CLASSIC then return R.others[q] end
  return itemOf(R, R.asks[(q - 1) * ASK + 1])
end

-- Col c of the loop's records (its ask's narrow phase and other), met on
-- the step from (x, y) to (gx, gy), as projectFirst makes it; resolved,
-- its response's goal put in as bumpCheck's loop puts it (col.slide,
-- col.bounce). allName: every answer's, else the filter's (R.names).
local function recordCol(R, c, item, w, h, allName, resolved, x, y, gx, gy)
  local A, C = R.asks, R.cols
  local kc = (c - 1) * COL
  local q = C[kc + 1] + 1
  local k = (q - 1) * ASK
  -- The response's goal is told first: under LuaJIT a branch taken after
  -- the col's numbers are read keeps them all live where the trace exits
  -- (the col's tables not made yet, sunk), more than the registers.
  local slideGoal, bounceGoal, other
  if resolved and C[kc + 2] == 1 then
    local g = { x = C[kc + 3], y = C[kc + 4] }
    if A[k + 2] == SLIDE then slideGoal = g else bounceGoal = g end
  end
  if CLASSIC then other = R.others[q] else other = itemOf(R, A[k + 1]) end -- otherOf, inlined
  local col = {
    overlaps = A[k + 5] == 1, ti = A[k + 6],
    move = { x = gx - x, y = gy - y }, normal = { x = A[k + 7], y = A[k + 8] },
    touch = { x = A[k + 9], y = A[k + 10] },
    itemRect = { x = x, y = y, w = w, h = h },
    otherRect = { x = A[k + 11], y = A[k + 12], w = A[k + 13], h = A[k + 14] },
    other = other, item = item, type = allName or R.names[q],
  }
  if slideGoal then col.slide = slideGoal elseif bounceGoal then col.bounce = bounceGoal end
  return col
end

-- The step after col c, met on the step from (x, y) to (gx, gy): where it
-- starts and its goal (a cross: from the move's start, x0, y0; a slide or
-- bounce: from the touch, toward the goal its response gave).
local function nextStep(R, c, x0, y0, x, y, gx, gy)
  local A, C = R.asks, R.cols
  local kc = (c - 1) * COL
  local k = C[kc + 1] * ASK
  if A[k + 2] == CROSS then return x0, y0, gx, gy end
  if C[kc + 2] == 1 then return A[k + 9], A[k + 10], C[kc + 3], C[kc + 4] end
  return x, y, gx, gy -- (no step follows: a touch ends the move)
end

-- Forgets the items the classic check put in the records (the record set
-- is kept by the world; the FFI's records hold ids, and the answers kept
-- are only ever read below the count of their own run).
local function clearRecords(R, na)
  if CLASSIC then
    local others = R.others
    for q = 1, na do others[q] = nil end
  end
end

-- The first n cols of the records, resolved, of the move from (x0, y0)
-- toward (gx0, gy0); then where the step after them starts and goes.
local function recordCols(R, n, item, x0, y0, w, h, gx0, gy0, allName)
  local cols, x, y, gx, gy = {}, x0, y0, gx0, gy0
  for c = 1, n do
    cols[c] = recordCol(R, c, item, w, h, allName, true, x, y, gx, gy)
    x, y, gx, gy = nextStep(R, c, x0, y0, x, y, gx, gy)
  end
  return cols, x, y, gx, gy
end

-- The move from the C loop's records (status st, goal gx, gy, na asks,
-- nc cols), given back with the record set; the move went from (x, y)
-- toward (goalX, goalY). committed: whether C committed it.
local function finishInC(self, R, item, x, y, w, h, goalX, goalY, filter, allName, st, gx, gy, na, nc, committed)
  local len = st == DONE and nc or nc - 1 -- a handoff's last col is Lua's
  local cols, sx, sy, sgx, sgy = recordCols(R, len, item, x, y, w, h, goalX, goalY, allName)
  local hand = len < nc and recordCol(R, nc, item, w, h, allName, false, sx, sy, sgx, sgy)
  clearRecords(R, na)
  records[self] = R
  if not hand then return gx, gy, cols, len, committed end
  return loopFrom(self, item, x, y, w, h, gx, gy, filter, visitedOf(self, item, cols, len), cols, len,
    nil, hand, nil, nil)
end

-- The move from (x0, y0) toward (gx0, gy0), from the loop's ask q on, in
-- Lua: the C loop's cols of the steps before q's, then q's step redone
-- (projectFirst's, its answers up to q kept: those before q with the
-- narrow phase the loop recorded, q's on the rectangle as it is now, the
-- rest asked), then Lua's loop.
local function resumeInC(self, R, item, x0, y0, w, h, gx0, gy0, filter, allName, q, na)
  local A, names = R.asks, R.names
  local s = A[(q - 1) * ASK + 3]
  -- the cols of the steps before s (one each), and where step s goes
  local len = s
  local cols, x, y, goalX, goalY = recordCols(R, len, item, x0, y0, w, h, gx0, gy0, allName)
  local visited = visitedOf(self, item, cols, len)
  local first = q
  while first > 1 and A[(first - 2) * ASK + 3] == s do first = first - 1 end
  local rects, best = self.rects, take(self, "_best", newBest)
  for a = first, q - 1 do
    local k = (a - 1) * ASK
    local name = allName or names[a]
    if name and A[k + 4] == 1 then
      keepFirst(best, x, y, w, h, otherOf(R, a), name, A[k + 5] == 1, A[k + 6], A[k + 7], A[k + 8],
        A[k + 9], A[k + 10], A[k + 11], A[k + 12], A[k + 13], A[k + 14])
    end
  end
  considerAnswer(best, rects, x, y, w, h, goalX, goalY, otherOf(R, q), allName or names[q])
  local rest = {}
  for a = q + 1, na do
    if A[(a - 1) * ASK + 3] ~= s then break end
    rest[#rest + 1] = otherOf(R, a)
  end
  clearRecords(R, na)
  records[self] = R
  for i = 1, #rest do
    consider(best, rects, item, x, y, w, h, goalX, goalY, filter, visited, rest[i])
  end
  local col = colOf(best, item, x, y, w, h, goalX, goalY)
  give(self, "_best", best)
  return loopFrom(self, item, x0, y0, w, h, goalX, goalY, filter, visited, cols, len, nil, col, nil, nil)
end

-- The C loop's run of a move (its status, goal, and counts of asks and
-- cols), its records into R.
local function runInC(self, R, item, x, y, w, h, goalX, goalY, all, nfixed, commit)
  if CLASSIC then
    return CB.check(self._w, item, x, y, w, h, goalX, goalY, all, nfixed, R.asks, R.others, R.cols, commit)
  end
  return core.check(self._w, item, x, y, w, h, goalX, goalY, all, nfixed, R, commit)
end

-- Asks the filter about the loop's asks from nfixed on, in order, each
-- answer kept (R.names); returns the first ask whose guess was wrong (its
-- answer fixed in the records), or nil when every guess was right; or
-- false and the ask at which the world changed (the filter changed it:
-- its count of changes is no longer R.changes, read before the run).
local function askInC(self, R, item, filter, nfixed, na)
  local A, names, responses, others, changes = R.asks, R.names, self.responses, R.others, R.changes
  for q = nfixed + 1, na do
    local k, other = (q - 1) * ASK
    if CLASSIC then other = others[q] else other = itemOf(R, A[k + 1]) end -- otherOf, inlined
    local name = filter(item, other)
    names[q] = name
    if self._changes ~= changes then return false, q end
    local kind = NONE
    if name then kind = KIND[responses[name]] or OTHER end
    if kind ~= A[k + 2] then
      A[k + 2] = kind
      return q
    end
  end
  return nil
end

-- checkInC's move once the C loop ran (its run: st, gx, gy, na asks, nc
-- cols, committed), the filter asked about the asks when it is not the
-- default (allName nil; the answers guessed by the C loop are checked
-- here, and C commits no move it asked about).
local function afterRunInC(self, R, item, x, y, w, h, goalX, goalY, filter, allName, st, gx, gy, na, nc, committed)
  if not allName then
    local wrong, at = askInC(self, R, item, filter, 0, na)
    while wrong do -- the run again from the first wrong guess, with its answer
      local nfixed, asked = wrong, na
      st, gx, gy, na, nc = runInC(self, R, item, x, y, w, h, goalX, goalY, -1, nfixed, false)
      if st < 0 then -- (the records are still the run's before)
        return resumeInC(self, R, item, x, y, w, h, goalX, goalY, filter, nil, nfixed, asked)
      end
      wrong, at = askInC(self, R, item, filter, nfixed, na)
    end
    if wrong == false then
      return resumeInC(self, R, item, x, y, w, h, goalX, goalY, filter, nil, at, na)
    end
  end
  if nc == 0 or (nc == 1 and st == DONE) then -- the common cols: none, or one (no loop)
    local cols = nc == 0 and {} or { recordCol(R, 1, item, w, h, allName, true, x, y, goalX, goalY) }
    clearRecords(R, na)
    records[self] = R
    return gx, gy, cols, nc, committed
  end
  return finishInC(self, R, item, x, y, w, h, goalX, goalY, filter, allName, st, gx, gy, na, nc, committed)
end

-- bumpCheck's move made by the C loop: ax, ay, cols, len, and whether C
-- committed it (commit: a move; one that needs no asking is committed
-- there, one call fewer); or nil when the loop made none and asked nothing
-- (Lua's loop then makes it). No loop of its own on the common path
-- (under LuaJIT a loop, hot on its own, would stop the trace of the game's
-- loop around the move). A move that met something goes on by a tail
-- call, which under LuaJIT leaves no value of this call live in the
-- trace: the exits there, and the side traces taking over, carry fewer.
local function checkInC(self, item, x, y, w, h, goalX, goalY, filter, commit)
  local all, allName = -1, nil
  if filter == defaultFilter then all, allName = KIND[self.responses[NAMES[SLIDE]]] or OTHER, NAMES[SLIDE] end
  if splitTrace then splitTrace() end
  local R = records[self]
  if R then records[self] = false else R = newRecords() end
  R.changes = self._changes -- (askInC's: kept in R, not live in the trace)
  local st, gx, gy, na, nc, committed -- runInC, inlined (a call fewer on the interpreters)
  if CLASSIC then
    st, gx, gy, na, nc, committed =
      CB.check(self._w, item, x, y, w, h, goalX, goalY, all, 0, R.asks, R.others, R.cols, commit)
  else
    st, gx, gy, na, nc, committed = core.check(self._w, item, x, y, w, h, goalX, goalY, all, 0, R, commit)
  end
  if st < 0 or na == 0 then -- refused (Lua's loop makes it), or met nothing: the common move
    records[self] = R
    if st < 0 then return nil end
    return gx, gy, {}, 0, committed
  end
  return afterRunInC(self, R, item, x, y, w, h, goalX, goalY, filter, allName, st, gx, gy, na, nc, committed)
end

-- obb's rules, built once (lua/obb/bump_obb.lua).
function obbRules()
  if OBB == nil then
    OBB = require("obb.bump_obb").build({
      bounding = bounding, overlapTi = overlapTi, take = take, give = give, newTable = newTable, newBox = newBox,
      overflowError = overflowError, byTiThenDistance = byTiThenDistance,
      NAMES = NAMES, KIND = KIND, BUILTIN = BUILTIN, SLIDE = SLIDE, BOUNCE = BOUNCE, CROSS = CROSS, TOUCH = TOUCH,
      responseOf = responseOf, clipGoal = clipGoal, defaultFilter = defaultFilter, slide = slide,
      loopFrom = loopFrom, bumpCheck = bumpCheck, visitedFilterOf = visitedFilterOf,
      commitRect = commitRect, setRect = setRect, locked = locked, flush = flush, PROBE = PROBE,
    })
  end
  return OBB
end
local function resolve(self, fname, item, goalX, goalY, filter, commit)
  local rect = item ~= nil and self.rects[item] or rectOf(self, fname, item, 2)
  local x, y, w, h = rect.x, rect.y, rect.w, rect.h
  if goalX == nil then goalX = x end
  if goalY == nil then goalY = y end
  -- the arguments in order, when the filter is not the last one checked
  -- (a game passes the same one every frame; the C loop checks the goal)
  if filter ~= nil and filter ~= self._filter then
    if not finite(goalX) then argError(fname, 3, "goalX must be a finite number, got " .. shown(goalX), 2) end
    if not finite(goalY) then argError(fname, 4, "goalY must be a finite number, got " .. shown(goalY), 2) end
    checkFilter(fname, 5, filter, 2)
    self._filter = filter
  end
  local ax, ay, cols, len, committed
  local bumps = self.rules == "bump" and self._turned == 0
  if bumps and self.project == World.project then -- the C loop refuses a goal not finite
    ax, ay, cols, len, committed = checkInC(self, item, x, y, w, h, goalX, goalY, filter or defaultFilter, commit)
  end
  if ax == nil then
    if not finite(goalX) then argError(fname, 3, "goalX must be a finite number, got " .. shown(goalX), 2) end
    if not finite(goalY) then argError(fname, 4, "goalY must be a finite number, got " .. shown(goalY), 2) end
    if bumps then ax, ay, cols, len = bumpCheck(self, item, x, y, w, h, goalX, goalY, filter or defaultFilter) end
  end
  if bumps then -- bump's loop; then bump's update (the size the item has now)
    -- finite(ax + w / 2) and finite(ay + h / 2), inlined (numbers here:
    -- v - v is 0 exactly when v is finite)
    local cx, cy = ax + w / 2, ay + h / 2
    if not (cx - cx == 0 and cy - cy == 0) then overflowError(fname, 3, ax, w) end
    local r = self.rects[item]
    if committed then -- by the C loop, the box and its rectangle
      self._changes = self._changes + 1
      r.x, r.y = ax, ay
    elseif commit and r ~= nil and (ax ~= r.x or ay ~= r.y) then
      commitRect(self, item, r, ax, ay)
    end
    return ax, ay, cols, len
  end
  ax, ay, cols, len = obbRules().resolve(self, fname, item, rect, goalX, goalY, filter, commit)
  return ax, ay, cols, len
end

-- Moves item toward (goalX, goalY) and commits where it ends: actualX,
-- actualY, cols, len (bump's world:move).
function World:move(item, goalX, goalY, filter)
  local ax, ay, cols, len = resolve(self, "move", item, goalX, goalY, filter, true)
  return ax, ay, cols, len
end

-- world:move without the commit (bump's world:check).
function World:check(item, goalX, goalY, filter)
  local ax, ay, cols, len = resolve(self, "check", item, goalX, goalY, filter, false)
  return ax, ay, cols, len
end

-- ---- queries ------------------------------------------------------------------

-- The filter, asked only about the items in bump's record: not project's
-- probe, nor an item a filter call of this query (or of the call it is
-- made from) has removed.
local function liveFilter(self, filter)
  local rects = self.rects
  return function(item)
    if rects[item] == nil then return false end
    return filter(item)
  end
end

-- The n of obb's query fn(ow, ..., filter), run with the world counted
-- locked, then the removals its filter made. Called with a filter only.
local function query(self, fn, ...)
  local n = locked(self, fn, self._w, ...)
  flush(self)
  return n
end

-- The point (px, py) in the rectangle's own frame (unturned about its
-- center), through the axes of item's box in obb's world (obb's sine and
-- cosine: the same bits everywhere).
local function toLocal(self, item, rect, px, py)
  local a = rect.angle
  if a == nil or a == 0 then return px, py end
  local box = take(self, "_lbox", newBox)
  self._w:get(item, box)
  local cx, cy = box:center()
  local ux, uy, vx, vy = box:axes()
  give(self, "_lbox", box)
  local dx, dy = px - cx, py - cy
  return cx + (dx * ux + dy * uy), cy + (dx * vx + dy * vy)
end

-- Items whose rectangles overlap the rectangle by more than their borders
-- (for turned ones, by more than obb's touching band: box:overlaps).
function World:queryRect(x, y, w, h, filter)
  checkRect("queryRect", 2, x, y, w, h)
  checkFilter("queryRect", 6, filter, 1)
  local ow, out = self._w, take(self, "_out", newTable)
  local box, other = take(self, "_box", newBox), take(self, "_box2", newBox)
  local hw, hh = w / 2, h / 2
  box:set(x + hw, y + hh, hw, hh, 0)
  local n
  if filter == nil then n = ow:query_box(box, out)
  else n = query(self, ow.query_box, box, out, liveFilter(self, filter)) end
  local items, len = {}, 0
  for i = 1, n do
    local item = out[i]
    local r = self.rects[item]
    local hit = false
    if r ~= nil and turned(r) then
      hit = box:overlaps(ow:get(item, other))
    elseif r ~= nil then
      hit = rect_isIntersecting(x, y, w, h, r.x, r.y, r.w, r.h)
    end
    if hit then
      len = len + 1
      items[len] = item
    end
  end
  give(self, "_out", out)
  give(self, "_box", box)
  give(self, "_box2", other)
  return items, len
end

-- Items whose rectangles hold the point inside, by more than 1e-10.
function World:queryPoint(x, y, filter)
  if not finite(x) then argError("queryPoint", 2, "x must be a finite number, got " .. shown(x)) end
  if not finite(y) then argError("queryPoint", 3, "y must be a finite number, got " .. shown(y)) end
  checkFilter("queryPoint", 4, filter, 1)
  local out = take(self, "_out", newTable)
  local ow, n = self._w
  if filter == nil then n = ow:query_point(x, y, out)
  else n = query(self, ow.query_point, x, y, out, liveFilter(self, filter)) end
  local items, len = {}, 0
  for i = 1, n do
    local item = out[i]
    local r = self.rects[item]
    if r ~= nil then
      local px, py = toLocal(self, item, r, x, y)
      if rect_containsPoint(r.x, r.y, r.w, r.h, px, py) then
        len = len + 1
        items[len] = item
      end
    end
  end
  give(self, "_out", out)
  return items, len
end

local function byWeight(a, b)
  if a.weight ~= b.weight then return a.weight < b.weight end
  return a._i < b._i
end

-- The items the segment goes into, bump's way: entering or leaving the
-- rectangle strictly between its ends; nearest along the line first.
local function segmentInfo(self, fname, x1, y1, x2, y2, filter)
  if not finite(x1) then argError(fname, 2, "x1 must be a finite number, got " .. shown(x1), 2) end
  if not finite(y1) then argError(fname, 3, "y1 must be a finite number, got " .. shown(y1), 2) end
  if not finite(x2) then argError(fname, 4, "x2 must be a finite number, got " .. shown(x2), 2) end
  if not finite(y2) then argError(fname, 5, "y2 must be a finite number, got " .. shown(y2), 2) end
  checkFilter(fname, 6, filter, 2)
  local info, len = {}, 0
  if x1 == x2 and y1 == y2 then return info, 0 end -- bump finds nothing
  local out = take(self, "_out", newTable)
  local ow, n = self._w
  local dx, dy = x2 - x1, y2 - y1
  if filter == nil then n = ow:raycast(x1, y1, dx, dy, 1, out)
  else n = query(self, ow.raycast, x1, y1, dx, dy, 1, out, liveFilter(self, filter)) end
  for i = 0, n - 1 do
    local item = out[4 * i + 1]
    local r = self.rects[item]
    if r ~= nil then
      local ax, ay = toLocal(self, item, r, x1, y1)
      local bx, by = toLocal(self, item, r, x2, y2)
      local t1, t2 = rect_getSegmentIntersectionIndices(r.x, r.y, r.w, r.h, ax, ay, bx, by, 0, 1)
      if t1 and ((0 < t1 and t1 < 1) or (0 < t2 and t2 < 1)) then
        local l1, l2 = rect_getSegmentIntersectionIndices(r.x, r.y, r.w, r.h, ax, ay, bx, by, -huge, huge)
        len = len + 1
        info[len] = { item = item, ti1 = t1, ti2 = t2, weight = min(l1, l2), _i = len }
      end
    end
  end
  give(self, "_out", out)
  sort(info, byWeight)
  return info, len
end

function World:querySegment(x1, y1, x2, y2, filter)
  local info, len = segmentInfo(self, "querySegment", x1, y1, x2, y2, filter)
  local items = {}
  for i = 1, len do items[i] = info[i].item end
  return items, len
end

-- querySegment with, per item, ti1 and ti2 and the points x1, y1 (in) and
-- x2, y2 (out).
function World:querySegmentWithCoords(x1, y1, x2, y2, filter)
  local info, len = segmentInfo(self, "querySegmentWithCoords", x1, y1, x2, y2, filter)
  local dx, dy = x2 - x1, y2 - y1
  for i = 1, len do
    local e = info[i]
    e.weight, e._i = nil, nil
    e.x1, e.y1 = x1 + dx * e.ti1, y1 + dy * e.ti1
    e.x2, e.y2 = x1 + dx * e.ti2, y1 + dy * e.ti2
  end
  return info, len
end

return bump
