/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/events.h -- event registry and dispatch (the seed's Iris).

   WHAT
   ----
   A registry is an array of slots, one per value of the ordinal `Iris.Events` domain, spanning the
   highest value (gaps left by removed events are harmless). A slot holds a list of listeners
   (function + context pointer), allocated on its first subscription. Publishing calls every
   listener, newest first, and never allocates. The generated domain header (threadlink-gen, domain
   `Iris.Events`) gives every event a listener type and typed subscribe / unsubscribe / contains /
   publish functions, so a listener of the wrong signature does not compile. Code without a
   generated header uses the untyped core below, which checks a signature id at run time.

   INCLUDE
   -------
       #include "iris_events.h"   // the generated header; it includes this one
   No implementation switch: the registry is static inline, like the rest of the core (api.h,
   log.h, fp.h, rng.h, hash.h, mem.h, text.h), so any number of files may use it and none
   implements it.

   Override the allocator with TL_MALLOC(size) and TL_FREE(ptr), both or neither (default
   malloc/free). Diagnostics go through log.h (the logger in tl_events_desc; NULL = stderr).

   USE
   ---
       static void on_update(void *ctx, float dt) { ((game *)ctx)->clock += dt; }
       static bool on_interact(void *ctx) { return ((door *)ctx)->open(); }

       tl_events reg;
       iris_events_init(&reg, NULL);                          // generated: span + event table
       Iris_Events_OnUpdate_subscribe(&reg, on_update, &my_game);
       Iris_Events_OnUpdate_publish(&reg, 0.016f);            // calls on_update(&my_game, 0.016f)
       Iris_Events_OnUpdate_unsubscribe(&reg, on_update, &my_game);

       bool opened;
       Iris_Events_OnInteract_subscribe(&reg, on_interact, &front_door);  // single provider
       if (Iris_Events_OnInteract_publish(&reg, &opened)) { ...a provider answered `opened`... }
       tl_events_discard(&reg);

   RULES
   -----
   - A listener is the pair (function, context). Subscribing the same pair twice is refused with a
     warning; two contexts with one function are two listeners.
   - Dispatch runs from the newest listener to the oldest; removal outside dispatch moves the last
     listener into the hole (swap-with-last).
   - During dispatch a listener may unsubscribe itself or any other listener of any event, clear an
     event, subscribe, and publish (nested publish, also of the same event). Removed listeners are
     never called afterwards, and no listener is skipped or called twice: removal during dispatch
     only marks the entry, and the slot is compacted (swap-with-last, in index order) when its
     outermost dispatch ends. A subscription made during dispatch takes effect from the next
     publish (a nested publish is a next publish).
   - A dispatch reads the list's address once: a list never moves or shrinks under a running
     dispatch. A subscription that outgrows the list during dispatch copies it into a larger one
     and keeps the old one (still read by the running dispatches, and marked by removals like the
     new one) until the slot's outermost dispatch ends.
   - Publishing to an event without listeners is a no-op.
   - A single-provider event (declared with a result, `OnInteract() -> bool`) refuses a second
     provider with an error naming the event. Its publish returns whether a provider answered and
     stores the result through the (optional) out pointer.
   - Untyped entry points take a signature id. A subscription whose id (or single-provider flag)
     does not match the slot's is logged as an error and discarded; a publish whose id does not
     match is a no-op (a warning, once per slot). A registry built from a generated event table
     knows every slot's id up front; without a table a slot takes the id of its first subscriber.
   - Never call tl_events_discard from a listener: it is refused then (logged), as freeing the
     lists a publish is walking would crash. Main thread only.

   ERRORS
   ------
   Failures are tl_events_result (TL_EVENTS_RESULTS, tl_events_result_message; docs/errors.md),
   logged once where met through desc.logger (TL_EVENTS_LOG_ITEMS). tl_events_init,
   tl_events_init_table and tl_events_subscribe (and every generated X_subscribe and
   <domain>_init) return it: TL_EVENTS_OK (0) or the reason, test `== TL_EVENTS_OK`. The reason is
   also kept for tl_events_last_result(reg), which is where a publish whose signature does not
   match (a no-op) and a refused unsubscribe leave theirs. Unsubscribe and contains stay bool:
   "was it there" is an answer, not a failure. Publishing to no listener is not a failure.

   SIGNATURES AND THEIR IDS (the contract with threadlink-gen)
   -----------------------------------------------------------
   An event line in an `Iris.Events` injector is `Name [signature]`:

       line       -> NAME [ signature ]                     no signature means "()"
       signature  -> '(' [ params ] ')' [ '->' type ]       '->' type: a single-provider event
       params     -> 'void' | type { ',' type }            '(void)' means "()"
       type       -> WORD { WORD | '*' }                   first token a WORD; no names, arrays,
                                                           function types or '...': typedef those
       WORD       -> [A-Za-z_][A-Za-z0-9_]*                (keywords such as const, struct,
                                                           unsigned are WORDs too)

   White space (space, tab) may appear between any tokens and only separates WORDs. `-> void` is
   rejected (a result-less event is a broadcast). A type is a C type name: `struct`, `union` and
   `enum` are followed by one tag, and a WORD that C reads as a parameter name is rejected -- one
   after a '*' (other than a qualifier: const volatile restrict _Atomic), or after a builtin type
   keyword (void char short int long float double signed unsigned _Bool _Complex bool), a typedef
   name or a tag: `(int amount)`, `(const scene_load *scene)`, `() -> bool ok`. Anything else is a
   `file:line:col` error.

   The NORMALISED TEXT of a signature is built from its tokens:
     - a type: its tokens joined by one space, except that nothing separates two consecutive '*':
           "const   scene_load*"  -> "const scene_load *"
           "char**"               -> "char **"
           "char*const*"          -> "char * const *"
     - the signature: "(" + the normalised parameter types joined by ", " (comma, space) + ")",
       then, for a single-provider event, "->" + the normalised result type (no spaces around
       "->"):  "()"  "(float)"  "(const scene_load *)"  "(int, float)"  "()->bool"
   The SIGNATURE ID is XXH32 (seed 0) of the UTF-8 bytes of that text, without terminator. Two
   events with one signature share the id; the id checks a slot's contract, not the event's name.
   Examples: "()" 0x12f682fd, "(float)" 0x810d49fa, "(double)" 0xc5c82766,
   "(tl_lifecycle *)" 0xfe445e4e, "(const scene_load *)" 0x2c1a5172, "()->bool" 0x7bb02086.

   WHAT THE GENERATED HEADER EMITS FOR IRIS.EVENTS
   -----------------------------------------------
   tests/events/generated_events_sample.h is the exact expected output for three events; in short,
   besides the generic parts of every domain header (enum `iris_events` with members
   `Iris_Events_<Name>`, IRIS_EVENTS_COUNT = live entries, name lookups, X-macro), it emits
   `#include <threadlink/events.h>`, the domain's includes, IRIS_EVENTS_SPAN (highest value + 1), and
   per event E with enumerator X = Iris_Events_E, parameter types T0..Tn-1 and optional result R:

       #define X_SIGNATURE 0x%08xu                        the id, lowercase hex
       typedef void (*X_fn)(void *ctx, T0 a0, ...);        broadcast
       typedef R (*X_fn)(void *ctx, T0 a0, ...);           single provider
       static inline tl_events_result X_subscribe(tl_events *reg, X_fn fn, void *ctx)
           { return tl_events_subscribe(reg, X, X_SIGNATURE, FLAGS, TL_EVENTS_FN(fn), ctx); }
             FLAGS: 0, or TL_EVENTS_SINGLE_PROVIDER for a single-provider event
       static inline bool X_unsubscribe(tl_events *reg, X_fn fn, void *ctx)
           { return tl_events_unsubscribe(reg, X, TL_EVENTS_FN(fn), ctx); }
       static inline bool X_contains(const tl_events *reg, X_fn fn, void *ctx)
           { return tl_events_contains(reg, X, TL_EVENTS_FN(fn), ctx); }
       #ifdef TL_EVENTS_LISTENER_CHECK                       C: the listener's type is checked
       #define X_subscribe(reg, fn, ctx) X_subscribe(reg, TL_EVENTS_LISTENER_CHECK(X_fn, fn), ctx)
       #define X_unsubscribe(reg, fn, ctx) X_unsubscribe(reg, TL_EVENTS_LISTENER_CHECK(X_fn, fn), ctx)
       #define X_contains(reg, fn, ctx) X_contains(reg, TL_EVENTS_LISTENER_CHECK(X_fn, fn), ctx)
       #endif
       broadcast:
       static inline void X_publish(tl_events *reg, T0 a0, ...)
           { TL_EVENTS_PUBLISH(reg, X, X_SIGNATURE, X_fn, a0, ...); }   TL_EVENTS_PUBLISH0 if n == 0
       single provider:
       static inline bool X_publish(tl_events *reg, T0 a0, ..., R *result)
           { bool answered = false;
             TL_EVENTS_REQUEST(answered, result, reg, X, X_SIGNATURE, X_fn, a0, ...);
             return answered; }                                       TL_EVENTS_REQUEST0 if n == 0

   then the event table and an initialiser:

       static inline const tl_events_info *iris_events_info(void)   IRIS_EVENTS_SPAN rows in
                                                                        value order; a gap is {0, 0, 0}
       static inline tl_events_result iris_events_init(tl_events *reg, const tl_logger *logger)
           { return tl_events_init_table(reg, IRIS_EVENTS_SPAN, iris_events_info(), logger); }

   LISTENER TYPES
   --------------
   No flags are needed for a listener of the wrong signature to be refused: in C the generated
   macros check its type at compile time (TL_EVENTS_LISTENER_CHECK: gcc, clang, or any C11
   compiler); C++ rejects the conversion anyway. The check takes the listener's address, so pass
   a function or a function pointer, not NULL. -Werror=incompatible-pointer-types adds a second
   error; tests/events/compile_fail proves every case with and without it.
*/
#ifndef TL_EVENTS_H
#define TL_EVENTS_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"

#if defined(TL_MALLOC) && !defined(TL_FREE)
#error "threadlink: TL_MALLOC is defined but TL_FREE is not (override both or neither)"
#endif
#if defined(TL_FREE) && !defined(TL_MALLOC)
#error "threadlink: TL_FREE is defined but TL_MALLOC is not (override both or neither)"
#endif

#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#include "cast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Declared here so that native event signatures (`OnCoreDeployed(tl_lifecycle *)`) can name the core
   without the generated header depending on lifecycle.h, which defines it. */
typedef struct tl_lifecycle tl_lifecycle;
/* Likewise for levels.h's native events (`OnSceneResident(tl_level *)`). */
typedef struct tl_levels tl_levels;
typedef struct tl_level tl_level;
/* And platform.h's (`OnPlatformStateChanged(tl_platform *)`,
   `OnAccountStateChanged(tl_platform_account *)`). */
typedef struct tl_platform tl_platform;
typedef struct tl_platform_account tl_platform_account;

/* Listeners are stored as this type and called through their own. void (*)(void) is the one
   function type gcc's and clang's -Wcast-function-type accept as a stand-in for any other. */
typedef void (*tl_events_fn)(void);

/* The event is a single-provider event: at most one listener, publish returns its result. */
#define TL_EVENTS_SINGLE_PROVIDER 0x1u

/* One row of a generated event table (indexed by event value). A row with name == NULL is a gap. */
typedef struct tl_events_info {
    const char *name;
    uint32_t signature;
    uint32_t flags;
} tl_events_info;

/* Zero-initialised: no slots, no table, stderr logging. */
typedef struct tl_events_desc {
    uint32_t span;                /* number of slots: IRIS_EVENTS_SPAN */
    const tl_events_info *events; /* NULL, or `span` rows (kept by pointer: static storage) */
    const tl_logger *logger;      /* NULL: stderr (copied) */
} tl_events_desc;

typedef struct tl_events_listener {
    tl_events_fn fn; /* NULL while removed during dispatch */
    void *ctx;
} tl_events_listener;

/* A list outgrown during dispatch, kept until the slot's outermost dispatch ends (see RULES). */
typedef struct tl__events_retired {
    struct tl__events_retired *next;
    tl_events_listener *listeners;
    uint32_t capacity; /* = its count when it was outgrown */
} tl__events_retired;

/* Read-only for users; the fields are public only because dispatch is inline. */
typedef struct tl_events_slot {
    tl_events_listener *listeners; /* NULL until the first subscription */
    uint32_t count;                /* entries, including ones removed during dispatch */
    uint32_t signature;
    uint32_t depth; /* dispatches of this slot in progress */
    uint32_t live;  /* subscribed listeners */
    uint32_t capacity;
    uint32_t flags;              /* TL_EVENTS_SINGLE_PROVIDER | TL__EVENTS_BOUND, _GAP, _REPORTED */
    uint32_t dirty;              /* 1: entries were marked or lists retired during dispatch */
    tl__events_retired *retired; /* lists outgrown during the current dispatch, newest first */
} tl_events_slot;

/* Results (docs/errors.md): one row per failure; TL_EVENTS_OK is 0. */
#define TL_EVENTS_RESULTS(X) \
    X(INVALID_ARGUMENT, "a registry and a function are required") \
    X(OUT_OF_RANGE, "the event is outside the registry") \
    X(UNDECLARED_EVENT, "the event is not declared (a removed event's gap)") \
    X(SIGNATURE_MISMATCH, "the listener's signature does not match the event's") \
    X(PUBLISH_MISMATCH, "a publish's signature does not match the event's") \
    X(SECOND_PROVIDER, "a single-provider event already has its provider") \
    X(DUPLICATE_LISTENER, "the listener is already subscribed with this context") \
    X(OUT_OF_MEMORY, "out of memory")

typedef enum tl_events_result {
    TL_EVENTS_OK = 0,
#define TL__EVENTS_RESULT_ENUM(id, message) TL_EVENTS_##id,
    TL_EVENTS_RESULTS(TL__EVENTS_RESULT_ENUM)
#undef TL__EVENTS_RESULT_ENUM
        TL_EVENTS_RESULT_END_
} tl_events_result;

/* log.h's TL_RESULT_MESSAGE_FN, written out static inline: events.h is core (no implementation). */
static inline const char *tl_events_result_message(tl_events_result result) {
    static const char *const messages[] = { "ok", TL_EVENTS_RESULTS(TL__RESULT_MESSAGE) };
    return (size_t)result < sizeof messages / sizeof messages[0] ? messages[result]
                                                                 : "unknown result";
}

typedef struct tl_events {
    tl_events_slot *slots;
    uint32_t span;
    const tl_events_info *events;
    tl_logger logger;
    tl_events_result last; /* the failure last met (tl_events_last_result) */
} tl_events;

/* Runtime diagnostics: id, level, message. Ids are TL_EVENTS_LOG_<id> (tl_log_record.item). */
#define TL_EVENTS_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: a registry and a function are required") \
    X(OUT_OF_RANGE, TL_LOG_LEVEL_ERROR, "%s: event #%u is outside the registry (span %u)") \
    X(UNDECLARED_EVENT, TL_LOG_LEVEL_ERROR, \
      "%s: event #%u is not declared (a removed event's gap)") \
    X(SIGNATURE_MISMATCH, TL_LOG_LEVEL_ERROR, \
      "subscription to '%s' discarded: signature 0x%08x%s does not match the event's 0x%08x%s") \
    X(PUBLISH_MISMATCH, TL_LOG_LEVEL_WARNING, \
      "publish of '%s' ignored: signature 0x%08x does not match the event's 0x%08x (reported once)") \
    X(SECOND_PROVIDER, TL_LOG_LEVEL_ERROR, \
      "'%s' is a single-provider event and already has a provider: subscription refused") \
    X(DUPLICATE_LISTENER, TL_LOG_LEVEL_WARNING, \
      "listener already subscribed to '%s' with this context: duplicate ignored") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(NATIVES_UNDECLARED, TL_LOG_LEVEL_ERROR, \
      "%s publishes no events: the registry has %s%s%s at event #%u, where the native '%s' goes " \
      "(declare the natives, \"native\": \"threadlink:natives/Iris.Events.Native.txt\", or give " \
      "its desc the project's events: TL_<MODULE>_EVENTS_INIT(Iris_Events_))") \
    X(DISCARD_IN_DISPATCH, TL_LOG_LEVEL_ERROR, \
      "tl_events_discard called while event #%u is being published (from a listener): refused, " \
      "the registry stays")

#define TL_EVENTS_LOG_BASE 0x100u
typedef enum tl_events_log_item {
    TL_EVENTS_LOG_NONE_ = TL_EVENTS_LOG_BASE - 1,
#define TL__EVENTS_LOG_ENUM(id, level, message) TL_EVENTS_LOG_##id,
    TL_EVENTS_LOG_ITEMS(TL__EVENTS_LOG_ENUM) /* TL_EVENTS_LOG_<id>, one per row from the base */
#undef TL__EVENTS_LOG_ENUM
    TL_EVENTS_LOG_END_
} tl_events_log_item;

/* Lifetime. tl_events_init allocates the slots (not the listener lists); TL_EVENTS_OK, or
   INVALID_ARGUMENT (no registry) or OUT_OF_MEMORY, the registry then zeroed but for that result
   (tl_events_last_result), and safe to discard. */
static inline tl_events_result tl_events_init(tl_events *reg, const tl_events_desc *desc);
static inline tl_events_result tl_events_init_table(tl_events *reg, uint32_t span,
                                                    const tl_events_info *events,
                                                    const tl_logger *logger);
static inline void tl_events_discard(tl_events *reg);
/* The failure last met on this registry (TL_EVENTS_OK while none was): what tl_events_subscribe
   or tl_events_init last returned other than OK, why a publish was ignored, an unsubscribe or a
   clear refused.
   INVALID_ARGUMENT for a NULL registry. */
static inline tl_events_result tl_events_last_result(const tl_events *reg);

/* The untyped core. `signature` is the event's signature id, `flags` 0 or TL_EVENTS_SINGLE_PROVIDER.
   Subscribe returns TL_EVENTS_OK or why it refused; unsubscribe whether it removed anything.
   Refusals are logged (see RULES) and their reason kept for tl_events_last_result. An
   unsubscribe of a listener not subscribed is a quiet false (an answer, not a failure). */
static inline tl_events_result tl_events_subscribe(tl_events *reg, uint32_t event,
                                                   uint32_t signature, uint32_t flags,
                                                   tl_events_fn fn, void *ctx);
static inline bool tl_events_unsubscribe(tl_events *reg, uint32_t event, tl_events_fn fn,
                                         void *ctx);

/* Diagnostics. */
static inline uint32_t tl_events_listener_count(const tl_events *reg, uint32_t event);
static inline bool tl_events_contains(const tl_events *reg, uint32_t event, tl_events_fn fn,
                                      void *ctx);
static inline void tl_events_clear(tl_events *reg, uint32_t event);
/* The event's declared name, or NULL (no table, gap, out of range). */
static inline const char *tl_events_event_name(const tl_events *reg, uint32_t event);

/* The native events (natives/Iris.Events.Native.txt) in the order of their ordinals, from 0: where
   the services publish when their desc leaves `events` NULL. */
#define TL_EVENTS_NATIVE_NAMES \
    "OnCoreDeployed", "OnUpdate", "OnFixedUpdate", "OnLateUpdate", "OnPlaytimeCountTick", \
        "OnGamePauseRequested", "OnGameResumeRequested", "OnGamePaused", "OnGameResumed", \
        "OnSceneLoaded", "OnSceneResident", "OnScenePresented", "OnSceneUnloading", \
        "OnSceneUnloaded", "OnDisplayFader", "OnDisplayLoadingScreen", "OnHideLoadingScreen", \
        "OnHideFader", "OnPlatformStateChanged", "OnAccountStateChanged", "OnInputDeviceChanged", \
        "OnUICancelled", "OnUIElementSelected", "OnInteract", "OnInteractableDetected", \
        "OnInteractableOutOfRange", "OnLocaleChanged"
#define TL_EVENTS_NATIVE_COUNT 27u

/* Whether a service may publish native events `first`..`last` at their native ordinals: the
   registry has no table to say otherwise, or its table declares them there ("OnUpdate", or
   "Native_OnUpdate" where a project event took the plain name). A project that declared its own
   events without the natives has other events at those ordinals, and one with the same signature
   would be called with the service's arguments: false then, after an error naming the first
   ordinal that differs (the service publishes nothing). */
static inline bool tl_events_natives_declared(const tl_events *reg, uint32_t first, uint32_t last,
                                              const char *service);

/* Casts a listener of any type to the stored type, for the untyped core. */
#define TL_EVENTS_FN(f) TL__FN_CAST(tl_events_fn, f)

/* `fn` if it is a listener of type T, else a compile error naming T. C converts one function
   pointer type to another with only a warning (gcc before 14, clang before 16), so the generated
   X_subscribe / X_unsubscribe / X_contains are also macros in C that pass the listener through
   this: a listener of the wrong signature does not compile whatever the flags. C++ refuses the
   conversion itself. */
#if !defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
/* A bit-field of negative width when the types differ, named so that the error names T (C99 has no
   _Static_assert, and glibc's stand-in for it names nothing). */
#define TL_EVENTS_LISTENER_CHECK(T, fn) \
    ((void)sizeof(struct { \
         int T##__is_not_the_type_of_this_listener \
             : __builtin_types_compatible_p(__typeof__(&*(fn)), T) \
               ? 1 \
               : -1; \
     }), \
     (fn))
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TL_EVENTS_LISTENER_CHECK(T, fn) _Generic(&*(fn), T : (fn))
#endif

/* --- dispatch (inline: the hot path) ---------------------------------------------------------- */

/* Internal flags in tl_events_slot.flags. */
#define TL__EVENTS_BOUND 0x100u    /* signature and flags are fixed */
#define TL__EVENTS_GAP 0x200u      /* the table declares no event here */
#define TL__EVENTS_REPORTED 0x400u /* a publish mismatch was logged */

static inline void tl__events_publish_mismatch(tl_events *reg, uint32_t event, uint32_t signature);
/* Whether a request's result pointer is given: a function, so that passing `&value` to the
   request macros draws no -Waddress ("will always evaluate as true") in the caller's file. */
static inline bool tl__events_wants(const void *result) { return result != TL__NULL; }
static inline void tl__events_settle(tl_events_slot *slot);
static inline void tl__events_mark(tl_events_slot *slot, uint32_t index);
static inline tl_events_result tl__events_subscribe_slow(tl_events *reg, uint32_t event,
                                                         uint32_t signature, uint32_t flags,
                                                         tl_events_fn fn, void *ctx);
static inline bool tl__events_unsubscribe_refused(tl_events *reg, uint32_t event, tl_events_fn fn);

/* Subscribe: the common case (a bound broadcast slot with room, signature as expected, no
   duplicate) inline; everything else (first allocation, growth, binding, refusals and their
   diagnostics) in tl__events_subscribe_slow. */
static inline tl_events_result tl_events_subscribe(tl_events *reg, uint32_t event,
                                                   uint32_t signature, uint32_t flags,
                                                   tl_events_fn fn, void *ctx) {
    if (reg && fn && flags == 0 && event < reg->span) {
        tl_events_slot *slot = &reg->slots[event];
        uint32_t i = slot->count;
        if ((slot->flags & (TL__EVENTS_BOUND | TL__EVENTS_GAP | TL_EVENTS_SINGLE_PROVIDER)) ==
                TL__EVENTS_BOUND &&
            slot->signature == signature && i < slot->capacity) {
            while (i-- > 0)
                if (slot->listeners[i].fn == fn && slot->listeners[i].ctx == ctx) break;
            if (i == UINT32_MAX) { /* no duplicate */
                slot->listeners[slot->count].fn = fn;
                slot->listeners[slot->count].ctx = ctx;
                slot->count++;
                slot->live++;
                return TL_EVENTS_OK;
            }
        }
    }
    return tl__events_subscribe_slow(reg, event, signature, flags, fn, ctx);
}

/* Unsubscribe: searches newest first (churn removes what it just added); outside dispatch the last
   entry fills the hole, during dispatch the entry is only marked (see RULES). A listener that is
   not subscribed is a quiet false; no registry or function, an event outside the registry or a
   gap is refused and logged, as subscribe does. */
static inline bool tl_events_unsubscribe(tl_events *reg, uint32_t event, tl_events_fn fn,
                                         void *ctx) {
    tl_events_slot *slot;
    uint32_t i;
    if (!reg || !fn || event >= reg->span) return tl__events_unsubscribe_refused(reg, event, fn);
    slot = &reg->slots[event];
    for (i = slot->count; i-- > 0;) {
        if (slot->listeners[i].fn != fn || slot->listeners[i].ctx != ctx) continue;
        slot->live--;
        if (slot->depth > 0) tl__events_mark(slot, i); /* compacted when dispatch ends */
        else slot->listeners[i] = slot->listeners[--slot->count];
        return true;
    }
    return (slot->flags & TL__EVENTS_GAP) ? tl__events_unsubscribe_refused(reg, event, fn) : false;
}

/* Starts a dispatch: the slot, with *count = the entries to visit (from *count - 1 down to 0) and
   *depth = the nesting to restore, or NULL when there is nothing to call (no listeners, out of
   range, signature mismatch). Every non-NULL result must be paired with tl_events_dispatch_end. The
   depth is saved and restored rather than incremented and decremented: nesting is strictly LIFO,
   and gcc compiles the read-modify-write pair into a markedly slower loop. */
static inline tl_events_slot *tl_events_dispatch_begin(tl_events *reg, uint32_t event,
                                                       uint32_t signature, uint32_t *count,
                                                       uint32_t *depth) {
    tl_events_slot *slot;
    if (event >= reg->span) return NULL;
    slot = &reg->slots[event];
    if (slot->live == 0) return NULL;
    if (slot->signature != signature) {
        tl__events_publish_mismatch(reg, event, signature);
        return NULL;
    }
    *depth = slot->depth;
    slot->depth = *depth + 1;
    *count = slot->count;
    return slot;
}

/* `dirty` is 0 or 1, so `dirty > depth` means "dirty and outermost" in one comparison. */
static inline void tl_events_dispatch_end(tl_events_slot *slot, uint32_t depth) {
    slot->depth = depth;
    if (slot->dirty > depth) tl__events_settle(slot);
}

/* Removed entries are rare: keep the call on the loop's straight path. */
#if defined(__GNUC__) || defined(__clang__)
#define TL__EVENTS_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TL__EVENTS_LIKELY(x) (x)
#endif

/* Broadcast: calls every listener as fn_type with (ctx, args...), from the last entry down to the
   first. The list's address is read once (it never moves under a dispatch, see RULES); each entry
   is read just before its call, so removals made by earlier listeners are seen. */
#define TL_EVENTS_PUBLISH(reg, event, signature, fn_type, ...) \
    do { \
        uint32_t tl__n, tl__depth; \
        tl_events_slot *tl__slot = \
            tl_events_dispatch_begin((reg), (event), (signature), &tl__n, &tl__depth); \
        if (tl__slot) { \
            const tl_events_listener *tl__first = tl__slot->listeners, *tl__p = tl__first + tl__n; \
            do { \
                tl_events_fn tl__fn = (--tl__p)->fn; \
                if (TL__EVENTS_LIKELY(tl__fn != TL__NULL)) \
                    TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx, __VA_ARGS__); \
            } while (tl__p != tl__first); \
            tl_events_dispatch_end(tl__slot, tl__depth); \
        } \
    } while (0)

