/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/platform.h -- platform services: the state machine, module registry, capabilities,
   services, retry, loss (the seed's Sentinel).

   WHAT
   ----
   The seed's Sentinel for C. The platform (Windows, Linux, ...) is the build's; a distribution
   (Local, Steam, a store) is chosen where the platform allows several. A module implements one
   exact (platform, distribution) pair: it initialises the native SDK (synchronously or over
   several updates), advertises capability flags, registers platform services by id and adds
   accounts, each with its own services (saves, achievements) and a state (signed in, suspended
   while the platform's servers are lost, signed out), listed and refreshed on request. A failed
   platform never aborts the
   game: the platform is then FAILED, no service answers, and the game decides (degraded play, an
   error screen) and may retry. platform_local.h is the Local module: one implicit account, local
   saves through save.h, achievements and their progress committed atomically in the same store.

   INCLUDE
   -------
       #include <threadlink/platform.h>
       #define TL_PLATFORM_IMPL                // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/platform.h>
   A service: it includes only the core (events.h, log.h). glue.h's tl_glue_weave_platform deploys
   it as a lifecycle's native preload (it settles before any subsystem boots) and shuts it down at
   the lifecycle's discard.
   TL_MALLOC / TL_FREE override the allocator (both or neither).
   TL_PLATFORM_DEVELOPMENT (0 or 1) says whether this is a development build, where the
   distribution override is also read from the command line and the environment. Default: 1
   unless NDEBUG is defined (the switch assert() follows). Only the implementation file reads it.

   USE
   ---
       tl_platform_desc desc = {0};                 // zero: defaults (see tl_platform_desc)
       desc.registry = &registry;
       desc.argc = argc;  desc.argv = argv;         // development builds read the override there
       tl_platform *platform = tl_platform_create(&desc);
       tl_platform_local_desc local = {0};
       local.root = "saves";
       tl_platform_register_local(platform, 0, &local);  // platform_local.h; 0: the build's
       tl_glue_weave_platform(&lifecycle, platform);     // glue.h: its native tier
       while (tl_lifecycle_deploy(&lifecycle) == TL_LIFECYCLE_DEPLOY_PENDING) frame();
       tl_platform_account *me = tl_platform_primary_account(platform);   // NULL unless ready
       tl_save_store *saves;
       if (me && tl_platform_account_service(me, TL_PLATFORM_SERVICE_SAVES, (void **)&saves))
           ... tl_save_begin(saves, "slot-1", &txn) ... (save.h)
       ... each frame: tl_platform_update(platform);      // retry and loss progress here
       tl_platform_refresh_accounts(platform);           // the platform's account list again
       tl_platform_account_state_of(me);                 // SIGNED_IN, SUSPENDED, SIGNED_OUT
       tl_platform_simulate_loss(platform);              // development builds: the loss path
       tl_lifecycle_discard(&lifecycle);  tl_platform_destroy(platform);

   STATE MACHINE
   -------------
   - A deployment goes UNINITIALIZED -> RESOLVING_PLATFORM (the platform, the distribution and
     its override) -> RESOLVING_MODULE (the registry, exact pair) -> INITIALIZING (the module's
     init; PENDING is polled once per tl_platform_update) -> READY or FAILED. The first deployment
     starts at the first tl_platform_update (woven with glue.h: the lifecycle's native preload, so
     it settles before any subsystem boots; a failure never fails the lifecycle's deployment).
   - No module for the exact pair: FAILED with TL_PLATFORM_UNSUPPORTED. A module's failure:
     FAILED with its result (and the message and native error it gave tl_platform_report), its
     shutdown called, what it registered dropped. tl_platform_initialization_result tells why,
     tl_platform_last_message and tl_platform_last_native_error the detail; logged as an error.
   - Every settled deployment publishes OnPlatformStateChanged(tl_platform *): the first, each
     retry's, and a loss. A listener reads tl_platform_state_of.
   - tl_platform_retry, only while FAILED, deploys again (the override sources re-read).
   - A module reports the platform gone with tl_platform_report_lost: the state is FAILED with
     TL_PLATFORM_LOST and the event published at once (from inside the call, so users release
     what they hold); the module is shut down at the next tl_platform_update (or retry).
   - tl_platform_shutdown (glue.h: at the lifecycle's discard) calls the module's shutdown, drops
     what it registered and leaves the platform SHUT_DOWN for good: update answers SHUT_DOWN,
     retry is REFUSED, no event (the game made the call). It is also the way out of a module
     whose init stays PENDING (a hung SDK): no timeout is imposed, the game decides when to give
     up, and a woven deployment then goes on.
   - Services, accounts and capabilities answer only while READY.
   - Accounts: a module adds them (signed in) at init, poll or refresh, and sets their state
     when its SDK says so (tl_platform_set_account_state): suspended while the platform's servers
     are lost, signed in on their return, signed out once gone. Each change while READY, and each
     account a refresh adds, publishes OnAccountStateChanged(tl_platform_account *). An account is
     never freed before the module is torn down.
   - Development builds: tl_platform_simulate_loss runs the loss path and
     tl_platform_simulate_server_loss the servers' loss and return, with any module (the seed's
     SimulatePlatformLoss), for tests; other builds refuse them.
   - Modules and listeners must not call tl_platform_update, retry, refresh or destroy
     (refused).

   DISTRIBUTION OVERRIDE
   ---------------------
   The configured distribution (desc.distribution, Local by default) is replaced by the first of
   these sources that gives an acceptable value: tl_platform_set_distribution_override (by code,
   before deployment), then, in development builds only, the command-line argument
   `-threadlink-platform-distribution <name>` (desc.argc/argv) and the environment variable
   THREADLINK_PLATFORM_DISTRIBUTION. The seed's spellings, `-threadlink-sentinel-distribution`
   and THREADLINK_SENTINEL_DISTRIBUTION, are aliases of them (the documented spelling first when
   both are given, whatever their order; of one flag given twice, the last). Names are
   case-insensitive ("steam", "Local"). A value that names no distribution (an empty flag value
   too; an empty variable is an unset one), or one the policy (desc.allowed, else the default
   table below) does not allow on the platform, is ignored with a warning (its control and
   non-ASCII bytes shown as '?'), as if its source gave none; an applied one is logged.

   NATIVE EVENTS (natives/Iris.Events.Native.txt, after levels.h's: ordinals 18 and 19)
   -------------
       OnPlatformStateChanged(tl_platform *)           a deployment settled (READY or FAILED),
                                                       or a loss
       OnAccountStateChanged(tl_platform_account *)    an account's state changed, or a refresh
                                                       added it

   ERRORS
   ------
   A call that can fail returns tl_platform_result (TL_PLATFORM_OK = 0, tl_platform_result_message;
   PENDING is no failure); tl_platform_create returns NULL (logged). The platform keeps the last
   result with its native error and message (tl_platform_last_result, _native_error, _message): a
   module gives them with tl_platform_report. Logged once where met (desc.logger). docs/errors.md.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_PLATFORM_IMPL)
#define TL_PLATFORM_IMPL
#endif
#ifndef TL_PLATFORM_H
#define TL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "log.h"

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/platform.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- native events ------------------------------------------------------------------------------ */

typedef struct tl_platform_events {
    uint32_t state_changed;         /* OnPlatformStateChanged(tl_platform *) */
    uint32_t account_state_changed; /* OnAccountStateChanged(tl_platform_account *) */
} tl_platform_events;
#define TL_PLATFORM_EVENTS_INIT(prefix) \
    { prefix##OnPlatformStateChanged, prefix##OnAccountStateChanged }
/* Their native ordinals: after levels.h's. */
#define TL_PLATFORM_EVENTS_NATIVE \
    { 18, 19 }
#define TL_PLATFORM_SIG_PLATFORM 0x9488dff6u /* "(tl_platform *)" */
#define TL_PLATFORM_SIG_ACCOUNT 0x03855974u  /* "(tl_platform_account *)" */
/* tl_platform and tl_platform_account are declared by events.h, for the generated headers. */
typedef void (*tl_platform_fn)(void *ctx, tl_platform *platform);
typedef void (*tl_platform_account_fn)(void *ctx, tl_platform_account *account);

/* --- platforms, distributions, capabilities, services ------------------------------------------- */

/* X(id, name): the name is what logs print and what the override matches, case-insensitively. */
#define TL_PLATFORM_MARKERS(X) \
    X(WINDOWS, "Windows") \
    X(MACOS, "macOS") \
    X(LINUX, "Linux") \
    X(IOS, "iOS") \
    X(ANDROID, "Android") \
    X(WEB, "Web")
#define TL_PLATFORM_DISTRIBUTIONS(X) \
    X(LOCAL, "Local") \
    X(STEAM, "Steam") \
    X(MICROSOFT_STORE, "MicrosoftStore") \
    X(EPIC, "Epic") \
    X(GOG, "GOG") \
    X(APP_STORE, "AppStore") \
    X(GOOGLE_PLAY, "GooglePlay")

/* 0 is none (in a desc: the default). Projects may use values from TL_PLATFORM_USER_IDS up for
   their own platforms and distributions (registry and policy; names print as "?"). */
typedef enum tl_platform_marker {
    TL_PLATFORM_MARKER_NONE = 0,
#define TL__PLATFORM_MARKER_ENUM(id, name) TL_PLATFORM_MARKER_##id,
    TL_PLATFORM_MARKERS(TL__PLATFORM_MARKER_ENUM)
#undef TL__PLATFORM_MARKER_ENUM
        TL_PLATFORM_MARKER_END_
} tl_platform_marker;
typedef enum tl_platform_distribution {
    TL_PLATFORM_DISTRIBUTION_NONE = 0,
#define TL__PLATFORM_DISTRIBUTION_ENUM(id, name) TL_PLATFORM_DISTRIBUTION_##id,
    TL_PLATFORM_DISTRIBUTIONS(TL__PLATFORM_DISTRIBUTION_ENUM)
#undef TL__PLATFORM_DISTRIBUTION_ENUM
        TL_PLATFORM_DISTRIBUTION_END_
} tl_platform_distribution;
#define TL_PLATFORM_USER_IDS 0x100u

/* What a module implements (the seed's SentinelCapability). */
#define TL_PLATFORM_CAP_ACCOUNTS (1u << 0)
#define TL_PLATFORM_CAP_ACCOUNT_SELECTION (1u << 1)
#define TL_PLATFORM_CAP_LOCAL_SAVES (1u << 2)
#define TL_PLATFORM_CAP_CLOUD_SAVES (1u << 3)
#define TL_PLATFORM_CAP_SAVE_TRANSACTIONS (1u << 4)
#define TL_PLATFORM_CAP_ACHIEVEMENTS (1u << 5) /* achievements and their progress */
#define TL_PLATFORM_CAP_INPUT_OWNERSHIP (1u << 6)
#define TL_PLATFORM_CAP_STATISTICS (1u << 7)
#define TL_PLATFORM_CAP_LEADERBOARDS (1u << 8)
#define TL_PLATFORM_CAP_PRESENCE (1u << 9)
#define TL_PLATFORM_CAP_FRIENDS (1u << 10)
#define TL_PLATFORM_CAP_ENTITLEMENTS (1u << 11)
#define TL_PLATFORM_CAP_COMMERCE (1u << 12)
#define TL_PLATFORM_CAP_INVITES (1u << 13)

/* Well-known service ids (a module may register its own from TL_PLATFORM_USER_IDS up). */
#define TL_PLATFORM_SERVICE_SAVES 1u        /* account: tl_save_store * (save.h) */
#define TL_PLATFORM_SERVICE_ACHIEVEMENTS 2u /* account: tl_platform_achievements * */

/* X(id, name): an account's state. Signed in; suspended while the platform's servers are lost
   (signed in, its online services waiting), signed in again on their return; signed out once
   the platform no longer has it (it stays in the list, its services with it). */
#define TL_PLATFORM_ACCOUNT_STATES(X) \
    X(SIGNED_IN, "signed in") \
    X(SUSPENDED, "suspended") \
    X(SIGNED_OUT, "signed out")
typedef enum tl_platform_account_state {
#define TL__PLATFORM_ACCOUNT_STATE_ENUM(id, name) TL_PLATFORM_ACCOUNT_##id,
    TL_PLATFORM_ACCOUNT_STATES(TL__PLATFORM_ACCOUNT_STATE_ENUM)
#undef TL__PLATFORM_ACCOUNT_STATE_ENUM
        TL_PLATFORM_ACCOUNT_STATE_END_
} tl_platform_account_state;

typedef enum tl_platform_state {
    TL_PLATFORM_STATE_UNINITIALIZED = 0,
    TL_PLATFORM_STATE_RESOLVING_PLATFORM = 1,
    TL_PLATFORM_STATE_RESOLVING_MODULE = 2,
    TL_PLATFORM_STATE_INITIALIZING = 3,
    TL_PLATFORM_STATE_READY = 4,
    TL_PLATFORM_STATE_FAILED = 5,
    TL_PLATFORM_STATE_SHUT_DOWN = 6 /* tl_platform_shutdown: for good */
} tl_platform_state;

/* --- results ------------------------------------------------------------------------------------ */

#define TL_PLATFORM_RESULTS(X) \
    X(PENDING, "in progress: update again") \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(UNSUPPORTED, "no platform module for this platform and distribution") \
    X(NOT_READY, "the platform is not ready") \
    X(NOT_FAILED, "only a failed platform can be retried") \
    X(REFUSED, \
      "refused: inside a platform module or listener, after shutdown, or a simulation in a shipping build") \
    X(INITIALIZATION_FAILED, "the platform module failed to initialize") \
    X(LOST, "the platform was lost") \
    X(NOT_FOUND, "no such achievement") \
    X(STORAGE, "the save store failed (tl_platform_last_native_error holds its native error)") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(DUPLICATE, "a module for this pair, or a service of this id, is already registered")

/* TL_PLATFORM_PENDING (1) is no failure: a module's init still running. */
typedef enum tl_platform_result {
    TL_PLATFORM_OK = 0,
#define TL__PLATFORM_RESULT_ENUM(id, message) TL_PLATFORM_##id,
    TL_PLATFORM_RESULTS(TL__PLATFORM_RESULT_ENUM)
#undef TL__PLATFORM_RESULT_ENUM
        TL_PLATFORM_RESULT_END_
} tl_platform_result;

TL_API const char *tl_platform_result_message(tl_platform_result result);

/* --- diagnostics -------------------------------------------------------------------------------- */

#define TL_PLATFORM_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(REFUSED, TL_LOG_LEVEL_ERROR, "%s: refused (%s)") \
    X(DUPLICATE_MODULE, TL_LOG_LEVEL_ERROR, "module '%s': %s/%s already has module '%s'") \
    X(DUPLICATE_SERVICE, TL_LOG_LEVEL_ERROR, "service %u is already registered%s") \
    X(OVERRIDE_APPLIED, TL_LOG_LEVEL_INFO, "distribution override from %s: %s (configured: %s)") \
    X(OVERRIDE_UNKNOWN, TL_LOG_LEVEL_WARNING, \
      "distribution override from %s: '%s' names no distribution: ignored") \
    X(OVERRIDE_DISALLOWED, TL_LOG_LEVEL_WARNING, \
      "distribution override from %s: %s is not allowed on %s: ignored") \
    X(OVERRIDE_NO_VALUE, TL_LOG_LEVEL_WARNING, "command line: %s needs a value: ignored") \
    X(READY, TL_LOG_LEVEL_INFO, "%s/%s ready (module '%s'): %s") \
    X(FAILED, TL_LOG_LEVEL_ERROR, "%s/%s failed: %s (native error %d): %s") \
    X(LOST, TL_LOG_LEVEL_ERROR, "%s/%s lost: %s (native error %d)") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(ACCOUNT_STATE, TL_LOG_LEVEL_INFO, "account '%s': %s -> %s")

#define TL_PLATFORM_LOG_BASE 0x600u
typedef enum tl_platform_log_item {
    TL_PLATFORM_LOG_NONE_ = TL_PLATFORM_LOG_BASE - 1,
#define TL__PLATFORM_LOG_ENUM(id, level, message) TL_PLATFORM_LOG_##id,
    TL_PLATFORM_LOG_ITEMS(TL__PLATFORM_LOG_ENUM)
#undef TL__PLATFORM_LOG_ENUM
        TL_PLATFORM_LOG_END_
} tl_platform_log_item;

/* --- modules ------------------------------------------------------------------------------------ */

/* One exact (platform, distribution) pair. The functions get ctx and the platform. */
typedef struct tl_platform_module {
    const char *name;      /* in messages; NULL: "module" */
    uint32_t platform;     /* tl_platform_marker (or a project's own, see TL_PLATFORM_USER_IDS) */
    uint32_t distribution; /* tl_platform_distribution (likewise) */
    uint32_t capabilities; /* TL_PLATFORM_CAP_*: only what it implements */
    void *ctx;
    /* Required. Initialises the platform: registers services and accounts (below). OK: ready;
       PENDING: poll is called once per update; anything else fails the deployment with it (a
       message and native error given with tl_platform_report are kept with it). */
    tl_platform_result (*init)(void *ctx, tl_platform *platform);
    /* While init is pending; NULL: a PENDING answer fails the deployment. */
    tl_platform_result (*poll)(void *ctx, tl_platform *platform);
    /* Once after every init, whatever came of it: a failure, a loss's teardown, shutdown. */
    void (*shutdown)(void *ctx, tl_platform *platform);
    /* At tl_platform_destroy, for a ctx the module owns; NULL: nothing. */
    void (*release)(void *ctx);
    /* tl_platform_refresh_accounts: the platform's account list again (accounts added with
       tl_platform_add_account, states set); NULL: the list is always current. */
    tl_platform_result (*refresh)(void *ctx, tl_platform *platform);
} tl_platform_module;

typedef struct tl_platform_pair {
    uint32_t platform, distribution;
} tl_platform_pair;

/* Zero-initialised: no events published, native ordinal, stderr logging (call
   tl_platform_update yourself, or weave it with glue.h), the build's platform, the Local distribution, the default
   policy, no command line, no modules.
   Default policy (the distributions an override may select): Windows: Local, Steam,
   MicrosoftStore, Epic, GOG; macOS: Local, Steam, AppStore, Epic, GOG; Linux: Local, Steam, GOG;
   iOS: Local, AppStore; Android: Local, GooglePlay; Web: Local. */
typedef struct tl_platform_desc {
    tl_events *registry;
    const tl_platform_events *events; /* NULL: TL_PLATFORM_EVENTS_NATIVE */
    const tl_logger *logger;
    uint32_t platform;               /* 0: the build's (TL_PLATFORM_MARKER_NONE if unknown) */
    uint32_t distribution;           /* the configured one; 0: Local */
    const tl_platform_pair *allowed; /* the policy (copied); NULL: the default table */
    uint32_t allowed_count;
    int argc; /* read at create, in development builds */
    char **argv;
    const tl_platform_module *modules; /* copied, as by tl_platform_register_module */
    uint32_t module_count;
} tl_platform_desc;

TL_API tl_platform *tl_platform_create(const tl_platform_desc *desc);
/* Shuts down (if not yet) and frees; woven into a lifecycle, only after tl_lifecycle_discard. */
TL_API void tl_platform_destroy(tl_platform *platform);
/* Calls the module's shutdown and drops its services; the platform is SHUT_DOWN and does nothing
   more (see STATE MACHINE). */
TL_API void tl_platform_shutdown(tl_platform *platform);
/* Starts the first deployment, polls a pending init, tears down a lost platform. */
TL_API tl_platform_state tl_platform_update(tl_platform *platform);
/* An OnUpdate listener: subscribe it with the platform as context. */
TL_API void tl_platform_on_update(void *platform, float seconds);
/* Before deployment or while failed; DUPLICATE for a pair already registered (logged). */
TL_API tl_platform_result tl_platform_register_module(tl_platform *platform,
                                                      const tl_platform_module *module);
/* By code, before deployment (copied; NULL clears it). REFUSED once deployment has started. */
TL_API tl_platform_result tl_platform_set_distribution_override(tl_platform *platform,
                                                                const char *name);
/* While FAILED: deploys again. OK when ready at once, PENDING while the module initialises
   (update on), else the new failure; NOT_FAILED in any other state. */
TL_API tl_platform_result tl_platform_retry(tl_platform *platform);
/* For a module whose platform went away (the SDK shut down): READY -> FAILED with LOST (message
   copied, NULL: "the platform went away"; native_error kept), the event published now, the module
   shut down at the next update. NOT_READY unless READY. */
TL_API tl_platform_result tl_platform_report_lost(tl_platform *platform, int native_error,
                                                  const char *message);

TL_API tl_platform_state tl_platform_state_of(const tl_platform *platform);
/* Why the last deployment failed (or the loss); OK otherwise. */
TL_API tl_platform_result tl_platform_initialization_result(const tl_platform *platform);
/* The last result the platform met (a deployment settling or lost, a call that can fail, what a
   module reported with tl_platform_report), its native error (the SDK's or the system's, 0 when
   none) and its message: the module's text when it gave one, else the result's (valid until the
   next result). A NULL platform: INVALID_ARGUMENT, 0, its message. */
TL_API tl_platform_result tl_platform_last_result(const tl_platform *platform);
TL_API int tl_platform_last_native_error(const tl_platform *platform);
TL_API const char *tl_platform_last_message(const tl_platform *platform);
/* The resolved pair (0 before resolution). */
TL_API uint32_t tl_platform_active_platform(const tl_platform *platform);
TL_API uint32_t tl_platform_active_distribution(const tl_platform *platform);
TL_API uint32_t tl_platform_capabilities(const tl_platform *platform); /* 0 unless READY */
TL_API bool tl_platform_has_capability(const tl_platform *platform,
                                       uint32_t caps); /* all of them */
TL_API bool tl_platform_service(const tl_platform *platform, uint32_t id, void **service);
TL_API tl_platform_account *tl_platform_primary_account(const tl_platform *platform);
TL_API uint32_t tl_platform_account_count(const tl_platform *platform);
TL_API tl_platform_account *tl_platform_account_at(const tl_platform *platform, uint32_t i);
TL_API bool tl_platform_account_service(const tl_platform_account *account, uint32_t id,
                                        void **service);
TL_API const char *tl_platform_account_id(const tl_platform_account *account);
TL_API const char *tl_platform_account_name(const tl_platform_account *account);
/* TL_PLATFORM_ACCOUNT_SIGNED_OUT for NULL. */
TL_API tl_platform_account_state tl_platform_account_state_of(const tl_platform_account *account);
/* Asks the module for the platform's account list again (its refresh may add accounts, each one
   published as OnAccountStateChanged, and change states); OK at once for a module without one.
   NOT_READY unless READY, REFUSED from a module or listener; else the module's result. Accounts
   are never removed before the platform tears down (a pointer stays valid): one the platform no
   longer has is signed out. */
TL_API tl_platform_result tl_platform_refresh_accounts(tl_platform *platform);

/* Development builds only (TL_PLATFORM_DEVELOPMENT; refused and logged in others), for tests, with
   any module, the Local one included. simulate_loss runs the loss path as a module's
   tl_platform_report_lost does (LOST, "simulated platform loss", the event at once, the module shut
   down at the next update); NOT_READY unless READY. simulate_server_loss(true) suspends every
   signed-in account, (false) signs every suspended one in again, as a module does when the
   platform's servers go and come back (each change published); NOT_READY unless READY. Other
   builds: REFUSED. */
TL_API tl_platform_result tl_platform_simulate_loss(tl_platform *platform);
TL_API tl_platform_result tl_platform_simulate_server_loss(tl_platform *platform, bool lost);

/* For modules, during init, poll and refresh (REFUSED otherwise; DUPLICATE for an id taken):
   services, accounts (signed in; the first account is the primary one until set_primary; NULL
   on failure, logged). An account's id is copied whole, at most 63 bytes (a longer one is
   refused: cut, two ids would become one); its name (the id when NULL) is cut after its last
   whole UTF-8 character within 63 bytes. */
TL_API tl_platform_result tl_platform_add_service(tl_platform *platform, uint32_t id,
                                                  void *service);
TL_API tl_platform_account *tl_platform_add_account(tl_platform *platform, const char *id,
                                                    const char *name);
TL_API tl_platform_result tl_platform_set_primary_account(tl_platform *platform,
                                                          tl_platform_account *account);
TL_API tl_platform_result tl_platform_account_add_service(tl_platform_account *account, uint32_t id,
                                                          void *service);
/* For modules, while initializing or ready (from their SDK's callbacks too): an account's state.
   A change is logged and, once ready, published as OnAccountStateChanged(account).
   INVALID_ARGUMENT for a state out of range, NOT_READY in another platform state. */
TL_API tl_platform_result tl_platform_set_account_state(tl_platform_account *account,
                                                        tl_platform_account_state state);

TL_API const char *tl_platform_state_name(tl_platform_state state);
TL_API const char *tl_platform_account_state_name(tl_platform_account_state state); /* or "?" */
TL_API const char *tl_platform_marker_name(uint32_t platform);           /* "?" if unknown */
TL_API const char *tl_platform_distribution_name(uint32_t distribution); /* "?" if unknown */
TL_API uint32_t tl_platform_distribution_from_name(const char *name);    /* case-insensitive; 0 */

/* --- achievements (a service interface any module may implement) -------------------------------- */

/* The longest achievement id (the Local module keeps them as save.h ids: 1 to 64 characters). */
#define TL_PLATFORM_ACHIEVEMENT_ID_MAX 64

typedef struct tl_platform_achievement {
    char id[TL_PLATFORM_ACHIEVEMENT_ID_MAX + 1];
    uint32_t current, target; /* progress; 0 / 0 when only unlocked */
    bool unlocked;
} tl_platform_achievement;

/* Ids are 1 to TL_PLATFORM_ACHIEVEMENT_ID_MAX characters (a module may ask for more, the Local
   module save.h's id rules). Each call is all or nothing. */
typedef struct tl_platform_achievements {
    void *self;
    tl_platform_result (*unlock)(void *self, const char *id);
    /* Unlocks it once current reaches target (target > 0); progress never locks it again. */
    tl_platform_result (*progress)(void *self, const char *id, uint32_t current, uint32_t target);
    /* NOT_FOUND for an achievement never touched. */
    tl_platform_result (*get)(void *self, const char *id, tl_platform_achievement *out);
} tl_platform_achievements;

TL_API tl_platform_result tl_platform_achievement_unlock(const tl_platform_achievements *service,
                                                         const char *id);
TL_API tl_platform_result tl_platform_achievement_progress(const tl_platform_achievements *service,
                                                           const char *id, uint32_t current,
                                                           uint32_t target);
TL_API tl_platform_result tl_platform_achievement_get(const tl_platform_achievements *service,
                                                      const char *id, tl_platform_achievement *out);

/* For a module (its init, poll, refresh, services): records a result with its native error and
   message (copied; NULL: the result's own) as the platform's last (tl_platform_last_*), and
   returns it, so that `return tl_platform_report(p, TL_PLATFORM_STORAGE, errno, "...");` gives
   the platform the detail a bare result cannot carry. */
TL_API tl_platform_result tl_platform_report(tl_platform *platform, tl_platform_result result,
                                             int native_error, const char *message);
/* The logger the platform reports through (its desc's copy), for its modules. */
TL_API const tl_logger *tl_platform_logger(const tl_platform *platform);
/* The platform marker modules register for by default: desc.platform, else the build's. */
TL_API uint32_t tl_platform_build_marker(const tl_platform *platform);
/* While pinned, tl_platform_destroy is refused (logged): glue.h pins a platform woven into a
   lifecycle until that lifecycle's discard begins, which would otherwise call into freed memory. */
TL_API void tl_platform_pin(tl_platform *platform, bool pinned);

#ifdef __cplusplus
}
#endif
#endif /* TL_PLATFORM_H */

/* ------------------------------------------------------------------------------------------------ */
/* Two helpers of the implementation, shared with a platform module's implementation
   (platform_local.h defines TL__PLATFORM_HELPERS and includes this header again): a bounded copy
   of a string and a doubling growth of an array. Static: each implementing file has its copy. */
#if (defined(TL_PLATFORM_IMPL) || defined(TL__PLATFORM_HELPERS)) && \
    !defined(TL__PLATFORM_HELPERS_DEFINED)
#define TL__PLATFORM_HELPERS_DEFINED
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

/* A copy cut, when it must be, after its last whole UTF-8 character: a name shown in the game's
   interface stays valid text. */
static void tl__platform_copy(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) {
        n = cap - 1u;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80) n--; /* src[n] is not copied */
    }
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

static bool tl__platform_grow(void **array, uint32_t *cap, size_t size, uint32_t need) {
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
#endif /* TL__PLATFORM_HELPERS */

#if defined(TL_PLATFORM_IMPL) && !defined(TL__PLATFORM_IMPLEMENTED)
#define TL__PLATFORM_IMPLEMENTED
/* Again here, for the usage block's order (include, define, include). */
#include "log.h"
#include "events.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
#ifndef TL_PLATFORM_DEVELOPMENT
#ifdef NDEBUG
#define TL_PLATFORM_DEVELOPMENT 0
#else
#define TL_PLATFORM_DEVELOPMENT 1
#endif
#endif

#if defined(_WIN32)
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_WINDOWS
#elif defined(__APPLE__)
#include <TargetConditionals.h>
#if defined(TARGET_OS_IPHONE) && TARGET_OS_IPHONE
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_IOS
#else
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_MACOS
#endif
#elif defined(__ANDROID__)
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_ANDROID
#elif defined(__EMSCRIPTEN__)
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_WEB
#elif defined(__linux__)
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_LINUX
#else
#define TL__PLATFORM_BUILD TL_PLATFORM_MARKER_NONE
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__PLATFORM_MODULE "Platform"
#define TL__PLATFORM_NAME_MAX 63
#define TL__PLATFORM_MESSAGE_MAX 200
#define TL__PLATFORM_TRACE_MAX 8
#define TL__PLATFORM_ARGUMENT "-threadlink-platform-distribution"
#define TL__PLATFORM_ENVIRONMENT "THREADLINK_PLATFORM_DISTRIBUTION"
/* The seed's spellings (Sentinel's), read as aliases of the two above. */
#define TL__PLATFORM_ARGUMENT_SEED "-threadlink-sentinel-distribution"
#define TL__PLATFORM_ENVIRONMENT_SEED "THREADLINK_SENTINEL_DISTRIBUTION"

typedef struct tl__platform_service {
    uint32_t id;
    void *service;
} tl__platform_service;
typedef struct tl__platform_services {
    tl__platform_service *items;
    uint32_t count, cap;
} tl__platform_services;

struct tl_platform_account {
    tl_platform *platform;
    char id[TL__PLATFORM_NAME_MAX + 1], name[TL__PLATFORM_NAME_MAX + 1];
    tl__platform_services services;
    uint32_t state; /* tl_platform_account_state */
};

struct tl_platform {
    tl_events *registry;
    tl_platform_events events;
    tl_logger logger;
    uint32_t build_platform, configured;
    tl_platform_pair *allowed; /* NULL: the default table */
    uint32_t allowed_count;
    tl_platform_module *modules;
    uint32_t module_count, module_cap, module; /* module: the resolved one's index */
    char code_override[TL__PLATFORM_NAME_MAX + 1], argument_override[TL__PLATFORM_NAME_MAX + 1];
    bool has_code_override, has_argument_override;
    uint32_t state, platform, distribution, capabilities;
    tl__platform_services services;
    tl_platform_account **accounts;
    uint32_t account_count, account_cap, primary;
    tl_platform_result result;                  /* the deployment's (initialization_result) */
    tl_platform_result last;                    /* the last result met (tl_platform_last_*) */
    int native_error;                           /* last's */
    char message[TL__PLATFORM_MESSAGE_MAX + 1]; /* last's */
    uint32_t trace[TL__PLATFORM_TRACE_MAX], trace_count;
    bool started, module_started, teardown_due, in_callback, shut;
    bool pinned;     /* destroy refused (tl_platform_pin) */
    bool refreshing; /* the module's refresh runs: it may register accounts */
};

/* --- names, messages, logging ------------------------------------------------------------------- */

TL_LOG_TABLE_FN(tl__platform_log, TL_PLATFORM_LOG_ITEMS, TL_PLATFORM_LOG_BASE, TL__PLATFORM_MODULE)
TL_RESULT_MESSAGE_FN(tl_platform_result_message, tl_platform_result, TL_PLATFORM_RESULTS)

/* Records the last result met with its native error and message (NULL: the result's). */
static tl_platform_result tl__platform_note(tl_platform *p, tl_platform_result r, int native,
                                            const char *message) {
    p->last = r;
    p->native_error = native;
    tl__platform_copy(p->message, sizeof p->message,
                      message ? message : tl_platform_result_message(r));
    return r;
}

/* A call's result: kept as the last one, unless a module reported it already with its detail. */
static tl_platform_result tl__platform_done(tl_platform *p, tl_platform_result r) {
    return p->last == r && r != TL_PLATFORM_OK ? r : tl__platform_note(p, r, 0, NULL);
}

/* A call refused (logged, naming the call, with why) and noted as the last result. */
static tl_platform_result tl__platform_refused(tl_platform *p, const char *call,
                                               tl_platform_result r) {
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED, call, tl_platform_result_message(r));
    return tl__platform_note(p, r, 0, NULL);
}

const char *tl_platform_state_name(tl_platform_state state) {
    switch (state) {
    case TL_PLATFORM_STATE_UNINITIALIZED: return "uninitialized";
    case TL_PLATFORM_STATE_RESOLVING_PLATFORM: return "resolving platform";
    case TL_PLATFORM_STATE_RESOLVING_MODULE: return "resolving module";
    case TL_PLATFORM_STATE_INITIALIZING: return "initializing";
    case TL_PLATFORM_STATE_READY: return "ready";
    case TL_PLATFORM_STATE_FAILED: return "failed";
    case TL_PLATFORM_STATE_SHUT_DOWN: return "shut down";
    default: return "?";
    }
}

const char *tl_platform_account_state_name(tl_platform_account_state state) {
    switch (state) {
#define TL__PLATFORM_ACCOUNT_STATE_CASE(id, name) \
    case TL_PLATFORM_ACCOUNT_##id: return name;
        TL_PLATFORM_ACCOUNT_STATES(TL__PLATFORM_ACCOUNT_STATE_CASE)
#undef TL__PLATFORM_ACCOUNT_STATE_CASE
    case TL_PLATFORM_ACCOUNT_STATE_END_:
    default: return "?";
    }
}

const char *tl_platform_marker_name(uint32_t platform) {
    switch (platform) {
#define TL__PLATFORM_MARKER_CASE(id, name) \
    case TL_PLATFORM_MARKER_##id: return name;
        TL_PLATFORM_MARKERS(TL__PLATFORM_MARKER_CASE)
#undef TL__PLATFORM_MARKER_CASE
    default: return "?";
    }
}

const char *tl_platform_distribution_name(uint32_t distribution) {
    switch (distribution) {
#define TL__PLATFORM_DISTRIBUTION_CASE(id, name) \
    case TL_PLATFORM_DISTRIBUTION_##id: return name;
        TL_PLATFORM_DISTRIBUTIONS(TL__PLATFORM_DISTRIBUTION_CASE)
#undef TL__PLATFORM_DISTRIBUTION_CASE
    default: return "?";
    }
}

static bool tl__platform_same_name(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
        if (ca != cb) return false;
    }
    return *a == *b;
}

uint32_t tl_platform_distribution_from_name(const char *name) {
    uint32_t d;
    if (!name) return TL_PLATFORM_DISTRIBUTION_NONE;
    for (d = 1; d < TL_PLATFORM_DISTRIBUTION_END_; d++)
        if (tl__platform_same_name(name, tl_platform_distribution_name(d))) return d;
    return TL_PLATFORM_DISTRIBUTION_NONE;
}

/* --- services and accounts ---------------------------------------------------------------------- */

static tl_platform_result tl__platform_services_add(tl_platform *p, tl__platform_services *s,
                                                    uint32_t id, void *service, const char *where) {
    uint32_t i;
    for (i = 0; i < s->count; i++)
        if (s->items[i].id == id) {
            tl__platform_log(&p->logger, TL_PLATFORM_LOG_DUPLICATE_SERVICE, id, where);
            return tl__platform_note(p, TL_PLATFORM_DUPLICATE, 0, NULL);
        }
    if (!tl__platform_grow((void **)&s->items, &s->cap, sizeof *s->items, s->count + 1u)) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_OUT_OF_MEMORY, "service");
        return tl__platform_note(p, TL_PLATFORM_OUT_OF_MEMORY, 0, NULL);
    }
    s->items[s->count].id = id;
    s->items[s->count++].service = service;
    return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
}

