-- spec/hostile_spec.lua: what a script nobody reviewed can throw at obb.
--
-- Table-driven: every function of the 2D and 3D API is listed with valid
-- arguments and the kind of each; every position is then tried with every
-- wrong kind of value and the exact error checked (argument number, function
-- name and text, normalised across Lua versions by helpers.assert_argerror).
-- A method that raises must leave its box exactly as it was. A last sweep
-- calls every function the module registers, including ones this table
-- does not know yet, with wrong values in every position and checks only
-- the rules that hold for all of them: a clean string error or a result,
-- and no box changed by a failed call.
local obb = require "obb"
local H = require "helpers"

local unpack = H.unpack
local load = loadstring or load -- luacheck: ignore

local function co() return coroutine.create(function() end) end

local nan, inf = 0 / 0, 1 / 0

-- The name errors give io.stdout ("FILE*"; how it is found differs
-- between Lua versions), as the module reports it.
local FILE = select(2, pcall(obb.obb2.center, io.stdout)):match("got ([^)]*)%)$")

-- Wrong values of each kind, with the type name the message must show.
local function wrong_types()
  return {
    { nil, "nil" }, { true, "boolean" }, { "1", "string" }, { {}, "table" },
    { function() end, "function" }, { co(), "thread" },
    { io.stdout, FILE },
    { obb.new2(0, 0, 1, 1), "obb.obb2" }, { obb.new3(0, 0, 0, 1, 1, 1), "obb.obb3" },
  }
end

