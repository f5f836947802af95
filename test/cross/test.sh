#!/bin/sh
# make test-windows: under wine, on each Windows interpreter of $1 (luajit,
# lua5.4; their `run` scripts, test/cross/run.sh):
#   - the examples `make examples` runs, each checking itself (LÖVE's are
#     not here: .ci/love.sh runs them);
#   - the docs' Lua blocks and their `-->` results (test/cross/doc_blocks.lua,
#     spec/doc_blocks_spec.lua without busted);
#   - under LuaJIT, require("obb.jit").status is "ffi": the FFI fast path is on;
#   - finalizers that call obb while the state closes end normally
#     (test/cross/at_close.lua), on both of LuaJIT's paths;
#   - the determinism digest (test/digest.lua) byte for byte the Linux one
#     of the same Lua, build/<lua>/digest.txt (`make digest`); LuaJIT on
#     both paths (OBB_NO_FFI=1: the classic binding).
# Every check runs; the status is 1 if any failed.
#   sh test/cross/test.sh build/windows-x86_64 build/windows-x86_64/tests 'racing platformer ...'
set -u
win=$1 out=$2 examples=$3
mkdir -p "$out"
failed=""
fail() { echo "FAIL: $*"; failed="$failed
  $*"; }

# The digest of $2 (a run script) against $3; $1 names it, $4.. is the env.
digest() {
  name=$1 run=$2 want=$3
  shift 3
  got=$out/digest-$name.txt
  if ! env "$@" "$run" test/digest.lua >"$got"; then fail "$name: test/digest.lua"; return; fi
  if cmp -s "$want" "$got"; then
    echo "$name: digest identical to $want ($(wc -l <"$got") lines)"
    return
  fi
  # Which calls differ: a line of numbers only (a record of `out`) is
  # named after the call line before it.
  echo "$name: digest differs from $want: $(diff "$want" "$got" | grep -c '^<') of $(wc -l <"$want") lines, by call:"
  awk 'NR == FNR { a[FNR] = $0; next }
       { if (a[FNR] != $0) { k = $1; if (k ~ /^[-0-9]/) k = prev " (its out)"; n[k]++ }
         if ($1 !~ /^[-0-9]/) prev = $1 }
       END { for (k in n) printf "    %5d %s\n", n[k], k }' "$want" "$got" | sort -k2
  diff "$want" "$got" | head -n 12 | cut -c1-160 | sed 's/^/    /'
  fail "$name: digest differs from Linux ($got)"
}

for lua in luajit lua5.4; do
  run=$win/$lua/run
  echo "== Windows $lua: examples"
  if "$run" examples/demo.lua "$out/demo-$lua.svg" "$out/demo3d-$lua.svg" >"$out/demo-$lua.log" 2>&1; then
    echo "examples/demo.lua: ok"
  else cat "$out/demo-$lua.log"; fail "$lua: examples/demo.lua"; fi
  for e in $examples; do
    if "$run" "examples/$e.lua" >"$out/$e-$lua.log" 2>&1; then
      echo "examples/$e.lua: $(tail -n 1 "$out/$e-$lua.log")"
    else cat "$out/$e-$lua.log"; fail "$lua: examples/$e.lua"; fi
  done

  echo "== Windows $lua: the docs' Lua blocks"
  # shellcheck disable=SC2046
  "$run" test/cross/doc_blocks.lua $(ls docs/*.md) || fail "$lua: doc blocks"

  if [ "$lua" = luajit ]; then
    echo "== Windows luajit: obb.jit.status"
    status=$("$run" -e 'require "obb"; io.write(require("obb.jit").status)')
    echo "obb.jit.status: $status"
    [ "$status" = ffi ] || fail "luajit: obb.jit.status is '$status', not 'ffi'"
    status=$(OBB_NO_FFI=1 "$run" -e 'require "obb"; io.write(require("obb.jit").status)')
    echo "obb.jit.status with OBB_NO_FFI=1: $status"
  fi

  echo "== Windows $lua: finalizers calling obb at lua_close"
  for ffi in "" 1; do
    got=$(OBB_NO_FFI=$ffi "$run" test/cross/at_close.lua 2>&1)
    code=$?
    if [ "$code" = 0 ] && [ "$got" = closing ]; then echo "at_close.lua${ffi:+ (OBB_NO_FFI=1)}: ok"
    else echo "$got"; fail "$lua: test/cross/at_close.lua${ffi:+ (OBB_NO_FFI=1)}: status $code"; fi
    [ "$lua" = luajit ] || break
  done

  echo "== Windows $lua: the determinism digest"
  digest "$lua" "$run" "build/$lua/digest.txt" OBB_NO_FFI=
  if [ "$lua" = luajit ]; then
    digest luajit-classic "$run" build/luajit/digest.txt OBB_NO_FFI=1
  fi
done

if [ -n "$failed" ]; then
  echo "test-windows: failed:$failed"
  exit 1
fi
echo "test-windows: every check passed on Windows LuaJIT and Lua 5.4 (wine)"
