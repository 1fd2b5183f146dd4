#!/bin/sh
# Misconfigurations that used to lose data with exit 0 (issue 26): a content output folder on a
# folder the project reads or generates, an output that is one of the run's inputs. Each is
# refused with the error located at the offending key, and nothing is written or deleted. Also:
# the hint for a misspelt domain, github annotations for every diagnostic, diff naming members.
#   misconfig.sh THREADLINK_GEN
set -u
gen=$1
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
p=$work/p

run() { # status, command... (stdout and stderr kept in $work/out, $work/err)
  want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  got=$?
  [ "$got" = "$want" ] || { fail "'$*' exited $got, expected $want"; cat "$work/out" "$work/err"; }
}
expect_err() { grep -qF -- "$1" "$work/err" || { fail "stderr lacks '$1'"; cat "$work/err"; }; }
expect_no_err() { ! grep -qF -- "$1" "$work/err" || { fail "stderr has '$1'"; cat "$work/err"; }; }

# Every file and folder of the project with a checksum of each file (and where each link points).
snapshot() {
  (cd "$p" && find . | LC_ALL=C sort | while IFS= read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; elif [ -f "$f" ]; then cksum "$f"; else echo "$f"; fi
  done)
}

# A project with one domain and its manifest, generated: $1 the config's opening lines (what
# goes before "domains"), written as the first line of threadlink.json.
fresh_project() {
  rm -rf "$p"
  mkdir -p "$p/injectors" "$p/assets"
  echo Alpha > "$p/injectors/Game.Ids.User.txt"
  echo hello > "$p/assets/a.txt"
  printf '{%s"domains": [{"name": "Game.Ids", "output": "game_ids.h"}]}\n' "$1" > "$p/threadlink.json"
  run 0 "$gen" generate -C "$p" --quiet
}

# The project's config with one content profile whose "output" key is at line 3, column 3.
with_profile() { # top-level keys, output folder
  printf '{%s"domains": [{"name": "Game.Ids", "output": "game_ids.h"}],\n "content": [{"profile": "Main", "source_root": "assets",\n  "output": "%s"}]}\n' \
    "$1" "$2" > "$p/threadlink.json"
}

# pack and generate both refuse, with `message` at `where`, and leave every file as it was.
expect_refused() { # where, message
  before=$(snapshot)
  for cmd in pack generate; do
    run 1 "$gen" "$cmd" -C "$p" --quiet
    expect_err "$1: error: $2"
    [ "$(snapshot)" = "$before" ] || { fail "$cmd changed the project after refusing"; snapshot | diff - /dev/null | head; }
  done
}

# ---- Content output folders on the project's own folders -----------------------------------

fresh_project ''
with_profile '' generated
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "generated" is the generated directory "generated" (generated_dir)'

# Another spelling of the same folder (a folder may end with one '/', dropped when it is read; "./generated"
# is refused for its spelling before it is compared).
fresh_project ''
with_profile '' generated/
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "generated" is the generated directory "generated" (generated_dir)'

fresh_project ''
with_profile '' generated/packs
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "generated/packs" is inside the generated directory "generated" (generated_dir)'

fresh_project '"generated_dir": "build/generated", '
with_profile '"generated_dir": "build/generated", ' build
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "build" contains the generated directory "build/generated" (generated_dir)'

# A symbolic link to the generated directory is that directory.
fresh_project ''
ln -s generated "$p/gen-link"
with_profile '' gen-link
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "gen-link" is the generated directory "generated" (generated_dir)'

fresh_project ''
with_profile '' injectors
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "injectors" is the injector directory "injectors" (injector_dir)'

fresh_project ''
mkdir -p "$p/defs"
with_profile '"definitions_dir": "defs", ' defs/out
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "defs/out" is inside the definitions directory "defs" (definitions_dir)'

fresh_project ''
mkdir -p "$p/vschemas" "$p/vdata"
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}, {"name": "Vault.Fields", "output": "vault_fields.h", "reserve_zero": true}],\n "vaults": {"schemas": "vschemas", "data": "vdata"},\n "content": [{"profile": "Main", "source_root": "assets",\n  "output": "vdata"}]}\n' > "$p/threadlink.json"
expect_refused "threadlink.json:4:3" 'content[0].output: output folder "vdata" is the vault data directory "vdata" (vaults.data)'
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}, {"name": "Vault.Fields", "output": "vault_fields.h", "reserve_zero": true}],\n "vaults": {},\n "content": [{"profile": "Main", "source_root": "assets",\n  "output": "vaults/packs"}]}\n' > "$p/threadlink.json"
mkdir -p "$p/vaults"
expect_refused "threadlink.json:4:3" 'content[0].output: output folder "vaults/packs" is inside the vault schema directory "vaults" (vaults.schemas)'

