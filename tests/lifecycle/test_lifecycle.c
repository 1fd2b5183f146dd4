/* Behaviour of lifecycle.h: deployment phases, pending and failing preloads, reverse discard,
   singleton lookups during teardown, the time service's events, the native events file, and the
   register / linker / weaver containers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <threadlink/lifecycle.h>
#include <threadlink/time.h>
#include <threadlink/glue.h>

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

/* --- harness --------------------------------------------------------------------------------- */

typedef struct sub sub;
typedef struct harness {
    tl_events reg;
    tl_logger logger;
    tl_lifecycle core;
    tl_time time; /* woven into core first (glue.h) */
    char trace[512];
    int records;
    uint32_t last_item;
    char last_line[TL_LOG_LINE_MAX];
    int deployed_calls;
    tl_lifecycle *deployed_payload;
    float last_float;
    double last_double;
    struct sub *subs; /* owned: teardown may discard after a failed assertion */
} harness;

static void trace(harness *h, const char *text) {
    size_t used = strlen(h->trace);
    snprintf(h->trace + used, sizeof h->trace - used, "%s%s", used ? " " : "", text);
}

static void capture(void *user, const tl_log_record *record) {
    harness *h = (harness *)user;
    h->records++;
    h->last_item = record->item;
    snprintf(h->last_line, sizeof h->last_line, "%s", record->line);
}

/* The event table the generator would emit for natives/Iris.Events.Native.txt alone. */
static const tl_events_info native_table[9] = {
    {"OnCoreDeployed", TL_LIFECYCLE_SIG_CORE, 0},      {"OnUpdate", TL_TIME_SIG_FLOAT, 0},
    {"OnFixedUpdate", TL_TIME_SIG_FLOAT, 0},      {"OnLateUpdate", TL_TIME_SIG_FLOAT, 0},
    {"OnPlaytimeCountTick", TL_TIME_SIG_DOUBLE, 0}, {"OnGamePauseRequested", TL_TIME_SIG_VOID, 0},
    {"OnGameResumeRequested", TL_TIME_SIG_VOID, 0}, {"OnGamePaused", TL_TIME_SIG_VOID, 0},
    {"OnGameResumed", TL_TIME_SIG_VOID, 0},
};

/* A test subsystem: records its calls and can be told to pend, fail, weave, or look others up. */
struct sub {
    harness *h;
    const char *name;
    int pending_polls; /* preload answers PENDING this many times */
    int fail;          /* preload fails */
    int preloads;
    const tl_lifecycle_subsystem *weave_in_boot; /* woven from boot */
    void *weave_self;
    const tl_lifecycle_subsystem *lookup; /* looked up in initialize and discard */
    int found_in_initialize, found_in_discard;
    int reentrant_deploy;
};

static void step(sub *s, const char *phase) {
    char text[32];
    snprintf(text, sizeof text, "%s%s", phase, s->name);
    trace(s->h, text);
}

static tl_lifecycle_status sub_preload(void *self, tl_lifecycle *core) {
    sub *s = (sub *)self;
    (void)core;
    s->preloads++;
    step(s, "p");
    if (s->fail) return TL_LIFECYCLE_FAILED;
    if (s->pending_polls > 0) {
        s->pending_polls--;
        return TL_LIFECYCLE_PENDING;
    }
    return TL_LIFECYCLE_DONE;
}
static void sub_boot(void *self, tl_lifecycle *core) {
    sub *s = (sub *)self;
    step(s, "b");
    if (s->weave_in_boot) assert_int_equal(tl_lifecycle_weave(core, s->weave_in_boot, s->weave_self), TL_LIFECYCLE_OK);
    if (s->reentrant_deploy) assert_int_equal(tl_lifecycle_deploy(core), TL_LIFECYCLE_DEPLOY_FAILED);
}
static void sub_initialize(void *self, tl_lifecycle *core) {
    sub *s = (sub *)self;
    void *found = NULL;
    step(s, "i");
    if (s->lookup) s->found_in_initialize = tl_lifecycle_find(core, s->lookup, &found) && found != NULL;
}
static void sub_discard(void *self, tl_lifecycle *core) {
    sub *s = (sub *)self;
    void *found = (void *)1;
    step(s, "d");
    if (s->lookup) {
        s->found_in_discard = tl_lifecycle_find(core, s->lookup, &found);
        assert_null(found);
    }
}

static const tl_lifecycle_subsystem sub_a = {"A", sub_preload, sub_boot, sub_initialize, sub_discard};
static const tl_lifecycle_subsystem sub_b = {"B", sub_preload, sub_boot, sub_initialize, sub_discard};
static const tl_lifecycle_subsystem sub_c = {"C", sub_preload, sub_boot, sub_initialize, sub_discard};
static const tl_lifecycle_subsystem sub_d = {"D", sub_preload, sub_boot, sub_initialize, sub_discard};
static const tl_lifecycle_subsystem bare = {"Bare", NULL, NULL, NULL, NULL};

TL_LIFECYCLE_SINGLETON(sub_b_get, sub, sub_b)

static void on_deployed(void *ctx, tl_lifecycle *core) {
    harness *h = (harness *)ctx;
    h->deployed_calls++;
    h->deployed_payload = core;
    trace(h, "deployed");
}

static int setup(void **state) {
    harness *h = (harness *)calloc(1, sizeof *h);
    tl_lifecycle_desc desc;
    tl_time_desc time_desc;
    assert_non_null(h);
    h->subs = (sub *)calloc(4, sizeof(sub));
    assert_non_null(h->subs);
    h->logger.sink = capture;
    h->logger.user = h;
    assert_int_equal(tl_events_init_table(&h->reg, 9, native_table, &h->logger), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, 0, TL_LIFECYCLE_SIG_CORE, 0, TL_EVENTS_FN(on_deployed), h), TL_EVENTS_OK);
    memset(&desc, 0, sizeof desc);
    desc.registry = &h->reg;
    desc.logger = &h->logger;
    assert_int_equal(tl_lifecycle_init(&h->core, &desc), TL_LIFECYCLE_OK);
    memset(&time_desc, 0, sizeof time_desc);
    time_desc.registry = &h->reg;
    time_desc.logger = &h->logger;
    tl_time_init(&h->time, &time_desc);
    assert_int_equal(tl_glue_weave_time(&h->core, &h->time), TL_LIFECYCLE_OK);
    *state = h;
    return 0;
}

