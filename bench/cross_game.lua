-- bench/cross_game.lua: the crossing loop's game (issue 42), played by
-- bench/cross.lua (`make bench`) and bench/cross_prof.lua (instructions
-- per move under callgrind): the level, the movers, the filter and the
-- contenders' worlds. bench/cross.lua's header describes the game.
local obb = require "obb"
local P = require "platformer" -- bench/platformer.lua
local rng = require "rng"       -- bench/rng.lua
local M = {}

M.T = 16                   -- tile side
local T = M.T
local COLS, ROWS = 200, 80 -- level size in tiles
M.NMOVERS = 500
local NMOVERS = M.NMOVERS

-- The level: tiles as a list of centers, and the movers' free cells
-- (bench/platformer.lua's free_cells).
local function make_level()
  local r = rng(2024)
  local solid, tiles = {}, {}
  local function put(c, row)
    local k = row * COLS + c
    if not solid[k] then
      solid[k] = true
      tiles[#tiles + 1] = { (c + 0.5) * T, (row + 0.5) * T }
    end
  end
  local h = 14 -- the ground: a random walk of 6 to 24 tiles high
  for c = 0, COLS - 1 do
    local u = r()
    if u < 0.25 then h = h - 1 elseif u > 0.75 then h = h + 1 end
    if h < 6 then h = 6 elseif h > 24 then h = 24 end
    for row = ROWS - h, ROWS - 1 do put(c, row) end
  end
  for c = 0, COLS - 1 do put(c, 0) end -- ceiling
  for row = 1, ROWS - 1 do             -- side walls
    put(0, row)
    put(COLS - 1, row)
  end
  for row = 6, ROWS - 26, 5 do -- platforms: runs of 3 to 10, gaps of 3 to 10
    local c = 2 + math.floor(r() * 8)
    while c < COLS - 2 do
      local len = 3 + math.floor(r() * 8)
      for i = 0, len - 1 do
        if c + i < COLS - 1 then put(c + i, row) end
      end
      c = c + len + 3 + math.floor(r() * 8)
    end
  end
  local cells = P.free_cells(function(c, row) return solid[row * COLS + c] end, COLS, ROWS, T, NMOVERS, r)
  return tiles, cells
end

-- The scene: tiles (tables, with their centers) and the movers' state
-- (bench/platformer.lua's), the movers tables too.
function M.make_scene()
  local tiles, cells = make_level()
  local r = rng(31337)
  local sc = { tiles = {}, n = NMOVERS, items = {}, seed = 4711,
               x = {}, y = {}, vx = {}, vy = {}, g = {}, hx = {}, hy = {} }
  for i, t in ipairs(tiles) do sc.tiles[i] = { tile = true, x = t[1], y = t[2] } end
  for i = 1, NMOVERS do
    sc.items[i] = { mover = true, kind = i % 8 == 1 and "player" or "enemy" }
    sc.x[i], sc.y[i] = cells[i][1], cells[i][2]
    sc.hx[i], sc.hy[i] = 5 + r() * 2, 5.5 + r() * 1.5
    sc.vx[i], sc.vy[i], sc.g[i] = (r() - 0.5) * 2 * P.MAX_RUN, 0, false
  end
  return sc
end

function M.fill_centers(w, sc)
  for _, t in ipairs(sc.tiles) do w:add(t, t.x, t.y, T / 2, T / 2) end
  for i = 1, sc.n do w:add(sc.items[i], sc.x[i], sc.y[i], sc.hx[i], sc.hy[i]) end
  return w
end

function M.fill_bump(w, sc)
  for _, t in ipairs(sc.tiles) do w:add(t, t.x - T / 2, t.y - T / 2, T, T) end
  for i = 1, sc.n do
    w:add(sc.items[i], sc.x[i] - sc.hx[i], sc.y[i] - sc.hy[i], 2 * sc.hx[i], 2 * sc.hy[i])
  end
  return w
end

-- A filter of the game's, made anew for each contender.
local load = loadstring or load
local FILTER = [[return function(_, other) if other.mover then return "cross" end return "slide" end]]
local function new_filter() return assert(load(FILTER, "=filter"))() end

-- The contenders, by name: bump.lua (bump.newWorld(), cellSize 64, its
-- default; bump is bump.lua's module), obb.bump (obbbump.newWorld()), and
-- obb's world:move in obb.world2() (world2()), obb.world2{cell = 16}
-- (cells 16) and obb.world2{cell = 0} (tree).
M.NAMES = { "bump.lua", "obb.bump", "world2()", "cells 16", "tree" }

-- Contender name (one of M.NAMES, or "cells N" for cells of N), playing
-- scene sc: { name, kind ("bump": bump's API; "obb":
-- world:move), w (its world, filled), filter, frame (its frame function) }.
function M.contender(name, sc, bump, obbbump)
  local kind, w = "obb", nil
  if name == "bump.lua" then kind, w = "bump", M.fill_bump(bump.newWorld(), sc)
  elseif name == "obb.bump" then kind, w = "bump", M.fill_bump(obbbump.newWorld(), sc)
  elseif name == "world2()" then w = M.fill_centers(obb.world2(), sc)
  elseif name:match("^cells [%d.]+$") then
    w = M.fill_centers(obb.world2({ cell = tonumber(name:match("[%d.]+$")) }), sc)
  elseif name == "tree" then w = M.fill_centers(obb.world2({ cell = 0 }), sc)
  else error("bench/cross_game.lua: no contender " .. tostring(name)) end
  local filter = new_filter()
  return { name = name, kind = kind, w = w, filter = filter,
           frame = kind == "bump" and P.frame_bump(filter) or P.frame_out(filter) }
end

-- Every contender that can play (bump.lua when bump is given), in a list
-- and by name.
function M.contenders(sc, bump, obbbump)
  local cs = {}
  for _, name in ipairs(M.NAMES) do
    if bump or name ~= "bump.lua" then
      cs[#cs + 1] = M.contender(name, sc, bump, obbbump)
      cs[name] = cs[#cs]
    end
  end
  return cs
end

return M
