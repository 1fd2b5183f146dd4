#!/bin/sh
# backends/sdl2/ (tl_input_sdl2.h and tl_audio_sdl_mixer.h) in a file of the game's own: as C99,
# C11, C2x (gcc, clang) and C++17 (g++, clang++), -Wall -Wextra -Wpedantic -Werror, with the
# runtime's implementation; then the strict set docs/runtime.md names, -Werror (SDL's own headers
# through -isystem: SDL_stdinc.h trips -Wswitch-default). The C11 program is then linked and run
# on SDL's dummy audio driver: tl_audio_sdl_mixer_init before Mix_OpenAudio must be refused.
#   compile_sdl2_backends.sh SOURCE_ROOT
set -eu
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=$(pkg-config --cflags sdl2 SDL2_mixer) || { echo "skip: no SDL2 or SDL2_mixer"; exit 77; }
libs=$(pkg-config --libs sdl2 SDL2_mixer)
system_flags=$(printf '%s\n' "$flags" | sed 's/-I/-isystem /g')
cat > "$work/use.c" <<'EOC'
#define TL_IMPLEMENTATION
#include <threadlink/audio.h>
#include <threadlink/input.h>
#include "tl_audio_sdl_mixer.h"
#include "tl_input_sdl2.h"
int main(int argc, char **argv) {
    static tl_audio_sdl_mixer mixer;
    tl_audio_desc desc;
    tl_audio *audio;
    (void)argv;
    SDL_memset(&desc, 0, sizeof desc);
    if (SDL_Init(SDL_INIT_AUDIO) != 0) return 2;
    if (tl_audio_sdl_mixer_init(&mixer, 8)) return 1; /* no device opened: must be refused */
    if (Mix_OpenAudio(22050, AUDIO_S16SYS, 2, 512) != 0) return 2;
    if (!tl_audio_sdl_mixer_init(&mixer, 8)) return 1;
    desc.backend = tl_audio_sdl_mixer_backend(&mixer);
    desc.voices = 8;
    audio = tl_audio_create(&desc);
    tl_audio_destroy(audio);
    Mix_CloseAudio();
    if (argc > 1) tl_input_sdl2_close_all(); /* compiled, not run: no controllers */
    SDL_Quit();
    return audio ? 0 : 1;
}
EOC
cp "$work/use.c" "$work/use.cpp"
failed=0 count=0
try() { # compiler std file flags...
  cc=$1 std=$2 src=$3
  shift 3
  command -v "$cc" > /dev/null 2>&1 || return 0
  count=$((count + 1))
  # shellcheck disable=SC2086
  if ! "$cc" -std="$std" "$@" -I"$root/runtime" -I"$root/backends/sdl2" -c "$src" -o "$work/use.o" \
      2> "$work/err"; then
    echo "FAIL: $cc -std=$std $*"; cat "$work/err"; failed=$((failed + 1))
  fi
}
basic="-Wall -Wextra -Wpedantic -Werror"
strict="$basic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wcast-align -Wundef
  -Wdouble-promotion -Wmissing-declarations -Wredundant-decls -Wswitch-enum -Wswitch-default
  -Wfloat-equal -Wformat=2 -Wnull-dereference -Wvla"
c_strict="$strict -Wstrict-prototypes -Wmissing-prototypes"
# shellcheck disable=SC2086
{
  for std in c99 c11 c2x; do try gcc $std "$work/use.c" $basic $flags; try clang $std "$work/use.c" $basic $flags; done
  try g++ c++17 "$work/use.cpp" $basic $flags
  try clang++ c++17 "$work/use.cpp" $basic $flags
  try gcc c11 "$work/use.c" $c_strict -Wlogical-op -Wjump-misses-init $system_flags
  try clang c11 "$work/use.c" $c_strict -Wcomma $system_flags
  try g++ c++17 "$work/use.cpp" $strict -Wlogical-op $system_flags
}
echo "backends/sdl2: $count compilations, $failed failed"
[ "$failed" -eq 0 ] || exit 1
# shellcheck disable=SC2086
cc -std=c11 -I"$root/runtime" -I"$root/backends/sdl2" $flags "$work/use.c" $libs -lm -o "$work/use"
if ! SDL_AUDIODRIVER=dummy "$work/use" > "$work/out" 2>&1; then
  echo "FAIL: the program (tl_audio_sdl_mixer_init before Mix_OpenAudio must be refused):"
  cat "$work/out"
  exit 1
fi
echo "run: init before Mix_OpenAudio refused, after it accepted"
