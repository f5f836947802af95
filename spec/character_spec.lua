-- The character kit (docs/reference.md, "Characters"): world:ground, and
-- the options of world:set_character (snap, stop on slope, step, corner
-- correction, block on wall, leave), each at 30, 60, 144 and 240 steps a
-- second, as a game steps its player: gravity while in the air, nothing
-- down once on a floor, one world:move a step.
local obb = require "obb"
local H = require "helpers"

local abs, pi, max = math.abs, math.pi, math.max
local RATES = { 30, 60, 144, 240 }
local G = 30 -- gravity, units per second squared

-- A rotated slab: its top face from (x0, y0), rising at angle a (radians,
-- counter-clockwise) for length len, 1 thick.
local function slab(w, name, x0, y0, a, len)
  local c, s = math.cos(a), math.sin(a)
  local hl, ht = len / 2, 0.5
  -- the top face's middle is (x0, y0) + hl (c, s); the center is ht below
  -- it along the face's normal (-s, c)
  w:add(name, x0 + hl * c + ht * s, y0 + hl * s - ht * c, hl, ht, a)
end

-- A player stepped as a game steps it: vy reset on a floor, gravity added.
local function player(w, item, x, y, rate)
  local p, dt = { x = x, y = y, vy = 0 }, 1 / rate
  w:add(item, x, y, 0.25, 0.5)
  function p.step(vx, vy)
    if vy then p.vy = vy
    elseif w:is_on_floor(item) and p.vy < 0 then p.vy = 0 end
    p.vy = p.vy - G * dt
    p.x, p.y = w:move(item, p.x + vx * dt, p.y + p.vy * dt)
    return p.x, p.y
  end
  return p
end

local function at(w, item)
  local x, y = w:get(item)
  return { x, y }
end

local function up_world(slope)
  return obb.world2{ up = { 0, 1 }, slope = slope }
end

describe("world:ground", function()
  it("is what the item rests on, by the touching rule, or within a distance", function()
    local w = up_world()
    for i = 0, 9 do w:add("tile" .. i, i, -0.5, 0.5, 0.5) end
    w:add("p", 2, 0.5, 0.25, 0.5)
    local other, nx, ny, gap, floor, mx, my = w:ground("p")
    assert.same({ "tile2", 0, 1, 0, true, 0, 0 }, { other, nx, ny, gap, floor, mx, my })
    -- a band's width above it (far more than the band, far less than any
    -- step) it is not on it; within a distance it finds it, with the gap
    w:update("p", 2, 0.5 + 1e-9, 0.25, 0.5)
    assert.is_nil(w:ground("p"))
    other, nx, ny, gap = w:ground("p", 0.01)
    assert.same({ "tile2", 0, 1 }, { other, nx, ny })
    assert.is_true(abs(gap - 1e-9) < 1e-12, gap)
    assert.is_nil(w:ground("p", 1e-10))
    -- a floor exactly the distance below is within it
    w:update("p", 2, 0.75, 0.25, 0.5)
    other, nx, ny, gap = w:ground("p", 0.25)
    assert.same({ "tile2", 0, 1 }, { other, nx, ny })
    assert.is_true(abs(gap - 0.25) < 1e-12, gap)
    assert.is_nil(w:ground("p", 0.2499))
    -- resting exactly on a seam, either tile, most nearly up first
    w:update("p", 2.5, 0.5, 0.25, 0.5)
    other = w:ground("p")
    assert.is_true(other == "tile2" or other == "tile3")
    -- a filter: what it ignores or crosses is no ground
    assert.is_nil(w:ground("p", 0, function(_, o) return not o:match("tile") and "slide" end))
    assert.equal("tile3", (w:ground("p", 0, function(_, o) return o == "tile3" and "slide" end)))
    assert.is_nil(w:ground("p", 0, "cross"))
    w:set_class("tile2", 3)
    assert.equal("tile3", (w:ground("p", 0, obb.responses({ [3] = false }))))
    assert.is_nil(w:ground("p", 0, obb.responses({ [3] = "cross", default = false })))
  end)

  it("tells a floor from a steep face, by the world's up and slope", function()
    local w = up_world(pi / 4)
    slab(w, "steep", 0, 0, pi / 3, 10)  -- 60 degrees
    slab(w, "gentle", 20, 0, pi / 6, 10) -- 30 degrees
    -- drop a box onto each and ask what it rests on
    w:add("a", 2, 8, 0.25, 0.25)
    w:add("b", 22, 8, 0.25, 0.25)
    w:move("a", 2, -10, "touch")
    w:move("b", 22, -10, "touch")
    local o, nx, ny, gap, floor = w:ground("a")
    assert.equal("steep", o)
    assert.is_false(floor)
    assert.is_true(abs(nx + math.sin(pi / 3)) < 1e-12 and abs(ny - 0.5) < 1e-12)
    assert.equal(0, gap)
    o, nx, ny, gap, floor = w:ground("b")
    assert.same({ "gentle", 0, true }, { o, gap, floor })
    assert.is_true(abs(nx + 0.5) < 1e-12 and abs(ny - math.cos(pi / 6)) < 1e-12)
  end)

  it("works in 3D, and needs an up", function()
    local w = obb.world3{ up = { 0, 0, 1 } }
    w:add("floor", 0, 0, -0.5, 5, 5, 0.5)
    w:add("p", 1, 1, 0.5, 0.3, 0.3, 0.5)
    local o, nx, ny, nz, gap, floor = w:ground("p")
    assert.same({ "floor", 0, 0, 1, 0, true }, { o, nx, ny, nz, gap, floor })
    local flat = obb.world2()
    flat:add("p", 0, 0, 1, 1)
    H.assert_error_text("world has no up", flat.ground, flat, "p")
    H.assert_argerror(3, "ground", "distance must be a finite number >= 0", w.ground, w, "p", -1)
    H.assert_argerror(3, "ground", "distance must be a finite number >= 0", w.ground, w, "p", 0 / 0)
  end)

  it("gives the motion of a moving solid it stands on", function()
    local w = up_world()
    w:add("lift", 0, -0.5, 2, 0.5)
    w:add("p", 0, 0.5, 0.25, 0.5)
    w:move_solid("lift", 0.5, 0.25)
    local o, _, _, _, floor, mx, my = w:ground("p")
    assert.equal("lift", o)
    assert.is_true(floor)
    assert.same({ 0.5, 0.75 }, { mx, my })
  end)