static int teardown(void **state) {
    harness *h = (harness *)*state;
    tl_lifecycle_discard(&h->core);
    tl_events_discard(&h->reg);
    free(h->subs);
    free(h);
    return 0;
}

static sub *make(harness *h, int index, const char *name) {
    sub *s = &h->subs[index];
    memset(s, 0, sizeof *s);
    s->h = h;
    s->name = name;
    return s;
}

/* --- phases ------------------------------------------------------------------------------------- */

static void test_lifecycle_deploys_in_phases_then_announces(void **state) {
    harness *h = (harness *)*state;
    sub *found = NULL;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    a->lookup = &sub_c;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    assert_false(tl_lifecycle_deployed(&h->core));
    /* Boot and initialize are two batches a frame apart (the seed's rule; they used to share
       one call). */
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pA pB pC bA bB bC");
    assert_false(tl_lifecycle_deployed(&h->core));
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_string_equal(h->trace, "pA pB pC bA bB bC iA iB iC deployed");
    assert_true(a->found_in_initialize); /* cross-references are valid in initialize */
    assert_int_equal(h->deployed_calls, 1);
    assert_ptr_equal(h->deployed_payload, &h->core);
    assert_true(tl_lifecycle_deployed(&h->core));
    assert_true(sub_b_get(&h->core, &found));
    assert_ptr_equal(found, b);
    /* Nothing new: deploying again does nothing and announces nothing. */
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_int_equal(h->deployed_calls, 1);
    tl_lifecycle_discard(&h->core); /* before the subsystems on this stack go away */
}

static void test_lifecycle_pending_preload_is_polled_once_per_call(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    b->pending_polls = 2;
    c->pending_polls = 1;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pA pB pC");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pA pB pC pB pC");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pA pB pC pB pC pB bA bB bC");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_string_equal(h->trace, "pA pB pC pB pC pB bA bB bC iA iB iC deployed");
    assert_int_equal(a->preloads, 1);
    assert_int_equal(b->preloads, 3);
    assert_int_equal(c->preloads, 2);
    tl_lifecycle_discard(&h->core);
}

/* Every preload starts together and all are awaited; a failure (here B's, while A is pending)
   fails the batch once A settles, and nothing boots. Before, B's failure stopped deployment at
   once and C's preload never started. */
static void test_lifecycle_failed_preload_stops_deployment(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    a->pending_polls = 1;
    b->fail = 1;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING); /* A still pending */
    assert_string_equal(h->trace, "pA pB pC");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_PRELOAD_FAILED);
    assert_non_null(strstr(h->last_line, "Lifecycle: error: preload of subsystem 'B' failed"));
    assert_string_equal(tl_lifecycle_failed_subsystem(&h->core), "B");
    assert_int_equal(tl_lifecycle_failed_count(&h->core), 1);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED); /* stays failed, polls nothing */
    assert_string_equal(h->trace, "pA pB pC pA");
    assert_int_equal(h->deployed_calls, 0);
    assert_int_equal(tl_lifecycle_last_result(&h->core), TL_LIFECYCLE_PRELOAD_FAILED);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_d, c), TL_LIFECYCLE_REFUSED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_WEAVE_REFUSED);
    /* Discard reaches every subsystem deployment started, newest first. */
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "pA pB pC pA dC dB dA");
}

/* Two failures: both named, in weave order, each logged, then a summary. */
static void test_lifecycle_failed_batch_names_every_failed_preload(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    a->fail = 1;
    c->fail = 1;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    h->records = 0;
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_int_equal(h->records, 3);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_BATCH_PRELOADS_FAILED);
    assert_non_null(strstr(h->last_line, "batch 'user subsystems': 2 of 3 preloads failed"));
    assert_int_equal(tl_lifecycle_failed_count(&h->core), 2);
    assert_string_equal(tl_lifecycle_failed_name(&h->core, 0), "A");
    assert_string_equal(tl_lifecycle_failed_name(&h->core, 1), "C");
    assert_null(tl_lifecycle_failed_name(&h->core, 2));
    assert_string_equal(h->trace, "pA pB pC");
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "pA pB pC dC dB dA");
}

/* The native tier deploys (preload, boot, initialize) before the user tier's preloads start. */
static void test_lifecycle_native_tier_deploys_before_the_user_tier(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);          /* user */
    assert_int_equal(tl_lifecycle_weave_native(&h->core, &sub_b, b), TL_LIFECYCLE_OK);   /* native, woven later */
    assert_int_equal(tl_lifecycle_weave_native(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pB pC bB bC");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_string_equal(h->trace, "pB pC bB bC iB iC pA bA");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_string_equal(h->trace, "pB pC bB bC iB iC pA bA iA deployed");
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core); /* the user tier first */
    assert_string_equal(h->trace, "dA dC dB");
}

/* A failing native tier keeps the user tier from starting: no call reaches it. */
static void test_lifecycle_failed_native_tier_never_starts_the_user_tier(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    b->fail = 1;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave_native(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_string_equal(tl_lifecycle_failed_subsystem(&h->core), "B");
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "pB dB");
}

typedef struct hook_probe {
    harness *h;
    int found_b;
} hook_probe;
static void probe_before_discard(void *ctx, tl_lifecycle *core) {
    hook_probe *p = (hook_probe *)ctx;
    p->found_b = sub_b_get(core, NULL);
    trace(p->h, "hook");
}

/* What a before-discard hook releases goes while every subsystem still exists. */
static void test_lifecycle_before_discard_hooks_run_first(void **state) {
    harness *h = (harness *)*state;
    sub *b = make(h, 1, "B");
    hook_probe probe = {NULL, 0};
    probe.h = h;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_before_discard(&h->core, probe_before_discard, &probe), TL_LIFECYCLE_OK);
    while (tl_lifecycle_deploy(&h->core) == TL_LIFECYCLE_DEPLOY_PENDING) {}
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "hook dB");
    assert_true(probe.found_b);
}

/* A hook that registers another during the discard (it runs next), tries to remove itself (it is
   running: no longer registered) and to register once more after the hooks ran (refused). */
static harness *g_hook_harness;
static void late_hook(void *ctx, tl_lifecycle *core) {
    (void)ctx;
    (void)core;
    trace(g_hook_harness, "late");
}
static void subsystem_discard_hook(void *ctx, tl_lifecycle *core) {
    (void)ctx;
    trace(g_hook_harness, tl_lifecycle_before_discard(core, late_hook, NULL) == TL_LIFECYCLE_REFUSED
                              ? "refused" : "accepted");
}
static void registering_hook(void *ctx, tl_lifecycle *core) {
    (void)ctx;
    trace(g_hook_harness, "first");
    trace(g_hook_harness, tl_lifecycle_remove_before_discard(core, registering_hook, NULL)
                              ? "removed" : "running");
    assert_int_equal(tl_lifecycle_before_discard(core, late_hook, NULL), TL_LIFECYCLE_OK);
}
static const tl_lifecycle_subsystem sub_late = { "Late", NULL, NULL, NULL, subsystem_discard_hook };

