-- examples/love-platformer/game.lua: the platformer's level and rules,
-- without LÖVE (main.lua draws it; spec/platformer_move_spec.lua runs it on
-- plain Lua). docs/love.md, "The platformer".
--
-- The world is y up (gravity pulls toward -y); main.lua flips it for the
-- screen. One unit is one tile. The player is a box moved each fixed step
-- by world:move: velocity integration, gravity, the velocity clipped
-- (obb.clip) against the normal of every collision the move reports, and
-- grounded when one of those normals points mostly up. The level:
--
--   * a floor of 1x1 tiles, a ledge and a wall of tiles;
--   * ramps of turned boxes laid end to end: 20 degrees up, 35 down, 35 up;
--   * a one-way platform: solid only when landed on from above (the move's
--     filter answers "slide" for a normal pointing up with depth 0, and
--     ignores it otherwise, so the player jumps up through it);
--   * a spinning bar, turned each step with world:update; standing, the
--     player is too tall to pass under it, crouched (a lower box) it fits;
--   * coins the player crosses ("cross"), removed from the world once met.
--
-- game.new() -> g; g:step(input) advances one step of DT, where input is
-- { left, right, jump, crouch } (booleans; jump is a press, buffered a few
-- steps). g:autoplay(input) fills input from the fixed script (run right,
-- jump at given x, crouch under the bar). g:check_step() -> nil or why the
-- step broke a rule; g:check_end() -> nil or why the run failed; both
-- only look, they change nothing. game.play(frames) runs the script.
--
-- A step makes no garbage: every out table is reused, the filters are made
-- once, and the input table is the caller's.

local obb = require "obb"

local M = {}

M.DT = 1 / 60
M.GRAVITY = -30
M.RUN = 6            -- units per second, standing
M.CROUCH_RUN = 3     -- crouched
M.JUMP = 14          -- the jump's initial vertical speed
M.JUMP_BUFFER = 6    -- steps a jump press waits for the ground
M.HX, M.HY = 0.35, 0.75 -- the player's half extents, standing
M.CROUCH_HY = 0.4       -- crouched: a box 0.8 tall, its feet kept in place
M.SNAP = 0.12        -- how far down a running player is kept on the ground
M.GROUND_NY = 0.7    -- a normal with ny above this is ground (45.6 degrees)
M.GOAL_X = 59
M.CHECKPOINT_X = 40  -- where the bar sends a player it crushed
M.CI_FRAMES = 900    -- what .ci/love.sh and the spec run: 15 s of play
M.TOL = 1e-9         -- "inside a solid": deeper than this

local DT, GRAVITY = M.DT, M.GRAVITY
local HX, HY, CROUCH_HY = M.HX, M.HY, M.CROUCH_HY
local S = obb.MOVE_STRIDE2
local clip, sqrt, abs, rad, sin, cos, tan = obb.clip, math.sqrt, math.abs, math.rad, math.sin, math.cos, math.tan

-- ---- the filters: made once, shared by every game ----------------------

-- The player's move: coins are crossed, the one-way platform is solid only
-- from above (the player must move up to get away, and did not start
-- inside it), everything else slides.
local function move_filter(_, other, _, ny, _, depth)
  local kind = other.kind
  if kind == "coin" then return "cross" end
  if kind == "oneway" then
    if ny > M.GROUND_NY and depth == 0 then return "slide" end
    return false
  end
  return "slide"
end

-- Keeping a running player on a slope going down, and the headroom to
-- stand up: stop at the first solid, pass through coins.
local function touch_filter(_, other, _, ny, _, depth)
  local kind = other.kind
  if kind == "coin" then return false end
  if kind == "oneway" then
    if ny > M.GROUND_NY and depth == 0 then return "touch" end
    return false
  end
  return "touch"
end

-- What world:push may push the player out of: what the bar turned into.
local function push_filter(_, other)
  if other.kind == "coin" or other.kind == "oneway" then return false end
  return "slide"
end

-- ---- the level ----------------------------------------------------------

local Game = {}
Game.__index = Game

