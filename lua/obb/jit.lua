-- obb.jit: the LuaJIT FFI fast path (docs/love.md, "The FFI fast path").
--
-- Under LuaJIT, luaopen_obb (src/binding/lobb_open.c) requires this module
-- and calls install(obb, file, mt2, mt3, mtw, ffi_add) with the module
-- table, the file of the shared object it runs from, the real metatables
-- of 2D boxes, 3D boxes and worlds, and the C half of a world's add
-- (src/binding/lobb_jit.c). install puts Lua functions in place of the hot
-- methods of obb.obb2, obb.obb3 and worlds; they call the same C core
-- functions through the FFI, over the same userdata, so a trace compiles
-- the whole call instead of leaving it for the C API.
--
-- Every replacement has one fast case: arguments exactly as the classic
-- binding takes them (boxes of the right type, finite numbers, the right
-- count). Anything else, and any core call that reports a failure, goes to
-- the classic C function with the very same arguments, as a tail call, so
-- errors (their text and the function name in them) and results are the
-- binding's own. Every argument is checked before anything is written.
--
-- A box is recognised by its real metatable, as debug.getmetatable sees
-- it (getmetatable gives only the method table, and any script can give a
-- userdata of its own a __metatable naming it): the binding's metatables,
-- which luaopen_obb hands to install, are given to no other userdata
-- unless the debug library gives them. Then, after its bytes are copied
-- into a scratch buffer, by the tag the binding writes after every box
-- (lobb_box.h), which tells a box from another userdata that
-- debug.setmetatable dressed as one. The pair tests, the hottest calls,
-- copy nothing: they check the metatables here and hand both userdata to
-- an entry point of include/lobb_ffi.h, which checks the tags in C.
-- Nothing here makes garbage, compiled or interpreted: scratch buffers are
-- made once, results are plain numbers and booleans.
--
-- Nothing here depends on a global once obb has loaded: every function
-- the replacements call (debug.getmetatable among them, which LuaJIT
-- compiles into a trace) is captured when this file is loaded, and a
-- world's add writes its item tables in a C function of the binding
-- (docs/hardening.md says what holds, with and without the debug
-- library).
--
-- The classic path stays when OBB_NO_FFI is set to anything but "" or "0",
-- when package.loaded["obb.jit"] is false before require "obb", without the
-- ffi module or debug.getmetatable, or when the module's file is not known
-- (a module linked into the host program). obb.jit.status says which.

-- Captured at load (see above).
local type, select, rawget, rawequal, pairs, pcall, assert, tostring =
  type, select, rawget, rawequal, pairs, pcall, assert, tostring
local rawset = rawset
local getmetatable, setmetatable, require = getmetatable, setmetatable, require
local debug_lib = rawget(_G, "debug")
local raw_getmetatable = type(debug_lib) == "table" and rawget(debug_lib, "getmetatable") or nil
local raw_getfenv = type(debug_lib) == "table" and rawget(debug_lib, "getfenv") or nil
local newproxy = rawget(_G, "newproxy")
local os_lib = rawget(_G, "os")
local getenv = type(os_lib) == "table" and rawget(os_lib, "getenv") or nil
local huge = math.huge
local has_jit = rawget(_G, "jit") ~= nil

-- The replacements share scratch buffers (below), and a finalizer can run
-- in the middle of one (at a GC step of the interpreter, or of a trace's
-- exit) and call another. So each replacement takes a new generation
-- before it writes a buffer, and uses what it read back only if the
-- generation is still its own: results are read into locals first, and
-- anything that commits checks just before it does. Otherwise it runs
-- the classic function, which keeps its results on the Lua stack.
local gen = 0

local M = {}

