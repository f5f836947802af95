-- world:cast_turning: world:cast for a box that turns as it moves (README,
-- "Moving boxes through a world"). Checked against brute force, box:sweep
-- with turns on every item of the world, on scenes made to test the broad
-- phase's reach (long bars spinning fast among items scattered around the
-- circles their tips sweep); then the order, filters, errors, "limit"
-- answers, the translational cast for zero turns, and nested queries.
local obb = require "obb"
local H = require "spec.helpers"

local unpack = H.unpack
local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"
local PI = math.pi

-- Bit for bit: NaN matches NaN, 0 matches 0 only with the same sign.
local function same(x, y)
  if type(x) ~= type(y) then return false end
  if type(x) == "number" then
    if x ~= x then return y ~= y end
    return x == y and (x ~= 0 or 1 / x == 1 / y)
  end
  return rawequal(x, y)
end

local function norm(v)
  local s = 0
  for i = 1, #v do s = s + v[i] * v[i] end
  return math.sqrt(s)
end

-- A random turn: a number in 2D, a rotation vector in 3D, of an angle
-- drawn from the sizes the turning sweep's spec uses.
local function rand_turn(r, dim)
  local k = r.int(1, 6)
  local a = ({ 0.25, PI / 2, PI, 2.8, 6 * PI, 0 })[k] * r.uniform()
  if r.int(0, 1) == 0 then a = -a end
  if dim == 2 then return { a } end
  local x, y, z = r.normal(), r.normal(), r.normal()
  local l = math.sqrt(x * x + y * y + z * z)
  return { a * x / l, a * y / l, a * z / l }
end

-- A world of n items around the origin (offset by base), most near the
-- circle (sphere) of radius ring, where a spinning bar's tips pass, some
-- thin, some points and segments; returns the world and the items' boxes.
local function scene(r, dim, n, ring, base)
  local w = dim == 2 and obb.world2() or obb.world3()
  local boxes = {}
  for i = 1, n do
    local c, e = {}, {}
    local on_ring = r.int(0, 2) > 0
    local u = { r.normal(), r.normal(), dim == 3 and r.normal() or 0 }
    local rad = (ring + r.range(-1, 1)) / norm(u)
    for k = 1, dim do
      if on_ring then
        c[k] = base + rad * u[k]
      else
        c[k] = base + r.range(-ring - 2, ring + 2)
      end
      local kind = r.int(1, 10)
      e[k] = kind == 1 and 0 or kind == 2 and 0.02 or r.range(0.05, 1.5)
    end
    local b
    if dim == 2 then
      b = obb.new2(c[1], c[2], e[1], e[2], r.range(-PI, PI))
    else
      local qx, qy, qz, qw = r.quat()
      b = obb.new3(c[1], c[2], c[3], e[1], e[2], e[3], qx, qy, qz, qw)
    end
    boxes[i] = b
    w:add(i, b)
  end
  return w, boxes
end

-- The cast box: a long bar (half length up to ring), or a plain box.
local function caster(r, dim, ring, base)
  local long = r.int(0, 2) > 0 and ring * r.range(0.6, 1.1) or r.range(0.1, 1.5)
  local c = {}
  for k = 1, dim do c[k] = base + r.range(-2, 2) end
  if dim == 2 then
    return obb.new2(c[1], c[2], long, r.range(0, 0.3), r.range(-PI, PI))
  end
  local qx, qy, qz, qw = r.quat()
  return obb.new3(c[1], c[2], c[3], long, r.range(0, 0.3), r.range(0, 0.3), qx, qy, qz, qw)
end

