-- box:sweep with turns: certified time of first contact for boxes that move
-- and turn over one step (docs/turning-sweeps.md).
--
-- The reference, written here and independent of the sweep: the two boxes
-- posed at a time s with obb.new2 / obb.new3 (center moved by s times the
-- displacement, angle grown by s * w in 2D, orientation rot(s * r) * R(0) in
-- 3D through quaternions), asked `intersects` at SAMPLES evenly spaced times
-- (skipping the times at which the centers are too far apart for the boxes'
-- bounding balls to meet), then bisection between the last sample apart and
-- the first one touching. Sampling can step over a very brief contact, so
-- the checks are the ones a sampled reference can make honestly:
--   - no miss: where the reference finds a contact, the sweep reports one
--     (or "limit" with t_safe before it);
--   - not late: t is not after the first sample that touches (unless the
--     boxes there only touch within the band, where exact contact is still
--     to come);
--   - nothing invented: `intersects` holds for the boxes posed at t (both
--     built with obb.new2 / obb.new3 and moved the way a game moves them,
--     clone():translate():rotate()), the normal is a unit vector.
local obb = require "obb"
local H = require "spec.helpers"
local C = require "spec.collide_helpers"

local unpack = H.unpack
local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"
local PI = math.pi
local SAMPLES = 400

-- ---- motions and poses ------------------------------------------------------

local function dim_of(b) return select("#", b:center()) end

local function norm(v)
  local s = 0
  for i = 1, #v do s = s + v[i] * v[i] end
  return math.sqrt(s)
end

-- The box posed at time s (a fresh box built from the motion, not moved).
local function pose(box, v, w, s)
  local c, e = { box:center() }, { box:half_extents() }
  if #c == 2 then
    return obb.new2(c[1] + v[1] * s, c[2] + v[2] * s, e[1], e[2],
      box:angle() + w * s)
  end
  local q = { box:rotation() }
  local len = norm(w)
  if len > 0 then
    q = H.quat_mul(H.quat_axis_angle(w[1] / len, w[2] / len, w[3] / len,
      s * len), q)
  end
  return obb.new3(c[1] + v[1] * s, c[2] + v[2] * s, c[3] + v[3] * s,
    e[1], e[2], e[3], unpack(q))
end

local function radius(box)
  local e = { box:half_extents() }
  return norm(e)
end

-- A pair in motion: a, b, displacements va, vb, turns wa, wb (numbers in
-- 2D, rotation vectors in 3D).
local function motion(a, b, va, vb, wa, wb)
  return { a = a, b = b, va = va, vb = vb, wa = wa, wb = wb, dim = dim_of(a),
    reach = radius(a) + radius(b) }
end

local function touching(m, s)
  return pose(m.a, m.va, m.wa, s):intersects(pose(m.b, m.vb, m.wb, s))
end

-- The box moved to time s the way a game moves it: translate, then rotate
-- by s * w (2D) or by the quaternion of s * r (3D).
local function moved(box, v, w, s)
  local d = {}
  for k = 1, #v do d[k] = v[k] * s end
  local b = box:clone():translate(unpack(d))
  if type(w) == "number" then return b:rotate(w * s) end
  local len = norm(w)
  if len == 0 then return b end
  return b:rotate(unpack(H.quat_axis_angle(w[1] / len, w[2] / len,
    w[3] / len, s * len)))
end

local function touching_moved(m, s)
  return moved(m.a, m.va, m.wa, s):intersects(moved(m.b, m.vb, m.wb, s))
end

-- Whether the centers at time s are close enough for the boxes to meet.
local function within_reach(m, s)
  local ca, cb, d = { m.a:center() }, { m.b:center() }, {}
  for i = 1, m.dim do
    d[i] = cb[i] + m.vb[i] * s - ca[i] - m.va[i] * s
  end
  return norm(d) <= m.reach * (1 + 1e-9) + 1e-9
end

-- The reference: the first sampled time at which the boxes touch and the
-- transition bisected before it, or nil when no sample touches.
local function reference(m, samples)
  samples = samples or SAMPLES
  for i = 0, samples do
    local s = i / samples
    if within_reach(m, s) and touching(m, s) then
      if i == 0 then return 0, 0 end
      local lo, hi = (i - 1) / samples, s
      for _ = 1, 60 do
        local mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi then break end
        if touching(m, mid) then hi = mid else lo = mid end
      end
      return hi, s
    end
  end
  return nil
