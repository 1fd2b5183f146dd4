#!/bin/sh
# threadlink-gen pack from the command line: exit codes, the summary line, byte-identical output
# under another time zone and locale, generated catalog headers compiled as C and C++, and
# locality measured on a real game's data tree (Debian frozen-bubble-data) when it is installed.
#   test_pack_cli.sh THREADLINK_GEN [mode]   mode: cli (default) | realtree
set -eu
gen=$1
mode=${2:-cli}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { want=$1; shift; set +e; "$@" >out.txt 2>err.txt; rc=$?; set -e; [ "$rc" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $rc, want $want: $*"; }; }

# The asset archives of an output folder (the catalog archive excluded), one name a line.
archives() { ls "$1" | grep '\.tlpk$' | grep -v '\.catalog-' | sort; }
# How many names of file $1 are missing from file $2.
missing() { comm -23 "$1" "$2" | wc -l | tr -d ' '; }

if [ "$mode" = realtree ]; then
    src=/usr/share/games/frozen-bubble
    [ -d "$src" ] || { echo "frozen-bubble-data is not installed: skipped"; exit 77; }
    cp -rL "$src" fb
    cat > threadlink.json <<'JSON'
{ "content": [ { "profile": "FrozenBubble", "source_root": "fb", "output": "out/FB", "max_archive_mb": 1,
    "compression": "lz4",
    "categories": [ { "name": "Gfx", "folder": "gfx" }, { "name": "Snd", "folder": "snd" },
                    { "name": "Data", "folder": "data" }, { "name": "Icons", "folder": "icons" },
                    { "name": "Locale", "folder": "locale" } ] } ] }
JSON
    expect_rc 0 "$gen" pack --no-progress
    cat out.txt
    files=$(find fb -type f | wc -l)
    archives out/FB > a0
    n=$(wc -l < a0)
    echo "frozen-bubble: $files files, $n asset archives"
    # Sequential fill of the same tree, for comparison.
    expect_rc 0 "$gen" pack --no-progress --output out/seq --quiet
    sed -i 's/"compression": "lz4"/"compression": "lz4", "partitioner": "sequential"/' threadlink.json
    expect_rc 0 "$gen" pack --no-progress --output out/seq --quiet
    echo "sequential fill: $(archives out/seq | wc -l) asset archives"
    sed -i 's/, "partitioner": "sequential"//' threadlink.json
    rm -rf out/seq
    # Edits: same size, other bytes, in several files one at a time: exactly one archive changes.
    for f in $(find fb -type f -size +2k | sort | awk 'NR % 97 == 5' | head -6); do
        printf 'X' | dd of="$f" bs=1 seek=100 count=1 conv=notrunc 2>/dev/null
        expect_rc 0 "$gen" pack --no-progress --quiet
        archives out/FB > a1
        [ "$(missing a1 a0)" = 1 ] && [ "$(missing a0 a1)" = 1 ] || fail "editing $f changed $(missing a1 a0) archives"
        mv a1 a0
    done
    # Add one file, then remove one: at most two archives change each time.
    cp fb/gfx/$(ls fb/gfx | grep -m1 '\.png$') fb/gfx/added-copy.png
    expect_rc 0 "$gen" pack --no-progress --quiet
    archives out/FB > a1
    echo "add one file: $(missing a1 a0) new, $(missing a0 a1) gone"
    [ "$(missing a1 a0)" -le 2 ] && [ "$(missing a0 a1)" -le 2 ] || fail "adding a file changed too many archives"
    mv a1 a0
    rm "fb/snd/$(ls fb/snd | sort | sed -n 3p)"
    expect_rc 0 "$gen" pack --no-progress --quiet
    archives out/FB > a1
    echo "remove one file: $(missing a1 a0) new, $(missing a0 a1) gone"
    [ "$(missing a1 a0)" -le 2 ] && [ "$(missing a0 a1)" -le 2 ] || fail "removing a file changed too many archives"
    echo "frozen-bubble locality ok"
    exit 0
fi

mkdir -p assets/Icons assets/Levels
printf 'sword' > assets/Icons/sword.png
printf 'shield' > assets/Icons/shield.png
seq 1 20000 > "assets/Levels/1st level.txt"
printf 'cafe' > "assets/Levels/$(printf 'caf\303\251').txt"
cat > threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main",
    "categories": [ { "name": "Icons", "folder": "Icons" }, { "name": "Levels", "folder": "Levels" } ] },
  { "profile": "Flat", "source_root": "assets", "output": "out/Flat", "archive": "none" } ] }
JSON

