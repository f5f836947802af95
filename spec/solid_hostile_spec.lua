-- world:move_solid against hostile scripts, in spec/hostile_world_spec.lua's
-- style (docs/reference.md, "Moving solids"; docs/hardening.md): filters
-- that raise, yield, answer nonsense, or try to change the world (remove
-- the solid or a rider, move it again from its own rider's filter); NaN
-- and huge goals. Each must give a clear error and leave the world as it
-- was, box for box, however far the move had got (the solid and some of
-- its riders already moved when a rider's filter raises).
local H = require "helpers"
local obb = require "obb"

-- Every item's numbers, by item.
local function snapshot(w, items)
  local t = {}
  for _, it in ipairs(items) do t[it] = { w:get(it) } end
  return t
end

local function assert_unchanged(w, items, before)
  assert.equal(#items, w:count())
  for _, it in ipairs(items) do
    assert.is_true(w:has(it), tostring(it) .. " is still in the world")
    assert.same(before[it], { w:get(it) }, tostring(it) .. " moved")
  end
end

-- A lift carrying three riders up into a beam (so that their moves meet
-- it, and their filter is asked) and pushing a crate, in 2D or 3D.
local function scene(dim)
  local w = dim == 2 and obb.world2({ up = { 0, 1 } }) or obb.world3({ up = { 0, 1, 0 } })
  local function add(item, x, y, hx, hy)
    if dim == 2 then w:add(item, x, y, hx, hy) else w:add(item, x, y, 0, hx, hy, 1) end
  end
  add("lift", 0, 0, 3, 0.25)
  add("a", -2, 0.75, 0.4, 0.5)
  add("b", 0, 0.75, 0.4, 0.5)
  add("c", 2, 0.75, 0.4, 0.5)
  add("crate", 4, 0, 0.5, 0.5)
  add("wall", 9, 0, 0.5, 5)
  add("beam", 0, 1.6, 6, 0.1)
  local items = { "lift", "a", "b", "c", "crate", "wall", "beam" }
  local goal = dim == 2 and { 2, 0.5 } or { 2, 0.5, 0 }
  return w, items, goal
end

-- world:update with a box's numbers in either dimension.
local function put(w, item, x, y, hx, hy)
  if tostring(w):find("world2", 1, true) then return w:update(item, x, y, hx, hy) end
  return w:update(item, x, y, 0, hx, hy, 1)
end

local function call(w, goal, ...)
  if #goal == 2 then return w:move_solid("lift", goal[1], goal[2], ...) end
  return w:move_solid("lift", goal[1], goal[2], goal[3], ...)
end

for _, dim in ipairs({ 2, 3 }) do
  describe("world:move_solid against hostile filters (" .. dim .. "D)", function()
    it("the scene moves as intended when nothing interferes", function()
      local w, _, goal = scene(dim)
      local out = {}
      local asked = {}
      local n = call(w, goal, function(_, o) return o ~= "wall" and o ~= "beam" and "ride" end, out,
                     function(mover) asked[mover] = true return "slide" end)
      assert.equal(4, n)
      assert.is_true(asked.a and asked.b and asked.c)
    end)

    it("a filter that raises: the error goes on unchanged, the world as it was", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      local err = setmetatable({}, { __tostring = function() return "mine" end })
      local ok, got = pcall(call, w, goal, function() error(err) end)
      assert.is_false(ok)
      assert.equal(err, got)
      assert_unchanged(w, items, before)
      -- and the world is usable: not locked
      put(w, "crate", 4, 0, 0.5, 0.5)
    end)

    it("a riders' filter that raises after the solid and some riders moved: all put back", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      local moves = 0
      local ok, err = pcall(call, w, goal, nil, nil, function(mover)
        moves = moves + 1
        -- by now the lift and the riders before this one have moved
        if mover == "a" then error("in a's move") end
        return "slide"
      end)
      assert.is_false(ok)
      assert.matches("in a's move", err)
      assert_unchanged(w, items, before)
    end)

    it("a filter that removes the solid or a rider is refused; nothing changed", function()
      for _, victim in ipairs({ "lift", "b" }) do
        local w, items, goal = scene(dim)
        local before = snapshot(w, items)
        H.assert_error_text("cannot remove items of a world during its query", call, w, goal,
                            function() w:remove(victim) end)
        assert_unchanged(w, items, before)
        H.assert_error_text("cannot remove items of a world during its query", call, w, goal, nil, nil,
                            function() w:remove(victim) end)
        assert_unchanged(w, items, before)
      end
    end)

    it("a filter that updates, adds or closes is refused; nothing changed", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      local function upd() put(w, "crate", 1, 1, 1, 1) end
      H.assert_error_text("cannot update items of a world during its query", call, w, goal, upd)
      H.assert_error_text("cannot add items of a world during its query", call, w, goal, nil, nil,
                          function() w:add("new", 0, 0, 0, 1, 1, 1) end)
      H.assert_error_text("cannot close a world during its query", call, w, goal, function() w:close() end)
      H.assert_error_text("cannot set the up of items of a world during its query", call, w, goal,
                          function() w:set_up(false) end)
      assert_unchanged(w, items, before)
    end)

    it("the solid moved again from its own rider's filter is refused; in another world it moves", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      H.assert_error_text("cannot move items of a world during its query", call, w, goal, nil, nil,
                          function() call(w, goal) end)
      assert_unchanged(w, items, before)
      local other = scene(dim)
      local n = call(w, goal, nil, nil, function()
        call(other, goal)
        return "slide"
      end)
      assert.is_true(n > 0)
    end)

    it("a filter that yields cannot: a clear error, nothing changed", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      local co = coroutine.create(function() return call(w, goal, function() coroutine.yield() end) end)
      local ok, err = coroutine.resume(co)
      assert.is_false(ok)
      assert.matches("cannot yield", err)
      assert_unchanged(w, items, before)
      co = coroutine.create(function() return call(w, goal, nil, nil, function() coroutine.yield() end) end)
      ok, err = coroutine.resume(co)
      assert.is_false(ok)
      assert.matches("cannot yield", err)
      assert_unchanged(w, items, before)
    end)

    it("answers that are no response name the filter that gave them; nothing changed", function()
      local w, items, goal = scene(dim)
      local before = snapshot(w, items)
      local filter_arg, movers_arg = #goal + 2, #goal + 4 -- called as methods: self not counted
      local wrong = "(a response name, false or nil expected)"
      H.assert_argerror(filter_arg, "move_solid", "filter returned a table " .. wrong, call, w, goal,
                        function() return {} end)
      H.assert_argerror(filter_arg, "move_solid", "unknown response 'slid'", call, w, goal,
                        function() return "slid" end)
      H.assert_argerror(filter_arg, "move_solid", "unknown response 'ride' followed by a zero byte", call, w,
                        goal, function() return "ride\0x" end)
      H.assert_argerror(movers_arg, "move_solid", "unknown response 'ride'", call, w, goal, nil, nil,
                        function() return "ride" end)
      H.assert_argerror(movers_arg, "move_solid", "filter returned a number " .. wrong, call, w, goal, nil, nil,
                        function() return 1 end)
      assert_unchanged(w, items, before)
    end)

    it("NaN, infinite and huge goals: a clear error, the world unchanged", function()
      local w, items = scene(dim)
      local before = snapshot(w, items)
      local nan, inf = 0 / 0, math.huge
      local function g(x) if dim == 2 then return { x, 0 } end return { x, 0, 0 } end
      H.assert_error_text("finite number expected, got nan", call, w, g(nan))
      H.assert_error_text("finite number expected, got inf", call, w, g(inf))
      H.assert_error_text("finite number expected, got -inf", call, w, g(-inf))
      if dim == 2 then
        H.assert_error_text("finite number expected, got nan", w.move_solid, w, "lift", 0, 0, nan)
      else
        H.assert_error_text("finite number expected, got nan", w.move_solid, w, "lift", 0, 0, 0, 0, nan, 0, 1)
        H.assert_error_text("quaternion is zero", w.move_solid, w, "lift", 0, 0, 0, 0, 0, 0, 0)
      end
      assert_unchanged(w, items, before)
      -- a goal whose distance overflows
      put(w, "lift", -1e308, 0, 3, 0.25)
      local moved = snapshot(w, items)
      H.assert_error_text("goal is too far: the solid's motion overflows", call, w, g(1.5e308))
      assert_unchanged(w, items, moved)
      -- huge but finite: it goes, its riders with it
      put(w, "lift", 0, 0, 3, 0.25)
      local out = {}
      call(w, dim == 2 and { 1e300, 0.5 } or { 1e300, 0.5, 0 },
           function(_, o) return o ~= "wall" and o ~= "beam" and "ride" end, out)
      assert.equal(1e300, (w:get("lift")))
    end)

    it("the protected half called by hand is refused", function()
      local w = scene(dim)
      local run
      for _, v in pairs(debug.getregistry()) do
        if type(v) == "function" and not pcall(string.dump, v) then
          local ok, err = pcall(v, w)
          if not ok and tostring(err):find("run called outside a solid's move", 1, true) then run = v end
        end
      end
      assert.is_function(run)
    end)
  end)
end
