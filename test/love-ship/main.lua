-- test/love-ship/main.lua: a shipped game that loads obb the way
-- docs/love.md says, with obb.loader (make love-ship-test, test/love-ship.sh,
-- packs it as a .love and as a fused executable and runs it from another
-- folder). It prints whether a plain require found obb, where the loader
-- found it and which path obb runs on, moves a box into another for a few
-- frames, checks the world's answers, and quits with status 0; any error
-- or wrong answer quits with status 1 (not LÖVE's error screen). The path
-- must be the FFI one, unless OBB_NO_FFI is set or LOVE_SHIP_CLASSIC names
-- a text its reason must hold (a game packed without one of the fast
-- path's files: it must load obb all the same, and say why).
love.errorhandler = function(msg)
  io.stderr:write("love-ship: ", tostring(msg), "\n", debug.traceback(), "\n")
  io.stderr:flush()
  os.exit(1)
end

local function check(ok, what)
  if not ok then error("love-ship: wrong answer: " .. what, 2) end
end

local FRAMES = 10
local obb, world, a, b, c
local frame = 0

function love.load()
  -- what LÖVE's require alone does here (the case obb.loader is for)
  local plain = pcall(require, "obb")
  print("love-ship: plain require: " .. (plain and "found obb" or "not found"))
  package.loaded.obb = nil

  local where
  obb, where = require("obb.loader").load()
  -- the check docs/love.md tells a game to make: never raises
  local jit_mod = require("obb.jit")
  local status = jit_mod.status
  print("love-ship: obb loaded from: " .. where)
  print("love-ship: obb path: " .. status)
  print("love-ship: fused: " .. tostring(love.filesystem.isFused())
    .. ", current directory: " .. love.filesystem.getWorkingDirectory())
  check(require "obb" == obb and package.loaded.obb == obb, "require 'obb' gives the loaded module")
  check(obb.jit_status == status, "obb.jit_status is obb.jit.status")
  local no_ffi = os.getenv("OBB_NO_FFI")
  local classic_because = os.getenv("LOVE_SHIP_CLASSIC")
  if classic_because and classic_because ~= "" then
    check(status == "classic: " .. tostring(jit_mod.reason), "obb.jit.status is 'classic: ' and its reason")
    check(status:find(classic_because, 1, true) ~= nil,
          "obb.jit.status is " .. status .. ", without " .. classic_because)
    check(debug.getinfo(obb.obb2.intersects, "S").what == "C", "the classic binding runs")
  elseif no_ffi == nil or no_ffi == "" or no_ffi == "0" then
    check(status == "ffi", "obb.jit.status is " .. status .. ", not ffi")
    check(debug.getinfo(obb.obb2.intersects, "S").what == "Lua", "the FFI path runs")
  end

  world = obb.world2()
  a, b, c = {}, {}, {}
  world:add(a, 0, 0, 1, 1, 0)
  world:add(b, 5, 0, 1, 1, 0.3)
  world:add(c, 0, 50, 1, 1, 0)
end

function love.update()
  frame = frame + 1
  -- b comes 0.5 a frame towards a, turning
  world:update(b, 5 - 0.5 * frame, 0, 1, 1, 0.3 + 0.1 * frame)
  if frame == FRAMES then
    local out = {}
    local n = world:pairs(out)
    check(n == 1, "one pair, got " .. n)
    check((out[1] == a and out[2] == b) or (out[1] == b and out[2] == a), "the pair is a and b")
    local ba, bb = obb.new2(0, 0, 1, 1, 0), obb.new2(5 - 0.5 * FRAMES, 0, 1, 1, 0.3 + 0.1 * FRAMES)
    check(ba:intersects(bb) == true, "a meets b")
    check(ba:intersects(obb.new2(3, 0, 1, 1, 0)) == false, "a misses a box 3 away")
    print(("love-ship: ok after %d frames"):format(frame))
    love.event.quit(0)
  end
end

function love.draw()
  love.graphics.print("obb: frame " .. frame, 10, 10)
end
