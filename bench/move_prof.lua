-- The turned platformer scene of bench/move.lua, approximately, for
-- profiling one w:move (issue 29): tiles on a grid, 1,000 movers dropped in
-- free cells, a random walk under gravity, w:move each frame.
--
--   lua5.4 bench/move_prof.lua [frames [cell [aa]]]
--
-- cell: 0 (the default) for the tree alone (obb.world2{cell = 0}), auto
-- for the world that chooses (obb.world2()), else the cell size of a
-- cell-mode world (obb.world2{cell = cell}); aa: tiles and movers unturned.
-- Instructions per move, with callgrind (docs/performance.md):
--
--   LUA_CPATH="./build/lua5.4/?.so" valgrind --tool=callgrind \
--     --toggle-collect=lobb_world_move lua5.4 bench/move_prof.lua 30 16
--   callgrind_annotate --inclusive=yes callgrind.out.<pid>
--
-- The last line printed is a digest of where the movers end, equal in
-- both modes.
local obb = require "obb"
local FRAMES = tonumber(arg[1] or 30)
local CELL = arg[2] == "auto" and "auto" or tonumber(arg[2] or 0)
local TURNED = arg[3] ~= "aa"
local seed = 12345
local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
local w = CELL == "auto" and obb.world2() or obb.world2({ cell = CELL })
local W, H = 120, 60
local solid = {}
local n = 0
for cy = 0, H - 1 do for cx = 0, W - 1 do
  local edge = cx == 0 or cy == 0 or cx == W - 1 or cy == H - 1
  if edge or (cy % 8 == 0 and rnd() < 0.35) or rnd() < 0.03 then
    solid[cy * W + cx] = true
    n = n + 1
    w:add("t" .. n, cx * 16 + 8, cy * 16 + 8, 8, 8, TURNED and rnd() * math.pi or 0)
  end
end end
local movers = {}
for i = 1, 1000 do
  local cx, cy -- placed by rnd, not math.random: the same scene every run
  repeat cx, cy = 1 + math.floor(rnd() * (W - 2)), 1 + math.floor(rnd() * (H - 2))
  until not solid[cy * W + cx]
  solid[cy * W + cx] = true
  local m = { x = cx * 16 + 8, y = cy * 16 + 8, vx = 0, vy = 0 }
  w:add(m, m.x, m.y, 6, 6.5, TURNED and rnd() * math.pi or 0)
  movers[i] = m
end
local out = {}
for _ = 1, FRAMES do
  for i = 1, #movers do
    local m = movers[i]
    m.vx = m.vx * 0.9 + (rnd() - 0.5) * 40
    m.vy = m.vy + 10
    if m.vy > 200 then m.vy = 200 end
    local ax, ay, k = w:move(m, m.x + m.vx / 30, m.y + m.vy / 30, nil, out)
    if k > 0 and ay < m.y + m.vy / 30 then m.vy = 0; if rnd() < 0.05 then m.vy = -200 end end
    m.x, m.y = ax, ay
  end
end
local sx, sy = 0, 0
for i = 1, #movers do sx, sy = sx + movers[i].x * i, sy + movers[i].y * i end
print("tiles", n, "moves", FRAMES * #movers)
print(string.format("digest %.17g %.17g", sx, sy))
