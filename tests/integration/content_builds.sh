#!/bin/sh
# A content consumer built as docs/build-systems.md's recipes build it, with Meson (Ninja), Make and CMake
# (Ninja): `headers` writes the catalog header into the build directory, `pack --build-step` the
# packed content, and a program includes the catalog. Adding, editing, deleting and renaming an
# asset each make every build regenerate the catalog (byte-identical to a fresh `headers` run),
# re-pack (identical to a fresh `pack`) and rebuild the program; a second build then has nothing to
# do, and no build writes into the source tree. A touched asset re-packs but rewrites no header
# and rebuilds no program.
#   content_builds.sh SOURCE_ROOT THREADLINK_GEN
set -eu
root=$(cd "$1" && pwd)
gen=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PATH=$(dirname "$gen"):$PATH
export PATH

p=$work/p
mkdir -p "$p/assets/Sprites" "$p/assets/Levels"
cp "$root/tests/integration/content_consumer/"* "$p/"
printf 'hero\n' > "$p/assets/Sprites/hero.txt"
printf 'slime!\n' > "$p/assets/Sprites/slime.txt"
printf 'a field\n' > "$p/assets/Levels/field.txt"
cd "$p"
threadlink-gen generate --quiet || fail "generate (the developer step)"

# What the build steps may not change: the assets, the config and the manifests.
source_sum() { find "$p/assets" "$p/generated" "$p/threadlink.json" -type f | sort | xargs md5sum; }
timestamp() { stat -c %y "$1" 2>/dev/null || echo missing; }

meson setup bm >/dev/null || fail "meson setup"
cmake -S . -B bc -G Ninja >/dev/null || fail "cmake configure (Ninja)"
build() {
  case $1 in
    meson) ninja -C bm ;;
    cmake) ninja -C bc ;;
    make) make BUILD=bk ;;
  esac
}
# Exit 0 when the tool would do nothing. Make: `make -q` and `make -n` count the headers' empty
# rule (its target stays older than the stamp) as work, so a real run must print that it did
# nothing (and, run on a stale tree, it counts as "would do work", which the step checks anyway).
up_to_date() {
  case $1 in
    meson) ninja -C bm -n | grep -q "no work to do" ;;
    cmake) ninja -C bc -n | grep -q "no work to do" ;;
    make) make -q BUILD=bk && return 0; [ "$(make BUILD=bk 2>&1)" = "make: Nothing to be done for 'all'." ] ;;
  esac
}
# Exit 0 when the tool sees work to do.
stale() { case $1 in make) ! make -q BUILD=bk ;; *) ! up_to_date "$1" ;; esac; }
dir_of() { case $1 in meson) echo bm ;; cmake) echo bc ;; make) echo bk ;; esac; }
catalog_of() { case $1 in meson) echo bm/content_game_catalog.h ;; *) echo "$(dir_of "$1")/gen/content_game_catalog.h" ;; esac; }
tools=${TOOLS:-meson make cmake} # TOOLS=make: one tool only, when debugging

# The reference: what `headers` and `pack` give from scratch for the tree as it is now.
reference() {
  rm -rf "$work/ref"
  threadlink-gen headers -o "$work/ref/gen" --quiet 2>/dev/null || fail "reference headers"
  threadlink-gen pack --build-step --output "$work/ref/content" --quiet --no-progress 2>/dev/null || fail "reference pack"
}

# One step: every build does the work (catalog regenerated, content re-packed, program rebuilt;
# with `touched`: content re-packed, catalog and program left as they are), matches the
# reference, prints what the program now holds, and then has nothing to do.
step() {
  what=$1
  expect=$2
  rebuilt=${3:-rebuilt}
  reference
  before=$(source_sum)
  for t in $tools; do
    d=$(dir_of "$t")
    cat_before=$(timestamp "$(catalog_of "$t")")
    pack_before=$(timestamp "$d/content.stamp")
    game_before=$(timestamp "$d/game")
    stale "$t" || fail "$t: $what: the build would do nothing"
    out=$(build "$t" 2>&1) || { echo "$out"; fail "$t: build after $what"; }
    [ "$(timestamp "$d/content.stamp")" != "$pack_before" ] || fail "$t: $what: pack did not run"
    if [ "$rebuilt" = rebuilt ]; then
      [ "$(timestamp "$(catalog_of "$t")")" != "$cat_before" ] || fail "$t: $what: the catalog header was not regenerated"
      [ "$(timestamp "$d/game")" != "$game_before" ] || fail "$t: $what: the program was not rebuilt"
    else
      [ "$(timestamp "$(catalog_of "$t")")" = "$cat_before" ] || fail "$t: $what: the catalog header was rewritten"
      [ "$(timestamp "$d/game")" = "$game_before" ] || { echo "$out"; fail "$t: $what: the program was rebuilt"; }
    fi
    cmp -s "$(catalog_of "$t")" "$work/ref/gen/content_game_catalog.h" || fail "$t: $what: the catalog header differs from a fresh headers run"
    diff -r "$d/content" "$work/ref/content" >/dev/null || fail "$t: $what: the packed content differs from a fresh pack"
    got=$("./$d/game")
    [ "$got" = "$expect" ] || { printf 'expected:\n%s\ngot:\n%s\n' "$expect" "$got"; fail "$t: $what: the program holds other assets"; }
    up_to_date "$t" || { build "$t"; fail "$t: after $what, a second build would do work"; }
  done
  [ "$(source_sum)" = "$before" ] || fail "$what: a build step wrote into the source tree"
}

step "the first build" "Levels/field 8
Sprites/hero 5
Sprites/slime 7"

sleep 1
printf 'a goblin\n' > assets/Sprites/goblin.txt
step "adding an asset" "Levels/field 8
Sprites/goblin 9
Sprites/hero 5
Sprites/slime 7"

sleep 1
printf 'a bigger hero\n' > assets/Sprites/hero.txt
step "editing an asset" "Levels/field 8
Sprites/goblin 9
Sprites/hero 14
Sprites/slime 7"

sleep 1
rm assets/Sprites/slime.txt
step "deleting an asset" "Levels/field 8
Sprites/goblin 9
Sprites/hero 14"

sleep 1
mv assets/Levels/field.txt assets/Levels/meadow.txt
step "renaming an asset" "Levels/meadow 8
Sprites/goblin 9
Sprites/hero 14"
sleep 1
touch assets/Sprites/hero.txt
step "touching an asset" "Levels/meadow 8
Sprites/goblin 9
Sprites/hero 14" touched
echo "content builds: ok"
