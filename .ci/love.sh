#!/bin/sh
# The LÖVE examples headless: `make love-test` or `sh .ci/love.sh`.
# Installs LÖVE 11 (Debian's `love`, on LuaJIT), Xvfb and software OpenGL
# when missing (.ci/love-deps.sh), builds obb for LuaJIT, and runs under
# xvfb-run, each for a fixed number of frames:
#   * the demo (examples/love/);
#   * the platformer (examples/love-platformer/), which plays its input
#     script and checks itself each step (game.lua: the goal, every coin,
#     every moving solid ridden, never inside a solid, no snag on flat
#     tiles, never crushed) and exits 1 on a failure;
#   * the racing game (examples/love-racing/), four cars on the autopilot
#     moved by world:move's turning form, which checks itself each step
#     (game.lua: no car inside a barrier or another car, no barrier's line
#     crossed, never off the track; every car completes a lap) and exits 1
#     on a failure.
# For each it checks that it exited with status 0, took the FFI path
# (unless OBB_NO_FFI is set), and that its screenshot is a PNG with boxes
# in it: several colours, none of them covering nearly the whole picture
# (a blank or one-colour frame fails).
#   LOVE_FRAMES (default 120), LOVE_PNG (default build/luajit/love.png);
#   LOVE_PLATFORMER_FRAMES (default 1400, game.lua's CI_FRAMES: fewer do not
#   reach the goal), LOVE_PLATFORMER_PNG (default build/luajit/love-platformer.png);
#   LOVE_RACING_FRAMES (default 900, game.lua's CI_FRAMES: fewer do not
#   complete every car's first lap), LOVE_RACING_PNG (default
#   build/luajit/love-racing.png)
set -eu
cd "$(dirname "$0")/.."
demo_frames=${LOVE_FRAMES:-120}
demo_png=${LOVE_PNG:-build/luajit/love.png}
plat_frames=${LOVE_PLATFORMER_FRAMES:-1400}
plat_png=${LOVE_PLATFORMER_PNG:-build/luajit/love-platformer.png}
race_frames=${LOVE_RACING_FRAMES:-900}
race_png=${LOVE_RACING_PNG:-build/luajit/love-racing.png}

sh .ci/love-deps.sh
make LUA=luajit
top=$(pwd)

# run_love NAME DIR FRAMES PNG: runs the game in DIR headless for FRAMES
# frames, its last frame written to PNG; fails on a non-zero exit status
# or, unless OBB_NO_FFI says otherwise, when obb did not take the FFI path.
run_love() {
  r_name=$1 r_dir=$2 r_frames=$3 r_png=$4
  mkdir -p "$(dirname "$r_png")"
  rm -f "$r_png"
  case $r_png in /*) shot=$r_png ;; *) shot=$top/$r_png ;; esac
  status=0
  log=$(mktemp)
  LUA_CPATH="$top/build/luajit/?.so;;" LUA_PATH="$top/lua/?.lua;;" \
    timeout 300 xvfb-run -a -s "-screen 0 1024x768x24" \
    love "$r_dir" --frames "$r_frames" --screenshot "$shot" >"$log" 2>&1 || status=$?
  cat "$log"
  if [ "$status" != 0 ]; then
    echo "love-test: the $r_name exited with status $status" >&2
    rm -f "$log"
    exit 1
  fi
  # LÖVE's LuaJIT takes the FFI fast path unless OBB_NO_FFI says otherwise
  case ${OBB_NO_FFI:-} in
    ""|0) grep -q "obb path: ffi" "$log" || { echo "love-test: obb did not take the FFI path ($r_name)" >&2; rm -f "$log"; exit 1; } ;;
  esac
  rm -f "$log"
}

# check_png PNG: the screenshot is not blank.
check_png() {
  python3 - "$1" <<'PY'
# Decodes the PNG (8-bit RGB, RGBA or palette, not interlaced: what LÖVE
# writes; a frame of few colours comes as a palette) and counts colours.
import struct, sys, zlib
path = sys.argv[1]
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, palette = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"PLTE":
        palette = [body[i:i + 3] for i in range(0, len(body), 3)]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 3, 6) and interlace == 0, "unexpected PNG format"
assert ctype != 3 or palette, "a palette PNG without its palette"
bpp = {2: 3, 3: 1, 6: 4}[ctype]
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
counts = {}
for row in rows:
    for x in range(0, stride, bpp):
        px = palette[row[x]] if ctype == 3 else row[x:x + 3]
        counts[px] = counts.get(px, 0) + 1
top = max(counts.values()) / float(w * h)
print("love-test: %s, %dx%d, %d colours, the commonest covers %.0f%%" % (path, w, h, len(counts), 100 * top))
if len(counts) < 8 or top > 0.97:
    sys.exit("love-test: the screenshot looks blank")
PY
}

run_love demo examples/love "$demo_frames" "$demo_png"
check_png "$demo_png"
run_love platformer examples/love-platformer "$plat_frames" "$plat_png"
check_png "$plat_png"
run_love "racing game" examples/love-racing "$race_frames" "$race_png"
check_png "$race_png"
echo "love-test: ok"
