/* Behaviour of events.h through the generated-header contract sample: dispatch order, every removal
   during dispatch, nested publish, single providers, the untyped core's run-time checks,
   allocation rules and the signature ids the generator must compute. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Counting allocator: proves "allocated on first subscription" and "publish never allocates". */
static int test_allocations;
static int test_fail_allocations;
static void *test_malloc_counted(size_t size) {
    if (test_fail_allocations) return NULL;
    test_allocations++;
    return malloc(size);
}
#define TL_MALLOC(size) test_malloc_counted(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include "generated_events_sample.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* --- harness ---------------------------------------------------------------------------------- */

typedef struct captured {
    int records;
    int last_level;
    uint32_t last_item;
    char last_line[TL_LOG_LINE_MAX];
} captured;

static void capture_sink(void *user, const tl_log_record *record) {
    captured *c = (captured *)user;
    c->records++;
    c->last_level = record->level;
    c->last_item = record->item;
    snprintf(c->last_line, sizeof c->last_line, "%s", record->line);
}

typedef enum action {
    ACT_NONE,
    ACT_UNSUB_SELF,
    ACT_UNSUB_OTHER,      /* unsubscribe `other` */
    ACT_UNSUB_SELF_OTHER, /* unsubscribe self, then `other` */
    ACT_SUB_OTHER,        /* subscribe `other` */
    ACT_RESUB_SELF,       /* unsubscribe self, subscribe self again */
    ACT_CLEAR,            /* clear the event */
    ACT_PUBLISH_NESTED,   /* publish the same event once more, from inside */
    ACT_PUBLISH_OTHER,    /* publish OnSceneLoaded from inside OnUpdate */
    ACT_DISCARD           /* discard the registry (against the rules: refused) */
} action;

typedef struct harness harness;
typedef struct probe {
    harness *h;
    char name;
    action act;
    struct probe *other; /* ACT_SUB_OTHER subscribes `count` probes from here (0 means 1) */
    int count;
    int once;            /* the action runs once, then the probe only records */
    int calls;
} probe;

struct harness {
    tl_events reg;
    tl_logger logger;
    captured log_capture;
    char trace[256];
    size_t length;
    int nesting;
    float last_dt;
    const scene_load *last_scene;
};

/* Not inlined: gcc 12 otherwise misreads the capture buffer's size (-Wstringop-overread). */
static __attribute__((noinline)) int logged(const harness *h, const char *text) {
    return strstr(h->log_capture.last_line, text) != NULL;
}

static void trace(harness *h, char c) {
    if (h->length + 1 < sizeof h->trace) {
        h->trace[h->length++] = c;
        h->trace[h->length] = '\0';
    }
}

static void on_update(void *ctx, float dt);

static void on_scene_loaded(void *ctx, const scene_load *load) {
    probe *p = (probe *)ctx;
    p->calls++;
    p->h->last_scene = load;
    trace(p->h, p->name);
}

static void on_update(void *ctx, float dt) {
    probe *p = (probe *)ctx;
    harness *h = p->h;
    action act = p->act;
    int i;
    p->calls++;
    h->last_dt = dt;
    trace(h, p->name);
    if (p->once) p->act = ACT_NONE;
    switch (act) {
    case ACT_NONE: break;
    case ACT_UNSUB_SELF: assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, p)); break;
    case ACT_UNSUB_OTHER:
        assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, p->other));
        break;
    case ACT_UNSUB_SELF_OTHER:
        assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, p));
        assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, p->other));
        break;
    case ACT_SUB_OTHER:
        for (i = 0; i < (p->count ? p->count : 1); i++)
            assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, p->other + i), TL_EVENTS_OK);
        break;
    case ACT_RESUB_SELF:
        assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, p));
        assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, p), TL_EVENTS_OK);
        p->act = ACT_NONE;
        break;
    case ACT_CLEAR: tl_events_clear(&h->reg, Iris_Events_OnUpdate); break;
    case ACT_PUBLISH_NESTED:
        if (h->nesting == 0) {
            h->nesting++;
            trace(h, '(');
            Iris_Events_OnUpdate_publish(&h->reg, dt * 2.0f);
            trace(h, ')');
            h->nesting--;
        }
        break;
    case ACT_PUBLISH_OTHER: {
        scene_load load = {"Town", 0};
        trace(h, '(');
        Iris_Events_OnSceneLoaded_publish(&h->reg, &load);
        trace(h, ')');
        break;
    }
    case ACT_DISCARD: tl_events_discard(&h->reg); break;
    }
}

