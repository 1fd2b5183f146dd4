/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* backends/sdl2/tl_audio_sdl_mixer.h -- threadlink/audio.h's voices on SDL_mixer channels.

   WHAT
   ----
   A backend for audio.h (the seed's Aura): each of the module's voices is the SDL_mixer channel
   of the same index; a clip is a Mix_Chunk decoded from the bytes the content module gives
   (SDL_RWFromConstMem: never a path), WAV or OGG or anything SDL_mixer decodes; a gain is the
   channel's volume (0..MIX_MAX_VOLUME, rounded), a pan Mix_SetPanning (left 255 x min(1, 1 -
   pan), right 255 x min(1, 1 + pan); centred, the effect is unregistered). A channel's volume
   and panning are set only when their rounded values change, and the panning at every play too
   (SDL_mixer drops a channel's effects when its chunk stops).
   Music and ambience play as chunks on channels too, not as Mix_Music: a cross-fade needs two
   tracks at once, and SDL_mixer has one music stream. A chunk is decoded whole, so the clip's
   bytes need not outlive the load (audio.h's clip source may release them at once).

   INCLUDE
   -------
       #include <SDL.h>
       #include <SDL_mixer.h>
       #include "tl_audio_sdl_mixer.h"       // includes <threadlink/audio.h>
   Its folder, backends/sdl2/ (installed as include/threadlink/backends/sdl2/), is on the include
   path through CMake's threadlink::sdl2, or Meson's and pkg-config's threadlink_sdl2, with the
   runtime's (docs/build-systems.md); the game adds SDL2 and SDL2_mixer. Everything is static
   inline: include it in the file that creates the module. The game opens the device
   (Mix_OpenAudio); tl_audio_sdl_mixer_init allocates the channels.

   USE
   ---
       Mix_OpenAudio(44100, MIX_DEFAULT_FORMAT, 2, 1024);
       tl_audio_sdl_mixer mixer;
       tl_audio_sdl_mixer_init(&mixer, 32);        // the module's desc.voices (its default 32):
       desc.voices = 32;                            // a voice past the channels plays nothing (said
                                                    // once through SDL_LogError)
       desc.backend = tl_audio_sdl_mixer_backend(&mixer);
       tl_audio *audio = tl_audio_create(&desc);
       ...
       tl_audio_destroy(audio);                     // stops the channels, frees the chunks
       Mix_CloseAudio();
*/
#ifndef TL_AUDIO_SDL_MIXER_H
#define TL_AUDIO_SDL_MIXER_H

#include <SDL.h>
#include <SDL_mixer.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <threadlink/audio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TL_AUDIO_SDL_MIXER_MAX_VOICES 256

typedef struct tl_audio_sdl_mixer {
    int voices;
    int volume[TL_AUDIO_SDL_MIXER_MAX_VOICES]; /* as last set; -1: unknown */
    int left[TL_AUDIO_SDL_MIXER_MAX_VOICES], right[TL_AUDIO_SDL_MIXER_MAX_VOICES];
    uint32_t loads, load_failures;
    bool told_voices; /* a voice past the channels was played: said once (SDL_Log) */
} tl_audio_sdl_mixer;

/* Allocates `voices` channels (at most TL_AUDIO_SDL_MIXER_MAX_VOICES) on the open device; false
   before Mix_OpenAudio (which would reset SDL_mixer to its default 8 channels). */
static inline bool tl_audio_sdl_mixer_init(tl_audio_sdl_mixer *m, int voices) {
    int v;
    SDL_memset(m, 0, sizeof *m);
    if (voices <= 0 || voices > TL_AUDIO_SDL_MIXER_MAX_VOICES) return false;
    if (!Mix_QuerySpec(NULL, NULL, NULL)) {
        SDL_LogError(SDL_LOG_CATEGORY_APPLICATION,
                     "tl_audio_sdl_mixer_init: refused: the device is not open (call Mix_OpenAudio "
                     "first)");
        return false;
    }
    if (Mix_AllocateChannels(voices) != voices) return false;
    m->voices = voices;
    for (v = 0; v < voices; v++) {
        m->volume[v] = -1;
        m->left[v] = m->right[v] = 255;
    }
    return true;
}

static inline int tl__audio_sdl_mixer_scale(tl_fp unit, int full) {
    tl_fp v = tl_fp_mul_int(tl_fp_clamp01(unit), full);
    return (int)tl_fp_round_to_int(v);
}

static inline void tl__audio_sdl_mixer_apply(tl_audio_sdl_mixer *m, int ch, tl_fp gain, tl_fp pan) {
    int volume = tl__audio_sdl_mixer_scale(gain, MIX_MAX_VOLUME);
    int left = tl__audio_sdl_mixer_scale(tl_fp_sub(TL_FP_ONE, pan), 255);
    int right = tl__audio_sdl_mixer_scale(tl_fp_add(TL_FP_ONE, pan), 255);
    if (volume != m->volume[ch]) Mix_Volume(ch, m->volume[ch] = volume);
    if (left != m->left[ch] || right != m->right[ch]) {
        m->left[ch] = left;
        m->right[ch] = right;
        Mix_SetPanning(ch, (Uint8)left, (Uint8)right);
    }
}

static inline void *tl__audio_sdl_mixer_load(void *ctx, uint32_t clip, const void *bytes,
                                             size_t size) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    SDL_RWops *rw = size <= (size_t)INT32_MAX ? SDL_RWFromConstMem(bytes, (int)size) : NULL;
    Mix_Chunk *chunk = rw ? Mix_LoadWAV_RW(rw, 1) : NULL;
    (void)clip;
    if (chunk) m->loads++;
    else m->load_failures++;
    return chunk;
}

static inline void tl__audio_sdl_mixer_unload(void *ctx, void *data) {
    (void)ctx;
    Mix_FreeChunk((Mix_Chunk *)data);
}

/* SDL_mixer drops a channel's effects, its panning among them, whenever its chunk stops (ended,
   halted, or taken over by Mix_PlayChannel): a channel is halted first, then panned, then played,
   so that its panning is set, and known to be. */
static inline void tl__audio_sdl_mixer_unpanned(tl_audio_sdl_mixer *m, int ch) {
    if (Mix_Playing(ch)) Mix_HaltChannel(ch);
    m->left[ch] = m->right[ch] = -1;
}

static inline void tl__audio_sdl_mixer_play(void *ctx, uint32_t voice, void *data, bool loop,
                                            tl_fp gain, tl_fp pan) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    if ((int)voice >= m->voices) { /* the module has more voices than the mixer has channels */
        if (!m->told_voices)
            SDL_LogError(SDL_LOG_CATEGORY_APPLICATION, /* shown by default (AUDIO errors are not) */
                         "tl_audio_sdl_mixer: voice %u plays nothing: the mixer has %d channels "
                         "(tl_audio_sdl_mixer_init); give tl_audio_desc.voices %d",
                         (unsigned)voice, m->voices, m->voices);
        m->told_voices = true;
        return;
    }
    tl__audio_sdl_mixer_unpanned(m, (int)voice);
    tl__audio_sdl_mixer_apply(m, (int)voice, gain, pan);
    Mix_PlayChannel((int)voice, (Mix_Chunk *)data, loop ? -1 : 0);
}

static inline void tl__audio_sdl_mixer_stop(void *ctx, uint32_t voice) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    if ((int)voice < m->voices) tl__audio_sdl_mixer_unpanned(m, (int)voice);
}

static inline void tl__audio_sdl_mixer_gain(void *ctx, uint32_t voice, tl_fp gain, tl_fp pan) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    if ((int)voice < m->voices) tl__audio_sdl_mixer_apply(m, (int)voice, gain, pan);
}

static inline bool tl__audio_sdl_mixer_playing(void *ctx, uint32_t voice) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    return (int)voice < m->voices && Mix_Playing((int)voice) != 0;
}

static inline tl_audio_backend tl_audio_sdl_mixer_backend(tl_audio_sdl_mixer *m) {
    tl_audio_backend b;
    SDL_memset(&b, 0, sizeof b);
    b.ctx = m;
    b.load = tl__audio_sdl_mixer_load;
    b.unload = tl__audio_sdl_mixer_unload;
    b.play = tl__audio_sdl_mixer_play;
    b.stop = tl__audio_sdl_mixer_stop;
    b.set_gain = tl__audio_sdl_mixer_gain;
    b.is_playing = tl__audio_sdl_mixer_playing;
    return b;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_AUDIO_SDL_MIXER_H */
