/* A scripted loader, objects that trace their lifecycle, and listeners of the levels events: the
   fixture of tests/levels. Everything that happens is appended to w->trace. */
#ifndef NEXUS_HARNESS_H
#define NEXUS_HARNESS_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/content.h>
#include <threadlink/levels.h>
#include <threadlink/lifecycle.h>
#include <threadlink/glue.h>

#define H_LEVELS 8
#define H_OBJECTS 4

typedef struct h_world h_world;

typedef struct h_obj {
    h_world *w;
    char name[8];
    int fail;       /* preload fails */
    int discards;
    int boots;
    const void *ctx[4]; /* the ctx each function got: preload, boot, initialize, discard */
} h_obj;

/* What the loader does for one level id (0..H_LEVELS-1). */
typedef struct h_script {
    int pending_loads;     /* poll_load answers PENDING this many times */
    int fail_load;
    int pending_finish;    /* finished_loading answers PENDING this many times */
    int pending_before;    /* before_unload answers PENDING this many times (each unload) */
    int object_count;
    uint32_t parents[H_OBJECTS];
    h_obj objs[H_OBJECTS];
    int begins, unloads, before_calls;
    int scope_alive_at_unload; /* the level's scope seen from the unload callback */
    int undiscarded_at_unloading; /* objects not yet discarded when OnSceneUnloading ran */
} h_script;

struct h_world {
    tl_events reg;
    tl_logger logger;
    tl_content *content;
    tl_levels *levels;
    h_script scripts[H_LEVELS];
    char trace[4096];
    int records;
    uint32_t last_item;
    char last_line[TL_LOG_LINE_MAX];
    int provider_pending[4]; /* fader/loading screen providers: PENDING this many times */
};

static void h_trace(h_world *w, const char *fmt, ...) {
    size_t used = strlen(w->trace);
    va_list args;
    if (used + 2 >= sizeof w->trace) return;
    if (used) w->trace[used++] = ' ';
    va_start(args, fmt);
    vsnprintf(w->trace + used, sizeof w->trace - used, fmt, args);
    va_end(args);
}

static void h_capture(void *user, const tl_log_record *record) {
    h_world *w = (h_world *)user;
    w->records++;
    w->last_item = record->item;
    snprintf(w->last_line, sizeof w->last_line, "%s", record->line);
}

static h_script *h_script_of(h_world *w, const tl_level *level) {
    uint32_t id = tl_level_id(level);
    return &w->scripts[id % H_LEVELS];
}

/* --- objects ------------------------------------------------------------------------------------ */

static tl_lifecycle_status h_obj_preload(void *self, void *ctx) {
    h_obj *o = (h_obj *)self;
    o->ctx[0] = ctx;
    h_trace(o->w, "p%s", o->name);
    return o->fail ? TL_LIFECYCLE_FAILED : TL_LIFECYCLE_DONE;
}
static void h_obj_boot(void *self, void *ctx) {
    h_obj *o = (h_obj *)self;
    o->ctx[1] = ctx;
    o->boots++;
    h_trace(o->w, "b%s", o->name);
}
static void h_obj_initialize(void *self, void *ctx) {
    h_obj *o = (h_obj *)self;
    o->ctx[2] = ctx;
    h_trace(o->w, "i%s", o->name);
}
static void h_obj_discard(void *self, void *ctx) {
    h_obj *o = (h_obj *)self;
    o->ctx[3] = ctx;
    o->discards++;
    h_trace(o->w, "d%s", o->name);
}
static const tl_lifecycle_object_vtable h_obj_vtable = {"Obj", h_obj_preload, NULL, h_obj_boot, h_obj_initialize,
                                              h_obj_discard, NULL};

/* --- the loader ----------------------------------------------------------------------------------- */

static tl_levels_status h_give_objects(h_world *w, tl_level *level) {
    h_script *s = h_script_of(w, level);
    tl_lifecycle_object list[H_OBJECTS];
    int i;
    for (i = 0; i < s->object_count; i++) {
        list[i].vtable = &h_obj_vtable;
        list[i].self = &s->objs[i];
        list[i].name = s->objs[i].name;
        list[i].parent = s->parents[i];
    }
    assert_int_equal(tl_glue_level_set_objects(level, list, (uint32_t)s->object_count), TL_LEVELS_OK);
    if (s->fail_load) {
        tl_level_fail(level, "the file is missing");
        return TL_LEVELS_FAILED;
    }
    return TL_LEVELS_DONE;
}

static tl_levels_status h_begin(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    s->begins++;
    h_trace(w, "begin%u", tl_level_id(level));
    if (s->pending_loads > 0) return TL_LEVELS_PENDING;
    return h_give_objects(w, level);
}
static tl_levels_status h_poll(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    h_trace(w, "poll%u", tl_level_id(level));
    if (--s->pending_loads > 0) return TL_LEVELS_PENDING;
    return h_give_objects(w, level);
}
static void h_unload(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    s->unloads++;
    s->scope_alive_at_unload = tl_scope_valid(tl_glue_level_scope(level));
    h_trace(w, "unload%u", tl_level_id(level));
}
static tl_levels_status h_finished(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    h_trace(w, "finished%u", tl_level_id(level));
    if (s->pending_finish > 0) {
        s->pending_finish--;
        return TL_LEVELS_PENDING;
    }
    return TL_LEVELS_DONE;
}
static tl_levels_status h_before(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    s->before_calls++;
    h_trace(w, "before%u", tl_level_id(level));
    if (s->pending_before > 0) {
        s->pending_before--;
        return TL_LEVELS_PENDING;
    }
    return TL_LEVELS_DONE;
}

