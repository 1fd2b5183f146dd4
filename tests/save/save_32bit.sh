#!/bin/sh
# save.h in 32-bit Linux builds WITHOUT -D_FILE_OFFSET_BITS=64 (plain gcc, Make and CMake users;
# Meson passes the flag, so the cross builds of tests/cross never see this case): there, glibc's
# readdir and fstat fail with EOVERFLOW on an inode number or a directory offset past 32 bits,
# and save.h could not list its folder. save_lfs.c is built for 32-bit ARM (gcc and clang, strict
# C99 and with _LARGEFILE64_SOURCE) and run under qemu-arm on a folder in WORK_PARENT. A probe
# (plain readdir, the same build) shows whether that file system does overflow such a build:
# ext4 does under qemu-user (its directory offsets are 64-bit hashes), so does any file system
# with 64-bit inode numbers (XFS, btrfs, NFS, overlayfs); tmpfs usually does not, and then the
# test shows only that the build works. Skipped when the cross compiler or qemu is missing, a
# failure under CI=true (tests/cross/targets.sh).
#   save_32bit.sh RUNTIME_DIR TESTS_SAVE_DIR WORK_PARENT
set -u
runtime=$1
src=$2/save_lfs.c
mkdir -p "$3"
work=$(mktemp -d "$3/save32.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=../cross/targets.sh
. "$(dirname "$0")/../cross/targets.sh"
if ! tl_cross_ready arm-linux-gnueabihf:arm "$work"; then
  [ "$tl_cross_missing" = 0 ]
  exit $?
fi
failed=0
ran=0
cat >"$work/probe.c" <<'EOF'
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
int main(int argc, char **argv) {
    DIR *d = opendir(argv[1]);
    if (!d) return 2;
    errno = 0;
    while (readdir(d)) errno = 0;
    return errno == EOVERFLOW ? 1 : 0;
}
EOF
mkdir "$work/probe"
: >"$work/probe/a"
: >"$work/probe/b"
# Compiler commands and flags are word lists (targets.sh): split on purpose below.
# shellcheck disable=SC2086
if $tl_cross_gcc $tl_cross_flags -std=c99 -O1 "$work/probe.c" -o "$work/probe.bin" &&
  ! $tl_cross_run "$work/probe.bin" "$work/probe"; then
  echo "note: readdir in this build fails with EOVERFLOW on $3 (what save.h must not need)"
else
  echo "note: readdir in this build does not overflow on $3 (small inode numbers and offsets):"
  echo "      this run shows only that save.h builds and works there"
fi
try() { # label compiler flags...
  label=$1
  shift
  if ! "$@" -I"$runtime" "$src" -o "$work/save" 2>"$work/err"; then
    echo "FAIL: $label does not compile"
    cat "$work/err"
    failed=$((failed + 1))
    return 0
  fi
  rm -rf "$work/store"
  out=$($tl_cross_run "$work/save" "$work/store" 2>&1)
  status=$?
  ran=$((ran + 1))
  if [ "$status" = 0 ] && [ "$out" = ok ]; then
    echo "ok:   $label"
  else
    echo "FAIL: $label (exit $status)"
    echo "$out"
    failed=$((failed + 1))
  fi
}
warn="-Wall -Wextra -Wpedantic -Werror"
# shellcheck disable=SC2086
try "arm gcc -std=c99" $tl_cross_gcc $tl_cross_flags $warn -std=c99 -O2
# shellcheck disable=SC2086
try "arm gcc -std=gnu11 -D_LARGEFILE64_SOURCE" $tl_cross_gcc $tl_cross_flags $warn -std=gnu11 -O2 -D_LARGEFILE64_SOURCE
# shellcheck disable=SC2086
[ -z "$tl_cross_clang" ] || try "arm clang -std=c99" $tl_cross_clang $tl_cross_flags $warn -std=c99 -O2
echo "$ran builds, $failed failed"
[ "$ran" -gt 0 ] && [ "$failed" = 0 ]
