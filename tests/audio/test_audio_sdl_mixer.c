/* audio.h through backends/sdl2/tl_audio_sdl_mixer.h on the real SDL2 and SDL_mixer, whose
   output SDL's disk audio driver writes to a file (SDL_AUDIODRIVER=disk, SDL_DISKAUDIOFILE).
   Nothing is mocked: the clips are WAV bytes made here and decoded by SDL_mixer, the module is
   updated from the mixer's own clock (the frames SDL_mixer has mixed, counted by a post-mix
   hook), and each test reads the file back and measures it per window of 100 ms: the RMS, and
   the amplitude of one frequency (Goertzel) where voices of several frequencies mix.
   The test holds the mixer (the audio device's lock) except while it waits for the next chunk:
   a change and the frame count it is measured from are made with no chunk mixed in between, and
   a main thread descheduled on a loaded machine stops the mixer with it, so the output's timing
   does not depend on the machine's load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include <threadlink/audio.h>
#include <threadlink/levels.h>
#include "tl_audio_sdl_mixer.h"

#define RATE 22050
#define WINDOW (RATE / 10) /* 100 ms: a whole number of cycles of every tone below */
#define FULL_RMS (0.5 * 32767.0 / 1.4142135623730951)

enum { SONG = 1, OTHER_SONG = 2, CLICK = 3, CONFIRM = 4, HUM = 5, BROKEN = 6 };
/* The clips: (id, frequency, seconds, amplitude). */
static const struct { uint32_t id; int hz; double seconds, amplitude; } s_clips[] = {
    {SONG, 440, 1.0, 0.5}, {OTHER_SONG, 220, 1.0, 0.5}, {CLICK, 1000, 0.1, 0.5},
    {CONFIRM, 660, 0.1, 0.5}, {HUM, 880, 1.0, 0.5},
};

typedef struct s_world {
    char path[64];
    tl_audio_sdl_mixer mixer;
    tl_audio *audio;
    tl_audio_desc desc;
    tl_events reg;
    tl_levels *levels;
    SDL_atomic_t mixed; /* frames mixed so far, from the post-mix hook */
    int last;           /* the frame count the module was last updated at */
    SDL_AudioDeviceID held; /* the audio device the test has locked, or 0 */
    unsigned char wav[sizeof s_clips / sizeof s_clips[0]][RATE * 2 + 64];
    size_t wav_size[sizeof s_clips / sizeof s_clips[0]];
    int16_t *out; /* the file, read back */
    long out_frames;
} s_world;

static void s_put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}
/* A mono 16-bit PCM WAV of a sine. */
static size_t s_make_wav(unsigned char *out, int hz, double seconds, double amplitude) {
    uint32_t frames = (uint32_t)(seconds * RATE), i;
    memcpy(out, "RIFF", 4); s_put32(out + 4, 36 + frames * 2); memcpy(out + 8, "WAVEfmt ", 8);
    s_put32(out + 16, 16); out[20] = 1; out[21] = 0; out[22] = 1; out[23] = 0;
    s_put32(out + 24, RATE); s_put32(out + 28, RATE * 2); out[32] = 2; out[33] = 0; out[34] = 16; out[35] = 0;
    memcpy(out + 36, "data", 4); s_put32(out + 40, frames * 2);
    for (i = 0; i < frames; i++) {
        int16_t s = (int16_t)lrint(amplitude * 32767.0 * sin(2 * M_PI * hz * (double)i / RATE));
        out[44 + 2 * i] = (unsigned char)(s & 0xff);
        out[45 + 2 * i] = (unsigned char)((uint16_t)s >> 8);
    }
    return 44 + (size_t)frames * 2;
}
/* A modder's broken WAV: its header claims 0 channels. */
static unsigned char s_broken[444];
static bool s_bytes(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    s_world *w = (s_world *)ctx;
    size_t i;
    if (clip == BROKEN) {
        s_make_wav(s_broken, 440, 0.009, 0.5); /* 440 of the 444 bytes */
        s_broken[22] = 0;
        *bytes = s_broken;
        *size = sizeof s_broken;
        return true;
    }
    for (i = 0; i < sizeof s_clips / sizeof s_clips[0]; i++)
        if (s_clips[i].id == clip) {
            *bytes = w->wav[i];
            *size = w->wav_size[i];
            return true;
        }
    return false;
}
static void s_postmix(void *udata, Uint8 *stream, int len) {
    (void)stream;
    SDL_AtomicAdd(&((s_world *)udata)->mixed, len / 4);
}