static bool provide_true(void *ctx) {
    probe *p = (probe *)ctx;
    p->calls++;
    return true;
}

static bool provide_false_and_leave(void *ctx) {
    probe *p = (probe *)ctx;
    p->calls++;
    assert_true(Iris_Events_OnInteract_unsubscribe(&p->h->reg, provide_false_and_leave, p));
    return false;
}

static int setup(void **state) {
    harness *h = (harness *)calloc(1, sizeof *h);
    assert_non_null(h);
    h->logger.sink = capture_sink;
    h->logger.user = &h->log_capture;
    test_allocations = 0;
    test_fail_allocations = 0;
    assert_int_equal(iris_events_init(&h->reg, &h->logger), TL_EVENTS_OK);
    *state = h;
    return 0;
}

static int teardown(void **state) {
    harness *h = (harness *)*state;
    tl_events_discard(&h->reg);
    free(h);
    return 0;
}

static void reset_trace(harness *h) {
    h->length = 0;
    h->trace[0] = '\0';
}

/* Subscribes probes named by `names` (in that order) to OnUpdate. */
static void subscribe_all(harness *h, probe *probes, const char *names) {
    size_t i;
    for (i = 0; names[i]; i++) {
        probes[i].h = h;
        probes[i].name = names[i];
        assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, &probes[i]), TL_EVENTS_OK);
    }
}

static void publish_and_expect(harness *h, const char *expected) {
    reset_trace(h);
    Iris_Events_OnUpdate_publish(&h->reg, 0.5f);
    assert_string_equal(h->trace, expected);
}

/* --- dispatch order and basic rules ------------------------------------------------------------ */

static void test_events_publish_calls_newest_first(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    publish_and_expect(h, "DCBA");
    assert_true(h->last_dt == 0.5f);
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 4);
}

static void test_events_publish_without_listeners_is_a_noop(void **state) {
    harness *h = (harness *)*state;
    probe p[1];
    scene_load load = {"Keep", 1};
    memset(p, 0, sizeof p);
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    Iris_Events_OnSceneLoaded_publish(&h->reg, &load);
    subscribe_all(h, p, "A");
    assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, &p[0]));
    publish_and_expect(h, "");
    assert_int_equal(p[0].calls, 0);
    assert_int_equal(h->log_capture.records, 0);
}

static void test_events_lists_allocate_on_first_subscription_and_publish_never(void **state) {
    harness *h = (harness *)*state;
    probe p[8];
    int after_first, base = test_allocations; /* the fixture's registry allocated its slots */
    memset(p, 0, sizeof p);
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    assert_int_equal(test_allocations, base);
    subscribe_all(h, p, "A");
    assert_int_equal(test_allocations, base + 1);
    after_first = test_allocations;
    p[0].act = ACT_NONE;
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    assert_int_equal(test_allocations, after_first);
    /* Only the slot that was subscribed to got a list. */
    assert_null(h->reg.slots[Iris_Events_OnSceneLoaded].listeners);
    assert_null(h->reg.slots[Iris_Events_OnInteract].listeners);
    /* Growth past the first capacity allocates on subscription, still never on publish. */
    subscribe_all(h, p + 1, "BCDEFG");
    assert_true(test_allocations > after_first);
    after_first = test_allocations;
    publish_and_expect(h, "GFEDCBA");
    assert_int_equal(test_allocations, after_first);
}

static void test_events_unsubscribe_outside_dispatch_swaps_with_last(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    assert_true(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, &p[1])); /* D moves to B's slot */
    publish_and_expect(h, "CDA");
    assert_false(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, &p[1]));
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 3);
}

static void test_events_duplicate_listener_is_refused(void **state) {
    harness *h = (harness *)*state;
    probe p[2];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "AB");
    assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, &p[0]), TL_EVENTS_DUPLICATE_LISTENER);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_DUPLICATE_LISTENER);
    assert_int_equal(h->log_capture.last_level, TL_LOG_LEVEL_WARNING);
    assert_true(logged(h, "OnUpdate"));
    publish_and_expect(h, "BA");
}

