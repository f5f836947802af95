-- tiled.lua: a Tiled map's collision shapes in an obb world, with obb.tiled.
--
-- Loads examples/maps/level1.lua (Tiled's Lua export format) twice: every
-- layer, then only the layers with the `collidable` property, as a
-- platformer would. Prints what was added, the points (listed apart, not
-- in the world) and what was skipped (the ellipse, the polygon, the
-- text), and checks where Tiled would draw the turned objects: a
-- rectangle's first corner is its (x, y), turned about it; a tile
-- object's bottom-left corner is its (x, y).
--
-- Then a racer's map, examples/maps/racetrack.lua, loaded with `classes`:
-- the items come with the obb classes of their Tiled types, so a response
-- set drives the cars from the start grid at once (checkpoints, boost pads
-- and the pit lane crossed, walls slid along), and the start points, not
-- being boxes, stop no car.
--
--   lua examples/tiled.lua [picture.svg]   (obb on the Lua paths, run from
--   the repository's root; make examples runs it)
--
-- The picture (docs/tiled.svg) shows the level as Tiled draws it (y down)
-- and, below it, the conversion at a larger scale: each turned object's
-- anchor, its outline before the turn (dashed) and its box's axes.

local obb = require "obb"
local tiled = require "obb.tiled"

local MAP = "examples/maps/level1.lua"

local world, items, skipped, points = tiled.load(MAP)
print(string.format("%s: %d items, %d skipped, %d points", MAP, #world, #skipped, #points))
local tiles = 0
for _, it in ipairs(items) do
  if it.col then
    tiles = tiles + 1
  else
    local cx, cy, hx, hy, angle = world:get(it)
    print(string.format("  %-9s %-12s %-9s center (%7.2f, %7.2f)  half (%5.1f, %5.1f)  %6.1f deg%s",
      it.layer, it.name, it.shape, cx, cy, hx, hy, math.deg(angle),
      next(it.properties) and "  properties: " .. (function()
        local keys = {}
        for k, v in pairs(it.properties) do keys[#keys + 1] = k .. " = " .. tostring(v) end
        table.sort(keys)
        return table.concat(keys, ", ")
      end)() or ""))
  end
end
print(string.format("  ground    %d tiles", tiles))
for _, p in ipairs(points) do -- places, not solids: listed apart, out of the world
  print(string.format("  point     %-9s %-8s at (%g, %g)", p.layer, p.name, p.cx, p.cy))
end
for _, s in ipairs(skipped) do
  print(string.format("  skipped   %-9s %-8s id %d: %s", s.layer, s.name, s.id, s.reason))
end

-- The checks: counts, and the anchors of the turned objects.
assert(#world == 51 and #skipped == 3 and #points == 1)
local function find(name)
  for _, it in ipairs(items) do if it.name == name then return it end end
end
local function near(ax, ay, bx, by) return math.abs(ax - bx) < 1e-9 and math.abs(ay - by) < 1e-9 end
for _, name in ipairs({ "ramp up", "ramp down" }) do
  local it = find(name)
  local x1, y1 = obb.new2(world:get(it)):corners()
  assert(near(x1, y1, it.x, it.y), name .. ": the first corner is not the object's (x, y)")
end
local crate = find("tilted crate")
local _, _, _, _, _, _, x4, y4 = obb.new2(world:get(crate)):corners()
assert(near(x4, y4, crate.x, crate.y), "the tile object's bottom-left corner moved")

-- What a platformer loads: the collidable layers only.
local solid = tiled.load(MAP, { property = "collidable" })
assert(#solid == 50)
print(string.format("with property = \"collidable\": %d items (the decor layer left out)", #solid))

-- ---- a racer's map: classes and points ----------------------------------
local TRACK = "examples/maps/racetrack.lua"
local WALL, CHECKPOINT, BOOST, PIT = 1, 2, 3, 4
local CLASSES = { wall = WALL, checkpoint = CHECKPOINT, boost = BOOST, pit = PIT }
-- (a type the table does not name is class 0: a forgotten "pit" would be
-- a wall across the pit lane; strict = true makes it an error)
local track, track_items, track_skipped, grid = tiled.load(TRACK, { property = "collidable", classes = CLASSES })
local per_class = { 0, 0, 0, 0 }
for _, it in ipairs(track_items) do
  local c = track:class(it)
  per_class[c] = per_class[c] + 1
end
print(string.format("%s: %d items (%d walls, %d checkpoints, %d boost pads, %d pit lane), %d skipped, %d start points",
  TRACK, #track, per_class[WALL], per_class[CHECKPOINT], per_class[BOOST], per_class[PIT], #track_skipped, #grid))
assert(#track == 67 and per_class[WALL] == 62 and #grid == 4)

-- each car from its spot on the grid, flat out to the right along the
-- bottom straight: one response set, made once, answers every item by its
-- class, in C
local drive = obb.responses({ [CHECKPOINT] = "cross", [BOOST] = "cross", [PIT] = "cross" }) -- walls slide
local out, ends = {}, {}
for i, spot in ipairs(grid) do
  local car = { name = "car " .. i }
  track:add(car, spot.cx, spot.cy, 12, 6)
  local x, _, n = track:move(car, 700, spot.cy, drive, out)
  local met = {}
  for k = 0, n - 1 do
    local other = out[k * obb.MOVE_STRIDE2 + 1]
    met[#met + 1] = (other.name or other.layer) .. " " .. out[k * obb.MOVE_STRIDE2 + 2]
  end
  ends[i] = x
  print(string.format("  %s from %s (%g, %g) stops at x = %g: %s", car.name, spot.name, spot.cx, spot.cy, x,
    table.concat(met, ", ")))
end
-- the front row reaches the outer barrier; the second row stops behind it
assert(ends[1] == 596 and ends[2] == 596 and ends[3] == 572 and ends[4] == 572)

-- As obb 1.0 loaded it (points = "add"): the start points are boxes of
-- class 0, and the car behind stops at the point ahead of it.
local old, _, _, none = tiled.load(TRACK, { property = "collidable", classes = CLASSES, points = "add" })
local car = {}
old:add(car, grid[3].cx, grid[3].cy, 12, 6)
local stop = old:move(car, 700, grid[3].cy, drive)
print(string.format("with points = \"add\": %d items, and the car from %s stops at x = %g, at %s", #old,
  grid[3].name, stop, grid[1].name))
assert(#none == 0 and stop == grid[1].cx - 12)
print("tiled: ok")

if not (arg and arg[1]) then return end

-- ---- the picture -------------------------------------------------------
-- obb.svg draws y up; the map is y down, so every point is drawn at (x, -y).
local svg = require "obb.svg"
local pic = svg.new { width = 960, title = "examples/maps/level1.lua through obb.tiled (y down, as Tiled draws it)" }

local function corners_down(cx, cy, hx, hy, angle)
  local c = { obb.new2(cx, cy, hx, hy, angle):corners() }
  for i = 2, 8, 2 do c[i] = -c[i] end
  return c
end
local function text(x, y, s, size) pic:text(x, -y, s, { color = "#333333", size = size or 10 }) end

local STYLE = {
  tile = { stroke = "#555555", fill = "#999999", fill_opacity = 0.35, width = 1, axes = false },
  object = { stroke = "#1f77b4", fill = "#1f77b4", fill_opacity = 0.2, width = 1.5, axes = false },
  oneway = { stroke = "#2ca02c", fill = "#2ca02c", fill_opacity = 0.25, width = 1.5, axes = false },
  coin = { stroke = "#b8860b", fill = "#ffd700", fill_opacity = 0.6, width = 1.5, axes = false },
  sensor = { stroke = "#9467bd", fill = "#9467bd", fill_opacity = 0.1, width = 1.5, dash = "4 3", axes = false },
  skipped = { stroke = "#d62728", fill = "none", width = 1.5, dash = "3 3", axes = false },
  outline = { stroke = "#777777", fill = "none", width = 1, dash = "5 4", axes = false },
  cloud = { stroke = "#aaaaaa", fill = "#dddddd", fill_opacity = 0.5, width = 1, axes = false },
}

-- the map's frame, 640 x 240
pic:polygon({ 0, 0, 640, 0, 640, -240, 0, -240 }, { stroke = "#cccccc", fill = "none", width = 1 })
for _, it in ipairs(items) do
  local style = it.col and STYLE.tile or STYLE.object
  if it.properties.oneway then style = STYLE.oneway end
  if it.properties.coin then style = STYLE.coin end
  if it.properties.sensor then style = STYLE.sensor end
  if it.type == "cloud" then style = STYLE.cloud end
  pic:polygon(corners_down(world:get(it)), style)
end
for _, p in ipairs(points) do
  pic:point(p.cx, -p.cy, { stroke = "#000000", fill = "#ff7f0e", radius = 4 })
  text(p.cx - 8, p.cy - 8, p.name, 9)
end
for _, s in ipairs(skipped) do
  if s.shape == "ellipse" then
    local pts, rx, ry = {}, s.width / 2, s.height / 2
    for k = 0, 31 do
      local a = 2 * math.pi * k / 32
      pts[#pts + 1] = s.x + rx + rx * math.cos(a)
      pts[#pts + 1] = -(s.y + ry + ry * math.sin(a))
    end
    pic:polygon(pts, STYLE.skipped)
  elseif s.shape == "polygon" then
    local pts = {}
    for _, p in ipairs(s.polygon) do
      pts[#pts + 1] = s.x + p.x
      pts[#pts + 1] = -(s.y + p.y)
    end
    pic:polygon(pts, STYLE.skipped)
  end
  text(s.x, s.y - (s.shape == "polygon" and 16 or 4), "skipped: " .. s.shape, 9)
end
-- labels, placed by hand clear of the shapes
for _, l in ipairs({ { "ramp up", 72, 196 }, { "platform", 144, 178 }, { "coin", 168, 148 }, { "ledge", 304, 170 },
  { "ramp down", 360, 168 }, { "tilted crate", 548, 196 }, { "exit", 600, 186 } }) do
  text(l[2], l[3], l[1], 9)
end

-- ---- the conversion, larger ---------------------------------------------
-- Two objects as Tiled writes them, converted by tiled.box: a rectangle
-- turned 35 degrees (clockwise on screen) about its top-left corner, and a
-- tile object turned -30 degrees (counter-clockwise) about its bottom-left
-- corner. The dashed outline is the object before the turn.
local TOP = 290
text(0, TOP, "Tiled's rotation r (degrees, clockwise on the y-down screen) is obb's angle math.rad(r);", 12)
text(0, TOP + 14, "coordinates stay Tiled's pixels, y down. Dashed: the object before the turn. Red: its (x, y).", 12)
local examples = {
  { lines = { "rectangle, rotation = 35:", "turned about (x, y), its top-left corner" },
    object = { shape = "rectangle", x = 60, y = TOP + 60, width = 200, height = 50, rotation = 35 },
    before = { 0, 0, 200, 50 } },
  { lines = { "tile object (gid), rotation = -30:", "turned about (x, y), its bottom-left corner" },
    object = { shape = "rectangle", gid = 1, x = 420, y = TOP + 190, width = 110, height = 110, rotation = -30 },
    before = { 0, -110, 110, 0 } },
}
for _, e in ipairs(examples) do
  local o = e.object
  local cx, cy, hx, hy, angle = tiled.box(o)
  local b = e.before
  pic:polygon({ o.x + b[1], -(o.y + b[2]), o.x + b[3], -(o.y + b[2]), o.x + b[3], -(o.y + b[4]),
                o.x + b[1], -(o.y + b[4]) }, STYLE.outline)
  pic:polygon(corners_down(cx, cy, hx, hy, angle), STYLE.object)
  -- the box's axes in the y-down frame: axis 0 (orange) along the width,
  -- axis 1 (green) along the height, down the screen before the turn
  local c, s = math.cos(angle), math.sin(angle)
  pic:arrow(cx, -cy, hx * c, -(hx * s), "axis0")
  pic:arrow(cx, -cy, hy * -s, -(hy * c), "axis1")
  pic:point(cx, -cy, { stroke = "#000000", fill = "#ffffff", radius = 3 })
  pic:point(o.x, -o.y, { stroke = "#000000", fill = "#d62728", radius = 4 })
  text(o.x - 34, o.y + (o.gid and 14 or -4), "(x, y)", 11)
  local lines = {
    e.lines[1], e.lines[2],
    string.format("obb: center (%.1f, %.1f), half extents (%g, %g),", cx, cy, hx, hy),
    string.format("angle math.rad(%g) = %.4f", o.rotation, angle),
  }
  local ly, lx = TOP + 240, o.gid and 400 or 40
  for i, line in ipairs(lines) do text(lx, ly + 13 * (i - 1), line, 11) end
end

assert(pic:write(arg[1]))
