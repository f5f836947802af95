-- box:penetration(other): minimum translation (normal and depth).
local obb = require "obb"
local H = require "spec.helpers"
local C = require "spec.collide_helpers"

local unpack = H.unpack
local SQRT2 = math.sqrt(2)

-- Asserts a:penetration(b) gives normal want_n and depth want_d.
local function assert_pen(a, b, want_n, want_d, tol)
  local r = { a:penetration(b) }
  assert(r[1] ~= nil, "expected a penetration, got nil")
  local d = table.remove(r)
  H.assert_near_list(r, want_n, tol or 1e-15, "normal")
  assert(H.near(d, want_d, tol or 1e-15),
    "depth " .. string.format("%.17g", d) .. ", expected " .. want_d)
end

-- The convention, checked on the boxes themselves: moving a by n * depth
-- leaves them touching (a hair more separates, a hair less overlaps).
local function assert_separates(a, b, n, depth, slack)
  if depth > 2 * slack then -- (a shorter move than 0 would be backwards)
    assert.is_true(C.moved(a, n, depth * (1 - 1e-9) - slack):intersects(b))
  end
  assert.is_false(C.moved(a, n, depth * (1 + 1e-9) + slack):intersects(b))
end

-- 1000 random pairs (random(r, spread)) moved by a random rigid motion
-- (rigid(r) -> matrix, turn): the same answer, the normal turned with them
-- unless two axes nearly tie.
local function assert_rigid_invariant(dim, r, random, spread, rigid)
  for _ = 1, 1000 do
    local a, b = random(r, spread), random(r, spread)
    local s = C.scale(a, b)
    local best, second = C.sat_depth(a, b)
    local m, turn = rigid(r)
    local p = { a:penetration(b) }
    local q = { a:clone():transform(unpack(m)):penetration(
      b:clone():transform(unpack(m))) }
    if math.abs(best) > 1e-9 * s then
      assert.are.equal(#p, #q)
    end
    if #p == dim + 1 and #q == dim + 1 then
      assert(math.abs(p[dim + 1] - q[dim + 1]) <= 1e-9 * s)
      if second - best > 1e-6 * s then -- the axis is not a near tie
        H.assert_near_list({ unpack(q, 1, dim) }, turn({ unpack(p, 1, dim) }),
          1e-9, "turned normal")
      end
    end
  end
end

describe("penetration (2D)", function()
  it("pushes a out of b along the axis of least overlap", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_pen(a, obb.new2(1.5, 0.2, 1, 1), { -1, 0 }, 0.5)
    assert_pen(a, obb.new2(-1.5, 0.2, 1, 1), { 1, 0 }, 0.5)
    assert_pen(a, obb.new2(0.2, 1.75, 1, 1), { 0, -1 }, 0.25)
    assert_pen(a, obb.new2(0.2, -1.75, 1, 1), { 0, 1 }, 0.25)
  end)

  it("measures a rotated box's corner poking into a face", function()
    -- a diamond above the unit square: its lowest corner is at 1.9 - sqrt 2
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(0, 1.9, 1, 1, math.pi / 4)
    assert_pen(a, b, { 0, -1 }, SQRT2 - 0.9, 1e-15)
    assert_separates(a, b, { 0, -1 }, SQRT2 - 0.9, 1e-12)
  end)

  it("uses b's axes when they are the shorter way out", function()
    -- a's corner (1, 1) pokes 0.3 deep into the diamond b's lower-left
    -- face, whose normal is -(1, 1) / sqrt 2
    local a = obb.new2(0, 0, 1, 1)
    local c = (SQRT2 + 0.7) / SQRT2
    local b = obb.new2(c, c, 1, 1, math.pi / 4)
    local nx, ny, d = a:penetration(b)
    assert.is_true(H.near(nx, -1 / SQRT2, 1e-15) and H.near(ny, -1 / SQRT2, 1e-15))
    assert.is_true(H.near(d, 0.3, 1e-14))
    assert.is_true(H.near(d, (C.sat_depth(a, b)), 1e-14))
    assert_separates(a, b, { nx, ny }, d, 1e-12)
  end)

  it("returns nil when the boxes are apart", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.is_nil(a:penetration(obb.new2(2.5, 0, 1, 1)))
    assert.is_nil(a:penetration(obb.new2(2 + 1e-10, 0, 1, 1)))
    -- apart only along b's diagonal axis
    assert.is_nil(a:penetration(obb.new2(2.3, 2.3, 1, 1, math.pi / 4)))
  end)

  it("gives depth 0 and a valid normal for touching boxes", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_pen(a, obb.new2(2, 0.5, 1, 1), { -1, 0 }, 0) -- edge to edge
    assert_pen(a, obb.new2(0.3, -2, 1, 1), { 0, 1 }, 0)
    -- corner to corner: x and y tie, a's axis 0 wins
    assert_pen(a, obb.new2(2, 2, 1, 1), { -1, 0 }, 0)
    -- a corner of a diamond on a's top face
    assert_pen(a, obb.new2(0.25, 1 + SQRT2, 1, 1, math.pi / 4), { 0, -1 }, 0,
      1e-15)
  end)

  it("breaks ties by axis order, and centers level on an axis give -axis", function()
    local a = obb.new2(0, 0, 1, 1)
    assert_pen(a, obb.new2(0, 0, 1, 1), { -1, 0 }, 2) -- identical
    assert_pen(a, obb.new2(0, 0, 1, 1, 0.3), { -1, 0 },
      C.sat_depth(a, obb.new2(0, 0, 1, 1, 0.3)), 1e-15)
    -- rotated a: its own axis 0 is still first
    local r = obb.new2(0, 0, 1, 1, 0.5)
    assert_pen(r, r:clone(), { -math.cos(0.5), -math.sin(0.5) }, 2, 1e-15)
  end)

  it("handles one box inside the other", function()
    local a, b = obb.new2(0, 0, 0.5, 0.5), obb.new2(0.2, 0, 3, 3)
    assert_pen(a, b, { -1, 0 }, 3.3, 1e-15)
    assert_pen(b, a, { 1, 0 }, 3.3, 1e-15)
  end)

  it("handles degenerate boxes (points and segments)", function()
    local sq = obb.new2(0, 0, 1, 1)
    assert_pen(obb.new2(0.5, 0.25, 0, 0), sq, { 1, 0 }, 0.5)
    assert_pen(obb.new2(0.25, 0.5, 0, 0), sq, { 0, 1 }, 0.5)
    -- a segment from (-3, 0.75) to (3, 0.75): its own axis 1 is shortest
    assert_pen(obb.new2(0, 0.75, 3, 0), sq, { 0, 1 }, 0.25)
    -- two points at the same place touch
    assert_pen(obb.new2(1, 1, 0, 0), obb.new2(1, 1, 0, 0), { -1, 0 }, 0)
    assert.is_nil(obb.new2(1, 1, 0, 0):penetration(obb.new2(1, 1 + 1e-10, 0, 0)))
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    assert_pen(obb.new2(o, o, 1, 1), obb.new2(o + 1.5, o + 0.2, 1, 1),
      { -1, 0 }, 0.5)
    assert_pen(obb.new2(o, -o, 1, 1), obb.new2(o, -o + 2, 1, 1), { 0, -1 }, 0)
    local r = H.rng(7)
    for _ = 1, 500 do
      local a, b = C.random2(r, 2, o), C.random2(r, 2, o)
      -- the same pair near the origin (the differences are exact)
      local ca, cb = { a:center() }, { b:center() }
      local a0 = a:clone():set_center(ca[1] - o, ca[2] - o)
      local b0 = b:clone():set_center(cb[1] - o, cb[2] - o)
      local p, q = { a:penetration(b) }, { a0:penetration(b0) }
      assert.are.equal(#q, #p)
      if #p > 1 then H.assert_near_list(p, q, 1e-12, "offset result") end
    end
  end)

  it("rejects bad arguments", function()
    local a = obb.new2(0, 0, 1, 1)
    H.assert_argerror(1, "penetration", "obb.obb2 expected, got obb.obb3",
      function() return a:penetration(obb.new3(0, 0, 0, 1, 1, 1)) end)
    H.assert_argerror(1, "penetration", "obb.obb2 expected, got no value",
      function() return a:penetration() end)
    H.assert_argerror(2, "penetration", "no value expected, got number",
      function() return a:penetration(a, 1) end)
  end)

  it("is exact over thousands of random pairs", function()
    local r = H.rng(2024)
    local hits = 0
    for _ = 1, 2000 do
      local a, b = C.random2(r, 2), C.random2(r, 2)
      local s = C.scale(a, b)
      local want = C.sat_depth(a, b)
      local nx, ny, d = a:penetration(b)
      if nx == nil then
        assert(want < 1e-12 * s, "missed penetration " .. want)
        assert.is_false(a:intersects(b))
      else
        hits = hits + 1
        assert.is_true(a:intersects(b))
        assert(math.abs(d - want) <= 1e-12 * s,
          "depth " .. d .. " expected " .. want)
        assert(math.abs(nx * nx + ny * ny - 1) <= 1e-14)
        -- the normal is the axis it claims: a's overlap along it is depth
        assert(math.abs(C.overlap(a, b, { nx, ny }) - d) <= 1e-12 * s)
        assert_separates(a, b, { nx, ny }, d, 1e-11 * s)
      end
    end
    assert.is_true(hits > 300 and hits < 1700) -- both outcomes exercised
  end)

  it("is invariant under a rigid motion of both boxes", function()
    assert_rigid_invariant(2, H.rng(99), C.random2, 2, C.rigid2)
  end)
end)

describe("penetration (3D)", function()
  it("pushes a out of b along a face axis", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    assert_pen(a, obb.new3(1.5, 0.2, 0.1, 1, 1, 1), { -1, 0, 0 }, 0.5)
    assert_pen(a, obb.new3(0.1, 0.2, -1.75, 1, 1, 1), { 0, 0, 1 }, 0.25)
    assert_pen(a, obb.new3(0.3, 1.9, 0.1, 1, 1, 1), { 0, -1, 0 }, 0.1, 1e-15)
  end)

  it("finds an edge-edge axis when it is the shortest way out", function()
    -- a's top front edge (along x) crosses b's bottom edge (along y):
    -- a is turned 45 degrees about x, b 45 degrees about y
    local qa = H.quat_axis_angle(1, 0, 0, math.pi / 4)
    local qb = H.quat_axis_angle(0, 1, 0, math.pi / 4)
    local a = obb.new3(0, 0, 0, 1, 1, 1, unpack(qa))
    local b = obb.new3(0, 0, 2 * SQRT2 - 0.1, 1, 1, 1, unpack(qb))
    local nx, ny, nz, d = a:penetration(b)
    assert.is_true(H.near(nx, 0, 1e-15) and H.near(ny, 0, 1e-15) and
      H.near(nz, -1, 1e-15))
    assert.is_true(H.near(d, 0.1, 1e-14))
    local want = C.sat_depth(a, b)
    assert.is_true(H.near(d, want, 1e-14))
    assert_separates(a, b, { nx, ny, nz }, d, 1e-12)
  end)

  it("finds a skew edge-edge axis exactly", function()
    local qa = H.quat_axis_angle(0, 0, 1, 0.3)
    local qb = H.quat_mul(H.quat_axis_angle(1, 0, 0, 0.7),
      H.quat_axis_angle(0, 1, 0, 0.9))
    local a = obb.new3(0, 0, 0, 1, 0.5, 0.8, unpack(qa))
    local b = obb.new3(0.9, 1.1, 1.2, 0.6, 1, 0.4, unpack(qb))
    local nx, ny, nz, d = a:penetration(b)
    assert.is_not_nil(nx)
    assert.is_true(H.near(d, (C.sat_depth(a, b)), 1e-13))
    assert_separates(a, b, { nx, ny, nz }, d, 1e-12)
  end)

  it("returns nil when apart, depth 0 when touching", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    assert.is_nil(a:penetration(obb.new3(0, 0, 2 + 1e-10, 1, 1, 1)))
    assert_pen(a, obb.new3(0.5, 0.5, 2, 1, 1, 1), { 0, 0, -1 }, 0)
    -- face to face, edge to edge, corner to corner: a's axes first
    assert_pen(a, obb.new3(2, 2, 0, 1, 1, 1), { -1, 0, 0 }, 0)
    assert_pen(a, obb.new3(2, 2, 2, 1, 1, 1), { -1, 0, 0 }, 0)
    -- apart only across an edge-edge axis
    local qa = H.quat_axis_angle(1, 0, 0, math.pi / 4)
    local qb = H.quat_axis_angle(0, 1, 0, math.pi / 4)
    local e = obb.new3(0, 0, 0, 1, 1, 1, unpack(qa))
    assert.is_nil(e:penetration(obb.new3(0, 0, 2 * SQRT2 + 1e-9, 1, 1, 1,
      unpack(qb))))
  end)

  it("handles identical, nested and nearly parallel boxes", function()
    local a = obb.new3(0, 0, 0, 1, 2, 3)
    assert_pen(a, a:clone(), { -1, 0, 0 }, 2)
    assert_pen(obb.new3(0.1, 0, 0, 0.5, 0.5, 0.5), obb.new3(0, 0, 0, 3, 3, 3),
      { 1, 0, 0 }, 3.4, 1e-15)
    -- b turned by 1e-9 about z: edge axes are nearly parallel to faces, and
    -- the answer is still the face contact
    local b = obb.new3(0, 0, 1.9, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 0, 1, 1e-9)))
    local nx, ny, nz, d = obb.new3(0, 0, 0, 1, 1, 1):penetration(b)
    assert.is_true(H.near(nz, -1, 1e-15) and math.abs(nx) < 1e-12 and
      math.abs(ny) < 1e-12)
    assert.is_true(H.near(d, 0.1, 1e-12))
  end)

  it("handles degenerate boxes", function()
    local cube = obb.new3(0, 0, 0, 1, 1, 1)
    assert_pen(obb.new3(0.5, 0.25, 0.1, 0, 0, 0), cube, { 1, 0, 0 }, 0.5)
    -- a flat square lying in the cube's top face
    assert_pen(obb.new3(0, 0, 1, 0.5, 0.5, 0), cube, { 0, 0, 1 }, 0)
    -- a needle along z through the cube
    assert_pen(obb.new3(0.9, 0, 0, 0, 0, 5), cube, { 1, 0, 0 }, 0.1, 1e-15)
    assert_pen(obb.new3(1, 1, 1, 0, 0, 0), obb.new3(1, 1, 1, 0, 0, 0),
      { -1, 0, 0 }, 0)
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    assert_pen(obb.new3(o, o, o, 1, 1, 1), obb.new3(o + 1.5, o, o, 1, 1, 1),
      { -1, 0, 0 }, 0.5)
    local r = H.rng(8)
    for _ = 1, 500 do
      local a, b = C.random3(r, 2, o), C.random3(r, 2, o)
      local ca, cb = { a:center() }, { b:center() }
      local a0 = a:clone():set_center(ca[1] - o, ca[2] - o, ca[3] - o)
      local b0 = b:clone():set_center(cb[1] - o, cb[2] - o, cb[3] - o)
      local p, q = { a:penetration(b) }, { a0:penetration(b0) }
      assert.are.equal(#q, #p)
      if #p > 1 then H.assert_near_list(p, q, 1e-12, "offset result") end
    end
  end)

  it("rejects bad arguments", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(1, "penetration", "obb.obb3 expected, got obb.obb2",
      function() return a:penetration(obb.new2(0, 0, 1, 1)) end)
    H.assert_argerror(2, "penetration", "no value expected, got table",
      function() return a:penetration(a, {}) end)
  end)

  it("is exact over thousands of random pairs", function()
    local r = H.rng(31337)
    local hits, edges = 0, 0
    for _ = 1, 2000 do
      local a, b = C.random3(r, 2.2), C.random3(r, 2.2)
      local s = C.scale(a, b)
      local want = C.sat_depth(a, b)
      local nx, ny, nz, d = a:penetration(b)
      if nx == nil then
        assert(want < 1e-12 * s, "missed penetration " .. want)
        assert.is_false(a:intersects(b))
      else
        hits = hits + 1
        assert.is_true(a:intersects(b))
        assert(math.abs(d - want) <= 1e-12 * s,
          "depth " .. d .. " expected " .. want)
        assert(math.abs(nx * nx + ny * ny + nz * nz - 1) <= 1e-14)
        assert(math.abs(C.overlap(a, b, { nx, ny, nz }) - d) <= 1e-12 * s)
        assert_separates(a, b, { nx, ny, nz }, d, 1e-11 * s)
        local face = false
        for _, u in ipairs(C.candidates(a, b)) do
          if _ <= 6 and math.abs(math.abs(C.dot(u, { nx, ny, nz })) - 1) < 1e-12 then
            face = true
          end
        end
        if not face then edges = edges + 1 end
      end
    end
    assert.is_true(hits > 300 and hits < 1700)
    assert.is_true(edges > 20) -- edge-edge answers were exercised
  end)

  it("is invariant under a rigid motion of both boxes", function()
    assert_rigid_invariant(3, H.rng(4242), C.random3, 2.2, C.rigid3)
  end)
end)

describe("penetration (grid pairs: touching, ties, parallel, degenerate)", function()
  for _, dim in ipairs({ 2, 3 }) do
    it(dim .. "D: exact, separating, and nil exactly when apart", function()
      local r = H.rng(dim * 11)
      local make = dim == 2 and C.grid2 or C.grid3
      local touching = 0
      for _ = 1, 2000 do
        local a, b = make(r), make(r)
        local s = C.scale(a, b) + 1
        local want = C.sat_depth(a, b)
        local res = { a:penetration(b) }
        assert.are.equal(a:intersects(b), #res > 1)
        if #res > 1 then
          local d = table.remove(res)
          assert(math.abs(d - want) <= 1e-12 * s, "depth " .. d .. " vs " .. want)
          if d == 0 then touching = touching + 1 end
          assert_separates(a, b, res, d, 1e-11 * s)
        else
          assert(want < 1e-12 * s)
        end
      end
      assert.is_true(touching > 50) -- touching pairs were exercised
    end)
  end
end)

describe("collision queries at extreme magnitudes", function()
  it("never raise, and answer with numbers or nil", function()
    local M = 1.7e308
    local sizes = { 0, 1e-300, 5e-324, 1, 1e300, M }
    local function numbers(...)
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        assert(v == nil or type(v) == "number")
      end
    end
    for _, e in ipairs(sizes) do
      for _, c in ipairs(sizes) do
        local a = obb.new3(0, 0, 0, e, e, e, 0.3, 0.2, 0.1, 1)
        local b = obb.new3(c, -c, c, e, M, 0, 0.1, 0.9, 0.3, 0.2)
        numbers(a:penetration(b))
        numbers(a:contacts(b))
        numbers(a:contacts(b, {}))
        numbers(a:sweep(b, M, -M, 0, -M, M, 1))
        local a2, b2 = obb.new2(0, 0, e, e, 0.3), obb.new2(c, -c, e, M, 1)
        numbers(a2:penetration(b2))
        numbers(a2:contacts(b2))
        numbers(a2:sweep(b2, M, -M, -M, M))
      end
    end
    -- opposite displacements near the largest double still meet
    local t, nx = obb.new2(0, 0, 1, 1):sweep(obb.new2(5, 0, 1, 1), M, 0, -M, 0)
    assert.is_true(t > 0 and t < 1e-300 and nx == -1)
  end)
end)

-- box:overlaps: deeper than the touching band B (obb.h), the movers' rule
-- for an other the item is already inside.
describe("overlaps", function()
  local function band(a, b, dim)
    local ca, ea, cb, eb = { a:center() }, { a:half_extents() }, { b:center() }, { b:half_extents() }
    local S, M = 0, 0
    for i = 1, dim do
      S = S + (math.abs(cb[i] - ca[i]) + (ea[i] + eb[i]))
      M = math.max(M, math.abs(ca[i]), math.abs(cb[i]))
    end
    return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
  end

  it("is true for overlapping boxes, false for touching and apart ones (2D and 3D)", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.is_true(a:overlaps(obb.new2(1.5, 0, 1, 1)))
    assert.is_true(a:overlaps(obb.new2(0.3, -0.2, 0.5, 2, 0.7)))
    assert.is_false(a:overlaps(obb.new2(2, 0, 1, 1)))       -- face to face
    assert.is_true(a:intersects(obb.new2(2, 0, 1, 1)))
    assert.is_false(a:overlaps(obb.new2(2, 2, 1, 1)))       -- corner to corner
    assert.is_false(a:overlaps(obb.new2(3, 0, 1, 1)))       -- apart
    local c = obb.new3(0, 0, 0, 1, 1, 1)
    assert.is_true(c:overlaps(obb.new3(1.5, 0.5, 0, 1, 1, 1)))
    assert.is_false(c:overlaps(obb.new3(2, 0.5, 0, 1, 1, 1)))
    assert.is_true(c:intersects(obb.new3(2, 0.5, 0, 1, 1, 1)))
    assert.is_false(c:overlaps(obb.new3(0, 0, 2, 1, 1, 1, 0, 0, 0.38268343236509, 0.92387953251129)))
  end)

  it("calls a pair within the band touching, whichever way rounding left it", function()
    -- flush neighbours a few ulps in or out, and turned ones: never overlapping
    for _, eps in ipairs({ 0, 1e-15, -1e-15, 4e-16, 1e-13 }) do
      assert.is_false(obb.new2(0, 0, 1, 1):overlaps(obb.new2(2 - eps, 0, 1, 1)), eps)
      assert.is_false(obb.new3(0, 0, 0, 1, 1, 1):overlaps(obb.new3(0, 2 - eps, 0, 1, 1, 1)), eps)
    end
    for i = 1, 200 do
      local ang = i * 0.0314
      local a = obb.new2(10, -3, 2, 0.5, ang)
      local ux, uy = a:axes()
      -- b beside a along a's second axis, flush: their faces touch
      local b = obb.new2(10 - uy * 1, -3 + ux * 1, 2, 0.5, ang)
      assert.is_true(a:intersects(b), ang)
      assert.is_false(a:overlaps(b), ang)
      assert.is_false(b:overlaps(a), ang)
    end
  end)

  it("agrees with the depth of an independent separating-axis test and the band on random pairs", function()
    local r = H.rng(4711)
    for _, dim in ipairs({ 2, 3 }) do
      local over, shallow = 0, 0
      for _ = 1, dim == 2 and 20000 or 5000 do
        local a, b
        if dim == 2 then a, b = C.random2(r, 2), C.random2(r, 2) else a, b = C.random3(r, 2), C.random3(r, 2) end
        local o = a:overlaps(b)
        local depth, B = C.sat_depth(a, b), band(a, b, dim)
        if o then
          assert.is_true(a:intersects(b))
          over = over + 1
        end
        -- the boundary itself is a matter of the sums' rounding
        if depth > 2 * B then assert.is_true(o, dim .. "D: a deep pair") end
        if depth < B / 2 then
          assert.is_false(o, dim .. "D: a shallow or apart pair")
          shallow = shallow + 1
        end
      end
      assert.is_true(over > 500 and shallow > 500, dim .. "D: both kinds of pairs met")
    end
  end)

  it("is false for a flat box, even against itself", function()
    local seg = obb.new2(0, 0, 1, 0)
    assert.is_false(seg:overlaps(seg))
    assert.is_true(seg:intersects(seg))
    assert.is_true(obb.new2(0, 0, 1, 1):overlaps(obb.new2(0, 0, 1, 1)))
    assert.is_false(obb.new3(0, 0, 0, 1, 1, 0):overlaps(obb.new3(0, 0, 0, 1, 1, 0)))
  end)

  it("is the movers' rule for an other the item starts inside", function()
    for _, gap in ipairs({ 2 - 1e-3, 2, 2 - 1e-15, 2 + 1e-3 }) do
      local w = obb.world2()
      w:add("a", 0, 0, 1, 1); w:add("b", gap, 0, 1, 1)
      local out = {}
      local _, _, n = w:check("a", 0, 3, "slide", out)
      local inside = false
      for i = 0, n - 1 do if out[8 * i + 1] == "b" and out[8 * i + 8] > 0 then inside = true end end
      assert.equal(obb.new2(0, 0, 1, 1):overlaps(obb.new2(gap, 0, 1, 1)), inside, gap)
      w:close()
    end
  end)

  it("rejects bad arguments", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.has_error(function() a:overlaps(obb.new3(0, 0, 0, 1, 1, 1)) end)
    assert.has_error(function() a:overlaps(3) end)
    assert.has_error(function() a:overlaps(a, 1) end,
      "bad argument #2 to 'overlaps' (no value expected, got number)")
    assert.has_error(function() obb.obb2.overlaps(1, a) end)
  end)
end)
