/* Lifecycle batches (lifecycle.h): preloads started together and all awaited, every failed
   preloader named, boot and initialize a frame apart, discard once per object, children first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <threadlink/lifecycle.h>

typedef struct world {
    char trace[512];
    tl_logger logger;
    int records;
    uint32_t last_item;
    char last_line[TL_LOG_LINE_MAX];
    tl_lifecycle_batch *batch; /* for reentrancy probes */
} world;

typedef struct obj {
    world *w;
    const char *name;
    int pending;  /* preload answers PENDING this many times */
    int fail;
    int discards;
    int reenter;  /* boot calls tl_lifecycle_batch_update and tl_lifecycle_batch_discard on its own batch */
    void *dependency;
} obj;

static void trace(world *w, const char *phase, const char *name) {
    size_t used = strlen(w->trace);
    snprintf(w->trace + used, sizeof w->trace - used, "%s%s%s", used ? " " : "", phase, name);
}
static void capture(void *user, const tl_log_record *record) {
    world *w = (world *)user;
    w->records++;
    w->last_item = record->item;
    snprintf(w->last_line, sizeof w->last_line, "%s", record->line);
}

static tl_lifecycle_status obj_answer(obj *o) {
    if (o->pending > 0) {
        o->pending--;
        return TL_LIFECYCLE_PENDING;
    }
    return o->fail ? TL_LIFECYCLE_FAILED : TL_LIFECYCLE_DONE;
}
static tl_lifecycle_status obj_start(void *self, void *ctx) {
    obj *o = (obj *)self;
    assert_ptr_equal(ctx, o->w);
    trace(o->w, "s", o->name);
    return obj_answer(o);
}
static tl_lifecycle_status obj_poll(void *self, void *ctx) {
    obj *o = (obj *)self;
    (void)ctx;
    trace(o->w, "p", o->name);
    return obj_answer(o);
}
static void obj_boot(void *self, void *ctx) {
    obj *o = (obj *)self;
    (void)ctx;
    trace(o->w, "b", o->name);
    if (o->reenter) {
        assert_int_equal(tl_lifecycle_batch_update(o->w->batch), TL_LIFECYCLE_BATCH_PENDING);
        tl_lifecycle_batch_discard(o->w->batch);
    }
}
static void obj_initialize(void *self, void *ctx) {
    obj *o = (obj *)self;
    (void)ctx;
    trace(o->w, "i", o->name);
}
static void obj_discard(void *self, void *ctx) {
    obj *o = (obj *)self;
    (void)ctx;
    o->discards++;
    trace(o->w, "d", o->name);
}
static bool obj_consume(void *self, void *ctx, uint32_t kind, void *dependency) {
    obj *o = (obj *)self;
    (void)ctx;
    if (kind != 7u) return false;
    o->dependency = dependency;
    return true;
}

static const tl_lifecycle_object_vtable full = {"Obj", obj_start, obj_poll, obj_boot, obj_initialize, obj_discard,
                                      obj_consume};
static const tl_lifecycle_object_vtable boot_only = {"BootOnly", NULL, NULL, obj_boot, NULL, obj_discard, NULL};

static int setup(void **state) {
    world *w = (world *)calloc(1, sizeof *w);
    assert_non_null(w);
    w->logger.sink = capture;
    w->logger.user = w;
    *state = w;
    return 0;
}
static int teardown(void **state) {
    free(*state);
    return 0;
}

/* Fills os[] and list[] (list[i] names and points to os[i]) for a batch of n objects. */
static void make(world *w, tl_lifecycle_batch *batch, obj *os, tl_lifecycle_object *list, const char *const *names,
                 const uint32_t *parents, uint32_t n, const tl_lifecycle_object_vtable *vt) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        memset(&os[i], 0, sizeof os[i]);
        os[i].w = w;
        os[i].name = names[i];
        list[i].vtable = vt;
        list[i].self = &os[i];
        list[i].name = names[i];
        list[i].parent = parents ? parents[i] : TL_LIFECYCLE_BATCH_NO_PARENT;
    }
    w->batch = batch;
}

static tl_lifecycle_result init(world *w, tl_lifecycle_batch *batch, const tl_lifecycle_object *list,
                                uint32_t n) {
    tl_lifecycle_batch_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "level";
    desc.ctx = w;
    desc.logger = &w->logger;
    return tl_lifecycle_batch_init(batch, &desc, list, n);
}

static const char *const abc[] = {"A", "B", "C", "D"};

static void test_batch_preloads_start_together_and_are_awaited(void **state) {
    world *w = (world *)*state;
    obj os[3];
    tl_lifecycle_object list[3];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, NULL, 3, &full);
    os[0].pending = 2;
    os[2].pending = 1;
    assert_int_equal(init(w, &batch, list, 3), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_string_equal(w->trace, "sA sB sC");
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_string_equal(w->trace, "sA sB sC pA pC");
    assert_false(tl_lifecycle_batch_booted(&batch));
    /* The last preload settles: everything boots in that update, initializes in the next. */
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_string_equal(w->trace, "sA sB sC pA pC pA bA bB bC");
    assert_true(tl_lifecycle_batch_booted(&batch));
    assert_int_equal(tl_lifecycle_batch_status_of(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_DONE);
    assert_string_equal(w->trace, "sA sB sC pA pC pA bA bB bC iA iB iC");
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_DONE); /* nothing runs twice */
    assert_int_equal(tl_lifecycle_batch_status_of(&batch), TL_LIFECYCLE_BATCH_DONE);
    tl_lifecycle_batch_discard(&batch);
    assert_string_equal(w->trace, "sA sB sC pA pC pA bA bB bC iA iB iC dC dB dA");
}

