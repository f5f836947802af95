-- The LÖVE racing game's logic (examples/love-racing/game.lua) on plain
-- Lua: the same autopilot race, for the same frames, with the same checks
-- as `make love-test` runs in LÖVE (docs/love.md, "The racing game"); and
-- that those checks catch what they are for. (Loaded by its path: the
-- platformer's game.lua is also a module named "game".)
local obb = require "obb"
local game = dofile("examples/love-racing/game.lua")

describe("the LÖVE racing game on world:move's turning form", function()
  it("races CI_FRAMES with the checks: every car laps, none inside a barrier or across one", function()
    local ok, why, g = game.play(game.CI_FRAMES)
    assert(ok, why)
    assert.equal(4, #g.cars)
    for _, car in ipairs(g.cars) do
      assert.is_true(car.laps >= 1)
      assert.is_true(car.lap_frame < game.CI_FRAMES)
      assert.is_true(car.passed >= car.need)
    end
    assert.is_true(g.stats.wall_hits > 0 and g.stats.car_hits > 0)
    -- far inside the tolerance: the cars end within the touching band
    assert.is_true(g.stats.worst_depth < 1e-11)
  end)

  it("the same race every time (fixed step, no randomness)", function()
    local _, _, a = game.play(game.CI_FRAMES)
    local _, _, b = game.play(game.CI_FRAMES)
    for i = 1, #a.cars do
      assert.same({ a.cars[i].x, a.cars[i].y, a.cars[i].a, a.cars[i].lap_frame },
                  { b.cars[i].x, b.cars[i].y, b.cars[i].a, b.cars[i].lap_frame })
    end
  end)

  it("the track: closed, its checkpoints across it, every car starts on it and apart", function()
    local g = game.new()
    assert.equal(2 * #g.line, #g.barriers)
    assert.equal(4, #g.checkpoints)
    for _, cp in ipairs(g.checkpoints) do assert.is_true(g.world:sensor(cp)) end -- by their class
    for _, car in ipairs(g.cars) do
      assert.is_true(game.inside(g.left, car.x, car.y) ~= game.inside(g.right, car.x, car.y))
      for _, b in ipairs(g.barriers) do assert.is_false(car.box:intersects(b.box)) end
      for _, other in ipairs(g.cars) do
        if other ~= car then assert.is_false(car.box:intersects(other.box)) end
      end
    end
    -- every center-line point lies between the barriers, HALF_W from each
    for _, v in ipairs(g.line) do
      assert.is_true(game.inside(g.left, v[1], v[2]) ~= game.inside(g.right, v[1], v[2]))
    end
    -- a checkpoint spans the track without touching its barriers
    for _, cp in ipairs(g.checkpoints) do
      for _, b in ipairs(g.barriers) do assert.is_false(cp.box:intersects(b.box)) end
    end
  end)

  it("the checks catch a car inside a barrier, across a barrier's line, off the track", function()
    local g = game.new()
    g:step()
    local car, b = g.cars[1], g.barriers[5]
    -- inside: the car's pose on the barrier (the world is not asked)
    local bx, by = b.box:center()
    car.x, car.y = bx, by
    assert.matches("car 1 ends inside the " .. b.side .. " barrier %d+ by", g:check_car(car))
    -- across: a path from one side of the barrier to the other, ending on
    -- the track where the car really is
    local cx, cy = g.world:get(car)
    car.x, car.y = cx, cy
    local nx, ny = b.box:axes() -- along the barrier; across is (-ny, nx)
    nx, ny = -ny, nx
    g.path[1], g.path[2], g.path[3], g.path[4] = bx - nx, by - ny, bx + nx, by + ny
    g.path[5], g.path[6], g.path_n = cx, cy, 6
    assert.matches("car 1's center crossed the " .. b.side .. " barrier 5", g:check_car(car))
    -- off the track: on the grass in the middle, the path along nothing
    car.x, car.y = 60, 30
    g.path[1], g.path[2], g.path[3], g.path[4], g.path_n = 60, 30, 60, 30, 4
    car.box = obb.new2(60, 30, game.CAR_HX, game.CAR_HY)
    assert.matches("car 1 is off the track", g:check_car(car))
  end)

  it("the checks catch two cars overlapping, and a race without a lap", function()
    local g = game.new()
    g:step()
    local a, b = g.cars[1], g.cars[2]
    b.x, b.y, b.a = a.x + 1, a.y, a.a
    assert.matches("cars 1 and 2 overlap", g:check_step())
    local g2 = game.new()
    for _ = 1, 60 do g2:step() end
    assert.matches("completed no lap in 60 frames", g2:check_end())
  end)
end)
