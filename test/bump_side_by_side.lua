-- obb.bump beside bump.lua, call by call (issue 27): a bump-style game
-- played on both from the same state, every world call made on each and
-- its answers compared. Our tree holds no bump.lua: give yours.
--
--   OBB_BUMP=/path/to/bump.lua luajit test/bump_side_by_side.lua [frames [seed]]
--
-- (any Lua from 5.1; run from the repository's root with obb built, e.g.
-- `make bump-side-by-side OBB_BUMP=... LUA=luajit`.) The game: a map of
-- 16 px tiles (floors, walls, steps, springs, spikes, coins), movers with
-- gravity, a random walk and jumps landing exactly on tile tops, filters
-- answering every response by what the other is, debris spawned inside
-- blocks and moved out, movers started inside several others, project,
-- check and the four queries. Every answer must be the same to the bit:
-- positions, and each col's other, type, overlaps, ti, move, normal, touch,
-- slide, bounce, itemRect and otherRect, in order, each number of the same
-- subtype (integer or float) from Lua 5.3 on. Cols tied in both ti and
-- distance come in an unspecified order in bump (its sort is not stable):
-- such a swap is counted apart, not as a difference. Exits 1 on any
-- difference, printing the first few.
local path = os.getenv("OBB_BUMP")
if not path or path == "" then
  io.stderr:write("OBB_BUMP=/path/to/bump.lua is not set: nothing to compare with\n")
  os.exit(2)
end
local peer = assert(loadfile(path))()
package.loaded["obb.bump"] = nil
local ours = require "obb.bump"

local frames = tonumber(arg[1]) or 600
local seed = tonumber(arg[2]) or 27
local function rnd()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
end
local function pick(n) return 1 + math.floor(rnd() * n) end

local diffs, ties, calls, shown = 0, 0, 0, 0
local function differ(what, a, b)
  diffs = diffs + 1
  if shown < 12 then
    shown = shown + 1
    print(("difference in %s: bump.lua %s, obb.bump %s"):format(what, tostring(a), tostring(b)))
  end
end

-- ---- the state both worlds start from --------------------------------------

