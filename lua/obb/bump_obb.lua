-- obb.bump_obb: obb.bump's moves by obb's rules (a world made with
-- options.rules = "obb", or one holding a turned rectangle: bump.lua's
-- header says how they go). lua/obb/bump.lua loads it the first time a
-- world needs it, with what the two share (build(B)), and calls what it
-- returns: project (world:project by obb's rules) and resolve (world:move
-- and world:check by obb's rules). Each runs obb's C mover or check with a
-- filter that maps bump's filter(item, other) to obb's responses, inside
-- bump.lua's lock (locked, flush). Errors name the game's call: these
-- functions run one level below bump.lua's (levels given to
-- overflowError: 4).

local obb = require "obb"
local finite = obb._lua.finite -- (src/binding/lobb_open.c)

local huge = math.huge
local type, error, pairs, pcall, getmetatable = type, error, pairs, pcall, getmetatable
local rawequal = rawequal
local sort = table.sort

local STRIDE = obb.MOVE_STRIDE2
-- obb's movers' error for a move whose end overflows.
local NOT_FINITE = "result is not finite"

-- obb's world:move and world:check as the classic binding has them: this
-- world's own lock (self._lock) must be released by the time a call
-- returns or raises, so its filters run where they cannot yield (on
-- LuaJIT's FFI path a filter function can: docs/love.md).
local classicMove, classicCheck
do
  local probe = obb.world2()
  local methods = getmetatable(probe)
  local jit = package.loaded["obb.jit"]
  local classic = type(jit) == "table" and type(jit.classic) == "table" and jit.classic[methods]
  classicMove = classic and classic.move or methods.move
  classicCheck = classic and classic.check or methods.check
  probe:close()
end

-- What bump.lua shares with these functions, set by build.
local bounding, overlapTi, take, give, newTable, newBox, overflowError, byTiThenDistance
local NAMES, KIND, BUILTIN, SLIDE, BOUNCE, CROSS, TOUCH
local responseOf, clipGoal, defaultFilter, slide, loopFrom, bumpCheck, visitedFilterOf
local commitRect, setRect, locked, flush, PROBE
local clip, reflect = obb.clip, obb.reflect


-- bump's col.ti for the item's rectangle (turned by a) overlapping other's:
-- minus the area bump measures (on bounding rectangles if turned).
local function overlapOf(self, x, y, w, h, a, other)
  local o = self.rects[other] or self._pending[other]
  local ox, oy, ow, oh = bounding(self, o.x, o.y, o.w, o.h, o.angle)
  x, y, w, h = bounding(self, x, y, w, h, a)
  return overlapTi(x, y, w, h, ox, oy, ow, oh)
end

local function newCol(item, other, name, overlaps, ti, mx, my, nx, ny, tx, ty, x, y, w, h, o)
  return {
    item = item, other = other, type = name, overlaps = overlaps, ti = ti,
    move = { x = mx, y = my }, normal = { x = nx, y = ny }, touch = { x = tx, y = ty },
    itemRect = { x = x, y = y, w = w, h = h },
    otherRect = { x = o.x, y = o.y, w = o.w, h = o.h, angle = o.angle },
  }
end

-- A coordinate of the item's top-left corner from obb's center c: exact
-- where c is a center obb was given (c0 for the corner x0, c1 for x1).
local function corner(c, half, c0, x0, c1, x1)
  if c == c0 then return x0 end
  if c == c1 then return x1 end
  return c - half
end

local function clearNames(names)
  for k in pairs(names) do names[k] = nil end
end

-- What obb's filter works with during one move, check or project (st, or
-- a new one): bump's filter, the item, whether every answer crosses
-- (project), the name each other was answered; and the filter obb's
-- mover asks (mapped).
local function newState(self, st)
  st = st or { names = {}, busy = false }
  local names, responses = st.names, self.responses
  local rects = self.rects
  st.mapped = function(_, other)
    if rawequal(other, st.item) then return nil end -- project's probe meets the item
    if rects[other] == nil then return nil end -- removed by a filter of this call
    local name = st.filter(st.item, other)
    if not name or rects[other] == nil then return nil end -- bump would not find its rect
    names[other] = name
    if st.project then return NAMES[CROSS] end
    return BUILTIN[responseOf(responses, name)] or NAMES[TOUCH] -- a custom response: stop there, then Lua
  end
  return st
