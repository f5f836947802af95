-- Construction, accessors, in-place setters, clone, type, tostring, __eq,
-- fitting to points, and the module's footprint.
local obb = require "obb"
local H = require "spec.helpers"

local PI = math.pi
local pack = H.pack
local S2 = math.sqrt(0.5)

describe("the module", function()
  it("returns a table with a version string", function()
    assert.are.equal("table", type(obb))
    assert.are.equal("string", type(obb._VERSION))
    assert.is_truthy(obb._VERSION:match("^%d+%.%d+%.%d+"))
  end)

  it("sets no globals when loaded", function()
    local before = {}
    for k in pairs(_G) do before[k] = true end
    -- loading again re-fills the shared metatables: put them back after
    local mt2 = debug.getmetatable(obb.new2(0, 0, 1, 1))
    local mt3 = debug.getmetatable(obb.new3(0, 0, 0, 1, 1, 1))
    local i2, i3 = mt2.__index, mt3.__index
    local saved = package.loaded.obb
    package.loaded.obb = nil
    local fresh = require "obb"
    package.loaded.obb = saved
    mt2.__index, mt3.__index = i2, i3
    assert.are.equal("table", type(fresh))
    for k in pairs(_G) do
      assert.is_true(before[k] ~= nil, "new global " .. tostring(k))
    end
    assert.is_nil(rawget(_G, "obb"))
  end)

  it("exposes the method tables as obb.obb2 and obb.obb3", function()
    local b2, b3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    assert.are.equal(obb.obb2.intersects, b2.intersects)
    assert.are.equal(obb.obb3.rotation, b3.rotation)
    assert.are.equal(debug.getmetatable(b2).__index, obb.obb2)
    assert.are.equal("obb.obb2", debug.getmetatable(b2).__name)
    assert.are.equal("obb.obb3", debug.getmetatable(b3).__name)
  end)

  it("names every documented function", function()
    for _, f in ipairs({ "new2", "from_aabb2", "from_axes2", "fit2", "new3",
      "from_aabb3", "from_axes3", "fit3", "type" }) do
      assert.are.equal("function", type(obb[f]), f)
    end
    local common = { "intersects", "contains", "transform", "corners", "aabb",
      "center", "half_extents", "axes", "set", "set_center", "set_half_extents",
      "translate", "rotate", "clone" }
    for _, m in ipairs(common) do
      assert.are.equal("function", type(obb.obb2[m]), "obb2:" .. m)
      assert.are.equal("function", type(obb.obb3[m]), "obb3:" .. m)
    end
    for _, m in ipairs({ "angle", "set_angle" }) do
      assert.are.equal("function", type(obb.obb2[m]), "obb2:" .. m)
    end
    for _, m in ipairs({ "rotation", "set_rotation" }) do
      assert.are.equal("function", type(obb.obb3[m]), "obb3:" .. m)
    end
  end)
end)

