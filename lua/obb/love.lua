-- obb.love: draws obb's 2D boxes, worlds and contacts with LÖVE's
-- love.graphics (docs/love.md; examples/love/ uses every function).
--
--   local draw = require "obb.love"
--   draw.box(box [, mode])                       -- "line" (default) or "fill"
--   draw.world(world [, mode [, x, y, w, h]])    -- the items in view
--   draw.contact(a, b [, scale])                 -- a:contacts(b), if any
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
    local len = depth * scale
    g.circle("fill", px, py, 2)
    g.line(px, py, px + nx * len, py + ny * len)
  end
  return count
end

return M
