-- spec/round5_mover_spec.lua: the fifth hostile round's wrong answers from
-- the movers (issue 39; docs/hardening.md, "Round five"): a turning slide
-- stopped at the seam of flush tiles, a point or a flat mover passing
-- through a wall of no thickness, and a move far longer than the scene
-- passing through walls. Each is checked against what the geometry says,
-- not against a recorded answer: where the mover ends, which side of a wall
-- it is on, whether the boxes' own overlap test finds it inside anything.
local H = require "helpers"
local obb = require "obb"

-- The records of a move in out (stride 8 in 2D, 10 in 3D): their normals.
local function normals(out, n, dim)
  local stride, t = dim == 2 and 8 or 10, {}
  for i = 0, n - 1 do
    t[#t + 1] = { out[i * stride + 4], out[i * stride + 5], dim == 3 and out[i * stride + 6] or 0 }
  end
  return t
end

describe("round five: a turning slide over the seam of flush tiles", function()
  it("a crate turning about the vertical slides over the seam to its goal (3D)", function()
    local r = H.rng(39001)
    local stopped = 0
    for _ = 1, 400 do
      local w, out = obb.world3(), {}
      w:add("t0", 0, -0.5, 0, 1, 0.5, 1)
      w:add("t1", 2, -0.5, 0, 1, 0.5, 1) -- flush: the seam at x = 1
      local h = r.range(0.2, 0.9)
      w:add("crate", 0, h, 0, h, h, h)
      local a = r.range(-1.2, 1.2)
      local s, c = math.sin(a / 2), math.cos(a / 2)
      local x, y, z, n = w:check("crate", 3, h, 0, 0, s, 0, c, nil, out)
      if not (x == 3 and y == h and z == 0 and n == 0) then stopped = stopped + 1 end
    end
    assert.are.equal(0, stopped)
  end)

  it("a turn of 1e-9 rad does not stop it either", function()
    local w, out = obb.world3(), {}
    w:add("t0", 0, -0.5, 0, 1, 0.5, 1); w:add("t1", 2, -0.5, 0, 1, 0.5, 1)
    w:add("crate", 0, 0.5, 0, 0.5, 0.5, 0.5)
    local x, _, _, n = w:check("crate", 3, 0.5, 0, 0, math.sin(0.5e-9), 0, math.cos(0.5e-9), nil, out)
    assert.are.equal(3, x)
    assert.are.equal(0, n)
  end)

  it("a point turning over thick tiles and over flush segments reaches its goal (2D)", function()
    local w, out = obb.world2(), {}
    w:add("t0", 0, -0.5, 1, 0.5); w:add("t1", 2, -0.5, 1, 0.5)
    w:add("p", 0, 0, 0, 0)
    assert.are.same({ 3, 0, 0, 0.5, "goal" }, { w:check("p", 3, 0, 0.5, nil, out) })
    local v = obb.world2()
    v:add("s0", 0, 0, 1, 0); v:add("s1", 2, 0, 1, 0)
    v:add("p", 0, 0, 0, 0)
    assert.are.same({ 3, 0, 0, 0.5, "goal" }, { v:check("p", 3, 0, 0.5, nil, out) })
  end)

  it("a box turning over a row of flush tiles ends where the turn says, never stopped by a seam (2D)", function()
    local w, out = obb.world2(), {}
    for i = 0, 19 do w:add(i, i + 0.5, -0.5, 0.5, 0.5) end
    w:add("b", 1, 0.3, 0.3, 0.3)
    -- turning by a full quarter, the box's lowest corner goes below the
    -- tiles' top: the turn stops there, but the slide goes on over every seam
    local x, _, n = w:move("b", 15, 0.3, math.pi / 2, nil, out)
    assert.are.equal(15, x)
    for _, nn in ipairs(normals(out, n, 2)) do assert.are.equal(0, nn[1]) end
  end)
end)

describe("round five: a point or a flat mover against a wall of no thickness", function()
  -- Where the mover is across the wall's line: its center's offset along the
  -- wall's normal axis (the wall's second axis in 2D, third in 3D).
  local function side2(wall, x, y)
    local _, _, vx, vy = wall:axes()
    local cx, cy = wall:center()
    return (x - cx) * vx + (y - cy) * vy
  end

  it("stops a point at a segment wall, plain and turning, for every response", function()
    for _, resp in ipairs({ "touch", "slide", "bounce" }) do
      for _, turn in ipairs({ false, 0, 0.1 }) do
        local w, out = obb.world2(), {}
        w:add("wall", 0, 0, 5, 0); w:add("p", 0, 1, 0, 0)
        local y, n
        if turn then
          _, y, n = w:check("p", 0, -1, turn, resp, out)
        else
          _, y, n = w:check("p", 0, -1, resp, out)
        end
        assert.is_true(y >= 0, resp .. " " .. tostring(turn) .. ": " .. y)
        assert.is_true(n >= 1)
        assert.are.same({ 0, 1, 0 }, normals(out, n, 2)[1])
      end
    end
  end)

  it("keeps a point on its side of a turned segment over random moves", function()
    local r = H.rng(39002)
    for _ = 1, 500 do
      local w, out = obb.world2(), {}
      local a = r.range(-3.2, 3.2)
      local wall = obb.new2(r.range(-5, 5), r.range(-5, 5), r.range(1, 10), 0, a)
      w:add("wall", wall)
      local cx, cy = wall:center()
      local ux, uy, vx, vy = wall:axes()
      local along, off = r.range(-0.9, 0.9) * select(1, wall:half_extents()), r.range(0.01, 3)
      local px, py = cx + along * ux + off * vx, cy + along * uy + off * vy
      w:add("p", px, py, 0, 0)
      for _ = 1, 5 do -- frame after frame, toward the far side
        local along2, off2 = r.range(-0.9, 0.9) * select(1, wall:half_extents()), r.range(0.01, 3)
        local gx, gy = cx + along2 * ux - off2 * vx, cy + along2 * uy - off2 * vy
        local x, y = w:move("p", gx, gy, r.uniform() < 0.5 and "touch" or "slide", out)
        assert.is_true(side2(wall, x, y) > 0, "crossed to " .. side2(wall, x, y))
      end
    end
  end)

  it("stops a segment moving across a parallel segment wall (2D)", function()
    local w, out = obb.world2(), {}
    w:add("wall", 0, 0, 5, 0); w:add("s", 1, 1, 0.5, 0)
    local _, y, n = w:check("s", 1, -1, "touch", out)
    assert.is_true(y >= 0)
    assert.are.equal(1, n)
  end)

  it("stops a flat card moving through a flat slab, plain and turning about its normal (3D)", function()
    local s, c = math.sin(0.05), math.cos(0.05)
    for _, resp in ipairs({ "touch", "slide", "bounce" }) do
      local w, out = obb.world3(), {}
      w:add("slab", 0, 0, 0, 5, 0, 5); w:add("card", 0, 1, 0, 0.5, 0, 0.5)
      local _, y, _, n = w:check("card", 0.3, -1, 0, resp, out)
      assert.is_true(y >= 0, resp)
      assert.is_true(n >= 1)
      local _, y2, _, n2 = w:check("card", 0.3, -1, 0, 0, s, 0, c, resp, out)
      assert.is_true(y2 >= 0, resp)
      assert.is_true(n2 >= 1)
    end
  end)

  it("lets a point slide along a line of flush segments and leave the line upward", function()
    local w, out = obb.world2(), {}
    for i = 0, 9 do w:add(i, 2 * i, 0, 1, 0) end
    w:add("p", 0, 0, 0, 0)
    assert.are.same({ 17, 0, 0, "goal" }, { w:move("p", 17, 0, "touch", out) })
    assert.are.same({ 17, 3, 0, "goal" }, { w:move("p", 17, 3, "touch", out) })
  end)
end)

