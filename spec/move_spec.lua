-- Moving boxes through a world: world:move, world:check, world:push,
-- world:cast, obb.clip and obb.reflect (docs/reference.md, "Moving boxes"). The rules
-- are checked on scenes whose answers follow from geometry alone (bump.lua's
-- own examples, flush tiles, V shapes, turned walls), and on random scenes
-- against the world's other queries.
local obb = require "obb"
local H = require "spec.helpers"

local S2, S3 = obb.MOVE_STRIDE2, obb.MOVE_STRIDE3
local sqrt, sin, cos, pi = math.sqrt, math.sin, math.cos, math.pi
local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"

-- The item's center, as a list.
local function at(w, item)
  local v = { w:get(item) }
  if #v == 5 then return { v[1], v[2] } end
  return { v[1], v[2], v[3] }
end

local function uniform(seed)
  local r = H.rng(seed)
  return r.uniform
end

-- The pair band of the touching rule (docs/reference.md, "Precision") for boxes with
-- centers a, b and half extents ea, eb (lists).
local function band(a, ea, b, eb)
  local S, M = 0, 0
  for i = 1, #a do
    S = S + math.abs(b[i] - a[i]) + ea[i] + eb[i]
    M = math.max(M, math.abs(a[i]), math.abs(b[i]))
  end
  return obb.TOUCH_REL * S + obb.TOUCH_COORD * M + obb.TOUCH_FLOOR
end

-- Asserts item overlaps no other of the world by more than the band (it
-- never ends a move inside a solid).
local function assert_not_inside(w, item, what)
  local out = {}
  local n = w:collisions(item, out)
  local me = { w:get(item) }
  local dim = #me == 5 and 2 or 3
  local stride = dim + 1
  for i = 1, n do
    local other = out[(i - 1) * stride + 1]
    local o = { w:get(other) }
    local d = 0
    for k = 2, stride do d = d + out[(i - 1) * stride + k] ^ 2 end
    local c1 = dim == 2 and { me[1], me[2] } or { me[1], me[2], me[3] }
    local c2 = dim == 2 and { o[1], o[2] } or { o[1], o[2], o[3] }
    local e1 = dim == 2 and { me[3], me[4] } or { me[4], me[5], me[6] }
    local e2 = dim == 2 and { o[3], o[4] } or { o[4], o[5], o[6] }
    if sqrt(d) > 2 * band(c1, e1, c2, e2) then
      error((what or "") .. ": inside " .. tostring(other) .. " by " .. sqrt(d), 2)
    end
  end
end

local recs = H.records

