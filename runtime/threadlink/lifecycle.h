/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/lifecycle.h -- subsystems deployed in order, object batches, register / linker /
   weaver (the seed's Initium).

   WHAT
   ----
   A lifecycle batch drives any list of objects (a level's, say) through preload, boot, a frame
   later initialize, and discard, children before parents. A lifecycle (the seed's core) weaves
   subsystems (a name and optional preload, boot, initialize and discard functions over a `self`
   pointer) in order and deploys them as batches, its native tier then its user tier, then
   publishes OnCoreDeployed. Discard runs in reverse weave order. Register, linker and weaver are
   small containers over caller memory (collections.h) for the objects subsystems keep. The frame
   clock is time.h's (the seed's Chronos); glue.h weaves it in as the first native subsystem.

   INCLUDE
   -------
       #include <threadlink/lifecycle.h>
       #define TL_LIFECYCLE_IMPL               // in exactly one C or C++ file (or TL_IMPLEMENTATION)
       #include <threadlink/lifecycle.h>
   A service: it includes only the core (events.h, log.h, collections.h). TL_API (api.h): static,
   shared library. TL_MALLOC / TL_FREE override the allocator (both or neither).

   USE
   ---
       static const tl_lifecycle_subsystem inventory_subsystem = {
           "Inventory", inventory_preload, inventory_boot, inventory_initialize, inventory_discard };
       TL_LIFECYCLE_SINGLETON(inventory_get, inventory, inventory_subsystem)

       static const tl_lifecycle_events events = TL_LIFECYCLE_EVENTS_INIT(Iris_Events_);
       tl_lifecycle_desc desc = {0};            // zero: defaults (see tl_lifecycle_desc)
       desc.registry = &registry;               // where OnCoreDeployed is published
       desc.events = &events;
       tl_lifecycle core;
       tl_lifecycle_init(&core, &desc);
       tl_lifecycle_weave(&core, &inventory_subsystem, &my_inventory);   // TL_LIFECYCLE_OK or why not
       while (tl_lifecycle_deploy(&core) == TL_LIFECYCLE_DEPLOY_PENDING) wait_a_frame();
       ...
       tl_lifecycle_discard(&core);

   NATIVE EVENTS
   -------------
   lifecycle.h never includes a generated header (the Iris.Events enum is the project's). It
   publishes through events.h's untyped core with the event id in tl_lifecycle_events, checked
   with its signature id. TL_LIFECYCLE_EVENTS_INIT(Iris_Events_) builds it from the generated enum
   (a removed native event fails to compile); NULL `events` means the native ordinal 0, the first
   line of natives/Iris.Events.Native.txt:

       OnCoreDeployed(tl_lifecycle *)   tl_lifecycle_deploy, once, after the first complete deployment

   LIFECYCLE RULES
   ---------------
   - Deployment captures the subsystems woven so far (a "round"); every phase runs over exactly
     that set, in weave order. A subsystem woven during a phase joins the next round: call
     tl_lifecycle_deploy again once deployed.
   - A round deploys as lifecycle batches (see "lifecycle batches" below): its native tier
     (tl_lifecycle_weave_native; glue.h weaves the time service there) first, then its user tier
     (tl_lifecycle_weave). In each
     tier, the first call starts every preload once and a preload returning TL_LIFECYCLE_PENDING
     is polled again at each later call (once per frame: asynchronous loading without threads);
     all are awaited. When every preload of the tier is done, every boot runs, and every
     initialize runs at the NEXT call (the seed's one-frame separation; a tier without initialize
     functions needs no extra call); then the next tier starts in the same call. After the last
     tier the call returns TL_LIFECYCLE_DEPLOY_DONE -- unless a listener of OnCoreDeployed (published
     before the call returns) discarded the core: the call then returns TL_LIFECYCLE_DEPLOY_FAILED, as
     every later one does (TL_LIFECYCLE_DEPLOY_DONE always means tl_lifecycle_deployed is true). Poll
     tl_lifecycle_deploy once per frame until it is not TL_LIFECYCLE_DEPLOY_PENDING.
   - A preload returning TL_LIFECYCLE_FAILED fails its tier once every preload of the tier has
     settled: an error names each failed subsystem, nothing in the tier boots, later tiers never
     start, and tl_lifecycle_deploy returns TL_LIFECYCLE_DEPLOY_FAILED from then on (tl_lifecycle_failed_subsystem
     names the first, tl_lifecycle_failed_count / tl_lifecycle_failed_name all of them).
   - tl_lifecycle_discard first runs the tl_lifecycle_before_discard hooks (newest first, lookups still
     answer, a weave is refused: the core is discarding), then discard once for every subsystem
     of every tier that started, the user tier before the native one and a later round before an
     earlier one, each in reverse weave order (a subsystem never reached by deployment is
     dropped without calls); it is safe at any point between calls (while preloads are pending,
     after a failure), not from inside a lifecycle function. During and after it, singleton
     lookups answer false.
   - A subsystem with no preload counts as preloaded; missing functions are skipped.

   ERRORS
   ------
   What can fail returns tl_lifecycle_result (TL_LIFECYCLE_OK = 0, tl_lifecycle_result_message;
   docs/errors.md), logged once where met through desc.logger (TL_LIFECYCLE_LOG_ITEMS). Progress
   stays a state: tl_lifecycle_status (a preload's answer), tl_lifecycle_deploy_status and
   tl_lifecycle_batch_status (a poll's); why deploy answered FAILED is tl_lifecycle_last_result.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_LIFECYCLE_IMPL)
#define TL_LIFECYCLE_IMPL
#endif
#ifndef TL_LIFECYCLE_H
#define TL_LIFECYCLE_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "events.h"
#include "collections.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- native events ----------------------------------------------------------------------------- */

typedef struct tl_lifecycle_events {
    uint32_t core_deployed;
} tl_lifecycle_events;

/* From a generated enum: TL_LIFECYCLE_EVENTS_INIT(Iris_Events_) -> { Iris_Events_OnCoreDeployed, ... }. */
#define TL_LIFECYCLE_EVENTS_INIT(prefix) \
    { prefix##OnCoreDeployed }
/* The native ordinals (the order of natives/Iris.Events.Native.txt): what NULL events mean. */
#define TL_LIFECYCLE_EVENTS_NATIVE \
    { 0 }

/* Signature ids of the native events (XXH32 of the normalised text, see events.h). */
#define TL_LIFECYCLE_SIG_CORE 0xfe445e4eu /* "(tl_lifecycle *)" */

/* Listener types of the native events, for code that subscribes through the untyped core. */
typedef void (*tl_lifecycle_deployed_fn)(void *ctx, tl_lifecycle *core);

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_LIFECYCLE_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(ALREADY_WOVEN, "the subsystem is already woven into this core") \
    X(REFUSED, "the core is failed, discarding or discarded") \
    X(REENTRANT_CALL, "called from inside a lifecycle function") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(PRELOAD_FAILED, "a preload failed: nothing in its batch boots") \
    X(BATCH_PARENT, "an object's parent index is out of range or in a cycle") \
    X(DUPLICATE_HOOK, "the before-discard hook (function and context) is registered already")

typedef enum tl_lifecycle_result {
    TL_LIFECYCLE_OK = 0,
#define TL__LIFECYCLE_RESULT_ENUM(id, message) TL_LIFECYCLE_##id,
    TL_LIFECYCLE_RESULTS(TL__LIFECYCLE_RESULT_ENUM)
#undef TL__LIFECYCLE_RESULT_ENUM
        TL_LIFECYCLE_RESULT_END_
} tl_lifecycle_result;

TL_API const char *tl_lifecycle_result_message(tl_lifecycle_result result);

#define TL_LIFECYCLE_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(ALREADY_WOVEN, TL_LOG_LEVEL_ERROR, "subsystem '%s' is already woven into this core") \
    X(WEAVE_REFUSED, TL_LOG_LEVEL_ERROR, "cannot weave subsystem '%s': the core is %s") \
    X(PRELOAD_FAILED, TL_LOG_LEVEL_ERROR, \
      "preload of %s '%s' failed: deployment stopped, nothing boots") \
    X(BATCH_PRELOADS_FAILED, TL_LOG_LEVEL_ERROR, \
      "batch '%s': %u of %u preloads failed, nothing in it boots") \
    X(BATCH_PARENT, TL_LOG_LEVEL_ERROR, "batch '%s': object %u has %s parent %u") \
    X(DEPLOY_REFUSED, TL_LOG_LEVEL_ERROR, "cannot deploy: the core is %s") \
    X(REENTRANT_CALL, TL_LOG_LEVEL_ERROR, "%s called from inside a lifecycle function: refused") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(HOOK_REFUSED, TL_LOG_LEVEL_ERROR, "cannot add a before-discard hook: the core is %s") \
    X(DUPLICATE_HOOK, TL_LOG_LEVEL_ERROR, \
      "%s: the hook (function and context) is registered already: it would run twice")

#define TL_LIFECYCLE_LOG_BASE 0x200u
typedef enum tl_lifecycle_log_item {
    TL_LIFECYCLE_LOG_NONE_ = TL_LIFECYCLE_LOG_BASE - 1,
#define TL__LIFECYCLE_LOG_ENUM(id, level, message) TL_LIFECYCLE_LOG_##id,
    TL_LIFECYCLE_LOG_ITEMS(
        TL__LIFECYCLE_LOG_ENUM) /* TL_LIFECYCLE_LOG_<id>, one per row from the base */
#undef TL__LIFECYCLE_LOG_ENUM
    TL_LIFECYCLE_LOG_END_
} tl_lifecycle_log_item;

/* --- subsystems and the core -------------------------------------------------------------------- */

typedef enum tl_lifecycle_status {
    TL_LIFECYCLE_DONE = 0,
    TL_LIFECYCLE_PENDING = 1, /* poll me again next frame */
    TL_LIFECYCLE_FAILED = 2
} tl_lifecycle_status;

/* A subsystem type: usually one static const instance per type. Its address identifies the type
   for singleton lookups; every function is optional and gets the woven `self`. */
typedef struct tl_lifecycle_subsystem {
    const char *name;
    tl_lifecycle_status (*preload)(void *self, tl_lifecycle *core);
    void (*boot)(void *self, tl_lifecycle *core);
    void (*initialize)(void *self, tl_lifecycle *core);
    void (*discard)(void *self, tl_lifecycle *core);
} tl_lifecycle_subsystem;

typedef enum tl_lifecycle_deploy_status {
    TL_LIFECYCLE_DEPLOY_PENDING = 0, /* preloads still pending: call again next frame */
    TL_LIFECYCLE_DEPLOY_DONE = 1,
    TL_LIFECYCLE_DEPLOY_FAILED = 2
} tl_lifecycle_deploy_status;

/* Zero-initialised: no registry (nothing published), native event ordinals, stderr logging. */
typedef struct tl_lifecycle_desc {
    tl_events *registry;
    const tl_lifecycle_events *events;
    const tl_logger *logger;
} tl_lifecycle_desc;

typedef struct tl__lifecycle_entry {
    const tl_lifecycle_subsystem *subsystem;
    void *self;
    uint32_t stage; /* TL__STAGE_* */
    uint32_t tier;  /* TL__TIER_* */
} tl__lifecycle_entry;

typedef void (*tl_lifecycle_hook_fn)(void *ctx, tl_lifecycle *core);
typedef struct tl__lifecycle_hook {
    tl_lifecycle_hook_fn fn;
    void *ctx;
} tl__lifecycle_hook;
typedef struct tl__lifecycle_batch tl__lifecycle_batch; /* one tier of one round (implementation) */

/* Read-only to users. */
struct tl_lifecycle {
    tl_events *registry;
    tl_lifecycle_events events;
    tl_logger logger;
    tl__lifecycle_entry *entries;
    uint32_t count, capacity;
    uint32_t round_begin, round_end;             /* the captured set of the current deployment */
    uint32_t state;                              /* TL__LIFECYCLE_* */
    bool in_phase;                               /* inside a lifecycle function */
    bool discarding;                             /* tl_lifecycle_discard began (its hooks too) */
    bool announced;                              /* OnCoreDeployed published */
    const char *failed;                          /* name of the (first) preload that failed */
    tl__lifecycle_batch *batches;                /* every tier batch started, in deployment order */
    uint32_t batch_count, batch_cap, batch_next; /* batch_next: the one deploying */
    tl__lifecycle_hook *hooks;                   /* tl_lifecycle_before_discard, run newest first */
    uint32_t hook_count, hook_cap;
    tl_lifecycle_result last; /* why deploy last answered FAILED */
};

/* TL_LIFECYCLE_INVALID_ARGUMENT for a NULL core. */
TL_API tl_lifecycle_result tl_lifecycle_init(tl_lifecycle *core, const tl_lifecycle_desc *desc);
/* Adds a subsystem (its type at most once) to the next deployment round. TL_LIFECYCLE_REFUSED
   when the core is discarding (its before-discard hooks included), discarded or failed,
   TL_LIFECYCLE_ALREADY_WOVEN on duplicates. */
TL_API tl_lifecycle_result tl_lifecycle_weave(tl_lifecycle *core,
                                              const tl_lifecycle_subsystem *subsystem, void *self);
/* The same in the native tier: each round deploys its native subsystems as one batch, then its
   user subsystems (tl_lifecycle_weave) as the next. */
TL_API tl_lifecycle_result tl_lifecycle_weave_native(tl_lifecycle *core,
                                                     const tl_lifecycle_subsystem *subsystem,
                                                     void *self);
TL_API tl_lifecycle_deploy_status tl_lifecycle_deploy(tl_lifecycle *core);
/* Why the last tl_lifecycle_deploy answered TL_LIFECYCLE_DEPLOY_FAILED (PRELOAD_FAILED, REFUSED,
   REENTRANT_CALL, OUT_OF_MEMORY); TL_LIFECYCLE_OK while it never did, INVALID_ARGUMENT for NULL. */
TL_API tl_lifecycle_result tl_lifecycle_last_result(const tl_lifecycle *core);
/* fn(ctx, core) runs at the start of tl_lifecycle_discard, newest first, before any subsystem is
   discarded (lookups still answer): what subsystems' users hold goes first (levels.h releases
   its levels here). A hook registered by a running hook runs next, in the same discard;
   TL_LIFECYCLE_REFUSED once the hooks have run (the subsystems are being discarded, or are).
   A pair registered already is refused (TL_LIFECYCLE_DUPLICATE_HOOK): it would run twice. */
TL_API tl_lifecycle_result tl_lifecycle_before_discard(tl_lifecycle *core, tl_lifecycle_hook_fn fn,
                                                       void *ctx);
/* Unregisters the pair (what goes away before the core does); false when not registered (a hook
   that has begun to run is not). */
TL_API bool tl_lifecycle_remove_before_discard(tl_lifecycle *core, tl_lifecycle_hook_fn fn,
                                               void *ctx);
TL_API void tl_lifecycle_discard(tl_lifecycle *core);
/* The woven `self` of a subsystem type; false while (or after) the core is discarded. */
TL_API bool tl_lifecycle_find(const tl_lifecycle *core, const tl_lifecycle_subsystem *subsystem,
                              void **self);
TL_API bool tl_lifecycle_deployed(const tl_lifecycle *core);
TL_API const char *tl_lifecycle_failed_subsystem(const tl_lifecycle *core);
/* Every subsystem whose preload failed in the failed batch, in weave order. */
TL_API uint32_t tl_lifecycle_failed_count(const tl_lifecycle *core);
TL_API const char *tl_lifecycle_failed_name(const tl_lifecycle *core, uint32_t i);

/* --- lifecycle batches -------------------------------------------------------------------------
   The seed's Initium pipeline for any objects (a level's, a tool's, the core's subsystems): a
   batch captures a list of objects once, each with a vtable and its parent's index, and drives
   them with one tl_lifecycle_batch_update call per frame:
   - the first update starts every preload together; later updates poll the pending ones. All
     are awaited: if any failed, the batch fails naming every failed preloader (one error each,
     and tl_lifecycle_batch_failed_count / tl_lifecycle_batch_failed_name) and nothing boots;
   - the update that sees every preload done boots every object (one batch) and answers
     TL_LIFECYCLE_BATCH_PENDING; the next update initializes every object (one batch, the seed's one-frame
     separation) and answers TL_LIFECYCLE_BATCH_DONE. A batch in which no object has an initialize is done
     in the update that boots it (there is nothing to separate);
   - tl_lifecycle_batch_discard calls discard on every object exactly once, whatever happened before
     (pending, failed, booted or not), children before parents (deeper first; among equals,
     the later index first), then frees the batch. Missing functions are skipped.
   Objects created during a phase are not swept into the batch: it is the list given to init.
   tl_lifecycle_batch_update and tl_lifecycle_batch_discard refuse to run from inside the batch's own functions. */

#define TL_LIFECYCLE_BATCH_NO_PARENT UINT32_MAX

typedef struct tl_lifecycle_object_vtable {
    const char *type_name; /* names the object in messages when tl_lifecycle_object.name is NULL */
    tl_lifecycle_status (*preload_start)(void *self, void *ctx);
    tl_lifecycle_status (*preload_poll)(void *self, void *ctx); /* NULL: preload_start again */
    void (*boot)(void *self, void *ctx);
    void (*initialize)(void *self, void *ctx);
    void (*discard)(void *self, void *ctx);
    /* Dependency injection (the seed's IDependencyConsumer): tl_lifecycle_batch_offer hands each object a
       dependency of a project-defined kind; true means the object took it. */
    bool (*consume_dependency)(void *self, void *ctx, uint32_t kind, void *dependency);
} tl_lifecycle_object_vtable;

typedef struct tl_lifecycle_object {
    const tl_lifecycle_object_vtable *vtable;
    void *self;
    const char *name; /* NULL: vtable->type_name */
    uint32_t parent;  /* index of the parent in the same list, or TL_LIFECYCLE_BATCH_NO_PARENT */
} tl_lifecycle_object;

typedef enum tl_lifecycle_batch_status {
    TL_LIFECYCLE_BATCH_PENDING = 0, /* update again next frame */
    TL_LIFECYCLE_BATCH_DONE = 1,    /* every object preloaded, booted and initialized */
    TL_LIFECYCLE_BATCH_FAILED = 2 /* a preload failed (or the batch is discarded): nothing booted */
} tl_lifecycle_batch_status;

/* Zero-initialised: the batch is named "batch", its objects "object", functions get ctx NULL,
   stderr logging. */
typedef struct tl_lifecycle_batch_desc {
    const char *name; /* in messages */
    const char *noun; /* what the objects are, in messages ("subsystem", "object") */
    void *ctx;        /* the second argument of every vtable function */
    const tl_logger *logger;
} tl_lifecycle_batch_desc;

typedef struct tl__lifecycle_batch_item {
    tl_lifecycle_object object;
    uint32_t stage; /* TL__LIFECYCLE_BATCH_STAGE_* */
} tl__lifecycle_batch_item;

/* Read-only to users. */
typedef struct tl_lifecycle_batch {
    tl__lifecycle_batch_item *items;
    uint32_t *discard_order; /* item indices, children before parents */
    uint32_t *failed;        /* item indices of the failed preloads, in list order */
    uint32_t count, failed_count, state;
    const char *name, *noun;
    void *ctx;
    tl_logger logger;
    bool in_phase;
} tl_lifecycle_batch;

/* Copies the list (count may be 0). TL_LIFECYCLE_BATCH_PARENT on a parent index out of range or
   a cycle of parents, TL_LIFECYCLE_OUT_OF_MEMORY: the batch is then empty and discarding it does
   nothing. */
TL_API tl_lifecycle_result tl_lifecycle_batch_init(tl_lifecycle_batch *batch,
                                                   const tl_lifecycle_batch_desc *desc,
                                                   const tl_lifecycle_object *objects,
                                                   uint32_t count);
TL_API tl_lifecycle_batch_status tl_lifecycle_batch_update(tl_lifecycle_batch *batch);
/* The status the next update would start from: PENDING until done or failed. */
TL_API tl_lifecycle_batch_status tl_lifecycle_batch_status_of(const tl_lifecycle_batch *batch);
TL_API bool tl_lifecycle_batch_booted(
    const tl_lifecycle_batch *batch); /* boot ran (initialize may still be due) */
TL_API uint32_t tl_lifecycle_batch_count(const tl_lifecycle_batch *batch);
TL_API uint32_t tl_lifecycle_batch_failed_count(const tl_lifecycle_batch *batch);
TL_API uint32_t tl_lifecycle_batch_failed_index(const tl_lifecycle_batch *batch,
                                                uint32_t i); /* UINT32_MAX out of range */
TL_API const char *tl_lifecycle_batch_failed_name(const tl_lifecycle_batch *batch,
                                                  uint32_t i); /* NULL out of range */
/* Offers a dependency to every object with consume_dependency, in list order; returns how many
   took it. */
TL_API uint32_t tl_lifecycle_batch_offer(tl_lifecycle_batch *batch, uint32_t kind,
                                         void *dependency);
TL_API void tl_lifecycle_batch_discard(tl_lifecycle_batch *batch);

/* A typed singleton lookup: TL_LIFECYCLE_SINGLETON(inventory_get, inventory, inventory_subsystem)
   defines `static inline bool inventory_get(const tl_lifecycle *core, inventory **out)`. */
#define TL_LIFECYCLE_SINGLETON(fn_name, type, subsystem) \
    static inline bool fn_name(const tl_lifecycle *core, type **out) { \
        void *tl__self = TL__NULL; \
        bool tl__found = tl_lifecycle_find(core, &(subsystem), &tl__self); \
        if (out) *out = tl__found ? TL__CAST(type *, tl__self) : TL__NULL; \
        return tl__found; \
    }

/* --- register, linker, weaver: containers over caller memory (mem.h inline collections) ---------
   Each takes memory of the size its TL_*_BYTES macro gives, 8-byte aligned, and never allocates.
   Object pointers are stored as raw bytes: these containers are for run-time bookkeeping, not for
   state that is hashed or saved. */

/* Register: objects keyed by a 32-bit id (an identity-domain value), stored as an 8-byte key so
   that the table's word-sized key compares never read past it. */
#define TL_LIFECYCLE_REGISTER_BYTES(capacity) TL_LAYOUT_DICT_BYTES((capacity), 8u, sizeof(void *))
typedef struct tl_lifecycle_register {
    tl_inline_dict table;
} tl_lifecycle_register;

static inline bool tl_lifecycle_register_init(tl_lifecycle_register *reg, void *memory,
                                              uint32_t capacity) {
    if (memory) memset(memory, 0, (size_t)TL_LIFECYCLE_REGISTER_BYTES(capacity));
    reg->table = tl_inline_dict_view(memory, capacity, 8u, (uint32_t)sizeof(void *));
    return tl_inline_dict_valid(reg->table);
}
/* False when the id is taken, the register is full or object is NULL. */
static inline bool tl_lifecycle_register_add(tl_lifecycle_register *reg, uint32_t id,
                                             void *object) {
    uint64_t key = id;
    return object != NULL && tl_inline_dict_try_add(reg->table, &key, &object);
}
static inline bool tl_lifecycle_register_remove(tl_lifecycle_register *reg, uint32_t id) {
    uint64_t key = id;
    return tl_inline_dict_remove(reg->table, &key);
}
static inline void *tl_lifecycle_register_get(const tl_lifecycle_register *reg, uint32_t id) {
    uint64_t key = id;
    void *object = NULL;
    return tl_inline_dict_try_get(reg->table, &key, &object) ? object : NULL;
}
static inline bool tl_lifecycle_register_contains(const tl_lifecycle_register *reg, uint32_t id) {
    uint64_t key = id;
    return tl_inline_dict_contains_key(reg->table, &key);
}
static inline uint32_t tl_lifecycle_register_count(const tl_lifecycle_register *reg) {
    return tl_inline_dict_count(reg->table);
}
static inline void tl_lifecycle_register_clear(tl_lifecycle_register *reg) {
    tl_inline_dict_clear(reg->table);
}
/* Iteration: tl_inline_iter it = tl_lifecycle_register_iter(&r); while (tl_lifecycle_register_next(&r, &it, &id, &o)). */
static inline tl_inline_iter tl_lifecycle_register_iter(const tl_lifecycle_register *reg) {
    return tl_inline_dict_iter(reg->table);
}
static inline bool tl_lifecycle_register_next(const tl_lifecycle_register *reg, tl_inline_iter *it,
                                              uint32_t *id, void **object) {
    const void *key;
    void *value;
    if (!tl_inline_dict_next(reg->table, it, &key, &value)) return false;
    if (id) {
        uint64_t wide;
        memcpy(&wide, key, sizeof wide);
        *id = (uint32_t)wide;
    }
    if (object) memcpy(object, value, sizeof *object);
    return true;
}

/* Linker: tracks objects created elsewhere; disconnecting calls the optional callback. */
typedef void (*tl_lifecycle_object_fn)(void *ctx, void *object);
#define TL_LIFECYCLE_LINKER_BYTES(capacity) TL_LAYOUT_SEQUENCE_BYTES((capacity), sizeof(void *))
typedef struct tl_lifecycle_linker {
    tl_inline_list list;
    tl_lifecycle_object_fn on_disconnect; /* may be NULL */
    void *ctx;
} tl_lifecycle_linker;

static inline void *tl__object_at(tl_inline_list list, uint32_t index) {
    void *object = NULL;
    const void *slot = tl_inline_list_at(list, index);
    if (slot) memcpy(&object, slot, sizeof object);
    return object;
}
static inline uint32_t tl__object_find(tl_inline_list list, const void *object) {
    uint32_t i = tl_inline_list_count(list);
    while (i-- > 0)
        if (tl__object_at(list, i) == object) return i;
    return TL_INLINE_NONE;
}

static inline bool tl_lifecycle_linker_init(tl_lifecycle_linker *linker, void *memory,
                                            uint32_t capacity, tl_lifecycle_object_fn on_disconnect,
                                            void *ctx) {
    if (memory) memset(memory, 0, (size_t)TL_LIFECYCLE_LINKER_BYTES(capacity));
    linker->list = tl_inline_list_view(memory, capacity, (uint32_t)sizeof(void *));
    linker->on_disconnect = on_disconnect;
    linker->ctx = ctx;
    return tl_inline_list_valid(linker->list);
}
/* False when already linked, full or NULL. */
static inline bool tl_lifecycle_linker_link(tl_lifecycle_linker *linker, void *object) {
    if (!object || tl__object_find(linker->list, object) != TL_INLINE_NONE) return false;
    return tl_inline_list_add(linker->list, &object);
}
static inline bool tl_lifecycle_linker_contains(const tl_lifecycle_linker *linker,
                                                const void *object) {
    return object && tl__object_find(linker->list, object) != TL_INLINE_NONE;
}
static inline uint32_t tl_lifecycle_linker_count(const tl_lifecycle_linker *linker) {
    return tl_inline_list_count(linker->list);
}
static inline void *tl_lifecycle_linker_at(const tl_lifecycle_linker *linker, uint32_t index) {
    return tl__object_at(linker->list, index);
}
/* False when not linked. The last linked object takes the hole (order is not kept). */
static inline bool tl_lifecycle_linker_disconnect(tl_lifecycle_linker *linker, void *object) {
    uint32_t at = object ? tl__object_find(linker->list, object) : TL_INLINE_NONE;
    if (at == TL_INLINE_NONE) return false;
    tl_inline_list_remove_at(linker->list, at);
    if (linker->on_disconnect) linker->on_disconnect(linker->ctx, object);
    return true;
}
/* Newest first; safe if the callback links or disconnects. */
static inline void tl_lifecycle_linker_disconnect_all(tl_lifecycle_linker *linker) {
    uint32_t n;
    while ((n = tl_inline_list_count(linker->list)) > 0) {
        void *object = tl__object_at(linker->list, n - 1);
        tl_inline_list_remove_at(linker->list, n - 1);
        if (linker->on_disconnect) linker->on_disconnect(linker->ctx, object);
    }
}

/* Weaver: owns objects; severing discards them. Weave order is kept, so sever-all discards in
   reverse weave order. */
#define TL_LIFECYCLE_WEAVER_BYTES(capacity) TL_LAYOUT_SEQUENCE_BYTES((capacity), sizeof(void *))
typedef struct tl_lifecycle_weaver {
    tl_inline_list list;
    tl_lifecycle_object_fn discard; /* may be NULL */
    void *ctx;
} tl_lifecycle_weaver;

static inline bool tl_lifecycle_weaver_init(tl_lifecycle_weaver *weaver, void *memory,
                                            uint32_t capacity, tl_lifecycle_object_fn discard,
                                            void *ctx) {
    if (memory) memset(memory, 0, (size_t)TL_LIFECYCLE_WEAVER_BYTES(capacity));
    weaver->list = tl_inline_list_view(memory, capacity, (uint32_t)sizeof(void *));
    weaver->discard = discard;
    weaver->ctx = ctx;
    return tl_inline_list_valid(weaver->list);
}
static inline bool tl_lifecycle_weaver_weave(tl_lifecycle_weaver *weaver, void *object) {
    if (!object || tl__object_find(weaver->list, object) != TL_INLINE_NONE) return false;
    return tl_inline_list_add(weaver->list, &object);
}
static inline bool tl_lifecycle_weaver_contains(const tl_lifecycle_weaver *weaver,
                                                const void *object) {
    return object && tl__object_find(weaver->list, object) != TL_INLINE_NONE;
}
static inline uint32_t tl_lifecycle_weaver_count(const tl_lifecycle_weaver *weaver) {
    return tl_inline_list_count(weaver->list);
}
static inline void *tl_lifecycle_weaver_at(const tl_lifecycle_weaver *weaver, uint32_t index) {
    return tl__object_at(weaver->list, index);
}
/* Removes the object (keeping the others' order), then discards it. False when not woven. */
static inline bool tl_lifecycle_weaver_sever(tl_lifecycle_weaver *weaver, void *object) {
    uint32_t at = object ? tl__object_find(weaver->list, object) : TL_INLINE_NONE;
    uint32_t n = tl_inline_list_count(weaver->list), i;
    if (at == TL_INLINE_NONE) return false;
    for (i = at; i + 1 < n; i++) /* shift down: order matters for sever-all */
        memcpy(tl_inline_list_at(weaver->list, i), tl_inline_list_at(weaver->list, i + 1),
               sizeof(void *));
    tl_inline_list_remove_at(weaver->list, n - 1);
    if (weaver->discard) weaver->discard(weaver->ctx, object);
    return true;
}
/* Reverse weave order; safe if a discard weaves or severs. */
static inline void tl_lifecycle_weaver_sever_all(tl_lifecycle_weaver *weaver) {
    uint32_t n;
    while ((n = tl_inline_list_count(weaver->list)) > 0) {
        void *object = tl__object_at(weaver->list, n - 1);
        tl_inline_list_remove_at(weaver->list, n - 1);
        if (weaver->discard) weaver->discard(weaver->ctx, object);
    }
}

#ifdef __cplusplus
}
#endif
#endif /* TL_LIFECYCLE_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_LIFECYCLE_IMPL) && !defined(TL__LIFECYCLE_IMPLEMENTED)
#define TL__LIFECYCLE_IMPLEMENTED
/* Again here, for the usage block's order (include, define TL_IMPLEMENTATION, include): the first
   includes of events.h and log.h saw no switch. Each emits its implementation only if its own
   switch is on (TL_IMPLEMENTATION turns on all of them), never because this one is. */
#include "events.h"
#include "log.h"
#include <float.h>
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

enum { TL__STAGE_WOVEN, TL__STAGE_PRELOADING }; /* woven / reached by deployment */
enum { TL__TIER_NATIVE, TL__TIER_USER };
enum {
    TL__LIFECYCLE_IDLE,
    TL__LIFECYCLE_DEPLOYING,
    TL__LIFECYCLE_DEPLOYED,
    TL__LIFECYCLE_FAILED,
    TL__LIFECYCLE_DISCARDING,
    TL__LIFECYCLE_DISCARDED
};

static const char *tl__lifecycle_state_name(uint32_t state) {
    switch (state) {
    case TL__LIFECYCLE_FAILED: return "failed";
    case TL__LIFECYCLE_DISCARDING: return "discarding";
    case TL__LIFECYCLE_DISCARDED: return "discarded";
    default: return "running";
    }
}

TL_LOG_TABLE_FN(tl__lifecycle_log, TL_LIFECYCLE_LOG_ITEMS, TL_LIFECYCLE_LOG_BASE, "Lifecycle")
TL_RESULT_MESSAGE_FN(tl_lifecycle_result_message, tl_lifecycle_result, TL_LIFECYCLE_RESULTS)

static const tl_lifecycle_events tl__native_events = TL_LIFECYCLE_EVENTS_NATIVE;

/* --- lifecycle batches ---------------------------------------------------------------------------- */

enum {
    TL__LIFECYCLE_BATCH_STAGE_NEW,
    TL__LIFECYCLE_BATCH_STAGE_PRELOADING,
    TL__LIFECYCLE_BATCH_STAGE_PRELOADED,
    TL__LIFECYCLE_BATCH_STAGE_FAILED,
    TL__LIFECYCLE_BATCH_STAGE_BOOTED,
    TL__LIFECYCLE_BATCH_STAGE_INITIALIZED,
    TL__LIFECYCLE_BATCH_STAGE_DISCARDED
};
enum {
    TL__LIFECYCLE_BATCH_IDLE,
    TL__LIFECYCLE_BATCH_PRELOADING,
    TL__LIFECYCLE_BATCH_BOOTED,
    TL__LIFECYCLE_BATCH_DONE,
    TL__LIFECYCLE_BATCH_FAILED,
    TL__LIFECYCLE_BATCH_DISCARDED
};

static const char *tl__lifecycle_batch_object_name(const tl_lifecycle_object *object) {
    if (object->name) return object->name;
    return object->vtable && object->vtable->type_name ? object->vtable->type_name : "?";
}

#define TL__LIFECYCLE_DEPTH_UNKNOWN UINT32_MAX
#define TL__LIFECYCLE_DEPTH_WALKING \
    (UINT32_MAX - 1u) /* on the walk under way: met again, a cycle */

/* The depth of object i (0 for a root) and of every ancestor not known yet, each computed once:
   linear in the list however deep the chains. Walks up to a root or a known depth, marking the
   way, then walks it again writing the depths; false on a cycle (the walk meets its own mark).
   A parent out of range ends the walk as a root would: its own object reports it. */
static bool tl__lifecycle_batch_depth_of(const tl_lifecycle_object *objects, uint32_t n, uint32_t i,
                                         uint32_t *depth) {
    uint32_t at = i, steps = 0, base;
    while (depth[at] == TL__LIFECYCLE_DEPTH_UNKNOWN && objects[at].parent < n) {
        depth[at] = TL__LIFECYCLE_DEPTH_WALKING;
        at = objects[at].parent;
        steps++;
    }
    if (depth[at] == TL__LIFECYCLE_DEPTH_WALKING) return false;
    if (depth[at] == TL__LIFECYCLE_DEPTH_UNKNOWN) depth[at] = 0; /* a root */
    base = depth[at];
    for (at = i; steps > 0; steps--, at = objects[at].parent) depth[at] = base + steps;
    return true;
}

/* Depth of each object (0 for a root) into depth[]; false on a bad parent or a cycle, reported
   for the first object (in list order) that has one or leads into one. */
static bool tl__lifecycle_batch_depths(tl_lifecycle_batch *batch,
                                       const tl_lifecycle_object *objects, uint32_t *depth) {
    uint32_t i, n = batch->count;
    for (i = 0; i < n; i++) depth[i] = TL__LIFECYCLE_DEPTH_UNKNOWN;
    for (i = 0; i < n; i++) {
        if (objects[i].parent != TL_LIFECYCLE_BATCH_NO_PARENT && objects[i].parent >= n) {
            tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_BATCH_PARENT, batch->name, i,
                              "an out-of-range", objects[i].parent);
            return false;
        }
        if (!tl__lifecycle_batch_depth_of(objects, n, i, depth)) {
            tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_BATCH_PARENT, batch->name, i,
                              "a cycle through its", objects[i].parent);
            return false;
        }
    }
    return true;
}

/* discard_order: deepest first, the later index first among equals. A counting sort by depth:
   `starts` (count entries; depths are below count) is scratch. */
static void tl__lifecycle_batch_order(tl_lifecycle_batch *batch, const uint32_t *depth,
                                      uint32_t *starts) {
    uint32_t i, d, max = 0, at = 0;
    for (i = 0; i < batch->count; i++)
        if (depth[i] > max) max = depth[i];
    for (d = 0; d <= max; d++) starts[d] = 0;
    for (i = 0; i < batch->count; i++) starts[depth[i]]++;
    for (d = max + 1; d-- > 0;) { /* the deepest first: each depth starts after the deeper ones */
        uint32_t n = starts[d];
        starts[d] = at;
        at += n;
    }
    for (i = batch->count; i-- > 0;) batch->discard_order[starts[depth[i]]++] = i;
}

static void tl__lifecycle_batch_reset(tl_lifecycle_batch *batch) {
    TL_FREE(batch->items);
    TL_FREE(batch->discard_order);
    TL_FREE(batch->failed);
    batch->items = NULL;
    batch->discard_order = batch->failed = NULL;
    batch->count = batch->failed_count = 0;
}

tl_lifecycle_result tl_lifecycle_batch_init(tl_lifecycle_batch *batch,
                                            const tl_lifecycle_batch_desc *desc,
                                            const tl_lifecycle_object *objects, uint32_t count) {
    uint32_t i, *depth;
    size_t n = count ? count : 1u;
    tl_lifecycle_result result = TL_LIFECYCLE_OUT_OF_MEMORY;
    if (!batch) {
        tl__lifecycle_log(desc ? desc->logger : NULL, TL_LIFECYCLE_LOG_INVALID_ARGUMENT,
                          "tl_lifecycle_batch_init");
        return TL_LIFECYCLE_INVALID_ARGUMENT;
    }
    memset(batch, 0, sizeof *batch);
    batch->name = desc && desc->name ? desc->name : "batch";
    batch->noun = desc && desc->noun ? desc->noun : "object";
    batch->ctx = desc ? desc->ctx : NULL;
    if (desc && desc->logger) batch->logger = *desc->logger;
    batch->state = TL__LIFECYCLE_BATCH_IDLE;
    if (count && !objects) {
        tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_INVALID_ARGUMENT,
                          "tl_lifecycle_batch_init");
        batch->state = TL__LIFECYCLE_BATCH_DISCARDED;
        return TL_LIFECYCLE_INVALID_ARGUMENT;
    }
    batch->items = (tl__lifecycle_batch_item *)TL_MALLOC(n * sizeof *batch->items);
    batch->discard_order = (uint32_t *)TL_MALLOC(n * sizeof *batch->discard_order);
    batch->failed = (uint32_t *)TL_MALLOC(n * sizeof *batch->failed);
    depth = (uint32_t *)TL_MALLOC(n * sizeof *depth);
    batch->count = count;
    if (!batch->items || !batch->discard_order || !batch->failed || !depth) {
        tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_OUT_OF_MEMORY, "batch");
    } else if (tl__lifecycle_batch_depths(batch, objects, depth)) {
        for (i = 0; i < count; i++) {
            batch->items[i].object = objects[i];
            batch->items[i].stage = TL__LIFECYCLE_BATCH_STAGE_NEW;
        }
        tl__lifecycle_batch_order(batch, depth, batch->failed); /* empty until an update */
        TL_FREE(depth);
        return TL_LIFECYCLE_OK;
    } else {
        result = TL_LIFECYCLE_BATCH_PARENT; /* logged by tl__lifecycle_batch_depths */
    }
    TL_FREE(depth);
    tl__lifecycle_batch_reset(batch);
    batch->state = TL__LIFECYCLE_BATCH_DISCARDED;
    return result;
}

static bool tl__lifecycle_batch_refuse_reentry(tl_lifecycle_batch *batch, const char *what) {
    if (!batch->in_phase) return false;
    tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_REENTRANT_CALL, what);
    return true;
}

