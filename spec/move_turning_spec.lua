-- world:move and world:check with a goal angle (2D) or a goal rotation (3D):
-- movers that turn
-- (docs/reference.md, "Moving boxes through a world", "Turning").
--
-- The reference, written here and independent of the mover: the motion of
-- a leg posed at a time s with obb.new2 (center moved by s times the
-- displacement, angle grown by s times the turn), asked `intersects` at
-- SAMPLES evenly spaced times, then bisection between the last sample apart
-- and the first one touching (as spec/turning_sweep_spec.lua does). With
-- "touch" a move is a single leg, so its stop can be held to that
-- reference: no contact missed, never later than the first sampled contact,
-- touching where it stops, nothing deeper than the band before. Longer
-- moves (slide, bounce, mixed responses) are held to what follows from
-- geometry alone: the end pose is not deeper than the band in anything it
-- was not already inside, an item shut in a room of thin walls stays in it
-- however fast it turns, a slide keeps the tangential part of the move, and
-- the rotation follows the documented rules. A turn of zero is today's
-- world:move, bit for bit.
local obb = require "obb"
local H = require "spec.helpers"

local S2 = obb.MOVE_STRIDE2
local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"
local SAMPLES = 400
local abs, max, pi = math.abs, math.max, math.pi

-- ---- helpers -----------------------------------------------------------------

-- The pair band of the touching rule (docs/reference.md, "Precision").
local function band(a, b)
  local ax, ay = a:center()
  local bx, by = b:center()
  local ahx, ahy = a:half_extents()
  local bhx, bhy = b:half_extents()
  local S = abs(bx - ax) + abs(by - ay) + ahx + ahy + bhx + bhy
  local M = max(abs(ax), abs(ay), abs(bx), abs(by))
  return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
end

-- How deep a overlaps b (0 when apart or only touching).
local function depth(a, b)
  local _, _, d = a:penetration(b)
  return d or 0
end

-- The item's box as the world holds it.
local function box_of(w, item) return w:get(item, obb.new2(0, 0, 1, 1)) end

-- The leg from box by (dx, dy) and the turn dw, posed at time s.
local function pose(box, dx, dy, dw, s)
  local cx, cy = box:center()
  local hx, hy = box:half_extents()
  return obb.new2(cx + dx * s, cy + dy * s, hx, hy, box:angle() + dw * s)
end

-- The reference's first contact with other of the leg whose pose at time
-- s is at(s): the bisected time and the first touching sample, or nil when
-- no sample touches.
local function first_contact(at, other)
  for i = 0, SAMPLES do
    local s = i / SAMPLES
    if at(s):intersects(other) then
      if i == 0 then return 0, 0 end
      local lo, hi = (i - 1) / SAMPLES, s
      for _ = 1, 60 do
        local mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi then break end
        if at(mid):intersects(other) then hi = mid else lo = mid end
      end
      return hi, s
    end
  end
  return nil
end

local function reference(box, dx, dy, dw, other)
  return first_contact(function(s) return pose(box, dx, dy, dw, s) end, other)
end

-- The difference of two angles, wrapped into [-pi, pi].
local function angle_diff(a, b)
  return (a - b + pi) % (2 * pi) - pi
end

-- The turn a move of box toward the goal angle makes: goal - box:angle()
-- wrapped to (-pi, pi] the way the manual states it (fmod by 2 pi, then
-- one step), so a reference can follow the same motion bit for bit.
local function turn_to(box, goal)
  local t = goal - box:angle()
  if t > pi or t <= -pi then
    if t > 2 * pi or t < -2 * pi then t = math.fmod(t, 2 * pi) end
    if t > pi then t = t - 2 * pi elseif t <= -pi then t = t + 2 * pi end
  end
  return t
end

-- Every other of the world, as boxes by item.
local function others(w, items)
  local t = {}
  for _, item in ipairs(items) do t[item] = box_of(w, item) end
  return t
end

-- Asserts the item, moved from the box `from` to where it is now, is not
-- inside (by more than the band) any of boxes it was not inside at the
-- start, and no deeper in those than it was (plus the band). The band
-- measured at the end pose: an item sliding along at a depth within the
-- band where it started may end where the band is smaller (it shrinks as
-- the centers come closer), so twice the band, as spec/move_spec.lua
-- allows.
local function assert_not_deeper(w, item, from, boxes, skip, what)
  local now = box_of(w, item)
  for other, b in pairs(boxes) do
    if not (skip and skip[other]) then
      local d0, d1 = depth(from, b), depth(now, b)
      local inside = d0 > band(from, b)
      if not inside and d1 > 2 * band(now, b) then
        error(("%s: ends inside %s by %.3g (band %.3g)"):format(what, tostring(other), d1,
          band(now, b)), 2)
      end
      if inside and d1 > d0 + 2 * band(now, b) then
        error(("%s: goes deeper into %s, from %.3g to %.3g"):format(what, tostring(other), d0, d1), 2)
      end
    end
  end
end

-- ---- specs ----------------------------------------------------------------------

