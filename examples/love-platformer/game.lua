-- examples/love-platformer/game.lua: the platformer's rules, and its level
-- read from a Tiled map (examples/maps/platformer.lua), without LÖVE
-- (main.lua draws it; spec/platformer_move_spec.lua runs it on plain Lua).
-- docs/love.md, "The platformer".
--
-- The world is y up (gravity pulls toward -y); main.lua flips it for the
-- screen. One unit is one tile. The player is a box moved each fixed step
-- by world:move: velocity integration, gravity, the velocity clipped
-- (obb.clip) against the normal of every collision the move reports. It
-- is a character (world:set_character): the kit keeps it on the ground
-- (snap: down the ramps without taking off; step: up the step; corner
-- correction: onto the ledge its jump clips; stop on slope; block on
-- wall), and says where it ends: world:is_on_floor (it may jump) and
-- world:floor (what it stands on, and the floor's normal). The level,
-- as the map draws it:
--
--   * a floor of 1x1 tiles, a ledge and a wall of tiles (a tile layer);
--   * two blocks (class "block"): the step, 8 pixels high, which the
--     player walks up without a jump, and the ledge, whose top is 1.2
--     pixels above the top of the player's jump: the kit's corner
--     correction lifts it onto it;
--   * ramps of turned boxes laid end to end: 20 degrees up, 35 down, 35 up
--     (each a turned rectangle of the map, cut into `pieces` boxes here);
--   * a one-way platform (`oneway = true`): solid only when landed on from
--     above (the move's filter answers "slide" for a normal pointing up
--     with depth 0, and ignores it otherwise, so the player jumps up
--     through it);
--   * a spinning bar (`kind = "bar"`, `spin` in radians per second, about
--     its center); standing, the player is too tall to pass under it,
--     crouched (a lower box) it fits;
--   * solids that move on their own (`kind = "mover"`: an elevator, a
--     platform across a gap, a crusher, each along `dx`, `dy` and back,
--     `go` seconds out, `hold` there, `back` seconds back, `rest` there,
--     `phase` seconds ahead)
--     and a see-saw (`kind = "seesaw"`) that leans toward the player
--     standing on it. Each step every solid (the bar too) goes where its
--     motion puts it with world:move_solid, which carries the player
--     standing on it (upright: "stand"), pushes it out of its way, and
--     says when it crushed it (the game then sends the player back to the
--     checkpoint, once reached, else to the start); the player's own move
--     comes after;
--   * coins (`coin = true`), sensors (world:set_sensor): they never block
--     the player, and world:events gives each one's "begin" with the
--     player, however fast it falls through it (or is carried through
--     it); the coin is then removed from the world;
--   * points: the start, a checkpoint and the goal. The checkpoint is a
--     sensor zone of its own: its "begin" with the player makes it where
--     a crushed player goes back to (until then, the start);
--   * a door before the goal (a solid, made here from the goal's place)
--     and a sensor zone around its doorway: the zone's "begin" with the
--     player opens the door (world:update lifts it out of the way), its
--     "end" closes it behind the player.
--
-- game.new([map]) -> g, map the map's table or path (default game.MAP,
-- from the repository's root); game.read_map(path) -> the map's table.
-- g:step(input) advances one step of DT, where input is
-- { left, right, jump, crouch } (booleans; jump is a press, buffered a few
-- steps). g:autoplay(input) fills input from the fixed script (run right
-- up the step, jump at given x, crouch under the bar, wait for the moving solids and
-- ride them). g:check_step() -> nil or why the
-- step broke a rule; g:check_end() -> nil or why the run failed; both
-- only look, they change nothing. game.play(frames) runs the script.
--
-- The events come once a step, after the player's moves (world:events
-- into a table reused). A step makes no garbage: every out table is
-- reused, the filters are made once, and the input table is the caller's.

local obb = require "obb"
local tiled = require "obb.tiled"
local mapdata = require "obb.mapdata"

local M = {}

M.DT = 1 / 60
M.GRAVITY = -30
M.RUN = 6            -- units per second, standing
M.CROUCH_RUN = 3     -- crouched
M.JUMP = 14          -- the jump's initial vertical speed
M.JUMP_BUFFER = 6    -- steps a jump press waits for the ground
M.HX, M.HY = 0.35, 0.75 -- the player's half extents, standing
M.CROUCH_HY = 0.4       -- crouched: a box 0.8 tall, its feet kept in place
M.GROUND_NY = 0.7    -- a normal with ny above this is a floor (45.6 degrees): the world's slope
-- the character kit's options for the player (world:set_character), in
-- units (a tile is 32 pixels):
M.SNAP = 0.3         -- kept on a floor up to this far below (down ramps, off the step)
M.STEP = 0.3         -- steps up ledges this high without jumping (the step is 0.25)
M.CORNER = 0.1       -- nudged past a blocker overlapped by at most this (3.2 pixels)
M.MAP = "examples/maps/platformer.lua" -- the level, from the repository's root
M.CI_FRAMES = 1400   -- what .ci/love.sh and the spec run: 23 s of play
M.TOL = 1e-9         -- "inside a solid": deeper than this

local DT, GRAVITY = M.DT, M.GRAVITY
local HX, HY, CROUCH_HY = M.HX, M.HY, M.CROUCH_HY
local S = obb.MOVE_STRIDE2
local clip, sqrt, abs, sin, cos = obb.clip, math.sqrt, math.abs, math.sin, math.cos

-- ---- the filters: made once, shared by every game ----------------------

-- The kinds that are sensors: every move crosses them without asking its
-- filter, and world:collisions still lists them (what the player is in).
local SENSOR = { coin = true, checkpoint = true, door_zone = true }

-- The player's move: the one-way platform is solid only from above (the
-- player must move up to get away, and did not start inside it),
-- everything else slides (the sensors are never asked about).
local function move_filter(_, other, _, ny, _, depth)
  local kind = other.kind
  if kind == "oneway" then
    if ny > M.GROUND_NY and depth == 0 then return "slide" end
    return false
  end
  return "slide"
