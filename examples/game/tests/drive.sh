#!/bin/sh
# game-drive: the game on the real SDL2 (dummy video driver, software renderer) driven by scripts
# of SDL events (keys pushed with SDL_PushEvent, a virtual controller with
# SDL_JoystickAttachVirtualEx): every input goes through actions (threadlink/input.h, fed by
# backends/sdl2/tl_input_sdl2.h), the menus are stacked interfaces (threadlink/interface.h).
#   drive-keyboard.script: Return starts a new game from the title menu; D and Space move right
#     and fire (the simulation's bits 8|10) into the sign's range, E reads it (OnInteract, the
#     interactable in range answers with the HUD's message); Esc stacks the pause menu, Down Down
#     Return stacks Options, Return captures Fire's key and F becomes it (saved in the "settings"
#     slot); Esc cancels Options (back to the pause menu), Esc again resumes the game; Esc
#     stacks the pause menu again (its selection kept) and Return opens Options for the picture.
#   drive-gamepad.script, a restart with the same saves: Fire's key is still F; an Xbox pad's A
#     starts a game (the device family becomes Xbox, the prompts the pad's), the stick and the
#     trigger move and fire, Start stacks the pause menu, the d-pad moves its selection; the pad
#     unplugged and a PlayStation pad plugged, its d-pad makes the family and glyphs PlayStation's.
# Each run draws its last frame (the Options menu with the keyboard's glyphs, then the pause menu
# with the PlayStation pad's: input.h's prompt watchers load them from Content.Game's Glyphs) and
# compares it with tests/drive-keyboard.png and tests/drive-gamepad.png; drive-sign.script walks
# into the sign's range, and its frame (tests/drive-sign.png) shows Interact's prompt, the
# keyboard's E glyph, above the player. GAME_DRIVE_OUT=DIR keeps the three PNGs drawn.
#   drive.sh GAME CONTENT_DIR TESTS_DIR
set -eu
game=$1 content=$2 tests=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
run() { # SCRIPT PNG: the last frame is compared with tests/drive-PNG (at most 2 per mille differ)
  SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy timeout 60 \
    "$game" --content "$content" --saves "$tmp/saves" --drive "$tests/$1" --screenshot "$tmp/$2" \
    --expect "$tests/drive-$2" --tolerance 2 > "$tmp/out" 2> "$tmp/err" \
    || { echo "FAIL: game --drive $1"; cat "$tmp/out" "$tmp/err"; exit 1; }
  cat "$tmp/out"
}
expect() { # TEXT: a line of the last run's output must contain it
  grep -qF -- "$1" "$tmp/out" || { echo "FAIL: no line with: $1"; exit 1; }
}
run drive-keyboard.script keyboard.png
expect 'frame 2: menu 1 selected 2 started 0 family MouseAndKeyboard fire keyboard/Space gamepad/a input 0 sign away'
expect 'frame 6: menu 0 selected 0 started 1'
expect 'frame 40: menu 0 selected 0 started 1 family MouseAndKeyboard fire keyboard/Space gamepad/a input 18'
expect 'frame 44: menu 0 selected 0 started 1 family MouseAndKeyboard fire keyboard/Space gamepad/a input 0 sign in-range message "SIGN: 100 POINTS OPEN THE EXIT"'
expect 'frame 48: menu 3 selected 1 started 1'
expect 'frame 60: menu 2 selected 1'
expect 'frame 72: menu 2 selected 1 started 1 family MouseAndKeyboard fire keyboard/F gamepad/a'
expect 'frame 77: menu 3 selected 3 started 1'
expect 'frame 82: menu 0 selected 0 started 1'
expect 'frame 87: menu 3 selected 3 started 1'
expect 'frame 96: menu 2 selected 1 started 1 family MouseAndKeyboard fire keyboard/F'
expect 'glyphs 88f8d51f 60eba891 243ad339 prompt "[Return] select   [Escape] back"' # Glyphs/key_return, key_escape, key_e
run drive-gamepad.script gamepad.png
expect 'frame 2: menu 1 selected 2 started 0 family MouseAndKeyboard fire keyboard/F'
expect 'frame 10: menu 0 selected 0 started 1 family Xbox'
expect 'frame 42: menu 0 selected 0 started 1 family Xbox fire keyboard/F gamepad/a input 18'
expect 'frame 55: menu 3 selected 2 started 1 family Xbox fire keyboard/F gamepad/a input 0 sign in-range'
expect 'glyphs fc8a5a53 723c4ff0 571adb83 prompt "Xbox  [a] select   [b] back"' # Glyphs/xbox_a, xbox_b, xbox_x
expect 'frame 66: menu 3 selected 1 started 1 family PlayStation fire keyboard/F gamepad/a input 0'
expect 'glyphs f4362c6a 83e70629 75cb2b5a prompt "PlayStation  [a] select   [b] back"' # ps_cross, ps_circle, ps_square
rm -rf "$tmp/saves" # the default bindings again: space fires
run drive-sign.script sign.png
expect 'frame 29: menu 0 selected 0 started 1 family MouseAndKeyboard fire keyboard/Space gamepad/a input 0 sign in-range'
if [ -n "${GAME_DRIVE_OUT:-}" ]; then cp "$tmp/keyboard.png" "$tmp/gamepad.png" "$tmp/sign.png" "$GAME_DRIVE_OUT"/; fi
echo "game-drive: keyboard and gamepad through actions, menus stacked, the rebinding kept across a restart"
