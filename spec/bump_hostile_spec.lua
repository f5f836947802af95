-- obb.bump under hostile filters and responses (docs/reference.md, "Coming
-- from bump.lua"): a filter that removes, adds or updates items while obb's
-- C world runs it, a custom response or filter that raises, and one that
-- yields from a coroutine that is then dropped. After each, every view of
-- the world must agree: bump's record (getRect, hasItem, getItems), obb's
-- box (queryPoint at the item's center, queryRect, the C world itself) and
-- countItems.
local bump = require "obb.bump"

local function has(list, len, v)
  for i = 1, len do
    if list[i] == v then return true end
  end
  return false
end

-- Every view of the world agrees that item is at (x, y, w, h); or, when x
-- is nil, that it is gone. Returns nothing: it asserts.
local function agree(world, item, x, y, w, h)
  local items, len = world:getItems()
  assert.equal(len, world:countItems())
  assert.equal(len, world._w:count()) -- no probe or stale box left in obb's world
  if x == nil then
    assert.is_false(world:hasItem(item))
    assert.is_false(has(items, len, item))
    assert.has_error(function() world:getRect(item) end)
    assert.is_false(world._w:has(item))
    return
  end
  assert.is_true(world:hasItem(item))
  assert.is_true(has(items, len, item))
  assert.same({ x, y, w, h }, { world:getRect(item) })
  local cx, cy = world._w:get(item)
  assert.same({ x + w / 2, y + h / 2 }, { cx, cy })
  local found, n = world:queryPoint(x + w / 2, y + h / 2)
  assert.is_true(has(found, n, item))
  found, n = world:queryRect(x, y, w, h)
  assert.is_true(has(found, n, item))
end

-- Nothing but item is found at the point.
local function nothingAt(world, px, py, item)
  local found, n = world:queryPoint(px, py)
  assert.is_false(has(found, n, item))
end

-- Runs fn in a coroutine that yields once (or raises, where Lua 5.1 cannot
-- yield across a pcall) and drops it, collected.
local function dropped(fn)
  local co = coroutine.create(fn)
  local ok, err = coroutine.resume(co)
  assert(ok or type(err) == "string", err)
  assert.not_equal("dead", ok and coroutine.status(co) or "suspended")
  co = nil -- luacheck: ignore 311
  collectgarbage()
  collectgarbage()
end

-- A player at (0, 0) 10 by 10 moving right to (50, 0) through a coin at
-- (20, 0) and a wall at (40, 0). Under obb's rules unless told: the specs
-- below are about obb's C world running the filter (locked); under bump's
-- rules (the default) filters run in Lua, as bump.lua runs them (the last
-- describe).
local function scene(rules)
  local w = bump.newWorld(nil, { rules = rules or "obb" })
  local player, coin, wall = { name = "player" }, { name = "coin" }, { name = "wall" }
  w:add(player, 0, 0, 10, 10)
  w:add(coin, 20, 0, 10, 10)
  w:add(wall, 40, 0, 10, 10)
  return w, player, coin, wall
end

describe("obb.bump: world:remove from inside a filter", function()
  it("a move's filter collects a coin and answers false: the coin is gone from every view", function()
    local w, player, coin, wall = scene()
    local ax, ay, cols, len = w:move(player, 50, 0, function(_, other)
      if other == coin then
        w:remove(coin)
        return false
      end
      return "slide"
    end)
    assert.same({ 30, 0, 1 }, { ax, ay, len })
    assert.equal(wall, cols[1].other)
    agree(w, coin)
    agree(w, player, 30, 0, 10, 10)
    agree(w, wall, 40, 0, 10, 10)
    assert.equal(2, w:countItems())
    nothingAt(w, 25, 5, coin)
    assert.same({}, (w:queryRect(20, 0, 10, 10, function(i) return i == coin end)))
    -- a later move over where it was meets nothing; it can come back
    ax, ay, cols, len = w:move(player, 0, 0)
    assert.same({ 0, 0, {}, 0 }, { ax, ay, cols, len })
    ax, ay, cols, len = w:move(player, 15, 0)
    assert.same({ 15, 0, {}, 0 }, { ax, ay, cols, len })
    w:add(coin, 30, 20, 5, 5)
    agree(w, coin, 30, 20, 5, 5)
    assert.equal(3, w:countItems())
  end)

  it("an item removed by the filter is not asked about again and makes no col", function()
    local w, player, coin, wall = scene()
    local asked = {}
    local ax, _, cols, len = w:move(player, 50, 0, function(_, other)
      asked[#asked + 1] = other
      if other == coin then w:remove(wall) end
      return "cross"
    end)
    assert.equal(50, ax)
    assert.same({ coin }, asked)
    assert.same({ 1, coin }, { len, cols[1].other })
    agree(w, wall)
    agree(w, player, 50, 0, 10, 10)
    assert.equal(2, w:countItems())
  end)

  it("a col made before its other was removed keeps the rectangle it had", function()
    local w, player, coin, wall = scene()
    local _, _, cols, len = w:check(player, 50, 0, function(_, other)
      if other == wall then w:remove(coin) end
      return "cross"
    end)
    assert.equal(2, len)
    assert.same({ coin, 20 }, { cols[1].other, cols[1].otherRect.x })
    agree(w, coin)
    agree(w, player, 0, 0, 10, 10)
    agree(w, wall, 40, 0, 10, 10)
  end)

  it("removing the other and answering a response: it is gone, and no col", function()
    local w, player, coin = scene()
    local ax, _, cols, len = w:move(player, 50, 0, function(_, other)
      if other == coin then w:remove(coin) end
      return "slide"
    end)
    assert.same({ 30, 1 }, { ax, len })
    assert.not_equal(coin, cols[1].other)
    agree(w, coin)
    agree(w, player, 30, 0, 10, 10)
  end)

  it("the moving item may remove itself: the move ends, and it is gone", function()
    local w, player, coin = scene()
    w:move(player, 50, 0, function(item, other)
      if other == coin then w:remove(item) end
      return false
    end)
    agree(w, player)
    agree(w, coin, 20, 0, 10, 10)
    w:add(player, 0, 0, 10, 10)
    agree(w, player, 0, 0, 10, 10)
  end)

  it("while the filter runs, the removed item is gone from every lookup", function()
    local w, player, coin, wall = scene()
    local seen
    w:move(player, 50, 0, function(_, other)
      if other == coin then
        w:remove(coin)
        local qr, nr = w:queryRect(0, 0, 60, 10)
        local qp, np = w:queryPoint(25, 5)
        local qs, ns = w:querySegment(-1, 5, 60, 5)
        seen = { w:hasItem(coin), w:countItems(), has(qr, nr, coin), has(qp, np, coin), has(qs, ns, coin),
          select(2, w:getItems()) }
        return false
      end
      return "touch"
    end)
    assert.same({ false, 2, false, false, false, 2 }, seen)
    agree(w, coin)
    agree(w, wall, 40, 0, 10, 10)
  end)

  it("from a project's filter, from query filters, and from a check of length zero's (in Lua: at once)", function()
    local w, player, coin, wall = scene()
    local cols, len = w:project(player, 0, 0, 10, 10, 50, 0, function(_, other)
      if other == coin then w:remove(coin); return false end
      return "cross"
    end)
    assert.same({ 1, wall }, { len, cols[1].other })
    agree(w, coin)
    w:add(coin, 20, 0, 10, 10)
    local items, n = w:queryRect(0, 0, 60, 10, function(item)
      if item == player then w:remove(coin) end
      return true
    end)
    assert.is_false(has(items, n, coin))
    agree(w, coin)
    w:add(coin, 20, 0, 10, 10)
    items, n = w:queryPoint(25, 5, function(item) w:remove(item); return true end)
    assert.same({ {}, 0 }, { items, n })
    agree(w, coin)
    w:add(coin, 20, 0, 10, 10)
    items, n = w:querySegment(-1, 5, 60, 5, function(item)
      if item ~= player then w:remove(item) end
      return true
    end)
    assert.same({ { player }, 1 }, { items, n })
    items, n = w:querySegmentWithCoords(-1, 5, 60, 5, function() return true end)
    assert.same({ player, 1 }, { items[1].item, n })
    agree(w, coin)
    agree(w, wall)
    agree(w, player, 0, 0, 10, 10)
    assert.equal(1, w:countItems())
    -- bump's loop over project, in Lua
    local _
    w, player, coin, wall = scene()
    w:update(coin, 5, 0)
    w:update(wall, 0, 5)
    _, _, cols, len = w:check(player, 0, 0, function(_, other)
      if other == coin then w:remove(wall) end
      if other == wall then w:remove(coin) end
      return "cross"
    end)
    assert.equal(1, len)
    assert.is_true(cols[1].other == coin or cols[1].other == wall)
    agree(w, cols[1].other == coin and wall or coin)
    agree(w, player, 0, 0, 10, 10)
    assert.equal(2, w:countItems())
  end)
end)

describe("obb.bump: world:add and world:update from inside a filter", function()
  it("are refused with a clear error before anything changes", function()
    local w, player, coin, wall = scene()
    local spawned = { name = "spawned" }
    local ok, err = pcall(w.move, w, player, 50, 0, function(_, other)
      if other == coin then w:add(spawned, 100, 100, 1, 1) end
      return "slide"
    end)
    assert.is_false(ok)
    assert.matches("cannot add items from inside a filter", err)
    agree(w, spawned)
    agree(w, player, 0, 0, 10, 10)
    ok, err = pcall(w.move, w, player, 50, 0, function(_, other)
      if other == coin then w:update(wall, 100, 100) end
      return "slide"
    end)
    assert.is_false(ok)
    assert.matches("cannot update items from inside a filter", err)
    agree(w, wall, 40, 0, 10, 10)
    agree(w, player, 0, 0, 10, 10)
    ok, err = pcall(w.queryRect, w, 0, 0, 60, 10, function() w:update(coin, 0, 50, 2, 2) end)
    assert.is_false(ok)
    assert.matches("cannot update items from inside a filter", err)
    agree(w, coin, 20, 0, 10, 10)
    -- project needs obb's world for its probe: refused the same way
    ok, err = pcall(w.check, w, player, 50, 0, function()
      w:project(nil, 100, 100, 1, 1, 110, 100)
    end)
    assert.is_false(ok)
    assert.matches("project cannot run inside a filter", err)
    agree(w, player, 0, 0, 10, 10)
    ok, err = pcall(w.move, w, player, 50, 0, function()
      w:project(player, 0, 0, 10, 10, 50, 0) -- its own rectangle: obb would check the item
    end)
    assert.is_false(ok)
    assert.matches("project cannot run inside a filter", err)
    agree(w, player, 0, 0, 10, 10)
    -- after the call, they work
    w:add(spawned, 100, 100, 1, 1)
    w:update(wall, 100, 0)
    agree(w, spawned, 100, 100, 1, 1)
    agree(w, wall, 100, 0, 10, 10)
    assert.equal(4, w:countItems())
  end)
end)

describe("obb.bump: a custom response or filter that raises or is dropped", function()
  local function stickyScene(response)
    local w, player, coin, wall = scene()
    w:addResponse("sticky", response)
    return w, player, coin, wall, function(_, other) return other == coin and "sticky" or "slide" end
  end

  it("a custom response that raises changes nothing", function()
    local w, player, coin, _, filter = stickyScene(function() error("boom") end)
    local ok, err = pcall(w.move, w, player, 50, 0, filter)
    assert.is_false(ok)
    assert.matches("boom", err)
    agree(w, player, 0, 0, 10, 10)
    nothingAt(w, 15, 5, player) -- not at the touch point
    agree(w, coin, 20, 0, 10, 10)
    assert.equal(3, w:countItems())
    local ax, ay = w:move(player, 50, 0) -- and the world moves on: the coin stops it
    assert.same({ 10, 0 }, { ax, ay })
    agree(w, player, 10, 0, 10, 10)
    -- a response's own effects stay, and both records agree on them
    w:update(player, 0, 0)
    w:addResponse("sticky", function(world, col)
      world:update(col.item, -20, -20, 4, 4)
      error("after the update")
    end)
    assert.has_error(function() w:move(player, 50, 0, filter) end)
    agree(w, player, -20, -20, 4, 4)
    nothingAt(w, 15, 5, player)
  end)

  it("a custom response that yields from a dropped coroutine changes nothing", function()
    local w, player, coin, _, filter = stickyScene(function() coroutine.yield() end)
    dropped(function() w:move(player, 50, 0, filter) end)
    agree(w, player, 0, 0, 10, 10)
    nothingAt(w, 15, 5, player)
    agree(w, coin, 20, 0, 10, 10)
    -- a filter obb runs in C cannot yield: it raises, and nothing changed
    dropped(function()
      w:move(player, 50, 0, function() coroutine.yield() end)
    end)
    agree(w, player, 0, 0, 10, 10)
    local ok, err = pcall(w.queryRect, w, 0, 0, 60, 10, function() coroutine.yield() end)
    assert.is_false(ok)
    assert.matches("yield", err)
    -- no call is left under way: remove, add and update are immediate
    w:remove(coin)
    assert.is_false(w._w:has(coin))
    w:add(coin, 20, 0, 10, 10)
    w:update(coin, 21, 0)
    agree(w, coin, 21, 0, 10, 10)
  end)

  it("a filter that raises in bump's loop after a custom response changes nothing", function()
    local w, player, coin, _ = scene()
    w:addResponse("through", bump.responses.cross) -- obb's C mover
    w:addResponse("pass", function(...) return bump.responses.cross(...) end) -- custom: Lua
    local ok, err = pcall(w.move, w, player, 50, 0, function(_, other)
      if other == coin then return "pass" end
      error("bad wall")
    end)
    assert.is_false(ok)
    assert.matches("bad wall", err)
    agree(w, player, 0, 0, 10, 10)
    nothingAt(w, 15, 5, player)
    -- the same filter under obb's C mover only
    ok = pcall(w.move, w, player, 50, 0, function(_, other)
      if other == coin then return "through" end
      error("bad wall")
    end)
    assert.is_false(ok)
    agree(w, player, 0, 0, 10, 10)
    agree(w, coin, 20, 0, 10, 10)
  end)

  it("a filter that yields in project from a dropped coroutine leaves no probe behind", function()
    local w, player, coin, wall = scene()
    -- project of a rectangle that is no item's, not moving: the filter runs in Lua
    dropped(function()
      w:project(nil, 15, 0, 10, 10, 15, 0, function() coroutine.yield() end)
    end)
    agree(w, player, 0, 0, 10, 10)
    agree(w, coin, 20, 0, 10, 10)
    agree(w, wall, 40, 0, 10, 10)
    local cols, len = w:project(nil, 15, 0, 10, 10, 15, 0)
    assert.same({ 1, coin }, { len, cols[1].other })
    -- the same from a custom response's project, in a move
    local yielding = true
    w:addResponse("look", function(world, col, _, _, iw, ih, _, _, filter)
      local t = col.touch
      world:project(col.item, t.x + 1, t.y, iw, ih, t.x + 1, t.y, function(...)
        if yielding then coroutine.yield() end
        return filter(...)
      end)
      return t.x, t.y, {}, 0
    end)
    dropped(function()
      w:move(player, 50, 0, function(_, other) return other == coin and "look" or "slide" end)
    end)
    agree(w, player, 0, 0, 10, 10)
    nothingAt(w, 15, 5, player)
    assert.equal(3, w:countItems())
    yielding = false
    local ax, ay = w:move(player, 50, 0, function() return "look" end)
    assert.same({ 10, 0 }, { ax, ay })
    agree(w, player, 10, 0, 10, 10)
  end)
end)

describe("obb.bump under bump's rules (the default): filters run in Lua, the world unlocked", function()
  it("a filter may remove, add and update items, as with bump.lua; the removed make no col", function()
    local w, player, coin, wall = scene("bump")
    local spawned = { name = "spawned" }
    local ax, _, cols, len = w:move(player, 50, 0, function(_, other)
      if other == coin then
        w:remove(coin)
        w:add(spawned, 100, 100, 1, 1)
        w:update(wall, 45, 0)
        return "cross"
      end
      return "slide"
    end)
    -- the wall was asked about before or after the coin (obb's broad
    -- phase's order): either way the player stops at one of its sides
    assert.is_true(ax == 30 or ax == 35)
    assert.is_false(has({ cols[1].other }, 1, coin))
    assert.equal(1, len)
    assert.equal(wall, cols[1].other)
    agree(w, coin)
    agree(w, spawned, 100, 100, 1, 1)
    agree(w, wall, 45, 0, 10, 10)
    agree(w, player, ax, 0, 10, 10)
  end)

  it("a custom response that raises, or a filter that yields from a dropped coroutine, changes nothing", function()
    local w, player, coin, wall = scene("bump")
    w:addResponse("boom", function() error("boom") end)
    local ok, err = pcall(w.move, w, player, 50, 0, function(_, o) return o == coin and "boom" or "slide" end)
    assert.is_false(ok)
    assert.matches("boom", err)
    agree(w, player, 0, 0, 10, 10)
    dropped(function()
      w:move(player, 50, 0, function() coroutine.yield() end)
    end)
    agree(w, player, 0, 0, 10, 10)
    agree(w, coin, 20, 0, 10, 10)
    agree(w, wall, 40, 0, 10, 10)
    local ax, ay = w:move(player, 50, 0)
    assert.same({ 10, 0 }, { ax, ay })
    agree(w, player, 10, 0, 10, 10)
  end)
end)
