/* What the race tests share (tests/gen/test_gen_race.c, tests/pack/test_pack_race.c): a swapper
 * thread's state, its pause, and helpers to empty a folder and read the clock. */
#ifndef TEST_RACE_FIXTURE_H
#define TEST_RACE_FIXTURE_H

#include "base/util.h"

#include <dirent.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TIME_LIMIT_SECONDS 45.0

/* A race test makes its full count of tries where the machine has cores to spare; on a loaded one
 * (a CI runner running other tests beside it: 1,279 of 2,000 in 45 s at a load of 11) it gets
 * fewer within the time limit. It passes with a tenth of them (pack's output race escaped in 6
 * runs of 10 before its fix) and fails below: too few tries prove nothing. */
static inline bool race_tried_enough(int tries, int wanted) { return tries >= wanted / 10; }

/* A swapper thread: while `run` is set, it exchanges two paths as fast as it can (its loop is the
 * test's); `swaps` counts the exchanges, `idle` says it has stopped. */
typedef struct swapper {
    atomic_int run, quit, idle;
    atomic_long swaps;
} swapper;

static inline void swapper_pause(swapper *s)
{
    atomic_store(&s->run, 0);
    while (!atomic_load(&s->idle)) sched_yield();
}

/* Removes every file in `dir` (flat), returning how many there were. */
static inline int empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char *path = path_join(dir, e->d_name);
        unlink(path);
        free(path);
        n++;
    }
    closedir(d);
    return n;
}

static inline double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
