/* events.h publish and subscribe/unsubscribe against a plain loop of indirect calls (the limit) and
   GLib's GSignal. One run prints, per case, each median in ns per operation and the ratios.
   Run pinned to one CPU: `meson test -C build --benchmark` does it through taskset. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT, clock_gettime */
#define TL_IMPLEMENTATION
#include "generated_events_sample.h"

#include <glib-object.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_listeners.h"

#define MAX_LISTENERS 64
#define SAMPLES 31
#define SAMPLE_NS 1000000.0 /* about 1 ms per sample: short enough that few are preempted */

/* --- the plain loop: what a hand-written array of callbacks costs ------------------------------- */
typedef struct plain_listener {
    void (*fn)(void *ctx, float dt);
    void *ctx;
} plain_listener;
typedef struct plain_list {
    plain_listener items[MAX_LISTENERS + 1];
    unsigned count;
} plain_list;

static inline void plain_publish(const plain_list *list, float dt) {
    unsigned i = list->count;
    while (i-- > 0) list->items[i].fn(list->items[i].ctx, dt);
}
static inline void plain_subscribe(plain_list *list, void (*fn)(void *, float), void *ctx) {
    list->items[list->count].fn = fn;
    list->items[list->count].ctx = ctx;
    list->count++;
}
static inline void plain_unsubscribe(plain_list *list, void (*fn)(void *, float), void *ctx) {
    unsigned i = list->count;
    while (i-- > 0)
        if (list->items[i].fn == fn && list->items[i].ctx == ctx) {
            list->items[i] = list->items[--list->count];
            return;
        }
}

/* --- GSignal: a minimal GObject with one signal (float) ---------------------------------------- */
typedef struct BenchEmitter {
    GObject parent;
} BenchEmitter;
typedef struct BenchEmitterClass {
    GObjectClass parent_class;
} BenchEmitterClass;
static guint bench_update_signal;
G_DEFINE_TYPE(BenchEmitter, bench_emitter, G_TYPE_OBJECT)
static void bench_emitter_class_init(BenchEmitterClass *klass) {
    bench_update_signal = g_signal_new("update", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, g_cclosure_marshal_VOID__FLOAT, G_TYPE_NONE, 1,
                                       G_TYPE_FLOAT);
    g_signal_set_va_marshaller(bench_update_signal, G_TYPE_FROM_CLASS(klass),
                               g_cclosure_marshal_VOID__FLOATv);
}
static void bench_emitter_init(BenchEmitter *self) { (void)self; }

/* --- measurement -------------------------------------------------------------------------------- */
typedef struct world {
    tl_events reg;
    plain_list plain;
    GObject *emitter;
    gulong handlers[MAX_LISTENERS];
    bench_counter counters[MAX_LISTENERS + 1];
    unsigned listeners;
} world;

typedef enum op { OP_IRIS, OP_PLAIN, OP_GSIGNAL } op;
typedef enum kind { PUBLISH, CHURN } kind;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One non-inlined loop per operation, so that each is compiled the same way. */
#define BENCH_NOINLINE __attribute__((noinline))
BENCH_NOINLINE static void events_publish_loop(world *w, long n) {
    while (n-- > 0) Iris_Events_OnUpdate_publish(&w->reg, 0.016f);
}
BENCH_NOINLINE static void plain_publish_loop(world *w, long n) {
    while (n-- > 0) plain_publish(&w->plain, 0.016f);
}
BENCH_NOINLINE static void gsignal_publish_loop(world *w, long n) {
    while (n-- > 0) g_signal_emit(w->emitter, bench_update_signal, 0, 0.016f);
}
BENCH_NOINLINE static void events_churn_loop(world *w, long n) {
    bench_counter *extra = &w->counters[MAX_LISTENERS];
    while (n-- > 0) {
        Iris_Events_OnUpdate_subscribe(&w->reg, bench_listener, extra);
        Iris_Events_OnUpdate_unsubscribe(&w->reg, bench_listener, extra);
    }
}
BENCH_NOINLINE static void plain_churn_loop(world *w, long n) {
    bench_counter *extra = &w->counters[MAX_LISTENERS];
    while (n-- > 0) {
        plain_subscribe(&w->plain, bench_listener, extra);
        plain_unsubscribe(&w->plain, bench_listener, extra);
    }
}
BENCH_NOINLINE static void gsignal_churn_loop(world *w, long n) {
    bench_counter *extra = &w->counters[MAX_LISTENERS];
    while (n-- > 0) {
        gulong id = g_signal_connect(w->emitter, "update", G_CALLBACK(bench_gsignal_handler), extra);
        g_signal_handler_disconnect(w->emitter, id);
    }
}

typedef void (*loop_fn)(world *w, long n);
static const loop_fn loops[2][3] = {
    {events_publish_loop, plain_publish_loop, gsignal_publish_loop},
    {events_churn_loop, plain_churn_loop, gsignal_churn_loop},
};

