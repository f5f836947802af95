-- spec/memory_spec.lua: memory under load, and worlds that stay consistent
-- when callbacks fail.
--
-- Memory is measured two ways: collectgarbage("count"), which counts every
-- byte obb allocates (boxes are userdata and worlds allocate through Lua's
-- allocator), and, where Linux shows it, the process's resident size, which
-- would also catch memory taken behind Lua's back.
local obb = require "obb"
local H = require "helpers"

-- Under valgrind (`make valgrind` sets OBB_SPEC_LIGHT) Lua runs some fifty
-- times slower, so the loads are a tenth as large there; the checks are the
-- same.
local LOAD = os.getenv("OBB_SPEC_LIGHT") and 0.1 or 1
local N_BOXES, N_ITEMS = math.floor(1000000 * LOAD), math.floor(100000 * LOAD)

local function full_gc()
  collectgarbage("collect")
  collectgarbage("collect")
  return collectgarbage("count") -- KiB
end

-- Resident size in KiB, or nil where /proc is not there or where a
-- preloaded allocator (AddressSanitizer's quarantine, valgrind's) holds on
-- to freed memory by design, which `make sanitize` and `make valgrind` do.
local preloaded = (os.getenv("LD_PRELOAD") or "") ~= ""
local function rss_kib()
  if preloaded then return nil end
  local f = io.open("/proc/self/statm")
  if not f then return nil end
  local line = f:read("*l")
  f:close()
  local pages = line and tonumber(line:match("^%d+%s+(%d+)"))
  return pages and pages * 4
end

describe("memory", function()
  it("a million boxes created and dropped do not grow the process", function()
    local base = full_gc()
    local rss0 = rss_kib()
    local peak = base
    local keep = 0
    for i = 1, N_BOXES do
      local b
      if i % 2 == 0 then
        b = obb.new2(i, -i, 1, 2, i * 1e-3)
        b:translate(1, 1)
      else
        b = obb.new3(i, 0, -i, 1, 2, 3, 0, 0, 0.1, 1)
      end
      if b:intersects(b) then keep = keep + 1 end
      if i % 50000 == 0 then peak = math.max(peak, collectgarbage("count")) end
    end
    assert.equal(N_BOXES, keep)
    local after = full_gc()
    -- all of it comes back, and the collector never let garbage pile up
    -- (a million boxes kept would be about 100 MiB)
    assert.truthy(after - base < 64, "grew by " .. (after - base) .. " KiB")
    assert.truthy(peak - base < 32 * 1024, "peak " .. (peak - base) .. " KiB above start")
    local rss1 = rss_kib()
    if rss0 and rss1 then
      assert.truthy(rss1 - rss0 < 48 * 1024, "process grew by " .. (rss1 - rss0) .. " KiB")
    end
  end)

  it("boxes made by every constructor are freed", function()
    local base = full_gc()
    for i = 1, 20000 * LOAD do
      obb.from_aabb2(0, 0, i, i)
      obb.from_axes3(0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1)
      obb.fit2({ 0, 0, i, 1, 2, i })
      obb.fit3({ 0, 0, 0, 1, 2, 3, i, 0, 1, 2, 2, 2 })
      obb.new2(0, 0, 1, 1):clone()
      pcall(obb.fit2, { 0, 0, 0 / 0, 1 }) -- an error after the scratch buffer exists
    end
    local after = full_gc()
    assert.truthy(after - base < 64, "grew by " .. (after - base) .. " KiB")
  end)
end)

