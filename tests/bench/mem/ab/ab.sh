#!/bin/sh
# A/B benchmark of the inline dictionary: the runtime at a git revision (base) against the
# working tree's (work) and stb_ds, in one process, rounds interleaved, so a change to
# runtime/threadlink/mem*.h can be judged on a noisy machine. Prints medians and ratios; never
# fails on time.
#   tests/bench/mem/ab/ab.sh [REV [CAPACITY [LOAD [ROUNDS]]]]    (default: HEAD 1024 0.9 102)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
rev=${1:-HEAD}
cc=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$rev" runtime | tar -x -C "$work"
flags="-O2 -DNDEBUG -std=gnu11 -Wall -Wextra -I$here -I$here/.."
$cc $flags -DAB_SIDE=base -I"$work/runtime" -c "$here/ab_table.c" -o "$work/base.o"
$cc $flags -DAB_SIDE=work -I"$root/runtime" -c "$here/ab_table.c" -o "$work/work.o"
$cc $flags -DAB_SIDE=stb -DAB_STB -c "$here/ab_table.c" -o "$work/stb.o"
$cc $flags "$here/ab_main.c" "$work/base.o" "$work/work.o" "$work/stb.o" -o "$work/ab"
echo "base: $rev ($(git -C "$root" rev-parse --short "$rev")), work: $root/runtime"
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c $(($(nproc) - 1))" # the last CPU
$pin "$work/ab" "${2:-1024}" "${3:-0.9}" "${4:-102}"