/* One preload call (start or poll) of item i; the item's stage records the answer. */
static void tl__lifecycle_batch_preload(tl_lifecycle_batch *batch, uint32_t i, bool start) {
    const tl_lifecycle_object_vtable *vt = batch->items[i].object.vtable;
    tl_lifecycle_status (*fn)(void *, void *) = NULL;
    tl_lifecycle_status status = TL_LIFECYCLE_DONE;
    if (vt) fn = start || !vt->preload_poll ? vt->preload_start : vt->preload_poll;
    if (fn) {
        batch->in_phase = true;
        status = fn(batch->items[i].object.self, batch->ctx);
        batch->in_phase = false;
    }
    batch->items[i].stage = status == TL_LIFECYCLE_DONE      ? TL__LIFECYCLE_BATCH_STAGE_PRELOADED
                            : status == TL_LIFECYCLE_PENDING ? TL__LIFECYCLE_BATCH_STAGE_PRELOADING
                                                             : TL__LIFECYCLE_BATCH_STAGE_FAILED;
}

/* Starts (first update) or polls every preload; true once none is pending. */
static bool tl__lifecycle_batch_preloads_settled(tl_lifecycle_batch *batch) {
    bool start = batch->state == TL__LIFECYCLE_BATCH_IDLE, pending = false;
    uint32_t i;
    batch->state = TL__LIFECYCLE_BATCH_PRELOADING;
    for (i = 0; i < batch->count; i++) {
        if (start || batch->items[i].stage == TL__LIFECYCLE_BATCH_STAGE_PRELOADING)
            tl__lifecycle_batch_preload(batch, i, start);
        if (batch->items[i].stage == TL__LIFECYCLE_BATCH_STAGE_PRELOADING) pending = true;
    }
    return !pending;
}