static void test_lifecycle_hooks_added_during_discard_and_duplicates(void **state) {
    harness *h = (harness *)*state;
    g_hook_harness = h;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_late, NULL), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_before_discard(&h->core, registering_hook, NULL), TL_LIFECYCLE_OK);
    /* The same pair again would run twice (a subsystem attached twice): refused, as events.h
       refuses a listener twice; another context is another pair. */
    assert_int_equal(tl_lifecycle_before_discard(&h->core, registering_hook, NULL),
                     TL_LIFECYCLE_DUPLICATE_HOOK);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_DUPLICATE_HOOK);
    assert_int_equal(tl_lifecycle_before_discard(&h->core, late_hook, h), TL_LIFECYCLE_OK);
    assert_true(tl_lifecycle_remove_before_discard(&h->core, late_hook, h));
    while (tl_lifecycle_deploy(&h->core) == TL_LIFECYCLE_DEPLOY_PENDING) {}
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "first running late refused");
}

/* A before-discard hook that weaves: refused and logged, as the header says of a discarding core
   (it answered OK, and the subsystem was found but never booted nor discarded). */
static void weaving_hook(void *ctx, tl_lifecycle *core) {
    harness *h = (harness *)ctx;
    assert_int_equal(tl_lifecycle_weave(core, &sub_d, &h->subs[3]), TL_LIFECYCLE_REFUSED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_WEAVE_REFUSED);
    assert_non_null(strstr(h->last_line, "cannot weave subsystem 'D': the core is discarding"));
    assert_int_equal(tl_lifecycle_weave_native(core, &sub_d, &h->subs[3]), TL_LIFECYCLE_REFUSED);
    assert_false(tl_lifecycle_find(core, &sub_d, NULL));
    assert_true(sub_b_get(core, NULL)); /* lookups still answer */
    trace(h, "hook");
}

static void test_lifecycle_weave_from_a_hook_is_refused(void **state) {
    harness *h = (harness *)*state;
    sub *b = make(h, 1, "B");
    make(h, 3, "D");
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_before_discard(&h->core, weaving_hook, h), TL_LIFECYCLE_OK);
    while (tl_lifecycle_deploy(&h->core) == TL_LIFECYCLE_DEPLOY_PENDING) {}
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "hook dB");
}

/* --- discard ------------------------------------------------------------------------------------- */

static void test_lifecycle_discards_in_reverse_once(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *c = make(h, 2, "C");
    c->lookup = &sub_a;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_c, c), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core);
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "dC dB dA");
    assert_false(c->found_in_discard); /* lookups answer false during teardown */
    assert_false(sub_b_get(&h->core, NULL));
    assert_false(h->time.running); /* discarded last, with the lifecycle */
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_DEPLOY_REFUSED);
}

static void test_lifecycle_discard_during_pending_deployment(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    b->pending_polls = 10;
    b->lookup = &sub_a;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "pA pB dB dA");
    assert_false(b->found_in_discard);
    assert_int_equal(h->deployed_calls, 0);
}

/* --- rounds, refusals ------------------------------------------------------------------------------ */

static void test_lifecycle_input_is_captured_once(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    sub *d = make(h, 3, "D");
    a->weave_in_boot = &sub_d; /* D is woven while the round boots: not part of this round */
    a->weave_self = d;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_b, b), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_string_equal(h->trace, "pA pB bA bB iA iB deployed");
    assert_int_equal(d->preloads, 0);
    h->trace[0] = '\0';
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING); /* the next round: D alone */
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_string_equal(h->trace, "pD bD iD");
    assert_int_equal(h->deployed_calls, 1);
    h->trace[0] = '\0';
    tl_lifecycle_discard(&h->core);
    assert_string_equal(h->trace, "dD dB dA");
}

static void test_lifecycle_refuses_duplicates_and_reentrant_calls(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    sub *b = make(h, 1, "B");
    a->reentrant_deploy = 1;
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, b), TL_LIFECYCLE_ALREADY_WOVEN);
    assert_string_equal(tl_lifecycle_result_message(TL_LIFECYCLE_ALREADY_WOVEN),
                        "the subsystem is already woven into this core");
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_ALREADY_WOVEN);
    assert_non_null(strstr(h->last_line, "subsystem 'A' is already woven"));
    assert_int_equal(tl_lifecycle_weave(&h->core, NULL, b), TL_LIFECYCLE_INVALID_ARGUMENT);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_INVALID_ARGUMENT);
    assert_int_equal(tl_lifecycle_weave(&h->core, &bare, NULL), TL_LIFECYCLE_OK); /* every function optional */
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_REENTRANT_CALL);
    assert_string_equal(h->trace, "pA bA iA deployed");
    tl_lifecycle_discard(&h->core);
    /* After the discard: a hook is refused (it was silent before), and logged naming the state. */
    assert_int_equal(tl_lifecycle_before_discard(&h->core, probe_before_discard, h),
                     TL_LIFECYCLE_REFUSED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_HOOK_REFUSED);
    assert_non_null(strstr(h->last_line, "before-discard hook: the core is discarded"));
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_int_equal(tl_lifecycle_last_result(&h->core), TL_LIFECYCLE_REFUSED);
}

/* --- time service ------------------------------------------------------------------------------------ */

typedef struct tagged {
    harness *h;
    const char *tag;
} tagged;

static void on_float(void *ctx, float seconds) {
    tagged *t = (tagged *)ctx;
    char text[48];
    t->h->last_float = seconds;
    snprintf(text, sizeof text, "%s(%g)", t->tag, (double)seconds);
    trace(t->h, text);
}
static void on_double(void *ctx, double seconds) {
    tagged *t = (tagged *)ctx;
    char text[48];
    t->h->last_double = seconds;
    snprintf(text, sizeof text, "%s(%g)", t->tag, seconds);
    trace(t->h, text);
}
static void on_void(void *ctx) {
    tagged *t = (tagged *)ctx;
    trace(t->h, t->tag);
}

