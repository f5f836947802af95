-- The rules every box function follows (docs/reference.md, "Conventions"): one rule
-- for extra arguments, protected metatables, and type errors that read a
-- value's __name only when it is a string.
local H = require "helpers"
local obb = require "obb"

local b2 = obb.new2(0, 0, 1, 1, 0.3)
local o2 = obb.new2(0.5, 0, 1, 1)
local b3 = obb.new3(0, 0, 0, 1, 1, 1)
local o3 = obb.new3(0.5, 0, 0, 1, 1, 1)

-- Each method with a complete, valid argument list (self first).
local calls2 = {
  { "intersects", b2, o2 }, { "contains", b2, 0, 0 }, { "contains", b2, o2 },
  { "transform", b2:clone(), 1, 0, 0, 1, 0, 0 }, { "corners", b2 },
  { "aabb", b2 }, { "center", b2 }, { "half_extents", b2 }, { "axes", b2 },
  { "angle", b2 }, { "set", b2:clone(), 0, 0, 1, 1, 0 },
  { "set_center", b2:clone(), 1, 2 }, { "set_half_extents", b2:clone(), 1, 2 },
  { "set_angle", b2:clone(), 1 }, { "translate", b2:clone(), 1, 2 },
  { "rotate", b2:clone(), 1 }, { "clone", b2 },
  { "raycast", b2, -5, 0, 1, 0, 10 }, { "closest_point", b2, 3, 3 },
  { "distance", b2, 3, 3 }, { "distance", b2, o2 },
  { "signed_distance", b2, 3, 3 }, { "classify", b2, o2 },
  { "intersects_circle", b2, 2, 0, 1 }, { "intersects_segment", b2, -3, 0, 3, 0 },
  { "merge", b2, o2 }, { "penetration", b2, o2 }, { "overlaps", b2, o2 }, { "contacts", b2, o2, {} },
  { "sweep", b2, o2, 1, 0, 0, 0 },
}
local calls3 = {
  { "intersects", b3, o3 }, { "contains", b3, 0, 0, 0 }, { "contains", b3, o3 },
  { "transform", b3:clone(), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 },
  { "corners", b3 }, { "aabb", b3 }, { "center", b3 }, { "half_extents", b3 },
  { "axes", b3 }, { "rotation", b3 },
  { "set", b3:clone(), 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 },
  { "set_center", b3:clone(), 1, 2, 3 }, { "set_half_extents", b3:clone(), 1, 2, 3 },
  { "set_rotation", b3:clone(), 0, 0, 0, 1 }, { "translate", b3:clone(), 1, 2, 3 },
  { "rotate", b3:clone(), 0, 0, 0, 1 }, { "clone", b3 },
  { "raycast", b3, -5, 0, 0, 1, 0, 0, 10 }, { "closest_point", b3, 3, 3, 3 },
  { "distance", b3, 3, 3, 3 }, { "distance", b3, o3 },
  { "signed_distance", b3, 3, 3, 3 }, { "classify", b3, o3 },
  { "intersects_sphere", b3, 2, 0, 0, 1 },
  { "intersects_segment", b3, -3, 0, 0, 3, 0, 0 }, { "plane_side", b3, 0, 0, 1, 5 },
  { "merge", b3, o3 }, { "penetration", b3, o3 }, { "overlaps", b3, o3 }, { "contacts", b3, o3, {} },
  { "sweep", b3, o3, 1, 0, 0, 0, 0, 0 },
}
local ctors = {
  { "new2", 0, 0, 1, 1, 0 }, { "from_aabb2", 0, 0, 1, 1 },
  { "from_axes2", 0, 0, 1, 1, 1, 0 }, { "fit2", { 0, 0, 1, 1 }, "tight" },
  { "new3", 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 }, { "from_aabb3", 0, 0, 0, 1, 1, 1 },
  { "from_axes3", 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1 },
  { "fit3", { 0, 0, 0, 1, 1, 1 }, "covariance" }, { "merge", b2, o2 },
}

