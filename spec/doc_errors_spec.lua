-- Every error the documentation quotes in full (`bad argument #N to 'f'
-- (...)`, in README.md and docs/*.md) is what obb raises for the call the
-- documentation means, made the way it shows it (a method call counts
-- arguments after the receiver: `w:remove(x)` is argument #1). A quote
-- found in the docs without a call below fails, as does a call whose error
-- is not the quote. Numbers compare as the docs write them on any Lua
-- (`got -1` and `got -1.0` alike); each call is made outside tail
-- position, where LuaJIT names the function.
local obb = require "obb"

local read = require("helpers").read

local FILES = { "README.md" }
do
  local p = assert(io.popen("ls docs/*.md"))
  for name in p:lines() do FILES[#FILES + 1] = name end
  p:close()
end

-- 5.3 and 5.4 print -1.0 where 5.1 and LuaJIT print -1.
local function plain(s)
  return (s:gsub("%s+", " "):gsub("(%d)%.0([%),%] ])", "%1%2"))
end

local b2, b3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
local function world()
  local w = obb.world2()
  w:add("a", 0, 0, 1, 1)
  w:add("b", 3, 0, 1, 1)
  return w
end

-- quote (as plain() makes it) -> the call it is the error of
local CALLS = {
  ["bad argument #3 to 'translate' (no value expected, got number)"] =
    function() local _ = b2:translate(1, 2, 3) end,
  ["bad argument #3 to 'new2' (half extent must be >= 0, got -1)"] =
    function() local _ = obb.new2(0, 0, -1, 1) end,
  ["bad argument #1 to 'intersects' (obb.obb2 expected, got obb.obb3)"] =
    function() local _ = b2:intersects(b3) end,
  ["bad argument #2 to 'penetration' (no value expected, got number)"] =
    function() local _ = b2:penetration(b2, 1) end,
  ["bad argument #2 to 'sweep' (finite number expected, got nan)"] =
    function() local _ = b2:sweep(b2, 0 / 0, 0, 0, 0) end,
  ["bad argument #2 to 'merge' (obb.obb2 expected, got obb.obb3)"] =
    function() local _ = obb.merge(b2, b3) end,
  ["bad argument #3 to 'query_box' (function, obb.responses or nil expected, got string)"] =
    function() local _ = world():query_box(b2, {}, "slide") end,
  ["bad argument #3 to 'move' (the move overflows (goals this far from the rectangles it meets are " ..
    "beyond the largest number))"] =
    function()
      local w = require("obb.bump").newWorld(64)
      w:add("p", 1.7e308, 0, 10, 10)
      w:add("far", -8.9e307, -1.7976931348623157e308, 1e307, 1e307)
      local _ = w:move("p", -1e308, -1.7e308)
    end,
  ["bad argument #1 to 'remove' (item is not in the world)"] =
    function() local _ = world():remove("nowhere") end,
  ["bad argument #1 to 'world2' (margin must be in [0, 1e6])"] =
    function() local _ = obb.world2(-1) end,
  ["bad argument #1 to 'world2' (unknown option 'cells')"] =
    function() local _ = obb.world2({ cells = 1 }) end,
  ["bad argument #5 to 'add' (half extent must be >= 0, got -1)"] =
    function() local _ = world():add("c", 0, 0, 1, -1) end,
  ["bad argument #4 to 'move' (unknown response 'slid')"] =
    function() local _ = world():move("a", 5, 0, function() return "slid" end) end,
  ["bad argument #4 to 'move' (finite number expected, got nan)"] =
    function() local _ = world():move("a", 1, 0, 0 / 0) end,
  ["bad argument #1 to 'set_ties' (invalid option 'some')"] =
    function() local _ = world():set_ties("some") end,
  ["bad argument #2 to 'set_class' (class must be an integer in [0, 255], got 1.5)"] =
    function() local _ = world():set_class("a", 1.5) end,
  ["bad argument #4 to 'cast_turning' (finite number expected, got nan)"] =
    function() local _ = world():cast_turning(b2, 1, 0, 0 / 0, {}) end,
}

describe("the errors the documentation quotes", function()
  local quoted = {}
  for _, path in ipairs(FILES) do
    local text = plain(read(path))
    for q in text:gmatch("bad argument #%d+ to '[%w_?]+' %b()") do
      quoted[q] = quoted[q] or path
    end
  end

  it("are all known here", function()
    local n = 0
    for q, path in pairs(quoted) do
      n = n + 1
      assert(CALLS[q], path .. " quotes an error no call here raises: " .. q)
    end
    assert.is_true(n >= 10, "found the quotes")
  end)

  for q, call in pairs(CALLS) do
    it("are what obb raises: " .. q, function()
      assert(quoted[q], "no longer quoted in the docs (drop it here): " .. q)
      local ok, err = pcall(call)
      assert.is_false(ok)
      local got = plain(tostring(err))
      assert(got:find(q, 1, true), "the docs quote\n  " .. q .. "\nobb raises\n  " .. got)
    end)
  end
end)