describe("obb.type", function()
  it("tells 2D boxes, 3D boxes and everything else apart", function()
    assert.are.equal("obb2", obb.type(obb.new2(0, 0, 1, 1)))
    assert.are.equal("obb3", obb.type(obb.new3(0, 0, 0, 1, 1, 1)))
    for _, v in ipairs({ 1, "obb2", {}, true, print, io.stdout }) do
      assert.is_nil(obb.type(v))
    end
    assert.is_nil(obb.type(nil))
    assert.is_nil(obb.type())
  end)

  it("names worlds by dimension, open or closed, and response sets", function()
    local w2, w3 = obb.world2(), obb.world3 { cell = 4 }
    assert.are.equal("world2", obb.type(w2))
    assert.are.equal("world3", obb.type(w3))
    w2:add("a", 0, 0, 1, 1)
    w2:close()
    assert.are.equal("world2", obb.type(w2)) -- its methods say it is closed
    assert.are.equal("obb.responses", obb.type(obb.responses { default = "touch" }))
    -- by the real metatable and the tag: neither alone makes a world
    local f = io.tmpfile()
    local mt = debug.getmetatable(f)
    debug.setmetatable(f, debug.getmetatable(w3))
    local t = obb.type(f)
    debug.setmetatable(f, mt)
    f:close()
    assert.is_nil(t)
    local wmt = debug.getmetatable(w3)
    debug.setmetatable(w3, debug.getmetatable(obb.new2(0, 0, 1, 1)))
    t = obb.type(w3)
    debug.setmetatable(w3, wmt)
    assert.is_nil(t)
    assert.are.equal("world3", obb.type(w3))
    assert.is_nil(obb.type(setmetatable({}, { __metatable = getmetatable(w3) })))
  end)

  it("does not take another userdata with a box's metatable for a box", function()
    local f = io.tmpfile()
    local mt = debug.getmetatable(f)
    debug.setmetatable(f, debug.getmetatable(obb.new2(0, 0, 1, 1)))
    local ok1, t2 = pcall(obb.type, f)
    local ok2 = pcall(obb.obb2.intersects, f, obb.new2(0, 0, 1, 1))
    debug.setmetatable(f, debug.getmetatable(obb.new3(0, 0, 0, 1, 1, 1)))
    local ok3, t3 = pcall(obb.type, f)
    local ok4 = pcall(obb.obb3.center, f)
    debug.setmetatable(f, mt)
    f:close()
    assert.is_true(ok1)
    assert.is_nil(t2)
    assert.is_false(ok2)
    assert.is_true(ok3)
    assert.is_nil(t3)
    assert.is_false(ok4)
    -- a 2D box given the 3D metatable is not read as a 3D box either
    local b = obb.new2(0, 0, 1, 1)
    local m2 = debug.getmetatable(b)
    debug.setmetatable(b, debug.getmetatable(obb.new3(0, 0, 0, 1, 1, 1)))
    local t = obb.type(b)
    local ok5 = pcall(obb.obb3.half_extents, b)
    local ok6 = pcall(function() return b:half_extents() end)
    debug.setmetatable(b, m2)
    assert.are_not.equal("obb3", t)
    assert.is_false(ok5)
    assert.is_false(ok6)
    H.assert_near_list(pack(b:half_extents()), { 1, 1 }, 0)
  end)
end)

describe("2D construction", function()
  it("new2 stores center, half extents and angle", function()
    local b = obb.new2(1, -2, 3, 4, 0.5)
    H.assert_near_list(pack(b:center()), { 1, -2 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 3, 4 }, 0)
    -- the axes are cos and sin of the angle to within an ulp (obb_sincos,
    -- faithfully rounded), axis 1 exactly perp(axis 0)
    local ux, uy, vx, vy = b:axes()
    assert.is_true(H.within_ulp(ux, math.cos(0.5)) and H.within_ulp(uy, math.sin(0.5)))
    assert.is_true(vx == -uy and vy == ux)
    assert.are.equal(0.5, b:angle())
    assert.are.equal(0, obb.new2(0, 0, 1, 1):angle())
    assert.are.equal(0, obb.new2(0, 0, 1, 1, nil):angle())
  end)

  it("accepts zero half extents", function()
    H.assert_near_list(pack(obb.new2(0, 0, 0, 0):half_extents()), { 0, 0 }, 0)
    H.assert_near_list(pack(obb.new2(0, 0, -0.0, 1):half_extents()), { 0, 1 }, 0)
  end)

  it("from_aabb2 spans the two corners", function()
    local b = obb.from_aabb2(-1, 2, 5, 3)
    H.assert_near_list(pack(b:center()), { 2, 2.5 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 3, 0.5 }, 0)
    H.assert_near_list(pack(b:aabb()), { -1, 2, 5, 3 }, 0)
    assert.are.equal(0, b:angle())
    -- a point box, and an aabb whose rounded center still reaches both ends
    H.assert_near_list(pack(obb.from_aabb2(1, 1, 1, 1):half_extents()), { 0, 0 }, 0)
    local big = obb.from_aabb2(-1e308, 0.1, 1e308, 0.3)
    assert.is_true(big:contains(-1e308, 0.1) and big:contains(1e308, 0.3))
    local odd = obb.from_aabb2(0.1, 0.2, 0.7, 1e16 + 2)
    assert.is_true(odd:contains(0.1, 0.2) and odd:contains(0.7, 1e16 + 2))
  end)

  it("from_axes2 takes a unit axis, renormalising it within 1e-6", function()
    local b = obb.from_axes2(1, 2, 3, 4, 0, 1)
    H.assert_near_list(pack(b:axes()), { 0, 1, -1, 0 }, 0)
    assert.are.equal(PI / 2, b:angle())
    local c = obb.from_axes2(0, 0, 1, 1, 0.6 * (1 + 5e-7), 0.8 * (1 + 5e-7))
    local ux, uy = c:axes()
    assert.is_true(H.near(ux * ux + uy * uy, 1, 1e-15))
    assert.is_true(H.near(ux, 0.6, 1e-15) and H.near(uy, 0.8, 1e-15))
    -- a turned box from its axis is the box new2 gives
    H.assert_same_set(obb.from_axes2(1, 2, 3, 4, math.cos(1), math.sin(1)),
      H.desc2(1, 2, 3, 4, 1), 1e-15)
  end)
end)

