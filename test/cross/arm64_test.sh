#!/bin/sh
# `make test-arm64` (mk/arm64.mk), after `make cross-arm64`, and `make
# digest` on this machine for lua5.4 and luajit (build/LUA/digest.txt):
#   0. the modules import no libm fma and nothing newer than glibc 2.17,
#      and hold no fused multiply-add instruction;
#   1. under LuaJIT, obb.jit's status must be "ffi" (the fast path is on);
#   2. the specs, by busted from the sysroot, under qemu on both arm64
#      interpreters at once (two processes: qemu runs one core each);
#   3. the digests, x86-64's against arm64's on each interpreter:
#      test/digest.lua (LuaJIT: on both paths) must be byte for byte the
#      same, and so must test/cross/bump_digest.lua (obb.bump, whose
#      arithmetic is Lua) on the interpreters ARM64_BUMP_STRICT names.
# Every ARM64_* value below can be set in the environment. Usage:
#   sh test/cross/arm64_test.sh
set -eu
cd "$(dirname "$0")/../.."
A=build/linux-arm64
top=$(pwd)

# The specs that exercise the arithmetic, where another CPU, libm or
# compiler could answer differently: pair tests, sweeps (turning too),
# moves (turning too, and by response sets) and casts, penetration, contacts, rays and distances, fits and
# merges, the primitives, worlds, random and extreme cases, obb.bump's Lua
# arithmetic, the FFI path against the classic binding (jit_spec, LuaJIT
# only), and the touching rule (below). Left out: argument checking and
# hostile values, documentation, pictures, maps and memory under load,
# which hold no arithmetic a platform could change (and memory_spec alone
# takes over two minutes under qemu).
: "${ARM64_SPECS:=spec/obb2_spec.lua spec/obb3_spec.lua spec/construct_spec.lua spec/sweep_spec.lua
  spec/turning_sweep_spec.lua spec/cast_turning_spec.lua spec/move_spec.lua spec/move_turning_spec.lua
  spec/classes_spec.lua spec/platformer_move_spec.lua
  spec/penetration_spec.lua spec/contact_spec.lua spec/raycast_spec.lua spec/distance_spec.lua
  spec/fit_spec.lua spec/merge_spec.lua spec/prims_spec.lua spec/world_spec.lua spec/random_spec.lua
  spec/round3_core_spec.lua spec/extremes_spec.lua spec/bump_spec.lua spec/bump_faithful_spec.lua}"
# The lighter loads of the specs that have them (turning sweeps, casts,
# moves, round3_core: a tenth).
: "${ARM64_SPEC_ENV:=OBB_SPEC_LIGHT=1}"
# The touching rule (spec/touching_spec.lua), a tenth of its counts on Lua
# 5.4 (as CI runs it on every Lua but 5.4 natively) and a hundredth on
# LuaJIT, whose interpreter runs it there (-joff): compiled, its traces
# cost qemu more than the interpreter does (five times over), and its
# reference images of corners, "the same products in the same order" as
# obb's C, are not the same arithmetic once LuaJIT's arm64 backend fuses
# them into multiply-adds. Every other spec runs compiled.
: "${ARM64_TOUCH_lua5_4:=OBB_TOUCH_BOXES=10000 OBB_TOUCH_PAIRS=100000}"
: "${ARM64_TOUCH_luajit:=OBB_TOUCH_BOXES=1000 OBB_TOUCH_PAIRS=10000}"
: "${ARM64_BUMP_STRICT:=lua5.4}"

now() { date +%s; }
t0=$(now)
fail=0

# The modules as cross-built: what they import (no libm fma, glibc 2.17
# at most: test/check_imports.sh) and no fused multiply-add instruction
# (fmadd, fmsub, fnmadd, fnmsub), which -ffp-contract=off keeps out.
for lua in lua5.4 luajit; do
  sh test/check_imports.sh "$A/$lua/obb.so" || fail=1
  n=$(${ARM64_OBJDUMP:-aarch64-linux-gnu-objdump} -d "$A/$lua/obb.so" | grep -cE '\sfn?m(add|sub)\s' || true)
  echo "== $A/$lua/obb.so: $n fused multiply-add instructions"
  [ "$n" = 0 ] || fail=1
done

status=$("$A/luajit/run" -e 'require "obb"; io.write(require("obb.jit").status)')
echo "== arm64 luajit: obb.jit.status is \"$status\""
[ "$status" = ffi ] || { echo "obb.jit is not on the FFI path under arm64 LuaJIT" >&2; fail=1; }

# busted LUA LOG ENV LUAOPTS SPECS...: the specs on arm64 LUA, output in
# LOG, the status in LOG.rc. bin/ comes first on PATH so that a spec's child
# interpreter (spec/helpers.lua, run_child) is the arm64 one too.
busted() {
  lua=$1 log=$2 vars=$3 opts=$4
  shift 4
  rc=0
  env $vars PATH="$top/$A/$lua/bin:$PATH" "$A/$lua/run" $opts "$A/sysroot/usr/bin/busted" --ignore-lua \
    --cpath="$top/$A/$lua/?.so" -o utfTerminal "$@" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$log.rc"
}

