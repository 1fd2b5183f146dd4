#!/bin/sh
# game-readme-build: the README's quick start as written, on a fresh build directory:
# `meson setup build && ninja -C build examples/game/game`, then `cd build/examples/game && ./game`
# (SDL's dummy video driver, driven by tests/drive-sign.script: it starts a game and walks to the
# sign). That ninja command must pack content/Game and content/Text beside the game; the plan for
# game-headless alone (ninja -n) must hold both pack steps too.
#   readme_build.sh SOURCE_ROOT TESTS_DIR
set -u
src=$1 tests=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
meson setup "$tmp/build" "$src" > "$tmp/setup.log" 2>&1 || { tail -20 "$tmp/setup.log"; echo "FAIL: meson setup"; exit 1; }
ninja -C "$tmp/build" -n examples/game/game-headless > "$tmp/plan" 2>&1 || { cat "$tmp/plan"; echo "FAIL: ninja -n"; exit 1; }
for step in game_content_pack_game game_content_pack_text; do
  grep -q "$step" "$tmp/plan" || { echo "FAIL: ninja -C build examples/game/game-headless would not run $step"; fail=1; }
done
ninja -C "$tmp/build" -j1 examples/game/game > "$tmp/build.log" 2>&1 || { tail -20 "$tmp/build.log"; echo "FAIL: ninja -C build examples/game/game"; exit 1; }
for profile in Game Text; do
  [ -f "$tmp/build/examples/game/content/$profile/archives.json" ] || { echo "FAIL: ninja -C build examples/game/game packed no content/$profile"; fail=1; }
done
if (cd "$tmp/build/examples/game" && SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy \
    timeout 60 ./game --drive "$tests/drive-sign.script" > "$tmp/out" 2> "$tmp/err") && grep -q "started 1" "$tmp/out"; then
  echo "ok: ninja -C build examples/game/game packed content/Game and content/Text; ./game started a game on them"
else
  echo "FAIL: ./game in build/examples/game:"; grep -v 'info:' "$tmp/err" | tail -5; fail=1
fi
exit $fail
