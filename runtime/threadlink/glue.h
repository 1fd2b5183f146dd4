/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/glue.h -- the bridges between services: each service alone, joined here.

   WHAT
   ----
   No service header includes another (sokol's rule): where one service works with another, it
   takes function pointers ("hooks") in its desc, and this header fills them from the other
   service, as sokol_glue.h does for sokol_app and sokol_gfx. Each bridge is a few static inline
   lines; include the services you join before this header, or let it include them:

     tl_glue_weave_time(lc, time)      time.h into lifecycle.h: the clock as the first native
                                       subsystem, so it stops at the lifecycle's discard, last
     tl_glue_levels_objects()          levels.h's objects as lifecycle.h batches; with
     tl_glue_level_set_objects,        tl_lifecycle_object arrays, and a level's batch
     tl_glue_level_batch
     tl_glue_levels_scopes(content)    levels.h's scopes as content.h scopes of kind level; with
     tl_glue_level_scope               a level's scope as a tl_scope
     tl_glue_levels_attach / _detach   a level set shut down first at a lifecycle's discard
     tl_glue_weave_platform(lc, p)     platform.h deployed as a lifecycle's native preload (it
                                       settles before any subsystem boots), shut down at its discard
     tl_glue_save_write_vault          a vault.h record as a file of a save.h transaction, and
     tl_glue_save_read_vault           back (the save's hash checks the bytes vault.h's format
                                       does not)

   INCLUDE
   -------
       #include <threadlink/glue.h>   (no implementation switch: everything is static inline)
   It includes the services it joins (declarations only); their implementations are their own
   switches, as ever (TL_IMPLEMENTATION in a file turns on those of the headers it includes).

   USE
   ---
   A game's core as examples/game weaves it (each desc filled as its header says):
       tl_lifecycle core;
       tl_time clock;
       tl_levels *levels;
       ...
       tl_lifecycle_init(&core, &core_desc);
       tl_time_init(&clock, &time_desc);
       tl_glue_weave_time(&core, &clock);                // the clock stops last
       levels_desc.objects = tl_glue_levels_objects();   // a level's objects as batches
       levels_desc.scopes = tl_glue_levels_scopes(content);   // its assets in its own scope
       levels = tl_levels_create(&levels_desc);
       tl_glue_levels_attach(&core, levels);             // shut down first at the discard
   and in a save transaction, a vault as one of its files:
       tl_glue_save_write_vault(txn, "player", &player_vault_desc, &player);
*/
#ifndef TL_GLUE_H
#define TL_GLUE_H

#include "content.h"
#include "levels.h"
#include "lifecycle.h"
#include "platform.h"
#include "save.h"
#include "time.h"
#include "vault.h"

#include <stdio.h>
#include <string.h>
#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/glue.h: define both TL_MALLOC and TL_FREE, or neither"
#endif
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- time.h into lifecycle.h ------------------------------------------------------------------- */

static inline void tl__glue_time_discard(void *self, tl_lifecycle *lifecycle) {
    (void)lifecycle;
    tl_time_discard((tl_time *)self);
}

/* Weaves `time` into the lifecycle's native tier: weave it before anything else, and it is
   discarded last, when every subsystem that read the clock is gone. The result of
   tl_lifecycle_weave_native. */
/* A bridge given no service: an invalid argument, logged through the lifecycle's logger as the
   lifecycle logs its own (errors.md). */
static inline tl_lifecycle_result tl__glue_no_service(tl_lifecycle *lifecycle, const char *bridge) {
    tl_log_item(lifecycle ? &lifecycle->logger : TL__NULL, TL_LOG_LEVEL_ERROR, "Lifecycle",
                TL_LIFECYCLE_LOG_INVALID_ARGUMENT, "%s: invalid argument", bridge);
    return TL_LIFECYCLE_INVALID_ARGUMENT;
}

