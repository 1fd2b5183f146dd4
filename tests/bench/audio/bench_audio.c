/* audio.h's update, the null backend (the policy alone): 1,000 linked spatial objects and 16
   zones, the listener walking among them (goal: under 20 us a frame on one core). Two layouts:
   spread (objects 3.2 apart on a grid, max distance 10: a few dozen in range, as in a level) and
   crowded (every object within its max distance: a square root, a division and a pan each).
   One run prints the medians in ns of the thread's CPU time per update; never a pass/fail on
   time. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#define TL_IMPLEMENTATION
#include <threadlink/audio.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define OBJECTS 1000
#define ZONES 16
#define SAMPLES 31
#define FRAMES 200

/* The thread's CPU time: on a machine shared with other work, time the thread was not running
   is not the update's. */
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v) {
    qsort(v, SAMPLES, sizeof *v, cmp);
    return v[SAMPLES / 2];
}

static unsigned char clip_bytes[16];
static bool bytes_of(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    (void)ctx;
    (void)clip;
    *bytes = clip_bytes;
    *size = sizeof clip_bytes;
    return true;
}

/* Objects on a grid of `spacing` (zones among them, every 63rd), clips 1..8. */
static tl_audio *make_world(tl_audio_null *null, double spacing) {
    tl_audio_desc desc = {0};
    tl_audio *audio;
    int i;
    desc.backend = tl_audio_null_backend(null);
    desc.clips.bytes = bytes_of;
    desc.voices = 32;
    desc.max_objects = OBJECTS;
    audio = tl_audio_create(&desc);
    for (i = 0; i < OBJECTS; i++) {
        tl_audio_object_desc o = {0};
        char name[16];
        snprintf(name, sizeof name, "o%d", i);
        o.name = name;
        o.clip = 1u + (uint32_t)(i % 8);
        o.position = tl_fpv3_make(tl_fp_from_double((i % 32) * spacing),
                                  tl_fp_from_double((i / 32) * spacing), TL_FP_ZERO);
        o.max_distance = tl_fp_from_int(10);
        if (i % 63 == 0 && i / 63 < ZONES) {
            o.zone = true;
            o.influence = TL_FP_HALF;
            o.radius_coefficient = TL_FP_HALF;
        }
        tl_audio_object_create(audio, &o);
    }
    return audio;
}

static double bench_walk(tl_audio *audio, double spacing) {
    double samples[SAMPLES];
    int s, f, step = 0;
    for (s = 0; s < SAMPLES; s++) {
        double t0 = now_ns();
        for (f = 0; f < FRAMES; f++, step++) {
            double x = (step % 1000) * 0.032 * spacing, y = 15.5 * spacing * (0.5 + 0.01 * (step % 100));
            tl_audio_drive_listener(audio, tl_fpv3_make(tl_fp_from_double(x), tl_fp_from_double(y),
                                                        TL_FP_ZERO), NULL);
            tl_audio_update(audio, 1.0 / 60);
        }
        samples[s] = (now_ns() - t0) / FRAMES;
    }
    return median(samples);
}

int main(void) {
    static tl_audio_null null_spread, null_crowded;
    tl_audio *spread, *crowded;
    tl_audio_stats st;
    double a, b;
    tl_audio_null_init(&null_spread, NULL, 0);
    tl_audio_null_init(&null_crowded, NULL, 0);
    spread = make_world(&null_spread, 3.2);
    crowded = make_world(&null_crowded, 0.2); /* 6.4 x 6.2: all within 10 of the listener */
    a = bench_walk(spread, 3.2);
    st = tl_audio_get_stats(spread);
    printf("update, %u linked objects (%u zones), spread:  %8.0f ns  (%u voices busy)\n",
           st.linked, st.zones, a, st.voices_busy);
    b = bench_walk(crowded, 0.2);
    st = tl_audio_get_stats(crowded);
    printf("update, %u linked objects (%u zones), crowded: %8.0f ns  (%u voices busy)\n",
           st.linked, st.zones, b, st.voices_busy);
    printf("goal: under 20000 ns a frame\n");
    tl_audio_destroy(spread);
    tl_audio_destroy(crowded);
    return 0;
}
