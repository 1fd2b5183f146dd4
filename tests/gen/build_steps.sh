#!/bin/sh
# What build systems call: `headers --list-outputs` (the outputs, writing nothing), `headers
# --expect-outputs` (declared against written: each difference named, nothing written), `headers
# --outputs-file` (the list kept up to date for CMake, a note when it changes), the
# depfiles of `headers` and `pack` (every asset file and folder), and `pack --build-step` (ids
# merged in memory as headers merges them; nothing written into the source tree).
#   build_steps.sh THREADLINK_GEN
set -u
gen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
trap 'rm -rf "$work"' EXIT
failed=0
expect() { # status, command...
  want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: '$*' exited $got, expected $want"; cat "$work/out" "$work/err"; failed=$((failed + 1))
  fi
}
expect_err() { # text the last stderr must contain
  grep -qF -- "$1" "$work/err" || { echo "FAIL: stderr lacks '$1'"; cat "$work/err"; failed=$((failed + 1)); }
}
expect_no_err() { # text the last stderr must not contain
  ! grep -qF -- "$1" "$work/err" || { echo "FAIL: stderr has '$1'"; cat "$work/err"; failed=$((failed + 1)); }
}
tree() { (cd "$1" && find . -print | sort && find . -type f | sort | xargs md5sum); }

p=$work/p
mkdir -p "$p/injectors" "$p/assets/Sprites"
cat > "$p/threadlink.json" <<'EOF'
{
  "domains": [ { "name": "Game.Ids", "output": "ids.h" }, { "name": "Game.More", "output": "sub/more.h" } ],
  "content": [ { "profile": "Game", "source_root": "assets", "output": "build/content",
                 "categories": [ { "name": "Sprites", "folder": "Sprites" } ] } ]
}
EOF
echo Alpha > "$p/injectors/Game.Ids.User.txt"
echo Beta > "$p/injectors/Game.More.User.txt"
echo hero > "$p/assets/Sprites/hero.txt"
cd "$work"

# --list-outputs: the paths below -o DIR in the order they are written; nothing written (no
# generated folder, no stamp, not even with -o).
tree p > before
expect 0 "$gen" headers --list-outputs -C p
printf 'ids.h\nsub/more.h\ncontent_game.h\ncontent_game_catalog.h\n' > want
cmp -s want out || { echo "FAIL: --list-outputs printed:"; cat out; failed=$((failed + 1)); }
expect 0 "$gen" headers --list-outputs -C p -o gen
cmp -s want out || { echo "FAIL: --list-outputs with -o printed other paths"; failed=$((failed + 1)); }
tree p > after
cmp -s before after || { echo "FAIL: --list-outputs wrote into the project"; failed=$((failed + 1)); }
[ ! -e gen ] || { echo "FAIL: --list-outputs made -o DIR"; failed=$((failed + 1)); }
expect 2 "$gen" headers --list-outputs -C p --depfile x.d
expect_err "--list-outputs writes nothing: it takes no --depfile, --expect-outputs or --outputs-file"
expect 2 "$gen" generate --list-outputs
expect_err "-o, --strict, --list-outputs, --expect-outputs and --outputs-file belong to the headers command, not 'generate'"
expect 2 "$gen" check --expect-outputs ids.h
expect_err "belong to the headers command, not 'check'"
# A broken config: the located error, exit 1, no list.
cp -r p broken
echo '{"domains": [{"name": "Game.Ids", "outptu": "ids.h"}]}' > broken/threadlink.json
expect 1 "$gen" headers --list-outputs -C broken
expect_err 'broken/threadlink.json:1:'
[ ! -s out ] || { echo "FAIL: a broken config still listed outputs"; failed=$((failed + 1)); }

# --expect-outputs: any order, ';'-separated or repeated, duplicates counted once.
expect 0 "$gen" headers -C p -o gen --quiet --expect-outputs 'content_game_catalog.h;ids.h' \
  --expect-outputs sub/more.h --expect-outputs 'content_game.h;ids.h'
