#!/bin/sh
# Inputs that are not regular files, or too big: a FIFO, socket or device where the generator
# expects an injector, vault schema, manifest, shell, config or profile file is refused at once
# with a located error (generate, check, diff and watch used to block for ever in open); an input
# over its size cap fails before it is read, naming its size; a path longer than the system
# allows is reported as such. Content trees skip special files with a warning.
#   special_inputs.sh THREADLINK_GEN
set -u
gen=$1
case $gen in /*) ;; *) gen=$(pwd)/$gen ;; esac
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# expect STATUS command...: runs it bounded in time (a hang is exit 124).
expect() {
  want=$1; shift
  timeout 10 "$@" >"$work/out" 2>"$work/err"
  got=$?
  [ "$got" = "$want" ] || { fail "'$*' exited $got, expected $want"; cat "$work/out" "$work/err"; }
}
expect_err() { grep -qF -- "$1" "$work/err" || { fail "stderr lacks '$1'"; cat "$work/err"; }; }
expect_out() { grep -qF -- "$1" "$work/out" || { fail "stdout lacks '$1'"; cat "$work/out"; }; }
# The generated files, byte for byte, against the copy taken by `snapshot`.
snapshot() { rm -rf "$work/before" && cp -r "$work/p/generated" "$work/before"; }
unchanged() { diff -r "$work/before" "$work/p/generated" >/dev/null || fail "$1: the outputs changed"; }

p=$work/p
mkdir -p "$p/injectors" "$p/vaults"
cat > "$p/threadlink.json" <<'JSON'
{"domains": [{"name": "Game.Ids", "output": "game_ids.h"},
             {"name": "Vault.Fields", "output": "vault_fields.h"},
             {"name": "Game.Shelled", "output": "shelled.h", "shell": "my.shell.h"}],
 "vaults": {"schemas": "vaults"}}
JSON
echo Alpha > "$p/injectors/Game.Ids.User.txt"
echo Beta > "$p/injectors/Game.Shelled.User.txt"
echo MaxHealth > "$p/injectors/Vault.Fields.User.txt"
echo '{"name": "Enemy", "fields": [{"field": "MaxHealth", "type": "Integer", "default": 10}]}' > "$p/vaults/Enemy.vault.json"
printf '/* mine */\n{DOMAIN_ENTRIES}\n' > "$p/my.shell.h"
expect 0 "$gen" generate -C "$p" --quiet
snapshot

# refused FILE WHAT MESSAGE: with FILE (relative to the project) a special file, generate and check
# fail at once with MESSAGE located at the file, and write nothing.
refused() {
  expect 1 "$gen" generate -C "$p" --quiet
  expect_err "$p/$1: error: $2"
  unchanged "generate with $1 a special file"
  expect 1 "$gen" check -C "$p"
  expect_err "$p/$1: error: $2"
  unchanged "check with $1 a special file"
}

mkfifo "$p/injectors/Game.Ids.Extra.txt"
refused injectors/Game.Ids.Extra.txt "cannot read this entries file: it is a FIFO (named pipe), not a regular file"
rm "$p/injectors/Game.Ids.Extra.txt"

python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$p/injectors/Game.Ids.Sock.txt"
refused injectors/Game.Ids.Sock.txt "cannot read this entries file: it is a socket, not a regular file"
rm "$p/injectors/Game.Ids.Sock.txt"

# A device through a symbolic link (inputs may be links; they are followed). /dev/zero never ends.
ln -s /dev/zero "$p/injectors/Game.Ids.Zero.txt"
refused injectors/Game.Ids.Zero.txt "cannot read this entries file: it is a character device, not a regular file"
rm "$p/injectors/Game.Ids.Zero.txt"

mkfifo "$p/vaults/Boss.vault.json"
refused vaults/Boss.vault.json "cannot read the vault schema: it is a FIFO (named pipe), not a regular file"
rm "$p/vaults/Boss.vault.json"

mv "$p/my.shell.h" "$work/my.shell.h"
mkfifo "$p/my.shell.h"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "error: domains[2].shell: cannot read the shell my.shell.h: it is a FIFO (named pipe), not a regular file"
unchanged "generate with a FIFO shell"
rm "$p/my.shell.h"
mv "$work/my.shell.h" "$p/my.shell.h"

