-- spec/love_draw_spec.lua: obb.love (lua/obb/love.lua, docs/love.md
-- "Drawing") against a love.graphics that records what it is asked to
-- draw: boxes, a world, contacts, a move's records and a ray's hits, each
-- drawn where obb says they are.
local obb = require "obb"

-- A love.graphics that records each call as { name, args... }.
local function recording()
  local calls = {}
  local function rec(name)
    return function(...) calls[#calls + 1] = { name, ... } end
  end
  local g = { polygon = rec("polygon"), circle = rec("circle"), line = rec("line"),
              getDimensions = function() return 800, 600 end }
  return g, calls
end

describe("obb.love", function()
  local saved, draw, g, calls
  before_each(function()
    saved = rawget(_G, "love")
    g, calls = recording()
    rawset(_G, "love", { graphics = g })
    package.loaded["obb.love"] = nil
    draw = require "obb.love"
  end)
  after_each(function()
    rawset(_G, "love", saved)
    package.loaded["obb.love"] = nil
  end)

  it("draws a box through its corners", function()
    local b = obb.new2(10, 20, 3, 2, 0.4)
    draw.box(b, "fill")
    assert.are.same({ "polygon", "fill", b:corners() }, calls[1])
  end)

  it("draws a move's records: a dot at each contact center, its normal, the path between", function()
    local w, out = obb.world2(), {}
    w:add("top", 0, 10.5, 100, 0.5); w:add("bottom", 0, -0.5, 100, 0.5)
    w:add("b", 0, 5, 0.5, 0.5)
    local _, _, n = w:check("b", 30, 40, "bounce", out)
    assert.is_true(n >= 2)
    assert.are.equal(n, draw.move(out, n, 2))
    local M, dots, normals, path = obb.MOVE2, 0, 0, 0
    for _, c in ipairs(calls) do
      if c[1] == "circle" then dots = dots + 1 end
    end
    assert.are.equal(n, dots)
    for i = 0, n - 1 do
      local k = i * M.stride
      local x, y, nx, ny = out[k + M.x], out[k + M.y], out[k + M.nx], out[k + M.ny]
      local found = false
      for _, c in ipairs(calls) do
        if c[1] == "line" and c[2] == x and c[3] == y and c[4] == x + nx * 2 and c[5] == y + ny * 2 then
          found = true
        end
      end
      assert.is_true(found, "record " .. i .. "'s normal")
      normals = normals + 1
      if i > 0 then
        local px, py = out[k - M.stride + M.x], out[k - M.stride + M.y]
        for _, c in ipairs(calls) do
          if c[1] == "line" and c[2] == px and c[3] == py and c[4] == x and c[5] == y then path = path + 1 end
        end
      end
    end
    assert.are.equal(n, normals)
    assert.are.equal(n - 1, path)
  end)

  it("draws a ray to its first hit and each hit with its normal", function()
    local w, out = obb.world2(), {}
    w:add("a", 10, 0, 1, 1); w:add("b", 20, 0, 1, 1)
    local n = w:raycast(0, 0, 1, 0, math.huge, out)
    assert.are.equal(2, n)
    assert.are.equal(2, draw.ray(0, 0, 1, 0, math.huge, out, n, 3))
    assert.are.same({ "line", 0, 0, 9, 0 }, calls[1]) -- to the first face, at x = 9
    assert.are.same({ "circle", "fill", 9, 0, 2 }, calls[2])
    assert.are.same({ "line", 9, 0, 9 - 3, 0 }, calls[3]) -- the face's normal, (-1, 0)
    assert.are.same({ "circle", "fill", 19, 0, 2 }, calls[4])
    -- no hit: the ray to max_t
    for k = #calls, 1, -1 do calls[k] = nil end
    assert.are.equal(0, draw.ray(0, 5, 2, 0, 4, out, w:raycast(0, 5, 2, 0, 4, out)))
    assert.are.same({ { "line", 0, 5, 8, 5 } }, calls)
  end)

  it("draws a world's items in view and a contact's points", function()
    local w = obb.world2()
    w:add("in", 100, 100, 10, 10); w:add("out", 5000, 5000, 10, 10)
    assert.are.equal(1, draw.world(w))
    local a, b = obb.new2(0, 0, 1, 1), obb.new2(1.5, 0, 1, 1)
    for k = #calls, 1, -1 do calls[k] = nil end
    local points = draw.contact(a, b)
    assert.is_true(points >= 1)
    local dots = 0
    for _, c in ipairs(calls) do if c[1] == "circle" then dots = dots + 1 end end
    assert.are.equal(points, dots)
  end)
end)
