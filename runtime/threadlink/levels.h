/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/levels.h -- levels: residency holds, loading and unloading, presentation (the seed's Nexus).

   WHAT
   ----
   The seed's Nexus for C, for a game with one level at a time or many at once (a host simulating
   every occupied area while presenting its own player's). A level is a 32-bit id (a generated
   domain such as Nexus.Levels, whose enumerators go in through NEXUS_LEVELS_U32 since one above
   INT_MAX is negative, or content ids). The game supplies the loader as callbacks (begin
   load, poll, unload, and two optional hooks) and, while loading, the level's objects, which run
   through hooks (lifecycle batches with glue.h). A level is resident while anything holds it;
   presenting a level holds it and makes it the one the player sees.

   INCLUDE
   -------
       #include <threadlink/levels.h>
       #define TL_LEVELS_IMPL                   // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/levels.h>
   A service: it includes only the core (events.h, log.h). Its objects and its scopes come through
   hooks in its desc, which glue.h fills from lifecycle.h (batches) and content.h (scopes).
   TL_MALLOC / TL_FREE override the allocator (both or neither).

   USE
   ---
       static tl_levels_status begin(void *game, tl_level *level) {
           tl_glue_level_set_objects(level, objects_of(game, tl_level_id(level)), n);
           return TL_LEVELS_DONE;                         // synchronous: done at once
       }
       tl_levels_desc desc = {0};                         // zero: defaults (see tl_levels_desc)
       desc.loader.begin_load = begin;  desc.loader.unload = unload;  desc.loader.ctx = game;
       desc.registry = &registry;
       desc.objects = tl_glue_levels_objects();          // glue.h: lifecycle batches
       desc.scopes = tl_glue_levels_scopes(content);     // glue.h: content scopes
       tl_levels *levels = tl_levels_create(&desc);
       tl_glue_levels_attach(&lifecycle, levels);        // shut down first at its discard
       tl_level_hold farm = tl_levels_hold(levels, NEXUS_LEVELS_U32(Nexus_Levels_Farm));
       ... each frame: tl_levels_update(levels, seconds);  // or subscribe tl_levels_on_update
       if (tl_level_hold_status_of(farm) == TL_LEVEL_HOLD_RESIDENT) ...
       tl_level_hold_release_after(farm, 10.0);                // unloads in 10 s unless held again
       tl_levels_transition(levels, NEXUS_LEVELS_U32(Nexus_Levels_Town)); // fader, loading screen
       tl_glue_levels_detach(&lifecycle, levels);  tl_levels_destroy(levels);

   RESIDENCY RULES
   ---------------
   - All work happens in tl_levels_update: holding and releasing never call back. A level held
     while unloaded starts loading at the next update: begin_load once, then poll_load once per
     update while it answers TL_LEVELS_PENDING (a synchronous loader answers DONE at once).
     When the loader is done, OnSceneLoaded is published, the objects it gave
     (tl_level_set_objects) run (as one batch with glue.h: preload all, boot, initialize on the
     next update), the finished_loading hook is polled until done, and only then is the level
     resident: OnSceneResident is published and every hold on it reports TL_LEVEL_HOLD_RESIDENT.
   - A level loads once: holds arriving while it loads share that load.
   - A failed load (the loader, a preload, the finished_loading hook, or objects with bad
     parents) gives every hold waiting for it TL_LEVEL_HOLD_FAILED with the reason (tl_level_hold_reason;
     a preload failure names every failed object). What was made is undone as an unload would:
     every object given discarded once (even if the loader failed after giving them), children
     first, the level's scope ended, the unload callback called
     (begin_load was called), but no event is published (it never was resident).
   - Releasing the last hold starts the level's unload delay (tl_levels_set_unload_delay, per
     level, default desc.unload_delay, 0 by default), or the delay given to
     tl_level_hold_release_after. The delay counts from the first update after the release, whoever
     releases (game code between updates, or a presentation or a callback during one, whose
     seconds went by before the release): each update after it takes its seconds off, and the
     unload starts at the update that reaches zero (a delay of 0: the first update after the
     release). A level released while it loads counts from the update after it became resident.
     A hold meanwhile cancels it: no reload. Releasing a hold twice (or a failed one) does
     nothing.
   - Unloading, whatever the reason, follows one path: the before_unload hook (polled until
     done), OnSceneUnloading (the objects still there, for saving their state), discard of every
     object, children first, the end of the level's content scope, the loader's unload callback,
     OnSceneUnloaded(id).
   - Operations on one level never overlap: a hold during an unload waits for it, then the level
     loads again. tl_levels_is_resident / tl_levels_try_get answer only for a level loaded, booted
     and not unloading (during its unload delay it is still resident).
   - Each level gets a scope from desc.scopes when its load begins and until its unload (with
     glue.h, a content.h scope of kind level under the content's root, named "Level <id>");
     entity scopes live under it and move between levels with tl_scope_reparent (content.h).
   - Callbacks and listeners may hold and release anything (and present); they must not call
     tl_levels_update, tl_levels_shutdown or tl_levels_destroy.

   PRESENTATION
   ------------
   - tl_levels_present(level) holds the level, waits until it is resident, makes it the presented
     level, publishes OnScenePresented, then releases the hold on the level presented before (a
     level held only by presentation unloads; one another system holds stays).
   - tl_levels_transition(level) does the same behind four single-provider events, each published
     once per update until its provider answers true (it may take frames): OnDisplayFader,
     OnDisplayLoadingScreen, (present), OnHideLoadingScreen, OnHideFader. The seed requires
     exactly one provider for each; here an event without one counts as done (a game with no
     loading screen still transitions), and the level set logs a warning naming it
     (TL_LEVELS_LOG_NO_PROVIDER), once per event for the level set's life.
   - tl_levels_stop_presenting() presents nothing, releasing the presented level's hold.
   - Presentations run one at a time, in call order; tl_levels_presenting names the running one's
     level (a transition's providers learn so which level loads). If the level fails to load, the
     presentation ends with the previous level still presented (and, for a transition, the
     loading screen and fader hidden).

   SHUTDOWN
   --------
   tl_levels_shutdown releases every hold and unloads every level at once (the unload path, the
   before_unload hook called once whatever it answers; a load in progress is undone as a failed
   one), while the subsystems the objects registered with still exist: glue.h's
   tl_glue_levels_attach registers it with tl_lifecycle_before_discard, so tl_lifecycle_discard runs
   it before any subsystem's discard. tl_levels_destroy shuts down (if not yet) and frees the level
   set (tl_glue_levels_detach first, if attached and the lifecycle still lives).

   NATIVE EVENTS (natives/Iris.Events.Native.txt, ordinals 9..17, after time.h's)
   -------------
       OnSceneLoaded(tl_level *)       the loader is done, before the objects boot
       OnSceneResident(tl_level *)     loaded, booted, finished; before any holder sees it
       OnScenePresented(tl_level *)    the level is now the presented one
       OnSceneUnloading(tl_level *)    before the objects are discarded
       OnSceneUnloaded(uint32_t)             the level's id, once it has unloaded
       OnDisplayFader(tl_levels *) -> bool    single provider; true once done
       OnDisplayLoadingScreen(tl_levels *) -> bool
       OnHideLoadingScreen(tl_levels *) -> bool
       OnHideFader(tl_levels *) -> bool
   The four providers get the level set: tl_levels_presenting(levels, &level) names the level the
   transition brings in (to pick its loading screen), tl_levels_presented the one shown.

   ERRORS
   ------
   What can fail returns tl_levels_result (TL_LEVELS_OK = 0, tl_levels_result_message;
   docs/errors.md); tl_levels_hold makes a hold, zero on failure, and tl_levels_last_result says
   why. Logged once where met through desc.logger (TL_LEVELS_LOG_ITEMS). A failed load is a state
   (TL_LEVEL_HOLD_FAILED, tl_level_hold_reason), as tl_levels_status is a loader's progress.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_LEVELS_IMPL)
#define TL_LEVELS_IMPL
#endif
#ifndef TL_LEVELS_H
#define TL_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- native events ------------------------------------------------------------------------------ */

typedef struct tl_levels_events {
    uint32_t scene_loaded, scene_resident, scene_presented, scene_unloading, scene_unloaded;
    uint32_t display_fader, display_loading_screen, hide_loading_screen, hide_fader;
} tl_levels_events;

#define TL_LEVELS_EVENTS_INIT(prefix) \
    { \
        prefix##OnSceneLoaded, prefix##OnSceneResident, prefix##OnScenePresented, \
            prefix##OnSceneUnloading, prefix##OnSceneUnloaded, prefix##OnDisplayFader, \
            prefix##OnDisplayLoadingScreen, prefix##OnHideLoadingScreen, prefix##OnHideFader \
    }
/* Their native ordinals: after lifecycle.h's and time.h's nine. */
#define TL_LEVELS_EVENTS_NATIVE \
    { 9, 10, 11, 12, 13, 14, 15, 16, 17 }

#define TL_LEVELS_SIG_LEVEL 0x2b9578c4u    /* "(tl_level *)" */
#define TL_LEVELS_SIG_ID 0xfe1b43c4u       /* "(uint32_t)" */
#define TL_LEVELS_SIG_PROVIDER 0x0d554dd3u /* "(tl_levels *)->bool" */

typedef void (*tl_level_fn)(void *ctx, tl_level *level);
typedef void (*tl_levels_id_fn)(void *ctx, uint32_t level);
typedef bool (*tl_levels_provider_fn)(void *ctx, tl_levels *levels);

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_LEVELS_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(SHUT_DOWN, "the level set is shut down") \
    X(OUT_OF_MEMORY, "out of memory")

typedef enum tl_levels_result {
    TL_LEVELS_OK = 0,
#define TL__LEVELS_RESULT_ENUM(id, message) TL_LEVELS_##id,
    TL_LEVELS_RESULTS(TL__LEVELS_RESULT_ENUM)
#undef TL__LEVELS_RESULT_ENUM
        TL_LEVELS_RESULT_END_
} tl_levels_result;

TL_API const char *tl_levels_result_message(tl_levels_result result);

#define TL_LEVELS_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(LOAD_FAILED, TL_LOG_LEVEL_ERROR, "level %s failed to load: %s") \
    X(REENTRANT_CALL, TL_LOG_LEVEL_ERROR, "%s called from inside a levels callback: refused") \
    X(SHUT_DOWN, TL_LOG_LEVEL_ERROR, "%s: the level set is shut down") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(NO_PROVIDER, TL_LOG_LEVEL_WARNING, \
      "transition to level %s: %s has no provider, so that step counts as done (subscribe one to " \
      "show a fader or a loading screen; said once)")

#define TL_LEVELS_LOG_BASE 0x300u
typedef enum tl_levels_log_item {
    TL_LEVELS_LOG_NONE_ = TL_LEVELS_LOG_BASE - 1,
#define TL__LEVELS_LOG_ENUM(id, level, message) TL_LEVELS_LOG_##id,
    TL_LEVELS_LOG_ITEMS(TL__LEVELS_LOG_ENUM) /* TL_LEVELS_LOG_<id>, one per row from the base */
#undef TL__LEVELS_LOG_ENUM
    TL_LEVELS_LOG_END_
} tl_levels_log_item;

/* --- the level set ---------------------------------------------------------------------------------- */

/* What a loader's, a hook's or the objects' step answers. */
typedef enum tl_levels_status {
    TL_LEVELS_DONE = 0,
    TL_LEVELS_PENDING = 1, /* poll me again at the next update */
    TL_LEVELS_FAILED = 2
} tl_levels_status;

/* How a level's objects run once its loader is done: preload all, boot, a frame later initialize
   (update, polled once per update), and at its unload (or a failed load) discard, children first.
   glue.h's tl_glue_levels_objects runs them as lifecycle.h's batches of tl_lifecycle_object; zero
   hooks: levels take no objects (tl_level_set_objects refuses them). */
typedef struct tl_levels_objects {
    void *ctx;
    size_t object_size; /* bytes of one object: what tl_level_set_objects copies */
    /* The objects given (count of them) start as a run; NULL when they cannot run (the hook logs
       why, and the load fails). Nothing is called on the objects yet. */
    void *(*start)(void *ctx, tl_level *level, const void *objects, uint32_t count);
    tl_levels_status (*update)(void *ctx, void *run);
    /* Why a run's update FAILED, into text (size bytes, terminator included). */
    void (*failure)(void *ctx, void *run, char *text, size_t size);
    /* Discards every object the run started (or never preloaded), then frees the run. */
    void (*discard)(void *ctx, void *run);
} tl_levels_objects;

/* A content scope per level, from its load's start to its unload's end: glue.h's
   tl_glue_levels_scopes makes them content.h scopes of kind level under a context's root. A
   scope is the hooks' own 64-bit handle; 0 is none. */
typedef struct tl_levels_scopes {
    void *ctx;
    uint64_t (*begin)(void *ctx, uint32_t level);
    void (*end)(void *ctx, uint64_t scope);
} tl_levels_scopes;

/* The game's loader. Every function gets the loader's ctx (below) and the level (valid until the
   levels is destroyed). Only begin_load is required. The level's objects are another matter: their
   functions get the level itself as ctx (see tl_level_set_objects). */
typedef struct tl_levels_loader {
    void *ctx;
    /* Starts loading; gives the objects (tl_level_set_objects) by the time it is done.
       FAILED: tl_level_fail may give the reason first. */
    tl_levels_status (*begin_load)(void *ctx, tl_level *level);
    /* Polled once per update while loading is pending; NULL: a PENDING answer fails the load. */
    tl_levels_status (*poll_load)(void *ctx, tl_level *level);
    void (*unload)(void *ctx, tl_level *level);
    /* Polled once per update after the objects initialized, until not pending (FAILED fails the
       load); NULL: done. The seed's OnFinishedLoadingAsync. */
    tl_levels_status (*finished_loading)(void *ctx, tl_level *level);
    /* Polled once per update when an unload starts, until not pending; NULL: done. */
    tl_levels_status (*before_unload)(void *ctx, tl_level *level);
} tl_levels_loader;

/* Zero-initialised: no events published, native ordinals, stderr logging, no objects, no scopes,
   unload delay 0. glue.h's tl_glue_levels_attach shuts the level set down from a lifecycle's
   discard, before the subsystems its objects registered with. */
typedef struct tl_levels_desc {
    tl_levels_loader loader;
    tl_events *registry;
    const tl_levels_events *events; /* NULL: TL_LEVELS_EVENTS_NATIVE */
    const tl_logger *logger;
    tl_levels_objects objects;
    tl_levels_scopes scopes;
    double unload_delay; /* every level's default, seconds */
    /* A level's name in log lines: the levels domain's generated <domain>_name (nexus_levels_name);
       NULL: its number. */
    const char *(*level_name)(uint32_t level);
} tl_levels_desc;

typedef enum tl_level_state {
    TL_LEVEL_UNLOADED = 0,
    TL_LEVEL_LOADING = 1, /* loader, objects, finished_loading hook */
    TL_LEVEL_RESIDENT = 2,
    TL_LEVEL_UNLOADING = 3 /* before_unload hook pending */
} tl_level_state;

/* A hold: a small handle (slot + generation); a released one is detected, never used, and every
   hold is invalid after tl_levels_shutdown. Zero is no hold. Not usable after tl_levels_destroy
   (it names the level set). */
typedef struct tl_level_hold {
    tl_levels *levels;
    uint32_t index, gen;
} tl_level_hold;

typedef enum tl_level_hold_status {
    TL_LEVEL_HOLD_INVALID = 0, /* zero, released, or the level set shut down */
    TL_LEVEL_HOLD_PENDING = 1, /* the level is loading (or unloading, then loading again) */
    TL_LEVEL_HOLD_RESIDENT = 2,
    TL_LEVEL_HOLD_FAILED = 3 /* its load failed: tl_level_hold_reason; release it */
} tl_level_hold_status;

typedef struct tl_levels_stats {
    uint32_t levels; /* ever seen */
    uint32_t resident;
    uint32_t holds;   /* live (pending, resident or failed) */
    uint32_t loads;   /* loads begun */
    uint32_t unloads; /* unload paths completed, failed loads included */
    uint32_t active;  /* levels with work for the next update */
} tl_levels_stats;

/* NULL on a desc without loader.begin_load or no memory (logged: no level set to ask). */
TL_API tl_levels *tl_levels_create(const tl_levels_desc *desc);
TL_API void tl_levels_update(tl_levels *levels, double seconds);
/* An OnUpdate listener: subscribe it with the level set as context to update with the scaled delta. */
TL_API void tl_levels_on_update(void *levels, float seconds);
TL_API void tl_levels_shutdown(tl_levels *levels);
TL_API void tl_levels_destroy(tl_levels *levels);

TL_API tl_levels_result tl_levels_set_unload_delay(tl_levels *levels, uint32_t level,
                                                   double seconds);
/* A hold on the level; a zero hold when the level set is shut down or out of memory, or the level
   is 0 (no level: a levels domain's reserved None), the reason in tl_levels_last_result. Level 0
   is refused by tl_levels_present, tl_levels_transition and tl_levels_set_unload_delay too. */
TL_API tl_level_hold tl_levels_hold(tl_levels *levels, uint32_t level);
/* The result of the last tl_levels_hold on this level set (TL_LEVELS_OK after a hold made). */
TL_API tl_levels_result tl_levels_last_result(const tl_levels *levels);
TL_API void tl_level_hold_release(tl_level_hold hold);
/* The release with its own unload delay; a NaN or negative one is 0 (the hold is released all the
   same: it cannot be refused as tl_levels_set_unload_delay refuses one). */
TL_API void tl_level_hold_release_after(tl_level_hold hold, double seconds);
TL_API tl_level_hold_status tl_level_hold_status_of(tl_level_hold hold);
TL_API const char *tl_level_hold_reason(tl_level_hold hold); /* NULL unless failed */
TL_API uint32_t tl_level_hold_level_id(tl_level_hold hold);  /* 0 for an invalid hold */

TL_API bool tl_levels_is_resident(const tl_levels *levels, uint32_t level);
TL_API tl_level *tl_levels_try_get(tl_levels *levels, uint32_t level); /* NULL unless resident */
TL_API tl_level_state tl_levels_level_state(const tl_levels *levels, uint32_t level);
TL_API tl_levels_stats tl_levels_get_stats(const tl_levels *levels);

/* For the loader and listeners. */
TL_API uint32_t tl_level_id(const tl_level *level);
TL_API tl_levels *tl_level_owner(const tl_level *level);
/* The level's scope (tl_levels_scopes' handle; 0 without one) and the scopes' ctx: glue.h's
   tl_glue_level_scope gives it as a content.h tl_scope. */
TL_API uint64_t tl_level_scope_handle(const tl_level *level);
TL_API void *tl_levels_scopes_ctx(const tl_levels *levels);
/* The logger the level set reports through (its desc's copy), for its hooks. */
TL_API const tl_logger *tl_levels_logger(const tl_levels *levels);
TL_API void *tl_level_user(const tl_level *level);
TL_API void tl_level_set_user(tl_level *level, void *user);
/* The level's objects (count of desc.objects.object_size bytes each, copied), run once the loader
   is done. Loader only. With glue.h's lifecycle batches (tl_glue_level_set_objects, typed), each
   object's functions get the object as self and this level (tl_level *) as ctx, through which
   they reach its id, content scope and the game's data for it (tl_level_id,
   tl_glue_level_scope, tl_level_user); the loader's ctx is not passed to them. */
TL_API tl_levels_result tl_level_set_objects(tl_level *level, const void *objects, uint32_t count);
/* The objects' run (what the objects hook started), NULL before they start and after they go. */
TL_API void *tl_level_objects_run(const tl_level *level);
/* The reason a failing loader gives (copied, truncated to 200 bytes). */
TL_API void tl_level_fail(tl_level *level, const char *reason);

/* Presentation (see PRESENTATION): queued, TL_LEVELS_OK; fails only on a NULL or shut down level
   set (INVALID_ARGUMENT, SHUT_DOWN) or no memory. */
TL_API tl_levels_result tl_levels_present(tl_levels *levels, uint32_t level);
TL_API tl_levels_result tl_levels_transition(tl_levels *levels, uint32_t level);
TL_API tl_levels_result tl_levels_stop_presenting(tl_levels *levels);
/* The presented level's id and whether there is one. */
TL_API bool tl_levels_presented(const tl_levels *levels, uint32_t *level);
/* The level the running presentation brings in (*level, 0 when none) and whether one runs (a
   present or a transition; a stop brings in none). The providers of a transition's events get
   the level set: this tells them which level loads behind the fader and loading screen (and, while
   they hide, tl_levels_presented says whether it was shown or failed). */
TL_API bool tl_levels_presenting(const tl_levels *levels, uint32_t *level);
/* Presentations queued or running. */
TL_API uint32_t tl_levels_presentations_pending(const tl_levels *levels);

#ifdef __cplusplus
}
#endif
#endif /* TL_LEVELS_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_LEVELS_IMPL) && !defined(TL__LEVELS_IMPLEMENTED)
#define TL__LEVELS_IMPLEMENTED
/* Again here, for the usage block's order (include, define, include): the first includes of the
   modules levels.h uses saw no TL_IMPLEMENTATION. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TL__LEVEL_IDLE,
    TL__LEVEL_LOADING,
    TL__LEVEL_BOOTING,
    TL__LEVEL_FINISHING,
    TL__LEVEL_RESIDENT,
    TL__LEVEL_UNLOADING
};
enum { TL__HOLD_FREE, TL__HOLD_LIVE, TL__HOLD_FAILED };
enum { TL__PRESENT, TL__TRANSITION, TL__STOP };
/* Presentation steps, in order; a present runs only TL__STEP_SHOW. */
enum {
    TL__STEP_DISPLAY_FADER,
    TL__STEP_DISPLAY_LOADING,
    TL__STEP_SHOW,
    TL__STEP_HIDE_LOADING,
    TL__STEP_HIDE_FADER,
    TL__STEP_DONE
};

#define TL__LEVELS_NONE UINT32_MAX
#define TL__LEVELS_REASON_MAX 200

struct tl_level {
    tl_levels *levels;
    uint32_t id, state, holders, active_pos;
    uint64_t stepped;     /* the update that last stepped it */
    uint64_t released_in; /* the update during or after which its delay started (n->frame then) */
    double unload_delay;  /* its own (tl_levels_set_unload_delay) */
    double release_delay; /* the delay of the release that left it unheld */
    double remaining;     /* the countdown while releasing */
    bool releasing, announced, loader_started;
    void *run;              /* the objects' run, once started */
    unsigned char *objects; /* given by the loader, until the run takes them */
    uint32_t object_count;
    uint64_t scope;
    void *user;
    char reason[TL__LEVELS_REASON_MAX + 1];
};

typedef struct tl__levels_hold {
    tl_level *level;
    char *reason; /* a failed hold's */
    uint32_t gen, next_free, state;
} tl__levels_hold;

typedef struct tl__levels_request {
    uint32_t kind, level;
} tl__levels_request;

struct tl_levels {
    tl_levels_loader loader;
    tl_events *registry;
    tl_levels_events events;
    tl_logger logger;
    tl_levels_objects objects;
    tl_levels_scopes scopes;
    double unload_delay;
    const char *(*level_name)(uint32_t level);
    tl_level **levels; /* every level seen, each allocated once: pointers stay valid */
    uint32_t level_count, level_cap;
    tl_level **table; /* id -> level, open addressing, a power of two */
    uint32_t table_cap;
    tl_level **active; /* levels with work for the next update */
    uint32_t active_count, active_cap;
    tl__levels_hold *holds;
    uint32_t hold_count, hold_cap, hold_free, live_holds;
    tl__levels_request *queue; /* presentations not yet finished; [0] is running */
    uint32_t queue_count, queue_cap, step;
    tl_level_hold showing; /* the running presentation's hold on its level */
    tl_level_hold presented_hold;
    uint32_t presented_level;
    bool has_presented;
    uint64_t frame;
    double dt;
    uint32_t loads, unloads, resident;
    uint32_t warned_steps; /* a bit per provider step whose missing provider was reported */
    bool in_callback, shut;
    tl_levels_result last; /* of the last tl_levels_hold */
};

TL_LOG_TABLE_FN(tl__levels_log, TL_LEVELS_LOG_ITEMS, TL_LEVELS_LOG_BASE, "Levels")
TL_RESULT_MESSAGE_FN(tl_levels_result_message, tl_levels_result, TL_LEVELS_RESULTS)

static bool tl__levels_grow(void **array, uint32_t *cap, size_t size, uint32_t need) {
    uint32_t n = *cap ? *cap : 4u;
    void *grown;
    if (need <= *cap) return true;
    while (n < need) n *= 2u;
    grown = TL_MALLOC((size_t)n * size);
    if (!grown) return false;
    if (*cap) memcpy(grown, *array, (size_t)*cap * size);
    TL_FREE(*array);
    *array = grown;
    *cap = n;
    return true;
}

/* --- events ------------------------------------------------------------------------------------- */

static void tl__levels_publish_level(tl_levels *n, uint32_t event, tl_level *level) {
    if (n->registry) TL_EVENTS_PUBLISH(n->registry, event, TL_LEVELS_SIG_LEVEL, tl_level_fn, level);
}
static void tl__levels_publish_id(tl_levels *n, uint32_t event, uint32_t id) {
    if (n->registry) TL_EVENTS_PUBLISH(n->registry, event, TL_LEVELS_SIG_ID, tl_levels_id_fn, id);
}

/* --- levels: lookup and the active list --------------------------------------------------------- */

static uint32_t tl__levels_slot(uint32_t id, uint32_t cap) {
    return (id * 0x9E3779B1u) & (cap - 1u);
}

static tl_level *tl__levels_find(const tl_levels *n, uint32_t id) {
    uint32_t i;
    if (!n->table_cap) return NULL;
    for (i = tl__levels_slot(id, n->table_cap); n->table[i]; i = (i + 1u) & (n->table_cap - 1u))
        if (n->table[i]->id == id) return n->table[i];
    return NULL;
}

static void tl__levels_table_put(tl_level **table, uint32_t cap, tl_level *level) {
    uint32_t i = tl__levels_slot(level->id, cap);
    while (table[i]) i = (i + 1u) & (cap - 1u);
    table[i] = level;
}

/* Keeps the table at most half full. */
static bool tl__levels_table_reserve(tl_levels *n) {
    uint32_t cap = n->table_cap ? n->table_cap * 2u : 16u, i;
    tl_level **table;
    if ((n->level_count + 1u) * 2u <= n->table_cap) return true;
    table = (tl_level **)TL_MALLOC((size_t)cap * sizeof *table);
    if (!table) return false;
    memset(table, 0, (size_t)cap * sizeof *table);
    for (i = 0; i < n->level_count; i++) tl__levels_table_put(table, cap, n->levels[i]);
    TL_FREE(n->table);
    n->table = table;
    n->table_cap = cap;
    return true;
}

static tl_level *tl__levels_level_get(tl_levels *n, uint32_t id) {
    tl_level *level = tl__levels_find(n, id);
    if (level) return level;
    if (!tl__levels_table_reserve(n) ||
        !tl__levels_grow((void **)&n->levels, &n->level_cap, sizeof *n->levels,
                         n->level_count + 1u) ||
        !(level = (tl_level *)TL_MALLOC(sizeof *level))) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "level");
        return NULL;
    }
    memset(level, 0, sizeof *level);
    level->levels = n;
    level->id = id;
    level->state = TL__LEVEL_IDLE;
    level->active_pos = TL__LEVELS_NONE;
    level->unload_delay = n->unload_delay;
    n->levels[n->level_count++] = level;
    tl__levels_table_put(n->table, n->table_cap, level);
    return level;
}

