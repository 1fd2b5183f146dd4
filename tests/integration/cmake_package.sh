#!/bin/sh
# examples/cmake built against an installed threadlink (meson install --destdir of this build)
# through find_package(threadlink) and threadlink_generate(), with CMake's Ninja and Unix
# Makefiles generators: the first build compiles and runs, a second does nothing, an injector edit
# regenerates and recompiles only what includes its header, and a new injector file and a new
# asset are picked up. Nothing is written into the source tree. A consumer compiles both SDL2
# backends through the installed threadlink::sdl2 (sdl2_consumer.sh).
#   cmake_package.sh SOURCE_ROOT BUILD_ROOT
set -eu
root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v cmake >/dev/null 2>&1 || { echo "skip: cmake is not installed"; [ "${CI:-}" != true ]; exit $?; }

meson install -C "$build" --no-rebuild --destdir "$work/dest" --quiet >/dev/null || fail "meson install"
prefix=$work/dest$(meson introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')

for generator in Ninja "Unix Makefiles"; do
  p=$work/p
  rm -rf "$p"
  cp -a "$root/examples/cmake" "$p"
  rm -rf "$p/build"
  cd "$p"
  sum() { find "$p" -path "$p/build" -prune -o -type f -print | sort | xargs md5sum; }
  sum > "$work/source.sum"
  cmake -S . -B build -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cfg.log" 2>&1 ||
    { cat "$work/cfg.log"; fail "$generator: configure"; }
  # Each build's commands, one a line: what ran, and which sources compiled.
  b() { cmake --build build -- $([ "$generator" = Ninja ] && echo -v || echo VERBOSE=1) 2>&1; }
  compiled() { echo "$1" | grep -o -E -e "-c [^ ]*src/[a-z]+\.c" | sed 's|.*src/||' | sort | tr '\n' ' '; }
  ran() { echo "$1" | grep -c -e "threadlink-gen\"* $2 -" || true; } # the command, not its comment
  idle() { out=$(b) || { echo "$out"; fail "$generator: $1"; }
    [ -z "$(compiled "$out")" ] && [ "$(ran "$out" headers)" = 0 ] && [ "$(ran "$out" pack)" = 0 ] ||
      { echo "$out"; fail "$generator: the build after $1 did work"; }; }

  out=$(b) || { echo "$out"; fail "$generator: first build"; }
  [ "$(compiled "$out")" = "fields.c main.c spawns.c " ] || { echo "$out"; fail "$generator: first build compiled $(compiled "$out")"; }
  ./build/consumer > "$work/run" || fail "$generator: the consumer does not run"
  grep -q 'field Health' "$work/run" && grep -q 'asset Sprites/slime 8' "$work/run" ||
    { cat "$work/run"; fail "$generator: the consumer prints no field or asset"; }
  [ -f "build/threadlink/content/Game/archives.json" ] || fail "$generator: no packed content"
  ctest --test-dir build --output-on-failure >"$work/ctest.log" 2>&1 || { cat "$work/ctest.log"; fail "$generator: check of the committed manifests"; }
  idle "the first build"

  echo Mana >> injectors/Vault.Fields.User.txt
  out=$(b) || { echo "$out"; fail "$generator: build after an injector edit"; }
  [ "$(compiled "$out")" = "fields.c " ] || { echo "$out"; fail "$generator: an injector edit compiled $(compiled "$out")"; }
  ./build/consumer | grep -q 'field Mana' || fail "$generator: the new field is missing"
  ! ctest --test-dir build >"$work/ctest.log" 2>&1 || fail "$generator: check passes although Mana is not in the manifest"
  idle "the injector edit"

  echo Castle > injectors/Nexus.SpawnPoints.Extra.txt
  out=$(b) || { echo "$out"; fail "$generator: build after a new injector"; }
  [ "$(compiled "$out")" = "spawns.c " ] || { echo "$out"; fail "$generator: a new injector compiled $(compiled "$out")"; }
  ./build/consumer | grep -q 'spawn Castle' || fail "$generator: the new spawn point is missing"
  idle "the new injector"

  printf 'a tree\n' > assets/Sprites/tree.txt
  out=$(b) || { echo "$out"; fail "$generator: build after a new asset"; }
  [ "$(compiled "$out")" = "main.c " ] && [ "$(ran "$out" pack)" = 1 ] ||
    { echo "$out"; fail "$generator: a new asset compiled $(compiled "$out") and packed $(ran "$out" pack) times"; }
  ./build/consumer | grep -q 'asset Sprites/tree 7' || fail "$generator: the new asset is missing"
  grep -q '"Sprites/tree"' build/threadlink/content/Game/archives.json || fail "$generator: the new asset was not packed"
  idle "the new asset"

  rm -f assets/Sprites/tree.txt injectors/Nexus.SpawnPoints.Extra.txt
  sed -i '/^Mana$/d' injectors/Vault.Fields.User.txt
  sum | cmp -s - "$work/source.sum" || { sum | diff "$work/source.sum" - ; fail "$generator: the build wrote into the source tree"; }
  echo "ok: $generator"
done
sh "$root/tests/integration/sdl2_consumer.sh" cmake-installed "$prefix"
