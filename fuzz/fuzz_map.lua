-- fuzz/fuzz_map.lua: obb.tiled.load on hostile maps. From the repository's
-- root, after `make`:
--
--   LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='./build/lua5.4/?.so;;' \
--     lua5.4 fuzz/fuzz_map.lua [seconds] [seed]
--
-- Mutates the example maps' texts (as Lua files and as JSON) and map
-- tables built from them: byte flips, tokens put in, truncation, deep
-- nesting, huge numbers, NaN-like text, gaps in lists, tables that hold
-- themselves. tiled.load must only ever return a world whose boxes are all
-- finite, or raise an error string starting with "obb.tiled:". Anything
-- else (another error, a non-finite box) is a failure: the input is saved
-- (fuzz_map_fail_<seed>_<n>.lua or .json for texts, a description of the
-- mutations for tables) and the script exits 1. A crash or a hang ends the
-- process without the summary line; the text being loaded is then in the
-- file named at the start. Ends by itself after the given seconds
-- (default 10) and prints "N maps, 0 failures".
local obb = require "obb"
local tiled = require "obb.tiled"
local mapdata = require "obb.mapdata"

local seconds = tonumber(arg and arg[1]) or 10
local seed = tonumber(arg and arg[2]) or os.time()
math.randomseed(seed)
local random = math.random

local EXAMPLES = { "examples/maps/level1.lua", "examples/maps/platformer.lua", "examples/maps/racetrack.lua" }

local function read(path)
  local f = assert(io.open(path, "rb"), path .. " not found (run from the repository's root)")
  local text = f:read("*a")
  f:close()
  return text
end

