-- bench/character.lua: the character kit (world:set_character), run by
-- bench/run.lua (`make bench`), printing its rows with require "report".
--
-- A crowd of players (0.5 x 1 boxes) in a world with an up, each frame
-- every one taking a game's step: a random walk, gravity in the air, a
-- jump now and then when it stands, one move, its ground read. Two
-- levels, for two kinds of game:
--   - tiles: a floor of unit tiles with steps (ledges 0.25 high) and
--     ramps of 20 to 40 degrees, the players walking over them;
--   - open: a few long platforms and ramps in open space, most of the
--     players in the air most of the time.
-- Three ways to take the step, each from the same start:
--   - the kit: a character with every option on (snap, step, corner,
--     stop on slope, block on wall), its ground from world:is_on_floor;
--   - the same move with none: world:move, its ground from the normals of
--     out (ny > 0.7) as a game without the kit reads it; target: the kit
--     within 1.5x of it;
--   - by hand, the platformer example's former ground and snap: that
--     move, then, when a player that stood walks off its floor not
--     jumping, a world:check down by the snap length and a world:update
--     onto a floor it meets; target: the kit faster.
-- A row is per move, the median of the runs.
local obb = require "obb"
local report = require "report"
local rng = require "rng"

local QUICK = os.getenv("OBB_BENCH_QUICK") == "1"
local FRAMES = QUICK and 20 or 100
local PLAYERS = 200
local DT, G, SPEED, JUMP, SNAP = 1 / 60, 30, 5, 10, 0.3
local OPTIONS = { snap = SNAP, step = 0.3, corner = 0.1, stop_on_slope = true, block_on_wall = true }

local function slab(w, x0, y0, a, len)
  local c, s = math.cos(a), math.sin(a)
  w:add({}, x0 + len / 2 * c + 0.5 * s, y0 + len / 2 * s - 0.5 * c, len / 2, 0.5, a)
end

local LEVELS = {
  tiles = function(w, r)
    for i = 0, 199 do w:add({}, i + 0.5, -0.5, 0.5, 0.5) end
    for k = 0, 19 do
      local x = k * 10 + 3
      if k % 2 == 0 then w:add({}, x + 1, 0.125, 1, 0.125)    -- a step
      else slab(w, x, 0, (20 + r() * 20) * math.pi / 180, 2) end -- a ramp
    end
  end,
  open = function(w, r)
    for k = 0, 29 do
      local x, y = r() * 200, r() * 30
      if k % 3 == 0 then slab(w, x, y, (r() - 0.5) * 1.2, 8)
      else w:add({}, x, y - 0.25, 4, 0.25) end
    end
    w:add({}, 100, -0.5, 120, 0.5)
  end,
}

-- The level, its players (tables: x, y, vy, ground) from seed.
local function scene(level, kit)
  local r = rng(7)
  local w = obb.world2({ up = { 0, 1 } })
  LEVELS[level](w, r)
  local players = {}
  for i = 1, PLAYERS do
    local p = { x = r() * 190 + 5, y = 2 + (i % 10) * 3, vy = 0, ground = false, walk = 1 }
    w:add(p, p.x, p.y, 0.25, 0.5)
    if kit then w:set_character(p, OPTIONS) end
    players[i] = p
  end
  return w, players, r
end

-- The game's step of one player, before its move: its walk and vy.
local function intent(p, r)
  if r() < 0.02 then p.walk = -p.walk end
  if p.ground then p.vy = r() < 0.01 and JUMP or 0 end
  p.vy = p.vy - G * DT
end

local function run_kit(level)
  local w, players, r = scene(level, true)
  local out = {}
  local function frames(k)
    for _ = 1, k do
      for i = 1, PLAYERS do
        local p = players[i]
        intent(p, r)
        p.x, p.y = w:move(p, p.x + p.walk * SPEED * DT, p.y + p.vy * DT, nil, out)
        p.ground = w:is_on_floor(p)
      end
    end
  end
  return report.time(frames, FRAMES) / PLAYERS
end

-- A player's ground from the normals of out's n records.
local function grounded(out, n)
  for i = 0, n - 1 do
    if out[i * 8 + 5] > 0.7 then return true end
  end
  return false
end

local function run_plain(level, snap)
  local w, players, r = scene(level, false)
  local out, probe = {}, {}
  local function frames(k)
    for _ = 1, k do
      for i = 1, PLAYERS do
        local p = players[i]
        local was = p.ground
        intent(p, r)
        local x, y, n = w:move(p, p.x + p.walk * SPEED * DT, p.y + p.vy * DT, nil, out)
        p.ground = grounded(out, n)
        if snap and was and not p.ground and p.vy <= 0 then -- walked off: snap
          local sx, sy, m = w:check(p, x, y - SNAP, "touch", probe)
          if m > 0 and probe[5] > 0.7 then
            x, y, p.ground = sx, sy, true
            w:update(p, x, y, 0.25, 0.5)
          end
        end
        p.x, p.y = x, y
      end
    end
  end
  return report.time(frames, FRAMES) / PLAYERS
end

local function run()
  report.section(("The character kit: %d players, a move each per frame (%s)")
    :format(PLAYERS, rawget(_G, "jit") and (package.loaded["obb.jit"] or {}).status or "classic"))
  for _, level in ipairs({ "tiles", "open" }) do
    local t_kit = run_kit(level)
    local t_plain = run_plain(level, false)
    local t_hand = run_plain(level, true)
    report.row(("the same move with none, %s"):format(level), t_plain)
    report.row(("by hand: ground from out, snap, %s"):format(level), t_hand)
    report.row(("every option on, %s"):format(level), t_kit, "the same move with none", t_plain)
    report.row(("every option on, %s"):format(level), t_kit, "by hand: ground from out, snap", t_hand)
  end
  report.note("per move; the ratio is the baseline's time over the kit's (above 1: the kit is faster)")
end

run()