/* Every preload settled: records the failed ones, each logged, and fails the batch. */
static bool tl__lifecycle_batch_collect_failures(tl_lifecycle_batch *batch) {
    uint32_t i;
    for (i = 0; i < batch->count; i++) {
        if (batch->items[i].stage != TL__LIFECYCLE_BATCH_STAGE_FAILED) continue;
        batch->failed[batch->failed_count++] = i;
        tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_PRELOAD_FAILED, batch->noun,
                          tl__lifecycle_batch_object_name(&batch->items[i].object));
    }
    if (batch->failed_count == 0) return false;
    if (batch->failed_count > 1)
        tl__lifecycle_log(&batch->logger, TL_LIFECYCLE_LOG_BATCH_PRELOADS_FAILED, batch->name,
                          batch->failed_count, batch->count);
    batch->state = TL__LIFECYCLE_BATCH_FAILED;
    return true;
}

/* Boot (initialize == false) or initialize every object, in list order. */
static bool tl__lifecycle_batch_phase(tl_lifecycle_batch *batch, bool initialize) {
    uint32_t i;
    bool any = false;
    for (i = 0; i < batch->count; i++) {
        tl__lifecycle_batch_item *item = &batch->items[i];
        void (*fn)(void *, void *) = NULL;
        if (item->object.vtable)
            fn = initialize ? item->object.vtable->initialize : item->object.vtable->boot;
        item->stage =
            initialize ? TL__LIFECYCLE_BATCH_STAGE_INITIALIZED : TL__LIFECYCLE_BATCH_STAGE_BOOTED;
        if (!fn) continue;
        any = true;
        batch->in_phase = true;
        fn(item->object.self, batch->ctx);
        batch->in_phase = false;
    }
    return any;
}