-- ---- JSON text of a table (for the JSON reader's inputs) ---------------

local function is_list(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n == #t
end

local function json_of(v, out)
  local kind = type(v)
  if kind == "table" then
    if is_list(v) and (#v > 0 or next(v) == nil) then
      out[#out + 1] = "["
      for i, x in ipairs(v) do
        if i > 1 then out[#out + 1] = "," end
        json_of(x, out)
      end
      out[#out + 1] = "]"
    else
      out[#out + 1] = "{"
      local first = true
      for k, x in pairs(v) do
        if not first then out[#out + 1] = "," end
        first = false
        out[#out + 1] = string.format("%q", tostring(k)):gsub("\\\n", "\\n")
        out[#out + 1] = ":"
        json_of(x, out)
      end
      out[#out + 1] = "}"
    end
  elseif kind == "string" then
    out[#out + 1] = (string.format("%q", v):gsub("\\\n", "\\n"))
  elseif kind == "number" then
    out[#out + 1] = string.format("%.17g", v)
  else
    out[#out + 1] = tostring(v)
  end
end

-- A Lua map as Tiled's JSON writes it: properties as lists of
-- { name, type, value } (the rest of the differences do not matter to a
-- fuzzer).
local function to_json_shape(t, seen)
  seen = seen or {}
  if type(t) ~= "table" or seen[t] then return t end
  seen[t] = true
  local out = {}
  for k, v in pairs(t) do
    if k == "properties" and type(v) == "table" then
      local list = {}
      for name, value in pairs(v) do
        list[#list + 1] = { name = name, type = type(value), value = value }
      end
      out[k] = list
    elseif k == "objectGroup" then
      out.objectgroup = to_json_shape(v, seen)
    else
      out[k] = to_json_shape(v, seen)
    end
  end
  return out
end

local function json_text(t)
  local out = {}
  json_of(to_json_shape(t), out)
  return table.concat(out)
end

-- ---- mutations ---------------------------------------------------------

local TOKENS = {
  "{", "}", ",", ";", "=", "nil", "true", "false", "-", "--", "--[[", "]]", "\"", "'", "\\", "[", "]",
  "1e309", "-1e309", "0/0", "nan", "inf", "-nan", "1e308", "4294967295", "4294967296", "-2147483649",
  "0x7fffffffffffffff", "9223372036854775808", "1e-320", "0", "-0", ".5", "5.", "0x", "1e", "\\u0000",
  "\\ud800", "\\999", "\\x4", "os.exit(1)", "(", ")", "..", "#", "\27", "\0", "\n", "null", "[[x]]",
  "type = \"group\"", "layers = {", "objects = {", "\"layers\":[", "\"objects\":[", "{\"type\":\"group\",",
}

local function flip(text)
  local n = #text
  if n == 0 then return TOKENS[random(#TOKENS)] end
  local kind = random(6)
  local i = random(n)
  if kind == 1 then -- one byte
    return text:sub(1, i - 1) .. string.char(random(0, 255)) .. text:sub(i + 1)
  elseif kind == 2 then -- a token put in
    return text:sub(1, i - 1) .. TOKENS[random(#TOKENS)] .. text:sub(i)
  elseif kind == 3 then -- truncated
    return text:sub(1, i)
  elseif kind == 4 then -- a slice cut out
    return text:sub(1, i - 1) .. text:sub(i + random(1, 200))
  elseif kind == 5 then -- a number made huge or strange
    local s, e = text:find("%-?%d+%.?%d*", i)
    if not s then return text end
    local new = ({ "1e308", "-1e308", "1e309", "4294967296", "0x100000000", "1.5", "-0", "9007199254740993",
      "nan", "0/0" })[random(10)]
    return text:sub(1, s - 1) .. new .. text:sub(e + 1)
  else -- deep nesting
    local depth = random(1, 400)
    local open, close = ("{"):rep(depth), ("}"):rep(depth)
    if random(2) == 1 then open, close = ("["):rep(depth), ("]"):rep(depth) end
    return text:sub(1, i - 1) .. open .. close .. text:sub(i)
  end
end

local WEIRD = {
  function() return nil end,
  function() return 0 / 0 end,
  function() return math.huge end,
  function() return -math.huge end,
  function() return 1e308 end,
  function() return -1e308 end,
  function() return 2 ^ 53 + 1 end,
  function() return 4294967296 end,
  function() return -2147483649 end,
  function() return 0.5 end,
  function() return -1 end,
  function() return 0 end,
  function() return "x" end,
  function() return "group" end,
  function() return "objectgroup" end,
  function() return "tilelayer" end,
  function() return true end,
  function() return {} end,
  function() return { 1, nil, 3 } end,
  function() return { [2] = 1 } end,
  function() return print end,
}

local FIELDS = {
  "x", "y", "width", "height", "rotation", "gid", "type", "shape", "name", "properties", "objects", "layers",
  "data", "chunks", "tilesets", "tiles", "firstgid", "tilewidth", "tileheight", "offsetx", "offsety",
  "tileoffset", "objectGroup", "id", "orientation", "objectalignment", "tilerendersize", "filename", "encoding",
}

-- Every table of t (without repeats), with its parents: for mutations at
-- random places.
local function tables_of(t)
  local list, parents, seen = { t }, { false }, { [t] = true }
  local i = 1
  while i <= #list do
    for _, v in pairs(list[i]) do
      if type(v) == "table" and not seen[v] then
        seen[v] = true
        list[#list + 1] = v
        parents[#list] = list[i]
      end
    end
    i = i + 1
  end
  return list, parents
end

local function mutate_table(map, log)
  local list, parents = tables_of(map)
  local k = random(#list)
  local t = list[k]
  local kind = random(7)
  if kind <= 3 then -- a field set to something strange
    local field = random(3) == 1 and random(1, math.max(1, #t)) or FIELDS[random(#FIELDS)]
    local v = WEIRD[random(#WEIRD)]()
    t[field] = v
    log[#log + 1] = ("table %d: [%s] = %s"):format(k, tostring(field), tostring(v))
  elseif kind == 4 then -- a gap in a list
    if #t >= 2 then
      local i = random(1, #t - 1)
      t[i] = nil
      log[#log + 1] = ("table %d: [%d] = nil (a gap)"):format(k, i)
    end
  elseif kind == 5 then -- a table that holds itself or one around it
    local target = t
    if random(2) == 1 and parents[k] then target = parents[k] end
    local field = random(2) == 1 and "layers" or #t + 1
    t[field] = target
    if random(2) == 1 then t.type = "group" end
    log[#log + 1] = ("table %d: [%s] = itself or its parent"):format(k, tostring(field))
  elseif kind == 6 then -- a deep chain of groups
    local depth = random(1, 3000)
    local root = { type = "group", layers = {} }
    local g = root
    for _ = 2, depth do
      local c = { type = "group", layers = {} }
      g.layers[1] = c
      g = c
    end
    if type(map.layers) == "table" then table.insert(map.layers, 1, root) end
    log[#log + 1] = ("a chain of %d groups"):format(depth)
  else -- a list made long
    if #t > 0 then
      local n = #t
      for i = n + 1, n + random(1, 2000) do t[i] = t[random(1, n)] end
      log[#log + 1] = ("table %d: repeated to %d entries"):format(k, #t)
    end
  end
end

-- A random map made here: tilesets with tiles (whole-tile collidable or
-- collision shapes, image tiles of their own size, offsets, alignments),
-- tile layers (finite or in chunks, flipped gids), object layers of every
-- shape, groups with offsets, nested.
local SHAPES = { "rectangle", "rectangle", "rectangle", "point", "ellipse", "polygon", "polyline", "text" }
local ALIGNS = { "unspecified", "topleft", "top", "topright", "left", "center", "right", "bottomleft", "bottom",
  "bottomright" }

local function random_number()
  local k = random(10)
  if k <= 6 then return random(-64, 640) end
  if k <= 8 then return (random() - 0.5) * 2000 end
  if k == 9 then return random(-360, 360) end
  return (random() - 0.5) * 10 ^ random(0, 300)
end

local function random_object(id, ngids)
  local o = { id = id, name = "o" .. id, type = random(3) == 1 and "wall" or "", shape = SHAPES[random(#SHAPES)],
    x = random_number(), y = random_number(), width = math.abs(random_number()), height = math.abs(random_number()),
    rotation = random(3) == 1 and random_number() or 0, visible = random(4) > 1, properties = {} }
  if random(4) == 1 and ngids > 0 then o.gid = random(1, ngids) + random(0, 7) * 0x20000000 end
  if o.shape == "polygon" or o.shape == "polyline" then o[o.shape] = { { x = 0, y = 0 }, { x = 4, y = 4 } } end
  if random(3) == 1 then o.properties.collidable = true end
  return o
end

local function random_map()
  local tw, th = random(1, 64), random(1, 64)
  local map = { orientation = random(8) == 1 and "staggered" or "orthogonal", width = random(1, 30),
    height = random(1, 30), tilewidth = tw, tileheight = th, tilesets = {}, layers = {}, properties = {} }
  local gid = 1
  for i = 1, random(0, 3) do
    local count = random(1, 20)
    local ts = { name = "ts" .. i, firstgid = gid, tilewidth = random(1, 64), tileheight = random(1, 64),
      objectalignment = ALIGNS[random(#ALIGNS)], tilerendersize = random(4) == 1 and "grid" or "tile",
      tileoffset = { x = random(-8, 8), y = random(-8, 8) }, tiles = {}, properties = {} }
    if random(8) == 1 then ts = { name = ts.name, firstgid = gid, filename = "ext.tsx" } end
    for id = 0, count - 1 do
      if ts.tiles and random(2) == 1 then
        local tile = { id = id, properties = { collidable = random(2) == 1 } }
        if random(3) == 1 then
          tile.objectGroup = { type = "objectgroup", offsetx = random(-4, 4), offsety = 0, objects = {} }
          for j = 1, random(1, 3) do tile.objectGroup.objects[j] = random_object(j, 0) end
        end
        if random(5) == 1 then tile.width, tile.height = random(1, 64), random(1, 64) end
        ts.tiles[#ts.tiles + 1] = tile
      end
    end
    map.tilesets[i] = ts
    gid = gid + count
  end
  local function layers(depth)
    local list = {}
    for i = 1, random(0, 4) do
      local k = random(depth < 4 and 4 or 3)
      local layer
      if k == 1 then
        layer = { type = "objectgroup", name = "objects" .. i, objects = {}, properties = {} }
        for j = 1, random(0, 10) do layer.objects[j] = random_object(j, gid - 1) end
      elseif k == 2 then
        local w, h = random(1, 12), random(1, 12)
        local function data()
          local d = {}
          for c = 1, w * h do d[c] = random(3) == 1 and random(0, gid - 1) + random(0, 15) * 0x10000000 or 0 end
          return d
        end
        layer = { type = "tilelayer", name = "tiles" .. i, width = w, height = h, properties = {} }
        if random(3) == 1 then
          layer.chunks = { { x = random(-32, 32), y = random(-32, 32), width = w, height = h, data = data() } }
        else
          layer.data = data()
        end
      elseif k == 3 then
        layer = { type = "imagelayer", name = "image" .. i }
      else
        layer = { type = "group", name = "group" .. i, layers = layers(depth + 1), properties = {} }
      end
      layer.offsetx, layer.offsety = random(-16, 16), random(-16, 16)
      if random(3) == 1 then layer.properties = { collidable = true } end
      list[i] = layer
    end
    return list
  end
  map.layers = layers(0)
  return map
end

-- Lua table syntax of a table made here (a tree): for random maps as text.
local function lua_text(v, out)
  local kind = type(v)
  if kind == "table" then
    out[#out + 1] = "{"
    for k, x in pairs(v) do
      if type(k) == "string" then
        out[#out + 1] = k:match("^[%a_][%w_]*$") and k or ("[%q]"):format(k)
      else
        out[#out + 1] = ("[%.17g]"):format(k)
      end
      out[#out + 1] = " = "
      lua_text(x, out)
      out[#out + 1] = ",\n"
    end
    out[#out + 1] = "}"
  elseif kind == "number" then
    out[#out + 1] = ("%.17g"):format(v)
  elseif kind == "string" then
    out[#out + 1] = ("%q"):format(v)
  else
    out[#out + 1] = tostring(v)
  end
end

local function deep_copy(v)
  -- the parsed example maps are trees: no cycles to care about
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
end

-- ---- the check ---------------------------------------------------------

local function finite(x) return type(x) == "number" and x == x and x - x == 0 end

-- nil when tiled.load behaved, else what was wrong.
local loaded, refused = 0, 0
local function check(map, opts)
  local ok, world, items, _, points = pcall(tiled.load, map, opts)
  if ok then loaded = loaded + 1 else refused = refused + 1 end
  if not ok then
    if type(world) ~= "string" or world:sub(1, 10) ~= "obb.tiled:" then
      return "an error that is not obb.tiled's: " .. tostring(world)
    end
    return nil
  end
  if not tostring(world):find("^obb%.world2 ") then return "returned " .. tostring(world) end
  if #world ~= #items then return ("%d items in the world, %d in the list"):format(#world, #items) end
  for _, p in ipairs(points) do
    if world:has(p) or not (finite(p.cx) and finite(p.cy)) then
      world:close()
      return ("a listed point in the world or not finite: %s %s"):format(tostring(p.cx), tostring(p.cy))
    end
  end
  for _, item in ipairs(items) do
    local cx, cy, hx, hy, angle = world:get(item)
    if not (finite(cx) and finite(cy) and finite(hx) and finite(hy) and finite(angle)) then
      world:close()
      return ("a box that is not finite: %s %s %s %s %s"):format(tostring(cx), tostring(cy), tostring(hx),
        tostring(hy), tostring(angle))
    end
  end
  world:close()
  return nil
end

local CURRENT = os.tmpname()
local base_texts, base_tables, json_texts = {}, {}, {}
for i, path in ipairs(EXAMPLES) do
  base_texts[i] = read(path)
  base_tables[i] = mapdata.lua_table(base_texts[i], { source = path })
  json_texts[i] = json_text(base_tables[i])
end
print(("fuzz_map: seed %d, %g seconds; the input being loaded is in %s (and %s.json)"):format(seed, seconds,
  CURRENT, CURRENT))
io.stdout:flush()

local function save_failure(n, what, body, ext)
  local name = ("fuzz_map_fail_%d_%d.%s"):format(seed, n, ext)
  local f = assert(io.open(name, "wb"))
  f:write(body)
  f:close()
  io.stderr:write(("fuzz_map: map %d failed: %s\n  input saved to %s (seed %d)\n"):format(n, what, name, seed))
  os.exit(1)
end

local function random_opts()
  if random(4) > 1 then return nil end
  return { max_depth = random(1, 300), max_values = random(1, 100000), max_bytes = random(1, 200000),
    strict = random(2) == 1, property = random(2) == 1 and "collidable" or nil,
    points = random(2) == 1 and "add" or nil,
    classes = random(2) == 1 and { [""] = 1, ramp = 2, platform = 3, pickup = 4, spawn = 5, wall = 6 } or nil }
end

-- Both clocks: CPU time (fine grained) and wall time (whole seconds; on
-- a busy machine the CPU clock runs slower than the wall's).
local start, start_wall = os.clock(), os.time()
local function time_left()
  return os.clock() - start < seconds and os.difftime(os.time(), start_wall) < math.max(seconds - 1, 1)
end
local n, failures = 0, 0
while time_left() do
  n = n + 1
  local which = random(#EXAMPLES)
  local kind = random(4)
  local generated = random(2) == 1 and random_map() or nil
  if kind == 4 and generated then -- a random map as a text
    local out = { "return " }
    lua_text(generated, out)
    local text = table.concat(out)
    for _ = 1, random(0, 3) do text = flip(text) end
    local f = assert(io.open(CURRENT, "wb"))
    f:write(text)
    f:close()
    local what = check(CURRENT, random_opts())
    if what then save_failure(n, what, text, "lua") end
  elseif kind >= 3 then
    local map = generated and generated or deep_copy(base_tables[which])
    local log = { (generated and "a random map" or "from " .. EXAMPLES[which]) .. ", seed " .. seed .. ", map " .. n }
    for _ = 1, random(1, 6) do mutate_table(map, log) end
    local opts = random_opts()
    local what = check(map, opts)
    if what then
      save_failure(n, what, "-- a map table: the mutations\n-- " .. table.concat(log, "\n-- ") .. "\n", "lua")
    end
  else
    local json = kind == 2
    local text = json and json_texts[which] or base_texts[which]
    for _ = 1, random(1, 8) do text = flip(text) end
    local path = json and CURRENT .. ".json" or CURRENT
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    local what = check(path, random_opts())
    if what then save_failure(n, what, text, json and "json" or "lua") end
  end
end
os.remove(CURRENT)
os.remove(CURRENT .. ".json")
-- obb is required so that a failure to build it shows here, not as a map error
assert(obb.world2)
print(("loaded %d, refused with an obb.tiled error %d"):format(loaded, refused))
print(("%d maps, %d failures"):format(n, failures))
