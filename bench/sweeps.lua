-- bench/sweeps.lua: box:sweep with turns from Lua, against the same pairs
-- swept without turning in the same run, and world:cast_turning against
-- world:cast. Run by bench/run.lua (`make bench`), which puts ./bench on
-- LUA_PATH and the build directory on LUA_CPATH.
--
-- The scenes are bench/core_bench.c's, drawn here with their own generator:
--   random pairs: centers within 4 of the origin, half extents 0.05 to 2,
--     displacements up to 6 per coordinate, turns up to a quarter turn a
--     step (3D: about a random axis), both boxes moving and turning;
--   racing: a 4 x 2 (x 1.4) car driving 2 to 8 a step along its heading
--     and steering up to 0.15 rad, against a thin barrier (0.1 thick, 2 to
--     12 long, turned at random) standing within 10 of it.
-- Each row calls its sweep the same way, over the same POOL cases round and
-- round; the notes give the share of hits and of "limit" answers over the
-- pool. Then a world: a car cast through the racing example's track (the
-- two octagons of thin barriers), turning and not, from random places on
-- the track.
local obb = require "obb"
local report = require "report"

local M = {}

local POOL = 4096
local N = math.max(1000, math.floor((tonumber(os.getenv("OBB_BENCH_CALLS")) or 2000000) / 20))
local RUNS = tonumber(os.getenv("OBB_BENCH_RUNS")) or 7
local PI = math.pi

-- Park-Miller: every product stays below 2^53, so the scenes are the same
-- on every Lua (doubles or integers).
local function rng(seed)
  local s = seed
  return function()
    s = (s * 16807) % 2147483647
    return (s - 1) / 2147483646
  end
end

local function uniform(r, lo, hi) return lo + (hi - lo) * r() end
local function turn_of(r, hi)
  local w = uniform(r, 0, hi)
  return r() < 0.5 and -w or w
end
local function axis(r)
  local x, y, z, l
  repeat
    x, y, z = uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)
    l = math.sqrt(x * x + y * y + z * z)
  until l > 0.1 and l <= 1
  return x / l, y / l, z / l
end

-- A scene: the boxes A, B and one array per number of the call.
local function scene(dim, racing, seed)
  local r = rng(seed)
  local S = { A = {}, B = {}, v = {} }
  local nv = dim == 2 and 6 or 12
  for j = 1, nv do S.v[j] = {} end
  for k = 1, POOL do
    local v = S.v
    if dim == 2 and not racing then
      S.A[k] = obb.new2(uniform(r, -4, 4), uniform(r, -4, 4), uniform(r, 0.05, 2), uniform(r, 0.05, 2),
                        uniform(r, -PI, PI))
      S.B[k] = obb.new2(uniform(r, -4, 4), uniform(r, -4, 4), uniform(r, 0.05, 2), uniform(r, 0.05, 2),
                        uniform(r, -PI, PI))
      for j = 1, 4 do v[j][k] = uniform(r, -6, 6) end
      v[5][k], v[6][k] = turn_of(r, PI / 2), turn_of(r, PI / 2)
    elseif dim == 2 then
      local th, speed = uniform(r, -PI, PI), uniform(r, 2, 8)
      S.A[k] = obb.new2(0, 0, 2, 1, th)
      S.B[k] = obb.new2(uniform(r, -10, 10), uniform(r, -10, 10), uniform(r, 1, 6), 0.05, uniform(r, -PI, PI))
      v[1][k], v[2][k], v[3][k], v[4][k] = speed * math.cos(th), speed * math.sin(th), 0, 0
      v[5][k], v[6][k] = uniform(r, -0.15, 0.15), 0
    elseif not racing then
      local function box()
        local qx, qy, qz, qw
        repeat
          qx, qy, qz, qw = uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)
        until qx * qx + qy * qy + qz * qz + qw * qw > 1e-6
        return obb.new3(uniform(r, -4, 4), uniform(r, -4, 4), uniform(r, -4, 4), uniform(r, 0.05, 2),
                        uniform(r, 0.05, 2), uniform(r, 0.05, 2), qx, qy, qz, qw)
      end
      S.A[k], S.B[k] = box(), box()
      for j = 1, 6 do v[j][k] = uniform(r, -6, 6) end
      local ax, ay, az = axis(r)
      local wa = turn_of(r, PI / 2)
      v[7][k], v[8][k], v[9][k] = ax * wa, ay * wa, az * wa
      local bx, by, bz = axis(r)
      local wb = turn_of(r, PI / 2)
      v[10][k], v[11][k], v[12][k] = bx * wb, by * wb, bz * wb
    else
      local th, speed = uniform(r, -PI, PI), uniform(r, 2, 8)
      S.A[k] = obb.new3(0, 0, 0.7, 2, 1, 0.7, 0, 0, math.sin(th / 2), math.cos(th / 2))
      local ph = uniform(r, -PI, PI)
      S.B[k] = obb.new3(uniform(r, -10, 10), uniform(r, -10, 10), 1, uniform(r, 1, 6), 0.05, 1,
                        0, 0, math.sin(ph / 2), math.cos(ph / 2))
      v[1][k], v[2][k], v[3][k] = speed * math.cos(th), speed * math.sin(th), 0
      for j = 4, 12 do v[j][k] = 0 end
      v[9][k] = uniform(r, -0.15, 0.15)
    end
  end
  return S
