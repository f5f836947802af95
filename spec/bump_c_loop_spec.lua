-- obb.bump's loop in C (lua/obb/bump.lua, "bump's loop in C";
-- src/binding/lobb_bump_run.c, src/binding/lobb_bump.c): a move by bump's rules
-- is made by the C loop, the filter asked after in the loop's order and
-- the loop run again from a wrong guess, and Lua's loop goes on where the
-- C loop cannot. Every move must be the one Lua's loop alone makes: the
-- same end, the same cols in the same order with every field the same
-- number of the same subtype (Lua 5.3 on), and the filter asked about the
-- same others in the same order. Lua's loop alone is what a world whose
-- project the game replaced gets (bump's full loop over project), so the
-- reference here is such a world.
local obb = require "obb"
local bump = require "obb.bump"
local H = require "helpers"

local mtype = math.type or function() return "float" end

-- The world's moves made by Lua's loop alone.
local function luaOnly(w)
  local project = w.project
  w.project = function(...) return project(...) end
  return w
end

-- Two numbers the same, and of the same subtype.
local function same(u, v)
  return u == v and mtype(u) == mtype(v)
end

local FIELDS = { "move", "normal", "touch", "slide", "bounce", "itemRect", "otherRect" }

-- The first difference between two moves' answers (nil: none).
local function differ(a, b)
  if not (same(a[1], b[1]) and same(a[2], b[2])) then
    return ("end (%s %s) / (%s %s)"):format(tostring(a[1]), tostring(a[2]), tostring(b[1]), tostring(b[2]))
  end
  if a[4] ~= b[4] then return ("#cols %d / %d"):format(a[4], b[4]) end
  for i = 1, a[4] do
    local p, q = a[3][i], b[3][i]
    if p.other ~= q.other or p.type ~= q.type or p.item ~= q.item or p.overlaps ~= q.overlaps
       or not same(p.ti, q.ti) then
      return ("col %d: %s %s / %s %s"):format(i, tostring(p.other), tostring(p.type), tostring(q.other),
        tostring(q.type))
    end
    for _, f in ipairs(FIELDS) do
      local u, v = p[f], q[f]
      if (u == nil) ~= (v == nil) then return ("col %d: %s"):format(i, f) end
      if u then
        for _, k in ipairs({ "x", "y", "w", "h" }) do
          if not same(u[k], v[k]) then
            return ("col %d: %s.%s %s / %s"):format(i, f, k, tostring(u[k]), tostring(v[k]))
          end
        end
      end
    end
  end
  return nil
end

-- A tile map with every kind of other (integer coordinates, as a game's
-- tiles are), the same on every world made from one seed.
local RESPONSE = { tile = "slide", spring = "bounce", spike = "touch", coin = "cross", ledge = "ledge" }

local function map(seed, ...)
  local r = H.rng(seed)
  local worlds, kinds = { ... }, {}
  local function add(name, kind, x, y, w, h)
    kinds[name] = kind
    for _, world in ipairs(worlds) do world:add(name, x, y, w, h) end
  end
  for tx = 0, 39 do
    if tx % 11 ~= 4 then add("g" .. tx, "tile", tx * 16, 400, 16, 16) end
    if tx % 7 == 3 then add("s" .. tx, "tile", tx * 16, 384, 16, 16) end
  end
  for ty = 0, 24 do
    add("wl" .. ty, "tile", 0, ty * 16, 16, 16)
    add("wr" .. ty, "tile", 39 * 16, ty * 16, 16, 16)
  end
  local list = { "tile", "tile", "spring", "spike", "coin", "ledge" }
  for i = 1, 30 do
    local kind = list[r.int(1, #list)]
    local w = kind == "coin" and 8 or 16 * r.int(1, 3)
    add(kind .. i, kind, r.int(2, 36) * 16, r.int(10, 23) * 16, w, kind == "coin" and 8 or 16)
  end
  return kinds, r
end

-- A custom response (a one-way ledge: slide from above, cross from below),
-- given to every world.
local function ledges(...)
  for _, w in ipairs({ ... }) do
    w:addResponse("ledge", function(world, col, x, y, ww, hh, gx, gy, filter)
      if col.normal.y < 0 then return bump.responses.slide(world, col, x, y, ww, hh, gx, gy, filter) end
      return bump.responses.cross(world, col, x, y, ww, hh, gx, gy, filter)
    end)
  end
end

-- A filter answering by what the other is, recording what it is asked.
local function filterOf(kinds, log)
  return function(item, other)
    log[#log + 1] = tostring(item) .. ">" .. tostring(other)
    local k = kinds[other]
    if k == "mover" then return kinds[item] == "debris" and "cross" or "slide" end
    if k == "debris" then return false end
    return RESPONSE[k]
  end
end

-- Plays the same frames on C and L (Lua's loop alone) and returns the
-- number of moves and the first difference (nil: none). hook(world, frame,
-- i) may add to a frame; opts.filter(kinds, log, world) makes the filter.
local function play(seed, frames, opts)
  opts = opts or {}
  local C, L = bump.newWorld(opts.cell or 32), luaOnly(bump.newWorld(opts.cell or 32))
  ledges(C, L)
  local kinds, r = map(seed, C, L)
  local movers = {}
  for i = 1, 24 do
    local name = "m" .. i
    local x, y = r.int(2, 36) * 16, r.int(2, 20) * 16
    if i % 6 == 0 then y = 400 - 14 + 3 end -- started inside the ground
    if i % 4 == 0 then x = x + 0.5 end      -- a float among the integers
    kinds[name] = "mover"
    C:add(name, x, y, 12, 14)
    L:add(name, x, y, 12, 14)
    movers[i] = { name = name, vx = 0, vy = 0 }
  end
  local logC, logL = {}, {}
  local fC = (opts.filter or filterOf)(kinds, logC, C)
  local fL = (opts.filter or filterOf)(kinds, logL, L)
  local moves = 0
  for frame = 1, frames do
    for i, m in ipairs(movers) do
      local x, y = C:getRect(m.name)
      if r.uniform() < 0.05 then m.vx = (r.uniform() - 0.5) * 240 end
      if r.uniform() < 0.02 then m.vy = -300 end
      m.vy = math.min(m.vy + 15, 600)
      local gx, gy = x + m.vx / 60, y + m.vy / 60
      if r.uniform() < 0.1 then gy = math.floor(gy / 16 + 0.5) * 16 - 14 end -- an integer goal, onto a tile top
      if r.uniform() < 0.03 then gx, gy = x, y end                         -- a move of length zero
      local fname = r.uniform() < 0.1 and "check" or "move"
      local nofilter = r.uniform() < 0.2
      local a = { C[fname](C, m.name, gx, gy, not nofilter and fC or nil) }
      local b = { L[fname](L, m.name, gx, gy, not nofilter and fL or nil) }
      moves = moves + 1
      local d = differ(a, b)
      if d then return moves, ("frame %d, %s of %s: %s"):format(frame, fname, m.name, d) end
      if #logC ~= #logL then return moves, ("frame %d: %d asks / %d"):format(frame, #logC, #logL) end
      for k = 1, #logC do
        if logC[k] ~= logL[k] then return moves, ("frame %d: ask %d %s / %s"):format(frame, k, logC[k], logL[k]) end
      end
      if a[2] < gy then m.vy = 0 end
      if a[1] ~= gx then m.vx = -m.vx end
      if opts.hook then opts.hook(C, L, kinds, frame, i, r) end
    end
  end
  return moves, nil
end

describe("obb.bump's loop in C", function()
  it("makes every move Lua's loop makes, bit for bit and subtype for subtype, asking the same", function()
    for seed = 1, 4 do
      local moves, d = play(seed, 60)
      assert.is_nil(d)
      assert.is_true(moves > 1000)
    end
  end)

  it("is the same with debris thrown out of blocks (overlaps), and in larger cells", function()
    local debris = 0
    local moves, d = play(7, 60, {
      cell = 64,
      hook = function(C, L, kinds, frame, i, r)
        if i ~= 1 or frame % 3 ~= 0 then return end
        debris = debris + 1
        local name = "d" .. debris
        kinds[name] = "debris"
        local bx, by = C:getRect("g" .. r.int(0, 3))
        local dx = 2 + r.int(0, 8)
        for _, w in ipairs({ C, L }) do w:add(name, bx + dx, by + 2, 4, 4) end
        local gx, gy = bx + (r.uniform() - 0.5) * 40, by - r.uniform() * 40
        local function f(_, o) return kinds[o] ~= "mover" and (o:byte(-1) % 2 == 0 and "bounce" or "slide") end
        local a, b = { C:move(name, gx, gy, f) }, { L:move(name, gx, gy, f) }
        assert.is_nil(differ(a, b))
      end,
    })
    assert.is_nil(d)
    assert.is_true(moves > 1000)
  end)

  it("asks again from a wrong guess: answers that change from move to move", function()
    local moves, d = play(11, 40, {
      filter = function(kinds, log)
        local n = 0
        return function(item, other)
          log[#log + 1] = tostring(item) .. ">" .. tostring(other)
          n = n + 1
          if kinds[other] == "mover" then return n % 3 == 0 and "cross" or "slide" end
          return ({ "slide", "bounce", false, "cross", "touch", "ledge" })[n % 6 + 1]
        end
      end,
    })
    assert.is_nil(d)
    assert.is_true(moves > 500)
  end)

  it("goes on in Lua from a filter that changes the world while asked", function()
    -- every kind of change: the other asked about removed or moved, another
    -- added, the mover itself moved or removed, a nested move of another
    -- item, a response added; all at once, at random asks
    local function changing(kinds, log, world)
      local r, extra = H.rng(5), 0
      return function(item, other)
        log[#log + 1] = tostring(item) .. ">" .. tostring(other)
        local u = r.uniform()
        if u < 0.03 and kinds[other] == "coin" then
          world:remove(other)
          kinds[other] = nil
        elseif u < 0.06 and kinds[other] == "tile" then
          local x, y = world:getRect(other)
          world:update(other, x, y + 1)
        elseif u < 0.08 then
          extra = extra + 1
          local name = "x" .. extra
          kinds[name] = "tile"
          world:add(name, 100 + extra * 16, 300, 16, 16)
        elseif u < 0.10 and item ~= "m1" and world:hasItem("m1") then
          local x, y = world:getRect("m1")
          world:move("m1", x + 1, y + 1)
        elseif u < 0.11 then
          world:addResponse("ledge" .. extra, bump.responses.slide)
        end
        local k = kinds[other]
        if k == "mover" then return "slide" end
        return k and RESPONSE[k] or false
      end
    end
    local moves, d = play(13, 40, { filter = changing })
    assert.is_nil(d)
    assert.is_true(moves > 500)
  end)

  it("hands a col whose response is the game's to Lua's loop, and raises for an unknown name", function()
    local C, L = bump.newWorld(32), luaOnly(bump.newWorld(32))
    ledges(C, L)
    for _, w in ipairs({ C, L }) do
      w:add("floor", 0, 100, 200, 16)
      w:add("ledge", 40, 60, 32, 8)
      w:add("m", 40, 80, 12, 12)
    end
    local function f(_, o) return o == "ledge" and "ledge" or "slide" end
    assert.is_nil(differ({ C:move("m", 50, 40, f) }, { L:move("m", 50, 40, f) }))
    assert.is_nil(differ({ C:move("m", 60, 20, f) }, { L:move("m", 60, 20, f) }))
    for _, w in ipairs({ C, L }) do
      assert.has_error(function() w:move("m", 50, 120, function() return "nosuch" end) end,
        "Unknown collision type: nosuch (string)")
    end
  end)

  it("moves crowds (a cross through 400 coins) as Lua's loop does", function()
    local C, L = bump.newWorld(64), luaOnly(bump.newWorld(64))
    for _, w in ipairs({ C, L }) do
      for i = 1, 400 do w:add("c" .. i, 20 + (i % 20), 20 + math.floor(i / 20), 4, 4) end
      w:add("m", 0, 0, 50, 50)
    end
    local function f() return "cross" end
    local a, b = { C:check("m", 10, 10, f) }, { L:check("m", 10, 10, f) }
    assert.equal(400, a[4])
    assert.is_nil(differ(a, b))
  end)

  it("keeps integers beyond 2^26 exact: such a move is Lua's", function()
    local big = 2 ^ 40
    if math.type then big = math.tointeger(big) end
    local C, L = bump.newWorld(64), luaOnly(bump.newWorld(64))
    for _, w in ipairs({ C, L }) do
      w:add("wall", big + 40, 0, 16, 16)
      w:add("m", big, 0, 12, 12)
    end
    local a, b = { C:move("m", big + 100, 3) }, { L:move("m", big + 100, 3) }
    assert.is_nil(differ(a, b))
    assert.equal(big + 28, a[1])
    assert.equal(1, a[4])
  end)
end)

describe("obb.bump's loop in C under hostile filters", function()
  local function scene()
    local w = bump.newWorld(32)
    w:add("floor", 0, 100, 200, 16)
    w:add("coin", 30, 80, 8, 8)
    w:add("wall", 60, 60, 16, 40)
    w:add("m", 10, 86, 12, 14)
    return w
  end

  local function coinCross(_, o) return o == "coin" and "cross" or "slide" end

  it("never calls a Lua function put in gcinfo's place (LuaJIT's trace split uses its own only)", function()
    local saved, calls = rawget(_G, "gcinfo"), 0
    package.loaded["obb.bump"] = nil
    rawset(_G, "gcinfo", function() calls = calls + 1 return 0 end)
    local ok, fresh = pcall(require, "obb.bump")
    rawset(_G, "gcinfo", saved)
    package.loaded["obb.bump"] = bump
    assert(ok, fresh)
    local w = fresh.newWorld(32)
    w:add("floor", 0, 100, 200, 16)
    w:add("coin", 30, 80, 8, 8)
    w:add("m", 10, 86, 12, 14)
    for k = 1, 200 do
      local ax = w:move("m", 10 + k % 40, 86, coinCross)
      assert.is_number(ax)
    end
    assert.equal(0, calls)
  end)

  it("a filter that raises changes nothing, and the next move is whole", function()
    local w, ref = scene(), luaOnly(scene())
    assert.has_error(function() w:move("m", 100, 86, function() error("boom") end) end, "boom")
    assert.same({ 10, 86, 12, 14 }, { w:getRect("m") })
    local a = { w:move("m", 100, 86, coinCross) }
    assert.is_nil(differ(a, { ref:move("m", 100, 86, coinCross) }))
    assert.same({ 48, 86 }, { a[1], a[2] })
    assert.same({ "coin", "wall" }, { a[3][1].other, a[3][2].other })
  end)

  it("a filter that yields: the move goes on when resumed, as if it had not", function()
    local w, ref = scene(), luaOnly(scene())
    local function f(_, o)
      coroutine.yield(o)
      return o == "coin" and "cross" or "slide"
    end
    local results = {}
    for i, world in ipairs({ w, ref }) do
      local co = coroutine.wrap(function() return { world:move("m", 100, 86, f) } end)
      local v = co()
      while type(v) == "string" do
        if i == 1 then ref:getRect("m") end -- another world used meanwhile
        v = co()
      end
      results[i] = v
    end
    assert.is_nil(differ(results[1], results[2]))
    assert.same({ 48, 86 }, { results[1][1], results[1][2] })
  end)

  it("a filter that yields from a coroutine that is dropped leaves the world usable", function()
    local w = scene()
    local co = coroutine.create(function() w:move("m", 100, 86, function() coroutine.yield() end) end)
    assert.is_true(coroutine.resume(co))
    co = nil -- luacheck: ignore 311
    collectgarbage()
    collectgarbage()
    assert.same({ 10, 86, 12, 14 }, { w:getRect("m") })
    local ax, ay = w:move("m", 100, 86, coinCross)
    assert.same({ 48, 86 }, { ax, ay })
  end)

  it("a move from inside a filter (the same world) gets its own records", function()
    local w, ref = scene(), luaOnly(scene())
    for _, world in ipairs({ w, ref }) do world:add("n", 150, 86, 12, 14) end
    local function f(world)
      return function(item, o)
        if item == "m" and o == "wall" then world:move("n", 100, 86) end
        return o == "coin" and "cross" or "slide"
      end
    end
    assert.is_nil(differ({ w:move("m", 100, 86, f(w)) }, { ref:move("m", 100, 86, f(ref)) }))
    assert.same({ ref:getRect("n") }, { w:getRect("n") })
  end)

  it("world:remove of the mover itself from its filter: the move ends as Lua's", function()
    local w, ref = scene(), luaOnly(scene())
    local function f(world)
      return function(item, o)
        if o == "coin" then world:remove(item) end
        return "slide"
      end
    end
    assert.is_nil(differ({ w:move("m", 100, 86, f(w)) }, { ref:move("m", 100, 86, f(ref)) }))
    assert.is_false(w:hasItem("m"))
  end)
end)

describe("obb._bump, obb.bump's C half, called by hand", function()
  local B = obb._bump

  it("refuses what is not its own with -1 or false, never a crash", function()
    local w = bump.newWorld(32)
    w:add("m", 0, 0, 10, 10)
    w:add("wall", 12, 0, 10, 10)
    local ow = w._w
    local t = {}
    assert.equal(-1, B.check(nil, "m", 0, 0, 10, 10, 5, 5, -1, 0, t, t, t))
    assert.equal(-1, B.check(ow, "nope", 0, 0, 10, 10, 5, 5, -1, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0 / 0, 0, 10, 10, 5, 5, -1, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0, 0, -10, 10, 5, 5, -1, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, math.huge, 5, -1, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, 5, 5, 99, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, 5, 5, -1, 10 ^ 6, t, t, t))
    assert.equal(-1, B.check(obb.world3(), "m", 0, 0, 10, 10, 5, 5, -1, 0, t, t, t))
    assert.has_error(function() B.check(ow, "m", 0, 0, 10, 10, 5, 5, -1, 0, t, t, nil) end)
    assert.is_false(B.rect(ow, "nope", 0, 0, 1, 1))
    assert.is_false(B.rect(ow, "m", 0, 0, 0, 1))
    assert.is_false(B.update(ow, "m", 0, 0, 1, 0 / 0))
    assert.is_false(B.update({}, "m", 0, 0, 1, 1))
    assert.is_false(B.update(ow, "m", 1.7e308, 0, 1e308, 1)) -- a center that overflows
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, 5, 5, 2 ^ 40, 0, t, t, t))
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, 5, 5, -1, -7, t, t, t))
    -- a fixed answer that is not this run's: -3
    local asks = { 12345, 3 }
    assert.equal(-3, B.check(ow, "m", 0, 0, 10, 10, 5, 5, -1, 1, asks, t, t))
    w._w:close()
    assert.equal(-1, B.check(ow, "m", 0, 0, 10, 10, 5, 5, -1, 0, t, t, t))
    assert.is_false(B.rect(ow, "m", 0, 0, 1, 1))
  end)

  it("survives its world closed by hand from a filter, and a fixed answer that is garbage", function()
    local w = bump.newWorld(32)
    w:add("wall", 30, 0, 10, 40)
    w:add("m", 0, 0, 10, 10)
    local ok, err = pcall(w.move, w, "m", 50, 0, function()
      debug.getmetatable(w._w).__gc(w._w)
      return "slide"
    end)
    assert.is_false(ok)
    assert.matches("closed", err)
    local w2 = bump.newWorld(32)
    w2:add("wall", 30, 0, 10, 40)
    w2:add("m", 0, 0, 10, 10)
    local t = {}
    local asks = { 0 / 0, 3, 1e300, 2 }
    assert.equal(-3, B.check(w2._w, "m", 0, 0, 10, 10, 50, 0, -1, 1, asks, t, t))
    asks[1], asks[2] = 1e300, 1.5
    assert.equal(-3, B.check(w2._w, "m", 0, 0, 10, 10, 50, 0, -1, 1, asks, t, t))
    assert.equal(20, (w2:move("m", 50, 0)))
  end)

  it("forgets a rectangle whenever the box changes another way", function()
    local w = bump.newWorld(32)
    w:add("wall", 30, 0, 10, 40)
    w:add("m", 0, 0, 10, 10)
    local t = { asks = {}, others = {}, cols = {} }
    local function run()
      return B.check(w._w, "m", 0, 0, 10, 10, 50, 0, 3, 0, t.asks, t.others, t.cols)
    end
    assert.equal(0, (run()))
    w._w:update("wall", 35, 20, 5, 20) -- obb's own update: the rectangle is gone
    assert.equal(-1, (run()))
    assert.is_true(B.rect(w._w, "wall", 30, 0, 10, 40))
    assert.equal(0, (run()))
    -- and the move itself is still right through bump's update
    local ax = w:move("m", 50, 0)
    assert.equal(20, ax)
  end)
end)