echo "== specs under qemu, both interpreters at once:"
echo "   lua5.4: $ARM64_SPEC_ENV $ARM64_TOUCH_lua5_4, $(echo $ARM64_SPECS | wc -w) files and touching_spec"
echo "   luajit: $ARM64_SPEC_ENV, the same files and jit_spec; then -joff $ARM64_TOUCH_luajit touching_spec"
# Each job's CPU seconds (its children's, by `times`) go to cpu.txt: CI's
# time is the larger of the two where it has two cores.
(
  busted lua5.4 "$A/lua5.4/specs.log" "$ARM64_SPEC_ENV $ARM64_TOUCH_lua5_4" "" \
    $ARM64_SPECS spec/touching_spec.lua
  times >"$A/lua5.4/cpu.txt"
) &
pid54=$!
# obb.bump's own arithmetic is Lua, which LuaJIT's arm64 backend fuses
# into multiply-adds, differently from run to run (docs/precision.md): its
# specs' exact answers hold there only interpreted, so LuaJIT runs them
# with -joff (bump_digest.lua below shows the compiled difference).
bump_specs="spec/bump_spec.lua spec/bump_faithful_spec.lua"
jit_specs=""
for s in $ARM64_SPECS; do
  case " $bump_specs " in *" $s "*) ;; *) jit_specs="$jit_specs $s" ;; esac
done
(
  busted luajit "$A/luajit/specs.log" "$ARM64_SPEC_ENV" "" $jit_specs spec/jit_spec.lua
  busted luajit "$A/luajit/bump.log" "$ARM64_SPEC_ENV" -joff $bump_specs
  busted luajit "$A/luajit/touching.log" "$ARM64_TOUCH_luajit" -joff spec/touching_spec.lua
  times >"$A/luajit/cpu.txt"
) &
pidjit=$!
wait $pid54 || true
wait $pidjit || true
for lua in lua5.4 luajit; do
  echo "   $lua: CPU time (user, system) $(tail -n 1 "$A/$lua/cpu.txt")"
done
for log in "$A/lua5.4/specs.log" "$A/luajit/specs.log" "$A/luajit/bump.log" "$A/luajit/touching.log"; do
  summary=$(grep -E '^[0-9]+ successes? / [0-9]+ failures? / [0-9]+ errors?' "$log" | tail -n 1 || true)
  echo "   $log: ${summary:-no summary}"
  if [ "$(cat "$log.rc")" != 0 ]; then
    tail -n 40 "$log"
    fail=1
  fi
done
t1=$(now)
echo "   ($((t1 - t0)) s)"

mkdir -p "$A/digest"
# compare NAME X86 ARM [STRICT]: a line saying whether the two files are
# the same; a difference fails the run unless STRICT is "no".
compare() {
  name=$1 x86=$2 arm=$3 strict=${4:-yes}
  lines=$(wc -l <"$x86")
  if cmp -s "$x86" "$arm"; then
    echo "== $name: arm64 and x86-64 identical ($lines lines, md5 $(md5sum <"$arm" | cut -c1-32))"
    return 0
  fi
  n=$(diff "$x86" "$arm" | grep -c '^<' || true)
  echo "== $name: arm64 DIFFERS from x86-64 in $n of $lines lines ($x86, $arm); the first:"
  diff "$x86" "$arm" | head -n 4
  if [ "$strict" = no ]; then echo "   (not a failure: ARM64_BUMP_STRICT is \"$ARM64_BUMP_STRICT\")"; else fail=1; fi
  return 1
}
# Under LuaJIT, a difference that goes away with -O-fuse (no fusing, and
# so no fused multiply-add) is the compiled Lua's arithmetic, not obb's C.
fused() {
  if "$A/luajit/run" -O-fuse "$1" | cmp -s "$2" -; then
    echo "   the same with -O-fuse: compiled Lua's a*b + c (in lua/obb/ or $1) fused by arm64 LuaJIT"
  else
    echo "   not the same with -O-fuse either"
  fi
}
for lua in lua5.4 luajit; do
  arm=$A/digest/digest-arm64-$lua.txt
  "$A/$lua/run" test/digest.lua >"$arm"
  if ! compare "$lua test/digest.lua" "build/$lua/digest.txt" "$arm"; then
    if [ "$lua" = luajit ]; then fused test/digest.lua "build/$lua/digest.txt"; fi
  fi
  if [ "$lua" = luajit ]; then
    arm=$A/digest/digest-arm64-luajit-classic.txt
    OBB_NO_FFI=1 "$A/$lua/run" test/digest.lua >"$arm"
    compare "luajit test/digest.lua, classic binding (OBB_NO_FFI=1)" "build/$lua/digest.txt" "$arm" || true
  fi
  x86=$A/digest/bump_digest-x86-64-$lua.txt
  arm=$A/digest/bump_digest-arm64-$lua.txt
  LUA_PATH="./lua/?.lua;./lua/?/init.lua" LUA_CPATH="./build/$lua/?.so" "$lua" test/cross/bump_digest.lua >"$x86"
  "$A/$lua/run" test/cross/bump_digest.lua >"$arm"
  strict=no
  case " $ARM64_BUMP_STRICT " in *" $lua "*) strict=yes ;; esac
  if ! compare "$lua test/cross/bump_digest.lua" "$x86" "$arm" $strict; then
    if [ "$lua" = luajit ]; then fused test/cross/bump_digest.lua "$x86"; fi
  fi
done
echo "   ($(($(now) - t1)) s)"
exit $fail