describe("world:move (2D)", function()
  -- bump.lua's own examples (its spec/responses_spec.lua, "tunnels"): an
  -- 8x8 box at top-left (0, 0) and a 2x2 item given by top-left corners;
  -- here as centers (top-left + 1 for the item, (4, 4) for the box).
  local function scene()
    local w = obb.world2()
    w:add("box", 4, 4, 4, 4)
    return w
  end
  local function from_bump(w, item, x, y) -- top-left corner to center
    w:add(item, x + 1, y + 1, 1, 1)
  end

  it("touch stops where the item meets the other (bump's tunnels)", function()
    for _, c in ipairs {
      { -3, 3, 3, 3, -2, 3, -1, 0 }, { 9, 3, 3, 3, 8, 3, 1, 0 },
      { 3, -3, 3, 3, 3, -2, 0, -1 }, { 3, 9, 3, 3, 3, 8, 0, 1 },
    } do
      local w, it, out = scene(), {}, {}
      from_bump(w, it, c[1], c[2])
      local ax, ay, n = w:move(it, c[3] + 1, c[4] + 1, "touch", out)
      assert.same({ c[5] + 1, c[6] + 1, 1 }, { ax, ay, n })
      local r = recs(out, 1, S2)[1]
      assert.same({ "box", "touch", c[7], c[8] }, { r[1], r[2], r[4], r[5] })
      assert.same({ c[5] + 1, c[6] + 1, 0 }, { r[6], r[7], r[8] })
      assert.same({ ax, ay }, at(w, it))
    end
  end)

  it("slide keeps the tangential part of the move (bump's tunnels and corner)", function()
    -- slide(10,10,2,2, 0,0,8,8, goal) -> touch, normal, final (bump)
    for _, c in ipairs {
      { 1, 4, 7, 8, 0, 1, 1, 8 },
      { 4, 1, 8, 7, 1, 0, 8, 1 },
      { 1, 1, 8, 8, 1, 0, 8, 1 }, -- the perfect corner: the x axis wins
    } do
      local w, it, out = scene(), {}, {}
      from_bump(w, it, 10, 10)
      local ax, ay, n = w:move(it, c[1] + 1, c[2] + 1, "slide", out)
      assert.same({ c[7] + 1, c[8] + 1, 1 }, { ax, ay, n })
      local r = recs(out, 1, S2)[1]
      assert.same({ "box", "slide", c[5], c[6], c[3] + 1, c[4] + 1 },
        { r[1], r[2], r[4], r[5], r[6], r[7] })
    end
  end)

  it("bounce mirrors the rest of the move (bump's tunnels and corner)", function()
    for _, c in ipairs {
      { 1, 4, 7, 8, 0, 1, 1, 12 },
      { 4, 1, 8, 7, 1, 0, 12, 1 },
      { 1, 1, 8, 8, 1, 0, 15, 1 },
    } do
      local w, it, out = scene(), {}, {}
      from_bump(w, it, 10, 10)
      local ax, ay = w:move(it, c[1] + 1, c[2] + 1, "bounce", out)
      assert.same({ c[7] + 1, c[8] + 1 }, { ax, ay })
      assert.same({ "bounce", c[5], c[6] }, { out[2], out[4], out[5] })
    end
  end)

  it("cross goes through and reports the other once", function()
    local w, it, out = scene(), {}, {}
    from_bump(w, it, -3, 3)
    local ax, ay, n = w:move(it, 13, 4, "cross", out)
    assert.same({ 13, 4, 1 }, { ax, ay, n })
    assert.same({ "box", "cross", 1 / 15, -1, 0, -1, 4, 0 }, recs(out, 1, S2)[1])
  end)

  it("the default response is slide; check does not commit, move does", function()
    local w, it = scene(), {}
    from_bump(w, it, 10, 10)
    local ax, ay, n = w:check(it, 2, 2)
    assert.same({ 9, 2, 1 }, { ax, ay, n })
    assert.same({ 11, 11 }, at(w, it))
    assert.same({ 9, 2, 1, "blocked" }, { w:move(it, 2, 2) })
    assert.same({ 9, 2 }, at(w, it))
    local found = {}
    assert.equal(1, w:query_point(9, 2, found))
    assert.equal(it, found[1])
  end)

  it("a filter is asked once per other, in the order met, bump-style too", function()
    local w = obb.world2()
    for i = 1, 5 do w:add("c" .. i, 2 * i, 0, 0.5, 0.5) end
    w:add("wall", 12, 0, 0.5, 3)
    local it, out, asked = {}, {}, {}
    w:add(it, 0, 0, 0.5, 0.5)
    local ax, _, n = w:move(it, 20, 0, function(item, other, nx, ny, t, depth)
      assert.equal(it, item)
      asked[#asked + 1] = other
      assert.is_true(nx == -1 and ny == 0 and t >= 0 and t <= 1 and depth == 0)
      return other == "wall" and "slide" or "cross"
    end, out)
    assert.same({ "c1", "c2", "c3", "c4", "c5", "wall" }, asked)
    assert.equal(11, ax)
    assert.equal(6, n)
    for i, r in ipairs(recs(out, n, S2)) do
      assert.equal(asked[i], r[1])
      if i > 1 then assert.is_true(r[6] >= out[(i - 2) * S2 + 6]) end
    end
    -- bump's filter(item, other): the extra arguments are ignored
    w:update(it, 0, 0, 0.5, 0.5)
    local bx = w:move(it, 20, 0, function(_, other) return other ~= "c3" and "cross" or nil end)
    assert.equal(20, bx)
    -- nil and false ignore: nothing reported
    w:update(it, 0, 0, 0.5, 0.5)
    assert.same({ 20, 0, 0, "goal" }, { w:move(it, 20, 0, function() return false end, out) })
    assert.equal(0, #out) -- the stale records are cleared
  end)

  it("flush tiles: walking and falling over seams never snags nor pops", function()
    local w = obb.world2()
    for i = 0, 199 do w:add("t" .. i, i, 0, 0.5, 0.5) end -- top at y = 0.5
    for j = 1, 50 do w:add("wall" .. j, 200, j, 0.5, 0.5) end -- a wall of tiles
    local p, out = {}, {}
    w:add(p, 3.5, 0.5 + 0.4, 0.4, 0.4) -- resting on the seam at x = 3.5
    local x = 3.5
    for _ = 1, 600 do
      local gx = x + 0.37
      local ax, ay = w:move(p, gx, 0.9 - 0.25, nil, out) -- gravity
      if gx <= 199.1 then assert.equal(gx, ax) end
      assert.equal(0.9, ay)
      x = ax
    end
    assert.equal(199.1, x) -- stopped by the wall of tiles, flush
    -- against the wall: sliding up and down along its seams
    local y = 0.9
    for _ = 1, 100 do
      local ax, ay = w:move(p, 200, y + 0.29, nil, out)
      assert.equal(199.1, ax)
      assert.equal(y + 0.29, ay)
      y = ay
    end
  end)

  it("turned boxes laid end to end slide an item along without stopping", function()
    for _, deg in ipairs { 20, 35, -20 } do
      local a = deg * pi / 180
      local ux, uy = cos(a), sin(a)
      local w = obb.world2()
      for i = 0, 20 do w:add(i, i * 2 * ux, i * 2 * uy, 1, 0.5, a) end
      local nx, ny = -uy, ux
      local p = {}
      w:add(p, (0.6) * nx + 0.5 * ux, 0.6 * ny + 0.5 * uy, 0.1, 0.1, a)
      local x0, y0 = w:get(p)
      local out = {}
      for _ = 1, 100 do
        local x, y = w:get(p)
        w:move(p, x + 0.3 * ux - 0.1 * nx, y + 0.3 * uy - 0.1 * ny, nil, out)
      end
      local x, y = w:get(p)
      local along = (x - x0) * ux + (y - y0) * uy
      assert.is_true(math.abs(along - 30) < 1e-9, deg .. ": " .. along)
      assert.is_true(math.abs((x - x0) * nx + (y - y0) * ny) < 1e-9)
    end
  end)

  -- An item left within the band of a turned wall (as a turning move may
  -- leave it) slides on along it, toward the wall's middle too, where the
  -- band is smaller: the remainder, clipped to the wall's plane, keeps a
  -- rounding's worth of its normal part, and the axis it crawls in on
  -- enters long after the step (it froze the racing example's cars).
  it("an item resting within the band of a turned wall slides along it toward the wall's middle", function()
    local w = obb.world2()
    w:add("wall", obb.from_axes2(60.082927958072119, 43.756704936470811, 2.1811115396849536, 0.25,
      -0.99272983591649355, 0.12036391851884727))
    w:add("car", obb.from_axes2(56.941743558351959, 46.425490464930611, 2.5, 1.2,
      -0.88240424219808378, 0.47049203324905042))
    local car, wall = obb.new2(0, 0, 0, 0), obb.new2(0, 0, 0, 0)
    w:get("car", car); w:get("wall", wall)
    local nx, ny, depth = car:penetration(wall)
    assert.is_true(depth > 0 and not car:overlaps(wall), "within the band")
    local dx, dy = 0.11118293451696, -0.05928199618938 -- into the wall and toward its middle
    local dn = dx * nx + dy * ny
    local tx, ty = dx - dn * nx, dy - dn * ny -- the tangential part
    local x0, y0 = w:get("car")
    local ax, ay, n = w:check("car", x0 + dx, y0 + dy)
    assert.equal(1, n)
    assert.near(x0 + tx, ax, 1e-12)
    assert.near(y0 + ty, ay, 1e-12)
    -- no deeper than it was (the band is smaller there: docs/reference.md)
    car:set_center(ax, ay)
    local _, _, d1 = car:penetration(wall)
    assert.is_true(d1 <= depth + 1e-15, d1 .. " deeper than " .. depth)
  end)

  it("a V of two turned boxes holds a falling item at 30, 15 and 8 degrees", function()
    for _, deg in ipairs { 30, 15, 8 } do
      local a = deg * pi / 180
      local w = obb.world2()
      w:add("L", -2.5 * cos(a), -2.5 * sin(a) + 0.2, 3, 0.2, -a)
      w:add("R", 2.5 * cos(a), -2.5 * sin(a) + 0.2, 3, 0.2, a)
      local p, out = {}, {}
      w:add(p, 0.01, 4, 0.3, 0.3)
      local vx = 0.13
      for f = 1, 400 do
        local x, y = w:get(p)
        w:move(p, x + vx, y - 0.37, nil, out)
        if f % 37 == 0 then vx = -vx end
        assert_not_inside(w, p, deg .. " deg, frame " .. f)
      end
      local _, y = w:get(p)
      local low = -2.5 * sin(a) + 0.2 - 3 * sin(a) - 0.2 * cos(a)
      assert.is_true(y > low, deg .. " deg: fell to " .. y)
    end
  end)

  it("slides along walls turned at random angles keep the tangential move", function()
    local rng = uniform(7)
    for _ = 1, LIGHT and 50 or 500 do
      local a = (rng() * 2 - 1) * pi
      local w = obb.world2()
      w:add("wall", 0, 0, 100, 1, a)
      local ux, uy, nx, ny = cos(a), sin(a), -sin(a), cos(a)
      local p = {}
      local s = rng() * 20 - 10
      local ia = rng() * 2 * pi
      -- an item turned at ia, its support along n is its projection radius
      local e1, e2 = 0.5, 0.25
      local rad = e1 * math.abs(cos(ia) * nx + sin(ia) * ny) + e2 * math.abs(-sin(ia) * nx + cos(ia) * ny)
      local h = 1 + rad + 2 -- 2 above the wall
      w:add(p, s * ux + h * nx, s * uy + h * ny, e1, e2, ia)
      local x0, y0 = w:get(p)
      local dt, dn = rng() * 10 - 5, -(3 + rng() * 5) -- into the wall
      local gx, gy = x0 + dt * ux + dn * nx, y0 + dt * uy + dn * ny
      local ax, ay, n = w:move(p, gx, gy)
      assert.equal(1, n)
      local along = (ax - x0) * ux + (ay - y0) * uy
      assert.is_true(math.abs(along - dt) <= 1e-12 * (math.abs(dt) + 10),
        "tangential " .. along .. " vs " .. dt)
      local gap = (ax * nx + ay * ny) - 1 - rad
      assert.is_true(math.abs(gap) <= 1e-12 * 10, "gap " .. gap)
    end
  end)

  it("corners that only touch, and moves along or away from a contact, report nothing", function()
    local w = obb.world2()
    w:add("a", 0, 0, 1, 1)
    local p, out = {}, {}
    w:add(p, 4, 2, 1, 1)
    assert.same({ 0, 2, 0, "goal" }, { w:move(p, 0, 2, nil, out) })   -- along a's top
    assert.same({ 0, 7, 0, "goal" }, { w:move(p, 0, 7, nil, out) })   -- away from it
    w:update(p, 2, 2, 1, 1) -- corner to corner
    assert.same({ 5, 2, 0, "goal" }, { w:move(p, 5, 2, nil, out) })
    w:update(p, 2, 2, 1, 1)
    assert.same({ 2, 9, 0, "goal" }, { w:move(p, 2, 9, nil, out) })
    w:update(p, 2, 2, 1, 1)
    assert.same({ 6, 6, 0, "goal" }, { w:move(p, 6, 6, nil, out) })
    w:update(p, 2, 2, 1, 1) -- down along a's right side, left along its top
    assert.same({ 2, -5, 0, "goal" }, { w:move(p, 2, -5, nil, out) })
    w:update(p, 2, 2, 1, 1)
    assert.same({ -5, 2, 0, "goal" }, { w:move(p, -5, 2, nil, out) })
    assert.equal(0, #out)
    -- resting on a floor: moving up and sideways is free
    w:update(p, 0, 2, 1, 1)
    assert.same({ 0.5, 2.5, 0, "goal" }, { w:move(p, 0.5, 2.5, nil, out) })
  end)

  it("ties at one time are all reported", function()
    local w = obb.world2()
    w:add("left", -1, 0, 1, 1)
    w:add("right", 1, 0, 1, 1)
    w:add("far", 5, 0, 1, 1)
    local p, out = {}, {}
    w:add(p, 0.5, 5, 1, 1) -- over the seam, nearer to right
    local ax, ay, n = w:move(p, 0.5, -5, nil, out)
    assert.same({ 0.5, 2, 2 }, { ax, ay, n })
    local r = recs(out, 2, S2)
    assert.same({ "right", "left" }, { r[1][1], r[2][1] }) -- nearer first
    assert.equal(r[1][3], r[2][3])
    assert.same({ 0, 1 }, { r[2][4], r[2][5] })
  end)

  it("set_ties(\"first\") answers the first of ties, then looks again (bump's way)", function()
    local function seam(ties, filter)
      local w = obb.world2()
      assert.equal(w, w:set_ties(ties))
      w:add("left", -1, 0, 1, 1)
      w:add("right", 1, 0, 1, 1)
      w:add("wall", 2.5, 3, 1, 3)
      local p, out = {}, {}
      w:add(p, 0.5, 5, 1, 1) -- over the seam, nearer to right
      local asked = {}
      local f = filter and function(_, o) asked[#asked + 1] = o; return filter(o) end or nil
      local ax, ay, n = w:move(p, 0.5, -5, f, out)
      return { ax, ay, n }, recs(out, n, S2), asked
    end
    -- landing on a seam: the nearer tile only; the other is never met
    local each, re = seam("each")
    local first, rf = seam("first")
    assert.same({ 0.5, 2, 2 }, each)
    assert.same({ 0.5, 2, 1 }, first)
    assert.same({ "right", "left" }, { re[1][1], re[2][1] })
    assert.equal("right", rf[1][1])
    assert.same(re[1], rf[1])
    -- the first lets the item through: the others are met (and asked) after it
    local res, r, asked = seam("first", function(o) return o == "right" and "cross" or "slide" end)
    assert.same({ 0.5, 2, 2 }, res)
    assert.same({ "right", "left" }, { r[1][1], r[2][1] })
    assert.same({ "right", "left" }, asked)
    -- a floor and a wall met at one time: the most head-on first, the
    -- other tested again from the contact and met there too
    local w = obb.world2():set_ties("first")
    w:add("floor", 0, -1, 10, 1)
    w:add("wall", 3, 5, 1, 5)
    local q, out = {}, {}
    w:add(q, 0.5, 2, 1, 1) -- 1 above the floor, 0.5 left of the wall
    local ax, ay, n = w:move(q, 1.5, 0, nil, out) -- meets both at t = 0.5; the floor more head-on
    r = recs(out, n, S2)
    assert.same({ 1, 1, 2 }, { ax, ay, n })
    assert.same({ "floor", "wall" }, { r[1][1], r[2][1] })
    assert.same({ 0, 1 }, { r[1][4], r[1][5] })
    assert.same({ -1, 0 }, { r[2][4], r[2][5] })
    -- errors; the tie rule is the world's, kept until set again
    assert.has_error(function() w:set_ties("some") end, "bad argument #1 to 'set_ties' (invalid option 'some')")
    assert.has_error(function() w:set_ties() end)
    assert.has_error(function() w:set_ties("first", 1) end,
      "bad argument #2 to 'set_ties' (no value expected, got number)")
    assert.has_error(function()
      w:check(q, 5, 5, function() w:set_ties("each"); return "slide" end)
    end)
    w:close()
    assert.has_error(function() w:set_ties("first") end, "world is closed")
  end)

  -- round five: the mode was read with luaL_checkoption, whose strcmp
  -- stops at a zero byte, so "first\0x" set "first"
  it("set_ties compares the whole name: a zero byte names no mode, and changes nothing", function()
    local w = obb.world2()
    w:add("left", -1, 0, 1, 1)
    w:add("right", 1, 0, 1, 1)
    w:add("p", 0.5, 5, 1, 1) -- over the seam: each meets both, first only one
    H.assert_argerror(2, "set_ties", "invalid option 'first' followed by a zero byte", w.set_ties, w, "first\0x")
    H.assert_argerror(2, "set_ties", "invalid option 'each' followed by a zero byte", w.set_ties, w, "each\0")
    assert.same({ 0.5, 2, 2, "blocked" }, { w:check("p", 0.5, -5) }) -- still "each"
    w:set_ties("first")
    H.assert_argerror(2, "set_ties", "invalid option 'each' followed by a zero byte", w.set_ties, w, "each\0first")
    assert.same({ 0.5, 2, 1, "blocked" }, { w:check("p", 0.5, -5) }) -- still "first"
    w:close()
  end)

  it("set_ties(\"first\"): random flush tiles, never inside a solid, mostly where \"each\" ends", function()
    local rng = uniform(23)
    local same, differ = 0, 0
    for _ = 1, LIGHT and 20 or 200 do
      local a, b = obb.world2(), obb.world2():set_ties("first")
      for i = 1, 40 do
        local x, y = math.floor(rng() * 12) * 2, math.floor(rng() * 12) * 2
        a:add(i, x, y, 1, 1); b:add(i, x, y, 1, 1)
      end
      local px, py = rng() * 24, rng() * 24
      a:add("p", px, py, 0.4, 0.7); b:add("p", px, py, 0.4, 0.7)
      if a:collisions("p", {}) == 0 then
        for _ = 1, 10 do
          local gx, gy = px + rng() * 8 - 4, py + rng() * 8 - 4
          local ax, ay = a:move("p", gx, gy, "slide")
          local bx, by = b:move("p", gx, gy, "slide")
          assert_not_inside(b, "p", "ties first")
          if ax == bx and ay == by then same = same + 1 else differ = differ + 1 end
          px, py = bx, by
          a:update("p", bx, by, 0.4, 0.7)
        end
      end
    end
    -- on flush tiles the two rules end in the same place almost always
    assert.is_true(same > 10 * differ, same .. " same, " .. differ .. " differ")
  end)

  it("starting inside: no jump, no freeze, reported with depth; push gets out", function()
    local w = obb.world2()
    w:add("wall", 0, 0, 1, 1)
    local p, out = {}, {}
    w:add(p, 0.75, 0, 0.5, 0.5) -- 0.75 deep on x
    -- deeper: stays where it is (bump jumps out, issue 37)
    assert.same({ 0.75, 0, 1, "blocked" }, { w:move(p, -3, 0, nil, out) })
    assert.same({ "wall", "slide", 0, 1, 0, 0.75, 0, 0.75 }, recs(out, 1, S2)[1])
    -- along: free
    assert.same({ 0.75, 0.5, 1, "goal" }, { w:move(p, 0.75, 0.5, nil, out) })
    -- out: free (slick freezes)
    assert.same({ 3, 0.5, 1, "goal" }, { w:move(p, 3, 0.5, nil, out) })
    -- push: out by the depth, deepest first, at most max_dist a call
    w:update(p, 0.75, 0, 0.5, 0.5)
    local x, y, moved, inside = w:push(p, nil, 0.25)
    assert.same({ 1, 0, 0.25, true }, { x, y, moved, inside }) -- not out yet
    x, y, moved, inside = w:push(p)
    assert.same({ 1.5, 0, 0.5, false }, { x, y, moved, inside })
    assert.same({ 1.5, 0, 0, false }, { w:push(p) })
    assert.same({ 1.5, 0 }, at(w, p))
    -- two others overlapped: one step per pose, never their vectors summed
    w:add("floor", 0, -2, 5, 1)
    w:update(p, 0.9, -0.6, 0.5, 0.5) -- 0.6 into the wall on x, 0.1 into the floor
    x, y, moved = w:push(p, nil, nil)
    assert.equal(1.5, x)
    assert.is_true(math.abs(y + 0.5) < 1e-15)
    assert.is_true(math.abs(moved - 0.7) < 1e-15)
    -- cross and ignore do not push
    w:update(p, 0.75, 0.5, 0.5, 0.5)
    assert.same({ 0.75, 0.5, 0, false }, { w:push(p, "cross") })
    -- squeezed between two walls closer than its width: it says so
    local sq = obb.world2()
    sq:add("left", -1.4, 0, 1, 5)
    sq:add("right", 1.4, 0, 1, 5)
    local q = {}
    sq:add(q, 0.1, 0, 0.5, 0.5)
    local _, _, m2, stuck = sq:push(q)
    assert.is_true(stuck)
    assert.is_true(m2 > 0)
  end)

  it("random scenes: never ends inside a solid, stops no later than the first cast hit", function()
    local rng = uniform(11)
    local rounds = LIGHT and 20 or 200
    for _ = 1, rounds do
      local w = obb.world2()
      for i = 1, 30 do
        w:add(i, rng() * 40 - 20, rng() * 40 - 20, 0.1 + rng() * 3, 0.1 + rng() * 0.5, rng() * 7)
      end
      local p, out, cast = {}, {}, {}
      local cx, cy = rng() * 40 - 20, rng() * 40 - 20
      w:add(p, cx, cy, 0.3, 0.6, rng() * 7)
      local n0 = w:collisions(p, {})
      if n0 == 0 then
        local dx, dy = rng() * 30 - 15, rng() * 30 - 15
        local b = obb.new2(w:get(p))
        local nc = w:cast(b, dx, dy, cast, function(o) return o ~= p end)
        local ax, ay = w:move(p, cx + dx, cy + dy, "touch", out)
        assert_not_inside(w, p, "random")
        if nc == 0 then
          assert.same({ cx + dx, cy + dy }, { ax, ay })
        else
          local t = (math.abs(dx) > math.abs(dy)) and (ax - cx) / dx or (ay - cy) / dy
          assert.is_true(t <= cast[2] + 1e-9, t .. " > " .. cast[2])
        end
      end
    end
  end)

  it("makes no garbage with a reused out table", function()
    local w = obb.world2()
    for i = 0, 50 do w:add(i, i, 0, 0.5, 0.5) end
    local p, out = {}, {}
    w:add(p, 0, 0.9, 0.4, 0.4)
    local x = 0
    local kib = H.kib_allocated_by(function()
      for _ = 1, 1000 do
        x = x + 0.01
        if x > 40 then x = 0 end
        w:move(p, x, 0.5, nil, out)
        w:check(p, x, 0.5, "slide", out)
      end
    end)
    assert.is_true(kib < 1, kib .. " KiB")
  end)

  it("raises clear errors and leaves the world as it was", function()
    local w = obb.world2()
    w:add("wall", 0, 0, 1, 1)
    local p = {}
    w:add(p, 5, 0, 1, 1)
    local function same() assert.same({ 5, 0 }, at(w, p)) end
    H.assert_error_text("obb.world expected", w.move, {}, p, 0, 0)
    -- (called as w.move(w, ...): the arguments count from the world)
    H.assert_argerror(2, "move", "item is not in the world", w.move, w, {}, 0, 0)
    H.assert_argerror(3, "move", "number expected, got nil", w.move, w, p, nil, 0)
    H.assert_argerror(3, "move", "finite number expected, got nan", w.move, w, p, 0 / 0, 0)
    H.assert_argerror(4, "move", "finite number expected, got inf", w.move, w, p, 0, math.huge)
    H.assert_argerror(5, "move", "unknown response 'slid'", w.move, w, p, 0, 0, "slid")
    H.assert_argerror(5, "move", "function, response name, obb.responses or nil expected, got boolean",
      w.move, w, p, 0, 0, true)
    H.assert_argerror(6, "move", "table or nil expected, got number", w.move, w, p, 0, 0, nil, 5)
    H.assert_argerror(7, "move", "no value expected, got number", w.move, w, p, 0, 0, nil, {}, 1)
    H.assert_argerror(5, "move", "unknown response 'slid'", w.move, w, p, 0, 0,
      function() return "slid" end)
    H.assert_argerror(5, "move", "filter returned a boolean (a response name, false or nil expected)",
      w.move, w, p, 0, 0, function() return true end)
    same()
    H.assert_error_text("boom", w.move, w, p, 0, 0, function() error("boom") end)
    H.assert_error_text("cannot update items of a world during its query",
      w.move, w, p, 0, 0, function() w:update(p, 0, 0, 1, 1) end)
    H.assert_error_text("cannot move items of a world during its query",
      w.move, w, p, 0, 0, function() w:check(p, 1, 1) end)
    H.assert_error_text("cannot close a world during its query",
      w.move, w, p, 0, 0, function() w:close() end)
    H.assert_filter_yield(coroutine.create(function() return w:move(p, 0, 0, function() coroutine.yield() end) end))
    same()
    -- a query from the filter is fine
    local seen
    w:move(p, 0, 0, function(_, other) seen = w:query_point(0, 0, {}); return other and "touch" end)
    assert.equal(1, seen)
    w:update(p, 5, 0, 1, 1)
    H.assert_argerror(4, "push", "max_dist must be a number >= 0", w.push, w, p, nil, -1)
    H.assert_argerror(4, "push", "max_dist must be a number >= 0", w.push, w, p, nil, 0 / 0)
    w:close()
    H.assert_error_text("world is closed", w.move, w, p, 0, 0)
    H.assert_error_text("world is closed", w.push, w, p)
    H.assert_error_text("world is closed", w.cast, w, obb.new2(0, 0, 1, 1), 1, 1, {})
  end)
end)

describe("world:move (3D)", function()
  local function get3(w, it) local x, y, z = w:get(it); return x, y, z end

  it("touch, slide and bounce on axis-aligned boxes as in 2D", function()
    local w = obb.world3()
    w:add("box", 4, 4, 4, 4, 4, 4)
    local it, out = {}, {}
    w:add(it, 11, 11, 4, 1, 1, 1)
    assert.same({ 9, 2, 4, 1, "blocked" }, { w:move(it, 2, 2, 4, "slide", out) })
    assert.same({ "box", "slide", 2 / 9, 1, 0, 0, 9, 9, 4, 0 }, recs(out, 1, S3)[1])
    w:update(it, 11, 11, 4, 1, 1, 1)
    assert.same({ 8, 9, 4, 1, "blocked" }, { w:move(it, 2, 5, 4, "touch", out) })
    w:update(it, 11, 11, 4, 1, 1, 1)
    assert.same({ 2, 13, 4, 1, "blocked" }, { w:move(it, 2, 5, 4, "bounce", out) })
    w:update(it, 4, 4, 11, 1, 1, 1)
    assert.same({ 4, 4, -3, 1, "goal" }, { w:move(it, 4, 4, -3, "cross", out) })
  end)

  it("slides along the crease of a floor and a wall", function()
    local w = obb.world3()
    w:add("floor", 0, -1, 0, 10, 1, 10)
    w:add("wall", 3, 5, 0, 1, 5, 10)
    local p, out = {}, {}
    w:add(p, 1.5, 0.5, 0, 0.5, 0.5, 0.5) -- in the corner, touching both
    local ax, ay, az, n = w:move(p, 4, -1, 3, nil, out)
    assert.same({ 1.5, 0.5, 3, 2 }, { ax, ay, az, n })
  end)

  it("flush tiles and a turned trough hold an item", function()
    local w = obb.world3()
    for i = 0, 29 do
      for j = 0, 2 do w:add(i .. ":" .. j, i, 0, j, 0.5, 0.5, 0.5) end
    end
    local p, out = {}, {}
    w:add(p, 0.5, 0.9, 1, 0.4, 0.4, 0.4)
    local x = 0.5
    for _ = 1, 60 do
      local ax, ay, az = w:move(p, x + 0.31, 0.6, 1.0, nil, out)
      assert.same({ x + 0.31, 0.9, 1 }, { ax, ay, az })
      x = ax
    end
    -- a trough: two boxes turned about z by +-20 degrees
    for _, deg in ipairs { 30, 15, 8 } do
      local a = deg * pi / 180
      local t = obb.world3()
      local s, c = sin(a / 2), cos(a / 2)
      t:add("L", -2.5 * cos(a), -2.5 * sin(a) + 0.2, 0, 3, 0.2, 3, 0, 0, -s, c)
      t:add("R", 2.5 * cos(a), -2.5 * sin(a) + 0.2, 0, 3, 0.2, 3, 0, 0, s, c)
      local q = {}
      t:add(q, 0.01, 4, 0.2, 0.3, 0.3, 0.3)
      local vx = 0.13
      for f = 1, 200 do
        local qx, qy, qz = get3(t, q)
        t:move(q, qx + vx, qy - 0.37, qz, nil, out)
        if f % 37 == 0 then vx = -vx end
        assert_not_inside(t, q, deg .. " deg 3D, frame " .. f)
      end
      local low = -2.5 * sin(a) + 0.2 - 3 * sin(a) - 0.2 * cos(a)
      assert.is_true(select(2, get3(t, q)) > low)
    end
  end)

  it("starting inside: no jump, no freeze; push gets out", function()
    local w = obb.world3()
    w:add("wall", 0, 0, 0, 1, 1, 1)
    local p, out = {}, {}
    w:add(p, 0, 0.75, 0, 0.5, 0.5, 0.5)
    assert.same({ 0, 0.75, 0, 1, "blocked" }, { w:move(p, 0, -3, 0, nil, out) })
    assert.equal(0.75, out[10])
    assert.same({ 2, 0.75, 0, 1, "goal" }, { w:move(p, 2, 0.75, 0, nil, out) })
    w:update(p, 0, 0.75, 0, 0.5, 0.5, 0.5)
    assert.same({ 0, 1.5, 0, 0.75, false }, { w:push(p) })
  end)

  it("slides along walls turned at random keep the tangential move", function()
    local rng = uniform(17)
    for _ = 1, LIGHT and 30 or 300 do
      -- a random unit quaternion; the wall's axis 1 is its normal
      local q = { rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5 }
      local w = obb.world3()
      w:add("wall", 0, 0, 0, 100, 1, 100, q[1], q[2], q[3], q[4])
      local _, _, _, nx, ny, nz = obb.new3(0, 0, 0, 1, 1, 1, q[1], q[2], q[3], q[4]):axes()
      local p = {}
      -- an item with the wall's rotation, 2 above it
      w:add(p, 3.5 * nx, 3.5 * ny, 3.5 * nz, 0.5, 0.5, 0.5, q[1], q[2], q[3], q[4])
      local x0, y0, z0 = w:get(p)
      local d = { rng() * 10 - 5, rng() * 10 - 5, rng() * 10 - 5 }
      local dn = d[1] * nx + d[2] * ny + d[3] * nz
      local push = -(3 + rng() * 5) - dn -- into the wall
      d[1], d[2], d[3] = d[1] + push * nx, d[2] + push * ny, d[3] + push * nz
      local ax, ay, az, n = w:move(p, x0 + d[1], y0 + d[2], z0 + d[3])
      assert.equal(1, n)
      local tn = d[1] * nx + d[2] * ny + d[3] * nz
      local want = { d[1] - tn * nx, d[2] - tn * ny, d[3] - tn * nz }
      local got = { ax - x0, ay - y0, az - z0 }
      local gn = got[1] * nx + got[2] * ny + got[3] * nz
      for k = 1, 3 do
        local tk = got[k] - gn * ({ nx, ny, nz })[k]
        assert.is_true(math.abs(tk - want[k]) <= 1e-12 * 20, "tangential " .. tk .. " vs " .. want[k])
      end
      local gap = ax * nx + ay * ny + az * nz - 1.5
      assert.is_true(math.abs(gap) <= 1e-11, "gap " .. gap)
    end
  end)

  it("random scenes: never ends inside a solid", function()
    local rng = uniform(23)
    for _ = 1, LIGHT and 10 or 100 do
      local w = obb.world3()
      for i = 1, 25 do
        w:add(i, rng() * 30 - 15, rng() * 30 - 15, rng() * 30 - 15,
          0.1 + rng() * 3, 0.1 + rng() * 0.5, 0.1 + rng() * 2,
          rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5)
      end
      local p, out = {}, {}
      w:add(p, rng() * 30 - 15, rng() * 30 - 15, rng() * 30 - 15, 0.3, 0.6, 0.4,
        rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5)
      if w:collisions(p, {}) == 0 then
        for _ = 1, 5 do
          local x, y, z = w:get(p)
          w:move(p, x + rng() * 20 - 10, y + rng() * 20 - 10, z + rng() * 20 - 10, nil, out)
          assert_not_inside(w, p, "random 3D")
        end
      end
    end
  end)

  it("corners that only touch report nothing; ties are all reported", function()
    local w = obb.world3()
    w:add("a", 0, 0, 0, 1, 1, 1)
    local p, out = {}, {}
    w:add(p, 2, 2, 2, 1, 1, 1)
    assert.same({ 6, 2, 2, 0, "goal" }, { w:move(p, 6, 2, 2, nil, out) })
    w:add("b", 2, 0, 0, 1, 1, 1)
    w:update(p, 1, 5, 0, 1, 1, 1)
    local _, ay, _, n = w:move(p, 1, -5, 0, nil, out)
    assert.same({ 2, 2 }, { ay, n })
  end)
end)

describe("world:cast", function()
  it("reports every item the swept box touches, first met first, as box:sweep", function()
    local rng = uniform(5)
    for _, dim in ipairs { 2, 3 } do
      for _ = 1, LIGHT and 10 or 60 do
        local w = dim == 2 and obb.world2() or obb.world3()
        local boxes = {}
        for i = 1, 40 do
          local b
          if dim == 2 then
            b = obb.new2(rng() * 20 - 10, rng() * 20 - 10, rng() * 2, rng() * 2, rng() * 7)
          else
            b = obb.new3(rng() * 20 - 10, rng() * 20 - 10, rng() * 20 - 10,
              rng() * 2, rng() * 2, rng() * 2, rng() - 0.5, rng() - 0.5, rng() - 0.5, rng())
          end
          boxes[i] = b
          w:add(i, b)
        end
        local q = dim == 2 and obb.new2(0, 0, 1, 0.5, rng())
          or obb.new3(0, 0, 0, 1, 0.5, 0.3, 0, 0, 0, 1)
        local d = { rng() * 20 - 10, rng() * 20 - 10, rng() * 20 - 10 }
        local out = {}
        local n = dim == 2 and w:cast(q, d[1], d[2], out) or w:cast(q, d[1], d[2], d[3], out)
        local stride = dim == 2 and obb.CAST_STRIDE2 or obb.CAST_STRIDE3
        assert.equal(n * stride, #out)
        local want = {}
        for i, b in ipairs(boxes) do
          local t, nx, ny, nz
          if dim == 2 then t, nx, ny = q:sweep(b, d[1], d[2], 0, 0)
          else t, nx, ny, nz = q:sweep(b, d[1], d[2], d[3], 0, 0, 0) end
          if t then want[i] = { t, nx, ny, nz } end
        end
        local count, prev = 0, -1
        for k = 1, n do
          local r = { H.unpack(out, (k - 1) * stride + 1, k * stride) }
          local ref = want[r[1]]
          assert.is_not_nil(ref)
          assert.same(ref[1], r[2])
          assert.same({ ref[2], ref[3] }, { r[3], r[4] })
          assert.is_true(r[2] >= prev)
          prev = r[2]
          count = count + 1
        end
        local nwant = 0
        for _ in pairs(want) do nwant = nwant + 1 end
        assert.equal(nwant, count)
      end
    end
  end)

  it("breaks ties by distance between centers, and filters", function()
    local w = obb.world2()
    w:add("far", 3, 0, 1, 1)
    w:add("near", 1, 0, 1, 1)
    local out = {}
    assert.equal(2, w:cast(obb.new2(1.5, 5, 0.5, 0.5), 0, -10, out))
    assert.same({ "near", 0.35, 0, 1, "far", 0.35, 0, 1 }, out)
    assert.equal(1, w:cast(obb.new2(1.5, 5, 0.5, 0.5), 0, -10, out, function(i) return i == "far" end))
    assert.same({ "far", 0.35, 0, 1 }, out)
    H.assert_argerror(2, "cast", "obb.obb2 expected, got obb.obb3", w.cast, w, obb.new3(0, 0, 0, 1, 1, 1), 0, 0, out)
    H.assert_argerror(3, "cast", "number expected, got string", w.cast, w, obb.new2(0, 0, 1, 1), "x", 0, out)
  end)
end)

describe("obb.clip and obb.reflect", function()
  it("remove or mirror the part of a velocity going into a normal", function()
    assert.same({ 3, 0 }, { obb.clip(3, -4, 0, 1) })
    assert.same({ 3, 4 }, { obb.reflect(3, -4, 0, 1) })
    assert.same({ 3, 4 }, { obb.clip(3, 4, 0, 1) }) -- already away
    assert.same({ 3, 4 }, { obb.reflect(3, 4, 0, 2) })
    local s = sqrt(0.5)
    local x, y = obb.clip(1, 0, -s, s) -- a turned wall
    assert.is_true(math.abs(x - 0.5) < 1e-15 and math.abs(y - 0.5) < 1e-15)
    assert.same({ 1, 2, 0 }, { obb.clip(1, 2, -3, 0, 0, 1) })
    assert.same({ 1, 2, 3 }, { obb.reflect(1, 2, -3, 0, 0, 1) })
    H.assert_error_text("4 numbers (2D) or 6 (3D) expected", obb.clip, 1, 2, 3)
    H.assert_argerror(3, "clip", "normal must be non-zero", obb.clip, 1, 2, 0, 0)
    H.assert_argerror(2, "reflect", "number expected, got string", obb.reflect, 1, "x", 0, 1)
  end)

  it("keep the components along the normal's plane bit for bit, -0 and huge ones too", function()
    -- -0 by a division: LuaJIT on arm64 (dual numbers) reads -0.0 as 0
    local function neg_zero(one) return 0 / -one end
    local x, y = obb.clip(neg_zero(1), -3, 0, 1)
    assert.are.equal(-math.huge, 1 / x) -- was +0: -0 - (-0)
    assert.are.equal(0, y)
    x, y = obb.reflect(neg_zero(1), -3, 0, 2)
    assert.are.equal(-math.huge, 1 / x)
    assert.are.equal(3, y)
    -- a huge k / |n|^2 times 0 was NaN: now the wall's other coordinate is
    -- kept and the result is finite where it can be
    x, y = obb.clip(5, -1e308, 0, 1e-300)
    assert.are.equal(5, x)
    assert.are.equal(0, y)
  end)

  it("the strides are exported", function()
    assert.same({ 8, 10, 4, 5 }, { obb.MOVE_STRIDE2, obb.MOVE_STRIDE3, obb.CAST_STRIDE2, obb.CAST_STRIDE3 })
  end)
end)

describe("the movers' protected half", function()
  it("reached by hand with the debug library, only raises", function()
    if not debug or not debug.getupvalue then return end
    local w = obb.world2()
    w:add("a", 0, 0, 1, 1)
    local p = {}
    w:add(p, 3, 0, 1, 1)
    local run
    local ok_jit, J = pcall(require, "obb.jit") -- the classic move under LuaJIT's fast path
    local classic = ok_jit and J.classic and J.classic[getmetatable(w)]
    local move = classic and classic.move or w.move
    for i = 1, 10 do
      local name, f = debug.getupvalue(move, i)
      if name == nil then break end
      if type(f) == "function" then -- probed on a world of their own
        local ok, err = pcall(f, obb.world2(), p, nil, {}, {}, nil)
        if not ok and tostring(err):find("outside a move", 1, true) then run = f end
      end
    end
    if run == nil then -- Lua 5.1 and LuaJIT keep C upvalues from the debug library
      assert.is_nil(debug.getupvalue(move, 1))
      return
    end
    assert.is_false((pcall(run, {}, p)))
    -- from inside a move, the move running cannot be entered again
    w:move(p, -3, 0, function()
      local ok, err = pcall(run, w, p, nil, {}, {}, nil)
      assert.is_false(ok)
      assert.matches("outside a move", err)
      return "touch"
    end)
    assert.same({ 2, 0, 1, 1, 0 }, { w:get(p) })
  end)
end)
