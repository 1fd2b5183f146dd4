/* Residency and presentation rules of levels.h, one test per rule, through a scripted loader
   (levels_harness.h) that traces every callback, object phase and event. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: stderr captured below */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "levels_harness.h"

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

static int setup(void **state) {
    *state = h_world_new(true);
    h_subscribe((h_world *)*state, true);
    return 0;
}
static int teardown(void **state) {
    h_world_free((h_world *)*state);
    return 0;
}
#define W h_world *w = (h_world *)*state

/* --- loading ------------------------------------------------------------------------------------ */

static void test_levels_sync_load_boots_then_initializes_before_resident(void **state) {
    W;
    tl_level_hold hold;
    h_script_objects(w, 1, 2);
    hold = tl_levels_hold(w->levels, 1);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_PENDING);
    assert_string_equal(w->trace, ""); /* holding never calls back */
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "begin1 loaded1 p1a p1b b1a b1b");
    assert_false(tl_levels_is_resident(w->levels, 1));
    assert_null(tl_levels_try_get(w->levels, 1));
    assert_int_equal(tl_levels_level_state(w->levels, 1), TL_LEVEL_LOADING);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "begin1 loaded1 p1a p1b b1a b1b i1a i1b finished1 resident1");
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_RESIDENT);
    assert_true(tl_levels_is_resident(w->levels, 1));
    assert_int_equal(tl_level_id(tl_levels_try_get(w->levels, 1)), 1);
    assert_int_equal(tl_level_hold_level_id(hold), 1);
    tl_level_hold_release(hold);
}

/* A level object's functions get the object as self and its level (tl_level *) as ctx. */
static void test_levels_objects_get_their_level_as_ctx(void **state) {
    W;
    tl_level_hold hold;
    const tl_level *level;
    int i, k;
    h_script_objects(w, 1, 2);
    hold = tl_levels_hold(w->levels, 1);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    level = tl_levels_try_get(w->levels, 1);
    assert_non_null(level);
    tl_level_hold_release(hold);
    tl_levels_update(w->levels, 0.016);
    for (i = 0; i < 2; i++)
        for (k = 0; k < 4; k++) assert_ptr_equal(w->scripts[1].objs[i].ctx[k], level);
}

static void test_levels_async_load_is_shared_by_holders_arriving_during_it(void **state) {
    W;
    tl_level_hold first, second;
    w->scripts[2].pending_loads = 2;
    first = tl_levels_hold(w->levels, 2);
    tl_levels_update(w->levels, 0.016);
    second = tl_levels_hold(w->levels, 2);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "begin2 poll2 poll2 loaded2 finished2 resident2");
    assert_int_equal(w->scripts[2].begins, 1);
    assert_int_equal(tl_levels_get_stats(w->levels).loads, 1);
    assert_int_equal(tl_level_hold_status_of(first), TL_LEVEL_HOLD_RESIDENT);
    assert_int_equal(tl_level_hold_status_of(second), TL_LEVEL_HOLD_RESIDENT);
    tl_level_hold_release(first);
    tl_level_hold_release(second);
}

static void test_levels_finished_loading_hook_is_awaited(void **state) {
    W;
    tl_level_hold hold;
    w->scripts[3].pending_finish = 2;
    hold = tl_levels_hold(w->levels, 3);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_PENDING);
    assert_false(tl_levels_is_resident(w->levels, 3));
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "begin3 loaded3 finished3 finished3 finished3 resident3");
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_RESIDENT);
    tl_level_hold_release(hold);
}

static void test_levels_failed_load_fails_every_waiting_hold_with_the_reason(void **state) {
    W;
    tl_level_hold a, b;
    h_script_objects(w, 4, 1);
    w->scripts[4].fail_load = 1;
    a = tl_levels_hold(w->levels, 4);
    b = tl_levels_hold(w->levels, 4);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(a), TL_LEVEL_HOLD_FAILED);
    assert_int_equal(tl_level_hold_status_of(b), TL_LEVEL_HOLD_FAILED);
    assert_string_equal(tl_level_hold_reason(a), "the file is missing");
    assert_string_equal(tl_level_hold_reason(b), "the file is missing");
    assert_int_equal(w->last_item, TL_LEVELS_LOG_LOAD_FAILED);
    assert_non_null(strstr(w->last_line, "level 4 failed to load: the file is missing"));
    /* Undone as an unload, without events: it never was resident. */
    assert_string_equal(w->trace, "begin4 d4a unload4"); /* its object too */
    assert_int_equal(tl_levels_level_state(w->levels, 4), TL_LEVEL_UNLOADED);
    assert_int_equal(tl_levels_get_stats(w->levels).active, 0);
    tl_level_hold_release(a);
    tl_level_hold_release(a); /* twice: nothing */
    assert_int_equal(tl_level_hold_status_of(a), TL_LEVEL_HOLD_INVALID);
    assert_null(tl_level_hold_reason(a));
    tl_level_hold_release(b);
    assert_int_equal(tl_levels_get_stats(w->levels).holds, 0);
    /* Held again, it loads again (and succeeds now). */
    w->scripts[4].fail_load = 0;
    a = tl_levels_hold(w->levels, 4);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(a), TL_LEVEL_HOLD_RESIDENT);
    assert_int_equal(w->scripts[4].begins, 2);
    tl_level_hold_release(a);
}

