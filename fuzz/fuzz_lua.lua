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
--
-- The tricks of a hostile script without the debug library are fuzzed
-- too: userdata and tables whose __metatable names a box's or a world's
-- method table, the file metatable given one, globals replaced around a
-- call (the module must depend on none), boxes near DBL_MAX through every
-- method, merged and added to worlds, and a second copy of the module
-- opened in the same state (the harness's other copy, second_copy). Under
-- LuaJIT the module runs on its FFI fast path (lua/obb/jit.lua).
local data, second_copy = ...
local obb = require "obb"

-- The driver's own standard functions, captured: a call may run with
-- other functions in the globals' places, which only the module (and the
-- callbacks it calls) may see.
local type, pcall, error, pairs, ipairs, select, tostring, next =
  type, pcall, error, pairs, ipairs, select, tostring, next
local rawget, rawset, setmetatable, getmetatable =
  rawget, rawset, setmetatable, getmetatable
local collectgarbage, newproxy = collectgarbage, rawget(_G, "newproxy")
local string, table, math, io, os, coroutine = string, table, math, io, os, coroutine
local dbg = {
  getmetatable = debug.getmetatable, setmetatable = debug.setmetatable,
  getfenv = debug.getfenv, getuservalue = debug.getuservalue, sethook = debug.sethook,
}

-- Lua 5.1 and LuaJIT: what 5.3 and 5.4 have built in.
local unpack = table.unpack or rawget(_G, "unpack")
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
dbg.sethook(function() error("instruction budget exhausted") end, "", 20000000)

local function broken(msg) error("BROKEN RULE: " .. msg, 0) end

-- Under LuaJIT the FFI path must be on (unless OBB_NO_FFI asks for the
-- classic one): the fuzzed methods are then its.
local jit_status = type(package.loaded["obb.jit"]) == "table" and package.loaded["obb.jit"].status
local ffi_path = jit_status == "ffi"
if rawget(_G, "jit") and not ffi_path and (os.getenv("OBB_NO_FFI") or "") == "" then
  broken("LuaJIT, yet the FFI path is off: " .. tostring(jit_status))
end

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
  local mt = dbg.getmetatable(v) -- getmetatable gives the method table
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

local DBL_MAX = 1.7976931348623157e308
local specials = {
  0, -0.0, 1, -1, 0.5, 2, 1e300, -1e300, 1 / 0, -1 / 0, 0 / 0, 5e-324,
  2.2250738585072014e-308, maxinteger, mininteger, 2 ^ 53, 1e7,
  1e-3, 1e6, 1e-6, 1e-12, math.pi, 3, 4, 6, 12, 16,
  DBL_MAX, -DBL_MAX, DBL_MAX / 2, 9e307, -9e307,
}
local strings = { "1", "", "abc", "0x10", "nan", "1e400", ("x"):rep(100) }

local slots = {}
for i = 1, 16 do slots[i] = false end