end

local function args(m)
  local t = {}
  for k = 1, m.dim do t[k], t[m.dim + k] = m.va[k], m.vb[k] end
  if m.dim == 2 then
    t[5], t[6] = m.wa, m.wb
  else
    for k = 1, 3 do t[6 + k], t[9 + k] = m.wa[k], m.wb[k] end
  end
  return t
end

-- sweep's answer as { t, n, limit }, or nil.
local function sweep(m)
  local r = H.pack(m.a:sweep(m.b, unpack(args(m))))
  if r[1] == nil then
    assert(r.n == 1, "nil with more values")
    return nil
  end
  local n = {}
  for k = 1, m.dim do n[k] = r[1 + k] end
  assert(r.n == m.dim + 1 or (r.n == m.dim + 2 and r[m.dim + 2] == "limit"),
    "unexpected results")
  return { t = r[1], n = n, limit = r[m.dim + 2] == "limit" }
end

-- Depth of the boxes posed at s (0 when apart or only touching).
local function depth_at(m, s)
  local pa, pb = pose(m.a, m.va, m.wa, s), pose(m.b, m.vb, m.wb, s)
  local r = { pa:penetration(pb) }
  return r[1] and r[#r] or 0, C.scale(pa, pb)
end

-- Checks one pair against the reference; tallies into stats. A contact
-- found before the reference's is a brief one the sampling stepped over
-- (checked by intersects at t); otherwise t and the reference's bisection
-- agree within tol (the time the boxes take to close a band's gap: tiny,
-- but longer for boxes that come together tangentially).
local function check(m, stats, what, tol)
  local got = sweep(m)
  local ref_t, ref_s = reference(m)
  local where = what .. " #" .. stats.n
  stats.n = stats.n + 1
  if got == nil then
    assert(ref_t == nil, where .. ": missed a contact sampled at " .. tostring(ref_s))
    stats.none = stats.none + 1
    return nil
  end
  assert(math.abs(norm(got.n) - 1) < 1e-12, where .. ": normal not unit")
  assert(got.t >= 0 and got.t <= 1, where .. ": t out of [0, 1]")
  if got.limit then
    stats.limit = stats.limit + 1
    assert(ref_s == nil or got.t <= ref_s, where .. ": t_safe after a contact")
    return got
  end
  stats.hit = stats.hit + 1
  assert(touching(m, got.t) and touching_moved(m, got.t),
    where .. ": intersects is false at t = " .. string.format("%.17g", got.t))
  if ref_s then
    if got.t > ref_s then -- allowed only where the first sample merely grazes
      local d, s = depth_at(m, ref_s)
      assert(d <= 1e-9 * s, where .. ": t = " .. string.format("%.17g", got.t) ..
        " is later than a sampled contact at " .. ref_s)
    end
    if got.t < ref_t - tol then
      stats.earlier = stats.earlier + 1
    else
      assert(got.t <= ref_t + tol, where .. ": t = " ..
        string.format("%.17g", got.t) .. ", the reference bisects to " ..
        string.format("%.17g", ref_t))
      stats.dev = math.max(stats.dev, math.abs(got.t - ref_t))
    end
  else
    stats.unsampled = stats.unsampled + 1 -- a brief contact between samples
  end
  return got
end

local function new_stats()
  return { n = 0, hit = 0, none = 0, limit = 0, earlier = 0, unsampled = 0,
    dev = 0 }
end

-- ---- random scenes ----------------------------------------------------------

-- Turn sizes per step: small, a quarter, a half, 2.8 rad, pi to 6 pi.
local TURN_KINDS = {
  function(r) return r.range(0, 0.5) end,
  function() return PI / 2 end,
  function() return PI end,
  function() return 2.8 end,
  function(r) return r.range(PI, 6 * PI) end,
}

local function turn_size(r, kind)
  local x = TURN_KINDS[kind or r.int(1, #TURN_KINDS)](r)
  return r.uniform() < 0.5 and -x or x
end

local function random_axis(r)
  local x, y, z = r.quat()
  local l = norm({ x, y, z })
  return { x / l, y / l, z / l }
end

local function turn(r, dim, kind)
  local x = turn_size(r, kind)
  if dim == 2 then return x end
  local k = random_axis(r)
  return { k[1] * x, k[2] * x, k[3] * x }
end

local function vec(r, dim, lo, hi)
  local v = {}
  for k = 1, dim do v[k] = r.range(lo, hi) end
  return v
end

local function random_box(r, dim, spread, lo, hi)
  local c = vec(r, dim, -spread, spread)
  if dim == 2 then
    return obb.new2(c[1], c[2], r.range(lo, hi), r.range(lo, hi),
      r.range(-PI, PI))
  end
  return obb.new3(c[1], c[2], c[3], r.range(lo, hi), r.range(lo, hi),
    r.range(lo, hi), r.quat())
end

local function count(n) return LIGHT and math.max(20, math.floor(n / 10)) or n end

local function report(what, st)
  print(string.format("  %s: %d pairs, %d hits, %d none, %d limit, %d found" ..
    " earlier than the sampled reference, %d between samples, others within" ..
    " %.2g of its bisection", what, st.n, st.hit, st.none, st.limit,
    st.earlier, st.unsampled, st.dev))
end

local ZERO3 = { 0, 0, 0 }

describe("turning sweep: examples", function()
  it("a bar turning about its center swings into a box", function()
    local box = obb.new2(0, 0, 1, 1)
    local bar = obb.new2(3, 0, 0.1, 2.5) -- upright, 2 to the right of the box
    -- not turning: no contact; turning a quarter: its upper half swings left
    assert.is_nil(box:sweep(bar, 0, 0, 0, 0))
    local t, nx, ny = box:sweep(bar, 0, 0, 0, 0, 0, PI / 2)
    assert.is_true(t > 0 and t < 1)
    -- first contact: the bar's left side reaches the box's corner (1, 1),
    -- at the angle th with sin th - 2 cos th = -0.1 (the corner is 0.1, half
    -- the bar's width, from its center line); the box backs off along the
    -- bar's face normal
    local th = t * PI / 2
    assert(math.abs(math.sin(th) - 2 * math.cos(th) + 0.1) < 1e-9)
    assert(math.abs(nx + math.cos(th)) < 1e-9 and math.abs(ny + math.sin(th)) < 1e-9)
    -- and the sweep from the bar's side gives the same time, normal negated
    local t2, mx, my = bar:sweep(box, 0, 0, 0, 0, PI / 2, 0)
    assert(math.abs(t2 - t) < 1e-12)
    assert(math.abs(mx + nx) < 1e-9 and math.abs(my + ny) < 1e-9)
  end)

  it("a thin bar swinging through a small box mid-step, apart at both ends", function()
    -- the case sampling once per step misses: a bar of half length 3 turning
    -- 1.2 rad about its center passes over a crate at distance 2
    local crate = obb.new2(2, 0, 0.2, 0.2)
    local bar = obb.new2(0, 0, 3, 0.02, -0.6)
    local m = motion(bar, crate, { 0, 0 }, { 0, 0 }, 1.2, 0)
    assert.is_false(touching(m, 0))
    assert.is_false(touching(m, 1))
    local got = sweep(m)
    assert.is_truthy(got)
    assert.is_false(got.limit)
    assert.is_true(touching(m, got.t))
    local ref_t = reference(m, 2000)
    assert(math.abs(got.t - ref_t) < 1e-9, got.t .. " vs " .. ref_t)
    -- in 3D, the same about z
    local crate3 = obb.new3(2, 0, 0, 0.2, 0.2, 0.2)
    local bar3 = obb.new3(0, 0, 0, 3, 0.02, 0.02,
      unpack(H.quat_axis_angle(0, 0, 1, -0.6)))
    local m3 = motion(bar3, crate3, ZERO3, ZERO3, { 0, 0, 1.2 }, ZERO3)
    local got3 = sweep(m3)
    assert(math.abs(got3.t - got.t) < 1e-9)
    assert.is_true(touching(m3, got3.t))
  end)

  it("spinning in place: many turns in one step", function()
    local a = obb.new2(0, 0, 1, 0.1)
    local b = obb.new2(0, 1.05, 0.3, 0.3)
    -- apart at 0; a long thin box spinning 6 pi reaches b within a turn
    local t, nx, ny = a:sweep(b, 0, 0, 0, 0, 6 * PI, 0)
    assert.is_true(t > 0 and t < 1 / 6)
    assert.is_true(touching(motion(a, b, { 0, 0 }, { 0, 0 }, 6 * PI, 0), t))
    assert(math.abs(nx * nx + ny * ny - 1) < 1e-12)
    -- too far to reach however much both spin (radii 1.005 and 0.42)
    assert.is_nil(a:sweep(obb.new2(0, 1.5, 0.3, 0.3), 0, 0, 0, 0, 6 * PI, -4 * PI))
  end)

  it("degenerate boxes: a point and a segment", function()
    local sq = obb.new2(0, 0, 1, 1)
    local seg = obb.new2(2.5, 0, 2, 0, PI / 2) -- upright segment of half length 2
    local t = sq:sweep(seg, 0, 0, 0, 0, 0, PI / 2)
    assert.is_true(t > 0 and t < 1)
    assert.is_true(touching(motion(sq, seg, { 0, 0 }, { 0, 0 }, 0, PI / 2), t))
    -- a point turning does nothing: the same as the translational sweep
    local p = obb.new2(-3, 0.5, 0, 0)
    local t1 = p:sweep(sq, 6, 0, 0, 0)
    local t2 = p:sweep(sq, 6, 0, 0, 0, 5, 0)
    assert(math.abs(t1 - t2) < 1e-12)
  end)

  it("answers limit when it cannot decide, with a safe time", function()
    -- a turn so fast that, once the boxes are within reach (a little after
    -- s = 0.61), no certified step is longer than the spacing of doubles
    local a = obb.new2(-1, 0, 1, 0.1)
    local b = obb.new2(1, 1.2, 0.3, 0.3)
    local r = H.pack(a:sweep(b, 2, 0, 0, 0, 1e17, 0))
    assert.are.equal(4, r.n)
    assert.are.equal("limit", r[4])
    assert.is_true(r[1] > 0.6 and r[1] < 0.62)
    assert(math.abs(r[2] * r[2] + r[3] * r[3] - 1) < 1e-12)
    assert.is_false(touching(motion(a, b, { 2, 0 }, { 0, 0 }, 1e17, 0), r[1]))
    local r3 = H.pack(obb.new3(-1, 0, 0, 1, 0.1, 0.1):sweep(
      obb.new3(1, 1.2, 0, 0.3, 0.3, 0.3), 2, 0, 0, 0, 0, 0, 0, 0, 1e17, 0, 0, 0))
    assert.are.equal(5, r3.n)
    assert.are.equal("limit", r3[5])
    -- the same spin from the start of the step is decided: time is finely
    -- spaced near 0
    local t = a:sweep(obb.new2(-1, 1.2, 0.3, 0.3), 0, 0, 0, 0, 1e17, 0)
    assert.is_true(t > 0 and t < 1e-15)
    -- boxes touching at the start answer 0 whatever the turn
    assert.are.equal(0, (a:sweep(obb.new2(-1, 0.5, 1, 1), 0, 0, 0, 0, 1e17, 0)))
  end)

  it("rejects bad turns, and keeps the translational form's errors", function()
    local a = obb.new2(0, 0, 1, 1)
    H.assert_argerror(6, "sweep", "finite number expected, got nan",
      function() return a:sweep(a, 0, 0, 0, 0, 0 / 0, 0) end)
    H.assert_argerror(7, "sweep", "finite number expected, got inf",
      function() return a:sweep(a, 0, 0, 0, 0, 0, 1 / 0) end)
    H.assert_argerror(7, "sweep", "number expected, got string",
      function() return a:sweep(a, 0, 0, 0, 0, 0, "1") end)
    H.assert_argerror(8, "sweep", "no value expected, got number",
      function() return a:sweep(a, 0, 0, 0, 0, 1, 2, 3) end)
    -- a lone turn is an extra argument, as it always was
    H.assert_argerror(6, "sweep", "no value expected, got number",
      function() return a:sweep(a, 1, 2, 3, 4, 5) end)
    local b = obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(8, "sweep", "no value expected, got number",
      function() return b:sweep(b, 0, 0, 0, 0, 0, 0, 0) end)
    H.assert_argerror(10, "sweep", "number expected, got no value",
      function() return b:sweep(b, 0, 0, 0, 0, 0, 0, 1, 2) end)
    H.assert_argerror(13, "sweep", "finite number expected, got -inf",
      function() return b:sweep(b, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, -1 / 0) end)
    H.assert_argerror(14, "sweep", "no value expected, got number",
      function() return b:sweep(b, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7) end)
  end)
end)

describe("turning sweep against the sampled reference", function()
  for _, dim in ipairs({ 2, 3 }) do
    local zero = dim == 2 and 0 or ZERO3

    it(dim .. "D: random pairs, every size of turn", function()
      local r, st = H.rng(dim * 2001), new_stats()
      for i = 1, count(5000) do
        local a, b = random_box(r, dim, 4, 0.05, 2), random_box(r, dim, 4, 0.05, 2)
        local kind = 1 + (i % #TURN_KINDS)
        local wb = r.uniform() < 0.3 and zero or turn(r, dim, kind)
        check(motion(a, b, vec(r, dim, -6, 6), vec(r, dim, -6, 6),
          turn(r, dim, kind), wb), st, "random", 1e-9)
      end
      report(dim .. "D random", st)
      assert.are.equal(0, st.limit)
      assert.is_true(st.hit > st.n / 10 and st.none > st.n / 10)
    end)

    it(dim .. "D: spinning in place, no translation", function()
      local r, st = H.rng(dim * 2002), new_stats()
      for _ = 1, count(1500) do
        local a, b = random_box(r, dim, 1.5, 0.05, 1.2), random_box(r, dim, 1.5, 0.05, 1.2)
        local still = dim == 2 and { 0, 0 } or ZERO3
        check(motion(a, b, still, still, turn(r, dim, 5),
          r.uniform() < 0.5 and zero or turn(r, dim)), st, "spin", 1e-9)
      end
      report(dim .. "D spinning", st)
      assert.are.equal(0, st.limit)
    end)

    it(dim .. "D: a thin long bar swinging through a small box", function()
      local r, st = H.rng(dim * 2003), new_stats()
      local through = 0
      for _ = 1, count(1500) do
        local len = r.range(1, 4)
        local bar, w
        local th = r.range(-PI, PI)
        if dim == 2 then
          bar = obb.new2(0, 0, len, r.range(0.005, 0.05), th)
          w = turn(r, 2, r.int(1, 4))
        else
          bar = obb.new3(0, 0, 0, len, r.range(0.005, 0.05), r.range(0.005, 0.05), r.quat())
          w = turn(r, 3, r.int(1, 4))
        end
        -- a small box somewhere the bar's ends sweep past
        local rad, phi = r.range(0.2, len), r.range(-PI, PI)
        local c = { rad * math.cos(phi), rad * math.sin(phi), r.range(-0.2, 0.2) }
        local e = r.range(0.02, 0.3)
        local small = dim == 2 and obb.new2(c[1], c[2], e, e, r.range(-PI, PI))
          or obb.new3(c[1], c[2], c[3], e, e, e, r.quat())
        local m = motion(bar, small, vec(r, dim, -0.3, 0.3), vec(r, dim, -0.3, 0.3), w, zero)
        local got = check(m, st, "bar", 1e-9)
        if got and not got.limit and not touching(m, 0) and not touching(m, 1) then
          through = through + 1
        end
      end
      report(dim .. "D bar, " .. through .. " apart at both ends", st)
      assert.are.equal(0, st.limit)
      assert.is_true(through > st.n / 20)
    end)

    it(dim .. "D: grazing passes and degenerate boxes", function()
      local r, st = H.rng(dim * 2004), new_stats()
      for i = 1, count(2000) do
        local a, b
        if i % 2 == 0 then -- a point or a segment against a box, or two of them
          local function thin(box)
            local c, e = { box:center() }, { box:half_extents() }
            local keep = r.int(0, 1)
            for k = 1, dim do if k ~= keep then e[k] = 0 end end
            if dim == 2 then return obb.new2(c[1], c[2], e[1], e[2], box:angle()) end
            return obb.new3(c[1], c[2], c[3], e[1], e[2], e[3], box:rotation())
          end
          a, b = random_box(r, dim, 3, 0.05, 2), random_box(r, dim, 3, 0.05, 2)
          if r.uniform() < 0.7 then a = thin(a) end
          if r.uniform() < 0.5 then b = thin(b) end
          check(motion(a, b, vec(r, dim, -5, 5), vec(r, dim, -5, 5), turn(r, dim),
            turn(r, dim)), st, "degenerate", 1e-6)
        else -- b slides past a's face at a small gap while turning a little
          local gap = 10 ^ -r.range(1, 9)
          local ea, eb = r.range(0.3, 1.5), r.range(0.1, 0.5)
          if dim == 2 then
            a = obb.new2(0, 0, ea, ea)
            b = obb.new2(-4, ea + eb + gap, eb, eb)
          else
            a = obb.new3(0, 0, 0, ea, ea, ea)
            b = obb.new3(-4, ea + eb + gap, 0, eb, eb, eb)
          end
          local w = r.range(-0.02, 0.02)
          check(motion(a, b, dim == 2 and { 0, 0 } or ZERO3,
            dim == 2 and { 8, 0 } or { 8, 0, 0 }, dim == 2 and 0 or ZERO3,
            dim == 2 and w or { 0, 0, w }), st, "graze", 1e-6)
        end
      end
      report(dim .. "D grazing and degenerate", st)
    end)
  end
end)

describe("turning sweep: invariances", function()
  for _, dim in ipairs({ 2, 3 }) do
    local rigid = dim == 2 and C.rigid2 or C.rigid3

    local function random_motion(r)
      local a, b = random_box(r, dim, 4, 0.05, 2), random_box(r, dim, 4, 0.05, 2)
      return motion(a, b, vec(r, dim, -6, 6), vec(r, dim, -6, 6), turn(r, dim), turn(r, dim))
    end

    it(dim .. "D: no turn is the translational sweep, bit for bit", function()
      local r = H.rng(dim * 3001)
      for _ = 1, count(3000) do
        local m = random_motion(r)
        local tr = {}
        for k = 1, m.dim do tr[k], tr[m.dim + k] = m.va[k], m.vb[k] end
        local want = { m.a:sweep(m.b, unpack(tr)) }
        local nz = r.uniform() < 0.5 and -0.0 or 0
        for _ = 1, (dim == 2 and 2 or 6) do tr[#tr + 1] = nz end
        local got = { m.a:sweep(m.b, unpack(tr)) }
        assert.are.equal(#want, #got)
        for k = 1, #want do
          assert.are.equal(want[k], got[k])
          if want[k] == 0 then assert.are.equal(1 / want[k], 1 / got[k]) end
        end
      end
    end)

    it(dim .. "D: a rigid motion of the scene, and swapping the boxes", function()
      local r = H.rng(dim * 3002)
      local compared = 0
      for _ = 1, count(1500) do
        local m = random_motion(r)
        local p = sweep(m)
        if p and not p.limit and p.t > 0 then
          local mat, rot = rigid(r)
          local wa, wb = m.wa, m.wb
          if dim == 3 then wa, wb = rot(wa), rot(wb) end
          local q = sweep(motion(m.a:clone():transform(unpack(mat)),
            m.b:clone():transform(unpack(mat)), rot(m.va), rot(m.vb), wa, wb))
          local s = sweep(motion(m.b, m.a, m.vb, m.va, m.wb, m.wa))
          assert(q and not q.limit and math.abs(q.t - p.t) <= 1e-9,
            "moved scene: " .. tostring(q and q.t) .. " vs " .. p.t)
          assert(s and not s.limit and math.abs(s.t - p.t) <= 1e-9,
            "swapped: " .. tostring(s and s.t) .. " vs " .. p.t)
          compared = compared + 1
        end
      end
      assert.is_true(compared > count(1500) / 25)
    end)

    it(dim .. "D: restarting the step at an earlier time", function()
      local r = H.rng(dim * 3003)
      local compared = 0
      for _ = 1, count(1500) do
        local m = random_motion(r)
        local p = sweep(m)
        if p and not p.limit and p.t > 1e-6 then
          local t1 = p.t * r.range(0.05, 0.95)
          local sc = 1 - t1
          local function scaled(v)
            if type(v) == "number" then return v * sc end
            local o = {}
            for k = 1, #v do o[k] = v[k] * sc end
            return o
          end
          local rest = motion(pose(m.a, m.va, m.wa, t1), pose(m.b, m.vb, m.wb, t1),
            scaled(m.va), scaled(m.vb), scaled(m.wa), scaled(m.wb))
          local q = sweep(rest)
          assert(q and not q.limit, "restart lost the contact")
          local t = t1 + sc * q.t
          assert(math.abs(t - p.t) <= 1e-9, "restart: " .. t .. " vs " .. p.t)
          compared = compared + 1
        end
      end
      assert.is_true(compared > count(1500) / 25)
    end)
  end
end)
