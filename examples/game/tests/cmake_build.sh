#!/bin/sh
# game-cmake: examples/game built with CMake (Ninja) against an installed threadlink (meson
# install --destdir of this build) through find_package(threadlink) and threadlink_generate(...
# SCOPE PUBLIC PACK Game): the window and the headless driver build, the headless driver replays
# tests/replay.inputs to the pinned hashes from the content CMake packed, a second build does
# nothing, and nothing is written into the source tree.
#   cmake_build.sh SOURCE_ROOT BUILD_ROOT
set -eu
root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
src=$root/examples/game
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
command -v cmake > /dev/null 2>&1 || { echo "skip: cmake is not installed"; [ "${CI:-}" != true ]; exit $?; }

meson install -C "$build" --no-rebuild --destdir "$work/dest" --quiet > /dev/null || fail "meson install"
prefix=$work/dest$(meson introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
sum() { find "$src" -type f -print | sort | xargs md5sum; }
sum > "$work/source.sum"
cmake -S "$src" -B "$work/b" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/cfg.log" 2>&1 ||
  { cat "$work/cfg.log"; fail "configure"; }
cmake --build "$work/b" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "build"; }
[ -x "$work/b/game" ] || fail "no game executable"
content=$work/b/threadlink/content/Game
[ -f "$content/archives.json" ] || fail "no packed content in $content"
"$work/b/game-headless" "$content" replay "$src/tests/replay.inputs" 250 > "$work/hashes" 2> /dev/null ||
  fail "the CMake game-headless does not replay"
grep -v '^#' "$src/tests/replay.hashes" | cmp -s - "$work/hashes" || fail "the CMake build gives other frame hashes"
out=$(cmake --build "$work/b" -- -v 2>&1) || { echo "$out"; fail "second build"; }
echo "$out" | grep -q "no work to do" || { echo "$out"; fail "the second build did work"; }
sum | cmp -s - "$work/source.sum" || fail "the build wrote into the source tree"
echo "ok: CMake build, pinned hashes reproduced"
