-- obb.svg: a debug-draw helper that writes SVG pictures of boxes.
--
-- Pure Lua (5.1 to 5.4 and LuaJIT); it only reads boxes through their
-- methods, so it works with any box the C module makes. A picture collects
-- shapes in world coordinates, y up (the module's convention), and turns
-- them into an SVG document, y down, when it is written: the view fits the
-- content unless opts.view fixes it. 3D boxes, points, lines and rays are
-- projected by the picture's camera (orthographic, or perspective when
-- camera.distance is set).
--
--   local svg = require "obb.svg"
--   local pic = svg.new { width = 640 }
--   pic:box(a, a:intersects(b) and "colliding" or "free")
--   pic:write("frame.svg")

local obb = require "obb"
local finite = obb._lua.finite -- (src/binding/lobb_open.c)

local M = {}

local format, concat = string.format, table.concat
local sqrt, sin, cos, max, min = math.sqrt, math.sin, math.cos, math.max, math.min

-- Named styles; a style argument is one of these names or a table whose
-- fields override "free" (stroke, fill, fill_opacity, width, dash, radius,
-- axes, label, color for text).
M.styles = {
  free = { stroke = "#1f77b4", fill = "#1f77b4", fill_opacity = 0.12, width = 1.5 },
  colliding = { stroke = "#d62728", fill = "#d62728", fill_opacity = 0.3, width = 2 },
  axis0 = { stroke = "#ff7f0e", width = 1.5 },            -- a box's axis 0 (local x)
  axis1 = { stroke = "#2ca02c", width = 1.5 },            -- axis 1 (local y)
  axis2 = { stroke = "#9467bd", width = 1.5 },            -- axis 2 (local z)
  normal = { stroke = "#9467bd", width = 2 },             -- penetration normals
  contact = { stroke = "#000000", fill = "#ffdd00", radius = 3.5, width = 1 },
  ray = { stroke = "#8c564b", width = 1.5, dash = "6 4" },
  hit = { stroke = "#8c564b", fill = "#8c564b", radius = 4, width = 1 },
  text = { color = "#333333", size = 12 },
}

local function style_of(s, default)
  local base = M.styles[default or "free"]
  if s == nil then return base end
  if type(s) == "string" then
    local named = M.styles[s]
    if named == nil then
      error(format("obb.svg: unknown style '%s'", s), 3)
    end
    return named
  end
  if type(s) ~= "table" then
    error("obb.svg: style must be a name or a table", 3)
  end
  local merged = {}
  for k, v in pairs(base) do merged[k] = v end
  for k, v in pairs(s) do merged[k] = v end
  return merged
end

local function check_numbers(name, ...)
  local n = select("#", ...)
  for i = 1, n do
    if not finite((select(i, ...))) then
      error(format("obb.svg: %s: argument #%d must be a finite number", name, i), 3)
    end
  end
end

local function escape(s)
  return (tostring(s):gsub("[&<>\"]", {
    ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;",
  }))
end

local Picture = {}
Picture.__index = Picture

-- svg.new([opts]): an empty picture. opts (all optional):
--   width      pixels (default 800); height follows the view's aspect
--   height     pixels; with width, the view is fitted inside both
--   view       {minx, miny, maxx, maxy} in world units (default: fit content)
--   margin     pixels around the content (default 20)
--   background colour (default "#ffffff"; false for none)
--   title      text drawn in the top-left corner
--   camera     {yaw, pitch, distance, target = {x, y, z}} for 3D shapes:
--              the camera looks at target from yaw radians about +y and
--              pitch radians above the x-z plane (defaults 0.6 and 0.45);
--              perspective when distance (from target) is given.
function M.new(opts)
  opts = opts or {}
  if type(opts) ~= "table" then error("obb.svg.new: options table expected", 2) end
  local cam = opts.camera or {}
  local yaw, pitch = cam.yaw or 0.6, cam.pitch or 0.45
  local cy, sy, cp, sp = cos(yaw), sin(yaw), cos(pitch), sin(pitch)
  local t = cam.target or { 0, 0, 0 }
  local self = setmetatable({
    items = {},
    width = opts.width or 800,
    height = opts.height,
    view = opts.view,
    margin = opts.margin or 20,
    background = opts.background == nil and "#ffffff" or opts.background,
    title = opts.title,
    -- camera frame: d toward the viewer, r to the right, v up on screen
    d = { sy * cp, sp, cy * cp },
    r = { cy, 0, -sy },
    v = { -sy * sp, cp, -cy * sp },
    target = { t[1] or t.x or 0, t[2] or t.y or 0, t[3] or t.z or 0 },
    distance = cam.distance,
  }, Picture)
  return self