-- The declarations the FFI uses, copied from include/obb.h and
-- include/lobb_ffi.h (OBB_API, LOBB_API left out). `make check-ffi` and
-- spec/ffi_cdef_spec.lua (spec/ffi_check.lua)
-- fail if any of them is not in the preprocessed header word for word.
M.cdef = [[
typedef enum obb_status {
  OBB_OK = 0,
  OBB_ENOTFINITE,
  OBB_ENEGATIVE,
  OBB_EZERO,
  OBB_ENOTORTHO,
  OBB_ENOTAFFINE,
  OBB_EEMPTY
} obb_status;
typedef struct obb2 {
  double c[2];
  double u[2];
  double e[2];
} obb2;
typedef struct obb3 {
  double c[3];
  double u[3][3];
  double e[3];
} obb3;
obb_status obb2_set_angle(obb2 *b, double angle);
double obb2_angle(const obb2 *b);
obb_status obb2_translate(obb2 *b, const double d[2]);
obb_status obb2_rotate(obb2 *b, double angle);
int obb2_contains_point(const obb2 *b, const double p[2]);
int obb2_contains_box(const obb2 *outer, const obb2 *inner);
void obb2_corners(const obb2 *b, double out[8]);
obb_status obb3_init(obb3 *b, const double c[3], const double e[3],
                     const double q[4]);
obb_status obb3_set_rotation(obb3 *b, const double q[4]);
void obb3_rotation(const obb3 *b, double q[4]);
obb_status obb3_translate(obb3 *b, const double d[3]);
obb_status obb3_rotate(obb3 *b, const double q[4]);
int obb3_contains_point(const obb3 *b, const double p[3]);
int obb3_contains_box(const obb3 *outer, const obb3 *inner);
void obb3_corners(const obb3 *b, double out[24]);
int obb2_raycast(const obb2 *b, const double o[2], const double d[2],
                 double max_t, double *t, double n[2]);
int obb3_raycast(const obb3 *b, const double o[3], const double d[3],
                 double max_t, double *t, double n[3]);
void obb2_closest_point(const obb2 *b, const double p[2], double out[2]);
double obb2_distance_point(const obb2 *b, const double p[2]);
void obb3_closest_point(const obb3 *b, const double p[3], double out[3]);
double obb3_distance_point(const obb3 *b, const double p[3]);
double obb2_distance(const obb2 *a, const obb2 *b, double pa[2],
                     double pb[2]);
double obb3_distance(const obb3 *a, const obb3 *b, double pa[3],
                     double pb[3]);
int obb2_intersects_circle(const obb2 *b, const double c[2], double r);
int obb3_intersects_sphere(const obb3 *b, const double c[3], double r);
int obb2_penetration(const obb2 *a, const obb2 *b, double n[2],
                     double *depth);
int obb3_penetration(const obb3 *a, const obb3 *b, double n[3],
                     double *depth);
int lobb_ffi_world_update(void *world, double id, const double *v,
                                   int nv);
int lobb_ffi_world_reserve(void *world, const double *v, int nv);
int lobb_ffi_world_get(void *world, double id, double *out);
int lobb_ffi_world_move(void *world, double id, const double *goal,
                                 int dim, int response, double *hits,
                                 int cap, double *actual);
int lobb_ffi_world_commit(void *world, double id, double x,
                                   double y, double z, double stamp);
int lobb_ffi_world_cast(void *world, const void *box,
                                 const double *d, int dim, double *hits,
                                 int cap);
int lobb_ffi_world_cast_turning(void *world, const void *box,
                                         const double *d, const double *turn,
                                         int dim, double *hits, int cap);
int lobb_ffi_intersects2(const void *a, const void *b);
int lobb_ffi_intersects3(const void *a, const void *b);
int lobb_ffi_sweep2(const void *a, const void *b, const double *v,
                             int turning, double *out);
int lobb_ffi_sweep3(const void *a, const void *b, const double *v,
                             int turning, double *out);
]]

-- "ffi" once installed, else why the classic path stays.
M.status = "not installed"

-- The classic C functions each install replaced, by method table:
-- M.classic[obb.obb2].intersects. The specs compare the two paths with it.
M.classic = setmetatable({}, { __mode = "k" })

local function disabled_by_env()
  local v = getenv and getenv("OBB_NO_FFI")
  return v ~= nil and v ~= "" and v ~= "0"
end

-- Declares M.cdef unless an earlier install in this state did (ffi.cdef
-- refuses to declare a type twice).
local function declare(ffi)
  if not pcall(ffi.typeof, "obb3") then ffi.cdef(M.cdef) end
  assert(ffi.sizeof("obb2") == 48 and ffi.sizeof("obb3") == 120,
         "obb2/obb3 declared differently elsewhere")
end