local value, callback
local depth = 0
-- Finalizers run so far (finalizer_call's): one that runs during a call
-- may change the call's arguments itself.
local finalizers_run = 0

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

-- The method tables a script can name in a __metatable: getmetatable of
-- a 2D box, a 3D box, a world.
local method_tables = { obb.obb2, obb.obb3, getmetatable(obb.world2()) }

-- A userdata of the script's own dressed as T's objects (getmetatable
-- gives T): newproxy in 5.1 and LuaJIT; from 5.2 on no script can make a
-- userdata, and a closed file with a metatable of its own (one per T and
-- input: each is a file) stands in for one.
local stand_ins = {}
local function proxy(T)
  if newproxy then
    local p = newproxy(true)
    local mt = getmetatable(p)
    mt.__metatable, mt.__index = T, T
    return p
  end
  if not stand_ins[T] then
    local f = io.tmpfile()
    if not f then return nil end
    f:close()
    dbg.setmetatable(f, { __metatable = T, __index = T })
    stand_ins[T] = f
  end
  return stand_ins[T]
end

local function dressed()
  local T = method_tables[byte() % #method_tables + 1]
  if byte() % 2 == 0 then return setmetatable({}, { __metatable = T, __index = T }) end
  return proxy(T)
end

-- A box whose numbers are near DBL_MAX (centers of either sign, extents,
-- turned): every query must answer it with numbers, and whatever makes
-- or changes a box must refuse a result that is not finite.
local function huge_box()
  local function big()
    local x = DBL_MAX * (1 - byte() / 1024)
    return byte() % 2 == 0 and x or -x
  end
  local function ext() local k = byte() % 3; return k == 0 and 1 or DBL_MAX * (1 - byte() / 1024) end
  local ok, b
  if byte() % 2 == 0 then
    ok, b = pcall(obb.new2, big(), big(), ext(), ext(), number())
  else
    ok, b = pcall(obb.new3, big(), big(), big(), ext(), ext(), ext(), number(), number(),
                  number(), number())
  end
  return ok and b or nil
end

function value()
  local k = byte() % 17
  if k == 14 then return dressed() end
  if k >= 15 then return huge_box() end
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

-- ---- globals replaced around a call -------------------------------------

-- The globals (and debug library fields) a script might replace; nothing
-- in the module may call them once it has loaded.
local GLOBALS = { "pcall", "rawset", "error", "type", "getmetatable", "select", "rawget",
  "setmetatable", "next", "pairs", "ipairs", "tostring", "rawequal", "unpack", "require",
  "newproxy", "getfenv", "setfenv" }
local DEBUG_FIELDS = { "getmetatable", "getfenv", "setmetatable", "getuservalue" }

-- What goes in a replaced global's place: nothing, a function that
-- raises, one that lies, one that hands back its arguments.
local function replacement(name)
  local k = byte() % 4
  if k == 0 then return nil end
  if k == 1 then return function() error("replaced " .. name) end end
  if k == 2 then
    local lie = ({ true, false, 0, "table", "userdata", {} })[byte() % 6 + 1]
    return function() return lie end
  end
  return function(...) return ... end
end

-- Replaces a few globals (and debug fields) and returns the function that
-- puts them back; nil when the input says to replace none.
local function replace_globals()
  local count = byte() % 8
  if count == 0 or count > 4 then return nil end
  local saved_g, saved_d = {}, {}
  for _ = 1, count do
    if byte() % 4 == 0 then
      local name = DEBUG_FIELDS[byte() % #DEBUG_FIELDS + 1]
      if saved_d[name] == nil then saved_d[name] = { rawget(debug, name) } end
      rawset(debug, name, replacement("debug." .. name))
    else
      local name = GLOBALS[byte() % #GLOBALS + 1]
      if saved_g[name] == nil then saved_g[name] = { rawget(_G, name) } end
      rawset(_G, name, replacement(name))
    end
  end
  return function()
    for name, v in next, saved_g do rawset(_G, name, v[1]) end
    for name, v in next, saved_d do rawset(debug, name, v[1]) end
  end
end

-- The metatable all files share, given a __metatable naming a method
-- table (which needs no debug library) for one call; returns the function
-- that takes it away, or nil.
local function dress_files()
  if byte() % 8 ~= 0 then return nil end
  local fmt = getmetatable(io.stdout)
  if type(fmt) ~= "table" then return nil end
  rawset(fmt, "__metatable", method_tables[byte() % #method_tables + 1])
  return function() rawset(fmt, "__metatable", nil) end
end

-- ---- results ---------------------------------------------------------------

-- Methods whose every result is a number (or nil and a boolean where the
-- reference says so): a value of any other type is memory read as a Lua
-- value (issue 22: on the FFI path an output the core left unwritten
-- came out as a forged string, table or function).
local NUMERIC = { center = true, half_extents = true, axes = true, angle = true,
  rotation = true, corners = true, distance = true, closest_point = true,
  signed_distance = true, penetration = true, raycast = true, aabb = true,
  memory = true, count = true, plane_side = true }

local function is_obb(v)
  if obb.type(v) then return true end
  local mt = type(v) == "userdata" and dbg.getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__name") == "obb.world"
end

-- Whether box b (of type bt) is finite: its center and half extents.
local function finite_box(b, bt)
  local T = bt == "obb2" and obb.obb2 or obb.obb3
  for _, m in ipairs({ "center", "half_extents" }) do
    local got = pack(pcall(T[m], b))
    for k = 2, got.n do
      if type(got[k]) ~= "number" or got[k] - got[k] ~= 0 then
        return false, ("%s %s"):format(m, tostring(got[k]))
      end
    end
  end
  return true
end

-- The rules for a call's results: no function, thread or foreign userdata
-- that the call was not given; numbers only where only numbers come; a
-- box made or changed is finite (merge too: it raises rather than make a
-- box that is not, issue 22). Returns true.
local function check_results(c, args, n, res)
  local given = {}
  for i = 1, n do if args[i] ~= nil then given[args[i]] = true end end
  for i = 2, res.n do
    local v = res[i]
    local t = type(v)
    if NUMERIC[c.name] and t ~= "number" and t ~= "nil" and t ~= "boolean" then
      broken(("%s returned a %s as result %d"):format(c.name, t, i - 1))
    end
    if (t == "function" or t == "thread" or t == "userdata") and not given[v] and not is_obb(v) then
      broken(("%s returned a %s it was not given"):format(c.name, t))
    end
    local bt = obb.type(v)
    if bt == "obb2" or bt == "obb3" then -- not a response set (obb.responses)
      local finite, why = finite_box(v, bt)
      if not finite then
        broken(("%s made or changed a box that is not finite (%s)"):format(c.name, why))
      end
    end
  end
  return true
end

function call(c, args, n, in_coroutine)
  for i = 1, n do add_type_of(args[i]) end
  -- counted from before the snapshot, which can run finalizers too
  local fins = finalizers_run
  local before = snapshot(args, n)
  if trace then
    local t = {}
    for i = 1, n do t[i] = show(args[i]) end
    io.stderr:write(c.name, "(", table.concat(t, ", "), ")", in_coroutine and " in coroutine" or "", "\n")
  end
  -- Around the call only: every global the driver needs it has captured.
  local undress = dress_files()
  local restore = replace_globals()
  local res
  if in_coroutine then
    local co = coroutine.create(function() return c.fn(unpack(args, 1, n)) end)
    res = pack(coroutine.resume(co))
  else
    res = pack(pcall(c.fn, unpack(args, 1, n)))
  end
  if restore then restore() end
  if undress then undress() end
  if trace and (restore or undress) then io.stderr:write("  (globals replaced)\n") end
  if not res[1] then
    local err = res[2]
    if type(err) ~= "string" and type(err) ~= "table" then
      broken(c.name .. " raised a " .. type(err))
    end
    if before and not (type(err) == "string" and err:find("not enough memory")) then
      local after = {}
      for i = 1, n do
        if before[i] then after[i] = snapshot_of[obb.type(args[i])](args[i]) end
      end
      -- (unless a finalizer, which may have changed them, ran meanwhile)
      for i = 1, n do
        if before[i] and after[i] ~= before[i] and finalizers_run == fins then
          broken(c.name .. " failed (" .. tostring(err) .. ") but changed argument " .. i)
        end
      end
    end
    return
  end
  if not in_coroutine and not check_results(c, args, n, res) then return end
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
    finalizers_run = finalizers_run + 1
    if depth >= 3 then return end
    depth = depth + 1
    pcall(c.fn, slots[a % 16 + 1] or nil, slots[b % 16 + 1] or nil, 1, 0, 0, 1, 1)
    depth = depth - 1
  end
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = f
  else
    setmetatable({}, { __gc = f })
  end
end

-- A world's item table (item -> id), or nil.
local function items_of(w)
  local t
  if _VERSION == "Lua 5.4" then t = dbg.getuservalue(w, 1)
  elseif dbg.getuservalue then t = dbg.getuservalue(w)
  else t = dbg.getfenv(w) end
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
    local mt = type(w) == "userdata" and dbg.getmetatable(w)
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

-- On the FFI path a disguise made by debug.setmetatable is read as the
-- type it wears before the tag refuses it (docs/hardening.md: with the
-- debug library a userdata dressed as a larger type is read, and may be
-- written, past its end). Only disguises as a type no larger than the
-- object are made there: a 3D box or a world as a 2D box.
local function may_dress(v, mt)
  if not ffi_path then return true end
  local own = disguised[v] or dbg.getmetatable(v)
  local from = type(own) == "table" and rawget(own, "__name")
  local to = rawget(mt, "__name")
  return to == "obb.obb2" and (from == "obb.obb3" or from == "obb.world")
end

-- A second copy of the module in this state must refuse to open, and
-- leave the first as it was (check_worlds then looks).
local function open_second_copy()
  if type(second_copy) ~= "function" then return end
  local ok, err = pcall(second_copy, "obb")
  if ok then broken("a second copy of the module opened in the same state") end
  if type(err) ~= "string" or not (err:find("another copy of the module", 1, true)
                                   or err:find("not enough memory", 1, true)) then
    broken("a second copy of the module raised " .. tostring(err))
  end
end

-- The methods of each box type, sorted.
local names_of = {}
local function method_names(T)
  if not names_of[T] then
    local list = {}
    for k, f in pairs(T) do if type(f) == "function" then list[#list + 1] = k end end
    table.sort(list)
    names_of[T] = list
  end
  return names_of[T]
end

-- A box near DBL_MAX through every method of its type, with more such
-- boxes or numbers after it.
local function huge_through_every_method()
  local b = huge_box()
  if not b then return end
  slots[byte() % 16 + 1] = b
  local T = getmetatable(b)
  for _, name in ipairs(method_names(T)) do
    local args, m = { b }, byte() % 6
    for i = 2, m + 1 do
      if byte() % 3 == 0 then args[i] = huge_box() else args[i] = number() end
    end
    call({ name = name, fn = T[name] }, args, m + 1, false)
  end
end

-- Two boxes near DBL_MAX merged, and the result (or the first) added to a
-- world of its dimension, which must then still find every item.
local huge_items = 0
local function huge_merge_and_add()
  local a, b = huge_box(), huge_box()
  local box = a
  local res = pack(pcall(obb.merge, a, b))
  if trace then io.stderr:write("merge(", show(a), ", ", show(b), ")\n") end
  if res[1] then
    if not check_results({ name = "merge" }, { a, b }, 2, res) then return end
    box = res[2]
  end
  local dim = box and obb.type(box) == "obb2" and 2 or box and 3
  if not dim then return end
  local slot = byte() % 16 + 1
  local w = slots[slot]
  local mt = type(w) == "userdata" and dbg.getmetatable(w)
  if not (type(mt) == "table" and rawget(mt, "__name") == "obb.world" and not disguised[w]
          and pcall(w.count, w) and tostring(w):find("world" .. dim, 1, true)) then
    w = dim == 2 and obb.world2() or obb.world3()
    slots[slot] = w
  end
  huge_items = huge_items + 1
  call({ name = "add", fn = w.add }, { w, "huge" .. huge_items, box }, 3, false)
  check_worlds()
end

-- ---- round four (issue 25) -----------------------------------------------

-- Methods that change nothing, called by the finalizer chain below and
-- compared across the two paths.
local PURE = { "corners", "center", "half_extents", "axes", "angle", "rotation",
               "penetration", "overlaps", "distance", "intersects", "contains" }

-- Finalizers that arm the next when they run (a bounded number of runs in
-- all) and call pure methods on the slots' boxes: while the chain lives,
-- the collector keeps finalizing, so they run at GC steps inside whatever
-- comes next, between an FFI wrapper's C call and its reading of the
-- results among the rest.
local chain_runs = 0
local function finalizer_chain()
  local function arm()
    local function f()
      finalizers_run = finalizers_run + 1
      chain_runs = chain_runs + 1
      if chain_runs > 5000 or depth >= 3 then return end
      depth = depth + 1
      local v = slots[chain_runs % 16 + 1]
      local T = obb.type(v) and getmetatable(v)
      if T then
        for _, name in ipairs(PURE) do
          if T[name] then pcall(T[name], v, v) end
        end
      end
      depth = depth - 1
      arm()
    end
    if newproxy then
      getmetatable(newproxy(true)).__gc = f
    else
      setmetatable({}, { __gc = f })
    end
  end
  for _ = 1, byte() % 16 + 1 do arm() end
end

-- Two results, bit for bit (NaN equal to NaN).
local function same_results(a, b)
  if a.n ~= b.n then return false end
  for i = 1, a.n do
    local x, y = a[i], b[i]
    if x ~= y and not (x ~= x and y ~= y) then return false end
  end
  return true
end

-- On the FFI path, a pure method of a slot's box and its classic C
-- function give the same results, whatever finalizers do in between
-- (unless one changed the box: only finalizer_call's may).
local function compare_paths()
  if not ffi_path then return end
  local v, x = slots[byte() % 16 + 1], slots[byte() % 16 + 1]
  local T = obb.type(v) and getmetatable(v)
  local C = T and package.loaded["obb.jit"].classic[T]
  if not C or disguised[v] or disguised[x] then return end
  local name = PURE[byte() % #PURE + 1]
  if not (T[name] and C[name]) then return end
  local fins = finalizers_run - chain_runs
  local fast = pack(pcall(T[name], v, x))
  local classic = pack(pcall(C[name], v, x))
  if finalizers_run - chain_runs == fins and (fast[1] or classic[1])
      and not same_results(fast, classic) then
    broken(name .. ": the FFI path and the classic binding disagree")
  end
end

-- Moves near DBL_MAX through a world of huge walls, with every response:
-- a bounce's mirror overflowed and the move never returned (libFuzzer's
-- -timeout reports a hang); results are checked as every call's are.
local RESPONSES = { "touch", "cross", "slide", "bounce" }
local function huge_moves()
  local dim = byte() % 2 + 2
  local w = dim == 2 and obb.world2() or obb.world3()
  local function big() return (byte() % 2 == 0 and -1 or 1) * (byte() + 1) * 2 ^ (1016 + byte() % 8) end
  for k = 1, byte() % 4 + 1 do
    if dim == 2 then pcall(w.add, w, k, big(), big(), math.abs(big()) / 16, math.abs(big()) / 16, number())
    else pcall(w.add, w, k, big(), big(), big(), math.abs(big()) / 16, math.abs(big()) / 16, math.abs(big()) / 16) end
  end
  if dim == 2 then w:add("p", 0, 0, 1, 1) else w:add("p", 0, 0, 0, 1, 1, 1) end
  for _ = 1, byte() % 4 + 1 do
    local resp = RESPONSES[byte() % 4 + 1]
    local name = ({ "move", "check", "push" })[byte() % 3 + 1]
    local args = { w, "p", big(), big() }
    if name == "push" then args = { w, "p", resp } -- a response name is a filter too
    elseif dim == 3 then args[5] = big() end
    if name ~= "push" then
      if byte() % 2 == 0 then -- the turning form: a goal angle or quaternion
        for _ = 1, dim == 2 and 1 or 4 do args[#args + 1] = byte() % 2 == 0 and big() or number() end
      end
      args[#args + 1] = resp
    end
    call({ name = name, fn = w[name] }, args, #args, false)
  end
  slots[byte() % 16 + 1] = w
end

-- obb.bump under filters that remove, add, raise or yield, and custom
-- responses that raise or yield, moves run in coroutines that may be
-- dropped: afterwards bump's record and obb's world agree.
local bump_ok, bump = pcall(require, "obb.bump")
local function bump_hostile()
  if not bump_ok then return end
  local w = bump.newWorld(byte() % 64 + 1)
  local items = {}
  for i = 1, byte() % 8 + 2 do
    items[i] = { i }
    w:add(items[i], byte() % 48, byte() % 48, byte() % 16 + 1, byte() % 16 + 1)
  end
  w:addResponse("raise", function() error("a custom response raised") end)
  w:addResponse("yield", function() coroutine.yield() end)
  local function filter(_, other)
    local b = byte() % 10
    if b == 0 then pcall(w.remove, w, other); return false end
    if b == 1 then error("a filter raised") end
    if b == 2 then coroutine.yield() end
    if b == 3 then pcall(w.add, w, {}, 0, 0, 1, 1) end
    if b == 4 then return "raise" end
    if b == 5 then return "yield" end
    return RESPONSES[b % 4 + 1]
  end
  for _ = 1, byte() % 6 + 1 do
    local it = items[byte() % #items + 1]
    if w:hasItem(it) then
      local gx, gy = byte() % 64 - 8, byte() % 64 - 8
      local co = coroutine.create(function() return w:move(it, gx, gy, filter) end)
      coroutine.resume(co) -- may raise, or yield and be dropped
    end
  end
  collectgarbage()
  local list, n = w:getItems()
  if n ~= w:countItems() then broken("obb.bump: getItems and countItems disagree") end
  for _, it in ipairs(list) do
    local x, y, rw, rh = w:getRect(it)
    local found, m = w:queryPoint(x + rw / 2, y + rh / 2)
    local here = false
    for k = 1, m do if found[k] == it then here = true end end
    if not here then broken("obb.bump: an item is not where its rect says") end
  end
end

-- ---- the program ------------------------------------------------------


for i = 1, 4 do slots[i] = obb.new2(i, 0, 1, 1, i) end
for i = 5, 8 do slots[i] = obb.new3(i, 0, 0, 1, 1, 1) end

local function program()
while more() do
  local op = byte() % 21
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
    local mt = type(v) == "userdata" and dbg.getmetatable(v)
    if type(mt) == "table" then
      local f = byte() % 2 == 0 and rawget(mt, "__gc") or rawget(mt, "__close")
      if type(f) == "function" then pcall(f, v, nil) end
    end
  elseif op == 9 then -- an object dressed up as another type
    local v = slots[byte() % 16 + 1]
    local mt = metatables[byte() % #metatables + 1]
    if type(v) == "userdata" and v ~= io.stdout and mt and may_dress(v, mt) then
      if trace then io.stderr:write("setmetatable(", show(v), ", ", tostring(mt.__name), ")\n") end
      if disguised[v] == nil then disguised[v] = dbg.getmetatable(v) end
      dbg.setmetatable(v, mt)
    end
  elseif op == 10 then
    slots[byte() % 16 + 1] = false
  elseif op == 12 then
    finalizer_call()
  elseif op == 13 then
    check_worlds()
  elseif op == 14 then
    open_second_copy()
  elseif op == 15 then
    huge_through_every_method()
  elseif op == 16 then
    huge_merge_and_add()
  elseif op == 17 then
    finalizer_chain()
  elseif op == 18 then
    compare_paths()
  elseif op == 19 then
    huge_moves()
  elseif op == 20 then
    bump_hostile()
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
dbg.sethook()
if ok then ok, err = pcall(check_worlds) end
for v, mt in pairs(disguised) do dbg.setmetatable(v, mt) end
if not ok then error(err, 0) end