/* --- removal during dispatch: every case ------------------------------------------------------- */

static void test_events_listener_removes_itself_during_dispatch(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    p[2].act = ACT_UNSUB_SELF; /* C */
    publish_and_expect(h, "DCBA");
    publish_and_expect(h, "DBA");
}

static void test_events_listener_removes_one_not_yet_called(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    p[3].act = ACT_UNSUB_OTHER; /* D, called first, removes B */
    p[3].other = &p[1];
    publish_and_expect(h, "DCA"); /* B never called: no stale call */
    assert_int_equal(p[1].calls, 0);
    p[3].act = ACT_NONE;
    /* Compaction moved D into B's hole: [A, D, C]. */
    publish_and_expect(h, "CDA");
}

static void test_events_listener_removes_one_already_called(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    p[1].act = ACT_UNSUB_OTHER; /* B removes D, which ran first */
    p[1].other = &p[3];
    publish_and_expect(h, "DCBA"); /* nobody skipped (A still runs), nobody repeated */
    p[1].act = ACT_NONE;
    publish_and_expect(h, "CBA");
}

static void test_events_listener_removes_the_last_entry_before_its_turn(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    /* C removes itself and A: with swap-with-last during dispatch, D (already called) would have
       been moved into a lower index and called again, or A's hole refilled and B skipped. */
    p[2].act = ACT_UNSUB_SELF_OTHER;
    p[2].other = &p[0];
    publish_and_expect(h, "DCB");
    /* Compaction in index order: A's hole takes D, then C's hole is the end: [D, B]. */
    publish_and_expect(h, "BD");
}

static void test_events_every_listener_removes_itself(void **state) {
    harness *h = (harness *)*state;
    probe p[5];
    size_t i;
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCDE");
    for (i = 0; i < 5; i++) p[i].act = ACT_UNSUB_SELF;
    publish_and_expect(h, "EDCBA");
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 0);
    assert_int_equal(h->reg.slots[Iris_Events_OnUpdate].count, 0);
    publish_and_expect(h, "");
}

static void test_events_clear_during_dispatch_stops_the_rest(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    p[2].act = ACT_CLEAR; /* C */
    publish_and_expect(h, "DC");
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 0);
    publish_and_expect(h, "");
}

static void test_events_subscription_during_dispatch_waits_for_next_publish(void **state) {
    harness *h = (harness *)*state;
    probe p[3], late[8];
    size_t i;
    memset(p, 0, sizeof p);
    memset(late, 0, sizeof late);
    subscribe_all(h, p, "ABC");
    p[1].act = ACT_SUB_OTHER; /* B subscribes E */
    late[0].h = h;
    late[0].name = 'E';
    p[1].other = &late[0];
    publish_and_expect(h, "CBA");
    assert_int_equal(late[0].calls, 0);
    p[1].act = ACT_NONE;
    publish_and_expect(h, "ECBA");
    /* Many subscriptions during one dispatch grow (reallocate) the list under the loop. */
    for (i = 1; i < 8; i++) {
        late[i].h = h;
        late[i].name = (char)('0' + i);
    }
    late[0].act = ACT_SUB_OTHER; /* each newcomer subscribes the next one, one publish at a time */
    late[0].other = &late[1];
    late[0].once = 1;
    late[1].act = ACT_SUB_OTHER;
    late[1].other = &late[2];
    late[1].once = 1;
    publish_and_expect(h, "ECBA");
    publish_and_expect(h, "1ECBA");
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 6);
}

static void test_events_growth_during_dispatch_is_safe(void **state) {
    harness *h = (harness *)*state;
    probe first[1], many[40];
    size_t i;
    memset(first, 0, sizeof first);
    memset(many, 0, sizeof many);
    subscribe_all(h, first, "A");
    /* A subscribes 40 listeners from inside its call; the list reallocates several times. */
    for (i = 0; i < 40; i++) {
        many[i].h = h;
        many[i].name = 'x';
    }
    first[0].act = ACT_SUB_OTHER;
    first[0].other = many;
    first[0].count = 40;
    first[0].once = 1;
    publish_and_expect(h, "A");
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 41);
    reset_trace(h);
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    assert_int_equal(h->length, 41);
}

/* Growth during dispatch keeps the outgrown list for the running dispatch: a removal made after
   the growth (here inside a nested publish) must reach the entry the outer dispatch still reads. */