/* Holds the mixer: SDL runs the mixing callback under the device's lock. SDL_mixer does not say
   which device it opened (not SDL_LockAudio's legacy device 1): the one playing. */
static void s_hold(s_world *w) {
    SDL_AudioDeviceID id;
    if (w->held) return;
    for (id = 2; id < 64 && SDL_GetAudioDeviceStatus(id) != SDL_AUDIO_PLAYING; id++) {}
    assert_true(id < 64);
    SDL_LockAudioDevice(id);
    w->held = id;
}
/* Lets the mixer run (before the device closes: closing waits for the mixing thread). */
static void s_release(s_world *w) {
    if (!w->held) return;
    SDL_UnlockAudioDevice(w->held);
    w->held = 0;
}
static int setup(void **state) {
    s_world *w = (s_world *)calloc(1, sizeof *w);
    size_t i;
    int fd;
    snprintf(w->path, sizeof w->path, "/tmp/tl-audio-disk-XXXXXX");
    fd = mkstemp(w->path);
    assert_true(fd >= 0);
    close(fd);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", w->path, 1);
    assert_int_equal(SDL_Init(SDL_INIT_AUDIO), 0);
    assert_int_equal(Mix_OpenAudio(RATE, AUDIO_S16LSB, 2, 512), 0);
    assert_true(tl_audio_sdl_mixer_init(&w->mixer, 16));
    Mix_SetPostMix(s_postmix, w);
    for (i = 0; i < sizeof s_clips / sizeof s_clips[0]; i++)
        w->wav_size[i] = s_make_wav(w->wav[i], s_clips[i].hz, s_clips[i].seconds, s_clips[i].amplitude);
    w->desc.backend = tl_audio_sdl_mixer_backend(&w->mixer);
    w->desc.clips.bytes = s_bytes;
    w->desc.clips.ctx = w;
    w->desc.voices = 16;
    w->desc.fade_speed = tl_fp_from_int(2); /* a full fade in 0.5 s */
    *state = w;
    return 0;
}
static int teardown(void **state) {
    s_world *w = (s_world *)*state;
    if (w->levels) tl_levels_destroy(w->levels);
    tl_audio_destroy(w->audio);
    if (w->reg.slots) tl_events_discard(&w->reg);
    s_release(w);
    Mix_CloseAudio();
    SDL_Quit();
    remove(w->path);
    free(w->out);
    free(w);
    return 0;
}

static void s_create(s_world *w) {
    w->audio = tl_audio_create(&w->desc);
    assert_non_null(w->audio);
    s_hold(w);
}
static void s_update(s_world *w, int now) {
    if (w->levels) tl_levels_update(w->levels, (double)(now - w->last) / RATE);
    tl_audio_update(w->audio, (double)(now - w->last) / RATE);
    w->last = now;
}
/* Runs the module on the mixer's clock until `seconds` of audio more have been mixed: the changes
   made since the last update are handed to the mixer first, so they are heard from s_now on; the
   mixer then runs a chunk or so at a time, the module updated after each. */
