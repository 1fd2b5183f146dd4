/* Randomized model test of levels.h: holds, releases (with and without delays), presents and
   transitions interleaved with updates, with loaders that complete after random numbers of polls
   and sometimes fail (in the loader or in an object's preload), checked at every step against a
   small reference model. Invariants:
     - never two operations on one level at once (begin only when unloaded, poll only while
       loading, before_unload only while resident, unload only after begin);
     - a hold level is resident iff it is held or within its unload delay (once it has loaded);
     - every object is discarded exactly once per load, children before parents, before the
       unload callback; the level's scope has ended by then and is alive while resident;
     - the set's live hold count is the model's, plus at most presentation's two;
     - once the presentation queue has drained (the update after: a level a presentation
       releases counts its delay, 0 here, from the next update), the presented level is resident
       and the other presentation level is not.
   NEXUS_MODEL_STEPS (default 1000000) and NEXUS_MODEL_SEED (default 1) set the run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <threadlink/content.h>
#include <threadlink/levels.h>
#include <threadlink/lifecycle.h>
#include <threadlink/glue.h>

#define M_HOLD_LEVELS 4  /* model levels 0..3: held and released by the test */
#define M_LEVELS 6       /* 4, 5: presented only */
#define M_ID(i) ((uint32_t)(i) + 1u) /* model level i's id (0 is no level) */
#define M_OBJECTS 3
#define M_MAX_HOLDS 64

typedef struct m_obj { uint32_t parent; int discards, fail; struct m_level *level; int index; } m_obj;

typedef struct m_level {
    /* what the loader saw */
    int loaded, loading, pending_polls, fail_load, finish_pending, before_pending;
    int object_count, given; /* given: the loader handed the objects over */
    m_obj objs[M_OBJECTS];
    /* the reference model */
    int holders, announced;
    double start, delay; /* the countdown's start (release or residency, the later) and length */
    long start_update;   /* w->updates then: the countdown runs in the updates after it */
    int ever_failed;
} m_level;

typedef struct m_world {
    uint64_t rng;
    tl_events reg;
    tl_content *content;
    tl_levels *set;
    m_level levels[M_LEVELS];
    tl_level_hold holds[M_MAX_HOLDS];
    int hold_count;
    double now;
    long updates;
    int quiet_updates; /* updates since the presentation queue drained */
} m_world;

static uint32_t m_rand(m_world *w, uint32_t n) {
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return (uint32_t)((w->rng >> 11) % n);
}
static m_level *m_of(m_world *w, const tl_level *level) {
    uint32_t id = tl_level_id(level);
    assert_true(id >= M_ID(0) && id < M_ID(M_LEVELS));
    return &w->levels[id - M_ID(0)];
}

/* --- objects -------------------------------------------------------------------------------- */

static tl_lifecycle_status m_obj_preload(void *self, void *ctx) {
    (void)ctx;
    return ((m_obj *)self)->fail ? TL_LIFECYCLE_FAILED : TL_LIFECYCLE_DONE;
}
static void m_obj_discard(void *self, void *ctx) {
    m_obj *o = (m_obj *)self;
    int i;
    (void)ctx;
    assert_true(o->level->loaded);      /* only between begin and unload */
    assert_int_equal(o->discards, 0);   /* once */
    for (i = 0; i < o->level->object_count; i++)
        if (o->level->objs[i].parent == (uint32_t)o->index) assert_int_equal(o->level->objs[i].discards, 1);
    o->discards++;
}
static const tl_lifecycle_object_vtable m_vtable = {"M", m_obj_preload, NULL, NULL, NULL, m_obj_discard, NULL};

/* --- the loader ------------------------------------------------------------------------------ */

static tl_levels_status m_finish_load(m_world *w, m_level *l, tl_level *level) {
    tl_lifecycle_object list[M_OBJECTS];
    int i;
    l->loading = 0;
    l->given = 1;
    for (i = 0; i < l->object_count; i++) {
        list[i].vtable = &m_vtable;
        list[i].self = &l->objs[i];
        list[i].name = NULL;
        list[i].parent = l->objs[i].parent;
    }
    assert_int_equal(tl_glue_level_set_objects(level, list, (uint32_t)l->object_count), TL_LEVELS_OK);
    (void)w;
    if (l->fail_load) {
        l->ever_failed = 1;
        return TL_LEVELS_FAILED;
    }
    return TL_LEVELS_DONE;
}

