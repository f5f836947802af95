-- obb.bump: bump.lua's world API over an obb world (docs/reference.md, "Coming from
-- bump.lua"). Written from bump.lua's README: the responses on its
-- pictures' scenes, the col fields, the order of cols, filters, project,
-- the queries, the errors; then the places where obb's rules answer
-- differently on purpose, turned rectangles, and a bump-style game loop
-- that uses only bump's API.
local bump = require "obb.bump"

local function sorted(items, len)
  assert.equal(#items, len)
  local names = {}
  for i = 1, len do names[i] = tostring(items[i]) end
  table.sort(names)
  return names
end

local function vec(v) return { v.x, v.y } end
local function rect(r) return { r.x, r.y, r.w, r.h } end

describe("obb.bump world", function()
  it("is made by newWorld; cellSize is accepted, checked, and only used by toCell / toWorld", function()
    local w = bump.newWorld()
    assert.equal(64, w.cellSize)
    assert.same({ 1, 1 }, { w:toCell(0, 0) })
    assert.same({ 2, 0 }, { w:toCell(64, -1) })
    assert.same({ 64, 0 }, { w:toWorld(2, 1) })
    local w32 = bump.newWorld(32)
    assert.same({ 3, 1 }, { w32:toCell(70, 31.9) })
    assert.has_error(function() bump.newWorld(0) end)
    assert.has_error(function() bump.newWorld(-1) end)
    assert.has_error(function() bump.newWorld("64") end)
  end)

  it("adds, updates, removes and reports items with top-left corners and sizes", function()
    local w = bump.newWorld()
    local a, b = { name = "a" }, { name = "b" }
    assert.equal(a, w:add(a, 10, 20, 30, 40))
    w:add(b, 0, 0, 5, 5)
    assert.same({ 10, 20, 30, 40 }, { w:getRect(a) })
    assert.is_true(w:hasItem(a))
    assert.is_false(w:hasItem({}))
    assert.is_false(w:hasItem(nil))
    assert.equal(2, w:countItems())
    local items, len = w:getItems()
    assert.equal(2, len)
    assert.same(sorted({ a, b }, 2), sorted(items, len))
    w:update(a, 1, 2) -- w and h stay
    assert.same({ 1, 2, 30, 40 }, { w:getRect(a) })
    w:update(a, 3, 4, 5, 6)
    assert.same({ 3, 4, 5, 6 }, { w:getRect(a) })
    w:remove(a)
    assert.is_false(w:hasItem(a))
    assert.equal(1, w:countItems())
    w:add(a, 0, 0, 1, 1) -- back again
    assert.equal(2, w:countItems())
    -- the world's rects table, as bump keeps it
    assert.same({ 0, 0, 1, 1 }, rect(w.rects[a]))
  end)

  it("raises on bad rectangles and unknown items", function()
    local w = bump.newWorld()
    local a = {}
    for _, r in ipairs {
      { 0, 0, 0, 1 }, { 0, 0, 1, 0 }, { 0, 0, -1, 1 }, { 0, 0, 1, -2 },
      { "0", 0, 1, 1 }, { 0, nil, 1, 1 }, { 0, 0, "1", 1 }, { 0 / 0, 0, 1, 1 }, { 0, 0, math.huge, 1 },
    } do
      assert.has_error(function() w:add(a, r[1], r[2], r[3], r[4]) end)
      assert.is_false(w:hasItem(a))
    end
    assert.has_error(function() w:add(a, 0, 0, 0, 1) end,
      "bad argument #5 to 'add' (w must be a positive number, got 0)")
    assert.has_error(function() w:add(a, 0, 0, 1, -1) end,
      "bad argument #6 to 'add' (h must be a positive number, got -1)")
    assert.has_error(function() w:add(a, "x", 0, 1, 1) end,
      'bad argument #3 to \'add\' (x must be a finite number, got "x")')
    assert.has_error(function() w:add(nil, 0, 0, 1, 1) end)
    w:add(a, 0, 0, 1, 1)
    assert.has_error(function() w:add(a, 0, 0, 1, 1) end) -- twice
    assert.has_error(function() w:update(a, 0, 0, 0, 1) end)
    assert.same({ 0, 0, 1, 1 }, { w:getRect(a) }) -- unchanged
    for _, f in ipairs { "remove", "getRect", "update", "move", "check" } do
      assert.has_error(function() w[f](w, {}, 0, 0) end)
    end
    assert.has_error(function() w:move(a, 0 / 0, 0) end)
    assert.has_error(function() w:move(a, 1, 1, "slide") end) -- a filter is a function
    assert.has_error(function() w:queryRect(0, 0, 0, 1) end)
    assert.has_error(function() w:project(a, 0, 0, -1, 1, 2, 2) end)
  end)
end)

describe("obb.bump responses on bump's scenes", function()
  -- bump's README pictures: an item moving diagonally into a block. Here
  -- the block is (0, 0, 8, 8) and a 2x2 item at (10, 10) aims at (1, 1):
  -- it first meets the block's right side (the x side of the corner) at
  -- ti = 2/9, its top-left corner at (8, 8).
  local function scene(response)
    local w = bump.newWorld()
    local block, item = { name = "block" }, { name = "item" }
    w:add(block, 0, 0, 8, 8)
    w:add(item, 10, 10, 2, 2)
    local ax, ay, cols, len = w:move(item, 1, 1, function() return response end)
    return w, item, block, ax, ay, cols, len
  end

  local function common(col, item, block, response)
    assert.equal(item, col.item)
    assert.equal(block, col.other)
    assert.equal(response, col.type)
    assert.is_false(col.overlaps)
    assert.near(2 / 9, col.ti, 1e-15)
    assert.same({ -9, -9 }, vec(col.move))
    assert.same({ 1, 0 }, vec(col.normal))
    assert.same({ 8, 8 }, vec(col.touch))
    assert.same({ 10, 10, 2, 2 }, rect(col.itemRect))
    assert.same({ 0, 0, 8, 8 }, rect(col.otherRect))
  end

  it("touch stops where the item meets the other", function()
    local w, item, block, ax, ay, cols, len = scene("touch")
    assert.same({ 8, 8, 1 }, { ax, ay, len })
    common(cols[1], item, block, "touch")
    assert.is_nil(cols[1].slide)
    assert.is_nil(cols[1].bounce)
    assert.same({ 8, 8, 2, 2 }, { w:getRect(item) })
  end)

  it("cross goes through and reports the other", function()
    local w, item, block, ax, ay, cols, len = scene("cross")
    assert.same({ 1, 1, 1 }, { ax, ay, len })
    common(cols[1], item, block, "cross")
    assert.same({ 1, 1, 2, 2 }, { w:getRect(item) })
  end)

  it("slide keeps the move along the side it meets, and says where it aimed (col.slide)", function()
    local w, item, block, ax, ay, cols, len = scene("slide")
    assert.same({ 8, 1, 1 }, { ax, ay, len })
    common(cols[1], item, block, "slide")
    assert.same({ 8, 1 }, vec(cols[1].slide))
    assert.same({ 8, 1, 2, 2 }, { w:getRect(item) })
  end)

  it("bounce mirrors the rest of the move in the side it meets (col.bounce)", function()
    local w, item, block, ax, ay, cols, len = scene("bounce")
    assert.same({ 15, 1, 1 }, { ax, ay, len })
    common(cols[1], item, block, "bounce")
    assert.same({ 15, 1 }, vec(cols[1].bounce))
    assert.same({ 15, 1, 2, 2 }, { w:getRect(item) })
  end)

  it("tunnels: each side's normal, and slide is the default response", function()
    for _, c in ipairs {
      -- start, goal, touch, normal, where a slide ends
      { { -3, 3 }, { 3, 9 }, { -2, 4 }, { -1, 0 }, { -2, 9 } },
      { { 9, 3 }, { 3, -3 }, { 8, 2 }, { 1, 0 }, { 8, -3 } },
      { { 3, -3 }, { 9, 3 }, { 4, -2 }, { 0, -1 }, { 9, -2 } },
      { { 3, 9 }, { -3, 3 }, { 2, 8 }, { 0, 1 }, { -3, 8 } },
    } do
      local w, item = bump.newWorld(), {}
      w:add("block", 0, 0, 8, 8)
      w:add(item, c[1][1], c[1][2], 2, 2)
      local ax, ay, cols, len = w:check(item, c[2][1], c[2][2])
      assert.same({ c[5][1], c[5][2], 1 }, { ax, ay, len })
      assert.same({ "slide", c[3], c[4], c[5] },
        { cols[1].type, vec(cols[1].touch), vec(cols[1].normal), vec(cols[1].slide) })
      assert.near(1 / 6, cols[1].ti, 1e-15)
      local x, y = w:getRect(item)
      assert.same(c[1], { x, y }) -- check does not move it
    end
  end)

  it("cols are new tables on every call", function()
    local w, item = bump.newWorld(), {}
    w:add("block", 0, 0, 8, 8)
    w:add(item, 10, 10, 2, 2)
    local _, _, c1 = w:check(item, 1, 1)
    local _, _, c2 = w:check(item, 1, 1)
    assert.are_not.equal(c1, c2)
    assert.are_not.equal(c1[1], c2[1])
    assert.same(c1[1].touch, c2[1].touch)
  end)
end)

describe("obb.bump cols and filters", function()
  it("cols come in the order met, by ti, ties nearest first", function()
    local w, item = bump.newWorld(), {}
    w:add(item, 0, 0, 1, 1)
    w:add("c3", 7, 0, 1, 1)
    w:add("c1", 2, 0, 1, 1)
    w:add("c2", 4, 0, 1, 1)
    -- two met at the same time: the one whose center is nearer first
    w:add("up", 10, -0.5, 1, 1)
    w:add("level", 10, 0, 1, 1)
    local _, _, cols, len = w:check(item, 20, 0, function() return "cross" end)
    assert.equal(5, len)
    local got = {}
    for i = 1, len do got[i] = cols[i].other end
    assert.same({ "c1", "c2", "c3", "level", "up" }, got)
    for i = 2, len do assert.is_true(cols[i].ti >= cols[i - 1].ti) end
    assert.equal(0.05, cols[1].ti)
  end)

  it("the filter decides per other; nil and false ignore; its answer is the col's type", function()
    local w, player = bump.newWorld(), { name = "player" }
    local coin = { name = "coin", isCoin = true }
    local spring = { name = "spring", isSpring = true }
    local cloud = { name = "cloud" }
    local exit = { name = "exit", isExit = true }
    w:add(player, 0, 0, 1, 1)
    w:add(coin, 2, 0, 1, 1)
    w:add(cloud, 4, 0, 1, 1)
    w:add(exit, 6, 0, 1, 1)
    w:add(spring, 10, 0, 1, 1)
    local asked = {}
    local function filter(item, other)
      assert.equal(player, item)
      asked[other] = true
      if other.isCoin then return "cross"
      elseif other.isExit then return "touch"
      elseif other.isSpring then return "bounce"
      end
    end
    local ax, ay, cols, len = w:move(player, 12, 0, filter)
    assert.same({ 5, 0, 2 }, { ax, ay, len })
    assert.same({ coin, "cross" }, { cols[1].other, cols[1].type })
    assert.same({ exit, "touch" }, { cols[2].other, cols[2].type })
    assert.is_true(asked[coin] and asked[cloud] and asked[exit])
    -- past the exit: the spring bounces the player back
    w:update(player, 8, 0)
    ax, ay, cols, len = w:move(player, 11, 0, filter)
    assert.same({ 7, 0, 1 }, { ax, ay, len })
    assert.same({ spring, "bounce", { 7, 0 } }, { cols[1].other, cols[1].type, vec(cols[1].bounce) })
  end)

  it("an unknown response name raises, and the item stays", function()
    local w, item = bump.newWorld(), {}
    w:add(item, 0, 0, 1, 1)
    w:add("wall", 3, 0, 1, 1)
    assert.has_error(function() w:move(item, 5, 0, function() return "slid" end) end,
      "Unknown collision type: slid (string)")
    assert.same({ 0, 0, 1, 1 }, { w:getRect(item) })
    local ax, ay = w:move(item, 5, 0) -- still usable
    assert.same({ 2, 0 }, { ax, ay })
  end)

  it("touching borders: moving along or away from a contact, or past a corner, is no collision", function()
    local w, item = bump.newWorld(), {}
    w:add("floor", 0, 10, 100, 10)
    w:add("wall", 20, 0, 10, 10)
    w:add(item, 5, 8, 2, 2) -- resting on the floor
    local ax, ay, _, len = w:move(item, 9, 8) -- along it
    assert.same({ 9, 8, 0 }, { ax, ay, len })
    ax, ay, _, len = w:move(item, 9, 3) -- away from it
    assert.same({ 9, 3, 0 }, { ax, ay, len })
    w:update(item, 18, 3) -- against the wall
    ax, ay, _, len = w:move(item, 18, 1) -- along the wall
    assert.same({ 18, 1, 0 }, { ax, ay, len })
    local cols
    ax, ay, cols, len = w:move(item, 19, 1) -- into it
    assert.same({ 18, 1, 1 }, { ax, ay, len })
    assert.same({ "wall", 0, { -1, 0 } }, { cols[1].other, cols[1].ti, vec(cols[1].normal) })
    -- past the wall's top-right corner (30, 0), touching it only there
    w:update(item, 28, -4)
    ax, ay, _, len = w:move(item, 32, 0)
    assert.same({ 32, 0, 0 }, { ax, ay, len })
  end)

  it("project lists every collision on the straight path, no response applied", function()
    local w = bump.newWorld()
    w:add("a", 2, 0, 1, 1)
    w:add("b", 5, 0, 1, 1)
    w:add("c", 5, 3, 1, 1) -- off the path
    local cols, len = w:project(nil, 0, 0, 1, 1, 10, 0)
    assert.equal(2, len)
    assert.same({ "a", "slide", { 1, 0 }, { -1, 0 } },
      { cols[1].other, cols[1].type, vec(cols[1].touch), vec(cols[1].normal) })
    assert.same({ "b", { 4, 0 } }, { cols[2].other, vec(cols[2].touch) })
    assert.same({ 10, 0 }, vec(cols[2].move))
    -- with a filter, and for an item of the world (which it never meets)
    w:add("me", 0, 0, 1, 1)
    cols, len = w:project("me", 0, 0, 1, 1, 10, 0, function(_, o) return o == "b" and "touch" end)
    assert.same({ 1, "b", "touch" }, { len, cols[1].other, cols[1].type })
    -- standing still: what it overlaps, overlaps first by bump's measure
    cols, len = w:project(nil, 4.5, 0, 1, 1)
    assert.same({ 1, "b", true }, { len, cols[1].other, cols[1].overlaps })
    assert.equal(-0.5, cols[1].ti) -- minus the overlap's area
    assert.same({ 0, 0, 1, 1 }, { w:getRect("me") }) -- unchanged
    assert.equal(4, w:countItems())
  end)

  it("under obb's rules, check at the goal it stands on lists what the item overlaps, with no jump", function()
    local w, item = bump.newWorld(nil, { rules = "obb" }), {}
    w:add("a", 0, 0, 4, 4)
    w:add("b", 3, 0, 4, 4)
    w:add(item, 2, 1, 2, 2) -- overlaps a by 2x2 and b by 1x2
    local ax, ay, cols, len = w:check(item)
    assert.same({ 2, 1, 2 }, { ax, ay, len })
    assert.same({ "a", true, -4 }, { cols[1].other, cols[1].overlaps, cols[1].ti })
    assert.same({ "b", true, -2 }, { cols[2].other, cols[2].overlaps, cols[2].ti })
    ax, ay, cols, len = w:move(item, 2, 1, function(_, o) return o == "b" and "touch" end)
    assert.same({ 2, 1, 1, "b" }, { ax, ay, len, cols[1].other }) -- no jump
  end)
end)

describe("obb.bump queries", function()
  local function world()
    local w = bump.newWorld()
    w:add("a", 0, 0, 10, 10)
    w:add("b", 10, 0, 10, 10) -- flush with a
    w:add("c", 0, 20, 5, 5)
    return w
  end

  it("queryRect finds the items a rectangle overlaps, not the ones it only touches", function()
    local w = world()
    assert.same({ "a", "b" }, sorted(w:queryRect(5, 5, 10, 1)))
    assert.same({ "a" }, sorted(w:queryRect(-5, -5, 6, 6)))
    assert.same({}, sorted(w:queryRect(-5, -5, 5, 5))) -- a corner touches
    assert.same({}, sorted(w:queryRect(0, 10, 20, 10))) -- a side touches
    assert.same({ "b", "c" }, sorted(w:queryRect(-1, -1, 30, 30, function(i) return i ~= "a" end)))
  end)

  it("queryPoint finds the items holding the point inside, not on their border", function()
    local w = world()
    assert.same({ "a" }, sorted(w:queryPoint(5, 5)))
    assert.same({}, sorted(w:queryPoint(10, 5))) -- a and b's common side
    assert.same({}, sorted(w:queryPoint(0, 0)))
    assert.same({ "c" }, sorted(w:queryPoint(1, 21)))
    assert.same({}, sorted(w:queryPoint(1, 21, function() return false end)))
  end)

  it("querySegment lists items nearest first; WithCoords gives where it enters and leaves", function()
    local w = world()
    local items, len = w:querySegment(-5, 5, 25, 5)
    assert.same({ "a", "b" }, { items[1], items[2] })
    assert.equal(2, len)
    items, len = w:querySegment(25, 5, -5, 5)
    assert.same({ "b", "a", 2 }, { items[1], items[2], len })
    local info
    info, len = w:querySegmentWithCoords(-5, 5, 25, 5)
    assert.equal(2, len)
    local function near(expected, e)
      assert.equal(expected[1], e.item)
      local got = { e.ti1, e.ti2, e.x1, e.y1, e.x2, e.y2 }
      for k = 1, 6 do assert.near(expected[k + 1], got[k], 1e-12) end
    end
    near({ "a", 1 / 6, 0.5, 0, 5, 10, 5 }, info[1])
    near({ "b", 0.5, 5 / 6, 10, 5, 20, 5 }, info[2])
    -- along a side: no hit; starting inside and leaving: a hit at 0
    assert.same({}, sorted(w:querySegment(-5, 0, 25, 0)))
    info, len = w:querySegmentWithCoords(5, 5, 5, 15)
    assert.same({ 1, "a", 0, 0.5 }, { len, info[1].item, info[1].ti1, info[1].ti2 })
    assert.same({}, sorted(w:querySegment(2, 2, 3, 3))) -- inside a, never leaving it
    assert.same({}, sorted(w:querySegment(5, 5, 5, 5)))
    items, len = w:querySegment(-5, 5, 25, 5, function(i) return i == "b" end)
    assert.same({ 1, "b" }, { len, items[1] })
  end)
end)

describe("obb.bump filters that query the world", function()
  it("get their own results: the outer query's and move's are intact", function()
    local w = bump.newWorld()
    for i = 1, 10 do w:add("i" .. i, i * 2, 0, 1, 1) end
    local inner = 0
    local items, len = w:queryRect(0, -1, 30, 3, function()
      inner = inner + select(2, w:queryRect(0, -1, 5, 3))
      return true
    end)
    assert.equal(10, len)
    assert.equal(20, inner)
    assert.same({ "i1", "i10", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9" }, sorted(items, len))
    local _, _, cols, n = w:check("i1", 30, 0, function(_, o)
      local found = w:querySegment(0, 0.5, 30, 0.5)
      assert.equal(10, #found)
      return o ~= "i5" and "cross"
    end)
    assert.equal(8, n)
    assert.same({ "i2", "i10" }, { cols[1].other, cols[8].other })
  end)
end)

describe("obb.bump rect helpers and responses", function()
  it("bump.rect's functions", function()
    local r = bump.rect
    assert.same({ 0, 10 }, { r.getNearestCorner(0, 0, 10, 10, 2, 7) })
    assert.same({ -3, -4, 5, 6 }, { r.getDiff(1, 2, 3, 4, 1, 2, 2, 2) })
    assert.is_true(r.containsPoint(0, 0, 10, 10, 5, 5))
    assert.is_false(r.containsPoint(0, 0, 10, 10, 10, 5))
    assert.is_true(r.isIntersecting(0, 0, 10, 10, 9, 9, 5, 5))
    assert.is_false(r.isIntersecting(0, 0, 10, 10, 10, 0, 5, 5))
    assert.equal(25, r.getSquareDistance(0, 0, 2, 2, 3, 4, 2, 2))
    assert.same({ 0.25, 0.75, -1, 0, 1, 0 }, { r.getSegmentIntersectionIndices(0, 0, 10, 10, -5, 5, 15, 5) })
    assert.is_nil(r.getSegmentIntersectionIndices(0, 0, 10, 10, -5, 15, 15, 15))
    local col = r.detectCollision(10, 10, 2, 2, 0, 0, 8, 8, 1, 1)
    assert.same({ false, { 8, 8 }, { 1, 0 } }, { col.overlaps, vec(col.touch), vec(col.normal) })
    assert.is_nil(r.detectCollision(10, 10, 2, 2, 0, 0, 8, 8, 20, 20))
  end)

  it("custom responses (addResponse) run as bump runs them, from where obb stops the item", function()
    local w, item = bump.newWorld(), {}
    -- "vertical": stop sideways, keep going up or down (a ladder's sides)
    w:addResponse("vertical", function(world, col, _, _, iw, ih, _, goalY, filter)
      local tx = col.touch.x
      local cols, len = world:project(col.item, tx, col.touch.y, iw, ih, tx, goalY, filter)
      return tx, goalY, cols, len
    end)
    -- bump's own response under another name maps to obb's C mover
    w:addResponse("pass", bump.responses.cross)
    w:add("ladder", 4, 0, 2, 20)
    w:add("coin", 2.5, 14, 1, 1)
    w:add("roof", 0, -10, 10, 2)
    w:add(item, 0, 10, 2, 2)
    local filter = function(_, o)
      if o == "ladder" then return "vertical" elseif o == "coin" then return "pass" end
      return "slide"
    end
    local ax, ay, cols, len = w:move(item, 8, 16, filter)
    assert.same({ 2, 16, 2 }, { ax, ay, len })
    assert.same({ "ladder", "vertical", { 2, 11.5 } }, { cols[1].other, cols[1].type, vec(cols[1].touch) })
    assert.same({ "coin", "pass" }, { cols[2].other, cols[2].type })
    assert.same({ 2, 11.5 }, vec(cols[2].itemRect)) -- projected from the ladder
    assert.same({ 2, 16, 2, 2 }, { w:getRect(item) })
    ax, ay, cols, len = w:move(item, 9, -20, filter) -- up the ladder, the coin again, the roof
    assert.same({ 2, -8, 3 }, { ax, ay, len })
    assert.same({ "ladder", "coin", "roof", { 0, 1 } },
      { cols[1].other, cols[2].other, cols[3].other, vec(cols[3].normal) })
    -- the default responses, called directly
    local col = { item = item, touch = { x = 1, y = 1 }, normal = { x = 0, y = -1 }, move = { x = 1, y = 1 } }
    local tx, ty, tcols, tlen = bump.responses.touch(w, col)
    assert.same({ 1, 1, {}, 0 }, { tx, ty, tcols, tlen })
  end)
end)

describe("obb.bump with { rules = \"obb\" }, where obb's rules answer differently from bump.lua", function()
  it("an item that starts inside another neither jumps out nor is stopped (bump issue 37)", function()
    local w, item = bump.newWorld(nil, { rules = "obb" }), {}
    w:add("wall", 0, 0, 10, 10)
    w:add(item, 8, 4, 4, 3) -- 2 deep into the wall's right side
    local ax, ay, cols, len = w:move(item, 8, 20) -- down, along the wall's side
    assert.same({ 8, 20, 1 }, { ax, ay, len })
    assert.same({ "wall", true, { 1, 0 }, { 8, 4 } },
      { cols[1].other, cols[1].overlaps, vec(cols[1].normal), vec(cols[1].touch) })
    w:update(item, 8, 4)
    ax, ay = w:move(item, 0, 4) -- deeper: not allowed, and no jump back
    assert.same({ 8, 4 }, { ax, ay })
    ax, ay = w:move(item, 0, 10) -- along: allowed
    assert.same({ 8, 10 }, { ax, ay })
    w:update(item, 8, 4)
    ax, ay = w:move(item, 13, 4) -- out: free
    assert.same({ 13, 4 }, { ax, ay })
  end)

  it("every leg tests every other again: a bounce back is stopped by the first wall", function()
    local w, ball = bump.newWorld(nil, { rules = "obb" }), {}
    w:add("left", 0, 0, 1, 10)
    w:add("right", 5, 0, 1, 10)
    w:add(ball, 2, 4, 1, 1)
    -- 2 -> 4 (the right wall), back to 1 (the left wall), right again: at 4
    -- the right wall, met before, bounces it again (bump passes through it
    -- to 6), and it ends at 2; each bounce is reported
    local ax, _, cols, len = w:move(ball, 12, 4, function() return "bounce" end)
    assert.equal(3, len)
    assert.same({ "right", "left", "right" }, { cols[1].other, cols[2].other, cols[3].other })
    assert.equal(2, ax)
  end)
end)

describe("obb.bump with turned rectangles", function()
  it("takes a trailing angle: the rectangle turned about its center", function()
    local w, item = bump.newWorld(), {}
    local a = math.pi / 4
    w:add("diamond", 0, 0, 2, 2, a) -- a square turned 45 degrees, center (1, 1)
    assert.same({ 0, 0, 2, 2, a }, { w:getRect("diamond") })
    w:add(item, 4, 0.5, 1, 1)
    local ax, ay, cols, len = w:move(item, -4, 0.5, function() return "touch" end)
    assert.equal(1, len)
    -- stops at the diamond's tip (1 + sqrt 2, 1), not at its bounding box
    assert.near(1 + math.sqrt(2), ax, 1e-12)
    assert.equal(0.5, ay)
    assert.same({ 1, 0 }, vec(cols[1].normal))
    assert.same({}, sorted(w:queryPoint(0.1, 0.1))) -- a corner of the square, outside the diamond
    assert.same({ "diamond" }, sorted(w:queryPoint(1, 0.1)))
    w:update("diamond", 0, 0) -- keeps its angle
    assert.equal(a, select(5, w:getRect("diamond")))
  end)

  -- obb's rule for turned rectangles: overlapping means by more than the
  -- touching band (box:overlaps), so one touching another is not in it
  it("queryRect and a project that does not move count a turned rectangle only when it overlaps", function()
    local w = bump.newWorld()
    local a = math.pi / 4
    local r = math.sqrt(2) -- the diamond's tips are r from its center
    w:add("diamond", 0, 0, 2, 2, a) -- center (1, 1), tips at x = 1 +- r
    -- a rectangle whose left side is at the right tip: touching
    assert.same({}, sorted(w:queryRect(1 + r, 0.5, 1, 1)))
    assert.same({ "diamond" }, sorted(w:queryRect(1 + r - 1e-3, 0.5, 1, 1)))
    -- project without moving: the others it is inside, with the way out
    local _, len = w:project("x", 1 + r, 0.5, 1, 1, 1 + r, 0.5)
    assert.equal(0, len, "touching the tip")
    local cols
    cols, len = w:project("x", 1 + r - 0.25, 0.5, 1, 1, 1 + r - 0.25, 0.5)
    assert.equal(1, len)
    assert.equal("diamond", cols[1].other)
    assert.is_true(cols[1].overlaps)
    assert.same({ 1, 0 }, vec(cols[1].normal)) -- out through the diamond's right
  end)
end)

describe("obb.bump runs a bump.lua game loop unchanged", function()
  -- The usual bump platformer: gravity, a floor of 32-pixel tiles, a wall,
  -- y down. Only bump's API is used. Under bump's rules and under obb's,
  -- whose mover meets the tiles of a floor landed on at a seam as bump
  -- does (world:set_ties "first": the first only, then it looks again).
  for _, rules in ipairs({ "bump", "obb" }) do
  it("walks over the seams, stops at the wall, jumps and lands (rules = " .. rules .. ")", function()
    local world = bump.newWorld(64, { rules = rules })
    for i = 0, 19 do world:add({ name = "floor" .. i }, i * 32, 448, 32, 32) end
    for j = 1, 4 do world:add({ name = "wall" .. j }, 608, 448 - j * 32, 32, 32) end
    local player = { x = 40, y = 300, w = 24, h = 40, vx = 0, vy = 0, onGround = false }
    world:add(player, player.x, player.y, player.w, player.h)
    local gravity, dt = 1024, 1 / 64

    local function update(jump)
      player.vy = player.vy + gravity * dt
      if jump and player.onGround then player.vy = -400 end
      player.vx = 128
      local goalX, goalY = player.x + player.vx * dt, player.y + player.vy * dt
      local actualX, actualY, cols, len = world:move(player, goalX, goalY)
      player.x, player.y = actualX, actualY
      player.onGround = false
      for i = 1, len do
        local col = cols[i]
        if col.normal.y < 0 then player.onGround = true; player.vy = 0 end
        if col.normal.y > 0 then player.vy = 0 end
        if col.normal.x ~= 0 then player.vx = 0 end
      end
      return len
    end

    local frame = 0
    while not player.onGround do
      frame = frame + 1
      update()
      assert.is_true(frame < 100)
    end
    assert.equal(448 - 40, player.y) -- exactly on the floor
    local lastX = player.x
    for _ = 1, 400 do
      local len = update()
      assert.equal(408, player.y) -- never snags on a seam, never sinks or pops
      assert.equal(1, len) -- one floor tile at a time, as bump reports it
      if player.x == 608 - 24 then break end
      assert.equal(lastX + 2, player.x)
      lastX = player.x
    end
    assert.equal(584, player.x) -- flush against the wall
    local x, y = world:getRect(player)
    assert.same({ 584, 408 }, { x, y })
    -- jump: up, down, and on the floor again, still against the wall
    update(true)
    assert.is_true(player.y < 408)
    local frames = 0
    repeat
      update()
      frames = frames + 1
      assert.is_true(frames < 200)
    until player.onGround
    assert.same({ 584, 408 }, { player.x, player.y })
  end)
  end
end)
