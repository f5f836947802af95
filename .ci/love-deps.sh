#!/bin/sh
# What the LÖVE tests need, installed only when missing (Debian packages):
# LÖVE 11 (`love`, on LuaJIT), Xvfb and xvfb-run, Mesa's software OpenGL,
# python3 (.ci/love.sh reads its screenshots) and zip (test/love-ship.sh
# packs .love files). Used by .ci/love.sh and test/love-ship.sh.
set -eu
need=""
command -v love >/dev/null 2>&1 || need="$need love"
command -v xvfb-run >/dev/null 2>&1 || need="$need xvfb xauth"
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -n "$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null)" ] ||
  need="$need libgl1-mesa-dri"
command -v python3 >/dev/null 2>&1 || need="$need python3"
command -v zip >/dev/null 2>&1 || need="$need zip"
if [ -n "$need" ]; then
  echo "installing:$need"
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