static bool tl__level_has_work(const tl_level *level) {
    switch (level->state) {
    case TL__LEVEL_IDLE: return level->holders > 0;
    case TL__LEVEL_RESIDENT: return level->holders == 0 && level->releasing;
    default: return true;
    }
}

static void tl__levels_activate(tl_level *level) {
    tl_levels *n = level->levels;
    if (level->active_pos != TL__LEVELS_NONE) return;
    if (!tl__levels_grow((void **)&n->active, &n->active_cap, sizeof *n->active,
                         n->active_count + 1u)) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "active levels");
        return;
    }
    level->active_pos = n->active_count;
    n->active[n->active_count++] = level;
}

static void tl__levels_deactivate_at(tl_levels *n, uint32_t at) {
    tl_level *last = n->active[--n->active_count];
    n->active[at]->active_pos = TL__LEVELS_NONE;
    if (at != n->active_count) {
        n->active[at] = last;
        last->active_pos = at;
    }
}

/* --- the load and unload paths ------------------------------------------------------------------ */

static void tl__level_set_reason(tl_level *level, const char *reason) {
    size_t len = strlen(reason);
    if (len > TL__LEVELS_REASON_MAX) len = TL__LEVELS_REASON_MAX;
    memcpy(level->reason, reason, len);
    level->reason[len] = '\0';
}

