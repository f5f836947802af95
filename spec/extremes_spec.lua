-- spec/extremes_spec.lua: numerical extremes, the range where answers are
-- exact (docs/reference.md, "Precision").
--
-- Each family is built so that the true answer is known in closed form
-- from the doubles actually stored (the gap is measured from the rounded
-- centers, never from the intended ones), and the tested gaps are far
-- outside the rounding band but far inside the sizes involved: coordinates
-- of 1e7 with boxes of 1e-3, boxes of 1e6 next to boxes of 1e-6, nearly
-- parallel edges down to 1e-12 rad, nearly degenerate quaternions, and
-- exact touching.
local obb = require "obb"
local H = require "helpers"

local sqrt, cos, sin, pi = math.sqrt, math.cos, math.sin, math.pi

-- Rotates vector v by unit quaternion q.
local function qrot(q, v)
  local a = H.quat_axes(q[1], q[2], q[3], q[4])
  return {
    a[1][1] * v[1] + a[2][1] * v[2] + a[3][1] * v[3],
    a[1][2] * v[1] + a[2][2] * v[2] + a[3][2] * v[3],
    a[1][3] * v[1] + a[2][3] * v[2] + a[3][3] * v[3],
  }
end

local function new3(c, e, q)
  return obb.new3(c[1], c[2], c[3], e[1], e[2], e[3], q[1], q[2], q[3], q[4])
end

local function assert_orthonormal(b, tol, what)
  local a = { b:axes() }
  for i = 0, 2 do
    for j = i, 2 do
      local d = a[3 * i + 1] * a[3 * j + 1] + a[3 * i + 2] * a[3 * j + 2] +
        a[3 * i + 3] * a[3 * j + 3]
      local want = i == j and 1 or 0
      assert(math.abs(d - want) <= tol, (what or "axes") .. ": axes " .. i .. "." .. j ..
        " = " .. string.format("%.17g", d))
    end
  end
end

local function check(got, want, what)
  if got ~= want then
    error(what .. ": expected " .. tostring(want) .. ", got " .. tostring(got), 2)
  end
end

describe("coordinates up to 1e7 with boxes of size 1e-3", function()
  local h = 0.5e-3 -- half extent: boxes of size 1e-3
  local rng = H.rng(7)

  it("2D: decides gaps of 1e-8 (1e-5 of the boxes' size) both ways", function()
    for _, base in ipairs({ { 1e7, -1e7 }, { -1e7, 3e6 }, { 9999999.5, 1e7 } }) do
      for _, g in ipairs({ 1e-8, -1e-8, 1e-7, -1e-7 }) do
        local ax, ay = base[1], base[2]
        local bx = ax + 2 * h + g
        -- the gap between the stored centers, computed exactly (Sterbenz)
        local real = (bx - ax) - 2 * h
        local a = obb.new2(ax, ay, h, h)
        local b = obb.new2(bx, ay, h, h)
        check(a:intersects(b), real <= 0, "axis-aligned gap " .. g)
        check(b:intersects(a), real <= 0, "axis-aligned gap " .. g .. " swapped")
      end
    end
  end)

  it("2D: rotated boxes side by side at 1e7, gaps of 1e-7", function()
    for _ = 1, 50 do
      local ang = rng.range(-pi, pi)
      local ux, uy = cos(ang), sin(ang)
      local ax, ay = rng.range(-1e7, 1e7), rng.range(-1e7, 1e7)
      for _, g in ipairs({ 1e-7, -1e-7 }) do
        local s = 2 * h + g
        local a = obb.new2(ax, ay, h, h * 0.5, ang)
        local b = obb.new2(ax + s * ux, ay + s * uy, h, h * 0.5, ang)
        -- rounding the centers moves them by at most ~1e-9: the sign holds
        check(a:intersects(b), g < 0, "rotated gap " .. g)
        check(b:intersects(a), g < 0, "rotated gap " .. g .. " swapped")
      end
    end
  end)

  it("3D: rotated boxes face to face at 1e7, gaps of 1e-7", function()
    for _ = 1, 50 do
      local q = { rng.quat() }
      local c = { rng.range(-1e7, 1e7), rng.range(-1e7, 1e7), rng.range(-1e7, 1e7) }
      local e = { h, h * 0.7, h * 0.3 }
      local axis = rng.int(1, 3)
      for _, g in ipairs({ 1e-7, -1e-7 }) do
        local off = { 0, 0, 0 }
        off[axis] = 2 * e[axis] + g
        local w = qrot(q, off)
        local a = new3(c, e, q)
        local b = new3({ c[1] + w[1], c[2] + w[2], c[3] + w[3] }, e, q)
        check(a:intersects(b), g < 0, "3D gap " .. g)
        check(b:intersects(a), g < 0, "3D gap " .. g .. " swapped")
      end
    end
  end)

  it("contains points 1e-8 inside and not 1e-8 outside a box at 1e7", function()
    local b = obb.new2(1e7, 1e7, h, h, 0.3)
    local ux, uy = cos(0.3), sin(0.3)
    for _, t in ipairs({ h - 1e-8, -(h - 1e-8) }) do
      assert.is_true(b:contains(1e7 + t * ux, 1e7 + t * uy))
    end
    for _, t in ipairs({ h + 1e-8, -(h + 1e-8) }) do
      assert.is_false(b:contains(1e7 + t * ux, 1e7 + t * uy))
    end
  end)
end)

