/* gen/base/work_pool.c: each item done once and its result read in order whatever the thread count,
 * the bytes in flight within the budget (an item over it only alone), one job running everything
 * on the caller, and a pool finished early running no item twice. */
#include "base/work_pool.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define ITEMS 400
#define LARGE 123 /* the one item whose cost is over the budget */

typedef struct pool_fixture {
    pthread_mutex_t lock;
    uint64_t costs[ITEMS];
    uint64_t in_flight, peak;   /* costs of items started and not yet released */
    uint64_t peak_small;        /* the same, seen as an item other than the large one starts */
    unsigned runs[ITEMS];       /* times each item ran */
    uint64_t results[ITEMS];
    pthread_t caller;
    bool off_caller;            /* some item ran on another thread */
    bool hold_first;            /* item 0 waits (up to 5 s) until an item runs on another thread */
} pool_fixture;

/* Item 0 on hold until another thread has run an item: whatever the scheduler does, a pool with
 * threads then shows them working (the caller alone could otherwise finish every item first). */
static void hold_until_off_caller(pool_fixture *f)
{
    for (int waited = 0; waited < 5000; waited++) {
        pthread_mutex_lock(&f->lock);
        bool seen = f->off_caller;
        pthread_mutex_unlock(&f->lock);
        if (seen) return;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
}

static void work(void *ctx, size_t item, unsigned worker)
{
    pool_fixture *f = ctx;
    pthread_mutex_lock(&f->lock);
    f->runs[item]++;
    f->in_flight += f->costs[item];
    if (f->in_flight > f->peak) f->peak = f->in_flight;
    if (item != LARGE && f->in_flight > f->peak_small) f->peak_small = f->in_flight;
    if (!pthread_equal(pthread_self(), f->caller)) f->off_caller = true;
    bool hold = item == 0 && f->hold_first;
    pthread_mutex_unlock(&f->lock);
    if (hold) hold_until_off_caller(f);
    (void)worker;
    uint64_t h = item * 0x9e3779b97f4a7c15ull; /* a result that depends on the item alone */
    for (unsigned k = 0; k < 2000 + (item % 7) * 500; k++) h = h * 6364136223846793005ull + 1442695040888963407ull;
    f->results[item] = h;
}

static uint64_t expected(size_t item)
{
    uint64_t h = item * 0x9e3779b97f4a7c15ull;
    for (unsigned k = 0; k < 2000 + (item % 7) * 500; k++) h = h * 6364136223846793005ull + 1442695040888963407ull;
    return h;
}

/* Consumes every item in order, releasing each, as pack's writer does. */
static void run_pool_holding(pool_fixture *f, unsigned jobs, uint64_t budget, bool hold_first)
{
    memset(f, 0, sizeof *f);
    f->hold_first = hold_first;
    pthread_mutex_init(&f->lock, NULL);
    f->caller = pthread_self();
    for (size_t i = 0; i < ITEMS; i++) f->costs[i] = 1 + (i * 37) % 100; /* 1 .. 100 bytes */
    f->costs[LARGE] = 5000;
    work_pool *p = work_pool_start(jobs, ITEMS, work, f, f->costs, budget);
    for (size_t i = 0; i < ITEMS; i++) {
        work_pool_wait(p, i);
        assert_int_equal(f->runs[i], 1);
        assert_true(f->results[i] == expected(i));
        pthread_mutex_lock(&f->lock);
        f->in_flight -= f->costs[i];
        pthread_mutex_unlock(&f->lock);
        work_pool_release(p, i);
    }
    work_pool_finish(p);
    pthread_mutex_destroy(&f->lock);
}

static void run_pool(pool_fixture *f, unsigned jobs, uint64_t budget) { run_pool_holding(f, jobs, budget, false); }

static void test_work_pool_results_in_order_for_any_job_count(void **state)
{
    (void)state;
    static pool_fixture f;
    const unsigned jobs[] = {1, 2, 3, 8};
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        run_pool(&f, jobs[j], 1000);
        for (size_t i = 0; i < ITEMS; i++) assert_int_equal(f.runs[i], 1);
    }
}

static void test_work_pool_bounds_work_in_flight(void **state)
{
    (void)state;
    static pool_fixture f;
    for (unsigned jobs = 1; jobs <= 8; jobs *= 2) {
        run_pool(&f, jobs, 300);
        /* Within the budget, or the item over it alone: nothing else in flight beside it. */
        assert_true(f.peak_small <= 300);
        assert_true(f.peak == 5000);
    }
}

static void test_work_pool_one_job_runs_on_the_caller(void **state)
{
    (void)state;
    static pool_fixture f;
    run_pool(&f, 1, 0);
    assert_false(f.off_caller);
    run_pool_holding(&f, 4, 1000, true); /* threads run items even when the caller could do all */
    assert_true(f.off_caller);
}

static void test_work_pool_finish_early(void **state)
{
    (void)state;
    static pool_fixture f;
    memset(&f, 0, sizeof f);
    pthread_mutex_init(&f.lock, NULL);
    f.caller = pthread_self();
    work_pool *p = work_pool_start(4, ITEMS, work, &f, NULL, 0);
    work_pool_wait(p, 10); /* the caller stops after a few, as pack's writer does on an error */
    work_pool_finish(p);
    for (size_t i = 0; i < ITEMS; i++) assert_true(f.runs[i] <= 1);
    for (size_t i = 0; i <= 10; i++) assert_int_equal(f.runs[i], 1);
    pthread_mutex_destroy(&f.lock);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work_pool_results_in_order_for_any_job_count),
        cmocka_unit_test(test_work_pool_bounds_work_in_flight),
        cmocka_unit_test(test_work_pool_one_job_runs_on_the_caller),
        cmocka_unit_test(test_work_pool_finish_early),
    };
    return cmocka_run_group_tests_name("work_pool", tests, NULL, NULL);
}