/* What a load made goes, in the unload path's order: objects (children first), the scope, the
   loader's part. */
static void tl__level_undo(tl_level *level) {
    tl_levels *n = level->levels;
    if (!level->run && level->object_count && n->objects.start)
        /* Objects given by a loader that then failed: never preloaded, but still discarded. */
        level->run = n->objects.start(n->objects.ctx, level, level->objects, level->object_count);
    if (level->run) n->objects.discard(n->objects.ctx, level->run);
    level->run = NULL;
    TL_FREE(level->objects);
    level->objects = NULL;
    level->object_count = 0;
    if (level->scope && n->scopes.end) n->scopes.end(n->scopes.ctx, level->scope);
    level->scope = 0;
    if (level->loader_started && n->loader.unload) n->loader.unload(n->loader.ctx, level);
    level->loader_started = false;
    level->state = TL__LEVEL_IDLE;
    n->unloads++;
}

static char *tl__levels_strdup(const char *text) {
    size_t len = strlen(text) + 1u;
    char *copy = (char *)TL_MALLOC(len);
    if (copy) memcpy(copy, text, len);
    return copy;
}

/* A level as log lines name it: its name (desc.level_name), else its number, in `buf`. */
static const char *tl__levels_label(const tl_levels *n, uint32_t level, char buf[16]) {
    const char *name = n->level_name ? n->level_name(level) : TL__NULL;
    if (name && name[0] && strcmp(name, "?") != 0) return name;
    snprintf(buf, 16, "%u", (unsigned)level);
    return buf;
}

