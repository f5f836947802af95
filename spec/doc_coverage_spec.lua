-- spec/doc_coverage_spec.lua: every function the module registers has a
-- reference entry in the manual, docs/reference.md; the README stays a
-- landing page (at most 300 lines) whose table links every function to
-- an entry that exists.
--
-- An entry is a heading line (starting with #) whose code names the
-- function, so the check reads headings only, never prose:
--   library function obb.f      "### `obb.f(...)`"
--   method m of any type        "### `box:m(...)`" (any receiver: box, a,
--                               world; several forms may share a heading,
--                               separated by " / ")
--   metamethods                 __tostring: "tostring(box)", __eq: "a == b",
--                               __len: "#world", __close: the heading of the
--                               method of the same job (close); __gc and
--                               __index are not user calls.
-- The types walked are the 2D and 3D boxes and, where the module has them,
-- the 2D and 3D worlds; a function added to any of them later is found
-- without touching this spec.
local obb = require "obb"

local read = require("helpers").read

local function headings(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^#+ ") then out[#out + 1] = line end
  end
  return out
end

local MANUAL = read("docs/reference.md")
local README = read("README.md")
local HEADINGS = headings(MANUAL)

-- GitHub's anchor of a heading: lower case, punctuation dropped, spaces
-- to hyphens, a repeated one numbered.
local function anchors(text)
  local set, seen, fence = {}, {}, false
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^```") then fence = not fence end
    local h = not fence and line:match("^#+ (.*)$")
    if h then
      local a = h:lower():gsub("[^%w%-_ \128-\255]", ""):gsub(" ", "-")
      if seen[a] then
        seen[a] = seen[a] + 1
        a = a .. "-" .. seen[a]
      else
        seen[a] = 0
      end
      set[a] = true
    end
  end
  return set
end

local function plain_find(s, needle) return s:find(needle, 1, true) ~= nil end

local function has_heading(pred)
  for _, h in ipairs(HEADINGS) do
    if pred(h) then return true end
  end
  return false
end

local function documented_libfunc(name)
  return has_heading(function(h) return plain_find(h, "obb." .. name .. "(") end)
end

local function documented_method(name)
  return has_heading(function(h)
    for code in h:gmatch("`([^`]*)`") do
      if code:match("^[%w_]+:" .. name .. "%(") then return true end
    end
    return false
  end)
end

-- How a heading shows each metamethod a script can reach.
local META_FORMS = {
  __tostring = "tostring(", __eq = " == ", __len = "`#", __lt = " < ", __le = " <= ",
  __concat = " .. ", __call = "(",
}
local META_SKIP = { __index = true, __gc = true, __name = true, __metatable = true, __mode = true }

local function documented_meta(name, methods)
  if META_SKIP[name] then return true end
  if name == "__close" then
    -- documented with the method that does the same job
    return methods.close ~= nil and documented_method("close")
  end
  local form = META_FORMS[name]
  if not form then return has_heading(function(h) return plain_find(h, name) end) end
  return has_heading(function(h) return plain_find(h, form) end)
end

-- The types to walk: {label, metatable} for each kind of userdata.
local function types()
  local list = {
    { "obb2", debug.getmetatable(obb.new2(0, 0, 1, 1)) },
    { "obb3", debug.getmetatable(obb.new3(0, 0, 0, 1, 1, 1)) },
  }
  for _, ctor in ipairs({ "world2", "world3" }) do
    if type(obb[ctor]) == "function" then
      local w = obb[ctor]()
      list[#list + 1] = { ctor, debug.getmetatable(w) }
      if type(w.close) == "function" then w:close() end
    end
  end
  return list
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    if type(k) == "string" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  return keys
end

describe("README and manual", function()
  it("the README is a landing page of at most 300 lines", function()
    local n = select(2, README:gsub("\n", "\n"))
    assert.is_true(n <= 300, n .. " lines")
  end)

  it("every link from the README into the manual names a heading there", function()
    local set, bad, count = anchors(MANUAL), {}, 0
    for a in README:gmatch("%(docs/reference%.md#([^%)]+)%)") do
      count = count + 1
      if not set[a] then bad[#bad + 1] = a end
    end
    assert.is_true(count > 50)
    assert.are.same({}, bad)
  end)

  it("the README's table names every function of the module", function()
    local missing = {}
    for _, name in ipairs(sorted_keys(obb)) do
      if type(obb[name]) == "function" and not README:find("`obb." .. name .. "`", 1, true) then
        missing[#missing + 1] = "obb." .. name
      end
    end
    local w = obb.world2()
    for _, name in ipairs(sorted_keys(getmetatable(w))) do
      if type(w[name]) == "function" and not README:find("`world:" .. name .. "`", 1, true) then
        missing[#missing + 1] = "world:" .. name
      end
    end
    for _, name in ipairs(sorted_keys(getmetatable(obb.new2(0, 0, 1, 1)))) do
      if not README:find("`box:" .. name .. "`", 1, true) and not README:find("`a:" .. name .. "`", 1, true) then
        missing[#missing + 1] = "box:" .. name
      end
    end
    assert.are.same({}, missing)
  end)
end)

describe("manual reference coverage", function()
  it("finds headings to check against", function()
    assert.is_true(#HEADINGS > 20)
    assert.is_true(documented_libfunc("new2"))
    assert.is_false(documented_libfunc("no_such_function"))
    assert.is_false(documented_method("no_such_method"))
  end)

  it("has an entry for every library function", function()
    local missing = {}
    for _, name in ipairs(sorted_keys(obb)) do
      if type(obb[name]) == "function" and not documented_libfunc(name) then
        missing[#missing + 1] = "obb." .. name
      end
    end
    assert.are.same({}, missing)
  end)

  for _, t in ipairs(types()) do
    local label, mt = t[1], t[2]
    it("has an entry for every method and metamethod of " .. label, function()
      assert.is_table(mt)
      local methods = type(mt.__index) == "table" and mt.__index or {}
      local missing = {}
      for _, name in ipairs(sorted_keys(methods)) do
        if type(methods[name]) == "function" and not documented_method(name) then
          missing[#missing + 1] = label .. ":" .. name
        end
      end
      for _, name in ipairs(sorted_keys(mt)) do
        if name:sub(1, 2) == "__" and type(mt[name]) == "function" and
           not documented_meta(name, methods) then
          missing[#missing + 1] = label .. " " .. name
        end
      end
      assert.are.same({}, missing)
    end)
  end
end)
