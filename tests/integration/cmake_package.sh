#!/bin/sh
# examples/cmake built against an installed threadlink (meson install --destdir of this build)
# through find_package(threadlink) and threadlink_generate(), with CMake's Ninja and Unix
# Makefiles generators: the first build compiles and runs, a second does nothing, an injector edit
# regenerates and recompiles only what includes its header, and a new injector file and a new
# asset are picked up. With a second profile (the text stage's tables), each profile's pack step
# runs only when its own inputs change (an injector or PO edit re-packs none, an asset its profile
# alone, its rename records or the config too), and a warning of the project comes once a build,
# naming the build's generate target as the command to run. Nothing is written into the source
# tree. A consumer compiles both SDL2 backends through the installed threadlink::sdl2
# (sdl2_consumer.sh).
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

# examples/cmake with a Text profile packing the text stage's tables, and a key fr.po does not
# translate (the text stage warns), generated once as a developer would.
add_text_profile() {
  mkdir -p text
  python3 - <<'PY'
import json
c = json.load(open('threadlink.json'))
c['text'] = {'source': 'text/en.po'}
c['content'].append({'profile': 'Text', 'source_root': 'generated/text', 'output': 'build/content/Text',
                     'categories': [{'name': 'Tables', 'folder': ''}], 'archive': 'packed', 'compression': 'none'})
json.dump(c, open('threadlink.json', 'w'), indent=2)
PY
  po() { printf 'msgid ""\nmsgstr ""\n"Language: %s\\n"\n\nmsgctxt "Title"\nmsgid "Game"\nmsgstr "%s"\n' "$1" "$2"; }
  po en "" > text/en.po && printf '\nmsgctxt "Bye"\nmsgid "Goodbye"\nmsgstr ""\n' >> text/en.po
  po fr "Jeu" > text/fr.po
  sed -i 's/PACK Game)/PACK Game Text)/' CMakeLists.txt
  "$prefix/bin/threadlink-gen" generate --quiet 2>/dev/null || fail "generate of the project with a Text profile"
}
warned() { echo "$1" | grep -c -e "$2" || true; }
# A file system's timestamp tick (the kernel's coarse clock) may hold an edit and the output a
# build wrote just before it: an edit waits a little, as every edit a person makes does.
edit_later() { sleep 0.1; }

