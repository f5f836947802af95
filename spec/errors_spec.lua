-- Every error the module raises, with its exact text, and a check that a
-- failed call leaves the box it was called on unchanged.
--
-- Each case is { description, argn, fname, text, call } where call(b2, b3)
-- makes the failing call (b2 and b3 are a fresh 2D and 3D box). Method
-- calls use method syntax, so Lua numbers the arguments after self ("bad
-- argument #1 to 'intersects'" is the first argument after the box).
local obb = require "obb"
local H = require "spec.helpers"

local NAN, INF = 0 / 0, 1 / 0

local function run_cases(cases)
  for _, c in ipairs(cases) do
    local desc, argn, fname, text, call = c[1], c[2], c[3], c[4], c[5]
    it(desc, function()
      local b2 = obb.new2(1, 2, 3, 4, 0.5)
      local b3 = obb.new3(1, 2, 3, 4, 5, 6, 0.1, 0.2, 0.3, 0.9)
      local s2, s3 = H.state(b2), H.state(b3)
      H.assert_argerror(argn, fname, text, call, b2, b3)
      -- a failed call never half-updates a box
      H.assert_same_state(s2, H.state(b2), "2D box")
      H.assert_same_state(s3, H.state(b3), "3D box")
    end)
  end
end

describe("obb.new2 errors", function()
  run_cases({
    { "rejects a missing argument", 2, "new2", "number expected, got no value",
      function() obb.new2(1) end },
    { "rejects no arguments", 1, "new2", "number expected, got no value",
      function() obb.new2() end },
    { "rejects nil", 1, "new2", "number expected, got nil",
      function() obb.new2(nil, 0, 1, 1) end },
    { "rejects a numeric string", 1, "new2", "number expected, got string",
      function() obb.new2("1", 0, 1, 1) end },
    { "rejects a table", 4, "new2", "number expected, got table",
      function() obb.new2(0, 0, 1, {}) end },
    { "rejects a boolean angle", 5, "new2", "number expected, got boolean",
      function() obb.new2(0, 0, 1, 1, true) end },
    { "rejects NaN", 2, "new2", "finite number expected, got nan",
      function() obb.new2(0, NAN, 1, 1) end },
    { "rejects infinity", 1, "new2", "finite number expected, got inf",
      function() obb.new2(INF, 0, 1, 1) end },
    { "rejects -infinity", 3, "new2", "finite number expected, got -inf",
      function() obb.new2(0, 0, -INF, 1) end },
    { "rejects a NaN angle", 5, "new2", "finite number expected, got nan",
      function() obb.new2(0, 0, 1, 1, NAN) end },
    { "rejects an infinite angle", 5, "new2", "finite number expected, got inf",
      function() obb.new2(0, 0, 1, 1, INF) end },
    { "rejects a negative half extent", 3, "new2",
      "half extent must be >= 0, got -1.0",
      function() obb.new2(0, 0, -1, 1) end },
    { "rejects a negative second half extent", 4, "new2",
      "half extent must be >= 0, got -0.5",
      function() obb.new2(0, 0, 1, -0.5) end },
    { "rejects an extra argument", 6, "new2", "no value expected, got number",
      function() obb.new2(0, 0, 1, 1, 0, 5) end },
  })
end)

describe("obb.from_aabb2 errors", function()
  run_cases({
    { "rejects a missing argument", 4, "from_aabb2", "number expected, got no value",
      function() obb.from_aabb2(0, 0, 1) end },
    { "rejects NaN", 3, "from_aabb2", "finite number expected, got nan",
      function() obb.from_aabb2(0, 0, NAN, 1) end },
    { "rejects max x below min x", 3, "from_aabb2", "max is less than min",
      function() obb.from_aabb2(1, 0, 0, 1) end },
    { "rejects max y below min y", 4, "from_aabb2", "max is less than min",
      function() obb.from_aabb2(0, 1, 1, 0) end },
    { "rejects an extra argument", 5, "from_aabb2", "no value expected, got number",
      function() obb.from_aabb2(0, 0, 1, 1, 0) end },
  })
end)

describe("obb.from_axes2 errors", function()
  run_cases({
    { "rejects a missing axis component", 6, "from_axes2",
      "number expected, got no value",
      function() obb.from_axes2(0, 0, 1, 1, 1) end },
    { "rejects a negative half extent", 4, "from_axes2",
      "half extent must be >= 0, got -2.0",
      function() obb.from_axes2(0, 0, 1, -2, 1, 0) end },
    { "rejects a NaN axis", 6, "from_axes2", "finite number expected, got nan",
      function() obb.from_axes2(0, 0, 1, 1, 1, NAN) end },
    { "rejects a zero axis", 5, "from_axes2", "zero-length axis or quaternion",
      function() obb.from_axes2(0, 0, 1, 1, 0, 0) end },
    { "rejects an axis far from unit length", 5, "from_axes2",
      "axes not orthonormal",
      function() obb.from_axes2(0, 0, 1, 1, 2, 0) end },
    { "rejects an axis just outside the 1e-6 tolerance", 5, "from_axes2",
      "axes not orthonormal",
      function() obb.from_axes2(0, 0, 1, 1, 0, 1 + 2e-6) end },
    { "rejects a huge axis", 5, "from_axes2", "axes not orthonormal",
      function() obb.from_axes2(0, 0, 1, 1, 1e308, 1e308) end },
    { "rejects an extra argument", 7, "from_axes2", "no value expected, got number",
      function() obb.from_axes2(0, 0, 1, 1, 1, 0, 0) end },
  })
end)

describe("obb.fit2 errors", function()
  run_cases({
    { "rejects a non-table", 1, "fit2", "table expected, got number",
      function() obb.fit2(5) end },
    { "rejects nothing", 1, "fit2", "table expected, got no value",
      function() obb.fit2() end },
    { "rejects an empty table", 1, "fit2",
      "flat array of 2 numbers per point expected, got 0 numbers",
      function() obb.fit2({}) end },
    { "rejects an odd count", 1, "fit2",
      "flat array of 2 numbers per point expected, got 3 numbers",
      function() obb.fit2({ 1, 2, 3 }) end },
    { "rejects a NaN coordinate", 1, "fit2", "point 2 is not 2 finite numbers",
      function() obb.fit2({ 1, 2, 3, NAN }) end },
    { "rejects a string coordinate", 1, "fit2", "point 1 is not 2 finite numbers",
      function() obb.fit2({ "1", 2 }) end },
    { "rejects a short nested point", 1, "fit2", "point 2 is not 2 finite numbers",
      function() obb.fit2({ { 1, 2 }, { 3 } }) end },
    { "rejects a non-table among nested points", 1, "fit2",
      "point 3 is not 2 finite numbers",
      function() obb.fit2({ { 1, 2 }, { 3, 4 }, 5 }) end },
    { "rejects an infinite nested coordinate", 1, "fit2",
      "point 1 is not 2 finite numbers",
      function() obb.fit2({ { INF, 2 } }) end },
    { "rejects an unknown method", 2, "fit2", "invalid option 'pca'",
      function() obb.fit2({ 1, 2 }, "pca") end },
    { "rejects a method that is not a string", 2, "fit2",
      "string expected, got table",
      function() obb.fit2({ 1, 2 }, {}) end },
    { "rejects a number for a method", 2, "fit2", "invalid option '1'",
      function() obb.fit2({ 1, 2 }, 1) end },
    { "rejects an extra argument", 3, "fit2", "no value expected, got number",
      function() obb.fit2({ 1, 2 }, "tight", 3) end },
    { "checks the points with the covariance method too", 1, "fit2",
      "point 1 is not 2 finite numbers",
      function() obb.fit2({ NAN, 2 }, "covariance") end },
  })
end)

describe("obb.new3 errors", function()
  run_cases({
    { "rejects a missing argument", 6, "new3", "number expected, got no value",
      function() obb.new3(0, 0, 0, 1, 1) end },
    { "rejects a string", 2, "new3", "number expected, got string",
      function() obb.new3(0, "0", 0, 1, 1, 1) end },
    { "rejects NaN", 3, "new3", "finite number expected, got nan",
      function() obb.new3(0, 0, NAN, 1, 1, 1) end },
    { "rejects a negative half extent", 6, "new3",
      "half extent must be >= 0, got -3.0",
      function() obb.new3(0, 0, 0, 1, 1, -3) end },
    { "rejects a zero quaternion", 7, "new3", "quaternion is zero",
      function() obb.new3(0, 0, 0, 1, 1, 1, 0, 0, 0, 0) end },
    { "rejects a partial quaternion", 10, "new3", "number expected, got no value",
      function() obb.new3(0, 0, 0, 1, 1, 1, 0, 0, 0) end },
    { "rejects a quaternion after a nil", 7, "new3", "number expected, got nil",
      function() obb.new3(0, 0, 0, 1, 1, 1, nil, 0, 0, 1) end },
    { "rejects a NaN quaternion", 8, "new3", "finite number expected, got nan",
      function() obb.new3(0, 0, 0, 1, 1, 1, 0, NAN, 0, 1) end },
    { "rejects an infinite quaternion", 10, "new3", "finite number expected, got inf",
      function() obb.new3(0, 0, 0, 1, 1, 1, 0, 0, 0, INF) end },
    { "rejects an extra argument", 11, "new3", "no value expected, got number",
      function() obb.new3(0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0) end },
  })
end)

describe("obb.from_aabb3 errors", function()
  run_cases({
    { "rejects a missing argument", 6, "from_aabb3", "number expected, got no value",
      function() obb.from_aabb3(0, 0, 0, 1, 1) end },
    { "rejects infinity", 4, "from_aabb3", "finite number expected, got inf",
      function() obb.from_aabb3(0, 0, 0, INF, 1, 1) end },
    { "rejects max x below min x", 4, "from_aabb3", "max is less than min",
      function() obb.from_aabb3(0, 0, 0, -1, 1, 1) end },
    { "rejects max y below min y", 5, "from_aabb3", "max is less than min",
      function() obb.from_aabb3(0, 0, 0, 1, -1, 1) end },
    { "rejects max z below min z", 6, "from_aabb3", "max is less than min",
      function() obb.from_aabb3(0, 0, 0, 1, 1, -1) end },
    { "rejects an extra argument", 7, "from_aabb3", "no value expected, got number",
      function() obb.from_aabb3(0, 0, 0, 1, 1, 1, 1) end },
  })
end)

describe("obb.from_axes3 errors", function()
  run_cases({
    { "rejects a missing argument", 15, "from_axes3", "number expected, got no value",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0) end },
    { "rejects a negative half extent", 5, "from_axes3",
      "half extent must be >= 0, got -1.0",
      function() obb.from_axes3(0, 0, 0, 1, -1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1) end },
    { "rejects a NaN axis component", 11, "from_axes3",
      "finite number expected, got nan",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, NAN, 0, 0, 0, 1) end },
    { "rejects a zero axis", 7, "from_axes3", "zero-length axis or quaternion",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0) end },
    { "rejects parallel axes", 7, "from_axes3", "axes not orthonormal",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0) end },
    { "rejects an axis far from unit length", 7, "from_axes3", "axes not orthonormal",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 2) end },
    { "rejects axes 1e-5 from orthogonal", 7, "from_axes3", "axes not orthonormal",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 1e-5, 1, 0, 0, 0, 1) end },
    { "rejects an extra argument", 16, "from_axes3", "no value expected, got number",
      function() obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0) end },
  })
