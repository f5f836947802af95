-- box:sweep(other, va..., vb...): time of first contact over one step.
local obb = require "obb"
local H = require "spec.helpers"
local C = require "spec.collide_helpers"

local unpack = H.unpack
local SQRT2 = math.sqrt(2)

local function assert_sweep(want_t, want_n, tol, ...)
  local r = { ... }
  assert(r[1] ~= nil, "expected a contact, got nil")
  assert(H.near(r[1], want_t, tol or 1e-15),
    "t = " .. string.format("%.17g", r[1]) .. ", expected " .. want_t)
  H.assert_near_list({ select(2, unpack(r)) }, want_n, tol or 1e-15, "normal")
end

-- Independent reference: per candidate axis, the interval of times in
-- which the corner projections overlap; first contact is the latest entry
-- if it comes before the earliest exit. Returns t and the runner-up entry.
local function ref_sweep(a, b, va, vb)
  local w = {}
  for k = 1, #va do w[k] = vb[k] - va[k] end
  local enter, second, exit = -math.huge, -math.huge, math.huge
  for _, L in ipairs(C.candidates(a, b)) do
    local alo, ahi = C.project(a, L)
    local blo, bhi = C.project(b, L)
    local v = C.dot(w, L)
    local t0, t1
    if v == 0 then
      if blo > ahi or bhi < alo then return nil end
      t0, t1 = -math.huge, math.huge
    elseif v > 0 then
      t0, t1 = (alo - bhi) / v, (ahi - blo) / v
    else
      t0, t1 = (ahi - blo) / v, (alo - bhi) / v
    end
    if t0 > enter then enter, second = t0, enter
    elseif t0 > second then second = t0 end
    exit = math.min(exit, t1)
  end
  if enter > exit or enter > 1 or exit < 0 then return nil end
  return math.max(enter, 0), second
end

describe("sweep (2D)", function()
  it("finds when a moving box reaches a still one", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_sweep(0.75, { -1, 0 }, 0, a:sweep(obb.new2(5, 0.5, 1, 1), 0, 0, -4, 0))
    assert_sweep(0.75, { 1, 0 }, 0, a:sweep(obb.new2(-5, 0.5, 1, 1), 0, 0, 4, 0))
    -- a moving into b: the same time, and the normal is still a's way out
    assert_sweep(0.75, { -1, 0 }, 0, a:sweep(obb.new2(5, 0.5, 1, 1), 4, 0, 0, 0))
    assert_sweep(0.75, { -1, 0 }, 0, a:sweep(obb.new2(5, 0.5, 1, 1), 2, 0, -2, 0))
    assert_sweep(0.5, { 0, -1 }, 0, a:sweep(obb.new2(0.5, 3, 1, 1), 0, 1, 0, -1))
  end)

  it("returns nil when the boxes stay apart during the step", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.is_nil(a:sweep(obb.new2(5, 0, 1, 1), 1, 0, -1, 0)) -- reach at 1.5
    assert.is_nil(a:sweep(obb.new2(5, 0, 1, 1), 0, 0, 4, 0)) -- moving away
    assert.is_nil(a:sweep(obb.new2(5, 3, 1, 1), 0, 0, -10, 0)) -- passes by
    assert.is_nil(a:sweep(obb.new2(5, 0, 1, 1), 0, 0, 0, 0)) -- not moving
  end)

  it("reports t = 1 for contact at the end of the step", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_sweep(1, { -1, 0 }, 0, a:sweep(obb.new2(6, 0, 1, 1), 0, 0, -4, 0))
  end)

  it("reports t = 0 and the penetration normal when already touching", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_sweep(0, { -1, 0 }, 0, a:sweep(obb.new2(1.5, 0.2, 1, 1), 0, 0, 5, 5))
    assert_sweep(0, { -1, 0 }, 0, a:sweep(obb.new2(2, 0, 1, 1), 0, 0, 3, 0))
    assert_sweep(0, { 0, -1 }, 0, a:sweep(obb.new2(0, 2, 1, 1), 0, 0, 0, 0))
  end)

  it("catches a fast box tunnelling through a thin wall", function()
    local wall = obb.new2(0, 0, 0.05, 2)
    local bullet = obb.new2(-3, 0, 0.5, 0.5)
    assert.is_false(wall:intersects(bullet))
    assert.is_false(wall:intersects(bullet:clone():translate(6, 0)))
    assert_sweep(2.45 / 6, { 1, 0 }, 1e-15, wall:sweep(bullet, 0, 0, 6, 0))
    -- and from the bullet's side the normal is its own way out
    assert_sweep(2.45 / 6, { -1, 0 }, 1e-15, bullet:sweep(wall, 6, 0, 0, 0))
  end)

  it("handles rotated boxes and grazing contact", function()
    local a = obb.new2(0, 0, 1, 1)
    -- a diamond's corner falls onto a's top face
    assert_sweep((4 - SQRT2) / 4, { 0, -1 }, 1e-15,
      a:sweep(obb.new2(0.3, 5, 1, 1, math.pi / 4), 0, 0, 0, -4))
    -- b slides along a's top line, touching it all the way: contact when
    -- the x gap closes
    assert_sweep(0.25, { -1, 0 }, 0, a:sweep(obb.new2(3, 2, 1, 1), 0, 0, -4, 0))
    -- corners that meet at one instant only
    assert_sweep(0.5, { -1, 0 }, 0, a:sweep(obb.new2(4, 4, 1, 1), 0, 0, -4, -4))
    -- falling past a's side: touching it, or just missing
    assert_sweep(0.3, { 0, -1 }, 0, a:sweep(obb.new2(2, 5, 1, 1), 0, 0, 0, -10))
    assert.is_nil(a:sweep(obb.new2(2 + 1e-9, 5, 1, 1), 0, 0, 0, -10))
  end)

  it("handles degenerate boxes", function()
    local sq = obb.new2(0, 0, 1, 1)
    -- a point moving into the box is a ray cast
    assert_sweep(2 / 6, { -1, 0 }, 1e-15,
      obb.new2(-3, 0.5, 0, 0):sweep(sq, 6, 0, 0, 0))
    -- a segment falling flat onto the box
    assert_sweep(0.5, { 0, -1 }, 0, obb.new2(0, -3, 5, 0):sweep(sq, 0, 4, 0, 0))
    -- two points meeting head on
    assert_sweep(0.5, { -1, 0 }, 0,
      obb.new2(0, 0, 0, 0):sweep(obb.new2(1, 0, 0, 0), 1, 0, -1, 0))
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    local a = obb.new2(o, o, 1, 1)
    assert_sweep(0.75, { -1, 0 }, 0, a:sweep(obb.new2(o + 5, o + 0.5, 1, 1), 0, 0, -4, 0))
    assert_sweep((4 - SQRT2) / 4, { 0, -1 }, 1e-14,
      a:sweep(obb.new2(o + 0.25, o + 5, 1, 1, math.pi / 4), 0, 0, 0, -4))
  end)

  it("rejects bad arguments", function()
    local a = obb.new2(0, 0, 1, 1)
    H.assert_argerror(2, "sweep", "finite number expected, got nan",
      function() return a:sweep(a, 0 / 0, 0, 0, 0) end)
    H.assert_argerror(5, "sweep", "number expected, got no value",
      function() return a:sweep(a, 1, 2, 3) end)
    H.assert_argerror(3, "sweep", "number expected, got string",
      function() return a:sweep(a, 1, "2", 3, 4) end)
    H.assert_argerror(6, "sweep", "no value expected, got number",
      function() return a:sweep(a, 1, 2, 3, 4, 5) end)
    H.assert_argerror(1, "sweep", "obb.obb2 expected, got obb.obb3",
      function() return a:sweep(obb.new3(0, 0, 0, 1, 1, 1), 1, 2, 3, 4) end)
  end)
end)

