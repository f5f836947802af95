-- obb.tiled: Tiled maps (Lua export) into obb worlds (docs/tiled.md), on
-- the example map examples/maps/level1.lua and on small maps made here.
--
-- Where Tiled draws an object is computed here independently of the
-- module: the object's corners before rotation, relative to its anchor
-- (top-left for rectangles, bottom-left for tile objects), turned the way
-- Tiled (Qt) turns them on its y-down screen, QTransform::rotate(r):
-- (u, v) -> (u cos r - v sin r, u sin r + v cos r), then checked against
-- the corners of the box the world holds.
local obb = require "obb"
local tiled = require "obb.tiled"

local MAP = "examples/maps/level1.lua"
local EPS = 1e-9

local function load_map() return dofile(MAP) end

local function by(list, key, value)
  for _, it in ipairs(list) do
    if it[key] == value then return it end
  end
end

local function box_of(world, item)
  return obb.new2(world:get(item))
end

-- The corners Tiled draws, in obb's corner order (top-left, top-right,
-- bottom-right, bottom-left of the unrotated object on the y-down screen).
local function tiled_corners(x, y, w, h, rotation, anchor_y)
  local top = anchor_y == "bottom" and -h or 0
  local local_corners = { { 0, top }, { w, top }, { w, top + h }, { 0, top + h } }
  local r = math.rad(rotation)
  local c, s = math.cos(r), math.sin(r)
  local out = {}
  for i, p in ipairs(local_corners) do
    local u, v = p[1], p[2]
    out[i] = { x + u * c - v * s, y + u * s + v * c }
  end
  return out
end

local function assert_corners(box, expected, eps)
  local got = { box:corners() }
  for i = 1, 4 do
    local ex, ey = expected[i][1], expected[i][2]
    local gx, gy = got[2 * i - 1], got[2 * i]
    if math.abs(gx - ex) > (eps or EPS) or math.abs(gy - ey) > (eps or EPS) then
      error(string.format("corner %d: got (%.12g, %.12g), Tiled draws (%.12g, %.12g)", i, gx, gy, ex, ey), 2)
    end
  end
end

-- The same corners as a set (order free), for tiles whose flips mirror
-- the shape.
local function assert_same_points(box, expected)
  local got = { box:corners() }
  for _, e in ipairs(expected) do
    local found = false
    for i = 1, 4 do
      if math.abs(got[2 * i - 1] - e[1]) < EPS and math.abs(got[2 * i] - e[2]) < EPS then found = true end
    end
    if not found then
      error(string.format("no corner at (%.12g, %.12g); corners %s", e[1], e[2], table.concat(got, " ")), 2)
    end
  end
end

-- A map with one layer per table given, tiles 16 x 16.
local function small_map(layers, extra)
  local map = {
    orientation = "orthogonal", width = 10, height = 10, tilewidth = 16, tileheight = 16,
    tilesets = {}, layers = layers,
  }
  for k, v in pairs(extra or {}) do map[k] = v end
  return map
end

local function object_layer(name, objects, props)
  return { type = "objectgroup", name = name, properties = props or {}, objects = objects }
end

local function rect(id, x, y, w, h, rotation, extra)
  local o = { id = id, name = "r" .. id, type = "", shape = "rectangle",
    x = x, y = y, width = w, height = h, rotation = rotation or 0, visible = true, properties = {} }
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return tostring(e)
end