end

-- The world's state, or a new one for a call made while it is in use.
local function acquire(self, filter, item, project)
  local st = self._st
  if st.busy then st = newState(self) elseif st.mapped == nil then newState(self, st) end
  st.busy, st.filter, st.item, st.project = true, filter, item, project
  clearNames(st.names)
  return st
end

local function release(st)
  st.busy, st.filter, st.item = false, nil, nil
  clearNames(st.names)
end

-- project's work, the rectangle being in the obb world under key.
local function projectWith(self, key, item, x, y, w, h, angle, goalX, goalY, filter)
  local ow = self._w
  local hw, hh = w / 2, h / 2
  local cx, cy = ow:get(key)
  local cols, len = {}, 0
  if goalX == x and goalY == y then -- not moving: what it overlaps
    -- The others, found first: then the probe leaves obb's world, and the
    -- filter runs here in Lua with the world as the game sees it (it may
    -- change it, or yield and never come back).
    local found = {} -- the filter may query the world: not self._out
    local n, m = ow:collisions(key, found), 0
    -- the others it overlaps by more than the touching band (obb's rule,
    -- box:overlaps, as obb's mover decides an other it starts inside)
    local ib, ob = take(self, "_ibox", newBox), take(self, "_obox", newBox)
    ow:get(key, ib)
    for i = 0, n - 1 do
      local other, dx, dy = found[3 * i + 1], found[3 * i + 2], found[3 * i + 3]
      if not rawequal(other, item) and self.rects[other] ~= nil and ib:overlaps(ow:get(other, ob)) then
        local d = (dx * dx + dy * dy) ^ 0.5
        found[3 * m + 1], found[3 * m + 2], found[3 * m + 3] = other, dx / d, dy / d
        m = m + 1
      end
    end
    give(self, "_ibox", ib)
    give(self, "_obox", ob)
    if key == PROBE then ow:remove(PROBE) end
    for i = 0, m - 1 do
      local other = found[3 * i + 1]
      -- an other an earlier filter call removed is not asked about; one
      -- its own filter call removed makes no col (bump: its rect is gone)
      local name = self.rects[other] ~= nil and filter(item, other)
      local o = self.rects[other]
      if name and o ~= nil then
        len = len + 1
        cols[len] = newCol(item, other, name, true, overlapOf(self, x, y, w, h, angle, other),
          0, 0, found[3 * i + 2], found[3 * i + 3], x, y, x, y, w, h, o)
        cols[len]._i = len
      end
    end
  else
    local out, gcx, gcy = take(self, "_out", newTable), goalX + hw, goalY + hh
    local st = acquire(self, filter, item, true)
    local ok, err, _, n = pcall(locked, self, classicCheck, ow, key, gcx, gcy, st.mapped, out)
    if not ok then
      release(st)
      if err == NOT_FINITE then overflowError("project", 7, huge, 0, 4) end
      error(err, 0)
    end
    local names = st.names
    for i = 0, n - 1 do
      local k = i * STRIDE
      local other, t, nx, ny = out[k + 1], out[k + 3], out[k + 4], out[k + 5]
      local px, py, depth = out[k + 6], out[k + 7], out[k + 8]
      local overlaps = depth > 0
      len = len + 1
      cols[len] = newCol(item, other, names[other], overlaps,
        overlaps and overlapOf(self, x, y, w, h, angle, other) or t,
        goalX - x, goalY - y, nx, ny, corner(px, hw, cx, x, gcx, goalX), corner(py, hh, cy, y, gcy, goalY),
        x, y, w, h, self.rects[other] or self._pending[other])
      cols[len]._i = len
    end
    release(st)
    give(self, "_out", out)
    flush(self)
  end
  sort(cols, byTiThenDistance)
  for i = 1, len do cols[i]._i = nil end
  return cols, len
end

-- world:project by obb's rules (bump.lua checked the arguments).
local function project(self, item, x, y, w, h, goalX, goalY, filter)
  local ow = self._w
  local rect = item ~= nil and self.rects[item] or nil
  local angle = rect and rect.angle
  -- Inside a filter obb runs, its world is locked: it takes no probe and
  -- runs no check; only the item's own overlaps can be listed.
  local busy = self._lock > 0
  if rect and not (busy and (goalX ~= x or goalY ~= y)) then -- the item's own box, if it is where the rectangle is
    local cx, cy, hx, hy = ow:get(item)
    if cx == x + w / 2 and cy == y + h / 2 and hx == w / 2 and hy == h / 2 then
      local cols, len = projectWith(self, item, item, x, y, w, h, angle, goalX, goalY, filter)
      return cols, len
    end
  end
  if busy then
    error("project cannot run inside a filter of this world's move, check, project or query "
      .. "(obb's world is locked until the call returns)", 3)
  end
  ow:add(PROBE, x + w / 2, y + h / 2, w / 2, h / 2, angle)
  -- projectWith takes the probe out before it runs the filter in Lua; a
  -- filter obb runs in C cannot yield, so the probe is out however this ends
  local ok, cols, len = pcall(projectWith, self, PROBE, item, x, y, w, h, angle, goalX, goalY, filter)
  if ow:has(PROBE) then ow:remove(PROBE) end
  if not ok then error(cols, 0) end
  return cols, len
end

-- The cols of obb's n out records, bump's fields filled by replaying the
-- responses from the leg's start (sx, sy; obb's center there c0x, c0y)
-- toward its goal (gx, gy; center gcx, gcy). obb's world meets ties as
-- bump does (set_ties "first"), so every record is a col. Returns len and,
-- when a custom response stopped the move, its col; or len, nil and true
-- when a slide's or bounce's goal overflowed (the move raises).
local function collect(self, item, rect, names, out, n, cols, len, sx, sy, gx, gy, c0x, c0y, gcx, gcy)
  local rects, pending, responses = self.rects, self._pending, self.responses
  local w, h = rect.w, rect.h
  local hw, hh = w / 2, h / 2
  for i = 0, n - 1 do
    local k = i * STRIDE
    local other, t, nx, ny = out[k + 1], out[k + 3], out[k + 4], out[k + 5]
    local px, py, depth = out[k + 6], out[k + 7], out[k + 8]
    local name = names[other] or NAMES[SLIDE]
    local overlaps = depth > 0
    local tx, ty = corner(px, hw, c0x, sx, gcx, gx), corner(py, hh, c0y, sy, gcy, gy)
    local ti = t
    if overlaps then
      ti = overlapOf(self, sx, sy, w, h, rect.angle, other)
    elseif px == c0x and py == c0y then
      ti = 0
    end
    -- an other removed by a later filter call keeps the rectangle it had
    local col = newCol(item, other, name, overlaps, ti, gx - sx, gy - sy, nx, ny, tx, ty, sx, sy, w, h,
      rects[other] or pending[other])
    len = len + 1
    cols[len] = col
    local kind = KIND[responses[name]]
    if kind == nil then return len, col end
    if kind == SLIDE or kind == BOUNCE then
      -- obb: an overlapped other is a plane
      gx, gy = clipGoal((kind == SLIDE or overlaps) and clip or reflect, col, gx, gy)
      if not (finite(gx) and finite(gy)) then return len, nil, true end -- overflowed
      col[NAMES[kind]] = { x = gx, y = gy } -- col.slide, col.bounce
      gcx, gcy = gx + hw, gy + hh
      if not overlaps then sx, sy, c0x, c0y = tx, ty, px, py end
    end
  end
  return len, nil