[ -f gen/sub/more.h ] && [ -f gen/content_game_catalog.h ] || { echo "FAIL: declared outputs were not written"; failed=$((failed + 1)); }
# A difference: each missing and each extra file named (located where declared), exit 1, and
# nothing written: neither the existing outputs nor the stamp change, and a new -o DIR is not made.
echo Gamma >> p/injectors/Game.Ids.User.txt
tree gen > before
expect 1 "$gen" headers -C p -o gen --expect-outputs 'ids.h;old.h;content_game.h;content_game_catalog.h'
expect_err "p/threadlink.json:2:59: error: extra output sub/more.h: written, but the build does not declare it (--expect-outputs): add it to the build's outputs (the projects init writes: \`headers\` in meson.build, HEADER_NAMES in the Makefile; CMake's threadlink_generate: reconfigure); nothing was written"
expect_err "p/threadlink.json: error: missing output old.h: the build declares it (--expect-outputs), but nothing in the project writes it: remove it from the build's outputs (the projects init writes: \`headers\` in meson.build, HEADER_NAMES in the Makefile; CMake's threadlink_generate: reconfigure); nothing was written"
[ "$(grep -c error: err)" = 2 ] || { echo "FAIL: other errors than the two differences"; cat err; failed=$((failed + 1)); }
tree gen > after
cmp -s before after || { echo "FAIL: a failed --expect-outputs run changed the outputs"; failed=$((failed + 1)); }
expect 1 "$gen" headers -C p -o fresh --expect-outputs ids.h
[ ! -e fresh ] || { echo "FAIL: a failed --expect-outputs run made -o DIR"; failed=$((failed + 1)); }
expect 1 "$gen" headers -C p -o gen --expect-outputs ''
[ "$(grep -c 'error: extra output' err)" = 4 ] || { echo "FAIL: an empty declaration does not name all four outputs"; cat err; failed=$((failed + 1)); }

# --outputs-file (CMake's threadlink_generate): the list as --list-outputs prints it, relative to
# the caller; written when absent (no note: the first build), left alone while it is right, and
# rewritten with a note when the outputs change, the new header written at once (exit 0).
expect 0 "$gen" headers -C p -o gen --quiet --outputs-file outputs.txt
expect_no_err "outputs changed"
"$gen" headers --list-outputs -C p > want
cmp -s want outputs.txt || { echo "FAIL: --outputs-file wrote:"; cat outputs.txt; failed=$((failed + 1)); }
touch -d '2001-01-01' outputs.txt
expect 0 "$gen" headers -C p -o gen --quiet --outputs-file outputs.txt
[ "$(stat -c %Y outputs.txt)" = "$(date -d 2001-01-01 +%s)" ] || { echo "FAIL: an unchanged --outputs-file was rewritten"; failed=$((failed + 1)); }
sed -i 's|"domains": \[|"domains": [ { "name": "Game.Extra", "output": "extra.h" },|' p/threadlink.json
echo Delta > p/injectors/Game.Extra.User.txt
expect 0 "$gen" headers -C p -o gen --quiet --outputs-file outputs.txt
expect_err "outputs.txt: note: the project's outputs changed (1 new, 0 gone): this file lists them now, and the build configures again before its next run"
grep -qx extra.h outputs.txt && [ -f gen/extra.h ] || { echo "FAIL: the new output is not listed or not written"; failed=$((failed + 1)); }
expect 2 "$gen" headers -C p -o gen --outputs-file outputs.txt --expect-outputs ids.h
expect_err "--expect-outputs and --outputs-file are two ways to declare the outputs: give one"
sed -i 's|{ "name": "Game.Extra", "output": "extra.h" },||' p/threadlink.json
rm p/injectors/Game.Extra.User.txt

# A project before its first generate: one warning for every domain without a manifest, naming
# the command with the -C the build gave (--strict: the same, as an error).
mkdir -p fresh/injectors && echo Alpha > fresh/injectors/Game.Ids.User.txt && echo Beta > fresh/injectors/Game.More.User.txt
echo alpha > fresh/injectors/Game.Ids.Mod.txt # named Mod_alpha: said in a note
cp p/threadlink.json fresh/ && mkdir -p fresh/assets/Sprites && echo hero > fresh/assets/Sprites/hero.txt
expect 0 "$gen" headers -C fresh -o fresh-out --quiet
expect_err "fresh/threadlink.json: warning: a new project: Game.Ids, Game.More and Content.Game have no manifest yet, so this build numbers their 4 entries without recording them; run threadlink-gen generate -C fresh once to record them in generated/ (then commit it; if generated/ was deleted, restore it from version control instead: a rebuilt manifest forgets renamed and removed entries)"
expect_err "Game.Ids.manifest.json: note: name collision: 'alpha' from Mod (injectors/Game.Ids.Mod.txt:1:1) is named 'Mod_alpha' ('Alpha' has the plain name)"
[ "$(grep -c warning: err)" = 1 ] || { echo "FAIL: more than one warning for a new project"; cat err; failed=$((failed + 1)); }
expect 1 "$gen" headers -C fresh -o fresh-out --quiet --strict
expect_err "fresh/threadlink.json: error: a new project:"
rm -rf fresh fresh-out

