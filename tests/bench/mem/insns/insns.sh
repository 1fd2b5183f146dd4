#!/bin/sh
# Instructions per dictionary operation on another processor, counted exactly under qemu-user
# (each executed instruction logged once): the runtime at git revision REV (base) against the
# working tree's (work), 1,024 slots, loads 0.5 and 0.9. A count is not a time, but it needs no
# hardware of that kind: use it to judge a change of the NEON or word path where no ARM machine
# is at hand. The loop's own instructions (mode "none") are subtracted.
#   tests/bench/mem/insns/insns.sh [REV [TRIPLET:QEMU_ARCH]]     (default: HEAD aarch64-linux-gnu:aarch64)
# BASE_CFLAGS / WORK_CFLAGS add flags to one side, e.g. BASE_CFLAGS=-DTL_MEM_NO_SIMD compares the
# word path with the NEON path of the same code.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
rev=${1:-HEAD}
target=${2:-aarch64-linux-gnu:aarch64}
work=$(mktemp -d)
trap 'tl_cross_finish "$work"; rm -rf "$work"' EXIT
. "$root/tests/cross/targets.sh"
tl_cross_ready "$target" "$work" || exit 1
git -C "$root" archive "$rev" runtime | tar -x -C "$work"
$tl_cross_cc -O2 -DNDEBUG ${BASE_CFLAGS:-} -I"$work/runtime" -I"$here/.." "$here/ops.c" -o "$work/base"
$tl_cross_cc -O2 -DNDEBUG ${WORK_CFLAGS:-} -I"$root/runtime" -I"$here/.." "$here/ops.c" -o "$work/work"
count() { # program mode n load -> instructions executed
  $tl_cross_run -singlestep -d exec,nochain -D "$work/trace" "$work/$1" "$2" "$3" "$4"
  grep -c '^Trace' "$work/trace"
}
per_op() { # program mode load -> instructions per operation, the loop's own subtracted
  a=$(count "$1" "$2" 2000 "$3"); b=$(count "$1" "$2" 4000 "$3")
  c=$(count "$1" none 2000 "$3"); e=$(count "$1" none 4000 "$3")
  echo $(( (b - a - (e - c)) / 2000 ))
}
echo "base: $rev ($(git -C "$root" rev-parse --short "$rev")) ${BASE_CFLAGS:-}," \
  "work: $root/runtime ${WORK_CFLAGS:-}, $triplet"
printf '%-6s %-5s %8s %8s %10s\n' load op base work work/base
for load in 0.5 0.9; do
  for op in hit miss churn; do
    b=$(per_op base $op $load); w=$(per_op work $op $load)
    printf '%-6s %-5s %8d %8d %10s\n' "$load" "$op" "$b" "$w" "$(awk "BEGIN { printf \"%.2fx\", $w / $b }")"
  done
done
