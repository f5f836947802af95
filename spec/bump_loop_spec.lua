-- obb.bump's move under bump's rules follows the built-in responses in
-- its own loop (bumpCheck) and hands anything else to bump's: a custom
-- response, a project the game put on the world. These are the paths
-- around that loop, and the state it reuses between moves (the visited
-- set, the scratch tables), checked to answer as bump.lua's loop does.
local bump = require "obb.bump"

-- a floor of three tiles and a wall, the mover above the floor
local function scene()
  local w = bump.newWorld(64)
  w:add("a", 0, 100, 32, 32)
  w:add("b", 32, 100, 32, 32)
  w:add("c", 64, 100, 32, 32)
  w:add("wall", 96, 0, 32, 132)
  w:add("m", 10, 80, 10, 10)
  return w
end

local function others(cols, len)
  local t = {}
  for i = 1, len do t[i] = cols[i].other .. ":" .. cols[i].type end
  return t
end

-- The answers are bump.lua 3.1's, read from it on the same scenes.
describe("obb.bump's loop", function()
  it("slides into the wall, then along the floor, as bump.lua does", function()
    local w = scene()
    local ax, ay, cols, len = w:move("m", 150, 95)
    assert.same({ 86, 90 }, { ax, ay })
    assert.same({ "wall:slide", "c:slide" }, others(cols, len))
    assert.same({ 86, 95 }, { cols[1].slide.x, cols[1].slide.y })
  end)

  it("bounces as bump.lua does", function()
    local w = scene()
    local ax, ay, cols, len = w:check("m", 150, 95, function() return "bounce" end)
    assert.same({ 22, 85 }, { ax, ay })
    assert.same({ "wall:bounce", "c:bounce" }, others(cols, len))
    assert.same({ 22, 95 }, { cols[1].bounce.x, cols[1].bounce.y })
  end)

  it("stops at a touch", function()
    local w = scene()
    local ax, ay, cols, len = w:check("m", 150, 95, function(_, o) return o == "wall" and "touch" or "cross" end)
    assert.same({ 86, 88.142857142857139 }, { ax, ay })
    assert.same({ "wall:touch" }, others(cols, len))
  end)

  it("gives a custom response a filter that still knows this move's others after it", function()
    local w, kept = scene(), nil
    w:addResponse("keep", function(world, col, x, y, ww, hh, gx, gy, filter)
      kept = filter
      return bump.responses.slide(world, col, x, y, ww, hh, gx, gy, filter)
    end)
    local ax, ay, cols, len = w:move("m", 150, 95, function(_, o)
      return o == "wall" and "keep" or "slide"
    end)
    assert.same({ 86, 90 }, { ax, ay })
    assert.same({ "wall:keep", "c:slide" }, others(cols, len))
    -- another move does not change the set the kept filter asks
    w:move("m", 10, 80)
    assert.same({ false, "slide", false, "slide", false },
      { kept("m", "m"), kept("m", "a"), kept("m", "wall"), kept("m", "b"), kept("m", "c") })
  end)

  it("calls the world's project when the game replaced it", function()
    local w, calls = scene(), 0
    local own = w.project
    w.project = function(self, item, x, y, ww, hh, gx, gy, filter)
      calls = calls + 1
      return own(self, item, x, y, ww, hh, gx, gy, filter)
    end
    local ax, ay, cols, len = w:move("m", 150, 95)
    assert.same({ 86, 90 }, { ax, ay })
    assert.same({ "wall:slide", "c:slide" }, others(cols, len))
    assert.equal(3, calls)
  end)

  it("a move from inside a filter has its own visited set; later moves see every other again", function()
    local w = scene()
    w:add("n", 40, 80, 10, 10)
    local inner
    local ax, ay, cols, len = w:move("m", 150, 95, function(_, o)
      if o == "wall" and not inner then
        local _, _, c, l = w:check("n", 40, 95)
        inner = others(c, l)
      end
      return "slide"
    end)
    assert.same({ "b:slide" }, inner)
    assert.same({ 30, 90 }, { ax, ay })
    assert.same({ "n:slide", "b:slide" }, others(cols, len))
    for _ = 1, 3 do
      w:update("m", 10, 80)
      ax, ay, cols, len = w:move("m", 150, 95)
      assert.same({ 30, 90 }, { ax, ay })
      assert.same({ "n:slide", "b:slide" }, others(cols, len))
    end
  end)
end)
