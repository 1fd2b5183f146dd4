#!/bin/sh
# Drives real consumer builds (examples/meson-subproject with Ninja, threadlink a subproject through
# a subprojects/ link, its content packed at build time; examples/make with Make):
# the first build compiles; a second does nothing; editing an injector regenerates and recompiles
# only what includes the changed header, and its warning names the recipe's generate step; a new
# injector file is picked up; a touched input or a manifest not written yet does not make every
# later build re-run the generator; a no-op
# generation leaves every output's mtime unchanged; with Meson, a header the build does not
# declare fails the build, named. A consumer compiles both SDL2 backends from the tree the same
# way (sdl2_consumer.sh: the subproject's threadlink_sdl2_dep, or Make's -I flags).
#   consumer_builds.sh SOURCE_ROOT THREADLINK_GEN (meson|make)
set -eu
root=$(cd "$1" && pwd)
gen=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
which=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mtimes() { stat -c '%n %Y.%y' "$@"; }

if [ "$which" = meson ]; then
  cp -a "$root/examples/meson-subproject" "$work/p"
  rm "$work/p/subprojects/threadlink"
  ln -s "$root" "$work/p/subprojects/threadlink"
  cd "$work/p"
  rm -rf build generated/.threadlink-gen.stamp
  meson setup build >/dev/null
  build() { ninja -C build -v 2>&1; }
  gendir=build
  obj() { echo "-c ../src/$1.c"; }
else
  cp -a "$root/examples/make" "$work/p"
  cd "$work/p"
  rm -rf build generated/.threadlink-gen.stamp
  build() { make THREADLINK_GEN="$gen" 2>&1; }
  gendir=build/gen
  obj() { echo "-o build/$1.o"; }
  # No generator: one clear message before any recipe runs, not "Error 127" from one.
  for missing in "" /nonexistent/threadlink-gen; do
    out=$(make THREADLINK_GEN="$missing" 2>&1) && fail "make ran without a generator ('$missing')"
    echo "$out" | grep -q "threadlink-gen not found (THREADLINK_GEN='$missing')" || { echo "$out"; fail "no clear message for THREADLINK_GEN='$missing'"; }
    [ ! -e build ] || fail "make without a generator created build/"
  done
  # A generator whose path has a space (Make splits prerequisites there): said at once.
  mkdir -p "$work/a b" && ln -s "$gen" "$work/a b/threadlink-gen"
  out=$(make THREADLINK_GEN="$work/a b/threadlink-gen" 2>&1) && fail "make took a generator path with a space"
  echo "$out" | grep -qF "threadlink-gen's path has a space" || { echo "$out"; fail "no clear message for a path with a space"; }
  # The Makefile is complete (no variable used undefined) and is the one docs/build-systems.md shows.
  out=$(make --warn-undefined-variables -n THREADLINK_GEN="$gen" 2>&1) || { echo "$out"; fail "make -n"; }
  echo "$out" | grep "undefined variable" && fail "the Makefile uses an undefined variable"
  python3 - "$root/docs/build-systems.md" Makefile <<'PY' || fail "docs/build-systems.md does not show examples/make/Makefile as it is"
import sys
text = open(sys.argv[1], encoding="utf-8").read()
fence = "```make excerpt=examples/make/Makefile\n"
start = text.index(fence) + len(fence)
sys.exit(0 if text[start:text.index("```\n", start)] == open(sys.argv[2], encoding="utf-8").read() else 1)
PY
fi

out=$(build) || { echo "$out"; fail "first build"; }
./build/consumer | grep -q 'field Health' || fail "the consumer does not run"
# Meson: the content step ran (the subproject's generator, at build time) and the program reads
# the packed content by the ids of the catalog the headers step wrote.
if [ "$which" = meson ]; then
  ./build/consumer | grep -qx 'asset Sprites/hero: a hero' || { ./build/consumer; fail "the consumer does not read its packed content"; }
fi

out=$(build) || fail "second build"
case "$out" in
  *"no work to do"*|*"is up to date"*|*"Nothing to be done"*) ;;
  *) echo "$out"; fail "second build did work" ;;
esac

# Edit one domain's injector: its header changes, the other does not.
echo Mana >> injectors/Vault.Fields.User.txt
out=$(build) || { echo "$out"; fail "build after an edit"; }
echo "$out" | grep -q -e "$(obj fields)" || { echo "$out"; fail "fields.c was not recompiled after its header changed"; }
echo "$out" | grep -q -e "$(obj spawns)" && { echo "$out"; fail "spawns.c was recompiled although spawn_points.h did not change"; }
echo "$out" | grep -q -e "$(obj main)" && { echo "$out"; fail "main.c was recompiled although it includes no generated header"; }
./build/consumer | grep -q 'field Mana' || fail "the new field is missing"
# The warning names the recipe's developer step (with Meson the generator is the subproject's, on
# no PATH).
case $which in meson) run_generate="meson compile -C $work/p/build generate" ;; *) run_generate="make generate" ;; esac
echo "$out" | grep -qF "1 new entry of Vault.Fields not recorded in the manifest: run $run_generate to record 1 new entry" ||
  { echo "$out"; fail "the unrecorded entry's warning does not name $run_generate"; }