# A folder holding the config (here a profile file, and the project config through a link).
fresh_project ''
mkdir -p "$p/profiles"
printf '{"profile": "Main", "source_root": "assets",\n "output": "profiles"}\n' > "$p/profiles/main.json"
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}], "content": ["profiles/main.json"]}\n' > "$p/threadlink.json"
expect_refused "profiles/main.json:2:2" 'output: output folder "profiles" contains the profile file "profiles/main.json"'

fresh_project ''
mkdir -p "$p/conf"
with_profile '' conf
mv "$p/threadlink.json" "$p/conf/threadlink.json"
ln -s conf/threadlink.json "$p/threadlink.json"
expect_refused "threadlink.json:3:3" 'content[0].output: output folder "conf" contains the project config "threadlink.json"'

# The source root of another profile: pack would delete its assets as left over.
fresh_project ''
mkdir -p "$p/art"
echo x > "$p/art/b.txt"
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}],\n "content": [{"profile": "Art", "source_root": "art", "output": "build/art"},\n  {"profile": "Main", "source_root": "assets",\n   "output": "art"}]}\n' > "$p/threadlink.json"
expect_refused "threadlink.json:4:4" 'content[1].output: output folder "art" is the source root "art" of profile "Art"'

# ---- generate: an output that is one of the run's inputs ------------------------------------

fresh_project ''
printf '{"generated_dir": ".",\n "domains": [{"name": "Game.Ids",\n   "output": "threadlink.json"}]}\n' > "$p/threadlink.json"
before=$(snapshot)
run 1 "$gen" generate -C "$p" --quiet
expect_err 'threadlink.json:3:4: error: domains[0].output: output "threadlink.json" is the project config threadlink.json, which this run reads; nothing was written'
[ "$(snapshot)" = "$before" ] || fail "generate changed the project after refusing an output on the config"

fresh_project ''
echo Beta > "$p/injectors/Vault.Fields.User.txt"
printf '{"generated_dir": "injectors",\n "domains": [{"name": "Game.Ids", "output": "game_ids.h"},\n  {"name": "Vault.Fields", "output": "Vault.Fields.User.txt"}]}\n' > "$p/threadlink.json"
before=$(snapshot)
run 1 "$gen" generate -C "$p" --quiet
expect_err 'threadlink.json:3:28: error: domains[1].output: output "injectors/Vault.Fields.User.txt" is the entries file injectors/Vault.Fields.User.txt, which this run reads; nothing was written'
[ "$(snapshot)" = "$before" ] || fail "generate changed the project after refusing an output on an injector"

# Through a link: the generated directory spelt as a link to the injectors.
fresh_project ''
ln -s injectors "$p/gen"
printf '{"generated_dir": "gen",\n "domains": [{"name": "Game.Ids",\n   "output": "Game.Ids.User.txt"}]}\n' > "$p/threadlink.json"
before=$(snapshot)
run 1 "$gen" generate -C "$p" --quiet
expect_err 'threadlink.json:3:4: error: domains[0].output: output "gen/Game.Ids.User.txt" is the entries file injectors/Game.Ids.User.txt, which this run reads; nothing was written'
[ "$(snapshot)" = "$before" ] || fail "generate changed the project after refusing an output on a linked injector"

# Another domain's manifest.
fresh_project ''
echo Beta > "$p/injectors/Game.More.User.txt"
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"},\n  {"name": "Game.More",\n   "output": "Game.Ids.manifest.json"}]}\n' > "$p/threadlink.json"
before=$(snapshot)
run 1 "$gen" generate -C "$p" --quiet
expect_err 'threadlink.json:3:4: error: domains[1].output: output "generated/Game.Ids.manifest.json" is the manifest of Game.Ids, which this run reads; nothing was written'
[ "$(snapshot)" = "$before" ] || fail "generate changed the project after refusing an output on a manifest"

# ---- A misspelt domain name: the declaration is pointed at, not the injector renamed ---------

fresh_project ''
echo Alpha > "$p/injectors/Items.User.txt"
printf '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"},\n  {"name": "Itmes", "output": "items.h"}]}\n' > "$p/threadlink.json"
run 1 "$gen" generate -C "$p" --quiet
expect_err "injectors/Items.User.txt: error: orphaned injector: no declared domain matches 'Items.User'"
expect_err "threadlink.json:2:4: note: domain 'Itmes' declared here; did you mean 'Items'?"
expect_no_err "Itmes.User.txt"

