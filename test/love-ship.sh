#!/bin/sh
# A shipped LÖVE game loads obb, headless: `make love-ship-test`
# (mk/love-ship.mk) or `sh test/love-ship.sh`. docs/love.md, "Shipping a
# game with obb".
#
# Packs test/love-ship/ (main.lua loads obb with obb.loader) with obb's Lua
# files in obb/, exactly the files docs/love.md's table of "The files a
# game ships" lists (spec/ship_spec.lua holds that table to lua/obb/), and
# runs it under xvfb-run, each time from a folder that is not the game's
# (the case a plain require fails in):
#   1. a .love with the module inside, at lib/linux-x86_64/obb.so:
#      `love game.love`; obb comes from a copy in the save directory;
#      run twice, and the second run must not write the copy again;
#   2. a fused executable (`cat love game.love > obb-ship`) with obb.so
#      beside it, and no module inside;
#   3. the same fused game with the module inside only;
#   4. the .love without obb/jit_world.lua (a game packed from an
#      incomplete list): obb must load all the same, on the classic
#      binding, and obb.jit.status must say that jit_world was not found.
# Each run must exit with status 0 (the game checks a world's answers and
# that obb took the FFI path, unless OBB_NO_FFI is set, or for run 4 the
# classic one and why), print where obb
# came from (the expected place), and say that a plain require did not
# find obb. Installs love, xvfb and Mesa's software OpenGL when missing
# (.ci/love-deps.sh), builds obb for LuaJIT.
#   LOVE_SHIP_DIR  where the games and their save directories go
#                  (default build/luajit/love-ship, emptied first)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
sh .ci/love-deps.sh
make -s LUA=luajit
case $(uname -m) in
  x86_64) platform=linux-x86_64 ;;
  aarch64 | arm64) platform=linux-arm64 ;;
  *) platform=linux-$(uname -m) ;;
esac

work=${LOVE_SHIP_DIR:-build/luajit/love-ship}
case $work in /*) ;; *) work=$top/$work ;; esac
rm -rf "$work"
mkdir -p "$work/stage/obb" "$work/elsewhere" "$work/fused" "$work/fused-lib"
# LÖVE keeps save directories under $XDG_DATA_HOME on Linux: a fresh one
export XDG_DATA_HOME="$work/xdg"

# The fused game needs LÖVE's real executable: LÖVE finds a fused game by
# opening its own executable as a zip (the archive appended to it), so a
# shell-script wrapper would not do. Debian's /usr/bin/love is a symlink
# (alternatives) to the ELF /usr/bin/love-11.4.
love_bin=$(readlink -f "$(command -v love)")
if [ "$(head -c 4 "$love_bin" | od -An -c | tr -d ' ')" != '177ELF' ]; then
  echo "love-ship: $love_bin is not an ELF executable; cannot fuse a game with it" >&2
  exit 1
fi

# The game: test/love-ship/ and obb's Lua files, as docs/love.md lists
# them (its table's rows "| `obb/NAME.lua` | ..."); the .love is a zip of it.
cp test/love-ship/*.lua "$work/stage/"
files=$(sed -n 's/^| `obb\/\([a-z0-9_]*\.lua\)` |.*/\1/p' docs/love.md)
[ "$(echo "$files" | wc -w)" -ge 10 ] ||
  { echo "love-ship: docs/love.md lists no files to ship ('$files')" >&2; exit 1; }
echo "love-ship: the files docs/love.md lists:" $files
for f in $files; do cp "lua/obb/$f" "$work/stage/obb/"; done
(cd "$work/stage" && zip -q -r -X ../game-nolib.love .)
mkdir -p "$work/stage/lib/$platform"
cp build/luajit/obb.so "$work/stage/lib/$platform/obb.so"
(cd "$work/stage" && zip -q -r -X ../game.love .)
# the same .love without obb/jit_world.lua
cp "$work/game.love" "$work/game-noworld.love"
zip -q -d "$work/game-noworld.love" obb/jit_world.lua

# run NAME EXPECTED_FROM COMMAND...: runs the game from $work/elsewhere;
# fails on a non-zero status, on obb loaded from elsewhere than
# EXPECTED_FROM (a shell pattern), or when a plain require found obb.
run() {
  r_name=$1 r_from=$2
  shift 2
  log="$work/$r_name.log"
  status=0
  (cd "$work/elsewhere" && timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$@") >"$log" 2>&1 || status=$?
  sed "s/^/  [$r_name] /" "$log"
  if [ "$status" != 0 ]; then
    echo "love-ship: $r_name exited with status $status" >&2
    exit 1
  fi
  from=$(sed -n 's/^love-ship: obb loaded from: //p' "$log")
  # shellcheck disable=SC2254
  case $from in
    $r_from) ;;
    *) echo "love-ship: $r_name loaded obb from '$from', expected $r_from" >&2; exit 1 ;;
  esac
  grep -q '^love-ship: plain require: not found' "$log" ||
    { echo "love-ship: $r_name: a plain require found obb (the case is not the one tested)" >&2; exit 1; }
  grep -q '^love-ship: ok after' "$log" ||
    { echo "love-ship: $r_name did not finish its frames" >&2; exit 1; }
}

# 1. the .love, twice: the second run finds the copy and writes nothing
save_love="$XDG_DATA_HOME/love/obb-love-ship"
run love "$save_love/obb-native/$platform-*/obb.so" love "$work/game.love"
copy=$(ls "$save_love"/obb-native/"$platform"-*/obb.so)
cmp "$copy" build/luajit/obb.so
stamp=$(stat -c '%i %y' "$copy")
run love-again "$copy" love "$work/game.love"
[ "$(stat -c '%i %y' "$copy")" = "$stamp" ] ||
  { echo "love-ship: the second run wrote the copy again" >&2; exit 1; }

# 2. fused, obb.so beside the executable
cat "$love_bin" "$work/game-nolib.love" >"$work/fused/obb-ship"
chmod +x "$work/fused/obb-ship"
cp build/luajit/obb.so "$work/fused/obb.so"
run fused "$work/fused/obb.so" "$work/fused/obb-ship"

# 3. fused, the module inside only (fused games save in $XDG_DATA_HOME/<identity>)
cat "$love_bin" "$work/game.love" >"$work/fused-lib/obb-ship"
chmod +x "$work/fused-lib/obb-ship"
run fused-lib "$XDG_DATA_HOME/obb-love-ship/obb-native/$platform-*/obb.so" "$work/fused-lib/obb-ship"

# 4. the .love without obb/jit_world.lua: loads obb, classic, and says why
run love-noworld "$save_love/obb-native/$platform-*/obb.so" \
  env LOVE_SHIP_CLASSIC="module 'obb.jit_world' not found" love "$work/game-noworld.love"
grep -q "^love-ship: obb path: classic: module 'obb.jit_world' not found" "$work/love-noworld.log" ||
  { echo "love-ship: love-noworld: obb.jit.status does not say that obb/jit_world.lua is missing" >&2; exit 1; }

echo "love-ship: ok (a .love twice, a fused game with obb.so beside it, a fused game with it inside;" \
  "a .love without obb/jit_world.lua on the classic binding, saying why)"
