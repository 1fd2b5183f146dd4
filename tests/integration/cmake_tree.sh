#!/bin/sh
# threadlink built by CMake alone, inside a consumer's build (tests/integration/cmake_tree/:
# add_subdirectory, or FetchContent with -DTHREADLINK_FETCH=ON), with examples/cmake's project:
# the first build makes the generator and the program and runs; the next ones do nothing (the
# first configures again once, with the outputs the generator listed, compiling nothing); an injector edit
# recompiles only what includes its header; a new domain's header builds at once and is declared
# by the next build; the warning of an entry not recorded names the build's generate target, which
# records it; the build writes nothing into either source tree. With add_subdirectory, a consumer
# compiles both SDL2 backends through threadlink::sdl2 (sdl2_consumer.sh). With `golden`, every
# golden case (tests/gen/golden/run.py) runs against the CMake-built threadlink-gen.
#   cmake_tree.sh SOURCE_ROOT GENERATOR subdirectory|fetchcontent [golden]
set -eu
root=$(cd "$1" && pwd)
generator=$2
mode=$3
golden=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v cmake >/dev/null 2>&1 || { echo "skip: cmake is not installed"; [ "${CI:-}" != true ]; exit $?; }

p=$work/p
mkdir "$p"
cp -a "$root/examples/cmake/src" "$root/examples/cmake/injectors" "$root/examples/cmake/assets" \
      "$root/examples/cmake/generated" "$root/examples/cmake/threadlink.json" "$p/"
cp "$root/tests/integration/cmake_tree/CMakeLists.txt" "$p/"
cd "$p"
root_before=$(cd "$root" && git status --porcelain --ignored | grep -v -e '^!! build' | md5sum)

fetch=OFF
[ "$mode" = fetchcontent ] && fetch=ON
cmake -S . -B build -G "$generator" -DTHREADLINK_SOURCE="$root" -DTHREADLINK_FETCH=$fetch >"$work/cfg.log" 2>&1 ||
  { cat "$work/cfg.log"; fail "$generator/$mode: configure"; }
b() { cmake --build build -j 2 -- $([ "$generator" = Ninja ] && echo -v || echo VERBOSE=1) 2>&1; }
compiled() { echo "$1" | grep -o -E -e "-c [^ ]*/src/[a-z]+\.c" | sed 's|.*src/||' | sort | tr '\n' ' '; }
ran() { echo "$1" | grep -c -e "threadlink-gen\"* $2 -" || true; }
# An edit made within milliseconds of a build can share the file system's timestamp tick (the
# kernel's coarse clock) with an output that build wrote, and Ninja then sees no input newer than
# it: an edit waits a tick first, as every edit a person makes does. (Without the wait the
# new domain's edit below was missed in 3 to 6 runs of 8 on a loaded 2-core machine.)
edit_later() { sleep 0.1; }
idle() { out=$(b) || { echo "$out"; fail "$generator/$mode: $1"; }
  [ -z "$(compiled "$out")" ] && [ "$(ran "$out" headers)" = 0 ] && [ "$(ran "$out" pack)" = 0 ] &&
    ! echo "$out" | grep -q "Building C object" || { echo "$out"; fail "$generator/$mode: the build after $1 did work"; }; }

out=$(b) || { echo "$out"; fail "$generator/$mode: first build"; }
[ "$(compiled "$out")" = "fields.c main.c spawns.c " ] || { echo "$out"; fail "$generator/$mode: first build compiled $(compiled "$out")"; }
./build/consumer > "$work/run" || fail "$generator/$mode: the consumer does not run"
grep -q 'field Health' "$work/run" && grep -q 'asset Sprites/slime 8' "$work/run" ||
  { cat "$work/run"; fail "$generator/$mode: the consumer prints no field or asset"; }
