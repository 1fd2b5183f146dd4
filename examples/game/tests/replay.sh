#!/bin/sh
# game-replay: tests/replay.inputs replayed headlessly must give the pinned frame hashes
# (tests/replay.hashes) from the build's game-headless, from the driver rebuilt with gcc and clang
# at -O0 and -O2, and from the little-endian cross targets the runtime is tested on (64-bit and
# 32-bit ARM under qemu-user, 64-bit Windows under Wine; missing ones are skipped, and fail under
# CI=true). A
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
  exe="$tmp/$(echo "$name" | tr ' ' '_')${tl_cross_exe:-}"
  if ! "$cc" -std=c11 "$@" -I"$runtime" -I"$src/generated" -I"$src/src" $sources -o "$exe" -lm 2> "$tmp/cc.log"; then
    echo "FAIL: $name does not build:"; head -20 "$tmp/cc.log"; fail=1; return 0
  fi
  $runner "$exe" "$content" replay "$inputs" 250 2> /dev/null | tr -d '\r' > "$tmp/out.txt" || true
  check "$name" "$tmp/out.txt"
}
for cc in gcc clang; do
  for opt in -O0 -O2; do build_and_run "$cc $opt" "" "$cc" "$opt"; done
done

# Cross targets (tests/cross/targets.sh): static builds run by qemu-user or Wine. Big-endian s390x
# is left out: the frame block's own fields are native-endian, so its hashes differ there.
. "$src/../../tests/cross/targets.sh"
for target in $tl_cross_targets; do
  case $target in s390x-*) echo "skip: $target (big-endian: the block's fields are native-endian)"; continue ;; esac
  tl_cross_ready "$target" "$tmp" || { [ "$tl_cross_missing" = 0 ] || fail=1; continue; }
  [ -e "$tmp/xxhash-include/stb" ] || ln -s /usr/include/stb "$tmp/xxhash-include/stb"
  build_and_run "$triplet" "$tl_cross_run" "$tl_cross_gcc" -O2 $tl_cross_flags
done
tl_cross_finish "$tmp"
exit $fail
