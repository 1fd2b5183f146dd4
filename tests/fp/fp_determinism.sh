#!/bin/sh
# Bit-identical results everywhere: build fp_determinism.c with gcc and clang at -O0, -O2 and -O3,
# with the portable 128-bit path forced, as C++, and as 32-bit code where a multilib toolchain is
# installed (no __int128 there), and with gcc and clang for the targets of tests/cross/targets.sh
# under qemu-user (32-bit ARM, 64-bit ARM, big-endian s390x) and Wine (64-bit Windows); run each
# and compare its hash with the pinned one.
#   fp_determinism.sh RUNTIME_DIR TESTS_FP_DIR
set -u
runtime=$1
src=$2/fp_determinism.c
# The pinned hash of the corpus and the chained computation. It changes only when a result of
# fp.h or rng.h changes, which is a breaking change for saved games and replays.
expected="9835ba2d7865d4c2 588000"
work=$(mktemp -d)
trap 'tl_cross_finish "$work"; rm -rf "$work"' EXIT
. "$(dirname "$0")/../cross/targets.sh"
ran=0
failed=0
runner=
exe= # the target's executable suffix (.exe for Windows)
try() { # label compiler flags... (run through $runner when set)
  label=$1; cc=$2; shift 2
  command -v "$cc" >/dev/null 2>&1 || { echo "skip: $label ($cc not installed)"; return 0; }
  if ! "$cc" "$@" -I"$runtime" "$src" -o "$work/det$exe" 2>"$work/err"; then
    case $label in *m32*) echo "skip: $label (no 32-bit toolchain)"; return 0 ;; esac
    echo "FAIL: $label does not compile"; cat "$work/err"; failed=$((failed + 1)); return 0
  fi
  got=$($runner "$work/det$exe")
  ran=$((ran + 1))
  if [ "$got" = "$expected" ]; then echo "ok:   $label  $got"
  else echo "FAIL: $label  $got (pinned $expected)"; failed=$((failed + 1)); fi
}
for cc in gcc clang; do
  for opt in -O0 -O2 -O3; do
    try "$cc $opt" "$cc" -std=c99 "$opt"
    try "$cc $opt portable" "$cc" -std=c99 "$opt" -DTL_FP_PORTABLE_128
  done
  try "$cc -O2 -march=native -ffast-math" "$cc" -std=c11 -O2 -march=native -ffast-math
  try "$cc -O2 -m32" "$cc" -std=c99 -O2 -m32
done
try "g++ -O2 (C++17)" g++ -x c++ -std=c++17 -O2
try "clang++ -O3 (C++17)" clang++ -x c++ -std=c++17 -O3
for target in ${TL_CROSS_ONLY:-$tl_cross_targets}; do
  tl_cross_ready "$target" "$work" || continue
  runner=$tl_cross_run
  exe=$tl_cross_exe
  for opt in -O0 -O2; do
    try "$triplet gcc $opt" $tl_cross_gcc $tl_cross_flags -std=c99 $opt
    [ -z "$tl_cross_clang" ] || try "$triplet clang $opt" $tl_cross_clang $tl_cross_flags -std=c99 $opt
  done
  runner=
  exe=
done
echo "$ran builds, $failed failed"
[ "$ran" -gt 0 ] && [ "$failed" = 0 ] && [ "$tl_cross_missing" = 0 ]