# The first run listed the outputs: the next build configures again to declare them (Ninja then
# runs the step once more, for outputs it has no record of), compiling nothing; then all is still.
grep -q 'vault_fields.h' build/consumer.threadlink-outputs || fail "$generator/$mode: the outputs were not listed"
out=$(b) || { echo "$out"; fail "$generator/$mode: second build"; }
[ -z "$(compiled "$out")" ] || { echo "$out"; fail "$generator/$mode: the second build compiled $(compiled "$out")"; }
idle "the second build"

edit_later
echo Mana >> injectors/Vault.Fields.User.txt
out=$(b) || { echo "$out"; fail "$generator/$mode: build after an injector edit"; }
[ "$(compiled "$out")" = "fields.c " ] || { echo "$out"; fail "$generator/$mode: an injector edit compiled $(compiled "$out")"; }
./build/consumer | grep -q 'field Mana' || fail "$generator/$mode: the new field is missing"
# The warning names this build's developer step: no threadlink-gen is on the PATH here.
echo "$out" | grep -qF "1 new entry of Vault.Fields not recorded in the manifest: run cmake --build $p/build --target generate to record 1 new entry" ||
  { echo "$out"; fail "$generator/$mode: the unrecorded entry's warning names another command than the generate target"; }
idle "the injector edit"

# A header new to the project builds in one go; the build after declares it, so an edit of its
# injector then recompiles what includes it.
edit_later
sed -i 's|"domains": \[|"domains": [\n    { "name": "Game.Items", "output": "items.h" },|' threadlink.json
echo Sword > injectors/Game.Items.User.txt
printf '#include "items.h"\nint item_count(void);\nint item_count(void) { return GAME_ITEMS_COUNT; }\n' > src/items.c
sed -i 's|src/spawns.c)|src/spawns.c src/items.c)|' CMakeLists.txt
out=$(b) || { echo "$out"; fail "$generator/$mode: build after a new domain"; }
echo "$out" | grep -q "the project's outputs changed (1 new, 0 gone)" || { echo "$out"; fail "$generator/$mode: no note of the new output"; }
b >/dev/null || fail "$generator/$mode: the build after the new domain"
grep -q '^items.h$' build/consumer.threadlink-outputs || fail "$generator/$mode: items.h is not listed"
edit_later
echo Shield >> injectors/Game.Items.User.txt
out=$(b) || { echo "$out"; fail "$generator/$mode: build after the new domain's injector edit"; }
[ "$(compiled "$out")" = "items.c " ] || { echo "$out"; fail "$generator/$mode: the new domain's injector edit compiled $(compiled "$out")"; }
idle "the new domain's injector edit"

# That command records the entries: the build after it warns of none.
out=$(cmake --build build --target generate 2>&1) || { echo "$out"; fail "$generator/$mode: the generate target"; }
out=$(b) || { echo "$out"; fail "$generator/$mode: build after the generate target"; }
! echo "$out" | grep -q "not recorded in the manifest" || { echo "$out"; fail "$generator/$mode: entries unrecorded after the generate target"; }

if [ "$mode" = subdirectory ]; then sh "$root/tests/integration/sdl2_consumer.sh" cmake-tree "$root"; fi

root_after=$(cd "$root" && git status --porcelain --ignored | grep -v -e '^!! build' | md5sum)
[ "$root_before" = "$root_after" ] || fail "$generator/$mode: the build wrote into threadlink's source tree"
[ -z "$(ls generated | grep -v manifest.json | grep -v -e '\.h$')" ] || fail "$generator/$mode: the build wrote into the project's generated/"

if [ "$golden" = golden ]; then
  failed=0
  for case in "$root"/tests/gen/golden/*/; do
    python3 "$root/tests/gen/golden/run.py" build/threadlink/threadlink-gen "$case" >"$work/golden.log" 2>&1 ||
      { cat "$work/golden.log"; echo "FAIL: golden case $(basename "$case") with the CMake-built generator"; failed=1; }
  done
  [ "$failed" = 0 ] || exit 1
  echo "ok: every golden case with the CMake-built threadlink-gen"
fi
echo "ok: $generator/$mode"