static void test_levels_failed_preloads_are_all_named_and_nothing_boots(void **state) {
    W;
    tl_level_hold hold;
    h_script *s = &w->scripts[5];
    h_script_objects(w, 5, 3);
    s->parents[1] = 0;
    s->parents[2] = 1;
    s->objs[0].fail = 1;
    s->objs[2].fail = 1;
    hold = tl_levels_hold(w->levels, 5);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_FAILED);
    assert_string_equal(tl_level_hold_reason(hold), "preload failed: 5a, 5c");
    /* Nothing booted; every object discarded once, children first; then the unload callback. */
    assert_string_equal(w->trace, "begin5 loaded5 p5a p5b p5c d5c d5b d5a unload5");
    assert_int_equal(s->objs[1].boots, 0);
    tl_level_hold_release(hold);
}

static void test_levels_pending_loader_without_poll_fails(void **state) {
    W;
    tl_levels_desc desc = h_desc(w);
    tl_levels *levels;
    tl_level_hold hold;
    desc.loader.poll_load = NULL;
    levels = tl_levels_create(&desc);
    w->scripts[6].pending_loads = 1;
    hold = tl_levels_hold(levels, 6);
    tl_levels_update(levels, 0.016);
    assert_string_equal(tl_level_hold_reason(hold), "the loader is pending and has no poll_load");
    tl_levels_destroy(levels);
}

/* With a levels domain's name function (generated: nexus_levels_name), log lines name the level
   ("?" for a value it does not know gives the number, as without one). */
static const char *level_names(uint32_t level) { return level == 6 ? "Meadow" : "?"; }
static void test_levels_log_lines_name_the_level(void **state) {
    W;
    tl_levels_desc desc = h_desc(w);
    tl_levels *levels;
    tl_level_hold hold, other;
    desc.loader.poll_load = NULL;
    desc.level_name = level_names;
    levels = tl_levels_create(&desc);
    w->scripts[6].pending_loads = 1;
    w->scripts[7].pending_loads = 1;
    hold = tl_levels_hold(levels, 6);
    tl_levels_update(levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_FAILED);
    assert_non_null(strstr(w->last_line, "level Meadow failed to load: the loader is pending"));
    other = tl_levels_hold(levels, 7);
    tl_levels_update(levels, 0.016);
    assert_int_equal(tl_level_hold_status_of(other), TL_LEVEL_HOLD_FAILED);
    assert_non_null(strstr(w->last_line, "level 7 failed to load: the loader is pending"));
    tl_levels_destroy(levels);
}

/* --- unloading ---------------------------------------------------------------------------------- */

static void test_levels_unload_follows_one_path(void **state) {
    W;
    tl_level_hold hold;
    h_script *s = &w->scripts[1];
    h_script_objects(w, 1, 3);
    s->parents[1] = 0;
    s->parents[2] = 0;
    hold = tl_levels_hold(w->levels, 1);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_true(tl_scope_valid(tl_glue_level_scope(tl_levels_try_get(w->levels, 1))));
    w->trace[0] = '\0';
    tl_level_hold_release(hold);
    assert_true(tl_levels_is_resident(w->levels, 1)); /* within its delay (0: until the next update) */
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "before1 unloading1 d1c d1b d1a unload1 unloaded1");
    assert_int_equal(s->undiscarded_at_unloading, 3); /* OnSceneUnloading saw every object */
    assert_false(s->scope_alive_at_unload);            /* the scope ended before the unload callback */
    assert_false(tl_levels_is_resident(w->levels, 1));
    assert_int_equal(tl_levels_get_stats(w->levels).resident, 0);
    assert_int_equal(tl_content_get_stats(w->content).scopes, 1); /* the root alone */
}