mv "$p/generated/Game.Ids.manifest.json" "$work/manifest"
mkfifo "$p/generated/Game.Ids.manifest.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "error: output path 'Game.Ids.manifest.json': generated/Game.Ids.manifest.json exists and is not a regular file"
expect 1 "$gen" check -C "$p"
expect_err "error: output path 'Game.Ids.manifest.json': generated/Game.Ids.manifest.json exists and is not a regular file"
[ -p "$p/generated/Game.Ids.manifest.json" ] || fail "the FIFO manifest was replaced"
expect 2 "$gen" diff "$work/manifest" "$p/generated/Game.Ids.manifest.json"
expect_err "$p/generated/Game.Ids.manifest.json: error: cannot read: it is a FIFO (named pipe), not a regular file"
rm "$p/generated/Game.Ids.manifest.json"
mv "$work/manifest" "$p/generated/Game.Ids.manifest.json"
mkfifo "$work/allow.txt"
expect 2 "$gen" diff "$p/generated" "$p/generated" --allow-file "$work/allow.txt"
expect_err "$work/allow.txt: error: cannot read the allow-list: it is a FIFO (named pipe), not a regular file"
rm "$work/allow.txt"

# A generated header that is a FIFO: check compares it with what it would write.
mv "$p/generated/game_ids.h" "$work/game_ids.h"
mkfifo "$p/generated/game_ids.h"
expect 1 "$gen" check -C "$p"
rm "$p/generated/game_ids.h"
mv "$work/game_ids.h" "$p/generated/game_ids.h"

mv "$p/threadlink.json" "$work/threadlink.json"
mkfifo "$p/threadlink.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "$p/threadlink.json: error: cannot read the project config: it is a FIFO (named pipe), not a regular file"
rm "$p/threadlink.json"
mv "$work/threadlink.json" "$p/threadlink.json"

# Over the cap: refused from its size alone (a sparse file: nothing is read or allocated).
truncate -s 5G "$p/injectors/Game.Ids.Huge.txt"
refused injectors/Game.Ids.Huge.txt "cannot read this entries file: it is 5.0 GiB; injectors, definitions, natives and content rename records are capped at 256 MiB"
rm "$p/injectors/Game.Ids.Huge.txt"
cp "$p/generated/Game.Ids.manifest.json" "$work/manifest"
truncate -s 300M "$p/generated/Game.Ids.manifest.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "$p/generated/Game.Ids.manifest.json: error: cannot read the manifest of Game.Ids: it is 300.0 MiB; manifests are capped at 256 MiB"
cp "$work/manifest" "$p/generated/Game.Ids.manifest.json"
truncate -s 65M "$p/vaults/Enemy.vault.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "$p/vaults/Enemy.vault.json: error: cannot read the vault schema: it is 65.0 MiB; vault schemas and data are capped at 64 MiB"
echo '{"name": "Enemy", "fields": [{"field": "MaxHealth", "type": "Integer", "default": 10}]}' > "$p/vaults/Enemy.vault.json"
unchanged "inputs over their caps"
expect 0 "$gen" check -C "$p"

# A path longer than the system allows (PATH_MAX, NAME_MAX) is said to be, not that the file vanished,
# at the config key that names it.
long=$(python3 -c 'print("/".join(["d" * 200] * 22))')
python3 - "$p" "$long" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for part in sys.argv[2].split("/"):
    os.mkdir(part, dir_fd=fd)
    fd = os.open(part, os.O_RDONLY, dir_fd=fd)