for generator in Ninja "Unix Makefiles"; do
  p=$work/p
  rm -rf "$p"
  cp -a "$root/examples/cmake" "$p"
  rm -rf "$p/build"
  cd "$p"
  add_text_profile
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
  [ "$(ran "$out" pack)" = 2 ] || { echo "$out"; fail "$generator: the first build packed $(ran "$out" pack) profiles"; }
  [ "$(warned "$out" 'fr.po: warning: no translation of Bye')" = 1 ] ||
    { echo "$out"; fail "$generator: the first build warned $(warned "$out" 'no translation of Bye') times of the untranslated key"; }
  ./build/consumer > "$work/run" || fail "$generator: the consumer does not run"
  grep -q 'field Health' "$work/run" && grep -q 'asset Sprites/slime 8' "$work/run" ||
    { cat "$work/run"; fail "$generator: the consumer prints no field or asset"; }
  [ -f "build/threadlink/content/Game/archives.json" ] || fail "$generator: no packed content"
  ctest --test-dir build --output-on-failure >"$work/ctest.log" 2>&1 || { cat "$work/ctest.log"; fail "$generator: check of the committed manifests"; }
  idle "the first build"

  # A PO edit: the headers step warns that the table is stale (once); the tables pack reads are
  # as generate wrote them, so no pack runs.
  edit_later
  sed -i 's/msgstr "Jeu"/msgstr "Le jeu"/' text/fr.po
  out=$(b) || { echo "$out"; fail "$generator: build after a PO edit"; }
  [ "$(ran "$out" headers)" = 1 ] && [ "$(ran "$out" pack)" = 0 ] ||
    { echo "$out"; fail "$generator: a PO edit ran headers $(ran "$out" headers) times and packed $(ran "$out" pack) profiles"; }
  [ "$(warned "$out" 'fr.tltext: warning: stale')" = 1 ] ||
    { echo "$out"; fail "$generator: a PO edit warned $(warned "$out" 'fr.tltext: warning: stale') times of the stale table"; }
  idle "the PO edit"

  # The developer step writes the edited table: the Text profile alone re-packs. (Its files are the
  # source tree the builds below must leave as it is.)
  cmake --build build --target generate >"$work/generate.log" 2>&1 || { cat "$work/generate.log"; fail "$generator: the generate target"; }
  out=$(b) || { echo "$out"; fail "$generator: build after generate wrote a table"; }
  [ "$(ran "$out" pack)" = 1 ] && echo "$out" | grep -q -e "pack .*--profile Text" ||
    { echo "$out"; fail "$generator: a table generate wrote packed $(ran "$out" pack) profiles"; }
  idle "generate's new table"
  sum > "$work/source.sum"

  edit_later
  echo Mana >> injectors/Vault.Fields.User.txt
  out=$(b) || { echo "$out"; fail "$generator: build after an injector edit"; }
  [ "$(compiled "$out")" = "fields.c " ] || { echo "$out"; fail "$generator: an injector edit compiled $(compiled "$out")"; }
  [ "$(ran "$out" pack)" = 0 ] || { echo "$out"; fail "$generator: an injector edit packed $(ran "$out" pack) profiles"; }
  # The warning names the developer step as this build has it (threadlink-gen need not be on the PATH).
  echo "$out" | grep -qF "1 new entry of Vault.Fields not recorded in the manifest: run cmake --build $p/build --target generate to record 1 new entry" ||
    { echo "$out"; fail "$generator: the unrecorded entry's warning names another command than the generate target"; }
  [ "$(warned "$out" 'no translation of Bye')" = 1 ] ||
    { echo "$out"; fail "$generator: an injector edit warned $(warned "$out" 'no translation of Bye') times of the untranslated key"; }
  ./build/consumer | grep -q 'field Mana' || fail "$generator: the new field is missing"
  ! ctest --test-dir build >"$work/ctest.log" 2>&1 || fail "$generator: check passes although Mana is not in the manifest"
  idle "the injector edit"

  edit_later
  echo Castle > injectors/Nexus.SpawnPoints.Extra.txt
  out=$(b) || { echo "$out"; fail "$generator: build after a new injector"; }
  [ "$(compiled "$out")" = "spawns.c " ] && [ "$(ran "$out" pack)" = 0 ] ||
    { echo "$out"; fail "$generator: a new injector compiled $(compiled "$out") and packed $(ran "$out" pack) profiles"; }
  ./build/consumer | grep -q 'spawn Castle' || fail "$generator: the new spawn point is missing"
  idle "the new injector"

  edit_later
  printf 'a tree\n' > assets/Sprites/tree.txt
  out=$(b) || { echo "$out"; fail "$generator: build after a new asset"; }
  [ "$(compiled "$out")" = "main.c " ] && [ "$(ran "$out" pack)" = 1 ] ||
    { echo "$out"; fail "$generator: a new asset compiled $(compiled "$out") and packed $(ran "$out" pack) times"; }
  ./build/consumer | grep -q 'asset Sprites/tree 7' || fail "$generator: the new asset is missing"
  grep -q '"Sprites/tree"' build/threadlink/content/Game/archives.json || fail "$generator: the new asset was not packed"
  idle "the new asset"

  # What does change an archive re-packs: rename records (its profile alone), the config (all).
  edit_later
  printf '# Sprites renamed, as New <- Old\n' > assets/.content-renames
  out=$(b) || { echo "$out"; fail "$generator: build after new rename records"; }
  [ "$(ran "$out" pack)" = 1 ] || { echo "$out"; fail "$generator: new rename records packed $(ran "$out" pack) profiles"; }
  idle "the rename records"
  edit_later
  touch threadlink.json
  out=$(b) || { echo "$out"; fail "$generator: build after the config was touched"; }
  [ "$(ran "$out" pack)" = 2 ] || { echo "$out"; fail "$generator: the config touched packed $(ran "$out" pack) profiles"; }
  idle "the config touched"

  rm -f assets/Sprites/tree.txt injectors/Nexus.SpawnPoints.Extra.txt assets/.content-renames
  sed -i '/^Mana$/d' injectors/Vault.Fields.User.txt
  sum | cmp -s - "$work/source.sum" || { sum | diff "$work/source.sum" - ; fail "$generator: the build wrote into the source tree"; }
  echo "ok: $generator"
done
sh "$root/tests/integration/sdl2_consumer.sh" cmake-installed "$prefix"
