-- spec/helpers.lua: what the obb specs share.
--
-- Written for every Lua the module supports (5.1 to 5.4 and LuaJIT): no
-- integer division, no goto, no bit operators, no 5.4-only library calls.
--
-- Tolerances are stated here once:
--   TOL      relative tolerance for results that are exact up to rounding
--            (transforms that keep a box a box, accessors after setters);
--   SLACK    how close to touching (relative to the configuration's size)
--            a randomised case may be and still be excluded as ambiguous.
local M = {}

M.TOL = 1e-12
M.SLACK = 1e-9

M.unpack = table.unpack or unpack
M.pack = function(...) return { n = select("#", ...), ... } end

-- ---- deterministic random numbers -------------------------------------
-- Park-Miller "minimal standard" generator. Every product stays below 2^53,
-- so doubles (5.1, LuaJIT) and integers (5.3, 5.4) give the same sequence,
-- unlike math.random, which differs between Lua versions.
local MOD, MUL = 2147483647, 16807

function M.rng(seed)
  local s = seed % MOD
  if s <= 0 then s = s + MOD - 1 end
  local r = {}
  local function step()
    s = (s * MUL) % MOD
    return s
  end
  -- uniform in [0, 1) with about 62 random bits
  function r.uniform()
    return ((step() - 1) + (step() - 1) / (MOD - 1)) / (MOD - 1)
  end
  function r.range(lo, hi) return lo + (hi - lo) * r.uniform() end
  function r.int(lo, hi) -- integer in [lo, hi]
    local n = lo + math.floor((hi - lo + 1) * r.uniform())
    if n > hi then n = hi end
    return n
  end
  function r.normal() -- Box-Muller
    local u = r.uniform()
    if u < 1e-300 then u = 1e-300 end
    return math.sqrt(-2 * math.log(u)) * math.cos(2 * math.pi * r.uniform())
  end
  function r.quat() -- uniformly distributed unit quaternion (x, y, z, w)
    local x, y, z, w, n
    repeat
      x, y, z, w = r.normal(), r.normal(), r.normal(), r.normal()
      n = math.sqrt(x * x + y * y + z * z + w * w)
    until n > 1e-6
    return x / n, y / n, z / n, w / n
  end
  return r
end

-- ---- comparisons --------------------------------------------------------

-- |a - b| <= tol * max(1, |a|, |b|) (relative, absolute near zero).
function M.near(a, b, tol)
  tol = tol or M.TOL
  local s = math.max(1, math.abs(a), math.abs(b))
  return math.abs(a - b) <= tol * s
end

-- The spacing of doubles at |x| (x finite): 2^(e - 52) for |x| in
-- [2^e, 2^(e + 1)), and 2^-1074 among the subnormals.
function M.ulp(x)
  x = math.abs(x)
  if x < 2 ^ -1022 then return 2 ^ -1074 end
  local e = math.floor(math.log(x) / math.log(2))
  while 2 ^ e > x do e = e - 1 end
  while 2 ^ (e + 1) <= x do e = e + 1 end
  return 2 ^ (e - 52)
end

-- Whether a and b are the same double or neighbours (one ulp apart, the
-- ulp taken at the smaller of the two, so 1 and 1 - 2^-53 are neighbours
-- but 1 and 1 - 2^-52 are not).
function M.within_ulp(a, b)
  if a == b then return true end
  if (a < 0) ~= (b < 0) and a ~= 0 and b ~= 0 then return false end
  return math.abs(a - b) <= M.ulp(math.min(math.abs(a), math.abs(b)))
end

-- Asserts that two lists of numbers agree element by element.
function M.assert_near_list(got, want, tol, what)
  assert(#got == #want, (what or "list") .. ": expected " .. #want ..
    " values, got " .. #got)
  for i = 1, #want do
    if not M.near(got[i], want[i], tol) then
      error((what or "list") .. ": value " .. i .. " is " ..
        string.format("%.17g", got[i]) .. ", expected " ..
        string.format("%.17g", want[i]), 2)
    end
  end
end

-- ---- result tables ------------------------------------------------------

-- A query's out table (n results, stride values each: a world's raycast,
-- cast or move) as a list of records, after checking its length.
function M.records(out, n, stride)
  if #out ~= n * stride then
    error(("%d values in out, expected %d results of %d"):format(#out, n, stride), 2)
  end
  local r = {}
  for i = 1, n do
    local rec = {}
    for k = 1, stride do rec[k] = out[(i - 1) * stride + k] end
    r[i] = rec
  end
  return r
end

-- ---- garbage ------------------------------------------------------------

-- KiB the Lua heap grows while run() runs with the collector stopped.
-- run() runs twice before: once to warm up (method names interned, buffers
-- grown), and once after the full collection, which may shrink the stack
-- and call-info list that the calls then grow back (5.2 does). LuaJIT keeps
-- the traces it compiles on the heap the collector counts, and may compile
-- one at any time, so its compiler is flushed and off while this measures.
function M.kib_allocated_by(run)
  local jit = rawget(_G, "jit")
  if jit then jit.flush(); jit.off() end
  local ok, grown = pcall(function()
    run()
    collectgarbage("collect")
    collectgarbage("stop")
    run()
    local before = collectgarbage("count")
    run()
    return collectgarbage("count") - before
  end)
  collectgarbage("restart")
  if jit then jit.on() end
  if not ok then error(grown, 0) end
  return grown
end

-- Bytes allocated by run() with LuaJIT's compiler on, once it is done:
-- run() again and again until a run in which the compiler recorded no
-- trace (a trace is an object of the collector's, so a run that compiles
-- one allocates it), at most tries times; returns the bytes that run
-- allocated, collector stopped, and how many runs it took (nil when every
-- run compiled something). Other Luas: the bytes of the first run. Each
-- measured run follows an unmeasured one after the collection (which may
-- shrink what the interpreter regrows on its next calls: Lua 5.4's call
-- records).
function M.bytes_allocated_jit_on(run, tries)
  local jit = rawget(_G, "jit")
  local traces = 0
  local function count() traces = traces + 1 end
  if jit then jit.attach(count, "trace") end
  local ok, bytes, runs = pcall(function()
    for k = 1, jit and tries or 1 do
      collectgarbage("collect")
      collectgarbage("stop")
      run()
      traces = 0
      local before = collectgarbage("count")
      run()
      local grown = (collectgarbage("count") - before) * 1024
      collectgarbage("restart")
      if traces == 0 then return grown, k end
    end
    return nil, tries
  end)
  collectgarbage("restart")
  if jit then jit.attach(count) end -- (the handler alone: detached)
  if not ok then error(bytes, 0) end
  return bytes, runs
end

-- ---- error messages -----------------------------------------------------
-- Lua versions name functions differently ('obb.new2', 'new2', '?') and
-- format floats differently (5.1 prints -1, 5.3+ prints -1.0), so a check
-- compares the argument number exactly, the function name by its last
-- component, and the text in parentheses with ".0" dropped after integers.

local function strip_float_zero(s)
  return (s:gsub("(%d)%.0([^%d])", "%1%2"):gsub("(%d)%.0$", "%1"))
end

-- Calls f(...) and returns its error message (a string) or raises.
function M.error_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error, but the call succeeded", 3) end
  return tostring(err)
end

-- Asserts that f(...) raises "bad argument #argn to '<fname>' (<text>)".
-- argn may be nil for errors that are not about one argument; fname may be
-- nil to skip the name check.
function M.assert_argerror(argn, fname, text, f, ...)
  local msg = M.error_of(f, ...)
  local want = strip_float_zero(argn and "(" .. text .. ")" or text)
  local norm = strip_float_zero(msg)
  if argn then
    local n, name = msg:match("bad argument #(%d+) to '([^']*)'")
    -- LuaJIT cannot name a function called in tail position (`return
    -- b:m(...)`): it says '?' and, not knowing it was a method call,
    -- counts self too. Every other Lua names it and counts as written.
    local jit_tail = rawget(_G, "jit") ~= nil and name == "?" and tonumber(n) == argn + 1
    if tonumber(n) ~= argn and not jit_tail then
      error("expected bad argument #" .. argn .. ", got: " .. msg, 2)
    end
    if fname and name ~= "?" and name ~= fname and
       name:sub(-#fname - 1) ~= "." .. fname then
      error("expected function name '" .. fname .. "', got: " .. msg, 2)
    end
  end
  if not norm:find(want, 1, true) then
    error("expected message containing '" .. want .. "', got: " .. msg, 2)
  end
  return msg
end

-- Asserts f(...) raises an error whose message contains text (plain).
function M.assert_error_text(text, f, ...)
  local msg = M.error_of(f, ...)
  if not msg:find(text, 1, true) then
    error("expected message containing '" .. text .. "', got: " .. msg, 2)
  end
  return msg
end

-- ---- box snapshots ------------------------------------------------------

-- Everything observable about a box, as one list of numbers.
function M.state(b)
  local t = {}
  for _, m in ipairs({ "center", "half_extents", "axes" }) do
    for _, v in ipairs({ b[m](b) }) do t[#t + 1] = v end
  end
  return t
end

function M.assert_same_state(a, b, what)
  assert(#a == #b, (what or "state") .. ": length differs")
  for i = 1, #a do
    if a[i] ~= b[i] then
      error((what or "state") .. " changed at value " .. i .. ": " ..
        string.format("%.17g", a[i]) .. " -> " .. string.format("%.17g", b[i]), 2)
    end
  end
end

-- ---- independent geometry in Lua ----------------------------------------

-- Axes of a 2D box from its angle: u and perp(u) = (-u.y, u.x).
function M.axes2(angle)
  local c, s = math.cos(angle), math.sin(angle)
  return { { c, s }, { -s, c } }
end

-- Columns of the rotation matrix of unit quaternion (x, y, z, w): the
-- images of the world x, y and z axes, which are the box's axes.
function M.quat_axes(x, y, z, w)
  return {
    { 1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w) },
    { 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w) },
    { 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y) },
  }
end

-- Quaternion product a*b (apply b first, then a).
function M.quat_mul(a, b)
  local ax, ay, az, aw = a[1], a[2], a[3], a[4]
  local bx, by, bz, bw = b[1], b[2], b[3], b[4]
  return {
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  }
end

-- Quaternion of a turn by angle about unit axis (x, y, z).
function M.quat_axis_angle(x, y, z, angle)
  local s = math.sin(angle / 2)
  return { x * s, y * s, z * s, math.cos(angle / 2) }
end

-- A box description in plain Lua: { c = {..}, u = {{..}, ..}, e = {..} },
-- with dim 2 or 3. These are what the reference methods below work on.
function M.desc2(cx, cy, hx, hy, angle)
  return { c = { cx, cy }, u = M.axes2(angle or 0), e = { hx, hy },
    angle = angle or 0 }
end

function M.desc3(c, e, q)
  local n = math.sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3] + q[4] * q[4])
  return { c = c, u = M.quat_axes(q[1] / n, q[2] / n, q[3] / n, q[4] / n), e = e,
    q = q }
end

-- Reads a box's description back from the module (through its accessors).
function M.desc_of(b)
  local c, e, a = { b:center() }, { b:half_extents() }, { b:axes() }
  if #c == 2 then
    return { c = c, e = e, u = { { a[1], a[2] }, { a[3], a[4] } } }
  end
  return { c = c, e = e, u = { { a[1], a[2], a[3] }, { a[4], a[5], a[6] },
    { a[7], a[8], a[9] } } }
end

local function dot(a, b)
  local s = 0
  for i = 1, #a do s = s + a[i] * b[i] end
  return s
end
M.dot = dot

-- Local coordinates of point p in box d.
function M.local_coords(d, p)
  local r, q = {}, {}
  for i = 1, #p do q[i] = p[i] - d.c[i] end
  for i = 1, #d.e do r[i] = dot(q, d.u[i]) end
  return r
end

-- How far p is inside box d (negative: outside), as the smallest
-- e_i - |local_i|: the signed margin of the tightest slab.
function M.point_margin(d, p)
  local l, m = M.local_coords(d, p), math.huge
  for i = 1, #l do m = math.min(m, d.e[i] - math.abs(l[i])) end
  return m
end

-- Corners of a box description, as a list of points. 2D order is
-- counter-clockwise (-,-), (+,-), (+,+), (-,+); 3D corner k has bit i of k
-- selecting + on axis i.
function M.corners(d)
  local out = {}
  if #d.e == 2 then
    local sx, sy = { -1, 1, 1, -1 }, { -1, -1, 1, 1 }
    for k = 1, 4 do
      out[k] = {
        d.c[1] + sx[k] * d.e[1] * d.u[1][1] + sy[k] * d.e[2] * d.u[2][1],
        d.c[2] + sx[k] * d.e[1] * d.u[1][2] + sy[k] * d.e[2] * d.u[2][2],
      }
    end
    return out
  end
  for k = 0, 7 do
    local s = { k % 2 == 1 and 1 or -1, math.floor(k / 2) % 2 == 1 and 1 or -1,
      math.floor(k / 4) % 2 == 1 and 1 or -1 }
    local p = {}
    for i = 1, 3 do
      p[i] = d.c[i]
      for j = 1, 3 do p[i] = p[i] + s[j] * d.e[j] * d.u[j][i] end
    end
    out[k + 1] = p
  end
  return out
end

-- A copy of d with every half extent changed by delta (clamped at 0).
function M.grow(d, delta)
  local e = {}
  for i = 1, #d.e do e[i] = math.max(0, d.e[i] + delta) end
  return { c = d.c, u = d.u, e = e }
end

-- Size of a pair's configuration: the scale SLACK is relative to.
function M.scale(a, b)
  local s = 0
  for _, d in ipairs({ a, b }) do
    for i = 1, #d.e do s = math.max(s, d.e[i]) end
  end
  local dist = 0
  for i = 1, #a.c do dist = math.max(dist, math.abs(a.c[i] - b.c[i])) end
  return math.max(s, dist, 1e-300)
end

-- 2D reference: Sutherland-Hodgman clipping of a's rectangle by b's four
-- closed half-planes. Non-empty output means the rectangles share a point.
-- Not a separating-axis test: it constructs the intersection.
function M.clip_nonempty2(a, b)
  local poly = M.corners(a)
  local bc = M.corners(b)
  for k = 1, 4 do
    local p, q = bc[k], bc[k % 4 + 1]
    -- inside: on the left of (or on) the directed edge p->q, since b's
    -- corners run counter-clockwise; for a degenerate edge (zero extent)
    -- use the box's axis instead, so that the half-plane is still right.
    local ex, ey = q[1] - p[1], q[2] - p[2]
    if ex == 0 and ey == 0 then
      local ax = b.u[(k % 2 == 1) and 1 or 2]
      local sign = (k == 1 or k == 2) and 1 or -1
      ex, ey = sign * ax[1], sign * ax[2]
    end
    local function side(v) return ex * (v[2] - p[2]) - ey * (v[1] - p[1]) end
    local out, n = {}, #poly
    for i = 1, n do
      local cur, nxt = poly[i], poly[i % n + 1]
      local sc, sn = side(cur), side(nxt)
      if sc >= 0 then out[#out + 1] = cur end
      if (sc >= 0) ~= (sn >= 0) then
        local t = sc / (sc - sn)
        out[#out + 1] = { cur[1] + t * (nxt[1] - cur[1]),
          cur[2] + t * (nxt[2] - cur[2]) }
      end
    end
    poly = out
    if #poly == 0 then return false end
  end
  return true
end

-- 3D reference: a box pair intersects iff the convex polytope a & b is
-- non-empty, and then it has a vertex. Every vertex lies on three of the
-- twelve face planes, so it is a corner of one box inside the other, or an
-- edge of one box crossing a face plane of the other. Enumerate those
-- candidate points and test them against both boxes' inequalities with a
-- rounding allowance tol. Not a separating-axis test.
local EDGES3 = {}
for k = 0, 7 do
  for _, bit in ipairs({ 1, 2, 4 }) do
    if math.floor(k / bit) % 2 == 0 then
      EDGES3[#EDGES3 + 1] = { k + 1, k + bit + 1 }
    end
  end
end
M.EDGES3 = EDGES3

local function inside3(d, p, tol)
  local x, y, z = p[1] - d.c[1], p[2] - d.c[2], p[3] - d.c[3]
  for i = 1, 3 do
    local u = d.u[i]
    if math.abs(x * u[1] + y * u[2] + z * u[3]) > d.e[i] + tol then return false end
  end
  return true
end
M.inside3 = inside3

local function edges_cross_faces(a, b, ca, tol)
  -- edges of a against the six face planes of b
  for _, ed in ipairs(EDGES3) do
    local p, q = ca[ed[1]], ca[ed[2]]
    for i = 1, 3 do
      local u = b.u[i]
      local sp = (p[1] - b.c[1]) * u[1] + (p[2] - b.c[2]) * u[2] + (p[3] - b.c[3]) * u[3]
      local sq = (q[1] - b.c[1]) * u[1] + (q[2] - b.c[2]) * u[2] + (q[3] - b.c[3]) * u[3]
      for s = -1, 1, 2 do
        local h = s * b.e[i]
        if (sp - h) * (sq - h) <= 0 and sp ~= sq then
          local t = (h - sp) / (sq - sp)
          local v = { p[1] + t * (q[1] - p[1]), p[2] + t * (q[2] - p[2]),
            p[3] + t * (q[3] - p[3]) }
          if inside3(a, v, tol) and inside3(b, v, tol) then return true end
        end
      end
    end
  end
  return false
end

function M.polytope_nonempty3(a, b, tol)
  local ca, cb = M.corners(a), M.corners(b)
  for k = 1, 8 do
    if inside3(b, ca[k], tol) then return true end
    if inside3(a, cb[k], tol) then return true end
  end
  return edges_cross_faces(a, b, ca, tol) or edges_cross_faces(b, a, cb, tol)
end

-- Classifies a pair with a reference test ref(a, b): "in" when the boxes
-- shrunk by slack*size still meet (so the originals surely do), "out" when
-- the boxes grown by slack*size are still apart (so the originals surely
-- are), nil when the pair is within slack of touching (or the reference
-- contradicts itself, which it counts as ambiguous too).
function M.classify(a, b, ref, slack)
  local d = (slack or M.SLACK) * M.scale(a, b)
  local sure_in = ref(M.grow(a, -d), M.grow(b, -d))
  local sure_out = not ref(M.grow(a, d), M.grow(b, d))
  if sure_in and not sure_out then return "in" end
  if sure_out and not sure_in then return "out" end
  return nil
end

function M.ref2(a, b) return M.clip_nonempty2(a, b) end

function M.ref3(a, b)
  return M.polytope_nonempty3(a, b, 1e-13 * M.scale(a, b))
end

-- Is every corner of inner inside outer, with margin slack*size? Returns
-- "in", "out" or nil (ambiguous) like classify.
function M.classify_contains(outer, inner, slack)
  local d = (slack or M.SLACK) * M.scale(outer, inner)
  local worst = math.huge
  for _, p in ipairs(M.corners(inner)) do
    worst = math.min(worst, M.point_margin(outer, p))
  end
  if worst >= d then return "in" end
  if worst <= -d then return "out" end
  return nil
end

-- Constructs a module box from a description: through from_axes2/3 or,
-- every other call when the description has them, through new2/new3 with
-- its angle or quaternion, so that randomised checks exercise both.
local alternate = false
function M.box_of(obb, d)
  alternate = not alternate
  if alternate and d.angle then
    return obb.new2(d.c[1], d.c[2], d.e[1], d.e[2], d.angle)
  elseif alternate and d.q then
    return obb.new3(d.c[1], d.c[2], d.c[3], d.e[1], d.e[2], d.e[3],
      d.q[1], d.q[2], d.q[3], d.q[4])
  end
  if #d.e == 2 then
    return obb.from_axes2(d.c[1], d.c[2], d.e[1], d.e[2], d.u[1][1], d.u[1][2])
  end
  return obb.from_axes3(d.c[1], d.c[2], d.c[3], d.e[1], d.e[2], d.e[3],
    d.u[1][1], d.u[1][2], d.u[1][3], d.u[2][1], d.u[2][2], d.u[2][3],
    d.u[3][1], d.u[3][2], d.u[3][3])
end

-- Applies a 2D affine matrix (a, b, c, d, e, f) to a point.
function M.apply2(m, p)
  return { m[1] * p[1] + m[3] * p[2] + m[5], m[2] * p[1] + m[4] * p[2] + m[6] }
end

-- Applies a row-major 3x4 matrix to a point.
function M.apply3(m, p)
  return {
    m[1] * p[1] + m[2] * p[2] + m[3] * p[3] + m[4],
    m[5] * p[1] + m[6] * p[2] + m[7] * p[3] + m[8],
    m[9] * p[1] + m[10] * p[2] + m[11] * p[3] + m[12],
  }
end

-- Asserts that box b (from the module) and description d are the same set
-- of points: the same corners in some order, within tol relative to size.
function M.assert_same_set(b, d, tol, what)
  local got = M.corners(M.desc_of(b))
  local want = M.corners(d)
  local size = 1
  for _, p in ipairs(want) do
    for i = 1, #p do size = math.max(size, math.abs(p[i])) end
  end
  for _, p in ipairs(want) do
    local best = math.huge
    for _, q in ipairs(got) do
      local dd = 0
      for i = 1, #p do dd = math.max(dd, math.abs(p[i] - q[i])) end
      best = math.min(best, dd)
    end
    if best > (tol or M.TOL) * size then
      error((what or "box") .. ": corner off by " .. best, 2)
    end
  end
end

-- ---- finalizers ---------------------------------------------------------

-- Keeps n finalizers alive, each calling work() when it runs and arming
-- the next, until the function returned is called: the collector then
-- spends much of its time finalizing, so finalizers run at the GC steps
-- inside whatever the caller does meanwhile (newproxy where Lua has it,
-- else tables with __gc).
function M.finalizer_chain(n, work)
  local alive = true
  local function arm()
    local function gc()
      if alive then
        work()
        arm()
      end
    end
    if rawget(_G, "newproxy") then
      getmetatable(newproxy(true)).__gc = gc
    else
      setmetatable({}, { __gc = gc })
    end
  end
  for _ = 1, n do arm() end
  return function() alive = false end
end

-- ---- child processes ----------------------------------------------------
-- What could hang or crash the interpreter runs in a child, so that a spec
-- never does: the same interpreter (by its Debian name), the same paths,
-- the same environment (OBB_NO_FFI, the sanitizer's LD_PRELOAD, which only
-- the interpreter gets: the shell and timeout are not instrumented).

function M.interpreter()
  if rawget(_G, "jit") then return "luajit" end
  return "lua" .. _VERSION:match("%d+%.%d+")
end

-- Runs the Lua source chunk in a child for at most `seconds`; returns its
-- output (stdout and stderr) and its exit status (124: out of time, as
-- timeout(1) says; 128 + n: killed by signal n).
function M.run_child(chunk, seconds)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(chunk)
  f:close()
  local cmd = ("LD_PRELOAD= timeout %d env LD_PRELOAD=%q LUA_PATH=%q LUA_CPATH=%q %s %s 2>&1; echo \"exit:$?\"")
    :format(seconds, os.getenv("LD_PRELOAD") or "", package.path, package.cpath, M.interpreter(), file)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  os.remove(file)
  local status = tonumber(out:match("exit:(%d+)%s*$"))
  return out:gsub("exit:%d+%s*$", ""), status
end

-- Whether world:move asks a filter function from Lua (LuaJIT's FFI path,
-- docs/love.md), where the filter can yield; else it is called from C and
-- a yield raises.
function M.filters_in_lua()
  local J = package.loaded["obb.jit"]
  return type(J) == "table" and J.status == "ffi"
end

-- Starts co, a move whose filter yields: asked from Lua, the move waits
-- in the yield (spec/jit_filter_spec.lua); called from C, the yield
-- raises "cannot yield".
function M.assert_filter_yield(co)
  local ok, err = coroutine.resume(co)
  if M.filters_in_lua() then
    assert(ok, err)
    assert(coroutine.status(co) == "suspended", "the move waits in the yield")
  else
    assert(not ok, "a filter called from C cannot yield")
    assert(tostring(err):find("cannot yield", 1, true), err)
  end
end

-- The whole text of the file at path, relative to the repository's root
-- (where busted runs); an error naming the file when there is none.
function M.read(path)
  local f = assert(io.open(path, "r"), path .. " not found (run from the repository root)")
  local text = f:read("*a")
  f:close()
  return text
end

return M