-- Builds the replacements for the method tables T2 (obb.obb2) and T3
-- (obb.obb3), whose boxes carry the metatables mt2 and mt3 as getmt
-- (debug.getmetatable) sees them; returns two tables name -> function.
local function build(ffi, lib, obb, T2, T3, mt2, mt3, getmt)
  local copy = ffi.copy

  -- Scratch: buf receives a box and its tag (the largest, 3D, is 128
  -- bytes); w reads the tag's words out of it; p, d and e hold a call's
  -- vectors (points, directions, quaternions, extents), out, pb and t its
  -- results.
  local buf = ffi.new("double[16]")
  local w = ffi.cast("uint32_t *", buf)
  local buf2 = ffi.cast("obb2 *", buf)
  local buf3 = ffi.cast("obb3 *", buf)
  local p = ffi.new("double[4]")
  local d = ffi.new("double[4]")
  local e = ffi.new("double[3]")
  local out = ffi.new("double[24]")
  local pb = ffi.new("double[3]")
  local t = ffi.new("double[1]")
  local sv = ffi.new("double[12]") -- a sweep's displacements and turns

  -- The userdata of a box is the box, then the tag pointer (lobb_ud2/3);
  -- FFI lays these out as the C compiler does.
  local UD2 = ffi.typeof("struct { obb2 box; const void *tag; }")
  local UD3 = ffi.typeof("struct { obb3 box; const void *tag; }")
  local size2, size3 = ffi.sizeof(UD2), ffi.sizeof(UD3)
  local ptr_words = ffi.sizeof("void *") / 4
  assert(size3 <= ffi.sizeof(buf), "box userdata larger than the buffer")

  -- The tag words of a genuine box of each type (one that carries the
  -- type's metatable, so the copy reads only its own bytes).
  local function sample(box, mt, size, UD)
    assert(rawequal(getmt(box), mt), "a new box does not carry its metatable")
    copy(buf, box, size)
    local i = ffi.offsetof(UD, "tag") / 4
    return w[i], w[i + ptr_words - 1], i, i + ptr_words - 1
  end
  local tag2a, tag2b, i2a, i2b = sample(obb.new2(0, 0, 0, 0), mt2, size2, UD2)
  local tag3a, tag3b, i3a, i3b = sample(obb.new3(0, 0, 0, 0, 0, 0), mt3, size3, UD3)

  -- Whether x is a userdata carrying the real metatable mt: all that Lua
  -- checks before handing x to an entry point of include/lobb_ffi.h, which
  -- checks the tag itself. Without the debug library only obb's own
  -- userdata carry it, so what the entry point reads is the box's.
  local function dressed(x, mt)
    return type(x) == "userdata" and getmt(x) == mt
  end
  -- Whether x is a 2D (3D) box; if so, buf holds a copy of it. The copy
  -- is made only of a userdata that carries the type's real metatable, so
  -- only a userdata given it by debug.setmetatable (a 2D box dressed as
  -- 3D, a file, a proxy) can be read past its end, up to the 128 bytes of
  -- a 3D box, before it is refused, and only one whose bytes past its end
  -- happen to hold the tag (a dead box's) is taken for a box
  -- (docs/hardening.md).
  local function is2(x)
    if not dressed(x, mt2) then return false end
    copy(buf, x, size2)
    return w[i2a] == tag2a and w[i2b] == tag2b
  end
  local function is3(x)
    if not dressed(x, mt3) then return false end
    copy(buf, x, size3)
    return w[i3a] == tag3a and w[i3b] == tag3b
  end
  local intersects2, intersects3 = lib.lobb_ffi_intersects2, lib.lobb_ffi_intersects3
  local sweep2, sweep3 = lib.lobb_ffi_sweep2, lib.lobb_ffi_sweep3
  -- A finite number (not a numeric string), as lobb_checkfinite takes.
  local function fin(x) return type(x) == "number" and x - x == 0 end
  local function extent(x) return fin(x) and x >= 0 end
  -- raycast's max_t: nil (no limit), or a number >= 0, inf allowed
  local function maxt(x) return x == nil or (type(x) == "number" and x >= 0) end

  -- Statuses: the FFI interpreter boxes an enum result (garbage on every
  -- call), so each function returning obb_status is called through a
  -- pointer to the same declaration returning int, as the C ABI returns an
  -- enum anyway.
  local st = {}
  for name, params in M.cdef:gmatch("obb_status%s+([%w_]+)%s*(%b())") do
    st[name] = ffi.cast("int (*)" .. params, lib[name])
  end
  local set_angle2, translate2, rotate2 = st.obb2_set_angle, st.obb2_translate, st.obb2_rotate
  local init3, set_rotation3 = st.obb3_init, st.obb3_set_rotation
  local translate3, rotate3 = st.obb3_translate, st.obb3_rotate

  local C2, C3 = {}, {}
  for k, f in pairs(T2) do C2[k] = f end
  for k, f in pairs(T3) do C3[k] = f end
  local F2, F3 = {}, {}

  -- ---- 2D ---------------------------------------------------------------

  local c_intersects2 = C2.intersects
  function F2.intersects(...)
    local a, b = ...
    if select("#", ...) == 2 and dressed(a, mt2) and dressed(b, mt2) then
      local r = intersects2(a, b)
      if r >= 0 then return r ~= 0 end
    end
    return c_intersects2(...)
  end

  local c_contains2 = C2.contains
  function F2.contains(...)
    local a, x, y = ...
    local n = select("#", ...)
    if is2(a) then
      if n == 3 and fin(x) and fin(y) then
        local g = gen + 1; gen = g
        p[0], p[1] = x, y
        local r = lib.obb2_contains_point(a, p)
        if gen == g then return r ~= 0 end
      elseif n == 2 and is2(x) then
        return lib.obb2_contains_box(a, x) ~= 0
      end
    end
    return c_contains2(...)
  end

  local c_penetration2 = C2.penetration
  function F2.penetration(...)
    local a, b = ...
    if select("#", ...) == 2 and is2(a) and is2(b) then
      local g = gen + 1; gen = g
      local hit = lib.obb2_penetration(a, b, out, t)
      local nx, ny, depth = out[0], out[1], t[0]
      if gen == g then
        if hit == 0 then return nil end
        return nx, ny, depth
      end
    end
    return c_penetration2(...)
  end

  local c_distance2 = C2.distance
  function F2.distance(...)
    local a, x, y = ...
    local n = select("#", ...)
    if is2(a) then
      local g = gen + 1; gen = g
      if n == 3 and fin(x) and fin(y) then
        p[0], p[1] = x, y
        local dist = lib.obb2_distance_point(a, p)
        if gen == g then return dist end
      elseif n == 2 and is2(x) then
        local dist = lib.obb2_distance(a, x, out, pb)
        local ax, ay, bx, by = out[0], out[1], pb[0], pb[1]
        if gen == g then return dist, ax, ay, bx, by end
      end
    end
    return c_distance2(...)
  end

  local c_closest2 = C2.closest_point
  function F2.closest_point(...)
    local a, x, y = ...
    if select("#", ...) == 3 and is2(a) and fin(x) and fin(y) then
      local g = gen + 1; gen = g
      p[0], p[1] = x, y
      lib.obb2_closest_point(a, p, out)
      local cx, cy = out[0], out[1]
      if gen == g then return cx, cy end
    end
    return c_closest2(...)
  end

  local c_raycast2 = C2.raycast
  function F2.raycast(...)
    local a, ox, oy, dx, dy, max_t = ...
    local n = select("#", ...)
    if (n == 5 or n == 6) and is2(a) and fin(ox) and fin(oy) and fin(dx)
        and fin(dy) and (dx ~= 0 or dy ~= 0) and maxt(max_t) then
      local g = gen + 1; gen = g
      p[0], p[1], d[0], d[1] = ox, oy, dx, dy
      out[0], out[1], t[0] = 0, 0, 0
      local r = lib.obb2_raycast(a, p, d, max_t or huge, t, out)
      local tt, nx, ny = t[0], out[0], out[1]
      if gen == g then
        if r == 0 then return nil end
        return tt, nx, ny, r == 2
      end
    end
    return c_raycast2(...)
  end

  -- sweep(b, vax, vay, vbx, vby [, wa, wb]): the C side checks the tags
  -- (and the numbers again) and answers as obb2_sweep or
  -- obb2_sweep_turning does: 0 none, 1 a hit, 2 "limit".
  local c_sweep2 = C2.sweep
  function F2.sweep(...)
    local a, b, vax, vay, vbx, vby, wa, wb = ...
    local n = select("#", ...)
    if (n == 6 or (n == 8 and fin(wa) and fin(wb))) and dressed(a, mt2)
        and dressed(b, mt2) and fin(vax) and fin(vay) and fin(vbx) and fin(vby) then
      local g = gen + 1; gen = g
      sv[0], sv[1], sv[2], sv[3] = vax, vay, vbx, vby
      local turning = 0
      if n == 8 then sv[4], sv[5], turning = wa, wb, 1 end
      local r = sweep2(a, b, sv, turning, out)
      local tt, nx, ny = out[0], out[1], out[2]
      if gen == g then
        if r == 0 then return nil end
        if r == 1 then return tt, nx, ny end
        if r == 2 then return tt, nx, ny, "limit" end
      end
    end
    return c_sweep2(...)
  end

  local c_circle2 = C2.intersects_circle
  function F2.intersects_circle(...)
    local a, x, y, r = ...
    if select("#", ...) == 4 and is2(a) and fin(x) and fin(y) and extent(r) then
      local g = gen + 1; gen = g
      p[0], p[1] = x, y
      local hit = lib.obb2_intersects_circle(a, p, r)
      if gen == g then return hit ~= 0 end
    end
    return c_circle2(...)
  end

  local c_center2 = C2.center
  function F2.center(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is2((...)) then
      local x, y = buf[0], buf[1]
      if gen == g then return x, y end
    end
    return c_center2(...)
  end

  local c_half2 = C2.half_extents
  function F2.half_extents(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is2((...)) then
      local hx, hy = buf[4], buf[5]
      if gen == g then return hx, hy end
    end
    return c_half2(...)
  end

  local c_axes2 = C2.axes
  function F2.axes(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is2((...)) then
      local ux, uy = buf[2], buf[3]
      if gen == g then return ux, uy, -uy, ux end
    end
    return c_axes2(...)
  end

  local c_angle2 = C2.angle
  function F2.angle(...)
    local a = ...
    if select("#", ...) == 1 and is2(a) then return lib.obb2_angle(a) end
    return c_angle2(...)
  end

  local c_corners2 = C2.corners
  function F2.corners(...)
    local a = ...
    if select("#", ...) == 1 and is2(a) then
      local g = gen + 1; gen = g
      lib.obb2_corners(a, out)
      local x1, y1, x2, y2, x3, y3, x4, y4 = out[0], out[1], out[2], out[3],
                                             out[4], out[5], out[6], out[7]
      if gen == g then return x1, y1, x2, y2, x3, y3, x4, y4 end
    end
    return c_corners2(...)
  end

  -- set(cx, cy, hx, hy [, angle]): without the angle the axis stays.
  local c_set2 = C2.set
  function F2.set(...)
    local a, cx, cy, hx, hy, ang = ...
    local n = select("#", ...)
    local g = gen + 1; gen = g
    if (n == 5 or n == 6) and is2(a) and fin(cx) and fin(cy) and extent(hx)
        and extent(hy) and (ang == nil or fin(ang)) then
      buf[0], buf[1], buf[4], buf[5] = cx, cy, hx, hy
      if ang ~= nil then set_angle2(buf2, ang) end
      if gen == g then
        copy(a, buf, 48)
        return a
      end
    end
    return c_set2(...)
  end

  local c_set_center2 = C2.set_center
  function F2.set_center(...)
    local a, x, y = ...
    if select("#", ...) == 3 and is2(a) and fin(x) and fin(y) then
      local g = gen + 1; gen = g
      p[0], p[1] = x, y
      if gen == g then
        copy(a, p, 16) -- the center comes first
        return a
      end
    end
    return c_set_center2(...)
  end

  local c_set_angle2 = C2.set_angle
  function F2.set_angle(...)
    local a, ang = ...
    if select("#", ...) == 2 and is2(a) and fin(ang) then
      set_angle2(a, ang)
      return a
    end
    return c_set_angle2(...)
  end

  local c_translate2 = C2.translate
  function F2.translate(...)
    local a, x, y = ...
    if select("#", ...) == 3 and is2(a) and fin(x) and fin(y) then
      local g = gen + 1; gen = g
      p[0], p[1] = x, y
      if gen == g and translate2(a, p) == 0 then return a end
    end
    return c_translate2(...)
  end

  local c_rotate2 = C2.rotate
  function F2.rotate(...)
    local a, ang = ...
    if select("#", ...) == 2 and is2(a) and fin(ang)
        and rotate2(a, ang) == 0 then
      return a
    end
    return c_rotate2(...)
  end

  -- ---- 3D ---------------------------------------------------------------

  local c_intersects3 = C3.intersects
  function F3.intersects(...)
    local a, b = ...
    if select("#", ...) == 2 and dressed(a, mt3) and dressed(b, mt3) then
      local r = intersects3(a, b)
      if r >= 0 then return r ~= 0 end
    end
    return c_intersects3(...)
  end

  local c_contains3 = C3.contains
  function F3.contains(...)
    local a, x, y, z = ...
    local n = select("#", ...)
    if is3(a) then
      if n == 4 and fin(x) and fin(y) and fin(z) then
        local g = gen + 1; gen = g
        p[0], p[1], p[2] = x, y, z
        local r = lib.obb3_contains_point(a, p)
        if gen == g then return r ~= 0 end
      elseif n == 2 and is3(x) then
        return lib.obb3_contains_box(a, x) ~= 0
      end
    end
    return c_contains3(...)
  end

  local c_penetration3 = C3.penetration
  function F3.penetration(...)
    local a, b = ...
    if select("#", ...) == 2 and is3(a) and is3(b) then
      local g = gen + 1; gen = g
      local hit = lib.obb3_penetration(a, b, out, t)
      local nx, ny, nz, depth = out[0], out[1], out[2], t[0]
      if gen == g then
        if hit == 0 then return nil end
        return nx, ny, nz, depth
      end
    end
    return c_penetration3(...)
  end

  local c_distance3 = C3.distance
  function F3.distance(...)
    local a, x, y, z = ...
    local n = select("#", ...)
    if is3(a) then
      local g = gen + 1; gen = g
      if n == 4 and fin(x) and fin(y) and fin(z) then
        p[0], p[1], p[2] = x, y, z
        local dist = lib.obb3_distance_point(a, p)
        if gen == g then return dist end
      elseif n == 2 and is3(x) then
        local dist = lib.obb3_distance(a, x, out, pb)
        local ax, ay, az, bx, by, bz = out[0], out[1], out[2], pb[0], pb[1], pb[2]
        if gen == g then return dist, ax, ay, az, bx, by, bz end
      end
    end
    return c_distance3(...)
  end

  local c_closest3 = C3.closest_point
  function F3.closest_point(...)
    local a, x, y, z = ...
    if select("#", ...) == 4 and is3(a) and fin(x) and fin(y) and fin(z) then
      local g = gen + 1; gen = g
      p[0], p[1], p[2] = x, y, z
      lib.obb3_closest_point(a, p, out)
      local cx, cy, cz = out[0], out[1], out[2]
      if gen == g then return cx, cy, cz end
    end
    return c_closest3(...)
  end

  local c_raycast3 = C3.raycast
  function F3.raycast(...)
    local a, ox, oy, oz, dx, dy, dz, max_t = ...
    local n = select("#", ...)
    if (n == 7 or n == 8) and is3(a) and fin(ox) and fin(oy) and fin(oz)
        and fin(dx) and fin(dy) and fin(dz) and (dx ~= 0 or dy ~= 0 or dz ~= 0)
        and maxt(max_t) then
      local g = gen + 1; gen = g
      p[0], p[1], p[2], d[0], d[1], d[2] = ox, oy, oz, dx, dy, dz
      out[0], out[1], out[2], t[0] = 0, 0, 0, 0
      local r = lib.obb3_raycast(a, p, d, max_t or huge, t, out)
      local tt, nx, ny, nz = t[0], out[0], out[1], out[2]
      if gen == g then
        if r == 0 then return nil end
        return tt, nx, ny, nz, r == 2
      end
    end
    return c_raycast3(...)
  end

  -- sweep(b, vax, vay, vaz, vbx, vby, vbz [, rax, ray, raz, rbx, rby, rbz])
  local c_sweep3 = C3.sweep
  function F3.sweep(...)
    local a, b, v1, v2, v3, v4, v5, v6, r1, r2, r3, r4, r5, r6 = ...
    local n = select("#", ...)
    if (n == 8 or (n == 14 and fin(r1) and fin(r2) and fin(r3) and fin(r4)
                   and fin(r5) and fin(r6)))
        and dressed(a, mt3) and dressed(b, mt3) and fin(v1) and fin(v2)
        and fin(v3) and fin(v4) and fin(v5) and fin(v6) then
      local g = gen + 1; gen = g
      sv[0], sv[1], sv[2], sv[3], sv[4], sv[5] = v1, v2, v3, v4, v5, v6
      local turning = 0
      if n == 14 then
        sv[6], sv[7], sv[8], sv[9], sv[10], sv[11] = r1, r2, r3, r4, r5, r6
        turning = 1
      end
      local r = sweep3(a, b, sv, turning, out)
      local tt, nx, ny, nz = out[0], out[1], out[2], out[3]
      if gen == g then
        if r == 0 then return nil end
        if r == 1 then return tt, nx, ny, nz end
        if r == 2 then return tt, nx, ny, nz, "limit" end
      end
    end
    return c_sweep3(...)
  end

  local c_sphere3 = C3.intersects_sphere
  function F3.intersects_sphere(...)
    local a, x, y, z, r = ...
    if select("#", ...) == 5 and is3(a) and fin(x) and fin(y) and fin(z)
        and extent(r) then
      local g = gen + 1; gen = g
      p[0], p[1], p[2] = x, y, z
      local hit = lib.obb3_intersects_sphere(a, p, r)
      if gen == g then return hit ~= 0 end
    end
    return c_sphere3(...)
  end

  local c_center3 = C3.center
  function F3.center(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is3((...)) then
      local x, y, z = buf[0], buf[1], buf[2]
      if gen == g then return x, y, z end
    end
    return c_center3(...)
  end

  local c_half3 = C3.half_extents
  function F3.half_extents(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is3((...)) then
      local hx, hy, hz = buf[12], buf[13], buf[14]
      if gen == g then return hx, hy, hz end
    end
    return c_half3(...)
  end

  local c_axes3 = C3.axes
  function F3.axes(...)
    local g = gen + 1; gen = g
    if select("#", ...) == 1 and is3((...)) then
      local ux, uy, uz, vx, vy, vz, wx, wy, wz = buf[3], buf[4], buf[5],
        buf[6], buf[7], buf[8], buf[9], buf[10], buf[11]
      if gen == g then return ux, uy, uz, vx, vy, vz, wx, wy, wz end
    end
    return c_axes3(...)
  end

  local c_rotation3 = C3.rotation
  function F3.rotation(...)
    local a = ...
    if select("#", ...) == 1 and is3(a) then
      local g = gen + 1; gen = g
      lib.obb3_rotation(a, out)
      local x, y, z, qw = out[0], out[1], out[2], out[3]
      if gen == g then return x, y, z, qw end
    end
    return c_rotation3(...)
  end

  local c_corners3 = C3.corners
  function F3.corners(...)
    local a = ...
    if select("#", ...) == 1 and is3(a) then
      local g = gen + 1; gen = g
      lib.obb3_corners(a, out)
      local c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12 = out[0], out[1],
        out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9], out[10], out[11]
      local c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24 = out[12],
        out[13], out[14], out[15], out[16], out[17], out[18], out[19], out[20],
        out[21], out[22], out[23]
      if gen == g then
        return c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15,
               c16, c17, c18, c19, c20, c21, c22, c23, c24
      end
    end
    return c_corners3(...)
  end

  -- A quaternion as lobb_checkquat takes it: four finite numbers, not all
  -- zero; stored in d.
  local function quat(x, y, z, qw)
    if fin(x) and fin(y) and fin(z) and fin(qw)
        and (x ~= 0 or y ~= 0 or z ~= 0 or qw ~= 0) then
      d[0], d[1], d[2], d[3] = x, y, z, qw
      return true
    end
    return false
  end

  -- set(cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw]): without the rotation
  -- the axes stay.
  local c_set3 = C3.set
  function F3.set(...)
    local a, cx, cy, cz, hx, hy, hz, qx, qy, qz, qw = ...
    local n = select("#", ...)
    local g = gen + 1; gen = g
    if (n == 7 or n == 11) and is3(a) and fin(cx) and fin(cy) and fin(cz)
        and extent(hx) and extent(hy) and extent(hz) then
      if n == 7 then
        buf[0], buf[1], buf[2], buf[12], buf[13], buf[14] = cx, cy, cz, hx, hy, hz
        if gen == g then
          copy(a, buf, 120)
          return a
        end
      elseif quat(qx, qy, qz, qw) then
        p[0], p[1], p[2], e[0], e[1], e[2] = cx, cy, cz, hx, hy, hz
        if init3(buf3, p, e, d) == 0 and gen == g then
          copy(a, buf, 120)
          return a
        end
      end
    end
    return c_set3(...)
  end

  local c_set_center3 = C3.set_center
  function F3.set_center(...)
    local a, x, y, z = ...
    if select("#", ...) == 4 and is3(a) and fin(x) and fin(y) and fin(z) then
      local g = gen + 1; gen = g
      p[0], p[1], p[2] = x, y, z
      if gen == g then
        copy(a, p, 24) -- the center comes first
        return a
      end
    end
    return c_set_center3(...)
  end

  local c_set_rotation3 = C3.set_rotation
  function F3.set_rotation(...)
    local a, x, y, z, qw = ...
    local g = gen + 1; gen = g
    if select("#", ...) == 5 and is3(a) and quat(x, y, z, qw) and gen == g
        and set_rotation3(a, d) == 0 then
      return a
    end
    return c_set_rotation3(...)
  end

  local c_translate3 = C3.translate
  function F3.translate(...)
    local a, x, y, z = ...
    if select("#", ...) == 4 and is3(a) and fin(x) and fin(y) and fin(z) then
      local g = gen + 1; gen = g
      p[0], p[1], p[2] = x, y, z
      if gen == g and translate3(a, p) == 0 then return a end
    end
    return c_translate3(...)
  end

  local c_rotate3 = C3.rotate
  function F3.rotate(...)
    local a, x, y, z, qw = ...
    local g = gen + 1; gen = g
    if select("#", ...) == 5 and is3(a) and quat(x, y, z, qw) and gen == g
        and rotate3(a, d) == 0 then
      return a
    end
    return c_rotate3(...)
  end

  for k in pairs(F2) do assert(C2[k], "obb.obb2 has no " .. k) end
  for k in pairs(F3) do assert(C3[k], "obb.obb3 has no " .. k) end
  return F2, F3, C2, C3
end

-- Builds the replacements for the world methods WM (what getmetatable
-- gives for a world, whose real metatable is mtw): add, update and get by
-- numbers, the calls a game makes per item and frame. The item's id comes
-- from the world's item table, its first user value (under LuaJIT the
-- userdata's environment, read with debug.getfenv); the C side
-- (include/lobb_ffi.h) checks the world and the id as the classic method
-- does and returns 0 for anything else, and then the classic method runs
-- with the same arguments.
--
-- The environment is read once per world and kept (weakly): the binding
-- never replaces it, only its entries (fresh item tables when the last
-- item goes), which are read on every call. Only debug.setfenv replaces
-- it; the fast path then keeps the world's former tables, which can name
-- only ids the world holds, as a script with the debug library can make
-- any item table name (docs/hardening.md).
local function build_world(ffi, lib, WM, mtw, getmt, getfenv, ffi_add, mt2,
                           mt3)
  local update, get = lib.lobb_ffi_world_update, lib.lobb_ffi_world_get
  local reserve = lib.lobb_ffi_world_reserve
  local v = ffi.new("double[10]")
  local out = ffi.new("double[10]")
  local c_add, c_update, c_get = WM.add, WM.update, WM.get
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
  local function num(x) return type(x) == "number" end

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

  local F = {}
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
    return c_add(...)
  end

  function F.update(...)
    local w, item, a, b, c, d, e, f, g, h, i, j = ...
    local id = id_of(w, item)
    if id then
      local gn = gen + 1; gen = gn
      local n = numbers(select("#", ...) - 2, a, b, c, d, e, f, g, h, i, j)
      if n and gen == gn and update(w, id, v, n) ~= 0 then return w end
    end
    return c_update(...)
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
    return c_get(...)
  end
  -- ---- the movers: move, check, cast, cast_turning without a filter ----
  -- The C side (lobb_move.c) finds where the item ends and writes each
  -- collision as 10 doubles; here they go into dst, raw, as the classic
  -- method writes them, and then a move is committed, as the classic
  -- method commits after writing its out table, unless the world changed
  -- meanwhile. A filter function, more collisions than the buffer holds,
  -- a finalizer that used the buffers or changed the world between the
  -- halves, or anything the C side refuses: the classic method, with the
  -- same arguments.
  local move_c, cast_c = lib.lobb_ffi_world_move, lib.lobb_ffi_world_cast
  local commit_c = lib.lobb_ffi_world_commit
  local HITS = 64
  local hits = ffi.new("double[?]", 10 * HITS)
  local goal = ffi.new("double[3]")
  local actual = ffi.new("double[4]") -- the center, then the change count
  local RESPONSE = { touch = 1, cross = 2, slide = 3, bounce = 4 }
  local NAME = { "touch", "cross", "slide", "bounce" }
  local c_move, c_check, c_cast = WM.move, WM.check, WM.cast

  -- Clears what an earlier, longer result left in dst after index k.
  local function clear_tail(dst, k)
    k = k + 1
    while rawget(dst, k) ~= nil do
      rawset(dst, k, nil)
      k = k + 1
    end
  end

  local function write_moves(dst, byid, dim, count)
    local k = 0
    for i = 0, count - 1 do
      local h = 10 * i
      rawset(dst, k + 1, rawget(byid, hits[h] + 1))
      rawset(dst, k + 2, NAME[hits[h + 1]])
      rawset(dst, k + 3, hits[h + 2])
      rawset(dst, k + 4, hits[h + 3])
      rawset(dst, k + 5, hits[h + 4])
      if dim == 2 then
        rawset(dst, k + 6, hits[h + 6])
        rawset(dst, k + 7, hits[h + 7])
        rawset(dst, k + 8, hits[h + 9])
        k = k + 8
      else
        rawset(dst, k + 6, hits[h + 5])
        rawset(dst, k + 7, hits[h + 6])
        rawset(dst, k + 8, hits[h + 7])
        rawset(dst, k + 9, hits[h + 8])
        rawset(dst, k + 10, hits[h + 9])
        k = k + 10
      end
    end
    clear_tail(dst, k)
  end

  -- w:move / w:check (item, gx, gy[, gz] [, filter [, dst]]): a number
  -- after gy is gz (a 2D world then refuses it in C).
  local function mover(commit, classic)
    return function(...)
      local w, item, gx, gy, a, b, c = ...
      local n = select("#", ...)
      local id = id_of(w, item)
      if id and num(gx) and num(gy) then
        local dim, filter, dst = 2, a, b
        if num(a) then dim, filter, dst = 3, b, c end
        local response = filter == nil and 3 or RESPONSE[filter]
        if response and n <= dim + 4 and (dst == nil or type(dst) == "table") then
          local g = gen + 1; gen = g
          goal[0], goal[1], goal[2] = gx, gy, dim == 3 and a or 0
          local count = move_c(w, id, goal, dim, response, hits, HITS, actual)
          local x, y, z, stamp = actual[0], actual[1], actual[2], actual[dim]
          if count >= 0 and gen == g then
            if dst ~= nil then write_moves(dst, rawget(holder_of(w), 2), dim, count) end
            if gen == g and (not commit or commit_c(w, id, x, y, z, stamp) ~= 0) then
              if dim == 2 then return x, y, count end
              return x, y, z, count
            end
          end
        end
      end
      return classic(...)
    end
  end
  F.move = mover(true, c_move)
  F.check = mover(false, c_check)

  -- The casts' hits (5 doubles each: id, t, nx, ny, nz) into dst, raw:
  -- item, t, nx, ny[, nz] per hit, as the classic methods write them.
  local function write_casts(dst, byid, dim, count)
    local k = 0
    for i = 0, count - 1 do
      local h = 5 * i
      rawset(dst, k + 1, rawget(byid, hits[h] + 1))
      rawset(dst, k + 2, hits[h + 1])
      rawset(dst, k + 3, hits[h + 2])
      rawset(dst, k + 4, hits[h + 3])
      if dim == 3 then rawset(dst, k + 5, hits[h + 4]) end
      k = k + dim + 2
    end
    clear_tail(dst, k)
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
      if type(dst) == "table" and filter == nil and n <= dim + 4
          and getmt(box) == mt then
        local g = gen + 1; gen = g
        goal[0], goal[1], goal[2] = dx, dy, dim == 3 and a or 0
        local count = cast_c(w, box, goal, dim, hits, HITS * 2)
        if count >= 0 and gen == g then
          write_casts(dst, rawget(holder, 2), dim, count)
          if gen == g then return count end
        end
      end
    end
    return c_cast(...)
  end

  -- w:cast_turning(box, dx, dy, wt, dst) (2D) or
  -- w:cast_turning(box, dx, dy, dz, rx, ry, rz, dst) (3D): a number after
  -- the 2D form's turn makes it the 3D form (a 2D world then refuses it in
  -- C).
  local cast_turning_c = lib.lobb_ffi_world_cast_turning
  local turn = ffi.new("double[3]")
  local c_cast_turning = WM.cast_turning
  function F.cast_turning(...)
    local w, box, dx, dy, a, b, c, d, e, f = ...
    local n = select("#", ...)
    local holder = holder_of(w)
    if holder and type(box) == "userdata" and num(dx) and num(dy) and num(a) then
      local dim, dst, filter, most = 2, b, c, 7
      if num(b) then dim, dst, filter, most = 3, e, f, 10 end
      if type(dst) == "table" and filter == nil and n <= most
          and (dim == 2 or (num(c) and num(d)))
          and getmt(box) == (dim == 2 and mt2 or mt3) then
        local g = gen + 1; gen = g
        if dim == 2 then
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, 0, a, 0, 0
        else
          goal[0], goal[1], goal[2], turn[0], turn[1], turn[2] = dx, dy, a, b, c, d
        end
        local count = cast_turning_c(w, box, goal, turn, dim, hits, HITS * 2)
        if count >= 0 and gen == g then
          write_casts(dst, rawget(holder, 2), dim, count)
          if gen == g then return count end
        end
      end
    end
    return c_cast_turning(...)
  end

  return F, { add = c_add, update = c_update, get = c_get, move = c_move,
              check = c_check, cast = c_cast, cast_turning = c_cast_turning }
end

-- Whether getmt gives a value's real metatable: mt2, mt3 and mtw for a
-- new 2D box, 3D box and world, and its own for a table and a proxy whose
-- __metatable names a method table (getmetatable, or a function a script
-- put in debug.getmetatable's place before obb loaded, would give that).
local function real_metatables(getmt, obb, mt2, mt3, mtw)
  if type(getmt) ~= "function" then return false end
  local ok = rawequal(getmt(obb.new2(0, 0, 0, 0)), mt2)
    and rawequal(getmt(obb.new3(0, 0, 0, 0, 0, 0)), mt3)
    and rawequal(getmt(obb.world2()), mtw)
  local t_mt = { __metatable = rawget(mt2, "__index") }
  ok = ok and rawequal(getmt(setmetatable({}, t_mt)), t_mt)
  if ok and type(newproxy) == "function" then
    local p = newproxy(true)
    local p_mt = getmetatable(p)
    p_mt.__metatable = rawget(mt2, "__index")
    ok = rawequal(getmt(p), p_mt)
  end
  return ok
end

-- The metatables of the first install. luaopen_obb installs before any
-- script runs; a later call (from the same copy of obb opened again) must
-- bring the same ones, so a script calling install with metatables of its
-- own (a proxy's, say, to have its proxies taken for boxes) changes
-- nothing.
local installed_for

-- Called by luaopen_obb with the module table, the module's file (nil
-- when unknown), the three real metatables (2D boxes, 3D boxes, worlds)
-- and the second half of a world's add (a C function of the binding,
-- lobb_world.c). Never raises (the caller catches anything anyway); on
-- any failure the module keeps its classic functions.
function M.install(obb, file, mt2, mt3, mtw, ffi_add)
  if installed_for == nil then
    installed_for = { mt2, mt3, mtw }
  elseif not (rawequal(installed_for[1], mt2) and rawequal(installed_for[2], mt3)
              and rawequal(installed_for[3], mtw)) then
    return
  end
  if disabled_by_env() then M.status = "classic: OBB_NO_FFI is set"; return end
  if not has_jit then M.status = "classic: not LuaJIT"; return end
  local has_ffi, ffi = pcall(require, "ffi")
  if not has_ffi then M.status = "classic: no ffi module"; return end
  if type(file) ~= "string" then
    M.status = "classic: the module's file is unknown"
    return
  end
  if type(raw_getmetatable) ~= "function" then
    M.status = "classic: no debug.getmetatable"
    return
  end
  if type(raw_getfenv) ~= "function" then
    M.status = "classic: no debug.getfenv"
    return
  end
  local ok, err = pcall(function()
    assert(type(mt2) == "table" and type(mt3) == "table" and type(mtw) == "table"
           and type(ffi_add) == "function", "install takes the real metatables and the add")
    assert(real_metatables(raw_getmetatable, obb, mt2, mt3, mtw),
           "debug.getmetatable does not give the real metatables")
    declare(ffi)
    local lib = ffi.load(file)
    local T2, T3, WM = rawget(mt2, "__index"), rawget(mt3, "__index"), rawget(mtw, "__index")
    assert(rawequal(T2, obb.obb2) and rawequal(T3, obb.obb3) and type(WM) == "table",
           "the method tables are not the module's")
    local F2, F3, C2, C3 = build(ffi, lib, obb, T2, T3, mt2, mt3, raw_getmetatable)
    -- every symbol is resolved before the first method is replaced
    for name in M.cdef:gmatch("([%w_]+)%(") do assert(lib[name]) end
    local FW, CW = build_world(ffi, lib, WM, mtw, raw_getmetatable, raw_getfenv, ffi_add,
                               mt2, mt3)
    for k, f in pairs(F2) do T2[k] = f end
    for k, f in pairs(F3) do T3[k] = f end
    for k, f in pairs(FW) do WM[k] = f end
    M.classic[T2], M.classic[T3], M.classic[WM] = C2, C3, CW
  end)
  M.status = ok and "ffi" or "classic: " .. tostring(err)
end

return M