local CELL = 8 + pick(3) * 8 -- bump's cell size: 16, 24 or 32
local pw, ow = peer.newWorld(CELL), ours.newWorld(CELL)
local kinds, names = {}, {}
local function add(name, kind, x, y, w, h)
  kinds[name], names[#names + 1] = kind, name
  pw:add(name, x, y, w, h)
  ow:add(name, x, y, w, h)
end

for tx = 0, 79 do -- the ground, with holes and steps
  if tx % 13 ~= 5 then add("g" .. tx, "tile", tx * 16, 400, 16, 16) end
  if tx % 7 == 3 then add("s" .. tx, "tile", tx * 16, 384, 16, 16) end
end
for ty = 0, 24 do add("wl" .. ty, "tile", 0, ty * 16, 16, 16); add("wr" .. ty, "tile", 79 * 16, ty * 16, 16, 16) end
for i = 1, 40 do -- platforms, springs, spikes, coins at random tile places
  local x, y = pick(76) * 16, (8 + pick(14)) * 16
  local kind = ({ "tile", "tile", "spring", "spike", "coin" })[pick(5)]
  local w = kind == "coin" and 8 or 16 * pick(3)
  add(kind .. i, kind, x, y, w, kind == "coin" and 8 or 16)
end

local RESPONSE = { tile = "slide", spring = "bounce", spike = "touch", coin = "cross" }
local function filter(item, other)
  local k = kinds[other]
  if k == "mover" then return kinds[item] == "debris" and "cross" or "slide" end
  if k == "debris" then return false end
  return RESPONSE[k]
end

-- ---- comparing ---------------------------------------------------------------

-- Two numbers the same, and of the same subtype from Lua 5.3 on (a game
-- printing an integer sees "16", a float "16.0").
local mtype = math.type or function() return "float" end
local function same(u, v)
  return u == v and mtype(u) == mtype(v)
end

local FIELDS = { "move", "normal", "touch", "slide", "bounce", "itemRect", "otherRect" }
local function colSame(a, b)
  if a.other ~= b.other or a.type ~= b.type or a.overlaps ~= b.overlaps or not same(a.ti, b.ti) then
    return false
  end
  for _, f in ipairs(FIELDS) do
    local u, v = a[f], b[f]
    if (u == nil) ~= (v == nil) then return false end
    if u then
      for _, k in ipairs({ "x", "y", "w", "h" }) do
        if not same(u[k], v[k]) then return false end
      end
    end
  end
  return true
end

local function dist(c)
  local i, o = c.itemRect, c.otherRect
  local dx, dy = i.x - o.x + (i.w - o.w) / 2, i.y - o.y + (i.h - o.h) / 2
  return dx * dx + dy * dy
end

local function colsSame(what, pc, plen, oc, olen)
  for i = 1, math.min(plen, olen) do
    if not colSame(pc[i], oc[i]) then
      -- two others tied in ti and distance: bump's sort is not stable and
      -- its grid's order is not obb's, so either comes first, and the rest
      -- of the move may go on differently from there
      if pc[i].other ~= oc[i].other and pc[i].ti == oc[i].ti and dist(pc[i]) == dist(oc[i]) then
        ties = ties + 1
        return true
      end
      return differ(("%s col %d"):format(what, i),
        ("%s %s ti=%.17g n=(%g,%g) t=(%.17g,%.17g)"):format(tostring(pc[i].other), pc[i].type, pc[i].ti,
          pc[i].normal.x, pc[i].normal.y, pc[i].touch.x, pc[i].touch.y),
        ("%s %s ti=%.17g n=(%g,%g) t=(%.17g,%.17g)"):format(tostring(oc[i].other), oc[i].type, oc[i].ti,
          oc[i].normal.x, oc[i].normal.y, oc[i].touch.x, oc[i].touch.y))
    end
  end
  if plen ~= olen then return differ(what .. " #cols", plen, olen) end
end

-- Two lists of items as sets (queries), and in order where bump orders them.
local function itemsSame(what, a, an, b, bn, ordered)
  calls = calls + 1
  if an ~= bn then return differ(what .. " count", an, bn) end
  if ordered then
    for i = 1, an do if a[i] ~= b[i] then return differ(what .. " order", a[i], b[i]) end end
    return
  end
  local set = {}
  for i = 1, an do set[a[i]] = true end
  for i = 1, bn do if not set[b[i]] then return differ(what, "-", b[i]) end end
end

-- A move (or check) on both; returns obb.bump's end, put to bump's where
-- they differ so one difference does not spread.
local function moveBoth(fname, item, gx, gy, f)
  calls = calls + 1
  local px, py, pc, pl = pw[fname](pw, item, gx, gy, f)
  local ox, oy, oc, ol = ow[fname](ow, item, gx, gy, f)
  local tied = colsSame(fname .. " of " .. item, pc, pl, oc, ol)
  if os.getenv("OBB_SIDE_DEBUG") == item then
    for _, c in ipairs({ { pc, pl, "bump.lua" }, { oc, ol, "obb.bump" } }) do
      for i = 1, c[2] do
        local k = c[1][i]
        print(c[3], i, k.other, k.type, k.ti, k.touch.x, k.touch.y, k.normal.x, k.normal.y,
          k.slide and k.slide.x, k.slide and k.slide.y, k.bounce and k.bounce.x, k.bounce and k.bounce.y,
          k.move.x, k.move.y, k.itemRect.x, k.itemRect.y)
      end
    end
  end
  if not (same(px, ox) and same(py, oy)) and not tied then
    differ(fname .. " of " .. item, ("%.17g %.17g (%s)"):format(px, py, mtype(px)),
      ("%.17g %.17g (%s)"):format(ox, oy, mtype(ox)))
  end
  if (px ~= ox or py ~= oy) and fname == "move" then ow:update(item, px, py) end
  return px, py
end

-- ---- the game --------------------------------------------------------------

local movers = {}
for i = 1, 60 do
  local name = "m" .. i
  local x, y = pick(74) * 16 + 16, pick(20) * 16
  if i % 10 == 0 then -- started inside others: a tile, and the mover before
    x, y = pw:getRect(names[pick(80)])
    x = x + 4
  end
  add(name, "mover", x + (i % 3) * 0.5, y, 12, 14)
  movers[i] = { name = name, vx = 0, vy = 0 }
end

local dt, g = 1 / 60, 900
local debris = 0
for frame = 1, frames do
  for _, m in ipairs(movers) do
    local x, y = pw:getRect(m.name)
    if rnd() < 0.05 then m.vx = (rnd() - 0.5) * 240 end
    if rnd() < 0.02 then m.vy = -300 end
    m.vy = m.vy + g * dt
    local gx, gy = x + m.vx * dt, y + m.vy * dt
    if rnd() < 0.1 then gy = math.floor(gy / 16 + 0.5) * 16 - 14 end -- exactly onto a tile top
    local ax, ay = moveBoth("move", m.name, gx, gy, filter)
    if ay < gy then m.vy = 0 end
    if ax ~= gx then m.vx = -m.vx end
    if rnd() < 0.05 then moveBoth("check", m.name, x + (rnd() - 0.5) * 64, y + (rnd() - 0.5) * 64, filter) end
  end
  if frame % 5 == 0 then -- debris spawned inside a block, then thrown
    debris = debris + 1
    local name, block = "d" .. debris, names[pick(80)]
    local bx, by = pw:getRect(block)
    add(name, "debris", bx + 2 + rnd() * 8, by + 2 + rnd() * 8, 4, 4)
    moveBoth("move", name, bx + (rnd() - 0.5) * 40, by - rnd() * 40, function(_, o)
      -- what the other is, never the call's order: bump asks about others
      -- in its grid's order, obb.bump in its tree's
      return kinds[o] ~= "mover" and kinds[o] ~= "debris" and ((#o + debris) % 2 == 0 and "bounce" or "slide")
    end)
    if debris > 30 then
      local old = "d" .. (debris - 30)
      pw:remove(old); ow:remove(old)
    end
  end
  if frame % 3 == 0 then -- project and the queries
    local x, y, w, h = pick(1200), pick(400), 1 + pick(64), 1 + pick(64)
    local gx, gy = x + (rnd() - 0.5) * 200, y + (rnd() - 0.5) * 200
    calls = calls + 1
    local pc, pl = pw:project(nil, x, y, w, h, gx, gy, filter)
    local oc, ol = ow:project(nil, x, y, w, h, gx, gy, filter)
    colsSame("project", pc, pl, oc, ol)
    local a, an = pw:queryRect(x, y, w, h)
    local b, bn = ow:queryRect(x, y, w, h)
    itemsSame("queryRect", a, an, b, bn)
    a, an = pw:queryPoint(x, y)
    b, bn = ow:queryPoint(x, y)
    itemsSame("queryPoint", a, an, b, bn)
    a, an = pw:querySegment(x, y, gx, gy)
    b, bn = ow:querySegment(x, y, gx, gy)
    itemsSame("querySegment", a, an, b, bn)
  end
end

print(("%d frames, %d calls compared: %d differences, %d tied cols in another order")
  :format(frames, calls, diffs, ties))
os.exit(diffs == 0 and 0 or 1)
