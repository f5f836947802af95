-- examples/love/main.lua: a few thousand turning, moving boxes in an obb
-- world (docs/love.md). Each frame every box moves and turns, the world
-- finds the overlapping pairs, and each pair is pushed apart along its
-- penetration normal; boxes that collided this frame are drawn red. A ray
-- from the bottom middle of the window to the mouse picks the nearest box
-- (yellow); the time of the demo's own work and the frame time are on
-- screen, with the path obb runs on (FFI or classic).
--
--   love examples/love [--boxes N] [--frames N --screenshot out.png]
--
-- With --frames the demo steps a fixed 1/60 s per frame, moves a pretend
-- mouse, quits after that many frames (exit status 0, or 1 on any error
-- instead of LÖVE's error screen) and writes the last frame to the PNG file
-- (any path). obb must be on package.cpath and package.path (LUA_CPATH,
-- LUA_PATH), or obb.so and lua/obb/ in the game's folder (docs/love.md).
local obb = require "obb"
local draw = require "obb.love"

local opts = { boxes = 3000 }
local world, entities
local pairs_out, ray_out = {}, {}
local frame, picked, ray_hit = 0, nil, nil
local work_ms, contacts = 0, 0
local W, H

local function parse_args(args)
  local i = 1
  while args and args[i] do
    local a, v = args[i], args[i + 1]
    if a == "--boxes" then opts.boxes = assert(tonumber(v), "--boxes N"); i = i + 1
    elseif a == "--frames" then opts.frames = assert(tonumber(v), "--frames N"); i = i + 1
    elseif a == "--screenshot" then opts.screenshot = assert(v, "--screenshot file"); i = i + 1
    end
    i = i + 1
  end
end

function love.load(args)
  parse_args(args)
  if opts.frames then
    -- in CI an error must end the run, not wait on LÖVE's error screen
    love.errorhandler = function(msg)
      io.stderr:write("obb demo: ", tostring(msg), "\n", debug.traceback(), "\n")
      os.exit(1)
    end
  end
  local jit_path = package.loaded["obb.jit"]
  print(("obb demo: %s, obb path: %s"):format(jit and jit.version or _VERSION,
    jit_path and jit_path.status or "classic"))
  W, H = love.graphics.getDimensions()
  local rng = love.math.newRandomGenerator(20261124)
  world = obb.world2()
  entities = {}
  for i = 1, opts.boxes do
    local hx, hy = 2 + rng:random() * 4, 1.5 + rng:random() * 2.5
    local e = {
      box = obb.new2(rng:random() * W, rng:random() * H, hx, hy, rng:random() * 2 * math.pi),
      vx = (rng:random() - 0.5) * 120, vy = (rng:random() - 0.5) * 120,
      spin = (rng:random() - 0.5) * 3,
      hit = -1, -- the last frame it collided in
    }
    entities[i] = e
    world:add(e, e.box)
  end
end

-- The mouse, or in a headless run a point going round the window's middle.
local function mouse()
  if opts.frames then
    local a = frame * 0.05
    return W / 2 + math.cos(a) * W * 0.3, H / 2 + math.sin(a) * H * 0.3
  end
  return love.mouse.getPosition()
end

function love.update(dt)
  if opts.frames then
    if frame >= opts.frames and (not opts.screenshot or opts.shot_done) then
      love.event.quit(0)
      return
    end
    dt = 1 / 60
  end
  frame = frame + 1
  local t0 = love.timer.getTime()

  -- move and turn; bounce off the window's edges
  for i = 1, #entities do
    local e = entities[i]
    local b = e.box
    b:translate(e.vx * dt, e.vy * dt)
    b:rotate(e.spin * dt)
    local x, y = b:center()
    if (x < 0 and e.vx < 0) or (x > W and e.vx > 0) then e.vx = -e.vx end
    if (y < 0 and e.vy < 0) or (y > H and e.vy > 0) then e.vy = -e.vy end
    world:update(e, b)
  end

  -- every overlapping pair, pushed apart half each along the normal
  local n = world:pairs(pairs_out)
  for k = 1, n do
    local a, b = pairs_out[2 * k - 1], pairs_out[2 * k]
    local nx, ny, depth = a.box:penetration(b.box)
    if nx then
      local d = depth * 0.5
      a.box:translate(nx * d, ny * d)
      b.box:translate(-nx * d, -ny * d)
      a.hit, b.hit = frame, frame
    end
  end
  contacts = n

  -- the ray from the bottom middle to the mouse: the nearest box
  local mx, my = mouse()
  local ox, oy = W / 2, H
  picked, ray_hit = nil, nil
  if mx ~= ox or my ~= oy then
    if world:raycast(ox, oy, mx - ox, my - oy, nil, ray_out) > 0 then
      picked, ray_hit = ray_out[1], ray_out[2]
    end
  end
  work_ms = (love.timer.getTime() - t0) * 1000
end

function love.draw()
  local g = love.graphics
  g.clear(0.08, 0.09, 0.12)
  g.setColor(0.35, 0.75, 0.8)
  draw.world(world) -- every item in view, in one colour
  g.setColor(0.95, 0.3, 0.25)
  local shown = 0
  for i = 1, #entities do
    local e = entities[i]
    if e.hit == frame then
      draw.box(e.box, "fill")
      -- the first few pairs' contact points, for a look at the manifold
      if shown < 40 then
        local m = world:collisions(e, pairs_out)
        if m > 0 then
          g.setColor(1, 1, 1)
          draw.contact(e.box, pairs_out[1].box, 4)
          g.setColor(0.95, 0.3, 0.25)
          shown = shown + 1
        end
      end
    end
  end

  -- the ray and what it picked
  local mx, my = mouse()
  local ox, oy = W / 2, H
  g.setColor(1, 0.9, 0.2)
  if picked then
    local hx, hy = ox + (mx - ox) * ray_hit, oy + (my - oy) * ray_hit
    g.line(ox, oy, hx, hy)
    draw.box(picked.box, "fill")
  else
    g.line(ox, oy, mx, my)
  end

  g.setColor(0, 0, 0, 0.6)
  g.rectangle("fill", 0, 0, 560, 44)
  g.setColor(1, 1, 1)
  g.print(("%d boxes, %d colliding pairs   obb work %.2f ms   frame %.2f ms (%d fps)")
    :format(#entities, contacts, work_ms, love.timer.getAverageDelta() * 1000, love.timer.getFPS()), 8, 6)
  local jit_path = package.loaded["obb.jit"]
  g.print(("%s, obb path: %s"):format(jit and jit.version or _VERSION,
    jit_path and jit_path.status or "classic"), 8, 24)

  if opts.frames and frame == opts.frames and opts.screenshot and not opts.shot_requested then
    opts.shot_requested = true
    g.captureScreenshot(function(image)
      local f = assert(io.open(opts.screenshot, "wb"))
      f:write(image:encode("png"):getString())
      f:close()
      opts.shot_done = true
    end)
  end
end