static bool tl__lifecycle_batch_has_initialize(const tl_lifecycle_batch *batch) {
    uint32_t i;
    for (i = 0; i < batch->count; i++)
        if (batch->items[i].object.vtable && batch->items[i].object.vtable->initialize) return true;
    return false;
}

tl_lifecycle_batch_status tl_lifecycle_batch_update(tl_lifecycle_batch *batch) {
    if (!batch) return TL_LIFECYCLE_BATCH_FAILED;
    if (tl__lifecycle_batch_refuse_reentry(batch, "tl_lifecycle_batch_update"))
        return TL_LIFECYCLE_BATCH_PENDING;
    switch (batch->state) {
    case TL__LIFECYCLE_BATCH_IDLE:
    case TL__LIFECYCLE_BATCH_PRELOADING:
        if (!tl__lifecycle_batch_preloads_settled(batch)) return TL_LIFECYCLE_BATCH_PENDING;
        if (tl__lifecycle_batch_collect_failures(batch)) return TL_LIFECYCLE_BATCH_FAILED;
        batch->state = TL__LIFECYCLE_BATCH_BOOTED;
        tl__lifecycle_batch_phase(batch, false);
        if (tl__lifecycle_batch_has_initialize(batch)) return TL_LIFECYCLE_BATCH_PENDING;
        tl__lifecycle_batch_phase(batch, true);
        batch->state = TL__LIFECYCLE_BATCH_DONE;
        return TL_LIFECYCLE_BATCH_DONE;
    case TL__LIFECYCLE_BATCH_BOOTED:
        batch->state = TL__LIFECYCLE_BATCH_DONE;
        tl__lifecycle_batch_phase(batch, true);
        return TL_LIFECYCLE_BATCH_DONE;
    case TL__LIFECYCLE_BATCH_DONE: return TL_LIFECYCLE_BATCH_DONE;
    default: return TL_LIFECYCLE_BATCH_FAILED;
    }
}