end

-- The timed loop, one copy per row (LuaJIT traces per prototype, as in
-- bench/pairs.lua): CALL is the sweep's call over case k.
local LOOP = [[
local f, A, B, V, POOL = ...
local v1, v2, v3, v4, v5, v6 = V[1], V[2], V[3], V[4], V[5], V[6]
local v7, v8, v9, v10, v11, v12 = V[7], V[8], V[9], V[10], V[11], V[12]
return function(n)
  local k = 0
  for _ = 1, n do
    k = k + 1
    if k > POOL then k = 1 end
    local _ = CALL
  end
end]]
local load = loadstring or load
local CALLS = {
  [2] = { "f(A[k], B[k], v1[k], v2[k], v3[k], v4[k])",
          "f(A[k], B[k], v1[k], v2[k], v3[k], v4[k], v5[k], v6[k])" },
  [3] = { "f(A[k], B[k], v1[k], v2[k], v3[k], v4[k], v5[k], v6[k])",
          "f(A[k], B[k], v1[k], v2[k], v3[k], v4[k], v5[k], v6[k], v7[k], v8[k], v9[k], v10[k], v11[k], v12[k])" },
}
local function looper(f, S, dim, turning)
  local src = LOOP:gsub("CALL", CALLS[dim][turning and 2 or 1])
  return assert(load(src, "=sweeps"))(f, S.A, S.B, S.v, POOL)
end

-- Hits and "limit" answers over the pool.
local function counts(f, S, dim, turning)
  local hits, limits, v = 0, 0, S.v
  for k = 1, POOL do
    local r
    if dim == 2 and turning then
      r = { f(S.A[k], S.B[k], v[1][k], v[2][k], v[3][k], v[4][k], v[5][k], v[6][k]) }
    elseif dim == 2 then
      r = { f(S.A[k], S.B[k], v[1][k], v[2][k], v[3][k], v[4][k]) }
    elseif turning then
      r = { f(S.A[k], S.B[k], v[1][k], v[2][k], v[3][k], v[4][k], v[5][k], v[6][k], v[7][k], v[8][k],
              v[9][k], v[10][k], v[11][k], v[12][k]) }
    else
      r = { f(S.A[k], S.B[k], v[1][k], v[2][k], v[3][k], v[4][k], v[5][k], v[6][k]) }
    end
    if r[1] ~= nil then hits = hits + 1 end
    if r[dim + 2] == "limit" then limits = limits + 1 end
  end
  return hits, limits
end

local jit_path = package.loaded["obb.jit"]
local classic = jit_path and jit_path.status == "ffi" and jit_path.classic

