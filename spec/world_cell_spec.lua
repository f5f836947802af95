-- Worlds with cells (obb.world2{cell = c}, obb.world3{...}: a uniform grid
-- beside the tree, issue 29) and worlds that choose their cells
-- (obb.world2(), issue 42) answer exactly as worlds of the tree alone
-- (cell = 0): every random scene is built three times, once per broad
-- phase, with the same calls, and every query must give the same set of
-- results (their order is unspecified) and every mover (move, check,
-- push, cast, cast_turning) the same answer bit for bit.
local obb = require "obb"
local H = require "spec.helpers"

local pi = math.pi
local LIGHT = os.getenv("OBB_SPEC_LIGHT") == "1"

-- ---- the two worlds, driven alike ---------------------------------------

-- Worlds of dimension dim that must answer alike, and the items they hold
-- (name -> true): tree, the tree's alone (cell = 0), the one the others
-- are compared with; cell, with cells of side cell; auto, the default
-- world, which chooses its cells (others: the two, named).
local function twins(dim, cell, margin)
  local new = dim == 2 and obb.world2 or obb.world3
  local t = {
    dim = dim,
    tree = new({ cell = 0, margin = margin }),
    cell = new({ cell = cell, margin = margin }),
    auto = new({ margin = margin }),
    live = {},
    names = {},
  }
  t.others = { { "cells of " .. cell, t.cell }, { "the default world", t.auto } }
  return t
end

-- Calls method on every world with the same arguments.
local function both(t, method, ...)
  t.tree[method](t.tree, ...)
  for _, o in ipairs(t.others) do o[2][method](o[2], ...) end
end

