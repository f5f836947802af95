-- Worlds against hostile scripts (docs/reference.md, "Hardening"): metamethods called
-- by hand, finalizers that re-enter a world, tables the debug library
-- rewrites, sizes that overflow, and memory that must stay bounded. Each
-- case failed (or crashed under `make sanitize`) before its fix.
local H = require "helpers"
local obb = require "obb"

local LIGHT = os.getenv("OBB_SPEC_LIGHT") ~= nil

-- An object whose finalizer calls f: a table with __gc from 5.2 on, a
-- newproxy userdata in 5.1 and LuaJIT (tables have no finalizers there).
local function with_finalizer(f)
  if rawget(_G, "newproxy") then
    local p = newproxy(true)
    getmetatable(p).__gc = function() f() end
    return p
  end
  return setmetatable({}, { __gc = function() f() end })
end

-- The world's own item table (item -> id), through the debug library.
local function items_of(w)
  local t
  if _VERSION == "Lua 5.4" then t = debug.getuservalue(w, 1)
  elseif debug.getuservalue then t = debug.getuservalue(w)
  else t = debug.getfenv(w) end
  if _VERSION ~= "Lua 5.4" then t = t[1] end
  return t
end

-- No ghost items and no lost ones: every item the script knows it added
-- is found by has(), and the world's count equals the items of its own
-- table, each of which has() finds. Finalizers may add items while it
-- looks (LuaJIT can run them even with the collector stopped), so a look
-- during which the count changed is taken again: only a lasting mismatch
-- is a ghost.
local function assert_agrees(w, present)
  local missing, in_table, unfound, before, after
  for _ = 1, 20 do
    collectgarbage("stop")
    missing, unfound, in_table = nil, nil, 0
    before = w:count()
    for item in pairs(present) do
      if not w:has(item) then missing = item end
    end
    for item in pairs(items_of(w)) do
      in_table = in_table + 1
      if not w:has(item) then unfound = item end
    end
    after = w:count()
    collectgarbage("restart")
    if before == after then break end
  end
  assert.equal(before, after)
  assert.is_nil(missing)
  assert.is_nil(unfound)
  assert.equal(in_table, after)
end