end

-- pic:project(x, y, z): the world point's picture coordinates (y up) and
-- its depth (larger is nearer the viewer).
function Picture:project(x, y, z)
  local px, py, pz = x - self.target[1], y - self.target[2], z - self.target[3]
  local r, v, d = self.r, self.v, self.d
  local X = px * r[1] + py * r[2] + pz * r[3]
  local Y = px * v[1] + py * v[2] + pz * v[3]
  local D = px * d[1] + py * d[2] + pz * d[3]
  if self.distance then
    local k = self.distance / max(self.distance - D, 1e-6 * self.distance)
    X, Y = X * k, Y * k
  end
  return X, Y, D
end

local function add(self, item)
  item.depth = item.depth or 0
  item.seq = #self.items + 1
  self.items[item.seq] = item
  return self
end

-- pic:polygon(points, style): a closed polygon; points is {x1, y1, x2, y2, ...}.
function Picture:polygon(pts, style)
  return add(self, { kind = "poly", pts = pts, style = style_of(style) })
end

-- pic:line(x1, y1, x2, y2 [, style])
function Picture:line(x1, y1, x2, y2, style)
  check_numbers("line", x1, y1, x2, y2)
  return add(self, { kind = "line", pts = { x1, y1, x2, y2 }, style = style_of(style, "ray") })
end

-- pic:arrow(x, y, dx, dy [, style]): from (x, y) to (x + dx, y + dy), with a
-- head at the far end; draws penetration normals (default style "normal").
function Picture:arrow(x, y, dx, dy, style)
  check_numbers("arrow", x, y, dx, dy)
  return add(self, { kind = "arrow", pts = { x, y, x + dx, y + dy }, style = style_of(style, "normal") })
end

-- pic:point(x, y [, style]): a dot of style.radius pixels (default "contact").
function Picture:point(x, y, style)
  check_numbers("point", x, y)
  return add(self, { kind = "dot", pts = { x, y }, style = style_of(style, "contact") })
end

-- pic:text(x, y, s [, style]): a label whose left end is at (x, y).
function Picture:text(x, y, s, style)
  check_numbers("text", x, y)
  return add(self, { kind = "text", pts = { x, y }, text = s, style = style_of(style, "text") })
end

-- pic:ray(ox, oy, dx, dy, length [, hit_t [, style]]): a ray from the origin
-- along (dx, dy) for `length` times the direction's length; when hit_t is
-- a number, marks the point origin + hit_t * direction.
function Picture:ray(ox, oy, dx, dy, length, hit_t, style)
  check_numbers("ray", ox, oy, dx, dy, length)
  self:arrow(ox, oy, dx * length, dy * length, style_of(style, "ray"))
  if hit_t ~= nil then
    check_numbers("ray hit", hit_t)
    self:point(ox + dx * hit_t, oy + dy * hit_t, "hit")
  end
  return self
end

-- The 3D forms take world points and project them with the camera.
function Picture:line3(x1, y1, z1, x2, y2, z2, style)
  check_numbers("line3", x1, y1, z1, x2, y2, z2)
  local a, b, da = self:project(x1, y1, z1)
  local c, d, dc = self:project(x2, y2, z2)
  return add(self, { kind = "line", pts = { a, b, c, d }, style = style_of(style, "ray"),
                     depth = (da + dc) / 2 })
end

function Picture:arrow3(x, y, z, dx, dy, dz, style)
  check_numbers("arrow3", x, y, z, dx, dy, dz)
  local a, b, da = self:project(x, y, z)
  local c, d, dc = self:project(x + dx, y + dy, z + dz)
  return add(self, { kind = "arrow", pts = { a, b, c, d }, style = style_of(style, "normal"),
                     depth = max(da, dc) })
end

function Picture:point3(x, y, z, style)
  check_numbers("point3", x, y, z)
  local a, b, depth = self:project(x, y, z)
  return add(self, { kind = "dot", pts = { a, b }, style = style_of(style, "contact"),
                     depth = depth + 1e-9 })
end

