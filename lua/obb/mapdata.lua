-- obb.mapdata: reads map files as data, never as code. A Tiled Lua export
-- is a Lua chunk (`return { ... }`), and running it (loadfile, dofile,
-- love.filesystem.load) runs whatever a mod's map holds: os.exit, file
-- access, an endless loop, or a precompiled chunk that crashes the
-- interpreter. These readers accept only the table syntax Tiled writes and
-- Tiled's JSON export, and build the same tables `load` would.
--
-- Pure Lua (5.1 to 5.4 and LuaJIT), string functions only. Time and memory
-- are linear in the text: tokens are matched with patterns anchored at
-- the position (string.find(s, "^...", pos)), strings with escapes are
-- built from a list of parts, nesting is an explicit stack (no recursion,
-- so no "stack overflow" at any depth), and line numbers are counted only
-- for an error. The limits are counted as the reader goes: a text that
-- passes one is refused where it does, before anything after is built.
-- The reader makes no garbage per value or table (the stack is a set of
-- arrays, a string without escapes is cut out at once), so what it holds
-- is what it returns.
--
--   local mapdata = require "obb.mapdata"
--   local map = mapdata.lua_table(text, { source = "maps/level1.lua" })
--   local map2 = mapdata.json(text, { source = "maps/level1.tmj", max_depth = 50 })
--
-- Options (all optional): source (the name errors start with, default
-- "map"), max_bytes (default 64 MiB), max_depth (nesting of tables,
-- default 200), max_values (values of any kind, default 10 million),
-- max_tables (tables, objects and arrays; default one per TABLE_BYTES = 8
-- bytes of the text, and at least MIN_TABLES = 10000: an empty table is
-- 3 bytes of text and some 70 of memory, a table of a real map hundreds
-- of bytes). Errors are strings "<source>: line N: <what was wrong>"
-- raised with error(msg, 0); a limit's ends ", at byte B of N".

local M = {}

local find, sub, byte, char = string.find, string.sub, string.byte, string.char
local format, concat = string.format, table.concat
local floor, huge = math.floor, math.huge

-- max_tables has no fixed default: it follows the text (new_reader).
M.defaults = { max_bytes = 64 * 1024 * 1024, max_depth = 200, max_values = 10000000 }
M.TABLE_BYTES, M.MIN_TABLES = 8, 10000

local LIMITS = { "max_bytes", "max_depth", "max_values", "max_tables" }

-- ---- options and errors ------------------------------------------------

local function check_opts(opts, fname)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    error(format("obb.mapdata.%s: options must be a table, got %s", fname, type(opts)), 3)
  end
  local out = { source = opts.source }
  if out.source == nil then out.source = "map" end
  if type(out.source) ~= "string" then
    error(format("obb.mapdata.%s: options.source must be a string, got %s", fname, type(out.source)), 3)
  end
  for _, k in ipairs(LIMITS) do
    local v = opts[k]
    if v == nil then v = M.defaults[k] end
    -- (no max_tables: new_reader sets it from the text)
    if v ~= nil and (type(v) ~= "number" or v ~= v or v < 0 or (v ~= huge and v ~= floor(v))) then
      error(format("obb.mapdata.%s: options.%s must be an integer >= 0 (or math.huge), got %s",
        fname, k, tostring(v)), 3)
    end
    out[k] = v
  end
  return out
end

-- The line of byte pos: counted only when an error is raised.
local function line_of(s, pos)
  local line, at = 1, 1
  while true do
    local nl = find(s, "\n", at, true)
    if nl == nil or nl >= pos then return line end
    line, at = line + 1, nl + 1
  end
end

-- What the text holds at pos, for "found ..." in messages: the rest of
-- the line, at most 24 bytes.
local function near(s, pos)
  if pos > #s then return "the end of the text" end
  local piece = sub(s, pos, pos + 23)
  local nl = find(piece, "[\r\n]")
  if nl then piece = sub(piece, 1, nl - 1) end
  if piece == "" then return "the end of the line" end
  return (format("%q", piece))
end

-- A reader's state: text, position, limits, counts.
local Reader = {}
Reader.__index = Reader