/* --- events ------------------------------------------------------------------------------------- */

static const tl_levels_events h_events = TL_LEVELS_EVENTS_NATIVE;

static void h_on_loaded(void *ctx, tl_level *level) {
    h_trace((h_world *)ctx, "loaded%u", tl_level_id(level));
}
static void h_on_resident(void *ctx, tl_level *level) {
    h_trace((h_world *)ctx, "resident%u", tl_level_id(level));
}
static void h_on_presented(void *ctx, tl_level *level) {
    h_trace((h_world *)ctx, "presented%u", tl_level_id(level));
}
static void h_on_unloading(void *ctx, tl_level *level) {
    h_world *w = (h_world *)ctx;
    h_script *s = h_script_of(w, level);
    int i;
    s->undiscarded_at_unloading = 0;
    for (i = 0; i < s->object_count; i++) s->undiscarded_at_unloading += s->objs[i].discards == 0;
    h_trace(w, "unloading%u", tl_level_id(level));
}
static void h_on_unloaded(void *ctx, uint32_t id) { h_trace((h_world *)ctx, "unloaded%u", id); }

static bool h_provider(h_world *w, int which, const char *name) {
    if (w->provider_pending[which] > 0) {
        w->provider_pending[which]--;
        h_trace(w, "%s...", name);
        return false;
    }
    h_trace(w, "%s", name);
    return true;
}
static bool h_display_fader(void *ctx, tl_levels *n) { (void)n; return h_provider((h_world *)ctx, 0, "fader+"); }
static bool h_display_loading(void *ctx, tl_levels *n) { (void)n; return h_provider((h_world *)ctx, 1, "loading+"); }
static bool h_hide_loading(void *ctx, tl_levels *n) { (void)n; return h_provider((h_world *)ctx, 2, "loading-"); }
static bool h_hide_fader(void *ctx, tl_levels *n) { (void)n; return h_provider((h_world *)ctx, 3, "fader-"); }

static void h_subscribe(h_world *w, bool providers) {
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.scene_loaded, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(h_on_loaded), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.scene_resident, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(h_on_resident), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.scene_presented, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(h_on_presented), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.scene_unloading, TL_LEVELS_SIG_LEVEL, 0, TL_EVENTS_FN(h_on_unloading), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.scene_unloaded, TL_LEVELS_SIG_ID, 0, TL_EVENTS_FN(h_on_unloaded), w), TL_EVENTS_OK);
    if (!providers) return;
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.display_fader, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(h_display_fader), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.display_loading_screen, TL_LEVELS_SIG_PROVIDER,
                                  TL_EVENTS_SINGLE_PROVIDER, TL_EVENTS_FN(h_display_loading), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.hide_loading_screen, TL_LEVELS_SIG_PROVIDER,
                                  TL_EVENTS_SINGLE_PROVIDER, TL_EVENTS_FN(h_hide_loading), w), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, h_events.hide_fader, TL_LEVELS_SIG_PROVIDER, TL_EVENTS_SINGLE_PROVIDER,
                                  TL_EVENTS_FN(h_hide_fader), w), TL_EVENTS_OK);
}

/* Level i has objects named "<i>a", "<i>b", ... with the given count, no parents. */
static void h_script_objects(h_world *w, uint32_t level, int count) {
    h_script *s = &w->scripts[level % H_LEVELS];
    int i;
    s->object_count = count;
    for (i = 0; i < count; i++) {
        memset(&s->objs[i], 0, sizeof s->objs[i]);
        s->objs[i].w = w;
        snprintf(s->objs[i].name, sizeof s->objs[i].name, "%u%c", level, 'a' + i);
        s->parents[i] = TL_LIFECYCLE_BATCH_NO_PARENT;
    }
}

static tl_levels_desc h_desc(h_world *w) {
    tl_levels_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.loader.ctx = w;
    desc.loader.begin_load = h_begin;
    desc.loader.poll_load = h_poll;
    desc.loader.unload = h_unload;
    desc.loader.finished_loading = h_finished;
    desc.loader.before_unload = h_before;
    desc.registry = &w->reg;
    desc.logger = &w->logger;
    desc.objects = tl_glue_levels_objects();
    if (w->content) desc.scopes = tl_glue_levels_scopes(w->content);
    return desc;
}

static h_world *h_world_new(bool with_content) {
    h_world *w = (h_world *)calloc(1, sizeof *w);
    tl_levels_desc desc;
    assert_non_null(w);
    w->logger.sink = h_capture;
    w->logger.user = w;
    assert_int_equal(tl_events_init_table(&w->reg, 18, NULL, &w->logger), TL_EVENTS_OK);
    if (with_content) {
        tl_content_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.logger = w->logger;
        w->content = tl_content_create(&cd);
        assert_non_null(w->content);
    }
    desc = h_desc(w);
    w->levels = tl_levels_create(&desc);
    assert_non_null(w->levels);
    return w;
}

static void h_world_free(h_world *w) {
    tl_levels_destroy(w->levels);
    if (w->content) tl_content_shutdown(w->content);
    tl_events_discard(&w->reg);
    free(w);
}

#endif
