-- Merging two boxes into one that encloses both: obb.merge(a, b), a:merge(b).
local obb = require "obb"
local H = require "spec.helpers"
local Q = require "spec.query_helpers"

local function measure(b) -- area (2D) or volume (3D)
  local m = 1
  for _, e in ipairs({ b:half_extents() }) do m = m * 2 * e end
  return m
end

-- The box spanning both boxes' corners in frame d's axes: the "a's frame"
-- candidate, computed independently in Lua. Returns its measure.
local function span_measure(frame, da, db)
  local lo, hi = {}, {}
  for _, d in ipairs({ da, db }) do
    for _, x in ipairs(H.corners(d)) do
      for i = 1, #frame.e do
        local s = H.dot(x, frame.u[i])
        lo[i] = math.min(lo[i] or math.huge, s)
        hi[i] = math.max(hi[i] or -math.huge, s)
      end
    end
  end
  local m = 1
  for i = 1, #frame.e do m = m * (hi[i] - lo[i]) end
  return m
end

describe("merge (2D)", function()
  it("merges aligned boxes into the box around both", function()
    local m = obb.merge(obb.new2(0, 0, 1, 1), obb.new2(3, 0, 1, 1))
    assert.equal("obb2", obb.type(m))
    H.assert_same_set(m, H.desc2(1.5, 0, 2.5, 1), 1e-15)
    -- offset sideways, a frame along the line of centers beats the
    -- axis-aligned box around both (area 5 x 2.5)
    m = obb.merge(obb.new2(0, 0, 1, 1), obb.new2(3, 0.5, 1, 1))
    assert.is_true(measure(m) < 12.5 and measure(m) > 10)
  end)

  it("gives back the outer box when one contains the other", function()
    local a, b = obb.new2(0, 0, 5, 3, 0.3), obb.new2(1, 0.5, 1, 1, 1.1)
    H.assert_same_set(a:merge(b), H.desc_of(a), 1e-14)
    H.assert_same_set(b:merge(a), H.desc_of(a), 1e-14)
    H.assert_same_set(a:merge(a), H.desc_of(a), 1e-14)
  end)

  it("does not tilt a box merged with its quarter-turned twin", function()
    -- the same rectangle described with its axes swapped
    local a = obb.new2(0, 0, 2, 1, 0.2)
    local b = obb.new2(0, 0, 1, 2, 0.2 + math.pi / 2)
    H.assert_same_set(obb.merge(a, b), H.desc_of(a), 1e-14)
  end)

  it("averages the orientation of two tilted boxes (Eberly)", function()
    -- two long boxes at +-0.3 rad along the x axis, far apart: neither
    -- frame is as tight as the average (angle 0)
    local a, b = obb.new2(-10, 0, 4, 0.2, 0.3), obb.new2(10, 0, 4, 0.2, -0.3)
    local m = a:merge(b)
    assert.is_true(math.abs(math.sin(m:angle() * 2)) < 1e-12)
    assert.is_true(m:contains(a) and m:contains(b))
    local da, db = H.desc_of(a), H.desc_of(b)
    assert.is_true(measure(m) < 0.9 * span_measure(da, da, db))
    assert.is_true(measure(m) < 0.9 * span_measure(db, da, db))
  end)

  it("merges degenerate boxes: points into a segment", function()
    local m = obb.merge(obb.new2(0, 0, 0, 0), obb.new2(3, 4, 0, 0))
    local e1, e2 = m:half_extents()
    assert.is_true(m:contains(0, 0) and m:contains(3, 4))
    -- the line-of-centers frame makes it a segment of length 5
    assert.is_true(H.near(math.max(e1, e2), 2.5, 1e-13) and math.min(e1, e2) < 1e-13)
  end)

  it("returns a new box and leaves both arguments alone", function()
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(3, 0, 1, 1, 0.5)
    local sa, sb = H.state(a), H.state(b)
    local m = a:merge(b)
    assert.is_false(rawequal(m, a) or rawequal(m, b))
    H.assert_same_state(sa, H.state(a)); H.assert_same_state(sb, H.state(b))
  end)

  it("rejects bad arguments, naming them", function()
    local a2, a3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(2, "merge", "obb.obb2 expected, got obb.obb3", obb.merge, a2, a3)
    H.assert_argerror(2, "merge", "obb.obb3 expected, got obb.obb2", obb.merge, a3, a2)
    H.assert_argerror(1, "merge", "obb.obb2 expected, got obb.obb3",
      function() return a2:merge(a3) end)
    H.assert_argerror(1, "merge", "obb.obb2 or obb.obb3 expected, got number", obb.merge, 1, a2)
    H.assert_argerror(2, "merge", "obb.obb2 expected, got no value", obb.merge, a2)
    H.assert_argerror(3, "merge", "no value expected, got obb.obb2", obb.merge, a2, a2, a2)
  end)
end)

