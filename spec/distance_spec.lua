-- Closest points and distances: point to box (closest_point, distance,
-- signed_distance) and box to box (distance with the two closest points).
local obb = require "obb"
local H = require "spec.helpers"
local Q = require "spec.query_helpers"

local pack = H.pack
local SQ2 = math.sqrt(2)

local function assert_list(got, want, tol, what)
  H.assert_near_list(got, want, tol or 1e-15, what)
end

describe("closest_point, distance and signed_distance (2D)", function()
  local b = obb.new2(0, 0, 2, 1)

  it("clamps to a face, an edge end (corner region) or keeps an inside point", function()
    assert_list({ b:closest_point(5, 0.5) }, { 2, 0.5 })
    assert_list({ b:closest_point(-1, -7) }, { -1, -1 })
    assert_list({ b:closest_point(4, 3) }, { 2, 1 })
    assert_list({ b:closest_point(-3, -3) }, { -2, -1 })
    -- inside: the point itself, bit for bit
    local x, y = b:closest_point(0.3, -0.7)
    assert.equal(0.3, x); assert.equal(-0.7, y)
    x, y = b:closest_point(2, 1)
    assert.equal(2, x); assert.equal(1, y)
  end)

  it("measures the distance, 0 inside and on the boundary", function()
    assert.equal(3, b:distance(5, 0.5))
    assert.equal(5, b:distance(5, 5)) -- 3-4-5 from the corner (2, 1)
    assert.equal(0, b:distance(0, 0))
    assert.equal(0, b:distance(-2, 0.5))
  end)

  it("signs the distance: minus the depth to the nearest face inside", function()
    assert.equal(-1, b:signed_distance(0, 0))
    assert.equal(-0.25, b:signed_distance(1.75, 0))
    assert.equal(-0.5, b:signed_distance(0, 0.5))
    assert.equal(0, b:signed_distance(2, 0))
    assert.equal(5, b:signed_distance(5, 5))
    assert.is_true(1 / b:signed_distance(2, 0) > 0) -- +0, not -0
  end)

  it("works in the box's frame", function()
    local d = obb.new2(1, 1, 1, 1, math.pi / 4) -- a diamond around (1, 1)
    -- from (4, 4) the nearest point is the corner (1 + sqrt2/2.., ...): along
    -- the diagonal the box reaches the edge midpoint at distance 1
    local x, y = d:closest_point(4, 4)
    assert.is_true(H.near(x, 1 + 1 / SQ2, 1e-15) and H.near(y, 1 + 1 / SQ2, 1e-15))
    assert.is_true(H.near(d:distance(4, 4), 3 * SQ2 - 1, 1e-15))
    -- along x the corner at (1 + sqrt2, 1) is nearest
    assert.is_true(H.near(d:distance(5, 1), 4 - SQ2, 1e-15))
  end)

  it("handles degenerate boxes: a segment and a point", function()
    local seg = obb.new2(0, 0, 1, 0)
    assert.equal(2, seg:distance(0, 2))
    assert.equal(0, seg:distance(0.5, 0))
    assert.equal(0, seg:signed_distance(0.5, 0))
    assert_list({ seg:closest_point(3, 4) }, { 1, 0 })
    local pt = obb.new2(1, 1, 0, 0)
    assert.equal(5, pt:distance(4, 5))
  end)

  it("stays accurate far from the origin", function()
    local far = obb.new2(1e7, 1e7, 1, 1, 0.5)
    local ux, uy = far:axes()
    local px, py = 1e7 + 3.5 * ux, 1e7 + 3.5 * uy
    assert.is_true(math.abs(far:distance(px, py) - 2.5) < 1e-8)
    assert.is_true(math.abs(far:signed_distance(1e7 + 0.25 * ux, 1e7 + 0.25 * uy) + 0.75) < 1e-8)
  end)

  it("rejects bad arguments, naming them", function()
    -- called as functions, so self is argument #1
    for _, m in ipairs({ "closest_point", "signed_distance" }) do
      H.assert_argerror(2, m, "number expected, got string",
        function() return b[m](b, "1", 2) end)
      H.assert_argerror(3, m, "number expected, got no value",
        function() return b[m](b, 1) end)
      H.assert_argerror(3, m, "finite number expected, got inf",
        function() return b[m](b, 1, math.huge) end)
      H.assert_argerror(4, m, "no value expected, got number",
        function() return b[m](b, 1, 2, 3) end)
      H.assert_argerror(nil, nil, "obb.obb2 expected, got number",
        function() return b[m](1, 2, 3) end)
    end
    H.assert_argerror(1, "distance", "number or obb.obb2 expected, got string",
      function() return b:distance("1", 2) end)
    H.assert_argerror(1, "distance", "number or obb.obb2 expected, got obb.obb3",
      function() return b:distance(obb.new3(0, 0, 0, 1, 1, 1)) end)
    H.assert_argerror(2, "distance", "finite number expected, got nan",
      function() return b:distance(1, 0 / 0) end)
    H.assert_argerror(2, "distance", "no value expected, got number",
      function() return b:distance(obb.new2(0, 0, 1, 1), 2) end)
    H.assert_argerror(3, "distance", "no value expected, got number",
      function() return b:distance(1, 2, 3) end)
  end)
end)