#define TL_EVENTS_PUBLISH0(reg, event, signature, fn_type) \
    do { \
        uint32_t tl__n, tl__depth; \
        tl_events_slot *tl__slot = \
            tl_events_dispatch_begin((reg), (event), (signature), &tl__n, &tl__depth); \
        if (tl__slot) { \
            const tl_events_listener *tl__first = tl__slot->listeners, *tl__p = tl__first + tl__n; \
            do { \
                tl_events_fn tl__fn = (--tl__p)->fn; \
                if (TL__EVENTS_LIKELY(tl__fn != TL__NULL)) \
                    TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx); \
            } while (tl__p != tl__first); \
            tl_events_dispatch_end(tl__slot, tl__depth); \
        } \
    } while (0)

/* Single provider: calls the provider, if any; `answered` (a bool lvalue) becomes true when one
   answered, and its result is stored through `result` (a typed pointer, may be null). */
#define TL_EVENTS_REQUEST(answered, result, reg, event, signature, fn_type, ...) \
    do { \
        uint32_t tl__n, tl__depth; \
        tl_events_slot *tl__slot = \
            tl_events_dispatch_begin((reg), (event), (signature), &tl__n, &tl__depth); \
        if (tl__slot) { \
            const tl_events_listener *tl__first = tl__slot->listeners, *tl__p = tl__first + tl__n; \
            do { \
                tl_events_fn tl__fn = (--tl__p)->fn; \
                if (!tl__fn) continue; \
                if (tl__events_wants(result)) \
                    *(result) = TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx, __VA_ARGS__); \
                else (void)TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx, __VA_ARGS__); \
                (answered) = true; \
                break; \
            } while (tl__p != tl__first); \
            tl_events_dispatch_end(tl__slot, tl__depth); \
        } \
    } while (0)