-- For each argument kind: the wrong values and the text each must raise.
local function wrongs_for(kind)
  local out = {}
  if kind == "method" then -- an optional option name (luaL_checkoption)
    for _, w in ipairs(wrong_types()) do
      if w[2] == "string" then
        out[#out + 1] = { w[1], "invalid option '" .. w[1] .. "'" }
      elseif w[1] ~= nil then
        out[#out + 1] = { w[1], "string expected, got " .. w[2] }
      end
    end
    out[#out + 1] = { 7, "invalid option '7'" }
    out[#out + 1] = { "TIGHT", "invalid option 'TIGHT'" }
    return out
  end
  local expected = ({
    num = "number", ext = "number", optnum = "number", mat = "number", box2 = "obb.obb2",
    box3 = "obb.obb3", points = "table", box2orpt = "number or obb.obb2",
    box3orpt = "number or obb.obb3",
  })[kind]
  for _, w in ipairs(wrong_types()) do
    local v, tname = w[1], w[2]
    -- (a table as a matrix's first entry is the table form of the matrix)
    local ok_here = (kind == "optnum" and v == nil) or
      (kind == "mat" and tname == "table") or
      (expected == "table" and tname == "table") or
      (kind == "box2" and tname == "obb.obb2") or
      (kind == "box3" and tname == "obb.obb3") or
      (kind == "box2orpt" and tname == "obb.obb2") or
      (kind == "box3orpt" and tname == "obb.obb3")
    if not ok_here then
      out[#out + 1] = { v, expected .. " expected, got " .. tname }
    end
  end
  if kind == "num" or kind == "ext" or kind == "optnum" or kind == "mat" then
    out[#out + 1] = { nan, "finite number expected, got nan" }
    out[#out + 1] = { inf, "finite number expected, got inf" }
    out[#out + 1] = { -inf, "finite number expected, got -inf" }
  end
  if kind == "ext" then
    out[#out + 1] = { -1, "half extent must be >= 0, got -1.0" }
    out[#out + 1] = { -1e-300, "half extent must be >= 0, got -1e-300" }
  end
  return out
end

-- name, where it lives, valid arguments, the kind of each argument.
local B2 = function() return obb.new2(1, 2, 3, 4, 0.5) end
local B3 = function() return obb.new3(1, 2, 3, 4, 5, 6, 0.1, 0.2, 0.3, 0.9) end
local lib, m2, m3 = "obb", "obb.obb2", "obb.obb3"

local cases = {
  { "new2", lib, { 0, 0, 1, 1, 0 }, { "num", "num", "ext", "ext", "optnum" } },
  { "from_aabb2", lib, { 0, 0, 1, 1 }, { "num", "num", "num", "num" } },
  { "from_axes2", lib, { 0, 0, 1, 1, 1, 0 }, { "num", "num", "ext", "ext", "num", "num" } },
  { "fit2", lib, { { 0, 0, 1, 1 } }, { "points" } },
  { "fit2", lib, { { 0, 0, 1, 1 }, "covariance" }, { "points", "method" } },
  { "new3", lib, { 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 },
    { "num", "num", "num", "ext", "ext", "ext", "num", "num", "num", "num" } },
  { "from_aabb3", lib, { 0, 0, 0, 1, 1, 1 }, { "num", "num", "num", "num", "num", "num" } },
  { "from_axes3", lib, { 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1 },
    { "num", "num", "num", "ext", "ext", "ext", "num", "num", "num", "num", "num",
      "num", "num", "num", "num" } },
  { "fit3", lib, { { 0, 0, 0, 1, 1, 1 } }, { "points" } },
  { "fit3", lib, { { 0, 0, 0, 1, 1, 1 }, "tight" }, { "points", "method" } },

  { "intersects", m2, { B2, B2 }, { "box2", "box2" } },
  { "contains", m2, { B2, 0, 0 }, { "box2", "box2orpt", "num" } },
  { "contains", m2, { B2, B2 }, { "box2", "box2orpt" } },
  { "transform", m2, { B2, 1, 0, 0, 1, 0, 0 }, { "box2", "mat", "num", "num", "num", "num", "num" } },
  { "corners", m2, { B2 }, { "box2" } },
  { "aabb", m2, { B2 }, { "box2" } },
  { "center", m2, { B2 }, { "box2" } },
  { "half_extents", m2, { B2 }, { "box2" } },
  { "axes", m2, { B2 }, { "box2" } },
  { "angle", m2, { B2 }, { "box2" } },
  { "set", m2, { B2, 0, 0, 1, 1, 0 }, { "box2", "num", "num", "ext", "ext", "optnum" } },
  { "set_center", m2, { B2, 0, 0 }, { "box2", "num", "num" } },
  { "set_half_extents", m2, { B2, 1, 1 }, { "box2", "ext", "ext" } },
  { "set_angle", m2, { B2, 1 }, { "box2", "num" } },
  { "translate", m2, { B2, 1, 1 }, { "box2", "num", "num" } },
  { "rotate", m2, { B2, 1 }, { "box2", "num" } },
  { "clone", m2, { B2 }, { "box2" } },

  { "intersects", m3, { B3, B3 }, { "box3", "box3" } },
  { "contains", m3, { B3, 0, 0, 0 }, { "box3", "box3orpt", "num", "num" } },
  { "contains", m3, { B3, B3 }, { "box3", "box3orpt" } },
  { "transform", m3, { B3, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 },
    { "box3", "mat", "num", "num", "num", "num", "num", "num", "num", "num", "num", "num", "num" } },
  { "corners", m3, { B3 }, { "box3" } },
  { "aabb", m3, { B3 }, { "box3" } },
  { "center", m3, { B3 }, { "box3" } },
  { "half_extents", m3, { B3 }, { "box3" } },
  { "axes", m3, { B3 }, { "box3" } },
  { "rotation", m3, { B3 }, { "box3" } },
  { "set", m3, { B3, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 },
    { "box3", "num", "num", "num", "ext", "ext", "ext", "num", "num", "num", "num" } },
  { "set_center", m3, { B3, 0, 0, 0 }, { "box3", "num", "num", "num" } },
  { "set_half_extents", m3, { B3, 1, 1, 1 }, { "box3", "ext", "ext", "ext" } },
  { "set_rotation", m3, { B3, 0, 0, 0, 1 }, { "box3", "num", "num", "num", "num" } },
  { "translate", m3, { B3, 1, 1, 1 }, { "box3", "num", "num", "num" } },
  { "rotate", m3, { B3, 0, 0, 0, 1 }, { "box3", "num", "num", "num", "num" } },
  { "clone", m3, { B3 }, { "box3" } },
}

local tables = { obb = obb, ["obb.obb2"] = obb.obb2, ["obb.obb3"] = obb.obb3 }

-- A call written as `t.name(...)` so that every Lua version names the
-- function in its error message.
local function caller(where, name)
  return load("local t = ...; return function(...) return t." .. name .. "(...) end")(tables[where])
end

local function fresh(args)
  local out = {}
  for i, v in ipairs(args) do out[i] = type(v) == "function" and v() or v end
  return out
end

-- Every box among the arguments, with its state before the call.
local function snapshots(args, n)
  local s = {}
  for i = 1, n do
    if obb.type(args[i]) then s[#s + 1] = { args[i], H.state(args[i]) } end
  end
  return s
end

local function assert_unchanged(snaps, what)
  for _, s in ipairs(snaps) do
    if obb.type(s[1]) then H.assert_same_state(s[2], H.state(s[1]), what) end
  end
end

describe("hostile scripts", function()
  for _, case in ipairs(cases) do
    local name, where, valid, kinds = case[1], case[2], case[3], case[4]
    local f = caller(where, name)
    describe(where .. "." .. name .. " with " .. #valid .. " arguments", function()
      it("accepts the valid arguments", function()
        local args = fresh(valid)
        assert.has_no.errors(function() f(unpack(args, 1, #valid)) end)
      end)

      it("names every wrong argument exactly and changes nothing", function()
        for pos, kind in ipairs(kinds) do
          for _, w in ipairs(wrongs_for(kind)) do
            local args = fresh(valid)
            args[pos] = w[1]
            local snaps = snapshots(args, #valid)
            local want = w[2]
            if w[1] == nil and pos == #valid then
              -- a trailing nil is no argument: a function that tells its
              -- forms apart by their count says "got no value"
              local ok, err = pcall(f, unpack(args, 1, #valid))
              assert.is_false(ok)
              if tostring(err):find("got no value", 1, true) then want = want:gsub("got nil$", "got no value") end
            end
            H.assert_argerror(pos, name, want, f, unpack(args, 1, #valid))
            assert_unchanged(snaps, name .. " argument " .. pos)
          end
        end
      end)

      it("reports a missing argument", function()
        local last = #valid
        if kinds[last] == "optnum" or kinds[last] == "method" then last = last - 1 end
        local args = fresh(valid)
        local snaps = snapshots(args, last - 1)
        local want = wrongs_for(kinds[last])[1] -- the nil case names the kind
        local expected = want[2]:gsub("got nil$", "got no value")
        if kinds[last] == "points" then expected = "table expected, got no value" end
        H.assert_argerror(last, name, expected, f, unpack(args, 1, last - 1))
        assert_unchanged(snaps, name .. " with a missing argument")
      end)
    end)
  end

  describe("extra arguments", function()
    local extra = {
      { "new2", lib, { 0, 0, 1, 1, 0 } }, { "from_aabb2", lib, { 0, 0, 1, 1 } },
      { "from_axes2", lib, { 0, 0, 1, 1, 1, 0 } }, { "fit2", lib, { { 0, 0 }, "tight" } },
      { "new3", lib, { 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 } },
      { "from_aabb3", lib, { 0, 0, 0, 1, 1, 1 } }, { "fit3", lib, { { 0, 0, 0 }, "tight" } },
      { "from_axes3", lib, { 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1 } },
      { "contains", m2, { B2, 0, 0 } }, { "contains", m2, { B2, B2 } },
      { "set", m2, { B2, 0, 0, 1, 1, 0 } }, { "set_center", m2, { B2, 0, 0 } },
      { "set_half_extents", m2, { B2, 1, 1 } }, { "set_angle", m2, { B2, 1 } },
      { "translate", m2, { B2, 1, 1 } }, { "rotate", m2, { B2, 1 } },
      { "clone", m2, { B2 } }, { "transform", m2, { B2, 1, 0, 0, 1, 0, 0 } },
      { "contains", m3, { B3, 0, 0, 0 } }, { "contains", m3, { B3, B3 } },
      { "set", m3, { B3, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1 } },
      { "set_center", m3, { B3, 0, 0, 0 } }, { "set_half_extents", m3, { B3, 1, 1, 1 } },
      { "set_rotation", m3, { B3, 0, 0, 0, 1 } }, { "translate", m3, { B3, 1, 1, 1 } },
      { "rotate", m3, { B3, 0, 0, 0, 1 } }, { "clone", m3, { B3 } },
    }
    for _, case in ipairs(extra) do
      it(case[2] .. "." .. case[1] .. " refuses one more argument", function()
        local args = fresh(case[3])
        local n = #args + 1
        args[n] = 7
        local snaps = snapshots(args, n)
        H.assert_argerror(n, case[1], "no value expected, got number",
          caller(case[2], case[1]), unpack(args, 1, n))
        assert_unchanged(snaps, case[1] .. " with an extra argument")
      end)
    end
  end)

  describe("values that are the right type but wrong", function()
    local special = {
      { "fit2", lib, { {} }, 1, "flat array of 2 numbers per point expected, got 0 numbers" },
      { "fit2", lib, { { 1, 2, 3 } }, 1, "flat array of 2 numbers per point expected, got 3 numbers" },
      { "fit2", lib, { { { 1, "2" } } }, 1, "point 1 is not 2 finite numbers" },
      { "fit2", lib, { { 0, 0, nan, 1 } }, 1, "point 2 is not 2 finite numbers" },
      { "fit2", lib, { { { 0, 0 }, { 1 } } }, 1, "point 2 is not 2 finite numbers" },
      { "fit3", lib, { { { 0, 0, 0 }, { 1, 1, inf } } }, 1, "point 2 is not 3 finite numbers" },
      { "fit3", lib, { { 1, 2 } }, 1, "flat array of 3 numbers per point expected, got 2 numbers" },
      { "from_aabb2", lib, { 0, 0, -1, 1 }, 3, "max is less than min" },
      { "from_aabb2", lib, { 0, 0, 1, -1 }, 4, "max is less than min" },
      { "from_aabb3", lib, { 0, 0, 0, 1, 1, -1 }, 6, "max is less than min" },
      { "from_axes2", lib, { 0, 0, 1, 1, 0, 0 }, 5, "zero-length axis or quaternion" },
      { "from_axes2", lib, { 0, 0, 1, 1, 2, 0 }, 5, "axes not orthonormal" },
      { "from_axes3", lib, { 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1 }, 7, "axes not orthonormal" },
      { "from_axes3", lib, { 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1 }, 7, "zero-length axis or quaternion" },
      { "new3", lib, { 0, 0, 0, 1, 1, 1, 0, 0, 0, 0 }, 7, "quaternion is zero" },
      { "set_rotation", m3, { B3, 0, 0, 0, 0 }, 2, "quaternion is zero" },
      { "rotate", m3, { B3, 0, 0, 0, 0 }, 2, "quaternion is zero" },
      { "set", m3, { B3, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0 }, 8, "quaternion is zero" },
      { "transform", m2, { B2, { 1, 2 } }, 2, "table of 6 numbers expected, got 2" },
      { "transform", m2, { B2, { 1, 0, 0, 1, "0", 0 } }, 2, "matrix entry 5 is not a finite number" },
      { "transform", m2, { B2, { 1, 0, nan, 1, 0, 0 } }, 2, "matrix entry 3 is not a finite number" },
      { "transform", m3, { B3, { 1 } }, 2, "table of 12 or 16 numbers expected, got 1" },
      { "transform", m3, { B3, { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2 } }, 2,
        "last row must be 0 0 0 1" },
      { "transform", m3, { B3, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1 }, 2,
        "last row must be 0 0 0 1" },
      { "transform", m2, { B2, {}, 1 }, 3, "no value expected, got number" },
    }
    for _, case in ipairs(special) do
      it(case[2] .. "." .. case[1] .. ": " .. case[5], function()
        local args = fresh(case[3])
        local snaps = snapshots(args, #args)
        H.assert_argerror(case[4], case[1], case[5], caller(case[2], case[1]),
          unpack(args, 1, #args))
        assert_unchanged(snaps, case[1])
      end)
    end

    it("leaves a box unchanged when a result would not be finite", function()
      local b = obb.new2(1e308, 0, 1e308, 1, 0)
      local before = H.state(b)
      H.assert_error_text("translate result is not finite", function() b:translate(1e308, 0) end)
      H.assert_error_text("transform result is not finite",
        function() b:transform(10, 0, 0, 10, 0, 0) end)
      H.assert_same_state(before, H.state(b), "2D box")
      local c = obb.new3(1e308, 0, 0, 1e308, 1, 1)
      local before3 = H.state(c)
      H.assert_error_text("translate result is not finite", function() c:translate(1e308, 0, 0) end)
      H.assert_error_text("transform result is not finite",
        function() c:transform(10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0) end)
      H.assert_same_state(before3, H.state(c), "3D box")
    end)

    it("names the argument with method syntax too", function()
      local b = obb.new2(0, 0, 1, 1)
      -- with a:f(...) Lua counts arguments after self
      -- (not a tail call: LuaJIT cannot name a method called there)
      local msg = H.error_of(function() b:set(nan, 0, 1, 1) end)
      assert.truthy(msg:find("bad argument #1 to 'set' (finite number expected, got nan)", 1, true), msg)
      msg = H.error_of(function() return b.set(io.stdout, 0, 0, 1, 1) end)
      assert.truthy(msg:find("(obb.obb2 expected, got " .. FILE .. ")", 1, true), msg)
    end)
  end)

  describe("boxes in disguise", function()
    -- debug.setmetatable can put one type's metatable on the other type's
    -- userdata. The box must never be read as the other type (a 3D box
    -- read as 2D, or the reverse, would read the wrong bytes); whether it
    -- still counts as its real type is the binding's choice.
    it("never reads a 3D box given the 2D metatable as 2D, nor the reverse", function()
      local mt2 = debug.getmetatable(obb.new2(0, 0, 1, 1))
      local mt3 = debug.getmetatable(obb.new3(0, 0, 0, 1, 1, 1))
      -- (debug.setmetatable returns true in 5.1 and LuaJIT, not the value)
      local fake2, fake3 = obb.new3(7, 8, 9, 1, 2, 3), obb.new2(7, 8, 1, 2)
      debug.setmetatable(fake2, mt2)
      debug.setmetatable(fake3, mt3)
      assert.is_not.equal("obb2", obb.type(fake2))
      assert.is_not.equal("obb3", obb.type(fake3))
      for _, m in ipairs({ "center", "half_extents", "axes", "corners", "clone" }) do
        assert.has_error(function() return obb.obb2[m](fake2) end)
        assert.has_error(function() return obb.obb3[m](fake3) end)
        -- as its real type it is either refused or read as itself
        local ok, x = pcall(obb.obb3[m], fake2)
        if ok and m == "center" then assert.equal(7, x) end
        ok, x = pcall(obb.obb2[m], fake3)
        if ok and m == "center" then assert.equal(7, x) end
      end
      assert.has_error(function() return obb.new2(0, 0, 1, 1):intersects(fake2) end)
      assert.has_error(function() return obb.new3(0, 0, 0, 1, 1, 1):intersects(fake3) end)
      assert.is_false(fake2 == obb.new2(0, 0, 1, 1))
      pcall(tostring, fake2)
      pcall(tostring, fake3)
      collectgarbage() -- their finalizers, if any, must cope too
    end)

    it("a world dressed as a box, or a box as a world, is refused", function()
      if not obb.world2 then return pending("worlds are not in this build yet") end
      local mt2 = debug.getmetatable(obb.new2(0, 0, 1, 1))
      local w = obb.world2()
      w:add(1, 0, 0, 1, 1)
      local wmt = debug.getmetatable(w)
      debug.setmetatable(w, mt2)
      assert.is_nil(obb.type(w))
      assert.has_error(function() return obb.obb2.center(w) end)
      assert.has_error(function() return obb.obb2.set_center(w, 1, 2) end)
      assert.has_error(function() return obb.new2(0, 0, 1, 1):intersects(w) end)
      debug.setmetatable(w, wmt) -- given back, or its finalizer never runs
      assert.equal(1, w:count())
      local b = obb.new2(0, 0, 1, 1)
      debug.setmetatable(b, wmt)
      local methods = type(wmt.__index) == "table" and wmt.__index or {}
      for _, m in ipairs({ "count", "add", "remove", "query_box", "pairs", "close" }) do
        if methods[m] then
          assert.is_false(pcall(methods[m], b, 1, 0, 0, 1, 1), m)
        end
      end
      if wmt.__gc then pcall(wmt.__gc, b) end -- a world's finalizer on a box
      debug.setmetatable(b, mt2)
      assert.same({ 0, 0 }, { b:center() })
    end)

    it("obb.type never raises", function()
      for _, w in ipairs(wrong_types()) do
        assert.has_no.errors(function() obb.type(w[1]) end)
      end
      assert.equal("obb2", obb.type(obb.new2(0, 0, 1, 1)))
      assert.equal("obb3", obb.type(obb.new3(0, 0, 0, 1, 1, 1)))
      assert.is_nil(obb.type(setmetatable({}, debug.getmetatable(obb.new2(0, 0, 1, 1)))))
    end)
  end)

  describe("worlds", function()
    if not obb.world2 then
      pending("worlds are not in this build yet")
      return
    end

    local function world_with_items()
      local w = obb.world2()
      for i = 1, 20 do w:add(i, obb.new2(i, 0, 1, 1)) end
      return w
    end

    it("names wrong arguments exactly and changes nothing", function()
      local w = world_with_items()
      local out = {}
      local world_cases = {
        { "add", { nil, obb.new2(0, 0, 1, 1) }, 1, "item (any value but nil) expected, got nil" },
        { "add", { 0 / 0, obb.new2(0, 0, 1, 1) }, 1, "item must not be NaN" },
        { "add", { 3, obb.new2(0, 0, 1, 1) }, 1, "item is already in the world" },
        { "add", { "x", 0, 0, -1, 1 }, 4, "half extent must be >= 0, got -1.0" },
        { "add", { "x", 0, 0 / 0, 1, 1 }, 3, "finite number expected, got nan" },
        { "update", { "nobody", obb.new2(0, 0, 1, 1) }, 1, "item is not in the world" },
        { "update", { 3, 0, 0, 1, 1 / 0 }, 5, "finite number expected, got inf" },
        { "remove", { "nobody" }, 1, "item is not in the world" },
        { "query_box", { obb.new3(0, 0, 0, 1, 1, 1), out }, 1, "obb.obb2 expected, got obb.obb3" },
        { "query_box", { obb.new2(0, 0, 1, 1), true }, 2, "table expected, got boolean" },
        { "query_box", { obb.new2(0, 0, 1, 1), out, 5 }, 3, "function, obb.responses or nil expected, got number" },
        { "query_point", { 0, 0 / 0, out }, 2, "finite number expected, got nan" },
        { "raycast", { 0, 0, 0, 0, 1, out }, 3, "direction must not be zero" },
        { "raycast", { 0, 0, 1, 0, -1, out }, 5, "max_t must be >= 0, got -1.0" },
      }
      for _, c in ipairs(world_cases) do
        local count = w:count()
        local f = load("local w = ...; return function(...) return w:" .. c[1] .. "(...) end")(w)
        local n = 0
        for k in pairs(c[2]) do n = math.max(n, k) end
        if c[2][1] == nil then n = math.max(n, 1) end
        H.assert_argerror(c[3], c[1], c[4], f, unpack(c[2], 1, n))
        assert.equal(count, w:count(), c[1] .. " changed the count")
      end
      assert.equal(20, w:query_box(obb.new2(10, 0, 100, 100), out))
    end)

    it("every method raises 'world is closed' after close, and close twice is harmless", function()
      local w = world_with_items()
      w:close()
      assert.has_no.errors(function() w:close() end)
      local out = {}
      for _, call in ipairs({
        function() return w:add("x", 0, 0, 1, 1) end,
        function() return w:update(1, 0, 0, 1, 1) end,
        function() return w:remove(1) end,
        function() return w:query_box(obb.new2(0, 0, 1, 1), out) end,
        function() return w:query_point(0, 0, out) end,
        function() return w:raycast(0, 0, 1, 0, 10, out) end,
        function() return w:pairs(out) end,
        function() return w:count() end,
      }) do
        H.assert_error_text("world is closed", call)
      end
      -- the finalizer runs later on the closed world
      w = nil -- luacheck: ignore
      collectgarbage()
      collectgarbage()
    end)

    it("filters that close, grow or collect during a query get a clean error", function()
      local w = world_with_items()
      local out = {}
      local tries = {
        function() w:close() end,
        function() w:add({}, 0, 0, 1, 1) end,
        function() w:update(1, 5, 5, 1, 1) end,
        function() collectgarbage() return true end,
        function() return w:query_box(obb.new2(0, 0, 50, 50), {}) > 0 end, -- nested query
        function() coroutine.yield() end,
      }
      for i, try in ipairs(tries) do
        local ok = pcall(w.query_box, w, obb.new2(10, 0, 100, 100), out, function(...)
          return try(...)
        end)
        if i <= 3 or i == 6 then assert.is_false(ok, "try " .. i) end
        assert.equal(20, w:count())
        assert.equal(20, w:query_box(obb.new2(10, 0, 100, 100), out))
      end
      w:add("late", 0, 0, 1, 1) -- and the world is not left locked
      assert.equal(21, w:count())
    end)
  end)

  -- Every function the module registers, known to this file or not.
  describe("sweep over every registered function", function()
    local funcs = {}
    local function collect(t, prefix, seen)
      if seen[t] then return end
      seen[t] = true
      local names = {}
      for k, v in pairs(t) do
        if type(k) == "string" and k:sub(1, 2) ~= "__" then names[#names + 1] = k end
        if type(v) == "table" and type(k) == "string" then collect(v, prefix .. k .. ".", seen) end
      end
      table.sort(names)
      for _, k in ipairs(names) do
        if type(t[k]) == "function" then funcs[#funcs + 1] = { prefix .. k, t[k] } end
      end
    end
    collect(obb, "obb.", {})

    it("finds the module's functions", function()
      assert.truthy(#funcs >= 40, "only " .. #funcs .. " functions found")
    end)

    it("gives a clean error or a result for every wrong value, changing nothing on error", function()
      local wrongs = { nil, true, "1", {}, function() end, io.stdout, nan, inf, -1,
        1e308, obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1) }
      local nwrong = 12
      for _, fn in ipairs(funcs) do
        for pos = 1, 4 do
          for w = 1, nwrong do
            local args = { obb.new2(1, 2, 3, 4, 0.5), 1, 1, 1 }
            if fn[1]:find("obb3", 1, true) or fn[1]:find("3$") then
              args[1] = obb.new3(1, 2, 3, 1, 1, 1)
            end
            args[pos] = wrongs[w]
            local snaps = snapshots(args, 4)
            local ok, err = pcall(fn[2], unpack(args, 1, 4))
            if not ok then
              assert.equal("string", type(err), fn[1] .. " raised a " .. type(err))
              assert_unchanged(snaps, fn[1] .. " argument " .. pos)
            end
          end
        end
      end
    end)
  end)
end)
