-- picking.lua: clicking on rotated 3D crates, with a ray from the camera.
--
-- A pinhole camera looks at a few turned crates. A click at pixel (px, py)
-- becomes a ray from the eye through that pixel; box:raycast gives each
-- crate's hit distance t and the face normal, and the nearest hit is the
-- picked crate. The same question asked of a 3D world (world:raycast,
-- nearest first) must give the same crate. The script checks itself: a
-- click on each crate's projected center picks that crate or one in front
-- of it, the hit point lies on the picked crate's surface, and a click on
-- the sky picks nothing.
--
--   lua examples/picking.lua [picture.svg]    (obb on the Lua paths;
--   make examples runs it)

local obb = require "obb"

local W, H, FOCAL = 640, 480, 500 -- image size and focal length in pixels
local eye = { 0, 6, 16 }

-- The camera looks from eye toward the origin; right, up, forward axes.
local function normalize(x, y, z)
  local l = math.sqrt(x * x + y * y + z * z)
  return x / l, y / l, z / l
end
local fx, fy, fz = normalize(-eye[1], -eye[2], -eye[3])
local rx, ry, rz = normalize(-fz, 0, fx)                 -- forward x world up
local ux, uy, uz = ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx

-- pixel -> unit ray direction; world point -> pixel
local function ray_through(px, py)
  local sx, sy = (px - W / 2) / FOCAL, (H / 2 - py) / FOCAL
  return normalize(fx + sx * rx + sy * ux, fy + sx * ry + sy * uy, fz + sx * rz + sy * uz)
end
local function to_pixel(x, y, z)
  local dx, dy, dz = x - eye[1], y - eye[2], z - eye[3]
  local depth = dx * fx + dy * fy + dz * fz
  return W / 2 + FOCAL * (dx * rx + dy * ry + dz * rz) / depth,
         H / 2 - FOCAL * (dx * ux + dy * uy + dz * uz) / depth
end

-- a quaternion for a turn of `angle` radians about an axis
local function quat(ax, ay, az, angle)
  ax, ay, az = normalize(ax, ay, az)
  local s = math.sin(angle / 2)
  return ax * s, ay * s, az * s, math.cos(angle / 2)
end

local crates = {
  { name = "red crate", box = obb.new3(-4, 1, 0, 1.5, 1, 1, quat(0, 1, 0, 0.6)) },
  { name = "green crate", box = obb.new3(0, 1.5, -3, 1, 1.5, 1, quat(1, 1, 0, 0.9)) },
  { name = "blue crate", box = obb.new3(4, 0.8, 1, 1.2, 0.8, 2, quat(0, 1, 1, -0.5)) },
  { name = "small crate", box = obb.new3(0.3, 0.5, 3, 0.5, 0.5, 0.5, quat(1, 0, 1, 0.3)) },
}
local world = obb.world3()
for _, c in ipairs(crates) do world:add(c, c.box) end

-- The nearest crate hit by the click, by testing every crate.
local function pick(px, py)
  local dx, dy, dz = ray_through(px, py)
  local best, best_t, bn
  for _, c in ipairs(crates) do
    local t, nx, ny, nz = c.box:raycast(eye[1], eye[2], eye[3], dx, dy, dz)
    if t and (not best_t or t < best_t) then best, best_t, bn = c, t, { nx, ny, nz } end
  end
  return best, best_t, bn, { dx, dy, dz }
end

local out = {}
local clicks = {}
for _, c in ipairs(crates) do
  local px, py = to_pixel(c.box:center())
  clicks[#clicks + 1] = { px, py, c }
end
clicks[#clicks + 1] = { 20, 20 } -- the sky

for _, click in ipairs(clicks) do
  local px, py, aimed = click[1], click[2], click[3]
  local c, t, n, d = pick(px, py)
  local count = world:raycast(eye[1], eye[2], eye[3], d[1], d[2], d[3], nil, out)
  if not c then
    print(string.format("click (%3.0f, %3.0f): nothing", px, py))
    assert(aimed == nil and count == 0, "a click on a crate picked nothing")
  else
    local hx, hy, hz = eye[1] + t * d[1], eye[2] + t * d[2], eye[3] + t * d[3]
    print(string.format("click (%3.0f, %3.0f): %s at distance %.3f, point (%.2f, %.2f, %.2f), "
                        .. "normal (%.2f, %.2f, %.2f)", px, py, c.name, t, hx, hy, hz, n[1], n[2], n[3]))
    -- the world agrees: its nearest hit is the same crate at the same t
    assert(count > 0 and out[1] == c and math.abs(out[2] - t) <= 1e-12 * t, "world:raycast disagrees")
    -- the hit point is on the crate's surface, and the normal faces the eye
    assert(math.abs(c.box:signed_distance(hx, hy, hz)) < 1e-9, "hit point is not on the surface")
    assert(n[1] * d[1] + n[2] * d[2] + n[3] * d[3] < 0, "normal does not face the ray")
    -- aiming at a crate's center picks it, or a crate in front of it
    if c ~= aimed then
      local at = aimed.box:raycast(eye[1], eye[2], eye[3], d[1], d[2], d[3])
      assert(at and t <= at, "picked a crate behind the one aimed at")
      print("  (" .. aimed.name .. " is behind it)")
    end
  end
end
print("picking: ok")

if arg and arg[1] then
  local svg = require "obb.svg"
  -- seen from the side, so the rays from the eye show
  local pic = svg.new { width = 640, camera = { yaw = 1.1, pitch = 0.45 },
                        title = "picking: rays from the eye, nearest hits marked" }
  for _, c in ipairs(crates) do pic:box(c.box, { label = c.name }) end
  pic:point3(eye[1], eye[2], eye[3], { radius = 5, fill = "#000000" })
  pic:text3(eye[1], eye[2] + 0.4, eye[3], "eye")
  for _, click in ipairs(clicks) do
    local c, t, _, d = pick(click[1], click[2])
    pic:ray3(eye[1], eye[2], eye[3], d[1], d[2], d[3], c and t or 22, c and t or nil)
  end
  assert(pic:write(arg[1]))
end
world:close()