function Reader:fail(pos, msg, ...)
  error(format("%s: line %d: ", self.source, line_of(self.s, pos)) .. format(msg, ...), 0)
end

-- A limit passed at pos: the error says where, which is how far the
-- reader got (it stops there).
function Reader:limit(pos, max, what, option)
  self:fail(pos, "more than %d %s (options.%s), at byte %d of %d", max, what, option, pos, #self.s)
end

-- One more value (of any kind) at pos.
function Reader:count(pos)
  local n = self.values + 1
  if n > self.max_values then self:limit(pos, self.max_values, "values", "max_values") end
  self.values = n
end

-- One more table at pos (counted as a value too, by count).
function Reader:count_table(pos)
  local n = self.tables + 1
  if n > self.max_tables then self:limit(pos, self.max_tables, "tables", "max_tables") end
  self.tables = n
end

local function new_reader(text, opts, fname)
  if type(text) ~= "string" then
    error(format("obb.mapdata.%s: text must be a string, got %s", fname, type(text)), 3)
  end
  opts = check_opts(opts, fname)
  local max_tables = opts.max_tables
  if max_tables == nil then max_tables = math.max(M.MIN_TABLES, floor(#text / M.TABLE_BYTES)) end
  local self = setmetatable({ s = text, source = opts.source, values = 0, tables = 0,
    max_depth = opts.max_depth, max_values = opts.max_values, max_tables = max_tables }, Reader)
  if #text > opts.max_bytes then
    error(format("%s: %d bytes, more than %d (options.max_bytes)", opts.source, #text, opts.max_bytes), 0)
  end
  -- A precompiled chunk is what crashes interpreters that load it: it
  -- is never a map, whatever follows.
  if byte(text, 1) == 27 then
    error(format("%s: precompiled Lua chunk: a map must be text", opts.source), 0)
  end
  self.pos = 1
  if sub(text, 1, 3) == "\239\187\191" then self.pos = 4 end -- a UTF-8 byte order mark
  return self
end

-- UTF-8 bytes of a code point (0 to 0x10FFFF).
local function utf8_char(c)
  if c < 0x80 then return char(c) end
  if c < 0x800 then return char(0xC0 + floor(c / 0x40), 0x80 + c % 0x40) end
  if c < 0x10000 then
    return char(0xE0 + floor(c / 0x1000), 0x80 + floor(c / 0x40) % 0x40, 0x80 + c % 0x40)
  end
  return char(0xF0 + floor(c / 0x40000), 0x80 + floor(c / 0x1000) % 0x40,
    0x80 + floor(c / 0x40) % 0x40, 0x80 + c % 0x40)
end

-- ---- the Lua table syntax ----------------------------------------------

-- Lua's reserved words: none of them is a field name, and only true,
-- false and nil are values.
local RESERVED = {}
for w in ("and break do else elseif end false for function goto if in local nil not or " ..
          "repeat return then true until while"):gmatch("%a+") do
  RESERVED[w] = true
end

local KEYWORD_VALUES = { ["true"] = true, ["false"] = false }

local SIMPLE_ESCAPES = {
  a = "\a", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", v = "\v",
  ["\\"] = "\\", ['"'] = '"', ["'"] = "'", ["\n"] = "\n", ["\r"] = "\n",
}

-- Skips whitespace and comments (`--` to the end of the line, `--[[ ]]`
-- and `--[==[ ]==]` blocks).
function Reader:skip_lua(pos)
  local s = self.s
  while true do
    local _, e = find(s, "^[ \t\r\n\f\v]*", pos)
    pos = e + 1
    if byte(s, pos) ~= 45 or byte(s, pos + 1) ~= 45 then return pos end -- "--"
    local _, open_end, eq = find(s, "^%[(=*)%[", pos + 2)
    if open_end then
      local _, close_end = find(s, "]" .. eq .. "]", open_end + 1, true)
      if close_end == nil then self:fail(pos, "unfinished long comment") end
      pos = close_end + 1
    else
      local nl = find(s, "[\r\n]", pos)
      if nl == nil then return #s + 1 end
      pos = nl + 1
    end
  end
end

-- A quoted string at pos (its quote byte q): the string and the position
-- after it.
function Reader:lua_string(pos, q)
  local s = self.s
  local plain = q == 34 and '^[^"\\\r\n]*' or "^[^'\\\r\n]*"
  local _, pe = find(s, plain, pos + 1)
  if byte(s, pe + 1) == q then return sub(s, pos + 1, pe), pe + 2 end -- no escape
  local parts, n = {}, 0
  local at = pos + 1
  while true do
    local _, e = find(s, plain, at)
    if e >= at then n = n + 1; parts[n] = sub(s, at, e) end
    at = e + 1
    local c = byte(s, at)
    if c == q then
      return concat(parts, "", 1, n), at + 1
    elseif c == nil or c == 10 or c == 13 then
      self:fail(pos, "unfinished string")
    end
    -- a backslash
    local e1 = sub(s, at + 1, at + 1)
    local simple = SIMPLE_ESCAPES[e1]
    if simple then
      n = n + 1; parts[n] = simple
      at = at + 2
      -- \ followed by \r\n or \n\r is one newline, as Lua reads it
      if e1 == "\r" or e1 == "\n" then
        local c2 = byte(s, at)
        if (c2 == 10 or c2 == 13) and c2 ~= byte(e1) then at = at + 1 end
      end
    elseif find(e1, "^%d") then
      local _, de, digits = find(s, "^(%d%d?%d?)", at + 1)
      local v = tonumber(digits)
      if v > 255 then self:fail(at, "escape \\%s is more than 255", digits) end
      n = n + 1; parts[n] = char(v)
      at = de + 1
    elseif e1 == "x" then
      local _, xe, hex = find(s, "^(%x%x)", at + 2)
      if xe == nil then self:fail(at, "escape \\x needs two hexadecimal digits, found %s", near(s, at)) end
      n = n + 1; parts[n] = char(tonumber(hex, 16))
      at = xe + 1
    elseif e1 == "" then
      self:fail(pos, "unfinished string")
    else
      self:fail(at, "escape \\%s is not read in a map (only \\n \\t \\r \\a \\b \\f \\v \\\\ \\\" \\' " ..
        "\\ddd \\xXX and a backslash before a newline)", e1)
    end
  end
end

-- A number at pos (after an optional "-"): the number and the position
-- after it. The sign is applied after reading, as Lua's unary minus does
-- (so "-9223372036854775808" is the float load gives on Lua 5.3 and
-- later, not the integer tonumber gives).
function Reader:lua_number(pos)
  local s = self.s
  local negative = byte(s, pos) == 45
  local start = negative and pos + 1 or pos
  local _, e = find(s, "^0[xX]%x+", start)
  if e == nil then
    _, e = find(s, "^%d+%.?%d*", start)
    if e == nil then _, e = find(s, "^%.%d+", start) end
    if e == nil then return nil end
    local _, ee = find(s, "^[eE][+-]?%d+", e + 1)
    if ee then e = ee end
  end
  if find(s, "^[%w_%.]", e + 1) then
    self:fail(pos, "malformed number near %s", near(s, pos))
  end
  local v = tonumber(sub(s, start, e))
  if v == nil then self:fail(pos, "malformed number near %s", near(s, pos)) end
  if negative then v = -v end
  return v, e + 1
end

-- A value that is not a table at pos: the value and the position after
-- it. Raises for anything else, naming what is there.
function Reader:lua_scalar(pos)
  local s = self.s
  local c = byte(s, pos)
  if c == 34 or c == 39 then return self:lua_string(pos, c) end
  if c == 45 or c == 46 or (c and c >= 48 and c <= 57) then
    local v, after = self:lua_number(pos)
    if v ~= nil then return v, after end
  end
  local _, e, name = find(s, "^([%a_][%w_]*)", pos)
  if name then
    local v = KEYWORD_VALUES[name]
    if v ~= nil then return v, e + 1 end
    if name == "nil" then return nil, e + 1 end
    self:fail(pos, "found the name %s where a value belongs, near %s: a map is data " ..
      "(strings, numbers, true, false, nil and tables), it is never run", name, near(s, pos))
  end
  if c == 91 and find(s, "^%[=*%[", pos) then
    self:fail(pos, "long strings [[...]] are not read in a map (Tiled writes quoted strings)")
  end
  if c == nil then self:fail(pos, "a value expected, found the end of the text") end
  self:fail(pos, "a value expected, found %s: a map is data (no calls, operators or code)", near(s, pos))
end

-- The key of a field at pos, when there is one: key, position after the
-- "=". nil when the field is positional.
function Reader:lua_key(pos)
  local s = self.s
  local _, e, name = find(s, "^([%a_][%w_]*)", pos)
  if name then
    local after = self:skip_lua(e + 1)
    if byte(s, after) == 61 and byte(s, after + 1) ~= 61 then -- "=" but not "=="
      if RESERVED[name] then self:fail(pos, "the reserved word %s is not a field name", name) end
      return name, self:skip_lua(after + 1)
    end
    return nil
  end
  if byte(s, pos) == 91 and not find(s, "^%[=*%[", pos) then -- "[" of a key, not of a long string
    local kpos = self:skip_lua(pos + 1)
    local c = byte(s, kpos)
    local key, after
    if c == 34 or c == 39 then
      key, after = self:lua_string(kpos, c)
    else
      key, after = self:lua_number(kpos)
      if key == nil then
        self:fail(kpos, "a key in [ ] must be a string or a number, found %s", near(s, kpos))
      end
      if key ~= key then self:fail(kpos, "a key must not be NaN") end
    end
    after = self:skip_lua(after)
    if byte(s, after) ~= 93 then self:fail(after, "] expected after a key, found %s", near(s, after)) end
    after = self:skip_lua(after + 1)
    if byte(s, after) ~= 61 then self:fail(after, "= expected after [key], found %s", near(s, after)) end
    return key, self:skip_lua(after + 1)
  end
  return nil
end

-- mapdata.lua_table(text [, options]) -> table
-- Reads the table syntax of Tiled's Lua export: an optional `return`,
-- then one table constructor.
function M.lua_table(text, opts)
  local self = new_reader(text, opts, "lua_table")
  local s = self.s
  local pos = self:skip_lua(self.pos)
  local _, re = find(s, "^return", pos)
  if re and not find(s, "^[%w_]", re + 1) then pos = self:skip_lua(re + 1) end
  local top_pos = pos
  -- The open tables, innermost at depth: each table, its count of
  -- positional values, the key of the field being read (nil: positional)
  -- and the position of its "{". Arrays, so a table costs no frame.
  local tabs, counts, keys, opens = {}, {}, {}, {}
  local depth = 0
  local result, done = nil, false
  while not done do
    local t = tabs[depth]
    local value, is_value = nil, false
    if t ~= nil then
      -- The bulk of a map is tile data, "0, 0, 12, 3,": a whole number
      -- and its separator are read at once (the same number the full
      -- path reads; "1.5", "0x1" or "1e3" do not match).
      local _, fe, digits = find(s, "^(%d+)[ \t]*[,;][ \t\r\n]*", pos)
      if fe then
        local n = counts[depth]
        repeat
          self:count(pos)
          n = n + 1
          t[n] = tonumber(digits)
          pos = fe + 1
          local b = byte(s, pos)
          if b == 45 or b == 11 or b == 12 then pos = self:skip_lua(pos) end
          _, fe, digits = find(s, "^(%d+)[ \t]*[,;][ \t\r\n]*", pos)
        until not fe
        counts[depth] = n
      end
      -- a field, or the "}" that closes the table
      if pos > #s then
        self:fail(opens[depth], "table not closed: } expected before the end of the text")
      elseif byte(s, pos) == 125 then
        tabs[depth] = nil
        depth = depth - 1
        value, is_value, pos = t, true, pos + 1
      else
        local key, after = self:lua_key(pos)
        if after then pos = after end
        keys[depth] = key
      end
    end
    if not is_value then
      if byte(s, pos) == 123 then -- "{"
        self:count(pos)
        self:count_table(pos)
        if depth >= self.max_depth then
          self:fail(pos, "tables nested more than %d deep (options.max_depth)", self.max_depth)
        end
        depth = depth + 1
        tabs[depth], counts[depth], keys[depth], opens[depth] = {}, 0, nil, pos
        pos = self:skip_lua(pos + 1)
      else
        self:count(pos)
        value, pos = self:lua_scalar(pos)
        is_value = true
      end
    end
    -- Hand a finished value to its table; each table it finishes is a
    -- value of the one around it.
    while is_value do
      pos = self:skip_lua(pos)
      t = tabs[depth]
      if t == nil then
        result, done = value, true
        break
      end
      local key, n = keys[depth], counts[depth]
      if key == nil then
        n = n + 1
        counts[depth] = n
        t[n] = value -- a nil too: it clears what a key stored there
      elseif not (type(key) == "number" and key > n - n % 50 and key <= n and key % 1 == 0) then
        t[key] = value
      end
      -- Else the key names a place a positional value already holds that
      -- PUC Lua (5.1 to 5.4 alike) has not stored yet: its constructor
      -- stores the positional values in batches of 50, after the keyed
      -- fields written among them, so `{ "b", [1] = "a" }` is "b" (and
      -- `{ [1] = "a", "b" }` too, the positional value stored after).
      -- LuaJIT's load gives "a" there: it sets constant fields in order.
      local c = byte(s, pos)
      if c == 44 or c == 59 then -- "," or ";"
        pos = self:skip_lua(pos + 1)
        is_value = false
      elseif c == 125 then -- "}"
        tabs[depth] = nil
        depth = depth - 1
        value, pos = t, pos + 1
      elseif c == nil then
        self:fail(opens[depth], "table not closed: } expected before the end of the text")
      else
        self:fail(pos, ", or } expected after a value, found %s: a map is data " ..
          "(no calls, operators or concatenation)", near(s, pos))
      end
    end
  end
  if pos <= #s then
    self:fail(pos, "the text goes on after the map's table: found %s", near(s, pos))
  end
  if type(result) ~= "table" then
    self:fail(top_pos, "returned %s, not a table (a map is one table constructor)", type(result))
  end
  return result
end

-- ---- JSON --------------------------------------------------------------

local JSON_ESCAPES = {
  ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t",
}

function Reader:skip_json(pos)
  local _, e = find(self.s, "^[ \t\r\n]*", pos)
  return e + 1
end

function Reader:json_string(pos)
  local s = self.s
  local _, pe = find(s, '^[^"\\%c]*', pos + 1)
  if byte(s, pe + 1) == 34 then return sub(s, pos + 1, pe), pe + 2 end -- no escape
  local parts, n = {}, 0
  local at = pos + 1
  while true do
    local _, e = find(s, '^[^"\\%c]*', at)
    if e >= at then n = n + 1; parts[n] = sub(s, at, e) end
    at = e + 1
    local c = byte(s, at)
    if c == 34 then return concat(parts, "", 1, n), at + 1 end
    if c == nil then self:fail(pos, "unfinished string") end
    if c ~= 92 then
      if c == 127 then -- DEL is %c to Lua but allowed in JSON strings
        n = n + 1; parts[n] = "\127"; at = at + 1
      else
        self:fail(at, "control character %d inside a string (JSON writes it as an escape)", c)
      end
    else
      local e1 = sub(s, at + 1, at + 1)
      local simple = JSON_ESCAPES[e1]
      if simple then
        n = n + 1; parts[n] = simple
        at = at + 2
      elseif e1 == "u" then
        local _, ue, hex = find(s, "^(%x%x%x%x)", at + 2)
        if ue == nil then self:fail(at, "escape \\u needs four hexadecimal digits, found %s", near(s, at)) end
        local cp = tonumber(hex, 16)
        at = ue + 1
        if cp >= 0xD800 and cp <= 0xDBFF then
          local _, le, low = find(s, "^\\u(%x%x%x%x)", at)
          local lo = low and tonumber(low, 16)
          if lo == nil or lo < 0xDC00 or lo > 0xDFFF then
            self:fail(at, "\\u%s is half of a surrogate pair, without its second half", hex)
          end
          cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
          at = le + 1
        elseif cp >= 0xDC00 and cp <= 0xDFFF then
          self:fail(at, "\\u%s is the second half of a surrogate pair, without its first half", hex)
        end
        n = n + 1; parts[n] = utf8_char(cp)
      else
        self:fail(at, "escape \\%s is not JSON", e1 == "" and "at the end of the text" or e1)
      end
    end
  end
end

local JSON_LITERALS = { ["true"] = true, ["false"] = false }

function Reader:json_scalar(pos)
  local s = self.s
  local c = byte(s, pos)
  if c == 34 then return self:json_string(pos) end
  local _, e = find(s, "^%-?%d+", pos)
  if e then
    if not find(s, "^%-?0%d", pos) then
      local _, fe = find(s, "^%.%d+", e + 1)
      if fe then e = fe end
      local _, ee = find(s, "^[eE][+-]?%d+", e + 1)
      if ee then e = ee end
      if not find(s, "^[%w_%.]", e + 1) then
        local text = sub(s, pos, e)
        local v = tonumber(text)
        if v ~= nil then return v, e + 1 end
      end
    end
    self:fail(pos, "malformed number near %s", near(s, pos))
  end
  local _, we, word = find(s, "^(%a+)", pos)
  if word then
    if JSON_LITERALS[word] ~= nil then return JSON_LITERALS[word], we + 1 end
    if word == "null" then return nil, we + 1 end
    self:fail(pos, "found %s where a JSON value belongs", near(s, pos))
  end
  if c == nil then self:fail(pos, "a value expected, found the end of the text") end
  self:fail(pos, "a value expected, found %s", near(s, pos))
end

-- mapdata.json(text [, options]) -> value
-- Reads JSON (Tiled's JSON export, .tmj): objects are tables with string
-- keys, arrays are lists (a null leaves a nil in its place), null in an
-- object leaves the key out.
function M.json(text, opts)
  local self = new_reader(text, opts, "json")
  local s = self.s
  local pos = self:skip_json(self.pos)
  -- The open objects and arrays, innermost at depth: each table, its
  -- count (arrays), whether it is an array, the member name being read
  -- and the position of its bracket. Arrays, so a table costs no frame.
  local tabs, counts, arrays, keys, opens = {}, {}, {}, {}, {}
  local depth = 0
  local result, done = nil, false
  while not done do
    local t = tabs[depth]
    local value, is_value = nil, false
    if t ~= nil and not arrays[depth] then
      -- an object's member: "key" :
      if byte(s, pos) ~= 34 then
        self:fail(pos, "a member name (a string) expected, found %s", near(s, pos))
      end
      local key, after = self:json_string(pos)
      after = self:skip_json(after)
      if byte(s, after) ~= 58 then self:fail(after, ": expected after a member name, found %s", near(s, after)) end
      keys[depth] = key
      pos = self:skip_json(after + 1)
    elseif t ~= nil then
      counts[depth] = counts[depth] + 1
    end
    local c = byte(s, pos)
    self:count(pos)
    if c == 123 or c == 91 then -- "{" or "["
      self:count_table(pos)
      if depth >= self.max_depth then
        self:fail(pos, "objects and arrays nested more than %d deep (options.max_depth)", self.max_depth)
      end
      local array, new, open = c == 91, {}, pos
      pos = self:skip_json(pos + 1)
      if byte(s, pos) == (array and 93 or 125) then -- empty
        value, is_value, pos = new, true, pos + 1
      else
        depth = depth + 1
        tabs[depth], counts[depth], arrays[depth], keys[depth], opens[depth] = new, 0, array, nil, open
      end
    else
      value, pos = self:json_scalar(pos)
      is_value = true
    end
    while is_value do
      pos = self:skip_json(pos)
      t = tabs[depth]
      if t == nil then
        result, done = value, true
        break
      end
      local array = arrays[depth]
      if value ~= nil then
        if array then t[counts[depth]] = value else t[keys[depth]] = value end
      end
      c = byte(s, pos)
      if c == 44 then -- ","
        pos = self:skip_json(pos + 1)
        is_value = false
      elseif c == (array and 93 or 125) then
        tabs[depth] = nil
        depth = depth - 1
        value, pos = t, pos + 1
      elseif c == nil then
        self:fail(opens[depth], "%s not closed before the end of the text", array and "array" or "object")
      else
        self:fail(pos, "%s expected, found %s", array and ", or ]" or ", or }", near(s, pos))
      end
    end
  end
  if pos <= #s then
    self:fail(pos, "the text goes on after the JSON value: found %s", near(s, pos))
  end
  return result
end

return M