/* Every hold waiting for the level fails with the reason; then the load is undone. */
static void tl__level_fail(tl_level *level, const char *fallback) {
    tl_levels *n = level->levels;
    uint32_t i;
    char label[16];
    if (!level->reason[0]) tl__level_set_reason(level, fallback);
    tl__levels_log(&n->logger, TL_LEVELS_LOG_LOAD_FAILED, tl__levels_label(n, level->id, label),
                   level->reason);
    for (i = 0; i < n->hold_count; i++) {
        tl__levels_hold *h = &n->holds[i];
        if (h->state != TL__HOLD_LIVE || h->level != level) continue;
        h->state = TL__HOLD_FAILED;
        h->reason = tl__levels_strdup(level->reason);
        level->holders--;
    }
    tl__level_undo(level);
}

static void tl__level_begin(tl_level *level) {
    tl_levels *n = level->levels;
    level->state = TL__LEVEL_LOADING;
    level->reason[0] = '\0';
    level->loader_started = true;
    n->loads++;
    if (n->scopes.begin) level->scope = n->scopes.begin(n->scopes.ctx, level->id);
}

/* The loader is done: OnSceneLoaded, then the objects start as a run. */
static void tl__level_loaded(tl_level *level) {
    tl_levels *n = level->levels;
    tl__levels_publish_level(n, n->events.scene_loaded, level);
    if (level->state != TL__LEVEL_LOADING) return;
    if (level->object_count) {
        level->run = n->objects.start(n->objects.ctx, level, level->objects, level->object_count);
        if (!level->run) {
            tl__level_fail(level, "its objects cannot run (see the error above)");
            return;
        }
    }
    TL_FREE(level->objects);
    level->objects = NULL;
    level->object_count = 0;
    level->state = TL__LEVEL_BOOTING;
}

