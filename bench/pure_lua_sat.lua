-- bench/pure_lua_sat.lua: the pure-Lua baseline for the pair benchmark.
--
-- A plain separating-axis test as a game script would write it, with boxes
-- as Lua tables: the same algorithm the C core uses (projection radii in one
-- box's frame, Ericson's TestOBBOBB in 3D with an epsilon on |R|), so the
-- benchmark compares the cost of the language and the call, not a better
-- algorithm against a worse one. Touching boxes intersect, as in obb.
local M = {}

local abs = math.abs

-- A 2D box: center (x, y), unit axis (ux, uy), half extents (hx, hy).
function M.new2(x, y, hx, hy, angle)
  return { x = x, y = y, ux = math.cos(angle), uy = math.sin(angle),
           hx = hx, hy = hy }
end

function M.intersects2(a, b)
  local dx, dy = b.x - a.x, b.y - a.y
  local aux, auy, bux, buy = a.ux, a.uy, b.ux, b.uy
  local ahx, ahy, bhx, bhy = a.hx, a.hy, b.hx, b.hy
  local c = abs(aux * bux + auy * buy)
  local s = abs(aux * buy - auy * bux)
  if abs(dx * aux + dy * auy) > ahx + bhx * c + bhy * s then return false end
  if abs(dy * aux - dx * auy) > ahy + bhx * s + bhy * c then return false end
  if abs(dx * bux + dy * buy) > bhx + ahx * c + ahy * s then return false end
  if abs(dy * bux - dx * buy) > bhy + ahx * s + ahy * c then return false end
  return true
end

-- A 3D box: center c = {x, y, z}, axes u = {u1, u2, u3} (unit rows),
-- half extents e = {ex, ey, ez}.
function M.new3(c, e, u)
  return { c = { c[1], c[2], c[3] }, e = { e[1], e[2], e[3] },
           u = { { u[1][1], u[1][2], u[1][3] }, { u[2][1], u[2][2], u[2][3] },
                 { u[3][1], u[3][2], u[3][3] } } }
end

local EPS = 1e-12
-- Scratch tables reused by every call, so the baseline makes no garbage
-- (a fresh table per test would make it look slower than careful Lua is).
local R, AR, t = { {}, {}, {} }, { {}, {}, {} }, {}

-- Ericson, Real-Time Collision Detection, 4.4.1, indices from 1.
function M.intersects3(a, b)
  local ac, au, ae, bc, bu, be = a.c, a.u, a.e, b.c, b.u, b.e
  for i = 1, 3 do
    local ai = au[i]
    for j = 1, 3 do
      local bj = bu[j]
      local r = ai[1] * bj[1] + ai[2] * bj[2] + ai[3] * bj[3]
      R[i][j] = r
      AR[i][j] = abs(r) + EPS
    end
  end
  local dx, dy, dz = bc[1] - ac[1], bc[2] - ac[2], bc[3] - ac[3]
  for i = 1, 3 do
    local ai = au[i]
    t[i] = dx * ai[1] + dy * ai[2] + dz * ai[3]
  end
  for i = 1, 3 do
    local ra = ae[i]
    local rb = be[1] * AR[i][1] + be[2] * AR[i][2] + be[3] * AR[i][3]
    if abs(t[i]) > ra + rb then return false end
  end
  for j = 1, 3 do
    local ra = ae[1] * AR[1][j] + ae[2] * AR[2][j] + ae[3] * AR[3][j]
    local rb = be[j]
    if abs(t[1] * R[1][j] + t[2] * R[2][j] + t[3] * R[3][j]) > ra + rb then
      return false
    end
  end
  for i = 1, 3 do
    local i1, i2 = i % 3 + 1, (i + 1) % 3 + 1
    for j = 1, 3 do
      local j1, j2 = j % 3 + 1, (j + 1) % 3 + 1
      local ra = ae[i1] * AR[i2][j] + ae[i2] * AR[i1][j]
      local rb = be[j1] * AR[i][j2] + be[j2] * AR[i][j1]
      if abs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) > ra + rb then
        return false
      end
    end
  end
  return true
end

return M
