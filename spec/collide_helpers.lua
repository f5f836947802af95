-- spec/collide_helpers.lua: what the penetration, contact and sweep specs
-- share. Independent geometry: every overlap is measured by projecting the
-- boxes' corners (not by the projection-radius form the C code uses).
local h = require "spec.helpers"

local M = {}
local unpack = h.unpack

M.dim = function(b) return select("#", b:center()) end

local dot = h.dot
M.dot = dot

local function norm(v)
  local l = math.sqrt(dot(v, v))
  local r = {}
  for i = 1, #v do r[i] = v[i] / l end
  return r, l
end
M.norm = norm

local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3],
           a[1] * b[2] - a[2] * b[1] }
end

-- The box's axes as a list of vectors.
function M.axes(b)
  local v, d = { b:axes() }, M.dim(b)
  local r = {}
  for i = 0, d - 1 do
    r[#r + 1] = {}
    for k = 1, d do r[#r][k] = v[i * d + k] end
  end
  return r
end

function M.corners(b)
  local v, d = { b:corners() }, M.dim(b)
  local r = {}
  for i = 0, #v / d - 1 do
    r[#r + 1] = {}
    for k = 1, d do r[#r][k] = v[i * d + k] end
  end
  return r
end

-- min and max of the box's corners projected on L.
function M.project(b, L)
  local lo, hi = math.huge, -math.huge
  for _, p in ipairs(M.corners(b)) do
    local s = dot(p, L)
    if s < lo then lo = s end
    if s > hi then hi = s end
  end
  return lo, hi
end

-- How far a must move along -L or +L (whichever is shorter) to leave b's
-- projection on unit L: negative when already apart on L.
function M.overlap(a, b, L)
  local alo, ahi = M.project(a, L)
  local blo, bhi = M.project(b, L)
  return math.min(ahi - blo, bhi - alo)
end

-- Candidate axes: face normals of both, and in 3D the edge cross products
-- that are not (nearly) degenerate.
function M.candidates(a, b)
  local r = {}
  for _, u in ipairs(M.axes(a)) do r[#r + 1] = u end
  for _, u in ipairs(M.axes(b)) do r[#r + 1] = u end
  if M.dim(a) == 3 then
    for _, u in ipairs(M.axes(a)) do
      for _, v in ipairs(M.axes(b)) do
        local c, l = norm(cross(u, v))
        if l > 1e-9 then r[#r + 1] = c end
      end
    end
  end
  return r
end

-- Least and second least overlap over the candidate axes (the exact
-- penetration depth, and how close the runner-up is).
function M.sat_depth(a, b)
  local best, second = math.huge, math.huge
  for _, L in ipairs(M.candidates(a, b)) do
    local o = M.overlap(a, b, L)
    if o < best then best, second = o, best
    elseif o < second then second = o end
  end
  return best, second
end

-- Size of a configuration: sum of extents and center distances.
function M.scale(a, b)
  local s = 0
  for _, v in ipairs({ a:half_extents() }) do s = s + v end
  for _, v in ipairs({ b:half_extents() }) do s = s + v end
  local ca, cb = { a:center() }, { b:center() }
  for i = 1, #ca do s = s + math.abs(cb[i] - ca[i]) end
  return s
end

-- A copy of b moved by vector v scaled by t.
function M.moved(b, v, t)
  local c = b:clone()
  local d = {}
  for i = 1, #v do d[i] = v[i] * t end
  return c:translate(unpack(d))
end

-- A copy of b with every half extent grown by eps.
function M.grown(b, eps)
  local e = { b:half_extents() }
  for i = 1, #e do e[i] = e[i] + eps end
  return b:clone():set_half_extents(unpack(e))
end

-- ---- random boxes -------------------------------------------------------

function M.random2(r, spread, offset)
  offset = offset or 0
  return require("obb").new2(offset + r.range(-spread, spread),
    offset + r.range(-spread, spread), r.range(0.05, 2), r.range(0.05, 2),
    r.range(-math.pi, math.pi))
end

function M.random3(r, spread, offset)
  offset = offset or 0
  local qx, qy, qz, qw = r.quat()
  return require("obb").new3(offset + r.range(-spread, spread),
    offset + r.range(-spread, spread), offset + r.range(-spread, spread),
    r.range(0.05, 2), r.range(0.05, 2), r.range(0.05, 2), qx, qy, qz, qw)
end

-- Boxes on a half-unit grid with extents from {0, 0.5, 1, 1.5} and a few
-- exact turns: many pairs touch exactly, tie between axes, have parallel
-- edges or are degenerate (points, segments, flat boxes).
local EXTENTS = { 0, 0.5, 1, 1.5 }

function M.grid2(r)
  local turns = { 0, math.pi / 2, math.pi, math.pi / 4 }
  return require("obb").new2(r.int(-4, 4) / 2, r.int(-4, 4) / 2,
    EXTENTS[r.int(1, 4)], EXTENTS[r.int(1, 4)], turns[r.int(1, 4)])
end

function M.grid3(r)
  local s = math.sqrt(0.5)
  local turns = { { 0, 0, 0, 1 }, { 0, 0, s, s }, { s, 0, 0, s },
    { 0, 0, math.sin(math.pi / 8), math.cos(math.pi / 8) } }
  local q = turns[r.int(1, 4)]
  return require("obb").new3(r.int(-4, 4) / 2, r.int(-4, 4) / 2,
    r.int(-4, 4) / 2, EXTENTS[r.int(1, 4)], EXTENTS[r.int(1, 4)],
    EXTENTS[r.int(1, 4)], q[1], q[2], q[3], q[4])
end

-- ---- rigid motions ------------------------------------------------------

-- A random rotation and translation: the matrix arguments for transform
-- and a function turning a vector (normals) by the rotation alone.
function M.rigid2(r)
  local t = r.range(-math.pi, math.pi)
  local c, s = math.cos(t), math.sin(t)
  local m = { c, s, -s, c, r.range(-50, 50), r.range(-50, 50) }
  return m, function(v) return { c * v[1] - s * v[2], s * v[1] + c * v[2] } end
end

function M.rigid3(r)
  local ax = h.quat_axes(r.quat()) -- columns of the rotation matrix
  local m = {}
  for row = 1, 3 do
    for col = 1, 3 do m[#m + 1] = ax[col][row] end
    m[#m + 1] = r.range(-50, 50)
  end
  return m, function(v)
    local o = {}
    for row = 1, 3 do
      o[row] = ax[1][row] * v[1] + ax[2][row] * v[2] + ax[3][row] * v[3]
    end
    return o
  end
end

return M