static inline tl_lifecycle_result tl_glue_weave_time(tl_lifecycle *lifecycle, tl_time *time) {
    /* The time service as a subsystem type, inside the function so that a file which never weaves
       time references none of time.h's functions (each file has its own copy: keep your tl_time's
       address rather than finding it with tl_lifecycle_find). */
    static const tl_lifecycle_subsystem subsystem = { "Time", TL__NULL, TL__NULL, TL__NULL,
                                                      tl__glue_time_discard };
    if (!time) return tl__glue_no_service(lifecycle, "tl_glue_weave_time");
    return tl_lifecycle_weave_native(lifecycle, &subsystem, time);
}

/* --- levels.h's objects as lifecycle.h batches --------------------------------------------------- */

static inline void *tl__glue_objects_start(void *ctx, tl_level *level, const void *objects,
                                           uint32_t count) {
    tl_lifecycle_batch *batch = (tl_lifecycle_batch *)TL_MALLOC(sizeof *batch);
    tl_lifecycle_batch_desc desc;
    (void)ctx;
    if (!batch) return TL__NULL;
    memset(&desc, 0, sizeof desc);
    desc.name = "level"; /* the level set's failure message names the level's id */
    desc.ctx = level;    /* each object's functions get the level */
    desc.logger = tl_levels_logger(tl_level_owner(level));
    if (tl_lifecycle_batch_init(batch, &desc, (const tl_lifecycle_object *)objects, count) !=
        TL_LIFECYCLE_OK) {
        TL_FREE(batch);
        return TL__NULL;
    }
    return batch;
}

static inline tl_levels_status tl__glue_objects_update(void *ctx, void *run) {
    (void)ctx;
    switch (tl_lifecycle_batch_update((tl_lifecycle_batch *)run)) {
    case TL_LIFECYCLE_BATCH_PENDING: return TL_LEVELS_PENDING;
    case TL_LIFECYCLE_BATCH_FAILED: return TL_LEVELS_FAILED;
    case TL_LIFECYCLE_BATCH_DONE:
    default: break;
    }
    return TL_LEVELS_DONE;
}

/* "preload failed: A, C": every object whose preload failed. */
static inline void tl__glue_objects_failure(void *ctx, void *run, char *text, size_t size) {
    const tl_lifecycle_batch *batch = (const tl_lifecycle_batch *)run;
    size_t used = (size_t)snprintf(text, size, "preload failed:");
    uint32_t i;
    (void)ctx;
    for (i = 0; i < tl_lifecycle_batch_failed_count(batch) && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s %s", i ? "," : "",
                                 tl_lifecycle_batch_failed_name(batch, i));
}

static inline void tl__glue_objects_discard(void *ctx, void *run) {
    (void)ctx;
    tl_lifecycle_batch_discard((tl_lifecycle_batch *)run);
    TL_FREE(run);
}

/* desc.objects of a level set whose levels' objects are tl_lifecycle_object. */
static inline tl_levels_objects tl_glue_levels_objects(void) {
    tl_levels_objects hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.object_size = sizeof(tl_lifecycle_object);
    hooks.start = tl__glue_objects_start;
    hooks.update = tl__glue_objects_update;
    hooks.failure = tl__glue_objects_failure;
    hooks.discard = tl__glue_objects_discard;
    return hooks;
}

/* tl_level_set_objects with the type checked. */
static inline tl_levels_result
tl_glue_level_set_objects(tl_level *level, const tl_lifecycle_object *objects, uint32_t count) {
    return tl_level_set_objects(level, objects, count);
}

/* The level's batch, NULL before its objects start and after they go. */
static inline tl_lifecycle_batch *tl_glue_level_batch(const tl_level *level) {
    return (tl_lifecycle_batch *)tl_level_objects_run(level);
}

/* --- levels.h's scopes as content.h scopes --------------------------------------------------------- */

static inline uint64_t tl__glue_scope_handle(tl_scope scope) {
    return tl_scope_valid(scope) ? ((uint64_t)scope.index << 32) | scope.gen : 0u;
}