describe("closest_point, distance and signed_distance (3D)", function()
  local b = obb.new3(0, 0, 0, 1, 2, 3)

  it("clamps to faces, edges and corners; keeps inside points", function()
    assert_list({ b:closest_point(5, 0, 1) }, { 1, 0, 1 })
    assert_list({ b:closest_point(5, 5, 0) }, { 1, 2, 0 })
    assert_list({ b:closest_point(-5, -5, -5) }, { -1, -2, -3 })
    local x, y, z = b:closest_point(0.1, -0.2, 0.3)
    assert.equal(0.1, x); assert.equal(-0.2, y); assert.equal(0.3, z)
  end)

  it("measures distances and signed distances", function()
    assert.equal(4, b:distance(5, 0, 1))
    assert.equal(5, b:distance(4, 6, 0)) -- 3-4-5 from the edge x=1, y=2
    assert.equal(0, b:distance(1, 2, 3))
    assert.equal(-1, b:signed_distance(0, 0, 0))
    assert.equal(-0.5, b:signed_distance(0, 0, 2.5))
    assert.equal(0, b:signed_distance(0, 2, 0))
    assert.equal(4, b:signed_distance(5, 0, 1))
  end)

  it("works in the box's frame and on flat boxes", function()
    local s = math.sqrt(0.5)
    local r = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, s, s) -- x extent is now 2
    assert.is_true(H.near(r:distance(5, 0, 0), 3, 1e-15))
    local flat = obb.new3(0, 0, 0, 1, 1, 0)
    assert.equal(2, flat:distance(0, 0, -2))
    assert.equal(0, flat:signed_distance(0.5, 0.5, 0))
  end)

  it("rejects bad arguments, naming them", function()
    H.assert_argerror(3, "closest_point", "number expected, got no value",
      function() return b:closest_point(1, 2) end)
    H.assert_argerror(4, "distance", "no value expected, got number",
      function() return b:distance(1, 2, 3, 4) end)
    H.assert_argerror(1, "distance", "number or obb.obb3 expected, got obb.obb2",
      function() return b:distance(obb.new2(0, 0, 1, 1)) end)
    H.assert_argerror(2, "signed_distance", "finite number expected, got -inf",
      function() return b:signed_distance(1, -math.huge, 3) end)
  end)
end)

-- Properties of point queries over random boxes and points: the closest
-- point is in the box (to rounding), the distance is the length to it, no
-- sampled point of the box is closer, the signed distance inside is minus
-- the smallest slab margin, and a rigid motion of box and point changes
-- nothing.
local function check_points(dim, seed, count)
  local r = H.rng(seed)
  for _ = 1, count do
    local d = dim == 2 and Q.rand_desc2(r) or Q.rand_desc3(r)
    local b = H.box_of(obb, d)
    local size = Q.size(d)
    local p = {}
    for i = 1, dim do p[i] = d.c[i] + r.range(-6, 6) end
    local q = { b:closest_point(H.unpack(p)) }
    Q.check(H.point_margin(d, q) >= -1e-12 * size, "closest point outside")
    local dist = b:distance(H.unpack(p))
    Q.check(Q.close(dist, Q.dist(p, q), size, 1e-12))
    for _ = 1, 60 do
      local s = r.uniform() < 0.5 and Q.point_in(r, d, 1) or Q.point_on(r, d)
      Q.check(Q.dist(p, s) >= dist - 1e-12 * size, "a box point is closer")
    end
    local sd = b:signed_distance(H.unpack(p))
    local margin = H.point_margin(d, p)
    if margin > 1e-12 * size then
      Q.check(Q.close(sd, -margin, size, 1e-12))
      Q.check(0 == (dist))
    elseif margin < -1e-12 * size then
      Q.check(dist == (sd))
      Q.check(dist > 0)
    end
    -- rigid motion
    local m = dim == 2 and Q.rand_motion2(r) or Q.rand_motion3(r)
    local mb = Q.moved(obb, d, m)
    local mp = dim == 2 and H.apply2(m, p) or H.apply3(m, p)
    Q.check(Q.close(mb:distance(H.unpack(mp)), dist, size + 100, 1e-12))
    Q.check(Q.close(mb:signed_distance(H.unpack(mp)), sd, size + 100, 1e-12))
  end
