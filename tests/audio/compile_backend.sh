#!/bin/sh
# backends/sdl2/tl_audio_sdl_mixer.h in a file of the game's own, as C99, C11, C2x (gcc, clang)
# and C++17 (g++, clang++), -Wall -Wextra -Wpedantic -Werror, with audio.h's implementation.
#   compile_backend.sh SOURCE_ROOT
set -eu
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=$(pkg-config --cflags SDL2_mixer) || { echo "skip: no SDL2_mixer"; exit 77; }
cat > "$work/use.c" <<'EOC'
#define TL_IMPLEMENTATION
#include <threadlink/audio.h>
#include "tl_audio_sdl_mixer.h"
int main(void) {
    static tl_audio_sdl_mixer mixer;
    tl_audio_desc desc;
    tl_audio *audio;
    SDL_memset(&desc, 0, sizeof desc);
    if (!tl_audio_sdl_mixer_init(&mixer, 8)) return 1; /* no device opened: refused */
    desc.backend = tl_audio_sdl_mixer_backend(&mixer);
    desc.voices = 8;
    audio = tl_audio_create(&desc);
    tl_audio_destroy(audio);
    return 0;
}
EOC
cp "$work/use.c" "$work/use.cpp"
failed=0 count=0
try() { # compiler std file
  command -v "$1" > /dev/null 2>&1 || return 0
  count=$((count + 1))
  # shellcheck disable=SC2086
  if ! "$1" -std="$2" -Wall -Wextra -Wpedantic -Werror -I"$root/runtime" -I"$root/backends/sdl2" $flags \
      -c "$3" -o "$work/use.o" 2> "$work/err"; then
    echo "FAIL: $1 -std=$2"; cat "$work/err"; failed=$((failed + 1))
  fi
}
for std in c99 c11 c2x; do try gcc $std "$work/use.c"; try clang $std "$work/use.c"; done
try g++ c++17 "$work/use.cpp"
try clang++ c++17 "$work/use.cpp"
echo "tl_audio_sdl_mixer.h: $count compilations, $failed failed"
[ "$failed" -eq 0 ]