local function add(g, e)
  g.solids[#g.solids + 1] = e
  g.world:add(e, e.box)
  return e
end

local function tile(g, i, j)
  return add(g, { kind = "tile", box = obb.new2(i + 0.5, j + 0.5, 0.5, 0.5) })
end

-- A ramp of n turned boxes, 1 thick, whose top faces make one line from
-- (x0, y0) at angle deg for length len. Where the line meets the floor or a
-- ledge, the boxes' corners end inside the tiles: nothing sticks out.
local function ramp(g, x0, y0, deg, len, n)
  local a = rad(deg)
  local ux, uy = cos(a), sin(a)
  local nx, ny = -uy, ux
  local l, T = len / n, 0.5
  for k = 0, n - 1 do
    local s = (k + 0.5) * l
    add(g, { kind = "ramp", deg = abs(deg),
             box = obb.new2(x0 + s * ux - T * nx, y0 + s * uy - T * ny, l / 2, T, a) })
  end
end

local function scratch(n)
  local t = {}
  for i = 1, n do t[i] = false end
  return t
end

function M.new()
  local g = setmetatable({}, Game)
  g.world = obb.world2()
  g.solids, g.coins = {}, {}
  -- the floor, y = 0 on top, from x = -3 to 63, and walls at both ends
  for i = -3, 62 do tile(g, i, -1) end
  for j = 0, 7 do tile(g, -3, j); tile(g, 62, j) end
  -- 20 degrees up from the floor to a ledge 2 high at x = 20 ...
  ramp(g, 20 - 2 / tan(rad(20)), 0, 20, 2 / sin(rad(20)), 3)
  for i = 20, 27 do tile(g, i, 0); tile(g, i, 1) end
  -- ... and 35 degrees down from its end at x = 28
  ramp(g, 28, 2, -35, 2 / sin(rad(35)), 2)
  -- the one-way platform, top at y = 2.5
  g.oneway = add(g, { kind = "oneway", top = 2.5, box = obb.from_aabb2(33, 2.25, 37, 2.5) })
  -- the spinning bar: its lowest point (1.09) is above a crouched player's
  -- head (0.8) and below a standing one's (1.5)
  g.bar = add(g, { kind = "bar", x = 44.5, y = 2.9, hx = 1.8, hy = 0.15, angle = 0, spin = -4,
                   box = obb.new2(44.5, 2.9, 1.8, 0.15, 0) })
  -- a wall of tiles 2 high to jump over
  for j = 0, 1 do tile(g, 51, j) end
  -- 35 degrees up to the last ledge, 1 high, where the goal is
  ramp(g, 57 - 1 / tan(rad(35)), 0, 35, 1 / sin(rad(35)), 1)
  for i = 57, 61 do tile(g, i, 0) end
  -- coins: on the floor, over the one-way platform, under the bar, past the wall
  for _, c in ipairs { { 6, 0.6 }, { 35, 3.4 }, { 44.5, 0.4 }, { 54.5, 0.6 } } do
    local coin = { kind = "coin", taken = false, box = obb.new2(c[1], c[2], 0.25, 0.25) }
    g.coins[#g.coins + 1] = coin
    g.world:add(coin, coin.box)
  end
  g.coins_left = #g.coins

  -- the player: a table as the world's item, its box copied into p.box
  local p = { kind = "player", x = 1, y = HY, vx = 0, vy = 0, hy = HY, box = obb.new2(1, HY, HX, HY) }
  g.player = p
  g.world:add(p, p.box)
  p.grounded, p.gnx, p.gny, p.ground = false, 0, 0, nil
  p.crouched, p.jump_buffer, p.jump_held = false, 0, false

  -- the out tables, reused every step, grown once here (a table keeps its
  -- size when world:move sets its stale tail to nil)
  g.out, g.check_out, g.col_out = scratch(32 * S), scratch(32 * S), scratch(32 * 3)
  g.frame, g.n = 0, 0
  -- what the checks look at: the step's start and what happened in it
  g.x0, g.feet0, g.grounded0, g.flat0 = p.x, 0, false, false
  g.snapped, g.pushed, g.sloped, g.stood_up = false, 0, false, false
  -- stood: the first frame the player stood on each kind of ground (ramps
  -- by their angle); every key made here, so that a step adds none
  g.stats = { flat_steps = 0, coins = 0, goal_frame = false, bar_hits = 0, crouched_under_bar = 0,
              stood = { tile = false, oneway = false, bar = false, [20] = false, [35] = false } }
  g.script = { next_jump = 1 }
  return g
end

-- ---- one step -------------------------------------------------------------

local function solid_for_check(other) return other.kind ~= "coin" end

-- How deep the player is in the deepest other that filter(other) accepts
-- (world:collisions gives the push-out vector of each).
function Game:deepest(filter)
  local out, worst = self.col_out, 0
  local n = self.world:collisions(self.player, out, filter)
  for i = 0, n - 1 do
    local dx, dy = out[3 * i + 2], out[3 * i + 3]
    local d = sqrt(dx * dx + dy * dy)
    if d > worst then worst = d end
  end
  return worst
end

-- Sets the player's box in the world from p.x, p.y, p.hy.
local function commit(g, p)
  g.world:update(p, p.x, p.y, HX, p.hy)
end

function Game:step(input)
  local world, p, out = self.world, self.player, self.out
  self.frame = self.frame + 1
  self.x0, self.feet0 = p.x, p.y - p.hy
  self.grounded0, self.flat0 = p.grounded, p.grounded and p.gnx == 0
  self.snapped, self.sloped, self.stood_up = false, false, false

  -- the bar turns; rotation is not swept, so if it turned into the player,
  -- push the player out (a standing player under it gets shoved)
  local bar = self.bar
  bar.angle = bar.angle + bar.spin * DT
  bar.box:set(bar.x, bar.y, bar.hx, bar.hy, bar.angle)
  world:update(bar, bar.box)
  local px, py, moved = world:push(p, push_filter)
  self.pushed = moved
  if moved > 0 then
    p.x, p.y = px, py
    self.stats.bar_hits = self.stats.bar_hits + 1
    -- squeezed between the bar and the floor, push alternates between
    -- their normals and may give up (OBB_PUSH_MAX_STEPS) still inside:
    -- crushed, back to the checkpoint before the bar
    if self:deepest(solid_for_check) > M.TOL then
      p.x, p.y, p.vy = M.CHECKPOINT_X, p.hy, 0
      commit(self, p)
    end
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

  -- the move; then the collisions it met, in time order
  local ax, ay, n = world:move(p, p.x + vx * DT, p.y + vy * DT, move_filter, out)
  self.n = n -- (main.lua draws out's records)
  local grounded, gnx, gny, ground = false, 0, 0, nil
  for i = 0, n - 1 do
    local k = i * S
    local other, response = out[k + 1], out[k + 2]
    local nx, ny = out[k + 4], out[k + 5]
    if response == "cross" then
      if other.kind == "coin" and not other.taken then
        other.taken = true
        world:remove(other)
        self.coins_left = self.coins_left - 1
        self.stats.coins = self.stats.coins + 1
      end
    else
      vx, vy = clip(vx, vy, nx, ny)
      if ny > M.GROUND_NY and (not grounded or ny > gny) then
        grounded, gnx, gny, ground = true, nx, ny, other
      end
      if nx ~= 0 then self.sloped = true end -- met a wall, a ramp or a corner
    end
  end

  -- running down a slope (or off a step) leaves the ground for a moment:
  -- keep a player that was on the ground, and did not jump, on it
  if not grounded and p.grounded and not jumped and vy <= 0 then
    local sx, sy, sn = world:check(p, ax, ay - M.SNAP, touch_filter, self.check_out)
    local co = self.check_out
    if sn > 0 and co[5] > M.GROUND_NY then
      ax, ay = sx, sy
      grounded, gnx, gny, ground = true, co[4], co[5], co[1]
      vx, vy = clip(vx, vy, co[4], co[5])
      world:update(p, ax, ay, HX, p.hy)
      self.snapped = true
    end
  end
  -- on the ground the velocity may not point up (no launch at a ramp's top)
  if grounded and vy > 0 then vy = 0 end

  p.x, p.y, p.vx, p.vy = ax, ay, vx, vy
  p.grounded, p.gnx, p.gny, p.ground = grounded, gnx, gny, ground
  world:get(p, p.box)

  local st = self.stats
  if ground then
    if ground.kind == "ramp" then st.stood[ground.deg] = st.stood[ground.deg] or self.frame
    else st.stood[ground.kind] = st.stood[ground.kind] or self.frame end
  end
  if p.crouched and abs(p.x - bar.x) < bar.hx + HX then
    st.crouched_under_bar = st.crouched_under_bar + 1
  end
  if not st.goal_frame and p.x >= M.GOAL_X then st.goal_frame = self.frame end
end

-- ---- the script --------------------------------------------------------

M.SCRIPT = {
  jumps = { 31.5, 49.0 },     -- x where the player jumps: onto the one-way platform, over the wall
  crouch = { 41.0, 48.0 },    -- crouched from .. to: under the bar
}

-- Fills input for this step: run right until past the goal, jump when x
-- first reaches each jump position, crouch under the bar.
function Game:autoplay(input)
  local x, sc = self.player.x, self.script
  input.left = false
  input.right = x < M.GOAL_X + 0.5
  input.crouch = x >= M.SCRIPT.crouch[1] and x < M.SCRIPT.crouch[2]
  local j = M.SCRIPT.jumps[sc.next_jump]
  input.jump = false
  if j and x >= j then
    input.jump = true
    sc.next_jump = sc.next_jump + 1
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
--   * the bar never hit the player (the script ducks), and the player did
--     not fall out of the level.
function Game:check_step()
  local p, out = self.player, self.col_out
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
      and not self.stood_up and self.pushed == 0 then
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
  if self.pushed > 0 then
    return ("frame %d: the bar hit the player at x = %.4f (pushed %.3g)"):format(self.frame, p.x, self.pushed)
  end
  if p.y < -5 then return ("frame %d: the player fell out of the level"):format(self.frame) end
  return nil
end

-- nil, or why the whole run failed: the goal, every coin, both ramp
-- angles, a landing on the one-way platform, the duck under the bar, and
-- enough flat steps checked for seams.
function Game:check_end()
  local st = self.stats
  if not st.goal_frame then
    return ("the player did not reach the goal (x = %.2f after %d frames)"):format(self.player.x, self.frame)
  end
  if st.coins ~= #self.coins then
    return ("collected %d of %d coins"):format(st.coins, #self.coins)
  end
  if not st.stood[20] then return "the player never stood on the 20 degree ramp" end
  if not st.stood[35] then return "the player never stood on a 35 degree ramp" end
  if not st.stood.oneway then return "the player never landed on the one-way platform" end
  if st.crouched_under_bar == 0 then return "the player never ducked under the bar" end
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
