#!/bin/sh
# A running program (examples/content in development mode, TL_CONTENT_LIVE) while its assets are
# edited, added, deleted and renamed: each change must be seen (within 5 seconds: a pass/fail
# test under CI load checks that it happens; how fast is tests/bench/content_live's), the handles it
# holds must stay valid, a bad edit must keep the old object, and it must exit cleanly (no leak
# report under ASan). Runs on a copy of the example's assets in a temporary folder.
#   test_live_program.sh EXAMPLE_CONTENT_DEV ASSETS_DIR inotify|poll
set -eu
prog=$1
assets=$2
watch=$3
tmp=$(mktemp -d)
pid=
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cp -R "$assets" "$tmp/assets"
mkfifo "$tmp/in"
flag=
[ "$watch" = poll ] && flag=--poll
timeout 40 "$prog" --source "$tmp/assets" $flag <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/in"

fail() {
  echo "FAIL ($watch): $1"
  echo "--- stdout"; cat "$tmp/out"
  echo "--- stderr"; cat "$tmp/err"
  exit 1
}

# Waits up to 5 seconds for a line of FILE (out or err) containing TEXT.
seen() {
  i=0
  while [ $i -lt 100 ]; do
    if grep -qF -- "$2" "$tmp/$1"; then return 0; fi
    sleep 0.05
    i=$((i + 1))
  done
  fail "not seen within 5 seconds in $1: $2"
}

seen out "serving profile Game from its source tree: 5 assets held"

# An edit of a held sprite: reloaded in place.
printf '# sprite: width height glyph\n20 30 H\n' >"$tmp/assets/Sprites/hero.txt"
seen out "reloaded Sprites/hero: 20x30 'H'"
# An edit of the level itself.
printf 'hero Sprites/hero\noak Sprites/tree\n' >"$tmp/assets/Levels/field.txt"
seen out "reloaded Levels/field: 2 entities (was 4)"

# A bad edit: the decoder refuses it, the old object stays and says so.
printf 'not a sprite\n' >"$tmp/assets/Sprites/slime.txt"
seen err "reloading Sprites/slime failed, the loaded object stays: the decoder refused it"
echo "load Sprites/slime" >&3
seen out "loaded Sprites/slime: 12x8 'o'"

# An added file resolves at its first load.
printf '8 8 g\n' >"$tmp/assets/Sprites/ghost.txt"
echo "load Sprites/ghost" >&3
seen out "loaded Sprites/ghost: 8x8 'g'"

# A deleted file that nothing holds no longer loads, and says why; a held one stays.
rm "$tmp/assets/Sprites/alert.txt" "$tmp/assets/Sprites/tree.txt"
sleep 0.2
echo "load Sprites/alert" >&3
seen out "failed Sprites/alert"
seen err "loading Sprites/alert failed: its file was deleted from the source tree"
echo "load Sprites/tree" >&3
seen out "loaded Sprites/tree:"

# A rename: the new name loads (the old one is gone, as a delete).
mv "$tmp/assets/Music/theme.txt" "$tmp/assets/Music/anthem.txt"
echo "load Music/anthem" >&3
seen out "loaded Music/anthem: 34000 bytes"

# An editor's save (a new file renamed over the old one) reloads too.
printf '20 30 E\n' >"$tmp/assets/Sprites/hero.tmp"
mv "$tmp/assets/Sprites/hero.tmp" "$tmp/assets/Sprites/hero.txt"
seen out "reloaded Sprites/hero: 20x30 'E'"

echo "check" >&3
seen out "handles: 5 of 5 valid"
echo "quit" >&3
exec 3>&-
status=0
wait "$pid" || status=$?
pid=
[ "$status" -eq 0 ] || fail "exit status $status"
# The shutdown report: what was loaded from source that the catalog does not carry yet.
grep -qF "Sprites/ghost (profile Game) was loaded from its source tree and the generated catalog does not carry it yet" "$tmp/err" ||
  fail "no report of the uncatalogued assets"
if grep -q "ERROR: AddressSanitizer\|LeakSanitizer\|runtime error:" "$tmp/err"; then fail "sanitizer report"; fi
echo "ok ($watch): edits, a bad edit, an add, deletes, a rename and an editor's save, each seen"
