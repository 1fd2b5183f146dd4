#!/bin/sh
# game-replay: tests/replay.inputs replayed headlessly must give the pinned frame hashes
# (tests/replay.hashes) from the build's game-headless, from the driver rebuilt with gcc and clang
# at -O0 and -O2, and from the little-endian cross targets the runtime is tested on (64-bit and
# 32-bit ARM under qemu-user, 64-bit Windows under Wine) where their compilers are installed. A
# save halfway through, continued in a new game, must end on the straight run's hash.
#   replay.sh GAME_HEADLESS CONTENT_DIR GAME_SOURCE_DIR RUNTIME_DIR
set -eu
headless=$1 content=$2 src=$3 runtime=$4
inputs=$src/tests/replay.inputs
pinned=$src/tests/replay.hashes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
grep -v '^#' "$pinned" > "$tmp/pinned"
fail=0

check() { # NAME HASHES_FILE
  if cmp -s "$tmp/pinned" "$2"; then
    echo "ok: $1 ($(wc -l < "$2") pinned hashes)"
  else
    echo "FAIL: $1 gives other frame hashes:"; diff "$tmp/pinned" "$2" | head -5; fail=1
  fi
}

# The build's own driver, then a save and continue.
"$headless" "$content" replay "$inputs" 250 > "$tmp/build.txt"
check "the build's game-headless" "$tmp/build.txt"
mkdir "$tmp/saves"
"$headless" "$content" continue "$inputs" "$tmp/saves" || { echo "FAIL: save and continue"; fail=1; }

sources="$src/src/sim.c $src/src/game.c $src/src/inputs.c $src/src/headless.c $src/src/runtime.c"
build_and_run() { # NAME RUNNER CC FLAGS...
  name=$1 runner=$2 cc=$3; shift 3
  if ! command -v "$cc" > /dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then echo "FAIL: $cc missing"; fail=1; else echo "skip: $name ($cc missing)"; fi
    return 0
  fi
  exe="$tmp/$(echo "$name" | tr ' ' '_')"
  if ! "$cc" -std=c11 "$@" -I"$runtime" -I"$src/generated" -I"$src/src" $sources -o "$exe" -lm 2> "$tmp/cc.log"; then
    echo "FAIL: $name does not build:"; head -20 "$tmp/cc.log"; fail=1; return 0
  fi
  $runner "$exe" "$content" replay "$inputs" 250 > "$tmp/out.txt" 2> /dev/null || true
  check "$name" "$tmp/out.txt"
}
for cc in gcc clang; do
  for opt in -O0 -O2; do build_and_run "$cc $opt" "" "$cc" "$opt"; done
done

# Cross targets (tests/cross): xxhash.h alone on the include path, static, run by the emulator.
mkdir "$tmp/xxhash-include"
ln -s /usr/include/xxhash.h "$tmp/xxhash-include/xxhash.h"
ln -s /usr/include/stb "$tmp/xxhash-include/stb"
cross() { # NAME CC RUNNER
  if ! command -v "$3" > /dev/null 2>&1 && [ "$3" != wine_run ]; then
    echo "skip: $1 ($3 missing)"; return 0
  fi
  build_and_run "$1" "$3" "$2" -O2 -static -idirafter "$tmp/xxhash-include"
}
wine_run() { WINEDEBUG=-all /usr/lib/wine/wine64 "$@"; }
cross "aarch64 (qemu)" aarch64-linux-gnu-gcc qemu-aarch64
cross "armhf (qemu)" arm-linux-gnueabihf-gcc qemu-arm
if [ -x /usr/lib/wine/wine64 ]; then cross "x86_64 Windows (Wine)" x86_64-w64-mingw32-gcc wine_run; else echo "skip: Windows (no Wine)"; fi
exit $fail