describe("obb.tiled on the example map", function()
  local world, items, skipped, points = tiled.load(MAP)
  local map = load_map()
  local collision = map.layers[2].objects

  local function item(name) return (assert(by(items, "name", name), name)) end

  it("loads the map from its path or its table, into a 2D world", function()
    assert.are.equal("obb.world2 (51 items)", tostring(world))
    assert.are.equal(51, #items)
    local w2, items2, skipped2, points2 = tiled.load(load_map())
    assert.are.equal(51, #w2)
    assert.are.equal(#items, #items2)
    assert.are.equal(#skipped, #skipped2)
    assert.are.equal(1, #points2)
    for _, it in ipairs(items) do assert.is_true(world:has(it)) end
  end)

  it("puts every rectangle where Tiled draws it: turned about its top-left corner", function()
    local n = 0
    for _, o in ipairs(collision) do
      if o.shape == "rectangle" and o.gid == nil then
        n = n + 1
        local it = item(o.name)
        assert_corners(box_of(world, it), tiled_corners(o.x, o.y, o.width, o.height, o.rotation))
      end
    end
    assert.are.equal(7, n) -- walls, two ramps, the platform, the ledge, the exit
  end)

  it("keeps the first corner at the object's (x, y), the top edge turned clockwise on screen", function()
    -- ramp up: rotation -20, counter-clockwise on the y-down screen, so it rises to the right
    local up = box_of(world, item("ramp up"))
    local x1, y1, x2, y2 = up:corners()
    assert.is_true(math.abs(x1 - 48) < EPS and math.abs(y1 - 224) < EPS)
    -- by hand: 96 cos 20 = 90.2104916, 96 sin 20 = 32.8339338
    assert.is_true(math.abs(x2 - 138.2104916) < 1e-6 and math.abs(y2 - 191.1660662) < 1e-6)
    local atan2 = math.atan2 or math.atan
    assert.is_true(math.abs(atan2(y2 - y1, x2 - x1) - math.rad(-20)) < 1e-12)
    -- ramp down: rotation 35, clockwise on screen: y grows along the top edge
    local down = box_of(world, item("ramp down"))
    local a1, b1, a2, b2, a3, b3 = down:corners()
    assert.is_true(math.abs(a1 - 352) < EPS and math.abs(b1 - 176) < EPS)
    assert.is_true(b2 > b1 and a2 > a1)
    assert.is_true(math.abs(math.sqrt((a2 - a1) ^ 2 + (b2 - b1) ^ 2) - 80) < 1e-9)
    assert.is_true(math.abs(math.sqrt((a3 - a2) ^ 2 + (b3 - b2) ^ 2) - 8) < 1e-9)
    -- obb's angle is the rotation in radians, the half extents half the size
    local cx, cy, hx, hy, angle = world:get(item("ramp down"))
    assert.are.same({ 40, 4 }, { hx, hy })
    assert.is_true(math.abs(angle - math.rad(35)) < 1e-15)
    -- the center is the top-left corner plus the half diagonal, turned
    local c, s = math.cos(math.rad(35)), math.sin(math.rad(35))
    assert.is_true(math.abs(cx - (352 + 40 * c - 4 * s)) < EPS)
    assert.is_true(math.abs(cy - (176 + 40 * s + 4 * c)) < EPS)
  end)

  it("answers queries where Tiled draws the ramps", function()
    local out = {}
    -- 1 pixel under the middle of ramp up's top edge, and 1 pixel above it
    local r = math.rad(-20)
    local mx, my = 48 + 48 * math.cos(r), 224 + 48 * math.sin(r)
    local nx, ny = -math.sin(r), math.cos(r) -- axis 1: down into the ramp
    assert.are.equal(1, world:query_point(mx + nx, my + ny, out))
    assert.are.equal(item("ramp up"), out[1])
    assert.are.equal(0, world:query_point(mx - nx, my - ny, out))
  end)

  it("adds tile objects anchored at their bottom-left corner, turned about it", function()
    for _, name in ipairs({ "coin", "tilted crate" }) do
      local o = by(collision, "name", name)
      local it = item(name)
      assert.are.equal(o.gid, it.gid)
      assert_corners(box_of(world, it), tiled_corners(o.x, o.y, o.width, o.height, o.rotation, "bottom"))
    end
    -- the crate (rotation -30) keeps its bottom-left corner on the floor
    local _, _, _, _, _, _, x4, y4 = box_of(world, item("tilted crate")):corners()
    assert.is_true(math.abs(x4 - 560) < EPS and math.abs(y4 - 224) < EPS)
    local _, cy = world:get(item("coin"))
    assert.are.equal(160, cy) -- 16 x 16, bottom at y = 168
  end)

  it("lists a point in points, with where it is, and keeps it out of the world", function()
    assert.are.equal(1, #points)
    local spawn = points[1]
    assert.are.same({ "spawn", "spawn", "point", "collision", 7 },
      { spawn.name, spawn.type, spawn.shape, spawn.layer, spawn.id })
    assert.are.same({ 32, 208, 32, 208 }, { spawn.cx, spawn.cy, spawn.x, spawn.y })
    assert.are.same(by(collision, "id", 7), spawn.object)
    assert.is_false(world:has(spawn))
    assert.is_nil(by(items, "shape", "point"))
    assert.are.equal(0, world:query_point(32, 208, {}))
  end)

  it("adds a point as a box of zero size at the point with points = \"add\"", function()
    local w, list, _, none = tiled.load(MAP, { points = "add" })
    assert.are.equal(52, #w)
    assert.are.same({}, none)
    local spawn = assert(by(list, "shape", "point"))
    assert.are.same({ 32, 208, 0, 0, 0 }, { w:get(spawn) })
    assert.are.same({ 32, 208 }, { spawn.cx, spawn.cy })
    local out = {}
    assert.are.equal(1, w:query_point(32, 208, out))
    assert.are.equal("point", out[1].shape)
  end)

  it("keeps each object's fields and properties in its item", function()
    local platform = item("platform")
    assert.are.equal(true, platform.properties.oneway)
    assert.are.equal("platform", platform.type)
    assert.are.equal("platform", platform.class)
    assert.are.equal(4, platform.id)
    assert.are.equal("collision", platform.layer)
    assert.are.same(by(collision, "id", 4), platform.object)
    assert.are.equal(platform.object.properties, platform.properties) -- the map's own table
    assert.are.same({ 144, 184, 64, 8, 0 },
      { platform.x, platform.y, platform.width, platform.height, platform.rotation })
    assert.are.equal(true, item("coin").properties.coin)
    assert.are.equal("pickup", item("coin").type)
    assert.are.equal(true, item("exit").properties.sensor)
    assert.are.same({}, item("ledge").properties)
    assert.is_nil(item("ledge").properties.oneway)
    assert.are.equal("decor", item("cloud").layer)
  end)

  it("reports the ellipse, the polygon and the text in skipped, with the reason, and adds none", function()
    assert.are.equal(3, #skipped)
    local boulder, spikes, title = skipped[1], skipped[2], skipped[3]
    assert.are.same({ "collision", 10, "boulder", "ellipse" },
      { boulder.layer, boulder.id, boulder.name, boulder.shape })
    assert.truthy(boulder.reason:find("^ellipse: not a box"))
    assert.are.same({ "collision", 11, "spikes", "polygon" }, { spikes.layer, spikes.id, spikes.name, spikes.shape })
    assert.truthy(spikes.reason:find("^polygon: not a box"))
    assert.are.equal(3, #spikes.polygon)
    assert.are.same({ "decor", 13, "text" }, { title.layer, title.id, title.shape })
    assert.truthy(title.reason:find("^text: "))
    for _, s in ipairs(skipped) do assert.is_false(world:has(s)) end
    -- every object of the two object layers is added, skipped or a point
    local total = #map.layers[2].objects + #map.layers[3].objects
    local objects = 0
    for _, it in ipairs(items) do if it.id and not it.col then objects = objects + 1 end end
    assert.are.equal(total, objects + #skipped + #points)
  end)

  it("adds the tiles of the tile layer: whole collidable blocks and their collision shapes", function()
    local blocks, slabs = 0, {}
    for _, it in ipairs(items) do
      if it.layer == "ground" then
        assert.are.equal("tiles", it.tileset)
        if it.gid == 1 then
          blocks = blocks + 1
          assert.are.equal(14, it.row)
          assert.are.equal("block", it.type)
          assert.are.equal(true, it.properties.collidable)
          assert.are.same({ it.col * 16 + 8, 232, 8, 8, 0 }, { world:get(it) })
        else
          slabs[#slabs + 1] = it
        end
      end
    end
    assert.are.equal(37, blocks) -- 40 but the pit's 3
    assert.are.equal(4, #slabs)
    -- the slab's shape is the bottom half of its tile, at (0, 8) 16 x 8
    local function slab(col, row)
      for _, it in ipairs(slabs) do if it.col == col and it.row == row then return it end end
    end
    local plain = slab(26, 13)
    assert.are.same({ 416 + 8, 208 + 12, 8, 4, 0 }, { world:get(plain) })
    assert.are.equal(plain.tile.objectGroup.objects[1], plain.object)
    assert.are.same({ 416, 208, 16, 16 }, { plain.x, plain.y, plain.width, plain.height })
    -- flipped vertically (gid 2 + 0x40000000): the top half
    local upside = slab(33, 9)
    assert.is_true(upside.flip_v and not upside.flip_h and not upside.flip_d)
    assert.are.same({ 528 + 8, 144 + 4, 8, 4, 0 }, { world:get(upside) })
    -- turned a quarter clockwise (diagonal and horizontal flips,
    -- 0xA0000000): the bottom half turns to the left half
    local turned = slab(30, 13)
    assert.is_true(turned.flip_d and turned.flip_h and not turned.flip_v)
    assert.are.same({ 480 + 4, 208 + 8, 4, 8, 0 }, { world:get(turned) })
  end)
end)

describe("obb.tiled layer selection", function()
  it("selects layers by name", function()
    local world, items, skipped = tiled.load(MAP, { layers = { "collision" } })
    assert.are.equal(9, #world)
    for _, it in ipairs(items) do assert.are.equal("collision", it.layer) end
    assert.are.equal(2, #skipped)
    local w2 = tiled.load(MAP, { layers = "decor" })
    assert.are.equal(1, #w2)
    local w3 = tiled.load(MAP, { layers = { "decor", "ground" } })
    assert.are.equal(42, #w3)
  end)

  it("selects layers by a property", function()
    local world, items, skipped = tiled.load(MAP, { property = "collidable" })
    assert.are.equal(50, #world) -- ground's 41 tiles and collision's 9 objects, not decor's cloud
    for _, it in ipairs(items) do assert.are_not.equal("decor", it.layer) end
    assert.are.equal(2, #skipped)
    local none = tiled.load(MAP, { property = "no such property" })
    assert.are.equal(0, #none)
  end)

  it("with both, takes the named layers that have the property", function()
    local world = tiled.load(MAP, { layers = { "collision", "decor" }, property = "collidable" })
    assert.are.equal(9, #world)
  end)

  it("raises for a name no layer has, and the world is unchanged", function()
    local world = obb.world2()
    local e = err_of(tiled.add, world, MAP, { layers = { "collision", "colision", "walls" } })
    assert.truthy(e:find('obb.tiled: no layer named "colision", "walls" in the map', 1, true))
    assert.are.equal(0, #world)
  end)

  it("walks group layers: a group's name and property select its layers, offsets add up", function()
    local map = small_map({
      { type = "group", name = "level", offsetx = 100, offsety = 10, properties = { solid = true }, layers = {
        object_layer("inner", { rect(1, 0, 0, 10, 10) }),
        { type = "group", name = "deeper", offsetx = 1, offsety = 2, layers = {
          object_layer("deepest", { rect(2, 0, 0, 10, 10) }, {}),
        } },
      } },
      object_layer("outside", { rect(3, 0, 0, 10, 10) }),
      { type = "imagelayer", name = "sky", image = "sky.png" },
    })
    local world, items = tiled.load(map, { layers = { "level" } })
    assert.are.equal(2, #world)
    assert.are.same({ 105, 15, 5, 5, 0 }, { world:get(items[1]) })
    assert.are.same({ 106, 17, 5, 5, 0 }, { world:get(items[2]) })
    assert.are.equal("deepest", items[2].layer)
    assert.are.equal(2, #tiled.load(map, { property = "solid" }))
    assert.are.equal(1, #tiled.load(map, { layers = "deeper" }))
    assert.are.equal(3, #tiled.load(map))
    assert.are.equal(0, #tiled.load(map, { layers = "sky" })) -- an image layer has no shapes
  end)

  it("filters items with options.filter(item, layer), skipped shapes included", function()
    local seen_layers = {}
    local world, items, skipped, points = tiled.load(MAP, {
      layers = "collision",
      filter = function(it, layer)
        seen_layers[layer.name] = true
        return it.name ~= "ledge" and it.shape ~= "point" and it.shape ~= "ellipse"
      end,
    })
    assert.are.equal(8, #world)
    assert.is_nil(by(items, "name", "ledge"))
    assert.are.same({}, points)
    assert.are.equal(1, #skipped)
    assert.are.equal("polygon", skipped[1].shape)
    assert.are.same({ collision = true }, seen_layers)
  end)
end)

describe("obb.tiled options and worlds", function()
  it("adds to a world the game already has, next to its items", function()
    local world = obb.world2(0)
    local player = { name = "player" }
    world:add(player, 32, 200, 6, 8)
    local items, skipped, points = tiled.add(world, MAP, { layers = "collision" })
    assert.are.equal(10, #world)
    assert.are.equal(9, #items)
    assert.are.equal(2, #skipped)
    assert.are.equal(1, #points)
    local out = {}
    assert.are.equal(0, world:collisions(player, out)) -- standing on the spawn point, which is no box
    -- as in obb 1.0, with points = "add": the spawn is a box inside the player
    local old = obb.world2(0)
    old:add(player, 32, 200, 6, 8)
    items, skipped, points = tiled.add(old, MAP, { layers = "collision", points = "add" })
    assert.are.same({ 11, 10, 2, 0 }, { #old, #items, #skipped, #points })
    assert.are.equal(1, old:collisions(player, out))
    assert.are.equal("spawn", out[1].name)
  end)

  it("raises at the first unsupported shape with strict = true, adding nothing", function()
    local world = obb.world2()
    local e = err_of(tiled.add, world, MAP, { strict = true })
    assert.truthy(e:find("obb.tiled: map.layers[2].objects[10]: ellipse: not a box", 1, true))
    assert.are.equal(0, #world)
    local w2 = tiled.load(MAP, { strict = true, layers = "ground" })
    assert.are.equal(41, #w2)
  end)

  it("takes the tile property's name from tile_property", function()
    local map = load_map()
    local block = map.tilesets[1].tiles[1]
    block.properties = { solid = true }
    assert.are.equal(4, #tiled.load(map, { layers = "ground" }))
    assert.are.equal(41, #tiled.load(map, { layers = "ground", tile_property = "solid" }))
    -- false turns a tile's collision shapes off
    map.tilesets[1].tiles[2].properties = { collidable = false }
    assert.are.equal(0, #tiled.load(map, { layers = "ground" }))
  end)

  -- As data: love.filesystem.read, never love.filesystem.load (a map must
  -- not run; issue 25).
  it("reads through love.filesystem.read inside LÖVE", function()
    local asked
    local saved = rawget(_G, "love")
    rawset(_G, "love", { filesystem = {
      read = function(path)
        asked = path
        local f = assert(io.open(path, "rb"))
        local text = f:read("*a")
        f:close()
        return text
      end,
      load = function() error("a map was run") end,
    } })
    local ok, world = pcall(tiled.load, MAP)
    rawset(_G, "love", saved)
    assert.is_true(ok, world)
    assert.are.equal(MAP, asked)
    assert.are.equal(51, #world)
  end)
end)

-- Issue 40: a racer's start points were invisible solid boxes that
-- stopped the cars. Points are places, listed apart; points = "add" keeps
-- the old boxes of zero size.
describe("obb.tiled points", function()
  local function point(id, x, y, extra)
    local o = { id = id, name = "p" .. id, type = "start", shape = "point",
      x = x, y = y, width = 0, height = 0, rotation = 0, visible = true, properties = {} }
    for k, v in pairs(extra or {}) do o[k] = v end
    return o
  end

  -- a car on a start line with another start point ahead of it, and a wall
  local function grid()
    return small_map({ object_layer("track", {
      point(1, 40, 20), point(2, 80, 20), rect(3, 150, 0, 10, 40, 0, { type = "wall" }),
    }) })
  end

  it("no longer stop a car driving over them", function()
    local world, items, skipped, points = tiled.load(grid())
    assert.are.same({ 1, 1, 0, 2 }, { #world, #items, #skipped, #points })
    assert.are.same({ "p1", 40, 20 }, { points[1].name, points[1].cx, points[1].cy })
    assert.are.same({ "p2", 80, 20 }, { points[2].name, points[2].cx, points[2].cy })
    local car = {}
    world:add(car, points[1].cx, points[1].cy, 6, 3)
    local x = world:move(car, 200, 20)
    assert.are.equal(144, x) -- at the wall, over the other start point
  end)

  it("are boxes of zero size that stop the car with points = \"add\", as before", function()
    local world, items, _, points = tiled.load(grid(), { points = "add" })
    assert.are.same({ 3, 3, 0 }, { #world, #items, #points })
    assert.are.same({ 80, 20, 0, 0, 0 }, { world:get(items[2]) })
    local car = {}
    world:add(car, 40, 20, 6, 3)
    local x = world:move(car, 200, 20)
    assert.are.equal(74, x) -- stopped by the point at 80
  end)

  it("are placed with their layer's and groups' offsets, and the filter sees where", function()
    local map = small_map({
      { type = "group", name = "g", offsetx = 100, offsety = 10, layers = {
        object_layer("spawns", { point(1, 1, 2) }),
      } },
    })
    map.layers[1].layers[1].offsetx = 5
    local seen
    local _, _, _, points = tiled.load(map, { filter = function(it) seen = { it.cx, it.cy }; return true end })
    assert.are.same({ 106, 12 }, { points[1].cx, points[1].cy })
    assert.are.same({ 1, 2 }, { points[1].x, points[1].y }) -- the object's own fields, as Tiled wrote them
    assert.are.same({ 106, 12 }, seen)
    assert.are.equal("spawns", points[1].layer)
    local _, _, _, none = tiled.load(map, { filter = function() return false end })
    assert.are.same({}, none)
  end)

  it("of a tile's collision shapes are listed where the flipped tile puts them", function()
    local map = small_map({
      { type = "tilelayer", name = "t", width = 3, height = 1, data = { 1, 0x80000001, 0x20000001 } },
    }, {
      tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 16,
        tiles = { { id = 0, objectGroup = { type = "objectgroup", objects = {
          rect(1, 0, 12, 16, 4), point(2, 3, 5, { type = "" }),
        } } } } } },
    })
    local world, items, _, points = tiled.load(map)
    assert.are.same({ 3, 3, 3 }, { #world, #items, #points })
    -- unflipped, flipped horizontally (x -> 16 - x), flipped diagonally (x <-> y)
    local want = { { 3, 5 }, { 16 + 13, 5 }, { 32 + 5, 3 } }
    for i, p in ipairs(points) do
      assert.are.same(want[i], { p.cx, p.cy })
      assert.are.same({ "point", i - 1, 0 }, { p.shape, p.col, p.row })
      assert.is_false(world:has(p))
    end
    local w2, items2, _, points2 = tiled.load(map, { points = "add" })
    assert.are.same({ 6, 6, 0 }, { #w2, #items2, #points2 })
    for i = 1, 3 do
      local p = items2[2 * i]
      assert.are.same({ want[i][1], want[i][2], 0, 0, 0 }, { w2:get(p) })
      assert.are.same(want[i], { p.cx, p.cy })
    end
  end)

  it("refuses a points option it does not know, saying what each value does", function()
    for _, v in ipairs({ "skip", true, false, 1 }) do
      local e = err_of(tiled.load, small_map({}), { points = v })
      assert.truthy(e:find('obb.tiled: options.points must be "list" or "add", got ' ..
        (type(v) == "string" and '"' .. v .. '"' or tostring(v)), 1, true), e)
      assert.truthy(e:find('"list" (the default) returns point objects in their own list', 1, true), e)
    end
  end)
end)

-- Issue 40: options.classes gives the loaded items the obb classes of
-- their Tiled types (world:set_class), for response sets.
describe("obb.tiled classes", function()
  local TRACK = "examples/maps/racetrack.lua"
  local WALL, CHECKPOINT, BOOST, PIT = 1, 2, 3, 4
  local CLASSES = { wall = WALL, checkpoint = CHECKPOINT, boost = BOOST, pit = PIT }

  it("are those of the items' types, their tiles' types and their layers' classes", function()
    local world, items, skipped, points = tiled.load(TRACK, { property = "collidable", classes = CLASSES })
    assert.are.same({ 67, 67, 1, 4 }, { #world, #items, #skipped, #points })
    local count = {}
    for _, it in ipairs(items) do
      local c = world:class(it)
      count[c] = (count[c] or 0) + 1
      if it.layer == "barriers" then
        assert.are.equal(WALL, c) -- untyped tiles, the layer's class
        assert.is_nil(it.type)
      elseif it.layer == "pads" then
        assert.are.equal(BOOST, c) -- the tile's type
      else
        assert.are.equal(CLASSES[it.type], c, it.name)
      end
    end
    assert.are.same({ [WALL] = 62, [CHECKPOINT] = 2, [BOOST] = 2, [PIT] = 1 }, count)
    for _, p in ipairs(points) do assert.are.equal("start", p.type) end
    assert.are.equal("oil", skipped[1].name)
    -- without classes, every item is of class 0, as before
    local plain, plain_items = tiled.load(TRACK, { property = "collidable" })
    for _, it in ipairs(plain_items) do assert.are.equal(0, plain:class(it)) end
  end)

  it("let a response set drive a car from the start grid straight away", function()
    local world, _, _, points = tiled.load(TRACK, { property = "collidable", classes = CLASSES })
    local car = { name = "car" }
    world:add(car, points[1].cx, points[1].cy, 12, 6)
    local drive = obb.responses({ [CHECKPOINT] = "cross", [BOOST] = "cross", [PIT] = "cross" })
    local out = {}
    local x, y, n = world:move(car, 700, points[1].cy, drive, out)
    assert.are.same({ 596, 288 }, { x, y }) -- at the outer barrier, over the finish line, pads and pit lane
    local seen = {}
    for i = 0, n - 1 do
      local other, response = out[i * obb.MOVE_STRIDE2 + 1], out[i * obb.MOVE_STRIDE2 + 2]
      seen[#seen + 1] = (other.name or other.layer) .. " " .. response
    end
    -- the car's side meets two barrier tiles at once (rows 8 and 9)
    assert.are.same({ "finish cross", "pads cross", "pads cross", "pit lane cross", "barriers slide",
      "barriers slide" }, seen)
    -- the same map loaded without classes: the finish line is a wall
    local plain, _, _, ps = tiled.load(TRACK, { property = "collidable" })
    plain:add(car, ps[1].cx, ps[1].cy, 12, 6)
    assert.are.equal(116, (plain:move(car, 700, ps[1].cy, drive, out)))
  end)

  it("come from the item's own type, its tile's, its layer's class, then the groups' around it", function()
    local tile_object = function(id, own) return rect(id, 0, 16, 16, 16, 0, { gid = 1, type = own }) end
    local map = small_map({
      { type = "group", name = "g", class = "outer", layers = {
        { type = "objectgroup", name = "l1", class = "", objects = {
          rect(1, 0, 0, 1, 1, 0, { type = "own" }),
          rect(2, 0, 0, 1, 1), -- type "": the group's class
          rect(3, 0, 0, 1, 1, 0, { class = "own" }), -- Tiled 1.9's class (type removed below)
          tile_object(4, ""), tile_object(5, "own"),
        } },
        { type = "objectgroup", name = "l2", class = "inner", objects = { rect(6, 0, 0, 1, 1) } },
      } },
      object_layer("l3", { rect(7, 0, 0, 1, 1), tile_object(8, nil) }),
    }, { tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 16,
      tiles = { { id = 0, type = "tiled" } } } } })
    map.layers[1].layers[1].objects[3].type = nil
    local classes = { own = 1, outer = 2, inner = 3, tiled = 4, [""] = 5 }
    local world, items = tiled.load(map, { classes = classes })
    local got = {}
    for i, it in ipairs(items) do got[i] = world:class(it) end
    assert.are.same({ 1, 2, 1, 4, 1, 3, 5, 4 }, got)
    -- the items keep Tiled's fields: the class is the world's
    assert.are.equal("", items[2].type)
    classes[""] = nil -- untyped items: class 0 unless [""] says
    world, items = tiled.load(map, { classes = classes })
    assert.are.equal(0, world:class(items[7]))
  end)

  it("give a type that classes does not name class 0, or with strict raise saying what to add", function()
    local partial = { wall = WALL, checkpoint = CHECKPOINT, boost = BOOST }
    local world, items = tiled.load(TRACK, { property = "collidable", classes = partial })
    assert.are.equal(0, world:class((assert(by(items, "name", "pit lane")))))
    world = obb.world2()
    local e = err_of(tiled.add, world, TRACK, { property = "collidable", classes = partial, strict = true })
    assert.truthy(e:find('obb.tiled: map.layers[3].objects[9]: its type "pit" is not in options.classes: ' ..
      "add it (pit = 0 keeps class 0), or leave strict off", 1, true), e)
    assert.are.equal(0, #world)
    -- a tile's type, a layer's class; a type that is no Lua name
    e = err_of(tiled.load, TRACK, { property = "collidable", classes = { wall = 1 }, strict = true })
    assert.truthy(e:find('obb.tiled: map.layers[2].data[189]: its tile\'s type "boost" is not in options.classes',
      1, true), e)
    e = err_of(tiled.load, TRACK, { property = "collidable", classes = { boost = 3 }, strict = true })
    assert.truthy(e:find('map.layers[1].data[1]: its layer\'s class "wall" is not in options.classes', 1, true), e)
    local map = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1, 0, { type = "pit lane" }) }) })
    e = err_of(tiled.load, map, { classes = {}, strict = true })
    assert.truthy(e:find('add it (["pit lane"] = 0 keeps class 0)', 1, true), e)
    -- strict spares untyped items, points (not in the world) and what the filter leaves out
    local untyped = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1),
      { id = 2, type = "start", shape = "point", x = 1, y = 1 },
      rect(3, 0, 0, 1, 1, 0, { type = "cloud" }) }) })
    local w2 = tiled.load(untyped, { classes = {}, strict = true, filter = function(it) return it.id ~= 3 end })
    assert.are.equal(1, #w2)
    assert.truthy(err_of(tiled.load, untyped, { classes = {}, strict = true, points = "add" })
      :find('objects[2]: its type "start" is not in options.classes', 1, true))
  end)

  it("refuses a classes option that is not a table of types to classes, saying what to write", function()
    local map = small_map({})
    local function e(classes) return err_of(tiled.load, map, { classes = classes }) end
    assert.truthy(e("wall"):find("obb.tiled: options.classes must be a table of Tiled types to classes " ..
      "({ wall = 1, coin = 2 }), got string", 1, true))
    assert.truthy(e({ [1] = "wall" }):find("options.classes maps Tiled types to classes, { wall = 1 }, " ..
      'not classes to types: got [1] = "wall"', 1, true))
    assert.truthy(e({ [true] = 1 }):find("options.classes has the key true (a boolean): its keys are Tiled types",
      1, true))
    for _, v in ipairs({ 256, -1, 1.5, 0 / 0 }) do
      assert.truthy(e({ wall = v })
        :find('options.classes["wall"] must be a class, an integer in [0, 255], got', 1, true))
    end
    assert.truthy(e({ coin = "cross" }):find('options.classes["coin"] must be a class, an integer in [0, 255], ' ..
      'got "cross": a response goes in a response set, obb.responses{ [class] = "cross" }', 1, true))
    -- read raw, as obb.responses reads its table: a metatable is not asked
    local world, items = tiled.load(small_map({ object_layer("l", { rect(1, 0, 0, 1, 1, 0, { type = "wall" }) }) }),
      { classes = setmetatable({}, { __index = function() error("asked") end }) })
    assert.are.equal(0, world:class(items[1]))
  end)

  it("refuse a type or a layer class that is not a string, when classes reads it", function()
    local map = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1, 0, { type = 7 }) }) })
    assert.are.equal(1, #tiled.load(map)) -- without classes the type is not read
    assert.truthy(err_of(tiled.load, map, { classes = {} })
      :find("obb.tiled: map.layers[1].objects[1].type must be a string, got 7", 1, true))
    map = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1) }) })
    map.layers[1].class = {}
    assert.truthy(err_of(tiled.load, map, { classes = {} })
      :find("obb.tiled: map.layers[1].class must be a string, got a table", 1, true))
  end)
end)

describe("obb.tiled on other maps Tiled writes", function()
  it("reads the class of Tiled 1.9 as the type", function()
    local o = rect(2, 0, 0, 4, 4)
    o.type = nil
    o.class = "wall"
    local world, items = tiled.load(small_map({ object_layer("l", { o }) }))
    assert.are.equal(1, #world)
    assert.are.equal("wall", items[1].type)
    assert.are.equal("wall", items[1].class)
  end)

  it("anchors tile objects where the tileset's objectalignment says", function()
    local function map_with(align)
      return small_map({ object_layer("l", { rect(1, 100, 50, 20, 10, 90, { gid = 1 }) }) }, {
        tilesets = { { name = "t", firstgid = 1, tilewidth = 20, tileheight = 10, objectalignment = align } },
      })
    end
    -- anchor at (100, 50); the center before the turn, relative to it;
    -- a quarter turn clockwise on screen takes (u, v) to (-v, u)
    local cases = {
      unspecified = { 10, -5 }, bottomleft = { 10, -5 }, topleft = { 10, 5 }, center = { 0, 0 },
      bottom = { 0, -5 }, top = { 0, 5 }, right = { -10, 0 }, topright = { -10, 5 },
      left = { 10, 0 }, bottomright = { -10, -5 },
    }
    for align, uv in pairs(cases) do
      local world, items = tiled.load(map_with(align))
      local cx, cy, hx, hy, angle = world:get(items[1])
      assert.are.same({ 100 - uv[2], 50 + uv[1], 10, 5 }, { cx, cy, hx, hy }, align)
      assert.is_true(math.abs(angle - math.pi / 2) < 1e-15)
    end
    local e = err_of(tiled.load, map_with("middle"))
    assert.truthy(e:find('objectalignment "middle"', 1, true))
  end)

  it("turns the collision shapes of flipped tiles as Tiled flips the tile", function()
    -- a 16 x 16 tile whose shape is a rectangle at (2, 3), 8 x 4, turned 30
    -- degrees about its top-left corner
    local shape = rect(1, 2, 3, 8, 4, 30)
    local map = small_map({
      { type = "tilelayer", name = "t", width = 4, height = 1, data = { 1, 0x80000001, 0x40000001, 0x20000001 } },
    }, {
      tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 16,
        tiles = { { id = 0, objectGroup = { type = "objectgroup", objects = { shape } } } } } },
    })
    local world, items = tiled.load(map)
    assert.are.equal(4, #world)
    local base = tiled_corners(2, 3, 8, 4, 30)
    -- Tiled's flips of the tile image, on a point of the tile
    local flips = {
      function(x, y) return x, y end,
      function(x, y) return 16 - x, y end,
      function(x, y) return x, 16 - y end,
      function(x, y) return y, x end,
    }
    for i, f in ipairs(flips) do
      local expected = {}
      for k, p in ipairs(base) do
        local x, y = f(p[1], p[2])
        expected[k] = { x + 16 * (i - 1), y }
      end
      assert_same_points(box_of(world, items[i]), expected)
      assert.are.equal(i - 1, items[i].col)
    end
  end)

  it("reports a non-square tile flipped diagonally", function()
    local map = small_map({
      { type = "tilelayer", name = "t", width = 2, height = 1, data = { 1, 0x20000001 } },
    }, {
      tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 32,
        tiles = { { id = 0, properties = { collidable = true } } } } },
    })
    local world, items, skipped = tiled.load(map)
    assert.are.equal(1, #world)
    assert.are.equal(0, items[1].col)
    assert.are.equal(1, #skipped)
    assert.are.equal(1, skipped[1].col)
    assert.truthy(skipped[1].reason:find("a 16x32 tile flipped diagonally", 1, true))
  end)

  it("places tiles taller than the grid by their bottom-left corner, with the tileset's offset", function()
    local map = small_map({
      { type = "tilelayer", name = "t", width = 2, height = 2, offsetx = 1, offsety = 2, data = { 0, 0, 0, 1 } },
    }, {
      tilesets = { { name = "big", firstgid = 1, tilewidth = 32, tileheight = 48, tileoffset = { x = 3, y = 4 },
        tiles = { { id = 0, properties = { collidable = true } } } } },
    })
    local world, items = tiled.load(map)
    -- cell (1, 1): bottom-left at (16, 32); the tile is 32 x 48
    assert.are.same({ 16 + 16 + 3 + 1, 32 - 24 + 4 + 2, 16, 24, 0 }, { world:get(items[1]) })
    assert.are.same({ 1, 1 }, { items[1].col, items[1].row })
  end)

  it("reads the chunks of infinite maps", function()
    local map = small_map({
      { type = "tilelayer", name = "t", chunks = {
        { x = -16, y = 0, width = 16, height = 16, data = (function()
          local d = {}
          for i = 1, 256 do d[i] = 0 end
          d[1], d[256] = 1, 1
          return d
        end)() },
      } },
    }, {
      infinite = true,
      tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 16,
        tiles = { { id = 0, properties = { collidable = true } } } } },
    })
    local world, items = tiled.load(map)
    assert.are.equal(2, #world)
    assert.are.same({ -16, 0 }, { items[1].col, items[1].row })
    assert.are.same({ -16 * 16 + 8, 8, 8, 8, 0 }, { world:get(items[1]) })
    assert.are.same({ -1, 15 }, { items[2].col, items[2].row })
  end)

  it("reports tile data and tilesets it cannot read, once per layer", function()
    local tilesets = {
      { name = "inside", firstgid = 1, tilewidth = 16, tileheight = 16,
        tiles = { { id = 0, properties = { collidable = true } },
                  { id = 1, objectGroup = { objects = {
                    { shape = "ellipse", x = 0, y = 0, width = 4, height = 4 } } } } } },
      { name = "outside", firstgid = 10, filename = "outside.tsx" },
      { name = "grid", firstgid = 20, tilewidth = 32, tileheight = 32, tilerendersize = "grid",
        tiles = { { id = 0, properties = { collidable = true } } } },
    }
    local map = small_map({
      { type = "tilelayer", name = "coded", width = 2, height = 1, encoding = "base64", data = "AQAAAA==" },
      { type = "tilelayer", name = "mixed", width = 6, height = 1, data = { 10, 11, 1, 20, 2, 2 } },
      object_layer("objects", { rect(1, 0, 0, 16, 16, 0, { gid = 10 }) }),
    }, { tilesets = tilesets })
    local world, items, skipped = tiled.load(map)
    assert.are.equal(2, #world) -- the block at column 2, and the tile object of the outside tileset
    assert.are.same({ 2, 0 }, { items[1].col, items[1].tile_id })
    assert.are.same({ 8, -8, 8, 8, 0 }, { world:get(items[2]) }) -- bottom-left anchored
    local reasons = {}
    for i, s in ipairs(skipped) do reasons[i] = s.layer .. ": " .. s.reason end
    assert.are.equal(5, #skipped, table.concat(reasons, "\n"))
    assert.truthy(reasons[1]:find('^coded: tile data is string %(encoding "base64"%)'))
    assert.truthy(reasons[2]:find("^mixed: tileset \"outside\" is in an external file %(outside.tsx%)"))
    assert.truthy(reasons[3]:find("^mixed: tileset \"grid\" draws its 32x32 tiles at the map's 16x16 grid size"))
    assert.truthy(reasons[4]:find("^mixed: ellipse: not a box"))
    assert.are.same({ 4, 0, 2 }, { skipped[4].col, skipped[4].row, skipped[4].gid })
    assert.are.same({ 5, 0 }, { skipped[5].col, skipped[5].row })
  end)

  it("reports the tile layers of staggered and hexagonal maps, and loads their objects", function()
    local map = small_map({
      { type = "tilelayer", name = "t", width = 1, height = 1, data = { 1 } },
      object_layer("o", { rect(1, 5, 5, 2, 2) }),
    }, { orientation = "hexagonal" })
    local world, _, skipped = tiled.load(map)
    assert.are.equal(1, #world)
    assert.are.equal(1, #skipped)
    assert.truthy(skipped[1].reason:find("hexagonal"))
  end)
end)

describe("obb.tiled.box", function()
  it("gives the box of one object, or nil and the reason", function()
    assert.are.same({ 5, 3, 4, 2, 0 }, { tiled.box(rect(1, 1, 1, 8, 4)) })
    assert.are.same({ 7, 8, 0, 0, 0 }, { tiled.box({ shape = "point", x = 7, y = 8 }) })
    local cx, cy, hx, hy, a = tiled.box(rect(1, 10, 20, 8, 4, 90))
    assert.are.same({ 10 - 2, 20 + 4, 4, 2 }, { cx, cy, hx, hy }) -- exact at quarter turns
    assert.are.equal(math.pi / 2, a)
    assert.are.same({ 4, -2, 4, 2, 0 }, { tiled.box(rect(1, 0, 0, 8, 4, 0, { gid = 5 })) })
    local map = { tilesets = { { firstgid = 1, tilewidth = 8, tileheight = 4, objectalignment = "center" } } }
    assert.are.same({ 0, 0, 4, 2, 0 }, { tiled.box(rect(1, 0, 0, 8, 4, 0, { gid = 5 }), map) })
    local none, reason = tiled.box({ shape = "ellipse", x = 0, y = 0, width = 2, height = 2 })
    assert.is_nil(none)
    assert.truthy(reason:find("^ellipse"))
    assert.truthy(err_of(tiled.box, 3):find("object must be a table, got number", 1, true))
  end)
end)

describe("obb.tiled errors", function()
  it("refuses a map that is neither a table nor a path", function()
    local e = err_of(function() local _ = tiled.load(42) end)
    assert.truthy(e:find("obb.tiled: map must be a table or the path of a Lua file, got number", 1, true))
    assert.truthy(e:find("tiled_spec.lua:%d+: obb.tiled")) -- the caller's line
    e = err_of(function() local _ = tiled.add(obb.world2(), {}, 1) end)
    assert.truthy(e:find("tiled_spec.lua:%d+: obb.tiled: options must be a table"))
    e = err_of(function() local _ = tiled.add(nil, {}) end)
    assert.truthy(e:find("tiled_spec.lua:%d+: obb.tiled: world must be"))
    assert.truthy(err_of(tiled.load):find("got nil", 1, true))
  end)

  it("refuses a file it cannot load or that returns no table", function()
    assert.truthy(err_of(tiled.load, "examples/maps/no_such_map.lua"):find("obb.tiled: cannot load map", 1, true))
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("return 'a map'")
    f:close()
    assert.truthy(err_of(tiled.load, path):find("returned string, not a table", 1, true))
    f = assert(io.open(path, "w"))
    f:write("return {")
    f:close()
    assert.truthy(err_of(tiled.load, path):find("obb.tiled: cannot load map", 1, true))
    f = assert(io.open(path, "w"))
    f:write("error('boom')")
    f:close()
    assert.truthy(err_of(tiled.load, path):find("raised an error: .*boom"))
    os.remove(path)
  end)

  it("refuses a map without layers", function()
    assert.truthy(err_of(tiled.load, {})
      :find("obb.tiled: map.layers must be a table (is this a Tiled Lua export?), got nil", 1, true))
    assert.truthy(err_of(tiled.load, { layers = "x" }):find("map.layers must be a table", 1, true))
    local e = err_of(tiled.load, { layers = { { type = "objectgroup", name = "l" } } })
    assert.truthy(e:find("map.layers[1].objects must be a table, got nil", 1, true))
    e = err_of(tiled.load, { layers = { { type = "terrain" } } })
    assert.truthy(e:find('map.layers[1].type must be "objectgroup", "tilelayer", "imagelayer" or "group", ' ..
      'got "terrain"', 1, true))
  end)

  it("names the field of an object with a bad number, and adds nothing", function()
    local world = obb.world2()
    local bad = rect(2, 0, 0, 1, 1)
    bad.x = nil
    local map = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1), bad }) })
    local e = err_of(tiled.add, world, map)
    assert.truthy(e:find("obb.tiled: map.layers[1].objects[2].x must be a finite number, got nil", 1, true))
    assert.are.equal(0, #world)
    bad.x, bad.width = 0, -1
    assert.truthy(err_of(tiled.add, world, map):find("objects[2].width must be >= 0, got -1", 1, true))
    bad.width, bad.rotation = 1, 0 / 0
    assert.truthy(err_of(tiled.add, world, map):find("objects[2].rotation must be a finite number", 1, true))
    bad.rotation, bad.properties = 0, "oneway"
    assert.truthy(err_of(tiled.add, world, map):find("objects[2].properties must be a table, got string", 1, true))
    assert.are.equal(0, #world)
  end)

  it("refuses a gid in no tileset and isometric maps", function()
    local map = small_map({ object_layer("l", { rect(1, 0, 0, 1, 1, 0, { gid = 3 }) }) })
    assert.truthy(err_of(tiled.load, map)
      :find("map.layers[1].objects[1].gid: gid 3 is in no tileset of the map", 1, true))
    local iso = small_map({ object_layer("l", {}) }, { orientation = "isometric" })
    assert.truthy(err_of(tiled.load, iso):find("obb.tiled: isometric maps are not supported", 1, true))
  end)

  it("refuses bad options and worlds", function()
    local map = small_map({})
    assert.truthy(err_of(tiled.load, map, "collision"):find("options must be a table, got string", 1, true))
    assert.truthy(err_of(tiled.load, map, { layer = "collision" })
      :find('unknown option "layer" (did you mean "layers"?)', 1, true))
    assert.truthy(err_of(tiled.load, map, { layers = { 1 } }):find("options.layers[1] must be a string", 1, true))
    assert.truthy(err_of(tiled.load, map, { property = true }):find("options.property must be a string", 1, true))
    assert.truthy(err_of(tiled.load, map, { filter = "x" }):find("options.filter must be a function", 1, true))
    assert.truthy(err_of(tiled.load, map, { strict = 1 }):find("options.strict must be a boolean", 1, true))
    assert.truthy(err_of(tiled.add, nil, map):find("world must be a 2D obb world (obb.world2()), got nil", 1, true))
    assert.truthy(err_of(tiled.add, {}, map):find("got table", 1, true))
    local w3 = obb.world3()
    assert.truthy(err_of(tiled.add, w3, map):find("got world3", 1, true))
    local closed = obb.world2()
    closed:close()
    assert.truthy(err_of(tiled.add, closed, small_map({ object_layer("l", { rect(1, 0, 0, 1, 1) }) }))
      :find("closed", 1, true))
  end)

  -- Issue 40: tiled.load(path, { cell = 32 }) said only `unknown option
  -- "cell"`. An unknown option names what to use instead.
  it("names what to use instead of an unknown option", function()
    local map = small_map({})
    local function e(opts) return err_of(tiled.load, map, opts) end
    local function has(text, piece) assert.truthy(text:find(piece, 1, true), text) end
    -- the world's options: make the world, then tiled.add
    has(e({ cell = 32 }), 'obb.tiled: unknown option "cell": cell is an option of the world, not of the map: ' ..
      "make the world yourself and add the map to it: local world = obb.world2{ cell = 32 }; " ..
      "tiled.add(world, map, options)")
    has(e({ margin = 0 }), "local world = obb.world2{ margin = 0 }; tiled.add(world, map, options)")
    has(e({ cells = 16 }), 'unknown option "cells": did you mean cell, an option of the world, not of the map? ' ..
      "Make the world yourself and add the map to it: local world = obb.world2{ cell = 16 }")
    has(e({ cell = "big" }), "obb.world2{ cell = 32 }") -- an example, not the value given
    has(err_of(tiled.add, obb.world2(), map, { cell = 8 }), "obb.world2{ cell = 8 }")
    -- misspellings: the nearest option
    for wrong, right in pairs({ layer = "layers", Layers = "layers", propery = "property", strcit = "strict",
      filtre = "filter", tileProperty = "tile_property", tile_prop = "tile_property", maxBytes = "max_bytes",
      clases = "classes", max_valeus = "max_values" }) do
      has(e({ [wrong] = 1 }), ('obb.tiled: unknown option "%s" (did you mean "%s"?)'):format(wrong, right))
    end
    -- intents recognised by name
    has(e({ class = {} }), 'unknown option "class": classes = { wall = 1, coin = 2 } maps Tiled types')
    has(e({ types = {} }), "classes = { wall = 1, coin = 2 }")
    has(e({ visible = true }), "filter = function(item) return item.visible ~= false end")
    has(e({ scale = 2 }), "obb.tiled keeps Tiled's pixels, y down: convert the boxes yourself")
    has(e({ world = obb.world2() }), "tiled.add(world, map, options) adds the map to a world you made")
    has(e({ collidable = true }), 'property = "collidable" reads only the layers with that property')
    has(e({ spawns = false }), 'points = "list" (the default) returns point objects in their own list')
    has(e({ points_as_boxes = true }), 'points = "add" adds them as boxes of zero size')
    has(e({ responses = {} }), 'world:move(item, x, y, obb.responses{ [1] = "cross" }, out)')
    has(e({ "collision" }), 'unknown option 1: options are named; layer names go in layers = { "collision" }')
    -- nothing recognisable: the list of options
    local list = "(the options: classes, filter, layers, max_bytes, max_depth, max_tables, max_values, points, " ..
      "property, strict, tile_property)"
    has(e({ zzz = 1 }), 'unknown option "zzz" ' .. list)
    has(e({ max = 1 }), list) -- the start of three options: none is chosen
    has(e({ [true] = 1 }), "unknown option true " .. list)
    -- several unknown: the first in order, whatever pairs gives
    has(e({ zebra = 1, cell = 2, [5] = 3 }), 'unknown option "cell"')
  end)

  it("passes a filter's error on and takes its additions back", function()
    local world = obb.world2()
    local n = 0
    local e = err_of(tiled.add, world, MAP, { filter = function()
      n = n + 1
      if n == 20 then error("filter failed") end
      return true
    end })
    assert.truthy(e:find("filter failed", 1, true))
    assert.are.equal(0, #world)
  end)
end)
