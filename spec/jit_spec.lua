-- spec/jit_spec.lua: the LuaJIT FFI fast path (lua/obb/jit.lua) against the
-- classic binding, call by call.
--
-- Each fast function and the classic C function it replaced get the same
-- arguments, random and hostile (wrong types, NaN, infinities, strings,
-- tables, a box of the other dimension, a userdata dressed as a box, too
-- few or too many arguments); results must be the same values bit for bit
-- (the sign of zero included), errors the same text, and a mutated box the
-- same bits. OBB_JIT_CALLS sets the number of compared calls (CI's full run:
-- 1000000, two calls each); the default keeps `make test` quick.
--
-- Under OBB_NO_FFI=1 (`make test LUA=luajit OBB_NO_FFI=1`) and on other
-- Luas the fast path must be off, and this spec checks just that.
local obb = require "obb"
local H = require "helpers"

local CALLS = tonumber(os.getenv("OBB_JIT_CALLS")) or 60000
local forced_classic = (os.getenv("OBB_NO_FFI") or "") ~= "" and os.getenv("OBB_NO_FFI") ~= "0"
local J = package.loaded["obb.jit"]
local fast = rawget(_G, "jit") ~= nil and not forced_classic and pcall(require, "ffi")

-- The fast methods and their argument shapes, from the rows jit.lua
-- generates them from (lua/obb/jit_sigs.lua).
local SIGS = require "obb.jit_sigs"
-- A kind of argument as shapes of make_args below, in dimension dim.
local function shapes_of(kind, dim)
  local one = { box = "box" .. dim, ud = "box" .. dim, pt = "num", exts = "ext", dir = "dir",
                move = "move", turns = "turn", quat = "q" }
  local t = {}
  local n = SIGS.KINDS[kind][1]
  if type(n) == "table" then n = n[dim - 1] end
  for i = 1, n do t[i] = one[kind] or kind end
  return t
