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
   (Mix_OpenAudio) first; tl_audio_sdl_mixer_init then allocates the channels (before it: false,
   said through SDL_LogError), one more than the voices: the last, silent, is the backend's mark.

   DEVICE
   ------
   - Closed (Mix_CloseAudio): the backend calls nothing in SDL_mixer about channels, and says so
     once (SDL_LogError); voices play nothing and clips fail to load until the device is open
     again. Destroy tl_audio before Mix_CloseAudio at exit.
   - Reopened (a lost device: Mix_CloseAudio, then Mix_OpenAudio, at once or later; the same
     format, for which the chunks were converted): seen by the end of the next tl_audio_update (the mark is gone), the backend restores
     its channels and their volumes and restarts its looping voices (music, ambience, looping
     objects) from their beginning at their gain and pan; one-shots cut by the loss stay ended.
     Nothing for the game to call (tl_audio_sdl_mixer_init again would forget the looping voices).
   - A clip SDL_mixer refuses is logged by audio.h with SDL_mixer's reason (Mix_GetError).
   - The channels are the backend's: a game that plays its own sounds on them (Mix_PlayChannel(-1),
     Mix_Volume(-1)) disturbs them.

   USE
   ---
       Mix_OpenAudio(44100, MIX_DEFAULT_FORMAT, 2, 1024);   // first
       tl_audio_sdl_mixer mixer;
       tl_audio_sdl_mixer_init(&mixer, 32);        // the module's desc.voices (its default 32):
       desc.voices = 32;                            // a voice past the channels plays nothing (said
                                                    // once through SDL_LogError)
       desc.backend = tl_audio_sdl_mixer_backend(&mixer);
       tl_audio *audio = tl_audio_create(&desc);
       ...
       tl_audio_destroy(audio);                     // stops the channels, frees the chunks
       Mix_CloseAudio();                            // after tl_audio_destroy (DEVICE above)
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
    /* As last set, or wanted while the device is closed; -1: unknown. */
    int volume[TL_AUDIO_SDL_MIXER_MAX_VOICES];
    int left[TL_AUDIO_SDL_MIXER_MAX_VOICES], right[TL_AUDIO_SDL_MIXER_MAX_VOICES];
    Mix_Chunk *looping[TL_AUDIO_SDL_MIXER_MAX_VOICES]; /* restarted on a reopened device */
    uint32_t loads, load_failures;
    char load_error[160]; /* why the last load failed (Mix_GetError, copied at once) */
    bool told_voices;     /* a voice past the channels was played: said once (SDL_Log) */
    bool told_closed;     /* the device was found closed: said once until it is open again */
} tl_audio_sdl_mixer;

/* The channel past the voices is the backend's mark: it never plays, its volume is 1. A device
   reopened (Mix_CloseAudio, Mix_OpenAudio) has SDL_mixer's 8 channels at volume 128 again, so a
   mark that reads otherwise says the backend's channels are gone. */
#define TL__AUDIO_SDL_MIXER_MARK 1

static inline bool tl__audio_sdl_mixer_mark(const tl_audio_sdl_mixer *m) {
    if (Mix_AllocateChannels(m->voices + 1) != m->voices + 1) return false;
    Mix_Volume(m->voices, TL__AUDIO_SDL_MIXER_MARK);
    return true;
}

/* Allocates `voices` channels (at most TL_AUDIO_SDL_MIXER_MAX_VOICES), and one more for the mark,
   on the open device; false before Mix_OpenAudio (which would reset SDL_mixer to 8 channels). */
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
    m->voices = voices;
    if (!tl__audio_sdl_mixer_mark(m)) {
        m->voices = 0;
        return false;
    }
    for (v = 0; v < voices; v++) {
        m->volume[v] = -1;
        m->left[v] = m->right[v] = 255;
    }
    return true;
}

/* The device was reopened: SDL_mixer has its default channels again, every one halted at full
   volume. The backend's channels and volumes come back, and its looping voices (music, ambience)
   start again from their beginning at their gain and pan; one-shots that were cut stay ended. */