static void tl__level_loader_answer(tl_level *level, tl_levels_status status, bool polled) {
    if (status == TL_LEVELS_DONE) tl__level_loaded(level);
    else if (status == TL_LEVELS_FAILED) tl__level_fail(level, "the loader failed");
    else if (!polled && !level->levels->loader.poll_load)
        tl__level_fail(level, "the loader is pending and has no poll_load");
}

/* The objects failed: their run says why ("preload failed: A, C" with lifecycle batches). */
static void tl__level_objects_failed(tl_level *level) {
    tl_levels *n = level->levels;
    char text[TL__LEVELS_REASON_MAX + 1];
    snprintf(text, sizeof text, "its objects failed");
    if (n->objects.failure) n->objects.failure(n->objects.ctx, level->run, text, sizeof text);
    tl__level_fail(level, text);
}

static void tl__level_become_resident(tl_level *level) {
    tl_levels *n = level->levels;
    level->state = TL__LEVEL_RESIDENT;
    level->announced = true;
    n->resident++;
    tl__levels_publish_level(n, n->events.scene_resident, level);
    if (level->state == TL__LEVEL_RESIDENT && level->holders == 0 && !level->releasing) {
        level->releasing = true; /* released while it loaded: its delay starts now */
        level->remaining = level->release_delay;
        level->released_in = n->frame;
    }
}

/* The unload path's end: OnSceneUnloading, objects, scope, loader, OnSceneUnloaded. */
static void tl__level_finish_unload(tl_level *level) {
    tl_levels *n = level->levels;
    tl__levels_publish_level(n, n->events.scene_unloading, level);
    tl__level_undo(level);
    level->announced = false;
    level->releasing = false;
    n->resident--;
    tl__levels_publish_id(n, n->events.scene_unloaded, level->id);
}

static tl_levels_status tl__level_hook(tl_level *level,
                                       tl_levels_status (*hook)(void *, tl_level *)) {
    return hook ? hook(level->levels->loader.ctx, level) : TL_LEVELS_DONE;
}