static void test_levels_unload_delay_per_level_and_hold_cancels_it(void **state) {
    W;
    tl_level_hold hold;
    assert_int_equal(tl_levels_set_unload_delay(w->levels, 2, 1.0), TL_LEVELS_OK);
    hold = tl_levels_hold(w->levels, 2);
    tl_levels_update(w->levels, 0.25);
    tl_level_hold_release(hold);
    tl_levels_update(w->levels, 0.5);
    assert_true(tl_levels_is_resident(w->levels, 2));
    hold = tl_levels_hold(w->levels, 2); /* cancels the countdown, no reload */
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_RESIDENT);
    tl_levels_update(w->levels, 5.0);
    assert_true(tl_levels_is_resident(w->levels, 2));
    tl_level_hold_release(hold); /* a new countdown of the full delay */
    tl_levels_update(w->levels, 0.5);
    assert_true(tl_levels_is_resident(w->levels, 2));
    tl_levels_update(w->levels, 0.5);
    assert_false(tl_levels_is_resident(w->levels, 2));
    assert_int_equal(w->scripts[2].begins, 1);
    assert_int_equal(w->scripts[2].unloads, 1);
    assert_int_equal(tl_levels_set_unload_delay(w->levels, 2, -1.0), TL_LEVELS_INVALID_ARGUMENT);
    assert_non_null(strstr(w->last_line, "tl_levels_set_unload_delay: invalid argument"));
}

static void test_levels_release_after_overrides_the_delay(void **state) {
    W;
    tl_level_hold hold = tl_levels_hold(w->levels, 3);
    tl_levels_update(w->levels, 0.016);
    tl_level_hold_release_after(hold, 2.0);
    tl_levels_update(w->levels, 1.5);
    assert_true(tl_levels_is_resident(w->levels, 3));
    tl_levels_update(w->levels, 0.5);
    assert_false(tl_levels_is_resident(w->levels, 3));
}

/* Updates of `dt` seconds, after the one that released it (done by the caller), until the level
   is no longer resident; 99 if it stays. */
static int updates_until_unloaded(h_world *w, uint32_t id, double dt) {
    int n = 0;
    while (tl_levels_is_resident(w->levels, id) && n < 99) {
        tl_levels_update(w->levels, dt);
        n++;
    }
    return n;
}

/* The unload delay counts from the first update after the release, whoever releases: game code
   between updates, or a presentation inside tl_levels_update (the seconds of the update that
   released it are time before the release). A delay of 0 unloads at the next update. */
static void test_levels_delay_counts_from_the_update_after_the_release(void **state) {
    W;
    static const double delays[] = {0.0, 1.0};
    static const int expected[] = {1, 2}; /* updates of 0.5 s after the release */
    size_t i;
    for (i = 0; i < 2; i++) {
        tl_level_hold game, other;
        /* Released by game code between two updates. */
        assert_int_equal(tl_levels_set_unload_delay(w->levels, 3, delays[i]), TL_LEVELS_OK);
        game = tl_levels_hold(w->levels, 3);
        tl_levels_update(w->levels, 0.5);
        tl_level_hold_release(game);
        assert_int_equal(updates_until_unloaded(w, 3, 0.5), expected[i]);
        /* Released by a presentation: level 1 presented, then level 2 (already resident, so that
           it is shown, and level 1 released, inside the next update). */
        assert_int_equal(tl_levels_set_unload_delay(w->levels, 1, delays[i]), TL_LEVELS_OK);
        assert_int_equal(tl_levels_present(w->levels, 1), TL_LEVELS_OK);
        tl_levels_update(w->levels, 0.5);
        tl_levels_update(w->levels, 0.5);
        other = tl_levels_hold(w->levels, 2);
        tl_levels_update(w->levels, 0.5);
        assert_int_equal(tl_levels_present(w->levels, 2), TL_LEVELS_OK);
        tl_levels_update(w->levels, 0.5); /* shows 2, releases 1 */
        assert_int_equal(tl_levels_presentations_pending(w->levels), 0);
        assert_true(tl_levels_is_resident(w->levels, 1)); /* released in this update: counts from the next */
        assert_int_equal(updates_until_unloaded(w, 1, 0.5), expected[i]);
        assert_int_equal(tl_levels_stop_presenting(w->levels), TL_LEVELS_OK);
        tl_level_hold_release(other);
        tl_levels_update(w->levels, 0.5);
        tl_levels_update(w->levels, 0.5);
        assert_false(tl_levels_is_resident(w->levels, 2));
    }
}