end

describe("point queries over random boxes", function()
  it("2D", function() check_points(2, 11, 2000) end)
  it("3D", function() check_points(3, 12, 2000) end)
end)

-- ---- box to box ----------------------------------------------------------

local function box_distance(a, b)
  local r = pack(a:distance(b))
  local dim = (r.n - 1) / 2
  local pa, pb = {}, {}
  for i = 1, dim do pa[i] = r[1 + i]; pb[i] = r[1 + dim + i] end
  return r[1], pa, pb
end

describe("distance between boxes (2D)", function()
  it("measures a gap between faces and returns points on each", function()
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(5, 0.5, 1, 1)
    local d, pa, pb = box_distance(a, b)
    assert.equal(3, d)
    assert.equal(1, pa[1]); assert.equal(4, pb[1])
    assert.is_true(pa[2] == pb[2] and pa[2] >= -0.5 and pa[2] <= 1)
  end)

  it("measures corner to corner", function()
    local d, pa, pb = box_distance(obb.new2(0, 0, 1, 1), obb.new2(5, 6, 1, 1))
    assert.equal(5, d)
    assert_list(pa, { 1, 1 }); assert_list(pb, { 4, 5 })
  end)

  it("measures a rotated corner against a face", function()
    local a = obb.new2(0, 0, 1, 1)
    local b = obb.new2(4, 0, 1, 1, math.pi / 4) -- corner at (4 - sqrt2, 0)
    local d, pa, pb = box_distance(a, b)
    assert.is_true(H.near(d, 3 - SQ2, 1e-15))
    assert_list(pa, { 1, 0 }, 1e-15); assert_list(pb, { 4 - SQ2, 0 }, 1e-15)
    -- symmetric
    local d2, qa, qb = box_distance(b, a)
    assert.equal(d, d2)
    assert_list(qa, pb, 1e-15); assert_list(qb, pa, 1e-15)
  end)

  it("is 0 when touching or overlapping, with one point in both", function()
    local a = obb.new2(0, 0, 1, 1)
    for _, b in ipairs({ obb.new2(2, 0, 1, 1), obb.new2(2, 2, 1, 1),
      obb.new2(1.5, 0.3, 1, 1, 0.3), obb.new2(0, 0, 3, 0.1, 0.5) }) do
      local d, pa, pb = box_distance(a, b)
      assert.equal(0, d)
      assert.same(pa, pb)
      for _, box in ipairs({ a, b }) do
        assert.is_true(box:distance(pa[1], pa[2]) <= 1e-15)
      end
    end
  end)

  it("returns the inner box's center when one contains the other", function()
    local a, b = obb.new2(0, 0, 5, 5), obb.new2(1, 2, 1, 1, 0.4)
    local d, pa, pb = box_distance(a, b)
    assert.equal(0, d)
    assert.same({ 1, 2 }, pa); assert.same({ 1, 2 }, pb) -- exactly
    d, pa = box_distance(b, a)
    assert.equal(0, d)
    assert.same({ 1, 2 }, pa)
    -- neither center inside the other box: a crossing edge's middle
    local c, e = obb.new2(0, 0, 3, 0.5), obb.new2(1, 5, 0.5, 5.2)
    assert.is_false(c:contains(1, 5) or e:contains(0, 0))
    d, pa, pb = box_distance(c, e)
    assert.equal(0, d)
    assert.same(pa, pb)
    assert.is_true(c:contains(pa[1], pa[2]) and e:contains(pa[1], pa[2]))
  end)

  it("handles segments and points", function()
    local seg = obb.new2(0, 0, 1, 0)
    local d = box_distance(seg, obb.new2(0, 3, 0, 0))
    assert.equal(3, d)
    d = box_distance(seg, obb.new2(0, 0, 1, 0, math.pi / 2)) -- a cross
    assert.equal(0, d)
    d = box_distance(obb.new2(0, 0, 0, 0), obb.new2(3, 4, 0, 0))
    assert.equal(5, d)
  end)

  it("stays accurate far from the origin", function()
    local a = obb.new2(1e7, 1e7, 1, 1, 0.3)
    local b = obb.new2(1e7, 1e7, 1, 1, 0.3):translate(3 * math.cos(0.3), 3 * math.sin(0.3))
    local d = box_distance(a, b)
    assert.is_true(math.abs(d - 1) < 1e-8)
  end)
end)