# The depfile of headers lists every asset file and folder the content profile read.
expect 0 "$gen" headers -C p -o gen --quiet --depfile gen.d
grep -qF "$p/assets/Sprites/hero.txt" gen.d || { echo "FAIL: the headers depfile lacks the asset file"; cat gen.d; failed=$((failed + 1)); }
grep -q "^$p/assets/Sprites:\$" gen.d || { echo "FAIL: the headers depfile lacks the asset folder"; failed=$((failed + 1)); }
expect 0 "$gen" generate -C p --quiet --depfile generate.d
grep -qF "$p/assets/Sprites/hero.txt" generate.d || { echo "FAIL: the generate depfile lacks the asset file"; failed=$((failed + 1)); }

# pack --build-step: the source tree stays as it is (manifests read, never written); an asset the
# manifest lacks is warned about and gets the id generate will give it, so the output is
# byte-identical to pack's after generate. --depfile and --stamp are relative to where pack runs.
echo slime > p/assets/Sprites/slime.txt
echo Omicron >> p/injectors/Game.Ids.User.txt # not pack's to say: the headers step says it, once
tree p > before
expect 0 "$gen" pack --build-step -C p --output "$work/step" --quiet --no-progress --depfile pack.d --stamp pack.stamp
expect_err "p/generated/Content.Game.manifest.json: warning: 1 new entry of Content.Game not recorded in the manifest: run threadlink-gen generate -C p to record 1 new entry"
! grep -q "of Game.Ids not recorded" "$work/err" || { echo "FAIL: pack --build-step warns about a domain it does not pack"; cat "$work/err"; failed=$((failed + 1)); }
tree p > after
cmp -s before after || { echo "FAIL: pack --build-step wrote into the project"; diff before after; failed=$((failed + 1)); }
sed -i '/^Omicron$/d' p/injectors/Game.Ids.User.txt
[ -f pack.stamp ] && [ ! -e p/pack.stamp ] || { echo "FAIL: --stamp is not relative to the caller"; failed=$((failed + 1)); }
for dep in "$p/threadlink.json" "$p/assets/Sprites" "$p/assets/Sprites/hero.txt" "$p/assets/Sprites/slime.txt" \
           "$p/generated/Content.Game.manifest.json"; do
  grep -q "^$dep:\$" pack.d || { echo "FAIL: the pack depfile lacks $dep"; cat pack.d; failed=$((failed + 1)); }
done
head -1 pack.d | grep -qF "$work/pack.stamp: \\" || { echo "FAIL: the pack depfile's target is not the stamp"; failed=$((failed + 1)); }
expect 1 "$gen" pack --build-step --strict -C p --output "$work/strict" --quiet --no-progress
expect_err "p/generated/Content.Game.manifest.json: error: 1 new entry of Content.Game not recorded in the manifest"
[ ! -e strict ] || { echo "FAIL: a strict build step that failed wrote its output"; failed=$((failed + 1)); }
expect 2 "$gen" pack --strict -C p
expect_err "--strict belongs to --build-step"
expect 0 "$gen" generate -C p --quiet
expect 0 "$gen" pack -C p --output "$work/full" --quiet --no-progress
diff -r step full >/dev/null || { echo "FAIL: pack --build-step gave other bytes than pack after generate"; failed=$((failed + 1)); }
# A manifest not written yet: every asset is new, and the manifest's nearest folder stands in the
# depfile. pack names its own profile's domain (headers, the project's).
rm -r p/generated
expect 0 "$gen" pack --build-step -C p --output "$work/step2" --quiet --no-progress --depfile pack2.d
expect_err "a new project: Content.Game has no manifest yet, so this build numbers its 2 entries without recording them; run threadlink-gen generate -C p once"
[ ! -e p/generated ] || { echo "FAIL: pack --build-step made the generated folder"; failed=$((failed + 1)); }
grep -q "^$p:\$" pack2.d || { echo "FAIL: the pack depfile lacks the missing manifest's nearest folder"; failed=$((failed + 1)); }
diff -r step step2 >/dev/null || { echo "FAIL: the ids without a manifest differ from generate's"; failed=$((failed + 1)); }
# pack --build-step takes its ids through the pipeline `headers` runs, so it refuses what headers
# refuses, with the same words: here a manifest moved away from where its domain's output puts it
# (a fresh manifest would forget every tombstone and renumber what collisions moved).
expect 0 "$gen" generate -C p --quiet
mkdir p/generated/old
mv p/generated/Content.Game.manifest.json p/generated/old/
tree p > before
expect 1 "$gen" headers -C p -o "$work/moved-headers" --quiet
expect_err "p/generated/Content.Game.manifest.json: error: the manifest of Content.Game is at generated/old/Content.Game.manifest.json, not here"
expect 1 "$gen" pack --build-step -C p --output "$work/moved" --quiet --no-progress
expect_err "p/generated/Content.Game.manifest.json: error: the manifest of Content.Game is at generated/old/Content.Game.manifest.json, not here"
[ ! -e moved ] || { echo "FAIL: a build step refused by its manifest wrote its output"; failed=$((failed + 1)); }
tree p > after
cmp -s before after || { echo "FAIL: a refused pack --build-step wrote into the project"; failed=$((failed + 1)); }