static inline tl_scope tl__glue_scope_of(void *content, uint64_t handle) {
    tl_scope scope;
    scope.ctx = handle ? (tl_content *)content : TL__NULL;
    scope.index = (uint32_t)(handle >> 32);
    scope.gen = (uint32_t)handle;
    return scope;
}

static inline uint64_t tl__glue_scope_begin(void *content, uint32_t level) {
    char name[32];
    snprintf(name, sizeof name, "Level %u", (unsigned)level);
    return tl__glue_scope_handle(
        tl_scope_create(tl_content_root((tl_content *)content), name, TL_SCOPE_LEVEL));
}

static inline void tl__glue_scope_end(void *content, uint64_t handle) {
    tl_scope scope = tl__glue_scope_of(content, handle);
    if (tl_scope_valid(scope)) tl_scope_dispose(scope);
}

/* desc.scopes of a level set whose levels each get a scope of kind level under content's root,
   named "Level <id>", from the start of their load to the end of their unload. The level set keeps
   `content` and uses it at every unload, its own shutdown's included: shut the level set down
   (tl_levels_shutdown or tl_levels_destroy; tl_lifecycle_discard when it is attached) before
   tl_content_shutdown, which frees the context. */
static inline tl_levels_scopes tl_glue_levels_scopes(tl_content *content) {
    tl_levels_scopes hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.ctx = content;
    hooks.begin = tl__glue_scope_begin;
    hooks.end = tl__glue_scope_end;
    return hooks;
}

/* A level's scope (zero without one). */
static inline tl_scope tl_glue_level_scope(const tl_level *level) {
    return tl__glue_scope_of(tl_levels_scopes_ctx(tl_level_owner(level)),
                             tl_level_scope_handle(level));
}

/* --- a level set shut down at a lifecycle's discard ------------------------------------------------ */

static inline void tl__glue_levels_shutdown(void *levels, tl_lifecycle *lifecycle) {
    (void)lifecycle;
    tl_levels_shutdown((tl_levels *)levels);
}

/* tl_lifecycle_discard shuts the level set down before any subsystem's discard (the objects'
   subsystems still exist while they go). The result of tl_lifecycle_before_discard. */
static inline tl_lifecycle_result tl_glue_levels_attach(tl_lifecycle *lifecycle,
                                                        tl_levels *levels) {
    if (!levels) return tl__glue_no_service(lifecycle, "tl_glue_levels_attach");
    return tl_lifecycle_before_discard(lifecycle, tl__glue_levels_shutdown, levels);
}

/* Before tl_levels_destroy, while the lifecycle it was attached to lives. */
static inline void tl_glue_levels_detach(tl_lifecycle *lifecycle, tl_levels *levels) {
    (void)tl_lifecycle_remove_before_discard(lifecycle, tl__glue_levels_shutdown, levels);
}

/* --- platform.h in a lifecycle's native tier --------------------------------------------------------- */

static inline tl_lifecycle_status tl__glue_platform_preload(void *platform,
                                                            tl_lifecycle *lifecycle) {
    (void)lifecycle;
    return tl_platform_update((tl_platform *)platform) == TL_PLATFORM_STATE_INITIALIZING
               ? TL_LIFECYCLE_PENDING
               : TL_LIFECYCLE_DONE; /* READY or FAILED: a failure never fails the deployment */
}

static inline void tl__glue_platform_discard(void *platform, tl_lifecycle *lifecycle) {
    (void)lifecycle;
    tl_platform_shutdown((tl_platform *)platform);
}

static inline void tl__glue_platform_unpin(void *platform, tl_lifecycle *lifecycle) {
    (void)lifecycle;
    tl_platform_pin((tl_platform *)platform, false); /* its discard (native tier) follows */
}

/* Weaves the platform into the lifecycle's native tier: its deployment is that tier's preload, its
   shutdown that subsystem's discard (after the user tier's). Until the lifecycle's discard begins
   the platform is pinned: tl_platform_destroy is refused. The result of tl_lifecycle_before_discard
   or tl_lifecycle_weave_native. */
