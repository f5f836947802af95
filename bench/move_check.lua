-- bench/move_check.lua: bump.lua's world:move against bench/lua_mover.lua
-- on axis-aligned scenes, where both should agree except where bump is
-- known to differ from the rules of obb's world:move (issue 19).
--
--   OBB_BENCH_BUMP=/path/to/bump.lua luajit bench/move_check.lua [-v]
--
-- (any Lua from 5.1 works; run from the repository's root; about a minute
-- under Lua 5.4). Scenes: bump's README example, bump's own specs of
-- world:move (spec/World_spec.lua) and of its responses
-- (spec/responses_spec.lua), a platformer (flush tiles, seams, a wall,
-- steps; players landing anywhere and running over seams), seams met at a
-- corner, and random movers among random tiles with random responses per
-- pair (on a 16 px grid with integer sizes and steps, where exact contacts
-- are common, and anywhere with any size). Each scene is played through
-- both worlds: bump's boxes are left, top, width, height, the mover's
-- centers and half extents, the same rectangles. Every move compares the
-- final position (to 1e-9) and the collision lists (other, response,
-- normal, and the position at contact to 1e-9). A move that disagrees is
-- sorted into a kind, printed (with -v every one, else the first three of
-- each kind per section), and bump's item is put where the mover's ended,
-- so one disagreement does not spread to the next moves.
--
-- Everything is played twice: with the mover answering every other met at
-- one time (the rules as written), and answering the most head-on one,
-- then testing the rest again on the next leg (bump's way; lua_mover's
-- retest_ties). The kinds, as the summary names them:
--   start inside: bump jumps out     the item overlapped a solid other
--       when the move began: bump moves it back along the move's line to
--       where it would have entered (bump issue 37); the rules keep it and
--       make the penetration normal a plane (here items end inside others
--       they crossed, and the other's own filter may call them solid)
--   start inside: contact reported differently    the same end; bump
--       reports the contact where the line entered (ti < 0) with that
--       side's normal, the rules t = 0 and the penetration normal
--   bump snags on a seam    bump stops at the side of the next tile of a
--       flush floor (or wall): in bump's arithmetic (other - item - size)
--       rounding puts the item inside the floor's row by about 1e-14, so
--       that tile's side is in the way; the band of the rules lets it pass
--   bump ends inside a solid other it met before    bump never tests an
--       other again once met in a move: a bounce back (or a slide) passes
--       through it
--   ends differ: the mover meets an other again    the same, when bump's
--       end is not inside the other any more
--   tie: the mover answers every tied other    several others met at one
--       time: the rules answer (and report) all of them, bump the nearest,
--       then tests the rest again after its response; a touch among them
--       stops the rules' move, and a slide pressed into a flush wall (or a
--       floor) whose seam is exactly at the item's corner snags: the next
--       tile's corner is met at the same time, its normal (the axis entered
--       last through the band) across the slide ("seams met at a corner")
--   tie in t and in distance: order unspecified    equal time and equal
--       distance between centers: bump's order is table.sort over pairs()
--   tie near t = 0: bump's rounding orders it    both at t = 0 for the
--       rules, bump's ti are +-1e-15 apart
--   normal at an exact corner hit    the item meets a corner exactly:
--       bump takes the x axis's normal (its side order), the rules the axis
--       entered last through the band (the slower of the two components)
--   other kinds ("order", "only bump reports", ...) are rare; a new one is
--       worth a look
local path = os.getenv("OBB_BENCH_BUMP")
if not path or not io.open(path, "r") then
  print("move_check: set OBB_BENCH_BUMP to bump.lua 3.1.7's path")
  os.exit(1)
end
package.path = "./bench/?.lua;" .. package.path
local bump = dofile(path)
local mover = require "lua_mover"

local VERBOSE = arg[1] == "-v"
local TOL = 1e-9
local abs = math.abs

local rng = require "rng" -- bench/rng.lua

