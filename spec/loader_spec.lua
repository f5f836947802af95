-- obb.loader (lua/obb/loader.lua): which places it tries, in which order,
-- what it copies and when, and what its error says. In this process the
-- real package.loadlib is replaced by one that opens "fake modules" (files
-- starting with FAKE) and records each path; in a child interpreter the
-- real obb.so of this build is loaded from a temporary game the way a
-- shipped game loads it, with the FFI fast path under LuaJIT. `love` is
-- spec/fake_love.lua over real folders in a temporary directory.
local H = require "spec.helpers"
local fake = require "spec.fake_love"
local loader = require "obb.loader"

local IS_JIT = rawget(_G, "jit") ~= nil
-- The folder a child finds by itself under LuaJIT (jit.arch); other Luas
-- name it in load's options.
local HERE = IS_JIT and loader.platform("Linux", rawget(_G, "jit").arch) or "linux-x86_64"

describe("obb.loader", function()
  local saved, root, calls

  -- This process as a LÖVE game: `love` is the fake, `require "obb"`
  -- finds nothing, package.loadlib is the recorder, jit says what `arch`
  -- says (nil: no jit table, as in a LÖVE built on plain Lua).
  local function enter(o, arch)
    o = o or {}
    fake.cleanup(root)
    root = fake.root()
    local f = fake.new(root, o)
    rawset(_G, "love", f.love)
    rawset(_G, "jit", arch and { arch = arch, os = "Linux" } or nil)
    package.loaded.obb = nil
    package.preload.obb = nil
    package.cpath = ""
    calls = {}
    rawset(package, "loadlib", function(path, sym)
      calls[#calls + 1] = path
      local data = path ~= "libobb.so" and io.open(path, "rb")
      local text = data and data:read("*a")
      if data then data:close() end
      if path == "libobb.so" and o.android_lib then text = "FAKE android" end
      if not text then return nil, path .. ": cannot open shared object file" end
      if text:sub(1, 4) ~= "FAKE" then return nil, path .. ": invalid ELF header" end
      if text:find("RAISE") then return function() error("luaopen_obb raised") end end
      return function(name) return { fake = text, name = name, sym = sym } end
    end)
    return f
  end

  before_each(function()
    saved = {
      love = rawget(_G, "love"), jit = rawget(_G, "jit"), obb = package.loaded.obb,
      preload = package.preload.obb, cpath = package.cpath, loadlib = package.loadlib,
    }
  end)

  after_each(function()
    rawset(_G, "love", saved.love)
    rawset(_G, "jit", saved.jit)
    package.loaded.obb = saved.obb
    package.preload.obb = saved.preload
    package.cpath = saved.cpath
    rawset(package, "loadlib", saved.loadlib)
    fake.cleanup(root)
    root = nil
  end)

  local function put(rel, data)
    local dir = (root .. "/" .. rel):match("^(.*)/[^/]*$")
    fake.mkdir(dir)
    fake.write_file(root .. "/" .. rel, data)
  end

  -- The error of load(opts), called from a Lua function of this file.
  local function err_of(opts)
    local ok, e = pcall(function()
      local obb = loader.load(opts)
      return obb
    end)
    assert.is_false(ok)
    return e
  end

  describe("platform", function()
    local cases = {
      { "Linux", "x64", "linux-x86_64", "obb.so" },
      { "Linux", "arm64", "linux-arm64", "obb.so" },
      { "Windows", "x64", "windows-x86_64", "obb.dll" },
      { "Windows", "x86", "windows-x86", "obb.dll" },
      { "OS X", "arm64", "macos", "obb.dylib obb.so" },
      { "OS X", "x64", "macos", "obb.dylib obb.so" },
      { "OS X", nil, "macos", "obb.dylib obb.so" },
      { "Linux", "ppc64", "linux-ppc64", "obb.so" },
    }
    for _, c in ipairs(cases) do
      it(("%s on %s is %s"):format(c[1], tostring(c[2]), c[3]), function()
        local p, files = loader.platform(c[1], c[2])
        assert.equal(c[3], p)
        assert.equal(c[4], table.concat(files, " "))
      end)
    end
    it("has none on Android, iOS, or without the CPU", function()
      for _, c in ipairs({ { "Android", "arm64" }, { "iOS", "arm64" }, { "Linux", nil }, { nil, "x64" } }) do
        local p, files, why = loader.platform(c[1], c[2])
        assert.is_nil(p)
        assert.equal("obb.so", files[1])
        assert.is_string(why)
      end
    end)
  end)

  describe("require first", function()
    it("returns what require gives, outside LÖVE too", function()
      local obb, where = loader.load()
      assert.equal(require "obb", obb)
      assert.equal("require", where)
      assert.equal(obb, package.loaded.obb)
    end)

    it("takes package.preload (a host that links obb in, iOS) before any file", function()
      local f = enter({ os = "iOS" }, "arm64")
      local mod = { preloaded = true }
      package.preload.obb = function() return mod end
      put("base/obb.so", "FAKE base")
      local obb, where = loader.load()
      assert.equal(mod, obb)
      assert.equal("require", where)
      assert.same({}, calls)
      assert.equal(0, f.writes)
    end)
  end)

  describe("beside the game", function()
    it("opens obb.so in the source base directory (a .love, or a fused game)", function()
      enter({}, "x64")
      put("base/obb.so", "FAKE base")
      put("game/lib/linux-x86_64/obb.so", "FAKE game")
      local obb, where = loader.load()
      assert.equal("FAKE base", obb.fake)
      assert.equal("obb", obb.name)
      assert.equal("luaopen_obb", obb.sym)
      assert.equal(root .. "/base/obb.so", where)
      assert.same({ root .. "/base/obb.so" }, calls)
      -- registered as require would: a later require gives the same table
      assert.equal(obb, package.loaded.obb)
      assert.equal(obb, require "obb")
    end)

    it("looks in the executable's folder only when fused", function()
      enter({ fused = false, exe = "mygame" }, "x64")
      put("exe/obb.so", "FAKE exe")
      local e = err_of()
      assert.is_nil(e:find(root .. "/exe/", 1, true))
      assert.same({}, calls)

      package.loaded.obb = nil
      enter({ fused = true, exe = "mygame" }, "x64")
      put("exe/obb.so", "FAKE exe")
      local obb, where = loader.load()
      assert.equal("FAKE exe", obb.fake)
      assert.equal(root .. "/exe/obb.so", where)
    end)

    it("tries obb.dylib, then obb.so on macOS", function()
      enter({ os = "OS X" }, "arm64")
      put("base/obb.so", "FAKE mac")
      local obb = loader.load()
      assert.equal("FAKE mac", obb.fake)
      assert.same({ root .. "/base/obb.so" }, calls)
    end)

    it("goes on to the next place when a file does not open, or its luaopen_obb raises", function()
      enter({}, "x64")
      put("base/obb.so", "ELF of another CPU")
      put("game/lib/linux-x86_64/obb.so", "FAKE RAISE")
      local e = err_of()
      assert.matches("invalid ELF header", e, 1, true)
      assert.matches("luaopen_obb failed: ", e, 1, true)
      assert.matches("luaopen_obb raised", e, 1, true)
      assert.is_nil(package.loaded.obb)
    end)
  end)

  describe("inside the game", function()
    local rel = "game/lib/linux-x86_64/obb.so"

    it("copies lib/<platform>/obb.so to the save directory once, and opens the copy", function()
      local f = enter({}, "x64")
      put(rel, "FAKE v1")
      local obb, where = loader.load()
      assert.equal("FAKE v1", obb.fake)
      assert.equal(1, f.writes)
      assert.equal(root .. "/save/obb-native/linux-x86_64-7/obb.so", where) -- 7 bytes, no love.data
      assert.same({ where }, calls)
      assert.equal(obb, package.loaded.obb)

      -- the next start finds the same bytes there and writes nothing
      package.loaded.obb = nil
      local again = loader.load()
      assert.equal("FAKE v1", again.fake)
      assert.equal(1, f.writes)
    end)

    it("names the copy's folder by love.data.hash, and removes other versions' copies", function()
      local f = enter({ hash = function(kind, s) return s:reverse() .. kind end }, "x64")
      put(rel, "FAKE v1")
      local _, where = loader.load()
      -- the digest's first 8 bytes, "1v EKAFs", in hex
      assert.equal(root .. "/save/obb-native/linux-x86_64-317620454b414673/obb.so", where)
      put("save/obb-native/linux-arm64-00/obb.so", "another platform's copy")
      put(rel, "FAKE v2 longer")
      package.loaded.obb = nil
      local obb, where2 = loader.load()
      assert.equal("FAKE v2 longer", obb.fake)
      assert.equal(2, f.writes)
      assert.not_equal(where, where2)
      assert.is_nil(io.open(where, "rb")) -- v1's copy is gone
      assert.is_not_nil(io.open(root .. "/save/obb-native/linux-arm64-00/obb.so", "rb"))
    end)

    it("writes again when the copy differs from the game's file", function()
      local f = enter({}, "x64")
      put(rel, "FAKE v1")
      local _, where = loader.load()
      fake.write_file(where, "FAKE v2") -- same size, other bytes
      package.loaded.obb = nil
      local obb = loader.load()
      assert.equal("FAKE v1", obb.fake)
      assert.equal(2, f.writes)
    end)

    it("does not use a file of the game's name that the save directory holds", function()
      local f = enter({}, "x64")
      put(rel, "FAKE game")
      put("save/lib/linux-x86_64/obb.so", "FAKE planted")
      local e = err_of()
      assert.matches("lib/linux-x86_64/obb.so in the game: hidden by a file of the same name in the save directory",
        e, 1, true)
      assert.same({}, calls)
      assert.equal(0, f.writes)
    end)

    it("says so when the copy cannot be written", function()
      enter({ write_error = "disk full" }, "x64")
      put(rel, "FAKE v1")
      local e = err_of()
      assert.matches("could not write it: disk full", e, 1, true)
      assert.same({}, calls)
    end)

    it("uses opts.lib and opts.platform", function()
      enter({}, nil)
      put("game/native/linux-riscv64/obb.so", "FAKE riscv")
      local obb = loader.load({ lib = "native", platform = "linux-riscv64" })
      assert.equal("FAKE riscv", obb.fake)
    end)

    it("takes the OS from jit.os when love.system is off", function()
      enter({ no_system = true, os = "Windows" }, "x64")
      put("game/lib/linux-x86_64/obb.so", "FAKE linux")
      assert.equal("FAKE linux", loader.load().fake)
    end)

    it("opens windows-x86_64/obb.dll by a path with backslashes", function()
      enter({ os = "Windows" }, "x64")
      local seen
      local real = package.loadlib
      rawset(package, "loadlib", function(path, sym)
        seen = path
        return real(path:gsub("\\", "/"), sym)
      end)
      put("game/lib/windows-x86_64/obb.dll", "FAKE win")
      local obb = loader.load()
      assert.equal("FAKE win", obb.fake)
      assert.is_nil(seen:find("/", 1, true))
      assert.matches("\\obb-native\\windows-x86_64-8\\obb.dll", seen, 1, true)
    end)
  end)

  describe("on Android and iOS", function()
    it("Android: libobb.so by name (the APK's lib/<abi>/), never a copy", function()
      local f = enter({ os = "Android", android_lib = true }, "arm64")
      put("game/lib/linux-arm64/obb.so", "FAKE game")
      local obb, where = loader.load()
      assert.equal("FAKE android", obb.fake)
      assert.equal("libobb.so", where)
      assert.same({ "libobb.so" }, calls)
      assert.equal(0, f.writes)
    end)

    it("Android without it: the error says why no copy", function()
      local f = enter({ os = "Android" }, "arm64")
      local e = err_of()
      assert.matches("libobb.so (the APK's lib/<abi>/): libobb.so: cannot open", e, 1, true)
      assert.matches("a copy in the save directory: not on Android", e, 1, true)
      assert.equal(0, f.writes)
    end)

    it("iOS: only require (package.preload)", function()
      enter({ os = "iOS" }, "arm64")
      local e = err_of()
      assert.matches("not on iOS", e, 1, true)
      assert.same({}, calls)
    end)
  end)

  describe("when nothing opens", function()
    it("lists every place tried, in order, and blames the caller", function()
      enter({ fused = true, exe = "mygame" }, "x64")
      local e = err_of()
      local want = {
        "obb.loader: could not load obb's C module (platform linux-x86_64); tried, in order:",
        '  1. require "obb": module \'obb\' not found:',
        "  2. " .. root .. "/base/obb.so (the source base directory): no file",
        "  3. " .. root .. "/exe/obb.so (the executable's folder): no file",
        "  4. lib/linux-x86_64/obb.so in the game: no file",
        'See docs/love.md, "Shipping a game with obb".',
      }
      local at = 1
      for _, line in ipairs(want) do
        local s, stop = e:find(line, at, true)
        assert(s, ("%q\nnot found after position %d of:\n%s"):format(line, at, e))
        at = stop + 1
      end
      -- the position is the caller's (error level 2)
      assert.matches("^[^\n]*loader_spec.lua:%d+: obb.loader:", e)
    end)

    it("names the CPU as unknown without jit.arch", function()
      enter({}, nil)
      assert.matches("lib/<platform>/ in the game: the CPU is unknown (no jit.arch)", err_of(), 1, true)
    end)

    it("outside LÖVE, says so", function()
      enter({}, "x64")
      rawset(_G, "love", nil)
      local e = err_of()
      assert.matches("LÖVE's folders: not in LÖVE (no love.filesystem)", e, 1, true)
      assert.matches("(platform linux-x86_64)", e, 1, true) -- jit.os
    end)

    it("leaves package.loaded.obb as it was when the module's open raised", function()
      enter({}, "x64")
      package.preload.obb = function() error("broken open") end
      local e = err_of()
      assert.matches("broken open", e, 1, true)
      assert.is_nil(package.loaded.obb)
      -- so a require once it is fixed runs the loader again
      package.preload.obb = function() return { fixed = true } end
      assert.is_true(require("obb").fixed)
    end)
  end)

  -- ---- the real module, in a fresh interpreter --------------------------

  -- The module this interpreter loads, or nil.
  local function module_file()
    local search = package.searchpath
    local path = search and search("obb", package.cpath)
    if not path then
      local f = io.open("build/" .. H.interpreter() .. "/obb.so", "rb")
      if f then f:close(); path = "build/" .. H.interpreter() .. "/obb.so" end
    end
    return path
  end

  -- A child's chunk: this game (fake love over dir, fused or not, `jit`
  -- as LuaJIT has it) loads obb with obb.loader and writes what it got.
  local function child_chunk(dir, o)
    return ([[
package.cpath = ""
local fake = require "spec.fake_love"
local f = fake.new(%q, { fused = %s })
love = f.love
local loader = require "obb.loader"
local obb, where = loader.load(%s)
local a, b = obb.new2(0, 0, 1, 1, 0), obb.new2(1.5, 0, 1, 1, 0.3)
local j = package.loaded["obb.jit"]
io.write("where=", where, "\n", "same=", tostring(require "obb" == obb and package.loaded.obb == obb), "\n",
  "hit=", tostring(a:intersects(b)), " ", tostring(a:intersects(obb.new2(5, 0, 1, 1, 0))), "\n",
  "writes=", f.writes, "\n", "jit=", j and j.status or "none", "\n",
  "path=", debug.getinfo(obb.obb2.intersects, "S").what, "\n")
]]):format(dir, tostring(o.fused), IS_JIT and "nil" or ("{ platform = %q }"):format(HERE))
  end

  local function field(out, name)
    return out:match(name .. "=([^\n]*)")
  end

  describe("with this build's obb.so, in a child interpreter", function()
    local so = module_file()
    local dir

    before_each(function()
      dir = fake.root()
    end)
    after_each(function()
      fake.cleanup(dir)
    end)

    local function copy_to(rel)
      local src = assert(io.open(so, "rb"))
      local data = src:read("*a")
      src:close()
      fake.mkdir((dir .. "/" .. rel):match("^(.*)/[^/]*$"))
      fake.write_file(dir .. "/" .. rel, data)
    end

    -- What a plain require gives: the same path (FFI or classic).
    local function plain_status()
      local out = H.run_child([[
local obb = require "obb"
local j = package.loaded["obb.jit"]
io.write("jit=", j and j.status or "none", "\npath=", debug.getinfo(obb.obb2.intersects, "S").what, "\n")]], 30)
      return field(out, "jit"), field(out, "path")
    end

    local test = so and it or pending

    test("loads lib/<platform>/obb.so of a .love through a save-directory copy, once", function()
      copy_to("game/lib/" .. HERE .. "/obb.so")
      local out, status = H.run_child(child_chunk(dir, {}), 30)
      assert.equal(0, status, out)
      local where = field(out, "where")
      local prefix = dir .. "/save/obb-native/" .. HERE .. "-"
      assert.equal(prefix, where:sub(1, #prefix))
      assert.matches("^%d+/obb%.so$", where:sub(#prefix + 1))
      assert.equal("true", field(out, "same"))
      assert.equal("true false", field(out, "hit"))
      assert.equal("1", field(out, "writes"))
      local jit_status, path = plain_status()
      assert.equal(jit_status, field(out, "jit"))
      assert.equal(path, field(out, "path"))
      local no_ffi = os.getenv("OBB_NO_FFI")
      if IS_JIT and (no_ffi == nil or no_ffi == "" or no_ffi == "0") then
        assert.equal("ffi", field(out, "jit"))
        assert.equal("Lua", field(out, "path")) -- the FFI fast path's function
      end

      -- the next start: the copy is there, nothing is written
      out, status = H.run_child(child_chunk(dir, {}), 30)
      assert.equal(0, status, out)
      assert.equal(where, field(out, "where"))
      assert.equal("0", field(out, "writes"))
    end)

    test("loads obb.so beside a fused game", function()
      copy_to("exe/obb.so")
      local out, status = H.run_child(child_chunk(dir, { fused = true }), 30)
      assert.equal(0, status, out)
      assert.equal(dir .. "/exe/obb.so", field(out, "where"))
      assert.equal("true", field(out, "same"))
      assert.equal("true false", field(out, "hit"))
      assert.equal("0", field(out, "writes"))
      assert.equal((plain_status()), field(out, "jit"))
    end)
  end)
end)
