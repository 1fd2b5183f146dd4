/* Both SDL2 backends, included as docs/build-systems.md says (tests/integration/sdl2_consumer.sh
 * compiles this file through each build system, from threadlink's tree and from an install). */
#include <SDL.h>
#include <SDL_mixer.h>

#include "tl_audio_sdl_mixer.h"
#include "tl_input_sdl2.h"

int sdl2_consumer_backends(tl_input *in, const SDL_Event *e, tl_audio_sdl_mixer *mixer);
int sdl2_consumer_backends(tl_input *in, const SDL_Event *e, tl_audio_sdl_mixer *mixer) {
    tl_audio_backend backend = tl_audio_sdl_mixer_backend(mixer);
    return tl_input_sdl2_feed(in, e) + (backend.ctx != NULL);
}