end

-- The headroom to stand up (world:check: nothing in the character kit
-- asks it): stop at the first solid.
local function touch_filter(_, other, _, ny, _, depth)
  local kind = other.kind
  if kind == "oneway" then
    if ny > M.GROUND_NY and depth == 0 then return "touch" end
    return false
  end
  return "touch"
end

-- The moving solids' responses, by class: the player (class PLAYER) stands
-- on them upright and is pushed by them; everything else (tiles, ramps,
-- the one-way platform, coins, the other solids) is let through: a solid
-- goes where its motion puts it. Read in C, no Lua call per other.
local PLAYER = 1
M.PLAYER = PLAYER
local solid_set = obb.responses({ default = false, [PLAYER] = "stand" })

-- The player's options of the character kit (world:set_character).
M.OPTIONS = { snap = M.SNAP, step = M.STEP, corner = M.CORNER, stop_on_slope = true, block_on_wall = true }

-- ---- the level: examples/maps/platformer.lua -------------------------

local Game = {}
Game.__index = Game

local function add(g, e)
  g.solids[#g.solids + 1] = e
  g.world:add(e, e.box)
  return e
end

-- The map's table: the map itself, or read from a path as data (a map
-- never runs: obb.mapdata reads the Lua export's table syntax), with io
-- (inside LÖVE too: love.filesystem sees only the game's own folder).
function M.read_map(map)
  if type(map) == "table" then return map end
  local path = map or M.MAP
  local f, err = io.open(path, "rb")
  if not f then error("platformer: cannot read the map: " .. tostring(err), 2) end
  local text = f:read("*a")
  f:close()
  return mapdata.lua_table(text, { source = path })
end

-- The movers the level must have, by their names on the map, in the order
-- they move each step.
local MOVERS = { elevator = 1, platform = 2, crusher = 3 }
-- The blocks (static rectangles of class "block") it must have, by name:
-- the step the player walks up, the ledge its jump clips.
local BLOCKS = { step = true, ledge = true }

-- What the game makes of an item of obb.tiled: a tile of the tile layer,
-- else by the object's properties or its class (type).
local function kind_of(item)
  if item.col then return "tile" end
  local p = item.properties
  if p.kind then return p.kind end
  if p.coin then return "coin" end
  if p.oneway then return "oneway" end
  return item.type
end

-- A ramp: one turned rectangle of the map whose long side is the slope,
-- cut here into n boxes laid end to end along that side (their seams are
-- what world:move must slide over). The slope's angle, from the rotation
-- of the long side, keys the stats (20 or 35).
local function ramp(g, item, cx, cy, hx, hy, a)
  local n = item.properties.pieces or 1
  local long0 = hx >= hy -- the long side along axis 0 (else axis 1)
  local c, s = cos(a), sin(a)
  local ux, uy, h = c, s, hx
  if not long0 then ux, uy, h = -s, c, hy end
  local r = item.rotation + (long0 and 0 or 90)
  local deg = abs((r + 90) % 180 - 90)
  for k = 0, n - 1 do
    local d = (2 * k + 1 - n) / n * h -- piece k's center along the side
    local phx, phy = h / n, hy
    if not long0 then phx, phy = hx, h / n end
    add(g, { kind = "ramp", deg = deg, box = obb.new2(cx + d * ux, cy + d * uy, phx, phy, a) })
  end
end

-- Builds the level from the map. obb.tiled loads it as Tiled draws it
-- (pixels, y down, rectangles turned about their top-left corners) into a
-- world of its own; each box is then turned into game units, one unit a
-- tile, y flipped (the map's properties origin_x, origin_y: the game's
-- coordinates of its bottom-left corner):
--   x = origin_x + px / tile,  y = origin_y + height - py / tile,
--   half extents / tile,       angle = -angle (a turn's sense flips with y).
local function load_level(g, map)
  local t, props = map.tilewidth, map.properties or {}
  if map.tileheight ~= t then error("platformer: the map's tiles must be square", 3) end
  local ox, oy = props.origin_x or 0, (props.origin_y or 0) + map.height
  g.bounds = { x = ox, y = oy - map.height, w = map.width, h = map.height }
  -- the map's points (start, checkpoint, goal) come in their own list,
  -- not as boxes: a point is a place, not a solid
  local px, items, _, map_points = tiled.load(map, { strict = true })
  local points = {}
  for _, point in ipairs(map_points) do
    local kind = point.name
    if (kind == "start" or kind == "checkpoint" or kind == "goal") and not points[kind] then
      points[kind] = { x = ox + point.cx / t, y = oy - point.cy / t }
    else
      error(("platformer: map point %s (%q) is no point the game knows, or one too many")
        :format(tostring(point.id), tostring(kind)), 3)
    end
  end
  for _, item in ipairs(items) do
    local cx, cy, hx, hy, a = px:get(item)
    cx, cy, hx, hy, a = ox + cx / t, oy - cy / t, hx / t, hy / t, a == 0 and 0 or -a
    local kind = kind_of(item)
    if kind == "tile" then
      add(g, { kind = "tile", box = obb.new2(cx, cy, hx, hy) })
    elseif kind == "ramp" then
      ramp(g, item, cx, cy, hx, hy, a)
    elseif kind == "block" and BLOCKS[item.name] and not g.blocks[item.name] then
      g.blocks[item.name] = add(g, { kind = "block", name = item.name, top = cy + hy,
                                     box = obb.new2(cx, cy, hx, hy, a) })
    elseif kind == "oneway" and not g.oneway then
      g.oneway = add(g, { kind = "oneway", top = cy + hy, box = obb.new2(cx, cy, hx, hy, a) })
    elseif kind == "bar" and not g.bar then
      g.bar = add(g, { kind = "bar", x = cx, y = cy, hx = hx, hy = hy, angle = a,
                       spin = item.properties.spin or 0, box = obb.new2(cx, cy, hx, hy, a) })
    elseif kind == "mover" and MOVERS[item.name] and not g[item.name] then
      local p = item.properties
      local m = add(g, { kind = "mover", name = item.name, x0 = cx, y0 = cy, dx = p.dx or 0, dy = p.dy or 0,
                         go = p.go, hold = p.hold or 0, back = p.back or p.go, rest = p.rest or 0,
                         phase = p.phase or 0,
                         box = obb.new2(cx, cy, hx, hy) })
      g[item.name] = m
      g.movers[#g.movers + 1] = m
    elseif kind == "seesaw" and not g.seesaw then
      local p = item.properties
      g.seesaw = add(g, { kind = "seesaw", x = cx, y = cy, angle = 0, tilt = p.tilt, rate = p.rate, lean = p.lean,
                          box = obb.new2(cx, cy, hx, hy) })
    elseif kind == "coin" then
      local coin = { kind = "coin", taken = false, box = obb.new2(cx, cy, hx, hy, a) }
      g.coins[#g.coins + 1] = coin
      g.world:add(coin, coin.box)
      g.world:set_sensor(coin)
    else
      error(("platformer: map object %s (%q): %q is no kind the game knows, or one too many")
        :format(tostring(item.id), tostring(item.name), tostring(kind)), 3)
    end
  end
  px:close()
  for _, need in ipairs { "start", "checkpoint", "goal" } do
    if not points[need] then error("platformer: the map has no point named " .. need, 3) end
  end
  if not (g.bar and g.oneway) then error("platformer: the map needs a bar and a one-way platform", 3) end
  for name in pairs(MOVERS) do
    if not g[name] then error("platformer: the map has no mover named " .. name, 3) end
  end
  if not g.seesaw then error("platformer: the map needs a see-saw", 3) end
  for name in pairs(BLOCKS) do
    if not g.blocks[name] then error("platformer: the map has no block named " .. name, 3) end
  end
  -- the movers in a fixed order (the map's, not pairs')
  table.sort(g.movers, function(a, b) return MOVERS[a.name] < MOVERS[b.name] end)
  g.start, g.checkpoint, g.goal = points.start, points.checkpoint, points.goal
end

-- The zones (sensors) and the door, from the map's points: the checkpoint
-- zone 1 wide and 3 tall over the checkpoint; the door a solid 0.3 wide
-- and 3 tall on the ledge 0.8 before the goal; its zone from 4 before the
-- goal to the goal, over the doorway and the ramp up to it (a player in
-- the doorway is always in the zone: the door never closes on it).
M.DOOR_LIFT = 6 -- how far the open door is lifted
local function zones(g)
  local cp, goal, world = g.checkpoint, g.goal, g.world
  g.zones = {}
  local function zone(kind, cx, cy, hx, hy)
    local z = { kind = kind, box = obb.new2(cx, cy, hx, hy) }
    g.zones[#g.zones + 1] = z
    world:add(z, z.box)
    world:set_sensor(z)
    return z
  end
  g.checkpoint_zone = zone("checkpoint", cp.x, cp.y + 1.5, 0.5, 1.5)
  local door = { kind = "door", x = goal.x - 0.8, y = goal.y + 1.5, open = false }
  door.box = obb.new2(door.x, door.y, 0.15, 1.5)
  g.door = add(g, door)
  g.door_zone = zone("door_zone", goal.x - 2, goal.y + 1.5, 2, 2.5)
end

local function scratch(n)
  local t = {}
  for i = 1, n do t[i] = false end
  return t
end

local default_map -- game.MAP, read once

function M.new(map)
  local g = setmetatable({}, Game)
  if map == nil then
    default_map = default_map or M.read_map(M.MAP)
    map = default_map
  end
  -- y up: what rests on a face whose normal is within 45.6 degrees of up
  -- (the player's GROUND_NY) rides a moving solid
  g.world = obb.world2({ up = { 0, 1 }, slope = math.acos(M.GROUND_NY) })
  g.solids, g.coins, g.movers, g.blocks = {}, {}, {}, {}
  load_level(g, M.read_map(map))
  zones(g)
  g.coins_left = #g.coins
  g.respawn = g.start -- where the bar sends a crushed player: the checkpoint once reached

  -- the player: a table as the world's item, its box copied into p.box
  local sx, sy = g.start.x, g.start.y + HY -- the start point is at the feet
  local p = { kind = "player", x = sx, y = sy, vx = 0, vy = 0, hy = HY, box = obb.new2(sx, sy, HX, HY) }
  g.player = p
  g.world:add(p, p.box)
  g.world:set_class(p, PLAYER)
  -- a character: the kit keeps it on the ground (snap: down the ramps
  -- without taking off; step: up the step without a jump; corner: onto a
  -- ledge its jump clips; stop_on_slope: it stands still on a ramp;
  -- block_on_wall: never up a face steeper than a floor)
  g.world:set_character(p, M.OPTIONS)
  p.grounded, p.gnx, p.gny, p.ground = false, 0, 0, nil
  p.crouched, p.jump_buffer, p.jump_held = false, 0, false

  -- the out tables, reused every step, grown once here (a table keeps its
  -- size when world:move sets its stale tail to nil)
  g.out, g.check_out, g.col_out = scratch(32 * S), scratch(32 * S), scratch(32 * 3)
  g.solid_out = scratch(8 * obb.SOLID2.stride)
  g.ev = scratch(16 * 4) -- world:events: sensor, other, "begin" or "end", t
  g.frame, g.n = 0, 0
  -- what the checks look at: the step's start and what happened in it
  g.x0, g.feet0, g.grounded0, g.flat0 = p.x, 0, false, false
  g.snapped, g.sloped, g.stood_up = false, false, false
  -- what the moving solids did to the player this step: the one it stood
  -- on (carried), the one that pushed it, the one that crushed it
  g.carried, g.pushed_by, g.crushed_by, g.bar_hit = false, false, false, false
  -- stood: the first frame the player stood on each kind of ground (ramps
  -- by their angle); every key made here, so that a step adds none
  g.stats = { flat_steps = 0, coins = 0, goal_frame = false, bar_hits = 0, crouched_under_bar = 0,
              crushed = 0, tilted = 0, passed_crusher = false,
              checkpoint_frame = false, door_opened = false, door_closed = false,
              -- the character kit at work: the first frame the player
              -- stepped up the step (no jump), the first it got onto the
              -- ledge its jump clipped (corner correction) and by how much
              -- its feet were below the ledge's top when they met it; the
              -- steps that walked down a ramp on the floor, and those that
              -- began on a ramp and left the floor without a jump
              stepped = false, cornered = false, corner_clip = false, downhill = 0, ramp_takeoffs = 0,
              stood = { tile = false, oneway = false, bar = false, [20] = false, [35] = false,
                        mover = false, elevator = false, platform = false, crusher = false, seesaw = false,
                        step = false, ledge = false } }
  g.script = { next_jump = 1 }
  return g
end

-- ---- one step -------------------------------------------------------------

local function solid_for_check(other) return not SENSOR[other.kind] end

-- Sets the player's box in the world from p.x, p.y, p.hy.
local function commit(g, p)
  g.world:update(p, p.x, p.y, HX, p.hy)
end

-- Where mover m's motion puts it at time t (seconds; phase seconds
-- ahead): out by (dx, dy) in go seconds, hold there, back in back
-- seconds, rest at the start; and which of the four it is in, and for
-- how long more.
local function path(m, t)
  local u = (t + m.phase) % (m.go + m.hold + m.back + m.rest)
  local f, state, left
  if u < m.go then f, state, left = u / m.go, "go", m.go - u
  elseif u < m.go + m.hold then f, state, left = 1, "hold", m.go + m.hold - u
  elseif u < m.go + m.hold + m.back then
    f, state, left = 1 - (u - m.go - m.hold) / m.back, "back", m.go + m.hold + m.back - u
  else f, state, left = 0, "rest", m.go + m.hold + m.back + m.rest - u end
  return m.x0 + f * m.dx, m.y0 + f * m.dy, state, left
end
M.path = path

-- Moves solid e to (x, y) (turned to angle, when given) with
-- world:move_solid: the player standing on it is carried upright, pushed
-- out of its way when it goes into it, and reported crushed when it could
-- not get out (pinned against something). Its records tell the step what
-- happened to the player.
local SOLID = obb.SOLID2

local function move_solid(g, e, x, y, angle)
  local world, p, out = g.world, g.player, g.solid_out
  local n
  if angle then n = world:move_solid(e, x, y, angle, solid_set, out, move_filter)
  else n = world:move_solid(e, x, y, solid_set, out, move_filter) end
  for i = 0, n - 1 do
    local k = i * SOLID.stride
    if out[k + SOLID.other] == p then
      local what = out[k + SOLID.what]
      if what == "stand" then g.carried = e
      elseif what == "push" then g.pushed_by = e
      elseif what == "crush" then g.crushed_by = e end
    end
  end
  world:get(e, e.box)
end

-- The see-saw leans toward the player standing on it (lean radians per
-- unit from its middle, at most tilt), turning at most rate radians a
-- second, and levels again when no one is on it.
local function seesaw_angle(g)
  local s, p = g.seesaw, g.player
  local want = 0
  if p.ground == s then want = math.max(-s.tilt, math.min(s.tilt, s.lean * (s.x - p.x))) end
  local step = s.rate * DT
  if want > s.angle + step then return s.angle + step end
  if want < s.angle - step then return s.angle - step end
  return want
end

function Game:step(input)
  local world, p, out = self.world, self.player, self.out
  self.frame = self.frame + 1
  self.x0, self.feet0 = p.x, p.y - p.hy
  self.grounded0, self.flat0 = p.grounded, p.grounded and p.gnx == 0
  self.snapped, self.sloped, self.stood_up = false, false, false

  -- the solids move first, each to where its motion puts it at this
  -- step's time: the bar turns, the movers go along their paths, the
  -- see-saw leans; each carries, pushes or crushes the player
  self.carried, self.pushed_by, self.crushed_by = false, false, false
  local t = self.frame * DT
  local bar = self.bar
  bar.angle = bar.angle + bar.spin * DT
  move_solid(self, bar, bar.x, bar.y, bar.angle)
  local movers = self.movers
  for i = 1, #movers do
    local m = movers[i]
    local x, y = path(m, t)
    move_solid(self, m, x, y)
  end
  local saw = self.seesaw
  local angle = seesaw_angle(self)
  local turned = angle ~= saw.angle
  saw.angle = angle
  move_solid(self, saw, saw.x, saw.y, angle)
  if turned and self.carried == saw then self.stats.tilted = self.stats.tilted + 1 end
  local st = self.stats
  self.bar_hit = self.pushed_by == bar or self.crushed_by == bar or self.carried == bar
  if self.bar_hit then st.bar_hits = st.bar_hits + 1 end
  p.x, p.y = world:get(p)
  if self.crushed_by then
    -- crushed (between a solid and the floor, a ceiling, a wall): the
    -- game's answer, back to the checkpoint (once reached, else the start)
    st.crushed = st.crushed + 1
    p.x, p.y, p.vy = self.respawn.x, self.respawn.y + p.hy, 0
    commit(self, p)
  end

  -- crouch: a lower box, feet in place; stand up only with headroom (the
  -- crouched box swept up by the difference covers the standing box)
  if input.crouch and not p.crouched then
    p.crouched, p.hy, p.y = true, CROUCH_HY, p.y - (HY - CROUCH_HY)
    commit(self, p)
  elseif not input.crouch and p.crouched then
    local gy = p.y + (HY - CROUCH_HY)
    local _, ay = world:check(p, p.x, gy, touch_filter, self.check_out)
    if ay == gy then
      p.crouched, p.hy, p.y = false, HY, gy
      commit(self, p)
      self.stood_up = true
    end
  end

  -- velocity: the input sets vx, gravity and jumps vy
  local speed = p.crouched and M.CROUCH_RUN or M.RUN
  local vx = 0
  if input.right then vx = vx + speed end
  if input.left then vx = vx - speed end
  local vy = p.vy
  if input.jump and not p.jump_held then p.jump_buffer = M.JUMP_BUFFER end
  p.jump_held = input.jump
  local jumped = false
  if p.jump_buffer > 0 then
    p.jump_buffer = p.jump_buffer - 1
    if p.grounded and not p.crouched then vy, jumped, p.jump_buffer = M.JUMP, true, 0 end
  end
  vy = vy + GRAVITY * DT

  -- the move (the character kit keeps the player on the ground: snap,
  -- step, corner, stop on slope, block on wall); then the collisions it
  -- met, in time order, each taking out of the velocity what goes into it
  local gx, gy = p.x + vx * DT, p.y + vy * DT
  local feet1, ground1, on_floor1 = p.y - p.hy, p.ground, p.grounded -- (after the solids moved it)
  local ax, ay, n = world:move(p, gx, gy, move_filter, out)
  self.n = n -- (main.lua draws out's records)
  local ledge, ledge_met = self.blocks.ledge, false
  for i = 0, n - 1 do
    local k = i * S
    local other, response = out[k + 1], out[k + 2]
    local nx, ny = out[k + 4], out[k + 5]
    if response ~= "cross" then -- (a sensor: the events below tell)
      vx, vy = clip(vx, vy, nx, ny)
      if nx ~= 0 then self.sloped = true end -- met a wall, a ramp or a corner
      -- the ledge's side met: where the feet were then (the record's y)
      if other == ledge and nx < -0.99 then ledge_met = out[k + 7] - p.hy end
    end
  end
  -- only the kit's snap ends a move below its goal (onto a floor under it)
  self.snapped = ay < gy

  -- where it ends, by the kit: on a floor (the world's up and slope), what
  -- that floor is and its normal (the move's filter: the one-way platform
  -- only from above)
  local grounded, gnx, gny, ground = world:is_on_floor(p), 0, 0, nil
  if grounded then
    ground, gnx, gny = world:floor(p)
    -- on the ground the velocity goes along it (snapped onto a ramp, the
    -- move met nothing), and may not point up (no launch at a ramp's top)
    vx, vy = clip(vx, vy, gnx, gny)
    if vy > 0 then vy = 0 end
  end

  p.x, p.y, p.vx, p.vy = ax, ay, vx, vy
  p.grounded, p.gnx, p.gny, p.ground = grounded, gnx, gny, ground
  world:get(p, p.box)

  -- what the kit did: up the step from the floor in one step, no jump;
  -- onto the ledge after meeting its side below its top (only corner
  -- correction lifts it there: the jump's top is below the ledge's);
  -- down a ramp on the floor, or off one without a jump
  local feet = ay - p.hy
  if not st.stepped and on_floor1 and not jumped and ground == self.blocks.step and feet > feet1 then
    st.stepped = self.frame
  end
  if not st.cornered and ledge_met and ledge_met < ledge.top and feet >= ledge.top - M.TOL then
    st.cornered, st.corner_clip = self.frame, ledge.top - ledge_met
  end
  if grounded and ground.kind == "ramp" and feet < feet1 then st.downhill = st.downhill + 1 end
  if on_floor1 and ground1 and ground1.kind == "ramp" and not grounded and not jumped then
    st.ramp_takeoffs = st.ramp_takeoffs + 1
  end

  if ground then
    if ground.kind == "ramp" then st.stood[ground.deg] = st.stood[ground.deg] or self.frame
    elseif ground.kind == "mover" or ground.kind == "block" then
      st.stood[ground.name] = st.stood[ground.name] or self.frame
    else st.stood[ground.kind] = st.stood[ground.kind] or self.frame end
  end
  local crusher = self.crusher
  if not st.passed_crusher and p.x - HX > crusher.x0 + crusher.box:half_extents() then
    st.passed_crusher = self.frame
  end
  if p.crouched and abs(p.x - bar.x) < bar.hx + HX then
    st.crouched_under_bar = st.crouched_under_bar + 1
  end
  if not st.goal_frame and p.x >= self.goal.x then st.goal_frame = self.frame end
  self:events()
end

-- The door to y (its place, or lifted out of the way).
local function set_door(g, open)
  local door = g.door
  door.open = open
  door.box:set_center(door.x, door.y + (open and M.DOOR_LIFT or 0))
  g.world:update(door, door.box)
end

-- The step's events: what began or ended overlapping a sensor since the
-- last step (the moves' own, in the order met, however fast; the rest by
-- where things are now). Only the player's count here: the zones overlap
-- tiles and the door too, which begin when the level is made.
function Game:events()
  local world, ev, p, st = self.world, self.ev, self.player, self.stats
  for i = 0, world:events(ev) - 1 do
    local sensor, other, kind = ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3]
    if other == p then
      local what = sensor.kind
      if what == "coin" then
        if kind == "begin" and not sensor.taken then
          -- removed while its own event is handled: its "end" comes next step
          sensor.taken = true
          world:remove(sensor)
          self.coins_left = self.coins_left - 1
          st.coins = st.coins + 1
        end
      elseif what == "checkpoint" then
        if kind == "begin" then
          self.respawn = self.checkpoint
          st.checkpoint_frame = st.checkpoint_frame or self.frame
        end
      elseif what == "door_zone" then
        set_door(self, kind == "begin")
        if kind == "begin" then st.door_opened = st.door_opened or self.frame
        elseif st.door_opened then st.door_closed = st.door_closed or self.frame end
      end
    end
  end
end

-- ---- the script --------------------------------------------------------

M.SCRIPT = {
  -- x where the player jumps: onto the ledge (its feet 1.2 pixels below
  -- the ledge's top when they meet its side, at the top of the jump), onto
  -- the one-way platform, over the wall
  jumps = { 6.8, 31.5, 49.0 },
  crouch = { 41.0, 48.0 },    -- crouched from .. to: under the bar
  -- where the player waits for a moving solid: on the ledge until the
  -- elevator is down, on it until it is up; before the crusher until it
  -- is up; at the cliff's end until the platform is there, on it until
  -- it is across
  elevator = { 64.6, 66.8 },
  crusher = 69.6,
  platform = { 75.4, 77.3 },
}

-- The state mover m is in at the next step's time, and for how long more.
local function state(g, m)
  local _, _, st, left = path(m, (g.frame + 1) * DT)
  return st, left
end

-- Fills input for this step: run right until past the goal, jump when x
-- first reaches each jump position, crouch under the bar, wait for the
-- moving solids and ride them.
function Game:autoplay(input)
  local p, sc = self.player, self.script
  local x = p.x
  input.left = false
  input.right = x < self.goal.x + 0.5
  input.crouch = x >= M.SCRIPT.crouch[1] and x < M.SCRIPT.crouch[2]
  local j = M.SCRIPT.jumps[sc.next_jump]
  input.jump = false
  if j and x >= j then
    input.jump = true
    sc.next_jump = sc.next_jump + 1
  end
  local e, pl, w = self.elevator, self.platform, M.SCRIPT
  if p.ground == e then
    if x >= w.elevator[2] and state(self, e) ~= "hold" then input.right = false end
  elseif x >= w.elevator[1] and x < w.elevator[2] then
    local st, left = state(self, e)
    if not (st == "rest" and left > 0.5) then input.right = false end
  elseif x >= w.crusher and x < w.crusher + 0.5 then
    local st, left = state(self, self.crusher)
    if not (st == "rest" and left > 0.75) then input.right = false end
  elseif p.ground == pl then
    if x >= w.platform[2] and state(self, pl) ~= "hold" then input.right = false end
  elseif x >= w.platform[1] and x < w.platform[2] then
    local st, left = state(self, pl)
    if not (st == "rest" and left > 0.5) then input.right = false end
  end
  return input
end

-- ---- the checks ------------------------------------------------------------

-- nil, or why the last step broke a rule:
--   * the player ends no step inside a solid (a coin is not solid, nor the
--     one-way platform while the player passes it from below);
--   * no snag at the seams: a step that starts and ends on flat ground,
--     met nothing but floors (every normal (0, 1)) and did not snap or
--     stand up, advances x by exactly vx * DT and keeps the feet's height
--     (both up to 1e-12 relative: where a ramp's top meets a ledge, the
--     two are level only up to the rounding of the ramp's sine);
--   * the bar never hit the player (the script ducks), no solid crushed
--     it, and it did not fall out of the level.
function Game:check_step()
  local p, out = self.player, self.col_out
  if self.crushed_by then
    return ("frame %d: the %s crushed the player at x = %.4f"):format(self.frame,
      self.crushed_by.name or self.crushed_by.kind, self.x0)
  end
  local n = self.world:collisions(p, out, solid_for_check)
  for i = 0, n - 1 do
    local other, dx, dy = out[3 * i + 1], out[3 * i + 2], out[3 * i + 3]
    local depth = sqrt(dx * dx + dy * dy)
    local from_below = other.kind == "oneway" and self.feet0 < other.top - M.TOL
    if depth > M.TOL and not from_below then
      return ("frame %d: the player ends inside a %s by %.3g at (%.4f, %.4f)")
        :format(self.frame, other.kind, depth, p.x, p.y)
    end
  end
  if self.flat0 and p.grounded and not self.sloped and not self.snapped
      and not self.stood_up and not self.carried and not self.pushed_by then
    local want = p.vx * DT
    local got = p.x - self.x0
    if abs(got - want) > 1e-12 * (abs(p.x) + 1) then
      return ("frame %d: snag on flat ground at x = %.4f: advanced %.17g, wanted %.17g")
        :format(self.frame, self.x0, got, want)
    end
    if abs(p.y - p.hy - self.feet0) > 1e-12 * (abs(self.feet0) + 1) then
      return ("frame %d: the feet moved from %.17g to %.17g on flat ground at x = %.4f")
        :format(self.frame, self.feet0, p.y - p.hy, p.x)
    end
    if want ~= 0 then self.stats.flat_steps = self.stats.flat_steps + 1 end
  end
  if self.bar_hit then
    return ("frame %d: the bar hit the player at x = %.4f"):format(self.frame, self.x0)
  end
  if p.y < -5 then return ("frame %d: the player fell out of the level"):format(self.frame) end
  return nil
end

-- nil, or why the whole run failed: the goal, every coin, the checkpoint,
-- the door opened before the player and closed behind it, the step walked
-- up, the ledge reached by corner correction, down a ramp on the floor
-- and never off one without a jump (snap), both ramp angles, a landing
-- on the one-way platform, the duck under the bar, a ride on the
-- elevator, on the platform and on the see-saw as it turned, past the
-- crusher, and enough flat steps checked for seams.
function Game:check_end()
  local st = self.stats
  if not st.goal_frame then
    return ("the player did not reach the goal (x = %.2f after %d frames)"):format(self.player.x, self.frame)
  end
  if st.coins ~= #self.coins then
    return ("collected %d of %d coins"):format(st.coins, #self.coins)
  end
  if not st.checkpoint_frame then return "the checkpoint's zone never saw the player" end
  if not (st.door_opened and st.door_closed and st.door_closed > st.door_opened) then
    return "the door did not open before the player and close behind it"
  end
  if not st.stood[20] then return "the player never stood on the 20 degree ramp" end
  if not st.stood[35] then return "the player never stood on a 35 degree ramp" end
  if not st.stood.oneway then return "the player never landed on the one-way platform" end
  if st.crouched_under_bar == 0 then return "the player never ducked under the bar" end
  if not st.stood.elevator then return "the player never rode the elevator" end
  if not st.stood.platform then return "the player never rode the platform" end
  if not st.passed_crusher then return "the player never got past the crusher" end
  if st.tilted == 0 then return "the player never rode the see-saw as it turned" end
  if not st.stepped then return "the player never walked up the step" end
  if not st.cornered then
    return "the player never got onto the ledge its jump clips (corner correction)"
  end
  if st.downhill == 0 then return "the player never walked down a ramp on the floor" end
  if st.ramp_takeoffs > 0 then
    return ("the player left a ramp's floor %d times without a jump"):format(st.ramp_takeoffs)
  end
  if st.flat_steps < 200 then return ("only %d flat steps were checked for snags"):format(st.flat_steps) end
  return nil
end

-- Runs the script for frames steps with the checks: true, or false and why.
function M.play(frames)
  local g, input = M.new(), {}
  for _ = 1, frames do
    g:step(g:autoplay(input))
    local why = g:check_step()
    if why then return false, why, g end
  end
  local why = g:check_end()
  if why then return false, why, g end
  return true, nil, g
end

return M
