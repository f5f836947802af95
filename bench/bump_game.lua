-- bench/bump_game.lua: the bump-style game of bench/bump.lua and
-- bench/bump_prof.lua, and the floor's library (what bump's API costs any
-- library in that game): movers with gravity, a random walk and jumps, a
-- filter function (coins cross, the rest slide), the cols read; and
-- bump.lua itself for them and bench/move.lua.
local rng = require "rng" -- bench/rng.lua
local M = {}

-- bump.lua itself, read from $OBB_BENCH_BUMP (our tree holds none); nil
-- and why when it is not set or does not load.
function M.load_bump()
  local path = os.getenv("OBB_BENCH_BUMP")
  if not path or path == "" then return nil, "OBB_BENCH_BUMP is not set" end
  local chunk, err = loadfile(path)
  if not chunk then return nil, err end
  return chunk()
end

-- A world of the library B and a function making n moves in it. Each call
-- compiles the game's frames anew (load), as each contender has a game of
-- its own: under LuaJIT the traces of one library's moves are not the
-- next one's (one loop's traces, made for bump.lua's world, would stand
-- in the way of obb.bump's, and the order of the rows would decide).
local GAME = [[
local B, nmovers, ntiles, options, rnd = ...
local w = B.newWorld(64, options)
local coin = {}
local cols = math.ceil(ntiles / 4)
for i = 0, ntiles - 1 do
  local row = i % 4
  w:add("t" .. i, (math.floor(i / 4) % cols) * 16, 400 - row * 96 + (i % 7 == 0 and -16 or 0), 16, 16)
end
for i = 1, math.floor(ntiles / 20) do
  local name = "c" .. i
  coin[name] = true
  w:add(name, rnd() * cols * 16, 100 + rnd() * 280, 8, 8)
end
local ms = {}
for i = 1, nmovers do
  ms[i] = { name = "m" .. i, vx = 0, vy = 0 }
  w:add(ms[i].name, 16 + rnd() * (cols - 2) * 16, rnd() * 300, 12, 14)
end
local function filter(_, other)
  if coin[other] then return "cross" end
  return "slide"
end
local i, dt = 0, 1 / 60
local format = string.format
return function(n, log)
  local seen = 0
  for _ = 1, n do
    i = i % nmovers + 1
    local m = ms[i]
    local x, y = w:getRect(m.name)
    if rnd() < 0.05 then m.vx = (rnd() - 0.5) * 240 end
    if rnd() < 0.02 then m.vy = -300 end
    m.vy = math.min(m.vy + 900 * dt, 600)
    local gy = y + m.vy * dt
    if y > 600 then gy = 0 end -- fell through a hole: back to the top
    local ax, ay, c, len = w:move(m.name, x + m.vx * dt, gy, filter)
    for k = 1, len do if c[k].normal.y < 0 then m.vy = 0 end end
    if ax ~= x + m.vx * dt then m.vx = -m.vx end
    seen = seen + len + (ay > 0 and 0 or 1)
    if log then -- the lockstep check's record of the move
      local f = c[1]
      log[#log + 1] = format("%s %.17g %.17g %d %s %s %.17g", m.name, ax, ay, len,
        tostring(f and f.other), tostring(f and f.type), f and f.ti or 0)
    end
  end
  return seen
end
]]
local load = loadstring or load

function M.game(B, nmovers, ntiles, options)
  return assert(load(GAME, "=game"))(B, nmovers, ntiles, options, rng(1234))
end

-- The floor: a library that does nothing but what bump's API asks of any
-- library, replaying obb.bump's answers to the game's first n moves: per
-- move the filter asked about the same others, and fresh cols (six tables
-- each, and the cols table) made from the same numbers. Its time is what
-- no library can go below in this game; the time each move costs more is
-- the library's own work. The answers are kept in flat arrays (N: numbers,
-- V: others and names), so that the collector has little more to walk
-- than in a real game.
local FIELDS = { "ti", "move.x", "move.y", "normal.x", "normal.y", "touch.x", "touch.y", "itemRect.x",
  "itemRect.y", "itemRect.w", "itemRect.h", "otherRect.x", "otherRect.y", "otherRect.w", "otherRect.h" }

function M.recorder(obbbump)
  local N, V = {}, {}
  local R = { newWorld = function(...)
    local w = obbbump.newWorld(...)
    local proxy = {}
    function proxy.add(_, ...) return w:add(...) end
    function proxy.getRect(_, item) return w:getRect(item) end
    function proxy.move(_, item, gx, gy, filter)
      local asked = {}
      local ax, ay, cols, len = w:move(item, gx, gy, function(it, other)
        asked[#asked + 1] = other
        return filter(it, other)
      end)
      N[#N + 1], N[#N + 2], N[#N + 3], N[#N + 4] = ax, ay, #asked, len
      for i = 1, #asked do V[#V + 1] = asked[i] end
      for i = 1, len do
        local c = cols[i]
        for _, f in ipairs(FIELDS) do
          local a, b = f:match("^(%w+)%.?(%w*)$")
          N[#N + 1] = b == "" and c[a] or c[a][b]
        end
        N[#N + 1] = (c.overlaps and 1 or 0) + (c.slide and 2 or 0) + (c.bounce and 4 or 0)
        local g = c.slide or c.bounce
        N[#N + 1], N[#N + 2] = g and g.x or 0, g and g.y or 0
        V[#V + 1], V[#V + 2] = c.other, c.type
      end
      return ax, ay, cols, len
    end
    return proxy
  end }
  return R, N, V
end

function M.replayer(N, V)
  return { newWorld = function()
    local rects, n, v, w = {}, 0, 0, {}
    function w.add(_, item, x, y, ww, hh) rects[item] = { x, y, ww, hh } end
    function w.getRect(_, item)
      local r = rects[item]
      return r[1], r[2], r[3], r[4]
    end
    function w.move(_, item, _, _, filter)
      local ax, ay, nasked, len = N[n + 1], N[n + 2], N[n + 3], N[n + 4]
      n = n + 4
      for i = 1, nasked do filter(item, V[v + i]) end
      v = v + nasked
      local cols = {}
      for i = 1, len do
        local flags = N[n + 16]
        local col = {
          overlaps = flags % 2 == 1, ti = N[n + 1],
          move = { x = N[n + 2], y = N[n + 3] }, normal = { x = N[n + 4], y = N[n + 5] },
          touch = { x = N[n + 6], y = N[n + 7] },
          itemRect = { x = N[n + 8], y = N[n + 9], w = N[n + 10], h = N[n + 11] },
          otherRect = { x = N[n + 12], y = N[n + 13], w = N[n + 14], h = N[n + 15] },
          other = V[v + 1], item = item, type = V[v + 2],
        }
        if flags % 4 >= 2 then col.slide = { x = N[n + 17], y = N[n + 18] } end
        if flags >= 4 then col.bounce = { x = N[n + 17], y = N[n + 18] } end
        cols[i] = col
        n, v = n + 18, v + 2
      end
      local r = rects[item]
      r[1], r[2] = ax, ay
      return ax, ay, cols, len
    end
    return w
  end }
end

return M