local function keys(t)
  collectgarbage("stop")
  local list = {}
  for k in pairs(t) do list[#list + 1] = k end
  collectgarbage("restart")
  return list
end

describe("world metamethods called by hand", function()
  it("__gc inside a filter is refused, and the query finishes", function()
    local w = obb.world2()
    for i = 1, 50 do w:add(i, i, 0, 1, 1) end
    local gc = debug.getmetatable(w).__gc
    local refused = 0
    local out = {}
    local n = w:query_box(obb.new2(25, 0, 30, 2), out, function()
      local ok, msg = pcall(gc, w)
      if not ok then
        refused = refused + 1
        assert.truthy(msg:find("cannot close a world during its query", 1, true))
      end
      return true
    end)
    assert.equal(50, n)
    assert.equal(50, refused)
    assert.equal(50, w:count())
    assert.equal(3, w:query_point(25, 0, out)) -- items 24, 25 and 26
  end)

  it("__gc by hand outside a query closes the world, twice is harmless", function()
    local w = obb.world3()
    w:add("a", 0, 0, 0, 1, 1, 1)
    local gc = debug.getmetatable(w).__gc
    gc(w)
    gc(w)
    gc(42)
    gc()
    gc(obb.new2(0, 0, 1, 1))
    H.assert_error_text("world is closed", w.count, w)
    assert.truthy(tostring(w):find("closed", 1, true))
    w:close()
  end)

  it("close and remove from a filter are refused; the world keeps its items", function()
    local w = obb.world2()
    for i = 1, 10 do w:add(i, 0, 0, 1, 1) end
    local ok, msg = pcall(w.pairs, w, {}, function() w:close() end)
    assert.is_false(ok)
    assert.truthy(msg:find("cannot close a world during its query", 1, true))
    ok = pcall(w.query_point, w, 0, 0, {}, function(item) w:remove(item) end)
    assert.is_false(ok)
    assert.equal(10, w:count())
  end)

  it("getmetatable gives the method table, so scripts cannot strip __gc", function()
    local w = obb.world2()
    local mt = getmetatable(w)
    assert.equal("function", type(mt.add))
    assert.is_nil(mt.__gc)
    mt.__gc = nil
    assert.equal("function", type(debug.getmetatable(obb.world2()).__gc))
    w:close()
  end)
end)

describe("finalizers that re-enter a world", function()
  it("never leave ghost items when the last item goes", function()
    local w = obb.world2()
    local present = {}
    local added = 0
    collectgarbage("setpause", 0)
    collectgarbage("setstepmul", 1000)
    for round = 1, LIGHT and 300 or 3000 do
      -- garbage whose finalizers add to the world, collected while the
      -- world makes its fresh tables (or grows its item tables)
      for _ = 1, 3 do
        with_finalizer(function()
          local item = "f" .. added
          added = added + 1
          if pcall(w.add, w, item, 0, 0, 1, 1) then present[item] = true end
        end)
      end
      local item = "r" .. round
      w:add(item, 0, 0, 1, 1)
      present[item] = true
      for _, other in ipairs(keys(present)) do
        if pcall(w.remove, w, other) then present[other] = nil end
      end
      assert_agrees(w, present)
    end
    collectgarbage("setpause", 200)
    collectgarbage("setstepmul", 200)
    collectgarbage()
    assert_agrees(w, present)
    collectgarbage("stop")
    local out = {}
    local found = {}
    for k = 1, w:query_point(0, 0, out) do found[out[k]] = true end
    for _, item in ipairs(keys(present)) do
      assert.is_true(found[item])
      assert.equal(0, (w:get(item)))
    end
    collectgarbage("restart")
  end)
end)

describe("world memory", function()
  it("stays bounded when items spawn, move and go every frame", function()
    local w = obb.world2()
    w:add("anchor", 0, 0, 1, 1)
    local out = {}
    local function frame(f)
      for i = 1, 20 do w:add(i, i * 3, f % 7, 1, 1) end
      for i = 1, 20 do w:update(i, i * 3 + 0.5, f % 7, 1, 1) end
      w:pairs(out)
      for i = 1, 20 do w:remove(i) end
    end
    for f = 1, 200 do frame(f) end
    local settled = w:memory()
    for f = 201, LIGHT and 2000 or 20000 do frame(f) end
    assert.equal(settled, w:memory())
  end)
end)

describe("bounds that overflow", function()
  for _, margin in ipairs({ 0, 0.25 }) do
    for _, dim in ipairs({ 2, 3 }) do
      it(("hide nothing (%dD, margin %g)"):format(dim, margin), function()
        local w = dim == 2 and obb.world2(margin) or obb.world3(margin)
        local r = H.rng(dim * 10 + margin * 4)
        local at = {}
        for i = 1, 300 do
          local x, y, z = r.range(0, 100), r.range(0, 100), r.range(0, 100)
          at[i] = { x, y, z }
          if dim == 2 then w:add(i, x, y, 1, 1, r.range(0, 3))
          else w:add(i, x, y, z, 1, 1, 1, r.quat()) end
          if i == 7 then
            if dim == 2 then w:add("huge", 0, 0, 1.5e308, 1.5e308, math.pi / 4)
            else w:add("huge", 0, 0, 0, 1.5e308, 1.5e308, 1.5e308, 0.3, 0.2, 0.1, 1) end
          end
        end
        local out = {}
        for i = 1, 300 do
          local p = at[i]
          local n = dim == 2 and w:query_point(p[1], p[2], out)
            or w:query_point(p[1], p[2], p[3], out)
          local found, huge = false, false
          for k = 1, n do
            if out[k] == i then found = true end
            if out[k] == "huge" then huge = true end
          end
          assert.is_true(found, "item " .. i)
          assert.is_true(huge, "the huge box at item " .. i)
          n = w:collisions(i, out)
          assert.is_true(n >= 1)
        end
        local pairs_n = w:pairs(out)
        assert.is_true(pairs_n >= 300) -- the huge box meets every item
      end)
    end
  end
end)

describe("pairs with sizes far apart", function()
  it("finds exactly the pairs a full scan finds, one box 1e30 times larger", function()
    local w = obb.world2()
    local r = H.rng(99)
    local boxes = {}
    for i = 1, 400 do
      boxes[i] = obb.new2(r.range(0, 60), r.range(0, 60), r.range(0.5, 2), r.range(0.5, 2), r.range(0, 3))
      w:add(i, boxes[i])
    end
    boxes[401] = obb.new2(1e30, 0, 1e30, 1e30, 0.2)
    w:add(401, boxes[401])
    local want = 0
    for i = 1, 401 do
      for j = i + 1, 401 do
        if boxes[i]:intersects(boxes[j]) then want = want + 1 end
      end
    end
    assert.equal(want, w:pairs({}))
  end)
end)

describe("the debug library against worlds", function()
  it("rewritten item tables give errors or misses, never a bad id", function()
    local w = obb.world2()
    w:add("a", 0, 0, 1, 1)
    local n = debug.getuservalue and select("#", debug.getuservalue(w))
    if not n then return end
    -- 5.4 has two user values; 5.2 and 5.3 one (a table holding both)
    local probes = { 1e9, -5, 0.5, 2 ^ 40, "x", true }
    for _, bad in ipairs(probes) do
      if _VERSION == "Lua 5.4" then
        debug.setuservalue(w, { a = bad }, 1)
      else
        local holder = debug.getuservalue(w)
        if type(holder) == "table" then holder[1] = { a = bad } end
      end
      assert.is_false(w:has("a"))
      assert.is_false(pcall(w.update, w, "a", 1, 1, 1, 1))
      assert.is_false(pcall(w.get, w, "a"))
      assert.is_false(pcall(w.remove, w, "a"))
    end
    for _, junk in ipairs({ 42, "s", false }) do
      if _VERSION == "Lua 5.4" then
        debug.setuservalue(w, junk, 1)
        debug.setuservalue(w, junk, 2)
      elseif _VERSION == "Lua 5.3" then
        debug.setuservalue(w, junk)
      else -- 5.2 takes only a table or nil
        debug.setuservalue(w, nil)
      end
      assert.is_false(pcall(w.has, w, "a"))
      assert.is_false(pcall(w.update, w, "a", 1, 1, 1, 1))
      assert.is_false(pcall(w.add, w, "b", 1, 1, 1, 1))
      assert.is_false(pcall(w.pairs, w, {}))
    end
  end)

  it("an environment the debug library swapped gives errors (5.1, LuaJIT)", function()
    if not debug.setfenv or _VERSION ~= "Lua 5.1" then return end
    local w = obb.world2()
    w:add("a", 0, 0, 1, 1)
    debug.setfenv(w, {})
    assert.is_false(pcall(w.has, w, "a"))
    -- LuaJIT's FFI path keeps the environment it read first (lua/obb/jit_world.lua,
    -- docs/hardening.md): update by numbers goes on with the former
    -- tables, whose ids are checked against the world's live ones; add
    -- writes the world's own tables in C, as the classic add does
    local ffi_path = (package.loaded["obb.jit"] or {}).status == "ffi"
    assert.equal(ffi_path, (pcall(w.update, w, "a", 1, 1, 1, 1)))
    assert.is_false(pcall(w.add, w, "b", 1, 1, 1, 1))
    assert.equal(1, w:count())
    assert.is_false(pcall(w.pairs, w, { 1 }))
    debug.setfenv(w, { { a = 1e9 }, {} })
    assert.is_false(w:has("a"))
    assert.is_false(pcall(w.remove, w, "a"))
  end)

  it("the internal helpers reached through upvalues only raise", function()
    local f = obb.world2
    for i = 1, 10 do
      local name, v = debug.getupvalue(f, i)
      if not name then break end
      if type(v) == "function" then
        local w = obb.world2()
        w:add(1, 0, 0, 1, 1)
        local ok = pcall(v, w, {}, nil)
        pcall(v, obb.new2(0, 0, 1, 1), {}, nil)
        pcall(v, io.stdout, {}, nil)
        pcall(v)
        assert.equal(1, w:count())
        assert.is_true(w:has(1))
        if ok then assert.is_true(w:has(1)) end
      end
    end
  end)

  it("upvalues replaced by the debug library are errors", function()
    local calls = { { obb.new2, 0, 0, 1, 1 }, { obb.new3, 0, 0, 0, 1, 1, 1 },
                    { obb.world2 }, { obb.fit2, { 0, 0, 1, 1 } } }
    for _, c in ipairs(calls) do
      local f = c[1]
      for i = 1, 10 do
        local name, old = debug.getupvalue(f, i)
        if not name then break end
        debug.setupvalue(f, i, 12345)
        local ok, msg = pcall(f, H.unpack(c, 2))
        debug.setupvalue(f, i, old)
        if not ok then assert.truthy(msg:find("upvalue was replaced", 1, true), msg) end
      end
      assert.is_true((pcall(f, H.unpack(c, 2))))
    end
  end)
end)

