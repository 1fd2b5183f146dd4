#include "base/work_pool.h"

#include "base/util.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

struct work_pool {
    pthread_mutex_t lock;
    pthread_cond_t claimable; /* budget freed, or stopping */
    pthread_cond_t finished;  /* an item is done */
    work_fn fn;
    void *ctx;
    const uint64_t *costs;
    uint64_t budget, in_flight;
    size_t count, next;
    bool stopping;
    unsigned char *done;
    unsigned threads;
    pthread_t *tids;
};

typedef struct worker_arg {
    work_pool *pool;
    unsigned index;
} worker_arg;

static uint64_t cost_of(const work_pool *p, size_t item) { return p->costs ? p->costs[item] : 0; }

/* Under the lock: may the next item be claimed within the budget? */
static bool may_claim(const work_pool *p)
{
    if (p->stopping || p->next >= p->count) return false;
    return p->in_flight == 0 || p->in_flight + cost_of(p, p->next) <= p->budget;
}

/* Under the lock: claims the next item, runs it unlocked, marks it done. */
static void run_next(work_pool *p, unsigned worker)
{
    size_t item = p->next++;
    p->in_flight += cost_of(p, item);
    pthread_mutex_unlock(&p->lock);
    p->fn(p->ctx, item, worker);
    pthread_mutex_lock(&p->lock);
    p->done[item] = 1;
    pthread_cond_broadcast(&p->finished);
}

static void *worker_main(void *arg)
{
    worker_arg *w = arg;
    work_pool *p = w->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stopping && p->next < p->count && !may_claim(p)) pthread_cond_wait(&p->claimable, &p->lock);
        if (p->stopping || p->next >= p->count) break;
        run_next(p, w->index);
    }
    pthread_mutex_unlock(&p->lock);
    free(w);
    return NULL;
}

work_pool *work_pool_start(unsigned jobs, size_t count, work_fn fn, void *ctx, const uint64_t *costs, uint64_t budget)
{
    work_pool *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->claimable, NULL);
    pthread_cond_init(&p->finished, NULL);
    p->fn = fn, p->ctx = ctx, p->costs = costs, p->budget = budget, p->count = count;
    p->done = xcalloc(count ? count : 1, 1);
    unsigned want = jobs > 1 ? jobs - 1 : 0;
    if ((size_t)want > count) want = (unsigned)count; /* no more threads than items */
    p->tids = xcalloc(want ? want : 1, sizeof *p->tids);
    for (unsigned i = 0; i < want; i++) {
        worker_arg *w = xcalloc(1, sizeof *w);
        *w = (worker_arg){p, i + 1};
        if (pthread_create(&p->tids[p->threads], NULL, worker_main, w) != 0) {
            free(w); /* fewer threads: the caller does more */
            break;
        }
        p->threads++;
    }
    return p;
}

void work_pool_wait(work_pool *p, size_t item)
{
    pthread_mutex_lock(&p->lock);
    while (!p->done[item]) {
        /* The item waited for (or one before it) is always claimed: the caller needs it to go on. */
        if (p->next <= item || may_claim(p)) run_next(p, 0);
        else pthread_cond_wait(&p->finished, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

void work_pool_release(work_pool *p, size_t item)
{
    pthread_mutex_lock(&p->lock);
    p->in_flight -= cost_of(p, item);
    pthread_cond_broadcast(&p->claimable);
    pthread_mutex_unlock(&p->lock);
}

void work_pool_finish(work_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->claimable);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->threads; i++) pthread_join(p->tids[i], NULL);
    pthread_cond_destroy(&p->claimable);
    pthread_cond_destroy(&p->finished);
    pthread_mutex_destroy(&p->lock);
    free(p->tids);
    free(p->done);
    free(p);
}

unsigned work_pool_cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (unsigned)CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