static void test_levels_release_twice_does_nothing(void **state) {
    W;
    tl_level_hold a = tl_levels_hold(w->levels, 1), b = tl_levels_hold(w->levels, 1), zero;
    memset(&zero, 0, sizeof zero);
    tl_levels_update(w->levels, 0.016);
    tl_level_hold_release(a);
    tl_level_hold_release(a);
    tl_level_hold_release(zero);
    tl_levels_update(w->levels, 0.016);
    assert_true(tl_levels_is_resident(w->levels, 1)); /* b still holds it */
    assert_int_equal(tl_levels_get_stats(w->levels).holds, 1);
    tl_level_hold_release(b);
    tl_levels_update(w->levels, 0.016);
    assert_false(tl_levels_is_resident(w->levels, 1));
}

static void test_levels_hold_during_unload_waits_then_loads_again(void **state) {
    W;
    tl_level_hold hold = tl_levels_hold(w->levels, 4);
    w->scripts[4].pending_before = 1;
    tl_levels_update(w->levels, 0.016);
    tl_level_hold_release(hold);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_levels_level_state(w->levels, 4), TL_LEVEL_UNLOADING);
    assert_false(tl_levels_is_resident(w->levels, 4)); /* unloading: not resident */
    assert_null(tl_levels_try_get(w->levels, 4));
    hold = tl_levels_hold(w->levels, 4);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_PENDING);
    w->trace[0] = '\0';
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "before4 unloading4 unload4 unloaded4 begin4 loaded4 finished4 resident4");
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_RESIDENT);
    assert_int_equal(w->scripts[4].begins, 2);
    tl_level_hold_release(hold);
}

static void test_levels_release_during_load_unloads_after_it(void **state) {
    W;
    tl_level_hold hold;
    w->scripts[5].pending_loads = 1;
    hold = tl_levels_hold(w->levels, 5);
    tl_levels_update(w->levels, 0.016);
    tl_level_hold_release_after(hold, 0.5);
    tl_levels_update(w->levels, 0.016); /* the load completes: resident, its delay starts */
    assert_true(tl_levels_is_resident(w->levels, 5));
    tl_levels_update(w->levels, 0.25);
    assert_true(tl_levels_is_resident(w->levels, 5));
    tl_levels_update(w->levels, 0.25);
    assert_false(tl_levels_is_resident(w->levels, 5));
}

static void test_levels_idle_resident_levels_are_not_visited(void **state) {
    W;
    tl_level_hold holds[6];
    uint32_t i;
    for (i = 0; i < 6; i++) holds[i] = tl_levels_hold(w->levels, i + 1); /* (0 is no level) */
    assert_int_equal(tl_levels_get_stats(w->levels).active, 6);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_levels_get_stats(w->levels).resident, 6);
    assert_int_equal(tl_levels_get_stats(w->levels).active, 0);
    for (i = 0; i < 6; i++) tl_level_hold_release(holds[i]);
}

/* --- scopes ---------------------------------------------------------------------------------------- */

static void test_levels_level_scope_and_moved_entity(void **state) {
    W;
    tl_level_hold field = tl_levels_hold(w->levels, 1), town = tl_levels_hold(w->levels, 2);
    tl_scope fs, ts, npc;
    tl_levels_update(w->levels, 0.016);
    fs = tl_glue_level_scope(tl_levels_try_get(w->levels, 1));
    ts = tl_glue_level_scope(tl_levels_try_get(w->levels, 2));
    assert_true(tl_scope_valid(fs));
    assert_int_equal(tl_scope_get_kind(fs), TL_SCOPE_LEVEL);
    assert_string_equal(tl_scope_name(fs), "Level 1");
    npc = tl_scope_create(fs, "Npc", TL_SCOPE_ENTITY);
    assert_int_equal(tl_scope_reparent(npc, ts), TL_CONTENT_OK); /* it walks into town */
    tl_level_hold_release(field);
    tl_levels_update(w->levels, 0.016);
    assert_false(tl_scope_valid(fs));
    assert_true(tl_scope_valid(npc));
    tl_level_hold_release(town);
    tl_levels_update(w->levels, 0.016);
    assert_false(tl_scope_valid(npc)); /* it ended with its new level */
}

/* --- reentrancy, shutdown ----------------------------------------------------------------------- */

static tl_levels_status reentrant_begin(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    tl_level_hold other;
    tl_levels_update(tl_level_owner(level), 0.0);   /* refused */
    tl_levels_destroy(tl_level_owner(level));       /* refused */
    other = tl_levels_hold(tl_level_owner(level), 7); /* allowed */
    h_trace(w, "begin%u", tl_level_id(level));
    tl_level_hold_release(other);
    return TL_LEVELS_DONE;
}