static void test_events_removal_after_growth_during_dispatch_reaches_the_outer_dispatch(void **state) {
    harness *h = (harness *)*state;
    probe p[4], many[40];
    char expected[64];
    size_t i, n = 0;
    memset(p, 0, sizeof p);
    memset(many, 0, sizeof many);
    subscribe_all(h, p, "ABCD"); /* fills the first list exactly */
    for (i = 0; i < 40; i++) {
        many[i].h = h;
        many[i].name = 'x';
    }
    p[3].act = ACT_SUB_OTHER; /* D grows the list several times */
    p[3].other = many;
    p[3].count = 40;
    p[3].once = 1;
    p[2].act = ACT_PUBLISH_NESTED; /* C nests; inside, B removes A */
    p[1].act = ACT_UNSUB_OTHER;
    p[1].other = &p[0];
    p[1].once = 1;
    expected[n++] = 'D';
    expected[n++] = 'C';
    expected[n++] = '(';
    for (i = 0; i < 40; i++) expected[n++] = 'x';
    memcpy(expected + n, "DCB)B", 6);
    publish_and_expect(h, expected);
    assert_int_equal(p[0].calls, 0); /* removed inside, not called outside from the old list */
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 43);
    assert_false(Iris_Events_OnUpdate_contains(&h->reg, on_update, &p[0]));
    p[2].act = ACT_NONE;
    reset_trace(h);
    Iris_Events_OnUpdate_publish(&h->reg, 1.0f);
    assert_int_equal(h->length, 43);
    assert_int_equal(p[0].calls, 0);
}

static void test_events_unsubscribe_and_resubscribe_during_dispatch(void **state) {
    harness *h = (harness *)*state;
    probe p[3];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABC");
    p[1].act = ACT_RESUB_SELF; /* B leaves and comes back at the end of the list */
    publish_and_expect(h, "CBA");
    assert_int_equal(p[1].calls, 1); /* the new subscription was not called in this publish */
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 3);
    /* Compaction moved the new B into the old one's hole. */
    publish_and_expect(h, "CBA");
}

/* --- nested publish ------------------------------------------------------------------------------ */

static void test_events_nested_publish_of_the_same_event(void **state) {
    harness *h = (harness *)*state;
    probe p[3];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABC");
    p[1].act = ACT_PUBLISH_NESTED; /* B publishes again from inside */
    publish_and_expect(h, "CB(CBA)A");
    assert_true(h->last_dt == 0.5f); /* A, last, saw the outer argument again */
}

static void test_events_removal_inside_a_nested_publish(void **state) {
    harness *h = (harness *)*state;
    probe p[4];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABCD");
    p[2].act = ACT_PUBLISH_NESTED; /* C nests; inside, B removes A (not yet called outside) */
    p[1].act = ACT_UNSUB_OTHER;
    p[1].other = &p[0];
    p[1].once = 1;
    publish_and_expect(h, "DC(DCB)B"); /* A, removed inside, is called neither inside nor outside */
    assert_int_equal(p[0].calls, 0);
    p[2].act = ACT_NONE;
    publish_and_expect(h, "CBD"); /* compacted once the outer dispatch ended: D took A's place */
}

static void test_events_nested_publish_of_another_event(void **state) {
    harness *h = (harness *)*state;
    probe p[2], scene[2];
    memset(p, 0, sizeof p);
    memset(scene, 0, sizeof scene);
    subscribe_all(h, p, "AB");
    scene[0].h = h;
    scene[0].name = 's';
    scene[1].h = h;
    scene[1].name = 't';
    assert_int_equal(Iris_Events_OnSceneLoaded_subscribe(&h->reg, on_scene_loaded, &scene[0]), TL_EVENTS_OK);
    assert_int_equal(Iris_Events_OnSceneLoaded_subscribe(&h->reg, on_scene_loaded, &scene[1]), TL_EVENTS_OK);
    p[1].act = ACT_PUBLISH_OTHER;
    publish_and_expect(h, "B(ts)A");
    assert_int_equal(scene[0].calls, 1);
    assert_non_null(h->last_scene);
}

/* --- single provider --------------------------------------------------------------------------- */

