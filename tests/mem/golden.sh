#!/bin/sh
# Golden hash of the inline collections: golden_mem.c, built with gcc and clang as C99 and C++17 at
# -O0 and -O2 (and -O3 -ffast-math, which must not matter either, and -O2 on the tables' portable
# path, TL_MEM_NO_SIMD), must write byte-identical blocks whose XXH64 is the pinned value.
# Usage: golden.sh RUNTIME_DIR golden_mem.c PINNED_HASH
set -u
runtime=$1
source=$2
pinned=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
builds=0
failed=0
reference=
for cc in gcc clang g++ clang++; do
  command -v "$cc" >/dev/null 2>&1 || continue
  case $cc in *++) lang="-x c++ -std=c++17" ;; *) lang="-std=c99" ;; esac
  for opt in -O0 -O2 "-O3 -ffast-math" "-O2 -DTL_MEM_NO_SIMD"; do
    name=$(echo "$cc$opt" | tr -c 'A-Za-z0-9+\n' '_')
    if ! $cc $lang $opt -Wall -Wextra -Wpedantic -Werror -I"$runtime" "$source" -o "$work/$name" \
        2>"$work/$name.err"; then
      echo "FAIL: $cc $opt does not compile"; cat "$work/$name.err"; failed=$((failed + 1)); continue
    fi
    out=$("$work/$name" "$work/$name.bin" 2>"$work/$name.log") ||
      { echo "FAIL: $cc $opt did not run"; cat "$work/$name.log"; failed=$((failed + 1)); continue; }
    [ "$builds" = 0 ] && echo "final state: $(cat "$work/$name.log")"
    builds=$((builds + 1))
    hash=${out%% *}
    order=${out#* }
    echo "$cc $opt: $hash ($order)"
    if [ -z "$reference" ]; then reference=$work/$name.bin
    elif ! cmp -s "$reference" "$work/$name.bin"; then
      echo "FAIL: $cc $opt wrote other bytes than the first build"; failed=$((failed + 1))
    fi
    if [ "$order" = little-endian ] && [ "$hash" != "$pinned" ]; then
      echo "FAIL: $cc $opt: hash $hash, pinned $pinned"; failed=$((failed + 1))
    fi
  done
done
echo "$builds builds, $failed failed"
[ "$builds" -ge 2 ] && [ "$failed" = 0 ]