#define TL_EVENTS_REQUEST0(answered, result, reg, event, signature, fn_type) \
    do { \
        uint32_t tl__n, tl__depth; \
        tl_events_slot *tl__slot = \
            tl_events_dispatch_begin((reg), (event), (signature), &tl__n, &tl__depth); \
        if (tl__slot) { \
            const tl_events_listener *tl__first = tl__slot->listeners, *tl__p = tl__first + tl__n; \
            do { \
                tl_events_fn tl__fn = (--tl__p)->fn; \
                if (!tl__fn) continue; \
                if (tl__events_wants(result)) \
                    *(result) = TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx); \
                else (void)TL__FN_CAST(fn_type, tl__fn)(tl__p->ctx); \
                (answered) = true; \
                break; \
            } while (tl__p != tl__first); \
            tl_events_dispatch_end(tl__slot, tl__depth); \
        } \
    } while (0)

/* --- the registry (static inline: no implementation switch) ------------------------------------ */

#define TL__EVENTS_FIRST_CAPACITY 4u
#define TL__EVENTS_MAX_LISTENERS (1u << 24) /* per event; keeps the byte count far from overflow */

TL_LOG_TABLE_FN(tl__events_log_to, TL_EVENTS_LOG_ITEMS, TL_EVENTS_LOG_BASE, "Events")
static inline const tl_logger *tl__events_logger(const tl_events *reg) {
    return reg ? &reg->logger : TL__NULL;
}
#define tl__events_log(reg, ...) tl__events_log_to(tl__events_logger(reg), __VA_ARGS__)