tl_lifecycle_batch_status tl_lifecycle_batch_status_of(const tl_lifecycle_batch *batch) {
    if (!batch || batch->state >= TL__LIFECYCLE_BATCH_FAILED) return TL_LIFECYCLE_BATCH_FAILED;
    return batch->state == TL__LIFECYCLE_BATCH_DONE ? TL_LIFECYCLE_BATCH_DONE
                                                    : TL_LIFECYCLE_BATCH_PENDING;
}
bool tl_lifecycle_batch_booted(const tl_lifecycle_batch *batch) {
    return batch &&
           (batch->state == TL__LIFECYCLE_BATCH_BOOTED || batch->state == TL__LIFECYCLE_BATCH_DONE);
}
uint32_t tl_lifecycle_batch_count(const tl_lifecycle_batch *batch) {
    return batch ? batch->count : 0;
}
uint32_t tl_lifecycle_batch_failed_count(const tl_lifecycle_batch *batch) {
    return batch ? batch->failed_count : 0;
}
uint32_t tl_lifecycle_batch_failed_index(const tl_lifecycle_batch *batch, uint32_t i) {
    return batch && i < batch->failed_count ? batch->failed[i] : UINT32_MAX;
}
const char *tl_lifecycle_batch_failed_name(const tl_lifecycle_batch *batch, uint32_t i) {
    if (!batch || i >= batch->failed_count) return NULL;
    return tl__lifecycle_batch_object_name(&batch->items[batch->failed[i]].object);
}