describe("sweep (3D)", function()
  it("finds when a moving box reaches a still one", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    assert_sweep(0.75, { -1, 0, 0 }, 0,
      a:sweep(obb.new3(5, 0.5, 0.2, 1, 1, 1), 0, 0, 0, -4, 0, 0))
    assert_sweep(0.5, { 0, 0, 1 }, 0,
      a:sweep(obb.new3(0.5, 0.2, -3, 1, 1, 1), 0, 0, -1, 0, 0, 1))
    assert.is_nil(a:sweep(obb.new3(5, 0, 0, 1, 1, 1), 0, 0, 0, -2, 0, 0))
    assert.is_nil(a:sweep(obb.new3(5, 0, 3, 1, 1, 1), 0, 0, 0, -10, 0, 0))
  end)

  it("finds an edge-edge first contact", function()
    -- a's top edge along x, b's bottom edge along y, b falling onto it
    local a = obb.new3(0, 0, 0, 1, 1, 1,
      unpack(H.quat_axis_angle(1, 0, 0, math.pi / 4)))
    local b = obb.new3(0, 0, 5, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 1, 0, math.pi / 4)))
    assert_sweep((5 - 2 * SQRT2) / 4, { 0, 0, -1 }, 1e-15,
      a:sweep(b, 0, 0, 0, 0, 0, -4))
    -- shifted sideways past a's end, it misses
    assert.is_nil(a:sweep(b:clone():translate(3, 0, 0), 0, 0, 0, 0, 0, -4))
  end)

  it("handles nearly parallel boxes", function()
    -- b turned by 1e-9 about z falls flat onto a: the edge axes are nearly
    -- parallel to the faces and must not change the answer
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    local b = obb.new3(0.3, 0.2, 4, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 0, 1, 1e-9)))
    assert_sweep(0.5, { 0, 0, -1 }, 1e-14, a:sweep(b, 0, 0, 0, 0, 0, -4))
    -- sliding sideways past a at a 1e-9 gap in x: no contact
    local c = obb.new3(2 + 1e-9, 0, 0.5, 1, 1, 1)
    assert.is_nil(a:sweep(c, 0, 0, 0, 0, 5, 0))
  end)

  it("reports t = 0 when already touching, t = 1 at the end", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    assert_sweep(0, { 0, 0, -1 }, 0,
      a:sweep(obb.new3(0, 0, 2, 1, 1, 1), 0, 0, 0, 0, 0, 1))
    assert_sweep(1, { 0, 0, -1 }, 0,
      a:sweep(obb.new3(0, 0, 4, 1, 1, 1), 0, 0, 1, 0, 0, -1))
  end)

  it("handles degenerate boxes and tunnelling", function()
    local slab = obb.new3(0, 0, 0, 2, 2, 0)
    local p = obb.new3(0.5, 0.5, 3, 0, 0, 0)
    assert_sweep(0.5, { 0, 0, 1 }, 0, p:sweep(slab, 0, 0, -6, 0, 0, 0))
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    local a = obb.new3(o, o, o, 1, 1, 1)
    assert_sweep(0.75, { -1, 0, 0 }, 0,
      a:sweep(obb.new3(o + 5, o + 0.5, o, 1, 1, 1), 0, 0, 0, -4, 0, 0))
  end)

  it("rejects bad arguments", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(7, "sweep", "finite number expected, got inf",
      function() return a:sweep(a, 0, 0, 0, 0, 0, 1 / 0) end)
    H.assert_argerror(7, "sweep", "number expected, got no value",
      function() return a:sweep(a, 0, 0, 0, 0, 0) end)
    H.assert_argerror(3, "sweep", "number expected, got nil",
      function() return a:sweep(a, 0, nil, 0, 0, 0, 0) end)
    H.assert_argerror(8, "sweep", "no value expected, got number",
      function() return a:sweep(a, 0, 0, 0, 0, 0, 0, 0) end)
  end)