static tl_levels_status m_begin(void *ctx, tl_level *level) {
    m_world *w = (m_world *)ctx;
    m_level *l = m_of(w, level);
    int i;
    assert_false(l->loaded); /* operations never overlap */
    assert_true(tl_scope_valid(tl_glue_level_scope(level)));
    l->loaded = l->loading = 1;
    l->given = 0;
    l->pending_polls = (int)m_rand(w, 3);
    l->fail_load = m_rand(w, 8) == 0;
    l->finish_pending = (int)m_rand(w, 2);
    l->object_count = (int)m_rand(w, M_OBJECTS + 1);
    for (i = 0; i < l->object_count; i++) {
        l->objs[i].level = l;
        l->objs[i].index = i;
        l->objs[i].discards = 0;
        l->objs[i].fail = m_rand(w, 12) == 0;
        if (l->objs[i].fail) l->ever_failed = 1;
        l->objs[i].parent = i > 0 && m_rand(w, 2) ? m_rand(w, (uint32_t)i) : TL_LIFECYCLE_BATCH_NO_PARENT;
    }
    if (l->pending_polls > 0) return TL_LEVELS_PENDING;
    return m_finish_load(w, l, level);
}
static tl_levels_status m_poll(void *ctx, tl_level *level) {
    m_world *w = (m_world *)ctx;
    m_level *l = m_of(w, level);
    assert_true(l->loaded && l->loading);
    if (--l->pending_polls > 0) return TL_LEVELS_PENDING;
    return m_finish_load(w, l, level);
}
static tl_levels_status m_finished(void *ctx, tl_level *level) {
    m_level *l = m_of((m_world *)ctx, level);
    assert_true(l->loaded && !l->loading);
    if (l->finish_pending-- > 0) return TL_LEVELS_PENDING;
    return TL_LEVELS_DONE;
}
static tl_levels_status m_before(void *ctx, tl_level *level) {
    m_world *w = (m_world *)ctx;
    m_level *l = m_of(w, level);
    assert_true(l->loaded && !l->loading);
    l->announced = 0; /* unloading: no longer resident */
    if (l->before_pending == 0 && m_rand(w, 3) == 0) l->before_pending = 1 + (int)m_rand(w, 2);
    if (l->before_pending > 0) {
        l->before_pending--;
        if (l->before_pending > 0) return TL_LEVELS_PENDING;
    }
    return TL_LEVELS_DONE;
}
static void m_unload(void *ctx, tl_level *level) {
    m_level *l = m_of((m_world *)ctx, level);
    int i;
    assert_true(l->loaded);
    assert_false(tl_scope_valid(tl_glue_level_scope(level))); /* ended first */
    for (i = 0; i < l->object_count; i++) assert_int_equal(l->objs[i].discards, l->given);
    l->loaded = l->loading = 0;
}

static void m_on_resident(void *ctx, tl_level *level) {
    m_world *w = (m_world *)ctx;
    m_level *l = m_of(w, level);
    l->announced = 1;
    l->start = w->now; /* a countdown begun during the load starts now */
    l->start_update = w->updates;
}
static void m_on_unloading(void *ctx, tl_level *level) { m_of((m_world *)ctx, level)->announced = 0; }

/* --- steps and checks ------------------------------------------------------------------------ */

static void m_hold(m_world *w) {
    uint32_t id = m_rand(w, M_HOLD_LEVELS);
    if (w->hold_count == M_MAX_HOLDS) return;
    w->holds[w->hold_count++] = tl_levels_hold(w->set, M_ID(id));
    w->levels[id].holders++;
}

static void m_release(m_world *w) {
    uint32_t at;
    tl_level_hold hold;
    m_level *l;
    double delay = 0.0;
    bool live;
    if (w->hold_count == 0) return;
    at = m_rand(w, (uint32_t)w->hold_count);
    hold = w->holds[at];
    w->holds[at] = w->holds[--w->hold_count];
    l = &w->levels[tl_level_hold_level_id(hold) - M_ID(0)];
    live = tl_level_hold_status_of(hold) != TL_LEVEL_HOLD_FAILED;
    if (!live) {
        assert_non_null(tl_level_hold_reason(hold));
        assert_true(l->ever_failed);
    } else {
        l->holders--;
    }
    if (m_rand(w, 2)) {
        delay = 0.25 * (double)m_rand(w, 5);
        tl_level_hold_release_after(hold, delay);
    } else {
        tl_level_hold_release(hold); /* the level's own delay: 0 */
    }
    if (m_rand(w, 4) == 0) tl_level_hold_release(hold); /* twice: nothing */
    if (live && l->holders == 0) {
        l->start = w->now;
        l->start_update = w->updates;
        l->delay = delay;
    }
}

/* Failed holds no longer count: the model learns of a failure from the holds themselves. */
static void m_account_failures(m_world *w) {
    int i;
    int live[M_LEVELS] = {0};
    for (i = 0; i < w->hold_count; i++)
        if (tl_level_hold_status_of(w->holds[i]) != TL_LEVEL_HOLD_FAILED) live[tl_level_hold_level_id(w->holds[i]) - M_ID(0)]++;
    for (i = 0; i < M_HOLD_LEVELS; i++) w->levels[i].holders = live[i];
}