static void test_events_single_provider_answers(void **state) {
    harness *h = (harness *)*state;
    probe p[2];
    bool result = false;
    memset(p, 0, sizeof p);
    p[0].h = h;
    p[1].h = h;
    assert_false(Iris_Events_OnInteract_publish(&h->reg, &result)); /* nobody to answer */
    assert_int_equal(Iris_Events_OnInteract_subscribe(&h->reg, provide_true, &p[0]), TL_EVENTS_OK);
    assert_true(Iris_Events_OnInteract_publish(&h->reg, &result));
    assert_true(result);
    assert_true(Iris_Events_OnInteract_publish(&h->reg, NULL)); /* the result is optional */
    assert_int_equal(p[0].calls, 2);
}

static void test_events_single_provider_refuses_a_second(void **state) {
    harness *h = (harness *)*state;
    probe p[2];
    bool result = false;
    memset(p, 0, sizeof p);
    p[0].h = h;
    p[1].h = h;
    assert_int_equal(Iris_Events_OnInteract_subscribe(&h->reg, provide_true, &p[0]), TL_EVENTS_OK);
    assert_int_equal(Iris_Events_OnInteract_subscribe(&h->reg, provide_true, &p[1]), TL_EVENTS_SECOND_PROVIDER);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_SECOND_PROVIDER);
    assert_int_equal(h->log_capture.last_level, TL_LOG_LEVEL_ERROR);
    assert_true(logged(h, "'OnInteract'"));
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnInteract), 1);
    /* Once the first leaves, another may provide. */
    assert_true(Iris_Events_OnInteract_unsubscribe(&h->reg, provide_true, &p[0]));
    assert_int_equal(Iris_Events_OnInteract_subscribe(&h->reg, provide_false_and_leave, &p[1]), TL_EVENTS_OK);
    result = true;
    assert_true(Iris_Events_OnInteract_publish(&h->reg, &result)); /* it leaves while answering */
    assert_false(result);
    assert_false(Iris_Events_OnInteract_publish(&h->reg, &result));
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnInteract), 0);
    assert_int_equal(Iris_Events_OnInteract_subscribe(&h->reg, provide_true, &p[0]), TL_EVENTS_OK);
}

/* --- the untyped core --------------------------------------------------------------------------- */

typedef void (*update_listener)(void *ctx, float dt);
typedef void (*int_listener)(void *ctx, int value);

static void on_int(void *ctx, int value) {
    probe *p = (probe *)ctx;
    (void)value;
    p->calls++;
}

static void test_events_untyped_subscription_with_wrong_signature_is_discarded(void **state) {
    harness *h = (harness *)*state;
    probe p[1];
    memset(p, 0, sizeof p);
    p[0].h = h;
    p[0].name = 'A';
    /* A module without the generated header believes OnUpdate takes an int. */
    assert_int_equal(tl_events_last_result(&h->reg), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&h->reg, Iris_Events_OnUpdate, XXH32("(int)", 5, 0), 0,
                                   TL_EVENTS_FN(on_int), &p[0]), TL_EVENTS_SIGNATURE_MISMATCH);
    /* The failure's result and message, as events.h's table says, and its one log line. */
    assert_int_equal(tl_events_last_result(&h->reg), TL_EVENTS_SIGNATURE_MISMATCH);
    assert_string_equal(tl_events_result_message(TL_EVENTS_SIGNATURE_MISMATCH),
                        "the listener's signature does not match the event's");
    assert_string_equal(tl_events_result_message(TL_EVENTS_RESULT_END_), "unknown result");
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_SIGNATURE_MISMATCH);
    assert_int_equal(h->log_capture.last_level, TL_LOG_LEVEL_ERROR);
    assert_true(logged(h, "'OnUpdate'"));
    assert_true(logged(h, "Events: error: "));
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 0);
    /* The same module with the right signature id gets in and is called. */
    assert_int_equal(tl_events_subscribe(&h->reg, Iris_Events_OnUpdate, XXH32("(float)", 7, 0), 0,
                                  TL_EVENTS_FN(on_update), &p[0]), TL_EVENTS_OK);
    publish_and_expect(h, "A");
    assert_int_equal(p[0].calls, 1);
    /* A single-provider flag that the event does not have is a mismatch too. */
    assert_int_equal(tl_events_subscribe(&h->reg, Iris_Events_OnUpdate, Iris_Events_OnUpdate_SIGNATURE,
                                   TL_EVENTS_SINGLE_PROVIDER, TL_EVENTS_FN(on_update), &p[0]), TL_EVENTS_SIGNATURE_MISMATCH);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_SIGNATURE_MISMATCH);
    assert_int_equal(tl_events_subscribe(&h->reg, Iris_Events_OnInteract, Iris_Events_OnInteract_SIGNATURE,
                                   0, TL_EVENTS_FN(provide_true), &p[0]), TL_EVENTS_SIGNATURE_MISMATCH);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_SIGNATURE_MISMATCH);
}