/* One state's work; true when the level moved on and the next state may run in this update. */
static bool tl__level_advance(tl_level *level) {
    tl_levels *n = level->levels;
    uint32_t before = level->state;
    tl_levels_status status;
    switch (level->state) {
    case TL__LEVEL_IDLE:
        if (level->holders == 0) return false;
        tl__level_begin(level);
        tl__level_loader_answer(level, n->loader.begin_load(n->loader.ctx, level), false);
        return level->state == TL__LEVEL_BOOTING;
    case TL__LEVEL_LOADING:
        tl__level_loader_answer(level, n->loader.poll_load(n->loader.ctx, level), true);
        return level->state == TL__LEVEL_BOOTING;
    case TL__LEVEL_BOOTING:
        switch (level->run ? n->objects.update(n->objects.ctx, level->run) : TL_LEVELS_DONE) {
        case TL_LEVELS_PENDING: return false;
        case TL_LEVELS_FAILED: tl__level_objects_failed(level); return false;
        case TL_LEVELS_DONE:
        default: break;
        }
        level->state = TL__LEVEL_FINISHING;
        return true;
    case TL__LEVEL_FINISHING:
        status = tl__level_hook(level, n->loader.finished_loading);
        if (status == TL_LEVELS_FAILED) tl__level_fail(level, "its finished_loading hook failed");
        else if (status == TL_LEVELS_DONE) tl__level_become_resident(level);
        return false;
    case TL__LEVEL_RESIDENT:
        if (level->holders > 0 || !level->releasing) return false;
        /* Released during this update (by a presentation, a callback): its seconds went by
           before the release. The delay counts from the first update after it. */
        if (level->released_in == n->frame) return false;
        level->remaining -= n->dt;
        if (level->remaining > 0.0) return false;
        level->releasing = false;
        level->state = TL__LEVEL_UNLOADING;
        return true;
    case TL__LEVEL_UNLOADING:
        if (tl__level_hook(level, n->loader.before_unload) == TL_LEVELS_PENDING) return false;
        tl__level_finish_unload(level);
        return level->state != before && level->holders > 0; /* held meanwhile: load again */
    default: return false;
    }
}

static void tl__level_step(tl_level *level) {
    int guard = 8; /* a level crosses at most a few states per update */
    while (guard-- > 0 && tl__level_advance(level)) {}
}

/* --- presentation --------------------------------------------------------------------------------- */

/* Level 0 is no level (the reserved None): refused, logged naming `what`. */
static bool tl__levels_no_level(tl_levels *n, uint32_t id, const char *what) {
    if (id != 0) return false;
    tl__levels_log(&n->logger, TL_LEVELS_LOG_INVALID_ARGUMENT, what);
    return true;
}

static tl_levels_result tl__levels_enqueue(tl_levels *n, uint32_t kind, uint32_t level) {
    if (!n) {
        tl__levels_log(NULL, TL_LEVELS_LOG_INVALID_ARGUMENT, "presentation (no level set)");
        return TL_LEVELS_INVALID_ARGUMENT;
    }
    if (kind != TL__STOP &&
        tl__levels_no_level(n, level, "presentation (level 0 is no level: the reserved None)"))
        return TL_LEVELS_INVALID_ARGUMENT;
    if (n->shut) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_SHUT_DOWN, "presentation");
        return TL_LEVELS_SHUT_DOWN;
    }
    if (!tl__levels_grow((void **)&n->queue, &n->queue_cap, sizeof *n->queue,
                         n->queue_count + 1u)) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "presentation");
        return TL_LEVELS_OUT_OF_MEMORY;
    }
    n->queue[n->queue_count].kind = kind;
    n->queue[n->queue_count].level = level;
    if (n->queue_count++ == 0)
        n->step = kind == TL__TRANSITION ? TL__STEP_DISPLAY_FADER : TL__STEP_SHOW;
    return TL_LEVELS_OK;
}

static void tl__levels_show(tl_levels *n, const tl__levels_request *request) {
    tl_level_hold previous = n->presented_hold;
    bool had = n->has_presented;
    n->presented_hold = n->showing;
    n->presented_level = request->level;
    n->has_presented = true;
    memset(&n->showing, 0, sizeof n->showing);
    tl__levels_publish_level(n, n->events.scene_presented, tl__levels_find(n, request->level));
    if (had) tl_level_hold_release(previous);
}

/* A provider step: the next step once its provider answers true. A step without a provider
   counts as done, with a warning the first time (the seed requires exactly one). */
static bool tl__levels_provider_step(tl_levels *n, uint32_t event) {
    static const char *const names[] = { "OnDisplayFader", "OnDisplayLoadingScreen", "",
                                         "OnHideLoadingScreen", "OnHideFader" };
    bool answered = false, done = true;
    if (n->registry)
        TL_EVENTS_REQUEST(answered, &done, n->registry, event, TL_LEVELS_SIG_PROVIDER,
                          tl_levels_provider_fn, n);
    if (!answered && !(n->warned_steps & (1u << n->step))) {
        char label[16];
        n->warned_steps |= 1u << n->step;
        tl__levels_log(&n->logger, TL_LEVELS_LOG_NO_PROVIDER,
                       tl__levels_label(n, n->queue[0].level, label), names[n->step]);
    }
    if (answered && !done) return false;
    n->step++;
    return true;
}

/* One step of the running presentation; true when it moved on. */
static bool tl__levels_present_advance(tl_levels *n) {
    const tl__levels_request *request = &n->queue[0];
    switch (n->step) {
    case TL__STEP_DISPLAY_FADER: return tl__levels_provider_step(n, n->events.display_fader);
    case TL__STEP_DISPLAY_LOADING:
        return tl__levels_provider_step(n, n->events.display_loading_screen);
    case TL__STEP_SHOW:
        if (request->kind == TL__STOP) {
            if (n->has_presented) tl_level_hold_release(n->presented_hold);
            n->has_presented = false;
            memset(&n->presented_hold, 0, sizeof n->presented_hold);
            n->step = TL__STEP_DONE;
            return true;
        }
        if (!n->showing.levels) n->showing = tl_levels_hold(n, request->level);
        switch (tl_level_hold_status_of(n->showing)) {
        case TL_LEVEL_HOLD_PENDING: return false;
        case TL_LEVEL_HOLD_RESIDENT: tl__levels_show(n, request); break;
        case TL_LEVEL_HOLD_INVALID:
        case TL_LEVEL_HOLD_FAILED:
        default:
            tl_level_hold_release(n->showing); /* the previous level stays presented */
            memset(&n->showing, 0, sizeof n->showing);
            break;
        }
        n->step = request->kind == TL__TRANSITION ? TL__STEP_HIDE_LOADING : TL__STEP_DONE;
        return true;
    case TL__STEP_HIDE_LOADING: return tl__levels_provider_step(n, n->events.hide_loading_screen);
    case TL__STEP_HIDE_FADER: return tl__levels_provider_step(n, n->events.hide_fader);
    default: return false;
    }
}

/* Runs presentations in call order while they finish without waiting. */
static void tl__levels_present_step(tl_levels *n) {
    while (n->queue_count > 0) {
        while (n->step != TL__STEP_DONE && tl__levels_present_advance(n)) {}
        if (n->step != TL__STEP_DONE) return;
        memmove(n->queue, n->queue + 1, (size_t)(n->queue_count - 1u) * sizeof *n->queue);
        if (--n->queue_count > 0)
            n->step = n->queue[0].kind == TL__TRANSITION ? TL__STEP_DISPLAY_FADER : TL__STEP_SHOW;
    }
}

