#!/bin/sh
# threadlink-gen watch: edits under a running watcher regenerate (injectors and vault schemas);
# bad input is reported and the watcher keeps going; a new injector file is picked up, and an
# input linked from elsewhere is watched where its file is; with
# nothing changing it stays idle; SIGTERM stops it cleanly.
#   watch.sh THREADLINK_GEN
set -eu
gen=$1
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- watcher output:"; cat "$work/out" "$work/err" 2>/dev/null; exit 1; }
cd "$work"
mkdir injectors vaults
echo '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}, {"name": "Vault.Fields", "output": "vault_fields.h"}],
       "vaults": {"schemas": "vaults"}}' > threadlink.json
echo Alpha > injectors/Game.Ids.User.txt
echo MaxHealth > injectors/Vault.Fields.User.txt
echo '{"name": "Enemy", "fields": [{"field": "MaxHealth", "type": "Integer", "default": 10}]}' > vaults/Enemy.vault.json

# Waits up to 10 s for a command to succeed.
wait_for() {
  i=0
  while ! sh -c "$1" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -le 100 ] || fail "timed out waiting for: $1"; sleep 0.1
  done
}

"$gen" watch > out 2> err &
pid=$!
wait_for "grep -q Game_Ids_Alpha generated/game_ids.h"
wait_for "grep -q 'watching' out"

printf 'Alpha\nBeta\n' > injectors/Game.Ids.User.txt
wait_for "grep -q Game_Ids_Beta generated/game_ids.h"

# Bad input: reported as a diagnostic, outputs untouched, the watcher survives.
cp generated/game_ids.h before.h
printf 'Alpha\nBeta\n9lives\n' > injectors/Game.Ids.User.txt
wait_for "grep -q 'injectors/Game.Ids.User.txt:3:1: error: identifier must start with a letter' err"
kill -0 "$pid" || fail "the watcher died on bad input"
cmp -s before.h generated/game_ids.h || fail "bad input changed an output"

printf 'Alpha\nBeta\nGamma\n' > injectors/Game.Ids.User.txt
wait_for "grep -q Game_Ids_Gamma generated/game_ids.h"
echo Delta > injectors/Game.Ids.Module.txt
wait_for "grep -q Game_Ids_Delta generated/game_ids.h"

# A vault schema is an input too.
echo '{"name": "Enemy", "fields": [{"field": "MaxHealth", "type": "Integer", "default": 12}]}' > vaults/Enemy.vault.json
wait_for "grep -q '12, /\* MaxHealth' generated/vaults/enemy_vault.h"

# An input linked from a folder no input lives in (a list shared between projects): an edit
# there regenerates too.
mkdir shared
echo Epsilon > shared/ids.txt
ln -s ../shared/ids.txt injectors/Game.Ids.Shared.txt
wait_for "grep -q Game_Ids_Epsilon generated/game_ids.h"
printf 'Epsilon\nZeta\n' > shared/ids.txt
wait_for "grep -q Game_Ids_Zeta generated/game_ids.h"

# With nothing changing, no pass runs: each pass prints one 'watching' line.
sleep 1
passes=$(grep -c watching out)
sleep 1.5
[ "$(grep -c watching out)" = "$passes" ] || fail "passes ran with nothing changing ($passes, then $(grep -c watching out))"

kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null; do i=$((i + 1)); [ $i -le 50 ] || fail "the watcher ignored SIGTERM"; sleep 0.1; done
wait "$pid" && status=0 || status=$?
pid=
[ "$status" = 0 ] || fail "the watcher exited with $status after SIGTERM"
grep -q 'stopped watching' out || fail "no clean stop"
echo "watch: all checks passed"
