-- spec/events_spec.lua: sensors and events (world:set_sensor,
-- world:set_sensor_class, world:events; docs/reference.md, "Sensors and
-- events"), against brute-force references:
--   - for random worlds changed every way (teleports, adds, removes, moves
--     that slide and bounce, sensors marked and unmarked, classes), the
--     events since the last call, applied to the sensor pairs world:pairs
--     gave then, give the sensor pairs it gives now, each pair's events
--     alternating (a begin only for a pair that was not, an end only for
--     one that was);
--   - without moves, the events are exactly the difference of the two;
--   - a move through sensors: every sensor some sampled pose of the motion
--     meets gets its begin and its end (the begin no later than the first
--     sampled contact, the end no earlier than the last), and every event
--     is at a pose within rounding of touching its sensor: none invented.
local obb = require "obb"
local H = require "spec.helpers"

local unpack = H.unpack

-- The pairs of a sensor and an item that is not one, as world:pairs has
-- them: set[sensor][item] = true.
local function sensor_pairs(w, out)
  local n, set = w:pairs(out), {}
  for i = 1, n do
    local a, b = out[2 * i - 1], out[2 * i]
    local sa, sb = w:sensor(a), w:sensor(b)
    if sa ~= sb then
      if sb then a, b = b, a end
      set[a] = set[a] or {}
      set[a][b] = true
    end
  end
  return set
end

local function count(set)
  local n = 0
  for _, t in pairs(set) do for _ in pairs(t) do n = n + 1 end end
  return n
end

local function same_sets(a, b)
  for s, t in pairs(a) do
    for o in pairs(t) do if not (b[s] and b[s][o]) then return false, s, o end end
  end
  for s, t in pairs(b) do
    for o in pairs(t) do if not (a[s] and a[s][o]) then return false, s, o end end
  end
  return true
end

local function name(x) return type(x) == "table" and (x.name or "?") or tostring(x) end

-- Applies n events of out to set (in place), checking that they alternate;
-- returns how many came with a time.
local function fold(set, out, n)
  local timed = 0
  for i = 0, n - 1 do
    local s, o, kind, t = out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], out[4 * i + 4]
    assert(s ~= nil and o ~= nil, "an event without its items")
    if kind == "begin" then
      assert(not (set[s] and set[s][o]), "a begin for a pair that was: " .. name(s) .. " " .. name(o))
      set[s] = set[s] or {}
      set[s][o] = true
    else
      assert(kind == "end", "kind " .. tostring(kind))
      assert(set[s] and set[s][o], "an end for a pair that was not: " .. name(s) .. " " .. name(o))
      set[s][o] = nil
    end
    if t ~= false then
      assert(type(t) == "number" and t >= 0 and t <= 1, "t " .. tostring(t))
      timed = timed + 1
    end
  end
  return timed
end

local function box_args(r, dim, spread, big)
  local s = big and 4 or 1.5
  if dim == 2 then
    return r.range(-spread, spread), r.range(-spread, spread), r.range(0.05, s), r.range(0.05, s),
           r.int(1, 3) == 1 and 0 or r.range(-3, 3)
  end
  local qx, qy, qz, qw = r.quat()
  if r.int(1, 3) == 1 then qx, qy, qz, qw = 0, 0, 0, 1 end
  return r.range(-spread, spread), r.range(-spread, spread), r.range(-spread, spread),
         r.range(0.05, s), r.range(0.05, s), r.range(0.05, s), qx, qy, qz, qw
end