static inline void tl__audio_sdl_mixer_restore(tl_audio_sdl_mixer *m) {
    int ch;
    if (!tl__audio_sdl_mixer_mark(m)) return;
    for (ch = 0; ch < m->voices; ch++) {
        if (m->volume[ch] >= 0) Mix_Volume(ch, m->volume[ch]);
        if (Mix_Playing(ch)) continue;
        if (!m->looping[ch]) {
            m->left[ch] = m->right[ch] = -1; /* SDL_mixer dropped the panning */
            continue;
        }
        if (m->left[ch] >= 0) Mix_SetPanning(ch, (Uint8)m->left[ch], (Uint8)m->right[ch]);
        Mix_PlayChannel(ch, m->looping[ch], -1);
    }
    SDL_Log("tl_audio_sdl_mixer: the device was reopened: its %d channels and looping voices are "
            "back",
            m->voices);
}

/* Whether SDL_mixer's device is open: closed, SDL_mixer has freed its channel table, and a call
   about a channel would read it. Found closed, it is said once; found reopened, restored. */
static inline bool tl__audio_sdl_mixer_ready(tl_audio_sdl_mixer *m) {
    if (!Mix_QuerySpec(NULL, NULL, NULL)) {
        if (!m->told_closed)
            SDL_LogError(SDL_LOG_CATEGORY_APPLICATION,
                         "tl_audio_sdl_mixer: the device is closed: nothing plays until "
                         "Mix_OpenAudio (destroy tl_audio before Mix_CloseAudio)");
        m->told_closed = true;
        return false;
    }
    m->told_closed = false;
    if (m->voices > 0 && Mix_Volume(m->voices, -1) != TL__AUDIO_SDL_MIXER_MARK)
        tl__audio_sdl_mixer_restore(m);
    return true;
}

static inline int tl__audio_sdl_mixer_scale(tl_fp unit, int full) {
    tl_fp v = tl_fp_mul_int(tl_fp_clamp01(unit), full);
    return (int)tl_fp_round_to_int(v);
}

/* Sets what changed of a channel's volume and panning; with the device closed, only remembers
   them (a reopened device gets them). */
static inline void tl__audio_sdl_mixer_apply(tl_audio_sdl_mixer *m, int ch, tl_fp gain, tl_fp pan,
                                             bool open) {
    int volume = tl__audio_sdl_mixer_scale(gain, MIX_MAX_VOLUME);
    int left = tl__audio_sdl_mixer_scale(tl_fp_sub(TL_FP_ONE, pan), 255);
    int right = tl__audio_sdl_mixer_scale(tl_fp_add(TL_FP_ONE, pan), 255);
    if (volume != m->volume[ch]) {
        m->volume[ch] = volume;
        if (open) Mix_Volume(ch, volume);
    }
    if (left != m->left[ch] || right != m->right[ch]) {
        m->left[ch] = left;
        m->right[ch] = right;
        if (open) Mix_SetPanning(ch, (Uint8)left, (Uint8)right);
    }
}

/* Decodes a chunk; on failure keeps SDL_mixer's reason, before another SDL call replaces it. */
static inline void *tl__audio_sdl_mixer_load(void *ctx, uint32_t clip, const void *bytes,
                                             size_t size) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    SDL_RWops *rw = NULL;
    Mix_Chunk *chunk = NULL;
    (void)clip;
    if (!tl__audio_sdl_mixer_ready(m))
        SDL_strlcpy(m->load_error, "the device is closed", sizeof m->load_error);
    else if (size > (size_t)INT32_MAX)
        SDL_strlcpy(m->load_error, "over 2 GiB", sizeof m->load_error);
    else if (!(rw = SDL_RWFromConstMem(bytes, (int)size)) || !(chunk = Mix_LoadWAV_RW(rw, 1)))
        SDL_strlcpy(m->load_error, Mix_GetError(), sizeof m->load_error);
    if (chunk) m->loads++;
    else m->load_failures++;
    return chunk;
}

