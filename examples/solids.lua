-- solids.lua: what world:move_solid does to the others, in four panels.
--
-- In each a solid (brown, its start dashed) goes to its goal in one call,
-- in a world whose up is +y, and the others (blue where they started,
-- green where they end, red when crushed) are moved as the rules say:
--   ride    a lift going up and right carries a crate resting on it and a
--           crate resting on that one (what rests on a rider rides too);
--   push    a door pushes the crate in its way straight along its face,
--           and the crate slides up the ramp it is pushed into;
--   crush   a lift carries a player up under a beam: the player stops
--           there, the lift goes on to its goal, and the player is
--           reported crushed, by how far the lift came up into it;
--   turn    a see-saw tilting carries a player upright ("stand") and
--           pushes a crate its far end swings into.
-- The script checks each against the rule it shows.
--
--   lua examples/solids.lua [picture.svg]   (make examples runs it;
--   make docs-images draws docs/solids.svg)
local obb = require "obb"

local svg_path = arg and arg[1]
local pic = svg_path and require("obb.svg").new { width = 960 }
local S = obb.SOLID2

local function near(a, b, eps) return math.abs(a - b) <= (eps or 1e-9) * (1 + math.abs(b)) end

-- The records of out by other.
local function records(out, n)
  local by = {}
  for i = 0, n - 1 do
    local k = i * S.stride
    by[out[k + S.other]] = { what = out[k + S.what], t = out[k + S.t], nx = out[k + S.nx], ny = out[k + S.ny],
                             dx = out[k + S.dx], dy = out[k + S.dy], depth = out[k + S.depth] }
  end
  return by
end

-- Draws a panel: the solid's start and end, each other's start and end.
local function draw(world, solid, before, by, title, ox)
  if not pic then return end
  local function box(item) return world:get(item, obb.new2(0, 0, 1, 1)) end
  pic:box(before[solid], { stroke = "#8c564b", dash = "4 3", fill_opacity = 0, axes = false })
  pic:box(box(solid), { stroke = "#8c564b", fill = "#8c564b", fill_opacity = 0.35, axes = false })
  for item, b in pairs(before) do
    if item ~= solid then
      local r = by[item]
      if r or item:match("^static") then
        local static = item:match("^static")
        pic:box(b, static and { stroke = "#555555", fill = "#555555", fill_opacity = 0.25, axes = false }
          or { axes = false })
      end
      if r then
        local crushed = r.what == "crush"
        pic:box(box(item), { stroke = crushed and "#d62728" or "#1a7f37",
                             fill = crushed and "#d62728" or "#1a7f37", fill_opacity = 0.2, axes = false })
        local x, y = b:center()
        if r.dx ~= 0 or r.dy ~= 0 then pic:arrow(x, y, r.dx, r.dy) end
      end
    end
  end
  pic:text(ox + 1, 6.6, title)
end

local function world_with(items)
  local w = obb.world2({ up = { 0, 1 } })
  local before = {}
  for _, it in ipairs(items) do
    w:add(it[1], it[2], it[3], it[4], it[5], it[6] or 0)
    before[it[1]] = w:get(it[1], obb.new2(0, 0, 1, 1))
  end
  return w, before
end

-- The solid's filter: what is called static* is let through (walls,
-- beams: the solid goes where its motion takes it), the rest by the
-- default (riders ride, what it goes into is pushed); "player" stands.
local function filter(_, other, _, _, _, _, default)
  if other:match("^static") then return false end
  if other == "player" then return "stand" end
  return default
end

local out = {}