static void test_levels_callbacks_may_hold_but_not_update(void **state) {
    W;
    tl_levels_desc desc = h_desc(w);
    tl_levels *levels;
    tl_level_hold hold;
    desc.loader.begin_load = reentrant_begin;
    levels = tl_levels_create(&desc);
    hold = tl_levels_hold(levels, 1);
    w->records = 0;
    tl_levels_update(levels, 0.016);
    assert_int_equal(w->records, 2);
    assert_int_equal(w->last_item, TL_LEVELS_LOG_REENTRANT_CALL);
    assert_int_equal(tl_level_hold_status_of(hold), TL_LEVEL_HOLD_RESIDENT);
    tl_level_hold_release(hold);
    tl_levels_destroy(levels);
}

typedef struct shut_sub {
    h_world *w;
} shut_sub;
static void shut_sub_discard(void *self, tl_lifecycle *core) {
    (void)core;
    h_trace(((shut_sub *)self)->w, "subsystem-discard");
}
static const tl_lifecycle_subsystem shut_subsystem = {"Registry", NULL, NULL, NULL, shut_sub_discard};

static void test_levels_core_discard_unloads_levels_before_subsystems(void **state) {
    W;
    tl_lifecycle core;
    tl_lifecycle_desc cdesc;
    tl_levels_desc desc = h_desc(w);
    tl_levels *levels;
    shut_sub sub;
    tl_level_hold resident, loading;
    sub.w = w;
    memset(&cdesc, 0, sizeof cdesc);
    cdesc.logger = &w->logger;
    assert_int_equal(tl_lifecycle_init(&core, &cdesc), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_weave(&core, &shut_subsystem, &sub), TL_LIFECYCLE_OK);
    while (tl_lifecycle_deploy(&core) == TL_LIFECYCLE_DEPLOY_PENDING) {}
    levels = tl_levels_create(&desc);
    assert_int_equal(tl_glue_levels_attach(&core, levels), TL_LIFECYCLE_OK);
    h_script_objects(w, 1, 1);
    w->scripts[2].pending_loads = 5;
    resident = tl_levels_hold(levels, 1);
    tl_levels_update(levels, 0.016);
    tl_levels_update(levels, 0.016);
    loading = tl_levels_hold(levels, 2);
    tl_levels_update(levels, 0.016);
    w->trace[0] = '\0';
    tl_lifecycle_discard(&core);
    assert_string_equal(w->trace,
                        "before1 unloading1 d1a unload1 unloaded1 unload2 subsystem-discard");
    assert_int_equal(tl_level_hold_status_of(resident), TL_LEVEL_HOLD_INVALID);
    assert_int_equal(tl_level_hold_status_of(loading), TL_LEVEL_HOLD_INVALID);
    assert_int_equal(tl_levels_last_result(levels), TL_LEVELS_OK); /* the holds above were made */
    assert_int_equal(tl_levels_hold(levels, 1).levels, NULL); /* refused after shutdown */
    /* The failure's result, its message and its log line, as levels.h's table says. */
    assert_int_equal(tl_levels_last_result(levels), TL_LEVELS_SHUT_DOWN);
    assert_string_equal(tl_levels_result_message(TL_LEVELS_SHUT_DOWN), "the level set is shut down");
    assert_int_equal(w->last_item, TL_LEVELS_LOG_SHUT_DOWN);
    assert_non_null(strstr(w->last_line, "Levels: error: tl_levels_hold: the level set is shut down"));
    assert_int_equal(tl_levels_present(levels, 1), TL_LEVELS_SHUT_DOWN);
    assert_non_null(strstr(w->last_line, "presentation: the level set is shut down"));
    tl_levels_destroy(levels);
}

/* 0 is no level (a levels domain's reserved None; what tl_level_hold_level_id and
   tl_levels_presented answer for none): holding, presenting or delaying it is refused. */
static void test_levels_level_zero_is_refused(void **state) {
    W;
    tl_level_hold hold = tl_levels_hold(w->levels, 0);
    assert_null(hold.levels);
    assert_int_equal(tl_levels_last_result(w->levels), TL_LEVELS_INVALID_ARGUMENT);
    assert_int_equal(w->last_item, TL_LEVELS_LOG_INVALID_ARGUMENT);
    assert_non_null(strstr(w->last_line, "tl_levels_hold (level 0 is no level: the reserved None)"));
    assert_int_equal(tl_levels_present(w->levels, 0), TL_LEVELS_INVALID_ARGUMENT);
    assert_int_equal(tl_levels_transition(w->levels, 0), TL_LEVELS_INVALID_ARGUMENT);
    assert_int_equal(tl_levels_presentations_pending(w->levels), 0);
    assert_int_equal(tl_levels_set_unload_delay(w->levels, 0, 1.0), TL_LEVELS_INVALID_ARGUMENT);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, ""); /* nothing loaded */
    assert_int_equal(tl_levels_get_stats(w->levels).levels, 0);
    hold = tl_levels_hold(w->levels, 1); /* and the next hold is made */
    assert_int_equal(tl_levels_last_result(w->levels), TL_LEVELS_OK);
    tl_level_hold_release(hold);
}