describe("3D construction", function()
  it("new3 stores center, half extents and rotation (identity by default)", function()
    local b = obb.new3(1, 2, 3, 4, 5, 6)
    H.assert_near_list(pack(b:center()), { 1, 2, 3 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 4, 5, 6 }, 0)
    H.assert_near_list(pack(b:axes()), { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, 0)
    H.assert_near_list(pack(b:rotation()), { 0, 0, 0, 1 }, 0)
    local q = { 0.1, -0.2, 0.3, 0.9 }
    local n = math.sqrt(H.dot(q, q))
    local c = obb.new3(0, 0, 0, 1, 1, 1, H.unpack(q))
    H.assert_near_list(pack(c:rotation()), { q[1] / n, q[2] / n, q[3] / n, q[4] / n },
      1e-15)
    local u = H.quat_axes(q[1] / n, q[2] / n, q[3] / n, q[4] / n)
    H.assert_near_list(pack(c:axes()), { u[1][1], u[1][2], u[1][3], u[2][1],
      u[2][2], u[2][3], u[3][1], u[3][2], u[3][3] }, 1e-15)
  end)

  it("from_aabb3 spans the two corners", function()
    local b = obb.from_aabb3(-1, 0, 1, 3, 2, 1)
    H.assert_near_list(pack(b:center()), { 1, 1, 1 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 2, 1, 0 }, 0)
    H.assert_near_list(pack(b:aabb()), { -1, 0, 1, 3, 2, 1 }, 0)
    H.assert_near_list(pack(b:rotation()), { 0, 0, 0, 1 }, 0)
  end)

  it("from_axes3 takes three orthonormal axes, renormalised within 1e-6", function()
    local b = obb.from_axes3(1, 2, 3, 4, 5, 6, 0, 1, 0, -1, 0, 0, 0, 0, 1)
    H.assert_near_list(pack(b:axes()), { 0, 1, 0, -1, 0, 0, 0, 0, 1 }, 0)
    H.assert_near_list(pack(b:rotation()), { 0, 0, S2, S2 }, 1e-15)
    -- slightly off axes come back orthonormal
    local d = 4e-7
    local c = obb.from_axes3(0, 0, 0, 1, 1, 1, 1 + d, d, 0, -d, 1, d, 0, 0, 1 - d)
    local a = pack(c:axes())
    local u = { { a[1], a[2], a[3] }, { a[4], a[5], a[6] }, { a[7], a[8], a[9] } }
    for i = 1, 3 do
      for j = 1, 3 do
        assert.is_true(H.near(H.dot(u[i], u[j]), i == j and 1 or 0, 1e-15))
      end
      assert.is_true(H.near(u[i][i], 1, 1e-5))
    end
  end)

  it("from_axes3 turns a left-handed set into the same box, right-handed", function()
    local b = obb.from_axes3(0, 0, 0, 1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, -1)
    H.assert_near_list(pack(b:axes()), { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, 0)
    H.assert_near_list(pack(b:half_extents()), { 1, 2, 3 }, 0)
  end)
end)

describe("accessors and in-place setters", function()
  it("2D setters change the box in place and return it", function()
    local b = obb.new2(0, 0, 1, 1)
    assert.are.equal(b, b:set(1, 2, 3, 4, 0.5))
    assert.are.equal(obb.new2(1, 2, 3, 4, 0.5), b)
    assert.are.equal(b, b:set(5, 6, 7, 8)) -- angle kept
    assert.are.equal(obb.new2(5, 6, 7, 8, 0.5), b)
    assert.are.equal(b, b:set_center(-1, -2))
    H.assert_near_list(pack(b:center()), { -1, -2 }, 0)
    assert.are.equal(b, b:set_half_extents(0, 9))
    H.assert_near_list(pack(b:half_extents()), { 0, 9 }, 0)
    assert.are.equal(b, b:set_angle(-1))
    assert.are.equal(-1, b:angle())
    assert.are.equal(b, b:translate(1, 2))
    H.assert_near_list(pack(b:center()), { 0, 0 }, 0)
  end)

  it("2D rotate turns counter-clockwise about the center, without drift", function()
    local b = obb.new2(3, 4, 2, 1, 0.25)
    assert.are.equal(b, b:rotate(0.5))
    assert.is_true(H.near(b:angle(), 0.75, 1e-15))
    H.assert_near_list(pack(b:center()), { 3, 4 }, 0)
    for _ = 1, 10000 do b:rotate(PI / 5000) end -- a full turn in small steps
    assert.is_true(H.near(b:angle(), 0.75, 1e-10))
    local ux, uy = b:axes()
    assert.is_true(H.near(ux * ux + uy * uy, 1, 1e-15))
  end)

  it("3D setters change the box in place and return it", function()
    local b = obb.new3(0, 0, 0, 1, 1, 1)
    assert.are.equal(b, b:set(1, 2, 3, 4, 5, 6, 0, 0, S2, S2))
    assert.are.equal(obb.new3(1, 2, 3, 4, 5, 6, 0, 0, S2, S2), b)
    assert.are.equal(b, b:set(7, 8, 9, 1, 2, 3)) -- rotation kept
    assert.are.equal(obb.new3(7, 8, 9, 1, 2, 3, 0, 0, S2, S2), b)
    assert.are.equal(b, b:set_center(-1, -2, -3))
    H.assert_near_list(pack(b:center()), { -1, -2, -3 }, 0)
    assert.are.equal(b, b:set_half_extents(0, 0, 9))
    H.assert_near_list(pack(b:half_extents()), { 0, 0, 9 }, 0)
    assert.are.equal(b, b:set_rotation(0, 0, 0, 2))
    H.assert_near_list(pack(b:rotation()), { 0, 0, 0, 1 }, 0)
    assert.are.equal(b, b:translate(1, 2, 3))
    H.assert_near_list(pack(b:center()), { 0, 0, 0 }, 0)
  end)

  it("3D rotate applies a world-space turn after the box's own", function()
    local q1 = H.quat_axis_angle(1, 0, 0, 0.7)
    local q2 = H.quat_axis_angle(0, 0, 1, 0.4)
    local b = obb.new3(1, 2, 3, 1, 2, 3, H.unpack(q1))
    assert.are.equal(b, b:rotate(H.unpack(q2)))
    local want = H.quat_mul(q2, q1)
    local got = pack(b:rotation())
    local s = H.dot(got, want) < 0 and -1 or 1
    H.assert_near_list(got, { s * want[1], s * want[2], s * want[3], s * want[4] },
      1e-14, "rotation")
    H.assert_near_list(pack(b:center()), { 1, 2, 3 }, 0)
    -- many small turns stay orthonormal
    local step = H.quat_axis_angle(0.6, 0.8, 0, 2 * PI / 1000)
    for _ = 1, 1000 do b:rotate(H.unpack(step)) end
    got = pack(b:rotation())
    s = H.dot(got, want) < 0 and -1 or 1
    H.assert_near_list(got, { s * want[1], s * want[2], s * want[3], s * want[4] },
      1e-10, "after a full turn")
  end)

  it("clone gives an equal, independent box", function()
    local a = obb.new2(1, 2, 3, 4, 0.5)
    local b = a:clone()
    assert.are.equal(a, b)
    assert.are_not.equal(tostring(a):match("0x%x+") or 1, 0)
    b:translate(1, 0)
    assert.are_not.equal(a, b)
    H.assert_near_list(pack(a:center()), { 1, 2 }, 0)
    local c = obb.new3(1, 2, 3, 4, 5, 6, 0.1, 0.2, 0.3, 0.9)
    local d = c:clone()
    assert.are.equal(c, d)
    d:set_half_extents(1, 1, 1)
    assert.are_not.equal(c, d)
    assert.are.equal(obb.type(d), "obb3")
  end)
end)

describe("__eq and __tostring", function()
  it("compares boxes by value", function()
    assert.is_true(obb.new2(1, 2, 3, 4, 0.5) == obb.new2(1, 2, 3, 4, 0.5))
    assert.is_false(obb.new2(1, 2, 3, 4, 0.5) == obb.new2(1, 2, 3, 4, 0.6))
    assert.is_false(obb.new2(1, 2, 3, 4) == obb.new2(1, 2, 4, 3))
    assert.is_false(obb.new2(1, 2, 3, 4) == obb.new2(1, 2.5, 3, 4))
    assert.is_true(obb.new3(1, 2, 3, 4, 5, 6) == obb.from_aabb3(-3, -3, -3, 5, 7, 9))
    assert.is_false(obb.new3(1, 2, 3, 4, 5, 6) == obb.new3(1, 2, 3, 4, 5, 7))
    assert.is_false(obb.new3(1, 2, 3, 4, 5, 6) == obb.new3(1, 2, 3, 4, 5, 6, 0, 0, 1, 0))
    -- a 2D box never equals a 3D box, nor a non-box
    assert.is_false(obb.new2(0, 0, 1, 1) == obb.new3(0, 0, 0, 1, 1, 1))
    assert.is_false(obb.new2(0, 0, 1, 1) == 1)
    assert.is_true(obb.new2(0, 0, 1, 1) ~= obb.new3(0, 0, 0, 1, 1, 1))
  end)

  it("prints center, half extents and angle or quaternion", function()
    local s = tostring(obb.new2(1, 2, 3, 4, 0.5))
    assert.is_truthy(s:match("^obb2%("), s)
    local nums = {}
    for x in s:gmatch("[-%d.e+]+") do nums[#nums + 1] = tonumber(x) end
    table.remove(nums, 1) -- the 2 of obb2
    H.assert_near_list(nums, { 1, 2, 3, 4, 0.5 }, 1e-12, "tostring")
    s = tostring(obb.new3(1, 2, 3, 4, 5, 6, 0, 0, S2, S2))
    assert.is_truthy(s:match("^obb3%("), s)
    nums = {}
    for x in s:gmatch("[-%d.e+]+") do nums[#nums + 1] = tonumber(x) end
    table.remove(nums, 1)
    H.assert_near_list(nums, { 1, 2, 3, 4, 5, 6, 0, 0, S2, S2 }, 1e-12, "tostring")
  end)
end)

for _, method in ipairs({ "default", "tight", "covariance" }) do
  local opt = method ~= "default" and method or nil
  describe("fitting to points (" .. method .. " method)", function()
    local function check_fit2(pts, what)
      local b = obb.fit2(pts, opt)
      assert.are.equal("obb2", obb.type(b))
      local flat = type(pts[1]) == "table"
      local n = flat and #pts or #pts / 2
      for i = 1, n do
        local x, y
        if flat then x, y = pts[i][1], pts[i][2] else x, y = pts[2 * i - 1], pts[2 * i] end
        assert.is_true(b:contains(x, y), (what or "") .. " point " .. i)
      end
      local hx, hy = b:half_extents()
      assert.is_true(hx >= 0 and hy >= 0)
      local ux, uy = b:axes()
      assert.is_true(H.near(ux * ux + uy * uy, 1, 1e-12), (what or "") .. ": axis not unit")
      return b
    end

    local function check_fit3(pts, what)
      local b = obb.fit3(pts, opt)
      assert.are.equal("obb3", obb.type(b))
      -- a valid box: orthonormal axes, extents >= 0 (garbage axes could
      -- "contain" every point)
      local a = pack(b:axes())
      for i = 0, 2 do
        for j = 0, 2 do
          local d = a[3 * i + 1] * a[3 * j + 1] + a[3 * i + 2] * a[3 * j + 2] +
            a[3 * i + 3] * a[3 * j + 3]
          assert.is_true(H.near(d, i == j and 1 or 0, 1e-12),
            (what or "") .. ": axes not orthonormal")
        end
      end
      local e = pack(b:half_extents())
      assert.is_true(e[1] >= 0 and e[2] >= 0 and e[3] >= 0)
      local nested = type(pts[1]) == "table"
      local n = nested and #pts or #pts / 3
      for i = 1, n do
        local p = nested and pts[i] or { pts[3 * i - 2], pts[3 * i - 1], pts[3 * i] }
        assert.is_true(b:contains(p[1], p[2], p[3]), (what or "") .. " point " .. i)
      end
      return b
    end

    it("fit2 takes flat and nested point lists alike", function()
      local a = check_fit2({ 0, 0, 4, 1, 3, 3, -1, 2 })
      local b = check_fit2({ { 0, 0 }, { 4, 1 }, { 3, 3 }, { -1, 2 } })
      assert.are.equal(a, b)
    end)

    it("fit2 finds the axes of a turned rectangle's points", function()
      local d = H.desc2(5, -3, 4, 1, 0.6)
      local pts = {}
      for _, p in ipairs(H.corners(d)) do pts[#pts + 1] = p end
      -- points spread over the rectangle so the covariance sees its shape
      for k = -4, 4 do pts[#pts + 1] = { 5 + k * math.cos(0.6), -3 + k * math.sin(0.6) } end
      local b = check_fit2(pts)
      local hx, hy = b:half_extents()
      assert.is_true(H.near(math.max(hx, hy), 4, 1e-9) and H.near(math.min(hx, hy), 1, 1e-9))
      H.assert_near_list(pack(b:center()), { 5, -3 }, 1e-9)
    end)

    it("fit2 handles one point, duplicates and collinear points", function()
      local b = check_fit2({ 3, 4 })
      H.assert_near_list(pack(b:center()), { 3, 4 }, 0)
      H.assert_near_list(pack(b:half_extents()), { 0, 0 }, 0)
      b = check_fit2({ 1, 1, 1, 1, 1, 1 })
      H.assert_near_list(pack(b:half_extents()), { 0, 0 }, 0)
      b = check_fit2({ 0, 0, 1, 1, 2, 2, 5, 5, 5, 5 }, "diagonal")
      local hx, hy = b:half_extents()
      assert.is_true(H.near(math.max(hx, hy), 2.5 * math.sqrt(2), 1e-12))
      assert.is_true(math.min(hx, hy) <= 1e-14)
      check_fit2({ 0, 0, 0, 1, 0, -7 }, "vertical")
      check_fit2({ 1, 2, 1, 2, 3, 2 }, "horizontal with a duplicate")
      check_fit2({ 1e7, 1e7, 1e7 + 1, 1e7 + 1e-3, 1e7 - 2, 1e7 }, "offset 1e7")
      check_fit2({ 1e-300, 0, 0, 1e-300 }, "tiny")
      check_fit2({ 1e300, 0, -1e300, 0, 0, 1e300 }, "huge")
      for _, s in ipairs({ 1e-300, 1e-150, 1e150, 1e200, 1e300 }) do
        check_fit2({ s, s, -s, -s }, "collinear at scale " .. s)
        check_fit2({ s, s, -s, -s, s, 0 }, "triangle at scale " .. s)
      end
    end)

    it("fit2 encloses random clouds", function()
      local r = H.rng(21)
      for i = 1, 100 do
        local pts = {}
        local n = r.int(1, 40)
        local sx, sy, a = r.range(0, 10), r.range(0, 1), r.range(-PI, PI)
        for _ = 1, n do
          local x, y = sx * r.normal(), sy * r.normal()
          pts[#pts + 1] = x * math.cos(a) - y * math.sin(a) + 100
          pts[#pts + 1] = x * math.sin(a) + y * math.cos(a) - 50
        end
        check_fit2(pts, "cloud " .. i)
      end
    end)

    it("fit3 takes flat and nested point lists alike", function()
      local a = check_fit3({ 0, 0, 0, 4, 1, 0, 3, 3, 1, -1, 2, 5 })
      local b = check_fit3({ { 0, 0, 0 }, { 4, 1, 0 }, { 3, 3, 1 }, { -1, 2, 5 } })
      assert.are.equal(a, b)
    end)

    it("fit3 finds the box of a turned box's corners", function()
      local d = H.desc3({ 1, 2, 3 }, { 4, 2, 1 }, { 0.1, 0.2, 0.3, 0.9 })
      local b = check_fit3(H.corners(d))
      local e = pack(b:half_extents())
      table.sort(e)
      H.assert_near_list(e, { 1, 2, 4 }, 1e-9)
      H.assert_near_list(pack(b:center()), { 1, 2, 3 }, 1e-9)
    end)

    it("fit3 handles one point, duplicates, collinear and coplanar points", function()
      local b = check_fit3({ 3, 4, 5 })
      H.assert_near_list(pack(b:center()), { 3, 4, 5 }, 0)
      H.assert_near_list(pack(b:half_extents()), { 0, 0, 0 }, 0)
      check_fit3({ 1, 1, 1, 1, 1, 1 }, "duplicates")
      b = check_fit3({ 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2 }, "collinear")
      local e = pack(b:half_extents())
      table.sort(e)
      assert.is_true(e[2] <= 1e-14 and H.near(e[3], math.sqrt(3), 1e-12))
      b = check_fit3({ 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0 }, "coplanar")
      e = pack(b:half_extents())
      table.sort(e)
      assert.is_true(e[1] <= 1e-14)
      check_fit3({ 0, 0, 5, 3, 0, 5, 0, 0, 5, 0, 7, 5 }, "coplanar, axis-aligned")
      check_fit3({ 0, 0, 0, 1, 2, 3, -1, -2, -3 }, "collinear through the mean")
      check_fit3({ 1e7, 0, 0, 1e7 + 1, 1, 0, 1e7, 1, 1 }, "offset 1e7")
      for _, s in ipairs({ 1e-300, 1e-150, 1e100 }) do
        check_fit3({ s, s, s, -s, -s, -s }, "collinear at scale " .. s)
        check_fit3({ s, 0, 0, 0, s, 0, -s, -s, 0 }, "coplanar at scale " .. s)
        check_fit3({ s, s, s, -s, -s, -s, s, 0, 0, 0, s, -s }, "cloud at scale " .. s)
      end
    end)

    it("fit3 handles huge collinear, coplanar and spread points", function()
      for _, s in ipairs({ 1e103, 1e150, 1e200, 1e300 }) do
        check_fit3({ s, s, s, -s, -s, -s }, "collinear at scale " .. s)
        check_fit3({ s, 0, 0, 0, s, 0, -s, -s, 0 }, "coplanar at scale " .. s)
        check_fit3({ s, s, s, -s, -s, -s, s, 0, 0, 0, s, -s }, "cloud at scale " .. s)
      end
    end)

    it("fit3 encloses random clouds", function()
      local r = H.rng(22)
      for i = 1, 100 do
        local pts = {}
        local q = { r.quat() }
        local u = H.quat_axes(H.unpack(q))
        local s = { r.range(0, 10), r.range(0, 1), i % 4 == 0 and 0 or r.range(0, 0.1) }
        for _ = 1, r.int(1, 40) do
          local l = { s[1] * r.normal(), s[2] * r.normal(), s[3] * r.normal() }
          local p = {}
          for k = 1, 3 do p[k] = l[1] * u[1][k] + l[2] * u[2][k] + l[3] * u[3][k] + 10 end
          pts[#pts + 1] = p
        end
        check_fit3(pts, "cloud " .. i)
      end
    end)
  end)
end

describe("queries", function()
  it("allocate nothing", function()
    local a2, b2 = obb.new2(0, 0, 1, 2, 0.3), obb.new2(1, 1, 1, 1, -0.2)
    local a3 = obb.new3(0, 0, 0, 1, 2, 3, 0.1, 0.2, 0.3, 0.9)
    local b3 = obb.new3(1, 1, 1, 1, 1, 1)
    local function run()
      for _ = 1, 2000 do
        a2:intersects(b2); a2:contains(0.5, 0.5); a2:contains(b2)
        a2:corners(); a2:aabb(); a2:center(); a2:half_extents(); a2:axes()
        a2:angle()
        a3:intersects(b3); a3:contains(0.5, 0.5, 0.5); a3:contains(b3)
        a3:corners(); a3:aabb(); a3:center(); a3:half_extents(); a3:axes()
        a3:rotation()
        a2:set_center(0, 0); a2:translate(0, 0); a2:set_angle(0.3)
        a3:set_center(0, 0, 0); a3:translate(0, 0, 0)
        a3:set_rotation(0.1, 0.2, 0.3, 0.9)
      end
    end
    assert.are.equal(0, H.kib_allocated_by(run))
  end)
end)