static bool tl__platform_services_find(const tl__platform_services *s, uint32_t id,
                                       void **service) {
    uint32_t i;
    for (i = 0; i < s->count; i++)
        if (s->items[i].id == id) {
            if (service) *service = s->items[i].service;
            return true;
        }
    return false;
}

static void tl__platform_services_free(tl__platform_services *s) {
    TL_FREE(s->items);
    memset(s, 0, sizeof *s);
}

/* Drops what the module registered: services, accounts, capabilities. */
static void tl__platform_clear(tl_platform *p) {
    uint32_t i;
    tl__platform_services_free(&p->services);
    for (i = 0; i < p->account_count; i++) {
        tl__platform_services_free(&p->accounts[i]->services);
        TL_FREE(p->accounts[i]);
    }
    p->account_count = 0;
    p->primary = 0;
    p->capabilities = 0;
}

static bool tl__platform_registering(tl_platform *p, const char *what) {
    if (p && (p->state == TL_PLATFORM_STATE_INITIALIZING || p->refreshing)) return true;
    tl__platform_log(p ? &p->logger : NULL, TL_PLATFORM_LOG_REFUSED, what,
                     "only a module, while it initializes or refreshes");
    if (p) tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL);
    return false;
}

/* A call's failure without a platform to keep it in (logged, naming the call). */
static tl_platform_result tl__platform_no_platform(const char *call) {
    tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, call);
    return TL_PLATFORM_INVALID_ARGUMENT;
}