describe("extra arguments", function()
  local function check(f, name, args)
    local n = #args
    assert(pcall(f, H.unpack(args, 1, n)), name .. " with its own arguments")
    local extended = { H.unpack(args, 1, n) }
    extended[n + 1] = 7
    H.assert_argerror(n + 1, nil, "no value expected, got number",
      f, H.unpack(extended, 1, n + 1))
    -- trailing nils are no arguments (a wrapper of fixed arity passes
    -- them), and give the same answers; a value after them is still one
    local plain = H.pack(pcall(f, H.unpack(args, 1, n)))
    local nils = H.pack(pcall(f, H.unpack(args, 1, n + 2))) -- args[n + 1], args[n + 2] are nil
    assert.is_true(nils[1], name .. " with trailing nils: " .. tostring(nils[2]))
    assert.are.same(plain, nils, name)
    extended[n + 1], extended[n + 2] = nil, 7
    local ok, err = pcall(f, H.unpack(extended, 1, n + 2))
    assert.is_false(ok, name .. " with a value after a nil")
    local k = tonumber(tostring(err):match("bad argument #(%d+)"))
    assert.is_true(k ~= nil and k > n, name .. ": " .. tostring(err))
  end

  it("every 2D method raises on one, naming it", function()
    for _, c in ipairs(calls2) do check(obb.obb2[c[1]], c[1], { H.unpack(c, 2) }) end
  end)

  it("every 3D method raises on one, naming it", function()
    for _, c in ipairs(calls3) do check(obb.obb3[c[1]], c[1], { H.unpack(c, 2) }) end
  end)

  it("every constructor raises on one, naming it", function()
    for _, c in ipairs(ctors) do check(obb[c[1]], c[1], { H.unpack(c, 2) }) end
  end)

  it("a failed call with an extra argument leaves the box as it was", function()
    local b = obb.new2(1, 2, 3, 4, 0.5)
    local before = { b:center() }
    assert.is_false(pcall(b.translate, b, 1, 1, 1))
    assert.is_false(pcall(b.set_center, b, 5, 5, 5))
    assert.same(before, { b:center() })
  end)
end)

describe("metatables", function()
  it("getmetatable gives a box's method table, not its metatable", function()
    assert.equal(obb.obb2, getmetatable(b2))
    assert.equal(obb.obb3, getmetatable(b3))
    assert.is_nil(getmetatable(b2).__index)
    assert.is_nil(getmetatable(b2).__eq)
  end)

  it("a script cannot strip the metamethods of every box", function()
    local mt = getmetatable(b2)
    mt.__index = nil -- writes into the method table: harmless
    mt.__eq = nil
    mt.__tostring = nil
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(0, 0, 1, 1)
    assert.is_true(a == b)
    assert.equal("function", type(a.intersects))
    assert.truthy(tostring(a):find("^obb2%("))
    assert.equal("obb2", obb.type(a))
  end)

  it("methods added to obb.obb2 reach every box", function()
    obb.obb2.area_for_spec = function(b)
      local hx, hy = b:half_extents()
      return 4 * hx * hy
    end
    assert.equal(8, obb.new2(0, 0, 1, 2):area_for_spec())
    obb.obb2.area_for_spec = nil
  end)

  it("the real metatable still names the type", function()
    assert.equal("obb.obb2", debug.getmetatable(b2).__name)
    assert.equal("obb.obb3", debug.getmetatable(b3).__name)
  end)
end)

describe("type errors", function()
  it("ignore a __name that is not a string", function()
    for _, name in ipairs({ 12345, 1.5, true, {} }) do
      local v = setmetatable({}, { __name = name })
      H.assert_argerror(1, nil, "obb.obb2 expected, got table", obb.obb2.center, v)
      H.assert_argerror(2, nil, "obb.obb3 expected, got table", b3.intersects, b3, v)
    end
  end)

  it("use a string __name", function()
    local v = setmetatable({}, { __name = "my.thing" })
    H.assert_argerror(1, nil, "obb.obb2 expected, got my.thing", obb.obb2.center, v)
  end)

  it("survive many number __names while memory is tight", function()
    -- the converted name used to be popped before it was formatted: with
    -- the collector running all the time that freed it first (ASan)
    collectgarbage("setpause", 0)
    for i = 1, 2000 do
      local v = setmetatable({}, { __name = i + 0.5 })
      local ok, msg = pcall(obb.obb2.center, v)
      assert.is_false(ok)
      assert.truthy(msg:find("got table", 1, true))
    end
    collectgarbage("setpause", 200)
  end)
end)

describe("points given to a fit", function()
  it("raise when their spread overflows, whatever the method", function()
    for _, method in ipairs({ "tight", "covariance" }) do
      H.assert_argerror(1, nil, "number is NaN or infinite",
        obb.fit2, { { -1e308, 0 }, { 1e308, 1 }, { 0, 5 } }, method)
      H.assert_argerror(1, nil, "number is NaN or infinite",
        obb.fit3, { { 0, -1e308, 0 }, { 1, 1e308, 0 }, { 0, 5, 1 } }, method)
      assert.equal("obb2", obb.type(obb.fit2({ { -1e307, 0 }, { 1e307, 1 } }, method)))
    end
  end)

  it("must have exactly the fit's dimension", function()
    H.assert_argerror(1, nil, "point 1 is not 2 finite numbers",
      obb.fit2, { { 0, 0, 5 }, { 1, 1, 5 } })
    H.assert_argerror(1, nil, "point 2 is not 3 finite numbers",
      obb.fit3, { { 0, 0, 0 }, { 1, 1 } })
    H.assert_argerror(1, nil, "point 1 is not 2 finite numbers",
      obb.fit2, { { 0 }, { 1, 1 } }, "covariance")
  end)
end)