-- The touching band of a pair this size is about 2e-6 (2^-40 of S, which
-- counts the big box's extents), so a small box 1e-9 off the big one's
-- face touches it, and one 1e-4 off is apart.
describe("boxes of size 1e6 next to boxes of size 1e-6", function()
  local rng = H.rng(11)

  it("axis-aligned: gaps of 1e-9 against a face touch, gaps of 1e-4 are apart", function()
    local big = obb.new2(0, 0, 1e6, 1e6)
    for _, g in ipairs({ 1e-4, 1e-9, -1e-9 }) do
      local x = 1e6 + 1e-6 + g
      local real = (x - 1e6) - 1e-6 -- exact: both near 1e6
      local small = obb.new2(x, 12345.678, 1e-6, 1e-6)
      check(big:intersects(small), real <= 1e-6, "gap " .. g)
      check(small:intersects(big), real <= 1e-6, "gap " .. g .. " swapped")
    end
    local big3 = obb.new3(0, 0, 0, 1e6, 1e6, 1e6)
    for _, g in ipairs({ 1e-4, 1e-9, -1e-9 }) do
      local z = 1e6 + 1e-6 + g
      local small = obb.new3(-777.25, 4242.5, z, 1e-6, 1e-6, 1e-6, 0.1, 0.2, 0.3, 0.9)
      -- the small box is turned, so its reach along z is its support
      local q = { small:rotation() }
      local ax = H.quat_axes(q[1], q[2], q[3], q[4])
      local reach = 1e-6 * (math.abs(ax[1][3]) + math.abs(ax[2][3]) + math.abs(ax[3][3]))
      local real = (z - 1e6) - reach
      check(big3:intersects(small), real <= 1e-6, "3D gap " .. g)
      check(small:intersects(big3), real <= 1e-6, "3D gap " .. g .. " swapped")
    end
  end)

  it("rotated: a 1e-6 box 1e-4 off a turned 1e6 face is apart; 1e-8 off or into it touches", function()
    for _ = 1, 50 do
      local q = { rng.quat() }
      local big = new3({ 0, 0, 0 }, { 1e6, 2e5, 3e5 }, q)
      -- a small box with the same turn, just off the big one's +x face
      for _, g in ipairs({ 1e-4, 1e-8, -1e-8 }) do
        local local_c = { 1e6 + 1e-6 + g, rng.range(-1e5, 1e5), rng.range(-1e5, 1e5) }
        local c = qrot(q, local_c)
        local small = new3(c, { 1e-6, 1e-6, 1e-6 }, q)
        check(big:intersects(small), g < 1e-6, "gap " .. g)
        check(small:intersects(big), g < 1e-6, "gap " .. g .. " swapped")
      end
    end
  end)
end)

describe("nearly parallel edges", function()
  local rng = H.rng(12)
  local deltas = { 0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3 }

  -- Unit cubes a and b, b turned by delta about n = (0, 1, 1)/sqrt 2 and
  -- moved along n until their x-edges meet, then by g: a turn about n keeps
  -- b's reach along n, so they are apart by exactly g along n when g > 0,
  -- and overlap in a sliver when g < 0 and the turn moves no corner as far.
  -- The separating axis is the cross product of two nearly parallel edges,
  -- the axis on which rounding alone used to report a false separation.
  it("3D: edge against nearly parallel edge, gaps of 1e-9", function()
    local r2 = sqrt(2)
    local n = { 0, 1 / r2, 1 / r2 }
    for _, d in ipairs(deltas) do
      for _ = 1, 20 do
        local Q = { rng.quat() } -- the whole scene turned at random
        local s = sin(d / 2)
        local turn = { 0, s / r2, s / r2, cos(d / 2) }
        for _, g in ipairs({ 1e-9, -math.max(1e-9, 1e3 * d) }) do
          if g < 0 and d >= 1e-6 then break end
          local a = new3({ 0, 0, 0 }, { 1, 1, 1 }, Q)
          local dist = 2 * r2 + g
          local c = qrot(Q, { 0, dist * n[2], dist * n[3] })
          local b = new3(c, { 1, 1, 1 }, H.quat_mul(Q, turn))
          check(a:intersects(b), g < 0, "delta " .. d .. " gap " .. g)
          check(b:intersects(a), g < 0, "delta " .. d .. " gap " .. g .. " swapped")
        end
      end
    end
  end)

  -- Boxes stacked along z, the upper turned by delta about z: the face axis
  -- decides, and the edge axes a_x x b_x, nearly zero, must not overrule it.
  it("3D: stacked boxes turned by a tiny angle, gaps of 1e-9", function()
    for _, d in ipairs(deltas) do
      for _, g in ipairs({ 1e-9, -1e-9, 0 }) do
        local a = obb.new3(0, 0, 0, 2, 1, 0.5)
        local b = obb.new3(0.25, -0.125, 1 + g, 2, 1, 0.5, 0, 0, sin(d / 2), cos(d / 2))
        local want = g <= 0
        check(a:intersects(b), want, "delta " .. d .. " gap " .. g)
        check(b:intersects(a), want, "delta " .. d .. " gap " .. g .. " swapped")
      end
    end
  end)

  -- 2D: b turned by delta, beside a along x, centers level. b's reach
  -- along -x is cos(delta) + sin(delta), at its corner (-1, +1), which
  -- stays level with a (y = cos - sin < 1): the gap is exactly g.
  it("2D: side by side with one turned by a tiny angle", function()
    for _, d in ipairs(deltas) do
      local reach = cos(d) + sin(d)
      for _, g in ipairs({ 1e-9, -1e-9 }) do
        local x = 1 + reach + g
        local a = obb.new2(0, 0, 1, 1)
        local b = obb.new2(x, 0, 1, 1, d)
        check(a:intersects(b), g < 0, "delta " .. d .. " gap " .. g)
        check(b:intersects(a), g < 0, "delta " .. d .. " gap " .. g .. " swapped")
      end
    end
  end)
end)

describe("nearly degenerate quaternions", function()
  local cases = {
    -- quaternion, the unit quaternion it means
    { { 0, 0, 0, 1e-300 }, { 0, 0, 0, 1 } },
    { { 0, 0, 0, 5e-324 }, { 0, 0, 0, 1 } },
    { { 1e-300, 0, 0, 0 }, { 1, 0, 0, 0 } },
    { { 5e-324, 0, 0, 5e-324 }, { sqrt(0.5), 0, 0, sqrt(0.5) } },
    { { 1e-300, 1e-300, 1e-300, 1e-300 }, { 0.5, 0.5, 0.5, 0.5 } },
    { { 1e300, 1e300, 0, 0 }, { sqrt(0.5), sqrt(0.5), 0, 0 } },
    { { 1.7e308, 0, 0, -1.7e308 }, { -sqrt(0.5), 0, 0, sqrt(0.5) } },
    { { 1e-300, 0, 0, 1 }, { 0, 0, 0, 1 } },
    { { 0, 1e-300, 0, -1 }, { 0, 0, 0, 1 } },
    { { 3e-160, 4e-160, 0, 0 }, { 0.6, 0.8, 0, 0 } },
    { { 0.1 * 1e-200, 0.2 * 1e-200, 0.3 * 1e-200, 0.9 * 1e-200 },
      { 0.1 / sqrt(0.95), 0.2 / sqrt(0.95), 0.3 / sqrt(0.95), 0.9 / sqrt(0.95) } },
  }
  for i, case in ipairs(cases) do
    it("case " .. i .. ": gives orthonormal axes and the normalised rotation", function()
      local q, want = case[1], case[2]
      for _, make in ipairs({
        function() return obb.new3(1, 2, 3, 1, 2, 3, q[1], q[2], q[3], q[4]) end,
        function() return obb.new3(1, 2, 3, 1, 2, 3):set_rotation(q[1], q[2], q[3], q[4]) end,
        function() return obb.new3(1, 2, 3, 1, 2, 3):rotate(q[1], q[2], q[3], q[4]) end,
      }) do
        local b = make()
        assert_orthonormal(b, 1e-15, "quaternion " .. i)
        local got = { b:rotation() }
        local w = want
        if w[4] < 0 or (w[4] == 0 and false) then w = { -w[1], -w[2], -w[3], -w[4] } end
        -- q and -q are one rotation; rotation() picks w >= 0
        local same = true
        for k = 1, 4 do if math.abs(got[k] - w[k]) > 1e-15 then same = false end end
        if not same and w[4] == 0 then
          same = true
          for k = 1, 4 do if math.abs(got[k] + w[k]) > 1e-15 then same = false end end
        end
        assert(same, "quaternion " .. i .. ": got " .. table.concat(got, ", "))
        -- and the box still answers sensibly
        assert.is_true(b:contains(1, 2, 3))
        assert.is_true(b:intersects(b))
      end
    end)
  end

  it("refuses the zero quaternion however it is reached", function()
    H.assert_argerror(7, "new3", "quaternion is zero", function(...) return obb.new3(...) end,
      0, 0, 0, 1, 1, 1, 0, -0.0, 0, 0)
    local b = obb.new3(0, 0, 0, 1, 1, 1)
    assert.has_error(function() b:set_rotation(0, 0, 0, 0) end)
    assert.has_error(function() b:rotate(-0.0, 0, 0, 0) end)
  end)
end)

describe("touching", function()
  it("2D axis-aligned boxes that share a side, an edge point or a corner intersect", function()
    local a = obb.new2(0, 0, 1, 1)
    for _, c in ipairs({ { 2, 0 }, { -2, 0.5 }, { 0, 2 }, { 2, 2 }, { -2, -2 }, { 1.5, 1.5 } }) do
      local hx = c[1] == 1.5 and 0.5 or 1
      local b = obb.new2(c[1], c[2], hx, hx)
      assert.is_true(a:intersects(b), c[1] .. "," .. c[2])
      assert.is_true(b:intersects(a), c[1] .. "," .. c[2] .. " swapped")
    end
  end)

  -- The band of unit boxes 2 apart: 2^-40 * (2 + 4) = 5.5e-12, and of a
  -- point at (1, 0) against the unit box: 2^-40 * (1 + 2) = 2.7e-12 (the
  -- coordinates' share, 2^-50 * 2, is far below).
  it("2D: a few ulps apart touch; a band apart is apart", function()
    local a = obb.new2(0, 0, 1, 1)
    local up = 2 + 2 ^ -51 -- the next double above 2
    assert.is_true(a:intersects(obb.new2(up, 0, 1, 1)))
    assert.is_true(a:intersects(obb.new2(up, up, 1, 1)))
    assert.is_true(a:contains(1 + 2 ^ -52, 0))
    assert.is_true(a:intersects(obb.new2(2 + 5e-12, 0, 1, 1)))
    assert.is_false(a:intersects(obb.new2(2 + 6e-12, 0, 1, 1)))
    assert.is_true(a:contains(1 + 2.6e-12, 0))
    assert.is_false(a:contains(1 + 2.8e-12, 0))
    assert.is_true(a:contains(1, -1))
    assert.is_true(a:contains(-1, 1))
  end)

  it("3D axis-aligned boxes touching at a face, an edge or a corner intersect", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    for _, c in ipairs({ { 2, 0, 0 }, { 0, -2, 0 }, { 2, 2, 0 }, { 2, 2, 2 }, { -2, 2, -2 } }) do
      local b = obb.new3(c[1], c[2], c[3], 1, 1, 1)
      assert.is_true(a:intersects(b))
      assert.is_true(b:intersects(a))
    end
    local up = 2 + 2 ^ -51
    assert.is_true(a:intersects(obb.new3(up, 0, 0, 1, 1, 1)))
    assert.is_true(a:intersects(obb.new3(up, up, up, 1, 1, 1)))
    assert.is_true(a:contains(1, 1, 1))
    assert.is_true(a:contains(1, 1, 1 + 2 ^ -52))
    -- bands: 2^-40 * (2 + 6) = 7.3e-12 for the pair, 2^-40 * (3 + 3) for
    -- the point (1, 1, 1 + x)
    assert.is_true(a:intersects(obb.new3(2 + 7e-12, 0, 0, 1, 1, 1)))
    assert.is_false(a:intersects(obb.new3(2 + 8e-12, 0, 0, 1, 1, 1)))
    assert.is_true(a:contains(1, 1, 1 + 5.3e-12))
    assert.is_false(a:contains(1, 1, 1 + 5.6e-12))
  end)

  it("zero-size boxes touch like points and segments", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.is_true(a:intersects(obb.new2(1, 1, 0, 0)))       -- a point on the corner
    assert.is_true(a:intersects(obb.new2(1, 0, 0, 5)))       -- a segment along the side
    assert.is_true(a:intersects(obb.new2(1 + 2 ^ -52, 0, 0, 5)))
    assert.is_false(a:intersects(obb.new2(1 + 1e-10, 0, 0, 5)))
    assert.is_true(obb.new2(3, 3, 0, 0):intersects(obb.new2(3, 3, 0, 0)))
    local p = obb.new3(0, 0, 0, 0, 0, 0)
    assert.is_true(p:intersects(obb.new3(1, 0, 0, 1, 0, 0)))
    assert.is_true(p:intersects(obb.new3(0, 0, 0, 0, 0, 0)))
    assert.is_true(p:intersects(obb.new3(1 + 2 ^ -52, 0, 0, 1, 0, 0)))
    assert.is_false(p:intersects(obb.new3(1 + 1e-10, 0, 0, 1, 0, 0)))
  end)

  it("a box flush inside another, sharing faces, is contained", function()
    assert.is_true(obb.new2(0, 0, 2, 2):contains(obb.new2(1, 1, 1, 1)))
    -- an ulp beyond is within the band; 1e-10 beyond is outside
    assert.is_true(obb.new2(0, 0, 2, 2):contains(obb.new2(1 + 2 ^ -51, 1, 1, 1)))
    assert.is_false(obb.new2(0, 0, 2, 2):contains(obb.new2(1 + 1e-10, 1, 1, 1)))
    assert.is_true(obb.new3(0, 0, 0, 2, 2, 2):contains(obb.new3(1, -1, 0, 1, 1, 2)))
    -- a box contains itself and the same box turned a quarter turn
    local b = obb.new2(5, 5, 1, 3, 0.7)
    assert.is_true(b:contains(b))
    local r = obb.new3(1, 2, 3, 1, 2, 3, 0.1, 0.2, 0.3, 0.9)
    assert.is_true(r:contains(r))
  end)
end)

describe("findings of the fuzzers", function()
  -- fuzz/seed-core/regress-contains-not-intersects: a point box on the
  -- edge of a flat box turned a quarter turn was contained by it, yet
  -- b:intersects(a) said no: b's face tests went through b's (rounded)
  -- frame instead of projecting the center offset directly.
  -- fuzz/seed-core/regress-segment-on-face: a segment lying on the face of
  -- a box turned a quarter turn (whose axes are unit only to an ulp) was
  -- contained, yet no order said they intersect: the face and edge tests
  -- used |cos| unsnapped where containment snaps it to exactly 0 or 1.
  it("a segment on a quarter-turned box's face is contained and intersects", function()
    local a = obb.new3(0, 0, 0, 1, 0.5, 1, 1, 0, 0, 1)
    local b = obb.from_axes3(0, 1, 0, 1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, -1)
    assert.is_true(a:contains(b))
    assert.is_true(a:intersects(b))
    assert.is_true(b:intersects(a))
    local a2 = obb.new2(0, 0, 1, 0.5, math.pi / 2)
    local b2 = obb.new2(0.5, 0, 0, 1) -- on the side x = 0.5
    assert.is_true(a2:contains(b2))
    assert.is_true(a2:intersects(b2))
    assert.is_true(b2:intersects(a2))
  end)

  -- fuzz/seed-core/regress-segment-on-tilted-face: the first fix snapped
  -- small |cos| down to 0 as containment does, which took 1e-15 of reach
  -- from a box and separated it from a segment lying on its face, along an
  -- axis tilted by 2e-16. Projection radii now only ever snap up.
  it("a segment on a face, seen along an axis tilted by an ulp, intersects", function()
    local a = obb.from_axes3(4.75, 4.75, 4.75, 4.75, 4.75, 4.75, 1, 0, 0, 0, -1, 0, 0, 0, -1)
    local t = 2.2204460492503136e-16
    local b = obb.from_axes3(1, 0, 2, 0, 0, 1, t, 1, 0, 1, -t, 0, 0, 0, -1)
    assert.is_true(a:contains(b))
    assert.is_true(a:intersects(b))
    assert.is_true(b:intersects(a))
  end)

  it("a point on a turned box's edge is contained and intersects both ways", function()
    local a = obb.new3(0, 0, 0, 1, 1, 0, 1, 0, 0, 1)
    local ax = { obb.new3(1, 0, 0, 0, 0, 0, 0, 0, 1, 1):axes() }
    for k = 0, 2 do ax[4 * k + 1] = ax[4 * k + 1] + 1e-7 end
    local b = obb.from_axes3(1, 0, 0, 0, 0, 0, ax[1], ax[2], ax[3], ax[4], ax[5],
      ax[6], ax[7], ax[8], ax[9])
    assert.is_true(a:contains(b))
    assert.is_true(a:contains(1, 0, 0))
    assert.is_true(a:intersects(b))
    assert.is_true(b:intersects(a))
  end)

  -- fuzz/seed-core/regress-transform3-rank1: a matrix of rank 1 (every
  -- column the same) left the second axis as rounding noise, not
  -- orthogonal to the first, and so a box with skewed axes.
  it("a 3D transform by a rank-1 or rank-2 matrix keeps the axes orthonormal", function()
    local mats = {
      { -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25, -5.25 },
      { 1, 2, 3, 0, 2, 4, 6, 0, 3, 6, 9, 0 },
      { 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3 },
    }
    for mi, m in ipairs(mats) do
      for _, q in ipairs({ { 0, 0, 0, 1 }, { 0.1, 0.2, 0.3, 0.9 }, { 1, 0, 0, 1 } }) do
        local b = obb.new3(1, 0, 1, 1e-300, 0.25, 2, q[1], q[2], q[3], q[4])
        local corners = { b:corners() }
        b:transform(m)
        assert_orthonormal(b, 1e-15, "matrix " .. mi)
        -- and the result still encloses the image of every corner
        local big = b:clone()
        local hx, hy, hz = big:half_extents()
        big:set_half_extents(hx + 1e-12, hy + 1e-12, hz + 1e-12)
        for k = 0, 7 do
          local x, y, z = corners[3 * k + 1], corners[3 * k + 2], corners[3 * k + 3]
          assert.is_true(big:contains(m[1] * x + m[2] * y + m[3] * z + m[4],
            m[5] * x + m[6] * y + m[7] * z + m[8], m[9] * x + m[10] * y + m[11] * z + m[12]),
            "matrix " .. mi .. " corner " .. k)
        end
      end
    end
  end)
  -- fuzz/seed-core/regress-transform2-subnormal-matrix: a matrix whose
  -- entries are subnormal kept too few significant bits in L*u, so the
  -- enclosing box pointed the wrong way and missed the image of a corner.
  -- The linear part is now scaled by a power of two (exactly) first.
  it("a transform by a subnormal or huge matrix still encloses the image", function()
    local cases2 = {
      { 2.1158239160005044e-314, 2.1158239160005044e-314, 2.1171710936902014e-317, 0, 0, 0 },
      { 3e-310, -1e-312, 2e-311, 5e-309, 0, 0 },
      { 1e300, 2e299, -3e299, 1e300, 0, 0 },
    }
    for mi, m in ipairs(cases2) do
      local b = obb.from_axes2(0.2, 0.1, 0.9, 5.2566320018407256e+83,
        0.68487031838355339, 0.72866497582717005)
      if mi == 3 then b = obb.new2(0.2, 0.1, 0.9, 3, 0.8) end
      local c = { b:corners() }
      b:transform(m)
      -- rounding of the image corners is relative to the whole box
      local hx, hy = b:half_extents()
      local tol = 1e-12 * math.max(hx, hy)
      local big = b:clone():set_half_extents(hx + tol, hy + tol)
      for k = 0, 3 do
        local x, y = c[2 * k + 1], c[2 * k + 2]
        assert.is_true(big:contains(m[1] * x + m[3] * y + m[5], m[2] * x + m[4] * y + m[6]),
          "matrix " .. mi .. " corner " .. k)
      end
    end
    local b = obb.new3(0.2, 0.1, 0.3, 0.9, 4e83, 2, 0.1, 0.2, 0.3, 0.9)
    local c = { b:corners() }
    local m = { 2e-314, 1e-315, 3e-316, 0, -1e-315, 2e-314, 5e-317, 0, 1e-316, 0, 2e-314, 0 }
    b:transform(m)
    local hx, hy, hz = b:half_extents()
    local tol = 1e-12 * math.max(hx, hy, hz)
    local big = b:clone():set_half_extents(hx + tol, hy + tol, hz + tol)
    for k = 0, 7 do
      local x, y, z = c[3 * k + 1], c[3 * k + 2], c[3 * k + 3]
      assert.is_true(big:contains(m[1] * x + m[2] * y + m[3] * z + m[4],
        m[5] * x + m[6] * y + m[7] * z + m[8], m[9] * x + m[10] * y + m[11] * z + m[12]),
        "3D corner " .. k)
    end
  end)
end)