end
-- SHAPES[dim][name]: the forms, each a list of shapes.
local SHAPES, FAST2, FAST3 = { {}, {} }, {}, {}
for _, row in ipairs(SIGS.signatures) do
  for dim = 2, 3 do
    if row.dims == nil or row.dims == dim then
      local forms = {}
      for i = 2, #row do
        local form = {}
        for kind in row[i][1]:gmatch("%S+") do
          for _, shape in ipairs(shapes_of(kind, dim)) do form[#form + 1] = shape end
        end
        forms[#forms + 1] = form
      end
      SHAPES[dim - 1][row[1]] = forms
      local list = dim == 2 and FAST2 or FAST3
      list[#list + 1] = row[1]
    end
  end
end
-- and translations that overflow (the C side fails, the classic raises)
table.insert(SHAPES[1].translate, { "box2", "big", "big" })
table.insert(SHAPES[2].translate, { "box3", "big", "big", "big" })

local function is_c(f) return debug.getinfo(f, "S").what == "C" end

describe("the FFI fast path", function()
  if not fast then
    it("is off, and every method is the classic C function", function()
      if J then assert.is_not.equal("ffi", J.status) end
      for _, T in ipairs({ obb.obb2, obb.obb3 }) do
        for name, f in pairs(T) do assert.is_true(is_c(f), name) end
      end
    end)
    return
  end

  it("is installed under LuaJIT", function()
    assert.is_table(J)
    assert.equal("ffi", J.status)
    for _, name in ipairs(FAST2) do
      assert.is_false(is_c(obb.obb2[name]), name)
      assert.is_true(is_c(J.classic[obb.obb2][name]), name)
    end
    for _, name in ipairs(FAST3) do
      assert.is_false(is_c(obb.obb3[name]), name)
      assert.is_true(is_c(J.classic[obb.obb3][name]), name)
    end
    -- everything else stays classic
    for name, f in pairs(obb.obb2) do
      if J.classic[obb.obb2][name] == f then assert.is_true(is_c(f), name) end
    end
  end)

  -- A fast path that always fell back would pass every comparison: one
  -- valid call of each form of each fast method must not reach the
  -- classic function (the wrappers look it up in J.classic when they
  -- fall back, so a counter put there sees it).
  it("takes the fast case of every form of every fast method", function()
    local VALID = { num = 1.5, ext = 2, dir = 1, ang = 0.5, maxt = 10, move = 1, turn = 0.25 }
    local Q = { 0, 0, 0.6, 0.8 }
    for dim = 2, 3 do
      local T = dim == 2 and obb.obb2 or obb.obb3
      local C = J.classic[T]
      for name, forms in pairs(SHAPES[dim - 1]) do
        for _, form in ipairs(forms) do
          if form[2] ~= "big" then
            local args, q = {}, 0
            for i, shape in ipairs(form) do
              if shape == "box2" then args[i] = obb.new2(i, 0, 1, 2, 0.1)
              elseif shape == "box3" then args[i] = obb.new3(i, 0, 0, 1, 2, 3)
              elseif shape == "q" then q = q + 1; args[i] = Q[q]
              else args[i] = VALID[shape] end
            end
            local classic, calls = C[name], 0
            C[name] = function(...) calls = calls + 1; return classic(...) end
            local ok, err = pcall(T[name], H.unpack(args, 1, #form))
            C[name] = classic
            assert(ok, err)
            assert.are.equal(0, calls, ("%dD %s (%s) fell back to the classic function")
              :format(dim, name, table.concat(form, ", ")))
          end
        end
      end
    end
  end)

  it("is the list docs/love.md gives", function()
    local f = assert(io.open("docs/love.md"))
    local text = f:read("*a")
    f:close()
    local list = assert(text:match("They%s+are:(.-)Everything%s+else%s+is%s+the%s+classic%s+binding"))
    local documented, listed = {}, {}
    for name in list:gmatch("`([%w_]+)`") do documented[name] = true end
    for _, name in ipairs(FAST2) do listed[name] = true end
    for _, name in ipairs(FAST3) do listed[name] = true end
    for name in pairs(J.classic[getmetatable(obb.world2())]) do listed[name] = true end
    assert.are.same(listed, documented)
  end)

  -- ---- the comparison ---------------------------------------------------

  local C2, C3 = J.classic[obb.obb2], J.classic[obb.obb3]
  local r = H.rng(20261124)
  local nan, inf = 0 / 0, math.huge

  -- bit for bit: NaN matches NaN, 0 matches 0 only with the same sign
  local function same(x, y)
    if type(x) ~= type(y) then return false end
    if type(x) == "number" then
      if x ~= x then return y ~= y end
      return x == y and (x ~= 0 or 1 / x == 1 / y)
    end
    return rawequal(x, y)
  end

  local function show(v)
    if type(v) == "number" then return string.format("%.17g", v) end
    local ok, s = pcall(tostring, v) -- a disguised box has no __tostring that works
    return ok and s or type(v)
  end

  local function show_args(args)
    local s = {}
    for i = 1, args.n do s[i] = show(args[i]) end
    return table.concat(s, ", ")
  end

  -- Boxes: random ones, and ones on integer grids that touch exactly.
  local function rand_num()
    local k = r.int(1, 10)
    if k <= 5 then return r.range(-4, 4) end
    if k <= 7 then return r.int(-3, 3) end
    if k == 8 then return r.int(0, 1) == 0 and 0.0 or -0.0 end
    if k == 9 then return r.range(-1, 1) * 1e6 end
    return r.range(-1, 1) * 1e-300
  end
  local function rand_ext()
    local k = r.int(1, 6)
    if k <= 3 then return r.range(0, 3) end
    if k <= 5 then return r.int(0, 2) end
    return 0
  end
  local function rand_box2()
    if r.int(0, 1) == 0 then
      return obb.new2(r.int(-3, 3), r.int(-3, 3), r.int(0, 2), r.int(0, 2),
                      r.int(0, 3) * math.pi / 2)
    end
    return obb.new2(rand_num(), rand_num(), rand_ext(), rand_ext(), r.range(-4, 4))
  end
  local function rand_box3()
    if r.int(0, 1) == 0 then
      return obb.new3(r.int(-3, 3), r.int(-3, 3), r.int(-3, 3), r.int(0, 2),
                      r.int(0, 2), r.int(0, 2))
    end
    local qx, qy, qz, qw = r.quat()
    return obb.new3(rand_num(), rand_num(), rand_num(), rand_ext(), rand_ext(),
                    rand_ext(), qx, qy, qz, qw)
  end
  local POOL = 64
  local boxes2, boxes3 = {}, {}
  for i = 1, POOL do boxes2[i], boxes3[i] = rand_box2(), rand_box3() end

  -- Userdata dressed as boxes: a 3D box with the 2D metatable and the
  -- reverse, a file with a box's metatable. Given back after the spec.
  local mt2, mt3 = debug.getmetatable(boxes2[1]), debug.getmetatable(boxes3[1])
  local fake2, fake3 = obb.new3(1, 2, 3, 1, 1, 1), obb.new2(1, 2, 1, 1)
  local file = io.tmpfile()
  local file_mt = debug.getmetatable(file)

  local HOSTILE = { nan, inf, -inf, "1", "x", true, false, {}, print, file }
  local function hostile()
    local k = r.int(1, #HOSTILE + 5)
    if k <= #HOSTILE then return HOSTILE[k] end
    k = k - #HOSTILE
    if k == 1 then return fake2 end
    if k == 2 then return fake3 end
    if k == 3 then return boxes2[r.int(1, POOL)] end
    if k == 4 then return boxes3[r.int(1, POOL)] end
    return nil
  end

  -- One argument of a kind: valid mostly, hostile sometimes.
  local VALID = {
    box2 = function() return boxes2[r.int(1, POOL)] end,
    box3 = function() return boxes3[r.int(1, POOL)] end,
    num = rand_num,
    ext = function() return r.int(1, 20) == 1 and -r.range(0, 1) or rand_ext() end,
    ang = function() return r.range(-10, 10) end,
    q = function() return r.int(1, 30) == 1 and 0 or r.range(-1, 1) end,
    dir = function() return r.int(1, 8) == 1 and 0 or r.range(-2, 2) end,
    maxt = function()
      local k = r.int(1, 5)
      if k == 1 then return nil end
      if k == 2 then return inf end
      if k == 3 then return -1 end
      return r.range(0, 10)
    end,
    big = function() return r.int(0, 1) == 0 and 1.7e308 or -1.7e308 end,
    -- a sweep's displacement: small, or now and then enormous
    move = function() return r.int(1, 40) == 1 and 1e300 or r.range(-6, 6) end,
    -- a turn: every size the turning sweep takes, 0 and -0 included, and
    -- now and then one too fast to decide ("limit")
    turn = function()
      local k = r.int(1, 12)
      if k == 1 then return 0.0 end
      if k == 2 then return -0.0 end
      if k == 3 then return 1e17 end
      return r.range(-20, 20)
    end,
  }

  local function make_args(shape)
    local args = { n = #shape }
    local bad = r.int(1, 4) == 1
    for i, kind in ipairs(shape) do
      if bad and r.int(1, #shape) == 1 then args[i] = hostile()
      else args[i] = VALID[kind]() end
    end
    local k = r.int(1, 20)
    if k == 1 then args.n = args.n - 1; args[args.n + 1] = nil -- one too few
    elseif k == 2 then args.n = args.n + 1; args[args.n] = nil -- a trailing nil
    elseif k == 3 then args.n = args.n + 1; args[args.n] = rand_num() end
    return args
  end

  -- Argument shapes per function; several for overloaded ones.
  local SHAPES2, SHAPES3 = SHAPES[1], SHAPES[2]
  local MUTATORS = { set = true, set_center = true, set_angle = true, translate = true,
    rotate = true, set_rotation = true }

  -- The bits of a box, read by the classic accessors.
  local function bits(C, b)
    local t = H.pack(C.center(b))
    for _, m in ipairs({ "half_extents", "axes" }) do
      for _, v in ipairs({ C[m](b) }) do t.n = t.n + 1; t[t.n] = v end
    end
    return t
  end

  local function call(f, args) return H.pack(pcall(f, H.unpack(args, 1, args.n))) end

  -- Compares one call; returns nil or a description of the difference.
  local function compare(dim, name, args)
    local T, C = dim == 2 and obb.obb2 or obb.obb3, dim == 2 and C2 or C3
    local a1, a2 = args, args
    local self = args[1]
    -- A mutator changes any box the binding takes as one of this type (it
    -- goes by the tag, not the metatable): each path gets its own copy,
    -- dressed alike.
    local mutates = MUTATORS[name] and type(self) == "userdata" and pcall(C.center, self)
    if mutates then
      a1, a2 = { n = args.n }, { n = args.n }
      for i = 1, args.n do a1[i], a2[i] = args[i], args[i] end
      a1[1], a2[1] = C.clone(self), C.clone(self)
      debug.setmetatable(a1[1], debug.getmetatable(self))
      debug.setmetatable(a2[1], debug.getmetatable(self))
    end
    local got, want = call(T[name], a1), call(C[name], a2)
    local where = ("%dD %s(%s)"):format(dim, name, show_args(args))
    if got.n ~= want.n then
      return ("%s: %d results, classic %d"):format(where, got.n, want.n)
    end
    for i = 1, got.n do
      local x, y = got[i], want[i]
      if not (same(x, y) or (mutates and x == a1[1] and y == a2[1])) then
        return ("%s: result %d is %s, classic %s"):format(where, i, show(x), show(y))
      end
    end
    if mutates then
      local b1, b2 = bits(C, a1[1]), bits(C, a2[1])
      for i = 1, b2.n do
        if not same(b1[i], b2[i]) then
          return ("%s: box value %d is %s, classic %s"):format(where, i, show(b1[i]), show(b2[i]))
        end
      end
    end
    return nil
  end

  local function names(shapes)
    local list = {}
    for name in pairs(shapes) do list[#list + 1] = name end
    table.sort(list)
    return list
  end

  it("answers every call as the classic binding does, bit for bit", function()
    debug.setmetatable(fake2, mt2)
    debug.setmetatable(fake3, mt3)
    debug.setmetatable(file, mt2)
    local ok, err = pcall(function()
      local list = {}
      for _, name in ipairs(names(SHAPES2)) do list[#list + 1] = { 2, name, SHAPES2[name] } end
      for _, name in ipairs(names(SHAPES3)) do list[#list + 1] = { 3, name, SHAPES3[name] } end
      local done = 0
      while done < CALLS do
        for _, f in ipairs(list) do
          local shapes = f[3]
          local args = make_args(shapes[r.int(1, #shapes)])
          local diff = compare(f[1], f[2], args)
          if diff then error(diff, 0) end
          done = done + 1
          if done % 3 == 0 then -- the disguise swaps now and then
            debug.setmetatable(file, done % 2 == 0 and mt2 or mt3)
          end
        end
      end
    end)
    debug.setmetatable(fake2, mt3)
    debug.setmetatable(fake3, mt2)
    debug.setmetatable(file, file_mt)
    assert(ok, err)
  end)

  it("names the function and argument in errors as the classic binding does", function()
    local b2, b3 = obb.new2(0, 0, 1, 1), obb.new3(0, 0, 0, 1, 1, 1)
    local cases = {
      { obb.obb2, C2, function() local x = b2:set(nan, 0, 1, 1); return x end },
      { obb.obb2, C2, function() local x = b2:contains({}); return x end },
      { obb.obb2, C2, function() local x = b2.intersects(b3, b2); return x end },
      { obb.obb2, C2, function() local x = b2:raycast(0, 0, 0, 0); return x end },
      { obb.obb2, C2, function() local x = b2:translate(1.7e308, 0); b2:translate(1.7e308, 0); return x end },
      { obb.obb3, C3, function() local x = b3:rotate(0, 0, 0, 0); return x end },
      { obb.obb3, C3, function() local x = b3:penetration(b3, 1); return x end },
      { obb.obb3, C3, function() local x = obb.obb3.center(b2); return x end },
      { obb.obb2, C2, function() local x = b2:sweep(b2, 1, 0, 0, 0, 0 / 0, 0); return x end },
      { obb.obb3, C3, function() local x = b3:sweep(b3, 1, 0, 0, 0, 0, 0, 1); return x end },
    }
    for i, c in ipairs(cases) do
      local T, C, f = c[1], c[2], c[3]
      local msg_fast = H.error_of(f)
      -- the classic functions in their place, called from the same line
      local saved = {}
      for k, g in pairs(C) do saved[k] = T[k]; T[k] = g end
      local ok, msg_classic = pcall(f)
      for k, g in pairs(saved) do T[k] = g end
      assert.is_false(ok, "case " .. i)
      assert.equal(msg_classic, msg_fast, "case " .. i)
    end
  end)

  it("makes no garbage, interpreted (1,000,000 calls)", function()
    local a2, b2 = obb.new2(0, 0, 1, 2, 0.3), obb.new2(1, 1, 1, 1, -0.2)
    local a3 = obb.new3(0, 0, 0, 1, 2, 3, 0.1, 0.2, 0.3, 0.9)
    local b3 = obb.new3(1, 1, 1, 1, 1, 1)
    local rounds = math.ceil(1000000 / 3 / 38) -- kib_allocated_by runs it 3 times
    local function run()
      for _ = 1, rounds do
        a2:intersects(b2); a2:contains(0.5, 0.5); a2:contains(b2); a2:penetration(b2)
        a2:distance(3, 3); a2:distance(b2); a2:closest_point(3, 3)
        a2:raycast(-5, 0, 1, 0); a2:intersects_circle(2, 2, 1)
        a2:center(); a2:half_extents(); a2:axes(); a2:angle(); a2:corners()
        a2:set(0, 0, 1, 2, 0.3); a2:set_center(0, 0); a2:set_angle(0.3)
        a2:translate(0, 0); a2:rotate(0)
        a2:sweep(b2, 3, 0, 0, 0); a2:sweep(b2, 3, 0, 0, 0, 1, -1)
        a3:intersects(b3); a3:contains(0.5, 0.5, 0.5); a3:contains(b3); a3:penetration(b3)
        a3:distance(3, 3, 3); a3:distance(b3); a3:closest_point(3, 3, 3)
        a3:raycast(-5, 0, 0, 1, 0, 0, 100); a3:intersects_sphere(2, 2, 2, 1)
        a3:center(); a3:half_extents(); a3:axes(); a3:rotation(); a3:corners()
        a3:set(0, 0, 0, 1, 2, 3); a3:set(0, 0, 0, 1, 2, 3, 0.1, 0.2, 0.3, 0.9)
        a3:set_center(0, 0, 0); a3:set_rotation(0.1, 0.2, 0.3, 0.9)
        a3:translate(0, 0, 0); a3:rotate(0, 0, 0, 1)
        a3:sweep(b3, 3, 0, 0, 0, 0, 0); a3:sweep(b3, 3, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0)
      end
    end
    assert.are.equal(0, H.kib_allocated_by(run))
  end)

  -- Runs a chunk in a fresh luajit with this one's paths; returns its output.
  local function run(env, chunk)
    local cmd = ("LD_PRELOAD= %s LUA_PATH=%q LUA_CPATH=%q luajit -e %q 2>&1"):format(env, package.path,
      package.cpath, chunk)
    local p = assert(io.popen(cmd))
    local out = p:read("*a")
    p:close()
    return out
  end

  it("can be switched off: OBB_NO_FFI=1, or package.loaded['obb.jit'] = false", function()
    local function path(env, pre)
      return run(env, pre .. " local obb = require 'obb'; io.write(" ..
        "debug.getinfo(obb.obb2.intersects, 'S').what)")
    end
    assert.equal("Lua", path("", ""))
    assert.equal("C", path("OBB_NO_FFI=1", ""))
    assert.equal("Lua", path("OBB_NO_FFI=0", ""))
    assert.equal("C", path("", "package.loaded['obb.jit'] = false;"))
  end)

  -- ---- worlds: update and get by numbers ----------------------------------

  describe("on worlds", function()
    local WM = getmetatable(obb.world2())
    local CW = J.classic[WM]

    local REPLACED = { add = true, update = true, get = true, move = true,
                       check = true, cast = true, cast_turning = true, raycast = true,
                       query_box = true, query_point = true, move_solid = true, events = true,
                       is_on_floor = true, is_on_wall = true, is_on_ceiling = true,
                       floor_normal = true, platform_motion = true, floor = true }
    it("replaces add, update, get, move, check, the casts, raycast, the queries, move_solid, events "
       .. "and a character's state, "
       .. "and nothing else",
       function()
      assert.is_table(CW)
      for name in pairs(REPLACED) do
        assert.is_false(is_c(WM[name]), name)
        assert.is_true(is_c(CW[name]), name)
      end
      for name, f in pairs(WM) do
        if not REPLACED[name] then assert.is_true(is_c(f), name) end
      end
    end)

    it("takes the fast case of every world method", function()
      local calls, saved = {}, {}
      for name in pairs(REPLACED) do
        local classic = CW[name]
        saved[name] = classic
        calls[name] = 0
        CW[name] = function(...) calls[name] = calls[name] + 1; return classic(...) end
      end
      local ok, err = pcall(function()
        local out = {}
        local set = obb.responses({ [1] = "cross", default = "touch" })
        for dim = 2, 3 do
          local w = dim == 2 and obb.world2() or obb.world3()
          local box = dim == 2 and obb.new2(0, 0, 1, 1) or obb.new3(0, 0, 0, 1, 1, 1)
          if dim == 2 then
            w:add("a", 0, 0, 1, 1); w:add("b", 5, 0, 1, 1, 0.5)
            w:update("a", 0, 1, 1, 1); w:update("a", 0, 0, 1, 1, 0.25)
            w:get("a"); w:move("a", 3, 0); w:check("a", 6, 0, "slide", out)
            w:set_class("b", 1); w:move("a", 1, 0, set); w:check("a", 9, 0, set, out)
            assert(out[2] == "cross" and #out == 8, "the set answers b by its class")
            w:move("a", 2, 0, 0.3); w:check("a", 4, 0, 0.5, "slide", out); w:move("a", 1, 0, -0.2, set, out)
            w:cast(box, 4, 0, out); w:cast_turning(box, 4, 0, 1, out)
            w:query_box(obb.new2(3, 0, 3, 1), out); w:query_point(3, 0, out, nil)
            w:cast(box, 4, 0, out, set); w:cast_turning(box, 4, 0, 1, out, set)
            w:query_box(obb.new2(3, 0, 3, 1), out, set); w:query_point(3, 0, out, set)
            w:raycast(-3, 0, 1, 0, nil, out); w:raycast(-3, 0, 1, 0.1, 20, out, set)
            w:move_solid("b", 3, 0); w:move_solid("b", 3, 1, 0.2, set, out, "cross")
            w:move_solid("b", 3, 2, "ride", out, set)
            w:update("a", -20, 0, 1, 1); w:set_sensor("b"); w:events(out)
            w:update("a", 3, 2, 1, 1) -- b where move_solid left it
            assert(w:events(out) == 1 and out[2] == "a" and out[3] == "begin", "a begin")
            w:remove("b")
            assert(w:events(out) == 1 and out[1] == "b" and out[3] == "end", "an end")
            w:set_up(0, 1); w:add("f", 0, -10, 5, 1); w:update("a", 0, -8, 1, 1)
            w:set_character("a", { snap = 0.5 }); w:move("a", 0, -8.5)
            assert(w:is_on_floor("a") and not w:is_on_wall("a") and not w:is_on_ceiling("a"), "on f")
            local nx, ny = w:floor_normal("a")
            local f, fx, fy = w:floor("a")
            assert(nx == 0 and ny == 1 and f == "f" and fx == 0 and fy == 1, "f's top")
            assert(select("#", w:platform_motion("a")) == 2, "a motion")
          else
            w:add("a", 0, 0, 0, 1, 1, 1); w:add("b", 5, 0, 0, 1, 1, 1, 0, 0, 0.6, 0.8)
            w:update("a", 0, 1, 0, 1, 1, 1); w:update("a", 0, 0, 0, 1, 1, 1, 0, 0, 0, 1)
            w:get("a"); w:move("a", 3, 0, 0); w:check("a", 6, 0, 0, "slide", out)
            w:move("a", 1, 0, 0, set); w:check("a", 9, 0, 0, set, out)
            assert(out[2] == "touch" and #out == 10, "the set answers b by the default")
            w:move("a", 2, 0, 0, 0, 0.3, 0, 1); w:check("a", 4, 0, 0, 0, 0, 0.5, 1, "slide", out)
            w:move("a", 1, 0, 0, 0.1, 0, 0, 1, set, out)
            w:cast(box, 4, 0, 0, out); w:cast_turning(box, 4, 0, 0, 0, 0, 1, out)
            w:query_box(obb.new3(3, 0, 0, 3, 1, 1), out); w:query_point(3, 0, 0, out, nil)
            w:cast(box, 4, 0, 0, out, set); w:cast_turning(box, 4, 0, 0, 0, 0, 1, out, set)
            w:query_box(obb.new3(3, 0, 0, 3, 1, 1), out, set); w:query_point(3, 0, 0, out, set)
            w:raycast(-3, 0, 0, 1, 0, 0, nil, out); w:raycast(-3, 0, 0, 1, 0.1, 0, 20, out, set)
            w:move_solid("b", 3, 0, 0); w:move_solid("b", 3, 1, 0, 0, 0, 0.6, 0.8, set, out, "cross")
            w:move_solid("b", 3, 2, 0, "ride", out, set)
            w:update("a", -20, 0, 0, 1, 1, 1); w:set_sensor("b"); w:events(out)
            w:update("a", 3, 2, 0, 1, 1, 1) -- b where move_solid left it
            assert(w:events(out) == 1 and out[2] == "a" and out[3] == "begin", "a begin")
            w:remove("b")
            assert(w:events(out) == 1 and out[1] == "b" and out[3] == "end", "an end")
            w:set_up(0, 0, 1); w:add("f", 0, 0, -10, 5, 5, 1); w:update("a", 0, 0, -8, 1, 1, 1)
            w:set_character("a", { snap = 0.5 }); w:move("a", 0, 0, -8.5)
            assert(w:is_on_floor("a") and not w:is_on_wall("a") and not w:is_on_ceiling("a"), "on f")
            local f, fx, fy, fz = w:floor("a")
            assert(f == "f" and fx == 0 and fy == 0 and fz == 1, "f's top")
            assert(select("#", w:floor_normal("a")) == 3 and select("#", w:platform_motion("a")) == 3, "3D")
          end
          w:close()
        end
      end)
      for name, f in pairs(saved) do CW[name] = f end
      assert(ok, err)
      assert.are.same({ add = 0, update = 0, get = 0, move = 0, check = 0, cast = 0, cast_turning = 0,
                        raycast = 0, query_box = 0, query_point = 0, move_solid = 0,
                        events = 0, is_on_floor = 0, is_on_wall = 0, is_on_ceiling = 0,
                        floor_normal = 0, platform_motion = 0, floor = 0 }, calls)
    end)

    -- Two worlds of the same items, one driven by the fast methods and one
    -- by the classic ones, get the same calls: the results (errors
    -- included) and then every item's box must be the same, bit for bit.
    local function twin(dim)
      local A = dim == 2 and obb.world2() or obb.world3()
      local B = dim == 2 and obb.world2() or obb.world3()
      for i = 1, 20 do
        local args = dim == 2 and { i, i, 1, 2, 0.5 } or { i, i, i, 1, 2, 3 }
        A:add(i, H.unpack(args)); B:add(i, H.unpack(args))
      end
      return A, B
    end
    local ITEMS = { 1, 5, 20, 21, "x", 0 / 0, true, {}, 1.5 }
    local function rand_update(dim)
      local args = { n = 0 }
      local function put(x) args.n = args.n + 1; args[args.n] = x end
      local item = r.int(1, 4) == 1 and ITEMS[r.int(1, #ITEMS)] or r.int(1, 20)
      if r.int(1, 30) == 1 then item = nil end
      put(item)
      local counts = dim == 2 and { 4, 5, 4, 5, 3, 6, 10 } or { 6, 10, 6, 10, 5, 7, 4 }
      local n = counts[r.int(1, #counts)]
      for k = 1, n do
        local x = r.range(-10, 10)
        if k > dim and k <= 2 * dim then x = math.abs(x) end
        if r.int(1, 25) == 1 then x = hostile() end
        put(x)
      end
      if r.int(1, 40) == 1 then
        args.n = 2; args[2] = dim == 2 and obb.new2(1, 2, 3, 4) or obb.new3(1, 2, 3, 4, 5, 6)
      end
      return args
    end
    local function same_worlds(A, B, dim)
      if A:count() ~= B:count() then return false, "counts" end
      for i = 1, 40 do
        if A:has(i) ~= B:has(i) then return false, "has " .. i end
        local a = A:has(i) and H.pack(CW.get(A, i)) or {}
        local b = B:has(i) and H.pack(CW.get(B, i)) or {}
        for k = 1, (dim == 2 and 5 or 10) do
          if not same(a[k], b[k]) then return false, "item " .. i end
        end
      end
      return true
    end

    for _, dim in ipairs({ 2, 3 }) do
      it(dim .. "D: update and get answer as the classic methods, bit for bit", function()
        local A, B = twin(dim)
        local n = math.max(1000, math.floor(CALLS / 10))
        for c = 1, n do
          local args = rand_update(dim)
          local m = "update"
          if r.int(1, 5) == 1 then -- an add: new items 21..40, or one already in
            m = "add"
            if r.int(1, 2) == 1 then args[1] = r.int(21, 40) end
            local it = args[1]
            if r.int(1, 25) == 1 and it ~= nil and A:has(it) then A:remove(it); B:remove(it) end
          end
          local fa = call(WM[m], { n = args.n + 1, A, H.unpack(args, 1, args.n) })
          local ca = call(CW[m], { n = args.n + 1, B, H.unpack(args, 1, args.n) })
          assert.equal(ca.n, fa.n, show_args(args))
          assert.equal(ca[1], fa[1], show_args(args))
          if not ca[1] then assert.equal(ca[2], fa[2], show_args(args)) end
          local item = args[1]
          local g1 = call(WM.get, { n = 2, A, item })
          local g2 = call(CW.get, { n = 2, B, item })
          assert.equal(g2.n, g1.n)
          for k = 1, g2.n do
            assert.is_true(same(g1[k], g2[k]), "get " .. tostring(item) .. " value " .. k)
          end
          if c % 100 == 0 then assert.is_true(same_worlds(A, B, dim)) end
        end
        assert.is_true(same_worlds(A, B, dim))
      end)
    end

    -- move, check, cast and cast_turning: the same random calls on twin
    -- worlds (turned boxes, responses by name or by class through response
    -- sets, out tables reused, hostile arguments), answers, errors, out
    -- tables and then every box the same, bit for bit.
    local RESPONSES = { nil, "slide", "touch", "cross", "bounce", "slid", false, 3,
                        obb.responses({ [1] = "cross", [2] = "touch", [3] = false }),
                        obb.responses({ [0] = "bounce", [1] = "slide", default = "cross" }),
                        obb.responses({ [2] = "slide", [3] = "bounce", default = false }) }
    for _, dim in ipairs({ 2, 3 }) do
      it(dim .. "D: move, check, cast and cast_turning answer as the classic methods, bit for bit", function()
        local A, B = twin(dim)
        for i = 21, 60 do
          local args = dim == 2 and { r.range(-5, 25), r.range(-5, 25), r.range(0, 2), r.range(0, 2), r.range(-3, 3) }
            or { r.range(-5, 25), r.range(-5, 25), r.range(-5, 25), r.range(0, 2), r.range(0, 2), r.range(0, 2),
                 r.range(-1, 1), r.range(-1, 1), r.range(-1, 1), r.range(-1, 1) }
          A:add(i, H.unpack(args)); B:add(i, H.unpack(args))
        end
        for i = 1, 60 do
          local c = r.int(0, 3)
          A:set_class(i, c); B:set_class(i, c)
        end
        local outA, outB = {}, {}
        local n = math.max(2000, math.floor(CALLS / 20))
        for _ = 1, n do
          local m = ({ "move", "check", "cast", "cast_turning" })[r.int(1, 4)]
          local cast = m == "cast" or m == "cast_turning"
          local args = { n = 0 }
          local function put(x) args.n = args.n + 1; args[args.n] = x end
          if cast then
            put(dim == 2 and obb.new2(r.range(-5, 25), r.range(-5, 25), 1, 0.5, r.range(-3, 3))
              or obb.new3(r.range(-5, 25), r.range(-5, 25), r.range(-5, 25), 1, 0.5, 0.3))
          else
            put(r.int(1, 8) == 1 and ITEMS[r.int(1, #ITEMS)] or r.int(1, 60))
          end
          for _ = 1, dim do put(r.int(1, 30) == 1 and hostile() or r.range(-10, 30)) end
          if not cast and r.int(1, 3) == 1 then
            -- the turning form: a goal angle (2D) or quaternion (3D); now
            -- and then the other dimension's count, a zero quaternion,
            -- hostile values
            local k = dim == 2 and 1 or 4
            if r.int(1, 15) == 1 then k = 5 - k end
            local zero = r.int(1, 15) == 1
            for _ = 1, k do
              put(zero and 0 or r.int(1, 30) == 1 and hostile() or r.range(-4, 4))
            end
          end
          if m == "cast_turning" then
            -- the turn: its size, a turn of the other dimension's count now
            -- and then, hostile values
            local turns = dim == 2 and 1 or 3
            if r.int(1, 15) == 1 then turns = 4 - turns end
            for _ = 1, turns do
              put(r.int(1, 30) == 1 and hostile() or r.int(1, 10) == 1 and 0 or r.range(-8, 8))
            end
          end
          if cast then
            put("OUT")
            local k = r.int(1, 6)
            if k == 1 then put(function() return true end)
            elseif k == 2 then put(RESPONSES[r.int(9, 11)]) end -- a set
          else
            local k = r.int(1, 10)
            if k <= 6 then put(RESPONSES[r.int(1, #RESPONSES)]) ; if r.int(1, 3) > 1 then put("OUT") end
            elseif k == 7 then put(function(_, o) return o % 2 == 0 and "slide" or "cross" end); put("OUT") end
          end
          local a, b = { n = args.n + 1, A }, { n = args.n + 1, B }
          for k = 1, args.n do
            a[k + 1] = args[k] == "OUT" and outA or args[k]
            b[k + 1] = args[k] == "OUT" and outB or args[k]
          end
          local fa, ca = call(WM[m], a), call(CW[m], b)
          assert.equal(ca.n, fa.n, m .. " " .. show_args(args))
          for k = 1, ca.n do
            assert.is_true(same(ca[k], fa[k]), m .. " value " .. k .. " " .. show_args(args) ..
              " " .. tostring(ca[k]) .. " vs " .. tostring(fa[k]))
          end
          assert.equal(#outB, #outA)
          for k = 1, #outB do assert.is_true(same(outB[k], outA[k]), m .. " out " .. k) end
        end
        assert.is_true(same_worlds(A, B, dim))
      end)
    end

    -- ---- queries: query_box and query_point without a filter ----------

    -- A random world of dimension dim: up to 80 items (now and then 400)
    -- with keys of several types, turned boxes and boxes on an integer grid
    -- that touch exactly; then removals, adds (ids reused) and updates
    -- (stale leaves in the tree). Returns it and its live items.
    local function query_world(dim)
      local w = dim == 2 and obb.world2() or obb.world3()
      local live, made = {}, 0
      local function numbers()
        if r.int(1, 3) == 1 then
          if dim == 2 then return r.int(-6, 6), r.int(-6, 6), r.int(0, 2), r.int(0, 2) end
          return r.int(-6, 6), r.int(-6, 6), r.int(-6, 6), r.int(0, 2), r.int(0, 2), r.int(0, 2)
        end
        if dim == 2 then
          return r.range(-8, 8), r.range(-8, 8), r.range(0, 3), r.range(0, 3), r.range(-4, 4)
        end
        local qx, qy, qz, qw = r.quat()
        return r.range(-8, 8), r.range(-8, 8), r.range(-8, 8), r.range(0, 3), r.range(0, 3),
               r.range(0, 3), qx, qy, qz, qw
      end
      local function add()
        made = made + 1
        local k = r.int(1, 10)
        local item = made
        if k == 1 then item = "item" .. made elseif k == 2 then item = {} elseif k == 3 then item = made + 0.5 end
        w:add(item, numbers())
        if r.int(1, 2) == 1 then w:set_class(item, r.int(0, 3)) end -- for a set's answers
        live[#live + 1] = item
      end
      -- now and then enough items and moves that a query compacts the tree
      local n = r.int(1, 12) == 1 and r.int(256, 400) or r.int(0, 80)
      for _ = 1, n do add() end
      for _ = 1, r.int(0, n) do
        local k = r.int(1, 3)
        if k == 1 and #live > 0 then
          local i = r.int(1, #live)
          w:remove(live[i])
          live[i] = live[#live]
          live[#live] = nil
        elseif k == 2 then
          add()
        elseif #live > 0 then
          w:update(live[r.int(1, #live)], numbers())
        end
      end
      return w, live
    end

    -- A query's box, of dimension dim: on the grid now and then.
    local function query_box_of(dim)
      if r.int(1, 3) == 1 then
        if dim == 2 then return obb.new2(r.int(-7, 7), r.int(-7, 7), r.int(0, 4), r.int(0, 4)) end
        return obb.new3(r.int(-7, 7), r.int(-7, 7), r.int(-7, 7), r.int(0, 4), r.int(0, 4), r.int(0, 4))
      end
      if dim == 2 then
        return obb.new2(r.range(-9, 9), r.range(-9, 9), r.range(0, 6), r.range(0, 6), r.range(-4, 4))
      end
      local qx, qy, qz, qw = r.quat()
      return obb.new3(r.range(-9, 9), r.range(-9, 9), r.range(-9, 9), r.range(0, 6), r.range(0, 6),
                      r.range(0, 6), qx, qy, qz, qw)
    end

    -- The arguments of a random query_box or query_point call ("OUT" for
    -- the out table): valid mostly; now and then a box or a point of the
    -- other dimension, a hostile value (NaN, an infinity, a string, a
    -- userdata dressed as a box...), no out table or another value, a
    -- filter (a function, or a response set, which takes the fast path), a
    -- trailing nil or one argument too many.
    local QUERY_SETS = { obb.responses({ [1] = false }), obb.responses({ default = false, [2] = "touch" }),
                         obb.responses({ [0] = false, [3] = "cross" }) }
    local function query_args(dim, name)
      local args = { n = 0 }
      local function put(x) args.n = args.n + 1; args[args.n] = x end
      local bad = r.int(1, 6) == 1
      local d = r.int(1, 20) == 1 and 5 - dim or dim
      if name == "query_box" then
        put(bad and hostile() or query_box_of(d))
      elseif name == "raycast" then
        -- the origin, the direction (zero now and then), max_t (a number,
        -- nil, or now and then none, negative or NaN)
        for i = 1, 2 * d do
          local x = r.int(1, 3) == 1 and r.int(-7, 7) or r.range(-9, 9)
          if i > d then x = r.int(1, 8) == 1 and 0 or r.range(-1, 1) end
          put(bad and r.int(1, 2 * d) == 1 and hostile() or x)
        end
        local k = r.int(1, 12)
        if k == 1 then put(nil)
        elseif k == 2 then put(-1)
        elseif k == 3 then put(0 / 0)
        elseif k == 4 then put(math.huge)
        elseif k == 5 then put(0)
        elseif k ~= 6 then put(r.range(0, 20)) end -- 6: none, out in its place
      else
        for i = 1, d do
          local x = r.int(1, 3) == 1 and r.int(-7, 7) or r.range(-9, 9)
          if i == 1 and r.int(1, 40) == 1 then x = -0.0 end
          put(bad and r.int(1, d) == 1 and hostile() or x)
        end
      end
      local k = r.int(1, 30)
      if k == 1 then put(nil)
      elseif k == 2 then put(5)
      elseif k == 3 then put("OUT"); put(function(item) return type(item) == "number" end)
      elseif k == 4 then put("OUT"); put(nil)
      elseif k == 5 then put("OUT"); put(nil); put(nil)
      elseif k == 6 then put("OUT"); put(r.int(0, 1) == 0 and {} or 1)
      elseif k <= 12 then put("OUT"); put(QUERY_SETS[r.int(1, #QUERY_SETS)])
      elseif k == 13 then put("OUT"); put(QUERY_SETS[1]); put(1)
      else put("OUT") end
      return args
    end

    -- Whether two out tables hold the same values under the same keys.
    local function same_tables(a, b)
      for k, v in pairs(a) do
        if not same(v, rawget(b, k)) then return false, k end
      end
      for k, v in pairs(b) do
        if not same(v, rawget(a, k)) then return false, k end
      end
      return true
    end

    -- Fills both out tables with the same leftovers (a longer or shorter
    -- earlier result), now and then.
    local function leftovers(a, b)
      local k = r.int(1, 4)
      if k == 1 then
        for i = 1, r.int(0, 30) do
          local v = r.int(1, 2) == 1 and i or "old" .. i
          a[i], b[i] = v, v
        end
      elseif k == 2 then
        for i = #a, 1, -1 do a[i] = nil end
        for i = #b, 1, -1 do b[i] = nil end
      end
    end

    -- Runs the call on w (args as query_args gives them) through the fast
    -- method into outA and the classic one into outB, in either order, and
    -- compares results (errors included) and out tables.
    local function compare_query(w, name, args, outA, outB)
      local a, b = { n = args.n + 1, w }, { n = args.n + 1, w }
      for k = 1, args.n do
        a[k + 1] = args[k] == "OUT" and outA or args[k]
        b[k + 1] = args[k] == "OUT" and outB or args[k]
      end
      local fa, ca
      if r.int(0, 1) == 0 then fa = call(WM[name], a); ca = call(CW[name], b)
      else ca = call(CW[name], b); fa = call(WM[name], a) end
      local where = name .. "(" .. show_args(args) .. ")"
      assert.equal(ca.n, fa.n, where)
      for k = 1, ca.n do
        assert.is_true(same(ca[k], fa[k]), where .. " value " .. k .. ": " .. show(fa[k]) ..
          ", classic " .. show(ca[k]))
      end
      local ok, key = same_tables(outA, outB)
      assert.is_true(ok, where .. ": out[" .. tostring(key) .. "]")
      return fa
    end

    for _, dim in ipairs({ 2, 3 }) do
      it(dim .. "D: query_box, query_point and raycast answer as the classic methods, items in the same order",
         function()
        debug.setmetatable(fake2, mt2)
        debug.setmetatable(fake3, mt3)
        local found, fast_calls = 0, 0
        local ok, err = pcall(function()
          local worlds = math.max(150, math.floor(CALLS / 1000))
          for _ = 1, worlds do
            local w = query_world(dim)
            local outA, outB = {}, {}
            for _ = 1, 40 do
              local name = ({ "query_box", "query_point", "raycast" })[r.int(1, 3)]
              leftovers(outA, outB)
              local res = compare_query(w, name, query_args(dim, name), outA, outB)
              if res[1] then
                fast_calls = fast_calls + 1
                found = found + res[2]
              end
            end
            if r.int(1, 4) == 1 then -- closed: both refuse alike
              w:close()
              for _, name in ipairs({ "query_box", "query_point", "raycast" }) do
                local args = name == "query_box" and { n = 2, query_box_of(dim), "OUT" }
                  or name == "raycast" and (dim == 2 and { n = 6, 1, 2, 1, 0, nil, "OUT" }
                                            or { n = 8, 1, 2, 3, 0, 1, 0, 5, "OUT" })
                  or (dim == 2 and { n = 3, 1, 2, "OUT" } or { n = 4, 1, 2, 3, "OUT" })
                local res = compare_query(w, name, args, outA, outB)
                assert.is_false(res[1])
                assert.truthy(tostring(res[2]):find("world is closed", 1, true))
              end
            end
          end
        end)
        debug.setmetatable(fake2, mt3)
        debug.setmetatable(fake3, mt2)
        assert(ok, err)
        assert.is_true(fast_calls > 1000 and found > 1000, ("%d calls, %d items"):format(fast_calls, found))
      end)
    end

    it("queries refuse as the classic methods do: closed, other dimension, NaN, during a query", function()
      for dim = 2, 3 do
        local w = dim == 2 and obb.world2() or obb.world3()
        local ow = dim == 2 and obb.world2() or obb.world3()
        for i = 1, 10 do
          if dim == 2 then w:add(i, i, 0, 1, 1); ow:add(-i, i, 0, 2, 2)
          else w:add(i, i, 0, 0, 1, 1, 1); ow:add(-i, i, 0, 0, 2, 2, 2) end
        end
        local box = dim == 2 and obb.new2(3, 0, 2, 1) or obb.new3(3, 0, 0, 2, 1, 1)
        local other = dim == 3 and obb.new2(3, 0, 2, 1) or obb.new3(3, 0, 0, 2, 1, 1)
        -- points with the out table after them
        local pt = dim == 2 and { 3, 0, "OUT" } or { 3, 0, 0, "OUT" }
        local nan_pt = dim == 2 and { 3, 0 / 0, "OUT" } or { 3, 0, 0 / 0, "OUT" }
        local inf_pt = dim == 2 and { math.huge, 0, "OUT" } or { 3, -math.huge, 0, "OUT" }
        local other_pt = dim == 2 and { 3, 0, 0, "OUT" } or { 3, 0, "OUT" }
        local function both(name, ...)
          local oa, ob = {}, {}
          local args = H.pack(...)
          local a, b = { n = args.n + 1, w }, { n = args.n + 1, w }
          for k = 1, args.n do
            a[k + 1] = args[k] == "OUT" and oa or args[k]
            b[k + 1] = args[k] == "OUT" and ob or args[k]
          end
          local x, y = call(WM[name], a), call(CW[name], b)
          assert.equal(y.n, x.n)
          for k = 1, y.n do assert.equal(y[k], x[k], name .. " " .. k) end
          assert.is_true((same_tables(oa, ob)))
          return x, oa
        end
        assert.is_true(both("query_box", box, "OUT")[2] > 1)
        assert.is_true(both("query_point", H.unpack(pt))[2] > 1)
        assert.is_false(both("query_box", other, "OUT")[1])
        assert.is_false(both("query_box", w, "OUT")[1])
        assert.is_false(both("query_point", H.unpack(other_pt))[1])
        for _, p in ipairs({ nan_pt, inf_pt }) do
          local x = both("query_point", H.unpack(p))
          assert.is_false(x[1])
          assert.truthy(tostring(x[2]):find("finite number expected", 1, true), x[2])
        end
        -- during a query of the same world (locked: the classic method
        -- answers, with a buffer of its own) and of another one
        local inner = 0
        local n = w:query_box(box, {}, function()
          inner = inner + 1
          local x, o = both("query_box", box, "OUT")
          assert.is_true(x[2] > 1); assert.equal(x[2], #o)
          x = both("query_point", H.unpack(pt))
          assert.is_true(x[1])
          assert.equal(CW.query_box(ow, box, {}), ow:query_box(box, {}))
          return true
        end)
        assert.equal(n, inner)
        w:close()
        local x = both("query_box", box, "OUT")
        assert.truthy(x[2]:find("world is closed", 1, true))
        x = both("query_point", H.unpack(pt))
        assert.truthy(x[2]:find("world is closed", 1, true))
        local fake = obb.new2(0, 0, 1, 1)
        debug.setmetatable(fake, debug.getmetatable(ow))
        assert.is_false(call(WM.query_box, { n = 3, fake, box, {} })[1])
        assert.is_false(call(WM.query_point, { n = 4, fake, 1, 2, {} })[1])
        debug.setmetatable(fake, debug.getmetatable(obb.new2(0, 0, 1, 1)))
      end
    end)

    it("queries with more items than the buffer holds are the classic method's", function()
      local calls, classic = 0, CW.query_box
      CW.query_box = function(...) calls = calls + 1; return classic(...) end
      local ok, err = pcall(function()
        local w = obb.world2()
        local box = obb.new2(0, 0, 1, 1)
        for i = 1, 4096 do w:add(i, 0, 0, 1, 1) end
        local a, b = {}, {}
        assert.equal(4096, w:query_box(box, a))
        assert.equal(0, calls) -- as many as it holds: the fast case
        w:add(4097, 0, 0, 1, 1)
        assert.equal(4097, w:query_box(box, a))
        assert.equal(1, calls)
        assert.equal(4097, classic(w, box, b))
        assert.is_true((same_tables(a, b)))
        w:remove(5)
        assert.equal(4096, w:query_box(box, a))
        assert.equal(1, calls)
        assert.equal(4096, classic(w, box, b))
        assert.is_true((same_tables(a, b)))
      end)
      CW.query_box = classic
      assert(ok, err)
    end)

    -- Something that runs between a query's C call and its reading of the
    -- ids (a finalizer, at a GC step or a trace's exit; here also a count
    -- hook, at every few instructions) and runs another query overwrites
    -- the shared buffer: the generation sends the call to the classic
    -- method, and out holds this call's items only.
    it("query answers belong to their call while a hook or finalizers run other queries", function()
      local jit_ = rawget(_G, "jit")
      for dim = 2, 3 do
        local w = dim == 2 and obb.world2() or obb.world3()
        local ow = dim == 2 and obb.world2() or obb.world3()
        -- the other world has more items: ids this one does not have
        for i = 1, 60 do
          if dim == 2 then w:add(i, i % 8, math.floor(i / 8), 0.6, 0.6, i * 0.1)
          else w:add(i, i % 8, math.floor(i / 8), 0, 0.6, 0.6, 0.6) end
        end
        for i = 1, 150 do
          if dim == 2 then ow:add("o" .. i, i % 15, math.floor(i / 15), 2, 2)
          else ow:add("o" .. i, i % 15, math.floor(i / 15), 0, 2, 2, 2) end
        end
        local obox = dim == 2 and obb.new2(3, 3, 9, 9) or obb.new3(3, 3, 0, 9, 9, 9)
        local oout = {}
        local k = 0
        local function noise()
          k = k + 1
          if k % 3 == 0 then ow:query_box(obox, oout)
          elseif k % 3 == 1 then
            if dim == 2 then ow:query_point(2, 2, oout) else ow:query_point(2, 2, 0, oout) end
          else w:query_box(obox, oout) end -- this world, other items
        end
        local saved = { query_box = CW.query_box, query_point = CW.query_point }
        local fallbacks = 0
        for name, f in pairs(saved) do
          CW[name] = function(...) fallbacks = fallbacks + 1; return f(...) end
        end
        local outA, outB = {}, {}
        local ok, err = pcall(function()
          -- a count hook, interpreted
          if jit_ then jit_.flush(); jit_.off() end
          for step = 1, 400 do
            local b = query_box_of(dim)
            local x, y = r.range(-1, 8), r.range(-1, 8)
            local box_query = step % 2 == 0
            leftovers(outA, outB)
            local n, m
            debug.sethook(noise, "", r.int(1, 60))
            if box_query then n = w:query_box(b, outA)
            elseif dim == 2 then n = w:query_point(x, y, outA)
            else n = w:query_point(x, y, 0, outA) end
            debug.sethook()
            if box_query then m = saved.query_box(w, b, outB)
            elseif dim == 2 then m = saved.query_point(w, x, y, outB)
            else m = saved.query_point(w, x, y, 0, outB) end
            assert.equal(m, n, step)
            assert.is_true((same_tables(outA, outB)), step)
          end
          if jit_ then jit_.on() end
          assert.is_true(fallbacks > 0, "the hook never ran in the middle of a query")
          -- finalizers, compiled and interpreted
          local pause = collectgarbage("setpause", 100)
          local stepmul = collectgarbage("setstepmul", 1000)
          local stop = H.finalizer_chain(20, noise)
          local ok2, err2 = pcall(function()
            for step = 1, 20000 do
              local b = query_box_of(dim)
              local x, y = r.range(-1, 8), r.range(-1, 8)
              local n, m
              if step % 2 == 0 then
                n, m = w:query_box(b, outA), saved.query_box(w, b, outB)
              elseif dim == 2 then
                n, m = w:query_point(x, y, outA), saved.query_point(w, x, y, outB)
              else
                n, m = w:query_point(x, y, 0, outA), saved.query_point(w, x, y, 0, outB)
              end
              if n ~= m or not same_tables(outA, outB) then error("step " .. step .. " differs", 0) end
            end
          end)
          stop()
          collectgarbage("setpause", pause)
          collectgarbage("setstepmul", stepmul)
          collectgarbage()
          assert(ok2, err2)
        end)
        debug.sethook()
        if jit_ then jit_.on() end
        for name, f in pairs(saved) do CW[name] = f end
        assert(ok, err)
      end
    end)

    it("queries make no garbage (100,000 calls)", function()
      local w2, w3 = obb.world2(), obb.world3()
      for i = 1, 35 do w2:add(i, i % 7, math.floor(i / 7), 1, 1); w3:add(i, i % 7, math.floor(i / 7), 0, 1, 1, 1) end
      local b2, b3 = obb.new2(3, 2, 2, 1.5, 0.3), obb.new3(3, 2, 0, 2, 1.5, 1)
      local o2, o3 = {}, {}
      local rounds = math.ceil(100000 / 3 / 4)
      local function calls()
        for _ = 1, rounds do
          w2:query_box(b2, o2); w2:query_point(3, 2, o2)
          w3:query_box(b3, o3); w3:query_point(3, 2, 0, o3)
          w2:raycast(-1, 0.5, 1, 0.2, nil, o2); w3:raycast(-1, 0.5, 0, 1, 0.2, 0, 30, o3)
        end
      end
      assert.is_true(w2:query_box(b2, o2) > 1 and w3:query_box(b3, o3) > 1)
      assert.are.equal(0, H.kib_allocated_by(calls))
    end)

    it("casts make no garbage (100,000 calls)", function()
      local w2, w3 = obb.world2(), obb.world3()
      for i = 1, 10 do w2:add(i, i, 0, 1, 1); w3:add(i, i, 0, 0, 1, 1, 1) end
      local b2, b3 = obb.new2(0, 0, 1, 0.5), obb.new3(0, 0, 0, 1, 0.5, 0.5)
      local o2, o3 = {}, {}
      local rounds = math.ceil(100000 / 3 / 4)
      local function calls()
        for _ = 1, rounds do
          w2:cast(b2, 4, 0, o2); w2:cast_turning(b2, 4, 0, 0.5, o2)
          w3:cast(b3, 4, 0, 0, o3); w3:cast_turning(b3, 4, 0, 0, 0, 0.5, 0, o3)
        end
      end
      assert.is_true(w2:cast_turning(b2, 4, 0, 0.5, o2) > 1)
      assert.are.equal(0, H.kib_allocated_by(calls))
    end)

    it("refuses as the classic methods do: closed, during a query, other dimension", function()
      local w2, w3 = obb.world2(), obb.world3()
      w2:add("a", 0, 0, 1, 1); w3:add("a", 0, 0, 0, 1, 1, 1)
      local function both(f, ...)
        local x, y = H.pack(pcall(WM[f], ...)), H.pack(pcall(CW[f], ...))
        assert.equal(y[1], x[1]); assert.equal(y[2], x[2])
        return x
      end
      both("update", w3, "a", 0, 0, 1, 1)       -- 2D numbers to a 3D world
      both("update", w2, "a", 0, 0, 0, 1, 1, 1) -- and the other way
      assert.is_true(both("update", w2, "a", 1, 2, 3, 4)[1])
      local out = {}
      w2:query_box(obb.new2(0, 0, 9, 9), out, function()
        local x = both("update", w2, "a", 1, 1, 1, 1)
        assert.is_false(x[1])
        assert.truthy(x[2]:find("during its query", 1, true))
        both("get", w2, "a")
        return true
      end)
      w2:close()
      local x = both("update", w2, "a", 1, 1, 1, 1)
      assert.truthy(x[2]:find("world is closed", 1, true))
      both("get", w2, "a")
      local fake = obb.new2(0, 0, 1, 1)
      debug.setmetatable(fake, debug.getmetatable(w3))
      both("update", fake, "a", 0, 0, 1, 1)
      both("get", fake, "a")
      debug.setmetatable(fake, debug.getmetatable(obb.new2(0, 0, 1, 1)))
    end)

    it("keeps every added box while finalizers add to another world", function()
      local w, other = obb.world2(), obb.world2()
      local n = 0
      local function bomb()
        local p = newproxy(true)
        getmetatable(p).__gc = function()
          n = n + 1
          pcall(other.add, other, "o" .. n, 1e6 + n, -1e6, 9, 9, 1)
        end
        return p
      end
      collectgarbage("restart")
      local pause = collectgarbage("setpause", 1)
      local stepmul = collectgarbage("setstepmul", 10000)
      for i = 1, 3000 do
        bomb()
        w:add(i, i, 2 * i, 1, 1, 0.25)
      end
      collectgarbage("setpause", pause)
      collectgarbage("setstepmul", stepmul)
      collectgarbage()
      assert.is_true(n > 0, "no finalizer ran")
      for i = 1, 3000 do
        local cx, cy, hx, hy = w:get(i)
        assert.same({ i, 2 * i, 1, 1 }, { cx, cy, hx, hy })
      end
    end)

    it("makes no garbage (1,000,000 calls)", function()
      local w2, w3 = obb.world2(), obb.world3()
      for i = 1, 10 do w2:add(i, i, 0, 1, 1); w3:add(i, i, 0, 0, 1, 1, 1) end
      local rounds = math.ceil(1000000 / 3 / 6)
      local function calls()
        for k = 1, rounds do
          local i = k % 10 + 1
          w2:update(i, i, 0, 1, 1); w2:update(i, i, 0, 1, 1, 0.5); w2:get(i)
          w3:update(i, i, 0, 0, 1, 1, 1); w3:update(i, i, 0, 0, 1, 1, 1, 0, 0, 0, 1)
          w3:get(i)
        end
      end
      assert.are.equal(0, H.kib_allocated_by(calls))
    end)
  end)

  it("ignores a later install that brings other metatables", function()
    -- a script calling install with a proxy's metatable whose __index is
    -- the real method table, to have its proxies taken for boxes
    local p = newproxy(true)
    local X = getmetatable(p)
    X.__index = obb.obb2
    local before = {}
    for k, f in pairs(obb.obb2) do before[k] = f end
    local fake = setmetatable({ new2 = function() return p end }, { __index = obb })
    J.install(fake, package.searchpath("obb", package.cpath), X, X, X, function() return true end)
    assert.equal("ffi", J.status)
    for k, f in pairs(obb.obb2) do assert.equal(before[k], f, k) end
    local ok, err = pcall(obb.obb2.center, newproxy(p))
    assert.is_false(ok)
    assert.truthy(err:find("obb.obb2 expected, got userdata", 1, true))
  end)

  it("stays classic without a debug.getmetatable that sees the real metatable", function()
    local function status(pre)
      return run("", "local getinfo = debug.getinfo; " .. pre ..
        " local obb = require 'obb'; io.write(require('obb.jit').status, ' ', " ..
        "getinfo(obb.obb2.intersects, 'S').what)")
    end
    assert.equal("ffi Lua", status(""))
    assert.equal("classic: no debug.getmetatable C",
      status("debug = nil;"))
    -- replaced before obb loads by one that honours __metatable
    assert.truthy(status("debug.getmetatable = getmetatable;"):find(
      "classic: .*debug.getmetatable does not give the real metatables C$"))
  end)
end)