local function sweep_rows(dim, racing, seed)
  local S = scene(dim, racing, seed)
  local methods = dim == 2 and obb.obb2 or obb.obb3
  local f = methods.sweep
  local what = racing and "racing scene" or "random pairs"
  local hits_t, limits = counts(f, S, dim, true)
  local hits = counts(f, S, dim, false)
  local t_turn = report.time(looper(f, S, dim, true), N, RUNS)
  local t_trans = report.time(looper(f, S, dim, false), N, RUNS)
  local name = ("%dD sweep turning, %s"):format(dim, what)
  local plain = ("%dD sweep not turning, %s"):format(dim, what)
  if classic then -- the FFI path against the classic binding, then as below
    local c = classic[methods].sweep
    local c_turn = report.time(looper(c, S, dim, true), N, RUNS)
    local c_trans = report.time(looper(c, S, dim, false), N, RUNS)
    report.row(plain .. ", FFI", t_trans, "classic binding", c_trans)
    report.row(name .. ", FFI", t_turn, "classic binding", c_turn)
  else
    report.row(plain, t_trans)
  end
  report.row(name, t_turn, "the same pairs not turning", t_trans)
  report.note(("%dD %s: turning / not turning %.1fx; hits %.1f%% turning, %.1f%% not;"
    .. " \"limit\" %d of %d"):format(dim, what, t_turn / t_trans, 100 * hits_t / POOL,
    100 * hits / POOL, limits, POOL))
end

-- The racing example's track (examples/racing.lua): two octagons of thin
-- barriers; a car cast from random places on it.
local function cast_rows()
  local w = obb.world2()
  local function barrier(px, py, qx, qy)
    local dx, dy = qx - px, qy - py
    local len = math.sqrt(dx * dx + dy * dy)
    w:add({}, (px + qx) / 2, (py + qy) / 2, len / 2 + 0.05, 0.05, math.atan2 and math.atan2(dy, dx)
      or math.atan(dy, dx))
  end
  for _, rad in ipairs({ 30, 60 }) do
    for k = 0, 7 do
      local a0, a1 = (k + 0.5) * PI / 4, (k + 1.5) * PI / 4
      barrier(rad * math.cos(a0), rad * math.sin(a0), rad * math.cos(a1), rad * math.sin(a1))
    end
  end
  local r = rng(99)
  local cars, dx, dy, turn = {}, {}, {}, {}
  for k = 1, POOL do
    local a, rad, th = uniform(r, -PI, PI), uniform(r, 31, 54), uniform(r, -PI, PI)
    local speed = uniform(r, 2, 8)
    cars[k] = obb.new2(rad * math.cos(a), rad * math.sin(a), 2, 1, th)
    dx[k], dy[k], turn[k] = speed * math.cos(th), speed * math.sin(th), uniform(r, -0.15, 0.15)
  end
  local out = {}
  local n_turn, n_trans = 0, 0
  for k = 1, POOL do
    if w:cast_turning(cars[k], dx[k], dy[k], turn[k], out) > 0 then n_turn = n_turn + 1 end
    if w:cast(cars[k], dx[k], dy[k], out) > 0 then n_trans = n_trans + 1 end
  end
  -- two loops, not one with a branch: LuaJIT traces each on its own
  local function loop_turning(n)
    local k = 0
    for _ = 1, n do
      k = k + 1
      if k > POOL then k = 1 end
      w:cast_turning(cars[k], dx[k], dy[k], turn[k], out)
    end
  end
  local function loop_cast(n)
    local k = 0
    for _ = 1, n do
      k = k + 1
      if k > POOL then k = 1 end
      w:cast(cars[k], dx[k], dy[k], out)
    end
  end
  local t_turn = report.time(loop_turning, N, RUNS)
  local t_trans = report.time(loop_cast, N, RUNS)
  report.row("world:cast, racing track", t_trans)
  report.row("world:cast_turning, racing track", t_turn, "world:cast, not turning", t_trans)
  report.note(("racing track (16 thin barriers): a barrier met by %.1f%% of the casts turning,"
    .. " %.1f%% not"):format(
    100 * n_turn / POOL, 100 * n_trans / POOL))
  w:close()
end

function M.run()
  report.section(("sweeps from Lua: %d calls over %d cases, median of %d runs%s"):format(N, POOL, RUNS,
    classic and " (FFI fast path)" or ""))
  sweep_rows(2, false, 3)
  sweep_rows(2, true, 5)
  sweep_rows(3, false, 7)
  sweep_rows(3, true, 9)
  cast_rows()
end

return M
