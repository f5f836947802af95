-- spec/query_helpers.lua: what the query specs (raycast, distance, prims,
-- merge) share on top of spec/helpers.lua: random boxes and rigid motions.
--
-- Tolerances:
--   QTOL   relative tolerance for query results that are exact up to
--          rounding (distances, ray parameters, closest points), relative
--          to the configuration's size; the issue asks for 1e-9.
local H = require "spec.helpers"

local M = {}

M.QTOL = 1e-9

-- A random half extent in [0.05, 3], or now and then 0 (segments and
-- points are boxes too).
local function rand_ext(r)
  if r.uniform() < 0.1 then return 0 end
  return r.range(0.05, 3)
end

-- A random 2D box description: center in [-span, span], half extents from
-- rand_ext.
function M.rand_desc2(r, span)
  span = span or 10
  return H.desc2(r.range(-span, span), r.range(-span, span), rand_ext(r),
    rand_ext(r), r.range(-math.pi, math.pi))
end

function M.rand_desc3(r, span)
  span = span or 10
  local q = { r.quat() }
  return H.desc3({ r.range(-span, span), r.range(-span, span),
    r.range(-span, span) }, { rand_ext(r), rand_ext(r), rand_ext(r) }, q)
end

-- A random point of box d given local coordinates in [-f, f] of each
-- extent (f = 1: anywhere in the box; f < 1: strictly inside).
function M.point_in(r, d, f)
  local p = {}
  for i = 1, #d.c do p[i] = d.c[i] end
  for j = 1, #d.e do
    local s = r.range(-f, f) * d.e[j]
    for i = 1, #d.c do p[i] = p[i] + s * d.u[j][i] end
  end
  return p
end

-- A random point on the boundary of box d (one coordinate at +-e).
function M.point_on(r, d)
  local n = #d.e
  local l = {}
  for j = 1, n do l[j] = r.range(-1, 1) * d.e[j] end
  local k = r.int(1, n)
  l[k] = (r.uniform() < 0.5 and -1 or 1) * d.e[k]
  local p = {}
  for i = 1, n do
    p[i] = d.c[i]
    for j = 1, n do p[i] = p[i] + l[j] * d.u[j][i] end
  end
  return p
end

function M.dist(p, q)
  local s = 0
  for i = 1, #p do s = s + (p[i] - q[i]) ^ 2 end
  return math.sqrt(s)
end

-- A random rigid motion: 2D affine (a, b, c, d, e, f) as a rotation by
-- angle plus a translation; 3D row-major 3x4 from a random quaternion.
function M.rand_motion2(r, span)
  span = span or 100
  local a = r.range(-math.pi, math.pi)
  local c, s = math.cos(a), math.sin(a)
  return { c, s, -s, c, r.range(-span, span), r.range(-span, span) }
end

function M.rand_motion3(r, span)
  span = span or 100
  local u = H.quat_axes(r.quat()) -- u[j] is column j of the matrix
  return {
    u[1][1], u[2][1], u[3][1], r.range(-span, span),
    u[1][2], u[2][2], u[3][2], r.range(-span, span),
    u[1][3], u[2][3], u[3][3], r.range(-span, span),
  }
end

-- The linear part of a motion applied to a vector.
function M.rotate2(m, v) return { m[1] * v[1] + m[3] * v[2], m[2] * v[1] + m[4] * v[2] } end

function M.rotate3(m, v)
  return {
    m[1] * v[1] + m[2] * v[2] + m[3] * v[3],
    m[5] * v[1] + m[6] * v[2] + m[7] * v[3],
    m[9] * v[1] + m[10] * v[2] + m[11] * v[3],
  }
end

-- A box built from a description, moved by m (a copy, through transform).
function M.moved(obb, d, m)
  return H.box_of(obb, d):transform(m)
end

-- A cheap assertion for loops over thousands of cases (luassert's
-- assert.is_true costs tens of microseconds a call).
function M.check(cond, msg)
  if not cond then error(msg or "check failed", 2) end
end

-- |a - b| <= tol * scale.
function M.close(a, b, scale, tol)
  return math.abs(a - b) <= (tol or M.QTOL) * math.max(scale or 1, 1e-300)
end

-- Size of one box description (largest of |center| and extents, >= 1).
function M.size(d)
  local s = 1
  for i = 1, #d.c do s = math.max(s, math.abs(d.c[i])) end
  for i = 1, #d.e do s = math.max(s, d.e[i]) end
  return s
end

return M