end)

describe("obb.fit3 errors", function()
  run_cases({
    { "rejects a non-table", 1, "fit3", "table expected, got string",
      function() obb.fit3("points") end },
    { "rejects an empty table", 1, "fit3",
      "flat array of 3 numbers per point expected, got 0 numbers",
      function() obb.fit3({}) end },
    { "rejects a count not a multiple of 3", 1, "fit3",
      "flat array of 3 numbers per point expected, got 4 numbers",
      function() obb.fit3({ 1, 2, 3, 4 }) end },
    { "rejects a NaN coordinate", 1, "fit3", "point 2 is not 3 finite numbers",
      function() obb.fit3({ 1, 2, 3, 4, NAN, 6 }) end },
    { "rejects a 2D point among 3D ones", 1, "fit3", "point 2 is not 3 finite numbers",
      function() obb.fit3({ { 1, 2, 3 }, { 4, 5 } }) end },
    { "rejects an unknown method", 2, "fit3", "invalid option 'loose'",
      function() obb.fit3({ 1, 2, 3 }, "loose") end },
    { "rejects a boolean for a method", 2, "fit3", "string expected, got boolean",
      function() obb.fit3({ 1, 2, 3 }, true) end },
    { "rejects an extra argument", 3, "fit3", "no value expected, got table",
      function() obb.fit3({ 1, 2, 3 }, "covariance", {}) end },
    { "checks the points with the covariance method too", 1, "fit3",
      "flat array of 3 numbers per point expected, got 0 numbers",
      function() obb.fit3({}, "covariance") end },
  })
end)