static void tl__platform_publish_account(tl_platform *p, tl_platform_account *account) {
    bool was = p->in_callback;
    if (!p->registry) return;
    p->in_callback = true; /* listeners may not update, retry or destroy */
    TL_EVENTS_PUBLISH(p->registry, p->events.account_state_changed, TL_PLATFORM_SIG_ACCOUNT,
                      tl_platform_account_fn, account);
    p->in_callback = was;
}

tl_platform_result tl_platform_add_service(tl_platform *p, uint32_t id, void *service) {
    if (!p) return tl__platform_no_platform("tl_platform_add_service");
    if (!tl__platform_registering(p, "tl_platform_add_service")) return TL_PLATFORM_REFUSED;
    return tl__platform_services_add(p, &p->services, id, service, "");
}

tl_platform_account *tl_platform_add_account(tl_platform *p, const char *id, const char *name) {
    tl_platform_account *account;
    if (!p) {
        (void)tl__platform_no_platform("tl_platform_add_account");
        return NULL;
    }
    if (!tl__platform_registering(p, "tl_platform_add_account")) return NULL;
    if (!id || !*id || strlen(id) >= sizeof account->id) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                         "tl_platform_add_account (id: 1 to 63 bytes)");
        return NULL;
    }
    if (!tl__platform_grow((void **)&p->accounts, &p->account_cap, sizeof *p->accounts,
                           p->account_count + 1u) ||
        !(account = (tl_platform_account *)TL_MALLOC(sizeof *account))) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_OUT_OF_MEMORY, "account");
        return NULL;
    }
    memset(account, 0, sizeof *account);
    account->platform = p;
    tl__platform_copy(account->id, sizeof account->id, id);
    tl__platform_copy(account->name, sizeof account->name, name ? name : id);
    account->state = TL_PLATFORM_ACCOUNT_SIGNED_IN;
    p->accounts[p->account_count++] = account;
    if (p->state == TL_PLATFORM_STATE_READY) tl__platform_publish_account(p, account); /* refresh */
    return account;
}

