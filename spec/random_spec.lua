-- Randomised checks against independent methods written here in Lua:
-- polygon clipping in 2D and an enumeration of the vertices of the
-- intersection polytope in 3D (spec/helpers.lua), neither a separating-axis
-- test. Pairs within helpers.SLACK (relative) of touching are excluded;
-- every other answer must agree. The generator is seeded, so a failure
-- names a case that reruns identically on every Lua version.
local obb = require "obb"
local H = require "spec.helpers"

local PI = math.pi

-- A random 2D box description: sometimes axis-aligned, sometimes with a
-- zero extent (a segment or a point), sometimes long and thin.
local function random_desc2(r, spread)
  local angle
  local kind = r.uniform()
  if kind < 0.15 then
    angle = r.int(-1, 2) * PI / 2
  else
    angle = r.range(-PI, PI)
  end
  local hx, hy = r.range(0, 2), r.range(0, 2)
  local z = r.uniform()
  if z < 0.05 then hx = 0 elseif z < 0.10 then hy = 0
  elseif z < 0.12 then hx, hy = 0, 0 elseif z < 0.2 then hx = hx * 1e-3 end
  return H.desc2(r.range(-spread, spread), r.range(-spread, spread), hx, hy,
    angle)
end

local function random_desc3(r, spread)
  local q
  local kind = r.uniform()
  if kind < 0.1 then
    q = { 0, 0, 0, 1 }
  elseif kind < 0.2 then -- a quarter turn about a world axis
    local ax = r.int(1, 3)
    q = { 0, 0, 0, math.cos(PI / 4) }
    q[ax] = math.sin(PI / 4)
  else
    q = { r.quat() }
  end
  local e = { r.range(0, 2), r.range(0, 2), r.range(0, 2) }
  local z = r.uniform()
  if z < 0.05 then e[r.int(1, 3)] = 0
  elseif z < 0.08 then e[1], e[2] = 0, 0
  elseif z < 0.09 then e = { 0, 0, 0 }
  elseif z < 0.15 then e[r.int(1, 3)] = e[1] * 1e-3 end
  return H.desc3({ r.range(-spread, spread), r.range(-spread, spread),
    r.range(-spread, spread) }, e, q)
end

-- Moves description b so that its center is a.c + t * dir.
local function placed(a, b, dir, t)
  local c = {}
  for i = 1, #dir do c[i] = a.c[i] + t * dir[i] end
  return { c = c, u = b.u, e = b.e, angle = b.angle, q = b.q }
end

-- The largest t at which a and b moved along dir still meet, by bisection
-- on the reference method (t = 0 puts the centers together).
local function touching_t(a, b, dir, ref)
  local lo, hi = 0, 1
  while ref(a, placed(a, b, dir, hi)) do hi = hi * 2 end
  for _ = 1, 50 do -- to 2^-50 of the bracket, far below the offsets used
    local mid = (lo + hi) / 2
    if ref(a, placed(a, b, dir, mid)) then lo = mid else hi = mid end
  end
  return lo
end

-- Runs the module on a pair and compares with the classification.
local function check_pair(stats, a, b, ref, what)
  local want = H.classify(a, b, ref)
  if want == nil then
    stats.skipped = stats.skipped + 1
    return
  end
  local A, B = H.box_of(obb, a), H.box_of(obb, b)
  local got1, got2 = A:intersects(B), B:intersects(A)
  local expect = want == "in"
  if got1 ~= expect or got2 ~= expect then
    error(string.format("%s: intersects gave %s/%s, expected %s for\n  %s\n  %s",
      what, tostring(got1), tostring(got2), tostring(expect), tostring(A),
      tostring(B)), 2)
  end
  stats.checked = stats.checked + 1
  if expect then stats.hits = stats.hits + 1 end
end

local function new_stats() return { checked = 0, skipped = 0, hits = 0 } end

-- Both outcomes must be well represented and few cases skipped, or the
-- check proves little.
local function assert_balanced(stats, n)
  assert.is_true(stats.checked >= 0.9 * n, "too many skipped: " .. stats.skipped)
  assert.is_true(stats.hits >= 0.2 * stats.checked, "too few intersecting")
  assert.is_true(stats.hits <= 0.8 * stats.checked, "too few separated")
end

