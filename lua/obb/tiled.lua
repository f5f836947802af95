-- obb.tiled: loads the collision shapes of a map exported by Tiled as Lua
-- (File > Export As > Lua, the `return { ... }` file LÖVE games load) into
-- an obb world. docs/tiled.md is the manual.
--
-- Pure Lua (5.1 to 5.4 and LuaJIT). Coordinates stay Tiled's: pixels, y
-- down. A Tiled rotation of r degrees (clockwise on the screen, about the
-- object's anchor) is the obb angle math.rad(r) in those y-down
-- coordinates, since obb's counter-clockwise-in-y-up is clockwise on a
-- y-down screen. Rectangles, points (boxes of zero size) and tile objects
-- are added; ellipses, polygons, polylines and text are returned in a
-- `skipped` list with the reason, never dropped silently. Tiles of tile
-- layers are added when their tileset tile has collision shapes or a
-- `collidable` property.
--
--   local tiled = require "obb.tiled"
--   local world, items, skipped = tiled.load("maps/level1.lua", { property = "collidable" })
--   for _, s in ipairs(skipped) do print(s.layer, s.id, s.reason) end

local obb = require "obb"

local M = {}

local format, concat = string.format, table.concat
local floor, sin, cos, rad = math.floor, math.sin, math.cos, math.rad

-- The gid flags of Tiled's tile layers and tile objects (bits 31 to 28).
local FLIP_H, FLIP_V, FLIP_D = 8, 4, 2
local GID_FLAGS = 0x10000000 -- 2^28: gid = flags * 2^28 + tile gid

-- A world's methods, to recognise a world: 2D and 3D worlds share them,
-- tostring tells which.
local WORLD_METHODS
do
  local w = obb.world2()
  WORLD_METHODS = getmetatable(w)
  w:close()
end

-- ---- errors ------------------------------------------------------------
-- Errors about the map name the place in it (map.layers[2].objects[5].x)
-- and carry no position; errors about the caller's arguments point at the
-- caller.

local function fail(msg, ...)
  error("obb.tiled: " .. format(msg, ...), 0)
end

local function finite(x)
  return type(x) == "number" and x == x and x - x == 0
end

local function describe_value(v)
  if type(v) == "string" then return format("%q", v) end
  return tostring(v)
end

-- A number field of a map table: default when nil (if a default is given).
local function number(t, key, where, default)
  local v = t[key]
  if v == nil and default ~= nil then return default end
  if not finite(v) then
    fail("%s.%s must be a finite number, got %s", where, key, describe_value(v))
  end
  return v
end

local function size(t, key, where)
  local v = number(t, key, where, 0)
  if v < 0 then fail("%s.%s must be >= 0, got %s", where, key, describe_value(v)) end
  return v
end

local function table_field(t, key, where, optional)
  local v = t[key]
  if v == nil and optional then return nil end
  if type(v) ~= "table" then
    fail("%s.%s must be a table, got %s", where, key, type(v))
  end
  return v
end

-- ---- geometry ----------------------------------------------------------

-- sin and cos of r degrees, exact at multiples of 90 (so a quarter-turned
-- rectangle lands exactly on whole pixels).
local function sincos_deg(r)
  local q = r / 90
  if q == floor(q) then
    local k = q % 4
    if k == 0 then return 0, 1 elseif k == 1 then return 1, 0
    elseif k == 2 then return 0, -1 else return -1, 0 end
  end
  local a = rad(r)
  return sin(a), cos(a)
end

-- The box of a w x h rectangle whose anchor, at the fraction (ax, ay) of
-- its width and height from its top-left corner, is at (x, y), turned r
-- degrees clockwise on a y-down screen about the anchor: cx, cy, hx, hy,
-- angle. The center is the anchor plus the anchor-to-center offset turned
-- by r; in y-down coordinates that turn is (u, v) -> (u cos - v sin,
-- u sin + v cos), obb's counter-clockwise formula, and the box's angle is
-- math.rad(r).
local function anchored_box(x, y, w, h, r, ax, ay)
  local u, v = (0.5 - ax) * w, (0.5 - ay) * h
  if r == 0 then return x + u, y + v, w / 2, h / 2, 0 end
  local s, c = sincos_deg(r)
  return x + u * c - v * s, y + u * s + v * c, w / 2, h / 2, rad(r)
end

-- Where a tileset puts a tile object's (x, y) on the tile: the fraction of
-- its width and height from the top-left corner.
local ALIGN = {
  topleft = { 0, 0 }, top = { 0.5, 0 }, topright = { 1, 0 },
  left = { 0, 0.5 }, center = { 0.5, 0.5 }, right = { 1, 0.5 },
  bottomleft = { 0, 1 }, bottom = { 0.5, 1 }, bottomright = { 1, 1 },
}

-- ---- gids and tilesets -------------------------------------------------

-- A gid as Tiled writes it: the tile's gid and its flip flags. Tiled writes
-- flagged gids as unsigned 32-bit numbers; some exporters wrote them as
-- signed ones, so a negative gid is read as its unsigned bits.
local function split_gid(gid, where)
  if not finite(gid) or gid ~= floor(gid) then
    fail("%s must be an integer gid, got %s", where, describe_value(gid))
  end
  if gid < 0 then gid = gid + 4294967296 end
  local id = gid % GID_FLAGS
  local flags = (gid - id) / GID_FLAGS
  return id, flags
end

-- The map's tilesets, sorted by firstgid, with a lookup by gid.
local function tileset_index(map)
  local list = {}
  local tilesets = table_field(map, "tilesets", "map", true) or {}
  for i, ts in ipairs(tilesets) do
    local where = format("map.tilesets[%d]", i)
    if type(ts) ~= "table" then fail("%s must be a table, got %s", where, type(ts)) end
    local first = number(ts, "firstgid", where)
    list[#list + 1] = { ts = ts, first = first, where = where }
  end
  table.sort(list, function(a, b) return a.first < b.first end)
  local cache = {}
  return function(gid, where)
    local hit = cache[gid]
    if hit then return hit.ts, hit.id, hit.where end
    local found
    for _, e in ipairs(list) do
      if e.first <= gid then found = e else break end
    end
    if found == nil then
      fail("%s: gid %d is in no tileset of the map", where, gid)
    end
    cache[gid] = { ts = found.ts, id = gid - found.first, where = found.where }
    return found.ts, gid - found.first, found.where
  end
end

-- A tileset's tile by its local id (nil when the tileset says nothing
-- about it), indexed once per call in `indexes`.
local function tile_of(indexes, ts, id, where)
  local index = indexes[ts]
  if index == nil then
    index = {}
    local tiles = table_field(ts, "tiles", where, true) or {}
    for i, t in ipairs(tiles) do
      local w = format("%s.tiles[%d]", where, i)
      if type(t) ~= "table" then fail("%s must be a table, got %s", w, type(t)) end
      index[number(t, "id", w)] = t
    end
    indexes[ts] = index
  end
  return index[id]
end

local function external(ts)
  return ts.filename ~= nil and ts.tilewidth == nil
end

-- ---- shapes ------------------------------------------------------------

local UNSUPPORTED = {
  ellipse = "ellipse: not a box (draw it as a rectangle, or use its width and height yourself)",
  polygon = "polygon: not a box (obb.fit2 on its points gives a box around it)",
  polyline = "polyline: not a box",
  text = "text: a text object is not a collision shape",
}

local function object_type(object)
  if object.type ~= nil then return object.type end
  return object.class
end

-- The box of one object in its own coordinates (no layer offsets): cx, cy,
-- hx, hy, angle; or nil and the reason it has none. `find` is the map's
-- tileset lookup (tile objects only).
local function object_box(object, where, find)
  local x, y = number(object, "x", where), number(object, "y", where)
  local w, h = size(object, "width", where), size(object, "height", where)
  local r = number(object, "rotation", where, 0)
  if object.gid ~= nil then
    local ax, ay = 0, 1 -- bottom-left, Tiled's default on orthogonal maps
    if find then
      local gid = split_gid(object.gid, where .. ".gid")
      local ts = find(gid, where .. ".gid")
      local align = ts.objectalignment
      if align ~= nil and align ~= "unspecified" then
        local a = ALIGN[align]
        if a == nil then
          fail("%s: tileset objectalignment %s is not one Tiled writes", where, describe_value(align))
        end
        ax, ay = a[1], a[2]
      end
    end
    return anchored_box(x, y, w, h, r, ax, ay)
  end
  local shape = object.shape
  if shape == nil then shape = "rectangle" end
  if shape == "rectangle" then
    return anchored_box(x, y, w, h, r, 0, 0)
  elseif shape == "point" then
    return x, y, 0, 0, 0
  end
  local reason = UNSUPPORTED[shape]
  if reason == nil then reason = format("shape %s: not a shape Tiled writes", describe_value(shape)) end
  return nil, reason
end

-- The collision shapes of a tileset tile, in the tile's own pixels: a list
-- of {cx, cy, hx, hy, deg, object} or {reason = ..., object}. A tile with
-- an objectGroup collides by its shapes; one without, by the whole tile
-- when its `prop` property is true; `prop = false` turns both off.
local function tile_shapes(tile, tw, th, prop, where)
  if tile == nil then return {} end
  local props = tile.properties
  if props ~= nil and type(props) ~= "table" then
    fail("%s.properties must be a table, got %s", where, type(props))
  end
  local flag = props and props[prop]
  if flag == false then return {} end
  local gwhere = where .. ".objectGroup"
  local group = table_field(tile, "objectGroup", where, true)
  local objects = group and table_field(group, "objects", gwhere, true)
  if objects ~= nil and #objects > 0 then
    local ox, oy = number(group, "offsetx", gwhere, 0), number(group, "offsety", gwhere, 0)
    local list = {}
    for i, o in ipairs(objects) do
      local owhere = format("%s.objects[%d]", gwhere, i)
      if type(o) ~= "table" then fail("%s must be a table, got %s", owhere, type(o)) end
      if o.gid ~= nil then
        list[#list + 1] = { reason = "tile object inside a tile's collision shapes: not supported", object = o }
      else
        local cx, cy, hx, hy = object_box(o, owhere)
        if cx == nil then
          list[#list + 1] = { reason = cy, object = o }
        else
          list[#list + 1] = { cx + ox, cy + oy, hx, hy, number(o, "rotation", owhere, 0), object = o }
        end
      end
    end
    return list
  end
  if flag then return { { tw / 2, th / 2, tw / 2, th / 2, 0 } } end
  return {}
end

-- ---- options -----------------------------------------------------------

local OPTIONS = { layers = true, property = true, filter = true, strict = true, tile_property = true }

local function check_options(opts, level)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    error(format("obb.tiled: options must be a table, got %s", type(opts)), level + 1)
  end
  for k in pairs(opts) do
    if not OPTIONS[k] then
      error(format("obb.tiled: unknown option %s", describe_value(k)), level + 1)
    end
  end
  local names = opts.layers
  if type(names) == "string" then names = { names } end
  if names ~= nil then
    if type(names) ~= "table" then
      error(format("obb.tiled: options.layers must be a layer name or a list of them, got %s", type(names)), level + 1)
    end
    local set = {}
    for i, n in ipairs(names) do
      if type(n) ~= "string" then
        error(format("obb.tiled: options.layers[%d] must be a string, got %s", i, type(n)), level + 1)
      end
      set[n] = false -- becomes true when a layer of that name is found
    end
    names = set
  end
  local function kind(key, want)
    local v = opts[key]
    if v ~= nil and type(v) ~= want then
      error(format("obb.tiled: options.%s must be a %s, got %s", key, want, type(v)), level + 1)
    end
  end
  kind("property", "string")
  kind("tile_property", "string")
  kind("filter", "function")
  kind("strict", "boolean")
  return {
    names = names,
    property = opts.property,
    filter = opts.filter,
    strict = opts.strict,
    tile_property = opts.tile_property or "collidable",
  }
end

-- ---- loading -----------------------------------------------------------

-- The map table from a table, or from a path: love.filesystem.load inside
-- LÖVE (the game's own files), loadfile elsewhere.
local function read_map(map, level)
  if type(map) == "table" then return map end
  if type(map) ~= "string" then
    error(format("obb.tiled: map must be a table or the path of a Lua file, got %s", type(map)), level + 1)
  end
  local love = rawget(_G, "love")
  local chunk, err
  if type(love) == "table" and type(love.filesystem) == "table" and love.filesystem.load then
    local ok
    ok, chunk, err = pcall(love.filesystem.load, map)
    if not ok then chunk, err = nil, chunk end
  else
    chunk, err = loadfile(map)
  end
  if not chunk then fail("cannot load map %s: %s", map, tostring(err)) end
  local ok, result = pcall(chunk)
  if not ok then fail("map %s raised an error: %s", map, tostring(result)) end
  if type(result) ~= "table" then
    fail("map %s returned %s, not a table (a Tiled Lua export returns one)", map, type(result))
  end
  return result
end

local function check_world(world, level)
  if getmetatable(world) ~= WORLD_METHODS or not tostring(world):find("^obb%.world2 ") then
    local got = type(world)
    if getmetatable(world) == WORLD_METHODS then got = tostring(world) end
    error(format("obb.tiled: world must be a 2D obb world (obb.world2()), got %s", got), level + 1)
  end
end

-- Copies an object's fields into a new item table, with the layer's name.
local function object_item(object, layer_name)
  local item = {}
  for k, v in pairs(object) do item[k] = v end
  item.type = object_type(object)
  if item.class == nil then item.class = item.type end
  if item.properties == nil then item.properties = {} end
  item.layer = layer_name
  item.object = object
  return item
end

-- The loader's state for one call.
local Load = {}
Load.__index = Load

function Load:add(item, cx, cy, hx, hy, angle)
  self.world:add(item, cx, cy, hx, hy, angle)
  self.items[#self.items + 1] = item
end

function Load:skip(item, reason, where)
  if self.opts.strict then fail("%s: %s", where, reason) end
  item.reason = reason
  self.skipped[#self.skipped + 1] = item
end

function Load:keep(item, layer)
  return self.opts.filter == nil or self.opts.filter(item, layer)
end

function Load:objects(layer, name, dx, dy, where)
  local objects = table_field(layer, "objects", where)
  for i, object in ipairs(objects) do
    local owhere = format("%s.objects[%d]", where, i)
    if type(object) ~= "table" then fail("%s must be a table, got %s", owhere, type(object)) end
    local props = object.properties
    if props ~= nil and type(props) ~= "table" then
      fail("%s.properties must be a table, got %s", owhere, type(props))
    end
    local cx, cy, hx, hy, angle = object_box(object, owhere, self.find)
    local item = object_item(object, name)
    if self:keep(item, layer) then
      if cx == nil then
        self:skip(item, cy, owhere)
      else
        self:add(item, cx + dx, cy + dy, hx, hy, angle)
      end
    end
  end
end

-- One cell of a tile layer: col, row count from the layer's (or chunk's)
-- top-left cell of the map, 0-based as Tiled shows them.
function Load:cell(layer, name, raw, col, row, dx, dy, where)
  local gid, flags = split_gid(raw, where)
  if gid == 0 then return end
  local ts, id, tswhere = self.find(gid, where)
  if external(ts) then
    local key = name .. "\0" .. tswhere
    if not self.reported[key] then
      self.reported[key] = true
      self:skip({ layer = name, tileset = ts.name },
        format("tileset %s is in an external file (%s): export the map with 'Embed tilesets'",
          describe_value(ts.name), tostring(ts.filename)), where)
    end
    return
  end
  local tile = tile_of(self.tile_index, ts, id, tswhere)
  -- an image collection's tiles have their own sizes
  local tw, th = number(ts, "tilewidth", tswhere), number(ts, "tileheight", tswhere)
  if tile ~= nil then
    tw = number(tile, "width", tswhere .. " tile " .. id, tw)
    th = number(tile, "height", tswhere .. " tile " .. id, th)
  end
  local cache = self.shape_cache[ts]
  if cache == nil then cache = {}; self.shape_cache[ts] = cache end
  local shapes = cache[id]
  if shapes == nil then
    shapes = tile_shapes(tile, tw, th, self.opts.tile_property, format("%s (tile %d)", tswhere, id))
    cache[id] = shapes
  end
  if #shapes == 0 then return end
  if ts.tilerendersize == "grid" and (tw ~= self.tw or th ~= self.th) then
    local key2 = name .. "\0" .. tswhere .. "\0grid"
    if not self.reported[key2] then
      self.reported[key2] = true
      self:skip({ layer = name, tileset = ts.name },
        format("tileset %s draws its %gx%g tiles at the map's %gx%g grid size (tilerendersize 'grid'): not supported",
          describe_value(ts.name), tw, th, self.tw, self.th), where)
    end
    return
  end
  local offset = ts.tileoffset
  local ox = offset and number(offset, "x", tswhere .. ".tileoffset", 0) or 0
  local oy = offset and number(offset, "y", tswhere .. ".tileoffset", 0) or 0
  -- drawn with its bottom-left corner at the cell's bottom-left corner
  local x = col * self.tw + ox + dx
  local y = (row + 1) * self.th - th + oy + dy
  local fh, fv, fd = flags >= FLIP_H, flags % FLIP_H >= FLIP_V, flags % FLIP_V >= FLIP_D
  for _, s in ipairs(shapes) do
    local item = {
      layer = name, col = col, row = row, x = x, y = y, width = tw, height = th,
      gid = gid, flip_h = fh, flip_v = fv, flip_d = fd,
      tileset = ts.name, tile_id = id, tile = tile,
      type = tile and object_type(tile), properties = tile and tile.properties or {},
      shape = s.object and (s.object.shape or "rectangle") or "rectangle", object = s.object,
    }
    item.class = tile and tile.class or item.type
    if self:keep(item, layer) then
      if s.reason then
        self:skip(item, s.reason, where)
      elseif fd and tw ~= th then
        self:skip(item, format("a %gx%g tile flipped diagonally (turned a quarter): only square tiles are turned",
          tw, th), where)
      else
        -- Tiled flips the tile image: first across its diagonal (x and y
        -- swapped), then horizontally, then vertically. A flip mirrors a
        -- shape, so its rotation changes sign; the diagonal flip also
        -- swaps the box's half extents (the box turned by -deg with its
        -- axes exchanged covers the mirrored shape).
        local cx, cy, hx, hy, deg = s[1], s[2], s[3], s[4], s[5]
        if fd then cx, cy, hx, hy, deg = cy, cx, hy, hx, -deg end
        if fh then cx, deg = tw - cx, -deg end
        if fv then cy, deg = th - cy, -deg end
        self:add(item, x + cx, y + cy, hx, hy, deg == 0 and 0 or rad(deg))
      end
    end
  end
end

function Load:tiles(layer, name, dx, dy, where)
  if self.orientation ~= "orthogonal" then
    self:skip({ layer = name },
      format("tile layer of a %s map: only orthogonal maps' tiles are loaded", tostring(self.orientation)), where)
    return
  end
  if self.tw == nil then
    self.tw = number(self.map, "tilewidth", "map")
    self.th = number(self.map, "tileheight", "map")
  end
  local function grid(t, cols, x0, y0, gwhere)
    local data = t.data
    if type(data) ~= "table" then
      self:skip({ layer = name },
        format("tile data is %s (encoding %s): export with the tile layer format CSV (written as a Lua table)",
          type(data), describe_value(t.encoding or layer.encoding)), gwhere)
      return
    end
    for i, raw in ipairs(data) do
      if raw ~= 0 then
        local k = i - 1
        self:cell(layer, name, raw, x0 + k % cols, y0 + floor(k / cols), dx, dy,
          format("%s.data[%d]", gwhere, i))
      end
    end
  end
  if layer.chunks ~= nil then
    for i, chunk in ipairs(table_field(layer, "chunks", where)) do
      local cwhere = format("%s.chunks[%d]", where, i)
      if type(chunk) ~= "table" then fail("%s must be a table, got %s", cwhere, type(chunk)) end
      grid(chunk, number(chunk, "width", cwhere), number(chunk, "x", cwhere), number(chunk, "y", cwhere), cwhere)
    end
  else
    grid(layer, number(layer, "width", where), 0, 0, where)
  end
end

-- Whether a layer is chosen: by its name or an enclosing group's (the
-- `layers` option), and by its or an enclosing group's property (the
-- `property` option); both when both are given.
function Load:walk(layers, where, dx, dy, by_name, by_property)
  local opts = self.opts
  for i, layer in ipairs(layers) do
    local lwhere = format("%s[%d]", where, i)
    if type(layer) ~= "table" then fail("%s must be a table, got %s", lwhere, type(layer)) end
    local name = layer.name
    if name ~= nil and type(name) ~= "string" then
      fail("%s.name must be a string, got %s", lwhere, type(name))
    end
    local props = layer.properties
    if props ~= nil and type(props) ~= "table" then
      fail("%s.properties must be a table, got %s", lwhere, type(props))
    end
    local named = by_name
    if opts.names and name ~= nil and opts.names[name] ~= nil then
      opts.names[name] = true
      named = true
    end
    local has = by_property or (opts.property ~= nil and props ~= nil and
      props[opts.property] ~= nil and props[opts.property] ~= false)
    local lx = dx + number(layer, "offsetx", lwhere, 0)
    local ly = dy + number(layer, "offsety", lwhere, 0)
    local chosen = (opts.names == nil or named) and (opts.property == nil or has)
    local kind = layer.type
    if kind == "group" then
      self:walk(table_field(layer, "layers", lwhere), lwhere .. ".layers", lx, ly, named, has)
    elseif chosen and kind == "objectgroup" then
      self:objects(layer, name, lx, ly, lwhere)
    elseif chosen and kind == "tilelayer" then
      self:tiles(layer, name, lx, ly, lwhere)
    elseif kind ~= "objectgroup" and kind ~= "tilelayer" and kind ~= "imagelayer" then
      fail("%s.type must be \"objectgroup\", \"tilelayer\", \"imagelayer\" or \"group\", got %s",
        lwhere, describe_value(kind))
    end
  end
end

local function add(world, map, opts, level)
  check_world(world, level + 1)
  opts = check_options(opts, level + 1)
  map = read_map(map, level + 1)
  local layers = map.layers
  if type(layers) ~= "table" then
    fail("map.layers must be a table (is this a Tiled Lua export?), got %s", type(layers))
  end
  local orientation = map.orientation
  if orientation == nil then orientation = "orthogonal" end
  if orientation == "isometric" then
    fail("isometric maps are not supported: their objects' coordinates are not screen pixels")
  end
  local self = setmetatable({
    world = world, map = map, opts = opts, orientation = orientation,
    find = tileset_index(map), items = {}, skipped = {},
    shape_cache = {}, tile_index = {}, reported = {},
  }, Load)
  -- A call that raises (a bad map, strict, a filter's error) takes out
  -- what it added: the world is as it was.
  local ok, err = pcall(function()
    self:walk(layers, "map.layers", 0, 0, false, false)
    if opts.names then
      local missing = {}
      for n, seen in pairs(opts.names) do
        if not seen then missing[#missing + 1] = format("%q", n) end
      end
      if #missing > 0 then
        table.sort(missing)
        fail("no layer named %s in the map", concat(missing, ", "))
      end
    end
  end)
  if not ok then
    for _, item in ipairs(self.items) do world:remove(item) end
    error(err, 0)
  end
  return self.items, self.skipped
end

-- tiled.add(world, map [, options]) -> items, skipped
-- Adds the map's collision shapes to an obb.world2 (see docs/tiled.md).
function M.add(world, map, opts)
  local items, skipped = add(world, map, opts, 2) -- not a tail call: error levels count this frame
  return items, skipped
end

-- tiled.load(map [, options]) -> world, items, skipped
-- The same into a new obb.world2().
function M.load(map, opts)
  local world = obb.world2()
  local items, skipped = add(world, map, opts, 2)
  return world, items, skipped
end

-- tiled.box(object [, map]) -> cx, cy, hx, hy, angle, or nil, reason
-- The box of one Tiled object in the object's own coordinates (no layer
-- offsets). A tile object's anchor comes from its tileset's
-- objectalignment when the map is given, else bottom-left.
function M.box(object, map)
  if type(object) ~= "table" then
    error(format("obb.tiled.box: object must be a table, got %s", type(object)), 2)
  end
  if map ~= nil and type(map) ~= "table" then
    error(format("obb.tiled.box: map must be a table, got %s", type(map)), 2)
  end
  local find = map and tileset_index(map)
  return object_box(object, "object", find)
end

return M