tl_platform_result tl_platform_set_account_state(tl_platform_account *account,
                                                 tl_platform_account_state state) {
    tl_platform *p = account ? account->platform : NULL;
    uint32_t was;
    if (!p) return tl__platform_no_platform("tl_platform_set_account_state");
    if ((uint32_t)state >= (uint32_t)TL_PLATFORM_ACCOUNT_STATE_END_) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                         "tl_platform_set_account_state");
        return tl__platform_note(p, TL_PLATFORM_INVALID_ARGUMENT, 0, NULL);
    }
    if (p->state != TL_PLATFORM_STATE_READY && p->state != TL_PLATFORM_STATE_INITIALIZING)
        return tl__platform_refused(p, "tl_platform_set_account_state", TL_PLATFORM_NOT_READY);
    if (account->state == (uint32_t)state) return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
    was = account->state;
    account->state = (uint32_t)state;
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_ACCOUNT_STATE, account->id,
                     tl_platform_account_state_name((tl_platform_account_state)was),
                     tl_platform_account_state_name(state));
    if (p->state == TL_PLATFORM_STATE_READY) tl__platform_publish_account(p, account);
    return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
}

tl_platform_account_state tl_platform_account_state_of(const tl_platform_account *account) {
    return account ? (tl_platform_account_state)account->state : TL_PLATFORM_ACCOUNT_SIGNED_OUT;
}