static void test_batch_failure_names_every_failed_preloader(void **state) {
    world *w = (world *)*state;
    obj os[4];
    tl_lifecycle_object list[4];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, NULL, 4, &full);
    os[0].fail = 1;
    os[1].pending = 1;
    os[2].fail = 1;
    os[2].pending = 2; /* fails late: the batch waits for it */
    assert_int_equal(init(w, &batch, list, 4), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_int_equal(w->records, 0);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_FAILED);
    assert_string_equal(w->trace, "sA sB sC sD pB pC pC");
    assert_int_equal(w->records, 3); /* A, C, then the summary */
    assert_int_equal(w->last_item, TL_LIFECYCLE_LOG_BATCH_PRELOADS_FAILED);
    assert_non_null(strstr(w->last_line, "batch 'level': 2 of 4 preloads failed, nothing in it boots"));
    assert_int_equal(tl_lifecycle_batch_failed_count(&batch), 2);
    assert_string_equal(tl_lifecycle_batch_failed_name(&batch, 0), "A");
    assert_string_equal(tl_lifecycle_batch_failed_name(&batch, 1), "C");
    assert_int_equal(tl_lifecycle_batch_failed_index(&batch, 1), 2);
    assert_int_equal(tl_lifecycle_batch_failed_index(&batch, 2), UINT32_MAX);
    assert_null(tl_lifecycle_batch_failed_name(&batch, 2));
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_FAILED); /* stays failed, calls nothing */
    assert_false(tl_lifecycle_batch_booted(&batch));
    tl_lifecycle_batch_discard(&batch); /* every object, failed or not */
    assert_string_equal(w->trace, "sA sB sC sD pB pC pC dD dC dB dA");
}

static void test_batch_single_failure_is_logged_with_its_name(void **state) {
    world *w = (world *)*state;
    obj os[2];
    tl_lifecycle_object list[2];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, NULL, 2, &full);
    os[1].fail = 1;
    assert_int_equal(init(w, &batch, list, 2), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_FAILED);
    assert_int_equal(w->records, 1);
    assert_int_equal(w->last_item, TL_LIFECYCLE_LOG_PRELOAD_FAILED);
    assert_non_null(strstr(w->last_line, "preload of object 'B' failed"));
    tl_lifecycle_batch_discard(&batch);
}

/* A root with two children, one of which has a child: 3 before 1, 1 and 2 before 0. */
static void test_batch_discards_children_before_parents_once(void **state) {
    world *w = (world *)*state;
    static const uint32_t parents[4] = {TL_LIFECYCLE_BATCH_NO_PARENT, 0, 0, 1};
    obj os[4];
    tl_lifecycle_object list[4];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, parents, 4, &boot_only);
    assert_int_equal(init(w, &batch, list, 4), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_DONE); /* nothing to initialize: one update */
    assert_string_equal(w->trace, "bA bB bC bD");
    w->trace[0] = '\0';
    tl_lifecycle_batch_discard(&batch);
    tl_lifecycle_batch_discard(&batch);
    assert_string_equal(w->trace, "dD dC dB dA");
    assert_int_equal(os[0].discards + os[1].discards + os[2].discards + os[3].discards, 4);
}

static void test_batch_discard_before_any_update_reaches_every_object(void **state) {
    world *w = (world *)*state;
    static const uint32_t parents[3] = {2, 2, TL_LIFECYCLE_BATCH_NO_PARENT}; /* the parent listed last */
    obj os[3];
    tl_lifecycle_object list[3];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, parents, 3, &full);
    assert_int_equal(init(w, &batch, list, 3), TL_LIFECYCLE_OK);
    tl_lifecycle_batch_discard(&batch);
    assert_string_equal(w->trace, "dB dA dC");
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_FAILED);
}

static void test_batch_refuses_bad_parents(void **state) {
    world *w = (world *)*state;
    static const uint32_t out_of_range[2] = {TL_LIFECYCLE_BATCH_NO_PARENT, 5};
    static const uint32_t cycle[3] = {1, 2, 0};
    obj os[3];
    tl_lifecycle_object list[3];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, out_of_range, 2, &full);
    assert_int_equal(init(w, &batch, list, 2), TL_LIFECYCLE_BATCH_PARENT);
    assert_string_equal(tl_lifecycle_result_message(TL_LIFECYCLE_BATCH_PARENT),
                        "an object's parent index is out of range or in a cycle");
    assert_int_equal(w->last_item, TL_LIFECYCLE_LOG_BATCH_PARENT);
    assert_non_null(strstr(w->last_line, "object 1 has an out-of-range parent 5"));
    tl_lifecycle_batch_discard(&batch);
    make(w, &batch, os, list, abc, cycle, 3, &full);
    assert_int_equal(init(w, &batch, list, 3), TL_LIFECYCLE_BATCH_PARENT);
    assert_non_null(strstr(w->last_line, "a cycle"));
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_FAILED);
    tl_lifecycle_batch_discard(&batch);
    assert_string_equal(w->trace, ""); /* nothing was ever called */
}