static void test_levels_destroy_before_the_core_unregisters(void **state) {
    W;
    tl_lifecycle core;
    tl_levels_desc desc = h_desc(w);
    tl_levels *levels;
    assert_int_equal(tl_lifecycle_init(&core, NULL), TL_LIFECYCLE_OK);
    levels = tl_levels_create(&desc);
    assert_int_equal(tl_glue_levels_attach(&core, levels), TL_LIFECYCLE_OK);
    tl_glue_levels_detach(&core, levels);
    tl_levels_destroy(levels);
    tl_lifecycle_discard(&core); /* no hook left to call into freed memory (ASan would see it) */
    assert_int_equal(core.hook_count, 0);
}

/* --- presentation ------------------------------------------------------------------------------- */

static void test_levels_present_holds_shows_then_releases_the_previous(void **state) {
    W;
    uint32_t shown = 0;
    tl_level_hold kept;
    assert_int_equal(tl_levels_present(w->levels, 1), TL_LEVELS_OK);
    tl_levels_update(w->levels, 0.016); /* loads */
    tl_levels_update(w->levels, 0.016); /* shows */
    assert_true(tl_levels_presented(w->levels, &shown));
    assert_int_equal(shown, 1);
    kept = tl_levels_hold(w->levels, 1); /* another system holds level 1 too */
    assert_int_equal(tl_levels_present(w->levels, 2), TL_LEVELS_OK);
    w->trace[0] = '\0';
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "begin2 loaded2 finished2 resident2 presented2");
    assert_true(tl_levels_is_resident(w->levels, 1)); /* still held by the other system */
    assert_int_equal(tl_levels_present(w->levels, 3), TL_LEVELS_OK);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_false(tl_levels_is_resident(w->levels, 2)); /* held only by presentation: unloaded */
    assert_int_equal(tl_levels_stop_presenting(w->levels), TL_LEVELS_OK);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_false(tl_levels_presented(w->levels, &shown));
    assert_false(tl_levels_is_resident(w->levels, 3));
    tl_level_hold_release(kept);
}

static void test_levels_transition_waits_for_each_provider(void **state) {
    W;
    w->provider_pending[0] = 1; /* the fader takes a frame */
    w->provider_pending[3] = 1;
    assert_int_equal(tl_levels_transition(w->levels, 1), TL_LEVELS_OK);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "fader+...");
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "fader+... fader+ loading+ begin1 loaded1 finished1 resident1");
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "fader+... fader+ loading+ begin1 loaded1 finished1 resident1 presented1 "
                                  "loading- fader-...");
    assert_int_equal(tl_levels_presentations_pending(w->levels), 1);
    tl_levels_update(w->levels, 0.016);
    assert_int_equal(tl_levels_presentations_pending(w->levels), 0);
    assert_non_null(strstr(w->trace, "fader-... fader-"));
}

static void test_levels_presentations_run_in_call_order(void **state) {
    W;
    uint32_t shown = 0;
    int i;
    assert_int_equal(tl_levels_present(w->levels, 1), TL_LEVELS_OK);
    assert_int_equal(tl_levels_transition(w->levels, 2), TL_LEVELS_OK);
    assert_int_equal(tl_levels_present(w->levels, 3), TL_LEVELS_OK);
    for (i = 0; i < 10; i++) tl_levels_update(w->levels, 0.016);
    assert_true(tl_levels_presented(w->levels, &shown));
    assert_int_equal(shown, 3);
    {
        const char *p1 = strstr(w->trace, "presented1"), *p2 = strstr(w->trace, "presented2");
        const char *p3 = strstr(w->trace, "presented3"), *f = strstr(w->trace, "fader+");
        assert_true(p1 && f && p2 && p3 && p1 < f && f < p2 && p2 < p3);
    }
    assert_false(tl_levels_is_resident(w->levels, 1));
    assert_false(tl_levels_is_resident(w->levels, 2));
}

