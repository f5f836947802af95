-- obb.tiled: loads the collision shapes of a map exported by Tiled as Lua
-- (File > Export As > Lua, the `return { ... }` file LÖVE games load) or
-- as JSON into an obb world. docs/tiled.md is the manual.
--
-- A map file is read as data (obb.mapdata), never run: maps are what mods
-- ship, and running one would run whatever it holds. Every field the
-- loader reads is checked, and an error names the place in the map
-- (map.layers[2].objects[5].width) and what was wrong with it.
--
-- Pure Lua (5.1 to 5.4 and LuaJIT). Coordinates stay Tiled's: pixels, y
-- down. A Tiled rotation of r degrees (clockwise on the screen, about the
-- object's anchor) is the obb angle math.rad(r) in those y-down
-- coordinates, since obb's counter-clockwise-in-y-up is clockwise on a
-- y-down screen. Rectangles and tile objects are added; point objects
-- (spawns, markers) are returned in a `points` list, out of the world
-- (options.points = "add" adds them as boxes of zero size); ellipses,
-- polygons, polylines and text are returned in a `skipped` list with the
-- reason, never dropped silently. Tiles of tile layers are added when
-- their tileset tile has collision shapes or a `collidable` property.
-- options.classes gives the items the obb classes of their Tiled types
-- (world:set_class), for response sets.
--
--   local tiled = require "obb.tiled"
--   local world, items, skipped, points = tiled.load("maps/level1.lua", { property = "collidable" })
--   for _, s in ipairs(skipped) do print(s.layer, s.id, s.reason) end

local obb = require "obb"
local mapdata = require "obb.mapdata"
local finite = obb._lua.finite -- (src/binding/lobb_open.c)

local M = {}

local format, concat = string.format, table.concat
local floor, sin, cos, rad, huge = math.floor, math.sin, math.cos, math.rad, math.huge
local unpack = table.unpack or unpack -- luacheck: ignore 143

-- The gid flags of Tiled's tile layers and tile objects (bits 31 to 28).
local FLIP_H, FLIP_V, FLIP_D = 8, 4, 2
local GID_FLAGS = 0x10000000 -- 2^28: gid = flags * 2^28 + tile gid

-- Tells a 2D world ("world2") from anything else, by its real metatable
-- and tag (obb.type, captured at load).
local obb_type = obb.type

-- ---- errors ------------------------------------------------------------
-- Errors about the map name the place in it (map.layers[2].objects[5].x)
-- and carry no position; errors about the caller's arguments point at the
-- caller.

-- A place in the map, made as the loader goes and written out only when
-- an error names it: { parent place (or the root's name), key }, the key a
-- suffix (".objects") or an index ([3]). Building "map.layers[1].layers[1]
-- ..." for every layer of a deep map would take memory quadratic in its
-- depth; a place takes the same few bytes at any depth.
local Place = {}

local function at(parent, key)
  return setmetatable({ parent, key }, Place)
end

local function place_text(p)
  local parts, n = {}, 0
  while getmetatable(p) == Place do
    local key = p[2]
    n = n + 1
    parts[n] = type(key) == "number" and format("[%d]", key) or key
    p = p[1]
  end
  n = n + 1
  parts[n] = tostring(p)
  for i = 1, floor(n / 2) do parts[i], parts[n + 1 - i] = parts[n + 1 - i], parts[i] end
  return concat(parts, "", 1, n)
end

local function fail(msg, ...)
  local n = select("#", ...)
  local args = { ... }
  for i = 1, n do
    if getmetatable(args[i]) == Place then args[i] = place_text(args[i]) end
  end
  error("obb.tiled: " .. format(msg, unpack(args, 1, n)), 0)
end

local function describe_value(v)
  if type(v) == "string" then return format("%q", v) end
  if type(v) == "number" or type(v) == "boolean" or v == nil then return tostring(v) end
  return "a " .. type(v) -- not its address, which says nothing about the map
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

-- A whole number field (sizes of grids, firstgid): at least `min`.
local function integer(t, key, where, min, default)
  local v = number(t, key, where, default)
  if v ~= floor(v) or v < min then
    if min == -huge then fail("%s.%s must be a whole number, got %s", where, key, describe_value(v)) end
    fail("%s.%s must be a whole number >= %d, got %s", where, key, min, describe_value(v))
  end
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

-- The length of a list, refusing a gap: ipairs stops at the first nil, so
-- the entries after a gap ({ a, nil, b }, or keys 1 and 3) would be
-- dropped without a word.
local function list_length(list, where)
  local n = 0
  while list[n + 1] ~= nil do n = n + 1 end
  for k in pairs(list) do
    if type(k) == "number" and k > n and k == floor(k) and k < huge then
      fail("%s has a gap: [%d] is nil but [%s] is set (a list must have no holes)", where, n + 1, format("%.17g", k))
    end
  end
  return n
end

-- A list field (objects, layers, tilesets, tiles, data, chunks): the
-- table and its length; nil, 0 when optional and absent.
local function list_field(t, key, where, optional)
  local v = table_field(t, key, where, optional)
  if v == nil then return nil, 0 end
  return v, list_length(v, at(where, "." .. key))
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
  if not finite(gid) or gid ~= floor(gid) or gid < -2147483648 or gid > 4294967295 then
    fail("%s must be an integer gid (a 32-bit number), got %s", where, describe_value(gid))
  end
  if gid < 0 then gid = gid + 4294967296 end
  local id = gid % GID_FLAGS
  local flags = (gid - id) / GID_FLAGS
  return id, flags
end

-- The map's tilesets, sorted by firstgid, with a lookup by gid.
local function tileset_index(map)
  local list = {}
  local tilesets, n = list_field(map, "tilesets", "map", true)
  for i = 1, n do
    local ts = tilesets[i]
    local where = format("map.tilesets[%d]", i)
    if type(ts) ~= "table" then fail("%s must be a table, got %s", where, type(ts)) end
    -- whole, so that a tile's id (gid - firstgid) is whole too
    local first = integer(ts, "firstgid", where, 1)
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
    local tiles, n = list_field(ts, "tiles", where, true)
    for i = 1, n do
      local t = tiles[i]
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
      local gwhere = at(where, ".gid")
      local gid = split_gid(object.gid, gwhere)
      local ts = find(gid, gwhere)
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
  local gwhere = at(where, ".objectGroup")
  local group = table_field(tile, "objectGroup", where, true)
  local objects, n
  if group then objects, n = list_field(group, "objects", gwhere, true) end
  if objects ~= nil and n > 0 then
    local ox, oy = number(group, "offsetx", gwhere, 0), number(group, "offsety", gwhere, 0)
    local owhere_list = at(gwhere, ".objects")
    local list = {}
    for i = 1, n do
      local o = objects[i]
      local owhere = at(owhere_list, i)
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

local OPTIONS = {
  layers = true, property = true, filter = true, strict = true, tile_property = true,
  points = true, classes = true,
  max_bytes = true, max_depth = true, max_values = true, max_tables = true,
}

-- The options of obb.world2, which tiled.load does not take: the world is
-- the game's to make (obb.world2{ cell = 32 }) and tiled.add's to fill.
local WORLD_OPTIONS = { margin = true, cell = true }

-- What an unknown option most likely meant, by its name with case, "_",
-- "-" and spaces left out: what to use instead.
local CONVERT = "obb.tiled keeps Tiled's pixels, y down: convert the boxes yourself " ..
  "(world:get on each item, or tiled.box; docs/tiled.md, Coordinates)"
local HIDDEN = "Tiled's visibility is no rule of the loader: " ..
  "filter = function(item) return item.visible ~= false end leaves hidden objects out"
local CLASSES = "classes = { wall = 1, coin = 2 } maps Tiled types (or classes) to obb classes: " ..
  "the items of type wall get class 1"
local POINTS = 'points = "list" (the default) returns point objects in their own list, out of the world; ' ..
  'points = "add" adds them as boxes of zero size'
local INTENTS = {
  world = "tiled.add(world, map, options) adds the map to a world you made; tiled.load makes a new one",
  type = CLASSES, types = CLASSES, class = CLASSES, classmap = CLASSES, typeclasses = CLASSES,
  visible = HIDDEN, hidden = HIDDEN, visibility = HIDDEN, skiphidden = HIDDEN, ignorehidden = HIDDEN,
  scale = CONVERT, offset = CONVERT, offsetx = CONVERT, offsety = CONVERT, origin = CONVERT,
  x = CONVERT, y = CONVERT, yup = CONVERT, flipy = CONVERT, units = CONVERT, unit = CONVERT,
  collidable = 'property = "collidable" reads only the layers with that property; ' ..
    "tile_property names the tiles' property that makes a whole tile solid",
  solid = 'property = "solid" reads only the layers with that property; ' ..
    'tile_property = "solid" names the tiles\' property that makes a whole tile solid',
  spawn = POINTS, spawns = POINTS, point = POINTS, skippoints = POINTS, ignorepoints = POINTS,
  pointsasboxes = POINTS, addpoints = POINTS,
  responses = "a response set is a move's filter: world:move(item, x, y, obb.responses{ [1] = \"cross\" }, out); " ..
    CLASSES,
  response = "a response set is a move's filter: world:move(item, x, y, obb.responses{ [1] = \"cross\" }, out); " ..
    CLASSES,
}

local function normal_name(s)
  return (s:lower():gsub("[%s_%-]", ""))
end

-- The edit distance of two short strings (insertions, deletions,
-- substitutions and swaps of neighbours count one each).
local function distance(a, b)
  local la, lb = #a, #b
  local prev2, prev = {}, {}
  for j = 0, lb do prev[j] = j end
  for i = 1, la do
    local cur = { [0] = i }
    local ca = a:byte(i)
    for j = 1, lb do
      local cb = b:byte(j)
      local d = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca == cb and 0 or 1))
      if i > 1 and j > 1 and ca == b:byte(j - 1) and a:byte(i - 1) == cb then
        d = math.min(d, prev2[j - 2] + 1)
      end
      cur[j] = d
    end
    prev2, prev = prev, cur
  end
  return prev[lb]
end

-- The known option (of obb.tiled, or of obb.world2) nearest to a
-- misspelt name, and whether it is the world's: one edit away (two for a
-- name of 5 letters or more), or the one option the name begins.
local function nearest(key)
  local k = normal_name(key)
  if #k < 2 or #k > 40 then return nil end
  local best, best_d, best_world, ties = nil, huge, false, 0
  local prefixed, prefixes = nil, 0
  local function try(name, world)
    local n = normal_name(name)
    local d = distance(k, n)
    if d < best_d then best, best_d, best_world, ties = name, d, world, 1
    elseif d == best_d then ties = ties + 1 end
    if #k >= 4 and n:sub(1, #k) == k then prefixed, prefixes = { name, world }, prefixes + 1 end
  end
  for name in pairs(OPTIONS) do try(name, false) end
  for name in pairs(WORLD_OPTIONS) do try(name, true) end
  if ties == 1 and best_d <= (#k >= 5 and 2 or 1) then return best, best_world end
  if prefixes == 1 then return prefixed[1], prefixed[2] end
  return nil
end

local function sorted_options()
  local list = {}
  for name in pairs(OPTIONS) do list[#list + 1] = name end
  table.sort(list)
  return concat(list, ", ")
end

-- The error for an unknown option: what to use instead when the intent is
-- recognisable, else the list of options.
local function unknown_option(key, value)
  local shown = describe_value(key)
  if #shown > 60 then shown = shown:sub(1, 50) .. "...\" (" .. #key .. " bytes)" end
  local text = "obb.tiled: unknown option " .. shown
  if type(key) == "number" then
    return text .. ": options are named; layer names go in layers = { " ..
      (type(value) == "string" and format("%q", value) or "...") .. " }"
  elseif type(key) ~= "string" then
    return text .. " (the options: " .. sorted_options() .. ")"
  end
  local name, world = key, WORLD_OPTIONS[key]
  if not world then
    local intent = INTENTS[normal_name(key)]
    if intent then return text .. ": " .. intent end
    name, world = nearest(key)
  end
  if world then
    local v = finite(value) and format("%.17g", value) or (name == "cell" and "32" or "0.25")
    local how = format("make the world yourself and add the map to it: local world = obb.world2{ %s = %s }; " ..
      "tiled.add(world, map, options)", name, v)
    if name == key then
      return format("%s: %s is an option of the world, not of the map: %s", text, name, how)
    end
    return format("%s: did you mean %s, an option of the world, not of the map? %s%s", text, name,
      how:sub(1, 1):upper(), how:sub(2))
  elseif name then
    return format("%s (did you mean %q?)", text, name)
  end
  return text .. " (the options: " .. sorted_options() .. ")"
end

-- options.classes, checked and copied (raw: a metatable of the caller's
-- table is not consulted): Tiled type -> obb class.
local function check_classes(t, level)
  if t == nil then return nil end
  if type(t) ~= "table" then
    error(format("obb.tiled: options.classes must be a table of Tiled types to classes " ..
      "({ wall = 1, coin = 2 }), got %s", type(t)), level + 1)
  end
  local out = {}
  for k, v in next, t do
    if type(k) ~= "string" then
      if type(v) == "string" then
        error(format("obb.tiled: options.classes maps Tiled types to classes, { %s = %s }, " ..
          "not classes to types: got [%s] = %q", v:match("^[%a_][%w_]*$") or format("[%q]", v),
          describe_value(k), describe_value(k), v), level + 1)
      end
      error(format("obb.tiled: options.classes has the key %s (a %s): its keys are Tiled types, strings",
        describe_value(k), type(k)), level + 1)
    end
    if type(v) ~= "number" or v ~= floor(v) or v < 0 or v > 255 then
      local shown = #k > 60 and format("%q...", k:sub(1, 50)) or format("%q", k)
      if type(v) == "string" or type(v) == "boolean" then
        error(format("obb.tiled: options.classes[%s] must be a class, an integer in [0, 255], got %s: " ..
          "a response goes in a response set, obb.responses{ [class] = %s }, passed to world:move",
          shown, describe_value(v), describe_value(v)), level + 1)
      end
      error(format("obb.tiled: options.classes[%s] must be a class, an integer in [0, 255], got %s",
        shown, describe_value(v)), level + 1)
    end
    out[k] = v
  end
  return out
end

local function check_options(opts, level)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    error(format("obb.tiled: options must be a table, got %s", type(opts)), level + 1)
  end
  -- the unknown keys in a stable order: strings first, sorted
  local unknown
  for k in pairs(opts) do
    if not OPTIONS[k] then
      if unknown == nil or (type(k) == "string" and (type(unknown) ~= "string" or k < unknown)) then
        unknown = k
      end
    end
  end
  if unknown ~= nil then error(unknown_option(unknown, opts[unknown]), level + 1) end
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
  local points = opts.points
  if points == nil then points = "list" end
  if points ~= "list" and points ~= "add" then
    error(format('obb.tiled: options.points must be "list" or "add", got %s: "list" (the default) returns ' ..
      "point objects in their own list (the last result), out of the world; \"add\" adds each as a box " ..
      "of zero size", describe_value(points)), level + 1)
  end
  local classes = check_classes(opts.classes, level + 1)
  -- The limits of obb.mapdata's readers; max_depth also bounds the
  -- nesting of group layers in a map table.
  local limits = {}
  for _, key in ipairs({ "max_bytes", "max_depth", "max_values", "max_tables" }) do
    local v = opts[key]
    if v == nil then v = mapdata.defaults[key] end
    -- (no max_tables: obb.mapdata's default follows the text)
    if v ~= nil and (type(v) ~= "number" or v ~= v or v < 1 or (v ~= huge and v ~= floor(v))) then
      error(format("obb.tiled: options.%s must be a whole number >= 1 (or math.huge), got %s",
        key, describe_value(v)), level + 1)
    end
    limits[key] = v
  end
  return {
    names = names,
    property = opts.property,
    filter = opts.filter,
    strict = opts.strict,
    points = points,
    classes = classes,
    tile_property = opts.tile_property or "collidable",
    max_bytes = limits.max_bytes, max_depth = limits.max_depth, max_values = limits.max_values,
    max_tables = limits.max_tables,
  }
end

-- ---- loading -----------------------------------------------------------

-- Tiled's JSON export writes a few things the loader reads differently
-- from its Lua export; they are turned into the Lua export's shape, in
-- place (the tables are the reader's own). Values of the wrong type are
-- left as they are, for the loader's checks to name.

-- JSON properties are a list of { name =, type =, value = }; the Lua
-- export's are a table name -> value. (Tiled before 1.2 wrote an object
-- name -> value: kept.)
local function json_properties(t, where)
  local props = t.properties
  if type(props) ~= "table" or (props[1] == nil and next(props) ~= nil) then return end
  local pwhere = at(where, ".properties")
  local out = {}
  for i = 1, list_length(props, pwhere) do
    local p = props[i]
    if type(p) ~= "table" or type(p.name) ~= "string" then
      fail("%s must be a property { name, type, value } with a string name, got %s", at(pwhere, i),
        type(p) == "table" and "name " .. describe_value(p.name) or type(p))
    end
    out[p.name] = p.value
  end
  t.properties = out
end

-- JSON marks an object's shape with a field (ellipse = true, point =
-- true, polygon, polyline, text); the Lua export writes `shape`, and the
-- text's fields on the object itself.
local function json_object(o, where)
  if type(o) ~= "table" then return end
  json_properties(o, where)
  if o.shape == nil then
    local shape = "rectangle"
    if o.ellipse == true then shape = "ellipse"
    elseif o.point == true then shape = "point"
    elseif o.polygon ~= nil then shape = "polygon"
    elseif o.polyline ~= nil then shape = "polyline"
    elseif o.text ~= nil then shape = "text" end
    o.shape = shape
  end
  local text = o.text
  if type(text) == "table" then
    for k, v in pairs(text) do
      if o[k] == nil then o[k] = v end
    end
    o.text = text.text
  end
end

local function json_objects(list, where)
  if type(list) ~= "table" then return end
  for i, o in ipairs(list) do json_object(o, at(where, i)) end
end

-- A tileset: `source` is the Lua export's `filename` (an external
-- tileset); a tile's collision shapes are `objectgroup` (the Lua export's
-- `objectGroup`), an image collection tile's size `imagewidth` and
-- `imageheight` unless it has a sub-rectangle (`width`, `height`).
local function json_tileset(ts, where)
  if type(ts) ~= "table" then return end
  json_properties(ts, where)
  if ts.filename == nil and ts.source ~= nil then ts.filename = ts.source end
  if type(ts.tiles) ~= "table" then return end
  for i, tile in ipairs(ts.tiles) do
    if type(tile) == "table" then
      local twhere = at(at(where, ".tiles"), i)
      json_properties(tile, twhere)
      if tile.objectGroup == nil then tile.objectGroup = tile.objectgroup end
      local group = tile.objectGroup
      if type(group) == "table" then
        local gwhere = at(twhere, ".objectgroup")
        json_properties(group, gwhere)
        json_objects(group.objects, at(gwhere, ".objects"))
      end
      if tile.width == nil then tile.width = tile.imagewidth end
      if tile.height == nil then tile.height = tile.imageheight end
    end
  end
