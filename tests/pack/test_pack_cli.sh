#!/bin/sh
# threadlink-gen pack from the command line: exit codes, the summary line, byte-identical output
# under another time zone and locale, generated catalog headers compiled as C and C++, and
# locality measured on a real game's data tree (Debian frozen-bubble-data) when it is installed.
#   test_pack_cli.sh THREADLINK_GEN [mode]   mode: cli (default) | realtree
set -eu
gen=$1
mode=${2:-cli}
work=$(mktemp -d)
# A FAT mount (below) is unmounted before the tree goes.
trap '[ -d "$work/fat" ] && fusermount -u "$work/fat" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
# pack's record of input hashes goes to the user's cache folder: here, the test's own.
export XDG_CACHE_HOME="$work/cache"

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
# An unknown key is an input error too (exit 1, as the seed's builder has it for an unknown
# -contentlink.<key>), naming the nearest key for a typo and every known key.
expect_rc 1 "$gen" pack --bogus
# An unknown profile is an input error (exit 1, as the seed's builder has it) naming the known ones.
expect_rc 1 "$gen" pack --profile Nope
grep -q "^threadlink.json: error: unknown profile 'Nope' (profiles: Main, Flat, or all)$" err.txt || { cat err.txt; fail "unknown profile message"; }
expect_rc 1 "$gen" pack --profile main
grep -q "unknown profile 'main' (did you mean 'Main'?) (profiles: Main, Flat, or all)$" err.txt || { cat err.txt; fail "unknown profile suggestion"; }
[ ! -e out ] && [ ! -e generated ] || fail "an unknown profile wrote something"
expect_rc 2 "$gen" pack --max-archive-mb 0 --profile Main
expect_rc 2 "$gen" pack --compression lzma --profile Main
expect_rc 2 "$gen" pack --output elsewhere
[ ! -e out ] && [ ! -e generated ] || fail "a usage error wrote something"
expect_rc 0 "$gen" pack --help
expect_rc 0 env TZ=UTC LC_ALL=C "$gen" pack --no-progress
grep -q '^pack Main: 4 files, 0.1 MB in, .* MB out, 2 archives (2 written, 0 unchanged), [0-9.]* s$' out.txt || { cat out.txt; fail "summary line"; }
grep -q '^pack Flat: 4 files, .*flat (4 written, 0 unchanged)' out.txt || { cat out.txt; fail "flat summary line"; }
cp -r out first
# Another time zone and locale, from scratch (manifests kept: they are the identity store).
rm -rf out
expect_rc 0 env TZ=Asia/Kathmandu LC_ALL=de_DE.UTF-8 LANG=fr_FR.UTF-8 "$gen" pack --no-progress --profile all
diff -r first out || fail "output differs under another time zone and locale"
# `all` in any case is every profile.
for all in ALL All; do
    expect_rc 0 "$gen" pack --no-progress --profile $all
    grep -q '^pack Main:' out.txt && grep -q '^pack Flat:' out.txt || { cat out.txt err.txt; fail "--profile $all"; }