function Picture:text3(x, y, z, s, style)
  check_numbers("text3", x, y, z)
  local a, b, depth = self:project(x, y, z)
  return add(self, { kind = "text", pts = { a, b }, text = s, style = style_of(style, "text"),
                     depth = depth + 1e-9 })
end

function Picture:ray3(ox, oy, oz, dx, dy, dz, length, hit_t, style)
  check_numbers("ray3", ox, oy, oz, dx, dy, dz, length)
  self:arrow3(ox, oy, oz, dx * length, dy * length, dz * length, style_of(style, "ray"))
  if hit_t ~= nil then
    check_numbers("ray3 hit", hit_t)
    self:point3(ox + dx * hit_t, oy + dy * hit_t, oz + dz * hit_t, "hit")
  end
  return self
end

local function box2(self, b, st)
  self:polygon({ b:corners() }, st)
  if st.axes ~= false then
    local cx, cy = b:center()
    local ex, ey = b:half_extents()
    local ux, uy, vx, vy = b:axes()
    self:arrow(cx, cy, ux * ex, uy * ex, "axis0")
    self:arrow(cx, cy, vx * ey, vy * ey, "axis1")
  end
  if st.label ~= nil then
    local cx, cy = b:center()
    self:text(cx, cy, st.label)
  end
end

-- The six faces of a 3D box by corner index (obb.h: bit k of a corner's
-- index is set when it lies on the + side of axis k), with the axis and
-- side of each face's outward normal.
local FACES = {
  { 0, 2, 6, 4, axis = 1, sign = -1 }, { 1, 3, 7, 5, axis = 1, sign = 1 },
  { 0, 1, 5, 4, axis = 2, sign = -1 }, { 2, 3, 7, 6, axis = 2, sign = 1 },
  { 0, 1, 3, 2, axis = 3, sign = -1 }, { 4, 5, 7, 6, axis = 3, sign = 1 },
}

local function box3(self, b, st)
  local c = { b:corners() }
  local ax = { b:axes() }
  local px, py = {}, {}
  for k = 0, 7 do
    px[k], py[k] = self:project(c[3 * k + 1], c[3 * k + 2], c[3 * k + 3])
  end
  local cx, cy, cz = b:center()
  local _, _, cdepth = self:project(cx, cy, cz)
  local back = {}
  for k, v in pairs(st) do back[k] = v end
  back.dash, back.fill, back.width = "4 3", "none", 1
  local d = self.d
  for _, f in ipairs(FACES) do
    local a = 3 * (f.axis - 1)
    local facing = f.sign * (ax[a + 1] * d[1] + ax[a + 2] * d[2] + ax[a + 3] * d[3])
    local pts = {}
    for i = 1, 4 do
      pts[2 * i - 1], pts[2 * i] = px[f[i]], py[f[i]]
    end
    -- Back faces first and dashed, so hidden edges still show the shape.
    add(self, { kind = "poly", pts = pts, style = facing > 0 and st or back,
                depth = facing > 0 and cdepth or cdepth - 1e6 })
  end
  if st.axes ~= false then
    local e = { b:half_extents() }
    for i = 0, 2 do
      self:arrow3(cx, cy, cz, ax[3 * i + 1] * e[i + 1], ax[3 * i + 2] * e[i + 1],
                  ax[3 * i + 3] * e[i + 1], "axis" .. i)
    end
  end
  if st.label ~= nil then self:text3(cx, cy, cz, st.label) end
end

-- pic:box(b [, style]): a 2D box as a polygon, or a 3D box projected by the
-- camera (front faces filled, hidden edges dashed); with its axes drawn
-- from the center (axis 0 orange, 1 green, 2 purple) unless style.axes is
-- false. style is "free" (default), "colliding" or a table.
function Picture:box(b, style)
  local t = obb.type(b)
  local st = style_of(style)
  if t == "obb2" then
    box2(self, b, st)
  elseif t == "obb3" then
    box3(self, b, st)
  else
    error(format("obb.svg: box expected, got %s", type(b)), 2)
  end
  return self
end

-- ---- output ----------------------------------------------------------