static void subscribe_natives(harness *h, tagged tags[8]) {
    static const char *names[8] = {"update", "fixed", "late", "playtime",
                                   "pause?", "resume?", "paused", "resumed"};
    uint32_t i;
    for (i = 0; i < 8; i++) {
        tags[i].h = h;
        tags[i].tag = names[i];
    }
    assert_int_equal(tl_events_subscribe(&h->reg, 1, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &tags[0]), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, 2, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &tags[1]), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, 3, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &tags[2]), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, 4, TL_TIME_SIG_DOUBLE, 0, TL_EVENTS_FN(on_double), &tags[3]), TL_EVENTS_OK);
    for (i = 5; i <= 8; i++)
        assert_int_equal(tl_events_subscribe(&h->reg, i, TL_TIME_SIG_VOID, 0, TL_EVENTS_FN(on_void), &tags[i - 1]), TL_EVENTS_OK);
}

/* A project that declared its own events without the natives: left with the native ordinals, the
   time service would call the project's OnDamage(float) with each frame's delta (same signature,
   so the registry's check passes). It publishes nothing instead and says why, once; given the
   project's table with the natives, it publishes as before. */
static void test_lifecycle_time_refuses_a_registry_without_the_natives(void **state) {
    static const tl_events_info project[2] = {{"OnJump", TL_TIME_SIG_VOID, 0},
                                              {"OnDamage", TL_TIME_SIG_FLOAT, 0}};
    harness *h = (harness *)*state;
    tagged damage;
    tl_events reg;
    tl_time time;
    tl_time_desc desc;
    damage.h = h;
    damage.tag = "damage";
    assert_int_equal(tl_events_init_table(&reg, 2, project, &h->logger), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&reg, 1, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &damage), TL_EVENTS_OK);
    memset(&desc, 0, sizeof desc);
    desc.registry = &reg;
    desc.logger = &h->logger;
    h->records = 0;
    tl_time_init(&time, &desc);
    assert_int_equal(h->records, 1);
    assert_int_equal(h->last_item, TL_EVENTS_LOG_NATIVES_UNDECLARED);
    assert_non_null(strstr(h->last_line, "Time publishes no events: the registry has 'OnDamage' at event #1, where the native 'OnUpdate' goes"));
    tl_time_frame(&time, 0.05);
    assert_string_equal(h->trace, "");
    tl_events_discard(&reg);
    /* The generator's table with the natives first ("Native_" where a project event took the name). */
    {
        tl_events_info with_natives[9];
        memcpy(with_natives, native_table, sizeof with_natives);
        with_natives[2].name = "Native_OnFixedUpdate";
        assert_int_equal(tl_events_init_table(&reg, 9, with_natives, &h->logger), TL_EVENTS_OK);
        assert_int_equal(tl_events_subscribe(&reg, 1, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &damage), TL_EVENTS_OK);
        h->records = 0;
        tl_time_init(&time, &desc);
        assert_int_equal(h->records, 0);
        tl_time_frame(&time, 0.05);
        assert_string_equal(h->trace, "damage(0.05)");
        tl_events_discard(&reg);
    }
}

static void test_lifecycle_time_publishes_frame_events_in_order(void **state) {
    harness *h = (harness *)*state;
    tagged tags[8];
    tl_time *time = &h->time;
    subscribe_natives(h, tags);
    assert_non_null(time);
    /* Default fixed step 0.02 s: a 0.05 s frame is two fixed steps (0.01 s carried over). */
    tl_time_frame(time, 0.05);
    assert_string_equal(h->trace, "fixed(0.02) fixed(0.02) update(0.05) late(0.05)");
    assert_true(time->delta_time == 0.05f && time->unscaled_delta_time == 0.05f);
    assert_int_equal(time->frame, 1);
    h->trace[0] = '\0';
    tl_time_frame(time, 0.01); /* 0.01 + 0.01 carried: one step */
    assert_string_equal(h->trace, "fixed(0.02) update(0.01) late(0.01)");
    h->trace[0] = '\0';
    tl_time_frame(time, 10.0); /* a long stall is clamped to 0.25 s */
    assert_true(time->unscaled_delta_time == 0.25f);
    assert_int_equal((int)(tl_time_framerate(time) + 0.5f), 4);
    assert_non_null(strstr(h->trace, "update(0.25) late(0.25)"));
    tl_time_tick(time, -1.0); /* negative time is no time */
    assert_true(time->delta_time == 0.0f);
}

static void test_lifecycle_time_scale_pauses_and_resumes(void **state) {
    harness *h = (harness *)*state;
    tagged tags[8];
    tl_time *time = &h->time;
    subscribe_natives(h, tags);
    assert_int_equal(tl_time_set_scale(time, 0.0f), TL_TIME_OK);
    assert_int_equal(tl_time_set_scale(time, 0.0f), TL_TIME_OK); /* no change: no event */
    assert_string_equal(h->trace, "paused");
    tl_time_frame(time, 0.1);
    assert_true(time->delta_time == 0.0f && time->unscaled_delta_time == 0.1f);
    assert_non_null(strstr(h->trace, "update(0) late(0)"));
    assert_null(strstr(h->trace, "fixed")); /* paused: no fixed steps accumulate */
    h->trace[0] = '\0';
    assert_int_equal(tl_time_set_scale(time, 1.0f), TL_TIME_OK);
    assert_string_equal(h->trace, "resumed");
    assert_int_equal(tl_time_set_scale(time, 0.5f), TL_TIME_SCALE);
    assert_string_equal(tl_time_result_message(TL_TIME_SCALE), "time scale must be exactly 0 or 1");
    assert_int_equal(h->last_item, TL_TIME_LOG_SCALE);
    assert_non_null(strstr(h->last_line, "Time: error: time scale must be exactly 0 or 1, not 0.5"));
    assert_true(time->time_scale == 1.0f);
    h->trace[0] = '\0';
    assert_int_equal(tl_time_set_raw_scale(time, 0.0f), TL_TIME_OK); /* raw: no event */
    assert_int_equal(tl_time_set_raw_scale(time, 2.0f), TL_TIME_SCALE);
    assert_int_equal(tl_time_set_raw_scale(time, 1.0f), TL_TIME_OK);
    tl_time_request_pause(time);
    tl_time_request_resume(time);
    assert_string_equal(h->trace, "pause? resume?");
}