static inline tl_lifecycle_result tl_glue_weave_platform(tl_lifecycle *lifecycle,
                                                         tl_platform *platform) {
    static const tl_lifecycle_subsystem subsystem = { /* in here: see tl_glue_weave_time */
                                                      "Platform", tl__glue_platform_preload,
                                                      TL__NULL, TL__NULL, tl__glue_platform_discard
    };
    tl_lifecycle_result result;
    if (!platform) return tl__glue_no_service(lifecycle, "tl_glue_weave_platform");
    result = tl_lifecycle_before_discard(lifecycle, tl__glue_platform_unpin, platform);
    if (result != TL_LIFECYCLE_OK) return result;
    result = tl_lifecycle_weave_native(lifecycle, &subsystem, platform);
    if (result != TL_LIFECYCLE_OK) {
        (void)tl_lifecycle_remove_before_discard(lifecycle, tl__glue_platform_unpin, platform);
        return result;
    }
    tl_platform_pin(platform, true);
    return TL_LIFECYCLE_OK;
}

/* --- vault.h records in save.h files ---------------------------------------------------------------- */

static inline tl_save_result tl__glue_save_vault_refused(tl_save_store *store, const char *what,
                                                         const char *file_id,
                                                         tl_vault_result error) {
    tl_log(tl_save_store_logger(store), TL_LOG_LEVEL_ERROR, "Save", "%s %s: %s", what,
           file_id ? file_id : "(null)", tl_vault_result_message(error));
    return tl_save_set_last_result(store, TL_SAVE_VAULT, (int)error);
}

/* Serialises the vault (tl_vault_write) as file `file_id` of the transaction. A vault that cannot
   be written is TL_SAVE_VAULT with the tl_vault_result as tl_save_last_native_error, logged. */
static inline tl_save_result tl_glue_save_write_vault(tl_save_txn *txn, const char *file_id,
                                                      const tl_vault_desc *desc,
                                                      const void *vault) {
    size_t size = desc && vault ? tl_vault_serialised_size(desc, vault) : 0, written = 0;
    void *bytes = size ? TL_MALLOC(size) : TL__NULL;
    tl_vault_result error = TL_VAULT_ERROR_ARGUMENT;
    tl_save_result r;
    if (bytes) error = tl_vault_write(desc, vault, bytes, size, &written);
    if (error == TL_VAULT_OK) r = tl_save_txn_write(txn, file_id, bytes, written);
    else
        r = tl__glue_save_vault_refused(txn ? txn->store : TL__NULL, "writing vault file", file_id,
                                        error);
    TL_FREE(bytes);
    return r;
}

/* Reads file `file_id` of the save's published generation (its hash checked) into the vault
   (tl_vault_read: on any error the vault is untouched; TL_SAVE_VAULT with the tl_vault_result as
   tl_save_last_native_error, logged). */
static inline tl_save_result tl_glue_save_read_vault(tl_save_store *store, const char *save_id,
                                                     const char *file_id, const tl_vault_desc *desc,
                                                     void *vault) {
    void *bytes = TL__NULL;
    size_t size = 0;
    tl_vault_result error;
    tl_save_result r = tl_save_read_alloc(store, save_id, file_id, &bytes, &size);
    if (r != TL_SAVE_OK) return r;
    error = desc && vault ? tl_vault_read(desc, vault, bytes, size) : TL_VAULT_ERROR_ARGUMENT;
    tl_save_free(bytes);
    return error == TL_VAULT_OK
               ? r
               : tl__glue_save_vault_refused(store, "reading vault file", file_id, error);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_GLUE_H */

/* Outside the guard: a file that included glue.h before defining TL_IMPLEMENTATION and includes it
   again reaches the implementations of the services it joins (each header guards its own). */
#include "content.h"
#include "levels.h"
#include "lifecycle.h"
#include "platform.h"
#include "save.h"
#include "time.h"
#include "vault.h"
