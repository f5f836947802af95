#!/bin/sh
# What each shared object needs from the system (docs/precision.md, "The
# same answers on every platform"):
#   - no libm fma (fma, fmaf, fmal): it is not correctly rounded
#     everywhere, so the core computes exact products itself
#     (src/core/obb_exact.c);
#   - with glibc, no symbol version newer than GLIBC_MAX (default 2.17, the
#     oldest glibc obb supports: x86-64's symbols start at GLIBC_2.2.5,
#     aarch64's at GLIBC_2.17), so a module built on a new system loads on
#     an old one.
# An object objdump cannot read as ELF (a macOS bundle) is skipped.
#   sh test/check_imports.sh build/lua5.4/obb.so build/lua5.4/libobb.so
set -eu
max=${GLIBC_MAX:-2.17}
status=0
for so in "$@"; do
  bad=0
  if ! dyn=$(objdump -T "$so" 2>/dev/null); then
    echo "check-imports: $so: not an ELF shared object objdump reads, skipped"
    continue
  fi
  # The undefined dynamic symbols, without their versions.
  undef=$(printf '%s\n' "$dyn" | awk '/\*UND\*/ { print $NF }' | sort -u)
  fma=$(printf '%s\n' "$undef" | grep -xE 'fma[fl]?' || true)
  if [ -n "$fma" ]; then
    echo "check-imports: $so imports libm's $(echo $fma) (use obb_exact.h)" >&2
    bad=1
  fi
  # Every glibc version it references, from its symbols and its version
  # needs, and which symbols need each one above the floor.
  versions=$( (printf '%s\n' "$dyn"; objdump -p "$so") |
    grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sort -u)
  newest=none
  for v in $versions; do
    n=${v#GLIBC_}
    if [ "$(printf '%s\n%s\n' "$n" "$max" | sort -V | tail -n 1)" != "$max" ]; then
      syms=$(printf '%s\n' "$dyn" | awk -v v="($v)" 'index($0, v) { print $NF }' | sort -u)
      echo "check-imports: $so needs $v (newer than GLIBC_$max) for: $(echo $syms)" >&2
      bad=1
    fi
    if [ "$newest" = none ] ||
       [ "$(printf '%s\n%s\n' "$n" "$newest" | sort -V | tail -n 1)" = "$n" ]; then
      newest=$n
    fi
  done
  if [ $bad -eq 0 ]; then
    echo "check-imports: $so: $(printf '%s\n' "$undef" | grep -c .) imports, no fma," \
      "glibc versions up to ${newest} (at most $max)"
  else
    status=1
  fi
done
exit $status