describe("merge (3D)", function()
  it("merges aligned boxes into the box around both", function()
    local m = obb.merge(obb.new3(0, 0, 0, 1, 1, 1), obb.new3(0, 3, 0, 1, 1, 1))
    assert.equal("obb3", obb.type(m))
    H.assert_same_set(m, H.desc3({ 0, 1.5, 0 }, { 1, 2.5, 1 }, { 0, 0, 0, 1 }), 1e-15)
    m = obb.merge(obb.new3(0, 0, 0, 1, 1, 1), obb.new3(3, 1, -1, 1, 1, 1))
    assert.is_true(measure(m) <= 5 * 3 * 3)
  end)

  it("gives back the outer box, and a relabelled twin, unchanged", function()
    local q = H.quat_axis_angle(0.48, 0.6, 0.64, 0.9)
    local a = obb.new3(1, 2, 3, 4, 3, 2, H.unpack(q))
    local b = obb.new3(1.5, 2, 3, 0.5, 0.5, 0.5)
    H.assert_same_set(a:merge(b), H.desc_of(a), 1e-14)
    H.assert_same_set(b:merge(a), H.desc_of(a), 1e-14)
    -- a's set described with axes permuted: (x, y, z) -> (y, z, x)
    local ax = { a:axes() }
    local twin = obb.from_axes3(1, 2, 3, 3, 2, 4, ax[4], ax[5], ax[6], ax[7], ax[8],
      ax[9], ax[1], ax[2], ax[3])
    H.assert_same_set(a:merge(twin), H.desc_of(a), 1e-14)
  end)

  it("averages the orientation of two tilted boxes", function()
    local qa = H.quat_axis_angle(0, 0, 1, 0.3)
    local qb = H.quat_axis_angle(0, 0, 1, -0.3)
    local a = obb.new3(-10, 0, 0, 4, 0.2, 0.2, H.unpack(qa))
    local b = obb.new3(10, 0, 0, 4, 0.2, 0.2, H.unpack(qb))
    local m = a:merge(b)
    local ux, uy, uz = m:axes()
    assert.is_true(math.abs(ux * uy) < 1e-12 and math.abs(uz) < 1e-12)
    assert.is_true(m:contains(a) and m:contains(b))
  end)

  it("rejects bad arguments, naming them", function()
    local a3 = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(1, "merge", "obb.obb3 expected, got table",
      function() return a3:merge({}) end)
  end)
end)

-- Random pairs: the merged box contains both (by the module's own
-- contains(box), with no tolerance, and every corner by an independent
-- margin), is no larger than the plain span in a's frame, and a common
-- rigid motion leaves its size unchanged.
local function check_random(dim, seed, count)
  local r = H.rng(seed)
  for _ = 1, count do
    local da = dim == 2 and Q.rand_desc2(r, 5) or Q.rand_desc3(r, 5)
    local db = dim == 2 and Q.rand_desc2(r, 5) or Q.rand_desc3(r, 5)
    if r.uniform() < 0.2 then db.c = da.c end -- concentric now and then
    local a, b = H.box_of(obb, da), H.box_of(obb, db)
    local m = obb.merge(a, b)
    Q.check(m:contains(a), "merged box misses a")
    Q.check(m:contains(b), "merged box misses b")
    local dm = H.desc_of(m)
    local size = Q.size(dm)
    for _, d in ipairs({ da, db }) do
      for _, x in ipairs(H.corners(d)) do
        Q.check(H.point_margin(dm, x) >= -1e-12 * size, "a corner is outside")
      end
    end
    local vol = measure(m)
    Q.check(vol <= span_measure(da, da, db) * (1 + 1e-9) + 1e-12,
      "larger than a's frame span")
    Q.check(vol <= span_measure(db, da, db) * (1 + 1e-9) + 1e-12,
      "larger than b's frame span")
    local mo = dim == 2 and Q.rand_motion2(r) or Q.rand_motion3(r)
    local mm = obb.merge(Q.moved(obb, da, mo), Q.moved(obb, db, mo))
    -- (flat results have a measure made of rounding: an absolute floor)
    Q.check(math.abs(measure(mm) - vol) <= 1e-9 * vol + 1e-12 * size ^ dim,
      "moved: " .. measure(mm) .. " vs " .. vol)
  end
end

describe("merge over random pairs", function()
  it("2D: encloses both, no larger than either frame's span", function()
    check_random(2, 61, 3000)
  end)
  it("3D: encloses both, no larger than either frame's span", function()
    check_random(3, 62, 3000)
  end)
end)