done
# A re-pack with nothing changed writes nothing.
expect_rc 0 "$gen" pack --no-progress
grep -q '2 archives (0 written, 2 unchanged)' out.txt || { cat out.txt; fail "no-op re-pack wrote archives"; }
grep -q 'flat (0 written, 4 unchanged)' out.txt || { cat out.txt; fail "no-op re-pack wrote flat files"; }
# An unknown key exits 1 with the nearest key and the known ones; a known key without its value
# and a stray argument stay usage errors (2). Nothing is written in any case.
cp -r out before-keys
keys='-C, --config, --quiet, --banner-without-version, --diagnostics-format, --help, -h, --generate-command, --profile, --output, --archive, --compression, --compression-level, --max-archive-mb, --progress, --no-progress, --build-step, --strict, --depfile, --deptarget, --stamp, --source, --partitioner, --post-build, --no-post-build, --jobs, -j'
expect_rc 1 "$gen" pack --compresion zstd
[ "$(cat err.txt)" = "threadlink-gen: error: unknown key '--compresion' (did you mean '--compression'?)
known keys: $keys" ] || { cat err.txt; fail "unknown key message"; }
expect_rc 1 "$gen" pack --foo 1
[ "$(cat err.txt)" = "threadlink-gen: error: unknown key '--foo'
known keys: $keys" ] || { cat err.txt; fail "unknown key list"; }
expect_rc 2 "$gen" pack --compression
grep -q "^threadlink-gen: error: option '--compression' needs a value$" err.txt || { cat err.txt; fail "missing value message"; }
expect_rc 2 "$gen" pack stray
expect_rc 2 "$gen" pack --jobs many
diff -r before-keys out || fail "a bad key wrote the output folder"
rm -rf before-keys
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

# Overrides of the source root, the partitioner and the post-build hooks, for one profile, in
# memory (the config is not written); the generate pass names the catalog against --source.
mkdir -p parity/assets/Icons parity/other/Icons
printf 'sword' > parity/assets/Icons/sword.png
printf 'axe' > parity/other/Icons/axe.png
printf 'helm' > parity/other/Icons/helm.png
cat > parity/threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main", "post_build": "echo config >> hooks.txt" },
  { "profile": "Flat", "source_root": "assets", "output": "out/Flat", "archive": "none" } ] }
JSON
cp parity/threadlink.json config.before
expect_rc 0 "$gen" pack -C parity --no-progress --profile Main --source other --partitioner sequential --post-build 'echo one >> hooks.txt' --post-build 'echo two >> hooks.txt'
grep -q '"Icons/axe"' parity/out/Main/archives.json && ! grep -q '"Icons/sword"' parity/out/Main/archives.json || fail "--source not applied"
grep -q '"partitioner": "sequential"' parity/out/Main/archives.json || fail "--partitioner not applied"
grep -q 'Content_Main_Icons_axe' parity/generated/content_main.h || fail "the generate pass did not name the catalog against --source"
[ "$(cat parity/hooks.txt)" = "$(printf 'one\ntwo')" ] || { cat parity/hooks.txt; fail "--post-build did not replace the profile's hooks"; }
cmp -s parity/threadlink.json config.before || fail "an override wrote the config"
expect_rc 0 "$gen" pack -C parity --no-progress --profile Main --no-post-build
[ "$(cat parity/hooks.txt)" = "$(printf 'one\ntwo')" ] || fail "--no-post-build ran a hook"
grep -q '"partitioner": "trie"' parity/out/Main/archives.json && grep -q '"Icons/sword"' parity/out/Main/archives.json || fail "overrides outlived their run"
expect_rc 2 "$gen" pack -C parity --source other
grep -q 'apply to one profile' err.txt || fail "overrides with several profiles"
expect_rc 2 "$gen" pack -C parity --profile Main --partitioner bogus
grep -q "partitioner takes trie or sequential, not 'bogus'" err.txt || fail "--partitioner message"
expect_rc 1 "$gen" pack -C parity --profile Main --source missing
grep -q 'source root "missing" does not exist' err.txt || { cat err.txt; fail "--source missing"; }
expect_rc 1 "$gen" pack -C parity --profile Main --source out
grep -q 'output folder "out/Main" is inside the source root' err.txt || { cat err.txt; fail "--source containing the output"; }
# The post-build hook gets the build's result as JSON, on its standard input and in the file
# $TL_CONTENT_RESULT names.
cat > parity/hook.sh <<'SH'
cat > result.json
cmp -s result.json "$TL_CONTENT_RESULT" || { echo "stdin and TL_CONTENT_RESULT differ" >&2; exit 1; }
SH
cat > check_result.py <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["profile"] == "Main" and r["output"] == "out/Main" and r["source_root"] == "other", r
assert r["archive"] == "packed" and r["compression"] == "zstd", r
assert r["built_names"] == ["Icons/axe", "Icons/helm"], r["built_names"]
assert r["files"] == sorted(r["files"]) and ".threadlink-content" in r["files"] and "archives.json" in r["files"], r["files"]
names = [a["name"] for a in r["archives"]]
assert names == sorted(f for f in r["files"] if f.endswith(".tlpk")), (names, r["files"])
assert sum(len(a["files"]) for a in r["archives"]) == 2
written = [a["written"] for a in r["archives"]]
assert written == [sys.argv[2] == "first"] * len(written), written
t = r["timings"]
assert all(isinstance(t[k], (int, float)) and t[k] >= 0 for k in ("scan_ms", "build_ms", "total_ms")), t
PY
for run in first again; do
    expect_rc 0 "$gen" pack -C parity --no-progress --profile Main --source other --post-build 'sh hook.sh'
    python3 check_result.py parity/result.json $run || fail "post-build result JSON ($run run)"