static void test_lifecycle_time_counts_playtime(void **state) {
    harness *h = (harness *)*state;
    tagged tags[8];
    tl_time *time = &h->time;
    subscribe_natives(h, tags);
    tl_time_tick(time, 0.25);
    assert_null(strstr(h->trace, "playtime")); /* not counting by default */
    tl_time_set_playtime_counting(time, true);
    tl_time_tick(time, 0.25);
    tl_time_tick(time, 0.125);
    assert_string_equal(h->trace, "playtime(0.25) playtime(0.375)");
    tl_time_set_raw_scale(time, 0.0f);
    tl_time_tick(time, 0.25); /* scaled mode: paused time does not count */
    assert_true(h->last_double == 0.375);
    tl_time_set_playtime_mode(time, TL_TIME_PLAYTIME_UNSCALED);
    tl_time_tick(time, 0.25);
    assert_true(h->last_double == 0.625);
    tl_time_clear_playtime(time);
    tl_time_tick(time, 0.125);
    assert_true(h->last_double == 0.125);
}

static void test_lifecycle_time_stops_with_the_core(void **state) {
    harness *h = (harness *)*state;
    tagged tags[8];
    tl_time *time = &h->time;
    subscribe_natives(h, tags);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE);
    tl_lifecycle_discard(&h->core);
    h->trace[0] = '\0';
    tl_time_frame(time, 0.1); /* the time subsystem was discarded: silent */
    assert_int_equal(tl_time_set_scale(time, 0.0f), TL_TIME_OK);
    assert_string_equal(h->trace, "");
}

/* A desc duration that cannot work (no step ever consumes the accumulator, or an infinite one)
   falls back to the default with an error; before, tl_time_fixed_steps never returned. */
static void test_lifecycle_time_desc_refuses_unusable_durations(void **state) {
    harness *h = (harness *)*state;
    static const float bad_fixed[] = {1e-30f, 5e-5f, -0.02f, (float)INFINITY, (float)NAN};
    static const float bad_max[] = {(float)INFINITY, -1.0f, (float)NAN};
    tl_time_desc desc;
    tl_time time;
    size_t i;
    memset(&desc, 0, sizeof desc);
    desc.logger = &h->logger;
    for (i = 0; i < sizeof bad_fixed / sizeof bad_fixed[0]; i++) {
        h->records = 0;
        desc.fixed_delta_time = bad_fixed[i];
        tl_time_init(&time, &desc);
        assert_int_equal(h->records, 1);
        assert_int_equal(h->last_item, TL_TIME_LOG_DESC);
        assert_non_null(strstr(h->last_line, "Time: error: tl_time_desc.fixed_delta_time is"));
        assert_true(time.fixed_delta_time == 0.02f);
        tl_time_tick(&time, 0.016);
        assert_int_equal(tl_time_fixed_steps(&time), 0);
        tl_time_tick(&time, 0.016); /* 0.032: one step of the default 0.02 */
        assert_int_equal(tl_time_fixed_steps(&time), 1);
    }
    desc.fixed_delta_time = 0.0f;
    for (i = 0; i < sizeof bad_max / sizeof bad_max[0]; i++) {
        h->records = 0;
        desc.max_delta_time = bad_max[i];
        tl_time_init(&time, &desc);
        assert_int_equal(h->records, 1);
        assert_int_equal(h->last_item, TL_TIME_LOG_DESC);
        assert_non_null(strstr(h->last_line, "tl_time_desc.max_delta_time is"));
        assert_true(time.max_delta_time == 0.25f);
        tl_time_tick(&time, 1e300); /* clamped to 0.25: 12 steps, 0.01 carried */
        assert_true(time.delta_time == 0.25f);
        assert_int_equal(tl_time_fixed_steps(&time), 12);
    }
    /* Zero is the documented default and the smallest step is accepted: both silent. */
    h->records = 0;
    desc.max_delta_time = 0.0f;
    tl_time_init(&time, &desc);
    desc.fixed_delta_time = TL_TIME_MIN_FIXED_DELTA;
    tl_time_init(&time, &desc);
    assert_int_equal(h->records, 0);
    assert_true(time.fixed_delta_time == TL_TIME_MIN_FIXED_DELTA && time.max_delta_time == 0.25f);
}

/* A valid but enormous max_delta_time lets one frame owe billions of steps (more than uint32_t
   counts): the frame runs TL_TIME_MAX_FIXED_STEPS of them and drops the rest with a warning. */
static void test_lifecycle_time_fixed_steps_are_capped_per_frame(void **state) {
    harness *h = (harness *)*state;
    tl_time_desc desc;
    tl_time time;
    memset(&desc, 0, sizeof desc);
    desc.logger = &h->logger;
    desc.max_delta_time = 1e9f;
    h->records = 0;
    tl_time_init(&time, &desc);
    assert_int_equal(h->records, 0);
    tl_time_tick(&time, 1.7e9); /* a wall-clock timestamp passed by mistake */
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_int_equal(h->records, 1);
    assert_int_equal(h->last_item, TL_TIME_LOG_FIXED_STEPS_DROPPED);
    assert_non_null(strstr(h->last_line, "Time: warning: frame 1 owed more than 10000 fixed steps"));
    assert_true(time.fixed_accumulator == 0.0);
    assert_int_equal(tl_time_fixed_steps(&time), 0);
    tl_time_tick(&time, 0.05); /* back to normal */
    assert_int_equal(tl_time_fixed_steps(&time), 2);
    assert_int_equal(h->records, 1);
    /* Exactly at the cap is not a drop. */
    desc.fixed_delta_time = 0.0001220703125f; /* 2^-13: exact sums */
    desc.max_delta_time = 1.220703125f;       /* 10000 steps */
    tl_time_init(&time, &desc);
    tl_time_tick(&time, 10.0);
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_true(time.fixed_accumulator == 0.0);
    assert_int_equal(h->records, 1);
}

/* With a rate and a max_delta_time past 10,000 s (a long suspend let through): a frame's time is
   what it was, clamped to max_delta_time, whether ticked in seconds or nanoseconds, and the
   warning names the time really dropped. */