uint32_t tl_lifecycle_batch_offer(tl_lifecycle_batch *batch, uint32_t kind, void *dependency) {
    uint32_t i, taken = 0;
    if (!batch) return 0;
    for (i = 0; i < batch->count; i++) {
        const tl_lifecycle_object_vtable *vt = batch->items[i].object.vtable;
        if (!vt || !vt->consume_dependency) continue;
        if (vt->consume_dependency(batch->items[i].object.self, batch->ctx, kind, dependency))
            taken++;
    }
    return taken;
}

void tl_lifecycle_batch_discard(tl_lifecycle_batch *batch) {
    uint32_t k;
    if (!batch || batch->state == TL__LIFECYCLE_BATCH_DISCARDED) return;
    if (tl__lifecycle_batch_refuse_reentry(batch, "tl_lifecycle_batch_discard")) return;
    batch->state = TL__LIFECYCLE_BATCH_DISCARDED;
    for (k = 0; k < batch->count; k++) {
        tl__lifecycle_batch_item *item = &batch->items[batch->discard_order[k]];
        if (item->stage == TL__LIFECYCLE_BATCH_STAGE_DISCARDED) continue;
        item->stage = TL__LIFECYCLE_BATCH_STAGE_DISCARDED;
        if (!item->object.vtable || !item->object.vtable->discard) continue;
        batch->in_phase = true;
        item->object.vtable->discard(item->object.self, batch->ctx);
        batch->in_phase = false;
    }
    tl__lifecycle_batch_reset(batch);
}

/* --- core ------------------------------------------------------------------------------------------ */

tl_lifecycle_result tl_lifecycle_init(tl_lifecycle *core, const tl_lifecycle_desc *desc) {
    tl_lifecycle_desc zero;
    if (!core) {
        tl__lifecycle_log(desc ? desc->logger : NULL, TL_LIFECYCLE_LOG_INVALID_ARGUMENT,
                          "tl_lifecycle_init");
        return TL_LIFECYCLE_INVALID_ARGUMENT;
    }
    if (!desc) {
        memset(&zero, 0, sizeof zero);
        desc = &zero;
    }
    memset(core, 0, sizeof *core);
    core->registry = desc->registry;
    core->events = desc->events ? *desc->events : tl__native_events;
    if (!desc->events && !tl_events_natives_declared(core->registry, 0u, 0u, "Lifecycle"))
        core->registry = NULL;
    if (desc->logger) core->logger = *desc->logger;
    core->state = TL__LIFECYCLE_IDLE;
    return TL_LIFECYCLE_OK;
}

/* The state weaving sees: discarding from the start of tl_lifecycle_discard, its before-discard
   hooks included (the state says so only after them, so that lookups still answer in them). */
static uint32_t tl__lifecycle_weave_state(const tl_lifecycle *core) {
    if (core->discarding && core->state < TL__LIFECYCLE_DISCARDING) return TL__LIFECYCLE_DISCARDING;
    return core->state;
}