/* Keeps a failure's result on the registry (the caller has logged it) and returns it. */
static inline tl_events_result tl__events_fail(tl_events *reg, tl_events_result result) {
    if (reg) reg->last = result;
    return result;
}

static inline tl_events_result tl_events_last_result(const tl_events *reg) {
    return reg ? reg->last : TL_EVENTS_INVALID_ARGUMENT;
}

/* A printable name for messages; `buffer` holds "event #N" when there is no declared one. */
static inline const char *tl__events_label(const tl_events *reg, uint32_t event, char *buffer,
                                           size_t size) {
    const char *name = tl_events_event_name(reg, event);
    if (name) return name;
    snprintf(buffer, size, "event #%u", (unsigned)event);
    return buffer;
}

static inline tl_events_result tl_events_init(tl_events *reg, const tl_events_desc *desc) {
    uint32_t i;
    if (!reg) {
        tl__events_log_to(desc ? desc->logger : TL__NULL, TL_EVENTS_LOG_INVALID_ARGUMENT, "init");
        return TL_EVENTS_INVALID_ARGUMENT;
    }
    memset(reg, 0, sizeof *reg);
    if (!desc) return TL_EVENTS_OK;
    if (desc->logger) reg->logger = *desc->logger;
    if (desc->span > 0) {
        size_t bytes = (size_t)desc->span * sizeof(tl_events_slot);
        if (bytes / sizeof(tl_events_slot) == desc->span)
            reg->slots = (tl_events_slot *)TL_MALLOC(bytes);
        if (!reg->slots) {
            tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_MEMORY, "registry slots");
            return tl__events_fail(reg, TL_EVENTS_OUT_OF_MEMORY);
        }
        memset(reg->slots, 0, bytes);
    }
    reg->span = desc->span;
    reg->events = desc->events;
    if (desc->events) {
        for (i = 0; i < desc->span; i++) {
            const tl_events_info *info = &desc->events[i];
            if (info->name) {
                reg->slots[i].signature = info->signature;
                reg->slots[i].flags = (info->flags & TL_EVENTS_SINGLE_PROVIDER) | TL__EVENTS_BOUND;
            } else {
                reg->slots[i].flags = TL__EVENTS_GAP;
            }
        }
    }
    return TL_EVENTS_OK;
}

