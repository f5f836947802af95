-- The LÖVE platformer's game logic (examples/love-platformer/game.lua) on
-- plain Lua: the same scripted play, for the same frames, with the same
-- checks as `make love-test` runs in LÖVE (docs/love.md, "The platformer");
-- and its level, the Tiled map examples/maps/platformer.lua (with
-- platformer.tmx, the file Tiled edits), loaded into the objects the game
-- expects.
package.path = "./examples/love-platformer/?.lua;" .. package.path
local game = require "game"

describe("the LÖVE platformer on world:move", function()
  it("plays its script to the goal: every coin, no snag, never inside a solid", function()
    local ok, why, g = game.play(game.CI_FRAMES)
    assert(ok, why)
    local st = g.stats
    assert.is_true(st.goal_frame < game.CI_FRAMES)
    assert.equal(#g.coins, st.coins)
    assert.equal(0, g.coins_left)
    for _, c in ipairs(g.coins) do assert.is_false(g.world:has(c)) end
    assert.is_truthy(st.stood[20] and st.stood[35] and st.stood.oneway)
    assert.is_true(st.flat_steps >= 200)
    assert.is_true(st.crouched_under_bar > 0)
    assert.equal(0, st.bar_hits)
    -- the moving solids: ridden, waited for, never crushed by
    assert.is_truthy(st.stood.elevator and st.stood.platform and st.passed_crusher)
    assert.is_true(st.tilted > 0)
    assert.equal(0, st.crushed)
    -- the sensors' events: the checkpoint reached, the door opened before
    -- the player and closed behind it, then the goal
    assert.is_true(st.checkpoint_frame > 0 and st.checkpoint_frame < st.door_opened)
    assert.is_true(st.door_opened < st.door_closed and st.door_closed > st.goal_frame)
    assert.is_false(g.door.open)
    assert.are.equal(g.checkpoint, g.respawn)
    -- the character kit: up the step without a jump, onto the ledge whose
    -- top the jump's feet missed by a pixel or two (corner correction),
    -- down the 35 degree ramp on the floor every step (snap), never off a
    -- ramp without a jump
    assert.is_true(st.stepped > 0 and st.stood.step == st.stepped)
    assert.is_true(st.cornered > st.stepped and st.stood.ledge == st.cornered)
    assert.is_true(st.corner_clip > 0 and st.corner_clip <= 2 / 32, st.corner_clip * 32 .. " pixels")
    assert.is_true(st.downhill >= 25, st.downhill .. " steps down a ramp on the floor")
    assert.equal(0, st.ramp_takeoffs)
    assert.is_true(st.stood[35] < st.checkpoint_frame)
    -- it stopped on the last ledge, standing, at rest
    local p = g.player
    assert.is_true(p.grounded and not p.crouched and p.x >= g.goal.x)
    assert.equal(0, p.vx)
  end)

  it("needs the kit's options: without step, corner or snap the script fails where each one helps", function()
    local function without(option)
      local a = game.OPTIONS[option]
      game.OPTIONS[option] = 0
      local ok, res = pcall(function() return { game.play(game.CI_FRAMES) } end)
      game.OPTIONS[option] = a
      assert(ok, res)
      return res[1], res[2], res[3] -- ok, why, the game
    end
    -- no step: stopped at the step's side, on the floor
    local ok, _, g = without("step")
    assert.is_false(ok)
    assert.is_false(g.stats.stepped)
    assert.is_true(math.abs(g.player.x - (2 - game.HX)) < 1e-12, g.player.x)
    -- no corner correction: the jump falls back from the ledge's side
    ok, _, g = without("corner")
    assert.is_false(ok)
    assert.is_truthy(g.stats.stepped)
    assert.is_false(g.stats.cornered)
    assert.is_true(math.abs(g.player.x - (10 - game.HX)) < 1e-12, g.player.x)
    assert.is_true(g.player.grounded and g.player.ground.kind == "tile")
    -- no snap: the run gets to the goal, but leaves the ramps' floor on
    -- the way down
    local why
    ok, why, g = without("snap")
    assert.is_false(ok)
    assert.matches("the player left a ramp's floor %d+ times without a jump", why)
    assert.is_truthy(g.stats.goal_frame)
  end)

  it("the same run every time (fixed step, fixed script)", function()
    local _, _, a = game.play(game.CI_FRAMES)
    local _, _, b = game.play(game.CI_FRAMES)
    assert.same({ a.player.x, a.player.y, a.stats.goal_frame }, { b.player.x, b.player.y, b.stats.goal_frame })
  end)

  it("the checks catch a player that does not duck under the bar", function()
    local g, input = game.new(), {}
    local why
    for _ = 1, game.CI_FRAMES do
      g:autoplay(input)
      input.crouch = false
      g:step(input)
      why = g:check_step()
      if why then break end
    end
    assert.matches("the bar hit the player", why)
  end)

  it("the checks catch a player that does not wait for the crusher, crushed and sent to the checkpoint", function()
    local g, input = game.new(), {}
    local why
    for _ = 1, game.CI_FRAMES do
      g:autoplay(input)
      local x, c = g.player.x, g.crusher.x0
      if x > c - 0.5 and x < c + 0.5 then input.right = false end -- stops under it
      g:step(input)
      why = g:check_step()
      if why then break end
    end
    assert.matches("the crusher crushed the player", why)
    assert.equal(1, g.stats.crushed)
    assert.same({ g.checkpoint.x, g.checkpoint.y + game.HY }, { g.player.x, g.player.y })
  end)

  it("the elevator and the platform carry the player standing on them exactly as far as they go", function()
    local g, input = game.new(), {}
    local rode = { elevator = 0, platform = 0 }
    for _ = 1, game.CI_FRAMES do
      g:autoplay(input)
      local p = g.player
      local e = g.carried
      local before = e and { p.x, p.y }
      g:step(input)
      e = g.carried
      if e and e.kind == "mover" and not input.right and before then
        -- standing still on it: its displacement, to rounding
        local x0, y0 = game.path(e, (g.frame - 1) * game.DT)
        local x1, y1 = game.path(e, g.frame * game.DT)
        assert.is_true(math.abs((p.x - before[1]) - (x1 - x0)) < 1e-12 and
                       math.abs((p.y - before[2]) - (y1 - y0)) < 1e-12)
        rode[e.name] = rode[e.name] + 1
      end
      assert.is_nil(g:check_step())
    end
    assert.is_true(rode.elevator > 60 and rode.platform > 60)
  end)

  it("the one-way platform: jumped through from below, stood on from above", function()
    local g, input = game.new(), {}
    local inside_from_below = false
    for _ = 1, game.CI_FRAMES do
      g:step(g:autoplay(input))
      assert.is_nil(g:check_step())
      local p = g.player
      local n = g.world:collisions(p, g.col_out, function(o) return o == g.oneway end)
      if n > 0 and p.y - p.hy < g.oneway.top - 0.1 then inside_from_below = true end
      if g.stats.stood.oneway then break end
    end
    assert.is_true(inside_from_below)
    assert.is_truthy(g.stats.stood.oneway)
  end)

  it("makes no garbage per step", function()
    local g, input = game.new(), {}
    for _ = 1, 10 do g:step(g:autoplay(input)) end -- the world's scratch grows at the first contacts
    local jit = rawget(_G, "jit")
    if jit then jit.flush(); jit.off() end -- count the steps, not the trace compiler's work
    collectgarbage("collect")
    collectgarbage("stop")
    -- a full collection shrinks the thread's stack, and the first move
    -- after it grows the stack again (1 KiB on Lua 5.3): not counted
    g:step(g:autoplay(input))
    local before = collectgarbage("count")
    for _ = 12, game.CI_FRAMES do
      g:step(g:autoplay(input))
      assert(not g:check_step())
    end
    local kib = collectgarbage("count") - before
    collectgarbage("restart")
    if jit then jit.on() end
    assert.is_truthy(g.stats.goal_frame)
    assert.is_true(kib < 0.5, kib .. " KiB in " .. (game.CI_FRAMES - 11) .. " steps")
  end)
end)

-- ---- the level: examples/maps/platformer.lua ------------------------------

local MAP = "examples/maps/platformer.lua"
local TMX = "examples/maps/platformer.tmx"
local rad, tan, atan2, deg = math.rad, math.tan, math.atan2 or math.atan, math.deg

local function of_kind(g, kind)
  local list = {}
  for _, e in ipairs(g.solids) do
    if e.kind == kind then list[#list + 1] = e end
  end
  return list
end

local function near(a, b, eps)
  return math.abs(a - b) <= eps
end

-- The top side of a ramp piece (its long side, on the side facing up), as
-- its left and right ends.
local function top_side(box)
  local cx, cy = box:center()
  local hx, hy = box:half_extents()
  local ax, ay, bx, by = box:axes()
  local ux, uy, hl, nx, ny, hs = ax, ay, hx, bx, by, hy
  if hy > hx then ux, uy, hl, nx, ny, hs = bx, by, hy, ax, ay, hx end
  if ny < 0 then nx, ny = -nx, -ny end
  local x1, y1 = cx + hs * nx - hl * ux, cy + hs * ny - hl * uy
  local x2, y2 = cx + hs * nx + hl * ux, cy + hs * ny + hl * uy
  if x1 > x2 then x1, y1, x2, y2 = x2, y2, x1, y1 end
  return x1, y1, x2, y2
end

-- A small reader of the TMX file as Tiled writes it: the map's attributes
-- and properties, each layer's csv data or objects with their attributes,
-- properties and point flag.
local function read_tmx(path)
  local f = assert(io.open(path, "rb"))
  local xml = f:read("*a")
  f:close()
  local function attrs(tag)
    local t = {}
    for k, v in tag:gmatch('([%w_]+)="([^"]*)"') do t[k] = v end
    return t
  end
  local function value(a)
    if a.type == "bool" then return a.value == "true" end
    if a.type == "int" or a.type == "float" then return tonumber(a.value) end
    return a.value
  end
  local map = { layers = {} }
  local props, layer, object, in_tileset
  local tile_layers = {}
  for tag in xml:gmatch("<[^>]+>") do
    local name = tag:match("^<(/?[%w]+)")
    if name == "map" then
      map.attrs, map.properties = attrs(tag), {}
      props = map.properties
    elseif name == "tileset" then in_tileset = true
    elseif name == "/tileset" then in_tileset = false
    elseif name == "layer" or name == "objectgroup" then
      layer = { attrs = attrs(tag), objects = {} }
      map.layers[#map.layers + 1] = layer
      if name == "layer" then tile_layers[#tile_layers + 1] = layer end
    elseif name == "object" then
      object = { attrs = attrs(tag), properties = {} }
      layer.objects[#layer.objects + 1] = object
      props = object.properties
    elseif name == "point" then object.point = true
    elseif name == "property" and not in_tileset then
      local a = attrs(tag)
      props[a.name] = value(a)
    end
  end
  local i = 0
  for csv in xml:gmatch('<data encoding="csv">(.-)</data>') do
    i = i + 1
    local data = {}
    for n in csv:gmatch("%d+") do data[#data + 1] = tonumber(n) end
    local tile_layer = tile_layers[i]
    tile_layer.data = data
  end
  return map
end

describe("the platformer's level: the Tiled map " .. MAP, function()
  local map = dofile(MAP)
  local g = game.new(map)

  it("loads into the objects the game expects: 191 tiles, 6 ramp boxes, 1 one-way platform, 1 bar, 3 movers, "
     .. "1 see-saw, 2 blocks, 1 door (game.lua's), 4 coins", function()
    local counts = {}
    for _, e in ipairs(g.solids) do counts[e.kind] = (counts[e.kind] or 0) + 1 end
    -- the door: game.lua's
    assert.same({ tile = 191, ramp = 6, oneway = 1, bar = 1, mover = 3, seesaw = 1, block = 2, door = 1 }, counts)
    assert.equal(4, #g.coins)
    -- and the player, and the zones game.lua makes from the points
    assert.equal(191 + 6 + 1 + 1 + 3 + 1 + 2 + 1 + 4 + 1 + 2, #g.world)
    for _, c in ipairs(g.coins) do assert.is_true(g.world:sensor(c)) end
    assert.is_true(g.world:sensor(g.checkpoint_zone) and g.world:sensor(g.door_zone))
    -- the tiles: the floor, the walls at both ends, the ledge, the wall to
    -- jump and the last ledge, each a 1x1 box on its cell
    local want = {}
    local function cell(i, j) want[i .. "," .. j] = true end
    for i = -3, 97 do cell(i, -1) end
    for j = 0, 7 do cell(-3, j); cell(97, j) end
    for i = 20, 27 do cell(i, 0); cell(i, 1) end
    cell(51, 0); cell(51, 1)
    for i = 57, 65 do cell(i, 0) end                          -- the ledge before the elevator
    for i = 68, 75 do for j = 0, 4 do cell(i, j) end end      -- the cliff it rises to
    cell(84, 4); cell(85, 4)                                  -- across the platform's gap
    for i = 92, 96 do cell(i, 3) end                          -- after the see-saw
    for _, e in ipairs(of_kind(g, "tile")) do
      local cx, cy = e.box:center()
      local i, j = cx - 0.5, cy - 0.5
      assert.is_true(i == math.floor(i) and j == math.floor(j))
      local key = ("%d,%d"):format(i, j)
      assert.is_true(want[key], "a tile at " .. key)
      want[key] = nil
      assert.same({ 0.5, 0.5 }, { e.box:half_extents() })
      assert.equal(0, e.box:angle())
    end
    assert.is_nil(next(want))
  end)

  it("cuts the three turned ramps into 3, 2 and 1 boxes at 20 and 35 degrees, flush, exact at the ledges", function()
    local ramps = of_kind(g, "ramp")
    -- each ramp: its pieces, its angle (up to the right > 0), the ledge
    -- corner where it must end exactly, and which end that is
    local want = {
      { n = 3, deg = 20, x = 20, y = 2, at = "right" },
      { n = 2, deg = -35, x = 28, y = 2, at = "left" },
      { n = 1, deg = 35, x = 57, y = 1, at = "right" },
    }
    local k = 0
    for r, w in ipairs(want) do
      local sides = {}
      for _ = 1, w.n do
        k = k + 1
        local e = ramps[k]
        assert.equal(math.abs(w.deg), e.deg)
        local x1, y1, x2, y2 = top_side(e.box)
        assert.is_true(near(deg(atan2(y2 - y1, x2 - x1)), w.deg, 1e-9), "ramp " .. r .. "'s angle")
        sides[#sides + 1] = { x1, y1, x2, y2 }
      end
      table.sort(sides, function(a, b) return a[1] < b[1] end)
      -- end to end: each piece starts where the one before ends
      for i = 2, #sides do
        assert.is_true(near(sides[i][1], sides[i - 1][3], 1e-12) and near(sides[i][2], sides[i - 1][4], 1e-12),
          "ramp " .. r .. ": a seam that is not flush")
      end
      -- exact at the ledge's corner; the other end a hair inside the floor,
      -- where the slope meets it where the code-built level had it
      local first, last = sides[1], sides[#sides]
      local ex, ey, fx, fy = last[3], last[4], first[1], first[2]
      if w.at == "left" then ex, ey, fx, fy = first[1], first[2], last[3], last[4] end
      assert.is_true(near(ex, w.x, 1e-12) and near(ey, w.y, 1e-12), "ramp " .. r .. " misses the ledge's corner")
      assert.is_true(fy < 0 and fy > -1e-4, "ramp " .. r .. "'s far end is not just inside the floor")
      local run = w.y / tan(rad(math.abs(w.deg)))
      local floor_x = w.at == "right" and w.x - run or w.x + run
      local cross = fx + (0 - fy) * (ex - fx) / (ey - fy)
      assert.is_true(near(cross, floor_x, 1e-12), "ramp " .. r .. " meets the floor elsewhere")
    end
    assert.equal(6, k)
  end)

  it("takes the one-way platform from the object whose property oneway is true", function()
    local objects = map.layers[2].objects
    local found
    for _, o in ipairs(objects) do
      if o.properties.oneway then
        assert.is_nil(found)
        found = o
      end
    end
    assert.is_true(found.properties.oneway)
    assert.equal("oneway", g.oneway.kind)
    assert.equal(2.5, g.oneway.top)
    assert.same({ 35, 2.375 }, { g.oneway.box:center() })
    assert.same({ 2, 0.125 }, { g.oneway.box:half_extents() })
    -- without the property it is no longer a one-way platform, and the
    -- game refuses a level without one
    local copy = dofile(MAP)
    for _, o in ipairs(copy.layers[2].objects) do o.properties.oneway = nil end
    local ok, err = pcall(game.new, copy)
    assert.is_false(ok)
    assert.matches("no kind the game knows", err)
  end)

  it("places the bar's pivot, the coins and the start, checkpoint and goal points", function()
    local b = g.bar
    assert.is_true(near(b.x, 44.5, 1e-12) and near(b.y, 2.9, 1e-12))
    assert.is_true(near(b.hx, 1.8, 1e-12) and near(b.hy, 0.15, 1e-12))
    assert.equal(0, b.angle)
    assert.equal(-4, b.spin)
    local want = { { 3.5, 0.85 }, { 35, 3.4 }, { 44.5, 0.4 }, { 54.5, 0.6 } }
    for i, c in ipairs(g.coins) do
      local cx, cy = c.box:center()
      assert.is_true(near(cx, want[i][1], 1e-12) and near(cy, want[i][2], 1e-12), "coin " .. i)
      assert.same({ 0.25, 0.25 }, { c.box:half_extents() })
    end
    assert.same({ x = 1, y = 0 }, g.start)
    assert.same({ x = 40, y = 0 }, g.checkpoint)
    assert.same({ x = 95, y = 4 }, g.goal)
    assert.same({ 1, game.HY }, { g.player.x, g.player.y })
    assert.same({ x = -3, y = -1, w = 101, h = 9 }, g.bounds)
  end)

  it("places the blocks: the step, lower than the kit's step, and the ledge, just above the jump's top", function()
    local step, ledge = g.blocks.step, g.blocks.ledge
    local function box(e)
      local cx, cy = e.box:center()
      local hx, hy = e.box:half_extents()
      return { cx, cy, hx, hy, e.box:angle() }
    end
    assert.same({ 3.25, 0.125, 1.25, 0.125, 0 }, box(step))   -- x 2 to 4.5, 8 pixels high on the floor
    assert.same({ 11, 1.59375, 1, 1.59375, 0 }, box(ledge))   -- x 10 to 12, 102 pixels high
    assert.equal(0.25, step.top)
    assert.equal(102 / 32, ledge.top)
    assert.is_true(step.top <= game.STEP and game.STEP < 2 * step.top)
    -- the jump's top, integrated as game.lua does (a step's velocity, then
    -- its move): 1.2 pixels below the ledge's top, within the correction
    local vy, y, top = game.JUMP, 0, 0
    for _ = 1, 120 do
      vy = vy + game.GRAVITY * game.DT
      y = y + vy * game.DT
      top = math.max(top, y)
    end
    assert.is_true(near((ledge.top - top) * 32, 1.2, 1e-9), (ledge.top - top) * 32 .. " pixels")
    assert.is_true(ledge.top - top < game.CORNER)
    -- a block of no name the game knows is refused
    local copy = dofile(MAP)
    for _, o in ipairs(copy.layers[2].objects) do
      if o.name == "ledge" then o.name = "wall" end
    end
    local ok, err = pcall(game.new, copy)
    assert.is_false(ok)
    assert.matches('map object 18 %("wall"%): "block" is no kind the game knows', err)
  end)

  it("refuses a map object of no kind it knows, naming it", function()
    local copy = dofile(MAP)
    local objects = copy.layers[2].objects
    objects[#objects + 1] = { id = 99, name = "lava", type = "lava", shape = "rectangle",
      x = 0, y = 0, width = 32, height = 32, rotation = 0, properties = {} }
    local ok, err = pcall(game.new, copy)
    assert.is_false(ok)
    assert.matches('map object 99 %("lava"%): "lava" is no kind the game knows', err)
  end)

  it("places the moving solids: the elevator, the platform, the crusher and the see-saw", function()
    local function box(e)
      local cx, cy = e.box:center()
      local hx, hy = e.box:half_extents()
      return { cx, cy, hx, hy }
    end
    local e, pl, c, s = g.elevator, g.platform, g.crusher, g.seesaw
    assert.same({ 67, 0.875, 1, 0.125 }, box(e))     -- its top flush with the ledge's
    assert.same({ 0, 4, 2, 1, 2, 1.5 }, { e.dx, e.dy, e.go, e.hold, e.back, e.rest })
    assert.same({ 77.5, 4.875, 1.5, 0.125 }, box(pl)) -- its top flush with the cliff's
    assert.same({ 5, 0 }, { pl.dx, pl.dy })
    assert.same({ 72, 7.5, 1, 0.5 }, box(c))          -- up, 2 above the cliff
    assert.same({ 0, -2, 0.25, 0.5, 1, 1.25, 1.28 }, { c.dx, c.dy, c.go, c.hold, c.back, c.rest, c.phase })
    local sb = box(s)
    assert.is_true(near(sb[1], 89, 1e-12) and near(sb[2], 4.9, 1e-12) and near(sb[3], 2.6, 1e-12))
    assert.same({ 0.35, 1.2, 0.15 }, { s.tilt, s.rate, s.lean })
    -- the movers' ends: exactly where they start and (dx, dy) from there
    local function at(m, t) local x, y = game.path(m, t) return { x, y } end
    assert.same({ 67, 4.875 }, at(e, e.go))
    assert.same({ 82.5, 4.875 }, at(pl, pl.go - pl.phase))
    assert.same({ 77.5, 4.875 }, at(pl, 0))
  end)

  it("walks back from the last ledge to the left wall, down and up every ramp the other way, without a snag", function()
    local h, input = game.new(map), {}
    local p = h.player
    p.x, p.y = 59, 1 + p.hy
    h.world:update(p, p.x, p.y, game.HX, p.hy)
    local jumps, up, down_step = { 53.2, 15.2 }, {}, false
    for _ = 1, 1200 do
      input.left, input.right = true, false
      input.crouch = p.x > 41 and p.x < 48 -- under the bar
      input.jump = jumps[1] ~= nil and p.x <= jumps[1] -- over the wall, onto the ledge from the 20 degree ramp
      if input.jump then table.remove(jumps, 1) end
      local y0, g0 = p.y, p.ground
      h:step(input)
      assert.is_nil(h:check_step())
      if p.ground and p.ground.kind == "ramp" and p.y > y0 then up[p.ground.deg] = true end
      -- off the step's far end, kept on the floor (snap): on the step, then on the floor below
      if g0 == h.blocks.step and p.grounded and p.ground.kind == "tile" then down_step = true end
    end
    assert.is_nil(next(jumps))
    -- it went up the 35 degree ramp (the 20 one is downhill this way), up
    -- the step and down off it on the floor, and stopped at the wall,
    -- touching it
    assert.is_true(up[35])
    assert.is_truthy(h.stats.stepped and h.stats.stood.ledge)
    assert.is_true(down_step)
    assert.is_true(near(p.x, -2 + game.HX, 1e-12), "stopped at x = " .. p.x)
    assert.is_true(h.stats.flat_steps >= 200)
  end)

  it("is what Tiled exports from " .. TMX .. ", the file to edit in Tiled", function()
    local tmx = read_tmx(TMX)
    for _, k in ipairs { "width", "height", "tilewidth", "tileheight", "nextobjectid" } do
      assert.equal(map[k], tonumber(tmx.attrs[k]), k)
    end
    assert.same(map.properties, tmx.properties)
    assert.equal(#map.layers, #tmx.layers)
    local objects = 0
    for i, layer in ipairs(map.layers) do
      local t = tmx.layers[i]
      assert.equal(layer.name, t.attrs.name)
      if layer.type == "tilelayer" then
        assert.same(layer.data, t.data)
      else
        assert.equal(#layer.objects, #t.objects, layer.name)
        for j, o in ipairs(layer.objects) do
          local a = t.objects[j].attrs
          assert.equal(o.id, tonumber(a.id))
          assert.equal(o.name, a.name or "")
          assert.equal(o.type, a.type or "")
          assert.equal(o.shape, t.objects[j].point and "point" or "rectangle")
          for _, k in ipairs { "x", "y", "width", "height", "rotation" } do
            assert.equal(o[k], tonumber(a[k] or 0), ("object %d's %s"):format(o.id, k))
          end
          assert.same(o.properties, t.objects[j].properties)
          objects = objects + 1
        end
      end
    end
    assert.equal(18, objects)
  end)
end)