PY
sed -i "s|\"domains\": \[|\"domains\": [{\"name\": \"Game.Far\", \"output\": \"far.h\", \"native\": \"$long/Game.Far.txt\"},|" "$p/threadlink.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "threadlink.json:1:54: error: domains[0].native: its path is $((${#long} + 13)) bytes, longer than this system allows (4095 bytes)"
unchanged "a native file whose path is too long"
sed -i "s|$long/Game.Far.txt|$(printf '%0300d' 0).txt|" "$p/threadlink.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "threadlink.json:1:54: error: domains[0].native: a name in its path is 304 bytes, longer than this system allows (255 bytes)"
sed -i 's|{"name": "Game.Far"[^}]*},||' "$p/threadlink.json"
expect 0 "$gen" check -C "$p"
# Directories the config names, too long: not "does not exist" (the kernel checks the length first).
far=$(python3 -c 'print("/".join(["e" * 200] * 23))')
cp "$p/threadlink.json" "$work/threadlink.json"
sed -i "s|^{|{\"injector_dir\": \"$far\",|" "$p/threadlink.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "threadlink.json:1:2: error: injector_dir: its path is ${#far} bytes, longer than this system allows (4095 bytes)"
cp "$work/threadlink.json" "$p/threadlink.json"
sed -i "s|\"schemas\": \"vaults\"|\"schemas\": \"$far\"|" "$p/threadlink.json"
expect 1 "$gen" generate -C "$p" --quiet
expect_err "threadlink.json:4:13: error: vaults.schemas: its path is ${#far} bytes, longer than this system allows (4095 bytes)"
cp "$work/threadlink.json" "$p/threadlink.json"
unchanged "directories whose paths are too long"

# watch runs the same passes: it reports the FIFO and keeps watching (it used to hang in open).
mkfifo "$p/injectors/Game.Ids.Extra.txt"
(cd "$p" && exec "$gen" watch) >"$work/wout" 2>"$work/werr" &
pid=$!
i=0
until grep -q 'watching' "$work/wout" 2>/dev/null; do
  i=$((i + 1)); [ $i -le 100 ] || break; sleep 0.1
done
grep -qF 'injectors/Game.Ids.Extra.txt: error: cannot read this entries file: it is a FIFO (named pipe), not a regular file' "$work/werr" ||
  { fail "watch did not report the FIFO injector"; cat "$work/wout" "$work/werr"; }
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
rm "$p/injectors/Game.Ids.Extra.txt"
unchanged "watch with a FIFO injector"

# Content trees: special files are skipped with a warning and the rest is packed; a file whose
# path is too long is an error that says so.
c=$work/c
mkdir -p "$c/assets/Icons"
printf 'sword' > "$c/assets/Icons/sword.png"
mkfifo "$c/assets/Icons/pipe.png"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$c/assets/Icons/sock.png"
ln -s /dev/zero "$c/assets/Icons/zero.png"
cat > "$c/threadlink.json" <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main",
    "categories": [ { "name": "Icons", "folder": "Icons" } ] } ] }
JSON
expect 0 "$gen" pack -C "$c" --no-progress
expect_err "$c/assets/Icons/pipe.png: warning: special file skipped (only regular files are content)"
expect_err "$c/assets/Icons/sock.png: warning: special file skipped (only regular files are content)"
expect_err "$c/assets/Icons/zero.png: warning: symbolic link to /dev/zero skipped: it leads out of the source root"
expect_out "pack Main: 1 files"
# pack --build-step reads the manifest without generating first, through the headers path: it
# refuses a manifest that is not a regular file as headers does, with the same words.
m=$(find "$c/generated" -name '*.manifest.json')
mv "$m" "$work/content-manifest"
mkfifo "$m"
for step in "headers -o $work/hdr" "pack --build-step --output $work/step --no-progress"; do
  # shellcheck disable=SC2086
  expect 1 "$gen" $step -C "$c" --quiet
  expect_err "$c/threadlink.json:1:16: error: output path 'Content.Main.manifest.json': generated/Content.Main.manifest.json exists and is not a regular file"
done
rm "$m"
mv "$work/content-manifest" "$m"
mkdir "$c/profiles"
mkfifo "$c/profiles/extra.json"
sed -i 's|^{ "content": \[|{ "content": [ "profiles/extra.json",|' "$c/threadlink.json"
expect 1 "$gen" generate -C "$c" --quiet
expect_err "error: content[0]: cannot read the profile file \"profiles/extra.json\": it is a FIFO (named pipe), not a regular file"
sed -i 's| "profiles/extra.json",||' "$c/threadlink.json"
sed -i "s|\"source_root\": \"assets\"|\"source_root\": \"$far\"|" "$c/threadlink.json"
expect 1 "$gen" generate -C "$c" --quiet
expect_err "threadlink.json:1:37: error: content[0].source_root: its path is ${#far} bytes, longer than this system allows (4095 bytes)"
sed -i "s|\"source_root\": \"$far\"|\"source_root\": \"assets\"|" "$c/threadlink.json"
sed -i "s|\"folder\": \"Icons\"|\"folder\": \"$far\"|" "$c/threadlink.json"
expect 1 "$gen" generate -C "$c" --quiet
expect_err "threadlink.json:2:40: error: content[0].categories[0].folder: its path is $((${#far} + 7)) bytes, longer than this system allows (4095 bytes)"
sed -i "s|\"folder\": \"$far\"|\"folder\": \"Icons\"|" "$c/threadlink.json"
rm "$c/assets/Icons/zero.png"
python3 - "$c/assets/Icons" "$long" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for part in sys.argv[2].split("/")[:-2]:
    os.mkdir(part, dir_fd=fd)
    fd = os.open(part, os.O_RDONLY, dir_fd=fd)
os.close(os.open("x" * 250 + ".png", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
PY
expect 1 "$gen" pack -C "$c" --no-progress
expect_err "error: its path is"
expect_err "longer than this system allows (4095 bytes)"
grep -qF "vanished" "$work/err" && fail "a path too long was reported as a vanished file"

# A PO file over its own cap (64 MiB: the text stage holds about 14 bytes a byte): named as a PO file.
t=$work/po && mkdir -p "$t/text"
echo '{ "domains": [], "text": { "source": "text/en.po" } }' > "$t/threadlink.json"
truncate -s 65M "$t/text/en.po"
expect 1 "$gen" generate -C "$t" --quiet
expect_err "$t/text/en.po: error: cannot read the PO file: it is 65.0 MiB; PO files are capped at 64 MiB"

[ "$failed" = 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "special inputs: ok"