describe("2D method errors", function()
  run_cases({
    { "intersects rejects a 3D box", 1, "intersects",
      "obb.obb2 expected, got obb.obb3",
      function(b2, b3) b2:intersects(b3) end },
    { "intersects rejects nothing", 1, "intersects", "obb.obb2 expected, got no value",
      function(b2) b2:intersects() end },
    { "intersects rejects a table", 1, "intersects", "obb.obb2 expected, got table",
      function(b2) b2:intersects({}) end },
    { "a method rejects a bad self", 1, "intersects",
      "obb.obb2 expected, got number",
      function(b2) obb.obb2.intersects(5, b2) end },
    { "contains rejects a string", 1, "contains", "number or obb.obb2 expected, got string",
      function(b2) b2:contains("1", 2) end },
    { "contains rejects a 3D box", 1, "contains",
      "number or obb.obb2 expected, got obb.obb3",
      function(b2, b3) b2:contains(b3) end },
    { "contains rejects nothing", 1, "contains",
      "number or obb.obb2 expected, got no value",
      function(b2) b2:contains() end },
    { "contains rejects a missing y", 2, "contains", "number expected, got no value",
      function(b2) b2:contains(1) end },
    { "contains rejects a z", 3, "contains", "no value expected, got number",
      function(b2) b2:contains(1, 2, 3) end },
    { "contains rejects NaN", 2, "contains", "finite number expected, got nan",
      function(b2) b2:contains(1, NAN) end },
    { "contains rejects an argument after a box", 2, "contains",
      "no value expected, got number",
      function(b2) b2:contains(b2, 1) end },
    { "transform rejects too few numbers", 4, "transform",
      "number expected, got no value",
      function(b2) b2:transform(1, 0, 0) end },
    { "transform rejects too many numbers", 7, "transform",
      "no value expected, got number",
      function(b2) b2:transform(1, 0, 0, 1, 0, 0, 0) end },
    { "transform rejects NaN", 4, "transform", "finite number expected, got nan",
      function(b2) b2:transform(1, 0, 0, NAN, 0, 0) end },
    { "transform rejects a short table", 1, "transform",
      "table of 6 numbers expected, got 5",
      function(b2) b2:transform({ 1, 0, 0, 1, 0 }) end },
    { "transform rejects a bad table entry", 1, "transform",
      "matrix entry 3 is not a finite number",
      function(b2) b2:transform({ 1, 0, INF, 1, 0, 0 }) end },
    { "transform rejects a string table entry", 1, "transform",
      "matrix entry 1 is not a finite number",
      function(b2) b2:transform({ "1", 0, 0, 1, 0, 0 }) end },
    { "transform rejects an argument after the table", 2, "transform",
      "no value expected, got number",
      function(b2) b2:transform({ 1, 0, 0, 1, 0, 0 }, 1) end },
    { "transform rejects an overflowing result", nil, nil,
      "transform result is not finite",
      function(b2) b2:transform(1e308, 0, 0, 1e308, 0, 0) end },
    { "corners rejects a bad self", 1, "corners", "obb.obb2 expected, got obb.obb3",
      function(_, b3) obb.obb2.corners(b3) end },
    { "aabb rejects a bad self", 1, "aabb", "obb.obb2 expected, got nil",
      function() obb.obb2.aabb(nil) end },
    { "center rejects a bad self", 1, "center", "obb.obb2 expected, got table",
      function() obb.obb2.center({}) end },
    { "half_extents rejects a bad self", 1, "half_extents",
      "obb.obb2 expected, got no value",
      function() obb.obb2.half_extents() end },
    { "axes rejects a bad self", 1, "axes", "obb.obb2 expected, got string",
      function() obb.obb2.axes("box") end },
    { "angle rejects a bad self", 1, "angle", "obb.obb2 expected, got obb.obb3",
      function(_, b3) obb.obb2.angle(b3) end },
    { "set rejects a missing argument", 4, "set", "number expected, got no value",
      function(b2) b2:set(1, 2, 3) end },
    { "set rejects a negative half extent", 4, "set",
      "half extent must be >= 0, got -1.0",
      function(b2) b2:set(1, 2, 3, -1) end },
    { "set rejects a NaN angle", 5, "set", "finite number expected, got nan",
      function(b2) b2:set(1, 2, 3, 4, NAN) end },
    { "set rejects a NaN center", 1, "set", "finite number expected, got nan",
      function(b2) b2:set(NAN, 2, 3, 4, 0) end },
    { "set rejects an extra argument", 6, "set", "no value expected, got number",
      function(b2) b2:set(1, 2, 3, 4, 0, 0) end },
    { "set_center rejects NaN", 2, "set_center", "finite number expected, got nan",
      function(b2) b2:set_center(1, NAN) end },
    { "set_center rejects a missing y", 2, "set_center", "number expected, got no value",
      function(b2) b2:set_center(1) end },
    { "set_center rejects an extra argument", 3, "set_center",
      "no value expected, got number",
      function(b2) b2:set_center(1, 2, 3) end },
    { "set_half_extents rejects a negative extent", 2, "set_half_extents",
      "half extent must be >= 0, got -2.0",
      function(b2) b2:set_half_extents(1, -2) end },
    { "set_half_extents rejects infinity", 1, "set_half_extents",
      "finite number expected, got inf",
      function(b2) b2:set_half_extents(INF, 2) end },
    { "set_half_extents rejects an extra argument", 3, "set_half_extents",
      "no value expected, got number",
      function(b2) b2:set_half_extents(1, 2, 3) end },
    { "set_angle rejects NaN", 1, "set_angle", "finite number expected, got nan",
      function(b2) b2:set_angle(NAN) end },
    { "set_angle rejects nothing", 1, "set_angle", "number expected, got no value",
      function(b2) b2:set_angle() end },
    { "set_angle rejects an extra argument", 2, "set_angle",
      "no value expected, got number",
      function(b2) b2:set_angle(1, 2) end },
    { "translate rejects NaN", 1, "translate", "finite number expected, got nan",
      function(b2) b2:translate(NAN, 0) end },
    { "translate rejects an extra argument", 3, "translate",
      "no value expected, got number",
      function(b2) b2:translate(1, 2, 3) end },
    { "rotate rejects infinity", 1, "rotate", "finite number expected, got -inf",
      function(b2) b2:rotate(-INF) end },
    { "rotate rejects an extra argument", 2, "rotate", "no value expected, got number",
      function(b2) b2:rotate(1, 2) end },
    { "clone rejects an argument", 1, "clone", "no value expected, got number",
      function(b2) b2:clone(1) end },
  })
end)