/* A chain 300,000 deep (each object the child of the one before): initialised in linear time
   (depths were walked again from every object: 0.24 s at 10,000 deep, 4.4 s at 40,000, past the
   test's timeout here), discarded deepest first. */
static int chain_discards;
static uint32_t chain_last_discarded;
static void chain_discard(void *self, void *ctx) {
    uint32_t index = (uint32_t)(uintptr_t)self;
    (void)ctx;
    assert_true(chain_discards == 0 || index == chain_last_discarded - 1u);
    chain_last_discarded = index;
    chain_discards++;
}

static void test_batch_deep_chain_in_linear_time(void **state) {
    static const tl_lifecycle_object_vtable link = {"link", NULL, NULL, NULL, NULL, chain_discard, NULL};
    enum { DEPTH = 300000 };
    world *w = (world *)*state;
    tl_lifecycle_object *list = (tl_lifecycle_object *)calloc(DEPTH, sizeof *list);
    tl_lifecycle_batch batch;
    tl_lifecycle_batch_desc desc;
    uint32_t i;
    assert_non_null(list);
    for (i = 0; i < DEPTH; i++) {
        list[i].vtable = &link;
        list[i].self = (void *)(uintptr_t)i;
        list[i].parent = i ? i - 1u : TL_LIFECYCLE_BATCH_NO_PARENT;
    }
    memset(&desc, 0, sizeof desc);
    desc.logger = &w->logger;
    assert_int_equal(tl_lifecycle_batch_init(&batch, &desc, list, DEPTH), TL_LIFECYCLE_OK);
    tl_lifecycle_batch_discard(&batch);
    assert_int_equal(chain_discards, DEPTH);
    assert_int_equal(chain_last_discarded, 0);
    /* The same chain closed into a cycle at its root: refused, naming the first object. */
    list[0].parent = DEPTH - 1u;
    assert_int_equal(tl_lifecycle_batch_init(&batch, &desc, list, DEPTH), TL_LIFECYCLE_BATCH_PARENT);
    assert_non_null(strstr(w->last_line, "object 0 has a cycle through its parent 299999"));
    tl_lifecycle_batch_discard(&batch);
    free(list);
}

static void test_batch_refuses_reentry_from_its_own_functions(void **state) {
    world *w = (world *)*state;
    obj os[2];
    tl_lifecycle_object list[2];
    tl_lifecycle_batch batch;
    make(w, &batch, os, list, abc, NULL, 2, &full);
    os[0].reenter = 1;
    assert_int_equal(init(w, &batch, list, 2), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_PENDING);
    assert_int_equal(w->last_item, TL_LIFECYCLE_LOG_REENTRANT_CALL);
    assert_string_equal(w->trace, "sA sB bA bB"); /* the batch went on */
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_DONE);
    tl_lifecycle_batch_discard(&batch);
    assert_int_equal(os[0].discards, 1);
}

static void test_batch_offers_dependencies(void **state) {
    world *w = (world *)*state;
    obj os[3];
    tl_lifecycle_object list[3];
    tl_lifecycle_batch batch;
    int service = 42;
    make(w, &batch, os, list, abc, NULL, 3, &full);
    list[1].vtable = &boot_only; /* no consume_dependency */
    assert_int_equal(init(w, &batch, list, 3), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_offer(&batch, 7u, &service), 2);
    assert_int_equal(tl_lifecycle_batch_offer(&batch, 8u, &service), 0);
    assert_ptr_equal(os[0].dependency, &service);
    assert_null(os[1].dependency);
    assert_ptr_equal(os[2].dependency, &service);
    tl_lifecycle_batch_discard(&batch);
}

static void test_batch_empty_is_done_at_once(void **state) {
    world *w = (world *)*state;
    tl_lifecycle_batch batch;
    assert_int_equal(init(w, &batch, NULL, 0), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_batch_count(&batch), 0);
    assert_int_equal(tl_lifecycle_batch_update(&batch), TL_LIFECYCLE_BATCH_DONE);
    tl_lifecycle_batch_discard(&batch);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_batch_preloads_start_together_and_are_awaited),
        T(test_batch_failure_names_every_failed_preloader),
        T(test_batch_single_failure_is_logged_with_its_name),
        T(test_batch_discards_children_before_parents_once),
        T(test_batch_discard_before_any_update_reaches_every_object),
        T(test_batch_refuses_bad_parents),
        T(test_batch_deep_chain_in_linear_time),
        T(test_batch_refuses_reentry_from_its_own_functions),
        T(test_batch_offers_dependencies),
        T(test_batch_empty_is_done_at_once),
    };
    return cmocka_run_group_tests_name("batch", tests, NULL, NULL);
}