local function bounds(self)
  if self.view then
    local v = self.view
    return v[1], v[2], v[3], v[4]
  end
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  for _, it in ipairs(self.items) do
    local p = it.pts
    for i = 1, #p, 2 do
      x0, x1 = min(x0, p[i]), max(x1, p[i])
      y0, y1 = min(y0, p[i + 1]), max(y1, p[i + 1])
    end
  end
  if x0 > x1 then return -1, -1, 1, 1 end
  if x1 - x0 < 1e-12 then x0, x1 = x0 - 1, x1 + 1 end
  if y1 - y0 < 1e-12 then y0, y1 = y0 - 1, y1 + 1 end
  return x0, y0, x1, y1
end

local function paint(st)
  local out = { format('stroke="%s" stroke-width="%g"', st.stroke or "none", st.width or 1) }
  if st.fill and st.fill ~= "none" then
    out[#out + 1] = format('fill="%s" fill-opacity="%g"', st.fill, st.fill_opacity or 1)
  else
    out[#out + 1] = 'fill="none"'
  end
  if st.dash then out[#out + 1] = format('stroke-dasharray="%s"', st.dash) end
  return concat(out, " ")
end

-- pic:tostring(): the SVG document as a string.
function Picture:tostring()
  local x0, y0, x1, y1 = bounds(self)
  local m, W = self.margin, self.width
  local s = (W - 2 * m) / (x1 - x0)
  if self.height then s = min(s, (self.height - 2 * m) / (y1 - y0)) end
  local H = self.height or ((y1 - y0) * s + 2 * m)
  local function X(x) return (x - x0) * s + m end
  local function Y(y) return (y1 - y) * s + m end
  local out = {
    format('<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">',
           W, H, W, H),
  }
  if self.background then
    out[#out + 1] = format('<rect width="100%%" height="100%%" fill="%s"/>', self.background)
  end
  -- Painter's order: far items first; insertion order among equals.
  local order = {}
  for i, it in ipairs(self.items) do order[i] = it end
  table.sort(order, function(a, b)
    if a.depth ~= b.depth then return a.depth < b.depth end
    return a.seq < b.seq
  end)
  for _, it in ipairs(order) do
    local p, st = it.pts, it.style
    if it.kind == "poly" then
      local xy = {}
      for i = 1, #p, 2 do xy[#xy + 1] = format("%.2f,%.2f", X(p[i]), Y(p[i + 1])) end
      out[#out + 1] = format('<polygon points="%s" %s stroke-linejoin="round"/>',
                             concat(xy, " "), paint(st))
    elseif it.kind == "line" or it.kind == "arrow" then
      local ax, ay, bx, by = X(p[1]), Y(p[2]), X(p[3]), Y(p[4])
      out[#out + 1] = format('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" %s stroke-linecap="round"/>',
                             ax, ay, bx, by, paint({ stroke = st.stroke, width = st.width, dash = st.dash }))
      local len = sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
      if it.kind == "arrow" and len > 1e-9 then
        local h = min(8, len * 0.4)
        local ux, uy = (bx - ax) / len, (by - ay) / len
        out[#out + 1] = format('<polygon points="%.2f,%.2f %.2f,%.2f %.2f,%.2f" fill="%s"/>',
                               bx, by, bx - h * ux - h * 0.5 * uy, by - h * uy + h * 0.5 * ux,
                               bx - h * ux + h * 0.5 * uy, by - h * uy - h * 0.5 * ux, st.stroke)
      end
    elseif it.kind == "dot" then
      out[#out + 1] = format('<circle cx="%.2f" cy="%.2f" r="%g" %s/>',
                             X(p[1]), Y(p[2]), st.radius or 3, paint(st))
    elseif it.kind == "text" then
      out[#out + 1] = format('<text x="%.2f" y="%.2f" font-family="sans-serif" font-size="%g" fill="%s">%s</text>',
                             X(p[1]), Y(p[2]), st.size or 12, st.color or "#333333", escape(it.text))
    end
  end
  if self.title then
    out[#out + 1] = format('<text x="%g" y="%g" font-family="sans-serif" font-size="14" fill="#000000">%s</text>',
                           m, m - 4 > 12 and m - 4 or 14, escape(self.title))
  end
  out[#out + 1] = "</svg>\n"
  return concat(out, "\n")
end

-- pic:write(path): writes the document; returns true, or nil and a message.
function Picture:write(path)
  local f, err = io.open(path, "w")
  if not f then return nil, err end
  local ok, werr = f:write(self:tostring())
  f:close()
  if not ok then return nil, werr end
  return true
end

return M
