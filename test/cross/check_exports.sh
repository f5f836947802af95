#!/bin/sh
# A Windows obb.dll exports exactly the functions the Linux obb.so of the
# same Lua exports (the public API, OBB_API / LOBB_API; test/check_exports.sh
# holds the .so to the headers): nothing internal, nothing missing.
#   sh test/cross/check_exports.sh x86_64-w64-mingw32-objdump build/windows-x86_64/luajit/obb.dll build/luajit/obb.so
set -eu
objdump=$1 dll=$2 so=$3
tmp=${TMPDIR:-/tmp}/obb-win-exports.$$
trap 'rm -f "$tmp".*' EXIT
# The export table's name pointers: "\t[   0] name" after its heading.
"$objdump" -p "$dll" | awk '/^\[Ordinal\/Name Pointer\] Table/ { on = 1; next }
  on && /^[[:space:]]*\[ *[0-9]+\]/ { print $NF; next } on && NF == 0 { on = 0 }' |
  sort >"$tmp.dll"
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort >"$tmp.so"
if ! diff -u "$tmp.so" "$tmp.dll"; then
  echo "check-exports-windows: $dll's exports differ from $so's (-Linux +Windows)" >&2
  exit 1
fi
echo "check-exports-windows: $dll exports $(wc -l <"$tmp.dll") functions, the same as $so"