tl_platform_result tl_platform_set_primary_account(tl_platform *p, tl_platform_account *account) {
    uint32_t i;
    if (!p) return tl__platform_no_platform("tl_platform_set_primary_account");
    if (!tl__platform_registering(p, "tl_platform_set_primary_account")) return TL_PLATFORM_REFUSED;
    for (i = 0; i < p->account_count; i++)
        if (p->accounts[i] == account) {
            p->primary = i;
            return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
        }
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                     "tl_platform_set_primary_account (not an account of this platform)");
    return tl__platform_note(p, TL_PLATFORM_INVALID_ARGUMENT, 0, NULL);
}

tl_platform_result tl_platform_account_add_service(tl_platform_account *account, uint32_t id,
                                                   void *service) {
    if (!account) return tl__platform_no_platform("tl_platform_account_add_service");
    if (!tl__platform_registering(account->platform, "tl_platform_account_add_service"))
        return TL_PLATFORM_REFUSED;
    return tl__platform_services_add(account->platform, &account->services, id, service,
                                     " on this account");
}

static bool tl__platform_ready(const tl_platform *p) {
    return p && p->state == TL_PLATFORM_STATE_READY;
}

bool tl_platform_service(const tl_platform *p, uint32_t id, void **service) {
    return tl__platform_ready(p) && tl__platform_services_find(&p->services, id, service);
}

tl_platform_account *tl_platform_primary_account(const tl_platform *p) {
    return tl__platform_ready(p) && p->account_count ? p->accounts[p->primary] : NULL;
}

uint32_t tl_platform_account_count(const tl_platform *p) {
    return tl__platform_ready(p) ? p->account_count : 0;
}