-- ride
do
  local ox = 0
  local w, before = world_with({ { "lift", ox + 2, 0.5, 1.5, 0.25 }, { "crate", ox + 1.6, 1.25, 0.5, 0.5 },
                                 { "crate2", ox + 1.8, 2.15, 0.4, 0.4 } })
  local n = w:move_solid("lift", ox + 4, 2, filter, out)
  local by = records(out, n)
  assert(n == 2 and by.crate.what == "ride" and by.crate2.what == "ride", "ride: both carried")
  assert(near(by.crate.dx, 2) and near(by.crate.dy, 1.5) and near(by.crate2.dx, 2) and near(by.crate2.dy, 1.5),
         "ride: by the lift's motion")
  draw(w, "lift", before, by, "ride", ox)
  print(("ride   crate by %g, %g; the crate on it by %g, %g"):format(by.crate.dx, by.crate.dy, by.crate2.dx,
                                                                     by.crate2.dy))
end

-- push
do
  local ox = 8
  local a = math.rad(25)
  local w, before = world_with({ { "door", ox + 0.5, 1.5, 0.2, 1.5 }, { "crate", ox + 1.2, 0.5, 0.5, 0.5 },
                                 { "static ramp", ox + 4.6, 0.2, 2.4, 0.2, a },
                                 { "static floor", ox + 3.5, -0.25, 4, 0.25 } })
  local n = w:move_solid("door", ox + 3.5, 1.5, filter, out)
  local by = records(out, n)
  assert(n == 1 and by.crate.what == "push", "push: the crate pushed")
  assert(near(by.crate.nx, 1) and near(by.crate.ny, 0), "push: along the door's face")
  local cx, cy = w:get("crate")
  assert(near(cx - 0.5, ox + 3.7) and cy > 0.5, "push: up the ramp, out of the door's way")
  assert(not w:get("door", obb.new2(0, 0, 1, 1)):overlaps(w:get("crate", obb.new2(0, 0, 1, 1))),
         "push: not inside the door")
  draw(w, "door", before, by, "push", ox)
  print(("push   crate by %.3f, %.3f"):format(by.crate.dx, by.crate.dy))
end

-- crush
do
  local ox = 16
  local w, before = world_with({ { "lift", ox + 2.5, 0.25, 1.5, 0.25 }, { "player", ox + 2.5, 1.25, 0.35, 0.75 },
                                 { "static beam", ox + 2.5, 3.5, 2, 0.25 } })
  local n, crushed = w:move_solid("lift", ox + 2.5, 1.75, filter, out)
  local by = records(out, n)
  assert(n == 1 and crushed == 1 and by.player.what == "crush", "crush: the player crushed")
  local _, py = w:get("player")
  assert(near(py + 0.75, 3.25), "crush: the player stopped at the beam")
  assert(near(by.player.depth, 0.25), "crush: by how far the lift came up into it")
  draw(w, "lift", before, by, "crush", ox)
  print(("crush  the player stopped at the beam, %g deep in the lift"):format(by.player.depth))
end

-- turn
do
  local ox = 24
  local w, before = world_with({ { "seesaw", ox + 3, 1.5, 2.5, 0.1 }, { "player", ox + 1.5, 2.35, 0.35, 0.75 },
                                 { "crate", ox + 5, 1.5 - 0.1 - 0.45, 0.4, 0.4 } })
  local n = w:move_solid("seesaw", ox + 3, 1.5, -0.35, filter, out)
  local by = records(out, n)
  assert(by.player.what == "stand", "turn: the player stands on it")
  assert(select(5, w:get("player")) == 0, "turn: upright")
  assert(by.crate.what == "push", "turn: the crate pushed")
  local s = w:get("seesaw", obb.new2(0, 0, 1, 1))
  for _, it in ipairs({ "player", "crate" }) do
    assert(not s:overlaps(w:get(it, obb.new2(0, 0, 1, 1))), "turn: " .. it .. " not inside the see-saw")
  end
  draw(w, "seesaw", before, by, "turn", ox)
  print(("turn   player by %.3f, %.3f upright; crate pushed by %.3f, %.3f"):format(by.player.dx, by.player.dy,
                                                                                 by.crate.dx, by.crate.dy))
end

if pic then assert(pic:write(svg_path)) end
print("solids: ok")
