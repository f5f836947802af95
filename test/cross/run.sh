#!/usr/bin/env bash
# build/windows-x86_64/<lua>/run script.lua [args]: runs the script under
# wine with the Windows interpreter of this folder (luajit.exe or lua.exe)
# and its obb.dll, the repository's Lua layer (lua/obb/*.lua: obb.jit,
# obb.bump, ...) on package.path. `make cross-windows` copies this file
# into each interpreter's folder.
#
# Wine is kept quiet and headless: WINEDEBUG=-all, no display (a console
# program needs none), no Mono or Gecko prompts, no debugger on a crash
# (wine's one line on stderr, a non-zero status), and its own prefix
# beside the interpreters (build/windows-x86_64/wineprefix), made on first
# use. The script's stdout comes back on stdout with the CR that Windows'
# text mode writes before each LF taken out (so it compares with Linux's
# output byte for byte); stderr as Windows wrote it. The exit status is the
# interpreter's.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ -f "$here/luajit.exe" ]; then exe=$here/luajit.exe; else exe=$here/lua.exe; fi
export WINEPREFIX=${OBB_WINEPREFIX:-$(dirname "$here")/wineprefix}
export WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=;winedbg.exe=d' WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
# Windows paths of the Lua layer and of this folder's obb.dll (wine's Z:
# is the Unix root); the defaults after ";;".
export LUA_PATH="Z:$root/lua/?.lua;Z:$root/lua/?/init.lua;;"
export LUA_CPATH="Z:$here/?.dll;;"
unset LUA_PATH_5_4 LUA_CPATH_5_4 LUA_INIT LUA_INIT_5_4
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$WINEPREFIX"
  wine wineboot --init >/dev/null 2>&1
  wineserver -w
fi
if [ "${OBB_RUN_RAW:-}" = 1 ]; then exec wine "$exe" "$@"; fi
wine "$exe" "$@" | sed -u 's/\r$//'
exit "${PIPESTATUS[0]}"