done
rm -rf parity config.before check_result.py

# --jobs: the same bytes for any job count (archives and index), for every codec, on a tree of
# several archives whose entries the threads finish out of order (sizes from 1 byte to 300 KB).
mkdir -p jobs/assets
awk 'BEGIN { srand(7); for (i = 0; i < 120; i++) { f = sprintf("jobs/assets/f%03d.txt", i); n = (i * 7919) % 300000 + 1;
    s = ""; for (k = 0; k < 64; k++) s = s sprintf("%c", 97 + int(rand() * (i % 5 == 0 ? 26 : 3)));
    while (length(s) < n) s = s s; printf "%s", substr(s, 1, n) > f; close(f) } }'
for codec in zstd lz4 none; do
    cat > jobs/threadlink.json <<JSON
{ "content": [ { "profile": "J", "source_root": "assets", "output": "out/J", "max_archive_mb": 1, "compression": "$codec" } ] }
JSON
    for j in 1 2 8; do
        rm -rf jobs/out
        expect_rc 0 "$gen" pack -C jobs --no-progress --quiet --jobs $j
        [ "$(ls jobs/out/J | grep -c '\.tlpk$')" -ge 5 ] || fail "--jobs: too few archives to show anything"
        mv jobs/out/J "jobs/$codec-$j"
    done
    diff -r "jobs/$codec-1" "jobs/$codec-2" >&2 || fail "--jobs 2 ($codec) differs from --jobs 1"
    diff -r "jobs/$codec-1" "jobs/$codec-8" >&2 || fail "--jobs 8 ($codec) differs from --jobs 1"
done
expect_rc 2 "$gen" pack -C jobs --jobs 0
grep -q "jobs takes a whole number from 1 to 1024, not '0'" err.txt || fail "--jobs 0 message"

# Re-packing only what changed: after a one-file edit only the archive holding that file is
# written; every other archive keeps its inode and time (not rewritten), and a kept archive
# whose bytes no longer match the index is built again.
cat > jobs/threadlink.json <<'JSON'
{ "content": [ { "profile": "J", "source_root": "assets", "output": "out/J", "max_archive_mb": 1 } ] }
JSON
rm -rf jobs/out
expect_rc 0 "$gen" pack -C jobs --no-progress
snap() { (cd jobs/out/J && for f in *.tlpk; do printf '%s %s\n' "$f" "$(stat -c '%i %y' "$f")"; done) | sort; }
snap > before.txt
n=$(wc -l < before.txt)
printf 'X' | dd of=jobs/assets/f050.txt bs=1 seek=3 count=1 conv=notrunc 2>/dev/null
expect_rc 0 "$gen" pack -C jobs --no-progress
grep -q "(1 written, $((n - 1)) unchanged)" out.txt || { cat out.txt; fail "a one-file edit wrote more than one archive"; }
snap > after.txt
[ "$(comm -12 before.txt after.txt | wc -l)" = $((n - 1)) ] || { diff before.txt after.txt >&2; fail "kept archives were rewritten"; }
kept=$(comm -12 before.txt after.txt | head -1 | cut -d' ' -f1)
cp "jobs/out/J/$kept" good.tlpk
printf 'Z' | dd of="jobs/out/J/$kept" bs=1 seek=200 count=1 conv=notrunc 2>/dev/null
expect_rc 0 "$gen" pack -C jobs --no-progress
grep -q "(1 written, $((n - 1)) unchanged)" out.txt || { cat out.txt; fail "a corrupted kept archive was not rebuilt"; }
cmp -s good.tlpk "jobs/out/J/$kept" || fail "the rebuilt archive differs from the one built before"
rm -rf jobs before.txt after.txt good.tlpk

