#!/bin/sh
# What `make cross-windows` needs, from Debian alone, each step only when
# missing (so a second run does nothing):
#   1. the packages: the mingw-w64 cross compiler (gcc-mingw-w64-x86-64,
#      with its binutils: objdump), wine64 and wine to run the result,
#      dpkg-dev (dpkg-source, for apt-get source);
#   2. a deb-src entry for every deb entry of Debian's own archive (same
#      URIs, suites and components), then apt-get update;
#   3. the source packages luajit and lua5.4, unpacked under $1, with
#      stable names for their folders: $1/luajit and $1/lua5.4.
# Usage: sh test/cross/deps.sh build/windows-src
set -eu
src=${1:-build/windows-src}
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive

need=""
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need="$need gcc-mingw-w64-x86-64"
command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1 || need="$need binutils-mingw-w64-x86-64"
[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null 2>&1 || need="$need wine64"
command -v wine >/dev/null 2>&1 || need="$need wine"
command -v dpkg-source >/dev/null 2>&1 || need="$need dpkg-dev"
command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || need="$need gcc make"
if [ -n "$need" ]; then
  echo "cross-windows: installing$need"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

mkdir -p "$src"
src=$(cd "$src" && pwd)
# Already unpacked (each package's folder is named <package>-<upstream version>)?
have() { ls -d "$src/$1"-[0-9]*/ >/dev/null 2>&1; }
link() { for p in luajit lua5.4; do ln -sfn "$(basename "$(ls -d "$src/$p"-[0-9]*/ | tail -n 1)")" "$src/$p"; done; }
if have luajit && have lua5.4; then link; exit 0; fi

# deb-src: the deb entries of Debian's archive turned into deb-src ones,
# in a file of our own; nothing else in /etc/apt is changed.
list=/etc/apt/sources.list.d/obb-deb-src.sources
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  tmp=$(mktemp)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # Stanzas (blank-line separated) of type deb whose URIs are Debian's.
    awk -v RS= -v ORS='\n\n' '/(^|\n)Types:[^\n]*deb/ && /(^|\n)URIs:[^\n]*debian/' "$f" |
      sed -E 's/^Types:.*/Types: deb-src/' >>"$tmp"
  done
  # The one-line format (sources.list and *.list).
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    grep -E '^deb[[:space:]].*debian' "$f" | sed -E 's/^deb[[:space:]]/deb-src /' >>"$tmp.list" || true
  done
  if [ -s "$tmp" ]; then
    echo "cross-windows: adding $list"
    $SUDO cp "$tmp" "$list" && $SUDO chmod 644 "$list"
  fi
  if [ -s "$tmp.list" ]; then
    echo "cross-windows: adding ${list%.sources}.list"
    $SUDO cp "$tmp.list" "${list%.sources}.list" && $SUDO chmod 644 "${list%.sources}.list"
  fi
  rm -f "$tmp" "$tmp.list"
fi
# The source indexes: fetched unless apt knows both packages already.
if ! apt-cache showsrc luajit lua5.4 2>/dev/null | grep -q '^Package: lua5.4$' ||
   ! apt-cache showsrc luajit 2>/dev/null | grep -q '^Package: luajit$'; then
  $SUDO apt-get update -qq
fi

cd "$src"
for p in luajit lua5.4; do
  have "$p" && continue
  echo "cross-windows: apt-get source $p"
  # Unpacked where we stand; the .dsc and tarballs stay beside it.
  apt-get source -qq "$p" >/dev/null 2>&1 || apt-get source "$p"
  have "$p"
done
link