describe("world:move with a goal angle (2D)", function()
  it("turns as it moves toward the goal, and returns the angle it ends at", function()
    local w = obb.world2()
    w:add("car", 1, 2, 2, 1, 0.25)
    local x, y, n, a = w:move("car", 4, 6, 1)
    assert.same({ 4, 6, 0 }, { x, y, n })
    assert.is_true(abs(a - 1) < 1e-15)
    local b = box_of(w, "car")
    assert.equal(a, b:angle())
    assert.same({ 2, 1 }, { b:half_extents() })
    -- as box:rotate turns it: one rotation by the turn done
    local want = obb.new2(1, 2, 2, 1, 0.25):rotate(1 - 0.25)
    assert.same({ want:axes() }, { b:axes() })
    -- check does not commit
    local cx, cy, cn, ca = w:check("car", 0, 0, -2)
    assert.same({ 0, 0, 0 }, { cx, cy, cn })
    assert.is_true(abs(ca + 2) < 1e-15)
    local gx, gy = w:get("car")
    assert.same({ 4, 6 }, { gx, gy })
    w:close()
  end)

  it("turns the short way to the goal angle: goal - box:angle() wrapped to (-pi, pi]", function()
    -- a bar at angle 3 and a crate north of its center: the short way to
    -- -3 is 0.28 rad counter-clockwise and passes nothing; the long way,
    -- -6 rad, would sweep the bar through the crate.
    local w = obb.world2()
    w:add("bar", 0, 0, 4, 0.1, 3)
    w:add("crate", 0, 3, 0.3, 0.3)
    local out = {}
    local _, _, n, a, why = w:check("bar", 0, 0, -3, "touch", out)
    assert.equal(0, n)
    assert.equal("goal", why)
    assert.is_true(abs(angle_diff(a, -3)) < 1e-12, "ended at " .. a)
    -- a goal that adds whole turns is the same goal: the crate is never met
    local cur = box_of(w, "bar"):angle()
    for _, k in ipairs({ 1, -1, 10, -1000 }) do
      local _, _, n2, a2 = w:check("bar", 0, 0, cur + 2 * pi * k + 0.1, "touch")
      assert.equal(0, n2)
      assert.is_true(abs(angle_diff(a2, cur + 0.1)) < 1e-9, k .. ": " .. a2)
    end
    -- the goal angle itself turns by nothing
    local x, y, n3, a3 = w:check("bar", 0, 0, cur, "touch")
    assert.same({ 0, 0, 0, cur }, { x, y, n3, a3 })
    -- and a car keeping its own heading across +-pi turns a little, never
    -- a whole turn: from 3.1 to 3.2 (that is, -3.083) is 0.1 counter-clockwise
    w:add("car", 10, 0, 1, 0.5, 3.1)
    local _, _, _, ac = w:check("car", 11, 0, 3.2)
    assert.is_true(abs(angle_diff(ac, 3.2)) < 1e-12, "ended at " .. ac)
    w:close()
  end)

  it("touch: stops turning and moving at the first contact, never later than the reference", function()
    local r = H.rng(3003).range
    local cases = LIGHT and 300 or 2000
    local hits, misses, grazes = 0, 0, 0
    for i = 1, cases do
      local w = obb.world2()
      -- a thin bar or a crate, and a mover that spins fast or slowly
      local thin = i % 2 == 0
      local other = obb.new2(r(-3, 3), r(-3, 3), thin and r(0.5, 4) or r(0.1, 1.5),
        thin and r(0.005, 0.05) or r(0.1, 1.5), r(-pi, pi))
      w:add("other", other)
      local me
      repeat
        me = obb.new2(r(-6, 6), r(-6, 6), r(0.1, 3), r(0.01, 1), r(-pi, pi))
      until not me:intersects(other)
      w:add("me", me)
      local cx, cy = me:center()
      local dx, dy = r(-12, 12), r(-12, 12)
      if i % 4 < 2 then -- toward the other
        local ox, oy = other:center()
        local k = r(0.5, 2)
        dx, dy = (ox - cx) * k + r(-1, 1), (oy - cy) * k + r(-1, 1)
      end
      local goal = me:angle() + (i % 3 == 0 and r(-30, 30) or r(-3, 3))
      local dw = turn_to(me, goal) -- the turn the move makes: the short way
      local out = {}
      local x, y, n, a = w:move("me", cx + dx, cy + dy, goal, "touch", out)
      local t_ref, t_sample = reference(me, dx, dy, dw, other)
      local now = box_of(w, "me")
      assert.equal(a, now:angle())
      if n == 0 then
        -- nothing met: the whole motion, and no sample touches
        assert.is_nil(t_ref, ("case %d: missed a contact at %s"):format(i, tostring(t_ref)))
        assert.same({ cx + dx, cy + dy }, { x, y })
        assert.is_true(abs(angle_diff(a, me:angle() + dw)) < 1e-12)
      else
        local t = out[3]
        assert.equal("other", out[1])
        assert.equal("touch", out[2])
        assert.same({ x, y }, { out[6], out[7] })
        -- where it stops: the leg's pose at t, touching the other
        assert.is_true(now:intersects(other), ("case %d: stopped apart"):format(i))
        local want = pose(me, dx, dy, dw, t)
        assert.is_true(abs(x - (cx + dx * t)) <= 1e-12 * (1 + abs(x)))
        assert.is_true(abs(y - (cy + dy * t)) <= 1e-12 * (1 + abs(y)))
        assert.is_true(abs(angle_diff(a, want:angle())) < 1e-12)
        if t_ref then
          hits = hits + 1
          -- never later than the first sampled contact (certified: never
          -- later than the first contact itself)
          assert.is_true(t <= t_sample, ("case %d: t %.17g after the sample %.17g"):format(i, t, t_sample))
          assert.is_true(t <= t_ref + 1e-9, ("case %d: t %.17g after %.17g"):format(i, t, t_ref))
        else
          grazes = grazes + 1 -- a contact between samples, or within the band
        end
        -- nothing deeper than the band before it
        for k = 0, 32 do
          local p = pose(me, dx, dy, dw, t * k / 32)
          assert.is_true(depth(p, other) <= band(p, other),
            ("case %d: the pose at %.17g overlaps"):format(i, t * k / 32))
        end
      end
      if n == 0 then misses = misses + 1 end
      w:close()
    end
    print(("\n  turning touch: %d cases, %d contacts the reference finds, %d between its samples, %d none")
      :format(cases, hits, grazes, misses))
    assert.is_true(hits > cases / 4)
  end)

  it("slide keeps the tangential part of the move, turning or not", function()
    for _, turn in ipairs({ 0.4, -0.4, 0.05, 2, -2 }) do
      local w = obb.world2()
      w:add("floor", 0, -0.5, 50, 0.5)
      -- resting on the floor, and coming from above
      for _, y0 in ipairs({ 0.5, 1.5 }) do
        w:add("box", -5, y0, 1.5, 0.5)
        local a0 = box_of(w, "box"):angle()
        local out = {}
        local x, y = w:move("box", 7.25, -3, a0 + turn, nil, out)
        assert.equal(7.25, x)
        assert.is_true(y >= 0.5 - 1e-9, "sank: " .. y)
        assert_not_deeper(w, "box", obb.new2(-5, y0, 1.5, 0.5), { floor = box_of(w, "floor") }, nil,
          "slide with turn " .. turn)
        w:remove("box")
      end
      w:close()
    end
  end)

  it("slide: a turn that would drive the item into what it slides along lifts it off and goes on", function()
    local w = obb.world2()
    w:add("floor", 0, -0.5, 50, 0.5)
    -- flush on the floor: turning either way about its center pushes a
    -- corner into it; the item is lifted as far as the corner swings in
    for _, turn in ipairs({ 0.5, -0.5 }) do
      w:add("box", 0, 0.5, 2, 0.5)
      local x, y, _, a = w:move("box", 6, 0.5, turn)
      assert.equal(6, x)
      assert.is_true(abs(a - turn) < 1e-12, "turned by " .. a)
      local lowest = y - (2 * math.abs(math.sin(a)) + 0.5 * math.cos(a))
      assert.is_true(lowest >= -1e-9, "its corner sank to " .. lowest)
      assert.is_true(lowest < 0.2, "lifted too far: " .. lowest)
      assert.is_true(depth(box_of(w, "box"), box_of(w, "floor")) <= band(box_of(w, "box"), box_of(w, "floor")))
      w:remove("box")
    end
    -- in a slot as high as the box, there is no room: the turn stops, the
    -- translation slides on
    w:add("ceiling", 0, 1.5, 50, 0.5)
    w:add("box", 0, 0.5, 2, 0.5)
    local x, y, _, a = w:move("box", 6, 0.5, 0.5)
    assert.equal(6, x)
    assert.is_true(abs(a) < 1e-9, "turned by " .. a)
    assert.is_true(abs(y - 0.5) < 1e-9)
    w:close()
  end)

  it("a car flush against a wall steers away from it (and toward it), pushed off as its corner swings", function()
    local w = obb.world2()
    w:add("wall", 10, 0, 0.5, 20) -- its face at x = 9.5
    w:add("car", 7.5, 0, 1, 2, 0) -- heading +y, its right side at x = 8.5
    assert.equal(8.5, (w:move("car", 9, 0)))
    for _, steer in ipairs({ 0.2, -0.2 }) do
      local x, y, _, a = w:check("car", 8.5, 1, steer)
      assert.is_true(abs(a - steer) < 1e-12, "steering stopped at " .. a)
      assert.equal(1, y)
      -- the car's reach toward the wall at its end, and no deeper
      local reach = math.cos(a) + 2 * math.abs(math.sin(a))
      assert.is_true(x + reach <= 9.5 + 1e-9, "into the wall: " .. (x + reach))
      assert.is_true(x + reach > 9.4, "pushed off too far: " .. (x + reach))
    end
    w:close()
  end)

  it("slide: a turn that lifts the item off what it met goes on to the goal angle", function()
    local w = obb.world2()
    w:add("floor", 0, -0.5, 50, 0.5)
    -- tilted clockwise, its lower right corner first; turning
    -- counter-clockwise toward flat raises that corner
    w:add("box", 0, 2, 2, 0.5, -0.3)
    local out = {}
    local x, y, n, a = w:move("box", 8, -2, -0.1, nil, out)
    assert.equal(1, n)
    assert.equal("floor", out[1])
    assert.is_true(abs(a + 0.1) < 1e-12, "stopped turning at " .. a)
    assert.equal(8, x)
    assert.is_true(y > 0.5)
    assert.is_true(box_of(w, "box"):intersects(box_of(w, "floor")) == false or
      depth(box_of(w, "box"), box_of(w, "floor")) <= band(box_of(w, "box"), box_of(w, "floor")))
    w:close()
    -- and along a wall met at an angle: a car steering away from it
    w = obb.world2()
    w:add("wall", 10, 0, 0.05, 20)
    w:add("car", 6, 0, 2, 1, 0.5)
    local cx, cy, _, ca = w:move("car", 12, 8, 0.2)
    assert.is_true(abs(ca - 0.2) < 1e-12, "a car steering away stopped turning at " .. ca)
    assert.equal(8, cy)
    assert.is_true(cx < 10)
    assert.is_true(depth(box_of(w, "car"), box_of(w, "wall")) <= band(box_of(w, "car"), box_of(w, "wall")))
    w:close()
  end)

  it("bounce mirrors the translation and keeps turning by the slide's rule", function()
    local w = obb.world2()
    w:add("floor", 0, -0.5, 50, 0.5)
    w:add("box", 0, 2, 2, 0.5, -0.3)
    local out = {}
    local x, y, n, a = w:move("box", 8, -2, -0.1, "bounce", out)
    assert.equal(1, n)
    assert.equal("bounce", out[2])
    local ty = out[7]
    -- mirrored: the rest of the move goes up as far as it went down
    assert.is_true(y > ty + 1, "not mirrored: " .. y)
    assert.is_true(abs(x - 8) < 1e-9)
    assert.is_true(abs(a + 0.1) < 1e-12)
    -- flush on the floor, moving into it and turning into it faster than
    -- the mirrored move lifts it: the turn stops
    w:update("box", 0, 0.5, 2, 0.5, 0)
    local _, by, _, ba = w:move("box", 4, 0.3, 0.5, "bounce")
    assert.is_true(by > 0.5)
    assert.is_true(abs(ba) < 1e-9, "turned into the floor by " .. ba)
    w:close()
  end)

  it("an item inside an other is not pushed out and does not turn; it moves along or out", function()
    local w = obb.world2()
    w:add("block", 0, 0, 2, 2)
    w:add("box", 2.2, 0, 0.5, 0.5) -- 0.3 inside the block
    local out = {}
    local x, y, n, a = w:move("box", 6, 0, 0.7, nil, out)
    assert.equal(1, n)
    assert.equal("block", out[1])
    assert.is_true(out[8] > 0.29) -- reported with its depth
    assert.same({ 6, 0, 0 }, { x, y, a }) -- out, without turning: a turn could go deeper
    -- along it, and into it (clipped), neither turning
    w:update("box", 2.2, 0, 0.5, 0.5, 0)
    local x2, y2, _, a2 = w:move("box", 1, 3, -0.5)
    assert.same({ 2.2, 3, 0 }, { x2, y2, a2 })
    -- an other it only touches (by less than the band) lets it turn away
    w:update("box", 2.5, 0, 0.5, 0.5, 0)
    local _, _, _, a3 = w:move("box", 4, 0, 0.7)
    assert.is_true(abs(a3 - 0.7) < 1e-12)
    w:close()
  end)

  it("cross reports and passes, ignore passes silently, while turning", function()
    local w = obb.world2()
    w:add("ghost", 3, 0, 0.5, 2)
    w:add("box", 0, 0, 1, 0.3)
    local out = {}
    local x, y, n, a = w:move("box", 6, 0, 2, "cross", out)
    assert.same({ 6, 0, 1, "ghost", "cross", S2 }, { x, y, n, out[1], out[2], #out })
    assert.is_true(abs(a - 2) < 1e-12)
    local x2, _, n2, a2 = w:move("box", 0, 0, 0, function() return false end, out)
    assert.same({ 0, 0, 0 }, { x2, n2, #out })
    assert.is_true(abs(a2) < 1e-12)
    w:close()
  end)

  it("random worlds of thin bars: nothing ends deeper than the band, nothing leaves its room", function()
    local r = H.rng(4242).range
    local scenes = LIGHT and 100 or 600
    local RESP = { "slide", "slide", "bounce", "touch", "cross" }
    local moves, contacts = 0, 0
    for scene = 1, scenes do
      local w = obb.world2()
      local items = {}
      local T = r(0.005, 0.1) -- the room's walls, thin
      local walls = { obb.new2(0, 10, 10 + T, T), obb.new2(0, -10, 10 + T, T),
                      obb.new2(10, 0, T, 10 + T), obb.new2(-10, 0, T, 10 + T) }
      for k, b in ipairs(walls) do
        w:add("wall" .. k, b)
        items[#items + 1] = "wall" .. k
      end
      for k = 1, 6 do
        w:add("bar" .. k, r(-8, 8), r(-8, 8), r(0.1, 3), r(0.005, 0.2), r(-pi, pi))
        items[#items + 1] = "bar" .. k
      end
      w:add("me", r(-2, 2), r(-2, 2), r(0.2, 2.5), r(0.05, 1), r(-pi, pi))
      local resp = RESP[1 + scene % #RESP]
      local crossed = {}
      local function filter(_, o)
        if o:match("^wall") then return "slide" end
        if resp == "cross" then crossed[o] = true end
        return resp
      end
      local out = {}
      for step = 1, 20 do
        local from = box_of(w, "me")
        local boxes = others(w, items)
        local cx, cy = from:center()
        local spin = step % 5 == 0 and r(-60, 60) or r(-3, 3)
        local x, y, n = w:move("me", cx + r(-25, 25), cy + r(-25, 25), from:angle() + spin,
          filter, out)
        moves, contacts = moves + 1, contacts + n
        local what = ("scene %d step %d"):format(scene, step)
        assert.is_true(abs(x) < 10 and abs(y) < 10, what .. ": left the room")
        assert_not_deeper(w, "me", from, boxes, crossed, what)
      end
      w:close()
    end
    print(("\n  turning moves in rooms of thin walls: %d moves, %d collisions"):format(moves, contacts))
  end)

  it("fast spins and huge turns pass through nothing", function()
    local w = obb.world2()
    local items = {}
    for k, b in ipairs({ obb.new2(0, 3, 3.01, 0.005), obb.new2(0, -3, 3.01, 0.005),
                         obb.new2(3, 0, 0.005, 3.01), obb.new2(-3, 0, 0.005, 3.01) }) do
      w:add(k, b)
      items[k] = k
    end
    -- longer than the room is wide, shorter than its diagonal
    w:add("stick", 0, 0, 3.5, 0.01, pi / 4)
    for _, turn in ipairs({ 7, -40, 1000, 1e6, 1e12, 1e300, -1e300, 1.7e308 }) do
      for _, resp in ipairs({ "slide", "touch", "bounce" }) do
        w:update("stick", 0, 0, 3.5, 0.01, pi / 4)
        local from = box_of(w, "stick")
        local x, y, n, a = w:move("stick", 0.4, -0.3, pi / 4 + turn, resp)
        assert.is_true(x == x and y == y and a == a and n >= 0)
        assert.is_true(abs(x) < 3 and abs(y) < 3)
        assert_not_deeper(w, "stick", from, others(w, items), nil, "turn " .. turn .. " " .. resp)
        -- the turn is the goal's, the short way: it gets there, or it met
        -- a wall, or its sweep could not decide and the turn stopped
        local dw = turn_to(from, pi / 4 + turn)
        assert.is_true(abs(dw) <= pi)
        assert.is_true(n > 0 or abs(angle_diff(a, pi / 4 + dw)) < 1e-9 or abs(a - pi / 4) < 1e-12,
          "turn " .. turn .. ": " .. a)
      end
    end
    w:close()
  end)

  it("a turn of zero is world:move, bit for bit", function()
    local r = H.rng(777).range
    local scenes = LIGHT and 40 or 200
    local n_moves = 0
    for _ = 1, scenes do
      local w1, w2 = obb.world2(), obb.world2()
      for k = 1, 30 do
        local a = { r(-20, 20), r(-20, 20), r(0.05, 3), r(0.01, 0.5), r(-pi, pi) }
        w1:add(k, a[1], a[2], a[3], a[4], a[5])
        w2:add(k, a[1], a[2], a[3], a[4], a[5])
      end
      local a = { r(-2, 2), r(-2, 2), r(0.1, 2), r(0.1, 1), r(-pi, pi) }
      w1:add("me", a[1], a[2], a[3], a[4], a[5])
      w2:add("me", a[1], a[2], a[3], a[4], a[5])
      local o1, o2 = {}, {}
      for step = 1, 20 do
        local x, y, _, _, ang = w1:get("me")
        local gx, gy = x + r(-10, 10), y + r(-10, 10)
        local resp = ({ "slide", "bounce", "touch", "cross", false })[1 + step % 5] or nil
        local angle = box_of(w1, "me"):angle()
        local x1, y1, c1, a1 = w1:move("me", gx, gy, angle, resp, o1)
        local x2, y2, c2 = w2:move("me", gx, gy, resp, o2)
        assert.same({ x2, y2, c2 }, { x1, y1, c1 })
        assert.equal(angle, a1)
        assert.same(o2, o1)
        assert.same({ w2:get("me") }, { w1:get("me") })
        assert.same({ box_of(w2, "me"):axes() }, { box_of(w1, "me"):axes() })
        local cx1, cy1, cc1, ca1 = w1:check("me", gx, gy, angle, resp, o1)
        local cx2, cy2, cc2 = w2:check("me", gx, gy, resp, o2)
        assert.same({ cx2, cy2, cc2, angle }, { cx1, cy1, cc1, ca1 })
        assert.same(o2, o1)
        assert.is_true(ang == ang)
        n_moves = n_moves + 1
      end
      w1:close()
      w2:close()
    end
    assert.is_true(n_moves > 0)
  end)

  it("asks the filter once per other, in the order met, as world:move does", function()
    local w = obb.world2()
    w:add("a", 3, 0, 0.2, 2)
    w:add("b", 6, 0, 0.2, 2)
    w:add("box", 0, 0, 1, 0.5)
    local asked = {}
    local x, _, n = w:move("box", 9, 0, 0.3, function(item, other, nx, ny, t, d)
      asked[#asked + 1] = { item, other, t >= 0 and t <= 1, d }
      assert.is_true(abs(nx * nx + ny * ny - 1) < 1e-12)
      return "cross"
    end)
    assert.same({ 9, 2 }, { x, n })
    assert.same({ { "box", "a", true, 0 }, { "box", "b", true, 0 } }, asked)
    w:close()
  end)

  it("makes no garbage with a reused out table", function()
    local w = obb.world2()
    w:add("wall", 5, 0, 0.1, 5)
    w:add("box", 0, 0, 1, 0.5)
    local out = {}
    w:move("box", 8, 1, 0.5, nil, out)
    local kib = H.kib_allocated_by(function()
      for i = 1, 2000 do
        w:update("box", 0, 0, 1, 0.5, 0)
        w:move("box", 8, 1 + i * 1e-4, 0.5, nil, out)
      end
    end)
    assert.is_true(kib < 4, kib .. " KiB")
    w:close()
  end)

  it("raises clear errors and leaves the world as it was", function()
    local w = obb.world2()
    w:add("wall", 0, 0, 1, 1)
    local p = {}
    w:add(p, 5, 0, 1, 1, 0.25)
    local function same()
      local x, y, hx, hy, a = w:get(p)
      assert.same({ 5, 0, 1, 1, obb.new2(5, 0, 1, 1, 0.25):angle() }, { x, y, hx, hy, a })
    end
    -- (called as w.move(w, ...): the arguments count from the world)
    H.assert_argerror(5, "move", "finite number expected, got nan", w.move, w, p, 0, 0, 0 / 0)
    H.assert_argerror(5, "move", "finite number expected, got inf", w.move, w, p, 0, 0, math.huge)
    H.assert_argerror(5, "check", "finite number expected, got -inf", w.check, w, p, 0, 0, -math.huge)
    H.assert_argerror(6, "move", "unknown response 'slid'", w.move, w, p, 0, 0, 1, "slid")
    H.assert_argerror(6, "move", "function, response name, obb.responses or nil expected, got number",
      w.move, w, p, 0, 0, 1, 5)
    H.assert_argerror(7, "move", "table or nil expected, got number", w.move, w, p, 0, 0, 1, nil, 5)
    H.assert_argerror(8, "move", "no value expected, got number", w.move, w, p, 0, 0, 1, nil, {}, 1)
    H.assert_argerror(6, "move", "filter returned a boolean (a response name, false or nil expected)",
      w.move, w, p, 0, 0, 1, function() return true end)
    same()
    H.assert_error_text("boom", w.move, w, p, 0, 0, 1, function() error("boom") end)
    H.assert_error_text("cannot remove items of a world during its query",
      w.move, w, p, 0, 0, 1, function() w:remove("wall") end)
    H.assert_error_text("cannot move items of a world during its query",
      w.move, w, p, 0, 0, 1, function() w:move(p, 1, 1, 2) end)
    H.assert_error_text("cannot close a world during its query",
      w.move, w, p, 0, 0, 1, function() w:close() end)
    H.assert_filter_yield(coroutine.create(function() return w:move(p, 0, 0, 1, function() coroutine.yield() end) end))
    same()
    assert.is_true(w:has("wall"))
    -- a filter that queries the world is fine
    local seen
    w:move(p, 0, 0, 1, function(_, other) seen = w:query_point(0, 0, {}); return other and "touch" end)
    assert.equal(1, seen)
    w:close()
    H.assert_error_text("world is closed", w.move, w, p, 0, 0, 1)
    H.assert_error_text("world is closed", w.check, w, p, 0, 0, 1)
  end)
end)

-- ---- 3D ---------------------------------------------------------------------------

local unpack = H.unpack

-- The pair band of two 3D boxes.
local function band3(a, b)
  local ca, cb, ea, eb = { a:center() }, { b:center() }, { a:half_extents() }, { b:half_extents() }
  local S, M = 0, 0
  for i = 1, 3 do
    S = S + abs(cb[i] - ca[i]) + ea[i] + eb[i]
    M = max(M, abs(ca[i]), abs(cb[i]))
  end
  return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
end

local function depth3(a, b)
  local _, _, _, d = a:penetration(b)
  return d or 0
end

local function box3_of(w, item) return w:get(item, obb.new3(0, 0, 0, 1, 1, 1)) end

-- The leg from box by d turning by angle about the unit axis k, at time s.
local function pose3(box, d, k, angle, s)
  local c, e = { box:center() }, { box:half_extents() }
  local q = H.quat_mul(H.quat_axis_angle(k[1], k[2], k[3], angle * s), { box:rotation() })
  return obb.new3(c[1] + d[1] * s, c[2] + d[2] * s, c[3] + d[3] * s, e[1], e[2], e[3], unpack(q))
end

local function reference3(box, d, k, angle, other)
  return first_contact(function(s) return pose3(box, d, k, angle, s) end, other)
end

-- The largest difference between the axes of two boxes.
local function axes_apart(a, b)
  local x, y = { a:axes() }, { b:axes() }
  local m = 0
  for i = 1, 9 do m = max(m, abs(x[i] - y[i])) end
  return m
end

local function random_axis(r)
  local x, y, z, l
  repeat
    x, y, z = r(-1, 1), r(-1, 1), r(-1, 1)
    l = math.sqrt(x * x + y * y + z * z)
  until l > 0.1 and l <= 1
  return { x / l, y / l, z / l }
end

describe("world:move with a goal rotation (3D)", function()
  it("turns by the rotation from box:rotation() to the goal quaternion", function()
    local w = obb.world3()
    w:add("box", 1, 2, 3, 2, 1, 0.5)
    local q = H.quat_axis_angle(0, 0, 1, 0.5)
    local x, y, z, n, qx, qy, qz, qw = w:move("box", 4, 5, 6, unpack(q))
    assert.same({ 4, 5, 6, 0 }, { x, y, z, n })
    assert.is_true(abs(qz - q[3]) < 1e-15 and abs(qw - q[4]) < 1e-15 and qx == 0 and qy == 0)
    assert.same({ qx, qy, qz, qw }, { box3_of(w, "box"):rotation() })
    -- the goal at any scale; check does not commit
    local cx, _, _, _, cqx, cqy, cqz, cqw = w:check("box", 0, 0, 0, 0, 0, 0, -7)
    assert.equal(0, cx)
    assert.is_true(abs(cqz) < 1e-15 and abs(cqw - 1) < 1e-15 and cqx == 0 and cqy == 0)
    assert.equal(4, (w:get("box")))
    w:close()
  end)

  it("touch: stops turning and moving at the first contact, never later than the reference", function()
    local r = H.rng(3303).range
    local cases = LIGHT and 150 or 800
    local hits = 0
    for i = 1, cases do
      local w = obb.world3()
      local thin = i % 2 == 0
      local other = obb.new3(r(-2, 2), r(-2, 2), r(-2, 2), thin and r(0.5, 3) or r(0.2, 1.5),
        thin and r(0.005, 0.05) or r(0.2, 1.5), r(0.2, 2), H.rng(i).quat())
      w:add("other", other)
      local me
      repeat
        me = obb.new3(r(-5, 5), r(-5, 5), r(-5, 5), r(0.1, 2), r(0.05, 1), r(0.05, 1), H.rng(i + 9999).quat())
      until not me:intersects(other)
      w:add("me", me)
      local c, oc = { me:center() }, { other:center() }
      local d = { r(-8, 8), r(-8, 8), r(-8, 8) }
      if i % 4 < 2 then
        local k = r(0.5, 2)
        for j = 1, 3 do d[j] = (oc[j] - c[j]) * k + r(-0.5, 0.5) end
      end
      local axis, angle = random_axis(r), i % 3 == 0 and r(0, 6) or r(0, 2)
      local goal = H.quat_mul(H.quat_axis_angle(axis[1], axis[2], axis[3], angle), { me:rotation() })
      -- the move turns the short way: by angle - 2 pi beyond pi
      if angle > pi then angle = angle - 2 * pi end
      local out = {}
      local x, y, z, n = w:move("me", c[1] + d[1], c[2] + d[2], c[3] + d[3], goal[1], goal[2],
        goal[3], goal[4], "touch", out)
      local t_ref, t_sample = reference3(me, d, axis, angle, other)
      local now = box3_of(w, "me")
      if n == 0 then
        assert.is_nil(t_ref, ("case %d: missed a contact at %s"):format(i, tostring(t_ref)))
        assert.is_true(axes_apart(now, pose3(me, d, axis, angle, 1)) < 1e-9)
      else
        local t = out[3]
        hits = hits + 1
        assert.same({ x, y, z }, { out[7], out[8], out[9] })
        assert.is_true(now:intersects(other), ("case %d: stopped apart"):format(i))
        assert.is_true(axes_apart(now, pose3(me, d, axis, angle, t)) < 1e-9, ("case %d: turned wrong"):format(i))
        if t_ref then
          assert.is_true(t <= t_sample, ("case %d: t %.17g after the sample %.17g"):format(i, t, t_sample))
          assert.is_true(t <= t_ref + 1e-9)
        end
        for k = 0, 16 do
          local p = pose3(me, d, axis, angle, t * k / 16)
          assert.is_true(depth3(p, other) <= band3(p, other), ("case %d: a pose overlaps"):format(i))
        end
      end
      w:close()
    end
    assert.is_true(hits > cases / 5, hits .. " hits")
  end)

  it("rooms of thin walls: nothing ends deeper than the band, nothing leaves", function()
    local r = H.rng(5353).range
    local scenes = LIGHT and 30 or 150
    for scene = 1, scenes do
      local w = obb.world3()
      local T = r(0.005, 0.1)
      local items = {}
      for k, b in ipairs({ { 0, 0, 5, 5, 5, T }, { 0, 0, -5, 5, 5, T }, { 0, 5, 0, 5, T, 5 },
                           { 0, -5, 0, 5, T, 5 }, { 5, 0, 0, T, 5, 5 }, { -5, 0, 0, T, 5, 5 } }) do
        w:add("wall" .. k, unpack(b))
        items[#items + 1] = "wall" .. k
      end
      for k = 1, 4 do
        w:add("bar" .. k, r(-4, 4), r(-4, 4), r(-4, 4), r(0.1, 2), r(0.005, 0.1), r(0.1, 1),
          H.rng(scene * 10 + k).quat())
        items[#items + 1] = "bar" .. k
      end
      w:add("me", r(-1, 1), r(-1, 1), r(-1, 1), r(0.2, 1.5), r(0.05, 0.8), r(0.05, 0.8),
        H.rng(scene).quat())
      local resp = ({ "slide", "bounce", "touch" })[1 + scene % 3]
      for step = 1, 12 do
        local from = box3_of(w, "me")
        local boxes = {}
        for _, item in ipairs(items) do boxes[item] = box3_of(w, item) end
        local c = { from:center() }
        local axis = random_axis(r)
        local turn = step % 4 == 0 and r(-40, 40) or r(-3, 3)
        local goal = H.quat_mul(H.quat_axis_angle(axis[1], axis[2], axis[3], turn), { from:rotation() })
        local x, y, z = w:move("me", c[1] + r(-12, 12), c[2] + r(-12, 12), c[3] + r(-12, 12),
          goal[1], goal[2], goal[3], goal[4], function(_, o) return o:match("^wall") and "slide" or resp end)
        local what = ("scene %d step %d"):format(scene, step)
        assert.is_true(abs(x) < 5 and abs(y) < 5 and abs(z) < 5, what .. ": left the room")
        local now = box3_of(w, "me")
        for other, b in pairs(boxes) do
          local d0, d1 = depth3(from, b), depth3(now, b)
          if d0 <= band3(from, b) then
            assert.is_true(d1 <= 2 * band3(now, b), ("%s: inside %s by %g"):format(what, other, d1))
          else
            assert.is_true(d1 <= d0 + 2 * band3(now, b), ("%s: deeper into %s"):format(what, other))
          end
        end
      end
      w:close()
    end
  end)

  it("slides keep the tangential move; a turn that drives the item in stops", function()
    local w = obb.world3()
    w:add("floor", 0, -0.5, 0, 50, 0.5, 50)
    -- flush on the floor: turning about x swings an edge into it
    w:add("box", 0, 0.5, 0, 2, 0.5, 1)
    local q = H.quat_axis_angle(1, 0, 0, 0.4)
    local x, y, z, _, qx, _, _, qw = w:move("box", 3, -2, 4, unpack(q))
    assert.same({ 3, 4 }, { x, z })
    assert.is_true(abs(y - 0.5) < 1e-9)
    assert.is_true(abs(qx) < 1e-9 and abs(qw - 1) < 1e-9, "turned by " .. qx)
    -- tilted about z, its lowest edge first; turning back toward flat
    -- lifts it: the turn goes on to the goal
    w:update("box", 0, 3, 0, 2, 0.5, 1, unpack(H.quat_axis_angle(0, 0, 1, -0.3)))
    local goal = H.quat_axis_angle(0, 0, 1, -0.1)
    local x2, y2, z2, n, gx, gy, gz, gw = w:move("box", 6, -3, 1, unpack(goal))
    assert.equal(1, n)
    assert.same({ 6, 1 }, { x2, z2 })
    assert.is_true(y2 > 0.5)
    assert.is_true(abs(gz - goal[3]) < 1e-12 and abs(gw - goal[4]) < 1e-12 and gx == 0 and gy == 0)
    w:close()
  end)

  it("a goal rotation equal to box:rotation() is world:move, bit for bit", function()
    local r = H.rng(7373).range
    for scene = 1, LIGHT and 20 or 80 do
      local w1, w2 = obb.world3(), obb.world3()
      for k = 1, 20 do
        local b = { r(-8, 8), r(-8, 8), r(-8, 8), r(0.05, 2), r(0.05, 2), r(0.01, 0.5) }
        local q = { H.rng(scene * 100 + k).quat() }
        w1:add(k, b[1], b[2], b[3], b[4], b[5], b[6], unpack(q))
        w2:add(k, b[1], b[2], b[3], b[4], b[5], b[6], unpack(q))
      end
      local q0 = { H.rng(scene).quat() }
      w1:add("me", 0, 0, 0, 1, 0.5, 0.3, unpack(q0))
      w2:add("me", 0, 0, 0, 1, 0.5, 0.3, unpack(q0))
      local o1, o2 = {}, {}
      for step = 1, 10 do
        local x, y, z = w1:get("me")
        local g = { x + r(-6, 6), y + r(-6, 6), z + r(-6, 6) }
        local resp = ({ "slide", "bounce", "touch", "cross" })[1 + step % 4]
        local q = { box3_of(w1, "me"):rotation() }
        local a = { w1:move("me", g[1], g[2], g[3], q[1], q[2], q[3], q[4], resp, o1) }
        local b = { w2:move("me", g[1], g[2], g[3], resp, o2) }
        assert.same({ b[1], b[2], b[3], b[4], b[5] }, { a[1], a[2], a[3], a[4], a[9] })
        assert.same(q, { a[5], a[6], a[7], a[8] })
        assert.same(o2, o1)
        assert.same({ w2:get("me") }, { w1:get("me") })
      end
      w1:close()
      w2:close()
    end
  end)

  -- round five: the goal was multiplied out unnormalised, so a huge goal
  -- overflowed (no turn at all) and a subnormal one lost its bits (75
  -- degrees off); it is now taken to unit length as box:set_rotation takes it
  it("every scale of a goal quaternion turns the same, bit for bit, as box:set_rotation", function()
    local function same_bits(a, b)
      if #a ~= #b then return false end
      for i = 1, #a do
        if a[i] ~= b[i] or (a[i] == 0 and 1 / a[i] ~= 1 / b[i]) then return false end
      end
      return true
    end
    local function set_rotation(q)
      local b = obb.new3(0, 0, 0, 1, 1, 1)
      b:set_rotation(unpack(q))
      return { b:rotation() }
    end
    local goals = { { 1, 1, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 2, 3, 4 }, { -3, 1, 2, 1 },
      { 1, 0, 0, -1 }, { 5, -7, 1, 3 } }
    local scales, s = {}, 1.0
    for _ = 0, 1023 do scales[#scales + 1] = s; s = s * 2 end -- 2^0 .. 2^1023
    s = 0.5
    for _ = 1, 1074 do scales[#scales + 1] = s; s = s * 0.5 end -- 2^-1 .. 2^-1074
    assert.equal(2 ^ -1074, scales[#scales])
    local starts = { { 0, 0, 0, 1 }, { 0.1, -0.2, 0.3, 0.9 } }
    local compared = 0
    for _, q0 in ipairs(starts) do
      local w = obb.world3()
      local start = obb.new3(1, 2, 3, 1, 0.5, 0.25, unpack(q0))
      w:add("me", start)
      w:add("far", 100, 100, 100, 1, 1, 1)
      for _, g in ipairs(goals) do
        local ref = { w:check("me", 2, 2, 3, unpack(g)) }
        local set = set_rotation(g)
        -- the turn reaches the goal: the rotation set_rotation gives, up to
        -- the sign (a turn of half a round may end at -q) and rounding
        local dot = ref[5] * set[1] + ref[6] * set[2] + ref[7] * set[3] + ref[8] * set[4]
        assert.is_true(abs(abs(dot) - 1) < 1e-14, "goal " .. table.concat(g, ","))
        for _, k in ipairs(scales) do
          local sg = { g[1] * k, g[2] * k, g[3] * k, g[4] * k }
          if sg[1] - sg[1] == 0 and sg[2] - sg[2] == 0 and sg[3] - sg[3] == 0 and sg[4] - sg[4] == 0 then
            local c = { w:check("me", 2, 2, 3, unpack(sg)) }
            if not same_bits(ref, c) then
              error(("check to goal %s scaled by %a: %s, unscaled %s"):format(table.concat(g, ","), k,
                table.concat(c, ","), table.concat(ref, ",")))
            end
            local m = { w:move("me", 2, 2, 3, unpack(sg)) }
            assert.is_true(same_bits(ref, m))
            assert.is_true(same_bits({ ref[5], ref[6], ref[7], ref[8] }, { box3_of(w, "me"):rotation() }))
            -- set_rotation takes every such scale to the same bits too
            assert.is_true(same_bits(set, set_rotation(sg)))
            w:update("me", start)
            compared = compared + 1
          end
        end
      end
      w:close()
    end
    assert.is_true(compared > 2 * #goals * 2000)
  end)

  it("raises clear errors", function()
    local w = obb.world3()
    w:add("box", 0, 0, 0, 1, 1, 1)
    H.assert_argerror(6, "move", "finite number expected, got nan", w.move, w, "box", 0, 0, 0, 0 / 0, 0, 0, 1)
    H.assert_argerror(9, "move", "number expected, got no value", w.move, w, "box", 0, 0, 0, 0, 0, 0)
    H.assert_argerror(6, "check", "quaternion is zero", w.check, w, "box", 0, 0, 0, 0, 0, 0, 0)
    H.assert_argerror(10, "move", "unknown response 'slid'", w.move, w, "box", 0, 0, 0, 0, 0, 0, 1, "slid")
    H.assert_argerror(12, "move", "no value expected, got number", w.move, w, "box", 0, 0, 0, 0, 0, 0, 1, nil,
      {}, 1)
    w:add("wall", 3, 0, 0, 0.1, 5, 5)
    H.assert_error_text("boom", w.move, w, "box", 6, 1, 1, 0, 0, 0.1, 1, function() error("boom") end)
    H.assert_error_text("cannot remove items of a world during its query",
      w.move, w, "box", 6, 1, 1, 0, 0, 0.1, 1, function() w:remove("wall") end)
    local x, y, z = w:get("box")
    assert.same({ 0, 0, 0 }, { x, y, z })
    w:close()
    H.assert_error_text("world is closed", w.move, w, "box", 0, 0, 0, 0, 0, 0, 1)
  end)
end)