# The record of input hashes (in the user's cache folder, one file per output folder): a file read
# before is not read again while its device, inode, size and times are as recorded, so a change
# that keeps its size and modification time (touch -r puts the time back) is still seen through
# its change time; a file changed in the last 2 s before a run is not recorded (it could change
# again within one tick of its times). The output folder holds no trace of it.
mkdir -p rec/assets
for i in 1 2 3; do echo "asset number $i" > rec/assets/a$i.txt; done
echo '{ "content": [ { "profile": "R", "source_root": "assets", "output": "out/R" } ] }' > rec/threadlink.json
export XDG_CACHE_HOME="$work/rec-cache"
sleep 3 # older than the 2 s a file must have settled for
expect_rc 0 "$gen" pack -C rec --no-progress
record=$(ls rec-cache/threadlink-gen/pack-*.inputs)
[ "$(grep -c '	assets/a[123].txt$' "$record")" = 3 ] || { cat "$record"; fail "settled files not recorded"; }
[ "$(ls -A rec/out/R | grep -v -e '\.tlpk$' -e '^archives.json$' -e '^\.threadlink-content$')" = "" ] || { ls -A rec/out/R; fail "the output folder holds more than the build"; }
cp -p rec/assets/a2.txt times.ref
printf 'X' | dd of=rec/assets/a2.txt bs=1 seek=0 conv=notrunc 2>/dev/null
touch -r times.ref rec/assets/a2.txt
expect_rc 0 "$gen" pack -C rec --no-progress
grep -q '(1 written, 1 unchanged)' out.txt || { cat out.txt; fail "an edit that kept size and mtime was taken from the record"; }
! grep -q '	assets/a2.txt$' "$record" || fail "a file changed just now was recorded"
echo "asset number 4" > rec/assets/a4.txt
expect_rc 0 "$gen" pack -C rec --no-progress
! grep -q '	assets/a4.txt$' "$record" || fail "a file written just now was recorded"
# A record that does not parse is ignored (every file read again).
printf 'threadlink-gen input hashes 1\nnot a line\n0123 x\n' > "$record"
expect_rc 0 "$gen" pack -C rec --no-progress
grep -q '(0 written, 2 unchanged)' out.txt || { cat out.txt; fail "a broken record"; }
export XDG_CACHE_HOME="$work/cache"
rm -rf rec rec-cache times.ref

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

# Two packs at once on one output folder (make -j starting two rules that pack): the second waits
# for the first's lock, so both succeed and the output is what one run makes. Before, one failed,
# and on a first build the other could exit 0 with its output folder deleted.
mkdir race
cp -r assets race/
cat > race/threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main", "max_archive_mb": 1 },
  { "profile": "Flat", "source_root": "assets", "output": "out/Flat", "archive": "none" } ] }
JSON
(cd race && "$gen" pack --no-progress --quiet && mv out ../race-ref && rm -rf generated) || fail "pack of the race project"
for i in 1 2 3 4 5 6 7 8; do
    rm -rf race/out race/generated
    (cd race && exec "$gen" pack --no-progress --quiet >../race1.txt 2>&1) & p1=$!
    (cd race && exec "$gen" pack --no-progress --quiet >../race2.txt 2>&1) & p2=$!
    set +e; wait $p1; r1=$?; wait $p2; r2=$?; set -e
    [ "$r1" = 0 ] && [ "$r2" = 0 ] || { cat race1.txt race2.txt >&2; fail "concurrent packs, round $i: exit $r1 and $r2"; }
    diff -r race-ref race/out >&2 || fail "concurrent packs, round $i: the output differs from a single run's"
done

