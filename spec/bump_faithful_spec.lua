-- obb.bump gives bump.lua 3.1's answers by default (issue 27): overlaps
-- included, cols in bump's order, a goal inside a blocker's border. The
-- expected values are bump.lua's documented and observed behaviour (its
-- responses and world scenes, and the cases found playing bump games side
-- by side, test/bump_side_by_side.lua); { rules = "obb" } keeps obb's.
local bump = require "obb.bump"

local detect, responses = bump.rect.detectCollision, bump.responses
local unpack = table.unpack or unpack

-- The col of rectangle 1 moving to the goal, as bump's response specs read
-- it: touch and normal, and the response's slide or bounce goal.
local function touchOf(...)
  local c = detect(...)
  return { c.touch.x, c.touch.y, c.normal.x, c.normal.y }
end

local function responded(name, x, y, w, h, ox, oy, ow, oh, gx, gy)
  local world = bump.newWorld()
  local c = detect(x, y, w, h, ox, oy, ow, oh, gx, gy)
  responses[name](world, c, x, y, w, h, gx, gy)
  return { c.touch.x, c.touch.y, c.normal.x, c.normal.y, c[name].x, c[name].y }
end

describe("obb.bump answers as bump.lua on overlaps", function()
  it("an overlapping rectangle that does not move is pushed out the shortest way", function()
    -- a 2x2 rectangle at nine places around an 8x8 one at (0, 0)
    local cases = {
      { -1, -1, -1, -2, 0, -1 }, { 3, -1, 3, -2, 0, -1 }, { 7, -1, 7, -2, 0, -1 },
      { -1, 3, -2, 3, -1, 0 }, { 3, 3, 3, 8, 0, 1 }, { 7, 3, 8, 3, 1, 0 },
      { -1, 7, -1, 8, 0, 1 }, { 3, 7, 3, 8, 0, 1 }, { 7, 7, 7, 8, 0, 1 },
    }
    for _, c in ipairs(cases) do
      assert.same({ c[3], c[4], c[5], c[6] }, touchOf(c[1], c[2], 2, 2, 0, 0, 8, 8))
    end
  end)

  it("an overlapping rectangle that moves goes back along its move to where it entered", function()
    assert.same({ -2, 3, -1, 0 }, touchOf(3, 3, 2, 2, 0, 0, 8, 8, 4, 3))
    assert.same({ 8, 3, 1, 0 }, touchOf(3, 3, 2, 2, 0, 0, 8, 8, 2, 3))
    assert.same({ 3, -2, 0, -1 }, touchOf(3, 3, 2, 2, 0, 0, 8, 8, 3, 4))
    assert.same({ 3, 8, 0, 1 }, touchOf(3, 3, 2, 2, 0, 0, 8, 8, 3, 2))
  end)

  it("tunnels give the entry point and side", function()
    assert.same({ -2, 3, -1, 0 }, touchOf(-3, 3, 2, 2, 0, 0, 8, 8, 3, 3))
    assert.same({ 8, 3, 1, 0 }, touchOf(9, 3, 2, 2, 0, 0, 8, 8, 3, 3))
    assert.same({ 3, -2, 0, -1 }, touchOf(3, -3, 2, 2, 0, 0, 8, 8, 3, 3))
    assert.same({ 3, 8, 0, 1 }, touchOf(3, 9, 2, 2, 0, 0, 8, 8, 3, 3))
  end)

  it("slide and bounce on overlaps, on tunnels and at a perfect corner", function()
    -- from (x, y) to (gx, gy) against the 8x8 rectangle at (0, 0): the
    -- touch, the normal and the response's goal
    local cases = {
      slide = {
        { 3, 3, 4, 5, 0.5, -2, 0, -1, 4, -2 }, { 3, 3, 5, 4, -2, 0.5, -1, 0, -2, 4 },
        { 3, 3, 2, 1, 5.5, 8, 0, 1, 2, 8 }, { 3, 3, 1, 2, 8, 5.5, 1, 0, 8, 2 },
        { 10, 10, 1, 4, 7, 8, 0, 1, 1, 8 }, { 10, 10, 4, 1, 8, 7, 1, 0, 8, 1 },
        { 10, 10, 1, 1, 8, 8, 1, 0, 8, 1 },
      },
      bounce = {
        { 3, 3, 4, 5, 0.5, -2, 0, -1, 4, -9 }, { 3, 3, 5, 4, -2, 0.5, -1, 0, -9, 4 },
        { 3, 3, 2, 1, 5.5, 8, 0, 1, 2, 15 }, { 3, 3, 1, 2, 8, 5.5, 1, 0, 15, 2 },
        { 10, 10, 1, 4, 7, 8, 0, 1, 1, 12 }, { 10, 10, 4, 1, 8, 7, 1, 0, 12, 1 },
        { 10, 10, 1, 1, 8, 8, 1, 0, 15, 1 },
      },
    }
    for name, list in pairs(cases) do
      for _, c in ipairs(list) do
        assert.same({ c[5], c[6], c[7], c[8], c[9], c[10] },
          responded(name, c[1], c[2], 2, 2, 0, 0, 8, 8, c[3], c[4]))
      end
    end
  end)

  it("a bounce on an overlap that does not move stops at the touch; a slide keeps its goal", function()
    local w = bump.newWorld()
    local c = detect(3, 7, 2, 2, 0, 0, 8, 8) -- not moving: out through the bottom, at (3, 8)
    local gx, gy = responses.bounce(w, c, 3, 7, 2, 2, 3, 7)
    assert.same({ 3, 8 }, { gx, gy })
    assert.same({ 3, 8 }, { c.bounce.x, c.bounce.y })
    c = detect(3, 7, 2, 2, 0, 0, 8, 8)
    gx, gy = responses.slide(w, c, 3, 7, 2, 2, 3, 7)
    assert.same({ 3, 7 }, { gx, gy })
  end)

  it("a world's move out of an overlap pops the item out, back along its move", function()
    local w = bump.newWorld()
    w:add("block", 0, 0, 8, 8)
    w:add("debris", 3, 3, 2, 2) -- spawned inside the block
    local x, y, cols, len = w:move("debris", 4, 3)
    assert.same({ -2, 3, 1 }, { x, y, len })
    assert.same({ "block", true, -4, -1, 0 },
      { cols[1].other, cols[1].overlaps, cols[1].ti, cols[1].normal.x, cols[1].normal.y })
    assert.same({ -2, 3, 2, 2 }, { w:getRect("debris") })
  end)

  it("project of a player standing in spikes gives the move line's normal", function()
    local w = bump.newWorld()
    w:add("spikes", 0, 10, 32, 8)
    local cols, len = w:project("player", 4, 2, 8, 10, 4, 3) -- 2 deep, moving down
    assert.equal(1, len)
    assert.same({ 0, -1 }, { cols[1].normal.x, cols[1].normal.y })
  end)

  it("{ rules = \"obb\" } keeps obb's: the item stays inside, the penetration normal", function()
    local w = bump.newWorld(nil, { rules = "obb" })
    w:add("block", 0, 0, 8, 8)
    w:add("debris", 5, 3, 2, 2) -- 1 from the block's right side
    local x, y, cols = w:move("debris", 6, 3) -- bump: back out of the left side, at -2
    assert.same({ 6, 3 }, { x, y })
    assert.same({ 1, 0 }, { cols[1].normal.x, cols[1].normal.y })
    assert.equal("obb", w.rules)
    assert.equal("bump", bump.newWorld().rules)
    assert.has_error(function() bump.newWorld(nil, { rules = "box2d" }) end,
      'bad argument #2 to \'newWorld\' (options.rules must be "bump" or "obb", got "box2d")')
    assert.has_error(function() bump.newWorld(nil, 5) end,
      "bad argument #2 to 'newWorld' (options must be a table or nil, got number)")
  end)
end)

