#!/bin/sh
# game-screenshot: under Xvfb, the game (SDL2, x11 video, software renderer) replays
# tests/replay.inputs to frame 600, draws it, saves it as a PNG and checks that it is not blank
# and that at most 2 per mille of its pixels differ (by more than 16 in a channel) from
# tests/screenshot-600.png (the README's picture). GAME_SCREENSHOT_OUT=FILE keeps the PNG drawn.
# With LOCALE (fr): the game's text in that language, against tests/screenshot-600-LOCALE.png, at
# most 1 per mille differing (the English frame differs from the French one by 3.5 per mille: the
# HUD's and the feed's words and their accents are all that changes).
#   screenshot.sh GAME CONTENT_DIR TESTS_DIR [LOCALE]
set -eu
game=$1 content=$2 tests=$3 locale=${4:-en}
expected=$tests/screenshot-600.png
tolerance=2
[ "$locale" = en ] || expected=$tests/screenshot-600-$locale.png tolerance=1
if ! command -v xvfb-run > /dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then echo "FAIL: xvfb-run missing (Debian's xvfb)"; exit 1; fi
  echo "skip: xvfb-run missing (Debian's xvfb)"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
SDL_VIDEODRIVER=x11 SDL_RENDER_DRIVER=software timeout 60 xvfb-run -a -s "-screen 0 800x600x24" \
  "$game" --content "$content" --replay "$tests/replay.inputs" --frames 600 \
  --locale "$locale" --screenshot "$tmp/frame-600.png" --expect "$expected" --tolerance "$tolerance" && status=0 || status=$?
[ -n "${GAME_SCREENSHOT_OUT:-}" ] && cp "$tmp/frame-600.png" "$GAME_SCREENSHOT_OUT"
exit $status