static void test_lifecycle_time_long_frames_with_a_rate(void **state) {
    harness *h = (harness *)*state;
    tl_time_desc desc;
    tl_time time;
    memset(&desc, 0, sizeof desc);
    desc.logger = &h->logger;
    desc.fixed_steps_per_second = 60;
    desc.max_delta_time = 1e30f;
    h->records = 0;
    tl_time_init(&time, &desc);
    tl_time_tick_ns(&time, UINT64_C(100000) * 1000000000u); /* 100,000 s */
    assert_true(time.unscaled_delta_time == 100000.0f && time.time_since_start == 100000.0);
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_int_equal(h->last_item, TL_TIME_LOG_FIXED_STEPS_DROPPED);
    assert_non_null(strstr(h->last_line, "the rest (99833.3 s) is dropped"));
    tl_time_tick_ns(&time, UINT64_MAX); /* 1.8e10 s */
    assert_true(time.unscaled_delta_time == (float)((double)UINT64_MAX / 1e9));
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_non_null(strstr(h->last_line, "the rest (1.84467e+10 s) is dropped"));
    /* At 1 Hz 10,000 s are exactly the steps a frame runs: a frame 2 s longer drops 2 s. */
    desc.fixed_steps_per_second = 1;
    tl_time_init(&time, &desc);
    h->records = 0;
    tl_time_tick(&time, 10002.0);
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_int_equal(h->records, 1);
    assert_non_null(strstr(h->last_line, "the rest (2 s) is dropped"));
    tl_time_tick(&time, 1.0); /* back to normal: a step, nothing dropped */
    assert_int_equal(tl_time_fixed_steps(&time), 1);
    assert_int_equal(h->records, 1);
}

/* A step given as fixed_steps_per_second is exact: the accumulator counts integer nanoseconds
   (times the rate), so a 20 Hz frame owes three 60 Hz steps every time (with the float step
   1/60 > 1/60 s, the first such frame owed two) and an hour of jittered frames whose times sum to
   3600 s gives exactly 216,000 steps, nothing carried. */
static void test_lifecycle_time_fixed_steps_per_second_are_exact(void **state) {
    harness *h = (harness *)*state;
    static const uint64_t jitter_ns[3] = {16666667u, 16666666u, 16666667u}; /* 50 ms together */
    tl_time_desc desc;
    tl_time time;
    uint32_t i;
    memset(&desc, 0, sizeof desc);
    desc.logger = &h->logger;
    desc.fixed_steps_per_second = 60;
    h->records = 0;
    tl_time_init(&time, &desc);
    assert_int_equal(h->records, 0);
    assert_true(time.fixed_delta_time == 1.0f / 60.0f); /* what OnFixedUpdate publishes */
    for (i = 0; i < 72000; i++) {
        tl_time_tick(&time, 0.05);
        assert_int_equal(tl_time_fixed_steps(&time), 3);
    }
    assert_true(time.fixed_step_count == 216000u);
    tl_time_init(&time, &desc);
    for (i = 0; i < 216000; i++) {
        tl_time_tick_ns(&time, jitter_ns[i % 3]);
        (void)tl_time_fixed_steps(&time);
    }
    assert_true(time.fixed_step_count == 216000u && time.fixed_accumulator_ticks == 0u);
    assert_true(time.unscaled_delta_time == 0.016666667f);
    /* Paused time owes no steps; max_delta_time clamps nanoseconds too (0.25 s: 15 steps). */
    assert_int_equal(tl_time_set_scale(&time, 0.0f), TL_TIME_OK);
    tl_time_tick_ns(&time, 1000000000u);
    assert_int_equal(tl_time_fixed_steps(&time), 0);
    assert_int_equal(tl_time_set_scale(&time, 1.0f), TL_TIME_OK);
    tl_time_tick_ns(&time, 3000000000u);
    assert_int_equal(tl_time_fixed_steps(&time), 15);
    assert_int_equal(h->records, 0);
}

/* A rate above 10,000 steps per second (TL_TIME_MIN_FIXED_DELTA) is refused with an error and
   fixed_delta_time is used; at the cap a long frame runs 10,000 steps and drops the rest. */
static void test_lifecycle_time_fixed_steps_per_second_limits(void **state) {
    harness *h = (harness *)*state;
    tl_time_desc desc;
    tl_time time;
    memset(&desc, 0, sizeof desc);
    desc.logger = &h->logger;
    desc.fixed_steps_per_second = 10001;
    h->records = 0;
    tl_time_init(&time, &desc);
    assert_int_equal(h->records, 1);
    assert_int_equal(h->last_item, TL_TIME_LOG_DESC);
    assert_non_null(strstr(h->last_line, "Time: error: tl_time_desc.fixed_steps_per_second is 10001"));
    assert_int_equal(time.fixed_steps_per_second, 0);
    assert_true(time.fixed_delta_time == 0.02f);
    tl_time_tick(&time, 0.05);
    assert_int_equal(tl_time_fixed_steps(&time), 2);
    desc.fixed_steps_per_second = 10000;
    desc.max_delta_time = 2.0f;
    h->records = 0;
    tl_time_init(&time, &desc);
    tl_time_tick(&time, 1.0); /* exactly 10,000 steps: not a drop */
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_int_equal(h->records, 0);
    tl_time_tick_ns(&time, 1500000000u);
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
    assert_int_equal(h->records, 1);
    assert_int_equal(h->last_item, TL_TIME_LOG_FIXED_STEPS_DROPPED);
    assert_true(time.fixed_accumulator_ticks == 0u);
    tl_time_tick_ns(&time, UINT64_MAX); /* clamped, never overflowing */
    assert_int_equal(tl_time_fixed_steps(&time), TL_TIME_MAX_FIXED_STEPS);
}

static void discard_on_deployed(void *ctx, tl_lifecycle *core) {
    (void)ctx;
    tl_lifecycle_discard(core);
}

/* A listener of OnCoreDeployed may discard the core: the deploy call then reports what every
   later call reports, not TL_LIFECYCLE_DEPLOY_DONE for a core that is gone. */
static void test_lifecycle_deploy_reports_a_core_discarded_by_its_listener(void **state) {
    harness *h = (harness *)*state;
    sub *a = make(h, 0, "A");
    assert_int_equal(tl_lifecycle_weave(&h->core, &sub_a, a), TL_LIFECYCLE_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, 0, TL_LIFECYCLE_SIG_CORE, 0, TL_EVENTS_FN(discard_on_deployed), NULL), TL_EVENTS_OK);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_false(tl_lifecycle_deployed(&h->core));
    assert_false(h->time.running); /* the clock stopped with the lifecycle it was woven into */
    assert_string_equal(h->trace, "pA bA iA dA deployed");
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_FAILED);
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_DEPLOY_REFUSED);
}