describe("3D method errors", function()
  run_cases({
    { "intersects rejects a 2D box", 1, "intersects",
      "obb.obb3 expected, got obb.obb2",
      function(b2, b3) b3:intersects(b2) end },
    { "a method rejects a bad self", 1, "rotation", "obb.obb3 expected, got obb.obb2",
      function(b2) obb.obb3.rotation(b2) end },
    { "contains rejects a 2D box", 1, "contains",
      "number or obb.obb3 expected, got obb.obb2",
      function(b2, b3) b3:contains(b2) end },
    { "contains rejects a missing z", 3, "contains", "number expected, got no value",
      function(_, b3) b3:contains(1, 2) end },
    { "contains rejects a fourth number", 4, "contains",
      "no value expected, got number",
      function(_, b3) b3:contains(1, 2, 3, 4) end },
    { "contains rejects infinity", 3, "contains", "finite number expected, got inf",
      function(_, b3) b3:contains(1, 2, INF) end },
    { "transform rejects 11 numbers", 12, "transform", "number expected, got no value",
      function(_, b3) b3:transform(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) end },
    { "transform rejects 13 numbers", 13, "transform", "no value expected, got number",
      function(_, b3) b3:transform(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0) end },
    { "transform rejects a NaN entry", 6, "transform", "finite number expected, got nan",
      function(_, b3) b3:transform(1, 0, 0, 0, 0, NAN, 0, 0, 0, 0, 1, 0) end },
    { "transform rejects a 4x4 matrix that is not affine", 1, "transform",
      "last row must be 0 0 0 1",
      function(_, b3)
        b3:transform(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1)
      end },
    { "transform rejects a table of 4x4 that is not affine", 1, "transform",
      "last row must be 0 0 0 1",
      function(_, b3)
        b3:transform({ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2 })
      end },
    { "transform rejects a table of the wrong size", 1, "transform",
      "table of 12 or 16 numbers expected, got 9",
      function(_, b3) b3:transform({ 1, 0, 0, 0, 1, 0, 0, 0, 1 }) end },
    { "transform rejects a bad table entry", 1, "transform",
      "matrix entry 12 is not a finite number",
      function(_, b3)
        b3:transform({ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, NAN })
      end },
    { "transform rejects an overflowing result", nil, nil,
      "transform result is not finite",
      function(_, b3)
        b3:transform(1e308, 1e308, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0)
      end },
    { "corners rejects a bad self", 1, "corners", "obb.obb3 expected, got number",
      function() obb.obb3.corners(1) end },
    { "aabb rejects a bad self", 1, "aabb", "obb.obb3 expected, got obb.obb2",
      function(b2) obb.obb3.aabb(b2) end },
    { "axes rejects a bad self", 1, "axes", "obb.obb3 expected, got no value",
      function() obb.obb3.axes() end },
    { "set rejects a zero quaternion", 7, "set", "quaternion is zero",
      function(_, b3) b3:set(1, 2, 3, 1, 1, 1, 0, 0, 0, 0) end },
    { "set rejects a partial quaternion", 10, "set", "number expected, got no value",
      function(_, b3) b3:set(1, 2, 3, 1, 1, 1, 0, 0, 1) end },
    { "set rejects a negative half extent", 5, "set",
      "half extent must be >= 0, got -1.5",
      function(_, b3) b3:set(1, 2, 3, 1, -1.5, 1) end },
    { "set rejects an extra argument", 11, "set", "no value expected, got number",
      function(_, b3) b3:set(1, 2, 3, 1, 1, 1, 0, 0, 0, 1, 0) end },
    { "set_center rejects a missing z", 3, "set_center", "number expected, got no value",
      function(_, b3) b3:set_center(1, 2) end },
    { "set_center rejects an extra argument", 4, "set_center",
      "no value expected, got number",
      function(_, b3) b3:set_center(1, 2, 3, 4) end },
    { "set_half_extents rejects a negative extent", 3, "set_half_extents",
      "half extent must be >= 0, got -1e-300",
      function(_, b3) b3:set_half_extents(1, 2, -1e-300) end },
    { "set_rotation rejects a zero quaternion", 1, "set_rotation", "quaternion is zero",
      function(_, b3) b3:set_rotation(0, 0, 0, 0) end },
    { "set_rotation rejects a missing w", 4, "set_rotation",
      "number expected, got no value",
      function(_, b3) b3:set_rotation(0, 0, 1) end },
    { "set_rotation rejects NaN", 2, "set_rotation", "finite number expected, got nan",
      function(_, b3) b3:set_rotation(0, NAN, 0, 1) end },
    { "set_rotation rejects an extra argument", 5, "set_rotation",
      "no value expected, got number",
      function(_, b3) b3:set_rotation(0, 0, 0, 1, 0) end },
    { "translate rejects a string", 2, "translate", "number expected, got string",
      function(_, b3) b3:translate(1, "2", 3) end },
    { "rotate rejects a zero quaternion", 1, "rotate", "quaternion is zero",
      function(_, b3) b3:rotate(0, 0, 0, 0) end },
    { "rotate rejects an extra argument", 5, "rotate", "no value expected, got number",
      function(_, b3) b3:rotate(0, 0, 0, 1, 1) end },
    { "clone rejects an argument", 1, "clone", "no value expected, got table",
      function(_, b3) b3:clone({}) end },
  })
end)