# ---- files the user names (depfile, stamp, outputs file) are replaced when written: a device,
# a FIFO, a folder or a link there is refused, never replaced (--depfile /dev/null as root) ----

fresh_project ''
mkfifo "$work/fifo" && mkdir "$work/folder" && ln -s "$work/target" "$work/link"
special="$work/fifo $work/folder $work/link"
mknod "$work/null" c 1 3 2>/dev/null && special="$special $work/null" # as root (CI) only
for f in $special; do
  run 1 "$gen" headers -C "$p" -o "$work/h" --depfile "$f"
  expect_err "not a regular file: threadlink-gen replaces this file when it writes it"
  run 1 "$gen" headers -C "$p" -o "$work/h" --outputs-file "$f"
  expect_err "not a regular file"
done
with_profile "" packed
run 1 "$gen" pack -C "$p" --quiet --no-progress --stamp "$work/fifo"
expect_err "exists and is a FIFO, not a regular file"
[ -p "$work/fifo" ] && [ -d "$work/folder" ] && [ -L "$work/link" ] && [ ! -e "$work/target" ] ||
  fail "a named special file was replaced"
[ ! -e "$work/null" ] || [ -c "$work/null" ] || fail "a device node was replaced"
rm -rf "$work/fifo" "$work/folder" "$work/link" "$work/null" "$work/h"

# ---- a project deeper than the system resolves (PATH_MAX): said so at the category folder, not
# "leads out of the source root" (bash: dash cannot cd that deep) --------------------------------

