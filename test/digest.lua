-- The determinism digest (docs/precision.md, "The same answers on every
-- platform"): every answer of many seeded calls, one a line, each number
-- written exactly (its sign, 53-bit integer significand and power of two,
-- worked out here with exact doublings so that no platform's printf or
-- strtod is trusted). Two platforms, or two Luas, agree when their outputs
-- are byte for byte the same:
--
--   lua5.4 test/digest.lua [rounds] > a.txt     (rounds: 400 by default)
--
-- Plain Lua 5.1-5.4 and LuaJIT, no busted: it runs under wine and qemu
-- (make test-windows, make test-arm64). Covers pairs, points, rays,
-- distances, fits, merges, 2D and 3D worlds with every query, moves,
-- checks, pushes, casts, turning sweeps, clip and reflect, obb.bump,
-- moves that turn, moving solids, sensors' events and the character kit
-- (each added last: the lines before each are the digest before it).
local obb = require "obb"
local unpack = table.unpack or unpack

local rounds = tonumber(arg and arg[1]) or 400

-- Park and Miller's generator: every step is exact in a double.
local seed = 20261126
local function rnd()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
end
local function r(a, b) return a + (b - a) * rnd() end
-- LuaJIT's arm64 backend compiles a + (b - a) * rnd() into one fused
-- multiply-add, which rounds once: other inputs there, so other answers
-- (a third of the lines). Run by the interpreter, r rounds twice, as on
-- every other Lua and platform; the rest runs compiled (obb.bump's
-- arithmetic among it).
if rawget(_G, "jit") then jit.off(r) end

-- x as "m*2^e" with m an integer below 2^53, both printed as integers.
local function exact(x)
  if x ~= x then return "nan" end
  if x == math.huge then return "inf" end
  if x == -math.huge then return "-inf" end
  if x == 0 then return 1 / x < 0 and "-0" or "0" end
  local sign = ""
  if x < 0 then sign, x = "-", -x end
  local e = 0
  while x >= 2^53 do x, e = x * 0.5, e + 1 end  -- exact: x stays normal
  while x < 2^52 do x, e = x * 2, e - 1 end     -- exact: doubling
  while x % 2 == 0 do x, e = x * 0.5, e + 1 end -- the shortest significand
  return string.format("%s%.0fp%d", sign, x, e)
end

local function line(...)
  local t = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    t[i] = type(v) == "number" and exact(v) or tostring(v)
  end
  io.write(table.concat(t, " "), "\n")
end

-- out[1..n] and nothing after (tables are reused, so stale slots are cut).
local function slots(out, n)
  local t = {}
  for i = 1, n do t[i] = out[i] end
  return unpack(t, 1, n)
end

local function box2()
  return obb.new2(r(-6, 6), r(-6, 6), r(0.1, 3), r(0.1, 3),
                  rnd() < 0.3 and 0 or r(-4, 4))
end
local function box3()
  local q = rnd() < 0.3
  return obb.new3(r(-6, 6), r(-6, 6), r(-6, 6), r(0.1, 3), r(0.1, 3), r(0.1, 3),
                  q and 0 or r(-1, 1), q and 0 or r(-1, 1), q and 0 or r(-1, 1), 1)
end

local out = {}
local function pairs_of(a, b, dim)
  line("intersects", a:intersects(b), a:classify(b), a:contains(b))
  line("penetration", a:penetration(b), a:overlaps(b))
  local n = a:contacts(b, out)
  line("contacts", a:contacts(b)) ; line("contacts-out", n and slots(out, n * (dim + 1)))
  line("distance", a:distance(b))
  if dim == 2 then
    line("sweep", a:sweep(b, r(-8, 8), r(-8, 8), r(-8, 8), r(-8, 8)))
    line("sweep-turning", a:sweep(b, r(-8, 8), r(-8, 8), r(-1, 1), r(-1, 1), r(-3, 3), r(-3, 3)))
  else
    line("sweep", a:sweep(b, r(-8, 8), r(-8, 8), r(-8, 8), r(-8, 8), r(-8, 8), r(-8, 8)))
    line("sweep-turning", a:sweep(b, r(-8, 8), r(-8, 8), r(-8, 8), r(-1, 1), r(-1, 1), r(-1, 1),
                                  r(-2, 2), r(-2, 2), r(-2, 2), r(-2, 2), r(-2, 2), r(-2, 2)))
  end
  local m = obb.merge(a, b)
  line("merge", m:center()) ; line("merge-e", m:half_extents())
end

local function points_of(a, dim)
  local x, y, z = r(-8, 8), r(-8, 8), r(-8, 8)
  if dim == 2 then
    line("point", a:contains(x, y), a:distance(x, y), a:signed_distance(x, y), a:closest_point(x, y))
    line("ray", a:raycast(x, y, r(-1, 1), r(-1, 1)))
    line("segment", a:intersects_segment(x, y, r(-8, 8), r(-8, 8)))
    line("circle", a:intersects_circle(x, y, r(0, 3)))
  else
    line("point", a:contains(x, y, z), a:distance(x, y, z), a:signed_distance(x, y, z),
         a:closest_point(x, y, z))
    line("ray", a:raycast(x, y, z, r(-1, 1), r(-1, 1), r(-1, 1)))
    line("segment", a:intersects_segment(x, y, z, r(-8, 8), r(-8, 8), r(-8, 8)))
    line("sphere", a:intersects_sphere(x, y, z, r(0, 3)))
    line("plane", a:plane_side(r(-1, 1), r(-1, 1), r(-1, 1), r(-3, 3)))
  end
  line("corners", a:corners()) ; line("aabb", a:aabb()) ; line("axes", a:axes())
end

local function fits(dim)
  local pts = {}
  for i = 1, 3 + math.floor(rnd() * 20) do
    pts[i] = dim == 2 and { r(-5, 5), r(-5, 5) } or { r(-5, 5), r(-5, 5), r(-5, 5) }
  end
  local fit = dim == 2 and obb.fit2 or obb.fit3
  for _, method in ipairs(dim == 2 and { "pca", "hull" } or { "pca", "aabb" }) do
    local ok, b = pcall(fit, pts, method)
    if ok then line("fit", method, b:center()) ; line("fit-e", b:half_extents()) ; line("fit-a", b:axes())
    else line("fit", method, "error") end
  end
end

local RESP = { "touch", "cross", "slide", "bounce" }
local function respond(_, other) return RESP[1 + other % 4] end

local function world2()
  local w = obb.world2()
  for k = 1, 40 do
    w:add(k, r(-20, 20), r(-20, 20), r(0.2, 4), r(0.2, 4), rnd() < 0.5 and 0 or r(0, 6))
  end
  for m = 1, 20 do
    local k = 1 + m % 40
    local gx, gy = w:get(k)
    line("check2", w:check(k, gx + r(-15, 15), gy + r(-15, 15), RESP[1 + m % 4], out)) ; line(slots(out, 8))
    line("move2", w:move(k, gx + r(-15, 15), gy + r(-15, 15), respond, out)) ; line(slots(out, 8))
    line("push2", w:push(k))
    local b = box2()
    line("cast2", w:cast(b, r(-20, 20), r(-20, 20), out)) ; line(slots(out, 8))
    line("cast-turning2", w:cast_turning(b, r(-20, 20), r(-20, 20), r(-3, 3), out)) ; line(slots(out, 8))
    line("query2", w:query_box(b, out), slots(out, 4))
    line("qpoint2", w:query_point(r(-20, 20), r(-20, 20), out), slots(out, 2))
    local n = w:raycast(r(-20, 20), r(-20, 20), r(-1, 1), r(-1, 1), 30, out)
    line("wray2", n, slots(out, 4 * math.min(n, 3)))
    n = w:collisions(k, out)
    line("collisions2", n, slots(out, 3 * math.min(n, 3)))
  end
  line("pairs2", w:pairs(out))
end

local function world3()
  local w = obb.world3()
  for k = 1, 40 do
    local q = rnd() < 0.5
    w:add(k, r(-20, 20), r(-20, 20), r(-20, 20), r(0.2, 4), r(0.2, 4), r(0.2, 4),
          q and 0 or r(-1, 1), q and 0 or r(-1, 1), q and 0 or r(-1, 1), 1)
  end
  for m = 1, 20 do
    local k = 1 + m % 40
    local gx, gy, gz = w:get(k)
    line("check3", w:check(k, gx + r(-15, 15), gy + r(-15, 15), gz + r(-15, 15), RESP[1 + m % 4], out))
    line(slots(out, 10))
    line("move3", w:move(k, gx + r(-15, 15), gy + r(-15, 15), gz + r(-15, 15), respond, out))
    line(slots(out, 10))
    line("push3", w:push(k))
    local b = box3()
    line("cast3", w:cast(b, r(-20, 20), r(-20, 20), r(-20, 20), out)) ; line(slots(out, 10))
    line("cast-turning3", w:cast_turning(b, r(-20, 20), r(-20, 20), r(-20, 20),
                                         r(-2, 2), r(-2, 2), r(-2, 2), out))
    line(slots(out, 10))
    line("query3", w:query_box(b, out), slots(out, 4))
    local n = w:raycast(r(-20, 20), r(-20, 20), r(-20, 20), r(-1, 1), r(-1, 1), r(-1, 1), 30, out)
    line("wray3", n, slots(out, 5 * math.min(n, 3)))
    n = w:collisions(k, out)
    line("collisions3", n, slots(out, 4 * math.min(n, 3)))
  end
  line("pairs3", w:pairs(out))
end

-- obb.bump: the Lua layer's own arithmetic (top-left corners, cols).
local function bump()
  local ok, B = pcall(require, "obb.bump")
  if not ok then line("bump", "absent") return end
  local w = B.newWorld(16)
  for k = 1, 60 do w:add(k, math.floor(r(0, 40)) * 8, math.floor(r(0, 40)) * 8, 8, 8) end
  for m = 1, 30 do
    local k = 1 + m % 60
    local x, y = w:getRect(k)
    local ax, ay, cols, len = w:move(k, x + r(-30, 30), y + r(-30, 30), respond)
    line("bump-move", ax, ay, len)
    for i = 1, len do
      local c = cols[i]
      line("bump-col", c.other, c.type, c.ti, c.normal.x, c.normal.y, c.touch.x, c.touch.y)
    end
  end
end

for _ = 1, rounds do
  local a, b = box2(), box2()
  pairs_of(a, b, 2) ; points_of(a, 2)
  a, b = box3(), box3()
  pairs_of(a, b, 3) ; points_of(a, 3)
  fits(2) ; fits(3)
  line("clip", obb.clip(r(-5, 5), r(-5, 5), r(-1, 1), r(-1, 1)))
  line("reflect", obb.reflect(r(-5, 5), r(-5, 5), r(-5, 5), r(-1, 1), r(-1, 1), r(-1, 1)))
end
-- Moves that turn (world:move with a goal angle or rotation): thin bars
-- and crates, goals and turns at random, every response.
local function turning()
  local w2, w3 = obb.world2(), obb.world3()
  for k = 1, 30 do
    w2:add(k, r(-15, 15), r(-15, 15), r(0.1, 4), r(0.01, 2), r(-3, 3))
    w3:add(k, r(-15, 15), r(-15, 15), r(-15, 15), r(0.1, 4), r(0.01, 2), r(0.1, 2), r(-1, 1), r(-1, 1),
           r(-1, 1), 1)
  end
  for m = 1, 40 do
    local k = 1 + m % 30
    local x, y = w2:get(k)
    line("move-turning2", w2:move(k, x + r(-10, 10), y + r(-10, 10), r(-6, 6), respond, out))
    line(slots(out, 8))
    local x3, y3, z3 = w3:get(k)
    line("move-turning3", w3:move(k, x3 + r(-10, 10), y3 + r(-10, 10), z3 + r(-10, 10),
                                  r(-1, 1), r(-1, 1), r(-1, 1), r(-1, 1), respond, out))
    line(slots(out, 10))
  end
end

-- Ties answered the first only (world:set_ties "first"): flush tiles on
-- a grid, a mover landing on seams and sliding into corners (obb.bump's
-- turned rectangles, under obb's rules, are test/cross/bump_digest.lua's).
local function ties()
  local w = obb.world2():set_ties("first")
  for k = 1, 60 do w:add(k, math.floor(r(0, 12)) * 2, math.floor(r(0, 12)) * 2, 1, 1) end
  w:add("p", r(0, 24), r(0, 24), 0.4, 0.7)
  for _ = 1, 30 do
    local x, y = w:get("p")
    line("ties-first", w:move("p", x + r(-6, 6), y + r(-6, 6), respond, out)) ; line(slots(out, 8))
  end
end

for _ = 1, math.max(1, math.floor(rounds / 8)) do world2() ; world3() end
bump()
turning()
ties()

-- Moving solids (world:move_solid): platforms translating and turning
-- through crates and thin boards, every response of the solid (a filter
-- function and a response set) and the movers' slide, in worlds with an
-- up; each record, and where every item ends.
local SOLID = { "ride", "stand", "push", "oneway", "cross", false, "slide" }
local function solids()
  local set = obb.responses({ [1] = "ride", [2] = "stand", [3] = "push", [4] = "oneway", [5] = false })
  local function answer(_, other) return SOLID[1 + other % #SOLID] end
  local w2 = obb.world2({ up = { 0, 1 } })
  local w3 = obb.world3({ up = { 0, 1, 0 }, slope = 0.6 })
  for k = 1, 40 do
    local thin = k % 5 == 0
    w2:add(k, r(-12, 12), r(-12, 12), r(0.1, 2), thin and 0 or r(0.1, 2), k % 3 == 0 and r(-1, 1) or 0)
    w2:set_class(k, k % 6)
    w3:add(k, r(-12, 12), r(-12, 12), r(-12, 12), r(0.1, 2), thin and 0 or r(0.1, 2), r(0.1, 2),
           0, k % 3 == 0 and r(-1, 1) or 0, 0, 1)
    w3:set_class(k, k % 6)
  end
  for m = 1, 30 do
    local k = 1 + (m * 7) % 40
    local x, y, _, _, a = w2:get(k)
    local gx, gy = x + r(-6, 6), y + r(-6, 6)
    if m % 2 == 0 then
      line("solid2", w2:move_solid(k, gx, gy, a + r(-2, 2), answer, out))
    else
      line("solid2", w2:move_solid(k, gx, gy, set, out))
    end
    line(slots(out, #out))
    local x3, y3, z3 = w3:get(k)
    if m % 2 == 0 then
      local s, c = math.sin(r(-1, 1)), math.cos(r(-1, 1))
      line("solid3", w3:move_solid(k, x3 + r(-6, 6), y3 + r(-6, 6), z3 + r(-6, 6), s, 0.3, 0, c, answer, out))
    else
      line("solid3", w3:move_solid(k, x3 + r(-6, 6), y3 + r(-6, 6), z3 + r(-6, 6), set, out))
    end
    line(slots(out, #out))
  end
  for k = 1, 40 do line("solid-end", w2:get(k)) ; line("solid-end3", w3:get(k)) end
  -- a lift with riders (some stacked) rising, sliding and tilting under a
  -- ceiling and into a crate
  local l2 = obb.world2({ up = { 0, 1 } })
  local l3 = obb.world3({ up = { 0, 1, 0 } })
  l2:add("lift", 0, 0, 4, 0.25) ; l3:add("lift", 0, 0, 0, 4, 0.25, 3)
  for i = 1, 4 do
    local x, hy = -4 + 2 * i - r(0, 0.5), r(0.2, 0.6)
    l2:add(i, x, 0.25 + hy, r(0.2, 0.6), hy) ; l3:add(i, x, 0.25 + hy, r(-1, 1), r(0.2, 0.6), hy, r(0.2, 0.6))
  end
  l2:add(5, -1.8, 3, 0.3, 0.3) ; l3:add(5, -1.8, 3, 0, 0.3, 0.3, 0.3) -- falls on no one: a crate up high
  l2:add("ceiling", 0, 5, 8, 0.25) ; l3:add("ceiling", 0, 5, 0, 8, 0.25, 8)
  l2:add("crate", 6, 1, 0.5, 0.5) ; l3:add("crate", 6, 1, 0, 0.5, 0.5, 0.5)
  local function lift2(_, o, _, _, _, _, default)
    if o == "ceiling" then return false end
    if o == 2 then return "stand" end
    return default
  end
  local function lift3(_, o, _, _, _, _, _, default) return lift2(_, o, 0, 0, 0, 0, default) end
  for _ = 1, 24 do
    local x, y, _, _, a = l2:get("lift")
    line("lift2", l2:move_solid("lift", x + r(-0.3, 0.6), y + r(-0.1, 0.3), a + r(-0.1, 0.1), lift2, out))
    line(slots(out, #out))
    local x3, y3, z3 = l3:get("lift")
    local s, c = math.sin(r(-0.05, 0.05)), math.cos(r(-0.05, 0.05))
    line("lift3", l3:move_solid("lift", x3 + r(-0.3, 0.6), y3 + r(-0.1, 0.3), z3, s, 0, 0, c, lift3, out))
    line(slots(out, #out))
  end
end
solids()

-- Sensors and events: thin and small sensors (some by their class), movers
-- driven through them (sliding, bouncing, turning, moves of no length),
-- teleports, adds and removes; every event, its items, kind and time.
local function events(dim)
  local w = dim == 2 and obb.world2() or obb.world3()
  local ev = {}
  local function add(k)
    if dim == 2 then
      w:add(k, r(-12, 12), r(-12, 12), r(0.01, 3), r(0.001, 2), r(-3, 3))
    else
      w:add(k, r(-12, 12), r(-12, 12), r(-12, 12), r(0.01, 3), r(0.001, 2), r(0.1, 2),
            r(-1, 1), r(-1, 1), r(-1, 1), 1)
    end
  end
  for k = 1, 40 do add(k) end
  for k = 1, 40, 4 do w:set_sensor(k) end
  for k = 3, 40, 9 do w:set_class(k, 9) end
  w:set_sensor_class(9)
  local function take(what)
    local n = w:events(ev)
    line(what, n)
    for i = 0, n - 1 do line("event", ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3], ev[4 * i + 4]) end
  end
  take("events" .. dim)
  for m = 1, 60 do
    local k = 2 + (m * 7) % 38
    if not w:has(k) then add(k) end
    local c = { w:get(k) }
    local goal = {}
    for q = 1, dim do goal[q] = c[q] + r(-20, 20) end
    if m % 5 == 0 then for q = 1, dim do goal[q] = c[q] end end -- no length
    local form = m % 3
    if form == 1 then
      if dim == 2 then goal[3] = r(-6, 6)
      else goal[4], goal[5], goal[6], goal[7] = r(-1, 1), r(-1, 1), r(-1, 1), r(-1, 1) end
    end
    goal[#goal + 1] = RESP[1 + m % 4]
    goal[#goal + 1] = out
    line("move-events" .. dim, w:move(k, unpack(goal)))
    line(slots(out, dim == 2 and 8 or 10))
    if m % 7 == 0 then
      local j = 1 + (m * 3) % 40
      if w:has(j) then w:remove(j) else add(j) end
    end
    if m % 4 == 0 then
      local j = 1 + (m * 5) % 40
      if w:has(j) then
        local b = { w:get(j) }
        b[1] = b[1] + r(-3, 3)
        w:update(j, unpack(b))
      end
    end
    if m % 3 == 0 then take("events" .. dim) end
  end
  take("events" .. dim)
  w:close()
end
events(2)
events(3)

-- The character kit: players with options at random on floors, ramps,
-- ledges and a lift, walking, falling and jumping; each move's answers and
-- the state it leaves, and world:ground within a distance.
local function characters(dim)
  local w = dim == 2 and obb.world2({ up = { 0, 1 } }) or obb.world3({ up = { 0, 0, 1 } })
  local function add(k, x, y, hx, hy, a)
    if dim == 2 then w:add(k, x, y, hx, hy, a)
    else w:add(k, x, 0, y, hx, 3, hy, 0, math.sin(-a / 2), 0, math.cos(a / 2)) end
  end
  add("floor", 0, -0.5, 30, 0.5, 0)
  for k = 1, 12 do
    local x = -24 + k * 4
    if k % 3 == 0 then add("ledge" .. k, x, r(0.05, 0.2), r(0.5, 1.5), r(0.05, 0.2), 0)
    else add("ramp" .. k, x, r(-0.3, 0.3), r(1, 2), 0.5, r(-1.2, 1.2)) end
  end
  add("lift", 26, 0, 2, 0.25, 0)
  local players = {}
  for k = 1, 6 do
    local name = "p" .. k
    add(name, -20 + k * 7, 3, 0.25, 0.5, 0)
    w:set_character(name, { snap = k % 2 == 0 and r(0.1, 0.4) or 0, step = k % 3 ~= 0 and r(0.1, 0.4) or 0,
      corner = k > 3 and r(0, 0.15) or 0, stop_on_slope = k % 2 == 1, block_on_wall = k % 4 < 2,
      leave = k % 3 == 0 and "up" or "all" })
    players[k] = { name = name, vx = r(-4, 4), vy = 0 }
  end
  local lift = 0
  for frame = 1, 40 do
    lift = lift + 0.05
    if dim == 2 then w:move_solid("lift", 26, math.sin(lift) * 2)
    else w:move_solid("lift", 26, 0, math.sin(lift) * 2) end
    for _, p in ipairs(players) do
      if w:is_on_floor(p.name) then p.vy = (frame % 11 == 0) and 8 or 0 end
      p.vy = p.vy - 30 / 60
      local c = { w:get(p.name) }
      local goal = dim == 2 and { c[1] + p.vx / 60, c[2] + p.vy / 60 }
        or { c[1] + p.vx / 60, c[2], c[3] + p.vy / 60 }
      goal[#goal + 1] = RESP[1 + frame % 4] == "bounce" and "slide" or RESP[1 + frame % 4]
      goal[#goal + 1] = out
      line("character" .. dim, w:move(p.name, unpack(goal)))
      line(slots(out, dim == 2 and 8 or 10))
      line("state" .. dim, w:is_on_floor(p.name), w:is_on_wall(p.name), w:is_on_ceiling(p.name))
      line("floor" .. dim, w:floor(p.name))
      line("motion" .. dim, w:platform_motion(p.name))
      line("ground" .. dim, w:ground(p.name, 0.5))
    end
  end
  w:close()
end
characters(2)
characters(3)