# Usage errors exit 2, input errors 1, success 0 with one summary line per profile.
expect_rc 2 "$gen" pack --bogus
expect_rc 2 "$gen" pack --profile Nope
expect_rc 2 "$gen" pack --max-archive-mb 0 --profile Main
expect_rc 2 "$gen" pack --compression lzma --profile Main
expect_rc 2 "$gen" pack --output elsewhere
expect_rc 0 "$gen" pack --help
expect_rc 0 env TZ=UTC LC_ALL=C "$gen" pack --no-progress
grep -q '^pack Main: 4 files, 0.1 MB in, .* MB out, 2 archives (2 written, 0 unchanged), [0-9.]* s$' out.txt || { cat out.txt; fail "summary line"; }
grep -q '^pack Flat: 4 files, .*flat (4 written, 0 unchanged)' out.txt || { cat out.txt; fail "flat summary line"; }
cp -r out first
# Another time zone and locale, from scratch (manifests kept: they are the identity store).
rm -rf out
expect_rc 0 env TZ=Asia/Kathmandu LC_ALL=de_DE.UTF-8 LANG=fr_FR.UTF-8 "$gen" pack --no-progress --profile all
diff -r first out || fail "output differs under another time zone and locale"
# A re-pack with nothing changed writes nothing.
expect_rc 0 "$gen" pack --no-progress
grep -q '2 archives (0 written, 2 unchanged)' out.txt || { cat out.txt; fail "no-op re-pack wrote archives"; }
grep -q 'flat (0 written, 4 unchanged)' out.txt || { cat out.txt; fail "no-op re-pack wrote flat files"; }
# Without archives.json every archive is built again, to the same bytes: none counts as written.
rm out/Main/archives.json
expect_rc 0 "$gen" pack --no-progress
grep -q '2 archives (0 written, 2 unchanged)' out.txt || { cat out.txt; fail "archives rebuilt to the same bytes were counted as written"; }
# A missing output folder is created; a foreign one is refused with exit 1, nothing written.
expect_rc 0 "$gen" pack --profile Main --output foreign
rm -rf foreign
mkdir foreign && echo mine > foreign/keep.txt
expect_rc 1 "$gen" pack --profile Main --output foreign
grep -q 'neither empty nor a previous content build' err.txt || fail "foreign folder message"
[ "$(ls foreign)" = keep.txt ] || fail "foreign folder was written"
# Overrides: lz4 into another folder, progress forced on (goes to stderr).
expect_rc 0 "$gen" pack --profile Main --output out/lz4 --compression lz4 --max-archive-mb 2 --progress
grep -q '"compression": "lz4"' out/lz4/archives.json || fail "override not applied"
grep -q 'pack Main:' err.txt || fail "no progress line"

# The generated headers compile warning-free as C and C++ and answer lookups.
cat > use.c <<'C'
#include "content_main_catalog.h"
#include <stdio.h>
#include <string.h>
int main(void)
{
    const content_main_asset *a = content_main_find("ICONS/SWORD");
    size_t n = 0;
    const uint32_t *levels = content_main_category_assets(CONTENT_MAIN_CATEGORY_Levels, &n);
    if (!a || a->size != 5 || a->id != Content_Main_Icons_sword || content_main_info(a->id) != a) return 1;
    if (content_main_find("Icons/swor") || n != 2) return 2;
    if (strcmp(content_main_assets()[levels[0]].name, "Levels/1st level") != 0) return 3;
    printf("%s %u\n", a->name, (unsigned)CONTENT_MAIN_ASSET_COUNT);
    return 0;
}
C
for cc in gcc clang; do
    for std in c99 c11 c2x; do
        $cc -std=$std -Wall -Wextra -Wpedantic -Werror -Igenerated use.c -o use
        ./use > /dev/null || fail "$cc -std=$std: lookups"
    done
done
cp use.c use.cpp
for cxx in g++ clang++; do
    $cxx -std=c++17 -Wall -Wextra -Wpedantic -Werror -Igenerated use.cpp -o use
    ./use > /dev/null || fail "$cxx: lookups"
done
# A profile with no assets (yet) gives headers that compile warning-free too.
mkdir -p nada/assets
echo '{ "content": [ { "profile": "Nada", "source_root": "assets" } ] }' > nada/threadlink.json
(cd nada && "$gen" pack --no-progress > /dev/null) || fail "pack of an empty profile"
printf '#include "content_nada_catalog.h"\nint main(void) { return content_nada_info(Content_Nada_None) != 0 || CONTENT_NADA_ASSET_COUNT != 0; }\n' > nada/use.c
for cc in gcc clang; do
    $cc -std=c99 -Wall -Wextra -Wpedantic -Werror -Inada/generated nada/use.c -o nada/use || fail "$cc: empty profile's catalog header"
    ./nada/use || fail "$cc: empty profile lookup"
done
echo "pack CLI ok"
