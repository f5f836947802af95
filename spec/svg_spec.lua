-- obb.svg, the debug-drawing helper (docs/reference.md, "Debug drawing: obb.svg";
-- docs/svg.md).
local obb = require "obb"
local svg = require "obb.svg"

local function count(s, pattern)
  local n = 0
  for _ in s:gmatch(pattern) do n = n + 1 end
  return n
end

-- The numbers of a polygon's points attribute, as x, y pairs.
local function points_of(s)
  local pts = {}
  local list = s:match('<polygon points="([^"]*)"')
  for x, y in list:gmatch("([%-%d%.]+),([%-%d%.]+)") do
    pts[#pts + 1] = { tonumber(x), tonumber(y) }
  end
  return pts
end

describe("obb.svg", function()
  it("writes an svg document of the given width, with a background", function()
    local s = svg.new({ width = 400 }):polygon({ 0, 0, 10, 0, 10, 5 }):tostring()
    assert.truthy(s:find('^<svg xmlns="http://www.w3.org/2000/svg" width="400"'))
    assert.truthy(s:find('<rect width="100%" height="100%" fill="#ffffff"/>', 1, true))
    assert.truthy(s:find("</svg>\n$"))
    -- the content (10 x 5) takes 400 - 2 * 20 pixels across, 36 per unit:
    -- the height follows, 5 * 36 plus the margins
    assert.truthy(s:find('height="220"', 1, true))
    local none = svg.new({ background = false }):point(0, 0):tostring()
    assert.is_nil(none:find("<rect", 1, true))
  end)

  it("turns y up into y down and fits the content inside the margin", function()
    local s = svg.new({ width = 140, margin = 20 }):polygon({ 0, 0, 100, 0, 100, 50 }):tostring()
    local p = points_of(s)
    assert.same({ 20, 70 }, p[1])  -- (0, 0): left, bottom
    assert.same({ 120, 70 }, p[2]) -- (100, 0): right, bottom
    assert.same({ 120, 20 }, p[3]) -- (100, 50): right, top
  end)

  it("draws a 2D box as its four corners with two axis arrows", function()
    local b = obb.new2(0, 0, 2, 1)
    local s = svg.new({ view = { -4, -4, 4, 4 }, width = 100, height = 100, margin = 10 })
      :box(b):tostring()
    -- the box polygon plus one arrowhead polygon per axis
    assert.equal(3, count(s, "<polygon"))
    assert.equal(2, count(s, "<line "))
    assert.truthy(s:find(svg.styles.axis0.stroke, 1, true))
    assert.truthy(s:find(svg.styles.axis1.stroke, 1, true))
    local p = points_of(s) -- view 8 units over 80 pixels: 10 px per unit
    assert.same({ 30, 60 }, p[1]) -- corner (-2, -1)
    assert.same({ 70, 40 }, p[3]) -- corner (2, 1)
    local plain = svg.new():box(b, { axes = false }):tostring()
    assert.equal(1, count(plain, "<polygon"))
    assert.equal(0, count(plain, "<line "))
  end)

  it("draws a 3D box as six faces, the hidden ones dashed", function()
    local s = svg.new():box(obb.new3(0, 0, 0, 1, 2, 3), { axes = false }):tostring()
    assert.equal(6, count(s, "<polygon"))
    assert.equal(3, count(s, 'stroke%-dasharray="4 3"'))
    local axes = svg.new():box(obb.new3(0, 0, 0, 1, 1, 1)):tostring()
    assert.equal(3, count(axes, "<line "))
    assert.truthy(axes:find(svg.styles.axis2.stroke, 1, true))
  end)

  it("uses the named styles and merges a table into 'free'", function()
    local b = obb.new2(0, 0, 1, 1)
    local s = svg.new():box(b, "colliding"):tostring()
    assert.truthy(s:find(svg.styles.colliding.stroke, 1, true))
    local custom = svg.new():box(b, { stroke = "#123456", axes = false }):tostring()
    assert.truthy(custom:find('stroke="#123456"', 1, true))
    assert.truthy(custom:find(('fill="%s"'):format(svg.styles.free.fill), 1, true))
  end)

  it("draws lines, arrows, points, text and rays", function()
    local pic = svg.new()
      :line(0, 0, 1, 1)
      :arrow(0, 0, 1, 0)
      :point(2, 2)
      :text(1, 1, "a < b & c")
      :ray(0, 0, 1, 0, 5, 2)
    local s = pic:tostring()
    assert.equal(3, count(s, "<line ")) -- line, arrow, ray
    assert.equal(2, count(s, "<circle")) -- the point and the ray's hit
    assert.truthy(s:find("a &lt; b &amp; c", 1, true))
    assert.truthy(s:find(('stroke-dasharray="%s"'):format(svg.styles.ray.dash), 1, true))
    local miss = svg.new():ray(0, 0, 1, 0, 5):tostring()
    assert.equal(0, count(miss, "<circle"))
  end)

  it("labels a box and titles the picture", function()
    local s = svg.new({ title = "frame <12>" })
      :box(obb.new2(0, 0, 1, 1), { label = "crate" }):tostring()
    assert.truthy(s:find(">crate</text>", 1, true))
    assert.truthy(s:find(">frame &lt;12&gt;</text>", 1, true))
  end)

  it("projects 3D points with the camera, nearer points larger in depth", function()
    local pic = svg.new({ camera = { yaw = 0, pitch = 0 } })
    local x, y, d = pic:project(1, 2, 3)
    assert.equal(1, x) -- looking along -z: x right, y up, z toward the viewer
    assert.equal(2, y)
    assert.equal(3, d)
    local persp = svg.new({ camera = { yaw = 0, pitch = 0, distance = 10 } })
    local px = persp:project(1, 0, 5) -- half way to the eye: twice as large
    assert.equal(2, px)
    local s = svg.new():line3(0, 0, 0, 1, 1, 1):arrow3(0, 0, 0, 1, 0, 0)
      :point3(1, 1, 1):text3(0, 0, 0, "o"):ray3(0, 0, 0, 0, 0, 1, 2, 1):tostring()
    assert.equal(3, count(s, "<line "))
    assert.equal(2, count(s, "<circle"))
  end)

  it("writes to a file, or says why it cannot", function()
    local path = os.tmpname()
    local pic = svg.new():point(0, 0)
    assert.is_true(pic:write(path))
    local f = assert(io.open(path, "r"))
    local text = f:read("*a")
    f:close()
    os.remove(path)
    assert.equal(pic:tostring(), text)
    local ok, msg = pic:write("/nonexistent-dir/x.svg")
    assert.is_nil(ok)
    assert.is_string(msg)
  end)

  it("raises clear errors on bad input", function()
    assert.has_error(function() svg.new(5) end, "obb.svg.new: options table expected")
    local pic = svg.new()
    assert.has_error(function() pic:box({}) end, "obb.svg: box expected, got table")
    assert.has_error(function() pic:box(obb.new2(0, 0, 1, 1), "nope") end,
      "obb.svg: unknown style 'nope'")
    assert.has_error(function() pic:box(obb.new2(0, 0, 1, 1), 5) end,
      "obb.svg: style must be a name or a table")
    assert.has_error(function() pic:line(0, 0, 0 / 0, 1) end,
      "obb.svg: line: argument #3 must be a finite number")
    assert.has_error(function() pic:point3(0, math.huge, 0) end,
      "obb.svg: point3: argument #2 must be a finite number")
  end)
end)
