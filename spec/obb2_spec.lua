-- 2D boxes: conventions, queries, boundary cases and transforms.
local obb = require "obb"
local H = require "spec.helpers"

local PI = math.pi
local pack = H.pack

describe("obb2 conventions", function()
  it("rotates counter-clockwise: angle pi/2 turns axis 0 to (0, 1)", function()
    local b = obb.new2(0, 0, 1, 0, PI / 2)
    local ux, uy, vx, vy = b:axes()
    assert.is_true(H.near(ux, 0) and H.near(uy, 1))
    -- axis 1 is perp(axis 0) = (-u.y, u.x)
    assert.is_true(H.near(vx, -1) and H.near(vy, 0))
    -- so a long thin box along axis 0 now stands upright
    local t = obb.new2(0, 0, 1, 0.1, PI / 2)
    assert.is_true(t:contains(0.05, 0.99))
    assert.is_false(t:contains(0.5, 0))
  end)

  it("lists corners counter-clockwise from (-,-)", function()
    local c = { obb.new2(10, 20, 2, 1):corners() }
    H.assert_near_list(c, { 8, 19, 12, 19, 12, 21, 8, 21 }, 0, "corners")
    -- and they follow the box when it turns: local (-2,-1) turned a quarter
    c = { obb.new2(0, 0, 2, 1, PI / 2):corners() }
    H.assert_near_list(c, { 1, -2, 1, 2, -1, 2, -1, -2 }, 1e-15, "corners")
  end)

  it("corners run counter-clockwise for any angle (positive signed area)", function()
    for _, a in ipairs({ -3, -1, 0, 0.5, 2, 3.1 }) do
      local c = { obb.new2(1, 2, 3, 0.5, a):corners() }
      local area = 0
      for k = 0, 3 do
        local j = (k + 1) % 4
        area = area + c[2 * k + 1] * c[2 * j + 2] - c[2 * j + 1] * c[2 * k + 2]
      end
      assert.is_true(H.near(area / 2, 4 * 3 * 0.5, 1e-12), "angle " .. a)
    end
  end)

  it("reports angle() in (-pi, pi]", function()
    local cases = {
      { 0, 0 }, { PI / 2, PI / 2 }, { -PI / 2, -PI / 2 }, { PI, PI },
      { -PI, PI }, { 3 * PI / 2, -PI / 2 }, { 2 * PI, 0 }, { 5, 5 - 2 * PI },
      { -4, -4 + 2 * PI }, { 1e3, 1e3 - 159 * 2 * PI },
    }
    for _, c in ipairs(cases) do
      local got = obb.new2(0, 0, 1, 1, c[1]):angle()
      assert.is_true(got > -PI and got <= PI, "range for " .. c[1])
      assert.is_true(H.near(got, c[2], 1e-12), c[1] .. " gave " .. got)
    end
    -- an axis of exactly (-1, -0.0) is at pi, not -pi
    assert.are.equal(PI, obb.from_axes2(0, 0, 1, 1, -1, -0.0):angle())
    assert.are.equal(PI, obb.from_axes2(0, 0, 1, 1, -1, 0):angle())
  end)

  it("aabb() gives minx, miny, maxx, maxy", function()
    H.assert_near_list({ obb.new2(1, 2, 3, 4):aabb() }, { -2, -2, 4, 6 }, 0)
    local r = math.sqrt(2)
    H.assert_near_list({ obb.new2(0, 0, 1, 1, PI / 4):aabb() }, { -r, -r, r, r },
      1e-15)
    H.assert_near_list({ obb.new2(5, 5, 2, 0, PI / 2):aabb() }, { 5, 3, 5, 7 },
      1e-15)
  end)
end)