end

local function from_json(map)
  json_properties(map, "map")
  if type(map.tilesets) == "table" then
    for i, ts in ipairs(map.tilesets) do json_tileset(ts, at("map.tilesets", i)) end
  end
  -- group layers hold lists of layers: a list of lists still to convert
  -- (the reader's tables hold no cycles, and no recursion means no
  -- stack limit at any depth)
  local todo, n = { { map.layers, "map.layers" } }, 1
  while n > 0 do
    local layers, where = todo[n][1], todo[n][2]
    todo[n] = nil
    n = n - 1
    if type(layers) == "table" then
      for i, layer in ipairs(layers) do
        if type(layer) == "table" then
          local lwhere = at(where, i)
          json_properties(layer, lwhere)
          if layer.type == "objectgroup" then
            json_objects(layer.objects, at(lwhere, ".objects"))
          elseif layer.type == "group" then
            n = n + 1
            todo[n] = { layer.layers, at(lwhere, ".layers") }
          end
        end
      end
    end
  end
  return map
end

-- The bytes of a map file, at most max_bytes of them: love.filesystem
-- inside LÖVE (the game's folder and save directory), io.open elsewhere.
local function read_file(path, max_bytes)
  local too_big = "%d bytes, more than %d (options.max_bytes)"
  local love = rawget(_G, "love")
  local fs = type(love) == "table" and love.filesystem
  if type(fs) == "table" and fs.read then
    if fs.getInfo then
      local ok, info = pcall(fs.getInfo, path)
      if ok and type(info) == "table" and type(info.size) == "number" and info.size > max_bytes then
        return nil, format(too_big, info.size, max_bytes)
      end
    end
    local ok, text, err = pcall(fs.read, path)
    if not ok then return nil, tostring(text) end
    if type(text) ~= "string" then return nil, tostring(err) end
    return text
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  -- a directory opens, and says what it is at the first read
  local probe, perr = f:read(0)
  if probe == nil and perr ~= nil then
    f:close()
    return nil, tostring(perr)
  end
  -- the size first, so that a huge file is refused before it is read
  local bytes = f:seek("end")
  if bytes and bytes > max_bytes then
    f:close()
    return nil, format(too_big, bytes, max_bytes)
  end
  if bytes then f:seek("set") end
  local text, rerr = f:read("*a")
  f:close()
  if type(text) ~= "string" then return nil, tostring(rerr) end
  return text
end

-- The map table from a table, or from a path: a `.json` or `.tmj` file
-- as Tiled's JSON export, any other as Tiled's Lua export, both read as
-- data by obb.mapdata. A map file is never run: it is what mods ship.
local function read_map(map, opts, level)
  if type(map) == "table" then return map end
  if type(map) ~= "string" then
    error(format("obb.tiled: map must be a table or the path of a Lua file, got %s", type(map)), level + 1)
  end
  local lower = map:lower()
  if lower:find("%.tmx$") then
    fail("map %s is Tiled's XML format (.tmx), which is not read: export it from Tiled as Lua " ..
      "(File > Export As > Lua files) or JSON (.tmj)", map)
  end
  local text, err = read_file(map, opts.max_bytes)
  if not text then fail("cannot load map %s: %s", map, tostring(err)) end
  local json = lower:find("%.json$") or lower:find("%.tmj$")
  local ok, result = pcall(json and mapdata.json or mapdata.lua_table, text, {
    source = map, max_bytes = opts.max_bytes, max_depth = opts.max_depth, max_values = opts.max_values,
    max_tables = opts.max_tables,
  })
  if not ok then fail("cannot load map: reading it as data raised an error: %s", tostring(result)) end
  if type(result) ~= "table" then
    fail("map %s returned %s, not a table (a Tiled JSON export is one object)", map, type(result))
  end
  if json then result = from_json(result) end
  return result
end

local function check_world(world, level)
  local kind = obb_type(world)
  if kind ~= "world2" then
    error(format("obb.tiled: world must be a 2D obb world (obb.world2()), got %s", kind or type(world)),
          level + 1)
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

-- Adds an item's box, or raises naming the place: a box whose numbers
-- overflow (a width of 1e308 at x = 1e308) or that the world refuses is
-- the map's fault, and the map's place says where.
function Load:add(item, where, cx, cy, hx, hy, angle, class)
  if not (finite(cx) and finite(cy) and finite(hx) and finite(hy) and finite(angle)) then
    fail("%s: its box is not finite (center %s, %s, half sizes %s, %s): its numbers are too large",
      where, tostring(cx), tostring(cy), tostring(hx), tostring(hy))
  end
  local ok, err = pcall(self.world.add, self.world, item, cx, cy, hx, hy, angle)
  if not ok then fail("%s: the world refused its box: %s", where, tostring(err)) end
  self.items[#self.items + 1] = item
  -- every new item is of class 0: only another is set
  if class ~= nil and class ~= 0 then self.world:set_class(item, class) end
end

-- A point kept out of the world (options.points = "list", the default):
-- listed, with where it is.
function Load:point(item, where)
  if not (finite(item.cx) and finite(item.cy)) then
    fail("%s: its point is not finite (%s, %s): its numbers are too large", where,
      tostring(item.cx), tostring(item.cy))
  end
  self.points[#self.points + 1] = item
end

-- The type of an object or a tile (`type`, or `class` as Tiled 1.9 wrote
-- it), checked to be a string when options.classes reads it.
local function checked_type(t, where)
  local key = t.type ~= nil and "type" or "class"
  local v = t[key]
  if v ~= nil and type(v) ~= "string" then
    fail("%s.%s must be a string, got %s", where, key, describe_value(v))
  end
  return v
end

-- The obb class of an item (options.classes): by its own type, else (a
-- tile object's) its tile's type, else the class of its layer or of the
-- nearest group around it that has one; a type classes does not name is
-- class 0, or raises with strict. nil without options.classes.
function Load:class(own, tile_type, where)
  local classes = self.opts.classes
  if classes == nil then return nil end
  local key, from = "", nil
  if own ~= nil and own ~= "" then key, from = own, "its type"
  elseif tile_type ~= nil and tile_type ~= "" then key, from = tile_type, "its tile's type"
  elseif self.layer_class ~= nil then key, from = self.layer_class, "its layer's class" end
  local c = classes[key]
  if c ~= nil then return c end
  if key ~= "" and self.opts.strict then
    local shown = #key > 60 and format("%q... (%d bytes)", key:sub(1, 50), #key) or format("%q", key)
    local entry = #key <= 60 and key:match("^[%a_][%w_]*$") or format("[%s]", shown)
    fail("%s: %s %s is not in options.classes: add it (%s = 0 keeps class 0), or leave strict off " ..
      "(a type that options.classes does not name is class 0)", where, from, shown, entry)
  end
  return 0
end

-- The type of a tile object's tile (nil for a tileset in an external
-- file, whose tiles the map does not hold).
function Load:tile_type_of(object, where)
  local gwhere = at(where, ".gid")
  local gid = split_gid(object.gid, gwhere)
  local ts, id, tswhere = self.find(gid, gwhere)
  if external(ts) then return nil end
  local tile = tile_of(self.tile_index, ts, id, tswhere)
  return tile and checked_type(tile, at(tswhere, format(" tile %d", id)))
end

function Load:skip(item, reason, where)
  if self.opts.strict then fail("%s: %s", where, reason) end
  item.reason = reason
  self.skipped[#self.skipped + 1] = item
end

function Load:keep(item, layer)
  return self.opts.filter == nil or self.opts.filter(item, layer)
end

-- Whether `what` (a kind of report) was already made for this layer name
-- and tileset: such reports come once per layer and tileset.
function Load:once(what, name, ts)
  local by_kind = self.reported[what]
  if by_kind == nil then by_kind = {}; self.reported[what] = by_kind end
  local key = name
  if key == nil then key = false end -- a layer without a name
  local by_name = by_kind[key]
  if by_name == nil then by_name = {}; by_kind[key] = by_name end
  if by_name[ts] then return false end
  by_name[ts] = true
  return true
end

function Load:objects(layer, name, dx, dy, where)
  local objects, n = list_field(layer, "objects", where)
  local list_where = at(where, ".objects")
  for i = 1, n do
    local object = objects[i]
    local owhere = at(list_where, i)
    if type(object) ~= "table" then fail("%s must be a table, got %s", owhere, type(object)) end
    local props = object.properties
    if props ~= nil and type(props) ~= "table" then
      fail("%s.properties must be a table, got %s", owhere, type(props))
    end
    local cx, cy, hx, hy, angle = object_box(object, owhere, self.find)
    local item = object_item(object, name)
    local point = cx ~= nil and object.gid == nil and object.shape == "point"
    if point then item.cx, item.cy = cx + dx, cy + dy end
    if self:keep(item, layer) then
      if cx == nil then
        self:skip(item, cy, owhere)
      elseif point and self.opts.points == "list" then
        self:point(item, owhere)
      else
        local class
        if self.opts.classes then
          local own = checked_type(object, owhere)
          local tile_type
          if (own == nil or own == "") and object.gid ~= nil then tile_type = self:tile_type_of(object, owhere) end
          class = self:class(own, tile_type, owhere)
        end
        self:add(item, owhere, cx + dx, cy + dy, hx, hy, angle, class)
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
    if self:once("external", name, ts) then
      self:skip({ layer = name, tileset = ts.name },
        format("tileset %s is in an external file (%s): export the map with 'Embed tilesets'",
          describe_value(ts.name), tostring(ts.filename)), where)
    end
    return
  end
  local tile = tile_of(self.tile_index, ts, id, tswhere)
  -- an image collection's tiles have their own sizes
  local tw, th = size(ts, "tilewidth", tswhere), size(ts, "tileheight", tswhere)
  if tile ~= nil then
    local twhere = at(tswhere, format(" tile %d", id))
    tw = number(tile, "width", twhere, tw)
    th = number(tile, "height", twhere, th)
    if tw < 0 or th < 0 then
      fail("%s: its size %s x %s must not be negative", twhere, describe_value(tw), describe_value(th))
    end
  end
  local cache = self.shape_cache[ts]
  if cache == nil then cache = {}; self.shape_cache[ts] = cache end
  local shapes = cache[id]
  if shapes == nil then
    shapes = tile_shapes(tile, tw, th, self.opts.tile_property, at(tswhere, format(" (tile %d)", id)))
    cache[id] = shapes
  end
  if #shapes == 0 then return end
  if ts.tilerendersize == "grid" and (tw ~= self.tw or th ~= self.th) then
    if self:once("grid", name, ts) then
      self:skip({ layer = name, tileset = ts.name },
        format("tileset %s draws its %gx%g tiles at the map's %gx%g grid size (tilerendersize 'grid'): not supported",
          describe_value(ts.name), tw, th, self.tw, self.th), where)
    end
    return
  end
  local offset = table_field(ts, "tileoffset", tswhere, true)
  local owhere = offset and at(tswhere, ".tileoffset")
  local ox = offset and number(offset, "x", owhere, 0) or 0
  local oy = offset and number(offset, "y", owhere, 0) or 0
  -- drawn with its bottom-left corner at the cell's bottom-left corner
  local x = col * self.tw + ox + dx
  local y = (row + 1) * self.th - th + oy + dy
  local fh, fv, fd = flags >= FLIP_H, flags % FLIP_H >= FLIP_V, flags % FLIP_V >= FLIP_D
  local class -- the cell's obb class, found when a shape of it is added
  for _, s in ipairs(shapes) do
    local item = {
      layer = name, col = col, row = row, x = x, y = y, width = tw, height = th,
      gid = gid, flip_h = fh, flip_v = fv, flip_d = fd,
      tileset = ts.name, tile_id = id, tile = tile,
      type = tile and object_type(tile), properties = tile and tile.properties or {},
      shape = s.object and (s.object.shape or "rectangle") or "rectangle", object = s.object,
    }
    item.class = tile and tile.class or item.type
    local reason, cx, cy, hx, hy, deg = s.reason, nil, nil, nil, nil, nil
    if reason == nil and fd and tw ~= th then
      reason = format("a %gx%g tile flipped diagonally (turned a quarter): only square tiles are turned", tw, th)
    elseif reason == nil then
      -- Tiled flips the tile image: first across its diagonal (x and y
      -- swapped), then horizontally, then vertically. A flip mirrors a
      -- shape, so its rotation changes sign; the diagonal flip also
      -- swaps the box's half extents (the box turned by -deg with its
      -- axes exchanged covers the mirrored shape).
      cx, cy, hx, hy, deg = s[1], s[2], s[3], s[4], s[5]
      if fd then cx, cy, hx, hy, deg = cy, cx, hy, hx, -deg end
      if fh then cx, deg = tw - cx, -deg end
      if fv then cy, deg = th - cy, -deg end
      cx, cy = x + cx, y + cy
    end
    local point = reason == nil and item.shape == "point"
    if point then item.cx, item.cy = cx, cy end
    if self:keep(item, layer) then
      if reason then
        self:skip(item, reason, where)
      elseif point and self.opts.points == "list" then
        self:point(item, where)
      else
        if class == nil and self.opts.classes then
          class = self:class(nil, tile and checked_type(tile, at(tswhere, format(" tile %d", id))), where)
        end
        self:add(item, where, cx, cy, hx, hy, deg == 0 and 0 or rad(deg), class)
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
    self.tw = size(self.map, "tilewidth", "map")
    self.th = size(self.map, "tileheight", "map")
  end
  local function grid(t, cols, x0, y0, gwhere)
    local data = t.data
    if type(data) ~= "table" then
      self:skip({ layer = name },
        format("tile data is %s (encoding %s): export with the tile layer format CSV (written as a Lua table)",
          type(data), describe_value(t.encoding or layer.encoding)), gwhere)
      return
    end
    local data_where = at(gwhere, ".data")
    for i = 1, list_length(data, data_where) do
      local raw = data[i]
      if raw ~= 0 then
        local k = i - 1
        self:cell(layer, name, raw, x0 + k % cols, y0 + floor(k / cols), dx, dy, at(data_where, i))
      end
    end
  end
  if layer.chunks ~= nil then
    local chunks, n = list_field(layer, "chunks", where)
    local list_where = at(where, ".chunks")
    for i = 1, n do
      local chunk = chunks[i]
      local cwhere = at(list_where, i)
      if type(chunk) ~= "table" then fail("%s must be a table, got %s", cwhere, type(chunk)) end
      -- whole numbers: cells are counted in whole columns and rows
      grid(chunk, integer(chunk, "width", cwhere, 1), integer(chunk, "x", cwhere, -huge),
        integer(chunk, "y", cwhere, -huge), cwhere)
    end
  else
    grid(layer, integer(layer, "width", where, 1), 0, 0, where)
  end
end

-- Walks the layers, and the layers of groups, in the file's order.
-- Whether a layer is chosen: by its name or an enclosing group's (the
-- `layers` option), and by its or an enclosing group's property (the
-- `property` option); both when both are given.
--
-- A loop over an explicit stack of groups, not recursion: a map's depth
-- is bounded by options.max_depth, not by the Lua stack. A table given
-- as a map may hold itself (a group among its own layers): a group seen
-- again is refused, so the walk always ends, and takes time linear in
-- the map's tables.
function Load:walk(layers, n)
  local opts = self.opts
  local seen = { [self.map] = "map" } -- group tables met so far -> their place
  local on_path = { [self.map] = true } -- the groups around the current layer
  local frame = { list = layers, n = n, i = 0, where = at("map", ".layers"),
    dx = 0, dy = 0, named = false, has = false, depth = 0, class = nil }
  while frame do
    local i = frame.i + 1
    frame.i = i
    if i > frame.n then
      if frame.group then on_path[frame.group] = nil end
      frame = frame.parent
    else
      local layer = frame.list[i]
      local lwhere = at(frame.where, i)
      if type(layer) ~= "table" then fail("%s must be a table, got %s", lwhere, type(layer)) end
      local name = layer.name
      if name ~= nil and type(name) ~= "string" then
        fail("%s.name must be a string, got %s", lwhere, type(name))
      end
      local props = layer.properties
      if props ~= nil and type(props) ~= "table" then
        fail("%s.properties must be a table, got %s", lwhere, type(props))
      end
      local named = frame.named
      if opts.names and name ~= nil and opts.names[name] ~= nil then
        opts.names[name] = true
        named = true
      end
      local has = frame.has or (opts.property ~= nil and props ~= nil and
        props[opts.property] ~= nil and props[opts.property] ~= false)
      local lx = frame.dx + number(layer, "offsetx", lwhere, 0)
      local ly = frame.dy + number(layer, "offsety", lwhere, 0)
      local chosen = (opts.names == nil or named) and (opts.property == nil or has)
      -- the layer's class (Tiled 1.9+), or its group's, for options.classes
      local class = frame.class
      if opts.classes then
        local c = layer.class
        if c ~= nil and type(c) ~= "string" then
          fail("%s.class must be a string, got %s", lwhere, describe_value(c))
        end
        if c ~= nil and c ~= "" then class = c end
      end
      local kind = layer.type
      if kind == "group" then
        if on_path[layer] then
          fail("%s contains itself: it is the group %s around it", lwhere, seen[layer])
        elseif seen[layer] then
          fail("%s is the group %s again: a group may be in a map once", lwhere, seen[layer])
        end
        if frame.depth >= opts.max_depth then
          fail("%s: groups nested more than %d deep (options.max_depth)", lwhere, opts.max_depth)
        end
        local sub, count = list_field(layer, "layers", lwhere)
        seen[layer], on_path[layer] = lwhere, true
        frame = { parent = frame, list = sub, n = count, i = 0, where = at(lwhere, ".layers"),
          dx = lx, dy = ly, named = named, has = has, depth = frame.depth + 1, group = layer, class = class }
      elseif chosen and kind == "objectgroup" then
        self.layer_class = class
        self:objects(layer, name, lx, ly, lwhere)
      elseif chosen and kind == "tilelayer" then
        self.layer_class = class
        self:tiles(layer, name, lx, ly, lwhere)
      elseif kind ~= "objectgroup" and kind ~= "tilelayer" and kind ~= "imagelayer" then
        fail("%s.type must be \"objectgroup\", \"tilelayer\", \"imagelayer\" or \"group\", got %s",
          lwhere, describe_value(kind))
      end
    end
  end
end

local function add(world, map, opts, level)
  check_world(world, level + 1)
  opts = check_options(opts, level + 1)
  map = read_map(map, opts, level + 1)
  local layers = map.layers
  if type(layers) ~= "table" then
    fail("map.layers must be a table (is this a Tiled Lua export?), got %s", type(layers))
  end
  local n = list_length(layers, "map.layers")
  local orientation = map.orientation
  if orientation == nil then orientation = "orthogonal" end
  if type(orientation) ~= "string" then
    fail("map.orientation must be a string, got %s", type(orientation))
  end
  if orientation == "isometric" then
    fail("isometric maps are not supported: their objects' coordinates are not screen pixels")
  end
  local self = setmetatable({
    world = world, map = map, opts = opts, orientation = orientation,
    find = tileset_index(map), items = {}, skipped = {}, points = {},
    shape_cache = {}, tile_index = {}, reported = {},
  }, Load)
  -- A call that raises (a bad map, strict, a filter's error) takes out
  -- what it added: the world is as it was.
  local ok, err = pcall(function()
    self:walk(layers, n)
    if opts.names then
      local missing = {}
      for name, found in pairs(opts.names) do
        if not found then missing[#missing + 1] = format("%q", name) end
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
  return self.items, self.skipped, self.points
end

-- tiled.add(world, map [, options]) -> items, skipped, points
-- Adds the map's collision shapes to an obb.world2 (see docs/tiled.md);
-- point objects are listed in `points`, not added (options.points = "add"
-- adds them).
function M.add(world, map, opts)
  local items, skipped, points = add(world, map, opts, 2) -- not a tail call: error levels count this frame
  return items, skipped, points
end

-- tiled.load(map [, options]) -> world, items, skipped, points
-- The same into a new obb.world2().
function M.load(map, opts)
  local world = obb.world2()
  local items, skipped, points = add(world, map, opts, 2)
  return world, items, skipped, points
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