tl_platform_account *tl_platform_account_at(const tl_platform *p, uint32_t i) {
    return tl__platform_ready(p) && i < p->account_count ? p->accounts[i] : NULL;
}

bool tl_platform_account_service(const tl_platform_account *account, uint32_t id, void **service) {
    return account && tl__platform_ready(account->platform) &&
           tl__platform_services_find(&account->services, id, service);
}

const char *tl_platform_account_id(const tl_platform_account *account) {
    return account ? account->id : "";
}
const char *tl_platform_account_name(const tl_platform_account *account) {
    return account ? account->name : "";
}

uint32_t tl_platform_capabilities(const tl_platform *p) {
    return tl__platform_ready(p) ? p->capabilities : 0;
}
bool tl_platform_has_capability(const tl_platform *p, uint32_t caps) {
    return tl__platform_ready(p) && caps && (p->capabilities & caps) == caps;
}

/* --- events and settling ------------------------------------------------------------------------ */

static void tl__platform_publish(tl_platform *p) {
    bool was = p->in_callback;
    if (!p->registry) return;
    p->in_callback = true; /* listeners may not update, retry or destroy */
    TL_EVENTS_PUBLISH(p->registry, p->events.state_changed, TL_PLATFORM_SIG_PLATFORM,
                      tl_platform_fn, p);
    p->in_callback = was;
}

static void tl__platform_enter(tl_platform *p, uint32_t state) {
    p->state = state;
    if (p->trace_count < TL__PLATFORM_TRACE_MAX) p->trace[p->trace_count++] = state;
}

/* "uninitialized -> resolving platform -> ..." for the settle message. */
static const char *tl__platform_trace(const tl_platform *p, char *buf, size_t cap) {
    size_t used = 0;
    uint32_t i;
    buf[0] = '\0';
    for (i = 0; i < p->trace_count && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? " -> " : "",
                         tl_platform_state_name((tl_platform_state)p->trace[i]));
        if (n < 0) break;
        used += (size_t)n;
    }
    return buf;
}

static const char *tl__platform_module_name(const tl_platform *p) {
    const char *name = p->module < p->module_count ? p->modules[p->module].name : NULL;
    return name ? name : "module";
}

static void tl__platform_call_shutdown(tl_platform *p) {
    const tl_platform_module *m;
    if (!p->module_started) return;
    p->module_started = false;
    m = &p->modules[p->module];
    if (m->shutdown) {
        bool was = p->in_callback;
        p->in_callback = true;
        m->shutdown(m->ctx, p);
        p->in_callback = was;
    }
}

static void tl__platform_ready_now(tl_platform *p) {
    char trace[160];
    tl__platform_enter(p, TL_PLATFORM_STATE_READY);
    p->capabilities = p->modules[p->module].capabilities;
    p->result = tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_READY, tl_platform_marker_name(p->platform),
                     tl_platform_distribution_name(p->distribution), tl__platform_module_name(p),
                     tl__platform_trace(p, trace, sizeof trace));
    tl__platform_publish(p);
}

/* Settles as FAILED with r (its detail, a module's report or the result's message, noted as the
   last result): what the module made is shut down and dropped. */
static void tl__platform_fail(tl_platform *p, tl_platform_result r) {
    char trace[160];
    if (r == TL_PLATFORM_OK || r == TL_PLATFORM_PENDING) r = TL_PLATFORM_INITIALIZATION_FAILED;
    p->result = tl__platform_done(p, r);
    tl__platform_call_shutdown(p);
    tl__platform_clear(p);
    tl__platform_enter(p, TL_PLATFORM_STATE_FAILED);
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_FAILED, tl_platform_marker_name(p->platform),
                     tl_platform_distribution_name(p->distribution), p->message, p->native_error,
                     tl__platform_trace(p, trace, sizeof trace));
    tl__platform_publish(p);
}

/* What the module's init or poll answered. */
static void tl__platform_settle(tl_platform *p, tl_platform_result r) {
    if (r == TL_PLATFORM_OK) tl__platform_ready_now(p);
    else if (r != TL_PLATFORM_PENDING) tl__platform_fail(p, r);
    else if (!p->modules[p->module].poll)
        tl__platform_fail(p, tl__platform_note(p, TL_PLATFORM_INITIALIZATION_FAILED, 0,
                                               "the module's init is pending but it has no poll"));
}

/* --- deployment --------------------------------------------------------------------------------- */

static const tl_platform_pair tl__platform_default_policy[] = {
    { TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_LOCAL },
    { TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_STEAM },
    { TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_MICROSOFT_STORE },
    { TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_EPIC },
    { TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_GOG },
    { TL_PLATFORM_MARKER_MACOS, TL_PLATFORM_DISTRIBUTION_LOCAL },
    { TL_PLATFORM_MARKER_MACOS, TL_PLATFORM_DISTRIBUTION_STEAM },
    { TL_PLATFORM_MARKER_MACOS, TL_PLATFORM_DISTRIBUTION_APP_STORE },
    { TL_PLATFORM_MARKER_MACOS, TL_PLATFORM_DISTRIBUTION_EPIC },
    { TL_PLATFORM_MARKER_MACOS, TL_PLATFORM_DISTRIBUTION_GOG },
    { TL_PLATFORM_MARKER_LINUX, TL_PLATFORM_DISTRIBUTION_LOCAL },
    { TL_PLATFORM_MARKER_LINUX, TL_PLATFORM_DISTRIBUTION_STEAM },
    { TL_PLATFORM_MARKER_LINUX, TL_PLATFORM_DISTRIBUTION_GOG },
    { TL_PLATFORM_MARKER_IOS, TL_PLATFORM_DISTRIBUTION_LOCAL },
    { TL_PLATFORM_MARKER_IOS, TL_PLATFORM_DISTRIBUTION_APP_STORE },
    { TL_PLATFORM_MARKER_ANDROID, TL_PLATFORM_DISTRIBUTION_LOCAL },
    { TL_PLATFORM_MARKER_ANDROID, TL_PLATFORM_DISTRIBUTION_GOOGLE_PLAY },
    { TL_PLATFORM_MARKER_WEB, TL_PLATFORM_DISTRIBUTION_LOCAL },
};

static bool tl__platform_allowed(const tl_platform *p, uint32_t platform, uint32_t distribution) {
    const tl_platform_pair *pairs = p->allowed ? p->allowed : tl__platform_default_policy;
    uint32_t i, n = p->allowed ? p->allowed_count
                               : (uint32_t)(sizeof tl__platform_default_policy /
                                            sizeof *tl__platform_default_policy);
    for (i = 0; i < n; i++)
        if (pairs[i].platform == platform && pairs[i].distribution == distribution) return true;
    return false;
}

/* One override source: true when it gives an acceptable value (then *distribution is it). A
   value that is absent, unknown or disallowed is as if the source gave none. */
static bool tl__platform_try_override(const tl_platform *p, const char *source, const char *value,
                                      uint32_t *distribution) {
    uint32_t d;
    char shown[TL__PLATFORM_NAME_MAX + 1];
    size_t i;
    if (!value) return false;
    if (!(d = tl_platform_distribution_from_name(value))) {
        /* Its bytes from a command line or the environment, shown without control or non-ASCII
           bytes: a newline in it would forge a log line, an escape recolour the terminal. */
        tl__platform_copy(shown, sizeof shown, value);
        for (i = 0; shown[i]; i++)
            if ((unsigned char)shown[i] < 0x20 || (unsigned char)shown[i] >= 0x7F) shown[i] = '?';
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_OVERRIDE_UNKNOWN, source, shown);
        return false;
    }
    if (!tl__platform_allowed(p, p->platform, d)) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_OVERRIDE_DISALLOWED, source,
                         tl_platform_distribution_name(d), tl_platform_marker_name(p->platform));
        return false;
    }
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_OVERRIDE_APPLIED, source,
                     tl_platform_distribution_name(d),
                     tl_platform_distribution_name(*distribution));
    *distribution = d;
    return true;
}

#if TL_PLATFORM_DEVELOPMENT
/* The environment's override: the documented variable, else the seed's spelling of it. */
static bool tl__platform_try_environment(const tl_platform *p, uint32_t *distribution) {
    const char *value = getenv(TL__PLATFORM_ENVIRONMENT),
               *seed = getenv(TL__PLATFORM_ENVIRONMENT_SEED);
    if (value && *value) /* an empty variable is an unset one, as shells treat it */
        return tl__platform_try_override(p, "the environment (" TL__PLATFORM_ENVIRONMENT ")", value,
                                         distribution);
    return tl__platform_try_override(p, "the environment (" TL__PLATFORM_ENVIRONMENT_SEED ")",
                                     seed && *seed ? seed : NULL, distribution);
}
#endif

/* The configured distribution, or the first acceptable override: code, then (development builds)
   the command line, then the environment. */
