#!/bin/sh
# make dist: one release archive per platform in dist/ (issue 28), each
#   obb-VERSION-PLATFORM/
#     luajit/obb.so      (the module for LuaJIT and LÖVE; obb.dll on Windows)
#     lua5.4/obb.so      (the module for Lua 5.4)
#     lua/obb/*.lua      (the Lua layer: obb.jit, obb.bump, obb.loader, ...)
#     README.md LICENSE CHANGELOG.md
# Linux x86-64 and ARM64 as .tar.gz holding both interpreters' modules;
# Windows x86-64 as two .zip, one for LuaJIT and LÖVE (obb.dll linked to
# lua51.dll) and one for Lua 5.4 (lua54.dll). The modules are the ones
# `make`, `make cross-arm64` and `make cross-windows` built, stripped by
# each platform's strip with --strip-unneeded (the debugging information
# and the local symbols out, the exports kept: about a quarter of the
# size), and checked to be so: no .debug_* section, no symbol table.
#   sh test/dist.sh VERSION
set -eu
version=$1
out=dist
rm -rf "$out"
mkdir -p "$out"
stage() { # stage PLATFORM: the folder's common files
  d=$out/stage/obb-$version-$1
  rm -rf "$d"
  mkdir -p "$d/lua/obb"
  cp lua/obb/*.lua "$d/lua/obb/"
  cp README.md LICENSE CHANGELOG.md "$d/"
  echo "$d"
}
module() { # module DIR LUA FILE STRIP OBJDUMP: the module, stripped
  mkdir -p "$1/$2"
  cp "$3" "$1/$2/"
  m=$1/$2/$(basename "$3")
  "$4" --strip-unneeded "$m"
  # what is left: no debugging information and no symbol table (the
  # exports, .dynsym in an ELF and the export table in a DLL, stay)
  if "$5" -h "$m" | grep -qE '[[:space:]](\.debug_|\.symtab|\.strtab)'; then
    echo "dist: $m still has debugging sections or a symbol table" >&2; exit 1
  fi
  if [ "$("$5" -t "$m" | grep -c .)" -gt 3 ]; then
    echo "dist: $m still has a symbol table" >&2; exit 1
  fi
  echo "dist: $m: $(wc -c <"$3") -> $(wc -c <"$m") bytes"
}
tarball() { # tarball DIR
  (cd "$(dirname "$1")" && tar -czf "../$(basename "$1").tar.gz" "$(basename "$1")")
}
zipball() { # zipball DIR
  (cd "$(dirname "$1")" && python3 -m zipfile -c "../$(basename "$1").zip" "$(basename "$1")")
}

d=$(stage linux-x86_64)
module "$d" luajit build/luajit/obb.so strip objdump
module "$d" lua5.4 build/lua5.4/obb.so strip objdump
tarball "$d"

d=$(stage linux-arm64)
module "$d" luajit build/linux-arm64/luajit/obb.so aarch64-linux-gnu-strip aarch64-linux-gnu-objdump
module "$d" lua5.4 build/linux-arm64/lua5.4/obb.so aarch64-linux-gnu-strip aarch64-linux-gnu-objdump
tarball "$d"

d=$(stage windows-x86_64-luajit)
module "$d" luajit build/windows-x86_64/luajit/obb.dll x86_64-w64-mingw32-strip x86_64-w64-mingw32-objdump
zipball "$d"

d=$(stage windows-x86_64-lua5.4)
module "$d" lua5.4 build/windows-x86_64/lua5.4/obb.dll x86_64-w64-mingw32-strip x86_64-w64-mingw32-objdump
zipball "$d"

rm -rf "$out/stage"
ls -l "$out"
