-- obb.jit_bump: obb.bump's C half on LuaJIT's FFI path (lua/obb/jit.lua
-- builds it at install; include/lobb_ffi.h, lobb_ffi_bump_*): the three
-- calls of the classic obb._bump (rect, update, check) through the FFI, and
-- the record sets check fills, which obb.bump reads in the classic layout:
-- asks and cols as arrays of numbers from index 1 (here doubles
-- with a slot 0 unused); the items asked about are read by their ids from
-- the world's table R.byid (the classic check writes them into others).
-- Each record set belongs to one call at a time (obb.bump takes it, per
-- world, and gives it back), so a finalizer's move in the middle of one
-- gets its own: no buffer is shared.

local type, rawget = type, rawget

local function build_bump(ffi, lib, world_items, mtw, getmt, getfenv)
  local holder_of, id_of = world_items(mtw, getmt, getfenv)
  local rect_c, update_c, check_c = lib.lobb_ffi_bump_rect, lib.lobb_ffi_bump_update,
    lib.lobb_ffi_bump_check
  local ASK, COL = lib.LOBB_FFI_BUMP_ASK, lib.LOBB_FFI_BUMP_COL
  local M = {}

  -- Buffers of n records of stride numbers, read from index 1: the array
  -- and the pointer C writes from (its slot 1).
  local function buffer(n, stride)
    local a = ffi.new("double[?]", n * stride + 1)
    return a, a + 1
  end

  -- A record set with room for na asks and nc cols.
  local function sized(R, na, nc)
    R.acap, R.ccap = na, nc
    R.asks, R.pa = buffer(na, ASK)
    R.cols, R.pc = buffer(nc, COL)
  end

  function M.records()
    local R = { others = {}, names = {}, inb = ffi.new("double[6]"), out = ffi.new("double[5]") }
    sized(R, 64, 16)
    return R
  end

  -- More room than the counts in R.out, the asks recorded kept (the
  -- answers asked, and a run's that obb.bump may go on from).
  local function grow(R)
    local out, old, ocap = R.out, R.asks, R.acap
    local na, nc = out[2], out[3]
    sized(R, na > ocap and 2 * na or ocap, nc > R.ccap and 2 * nc or R.ccap)
    ffi.copy(R.pa, old + 1, ocap * ASK * 8)
  end

  function M.rect(w, item, x, y, width, height)
    local id = id_of(w, item)
    return id ~= nil and rect_c(w, id, x, y, width, height) == 1
  end

  function M.update(w, item, x, y, width, height)
    local id = id_of(w, item)
    return id ~= nil and update_c(w, id, x, y, width, height) == 1
  end

  -- obb._bump.check's results (status, goal, counts, committed), the
  -- records in R and the world's items by id in R.byid.
  function M.check(w, item, x, y, width, height, gx, gy, all, nfixed, R, commit)
    local id = id_of(w, item)
    if id == nil then return -1 end
    local inb, out, c = R.inb, R.out, commit and 1 or 0
    inb[0], inb[1], inb[2], inb[3], inb[4], inb[5] = x, y, width, height, gx, gy
    local st = check_c(w, id, inb, all, nfixed, c, R.pa, R.acap, R.pc, R.ccap, out)
    while st == -2 do
      grow(R)
      st = check_c(w, id, inb, all, nfixed, c, R.pa, R.acap, R.pc, R.ccap, out)
    end
    if st < 0 then return st end
    local holder = holder_of(w)
    local byid = holder and rawget(holder, 2)
    if type(byid) ~= "table" then return -1 end
    R.byid = byid
    return st, out[0], out[1], out[2], out[3], out[4] == 1
  end

  return M
end

return { build_bump = build_bump }
