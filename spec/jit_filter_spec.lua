-- spec/jit_filter_spec.lua: world:move and world:check with a filter
-- function, on LuaJIT's FFI path (lua/obb/jit_world.lua: the move runs in
-- C until it meets an other it must ask about, Lua asks the filter, and
-- the move goes on from that leg) against the classic binding (which calls the filter
-- from C), call by call: the same questions to the filter, in the same
-- order, with the same numbers, and the same answers, out tables, errors
-- and boxes, bit for bit. On other Luas, and under OBB_NO_FFI=1, both
-- sides are the classic binding and the rules are checked all the same.
local obb = require "obb"
local H = require "helpers"

local J = package.loaded["obb.jit"]
local WM = getmetatable(obb.world2())
local CW = J and J.classic and J.classic[WM] or WM -- the classic methods
local ffi_path = CW ~= WM

-- Bit-for-bit equality (NaN equals NaN, -0 differs from 0).
local function same(a, b)
  if type(a) == "number" and type(b) == "number" then
    if a ~= a then return b ~= b end
    return a == b and 1 / a == 1 / b
  end
  return a == b
end

local function world(dim, cell)
  if dim == 2 then return cell and obb.world2({ cell = cell }) or obb.world2() end
  return cell and obb.world3({ cell = cell }) or obb.world3()
end

-- Twin worlds of the same items: tiles on a grid, turned boxes, a crowd.
local function twins(dim, r, cell)
  local A, B = world(dim, cell), world(dim, cell)
  local function add(item, ...) A:add(item, ...); B:add(item, ...) end
  for i = 1, 60 do
    if dim == 2 then
      add(i, (i % 10) * 2, math.floor(i / 10) * 2, 1, 1, r.int(1, 3) == 1 and r.range(-3, 3) or 0)
    else
      add(i, (i % 5) * 2, math.floor(i / 5) % 4 * 2, math.floor(i / 20) * 2, 1, 1, 1)
    end
  end
  for i = 61, 80 do
    if dim == 2 then add(i, r.range(0, 20), r.range(0, 12), r.range(0.2, 1), r.range(0.2, 1), r.range(-3, 3))
    else add(i, r.range(0, 10), r.range(0, 8), r.range(0, 6), r.range(0.2, 1), r.range(0.2, 1), r.range(0.2, 1))
    end
  end
  return A, B
end