-- cast_turning's arguments after the box: d, then the turn.
local function cast(w, box, d, turn, out, filter)
  local args = {}
  for k = 1, #d do args[#args + 1] = d[k] end
  for k = 1, #turn do args[#args + 1] = turn[k] end
  args[#args + 1] = out
  if filter then args[#args + 1] = filter end
  return w:cast_turning(box, unpack(args, 1, #args))
end

-- box:sweep(other, d, 0, turn, 0) as a list { t, n..., "limit" | nil },
-- or nil.
local function sweep(box, other, d, turn)
  local dim = #d
  local args = {}
  for k = 1, dim do args[k], args[dim + k] = d[k], 0 end
  for k = 1, #turn do args[2 * dim + k], args[2 * dim + #turn + k] = turn[k], 0 end
  local r = H.pack(box:sweep(other, unpack(args, 1, 2 * dim + 2 * #turn)))
  if r[1] == nil then return nil end
  return r
end

local function dist2(box, other)
  local a, b, s = { box:center() }, { other:center() }, 0
  for k = 1, #a do s = s + (b[k] - a[k]) ^ 2 end
  return s
end

-- The box posed at time s: translate, then rotate by s times the turn.
local function posed(box, d, turn, s)
  local m = {}
  for k = 1, #d do m[k] = d[k] * s end
  local b = box:clone():translate(unpack(m))
  if #turn == 1 then return b:rotate(turn[1] * s) end
  local len = norm(turn)
  if len == 0 then return b end
  return b:rotate(unpack(H.quat_axis_angle(turn[1] / len, turn[2] / len, turn[3] / len, s * len)))
end

describe("world:cast_turning", function()
  for _, dim in ipairs({ 2, 3 }) do
    it(dim .. "D: reports every item box:sweep with turns reports, the same answers, first met first", function()
      local r = H.rng(dim == 2 and 4242 or 4343)
      local stride = dim == 2 and obb.CAST_STRIDE2 or obb.CAST_STRIDE3
      local hits, limits, scenes = 0, 0, LIGHT and 8 or 60
      for sc = 1, scenes do
        local ring = r.range(2, 8)
        local base = sc % 5 == 0 and 1e5 or 0
        local w, boxes = scene(r, dim, 40, ring, base)
        for _ = 1, 5 do
          local box = caster(r, dim, ring, base)
          local d = {}
          local still = r.int(1, 3) == 1 -- spinning in place
          for k = 1, dim do d[k] = (still or r.int(1, 4) == 1) and 0 or r.range(-6, 6) end
          local turn = rand_turn(r, dim)
          local out = {}
          local n = cast(w, box, d, turn, out)
          assert.equal(n * stride, #out)
          local want, nwant = {}, 0
          for i, b in ipairs(boxes) do
            want[i] = sweep(box, b, d, turn)
            if want[i] then nwant = nwant + 1 end
          end
          assert.equal(nwant, n)
          local prev_t, prev_d = -1, -1
          for k = 1, n do
            local got = { unpack(out, (k - 1) * stride + 1, k * stride) }
            local ref = want[got[1]]
            assert.is_not_nil(ref, "an item box:sweep does not report")
            for j = 1, dim + 1 do
              assert.is_true(same(ref[j], got[j + 1]), "value " .. j .. " of item " .. got[1])
            end
            want[got[1]] = nil -- each item once
            local dd = dist2(box, boxes[got[1]])
            assert.is_true(got[2] > prev_t or (got[2] == prev_t and dd >= prev_d), "order")
            prev_t, prev_d = got[2], dd
            if ref[dim + 2] == "limit" then
              limits = limits + 1
            else
              hits = hits + 1
              assert.is_true(posed(box, d, turn, got[2]):intersects(boxes[got[1]]),
                "not touching at the reported t")
            end
          end
        end
        w:close()
      end
      assert.is_true(hits > scenes * 5, "too few hits to show anything: " .. hits)
      assert.equal(0, limits)
    end)
  end

  it("reaches as far as the box's corners swing, beyond its translational bounds", function()
    -- a bar 6 long turning in place: the crate above its right half is
    -- met when the bar has turned about half a radian, the other one above
    -- its left half after some 2.4 rad; a cast without the turn finds
    -- nothing
    local w = obb.world2()
    w:add("crate", 2, 1.5, 0.2, 0.2)
    w:add("behind", -2, 1.5, 0.2, 0.2)
    local bar = obb.new2(0, 0, 3, 0.05)
    local out = {}
    assert.equal(0, w:cast(bar, 0, 0, out))
    assert.equal(1, w:cast_turning(bar, 0, 0, 1, out))
    assert.equal("crate", out[1])
    assert.same({ bar:sweep(obb.new2(2, 1.5, 0.2, 0.2), 0, 0, 0, 0, 1, 0) }, { unpack(out, 2, 4) })
    assert.equal(2, w:cast_turning(bar, 0, 0, 4, out)) -- past the first, on to the other
    assert.same({ "crate", "behind" }, { out[1], out[5] })
    -- 3D: a bar along x turning about z meets a cube above it in y
    local w3 = obb.world3()
    w3:add("cube", 2, 1.5, 0, 0.2, 0.2, 0.2)
    local bar3 = obb.new3(0, 0, 0, 3, 0.05, 0.05)
    assert.equal(0, w3:cast(bar3, 0, 0, 0, out))
    assert.equal(1, w3:cast_turning(bar3, 0, 0, 0, 0, 0, 1, out))
    assert.equal("cube", out[1])
    assert.same({ bar3:sweep(obb.new3(2, 1.5, 0, 0.2, 0.2, 0.2), 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0) },
      { unpack(out, 2, 5) })
    assert.equal(1 + 1 + 3, #out)
    -- the tips' very reach: small items just inside the circle (sphere)
    -- the corners sweep, on each axis, met by a bar spinning in place
    local rho = math.sqrt(9 + 0.05 ^ 2)
    local w2 = obb.world2()
    w2:add("y", 0, rho + 0.009, 0.01, 0.01)
    w2:add("-x", -rho - 0.009, 0, 0.01, 0.01)
    assert.equal(2, w2:cast_turning(obb.new2(0, 0, 3, 0.05, 0.0166), 0, 0, 7, out))
    local cube = obb.new3(0, 0, 0, 3, 0.05, 0.05)
    for _, axis in ipairs({ { 0, 1, 0 }, { 0, 0, 1 } }) do
      local t = obb.world3()
      t:add("on axis", axis[1] * (rho + 0.009), axis[2] * (rho + 0.009), axis[3] * (rho + 0.009),
        0.01, 0.01, 0.01)
      -- turning about the axis that takes x to it, and a little off it
      local rx, ry, rz = 0, -axis[3] * 2, axis[2] * 2
      assert.equal(1, t:cast_turning(cube, 0, 0, 0, rx + 0.01, ry, rz, out))
    end
  end)

  it("breaks ties by distance between centers, and filters", function()
    local w = obb.world2()
    w:add("far", 3, 0, 1, 1)
    w:add("near", 1, 0, 1, 1)
    w:add("away", 30, 0, 1, 1)
    local box = obb.new2(1.8, 0, 1, 0.2) -- overlaps both at the start: t = 0
    local out = { "stale", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }
    assert.equal(2, w:cast_turning(box, 0, 5, 1, out))
    assert.same({ "near", 0, "far", 0 }, { out[1], out[2], out[5], out[6] })
    assert.equal(8, #out)
    local seen = {}
    assert.equal(1, w:cast_turning(box, 0, 5, 1, out, function(i)
      seen[#seen + 1] = i
      return i == "far"
    end))
    assert.same({ "far", 0 }, { out[1], out[2] })
    assert.equal(4, #out)
    assert.same({ "near", "far" }, seen) -- asked in the order met
  end)

  it("reports an undecided item at its safe time, as box:sweep answers limit", function()
    -- the turning sweep spec's example: a turn so fast that no certified
    -- step is longer than the spacing of doubles once the boxes are in reach
    local a = obb.new2(-1, 0, 1, 0.1)
    local b = obb.new2(1, 1.2, 0.3, 0.3)
    local r = H.pack(a:sweep(b, 2, 0, 0, 0, 1e17, 0))
    assert.equal("limit", r[4])
    local w = obb.world2()
    w:add("spun past", b)
    w:add("later", 4, 0, 0.2, 0.2) -- met at the end of the step, if at all
    w:add("first", -1, 0.15, 0.1, 0.1) -- touched at the start
    local out = {}
    local n = w:cast_turning(a, 2, 0, 1e17, out)
    assert.is_true(n >= 2)
    assert.same({ "first", 0 }, { out[1], out[2] })
    assert.same({ "spun past", r[1], r[2], r[3] }, { unpack(out, 5, 8) })
    -- 3D likewise
    local a3, b3 = obb.new3(-1, 0, 0, 1, 0.1, 0.1), obb.new3(1, 1.2, 0, 0.3, 0.3, 0.3)
    local r3 = H.pack(a3:sweep(b3, 2, 0, 0, 0, 0, 0, 0, 0, 1e17, 0, 0, 0))
    assert.equal("limit", r3[5])
    local w3 = obb.world3()
    w3:add("spun past", b3)
    assert.equal(1, w3:cast_turning(a3, 2, 0, 0, 0, 0, 1e17, out))
    assert.same({ "spun past", r3[1], r3[2], r3[3], r3[4] }, out)
  end)

  it("leaves out items out of reach even where box:sweep overflows and says limit", function()
    -- displacements near 1e308: the sweep's bounds overflow and it answers
    -- "limit" at 0 for every item; the cast reports those within reach
    -- of the box's path, as box:sweep answers them, and no other
    for _, d in ipairs({ { 1.7e308, 0 }, { -1.7e308, 1.7e308 }, { 1e300, -1e300 } }) do
      for _, c in ipairs({ 0, 1e308, -1e308 }) do
        local w, boxes = obb.world2(), {}
        for i = 1, 6 do
          boxes[i] = obb.new2(c + (i - 3) * 5, (i % 3) * 4 - 4, 1, 1, i)
          w:add(i, boxes[i])
        end
        local box, out = obb.new2(c, 0, 2, 0.5, 0.3), {}
        local n = w:cast_turning(box, d[1], d[2], 1.5, out)
        local seen = {}
        for k = 1, n do
          local got = { unpack(out, 4 * k - 3, 4 * k) }
          local ref = sweep(box, boxes[got[1]], d, { 1.5 })
          assert.is_not_nil(ref)
          for j = 1, 3 do assert.is_true(same(ref[j], got[j + 1])) end
          seen[got[1]] = true
        end
        for i = 1, 6 do
          local ref = sweep(box, boxes[i], d, { 1.5 })
          if ref and not seen[i] then
            assert.equal("limit", ref[4])
            assert.equal(0, ref[1])
          end
        end
        w:close()
      end
    end
  end)

  it("with no turn is world:cast, bit for bit", function()
    local r = H.rng(777)
    for _, dim in ipairs({ 2, 3 }) do
      for _ = 1, LIGHT and 4 or 20 do
        local w = scene(r, dim, 30, 5, 0)
        local box = caster(r, dim, 5, 0)
        local d = {}
        for k = 1, dim do d[k] = r.range(-6, 6) end
        for _, z in ipairs({ 0, -0.0 }) do
          local turn = dim == 2 and { z } or { z, 0, z }
          local o1, o2 = {}, {}
          local n1 = cast(w, box, d, turn, o1)
          local n2 = w:cast(box, d[1], d[2], dim == 3 and d[3] or o2, dim == 3 and o2 or nil)
          assert.equal(n2, n1)
          assert.equal(#o2, #o1)
          for k = 1, #o2 do assert.is_true(same(o2[k], o1[k]), "value " .. k) end
        end
        w:close()
      end
    end
  end)

  it("runs inside another query's filter", function()
    local w = obb.world2()
    w:add("a", 2, 1.5, 0.2, 0.2)
    w:add("b", 5, 5, 1, 1)
    local bar = obb.new2(0, 0, 3, 0.05)
    local want = {}
    w:cast_turning(bar, 0, 0, 1, want)
    local inner = {}
    w:query_box(obb.new2(0, 0, 100, 100), {}, function()
      assert.equal(1, w:cast_turning(bar, 0, 0, 1, inner))
      assert.equal(1, w:cast_turning(bar, 0, 0, 1, inner, function() return true end))
      return true
    end)
    assert.same(want, inner)
  end)

  it("refuses what world:cast refuses, and bad turns", function()
    local w, w3 = obb.world2(), obb.world3()
    local b2, b3, out = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1), {}
    local f = w.cast_turning
    H.assert_argerror(2, "cast_turning", "obb.obb2 expected, got obb.obb3", f, w, b3, 0, 0, 1, out)
    H.assert_argerror(3, "cast_turning", "number expected, got string", f, w, b2, "x", 0, 1, out)
    H.assert_argerror(5, "cast_turning", "finite number expected, got nan", f, w, b2, 0, 0, 0 / 0, out)
    H.assert_argerror(5, "cast_turning", "finite number expected, got inf", f, w, b2, 0, 0, math.huge, out)
    H.assert_argerror(6, "cast_turning", "table expected, got no value", f, w, b2, 0, 0, 1)
    H.assert_argerror(7, "cast_turning", "function, obb.responses or nil expected, got number",
      f, w, b2, 0, 0, 1, out, 1)
    H.assert_argerror(8, "cast_turning", "no value expected, got number", f, w, b2, 0, 0, 1, out, nil, 1)
    H.assert_argerror(8, "cast_turning", "number expected, got table", f, w3, b3, 0, 0, 0, 0, 0, out)
    H.assert_argerror(7, "cast_turning", "finite number expected, got nan", f, w3, b3, 0, 0, 0, 0, 0 / 0, 0, out)
    H.assert_argerror(2, "cast_turning", "obb.obb3 expected, got obb.obb2", f, w3, b2, 0, 0, 0, 0, 0, 0, out)
    H.assert_argerror(9, "cast_turning", "table expected, got no value", f, w3, b3, 0, 0, 0, 0, 0, 1)
    w:add("x", 0, 0, 1, 1)
    local err = H.error_of(f, w, b2, 0, 0, 1, out, function() error("from the filter") end)
    assert.truthy(err:find("from the filter", 1, true))
    w:close()
    H.assert_error_text("world is closed", f, w, b2, 0, 0, 1, out)
  end)
end)
