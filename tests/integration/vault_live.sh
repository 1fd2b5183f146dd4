#!/bin/sh
# Vault data tuned while the game runs (issue 30): threadlink-gen watch and a running development
# build (vault_live_game.c, with ASan and UBSan where the compiler has them). An edit of the
# .vaultdata.json is seen by the program within a second, as change events for exactly the
# edited fields; a bad edit is reported by watch at file:line:col and the program keeps its
# values; the program ends cleanly (no leak). Prints the time from each save to the program
# seeing the value.
#   vault_live.sh THREADLINK_GEN RUNTIME_DIR GAME_SOURCE
set -eu
gen=$1
runtime=$2
game_src=$3
work=$(mktemp -d)
watch_pid=
game_pid=
cleanup() {
  [ -n "$game_pid" ] && kill "$game_pid" 2>/dev/null
  [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in watch.out watch.err game.out game.err; do echo "--- $f:"; cat "$work/$f" 2>/dev/null; done; exit 1; }
cd "$work"

# Waits up to 10 s for a command to succeed.
wait_for() {
  i=0
  while ! sh -c "$1" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -le 200 ] || fail "timed out waiting for: $1"; sleep 0.05
  done
}

mkdir injectors vaults vaultdata
echo '{"domains": [{"name": "Vault.Fields", "output": "vault_fields.h", "reserve_zero": true}],
       "vaults": {"schemas": "vaults", "data": "vaultdata"}}' > threadlink.json
printf 'MaxHealth\nSpeed\n' > injectors/Vault.Fields.User.txt
echo '{"name": "Enemy", "fields": [{"field": "MaxHealth", "type": "Integer", "default": 10},
                                   {"field": "Speed", "type": "FP", "default": "1"}]}' > vaults/Enemy.vault.json
data() { # MaxHealth Speed of the Goblin; the Orc stays as it is
  printf '{"vault": "Enemy", "instances": [\n  {"name": "Goblin", "values": {"MaxHealth": %s, "Speed": %s}},\n  {"name": "Orc", "values": {"MaxHealth": 80}}]}\n' "$1" "$2" > vaultdata/enemies.vaultdata.json
}
data 30 '"1.5"'
"$gen" generate --quiet || fail "generate"

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer"
cc_game() { cc -std=c99 -Wall -Wextra -Werror -DTL_DEVELOPMENT -D_POSIX_C_SOURCE=200809L $1 -I"$runtime" -Igenerated "$game_src" -o game 2>game.cc; }
if cc_game "$sanitize"; then echo "game built with $sanitize"; else cc_game "" || { cat game.cc; fail "cannot build the game"; }; echo "game built without sanitizers"; fi

"$gen" watch > watch.out 2> watch.err &
watch_pid=$!
wait_for "grep -q watching watch.out"
[ -f generated/vaults/enemies.vaultimage ] || fail "watch wrote no image"
ASAN_OPTIONS=detect_leaks=1 ./game > game.out 2> game.err &
game_pid=$!
wait_for "grep -q ready game.out"
grep -q '^change' game.out && fail "the image of unchanged data fired events"

now_ns() { date +%s%N; }
# Saves the data and waits for the program to print `expect`; prints the latency in ms.
edit_and_wait() { # MaxHealth Speed expected-line
  before=$(now_ns)
  data "$1" "$2"
  wait_for "grep -q '^$3 ' game.out"
  seen=$(grep "^$3 " game.out | tail -1 | awk '{print $NF}')
  ms=$(( (seen - before) / 1000000 ))
  echo "save to seen: $ms ms ($3)"
  [ "$ms" -lt 1000 ] || fail "the change took $ms ms to be seen (over a second)"
}

edit_and_wait 31 '"1.5"' "change Goblin MaxHealth 31"
[ "$(grep -c '^change' game.out)" = 1 ] || fail "one field changed, but not exactly one event"
edit_and_wait 31 '"2.25"' "change Goblin Speed 2.250"
[ "$(grep -c '^change' game.out)" = 2 ] || fail "one field changed, but not exactly one event"

# A bad edit: watch reports it at the value, writes nothing, and the program keeps its values.
cp generated/vaults/enemies.vaultimage image.before
data '"many"' '"2.25"'
wait_for "grep -qF 'vaultdata/enemies.vaultdata.json:2:33: error: instances[0].values.MaxHealth: expected an integer (Integer), got a string' watch.err"
sleep 0.5
cmp -s image.before generated/vaults/enemies.vaultimage || fail "a bad edit changed the image"
[ "$(grep -c '^change' game.out)" = 2 ] || fail "a bad edit changed values in the program"
kill -0 "$watch_pid" || fail "watch died on a bad edit"

# Fixed: seen again.
edit_and_wait 40 '"2.25"' "change Goblin MaxHealth 40"
kill -TERM "$watch_pid"
wait "$watch_pid" || true
watch_pid=

# A hostile tree (red-team 14): a FIFO, a folder (indexed by ext4: 300 names) and an image giving
# an instance twice, each put at the image's path by a rename, are refused and logged and the
# values stay. A wait on the FIFO would stop the program: wait_for's 10 s bound fails it.
image=generated/vaults/enemies.vaultimage
refusals() { echo "[ \$(grep -c 'enemies.vaultimage: refused, the previous values stay: $1' game.err) = $2 ]"; }
cp "$image" image.good
mkfifo fifo
mv fifo "$image"
wait_for "$(refusals 'not a regular file (a FIFO, a folder or a device)' 1)"
mkdir folder
i=0; while [ $i -lt 300 ]; do : > folder/a-file-with-a-long-name-$i; i=$((i + 1)); done
rm "$image"
mv folder "$image"
wait_for "$(refusals 'not a regular file (a FIFO, a folder or a device)' 2)"
le32() { od -An -tu1 -j"$2" -N4 "$1" | awk '{print $1 + 256 * $2 + 65536 * $3 + 16777216 * $4}'; }
count=$(le32 image.good 12)
first=$((8 + $(le32 image.good 20))) # the Goblin's record, given again at the end
{ head -c 12 image.good; printf "\\$(printf %03o $((count + 1)))\\000\\000\\000"
  tail -c +17 image.good; tail -c +17 image.good | head -c $first; } > twice
rm -r "$image"
mv twice "$image"
wait_for "$(refusals 'instance Goblin is given twice' 1)"
reloads=$(grep -c 'enemies.vaultimage: reloaded, 0 value' game.err)
cp image.good good
mv good "$image"
wait_for "[ \$(grep -c 'enemies.vaultimage: reloaded, 0 value' game.err) -gt $reloads ]"
[ "$(grep -c '^change' game.out)" = 3 ] || fail "a refused image changed values in the program"

touch stop
wait "$game_pid" || fail "the program failed (exit $?): see its stderr (sanitizers)"
game_pid=
grep -q '^final Goblin MaxHealth 40 Speed 2.250$' game.out || fail "final values"
grep -v -e '^Vault: info:' -e '^Vault: warning: generated/vaults/enemies.vaultimage: refused' game.err |
  grep -q . && fail "the program reported problems"
echo "ok"
