-- responses.lua: the four responses of world:move, side by side.
--
-- In each panel an item moves from the same start toward the same goal,
-- down and to the right, into a floor turned by 15 degrees, and answers
-- "touch", "cross", "slide" or "bounce" (world:check, so nothing is
-- committed). The script checks each answer against the rule it shows:
--   touch   ends where it met the floor;
--   cross   reaches the goal, the floor reported on the way;
--   slide   ends on the floor, as far along it as the goal is;
--   bounce  ends above the floor, the rest of the move mirrored.
--
--   lua examples/responses.lua [picture.svg]   (make examples runs it;
--   make docs-images draws docs/responses.svg)
local obb = require "obb"

local RESPONSES = { "touch", "cross", "slide", "bounce" }
local A = math.rad(15)
local NX, NY = -math.sin(A), math.cos(A)     -- the floor's top normal
local UX, UY = math.cos(A), math.sin(A)      -- along the floor

local function near(a, b) return math.abs(a - b) <= 1e-9 * (1 + math.abs(b)) end

local svg_path = arg and arg[1]
local pic = svg_path and require("obb.svg").new { width = 960 }
local out = {}
for k, response in ipairs(RESPONSES) do
  local ox = (k - 1) * 9                        -- each panel 9 units right
  local world = obb.world2()
  world:add("floor", ox + 3, 0, 4, 0.5, A)
  local item = {}
  local sx, sy = ox + 0.5, 3.5
  world:add(item, sx, sy, 0.4, 0.4, A)
  local gx, gy = sx + 4, sy - 4.5
  local ax, ay, n = world:check(item, gx, gy, response, out)
  assert(n == 1 and out[1] == "floor" and out[2] == response, response .. ": one collision")
  local cx, cy = out[6], out[7]                 -- the item's center at contact
  assert(near(out[4], NX) and near(out[5], NY), response .. ": the floor's normal")
  local along = (gx - cx) * UX + (gy - cy) * UY -- the goal, along the floor
  local into = (gx - cx) * NX + (gy - cy) * NY  -- and into it (< 0)
  if response == "touch" then
    assert(ax == cx and ay == cy, "touch stops at the contact")
  elseif response == "cross" then
    assert(ax == gx and ay == gy, "cross reaches the goal")
  elseif response == "slide" then
    assert(near(ax, cx + along * UX) and near(ay, cy + along * UY), "slide keeps the move along")
  else
    assert(near(ax, cx + along * UX - into * NX) and near(ay, cy + along * UY - into * NY),
           "bounce mirrors the rest")
  end
  if pic then
    local b = obb.new2(sx, sy, 0.4, 0.4, A)
    pic:box(world:get("floor", obb.new2(0, 0, 1, 1)),
            { stroke = "#d62728", fill = "#d62728", fill_opacity = 0.25, axes = false })
    pic:box(b, { axes = false })
    pic:box(b:clone():set_center(gx, gy), { dash = "4 3", axes = false })
    pic:box(b:clone():set_center(ax, ay), { stroke = "#1a7f37", axes = false })
    pic:line(sx, sy, cx, cy, { dash = "2 2" })
    if response ~= "touch" then pic:arrow(cx, cy, ax - cx, ay - cy) end
    pic:text(ox + 2, 4.4, response)
  end
  print(("%-6s ends at %7.3f %7.3f"):format(response, ax, ay))
end
if pic then assert(pic:write(svg_path)) end
print("responses: ok")
