-- obb.jit: the LuaJIT FFI fast path (docs/love.md, "The FFI fast path").
--
-- Under LuaJIT, luaopen_obb (src/binding/lobb_open.c) requires this module
-- and calls install(obb, entries, mt2, mt3, mtw, ffi_add, mtr) with the
-- module table, the addresses of the C functions it may call (so it needs
-- no file: a fused game, Windows and a static link are all alike), the
-- real metatables of 2D boxes, 3D boxes and worlds, the C half of a
-- world's add, and the real metatable of response sets
-- (src/binding/lobb_jit.c). install puts Lua functions in place of the hot
-- methods of obb.obb2, obb.obb3 and worlds; they call the same C core
-- functions through the FFI, over the same userdata, so a trace compiles
-- the whole call instead of leaving it for the C API. The box methods are
-- generated from one table of rows (lua/obb/jit_sigs.lua, which the specs
-- read too); the world methods, each its own shape, are written here.
--
-- Every replacement has one fast case: arguments exactly as the classic
-- binding takes them (boxes of the right type, finite numbers, the right
-- count). Anything else, and any core call that reports a failure, goes to
-- the classic C function with the very same arguments, as a tail call, so
-- errors (their text and the function name in them) and results are the
-- binding's own. Every argument is checked before anything is written.
--
-- A box is recognised by its real metatable, as debug.getmetatable sees
-- it (getmetatable gives only the method table, and any script can give a
-- userdata of its own a __metatable naming it): the binding's metatables,
-- which luaopen_obb hands to install, are given to no other userdata
-- unless the debug library gives them. Then, after its bytes are copied
-- into a scratch buffer, by the tag the binding writes after every box
-- (lobb_box.h), which tells a box from another userdata that
-- debug.setmetatable dressed as one. The pair tests, the hottest calls,
-- copy nothing: they check the metatables here and hand both userdata to
-- an entry point of include/lobb_ffi.h, which checks the tags in C.
-- Nothing here makes garbage, compiled or interpreted: scratch buffers are
-- made once, results are plain numbers and booleans.
--
-- Nothing here depends on a global once obb has loaded: every function
-- the replacements call (debug.getmetatable among them, which LuaJIT
-- compiles into a trace) is captured when this file is loaded, and a
-- world's add writes its item tables in a C function of the binding
-- (docs/hardening.md says what holds, with and without the debug
-- library).
--
-- The classic path stays when OBB_NO_FFI is set to anything but "" or "0",
-- when package.loaded["obb.jit"] is false before require "obb", or without
-- the ffi module or debug.getmetatable. obb.jit.status says which.

-- Captured at load (see above).
local type, select, rawget, rawequal, pairs, pcall, assert, tostring =
  type, select, rawget, rawequal, pairs, pcall, assert, tostring
local rawset, ipairs, tonumber, load = rawset, ipairs, tonumber, load
local setfenv = rawget(_G, "setfenv")
local concat, max, unpack = table.concat, math.max, table.unpack or unpack
local getmetatable, setmetatable, require = getmetatable, setmetatable, require
local debug_lib = rawget(_G, "debug")
local raw_getmetatable = type(debug_lib) == "table" and rawget(debug_lib, "getmetatable") or nil
local raw_getfenv = type(debug_lib) == "table" and rawget(debug_lib, "getfenv") or nil
local newproxy = rawget(_G, "newproxy")
local os_lib = rawget(_G, "os")
local getenv = type(os_lib) == "table" and rawget(os_lib, "getenv") or nil
local huge = math.huge
local has_jit = rawget(_G, "jit") ~= nil

