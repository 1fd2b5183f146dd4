#!/bin/sh
# game-before-rename: what the game saved and tuned before its renames (Game.Items: Gem <- Coin,
# Vault.Fields: Bounty <- Score, both recorded) still loads, with the same meaning.
#  - tests/before-rename/saves: the `continue` save game-headless made halfway through
#    tests/replay.inputs before the renames; continued by this build to the end of the recording,
#    it must end on the pinned final hash (tests/replay.hashes): the pickups it holds carry the
#    coin's value, which the gem keeps, so picking them up scores as before.
#  - tests/before-rename/enemies.vaultimage: the image threadlink-gen watch wrote for the
#    Slime's Score tuned to 25 before the rename; a development build (game-headless-dev) reads it
#    and its world holds 25 for the field now called Bounty (same id).
#   before_rename.sh GAME_HEADLESS GAME_HEADLESS_DEV CONTENT_DIR GAME_SOURCE_DIR
set -eu
headless=$1 headless_dev=$2 content=$3 src=$4
fixtures=$src/tests/before-rename
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0

cp -R "$fixtures/saves" "$work/saves" # the save store may write beside its slots
want=$(grep -v '^#' "$src/tests/replay.hashes" | tail -1)
got=$("$headless" "$content" resume-play "$work/saves" "$src/tests/replay.inputs") || got="(failed)"
if [ "$got" = "$want" ]; then echo "ok: the save made before the renames ends on the pinned hash ($got)"
else echo "FAIL: the save made before the renames ends on '$got', not '$want'"; fail=1; fi

mkdir -p "$work/images/vaults"
cp "$fixtures/enemies.vaultimage" "$work/images/vaults/enemies.vaultimage"
got=$("$headless_dev" "$content" tune "$work/images") || got="(failed)"
want="Slime max_health 3 score 25 (1 stats tuned)"
if [ "$got" = "$want" ]; then echo "ok: the vault image made before the renames tunes the renamed field ($got)"
else echo "FAIL: the vault image made before the renames gives '$got', not '$want'"; fail=1; fi
exit $fail
