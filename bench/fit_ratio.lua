-- bench/fit_ratio.lua: how much tighter the tight fits are than the plain
-- covariance fits, on several kinds of point sets.
--
--   make fitratio        (or: LUA_CPATH='./build/lua5.4/?.so;;' lua5.4 bench/fit_ratio.lua)
--
-- For each kind of set, SETS random sets (a fixed seed, so every run prints
-- the same table) are fitted both ways; the table gives the ratio
-- tight / covariance of the volume (3D) or area (2D): mean, smallest and
-- largest over the sets. A ratio below 1 means the tight box is smaller.
-- The last lines time one fit of 100,000 points each way (informative only).
local obb = require "obb"

local SETS = 20

-- Park-Miller generator: the same sequence on every Lua version.
local seed = 12345
local function uniform()
  seed = (seed * 16807) % 2147483647
  return (seed - 1) / 2147483646
end
local function range(a, b) return a + (b - a) * uniform() end
local function normal()
  local u = math.max(uniform(), 1e-300)
  return math.sqrt(-2 * math.log(u)) * math.cos(2 * math.pi * uniform())
end

-- A random rotation (rows of a matrix) from a random unit quaternion.
local function rotation3()
  local x, y, z, w, n
  repeat
    x, y, z, w = normal(), normal(), normal(), normal()
    n = math.sqrt(x * x + y * y + z * z + w * w)
  until n > 1e-6
  x, y, z, w = x / n, y / n, z / n, w / n
  return {
    { 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w) },
    { 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w) },
    { 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y) },
  }
end