-- A filter that logs every question into log and answers by a rule that
-- depends on the other, the normal, the time, the depth and a salt the
-- test changes between moves (so the FFI path's guesses go wrong).
local ANSWERS = { "slide", "cross", "touch", "bounce", false, "slide", "cross", "slide" }
local function logging(dim, log, salt)
  return function(item, other, ...)
    local a = H.pack(item, other, ...)
    log[#log + 1] = a
    local nx, t = a[3], a[dim + 3]
    local k = (other * 7 + salt[1] + (nx > 0 and 1 or 0) + (t > 0.5 and 2 or 0)) % #ANSWERS + 1
    return ANSWERS[k]
  end
end

local function same_calls(la, lb, what)
  assert.equal(#lb, #la, what .. ": the number of questions")
  for i = 1, #lb do
    assert.equal(lb[i].n, la[i].n, what)
    for k = 1, lb[i].n do
      assert.is_true(same(lb[i][k], la[i][k]), ("%s: question %d, value %d: %s vs %s")
        :format(what, i, k, tostring(lb[i][k]), tostring(la[i][k])))
    end
  end
end

local function same_results(ra, rb, what)
  assert.equal(rb.n, ra.n, what)
  for k = 1, rb.n do
    assert.is_true(same(rb[k], ra[k]), what .. " value " .. k .. ": " .. tostring(rb[k]) .. " vs " .. tostring(ra[k]))
  end
end

-- Where item's center is.
local function at(w, item)
  local x, y = w:get(item)
  return { x, y }
end

-- Counts the calls that fall back to the classic move and check.
local function counting(fn)
  local calls, saved = { move = 0, check = 0 }, {}
  if ffi_path then
    for name in pairs(calls) do
      local classic = CW[name]
      saved[name] = classic
      CW[name] = function(...) calls[name] = calls[name] + 1; return classic(...) end
    end
  end
  local ok, err = pcall(fn)
  for name, f in pairs(saved) do CW[name] = f end
  assert(ok, err)
  return calls
end

describe("a move's filter function", function()
  for _, dim in ipairs({ 2, 3 }) do
    for _, cell in ipairs({ false, 2 }) do
      it(("%dD%s: is asked as the classic binding asks it, bit for bit"):format(dim, cell and ", cells" or ""),
        function()
          local r = H.rng(dim * 100 + (cell and 7 or 0))
          local A, B = twins(dim, r, cell)
          local outA, outB, salt = {}, {}, { 0 }
          local logA, logB = {}, {}
          local fa, fb = logging(dim, logA, salt), logging(dim, logB, salt)
          for step = 1, 1500 do
            -- a new salt now and then: the answers about an other change
            if r.int(1, 5) == 1 then salt[1] = r.int(0, 7) end
            local item = r.int(61, 80)
            local args = { n = 0 }
            local function put(x) args.n = args.n + 1; args[args.n] = x end
            put(item)
            for _ = 1, dim do put(r.range(-2, 22)) end
            if r.int(1, 3) == 1 then -- the turning form
              if dim == 2 then put(r.range(-4, 4))
              else put(r.range(-1, 1)); put(r.range(-1, 1)); put(r.range(-1, 1)); put(r.range(0.1, 1)) end
            end
            local m = r.int(1, 2) == 1 and "move" or "check"
            local a, b = H.pack(A, H.unpack(args, 1, args.n)), H.pack(B, H.unpack(args, 1, args.n))
            a[a.n + 1], b[b.n + 1] = fa, fb
            a[a.n + 2], b[b.n + 2] = outA, outB
            a.n, b.n = a.n + 2, b.n + 2
            for k = 1, #logA do logA[k] = nil end
            for k = 1, #logB do logB[k] = nil end
            local ra = H.pack(pcall(WM[m], H.unpack(a, 1, a.n)))
            local rb = H.pack(pcall(CW[m], H.unpack(b, 1, b.n)))
            local what = ("step %d, %s"):format(step, m)
            same_results(ra, rb, what)
            same_calls(logA, logB, what)
            assert.equal(#outB, #outA, what)
            for k = 1, #outB do assert.is_true(same(outB[k], outA[k]), what .. " out " .. k) end
          end
          for i = 1, 80 do
            local ba, bb = H.pack(A:get(i)), H.pack(B:get(i))
            same_results(ba, bb, "item " .. i)
          end
        end)
    end
  end

  it("is asked about each other once, in the order met, through a crowd larger than any buffer", function()
    local A, B = obb.world2(), obb.world2()
    for i = 1, 300 do A:add(i, 1 + i * 0.1, 0, 0.5, 0.5); B:add(i, 1 + i * 0.1, 0, 0.5, 0.5) end
    A:add("p", 0, 0, 0.4, 0.4); B:add("p", 0, 0, 0.4, 0.4)
    -- rounds 1 to 3 answer in a pattern, every third other ignored (200
    -- records), round 4 alike (300): a move whose records outgrow its
    -- buffers is finished by the classic method, the answers asked
    -- replayed, and its buffers grow to what it needed, so that the next
    -- such move stays on the fast path (B's, and rounds 2 and 3)
    for round = 1, 4 do
      local function answer(o)
        if round < 4 and (o + round) % 3 == 0 then return false end
        return "cross"
      end
      local la, lb, seen = {}, {}, {}
      local function fa(_, o)
        assert.is_nil(seen[o], "asked twice about " .. tostring(o))
        seen[o] = true
        la[#la + 1] = o
        return answer(o)
      end
      local function fb(_, o)
        lb[#lb + 1] = o
        return answer(o)
      end
      local outA, outB = {}, {}
      local calls = counting(function()
        same_results(H.pack(A:check("p", 40, 0, fa, outA)), H.pack(B:check("p", 40, 0, fb, outB)), "crowd")
      end)
      assert.equal(300, #la)
      for k = 1, #lb do assert.equal(lb[k], la[k]) end
      assert.equal((round < 4 and 200 or 300) * 8, #outA)
      for k = 1, #outB do assert.is_true(same(outB[k], outA[k]), "out " .. k) end
      -- (A's check and B's, on the FFI path)
      assert.equal(ffi_path and (round == 1 or round == 4) and 1 or 0, calls.check,
        "the fast path answered, round " .. round)
    end
  end)

  it("with answers that change at random is still asked once per other, as the classic binding asks", function()
    local r = H.rng(99)
    local A, B = twins(2, r, 2)
    for step = 1, 400 do
      local seed = r.int(1, 1000000)
      local item, gx, gy = 61 + step % 20, r.range(-2, 22), r.range(-2, 14)
      local logs = {}
      for side = 1, 2 do
        local g, seen, log = H.rng(seed), {}, {}
        logs[side] = log
        local f = function(_, o, nx, ny, t, depth)
          assert.is_nil(seen[o], "asked twice about " .. tostring(o))
          seen[o] = true
          log[#log + 1] = H.pack(o, nx, ny, t, depth)
          return ANSWERS[g.int(1, #ANSWERS)]
        end
        local w, m = side == 1 and A or B, side == 1 and WM or CW
        logs[side].res = H.pack(m.check(w, item, gx, gy, f, {}))
      end
      same_calls(logs[1], logs[2], "step " .. step)
      same_results(logs[1].res, logs[2].res, "step " .. step)
    end
  end)

  it("moves in another world from inside its filter, each move its own buffers", function()
    local r = H.rng(5)
    local A1, B1 = twins(2, r, false)
    local A2, B2 = twins(2, r, 2)
    local function inner(m, w2, outs)
      return function(_, o)
        local function f(_, p) if p % 3 == 0 then return "cross" end return "slide" end
        local res = H.pack(m.check(w2, 61 + o % 20, o % 20, 6, f, outs))
        outs.n = res[res.n]
        return o % 2 == 0 and "cross" or "slide"
      end
    end
    for step = 1, 200 do
      local item, gx, gy = 61 + step % 20, r.range(-2, 22), r.range(-2, 14)
      local oa, ob, ia, ib = {}, {}, {}, {}
      local ra = H.pack(WM.check(A1, item, gx, gy, inner(WM, A2, ia), oa))
      local rb = H.pack(CW.check(B1, item, gx, gy, inner(CW, B2, ib), ob))
      same_results(ra, rb, "step " .. step)
      assert.equal(#ob, #oa)
      for k = 1, #ob do assert.is_true(same(ob[k], oa[k]), "out " .. k) end
      assert.equal(#ib, #ia)
      for k = 1, #ib do assert.is_true(same(ib[k], ia[k]), "inner out " .. k) end
    end
  end)

  it("that raises after a wrong guess leaves the world unlocked and the item where it was", function()
    local w = obb.world2()
    for i = 1, 6 do w:add(i, i * 1.5, 0, 0.5, 0.5) end
    w:add("p", 0, 0, 0.5, 0.5)
    -- first: guesses learnt ("cross" for all)
    w:check("p", 12, 0, function() return "cross" end)
    local asked = 0
    local ok, e = pcall(w.move, w, "p", 12, 0, function(_, o)
      asked = asked + 1
      if o == 4 then error("late") end
      if o == 2 then return false end -- a wrong guess: the move runs again
      return "cross"
    end)
    assert.is_false(ok)
    assert.matches("late", e)
    assert.equal(4, asked)
    assert.are.same({ 0, 0 }, at(w, "p"))
    w:update("p", 0, 0, 0.5, 0.5)
    assert.equal(7, w:count())
  end)

  it("takes the fast path on LuaJIT, and makes no garbage", function()
    local w = obb.world2({ cell = 4 })
    for i = 1, 40 do w:add(i, (i % 10) * 2, math.floor(i / 10) * 2, 1, 1) end
    w:add("p", 5, -3, 0.5, 0.5)
    local out = {}
    local function filter(_, o) if o % 2 == 0 then return "cross" end return "slide" end
    local function frame(n)
      for k = 1, n do
        w:move("p", 5 + (k % 7), 3 - (k % 5), filter, out)
        w:check("p", 4, 9, 0.5, filter, out)
        w:update("p", 5, -3, 0.5, 0.5)
      end
    end
    local calls = counting(function() frame(50) end)
    assert.equal(0, calls.move + calls.check, "every move took the fast path")
    -- interpreted (the compiler's own objects are not the moves'), after a
    -- run that makes what is made once (H.kib_allocated_by)
    assert.are.equal(0, H.kib_allocated_by(function() frame(2000) end))
  end)

  -- The issue 42 loops in small: tiles as tables, movers as tables that
  -- walk to and fro, fall and read their out table every move, with a
  -- filter function that crosses the other movers (or slides on them).
  local function loop_scene(cross)
    local w = obb.world2()
    for i = 0, 29 do w:add({ tile = true }, i * 16 + 8, 8, 8, 8) end -- the floor
    for i = 0, 29, 5 do w:add({ tile = true }, i * 16 + 8, 24, 8, 8) end -- steps
    local movers = {}
    for i = 1, 40 do
      local m = { mover = true, x = 12 + i * 11, y = 40 + (i % 3) * 14 }
      w:add(m, m.x, m.y, 6, 6)
      movers[i] = m
    end
    local out, sum = {}, 0
    local function filter(_, other)
      if cross and other.mover then return "cross" end
      return "slide"
    end
    local k = 0
    return function(frames)
      for _ = 1, frames do
        k = k + 1
        for i = 1, #movers do
          local m = movers[i]
          local x, y = w:get(m)
          local dx = ((k + i) % 32 < 16) and 1.5 or -1.5
          local _, _, n = w:move(m, x + dx, y - 2, filter, out)
          for j = 1, n * obb.MOVE2.stride do
            if type(out[j]) == "number" then sum = sum + out[j] end
          end
        end
        if k % 64 == 0 then -- back up, so the walk goes on for ever
          for i = 1, #movers do
            local m = movers[i]
            w:update(m, m.x, m.y, 6, 6)
          end
        end
      end
      return sum
    end
  end

  it("makes no garbage with the JIT on, once it compiled the loop: movers that cross and movers that slide", function()
    for _, cross in ipairs({ true, false }) do
      local frames = loop_scene(cross)
      local calls = counting(function() frames(200) end) -- (the pools filled, the loop hot)
      assert.equal(0, calls.move, "every move took the fast path")
      local bytes, runs = H.bytes_allocated_jit_on(function() frames(100) end, 40)
      assert.is_not_nil(bytes, "the compiler was still making traces after 40 runs of 4,000 moves")
      assert.are.equal(0, bytes, ("%s bytes in 4,000 moves (run %d)"):format(tostring(bytes), runs))
    end
  end)

  it("answers that are no response raise as the classic binding's, naming the argument", function()
    for _, dim in ipairs({ 2, 3 }) do
      local A, B = world(dim), world(dim)
      for _, w in ipairs({ A, B }) do
        if dim == 2 then w:add("p", 0, 0, 1, 1); w:add("q", 3, 0, 1, 1)
        else w:add("p", 0, 0, 0, 1, 1, 1); w:add("q", 3, 0, 0, 1, 1, 1) end
      end
      local goal = dim == 2 and { 5, 0 } or { 5, 0, 0 }
      for _, bad in ipairs({ "slid", "touch\0x", 3, true, {}, "" }) do
        local function f() return bad end
        -- a method call (argument numbers less the world) and a plain call
        local g3, f3 = goal[3] or f, goal[3] and f
        local ea = select(2, pcall(function() local x = A:move("p", goal[1], goal[2], g3, f3) return x end))
        local eb = select(2, pcall(function() local x = CW.move(B, "p", goal[1], goal[2], g3, f3) return x end))
        assert.is_string(ea)
        assert.matches("bad argument #" .. (dim + 2) .. " to 'move'", ea)
        assert.matches("#" .. (dim + 3) .. " to 'move'", eb)
        assert.equal(eb:gsub("#%d", ""):gsub("^.-: ", ""), ea:gsub("#%d", ""):gsub("^.-: ", ""))
        local ok2, e2 = pcall(WM.check, A, "p", goal[1], goal[2], goal[3] or f, goal[3] and f)
        local ok3, e3 = pcall(CW.check, B, "p", goal[1], goal[2], goal[3] or f, goal[3] and f)
        assert.is_false(ok2)
        assert.is_false(ok3)
        assert.equal(e3, e2)
      end
      same_results(H.pack(A:get("p")), H.pack(B:get("p")), "the item stays")
      A:update("p", H.unpack(H.pack(A:get("p"))))
    end
  end)

  it("raises what the filter raises, unchanged, and leaves the world unlocked", function()
    local w = obb.world2()
    w:add("p", 0, 0, 1, 1); w:add("q", 3, 0, 1, 1)
    local err = {}
    local ok, e = pcall(w.move, w, "p", 5, 0, function() error(err) end)
    assert.is_false(ok)
    assert.equal(err, e)
    ok, e = pcall(w.move, w, "p", 5, 0, function() error("boom", 0) end)
    assert.is_false(ok)
    assert.equal("boom", e)
    assert.are.same({ 0, 0 }, at(w, "p"))
    w:update("q", 3, 1, 1, 1) -- not locked
    w:remove("q")
    assert.equal(1, w:count())
  end)

  it("cannot change the world: the classic errors, the world unchanged and usable after", function()
    local w = obb.world2()
    w:add("p", 0, 0, 1, 1); w:add("q", 3, 0, 1, 1); w:add("r", 8, 0, 1, 1)
    local tries = {
      { function() w:update("r", 9, 0) end, "cannot update items of a world during its query" },
      { function() w:add("s", 9, 9, 1, 1) end, "cannot add items of a world during its query" },
      { function() w:remove("r") end, "cannot remove items of a world during its query" },
      { function() w:move("r", 9, 0) end, "cannot move items of a world during its query" },
      { function() w:move("r", 9, 0, function() end) end, "cannot move items of a world during its query" },
      { function() w:set_class("r", 1) end, "cannot set the class of items of a world during its query" },
      { function() w:close() end, "cannot close a world during its query" },
      { function() debug.getmetatable(w).__gc(w) end, "cannot close a world during its query" },
    }
    for i, try in ipairs(tries) do
      local ok, e = pcall(w.move, w, "p", 5, 0, function() try[1]() return "slide" end)
      assert.is_false(ok, "try " .. i)
      assert.matches(try[2], e, 1, true)
      assert.are.same({ 0, 0 }, at(w, "p"))
      assert.are.same({ 8, 0 }, at(w, "r"))
      assert.equal(3, w:count())
    end
    -- queries are allowed, and the world is not left locked
    local x = w:move("p", 5, 0, function(_, o)
      assert.equal(3, w:query_box(obb.new2(4, 0, 10, 2), {}))
      return o == "q" and "cross" or "slide"
    end)
    assert.equal(5, x)
    w:update("r", 9, 0, 1, 1)
    w:add("s", 20, 20, 1, 1)
    w:close()
  end)

  it("that yields: on LuaJIT's FFI path the move waits; a world used meanwhile ends it with an error", function()
    local w = obb.world2()
    w:add("p", 0, 0, 1, 1); w:add("q", 3, 0, 1, 1)
    local function yielding(_, o) coroutine.yield(o) return "cross" end
    local co = coroutine.create(function() return w:move("p", 5, 0, yielding) end)
    local ok, v = coroutine.resume(co)
    if not ffi_path then
      -- the classic binding calls the filter from C: it cannot yield
      assert.is_false(ok)
      assert.is_string(v)
      assert.matches("cannot yield", v)
      assert.are.same({ 0, 0 }, at(w, "p"))
      return
    end
    assert.is_true(ok)
    assert.equal("q", v) -- parked inside the filter: the world is locked
    assert.are.same({ 5, 0, 1, "goal" }, { select(2, coroutine.resume(co)) })
    assert.are.same({ 5, 0 }, at(w, "p"))
    -- parked again, and the world used from the main thread meanwhile
    w:update("p", 0, 0, 1, 1)
    co = coroutine.create(function() return w:move("p", 5, 0, yielding) end)
    assert.is_true(coroutine.resume(co))
    w:update("q", 3, 0.5, 1, 1) -- works: the parked filter's lock is taken back
    local ok2, e = coroutine.resume(co)
    assert.is_false(ok2)
    assert.matches("cannot yield", e)
    assert.are.same({ 0, 0 }, at(w, "p"))
    -- parked and dropped: the world is usable, by the fast path again
    co = coroutine.create(function() return w:move("p", 5, 0, yielding) end)
    assert.is_true(coroutine.resume(co))
    co = nil -- luacheck: ignore 311
    collectgarbage()
    collectgarbage()
    local calls = counting(function()
      w:update("q", 3, 0, 1, 1)
      assert.are.same({ 5, 0, 1, "goal" }, { w:move("p", 5, 0, function() return "cross" end) })
    end)
    assert.equal(0, calls.move, "no lock left behind")
  end)
end)