end)

describe("world:set_character", function()
  it("takes options, gives them back, and refuses what is no option", function()
    local w = up_world()
    w:add("p", 0, 0, 1, 1)
    assert.is_nil(w:character("p"))
    assert.equal(w, w:set_character("p", { snap = 0.5, step = 0.25, corner = 0.1,
      stop_on_slope = true, block_on_wall = true, leave = "up" }))
    assert.same({ snap = 0.5, step = 0.25, corner = 0.1, stop_on_slope = true,
      block_on_wall = true, leave = "up" }, w:character("p"))
    w:set_character("p", {})
    assert.same({ snap = 0, step = 0, corner = 0, stop_on_slope = false,
      block_on_wall = false, leave = "all" }, w:character("p"))
    local set = w.set_character
    H.assert_argerror(3, "set_character", "unknown option 'snap_length'", set, w, "p", { snap_length = 1 })
    H.assert_argerror(3, "set_character", "option 'snap' must be a finite number >= 0", set, w, "p", { snap = -1 })
    H.assert_argerror(3, "set_character", "option 'step' must be a finite number >= 0", set, w, "p", { step = 0 / 0 })
    H.assert_argerror(3, "set_character", "option 'corner' must be a finite number >= 0", set, w, "p",
      { corner = math.huge })
    H.assert_argerror(3, "set_character", "option 'snap': number expected, got string", set, w, "p", { snap = "1" })
    H.assert_argerror(3, "set_character", "option 'stop_on_slope': boolean expected, got number", set, w, "p",
      { stop_on_slope = 1 })
    H.assert_argerror(3, "set_character", 'option \'leave\' must be "all", "up" or "none"', set, w, "p",
      { leave = "some" })
    H.assert_argerror(3, "set_character", "table or nil expected, got number", set, w, "p", 5)
    H.assert_argerror(2, "set_character", "item is not in the world", set, w, "q", {})
    -- what failed changed nothing
    assert.same({ snap = 0, step = 0, corner = 0, stop_on_slope = false,
      block_on_wall = false, leave = "all" }, w:character("p"))
    w:set_character("p", nil)
    assert.is_nil(w:character("p"))
  end)

  it("is dropped with its item, and a closed world refuses it", function()
    local w = up_world()
    w:add("p", 0, 0, 1, 1)
    w:set_character("p", { snap = 1 })
    w:remove("p")
    w:add("p", 0, 0, 1, 1)
    assert.is_nil(w:character("p"))
    assert.is_false(w:is_on_floor("p"))
    w:close()
    H.assert_error_text("world is closed", w.set_character, w, "p", {})
  end)

  it("with every option off moves as any item, bit for bit, records too", function()
    local seed = 12345
    local function rand()
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    local function scene()
      local w = up_world()
      for i = 0, 30 do w:add("t" .. i, i - 15, -0.5, 0.5, 0.5) end
      slab(w, "ramp", -5, 0, 0.5, 6)
      slab(w, "wall", 5, 0, 1.2, 6)
      w:add("box", 0, 2, 0.5, 0.5, 0.3)
      w:add("p", -8, 3, 0.25, 0.5)
      return w
    end
    local a, b = scene(), scene()
    b:set_character("p", {})
    local oa, ob = {}, {}
    local filter = function(_, o) if o == "box" then return "cross" end return "slide" end
    for _ = 1, 400 do
      local gx, gy = rand() * 30 - 15, rand() * 8 - 2
      local ra = { a:move("p", gx, gy, filter, oa) }
      local rb = { b:move("p", gx, gy, filter, ob) }
      assert.same(ra, rb)
      assert.same(oa, ob)
    end
  end)

  it("in a world without an up moves as any item", function()
    local w, v = obb.world2(), obb.world2()
    for _, x in ipairs({ w, v }) do
      x:add("floor", 0, -0.5, 10, 0.5)
      x:add("p", 0, 3, 0.25, 0.5)
    end
    w:set_character("p", { snap = 1, step = 1, stop_on_slope = true })
    for i = 1, 20 do
      assert.same({ v:move("p", i * 0.1, 3 - i * 0.3) }, { w:move("p", i * 0.1, 3 - i * 0.3) })
    end
  end)
end)