static inline tl_events_result tl_events_init_table(tl_events *reg, uint32_t span,
                                                    const tl_events_info *events,
                                                    const tl_logger *logger) {
    tl_events_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.span = span;
    desc.events = events;
    desc.logger = logger;
    return tl_events_init(reg, &desc);
}

static inline void tl_events_discard(tl_events *reg) {
    uint32_t i;
    if (!reg) return;
    for (i = 0; i < reg->span && reg->slots[i].depth == 0; i++) {}
    if (i < reg->span) { /* from a listener: the publish walks the lists (none retired otherwise) */
        tl__events_log(reg, TL_EVENTS_LOG_DISCARD_IN_DISPATCH, (unsigned)i);
        return;
    }
    for (i = 0; i < reg->span; i++) TL_FREE(reg->slots[i].listeners);
    TL_FREE(reg->slots);
    memset(reg, 0, sizeof *reg);
}

static inline const char *tl_events_event_name(const tl_events *reg, uint32_t event) {
    if (!reg || !reg->events || event >= reg->span) return NULL;
    return reg->events[event].name;
}

/* Whether `name` is the native event `native`, as a project's table spells it. */
static inline bool tl__events_names_native(const char *name, const char *native) {
    return strcmp(name, native) == 0 ||
           (strncmp(name, "Native_", 7) == 0 && strcmp(name + 7, native) == 0);
}