static tl_lifecycle_result tl__lifecycle_weave_tier(tl_lifecycle *core,
                                                    const tl_lifecycle_subsystem *subsystem,
                                                    void *self, uint32_t tier) {
    uint32_t i;
    if (!core || !subsystem) {
        tl__lifecycle_log(core ? &core->logger : NULL, TL_LIFECYCLE_LOG_INVALID_ARGUMENT,
                          "tl_lifecycle_weave");
        return TL_LIFECYCLE_INVALID_ARGUMENT;
    }
    if (tl__lifecycle_weave_state(core) >= TL__LIFECYCLE_FAILED) {
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_WEAVE_REFUSED,
                          subsystem->name ? subsystem->name : "?",
                          tl__lifecycle_state_name(tl__lifecycle_weave_state(core)));
        return TL_LIFECYCLE_REFUSED;
    }
    for (i = 0; i < core->count; i++) {
        if (core->entries[i].subsystem == subsystem) {
            tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_ALREADY_WOVEN,
                              subsystem->name ? subsystem->name : "?");
            return TL_LIFECYCLE_ALREADY_WOVEN;
        }
    }
    if (core->count == core->capacity) {
        uint32_t capacity = core->capacity ? core->capacity * 2u : 8u;
        tl__lifecycle_entry *grown =
            (tl__lifecycle_entry *)TL_MALLOC((size_t)capacity * sizeof *grown);
        if (!grown) {
            tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_OUT_OF_MEMORY, "subsystems");
            return TL_LIFECYCLE_OUT_OF_MEMORY;
        }
        if (core->count) memcpy(grown, core->entries, (size_t)core->count * sizeof *grown);
        TL_FREE(core->entries);
        core->entries = grown;
        core->capacity = capacity;
    }
    core->entries[core->count].subsystem = subsystem;
    core->entries[core->count].self = self;
    core->entries[core->count].stage = TL__STAGE_WOVEN;
    core->entries[core->count].tier = tier;
    core->count++;
    return TL_LIFECYCLE_OK;
}

tl_lifecycle_result tl_lifecycle_weave(tl_lifecycle *core, const tl_lifecycle_subsystem *subsystem,
                                       void *self) {
    return tl__lifecycle_weave_tier(core, subsystem, self, TL__TIER_USER);
}
tl_lifecycle_result tl_lifecycle_weave_native(tl_lifecycle *core,
                                              const tl_lifecycle_subsystem *subsystem, void *self) {
    return tl__lifecycle_weave_tier(core, subsystem, self, TL__TIER_NATIVE);
}

/* --- core deployment on batches: each round's native tier, then its user tier -------------------- */

/* A subsystem as a batch object: its own vtable holds only the functions the subsystem has (so
   a tier without initialize functions needs no extra frame), and adapts the calls to (self, core). */
typedef struct tl__lifecycle_link {
    tl_lifecycle_object_vtable vtable;
    const tl_lifecycle_subsystem *subsystem;
    void *self;
} tl__lifecycle_link;

struct tl__lifecycle_batch {
    tl_lifecycle_batch batch;
    tl__lifecycle_link *links;
};

static tl_lifecycle_status tl__link_preload(void *link, void *core) {
    tl__lifecycle_link *l = (tl__lifecycle_link *)link;
    return l->subsystem->preload(l->self, (tl_lifecycle *)core);
}
static void tl__link_boot(void *link, void *core) {
    tl__lifecycle_link *l = (tl__lifecycle_link *)link;
    l->subsystem->boot(l->self, (tl_lifecycle *)core);
}
static void tl__link_initialize(void *link, void *core) {
    tl__lifecycle_link *l = (tl__lifecycle_link *)link;
    l->subsystem->initialize(l->self, (tl_lifecycle *)core);
}
static void tl__link_discard(void *link, void *core) {
    tl__lifecycle_link *l = (tl__lifecycle_link *)link;
    l->subsystem->discard(l->self, (tl_lifecycle *)core);
}

static void tl__lifecycle_link_make(tl__lifecycle_link *link, const tl__lifecycle_entry *entry) {
    memset(link, 0, sizeof *link);
    link->subsystem = entry->subsystem;
    link->self = entry->self;
    link->vtable.type_name = entry->subsystem->name ? entry->subsystem->name : "?";
    if (entry->subsystem->preload) link->vtable.preload_start = tl__link_preload;
    if (entry->subsystem->boot) link->vtable.boot = tl__link_boot;
    if (entry->subsystem->initialize) link->vtable.initialize = tl__link_initialize;
    if (entry->subsystem->discard) link->vtable.discard = tl__link_discard;
}

static bool tl__lifecycle_batches_reserve(tl_lifecycle *core, uint32_t more) {
    uint32_t capacity;
    tl__lifecycle_batch *grown;
    if (core->batch_count + more <= core->batch_cap) return true;
    capacity = core->batch_cap ? core->batch_cap * 2u : 4u;
    grown = (tl__lifecycle_batch *)TL_MALLOC((size_t)capacity * sizeof *grown);
    if (!grown) return false;
    if (core->batch_count) memcpy(grown, core->batches, (size_t)core->batch_count * sizeof *grown);
    TL_FREE(core->batches);
    core->batches = grown;
    core->batch_cap = capacity;
    return true;
}

/* Appends the batch of one tier of the captured round (none when the tier is empty). */
static bool tl__lifecycle_add_tier(tl_lifecycle *core, uint32_t tier) {
    uint32_t i, n = 0;
    tl_lifecycle_object *objects;
    tl__lifecycle_batch *cb;
    tl_lifecycle_batch_desc desc;
    for (i = core->round_begin; i < core->round_end; i++) n += core->entries[i].tier == tier;
    if (n == 0) return true;
    objects = (tl_lifecycle_object *)TL_MALLOC((size_t)n * sizeof *objects);
    cb = &core->batches[core->batch_count];
    cb->links = (tl__lifecycle_link *)TL_MALLOC((size_t)n * sizeof *cb->links);
    if (!objects || !cb->links) {
        TL_FREE(objects);
        TL_FREE(cb->links);
        return false;
    }
    for (i = core->round_begin, n = 0; i < core->round_end; i++) {
        if (core->entries[i].tier != tier) continue;
        core->entries[i].stage = TL__STAGE_PRELOADING; /* reached by deployment */
        tl__lifecycle_link_make(&cb->links[n], &core->entries[i]);
        objects[n].vtable = &cb->links[n].vtable;
        objects[n].self = &cb->links[n];
        objects[n].name = NULL;
        objects[n].parent = TL_LIFECYCLE_BATCH_NO_PARENT;
        n++;
    }
    memset(&desc, 0, sizeof desc);
    desc.name = tier == TL__TIER_NATIVE ? "native subsystems" : "user subsystems";
    desc.noun = "subsystem";
    desc.ctx = core;
    desc.logger = &core->logger;
    if (tl_lifecycle_batch_init(&cb->batch, &desc, objects, n) != TL_LIFECYCLE_OK) {
        TL_FREE(objects);
        TL_FREE(cb->links);
        return false;
    }
    TL_FREE(objects);
    core->batch_count++;
    return true;
}

/* Captures the subsystems woven so far as a round: its native batch, then its user batch. */
static bool tl__lifecycle_start_round(tl_lifecycle *core) {
    core->round_begin = core->round_end;
    core->round_end = core->count;
    core->batch_next = core->batch_count;
    core->state = TL__LIFECYCLE_DEPLOYING;
    if (tl__lifecycle_batches_reserve(core, 2u) && tl__lifecycle_add_tier(core, TL__TIER_NATIVE) &&
        tl__lifecycle_add_tier(core, TL__TIER_USER))
        return true;
    tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_OUT_OF_MEMORY, "deployment");
    core->state = TL__LIFECYCLE_FAILED;
    core->last = TL_LIFECYCLE_OUT_OF_MEMORY;
    return false;
}

/* Runs the round's batches in order, one update each per call; a finished batch hands over to
   the next in the same call. */
static tl_lifecycle_deploy_status tl__lifecycle_run_round(tl_lifecycle *core) {
    while (core->batch_next < core->batch_count) {
        tl_lifecycle_batch *batch = &core->batches[core->batch_next].batch;
        tl_lifecycle_batch_status status;
        core->in_phase = true;
        status = tl_lifecycle_batch_update(batch);
        core->in_phase = false;
        if (status == TL_LIFECYCLE_BATCH_PENDING) return TL_LIFECYCLE_DEPLOY_PENDING;
        if (status == TL_LIFECYCLE_BATCH_FAILED) {
            core->failed = tl_lifecycle_batch_failed_name(batch, 0);
            core->state = TL__LIFECYCLE_FAILED;
            core->last = TL_LIFECYCLE_PRELOAD_FAILED; /* logged by the batch, naming each */
            return TL_LIFECYCLE_DEPLOY_FAILED;
        }
        core->batch_next++;
    }
    return TL_LIFECYCLE_DEPLOY_DONE;
}

