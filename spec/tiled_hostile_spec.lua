-- obb.tiled on hostile maps: a map file is data, never code (obb.mapdata
-- reads it), its size, depth and number of values are bounded, a map
-- table that holds itself or nests groups without end is refused, and a
-- malformed map raises an error naming the place in it.
--
-- The cases that would crash or hang the interpreter if the map were run
-- (a precompiled chunk, os.exit, an endless loop) run in a child process
-- under `timeout 10`, with this interpreter and this one's paths.
local obb = require "obb"
local H = require "helpers"
local tiled = require "obb.tiled"
local mapdata = require "obb.mapdata"

local load_text = loadstring or load -- luacheck: ignore 113
local LUA51 = _VERSION == "Lua 5.1" and not rawget(_G, "jit") -- PUC 5.1 reads no \x escape
local math_type = math.type -- luacheck: ignore 143

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

local function has(text, piece)
  if not text:find(piece, 1, true) then
    error(("%q\n  does not contain\n%q"):format(text, piece), 2)
  end
end

local function write_file(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

local function read_file(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- ---- a child interpreter -----------------------------------------------

-- Runs chunk in a fresh interpreter with this one's paths and environment
-- (helpers.run_child), for at most 10 seconds: its output, how it ended
-- ("exit" and the code, or "signal" and its number), and the seconds it
-- took.
local function child(chunk)
  local t0 = os.time()
  local out, code = H.run_child(chunk, 10)
  local took = os.time() - t0
  if code ~= nil and code > 128 then return out, "signal", code - 128, took end
  return out, "exit", code, took
end

-- The chunk that loads path in the child and writes what came back.
local function load_in_child(path)
  return ("local tiled = require 'obb.tiled'; local ok, e = pcall(tiled.load, %q); " ..
    "io.write(ok and 'LOADED' or tostring(e))"):format(path)
end

-- ---- maps --------------------------------------------------------------

local function small_map(objects, extra)
  local map = {
    orientation = "orthogonal", width = 10, height = 10, tilewidth = 16, tileheight = 16,
    tilesets = {}, layers = { { type = "objectgroup", name = "l", properties = {}, objects = objects } },
  }
  for k, v in pairs(extra or {}) do map[k] = v end
  return map
end

local function rect(id, x, y, w, h, extra)
  local o = { id = id, name = "r" .. id, type = "", shape = "rectangle",
    x = x, y = y, width = w, height = h, rotation = 0, visible = true, properties = {} }
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

-- A map whose tile layer holds `data` (width 2), with one 16 x 16 tile
-- that is solid.
local function tile_map(data, tileset_extra, layer_extra)
  local ts = { name = "t", firstgid = 1, tilewidth = 16, tileheight = 16,
    tiles = { { id = 0, properties = { collidable = true } } } }
  for k, v in pairs(tileset_extra or {}) do ts[k] = v end
  local layer = { type = "tilelayer", name = "g", width = 2, height = 1, data = data }
  for k, v in pairs(layer_extra or {}) do layer[k] = v end
  return { orientation = "orthogonal", tilewidth = 16, tileheight = 16, tilesets = { ts }, layers = { layer } }
end

-- A chain of n groups, the innermost holding one object layer.
local function group_chain(n)
  local root = { type = "group", name = "g1", layers = {} }
  local g = root
  for i = 2, n do
    local c = { type = "group", name = "g" .. i, layers = {} }
    g.layers[1] = c
    g = c
  end
  g.layers[1] = { type = "objectgroup", name = "deep", objects = { rect(1, 0, 0, 4, 4) } }
  return small_map({}, { layers = { root } })
end

local function tmp_with(ext, text)
  return write_file(os.tmpname() .. ext, text)
end

describe("obb.tiled never runs a map", function()
  it("refuses a precompiled chunk, without a crash", function()
    local path = os.tmpname()
    local dump = string.dump(function() return {} end)
    write_file(path, dump)
    has(err_of(tiled.load, path), "precompiled Lua chunk: a map must be text")
    -- a damaged chunk (what crashes an interpreter that runs it), in a
    -- child process: it must end normally with the error
    local bytes = { dump:byte(1, -1) }
    for i = 6, #bytes, 3 do bytes[i] = 255 - bytes[i] end
    write_file(path, string.char((table.unpack or unpack)(bytes))) -- luacheck: ignore 113 143
    local out, how, code = child(load_in_child(path))
    os.remove(path)
    assert.are.same({ "exit", 0 }, { how, code }, out)
    has(out, "obb.tiled: cannot load map")
    has(out, "precompiled Lua chunk: a map must be text")
  end)

  it("refuses a map that calls os.exit, and does not run it", function()
    local path = write_file(os.tmpname(), "return { os.exit(3) }")
    local out, how, code = child(load_in_child(path))
    os.remove(path)
    assert.are.same({ "exit", 0 }, { how, code }, out) -- os.exit(3) would end the child with 3
    has(out, "obb.tiled: cannot load map")
    has(out, "found the name os where a value belongs")
  end)

  it("refuses a map that loops forever, promptly", function()
    local path = write_file(os.tmpname(), "return (function() while true do end end)()")
    local out, how, code, took = child(load_in_child(path))
    os.remove(path)
    assert.are.same({ "exit", 0 }, { how, code }, out) -- timeout would end it with 124
    assert.is_true(took <= 3, "took " .. took .. " s")
    has(out, "obb.tiled: cannot load map")
    has(out, "line 1: a value expected, found \"(function()")
  end)

  it("refuses a map that sets globals or opens files, and nothing of it runs", function()
    local marker = os.tmpname()
    os.remove(marker)
    local path = write_file(os.tmpname(), ("return {\n  layers = {},\n  x = (function() TILED_PWNED = true end)(),\n" ..
      "  y = io.open(%q, 'w'),\n}\n"):format(marker))
    local e = err_of(tiled.load, path)
    has(e, "obb.tiled: cannot load map: reading it as data raised an error: " .. path .. ": line 3: ")
    assert.is_nil(rawget(_G, "TILED_PWNED"))
    assert.is_nil(io.open(marker, "r"))
    -- the same without the function: the call is found at io.open
    write_file(path, ("return { layers = {}, y = io.open(%q, 'w') }"):format(marker))
    has(err_of(tiled.load, path), "found the name io where a value belongs")
    assert.is_nil(io.open(marker, "r"))
    os.remove(path)
  end)

  it("refuses operators, concatenation, long strings and unread escapes, naming the line", function()
    local cases = {
      { "return {\n  x = 1 + 2\n}", "line 2: , or } expected after a value, found \"+ 2\"" },
      { "return { name = 'a' .. 'b' }", "found \".. 'b' }\"" },
      { "return {\n\n  s = [[long]] }", "line 3: long strings [[...]] are not read" },
      { "return { s = '\\z' }", "escape \\z is not read in a map" },
      { "return { s = '\\u{48}' }", "escape \\u is not read in a map" },
      { "return { s = '\\300' }", "escape \\300 is more than 255" },
      { "return { n = 0/0 }", "found \"/0 }\"" },
      { "return { n = nan }", "found the name nan where a value belongs" },
      { "return { n = 1x }", "malformed number near \"1x }\"" },
      { "return { and = 1 }", "the reserved word and is not a field name" },
      { "return { 1, 2 } { 3 }", "the text goes on after the map's table" },
      { "return {\n 'abc\n}", "line 2: unfinished string" },
      { "return {", "line 1: table not closed: } expected before the end of the text" },
      { "return {\n{\n", "line 2: table not closed" },
      { "", "a value expected, found the end of the text" },
      { "--[[ never closed", "unfinished long comment" },
    }
    for _, c in ipairs(cases) do
      has(err_of(mapdata.lua_table, c[1], { source = "m.lua" }), "m.lua: ")
      has(err_of(mapdata.lua_table, c[1], { source = "m.lua" }), c[2])
    end
  end)
end)

describe("obb.mapdata's limits", function()
  it("refuses a map bigger than max_bytes", function()
    local text = "return { layers = {}, pad = '" .. ("x"):rep(2000) .. "' }"
    local path = tmp_with(".lua", text)
    local e = err_of(tiled.load, path, { max_bytes = 1000 })
    has(e, ("obb.tiled: cannot load map %s: %d bytes, more than 1000 (options.max_bytes)"):format(path, #text))
    assert.are.equal(0, #tiled.load(path, { max_bytes = #text }))
    os.remove(path)
    has(err_of(mapdata.lua_table, text, { max_bytes = 10 }), "more than 10 (options.max_bytes)")
    has(err_of(mapdata.json, "[" .. ("1,"):rep(100) .. "1]", { max_bytes = 10 }), "more than 10 (options.max_bytes)")
  end)

  it("refuses a map deeper than max_depth (200 by default)", function()
    local deep = "return { layers = {}, x = " .. ("{"):rep(300) .. ("}"):rep(300) .. " }"
    local path = tmp_with(".lua", deep)
    local t0 = os.clock()
    has(err_of(tiled.load, path), "line 1: tables nested more than 200 deep (options.max_depth)")
    has(err_of(tiled.load, path, { max_depth = 20 }), "tables nested more than 20 deep (options.max_depth)")
    assert.are.equal(0, #tiled.load(path, { max_depth = 301 }))
    -- a million open braces: refused at once, with no stack overflow
    write_file(path, ("{"):rep(1000000))
    has(err_of(tiled.load, path, { max_bytes = math.huge }), "tables nested more than 200 deep")
    has(err_of(tiled.load, path, { max_bytes = math.huge, max_depth = math.huge, max_tables = math.huge }),
      "table not closed")
    -- (with the default max_tables, a table per 8 bytes: refused at the 125001st)
    has(err_of(tiled.load, path, { max_bytes = math.huge, max_depth = math.huge }),
      "more than 125000 tables (options.max_tables), at byte 125001 of 1000000")
    assert.is_true(os.clock() - t0 < 5)
    os.remove(path)
    has(err_of(mapdata.json, ("["):rep(50) .. ("]"):rep(50), { max_depth = 49 }),
      "objects and arrays nested more than 49 deep (options.max_depth)")
  end)

  it("refuses a map with more than max_values values", function()
    local text = "return { layers = {}, data = { " .. ("0, "):rep(1000) .. "} }"
    local path = tmp_with(".lua", text)
    has(err_of(tiled.load, path, { max_values = 500 }), "more than 500 values (options.max_values)")
    assert.are.equal(0, #tiled.load(path, { max_values = 1003 }))
    has(err_of(tiled.load, path, { max_values = 1002 }), "more than 1002 values")
    os.remove(path)
    has(err_of(mapdata.json, "[" .. ("1,"):rep(20) .. "1]", { max_values = 20 }), "more than 20 values")
  end)

  -- round five: ten million empty tables (`{},` is 3 bytes; a table is
  -- about 70) passed every limit and took about 30 times the text; tables
  -- are now bounded by the text (max_tables), and every limit's error says
  -- how far the reader got, which shows it stopped there
  it("refuses more tables than max_tables (one per 8 bytes of the text by default) where it passes", function()
    local n = 100000
    local text = "return { " .. ("{},"):rep(n) .. "}" -- the outer table at byte 8, the k-th inner at 10 + 3 (k - 1)
    assert.are.equal(9 + 3 * n + 1, #text)
    -- 1000 tables: the outer and 999 inner ones; the 1001st, inner 1000, is refused where it opens
    has(err_of(mapdata.lua_table, text, { max_tables = 1000, source = "m.lua" }),
      ("m.lua: line 1: more than 1000 tables (options.max_tables), at byte %d of %d"):format(10 + 3 * 999, #text))
    -- the default: one table per 8 bytes of the text (and at least 10000)
    local max = math.floor(#text / 8)
    has(err_of(mapdata.lua_table, text),
      ("more than %d tables (options.max_tables), at byte %d of %d"):format(max, 10 + 3 * (max - 1), #text))
    -- as many as the limit lets through
    local few = "return { " .. ("{},"):rep(9999) .. "}"
    assert.are.equal(9999, #mapdata.lua_table(few))
    has(err_of(mapdata.lua_table, few, { max_tables = 9999 }), "more than 9999 tables")
    assert.are.equal(9999, #mapdata.lua_table(few, { max_tables = 10000 }))
    -- JSON alike
    local json = "[" .. ("[],"):rep(n - 1) .. "[]]"
    has(err_of(mapdata.json, json, { max_tables = 50 }),
      ("more than 50 tables (options.max_tables), at byte %d of %d"):format(2 + 3 * 49, #json))
    has(err_of(mapdata.json, json), ("more than %d tables"):format(math.floor(#json / 8)))
    -- through obb.tiled
    local path = tmp_with(".lua", "return { layers = {}, x = { " .. ("{},"):rep(100) .. "} }")
    has(err_of(tiled.load, path, { max_tables = 50 }), "more than 50 tables (options.max_tables), at byte")
    assert.are.equal(0, #tiled.load(path, { max_tables = 103 }))
    has(err_of(tiled.load, path, { max_tables = 102 }), "more than 102 tables")
    os.remove(path)
    has(err_of(tiled.load, {}, { max_tables = 0 }), "options.max_tables must be a whole number >= 1")
    has(err_of(mapdata.lua_table, "{}", { max_tables = 1.5 }), "options.max_tables must be an integer >= 0")
  end)

  it("names where a limit stopped the reader", function()
    local text = "return { data = { " .. ("0, "):rep(1000) .. "} }"
    -- value 1 is the outer table, 2 the inner one at byte 17; the k-th number at 19 + 3 (k - 1)
    has(err_of(mapdata.lua_table, text, { max_values = 500 }),
      ("more than 500 values (options.max_values), at byte %d of %d"):format(19 + 3 * 498, #text))
    has(err_of(mapdata.json, "[" .. ("1,"):rep(20) .. "1]", { max_values = 20 }),
      "more than 20 values (options.max_values), at byte 40 of 43")
  end)

  it("checks the limits' options", function()
    has(err_of(tiled.load, {}, { max_depth = 0 }), "options.max_depth must be a whole number >= 1")
    has(err_of(tiled.load, {}, { max_bytes = 1.5 }), "options.max_bytes must be a whole number >= 1")
    has(err_of(tiled.load, {}, { max_values = "9" }), "options.max_values must be a whole number >= 1")
    has(err_of(mapdata.lua_table, "{}", { max_depth = -1 }), "options.max_depth must be an integer >= 0")
    has(err_of(mapdata.lua_table, 5), "text must be a string, got number")
  end)
end)

describe("obb.tiled's options", function()
  it("names an unknown option of a million bytes, or of any type, in a short error at once", function()
    local long = ("cell"):rep(250000)
    local t0 = os.clock()
    local e = err_of(tiled.load, {}, { [long] = 1 })
    assert.is_true(os.clock() - t0 < 1)
    has(e, 'obb.tiled: unknown option "cellcellcell')
    has(e, "(1000000 bytes)")
    assert.is_true(#e < 400, #e)
    for _, key in ipairs({ true, 2.5, print, {}, -0.0, math.huge }) do
      e = err_of(tiled.load, {}, { [key] = 1 })
      has(e, "obb.tiled: unknown option ")
      assert.is_true(#e < 400, #e)
    end
  end)
end)

-- ---- the Lua reader against load ----------------------------------------

-- Random table texts in the forms Tiled writes (and the rest of Lua's
-- literal syntax the reader takes), compared with what load() makes of
-- the same text.
local gen = {}

local ESCAPES = { "\\n", "\\t", "\\\\", "\\\"", "\\'", "\\r", "\\a", "\\b", "\\f", "\\v", "\\0", "\\65", "\\255",
  "\\009", "\\\n" }
if not LUA51 then ESCAPES[#ESCAPES + 1] = "\\x41"; ESCAPES[#ESCAPES + 1] = "\\xfF" end

function gen.string(r)
  local q = r(2) == 1 and '"' or "'"
  local parts = { q }
  for _ = 1, r(0, 6) do
    local k = r(4)
    if k == 1 then
      parts[#parts + 1] = ESCAPES[r(#ESCAPES)]
    elseif k == 2 then
      parts[#parts + 1] = q == '"' and "'" or '"'
    elseif k == 3 then
      parts[#parts + 1] = string.char(r(128, 255)) -- UTF-8 bytes pass as they are
    else
      parts[#parts + 1] = ("abc xyz_-=,;{}[]()#.:/"):sub(r(22), r(22))
    end
  end
  parts[#parts + 1] = q
  return table.concat(parts)
end

function gen.number(r)
  local forms = {
    function() return tostring(r(0, 100000)) end,
    function() return "-" .. r(0, 100000) end,
    function() return ("%.17g"):format((r() - 0.5) * 10 ^ r(-5, 12)) end,
    function() return ("%.6g"):format((r() - 0.5) * 1000) end,
    function() return r(1, 99) .. "e" .. r(-30, 30) end,
    function() return r(1, 9) .. "." .. r(0, 999) .. "E+" .. r(0, 20) end,
    function() return ("0x%X"):format(r(0, 2 ^ 30)) end,
    function() return ("-0x%x"):format(r(0, 65535)) end,
    function() return "." .. r(0, 999) end,
    function() return r(0, 99) .. "." end,
    function() return "-0" end,
    function() return "4294967295" end,
    function() return "9007199254740993" end,
    function() return "1e308" end,
    function() return "-2147483648" end,
  }
  return forms[r(#forms)]()
end

local function gen_value(r, depth)
  local k = r(depth > 3 and 4 or 6)
  if k == 1 then return gen.string(r) end
  if k == 2 then return gen.number(r) end
  if k == 3 then return ({ "true", "false", "nil" })[r(3)] end
  if k == 4 then return gen.number(r) end
  return gen.table(r, depth + 1)
end

local SPACE = { " ", "", "\n", "\t", "  ", " -- a comment\n", " --[[ block ]] ", "--[==[ x ]] ]==]", "\r\n" }

function gen.table(r, depth)
  local parts, used = { "{" }, {}
  for i = 1, r(0, 6) do
    parts[#parts + 1] = SPACE[r(#SPACE)]
    local k = r(4)
    if k == 1 then
      local name = ("k%d_%d"):format(depth, i)
      parts[#parts + 1] = name .. SPACE[r(#SPACE)] .. "=" .. SPACE[r(#SPACE)]
    elseif k == 2 then
      local key = ('["key %d %d"]'):format(depth, i)
      parts[#parts + 1] = key .. " = "
    elseif k == 3 then
      local key = r(1000, 100000) -- far from the positional indices
      if not used[key] then
        used[key] = true
        parts[#parts + 1] = ("[%s] = "):format(r(2) == 1 and key or key + 0.5)
      end
    end
    parts[#parts + 1] = gen_value(r, depth)
    if i < 6 or r(2) == 1 then parts[#parts + 1] = ({ ",", ";", ", " })[r(3)] end
  end
  parts[#parts + 1] = SPACE[r(#SPACE)] .. "}"
  return table.concat(parts)
end

-- Deep equality, integers and floats told apart where Lua has both.
local function same(a, b, where)
  if type(a) ~= type(b) then return false, where .. ": " .. type(a) .. " vs " .. type(b) end
  if type(a) == "number" then
    if math_type and math_type(a) ~= math_type(b) then return false, where .. ": integer vs float" end
    if a ~= b and (a == a or b == b) then return false, ("%s: %.17g vs %.17g"):format(where, a, b) end
    -- (PUC Lua 5.1 folds the constant -0 to 0; the sign of a zero is nothing to a map)
    if a == 0 and 1 / a ~= 1 / b and not LUA51 then return false, where .. ": the signs of zero differ" end
    return true
  end
  if type(a) ~= "table" then
    if a ~= b then return false, where .. ": " .. tostring(a) .. " vs " .. tostring(b) end
    return true
  end
  for k, v in pairs(a) do
    local ok, why = same(v, b[k], where .. "[" .. tostring(k) .. "]")
    if not ok then return ok, why end
  end
  for k in pairs(b) do
    if a[k] == nil then return false, where .. ": missing key " .. tostring(k) end
  end
  return true
end

describe("obb.mapdata.lua_table", function()
  it("reads what load reads, on 400 random table texts", function()
    math.randomseed(20250)
    local r = math.random
    for n = 1, 400 do
      local text = (r(2) == 1 and "return " or "return\n") .. gen.table(r, 0)
      local want = assert(load_text(text))()
      local ok, got = pcall(mapdata.lua_table, text)
      if not ok then error(("text %d failed: %s\n%s"):format(n, got, text)) end
      local equal, why = same(got, want, "t")
      if not equal then error(("text %d: %s\n%s"):format(n, why, text)) end
    end
  end)

  it("reads every escape and number form Tiled writes as load does", function()
    local text = [[return {
  s = "a\"b\\c\nd\te'f", u = "héllo ✓", q = 'it\'s', d = "\0\65\066\255", nl = "x\
y",
  n = { 0, -0, 1, -1, 16, 2.5, -0.125, 1e10, 1.5e-7, -3E+2, .5, 5., 0x10, 0XfF, -0x7fffffff,
        4294967295, 2147483648, 9007199254740993, 9223372036854775807, 1e308, 5e-324 },
  b = { true, false, nil, 4 };
  ["key with spaces"] = 1, [7] = "seven", [2.5] = "half",
}]]
    local ok, why = same(mapdata.lua_table(text), assert(load_text(text))(), "t")
    assert.is_true(ok, why)
    -- "-9223372036854775808" is minus a float on Lua 5.3+ (load's reading), not the integer
    ok, why = same(mapdata.lua_table("{ -9223372036854775808 }"),
      assert(load_text("return { -9223372036854775808 }"))(), "t")
    assert.is_true(ok, why)
  end)

  -- round five: `{ "b", [1] = "a" }` gave "a", where load gives "b"
  it("gives a place that a key and a position both name the value PUC Lua's load gives", function()
    -- PUC Lua 5.1 to 5.4 store the positional values in batches of 50 after
    -- the keyed fields among them (and a nil too); LuaJIT's load sets
    -- constant fields in the order written, so it differs on some of these
    local fifty = {}
    for i = 1, 50 do fifty[i] = '"v' .. i .. '"' end
    local cases = { -- text, key, the value load gives under PUC Lua
      { '{ "b", [1] = "a" }', 1, "b" },
      { '{ [1] = "a", "b" }', 1, "b" },
      { '{ nil, [1] = "a" }', 1, nil },
      { '{ [1] = "a", nil }', 1, nil },
      { '{ [1.0] = "a", "b" }', 1, "b" },
      { '{ "b", [1.0] = "a" }', 1, "b" },
      { '{ 7, [1] = "a" }', 1, 7 },
      { '{ [1] = "a", [1] = nil }', 1, nil },
      { '{ [1] = "a", [1] = "c" }', 1, "c" },
      { '{ x = 1, x = nil }', "x", nil },
      { '{ 1, 2, [2] = "a", [1.5] = "h", [3] = "c" }', 1.5, "h" },
      { "{ " .. table.concat(fifty, ", ") .. ', [1] = "a" }', 1, "a" }, -- the batch of 50 is stored first
      { "{ " .. table.concat(fifty, ", ", 1, 49) .. ', [1] = "a" }', 1, "v1" },
      { "{ " .. table.concat(fifty, ", ", 1, 49) .. ', [1] = "a", "v50" }', 1, "v1" },
      { "{ " .. table.concat(fifty, ", ") .. ', [51] = "a", "v51" }', 51, "v51" },
      { "{ " .. table.concat(fifty, ", ") .. ', "v51", [51] = "a" }', 51, "v51" },
      { "{ " .. table.concat(fifty, ", ") .. ', "v51", [50] = "a" }', 50, "a" },
    }
    for _, c in ipairs(cases) do
      local got = mapdata.lua_table(c[1])
      assert.are.equal(c[3], got[c[2]], c[1])
      if not rawget(_G, "jit") then -- PUC Lua: the same as load, every key
        local ok, why = same(got, assert(load_text("return " .. c[1]))(), "t")
        assert.is_true(ok, c[1] .. ": " .. tostring(why))
      end
    end
    -- `{ 1, 2, [2] = "a", [3] = "c" }`: [2] is refused a place 2 already holds, [3] is kept
    local t = mapdata.lua_table('{ 1, 2, [2] = "a", [3] = "c" }')
    assert.are.same({ 1, 2, "c" }, { t[1], t[2], t[3] })
    -- a key not stored by a position: a name, or a place no position reaches
    assert.are.same({ x = 1, [5] = "e", 1 }, mapdata.lua_table('{ x = 1, [5] = "e", 1 }'))
  end)

  it("reads a map without `return`, with a byte order mark, and refuses other values", function()
    assert.are.same({ a = 1 }, mapdata.lua_table("{ a = 1 }"))
    assert.are.same({ a = 1 }, mapdata.lua_table("\239\187\191return { a = 1 }"))
    has(err_of(mapdata.lua_table, "return 'a map'", { source = "s" }), "s: line 1: returned string, not a table")
  end)
end)

describe("obb.mapdata.json", function()
  it("reads JSON: escapes, surrogate pairs, numbers, literals, null", function()
    local v = mapdata.json([[{"s": "a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20ac\ud83d\ude00",
      "n": [0, -1, 2.5, -1.5e3, 1E2, 0.5e-2],
      "t": true, "f": false, "z": null, "a": [1, null, 3], "o": {}, "e": []}]])
    assert.are.equal("a\"b\\c/d\b\f\n\r\tA\195\169\226\130\172\240\159\152\128", v.s)
    assert.are.same({ 0, -1, 2.5, -1500, 100, 0.005 }, v.n)
    assert.are.same({ true, false }, { v.t, v.f })
    assert.is_nil(v.z)
    assert.are.same({ 1, nil, 3 }, v.a)
    assert.are.same({}, v.o)
  end)

  it("refuses what is not JSON, naming the line", function()
    local cases = {
      { '{"a": 1,}', "line 1: a member name (a string) expected" },
      { '{\n"a": 01}', "line 2: malformed number" },
      { '["\\ud800"]', "half of a surrogate pair" },
      { '["\\udc00"]', "second half of a surrogate pair" },
      { '["\\q"]', "escape \\q is not JSON" },
      { '[1 2]', ", or ] expected" },
      { '{"a" 1}', ": expected after a member name" },
      { '[nul]', 'found "nul]" where a JSON value belongs' },
      { '{"a": NaN}', 'found "NaN}" where a JSON value belongs' },
      { '["a\nb"]', "control character 10 inside a string" },
      { '[1] [2]', "the text goes on after the JSON value" },
      { '\n\n[', "line 3: a value expected, found the end of the text" },
    }
    for _, c in ipairs(cases) do
      local e = err_of(mapdata.json, c[1], { source = "m.json" })
      has(e, "m.json: ")
      has(e, c[2])
    end
  end)
end)

-- ---- maps through tiled -------------------------------------------------

-- What a load gives, item by item: the box and the item's fields.
local function snapshot(world, items, skipped, points)
  local out = { n = #world, items = {}, skipped = {}, points = points }
  for i, it in ipairs(items) do out.items[i] = { box = { world:get(it) }, item = it } end
  for i, s in ipairs(skipped) do out.skipped[i] = s end
  return out
end

describe("obb.tiled reads map files as data", function()
  local paths = { "examples/maps/level1.lua", "examples/maps/platformer.lua", "examples/maps/racetrack.lua" }
  for _, path in ipairs(paths) do
    it("loads " .. path .. " to exactly the items of the table dofile gives", function()
      local by_path = snapshot(tiled.load(path))
      local by_table = snapshot(tiled.load(dofile(path)))
      assert.is_true(by_path.n > 0)
      assert.are.same(by_table, by_path)
      local opts = { property = "collidable" }
      assert.are.same(snapshot(tiled.load(dofile(path), opts)), snapshot(tiled.load(path, opts)))
    end)
  end

  it("reads through love.filesystem.read inside LÖVE, and never love.filesystem.load", function()
    local asked
    local saved = rawget(_G, "love")
    rawset(_G, "love", { filesystem = {
      read = function(path) asked = path; return read_file(path) end,
      getInfo = function(path) return { type = "file", size = #read_file(path) } end,
      load = function() error("love.filesystem.load runs the map") end,
    } })
    local ok, world = pcall(tiled.load, "examples/maps/level1.lua")
    local ok2, e2 = pcall(tiled.load, "examples/maps/level1.lua", { max_bytes = 100 })
    rawset(_G, "love", saved)
    assert.is_true(ok, world)
    assert.are.equal("examples/maps/level1.lua", asked)
    assert.are.equal(51, #world)
    assert.is_false(ok2)
    has(e2, "more than 100 (options.max_bytes)")
  end)

  it("refuses Tiled's XML format, saying what to export", function()
    has(err_of(tiled.load, "examples/maps/platformer.tmx"),
      "obb.tiled: map examples/maps/platformer.tmx is Tiled's XML format (.tmx), which is not read: " ..
      "export it from Tiled as Lua")
    has(err_of(tiled.load, "LEVEL.TMX"), "Tiled's XML format")
  end)

  -- The same small map as Tiled's Lua export and its JSON export.
  local LUA_MAP = [[
return {
  version = "1.10", orientation = "orthogonal", width = 4, height = 2, tilewidth = 16, tileheight = 16,
  properties = { gravity = 600 },
  tilesets = {
    { name = "t", firstgid = 1, tilewidth = 16, tileheight = 16, objectalignment = "unspecified",
      tileoffset = { x = 0, y = 0 }, properties = {},
      tiles = {
        { id = 0, properties = { collidable = true } },
        { id = 1, type = "slab", properties = { kind = "half" },
          objectGroup = { type = "objectgroup", offsetx = 0, offsety = 0, properties = {},
            objects = { { id = 1, name = "", type = "", shape = "rectangle", x = 0, y = 8, width = 16, height = 8,
              rotation = 0, visible = true, properties = {} } } } },
        { id = 2, image = "crate.png", width = 24, height = 20, properties = { collidable = true } },
      } },
    { firstgid = 10, filename = "ext.tsx" }, -- JSON writes no name for an external tileset
  },
  layers = {
    { type = "tilelayer", name = "ground", width = 4, height = 2, offsetx = 0, offsety = 0,
      properties = { collidable = true }, encoding = "lua",
      data = { 0, 0, 2, 3, 1, 1, 1, 10 } },
    { type = "group", name = "things", offsetx = 5, offsety = -3, properties = {},
      layers = {
        { type = "objectgroup", name = "objects", offsetx = 0, offsety = 0, properties = { collidable = true },
          objects = {
            { id = 1, name = "wall", type = "solid", shape = "rectangle", x = 0, y = 0, width = 16, height = 32,
              rotation = 30, visible = true, properties = { hp = 3, oneway = false } },
            { id = 2, name = "spawn", type = "", shape = "point", x = 8, y = 8, width = 0, height = 0,
              rotation = 0, visible = true, properties = {} },
            { id = 3, name = "rock", type = "", shape = "ellipse", x = 1, y = 1, width = 4, height = 4,
              rotation = 0, visible = true, properties = {} },
            { id = 4, name = "zone", type = "", shape = "polygon", x = 1, y = 1, width = 0, height = 0,
              rotation = 0, visible = true, polygon = { { x = 0, y = 0 }, { x = 4, y = 0 }, { x = 0, y = 4 } },
              properties = {} },
            { id = 5, name = "crate", type = "", shape = "rectangle", x = 40, y = 40, width = 16, height = 16,
              rotation = 90, gid = 1, visible = true, properties = {} },
          } },
      } },
  },
}
]]
  local JSON_MAP = [[
{ "type": "map", "version": "1.10", "orientation": "orthogonal", "width": 4, "height": 2,
  "tilewidth": 16, "tileheight": 16,
  "properties": [ { "name": "gravity", "type": "int", "value": 600 } ],
  "tilesets": [
    { "name": "t", "firstgid": 1, "tilewidth": 16, "tileheight": 16, "objectalignment": "unspecified",
      "tileoffset": { "x": 0, "y": 0 },
      "tiles": [
        { "id": 0, "properties": [ { "name": "collidable", "type": "bool", "value": true } ] },
        { "id": 1, "type": "slab", "properties": [ { "name": "kind", "type": "string", "value": "half" } ],
          "objectgroup": { "type": "objectgroup", "draworder": "index", "name": "", "opacity": 1, "visible": true,
            "x": 0, "y": 0,
            "objects": [ { "id": 1, "name": "", "type": "", "x": 0, "y": 8, "width": 16, "height": 8,
              "rotation": 0, "visible": true } ] } },
        { "id": 2, "image": "crate.png", "imagewidth": 24, "imageheight": 20,
          "properties": [ { "name": "collidable", "type": "bool", "value": true } ] }
      ] },
    { "firstgid": 10, "source": "ext.tsx" }
  ],
  "layers": [
    { "type": "tilelayer", "name": "ground", "width": 4, "height": 2, "x": 0, "y": 0, "opacity": 1, "visible": true,
      "properties": [ { "name": "collidable", "type": "bool", "value": true } ],
      "data": [ 0, 0, 2, 3, 1, 1, 1, 10 ] },
    { "type": "group", "name": "things", "offsetx": 5, "offsety": -3, "opacity": 1, "visible": true, "x": 0, "y": 0,
      "layers": [
        { "type": "objectgroup", "name": "objects", "draworder": "topdown", "opacity": 1, "visible": true,
          "x": 0, "y": 0,
          "properties": [ { "name": "collidable", "type": "bool", "value": true } ],
          "objects": [
            { "id": 1, "name": "wall", "type": "solid", "x": 0, "y": 0, "width": 16, "height": 32,
              "rotation": 30, "visible": true,
              "properties": [ { "name": "hp", "type": "int", "value": 3 },
                              { "name": "oneway", "type": "bool", "value": false } ] },
            { "id": 2, "name": "spawn", "type": "", "point": true, "x": 8, "y": 8, "width": 0, "height": 0,
              "rotation": 0, "visible": true },
            { "id": 3, "name": "rock", "type": "", "ellipse": true, "x": 1, "y": 1, "width": 4, "height": 4,
              "rotation": 0, "visible": true },
            { "id": 4, "name": "zone", "type": "", "x": 1, "y": 1, "width": 0, "height": 0, "rotation": 0,
              "visible": true, "polygon": [ { "x": 0, "y": 0 }, { "x": 4, "y": 0 }, { "x": 0, "y": 4 } ] },
            { "id": 5, "name": "crate", "type": "", "x": 40, "y": 40, "width": 16, "height": 16, "rotation": 90,
              "gid": 1, "visible": true }
          ] }
      ] }
  ]
}
]]

  -- What matters of a load for the comparison: each item's box and the
  -- fields the game reads.
  local function summary(world, items, skipped, points)
    local out = { n = #world, items = {}, skipped = {}, points = {} }
    for i, p in ipairs(points) do
      out.points[i] = { layer = p.layer, name = p.name, type = p.type, cx = p.cx, cy = p.cy }
    end
    for i, it in ipairs(items) do
      local props = {}
      for k, v in pairs(it.properties) do props[k] = v end
      out.items[i] = { box = { world:get(it) }, layer = it.layer, name = it.name, type = it.type, shape = it.shape,
        col = it.col, row = it.row, width = it.width, height = it.height, tile_id = it.tile_id,
        properties = props }
    end
    for i, s in ipairs(skipped) do
      out.skipped[i] = { layer = s.layer, name = s.name, reason = s.reason, shape = s.shape }
    end
    return out
  end

  it("loads Tiled's JSON export (.json, .tmj) to the same world as its Lua export", function()
    local lua_path = tmp_with(".lua", LUA_MAP)
    local json_path = tmp_with(".json", JSON_MAP)
    local tmj_path = tmp_with(".TMJ", JSON_MAP)
    local want = summary(tiled.load(lua_path))
    assert.are.equal(7, want.n) -- 2 + 1 tiles (one of them the slab), the wall, the crate
    assert.are.equal(1, #want.points) -- the spawn point
    assert.are.equal(3, #want.skipped) -- the external tileset, the ellipse, the polygon
    assert.are.same(want, summary(tiled.load(json_path)))
    assert.are.same(want, summary(tiled.load(tmj_path)))
    local opts = { property = "collidable", layers = "things" }
    assert.are.same(summary(tiled.load(lua_path, opts)), summary(tiled.load(json_path, opts)))
    -- a JSON map read as Lua, or the reverse, is refused by the reader
    local swapped = tmp_with(".lua", JSON_MAP)
    has(err_of(tiled.load, swapped), "reading it as data raised an error: " .. swapped .. ": line 1: ")
    for _, p in ipairs({ lua_path, json_path, tmj_path, swapped }) do os.remove(p) end
  end)

  it("names the place of a bad JSON property list", function()
    local path = tmp_with(".json", [[{ "layers": [ { "type": "objectgroup", "name": "l",
      "properties": [ { "name": "a", "value": 1 }, { "value": 2 } ], "objects": [] } ] }]])
    has(err_of(tiled.load, path),
      "obb.tiled: map.layers[1].properties[2] must be a property { name, type, value } with a string name, " ..
      "got name nil")
    write_file(path, '{ "layers": [ { "type": "objectgroup", "objects": [ {"x": 1}, null, {"x": 2} ] } ] }')
    has(err_of(tiled.load, path), "obb.tiled: map.layers[1].objects has a gap: [2] is nil but [3] is set")
    write_file(path, '[1, 2]')
    has(err_of(tiled.load, path), "map.layers must be a table")
    write_file(path, '"a map"')
    has(err_of(tiled.load, path), "returned string, not a table")
    os.remove(path)
  end)
end)

describe("obb.tiled on deep maps and maps that hold themselves", function()
  it("refuses a chain of 10,000 groups at once, naming the depth", function()
    local map = group_chain(10000)
    local t0 = os.clock()
    local e = err_of(tiled.load, map)
    assert.is_true(os.clock() - t0 < 1, "took " .. (os.clock() - t0) .. " s")
    has(e, "obb.tiled: map.layers[1]" .. (".layers[1]"):rep(200) .. ": groups nested more than 200 deep " ..
      "(options.max_depth)")
    has(err_of(tiled.load, group_chain(30), { max_depth = 29 }), "groups nested more than 29 deep")
    assert.are.equal(1, #tiled.load(group_chain(30), { max_depth = 30 }))
  end)

  it("loads a chain of 10,000 groups in memory linear in its depth when max_depth allows", function()
    local map = group_chain(10000)
    collectgarbage()
    collectgarbage("stop")
    local before = collectgarbage("count")
    local t0 = os.clock()
    local world, items = tiled.load(map, { max_depth = 10000 })
    local kib = collectgarbage("count") - before
    collectgarbage("restart")
    assert.are.equal(1, #world)
    assert.are.equal("deep", items[1].layer)
    assert.is_true(kib < 32 * 1024, ("%.0f KiB"):format(kib)) -- the eager paths took 600 MB at 8,000
    assert.is_true(os.clock() - t0 < 2)
    -- an error at the bottom still names the whole place
    map = group_chain(300)
    local g = map.layers[1]
    while g.layers[1].type == "group" do g = g.layers[1] end
    g.layers[1].objects[1].width = -1
    has(err_of(tiled.load, map, { max_depth = 300 }),
      "map.layers[1]" .. (".layers[1]"):rep(300) .. ".objects[1].width must be >= 0, got -1")
  end)

  it("refuses a group that contains itself, at once", function()
    local g = { type = "group", name = "g", layers = {} }
    g.layers[1] = g
    local t0 = os.clock()
    has(err_of(tiled.load, small_map({}, { layers = { g } })),
      "obb.tiled: map.layers[1].layers[1] contains itself: it is the group map.layers[1] around it")
    -- deeper: the inner group's layers hold the outer one
    local outer = { type = "group", name = "outer", layers = {} }
    local inner = { type = "group", name = "inner", layers = { outer } }
    outer.layers[1] = { type = "objectgroup", name = "o", objects = {} }
    outer.layers[2] = inner
    has(err_of(tiled.load, small_map({}, { layers = { outer } })),
      "map.layers[1].layers[2].layers[1] contains itself: it is the group map.layers[1] around it")
    -- the map itself as a group among its layers
    local map = small_map({})
    map.type = "group"
    map.layers[2] = map
    has(err_of(tiled.load, map), "map.layers[2] contains itself: it is the group map around it")
    -- a group met twice (a chain of them would take 2^depth steps)
    local shared = { type = "group", layers = {} }
    has(err_of(tiled.load, small_map({}, { layers = { shared, shared } })),
      "map.layers[2] is the group map.layers[1] again")
    assert.is_true(os.clock() - t0 < 1)
  end)
end)

describe("obb.tiled names the place of a malformed map", function()
  local ok_tile = { 1, 0 }
  local cases = {
    { "a tile layer of width 2.5", tile_map(ok_tile, nil, { width = 2.5 }),
      "map.layers[1].width must be a whole number >= 1, got 2.5" },
    { "a gap in objects", small_map({ rect(1, 0, 0, 1, 1), nil, rect(3, 0, 0, 1, 1) }),
      "map.layers[1].objects has a gap: [2] is nil but [3] is set" },
    { "keys 1 and 3 in layers", small_map({}, { layers = { { type = "imagelayer" }, nil, { type = "imagelayer" } } }),
      "map.layers has a gap: [2] is nil but [3] is set" },
    { "a gid of 2^32 + 1", small_map({ rect(1, 0, 0, 1, 1, { gid = 2 ^ 32 + 1 }) },
      { tilesets = { { firstgid = 1, tilewidth = 16, tileheight = 16 } } }),
      "map.layers[1].objects[1].gid must be an integer gid (a 32-bit number), got 4294967297" },
    { "an image tile of negative width", tile_map(ok_tile, { tiles = { { id = 0, image = "a.png", width = -5,
      height = 4, properties = { collidable = true } } } }),
      "map.tilesets[1] tile 0: its size -5 x 4 must not be negative" },
    { "a box too big to be finite", small_map({ rect(1, 1.7e308, 0, 1.7e308, 1) }),
      "map.layers[1].objects[1]: its box is not finite" },
    { "a gid beyond 32 bits", small_map({ rect(1, 0, 0, 1, 1, { gid = 1e300 }) }),
      "map.layers[1].objects[1].gid must be an integer gid (a 32-bit number), got 1e+300" },
    { "a firstgid that is not whole", tile_map(ok_tile, { firstgid = 1.5 }),
      "map.tilesets[1].firstgid must be a whole number >= 1, got 1.5" },
    { "a tile layer of width 0", tile_map(ok_tile, nil, { width = 0 }),
      "map.layers[1].width must be a whole number >= 1, got 0" },
    { "a chunk of width 2.5", tile_map(nil, nil, { chunks = { { x = 0, y = 0, width = 2.5, data = ok_tile } } }),
      "map.layers[1].chunks[1].width must be a whole number >= 1, got 2.5" },
    { "a gap in tile data", tile_map({ 1, nil, 1 }), "map.layers[1].data has a gap: [2] is nil but [3] is set" },
    { "a gap in tilesets", small_map({}, { tilesets = { { firstgid = 1 }, nil, { firstgid = 5 } } }),
      "map.tilesets has a gap: [2] is nil but [3] is set" },
    { "a gap in tiles", tile_map(ok_tile, { tiles = { { id = 0 }, nil, { id = 2 } } }),
      "map.tilesets[1].tiles has a gap: [2] is nil but [3] is set" },
    { "a firstgid of 0", tile_map(ok_tile, { firstgid = 0 }),
      "map.tilesets[1].firstgid must be a whole number >= 1, got 0" },
    { "a tileoffset that is a number", tile_map(ok_tile, { tileoffset = 3 }),
      "map.tilesets[1].tileoffset must be a table, got number" },
    { "a tilewidth below zero", tile_map(ok_tile, { tilewidth = -16 }),
      "map.tilesets[1].tilewidth must be >= 0, got -16" },
    { "a gid in tile data that is a string", tile_map({ "1" }),
      "map.layers[1].data[1] must be an integer gid (a 32-bit number), got \"1\"" },
    { "an objectalignment that is a table",
      small_map({ rect(1, 0, 0, 1, 1, { gid = 1 }) }, { tilesets = { { firstgid = 1, objectalignment = {} } } }),
      "map.layers[1].objects[1]: tileset objectalignment a table is not one Tiled writes" },
    { "an orientation that is a table", small_map({}, { orientation = {} }),
      "map.orientation must be a string, got table" },
    { "a gap in a tile's collision shapes", tile_map(ok_tile, { tiles = { { id = 0, objectGroup = {
      objects = { rect(1, 0, 0, 1, 1), nil, rect(3, 0, 0, 1, 1) } } } } }),
      "map.tilesets[1] (tile 0).objectGroup.objects has a gap: [2] is nil but [3] is set" },
    { "a gap in chunks", tile_map(nil, nil, { chunks = { { x = 0, y = 0, width = 2, data = ok_tile }, nil,
      { x = 0, y = 1, width = 2, data = ok_tile } } }),
      "map.layers[1].chunks has a gap: [2] is nil but [3] is set" },
  }
  for _, c in ipairs(cases) do
    it("refuses " .. c[1], function()
      local w = obb.world2()
      local e = err_of(tiled.add, w, c[2])
      has(e, "obb.tiled: " .. c[3])
      assert.are.equal(0, #w)
    end)
  end

  it("refuses a point whose place overflows, listed or added, and adds nothing", function()
    local map = small_map({ rect(1, 0, 0, 1, 1),
      { id = 2, shape = "point", x = 1.7e308, y = 0, properties = {} } })
    map.layers[1].offsetx = 1.7e308
    for _, mode in ipairs({ "list", "add" }) do
      local w = obb.world2()
      local e = err_of(tiled.add, w, map, { points = mode })
      has(e, mode == "list" and "obb.tiled: map.layers[1].objects[2]: its point is not finite (inf, 0)"
        or "obb.tiled: map.layers[1].objects[2]: its box is not finite")
      assert.are.equal(0, #w)
    end
  end)

  it("names a type of a million bytes in a short error (options.classes with strict)", function()
    local long = ("x"):rep(1e6)
    local e = err_of(tiled.load, small_map({ rect(1, 0, 0, 1, 1, { type = long }) }), { classes = {}, strict = true })
    has(e, 'obb.tiled: map.layers[1].objects[1]: its type "' .. ("x"):rep(50) .. '"... (1000000 bytes) is not in')
    assert.is_true(#e < 400, #e)
    -- and the same type in classes is found
    local world, items = tiled.load(small_map({ rect(1, 0, 0, 1, 1, { type = long }) }), { classes = { [long] = 9 } })
    assert.are.equal(9, world:class(items[1]))
  end)

  it("names the place of a tile object's tile that is not a table, when classes reads its type", function()
    local map = small_map({ rect(1, 0, 16, 16, 16, { gid = 1 }) },
      { tilesets = { { name = "ts", firstgid = 1, tilewidth = 16, tileheight = 16, tiles = { "block" } } } })
    assert.are.equal(1, #tiled.load(map)) -- its tile is not read without classes
    local w = obb.world2()
    has(err_of(tiled.add, w, map, { classes = {} }), "obb.tiled: map.tilesets[1].tiles[1] must be a table, got string")
    assert.are.equal(0, #w)
    map.tilesets[1].tiles = { { id = 0, type = false } }
    has(err_of(tiled.add, w, map, { classes = {} }),
      "obb.tiled: map.tilesets[1] tile 0.type must be a string, got false")
  end)

  it("names the place when the world refuses a box", function()
    local closed = obb.world2()
    closed:close()
    local e = err_of(tiled.add, closed, small_map({ rect(1, 0, 0, 1, 1) }))
    has(e, "obb.tiled: map.layers[1].objects[1]: the world refused its box: ")
    has(e, "closed")
  end)

  it("reports an external tileset of an unnamed layer once", function()
    local map = tile_map({ 10, 10 })
    map.layers[1].name = nil
    map.tilesets[2] = { name = "ext", firstgid = 10, filename = "ext.tsx" }
    local _, items, skipped = tiled.load(map)
    assert.are.equal(0, #items)
    assert.are.equal(1, #skipped)
    has(skipped[1].reason, "tileset \"ext\" is in an external file (ext.tsx)")
  end)
end)
