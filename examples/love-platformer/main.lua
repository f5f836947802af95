-- examples/love-platformer/main.lua: a platformer on obb's world:move and
-- world:move_solid (docs/love.md, "The platformer"). The player's rules are in game.lua,
-- which runs without LÖVE too (spec/platformer_move_spec.lua), and the
-- level in the Tiled map examples/maps/platformer.lua, beside this folder;
-- this file reads the keys, steps the game at a fixed 1/60 s and draws it.
--
--   love examples/love-platformer [--frames N --screenshot out.png]
--
-- Keys: left/right or A/D run, space/up/W jump, down/S/ctrl crouch, P lets
-- the script play, R restarts, Esc quits.
--
-- With --frames the script plays (run right up the step, jump at fixed x:
-- onto the ledge by the character kit's corner correction, ...; crouch under
-- the bar, wait for the elevator, the crusher and the platform and ride
-- them, cross the see-saw), every step is checked (game.lua: never inside
-- a solid, no snag on flat tiles, the bar never hits, nothing crushes),
-- and after N frames the run must have reached the goal with every coin,
-- having ridden every moving solid (the coins, the checkpoint and the door
-- go by world:events); on a failure it prints why and exits
-- with status 1, else it writes the last frame to the PNG file (any path)
-- and exits with 0. obb must be on package.cpath and package.path
-- (LUA_CPATH, LUA_PATH), or obb.so and lua/obb/ in the game's folder.
local obb = require "obb"
local draw = require "obb.love"
local game = require "game"
local mapdata = require "obb.mapdata"

local opts = {}
local g, input, autoplay
local frame, acc, failed = 0, 0, nil
local W
local SCALE, GROUND_PX = 40, 620 -- pixels per unit; the screen row of y = 0
local MAP_SCALE, MAP_TOP = 10, 36 -- the whole level, small, at the top

local function parse_args(args)
  local i = 1
  while args and args[i] do
    local a, v = args[i], args[i + 1]
    if a == "--frames" then opts.frames = assert(tonumber(v), "--frames N"); i = i + 1
    elseif a == "--screenshot" then opts.screenshot = assert(v, "--screenshot file"); i = i + 1
    end
    i = i + 1
  end
end

local function obb_path()
  local jit_path = package.loaded["obb.jit"]
  return ("%s, obb path: %s"):format(jit and jit.version or _VERSION, jit_path and jit_path.status or "classic")
end