-- Appends point (x, y, z), turned by R and moved by (10, -5, 3).
local function put3(p, R, x, y, z)
  for i = 1, 3 do
    p[#p + 1] = R[i][1] * x + R[i][2] * y + R[i][3] * z + ({ 10, -5, 3 })[i]
  end
end

local function unit3()
  local x, y, z, n
  repeat
    x, y, z = normal(), normal(), normal()
    n = math.sqrt(x * x + y * y + z * z)
  until n > 1e-9
  return x / n, y / n, z / n
end

local kinds3 = {
  { "uniform cube, 1000 points", function(p, R)
    for _ = 1, 1000 do put3(p, R, range(-1, 1), range(-1, 1), range(-1, 1)) end
  end },
  { "elongated cloud 10:3:1 (gaussian), 1000 points", function(p, R)
    for _ = 1, 1000 do put3(p, R, 10 * normal(), 3 * normal(), normal()) end
  end },
  { "box 4:2:1, uniform inside, 1000 points", function(p, R)
    for _ = 1, 1000 do put3(p, R, range(-4, 4), range(-2, 2), range(-1, 1)) end
  end },
  { "sphere surface, 1000 points", function(p, R)
    for _ = 1, 1000 do put3(p, R, unit3()) end
  end },
  { "mesh-like: jittered 16x8 UV blob 3:1.5:1", function(p, R)
    for i = 0, 7 do
      local th = math.pi * (i + 0.5) / 8
      for j = 0, 15 do
        local ph = 2 * math.pi * j / 16
        local j1 = 1 + 0.05 * normal()
        put3(p, R, 3 * math.sin(th) * math.cos(ph) * j1,
          1.5 * math.sin(th) * math.sin(ph) * j1, math.cos(th) * j1)
      end
    end
  end },
  { "mesh-like: an L of two boxes' corners", function(p, R)
    for _, b in ipairs({ { 0, 0, 0, 4, 1, 1 }, { 0, 0, 0, 1, 3, 1 } }) do
      for k = 0, 7 do
        put3(p, R, k % 2 == 0 and b[1] or b[4], math.floor(k / 2) % 2 == 0 and b[2] or b[5],
          k < 4 and b[3] or b[6])
      end
    end
  end },
  { "a turned box's 8 corners (4:2:1)", function(p, R)
    for k = 0, 7 do
      put3(p, R, k % 2 == 0 and -4 or 4, math.floor(k / 2) % 2 == 0 and -2 or 2,
        k < 4 and -1 or 1)
    end
  end },
  { "a turned box's corners + 100 points near one corner", function(p, R)
    for k = 0, 7 do
      put3(p, R, k % 2 == 0 and -4 or 4, math.floor(k / 2) % 2 == 0 and -2 or 2,
        k < 4 and -1 or 1)
    end
    for _ = 1, 100 do put3(p, R, range(3, 4), range(1, 2), range(0, 1)) end
  end },
}

local kinds2 = {
  { "uniform square, 1000 points", function(p, c, s)
    for _ = 1, 1000 do
      local x, y = range(-1, 1), range(-1, 1)
      p[#p + 1] = c * x - s * y; p[#p + 1] = s * x + c * y
    end
  end },
  { "elongated cloud 10:1 (gaussian), 1000 points", function(p, c, s)
    for _ = 1, 1000 do
      local x, y = 10 * normal(), normal()
      p[#p + 1] = c * x - s * y; p[#p + 1] = s * x + c * y
    end
  end },
  { "circle, 1000 points", function(p)
    for _ = 1, 1000 do
      local a = range(0, 2 * math.pi)
      p[#p + 1] = math.cos(a); p[#p + 1] = math.sin(a)
    end
  end },
  { "right triangle 4:3 + 50 points inside", function(p, c, s)
    local v = { 0, 0, 4, 0, 0, 3 }
    for _ = 1, 50 do
      local a, b = uniform(), uniform()
      if a + b > 1 then a, b = 1 - a, 1 - b end
      v[#v + 1] = 4 * a; v[#v + 1] = 3 * b
    end
    for i = 1, #v, 2 do
      p[#p + 1] = c * v[i] - s * v[i + 1]; p[#p + 1] = s * v[i] + c * v[i + 1]
    end
  end },
}

local function volume(b)
  local x, y, z = b:half_extents()
  if z then return 8 * x * y * z end
  return 4 * x * y
end

local function row(name, ratios)
  local sum, lo, hi = 0, math.huge, -math.huge
  for _, r in ipairs(ratios) do
    sum = sum + r
    lo = math.min(lo, r)
    hi = math.max(hi, r)
  end
  print(string.format("| %-52s | %5.3f | %5.3f | %5.3f |", name, sum / #ratios, lo, hi))
end

print(string.format("3D: volume of obb.fit3(points) / obb.fit3(points, \"covariance\"), %d sets each", SETS))
print("")
print("| point set                                            |  mean |   min |   max |")
print("|------------------------------------------------------|-------|-------|-------|")
for _, k in ipairs(kinds3) do
  local ratios = {}
  for i = 1, SETS do
    local p = {}
    k[2](p, rotation3())
    ratios[i] = volume(obb.fit3(p)) / volume(obb.fit3(p, "covariance"))
  end
  row(k[1], ratios)
end
print("")
print(string.format("2D: area of obb.fit2(points) / obb.fit2(points, \"covariance\"), %d sets each", SETS))
print("")
print("| point set                                            |  mean |   min |   max |")
print("|------------------------------------------------------|-------|-------|-------|")
for _, k in ipairs(kinds2) do
  local ratios = {}
  for i = 1, SETS do
    local p, a = {}, range(-math.pi, math.pi)
    k[2](p, math.cos(a), math.sin(a))
    ratios[i] = volume(obb.fit2(p)) / volume(obb.fit2(p, "covariance"))
  end
  row(k[1], ratios)
end

print("")
local big3, big2 = {}, {}
local R = rotation3()
for _ = 1, 100000 do put3(big3, R, unit3()) end
for _ = 1, 200000 do big2[#big2 + 1] = normal() end
for _, c in ipairs({ { "fit3", big3, "sphere surface" }, { "fit2", big2, "gaussian" } }) do
  for _, m in ipairs({ "tight", "covariance" }) do
    local t0 = os.clock()
    obb[c[1]](c[2], m)
    print(string.format("%s, 100000 points (%s), %-10s: %.3f s", c[1], c[3], m, os.clock() - t0))
  end
end
