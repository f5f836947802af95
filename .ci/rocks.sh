#!/bin/sh
# LuaRocks check, for each Lua given (default: all five):
#   - the rockspec lists exactly the C sources in src/core/ and src/binding/,
#     and the Lua modules in lua/obb/
#     (a missing one would build a module with undefined symbols);
#   - `luarocks --lua-version=V make` installs into a temporary tree, and a
#     plain interpreter with only that tree on its paths requires obb,
#     obb.svg and obb.tiled and uses them;
#   - the rock is built as `make` builds the module: every compile command
#     has -ffp-contract=off, and the installed rock's determinism digest
#     (test/digest.lua) is byte for byte `make digest`'s; on an x86-64 CPU
#     with FMA, a rock built with FMA instructions allowed (CFLAGS
#     -mfma, as they are on ARM64 by default) gives the same digest too;
#   - `luarocks test` runs the busted suite against the module it built
#     (on the Luas in ROCKS_TEST, default lua5.4: `make test LUA=...` runs
#     the same suite on every Lua already), with Debian's busted, through
#     the rockspec's test script (test/luarocks_test.lua).
# LuaJIT builds with the 5.1 rockspec tooling and LuaJIT's headers.
#
#   sh .ci/rocks.sh [lua5.1 lua5.2 lua5.3 lua5.4 luajit]
#   ROCKS_TEST="lua5.1 luajit" sh .ci/rocks.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rockspec=obb-scm-1.rockspec