describe("world API rules", function()
  it("count and the other methods refuse extra arguments; #w works", function()
    local w = obb.world2()
    w:add(1, 0, 0, 1, 1)
    H.assert_argerror(2, nil, "no value expected, got number", w.count, w, 5)
    assert.equal(1, #w)
    assert.equal(1, w:count())
  end)

  it("a filter that yields gets a clear error and the world stays usable", function()
    if not coroutine.isyieldable and not rawget(_G, "jit") then return end
    local w = obb.world2()
    for i = 1, 3 do w:add(i, 0, 0, 1, 1) end
    local co = coroutine.wrap(function()
      return pcall(w.pairs, w, {}, function() coroutine.yield(1) end)
    end)
    local ok, msg = co()
    assert.is_false(ok)
    assert.truthy(tostring(msg):find("filter cannot yield", 1, true), tostring(msg))
    w:add(4, 5, 5, 1, 1)
    assert.equal(4, w:count())
  end)
end)

describe("rays with extreme inputs", function()
  -- Huge direction components (dot products that overflow) and origins so
  -- far away that their local coordinates lose more than the box's width:
  -- box:raycast used to report hits at t = 0 there, where world:raycast,
  -- testing bounds first, said miss.
  local function agree(dim, n)
    local r = H.rng(4321 + dim)
    local w = dim == 2 and obb.world2() or obb.world3()
    local out, disagreements, hits = {}, 0, 0
    for _ = 1, n do
      local b
      if dim == 2 then
        b = obb.new2(r.range(-5, 5), r.range(-5, 5), r.range(0.1, 2), r.range(0.1, 2), r.range(-3, 3))
      else
        b = obb.new3(r.range(-5, 5), r.range(-5, 5), r.range(-5, 5),
          r.range(0.1, 2), r.range(0.1, 2), r.range(0.1, 2), r.quat())
      end
      w:add(1, b)
      local o, d = {}, {}
      local far = ({ 1, 1e17, 1e200, 1e300 })[r.int(1, 4)]
      local big = ({ 1, 1e300, 1.7e308, 1e-300 })[r.int(1, 4)]
      for k = 1, dim do
        o[k] = r.range(-1, 1) * far
        d[k] = r.range(-1, 1) * big
      end
      if r.uniform() < 0.5 then -- aim at the box from far away
        local c = { b:center() }
        for k = 1, dim do d[k] = (c[k] - o[k]) * (r.uniform() < 0.5 and 1 or 1e-300) end
      end
      local nonzero = false
      for k = 1, dim do if d[k] ~= 0 then nonzero = true end end
      if nonzero then
        local args = {}
        for k = 1, dim do args[k], args[dim + k] = o[k], d[k] end
        local t = b:raycast(H.unpack(args, 1, 2 * dim))
        args[2 * dim + 1], args[2 * dim + 2] = nil, out -- max_t: none
        local m = w:raycast(H.unpack(args, 1, 2 * dim + 2))
        if (t ~= nil) ~= (m == 1) or (t and t ~= out[2]) then disagreements = disagreements + 1 end
        if t then hits = hits + 1 end
      end
      w:remove(1)
    end
    return disagreements, hits
  end

  for _, dim in ipairs({ 2, 3 }) do
    it(("agree between box and world (%dD)"):format(dim), function()
      local bad, hits = agree(dim, LIGHT and 500 or 5000)
      assert.equal(0, bad)
      assert.is_true(hits > 0)
    end)
  end

  it("never hit at t = 0 from a far origin pointing away", function()
    local b = obb.new2(0, 0, 1, 1, 0.3)
    assert.is_nil(b:raycast(1e17, 1e17, 1.7e308, 1.7e308))
    assert.is_nil(b:raycast(1e17, 0, 1, 1e-17))
    local c = obb.new3(0, 0, 0, 1, 1, 1, 0.1, 0.2, 0.3, 0.9)
    assert.is_nil(c:raycast(1e17, 1e17, 1e17, 1.7e308, -1.7e308, 1.7e308))
    -- an unturned box keeps its local coordinates exact: a hit is found
    -- from 1e300 away along a direction near DBL_MAX, at the right t
    local t = obb.new2(0, 0, 1, 1):raycast(-1e300, 0, 1.7e308, 0)
    assert.is_true(t ~= nil and math.abs(t - 1e300 / 1.7e308) <= 1e-15 * t)
  end)
end)
