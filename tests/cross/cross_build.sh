#!/bin/sh
# The header-only runtime's unit tests on another processor or system (tests/cross/targets.sh):
# a Meson cross build of this project (tests/cross/TRIPLET.ini) under the native build directory,
# configured once and then rebuilt as sources change, whose `meson test --suite unit` runs the
# tests through the cross file's exe_wrapper (qemu-user or Wine; tests/cross/host/meson.build).
#   cross_build.sh SOURCE_ROOT CROSS_BUILD_DIR THREADLINK_GEN TRIPLET:RUNNER
# The cross build leaves the generator out (-Dgenerator=false) and packs its content fixtures with
# THREADLINK_GEN, the native build's, found on the PATH. Missing cross tools skip the test, or fail
# it under CI (CI=true), where tests/debian-packages.txt installed them.
set -u
root=$1 dir=$2 gen=$3 target=$4
. "$root/tests/cross/targets.sh"
triplet=${target%:*} runner=${target#*:}
if [ "$runner" = wine ]; then
  program=/usr/lib/wine/wine64
  WINEPREFIX=$(tl_cross_wine_prefix_of "$dir") # the Wine state (targets.sh), stopped on exit
  export WINEPREFIX
  trap 'tl_cross_finish "$dir"' EXIT
else
  program=qemu-$runner
fi
if ! command -v "$triplet-gcc" >/dev/null 2>&1 || ! command -v "$program" >/dev/null 2>&1; then
  echo "skip: $triplet ($triplet-gcc or $program not installed)"
  [ "${CI:-}" = true ] && { echo "FAIL: under CI the cross tools must be installed"; exit 1; }
  exit 77
fi
PATH=$(dirname "$gen"):$PATH
export PATH
[ -f "$dir/build.ninja" ] || rm -rf "$dir"
# (before meson setup, whose sanity check runs a program through the exe_wrapper)
[ "$runner" = wine ] && tl_cross_wine_server "$WINEPREFIX"
# -Ddebug=false: without debug information, which nothing here reads and which cost a fifth of
# the cross compilers' time (gcc's code does not depend on -g). -Doptimization=1, asserts on: the
# property here is that the unit suite passes on the target, and -O1 takes a quarter less CPU than
# -O2 for the compiles and the runs under qemu and Wine together (180 -> 141 s of CPU for the four
# targets); -O2 code on these targets is what fp-determinism, mem-golden and game-replay check
# against pinned hashes. (-O0 compiles in half -O1's time but runs the tests three times slower
# under qemu.) A build directory configured before these options gets them too.
options="-Ddebug=false -Doptimization=1"
if [ ! -f "$dir/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson setup --cross-file "$root/tests/cross/$triplet.ini" -Dgenerator=false $options "$dir" "$root" \
      >"$dir.setup.log" 2>&1 ||
    { echo "FAIL: $triplet: meson setup"; cat "$dir.setup.log"; exit 1; }
elif ! grep -q '"name": "debug", "value": false' "$dir/meson-info/intro-buildoptions.json" ||
     ! grep -q '"name": "optimization", "value": "1"' "$dir/meson-info/intro-buildoptions.json"; then
  # shellcheck disable=SC2086
  meson configure "$dir" $options >"$dir.setup.log" 2>&1 ||
    { echo "FAIL: $triplet: meson configure"; cat "$dir.setup.log"; exit 1; }
fi
# What the unit suite runs (with the runtime's static library, which its tests link), not
# everything. build.ninja first: a meson.build changed since the last run regenerates the
# introspection the targets are read from.
{ ninja -C "$dir" build.ninja && targets=$(python3 "$root/tests/suite_targets.py" "$dir" unit) &&
  ninja -C "$dir" -j 2 $targets; } >"$dir.compile.log" 2>&1 ||
  { echo "FAIL: $triplet: the unit tests do not build"; cat "$dir.compile.log"; exit 1; }
meson test -C "$dir" --no-rebuild --suite unit --num-processes 2 --print-errorlogs
