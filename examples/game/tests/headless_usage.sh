#!/bin/sh
# game-headless-usage: a count argument of game-headless (replay's EVERY, rollback's DELAY,
# record's FRAMES, bench's ENTITIES and FRAMES) that is not a whole number in its range (0 where
# at least 1 is needed, a word, a sign, past 32 bits) is a usage error: exit 2, a line naming the
# argument and what it got, never a crash (EVERY 0 divided by zero).
# The game's own counts (--frames, --tolerance) likewise, before it opens a window.
#   headless_usage.sh GAME_HEADLESS CONTENT_DIR INPUTS [GAME]
set -u
headless=$1 content=$2 inputs=$3 game=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# refused NAME WORD ARGS...: game-headless CONTENT ARGS... must exit 2 and name NAME and WORD.
refused() {
  name=$1 word=$2; shift 2
  "$headless" "$content" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL: game-headless $*: exit $rc, not a usage error (2)"; tail -3 "$tmp/err"; fail=1
  elif ! grep -q "^game-headless: $name must be .*, not \"$word\"" "$tmp/err"; then
    echo "FAIL: game-headless $*: no line naming $name and \"$word\":"; cat "$tmp/err"; fail=1
  else
    echo "ok: game-headless $*: $(head -1 "$tmp/err")"
  fi
}

refused EVERY 0 replay "$inputs" 0
refused EVERY every replay "$inputs" every
refused EVERY -250 replay "$inputs" -250
refused EVERY 250x replay "$inputs" 250x
refused EVERY 4294967296 replay "$inputs" 4294967296
refused DELAY 0 rollback "$inputs" 0
refused DELAY seven rollback "$inputs" seven
refused FRAMES '' record "$tmp/rec.inputs" ''
refused FRAMES 0 record "$tmp/rec.inputs" 0
refused ENTITIES many bench many 10
refused FRAMES 0 bench 10 0
[ ! -e "$tmp/rec.inputs" ] || { echo "FAIL: a refused record wrote $tmp/rec.inputs"; fail=1; }

# game_refused NAME WORD ARGS...: game ARGS... must exit 2 and name NAME and WORD.
game_refused() {
  name=$1 word=$2; shift 2
  "$game" --content "$content" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "^game: $name must be .*, not \"$word\"" "$tmp/err"; then
    echo "FAIL: game $*: exit $rc, not a usage error naming $name and \"$word\":"; cat "$tmp/err"; fail=1
  else
    echo "ok: game $*: $(head -1 "$tmp/err")"
  fi
}
if [ -n "$game" ]; then
  game_refused --frames 600x --replay "$inputs" --frames 600x --screenshot "$tmp/s.png"
  game_refused --frames 0 --replay "$inputs" --frames 0 --screenshot "$tmp/s.png"
  game_refused '--tolerance (pixels per mille)' -1 --tolerance -1
  game_refused '--tolerance (pixels per mille)' 1001 --tolerance 1001
fi

# The numbers it takes still work: the hash of every 1000th frame of the first 2,000.
"$headless" "$content" record "$tmp/bot.inputs" 2000 2> "$tmp/err" || { echo "FAIL: record 2000"; cat "$tmp/err"; fail=1; }
lines=$("$headless" "$content" replay "$tmp/bot.inputs" 1000 2> "$tmp/err" | wc -l)
[ "$lines" = 2 ] || { echo "FAIL: replay ... 1000 gave $lines hash lines, not 2"; cat "$tmp/err"; fail=1; }
exit $fail