tl_levels_result tl_levels_present(tl_levels *levels, uint32_t level) {
    return tl__levels_enqueue(levels, TL__PRESENT, level);
}
tl_levels_result tl_levels_transition(tl_levels *levels, uint32_t level) {
    return tl__levels_enqueue(levels, TL__TRANSITION, level);
}
tl_levels_result tl_levels_stop_presenting(tl_levels *levels) {
    return tl__levels_enqueue(levels, TL__STOP, 0);
}
bool tl_levels_presented(const tl_levels *levels, uint32_t *level) {
    if (level) *level = levels && levels->has_presented ? levels->presented_level : 0;
    return levels && levels->has_presented;
}
bool tl_levels_presenting(const tl_levels *levels, uint32_t *level) {
    bool running = levels && levels->queue_count > 0 && levels->queue[0].kind != TL__STOP;
    if (level) *level = running ? levels->queue[0].level : 0;
    return running;
}
uint32_t tl_levels_presentations_pending(const tl_levels *levels) {
    return levels ? levels->queue_count : 0;
}

/* --- the level set ---------------------------------------------------------------------------------- */

static const tl_levels_events tl__levels_native_events = TL_LEVELS_EVENTS_NATIVE;

tl_levels *tl_levels_create(const tl_levels_desc *desc) {
    tl_levels *n;
    if (!desc || !desc->loader.begin_load) {
        tl__levels_log(desc ? desc->logger : NULL, TL_LEVELS_LOG_INVALID_ARGUMENT,
                       desc ? "tl_levels_create (loader.begin_load is required)"
                            : "tl_levels_create (no desc)");
        return NULL;
    }
    n = (tl_levels *)TL_MALLOC(sizeof *n);
    if (!n) {
        tl__levels_log(desc->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "level set");
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->loader = desc->loader;
    n->registry = desc->registry;
    n->events = desc->events ? *desc->events : tl__levels_native_events;
    if (!desc->events && !tl_events_natives_declared(n->registry, 9u, 17u, "Levels"))
        n->registry = NULL;
    if (desc->logger) n->logger = *desc->logger;
    n->objects = desc->objects;
    n->scopes = desc->scopes;
    n->unload_delay = desc->unload_delay > 0.0 ? desc->unload_delay : 0.0;
    n->level_name = desc->level_name;
    n->hold_free = TL__LEVELS_NONE;
    return n;
}

void tl_levels_update(tl_levels *n, double seconds) {
    uint32_t i = 0;
    if (!n || n->shut) return;
    if (n->in_callback) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_REENTRANT_CALL, "tl_levels_update");
        return;
    }
    n->in_callback = true;
    n->frame++;
    n->dt = seconds > 0.0 ? seconds : 0.0;
    tl__levels_present_step(n); /* first: a hold it takes starts loading in this update */
    while (i < n->active_count) {
        tl_level *level = n->active[i];
        if (level->stepped != n->frame) {
            level->stepped = n->frame;
            tl__level_step(level);
        }
        if (tl__level_has_work(level)) i++;
        else tl__levels_deactivate_at(n, i);
    }
    n->in_callback = false;
}

void tl_levels_on_update(void *levels, float seconds) {
    tl_levels_update((tl_levels *)levels, (double)seconds);
}

/* Unloads one level at once, whatever it was doing (the before_unload hook called once). */
static void tl__level_shutdown(tl_level *level) {
    switch (level->state) {
    case TL__LEVEL_LOADING:
    case TL__LEVEL_BOOTING:
    case TL__LEVEL_FINISHING: tl__level_undo(level); break;
    case TL__LEVEL_RESIDENT:
        (void)tl__level_hook(level, level->levels->loader.before_unload);
        tl__level_finish_unload(level);
        break;
    case TL__LEVEL_UNLOADING: tl__level_finish_unload(level); break;
    default: break;
    }
}

void tl_levels_shutdown(tl_levels *n) {
    uint32_t i;
    if (!n || n->shut) return;
    if (n->in_callback) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_REENTRANT_CALL, "tl_levels_shutdown");
        return;
    }
    n->shut = true; /* holds and presentations are refused from here on */
    n->in_callback = true;
    for (i = 0; i < n->level_count; i++) tl__level_shutdown(n->levels[i]);
    for (i = 0; i < n->hold_count; i++) {
        TL_FREE(n->holds[i].reason);
        n->holds[i].reason = NULL;
        n->holds[i].state = TL__HOLD_FREE;
        n->holds[i].gen++;
    }
    for (i = 0; i < n->level_count; i++) n->levels[i]->holders = 0;
    n->live_holds = 0;
    n->queue_count = 0;
    n->has_presented = false;
    n->active_count = 0;
    n->in_callback = false;
}

void tl_levels_destroy(tl_levels *n) {
    uint32_t i;
    if (!n) return;
    if (n->in_callback) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_REENTRANT_CALL, "tl_levels_destroy");
        return;
    }
    tl_levels_shutdown(n);
    for (i = 0; i < n->level_count; i++) TL_FREE(n->levels[i]);
    TL_FREE(n->levels);
    TL_FREE(n->table);
    TL_FREE(n->active);
    TL_FREE(n->holds);
    TL_FREE(n->queue);
    TL_FREE(n);
}

tl_levels_result tl_levels_set_unload_delay(tl_levels *n, uint32_t id, double seconds) {
    tl_level *level;
    if (!n || !(seconds >= 0.0)) {
        tl__levels_log(n ? &n->logger : NULL, TL_LEVELS_LOG_INVALID_ARGUMENT,
                       "tl_levels_set_unload_delay");
        return TL_LEVELS_INVALID_ARGUMENT;
    }
    if (tl__levels_no_level(n, id,
                            "tl_levels_set_unload_delay (level 0 is no level: the reserved None)"))
        return TL_LEVELS_INVALID_ARGUMENT;
    if (!(level = tl__levels_level_get(n, id))) return TL_LEVELS_OUT_OF_MEMORY; /* logged */
    level->unload_delay = seconds;
    return TL_LEVELS_OK;
}

/* --- holds -------------------------------------------------------------------------------------- */

static tl__levels_hold *tl__hold_get(tl_level_hold hold) {
    tl__levels_hold *h;
    if (!hold.levels || hold.index >= hold.levels->hold_count) return NULL;
    h = &hold.levels->holds[hold.index];
    return h->gen == hold.gen && h->state != TL__HOLD_FREE ? h : NULL;
}

static uint32_t tl__hold_alloc(tl_levels *n) {
    uint32_t index;
    if (n->hold_free != TL__LEVELS_NONE) {
        index = n->hold_free;
        n->hold_free = n->holds[index].next_free;
        return index;
    }
    if (!tl__levels_grow((void **)&n->holds, &n->hold_cap, sizeof *n->holds, n->hold_count + 1u))
        return TL__LEVELS_NONE;
    n->holds[n->hold_count].gen = 1;
    n->holds[n->hold_count].reason = NULL;
    return n->hold_count++;
}

