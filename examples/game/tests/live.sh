#!/bin/sh
# game-live: a development build of the game (game-headless-dev, TL_DEVELOPMENT) picks up a stat
# the designer edits while threadlink-gen watch runs. In a copy of the game's project: without
# images the Slime has its baked stats; after an edit of vaultdata/enemies.vaultdata.json and a
# watch pass, the game reads the image and its world holds the edited value (only that stat
# changed).
#   live.sh THREADLINK_GEN GAME_HEADLESS_DEV CONTENT_DIR GAME_SOURCE_DIR
set -eu
gen=$1 headless=$2 content=$3 src=$4
case $gen in /*) ;; *) gen=$(pwd)/$gen ;; esac # watch runs in the copy
work=$(mktemp -d)
watch_pid=
cleanup() { [ -z "$watch_pid" ] || kill "$watch_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; cat "$work/watch.err" 2>/dev/null || true; exit 1; }
for d in threadlink.json injectors vaults vaultdata text generated assets input; do cp -R "$src/$d" "$work/"; done

out=$("$headless" "$content" tune "$work/generated")
[ "$out" = "Slime max_health 3 score 10 (0 stats tuned)" ] || fail "baked stats: $out"

# The designer's edit: the Slime's MaxHealth 3 -> 9.
sed 's/"MaxHealth": 3,/"MaxHealth": 9,/' "$src/vaultdata/enemies.vaultdata.json" > "$work/vaultdata/enemies.vaultdata.json"
cmp -s "$src/vaultdata/enemies.vaultdata.json" "$work/vaultdata/enemies.vaultdata.json" && fail "the edit did not apply"
(cd "$work" && exec "$gen" watch > watch.out 2> watch.err) &
watch_pid=$!
i=0
until cat "$work/watch.out" "$work/watch.err" 2> /dev/null | grep -q watching; do
  i=$((i + 1)); [ $i -le 200 ] || fail "watch did not start in 10 s"; sleep 0.05
done
kill "$watch_pid"; wait "$watch_pid" 2> /dev/null || true; watch_pid=
[ -f "$work/generated/vaults/enemies.vaultimage" ] || fail "watch wrote no image"

out=$("$headless" "$content" tune "$work/generated")
[ "$out" = "Slime max_health 9 score 10 (1 stats tuned)" ] || fail "after the edit: $out"
echo "ok: $out"