describe("round five: a move far longer than the scene", function()
  it("never passes through walls 1 thick, however long the move (2D, every response)", function()
    for _, resp in ipairs({ "touch", "slide", "bounce" }) do
      local g = 1e3
      while g <= 1e16 do
        for _, gg in ipairs({ g, 5 * g, -g }) do
          local w, out = obb.world2(), {}
          w:add("left", -1.5, 0, 0.5, 10); w:add("right", 1.5, 0, 0.5, 10)
          w:add("b", 0, 0, 0.1, 0.1)
          local x, _, n = w:check("b", gg, gg * 0.001, resp, out)
          assert.is_true(math.abs(x) <= 0.9 + 1e-9, resp .. " " .. gg .. ": x = " .. x)
          assert.is_true(n >= 1, resp .. " " .. gg)
          w:update("b", x, 0, 0.1, 0.1)
          local b = w:get("b", obb.new2(0, 0, 0, 0))
          assert.is_false(b:overlaps(w:get("left", obb.new2(0, 0, 0, 0))))
          assert.is_false(b:overlaps(w:get("right", obb.new2(0, 0, 0, 0))))
        end
        g = g * 10
      end
    end
  end)

  it("never passes through a wall in 3D, nor when the walls are turned", function()
    local a = 0.3
    for _, g in ipairs({ 1e6, 5e11, 7e11, 1e14, 1e17 }) do
      local w3, out = obb.world3(), {}
      w3:add("left", -1.5, 0, 0, 0.5, 10, 10); w3:add("right", 1.5, 0, 0, 0.5, 10, 10)
      w3:add("b", 0, 0, 0, 0.1, 0.1, 0.1)
      local x = w3:check("b", g, g * 1e-3, g * 1e-3, "slide", out)
      assert.is_true(math.abs(x) <= 0.9 + 1e-9, g .. ": " .. x)
      local w2 = obb.world2()
      local ca, sa = math.cos(a), math.sin(a)
      w2:add("left", -1.5 * ca, -1.5 * sa, 0.5, 10, a); w2:add("right", 1.5 * ca, 1.5 * sa, 0.5, 10, a)
      w2:add("b", 0, 0, 0.1, 0.1, a)
      local x2, y2 = w2:check("b", g * ca, g * sa, "touch", out)
      local across = x2 * ca + y2 * sa
      assert.is_true(math.abs(across) <= 0.9 + 1e-6, g .. ": " .. across)
    end
  end)
end)