describe("obb.bump's rect.detectCollision answers as bump.lua's", function()
  it("static: nil when apart; on an overlap the negative area, no move, the shorter way out", function()
    assert.is_nil(detect(0, 0, 1, 1, 5, 5, 1, 1, 0, 0))
    local c = detect(0, 0, 7, 6, 5, 5, 1, 1, 0, 0)
    assert.is_true(c.overlaps)
    assert.equal(-2, c.ti)
    assert.same({ x = 0, y = 0 }, c.move)
    assert.same({ x = 0, y = 0, w = 7, h = 6 }, c.itemRect)
    assert.same({ x = 5, y = 5, w = 1, h = 1 }, c.otherRect)
    assert.same({ x = 0, y = -1 }, c.normal)
  end)

  it("moving: the side met from each direction, its ti; none when the path misses", function()
    assert.is_nil(detect(0, 0, 1, 1, 5, 5, 1, 1, 0, 1))
    local cases = {
      { { 1, 1, 1, 1, 5, 0, 1, 1, 6, 0 }, 0.6, -1, 0 },
      { { 6, 0, 1, 1, 1, 0, 1, 1, 1, 1 }, 0.8, 1, 0 },
      { { 0, 0, 1, 1, 0, 4, 1, 1, 0, 5 }, 0.6, 0, -1 },
      { { 0, 4, 1, 1, 0, 0, 1, 1, 0, -1 }, 0.6, 0, 1 },
    }
    for _, k in ipairs(cases) do
      local c = detect(unpack(k[1]))
      assert.is_false(c.overlaps)
      assert.same({ k[2], k[3], k[4] }, { c.ti, c.normal.x, c.normal.y })
    end
    assert.is_nil(detect(0, 16, 16, 16, 16, 0, 16, 16, -1, 15)) -- through a corner only
  end)
end)