static void s_run(s_world *w, double seconds) {
    int until = w->last + (int)(seconds * RATE);
    s_update(w, w->last);
    while (w->last < until) {
        s_release(w);
        while (SDL_AtomicGet(&w->mixed) == w->last) SDL_Delay(1);
        s_hold(w);
        s_update(w, SDL_AtomicGet(&w->mixed));
    }
}
static int s_now(const s_world *w) { return w->last; }
/* Closes the device (the file is complete then) and reads the file back. */
static void s_finish(s_world *w) {
    FILE *f;
    long size;
    tl_audio_destroy(w->audio);
    w->audio = NULL;
    s_release(w);
    Mix_CloseAudio();
    f = fopen(w->path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    w->out = (int16_t *)malloc((size_t)size);
    assert_int_equal(fread(w->out, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    w->out_frames = size / 4;
    assert_true(w->out_frames >= SDL_AtomicGet(&w->mixed) - 2048);
}
/* RMS of the left channel over the window starting at `frame`, as a fraction of FULL_RMS. */
static double s_rms(const s_world *w, int frame) {
    double sum = 0;
    int i;
    assert_true(frame >= 0 && frame + WINDOW <= w->out_frames);
    for (i = 0; i < WINDOW; i++) sum += (double)w->out[2 * (frame + i)] * w->out[2 * (frame + i)];
    return sqrt(sum / WINDOW) / FULL_RMS;
}
/* The same of the right channel. */
static double s_rms_right(const s_world *w, int frame) {
    double sum = 0;
    int i;
    assert_true(frame >= 0 && frame + WINDOW <= w->out_frames);
    for (i = 0; i < WINDOW; i++) sum += (double)w->out[2 * (frame + i) + 1] * w->out[2 * (frame + i) + 1];
    return sqrt(sum / WINDOW) / FULL_RMS;
}
/* The amplitude of the `hz` tone in the window starting at `frame` (Goertzel), as a fraction of
   the clips' 0.5 full scale. */
static double s_tone(const s_world *w, int frame, int hz) {
    double coeff = 2 * cos(2 * M_PI * hz / RATE), s1 = 0, s2 = 0, power;
    int i;
    assert_true(frame >= 0 && frame + WINDOW <= w->out_frames);
    for (i = 0; i < WINDOW; i++) {
        double s0 = w->out[2 * (frame + i)] + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
    return 2 * sqrt(power) / WINDOW / (0.5 * 32767.0);
}
static int s_at(int frame, double seconds) { return frame + (int)(seconds * RATE); }
/* Margin after a change before a window measures its result: a change is heard from s_now on
   (the mixer is held), but the module is updated once per chunk mixed (512 frames, 23 ms), so a
   fade's last step may land a chunk or two after its time. */
#define LATE 0.12

/* A fade reaches its target within the documented time: volume / fade_speed = 0.5 s. */
static void test_audio_sdl_fade_reaches_its_target_in_the_documented_time(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_scenario song = {SONG, 0, TL_FP_ONE, TL_FP_ZERO};
    int t0, t1;
    s_create(w);
    s_run(w, 0.3);
    t0 = s_now(w);
    assert_int_equal(tl_audio_transition_to_scenario(w->audio, &song), TL_AUDIO_OK);
    s_run(w, 1.0);
    t1 = s_now(w);
    tl_audio_fade_listener_volume(w->audio, TL_FP_ZERO);
    s_run(w, 0.8);
    s_finish(w);
    print_message("fade in: %.3f %.3f %.3f %.3f; out: %.3f %.3f\n", s_rms(w, s_at(t0, -0.1)),
                  s_rms(w, s_at(t0, 0.2)), s_rms(w, s_at(t0, 0.5 + LATE)), s_rms(w, s_at(t0, 0.8)),
                  s_rms(w, s_at(t1, 0.2)), s_rms(w, s_at(t1, 0.5 + LATE)));
    assert_true(s_rms(w, s_at(t0, -0.1)) < 0.01);                  /* silent before */
    assert_true(fabs(s_rms(w, s_at(t0, 0.2)) - 0.5) < 0.15);       /* about halfway at 0.25 s */
    assert_true(fabs(s_rms(w, s_at(t0, 0.5 + LATE)) - 1.0) < 0.02); /* there at 0.5 s */
    assert_true(fabs(s_rms(w, s_at(t0, 0.8)) - 1.0) < 0.02);
    assert_true(fabs(s_rms(w, s_at(t1, 0.2)) - 0.5) < 0.15);       /* the listener fades out */
    assert_true(s_rms(w, s_at(t1, 0.5 + LATE)) < 0.01);
}

/* A cross-fade: the old song's tone falls while the new one's rises, at the same rate. */
static void test_audio_sdl_transition_cross_fades(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_scenario a = {SONG, 0, TL_FP_HALF, TL_FP_ZERO}, b = {OTHER_SONG, 0, TL_FP_HALF, TL_FP_ZERO};
    int t0;
    s_create(w);
    tl_audio_transition_to_scenario(w->audio, &a);
    s_run(w, 0.6);
    t0 = s_now(w);
    tl_audio_transition_to_scenario(w->audio, &b);
    s_run(w, 0.6);
    s_finish(w);
    print_message("before: 440 %.3f 220 %.3f; 0.1 s: %.3f %.3f; after: %.3f %.3f\n",
                  s_tone(w, s_at(t0, -0.1), 440), s_tone(w, s_at(t0, -0.1), 220),
                  s_tone(w, s_at(t0, 0.1), 440), s_tone(w, s_at(t0, 0.1), 220),
                  s_tone(w, s_at(t0, 0.3), 440), s_tone(w, s_at(t0, 0.3), 220));
    assert_true(fabs(s_tone(w, s_at(t0, -0.1), 440) - 0.5) < 0.02);
    assert_true(s_tone(w, s_at(t0, -0.1), 220) < 0.01);
    /* 0.1..0.2 s after: A from 0.3 to 0.2 (mean 0.25), B from 0.2 to 0.3 */
    assert_true(fabs(s_tone(w, s_at(t0, 0.1), 440) - 0.25) < 0.06);
    assert_true(fabs(s_tone(w, s_at(t0, 0.1), 220) - 0.25) < 0.06);
    assert_true(s_tone(w, s_at(t0, 0.1), 440) + s_tone(w, s_at(t0, 0.1), 220) > 0.48);
    assert_true(s_tone(w, s_at(t0, 0.25 + LATE), 440) < 0.01); /* stopped */
    assert_true(fabs(s_tone(w, s_at(t0, 0.25 + LATE), 220) - 0.5) < 0.02);
}

/* A zone at full immersion attenuates the music by its influence; out of its reach, nothing. */
static void test_audio_sdl_zone_attenuates_music_by_its_influence(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_scenario song = {SONG, 0, TL_FP_ONE, TL_FP_ZERO};
    tl_audio_object_desc zone;
    int t0, t1;
    s_create(w);
    tl_audio_transition_to_scenario(w->audio, &song);
    s_run(w, 0.6);
    memset(&zone, 0, sizeof zone);
    zone.name = "waterfall";
    zone.zone = true;
    zone.max_distance = tl_fp_from_int(10);
    zone.radius_coefficient = TL_FP_HALF;
    zone.influence = tl_fp_from_double(0.6);
    assert_true(tl_audio_object_valid(tl_audio_object_create(w->audio, &zone)));
    t0 = s_now(w);
    s_run(w, 0.3);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(tl_fp_from_int(20), TL_FP_ZERO, TL_FP_ZERO), NULL);
    t1 = s_now(w);
    s_run(w, 0.3);
    s_finish(w);
    print_message("before %.3f, immersed %.3f, away %.3f\n", s_rms(w, s_at(t0, -0.1)),
                  s_rms(w, s_at(t0, LATE)), s_rms(w, s_at(t1, LATE)));
    assert_true(fabs(s_rms(w, s_at(t0, -0.1)) - 1.0) < 0.02);
    assert_true(fabs(s_rms(w, s_at(t0, LATE)) - 0.4) < 0.02);
    assert_true(fabs(s_rms(w, s_at(t1, LATE)) - 1.0) < 0.02);
}

/* An object to the listener's left plays in the left channel, also when its voice starts again
   after the listener went out of its reach and came back: SDL_mixer drops a channel's panning when
   its chunk stops, and the backend's cache said it was set (it played centred). */
static void test_audio_sdl_panning_survives_a_voice_restart(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_object_desc hum;
    int t0, t1, t2;
    s_create(w);
    memset(&hum, 0, sizeof hum);
    hum.name = "hum";
    hum.clip = HUM;
    hum.volume = TL_FP_ONE;
    hum.position = tl_fpv3_make(tl_fp_from_int(-3), TL_FP_ZERO, TL_FP_ZERO);
    hum.min_distance = tl_fp_from_int(5);
    hum.max_distance = tl_fp_from_int(10);
    assert_true(tl_audio_object_valid(tl_audio_object_create(w->audio, &hum)));
    t0 = s_now(w);
    s_run(w, 0.4);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(tl_fp_from_int(100), TL_FP_ZERO, TL_FP_ZERO), NULL);
    t1 = s_now(w);
    s_run(w, 0.4);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(TL_FP_ZERO, TL_FP_ZERO, TL_FP_ZERO), NULL);
    t2 = s_now(w);
    s_run(w, 0.4);
    s_finish(w);
    print_message("left/right: in reach %.3f %.3f, away %.3f %.3f, back %.3f %.3f\n", s_rms(w, s_at(t0, LATE)),
                  s_rms_right(w, s_at(t0, LATE)), s_rms(w, s_at(t1, LATE)), s_rms_right(w, s_at(t1, LATE)),
                  s_rms(w, s_at(t2, LATE)), s_rms_right(w, s_at(t2, LATE)));
    assert_true(s_rms(w, s_at(t0, LATE)) > 0.3);
    assert_true(s_rms_right(w, s_at(t0, LATE)) < 0.01); /* hard left */
    assert_true(s_rms(w, s_at(t1, LATE)) < 0.01 && s_rms_right(w, s_at(t1, LATE)) < 0.01);
    assert_true(s_rms(w, s_at(t2, LATE)) > 0.3);
    assert_true(s_rms_right(w, s_at(t2, LATE)) < 0.01); /* still hard left */
}

static tl_levels_status s_begin(void *ctx, tl_level *level) {
    (void)ctx;
    (void)level;
    return TL_LEVELS_DONE;
}
static void s_unload(void *ctx, tl_level *level) {
    (void)ctx;
    (void)level;
}

/* Presenting a level (levels.h) starts its music; a zone of a level not presented adds nothing,
   and presenting that level links it. */
static void test_audio_sdl_presenting_a_level_starts_its_music(void **state) {
    s_world *w = (s_world *)*state;
    tl_events_desc ed;
    tl_levels_desc ld;
    tl_audio_scenario meadow = {SONG, HUM, TL_FP_ONE, tl_fp_from_double(0.2)};
    tl_audio_object_desc zone;
    int t0, t1;
    memset(&ed, 0, sizeof ed);
    ed.span = 32;
    assert_int_equal(tl_events_init(&w->reg, &ed), TL_EVENTS_OK);
    memset(&ld, 0, sizeof ld);
    ld.loader.begin_load = s_begin;
    ld.loader.unload = s_unload;
    ld.registry = &w->reg;
    w->levels = tl_levels_create(&ld);
    w->desc.registry = &w->reg;
    w->desc.level_id = tl_level_id;
    s_create(w);
    tl_audio_set_level_scenario(w->audio, 1, &meadow);
    memset(&zone, 0, sizeof zone);
    zone.name = "brazier";
    zone.level = 2;
    zone.clip = HUM;
    zone.zone = true;
    zone.max_distance = tl_fp_from_int(10);
    zone.influence = TL_FP_ONE;
    zone.radius_coefficient = TL_FP_HALF;
    tl_audio_object_create(w->audio, &zone);
    s_run(w, 0.2);
    t0 = s_now(w);
    tl_levels_present(w->levels, 1);
    s_run(w, 0.8);
    t1 = s_now(w);
    tl_levels_present(w->levels, 2); /* no scenario: the music stays, the brazier is linked */
    s_run(w, 0.4);
    s_finish(w);
    print_message("song before %.3f, presented %.3f (hum %.3f); level 2: song %.3f, hum %.3f\n",
                  s_tone(w, s_at(t0, -0.1), 440), s_tone(w, s_at(t0, 0.6), 440),
                  s_tone(w, s_at(t0, 0.6), 880), s_tone(w, s_at(t1, 0.2), 440),
                  s_tone(w, s_at(t1, 0.2), 880));
    assert_true(s_tone(w, s_at(t0, -0.1), 440) < 0.01);
    assert_true(fabs(s_tone(w, s_at(t0, 0.6), 440) - 1.0) < 0.03); /* the zone of level 2: nothing */
    assert_true(fabs(s_tone(w, s_at(t0, 0.6), 880) - 0.2) < 0.02); /* the meadow's atmos */
    assert_true(s_tone(w, s_at(t1, 0.2), 440) < 0.01);              /* influence 1: silenced */
    assert_true(fabs(s_tone(w, s_at(t1, 0.2), 880) - 1.0) < 0.03);  /* the brazier's own hum */
}

/* Interface sounds play on the interface stack's events (the natives' parameters). */
typedef void (*s_selected_fn)(void *ctx, uint32_t interface_id, uint32_t selectable);
typedef void (*s_cancelled_fn)(void *ctx, uint32_t interface_id);
static void test_audio_sdl_interface_sounds_play_on_navigation(void **state) {
    s_world *w = (s_world *)*state;
    tl_events_desc ed;
    int t0, t1;
    memset(&ed, 0, sizeof ed);
    ed.span = 32;
    assert_int_equal(tl_events_init(&w->reg, &ed), TL_EVENTS_OK);
    w->desc.registry = &w->reg;
    w->desc.ui.clips[TL_AUDIO_UI_NAVIGATE] = CLICK;
    w->desc.ui.clips[TL_AUDIO_UI_CANCEL] = CONFIRM; /* a tone of its own */
    w->desc.ui.events[TL_AUDIO_UI_NAVIGATE] = 22;   /* OnUIElementSelected(uint32_t, uint32_t) */
    w->desc.ui.events[TL_AUDIO_UI_CANCEL] = 21;     /* OnUICancelled(uint32_t) */
    s_create(w);
    s_run(w, 0.3);
    t0 = s_now(w);
    TL_EVENTS_PUBLISH(&w->reg, 22, TL_AUDIO_SIG_U32_U32, s_selected_fn, 1u, 2u);
    s_run(w, 0.3);
    t1 = s_now(w);
    TL_EVENTS_PUBLISH(&w->reg, 21, TL_AUDIO_SIG_U32, s_cancelled_fn, 1u);
    s_run(w, 0.3);
    s_finish(w);
    print_message("click before %.3f, after %.3f (cancel %.3f); cancel %.3f (click %.3f)\n",
                  s_tone(w, s_at(t0, -0.1), 1000), s_tone(w, s_at(t0, 0.0), 1000),
                  s_tone(w, s_at(t0, 0.0), 660), s_tone(w, s_at(t1, 0.0), 660),
                  s_tone(w, s_at(t1, 0.0), 1000));
    assert_true(s_tone(w, s_at(t0, -0.1), 1000) < 0.01);
    assert_true(s_tone(w, s_at(t0, 0.0), 1000) > 0.3); /* the click, within the 100 ms after */
    assert_true(s_tone(w, s_at(t0, 0.0), 660) < 0.02);
    assert_true(s_tone(w, s_at(t1, 0.0), 660) > 0.3);
    assert_true(s_tone(w, s_at(t1, 0.0), 1000) < 0.02);
}

/* The module given more voices than the mixer has channels: an effect on a voice past them plays
   nothing, and the backend says so once (SDL's log), naming the count to give. */
static char s_sdl_log[512];
static int s_sdl_log_lines;
static void s_sdl_log_output(void *user, int category, SDL_LogPriority priority, const char *message) {
    (void)user, (void)category, (void)priority;
    s_sdl_log_lines++;
    SDL_snprintf(s_sdl_log, sizeof s_sdl_log, "%s", message);
}
static void test_audio_sdl_voices_past_the_channels_are_said(void **state) {
    s_world *w = (s_world *)*state;
    int i;
    SDL_LogSetOutputFunction(s_sdl_log_output, NULL);
    w->desc.voices = 24; /* the mixer has 16 */
    s_create(w);
    for (i = 0; i < 20; i++) assert_non_null(tl_audio_play(w->audio, CLICK, TL_FP_ONE).audio);
    s_run(w, 0.05);
    assert_int_equal(Mix_Playing(-1), 12); /* voices 4..15: the rest have no channel */
    assert_int_equal(s_sdl_log_lines, 1);
    assert_non_null(SDL_strstr(s_sdl_log, "plays nothing: the mixer has 16 channels (tl_audio_sdl_mixer_init); give tl_audio_desc.voices 16"));
    SDL_LogSetOutputFunction(NULL, NULL);
}

/* tl_audio_sdl_mixer_init before Mix_OpenAudio is refused, and said: Mix_OpenAudio would reset
   SDL_mixer to 8 channels, and the voices past them would play nothing, unsaid. */
static void test_audio_sdl_init_before_the_device_is_refused(void **state) {
    s_world *w = (s_world *)*state;
    SDL_LogSetOutputFunction(s_sdl_log_output, NULL);
    s_sdl_log_lines = 0;
    Mix_CloseAudio();
    assert_false(tl_audio_sdl_mixer_init(&w->mixer, 16));
    assert_int_equal(s_sdl_log_lines, 1);
    assert_non_null(SDL_strstr(s_sdl_log, "the device is not open (call Mix_OpenAudio first)"));
    SDL_LogSetOutputFunction(NULL, NULL);
}

/* The device closed under the module (Mix_CloseAudio before tl_audio_destroy, or a lost device
   closed while the game plays on): the backend calls nothing in SDL_mixer (which would read its
   freed channel table) and says so once. */
static void test_audio_sdl_a_closed_device_is_refused_and_said_once(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_scenario meadow = {SONG, HUM, TL_FP_ONE, TL_FP_HALF};
    int i;
    s_create(w);
    assert_int_equal(tl_audio_transition_to_scenario(w->audio, &meadow), TL_AUDIO_OK);
    s_run(w, 0.3);
    SDL_LogSetOutputFunction(s_sdl_log_output, NULL);
    s_sdl_log_lines = 0;
    s_release(w);
    Mix_CloseAudio();
    for (i = 0; i < 10; i++) {
        (void)tl_audio_play(w->audio, CLICK, TL_FP_ONE);
        tl_audio_update(w->audio, 0.05);
    }
    tl_audio_destroy(w->audio); /* stops every voice, frees the chunks */
    w->audio = NULL;
    assert_int_equal(s_sdl_log_lines, 1);
    assert_non_null(SDL_strstr(s_sdl_log, "the device is closed"));
    SDL_LogSetOutputFunction(NULL, NULL);
}

/* A lost device recovered the usual way, Mix_CloseAudio then Mix_OpenAudio, the game updating in
   between: the backend sees the reopened device by the end of the next tl_audio_update (its commit)
   and restores its channels, their volumes, and the looping voices (music and ambience, from their
   start); every effect voice plays again. */
static void test_audio_sdl_a_reopened_device_plays_on(void **state) {
    s_world *w = (s_world *)*state;
    tl_audio_scenario meadow = {SONG, HUM, TL_FP_ONE, TL_FP_HALF};
    int t0, i;
    s_create(w);
    assert_int_equal(tl_audio_transition_to_scenario(w->audio, &meadow), TL_AUDIO_OK);
    s_run(w, 0.8); /* faded in */
    s_release(w);
    Mix_CloseAudio();
    for (i = 0; i < 5; i++) tl_audio_update(w->audio, 0.02); /* the game plays on meanwhile */
    assert_int_equal(Mix_OpenAudio(RATE, AUDIO_S16LSB, 2, 512), 0);
    SDL_AtomicSet(&w->mixed, 0); /* the disk driver starts its file again */
    w->last = 0;
    s_hold(w);
    s_run(w, 0.3);
    t0 = s_now(w);
    s_run(w, 0.3);
    for (i = 0; i < 12; i++) assert_non_null(tl_audio_play(w->audio, CLICK, TL_FP_ONE).audio);
    s_run(w, 0.02);
    assert_int_equal(Mix_Playing(-1), 14); /* music, ambience and 12 effects on voices 4..15 */
    s_finish(w);
    print_message("after the reopen: song %.3f, hum %.3f\n", s_tone(w, t0, 440), s_tone(w, t0, 880));
    assert_true(fabs(s_tone(w, t0, 440) - 1.0) < 0.03);
    assert_true(fabs(s_tone(w, t0, 880) - 0.5) < 0.03); /* the ambience's own volume */
}

/* A clip SDL_mixer refuses is logged with SDL_mixer's reason (Mix_GetError, read at once). */
static char s_log_line[512];
static void s_log_sink(void *user, const tl_log_record *record) {
    (void)user;
    SDL_snprintf(s_log_line, sizeof s_log_line, "%s", record->line);
}
static void test_audio_sdl_a_refused_clip_is_logged_with_the_reason(void **state) {
    s_world *w = (s_world *)*state;
    tl_logger logger = {s_log_sink, NULL, 0};
    w->desc.logger = &logger;
    s_create(w);
    assert_null(tl_audio_play(w->audio, BROKEN, TL_FP_ONE).audio);
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_LOAD_FAILED);
    print_message("%s\n", s_log_line);
    assert_non_null(SDL_strstr(s_log_line, "clip 6: the backend could not load its 444 bytes: "));
    assert_non_null(SDL_strstr(s_log_line, "channels")); /* SDL_mixer: "Invalid number of channels" */
    tl_audio_destroy(w->audio);
    w->audio = NULL;
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_audio_sdl_fade_reaches_its_target_in_the_documented_time),
        T(test_audio_sdl_transition_cross_fades),
        T(test_audio_sdl_zone_attenuates_music_by_its_influence),
        T(test_audio_sdl_panning_survives_a_voice_restart),
        T(test_audio_sdl_presenting_a_level_starts_its_music),
        T(test_audio_sdl_interface_sounds_play_on_navigation),
        T(test_audio_sdl_voices_past_the_channels_are_said),
        T(test_audio_sdl_init_before_the_device_is_refused),
        T(test_audio_sdl_a_closed_device_is_refused_and_said_once),
        T(test_audio_sdl_a_reopened_device_plays_on),
        T(test_audio_sdl_a_refused_clip_is_logged_with_the_reason),
    };
    return cmocka_run_group_tests_name("audio-sdl-mixer", tests, NULL, NULL);
}
