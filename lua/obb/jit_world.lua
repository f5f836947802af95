-- obb.jit_world: the world methods of the LuaJIT FFI fast path
-- (lua/obb/jit.lua, docs/love.md "The FFI fast path"): add, update and get
-- by numbers, and move, check, cast, cast_turning, raycast, query_box and
-- query_point without a filter function. obb.jit's install calls
-- build_world once, with the entry points (src/binding/lobb_ffi.h) bound, and
-- puts what it returns in the world's method table. Each replacement has
-- obb.jit's one fast case and falls back, with the same arguments, to the
-- classic method; everything obb.jit's header says of the box methods
-- (the real metatable, nothing from a global once loaded, no garbage)
-- holds here too.

-- Captured at load (obb.jit's header).
local type, select, rawget, rawset, ipairs, pcall, error =
  type, select, rawget, rawset, ipairs, pcall, error
local setmetatable = setmetatable
local running = coroutine.running
local getinfo = debug and debug.getinfo

-- The replacements share scratch buffers, and a finalizer can run in the
-- middle of one (at a GC step of the interpreter, or of a trace's exit)
-- and call another. So each takes a new generation before it writes a
-- buffer, reads results back into locals, and uses them (or commits) only
-- while the generation is still its own; otherwise the classic function
-- answers, with its results on the Lua stack. This is the world methods'
-- generation; the box methods' is in their chunk (obb.jit).
local gen = 0

-- ---- the world methods ------------------------------------------------------
-- The world's methods are replaced (build_world) for add, update and get
-- by numbers, the calls a game makes per item and frame, and for the
-- movers, casts, raycast and queries (query_box, query_point) without a
-- filter function (a response set is read in C). The item's id comes
-- from the world's item table, its first user value (under LuaJIT the
-- userdata's environment, read with debug.getfenv); the C side
-- (src/binding/lobb_ffi.h) checks the world and the id as the classic method
-- does and returns 0 for anything else, and then the classic method runs
-- with the same arguments.
--
-- The environment is read once per world and kept (weakly): the binding
-- never replaces it, only its entries (fresh item tables when the last
-- item goes), which are read on every call. Only debug.setfenv replaces
-- it; the fast path then keeps the world's former tables, which can name
-- only ids the world holds, as a script with the debug library can make
-- any item table name (docs/hardening.md). world_items gives the two
-- lookups: a world's item tables, and an item's id.
local function world_items(mtw, getmt, getfenv)
  -- weak both ways: the world holds its environment anyway, and neither
  -- the world nor its items may be kept alive by this cache
  local holders = setmetatable({}, { __mode = "kv" })

  -- The world's user values (its two item tables), or nil.
  local function holder_of(w)
    if type(w) ~= "userdata" or getmt(w) ~= mtw then return nil end
    local holder = holders[w]
    if holder == nil then
      holder = getfenv(w)
      holders[w] = holder
    end
    return type(holder) == "table" and holder or nil
  end

  -- The id the world's item table gives item, or nil.
  local function id_of(w, item)
    local holder = holder_of(w)
    local items = holder and rawget(holder, 1)
    if type(items) ~= "table" or item == nil then return nil end
    local id = rawget(items, item)
    return type(id) == "number" and id or nil
  end
  return holder_of, id_of
end

local function num(x) return type(x) == "number" end

-- Clears what an earlier, longer result left in dst after index k. The
-- common cases run no loop (under LuaJIT a loop in a move's trace, hot on
-- its own, gets side traces that do not compile: "register coalescing too
-- complex"): nothing left, or one record of stride numbers, cleared
-- unrolled; a loop only for what remains after that.
local function clear_tail(dst, k, stride)
  if rawget(dst, k + 1) == nil then return end
  if stride == 8 then
    rawset(dst, k + 1, nil); rawset(dst, k + 2, nil); rawset(dst, k + 3, nil); rawset(dst, k + 4, nil)
    rawset(dst, k + 5, nil); rawset(dst, k + 6, nil); rawset(dst, k + 7, nil); rawset(dst, k + 8, nil)
    k = k + 8
    if rawget(dst, k + 1) == nil then return end
  end
  k = k + 1
  while rawget(dst, k) ~= nil do
    rawset(dst, k, nil)
    k = k + 1
  end
end

-- A pool of buffer sets: take() hands one out (new() makes it when the
-- pool is empty), give(set) puts it back. A call takes a set of its own
-- and gives it back when it returns: a filter may call again, a coroutine
-- may be parked inside a call, a finalizer may call between its halves.
local function pool_of(new)
  local pool, n = {}, 0
  local function take()
    if n == 0 then return new() end
    local set = pool[n]
    pool[n] = nil
    n = n - 1
    return set
  end
  local function give(set)
    n = n + 1
    pool[n] = set
  end
  return take, give
end

-- Record i of recs (rec doubles each: other's id, code, t, n[3], d[3],
-- depth; a move's d is where it ended, a solid's the other's displacement:
-- lobb_ffi.h) into dst after index k, raw, its code named by names (2D:
-- nz and dz left out); the index after it, or nil (nothing written) when
-- its other is no longer in the world (a finalizer removed it).
local function write_record(dst, byid, dim, recs, rec, i, k, names)
  local h = rec * i
  local other = rawget(byid, recs[h] + 1)
  if other == nil then return nil end
  rawset(dst, k + 1, other)
  rawset(dst, k + 2, names[recs[h + 1]])
  rawset(dst, k + 3, recs[h + 2])
  rawset(dst, k + 4, recs[h + 3])
  rawset(dst, k + 5, recs[h + 4])
  if dim == 2 then
    rawset(dst, k + 6, recs[h + 6])
    rawset(dst, k + 7, recs[h + 7])
    rawset(dst, k + 8, recs[h + 9])
    return k + 8
  end
  rawset(dst, k + 6, recs[h + 5])
  rawset(dst, k + 7, recs[h + 6])
  rawset(dst, k + 8, recs[h + 7])
  rawset(dst, k + 9, recs[h + 8])
  rawset(dst, k + 10, recs[h + 9])
  return k + 10
end

-- add, update and get by numbers into F.
local function build_items(ffi, lib, F, CW, holder_of, id_of, ffi_add)
  local update, get = lib.lobb_ffi_world_update, lib.lobb_ffi_world_get
  local reserve = lib.lobb_ffi_world_reserve
  local v = ffi.new("double[10]")
  local out = ffi.new("double[10]")

  -- The numbers after the item into v: their count when they are numbers
  -- in a count the methods take (2D 4 or 5, 3D 6 or 10), else nil.
  local function numbers(n, a, b, c, d, e, f, g, h, i, j)
    if not (num(a) and num(b) and num(c) and num(d)) then return nil end
    v[0], v[1], v[2], v[3] = a, b, c, d
    if n == 4 then return 4 end
    if not num(e) then return nil end
    v[4] = e
    if n == 5 then return 5 end
    if not num(f) or (n ~= 6 and n ~= 10) then return nil end
    v[5] = f
    if n == 6 then return 6 end
    if not (num(g) and num(h) and num(i) and num(j)) then return nil end
    v[6], v[7], v[8], v[9] = g, h, i, j
    return 10
  end

  -- The box is built and kept in the world by reserve; ffi_add (C) then
  -- writes the item tables, protected, with the world marked busy only
  -- inside it, as the classic add does, and enters the box, or answers
  -- false (the box no longer waits, or the item is in now) for the
  -- classic add to run. It raises what the classic add would (a
  -- finalizer's error, or memory), with the world whole and not busy.
  function F.add(...)
    local w, item, a, b, c, d, e, f, g, h, i, j = ...
    local holder = holder_of(w)
    if holder and item ~= nil and item == item then
      local items = rawget(holder, 1)
      local gn = gen + 1; gen = gn
      local n = numbers(select("#", ...) - 2, a, b, c, d, e, f, g, h, i, j)
      if n and type(items) == "table" and type(rawget(holder, 2)) == "table"
          and rawget(items, item) == nil and gen == gn then
        local ticket = reserve(w, v, n)
        if ticket > 0 and ffi_add(w, item, ticket) then return w end
      end
    end
    return CW.add(...)
  end

  function F.update(...)
    local w, item, a, b, c, d, e, f, g, h, i, j = ...
    local id = id_of(w, item)
    if id then
      local gn = gen + 1; gen = gn
      local n = numbers(select("#", ...) - 2, a, b, c, d, e, f, g, h, i, j)
      if n and gen == gn and update(w, id, v, n) ~= 0 then return w end
    end
    return CW.update(...)
  end

  function F.get(...)
    local w, item = ...
    if select("#", ...) == 2 then
      local id = id_of(w, item)
      if id then
        local g = gen + 1; gen = g
        local n = get(w, id, out)
        local o1, o2, o3, o4, o5, o6, o7, o8, o9, o10 = out[0], out[1], out[2],
          out[3], out[4], out[5], out[6], out[7], out[8], out[9]
        if gen == g then
          if n == 5 then return o1, o2, o3, o4, o5 end
          if n == 10 then return o1, o2, o3, o4, o5, o6, o7, o8, o9, o10 end
        end
      end
    end
    return CW.get(...)
  end
end

-- move and check into F; names is obb._response_names, the binding's one
-- list of response names by value (lobb_responses.c, from the core's
-- obb_response_name).
local function build_moves(ffi, lib, F, CW, holder_of, id_of, mtr, getmt, names)
  -- ---- the movers: move and check ----
  -- The C side (lobb_ffi_world.c) finds where the item ends and writes
  -- each collision as a record (src/binding/lobb_ffi.h, LOBB_FFI_MOVE_RECORD
  -- doubles); here they go into dst, raw, as the classic method writes
  -- them. One rule for the commit: a move with nothing left that can raise
  -- (no dst) is committed by C in the call that ends it; one with dst
  -- keeps its box under a ticket, its records are written, and a second
  -- call commits it unless the world changed meanwhile. One rule for the
  -- buffers: every move takes a set of its own from a pool (a filter may
  -- move in another world, a coroutine may be parked in one, a finalizer
  -- may move between the halves), given back when it returns. The filter
  -- is nil, a response name or a response set (a userdata carrying the
  -- sets' real metatable, handed to C, which checks its tag and answers
  -- by class), or a function (below). More collisions than the set holds,
  -- a finalizer that changed the world between the halves, or anything the
  -- C side refuses: the classic method, with the same arguments.
  local move_c, commit_c = lib.lobb_ffi_world_move, lib.lobb_ffi_world_commit
  local recommit_c = lib.lobb_ffi_world_recommit
  local ask_c, answer_c, drop_c = lib.lobb_ffi_world_move_ask, lib.lobb_ffi_world_answer,
    lib.lobb_ffi_world_drop
  local ASKING, REFUSED, FULL = lib.LOBB_FFI_ASKING, lib.LOBB_FFI_REFUSED, lib.LOBB_FFI_FULL
  local RESPONSE, NAME = {}, {}
  for r = lib.OBB_TOUCH, lib.OBB_BOUNCE do
    local name = type(names) == "table" and rawget(names, r)
    if type(name) ~= "string" then error("obb._response_names has no name for response " .. r) end
    RESPONSE[name], NAME[r] = r, name
  end
  local REC, IGNORE = lib.LOBB_FFI_MOVE_RECORD, lib.OBB_IGNORE
  local HITS = 64 -- the records a set holds at first (it grows to what a move needs)

  -- A move's buffers: the numbers after the item, its records, what C
  -- answers (lobb_ffi.h: 20 doubles), and the filter's answers so far.
  local take_set, give_set = pool_of(function()
    return { args = ffi.new("double[7]"), hits = ffi.new("double[?]", HITS * REC), cap = HITS,
             actual = ffi.new("double[20]"), answers = ffi.new("double[?]", 32), answer_cap = 16 }
  end)

  -- The records into dst, the first outside a loop (most moves meet one
  -- other or none: no loop in the caller's trace, clear_tail's reason);
  -- false when one's other is gone (dst then holds the records before it,
  -- without a hole: the classic method writes its own over them).
  local function write_moves(dst, byid, dim, count, recs)
    local k = 0
    if count >= 1 then
      k = write_record(dst, byid, dim, recs, REC, 0, 0, NAME)
      if k == nil then return false end
      if count >= 2 then
        for i = 1, count - 1 do
          k = write_record(dst, byid, dim, recs, REC, i, k, NAME)
          if k == nil then return false end
        end
      end
    end
    clear_tail(dst, k, dim == 2 and 8 or 10)
    return true
  end

  -- ---- a filter function: the move stops to ask, Lua answers ----
  -- lobb_ffi_world_move_ask runs the move until it meets an other for the
  -- first time, and stops there, before anything of that leg is done, with
  -- the world locked for the filter as a classic move's is, and the
  -- question; the filter is asked here, in a trace of the caller's, and
  -- lobb_ffi_world_answer goes on from that leg with the answer kept for
  -- the move. So the filter is asked about each other once, in the order
  -- met, as the classic method asks it, with no callback from C into Lua:
  -- one more call per other met, which runs one leg again.

  -- The filter's thread, for the classic methods (lobb_world_unstale): in
  -- the world's third user value, a weak table, so that a coroutine
  -- dropped inside a filter is collected. Named before the move can lock
  -- the world, so that whatever runs once it is locked finds it; the owner
  -- before is put back when the move did not lock it (another's lock, or a
  -- move that asked nothing), so that a parked filter's lock is still
  -- recognised as its owner's. Returns the owners' table and that owner.
  local weak_values = { __mode = "v" }
  local function own(holder)
    local owner = rawget(holder, 3)
    if type(owner) ~= "table" then
      owner = setmetatable({}, weak_values)
      rawset(holder, 3, owner)
    end
    local before = rawget(owner, 1)
    rawset(owner, 1, running() or true)
    return owner, before
  end

  -- The filter asked set's question (actual, lobb_ffi.h), protected.
  local function ask_once(filter, item, other, dim, q)
    if dim == 2 then return pcall(filter, item, other, q[16], q[17], q[15], q[19]) end
    return pcall(filter, item, other, q[16], q[17], q[18], q[15], q[19])
  end

  -- Keeps answer code about other in set's answers (for a run again).
  local function log_answer(set, n, other, code)
    if n >= set.answer_cap then
      local bigger = ffi.new("double[?]", 4 * set.answer_cap)
      ffi.copy(bigger, set.answers, 16 * n)
      set.answers, set.answer_cap = bigger, 2 * set.answer_cap
    end
    set.answers[2 * n], set.answers[2 * n + 1] = other, code
  end

  local CHANGED = "obb: the world changed while a move asked its filter"
  local YIELDED = "a world query's filter cannot yield (the world was used while it was suspended)"

  -- Asks the filter each question of an asking move (count ASKING) until
  -- it ends: its count (or FULL, or -1 for the classic method with the
  -- answers so far replayed), the number of answers; false and a bad
  -- answer. Raises the filter's error as it raised it, and YIELDED when
  -- the move's lock was taken back while its filter was parked.
  local function answer_all(set, w, item, filter, byid, commit, count)
    local res, n = set.actual, 0
    local serial, dim = res[13], res[8]
    while count == ASKING do
      local other = res[14]
      local ok, r = ask_once(filter, item, rawget(byid, other + 1), dim, res)
      if not ok then
        drop_c(w, serial)
        error(r, 0)
      end
      local code = IGNORE
      if r then code = RESPONSE[r] end
      if code == nil then
        drop_c(w, serial)
        return false, r
      end
      log_answer(set, n, other, code)
      n = n + 1
      count = answer_c(w, serial, code, set.hits, set.cap, res, commit)
      serial = res[13]
    end
    if count == REFUSED then error(YIELDED, 0) end
    return count, n
  end

  -- luaL_argerror's message for a filter's bad answer r, the filter being
  -- argument idx of the method that calls this (level 2): its name and
  -- the argument's number as the caller sees them.
  local function bad_answer(idx, name, r)
    local ar = getinfo and getinfo(2, "n")
    if ar and ar.namewhat == "method" then idx = idx - 1 end
    local why
    if type(r) == "string" then
      local shown = r:match("^[^%z]*")
      why = ("unknown response '%s'%s"):format(shown, #shown < #r and " followed by a zero byte" or "")
    else
      why = ("filter returned a %s (a response name, false or nil expected)"):format(type(r))
    end
    -- at the method's caller's line, as LuaJIT's luaL_argerror places it
    error(("bad argument #%d to '%s' (%s)"):format(idx, ar and (ar.name or "?") or name, why), 3)
  end

  -- The filter as the classic method asks it, for a move the classic
  -- method finishes (more records than the set held, or one that C could
  -- not end): the first n questions (set's answers, in the order the move
  -- asked them, the world locked meanwhile) answered as the filter
  -- answered them, the rest asked of it. A question not the one asked
  -- before means the world changed in between: the move raises.
  local function replaying(filter, byid, set, n)
    local answers, i = set.answers, 0
    return function(item, other, ...)
      if i >= n then return filter(item, other, ...) end
      local h = 2 * i
      i = i + 1
      if not rawequal(other, rawget(byid, answers[h] + 1)) then error(CHANGED, 0) end
      local code = answers[h + 1]
      return code ~= IGNORE and NAME[code]
    end
  end

  -- The numbers after the item into v (nv of them: 2, 3 or 7).
  local function put_args(v, nv, gx, gy, a, b, c, d, e)
    v[0], v[1] = gx, gy
    if nv > 2 then v[2] = a end
    if nv > 3 then v[3], v[4], v[5], v[6] = b, c, d, e end
  end

  -- What a move returns, from actual (lobb_ffi.h): the center, the count,
  -- the rotation of a turning form, why it ended.
  local WHY = { [0] = "goal", "blocked", "legs", "turn" }

  -- set's move into dst and committed (commit: a move with dst; one with
  -- none was committed by C); true, or false when the world changed
  -- meanwhile (an other of its records gone, or its change count no
  -- longer the move's). The box kept for it is committed by its ticket;
  -- when another call (a finalizer's move or check, while dst was written)
  -- has kept its own since, a move that asked is made again in C with its
  -- answers and committed in the same call (recommit); one that asked
  -- nothing is left to the classic method.
  local function finish(w, id, nv, commit, dst, count, set, nanswers)
    local res = set.actual
    if dst ~= nil then
      if not write_moves(dst, rawget(holder_of(w), 2), res[8], count, set.hits) then return false end
      if commit and commit_c(w, id, res[7], res[10]) == 0
          and (nanswers == 0 or recommit_c(w, id, set.args, nv, set.answers, nanswers, res[7]) == 0) then
        return false
      end
    end
    return true
  end

  -- w:move / w:check (item, gx, gy[, gz | angle | gz, qx, qy, qz, qw]
  -- [, filter [, dst]]): nv numbers after the item, 2, 3 or 7; the C
  -- side tells which form they are in the world's dimension (dim 3: a
  -- 3D move or a 2D turning one, both with 3 numbers after the item).
  local function mover(commit, name)
    return function(...)
      local w, item, gx, gy, a, b, c, d, e, f, g = ...
      local n = select("#", ...)
      local id = id_of(w, item)
      if id and num(gx) and num(gy) then
        local nv, filter, dst = 2, a, b
        if num(a) then
          nv, filter, dst = 3, b, c
          if num(b) then
            nv, filter, dst = 7, f, g
            if not (num(c) and num(d) and num(e)) then nv = nil end
          end
        end
        local response, set = filter == nil and 3 or RESPONSE[filter], nil
        if response == nil and type(filter) == "userdata" and getmt(filter) == mtr then
          response, set = 0, filter
        end
        local asks = response == nil and type(filter) == "function"
        if not (nv and n <= nv + 4 and (dst == nil or type(dst) == "table")) then
          response, asks = nil, false
        end
        if response or asks then
          local s = take_set()
          put_args(s.args, nv, gx, gy, a, b, c, d, e)
          local now = commit and dst == nil and 1 or 0 -- C commits: nothing left to raise
          local count, nanswers
          nanswers = 0
          if asks then
            local holder = holder_of(w)
            local owner, before = own(holder)
            count = ask_c(w, id, s.args, nv, s.hits, s.cap, s.actual, now)
            if count ~= ASKING then rawset(owner, 1, before) end
            if count == ASKING then
              local bad
              count, bad = answer_all(s, w, item, filter, rawget(holder, 2), now, count)
              if count == false then
                give_set(s)
                bad_answer(nv + 3, name, bad)
              end
              nanswers = bad
            end
          else
            count = move_c(w, id, s.args, nv, response, set, s.hits, s.cap, s.actual, now)
          end
          if count == FULL then -- room for what it needs, next time
            local need = s.actual[11]
            s.hits, s.cap = ffi.new("double[?]", need * REC), need
          end
          if count >= 0 then
            local res = s.actual
            if finish(w, id, nv, commit, dst, count, s, nanswers) then
              local r1, r2, r3, r4, r5, r6, r7, dim, why = res[0], res[1], res[2], res[3], res[4], res[5],
                res[6], res[8], WHY[res[12]]
              give_set(s)
              if nv == 2 then return r1, r2, count, why end
              if nv == 3 then
                if dim == 3 then return r1, r2, r3, count, why end
                return r1, r2, count, r3, why
              end
              return r1, r2, r3, count, r4, r5, r6, r7, why
            end
            if nanswers > 0 then
              give_set(s)
              error(CHANGED, 0)
            end
          elseif nanswers > 0 then -- the classic method, with the answers asked
            local again = replaying(filter, rawget(holder_of(w), 2), s, nanswers)
            give_set(s)
            if nv == 2 then return CW[name](w, item, gx, gy, again, dst) end
            if nv == 3 then return CW[name](w, item, gx, gy, a, again, dst) end
            return CW[name](w, item, gx, gy, a, b, c, d, e, again, dst)
          end
          give_set(s)
        end
      end
      return CW[name](...)
    end
  end
  F.move = mover(true, "move")
  F.check = mover(false, "check")
end

-- The response set a query or cast was given in filter's place, for the
-- C side: nil for none, the set (a userdata carrying the sets' real
-- metatable mtr, whose tag C checks), or false for anything else (a filter
-- function, a forgery, a wrong type: the classic method answers it).
local function query_set(filter, mtr, getmt)
  if filter == nil then return nil end
  if type(filter) == "userdata" and getmt(filter) == mtr then return filter end
  return false
end

-- cast, cast_turning and raycast without a filter function into F: the
-- filter nil or a response set (C leaves out the items whose class it
-- answers false).
local function build_casts(ffi, lib, F, CW, holder_of, hits, HITS, mt2, mt3, mtr, getmt)
  local cast_c = lib.lobb_ffi_world_cast
  local goal = ffi.new("double[3]")
  local REC = lib.LOBB_FFI_CAST_RECORD
  local cap = HITS * lib.LOBB_FFI_MOVE_RECORD / REC -- the hits buffer holds that many
  -- A cast's or a ray's count of hits, its hits in buf (id, t, nx, ny, nz
  -- each) written into dst, raw: item, t, nx, ny[, nz] per hit, as the
  -- classic methods write them; or nil when the C side refused, or a
  -- finalizer used the buffer meanwhile (generation g no longer the last)
  -- or took an item out of the world (no item for its id). As a query's
  -- ids_result, it gives up before writing any of a record that is not
  -- this call's, so dst holds whole records of this call without a hole,
  -- for the classic method to write over and clear after.
  local function hits_result(buf, count, g, dst, byid, dim)
    if count < 0 then return nil end
    local k = 0
    for i = 0, count - 1 do
      local h = REC * i
      local item, t, nx, ny, nz = rawget(byid, buf[h] + 1), buf[h + 1], buf[h + 2], buf[h + 3], buf[h + 4]
      if item == nil or gen ~= g then return nil end
      rawset(dst, k + 1, item)
      rawset(dst, k + 2, t)
      rawset(dst, k + 3, nx)
      rawset(dst, k + 4, ny)
      if dim == 3 then rawset(dst, k + 5, nz) end
      k = k + dim + 2
    end
    clear_tail(dst, k)
    if gen == g then return count end
  end
  local function cast_result(count, g, dst, byid, dim)
    return hits_result(hits, count, g, dst, byid, dim)
  end

  -- w:cast(box, dx, dy[, dz], dst): item, t, nx, ny[, nz] per hit.
  function F.cast(...)
    local w, box, dx, dy, a, b, c = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and num(dx) and num(dy) then
      local dim, dst, filter = 2, a, b
      if num(a) then dim, dst, filter = 3, b, c end
      local mt = dim == 2 and mt2 or mt3
      local set = query_set(filter, mtr, getmt)
      if type(dst) == "table" and set ~= false and n <= dim + 4
          and getmt(box) == mt then
        local g = gen + 1; gen = g
        goal[0], goal[1], goal[2] = dx, dy, dim == 3 and a or 0
        local r = cast_result(cast_c(w, box, goal, dim, set, hits, cap), g, dst, rawget(holder, 2), dim)
        if r then return r end
      end
    end
    return CW.cast(...)
  end

  -- w:cast_turning(box, dx, dy, wt, dst) (2D) or
  -- w:cast_turning(box, dx, dy, dz, rx, ry, rz, dst) (3D): a number after
  -- the 2D form's turn makes it the 3D form (a 2D world then refuses it in
  -- C).
  local cast_turning_c = lib.lobb_ffi_world_cast_turning
  local turn = ffi.new("double[3]")
  function F.cast_turning(...)
    local w, box, dx, dy, a, b, c, d, e, f = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and num(dx) and num(dy) and num(a) then
      local dim, dst, filter, most = 2, b, c, 7
      if num(b) then dim, dst, filter, most = 3, e, f, 10 end
      local set = query_set(filter, mtr, getmt)
      if type(dst) == "table" and set ~= false and n <= most
          and (dim == 2 or (num(c) and num(d)))
          and getmt(box) == (dim == 2 and mt2 or mt3) then
        local g = gen + 1; gen = g
        if dim == 2 then
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, 0, a, 0, 0
        else
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, a, b, c, d
        end
        local r = cast_result(cast_turning_c(w, box, goal, turn, dim, set, hits, cap), g, dst,
                              rawget(holder, 2), dim)
        if r then return r end
      end
    end
    return CW.cast_turning(...)
  end

  -- w:raycast(ox, oy, dx, dy, max_t, dst) (2D) or
  -- w:raycast(ox, oy, oz, dx, dy, dz, max_t, dst) (3D), max_t a number or
  -- nil: a table after the 2D form's max_t makes it the 2D form, a number
  -- there the 3D form (C refuses a form not of the world's dimension).
  -- Its hits have their own buffer: a ray may cross more of a world than
  -- a cast meets (more than RAYS: the classic method).
  local raycast_c = lib.lobb_ffi_world_raycast
  local RAYS = 512
  local rays = ffi.new("double[?]", RAYS * REC)
  local o, d = ffi.new("double[3]"), ffi.new("double[3]")
  local huge = 1 / 0
  function F.raycast(...)
    local w, ox, oy, a, b, c, e, f, g, h = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and num(ox) and num(oy) and num(a) and num(b) then
      local dim, maxt, dst, filter, most
      if type(e) == "table" and (c == nil or num(c)) then
        dim, maxt, dst, filter, most = 2, c, e, f, 8
      elseif num(c) and num(e) and (f == nil or num(f)) then
        dim, maxt, dst, filter, most = 3, f, g, h, 10
      end
      local set = query_set(filter, mtr, getmt)
      if dim and type(dst) == "table" and set ~= false and n <= most then
        local gn = gen + 1; gen = gn
        if dim == 2 then
          o[0], o[1], o[2], d[0], d[1], d[2] = ox, oy, 0, a, b, 0
        else
          o[0], o[1], o[2], d[0], d[1], d[2] = ox, oy, a, b, c, e
        end
        if maxt == nil then maxt = huge end
        local r = hits_result(rays, raycast_c(w, o, d, maxt, dim, set, rays, RAYS), gn, dst,
                              rawget(holder, 2), dim)
        if r then return r end
      end
    end
    return CW.raycast(...)
  end
end

-- query_box and query_point without a filter function into F: the filter
-- nil or a response set, as for the casts.
local function build_queries(ffi, lib, F, CW, holder_of, mt2, mt3, mtr, getmt)
  local query_box_c, query_point_c = lib.lobb_ffi_world_query_box, lib.lobb_ffi_world_query_point
  -- The ids of a query's items (its own buffer: a query may find many
  -- more items than a move has collisions; more than IDS, and the classic
  -- method runs the query again), and a point.
  local IDS = 4096
  local ids = ffi.new("double[?]", IDS)
  local pt = ffi.new("double[3]")
  -- A query's count of items, its items written into dst, raw, in the
  -- order C found them (the classic method's), and dst's tail cleared as
  -- the classic method clears it; or nil when the C side refused, or a
  -- finalizer used the buffer meanwhile (generation g no longer the last)
  -- or took an item out of the world (no item for its id). It gives up
  -- before writing anything of another call's or a removed item, so dst
  -- then holds a prefix of this query's items, without a hole: the classic
  -- method writes its own and clears what follows, as it would have.
  local function ids_result(count, g, dst, byid)
    if count < 0 then return nil end
    -- the first item outside the loop: a query that finds one item runs
    -- no loop (a loop compiled as a trace of its own would stop the trace
    -- of a caller on every such query: an inner loop)
    if count >= 1 then
      local item = rawget(byid, ids[0] + 1)
      if item == nil or gen ~= g then return nil end
      rawset(dst, 1, item)
      if count >= 2 then
        for i = 2, count do
          item = rawget(byid, ids[i - 1] + 1)
          if item == nil or gen ~= g then return nil end
          rawset(dst, i, item)
        end
      end
    end
    clear_tail(dst, count)
    if gen == g then return count end
  end

  -- w:query_box(box, dst [, set]): a box of either type (C checks its tag
  -- and the world's dimension).
  function F.query_box(...)
    local w, box, dst, filter = ...
    local holder = holder_of(w)
    local set = query_set(filter, mtr, getmt)
    if holder and type(box) == "userdata" and type(dst) == "table" and set ~= false
        and select("#", ...) <= 4 then
      local mt = getmt(box)
      local dim = mt == mt2 and 2 or mt == mt3 and 3 or nil
      if dim then
        local g = gen + 1; gen = g
        local r = ids_result(query_box_c(w, box, dim, set, ids, IDS), g, dst, rawget(holder, 2))
        if r then return r end
      end
    end
    return CW.query_box(...)
  end

  -- w:query_point(x, y[, z], dst [, set]): a number after y is z (a 2D
  -- world then refuses it in C).
  function F.query_point(...)
    local w, x, y, a, b, c = ...
    local holder = holder_of(w)
    if holder and num(x) and num(y) then
      local dim, dst, filter = 2, a, b
      if num(a) then dim, dst, filter = 3, b, c end
      local set = query_set(filter, mtr, getmt)
      if type(dst) == "table" and set ~= false and select("#", ...) <= dim + 3 then
        local g = gen + 1; gen = g
        pt[0], pt[1], pt[2] = x, y, dim == 3 and a or 0
        local r = ids_result(query_point_c(w, pt, dim, set, ids, IDS), g, dst, rawget(holder, 2))
        if r then return r end
      end
    end
    return CW.query_point(...)
  end
end

-- move_solid without a filter function into F (src/binding/lobb_ffi_solid.c):
-- the solid's filter nil, a response name or a response set, and so its
-- movers' (the filter of what it carries and pushes). A call with no out
-- table is done in C in one call. With one, C runs the move, keeps its
-- records and takes it back; the records are written into dst here, and
-- lobb_ffi_world_redo_solid gives the move back unless the world changed
-- meanwhile (a finalizer). Each call takes its buffers from a pool (a
-- finalizer may move a solid while dst is written). More records than the
-- buffer holds, a world changed between the halves, or anything C
-- refuses: the classic method, with the same arguments.
local function build_solids(ffi, lib, F, CW, WM, holder_of, id_of, mtr, getmt)
  CW.move_solid = WM.move_solid
  local move_c, redo_c = lib.lobb_ffi_world_move_solid, lib.lobb_ffi_world_redo_solid
  local FULL, REC = lib.LOBB_FFI_FULL, lib.LOBB_FFI_SOLID_RECORD
  local SOLID = { ride = lib.OBB_RIDE, stand = lib.OBB_STAND, push = lib.OBB_PUSH, oneway = lib.OBB_ONEWAY,
                  cross = lib.OBB_CROSS, touch = lib.OBB_TOUCH, slide = lib.OBB_SLIDE, bounce = lib.OBB_BOUNCE }
  local MOVER = { touch = lib.OBB_TOUCH, cross = lib.OBB_CROSS, slide = lib.OBB_SLIDE, bounce = lib.OBB_BOUNCE }
  local NAME = { [lib.OBB_RIDE] = "ride", [lib.OBB_STAND] = "stand", [lib.OBB_PUSH] = "push",
                 [lib.OBB_CROSS] = "cross", [lib.OBB_CRUSH] = "crush" }
  local HITS = 16 -- records a set holds at first (it grows to what a move needs)
  local take_set, give_set = pool_of(function()
    return { args = ffi.new("double[7]"), hits = ffi.new("double[?]", HITS * REC), cap = HITS,
             out = ffi.new("double[4]") }
  end)

  -- A filter argument: its response code and set for C, or nil (a
  -- function, a name of no response, anything else: the classic method).
  local function code_of(filter, names, none)
    if filter == nil then return none, nil end
    if type(filter) == "userdata" and getmt(filter) == mtr then return 0, filter end
    if type(filter) == "string" then return names[filter], nil end
    return nil, nil
  end

  -- The records into dst, raw: other, what, t, nx, ny[, nz], dx, dy[, dz],
  -- depth each; false when an other is not in the world.
  local function write_solids(dst, byid, dim, count, recs)
    local k = 0
    for i = 0, count - 1 do
      k = write_record(dst, byid, dim, recs, REC, i, k, NAME)
      if k == nil then return false end
    end
    clear_tail(dst, k, dim == 2 and 8 or 10)
    return true
  end

  -- w:move_solid(item, gx, gy[, gz | angle | gz, qx, qy, qz, qw]
  -- [, filter [, dst [, movers]]]): 2, 3 or 7 numbers after the item (C
  -- tells the forms apart in the world's dimension).
  function F.move_solid(...)
    local w, item, gx, gy, a, b, c, d, e, f, g, h = ...
    local id = id_of(w, item)
    if id and num(gx) and num(gy) then
      local nv, filter, dst, movers = 2, a, b, c
      if num(a) then
        nv, filter, dst, movers = 3, b, c, d
        if num(b) then
          nv, filter, dst, movers = 7, f, g, h
          if not (num(c) and num(d) and num(e)) then nv = nil end
        end
      end
      local response, set = code_of(filter, SOLID, -1)
      local mresponse, mset = code_of(movers, MOVER, lib.OBB_SLIDE)
      if nv and response and mresponse and select("#", ...) <= nv + 5
          and (dst == nil or type(dst) == "table") then
        local s = take_set()
        local v = s.args
        v[0], v[1] = gx, gy
        if nv > 2 then v[2] = a end
        if nv > 3 then v[3], v[4], v[5], v[6] = b, c, d, e end
        local count = move_c(w, id, v, nv, response, set, mresponse, mset, s.hits, s.cap, s.out,
                             dst == nil and 1 or 0)
        if count == FULL then -- room for what it needs, next time
          local need = s.out[2]
          s.hits, s.cap = ffi.new("double[?]", need * REC), need
        end
        if count >= 0 then
          local out = s.out
          local crushed, stamp = out[0], out[1]
          if dst == nil then
            give_set(s)
            return count, crushed
          end
          if write_solids(dst, rawget(holder_of(w), 2), out[3], count, s.hits)
              and redo_c(w, id, stamp, s.hits, count) == 1 then
            give_set(s)
            return count, crushed
          end
        end
        give_set(s)
      end
    end
    return CW.move_solid(...)
  end
end

-- events into F: w:events(out). The C half (lobb_events.c) brings the
-- events up to date and copies them, 4 doubles each (the sensor's id, the
-- other's, the kind, t), into a buffer, taking none; here they go into
-- out, raw, the items from the world's id -> item table (which keeps a
-- removed item until its events are taken), and a second call takes them
-- unless another take came in between (a finalizer's, while out grew):
-- that one had them, and the classic method answers what is left. The
-- ids the take lets go leave the id -> item table here.
local function build_events(ffi, lib, F, CW, holder_of)
  local events_c, done_c = lib.lobb_ffi_world_events, lib.lobb_ffi_world_events_done
  local cap = 64
  local buf = ffi.new("double[?]", 4 * cap)
  local released = ffi.new("double[?]", 2 * cap)
  local info = ffi.new("double[1]")

  function F.events(...)
    local w, dst = ...
    local holder = holder_of(w)
    if holder and type(dst) == "table" and select("#", ...) == 2 then
      local byid = rawget(holder, 2)
      local g = gen + 1; gen = g
      local n = events_c(w, buf, cap, info)
      if n > cap and gen == g then -- room for them all, once
        while cap < n do cap = cap * 2 end
        buf = ffi.new("double[?]", 4 * cap)
        released = ffi.new("double[?]", 2 * cap)
        g = gen + 1; gen = g
        n = events_c(w, buf, cap, info)
      end
      local takes = info[0]
      if n >= 0 and n <= cap and gen == g and type(byid) == "table" then
        local k = 0
        for i = 0, n - 1 do
          local s, o, kind, t = buf[4 * i], buf[4 * i + 1], buf[4 * i + 2], buf[4 * i + 3]
          if gen ~= g then break end
          rawset(dst, k + 1, rawget(byid, s + 1))
          rawset(dst, k + 2, rawget(byid, o + 1))
          rawset(dst, k + 3, kind == 1 and "begin" or "end")
          rawset(dst, k + 4, t >= 0 and t)
          k = k + 4
        end
        if gen == g then
          local r = done_c(w, takes, n, released)
          if r >= 0 then
            for i = 0, r - 1 do rawset(byid, released[i] + 1, nil) end
            clear_tail(dst, k, 4)
            return n
          end
        end
      end
    end
    return CW.events(...)
  end
end

-- A character's state into F (src/binding/lobb_character.c's methods): one
-- C call writes it all, each method returns its part; the classic method
-- for anything C refuses (a wrong world, an item not in it, arguments).
local function build_characters(ffi, lib, F, CW, holder_of, id_of)
  local state_c = lib.lobb_ffi_world_character
  local out = ffi.new("double[10]")
  -- The world's dimension with item's state in out, or nil.
  local function state(n, w, item)
    local id = n == 2 and id_of(w, item)
    local dim = id and state_c(w, id, out)
    return dim and dim > 0 and dim or nil
  end
  -- A flag of the state, at k.
  local function flag(name, k)
    F[name] = function(...)
      if state(select("#", ...), ...) then return out[k] == 1 end
      return CW[name](...)
    end
  end
  flag("is_on_floor", 0)
  flag("is_on_wall", 1)
  flag("is_on_ceiling", 2)
  -- A vector of the state, at k.
  local function vector(name, k)
    F[name] = function(...)
      local dim = state(select("#", ...), ...)
      if dim == 2 then return out[k], out[k + 1] end
      if dim == 3 then return out[k], out[k + 1], out[k + 2] end
      return CW[name](...)
    end
  end
  vector("floor_normal", 4)
  vector("platform_motion", 7)
  function F.floor(...)
    local w = ...
    local dim = state(select("#", ...), ...)
    if dim then
      if out[3] < 0 then return nil end
      local other = rawget(rawget(holder_of(w), 2), out[3] + 1)
      if other ~= nil then
        if dim == 2 then return other, out[4], out[5] end
        return other, out[4], out[5], out[6]
      end
    end
    return CW.floor(...)
  end
end

-- The replacements for the world methods WM (whose real metatable is mtw),
-- and the classic ones, looked up when a call falls back (so a spec can
-- count those calls); names: obb._response_names (build_moves).
local function build_world(ffi, lib, WM, mtw, getmt, getfenv, ffi_add, mt2,
                           mt3, mtr, names)
  local CW, F = {}, {}
  for _, name in ipairs({ "add", "update", "get", "move", "check", "cast", "cast_turning",
                          "raycast", "query_box", "query_point", "events", "is_on_floor",
                          "is_on_wall", "is_on_ceiling", "floor_normal", "platform_motion",
                          "floor" }) do
    CW[name] = WM[name]
  end
  local holder_of, id_of = world_items(mtw, getmt, getfenv)
  -- room for HITS records of a move (a cast's are smaller)
  local HITS = 64
  local hits = ffi.new("double[?]", HITS * lib.LOBB_FFI_MOVE_RECORD)
  build_items(ffi, lib, F, CW, holder_of, id_of, ffi_add)
  build_moves(ffi, lib, F, CW, holder_of, id_of, mtr, getmt, names)
  build_casts(ffi, lib, F, CW, holder_of, hits, HITS, mt2, mt3, mtr, getmt)
  build_queries(ffi, lib, F, CW, holder_of, mt2, mt3, mtr, getmt)
  build_solids(ffi, lib, F, CW, WM, holder_of, id_of, mtr, getmt)
  build_events(ffi, lib, F, CW, holder_of)
  build_characters(ffi, lib, F, CW, holder_of, id_of)
  return F, CW
end

return { build_world = build_world, world_items = world_items }
