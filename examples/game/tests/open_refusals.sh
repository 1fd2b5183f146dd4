#!/bin/sh
# game-open-refusals: when the game cannot start, its last line (the one a player reads) names
# what failed, not the content by default: the folder given that is not the Game profile (the
# Text one), the Game folder without content/Text beside it, a folder that is no content, a save
# folder that cannot be created (with the system's reason: under a regular file, and as root on
# a read-only disk, in a mount namespace of its own); game-headless and the window game (SDL's
# dummy driver) alike. A --locale the game has no table for starts the game in the source locale
# with a warning naming the locales it has.
#   open_refusals.sh GAME GAME_HEADLESS CONTENT_DIR TESTS_DIR
set -u
game=$1 headless=$2 content=$3 tests=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
text=$content/../Text

window() { # the window game, driven by drive-sign.script (it starts a game), with ARGS...
  SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy timeout 60 \
    "$game" --drive "$tests/drive-sign.script" "$@"
}

# last_line WHAT WORDS CMD...: CMD fails and its last line holds each of the |-separated WORDS.
last_line() {
  what=$1 words=$2; shift 2
  if "$@" > "$tmp/out" 2> "$tmp/err"; then echo "FAIL: $what: it started"; fail=1; return; fi
  last=$(tail -n 1 "$tmp/err")
  missing=$(echo "$words" | tr '|' '\n' | while read -r w; do case $last in *"$w"*) ;; *) echo "$w" ;; esac; done)
  if [ -n "$missing" ]; then
    echo "FAIL: $what: the last line does not name: $(echo "$missing" | tr '\n' ' ')"; tail -n 3 "$tmp/err"; fail=1
  else
    echo "ok: $what: $last"
  fi
}

# The Text profile's folder given as the content (the wrong one of the two).
last_line "game-headless on content/Text" "Text|not the Game profile" \
  "$headless" "$text" replay "$tests/replay.inputs"
last_line "game --content content/Text" "Text|not the Game profile" \
  window --content "$text" --saves "$tmp/saves"

# The Game folder alone (no content/Text beside it), and a folder that is no content.
mkdir "$tmp/alone"
cp -R "$content" "$tmp/alone/Game"
last_line "game-headless on content/Game without content/Text" "$tmp/alone/Text|Text profile" \
  "$headless" "$tmp/alone/Game" replay "$tests/replay.inputs"
last_line "game-headless on a folder that is no content" "$tmp|not a content directory" \
  "$headless" "$tmp" replay "$tests/replay.inputs"

# A save folder that cannot be created: below a regular file.
: > "$tmp/file"
last_line "game-headless resume, the saves below a file" "save folder|$tmp/file/saves|Not a directory" \
  "$headless" "$content" resume "$tmp/file/saves"
last_line "game --saves below a file" "save folder|$tmp/file/saves|Not a directory" \
  window --content "$content" --saves "$tmp/file/saves"

# As root: the save folder on a read-only disk (a tmpfs mounted read-only, in a mount namespace
# of this test's own, so nothing stays mounted).
read_only() {
  mkdir -p "$tmp/ro"
  # shellcheck disable=SC2016 # the inner script's own arguments
  unshare -m sh -c 'mount -t tmpfs -o size=64k,ro tmpfs "$1" 2> /dev/null || exit 99; shift; exec "$@"' - "$tmp/ro" "$@"
}
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && read_only true; then
  last_line "game --saves on a read-only disk" "save folder|$tmp/ro/saves|Read-only file system" \
    read_only env SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy \
    "$game" --drive "$tests/drive-sign.script" --content "$content" --saves "$tmp/ro/saves"
else
  echo "skip: a read-only disk (needs root, unshare -m and mount)"
fi

# A locale without a table: the source locale, with a warning naming the locales there are.
if window --content "$content" --saves "$tmp/saves" --locale de > "$tmp/out" 2> "$tmp/err" && grep -q "started 1" "$tmp/out"; then
  warning=$(grep -m1 'warning: .*"de"' "$tmp/err")
  case $warning in
    *"en, fr"*" en"*) echo "ok: game --locale de: started; $warning" ;;
    *) echo "FAIL: game --locale de: no warning naming the locales the game has:"; grep -v info: "$tmp/err"; fail=1 ;;
  esac
else
  echo "FAIL: game --locale de did not start:"; grep -v info: "$tmp/err" | tail -3; fail=1
fi
exit $fail