deep=$(bash -c 'cd "$1" && seg=$(printf "d%.0s" $(seq 200)) && for i in $(seq 22); do mkdir "$seg" && cd "$seg" || exit 1; done
  mkdir -p injectors assets/Sprites && echo x > assets/Sprites/a.txt && echo A > injectors/Game.Ids.User.txt &&
  printf "{ \"domains\": [{ \"name\": \"Game.Ids\", \"output\": \"ids.h\" }],\n  \"content\": [{ \"profile\": \"Game\", \"source_root\": \"assets\", \"categories\": [{ \"name\": \"Sprites\", \"folder\": \"Sprites\" }] }] }\n" > threadlink.json &&
  "$2" generate 2>&1' _ "$work" "$gen")
echo "$deep" | grep -qF 'category folder "Sprites": its absolute path is longer than the system resolves' ||
  { echo "$deep"; fail "a project past PATH_MAX is not said to be"; }
rm -rf "$work/dddd"*

# ---- github annotations: every diagnostic line is a workflow command ------------------------

all_annotations() { # what
  grep -q '^::error[ :]' "$work/err" || fail "$1: no ::error annotation"
  ! grep -qv '^::\(error\|warning\|notice\)[ :]' "$work/err" || { fail "$1: a diagnostic is not an annotation"; cat "$work/err"; }
  # A message of the run itself names no file (GitHub would look for one called threadlink-gen).
  ! grep -q 'file=threadlink-gen' "$work/err" || fail "$1: an annotation names the program as its file"
}
fresh_project ''
mkdir "$p/injectors/Game.Ids.Extra.txt" # unreadable for root too
run 1 "$gen" generate -C "$p" --quiet --diagnostics-format github
all_annotations "an unreadable injector"
rmdir "$p/injectors/Game.Ids.Extra.txt"
run 1 "$gen" generate -C "$p" --config missing.json --diagnostics-format github
all_annotations "a missing config"
run 1 "$gen" pack -C "$p" --config missing.json --diagnostics-format github
all_annotations "pack with a missing config"
run 2 "$gen" generate -C "$p/nowhere" --diagnostics-format github
all_annotations "a missing -C directory"
run 2 "$gen" pack -C "$p/nowhere" --diagnostics-format github
all_annotations "pack with a missing -C directory"
mkdir -p "$work/old" "$work/new"
cp "$p/generated/Game.Ids.manifest.json" "$work/old/"
echo '{"bad' > "$work/new/Game.Ids.manifest.json"
run 2 "$gen" diff "$work/old" "$work/new" --format github
all_annotations "diff --format github, a malformed manifest"
run 2 "$gen" diff "$work/old" "$work/new" --diagnostics-format github
all_annotations "diff --diagnostics-format github, a malformed manifest"
run 2 "$gen" diff "$work/old" "$work/new" --format github --diagnostics-format gcc
grep -q ': error: ' "$work/err" || fail "--diagnostics-format gcc does not win over diff --format github"

# ---- diff names the member as well as the key -----------------------------------------------

fresh_project ''
printf 'Alpha\nBeta\n' > "$p/injectors/Game.Ids.User.txt"
run 0 "$gen" generate -C "$p" --quiet
rm -rf "$work/old" && cp -r "$p/generated" "$work/old"
echo Alpha > "$p/injectors/Game.Ids.User.txt"
run 0 "$gen" generate -C "$p" --quiet
run 0 "$gen" diff "$work/old" "$p/generated"
grep -qF "note: Game.Ids: Beta (user.beta) tombstoned (removed)" "$work/out" || { fail "diff names no member"; cat "$work/out"; }
run 0 "$gen" diff "$work/old" "$p/generated" --format github
grep -qF "::Game.Ids: Beta (user.beta) tombstoned (removed)" "$work/out" || { fail "diff --format github names no member"; cat "$work/out"; }
# A warning about the run itself (an --allow that approves nothing) annotates the run, no file.
run 0 "$gen" diff "$work/old" "$p/generated" --format github --allow Game.Ids.Nothing
grep -q "^::warning::--allow 'Game.Ids.Nothing' approves nothing" "$work/err" || { fail "diff --allow warning is no file-less annotation"; cat "$work/err"; }

# ---- text from a pull request never starts a log line of its own -----------------------------
# A manifest key holding an escaped newline (and an injector line an ESC): check's errors, diff's
# text report and generate's summary print them escaped; a CI runner reads a line starting with
# "::" as a command.
fresh_project ''
printf 'Alpha\nBeta\n' > "$p/injectors/Game.Ids.User.txt"
run 0 "$gen" generate -C "$p" --quiet
sed -i 's/"key": "user.beta"/"key": "user.beta\\n::error file=src\/main.c::forged\\r"/' "$p/generated/Game.Ids.manifest.json"
run 1 "$gen" check -C "$p"
! grep -q '^::' "$work/out" "$work/err" || { fail "check printed a line of the manifest's choosing"; cat "$work/err"; }
grep -qF 'user.beta\n::error file=src/main.c::forged\r' "$work/err" || { fail "check does not show the key escaped"; cat "$work/err"; }
fresh_project ''
printf 'Alpha\nEvil\033]0;TITLE\007x\n' > "$p/injectors/Game.Ids.User.txt"
run 0 "$gen" generate -C "$p"
! grep -q "$(printf '\033')" "$work/out" "$work/err" || { fail "generate's summary printed an ESC"; cat -A "$work/out"; }
grep -qF '"Evil\x1b]0;TITLE\x07x"' "$work/out" || { fail "the summary does not show the line escaped"; cat "$work/out"; }

# ---- check on a header that is no longer text ---------------------------------------------------
# Replaced by bytes: "Binary files ... differ", not the bytes; over the read cap (a sparse file):
# said with its size, not shown as missing; a hand-edited line's ESC shown escaped.
fresh_project ''
printf 'Alpha\n' > "$p/injectors/Game.Ids.User.txt"
run 0 "$gen" generate -C "$p" --quiet
header=$(ls "$p"/generated/*.h | head -n 1); rel=${header#"$p/"}
head -c 3000 /dev/urandom > "$header"; printf '\0' >> "$header"
run 1 "$gen" check -C "$p"
grep -qF "Binary files a/$rel and b/$rel differ" "$work/out" || { fail "check shows a binary header's bytes"; head -c 300 "$work/out"; }
truncate -s 300M "$header"
run 1 "$gen" check -C "$p"
grep -qF "$rel cannot be compared: it is 300.0 MiB" "$work/out" || { fail "check shows a header over the cap as missing"; head -5 "$work/out"; }
! grep -qF -- "--- /dev/null" "$work/out" || fail "check shows a header over the cap as /dev/null"
run 0 "$gen" generate -C "$p" --quiet
printf '/* \033]0;TITLE\007 */\n' >> "$header"
run 1 "$gen" check -C "$p"
grep -qF '+/* \x1b]0;TITLE\x07 */' "$work/out" || grep -qF -- '-/* \x1b]0;TITLE\x07 */' "$work/out" || { fail "check's diff does not escape the header's ESC"; cat -A "$work/out" | head; }

[ "$failed" = 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "misconfig: all passed"