static inline const char *tl__audio_sdl_mixer_load_error(void *ctx) {
    return ((tl_audio_sdl_mixer *)ctx)->load_error;
}

/* Mix_FreeChunk is safe with the device closed (SDL_mixer checks its channel table). */
static inline void tl__audio_sdl_mixer_unload(void *ctx, void *data) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    int ch;
    for (ch = 0; ch < m->voices; ch++)
        if (m->looping[ch] == data) m->looping[ch] = NULL;
    Mix_FreeChunk((Mix_Chunk *)data);
}

/* SDL_mixer drops a channel's effects, its panning among them, whenever its chunk stops (ended,
   halted, or taken over by Mix_PlayChannel): a channel is halted first, then panned, then played,
   so that its panning is set, and known to be. */
static inline void tl__audio_sdl_mixer_unpanned(tl_audio_sdl_mixer *m, int ch, bool open) {
    if (open && Mix_Playing(ch)) Mix_HaltChannel(ch);
    m->left[ch] = m->right[ch] = -1;
}

static inline void tl__audio_sdl_mixer_play(void *ctx, uint32_t voice, void *data, bool loop,
                                            tl_fp gain, tl_fp pan) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    bool open;
    if ((int)voice >= m->voices) { /* the module has more voices than the mixer has channels */
        if (!m->told_voices && !m->voices)
            SDL_LogError(SDL_LOG_CATEGORY_APPLICATION,
                         "tl_audio_sdl_mixer: nothing plays: tl_audio_sdl_mixer_init failed");
        else if (!m->told_voices)
            SDL_LogError(SDL_LOG_CATEGORY_APPLICATION, /* shown by default (AUDIO errors are not) */
                         "tl_audio_sdl_mixer: voice %u plays nothing: the mixer has %d channels "
                         "(tl_audio_sdl_mixer_init); give tl_audio_desc.voices %d",
                         (unsigned)voice, m->voices, m->voices);
        m->told_voices = true;
        return;
    }
    open = tl__audio_sdl_mixer_ready(m);
    m->looping[voice] = loop ? (Mix_Chunk *)data : NULL; /* a closed device starts it on reopen */
    tl__audio_sdl_mixer_unpanned(m, (int)voice, open);
    tl__audio_sdl_mixer_apply(m, (int)voice, gain, pan, open);
    if (open) Mix_PlayChannel((int)voice, (Mix_Chunk *)data, loop ? -1 : 0);
}

static inline void tl__audio_sdl_mixer_stop(void *ctx, uint32_t voice) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    if ((int)voice >= m->voices) return;
    m->looping[voice] = NULL;
    tl__audio_sdl_mixer_unpanned(m, (int)voice, tl__audio_sdl_mixer_ready(m));
}

static inline void tl__audio_sdl_mixer_gain(void *ctx, uint32_t voice, tl_fp gain, tl_fp pan) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    if ((int)voice < m->voices)
        tl__audio_sdl_mixer_apply(m, (int)voice, gain, pan, tl__audio_sdl_mixer_ready(m));
}

static inline bool tl__audio_sdl_mixer_playing(void *ctx, uint32_t voice) {
    tl_audio_sdl_mixer *m = (tl_audio_sdl_mixer *)ctx;
    return (int)voice < m->voices && tl__audio_sdl_mixer_ready(m) && Mix_Playing((int)voice) != 0;
}

/* Once a tl_audio_update: a steady mix calls nothing else, and a reopened device must be seen. */
static inline void tl__audio_sdl_mixer_commit(void *ctx) {
    (void)tl__audio_sdl_mixer_ready((tl_audio_sdl_mixer *)ctx);
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
    b.commit = tl__audio_sdl_mixer_commit;
    b.load_error = tl__audio_sdl_mixer_load_error;
    return b;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_AUDIO_SDL_MIXER_H */