end

-- world:move (commit) and world:check by obb's rules, for item whose
-- rectangle is rect (bump.lua checked the arguments): ax, ay, cols, len.
local function resolve(self, fname, item, rect, goalX, goalY, filter, commit)
  local x, y, w, h = rect.x, rect.y, rect.w, rect.h
  local ow = self._w
  local hw, hh = w / 2, h / 2
  local ax, ay, custom
  local cols, len = {}, 0
  if goalX == x and goalY == y then -- obb's mover has nothing to do: bump's loop
    ax, ay, cols, len = bumpCheck(self, item, x, y, w, h, x, y, filter or defaultFilter)
  else
    local cx, cy, chx, chy = ow:get(item)
    local gcx, gcy = goalX + hw, goalY + hh
    local st = acquire(self, filter or defaultFilter, item, false)
    local f = st.mapped
    if filter == nil and self.responses[NAMES[SLIDE]] == slide then f = nil end -- all in C
    local out = take(self, "_out", newTable)
    local call = commit and (f and classicMove or ow.move) or (f and classicCheck or ow.check)
    local ok, rx, ry, n = pcall(locked, self, call, ow, item, gcx, gcy, f, out)
    if not ok then
      release(st)
      if rx == NOT_FINITE then overflowError(fname, 3, huge, 0, 4) end
      error(rx, 0)
    end
    local overflow
    len, custom, overflow = collect(self, item, rect, st.names, out, n, cols, len, x, y, goalX, goalY, cx, cy,
      gcx, gcy)
    release(st)
    give(self, "_out", out)
    flush(self)
    if overflow then -- a move obb committed goes back first (as for a custom response)
      if commit and self.rects[item] == rect then
        ow:update(item, cx, cy, chx, chy)
        if self.rules == "bump" then setRect(self, item, rect) end
      end
      overflowError(fname, 3, huge, 0, 4)
    end
    if custom and commit and self.rects[item] == rect then
      -- obb committed the move to the touch; the response and the rest of
      -- the move run in Lua, and may raise or yield for good: the box goes
      -- back first (exactly: same center and half extents, rotation kept),
      -- and the move is committed once, at the end.
      ow:update(item, cx, cy, chx, chy)
    end
    if custom then -- obb stopped there (touch); bump's loop goes on in Lua
      local visited = { [item] = true }
      for i = 1, len do visited[cols[i].other] = true end
      local bf = filter or defaultFilter
      local visitedFilter = visitedFilterOf(visited, bf) -- (a closure here would cost resolve UCLO on LuaJIT)
      local mgx, mgy = custom.itemRect.x + custom.move.x, custom.itemRect.y + custom.move.y
      local pgx, pgy, pcols, plen = self.responses[custom.type](self, custom, x, y, w, h, mgx, mgy, visitedFilter)
      ax, ay, cols, len = loopFrom(self, item, x, y, w, h, pgx, pgy, bf, visited, cols, len, visitedFilter, nil,
        pcols, plen)
    else
      ax, ay = corner(rx, hw, cx, x, gcx, goalX), corner(ry, hh, cy, y, gcy, goalY)
    end
  end
  -- A filter or response may have removed the item (then there is nothing
  -- to commit), or a response updated it (its size is the one it has now).
  local r = self.rects[item]
  if commit and r ~= nil and (ax ~= x or ay ~= y or custom) then
    if custom or (goalX == x and goalY == y) then -- obb did not commit it (or it was put back)
      commitRect(self, item, r, ax, ay)
    else
      self._changes = self._changes + 1
      r.x, r.y = ax, ay
      -- a world of bump's rules holding a turned rectangle for now: the
      -- rectangle again for the C loop, once it holds none
      if self.rules == "bump" then setRect(self, item, r) end
    end
  end
  return ax, ay, cols, len
end

-- project and resolve, given what bump.lua shares (B).
local function build(B)
  bounding, overlapTi, take, give, newTable, newBox = B.bounding, B.overlapTi, B.take, B.give, B.newTable,
    B.newBox
  overflowError, byTiThenDistance = B.overflowError, B.byTiThenDistance
  NAMES, KIND, BUILTIN, SLIDE, BOUNCE, CROSS, TOUCH = B.NAMES, B.KIND, B.BUILTIN, B.SLIDE, B.BOUNCE, B.CROSS,
    B.TOUCH
  responseOf, clipGoal, defaultFilter, slide = B.responseOf, B.clipGoal, B.defaultFilter, B.slide
  loopFrom, bumpCheck, visitedFilterOf = B.loopFrom, B.bumpCheck, B.visitedFilterOf
  commitRect, setRect, locked, flush, PROBE = B.commitRect, B.setRect, B.locked, B.flush, B.PROBE
  return { project = project, resolve = resolve }
end

return { build = build }