static void test_events_untyped_publish_with_wrong_signature_is_a_noop(void **state) {
    harness *h = (harness *)*state;
    probe p[2];
    int records;
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "AB");
    TL_EVENTS_PUBLISH(&h->reg, Iris_Events_OnUpdate, XXH32("(int)", 5, 0), int_listener, 7);
    assert_int_equal(p[0].calls + p[1].calls, 0);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_PUBLISH_MISMATCH);
    assert_int_equal(h->log_capture.last_level, TL_LOG_LEVEL_WARNING);
    assert_int_equal(tl_events_last_result(&h->reg), TL_EVENTS_PUBLISH_MISMATCH);
    records = h->log_capture.records;
    TL_EVENTS_PUBLISH(&h->reg, Iris_Events_OnUpdate, XXH32("(int)", 5, 0), int_listener, 7);
    assert_int_equal(h->log_capture.records, records); /* reported once per slot */
    /* The right id dispatches like the typed publish. */
    reset_trace(h);
    TL_EVENTS_PUBLISH(&h->reg, Iris_Events_OnUpdate, XXH32("(float)", 7, 0), update_listener, 0.25f);
    assert_string_equal(h->trace, "BA");
    assert_true(h->last_dt == 0.25f);
}

static void test_events_gaps_and_out_of_range_events_are_refused(void **state) {
    harness *h = (harness *)*state;
    probe p[1];
    memset(p, 0, sizeof p);
    p[0].h = h;
    assert_int_equal(tl_events_subscribe(&h->reg, 2, Iris_Events_OnUpdate_SIGNATURE, 0, TL_EVENTS_FN(on_update),
                                   &p[0]), TL_EVENTS_UNDECLARED_EVENT);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_UNDECLARED_EVENT);
    assert_true(logged(h, "#2"));
    assert_int_equal(tl_events_subscribe(&h->reg, IRIS_EVENTS_SPAN, Iris_Events_OnUpdate_SIGNATURE, 0,
                                   TL_EVENTS_FN(on_update), &p[0]), TL_EVENTS_OUT_OF_RANGE);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_OUT_OF_RANGE);
    TL_EVENTS_PUBLISH(&h->reg, IRIS_EVENTS_SPAN + 5, Iris_Events_OnUpdate_SIGNATURE, update_listener, 1.0f);
    assert_int_equal(tl_events_subscribe(&h->reg, Iris_Events_OnUpdate, Iris_Events_OnUpdate_SIGNATURE, 0,
                                   NULL, &p[0]), TL_EVENTS_INVALID_ARGUMENT);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_INVALID_ARGUMENT);
    assert_null(tl_events_event_name(&h->reg, 2));
    assert_string_equal(tl_events_event_name(&h->reg, Iris_Events_OnInteract), "OnInteract");
    assert_int_equal(tl_events_listener_count(&h->reg, 99), 0);
}

/* Unsubscribe refuses the same events subscribe refuses, and logs them the same way (before, it
   answered false in silence); a listener that is simply not subscribed stays a quiet false. */
static void test_events_unsubscribe_refusals_are_logged(void **state) {
    harness *h = (harness *)*state;
    probe p[1];
    int records;
    memset(p, 0, sizeof p);
    p[0].h = h;
    records = h->log_capture.records;
    assert_false(tl_events_unsubscribe(&h->reg, IRIS_EVENTS_SPAN + 7, TL_EVENTS_FN(on_update), &p[0]));
    assert_int_equal(h->log_capture.records, records + 1);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_OUT_OF_RANGE);
    assert_int_equal(h->log_capture.last_level, TL_LOG_LEVEL_ERROR);
    assert_true(logged(h, "unsubscribe: event #"));
    assert_false(tl_events_unsubscribe(&h->reg, 2, TL_EVENTS_FN(on_update), &p[0]));
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_UNDECLARED_EVENT);
    assert_true(logged(h, "unsubscribe: event #2"));
    assert_false(tl_events_unsubscribe(&h->reg, Iris_Events_OnUpdate, NULL, &p[0]));
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_INVALID_ARGUMENT);
    records = h->log_capture.records;
    assert_false(Iris_Events_OnUpdate_unsubscribe(&h->reg, on_update, &p[0])); /* not subscribed */
    assert_int_equal(h->log_capture.records, records);
    tl_events_clear(&h->reg, IRIS_EVENTS_SPAN); /* clear takes the same ids */
    assert_int_equal(h->log_capture.records, records + 1);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_OUT_OF_RANGE);
    assert_true(logged(h, "clear: event #"));
}