static uint32_t tl__platform_resolve_distribution(const tl_platform *p) {
    uint32_t d = p->configured;
    if (tl__platform_try_override(p, "code", p->has_code_override ? p->code_override : NULL, &d))
        return d;
#if TL_PLATFORM_DEVELOPMENT
    if (tl__platform_try_override(p, "the command line",
                                  p->has_argument_override ? p->argument_override : NULL, &d))
        return d;
    if (tl__platform_try_environment(p, &d)) return d;
#endif
    return d;
}

static bool tl__platform_find_module(const tl_platform *p, uint32_t platform, uint32_t distribution,
                                     uint32_t *index) {
    uint32_t i;
    for (i = 0; i < p->module_count; i++)
        if (p->modules[i].platform == platform && p->modules[i].distribution == distribution) {
            *index = i;
            return true;
        }
    return false;
}

static void tl__platform_unsupported(tl_platform *p, const char *why) {
    char text[TL__PLATFORM_MESSAGE_MAX + 1];
    snprintf(text, sizeof text, "%s: %s/%s", why, tl_platform_marker_name(p->platform),
             tl_platform_distribution_name(p->distribution));
    tl__platform_fail(p, tl__platform_note(p, TL_PLATFORM_UNSUPPORTED, 0, text));
}

/* A deployment from the start, as far as it goes now: settled, or initializing (pending). */
static void tl__platform_deploy(tl_platform *p) {
    tl_platform_result r;
    const tl_platform_module *m;
    p->started = true;
    p->trace_count = 0;
    p->platform = p->distribution = 0;
    p->result = tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
    tl__platform_enter(p, TL_PLATFORM_STATE_UNINITIALIZED);
    tl__platform_enter(p, TL_PLATFORM_STATE_RESOLVING_PLATFORM);
    p->platform = p->build_platform;
    p->distribution = tl__platform_resolve_distribution(p);
    tl__platform_enter(p, TL_PLATFORM_STATE_RESOLVING_MODULE);
    p->module = p->module_count;
    if (p->platform == TL_PLATFORM_MARKER_NONE) {
        tl__platform_unsupported(
            p, "the build's platform is unknown (give tl_platform_desc.platform)");
        return;
    }
    if (!tl__platform_find_module(p, p->platform, p->distribution, &p->module)) {
        tl__platform_unsupported(p, "no module is registered for");
        return;
    }
    tl__platform_enter(p, TL_PLATFORM_STATE_INITIALIZING);
    m = &p->modules[p->module];
    p->module_started = true;
    p->in_callback = true;
    r = m->init(m->ctx, p);
    p->in_callback = false;
    tl__platform_settle(p, r);
}

static void tl__platform_poll(tl_platform *p) {
    const tl_platform_module *m = &p->modules[p->module];
    tl_platform_result r;
    tl__platform_note(p, TL_PLATFORM_OK, 0, NULL); /* what the module reports now is this poll's */
    p->in_callback = true;
    r = m->poll(m->ctx, p);
    p->in_callback = false;
    tl__platform_settle(p, r);
}

/* A lost platform's module goes at the update after the report. */
static void tl__platform_teardown(tl_platform *p) {
    p->teardown_due = false;
    tl__platform_call_shutdown(p);
    tl__platform_clear(p);
}

static bool tl__platform_refuse(const tl_platform *p, const char *what) {
    if (!p->in_callback && !p->shut) return false;
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED, what,
                     p->shut ? "the platform is shut down"
                             : "called from a platform module or listener");
    return true;
}

tl_platform_state tl_platform_update(tl_platform *p) {
    if (!p) return TL_PLATFORM_STATE_UNINITIALIZED;
    if (tl__platform_refuse(p, "tl_platform_update")) return (tl_platform_state)p->state;
    if (p->teardown_due) tl__platform_teardown(p);
    if (!p->started) tl__platform_deploy(p);
    else if (p->state == TL_PLATFORM_STATE_INITIALIZING) tl__platform_poll(p);
    return (tl_platform_state)p->state;
}

void tl_platform_on_update(void *platform, float seconds) {
    (void)seconds;
    (void)tl_platform_update((tl_platform *)platform);
}

tl_platform_result tl_platform_retry(tl_platform *p) {
    if (!p) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, "tl_platform_retry");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    if (tl__platform_refuse(p, "tl_platform_retry"))
        return tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL);
    if (p->state != TL_PLATFORM_STATE_FAILED)
        return tl__platform_refused(p, "tl_platform_retry", TL_PLATFORM_NOT_FAILED);
    if (p->teardown_due) tl__platform_teardown(p);
    tl__platform_deploy(p); /* notes its outcome: ready, pending (OK so far) or failed */
    return p->state == TL_PLATFORM_STATE_INITIALIZING ? TL_PLATFORM_PENDING : p->result;
}

tl_platform_result tl_platform_refresh_accounts(tl_platform *p) {
    const tl_platform_module *m;
    tl_platform_result r;
    if (!p) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, "tl_platform_refresh_accounts");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    if (tl__platform_refuse(p, "tl_platform_refresh_accounts"))
        return tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL);
    if (!tl__platform_ready(p))
        return tl__platform_refused(p, "tl_platform_refresh_accounts", TL_PLATFORM_NOT_READY);
    m = &p->modules[p->module];
    tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
    if (!m->refresh) return TL_PLATFORM_OK;
    p->refreshing = p->in_callback = true;
    r = m->refresh(m->ctx, p);
    p->refreshing = p->in_callback = false;
    return tl__platform_done(p, r); /* the module logs its own failure */
}

/* Development builds: what a module's report or its servers' loss would do. */
#if TL_PLATFORM_DEVELOPMENT
static tl_platform_result tl__platform_lost(tl_platform *p, const char *call, int native_error,
                                            const char *message);

tl_platform_result tl_platform_simulate_loss(tl_platform *p) {
    return tl__platform_lost(p, "tl_platform_simulate_loss", 0,
                             "simulated platform loss (development build)");
}

tl_platform_result tl_platform_simulate_server_loss(tl_platform *p, bool lost) {
    uint32_t i, from = lost ? TL_PLATFORM_ACCOUNT_SIGNED_IN : TL_PLATFORM_ACCOUNT_SUSPENDED;
    if (!p) return tl__platform_no_platform("tl_platform_simulate_server_loss");
    if (!tl__platform_ready(p))
        return tl__platform_refused(p, "tl_platform_simulate_server_loss", TL_PLATFORM_NOT_READY);
    for (i = 0; i < p->account_count; i++)
        if (p->accounts[i]->state == from)
            (void)tl_platform_set_account_state(p->accounts[i],
                                                lost ? TL_PLATFORM_ACCOUNT_SUSPENDED
                                                     : TL_PLATFORM_ACCOUNT_SIGNED_IN);
    return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
}
#else
tl_platform_result tl_platform_simulate_loss(tl_platform *p) {
    tl__platform_log(p ? &p->logger : NULL, TL_PLATFORM_LOG_REFUSED, "tl_platform_simulate_loss",
                     "development builds only");
    return p ? tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL) : TL_PLATFORM_REFUSED;
}

tl_platform_result tl_platform_simulate_server_loss(tl_platform *p, bool lost) {
    (void)lost;
    tl__platform_log(p ? &p->logger : NULL, TL_PLATFORM_LOG_REFUSED,
                     "tl_platform_simulate_server_loss", "development builds only");
    return p ? tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL) : TL_PLATFORM_REFUSED;
}
#endif

/* A loss, reported by a module or simulated (`call` names it in the log). */
static tl_platform_result tl__platform_lost(tl_platform *p, const char *call, int native_error,
                                            const char *message) {
    if (!p) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, call);
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    if (!tl__platform_ready(p)) return tl__platform_refused(p, call, TL_PLATFORM_NOT_READY);
    p->result = tl__platform_note(p, TL_PLATFORM_LOST, native_error,
                                  message ? message : "the platform went away");
    p->teardown_due = true;
    p->trace_count = 0;
    tl__platform_enter(p, TL_PLATFORM_STATE_FAILED);
    tl__platform_log(&p->logger, TL_PLATFORM_LOG_LOST, tl_platform_marker_name(p->platform),
                     tl_platform_distribution_name(p->distribution), p->message, p->native_error);
    tl__platform_publish(p);
    return TL_PLATFORM_OK;
}

tl_platform_result tl_platform_report_lost(tl_platform *p, int native_error, const char *message) {
    return tl__platform_lost(p, "tl_platform_report_lost", native_error, message);
}

/* --- registry and lifetime ---------------------------------------------------------------------- */