static void m_check_residency(m_world *w) {
    int i;
    for (i = 0; i < M_HOLD_LEVELS; i++) {
        m_level *l = &w->levels[i];
        bool resident = tl_levels_is_resident(w->set, M_ID(i));
        bool within = w->updates == l->start_update || w->now - l->start < l->delay;
        assert_int_equal(resident, l->announced);
        if (resident && l->holders == 0) assert_true(within);
        if (l->announced && (l->holders > 0 || within)) assert_true(resident);
        if (resident) assert_true(tl_scope_valid(tl_glue_level_scope(tl_levels_try_get(w->set, M_ID(i)))));
    }
    for (i = 0; i < w->hold_count; i++) {
        tl_level_hold_status status = tl_level_hold_status_of(w->holds[i]);
        assert_true(status != TL_LEVEL_HOLD_INVALID);
        if (status == TL_LEVEL_HOLD_RESIDENT) assert_true(tl_levels_is_resident(w->set, tl_level_hold_level_id(w->holds[i])));
    }
}

static void m_check_presentation(m_world *w) {
    uint32_t shown;
    if (tl_levels_presentations_pending(w->set) > 0) {
        w->quiet_updates = 0;
        return;
    }
    if (++w->quiet_updates < 2 || !tl_levels_presented(w->set, &shown)) return;
    assert_true(tl_levels_is_resident(w->set, shown));
    assert_false(tl_levels_is_resident(w->set, shown == M_ID(4) ? M_ID(5) : M_ID(4)));
}

static void m_update(m_world *w) {
    double dt = 0.25 * (double)m_rand(w, 3);
    w->now += dt;
    w->updates++;
    tl_levels_update(w->set, dt);
    m_account_failures(w);
    m_check_residency(w);
    m_check_presentation(w);
}

static void m_step(m_world *w) {
    uint32_t op = m_rand(w, 20);
    if (op < 6) m_hold(w);
    else if (op < 11) m_release(w);
    else if (op == 11) tl_levels_present(w->set, M_ID(4 + m_rand(w, 2)));
    else if (op == 12) tl_levels_transition(w->set, M_ID(4 + m_rand(w, 2)));
    else if (op == 13 && m_rand(w, 4) == 0) tl_levels_stop_presenting(w->set);
    else m_update(w);
    if (op >= 11 && op <= 13 && tl_levels_presentations_pending(w->set) > 0) w->quiet_updates = 0;
    {   /* the test's holds, plus presentation's: the presented level's and the one being shown */
        uint32_t holds = tl_levels_get_stats(w->set).holds;
        assert_true(holds >= (uint32_t)w->hold_count && holds <= (uint32_t)w->hold_count + 2u);
    }
}

static long m_env(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

static void test_levels_model_random_operations(void **state) {
    m_world *w = (m_world *)calloc(1, sizeof *w);
    tl_levels_desc desc;
    tl_content_desc cd;
    long steps = m_env("NEXUS_MODEL_STEPS", 1000000), i;
    int k;
    (void)state;
    assert_non_null(w);
    w->rng = (uint64_t)m_env("NEXUS_MODEL_SEED", 1) * 0x9E3779B97F4A7C15ull + 1u;
    assert_int_equal(tl_events_init_table(&w->reg, 18, NULL, NULL), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, 10, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(m_on_resident), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, 12, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(m_on_unloading), w), TL_EVENTS_OK);
    memset(&cd, 0, sizeof cd);
    cd.logger.min_level = TL_LOG_LEVEL_ERROR + 1; /* failures are expected: keep the run quiet */
    w->content = tl_content_create(&cd);
    memset(&desc, 0, sizeof desc);
    desc.loader.ctx = w;
    desc.loader.begin_load = m_begin;
    desc.loader.poll_load = m_poll;
    desc.loader.unload = m_unload;
    desc.loader.finished_loading = m_finished;
    desc.loader.before_unload = m_before;
    desc.registry = &w->reg;
    desc.objects = tl_glue_levels_objects();
    if (w->content) desc.scopes = tl_glue_levels_scopes(w->content);
    desc.logger = &cd.logger;
    w->set = tl_levels_create(&desc);
    assert_non_null(w->set);
    for (i = 0; i < steps; i++) m_step(w);
    tl_levels_shutdown(w->set);
    for (k = 0; k < M_LEVELS; k++) assert_false(w->levels[k].loaded); /* everything unloaded */
    assert_int_equal(tl_content_get_stats(w->content).scopes, 1);
    tl_levels_destroy(w->set);
    tl_content_shutdown(w->content);
    tl_events_discard(&w->reg);
    printf("set model: %ld steps, %.2f s of game time\n", steps, w->now);
    free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_levels_model_random_operations)};
    return cmocka_run_group_tests_name("set-model", tests, NULL, NULL);
}
