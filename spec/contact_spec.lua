-- box:contacts(other [, out]): contact manifolds.
local obb = require "obb"
local H = require "spec.helpers"
local C = require "spec.collide_helpers"

local unpack = H.unpack
local SQRT2 = math.sqrt(2)

-- Calls a:contacts(b) and splits the result: count, normal, points (each
-- { x, y[, z], depth }).
local function manifold(a, b)
  local r = { a:contacts(b) }
  if r[1] == nil then return nil end
  local dim = C.dim(a)
  local n, pts = {}, {}
  for k = 1, dim do n[k] = r[1 + k] end
  for i = 0, r[1] - 1 do
    local p = {}
    for k = 1, dim + 1 do p[k] = r[2 + dim + i * (dim + 1) + k - 1] end
    pts[#pts + 1] = p
  end
  assert.are.equal(1 + dim + r[1] * (dim + 1), #r)
  return r[1], n, pts
end

-- Asserts the manifold has exactly the expected points, in any order.
local function assert_points(pts, want, tol)
  assert.are.equal(#want, #pts, "contact count")
  local used = {}
  for _, w in ipairs(want) do
    local found = false
    for i, p in ipairs(pts) do
      local same = not used[i]
      for k = 1, #w do
        if not H.near(p[k], w[k], tol or 1e-14) then same = false end
      end
      if same then used[i], found = true, true break end
    end
    if not found then
      error("missing contact point {" .. table.concat(w, ", ") .. "}", 2)
    end
  end
end

-- The defining property of every point m with depth d: m - n*d/2 lies on
-- a's surface and m + n*d/2 on b's.
local function assert_on_surfaces(a, b, n, pts, tol)
  local da, db = H.desc_of(a), H.desc_of(b)
  for _, p in ipairs(pts) do
    local d = p[#p]
    local pa, pb = {}, {}
    for k = 1, #n do
      pa[k] = p[k] - n[k] * d / 2
      pb[k] = p[k] + n[k] * d / 2
    end
    assert(math.abs(H.point_margin(da, pa)) <= tol, "not on a's surface")
    assert(math.abs(H.point_margin(db, pb)) <= tol, "not on b's surface")
  end
end

describe("contacts (2D)", function()
  it("gives the two ends of a resting face", function()
    local a, b = obb.new2(0, 0, 2, 1), obb.new2(0.5, 1.9, 1, 1)
    local count, n, pts = manifold(a, b)
    assert.are.equal(2, count)
    H.assert_near_list(n, { 0, -1 }, 0, "normal")
    -- b's bottom face dips 0.1 into a's top; points midway, at y = 0.95
    assert_points(pts, { { -0.5, 0.95, 0.1 }, { 1.5, 0.95, 0.1 } })
  end)

  it("clips the incident face to the reference face", function()
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(0.5, 4.9, 4, 4)
    local count, n, pts = manifold(a, b)
    assert.are.equal(2, count)
    H.assert_near_list(n, { 0, -1 }, 0, "normal")
    assert_points(pts, { { -1, 0.95, 0.1 }, { 1, 0.95, 0.1 } })
  end)

  it("gives one point for a corner in a face", function()
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(0, 1.9, 1, 1, math.pi / 4)
    local count, n, pts = manifold(a, b)
    assert.are.equal(1, count)
    H.assert_near_list(n, { 0, -1 }, 0, "normal")
    local d = SQRT2 - 0.9 -- the corner at y = 1.9 - sqrt 2
    assert_points(pts, { { 0, 1 - d / 2, d } }, 1e-15)
    -- and the depth is the penetration depth
    assert.is_true(H.near(d, select(3, a:penetration(b)), 1e-15))
  end)

  it("gives a corner of a in b's face when b is the reference", function()
    local a = obb.new2(0, 0, 1, 1)
    local c = (SQRT2 + 0.7) / SQRT2
    local b = obb.new2(c, c, 1, 1, math.pi / 4)
    local count, n, pts = manifold(a, b)
    assert.are.equal(1, count)
    H.assert_near_list(n, { -1 / SQRT2, -1 / SQRT2 }, 1e-15, "normal")
    -- a's corner (1, 1) is 0.3 inside b: the point is 0.15 back from it
    local h = 0.15 / SQRT2
    assert_points(pts, { { 1 - h, 1 - h, 0.3 } }, 1e-14)
    assert_on_surfaces(a, b, n, pts, 1e-14)
  end)

  it("keeps touching contacts at depth 0", function()
    local a = obb.new2(0, 0, 1, 1)
    local count, n, pts = manifold(a, obb.new2(2, 0.5, 1, 1))
    assert.are.equal(2, count)
    H.assert_near_list(n, { -1, 0 }, 0, "normal")
    assert_points(pts, { { 1, -0.5, 0 }, { 1, 1, 0 } }, 0)
    count, n, pts = manifold(a, obb.new2(2, 2, 1, 1)) -- luacheck: ignore 311 (corner to corner)
    assert.are.equal(1, count)
    assert_points(pts, { { 1, 1, 0 } }, 0)
  end)

  it("returns nil when apart", function()
    local a = obb.new2(0, 0, 1, 1)
    assert.is_nil(a:contacts(obb.new2(2 + 1e-10, 0, 1, 1)))
    local out = { 7 }
    assert.is_nil(a:contacts(obb.new2(5, 5, 1, 1), out))
    assert.are.same({ 7 }, out) -- left alone
  end)

  it("is the same manifold, normal negated, with the boxes swapped", function()
    local a, b = obb.new2(0, 0, 2, 1, 0.1), obb.new2(0.5, 1.9, 1, 1, -0.05)
    local c1, n1, p1 = manifold(a, b)
    local c2, n2, p2 = manifold(b, a)
    assert.are.equal(c1, c2)
    H.assert_near_list(n2, { -n1[1], -n1[2] }, 0, "normal")
    assert_points(p2, p1, 0)
  end)

  it("handles degenerate boxes", function()
    local sq = obb.new2(0, 0, 1, 1)
    -- a point inside: one contact, midway to the nearest face
    local count, n, pts = manifold(sq, obb.new2(0.5, 0.25, 0, 0))
    assert.are.equal(1, count)
    H.assert_near_list(n, { -1, 0 }, 0, "normal")
    assert_points(pts, { { 0.75, 0.25, 0.5 } }, 0)
    -- a segment across the top: two points where it crosses the sides
    count, n, pts = manifold(sq, obb.new2(0, 0.75, 3, 0))
    assert.are.equal(2, count)
    H.assert_near_list(n, { 0, -1 }, 0, "normal")
    assert_points(pts, { { -1, 0.875, 0.25 }, { 1, 0.875, 0.25 } }, 0)
    -- two coincident points: one contact
    count, n, pts = manifold(obb.new2(1, 1, 0, 0), obb.new2(1, 1, 0, 0)) -- luacheck: ignore 311
    assert.are.equal(1, count)
    assert_points(pts, { { 1, 1, 0 } }, 0)
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    -- (1.875 is exact at 1e7, where doubles are 2^-29 apart; 1.9 is not)
    local count, n, pts = manifold(obb.new2(o, o, 2, 1),
      obb.new2(o + 0.5, o + 1.875, 1, 1))
    assert.are.equal(2, count)
    H.assert_near_list(n, { 0, -1 }, 0, "normal")
    assert_points(pts, { { o - 0.5, o + 0.9375, 0.125 },
      { o + 1.5, o + 0.9375, 0.125 } }, 0)
  end)

  it("fills a table the caller passes, and clears what is left of it", function()
    local a, b = obb.new2(0, 0, 2, 1), obb.new2(0.5, 1.9, 1, 1)
    local out = {}
    local count, nx, ny, extra = a:contacts(b, out)
    assert.are.equal(2, count)
    assert.are.same({ 0, -1 }, { nx, ny })
    assert.is_nil(extra)
    assert.are.equal(6, #out)
    assert_points({ { out[1], out[2], out[3] }, { out[4], out[5], out[6] } },
      { { -0.5, 0.95, 0.1 }, { 1.5, 0.95, 0.1 } })
    -- reused for a one-point manifold: the second point is cleared
    count = a:contacts(obb.new2(0, 1.9, 1, 1, math.pi / 4), out)
    assert.are.equal(1, count)
    assert.are.equal(3, #out)
    assert.is_nil(out[4])
  end)

  it("rejects bad arguments", function()
    local a = obb.new2(0, 0, 1, 1)
    H.assert_argerror(2, "contacts", "table or nil expected, got number",
      function() return a:contacts(a, 5) end)
    H.assert_argerror(1, "contacts", "obb.obb2 expected, got obb.obb3",
      function() return a:contacts(obb.new3(0, 0, 0, 1, 1, 1)) end)
    H.assert_argerror(3, "contacts", "no value expected, got number",
      function() return a:contacts(a, {}, 1) end)
  end)
end)

describe("contacts (3D)", function()
  it("gives the four corners of a resting face", function()
    local a, b = obb.new3(0, 0, 0, 2, 2, 1), obb.new3(0.5, 0, 1.9, 1, 1, 1)
    local count, n, pts = manifold(a, b)
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, -1 }, 0, "normal")
    assert_points(pts, { { -0.5, -1, 0.95, 0.1 }, { 1.5, -1, 0.95, 0.1 },
      { 1.5, 1, 0.95, 0.1 }, { -0.5, 1, 0.95, 0.1 } })
  end)

  it("reduces an octagon of contacts to four well spread ones", function()
    -- a cube turned 45 degrees about z on a cube: the faces overlap in an
    -- octagon; four of its corners are kept
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    local b = obb.new3(0, 0, 1.9, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 0, 1, math.pi / 4)))
    local count, n, pts = manifold(a, b)
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, -1 }, 0, "normal")
    local t = SQRT2 - 1
    local octagon = { { 1, t }, { t, 1 }, { -t, 1 }, { -1, t }, { -1, -t },
      { -t, -1 }, { t, -1 }, { 1, -t } }
    for _, p in ipairs(pts) do
      assert.is_true(H.near(p[3], 0.95, 1e-15) and H.near(p[4], 0.1, 1e-14))
      local on = false
      for _, v in ipairs(octagon) do
        if H.near(p[1], v[1], 1e-14) and H.near(p[2], v[2], 1e-14) then on = true end
      end
      assert.is_true(on, "not an octagon corner")
    end
    -- the kept quad covers most of the octagon (area 8 (sqrt 2 - 1) * 2)
    local area = 0
    for i = 1, 4 do
      local p, q = pts[i], pts[i % 4 + 1]
      area = area + p[1] * q[2] - p[2] * q[1]
    end
    assert.is_true(math.abs(area) / 2 > 0.7 * 8 * t)
  end)

  it("gives the two ends of an edge lying in a face", function()
    local a = obb.new3(0, 0, 0, 2, 2, 1)
    local b = obb.new3(0, 0, 1 + SQRT2 - 0.1, 1, 1, 1,
      unpack(H.quat_axis_angle(1, 0, 0, math.pi / 4)))
    local count, n, pts = manifold(a, b)
    assert.are.equal(2, count)
    H.assert_near_list(n, { 0, 0, -1 }, 0, "normal")
    assert_points(pts, { { -1, 0, 0.95, 0.1 }, { 1, 0, 0.95, 0.1 } }, 1e-14)
  end)

  it("gives one point, between the edges, for an edge-edge contact", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1,
      unpack(H.quat_axis_angle(1, 0, 0, math.pi / 4)))
    local b = obb.new3(0, 0, 2 * SQRT2 - 0.1, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 1, 0, math.pi / 4)))
    local count, n, pts = manifold(a, b)
    assert.are.equal(1, count)
    H.assert_near_list(n, { 0, 0, -1 }, 1e-15, "normal")
    -- a's top edge at z = sqrt 2, b's bottom edge 0.1 lower
    assert_points(pts, { { 0, 0, SQRT2 - 0.05, 0.1 } }, 1e-14)
    assert_on_surfaces(a, b, n, pts, 1e-14)
  end)

  it("gives one point for a corner in a face", function()
    -- b stands on a corner: turned so its diagonal is vertical
    local q = H.quat_mul(H.quat_axis_angle(1, 0, 0, math.atan(SQRT2)),
      H.quat_axis_angle(0, 0, 1, math.pi / 4))
    local a = obb.new3(0, 0, 0, 2, 2, 1)
    local b = obb.new3(0.3, 0.2, 1 + math.sqrt(3) - 0.05, 1, 1, 1, unpack(q))
    local count, n, pts = manifold(a, b)
    assert.are.equal(1, count)
    H.assert_near_list(n, { 0, 0, -1 }, 1e-15, "normal")
    assert_points(pts, { { 0.3, 0.2, 0.975, 0.05 } }, 1e-13)
  end)

  it("keeps a four-point face contact for nearly parallel boxes", function()
    -- b turned by 1e-9 about z: its edges are nearly parallel to a's, and
    -- the contact is still face on face
    local a = obb.new3(0, 0, 0, 2, 2, 1)
    local b = obb.new3(0.5, 0, 1.9, 1, 1, 1,
      unpack(H.quat_axis_angle(0, 0, 1, 1e-9)))
    local count, n, pts = manifold(a, b)
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, -1 }, 1e-15, "normal")
    assert_points(pts, { { -0.5, -1, 0.95, 0.1 }, { 1.5, -1, 0.95, 0.1 },
      { 1.5, 1, 0.95, 0.1 }, { -0.5, 1, 0.95, 0.1 } }, 1e-8)
    assert_on_surfaces(a, b, n, pts, 1e-14)
  end)

  it("keeps touching contacts at depth 0, and nil when apart", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    local count, n, pts = manifold(a, obb.new3(0.5, 0.5, 2, 1, 1, 1))
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, -1 }, 0, "normal")
    assert_points(pts, { { -0.5, -0.5, 1, 0 }, { 1, -0.5, 1, 0 },
      { 1, 1, 1, 0 }, { -0.5, 1, 1, 0 } }, 0)
    count, n, pts = manifold(a, obb.new3(2, 2, 2, 1, 1, 1)) -- luacheck: ignore 311
    assert.are.equal(1, count)
    assert_points(pts, { { 1, 1, 1, 0 } }, 0)
    assert.is_nil(a:contacts(obb.new3(0, 0, 2 + 1e-10, 1, 1, 1)))
  end)

  it("handles degenerate boxes", function()
    local cube = obb.new3(0, 0, 0, 1, 1, 1)
    local count, n, pts = manifold(cube, obb.new3(0.5, 0.25, 0.1, 0, 0, 0))
    assert.are.equal(1, count)
    H.assert_near_list(n, { -1, 0, 0 }, 0, "normal")
    assert_points(pts, { { 0.75, 0.25, 0.1, 0.5 } }, 0)
    -- a flat square in the cube's top face: its four corners, depth 0
    count, n, pts = manifold(obb.new3(0, 0, 1, 0.5, 0.5, 0), cube)
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, 1 }, 0, "normal")
    for _, p in ipairs(pts) do
      assert.are.same({ 0.5, 0.5, 1, 0 }, { math.abs(p[1]), math.abs(p[2]), p[3], p[4] })
    end
    -- a needle through the cube near its +x face: its two crossings
    count, n, pts = manifold(obb.new3(0.9, 0, 0, 0, 0, 5), cube)
    assert.are.equal(2, count)
    H.assert_near_list(n, { 1, 0, 0 }, 0, "normal")
    assert_points(pts, { { 0.95, 0, -1, 0.1 }, { 0.95, 0, 1, 0.1 } }, 1e-15)
  end)

  it("keeps full precision at coordinates offset by 1e7", function()
    local o = 1e7
    local count, n, pts = manifold(obb.new3(o, o, o, 2, 2, 1),
      obb.new3(o + 0.5, o, o + 1.875, 1, 1, 1))
    assert.are.equal(4, count)
    H.assert_near_list(n, { 0, 0, -1 }, 0, "normal")
    assert_points(pts, { { o - 0.5, o - 1, o + 0.9375, 0.125 },
      { o + 1.5, o - 1, o + 0.9375, 0.125 }, { o + 1.5, o + 1, o + 0.9375, 0.125 },
      { o - 0.5, o + 1, o + 0.9375, 0.125 } }, 0)
    -- a rotated pair: the same manifold as near the origin, shifted
    local q = H.quat_axis_angle(0.6, 0, 0.8, 0.4)
    local a0, b0 = obb.new3(0, 0, 0, 1, 1, 1), obb.new3(0.25, 0.5, 1.75, 1, 1, 1, unpack(q))
    local _, n0, p0 = manifold(a0, b0)
    local c1, n1, p1 = manifold(obb.new3(o, o, o, 1, 1, 1),
      obb.new3(o + 0.25, o + 0.5, o + 1.75, 1, 1, 1, unpack(q)))
    assert.are.equal(#p0, c1)
    H.assert_near_list(n1, n0, 0, "normal")
    for _, p in ipairs(p0) do
      for k = 1, 3 do p[k] = p[k] + o end
    end
    assert_points(p1, p0, 1e-15)
  end)

  it("fills a table the caller passes", function()
    local a, b = obb.new3(0, 0, 0, 2, 2, 1), obb.new3(0.5, 0, 1.9, 1, 1, 1)
    local out = {}
    local count, nx, ny, nz, extra = a:contacts(b, out)
    assert.are.equal(4, count)
    assert.are.same({ 0, 0, -1 }, { nx, ny, nz })
    assert.is_nil(extra)
    assert.are.equal(16, #out)
    -- reused for a one-point manifold (a corner in a's top face)
    count = a:contacts(obb.new3(0, 0, 1 + math.sqrt(3) - 0.1, 1, 1, 1,
      unpack(H.quat_mul(H.quat_axis_angle(1, 0, 0, math.atan(SQRT2)),
        H.quat_axis_angle(0, 0, 1, math.pi / 4)))), out)
    assert.are.equal(1, count)
    assert.are.equal(4, #out)
  end)

  it("rejects bad arguments", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(2, "contacts", "table or nil expected, got string",
      function() return a:contacts(a, "x") end)
    H.assert_argerror(1, "contacts", "obb.obb3 expected, got nil",
      function() return a:contacts(nil) end)
  end)
end)

describe("contacts (3D) at a large scale", function()
  -- A 100-wide face at the top of a box 2e8 tall, a box turned 45 degrees
  -- resting on it: the clipped polygon has 8 points. The reduction once
  -- read before its buffer here (ASan: stack buffer overflow), when its
  -- ties for areas grew with the square of the pair's size, larger than
  -- the patch; they now grow with the patch, and it keeps 4 points.
  it("reduces a small patch on a large box to 4 points", function()
    local h = math.sin(math.pi / 8)
    local a = obb.new3(0, 0, 0, 50, 50, 1e8)
    local b = obb.new3(0, 0, 1e8 + 0.5, 60, 60, 1, 0, 0, h, math.cos(math.pi / 8))
    local out = {}
    local count, nx, ny, nz = a:contacts(b, out)
    assert.are.equal(4, count)
    assert.same({ 0, 0, -1 }, { nx, ny, nz })
    for i = 0, count - 1 do
      local x, y, z, depth = out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], out[4 * i + 4]
      assert.is_true(math.abs(x) <= 50 + 1e-6 and math.abs(y) <= 50 + 1e-6)
      assert.is_true(math.abs(z - (1e8 - 0.25)) <= 1e-6 and math.abs(depth - 0.5) <= 1e-6)
    end
    -- spread over the patch (the clipped octagon has an area of about
    -- 9,540), not bunched together
    local area = 0
    for i = 0, 3 do
      local j = (i + 1) % 4
      area = area + out[4 * i + 1] * out[4 * j + 2] - out[4 * j + 1] * out[4 * i + 2]
    end
    assert.is_true(math.abs(area) / 2 > 6000, "kept points span " .. math.abs(area) / 2)
  end)
end)

describe("contacts (random pairs)", function()
  for _, dim in ipairs({ 2, 3 }) do
    local make = dim == 2 and C.random2 or C.random3
    local maxc = dim == 2 and 2 or 4
    local m_rigid = dim == 2 and C.rigid2 or C.rigid3

    it(dim .. "D: every point lies on both surfaces, as deep as penetration", function()
      local r = H.rng(dim * 1000 + 1)
      local hits = 0
      for _ = 1, 3000 do
        local a, b = make(r, 2.2), make(r, 2.2)
        local s = C.scale(a, b)
        local count, n, pts = manifold(a, b)
        local pen = { a:penetration(b) }
        assert.are.equal(a:intersects(b), count ~= nil)
        if count then
          hits = hits + 1
          assert.is_true(count >= 1 and count <= maxc)
          for k = 1, dim do assert.are.equal(pen[k], n[k]) end
          local deepest = 0
          for _, p in ipairs(pts) do
            assert.is_true(p[dim + 1] >= 0 and p[dim + 1] <= pen[dim + 1])
            deepest = math.max(deepest, p[dim + 1])
          end
          assert(math.abs(deepest - pen[dim + 1]) <= 1e-12 * s)
          assert_on_surfaces(a, b, n, pts, 1e-12 * s)
          -- points are distinct
          for i = 1, #pts do
            for j = i + 1, #pts do
              local dd = 0
              for k = 1, dim do dd = dd + math.abs(pts[i][k] - pts[j][k]) end
              assert.is_true(dd > 1e-12 * s)
            end
          end
        end
      end
      assert.is_true(hits > 500)
    end)

    it(dim .. "D grid pairs: touching, degenerate and parallel boxes", function()
      local r = H.rng(dim * 1000 + 3)
      local grid = dim == 2 and C.grid2 or C.grid3
      for _ = 1, 3000 do
        local a, b = grid(r), grid(r)
        local s = C.scale(a, b) + 1
        local count, n, pts = manifold(a, b)
        assert.are.equal(a:intersects(b), count ~= nil)
        if count then
          local pen = { a:penetration(b) }
          assert.is_true(count >= 1 and count <= maxc)
          for _, p in ipairs(pts) do
            assert.is_true(p[dim + 1] >= 0 and p[dim + 1] <= pen[dim + 1])
          end
          assert_on_surfaces(a, b, n, pts, 1e-12 * s)
          for i = 1, #pts do
            for j = i + 1, #pts do
              local dd = 0
              for k = 1, dim do dd = dd + math.abs(pts[i][k] - pts[j][k]) end
              assert.is_true(dd > 1e-12 * s, "repeated contact point")
            end
          end
        end
      end
    end)

    it(dim .. "D: swapping the boxes or moving both rigidly changes nothing else", function()
      local r = H.rng(dim * 1000 + 2)
      for _ = 1, 1500 do
        local a, b = make(r, 2.2), make(r, 2.2)
        local s = C.scale(a, b)
        local best, second = C.sat_depth(a, b)
        if best > 1e-9 * s and second - best > 1e-6 * s then
          local count, n, pts = manifold(a, b)
          local c2, n2, p2 = manifold(b, a)
          assert.are.equal(count, c2)
          H.assert_near_list(n2, { -n[1], -n[2], n[3] and -n[3] }, 1e-15,
            "swapped normal")
          assert_points(p2, pts, 1e-12 * s)
          local m, turn = m_rigid(r)
          local ta, tb = a:clone():transform(unpack(m)), b:clone():transform(unpack(m))
          local c3, n3, p3 = manifold(ta, tb)
          assert.are.equal(count, c3)
          H.assert_near_list(n3, turn(n), 1e-9, "turned normal")
          local want = {}
          for i, p in ipairs(pts) do
            local q = turn(p)
            for k = 1, dim do q[k] = q[k] + m[dim == 2 and 4 + k or 4 * k] end
            q[dim + 1] = p[dim + 1]
            want[i] = q
          end
          assert_points(p3, want, 1e-9 * (s + 100))
        end
      end
    end)
  end
end)
