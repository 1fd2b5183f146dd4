#include "bench_listeners.h"

void bench_listener(void *ctx, float dt) {
    bench_counter *c = (bench_counter *)ctx;
    c->sum += dt;
    c->calls++;
}

void bench_gsignal_handler(void *instance, float dt, void *data) {
    bench_counter *c = (bench_counter *)data;
    (void)instance;
    c->sum += dt;
    c->calls++;
}
