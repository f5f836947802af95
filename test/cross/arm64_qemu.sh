#!/bin/sh
# build/linux-arm64/LUA/bin/LUA: the arm64 interpreter LUA under qemu-aarch64,
# its libraries from the sysroot (-L), the environment untouched. `run` calls
# it; test-arm64 puts its folder first on PATH, so that a spec's child
# interpreter (spec/helpers.lua, run_child: `lua5.4` or `luajit` by name, run
# by a host shell) is the arm64 one too. `make cross-arm64` copies it there.
here=$(cd "$(dirname "$0")" && pwd)
sysroot=$(cd "$here/../../sysroot" && pwd)
exec "${QEMU_AARCH64:-qemu-aarch64}" -L "$sysroot" "$sysroot/usr/bin/${0##*/}" "$@"
