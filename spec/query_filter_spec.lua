-- spec/query_filter_spec.lua: a response set (obb.responses) in the filter's
-- place of every query and cast (docs/reference.md, "Worlds", the rule
-- "Filters"): world:query_box, query_point, raycast, cast, cast_turning,
-- pairs and collisions. A set keeps every item whose class it answers
-- anything but false, so it must give exactly what the function filter
--   function(item) return set[world:class(item)] end
-- gives (pairs: function(a, b) return set[w:class(a)] and set[w:class(b)]
-- end), the same items in the same order, the numbers bit for bit. The set
-- is read in C (no Lua call per item); on LuaJIT's FFI path query_box,
-- query_point, raycast, cast and cast_turning take it without the classic
-- method, and the function filter always takes the classic one, so there
-- the two paths are compared too.
local obb = require "obb"
local H = require "spec.helpers"

local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"
local NAMES = { "touch", "cross", "slide", "bounce" }
local WM = getmetatable(obb.world2())
local J = package.loaded["obb.jit"]
local CW = J and J.classic and J.classic[WM] or WM -- the classic methods
local ffi_path = CW ~= WM
-- The classic methods (CW holds only the ones the FFI path replaced),
-- taken before any spec counts the calls of CW's.
local CLASSIC = {}
for _, name in ipairs({ "query_box", "query_point", "raycast", "cast", "cast_turning", "pairs", "collisions" }) do
  CLASSIC[name] = CW[name] or WM[name]
end
local function classic(name) return CLASSIC[name] end
local FAST = { query_box = true, query_point = true, raycast = true, cast = true, cast_turning = true }

-- Equal as values, numbers bit for bit (the sign of a zero too).
local function same(x, y)
  if type(x) == "number" and type(y) == "number" then
    if x ~= x then return y ~= y end
    return x == y and (x ~= 0 or 1 / x == 1 / y)
  end
  return rawequal(x, y)
end

-- The function filter a set stands for in world w's queries.
local function filter_of(w, set)
  return function(item) return set[w:class(item)] end
end
local function pair_filter_of(w, set)
  return function(a, b) return set[w:class(a)] and set[w:class(b)] end
end

-- A random table for obb.responses: a few of the classes items get (0..4,
-- 200, 255) answered false or by a name, and now and then a default.
local CLASSES = { 0, 1, 2, 3, 4, 200, 255 }
local function random_table(r)
  local t = {}
  for _, c in ipairs(CLASSES) do
    local k = r.int(0, 6)
    if k == 0 or k == 1 then t[c] = false elseif k <= 5 then t[c] = NAMES[k - 1] end
  end
  local d = r.int(0, 5)
  if d == 0 then t.default = false elseif d <= 4 then t.default = NAMES[d] end
  return t
end

