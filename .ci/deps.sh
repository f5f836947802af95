#!/bin/sh
# Installs, from Debian's packages, what `make` (build) or `make test`
# (test) needs for one Lua, and only what is missing. Usage:
#   sh .ci/deps.sh build|test lua5.4|lua5.3|lua5.2|lua5.1|luajit
set -e
what=$1
lua=${2:-lua5.4}
case $lua in
  luajit) pkgs="luajit libluajit-5.1-dev"; header=/usr/include/luajit-2.1/lua.h ;;
  lua5.1) pkgs="lua5.1 liblua5.1-0-dev"; header=/usr/include/lua5.1/lua.h ;;
  lua5.*) pkgs="$lua lib$lua-dev"; header=/usr/include/$lua/lua.h ;;
  *) echo "deps.sh: unknown Lua '$lua'" >&2; exit 2 ;;
esac
need=""
command -v "$lua" >/dev/null 2>&1 || need="$pkgs"
[ -f "$header" ] || need="$pkgs"
command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || need="$need gcc make"
if [ "$what" = test ]; then
  command -v busted >/dev/null 2>&1 || need="$need lua-busted"
fi
[ -n "$need" ] || exit 0
echo "installing:$need"
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