static void run(world *w, kind k, op o, long iterations) { loops[k][o](w, iterations); }

static double sample(world *w, kind k, op o, long iterations) {
    double start = now_ns();
    run(w, k, o, iterations);
    return (now_ns() - start) / (double)iterations;
}

static long calibrate(world *w, kind k, op o) {
    long iterations = 256;
    for (;;) {
        double start = now_ns();
        run(w, k, o, iterations);
        if (now_ns() - start >= SAMPLE_NS / 4 || iterations > (1L << 30)) break;
        iterations *= 2;
    }
    return iterations * 4;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Medians of the three, samples interleaved so that drift affects all alike. */
static void measure(world *w, kind k, double median[3]) {
    double s[3][SAMPLES];
    long iterations[3];
    int o, i;
    for (o = 0; o < 3; o++) iterations[o] = calibrate(w, k, (op)o);
    for (i = 0; i < SAMPLES; i++)
        for (o = 0; o < 3; o++) s[o][i] = sample(w, k, (op)o, iterations[o]);
    for (o = 0; o < 3; o++) {
        qsort(s[o], SAMPLES, sizeof(double), by_value);
        median[o] = s[o][SAMPLES / 2];
        if (getenv("BENCH_VERBOSE")) fprintf(stderr, "  op %d: min %.2f median %.2f max %.2f\n", o, s[o][0], s[o][SAMPLES / 2], s[o][SAMPLES - 1]);
    }
}

static void set_listeners(world *w, unsigned n) {
    while (w->listeners < n) {
        unsigned i = w->listeners++;
        Iris_Events_OnUpdate_subscribe(&w->reg, bench_listener, &w->counters[i]);
        plain_subscribe(&w->plain, bench_listener, &w->counters[i]);
        w->handlers[i] = g_signal_connect(w->emitter, "update", G_CALLBACK(bench_gsignal_handler),
                                          &w->counters[i]);
    }
}

static const char *verdict(int met) { return met ? "met" : "NOT met"; }

int main(void) {
    static world w;
    static const unsigned counts[] = {0, 1, 4, 64};
    double m[3];
    size_t c;
    cpu_set_t cpus;
    unsigned long total = 0;
    int pinned = 0;

    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) pinned = CPU_COUNT(&cpus);
    printf("events benchmark: medians of %d samples, ns per operation; running on %d CPU(s)%s\n",
           SAMPLES, pinned, pinned == 1 ? " (pinned)" : " (NOT pinned: run under taskset -c 0)");
    if (iris_events_init(&w.reg, NULL) != TL_EVENTS_OK) return 1;
    w.emitter = (GObject *)g_object_new(bench_emitter_get_type(), NULL);

    for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        char what[64];
        int targeted = counts[c] >= 1; /* issue 47: 1 listener (a single provider) too */
        set_listeners(&w, counts[c]);
        measure(&w, PUBLISH, m);
        snprintf(what, sizeof what, "publish, %u listener%s", counts[c], counts[c] == 1 ? "" : "s");
        printf("%-26s events %8.2f | plain loop %8.2f | events/plain %5.2fx", what, m[OP_IRIS],
               m[OP_PLAIN], m[OP_IRIS] / m[OP_PLAIN]);
        if (targeted) printf(" (<= 1.15x: %s)", verdict(m[OP_IRIS] / m[OP_PLAIN] <= 1.15));
        printf(" | GSignal %9.2f | GSignal/events %6.1fx", m[OP_GSIGNAL], m[OP_GSIGNAL] / m[OP_IRIS]);
        if (counts[c] > 0) printf(" (>= 30x: %s)", verdict(m[OP_GSIGNAL] / m[OP_IRIS] >= 30.0));
        /* The ceiling of GSignal/events for an implementation as fast as the plain loop. */
        if (counts[c] > 0) printf(" | GSignal/plain %6.1fx", m[OP_GSIGNAL] / m[OP_PLAIN]);
        if (counts[c] > 0) printf(" | events %.2f ns/listener", m[OP_IRIS] / counts[c]);
        printf("\n");
        if (counts[c] == 0 || counts[c] == 4) {
            measure(&w, CHURN, m);
            snprintf(what, sizeof what, "sub+unsub, %u others", counts[c]);
            printf("%-26s events %8.2f | plain loop %8.2f | events/plain %5.2fx (< 10 ns: %s) | "
                   "GSignal %9.2f | GSignal/events %6.1fx\n",
                   what, m[OP_IRIS], m[OP_PLAIN], m[OP_IRIS] / m[OP_PLAIN], verdict(m[OP_IRIS] < 10.0),
                   m[OP_GSIGNAL], m[OP_GSIGNAL] / m[OP_IRIS]);
        }
    }
    for (c = 0; c <= MAX_LISTENERS; c++) total += w.counters[c].calls;
    printf("(%lu listener calls in total)\n", total);
    g_object_unref(w.emitter);
    tl_events_discard(&w.reg);
    return 0;
}