end)

describe("sweep (random pairs)", function()
  for _, dim in ipairs({ 2, 3 }) do
    local make = dim == 2 and C.random2 or C.random3
    local rigid = dim == 2 and C.rigid2 or C.rigid3

    local function args(va, vb)
      local t = {}
      for k = 1, dim do t[k], t[dim + k] = va[k], vb[k] end
      return t
    end

    local function vel(r)
      local v = {}
      for k = 1, dim do v[k] = r.range(-6, 6) end
      return v
    end

    it(dim .. "D: t agrees with intersects, and with an independent sweep", function()
      local r = H.rng(dim * 77)
      local hits, zeros = 0, 0
      for _ = 1, 2000 do
        local a, b = make(r, 5), make(r, 5)
        local va, vb = vel(r), vel(r)
        local s = C.scale(a, b)
        local w, wl = {}, 0
        for k = 1, dim do w[k] = vb[k] - va[k]; wl = wl + w[k] * w[k] end
        wl = math.sqrt(wl)
        local res = { a:sweep(b, unpack(args(va, vb))) }
        local want = ref_sweep(a, b, va, vb)
        local t = res[1]
        if t == nil then
          assert(want == nil, "missed contact at " .. tostring(want))
          for i = 0, 10 do -- and nothing touches along the way
            local u = i / 10
            assert.is_false(C.moved(a, va, u):intersects(C.moved(b, vb, u)))
          end
        else
          assert(want ~= nil, "invented contact at " .. t)
          assert(math.abs(t - want) <= 1e-9 * (1 + s / wl), "t " .. t .. " vs " .. want)
          local n = { select(2, unpack(res)) }
          assert(math.abs(C.dot(n, n) - 1) < 1e-14)
          if t == 0 then
            zeros = zeros + 1
            assert.is_true(a:intersects(b))
          else
            hits = hits + 1
            assert.is_false(a:intersects(b))
            local at, bt = C.moved(a, va, t), C.moved(b, vb, t)
            -- touching at t, apart a hair before
            assert.is_true(at:intersects(bt))
            local before = t - 1e-9 * s / wl
            if before > 0 then
              assert.is_false(C.moved(a, va, before):intersects(C.moved(b, vb, before)))
            end
            -- the normal separates them at t, and points away from b
            assert(math.abs(C.overlap(at, bt, n)) <= 1e-9 * s)
            assert.is_true(C.overlap(C.moved(at, n, 1e-6 * s), bt, n) < 0)
          end
        end
      end
      assert.is_true(hits > 80 and zeros > 20) -- both outcomes exercised
    end)

    it(dim .. "D: a rigid motion of both boxes and velocities changes nothing", function()
      local r = H.rng(dim * 78)
      for _ = 1, 1500 do
        local a, b = make(r, 5), make(r, 5)
        local va, vb = vel(r), vel(r)
        local m, turn = rigid(r)
        local p = { a:sweep(b, unpack(args(va, vb))) }
        local q = { a:clone():transform(unpack(m)):sweep(
          b:clone():transform(unpack(m)), unpack(args(turn(va), turn(vb)))) }
        local want, second = ref_sweep(a, b, va, vb)
        if want and want > 1e-6 and want < 1 - 1e-6 then
          assert.are.equal(#p, #q)
          assert(math.abs(p[1] - q[1]) <= 1e-9)
          if want - second > 1e-6 then -- not a tie between axes
            H.assert_near_list({ select(2, unpack(q)) },
              turn({ select(2, unpack(p)) }), 1e-9, "turned normal")
          end
        end
      end
    end)
  end
end)