describe("obb.bump answers as bump.lua where issue 27 found it did not", function()
  it("a goal within the touching band inside a blocker stops at its side, with the col", function()
    local w = bump.newWorld()
    w:add("wall", 100, 156, 27, 72)
    w:add("p", 128.33333333333312, 150, 20, 20)
    local x, y, cols, len = w:move("p", 126.99999999999979, 150)
    assert.same({ 127, 150, 1 }, { x, y, len })
    assert.same({ "wall", 1, 0 }, { cols[1].other, cols[1].normal.x, cols[1].normal.y })
    local px, py, pw, ph = w:getRect("p")
    local _, n = w:queryRect(px, py, pw, ph, function(o) return o ~= "p" end)
    assert.equal(0, n) -- not inside the wall
  end)

  it("the cols of a move that starts inside several items come largest overlap first", function()
    local w = bump.newWorld(8)
    w:add("A", 133.62932787412626, 613.12354946490495, 16, 9)
    w:add("B", 96.492201414488719, 615.20728330523389, 12, 7)
    w:add("imp", 107.96290041106664, 607.15727007045962, 27, 10)
    local _, _, cols, len = w:move("imp", 107.48428452128179, 606.42198047092052,
      function() return "cross" end)
    assert.same({ 2, "A", "B" }, { len, cols[1].other, cols[2].other })
    assert.is_true(cols[1].ti < cols[2].ti and cols[2].ti < 0)
  end)

  it("bump's world scenes: touch, cross, slide and bounce through several items", function()
    local function moved(filterName, goalX, goalY, adds)
      local w = bump.newWorld()
      w:add("a", 0, 0, 1, 1)
      for _, r in ipairs(adds) do w:add(r[1], r[2], r[3], r[4], r[5]) end
      local x, y, cols, len = w:move("a", goalX, goalY, function() return filterName end)
      local others = {}
      for i = 1, len do others[i] = cols[i].other end
      local rx, ry = w:getRect("a")
      return { x, y, len, table.concat(others, ","), rx, ry }
    end
    local col = { { "b", 0, 2, 1, 1 }, { "c", 0, 3, 1, 1 } }
    assert.same({ 0, 1, 1, "b", 0, 1 }, moved("touch", 0, 5, col))
    assert.same({ 0, 5, 2, "b,c", 0, 5 }, moved("cross", 0, 5, col))
    assert.same({ 1, 5, 1, "c", 1, 5 }, moved("slide", 5, 5, { { "b", 0, 2, 1, 2 }, { "c", 2, 1, 1, 1 } }))
    assert.same({ 0, -3, 1, "b", 0, -3 }, moved("bounce", 0, 5, { { "b", 0, 2, 1, 2 } }))
  end)

  it("project sorts by ti", function()
    local w = bump.newWorld()
    w:add("b", 70, 0, 10, 10)
    w:add("c", 50, 0, 10, 10)
    w:add("d", 90, 0, 10, 10)
    local cols, len = w:project({}, 110, 0, 10, 10, 10, 0)
    assert.equal(3, len)
    assert.same({ 0.1, 0.3, 0.5 }, { cols[1].ti, cols[2].ti, cols[3].ti })
    assert.same({ "d", "b", "c" }, { cols[1].other, cols[2].other, cols[3].other })
  end)

  it("a rectangle touching a side, then moving into it, collides", function()
    local w = bump.newWorld()
    w:add("b", 0, 0, 32, 100)
    local _, len = w:project({}, 32, 50, 20, 20, 30, 50)
    assert.equal(1, len)
  end)
end)

describe("obb.bump's world.rows for bump_debug.lua", function()
  it("lists bump's grid: each cell's items and itemCount, rows by cy, cells by cx", function()
    local w = bump.newWorld(64)
    w:add("a", 10, 10, 20, 20)    -- cell (1, 1)
    w:add("b", 50, 10, 20, 20)    -- cells (1, 1) and (2, 1)
    w:add("c", 10, 100, 10, 100)  -- cells (1, 2), (1, 3) and (1, 4)
    local cells, total = {}, 0
    for cy, row in pairs(w.rows) do -- as bump_debug.lua draws them
      for cx, cell in pairs(row) do
        local l, t = w:toWorld(cx, cy)
        assert.same({ cx, cy }, { cell.x, cell.y })
        local n = 0
        for _ in pairs(cell.items) do n = n + 1 end
        assert.equal(n, cell.itemCount)
        cells[cx .. "," .. cy] = cell.itemCount
        total = total + 1
        assert.same({ (cx - 1) * 64, (cy - 1) * 64 }, { l, t })
      end
    end
    assert.same({ ["1,1"] = 2, ["2,1"] = 1, ["1,2"] = 1, ["1,3"] = 1, ["1,4"] = 1 }, cells)
    assert.equal(w:countCells(), total)
    w:remove("b")
    assert.equal(1, w.rows[1][1].itemCount)
    assert.is_nil(w.rows[1][2])
    assert.is_nil(w.nosuchfield)
  end)
end)