# Case-only renames on a case-insensitive file system, where the build reuses the old entry (same
# bytes), which keeps its old spelling: clean-up respells it instead of deleting what was just
# built. FAT through FUSE stands in for macOS and Windows; it needs root, /dev/fuse, mkfs.vfat and
# fusefat, and is skipped without them. (Folders are not tried: fusefat loses the files of a
# folder that is renamed.) Files are replaced by new ones, never rewritten in place, which fusefat
# does unreliably.
fat=no
if [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && command -v mkfs.vfat >/dev/null && command -v fusefat >/dev/null &&
   command -v fusermount >/dev/null; then
    truncate -s 40M fat.img && mkfs.vfat -F 32 fat.img >/dev/null 2>&1 && mkdir fat &&
        fusefat -o rw+ fat.img fat >/dev/null 2>&1 && fat=yes
fi
if [ "$fat" = yes ]; then
    mkdir -p fat/p/assets/Icons
    printf 'sword' > fat/p/assets/Icons/sword.png
    printf 'shield' > fat/p/assets/Icons/shield.png
    cat > fat/p/threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main" },
  { "profile": "Flat", "source_root": "assets", "output": "out/Flat", "archive": "none" } ] }
JSON
    (cd fat/p && "$gen" pack --no-progress --quiet) || fail "pack on FAT"
    # An asset renamed sword.png -> Sword.png (through another name: FAT keeps a same-name rename as it was).
    mv fat/p/assets/Icons/sword.png fat/p/assets/Icons/t.tmp && mv fat/p/assets/Icons/t.tmp fat/p/assets/Icons/Sword.png
    (cd fat/p && "$gen" pack --no-progress --quiet) || fail "pack on FAT after a case-only rename"
    [ "$(ls fat/p/out/Flat/assets/Icons | tr '\n' ' ')" = "Sword.png shield.png " ] ||
        { ls -la fat/p/out/Flat/assets/Icons >&2; fail "flat build on FAT: the renamed asset is not there as Sword.png"; }
    # The profile renamed Main -> main, its manifest along (else generate refuses it): archive names carry it.
    sed 's/"Content.Main"/"Content.main"/' fat/p/generated/Content.Main.manifest.json > manifest.tmp
    rm fat/p/generated/Content.Main.manifest.json && cp manifest.tmp fat/p/generated/Content.main.manifest.json
    sed 's/"profile": "Main"/"profile": "main"/' fat/p/threadlink.json > config.tmp
    rm fat/p/threadlink.json && cp config.tmp fat/p/threadlink.json
    (cd fat/p && "$gen" pack --no-progress --quiet --profile main) || fail "pack on FAT after a profile's case-only rename"
    ls fat/p/out/Main > listed.txt
    for a in $(grep -o '"main\.[^"]*\.tlpk"' fat/p/out/Main/archives.json | tr -d '"'); do
        grep -qx "$a" listed.txt || { cat listed.txt >&2; fail "packed build on FAT: archive $a is missing"; }
    done
    fusermount -u fat && rmdir fat
else
    echo "case-insensitive file system (FAT through FUSE): skipped (needs root, /dev/fuse, mkfs.vfat, fusefat)"
