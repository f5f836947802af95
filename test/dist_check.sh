#!/bin/sh
# make dist-check: unpacks each archive of dist/ (test/dist.sh) and loads
# it on its platform, with package.path and package.cpath pointing into the
# archive and nowhere else: Linux x86-64 with this machine's interpreters,
# Linux ARM64 with the arm64 ones under qemu (make cross-arm64), Windows
# x86-64 with the Windows ones under wine (make cross-windows). Each runs
# test/dist_check.lua.
#   sh test/dist_check.sh VERSION
set -eu
version=$1
top=$(pwd)
into=$top/build/dist-check
rm -rf "$into"
mkdir -p "$into"
unset LUA_PATH_5_4 LUA_CPATH_5_4 LUA_INIT LUA_INIT_5_4
check() { # check PLATFORM LUA INTERPRETER...
  platform=$1 lua=$2
  shift 2
  d=$into/obb-$version-$platform
  echo "== $platform, $lua"
  "$@"
}
for a in dist/*.tar.gz; do tar -xzf "$a" -C "$into"; done
for a in dist/*.zip; do python3 -m zipfile -e "$a" "$into"; done
for lua in luajit lua5.4; do
  d=$into/obb-$version-linux-x86_64
  LUA_PATH="$d/lua/?.lua" LUA_CPATH="$d/$lua/?.so" check linux-x86_64 $lua $lua test/dist_check.lua
  d=$into/obb-$version-linux-arm64
  LUA_PATH="$d/lua/?.lua" LUA_CPATH="$d/$lua/?.so" \
    check linux-arm64 $lua "build/linux-arm64/$lua/bin/$lua" test/dist_check.lua
done
# Wine as build/windows-x86_64/*/run keeps it: quiet, headless, its prefix.
export WINEPREFIX=$top/build/windows-x86_64/wineprefix WINEDEBUG=-all WINEARCH=win64
export WINEDLLOVERRIDES='mscoree,mshtml=;winedbg.exe=d'
unset DISPLAY WAYLAND_DISPLAY
for lua in luajit lua5.4; do
  d=$into/obb-$version-windows-x86_64-$lua
  exe=$top/build/windows-x86_64/$lua/lua.exe
  [ "$lua" = luajit ] && exe=$top/build/windows-x86_64/luajit/luajit.exe
  LUA_PATH="Z:$d/lua/?.lua" LUA_CPATH="Z:$d/$lua/?.dll" \
    check windows-x86_64-$lua $lua wine "$exe" "Z:$top/test/dist_check.lua"
done
echo "dist-check: every archive loaded on its platform"
