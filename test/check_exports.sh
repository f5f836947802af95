#!/bin/sh
# The shared object exports exactly the functions the public headers
# declare (OBB_API / LOBB_API): nothing internal, nothing missing.
#   sh test/check_exports.sh build/lua5.4/obb.so include/*.h
set -eu
so=$1
shift
tmp=${TMPDIR:-/tmp}/obb-exports.$$
trap 'rm -f "$tmp".*' EXIT
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort >"$tmp.exported"
grep -hoE '^L?OBB_API [^(]*\(' "$@" | sed -E 's/.*[ *]([A-Za-z_0-9]+)\($/\1/' | sort >"$tmp.declared"
if ! diff -u "$tmp.declared" "$tmp.exported"; then
  echo "check-exports: $so's exports differ from the public headers (-declared +exported)" >&2
  exit 1
fi
echo "check-exports: $(wc -l <"$tmp.exported") functions exported, all declared in $*"
