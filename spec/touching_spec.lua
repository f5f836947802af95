-- The touching rule (docs/reference.md, "Precision"; src/core/obb_touch.h): every
-- query counts shapes apart by at most the band
--   B = TOUCH_REL * S + TOUCH_COORD * M + TOUCH_FLOOR
-- as touching, and they all decide it the same way. Over many seeded random
-- boxes of every size and place:
--   * a box contains its corners, also after transform, translate, rotate,
--     set_*, clone and a world's get, and contains the image of its
--     corners under the matrix it was transformed by; fits contain their
--     points;
--   * the flush neighbour (moved by 2 * h_i along axis i) touches, by every
--     query; moved a further 1e-9 * S (plus the coordinates' share) it is
--     apart, by every query;
--   * near-touching pairs and points (a few ulps either side of touching)
--     get one verdict from every query: disagreements are counted, printed
--     and must be zero.
-- Counts: OBB_TOUCH_BOXES boxes per dimension (default 100,000) and
-- OBB_TOUCH_PAIRS near-touching pairs per dimension (default 1,000,000);
-- CI runs the defaults on Lua 5.4 and fewer on the other Luas.
local obb = require "obb"
local H = require "spec.helpers"

local BOXES = tonumber(os.getenv("OBB_TOUCH_BOXES")) or 100000
local PAIRS = tonumber(os.getenv("OBB_TOUCH_PAIRS")) or 1000000
local unpack = H.unpack
local abs, max, sqrt, pi = math.abs, math.max, math.sqrt, math.pi

-- ---- random boxes ----------------------------------------------------------

-- Extents log-uniform in [1e-6, 1e6], one in 16 zero; centers up to 1e7,
-- with log-uniform magnitudes so that small centers come up too.
local function extent(r)
  if r.int(1, 16) == 1 then return 0 end
  return 10 ^ r.range(-6, 6)
end

local function coord(r)
  local s = r.int(0, 1) == 0 and -1 or 1
  local k = r.int(1, 4)
  if k == 1 then return 0 end
  if k == 2 then return s * r.range(0, 1e7) end
  return s * 10 ^ r.range(-3, 7)
end

-- Any angle: uniform, quarter turns (exact multiples of pi/2 in doubles),
-- and large ones.
local function angle(r)
  local k = r.int(1, 4)
  if k == 1 then return r.int(-8, 8) * (pi / 2) end
  if k == 2 then return r.range(-1e4, 1e4) end
  return r.range(-pi, pi)
end

local HALF = sqrt(0.5)
local QUARTERS = {
  { 0, 0, 0, 1 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 },
  { HALF, 0, 0, HALF }, { 0, HALF, 0, HALF }, { 0, 0, HALF, HALF },
  { 0.5, 0.5, 0.5, 0.5 }, { -0.5, 0.5, -0.5, 0.5 },
}

local function quat(r)
  if r.int(1, 4) == 1 then return unpack(QUARTERS[r.int(1, #QUARTERS)]) end
  return r.quat()
end

local function rand_box(r, dim)
  if dim == 2 then
    return obb.new2(coord(r), coord(r), extent(r), extent(r), angle(r))
  end
  local qx, qy, qz, qw = quat(r)
  return obb.new3(coord(r), coord(r), coord(r), extent(r), extent(r),
                  extent(r), qx, qy, qz, qw)
end

-- A box and its numbers: center, half extents, axes (axis k in u[k]).
local function parts(b, dim)
  local c, h, u = { b:center() }, { b:half_extents() }, {}
  local ax = { b:axes() }
  for k = 1, dim do
    u[k] = {}
    for i = 1, dim do u[k][i] = ax[(k - 1) * dim + i] end
  end
  return c, h, u
end

-- The size S and coordinate magnitude M of obb_touch.h for two centers and
-- two sets of half extents.
local function size(ca, ha, cb, hb)
  local S, M = 0, 0
  for i = 1, #ca do
    S = S + abs(cb[i] - ca[i]) + ha[i] + hb[i]
    M = max(M, abs(ca[i]), abs(cb[i]))
  end
  return S, M
end

local function count_failures(name, n, f)
  local bad, first = 0, nil
  for i = 1, n do
    local ok, why = f(i)
    if not ok then
      bad = bad + 1
      first = first or (i .. ": " .. tostring(why))
    end
  end
  if bad > 0 then
    print(("%s: %d of %d failed (first: %s)"):format(name, bad, n, first))
  end
  assert.are.equal(0, bad, name .. ": " .. tostring(first))
end

-- ---- a box contains its corners ----------------------------------------------

local function corners_in(b, dim)
  local p = { b:corners() }
  for k = 0, #p / dim - 1 do
    if not b:contains(unpack(p, k * dim + 1, k * dim + dim)) then
      return false, ("corner %d of %s"):format(k + 1, tostring(b))
    end
  end
  return true
end

-- A random affine matrix: a turn times non-uniform scales and a shear, and
-- a translation, as transform takes it (2D a..f; 3D the 12 numbers of the
-- rows).
local function rand_matrix(r, dim)
  local m = {}
  local function s() return (r.int(0, 1) == 0 and -1 or 1) * 10 ^ r.range(-2, 2) end
  if dim == 2 then
    local c, sn = math.cos(angle(r)), math.sin(angle(r))
    local sx, sy, sh = s(), s(), r.range(-2, 2)
    -- [c -s; s c] * [sx sh; 0 sy]; columns (a, b) and (c, d)
    m[1], m[2] = c * sx, sn * sx
    m[3], m[4] = c * sh - sn * sy, sn * sh + c * sy
    m[5], m[6] = coord(r), coord(r)
    return m
  end
  for i = 1, 3 do
    for j = 1, 3 do m[(i - 1) * 4 + j] = (i == j and s() or 0) + r.range(-1, 1) end
    m[i * 4] = coord(r)
  end
  return m
end

-- The image of b's corners under m, as the center's image (computed as
-- transform computes it: the same products in the same order) plus the
-- image of each corner's offset from the center.
local function mapped_corners(b, dim, m)
  local c, h, u = parts(b, dim)
  local out, n = {}, 0
  local mc = {}
  if dim == 2 then
    mc[1] = m[1] * c[1] + m[3] * c[2] + m[5]
    mc[2] = m[2] * c[1] + m[4] * c[2] + m[6]
  else
    for i = 1, 3 do
      local row = (i - 1) * 4
      mc[i] = (m[row + 1] * c[1] + m[row + 2] * c[2] + m[row + 3] * c[3]) + m[row + 4]
    end
  end
  for k = 0, 2 ^ dim - 1 do
    local off = {}
    for i = 1, dim do off[i] = 0 end
    for j = 1, dim do
      local sgn = (math.floor(k / 2 ^ (j - 1)) % 2 == 1) and 1 or -1
      for i = 1, dim do off[i] = off[i] + sgn * h[j] * u[j][i] end
    end
    for i = 1, dim do
      local v
      if dim == 2 then
        v = (i == 1) and (m[1] * off[1] + m[3] * off[2]) or (m[2] * off[1] + m[4] * off[2])
      else
        local row = (i - 1) * 4
        v = m[row + 1] * off[1] + m[row + 2] * off[2] + m[row + 3] * off[3]
      end
      n = n + 1
      out[n] = mc[i] + v
    end
  end
  return out
end

local function set_random(r, b, dim)
  local k = r.int(1, 4)
  if dim == 2 then
    if k == 1 then b:set(coord(r), coord(r), extent(r), extent(r), angle(r))
    elseif k == 2 then b:set_center(coord(r), coord(r))
    elseif k == 3 then b:set_half_extents(extent(r), extent(r))
    else b:set_angle(angle(r)) end
  else
    if k == 1 then b:set_center(coord(r), coord(r), coord(r))
    elseif k == 2 then b:set_half_extents(extent(r), extent(r), extent(r))
    else b:set_rotation(quat(r)) end
  end
end

local function check_corners(dim, seed)
  local r = H.rng(seed)
  local w = dim == 2 and obb.world2() or obb.world3()
  local scratch = rand_box(r, dim)
  count_failures(dim .. "D corners", BOXES, function(i)
    local b = rand_box(r, dim)
    local ok, why = corners_in(b, dim)
    if not ok then return ok, why end
    local c = b:clone()
    ok, why = corners_in(c, dim)
    if not ok then return ok, "clone: " .. why end
    -- transform: the result contains its corners and the image of b's
    local m = rand_matrix(r, dim)
    local t = b:clone()
    if pcall(t.transform, t, m) then
      ok, why = corners_in(t, dim)
      if not ok then return ok, "transform: " .. why end
      local img = mapped_corners(b, dim, m)
      for k = 0, #img / dim - 1 do
        if not t:contains(unpack(img, k * dim + 1, k * dim + dim)) then
          return false, ("image of corner %d under transform"):format(k + 1)
        end
      end
    end
    -- translate, rotate, set_*
    if dim == 2 then c:translate(coord(r) * 1e-3, coord(r) * 1e-3):rotate(angle(r))
    else c:translate(coord(r) * 1e-3, coord(r) * 1e-3, coord(r) * 1e-3):rotate(quat(r)) end
    ok, why = corners_in(c, dim)
    if not ok then return ok, "translate/rotate: " .. why end
    set_random(r, c, dim)
    ok, why = corners_in(c, dim)
    if not ok then return ok, "set: " .. why end
    -- a world's item read back, as numbers and into a box
    w:add(i, b)
    local g = dim == 2 and obb.new2(w:get(i)) or obb.new3(w:get(i))
    ok, why = corners_in(g, dim)
    if not ok then return ok, "get: " .. why end
    ok, why = corners_in(w:get(i, scratch), dim)
    if not ok then return ok, "get(box): " .. why end
    w:remove(i)
    return true
  end)
end

local function check_fits(dim, seed)
  local r = H.rng(seed)
  count_failures(dim .. "D fits", math.max(1, math.floor(BOXES / 100)), function()
    local pts, n = {}, r.int(1, 12)
    local c = {}
    for i = 1, dim do c[i] = coord(r) end
    local spread = 10 ^ r.range(-6, 6)
    for _ = 1, n do
      for i = 1, dim do pts[#pts + 1] = c[i] + spread * r.range(-1, 1) end
    end
    for _, method in ipairs({ "tight", "covariance" }) do
      local b = (dim == 2 and obb.fit2 or obb.fit3)(pts, method)
      for k = 0, n - 1 do
        if not b:contains(unpack(pts, k * dim + 1, k * dim + dim)) then
          return false, method .. " fit misses point " .. (k + 1)
        end
      end
    end
    return true
  end)
end

-- ---- every query, one verdict ------------------------------------------------

local function zeros(dim)
  if dim == 2 then return 0, 0, 0, 0 end
  return 0, 0, 0, 0, 0, 0
end

-- The verdict of every pair query on a, b: returns the verdicts as a string
-- of 0/1 (one per query) and whether they all agree with want.
local out = {}
local function pair_verdicts(a, b, w, dim)
  local v = {
    a:intersects(b), b:intersects(a),
    a:penetration(b) ~= nil, b:penetration(a) ~= nil,
    a:contacts(b, out) ~= nil,
    a:distance(b) == 0, b:distance(a) == 0,
    a:classify(b) ~= "disjoint", b:classify(a) ~= "disjoint",
    a:sweep(b, zeros(dim)) ~= nil,
  }
  w:update(1, a)
  w:update(2, b)
  local n = w:query_box(b, out) -- item 2, b itself, is always there
  v[#v + 1] = n == 2
  v[#v + 1] = w:pairs(out) == 1
  v[#v + 1] = w:collisions(1, out) == 1
  return v
end

local function disagree(v, want)
  for k = 1, #v do
    if v[k] ~= want then
      local s = {}
      for j = 1, #v do s[j] = v[j] and "1" or "0" end
      return ("query %d of %s"):format(k, table.concat(s))
    end
  end
end

local function pair_world(dim, a, b)
  local w = dim == 2 and obb.world2() or obb.world3()
  w:add(1, a)
  w:add(2, b)
  return w
end

-- The flush neighbour along axis k on side sgn, moved a further `more`.
local function neighbour(b, dim, k, sgn, more)
  local c, h, u = parts(b, dim)
  local n = b:clone()
  local cc = {}
  for i = 1, dim do cc[i] = c[i] + sgn * (2 * h[k] + more) * u[k][i] end
  n:set_center(unpack(cc, 1, dim))
  return n
end

local function check_flush(dim, seed)
  local r = H.rng(seed)
  local w = pair_world(dim, rand_box(r, dim), rand_box(r, dim))
  count_failures(dim .. "D flush neighbours", BOXES, function()
    local b = rand_box(r, dim)
    local c, h = parts(b, dim)
    for k = 1, dim do
      for sgn = -1, 1, 2 do
        local where = (" (axis %d, side %d)"):format(k, sgn)
        local n = neighbour(b, dim, k, sgn, 0)
        local why = disagree(pair_verdicts(b, n, w, dim), true)
        if why then return false, "flush: " .. why .. where end
        local S, M = size(c, h, { n:center() }, { n:half_extents() })
        local band = obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
        local nx = { b:penetration(n) }
        if nx[dim + 1] > band then return false, "flush: depth " .. nx[dim + 1] .. where end
        if b:sweep(n, zeros(dim)) ~= 0 then return false, "flush: sweep t ~= 0" .. where end
        -- touching, not overlapping (box:overlaps: deeper than the band)
        if b:overlaps(n) or n:overlaps(b) then return false, "flush: overlaps" .. where end
        local d = { b:distance(n) }
        for i = 1, dim do
          if d[1 + i] ~= d[1 + dim + i] then return false, "flush: points differ" .. where end
        end
        -- moved a further 1e-9 S, plus 16 times the coordinates' and the
        -- floor's share of the band (a smaller move of a tiny box far out
        -- is lost in rounding its center): apart
        local far = neighbour(b, dim, k, sgn,
          1e-9 * S + 16 * (obb.TOUCH_COORD * M + obb.TOUCH_FLOOR))
        why = disagree(pair_verdicts(b, far, w, dim), false)
        if why then return false, "apart: " .. why .. where end
      end
    end
    return true
  end)
end

-- Near-touching pairs: a random box b whose vertex farthest toward a
-- (its support point) sits on a random point of a face of a, then moved
-- off the face, or into a, by a few ulps, or by 0.5 to 2 bands (where the
-- verdict turns, so any query that decided touching its own way would
-- disagree there).
local function nudge(r, x)
  return x * (1 + r.int(-6, 6) * 2 ^ -53)
end

local function band_of(ca, ha, cb, hb)
  local S, M = size(ca, ha, cb, hb)
  return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
end

local function near_pair(r, dim)
  local a = rand_box(r, dim)
  local b
  if dim == 2 then
    b = obb.new2(0, 0, extent(r), extent(r), angle(r))
  else
    local qx, qy, qz, qw = quat(r)
    b = obb.new3(0, 0, 0, extent(r), extent(r), extent(r), qx, qy, qz, qw)
  end
  local ca, ha, ua = parts(a, dim)
  local _, hb, ub = parts(b, dim)
  local k, sgn = r.int(1, dim), r.int(0, 1) == 0 and -1 or 1
  -- the face point, and b's support vertex toward a (offset from b's center)
  local f, vs = {}, {}
  for i = 1, dim do f[i] = ca[i] + sgn * ha[k] * ua[k][i]; vs[i] = 0 end
  for j = 1, dim do
    if j ~= k then
      local t = ha[j] * r.range(-1, 1)
      for i = 1, dim do f[i] = f[i] + t * ua[j][i] end
    end
    local side = H.dot(ub[j], ua[k]) * sgn > 0 and -1 or 1
    for i = 1, dim do vs[i] = vs[i] + side * hb[j] * ub[j][i] end
  end
  local cb = {}
  for i = 1, dim do cb[i] = f[i] - vs[i] end
  local band = band_of(ca, ha, cb, hb)
  if r.int(0, 1) == 0 then
    for i = 1, dim do cb[i] = nudge(r, cb[i]) end
  else
    local gap = r.range(-2, 2) * band
    for i = 1, dim do cb[i] = cb[i] + sgn * gap * ua[k][i] end
  end
  b:set_center(unpack(cb, 1, dim))
  -- b moved off a's face by half a band more: if it still touches, the
  -- pair touches with room to spare
  local off = {}
  for i = 1, dim do off[i] = sgn * 0.5 * band * ua[k][i] end
  return a, b, b:clone():translate(unpack(off, 1, dim)):intersects(a)
end

-- Calls verdicts() n times; every list it returns must hold one verdict
-- (all equal to its first). Prints how often that verdict was `what`.
local function one_verdict(name, n, what, verdicts)
  local yes = 0
  count_failures(name, n, function()
    local v = verdicts()
    if v[1] then yes = yes + 1 end
    local why = disagree(v, v[1])
    if why then return false, why end
    return true
  end)
  print(("%s: %d of %d %s, 0 disagreements"):format(name, yes, n, what))
end

local function check_near_pairs(dim, seed)
  local r = H.rng(seed)
  local w = pair_world(dim, rand_box(r, dim), rand_box(r, dim))
  one_verdict(dim .. "D near-touching pairs", PAIRS, "touching", function()
    local a, b = near_pair(r, dim)
    local v = pair_verdicts(a, b, w, dim)
    -- a pair that overlaps (by more than the band) touches: one rule
    if a:overlaps(b) and not v[1] then v[#v + 1] = true end
    return v
  end)
end

-- Grazing sweeps: b passes a along a's face (a near-touching pair at time
-- tau, moved along a's other axes, and a little along the face normal).
-- When the boxes touch at tau with room to spare (they still touch moved
-- half a band apart) the sweep is a hit; and at every reported t the moved
-- boxes intersect. (Near the band's edge, intersects of the moved boxes
-- flickers with the rounding of their centers along the way, so a hit
-- there is not required.)
local function check_sweeps(dim, seed)
  local r = H.rng(seed)
  local hits = 0
  count_failures(dim .. "D grazing sweeps", math.floor(PAIRS / 10), function()
    local a, b, robust = near_pair(r, dim)
    local _, ha, ua = parts(a, dim)
    local v = {}
    for i = 1, dim do v[i] = 0 end
    for j = 1, dim do
      local f = (r.int(1, 3) == 1 and 1e-9 or 1) * ha[j] * r.range(-3, 3)
      for i = 1, dim do v[i] = v[i] + f * ua[j][i] end
    end
    local tau = r.uniform()
    local start = b:clone():translate(unpack((function()
      local d = {}
      for i = 1, dim do d[i] = -v[i] * tau end
      return d
    end)(), 1, dim))
    local touching = a:intersects(b)
    local za = { zeros(dim) }
    local args = {}
    for i = 1, dim do args[i] = v[i]; args[dim + i] = za[i] end
    local t = start:sweep(a, unpack(args, 1, 2 * dim)) -- start moves, a stays
    if t == nil then
      if touching and robust then
        -- the sweep may only miss when start, moved by tau * v, is not
        -- the configuration that touched (rounding of the move)
        local d = {}
        for i = 1, dim do d[i] = v[i] * tau end
        if start:clone():translate(unpack(d, 1, dim)):intersects(a) then
          return false, "touching at tau, the sweep missed"
        end
      end
      return true
    end
    hits = hits + 1
    local d = {}
    for i = 1, dim do d[i] = v[i] * t end
    if not start:clone():translate(unpack(d, 1, dim)):intersects(a) then
      return false, "not intersecting at the reported t " .. t
    end
    return true
  end)
  print(("%dD grazing sweeps: %d hits, 0 disagreements"):format(dim, hits))
end

-- Points a few ulps either side of a face, edge or corner: contains,
-- distance, signed_distance, closest_point, query_point, a zero-length
-- raycast (max_t = 0) and a circle or sphere of radius 0 agree.
local function check_near_points(dim, seed)
  local r = H.rng(seed)
  local w = dim == 2 and obb.world2() or obb.world3()
  w:add(1, rand_box(r, dim))
  one_verdict(dim .. "D near-boundary points", PAIRS, "contained", function()
    local b = rand_box(r, dim)
    local c, h, u = parts(b, dim)
    local p = {}
    for i = 1, dim do p[i] = c[i] end
    for j = 1, dim do
      local t = r.int(1, 3) == 1 and h[j] * r.range(-1, 1)
        or nudge(r, (r.int(0, 1) == 0 and -1 or 1) * h[j])
      for i = 1, dim do p[i] = p[i] + t * u[j][i] end
    end
    if r.int(0, 1) == 0 then
      for i = 1, dim do p[i] = nudge(r, p[i]) end
    else -- off the last face by 0.5 to 2 bands, or into it
      local S, M = size(c, h, p, { 0, 0, 0 })
      local gap = r.range(-2, 2) * (obb.TOUCH_REL * S + obb.TOUCH_COORD * M)
      local sg = H.dot(u[dim], { p[1] - c[1], p[2] - c[2], dim == 3 and p[3] - c[3] or nil }) >= 0 and 1 or -1
      for i = 1, dim do p[i] = p[i] + sg * gap * u[dim][i] end
    end
    w:update(1, b)
    local dir = { zeros(dim) }
    dir[r.int(1, dim)] = 1
    local cp = { b:closest_point(unpack(p, 1, dim)) }
    local same = true
    for i = 1, dim do if cp[i] ~= p[i] then same = false end end
    local args = {}
    for i = 1, dim do args[i] = p[i]; args[dim + i] = dir[i] end
    args[2 * dim + 1] = 0
    local v = {
      b:contains(unpack(p, 1, dim)),
      b:distance(unpack(p, 1, dim)) == 0,
      b:signed_distance(unpack(p, 1, dim)) <= 0,
      same,
      b:raycast(unpack(args, 1, 2 * dim + 1)) ~= nil,
    }
    if dim == 2 then
      v[#v + 1] = w:query_point(p[1], p[2], out) == 1
      v[#v + 1] = b:intersects_circle(p[1], p[2], 0)
      v[#v + 1] = b:intersects_segment(p[1], p[2], p[1], p[2])
    else
      v[#v + 1] = w:query_point(p[1], p[2], p[3], out) == 1
      v[#v + 1] = b:intersects_sphere(p[1], p[2], p[3], 0)
      v[#v + 1] = b:intersects_segment(p[1], p[2], p[3], p[1], p[2], p[3])
    end
    return v
  end)
end

describe("the touching rule", function()
  it("is published with the module", function()
    assert.are.equal(2 ^ -40, obb.TOUCH_REL)
    assert.are.equal(2 ^ -50, obb.TOUCH_COORD)
    assert.are.equal(2 ^ -1066, obb.TOUCH_FLOOR)
  end)

  for _, dim in ipairs({ 2, 3 }) do
    describe(dim .. "D", function()
      it("a box contains its corners, after every change, and its image under transform", function()
        check_corners(dim, 1200 + dim)
      end)
      it("fits contain their points", function() check_fits(dim, 1300 + dim) end)
      it("flush neighbours touch by every query; a further 1e-9 S away, apart by every query", function()
        check_flush(dim, 1400 + dim)
      end)
      it("near-touching pairs get one verdict from every query", function()
        check_near_pairs(dim, 1500 + dim)
      end)
      it("grazing sweeps hit whenever the boxes touch, and intersect at t", function()
        check_sweeps(dim, 1700 + dim)
      end)
      it("near-boundary points get one verdict from every point query", function()
        check_near_points(dim, 1600 + dim)
      end)
    end)
  end
end)
