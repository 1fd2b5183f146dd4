#!/bin/sh
# The project `threadlink-gen init` writes, built and run at the first try with each build system
# against this build installed (meson install --destdir: the built generator and runtime library,
# nothing compiled again), offline: the first build compiles without a warning and the program
# runs (events, a vault, content, a level, a save); the next build does nothing; the `check` of
# the generated files passes; a new entry builds, with a warning that names the build's own
# `generate` step (threadlink-gen need not be on the PATH), which records it. The installed package and .pc files
# are relocatable: Meson finds threadlink through PKG_CONFIG_PATH, CMake through
# CMAKE_PREFIX_PATH, Make through THREADLINK_PREFIX. The project's folder is named "generate", in a
# folder whose name has a space: its program is generate-game (a target of that name is the
# project's own), and every recipe quotes its paths. With Meson and Make, a consumer compiles both
# SDL2 backends from the install (threadlink_sdl2.pc; sdl2_consumer.sh).
#   init_builds.sh SOURCE_ROOT BUILD_ROOT meson|cmake-ninja|cmake-makefiles|make
set -eu
root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
which=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $which: $*"; exit 1; }
case $which in cmake-*) command -v cmake >/dev/null 2>&1 || { echo "skip: cmake is not installed"; [ "${CI:-}" != true ]; exit $?; } ;; esac

meson install -C "$build" --no-rebuild --destdir "$work/dest" --quiet >/dev/null || fail "meson install"
prefix_path=$(meson introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
prefix=$work/dest$prefix_path
gen=$prefix/bin/threadlink-gen
PATH=$prefix/bin:$PATH
export PATH

case $which in
  meson) kind=meson ;;
  cmake-*) kind=cmake ;;
  make) kind=make ;;
esac
"$gen" init --build "$kind" "$work/my games/generate" > "$work/init.out" || { cat "$work/init.out"; fail "init"; }
cd "$work/my games/generate"
# Its next steps quote the folder for the shell (a space in it).
grep -qF "cd '$work/my games/generate'" "$work/init.out" || { cat "$work/init.out"; fail "init's next steps do not quote the folder"; }

case $which in
  meson)
    PKG_CONFIG_PATH="$(dirname "$(find "$work/dest" -name threadlink.pc)")"
    export PKG_CONFIG_PATH
    meson setup build > "$work/setup.log" 2>&1 || { cat "$work/setup.log"; fail "meson setup"; }
    b() { meson compile -C build 2>&1; }
    generate() { meson compile -C build generate 2>&1; }
    generate_command="meson compile -C \"$PWD/build\" generate"
    check() { meson test -C build generated-up-to-date 2>&1; } ;;
  cmake-*)
    g=Ninja; [ "$which" = cmake-makefiles ] && g="Unix Makefiles"
    cmake -S . -B build -G "$g" -DCMAKE_PREFIX_PATH="$prefix" > "$work/setup.log" 2>&1 || { cat "$work/setup.log"; fail "cmake configure"; }
    b() { cmake --build build 2>&1; }
    generate() { cmake --build build --target generate 2>&1; }
    generate_command="cmake --build \"$PWD/build\" --target generate"
    check() { "$gen" check 2>&1; } ;;
  make)
    b() { make THREADLINK_PREFIX="$prefix" 2>&1; }
    generate() { make THREADLINK_PREFIX="$prefix" generate 2>&1; }
    generate_command="make generate THREADLINK_PREFIX=$prefix"
    check() { make THREADLINK_PREFIX="$prefix" check 2>&1; } ;;
esac
# Make cannot take threadlink's path with a space in a prerequisite: it says so at once.
if [ "$which" = make ]; then
  ln -s "$prefix" "$work/spaced prefix"
  out=$(make THREADLINK_PREFIX="$work/spaced prefix" 2>&1) && fail "make took a prefix with a space"
  echo "$out" | grep -qF "threadlink's path has a space (THREADLINK_PREFIX='$work/spaced prefix'" || { echo "$out"; fail "no clear message for a prefix with a space"; }
fi
# A build that did nothing: no compile, link, generator or pack step in its output.
idle() { out=$(b) || { echo "$out"; fail "$1"; }
  ! echo "$out" | grep -q -e "Compiling" -e "Building" -e "Linking" -e "Generating" -e "threadlink-gen" -e "^cc " ||
    { echo "$out"; fail "$1 did work"; }; }

out=$(b) || { echo "$out"; fail "the first build"; }
echo "$out" | grep -i -e "warning" -e "error" && { echo "$out"; fail "the first build warned"; }
./build/generate-game > "$work/run" 2>&1 || { cat "$work/run"; fail "the program does not run"; }
for line in "level Meadow: Welcome to the meadow." "presented: Meadow" "Robin: health 3, gold 35" "saved and loaded: Robin with 35 gold"; do
  grep -qxF "$line" "$work/run" || { cat "$work/run"; fail "the program does not print '$line'"; }
done
idle "the second build"
out=$(check) || { echo "$out"; fail "the generated files are not up to date"; }

# A new level: the build warns what to run and builds; the generate step records it.
echo Cave >> injectors/Nexus.Levels.User.txt
out=$(b) || { echo "$out"; fail "the build after a new entry"; }
echo "$out" | grep -qF "1 new entry of Nexus.Levels not recorded in the manifest: run $generate_command to record 1 new entry" ||
  { echo "$out"; fail "no word of the unrecorded entry, naming the build's generate step"; }
out=$(generate) || { echo "$out"; fail "the generate step"; }
grep -q '"Cave"' generated/Nexus.Levels.manifest.json || fail "the generate step did not record the entry"
out=$(check) || { echo "$out"; fail "not up to date after the generate step"; }

# A second content profile (the text stage's tables are one): Main's build step still packs Main.
mkdir -p extra && echo more > extra/more.txt
python3 - <<'PY'
import json
cfg = json.load(open("threadlink.json"))
cfg["content"].append({"profile": "Extra", "source_root": "extra", "output": "build/content/Extra"})
json.dump(cfg, open("threadlink.json", "w"), indent=2)
PY
# Its headers declared where the build lists them, as the build's error says to.
case $kind in
  meson) sed -i "s/'content_main.h', /'content_main.h', 'content_extra.h', 'content_extra_catalog.h', /" meson.build ;;
  make) sed -i 's/^HEADER_NAMES := /HEADER_NAMES := content_extra.h content_extra_catalog.h /' Makefile ;;
esac
out=$(generate) || { echo "$out"; fail "the generate step with a second profile"; }
out=$(b) || { echo "$out"; fail "the build with a second profile"; }
case $which in meson|make) sh "$root/tests/integration/sdl2_consumer.sh" "$which-installed" "$prefix" ;; esac
echo "ok: $which"
