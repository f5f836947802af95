-- Item classes and response sets (docs/reference.md, "Moving boxes through a
-- world"): world:set_class and world:class, obb.responses, and a set in a
-- mover's filter position, which must answer exactly as the function filter
--   function(item, other) local r = t[w:class(other)]
--     if r == nil then r = t.default end ... end
-- it replaces (t.default absent: "slide"): on random worlds, the same moves
-- made through a set in one world and through that function in its twin
-- end in the same places and fill the same out records, bit for bit. Under
-- LuaJIT the set takes the FFI path (spec/jit_spec.lua checks that it does)
-- and the function the classic one, so the two paths are compared too.
local obb = require "obb"
local H = require "spec.helpers"

local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"
local NAMES = { "touch", "cross", "slide", "bounce" }

-- Equal as values, numbers bit for bit (the sign of a zero too; NaN equal
-- to NaN).
local function same(x, y)
  if type(x) == "number" and type(y) == "number" then
    if x ~= x then return y ~= y end
    return x == y and (x ~= 0 or 1 / x == 1 / y)
  end
  return rawequal(x, y)
end

-- The function filter a set made from t stands for.
local function filter_of(w, t)
  local default = t.default
  if default == nil then default = "slide" end
  return function(_, other)
    local r = t[w:class(other)]
    if r == nil then r = default end
    return r
  end
end

describe("item classes", function()
  for _, dim in ipairs({ 2, 3 }) do
    local function new_world()
      local w = dim == 2 and obb.world2() or obb.world3()
      for i = 1, 5 do
        if dim == 2 then w:add(i, i * 3, 0, 1, 1) else w:add(i, i * 3, 0, 0, 1, 1, 1) end
      end
      return w
    end

    it(dim .. "D: are 0 until set, one per item, and set_class returns the world", function()
      local w = new_world()
      for i = 1, 5 do assert.equal(0, w:class(i)) end
      assert.equal(w, w:set_class(3, 7))
      w:set_class(1, 255):set_class(5, 1)
      assert.same({ 255, 0, 7, 0, 1 }, { w:class(1), w:class(2), w:class(3), w:class(4), w:class(5) })
      assert.equal(w, w:set_class(3, 0))
      assert.equal(0, w:class(3))
      if math.type then assert.equal("integer", math.type(w:class(1))) end
    end)

    it(dim .. "D: an item removed and added again is back to class 0, and its id's next item too", function()
      local w = new_world()
      w:set_class(2, 9)
      w:remove(2)
      if dim == 2 then w:add(2, 0, 9, 1, 1) else w:add(2, 0, 9, 0, 1, 1, 1) end
      assert.equal(0, w:class(2))
      w:set_class(4, 9)
      w:remove(4)
      if dim == 2 then w:add("new", 0, 20, 1, 1) else w:add("new", 0, 20, 0, 1, 1, 1) end
      assert.equal(0, w:class("new")) -- the id 4 had, reused
      assert.equal(0, w:class(2))
    end)

    it(dim .. "D: hold for items of high ids, and cost memory only when set", function()
      local w = dim == 2 and obb.world2() or obb.world3()
      for i = 1, 1000 do
        if dim == 2 then w:add(i, i, 0, 0.4, 0.4) else w:add(i, i, 0, 0, 0.4, 0.4, 0.4) end
      end
      local before = w:memory()
      w:set_class(1, 0) -- class 0 everywhere: nothing held
      assert.equal(before, w:memory())
      w:set_class(1000, 200)
      assert.is_true(w:memory() > before)
      assert.equal(200, w:class(1000))
      assert.equal(0, w:class(999))
      for i = 1, 1000 do w:remove(i) end
      local empty = dim == 2 and obb.world2() or obb.world3()
      assert.equal(empty:memory(), w:memory()) -- an emptied world gives them back
      if dim == 2 then w:add(1000, 0, 0, 1, 1) else w:add(1000, 0, 0, 0, 1, 1, 1) end
      assert.equal(0, w:class(1000))
    end)

    it(dim .. "D: raise clear errors, naming the argument, and change nothing", function()
      local w = new_world()
      w:set_class(1, 4)
      local cases = {
        { 3, "number expected, got string", 1, "3" },
        { 3, "number expected, got nil", 1 },
        { 3, "class must be an integer in [0, 255], got 1.5", 1, 1.5 },
        { 3, "class must be an integer in [0, 255], got -1", 1, -1 },
        { 3, "class must be an integer in [0, 255], got 256", 1, 256 },
        { 3, "class must be an integer in [0, 255], got inf", 1, math.huge },
        { 2, "item is not in the world", "nope", 1 },
        { 2, "item (any value but nil) expected, got nil", nil, 1 },
        { 4, "no value expected, got number", 1, 2, 3 },
      }
      for _, c in ipairs(cases) do
        H.assert_argerror(c[1], "set_class", c[2], w.set_class, w, H.unpack(c, 3, 5))
        assert.equal(4, w:class(1))
      end
      H.assert_error_text("(class must be an integer in [0, 255], got ", w.set_class, w, 1, 0 / 0)
      H.assert_argerror(2, "class", "item is not in the world", w.class, w, "nope")
      H.assert_argerror(3, "class", "no value expected, got number", w.class, w, 1, 2)
      H.assert_argerror(1, "set_class", "obb.world expected, got number", w.set_class, 5, 1, 1)
      w:close()
      H.assert_error_text("world is closed", w.set_class, w, 1, 1)
      H.assert_error_text("world is closed", w.class, w, 1)
    end)

    it(dim .. "D: cannot be set during a query of the world, but can be read", function()
      local w = new_world()
      w:set_class(2, 3)
      local out, seen = {}, nil
      local box = dim == 2 and obb.new2(0, 0, 100, 100) or obb.new3(0, 0, 0, 100, 100, 100)
      H.assert_error_text("cannot set the class of items of a world during its query", function()
        w:query_box(box, out, function(item)
          seen = w:class(2)
          w:set_class(item, 1)
        end)
      end)
      assert.equal(3, seen)
      local args = { 1, 20, 0, function() w:set_class(3, 1) end }
      if dim == 3 then table.insert(args, 4, 0) end
      H.assert_error_text("cannot set the class of items of a world during its query", function()
        w:move(H.unpack(args, 1, dim + 2))
      end)
      assert.same({ 0, 3, 0 }, { w:class(1), w:class(2), w:class(3) })
      -- and not from the filter of a move with a set (none runs), but after
      w:set_class(3, 1)
      assert.equal(1, w:class(3))
    end)
  end
end)

describe("obb.responses", function()
  it("makes an immutable set that obb.type names", function()
    local s = obb.responses({ [1] = "cross", [2] = false, [255] = "bounce", default = "touch" })
    assert.equal("obb.responses", obb.type(s))
    assert.equal("userdata", type(s))
    assert.equal("cross", s[1])
    assert.equal(false, s[2])
    assert.equal("bounce", s[255])
    assert.equal("touch", s[0])
    assert.equal("touch", s[254])
    assert.equal("touch", s.default)
    assert.is_nil(s[256])
    assert.is_nil(s.other)
    -- round five: the key is compared whole (strcmp stopped at the zero)
    assert.is_nil(s["default\0x"])
    assert.is_nil(s["default\0"])
    assert.is_false(getmetatable(s))
    assert.is_false(pcall(function() s[1] = "slide" end))
    assert.equal("cross", s[1])
    assert.is_nil(obb.type({}))
    assert.equal("obb2", obb.type(obb.new2(0, 0, 1, 1)))
  end)

  it("defaults to slide, and a default of false ignores the classes left out", function()
    local s = obb.responses({})
    for c = 0, 255 do assert.equal("slide", s[c]) end
    assert.equal("slide", s.default)
    s = obb.responses({ default = false, [3] = "slide" })
    assert.equal(false, s[0])
    assert.equal("slide", s[3])
    assert.equal(false, s.default)
  end)

  it("shows the classes that differ from the default, as a table that makes the same set", function()
    local s = obb.responses({ [1] = "cross", [2] = false, [7] = "slide", default = "slide" })
    assert.equal('obb.responses{[1] = "cross", [2] = false, default = "slide"}', tostring(s))
    assert.equal('obb.responses{default = "slide"}', tostring(obb.responses({})))
    assert.equal('obb.responses{[0] = "touch", default = false}',
                 tostring(obb.responses({ [0] = "touch", default = false })))
    local t = { default = "bounce" }
    for c = 0, 255 do t[c] = NAMES[c % 4 + 1] end
    local back = assert((loadstring or load)("local obb = ...; return " .. tostring(obb.responses(t))))(obb)
    for c = 0, 255 do assert.equal(t[c], back[c]) end
  end)

  it("reads its table raw, and a later change of the table changes nothing", function()
    local t = setmetatable({ [1] = "cross" }, { __index = function() return "touch" end })
    local s = obb.responses(t)
    assert.equal("slide", s[2])
    t[1] = "bounce"
    assert.equal("cross", s[1])
    -- a float key that is an integer is that class
    assert.equal("touch", obb.responses({ [3.0] = "touch" })[3])
  end)

  it("raises clear errors", function()
    local cases = {
      { "table expected, got nil" },
      { "table expected, got string", "slide" },
      { "class 1: unknown response 'slid'", { [1] = "slid" } },
      { "class 0: unknown response 'touch' followed by a zero byte", { [0] = "touch\0x" } },
      { "class 4: response name or false expected, got boolean", { [4] = true } },
      { "class 4: response name or false expected, got number", { [4] = 3 } },
      { "default: unknown response 'none'", { default = "none" } },
      { "default: response name or false expected, got table", { default = {} } },
      { "key 256 is no class (an integer in [0, 255] or 'default' expected)", { [256] = "slide" } },
      { "key -1 is no class", { [-1] = "slide" } },
      { "key 1.5 is no class", { [1.5] = "slide" } },
      { "key 'defualt' is no class", { defualt = "slide" } },
      { "key 'default' followed by a zero byte is no class", { ["default\0x"] = "touch" } },
      { "key of type boolean is no class", { [true] = "slide" } },
      { "key of type table is no class", { [{}] = "slide" } },
    }
    for _, c in ipairs(cases) do
      local text = c[1]
      if text:find("no class$") then text = text .. " (an integer in [0, 255] or 'default' expected)" end
      H.assert_argerror(1, "responses", text, obb.responses, c[2])
    end
    H.assert_argerror(2, "responses", "no value expected, got number", obb.responses, {}, 1)
  end)
end)

describe("a response set as a mover's filter", function()
  it("answers each other by its class: touch, cross, slide, bounce and false", function()
    local w, out = obb.world2(), {}
    w:add("p", 0, 0, 1, 1)
    w:add("coin", 3, 0, 0.5, 0.5)
    w:add("wall", 6, 0, 1, 5)
    w:set_class("coin", 1)
    w:set_class("wall", 2)
    local x, y, n = w:check("p", 10, 0, obb.responses({ [1] = "cross", [2] = "touch" }), out)
    assert.same({ 4, 0, 2 }, { x, y, n })
    assert.same({ "coin", "cross", "wall", "touch" }, { out[1], out[2], out[9], out[10] })
    x, y, n = w:check("p", 10, 0, obb.responses({ [1] = false, [2] = false }), out)
    assert.same({ 10, 0, 0 }, { x, y, n })
    assert.is_nil(out[1])
    x, y, n = w:check("p", 10, 1, obb.responses({ default = false, [2] = "slide" }), out)
    assert.same({ 4, 1, 1 }, { x, y, n })
    x, y, n = w:check("p", 10, 0, obb.responses({ default = false, [2] = "bounce" }), out)
    assert.same({ -2, 0, 1 }, { x, y, n })
    assert.equal("bounce", out[2])
    -- the item still moves: a set with nothing to answer
    x, y, n = w:move("p", 0, 5, obb.responses({}))
    assert.same({ 0, 5, 0 }, { x, y, n })
  end)

  it("is taken by push: others it answers cross or false do not push", function()
    local w = obb.world2()
    w:add("p", 0, 0, 1, 1)
    w:add("a", 1.5, 0, 1, 1)
    w:set_class("a", 5)
    local x, _, moved = w:push("p", obb.responses({ [5] = "cross" }))
    assert.same({ 0, 0 }, { x, moved })
    x, _, moved = w:push("p", obb.responses({ [5] = false, default = "cross" }))
    assert.same({ 0, 0 }, { x, moved })
    x, _, moved = w:push("p", obb.responses({ [5] = "touch", default = false }))
    assert.same({ -0.5, 0.5 }, { x, moved })
  end)

  -- Twin worlds of the same random items and classes: A moves through
  -- sets, B through the function filter each set stands for. Every result
  -- and out record must be the same, bit for bit, and then every box.
  local function random_twins(r, dim)
    local A = dim == 2 and obb.world2() or obb.world3()
    local B = dim == 2 and obb.world2() or obb.world3()
    local n = r.int(5, LIGHT and 30 or 60)
    local size = r.range(8, 25)
    for i = 1, n do
      local args
      if dim == 2 then
        args = { r.range(0, size), r.range(0, size), r.range(0.1, 2), r.range(0.1, 2),
                 r.int(1, 3) == 1 and 0 or r.range(-3, 3) }
        if r.int(1, 4) == 1 then -- on a grid: flush neighbours, exact touches
          args = { r.int(0, size), r.int(0, 3), 0.5, 0.5 }
        end
      else
        local qx, qy, qz, qw = r.quat()
        if r.int(1, 3) == 1 then qx, qy, qz, qw = 0, 0, 0, 1 end
        args = { r.range(0, size), r.range(0, size), r.range(0, size / 2),
                 r.range(0.1, 2), r.range(0.1, 2), r.range(0.1, 2), qx, qy, qz, qw }
      end
      A:add(i, H.unpack(args))
      B:add(i, H.unpack(args))
      local c = ({ 0, 0, 1, 2, 3, 4, 255, r.int(0, 255) })[r.int(1, 8)]
      A:set_class(i, c)
      B:set_class(i, c)
    end
    return A, B, n, size
  end

  local function random_table(r)
    local t = {}
    for _, c in ipairs({ 0, 1, 2, 3, 4, 255 }) do
      local k = r.int(1, 6)
      if k <= 4 then t[c] = NAMES[k] elseif k == 5 then t[c] = false end
    end
    local k = r.int(1, 6)
    if k <= 4 then t.default = NAMES[k] elseif k == 5 then t.default = false end
    return t
  end

  local function same_boxes(A, B, n, what)
    for i = 1, n do
      local a, b = { A:get(i) }, { B:get(i) }
      for k = 1, #b do assert.is_true(same(a[k], b[k]), what .. ": item " .. i .. " value " .. k) end
    end
  end

  for _, dim in ipairs({ 2, 3 }) do
    it(dim .. "D: answers as the function filter it stands for, bit for bit, on random worlds", function()
      local r = H.rng(dim == 2 and 20291 or 30293)
      local worlds = LIGHT and 10 or 40
      local moves, met = 0, { touch = 0, cross = 0, slide = 0, bounce = 0 }
      local stride = dim == 2 and obb.MOVE_STRIDE2 or obb.MOVE_STRIDE3
      for wi = 1, worlds do
        local A, B, n, size = random_twins(r, dim)
        local outA, outB = {}, {}
        for _ = 1, LIGHT and 60 or 150 do
          local t = random_table(r)
          local set, fn = obb.responses(t), filter_of(B, t)
          local item = r.int(1, n)
          local m = ({ "move", "move", "check", "push" })[r.int(1, 4)]
          local ra, rb
          if m == "push" then
            local maxd = r.int(1, 3) == 1 and r.range(0, 2) or nil
            ra = H.pack(A:push(item, set, maxd))
            rb = H.pack(B:push(item, fn, maxd))
          else
            local goal = {}
            for k = 1, dim do goal[k] = r.range(-2, size + 2) end
            local where = r.int(1, 4) == 1 and { A:get(item) } -- a short step now and then
            if where then for k = 1, dim do goal[k] = where[k] + r.range(-1, 1) end end
            goal[dim + 1] = set
            goal[dim + 2] = outA
            ra = H.pack(A[m](A, item, H.unpack(goal, 1, dim + 2)))
            goal[dim + 1] = fn
            goal[dim + 2] = outB
            rb = H.pack(B[m](B, item, H.unpack(goal, 1, dim + 2)))
          end
          moves = moves + 1
          local what = ("world %d, %s of %d with %s"):format(wi, m, item, tostring(set))
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
          for k = 2, #outA, stride do met[outA[k]] = met[outA[k]] + 1 end
          if r.int(1, 20) == 1 then -- classes change between moves
            local i, c = r.int(1, n), r.int(0, 4)
            A:set_class(i, c)
            B:set_class(i, c)
          end
        end
        same_boxes(A, B, n, "world " .. wi)
        A:close()
        B:close()
      end
      -- every response was met, often
      for name, count in pairs(met) do assert.is_true(count >= 20, name .. " met " .. count .. " times") end
    end)
  end

  it("refuses what is not a set in the filter position, naming it", function()
    local w = obb.world2()
    w:add("p", 0, 0, 1, 1)
    local msg = "function, response name, obb.responses or nil expected, got "
    H.assert_argerror(5, "move", msg .. "table", w.move, w, "p", 1, 1, {})
    H.assert_argerror(5, "check", msg .. "obb.obb2", w.check, w, "p", 1, 1, obb.new2(0, 0, 1, 1))
    H.assert_argerror(3, "push", msg .. "boolean", w.push, w, "p", true)
    local fast = rawget(_G, "jit") ~= nil and require("obb.jit").status == "ffi"
    if not fast then
      -- a box in the sets' real metatable is still refused (its tag); on
      -- LuaJIT's FFI path only the metatable is checked before C reads it
      -- (docs/hardening.md), so the disguise is tried on the classic one
      local fake = obb.new2(0, 0, 1, 1)
      debug.setmetatable(fake, debug.getmetatable(obb.responses({})))
      H.assert_argerror(5, "move", msg .. "obb.responses", w.move, w, "p", 1, 1, fake)
      assert.is_nil(obb.type(fake))
      debug.setmetatable(fake, debug.getmetatable(obb.new2(0, 0, 1, 1)))
    end
    assert.same({ 0, 0, 1, 1, 0 }, { w:get("p") })
  end)

  it("makes no garbage: 100,000 moves with a set and a reused out table", function()
    local w, out = obb.world2(), {}
    for i = 1, 40 do
      w:add(i, (i - 1) % 20, i > 20 and 4 or 0, 0.5, 0.5)
      w:set_class(i, i % 4)
    end
    for i = 1, 10 do w:add("m" .. i, 2 * i - 1, 2, 0.4, 0.4) end
    local set = obb.responses({ [1] = "cross", [2] = "touch", [3] = false, default = "slide" })
    local movers = {}
    for i = 1, 10 do movers[i] = "m" .. i end
    local k = 0
    local function run()
      for _ = 1, 10000 do
        for i = 1, 10 do
          k = k + 1
          local x, y = w:get(movers[i])
          local dx, dy = (k % 7 - 3) * 0.3, (k % 5 - 2) * 0.8
          w:move(movers[i], x + dx, y + dy, set, out)
        end
      end
    end
    assert.equal(0, H.kib_allocated_by(run))
    assert.is_true(k >= 300000)
  end)
end)

describe("obb._response_names", function()
  it("is the binding's one list of response names, by the core's values", function()
    local names = obb._response_names
    assert.same(NAMES, names) -- OBB_TOUCH (1) to OBB_BOUNCE (4); ignore is false
    -- each name is what a filter answers, and what a record and a set show
    local w, out = obb.world2(), {}
    w:add("m", 0, 0, 0.5, 0.5)
    for r, name in ipairs(names) do
      w:add(r, 1.5 * r + 0.5, 0, 0.25, 0.25):set_class(r, r)
      assert.equal(name, obb.responses({ [r] = name })[r])
    end
    local set = obb.responses({ [1] = names[1], [2] = names[2], [3] = names[3], [4] = names[4] })
    local _, _, n = w:check("m", 10, 0, set, out)
    assert.is_true(n >= 1)
    assert.equal(names[1], out[2]) -- the first met, a touch, stops the move
    local _, _, n2 = w:check("m", 10, 0, function() return names[2] end, out)
    assert.equal(4, n2)
    for i = 0, n2 - 1 do assert.equal(names[2], out[i * obb.MOVE2.stride + obb.MOVE2.response]) end
  end)

  it("keeps a set's classes in the core: a removed item's class is 0 for the next add", function()
    local w = obb.world2()
    w:add("a", 0, 0, 1, 1):set_class("a", 200)
    local before = w:memory()
    w:add("b", 5, 0, 1, 1):set_class("b", 7)
    assert.equal(before, w:memory()) -- one array, grown for the first class only
    w:remove("b")
    w:add("c", 5, 0, 1, 1) -- b's id, again
    assert.equal(0, w:class("c"))
    assert.equal(200, w:class("a"))
  end)
end)
