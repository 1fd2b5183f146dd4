/* levels.h: hold + release of a resident level (another hold keeps it resident), and an update
   with 1,000 resident idle levels, against a plain reference-counted array doing the same work
   (an index lookup and a count change; a loop over the levels that finds nothing to do).
   One run prints the medians in ns per operation and the ratios; never a pass/fail on time. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#define TL_IMPLEMENTATION
#include <threadlink/content.h>
#include <threadlink/levels.h>
#include <threadlink/lifecycle.h>
#include <threadlink/glue.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LEVELS 1000u
#define SAMPLES 31
#define OPS 200000

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
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

static tl_levels_status sync_load(void *ctx, tl_level *level) {
    (void)ctx, (void)level;
    return TL_LEVELS_DONE;
}

/* The reference: a count per level and the same countdown test per level per update. */
typedef struct plain_level { uint32_t count; double remaining; int releasing; } plain_level;
static plain_level plain[LEVELS];
static volatile uint32_t sink;

static void plain_update(double dt) {
    uint32_t i, work = 0;
    for (i = 0; i < LEVELS; i++)
        if (plain[i].count == 0 && plain[i].releasing && (plain[i].remaining -= dt) <= 0.0) work++;
    sink += work;
}

int main(void) {
    tl_levels_desc desc;
    tl_levels *levels;
    tl_level_hold keep[LEVELS];
    double a[SAMPLES], b[SAMPLES], c[SAMPLES], d[SAMPLES];
    uint32_t i;
    int s, k;
    memset(&desc, 0, sizeof desc);
    desc.loader.begin_load = sync_load;
    levels = tl_levels_create(&desc);
    for (i = 0; i < LEVELS; i++) keep[i] = tl_levels_hold(levels, i + 1);
    tl_levels_update(levels, 0.016);
    if (tl_levels_get_stats(levels).resident != LEVELS) return 1;
    for (i = 0; i < LEVELS; i++) plain[i].count = 1;
    for (s = 0; s < SAMPLES; s++) {
        double t0 = now_ns();
        for (k = 0; k < OPS; k++) tl_level_hold_release(tl_levels_hold(levels, (uint32_t)(k % (int)LEVELS) + 1u));
        a[s] = (now_ns() - t0) / OPS;
        t0 = now_ns();
        for (k = 0; k < OPS; k++) {
            plain_level *p = &plain[k % (int)LEVELS];
            p->count++;
            sink += p->count;
            if (--p->count == 0) p->releasing = 1;
        }
        b[s] = (now_ns() - t0) / OPS;
        t0 = now_ns();
        for (k = 0; k < OPS / 100; k++) tl_levels_update(levels, 0.016);
        c[s] = (now_ns() - t0) / (OPS / 100);
        t0 = now_ns();
        for (k = 0; k < OPS / 100; k++) plain_update(0.016);
        d[s] = (now_ns() - t0) / (OPS / 100);
    }
    printf("hold + release, resident level:      levels %7.1f ns  plain refcount %7.1f ns  ratio %.1f\n",
           median(a), median(b), median(a) / median(b));
    printf("update, %u resident idle levels:  levels %7.1f ns  plain loop     %7.1f ns  ratio %.2f\n",
           LEVELS, median(c), median(d), median(c) / median(d));
    for (i = 0; i < LEVELS; i++) tl_level_hold_release(keep[i]);
    tl_levels_destroy(levels);
    return 0;
}