static inline bool tl_events_natives_declared(const tl_events *reg, uint32_t first, uint32_t last,
                                              const char *service) {
    static const char *const natives[TL_EVENTS_NATIVE_COUNT] = { TL_EVENTS_NATIVE_NAMES };
    uint32_t event;
    if (!reg || !reg->events) return true; /* the untyped core alone: nothing says otherwise */
    for (event = first; event <= last && event < TL_EVENTS_NATIVE_COUNT; event++) {
        const char *name = tl_events_event_name(reg, event);
        if (name && tl__events_names_native(name, natives[event])) continue;
        tl__events_log(reg, TL_EVENTS_LOG_NATIVES_UNDECLARED, service, name ? "'" : "",
                       name ? name : "no event", name ? "'" : "", (unsigned)event, natives[event]);
        return false;
    }
    return true;
}

/* The slot of an event a caller wants to change, or NULL after logging why not. */
static inline tl_events_slot *tl__events_slot_for(tl_events *reg, uint32_t event,
                                                  const char *what) {
    if (event >= reg->span) {
        tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_RANGE, what, (unsigned)event, (unsigned)reg->span);
        tl__events_fail(reg, TL_EVENTS_OUT_OF_RANGE);
        return NULL;
    }
    if (reg->slots[event].flags & TL__EVENTS_GAP) {
        tl__events_log(reg, TL_EVENTS_LOG_UNDECLARED_EVENT, what, (unsigned)event);
        tl__events_fail(reg, TL_EVENTS_UNDECLARED_EVENT);
        return NULL;
    }
    return &reg->slots[event];
}