local function add(t, name, ...)
  both(t, "add", name, ...)
  if not t.live[name] then
    t.live[name] = true
    t.names[#t.names + 1] = name
  end
end

local function remove(t, name)
  both(t, "remove", name)
  t.live[name] = nil
  for i = 1, #t.names do
    if t.names[i] == name then
      table.remove(t.names, i)
      break
    end
  end
end

-- Bit for bit: numbers by their bits (NaN equal to NaN, 0 apart from -0),
-- everything else by identity.
local function same(a, b)
  if type(a) == "number" and type(b) == "number" then
    if a ~= a then return b ~= b end
    if a == 0 and b == 0 then return 1 / a == 1 / b end
    return a == b
  end
  return rawequal(a, b)
end

local function same_list(a, b, what, other)
  local n = math.max(a.n or #a, b.n or #b)
  for i = 1, n do
    if not same(a[i], b[i]) then
      error(string.format("%s: entry %d differs: %s (tree) vs %s (%s)", what, i,
                          tostring(a[i]), tostring(b[i]), other or "cells"), 2)
    end
  end
end

-- The records of a result table, stride values each, keyed by their first
-- value (an item), each record a string of its values' bits.
local function records(out, n, stride)
  local set = {}
  for i = 0, n - 1 do
    local parts = {}
    for k = 2, stride do parts[#parts + 1] = string.format("%.17g", out[i * stride + k]) end
    local key = tostring(out[i * stride + 1])
    assert(set[key] == nil, "a query gave " .. key .. " twice")
    set[key] = table.concat(parts, " ")
  end
  return set
end

local function same_set(a, b, what, other)
  for k, v in pairs(a) do
    if b[k] ~= v then
      error(string.format("%s: %s is %s (tree), %s (%s)", what, k, v, tostring(b[k]), other), 2)
    end
  end
  for k, v in pairs(b) do
    if a[k] == nil then error(string.format("%s: only %s finds %s (%s)", what, other, k, v), 2) end
  end
end

-- Runs query (a function of a world and an out table returning the count)
-- on every world and asserts the same set of records.
local function same_query(t, stride, what, query)
  local oa = {}
  local na = query(t.tree, oa)
  local set = records(oa, na, stride)
  for _, o in ipairs(t.others) do
    local ob = {}
    local nb = query(o[2], ob)
    assert(na == nb, string.format("%s: %d results (tree), %d (%s)", what, na, nb, o[1]))
    same_set(set, records(ob, nb, stride), what, o[1])
  end
  return na
end

-- ---- random scenes ------------------------------------------------------

local function quat(u)
  local q, l = { u() - 0.5, u() - 0.5, u() - 0.5, u() - 0.5 }, 0
  for i = 1, 4 do l = l + q[i] * q[i] end
  l = math.sqrt(l)
  if l < 1e-3 then return 0, 0, 0, 1 end
  return q[1] / l, q[2] / l, q[3] / l, q[4] / l
end

-- The arguments of a box of the world's dimension around center c with
-- half extents e, turned at random (or not, when straight).
local function box_args(t, u, c, e, straight)
  if t.dim == 2 then return c[1], c[2], e[1], e[2], straight and 0 or u() * 2 * pi end
  local qx, qy, qz, qw = 0, 0, 0, 1
  if not straight then qx, qy, qz, qw = quat(u) end
  return c[1], c[2], c[3], e[1], e[2], e[3], qx, qy, qz, qw
end

local function new_box(t, ...)
  return (t.dim == 2 and obb.new2 or obb.new3)(...)
end

-- Tiles on a grid of 16, a third of them turned; loose boxes of every
-- size, from specks to four cells; a few huge boxes (the tree's in both).
local function fill(t, u, ntiles, nboxes)
  local dim = t.dim
  for i = 1, ntiles do
    local c = {}
    for q = 1, dim do c[q] = math.floor(u() * 12) * 16 + 8 end
    local name = "tile" .. i
    if not t.live[name] then add(t, name, box_args(t, u, c, { 8, 8, 8 }, u() < 0.67)) end
  end
  for i = 1, nboxes do
    local c, e = {}, {}
    local size = ({ 0.01, 2, 6, 12, 24, 31 })[1 + math.floor(u() * 6)]
    for q = 1, dim do
      c[q] = u() * 200 - 4
      e[q] = size * (0.3 + u())
    end
    add(t, "box" .. i, box_args(t, u, c, e, u() < 0.3))
  end
  for i = 1, 3 do
    local c, e = {}, {}
    for q = 1, dim do
      c[q] = u() * 200
      e[q] = 40 + u() * 200
    end
    add(t, "huge" .. i, box_args(t, u, c, e, false))
  end
end

-- Changes the worlds as a game does: small moves (most within their
-- cells), jumps, growing beyond four cells and back, removals and adds
-- (ids reused).
local function churn(t, u, n)
  for _ = 1, n do
    local name = t.names[1 + math.floor(u() * #t.names)]
    local r = u()
    if r < 0.1 then
      remove(t, name)
    elseif r < 0.2 then
      local c, e = {}, {}
      for q = 1, t.dim do
        c[q] = u() * 200
        e[q] = 0.5 + u() * 10
      end
      add(t, "new" .. math.floor(u() * 1e6), box_args(t, u, c, e, false))
    else
      local v = { t.tree:get(name) }
      local c, e, step = {}, {}, r < 0.8 and 1 or 60
      for q = 1, t.dim do
        c[q] = v[q] + (u() - 0.5) * step
        e[q] = v[t.dim + q]
        if r > 0.95 then e[q] = u() < 0.5 and 50 + u() * 30 or 1 + u() * 5 end
      end
      both(t, "update", name, box_args(t, u, c, e, u() < 0.5))
    end
  end
end

-- ---- the queries --------------------------------------------------------

local function random_point(t, u, spread)
  local p = {}
  for q = 1, t.dim do
    p[q] = u() < 0.3 and math.floor(u() * 13) * 16 or u() * spread - spread / 8
  end
  return p
end

local function check_queries(t, u, n)
  local dim, unpack = t.dim, H.unpack
  for _ = 1, n do
    local c, e = random_point(t, u, 220), {}
    for q = 1, dim do e[q] = ({ 0, 1, 8, 30, 150 })[1 + math.floor(u() * 5)] * u() end
    local b = new_box(t, box_args(t, u, c, e, u() < 0.5))
    same_query(t, 1, "query_box", function(w, out) return w:query_box(b, out) end)
    local p = random_point(t, u, 220)
    p[#p + 1] = 0 -- out's place
    same_query(t, 1, "query_point", function(w, out)
      p[dim + 1] = out
      return w:query_point(unpack(p, 1, dim + 1))
    end)
    -- rays: along the cell lines, diagonal, steep, from inside and outside
    local o, d = random_point(t, u, 260), {}
    for q = 1, dim do d[q] = u() < 0.3 and 0 or (u() - 0.5) * ({ 1, 10, 300 })[1 + math.floor(u() * 3)] end
    if u() < 0.2 then
      for q = 1, dim do d[q] = 0 end
      d[1 + math.floor(u() * dim)] = u() < 0.5 and 1 or -1
    end
    local zero = true
    for q = 1, dim do zero = zero and d[q] == 0 end
    if zero then d[1] = 1 end
    local maxt = ({ 1, 0.2, 5, math.huge })[1 + math.floor(u() * 4)]
    local args = {}
    for q = 1, dim do args[q], args[dim + q] = o[q], d[q] end
    same_query(t, dim + 2, "raycast", function(w, out)
      args[2 * dim + 1], args[2 * dim + 2] = maxt, out
      return w:raycast(unpack(args, 1, 2 * dim + 2))
    end)
  end
  for i = 1, #t.names, 7 do
    local name = t.names[i]
    same_query(t, dim + 1, "collisions", function(w, out) return w:collisions(name, out) end)
  end
  local pa, pb = {}, {}
  local na = t.tree:pairs(pa)
  for _, o in ipairs(t.others) do assert.are.equal(na, o[2]:pairs(pb)) end
end

-- ---- the movers ---------------------------------------------------------

local RESPONSES = { "slide", "touch", "cross", "bounce" }

-- A filter that answers by the other's name, the same in every world.
local function by_name(_, other)
  local k = #tostring(other) % 5
  if k == 0 then return false end
  return RESPONSES[k]
end

local function random_filter(u)
  local r = math.floor(u() * 6)
  if r == 0 then return nil end
  if r == 5 then return by_name end
  return RESPONSES[r]
end

-- Every world's answers (and out tables) to the same call, bit for bit.
local function same_call(t, what, method, ...)
  local args = H.pack(...)
  local oa = {}
  for i = 1, args.n do
    if type(args[i]) == "table" and args[i].out then
      oa[#oa + 1] = i
    end
  end
  local function run(w)
    local a, out = {}, {}
    for i = 1, args.n do a[i] = args[i] end
    for _, i in ipairs(oa) do a[i] = out end
    local r = H.pack(w[method](w, H.unpack(a, 1, args.n)))
    return r, out
  end
  local ra, outa = run(t.tree)
  for _, o in ipairs(t.others) do
    local rb, outb = run(o[2])
    same_list(ra, rb, what .. " returns", o[1])
    same_list(outa, outb, what .. " out", o[1])
  end
  return ra
end

local OUT = { out = true } -- stands for a fresh out table in same_call

local function check_movers(t, u, n)
  local dim = t.dim
  for _ = 1, n do
    local name = t.names[1 + math.floor(u() * #t.names)]
    local v = { t.tree:get(name) }
    local g = {}
    local reach = ({ 0.5, 5, 40 })[1 + math.floor(u() * 3)]
    for q = 1, dim do g[q] = v[q] + (u() - 0.5) * reach end
    local filter = random_filter(u)
    local r = u()
    local unpack = H.unpack
    -- the goal, then the filter and out
    local goal = { name, g[1], g[2] }
    if dim == 3 then goal[4] = g[3] end
    goal[dim + 2], goal[dim + 3] = filter, OUT
    if r < 0.3 then
      same_call(t, "check", "check", unpack(goal, 1, dim + 3))
    elseif r < 0.6 then
      same_call(t, "move", "move", unpack(goal, 1, dim + 3))
    elseif r < 0.7 then
      if dim == 2 then
        same_call(t, "move (turning)", "move", name, g[1], g[2], v[5] + (u() - 0.5) * 2, filter, OUT)
      else
        local qx, qy, qz, qw = quat(u)
        same_call(t, "move (turning)", "move", name, g[1], g[2], g[3], qx, qy, qz, qw, filter, OUT)
      end
    elseif r < 0.8 then
      same_call(t, "push", "push", name, filter, u() < 0.5 and math.huge or u() * 3)
    elseif r < 0.9 then
      local c, e = random_point(t, u, 200), {}
      for q = 1, dim do e[q] = 0.5 + u() * 12 end
      local b = new_box(t, box_args(t, u, c, e, false))
      local d = {}
      for q = 1, dim do d[q] = (u() - 0.5) * 80 end
      if dim == 2 then
        same_call(t, "cast", "cast", b, d[1], d[2], OUT)
      else
        same_call(t, "cast", "cast", b, d[1], d[2], d[3], OUT)
      end
    else
      local c, e = random_point(t, u, 200), {}
      for q = 1, dim do e[q] = 0.5 + u() * 12 end
      local b = new_box(t, box_args(t, u, c, e, false))
      local d = {}
      for q = 1, dim do d[q] = (u() - 0.5) * 60 end
      if dim == 2 then
        same_call(t, "cast_turning", "cast_turning", b, d[1], d[2], (u() - 0.5) * 4, OUT)
      else
        same_call(t, "cast_turning", "cast_turning", b, d[1], d[2], d[3],
                  (u() - 0.5) * 3, (u() - 0.5) * 3, (u() - 0.5) * 3, OUT)
      end
    end
  end
end

-- Every world holds the same items with the same boxes, bit for bit.
local function same_boxes(t)
  for _, o in ipairs(t.others) do
    assert.are.equal(t.tree:count(), o[2]:count())
    for _, name in ipairs(t.names) do
      same_list(H.pack(t.tree:get(name)), H.pack(o[2]:get(name)), "box of " .. name, o[1])
    end
  end
end

-- ---- the specs ----------------------------------------------------------

describe("a world with cells", function()
  local ROUNDS = LIGHT and 2 or 5

  for _, dim in ipairs({ 2, 3 }) do
    for _, cell in ipairs({ 16, 5, 40 }) do
      it(string.format("answers every query as the tree does (%dD, cell %g)", dim, cell), function()
        local u = H.rng(dim * 1000 + cell).uniform
        local t = twins(dim, cell)
        fill(t, u, dim == 2 and 80 or 200, 120)
        for _ = 1, ROUNDS do
          check_queries(t, u, 60)
          churn(t, u, 150)
        end
        check_queries(t, u, 60)
        same_boxes(t)
        assert.is_true(t.auto:broad_phase() > 0, "the default world chose cells")
      end)

      it(string.format("moves, checks, pushes and casts bit for bit as the tree (%dD, cell %g)", dim, cell), function()
        local u = H.rng(dim * 7000 + cell).uniform
        local t = twins(dim, cell, cell == 5 and 0 or nil)
        fill(t, u, dim == 2 and 80 or 200, 100)
        for _ = 1, ROUNDS do
          check_movers(t, u, 120)
          churn(t, u, 60)
        end
        same_boxes(t)
        check_queries(t, u, 20)
      end)
    end
  end

  it("keeps moving a crowd of small movers on tiles as the tree does", function()
    local u = H.rng(29).uniform
    local t = twins(2, 16)
    for i = 0, 30 do
      add(t, "floor" .. i, i * 16 + 8, 8, 8, 8, 0)
      add(t, "slope" .. i, i * 16 + 8, 100, 8, 8, u() * pi)
    end
    for i = 1, 40 do add(t, "m" .. i, 10 + u() * 460, 20 + u() * 70, 3, 3.5, u() * pi) end
    for _ = 1, LIGHT and 10 or 40 do
      for i = 1, 40 do
        local name = "m" .. i
        local x, y = t.tree:get(name)
        same_call(t, "move", "move", name, x + (u() - 0.5) * 10, y - u() * 6, nil, OUT)
      end
    end
    same_boxes(t)
  end)

  it("keeps its ids, counts and memory as a world without cells", function()
    local w = obb.world2({ cell = 8 })
    local base = w:memory()
    for i = 1, 300 do w:add(i, i * 3, (i * 7) % 100, 1 + i % 5, 2) end
    w:add("big", 0, 0, 1e6, 1e6)
    w:add("far", 1e300, -1e300, 1, 1)
    assert.are.equal(302, w:count())
    assert.is_true(w:memory() > base)
    for i = 1, 300 do w:remove(i) end
    w:remove("big")
    w:remove("far")
    assert.are.equal(0, w:count())
    assert.are.equal(base, w:memory())
    -- refilled, then emptied again
    for i = 1, 50 do w:add(i, i, i, 1, 1) end
    for i = 50, 1, -1 do w:remove(i) end
    assert.are.equal(base, w:memory())
  end)

  it("survives huge coordinates and items far apart", function()
    for _, dim in ipairs({ 2, 3 }) do
      local t = twins(dim, 1)
      local far = { 1e300, -1e300, 1e9, -1e9, 1e15, 0 }
      for i, x in ipairs(far) do
        local c = { x, -x, x / 2 }
        add(t, "far" .. i, box_args(t, H.rng(i).uniform, c, { 1, 2, 3 }, i % 2 == 0))
      end
      for i = 1, 20 do add(t, "near" .. i, box_args(t, H.rng(i).uniform, { i, i, i }, { 0.4, 0.3, 0.2 }, false)) end
      local mem = t.cell:memory()
      assert.is_true(mem < 64 * 1024, "memory " .. mem)
      local b = new_box(t, box_args(t, nil, { 0, 0, 0 }, { 1e301, 1e301, 1e301 }, true))
      assert.are.equal(26, same_query(t, 1, "query_box (everything)", function(w, out) return w:query_box(b, out) end))
      local b9 = new_box(t, box_args(t, nil, { 0, 0, 0 }, { 2e9, 2e9, 2e9 }, true))
      same_query(t, 1, "query_box (1e9)", function(w, out) return w:query_box(b9, out) end)
      local args = dim == 2 and { -2e9, 2e9, 1, -1 } or { -2e9, 2e9, -1e9, 1, -1, 0.5 }
      for _, maxt in ipairs({ math.huge, 4e9, 1 }) do
        same_query(t, dim + 2, "raycast far", function(w, out)
          local a = { H.unpack(args) }
          a[#a + 1] = maxt
          a[#a + 1] = out
          return w:raycast(H.unpack(a))
        end)
      end
      local o = dim == 2 and { -1e300, 1e300, 1, -1 } or { -1e300, 1e300, 0, 1, -1, 0 }
      same_query(t, dim + 2, "raycast from 1e300", function(w, out)
        local a = { H.unpack(o) }
        a[#a + 1] = math.huge
        a[#a + 1] = out
        return w:raycast(H.unpack(a))
      end)
      if dim == 2 then
        same_call(t, "move near", "move", "near3", 1e9, 1e9, nil, OUT)
        same_call(t, "move far", "move", "far3", 0, 0, nil, OUT)
      else
        same_call(t, "move near", "move", "near3", 1e9, 1e9, 1e9, nil, OUT)
        same_call(t, "move far", "move", "far3", 0, 0, 0, nil, OUT)
      end
      both(t, "update", "far1", box_args(t, nil, { 5, 5, 5 }, { 1, 1, 1 }, true))
      both(t, "update", "near1", box_args(t, nil, { 1e300, 5, 5 }, { 1, 1, 1 }, true))
      same_query(t, 1, "query_box (everything, after)", function(w, out) return w:query_box(b, out) end)
      assert.is_true(t.cell:memory() < 64 * 1024)
      same_boxes(t)
    end
  end)

  it("takes its options in a table, checked", function()
    assert.are.equal("obb.world2 (0 items)", tostring(obb.world2({ cell = 16 })))
    assert.are.equal("obb.world3 (0 items)", tostring(obb.world3({ cell = 0.5, margin = 0 })))
    obb.world2({})
    obb.world2({ margin = 1 })
    obb.world2({ cell = 0 }) -- no cells
    obb.world2(0.5)
    local cases = {
      { { cell = -1 }, "option 'cell' must be >= 0, got -1" },
      { { cell = 0 / 0 }, "option 'cell' must be finite, got nan" },
      { { cell = math.huge }, "option 'cell' must be finite, got inf" },
      { { cell = "16" }, "option 'cell' must be a number, got string" },
      { { cell = true }, "option 'cell' must be a number, got boolean" },
      { { margin = -1 }, "option 'margin' must be in [0, 1e6], got -1" },
      { { margin = 2e6 }, "option 'margin' must be in [0, 1e6], got 2000000" },
      { { margin = -math.huge }, "option 'margin' must be finite, got -inf" },
      { { margin = "x" }, "option 'margin' must be a number, got string" },
      { { cells = 16 }, "unknown option 'cells'" },
      -- round five: names compared whole (strcmp stopped at the zero byte,
      -- and the option was then ignored)
      { { ["cell\0x"] = -5 }, "unknown option 'cell' followed by a zero byte" },
      { { ["margin\0"] = 1 }, "unknown option 'margin' followed by a zero byte" },
      { { cell = 4, ["cell\0"] = 4 }, "unknown option 'cell' followed by a zero byte" },
      { { 16 }, "option names must be strings, got number" },
    }
    for _, case in ipairs(cases) do
      H.assert_argerror(1, "world2", case[2], function() return (obb.world2(case[1])) end)
      H.assert_argerror(1, "world3", case[2], function() return (obb.world3(case[1])) end)
    end
    assert.has_error(function() obb.world2({ cell = 1 }, 2) end)
  end)
end)

-- ---- the cells a world chooses (issue 42) -------------------------------

describe("a world that chooses its cells (no cell option)", function()
  -- n items of half extents h (2D: h, h * 0.8; 3D: h, h * 0.8, h * 0.6)
  -- on a loose grid, named prefix .. i
  local function fill_sized(w, dim, n, h, prefix, angle)
    for i = 1, n do
      local x, y = (i % 20) * 4 * h, math.floor(i / 20) * 4 * h
      if dim == 2 then w:add((prefix or "") .. i, x, y, h, h * 0.8, angle or 0)
      else w:add((prefix or "") .. i, x, y, i % 3 * 4 * h, h, h * 0.8, h * 0.6) end
    end
  end

  -- every item's size scaled to half extents h, in place (one change each)
  local function resize(w, dim, n, h, prefix)
    for i = 1, n do
      local name = (prefix or "") .. i
      local v = { w:get(name) }
      if dim == 2 then w:update(name, v[1], v[2], h, h * 0.8, v[5])
      else w:update(name, v[1], v[2], v[3], h, h * 0.8, h * 0.6) end
    end
  end

  -- a query: the world looks at its sizes when that is due
  local function look(w)
    if tostring(w):find("^obb%.world3") then w:query_point(0, 0, 0, {}) else w:query_point(0, 0, {}) end
  end

  it("is the tree's below 64 items, then takes cells of the power of two above the median size", function()
    for _, dim in ipairs({ 2, 3 }) do
      local new = dim == 2 and obb.world2 or obb.world3
      local w = new()
      assert.are.same({ 0, 0 }, { w:broad_phase() })
      fill_sized(w, dim, 63, 6)
      look(w)
      assert.are.same({ 0, 0 }, { w:broad_phase() }) -- 63 items: the tree's
      fill_sized(w, dim, 1, 6, "more")
      assert.are.same({ 0, 0 }, { w:broad_phase() }) -- chosen by a query
      look(w)
      assert.are.same({ 16, 1 }, { w:broad_phase() }) -- sides of 12: cells of 16
      -- half extents -> the cells for sides of twice that, padded by a few
      -- units in the last place: the power of two above, at most twice it
      for _, case in ipairs({ { 3, 8 }, { 6, 16 }, { 8, 32 }, { 0.3, 1 }, { 100, 256 }, { 1e-3, 2 ^ -8 } }) do
        local v = new()
        fill_sized(v, dim, 100, case[1])
        look(v)
        assert.are.same({ case[2], 1 }, { v:broad_phase() }, "half extent " .. case[1])
      end
    end
    -- a turned box: the larger side of its bounds (12 by 2 at 45 degrees: 9.9)
    local w = obb.world2()
    for i = 1, 80 do w:add(i, i * 20, 0, 6, 1, math.pi / 4) end
    look(w)
    assert.are.same({ 16, 1 }, { w:broad_phase() })
  end)

  it("takes the median: a minority of any size does not move it", function()
    local w = obb.world2()
    fill_sized(w, 2, 70, 6, "small")
    fill_sized(w, 2, 60, 250, "huge")
    fill_sized(w, 2, 5, 1e6, "vast")
    w:add("1e300", 0, 0, 1e300, 1)
    look(w)
    assert.are.same({ 16, 1 }, { w:broad_phase() })
    local v = obb.world2()
    fill_sized(v, 2, 60, 6, "small")
    fill_sized(v, 2, 70, 250, "huge")
    look(v)
    assert.are.same({ 512, 1 }, { v:broad_phase() })
  end)

  it("keeps the broad phase it is given: cell = 16, cell = 0", function()
    local c, t = obb.world2({ cell = 16 }), obb.world2({ cell = 0 })
    for _, w in ipairs({ c, t }) do
      fill_sized(w, 2, 200, 40)
      look(w)
      resize(w, 2, 200, 1)
      look(w)
      resize(w, 2, 200, 1)
      look(w)
    end
    assert.are.same({ 16, 0 }, { c:broad_phase() })
    assert.are.same({ 0, 0 }, { t:broad_phase() })
  end)

  it("chooses again when its items grow or shrink 8 times, within 2n changes", function()
    for _, dim in ipairs({ 2, 3 }) do
      local w = (dim == 2 and obb.world2 or obb.world3)()
      fill_sized(w, dim, 200, 6)
      look(w)
      assert.are.same({ 16, 1 }, { w:broad_phase() })
      -- every item 8 times larger, then back, one frame (200 changes)
      -- after another: cells of 128, then of 16 again
      for choices, case in ipairs({ { 48, 128 }, { 6, 16 } }) do
        local frames = 0
        repeat
          resize(w, dim, 200, case[1])
          look(w)
          frames = frames + 1
        until select(2, w:broad_phase()) == choices + 1 or frames == 3
        assert.are.same({ case[2], choices + 1 }, { w:broad_phase() })
        assert.is_true(frames <= 2, "chose again after " .. frames .. " frames")
      end
    end
  end)

  it("never refiles for sizes that wander by 10%, nor more than once per 2n changes", function()
    local u = H.rng(42).uniform
    -- sizes around 16 (sides from 14.4 to 17.6): the median crosses a
    -- power of two back and forth, the cells stay
    local w = obb.world2()
    fill_sized(w, 2, 300, 8)
    look(w)
    local cell = w:broad_phase()
    for _ = 1, 200 do
      for i = 1, 300 do
        local v = { w:get("" .. i) }
        local h = 8 * (0.9 + 0.2 * u())
        w:update("" .. i, v[1], v[2], h, h * 0.8, 0)
      end
      look(w)
    end
    assert.are.same({ cell, 1 }, { w:broad_phase() })
    -- sizes that jump 8 times and back every frame: one look per two
    -- frames at most, so at most one refile per two frames
    local v = obb.world2()
    fill_sized(v, 2, 300, 6)
    look(v)
    for f = 1, 40 do
      resize(v, 2, 300, f % 2 == 1 and 48 or 6)
      look(v)
    end
    assert.is_true(select(2, v:broad_phase()) <= 1 + 20)
    -- and with a look after every change: one refile per 2n changes at
    -- most (3,000 changes, 100 items: 15 looks), sizes changing 8 times
    -- every third frame of 100 changes
    local x = obb.world2()
    fill_sized(x, 2, 100, 6)
    look(x)
    for f = 1, 30 do
      for i = 1, 100 do
        local b = { x:get("" .. i) }
        local h = math.floor(f / 3) % 2 == 1 and 48 or 6
        x:update("" .. i, b[1], b[2], h, h * 0.8, 0)
        look(x)
      end
    end
    local _, choices = x:broad_phase()
    assert.is_true(choices >= 3 and choices <= 1 + 15, "choices " .. choices)
  end)

  it("chooses anew once emptied", function()
    local w = obb.world2()
    fill_sized(w, 2, 100, 6)
    look(w)
    assert.are.same({ 16, 1 }, { w:broad_phase() })
    for i = 1, 100 do w:remove("" .. i) end
    assert.are.same({ 0, 1 }, { w:broad_phase() })
    fill_sized(w, 2, 100, 100)
    look(w)
    assert.are.same({ 256, 2 }, { w:broad_phase() })
  end)

  it("answers as the tree and as cells of 16 while it chooses again", function()
    for _, dim in ipairs({ 2, 3 }) do
      local u = H.rng(4200 + dim).uniform
      local t = twins(dim, 16)
      fill(t, u, dim == 2 and 80 or 200, 120)
      local scale = { 1, 8, 1 / 8, 1 }
      for round = 1, #scale do
        -- every item scaled from its size in the round before, the others
        -- asked between the updates (the default world refiles among them)
        local ratio = scale[round] / (scale[round - 1] or 1)
        for k, name in ipairs(t.names) do
          local v = { t.tree:get(name) }
          for q = 1, dim do v[dim + q] = v[dim + q] * ratio end
          both(t, "update", name, H.unpack(v, 1, dim == 2 and 5 or 10))
          if k % 50 == 0 then check_queries(t, u, 2) end
        end
        check_queries(t, u, 20)
        check_movers(t, u, 60)
        churn(t, u, 40)
      end
      same_boxes(t)
      local cell, choices = t.auto:broad_phase()
      assert.is_true(cell > 0 and choices >= 3, ("cell %g, %d choices"):format(cell, choices))
    end
  end)
end)
