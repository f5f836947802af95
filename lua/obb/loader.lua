-- obb.loader: loads obb's C module in a shipped LÖVE game, wherever the
-- game runs from (docs/love.md, "Shipping a game with obb").
--
--   local obb = require("obb.loader").load()   -- once, at the top of main.lua
--
-- LÖVE's own `require` finds a C module only in a game folder or on
-- package.cpath, whose "./?.so" is the current directory: beside a fused
-- executable or a `.love`, it finds obb only when the game was started
-- from that folder, and never inside a `.love` (the system cannot map a
-- library out of a zip). load() tries, in order, and stops at the first
-- that opens:
--
--   1. require "obb": package.preload (a host that links obb in), LÖVE's
--      loaders (the game folder, the save directory's top), package.cpath;
--   2. in LÖVE, obb.so (obb.dll, obb.dylib) in the source base directory
--      (the folder of the `.love`, or of a fused executable) and, fused, in
--      the executable's folder (on macOS the .app's Contents/MacOS);
--   3. on Android, libobb.so by its name (an APK's lib/<abi>/, where the
--      system linker looks for the app's own libraries);
--   4. in LÖVE on Linux, Windows and macOS, the module shipped inside the
--      game as lib/<platform>/obb.so (lib/windows-x86_64/obb.dll,
--      lib/macos/obb.dylib ...): read with love.filesystem.read, written to
--      the save directory under obb-native/ when no identical copy is there
--      yet, and opened from that copy. <platform> is the folder name of
--      obb's release archives: linux-x86_64, linux-arm64, windows-x86_64,
--      macos (one universal file), from love.system.getOS() and jit.arch.
--
-- A module is opened with package.loadlib(path, "luaopen_obb") and then
-- registered as require would: package.loaded.obb is the module, so every
-- later require "obb" gives the same table, and under LuaJIT the FFI fast
-- path comes up as with a plain require (luaopen_obb hands obb.jit the
-- addresses it calls; nothing is looked up by file). Nothing else is run:
-- no Lua file of the game or the save directory, only the C module's own
-- luaopen_obb. A copy in the save directory is opened only when its bytes
-- are the game's own (read and compared each start), never because a file
-- of that name is there.
--
-- When nothing opens, load raises an error that lists every place tried
-- and why each failed. load(opts): opts.lib (default "lib") is the folder
-- inside the game; opts.platform replaces the detected platform folder
-- (a LÖVE built on plain Lua has no jit.arch). Returns the module and
-- where it came from ("require", or the path of the file opened).
local M = {}

local function fail_text(msg)
  return (tostring(msg):gsub("\n", "\n     "))
end

-- OS name as love.system.getOS() gives it ("Linux", "Windows", "OS X",
-- "Android", "iOS"); jit.os when love.system is switched off.
local function os_name(love)
  local sys = type(love) == "table" and love.system
  if type(sys) == "table" and type(sys.getOS) == "function" then
    return sys.getOS()
  end
  local jit = rawget(_G, "jit")
  if type(jit) == "table" then
    return ({ OSX = "OS X" })[jit.os] or jit.os
  end
  return nil
end

-- jit.arch (ffi.arch is the same string) as the archives name it.
local ARCH = { x64 = "x86_64", x86 = "x86", arm64 = "arm64", arm = "arm" }

-- The platform folder (or nil and why not) and the module's file names,
-- for the system named os (love.system.getOS()'s names).
function M.platform(os, arch)
  local files = { "obb.so" }
  if os == "Windows" then files = { "obb.dll" }
  elseif os == "OS X" then files = { "obb.dylib", "obb.so" } -- LÖVE's order
  end
  if os == "OS X" then return "macos", files end
  if os ~= "Linux" and os ~= "Windows" then
    return nil, files, "no shipped module on " .. tostring(os)
  end
  if not arch then return nil, files, "the CPU is unknown (no jit.arch)" end
  return os:lower() .. "-" .. (ARCH[arch] or arch), files
end

local function join(dir, name)
  if dir:sub(-1) == "/" or dir:sub(-1) == "\\" then return dir .. name end
  return dir .. "/" .. name
end

local function trim_slash(dir)
  return (tostring(dir):gsub("[/\\]+$", ""))
end

local function exists(path)
  local f = io.open(path, "rb")
  if not f then return false end
  f:close()
  return true
end

-- Hex of the first bytes of a digest of data (love.data.hash, LÖVE 11),
-- or its size: the copy's folder name, so that a game updated while an
-- older copy is open (another instance still running) writes beside it.
local function tag_of(love, data)
  local d = type(love.data) == "table" and love.data.hash
  if type(d) == "function" then
    local ok, h = pcall(d, "sha256", data)
    if ok and type(h) == "string" then
      return (h:sub(1, 8):gsub(".", function(c) return ("%02x"):format(c:byte()) end))
    end
  end
  return tostring(#data)
end

-- Removes the copies of other versions (other folders of obb-native/ for
-- this platform), best effort: a copy another running instance has open
-- stays where the system refuses (Windows).
local function remove_old(fs, platform, keep, files)
  local ok, items = pcall(fs.getDirectoryItems, "obb-native")
  if not ok or type(items) ~= "table" then return end
  for _, item in ipairs(items) do
    local dir = "obb-native/" .. item
    if dir ~= keep and item:sub(1, #platform + 1) == platform .. "-" then
      for _, name in ipairs(files) do pcall(fs.remove, dir .. "/" .. name) end
      pcall(fs.remove, dir)
    end
  end
end

function M.load(opts)
  opts = opts or {}
  local loaded = package.loaded
  local tried = {}
  local function note(where, why) tried[#tried + 1] = where .. ": " .. why end

  local love = rawget(_G, "love")
  local fs = type(love) == "table" and love.filesystem
  if type(fs) ~= "table" then fs = nil end
  local sys = os_name(love)
  local jit = rawget(_G, "jit")
  local platform, files, why = M.platform(sys, type(jit) == "table" and jit.arch or nil)
  if opts.platform then platform, why = opts.platform, nil end
  local lib = opts.lib or "lib"

  -- Opens the library at path and registers it as require would.
  local function open(path, where)
    if sys == "Windows" then path = path:gsub("/", "\\") end
    local f, err = package.loadlib(path, "luaopen_obb")
    if not f then
      note(where, fail_text(err))
      return nil
    end
    local ok, mod = pcall(f, "obb")
    if not ok or type(mod) ~= "table" then
      note(where, "luaopen_obb failed: " .. fail_text(mod))
      return nil
    end
    loaded.obb = mod
    return mod
  end

  -- 1. a plain require
  local before = loaded.obb
  local ok, mod = pcall(require, "obb")
  if ok then return mod, "require" end
  note('require "obb"', fail_text(mod))
  -- LuaJIT's require leaves a mark in package.loaded when the module's
  -- open raised; without it, a later require tries again
  if loaded.obb ~= before then loaded.obb = before end

  -- 2. beside the game
  if fs then
    local dirs, seen = {}, {}
    local function add(dir, what)
      if type(dir) == "string" and dir ~= "" and not seen[trim_slash(dir)] then
        seen[trim_slash(dir)] = true
        dirs[#dirs + 1] = { dir = dir, what = what }
      end
    end
    add(fs.getSourceBaseDirectory(), "the source base directory")
    if fs.isFused() then
      add(fs.getExecutablePath():match("^(.*)[/\\][^/\\]*$"), "the executable's folder")
    end
    for _, d in ipairs(dirs) do
      for _, name in ipairs(files) do
        local path = join(d.dir, name)
        local where = path .. " (" .. d.what .. ")"
        if not exists(path) then
          note(where, "no file")
        else
          mod = open(path, where)
          if mod then return mod, path end
        end
      end
    end
  end

  -- 3. Android: the APK's own libraries, by name
  if sys == "Android" then
    mod = open("libobb.so", "libobb.so (the APK's lib/<abi>/)")
    if mod then return mod, "libobb.so" end
  end

  -- 4. inside the game, through a copy in the save directory
  if not fs then
    note("LÖVE's folders", "not in LÖVE (no love.filesystem)")
  elseif sys == "Android" or sys == "iOS" then
    note("a copy in the save directory", "not on " .. sys
      .. " (an app may not run code it wrote; docs/love.md)")
  elseif not platform then
    note(lib .. "/<platform>/ in the game", why)
  else
    local save = trim_slash(fs.getSaveDirectory())
    for _, name in ipairs(files) do
      local rel = lib .. "/" .. platform .. "/" .. name
      local where = rel .. " in the game"
      local info = fs.getInfo(rel)
      local real = info and fs.getRealDirectory(rel)
      if not info then
        note(where, "no file")
      elseif info.type ~= "file" then
        note(where, "not a file")
      elseif not real then
        note(where, "love.filesystem.getRealDirectory does not know it")
      elseif trim_slash(real) == save then
        -- a file of that name in the save directory hides the game's
        note(where, "hidden by a file of the same name in the save directory, " .. save)
      else
        local data, err = fs.read(rel)
        if type(data) ~= "string" then
          note(where, "unreadable: " .. fail_text(err))
        else
          local dir = "obb-native/" .. platform .. "-" .. tag_of(love, data)
          local copy = dir .. "/" .. name
          local path = join(save, copy)
          local copy_where = path .. " (a copy of " .. rel .. ")"
          local have = fs.getInfo(copy) and fs.getRealDirectory(copy)
          local same = have and trim_slash(have) == save and fs.read(copy) == data
          if not same then
            fs.createDirectory(dir)
            local wrote, werr = fs.write(copy, data)
            if not wrote then
              note(copy_where, "could not write it: " .. fail_text(werr))
            elseif fs.read(copy) ~= data then
              note(copy_where, "what was written reads back different")
            else
              same = true
            end
          end
          if same then
            mod = open(path, copy_where)
            if mod then
              remove_old(fs, platform, dir, files)
              return mod, path
            end
          end
        end
      end
    end
  end

  local lines = {}
  for i, t in ipairs(tried) do lines[i] = ("  %d. %s"):format(i, t) end
  error(("obb.loader: could not load obb's C module (%s); tried, in order:\n%s\n"
    .. "See docs/love.md, \"Shipping a game with obb\".")
    :format(platform and ("platform " .. platform) or tostring(sys), table.concat(lines, "\n")), 2)
end

return M