static inline int tl__events_find(const tl_events_slot *slot, tl_events_fn fn, void *ctx) {
    uint32_t i = slot->count;
    while (i-- > 0) /* newest first: churn removes what it just added */
        if (slot->listeners[i].fn == fn && slot->listeners[i].ctx == ctx) return (int)i;
    return -1;
}

static inline tl_events_result tl__events_subscribe_slow(tl_events *reg, uint32_t event,
                                                         uint32_t signature, uint32_t flags,
                                                         tl_events_fn fn, void *ctx) {
    tl_events_slot *slot;
    char label[32];
    flags &= TL_EVENTS_SINGLE_PROVIDER;
    if (!reg || !fn) {
        tl__events_log(reg, TL_EVENTS_LOG_INVALID_ARGUMENT, "subscribe");
        return tl__events_fail(reg, TL_EVENTS_INVALID_ARGUMENT);
    }
    slot = tl__events_slot_for(reg, event, "subscribe");
    if (!slot) return reg->last;
    if (!(slot->flags & TL__EVENTS_BOUND)) {
        slot->signature = signature;
        slot->flags |= flags | TL__EVENTS_BOUND;
    } else if (slot->signature != signature || (slot->flags & TL_EVENTS_SINGLE_PROVIDER) != flags) {
        tl__events_log(reg, TL_EVENTS_LOG_SIGNATURE_MISMATCH,
                       tl__events_label(reg, event, label, sizeof label), (unsigned)signature,
                       flags ? " (single provider)" : "", (unsigned)slot->signature,
                       (slot->flags & TL_EVENTS_SINGLE_PROVIDER) ? " (single provider)" : "");
        return tl__events_fail(reg, TL_EVENTS_SIGNATURE_MISMATCH);
    }
    if (slot->live > 0 && tl__events_find(slot, fn, ctx) >= 0) {
        tl__events_log(reg, TL_EVENTS_LOG_DUPLICATE_LISTENER,
                       tl__events_label(reg, event, label, sizeof label));
        return tl__events_fail(reg, TL_EVENTS_DUPLICATE_LISTENER);
    }
    if ((slot->flags & TL_EVENTS_SINGLE_PROVIDER) && slot->live > 0) {
        tl__events_log(reg, TL_EVENTS_LOG_SECOND_PROVIDER,
                       tl__events_label(reg, event, label, sizeof label));
        return tl__events_fail(reg, TL_EVENTS_SECOND_PROVIDER);
    }
    if (slot->count == slot->capacity) {
        /* Growth during dispatch keeps the old list for the running dispatches (see RULES). */
        uint32_t capacity = slot->capacity ? slot->capacity * 2u : TL__EVENTS_FIRST_CAPACITY;
        tl_events_listener *grown;
        tl__events_retired *retired = NULL;
        if (slot->capacity >= TL__EVENTS_MAX_LISTENERS) {
            tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_MEMORY, "listener list");
            return tl__events_fail(reg, TL_EVENTS_OUT_OF_MEMORY);
        }
        grown = (tl_events_listener *)TL_MALLOC((size_t)capacity * sizeof(tl_events_listener));
        if (!grown) {
            tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_MEMORY, "listener list");
            return tl__events_fail(reg, TL_EVENTS_OUT_OF_MEMORY);
        }
        if (slot->depth > 0 && slot->listeners) {
            retired = (tl__events_retired *)TL_MALLOC(sizeof *retired);
            if (!retired) {
                TL_FREE(grown);
                tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_MEMORY, "listener list");
                return tl__events_fail(reg, TL_EVENTS_OUT_OF_MEMORY);
            }
            retired->next = slot->retired;
            retired->listeners = slot->listeners;
            retired->capacity = slot->capacity;
            slot->retired = retired;
            slot->dirty = 1;
        }
        if (slot->count) memcpy(grown, slot->listeners, (size_t)slot->count * sizeof *grown);
        if (!retired) TL_FREE(slot->listeners);
        slot->listeners = grown;
        slot->capacity = capacity;
    }
    slot->listeners[slot->count].fn = fn;
    slot->listeners[slot->count].ctx = ctx;
    slot->count++;
    slot->live++;
    return TL_EVENTS_OK;
}

