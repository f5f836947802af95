-- fuzz_lua.lua: the driver that fuzz_lua.c runs once per input.
--
-- The input string is read as a program over a pool of 16 value slots.
-- Every function the module exposes (library functions, the methods of
-- each type, and the metamethods, __gc and __close included) is found at
-- run time, also on the types of objects that calls return, so new
-- features are fuzzed as soon as they are registered. Every call runs under
-- pcall; a module error is fine, a crash is not. The driver also checks
-- that a call that fails leaves every box it was given unchanged, and that
-- module errors are strings. A broken rule raises an error containing
-- "BROKEN RULE", which the C harness turns into an abort.
local data = ...
local obb = require "obb"

-- Lua 5.1 and LuaJIT: what 5.3 and 5.4 have built in.
local unpack = table.unpack or unpack
local pack = table.pack or function(...) return { n = select("#", ...), ... } end
local maxinteger = math.maxinteger or 2 ^ 63
local mininteger = math.mininteger or -2 ^ 63
-- The double stored little-endian in data at i.
local function double_at(i)
  if string.unpack then return (string.unpack("<d", data, i)) end
  local b = { data:byte(i, i + 7) }
  local sign = b[8] >= 128 and -1 or 1
  local e = (b[8] % 128) * 16 + math.floor(b[7] / 16)
  local m = b[7] % 16
  for k = 6, 1, -1 do m = m * 256 + b[k] end
  if e == 2047 then return m == 0 and sign / 0 or 0 / 0 end
  if e == 0 then return sign * m * 2 ^ -1074 end
  return sign * (1 + m * 2 ^ -52) * 2 ^ (e - 1023)
end

local pos = 1
-- FUZZ_TRACE=1 prints every call, to turn a finding into a spec.
local trace = os.getenv("FUZZ_TRACE")
local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" then return string.format("%.17g", v) end
  if type(v) == "userdata" then
    local ok, s = pcall(tostring, v)
    return (obb.type(v) or "userdata") .. ":" .. (ok and s:match("0x%x+") or "?")
  end
  return type(v)
end
local function byte()
  local b = data:byte(pos)
  pos = pos + 1
  return b or 0
end
local function more() return pos <= #data end

-- Stops a runaway input (say, a callback loop) with an ordinary error.
debug.sethook(function() error("instruction budget exhausted") end, "", 20000000)

local function broken(msg) error("BROKEN RULE: " .. msg, 0) end

-- ---- the callables ----------------------------------------------------

local callables, seen = {}, {}

