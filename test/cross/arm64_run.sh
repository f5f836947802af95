#!/bin/sh
# build/linux-arm64/LUA/run script.lua [args]: runs a script on the arm64
# interpreter of that folder under qemu (LUA is the folder's name: lua5.4 or
# luajit), with that folder's obb.so, the repository's Lua layer (lua/obb/)
# and the sysroot's Lua modules (busted) on the paths, and no other: the
# host's own modules are x86-64. `make cross-arm64` copies this file there.
# Output and exit status are the script's.
here=$(cd "$(dirname "$0")" && pwd)
lua=${here##*/}
top=$(cd "$here/../../.." && pwd)
sysroot=$(cd "$here/../sysroot" && pwd)
case $lua in
  luajit) v=5.1 ;;
  lua5.*) v=${lua#lua} ;;
  *) echo "run: no arm64 interpreter called '$lua'" >&2; exit 2 ;;
esac
extra=
# LuaJIT's own modules (jit.dump, jit.v: luajit -jdump works).
for d in "$sysroot"/usr/share/luajit-*; do [ -d "$d" ] && extra="$extra;$d/?.lua"; done
LUA_PATH="./?.lua;$top/lua/?.lua;$top/lua/?/init.lua;$sysroot/usr/share/lua/$v/?.lua;$sysroot/usr/share/lua/$v/?/init.lua$extra"
LUA_CPATH="$here/?.so;$sysroot/usr/lib/aarch64-linux-gnu/lua/$v/?.so"
export LUA_PATH LUA_CPATH
# A version's own variables come first in Lua 5.2 and later.
unset LUA_PATH_5_2 LUA_CPATH_5_2 LUA_PATH_5_3 LUA_CPATH_5_3 LUA_PATH_5_4 LUA_CPATH_5_4
exec "$here/bin/$lua" "$@"