/* Logs why tl_events_unsubscribe refused, with subscribe's diagnostics; always false. */
static inline bool tl__events_unsubscribe_refused(tl_events *reg, uint32_t event, tl_events_fn fn) {
    if (!reg || !fn) {
        tl__events_log(reg, TL_EVENTS_LOG_INVALID_ARGUMENT, "unsubscribe");
        (void)tl__events_fail(reg, TL_EVENTS_INVALID_ARGUMENT);
        return false;
    }
    if (event >= reg->span) {
        tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_RANGE, "unsubscribe", (unsigned)event,
                       (unsigned)reg->span);
        (void)tl__events_fail(reg, TL_EVENTS_OUT_OF_RANGE);
        return false;
    }
    tl__events_log(reg, TL_EVENTS_LOG_UNDECLARED_EVENT, "unsubscribe", (unsigned)event);
    (void)tl__events_fail(reg, TL_EVENTS_UNDECLARED_EVENT);
    return false;
}

/* The outermost dispatch ended on a dirty slot: free the retired lists, compact the marked entries
   (swap-with-last, in index order). */
static inline void tl__events_settle(tl_events_slot *slot) {
    uint32_t i = 0;
    while (slot->retired) {
        tl__events_retired *r = slot->retired;
        slot->retired = r->next;
        TL_FREE(r->listeners);
        TL_FREE(r);
    }
    while (i < slot->count) {
        if (slot->listeners[i].fn) i++;
        else slot->listeners[i] = slot->listeners[--slot->count];
    }
    slot->dirty = 0;
}

/* Removal during dispatch: marks entry `index` in the list and in every retired one that holds it
   (indices are stable during dispatch: nothing moves until the outermost dispatch ends). */
static inline void tl__events_mark(tl_events_slot *slot, uint32_t index) {
    tl__events_retired *r;
    slot->listeners[index].fn = NULL;
    for (r = slot->retired; r; r = r->next)
        if (index < r->capacity) r->listeners[index].fn = NULL;
    slot->dirty = 1;
}

static inline void tl__events_publish_mismatch(tl_events *reg, uint32_t event, uint32_t signature) {
    tl_events_slot *slot = &reg->slots[event];
    char label[32];
    reg->last = TL_EVENTS_PUBLISH_MISMATCH; /* every time; logged once */
    if (slot->flags & TL__EVENTS_REPORTED) return;
    slot->flags |= TL__EVENTS_REPORTED;
    tl__events_log(reg, TL_EVENTS_LOG_PUBLISH_MISMATCH,
                   tl__events_label(reg, event, label, sizeof label), (unsigned)signature,
                   (unsigned)slot->signature);
}

static inline uint32_t tl_events_listener_count(const tl_events *reg, uint32_t event) {
    if (!reg || event >= reg->span) return 0;
    return reg->slots[event].live;
}

static inline bool tl_events_contains(const tl_events *reg, uint32_t event, tl_events_fn fn,
                                      void *ctx) {
    if (!reg || !fn || event >= reg->span || reg->slots[event].live == 0) return false;
    return tl__events_find(&reg->slots[event], fn, ctx) >= 0;
}

static inline void tl_events_clear(tl_events *reg, uint32_t event) {
    tl_events_slot *slot;
    uint32_t i;
    if (!reg) return;
    if (event >= reg->span) { /* a wrong id, logged like any other refusal */
        tl__events_log(reg, TL_EVENTS_LOG_OUT_OF_RANGE, "clear", (unsigned)event,
                       (unsigned)reg->span);
        tl__events_fail(reg, TL_EVENTS_OUT_OF_RANGE);
        return;
    }
    slot = &reg->slots[event];
    if (slot->depth > 0) {
        for (i = 0; i < slot->count; i++) tl__events_mark(slot, i);
    } else {
        slot->count = 0;
    }
    slot->live = 0;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_EVENTS_H */