tl_platform_result tl_platform_register_module(tl_platform *p, const tl_platform_module *module) {
    uint32_t existing;
    if (!p) return tl__platform_no_platform("tl_platform_register_module");
    if (!module || !module->init) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                         "tl_platform_register_module (init is required)");
        return tl__platform_note(p, TL_PLATFORM_INVALID_ARGUMENT, 0, NULL);
    }
    if (p->shut || (p->started && p->state != TL_PLATFORM_STATE_FAILED)) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED, "tl_platform_register_module",
                         "only before deployment or while failed");
        return tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL);
    }
    if (tl__platform_find_module(p, module->platform, module->distribution, &existing)) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_DUPLICATE_MODULE,
                         module->name ? module->name : "module",
                         tl_platform_marker_name(module->platform),
                         tl_platform_distribution_name(module->distribution),
                         p->modules[existing].name ? p->modules[existing].name : "module");
        return tl__platform_note(p, TL_PLATFORM_DUPLICATE, 0, NULL);
    }
    if (!tl__platform_grow((void **)&p->modules, &p->module_cap, sizeof *p->modules,
                           p->module_count + 1u)) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_OUT_OF_MEMORY, "module");
        return tl__platform_note(p, TL_PLATFORM_OUT_OF_MEMORY, 0, NULL);
    }
    p->modules[p->module_count++] = *module;
    return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
}

tl_platform_result tl_platform_set_distribution_override(tl_platform *p, const char *name) {
    if (!p) return tl__platform_no_platform("tl_platform_set_distribution_override");
    if (p->started) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED,
                         "tl_platform_set_distribution_override", "deployment has started");
        return tl__platform_note(p, TL_PLATFORM_REFUSED, 0, NULL);
    }
    p->has_code_override = name != NULL;
    tl__platform_copy(p->code_override, sizeof p->code_override, name);
    return tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
}

/* Development builds: `-threadlink-platform-distribution <name>` from the command line, else the
   seed's `-threadlink-sentinel-distribution <name>` (the documented spelling first, whatever the
   order: a launcher appends flags); of one spelling, the last one given wins. */
#if TL_PLATFORM_DEVELOPMENT
static bool tl__platform_read_argument(tl_platform *p, int argc, char **argv, const char *flag) {
    int i;
    bool found = false;
    for (i = 1; argv && i < argc; i++) {
        if (!argv[i] || strcmp(argv[i], flag) != 0) continue;
        if (i + 1 >= argc || !argv[i + 1]) {
            tl__platform_log(&p->logger, TL_PLATFORM_LOG_OVERRIDE_NO_VALUE, argv[i]);
            break;
        }
        found = p->has_argument_override = true;
        tl__platform_copy(p->argument_override, sizeof p->argument_override, argv[i + 1]);
        i++;
    }
    return found;
}
#endif

static void tl__platform_read_arguments(tl_platform *p, int argc, char **argv) {
#if TL_PLATFORM_DEVELOPMENT
    if (!tl__platform_read_argument(p, argc, argv, TL__PLATFORM_ARGUMENT))
        (void)tl__platform_read_argument(p, argc, argv, TL__PLATFORM_ARGUMENT_SEED);
#else
    (void)p;
    (void)argc;
    (void)argv;
#endif
}

static const tl_platform_events tl__platform_native_events = TL_PLATFORM_EVENTS_NATIVE;

static bool tl__platform_configure(tl_platform *p, const tl_platform_desc *desc) {
    uint32_t i;
    p->registry = desc->registry;
    p->events = desc->events ? *desc->events : tl__platform_native_events;
    if (!desc->events && !tl_events_natives_declared(p->registry, 18u, 19u, "Platform"))
        p->registry = NULL;
    if (desc->logger) p->logger = *desc->logger;
    p->build_platform = desc->platform ? desc->platform : (uint32_t)TL__PLATFORM_BUILD;
    p->configured =
        desc->distribution ? desc->distribution : (uint32_t)TL_PLATFORM_DISTRIBUTION_LOCAL;
    if (desc->allowed) {
        p->allowed_count = desc->allowed_count;
        p->allowed = (tl_platform_pair *)TL_MALLOC(
            (size_t)(desc->allowed_count ? desc->allowed_count : 1u) * sizeof *p->allowed);
        if (!p->allowed) return false;
        if (desc->allowed_count)
            memcpy(p->allowed, desc->allowed, (size_t)desc->allowed_count * sizeof *p->allowed);
    }
    for (i = 0; i < desc->module_count; i++)
        if (tl_platform_register_module(p, &desc->modules[i]) != TL_PLATFORM_OK) return false;
    tl__platform_read_arguments(p, desc->argc, desc->argv);
    return true;
}

static void tl__platform_free(tl_platform *p) {
    uint32_t i;
    tl__platform_clear(p);
    for (i = 0; i < p->module_count; i++)
        if (p->modules[i].release) p->modules[i].release(p->modules[i].ctx);
    TL_FREE(p->modules);
    TL_FREE(p->accounts);
    TL_FREE(p->allowed);
    TL_FREE(p);
}

tl_platform *tl_platform_create(const tl_platform_desc *desc) {
    tl_platform *p;
    if (!desc || (desc->module_count && !desc->modules)) {
        tl__platform_log(desc ? desc->logger : NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                         "tl_platform_create");
        return NULL;
    }
    if (!(p = (tl_platform *)TL_MALLOC(sizeof *p))) {
        tl__platform_log(desc->logger, TL_PLATFORM_LOG_OUT_OF_MEMORY, "tl_platform_create");
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->result = tl__platform_note(p, TL_PLATFORM_OK, 0, NULL);
    if (!tl__platform_configure(p, desc)) {
        tl__platform_free(p);
        return NULL;
    }
    return p;
}

void tl_platform_shutdown(tl_platform *p) {
    if (!p || p->shut) return;
    if (p->in_callback) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED, "tl_platform_shutdown",
                         "called from a platform module or listener");
        return;
    }
    tl__platform_call_shutdown(p);
    tl__platform_clear(p);
    p->teardown_due = false;
    p->state = TL_PLATFORM_STATE_SHUT_DOWN;
    p->shut = true;
}

void tl_platform_destroy(tl_platform *p) {
    if (!p) return;
    if (p->in_callback || p->pinned) {
        tl__platform_log(&p->logger, TL_PLATFORM_LOG_REFUSED, "tl_platform_destroy",
                         p->in_callback
                             ? "called from a platform module or listener"
                             : "it is woven into a lifecycle: tl_lifecycle_discard first");
        return;
    }
    tl_platform_shutdown(p);
    tl__platform_free(p);
}

tl_platform_state tl_platform_state_of(const tl_platform *p) {
    return p ? (tl_platform_state)p->state : TL_PLATFORM_STATE_UNINITIALIZED;
}
tl_platform_result tl_platform_initialization_result(const tl_platform *p) {
    return p ? p->result : TL_PLATFORM_INVALID_ARGUMENT;
}
tl_platform_result tl_platform_last_result(const tl_platform *p) {
    return p ? p->last : TL_PLATFORM_INVALID_ARGUMENT;
}
int tl_platform_last_native_error(const tl_platform *p) { return p ? p->native_error : 0; }
const char *tl_platform_last_message(const tl_platform *p) {
    return p ? p->message : tl_platform_result_message(TL_PLATFORM_INVALID_ARGUMENT);
}
uint32_t tl_platform_active_platform(const tl_platform *p) { return p ? p->platform : 0; }
uint32_t tl_platform_active_distribution(const tl_platform *p) { return p ? p->distribution : 0; }

/* --- achievements ------------------------------------------------------------------------------- */

tl_platform_result tl_platform_achievement_unlock(const tl_platform_achievements *s,
                                                  const char *id) {
    if (!s || !s->unlock) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, "tl_platform_achievement_unlock");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    return s->unlock(s->self, id);
}
tl_platform_result tl_platform_achievement_progress(const tl_platform_achievements *s,
                                                    const char *id, uint32_t current,
                                                    uint32_t target) {
    if (!s || !s->progress) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT,
                         "tl_platform_achievement_progress");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    return s->progress(s->self, id, current, target);
}
tl_platform_result tl_platform_achievement_get(const tl_platform_achievements *s, const char *id,
                                               tl_platform_achievement *out) {
    if (!s || !s->get || !out) {
        tl__platform_log(NULL, TL_PLATFORM_LOG_INVALID_ARGUMENT, "tl_platform_achievement_get");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    return s->get(s->self, id, out);
}

tl_platform_result tl_platform_report(tl_platform *p, tl_platform_result result, int native_error,
                                      const char *message) {
    return p ? tl__platform_note(p, result, native_error, message) : result;
}
const tl_logger *tl_platform_logger(const tl_platform *p) { return p ? &p->logger : NULL; }
uint32_t tl_platform_build_marker(const tl_platform *p) { return p ? p->build_platform : 0u; }
void tl_platform_pin(tl_platform *p, bool pinned) {
    if (p) p->pinned = pinned;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_PLATFORM_IMPL */