static void test_levels_failed_presentation_keeps_the_previous_level(void **state) {
    W;
    uint32_t shown = 0;
    int i;
    assert_int_equal(tl_levels_present(w->levels, 1), TL_LEVELS_OK);
    w->scripts[2].fail_load = 1;
    assert_int_equal(tl_levels_transition(w->levels, 2), TL_LEVELS_OK);
    for (i = 0; i < 6; i++) tl_levels_update(w->levels, 0.016);
    assert_true(tl_levels_presented(w->levels, &shown));
    assert_int_equal(shown, 1);
    assert_true(tl_levels_is_resident(w->levels, 1));
    assert_non_null(strstr(w->trace, "loading- fader-")); /* the screens were hidden again */
    assert_int_equal(tl_levels_presentations_pending(w->levels), 0);
}

/* The providers of a transition are told which level it brings in: they get the levels, and
   tl_levels_presenting names the running presentation's level (none for a stop). */
static void record_presenting(h_world *w, const char *step) {
    uint32_t level = 0;
    if (tl_levels_presenting(w->levels, &level)) h_trace(w, "%s(%u)", step, level);
    else h_trace(w, "%s(none)", step);
}
static bool p_display_fader(void *ctx, tl_levels *n) { (void)n; record_presenting((h_world *)ctx, "fader+"); return true; }
static bool p_display_loading(void *ctx, tl_levels *n) { (void)n; record_presenting((h_world *)ctx, "loading+"); return true; }
static bool p_hide_loading(void *ctx, tl_levels *n) { (void)n; record_presenting((h_world *)ctx, "loading-"); return true; }
static bool p_hide_fader(void *ctx, tl_levels *n) { (void)n; record_presenting((h_world *)ctx, "fader-"); return true; }

static void test_levels_transition_providers_know_the_level(void **state) {
    h_world *w = h_world_new(true);
    uint32_t level = 0;
    (void)state;
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.display_fader, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(p_display_fader), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.display_loading_screen, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(p_display_loading), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.hide_loading_screen, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(p_hide_loading), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.hide_fader, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(p_hide_fader), w), TL_EVENTS_OK);
    assert_false(tl_levels_presenting(w->levels, &level));
    assert_int_equal(tl_levels_transition(w->levels, 5), TL_LEVELS_OK);
    assert_true(tl_levels_presenting(w->levels, &level));
    assert_int_equal(level, 5);
    tl_levels_update(w->levels, 0.016);
    tl_levels_update(w->levels, 0.016);
    assert_string_equal(w->trace, "fader+(5) loading+(5) begin5 finished5 loading-(5) fader-(5)");
    assert_false(tl_levels_presenting(w->levels, &level));
    assert_int_equal(tl_levels_stop_presenting(w->levels), TL_LEVELS_OK);
    assert_false(tl_levels_presenting(w->levels, &level));
    assert_int_equal(level, 0);
    tl_levels_update(w->levels, 0.016);
    h_world_free(w);
}

/* A transition whose fader or loading-screen events have no provider runs those steps as done
   (the seed requires exactly one provider): a warning names each missing one, once per levels;
   a present, which has no such steps, says nothing. */
static void test_levels_transition_without_providers_warns_once(void **state) {
    h_world *w = h_world_new(true);
    uint32_t shown = 0;
    int i;
    (void)state;
    h_subscribe(w, false);
    assert_int_equal(tl_levels_present(w->levels, 1), TL_LEVELS_OK);
    for (i = 0; i < 3; i++) tl_levels_update(w->levels, 0.016);
    assert_int_equal(w->records, 0);
    assert_int_equal(tl_levels_transition(w->levels, 2), TL_LEVELS_OK);
    for (i = 0; i < 3; i++) tl_levels_update(w->levels, 0.016);
    assert_true(tl_levels_presented(w->levels, &shown));
    assert_int_equal(shown, 2);
    assert_int_equal(w->records, 4); /* fader, loading screen, and their hiding */
    assert_int_equal(w->last_item, TL_LEVELS_LOG_NO_PROVIDER);
    assert_non_null(strstr(w->last_line, "OnHideFader"));
    assert_non_null(strstr(w->last_line, "level 2"));
    assert_int_equal(tl_levels_transition(w->levels, 3), TL_LEVELS_OK);
    for (i = 0; i < 3; i++) tl_levels_update(w->levels, 0.016);
    assert_true(tl_levels_presented(w->levels, &shown));
    assert_int_equal(shown, 3);
    assert_int_equal(w->records, 4); /* once */
    h_world_free(w);
}

/* --- the native events file: levels.h's rows follow lifecycle.h's nine ----------------------------- */

