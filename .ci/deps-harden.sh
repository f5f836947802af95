#!/bin/sh
# Installs, from Debian's packages and only when missing, what the
# hardening targets need: clang with its sanitizer and libFuzzer runtimes
# (make sanitize, make fuzz) and valgrind (make valgrind). Usage:
#   sh .ci/deps-harden.sh sanitize|fuzz|valgrind [clang]
set -e
what=$1
cc=${2:-clang}
need=""
case $what in
  sanitize|fuzz)
    command -v "$cc" >/dev/null 2>&1 || need="clang"
    # The runtimes ship apart from the compiler on Debian (libclang-rt-N-dev).
    if command -v "$cc" >/dev/null 2>&1; then
      rt=$("$cc" -print-file-name=libclang_rt.asan-x86_64.so)
      [ -f "$rt" ] || need="$need libclang-rt-$("$cc" -dumpversion | cut -d. -f1)-dev"
    else
      need="$need libclang-rt-14-dev"
    fi ;;
  valgrind)
    command -v valgrind >/dev/null 2>&1 || need="valgrind" ;;
  *) echo "deps-harden.sh: unknown target '$what'" >&2; exit 2 ;;
esac
[ -n "$need" ] || exit 0
echo "installing:$need"
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
