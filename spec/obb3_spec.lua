-- 3D boxes: conventions, queries, boundary cases and transforms.
local obb = require "obb"
local H = require "spec.helpers"

local PI = math.pi
local pack = H.pack
local S2 = math.sqrt(0.5)

-- a turn by angle about a world axis, as a quaternion list
local function turn(x, y, z, angle) return H.quat_axis_angle(x, y, z, angle) end

local function new3q(cx, cy, cz, hx, hy, hz, q)
  return obb.new3(cx, cy, cz, hx, hy, hz, q[1], q[2], q[3], q[4])
end

describe("obb3 conventions", function()
  it("takes quaternions as (x, y, z, w): a quarter turn about z maps x to y", function()
    local b = obb.new3(0, 0, 0, 1, 1, 1, 0, 0, S2, S2)
    H.assert_near_list(pack(b:axes()), { 0, 1, 0, -1, 0, 0, 0, 0, 1 }, 1e-15,
      "axes")
    -- about x: y goes to z
    b = obb.new3(0, 0, 0, 1, 1, 1, S2, 0, 0, S2)
    H.assert_near_list(pack(b:axes()), { 1, 0, 0, 0, 0, 1, 0, -1, 0 }, 1e-15,
      "axes")
  end)

  it("normalises any non-zero quaternion", function()
    local a = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, 5, 5)
    local b = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, S2, S2)
    H.assert_near_list(pack(a:axes()), pack(b:axes()), 1e-15)
    local c = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, 1e-200, 1e-200)
    H.assert_near_list(pack(c:axes()), pack(b:axes()), 1e-15)
    local d = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, 1e200, 1e200)
    H.assert_near_list(pack(d:axes()), pack(b:axes()), 1e-15)
  end)

  it("gives axes as three orthonormal right-handed rows", function()
    local r = H.rng(3)
    for _ = 1, 50 do
      local b = obb.new3(0, 0, 0, 1, 1, 1, r.quat())
      local a = pack(b:axes())
      local u = { { a[1], a[2], a[3] }, { a[4], a[5], a[6] }, { a[7], a[8], a[9] } }
      for i = 1, 3 do
        for j = 1, 3 do
          assert.is_true(H.near(H.dot(u[i], u[j]), i == j and 1 or 0, 1e-14))
        end
      end
      local w = { u[1][2] * u[2][3] - u[1][3] * u[2][2],
        u[1][3] * u[2][1] - u[1][1] * u[2][3], u[1][1] * u[2][2] - u[1][2] * u[2][1] }
      H.assert_near_list(w, u[3], 1e-14, "u0 x u1 = u2")
    end
  end)

  it("gives rotation() with w >= 0, the same rotation as given", function()
    local r = H.rng(4)
    for i = 1, 200 do
      local q = { r.quat() }
      if i % 4 == 0 then q[4] = 0 end -- half turns: w = 0
      local n = math.sqrt(H.dot(q, q))
      for k = 1, 4 do q[k] = q[k] / n end
      local b = new3q(0, 0, 0, 1, 1, 1, q)
      local g = pack(b:rotation())
      assert.is_true(g[4] >= 0, "w >= 0")
      assert.is_true(H.near(H.dot(g, g), 1, 1e-14), "unit")
      -- q and -q are the same rotation
      local s = H.dot(g, q) < 0 and -1 or 1
      H.assert_near_list(g, { s * q[1], s * q[2], s * q[3], s * q[4] }, 1e-12,
        "rotation")
    end
    H.assert_near_list(pack(obb.new3(0, 0, 0, 1, 1, 1):rotation()), { 0, 0, 0, 1 }, 0)
    H.assert_near_list(pack(obb.new3(0, 0, 0, 1, 1, 1, 0, 0, 0, -1):rotation()),
      { 0, 0, 0, 1 }, 0)
  end)

  it("orders corners by bits: bit 0 is + on axis 0, bit 1 on axis 1, bit 2 on axis 2", function()
    local c = pack(obb.new3(10, 20, 30, 1, 2, 3):corners())
    assert.are.equal(24, c.n)
    local want = {}
    for k = 0, 7 do
      want[#want + 1] = 10 + (k % 2 == 1 and 1 or -1)
      want[#want + 1] = 20 + (math.floor(k / 2) % 2 == 1 and 2 or -2)
      want[#want + 1] = 30 + (math.floor(k / 4) % 2 == 1 and 3 or -3)
    end
    H.assert_near_list(c, want, 0, "corners")
    -- turned a quarter about z: local +x points along world +y
    c = pack(obb.new3(0, 0, 0, 1, 2, 3, 0, 0, S2, S2):corners())
    H.assert_near_list({ c[1], c[2], c[3] }, { 2, -1, -3 }, 1e-15, "corner 0")
    H.assert_near_list({ c[4], c[5], c[6] }, { 2, 1, -3 }, 1e-15, "corner 1")
    H.assert_near_list({ c[22], c[23], c[24] }, { -2, 1, 3 }, 1e-15, "corner 7")
  end)

  it("gives aabb() as min x, y, z then max x, y, z", function()
    H.assert_near_list(pack(obb.new3(1, 2, 3, 4, 5, 6):aabb()),
      { -3, -3, -3, 5, 7, 9 }, 0)
    local q = turn(0, 0, 1, PI / 4)
    local r = math.sqrt(2)
    H.assert_near_list(pack(new3q(0, 0, 0, 1, 1, 1, q):aabb()),
      { -r, -r, -1, r, r, 1 }, 1e-15)
  end)
end)

describe("obb3 intersects", function()
  local A = obb.new3(0, 0, 0, 1, 1, 1)

  it("counts face contact as intersecting, and separates gaps of 1e-10", function()
    assert.is_true(A:intersects(obb.new3(2, 0, 0, 1, 1, 1)))
    assert.is_true(A:intersects(obb.new3(0, 0, -2, 1, 1, 1)))
    assert.is_true(A:intersects(obb.new3(0, 1.5, 2, 1, 1, 1)))  -- sliding
    assert.is_false(A:intersects(obb.new3(2 + 1e-10, 0, 0, 1, 1, 1)))
    -- a box turned about z rests on the top face: z stays exact
    for _, a in ipairs({ 0.3, PI / 4, 2 }) do
      local q = turn(0, 0, 1, a)
      assert.is_true(A:intersects(new3q(0.5, 0.5, 2, 1, 1, 1, q)))
      assert.is_true(new3q(0.5, 0.5, 2, 1, 1, 1, q):intersects(A))
      assert.is_false(A:intersects(new3q(0.5, 0.5, 2 + 1e-10, 1, 1, 1, q)))
      assert.is_false(new3q(0.5, 0.5, 2 + 1e-10, 1, 1, 1, q):intersects(A))
    end
  end)

  it("counts edge-edge and vertex contact of axis-aligned boxes", function()
    assert.is_true(A:intersects(obb.new3(0, 2, 2, 1, 1, 1)))      -- edges
    assert.is_true(A:intersects(obb.new3(2, 2, 2, 1, 1, 1)))      -- vertices
    assert.is_false(A:intersects(obb.new3(0, 2, 2 + 1e-10, 1, 1, 1)))
    assert.is_false(A:intersects(obb.new3(2, 2 + 1e-10, 2, 1, 1, 1)))
  end)

  it("decides crossed edge-edge contact (only an edge axis separates)", function()
    -- B turned 45 degrees about x and about y so that one of its edges,
    -- along world y, touches A's top edge along x at (0, 0, 1) from above.
    -- The separating plane is z = 1 only when B sits exactly on it, so use
    -- a diamond: B turned 45 degrees about y has an edge along y at
    -- distance sqrt(2)*e from its center.
    local q = turn(0, 1, 0, PI / 4)
    local r = math.sqrt(2)
    for _, g in ipairs({ -1e-9, 1e-9 }) do
      -- edge of B along y, lowest point at z = 1 + g, over A's top face
      local b = new3q(0, 0, 1 + r + g, 1, 1, 1, q)
      assert.are.equal(g < 0, A:intersects(b), "over face, g=" .. g)
      -- A turned 45 degrees about x: its top edge runs along x at z = sqrt 2
      local a = new3q(0, 0, 0, 1, 1, 1, turn(1, 0, 0, PI / 4))
      b = new3q(0, 0, 2 * r + g, 1, 1, 1, q)
      assert.are.equal(g < 0, a:intersects(b), "edge on edge, g=" .. g)
      assert.are.equal(g < 0, b:intersects(a), "edge on edge, g=" .. g)
    end
  end)

  it("has no false separation for nearly parallel edges in contact", function()
    -- A and B are unit cubes, B at (0, 2, 2) touching A along the edge
    -- y = z = 1. Turning B by theta about n = (0, 1, 1)/sqrt 2 through the
    -- contact point (0, 1, 1) keeps the contact (B's support along -n is
    -- unchanged), with edges crossing at angle theta; moving B by g*n then
    -- separates by g (g > 0) or overlaps (g < 0). For g < sin(theta) no
    -- face axis separates: only the near-degenerate axis x cross edge does.
    for _, theta in ipairs({ 1e-3, 1e-5, 1e-7, 1e-8, 1e-10, 1e-12 }) do
      local q = turn(0, S2, S2, theta)
      for _, g in ipairs({ -1e-9, -1e-12, 1e-9 }) do
        local b = new3q(0, 2 + g * S2, 2 + g * S2, 1, 1, 1, q)
        local want = g < 0
        local what = "theta=" .. theta .. " g=" .. g
        if g == -1e-12 then
          -- overlap only a hair: must still not be reported apart
          assert.is_true(A:intersects(b), what)
          assert.is_true(b:intersects(A), what)
        else
          assert.are.equal(want, A:intersects(b), what)
          assert.are.equal(want, b:intersects(A), what)
        end
      end
    end
  end)

  it("has no false separation when orientations differ only by rounding", function()
    -- Overlapping boxes whose axes agree up to rounding noise: every edge
    -- cross product is almost zero, and a naive 15-axis test without a
    -- rounding allowance reports about one in five of these apart.
    local r = H.rng(11)
    for i = 1, 3000 do
      local q = { r.quat() }
      local q2 = {}
      for k = 1, 4 do q2[k] = q[k] * (1 + r.range(-4e-16, 4e-16)) end
      local ea = { r.range(1, 10), r.range(0.01, 1), r.range(0.01, 1) }
      local eb = { r.range(1, 10), r.range(0.01, 1), r.range(0.01, 1) }
      local u = H.quat_axes(H.unpack(q))
      local ax, f = r.int(1, 3), r.range(0.5, 0.999)
      local c = {}
      for k = 1, 3 do c[k] = u[ax][k] * f * (ea[ax] + eb[ax]) end
      local a = obb.new3(0, 0, 0, ea[1], ea[2], ea[3], H.unpack(q))
      local b = obb.new3(c[1], c[2], c[3], eb[1], eb[2], eb[3], H.unpack(q2))
      assert.is_true(a:intersects(b), "case " .. i)
      assert.is_true(b:intersects(a), "case " .. i)
    end
  end)

  it("separates nearly parallel edges that are apart, and finds overlap", function()
    -- the same family with larger offsets, at an angle where only the edge
    -- axis can separate (g < sin(theta))
    for _, theta in ipairs({ 1e-2, 1e-4, 1e-6 }) do
      local q = turn(0, S2, S2, theta)
      local g = math.sin(theta) / 4
      assert.is_false(A:intersects(new3q(0, 2 + g * S2, 2 + g * S2, 1, 1, 1, q)))
      assert.is_true(A:intersects(new3q(0, 2 - g * S2, 2 - g * S2, 1, 1, 1, q)))
    end
  end)

  it("counts vertex-to-face contact of a turned box", function()
    -- B's body diagonal (1,1,1) turned to point along +z: its vertex -(1,1,1)
    -- is then its lowest point, at distance sqrt(3) below its center.
    -- turn (1,1,1)/sqrt3 onto (0,0,1): axis (1,1,1)x(0,0,1) normalised
    local ax = { 1 / math.sqrt(2), -1 / math.sqrt(2), 0 }
    local ang = math.acos(1 / math.sqrt(3))
    local q = turn(ax[1], ax[2], ax[3], ang)
    local r3 = math.sqrt(3)
    for _, xy in ipairs({ { 0, 0 }, { 0.9, -0.9 }, { 0.5, 0.2 } }) do
      assert.is_true(A:intersects(new3q(xy[1], xy[2], 1 + r3 - 1e-9, 1, 1, 1, q)))
      assert.is_false(A:intersects(new3q(xy[1], xy[2], 1 + r3 + 1e-9, 1, 1, 1, q)))
    end
    -- vertex of B just beyond A's top face edge misses
    assert.is_false(A:intersects(new3q(1.01, 0, 1 + r3 - 1e-9, 1, 1, 1, q)))
  end)

  it("finds identical boxes and a box inside another", function()
    local r = H.rng(5)
    for _ = 1, 20 do
      local q = { r.quat() }
      local b = obb.new3(1, 2, 3, 1, 2, 0.5, H.unpack(q))
      assert.is_true(b:intersects(b) and b:intersects(b:clone()))
      local inner = obb.new3(1, 2, 3, 0.1, 0.1, 0.1, r.quat())
      assert.is_true(b:intersects(inner) and inner:intersects(b))
    end
  end)

  it("handles zero extents: faces, segments and points", function()
    local sq = obb.new3(0, 0, 1, 1, 1, 0)         -- A's top face
    assert.is_true(A:intersects(sq))
    assert.is_false(A:intersects(obb.new3(0, 0, 1 + 1e-10, 1, 1, 0)))
    local seg = obb.new3(2, 0, 0, 1, 0, 0)         -- x from 1 to 3
    assert.is_true(A:intersects(seg))
    assert.is_false(A:intersects(obb.new3(2 + 1e-10, 0, 0, 1, 0, 0)))
    local pt = obb.new3(1, 1, 1, 0, 0, 0)          -- A's corner
    assert.is_true(A:intersects(pt) and pt:intersects(A))
    assert.is_false(A:intersects(obb.new3(1, 1, 1 + 1e-10, 0, 0, 0)))
    -- two crossing segments, and two skew ones
    local s1 = obb.new3(0, 0, 0, 1, 0, 0)
    local s2 = obb.new3(0, 0, 0, 1, 0, 0, 0, 0, S2, S2)
    assert.is_true(s1:intersects(s2))
    assert.is_false(s1:intersects(obb.new3(0, 0, 1e-9, 1, 0, 0, 0, 0, S2, S2)))
    -- a segment along a body diagonal through the box
    local diag = obb.new3(3, 3, 3, 3 * math.sqrt(3), 0, 0,
      H.unpack(H.quat_axis_angle(0, -S2, S2, math.acos(1 / math.sqrt(3)))))
    assert.is_true(A:intersects(diag))
  end)

  it("works at coordinates offset by 1e7", function()
    local o = 1e7
    local a = obb.new3(o, -o, o, 1, 1, 1)
    assert.is_true(a:intersects(obb.new3(o + 2, -o, o, 1, 1, 1)))
    assert.is_false(a:intersects(obb.new3(o + 2 + 1e-7, -o, o, 1, 1, 1)))
    local q = turn(0, S2, S2, 1e-4)
    local g = 1e-6
    assert.is_true(a:intersects(new3q(o, -o + 2 - g, o + 2 - g, 1, 1, 1, q)))
    assert.is_false(a:intersects(new3q(o, -o + 2 + g, o + 2 + g, 1, 1, 1, q)))
  end)
end)

describe("obb3 contains", function()
  it("contains points inside and on the boundary (closed box)", function()
    local b = obb.from_aabb3(0, 0, 0, 1, 2, 3)
    assert.is_true(b:contains(0.5, 1, 1.5))
    assert.is_true(b:contains(0, 0, 0) and b:contains(1, 2, 3))
    assert.is_true(b:contains(1, 1, 1.5))
    assert.is_false(b:contains(1 + 1e-10, 1, 1.5))
    assert.is_false(b:contains(0.5, 1, -1e-10))
    local t = obb.new3(0, 0, 0, 2, 1, 0.5, 0, 0, S2, S2) -- long axis along y
    assert.is_true(t:contains(0, 1.9, 0))
    assert.is_false(t:contains(1.9, 0, 0))
  end)

  it("contains boxes: itself, smaller ones, turned copies", function()
    local q = { 0.1, 0.2, 0.3, 0.9 }
    local a = obb.new3(1, 2, 3, 2, 1, 0.5, H.unpack(q))
    assert.is_true(a:contains(a) and a:contains(a:clone()))
    assert.is_true(a:contains(obb.new3(1, 2, 3, 1, 0.5, 0.25, H.unpack(q))))
    assert.is_true(a:contains(obb.new3(1, 2, 3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5)))
    assert.is_false(a:contains(obb.new3(1, 2, 3, 1, 1.5, 0.25, H.unpack(q))))
    -- a half turn about one of its own axes gives the same set
    local h = H.quat_mul(q, { 1, 0, 0, 0 })
    local b = obb.new3(1, 2, 3, 2, 1, 0.5, H.unpack(h))
    assert.is_true(a:contains(b) and b:contains(a))
  end)

  it("contains degenerate boxes", function()
    local a = obb.from_aabb3(0, 0, 0, 2, 2, 2)
    assert.is_true(a:contains(obb.new3(2, 2, 2, 0, 0, 0)))
    assert.is_true(a:contains(obb.new3(1, 1, 2, 1, 1, 0)))   -- the top face
    assert.is_false(a:contains(obb.new3(1, 1, 2, 1.5, 1, 0)))
    assert.is_true(obb.new3(0, 0, 0, 0, 0, 0):contains(0, 0, 0))
    assert.is_false(obb.new3(0, 0, 0, 0, 0, 0):contains(0, 0, 1e-300))
  end)
end)

describe("obb3 transform", function()
  -- m is row-major 3x4: x' = m1*x + m2*y + m3*z + m4, and so on
  local function rot_matrix(q, t)
    local u = H.quat_axes(q[1], q[2], q[3], q[4]) -- columns of R
    t = t or { 0, 0, 0 }
    return { u[1][1], u[2][1], u[3][1], t[1], u[1][2], u[2][2], u[3][2], t[2],
      u[1][3], u[2][3], u[3][3], t[3] }
  end

  local function check_exact(b, m, d)
    assert.are.equal(b, b:transform(H.unpack(m)))
    H.assert_same_set(b, d, 1e-12)
  end

  it("uses the row-major 3x4 layout", function()
    local b = obb.new3(1, 2, 3, 1, 1, 1)
    b:transform(2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    H.assert_near_list(pack(b:center()),
      { 2 + 6 + 15 + 7, 11 + 26 + 51 + 19, 23 + 58 + 93 + 37 }, 0)
  end)

  it("accepts 16 numbers with last row 0 0 0 1, and tables of 12 or 16", function()
    local m = { 0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3 }
    local a = obb.new3(1, 2, 3, 1, 2, 3, 0.1, 0.2, 0.3, 0.9)
    local b, c, d = a:clone(), a:clone(), a:clone()
    a:transform(H.unpack(m))
    local m16 = { H.unpack(m) }
    m16[13], m16[14], m16[15], m16[16] = 0, 0, 0, 1
    assert.are.equal(b, b:transform(H.unpack(m16)))
    assert.are.equal(c, c:transform(m))
    assert.are.equal(d, d:transform(m16))
    assert.are.equal(a, b)
    assert.are.equal(a, c)
    assert.are.equal(a, d)
  end)

  it("translates, rotates, reflects and scales exactly", function()
    local r = H.rng(8)
    for i = 1, 100 do
      local q = { r.quat() }
      local c = { r.range(-5, 5), r.range(-5, 5), r.range(-5, 5) }
      local e = { r.range(0, 3), r.range(0, 3), r.range(0, 3) }
      local d = H.desc3(c, e, q)
      -- rotation and translation
      local p = { r.quat() }
      local t = { r.range(-5, 5), r.range(-5, 5), r.range(-5, 5) }
      local m = rot_matrix(p, t)
      local rq = H.quat_mul(p, q)
      check_exact(H.box_of(obb, d), m, H.desc3(H.apply3(m, c), e, rq))
      -- a rotation keeps each axis in its slot
      local b = H.box_of(obb, d):transform(H.unpack(m))
      H.assert_near_list(pack(b:half_extents()), e, 1e-12, "case " .. i)
      -- reflection through the plane x = 0, then uniform scale by -2
      local refl = { -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 }
      local rd = { c = H.apply3(refl, c), e = e, u = {} }
      for k = 1, 3 do rd.u[k] = { -d.u[k][1], d.u[k][2], d.u[k][3] } end
      check_exact(H.box_of(obb, d), refl, rd)
      local sc = { -2, 0, 0, 1, 0, -2, 0, 1, 0, 0, -2, 1 }
      check_exact(H.box_of(obb, d), sc,
        { c = H.apply3(sc, c), u = d.u, e = { 2 * e[1], 2 * e[2], 2 * e[3] } })
      -- scale by s_k along the box's own axes: L = sum_k s_k u_k u_k^T
      local s = { r.range(0.1, 3), r.range(0.1, 3), r.range(0.1, 3) }
      local L = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
      for k = 1, 3 do
        for row = 1, 3 do
          for col = 1, 3 do
            local idx = 4 * (row - 1) + col
            L[idx] = L[idx] + s[k] * d.u[k][row] * d.u[k][col]
          end
        end
      end
      check_exact(H.box_of(obb, d), L, { c = H.apply3(L, c), u = d.u,
        e = { s[1] * e[1], s[2] * e[2], s[3] * e[3] } })
    end
  end)

  it("encloses the parallelepiped made by shear or non-uniform scale", function()
    local r = H.rng(9)
    for i = 1, 300 do
      local d = H.desc3({ r.range(-3, 3), r.range(-3, 3), r.range(-3, 3) },
        { r.range(0, 3), r.range(0, 3), r.range(0, 3) }, { r.quat() })
      local m = {}
      for k = 1, 12 do m[k] = r.range(-2, 2) end
      if i % 3 == 0 then m[9], m[10], m[11] = 0, 0, 0 end -- flattening
      local b = H.box_of(obb, d):transform(m)
      local res = H.desc_of(b)
      local size = 1
      local img = {}
      for k, p in ipairs(H.corners(d)) do
        img[k] = H.apply3(m, p)
        for j = 1, 3 do size = math.max(size, math.abs(img[k][j])) end
      end
      for k = 1, 8 do
        assert.is_true(H.point_margin(res, img[k]) >= -1e-12 * size,
          "case " .. i .. ": image corner " .. k .. " outside the result")
      end
      -- tight: on each of the result's axes an image corner reaches the
      -- boundary on both sides
      for ax = 1, 3 do
        local lo, hi = math.huge, -math.huge
        for k = 1, 8 do
          local l = H.local_coords(res, img[k])[ax]
          lo, hi = math.min(lo, l), math.max(hi, l)
        end
        assert.is_true(H.near(hi, res.e[ax], 1e-9) and H.near(-lo, res.e[ax], 1e-9),
          "case " .. i .. ": not tight on axis " .. ax)
      end
    end
  end)
end)
