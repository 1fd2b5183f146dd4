/* The SDL_mixer path (audio.h + backends/sdl2/tl_audio_sdl_mixer.h) against SDL_mixer driven
   directly with the same voices, in one run: 24 looping voices whose volumes fade between 0.2
   and 1 (each turning every half second, staggered), at 60 frames a second in real time, on
   SDL's disk audio driver writing to /dev/null (44.1 kHz stereo, 1,024-frame buffers), so
   SDL_mixer really mixes every voice. The window is the whole job: each round plays 2 s, and the
   process's CPU time covers the frames' work on the main thread and the mixing on SDL's audio
   thread alike (goal: at most 1.1x). The frames' work alone (the module's update and its
   Mix_Volume calls, against a float fade and the same calls) is printed too.
   Rounds alternate; medians of 7; never a pass/fail on time. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime, setenv */
#define TL_IMPLEMENTATION
#include <threadlink/audio.h>
#include "tl_audio_sdl_mixer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RATE 44100
#define VOICES 24
#define ROUNDS 7
#define FRAMES 120 /* 2 s at 60 Hz */

static unsigned char wav[VOICES][44 + RATE * 2];
static size_t wav_size[VOICES];

static double clock_ns(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v) {
    qsort(v, ROUNDS, sizeof *v, cmp);
    return v[ROUNDS / 2];
}
static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}
static size_t make_wav(unsigned char *out, double hz) {
    uint32_t i;
    memcpy(out, "RIFF", 4), put32(out + 4, 36 + RATE * 2), memcpy(out + 8, "WAVEfmt ", 8);
    put32(out + 16, 16), out[20] = 1, out[21] = 0, out[22] = 1, out[23] = 0;
    put32(out + 24, RATE), put32(out + 28, RATE * 2), out[32] = 2, out[33] = 0, out[34] = 16,
                                                                                out[35] = 0;
    memcpy(out + 36, "data", 4), put32(out + 40, RATE * 2);
    for (i = 0; i < RATE; i++) {
        int16_t s = (int16_t)lrint(0.04 * 32767.0 * sin(2 * M_PI * hz * (double)i / RATE));
        out[44 + 2 * i] = (unsigned char)(s & 0xff), out[45 + 2 * i] = (unsigned char)((uint16_t)s >> 8);
    }
    return 44 + (size_t)RATE * 2;
}
static bool bytes_of(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    (void)ctx;
    *bytes = wav[clip - 1];
    *size = wav_size[clip - 1];
    return true;
}
/* Voice v's target at frame f: 1 or 0.2, turning every 30 frames, staggered by v. */
static double target_of(int v, int f) { return ((f + v) / 30) % 2 ? 0.2 : 1.0; }

/* Waits for frame f of a round that started at `start` (monotonic ns). */
static void pace(double start, int f) {
    double due = start + f * (1e9 / 60), now = clock_ns(CLOCK_MONOTONIC);
    if (due > now) SDL_Delay((Uint32)((due - now) / 1e6));
}

typedef struct round_cost { double process, frames; } round_cost;

static round_cost run_module(void) {
    static tl_audio_sdl_mixer mixer;
    tl_audio_desc desc = {0};
    tl_audio_object objects[VOICES];
    tl_audio *audio;
    round_cost cost = {0, 0};
    double start, cpu0;
    int v, f;
    tl_audio_sdl_mixer_init(&mixer, VOICES + 4);
    desc.backend = tl_audio_sdl_mixer_backend(&mixer);
    desc.clips.bytes = bytes_of;
    desc.voices = VOICES + 4;
    desc.fade_speed = tl_fp_from_int(2);
    audio = tl_audio_create(&desc);
    for (v = 0; v < VOICES; v++) {
        tl_audio_object_desc o = {0};
        o.clip = (uint32_t)v + 1u;
        o.flat = true;
        objects[v] = tl_audio_object_create(audio, &o);
    }
    tl_audio_update(audio, 0); /* the voices start */
    start = clock_ns(CLOCK_MONOTONIC);
    cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (f = 0; f < FRAMES; f++) {
        double t0;
        pace(start, f);
        t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        for (v = 0; v < VOICES; v++)
            tl_audio_fade_source_volume(objects[v], tl_fp_from_double(target_of(v, f)));
        tl_audio_update(audio, 1.0 / 60);
        cost.frames += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    }
    pace(start, FRAMES);
    cost.process = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    tl_audio_destroy(audio);
    return cost;
}

static round_cost run_direct(void) {
    Mix_Chunk *chunks[VOICES];
    float volume[VOICES];
    int sent[VOICES];
    round_cost cost = {0, 0};
    double start, cpu0;
    int v, f;
    Mix_AllocateChannels(VOICES + 4);
    for (v = 0; v < VOICES; v++) {
        chunks[v] = Mix_LoadWAV_RW(SDL_RWFromConstMem(wav[v], (int)wav_size[v]), 1);
        volume[v] = 1.0f;
        Mix_Volume(v + 4, sent[v] = MIX_MAX_VOLUME);
        Mix_PlayChannel(v + 4, chunks[v], -1);
    }
    start = clock_ns(CLOCK_MONOTONIC);
    cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (f = 0; f < FRAMES; f++) {
        double t0;
        pace(start, f);
        t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        for (v = 0; v < VOICES; v++) {
            float target = (float)target_of(v, f), step = 2.0f / 60.0f;
            int level;
            volume[v] = volume[v] < target ? fminf(volume[v] + step, target) : fmaxf(volume[v] - step, target);
            level = (int)lrintf(volume[v] * MIX_MAX_VOLUME);
            if (level != sent[v]) Mix_Volume(v + 4, sent[v] = level);
        }
        cost.frames += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    }
    pace(start, FRAMES);
    cost.process = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    for (v = 0; v < VOICES; v++) Mix_FreeChunk(chunks[v]); /* halts its channel */
    return cost;
}

int main(void) {
    double module_cpu[ROUNDS], direct_cpu[ROUNDS], module_frame[ROUNDS], direct_frame[ROUNDS];
    double mc, dc, mf, df;
    int v, r;
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", "/dev/null", 1);
    if (SDL_Init(SDL_INIT_AUDIO) != 0 || Mix_OpenAudio(RATE, AUDIO_S16LSB, 2, 1024) != 0) {
        fprintf(stderr, "bench_audio_sdl: no audio device: %s\n", SDL_GetError());
        return 1;
    }
    for (v = 0; v < VOICES; v++) wav_size[v] = make_wav(wav[v], 110.0 + 20.0 * v);
    for (r = 0; r < ROUNDS; r++) {
        round_cost m = run_module(), d = run_direct();
        module_cpu[r] = m.process, module_frame[r] = m.frames / FRAMES;
        direct_cpu[r] = d.process, direct_frame[r] = d.frames / FRAMES;
    }
    mc = median(module_cpu), dc = median(direct_cpu), mf = median(module_frame), df = median(direct_frame);
    printf("%d voices fading, 2 s of audio a round, process CPU (mixing included):\n", VOICES);
    printf("  audio.h + SDL_mixer backend %8.2f ms   SDL_mixer direct %8.2f ms   ratio %.3f (goal <= 1.1)\n",
           mc / 1e6, dc / 1e6, mc / dc);
    printf("frame work alone (main thread CPU per frame):\n");
    printf("  audio.h + SDL_mixer backend %8.0f ns   SDL_mixer direct %8.0f ns   ratio %.2f\n", mf, df, mf / df);
    Mix_CloseAudio();
    SDL_Quit();
    return 0;
}