fi
# The record of input hashes pack leaves in the cache folder is read from disk, where a crash,
# another version or a hand edit may leave anything: truncated, garbage, another tree's, an
# entry with another size, or with another hash (the file's state as recorded). pack trusts no
# such record: the output and the generated headers are the bytes of a fresh pack, every time.
mkdir -p rec/assets/Icons rec/assets/Levels
printf 'sword' > rec/assets/Icons/sword.png
seq 1 3000 > rec/assets/Levels/one.txt
seq 1 4000 > rec/assets/Levels/two.txt
cat > rec/threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main" } ] }
JSON
(cd rec && XDG_CACHE_HOME="$work/rec-init" "$gen" pack --no-progress --quiet) || fail "record: first pack" # the manifest
cp -r rec fresh
sleep 3 # settled: a file changed in the last two seconds is left out of the record
pack_rec() { (cd "$1" && XDG_CACHE_HOME="$work/$2" "$gen" pack --no-progress --quiet) >out.txt 2>err.txt || { cat err.txt >&2; fail "record: pack $1 ($3)"; }; }
pack_rec fresh fresh-cache "fresh"
pack_rec rec rec-cache "the record written"
record=$(ls rec-cache/threadlink-gen/pack-*.inputs)
grep -q 'assets/Levels/one.txt$' "$record" || { cat "$record" >&2; fail "record: no entry for one.txt"; }
cp "$record" record.good
cp -a rec other && pack_rec other other-cache "another tree" # the same paths, other files
same_as_fresh() {
    pack_rec rec rec-cache "$1" # the output folder kept: the record is looked up by its real path
    diff -r fresh/out rec/out >&2 && diff -r fresh/generated rec/generated >&2 || fail "record: $1 gave other bytes than a fresh pack"
    cmp -s "$record" record.good || fail "record: $1 was not replaced by a good record"
}
same_as_fresh "a good record"
head -c $(( $(wc -c < record.good) / 2 )) record.good > "$record"
same_as_fresh "a truncated record"
head -n 2 record.good > "$record"
same_as_fresh "a record cut at a line's end"
head -c 3000 /dev/urandom > "$record"
same_as_fresh "garbage"
printf 'threadlink-gen input hashes 1\n\0\0\0\t\n' > "$record"
same_as_fresh "a record of NUL bytes"
cp other-cache/threadlink-gen/pack-*.inputs "$record"
same_as_fresh "another tree's record"
sed -E '/one\.txt$/ s/^([0-9a-f]+) [0-9]+ /\1 7 /' record.good > "$record"
same_as_fresh "an entry with another size"
sed -E '/one\.txt$/ s/^[0-9a-f]{16} /0123456789abcdef /' record.good > "$record"
same_as_fresh "an entry with another hash"
sed -E '/one\.txt$/ s/\t.*/\tassets\/Levels\/two.txt/' record.good > "$record"
same_as_fresh "an entry naming another file"
# An archive built again after an edit copies its unchanged entries from the previous build's
# archive that held them (intact, same codec and level) instead of compressing them again: the
# bytes are a fresh pack's, for zstd and lz4, through codec changes (none -> zstd -> lz4 -> zstd),
# level changes (codec:level; lz4 1 is lz4's default, 9 LZ4 HC) and with the previous archive
# damaged (not used, read again).
mkdir -p reuse/assets/Levels
i=1
while [ "$i" -le 40 ]; do
    seq "$i" $((i * 500)) > "reuse/assets/Levels/l$i.txt"
    head -c $((i * 100)) /dev/urandom > "reuse/assets/Levels/r$i.bin" # stored raw
    i=$((i + 1))
done
cat > reuse/threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main", "compression": "none" } ] }
JSON
pack_rec reuse reuse-cache "reuse: first"
sleep 3
pack_rec reuse reuse-cache "reuse: the record"
for step in "zstd l7" "zstd l9" "lz4 l3" "lz4 r5" "lz4:9 l11" "lz4:9 l12" "lz4:1 l13" "zstd:7 l14" "zstd l4" \
    "damaged l8"; do
    set -- $step
    codec=${1%%:*} level=
    case $1 in *:*) level=", \"compression_level\": ${1#*:}" ;; esac
    [ "$codec" = damaged ] && { codec=zstd; a=$(ls reuse/out/Main/Main.t*.tlpk | head -1); printf 'XXXX' | dd of="$a" bs=1 seek=200 conv=notrunc 2>/dev/null; }
    sed -i -E "s/\"compression\": \"[a-z0-9]+\"(, \"compression_level\": [0-9]+)?/\"compression\": \"$codec\"$level/" \
        reuse/threadlink.json
    f=reuse/assets/Levels/$2.txt; [ -e "$f" ] || f=reuse/assets/Levels/$2.bin
    printf 'E' | dd of="$f" bs=1 seek=3 conv=notrunc 2>/dev/null
    pack_rec reuse reuse-cache "reuse: $step"
    rm -rf reuse-fresh && cp -r reuse reuse-fresh && rm -rf reuse-fresh/out
    pack_rec reuse-fresh reuse-fresh-cache "reuse: fresh, $step"
    diff -r reuse-fresh/out reuse/out >&2 || fail "reuse: $step gave other bytes than a fresh pack"
    # A level is recorded (and names the archives) unless it is the codec's default.
    case $1 in
    lz4:9 | zstd:7) grep -q "\"compression_level\": ${1#*:}," reuse/out/Main/archives.json || fail "reuse: $step: no level recorded" ;;
    *) ! grep -q compression_level reuse/out/Main/archives.json || fail "reuse: $step: a default level recorded" ;;
    esac
done
echo "pack CLI ok"
