-- obb.love: draws obb's 2D boxes, worlds and contacts with LÖVE's
-- love.graphics (docs/love.md; examples/love/ uses every function).
--
--   local draw = require "obb.love"
--   draw.box(box [, mode])                       -- "line" (default) or "fill"
--   draw.world(world [, mode [, x, y, w, h]])    -- the items in view
--   draw.contact(a, b [, scale])                 -- a:contacts(b), if any
--   draw.move(out, n [, scale])                  -- world:move's records
--   draw.ray(ox, oy, dx, dy, max_t, out, n [, scale]) -- world:raycast's hits
--
-- Coordinates are drawn as given: obb's y axis is LÖVE's y axis (down), so
-- a positive angle turns clockwise on screen. The colour, line width and
-- transform are love.graphics' current ones, set by the caller. Nothing
-- here makes garbage per call once the scratch tables have grown: corners
-- go to love.graphics.polygon as plain numbers, and the world's items come
-- through one reused table and one reused box.
local M = {}

local function graphics()
  local love = rawget(_G, "love")
  return assert(love and love.graphics, "obb.love needs LÖVE (love.graphics)")
end

-- Draws one 2D box as a polygon through its four corners.
function M.box(box, mode)
  graphics().polygon(mode or "line", box:corners())
end

local items, scratch, view = {}, nil, nil

-- Draws the boxes of every item of a 2D world that intersects the view
-- rectangle (x, y, w, h; default the whole window at the origin). Returns
-- how many were drawn.
function M.world(world, mode, x, y, w, h)
  local g = graphics()
  local obb = require "obb"
  if not x then
    x, y = 0, 0
    w, h = g.getDimensions()
  end
  view = view or obb.new2(0, 0, 0, 0)
  scratch = scratch or obb.new2(0, 0, 0, 0)
  view:set(x + w / 2, y + h / 2, w / 2, h / 2, 0)
  local n = world:query_box(view, items)
  mode = mode or "line"
  for i = 1, n do
    g.polygon(mode, world:get(items[i], scratch):corners())
  end
  return n
end

-- Draws a dot and a line along the normal, len long, at (px, py).
local function mark(g, px, py, nx, ny, len)
  g.circle("fill", px, py, 2)
  g.line(px, py, px + nx * len, py + ny * len)
end

local contact = {}

-- Draws the contact manifold of a:contacts(b): each point as a dot and a
-- line along the normal, as long as the point's depth times scale
-- (default 1; the normal points the way a must move to leave b). Returns
-- the number of points (0 when the boxes are apart).
function M.contact(a, b, scale)
  local g = graphics()
  local count, nx, ny = a:contacts(b, contact)
  if not count then return 0 end
  scale = scale or 1
  for i = 0, count - 1 do
    local px, py, depth = contact[3 * i + 1], contact[3 * i + 2], contact[3 * i + 3]
    mark(g, px, py, nx, ny, depth * scale)
  end
  return count
end

-- Draws the n records a 2D world:move or world:check wrote into out: each
-- contact as a dot where the item's center was when it met the other, with
-- a line along the normal (the way the item must move to get away) scale
-- long (default 8, in world units), and the path through the contacts from
-- the first on. Returns n.
function M.move(out, n, scale)
  local g = graphics()
  local S = 8 -- obb.MOVE2: other, response, t, nx, ny, x, y, depth
  scale = scale or 8
  for i = 0, n - 1 do
    local k = i * S
    mark(g, out[k + 6], out[k + 7], out[k + 4], out[k + 5], scale)
    if i > 0 then g.line(out[k - S + 6], out[k - S + 7], out[k + 6], out[k + 7]) end
  end
  return n
end

-- Draws a 2D world:raycast(ox, oy, dx, dy, max_t, out) and its n hits: the
-- ray from the origin to its first hit (to max_t, default 1, when none),
-- and each hit as a dot at o + t d with a line along the face's outward
-- normal scale long (default 8). Returns n.
function M.ray(ox, oy, dx, dy, max_t, out, n, scale)
  local g = graphics()
  local t = n > 0 and out[2] or (max_t or 1)
  if t == math.huge then t = 1 end
  scale = scale or 8
  g.line(ox, oy, ox + dx * t, oy + dy * t)
  for i = 0, n - 1 do
    local k = i * 4 -- item, t, nx, ny
    local ti = out[k + 2]
    mark(g, ox + dx * ti, oy + dy * ti, out[k + 3], out[k + 4], scale)
  end
  return n
end

return M