local function add_table(t)
  if type(t) ~= "table" or seen[t] then return end
  seen[t] = true
  local names = {}
  for k, v in pairs(t) do
    if type(k) == "string" and (type(v) == "function" or type(v) == "table") then
      names[#names + 1] = k
    end
  end
  table.sort(names)
  for _, k in ipairs(names) do
    local v = t[k]
    if type(v) == "function" then
      callables[#callables + 1] = { name = k, fn = v }
    else
      add_table(v)
    end
  end
end

-- The metatables of the module's types, with their metamethods. Only
-- obb's own: Lua's io library, for one, trusts any userdata that carries
-- its metatable, so a box dressed as a FILE* crashes Lua itself.
local metatables = {}
local function add_type_of(v)
  if type(v) ~= "userdata" then return end
  local mt = debug.getmetatable(v) -- getmetatable gives the method table
  if type(mt) ~= "table" or seen[mt] then return end
  if type(rawget(mt, "__name")) ~= "string" or not rawget(mt, "__name"):find("^obb%.") then
    return
  end
  metatables[#metatables + 1] = mt
  add_table(mt)
end

add_table(obb)
add_type_of(obb.new2(0, 0, 1, 1))
add_type_of(obb.new3(0, 0, 0, 1, 1, 1))

-- ---- values -----------------------------------------------------------

local specials = {
  0, -0.0, 1, -1, 0.5, 2, 1e300, -1e300, 1 / 0, -1 / 0, 0 / 0, 5e-324,
  2.2250738585072014e-308, maxinteger, mininteger, 2 ^ 53, 1e7,
  1e-3, 1e6, 1e-6, 1e-12, math.pi, 3, 4, 6, 12, 16,
}
local strings = { "1", "", "abc", "0x10", "nan", "1e400", ("x"):rep(100) }

local slots = {}
for i = 1, 16 do slots[i] = false end

local value, callback
local depth = 0

local function number()
  local k = byte()
  if k < 96 then return specials[k % #specials + 1] end
  if k < 200 then return (k - 148) / 4 end
  if pos + 7 <= #data then
    local x = double_at(pos)
    pos = pos + 8
    return x
  end
  return k
end

-- A table whose metatable fights back, with a __name that is not a string
-- (type errors must not trust it).
local function hostile_table()
  local names = { 12345, 0.5, true, {}, "obb.obb2" }
  return setmetatable({}, {
    __index = function() error("hostile __index") end,
    __newindex = function() error("hostile __newindex") end,
    __len = function() error("hostile __len") end,
    __gc = function() end,
    __name = names[byte() % #names + 1],
  })
end

local function table_value()
  local k = byte() % 8
  if k == 0 then return {} end
  if k == 1 then -- a flat array of numbers
    local t = {}
    for i = 1, byte() % 20 do t[i] = number() end
    return t
  end
  if k == 2 then -- nested points
    local t, dim = {}, 2 + byte() % 2
    for i = 1, byte() % 10 + 1 do
      local p = {}
      for j = 1, dim do p[j] = number() end
      t[i] = p
    end
    return t
  end
  if k == 3 then return hostile_table() end
  if k == 4 then local t = {}; t[1] = t; t.self = t; return t end
  if k == 5 then return { [1] = 1, [3] = 2, [1e6] = 3 } end
  if k == 6 then return { {}, { "a", "b" }, { 1 } } end
  local t = {}
  for i = 1, byte() % 6 do t[i] = value() end
  return t
end

function value()
  local k = byte() % 14
  if k <= 2 then return number() end
  if k == 3 then return strings[byte() % #strings + 1] end
  if k == 4 then local b = byte() % 3; if b == 0 then return nil end return b == 1 end
  if k == 5 then return table_value() end
  if k == 6 then return callback() end
  if k == 7 then return io.stdout end
  if k == 8 then return coroutine.create(function() end) end
  if k == 9 then
    local ok, b = pcall(obb.new2, number(), number(), 1, 1, number())
    return ok and b or nil
  end
  if k == 10 then return obb.new3(0, 0, 0, 1, 2, 3) end
  return slots[byte() % 16 + 1] or nil
end

local call

-- Callbacks that raise, yield, collect, return junk or call back into the
-- module (for instance changing the world that is calling them).
function callback()
  local k = byte() % 7
  if k == 0 then return function() error("callback raised") end end
  if k == 1 then return function() error({ "a table error" }) end end
  if k == 2 then return function() return nil, "x", 0 / 0, {} end end
  if k == 3 then return function() coroutine.yield(1) end end
  if k == 4 then return function() collectgarbage() return true end end
  if k == 5 then return function(...) return ... end end
  local which, arg = byte(), byte()
  return function(...)
    if depth >= 3 then return false end
    depth = depth + 1
    local c = callables[which % #callables + 1]
    local first = ...
    local ok = pcall(c.fn, first, slots[arg % 16 + 1] or nil, number())
    depth = depth - 1
    return ok
  end
end

-- ---- checks -----------------------------------------------------------

local snapshot_of = {
  obb2 = function(b)
    return table.concat({ obb.obb2.center(b) }, ",") .. ";" ..
      table.concat({ obb.obb2.half_extents(b) }, ",") .. ";" ..
      table.concat({ obb.obb2.axes(b) }, ",")
  end,
  obb3 = function(b)
    return table.concat({ obb.obb3.center(b) }, ",") .. ";" ..
      table.concat({ obb.obb3.half_extents(b) }, ",") .. ";" ..
      table.concat({ obb.obb3.axes(b) }, ",")
  end,
}

local function snapshot(args, n)
  local s = {}
  for i = 1, n do
    local v = args[i]
    if type(v) == "function" then return nil end -- a callback may change things
    local t = obb.type(v)
    if snapshot_of[t] then s[i] = snapshot_of[t](v) end
  end
  return s
end

function call(c, args, n, in_coroutine)
  for i = 1, n do add_type_of(args[i]) end
  local before = snapshot(args, n)
  if trace then
    local t = {}
    for i = 1, n do t[i] = show(args[i]) end
    io.stderr:write(c.name, "(", table.concat(t, ", "), ")", in_coroutine and " in coroutine" or "", "\n")
  end
  local res
  if in_coroutine then
    local co = coroutine.create(function() return c.fn(unpack(args, 1, n)) end)
    res = pack(coroutine.resume(co))
  else
    res = pack(pcall(c.fn, unpack(args, 1, n)))
  end
  if not res[1] then
    local err = res[2]
    if type(err) ~= "string" and type(err) ~= "table" then
      broken(c.name .. " raised a " .. type(err))
    end
    if before and not (type(err) == "string" and err:find("not enough memory")) then
      for i = 1, n do
        if before[i] then
          local t = obb.type(args[i])
          if snapshot_of[t](args[i]) ~= before[i] then
            broken(c.name .. " failed (" .. tostring(err) .. ") but changed argument " .. i)
          end
        end
      end
    end
    return
  end
  -- results flow back into the pool
  for i = 2, math.min(res.n, 4) do
    add_type_of(res[i])
    if res[i] ~= nil then slots[byte() % 16 + 1] = res[i] end
  end
end

-- ---- finalizers and invariants ------------------------------------------

-- Objects given another type's metatable, with their own, kept alive and
-- given it back at the end: a finalizer removed by debug.setmetatable never
-- runs (Lua calls the __gc of the current metatable), which would leak a
-- world's memory. That is the debug library's power, not a fault of obb;
-- what is tested is that the disguise is never mistaken for the type.
local disguised = {}

-- Garbage whose finalizer calls a callable (a world's add, remove, close,
-- __gc, a query...) on a slot's value: it runs whenever the collector
-- does, in the middle of whatever the module is doing.
local function finalizer_call()
  local c, a, b = callables[byte() % #callables + 1], byte(), byte()
  local function f()
    if depth >= 3 then return end
    depth = depth + 1
    pcall(c.fn, slots[a % 16 + 1] or nil, slots[b % 16 + 1] or nil, 1, 0, 0, 1, 1)
    depth = depth - 1
  end
  if rawget(_G, "newproxy") then
    local p = newproxy(true)
    getmetatable(p).__gc = f
  else
    setmetatable({}, { __gc = f })
  end
end

-- A world's item table (item -> id), or nil.
local function items_of(w)
  local t
  if _VERSION == "Lua 5.4" then t = debug.getuservalue(w, 1)
  elseif debug.getuservalue then t = debug.getuservalue(w)
  else t = debug.getfenv(w) end
  if _VERSION ~= "Lua 5.4" and type(t) == "table" then t = rawget(t, 1) end
  return type(t) == "table" and t or nil
end

-- Every open world in the slots: its count equals its item table's, and a
-- point query at each item's center finds the item (small worlds only).
-- The collector is stopped meanwhile, so no finalizer changes a world
-- between the two halves of a check.
local function check_worlds()
  collectgarbage("stop")
  for i = 1, 16 do
    local w = slots[i]
    local mt = type(w) == "userdata" and debug.getmetatable(w)
    if type(mt) == "table" and rawget(mt, "__name") == "obb.world" and not disguised[w] then
      local ok, n = pcall(w.count, w)
      local items = ok and items_of(w)
      if items and n <= 64 then
        local m, out = 0, {}
        for item in pairs(items) do
          m = m + 1
          local got = pack(pcall(w.get, w, item))
          if not got[1] then broken("an item of the table is not in the world: " .. tostring(got[2])) end
          local dim = got.n == 6 and 2 or 3
          local k
          if dim == 2 then k = w:query_point(got[2], got[3], out)
          else k = w:query_point(got[2], got[3], got[4], out) end
          local found = false
          for j = 1, k do if out[j] == item then found = true end end
          if not found then broken("a point query at an item's center misses it") end
        end
        if m ~= n then broken(("world count %d, its item table %d"):format(n, m)) end
      end
    end
  end
  collectgarbage("restart")
end

-- ---- the program ------------------------------------------------------


for i = 1, 4 do slots[i] = obb.new2(i, 0, 1, 1, i) end
for i = 5, 8 do slots[i] = obb.new3(i, 0, 0, 1, 1, 1) end

local function program()
while more() do
  local op = byte() % 14
  if op <= 5 then
    local c = callables[byte() % #callables + 1]
    local n = byte() % 9
    local args = {}
    for i = 1, n do args[i] = value() end
    call(c, args, n, op == 5)
  elseif op == 6 then
    slots[byte() % 16 + 1] = value()
  elseif op == 7 then
    collectgarbage()
  elseif op == 8 then -- __gc or __close by hand, then keep using the object
    local v = slots[byte() % 16 + 1]
    local mt = type(v) == "userdata" and debug.getmetatable(v)
    if type(mt) == "table" then
      local f = byte() % 2 == 0 and rawget(mt, "__gc") or rawget(mt, "__close")
      if type(f) == "function" then pcall(f, v, nil) end
    end
  elseif op == 9 then -- an object dressed up as another type
    local v = slots[byte() % 16 + 1]
    local mt = metatables[byte() % #metatables + 1]
    if type(v) == "userdata" and v ~= io.stdout and mt then
      if trace then io.stderr:write("setmetatable(", show(v), ", ", tostring(mt.__name), ")\n") end
      if disguised[v] == nil then disguised[v] = debug.getmetatable(v) end
      debug.setmetatable(v, mt)
    end
  elseif op == 10 then
    slots[byte() % 16 + 1] = false
  elseif op == 12 then
    finalizer_call()
  elseif op == 13 then
    check_worlds()
  else -- metamethods through the operators
    local a, b = slots[byte() % 16 + 1], slots[byte() % 16 + 1]
    pcall(tostring, a)
    pcall(function() return a == b end)
    pcall(function() return #a end)
    pcall(function() return a .. "" end)
  end
end
end

-- An error out of the program itself (memory running out in the driver's
-- own bookkeeping, the instruction budget, a broken rule) still gives the
-- disguised objects their metatables back before it goes on.
local ok, err = pcall(program)
debug.sethook()
if ok then ok, err = pcall(check_worlds) end
for v, mt in pairs(disguised) do debug.setmetatable(v, mt) end
if not ok then error(err, 0) end