tl_level_hold tl_levels_hold(tl_levels *n, uint32_t id) {
    tl_level_hold hold;
    tl_level *level;
    uint32_t index;
    memset(&hold, 0, sizeof hold);
    if (!n) {
        tl__levels_log(NULL, TL_LEVELS_LOG_INVALID_ARGUMENT, "tl_levels_hold (no level set)");
        return hold;
    }
    if (n->shut) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_SHUT_DOWN, "tl_levels_hold");
        n->last = TL_LEVELS_SHUT_DOWN;
        return hold;
    }
    if (tl__levels_no_level(n, id, "tl_levels_hold (level 0 is no level: the reserved None)")) {
        n->last = TL_LEVELS_INVALID_ARGUMENT;
        return hold;
    }
    if (!(level = tl__levels_level_get(n, id))) {
        n->last = TL_LEVELS_OUT_OF_MEMORY; /* logged */
        return hold;
    }
    if ((index = tl__hold_alloc(n)) == TL__LEVELS_NONE) {
        tl__levels_log(&n->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "hold");
        n->last = TL_LEVELS_OUT_OF_MEMORY;
        return hold;
    }
    n->last = TL_LEVELS_OK;
    n->holds[index].level = level;
    n->holds[index].state = TL__HOLD_LIVE;
    n->live_holds++;
    level->holders++;
    level->releasing = false; /* a hold during a delayed unload cancels it */
    if (level->state == TL__LEVEL_IDLE) tl__levels_activate(level);
    hold.levels = n;
    hold.index = index;
    hold.gen = n->holds[index].gen;
    return hold;
}

static void tl__hold_free(tl_levels *n, tl_level_hold hold, tl__levels_hold *h) {
    TL_FREE(h->reason);
    h->reason = NULL;
    h->state = TL__HOLD_FREE;
    if (++h->gen == 0) h->gen = 1;
    h->next_free = n->hold_free;
    n->hold_free = hold.index;
    n->live_holds--;
}

void tl_level_hold_release_after(tl_level_hold hold, double seconds) {
    tl__levels_hold *h = tl__hold_get(hold);
    tl_level *level;
    bool live;
    if (!h) return; /* released twice, or zero: nothing */
    level = h->level;
    live = h->state == TL__HOLD_LIVE;
    tl__hold_free(hold.levels, hold, h);
    if (!live || --level->holders > 0) return;
    level->release_delay = seconds > 0.0 ? seconds : 0.0;
    if (level->state == TL__LEVEL_RESIDENT) {
        level->releasing = true;
        level->remaining = level->release_delay;
        level->released_in =
            hold.levels->frame; /* between updates or during one: the next counts */
        tl__levels_activate(level);
    }
}

void tl_level_hold_release(tl_level_hold hold) {
    tl__levels_hold *h = tl__hold_get(hold);
    if (h) tl_level_hold_release_after(hold, h->level->unload_delay);
}

tl_level_hold_status tl_level_hold_status_of(tl_level_hold hold) {
    tl__levels_hold *h = tl__hold_get(hold);
    if (!h) return TL_LEVEL_HOLD_INVALID;
    if (h->state == TL__HOLD_FAILED) return TL_LEVEL_HOLD_FAILED;
    return h->level->state == TL__LEVEL_RESIDENT ? TL_LEVEL_HOLD_RESIDENT : TL_LEVEL_HOLD_PENDING;
}

const char *tl_level_hold_reason(tl_level_hold hold) {
    tl__levels_hold *h = tl__hold_get(hold);
    return h && h->state == TL__HOLD_FAILED ? h->reason : NULL;
}

uint32_t tl_level_hold_level_id(tl_level_hold hold) {
    tl__levels_hold *h = tl__hold_get(hold);
    return h ? h->level->id : 0;
}

/* --- queries and level accessors ---------------------------------------------------------------- */

bool tl_levels_is_resident(const tl_levels *n, uint32_t id) {
    const tl_level *level = n ? tl__levels_find(n, id) : NULL;
    return level && level->state == TL__LEVEL_RESIDENT;
}

tl_level *tl_levels_try_get(tl_levels *n, uint32_t id) {
    tl_level *level = n ? tl__levels_find(n, id) : NULL;
    return level && level->state == TL__LEVEL_RESIDENT ? level : NULL;
}

tl_level_state tl_levels_level_state(const tl_levels *n, uint32_t id) {
    const tl_level *level = n ? tl__levels_find(n, id) : NULL;
    if (!level) return TL_LEVEL_UNLOADED;
    switch (level->state) {
    case TL__LEVEL_RESIDENT: return TL_LEVEL_RESIDENT;
    case TL__LEVEL_UNLOADING: return TL_LEVEL_UNLOADING;
    case TL__LEVEL_IDLE: return TL_LEVEL_UNLOADED;
    default: return TL_LEVEL_LOADING;
    }
}

tl_levels_stats tl_levels_get_stats(const tl_levels *n) {
    tl_levels_stats stats;
    memset(&stats, 0, sizeof stats);
    if (!n) return stats;
    stats.levels = n->level_count;
    stats.resident = n->resident;
    stats.holds = n->live_holds;
    stats.loads = n->loads;
    stats.unloads = n->unloads;
    stats.active = n->active_count;
    return stats;
}

uint32_t tl_level_id(const tl_level *level) { return level ? level->id : 0; }
tl_levels *tl_level_owner(const tl_level *level) { return level ? level->levels : NULL; }
uint64_t tl_level_scope_handle(const tl_level *level) { return level ? level->scope : 0; }
void *tl_levels_scopes_ctx(const tl_levels *n) { return n ? n->scopes.ctx : NULL; }
const tl_logger *tl_levels_logger(const tl_levels *n) { return n ? &n->logger : NULL; }
void *tl_level_user(const tl_level *level) { return level ? level->user : NULL; }
void tl_level_set_user(tl_level *level, void *user) {
    if (level) level->user = user;
}

tl_levels_result tl_level_set_objects(tl_level *level, const void *objects, uint32_t count) {
    unsigned char *copy = NULL;
    size_t bytes;
    if (!level || level->state != TL__LEVEL_LOADING || (count && !objects) ||
        (count && !level->levels->objects.start)) {
        tl__levels_log(level ? &level->levels->logger : NULL, TL_LEVELS_LOG_INVALID_ARGUMENT,
                       "tl_level_set_objects (the loader's, while loading, with objects hooks)");
        return TL_LEVELS_INVALID_ARGUMENT;
    }
    bytes = (size_t)count * level->levels->objects.object_size;
    if (bytes && !(copy = (unsigned char *)TL_MALLOC(bytes))) {
        tl__levels_log(&level->levels->logger, TL_LEVELS_LOG_OUT_OF_MEMORY, "level objects");
        return TL_LEVELS_OUT_OF_MEMORY;
    }
    if (bytes) memcpy(copy, objects, bytes);
    TL_FREE(level->objects);
    level->objects = copy;
    level->object_count = count;
    return TL_LEVELS_OK;
}

tl_levels_result tl_levels_last_result(const tl_levels *n) {
    return n ? n->last : TL_LEVELS_INVALID_ARGUMENT;
}

void *tl_level_objects_run(const tl_level *level) { return level ? level->run : NULL; }

void tl_level_fail(tl_level *level, const char *reason) {
    if (level && reason) tl__level_set_reason(level, reason);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_LEVELS_IMPL */