static void test_lifecycle_events_from_a_generated_enum(void **state) {
    harness *h = (harness *)*state;
    enum { Game_OnCoreDeployed = 3, Game_OnUpdate = 0, Game_OnFixedUpdate = 1, Game_OnLateUpdate = 2,
           Game_OnPlaytimeCountTick = 4, Game_OnGamePauseRequested = 5, Game_OnGameResumeRequested = 6,
           Game_OnGamePaused = 7, Game_OnGameResumed = 8 };
    static const tl_lifecycle_events events = TL_LIFECYCLE_EVENTS_INIT(Game_);
    static const tl_time_events time_events = TL_TIME_EVENTS_INIT(Game_);
    tl_events reg;
    tl_lifecycle core;
    tl_lifecycle_desc desc;
    tl_time time;
    tl_time_desc time_desc;
    tagged update = {NULL, "update"};
    update.h = h;
    assert_int_equal(events.core_deployed, 3);
    assert_int_equal(time_events.update, 0);
    assert_int_equal(time_events.game_resumed, 8);
    memset(&desc, 0, sizeof desc);
    assert_int_equal(tl_events_init_table(&reg, 9, NULL, &h->logger), TL_EVENTS_OK);
    desc.registry = &reg;
    desc.events = &events;
    desc.logger = &h->logger;
    assert_int_equal(tl_lifecycle_init(&core, &desc), TL_LIFECYCLE_OK);
    memset(&time_desc, 0, sizeof time_desc);
    time_desc.registry = &reg;
    time_desc.events = &time_events;
    time_desc.logger = &h->logger;
    tl_time_init(&time, &time_desc);
    assert_int_equal(tl_glue_weave_time(&core, &time), TL_LIFECYCLE_OK);
    assert_int_equal(tl_events_subscribe(&reg, 3, TL_LIFECYCLE_SIG_CORE, 0, TL_EVENTS_FN(on_deployed), h), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&reg, 0, TL_TIME_SIG_FLOAT, 0, TL_EVENTS_FN(on_float), &update), TL_EVENTS_OK);
    assert_int_equal(tl_lifecycle_deploy(&core), TL_LIFECYCLE_DEPLOY_DONE);
    tl_time_frame(&time, 0.5);
    assert_string_equal(h->trace, "deployed update(0.25)");
    tl_lifecycle_discard(&core);
    tl_events_discard(&reg);
}

/* glue.h's bridges given no service (a failed tl_levels_create or tl_platform_create passed on
   unchecked): an invalid argument, logged with the bridge's name, and nothing woven. */
static void test_lifecycle_glue_bridges_refuse_a_null_service(void **state) {
    harness *h = (harness *)*state;
    h->records = 0;
    assert_int_equal(tl_glue_weave_platform(&h->core, NULL), TL_LIFECYCLE_INVALID_ARGUMENT);
    assert_string_equal(h->last_line, "Lifecycle: error: tl_glue_weave_platform: invalid argument");
    assert_int_equal(h->last_item, TL_LIFECYCLE_LOG_INVALID_ARGUMENT);
    assert_int_equal(tl_glue_levels_attach(&h->core, NULL), TL_LIFECYCLE_INVALID_ARGUMENT);
    assert_string_equal(h->last_line, "Lifecycle: error: tl_glue_levels_attach: invalid argument");
    assert_int_equal(tl_glue_weave_time(&h->core, NULL), TL_LIFECYCLE_INVALID_ARGUMENT);
    assert_string_equal(h->last_line, "Lifecycle: error: tl_glue_weave_time: invalid argument");
    assert_int_equal(h->records, 3);
    assert_int_equal(tl_lifecycle_deploy(&h->core), TL_LIFECYCLE_DEPLOY_DONE); /* the clock alone */
}

/* --- the native events file --------------------------------------------------------------------- */

static void test_lifecycle_native_events_file_matches_the_runtime(void **state) {
    static const char *expected[9][2] = {
        {"OnCoreDeployed", "(tl_lifecycle *)"}, {"OnUpdate", "(float)"}, {"OnFixedUpdate", "(float)"},
        {"OnLateUpdate", "(float)"}, {"OnPlaytimeCountTick", "(double)"},
        {"OnGamePauseRequested", "()"}, {"OnGameResumeRequested", "()"}, {"OnGamePaused", "()"},
        {"OnGameResumed", "()"},
    };
    const tl_lifecycle_events native = TL_LIFECYCLE_EVENTS_NATIVE;
    const tl_time_events clock = TL_TIME_EVENTS_NATIVE;
    const uint32_t ordinals[9] = {native.core_deployed, clock.update, clock.fixed_update,
                                  clock.late_update, clock.playtime_count_tick,
                                  clock.game_pause_requested, clock.game_resume_requested,
                                  clock.game_paused, clock.game_resumed};
    char line[256];
    int n = 0;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        char *paren;
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        if (n == 9) break; /* levels.h's follow (tests/nexus checks them) */
        paren = strchr(line, '(');
        assert_non_null(paren);
        assert_int_equal((size_t)(paren - line), strlen(expected[n][0]));
        assert_memory_equal(line, expected[n][0], strlen(expected[n][0]));
        assert_string_equal(paren, expected[n][1]); /* written in normalised form */
        assert_int_equal(ordinals[n], (uint32_t)n);
        assert_int_equal(tl_hash32(paren, strlen(paren), 0), native_table[n].signature);
        assert_string_equal(native_table[n].name, expected[n][0]);
        n++;
    }
    fclose(file);
    assert_int_equal(n, 9);
}

/* events.h's list of the natives' names, which every service checks a registry against, is the
   natives file's, in its order. */
static void test_lifecycle_native_names_are_the_natives_file(void **state) {
    static const char *const names[] = {TL_EVENTS_NATIVE_NAMES};
    char line[256];
    uint32_t n = 0;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    assert_int_equal(sizeof names / sizeof names[0], TL_EVENTS_NATIVE_COUNT);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        assert_true(n < TL_EVENTS_NATIVE_COUNT);
        line[strcspn(line, "(")] = '\0';
        assert_string_equal(line, names[n]);
        n++;
    }
    fclose(file);
    assert_int_equal(n, TL_EVENTS_NATIVE_COUNT);
}

/* --- register, linker, weaver --------------------------------------------------------------------- */

