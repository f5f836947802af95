-- Boxes against other primitives: classify (box against box), circles,
-- spheres and planes. (Segments are in raycast_spec.lua.)
local obb = require "obb"
local H = require "spec.helpers"
local Q = require "spec.query_helpers"

local SQ2 = math.sqrt(2)

describe("classify", function()
  it("2D: contains, intersects, disjoint (a against b)", function()
    local a = obb.new2(0, 0, 2, 2)
    assert.equal("contains", a:classify(obb.new2(0.5, 0.5, 1, 1)))
    assert.equal("contains", a:classify(obb.new2(1, 1, 1, 1))) -- flush corner
    assert.equal("contains", a:classify(a:clone())) -- a box contains itself
    assert.equal("contains", a:classify(obb.new2(0, 0, 2 / SQ2, 2 / SQ2, math.pi / 4)))
    assert.equal("intersects", a:classify(obb.new2(2, 0, 1, 1)))
    assert.equal("intersects", a:classify(obb.new2(4, 4, 2, 2))) -- corners touch
    assert.equal("intersects", a:classify(obb.new2(0, 0, 3, 3))) -- b contains a
    assert.equal("disjoint", a:classify(obb.new2(5, 0, 1, 1)))
    assert.equal("disjoint", a:classify(obb.new2(4, 0, 1 / SQ2, 1 / SQ2, 1e-3)))
  end)

  it("3D: contains, intersects, disjoint", function()
    local a = obb.new3(0, 0, 0, 2, 2, 2)
    local q = H.quat_axis_angle(0, 0.6, 0.8, 1)
    assert.equal("contains", a:classify(obb.new3(0, 0, 0, 1, 1, 1, H.unpack(q))))
    assert.equal("intersects", a:classify(obb.new3(0.5, 0, 0, 1, 1, 1, H.unpack(q))))
    assert.equal("contains", a:classify(obb.new3(1, 1, 1, 1, 1, 1)))
    assert.equal("contains", a:classify(obb.new3(0, 0, 2, 1, 1, 0))) -- flat, on the face
    assert.equal("intersects", a:classify(obb.new3(3, 0, 0, 1, 1, 1)))
    assert.equal("intersects", a:classify(obb.new3(0, 0, 0, 5, 5, 5)))
    assert.equal("disjoint", a:classify(obb.new3(0, 0, 4.5, 1, 1, 1, H.unpack(q))))
  end)

  it("agrees with contains(box) and intersects on random pairs", function()
    local r = H.rng(31)
    local seen = {}
    for _ = 1, 3000 do
      local d2a, d2b = Q.rand_desc2(r, 3), Q.rand_desc2(r, 3)
      local d3a, d3b = Q.rand_desc3(r, 3), Q.rand_desc3(r, 3)
      for _, p in ipairs({ { H.box_of(obb, d2a), H.box_of(obb, d2b) },
        { H.box_of(obb, d3a), H.box_of(obb, d3b) } }) do
        local a, b = p[1], p[2]
        local c = a:classify(b)
        local want = a:contains(b) and "contains" or a:intersects(b) and "intersects" or "disjoint"
        Q.check(c == want, c .. " vs " .. want)
        seen[c] = true
      end
      -- b inside a by construction: a grown copy of b
      local g = H.grow(d3b, 0.01)
      Q.check(H.box_of(obb, g):classify(H.box_of(obb, d3b)) == "contains")
    end
    assert.is_true(seen.contains and seen.intersects and seen.disjoint)
  end)

  it("rejects bad arguments, naming them", function()
    local a2, a3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(1, "classify", "obb.obb2 expected, got obb.obb3",
      function() return a2:classify(a3) end)
    H.assert_argerror(1, "classify", "obb.obb3 expected, got no value",
      function() return a3:classify() end)
    H.assert_argerror(2, "classify", "no value expected, got number",
      function() return a2:classify(a2, 1) end)
  end)
end)

-- Independent point-box distance, in Lua from the box's description.
local function ref_distance(d, p)
  local l, s = H.local_coords(d, p), 0
  for i = 1, #l do
    local x = math.max(0, math.abs(l[i]) - d.e[i])
    s = s + x * x
  end
  return math.sqrt(s)
end

