#!/bin/sh
# game-record: a recording that cannot be written is said, with its cause, and the run fails; it
# never leaves a cut recording in place of an older one (written to a temporary file beside it,
# synced, then renamed over it). game-headless's `record` and the window game's --record
# (with --drive: the SDL dummy driver) on:
#   /dev/full (a device: written in place), whose every write fails with ENOSPC;
#   a folder holding an older recording, under a file size limit (ulimit -f; EFBIG), the older
#     recording kept byte for byte and nothing else left in the folder;
#   as root, a full 8 KiB tmpfs holding an older recording (ENOSPC; in a mount namespace of its
#     own, so nothing stays mounted; skipped without root);
# and a recording that can be written replaces the older one and replays.
#   record.sh GAME GAME_HEADLESS CONTENT_DIR TESTS_DIR
set -u
game=$1 headless=$2 content=$3 tests=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
say() { echo "$*"; }
bad() { echo "FAIL: $*"; fail=1; }

# named WHAT CAUSE: the last command's stderr ($tmp/err) has the line saying the recording was
# not written, with CAUSE.
named() {
  line=$(grep -m1 "the recording was not written" "$tmp/err")
  case $line in
    *"$2"*) say "ok: $1: $line" ;;
    *) bad "$1: no line naming the recording and \"$2\":"; grep -v -e 'info:' -e 'no provider' "$tmp/err" | head -5 ;;
  esac
}

# refused WHAT CAUSE CMD...: CMD must fail, saying why.
refused() {
  what=$1 cause=$2; shift 2
  if "$@" > "$tmp/out" 2> "$tmp/err"; then bad "$what: exit 0"; else named "$what" "$cause"; fi
}

# kept_older WHAT DIR: DIR holds the older recording as it was, and nothing else.
kept_older() {
  cmp -s "$tmp/older.inputs" "$2/my.inputs" || bad "$1: the older recording was not kept"
  [ "$(ls -A "$2")" = my.inputs ] || bad "$1: left in the folder: $(ls -A "$2" | tr '\n' ' ')"
}

"$headless" "$content" record "$tmp/older.inputs" 100 2> /dev/null || bad "record 100 frames"

# /dev/full: every write fails (ENOSPC).
refused "game-headless record /dev/full" "No space left on device" "$headless" "$content" record /dev/full 4000
drive() { # the window game driven by drive-sign.script (it starts a game and walks), recording
  SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy timeout 60 \
    "$game" --content "$content" --saves "$tmp/saves" --drive "$tests/drive-sign.script" --record "$1"
}
refused "game --drive ... --record /dev/full" "No space left on device" drive /dev/full

# A file size limit (512-byte blocks; SIGXFSZ ignored, so the write fails with EFBIG instead).
mkdir "$tmp/limited"
cp "$tmp/older.inputs" "$tmp/limited/my.inputs"
limited() { (trap '' XFSZ; ulimit -f 4; exec "$@"); }
refused "game-headless record, a 2 KiB file size limit" "File too large" \
  limited "$headless" "$content" record "$tmp/limited/my.inputs" 4000
kept_older "game-headless record, a 2 KiB file size limit" "$tmp/limited"

# A full disk, as root: an 8 KiB tmpfs in a mount namespace of this test's own (unmounted when
# it ends), holding the older recording.
full_disk() {
  mkdir "$tmp/disk"
  # shellcheck disable=SC2016 # the inner script's own arguments
  unshare -m sh -c '
    mount -t tmpfs -o size=8k tmpfs "$1" 2> /dev/null || exit 99
    cp "$2/older.inputs" "$1/my.inputs"
    "$3" "$4" record "$1/my.inputs" 4000 > /dev/null 2> "$2/err"; echo $? > "$2/rc"
    mkdir "$2/after" && cp "$1"/* "$2/after"/ && ls -A "$1" > "$2/after.ls"' - "$tmp/disk" "$tmp" "$headless" "$content"
}
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && full_disk; then
  [ "$(cat "$tmp/rc")" != 0 ] || bad "game-headless record, a full 8 KiB tmpfs: exit 0"
  named "game-headless record, a full 8 KiB tmpfs" "No space left on device"
  cmp -s "$tmp/older.inputs" "$tmp/after/my.inputs" || bad "a full 8 KiB tmpfs: the older recording was not kept"
  [ "$(cat "$tmp/after.ls")" = my.inputs ] || bad "a full 8 KiB tmpfs: left on it: $(tr '\n' ' ' < "$tmp/after.ls")"
else
  say "skip: a full tmpfs (needs root, unshare -m and mount)"
fi

# Writable: the older recording replaced, and the new one replays.
mkdir "$tmp/fine"
cp "$tmp/older.inputs" "$tmp/fine/my.inputs"
"$headless" "$content" record "$tmp/fine/my.inputs" 600 2> "$tmp/err" || { bad "record 600 frames"; cat "$tmp/err"; }
"$headless" "$content" replay "$tmp/fine/my.inputs" 600 2> /dev/null | grep -q '^600 ' || bad "the 600-frame recording does not replay"
[ "$(ls -A "$tmp/fine")" = my.inputs ] || bad "left in the folder: $(ls -A "$tmp/fine" | tr '\n' ' ')"
drive "$tmp/fine/window.inputs" > "$tmp/out" 2> "$tmp/err" || { bad "game --drive ... --record"; cat "$tmp/err"; }
frames=$(sed -n 's/^# recorded by game --record: \([0-9]*\) frames.*/\1/p' "$tmp/fine/window.inputs" 2> /dev/null)
if [ -n "$frames" ] && [ "$frames" -gt 0 ] && "$headless" "$content" replay "$tmp/fine/window.inputs" 2> /dev/null | grep -q "^$frames "; then
  say "ok: game --drive ... --record: $frames frames, replayed"
else
  bad "game --drive ... --record wrote no recording that replays"
fi
exit $fail
