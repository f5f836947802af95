#!/bin/sh
# Builds the arm64 sysroot `make cross-arm64` runs in (mk/arm64.mk): Debian's
# own arm64 packages of Lua 5.4, LuaJIT, their headers and libraries, and
# busted with its C modules, unpacked with dpkg-deb -x into DIR/sysroot (never
# installed: the host's dpkg knows nothing of them). qemu-aarch64 -L DIR/sysroot
# runs the interpreters. It installs what it needs on the host (the cross
# compiler, qemu, the arm64 architecture in dpkg) only when missing, and does
# nothing when DIR already holds this list of packages. Usage:
#   sh test/cross/arm64_sysroot.sh DIR     (the sysroot: DIR/sysroot, the packages: DIR/debs)
set -e
dir=${1:?usage: arm64_sysroot.sh DIR}
root=$dir/sysroot

# The interpreters and the libraries they link (checked below, by their
# NEEDED entries), the Lua headers the module is compiled against, and busted
# with what it requires: its C modules are arm64, the rest is Lua (all).
pkgs="libc6 libgcc-s1 libstdc++6 libreadline8 libtinfo6
  lua5.4 liblua5.4-0 liblua5.4-dev
  luajit libluajit-5.1-2 libluajit-5.1-dev libluajit-5.1-common
  lua-filesystem lua-system lua-term
  lua-busted lua-cliargs lua-dkjson lua-luassert lua-mediator lua-penlight lua-say"

stamp="$root/.packages"
want=$(echo $pkgs)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi

if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
updated=
update() { [ -n "$updated" ] || $SUDO apt-get update -qq; updated=1; }

need=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
command -v qemu-aarch64 >/dev/null 2>&1 || need="$need qemu-user"
command -v dpkg-deb >/dev/null 2>&1 || need="$need dpkg"
if [ -n "$need" ]; then
  echo "installing:$need"
  update
  $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "adding the arm64 architecture to dpkg (for apt-get download)"
  $SUDO dpkg --add-architecture arm64
  updated=
fi
# An arch-qualified name for each package that has one (Architecture: all
# packages are asked for plainly).
list=""
for p in $pkgs; do
  case $p in
    lua-busted|lua-cliargs|lua-dkjson|lua-luassert|lua-mediator|lua-penlight|lua-say|libluajit-5.1-common) list="$list $p" ;;
    *) list="$list $p:arm64" ;;
  esac
done
apt-cache show lua5.4:arm64 >/dev/null 2>&1 || update

rm -rf "$dir/debs" "$root"
mkdir -p "$dir/debs" "$root"
# apt's _apt user downloads into a folder it may write.
chmod 777 "$dir/debs"
echo "downloading arm64 packages into $dir/debs"
(cd "$dir/debs" && apt-get download -qq $list 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
n=0
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; n=$((n + 1)); done
[ "$n" -eq $(echo $pkgs | wc -w) ] || { echo "arm64_sysroot.sh: $n packages of $(echo $pkgs | wc -w) downloaded" >&2; exit 1; }

# Every library the interpreters and busted's C modules need is here.
missing=""
for elf in "$root"/usr/bin/* "$root"/usr/lib/aarch64-linux-gnu/*.so.* \
    $(find "$root/usr/lib/aarch64-linux-gnu/lua" -name '*.so'); do
  [ -f "$elf" ] && [ "$(head -c 4 "$elf")" = "$(printf '\177ELF')" ] || continue
  for lib in $(LC_ALL=C readelf -d "$elf" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -e "$root/lib/aarch64-linux-gnu/$lib" ] || [ -e "$root/usr/lib/aarch64-linux-gnu/$lib" ] ||
      missing="$missing $lib(${elf##*/})"
  done
done
[ -z "$missing" ] || { echo "arm64_sysroot.sh: missing from the sysroot:$missing" >&2; exit 1; }
echo "$want" > "$stamp"