describe("metamethod errors", function()
  it("__tostring rejects a non-box", function()
    local b2, b3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    H.assert_argerror(1, nil, "obb.obb2 expected, got number",
      debug.getmetatable(b2).__tostring, 1)
    H.assert_argerror(1, nil, "obb.obb3 expected, got obb.obb2",
      debug.getmetatable(b3).__tostring, b2)
  end)

  it("__eq with a non-box is false, not an error", function()
    local b2 = obb.new2(0, 0, 1, 1)
    assert.is_false(debug.getmetatable(b2).__eq(b2, 1))
    assert.is_false(debug.getmetatable(b2).__eq({}, b2))
  end)
end)

describe("results that overflow", function()
  it("translate raises and leaves the box unchanged", function()
    local b2 = obb.new2(1e308, 0, 1, 1)
    local b3 = obb.new3(0, 0, -1e308, 1, 1, 1)
    local s2, s3 = H.state(b2), H.state(b3)
    H.assert_error_text("translate result is not finite",
      function() b2:translate(1e308, 0) end)
    H.assert_error_text("translate result is not finite",
      function() b3:translate(0, 0, -1e308) end)
    H.assert_same_state(s2, H.state(b2), "2D box")
    H.assert_same_state(s3, H.state(b3), "3D box")
  end)

  it("transform raises when the extents overflow, and changes nothing", function()
    local b2 = obb.new2(0, 0, 1e308, 1, 0.3)
    local s2 = H.state(b2)
    H.assert_error_text("transform result is not finite",
      function() b2:transform(2, 0, 0, 2, 0, 0) end)
    H.assert_same_state(s2, H.state(b2), "2D box")
  end)
end)

describe("chained calls after an error", function()
  it("a failed chained translate keeps the first translation only", function()
    local b = obb.new3(0, 0, 0, 1, 1, 1)
    assert.has_error(function() b:translate(0, 0, 1e308):translate(0, 0, 1e308) end)
    H.assert_near_list(H.pack(b:center()), { 0, 0, 1e308 }, 0)
  end)
end)
