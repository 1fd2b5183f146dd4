/* Listener bodies for bench_events.c, defined in bench_listeners.c so that no call can be inlined. */
#ifndef BENCH_LISTENERS_H
#define BENCH_LISTENERS_H

typedef struct bench_counter {
    double sum;
    unsigned long calls;
} bench_counter;

/* The same body behind the three calling conventions measured. */
void bench_listener(void *ctx, float dt);                           /* events and the plain loop */
void bench_gsignal_handler(void *instance, float dt, void *data); /* GSignal: (instance, args, data) */

#endif