describe("obb2 intersects", function()
  local A = obb.new2(0, 0, 1, 1)

  it("counts edge-to-edge touching as intersecting", function()
    assert.is_true(A:intersects(obb.new2(2, 0, 1, 1)))
    assert.is_true(A:intersects(obb.new2(0, -2, 1, 1)))
    assert.is_true(A:intersects(obb.new2(2, 0.5, 1, 1))) -- sliding along
    assert.is_true(A:intersects(obb.new2(-3, 0, 2, 0.1)))
    -- a quarter or half turn keeps the edges parallel
    assert.is_true(A:intersects(obb.new2(2, 0, 1, 1, PI / 2)))
    assert.is_true(A:intersects(obb.new2(0, 2, 1, 1, PI)))
  end)

  it("separates edge-to-edge gaps of 1e-10; gaps within the band touch", function()
    -- the band here: 2^-40 * (2 + 4) = 5.5e-12
    assert.is_false(A:intersects(obb.new2(2 + 1e-10, 0, 1, 1)))
    assert.is_false(A:intersects(obb.new2(0, -2 - 1e-10, 1, 1)))
    assert.is_false(A:intersects(obb.new2(2 + 1e-10, 0, 1, 1, PI / 2)))
    assert.is_true(A:intersects(obb.new2(2 - 1e-12, 0, 1, 1, PI / 2)))
    assert.is_true(A:intersects(obb.new2(2 + 1e-12, 0, 1, 1)))
    assert.is_true(A:intersects(obb.new2(0, -2 - 5e-12, 1, 1, PI / 2)))
    assert.is_false(A:intersects(obb.new2(0, -2 - 6e-12, 1, 1, PI / 2)))
  end)

  it("counts corner-to-corner touching as intersecting", function()
    assert.is_true(A:intersects(obb.new2(2, 2, 1, 1)))
    assert.is_true(A:intersects(obb.new2(-2, 2, 1, 1)))
    assert.is_false(A:intersects(obb.new2(2, 2 + 1e-10, 1, 1)))
    assert.is_true(A:intersects(obb.new2(2 + 1e-12, 2 + 1e-12, 1, 1)))
  end)

  it("handles corner-to-edge contact of a box turned 45 degrees", function()
    -- B's corner points at A's right edge, at distance sqrt(2) from B's center
    local r = math.sqrt(2)
    for _, y in ipairs({ 0, 0.5, -0.99 }) do
      assert.is_true(A:intersects(obb.new2(1 + r - 1e-10, y, 1, 1, PI / 4)))
      assert.is_false(A:intersects(obb.new2(1 + r + 1e-10, y, 1, 1, PI / 4)))
    end
    -- and with A's corner at B's edge (B axis-aligned, A turned)
    local T = obb.new2(0, 0, 1, 1, PI / 4)
    assert.is_true(T:intersects(obb.new2(r + 1 - 1e-10, 0.3, 1, 1)))
    assert.is_false(T:intersects(obb.new2(r + 1 + 1e-10, 0.3, 1, 1)))
  end)

  it("has no false separation for nearly parallel edges", function()
    local wide = obb.new2(0, 0, 10, 1)
    for _, a in ipairs({ 1e-3, 1e-5, 1e-7, 1e-9, 1e-10, 1e-12 }) do
      local sa, ca = math.sin(a), math.cos(a)
      -- B turned by a tiny angle a sits on a wide box's top edge with its
      -- lowest corner (at height y - (hx*sin a + hy*cos a)): A's axis
      -- decides, B's must not claim a separation.
      local hx, hy = 3, 0.5
      local reach = hx * sa + hy * ca
      for _, x in ipairs({ 0, 2.5, -3.9 }) do
        for _, g in ipairs({ -1e-9, 1e-9 }) do
          local b = obb.new2(x, 1 + reach + g, hx, hy, a)
          local what = "corner on edge, a=" .. a .. " x=" .. x .. " gap=" .. g
          assert.are.equal(g < 0, wide:intersects(b), what)
          assert.are.equal(g < 0, b:intersects(wide), what)
        end
      end
      -- a wide B turned by a over A: B's bottom edge, the line
      -- n.p = n.c - hy with n = (-sin a, cos a), passes A's corner (-1, 1)
      -- when n.c = hy + sin a + cos a. B's axis decides this time.
      for _, x in ipairs({ 0, 3, -2 }) do
        for _, g in ipairs({ -1e-9, 1e-9 }) do
          local y = (0.5 + sa + ca + x * sa + g) / ca
          local b = obb.new2(x, y, 10, 0.5, a)
          local what = "edge on corner, a=" .. a .. " x=" .. x .. " gap=" .. g
          assert.are.equal(g < 0, A:intersects(b), what)
          assert.are.equal(g < 0, b:intersects(A), what)
        end
      end
    end
  end)

  it("finds identical boxes and boxes inside others", function()
    for _, a in ipairs({ 0, 0.3, PI / 2, 2 }) do
      local b = obb.new2(3, -1, 2, 0.5, a)
      assert.is_true(b:intersects(b))
      assert.is_true(b:intersects(b:clone()))
      local small = obb.new2(3.1, -1, 0.1, 0.1, a + 1)
      assert.is_true(b:intersects(small))
      assert.is_true(small:intersects(b))
    end
  end)

  it("handles axis-aligned boxes of different sizes", function()
    local big = obb.from_aabb2(-10, -1, 10, 1)
    assert.is_true(big:intersects(obb.from_aabb2(9, 0.5, 12, 3)))
    assert.is_true(big:intersects(obb.from_aabb2(10, 1, 12, 3)))
    assert.is_false(big:intersects(obb.from_aabb2(10.5, -1, 12, 1)))
    assert.is_true(big:intersects(obb.from_aabb2(-1, -5, 1, 5))) -- a cross
  end)

  it("handles zero extents: segments and points", function()
    local seg = obb.new2(0, 0, 1, 0)         -- from (-1, 0) to (1, 0)
    local vseg = obb.new2(0, 0, 0, 1)        -- from (0, -1) to (0, 1)
    local pt = obb.new2(1, 0, 0, 0)          -- the point (1, 0)
    assert.is_true(seg:intersects(vseg))     -- crossing segments
    assert.is_true(seg:intersects(pt))       -- point at the end
    assert.is_false(seg:intersects(obb.new2(1 + 1e-10, 0, 0, 0)))
    assert.is_false(seg:intersects(obb.new2(0, 1e-10, 0, 0)))
    assert.is_true(seg:intersects(obb.new2(0, 1e-13, 0, 0))) -- in the band
    assert.is_true(pt:intersects(pt))
    assert.is_false(obb.new2(0, 0, 1, 0, 0.5):intersects(obb.new2(0, 0.7, 1, 0, 0.5)))
    -- parallel segments on one line, overlapping and apart
    assert.is_true(obb.new2(0, 0, 1, 0):intersects(obb.new2(2, 0, 1, 0)))
    assert.is_false(obb.new2(0, 0, 1, 0):intersects(obb.new2(2.5, 0, 1, 0)))
    -- a diagonal segment through a box's corner region
    local diag = obb.new2(2, 2, math.sqrt(2) * 1.5, 0, PI / 4)
    assert.is_true(A:intersects(diag))
    assert.is_false(A:intersects(obb.new2(2, 2, math.sqrt(2) * 0.99, 0, PI / 4)))
  end)

  it("works at coordinates offset by 1e7", function()
    local o = 1e7
    local a = obb.new2(o, -o, 1, 1)
    assert.is_true(a:intersects(obb.new2(o + 2, -o, 1, 1)))
    assert.is_false(a:intersects(obb.new2(o + 2 + 1e-7, -o, 1, 1)))
    local r = math.sqrt(2)
    assert.is_true(a:intersects(obb.new2(o + 1 + r - 1e-7, -o, 1, 1, PI / 4)))
    assert.is_false(a:intersects(obb.new2(o + 1 + r + 1e-7, -o, 1, 1, PI / 4)))
    local t = obb.new2(o, o, 1, 1, 0.3)
    assert.is_true(t:intersects(t:clone():translate(0.5, 0.5)))
  end)
end)

