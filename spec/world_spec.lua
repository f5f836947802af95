-- Worlds (obb.world2, obb.world3): every method and error, the safety
-- rules, and randomised checks that every query answers exactly what
-- testing each item's box in turn answers.
local obb = require "obb"
local H = require "spec.helpers"

local unpack = H.unpack

-- ---- brute force over a mirror of the world ------------------------------
-- A mirror is { items = {item, ...}, box = {[item] = box} } kept beside the
-- world by the random tests; the reference answers come from the boxes'
-- own methods, which the world's exact phase must agree with.

local function sorted_keys(list, key)
  local t = {}
  for i = 1, #list do t[i] = key(list[i]) end
  table.sort(t)
  return t
end

local function assert_same_items(got, want, what)
  local g = sorted_keys(got, tostring)
  local w = sorted_keys(want, tostring)
  if #g ~= #w then
    error(what .. ": " .. #g .. " items, expected " .. #w .. " (" ..
      table.concat(g, ",") .. " vs " .. table.concat(w, ",") .. ")", 2)
  end
  for i = 1, #w do
    if g[i] ~= w[i] then
      error(what .. ": got " .. table.concat(g, ",") .. ", expected " ..
        table.concat(w, ","), 2)
    end
  end
end

local records = H.records

local function firsts(recs)
  local t = {}
  for i = 1, #recs do t[i] = recs[i][1] end
  return t
end

