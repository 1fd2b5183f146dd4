#!/bin/sh
# Golden hash of the inline collections: golden_mem.c, built with gcc and clang as C99 and C++17 at
# -O0 and -O2 (and -O3 -ffast-math, which must not matter either, and -O2 on the tables' portable
# path, TL_MEM_NO_SIMD), and with gcc and clang for the targets of tests/cross/targets.sh under
# qemu-user (32-bit ARM, 64-bit ARM with NEON, big-endian s390x) and Wine (64-bit Windows), must
# write byte-identical blocks whose XXH64 is the pinned value.
# Usage: golden.sh RUNTIME_DIR golden_mem.c PINNED_HASH
set -u
runtime=$1
source=$2
pinned=$3
work=$(mktemp -d)
trap 'tl_cross_finish "$work"; rm -rf "$work"' EXIT
. "$(dirname "$0")/../cross/targets.sh"
builds=0
failed=0
reference=
exe= # the target's executable suffix (.exe for Windows)

# build LABEL RUNNER COMPILER FLAGS...: compiles golden_mem.c, runs it (through RUNNER unless it
# is "-") and checks its block and hash.
build() {
  label=$1 runner=$2; shift 2
  name=$(echo "$label" | tr -c 'A-Za-z0-9+\n' '_')
  if ! "$@" -Wall -Wextra -Wpedantic -Werror -I"$runtime" "$source" -o "$work/$name$exe" \
      2>"$work/$name.err"; then
    echo "FAIL: $label does not compile"; cat "$work/$name.err"; failed=$((failed + 1)); return
  fi
  [ "$runner" = - ] && runner=
  out=$($runner "$work/$name$exe" "$work/$name.bin" 2>"$work/$name.log") ||
    { echo "FAIL: $label did not run"; cat "$work/$name.log"; failed=$((failed + 1)); return; }
  [ "$builds" = 0 ] && echo "final state: $(cat "$work/$name.log")"
  builds=$((builds + 1))
  hash=${out%% *}
  echo "$label: $hash (${out#* })"
  if [ -z "$reference" ]; then reference=$work/$name.bin
  elif ! cmp -s "$reference" "$work/$name.bin"; then
    echo "FAIL: $label wrote other bytes than the first build"; failed=$((failed + 1))
  fi
  if [ "$hash" != "$pinned" ]; then echo "FAIL: $label: hash $hash, pinned $pinned"; failed=$((failed + 1)); fi
}

for cc in gcc clang g++ clang++; do
  command -v "$cc" >/dev/null 2>&1 || continue
  case $cc in *++) lang="-x c++ -std=c++17" ;; *) lang="-std=c99" ;; esac
  for opt in -O0 -O2 "-O3 -ffast-math" "-O2 -DTL_MEM_NO_SIMD"; do
    build "$cc $opt" - $cc $lang $opt
  done
done
for target in ${TL_CROSS_ONLY:-$tl_cross_targets}; do
  tl_cross_ready "$target" "$work" || continue
  exe=$tl_cross_exe
  for cc in "$tl_cross_gcc" "$tl_cross_clang"; do
    [ -n "$cc" ] || continue
    for opt in -O0 -O2; do
      build "$cc $opt" "$tl_cross_run" $cc $tl_cross_flags -std=c99 $opt
    done
  done
done
echo "$builds builds, $failed failed"
[ "$builds" -ge 2 ] && [ "$failed" = 0 ] && [ "$tl_cross_missing" = 0 ]