describe("intersects_circle (2D)", function()
  local b = obb.new2(0, 0, 1, 1)

  it("tests discs: inside, crossing, touching exactly, apart", function()
    assert.is_true(b:intersects_circle(0, 0, 0.1))
    assert.is_true(b:intersects_circle(0, 0, 100)) -- box inside the disc
    assert.is_true(b:intersects_circle(1.5, 0, 0.6))
    assert.is_true(b:intersects_circle(2, 0, 1)) -- touching a face
    assert.is_false(b:intersects_circle(2, 0, 1 - 1e-10))
    assert.is_true(b:intersects_circle(4, 5, 5)) -- touching the corner (1,1)
    assert.is_false(b:intersects_circle(4, 5, 5 - 1e-10))
    assert.is_false(b:intersects_circle(2, 2, 1.4)) -- near the corner, apart
    assert.is_true(b:intersects_circle(1, 0.5, 0)) -- a point on the edge
    assert.is_false(b:intersects_circle(1.01, 0.5, 0))
  end)

  it("works in the box's frame and on degenerate boxes", function()
    local d = obb.new2(0, 0, 1, 1, math.pi / 4) -- corner at (sqrt2, 0)
    assert.is_true(d:intersects_circle(SQ2 + 0.5, 0, 0.5 + 1e-12))
    assert.is_false(d:intersects_circle(SQ2 + 0.5, 0, 0.5 - 1e-9))
    local seg = obb.new2(0, 0, 1, 0)
    assert.is_true(seg:intersects_circle(0, 1, 1))
    assert.is_false(seg:intersects_circle(0, 1, 0.999))
  end)

  it("agrees with an independent distance on random cases", function()
    local r = H.rng(41)
    local n = 0
    for _ = 1, 5000 do
      local d = Q.rand_desc2(r)
      local x, y, rad = d.c[1] + r.range(-6, 6), d.c[2] + r.range(-6, 6), r.range(0, 3)
      local ref = ref_distance(d, { x, y })
      if math.abs(ref - rad) > 1e-9 * Q.size(d) then
        n = n + 1
        Q.check(H.box_of(obb, d):intersects_circle(x, y, rad) == (ref <= rad))
      end
    end
    assert.is_true(n > 4900)
  end)

  it("rejects bad arguments, naming them", function()
    H.assert_argerror(3, "intersects_circle", "radius must be >= 0, got -1",
      function() return b:intersects_circle(0, 0, -1) end)
    H.assert_argerror(3, "intersects_circle", "finite number expected, got inf",
      function() return b:intersects_circle(0, 0, math.huge) end)
    H.assert_argerror(3, "intersects_circle", "number expected, got no value",
      function() return b:intersects_circle(0, 0) end)
    H.assert_argerror(1, "intersects_circle", "number expected, got table",
      function() return b:intersects_circle({}, 0, 1) end)
    H.assert_argerror(4, "intersects_circle", "no value expected, got number",
      function() return b:intersects_circle(0, 0, 1, 1) end)
  end)
end)

describe("intersects_sphere (3D)", function()
  local b = obb.new3(0, 0, 0, 1, 2, 3)

  it("tests balls against faces, edges and corners", function()
    assert.is_true(b:intersects_sphere(0, 0, 0, 0.5))
    assert.is_true(b:intersects_sphere(3, 0, 0, 2)) -- touching a face
    assert.is_false(b:intersects_sphere(3, 0, 0, 2 - 1e-10))
    assert.is_true(b:intersects_sphere(4, 6, 0, 5)) -- touching an edge
    assert.is_false(b:intersects_sphere(4, 6, 0, 5 - 1e-10))
    assert.is_true(b:intersects_sphere(2, 4, 5, 3)) -- touching the corner (1,2,3)
    assert.is_false(b:intersects_sphere(2, 4, 5, 3 - 1e-10))
    assert.is_true(b:intersects_sphere(1, 2, 3, 0))
  end)

  it("agrees with an independent distance on random cases", function()
    local r = H.rng(42)
    local n = 0
    for _ = 1, 5000 do
      local d = Q.rand_desc3(r)
      local p = { d.c[1] + r.range(-6, 6), d.c[2] + r.range(-6, 6), d.c[3] + r.range(-6, 6) }
      local rad = r.range(0, 3)
      local ref = ref_distance(d, p)
      if math.abs(ref - rad) > 1e-9 * Q.size(d) then
        n = n + 1
        Q.check(H.box_of(obb, d):intersects_sphere(p[1], p[2], p[3], rad) == (ref <= rad))
      end
    end
    assert.is_true(n > 4900)
  end)

  it("rejects bad arguments, naming them", function()
    H.assert_argerror(4, "intersects_sphere", "radius must be >= 0, got -0.5",
      function() return b:intersects_sphere(0, 0, 0, -0.5) end)
    H.assert_argerror(2, "intersects_sphere", "finite number expected, got nan",
      function() return b:intersects_sphere(0, 0 / 0, 0, 1) end)
    H.assert_argerror(5, "intersects_sphere", "no value expected, got number",
      function() return b:intersects_sphere(0, 0, 0, 1, 1) end)
    H.assert_argerror(4, "intersects_sphere", "number expected, got no value",
      function() return b:intersects_sphere(0, 0, 0) end)
  end)
end)