local function brute_box(m, q)
  local t = {}
  for _, it in ipairs(m.items) do
    if q:intersects(m.box[it]) then t[#t + 1] = it end
  end
  return t
end

local function brute_point(m, ...)
  local t = {}
  for _, it in ipairs(m.items) do
    if m.box[it]:contains(...) then t[#t + 1] = it end
  end
  return t
end

-- item -> {t, normal...} for every box the ray hits
local function brute_ray(m, dim, o, d, max_t)
  local hits = {}
  for _, it in ipairs(m.items) do
    local b = m.box[it]
    local r
    if dim == 2 then
      r = H.pack(b:raycast(o[1], o[2], d[1], d[2], max_t))
    else
      r = H.pack(b:raycast(o[1], o[2], o[3], d[1], d[2], d[3], max_t))
    end
    if r[1] ~= nil then hits[it] = r end
  end
  return hits
end

local function brute_pairs(m)
  local t = {}
  for i = 1, #m.items do
    for j = i + 1, #m.items do
      local a, b = m.items[i], m.items[j]
      if m.box[a]:intersects(m.box[b]) then
        local x, y = tostring(a), tostring(b)
        if x > y then x, y = y, x end
        t[#t + 1] = x .. "|" .. y
      end
    end
  end
  return t
end

local function pair_keys(out, n)
  local t = {}
  for i = 1, n do
    local x, y = tostring(out[2 * i - 1]), tostring(out[2 * i])
    if x > y then x, y = y, x end
    t[i] = x .. "|" .. y
  end
  return t
end

local function mirror_remove(m, item)
  m.box[item] = nil
  for i = 1, #m.items do
    if m.items[i] == item then
      table.remove(m.items, i)
      return
    end
  end
end

-- ---- the API ----------------------------------------------------------------

describe("obb.world2", function()
  it("starts empty and names itself", function()
    local w = obb.world2()
    assert.equal(0, w:count())
    assert.equal(0, #w)
    assert.equal("obb.world2 (0 items)", tostring(w))
    assert.equal("obb.world3 (0 items)", tostring(obb.world3()))
  end)

  it("takes an optional margin >= 0", function()
    assert.equal(0, obb.world2(0):count())
    assert.equal(0, obb.world3(2.5):count())
    H.assert_argerror(1, "world2", "margin must be in [0, 1e6]", obb.world2, -1)
    H.assert_argerror(1, "world2", "number expected, got string", obb.world2, "1")
    H.assert_argerror(1, "world3", "finite number expected, got nan", obb.world3, 0 / 0)
    H.assert_argerror(2, "world2", "no value expected, got number", obb.world2, 1, 2)
  end)
end)

describe("world items", function()
  local w
  before_each(function() w = obb.world2() end)

  it("adds from numbers or a box and gets them back", function()
    assert.equal(w, w:add("a", 1, 2, 3, 4))
    w:add("b", obb.new2(5, 6, 1, 2, 0.5))
    w:add("c", 0, 0, 1, 1, 0.25)
    assert.equal(3, w:count())
    assert.same({ 1, 2, 3, 4, 0 }, { w:get("a") })
    local cx, cy, hx, hy, a = w:get("b")
    assert.same({ 5, 6, 1, 2 }, { cx, cy, hx, hy })
    assert.is_true(H.near(a, 0.5))
    local b = obb.new2(0, 0, 0, 0)
    assert.equal(b, w:get("c", b))
    assert.is_true(b == obb.new2(0, 0, 1, 1, 0.25))
  end)

  it("accepts any item but nil and NaN", function()
    local t, f = {}, function() end
    w:add(t, 0, 0, 1, 1)
    w:add(f, 0, 0, 1, 1)
    w:add(1, 0, 0, 1, 1)
    w:add(1.5, 0, 0, 1, 1)
    w:add(true, 0, 0, 1, 1)
    w:add(obb.new2(0, 0, 1, 1), 0, 0, 1, 1)
    assert.equal(6, w:count())
    assert.is_true(w:has(t) and w:has(f) and w:has(1) and w:has(1.5) and w:has(true))
    H.assert_argerror(2, "add", "item (any value but nil) expected, got nil",
      w.add, w, nil, 0, 0, 1, 1)
    H.assert_argerror(2, "add", "item must not be NaN", w.add, w, 0 / 0, 0, 0, 1, 1)
    assert.is_false(w:has(nil))
    assert.is_false(w:has(0 / 0))
    assert.is_false(w:has("other"))
  end)

  it("rejects a second add of the same item", function()
    w:add("a", 0, 0, 1, 1)
    H.assert_argerror(2, "add", "item is already in the world", w.add, w, "a", 0, 0, 1, 1)
    assert.equal(1, w:count())
  end)

  it("checks the box arguments, naming each", function()
    H.assert_argerror(3, "add", "number or obb.obb2 expected, got no value", w.add, w, "a")
    H.assert_argerror(3, "add", "number or obb.obb2 expected, got obb.obb3",
      w.add, w, "a", obb.new3(0, 0, 0, 1, 1, 1))
    H.assert_argerror(4, "add", "number expected, got no value", w.add, w, "a", 1)
    H.assert_argerror(5, "add", "half extent must be >= 0, got -1", w.add, w, "a", 0, 0, -1, 1)
    H.assert_argerror(6, "add", "half extent must be >= 0, got -1", w.add, w, "a", 0, 0, 1, -1)
    H.assert_argerror(4, "add", "finite number expected, got inf", w.add, w, "a", 0, 1 / 0, 1, 1)
    H.assert_argerror(7, "add", "finite number expected, got nan", w.add, w, "a", 0, 0, 1, 1, 0 / 0)
    H.assert_argerror(8, "add", "no value expected, got number", w.add, w, "a", 0, 0, 1, 1, 0, 9)
    H.assert_argerror(4, "add", "no value expected, got number", w.add, w, "a", obb.new2(0, 0, 1, 1), 5)
    H.assert_argerror(4, "add", "number expected, got string", w.add, w, "a", 0, "1", 1, 1)
    assert.equal(0, w:count()) -- nothing half-added
    assert.is_false(w:has("a"))
  end)

  it("updates a box, keeping its angle when none is given", function()
    w:add("a", 0, 0, 1, 1, 0.5)
    assert.equal(w, w:update("a", 10, 20, 2, 3))
    local cx, cy, hx, hy, a = w:get("a")
    assert.same({ 10, 20, 2, 3 }, { cx, cy, hx, hy })
    assert.is_true(H.near(a, 0.5))
    -- the rotation is kept as it was, bit for bit
    local got, ref = obb.new2(0, 0, 0, 0), obb.new2(0, 0, 1, 1, 0.5)
    w:get("a", got)
    assert.same({ ref:axes() }, { got:axes() })
    w:update("a", obb.new2(1, 1, 1, 1))
    assert.same({ 1, 1, 1, 1, 0 }, { w:get("a") })
    w:update("a", 1, 1, 1, 1, 1)
    assert.is_true(H.near(select(5, w:get("a")), 1))
  end)

  it("raises on an unknown item and leaves the world as it was", function()
    w:add("a", 0, 0, 1, 1)
    H.assert_argerror(2, "update", "item is not in the world", w.update, w, "b", 0, 0, 1, 1)
    H.assert_argerror(2, "remove", "item is not in the world", w.remove, w, "b")
    H.assert_argerror(2, "get", "item is not in the world", w.get, w, "b")
    H.assert_argerror(2, "collisions", "item is not in the world", w.collisions, w, "b", {})
    H.assert_argerror(2, "remove", "item (any value but nil) expected, got nil", w.remove, w, nil)
    H.assert_argerror(5, "update", "half extent must be >= 0, got -1", w.update, w, "a", 5, 0, -1, 1)
    assert.same({ 0, 0, 1, 1, 0 }, { w:get("a") })
    H.assert_argerror(3, "get", "obb.obb2 expected, got table", w.get, w, "a", {})
    assert.equal(1, w:count())
  end)

  it("removes items, which may then come back", function()
    w:add("a", 0, 0, 1, 1)
    w:add("b", 0, 0, 1, 1)
    assert.equal(w, w:remove("a"))
    assert.is_false(w:has("a"))
    assert.is_true(w:has("b"))
    assert.equal(1, w:count())
    H.assert_argerror(2, "remove", "item is not in the world", w.remove, w, "a")
    w:add("a", 5, 5, 1, 1)
    assert.same({ 5, 5, 1, 1, 0 }, { w:get("a") })
    assert.equal(2, #w)
  end)

  it("checks self", function()
    H.assert_argerror(1, "count", "obb.world expected, got table", w.count, {})
    H.assert_argerror(1, "add", "obb.world expected, got obb.obb2", w.add, obb.new2(0, 0, 1, 1), 1, 0, 0, 1, 1)
  end)
end)

describe("world3 items", function()
  it("adds from numbers (quaternion optional) or a box", function()
    local w = obb.world3()
    w:add("a", 1, 2, 3, 4, 5, 6)
    assert.same({ 1, 2, 3, 4, 5, 6, 0, 0, 0, 1 }, { w:get("a") })
    local s = math.sqrt(0.5)
    w:add("b", 0, 0, 0, 1, 1, 1, 0, 0, 1, 1)
    local r = { w:get("b") }
    H.assert_near_list({ r[7], r[8], r[9], r[10] }, { 0, 0, s, s })
    w:add("c", obb.new3(1, 1, 1, 1, 1, 1))
    w:update("b", 5, 5, 5, 2, 2, 2) -- keeps its rotation
    r = { w:get("b") }
    H.assert_near_list(r, { 5, 5, 5, 2, 2, 2, 0, 0, s, s })
    local b = obb.new3(0, 0, 0, 0, 0, 0)
    w:get("c", b)
    assert.is_true(b == obb.new3(1, 1, 1, 1, 1, 1))
    H.assert_argerror(9, "add", "quaternion is zero", w.add, w, "d", 0, 0, 0, 1, 1, 1, 0, 0, 0, 0)
    H.assert_argerror(11, "add", "number expected, got no value", w.add, w, "d", 0, 0, 0, 1, 1, 1, 0, 0)
    H.assert_argerror(3, "add", "number or obb.obb3 expected, got obb.obb2", w.add, w, "d", obb.new2(0, 0, 1, 1))
    H.assert_argerror(6, "update", "half extent must be >= 0, got -1", w.update, w, "a", 0, 0, 0, -1, 1, 1)
    assert.equal(3, w:count())
  end)
end)

describe("world queries", function()
  local w
  before_each(function()
    w = obb.world2()
    w:add("a", 0, 0, 1, 1)
    w:add("b", 1.5, 0, 1, 1, 0.3)
    w:add("c", 10, 10, 1, 1)
    w:add("d", 2, 0, 1, 1) -- touches a exactly at x = 1
  end)

  it("query_box fills out and returns the count", function()
    local out = {}
    assert.equal(2, w:query_box(obb.new2(0, 0, 0.5, 0.5, 1), out))
    assert_same_items(out, { "a", "b" }, "query_box")
    assert.equal(3, w:query_box(obb.new2(2, 2, 1, 1), out)) -- touches a, d
    assert_same_items(out, { "a", "b", "d" }, "query_box")
    assert.equal(1, w:query_box(obb.new2(11, 11, 0.5, 0.5), out))
    assert.same({ "c" }, out) -- the stale tail is cleared
    assert.equal(0, w:query_box(obb.new2(50, 50, 1, 1), out))
    assert.same({}, out)
  end)

  it("query_point counts the boundary as inside", function()
    local out = {}
    assert.equal(3, w:query_point(1, 0, out))
    assert_same_items(out, { "a", "b", "d" }, "query_point")
    assert.equal(1, w:query_point(11, 11, out))
    assert.same({ "c" }, out)
  end)

  it("raycast lists hits nearest first with t and normal", function()
    local out = {}
    local n = w:raycast(-5, 0.1, 1, 0, nil, out)
    assert.equal(3, n)
    assert.equal("a", out[1])
    assert.same({ 4, -1, 0 }, { out[2], out[3], out[4] })
    assert.is_true(out[6] <= out[10])
    assert.equal(12, #out)
    assert.equal(1, w:raycast(-5, 0.1, 1, 0, 4.5, out)) -- a segment
    assert.same({ "a", 4, -1, 0 }, out)
    assert.equal(0, w:raycast(-5, 0.1, -1, 0, math.huge, out))
    assert.same({}, out)
    -- an origin inside gives t = 0 and a zero normal
    assert.equal(1, w:raycast(10, 10, 0, 1, 0.5, out))
    assert.same({ "c", 0, 0, 0 }, out)
  end)

  it("pairs lists each intersecting pair once, touching included", function()
    local out = {}
    local n = w:pairs(out)
    assert.equal(3, n)
    assert.same({ "a|b", "a|d", "b|d" }, (function()
      local k = pair_keys(out, n); table.sort(k); return k end)())
    assert.equal(6, #out)
  end)

  it("collisions gives the others and the vectors that move the item out", function()
    local out = {}
    local n = w:collisions("a", out)
    assert.equal(2, n)
    local recs = records(out, n, 3)
    for _, r in ipairs(recs) do
      local nx, ny, depth = obb.new2(0, 0, 1, 1):penetration(
        obb.new2(w:get(r[1])))
      assert.is_true(H.near(r[2], nx * depth) and H.near(r[3], ny * depth))
    end
    assert_same_items(firsts(recs), { "b", "d" }, "collisions")
    assert.equal(0, w:collisions("c", out))
  end)

  it("calls the filter and keeps what it accepts", function()
    local out, seen = {}, {}
    local n = w:query_box(obb.new2(0, 0, 5, 5), out, function(item)
      seen[#seen + 1] = item
      return item ~= "b"
    end)
    assert.equal(2, n)
    assert_same_items(out, { "a", "d" }, "filtered")
    assert_same_items(seen, { "a", "b", "d" }, "filter calls")
    n = w:pairs(out, function(x, y) return x == "a" or y == "a" end)
    assert.equal(2, n)
    n = w:raycast(-5, 0.1, 1, 0, nil, out, function(item) return item == "d" end)
    assert.equal(1, n)
    assert.equal("d", out[1])
    assert.equal(4, #out)
    assert.equal(0, w:query_point(0, 0, out, function() return false end))
    assert.equal(1, w:collisions("a", out, function(o) return o == "d" end))
  end)

  it("makes no garbage once the out table has grown", function()
    local out, q = {}, obb.new2(0, 0, 3, 3)
    local keep = function() return true end
    local function round()
      w:update("a", 0, 0, 1, 1, 0.1)
      w:query_box(q, out, keep)
      w:query_point(1, 0, out)
      w:raycast(-5, 0.1, 1, 0, nil, out, keep)
      w:pairs(out, keep)
      w:collisions("a", out)
    end
    -- out and the world's buffers grow in the first round
    assert.are.equal(0, H.kib_allocated_by(function()
      for _ = 1, 200 do round() end
    end))
  end)

  it("checks the out table and the filter", function()
    H.assert_argerror(3, "query_box", "table expected, got no value", w.query_box, w, obb.new2(0, 0, 1, 1))
    H.assert_argerror(4, "query_box", "function, obb.responses or nil expected, got number",
      w.query_box, w, obb.new2(0, 0, 1, 1), {}, 1)
    H.assert_argerror(5, "query_box", "no value expected, got number", w.query_box, w, obb.new2(0, 0, 1, 1), {}, nil, 1)
    H.assert_argerror(2, "query_box", "obb.obb2 expected, got obb.obb3", w.query_box, w, obb.new3(0, 0, 0, 1, 1, 1), {})
    H.assert_argerror(3, "query_point", "finite number expected, got nan", w.query_point, w, 0, 0 / 0, {})
    H.assert_argerror(2, "pairs", "table expected, got no value", w.pairs, w)
    H.assert_argerror(4, "raycast", "direction must not be zero", w.raycast, w, 0, 0, 0, 0, 1, {})
    H.assert_argerror(6, "raycast", "max_t must be >= 0, got -1", w.raycast, w, 0, 0, 1, 0, -1, {})
    H.assert_argerror(6, "raycast", "max_t must not be nan", w.raycast, w, 0, 0, 1, 0, 0 / 0, {})
    H.assert_argerror(6, "raycast", "number expected, got table", w.raycast, w, 0, 0, 1, 0, {})
    H.assert_argerror(7, "raycast", "table expected, got no value", w.raycast, w, 0, 0, 1, 0, 1)
  end)
end)

describe("world safety", function()
  local w, box
  before_each(function()
    w = obb.world2()
    for i = 1, 10 do w:add(i, i, 0, 1, 1) end
    box = obb.new2(5, 0, 20, 20)
  end)

  it("refuses changes from a filter, and unlocks after the error", function()
    local out = {}
    local changes = {
      function() w:add("x", 0, 0, 1, 1) end,
      function() w:update(1, 0, 0, 1, 1) end,
      function() w:remove(2) end,
    }
    for i, change in ipairs(changes) do
      local verb = ({ "add", "update", "remove" })[i]
      H.assert_error_text("cannot " .. verb .. " items of a world during its query",
        w.query_box, w, box, out, change)
      H.assert_error_text("cannot " .. verb .. " items of a world during its query",
        w.pairs, w, out, change)
    end
    H.assert_error_text("cannot close a world during its query",
      w.query_point, w, 1, 0, out, function() w:close() end)
    -- unlocked again: changes work
    w:add("x", 0, 0, 1, 1)
    w:remove(2)
    assert.equal(10, w:count())
  end)

  it("passes a filter's error on and stays usable", function()
    local out = {}
    local ok, err = pcall(w.query_box, w, box, out, function() error("boom", 0) end)
    assert.is_false(ok)
    assert.equal("boom", err)
    ok, err = pcall(w.pairs, w, out, function() error({ code = 7 }) end)
    assert.is_false(ok)
    assert.equal(7, err.code)
    w:remove(1)
    assert.equal(9, w:query_box(box, out))
  end)

  it("allows queries from a filter", function()
    local out, inner = {}, {}
    local all = w:pairs({}) -- neighbours overlap, next but one touch
    assert.equal(17, all)
    local n = w:query_box(box, out, function(item)
      local k = w:query_point(item, 0, inner)
      assert(k == (item == 1 or item == 10) and 2 or 3)
      return w:pairs(inner) == all
    end)
    assert.equal(10, n)
  end)

  it("closes: methods then raise, closing again is harmless", function()
    w:close()
    w:close()
    assert.equal("obb.world2 (closed)", tostring(w))
    local calls = {
      function() return w:count() end,
      function() return #w end,
      function() return w:add("z", 0, 0, 1, 1) end,
      function() return w:update(1, 0, 0, 1, 1) end,
      function() return w:remove(1) end,
      function() return w:get(1) end,
      function() return w:has(1) end,
      function() return w:query_box(box, {}) end,
      function() return w:query_point(0, 0, {}) end,
      function() return w:raycast(0, 0, 1, 0, nil, {}) end,
      function() return w:pairs({}) end,
      function() return w:collisions(1, {}) end,
    }
    for _, f in ipairs(calls) do H.assert_error_text("world is closed", f) end
  end)

  it("is collected, and frees its items", function()
    local weak = setmetatable({}, { __mode = "v" })
    do
      local item = {}
      weak[1] = item
      local w2 = obb.world2()
      w2:add(item, 0, 0, 1, 1)
    end
    w = nil
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak[1])
  end)

  if _VERSION == "Lua 5.4" then
    it("closes as a to-be-closed variable", function()
      local f = assert(load([[
        local obb = ...
        local keep
        do
          local w <close> = obb.world2()
          w:add(1, 0, 0, 1, 1)
          keep = w
        end
        return keep
      ]]))
      local closed = f(obb)
      H.assert_error_text("world is closed", closed.count, closed)
    end)
  end
end)

-- ---- randomised agreement with brute force ---------------------------------

local function random_box2(r, spread)
  local big = r.uniform() < 0.05
  local hx = big and r.range(2, 8) or r.range(0, 1.5)
  local hy = r.uniform() < 0.05 and 0 or (big and r.range(2, 8) or r.range(0, 1.5))
  return r.range(-spread, spread), r.range(-spread, spread), hx, hy, r.range(-4, 4)
end

local function random_box3(r, spread)
  local qx, qy, qz, qw = r.quat()
  return r.range(-spread, spread), r.range(-spread, spread), r.range(-spread, spread),
    r.range(0, 1.5), r.range(0, 1.5), r.range(0, 1.5), qx, qy, qz, qw
end

-- Applies random adds, updates and removes to world and mirror alike.
local function churn(r, w, m, dim, ops, spread, next_id)
  for _ = 1, ops do
    local k = r.uniform()
    if k < 0.45 or #m.items == 0 then
      next_id = next_id + 1
      -- items of several types, including tables
      local item = next_id % 3 == 0 and { id = next_id } or
        (next_id % 3 == 1 and next_id or "i" .. next_id)
      local args = dim == 2 and { random_box2(r, spread) } or { random_box3(r, spread) }
      w:add(item, unpack(args))
      m.items[#m.items + 1] = item
      m.box[item] = dim == 2 and obb.new2(unpack(args)) or obb.new3(unpack(args))
    elseif k < 0.8 then
      local item = m.items[r.int(1, #m.items)]
      local args
      if r.uniform() < 0.5 then -- a small move, which usually stays in the leaf
        local b = m.box[item]
        local c = { b:center() }
        for i = 1, dim do c[i] = c[i] + r.range(-0.3, 0.3) end
        if dim == 2 then
          args = { c[1], c[2], b:half_extents() }
          args[5] = b:angle()
        else
          local e = { b:half_extents() }
          args = { c[1], c[2], c[3], e[1], e[2], e[3], b:rotation() }
        end
      else
        args = dim == 2 and { random_box2(r, spread) } or { random_box3(r, spread) }
      end
      w:update(item, unpack(args))
      m.box[item] = dim == 2 and obb.new2(unpack(args)) or obb.new3(unpack(args))
    else
      local item = m.items[r.int(1, #m.items)]
      w:remove(item)
      mirror_remove(m, item)
    end
  end
  return next_id
end

local function check_world(r, w, m, dim, spread)
  local out = {}
  assert.equal(#m.items, w:count())
  -- the world keeps the boxes exactly
  for _, it in ipairs(m.items) do
    local b = dim == 2 and obb.new2(0, 0, 0, 0) or obb.new3(0, 0, 0, 0, 0, 0)
    w:get(it, b)
    assert.is_true(b == m.box[it])
  end
  -- boxes
  for _ = 1, 3 do
    local q = dim == 2 and obb.new2(random_box2(r, spread)) or obb.new3(random_box3(r, spread))
    local n = w:query_box(q, out)
    assert.equal(n, #out)
    assert_same_items(out, brute_box(m, q), "query_box")
  end
  -- points, some on items' centers (inside) or corners (on the boundary)
  for k = 1, 3 do
    local p
    if k == 1 and #m.items > 0 then
      p = { m.box[m.items[r.int(1, #m.items)]]:center() }
    elseif k == 2 and #m.items > 0 then
      local c = { m.box[m.items[r.int(1, #m.items)]]:corners() }
      p = { c[1], c[2], dim == 3 and c[3] or nil }
    else
      p = {}
      for i = 1, dim do p[i] = r.range(-spread, spread) end
    end
    p[dim + 1] = out
    local n = w:query_point(unpack(p, 1, dim + 1))
    assert.equal(n, #out)
    p[dim + 1] = nil
    assert_same_items(out, brute_point(m, unpack(p, 1, dim)), "query_point")
  end
  -- rays and segments
  for k = 1, 3 do
    local o, d = {}, {}
    for i = 1, dim do
      o[i] = r.range(-spread * 1.5, spread * 1.5)
      d[i] = r.range(-1, 1)
    end
    local max_t = k == 1 and math.huge or r.range(0, spread * 3)
    local args = {}
    for i = 1, dim do args[i] = o[i]; args[dim + i] = d[i] end
    args[2 * dim + 1], args[2 * dim + 2] = max_t, out
    local n = w:raycast(unpack(args, 1, 2 * dim + 2))
    local recs = records(out, n, dim + 2)
    local want = brute_ray(m, dim, o, d, max_t)
    local wanted = {}
    for it in pairs(want) do wanted[#wanted + 1] = it end
    assert_same_items(firsts(recs), wanted, "raycast")
    for i, rec in ipairs(recs) do
      local ref = want[rec[1]]
      for j = 1, dim + 1 do assert.equal(ref[j], rec[j + 1]) end
      if i > 1 then assert.is_true(recs[i - 1][2] <= rec[2], "nearest first") end
    end
  end
  -- all pairs
  local n = w:pairs(out)
  assert.equal(2 * n, #out)
  assert_same_items(pair_keys(out, n), brute_pairs(m), "pairs")
  -- the collisions of one item
  if #m.items > 0 then
    local it = m.items[r.int(1, #m.items)]
    local want = {}
    for _, o in ipairs(m.items) do
      if o ~= it and m.box[it]:intersects(m.box[o]) then want[#want + 1] = o end
    end
    n = w:collisions(it, out)
    local recs = records(out, n, dim + 1)
    assert_same_items(firsts(recs), want, "collisions")
  end
end

describe("world queries agree with brute force", function()
  it("over thousands of small random 2D worlds", function()
    local r = H.rng(4242)
    for _ = 1, 2000 do
      local w, m = obb.world2(r.uniform() < 0.2 and 0 or nil), { items = {}, box = {} }
      local spread = r.range(1, 12)
      local id = churn(r, w, m, 2, r.int(0, 30), spread, 0)
      check_world(r, w, m, 2, spread)
      churn(r, w, m, 2, r.int(0, 30), spread, id)
      check_world(r, w, m, 2, spread)
    end
  end)

  it("over random 3D worlds", function()
    local r = H.rng(777)
    for _ = 1, 600 do
      local w, m = obb.world3(), { items = {}, box = {} }
      local spread = r.range(1, 8)
      local id = churn(r, w, m, 3, r.int(0, 30), spread, 0)
      check_world(r, w, m, 3, spread)
      churn(r, w, m, 3, r.int(0, 30), spread, id)
      check_world(r, w, m, 3, spread)
    end
  end)

  it("in larger worlds through many updates and removals", function()
    local r = H.rng(99)
    for round = 1, 4 do
      local dim = round <= 2 and 2 or 3
      local w = dim == 2 and obb.world2() or obb.world3()
      local m = { items = {}, box = {} }
      local spread = 25
      local id = churn(r, w, m, dim, 400, spread, 0)
      for _ = 1, 6 do
        id = churn(r, w, m, dim, 300, spread, id)
        check_world(r, w, m, dim, spread)
      end
    end
  end)

  -- Dense worlds: the grid sweeps whole rows of cells there (its dense
  -- levels), against a reference that shares nothing with it: boxes sorted
  -- by their lowest x, each tested with the exact test against those that
  -- start before it ends.
  local function swept_pairs(boxes)
    local order, lo, hi = {}, {}, {}
    for i, b in ipairs(boxes) do
      local t = { b:aabb() }
      order[i], lo[i], hi[i] = i, t[1], t[#t / 2 + 1]
    end
    table.sort(order, function(a, b) return lo[a] < lo[b] end)
    local keys = {}
    for k = 1, #order do
      local i = order[k]
      for q = k + 1, #order do
        local j = order[q]
        if lo[j] > hi[i] then break end
        if boxes[i]:intersects(boxes[j]) then
          local x, y = tostring(i), tostring(j) -- ordered as pair_keys does
          if x > y then x, y = y, x end
          keys[#keys + 1] = x .. "|" .. y
        end
      end
    end
    return keys
  end

  it("in dense worlds of mixed sizes, 2D and 3D", function()
    local r = H.rng(2026)
    for _, case in ipairs({ { 2, 3000, 60 }, { 3, 2500, 14 } }) do
      local dim, n, spread = case[1], case[2], case[3]
      local w, boxes = dim == 2 and obb.world2() or obb.world3(), {}
      for i = 1, n do
        -- mostly unit boxes, some ten times smaller or larger: several
        -- levels, each dense, and pairs across them
        local k = r.uniform()
        local s = k < 0.1 and 0.1 or (k < 0.95 and 1 or 6)
        local args
        if dim == 2 then
          args = { r.range(-spread, spread), r.range(-spread, spread),
                   s * r.range(0.2, 1), s * r.range(0.2, 1), r.range(-4, 4) }
        else
          local qx, qy, qz, qw = r.quat()
          args = { r.range(-spread, spread), r.range(-spread, spread), r.range(-spread, spread),
                   s * r.range(0.2, 1), s * r.range(0.2, 1), s * r.range(0.2, 1), qx, qy, qz, qw }
        end
        w:add(i, unpack(args))
        boxes[i] = dim == 2 and obb.new2(unpack(args)) or obb.new3(unpack(args))
      end
      local out = {}
      local np = w:pairs(out)
      assert.is_true(np > n / 2, "a crowded world has many pairs")
      assert_same_items(pair_keys(out, np), swept_pairs(boxes), dim .. "D pairs")
    end
  end)

  it("with boxes in one spot, touching, and of wildly different sizes", function()
    local w, m = obb.world2(), { items = {}, box = {} }
    local function put(item, ...)
      w:add(item, ...)
      m.items[#m.items + 1] = item
      m.box[item] = obb.new2(...)
    end
    for i = 1, 40 do put("same" .. i, 3, 3, 1, 1) end       -- all in one spot
    for i = 1, 20 do put("row" .. i, 10 + 2 * i, 0, 1, 1) end -- a row, each touching the next
    put("huge", 0, 0, 1e4, 1e4, 0.3)
    put("tiny", 7, 7, 1e-6, 1e-6)
    put("point", -5, -5, 0, 0)
    put("segment", -8, 0, 3, 0, 1)
    check_world(H.rng(5), w, m, 2, 40)
    local out = {}
    assert.equal(1, w:query_point(-5, -5, out, function(i) return i == "point" end))
  end)

  it("with coordinates and sizes at the ends of the double range", function()
    for _, dim in ipairs({ 2, 3 }) do
      local w, m = dim == 2 and obb.world2() or obb.world3(), { items = {}, box = {} }
      local function put(item, c, e)
        local args = dim == 2 and { c, -c, e, e, 0.5 } or { c, -c, c, e, e, e, 0, 0, 0.3, 1 }
        w:add(item, unpack(args))
        m.items[#m.items + 1] = item
        m.box[item] = dim == 2 and obb.new2(unpack(args)) or obb.new3(unpack(args))
      end
      put("max", 1e308, 1e308) -- its bounds overflow to infinity
      put("far", -1e300, 1e299)
      put("far2", -1e300, 1e299)
      put("huge", 0, 1e250)
      put("tiny", 1e-300, 1e-300)
      put("tiny2", 1.5e-300, 1e-300)
      put("zero", 0, 0)
      put("mid", 12345.678, 1)
      check_world(H.rng(6), w, m, dim, 1e6)
      local out = {}
      assert.is_true(w:pairs(out) >= 2) -- far with far2, tiny with tiny2
    end
  end)
end)
