-- obb.jit_bump: obb.bump's C half on LuaJIT's FFI path (obb.bump asks
-- obb.jit.extension("bump") for it, which runs build here once with what it
-- needs; src/binding/lobb_ffi.h, lobb_ffi_bump_*): the three calls of the
-- classic obb._bump (rect, update, check) through the FFI, and
-- the record sets check fills, which obb.bump reads in the classic layout:
-- asks and cols as arrays of numbers from index 1 (here doubles
-- with a slot 0 unused); the items asked about are read by their ids with
-- item(R, id) (the classic check writes them into others).
-- Each record set belongs to one call at a time (obb.bump takes it, per
-- world, and gives it back), so a finalizer's move in the middle of one
-- gets its own: no buffer is shared.
--
-- The table build makes is obb.bump's, which a script may reach through
-- obb.jit.extension: nothing C trusts is in a record set's table. What C
-- writes through (the buffers and their capacities, the input and output
-- numbers) and the world's id -> item table the last check read are kept
-- here, by record set, where no script reaches them; check takes only a record set records() made, and its
-- table's fields (asks, cols, names) are only read by obb.bump.

local type, rawget, setmetatable = type, rawget, setmetatable

local function build(ffi, lib, holder_of, id_of)
  local rect_c, update_c, check_c = lib.lobb_ffi_bump_rect, lib.lobb_ffi_bump_update,
    lib.lobb_ffi_bump_check
  local ASK, COL = lib.LOBB_FFI_BUMP_ASK, lib.LOBB_FFI_BUMP_COL
  local M = {}
  -- record set -> what C reads and writes for it (weak: a record set
  -- dropped takes its buffers with it)
  local private = setmetatable({}, { __mode = "k" })

  -- Buffers of n records of stride numbers, read from index 1: the array
  -- and the pointer C writes from (its slot 1).
  local function buffer(n, stride)
    local a = ffi.new("double[?]", n * stride + 1)
    return a, a + 1
  end

  -- Room for na asks and nc cols in P, shown in R (asks, cols).
  local function sized(R, P, na, nc)
    P.acap, P.ccap = na, nc
    P.asks, P.pa = buffer(na, ASK)
    P.cols, P.pc = buffer(nc, COL)
    R.asks, R.cols = P.asks, P.cols
  end

  function M.records()
    local R = { names = {} }
    local P = { inb = ffi.new("double[6]"), out = ffi.new("double[5]") }
    sized(R, P, 64, 16)
    private[R] = P
    return R
  end

  -- More room than the counts in P.out, the asks recorded kept (the
  -- answers asked, and a run's that obb.bump may go on from).
  local function grow(R, P)
    local out, old, ocap = P.out, P.asks, P.acap
    local na, nc = out[2], out[3]
    sized(R, P, na > ocap and 2 * na or ocap, nc > P.ccap and 2 * nc or P.ccap)
    ffi.copy(P.pa, old + 1, ocap * ASK * 8)
  end

  function M.rect(w, item, x, y, width, height)
    local id = id_of(w, item)
    return id ~= nil and rect_c(w, id, x, y, width, height) == 1
  end

  function M.update(w, item, x, y, width, height)
    local id = id_of(w, item)
    return id ~= nil and update_c(w, id, x, y, width, height) == 1
  end

  -- obb._bump.check's results (status, goal, counts, committed) and the
  -- records in R (a record set of records()'s; any other value: -1).
  function M.check(w, item, x, y, width, height, gx, gy, all, nfixed, R, commit)
    local P = private[R]
    local id = id_of(w, item)
    if id == nil or P == nil or type(nfixed) ~= "number" then return -1 end
    local inb, out, c = P.inb, P.out, commit and 1 or 0
    inb[0], inb[1], inb[2], inb[3], inb[4], inb[5] = x, y, width, height, gx, gy
    local st = check_c(w, id, inb, all, nfixed, c, P.pa, P.acap, P.pc, P.ccap, out)
    while st == -2 do
      grow(R, P)
      st = check_c(w, id, inb, all, nfixed, c, P.pa, P.acap, P.pc, P.ccap, out)
    end
    if st < 0 then return st end
    local holder = holder_of(w)
    local byid = holder and rawget(holder, 2)
    if type(byid) ~= "table" then return -1 end
    P.byid = byid
    return st, out[0], out[1], out[2], out[3], out[4] == 1
  end

  -- The item of id in the world R's last check read (nil for none).
  function M.item(R, id)
    local P = private[R]
    local byid = P and P.byid
    return byid and rawget(byid, id + 1)
  end

  return M
end

return { build = build }
