-- examples/love-racing/main.lua: a racing game on obb's world:move, the
-- turning form (docs/love.md, "The racing game"). The rules and the
-- track are in game.lua, which runs without LÖVE too
-- (spec/love_racing_spec.lua); this file reads the keys, steps the game at
-- a fixed 1/60 s and draws it.
--
--   love examples/love-racing [--frames N --screenshot out.png]
--
-- Four cars race round a track of thin turned barriers on the autopilot.
-- Keys: M lets you drive the red car (left/right or A/D steer, up/W
-- accelerates, down/S brakes) and gives it back to the autopilot, R
-- restarts, Esc quits.
--
-- With --frames the autopilot drives every car, every step is checked
-- (game.lua: no car ends a step inside a barrier or another car, no car's
-- center crosses a barrier's line or leaves the track), and after N frames
-- every car must have completed a lap; on a failure it prints why and
-- exits with status 1, else it writes the last frame to the PNG file (any
-- path) and exits with 0. obb must be on package.cpath and package.path
-- (LUA_CPATH, LUA_PATH), or obb.so and lua/obb/ in the game's folder.
local obb = require "obb"
local game = require "game"

local opts = {}
local g, input, manual
local frame, acc = 0, 0
local W
local SCALE, OX, OY = 8, 32, 84 -- pixels per unit; the screen position of (0, 0)

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

local function restart()
  g, input, acc = game.new(), { steer = 0, throttle = 0 }, 0
  g.checking = opts.frames ~= nil
end

local function fail(why)
  io.stderr:write("obb racing: FAIL: ", why, "\n")
  io.stderr:flush()
  os.exit(1)
end

function love.load(args)
  parse_args(args)
  if opts.frames then
    -- in CI an error must end the run, not wait on LÖVE's error screen
    love.errorhandler = function(msg)
      io.stderr:write("obb racing: ", tostring(msg), "\n", debug.traceback(), "\n")
      os.exit(1)
    end
  end
  print("obb racing: " .. obb_path() .. ", obb " .. tostring(obb._VERSION))
  W = love.graphics.getDimensions()
  manual = false
  restart()
end

function love.keypressed(key)
  if key == "escape" then love.event.quit(0)
  elseif key == "r" then restart()
  elseif key == "m" and not opts.frames then manual = not manual
  end
end

local function read_keys()
  local down = love.keyboard.isDown
  input.steer = (down("right", "d") and 1 or 0) - (down("left", "a") and 1 or 0)
  input.throttle = (down("up", "w") and 1 or 0) - (down("down", "s") and 1 or 0)
end

local function step()
  if manual then read_keys() end
  g:step(manual and input or nil)
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
      local why = g:check_end()
      if why then fail(why) end
      local parts = {}
      for _, car in ipairs(g.cars) do
        parts[#parts + 1] = ("car %d: %d laps (first at frame %d), %d barrier and %d car contacts")
          :format(car.index, car.laps, car.lap_frame, car.wall_hits, car.car_hits)
      end
      print(("obb racing: ok after %d frames, no car inside a barrier or another, no barrier crossed; %s")
        :format(frame, table.concat(parts, "; ")))
    end
    return
  end
  -- a fixed step: the same race at any frame rate
  acc = acc + math.min(dt, 0.25)
  while acc >= game.DT do
    step()
    acc = acc - game.DT
  end
end

-- ---- drawing ------------------------------------------------------------

local KERB = { { 0.86, 0.2, 0.17 }, { 0.93, 0.93, 0.9 } }

local function draw_track()
  local gr = love.graphics
  local line, left, right = g.line, g.left, g.right
  local n = #line
  -- the asphalt: a quad per segment between the two barrier lines
  gr.setColor(0.24, 0.25, 0.27)
  for i = 1, n do
    local j = i % n + 1
    gr.polygon("fill", left[2 * i - 1], left[2 * i], left[2 * j - 1], left[2 * j],
      right[2 * j - 1], right[2 * j], right[2 * i - 1], right[2 * i])
  end
  -- the center line, dashed
  gr.setColor(0.9, 0.9, 0.85, 0.35)
  for i = 1, n, 2 do
    local p, q = line[i], line[i % n + 1]
    gr.line(p[1], p[2], q[1], q[2])
  end
  -- the checkpoints: the start line white, the others faint
  for _, cp in ipairs(g.checkpoints) do
    if cp.index == 0 then gr.setColor(1, 1, 1) else gr.setColor(1, 0.9, 0.3, 0.45) end
    gr.polygon("fill", cp.box:corners())
  end
  -- the barriers, kerb colours alternating
  for _, b in ipairs(g.barriers) do
    gr.setColor(KERB[b.index % 2 + 1])
    gr.polygon("fill", b.box:corners())
  end
end

local function lerp(ax, ay, bx, by, t) return ax + (bx - ax) * t, ay + (by - ay) * t end

-- A car: its box as a polygon (corners counter-clockwise in the box's own
-- axes from (-hx, -hy): the 2nd and 3rd are the front) and a windscreen
-- toward the front.
local function draw_car(car)
  local gr = love.graphics
  local x1, y1, x2, y2, x3, y3, x4, y4 = car.box:corners()
  gr.setColor(car.spec.colour)
  gr.polygon("fill", x1, y1, x2, y2, x3, y3, x4, y4)
  gr.setColor(0, 0, 0, 0.8)
  gr.polygon("line", x1, y1, x2, y2, x3, y3, x4, y4)
  -- the windscreen: the front side pulled in toward the center
  local ax, ay = lerp(x2, y2, x1, y1, 0.25)
  local bx, by = lerp(x3, y3, x4, y4, 0.25)
  local cx, cy = lerp(x3, y3, x4, y4, 0.45)
  local dx, dy = lerp(x2, y2, x1, y1, 0.45)
  gr.setColor(0.1, 0.12, 0.18, 0.9)
  gr.polygon("fill", ax, ay, bx, by, cx, cy, dx, dy)
end

function love.draw()
  local gr = love.graphics
  gr.clear(0.2, 0.42, 0.22) -- grass
  gr.push()
  gr.translate(OX, OY)
  gr.scale(SCALE, SCALE)
  gr.setLineWidth(1.5 / SCALE)
  draw_track()
  for _, car in ipairs(g.cars) do draw_car(car) end
  -- each car's last hit, for a moment: the normal the move reported, from
  -- the car's center where it met the other (the way the hit pushed it)
  for _, car in ipairs(g.cars) do
    local age = car.hit and g.frame - car.hit
    if age and age < 20 then
      gr.setColor(1, 1, 1, 1 - age / 20)
      gr.line(car.hit_x, car.hit_y, car.hit_x + car.hit_nx * 3, car.hit_y + car.hit_ny * 3)
      gr.circle("fill", car.hit_x, car.hit_y, 0.35)
    end
  end
  gr.pop()

  -- the HUD: laps, speed and hits per car; who drives; obb's path
  gr.setColor(0, 0, 0, 0.55)
  gr.rectangle("fill", 0, 0, W, 56)
  local x = 8
  for _, car in ipairs(g.cars) do
    gr.setColor(car.spec.colour)
    gr.rectangle("fill", x, 10, 14, 14)
    gr.setColor(1, 1, 1)
    gr.print(("car %d   laps %d   %3.0f u/s   %d hits"):format(car.index, car.laps, car.speed,
      car.wall_hits + car.car_hits), x + 20, 10)
    x = x + 230
  end
  gr.setColor(1, 1, 1)
  gr.print(("frame %d   %s   %s"):format(g.frame,
    manual and "you drive car 1: arrows, M autopilot" or "autopilot (M: drive car 1, R: restart)",
    obb_path()), 8, 32)

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
