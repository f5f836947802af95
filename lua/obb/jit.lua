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
-- read too); the world methods, each its own shape, are written in
-- lua/obb/jit_world.lua.
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
-- an entry point of src/binding/lobb_ffi.h, which checks the tags in C.
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
-- when package.loaded["obb.jit"] is false before require "obb", without
-- the ffi module or debug.getmetatable, or when a file the fast path needs
-- (jit_sigs.lua, jit_world.lua) is missing, raises or is of another
-- version. obb.jit.status says which ("classic: " and the reason,
-- which obb.jit.reason holds alone), and so does the module's jit_status
-- (src/binding/lobb_jit.c), which also says why when this file itself
-- could not be loaded.

-- Captured at load (see above).
local type, select, rawget, rawequal, pairs, pcall, assert, tostring =
  type, select, rawget, rawequal, pairs, pcall, assert, tostring
local ipairs, tonumber, load = ipairs, tonumber, load
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

local package_lib = rawget(_G, "package")

local M = {}

-- "ffi" once installed, else why the classic path stays: "classic: " and
-- the reason, which M.reason holds alone (nil once installed). Before
-- install runs, "not installed" under LuaJIT, and on other Luas, which
-- never install it, "classic: not LuaJIT".
local function classic(why)
  M.status, M.reason = "classic: " .. why, why
end
if has_jit then
  M.status, M.reason = "not installed", "obb.jit.install has not run (require \"obb\" runs it)"
else
  classic("not LuaJIT")
end

-- The files of the fast path beside this one. A game shipped without one
-- of them, or with one that raises or is of another version, still loads
-- obb: install keeps the classic binding and M.status says which file and
-- why (the first such). A module that raised leaves nothing behind in
-- package.loaded (Lua 5.1's and LuaJIT's require leave a sentinel there,
-- and a later require of it would raise "loop or previous error loading
-- module" instead of why).
local load_error
local function unload(name)
  local loaded = type(package_lib) == "table" and rawget(package_lib, "loaded")
  if type(loaded) == "table" and type(rawget(loaded, name)) ~= "table" then
    loaded[name] = nil
  end
end
local function need(name, fields)
  local ok, mod = pcall(require, name)
  if not ok then
    unload(name)
    local msg = tostring(mod)
    -- an error raised without a position (error(x, 0)) names no file
    if not msg:find(name:match("[^.]+$"), 1, true) then
      msg = ("error loading module '%s': %s"):format(name, msg)
    end
    load_error = load_error or msg
    return {}
  end
  for field, kind in pairs(fields) do
    if type(mod) ~= "table" or type(rawget(mod, field)) ~= kind then
      load_error = load_error or ("module '%s' has no %s %s (a file of another version of obb?)")
        :format(name, kind, field)
      return {}
    end
  end
  return mod
end
-- The C declarations and the rows of the box methods (obb.jit_sigs).
local sigs = need("obb.jit_sigs", { cdef = "string", KINDS = "table", signatures = "table" })
-- The world methods (add, update, get, the movers, casts and queries).
local jit_world = need("obb.jit_world", { build_world = "function", world_items = "function" })
local build_world, world_items = jit_world.build_world, jit_world.world_items
local KINDS = sigs.KINDS
M.cdef = sigs.cdef

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
-- all in one chunk, so that they share a generation (`gen`): a finalizer
-- run in the middle of one may call another, and each uses what it wrote
-- into a scratch buffer only while the generation is still its own
-- (obb.jit_world does the same for the world methods).

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
  -- checks before handing x to an entry point of src/binding/lobb_ffi.h, which
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
  local fin = obb._lua.finite -- a finite number: obb's Lua files share it (lobb_open.c)
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
-- What extension() hands an extension's build, once installed.
local kit

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
  if disabled_by_env() then classic("OBB_NO_FFI is set"); return end
  if not has_jit then classic("not LuaJIT"); return end
  if load_error then classic(load_error); return end
  local has_ffi, ffi = pcall(require, "ffi")
  if not has_ffi then classic("no ffi module"); return end
  if type(raw_getmetatable) ~= "function" then
    classic("no debug.getmetatable")
    return
  end
  if type(raw_getfenv) ~= "function" then
    classic("no debug.getfenv")
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
                               mt2, mt3, mtr, rawget(obb, "_response_names"))
    for k, f in pairs(F2) do T2[k] = f end
    for k, f in pairs(F3) do T3[k] = f end
    for k, f in pairs(FW) do WM[k] = f end
    M.classic[T2], M.classic[T3], M.classic[WM] = C2, C3, CW
    kit = { ffi, lib, world_items(mtw, raw_getmetatable, raw_getfenv) }
  end)
  if ok then
    M.status, M.reason = "ffi", nil
  else
    classic(tostring(err))
  end
end

-- An extension of the fast path for another of obb's Lua modules (obb.bump
-- calls extension("bump"): lua/obb/jit_bump.lua): obb.jit_<name>'s
-- build(ffi, lib, holder_of, id_of), given the FFI, the entry points and
-- the lookups of a world's item tables (jit_world.lua's world_items), run
-- once; its result, or nil and why (the fast path is off, or the file is
-- missing, raises or has no build). The file is required with the require
-- captured when this one loaded, and the entry points go to no function
-- but its build: a script gets no raw pointer from here.
local extensions = {}
function M.extension(name)
  if kit == nil then return nil, M.status end
  if type(name) ~= "string" or not name:find("^[%w_]+$") then return nil, "no such extension" end
  local ext = extensions[name]
  if ext == nil then
    local ok, mod = pcall(require, "obb.jit_" .. name)
    if not ok then unload("obb.jit_" .. name) end
    local make = ok and type(mod) == "table" and rawget(mod, "build")
    if type(make) ~= "function" then
      return nil, ok and ("module 'obb.jit_%s' has no function build"):format(name) or tostring(mod)
    end
    ext = make(unpack(kit))
    extensions[name] = ext
  end
  return ext
end

return M