describe("worlds under load", function()
  if not obb.world2 then
    pending("worlds are not in this build yet")
    return
  end

  -- A world's tree and arrays come from Lua's allocator function but are
  -- not counted by collectgarbage("count") (only the item tables are), so
  -- the process's resident size is watched too: growing, emptying and
  -- dropping a 100,000-item world again and again must reuse the memory
  -- (after the first cycle, which sets the C allocator's thresholds). A
  -- leak grows the process by a world's worth (tens of MiB) every cycle;
  -- the C allocator may also keep a one-time jump of some MiB where
  -- fragmentation fell differently (about one run in five of the whole
  -- suite), so the cycle that grew least is what must stay small.
  it("a world grown to 100,000 items and emptied returns its memory", function()
    local base = full_gc()
    local rss = {}
    for cycle = 1, 6 do
      local w = obb.world2()
      for i = 1, N_ITEMS do w:add(i, obb.new2(i % 1000, math.floor(i / 1000), 0.4, 0.4, i)) end
      assert.equal(N_ITEMS, w:count())
      local out = {}
      assert.equal(1, w:query_point(500.1, 5.1, out))
      local full = w:memory()
      assert.truthy(full > 64 * N_ITEMS, "a full world holds only " .. full .. " B")
      for i = 1, N_ITEMS do w:remove(i) end
      assert.equal(0, w:count())
      -- emptied but alive: the C arrays and the item tables are given back
      assert.truthy(w:memory() < 1024, "emptied world holds " .. w:memory() .. " B")
      local alive = full_gc()
      assert.truthy(alive - base < 64, "emptied world keeps " .. (alive - base) .. " KiB of Lua heap")
      assert.equal(0, w:query_point(500.1, 5.1, out))
      w:add("again", 500.1, 5.1, 1, 1) -- still usable, from scratch
      assert.equal(1, w:query_point(500.1, 5.1, out))
      w:close()
      w = nil -- luacheck: ignore
      local after = full_gc()
      assert.truthy(after - base < 64, "cycle " .. cycle .. " left " .. (after - base) .. " KiB")
      rss[cycle] = rss_kib()
    end
    if rss[2] then
      local least = math.huge
      for cycle = 3, 6 do least = math.min(least, rss[cycle] - rss[cycle - 1]) end
      assert.truthy(least < 8 * 1024, "process grew by at least " .. least .. " KiB every cycle")
    end
  end)

  it("regrowing an emptied world does not leak", function()
    local base = full_gc()
    local w = obb.world3()
    for round = 1, 5 do
      for i = 1, N_ITEMS / 5 do w:add(i, obb.new3(i % 100, round, math.floor(i / 100), 0.3, 0.3, 0.3)) end
      for i = 1, N_ITEMS / 5 do w:remove(i) end
    end
    w = nil -- luacheck: ignore
    local after = full_gc()
    assert.truthy(after - base < 64, "grew by " .. (after - base) .. " KiB")
  end)

  it("a query storm with callbacks raising midway leaves the world consistent", function()
    local rng = H.rng(6)
    local w = obb.world2()
    local boxes = {}
    for i = 1, 2000 do
      boxes[i] = obb.new2(rng.range(0, 100), rng.range(0, 100), rng.range(0, 2),
        rng.range(0, 2), rng.range(-3, 3))
      w:add(i, boxes[i])
    end
    local out = {}
    local raised = 0
    for q = 1, 500 do
      local probe = obb.new2(rng.range(0, 100), rng.range(0, 100), 5, 5, rng.range(-3, 3))
      local stop = rng.int(1, 20)
      local seen = 0
      local ok, err = pcall(w.query_box, w, probe, out, function(item)
        seen = seen + 1
        if seen == stop then error({ query = q }) end
        -- trying to change the world from its own query is refused
        if seen == 2 then
          local okk, e = pcall(w.remove, w, item)
          assert.is_false(okk)
          assert.truthy(tostring(e):find("during its query", 1, true), tostring(e))
        end
        return true
      end)
      if not ok then
        raised = raised + 1
        assert.equal(q, type(err) == "table" and err.query, "the filter's own error comes out")
      end
      -- the world answers exactly as testing each box would
      if q % 25 == 0 then
        local n = w:query_box(probe, out)
        local want = 0
        -- (boxes has holes, so #boxes is any border: walk all 2000 slots)
        for i = 1, 2000 do if boxes[i] and probe:intersects(boxes[i]) then want = want + 1 end end
        assert.equal(want, n)
      end
      -- and it can still be changed after the error
      local i = rng.int(1, 2000)
      if boxes[i] then
        w:remove(i); boxes[i] = nil
      else
        boxes[i] = obb.new2(rng.range(0, 100), rng.range(0, 100), 1, 1)
        w:add(i, boxes[i])
      end
    end
    assert.truthy(raised > 100, "only " .. raised .. " queries raised")
    local live = 0
    for i = 1, 2000 do if boxes[i] then live = live + 1 end end
    assert.equal(live, w:count())
  end)
end)