describe("plane_side (3D)", function()
  local b = obb.new3(0, 0, 0, 1, 2, 3)

  it("says which side of n.x = d the box is on, 0 when crossing or touching", function()
    assert.equal(-1, b:plane_side(1, 0, 0, 2)) -- the plane x = 2, box behind
    assert.equal(1, b:plane_side(1, 0, 0, -1.5)) -- box on the normal's side
    assert.equal(0, b:plane_side(1, 0, 0, 0.5)) -- crossing
    assert.equal(0, b:plane_side(1, 0, 0, 1)) -- touching the face x = 1
    assert.equal(0, b:plane_side(0, 0, -1, 3)) -- touching z = -3
    assert.equal(-1, b:plane_side(0, 0, -1, 3 + 1e-10)) -- z = -3 - 1e-10
    assert.equal(0, b:plane_side(0, 0, -1, 3 + 1e-13)) -- within the band
    assert.equal(1, b:plane_side(0, 0, -1, -3 - 1e-10)) -- z = 3 + 1e-10
  end)

  it("accepts a normal of any length", function()
    assert.equal(-1, b:plane_side(2, 0, 0, 4)) -- still x = 2
    assert.equal(0, b:plane_side(0, 5, 0, 10)) -- y = 2: touching
    -- x = -2 with the normal pointing to -x: the box is behind it
    assert.equal(-1, b:plane_side(-1e-3, 0, 0, 2e-3))
    assert.equal(1, b:plane_side(-1e-3, 0, 0, -2e-3)) -- x = 2
  end)

  it("uses the box's orientation and handles flat boxes", function()
    local q = H.quat_axis_angle(0, 0, 1, math.pi / 4)
    local r = obb.new3(0, 0, 0, 1, 1, 1, H.unpack(q)) -- reaches x = sqrt2
    assert.equal(0, r:plane_side(1, 0, 0, SQ2 - 1e-12))
    assert.equal(-1, r:plane_side(1, 0, 0, SQ2 + 1e-9))
    local flat = obb.new3(0, 0, 5, 1, 1, 0)
    assert.equal(0, flat:plane_side(0, 0, 1, 5))
    assert.equal(1, flat:plane_side(0, 0, 1, 5 - 1e-12))
  end)

  it("agrees with the signs of the corners on random cases", function()
    local r = H.rng(51)
    local seen = {}
    for _ = 1, 5000 do
      local d = Q.rand_desc3(r)
      local n = { r.normal(), r.normal(), r.normal() }
      local dd = H.dot(n, d.c) + r.range(-6, 6)
      local lo, hi = math.huge, -math.huge
      for _, x in ipairs(H.corners(d)) do
        local s = H.dot(n, x) - dd
        lo, hi = math.min(lo, s), math.max(hi, s)
      end
      local tol = 1e-9 * Q.size(d) * math.sqrt(H.dot(n, n))
      local want = lo > tol and 1 or hi < -tol and -1 or (lo < -tol and hi > tol) and 0 or nil
      if want then
        local got = H.box_of(obb, d):plane_side(n[1], n[2], n[3], dd)
        Q.check(got == want, got .. " vs " .. want)
        seen[want] = true
      end
    end
    assert.is_true(seen[1] and seen[0] and seen[-1])
  end)

  it("rejects bad arguments, naming them", function()
    H.assert_argerror(1, "plane_side", "plane normal must not be zero",
      function() return b:plane_side(0, 0, 0, 1) end)
    H.assert_argerror(4, "plane_side", "finite number expected, got nan",
      function() return b:plane_side(0, 0, 1, 0 / 0) end)
    H.assert_argerror(4, "plane_side", "number expected, got no value",
      function() return b:plane_side(0, 0, 1) end)
    H.assert_argerror(5, "plane_side", "no value expected, got number",
      function() return b:plane_side(0, 0, 1, 1, 1) end)
    H.assert_argerror(2, "plane_side", "number expected, got string",
      function() return b:plane_side(0, "1", 1, 1) end)
  end)
end)

describe("query results", function()
  -- Every query answers with plain values: a loop of them allocates
  -- nothing (merge, which returns a new box, is the exception).
  it("make no garbage", function()
    local a2, b2 = obb.new2(0, 0, 1, 1), obb.new2(5, 1, 1, 2, 0.3)
    local a3, b3 = obb.new3(0, 0, 0, 1, 1, 1), obb.new3(5, 1, 0, 1, 2, 1, 0, 0.6, 0, 0.8)
    local function run()
      for i = 1, 2000 do
        local x = i / 1000
        a2:raycast(-5, x, 1, 0); a2:raycast(0, 0, 1, 0)
        a2:closest_point(x, 3); a2:distance(x, 3); a2:signed_distance(x, 0)
        a2:distance(b2); a2:classify(b2); a2:intersects_circle(x, 2, 0.5)
        a2:intersects_segment(-5, x, 5, x)
        a3:raycast(-5, x, 0, 1, 0, 0, 10); a3:closest_point(x, 3, 0)
        a3:distance(x, 3, 0); a3:signed_distance(x, 0, 0); a3:distance(b3)
        a3:classify(b3); a3:intersects_sphere(x, 2, 0, 0.5)
        a3:intersects_segment(-5, x, 0, 5, x, 0); a3:plane_side(1, 0, 0, x)
      end
    end
    assert.are.equal(0, H.kib_allocated_by(run))
  end)
end)