static void test_events_registry_without_table_binds_on_first_subscription(void **state) {
    harness *h = (harness *)*state;
    tl_events bare;
    tl_events_desc desc;
    probe p[2];
    memset(p, 0, sizeof p);
    memset(&desc, 0, sizeof desc);
    p[0].h = h;
    p[1].h = h;
    desc.span = 3;
    desc.logger = &h->logger;
    assert_int_equal(tl_events_init(&bare, &desc), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&bare, 1, XXH32("(int)", 5, 0), 0, TL_EVENTS_FN(on_int), &p[0]), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&bare, 1, XXH32("(float)", 7, 0), 0, TL_EVENTS_FN(on_update), &p[1]), TL_EVENTS_SIGNATURE_MISMATCH);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_SIGNATURE_MISMATCH);
    assert_true(logged(h, "'event #1'"));
    TL_EVENTS_PUBLISH(&bare, 1, XXH32("(int)", 5, 0), int_listener, 3);
    assert_int_equal(p[0].calls, 1);
    /* Even with no listener left the slot keeps its contract. */
    assert_true(tl_events_unsubscribe(&bare, 1, TL_EVENTS_FN(on_int), &p[0]));
    assert_int_equal(tl_events_subscribe(&bare, 1, XXH32("(float)", 7, 0), 0, TL_EVENTS_FN(on_update), &p[1]), TL_EVENTS_SIGNATURE_MISMATCH);
    tl_events_discard(&bare);
    tl_events_discard(&bare); /* a discarded registry is zeroed: twice is harmless */
}

/* --- diagnostics and failures ------------------------------------------------------------------- */

static void test_events_contains_count_and_clear(void **state) {
    harness *h = (harness *)*state;
    probe p[3];
    memset(p, 0, sizeof p);
    subscribe_all(h, p, "ABC");
    assert_true(Iris_Events_OnUpdate_contains(&h->reg, on_update, &p[1]));
    assert_false(Iris_Events_OnUpdate_contains(&h->reg, on_update, h));
    assert_false(tl_events_contains(&h->reg, Iris_Events_OnSceneLoaded, TL_EVENTS_FN(on_update), &p[1]));
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 3);
    tl_events_clear(&h->reg, Iris_Events_OnUpdate);
    assert_int_equal(tl_events_listener_count(&h->reg, Iris_Events_OnUpdate), 0);
    assert_false(Iris_Events_OnUpdate_contains(&h->reg, on_update, &p[1]));
    publish_and_expect(h, "");
    assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, &p[1]), TL_EVENTS_OK); /* the list is reused */
    publish_and_expect(h, "B");
}

/* A listener that discards the registry (a quit handler tearing the game down from inside
   OnUpdate) would free the lists the publish walks: refused and logged, the registry stays. A
   list outgrown by the same dispatch (retired until it ends) is kept too. */
static void test_events_discard_from_a_listener_is_refused(void **state) {
    harness *h = (harness *)*state;
    probe p[3], more[8];
    size_t i;
    memset(p, 0, sizeof p);
    memset(more, 0, sizeof more);
    subscribe_all(h, p, "ABC");
    p[1].act = ACT_DISCARD;
    p[1].once = 1;
    p[2].act = ACT_SUB_OTHER; /* C (called first) grows the list, then B discards */
    p[2].other = more;
    p[2].count = 8;
    p[2].once = 1;
    for (i = 0; i < 8; i++) {
        more[i].h = h;
        more[i].name = 'a' + (char)i;
    }
    publish_and_expect(h, "CBA");
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_DISCARD_IN_DISPATCH);
    assert_true(logged(h, "tl_events_discard called while event #"));
    publish_and_expect(h, "hgfedcbaCBA");
}