describe("distance between boxes (3D)", function()
  it("measures face to face, edge to face and corner to corner", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    assert.equal(2, (box_distance(a, obb.new3(0.5, 0.5, 4, 1, 1, 1))))
    local d, pa, pb = box_distance(a, obb.new3(5, 6, 4, 1, 1, 1))
    assert.is_true(H.near(d, math.sqrt(9 + 16 + 4), 1e-15))
    assert_list(pa, { 1, 1, 1 }); assert_list(pb, { 4, 5, 3 })
    -- an edge of b (along z) against a's edge x = y = 1
    d, pa, pb = box_distance(a, obb.new3(5, 5, 0.5, 1, 1, 1))
    assert.is_true(H.near(d, 3 * SQ2, 1e-15))
    assert.equal(1, pa[1]); assert.equal(1, pa[2]); assert.equal(4, pb[1])
    assert.equal(pa[3], pb[3])
  end)

  it("measures edge to edge across skew edges", function()
    -- a turned 45 degrees about y has its top edge along y at z = sqrt2;
    -- b turned 45 degrees about x has its bottom edge along x at z - sqrt2
    local qa = H.quat_axis_angle(0, 1, 0, math.pi / 4)
    local qb = H.quat_axis_angle(1, 0, 0, math.pi / 4)
    local a = obb.new3(0, 0, 0, 1, 1, 1, H.unpack(qa))
    local b = obb.new3(0, 0, 5, 1, 1, 1, H.unpack(qb))
    local d, pa, pb = box_distance(a, b)
    assert.is_true(H.near(d, 5 - 2 * SQ2, 1e-15))
    assert_list(pa, { 0, 0, SQ2 }, 1e-15)
    assert_list(pb, { 0, 0, 5 - SQ2 }, 1e-15)
  end)

  it("is 0 when touching or overlapping, with one point in both", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    local q = H.quat_axis_angle(0.6, 0, 0.8, 0.7)
    for _, b in ipairs({ obb.new3(2, 0, 0, 1, 1, 1), obb.new3(2, 2, 2, 1, 1, 1),
      obb.new3(1.5, 0.2, -0.3, 1, 1, 1, H.unpack(q)),
      obb.new3(0, 0, 0, 3, 0.2, 0.2, H.unpack(q)), obb.new3(0.5, 0, 0, 0.1, 0.1, 0.1) }) do
      local d, pa, pb = box_distance(a, b)
      assert.equal(0, d)
      assert.same(pa, pb)
      assert.is_true(a:distance(H.unpack(pa)) <= 1e-15)
      assert.is_true(b:distance(H.unpack(pa)) <= 1e-15)
    end
  end)

  it("handles flat boxes, segments and points", function()
    local flat = obb.new3(0, 0, 0, 1, 1, 0)
    assert.equal(2, (box_distance(flat, obb.new3(0, 0, 3, 1, 1, 1))))
    local seg = obb.new3(0, 0, 5, 0, 0, 1) -- along z from 4 to 6
    assert.equal(4, (box_distance(flat, seg)))
    assert.equal(0, (box_distance(flat, obb.new3(0, 0, 0, 0, 0, 0))))
  end)

  it("rejects a 2D box", function()
    local a = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(1, "distance", "number or obb.obb3 expected, got obb.obb2",
      function() return a:distance(obb.new2(0, 0, 1, 1)) end)
  end)
end)

-- Independent 2D reference: disjoint convex polygons are closest between
-- two of their edges; a segment pair's distance (when they do not cross)
-- is the least of the four endpoint-to-segment distances.
local function point_segment(p, a, b)
  local dx, dy = b[1] - a[1], b[2] - a[2]
  local len2 = dx * dx + dy * dy
  local t = 0
  if len2 > 0 then
    t = ((p[1] - a[1]) * dx + (p[2] - a[2]) * dy) / len2
    t = math.max(0, math.min(1, t))
  end
  return Q.dist(p, { a[1] + t * dx, a[2] + t * dy })