-- A random world of dimension dim (with a cell size now and then): items
-- of several key types, turned boxes and boxes on an integer grid that
-- touch exactly, random classes; then removals and adds (ids reused, their
-- class back to 0) and class changes. Returns it, its live items and its
-- size.
local function random_world(r, dim)
  local size = 12
  local w
  if r.int(1, 3) == 1 then
    w = (dim == 2 and obb.world2 or obb.world3)({ cell = r.range(0.5, 4) })
  else
    w = dim == 2 and obb.world2() or obb.world3()
  end
  local live = {}
  local function numbers()
    if r.int(1, 3) == 1 then
      if dim == 2 then return r.int(0, size), r.int(0, size), r.int(0, 2), r.int(0, 2) end
      return r.int(0, size), r.int(0, size), r.int(0, size), r.int(0, 2), r.int(0, 2), r.int(0, 2)
    end
    if dim == 2 then
      return r.range(0, size), r.range(0, size), r.range(0, 2), r.range(0, 2), r.range(-3, 3)
    end
    local qx, qy, qz, qw = r.quat()
    return r.range(0, size), r.range(0, size), r.range(0, size), r.range(0, 2), r.range(0, 2),
      r.range(0, 2), qx, qy, qz, qw
  end
  local n = r.int(20, LIGHT and 40 or 90)
  for i = 1, n do
    local item = ({ i, "s" .. i, { i } })[r.int(1, 3)]
    w:add(item, numbers())
    w:set_class(item, CLASSES[r.int(1, #CLASSES)])
    live[#live + 1] = item
  end
  for _ = 1, r.int(0, 10) do -- out, and others in (ids reused)
    local k = r.int(1, #live)
    w:remove(live[k])
    live[k] = "new" .. k .. "_" .. r.int(1, 1e6)
    if not w:has(live[k]) then w:add(live[k], numbers()) end
    if r.int(1, 2) == 1 then w:set_class(live[k], CLASSES[r.int(1, #CLASSES)]) end
  end
  return w, live, size
end

-- The arguments of a random call of method name on world w (before the
-- out table), as a packed list.
local function random_args(r, w, dim, live, size, name)
  local a = { n = 0 }
  local function put(x) a.n = a.n + 1; a[a.n] = x end
  local function num() return r.range(-2, size + 2) end
  local function box()
    if dim == 2 then return obb.new2(num(), num(), r.range(0, 4), r.range(0, 4), r.range(-3, 3)) end
    return obb.new3(num(), num(), num(), r.range(0, 4), r.range(0, 4), r.range(0, 4), r.quat())
  end
  if name == "query_box" then put(box())
  elseif name == "query_point" then
    if r.int(1, 2) == 1 then -- at an item's center: something to find
      local c = { w:get(live[r.int(1, #live)]) }
      for k = 1, dim do put(c[k]) end
    else
      for _ = 1, dim do put(num()) end
    end
  elseif name == "raycast" then
    for _ = 1, dim do put(num()) end
    for _ = 1, dim do put(r.range(-1, 1)) end
    if a[dim + 1] == 0 then a[dim + 1] = 1 end
    put(({ nil, math.huge, r.range(0, 30) })[r.int(1, 3)])
  elseif name == "cast" or name == "cast_turning" then
    put(box())
    for _ = 1, dim do put(r.range(-8, 8)) end
    if name == "cast_turning" then
      for _ = 1, dim == 2 and 1 or 3 do put(r.range(-2, 2)) end
    end
  elseif name == "collisions" then put(live[r.int(1, #live)])
  end
  return a
end

local METHODS = { "query_box", "query_point", "raycast", "cast", "cast_turning", "pairs", "collisions" }

-- Calls w[name] with args, then out, then filter; the packed results.
local function call(w, name, args, out, filter)
  local a = {}
  for k = 1, args.n do a[k] = args[k] end
  a[args.n + 1] = out
  a[args.n + 2] = filter
  return H.pack(w[name](w, H.unpack(a, 1, args.n + 2)))
end

-- Counts the calls each classic method gets while run runs (FFI path).
local function counting(run)
  local calls, saved = {}, {}
  for name in pairs(FAST) do
    local f = CW[name]
    saved[name], calls[name] = f, 0
    CW[name] = function(...) calls[name] = calls[name] + 1; return f(...) end
  end
  local ok, err = pcall(run)
  for name, f in pairs(saved) do CW[name] = f end
  if not ok then error(err, 0) end
  return calls
end

describe("a response set as a query's filter", function()
  for _, dim in ipairs({ 2, 3 }) do
    it(dim .. "D: gives what the function filter it stands for gives, in the same order, bit for bit", function()
      local r = H.rng(dim == 2 and 40401 or 40403)
      local worlds = LIGHT and 8 or 25
      local found, left_out, calls = {}, 0, 0
      for _, name in ipairs(METHODS) do found[name] = 0 end
      local fallbacks = counting(function()
        for wi = 1, worlds do
          local w, live, size = random_world(r, dim)
          -- out tables reused, and now and then holding a longer result
          local outA, outB = {}, {}
          for _ = 1, LIGHT and 40 or 120 do
            local name = METHODS[r.int(1, #METHODS)]
            local t = random_table(r)
            local set = obb.responses(t)
            local fn = name == "pairs" and pair_filter_of(w, set) or filter_of(w, set)
            local args = random_args(r, w, dim, live, size, name)
            if r.int(1, 8) == 1 then
              for k = 1, r.int(1, 30) do outA[k], outB[k] = k, k end
            end
            local ra = call(w, name, args, outA, set)
            local rb
            -- the function filter on the classic method (on the FFI path
            -- it would go there anyway)
            rb = H.pack(classic(name)(w, H.unpack((function()
              local a = {}
              for k = 1, args.n do a[k] = args[k] end
              a[args.n + 1], a[args.n + 2] = outB, fn
              return a
            end)(), 1, args.n + 2)))
            calls = calls + 1
            local what = ("world %d, %s with %s"):format(wi, name, tostring(set))
            assert.equal(rb.n, ra.n, what)
            for k = 1, rb.n do
              assert.is_true(same(ra[k], rb[k]), what .. ": result " .. k .. " " ..
                tostring(ra[k]) .. " vs " .. tostring(rb[k]))
            end
            assert.equal(#outB, #outA, what)
            for k = 1, #outB do
              assert.is_true(same(outA[k], outB[k]), what .. ": out " .. k .. " " ..
                tostring(outA[k]) .. " vs " .. tostring(outB[k]))
            end
            assert.is_nil(outA[#outA + 1])
            found[name] = found[name] + ra[1]
            -- what the set left out: the same query without a filter
            local all = call(w, name, args, {}, nil)[1]
            assert.is_true(all >= ra[1])
            left_out = left_out + all - ra[1]
            if r.int(1, 15) == 1 then -- a class changes between queries
              w:set_class(live[r.int(1, #live)], CLASSES[r.int(1, #CLASSES)])
            end
          end
          w:close()
        end
      end)
      -- every method found items through sets, and sets left items out
      for name, n in pairs(found) do
        assert.is_true(n >= (LIGHT and 5 or 50), name .. " found " .. n .. " items")
      end
      assert.is_true(left_out >= 100, "left out " .. left_out)
      if ffi_path then
        -- each set call of a fast method took the FFI path (the function
        -- filter's calls went to the classic methods without the counter)
        for name in pairs(FAST) do assert.equal(0, fallbacks[name], name .. " fell back") end
      end
      assert.is_true(calls > 0)
    end)
  end

  it("keeps an item whose class the set answers anything but false", function()
    local w, out = obb.world2(), {}
    for c = 0, 5 do w:add(c, c * 3, 0, 1, 1):set_class(c, c) end
    local set = obb.responses({ [0] = "touch", [1] = "cross", [2] = "slide", [3] = "bounce", [4] = false })
    assert.equal(5, w:query_box(obb.new2(7.5, 0, 10, 1), out, set)) -- 5 by the default, "slide"
    table.sort(out)
    assert.same({ 0, 1, 2, 3, 5 }, out)
    set = obb.responses({ default = false, [2] = "touch", [5] = "cross" })
    assert.equal(2, w:query_box(obb.new2(7.5, 0, 10, 1), out, set))
    table.sort(out)
    assert.same({ 2, 5 }, out)
    -- nearest first, as without a set
    assert.equal(2, w:raycast(-5, 0, 1, 0, nil, out, set))
    assert.same({ 2, 10, -1, 0, 5, 19, -1, 0 }, out)
    assert.equal(1, w:query_point(6, 0, out, set))
    assert.same({ 2 }, out)
    assert.equal(0, w:query_point(3, 0, out, set))
    assert.same({}, out)
    local box = obb.new2(-5, 0, 0.5, 0.5)
    assert.equal(2, w:cast(box, 30, 0, out, set))
    assert.same({ 2, 9.5 / 30, -1, 0, 5, 18.5 / 30, -1, 0 }, out)
    assert.equal(2, w:cast_turning(box, 30, 0, 0, out, set))
    assert.same({ 2, 9.5 / 30, -1, 0, 5, 18.5 / 30, -1, 0 }, out)
  end)

  it("keeps a pair of pairs() when it keeps both items, and collisions by the other's class", function()
    local w, out = obb.world2(), {}
    w:add("wall", 0, 0, 1, 1)
    w:add("coin", 1, 0, 1, 1):set_class("coin", 1)
    w:add("bullet", 0, 1, 1, 1):set_class("bullet", 2)
    assert.equal(3, w:pairs(out))
    assert.equal(1, w:pairs(out, obb.responses({ [2] = false })))
    local a, b = out[1], out[2]
    if a ~= "wall" then a, b = b, a end
    assert.same({ "wall", "coin" }, { a, b })
    assert.equal(0, w:pairs(out, obb.responses({ [1] = false, [2] = false })))
    assert.same({}, out)
    assert.equal(1, w:collisions("wall", out, obb.responses({ [1] = false })))
    assert.equal("bullet", out[1])
    -- the item's own class plays no part
    assert.equal(2, w:collisions("coin", out, obb.responses({ [1] = false })))
  end)

  it("is read in C: no Lua runs per item (the set's own table is not read)", function()
    local w, out = obb.world2(), {}
    for i = 1, 10 do w:add(i, i, 0, 1, 1):set_class(i, i % 2) end
    local t = { [1] = false }
    local set = obb.responses(t)
    t[1], t[0] = "slide", false -- the table no longer matters
    assert.equal(5, w:query_box(obb.new2(5, 0, 10, 1), out, set))
    for k = 1, 5 do assert.equal(0, out[k] % 2) end
    -- a hook counting calls sees as many with the set as without a filter,
    -- and one more per item with the function filter (the classic methods:
    -- on LuaJIT's FFI path the methods are Lua functions that run traces,
    -- which call no hooks)
    local raycast, pairs_of, query_box = classic("raycast"), classic("pairs"), classic("query_box")
    local function calls(filter)
      local n = 0
      debug.sethook(function() n = n + 1 end, "c")
      raycast(w, 0, 0, 1, 0, nil, out, filter)
      pairs_of(w, out, filter)
      query_box(w, obb.new2(5, 0, 10, 1), out, filter)
      debug.sethook()
      return n
    end
    local none = calls(nil)
    assert.equal(none, calls(set))
    assert.is_true(calls(filter_of(w, set)) >= none + 10 + 10)
  end)

  it("makes no garbage, on every method", function()
    local w2, w3 = obb.world2(), obb.world3()
    for i = 1, 35 do
      w2:add(i, i % 7, math.floor(i / 7), 1, 1):set_class(i, i % 3)
      w3:add(i, i % 7, math.floor(i / 7), 0, 1, 1, 1):set_class(i, i % 3)
    end
    local set = obb.responses({ [1] = false, [2] = "touch" })
    local b2, b3 = obb.new2(3, 2, 2, 1.5, 0.3), obb.new3(3, 2, 0, 2, 1.5, 1)
    local o2, o3 = {}, {}
    local rounds = LIGHT and 100 or 1000
    local function calls()
      for _ = 1, rounds do
        w2:query_box(b2, o2, set); w2:query_point(3, 2, o2, set)
        w2:raycast(0, 0.5, 1, 0, nil, o2, set); w2:cast(b2, 4, 0, o2, set)
        w2:cast_turning(b2, 4, 0, 0.5, o2, set); w2:collisions(5, o2, set)
        w3:query_box(b3, o3, set); w3:query_point(3, 2, 0, o3, set)
        w3:raycast(0, 0.5, 0, 1, 0, 0, nil, o3, set); w3:cast(b3, 4, 0, 0, o3, set)
        w3:cast_turning(b3, 4, 0, 0, 0, 0.5, 0, o3, set); w3:collisions(5, o3, set)
      end
      w2:pairs(o2, set); w3:pairs(o3, set)
    end
    assert.is_true(w2:query_box(b2, o2, set) > 1 and w3:query_box(b3, o3, set) > 1)
    assert.are.equal(0, H.kib_allocated_by(calls))
  end)

  if ffi_path then
    it("takes the FFI path on LuaJIT for query_box, query_point, raycast, cast and cast_turning", function()
      local w2, w3 = obb.world2(), obb.world3()
      for i = 1, 20 do
        w2:add(i, i % 5, math.floor(i / 5), 1, 1):set_class(i, i % 3)
        w3:add(i, i % 5, math.floor(i / 5), 0, 1, 1, 1):set_class(i, i % 3)
      end
      local set = obb.responses({ [1] = false })
      local out = {}
      local calls = counting(function()
        for _ = 1, 100 do
          assert.is_true(w2:query_box(obb.new2(2, 2, 2, 2), out, set) > 1)
          assert.is_true(w2:query_point(2, 2, out, set) > 0)
          assert.is_true(w2:raycast(-3, 2, 1, 0, nil, out, set) > 1)
          assert.is_true(w3:raycast(-3, 2, 0, 1, 0, 0, 50, out, set) > 1)
          assert.is_true(w2:cast(obb.new2(-3, 2, 0.5, 0.5), 10, 0, out, set) > 1)
          assert.is_true(w2:cast_turning(obb.new2(-3, 2, 0.5, 0.5), 10, 0, 1, out, set) > 1)
          assert.is_true(w3:query_box(obb.new3(2, 2, 0, 2, 2, 2), out, set) > 1)
          assert.is_true(w3:query_point(2, 2, 0, out, set) > 0)
          assert.is_true(w3:cast(obb.new3(-3, 2, 0, 0.5, 0.5, 0.5), 10, 0, 0, out, set) > 1)
          assert.is_true(w3:cast_turning(obb.new3(-3, 2, 0, 0.5, 0.5, 0.5), 10, 0, 0, 0, 1, 0, out, set) > 1)
        end
      end)
      for name in pairs(FAST) do assert.equal(0, calls[name], name) end
    end)

    -- Between the FFI call and the writing of its hits, Lua runs (a
    -- finalizer at a GC step; here a count hook) and may take an item out
    -- of the world: the call then goes to the classic method, and out
    -- holds whole records of one answer, no hole, no stale tail.
    it("casts and rays leave no hole in out when an item leaves the world while they write it", function()
      local jit_ = rawget(_G, "jit")
      for _, dim in ipairs({ 2, 3 }) do
        local w = dim == 2 and obb.world2() or obb.world3()
        local function add(i)
          if dim == 2 then w:add(i, i, 0, 0.6, 0.6):set_class(i, i % 3)
          else w:add(i, i, 0, 0, 0.6, 0.6, 0.6):set_class(i, i % 3) end
        end
        for i = 1, 40 do add(i) end
        local box = dim == 2 and obb.new2(0, 0, 0.5, 0.5) or obb.new3(0, 0, 0, 0.5, 0.5, 0.5)
        local set = obb.responses({ [1] = false })
        local stride = dim + 2
        local out, bad, gone = {}, 0, 0
        jit_.flush(); jit_.off()
        for step = 1, 1500 do
          local victim = step % 40 + 1
          debug.sethook(function()
            debug.sethook()
            if w:has(victim) then w:remove(victim); gone = gone + 1 end
          end, "", step % 400 + 1)
          local n
          local k = step % 3
          local filter = step % 5 < 2 and set or nil
          if k == 0 then n = dim == 2 and w:cast(box, 45, 0, out, filter) or w:cast(box, 45, 0, 0, out, filter)
          elseif k == 1 then
            n = dim == 2 and w:cast_turning(box, 45, 0, 0.5, out, filter)
              or w:cast_turning(box, 45, 0, 0, 0, 0.5, 0, out, filter)
          else
            n = dim == 2 and w:raycast(-1, 0, 1, 0, nil, out, filter)
              or w:raycast(-1, 0, 0, 1, 0, 0, nil, out, filter)
          end
          debug.sethook()
          for i = 1, stride * n do
            if out[i] == nil then bad = bad + 1; break end
          end
          if out[stride * n + 1] ~= nil then bad = bad + 1 end
          if not w:has(victim) then add(victim) end
        end
        jit_.on()
        assert.is_true(gone > 100, gone .. " removals")
        assert.equal(0, bad)
        w:close()
      end
    end)
  end
end)

describe("a query's filter argument", function()
  local function world(dim)
    local w = dim == 2 and obb.world2() or obb.world3()
    for i = 1, 6 do
      if dim == 2 then w:add(i, i, 0, 1, 1) else w:add(i, i, 0, 0, 1, 1, 1) end
      w:set_class(i, i % 2)
    end
    return w
  end
  -- Each method's arguments before out, and the filter's argument number
  -- as a method call counts it.
  local function cases(dim)
    local box = dim == 2 and obb.new2(3, 0, 3, 1) or obb.new3(3, 0, 0, 3, 1, 1)
    local p = dim == 2 and { 3, 0 } or { 3, 0, 0 }
    local ray = dim == 2 and { 0, 0, 1, 0, 10 } or { 0, 0, 0, 1, 0, 0, 10 }
    local d = dim == 2 and { 8, 0 } or { 8, 0, 0 }
    local dt = dim == 2 and { 8, 0, 1 } or { 8, 0, 0, 0, 1, 0 }
    local function cat(a, b)
      local t = { n = 0 }
      for _, x in ipairs(a) do t.n = t.n + 1; t[t.n] = x end
      for _, x in ipairs(b or {}) do t.n = t.n + 1; t[t.n] = x end
      return t
    end
    return {
      { "query_box", cat({ box }) }, { "query_point", cat(p) }, { "raycast", cat(ray) },
      { "cast", cat({ box }, d) }, { "cast_turning", cat({ box }, dt) }, { "pairs", cat({}) },
      { "collisions", cat({ 3 }) },
    }
  end

  for _, dim in ipairs({ 2, 3 }) do
    it(dim .. "D: refuses what is neither a function nor a set, naming it, and changes nothing", function()
      local w = world(dim)
      local msg = "function, obb.responses or nil expected, got "
      local other = dim == 2 and obb.world3() or obb.world2()
      local bad = {
        { "slide", "string" },             -- a response name (moves take one)
        { { [1] = false }, "table" },      -- the table, not the set it makes
        { 5, "number" }, { true, "boolean" }, { false, "boolean" },
        { obb.new2(0, 0, 1, 1), "obb.obb2" }, { other, "obb.world" },
        { coroutine.create(function() end), "thread" },
      }
      for _, c in ipairs(cases(dim)) do
        local name, args = c[1], c[2]
        for _, b in ipairs(bad) do
          local out = { "keep", 1, 2 }
          local a = {}
          for k = 1, args.n do a[k] = args[k] end
          a[args.n + 1], a[args.n + 2] = out, b[1]
          H.assert_argerror(args.n + 3, name, msg .. b[2], w[name], w, H.unpack(a, 1, args.n + 2))
          assert.same({ "keep", 1, 2 }, out, name)
        end
        -- an extra argument after a set
        local a = {}
        for k = 1, args.n do a[k] = args[k] end
        a[args.n + 1], a[args.n + 2], a[args.n + 3] = {}, obb.responses({}), 1
        H.assert_argerror(args.n + 4, name, "no value expected, got number", w[name], w,
          H.unpack(a, 1, args.n + 3))
      end
      assert.equal(6, w:count())
      w:close()
      other:close()
    end)

    it(dim .. "D: on a closed world raises 'world is closed' with a set too", function()
      local w = world(dim)
      local set = obb.responses({ [1] = false })
      local all = cases(dim)
      w:close()
      for _, c in ipairs(all) do
        local name, args = c[1], c[2]
        local a = {}
        for k = 1, args.n do a[k] = args[k] end
        local out = { "keep" }
        a[args.n + 1], a[args.n + 2] = out, set
        local ok, err = pcall(w[name], w, H.unpack(a, 1, args.n + 2))
        assert.is_false(ok, name)
        assert.truthy(tostring(err):find("world is closed", 1, true), err)
        assert.same({ "keep" }, out)
      end
    end)

    it(dim .. "D: works from inside another query's filter, on the same world", function()
      local w = world(dim)
      local set = obb.responses({ [1] = false })
      local outside = {}
      for _, c in ipairs(cases(dim)) do
        local name, args = c[1], c[2]
        local a = {}
        for k = 1, args.n do a[k] = args[k] end
        a[args.n + 1], a[args.n + 2] = {}, set
        outside[name] = H.pack(w[name](w, H.unpack(a, 1, args.n + 2)))
      end
      local box = dim == 2 and obb.new2(3, 0, 3, 1) or obb.new3(3, 0, 0, 3, 1, 1)
      local inner = 0
      w:query_box(box, {}, function()
        for _, c in ipairs(cases(dim)) do
          local name, args = c[1], c[2]
          local a = {}
          for k = 1, args.n do a[k] = args[k] end
          local out = {}
          a[args.n + 1], a[args.n + 2] = out, set
          local res = H.pack(w[name](w, H.unpack(a, 1, args.n + 2)))
          assert.same(outside[name], res, name)
          inner = inner + 1
        end
        return true
      end)
      assert.is_true(inner > 0)
      w:close()
    end)
  end

  it("refuses a userdata dressed in the sets' metatable (its tag)", function()
    local w = world(2)
    -- a world is larger than a set, so that the FFI path, which reads the
    -- tag where a set has it, reads inside it (docs/hardening.md: a
    -- smaller userdata dressed so is read past its end there)
    local fake = obb.world3()
    local real = debug.getmetatable(fake)
    debug.setmetatable(fake, debug.getmetatable(obb.responses({})))
    local msg = "function, obb.responses or nil expected, got obb.responses"
    local out = { "keep" }
    local ok1, e1 = pcall(w.query_box, w, obb.new2(3, 0, 3, 1), out, fake)
    local ok2, e2 = pcall(w.query_point, w, 3, 0, out, fake)
    local ok3, e3 = pcall(w.cast, w, obb.new2(0, 0, 1, 1), 5, 0, out, fake)
    local ok4, e4 = pcall(w.cast_turning, w, obb.new2(0, 0, 1, 1), 5, 0, 1, out, fake)
    local ok5, e5 = pcall(w.raycast, w, 0, 0, 1, 0, nil, out, fake)
    local ok6, e6 = pcall(w.pairs, w, out, fake)
    debug.setmetatable(fake, real)
    for i, e in ipairs({ e1, e2, e3, e4, e5, e6 }) do
      assert.truthy(tostring(e):find(msg, 1, true), i .. ": " .. tostring(e))
    end
    assert.is_false(ok1 or ok2 or ok3 or ok4 or ok5 or ok6)
    assert.same({ "keep" }, out)
    fake:close()
  end)

  it("refuses a table or a proxy that looks like a set (no debug library needed)", function()
    local w = world(2)
    local set = obb.responses({ [1] = false })
    local looks = { setmetatable({}, { __metatable = false, __index = function(_, k) return set[k] end }) }
    local newproxy = rawget(_G, "newproxy")
    if newproxy then
      local p = newproxy(true)
      local mt = getmetatable(p)
      mt.__index = function(_, k) return set[k] end
      mt.__metatable = false
      looks[2] = p
    end
    for _, fake in ipairs(looks) do
      assert.equal(set[1], fake[1])
      local out = { "keep" }
      for _, query in ipairs({
        function() return w:query_box(obb.new2(3, 0, 3, 1), out, fake) end,
        function() return w:query_point(3, 0, out, fake) end,
        function() return w:raycast(0, 0, 1, 0, nil, out, fake) end,
        function() return w:cast(obb.new2(0, 0, 1, 1), 5, 0, out, fake) end,
        function() return w:cast_turning(obb.new2(0, 0, 1, 1), 5, 0, 1, out, fake) end,
        function() return w:pairs(out, fake) end,
        function() return w:collisions(3, out, fake) end,
      }) do
        local ok, err = pcall(query)
        assert.is_false(ok)
        assert.truthy(tostring(err):find("function, obb.responses or nil expected, got " .. type(fake), 1, true), err)
      end
      assert.same({ "keep" }, out)
    end
  end)

  it("is not kept by the world: a set used and dropped is collected", function()
    local w = world(2)
    local weak = setmetatable({}, { __mode = "k" })
    do
      local set = obb.responses({ [1] = false })
      weak[set] = true
      local out = {}
      for _ = 1, 3 do
        w:query_box(obb.new2(3, 0, 3, 1), out, set)
        w:query_point(3, 0, out, set)
        w:raycast(0, 0, 1, 0, nil, out, set)
        w:cast(obb.new2(0, 0, 1, 1), 5, 0, out, set)
        w:cast_turning(obb.new2(0, 0, 1, 1), 5, 0, 1, out, set)
        w:pairs(out, set)
        w:collisions(3, out, set)
      end
      set = nil -- luacheck: ignore
    end
    collectgarbage("collect")
    collectgarbage("collect")
    assert.is_nil(next(weak))
    -- and the world's later queries, with a new set, are right
    local out = {}
    assert.equal(3, w:query_box(obb.new2(3.5, 0, 10, 1), out, obb.responses({ [1] = false })))
    w:close()
  end)
end)