describe("events", function()
  describe("against world:pairs", function()
    -- A random script on a world of 40 items (a third sensors, some by
    -- their class), events asked every few steps.
    local function script(dim, seed, moves, steps, solids)
      local r = H.rng(seed)
      local w
      if solids then -- with an up, so that what rests on a solid rides it
        w = dim == 2 and obb.world2({ up = { 0, 1 } }) or obb.world3({ up = { 0, 1, 0 } })
      else
        w = dim == 2 and obb.world2() or obb.world3()
      end
      local items, out, ev = {}, {}, {}
      for i = 1, 40 do items[i] = { name = "i" .. i } end
      local SENSE = 7
      w:set_sensor_class(SENSE)
      local set = sensor_pairs(w, out)
      local set_filter = obb.responses({ [SENSE] = "slide", [2] = "cross", default = "slide" })
      local filters = { nil, "slide", "touch", "bounce", "cross", set_filter,
                        function() return "slide" end }
      local solid_set = obb.responses({ [SENSE] = "push", [2] = "ride", default = "stand" })
      local solid_filters = { nil, "push", "ride", "stand", "cross", solid_set,
                              function(_, _, ...) return select(select("#", ...), ...) end }
      local total, timed, lone = 0, 0, 0
      for step = 1, steps do
        local it = items[r.int(1, #items)]
        local op = r.int(1, solids and 16 or moves and 12 or 7)
        if not w:has(it) then
          w:add(it, box_args(r, dim, 8, r.int(1, 10) == 1))
          if r.int(1, 3) == 1 then w:set_sensor(it) end
          if r.int(1, 6) == 1 then w:set_class(it, SENSE) end
        elseif op == 1 then
          w:remove(it)
        elseif op <= 3 then
          w:update(it, box_args(r, dim, 8, r.int(1, 10) == 1))
        elseif op == 4 then
          w:set_sensor(it, not w:sensor(it))
        elseif op == 5 then
          w:set_class(it, ({ 0, SENSE, 2 })[r.int(1, 3)])
        elseif op == 6 then
          local x, y, z = w:get(it)
          if dim == 2 then w:update(it, x + r.range(-0.3, 0.3), y, 1, 1)
          else w:update(it, x, y + r.range(-0.3, 0.3), z, 1, 1, 1) end
        elseif op == 7 then
          if r.int(1, 20) == 1 then w:set_sensor_class(SENSE, not w:sensor_class(SENSE)) end
        elseif op >= 13 then
          -- a moving solid (a sensor among them, now and then): what it
          -- carries and pushes moves as a move does, through sensors
          local x, y, z = w:get(it)
          local f = solid_filters[r.int(1, #solid_filters)]
          local movers = ({ nil, "slide", "cross", set_filter })[r.int(1, 4)]
          local dst = r.int(1, 2) == 1 and out or nil
          local gx, gy, gz = x + r.range(-4, 4), y + r.range(-4, 4), (z or 0) + r.range(-4, 4)
          if dim == 2 then
            if op == 13 then w:move_solid(it, gx, gy, r.range(-3, 3), f, dst, movers)
            else w:move_solid(it, gx, gy, f, dst, movers) end
          else
            if op == 13 then
              local qx, qy, qz, qw = r.quat()
              w:move_solid(it, gx, gy, gz, qx, qy, qz, qw, f, dst, movers)
            else
              w:move_solid(it, gx, gy, gz, f, dst, movers)
            end
          end
        else
          local x, y, z = w:get(it)
          local f = filters[r.int(1, #filters)]
          local gx, gy, gz = x + r.range(-10, 10), y + r.range(-10, 10), (z or 0) + r.range(-10, 10)
          if op == 8 then gx, gy, gz = x, y, z end -- no length
          local args = dim == 2 and { gx, gy } or { gx, gy, gz }
          if op == 9 then -- turning
            if dim == 2 then args[3] = r.range(-3, 3)
            else args[4], args[5], args[6], args[7] = r.quat() end
          end
          local k = dim == 2 and (op == 9 and 3 or 2) or (op == 9 and 7 or 3)
          args[k + 1], args[k + 2] = f, out
          if op == 10 then w:check(it, unpack(args, 1, k + 2))
          elseif op == 11 then w:push(it, f ~= "cross" and f or nil)
          else w:move(it, unpack(args, 1, k + 2)) end
        end
        if r.int(1, 6) == 1 or step == steps then
          local n = w:events(ev)
          local before = count(set)
          timed = timed + fold(set, ev, n)
          total = total + n
          local now = sensor_pairs(w, out)
          local ok, s, o = same_sets(set, now)
          assert(ok, ("step %d: the events leave %s %s %s"):format(step, name(s), name(o),
                 set[s] and set[s][o] and "paired (world:pairs has not)" or "apart (world:pairs pairs them)"))
          if not moves then
            -- exactly the difference: no pair gets two events, but for a
            -- pair one of whose items left (or stopped or started being a
            -- sensor) and came back
            lone = lone + math.abs(count(now) - before)
          end
          set = now
        end
      end
      w:close()
      return total, timed, lone
    end

    for _, dim in ipairs({ 2, 3 }) do
      it(("%dD: teleports, adds, removes, sensors marked and unmarked, classes"):format(dim), function()
        local total, timed = 0, 0
        for seed = 1, 12 do
          local n, t = script(dim, 1000 * dim + seed, false, 400)
          total, timed = total + n, timed + t
        end
        assert.is_true(total > 200, "events: " .. total)
        assert.are.equal(0, timed) -- no move: no time
      end)

      it(("%dD: with moves (slides, bounces, turns, pushes, checks, moves of no length)"):format(dim), function()
        local total, timed = 0, 0
        for seed = 1, 12 do
          local n, t = script(dim, 2000 * dim + seed, true, 500)
          total, timed = total + n, timed + t
        end
        assert.is_true(total > 200 and timed > 50, ("events: %d, %d timed"):format(total, timed))
      end)
    end

    for _, dim in ipairs({ 2, 3 }) do
      it(("%dD: with moving solids (riders carried and others pushed through sensors, "
          .. "sensors moved as solids)"):format(dim), function()
        local total, timed = 0, 0
        for seed = 1, 10 do
          local n, t = script(dim, 3000 * dim + seed, true, 500, true)
          total, timed = total + n, timed + t
        end
        assert.is_true(total > 200 and timed > 50, ("events: %d, %d timed"):format(total, timed))
      end)
    end

    it("without moves, the events are the difference of the pairs", function()
      local r = H.rng(77)
      for dim = 2, 3 do
        local w = dim == 2 and obb.world2() or obb.world3()
        local items, out, ev = {}, {}, {}
        for i = 1, 30 do
          items[i] = { name = "i" .. i }
          w:add(items[i], box_args(r, dim, 6))
          if i % 4 == 0 then w:set_sensor(items[i]) end
        end
        local set = sensor_pairs(w, out)
        w:events(ev)
        for _ = 1, 200 do
          for _ = 1, r.int(1, 8) do
            w:update(items[r.int(1, #items)], box_args(r, dim, 6))
          end
          local n = w:events(ev)
          local now, diff = sensor_pairs(w, out), 0
          for s, t in pairs(now) do
            for o in pairs(t) do if not (set[s] and set[s][o]) then diff = diff + 1 end end
          end
          for s, t in pairs(set) do
            for o in pairs(t) do if not (now[s] and now[s][o]) then diff = diff + 1 end end
          end
          assert.are.equal(diff, n)
          fold(set, ev, n)
          assert.is_true((same_sets(set, now)))
        end
        w:close()
      end
    end)
  end)

  describe("of a move through sensors", function()
    -- The motion of a move that meets only sensors (crossed, so one leg:
    -- a straight line, and a constant turn), posed at time t.
    local function pose2(c, e, a, d, w, t)
      return obb.new2(c[1] + t * d[1], c[2] + t * d[2], e[1], e[2], a + t * w)
    end
    local function axis_quat(ax, ay, az, angle)
      local s = math.sin(angle / 2)
      return ax * s, ay * s, az * s, math.cos(angle / 2)
    end
    local function qmul(ax, ay, az, aw, bx, by, bz, bw)
      return aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
             aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz
    end
    local function pose3(c, e, q, d, axis, angle, t)
      local b = obb.new3(c[1] + t * d[1], c[2] + t * d[2], c[3] + t * d[3], e[1], e[2], e[3],
                         q[1], q[2], q[3], q[4])
      if angle ~= 0 then b:rotate(axis_quat(axis[1], axis[2], axis[3], t * angle)) end
      return b
    end

    -- One random case: a mover (a sensor itself when mover_sensor) moved
    -- through 30 thin or small others; returns counts.
    local SAMPLES = 400
    local function case(dim, r, turning, mover_sensor, stats)
      local w = dim == 2 and obb.world2() or obb.world3()
      local ev = {}
      local c, e, d = {}, {}, {}
      for q = 1, dim do
        c[q] = r.range(-3, 3)
        e[q] = r.range(0.05, 1)
        d[q] = r.range(-60, 60)
      end
      local a, q0, axis = 0, nil, nil
      local angle = turning and r.range(-3, 3) or 0
      if dim == 2 then
        a = r.range(-3, 3)
      else
        q0 = { r.quat() }
        if q0[4] < 0 then for k = 1, 4 do q0[k] = -q0[k] end end
        local x, y, z = r.normal(), r.normal(), r.normal()
        local n = math.sqrt(x * x + y * y + z * z)
        axis = { x / n, y / n, z / n }
      end
      local mover = { name = "mover" }
      if dim == 2 then w:add(mover, c[1], c[2], e[1], e[2], a)
      else w:add(mover, c[1], c[2], c[3], e[1], e[2], e[3], q0[1], q0[2], q0[3], q0[4]) end
      if mover_sensor then w:set_sensor(mover) end
      local others = {}
      for i = 1, 30 do
        local t = r.uniform()
        local o = { name = "s" .. i }
        local p = {}
        for q = 1, dim do p[q] = c[q] + t * d[q] + r.range(-2.5, 2.5) end
        local h = {}
        for q = 1, dim do h[q] = r.range(0.01, 0.6) end
        if r.int(1, 2) == 1 then h[r.int(1, dim)] = r.range(0, 0.002) end -- thin
        if dim == 2 then w:add(o, p[1], p[2], h[1], h[2], r.range(-3, 3))
        else
          local x, y, z, ww = r.quat()
          w:add(o, p[1], p[2], p[3], h[1], h[2], h[3], x, y, z, ww)
        end
        if not mover_sensor then w:set_sensor(o) end
        others[i] = o
      end
      w:events(ev) -- where the mover starts
      local goal
      if dim == 2 then
        goal = { c[1] + d[1], c[2] + d[2] }
        if turning then goal[3] = a + angle end
      else
        goal = { c[1] + d[1], c[2] + d[2], c[3] + d[3] }
        if turning then
          local x, y, z, ww = axis_quat(axis[1], axis[2], axis[3], angle)
          goal[4], goal[5], goal[6], goal[7] = qmul(x, y, z, ww, q0[1], q0[2], q0[3], q0[4])
        end
      end
      goal[#goal + 1] = "cross"
      w:move(mover, unpack(goal, 1, #goal))
      local n = w:events(ev)
      local got = {}
      for i = 0, n - 1 do
        local s, o, kind, t = ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3], ev[4 * i + 4]
        local other = mover_sensor and o or s
        assert.are.equal(mover_sensor and mover or other, s)
        assert.are.equal(mover_sensor and other or mover, o)
        assert.is_number(t)
        got[other] = got[other] or {}
        got[other][#got[other] + 1] = { kind, t }
      end
      local function pose(t)
        if dim == 2 then return pose2(c, e, a, d, angle, t) end
        return pose3(c, e, q0, d, axis, angle, t)
      end
      local size = 0
      for q = 1, dim do size = size + math.abs(c[q]) + math.abs(d[q]) + e[q] end
      local eps = 1e-9 * size
      for _, o in ipairs(others) do
        local ob = obb.new2(0, 0, 1, 1)
        if dim == 3 then ob = obb.new3(0, 0, 0, 1, 1, 1) end
        w:get(o, ob)
        local first, last
        for i = 0, SAMPLES do
          if pose(i / SAMPLES):intersects(ob) then
            first = first or i / SAMPLES
            last = i / SAMPLES
          end
        end
        local at0, at1 = pose(0):intersects(ob), pose(1):intersects(ob)
        local list = got[o] or {}
        -- what the events say: begin (unless met at the start), end
        -- (unless met at the end), alternating
        local begin_t, end_t
        for k, e2 in ipairs(list) do
          if e2[1] == "begin" then
            assert.is_nil(begin_t, "two begins in one leg")
            begin_t = e2[2]
          else
            end_t = e2[2]
            assert.is_true(k == #list, "an end before the last event")
          end
          -- none invented: the motion touches the sensor there
          assert.is_true(pose(e2[2]):distance(ob) <= eps,
                         ("%s at t %.17g: %g apart"):format(e2[1], e2[2], pose(e2[2]):distance(ob)))
        end
        if first then
          stats.met = stats.met + 1
          if not at0 then
            assert.is_number(begin_t, "met, and no begin")
            assert.is_true(begin_t <= first + 1e-12, "a begin after the first sampled contact")
          else
            assert.is_nil(begin_t)
          end
          if not at1 then
            assert.is_number(end_t, "met, and no end")
            assert.is_true(end_t >= last - 1e-12, "an end before the last sampled contact")
          else
            assert.is_nil(end_t)
          end
          if not at0 and not at1 and last - first < 1.5 / SAMPLES then stats.brief = stats.brief + 1 end
        elseif #list > 0 then
          stats.between = stats.between + 1 -- met between samples: checked above
        end
      end
      w:close()
    end

    for _, dim in ipairs({ 2, 3 }) do
      for _, turning in ipairs({ false, true }) do
        for _, mover_sensor in ipairs({ false, true }) do
          local what = ("%dD, %s, %s"):format(dim, turning and "turning" or "straight",
                                            mover_sensor and "the mover a sensor" or "30 sensors")
          it(what, function()
            local r = H.rng(dim * 100 + (turning and 10 or 0) + (mover_sensor and 1 or 0))
            local stats = { met = 0, brief = 0, between = 0 }
            for _ = 1, 40 do case(dim, r, turning, mover_sensor, stats) end
            assert.is_true(stats.met > 100, "met: " .. stats.met)
            print(("  %s: %d met, %d within one or two samples, %d between samples only")
                  :format(what, stats.met, stats.brief, stats.between))
          end)
        end
      end
    end
  end)

  -- LuaJIT's FFI path and the classic binding: the same events, bit for
  -- bit, for the same calls (the digest holds every Lua to the same).
  local J = rawget(_G, "jit") and obb.jit_status == "ffi" and require("obb.jit")
  if J then
    it("the FFI path gives the classic binding's events, bit for bit", function()
      local CW = J.classic[getmetatable(obb.world2())]
      assert.is_function(CW.events)
      for dim = 2, 3 do
        local r = H.rng(500 + dim)
        local up = { up = dim == 2 and { 0, 1 } or { 0, 1, 0 } } -- for the solids
        local A = dim == 2 and obb.world2(up) or obb.world3(up)
        local B = dim == 2 and obb.world2(up) or obb.world3(up)
        local names, ea, eb, oa, ob = {}, {}, {}, {}, {}
        local set = obb.responses({ [1] = "cross", [2] = "bounce", default = "slide" })
        local total = 0
        local function filter(_, other) return other < "i2" and "touch" or "slide" end
        for i = 1, 30 do names[i] = "i" .. i end
        local function both(m, ...)
          local ra = { pcall(A[m], A, ...) }
          local rb = { pcall(CW[m] or B[m], B, ...) }
          if ra[2] == A then ra[2] = "world" end
          if rb[2] == B then rb[2] = "world" end
          assert.are.same(ra, rb)
        end
        for step = 1, 600 do
          local it = names[r.int(1, #names)]
          local op = r.int(1, 11)
          if not A:has(it) then
            both("add", it, box_args(r, dim, 6))
            if r.int(1, 3) == 1 then both("set_sensor", it) end
            if r.int(1, 3) == 1 then both("set_class", it, r.int(1, 2)) end
          elseif op == 1 then both("remove", it)
          elseif op == 2 then both("update", it, box_args(r, dim, 6))
          elseif op == 3 then both("set_sensor", it, not A:sensor(it))
          else
            local x, y, z = A:get(it)
            local goal = dim == 2 and { x + r.range(-8, 8), y + r.range(-8, 8) }
                         or { x + r.range(-8, 8), y + r.range(-8, 8), z + r.range(-8, 8) }
            if op == 4 then goal[#goal + 1] = dim == 2 and r.range(-3, 3) or nil end
            local f = ({ "slide", "cross", "bounce" })[r.int(1, 3)]
            local ra = { A:move(it, unpack(goal)) }
            local rb = { CW.move(B, it, unpack(goal)) }
            assert.are.same(ra, rb)
            if op >= 5 and op <= 9 then
              -- a response name, a response set (read in C), a filter
              -- function (asked from Lua: the FFI's asking path), with and
              -- without out (committed in the one call, or parked)
              goal[#goal + 1] = op == 5 and f or op <= 7 and set or filter
              local with_out = op ~= 6 and op ~= 8
              goal[#goal + 1] = with_out and oa or nil
              ra = { A:move(it, unpack(goal, 1, #goal)) }
              if with_out then goal[#goal] = ob end
              rb = { CW.move(B, it, unpack(goal, 1, #goal)) }
              assert.are.same(ra, rb)
            elseif op >= 10 then
              -- a moving solid: what it carries and pushes moves through
              -- the sensors (with out: taken back and given back on the FFI)
              local sgoal = dim == 2 and { x + r.range(-3, 3), y + r.range(-3, 3) }
                            or { x + r.range(-3, 3), y + r.range(-3, 3), z + r.range(-3, 3) }
              sgoal[#sgoal + 1] = ({ "push", "ride", set })[r.int(1, 3)]
              if op == 11 then sgoal[#sgoal + 1] = oa end
              ra = { A:move_solid(it, unpack(sgoal, 1, #sgoal)) }
              if op == 11 then sgoal[#sgoal] = ob end
              rb = { CW.move_solid(B, it, unpack(sgoal, 1, #sgoal)) }
              assert.are.same(ra, rb)
            end
          end
          if r.int(1, 4) == 1 or step == 600 then
            local na, nb = A:events(ea), CW.events(B, eb)
            total = total + na
            assert.are.equal(nb, na)
            for k = 1, 4 * na do assert.are.equal(eb[k], ea[k]) end
            assert.is_nil(ea[4 * na + 1])
          end
        end
        assert.is_true(total > 50, "events: " .. total)
        A:close(); B:close()
      end
    end)
  end

  describe("moving solids", function()
    -- A lift carries a rider up through a thin zone and a wall pushes a
    -- crate right through another: each crossing is a begin and an end
    -- with their times, the moves' own; the lift and the wall pass the
    -- zones too (a teleport's change: none left at the end); the zones
    -- are crossed, neither carried nor pushed. With and without an out
    -- table (on LuaJIT's FFI path: one call, or the run taken back while
    -- the records are written and given back), the same events.
    local function run(dim, with_out)
      local w = dim == 2 and obb.world2({ up = { 0, 1 } }) or obb.world3({ up = { 0, 1, 0 } })
      local out, ev = with_out and {} or nil, {}
      local function add(k, x, y, hx, hy)
        if dim == 2 then w:add(k, x, y, hx, hy) else w:add(k, x, y, 0, hx, hy, 1) end
      end
      local function move_solid(k, x, y)
        if dim == 2 then return w:move_solid(k, x, y, nil, out) end
        return w:move_solid(k, x, y, 0, nil, out)
      end
      add("lift", 0, 0, 2, 0.25); add("p", 0, 0.75, 0.3, 0.5)
      add("zone", 0, 3, 5, 0.01); w:set_sensor("zone")
      add("wall", 20, 0.75, 0.25, 0.5); add("crate", 21, 0.75, 0.5, 0.5)
      add("gate", 25, 0.75, 0.01, 3); w:set_sensor("gate")
      assert.are.equal(0, w:events(ev))
      local n = move_solid("lift", 0, 6)
      if with_out then
        local zone_crossed = false
        for i = 0, n - 1 do
          local stride = dim == 2 and 8 or 10
          if out[stride * i + 1] == "zone" then zone_crossed = out[stride * i + 2] == "cross" end
        end
        assert.is_true(zone_crossed, "the zone is a cross record")
      end
      move_solid("wall", 30, 0.75)
      local got = {}
      for i = 0, w:events(ev) - 1 do
        got[#got + 1] = { ev[4 * i + 1], ev[4 * i + 2], ev[4 * i + 3], ev[4 * i + 4] }
      end
      local zx, zy = w:get("zone")
      local gx = w:get("gate")
      assert.are.same({ 0, 3, 25 }, { zx, zy, gx }) -- never moved
      local px, py = w:get("p")
      local cx = w:get("crate")
      assert.are.equal(0, px); assert.is_true(math.abs(py - 6.75) < 1e-9, py)
      assert.is_true(cx > 25.5, cx)
      return got
    end
    for _, dim in ipairs({ 2, 3 }) do
      it(("%dD: carry riders and push others through sensors, which feed events"):format(dim), function()
        local a, b = run(dim, false), run(dim, true)
        assert.are.same(a, b)
        local seen = {}
        for _, e in ipairs(a) do
          seen[e[1] .. " " .. e[2] .. " " .. e[3]] = e[4]
        end
        assert.are.same({ ["zone p begin"] = true, ["zone p end"] = true, ["gate crate begin"] = true,
                          ["gate crate end"] = true },
                        (function() local t = {}; for k in pairs(seen) do t[k] = true end; return t end)())
        assert.is_true(type(seen["zone p begin"]) == "number" and seen["zone p begin"] < seen["zone p end"])
        assert.is_true(type(seen["gate crate begin"]) == "number"
                       and seen["gate crate begin"] < seen["gate crate end"])
      end)
    end
  end)

  describe("sensors", function()
    it("never block a mover, whatever its filter: it crosses them, and they do not push", function()
      for dim = 2, 3 do
        local w = dim == 2 and obb.world2() or obb.world3()
        local out, ev, asked = {}, {}, {}
        if dim == 2 then
          w:add("p", 0, 0, 0.5, 0.5); w:add("zone", 5, 0, 0.01, 3); w:add("wall", 20, 0, 1, 3)
        else
          w:add("p", 0, 0, 0, 0.5, 0.5, 0.5); w:add("zone", 5, 0, 0, 0.01, 3, 3)
          w:add("wall", 20, 0, 0, 1, 3, 3)
        end
        w:set_sensor("zone")
        local set = obb.responses({ default = "touch" })
        local function filter(_, other) asked[#asked + 1] = other; return "touch" end
        for _, f in ipairs({ "slide", "touch", "bounce", set, filter }) do
          local goal = dim == 2 and { 10, 0 } or { 10, 0, 0 }
          goal[dim + 1], goal[dim + 2] = f, out
          local x, _, n = w:check("p", unpack(goal, 1, dim + 2))
          if dim == 3 then n = select(4, w:check("p", unpack(goal, 1, dim + 2))) end
          assert.are.equal(10, x)
          assert.are.equal(1, n)
          assert.are.equal("zone", out[1])
          assert.are.equal("cross", out[2])
        end
        assert.are.same({}, asked) -- the filter is never asked about a sensor
        -- a move of no length inside it reports it; a push does not push out of it
        if dim == 2 then w:update("p", 5, 0, 0.5, 0.5) else w:update("p", 5, 0, 0, 0.5, 0.5, 0.5) end
        local r = { w:move("p", 5, 0, unpack(dim == 2 and { nil, out } or { 0, nil, out }, 1, dim == 2 and 2 or 3)) }
        assert.are.equal(1, r[dim + 1])
        assert.are.equal("zone", out[1])
        local p = { w:push("p") }
        assert.are.equal(0, p[dim + 1])
        -- two sensors make no pair
        w:set_sensor("p")
        w:events(ev)
        assert.are.equal(0, w:events(ev))
        w:set_sensor("p", false)
        assert.are.equal(1, w:events(ev))
        assert.are.same({ "zone", "p", "begin", false }, { ev[1], ev[2], ev[3], ev[4] })
        -- "stay": world:collisions gives what a sensor overlaps now
        assert.are.equal(1, w:collisions("zone", out))
        assert.are.equal("p", out[1])
        w:close()
      end
    end)

    it("by class: every item of a sensor class, now and later", function()
      local w, ev = obb.world2(), {}
      w:add("a", 0, 0, 1, 1); w:add("b", 0.5, 0, 1, 1); w:add("c", 1, 0, 1, 1)
      w:set_class("a", 5)
      assert.is_false(w:sensor("a"))
      assert.is_false(w:sensor_class(5))
      assert.are.equal(w, w:set_sensor_class(5))
      assert.is_true(w:sensor_class(5))
      assert.is_true(w:sensor("a"))
      w:set_class("c", 5)
      assert.is_true(w:sensor("c"))
      assert.are.equal(2, w:events(ev)) -- a and c with b (a and c: two sensors)
      assert.are.same({ "a", "b", "begin", "c", "b", "begin" },
                      { ev[1], ev[2], ev[3], ev[5], ev[6], ev[7] })
      w:set_sensor("c") -- a sensor by itself too
      w:set_class("c", 0)
      assert.is_true(w:sensor("c"))
      w:set_sensor("c", false)
      assert.is_false(w:sensor("c"))
      w:set_sensor_class(5, false)
      assert.is_false(w:sensor("a"))
      -- every change that made a sensor no sensor ended its pairs at once
      local n = w:events(ev)
      local ends = 0
      for i = 0, n - 1 do if ev[4 * i + 3] == "end" then ends = ends + 1 end end
      assert.are.equal(2, ends)
      w:close()
    end)

    it("check their arguments", function()
      local w = obb.world2()
      w:add("a", 0, 0, 1, 1)
      H.assert_argerror(1, "set_sensor", "item is not in the world", function() w:set_sensor("x") end)
      H.assert_argerror(2, "set_sensor", "boolean or nil expected, got number", function() w:set_sensor("a", 1) end)
      H.assert_argerror(3, "set_sensor", "no value expected, got number", function() w:set_sensor("a", true, 1) end)
      H.assert_argerror(1, "sensor", "item is not in the world", function() w:sensor("x") end)
      H.assert_argerror(1, "set_sensor_class", "sensor class must be an integer in [1, 255], got 0",
                        function() w:set_sensor_class(0) end)
      H.assert_argerror(1, "set_sensor_class", "sensor class must be an integer in [1, 255], got 256",
                        function() w:set_sensor_class(256) end)
      H.assert_argerror(1, "set_sensor_class", "sensor class must be an integer in [1, 255], got 1.5",
                        function() w:set_sensor_class(1.5) end)
      H.assert_argerror(1, "set_sensor_class", "number expected, got string",
                        function() w:set_sensor_class("x") end)
      H.assert_argerror(2, "set_sensor_class", "boolean or nil expected, got string",
                        function() w:set_sensor_class(3, "yes") end)
      H.assert_argerror(1, "sensor_class", "sensor class must be an integer in [1, 255], got -1",
                        function() w:sensor_class(-1) end)
      H.assert_argerror(1, "events", "table expected, got no value", function() w:events() end)
      H.assert_argerror(2, "events", "no value expected, got number", function() w:events({}, 1) end)
      H.assert_error_text("world expected", function() w.events(nil, {}) end)
      w:close()
      H.assert_error_text("world is closed", function() w:set_sensor("a") end)
      H.assert_error_text("world is closed", function() w:events({}) end)
    end)
  end)

  it("make no garbage with a reused out: moves through sensors, teleports, w:events", function()
    for dim = 2, 3 do
      local w = dim == 2 and obb.world2() or obb.world3()
      local ev, movers = {}, {}
      for i = 1, 20 do
        movers[i] = { i }
        if dim == 2 then w:add(movers[i], 0, i * 3, 0.5, 0.5)
        else w:add(movers[i], 0, i * 3, 0, 0.5, 0.5, 0.5) end
      end
      for k = 1, 10 do
        local z = { -k }
        if dim == 2 then w:add(z, k * 2, 30, 0.05, 40) else w:add(z, k * 2, 30, 0, 0.05, 40, 40) end
        w:set_sensor(z)
      end
      local n = 0
      local kib = H.kib_allocated_by(function()
        for _, x in ipairs({ 25, 0 }) do
          for i = 1, #movers do
            if dim == 2 then w:move(movers[i], x, i * 3, "cross") else w:move(movers[i], x, i * 3, 0, "cross") end
          end
          n = n + w:events(ev)
          local m = movers[1] -- into a zone (at x = 6) and back: no event
          if dim == 2 then w:update(m, 6, 3, 0.5, 0.5); w:update(m, x, 3, 0.5, 0.5)
          else w:update(m, 6, 3, 0, 0.5, 0.5, 0.5); w:update(m, x, 3, 0, 0.5, 0.5, 0.5) end
          n = n + w:events(ev)
        end
      end)
      assert.are.equal(3 * 2 * 20 * 10 * 2, n) -- each pass: every mover, every zone
      assert.is_true(kib < 0.25, kib .. " KiB")
      w:close()
    end
  end)

  describe("moves", function()
    it("of no length report what the item overlaps where it stands, as a tiny move does", function()
      local w, out, tiny = obb.world2(), {}, {}
      w:add("p", 0, 0, 1, 1); w:add("ladder", 0.5, 0, 1, 3); w:add("floor", 0, -1.5, 5, 1)
      local asked = 0
      local function f() asked = asked + 1; return "cross" end
      local x, y, n, why = w:move("p", 0, 0, f, out)
      assert.are.same({ 0, 0, 2, "goal" }, { x, y, n, why })
      assert.are.equal(2, asked)
      w:check("p", 1e-300, 0, f, tiny)
      for i = 1, 16 do assert.are.equal(tiny[i], out[i]) end
      -- a touch stops nothing that was not moving; a slide's plane is kept
      assert.are.same({ 0, 0, 1, "goal" }, { w:move("p", 0, 0, "touch", out) }) -- stops at the first
      assert.are.same({ 0, 0, 2, "goal" }, { w:move("p", 0, 0, nil, out) })
      assert.are.same({ "ladder", "slide", 0, -1, 0, 0, 0, 1.5 }, { unpack(out, 1, 8) })
      w:close()
    end)

    it("record the time along the move, by its length, through the legs of a slide", function()
      local w, ev = obb.world2(), {}
      w:add("p", 0, 0, 0.5, 0.5)
      w:add("wall", 5, 5, 0.5, 10, 0.6) -- turned: the player slides along it
      w:add("coin", 2, 0, 0.1, 0.1); w:set_sensor("coin")
      w:add("far", 100, 100, 0.1, 0.1); w:set_sensor("far")
      w:events(ev)
      w:move("p", 10, 0)
      local n = w:events(ev)
      assert.are.equal(2, n)
      assert.are.same({ "coin", "p", "begin" }, { ev[1], ev[2], ev[3] })
      assert.is_true(ev[4] > 0.1 and ev[4] < ev[8] and ev[8] < 0.5, ev[4] .. " " .. ev[8])
      w:close()
    end)
  end)

  describe("hostile", function()
    local function world_with_events()
      local w, ev = obb.world2(), {}
      w:add("p", 0, 0, 0.5, 0.5)
      w:add("coin", 5, 0, 0.25, 0.25); w:set_sensor("coin")
      w:add("door", 10, 0, 1, 2); w:set_sensor("door")
      w:add("wall", 20, 0, 1, 2)
      w:events(ev)
      w:move("p", 5, 0) -- a begin with the coin, pending
      return w, ev
    end

    it("asked inside a filter: a clear error, nothing lost", function()
      local w, ev = world_with_events()
      local function f() w:events(ev); return "slide" end
      H.assert_error_text("cannot take the events of a world during its query",
                          function() w:move("p", 30, 0, f) end)
      H.assert_error_text("cannot take the events of a world during its query",
                          function() w:query_point(5, 0, {}, function() return w:events(ev) end) end)
      H.assert_error_text("cannot make sensors of items of a world during its query",
                          function() w:move("p", 30, 0, function() w:set_sensor("p"); return "slide" end) end)
      assert.are.equal(1, w:events(ev))
      assert.are.same({ "coin", "p", "begin" }, { ev[1], ev[2], ev[3] })
      w:close()
    end)

    it("a sensor removed while its own event is handled: its end comes next, with the item", function()
      local w, ev = world_with_events()
      local n = w:events(ev)
      for i = 0, n - 1 do
        if ev[4 * i + 3] == "begin" then w:remove(ev[4 * i + 1]) end -- collect the coin
      end
      assert.is_false(w:has("coin"))
      w:add("coin", 50, 0, 1, 1) -- added again before the end is taken: another id
      assert.are.equal(1, w:events(ev))
      assert.are.same({ "coin", "p", "end", false }, { ev[1], ev[2], ev[3], ev[4] })
      assert.are.equal(0, w:events(ev))
      -- the held ids went back: the world empties and refills as new
      w:remove("coin"); w:remove("p"); w:remove("door"); w:remove("wall")
      assert.are.equal(0, w:events(ev))
      assert.are.equal(0, #w)
      w:close()
    end)

    it("a world emptied with events pending keeps their items until they are taken", function()
      local w, ev = world_with_events()
      w:update("p", 10, 0, 0.5, 0.5) -- into the door
      w:remove("p"); w:remove("coin"); w:remove("door"); w:remove("wall")
      assert.are.equal(0, #w)
      local n = w:events(ev)
      assert.are.equal(2, n) -- the coin's begin and end (the door's begin never looked at)
      assert.are.same({ "coin", "p", "begin", 0.85 }, { ev[1], ev[2], ev[3], ev[4] })
      assert.are.same({ "coin", "p", "end", false }, { ev[5], ev[6], ev[7], ev[8] })
      w:add("x", 0, 0, 1, 1)
      assert.are.equal(1, #w)
      w:close()
    end)

    it("a world closed with events pending: they are taken once, then the world is closed", function()
      local w, ev = world_with_events()
      w:update("p", 10, 0, 0.5, 0.5) -- into the door, not looked at yet
      w:close()
      w:close()
      assert.are.equal(3, w:events(ev))
      assert.are.same({ "coin", "p", "begin", "coin", "p", "end", "door", "p", "begin" },
                      { ev[1], ev[2], ev[3], ev[5], ev[6], ev[7], ev[9], ev[10], ev[11] })
      H.assert_error_text("world is closed", function() w:events(ev) end)
      H.assert_error_text("world is closed", function() w:add("q", 0, 0, 1, 1) end)
    end)

    it("finalizers that take events, change or close the world while events are written: "
       .. "nothing lost, nothing twice", function()
      -- a collector in a hurry: finalizers at most steps, inside the writes
      local pause = collectgarbage("setpause", 40)
      local stepmul = collectgarbage("setstepmul", 400)
      for round = 1, 2 do
        local r = H.rng(round)
        local w = obb.world2()
        local items, out = {}, {}
        for i = 1, 60 do
          items[i] = { name = "i" .. i }
          w:add(items[i], r.range(-10, 10), r.range(-10, 10), r.range(0.2, 2), r.range(0.2, 2))
          if i % 5 == 0 then w:set_sensor(items[i]) end
        end
        w:events(out)
        local set = sensor_pairs(w, out)
        local inner = {}
        local busy = false
        local stop = H.finalizer_chain(20, function()
          if busy or not w:has(items[1]) then return end
          busy = true
          -- (inside a move the world is locked: those raise, and Lua 5.1
          -- passes a finalizer's error on)
          local k = r.int(1, 3)
          if k == 1 then
            local ok, n = pcall(w.events, w, inner)
            if ok then fold(set, inner, n) end
          elseif k == 2 then
            pcall(w.update, w, items[r.int(1, #items)], r.range(-10, 10), r.range(-10, 10), 1, 1)
          end
          busy = false
        end)
        for _ = 1, 150 do
          for _ = 1, 5 do
            local it = items[r.int(1, #items)]
            if w:has(it) then
              local x, y = w:get(it)
              w:move(it, x + r.range(-5, 5), y + r.range(-5, 5), "cross")
            end
          end
          local ev = {} -- a new table: it grows, and the collector runs
          local n = w:events(ev)
          busy = true -- (no step of the collector since: no allocation)
          fold(set, ev, n)
          busy = false
        end
        stop()
        busy = true
        fold(set, out, w:events(out))
        local ok, s, o = same_sets(set, sensor_pairs(w, out))
        assert(ok, name(s) .. " " .. name(o))
        -- closed by a finalizer while its events are written: those
        -- written and those kept at the close still alternate pair by pair
        busy = false
        local closed, writing = false, false
        local stop2 = H.finalizer_chain(20, function()
          if writing and not closed and pcall(w.close, w) then closed = true end
        end)
        for _ = 1, 2000 do
          if closed then break end
          for _ = 1, 10 do
            pcall(w.update, w, items[r.int(1, #items)], r.range(-10, 10), r.range(-10, 10), 1, 1)
          end
          local ev = {}
          writing = true
          local took, n = pcall(w.events, w, ev)
          writing = false
          if took then
            busy = true
            fold(set, ev, n)
            busy = false
          end
        end
        stop2()
        w:close()
        busy = true
        local took, n = pcall(w.events, w, out)
        while took do
          fold(set, out, n)
          took, n = pcall(w.events, w, out)
        end
      end
      collectgarbage("setpause", pause)
      collectgarbage("setstepmul", stepmul)
    end)
  end)
end)