static void test_events_out_of_memory_is_reported(void **state) {
    harness *h = (harness *)*state;
    probe p[1];
    tl_events other;
    memset(p, 0, sizeof p);
    p[0].h = h;
    p[0].name = 'A';
    test_fail_allocations = 1;
    assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, &p[0]), TL_EVENTS_OUT_OF_MEMORY);
    assert_int_equal(h->log_capture.last_item, TL_EVENTS_LOG_OUT_OF_MEMORY);
    assert_int_equal(iris_events_init(&other, &h->logger), TL_EVENTS_OUT_OF_MEMORY);
    tl_events_discard(&other);
    test_fail_allocations = 0;
    assert_int_equal(Iris_Events_OnUpdate_subscribe(&h->reg, on_update, &p[0]), TL_EVENTS_OK);
    publish_and_expect(h, "A");
    assert_int_equal(p[0].calls, 1);
}

/* --- the generator contract --------------------------------------------------------------------- */

static void test_events_sample_signature_ids_are_xxh32_of_the_normalised_text(void **state) {
    const tl_events_info *info = iris_events_info();
    (void)state;
    assert_int_equal(Iris_Events_OnUpdate_SIGNATURE, XXH32("(float)", strlen("(float)"), 0));
    assert_int_equal(Iris_Events_OnSceneLoaded_SIGNATURE,
                     XXH32("(const scene_load *)", strlen("(const scene_load *)"), 0));
    assert_int_equal(Iris_Events_OnInteract_SIGNATURE, XXH32("()->bool", strlen("()->bool"), 0));
    /* The ids the documentation quotes. */
    assert_int_equal(XXH32("()", 2, 0), 0x12f682fdu);
    assert_int_equal(XXH32("(double)", 8, 0), 0xc5c82766u);
    assert_int_equal(XXH32("(tl_lifecycle *)", 16, 0), 0xfe445e4eu);
    assert_int_equal(IRIS_EVENTS_SPAN, 4);
    assert_int_equal(IRIS_EVENTS_COUNT, 3);
    assert_string_equal(info[Iris_Events_OnSceneLoaded].name, "OnSceneLoaded");
    assert_null(info[2].name);
    assert_int_equal(info[Iris_Events_OnInteract].flags, TL_EVENTS_SINGLE_PROVIDER);
    assert_int_equal(info[Iris_Events_OnUpdate].flags, 0);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_events_publish_calls_newest_first),
        T(test_events_publish_without_listeners_is_a_noop),
        T(test_events_lists_allocate_on_first_subscription_and_publish_never),
        T(test_events_unsubscribe_outside_dispatch_swaps_with_last),
        T(test_events_unsubscribe_refusals_are_logged),
        T(test_events_duplicate_listener_is_refused),
        T(test_events_listener_removes_itself_during_dispatch),
        T(test_events_listener_removes_one_not_yet_called),
        T(test_events_listener_removes_one_already_called),
        T(test_events_listener_removes_the_last_entry_before_its_turn),
        T(test_events_every_listener_removes_itself),
        T(test_events_clear_during_dispatch_stops_the_rest),
        T(test_events_subscription_during_dispatch_waits_for_next_publish),
        T(test_events_growth_during_dispatch_is_safe),
        T(test_events_removal_after_growth_during_dispatch_reaches_the_outer_dispatch),
        T(test_events_unsubscribe_and_resubscribe_during_dispatch),
        T(test_events_nested_publish_of_the_same_event),
        T(test_events_removal_inside_a_nested_publish),
        T(test_events_nested_publish_of_another_event),
        T(test_events_single_provider_answers),
        T(test_events_single_provider_refuses_a_second),
        T(test_events_untyped_subscription_with_wrong_signature_is_discarded),
        T(test_events_untyped_publish_with_wrong_signature_is_a_noop),
        T(test_events_gaps_and_out_of_range_events_are_refused),
        T(test_events_registry_without_table_binds_on_first_subscription),
        T(test_events_contains_count_and_clear),
        T(test_events_discard_from_a_listener_is_refused),
        T(test_events_out_of_memory_is_reported),
        T(test_events_sample_signature_ids_are_xxh32_of_the_normalised_text),
    };
    return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
