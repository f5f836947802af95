-- Shipping obb's Lua files (docs/love.md, "The files a game ships"):
--   - the documented list of files is the folder lua/obb/, which is what
--     each rockspec installs and what docs/reference.md's LuaRocks section
--     names, and no file of the folder needs a module outside it (but the
--     C module, ffi, and LÖVE's love);
--   - a game that lacks any one file of lua/obb/ (or holds one of the fast
--     path's files that raises) still loads obb, on the classic binding
--     where the fast path cannot come up, and obb.jit.status, obb.jit.reason
--     and obb.jit_status say why; nothing is left in package.loaded that
--     would make a later require raise "loop or previous error" (each run
--     in a child interpreter whose package.path holds only a copy of the
--     folder without that file);
--   - docs/love.md's list of the methods the fast path replaces is the
--     methods it replaces (on LuaJIT's FFI path).
local H = require "spec.helpers"
local obb = require "obb"

local IS_JIT = rawget(_G, "jit") ~= nil
-- The files the fast path needs: jit.lua and the two it requires. (obb.bump
-- asks obb.jit for jit_bump.lua when it loads, and without it takes the
-- classic calls: the fast path stays on.)
local FAST = { jit = true, jit_sigs = true, jit_world = true }

local read = H.read

-- (Commands run without the sanitizer's runtime, which `make sanitize`
-- preloads into the suite: it aborts tools such as cp at exit; the child
-- interpreter below gets it back.)
local function sh(cmd)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  return out
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- The files of lua/obb/, without their folder and ".lua".
local FOLDER = {}
for name in sh("ls lua/obb/*.lua"):gmatch("lua/obb/([%w_]+)%.lua") do FOLDER[name] = true end

-- A rockspec, run as the data it is.
local function rockspec(path)
  local env = {}
  local chunk
  if rawget(_G, "setfenv") then
    chunk = assert(loadstring(read(path), path))
    setfenv(chunk, env)
  else
    chunk = assert(load(read(path), path, "t", env))
  end
  chunk()
  return env
end

-- Every module name -> file of lua/obb/ anywhere in a table (a rockspec's
-- build.modules, build.install.lua, their platform overrides).
local function lua_modules(t, into, seen)
  into, seen = into or {}, seen or {}
  if seen[t] then return into end
  seen[t] = true
  for k, v in pairs(t) do
    if type(v) == "string" and v:match("^lua/obb/[%w_]+%.lua$") then
      into[k] = v
    elseif type(v) == "table" then
      lua_modules(v, into, seen)
    end
  end
  return into
end

describe("the Lua files a game ships", function()
  it("are docs/love.md's list, every file of lua/obb/ and nothing else", function()
    local listed = {}
    for line in read("docs/love.md"):gmatch("[^\n]+") do
      local name = line:match("^| `obb/([%w_]+)%.lua` |")
      if name then
        assert.is_nil(listed[name], "listed twice: " .. name)
        listed[name] = true
      end
    end
    assert.are.same(sorted(FOLDER), sorted(listed))
    assert.is_true(#sorted(listed) >= 10)
    -- the command the list comes with copies the whole folder
    assert.truthy(read("docs/love.md"):find("cp lua/obb/*.lua mygame/obb/", 1, true))
  end)

  it("are what each rockspec installs, under their module names", function()
    for _, path in ipairs({ "obb-scm-1.rockspec", (sh("ls obb-[0-9]*.rockspec"):match("%S+")) }) do
      local mods = lua_modules(rockspec(path))
      local names = {}
      for mod, file in pairs(mods) do
        local base = file:match("^lua/obb/([%w_]+)%.lua$")
        assert.equal("obb." .. base, mod, path)
        names[base] = true
      end
      assert.are.same(sorted(FOLDER), sorted(names), path)
    end
  end)

  it("are the modules docs/reference.md says LuaRocks installs", function()
    local list = read("docs/reference.md"):match("every module of `lua/obb/` (%b())")
    assert.truthy(list, "docs/reference.md's LuaRocks section lists the modules")
    local names = {}
    for name in list:gmatch("`obb%.([%w_]+)`") do names[name] = true end
    assert.are.same(sorted(FOLDER), sorted(names))
  end)

  it("need nothing outside the folder but the C module, ffi and LÖVE", function()
    for name in pairs(FOLDER) do
      local text = read("lua/obb/" .. name .. ".lua")
      for mod in text:gmatch("require%s*%(?%s*[\"']([%w_.]+)[\"']") do
        local inner = mod:match("^obb%.([%w_]+)$")
        assert(mod == "obb" or mod == "ffi" or mod == "love" or (inner and FOLDER[inner]),
               name .. ".lua requires " .. mod)
      end
      for mod in text:gmatch("package%.loaded%[\"([%w_.]+)\"%]") do
        local inner = mod:match("^obb%.([%w_]+)$")
        assert(mod == "obb" or (inner and FOLDER[inner]), name .. ".lua reads package.loaded of " .. mod)
      end
    end
  end)
end)

-- What a game whose obb/ folder is `dir` sees: the child loads obb from
-- this build with package.path holding only dir, and without OBB_NO_FFI
-- (the game's, not the suite's, environment). Returns its fields.
local CHILD = [==[
local function put(k, v) io.write(k, "=", (tostring(v):gsub("\n", "\\n")), "\n") end
local obb = require "obb"
put("works", obb.new2(0, 0, 1, 1):intersects(obb.new2(2, 0, 1, 1)))
put("c_status", obb.jit_status)
put("path", debug.getinfo(obb.obb2.intersects, "S").what)
local ok, J = pcall(require, "obb.jit")
put("require_ok", ok)
if ok then
  put("status", J.status)
  put("reason", J.reason)
  put("same", rawequal(J, package.loaded["obb.jit"]))
else
  put("error", J)
end
for k, v in pairs(package.loaded) do
  if type(k) == "string" and k:find("^obb") and type(v) ~= "table" then put("poisoned", k) end
end
for name in ([[NAMES]]):gmatch("%S+") do
  local ok2, err = pcall(require, "obb." .. name)
  if not ok2 and tostring(err):find("loop or previous error", 1, true) then put("loop", name) end
end
local has_bump, bump = pcall(require, "obb.bump")
if has_bump then
  local w = bump.newWorld()
  w:add("wall", 10, 0, 10, 10)
  w:add("p", 0, 0, 5, 5)
  put("bump", w:move("p", 20, 0))
end
]==]

local function game(dir)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  local names = table.concat(sorted(FOLDER), " ")
  f:write((CHILD:gsub("NAMES", function() return names end)))
  f:close()
  local out = sh(("LD_PRELOAD= timeout 60 env -u OBB_NO_FFI LD_PRELOAD=%q LUA_PATH=%q LUA_CPATH=%q %s %s 2>&1;"
    .. " echo \"exit:$?\""):format(os.getenv("LD_PRELOAD") or "", dir .. "/?.lua", package.cpath,
    H.interpreter(), file))
  os.remove(file)
  local fields = { raw = out }
  for k, v in out:gmatch("([%w_]+)=([^\n]*)") do
    if fields[k] == nil then fields[k] = v end
  end
  fields.exit = tonumber(out:match("exit:(%d+)%s*$"))
  return fields
end

-- A copy of lua/obb/ in a temporary folder, as dir/obb/; returns dir.
local function copy_folder()
  local dir = sh("LD_PRELOAD= mktemp -d"):match("%S+")
  assert(os.execute(("LD_PRELOAD= mkdir -p %q && LD_PRELOAD= cp lua/obb/*.lua %q")
    :format(dir .. "/obb", dir .. "/obb/")))
  return dir
end

-- What every game must see, whatever it lacks: obb loads and works, and
-- nothing in package.loaded makes a later require say "loop or previous
-- error".
local function assert_loads(g, what)
  assert.equal(0, g.exit, what .. ":\n" .. g.raw)
  assert.equal("true", g.works, what)
  assert.is_nil(g.poisoned, what .. ": package.loaded['" .. tostring(g.poisoned) .. "'] is no module")
  assert.is_nil(g.loop, what .. ": require of obb." .. tostring(g.loop) .. " says loop or previous error")
end

-- The fast path did not come up and says why: `why` (a plain text) is in
-- the reason.
local function assert_classic_because(g, why, what)
  if IS_JIT then
    assert.equal("true", g.require_ok, what .. ": " .. tostring(g.error))
    assert.equal("true", g.same, what)
    assert.equal("classic: " .. g.reason, g.status, what)
    assert.equal(g.status, g.c_status, what)
    assert.truthy(g.reason:find(why, 1, true), what .. ": " .. g.reason)
  else
    assert.equal("classic: not LuaJIT", g.c_status, what)
    if g.require_ok == "true" then
      assert.equal("classic: not LuaJIT", g.status, what)
      assert.equal("not LuaJIT", g.reason, what)
    else
      -- no obb.jit to require: an error that says so
      assert.truthy(g.error:find("module 'obb.jit' not found", 1, true), what .. ": " .. g.error)
    end
  end
  assert.equal("C", g.path, what)
end

describe("a game without one of obb's Lua files", function()
  for name in pairs(FOLDER) do
    it("still loads obb, and says why the fast path is off, without obb/" .. name .. ".lua", function()
      local dir = copy_folder()
      os.remove(dir .. "/obb/" .. name .. ".lua")
      local g = game(dir)
      os.execute(("LD_PRELOAD= rm -rf %q"):format(dir))
      local what = "without obb/" .. name .. ".lua"
      assert_loads(g, what)
      if name ~= "bump" then assert.equal(5, tonumber(g.bump), what) end
      if FAST[name] then
        assert_classic_because(g, "module 'obb." .. name .. "' not found", what)
      elseif IS_JIT then
        assert.equal("ffi", g.status, what)
        assert.equal("ffi", g.c_status, what)
        assert.equal("nil", g.reason, what)
        assert.equal("Lua", g.path, what)
      else
        assert_classic_because(g, "not LuaJIT", what)
      end
    end)
  end

  for name in pairs(FAST) do
    it("still loads obb when obb/" .. name .. ".lua raises, or is of another version", function()
      local dir = copy_folder()
      local f = assert(io.open(dir .. "/obb/" .. name .. ".lua", "w"))
      f:write("error('this " .. name .. ".lua is broken')\n")
      f:close()
      local g = game(dir)
      if name == "jit" and not IS_JIT then
        -- obb never loads obb.jit there: only the game's own require
        -- meets the file, and raises its error
        assert.equal(0, g.exit, g.raw)
        assert.equal("true", g.works)
        assert.equal("classic: not LuaJIT", g.c_status)
        assert.truthy(g.error:find("this jit.lua is broken", 1, true), g.error)
        os.execute(("LD_PRELOAD= rm -rf %q"):format(dir))
        return
      end
      assert_loads(g, name .. ".lua raising")
      assert_classic_because(g, "this " .. name .. ".lua is broken", name .. ".lua raising")
      if name ~= "jit" then
        -- an error without a position: the reason names the module
        f = assert(io.open(dir .. "/obb/" .. name .. ".lua", "w"))
        f:write("error('broken', 0)\n")
        f:close()
        g = game(dir)
        assert_loads(g, name .. ".lua raising at level 0")
        assert_classic_because(g, "error loading module 'obb." .. name .. "': broken", name .. ".lua at level 0")
        -- a table without what obb.jit needs of it
        f = assert(io.open(dir .. "/obb/" .. name .. ".lua", "w"))
        f:write("return {}\n")
        f:close()
        g = game(dir)
        assert_loads(g, name .. ".lua of another version")
        assert_classic_because(g, "module 'obb." .. name .. "' has no", name .. ".lua of another version")
      end
      os.execute(("LD_PRELOAD= rm -rf %q"):format(dir))
    end)
  end

  it("with the whole folder, is on the fast path under LuaJIT", function()
    local g = game("lua")
    assert_loads(g, "the whole folder")
    if IS_JIT then
      assert.equal("ffi", g.status)
      assert.equal("ffi", g.c_status)
      assert.equal("Lua", g.path)
    else
      assert_classic_because(g, "not LuaJIT", "the whole folder")
    end
  end)
end)

describe("obb.jit_status", function()
  it("is obb.jit.status", function()
    assert.equal(require("obb.jit").status, obb.jit_status)
    if not IS_JIT then assert.equal("classic: not LuaJIT", obb.jit_status) end
  end)

  if IS_JIT then
    it("says so when package.loaded['obb.jit'] = false kept the classic binding", function()
      local out = H.run_child([[
package.loaded["obb.jit"] = false
local obb = require "obb"
io.write(obb.jit_status, " ", tostring(package.loaded["obb.jit"]))]], 30)
      assert.equal('classic: package.loaded["obb.jit"] is false false', out)
    end)
  end
end)

describe("docs/love.md's list of the methods the fast path replaces", function()
  if not H.filters_in_lua() then return end -- only on LuaJIT's FFI path
  it("is the methods it replaces", function()
    local text = read("docs/love.md")
    local para = text:match("They are:(.-)Everything else is the classic")
    assert.truthy(para, "docs/love.md, 'The FFI fast path (`obb.jit`)'")
    local listed = {}
    for word in para:gmatch("`([%a_]+)`") do listed[word] = true end
    local replaced = {}
    local WM = debug.getmetatable(obb.world2()).__index
    for _, t in ipairs({ obb.obb2, obb.obb3, WM }) do
      for k, f in pairs(t) do
        if type(f) == "function" and debug.getinfo(f, "S").what == "Lua" then replaced[k] = true end
      end
    end
    assert.are.same(sorted(replaced), sorted(listed))
  end)
end)