# The release rockspec is the scm one but for its version and source tag.
for release in obb-[0-9]*.rockspec; do
  v=${release#obb-}; v=${v%.rockspec}
  if ! sed -e "s/^version = \"$v\"/version = \"scm-1\"/" -e '/^   tag = /d' "$release" |
       diff -u "$rockspec" - >&2; then
    echo "rocks: $release differs from $rockspec beyond its version and tag" >&2
    exit 1
  fi
  grep -q "OBB_VERSION \"${v%-*}\"" include/obb.h ||
    { echo "rocks: $release is not the version obb.h says" >&2; exit 1; }
done

ls src/core/*.c src/binding/*.c | sort >"${TMPDIR:-/tmp}/obb-present"
grep -oE '"src/[a-z]+/[a-z0-9_]+\.c"' "$rockspec" | tr -d '"' | sort >"${TMPDIR:-/tmp}/obb-listed"
if ! diff -u "${TMPDIR:-/tmp}/obb-listed" "${TMPDIR:-/tmp}/obb-present" >&2; then
  echo "rocks: $rockspec's sources differ from src/core/ and src/binding/ (-listed +present)" >&2
  exit 1
fi

# and exactly the Lua modules in lua/obb/
ls lua/obb/*.lua | sort >"${TMPDIR:-/tmp}/obb-present"
grep -oE '"lua/obb/[a-z0-9_]+\.lua"' "$rockspec" | tr -d '"' | sort >"${TMPDIR:-/tmp}/obb-listed"
if ! diff -u "${TMPDIR:-/tmp}/obb-listed" "${TMPDIR:-/tmp}/obb-present" >&2; then
  echo "rocks: $rockspec's Lua modules differ from lua/obb/ (-listed +present)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# digest LUA TREE VERSION OUT: test/digest.lua on the rock in TREE, with
# only that tree on the paths
digest() {
  (cd /tmp && LUA_CPATH="$2/lib/lua/$3/?.so" \
    LUA_PATH="$2/share/lua/$3/?.lua;$2/share/lua/$3/?/init.lua" \
    "$1" "$root/test/digest.lua") >"$4"
}

for lua in ${*:-lua5.1 lua5.2 lua5.3 lua5.4 luajit}; do
  case $lua in
    luajit) ver=5.1; vars="LUA_INCDIR=/usr/include/luajit-2.1" ;;
    lua5.[1-4]) ver=${lua#lua}; vars="" ;;
    *) echo "rocks: unknown Lua '$lua'" >&2; exit 2 ;;
  esac
  tree=$work/tree-$lua
  # A copy of the sources: the build leaves objects where it runs.
  copy=$work/src-$lua
  mkdir "$copy"
  # (examples/maps: the maps spec/tiled_spec.lua and spec/platformer_move_spec.lua
  # load; examples/love-platformer: the game the latter plays;
  # examples/love-racing: the game spec/love_racing_spec.lua plays;
  # examples/embed: the host spec/doc_embed_spec.lua holds the manual to;
  # the release rockspec: spec/doc_install_spec.lua reads its source)
  mkdir -p "$copy/examples"
  cp -R include src lua spec test docs mk Makefile .busted README.md obb-*.rockspec "$copy/"
  cp -R examples/maps examples/love-platformer examples/love-racing examples/embed "$copy/examples/"
  log=$work/$lua.log
  # shellcheck disable=SC2086
  if ! (cd "$copy" && luarocks --lua-version="$ver" --tree="$tree" make "$rockspec" $vars) >"$log" 2>&1; then
    cat "$log"; echo "rocks: luarocks make failed for $lua" >&2; exit 1
  fi
  (cd /tmp && LUA_CPATH="$tree/lib/lua/$ver/?.so" \
    LUA_PATH="$tree/share/lua/$ver/?.lua;$tree/share/lua/$ver/?/init.lua" \
    "$lua" -e '
      local obb = require "obb"
      local svg = require "obb.svg"
      local tiled = require "obb.tiled"
      assert(obb.new2(0, 0, 1, 1):intersects(obb.new2(2, 0, 1, 1)))
      assert(not obb.new3(0, 0, 0, 1, 1, 1):intersects(obb.new3(3, 0, 0, 1, 1, 1)))
      assert(svg.new():box(obb.new2(0, 0, 1, 1)):tostring():find("<polygon", 1, true))
      assert(select(3, tiled.box({ shape = "rectangle", x = 0, y = 0, width = 4, height = 2 })) == 2)
      io.write("rocks: ", (jit and jit.version or _VERSION), ": obb ", obb._VERSION, " from the rock tree\n")')

  # Built as `make` builds it: -ffp-contract=off on every compile command
  # (LuaRocks' builtin type would drop it), and the same answers, bit for
  # bit, as the module `make` builds for this Lua.
  compiles=$(grep -cE ' -c src/[a-z]+/[a-z0-9_]+\.c' "$log" || true)
  [ "$compiles" -ge 40 ] || { cat "$log"; echo "rocks: $lua: no compile commands in the log" >&2; exit 1; }
  if grep -E ' -c src/[a-z]+/[a-z0-9_]+\.c' "$log" | grep -v -e '-ffp-contract=off' >&2; then
    echo "rocks: $lua: the rock compiled these without -ffp-contract=off" >&2; exit 1
  fi
  digest "$lua" "$tree" "$ver" "$work/digest-$lua.txt"
  make -s digest LUA="$lua" DIGEST_OUT="$work/make-digest-$lua.txt" >/dev/null
  if ! cmp "$work/make-digest-$lua.txt" "$work/digest-$lua.txt" >&2; then
    echo "rocks: $lua: the rock's digest differs from make's (test/digest.lua)" >&2; exit 1
  fi
  echo "rocks: $lua: $compiles files compiled with -ffp-contract=off, digest as make's ($(wc -l <"$work/digest-$lua.txt") lines)"

  # With FMA instructions allowed, a compiler that contracts a*b + c would
  # change the answers (GCC in its GNU modes does, as on ARM64, where
  # they are there by default); the rock must not. GCC 12's SLP vectorizer
  # fuses some pairs despite -ffp-contract=off (docs/precision.md): left
  # out here, as it is not what this checks.
  if [ "$lua" = lua5.4 ] && [ "$(uname -m)" = x86_64 ] && grep -qw fma /proc/cpuinfo; then
    ftree=$work/tree-fma-$lua
    if ! (cd "$copy" && luarocks --lua-version="$ver" --tree="$ftree" make "$rockspec" \
          CFLAGS="-O2 -fPIC -mfma -fno-tree-slp-vectorize") >"$log" 2>&1; then
      cat "$log"; echo "rocks: luarocks make (CFLAGS with -mfma) failed for $lua" >&2; exit 1
    fi
    digest "$lua" "$ftree" "$ver" "$work/digest-fma-$lua.txt"
    if ! cmp "$work/make-digest-$lua.txt" "$work/digest-fma-$lua.txt" >&2; then
      echo "rocks: $lua: a rock built with -mfma answers differently from make's module" >&2; exit 1
    fi
    echo "rocks: $lua: built with -mfma, the digest is still make's"
  fi

  case " ${ROCKS_TEST:-lua5.4} " in *" $lua "*) ;; *) continue ;; esac
  if ! (cd "$copy" && luarocks --lua-version="$ver" --tree="$tree" test "$rockspec") >"$log" 2>&1; then
    tail -n 40 "$log"; echo "rocks: luarocks test failed for $lua" >&2; exit 1
  fi
  echo "rocks: $lua: luarocks test: $(grep -E '^[0-9]+ successes' "$log" | tail -n 1)"
done