static void test_levels_native_events_file_matches_the_runtime(void **state) {
    static const char *expected[9][2] = {
        {"OnSceneLoaded", "(tl_level *)"}, {"OnSceneResident", "(tl_level *)"},
        {"OnScenePresented", "(tl_level *)"}, {"OnSceneUnloading", "(tl_level *)"},
        {"OnSceneUnloaded", "(uint32_t)"}, {"OnDisplayFader", "(tl_levels *)->bool"},
        {"OnDisplayLoadingScreen", "(tl_levels *)->bool"}, {"OnHideLoadingScreen", "(tl_levels *)->bool"},
        {"OnHideFader", "(tl_levels *)->bool"},
    };
    const uint32_t signatures[9] = {TL_LEVELS_SIG_LEVEL, TL_LEVELS_SIG_LEVEL, TL_LEVELS_SIG_LEVEL,
                                    TL_LEVELS_SIG_LEVEL, TL_LEVELS_SIG_ID, TL_LEVELS_SIG_PROVIDER,
                                    TL_LEVELS_SIG_PROVIDER, TL_LEVELS_SIG_PROVIDER, TL_LEVELS_SIG_PROVIDER};
    const tl_levels_events native = TL_LEVELS_EVENTS_NATIVE;
    const uint32_t ordinals[9] = {native.scene_loaded, native.scene_resident, native.scene_presented,
                                  native.scene_unloading, native.scene_unloaded, native.display_fader,
                                  native.display_loading_screen, native.hide_loading_screen, native.hide_fader};
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
        if (n++ < 9) continue; /* lifecycle.h's */
        if (n == 19) break;    /* platform.h's follow (tests/platform checks them) */
        paren = strchr(line, '(');
        assert_non_null(paren);
        *paren = '\0';
        assert_string_equal(line, expected[n - 10][0]);
        *paren = '(';
        assert_string_equal(paren, expected[n - 10][1]);
        assert_int_equal(tl_hash32(paren, strlen(paren), 0), signatures[n - 10]);
        assert_int_equal(ordinals[n - 10], (uint32_t)(n - 1));
    }
    fclose(file);
    assert_int_equal(n, 19);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

/* tl_levels_create(NULL) has no logger to use: stderr says the desc is missing, not the loader. */
static void test_levels_create_without_a_desc_says_so(void **state) {
    char buffer[256];
    FILE *tmp = tmpfile();
    int saved = dup(fileno(stderr));
    size_t n;
    (void)state;
    assert_non_null(tmp);
    assert_true(saved >= 0);
    fflush(stderr);
    assert_true(dup2(fileno(tmp), fileno(stderr)) >= 0);
    assert_null(tl_levels_create(NULL));
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    rewind(tmp);
    n = fread(buffer, 1, sizeof buffer - 1, tmp);
    buffer[n] = '\0';
    fclose(tmp);
    assert_string_equal(buffer, "Levels: error: tl_levels_create (no desc): invalid argument\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_levels_sync_load_boots_then_initializes_before_resident),
        T(test_levels_objects_get_their_level_as_ctx),
        T(test_levels_async_load_is_shared_by_holders_arriving_during_it),
        T(test_levels_finished_loading_hook_is_awaited),
        T(test_levels_failed_load_fails_every_waiting_hold_with_the_reason),
        T(test_levels_failed_preloads_are_all_named_and_nothing_boots),
        T(test_levels_pending_loader_without_poll_fails),
        T(test_levels_log_lines_name_the_level),
        T(test_levels_unload_follows_one_path),
        T(test_levels_unload_delay_per_level_and_hold_cancels_it),
        T(test_levels_release_after_overrides_the_delay),
        T(test_levels_delay_counts_from_the_update_after_the_release),
        T(test_levels_release_twice_does_nothing),
        T(test_levels_hold_during_unload_waits_then_loads_again),
        T(test_levels_release_during_load_unloads_after_it),
        T(test_levels_idle_resident_levels_are_not_visited),
        T(test_levels_level_scope_and_moved_entity),
        T(test_levels_callbacks_may_hold_but_not_update),
        T(test_levels_core_discard_unloads_levels_before_subsystems),
        T(test_levels_level_zero_is_refused),
        T(test_levels_destroy_before_the_core_unregisters),
        T(test_levels_present_holds_shows_then_releases_the_previous),
        T(test_levels_transition_waits_for_each_provider),
        T(test_levels_presentations_run_in_call_order),
        T(test_levels_failed_presentation_keeps_the_previous_level),
        T(test_levels_transition_without_providers_warns_once),
        T(test_levels_transition_providers_know_the_level),
        T(test_levels_native_events_file_matches_the_runtime),
        cmocka_unit_test(test_levels_create_without_a_desc_says_so),
    };
    return cmocka_run_group_tests_name("levels", tests, NULL, NULL);
}