describe("randomised 2D intersects against polygon clipping", function()
  it("agrees on 4000 random pairs", function()
    local r, stats = H.rng(20261121), new_stats()
    for i = 1, 4000 do
      local a, b = random_desc2(r, 2), random_desc2(r, 2)
      check_pair(stats, a, b, H.ref2, "pair " .. i)
    end
    assert_balanced(stats, 4000)
  end)

  it("agrees on pairs placed just inside and just outside of touching", function()
    local r, stats = H.rng(7), new_stats()
    local n = 0
    for i = 1, 500 do
      local a, b = random_desc2(r, 0), random_desc2(r, 0)
      local ang = r.range(-PI, PI)
      local dir = { math.cos(ang), math.sin(ang) }
      local t = touching_t(a, b, dir, H.ref2)
      -- offsets well outside SLACK (relative to the pair's size, about t)
      for _, f in ipairs({ -1e-3, -1e-6, -1e-8, 1e-8, 1e-6, 1e-3 }) do
        n = n + 1
        check_pair(stats, a, placed(a, b, dir, t + f * math.max(t, 1)), H.ref2,
          "touching family " .. i .. " offset " .. f)
      end
    end
    assert_balanced(stats, n)
  end)

  it("agrees at coordinates offset by 1e7", function()
    local r, stats = H.rng(99), new_stats()
    local n = 0
    for i = 1, 300 do
      local a, b = random_desc2(r, 0), random_desc2(r, 0)
      local ang = r.range(-PI, PI)
      local dir = { math.cos(ang), math.sin(ang) }
      local t = touching_t(a, b, dir, H.ref2)
      for _, f in ipairs({ -1e-3, -1e-5, 1e-5, 1e-3 }) do
        local bb = placed(a, b, dir, t + f * math.max(t, 1))
        local want = H.classify(a, bb, H.ref2)
        if want then
          local off = { c = { a.c[1] + 1e7, a.c[2] - 1e7 }, u = a.u, e = a.e,
            angle = a.angle }
          local offb = { c = { bb.c[1] + 1e7, bb.c[2] - 1e7 }, u = bb.u, e = bb.e,
            angle = bb.angle }
          local got = H.box_of(obb, off):intersects(H.box_of(obb, offb))
          assert.are.equal(want == "in", got, "offset pair " .. i .. " " .. f)
          stats.checked = stats.checked + 1
          if got then stats.hits = stats.hits + 1 end
        end
        n = n + 1
      end
    end
    assert_balanced(stats, n)
  end)
end)

describe("randomised 3D intersects against polytope vertex enumeration", function()
  it("agrees on 1500 random pairs", function()
    local r, stats = H.rng(31337), new_stats()
    for i = 1, 1500 do
      local a, b = random_desc3(r, 2), random_desc3(r, 2)
      check_pair(stats, a, b, H.ref3, "pair " .. i)
    end
    assert_balanced(stats, 1500)
  end)

  it("agrees on pairs placed just inside and just outside of touching", function()
    local r, stats = H.rng(4242), new_stats()
    local n = 0
    for i = 1, 120 do
      local a, b = random_desc3(r, 0), random_desc3(r, 0)
      local dir = { r.normal(), r.normal(), r.normal() }
      local len = math.sqrt(H.dot(dir, dir))
      for k = 1, 3 do dir[k] = dir[k] / len end
      local t = touching_t(a, b, dir, H.ref3)
      for _, f in ipairs({ -1e-4, -1e-7, 1e-7, 1e-4 }) do
        n = n + 1
        check_pair(stats, a, placed(a, b, dir, t + f * math.max(t, 1)), H.ref3,
          "touching family " .. i .. " offset " .. f)
      end
    end
    assert_balanced(stats, n)
  end)

  it("agrees at coordinates offset by 1e7", function()
    -- classified at the origin, where the reference is most accurate, and
    -- asked of the module 1e7 away (absolute rounding there is ~2e-9, so
    -- the offsets stay well above it)
    local r, stats = H.rng(4343), new_stats()
    local n = 0
    local shift = { 1e7, -1e7, 1e7 }
    local function moved(d)
      return { c = { d.c[1] + shift[1], d.c[2] + shift[2], d.c[3] + shift[3] },
        u = d.u, e = d.e, q = d.q }
    end
    for i = 1, 60 do
      local a, b = random_desc3(r, 0), random_desc3(r, 0)
      local dir = { r.normal(), r.normal(), r.normal() }
      local len = math.sqrt(H.dot(dir, dir))
      for k = 1, 3 do dir[k] = dir[k] / len end
      local t = touching_t(a, b, dir, H.ref3)
      for _, f in ipairs({ -1e-3, -1e-5, 1e-5, 1e-3 }) do
        local bb = placed(a, b, dir, t + f * math.max(t, 1))
        local want = H.classify(a, bb, H.ref3)
        n = n + 1
        if want then
          local got = H.box_of(obb, moved(a)):intersects(H.box_of(obb, moved(bb)))
          assert.are.equal(want == "in", got, "offset pair " .. i .. " " .. f)
          stats.checked = stats.checked + 1
          if got then stats.hits = stats.hits + 1 end
        end
      end
    end
    assert_balanced(stats, n)
  end)

  it("agrees near touching when the boxes are turned almost alike", function()
    -- B's rotation is A's turned by 1e-3 ... 1e-12 about a random axis, so
    -- that edges are nearly parallel, the hard case for the 15-axis test.
    local r, stats = H.rng(1001), new_stats()
    local n = 0
    for i = 1, 120 do
      local q = { r.quat() }
      local axis = { r.normal(), r.normal(), r.normal() }
      local len = math.sqrt(H.dot(axis, axis))
      local tiny = 10 ^ -r.int(3, 12)
      local q2 = H.quat_mul(H.quat_axis_angle(axis[1] / len, axis[2] / len,
        axis[3] / len, tiny), q)
      local a = H.desc3({ 0, 0, 0 }, { r.range(0.1, 2), r.range(0.1, 2),
        r.range(0.1, 2) }, q)
      local b = H.desc3({ 0, 0, 0 }, { r.range(0.1, 2), r.range(0.1, 2),
        r.range(0.1, 2) }, q2)
      local dir = { r.normal(), r.normal(), r.normal() }
      len = math.sqrt(H.dot(dir, dir))
      for k = 1, 3 do dir[k] = dir[k] / len end
      local t = touching_t(a, b, dir, H.ref3)
      for _, f in ipairs({ -1e-4, -1e-7, 1e-7, 1e-4 }) do
        n = n + 1
        check_pair(stats, a, placed(a, b, dir, t + f * math.max(t, 1)), H.ref3,
          "nearly parallel family " .. i .. " offset " .. f)
      end
    end
    assert_balanced(stats, n)
  end)
end)

describe("randomised contains", function()
  it("contains(x, y) agrees with local coordinates computed in Lua", function()
    local r, checked, inside = H.rng(555), 0, 0
    for i = 1, 3000 do
      local d = random_desc2(r, 5)
      local B = H.box_of(obb, d)
      local l = { r.range(-1.5, 1.5) * d.e[1], r.range(-1.5, 1.5) * d.e[2] }
      if r.uniform() < 0.1 then l[1] = r.range(-1, 1) end
      local p = {}
      for k = 1, 2 do p[k] = d.c[k] + l[1] * d.u[1][k] + l[2] * d.u[2][k] end
      local m = H.point_margin(d, p)
      local size = math.max(1, d.e[1], d.e[2], math.abs(d.c[1]), math.abs(d.c[2]))
      if math.abs(m) > H.SLACK * size then
        local got = B:contains(p[1], p[2])
        assert.are.equal(m > 0, got, "point case " .. i)
        checked = checked + 1
        if got then inside = inside + 1 end
      end
    end
    assert.is_true(checked > 2500 and inside > 500 and checked - inside > 500)
  end)

  it("contains(x, y, z) agrees with local coordinates computed in Lua", function()
    local r, checked, inside = H.rng(556), 0, 0
    for i = 1, 3000 do
      local d = random_desc3(r, 5)
      local B = H.box_of(obb, d)
      local l = {}
      for k = 1, 3 do l[k] = r.range(-1.3, 1.3) * d.e[k] end
      local p = {}
      for k = 1, 3 do
        p[k] = d.c[k] + l[1] * d.u[1][k] + l[2] * d.u[2][k] + l[3] * d.u[3][k]
      end
      local m = H.point_margin(d, p)
      local size = math.max(1, d.e[1], d.e[2], d.e[3])
      for k = 1, 3 do size = math.max(size, math.abs(d.c[k])) end
      if math.abs(m) > H.SLACK * size then
        local got = B:contains(p[1], p[2], p[3])
        assert.are.equal(m > 0, got, "point case " .. i)
        checked = checked + 1
        if got then inside = inside + 1 end
      end
    end
    assert.is_true(checked > 2500 and inside > 500 and checked - inside > 500)
  end)

  -- inner boxes near the outer's center, some small enough to fit
  local function inner_of(r, outer, dim)
    local s = r.range(0.05, 0.9)
    local d
    if dim == 2 then
      d = random_desc2(r, 0)
    else
      d = random_desc3(r, 0)
    end
    local c, e = {}, {}
    for k = 1, dim do
      c[k] = outer.c[k] + r.range(-0.5, 0.5) * outer.e[k]
      e[k] = d.e[k] * s * 0.5
    end
    return { c = c, u = d.u, e = e }
  end

  for _, case in ipairs({ { 2, random_desc2, 4 }, { 3, random_desc3, 8 } }) do
    local dim, make, corners = case[1], case[2], case[3]
    it(dim .. "D contains(box) agrees with 'all " .. corners .. " corners contained'", function()
      local r, checked, yes = H.rng(775 + dim), 0, 0
      for i = 1, 3000 do
        local outer = make(r, 3)
        local inner = inner_of(r, outer, dim)
        local want = H.classify_contains(outer, inner)
        if want then
          local got = H.box_of(obb, outer):contains(H.box_of(obb, inner))
          assert.are.equal(want == "in", got, "box case " .. i)
          checked = checked + 1
          if got then yes = yes + 1 end
        end
      end
      assert.is_true(checked > 2500 and yes > 300 and checked - yes > 300,
        checked .. " checked, " .. yes .. " contained")
    end)
  end
end)
