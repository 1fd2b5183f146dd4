/* A fixed set of threads working through items 0..count-1 for a caller that consumes the results
 * in index order (pack: read, hash and compress each asset; the caller writes them in order).
 * Items are claimed in index order and each result is the caller's to read once its item is done,
 * so what the caller writes never depends on scheduling. In-flight work is bounded: an item is
 * claimed only while the costs of the items claimed and not yet released stay within the budget
 * (one item always may be, however large), so memory stays flat however many items there are.
 * The calling thread is worker 0 and works on items while it waits: with one job no thread is
 * started and every item runs on the caller, in order. POSIX threads. */
#ifndef TLG_WORK_POOL_H
#define TLG_WORK_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct work_pool work_pool;

/* Runs item `item` on worker `worker` (0 .. jobs-1): touches only that item's result and that
 * worker's state, and reports nothing (the caller reports, in order, once the item is done). */
typedef void (*work_fn)(void *ctx, size_t item, unsigned worker);

/* Starts jobs-1 threads (jobs >= 1) on `count` items. `costs` (NULL: all free) and `budget` bound
 * the work in flight, in the caller's unit (bytes). */
work_pool *work_pool_start(unsigned jobs, size_t count, work_fn fn, void *ctx, const uint64_t *costs, uint64_t budget);
/* Returns once `item` is done, working on earlier or this item meanwhile. */
void work_pool_wait(work_pool *p, size_t item);
/* The caller is through with `item`'s result: its cost leaves the budget. */
void work_pool_release(work_pool *p, size_t item);
/* Items not claimed yet are not run; waits for the threads and frees the pool. */
void work_pool_finish(work_pool *p);

/* The processors this process may run on (at least 1): the default job count. */
unsigned work_pool_cores(void);

#endif
