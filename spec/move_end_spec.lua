-- spec/move_end_spec.lua: how a move says why it ended, and what it left
-- (issue 40: a bullet's move that runs out of legs, a record per bounce,
-- named offsets for the records). docs/reference.md, "Moving boxes".
local H = require "helpers"
local obb = require "obb"

-- A corridor between two long walls, y from 0 to 10, and a bullet in it.
local function corridor()
  local w = obb.world2()
  w:add("top", 0, 10.5, 1000, 0.5)
  w:add("bottom", 0, -0.5, 1000, 0.5)
  w:add("bullet", 0, 5, 0.1, 0.1)
  return w
end

describe("why a move ended", function()
  it("says goal, blocked, legs or turn, after the count, in every form", function()
    local w = obb.world2()
    w:add("wall", 5, 0, 1, 5)
    w:add("a", 0, 0, 1, 1)
    assert.same({ 2, 0, 0, "goal" }, { w:check("a", 2, 0) })
    assert.same({ 3, 0, 1, "blocked" }, { w:check("a", 9, 0, "touch") })
    assert.same({ 3, 3, 1, "blocked" }, { w:check("a", 9, 3) }) -- slid: not the goal
    assert.same({ 9, 0, 1, "goal" }, { w:check("a", 9, 0, "cross") })
    local x, y, n, a, why = w:check("a", 2, 0, 0.5) -- turning, nothing met
    assert.same({ 2, 0, 0, "goal" }, { x, y, n, why })
    assert.is_true(math.abs(a - 0.5) < 1e-15)
    -- the center reaches its goal, but the turn stops short: flush in a slot
    local s = obb.world2()
    s:add("floor", 0, -0.5, 50, 0.5); s:add("ceiling", 0, 1.5, 50, 0.5)
    s:add("box", 0, 0.5, 2, 0.5)
    local _, _, _, sa, swhy = s:check("box", 6, 0.5, 0.5)
    assert.equal("turn", swhy)
    assert.is_true(math.abs(sa) < 1e-9)
    -- 3D: the count after the center, the rotation after the count
    local w3 = obb.world3()
    w3:add("a", 0, 0, 0, 1, 1, 1)
    assert.same({ 1, 2, 3, 0, "goal" }, { w3:check("a", 1, 2, 3) })
    local t = { w3:check("a", 1, 2, 3, 0, 0, 0, 1) }
    assert.same({ 1, 2, 3, 0, 0, 0, 0, 1, "goal" }, t)
  end)

  it("a bounce is recorded once per bounce, and a velocity reflected per record ends the way the item went", function()
    local w, out = corridor(), {}
    local vx, vy = 1000, 1305
    local x, y, n, why = w:check("bullet", vx, 5 + vy, "bounce", out)
    assert.equal("legs", why)
    assert.equal(8, n) -- one record per bounce: top, bottom, top, ...
    local M = obb.MOVE2
    for i = 0, n - 1 do
      local k = i * M.stride
      assert.equal(i % 2 == 0 and "top" or "bottom", out[k + M.other])
      vx, vy = obb.reflect(vx, vy, out[k + M.nx], out[k + M.ny])
    end
    -- the rest of the move goes the way the reflected velocity does
    local dx, dy, turn = w:remainder()
    assert.equal(0, turn)
    assert.is_true(dx > 0 and dy * vy > 0, ("rest %g %g, velocity %g %g"):format(dx, dy, vx, vy))
    assert.is_true(math.abs(dx * vy - dy * vx) < 1e-6 * math.abs(dx * vy))
    assert.is_true(y > 0 and y < 10 and x > 0)
  end)

  it("remainder carries a move on until it is done, and is zero after any other end", function()
    local w, out = corridor(), {}
    local x, y, n, why = w:move("bullet", 1000, 1305, "bounce", out)
    local legs_moves, total = 0, n
    while why == "legs" do
      legs_moves = legs_moves + 1
      local dx, dy = w:remainder()
      x, y, n, why = w:move("bullet", x + dx, y + dy, "bounce", out)
      total = total + n
    end
    assert.is_true(legs_moves > 5)
    assert.equal("blocked", why)
    assert.same({ 0, 0, 0 }, { w:remainder() })
    -- the bullet covered its whole path: its x went all the way to 1000
    assert.is_true(math.abs(x - 1000) < 1e-9, x)
    assert.is_true(y > 0 and y < 10)
    assert.is_true(total > 100)
    w:update("bullet", 0, 5, 0.1, 0.1)
    w:check("bullet", 1, 5)
    assert.same({ 0, 0, 0 }, { w:remainder() })
    local w3 = obb.world3()
    w3:add("a", 0, 0, 0, 1, 1, 1)
    w3:check("a", 1, 2, 3)
    assert.same({ 0, 0, 0, 0 }, { w3:remainder() })
    H.assert_argerror(2, "remainder", "no value expected, got number", w.remainder, w, 1)
    w:close()
    H.assert_error_text("world is closed", w.remainder, w)
  end)

  it("names the offsets of a record's fields", function()
    assert.same({ other = 1, response = 2, t = 3, nx = 4, ny = 5, x = 6, y = 7, depth = 8, stride = 8 },
      obb.MOVE2)
    assert.same({ other = 1, response = 2, t = 3, nx = 4, ny = 5, nz = 6, x = 7, y = 8, z = 9, depth = 10,
      stride = 10 }, obb.MOVE3)
    assert.equal(obb.MOVE_STRIDE2, obb.MOVE2.stride)
    assert.equal(obb.MOVE_STRIDE3, obb.MOVE3.stride)
    -- and they read a 3D record: the contact center and the normal
    local w, out, M = obb.world3(), {}, obb.MOVE3
    w:add("wall", 5, 0, 0, 1, 5, 5); w:add("a", 0, 0, 0, 1, 1, 1)
    w:check("a", 9, 0, 0, "touch", out)
    assert.same({ "wall", "touch", -1, 0, 0, 3, 0, 0, 0 },
      { out[M.other], out[M.response], out[M.nx], out[M.ny], out[M.nz], out[M.x], out[M.y], out[M.z],
        out[M.depth] })
  end)
end)
