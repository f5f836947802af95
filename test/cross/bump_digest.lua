-- Every answer of obb.bump (lua/obb/bump.lua) on random worlds, exactly, one
-- a line, each led by what answered it: moves and checks with every
-- response (a custom one too, which runs bump's loop in Lua), their cols,
-- the queries, bump.rect's functions; a quarter of the rectangles turned.
-- `make test-arm64` compares it between x86-64 and arm64
-- (test/cross/arm64_test.sh). test/digest.lua's bump part moves tiles on
-- a grid, whose arithmetic is exact; here most of it is not, and it is
-- Lua, which LuaJIT compiles, and its arm64 backend fuses a*b + c into one
-- multiply-add. The inputs are made so that fusing cannot change them: an
-- exact integer numerator, then one division.
--   lua5.4 test/cross/bump_digest.lua > a.txt
local bump = require "obb.bump"
local seed = 4242
local function rnd() seed = (seed * 16807) % 2147483647; return seed end
-- a number in [a, b] (a, b integers): exact integer numerator, one division
local function r(a, b) local s = rnd(); return (a * 2147483647 + (b - a) * s) / 2147483647 end
local out = {}
local function p(...)
  local t = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    t[i] = type(v) == "number" and string.format("%.17g", v) or tostring(v)
  end
  out[#out + 1] = table.concat(t, " ")
end
local function pcol(c)
  p("col", c.other, c.type, c.overlaps, c.ti, c.move.x, c.move.y, c.normal.x, c.normal.y, c.touch.x, c.touch.y,
    c.slide and c.slide.x, c.slide and c.slide.y, c.bounce and c.bounce.x, c.bounce and c.bounce.y)
end
local RESP = { "touch", "cross", "slide", "bounce", "mine" }
for _ = 1, 150 do
  local world = bump.newWorld(64)
  world:addResponse("mine", function(w, col, x, y, wd, ht, gx, gy, filter)
    return bump.responses.slide(w, col, x, y, wd, ht, gx, gy, filter)
  end)
  for k = 1, 40 do
    local turnedp = rnd() % 4 == 0
    world:add(k, r(-200, 200), r(-200, 200), r(1, 40), r(1, 40), turnedp and r(0, 6) or nil)
  end
  for m = 1, 30 do
    local k = 1 + m % 40
    local x, y = world:getRect(k)
    local resp = RESP[1 + m % 5]
    local ax, ay, cols, len = world:move(k, x + r(-60, 60), y + r(-60, 60), function(_, o)
      return RESP[1 + o % 5] end)
    p("move", ax, ay, len); for i = 1, len do pcol(cols[i]) end
    ax, ay, cols, len = world:check(k, x + r(-60, 60), y + r(-60, 60), function() return resp end)
    p("check", ax, ay, len); for i = 1, len do pcol(cols[i]) end
    local _, n = world:queryRect(r(-200, 200), r(-200, 200), r(1, 80), r(1, 80)); p("qrect", n)
    _, n = world:queryPoint(r(-200, 200), r(-200, 200)); p("qpoint", n)
    local infos, ni = world:querySegmentWithCoords(r(-200, 200), r(-200, 200), r(-200, 200), r(-200, 200))
    for i = 1, ni do local f = infos[i]; p("seg", f.item, f.ti1, f.ti2, f.x1, f.y1, f.x2, f.y2) end
    local c = bump.rect.detectCollision(r(-50, 50), r(-50, 50), r(1, 30), r(1, 30),
      r(-50, 50), r(-50, 50), r(1, 30), r(1, 30), r(-50, 50), r(-50, 50))
    if c then p("detect", c.overlaps, c.ti, c.normal.x, c.normal.y, c.touch.x, c.touch.y) else p("detect", "nil") end
    p("sqdist", bump.rect.getSquareDistance(r(-50, 50), r(-50, 50), r(1, 30), r(1, 30),
      r(-50, 50), r(-50, 50), r(1, 30), r(1, 30)))
    p("segidx", bump.rect.getSegmentIntersectionIndices(r(-50, 50), r(-50, 50), r(1, 30), r(1, 30),
      r(-50, 50), r(-50, 50), r(-50, 50), r(-50, 50)))
    p("cell", world:toCell(r(-200, 200), r(-200, 200)))
  end
end
io.write(table.concat(out, "\n"), "\n")