describe("obb2 contains", function()
  local b = obb.new2(1, 2, 2, 1, PI / 2) -- covers x in [0, 2], y in [0, 4]

  it("contains points inside and on the boundary (closed box)", function()
    assert.is_true(b:contains(1, 2))
    assert.is_true(b:contains(0, 0))    -- a corner (up to the axis' rounding)
    assert.is_true(b:contains(2, 3))    -- an edge
    assert.is_true(b:contains(1, 4))
    assert.is_false(b:contains(2.001, 3))
    assert.is_false(b:contains(1, 4.001))
    assert.is_false(b:contains(-1e-9, 2))
  end)

  it("contains the points of an axis-aligned box at its edges, and within the band", function()
    local a = obb.from_aabb2(0, 0, 3, 1)
    assert.is_true(a:contains(0, 0))
    assert.is_true(a:contains(3, 1))
    assert.is_true(a:contains(3, 0.5))
    assert.is_true(a:contains(3 + 1e-15 * 4, 0.5))
    assert.is_true(a:contains(0, -1e-15))
    assert.is_false(a:contains(3 + 1e-10, 0.5))
    assert.is_false(a:contains(0, -1e-10))
    assert.is_false(obb.new2(0, 0, 1, 1):contains(0, 1 + 1e-10))
  end)

  it("contains boxes: itself, smaller ones, and not overlapping ones", function()
    local a = obb.new2(0, 0, 2, 1, 0.7)
    assert.is_true(a:contains(a))
    assert.is_true(a:contains(a:clone()))
    assert.is_true(a:contains(obb.new2(0, 0, 1, 0.5, 0.7)))
    assert.is_true(a:contains(obb.new2(0, 0, 0.5, 0.5, 2)))
    assert.is_false(a:contains(obb.new2(0, 0, 1, 1.5, 0.7)))
    assert.is_false(obb.new2(0, 0, 1, 0.5, 0.7):contains(a))
    -- a box turned half a turn is the same set: contained both ways
    local h = obb.new2(0, 0, 2, 1, 0.7 + PI)
    assert.is_true(a:contains(h) and h:contains(a))
    -- axis-swapped: quarter turn with the extents exchanged
    local s = obb.new2(0, 0, 1, 2, 0.7 + PI / 2)
    assert.is_true(a:contains(s) and s:contains(a))
  end)

  it("contains degenerate boxes", function()
    local a = obb.from_aabb2(0, 0, 2, 2)
    assert.is_true(a:contains(obb.new2(1, 1, 0, 0)))
    assert.is_true(a:contains(obb.new2(2, 2, 0, 0)))          -- a corner
    assert.is_true(a:contains(obb.new2(1, 2, 1, 0)))          -- the top edge
    assert.is_false(a:contains(obb.new2(1, 2, 1.5, 0)))
    assert.is_true(obb.new2(0, 0, 1, 0):contains(obb.new2(0.5, 0, 0.5, 0)))
    assert.is_true(obb.new2(0, 0, 0, 0):contains(0, 0))
    assert.is_false(obb.new2(0, 0, 0, 0):contains(1e-300, 0))
  end)
end)

describe("obb2 transform", function()
  -- matrix (a, b, c, d, e, f): x' = a*x + c*y + e, y' = b*x + d*y + f
  local function rot(phi, tx, ty)
    local c, s = math.cos(phi), math.sin(phi)
    return { c, s, -s, c, tx or 0, ty or 0 }
  end

  local function expect_exact(b, m, cx, cy, hx, hy, angle)
    local before = H.desc_of(b)
    local got = b:transform(H.unpack(m))
    assert.are.equal(b, got) -- in place, returns the box
    local d = H.desc2(cx, cy, hx, hy, angle)
    H.assert_same_set(b, d, 1e-12)
    -- also: the images of the old corners are the new corners
    local img = {}
    for _, p in ipairs(H.corners(before)) do img[#img + 1] = H.apply2(m, p) end
    for _, p in ipairs(img) do
      assert.is_true(math.abs(H.point_margin(H.desc_of(b), p)) <= 1e-12 * 10,
        "an image corner is not on the result's boundary")
    end
  end

  it("uses the matrix layout x' = a*x + c*y + e, y' = b*x + d*y + f", function()
    local b = obb.new2(1, 2, 1, 1)
    b:transform(2, 3, 5, 7, 11, 13)
    local cx, cy = b:center()
    assert.are.equal(2 * 1 + 5 * 2 + 11, cx)
    assert.are.equal(3 * 1 + 7 * 2 + 13, cy)
  end)

  it("translates exactly", function()
    local b = obb.new2(1, 2, 3, 4, 0.5)
    b:transform(1, 0, 0, 1, 10, -20)
    H.assert_near_list(pack(b:center()), { 11, -18 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 3, 4 }, 0)
    assert.is_true(H.near(b:angle(), 0.5, 1e-15))
  end)

  it("rotates exactly, about the origin, keeping the axis slots", function()
    for _, phi in ipairs({ 0.3, PI / 2, -2, PI }) do
      local b = obb.new2(1, 2, 3, 0.5, 0.4)
      local m = rot(phi, 5, -1)
      local c = H.apply2(m, { 1, 2 })
      expect_exact(b, m, c[1], c[2], 3, 0.5, 0.4 + phi)
      H.assert_near_list(pack(b:half_extents()), { 3, 0.5 }, 1e-12)
      local a = b:angle() - (0.4 + phi)
      assert.is_true(H.near(math.cos(a), 1, 1e-12), "angle follows rotation")
    end
  end)

  it("reflects exactly", function()
    local b = obb.new2(1, 2, 3, 0.5, 0.4)
    expect_exact(b, { -1, 0, 0, 1, 0, 0 }, -1, 2, 3, 0.5, PI - 0.4)
    b = obb.new2(1, 2, 0.5, 3, 0.4)
    expect_exact(b, { 1, 0, 0, -1, 0, 0 }, 1, -2, 0.5, 3, -0.4)
  end)

  it("scales uniformly exactly", function()
    local b = obb.new2(1, 2, 3, 0.5, 0.4)
    expect_exact(b, { 2.5, 0, 0, 2.5, 1, 1 }, 3.5, 6, 7.5, 1.25, 0.4)
    b = obb.new2(1, 2, 3, 0.5, 0.4)
    expect_exact(b, { -2, 0, 0, -2, 0, 0 }, -2, -4, 6, 1, 0.4 + PI)
  end)

  it("scales along the box's own axes exactly", function()
    -- L = R diag(s0, s1) R^T with R the box's rotation
    local a = 0.4
    local c, s = math.cos(a), math.sin(a)
    local s0, s1 = 3, 0.25
    local m = { s0 * c * c + s1 * s * s, (s0 - s1) * c * s,
      (s0 - s1) * c * s, s0 * s * s + s1 * c * c, 0, 0 }
    local b = obb.new2(0, 0, 1, 2, a)
    expect_exact(b, m, 0, 0, 3, 0.5, a)
    H.assert_near_list(pack(b:half_extents()), { 3, 0.5 }, 1e-12)
  end)

  it("collapses to a point or a segment under a singular matrix", function()
    local b = obb.new2(1, 1, 2, 1, 0.3):transform(0, 0, 0, 0, 4, 5)
    H.assert_near_list(pack(b:center()), { 4, 5 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 0, 0 }, 0)
    b = obb.new2(0, 0, 2, 1):transform(1, 0, 0, 0, 0, 0) -- project onto x
    H.assert_near_list(pack(b:half_extents()), { 2, 0 }, 1e-15)
    b = obb.new2(0, 0, 2, 1):transform(0, 0, 0, 1, 0, 0) -- project onto y
    local hx, hy = b:half_extents()
    assert.is_true(H.near(math.max(hx, hy), 1) and math.min(hx, hy) == 0)
  end)

  it("encloses the parallelogram made by shear or non-uniform scale, " ..
     "with the min-area rectangle aligned with its longer edge", function()
    local r = H.rng(12)
    for i = 1, 300 do
      local d = H.desc2(r.range(-3, 3), r.range(-3, 3), r.range(0.1, 3),
        r.range(0.1, 3), r.range(-PI, PI))
      local m = { r.range(-2, 2), r.range(-2, 2), r.range(-2, 2), r.range(-2, 2),
        r.range(-5, 5), r.range(-5, 5) }
      local b = H.box_of(obb, d):transform(H.unpack(m))
      local res = H.desc_of(b)
      local size = 1
      local img = {}
      for k, p in ipairs(H.corners(d)) do
        img[k] = H.apply2(m, p)
        size = math.max(size, math.abs(img[k][1]), math.abs(img[k][2]))
      end
      for k = 1, 4 do
        assert.is_true(H.point_margin(res, img[k]) >= -1e-12 * size,
          "case " .. i .. ": image corner " .. k .. " outside the result")
      end
      -- the longer edge of the image and the rectangle aligned with it
      local e1 = { img[2][1] - img[1][1], img[2][2] - img[1][2] }
      local e2 = { img[4][1] - img[1][1], img[4][2] - img[1][2] }
      local f = H.dot(e1, e1) >= H.dot(e2, e2) and e1 or e2
      local lf = math.sqrt(H.dot(f, f))
      local fu = { f[1] / lf, f[2] / lf }
      local g = { -fu[2], fu[1] }
      local wf = (math.abs(H.dot(e1, fu)) + math.abs(H.dot(e2, fu))) / 2
      local wg = (math.abs(H.dot(e1, g)) + math.abs(H.dot(e2, g))) / 2
      -- the result has an axis along f, and those extents
      local along = math.abs(H.dot(res.u[1], fu))
      local hx, hy = res.e[1], res.e[2]
      if along < 0.5 then hx, hy = hy, hx end
      assert.is_true(H.near(math.max(along, math.abs(H.dot(res.u[2], fu))), 1, 1e-9),
        "case " .. i .. ": not aligned with the longer edge")
      assert.is_true(H.near(hx, wf, 1e-9) and H.near(hy, wg, 1e-9),
        "case " .. i .. ": not the tight rectangle")
      -- and its area is no more than the rectangle along the other edge
      local o = e1 == f and e2 or e1
      local lo = math.sqrt(H.dot(o, o))
      if lo > 0 then
        local ou = { o[1] / lo, o[2] / lo }
        local og = { -ou[2], ou[1] }
        local other = (math.abs(H.dot(e1, ou)) + math.abs(H.dot(e2, ou))) *
          (math.abs(H.dot(e1, og)) + math.abs(H.dot(e2, og)))
        assert.is_true(4 * hx * hy <= other * (1 + 1e-9) + 1e-12,
          "case " .. i .. ": area not minimal")
      end
    end
  end)

  it("accepts the matrix as a table", function()
    local a = obb.new2(1, 2, 3, 0.5, 0.4)
    local b = a:clone()
    local m = { 0.5, 1, -2, 0.25, 3, 4 }
    assert.are.equal(a, a:transform(m))
    b:transform(H.unpack(m))
    assert.are.equal(a, b)
  end)
end)

-- Boxes built from an angle take its cosine and sine from obb_sincos
-- (src/core/obb_trig.c), faithfully rounded: within 1 ulp of the true values,
-- so one ulp at most from math.cos and math.sin (test/trig_check.c
-- measures it against long double in C).
describe("obb2 angles", function()
  -- -0.0 made at run time: Lua 5.1 may merge a -0.0 constant with 0, and
  -- LuaJIT on arm64 (dual numbers: 0.0 is the integer 0 there) negates it
  -- to 0 again; a division gives -0 on every Lua
  local function neg_zero(one) return 0 / -one end
  local NEG_ZERO = neg_zero(1)

  local function assert_axes_of(b, a, what)
    local ux, uy, vx, vy = b:axes()
    local c, s = math.cos(a), math.sin(a)
    assert.is_true(H.within_ulp(ux, c), string.format(
      "%s: cos(%.17g) = %.17g, math.cos %.17g", what, a, ux, c))
    assert.is_true(H.within_ulp(uy, s), string.format(
      "%s: sin(%.17g) = %.17g, math.sin %.17g", what, a, uy, s))
    -- axis 1 is exactly perp(axis 0)
    assert.are.equal(-uy, vx)
    assert.are.equal(ux, vy)
  end

  local function angles()
    local r, list = H.rng(4242), {}
    for _ = 1, 3000 do list[#list + 1] = r.range(-8, 8) end
    -- magnitudes from 2^-30 to 2^25, across the 2^20 where libm takes over
    for _ = 1, 3000 do
      local a = 2 ^ r.range(-30, 25)
      list[#list + 1] = r.uniform() < 0.5 and -a or a
    end
    -- multiples of pi/4, where the reduction cancels most or the quadrant
    -- flips; 29 pi/2 is the double closest to a multiple of pi/2 below 2^20
    for k = 1, 400 do list[#list + 1] = k * math.pi / 4 end
    for _, k in ipairs({ 29, 58, 116, 204551, 667544 }) do
      list[#list + 1] = k * math.pi / 2
      list[#list + 1] = -k * math.pi / 2
    end
    return list
  end

  it("has axis 0 = (cos a, sin a) to within 1 ulp", function()
    for _, a in ipairs(angles()) do
      assert_axes_of(obb.new2(0, 0, 1, 1, a), a, "new2")
    end
  end)

  it("gives the same axes through set_angle, set and from an angle in a world", function()
    local r = H.rng(77)
    local w = obb.world2()
    for i = 1, 200 do
      local a = r.range(-100, 100)
      local b = obb.new2(0, 0, 1, 1, a)
      assert.are.equal(b, obb.new2(0, 0, 1, 1):set_angle(a))
      assert.are.equal(b, obb.new2(5, 5, 2, 2):set(0, 0, 1, 1, a))
      w:add(i, 0, 0, 1, 1, a)
      assert.are.equal(b, w:get(i, obb.new2(0, 0, 0, 0)))
    end
  end)

  it("turns by angle 0 exactly: axes (1, 0) and (0, 1)", function()
    for _, b in ipairs({ obb.new2(0, 0, 1, 1), obb.new2(0, 0, 1, 1, 0),
                         obb.new2(0, 0, 1, 1, NEG_ZERO) }) do
      H.assert_near_list(pack(b:axes()), { 1, 0, 0, 1 }, 0)
    end
    -- sin(-0) is -0
    local _, uy = obb.new2(0, 0, 1, 1, NEG_ZERO):axes()
    assert.are.equal(-math.huge, 1 / uy)
    local _, uy0 = obb.new2(0, 0, 1, 1, 0):axes()
    assert.are.equal(math.huge, 1 / uy0)
    -- tiny angles: sin a = a and cos a = 1 once rounded
    for _, a in ipairs({ 1e-300, -1e-300, 2 ^ -1074, 1e-9, -1e-9 }) do
      H.assert_near_list(pack(obb.new2(0, 0, 1, 1, a):axes()), { 1, a, -a, 1 }, 0)
    end
    -- a turned box turned back by rotate is axis-aligned to the ulp
    local b = obb.new2(0, 0, 1, 1, 0):rotate(0)
    H.assert_near_list(pack(b:axes()), { 1, 0, 0, 1 }, 0)
  end)

  it("takes huge angles", function()
    for _, a in ipairs({ 1e6, 2 ^ 20 - 2 ^ -32, 2 ^ 20, 2 ^ 20 + 2 ^ -32, 1e7,
                         1e10, 1e15, 1e22, 1e300, 1.7976931348623157e308 }) do
      for _, sa in ipairs({ a, -a }) do
        local b = obb.new2(0, 0, 1, 1, sa)
        assert_axes_of(b, sa, "huge")
        local ux, uy = b:axes()
        assert.is_true(H.near(ux * ux + uy * uy, 1, 4e-16), "unit axis")
        local got = b:angle()
        assert.is_true(got > -PI and got <= PI, "angle() in range")
        assert.is_true(b:contains(0.99, 0) or b:contains(0, 0.99))
      end
    end
  end)
end)