describe("a character", function()
  it("walks down a 45-degree slope and over its crest grounded every step (snap)", function()
    for _, rate in ipairs(RATES) do
      for _, snap in ipairs({ 0.5, 0 }) do
        local w = up_world(50 * pi / 180)
        w:add("top", -10, -0.5, 10, 0.5)
        slab(w, "slope", 0, 0, -pi / 4, 20)
        local p = player(w, "p", -3, 0.5, rate)
        w:set_character("p", { snap = snap, stop_on_slope = true })
        for _ = 1, 10 do p.step(0) end -- settle
        assert.is_true(w:is_on_floor("p"))
        local left, grounded = false, true
        while p.x < 10 do
          p.step(6)
          if not w:is_on_floor("p") then grounded = false end
          -- never farther from the surface than the snap length
          local o, _, _, gap = w:ground("p", 0.5)
          if snap > 0 then
            assert.is_truthy(o, "rate " .. rate .. " x " .. p.x)
            assert.is_true(gap <= snap)
          end
          if p.x > 1 then left = true end
        end
        assert.is_true(left)
        if snap > 0 then
          assert.is_true(grounded, "rate " .. rate)
        else -- without snap it takes off at the crest
          assert.is_false(grounded, "rate " .. rate)
        end
      end
    end
  end)

  it("stands still on a 40-degree floor slope for 10,000 steps, and slides down a 60-degree one", function()
    for _, rate in ipairs(RATES) do
      local w = up_world(pi / 4)
      slab(w, "slope", -5, -5, 40 * pi / 180, 20)
      slab(w, "steep", 30, -5, 60 * pi / 180, 20)
      local p = player(w, "p", 2, 8, rate)
      w:set_character("p", { stop_on_slope = true })
      for _ = 1, rate * 3 do p.step(0) end -- falls onto it, lands
      assert.is_true(w:is_on_floor("p"), "rate " .. rate)
      local x, y = p.x, p.y
      for _ = 1, 10000 do p.step(0) end
      assert.equal(x, p.x)
      assert.equal(y, p.y)
      assert.is_true(w:is_on_floor("p"))
      -- the same player without the option creeps down
      w:set_character("p", {})
      for _ = 1, 100 do p.step(0) end
      assert.is_true(p.x < x - 1e-6, "rate " .. rate)
      -- on the steep slope it slides down whatever the option
      local q = player(w, "q", 34, 14, rate)
      w:set_character("q", { stop_on_slope = true })
      for _ = 1, rate do q.step(0) end
      assert.is_false(w:is_on_floor("q"))
      local qx = q.x
      for _ = 1, rate do q.step(0) end
      assert.is_true(q.x < qx - 0.1, "rate " .. rate .. ": " .. q.x .. " " .. qx)
    end
  end)

  it("steps onto a ledge of exactly its step height, not onto one 1% higher", function()
    for _, rate in ipairs(RATES) do
      for _, h in ipairs({ 0.3, 0.303 }) do
        local w = up_world()
        w:add("floor", 0, -0.5, 20, 0.5)
        w:add("ledge", 6, h / 2, 4, h / 2)
        local p = player(w, "p", 0, 0.5, rate)
        w:set_character("p", { step = 0.3, snap = 0.1, stop_on_slope = true })
        for _ = 1, rate * 2 do p.step(3) end
        if h == 0.3 then
          assert.is_true(p.x > 3, "rate " .. rate .. " x " .. p.x)
          assert.is_true(abs(p.y - 0.5 - h) < 1e-9, p.y)
          assert.is_true(w:is_on_floor("p"))
          assert.equal("ledge", (w:ground("p")))
        else
          assert.is_true(abs(p.x - (2 - 0.25)) < 1e-9, "rate " .. rate .. " x " .. p.x)
          assert.equal(0.5, p.y)
          assert.is_true(w:is_on_wall("p"))
        end
      end
    end
  end)

  it("never climbs a face steeper than a floor (block on wall)", function()
    for _, rate in ipairs(RATES) do
      for _, block in ipairs({ true, false }) do
        local w = up_world(pi / 4)
        w:add("floor", 0, -0.5, 20, 0.5)
        slab(w, "wall", 3, 0, 60 * pi / 180, 10)
        local p = player(w, "p", 0, 0.5, rate)
        w:set_character("p", { block_on_wall = block, stop_on_slope = true })
        local top = p.y
        for _ = 1, rate * 2 do
          p.step(5)
          top = max(top, p.y)
        end
        if block then
          assert.is_true(top <= 0.5 + 1e-9, "rate " .. rate .. " climbed to " .. top)
          assert.is_true(w:is_on_wall("p"))
        else
          assert.is_true(top > 0.5 + 0.01, "rate " .. rate)
        end
      end
    end
  end)

  it("is nudged past a ledge its head clips within the correction, and blocked beyond", function()
    for _, rate in ipairs(RATES) do
      for _, clip in ipairs({ 0.05, 0.15 }) do
        local w = up_world()
        w:add("floor", 0, -0.5, 20, 0.5)
        -- a ledge above, its left end over the player's right edge by clip
        w:add("ledge", 0.25 - clip + 5, 2, 5, 0.5)
        local p = player(w, "p", 0, 0.5, rate)
        w:set_character("p", { corner = 0.1 })
        p.step(0, 12) -- a jump
        for _ = 1, rate / 2 do p.step(0) end
        if clip == 0.05 then
          assert.is_true(p.y > 2, "rate " .. rate .. " y " .. p.y)
          assert.is_true(abs(p.x + clip) < 1e-9, p.x)
        else
          assert.is_true(p.y <= 1 + 1e-9, "rate " .. rate .. " y " .. p.y)
          assert.equal(0, p.x)
        end
      end
    end
  end)

  it("passes a clipped ledge with the manual's loop, which stops a jump at a ceiling met", function()
    local w = up_world()
    w:add("floor", 0, -0.5, 20, 0.5)
    w:add("ledge", 0.25 - 0.05 + 5, 2, 5, 0.5)
    local p = { x = 0, y = 0.5, vy = 0 }
    w:add(p, p.x, p.y, 0.25, 0.5)
    w:set_character(p, { corner = 0.1 })
    w:move(p, 0, 0.4)
    local top = 0
    for i = 1, 30 do
      if w:is_on_floor(p) then p.vy = (i == 1) and 12 or 0 end
      p.vy = p.vy - 30 / 60
      p.x, p.y = w:move(p, p.x, p.y + p.vy / 60)
      if w:is_on_ceiling(p) and p.vy > 0 then p.vy = 0 end
      top = max(top, p.y)
    end
    assert.is_true(top > 2.5, top) -- past the ledge: no ceiling was met
    assert.is_true(abs(p.x + 0.05) < 1e-12, p.x)
  end)

  it("is lifted onto a ledge its feet clip within the correction, rising or falling", function()
    for _, clip in ipairs({ 0.03, 0.05, 0.15 }) do
      for _, dy in ipairs({ -0.05, 0.05 }) do
        local w = up_world()
        w:add("ledge", 2, 0.5, 1, 0.5) -- x 1 to 3, its top at y = 1
        w:add("p", 0, 1.5 - clip, 0.25, 0.5)
        w:set_character("p", { corner = 0.1 })
        local x, y = w:move("p", 0.9, 1.5 - clip + dy)
        if clip < 0.1 then
          assert.equal(0.9, x)
          assert.is_true(y >= 1.5 - 1e-12, y) -- on the ledge's top, or above it
        else
          assert.is_true(abs(x - 0.75) < 1e-12, x)
        end
      end
    end
  end)

  it("is never nudged off the edge of the floor it stands on", function()
    local w = up_world()
    w:add("ledge", -5, -0.5, 5, 0.5) -- a floor from x = -10 to 0
    w:add("p", -1, 0.5, 0.25, 0.5)
    w:set_character("p", { corner = 0.1 })
    local x, y = w:move("p", -1, 0.49)
    for _ = 1, 12 do
      local gx = x + 0.1
      x, y = w:move("p", gx, y - 0.01)
      assert.equal(gx, x)
    end
    w:update("p", 0.2, 0.5, 0.25, 0.5) -- overlapping the floor by 0.05
    x, y = w:move("p", 0.2, 0.49)
    assert.same({ 0.2, 0.5 }, { x, y })
    assert.is_true(w:is_on_floor("p"))
  end)

  it("is nudged into a corridor it enters off-centre within the correction, and blocked beyond", function()
    for _, rate in ipairs(RATES) do
      for _, clip in ipairs({ 0.05, 0.15 }) do
        local w = up_world()
        w:add("below", 10, -0.6, 8, 0.5)  -- the corridor: y from -0.1
        w:add("above", 10, 1.6, 8, 0.5)   -- to 1.1
        local p = { x = 0, y = 0.6 + clip }
        w:add("p", p.x, p.y, 0.25, 0.5)
        w:set_character("p", { corner = 0.1 })
        for _ = 1, rate do -- a dash, no gravity
          p.x, p.y = w:move("p", p.x + 4 / rate, p.y)
        end
        if clip == 0.05 then
          assert.is_true(p.x > 3, "rate " .. rate .. " x " .. p.x)
          assert.is_true(abs(p.y - 0.6) < 1e-9, p.y)
        else
          assert.is_true(abs(p.x - 1.75) < 1e-9, "rate " .. rate .. " x " .. p.x)
        end
      end
    end
  end)

  it("stays grounded on an elevator going up and down at any speed", function()
    for _, rate in ipairs(RATES) do
      for _, speed in ipairs({ 1, 10, 50, -1, -10, -50 }) do
        local w = up_world()
        w:add("lift", 0, -0.5, 2, 0.5)
        local p = player(w, "p", 0, 0.5, rate)
        w:set_character("p", { snap = 0.2, stop_on_slope = true })
        p.step(0)
        assert.is_true(w:is_on_floor("p"))
        assert.same({ "lift", 0, 1 }, { w:floor("p") })
        local ly = -0.5
        for _ = 1, rate do
          ly = ly + speed / rate
          w:move_solid("lift", 0, ly)
          p.x, p.y = w:get("p")
          p.step(0)
          assert.is_true(w:is_on_floor("p"), "rate " .. rate .. " speed " .. speed)
          assert.equal("lift", (w:ground("p")))
          local mx, my = w:platform_motion("p")
          assert.equal(0, mx)
          assert.is_true(abs(my - speed / rate) < 1e-9, my)
        end
      end
    end
  end)

  it("keeps its ground's motion as leave says on the move that leaves it", function()
    for _, leave in ipairs({ "all", "up", "none" }) do
      local w = up_world()
      w:add("lift", 0, -0.5, 2, 0.5)
      w:add("p", 0, 0.5, 0.25, 0.5)
      w:set_character("p", { leave = leave })
      w:move("p", 0, 0.4)
      w:move_solid("lift", 0.5, 0)
      local x, y = w:get("p")
      w:move("p", x, y + 1) -- jumps off
      assert.is_false(w:is_on_floor("p"))
      local expect = { all = { 0.5, 0.5 }, up = { 0, 0.5 }, none = { 0, 0 } }
      assert.same(expect[leave], { w:platform_motion("p") })
      w:move("p", x, y + 2)
      assert.same({ 0, 0 }, { w:platform_motion("p") })
    end
  end)

  it("asks its filter once per other and move, reports each once, and an error leaves it where it was", function()
    local w = up_world()
    w:add("floor", 0, -0.5, 20, 0.5)
    w:add("coin", 1, 0.5, 0.1, 0.1)
    w:add("ledge", 3, 0.125, 1, 0.125)
    w:add("p", 0, 0.5, 0.25, 0.5)
    w:set_character("p", { step = 0.3, snap = 0.3, stop_on_slope = true, corner = 0.1 })
    w:move("p", 0, 0.4)
    local asked, out = {}, {}
    local n = select(3, w:move("p", 3, 0.45, function(_, o)
      asked[o] = (asked[o] or 0) + 1
      return o == "coin" and "cross" or "slide"
    end, out))
    for o, k in pairs(asked) do assert.equal(1, k, o) end
    local seen = {}
    for i = 0, n - 1 do
      local o = out[i * 8 + 1]
      assert.is_nil(seen[o], o)
      seen[o] = true
    end
    assert.is_true(seen.coin)
    assert.is_true(seen.ledge)
    local x, y = w:get("p")
    assert.equal(3, x)
    H.assert_error_text("boom", w.move, w, "p", 6, 0.5, function() error("boom") end)
    assert.same({ x, y }, at(w, "p"))
    H.assert_error_text("cannot", w.move, w, "p", 6, 0.5, function()
      w:set_character("p", nil)
    end)
    assert.same({ x, y }, at(w, "p"))
    assert.is_truthy(w:character("p"))
  end)

  it("survives hostile filters: its world freed or closed by hand, solids gone", function()
    for _, how in ipairs({ "gc", "close" }) do
      local w = up_world()
      w:add("floor", 0, -0.5, 20, 0.5)
      w:add("ledge", 3, 0.125, 1, 0.125)
      w:add("p", 0, 0.5, 0.25, 0.5)
      w:set_character("p", { step = 0.3, snap = 0.3, corner = 0.1, stop_on_slope = true })
      local ok, err = pcall(w.move, w, "p", 3, 0.45, function()
        if how == "gc" then debug.getmetatable(w).__gc(w) else w:close() end
        return "slide"
      end)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("during its query", 1, true), err)
      assert.same({ 0, 0.5 }, at(w, "p")) -- unmoved, and the world works on
      assert.same({ 1, 0.5, 0, "goal" }, { w:move("p", 1, 0.5) })
    end
    -- the solid it stood on removed, its id taken by another item
    local w = up_world()
    w:add("lift", 0, -0.5, 2, 0.5)
    w:add("p", 0, 0.5, 0.25, 0.5)
    w:set_character("p", { snap = 0.3 })
    w:move("p", 0, 0.4)
    w:move_solid("lift", 0, 0)
    w:remove("lift")
    w:add("floor", 0, -0.5, 2, 0.5)
    w:move("p", 0, 0.4)
    assert.is_true(w:is_on_floor("p"))
    assert.same({ 0, 0 }, { w:platform_motion("p") })
    assert.equal("floor", (w:ground("p")))
  end)

  it("walks down a ramp grounded and stands on one without creeping, in 3D", function()
    for _, rate in ipairs(RATES) do
      local w = obb.world3{ up = { 0, 0, 1 }, slope = 50 * pi / 180 }
      w:add("top", -10, 0, -0.5, 10, 5, 0.5)
      -- a ramp down along +x at 30 degrees, its top face from (0, 0, 0)
      local a, len = -pi / 6, 20
      local c, s = math.cos(a), math.sin(a)
      w:add("ramp", len / 2 * c + 0.5 * s, 0, len / 2 * s - 0.5 * c, len / 2, 5, 0.5,
            0, math.sin(-a / 2), 0, math.cos(a / 2))
      w:add("p", -3, 0, 0.5, 0.25, 0.25, 0.5)
      w:set_character("p", { snap = 0.5, stop_on_slope = true })
      local x, y, z, vz = -3, 0, 0.5, 0
      local function step(vx)
        if w:is_on_floor("p") then vz = 0 end
        vz = vz - G / rate
        x, y, z = w:move("p", x + vx / rate, y, z + vz / rate)
      end
      for _ = 1, 5 do step(0) end
      while x < 8 do
        step(5)
        assert.is_true(w:is_on_floor("p"), "rate " .. rate .. " x " .. x)
      end
      local nx, ny, nz = w:floor_normal("p")
      assert.is_true(abs(nx - 0.5) < 1e-12 and ny == 0 and abs(nz - math.cos(pi / 6)) < 1e-12)
      local pose = { x, y, z }
      for _ = 1, 1000 do step(0) end
      assert.same(pose, { x, y, z })
    end
  end)

  it("steps and stands in 3D", function()
    local w = obb.world3{ up = { 0, 0, 1 } }
    w:add("floor", 0, 0, -0.5, 20, 20, 0.5)
    w:add("ledge", 5, 0, 0.125, 2, 2, 0.125)
    w:add("p", 0, 0, 0.5, 0.25, 0.25, 0.5)
    w:set_character("p", { step = 0.3, stop_on_slope = true })
    local x, y, z = w:move("p", 0, 0, 0.4)
    assert.same({ 0, 0, 0.5 }, { x, y, z })
    assert.is_true(w:is_on_floor("p"))
    assert.same({ 0, 0, 1 }, { w:floor_normal("p") })
    for i = 1, 40 do x, y, z = w:move("p", i * 0.125, 0, z - 0.01) end
    assert.same({ 5, 0 }, { x, y })
    assert.is_true(abs(z - 0.75) < 1e-9, z)
    assert.is_true(w:is_on_floor("p"))
  end)

  it("takes the FFI path on LuaJIT without a filter function, the classic binding's answers bit for bit", function()
    local J = package.loaded["obb.jit"]
    local WM = getmetatable(obb.world2())
    local CW = J and J.classic and J.classic[WM]
    if not CW or CW == WM then return end -- LuaJIT's FFI path only
    local function scene()
      local w = up_world()
      w:add("floor", 0, -0.5, 30, 0.5)
      for i = 1, 8 do w:add("ledge" .. i, i * 3, 0.1, 0.8, 0.1) end
      slab(w, "ramp", 26, 0.2, -0.4, 4)
      w:add("p", 0, 0.5, 0.25, 0.5)
      w:set_character("p", { step = 0.3, snap = 0.3, stop_on_slope = true, corner = 0.1 })
      return w
    end
    local A, B = scene(), scene()
    local set = obb.responses({ default = "slide" })
    local classic, move = 0, CW.move
    CW.move = function(...) classic = classic + 1 return move(...) end
    local oa, ob = {}, {}
    local ok, err = pcall(function()
      for i = 1, 400 do
        local filter = i % 3 == 0 and set or i % 3 == 1 and "slide" or nil
        local gx, gy = (i % 200) * 0.15, 0.3 + (i % 7) * 0.02
        assert.same({ move(B, "p", gx, gy, filter, ob) }, { A:move("p", gx, gy, filter, oa) })
        assert.same(ob, oa)
        assert.equal(B:is_on_floor("p"), A:is_on_floor("p"))
        assert.same({ B:floor_normal("p") }, { A:floor_normal("p") })
        -- a check, then its commit by the same move
        assert.same({ CW.check(B, "p", gx + 0.1, gy, filter) }, { A:check("p", gx + 0.1, gy, filter) })
      end
    end)
    CW.move = move
    assert(ok, err)
    assert.equal(0, classic)
  end)

  it("makes no garbage with a reused out table", function()
    local w = up_world()
    w:add("floor", 0, -0.5, 50, 0.5)
    for i = 1, 20 do w:add("ledge" .. i, i * 4, 0.1, 1, 0.1) end
    w:add("p", 0, 0.5, 0.25, 0.5)
    w:set_character("p", { step = 0.3, snap = 0.3, stop_on_slope = true, corner = 0.1, block_on_wall = true })
    local out, x, y = {}, 0, 0.5
    local kib = H.kib_allocated_by(function()
      for _ = 1, 2000 do
        x, y = w:move("p", x + 0.05 > 80 and 0 or x + 0.05, y - 0.01, nil, out)
        local _ = w:is_on_floor("p") and w:floor_normal("p")
      end
    end)
    assert.is_true(kib < 1, kib .. " KiB")
  end)
end)