end

local function ref_distance2(da, db)
  local ca, cb = H.corners(da), H.corners(db)
  local best = math.huge
  for i = 1, 4 do
    local a1, a2 = ca[i], ca[i % 4 + 1]
    for j = 1, 4 do
      local b1, b2 = cb[j], cb[j % 4 + 1]
      best = math.min(best, point_segment(a1, b1, b2), point_segment(a2, b1, b2),
        point_segment(b1, a1, a2), point_segment(b2, a1, a2))
    end
  end
  return best
end

-- A separating slab certifies a distance: if pa is in a, pb in b, and every
-- corner of a is on pa's side of the plane through pa normal to pb - pa
-- (every corner of b likewise beyond pb), no pair can be closer than
-- |pb - pa|.
local function assert_certified(da, db, d, pa, pb, tol)
  local dim = #pa
  Q.check(H.point_margin(da, pa) >= -tol, "pa is not in a")
  Q.check(H.point_margin(db, pb) >= -tol, "pb is not in b")
  Q.check(math.abs(Q.dist(pa, pb) - d) <= tol, "|pa - pb| is not d")
  local n = {}
  for i = 1, dim do n[i] = (pb[i] - pa[i]) / d end
  for _, x in ipairs(H.corners(da)) do
    local v = {}
    for i = 1, dim do v[i] = x[i] - pa[i] end
    Q.check(H.dot(n, v) <= tol, "a reaches past pa")
  end
  for _, x in ipairs(H.corners(db)) do
    local v = {}
    for i = 1, dim do v[i] = x[i] - pb[i] end
    Q.check(H.dot(n, v) >= -tol, "b reaches past pb")
  end
end

local function check_box_pairs(dim, seed, count)
  local r = H.rng(seed)
  local seen = { in_ = 0, out = 0 }
  local worst = 0
  for _ = 1, count do
    local da = dim == 2 and Q.rand_desc2(r, 4) or Q.rand_desc3(r, 4)
    local db = dim == 2 and Q.rand_desc2(r, 4) or Q.rand_desc3(r, 4)
    local a, b = H.box_of(obb, da), H.box_of(obb, db)
    local scale = H.scale(da, db)
    local tol = 1e-12 * (scale + Q.size(da) + Q.size(db))
    local want = H.classify(da, db, dim == 2 and H.ref2 or H.ref3, 1e-9)
    local d, pa, pb = box_distance(a, b)
    if want == "in" then
      seen.in_ = seen.in_ + 1
      Q.check(0 == (d))
      Q.check(Q.dist(pa, pb) == 0)
      Q.check(H.point_margin(da, pa) >= -tol and H.point_margin(db, pa) >= -tol)
    elseif want == "out" then
      seen.out = seen.out + 1
      Q.check(d > 0)
      if d > 1e-6 * scale then assert_certified(da, db, d, pa, pb, tol) end
      if dim == 2 then
        local ref = ref_distance2(da, db)
        worst = math.max(worst, math.abs(d - ref) / math.max(ref, 1e-3 * scale))
        Q.check(math.abs(d - ref) <= 1e-9 * math.max(ref, 1e-3 * scale),
          "distance " .. d .. ", reference " .. ref)
      end
      -- sampled points of both boxes are never closer
      for _ = 1, 20 do
        Q.check(Q.dist(Q.point_on(r, da), Q.point_on(r, db)) >= d - tol)
      end
      -- order does not matter
      local d2 = box_distance(b, a)
      Q.check(math.abs(d2 - d) <= tol)
    end
    -- a rigid motion of both changes nothing
    local m = dim == 2 and Q.rand_motion2(r) or Q.rand_motion3(r)
    local md = box_distance(Q.moved(obb, da, m), Q.moved(obb, db, m))
    if want then
      Q.check(math.abs(md - d) <= 1e-11 * (scale + 100),
        "moved: " .. md .. " vs " .. d)
    end
  end
  Q.check(seen.in_ > count / 10 and seen.out > count / 10)
  return worst
end

describe("distance between boxes over random pairs", function()
  it("2D: matches an edge-pair reference, certified by a separating slab", function()
    check_box_pairs(2, 21, 3000)
  end)
  it("3D: certified by a separating slab, never beaten by sampled points", function()
    check_box_pairs(3, 22, 2000)
  end)
end)