out=$(build)
case "$out" in *"no work to do"*|*"is up to date"*|*"Nothing to be done"*) ;; *) echo "$out"; fail "build after the edit is not stable" ;; esac

# A new injector file is picked up (the injector directory is an input).
echo Castle > injectors/Nexus.SpawnPoints.Extra.txt
out=$(build) || { echo "$out"; fail "build after a new injector"; }
echo "$out" | grep -q -e "$(obj spawns)" || { echo "$out"; fail "spawns.c was not recompiled after a new injector"; }
echo "$out" | grep -q -e "$(obj fields)" && { echo "$out"; fail "fields.c was recompiled although vault_fields.h did not change"; }
./build/consumer | grep -q 'spawn Castle' || fail "the new injector's entry is missing"

# Meson: a vault data edit reaches the program in one build (every vault header is an output)
# and recompiles only the file that includes it.
if [ "$which" = meson ]; then
  sed -i 's/"Health": 25/"Health": 30/' vaultdata/potions.vaultdata.json
  out=$(build) || { echo "$out"; fail "build after a vault data edit"; }
  echo "$out" | grep -q -e "$(obj potions)" || { echo "$out"; fail "potions.c was not recompiled after its data changed"; }
  echo "$out" | grep -q -e "$(obj fields)" && { echo "$out"; fail "fields.c was recompiled after a vault data edit"; }
  ./build/consumer | grep -q 'potion Small    health  30' || { ./build/consumer; fail "the vault data edit is not in the program after one build"; }
fi

# Meson: a new asset is packed and catalogued in one build, then the build is still.
if [ "$which" = meson ]; then
  printf 'a tree\n' > assets/Sprites/tree.txt
  out=$(build) || { echo "$out"; fail "build after a new asset"; }
  ./build/consumer | grep -qx 'asset Sprites/tree: a tree' || { ./build/consumer; fail "the new asset is not in the program after one build"; }
  out=$(build)
  case "$out" in *"no work to do"*) ;; *) echo "$out"; fail "the build after a new asset is not stable" ;; esac
  rm assets/Sprites/tree.txt
  build >/dev/null 2>&1 || fail "build after the asset was removed"
fi

# An input touched but not edited: at most one run of the generator, then the build is stable
# again (Make keeps no record of a run that changed nothing, so its rule touches the stamp).
sleep 1
touch injectors/Vault.Fields.User.txt
build >/dev/null || fail "build after a touch"
out=$(build)
case "$out" in *"no work to do"*|*"is up to date"*|*"Nothing to be done"*) ;; *) echo "$out"; fail "the build after a touched input never settles" ;; esac

# A domain whose manifest is not written yet (a new project, before its first generate): the
# build settles too, and the manifest's arrival re-runs the generator.
# (Ninja may run it once more: the depfile it read before the first run named other inputs.)
mv generated/Nexus.SpawnPoints.manifest.json "$work/spawns.manifest.json"
build >/dev/null 2>&1 || fail "build without a manifest"
build >/dev/null 2>&1 || fail "second build without a manifest"
out=$(build 2>&1)
case "$out" in *"no work to do"*|*"is up to date"*|*"Nothing to be done"*) ;; *) echo "$out"; fail "the build without a manifest never settles" ;; esac
sleep 1
mv "$work/spawns.manifest.json" generated/Nexus.SpawnPoints.manifest.json
out=$(build 2>&1)
echo "$out" | grep -q -e " headers " || { echo "$out"; fail "the manifest's arrival did not re-run the generator"; }

# Meson: a header the build does not declare (a new vault) fails the build, naming the file, where
# it would otherwise stay out of Ninja's sight; declared again, the build goes on.
if [ "$which" = meson ]; then
  sed 's/"Potion"/"Elixir"/' vaults/Potion.vault.json > vaults/Elixir.vault.json
  out=$(build) && { echo "$out"; fail "a header the build does not declare did not fail the build"; }
  echo "$out" | grep -q "error: extra output elixir_vault.h: written, but the build does not declare it" \
    || { echo "$out"; fail "the undeclared header is not named"; }
  rm vaults/Elixir.vault.json
  out=$(build) || { echo "$out"; fail "build after the undeclared vault was removed"; }
fi

# A no-op generation touches nothing.
before=$(mtimes "$gendir"/vault_fields.h "$gendir"/spawn_points.h)
"$gen" headers -o "$gendir" >/dev/null 2>&1
"$gen" generate --quiet >/dev/null 2>&1
before_gen=$(mtimes generated/*)
"$gen" generate --quiet
"$gen" headers -o "$gendir" 2>/dev/null
after=$(mtimes "$gendir"/vault_fields.h "$gendir"/spawn_points.h)
after_gen=$(mtimes generated/*)
[ "$before" = "$after" ] || fail "a no-op headers run changed an output's mtime"
[ "$before_gen" = "$after_gen" ] || fail "a no-op generate changed an output's mtime"
sh "$root/tests/integration/sdl2_consumer.sh" "$which-tree" "$root"
echo "$which consumer: all build-integration checks passed"