-- The replacements share scratch buffers, and a finalizer can run in the
-- middle of one (at a GC step of the interpreter, or of a trace's exit)
-- and call another. So each takes a new generation before it writes a
-- buffer, reads results back into locals, and uses them (or commits) only
-- while the generation is still its own; otherwise the classic function
-- answers, with its results on the Lua stack. This is the world methods'
-- generation; the box methods' is in their chunk.
local gen = 0

local M = {}

-- The C declarations and the rows of the box methods (obb.jit_sigs).
local sigs = require "obb.jit_sigs"
local KINDS = sigs.KINDS
M.cdef = sigs.cdef

-- "ffi" once installed, else why the classic path stays.
M.status = "not installed"

-- The classic C functions each install replaced, by method table:
-- M.classic[obb.obb2].intersects. The specs compare the two paths with it.
M.classic = setmetatable({}, { __mode = "k" })

local function disabled_by_env()
  local v = getenv and getenv("OBB_NO_FFI")
  return v ~= nil and v ~= "" and v ~= "0"
end

-- Declares M.cdef unless an earlier install in this state did (once only).
local function declare(ffi)
  if not pcall(ffi.typeof, "obb3") then ffi.cdef(M.cdef) end
  assert(ffi.sizeof("obb2") == 48 and ffi.sizeof("obb3") == 120,
         "obb2/obb3 declared differently elsewhere")
end

-- ---- the box methods, generated from obb.jit_sigs -------------------------
-- Each row's forms become one wrapper per dimension: the tests of its
-- arguments' kinds, then its body, then the classic method. Generated as
-- Lua source and loaded once, each wrapper is its own function (LuaJIT
-- records traces per prototype: closures of one factory would share one),
-- all in one chunk, so that they share a generation as `gen` above.

-- How many arguments a kind takes in dimension dim.
local function kind_count(kind, dim)
  local n = KINDS[kind][1]
  return type(n) == "table" and n[dim - 1] or n
end

-- A row's forms in dimension dim, or nil.
local function forms_of(row, dim)
  if row.dims ~= nil and row.dims ~= dim then return nil end
  return { select(2, unpack(row)) }
end

-- "a1, a2, ..., an" (from a first index on).
local function names(prefix, from, n)
  local t = {}
  for i = 1, n do t[i] = prefix:format(from + i - 1) end
  return concat(t, ", ")
end

-- A body template for dimension dim, its kinds' arguments at slots.
local function expand(src, dim, slots, consts)
  src = src:gsub("%${([^,}]*),([^}]*)}", function(a, b) return dim == 2 and a or b end)
  src = src:gsub("%$(%u)", function(c) return tostring(consts[c]) end)
  src = src:gsub("%$vals(%b())", function(args)
    local buf, from, n = args:match("^%((%w+),%s*(%d+),%s*(%d+)%)$")
    return names(buf .. "[%d]", tonumber(from), tonumber(n))
  end)
  src = src:gsub("%$r%((%d+)%)", function(n) return names("r%d", 1, tonumber(n)) end)
  return (src:gsub("%$(%d)", function(i) return slots[tonumber(i)] end))
end

-- The test of one form's arguments, and their names by kind slot.
local function form_test(kinds, dim)
  local tests, slots, k = {}, {}, 1
  for kind in kinds:gmatch("%S+") do
    local spec, n = KINDS[kind], kind_count(kind, dim)
    local list = names("a%d", k, n)
    slots[#slots + 1] = list
    if spec.each then
      for i = k, k + n - 1 do tests[#tests + 1] = spec.each:format("a" .. i) end
    end
    if spec.group then tests[#tests + 1] = spec.group:format(list) end
    k = k + n
  end
  return ("n == %d and %s"):format(k - 1, concat(tests, " and ")), slots, k - 1
end

-- The source of one wrapper (a chunk returning it): its forms' tests and
-- bodies, then the classic method, looked up in C (M.classic's table) so
-- that a spec can count the calls that fall back.
local function wrapper_source(row, dim, consts)
  local out, most = {}, 0
  for _, form in ipairs(forms_of(row, dim)) do
    local test, slots, n = form_test(form[1], dim)
    most = max(most, n)
    out[#out + 1] = ("  if %s then\n  %s\n  end"):format(expand(test, dim, slots, consts),
                                                     expand(form[2], dim, slots, consts))
  end
  local head = ("return function(...)\n  local %s = ...\n  local n = select(\"#\", ...)\n")
    :format(names("a%d", 1, most))
  if not row.nogen then head = head .. "  local g = gen + 1; gen = g\n" end
  return head .. concat(out, "\n") .. ("\n  return C.%s(...)\nend"):format(row[1])
end

-- The wrappers of every row, in one chunk so that they share the
-- generation; what they call is bound to locals (lib.x and st.x too) once.
-- Returns them by dimension and name ("2intersects").
local function generate(deps, lib, C2, C3, consts)
  local src, used = { "local deps, C2, C3 = ...\nlocal gen = 0\nlocal W = {}" }, {}
  local body = {}
  for _, row in ipairs(sigs.signatures) do
    for dim = 2, 3 do
      if forms_of(row, dim) then
        body[#body + 1] = ("do\n  local C = C%d\n  W[%q] = (function()\n%s\n  end)()\nend")
          :format(dim, dim .. row[1], wrapper_source(row, dim, consts[dim - 1]))
      end
    end
  end
  body = concat(body, "\n"):gsub("(%a+)%.([%w_]+)", function(t, name)
    if t ~= "lib" and t ~= "st" then return nil end
    local v = t .. "_" .. name
    if not used[v] then
      used[v] = true
      src[#src + 1] = ("local %s = deps.%s.%s"):format(v, t, name)
    end
    return v
  end)
  for name in pairs(deps) do
    if name ~= "st" then src[#src + 1] = ("local %s = deps.%s"):format(name, name) end
  end
  deps.lib = lib
  src[#src + 1] = body
  src[#src + 1] = "return W"
  local chunk = assert(load(concat(src, "\n"), "=obb.jit's box methods", "t", {}))
  if setfenv then setfenv(chunk, {}) end -- LuaJIT's load takes no environment
  return chunk(deps, C2, C3)
end

-- The replacements for obb.obb2 and obb.obb3 (T2, T3), whose boxes carry
-- the real metatables mt2 and mt3 as getmt (debug.getmetatable) sees
-- them; returns them and the classic functions, as name -> function.
local function build(ffi, lib, obb, T2, T3, mt2, mt3, getmt)
  local copy = ffi.copy
  local buf = ffi.new("double[16]")
  local w = ffi.cast("uint32_t *", buf)
  -- the userdata of a box is the box, then the tag pointer (lobb_ud2/3);
  -- FFI lays these out as the C compiler does
  local UD2 = ffi.typeof("struct { obb2 box; const void *tag; }")
  local UD3 = ffi.typeof("struct { obb3 box; const void *tag; }")
  local size2, size3 = ffi.sizeof(UD2), ffi.sizeof(UD3)
  local ptr_words = ffi.sizeof("void *") / 4
  assert(size3 <= ffi.sizeof(buf), "box userdata larger than the buffer")

  -- The tag words of a genuine box of each type (one that carries the
  -- type's metatable, so the copy reads only its own bytes).
  local function sample(box, mt, size, UD)
    assert(rawequal(getmt(box), mt), "a new box does not carry its metatable")
    copy(buf, box, size)
    local i = ffi.offsetof(UD, "tag") / 4
    return w[i], w[i + ptr_words - 1], i, i + ptr_words - 1
  end
  local tag2a, tag2b, i2a, i2b = sample(obb.new2(0, 0, 0, 0), mt2, size2, UD2)
  local tag3a, tag3b, i3a, i3b = sample(obb.new3(0, 0, 0, 0, 0, 0), mt3, size3, UD3)

  -- Whether x is a userdata carrying the real metatable mt: all that Lua
  -- checks before handing x to an entry point of include/lobb_ffi.h, which
  -- checks the tag itself. Without the debug library only obb's own
  -- userdata carry it, so what the entry point reads is the box's.
  local function dressed(x, mt)
    return type(x) == "userdata" and getmt(x) == mt
  end
  -- Whether x is a 2D (3D) box; if so, buf holds a copy of it. Only a
  -- userdata given the type's real metatable by debug.setmetatable can be
  -- read past its end (up to a 3D box's 128 bytes) before it is refused,
  -- and only one whose bytes past its end hold the tag (a dead box's) is
  -- taken for a box (docs/hardening.md).
  local function is2(x)
    if not dressed(x, mt2) then return false end
    copy(buf, x, size2)
    return w[i2a] == tag2a and w[i2b] == tag2b
  end
  local function is3(x)
    if not dressed(x, mt3) then return false end
    copy(buf, x, size3)
    return w[i3a] == tag3a and w[i3b] == tag3b
  end
  local d = ffi.new("double[4]")
  -- a finite number (not a numeric string), as lobb_checkfinite takes
  local function fin(x) return type(x) == "number" and x - x == 0 end
  local deps = {
    is2 = is2, is3 = is3, dressed = dressed, mt2 = mt2, mt3 = mt3, copy = copy, huge = huge,
    select = select, type = type,
    buf = buf, buf2 = ffi.cast("obb2 *", buf), buf3 = ffi.cast("obb3 *", buf),
    p = ffi.new("double[4]"), d = d, e = ffi.new("double[3]"), out = ffi.new("double[24]"),
    pb = ffi.new("double[3]"), t = ffi.new("double[1]"), sv = ffi.new("double[12]"),
    fin = fin,
    extent = function(x) return fin(x) and x >= 0 end,
    maxt = function(x) return x == nil or (type(x) == "number" and x >= 0) end,
    nonzero = function(x, y, z) return x ~= 0 or y ~= 0 or (z ~= nil and z ~= 0) end,
    -- a quaternion as lobb_checkquat takes it: four finite numbers, not all
    -- zero; stored in d
    quat = function(x, y, z, qw)
      if fin(x) and fin(y) and fin(z) and fin(qw) and (x ~= 0 or y ~= 0 or z ~= 0 or qw ~= 0) then
        d[0], d[1], d[2], d[3] = x, y, z, qw
        return true
      end
      return false
    end,
    -- Statuses: the FFI interpreter boxes an enum result (garbage on every
    -- call), so each function returning obb_status is called through a
    -- pointer to the same declaration returning int, as the C ABI returns
    -- an enum anyway.
    st = {},
  }
  for name, params in M.cdef:gmatch("obb_status%s+([%w_]+)%s*(%b())") do
    deps.st[name] = ffi.cast("int (*)" .. params, lib[name])
  end
  local consts = {
    { D = 2, E = ffi.offsetof("obb2", "e") / 8, U = ffi.offsetof("obb2", "u") / 8, S = ffi.sizeof("obb2") },
    { D = 3, E = ffi.offsetof("obb3", "e") / 8, U = ffi.offsetof("obb3", "u") / 8, S = ffi.sizeof("obb3") },
  }
  local C2, C3 = {}, {}
  for k, f in pairs(T2) do C2[k] = f end
  for k, f in pairs(T3) do C3[k] = f end

  local W = generate(deps, lib, C2, C3, consts)
  local F2, F3 = {}, {}
  for key, f in pairs(W) do
    local dim, name = tonumber(key:sub(1, 1)), key:sub(2)
    local F, C = dim == 2 and F2 or F3, dim == 2 and C2 or C3
    assert(C[name], "obb.obb" .. dim .. " has no " .. name)
    F[name] = f
  end
  return F2, F3, C2, C3
end

-- ---- the world methods ------------------------------------------------------
-- The world's methods are replaced (build_world) for add, update and get
-- by numbers, the calls a game makes per item and frame, and for the
-- movers, casts and queries (query_box, query_point) without a filter
-- function. The item's id comes
-- from the world's item table, its first user value (under LuaJIT the
-- userdata's environment, read with debug.getfenv); the C side
-- (include/lobb_ffi.h) checks the world and the id as the classic method
-- does and returns 0 for anything else, and then the classic method runs
-- with the same arguments.
--
-- The environment is read once per world and kept (weakly): the binding
-- never replaces it, only its entries (fresh item tables when the last
-- item goes), which are read on every call. Only debug.setfenv replaces
-- it; the fast path then keeps the world's former tables, which can name
-- only ids the world holds, as a script with the debug library can make
-- any item table name (docs/hardening.md). world_items gives the two
-- lookups: a world's item tables, and an item's id.
local function world_items(mtw, getmt, getfenv)
  -- weak both ways: the world holds its environment anyway, and neither
  -- the world nor its items may be kept alive by this cache
  local holders = setmetatable({}, { __mode = "kv" })

  -- The world's user values (its two item tables), or nil.
  local function holder_of(w)
    if type(w) ~= "userdata" or getmt(w) ~= mtw then return nil end
    local holder = holders[w]
    if holder == nil then
      holder = getfenv(w)
      holders[w] = holder
    end
    return type(holder) == "table" and holder or nil
  end

  -- The id the world's item table gives item, or nil.
  local function id_of(w, item)
    local holder = holder_of(w)
    local items = holder and rawget(holder, 1)
    if type(items) ~= "table" or item == nil then return nil end
    local id = rawget(items, item)
    return type(id) == "number" and id or nil
  end
  return holder_of, id_of
end

local function num(x) return type(x) == "number" end

-- Clears what an earlier, longer result left in dst after index k.
local function clear_tail(dst, k)
  k = k + 1
  while rawget(dst, k) ~= nil do
    rawset(dst, k, nil)
    k = k + 1
  end
end

-- add, update and get by numbers into F.
local function build_items(ffi, lib, F, CW, holder_of, id_of, ffi_add)
  local update, get = lib.lobb_ffi_world_update, lib.lobb_ffi_world_get
  local reserve = lib.lobb_ffi_world_reserve
  local v = ffi.new("double[10]")
  local out = ffi.new("double[10]")

  -- The numbers after the item into v: their count when they are numbers
  -- in a count the methods take (2D 4 or 5, 3D 6 or 10), else nil.
  local function numbers(n, a, b, c, d, e, f, g, h, i, j)
    if not (num(a) and num(b) and num(c) and num(d)) then return nil end
    v[0], v[1], v[2], v[3] = a, b, c, d
    if n == 4 then return 4 end
    if not num(e) then return nil end
    v[4] = e
    if n == 5 then return 5 end
    if not num(f) or (n ~= 6 and n ~= 10) then return nil end
    v[5] = f
    if n == 6 then return 6 end
    if not (num(g) and num(h) and num(i) and num(j)) then return nil end
    v[6], v[7], v[8], v[9] = g, h, i, j
    return 10
  end

  -- The box is built and kept in the world by reserve; ffi_add (C) then
  -- writes the item tables, protected, with the world marked busy only
  -- inside it, as the classic add does, and enters the box, or answers
  -- false (the box no longer waits, or the item is in now) for the
  -- classic add to run. It raises what the classic add would (a
  -- finalizer's error, or memory), with the world whole and not busy.
  function F.add(...)
    local w, item, a, b, c, d, e, f, g, h, i, j = ...
    local holder = holder_of(w)
    if holder and item ~= nil and item == item then
      local items = rawget(holder, 1)
      local gn = gen + 1; gen = gn
      local n = numbers(select("#", ...) - 2, a, b, c, d, e, f, g, h, i, j)
      if n and type(items) == "table" and type(rawget(holder, 2)) == "table"
          and rawget(items, item) == nil and gen == gn then
        local ticket = reserve(w, v, n)
        if ticket > 0 and ffi_add(w, item, ticket) then return w end
      end
    end
    return CW.add(...)
  end

  function F.update(...)
    local w, item, a, b, c, d, e, f, g, h, i, j = ...
    local id = id_of(w, item)
    if id then
      local gn = gen + 1; gen = gn
      local n = numbers(select("#", ...) - 2, a, b, c, d, e, f, g, h, i, j)
      if n and gen == gn and update(w, id, v, n) ~= 0 then return w end
    end
    return CW.update(...)
  end

  function F.get(...)
    local w, item = ...
    if select("#", ...) == 2 then
      local id = id_of(w, item)
      if id then
        local g = gen + 1; gen = g
        local n = get(w, id, out)
        local o1, o2, o3, o4, o5, o6, o7, o8, o9, o10 = out[0], out[1], out[2],
          out[3], out[4], out[5], out[6], out[7], out[8], out[9]
        if gen == g then
          if n == 5 then return o1, o2, o3, o4, o5 end
          if n == 10 then return o1, o2, o3, o4, o5, o6, o7, o8, o9, o10 end
        end
      end
    end
    return CW.get(...)
  end
end

-- move and check without a filter function into F.
local function build_moves(ffi, lib, F, CW, holder_of, id_of, hits, HITS, mtr, getmt)
  -- ---- the movers: move, check without a filter function ----
  -- The C side (lobb_ffi_world.c) finds where the item ends and writes
  -- each collision as a record (include/lobb_ffi.h, LOBB_FFI_MOVE_RECORD
  -- doubles); here they go into dst, raw, as the classic
  -- method writes them, and then a move is committed, as the classic
  -- method commits after writing its out table, unless the world changed
  -- meanwhile. The filter is nil, a response name or a response set (a
  -- userdata carrying the sets' real metatable, handed to C, which checks
  -- its tag and answers by class). A filter function, more collisions
  -- than the buffer holds,
  -- a finalizer that used the buffers or changed the world between the
  -- halves, or anything the C side refuses: the classic method, with the
  -- same arguments.
  local move_c, commit_c = lib.lobb_ffi_world_move, lib.lobb_ffi_world_commit
  local args = ffi.new("double[7]") -- the numbers after the item
  -- what the method returns, then the change count and the dimension
  local actual = ffi.new("double[9]")
  local RESPONSE = { touch = lib.OBB_TOUCH, cross = lib.OBB_CROSS, slide = lib.OBB_SLIDE,
                     bounce = lib.OBB_BOUNCE }
  local NAME = {}
  for name, r in pairs(RESPONSE) do NAME[r] = name end
  local REC = lib.LOBB_FFI_MOVE_RECORD

  local function write_moves(dst, byid, dim, count)
    local k = 0
    for i = 0, count - 1 do
      local h = REC * i
      rawset(dst, k + 1, rawget(byid, hits[h] + 1))
      rawset(dst, k + 2, NAME[hits[h + 1]])
      rawset(dst, k + 3, hits[h + 2])
      rawset(dst, k + 4, hits[h + 3])
      rawset(dst, k + 5, hits[h + 4])
      if dim == 2 then
        rawset(dst, k + 6, hits[h + 6])
        rawset(dst, k + 7, hits[h + 7])
        rawset(dst, k + 8, hits[h + 9])
        k = k + 8
      else
        rawset(dst, k + 6, hits[h + 5])
        rawset(dst, k + 7, hits[h + 6])
        rawset(dst, k + 8, hits[h + 7])
        rawset(dst, k + 9, hits[h + 8])
        rawset(dst, k + 10, hits[h + 9])
        k = k + 10
      end
    end
    clear_tail(dst, k)
  end

  -- w:move / w:check (item, gx, gy[, gz | angle | gz, qx, qy, qz, qw]
  -- [, filter [, dst]]): nv numbers after the item, 2, 3 or 7; the C
  -- side tells which form they are in the world's dimension (dim 3: a
  -- 3D move or a 2D turning one, both with 3 results before the count).
  local function mover(commit, name)
    return function(...)
      local w, item, gx, gy, a, b, c, d, e, f, g = ...
      local n = select("#", ...)
      local id = id_of(w, item)
      if id and num(gx) and num(gy) then
        local nv, filter, dst = 2, a, b
        if num(a) then
          nv, filter, dst = 3, b, c
          if num(b) then
            nv, filter, dst = 7, f, g
            if not (num(c) and num(d) and num(e)) then nv = nil end
          end
        end
        local response, set = filter == nil and 3 or RESPONSE[filter], nil
        if response == nil and type(filter) == "userdata" and getmt(filter) == mtr then
          response, set = 0, filter
        end
        if nv and response and n <= nv + 4 and (dst == nil or type(dst) == "table") then
          local gen1 = gen + 1; gen = gen1
          args[0], args[1] = gx, gy
          if nv > 2 then args[2] = a end
          if nv > 3 then args[3], args[4], args[5], args[6] = b, c, d, e end
          local count = move_c(w, id, args, nv, response, set, hits, HITS, actual)
          local r1, r2, r3, stamp, dim = actual[0], actual[1], actual[2], actual[7], actual[8]
          if count >= 0 and gen == gen1 then
            if dst ~= nil then
              write_moves(dst, rawget(holder_of(w), 2), dim, count)
            end
            if gen == gen1 and (not commit or commit_c(w, id, stamp) ~= 0) then
              if nv == 2 then return r1, r2, count end
              if nv == 3 then return r1, r2, r3, count end
              return r1, r2, r3, actual[3], actual[4], actual[5], actual[6], count
            end
          end
        end
      end
      return CW[name](...)
    end
  end
  F.move = mover(true, "move")
  F.check = mover(false, "check")
end

-- cast and cast_turning without a filter into F.
local function build_casts(ffi, lib, F, CW, holder_of, hits, HITS, mt2, mt3, getmt)
  local cast_c = lib.lobb_ffi_world_cast
  local goal = ffi.new("double[3]")
  local REC = lib.LOBB_FFI_CAST_RECORD
  local cap = HITS * lib.LOBB_FFI_MOVE_RECORD / REC -- the hits buffer holds that many
  -- A cast's count of hits, its hits (id, t, nx, ny, nz each) written
  -- into dst, raw: item, t, nx, ny[, nz] per hit, as the classic methods
  -- write them; or nil when the C side refused, or a finalizer used the
  -- buffer meanwhile (generation g no longer the last).
  local function cast_result(count, g, dst, byid, dim)
    if count < 0 or gen ~= g then return nil end
    local k = 0
    for i = 0, count - 1 do
      local h = REC * i
      rawset(dst, k + 1, rawget(byid, hits[h] + 1))
      rawset(dst, k + 2, hits[h + 1])
      rawset(dst, k + 3, hits[h + 2])
      rawset(dst, k + 4, hits[h + 3])
      if dim == 3 then rawset(dst, k + 5, hits[h + 4]) end
      k = k + dim + 2
    end
    clear_tail(dst, k)
    if gen == g then return count end
  end

  -- w:cast(box, dx, dy[, dz], dst): item, t, nx, ny[, nz] per hit.
  function F.cast(...)
    local w, box, dx, dy, a, b, c = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and num(dx) and num(dy) then
      local dim, dst, filter = 2, a, b
      if num(a) then dim, dst, filter = 3, b, c end
      local mt = dim == 2 and mt2 or mt3
      if type(dst) == "table" and filter == nil and n <= dim + 4
          and getmt(box) == mt then
        local g = gen + 1; gen = g
        goal[0], goal[1], goal[2] = dx, dy, dim == 3 and a or 0
        local r = cast_result(cast_c(w, box, goal, dim, hits, cap), g, dst, rawget(holder, 2), dim)
        if r then return r end
      end
    end
    return CW.cast(...)
  end

  -- w:cast_turning(box, dx, dy, wt, dst) (2D) or
  -- w:cast_turning(box, dx, dy, dz, rx, ry, rz, dst) (3D): a number after
  -- the 2D form's turn makes it the 3D form (a 2D world then refuses it in
  -- C).
  local cast_turning_c = lib.lobb_ffi_world_cast_turning
  local turn = ffi.new("double[3]")
  function F.cast_turning(...)
    local w, box, dx, dy, a, b, c, d, e, f = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and num(dx) and num(dy) and num(a) then
      local dim, dst, filter, most = 2, b, c, 7
      if num(b) then dim, dst, filter, most = 3, e, f, 10 end
      if type(dst) == "table" and filter == nil and n <= most
          and (dim == 2 or (num(c) and num(d)))
          and getmt(box) == (dim == 2 and mt2 or mt3) then
        local g = gen + 1; gen = g
        if dim == 2 then
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, 0, a, 0, 0
        else
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, a, b, c, d
        end
        local r = cast_result(cast_turning_c(w, box, goal, turn, dim, hits, cap), g, dst,
                              rawget(holder, 2), dim)
        if r then return r end
      end
    end
    return CW.cast_turning(...)
  end
end

-- query_box and query_point without a filter function into F.
local function build_queries(ffi, lib, F, CW, holder_of, mt2, mt3, getmt)
  local query_box_c, query_point_c = lib.lobb_ffi_world_query_box, lib.lobb_ffi_world_query_point
  -- The ids of a query's items (its own buffer: a query may find many
  -- more items than a move has collisions; more than IDS, and the classic
  -- method runs the query again), and a point.
  local IDS = 4096
  local ids = ffi.new("double[?]", IDS)
  local pt = ffi.new("double[3]")
  -- A query's count of items, its items written into dst, raw, in the
  -- order C found them (the classic method's), and dst's tail cleared as
  -- the classic method clears it; or nil when the C side refused, or a
  -- finalizer used the buffer meanwhile (generation g no longer the last)
  -- or took an item out of the world (no item for its id). It gives up
  -- before writing anything of another call's or a removed item, so dst
  -- then holds a prefix of this query's items, without a hole: the classic
  -- method writes its own and clears what follows, as it would have.
  local function ids_result(count, g, dst, byid)
    if count < 0 then return nil end
    for i = 1, count do
      local item = rawget(byid, ids[i - 1] + 1)
      if item == nil or gen ~= g then return nil end
      rawset(dst, i, item)
    end
    clear_tail(dst, count)
    if gen == g then return count end
  end

  -- w:query_box(box, dst): a box of either type (C checks its tag and the
  -- world's dimension).
  function F.query_box(...)
    local w, box, dst, filter = ...
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and type(dst) == "table" and filter == nil
        and select("#", ...) <= 4 then
      local mt = getmt(box)
      local dim = mt == mt2 and 2 or mt == mt3 and 3 or nil
      if dim then
        local g = gen + 1; gen = g
        local r = ids_result(query_box_c(w, box, dim, ids, IDS), g, dst, rawget(holder, 2))
        if r then return r end
      end
    end
    return CW.query_box(...)
  end

  -- w:query_point(x, y[, z], dst): a number after y is z (a 2D world then
  -- refuses it in C).
  function F.query_point(...)
    local w, x, y, a, b, c = ...
    local holder = holder_of(w)
    if holder and num(x) and num(y) then
      local dim, dst, filter = 2, a, b
      if num(a) then dim, dst, filter = 3, b, c end
      if type(dst) == "table" and filter == nil and select("#", ...) <= dim + 3 then
        local g = gen + 1; gen = g
        pt[0], pt[1], pt[2] = x, y, dim == 3 and a or 0
        local r = ids_result(query_point_c(w, pt, dim, ids, IDS), g, dst, rawget(holder, 2))
        if r then return r end
      end
    end
    return CW.query_point(...)
  end
end

-- The replacements for the world methods WM (whose real metatable is mtw),
-- and the classic ones, looked up when a call falls back (so a spec can
-- count those calls).
local function build_world(ffi, lib, WM, mtw, getmt, getfenv, ffi_add, mt2,
                           mt3, mtr)
  local CW, F = {}, {}
  for _, name in ipairs({ "add", "update", "get", "move", "check", "cast", "cast_turning",
                          "query_box", "query_point" }) do
    CW[name] = WM[name]
  end
  local holder_of, id_of = world_items(mtw, getmt, getfenv)
  -- room for HITS records of a move (a cast's are smaller)
  local HITS = 64
  local hits = ffi.new("double[?]", HITS * lib.LOBB_FFI_MOVE_RECORD)
  build_items(ffi, lib, F, CW, holder_of, id_of, ffi_add)
  build_moves(ffi, lib, F, CW, holder_of, id_of, hits, HITS, mtr, getmt)
  build_casts(ffi, lib, F, CW, holder_of, hits, HITS, mt2, mt3, getmt)
  build_queries(ffi, lib, F, CW, holder_of, mt2, mt3, getmt)
  return F, CW
end

-- Whether getmt gives a value's real metatable: mt2, mt3, mtw and mtr for
-- a new 2D box, 3D box, world and response set, and its own for a table
-- and a proxy whose __metatable names a method table (getmetatable, or a
-- function a script put in debug.getmetatable's place before obb loaded,
-- would give that).
local function real_metatables(getmt, obb, mt2, mt3, mtw, mtr)
  if type(getmt) ~= "function" then return false end
  local ok = rawequal(getmt(obb.new2(0, 0, 0, 0)), mt2)
    and rawequal(getmt(obb.new3(0, 0, 0, 0, 0, 0)), mt3)
    and rawequal(getmt(obb.world2()), mtw)
    and rawequal(getmt(obb.responses({})), mtr)
  local t_mt = { __metatable = rawget(mt2, "__index") }
  ok = ok and rawequal(getmt(setmetatable({}, t_mt)), t_mt)
  if ok and type(newproxy) == "function" then
    local p = newproxy(true)
    local p_mt = getmetatable(p)
    p_mt.__metatable = rawget(mt2, "__index")
    ok = rawequal(getmt(p), p_mt)
  end
  return ok
end

-- The metatables of the first install. luaopen_obb installs before any
-- script runs; a later call (from the same copy of obb opened again) must
-- bring the same ones, so a script calling install with metatables of its
-- own (a proxy's, say, to have its proxies taken for boxes) changes
-- nothing.
local installed_for

-- The functions M.cdef declares, called through the addresses luaopen_obb
-- hands over (entries: name -> light userdata; src/binding/lobb_jit.c),
-- never by opening the module's file again; the two lists must agree.
-- Enum constants come from the declarations.
local function bind(ffi, entries)
  local lib, n = {}, 0
  for ret, name, params in M.cdef:gmatch("([%a_][%w_]*)%s+([%w_]+)%s*(%b())%s*;") do
    local p = entries[name]
    assert(type(p) == "userdata", "luaopen_obb gave no " .. name)
    lib[name] = ffi.cast(ret .. " (*)" .. params, p)
    n = n + 1
  end
  for name in pairs(entries) do assert(lib[name], "the cdef has no " .. tostring(name)) end
  assert(n > 0, "the cdef declares no function")
  return setmetatable(lib, { __index = ffi.C })
end

-- Called by luaopen_obb with the module table, its entry points (above),
-- the three real metatables (2D boxes, 3D boxes, worlds), the second half
-- of a world's add (a C function of the binding, lobb_ffi_world.c) and the
-- real metatable of response sets. Never raises (the caller catches
-- anything anyway); on any failure the module keeps its classic functions.
function M.install(obb, entries, mt2, mt3, mtw, ffi_add, mtr)
  if installed_for == nil then
    installed_for = { mt2, mt3, mtw, mtr }
  elseif not (rawequal(installed_for[1], mt2) and rawequal(installed_for[2], mt3)
              and rawequal(installed_for[3], mtw) and rawequal(installed_for[4], mtr)) then
    return
  end
  if disabled_by_env() then M.status = "classic: OBB_NO_FFI is set"; return end
  if not has_jit then M.status = "classic: not LuaJIT"; return end
  local has_ffi, ffi = pcall(require, "ffi")
  if not has_ffi then M.status = "classic: no ffi module"; return end
  if type(raw_getmetatable) ~= "function" then
    M.status = "classic: no debug.getmetatable"
    return
  end
  if type(raw_getfenv) ~= "function" then
    M.status = "classic: no debug.getfenv"
    return
  end
  local ok, err = pcall(function()
    assert(type(entries) == "table" and type(mt2) == "table" and type(mt3) == "table"
           and type(mtw) == "table" and type(ffi_add) == "function" and type(mtr) == "table",
           "install takes the entry points, the real metatables and the add")
    assert(real_metatables(raw_getmetatable, obb, mt2, mt3, mtw, mtr),
           "debug.getmetatable does not give the real metatables")
    declare(ffi)
    local lib = bind(ffi, entries)
    local T2, T3, WM = rawget(mt2, "__index"), rawget(mt3, "__index"), rawget(mtw, "__index")
    assert(rawequal(T2, obb.obb2) and rawequal(T3, obb.obb3) and type(WM) == "table",
           "the method tables are not the module's")
    local F2, F3, C2, C3 = build(ffi, lib, obb, T2, T3, mt2, mt3, raw_getmetatable)
    local FW, CW = build_world(ffi, lib, WM, mtw, raw_getmetatable, raw_getfenv, ffi_add,
                               mt2, mt3, mtr)
    for k, f in pairs(F2) do T2[k] = f end
    for k, f in pairs(F3) do T3[k] = f end
    for k, f in pairs(FW) do WM[k] = f end
    M.classic[T2], M.classic[T3], M.classic[WM] = C2, C3, CW
  end)
  M.status = ok and "ffi" or "classic: " .. tostring(err)
end

return M