-- The map: a copy in the game's folder (maps/platformer.lua) if there is
-- one, else examples/maps/platformer.lua beside this folder, read by its
-- path on disk (love.filesystem sees only the game's folder).
local function map()
  if love.filesystem.getInfo("maps/platformer.lua") then
    -- data, never code: a map a mod ships must not run
    return mapdata.lua_table(love.filesystem.read("maps/platformer.lua"), { source = "maps/platformer.lua" })
  end
  return game.read_map(love.filesystem.getSource() .. "/../maps/platformer.lua")
end

local level -- the map's table, read once

local function restart()
  level = level or map()
  g, input, acc = game.new(level), {}, 0
end

local function fail(why)
  io.stderr:write("obb platformer: FAIL: ", why, "\n")
  io.stderr:flush()
  os.exit(1)
end

function love.load(args)
  parse_args(args)
  if opts.frames then
    -- in CI an error must end the run, not wait on LÖVE's error screen
    love.errorhandler = function(msg)
      io.stderr:write("obb platformer: ", tostring(msg), "\n", debug.traceback(), "\n")
      os.exit(1)
    end
  end
  print("obb platformer: " .. obb_path() .. ", obb " .. tostring(obb._VERSION))
  W = love.graphics.getDimensions()
  autoplay = opts.frames ~= nil
  restart()
end

function love.keypressed(key)
  if key == "escape" then love.event.quit(0)
  elseif key == "r" then restart()
  elseif key == "p" and not opts.frames then autoplay = not autoplay
  end
end

local function read_keys()
  local down = love.keyboard.isDown
  input.left = down("left", "a")
  input.right = down("right", "d")
  input.jump = down("space", "up", "w")
  input.crouch = down("down", "s", "lctrl", "rctrl")
end

local function step()
  if autoplay then g:autoplay(input) else read_keys() end
  g:step(input)
  if opts.frames then
    local why = g:check_step()
    if why then fail(why) end
  end
end

function love.update(dt)
  if opts.frames then
    if frame >= opts.frames and (not opts.screenshot or opts.shot_done) then
      love.event.quit(0)
      return
    end
    frame = frame + 1
    step() -- one fixed step per frame, whatever the clock says
    if frame == opts.frames then
      failed = g:check_end()
      if failed then fail(failed) end
      local st = g.stats
      print(("obb platformer: ok: goal at frame %d, %d/%d coins, %d flat steps without a snag, "
        .. "stood on the 20 degree ramp at frame %d, the 35 at %d, the one-way platform at %d, "
        .. "rode the elevator at %d, the platform at %d, the see-saw turning %d steps, past the crusher at %d; "
        .. "events: the checkpoint at frame %d, the door opened at %d and closed at %d; "
        .. "the character kit: up the step at frame %d, onto the ledge at %d (its jump %.1f pixels short), "
        .. "%d steps down a ramp on the floor")
        :format(st.goal_frame, st.coins, #g.coins, st.flat_steps, st.stood[20], st.stood[35], st.stood.oneway,
                st.stood.elevator, st.stood.platform, st.tilted, st.passed_crusher,
                st.checkpoint_frame, st.door_opened, st.door_closed,
                st.stepped, st.cornered, st.corner_clip * 32, st.downhill))
    end
    return
  end
  -- a fixed step: the same run at any frame rate
  acc = acc + math.min(dt, 0.25)
  while acc >= game.DT do
    step()
    acc = acc - game.DT
  end
end

-- ---- drawing ------------------------------------------------------------

local COLOURS = {
  tile = { 0.47, 0.38, 0.3 }, ramp = { 0.62, 0.52, 0.36 }, block = { 0.56, 0.45, 0.34 }, oneway = { 0.35, 0.62, 0.95 },
  bar = { 0.92, 0.32, 0.26 }, coin = { 1, 0.84, 0.2 }, door = { 0.55, 0.4, 0.75 },
  mover = { 0.55, 0.8, 0.85 }, crusher = { 0.7, 0.7, 0.75 }, seesaw = { 0.85, 0.6, 0.95 },
  checkpoint = { 0.3, 0.9, 0.45, 0.35 }, door_zone = { 0.55, 0.4, 0.75, 0.35 },
}

-- The ramps first: the tiles hide the parts of them sunk into the floor.
local function draw_solids(ramps, line)
  local gr = love.graphics
  for _, e in ipairs(g.solids) do
    if (e.kind == "ramp") == ramps then
      gr.setColor(COLOURS[e.name] or COLOURS[e.kind])
      draw.box(e.box, "fill")
      if line then
        gr.setColor(0, 0, 0, 0.35)
        draw.box(e.box, "line")
      end
    end
  end
end

local function draw_level(line)
  local gr = love.graphics
  -- the sensor zones, outlined: the checkpoint's (full once reached) and
  -- the door's
  for _, z in ipairs(g.zones) do
    gr.setColor(COLOURS[z.kind])
    draw.box(z.box, (z.kind == "checkpoint" and g.respawn == g.checkpoint) and "fill" or "line")
  end
  draw_solids(true, line)
  draw_solids(false, line)
  gr.setColor(COLOURS.coin)
  for _, c in ipairs(g.coins) do
    if not c.taken then draw.box(c.box, "fill") end
  end
  -- the goal: a pole and a flag
  local gx, gy = g.goal.x, g.goal.y
  gr.setColor(0.9, 0.9, 0.9)
  gr.rectangle("fill", gx - 0.05, gy, 0.1, 3)
  gr.setColor(0.3, 0.9, 0.45)
  gr.polygon("fill", gx + 0.05, gy + 3, gx + 1.3, gy + 2.6, gx + 0.05, gy + 2.2)
  -- the player: green standing, teal crouched
  local p = g.player
  if p.crouched then gr.setColor(0.2, 0.75, 0.7) else gr.setColor(0.35, 0.9, 0.4) end
  draw.box(p.box, "fill")
end

function love.draw()
  local gr = love.graphics
  gr.clear(0.09, 0.11, 0.17)
  local p = g.player

  -- the view: y up, following the player
  local b = g.bounds -- the map's rectangle in game units
  local camx = math.max(b.x + W / SCALE / 2, math.min(p.x, b.x + b.w - W / SCALE / 2))
  gr.push()
  gr.translate(W / 2, GROUND_PX)
  gr.scale(SCALE, -SCALE)
  gr.translate(-camx, 0)
  gr.setLineWidth(1 / SCALE)
  draw_level(true)
  -- the last move's collisions: a dot at the contact center and its normal
  local out, S = g.out, obb.MOVE_STRIDE2
  gr.setColor(1, 1, 1)
  for k = 0, g.n - 1 do
    local nx, ny, x, y = out[k * S + 4], out[k * S + 5], out[k * S + 6], out[k * S + 7]
    gr.line(x, y, x + nx * 0.8, y + ny * 0.8)
  end
  gr.pop()

  -- the whole level, small: the world in one colour (obb.love), the player
  gr.push()
  gr.translate(8 - b.x * MAP_SCALE, MAP_TOP + (b.y + b.h) * MAP_SCALE)
  gr.scale(MAP_SCALE, -MAP_SCALE)
  gr.setColor(0, 0, 0, 0.4)
  gr.rectangle("fill", b.x, b.y, b.w, b.h)
  gr.setColor(0.55, 0.6, 0.7)
  draw.world(g.world, "fill", b.x, b.y, b.w, b.h)
  gr.setColor(0.35, 0.9, 0.4)
  draw.box(p.box, "fill")
  gr.pop()

  gr.setColor(1, 1, 1)
  local st = g.stats
  gr.print(("coins %d/%d   %s%s   %s   %s%s"):format(st.coins, #g.coins,
    g.respawn == g.checkpoint and "checkpoint" or "", g.door.open and "   door open" or "",
    st.goal_frame and "GOAL!" or ("x = %.1f"):format(p.x),
    autoplay and "autoplay" or "arrows run, space jumps, down crouches, P autoplay, R restart",
    p.grounded and (p.gnx ~= 0 and "   (on a slope)" or "") or "   (in the air)"), 8, 8)
  gr.print(obb_path(), W - 320, 8)

  if opts.frames and frame == opts.frames and opts.screenshot and not opts.shot_requested then
    opts.shot_requested = true
    gr.captureScreenshot(function(image)
      local f = assert(io.open(opts.screenshot, "wb"))
      f:write(image:encode("png"):getString())
      f:close()
      opts.shot_done = true
    end)
  end
end