# Two profiles (assets, and the text stage's tables): `pack --build-step --profile X`, a build step
# per profile, depends on what X's archives derive from (the config, X's tree as pack scanned it,
# its rename records or the folder they would appear in, its manifest), never on the injectors,
# the PO files or the other profile's tree: an edit of those re-runs the headers step alone.
two=$work/two
mkdir -p two/injectors two/assets/Sprites two/text
cat > two/threadlink.json <<'EOF'
{ "domains": [ { "name": "Game.Ids", "output": "ids.h" } ],
  "text": { "source": "text/en.po" },
  "content": [
    { "profile": "Main", "source_root": "assets", "output": "build/content/Main",
      "categories": [ { "name": "Sprites", "folder": "Sprites" } ], "archive": "packed", "compression": "none" },
    { "profile": "Text", "source_root": "generated/text", "output": "build/content/Text",
      "categories": [ { "name": "Tables", "folder": "" } ], "archive": "packed", "compression": "none" } ] }
EOF
echo Alpha > two/injectors/Game.Ids.User.txt
echo hero > two/assets/Sprites/hero.txt
po() { printf 'msgid ""\nmsgstr ""\n"Language: %s\\n"\n\nmsgctxt "Title"\nmsgid "Game"\nmsgstr "%s"\n' "$1" "$2"; }
po en "" > two/text/en.po && printf '\nmsgctxt "Bye"\nmsgid "Goodbye"\nmsgstr ""\n' >> two/text/en.po
po fr "Jeu" > two/text/fr.po # Bye untranslated: the text stage warns
expect 0 "$gen" generate -C two --quiet
prerequisites() { grep ':$' "$1" | sed 's/:$//' | grep -v "^$work/[a-z]*\.stamp\$" | sort -u; }
expect 0 "$gen" pack --build-step -C two --profile Main --output "$work/two-main" --quiet --no-progress --depfile main.d --stamp main.stamp
printf '%s\n' "$two/assets" "$two/assets/Sprites" "$two/assets/Sprites/hero.txt" "$two/generated/Content.Main.manifest.json" \
  "$two/threadlink.json" | sort > want
prerequisites main.d > got
cmp -s want got || { echo "FAIL: the depfile of pack --profile Main names other inputs:"; diff want got; failed=$((failed + 1)); }
expect 0 "$gen" pack --build-step -C two --profile Text --output "$work/two-text" --quiet --no-progress --depfile text.d --stamp text.stamp
printf '%s\n' "$two/generated/text" "$two/generated/text/en.tltext" "$two/generated/text/fr.tltext" \
  "$two/generated/Content.Text.manifest.json" "$two/threadlink.json" | sort > want
prerequisites text.d > got
cmp -s want got || { echo "FAIL: the depfile of pack --profile Text names other inputs:"; diff want got; failed=$((failed + 1)); }
# The rename records, once written, are named themselves (a record changes an asset's id).
printf '# renames\n' > two/assets/.content-renames
expect 0 "$gen" pack --build-step -C two --profile Main --output "$work/two-main" --quiet --no-progress --depfile main.d --stamp main.stamp
grep -q "^$two/assets/.content-renames:\$" main.d || { echo "FAIL: the depfile of pack --profile Main lacks the rename records"; cat main.d; failed=$((failed + 1)); }
# Each warning once a build: the headers step says the project's (here the text stage's); a pack
# step says only what its own profile's manifest lacks.
expect 0 "$gen" headers -C two -o "$work/two-headers" --quiet
[ "$(grep -c 'two/text/fr.po: warning: no translation of Bye' "$work/err")" = 1 ] ||
  { echo "FAIL: headers does not warn once of the untranslated key"; cat "$work/err"; failed=$((failed + 1)); }
