-- bench/jit_floor2.lua: obb's 2D pair test written out in Lua, for LuaJIT
-- only, as the floor of what any fast path can reach (bench/pairs.lua
-- times it beside the FFI fast path and the pure-Lua SAT).
--
-- It does exactly what obb's fast path must do, with no call at all: the
-- same argument checks (a userdata with the box metatable, then the tag
-- after the box), then obb2_intersects' arithmetic (src/core/obb2.c and
-- the band of src/core/obb_touch.h) read straight from the userdata's
-- bytes. LuaJIT compiles it to the machine code a C compiler makes of the
-- same expressions, so no implementation that checks its arguments and
-- keeps the touching rule can be faster, and none can be faster than the
-- pure-Lua SAT by more than that SAT's cost minus the checks.
--
-- Not shipped: ffi.cast of a userdata makes a cdata, which the compiled
-- trace sinks but the interpreter allocates, so a loop that stops being
-- compiled would make garbage on every call.
local ffi = require "ffi"
local obb = require "obb"

local abs, max = math.abs, math.max
local cast, getmetatable, type = ffi.cast, getmetatable, type
local REL, COORD, FLOOR = obb.TOUCH_REL, obb.TOUCH_COORD, obb.TOUCH_FLOOR
local NEAR_ONE = 1 - 8 * 2 ^ -52 -- obb_abs_up's threshold (obb_math.h)

-- the layout of lobb_ud2 (src/binding/lobb_box.h), the tag as two words
local UD2P = ffi.typeof("struct { double c[2], u[2], e[2]; uint32_t tag[2]; } *")
local sample = cast(UD2P, obb.new2(0, 0, 1, 1))
local TAG0, TAG1 = sample.tag[0], sample.tag[1]
local MT2 = getmetatable(obb.new2(0, 0, 1, 1))

local function box(x)
  if type(x) ~= "userdata" or getmetatable(x) ~= MT2 then return nil end
  local p = cast(UD2P, x)
  if p.tag[0] ~= TAG0 or p.tag[1] ~= TAG1 then return nil end
  return p
end

-- The largest gap between the projections and the band. The compare is
-- left to the caller: a guard there leaves fewer values live in the
-- trace's snapshot, or LuaJIT cannot compile the side trace of its exit.
local function gap_band(pa, pb)
  local ac0, ac1, au0, au1, ae0, ae1 =
    pa.c[0], pa.c[1], pa.u[0], pa.u[1], pa.e[0], pa.e[1]
  local bc0, bc1, bu0, bu1, be0, be1 =
    pb.c[0], pb.c[1], pb.u[0], pb.u[1], pb.e[0], pb.e[1]
  local S = abs(bc0 - ac0) + (ae0 + be0)
  S = S + (abs(bc1 - ac1) + (ae1 + be1))
  local M = max(0.0, abs(ac0), abs(bc0))
  M = max(M, abs(ac1), abs(bc1))
  local band = REL * S + (COORD * M + FLOOR)
  local d0, d1 = bc0 - ac0, bc1 - ac1
  local t0 = d0 * au0 + d1 * au1
  local t1 = d1 * au0 - d0 * au1
  local c = abs(au0 * bu0 + au1 * bu1)
  local s = abs(au0 * bu1 - au1 * bu0)
  if c > NEAR_ONE then c = 1.0 end
  if s > NEAR_ONE then s = 1.0 end
  local g0 = abs(t0) - (ae0 + be0 * c + be1 * s)
  local g1 = abs(t1) - (ae1 + be0 * s + be1 * c)
  local g2 = abs(d0 * bu0 + d1 * bu1) - (be0 + ae0 * c + ae1 * s)
  local g3 = abs(d1 * bu0 - d0 * bu1) - (be1 + ae0 * s + ae1 * c)
  return max(max(g0, g1), max(g2, g3)), band
end

local M = {}

-- The test, as obb's intersects(a, b) answers it.
function M.intersects(a, b)
  local pa, pb = box(a), box(b)
  if pa and pb then
    local gap, band = gap_band(pa, pb)
    return gap <= band -- neither is NaN: the boxes are valid
  end
  error("not two 2D boxes")
end

-- The same work with the verdict left as a number (gap - band, <= 0 when
-- the boxes meet): what the test costs before a trace turns the verdict
-- into a boolean, which it can only do with a branch.
function M.margin(a, b)
  local pa, pb = box(a), box(b)
  if pa and pb then
    local gap, band = gap_band(pa, pb)
    return gap - band
  end
  error("not two 2D boxes")
end

return M