-- Disagreements, by kind, over all scenes.
local kinds, kind_order, shown = {}, {}, {}
local moves_total, moves_bad = 0, 0

local function note_kind(kind, text)
  if not kinds[kind] then
    kinds[kind] = 0
    kind_order[#kind_order + 1] = kind
  end
  kinds[kind] = kinds[kind] + 1
  shown[kind] = (shown[kind] or 0) + 1
  if VERBOSE or shown[kind] <= 3 then print("  [" .. kind .. "] " .. text) end
end

-- A scene: both worlds, the rectangles by item.
local mover_opts -- the tie rule of the pass being played
local function new_scene(cell)
  return { b = bump.newWorld(cell or 64), m = mover.new(cell or 64, mover_opts), rect = {}, items = {} }
end

local function add(sc, item, x, y, w, h)
  sc.b:add(item, x, y, w, h)
  sc.m:add(item, x + w / 2, y + h / 2, w / 2, h / 2, 0)
  sc.rect[item] = { x, y, w, h }
  sc.items[#sc.items + 1] = item
end

local function fmt_cols_bump(cols, len)
  local t = {}
  for i = 1, len do
    local c = cols[i]
    t[i] = ("%s %s (%g,%g) t=%.17g at (%.17g,%.17g)"):format(tostring(c.other), c.type, c.normal.x,
                                                            c.normal.y, c.ti, c.touch.x, c.touch.y)
  end
  return "{" .. table.concat(t, "; ") .. "}"
end

local function fmt_cols_mover(out, n, w, h)
  local t = {}
  for i = 0, n - 1 do
    local b = i * 8
    t[i + 1] = ("%s %s (%g,%g) t=%.17g at (%.17g,%.17g)"):format(tostring(out[b + 1]), out[b + 2],
                                                                out[b + 4], out[b + 5], out[b + 3],
                                                                out[b + 6] - w / 2, out[b + 7] - h / 2)
  end
  return "{" .. table.concat(t, "; ") .. "}"
end

-- Whether the item, its center at (cx, cy), overlaps (deeper than the
-- band) some other.
local function inside_at(sc, item, cx, cy, filter)
  local r = sc.rect[item]
  for _, o in ipairs(sc.items) do
    local resp = "slide"
    if filter then resp = filter(item, o) end
    if o ~= item and resp and resp ~= "cross" then
      local q = sc.rect[o]
      local ox, oy = sc.m:get(o)
      if mover.pair(cx, cy, 1, 0, r[3] / 2, r[4] / 2, ox, oy, 1, 0, q[3] / 2, q[4] / 2, 0, 0) == 1 then
        return true
      end
    end
  end
  return false
end

local function inside(sc, item)
  return inside_at(sc, item, sc.m:get(item))
end

local function mover_has(out, n, other)
  for k = 0, n - 1 do
    if out[k * 8 + 1] == other then return k end
  end
  return nil
end

local function bump_has(cols, len, other)
  for i = 1, len do
    if cols[i].other == other then return i end
  end
  return nil
end

local function center_d2(sc, item, o)
  local r, q = sc.rect[item], sc.rect[o]
  local dx = r[1] + r[3] / 2 - q[1] - q[3] / 2
  local dy = r[2] + r[4] / 2 - q[2] - q[4] / 2
  return dx * dx + dy * dy
end

-- Sorts a disagreement into a kind (see the header); r is the item's
-- rectangle before the move.
local function classify(sc, item, filter, start_inside, same_end, bx, by, cols, len, out, n)
  local r = sc.rect[item]
  if start_inside then
    return same_end and "start inside: contact reported differently" or "start inside: bump jumps out"
  end
  if inside_at(sc, item, bx + r[3] / 2, by + r[4] / 2, filter) then
    return "bump ends inside a solid other it met before"
  end
  local suffix = same_end and "" or ", ends differ"
  -- the first place where the two lists differ
  local i = 1
  while i <= len and i <= n and cols[i].other == out[(i - 1) * 8 + 1] do
    local bi = (i - 1) * 8
    if cols[i].normal.x ~= out[bi + 4] or cols[i].normal.y ~= out[bi + 5] then
      return "normal at an exact corner hit" .. suffix
    end
    i = i + 1
  end
  local c, b = cols[i], (i - 1) * 8
  local tb = i <= n and out[b + 3]
  -- bump stops at the side of a tile the item only grazes: in bump's own
  -- arithmetic (the Minkowski difference, other - item - size) rounding
  -- puts the item inside the tile's row (or column) by less than 1e-9, so
  -- the tile's side is in its way (the rules' band lets it pass)
  if c and not mover_has(out, n, c.other) then
    local q, tx, ty = sc.rect[c.other], c.touch.x, c.touch.y
    local lo, hi
    if c.normal.x ~= 0 then
      lo = q[2] - ty - r[4]
      hi = lo + (r[4] + q[4])
    else
      lo = q[1] - tx - r[3]
      hi = lo + (r[3] + q[3])
    end
    if (lo < 0 and lo > -1e-9) or (hi > 0 and hi < 1e-9) then
      return "bump snags on a seam: rounding puts it inside by < 1e-9" .. suffix
    end
  end
  local function tied_before(t)
    for j = 1, i - 1 do
      if abs(cols[j].ti - t) <= 1e-12 then return true end
    end
    return false
  end
  if c and tb then
    local o = out[b + 1]
    if abs(c.ti - tb) <= 1e-12 and center_d2(sc, item, c.other) == center_d2(sc, item, o) then
      return "tie in t and in distance: order unspecified" .. suffix
    end
    if abs(c.ti) < 1e-12 and abs(tb) < 1e-12 then
      return "tie near t = 0: bump's rounding orders it" .. suffix
    end
    if not bump_has(cols, len, o) and tied_before(tb) then
      return "tie: the mover answers every tied other" .. suffix
    end
    if not mover_has(out, n, c.other) and tied_before(c.ti) then
      return "tie: bump answers one, then re-tests" .. suffix
    end
    return "order" .. suffix
  elseif tb then
    if tied_before(tb) then return "tie: the mover answers every tied other" .. suffix end
    return "only the mover reports" .. suffix
  elseif c then
    if tied_before(c.ti) then return "tie: bump answers one, then re-tests" .. suffix end
    return "only bump reports" .. suffix
  end
  for k = 1, len do
    local ck, bk = cols[k], (k - 1) * 8
    if ck.type ~= out[bk + 2] then return "response" .. suffix end
    if ck.normal.x ~= out[bk + 4] or ck.normal.y ~= out[bk + 5] then
      return "normal at an exact corner hit" .. suffix
    end
  end
  if not same_end then return "ends differ: the mover meets an other again (bump never re-tests one)" end
  return "other"
end

-- One move in both worlds: item to the goal (left, top) with filter.
local function move(sc, label, item, gx, gy, filter, out)
  local r = sc.rect[item]
  local w, h = r[3], r[4]
  local start_inside = inside(sc, item)
  local bx, by, cols, len = sc.b:move(item, gx, gy, filter)
  local mx, my, n = sc.m:move(item, gx + w / 2, gy + h / 2, filter, out)
  moves_total = moves_total + 1
  local same_end = abs(bx - (mx - w / 2)) <= TOL and abs(by - (my - h / 2)) <= TOL
  local ok = same_end and len == n
  if ok then
    for i = 1, len do
      local c, b = cols[i], (i - 1) * 8
      if c.other ~= out[b + 1] or c.type ~= out[b + 2] or abs(c.normal.x - out[b + 4]) > 1e-12 or
         abs(c.normal.y - out[b + 5]) > 1e-12 or abs(c.touch.x - (out[b + 6] - w / 2)) > TOL or
         abs(c.touch.y - (out[b + 7] - h / 2)) > TOL then
        ok = false
      end
    end
  end
  if not ok then
    moves_bad = moves_bad + 1
    local kind = classify(sc, item, filter, start_inside, same_end, bx, by, cols, len, out, n)
    note_kind(kind, ("%s: %s from (%.17g,%.17g) to (%.17g,%.17g)\n      bump  (%.17g,%.17g) %s\n"
                     .. "      mover (%.17g,%.17g) %s")
                    :format(label, tostring(item), r[1], r[2], gx, gy, bx, by, fmt_cols_bump(cols, len),
                            mx - w / 2, my - h / 2, fmt_cols_mover(out, n, w, h)))
    sc.b:update(item, mx - w / 2, my - h / 2)
  end
  r[1], r[2] = mx - w / 2, my - h / 2
  return mx - w / 2, my - h / 2, n
end

local function section(title)
  print("")
  print("## " .. title)
  shown = {}
end

local out = {}
local function always(response) return function() return response end end

-- Random movers among random tiles, random responses per pair; items and
-- tiles of integer sizes on a 16 px grid (many exact contacts) or of any
-- size anywhere.
local function random_scene(seed, grid, frames)
  local r = rng(seed)
  local sc = new_scene(32)
  local T = 16
  local occupied = {}
  local ntiles = 0
  for _ = 1, 160 do
    local tx, ty = math.floor(r() * 40), math.floor(r() * 25)
    local x, y, w, h
    if grid then
      x, y, w, h = tx * T, ty * T, T, T
      if r() < 0.3 then w = 2 * T end
    else
      x, y, w, h = r() * 640, r() * 400, 4 + r() * 28, 4 + r() * 28
    end
    local key = tx * 100 + ty
    if not grid or not occupied[key] then
      occupied[key] = true
      ntiles = ntiles + 1
      add(sc, "t" .. ntiles, x, y, w, h)
    end
  end
  -- movers where they overlap nothing
  local movers, vel = {}, {}
  local tries = 0
  while #movers < 40 and tries < 10000 do
    tries = tries + 1
    local w, h
    if grid then w, h = 8 + math.floor(r() * 8), 8 + math.floor(r() * 8)
    else w, h = 3 + r() * 14, 3 + r() * 14 end
    local x, y = r() * 620, r() * 380
    if grid then x, y = math.floor(x), math.floor(y) end
    local name = "m" .. (#movers + 1)
    local free = true
    for _, o in ipairs(sc.items) do
      local q = sc.rect[o]
      if x < q[1] + q[3] and q[1] < x + w and y < q[2] + q[4] and q[2] < y + h then free = false end
    end
    if free then
      add(sc, name, x, y, w, h)
      movers[#movers + 1] = name
      vel[name] = { (r() - 0.5) * 12, (r() - 0.5) * 12 }
    end
  end
  local responses = { "slide", "slide", "slide", "touch", "cross", "bounce", false }
  local function filter(item, other)
    local h = 0
    for i = 1, #item do h = (h * 31 + item:byte(i)) % 1000003 end
    for i = 1, #other do h = (h * 37 + other:byte(i)) % 1000003 end
    return responses[h % #responses + 1]
  end
  for f = 1, frames do
    for _, name in ipairs(movers) do
      local v = vel[name]
      local q = sc.rect[name]
      local dx, dy = v[1], v[2]
      if grid then dx, dy = math.floor(dx + 0.5), math.floor(dy + 0.5) end
      move(sc, ("seed %d frame %d"):format(seed, f), name, q[1] + dx, q[2] + dy, filter, out)
      -- a random walk, kept inside the scene
      v[1], v[2] = v[1] + (r() - 0.5) * 2, v[2] + (r() - 0.5) * 2
      if q[1] < 0 or q[1] > 640 then v[1] = (320 - q[1]) * 0.02 end
      if q[2] < 0 or q[2] > 400 then v[2] = (200 - q[2]) * 0.02 end
    end
  end
end

local function play_scenes()
  -- bump's README: B falls on A and stops on it.
  section("bump's README example")
  do
    local sc = new_scene(50)
    add(sc, "A", 0, 0, 64, 256)
    add(sc, "B", 0, -100, 32, 32)
    local x, y, n = move(sc, "README", "B", 0, 64, nil, out)
    print(("  B ends at %g,%g with %d collision(s) (README: 0,-32, 1)"):format(x, y, n))
  end

  -- bump's own specs of world:move (spec/World_spec.lua), one per response.
  section("bump's World_spec move cases: touch, cross, slide, bounce")
  for _, resp in ipairs({ "touch", "cross", "slide", "bounce" }) do
    local sc = new_scene(64)
    add(sc, "a", 0, 0, 1, 1)
    if resp == "slide" then
      add(sc, "b", 0, 2, 1, 2)
      add(sc, "c", 2, 1, 1, 1)
      move(sc, resp, "a", 5, 5, always(resp), out)
    elseif resp == "bounce" then
      add(sc, "b", 0, 2, 1, 2)
      move(sc, resp, "a", 0, 5, always(resp), out)
    else
      add(sc, "b", 0, 2, 1, 1)
      add(sc, "c", 0, 3, 1, 1)
      move(sc, resp, "a", 0, 5, always(resp), out)
    end
  end

  -- bump's response specs (spec/responses_spec.lua), as moves in a world:
  -- a 2x2 item against the 8x8 box at 0,0.
  section("bump's responses_spec cases: tunnels (and overlaps, which differ)")
  do
    local cases = {
      -- x, y, goal x, goal y, response (tunnels)
      { -3, 3, 3, 3, "touch" }, { 9, 3, 3, 3, "touch" }, { 3, -3, 3, 3, "touch" }, { 3, 9, 3, 3, "touch" },
      { 10, 10, 1, 4, "slide" }, { 10, 10, 4, 1, "slide" }, { 10, 10, 1, 1, "slide" },
      { 10, 10, 1, 4, "bounce" }, { 10, 10, 4, 1, "bounce" }, { 10, 10, 1, 1, "bounce" },
      -- overlaps: the item starts inside (bump issue 37)
      { 3, 3, 4, 3, "touch" }, { 3, 3, 3, 4, "touch" }, { 3, 3, 4, 5, "slide" }, { 3, 3, 2, 1, "slide" },
      { 3, 3, 4, 5, "bounce" },
    }
    for i, c in ipairs(cases) do
      local sc = new_scene(64)
      add(sc, "box", 0, 0, 8, 8)
      add(sc, "item", c[1], c[2], 2, 2)
      move(sc, ("case %d %s"):format(i, c[5]), "item", c[3], c[4], always(c[5]), out)
    end
  end

  -- A platformer: a floor of flush 16 px tiles, a wall of flush tiles, steps;
  -- a 12x14 player falls onto the seams, runs across them with gravity, into
  -- the wall while falling, up and over the steps.
  section("platformer: flush tiles, seams, a wall, steps")
  do
    local sc = new_scene(64)
    local T = 16
    for i = 0, 39 do add(sc, "floor" .. i, i * T, 320, T, T) end
    for j = 1, 10 do add(sc, "wall" .. j, 30 * T, 320 - j * T, T, T) end
    for k = 1, 4 do
      for j = 1, k do add(sc, ("step%d_%d"):format(k, j), (10 + k) * T, 320 - j * T, T, T) end
    end
    -- players dropped on seams and tile middles, at several speeds
    local p = 0
    for _, x0 in ipairs({ 16 - 6, 32 - 6, 40, 64 - 0.5, 100.25 }) do
      for _, vx in ipairs({ 0, 1.5, -2.25, 3.7, 5 }) do
        p = p + 1
        local name = "player" .. p
        add(sc, name, x0, 200, 12, 14)
        local r = sc.rect[name]
        local vy = 0
        for f = 1, 120 do
          vy = vy + 0.4
          if vy > 7 then vy = 7 end
          local _, _, n = move(sc, ("%s frame %d"):format(name, f), name, r[1] + vx, r[2] + vy,
                               function(_, o) return o:match("^player") and "cross" or "slide" end, out)
          for k = 0, n - 1 do
            if out[k * 8 + 2] == "slide" and out[k * 8 + 5] ~= 0 then vy = 0 end
            if out[k * 8 + 2] == "slide" and out[k * 8 + 4] ~= 0 then vx = -vx end
          end
          if f % 37 == 0 then vy = -6 end -- jump
        end
      end
    end
  end


  -- Players landing on a long floor of flush tiles from many heights, then
  -- running across its seams with gravity, as the bench's movers do.
  section("platformer: landing anywhere, running over seams")
  do
    local sc = new_scene(64)
    for i = 0, 199 do add(sc, "f" .. i, i * 16, 400, 16, 16) end
    local r = rng(5)
    for p = 1, 60 do
      local name = "runner" .. p
      local w, h = 10 + r() * 4, 11 + r() * 3
      add(sc, name, p * 50 + r() * 10, 300 + r() * 80, w, h)
      local q = sc.rect[name]
      local vx, vy = (r() - 0.5) * 6, 0
      for f = 1, 150 do
        vx = math.max(-3, math.min(3, vx + (r() - 0.5) * 0.6))
        vy = math.min(8, vy + 0.4)
        local _, _, n = move(sc, ("%s frame %d"):format(name, f), name, q[1] + vx, q[2] + vy,
                             function(_, o) return o:match("^runner") and "cross" or "slide" end, out)
        for k = 0, n - 1 do
          local nx, ny = out[k * 8 + 4], out[k * 8 + 5]
          local d = vx * nx + vy * ny
          if out[k * 8 + 2] == "slide" and d < 0 then vx, vy = vx - d * nx, vy - d * ny end
        end
      end
    end
  end

  -- Seams met at a corner: the item presses into a flush surface and its
  -- corner is exactly at the seam, so it touches the next tile's corner at
  -- the same time as the face it slides on.
  section("seams met at a corner: a wall of flush tiles, a floor of flush tiles")
  do
    local sc = new_scene(64)
    add(sc, "wall1", 100, 0, 16, 16)
    add(sc, "wall2", 100, 16, 16, 16)
    add(sc, "down", 88, 4, 12, 12)      -- its bottom at the wall's seam (y = 16)
    move(sc, "slide down a wall, pressing in (vx > vy)", "down", 88 + 5, 4 + 2, nil, out)
    add(sc, "floor1", 200, 100, 16, 16)
    add(sc, "floor2", 216, 100, 16, 16)
    add(sc, "run", 204, 88, 12, 12)     -- its right side at the floor's seam (x = 216)
    move(sc, "run over a floor, falling (vy > vx)", "run", 204 + 2, 88 + 5, nil, out)
  end
end

local function play()
  play_scenes()
  section("random movers among tiles on a 16 px grid, integer sizes and steps")
  for seed = 1, 6 do random_scene(seed, true, 60) end
  section("random movers among boxes of any size, anywhere")
  for seed = 11, 16 do random_scene(seed, false, 60) end
end

-- The rules as written answer every other met at one time; the variant
-- answers the most head-on one, then tests the rest again (bump's way).
local summaries = {}
for pass, opts in ipairs({ { name = "every tied other answered (the rules as written)" },
                           { name = "ties answered one by one, then re-tested", retest_ties = true } }) do
  print("")
  print(("# pass %d: %s"):format(pass, opts.name))
  mover_opts = opts
  kinds, kind_order, moves_total, moves_bad = {}, {}, 0, 0
  play()
  summaries[pass] = { opts.name, moves_total, moves_bad, kinds, kind_order }
end
for _, sm in ipairs(summaries) do
  print("")
  print(("%s: %d moves, %d disagree with bump"):format(sm[1], sm[2], sm[3]))
  for _, k in ipairs(sm[5]) do print(("  %-64s %d"):format(k, sm[4][k])) end
end
