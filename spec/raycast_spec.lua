-- Ray and segment casts: raycast and intersects_segment, 2D and 3D.
local obb = require "obb"
local H = require "spec.helpers"
local Q = require "spec.query_helpers"

local pack = H.pack
local SQ2 = math.sqrt(2)
local atan2 = math.atan2 or math.atan

local function assert_hit(r, t, normal, tol)
  tol = tol or 1e-15
  assert.is_not_nil(r[1], "expected a hit")
  assert.is_true(H.near(r[1], t, tol), "t is " .. tostring(r[1]) .. ", expected " .. t)
  for i = 1, #normal do
    assert.is_true(H.near(r[i + 1], normal[i], tol),
      "normal " .. i .. " is " .. tostring(r[i + 1]) .. ", expected " .. normal[i])
  end
  assert.equal(false, r[#normal + 2])
  assert.equal(#normal + 2, r.n)
end

describe("raycast (2D)", function()
  local b = obb.new2(0, 0, 1, 1)

  it("hits the face it enters, normal pointing back at the ray", function()
    assert_hit(pack(b:raycast(-5, 0, 1, 0)), 4, { -1, 0 })
    assert_hit(pack(b:raycast(5, 0.5, -1, 0)), 4, { 1, 0 })
    assert_hit(pack(b:raycast(0.25, -3, 0, 1)), 2, { 0, -1 })
    assert_hit(pack(b:raycast(0.25, 3, 0, -1)), 2, { 0, 1 })
  end)

  it("measures t in units of the direction (it need not be unit)", function()
    assert_hit(pack(b:raycast(-5, 0, 2, 0)), 2, { -1, 0 })
    assert_hit(pack(b:raycast(-5, 0, 0.5, 0)), 8, { -1, 0 })
    -- hit point = origin + t * direction
    local t = b:raycast(-3, -2, 3, 2)
    assert.is_true(H.near(-3 + 3 * t, -1) and H.near(-2 + 2 * t, -2 / 3))
  end)

  it("uses the box's own frame when it is rotated", function()
    -- a diamond: its lower-left face has outward normal (-1,-1)/sqrt2
    local d = obb.new2(0, 0, 1, 1, math.pi / 4)
    local r = pack(d:raycast(-5, -5, 1, 1))
    assert_hit(r, 5 - 1 / SQ2, { -1 / SQ2, -1 / SQ2 }, 1e-14)
    -- long thin box along (1, 1): enters through its end face
    local thin = obb.new2(10, 10, 2, 0.1, math.pi / 4)
    r = pack(thin:raycast(0, 0, 1, 1))
    assert_hit(r, 10 - 2 / SQ2, { -1 / SQ2, -1 / SQ2 }, 1e-14)
  end)

  it("limits the cast to t <= max_t (a segment cast with max_t = 1)", function()
    assert.is_nil(b:raycast(-5, 0, 1, 0, 3.999))
    assert_hit(pack(b:raycast(-5, 0, 1, 0, 4)), 4, { -1, 0 }) -- closed
    assert_hit(pack(b:raycast(-5, 0, 1, 0, math.huge)), 4, { -1, 0 })
    assert_hit(pack(b:raycast(-5, 0, 4, 0, 1)), 1, { -1, 0 })
    assert.is_nil(b:raycast(-5, 0, 3, 0, 1))
    assert.is_nil(b:raycast(-5, 0, 1, 0, 0))
  end)

  it("misses behind the origin, beside the box, and parallel outside", function()
    assert.is_nil(b:raycast(-5, 0, -1, 0))
    assert.is_nil(b:raycast(-5, 1.5, 1, 0))
    assert.is_nil(b:raycast(-5, -1 - 1e-10, 1, 0))
    assert.is_nil(b:raycast(-5, 0, 1, 1.3)) -- passes above the corner
    assert.is_nil(b:raycast(2, -5, 0, 1))
  end)

  it("counts grazing a face, an edge end or a corner as a hit", function()
    assert_hit(pack(b:raycast(-5, 1, 1, 0)), 4, { -1, 0 })
    assert_hit(pack(b:raycast(-5, -1, 1, 0)), 4, { -1, 0 })
    assert_hit(pack(b:raycast(1, -5, 0, 1)), 4, { 0, -1 })
    -- touching the corner (-1, -1) only: x enters at t = 2 as y exits
    assert_hit(pack(b:raycast(-3, -1, 1, 1)), 2, { -1, 0 })
    assert.is_nil(b:raycast(-3, -1 + 1e-10, 1, 1)) -- just past it
    -- into the corner (-1, 1) along the diagonal: the entry times tie and
    -- the lower axis wins
    assert_hit(pack(b:raycast(-3, 3, 1, -1)), 2, { -1, 0 })
  end)

  it("treats -0.0 direction components as parallel, never NaN", function()
    local r = pack(b:raycast(-5, 0.5, 1, -0.0))
    assert_hit(r, 4, { -1, 0 })
    r = pack(b:raycast(-0.0, -5, -0.0, 1))
    assert_hit(r, 4, { 0, -1 })
    assert.is_nil(b:raycast(-5, 1.5, 1, -0.0))
  end)

  it("reports an origin inside (or on the boundary) as t = 0, no normal, true", function()
    for _, o in ipairs({ { 0, 0 }, { 0.5, -0.9 }, { 1, 0 }, { -1, -1 } }) do
      for _, dir in ipairs({ { 1, 0 }, { -1, 0.3 }, { 0, -2 } }) do
        local r = pack(b:raycast(o[1], o[2], dir[1], dir[2]))
        assert.same({ n = 4, 0, 0, 0, true }, r)
      end
    end
    -- even with max_t = 0
    assert.same({ n = 4, 0, 0, 0, true }, pack(b:raycast(0, 0, 1, 0, 0)))
  end)

  it("casts against degenerate boxes: a segment and a point", function()
    local seg = obb.new2(0, 0, 1, 0) -- the segment from (-1,0) to (1,0)
    assert_hit(pack(seg:raycast(0.5, -3, 0, 1)), 3, { 0, -1 })
    assert_hit(pack(seg:raycast(0.5, 3, 0, -1)), 3, { 0, 1 })
    assert_hit(pack(seg:raycast(-4, 0, 1, 0)), 3, { -1, 0 })
    assert.is_nil(seg:raycast(-4, 1e-10, 1, 0))
    -- 1e-300 off the segment's line: within the band, a grazing hit, at the
    -- entry into the box grown by the band
    assert_hit(pack(seg:raycast(-4, 1e-300, 1, 0)), 3, { -1, 0 }, 1e-11)
    local pt = obb.new2(2, 3, 0, 0)
    assert_hit(pack(pt:raycast(0, 1, 1, 1)), 2, { -1, 0 })
    assert.is_nil(pt:raycast(0, 1, 1, 1.000001))
  end)

  it("stays accurate far from the origin", function()
    local far = obb.new2(1e7, -1e7, 1, 2, 0.3)
    local ux, uy = far:axes()
    -- aim along -axis 0 at the face +axis 0 from 10 units out
    local ox, oy = 1e7 + 11 * ux, -1e7 + 11 * uy
    local r = pack(far:raycast(ox, oy, -ux, -uy))
    assert_hit(r, 10, { ux, uy }, 1e-9)
  end)

  it("rejects bad arguments, naming them", function()
    local cases = {
      { 1, "number expected, got string", function() return b:raycast("0", 0, 1, 0) end },
      { 2, "number expected, got no value", function() return b:raycast(0) end },
      { 2, "finite number expected, got nan", function() return b:raycast(0, 0 / 0, 1, 0) end },
      { 3, "finite number expected, got inf", function() return b:raycast(0, 0, math.huge, 0) end },
      { 3, "direction must not be zero", function() return b:raycast(0, 0, 0, 0) end },
      { 3, "direction must not be zero", function() return b:raycast(5, 5, -0.0, 0) end },
      { 4, "number expected, got nil", function() return b:raycast(0, 0, 1, nil) end },
      { 5, "max_t must be >= 0, got -1", function() return b:raycast(0, 0, 1, 0, -1) end },
      { 5, "max_t must not be nan", function() return b:raycast(0, 0, 1, 0, 0 / 0) end },
      { 5, "number expected, got string", function() return b:raycast(0, 0, 1, 0, "1") end },
      { 6, "no value expected, got number", function() return b:raycast(0, 0, 1, 0, 1, 2) end },
    }
    for _, c in ipairs(cases) do H.assert_argerror(c[1], "raycast", c[2], c[3]) end
    H.assert_argerror(1, "raycast", "obb.obb2 expected, got obb.obb3",
      b.raycast, obb.new3(0, 0, 0, 1, 1, 1), 0, 0, 1, 0)
  end)
end)

describe("raycast (3D)", function()
  local b = obb.new3(0, 0, 0, 1, 2, 3)

  it("hits each face with its outward normal", function()
    assert_hit(pack(b:raycast(-5, 0, 0, 1, 0, 0)), 4, { -1, 0, 0 })
    assert_hit(pack(b:raycast(0, 5, 0, 0, -1, 0)), 3, { 0, 1, 0 })
    assert_hit(pack(b:raycast(0.5, 0.5, -9, 0, 0, 2)), 3, { 0, 0, -1 })
    assert_hit(pack(b:raycast(-5, 0, 0, 1, 0, 0, 4)), 4, { -1, 0, 0 })
    assert.is_nil(b:raycast(-5, 0, 0, 1, 0, 0, 3.5))
  end)

  it("works in the box's frame: a box turned a quarter about z", function()
    local s = math.sqrt(0.5)
    local r = obb.new3(0, 0, 0, 1, 2, 3, 0, 0, s, s) -- axis 0 is now +y
    -- from +x we meet the face of axis 1 (extent 2), whose +normal is -x
    assert_hit(pack(r:raycast(5, 0, 0, -1, 0, 0)), 3, { 1, 0, 0 }, 1e-15)
    assert_hit(pack(r:raycast(0, -5, 0, 0, 1, 0)), 4, { 0, -1, 0 }, 1e-15)
  end)

  it("grazes faces, edges and corners; misses just outside", function()
    assert_hit(pack(b:raycast(-5, 2, 3, 1, 0, 0)), 4, { -1, 0, 0 })
    assert_hit(pack(b:raycast(1, -2, -7, 0, 0, 1)), 4, { 0, 0, -1 })
    assert.is_nil(b:raycast(-5, 2, 3 + 1e-10, 1, 0, 0))
    assert.is_nil(b:raycast(-5, 2.5, 0, 1, -0.0, 0))
  end)

  it("reports an inside origin and degenerate boxes like 2D", function()
    assert.same({ n = 5, 0, 0, 0, 0, true }, pack(b:raycast(1, 2, 3, 0, 0, -1)))
    local flat = obb.new3(0, 0, 0, 1, 1, 0)
    assert_hit(pack(flat:raycast(0.2, 0.3, 4, 0, 0, -2)), 2, { 0, 0, 1 })
    assert.is_nil(flat:raycast(0.2, 0.3, 1e-10, 1, 0, 0))
    local pt = obb.new3(1, 1, 1, 0, 0, 0)
    assert_hit(pack(pt:raycast(0, 0, 0, 1, 1, 1)), 1, { -1, 0, 0 })
  end)

  it("rejects bad arguments, naming them", function()
    local cases = {
      { 1, "number expected, got boolean", function() return b:raycast(true, 0, 0, 1, 0, 0) end },
      { 3, "finite number expected, got -inf", function() return b:raycast(0, 0, -math.huge, 1, 0, 0) end },
      { 4, "direction must not be zero", function() return b:raycast(0, 0, 0, 0, 0, 0) end },
      { 6, "number expected, got no value", function() return b:raycast(0, 0, 0, 1, 0) end },
      { 7, "max_t must be >= 0, got -0.5", function() return b:raycast(0, 0, 0, 1, 0, 0, -0.5) end },
      { 8, "no value expected, got number", function() return b:raycast(0, 0, 0, 1, 0, 0, 1, 1) end },
    }
    for _, c in ipairs(cases) do H.assert_argerror(c[1], "raycast", c[2], c[3]) end
  end)
end)

-- Properties over random boxes: a ray from outside aimed at a point
-- strictly inside must hit; its t agrees, up to the touching band, with a
-- bisection on `contains`
-- (an independent computation: inside the box is an interval of the ray
-- ending at the target); the hit point lies on the face the normal names;
-- and a hair before t is outside, a hair after inside.
local function check_random_rays(dim, seed, count)
  local r = H.rng(seed)
  local checked = 0
  for _ = 1, count do
    local d = dim == 2 and Q.rand_desc2(r) or Q.rand_desc3(r)
    local thick = true
    for i = 1, dim do if d.e[i] < 0.05 then thick = false end end
    if thick then
      local b = H.box_of(obb, d)
      local target = Q.point_in(r, d, 0.9)
      local o = {}
      for i = 1, dim do o[i] = target[i] + r.range(-30, 30) end
      if not b:contains(H.unpack(o)) then
        local dir = {}
        for i = 1, dim do dir[i] = target[i] - o[i] end
        local args = {}
        for i = 1, dim do args[i] = o[i]; args[dim + i] = dir[i] end
        local res = pack(b:raycast(H.unpack(args, 1, 2 * dim)))
        local t = res[1]
        Q.check(t ~= nil, "ray aimed inside missed")
        Q.check(t > 0 and t < 1 and res[dim + 2] == false)
        -- bisection on contains between t = 0 (outside) and 1 (inside)
        local lo, hi = 0, 1
        local function at(s)
          local p = {}
          for i = 1, dim do p[i] = o[i] + s * dir[i] end
          return p
        end
        for _ = 1, 80 do
          local mid = 0.5 * (lo + hi)
          if b:contains(H.unpack(at(mid))) then hi = mid else lo = mid end
        end
        -- contains accepts the band around the box, so the bisection finds
        -- the entry into the grown box: at most a band before t
        Q.check(hi <= t + 1e-12 and t - hi <= 1e-10,
          "t = " .. t .. ", bisection says " .. hi)
        Q.check(not (b:contains(H.unpack(at(t * (1 - 1e-9))))))
        Q.check(b:contains(H.unpack(at(t + 1e-9 * (1 - t)))))
        -- the normal is unit, one of +-axes, and the hit point is on
        -- that face: n . (p - c) = e_k
        local n, len = {}, 0
        for i = 1, dim do n[i] = res[i + 1]; len = len + n[i] * n[i] end
        Q.check(math.abs(len - 1) < 1e-12)
        local p, face = at(t), nil
        for k = 1, dim do
          if math.abs(math.abs(H.dot(n, d.u[k])) - 1) < 1e-9 then face = k end
        end
        Q.check(face ~= nil, "normal is not a box axis")
        local off = {}
        for i = 1, dim do off[i] = p[i] - d.c[i] end
        Q.check(math.abs(H.dot(n, off) - d.e[face]) < 1e-9 * Q.size(d))
        -- the ray enters: the normal faces against the direction
        Q.check(H.dot(n, dir) < 0)
        checked = checked + 1
      end
    end
  end
  Q.check(checked > count / 2)
end

-- A ray that misses keeps off the box: no sampled point of it is inside,
-- and the segment cast over a range that reaches the box agrees.
local function check_random_misses(dim, seed, count)
  local r = H.rng(seed)
  local misses = 0
  for _ = 1, count do
    local d = dim == 2 and Q.rand_desc2(r) or Q.rand_desc3(r)
    local b = H.box_of(obb, d)
    local o, dir, args = {}, {}, {}
    for i = 1, dim do
      o[i] = d.c[i] + r.range(-8, 8)
      dir[i] = r.range(-1, 1)
      args[i] = o[i]; args[dim + i] = dir[i]
    end
    if not b:contains(H.unpack(o)) then
      local t = b:raycast(H.unpack(args, 1, 2 * dim))
      if t == nil then
        misses = misses + 1
        -- the ray's closest approach to the box center, and points
        -- around it, stay outside
        local oc = {}
        for i = 1, dim do oc[i] = d.c[i] - o[i] end
        local tc = math.max(0, H.dot(oc, dir) / H.dot(dir, dir))
        for k = -20, 20 do
          local s = math.max(0, tc + k / 10)
          if dim == 2 then
            Q.check(not (b:contains(o[1] + s * dir[1], o[2] + s * dir[2])))
          else
            assert.is_false(b:contains(o[1] + s * dir[1], o[2] + s * dir[2],
              o[3] + s * dir[3]))
          end
        end
      end
      -- a segment from o to o + 20 dir meets the box iff the ray hits
      -- within t <= 20
      local seg = {}
      for i = 1, dim do seg[i] = o[i]; seg[dim + i] = o[i] + 20 * dir[i] end
      local hit = t ~= nil and t <= 20
      if t == nil or math.abs(t - 20) > 1e-9 then
        Q.check(hit == (b:intersects_segment(H.unpack(seg, 1, 2 * dim))))
      end
    end
  end
  Q.check(misses > count / 10)
end

-- Moving box and ray by the same rigid motion changes neither t nor the
-- normal (apart from turning it with the motion).
local function check_invariance(dim, seed, count)
  local r = H.rng(seed)
  for _ = 1, count do
    local d = dim == 2 and Q.rand_desc2(r) or Q.rand_desc3(r)
    local m = dim == 2 and Q.rand_motion2(r) or Q.rand_motion3(r)
    for i = 1, dim do d.e[i] = math.max(d.e[i], 0.05) end -- thick boxes only
    local b, mb = H.box_of(obb, d), Q.moved(obb, d, m)
    local target = Q.point_in(r, d, 0.8)
    local o, dir = {}, {}
    for i = 1, dim do o[i] = target[i] + r.range(-20, 20); dir[i] = target[i] - o[i] end
    local mo = dim == 2 and H.apply2(m, o) or H.apply3(m, o)
    local mdir = dim == 2 and Q.rotate2(m, dir) or Q.rotate3(m, dir)
    local a1, a2 = {}, {}
    for i = 1, dim do a1[i] = o[i]; a1[dim + i] = dir[i]; a2[i] = mo[i]; a2[dim + i] = mdir[i] end
    local r1 = pack(b:raycast(H.unpack(a1, 1, 2 * dim)))
    local r2 = pack(mb:raycast(H.unpack(a2, 1, 2 * dim)))
    Q.check(r1[1] == nil == (r2[1] == nil))
    if r1[1] and not r1[dim + 2] then
      Q.check(Q.close(r1[1], r2[1], 1, 1e-9), r1[1] .. " vs " .. r2[1])
      local n1 = {}
      for i = 1, dim do n1[i] = r1[i + 1] end
      local rn = dim == 2 and Q.rotate2(m, n1) or Q.rotate3(m, n1)
      -- where the hit point is on one face only, the normal is unambiguous
      local hit = {}
      for i = 1, dim do hit[i] = o[i] + r1[1] * dir[i] end
      local l, faces = H.local_coords(d, hit), 0
      for i = 1, dim do
        if math.abs(math.abs(l[i]) - d.e[i]) < 1e-6 * Q.size(d) then faces = faces + 1 end
      end
      if faces == 1 then
        for i = 1, dim do Q.check(math.abs(rn[i] - r2[i + 1]) < 1e-9) end
      end
    end
  end
end

describe("raycast properties over random boxes", function()
  it("2D: agrees with contains and a bisection; normal names the face", function()
    check_random_rays(2, 101, 3000)
  end)
  it("3D: agrees with contains and a bisection; normal names the face", function()
    check_random_rays(3, 202, 3000)
  end)
  it("2D: misses never pass through the box; segments agree", function()
    check_random_misses(2, 303, 1500)
  end)
  it("3D: misses never pass through the box; segments agree", function()
    check_random_misses(3, 404, 1500)
  end)
  it("2D and 3D: invariant under a common rigid motion", function()
    check_invariance(2, 505, 2000)
    check_invariance(3, 606, 2000)
  end)
end)

describe("intersects_segment", function()
  it("2D: crossing, touching, inside, beside, degenerate", function()
    local b = obb.new2(0, 0, 1, 1, 0)
    assert.is_true(b:intersects_segment(-5, 0, 5, 0)) -- through
    assert.is_true(b:intersects_segment(-0.5, 0, 0.5, 0.2)) -- inside
    assert.is_true(b:intersects_segment(-5, 0, -1, 0)) -- ends on the face
    assert.is_false(b:intersects_segment(-5, 0, -1 - 1e-10, 0))
    assert.is_true(b:intersects_segment(-5, 1, 5, 1)) -- along a face
    assert.is_true(b:intersects_segment(0, 3, 3, 0) == false)
    assert.is_true(b:intersects_segment(0, 2, 2, 0)) -- touches the corner
    assert.is_true(b:intersects_segment(0.5, 0.5, 0.5, 0.5)) -- a point
    assert.is_false(b:intersects_segment(1.5, 0.5, 1.5, 0.5))
    local seg = obb.new2(0, 0, 2, 0, math.pi / 2) -- vertical segment
    assert.is_true(seg:intersects_segment(-1, 1, 1, 1))
    assert.is_false(seg:intersects_segment(-1, 2.5, 1, 2.5))
  end)

  it("3D: crossing, touching, beside", function()
    local b = obb.new3(0, 0, 0, 1, 1, 1)
    assert.is_true(b:intersects_segment(-5, 0, 0, 5, 0, 0))
    assert.is_true(b:intersects_segment(1, 1, -5, 1, 1, 5)) -- along an edge
    assert.is_false(b:intersects_segment(1, 1.001, -5, 1, 1.001, 5))
    assert.is_true(b:intersects_segment(0, 0, 0, 0, 0, 0))
    assert.is_false(b:intersects_segment(-5, 0, 0, -2, 0, 0))
  end)

  -- Independent reference: the segment as a zero-width box, tested with
  -- the separating-axis intersects (different code), away from touching.
  local function seg_box2(x1, y1, x2, y2)
    local len = math.sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
    return H.desc2((x1 + x2) / 2, (y1 + y2) / 2, len / 2, 0,
      atan2(y2 - y1, x2 - x1))
  end

  it("2D: agrees with the separating-axis test on the segment as a box", function()
    local r = H.rng(707)
    local n = 0
    for _ = 1, 3000 do
      local d = Q.rand_desc2(r)
      local p = { d.c[1] + r.range(-6, 6), d.c[2] + r.range(-6, 6),
        d.c[1] + r.range(-6, 6), d.c[2] + r.range(-6, 6) }
      local sd = seg_box2(H.unpack(p))
      local want = H.classify(d, sd, H.ref2, 1e-9)
      if want then
        n = n + 1
        assert.equal(want == "in", H.box_of(obb, d):intersects_segment(H.unpack(p)))
      end
    end
    assert.is_true(n > 2500)
  end)

  it("3D: agrees with the polytope reference on the segment as a box", function()
    local r = H.rng(808)
    local n = 0
    for _ = 1, 2000 do
      local d = Q.rand_desc3(r)
      local p, q, dir = {}, {}, {}
      for i = 1, 3 do
        p[i] = d.c[i] + r.range(-6, 6); q[i] = d.c[i] + r.range(-6, 6)
        dir[i] = q[i] - p[i]
      end
      local len = math.sqrt(H.dot(dir, dir))
      -- a frame whose first axis is the segment
      local u1 = { dir[1] / len, dir[2] / len, dir[3] / len }
      local w = math.abs(u1[1]) < 0.6 and { 1, 0, 0 } or { 0, 1, 0 }
      local u2 = { u1[2] * w[3] - u1[3] * w[2], u1[3] * w[1] - u1[1] * w[3], u1[1] * w[2] - u1[2] * w[1] }
      local l2 = math.sqrt(H.dot(u2, u2))
      u2 = { u2[1] / l2, u2[2] / l2, u2[3] / l2 }
      local u3 = { u1[2] * u2[3] - u1[3] * u2[2], u1[3] * u2[1] - u1[1] * u2[3], u1[1] * u2[2] - u1[2] * u2[1] }
      local sd = { c = { (p[1] + q[1]) / 2, (p[2] + q[2]) / 2, (p[3] + q[3]) / 2 },
        e = { len / 2, 0, 0 }, u = { u1, u2, u3 } }
      local want = H.classify(d, sd, H.ref3, 1e-9)
      if want then
        n = n + 1
        local args = { p[1], p[2], p[3], q[1], q[2], q[3] }
        assert.equal(want == "in", H.box_of(obb, d):intersects_segment(H.unpack(args)))
      end
    end
    assert.is_true(n > 1500)
  end)

  it("rejects bad arguments, naming them", function()
    local b2, b3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(3, "intersects_segment", "number expected, got string",
      function() return b2:intersects_segment(0, 0, "1", 1) end)
    H.assert_argerror(4, "intersects_segment", "number expected, got no value",
      function() return b2:intersects_segment(0, 0, 1) end)
    H.assert_argerror(5, "intersects_segment", "no value expected, got number",
      function() return b2:intersects_segment(0, 0, 1, 1, 1) end)
    H.assert_argerror(6, "intersects_segment", "finite number expected, got nan",
      function() return b3:intersects_segment(0, 0, 0, 1, 1, 0 / 0) end)
    H.assert_argerror(7, "intersects_segment", "no value expected, got number",
      function() return b3:intersects_segment(0, 0, 0, 1, 1, 1, 1) end)
  end)
end)
