#!/bin/sh
# Asset names C cannot spell (issue 26): two names that differ only in such characters are two
# assets with two ids and disambiguated member names, kept by the manifest; names rewritten for C
# are mentioned once; manifests written before keep every id and member name they issued; a real
# game data tree packs with one category at its root.
#   test_asset_names.sh THREADLINK_GEN LEGACY_FIXTURE_DIR [mode]   mode: names (default) | realtree
# realtree reads TLG_REALTREE (the tree, default frozen-bubble's), TLG_REALTREE_NAMES (stem or
# path) and TLG_REALTREE_QUALIFIED (how many member names must be qualified, when set).
set -eu
gen=$1
legacy=$2
mode=${3:-names}
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { want=$1; shift; set +e; "$@" >out.txt 2>err.txt; rc=$?; set -e; [ "$rc" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $rc, want $want: $*"; }; }
# The enumerator a catalog gives asset $2 (catalog header $1).
member_of() { grep -F "\"$2\", " "$1" | sed 's/^ *{\([A-Za-z0-9_]*\),.*/\1/'; }
# The value the enum header $1 gives enumerator $2.
value_of() { grep -E "^    $2( TL_DEPRECATED_ENTRY\(.*\))? = " "$1" | sed 's/.* = \(-\{0,1\}[0-9]*\),\{0,1\}$/\1/'; }
# Every entry of a manifest as "value name tombstone", sorted.
entries() { jq -r '.entries[] | "\(.value) \(.name) \(.tombstone)"' "$1" | sort; }

# A real game data tree, packed with one category at its root: every file an asset, no refusal.
if [ "$mode" = realtree ]; then
    src=${TLG_REALTREE:-/usr/share/games/frozen-bubble}
    [ -d "$src" ] || { echo "$src is not installed (Debian frozen-bubble-data, pingus-data): skipped"; exit 77; }
    mkdir p
    cp -rL "$src" p/tree 2>/dev/null || true # a dangling link in the package is not copied
    # TLG_REALTREE_NAMES=path for trees whose files share a stem (select.png, select.spec).
    printf '{ "content": [ { "profile": "Real", "source_root": "tree", "output": "out/Real", "compression": "lz4", "names": "%s" } ] }\n' \
        "${TLG_REALTREE_NAMES:-stem}" > p/threadlink.json
    files=$(find p/tree -type f ! -path '*/.*' | wc -l)
    start=$(date +%s%N)
    expect_rc 0 "$gen" pack -C p --no-progress
    took=$(( ($(date +%s%N) - start) / 1000000 ))
    count=$(grep -c '^ *{Content_Real_' p/generated/content_real_catalog.h)
    [ "$count" = "$files" ] || fail "$count assets for $files files"
    rewritten=$(sed -n 's/^  \([0-9]*\) names\{0,1\} rewritten for C:.*/\1/p' out.txt)
    qualified=$(grep -c 'warning: asset .* is spelled .* in C' err.txt || true)
    echo "$src: $files files, $(du -sb p/tree | cut -f1) bytes, ${took} ms, ${rewritten:-0} names rewritten for C, $qualified member names qualified"
    grep '^pack Real' out.txt
    grep 'warning: asset ' err.txt || true
    [ -z "${TLG_REALTREE_QUALIFIED:-}" ] || [ "$qualified" = "$TLG_REALTREE_QUALIFIED" ] ||
        fail "$qualified member names qualified, want $TLG_REALTREE_QUALIFIED"
    # A second pack changes nothing and says so quietly.
    expect_rc 0 "$gen" pack -C p --no-progress
    grep -q 'rewritten\|added' out.txt && { cat out.txt; fail "a second pack of the real tree reported changes"; }
    exit 0
fi

# --- Two names, one C spelling, in one folder: two assets ---------------------------------------
mkdir -p g/assets/ui
printf 'dash' > g/assets/ui/button-pressed.png
printf 'underscore' > g/assets/ui/button_pressed.png
printf 'space' > "g/assets/ui/a b.txt"
printf 'underscore' > g/assets/ui/a_b.txt
printf 'paren' > "g/assets/ui/my-file (2).png"
printf 'plain' > g/assets/ui/plain.png
echo '{ "content": [ { "profile": "Game", "source_root": "assets", "output": "out/Game" } ] }' > g/threadlink.json
expect_rc 0 "$gen" pack -C g --no-progress
cat=g/generated/content_game_catalog.h
enum=g/generated/content_game.h
[ "$(member_of $cat ui/button-pressed)" = Content_Game_ui_button_pressed ] || fail "button-pressed: $(member_of $cat ui/button-pressed)"
[ "$(member_of $cat ui/button_pressed)" = Content_Game_ui_button_pressed_2 ] || fail "button_pressed: $(member_of $cat ui/button_pressed)"
[ "$(member_of $cat 'ui/a b')" = Content_Game_ui_a_b ] || fail "a b: $(member_of $cat 'ui/a b')"
[ "$(member_of $cat ui/a_b)" = Content_Game_ui_a_b_2 ] || fail "a_b: $(member_of $cat ui/a_b)"
v1=$(value_of $enum Content_Game_ui_button_pressed)
v2=$(value_of $enum Content_Game_ui_button_pressed_2)
[ -n "$v1" ] && [ -n "$v2" ] && [ "$v1" != "$v2" ] || fail "button ids: '$v1' '$v2'"
# A warning names both files, and the summary names the rewritten spellings once.
grep -qF 'g/assets/ui/button_pressed.png: warning: asset "ui/button_pressed" is spelled ui_button_pressed in C, like "ui/button-pressed" (assets/ui/button-pressed.png): it is named ui_button_pressed_2' err.txt ||
    { cat err.txt; fail "no warning naming both button files"; }
grep -qF 'g/assets/ui/a_b.txt: warning: asset "ui/a_b" is spelled ui_a_b in C, like "ui/a b" (assets/ui/a b.txt): it is named ui_a_b_2' err.txt ||
    { cat err.txt; fail "no warning naming both a b files"; }
grep -qF '  3 names rewritten for C: "ui/a b" -> ui_a_b, "ui/button-pressed" -> ui_button_pressed, "ui/my-file (2)" -> ui_my_file__2_' out.txt ||
    { cat out.txt; fail "summary of names rewritten for C"; }
[ "$(grep -c 'rewritten for C' out.txt)" = 1 ] || fail "rewritten names mentioned more than once"
cp g/generated/Content.Game.manifest.json first.json
cp $enum first.h
# A second run: nothing to say, nothing changed.
expect_rc 0 "$gen" pack -C g --no-progress
grep -q 'Content.Game\|rewritten' out.txt && { cat out.txt; fail "a second run reported changes"; }
[ ! -s err.txt ] || { cat err.txt; fail "a second run warned"; }
cmp first.json g/generated/Content.Game.manifest.json || fail "a second run changed the manifest"
expect_rc 0 "$gen" check -C g
# The incumbent goes and comes back: every name and id as before (revived).
mv g/assets/ui/button-pressed.png dash.png
expect_rc 0 "$gen" pack -C g --no-progress
grep -q '1 tombstoned: ui_button_pressed$' out.txt || { cat out.txt; fail "removal"; }
mv dash.png g/assets/ui/button-pressed.png
expect_rc 0 "$gen" pack -C g --no-progress
grep -q '1 revived: ui_button_pressed$' out.txt || { cat out.txt; fail "revival"; }
cmp first.json g/generated/Content.Game.manifest.json || fail "remove and re-add changed the manifest"
cmp first.h $enum || fail "remove and re-add changed the enum header"

# The other file first: the incumbent keeps the plain member name, the newcomer is qualified.
mkdir -p h/assets/ui
printf 'underscore' > h/assets/ui/button_pressed.png
cp g/threadlink.json h/
expect_rc 0 "$gen" pack -C h --no-progress
printf 'dash' > h/assets/ui/button-pressed.png
expect_rc 0 "$gen" pack -C h --no-progress
[ "$(member_of h/generated/content_game_catalog.h ui/button_pressed)" = Content_Game_ui_button_pressed ] || fail "incumbent renamed"
[ "$(member_of h/generated/content_game_catalog.h ui/button-pressed)" = Content_Game_ui_button_pressed_2 ] || fail "newcomer not qualified"
grep -qF 'h/assets/ui/button-pressed.png: warning: asset "ui/button-pressed" is spelled ui_button_pressed in C, like "ui/button_pressed" (assets/ui/button_pressed.png): it is named ui_button_pressed_2' err.txt ||
    { cat err.txt; fail "newcomer warning"; }
# Same names, same ids: an id is the hash of the asset's own name, whatever came first.
[ "$(value_of h/generated/content_game.h Content_Game_ui_button_pressed_2)" = "$v1" ] || fail "button-pressed's id depends on history"

# Names unique case-insensitively: two files differing only in case are still refused.
mkdir -p c/assets
printf 'a' > c/assets/Icon.png
printf 'b' > c/assets/icon.png
cp g/threadlink.json c/
expect_rc 1 "$gen" pack -C c --no-progress
grep -qF 'c/assets/icon.png: error: asset name "icon" of profile "Game" is also the name of assets/Icon.png (names are unique per profile, case-insensitively)' err.txt ||
    { cat err.txt; fail "case-only names"; }
[ ! -e c/generated ] || fail "a refused build wrote headers"
# Names unique under Unicode normalisation too: "café" composed (U+00E9) and decomposed (e + U+0301,
# as macOS stores names) are one name, and so are KELVIN SIGN and K; a flat build copied to macOS
# would hold one file for both. Refused naming both paths; "cafe" is another name.
nfc=$(printf 'caf\303\251') nfd=$(printf 'cafe\314\201') kelvin=$(printf '\342\204\252')
mkdir -p n/assets/fr
printf 'composed' > "n/assets/fr/$nfc.png"
printf 'decomposed' > "n/assets/fr/$nfd.txt"
printf 'plain' > n/assets/fr/cafe.png
printf 'k' > n/assets/fr/k.png
printf 'kelvin' > "n/assets/fr/$kelvin.png"
cp g/threadlink.json n/
expect_rc 1 "$gen" pack -C n --no-progress
grep -qF "n/assets/fr/$nfc.png: error: asset name \"fr/$nfc\" of profile \"Game\" is also the name of assets/fr/$nfd.txt under Unicode normalisation" err.txt ||
    { cat err.txt; fail "composed and decomposed names"; }
grep -qF "n/assets/fr/$kelvin.png: error: asset name \"fr/$kelvin\" of profile \"Game\" is also the name of assets/fr/k.png under Unicode normalisation" err.txt ||
    { cat err.txt; fail "KELVIN SIGN and k"; }
[ "$(grep -c 'error:' err.txt)" = 2 ] || { cat err.txt; fail "cafe is another name"; }
[ ! -e n/generated ] && [ ! -e n/out ] || fail "a refused build wrote outputs"
rm "n/assets/fr/$nfd.txt" "n/assets/fr/$kelvin.png"
expect_rc 0 "$gen" pack -C n --no-progress
# "a/b" and "a_b" (a file below a folder and one beside it) are two assets with two keys, as their
# names are; the newcomer's C name is numbered.
mkdir -p s/assets/a
printf 'a' > s/assets/a/b.png
printf 'b' > s/assets/a_b.png
cp g/threadlink.json s/
expect_rc 0 "$gen" pack -C s --no-progress
grep -qF 's/assets/a_b.png: warning: asset "a_b" is spelled a_b in C, like "a/b" (assets/a/b.png): it is named a_b_2' err.txt ||
    { cat err.txt; fail "folder separator: the newcomer's member name"; }
grep -q '"key": "game.a/b"' s/generated/Content.Game.manifest.json && grep -q '"key": "game.a_b"' s/generated/Content.Game.manifest.json ||
    { cat s/generated/Content.Game.manifest.json; fail "folder separator: two keys"; }

# --- Injector entries rewritten for C are mentioned too ---------------------------------------
mkdir -p i/injectors
echo '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}]}' > i/threadlink.json
printf 'Big Axe\nPlain\ndon'"'"'t\n' > i/injectors/Game.Ids.User.txt
expect_rc 0 "$gen" generate -C i
grep -qF '  2 names rewritten for C: "Big Axe" -> Big_Axe, "don'"'"'t" -> don_t' out.txt || { cat out.txt; fail "injector names rewritten for C"; }
expect_rc 0 "$gen" generate -C i
[ ! -s out.txt ] || { cat out.txt; fail "a no-op generate is not quiet"; }
echo 'Mighty Sword' >> i/injectors/Game.Ids.User.txt
expect_rc 0 "$gen" generate -C i
grep -qF '  1 name rewritten for C: "Mighty Sword" -> Mighty_Sword' out.txt || { cat out.txt; fail "only the new rewritten name"; }

# --- A manifest written before (tests/content/legacy, by the generator of 4f7892a) -------------
cp -r "$legacy" l
chmod -R u+w l
cp l/generated/Content.Legacy.manifest.json old.json
cp l/generated/content_legacy.h old.h
cp l/generated/content_legacy_catalog.h old_catalog.h
# check asks for the upgrade once: keys are rewritten to asset names, nothing else.
expect_rc 1 "$gen" check -C l
expect_rc 0 "$gen" generate -C l
grep -q 'keys upgraded' out.txt || { cat out.txt; fail "the upgrade is not mentioned"; }
cmp old.h l/generated/content_legacy.h || fail "the upgrade changed the enum header"
cmp old_catalog.h l/generated/content_legacy_catalog.h || fail "the upgrade changed the catalog header"
entries old.json > old.txt
entries l/generated/Content.Legacy.manifest.json > new.txt
diff old.txt new.txt || fail "the upgrade changed an id, a member name or a tombstone"
# Every asset now keys by its own name, the key its value was issued for kept beside it.
grep -qF '{"key": "legacy.sprites/hero", "issued_key": "legacy.sprites_hero", "name": "Sprites_hero", "scope": "Legacy", "value": 2341091654, "seed_offset": 0, "tombstone": false}' \
    l/generated/Content.Legacy.manifest.json || fail "a plain name's entry was not upgraded as it should be"
grep -qF '"key": "legacy.ui/button-pressed", "issued_key": "legacy.ui_button_pressed", "name": "ui_button_pressed"' \
    l/generated/Content.Legacy.manifest.json || { cat l/generated/Content.Legacy.manifest.json; fail "upgraded entry"; }
expect_rc 0 "$gen" check -C l
expect_rc 0 "$gen" generate -C l
[ ! -s out.txt ] || { cat out.txt; fail "a second generate after the upgrade is not quiet"; }
# diff matches an upgraded entry through the key it was issued for: nothing changed.
expect_rc 0 "$gen" diff old.json l/generated/Content.Legacy.manifest.json
grep -qx 'threadlink-gen diff: 0 breaking, 0 approved, 0 compatible changes' out.txt || { cat out.txt; fail "diff across the upgrade"; }
# The value is checked against the issued key: an edited one is refused, nothing written.
cp l/generated/Content.Legacy.manifest.json upgraded.json
sed -i 's/"issued_key": "legacy.ui_button_pressed"/"issued_key": "legacy.ui_button_pushed"/' l/generated/Content.Legacy.manifest.json
cp l/generated/Content.Legacy.manifest.json edited.json
expect_rc 1 "$gen" generate -C l
grep -qF "entry 'legacy.ui/button-pressed': value 202222313 is not the hash of its issued key under seed offset 0" err.txt || { cat err.txt; fail "edited issued key"; }
cmp edited.json l/generated/Content.Legacy.manifest.json || fail "a refused run wrote the manifest"
cp upgraded.json l/generated/Content.Legacy.manifest.json
# A tombstone of before comes back under its old id.
printf 'gone' > l/assets/ui/gone-soon.png
expect_rc 0 "$gen" generate -C l
grep -q '1 revived: ui_gone_soon$' out.txt || { cat out.txt; fail "old tombstone not revived"; }
[ "$(value_of l/generated/content_legacy.h Content_Legacy_ui_gone_soon)" = 735007267 ] || fail "revived id"
# Newcomers spelled like upgraded incumbents: the incumbents keep their ids and names.
printf 'u' > l/assets/ui/button_pressed.png
printf 'u' > l/assets/ui/a_b.txt
expect_rc 0 "$gen" generate -C l
lc=l/generated/content_legacy_catalog.h
[ "$(member_of $lc ui/button-pressed)" = Content_Legacy_ui_button_pressed ] || fail "upgraded incumbent renamed"
[ "$(value_of l/generated/content_legacy.h Content_Legacy_ui_button_pressed)" = 202222313 ] || fail "upgraded incumbent's id"
[ "$(member_of $lc ui/button_pressed)" = Content_Legacy_ui_button_pressed_2 ] || fail "newcomer after the upgrade"
[ "$(member_of $lc 'ui/a b')" = Content_Legacy_ui_a_b ] || fail "upgraded a b renamed"
[ "$(value_of l/generated/content_legacy.h Content_Legacy_ui_a_b)" = 1220317234 ] || fail "upgraded a b's id"
[ "$(member_of $lc ui/a_b)" = Content_Legacy_ui_a_b_2 ] || fail "a_b after the upgrade"
expect_rc 0 "$gen" check -C l
expect_rc 0 "$gen" diff old.json l/generated/Content.Legacy.manifest.json
grep -qx 'threadlink-gen diff: 0 breaking, 0 approved, 3 compatible changes' out.txt || { cat out.txt; fail "diff after the newcomers"; }
echo "asset names ok"