static void test_lifecycle_register_keys_objects_by_id(void **state) {
    uint64_t memory[TL_LIFECYCLE_REGISTER_BYTES(8) / 8];
    tl_lifecycle_register reg;
    int x = 1, y = 2, seen = 0;
    uint32_t id;
    void *object;
    tl_inline_iter it;
    (void)state;
    assert_true(tl_lifecycle_register_init(&reg, memory, 8));
    assert_true(tl_lifecycle_register_add(&reg, 0xdeadbeefu, &x));
    assert_true(tl_lifecycle_register_add(&reg, 7, &y));
    assert_false(tl_lifecycle_register_add(&reg, 7, &x)); /* id taken */
    assert_false(tl_lifecycle_register_add(&reg, 9, NULL));
    assert_ptr_equal(tl_lifecycle_register_get(&reg, 0xdeadbeefu), &x);
    assert_ptr_equal(tl_lifecycle_register_get(&reg, 7), &y);
    assert_null(tl_lifecycle_register_get(&reg, 8));
    assert_int_equal(tl_lifecycle_register_count(&reg), 2);
    it = tl_lifecycle_register_iter(&reg);
    while (tl_lifecycle_register_next(&reg, &it, &id, &object)) seen += id == 7 ? (object == &y) : (object == &x);
    assert_int_equal(seen, 2);
    assert_true(tl_lifecycle_register_remove(&reg, 7));
    assert_false(tl_lifecycle_register_contains(&reg, 7));
    assert_false(tl_lifecycle_register_remove(&reg, 7));
    tl_lifecycle_register_clear(&reg);
    assert_int_equal(tl_lifecycle_register_count(&reg), 0);
    assert_false(tl_lifecycle_register_init(&reg, NULL, 8));
    assert_false(tl_lifecycle_register_add(&reg, 1, &x)); /* an invalid register refuses harmlessly */
}

static void record_object(void *ctx, void *object) {
    char *log = (char *)ctx;
    size_t n = strlen(log);
    log[n] = *(const char *)object;
    log[n + 1] = '\0';
}

static void test_lifecycle_linker_links_and_disconnects(void **state) {
    uint64_t memory[TL_LIFECYCLE_LINKER_BYTES(3) / 8];
    tl_lifecycle_linker linker;
    char log[16] = "";
    char a = 'a', b = 'b', c = 'c', d = 'd';
    (void)state;
    assert_true(tl_lifecycle_linker_init(&linker, memory, 3, record_object, log));
    assert_true(tl_lifecycle_linker_link(&linker, &a));
    assert_true(tl_lifecycle_linker_link(&linker, &b));
    assert_false(tl_lifecycle_linker_link(&linker, &a));
    assert_true(tl_lifecycle_linker_link(&linker, &c));
    assert_false(tl_lifecycle_linker_link(&linker, &d)); /* full */
    assert_true(tl_lifecycle_linker_disconnect(&linker, &a));
    assert_false(tl_lifecycle_linker_disconnect(&linker, &a));
    assert_string_equal(log, "a");
    assert_ptr_equal(tl_lifecycle_linker_at(&linker, 0), &c); /* the last took the hole */
    assert_true(tl_lifecycle_linker_contains(&linker, &b));
    tl_lifecycle_linker_disconnect_all(&linker);
    assert_string_equal(log, "abc");
    assert_int_equal(tl_lifecycle_linker_count(&linker), 0);
}

static void test_lifecycle_weaver_severs_in_reverse_weave_order(void **state) {
    uint64_t memory[TL_LIFECYCLE_WEAVER_BYTES(4) / 8];
    tl_lifecycle_weaver weaver;
    char log[16] = "";
    char a = 'a', b = 'b', c = 'c', d = 'd';
    (void)state;
    assert_true(tl_lifecycle_weaver_init(&weaver, memory, 4, record_object, log));
    assert_true(tl_lifecycle_weaver_weave(&weaver, &a));
    assert_true(tl_lifecycle_weaver_weave(&weaver, &b));
    assert_true(tl_lifecycle_weaver_weave(&weaver, &c));
    assert_true(tl_lifecycle_weaver_weave(&weaver, &d));
    assert_false(tl_lifecycle_weaver_weave(&weaver, &d));
    assert_true(tl_lifecycle_weaver_sever(&weaver, &b)); /* discarded at once; a, c, d keep their order */
    assert_false(tl_lifecycle_weaver_sever(&weaver, &b));
    assert_string_equal(log, "b");
    assert_ptr_equal(tl_lifecycle_weaver_at(&weaver, 1), &c);
    tl_lifecycle_weaver_sever_all(&weaver);
    assert_string_equal(log, "bdca");
    assert_int_equal(tl_lifecycle_weaver_count(&weaver), 0);
    assert_false(tl_lifecycle_weaver_contains(&weaver, &a));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_lifecycle_glue_bridges_refuse_a_null_service),
        T(test_lifecycle_deploys_in_phases_then_announces),
        T(test_lifecycle_pending_preload_is_polled_once_per_call),
        T(test_lifecycle_failed_preload_stops_deployment),
        T(test_lifecycle_failed_batch_names_every_failed_preload),
        T(test_lifecycle_native_tier_deploys_before_the_user_tier),
        T(test_lifecycle_failed_native_tier_never_starts_the_user_tier),
        T(test_lifecycle_before_discard_hooks_run_first),
        T(test_lifecycle_hooks_added_during_discard_and_duplicates),
        T(test_lifecycle_weave_from_a_hook_is_refused),
        T(test_lifecycle_time_long_frames_with_a_rate),
        T(test_lifecycle_discards_in_reverse_once),
        T(test_lifecycle_discard_during_pending_deployment),
        T(test_lifecycle_input_is_captured_once),
        T(test_lifecycle_refuses_duplicates_and_reentrant_calls),
        T(test_lifecycle_time_publishes_frame_events_in_order),
        T(test_lifecycle_time_refuses_a_registry_without_the_natives),
        T(test_lifecycle_native_names_are_the_natives_file),
        T(test_lifecycle_time_scale_pauses_and_resumes),
        T(test_lifecycle_time_counts_playtime),
        T(test_lifecycle_time_stops_with_the_core),
        T(test_lifecycle_time_desc_refuses_unusable_durations),
        T(test_lifecycle_time_fixed_steps_are_capped_per_frame),
        T(test_lifecycle_time_fixed_steps_per_second_are_exact),
        T(test_lifecycle_time_fixed_steps_per_second_limits),
        T(test_lifecycle_deploy_reports_a_core_discarded_by_its_listener),
        T(test_lifecycle_events_from_a_generated_enum),
        T(test_lifecycle_native_events_file_matches_the_runtime),
        T(test_lifecycle_register_keys_objects_by_id),
        T(test_lifecycle_linker_links_and_disconnects),
        T(test_lifecycle_weaver_severs_in_reverse_weave_order),
    };
    return cmocka_run_group_tests_name("lifecycle", tests, NULL, NULL);
}
