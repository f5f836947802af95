-- spec/fake_love.lua: a fake `love` table for the obb.loader specs, over
-- real folders in a temporary directory, with what obb.loader uses of
-- LÖVE 11.4 and the same rules:
--
--   <root>/game/   the game's files (a folder here; in LÖVE often a .love,
--                  which is why getRealDirectory names `source`, a path
--                  that need not exist);
--   <root>/save/   the save directory, searched before the game (LÖVE's
--                  default, t.appendidentity = false); writes go there;
--   <root>/base/   the source base directory;
--   <root>/exe/    the executable's folder (`exe` names the file).
--
-- Options: os (love.system.getOS(), default "Linux"), fused, no_system
-- (love.system switched off), hash (love.data.hash's function; none: no
-- love.data), write_error (every write fails with it). f.writes counts the
-- writes, f.log lists each call as "name arg".
local M = {}

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local probe, err = f:read(0)
  if probe == nil and err then f:close(); return nil, "directory" end
  local data = f:read("*a")
  f:close()
  return data
end

function M.write_file(path, data)
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
end

function M.mkdir(path)
  assert(os.execute("mkdir -p " .. sh_quote(path)))
end

-- A new temporary folder with game/, save/, base/, exe/.
function M.root()
  local root = os.tmpname()
  os.remove(root)
  for _, d in ipairs({ "game", "save", "base", "exe" }) do M.mkdir(root .. "/" .. d) end
  return root
end

function M.cleanup(root)
  if root and root:match("^/tmp/") then os.execute("rm -rf " .. sh_quote(root)) end
end

-- The kind of what is at path ("file", "directory") and its contents.
local function stat(path)
  local data, why = read_file(path)
  if data then return "file", data end
  if why == "directory" then return "directory" end
  return nil
end

function M.new(root, o)
  o = o or {}
  local f = { root = root, writes = 0, log = {} }
  local game, save = root .. "/game", root .. "/save"
  local source = o.source or (root .. "/base/game.love")
  local function log(name, arg) f.log[#f.log + 1] = name .. " " .. tostring(arg) end

  -- the first of save/, game/ that has rel: its folder on disk, its kind
  local function find(rel)
    for _, place in ipairs({ { save, save }, { game, source } }) do
      local kind, data = stat(place[1] .. "/" .. rel)
      if kind then return place[2], kind, data end
    end
  end

  local fs = {}
  function fs.getSaveDirectory() return save end
  function fs.getSourceBaseDirectory() return root .. "/base" end
  function fs.isFused() return o.fused and true or false end
  function fs.getExecutablePath() return root .. "/exe/" .. (o.exe or "love") end
  function fs.getInfo(rel)
    log("getInfo", rel)
    local _, kind, data = find(rel)
    if not kind then return nil end
    return { type = kind, size = data and #data or 0 }
  end
  function fs.getRealDirectory(rel)
    return (find(rel))
  end
  function fs.read(rel)
    log("read", rel)
    local _, kind, data = find(rel)
    if kind ~= "file" then return nil, "Could not open file " .. rel .. ". Does not exist." end
    return data, #data
  end
  function fs.write(rel, data)
    log("write", rel)
    if o.write_error then return false, o.write_error end
    f.writes = f.writes + 1
    local h = io.open(save .. "/" .. rel, "wb")
    if not h then return false, "Could not open file " .. rel end
    h:write(data)
    h:close()
    return true
  end
  function fs.createDirectory(rel)
    log("createDirectory", rel)
    M.mkdir(save .. "/" .. rel)
    return true
  end
  function fs.remove(rel)
    log("remove", rel)
    return os.remove(save .. "/" .. rel) ~= nil
  end
  function fs.getDirectoryItems(rel)
    local items, seen = {}, {}
    for _, dir in ipairs({ save, game }) do
      local p = io.popen("ls -A " .. sh_quote(dir .. "/" .. rel) .. " 2>/dev/null")
      for name in p:lines() do
        if not seen[name] then seen[name] = true; items[#items + 1] = name end
      end
      p:close()
    end
    table.sort(items)
    return items
  end

  f.love = { filesystem = fs }
  if not o.no_system then
    f.love.system = { getOS = function() return o.os or "Linux" end }
  end
  if o.hash then f.love.data = { hash = o.hash } end
  return f
end

return M