static void tl__lifecycle_announce(tl_lifecycle *core) {
    if (core->announced) return;
    core->announced = true;
    if (core->registry)
        TL_EVENTS_PUBLISH(core->registry, core->events.core_deployed, TL_LIFECYCLE_SIG_CORE,
                          tl_lifecycle_deployed_fn, core);
}

tl_lifecycle_deploy_status tl_lifecycle_deploy(tl_lifecycle *core) {
    tl_lifecycle_deploy_status status;
    if (!core) return TL_LIFECYCLE_DEPLOY_FAILED;
    if (core->in_phase) {
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_REENTRANT_CALL, "tl_lifecycle_deploy");
        core->last = TL_LIFECYCLE_REENTRANT_CALL;
        return TL_LIFECYCLE_DEPLOY_FAILED;
    }
    if (core->state == TL__LIFECYCLE_FAILED) return TL_LIFECYCLE_DEPLOY_FAILED; /* logged then */
    if (core->state >= TL__LIFECYCLE_DISCARDING) {
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_DEPLOY_REFUSED,
                          tl__lifecycle_state_name(core->state));
        core->last = TL_LIFECYCLE_REFUSED;
        return TL_LIFECYCLE_DEPLOY_FAILED;
    }
    if (core->state != TL__LIFECYCLE_DEPLOYING) {
        if (core->round_end == core->count) return TL_LIFECYCLE_DEPLOY_DONE; /* nothing new */
        if (!tl__lifecycle_start_round(core)) return TL_LIFECYCLE_DEPLOY_FAILED;
    }
    status = tl__lifecycle_run_round(core);
    if (status != TL_LIFECYCLE_DEPLOY_DONE) return status;
    core->state = TL__LIFECYCLE_DEPLOYED;
    tl__lifecycle_announce(core);
    /* A listener of OnCoreDeployed is no lifecycle function: it may discard the core (or deploy
       a new round). Answer with the state it left, as the next call would. */
    if (core->state == TL__LIFECYCLE_DEPLOYING) return TL_LIFECYCLE_DEPLOY_PENDING;
    if (core->state == TL__LIFECYCLE_DEPLOYED) return TL_LIFECYCLE_DEPLOY_DONE;
    core->last = TL_LIFECYCLE_REFUSED; /* discarded by a listener: not a failure to log */
    return TL_LIFECYCLE_DEPLOY_FAILED;
}

tl_lifecycle_result tl_lifecycle_last_result(const tl_lifecycle *core) {
    return core ? core->last : TL_LIFECYCLE_INVALID_ARGUMENT;
}

tl_lifecycle_result tl_lifecycle_before_discard(tl_lifecycle *core, tl_lifecycle_hook_fn fn,
                                                void *ctx) {
    uint32_t i;
    if (!core || !fn) {
        tl__lifecycle_log(core ? &core->logger : NULL, TL_LIFECYCLE_LOG_INVALID_ARGUMENT,
                          "tl_lifecycle_before_discard");
        return TL_LIFECYCLE_INVALID_ARGUMENT;
    }
    if (core->state >= TL__LIFECYCLE_DISCARDING) {
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_HOOK_REFUSED,
                          tl__lifecycle_state_name(core->state));
        return TL_LIFECYCLE_REFUSED;
    }
    for (i = 0; i < core->hook_count; i++) {
        if (core->hooks[i].fn != fn || core->hooks[i].ctx != ctx) continue;
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_DUPLICATE_HOOK,
                          "tl_lifecycle_before_discard");
        return TL_LIFECYCLE_DUPLICATE_HOOK;
    }
    if (core->hook_count == core->hook_cap) {
        uint32_t capacity = core->hook_cap ? core->hook_cap * 2u : 4u;
        tl__lifecycle_hook *grown =
            (tl__lifecycle_hook *)TL_MALLOC((size_t)capacity * sizeof *grown);
        if (!grown) {
            tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_OUT_OF_MEMORY, "hooks");
            return TL_LIFECYCLE_OUT_OF_MEMORY;
        }
        if (core->hook_count) memcpy(grown, core->hooks, (size_t)core->hook_count * sizeof *grown);
        TL_FREE(core->hooks);
        core->hooks = grown;
        core->hook_cap = capacity;
    }
    core->hooks[core->hook_count].fn = fn;
    core->hooks[core->hook_count].ctx = ctx;
    core->hook_count++;
    return TL_LIFECYCLE_OK;
}

bool tl_lifecycle_remove_before_discard(tl_lifecycle *core, tl_lifecycle_hook_fn fn, void *ctx) {
    uint32_t i;
    if (!core) return false;
    for (i = core->hook_count; i-- > 0;) {
        if (core->hooks[i].fn != fn || core->hooks[i].ctx != ctx) continue;
        memmove(core->hooks + i, core->hooks + i + 1,
                (size_t)(core->hook_count - i - 1u) * sizeof *core->hooks);
        core->hook_count--;
        return true;
    }
    return false;
}

static void tl__lifecycle_run_hooks(tl_lifecycle *core) {
    while (core->hook_count > 0) {
        tl__lifecycle_hook hook = core->hooks[--core->hook_count];
        hook.fn(hook.ctx, core);
    }
    TL_FREE(core->hooks);
    core->hooks = NULL;
    core->hook_cap = 0;
}

void tl_lifecycle_discard(tl_lifecycle *core) {
    uint32_t i;
    if (!core || core->state >= TL__LIFECYCLE_DISCARDING) return;
    if (core->in_phase) {
        tl__lifecycle_log(&core->logger, TL_LIFECYCLE_LOG_REENTRANT_CALL, "tl_lifecycle_discard");
        return;
    }
    core->in_phase = true;   /* the hooks may not deploy or discard either */
    core->discarding = true; /* nor weave: nothing would boot or discard what they wove */
    tl__lifecycle_run_hooks(core);
    core->state = TL__LIFECYCLE_DISCARDING;
    /* Later batches first (the user tier before the native one, a later round before an earlier
       one); in each, reverse weave order. A subsystem never reached by deployment (woven for a
   later round, or in a tier after a failed one) gets no call. */
    for (i = core->batch_count; i-- > 0;) {
        if (i <= core->batch_next) tl_lifecycle_batch_discard(&core->batches[i].batch);
        else
            tl__lifecycle_batch_reset(
                &core->batches[i].batch); /* a later tier never started: no calls */
        TL_FREE(core->batches[i].links);
    }
    core->in_phase = false;
    TL_FREE(core->batches);
    TL_FREE(core->entries);
    core->batches = NULL;
    core->entries = NULL;
    core->batch_count = core->batch_cap = core->batch_next = 0;
    core->count = core->capacity = core->round_begin = core->round_end = 0;
    core->state = TL__LIFECYCLE_DISCARDED;
}

bool tl_lifecycle_find(const tl_lifecycle *core, const tl_lifecycle_subsystem *subsystem,
                       void **self) {
    uint32_t i;
    if (self) *self = NULL;
    if (!core || !subsystem || core->state >= TL__LIFECYCLE_DISCARDING) return false;
    for (i = 0; i < core->count; i++) {
        if (core->entries[i].subsystem == subsystem) {
            if (self) *self = core->entries[i].self;
            return true;
        }
    }
    return false;
}

bool tl_lifecycle_deployed(const tl_lifecycle *core) {
    return core && core->state == TL__LIFECYCLE_DEPLOYED;
}

const char *tl_lifecycle_failed_subsystem(const tl_lifecycle *core) {
    return core ? core->failed : NULL;
}

static const tl_lifecycle_batch *tl__lifecycle_failed_batch(const tl_lifecycle *core) {
    return core && core->state == TL__LIFECYCLE_FAILED && core->batch_next < core->batch_count
               ? &core->batches[core->batch_next].batch
               : NULL;
}
uint32_t tl_lifecycle_failed_count(const tl_lifecycle *core) {
    return tl_lifecycle_batch_failed_count(tl__lifecycle_failed_batch(core));
}
const char *tl_lifecycle_failed_name(const tl_lifecycle *core, uint32_t i) {
    return tl_lifecycle_batch_failed_name(tl__lifecycle_failed_batch(core), i);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_LIFECYCLE_IMPL */