echo Beta >> two/injectors/Game.Ids.User.txt
echo slime > two/assets/Sprites/slime.txt
expect 0 "$gen" pack --build-step -C two --profile Main --output "$work/two-main" --quiet --no-progress
expect_err "two/generated/Content.Main.manifest.json: warning: 1 new entry of Content.Main not recorded in the manifest"
[ "$(grep -c warning: "$work/err")" = 1 ] || { echo "FAIL: pack --profile Main says the project's warnings"; cat "$work/err"; failed=$((failed + 1)); }
expect 0 "$gen" pack --build-step -C two --profile Text --output "$work/two-text" --quiet --no-progress
[ ! -s "$work/err" ] || { echo "FAIL: pack --profile Text says the project's warnings"; cat "$work/err"; failed=$((failed + 1)); }
# Errors are said wherever they stop a step.
echo 'Gamma <- Delta <- Epsilon' >> two/injectors/Game.Ids.User.txt
expect 1 "$gen" pack --build-step -C two --profile Text --output "$work/two-text" --quiet --no-progress
expect_err "two/injectors/Game.Ids.User.txt:3:"
# --generate-command: the developer step as the build integration spells it (CMake's target here)
# is the command every message that says to run generate names, as given (no -C: it knows its
# project); without it, threadlink-gen generate.
run_cmd='cmake --build /tmp/b --target generate'
mkdir -p cmd/injectors
printf '{ "domains": [ { "name": "Game.Ids", "output": "ids.h" } ] }\n' > cmd/threadlink.json
echo Alpha > cmd/injectors/Game.Ids.User.txt
expect 0 "$gen" headers -C cmd -o "$work/cmd-out" --quiet --generate-command "$run_cmd"
expect_err "cmd/threadlink.json: warning: a new project: Game.Ids has no manifest yet, so this build numbers its 1 entry without recording them; run $run_cmd once to record them in generated/ (then commit it; if generated/ was deleted, restore it from version control instead: a rebuilt manifest forgets renamed and removed entries)"
expect 0 "$gen" generate -C cmd --quiet
echo Beta >> cmd/injectors/Game.Ids.User.txt
expect 0 "$gen" headers -C cmd -o "$work/cmd-out" --quiet --generate-command "$run_cmd"
expect_err "1 new entry of Game.Ids not recorded in the manifest: run $run_cmd to record 1 new entry"
expect 1 "$gen" check -C cmd --generate-command "$run_cmd"
grep -qF "generated files are out of date: run $run_cmd" out || { echo "FAIL: check names another command"; cat out; failed=$((failed + 1)); }
# Without it, every message names threadlink-gen generate with the -C DIR given (quoted with a blank).
expect 0 "$gen" headers -C cmd -o "$work/cmd-out2" --quiet
expect_err "1 new entry of Game.Ids not recorded in the manifest: run threadlink-gen generate -C cmd to record 1 new entry"
expect 1 "$gen" check -C cmd
grep -qF "generated files are out of date: run threadlink-gen generate -C cmd" out "$work/err" ||
  { echo "FAIL: check's hint lacks the -C DIR"; cat out "$work/err"; failed=$((failed + 1)); }
cp -r cmd 'cmd blank'
expect 1 "$gen" check -C 'cmd blank'
grep -qF 'generated files are out of date: run threadlink-gen generate -C "cmd blank"' out "$work/err" ||
  { echo "FAIL: check's hint does not quote a -C DIR with a blank"; cat out "$work/err"; failed=$((failed + 1)); }
sed -i '/Epsilon/d' two/injectors/Game.Ids.User.txt
sed -i 's/msgstr "Jeu"/msgstr "Le jeu"/' two/text/fr.po
expect 0 "$gen" headers -C two -o "$work/two-headers" --quiet --generate-command "$run_cmd"
expect_err "two/generated/text/fr.tltext: warning: stale: text/fr.po changed since generate wrote it; the content build packs it as it is: run $run_cmd"
expect 0 "$gen" pack --build-step -C two --profile Main --output "$work/two-main" --quiet --no-progress --generate-command "$run_cmd"
expect_err "1 new entry of Content.Main not recorded in the manifest: run $run_cmd to record 1 new entry"
expect_no_err "threadlink-gen generate"
expect 2 "$gen" headers -C cmd -o "$work/cmd-out" --generate-command ''
expect_err "--generate-command takes the command that runs generate"
echo "build steps: $failed failed"
[ "$failed" = 0 ]
