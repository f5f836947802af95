-- bench/lua_spatial_hash.lua: the pure-Lua baseline for the world benchmark.
--
-- A spatial hash as game scripts write it (in the manner of HC and
-- bump.lua): a uniform grid of square cells, each a set of the items whose
-- bounding box touches it, updated incrementally when an item's cell range
-- changes; all pairs are found cell by cell, a pair reported only in the
-- cell that holds the lower-left corner of the two bounding boxes'
-- overlap (so once), after a bounding-box check and the exact
-- separating-axis test of bench/pure_lua_sat.lua. The same answer as
-- obb's world, by the same exact test, in plain Lua.
local sat = require "pure_lua_sat"

local floor, abs = math.floor, math.abs

local M = {}
M.__index = M

-- cell: the cell side, best about the size of a typical box.
function M.new(cell)
  return setmetatable({ cell = cell, cells = {}, boxes = {} }, M)
end

-- One number per cell (cells within +-2^25 of the origin).
local function key(cx, cy) return cx * 67108864 + cy end

local function set_box(b, x, y, hx, hy, angle)
  local ux, uy = math.cos(angle), math.sin(angle)
  b.x, b.y, b.ux, b.uy, b.hx, b.hy = x, y, ux, uy, hx, hy
  local wx = hx * abs(ux) + hy * abs(uy)
  local wy = hx * abs(uy) + hy * abs(ux)
  b.minx, b.miny, b.maxx, b.maxy = x - wx, y - wy, x + wx, y + wy
end

local function cell_range(self, b)
  local c = self.cell
  return floor(b.minx / c), floor(b.miny / c), floor(b.maxx / c), floor(b.maxy / c)
end

local function link(self, b, x0, y0, x1, y1, on)
  local cells = self.cells
  for cx = x0, x1 do
    for cy = y0, y1 do
      local k = key(cx, cy)
      local s = cells[k]
      if on then
        if not s then
          s = {}
          cells[k] = s
        end
        s[b] = true
      elseif s then
        s[b] = nil
        if next(s) == nil then cells[k] = nil end
      end
    end
  end
  b.x0, b.y0, b.x1, b.y1 = x0, y0, x1, y1
end

function M:add(item, x, y, hx, hy, angle)
  local b = sat.new2(x, y, hx, hy, angle)
  b.item = item
  set_box(b, x, y, hx, hy, angle)
  self.boxes[item] = b
  local x0, y0, x1, y1 = cell_range(self, b)
  link(self, b, x0, y0, x1, y1, true)
end

function M:update(item, x, y, hx, hy, angle)
  local b = self.boxes[item]
  set_box(b, x, y, hx, hy, angle)
  local x0, y0, x1, y1 = cell_range(self, b)
  if x0 ~= b.x0 or y0 ~= b.y0 or x1 ~= b.x1 or y1 ~= b.y1 then
    link(self, b, b.x0, b.y0, b.x1, b.y1, false)
    link(self, b, x0, y0, x1, y1, true)
  end
end

-- Fills out with a1, b1, a2, b2, ... and returns the pair count.
function M:pairs(out)
  local c, n, intersects = self.cell, 0, sat.intersects2
  for k, s in pairs(self.cells) do
    -- recover the cell from its key: cy in [-2^25, 2^25)
    local cy = (k + 33554432) % 67108864 - 33554432
    local cx = (k - cy) / 67108864
    -- each unordered pair once: b runs after a in next()'s order
    local a = next(s)
    while a do
      local b = next(s, a)
      while b do
        if a.minx <= b.maxx and b.minx <= a.maxx and a.miny <= b.maxy and
           b.miny <= a.maxy then
          local ox = a.minx > b.minx and a.minx or b.minx
          local oy = a.miny > b.miny and a.miny or b.miny
          if floor(ox / c) == cx and floor(oy / c) == cy and intersects(a, b) then
            out[n * 2 + 1], out[n * 2 + 2] = a.item, b.item
            n = n + 1
          end
        end
        b = next(s, b)
      end
      a = next(s, a)
    end
  end
  for i = 2 * n + 1, #out do out[i] = nil end
  return n
end

return M
