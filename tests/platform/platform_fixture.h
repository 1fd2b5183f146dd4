/* The fixture of tests/platform: scripted mock modules, listeners of OnPlatformStateChanged and
   OnAccountStateChanged, and a logger that keeps every record. */
#ifndef PLATFORM_FIXTURE_H
#define PLATFORM_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/threadlink.h>

#define FX_SCRIPTS 8
#define FX_RECORDS 64

/* What one mock module does. */
typedef struct script {
    tl_platform_module module;
    int pending;         /* init answers PENDING, then poll does pending - 1 more times */
    int left;
    int fail;            /* init fails this many times */
    int native;
    bool accounts;       /* registers service 100 and the accounts alice and bob */
    bool primary_second; /* bob is the primary account */
    bool refreshes;      /* has a refresh: it adds carol (once) and signs bob out */
    bool long_names;     /* adds dana, named with 40 x U+00E9, and an id of 70 bytes */
    tl_platform_account *dana, *long_id;
    int refreshed;
    int inits, polls, shutdowns, duplicate_refused;
    int state_at_init;
    int platform_service, alice_saves, bob_saves; /* their addresses are the services */
} script;

typedef struct fx {
    tl_events reg;
    tl_logger logger;
    tl_platform *p;
    tl_lifecycle *core;
    const tl_platform_pair *policy;
    uint32_t policy_count;
    script scripts[FX_SCRIPTS];
    int script_count;
    int records;
    uint32_t items[FX_RECORDS];
    char lines[FX_RECORDS][TL_LOG_LINE_MAX];
    int events;
    uint32_t event_states[8];
    int account_events;
    char account_event_ids[8][64];
    uint32_t account_event_states[8];
    bool check_lost, retry_in_listener;
    int lost_seen_services, lost_seen_shutdowns, listener_retry;
} fx;

static inline void fx_capture(void *user, const tl_log_record *record) {
    fx *f = (fx *)user;
    if (f->records < FX_RECORDS) {
        f->items[f->records] = record->item;
        snprintf(f->lines[f->records], sizeof f->lines[0], "%s", record->line);
    }
    f->records++;
}

/* The last line logged with this diagnostic, or "". */
static inline const char *fx_line(const fx *f, uint32_t item) {
    int i = f->records < FX_RECORDS ? f->records : FX_RECORDS;
    while (i-- > 0)
        if (f->items[i] == item) return f->lines[i];
    return "";
}

static inline int fx_count(const fx *f, uint32_t item) {
    int i, n = 0, end = f->records < FX_RECORDS ? f->records : FX_RECORDS;
    for (i = 0; i < end; i++) n += f->items[i] == item;
    return n;
}

static inline void fx_on_state(void *ctx, tl_platform *p) {
    fx *f = (fx *)ctx;
    if (f->events < 8) f->event_states[f->events] = (uint32_t)tl_platform_state_of(p);
    f->events++;
    if (f->check_lost) {
        f->lost_seen_services = tl_platform_service(p, 100, NULL);
        f->lost_seen_shutdowns = f->scripts[0].shutdowns;
    }
    if (f->retry_in_listener) f->listener_retry = (int)tl_platform_retry(p);
}

static inline void fx_on_account(void *ctx, tl_platform_account *account) {
    fx *f = (fx *)ctx;
    if (f->account_events < 8) {
        snprintf(f->account_event_ids[f->account_events], sizeof f->account_event_ids[0], "%s",
                 tl_platform_account_id(account));
        f->account_event_states[f->account_events] = (uint32_t)tl_platform_account_state_of(account);
    }
    f->account_events++;
}

/* --- the mock module ------------------------------------------------------------------------------ */

static inline void mock_register(script *s, tl_platform *p) {
    tl_platform_account *alice, *bob;
    (void)tl_platform_add_service(p, 100, &s->platform_service);
    if (tl_platform_add_service(p, 100, &s->bob_saves) == TL_PLATFORM_DUPLICATE) s->duplicate_refused++;
    alice = tl_platform_add_account(p, "alice", "Alice");
    bob = tl_platform_add_account(p, "bob", "Bob");
    (void)tl_platform_account_add_service(alice, TL_PLATFORM_SERVICE_SAVES, &s->alice_saves);
    (void)tl_platform_account_add_service(bob, TL_PLATFORM_SERVICE_SAVES, &s->bob_saves);
    if (s->primary_second) (void)tl_platform_set_primary_account(p, bob);
    if (s->long_names) {
        char name[81], id[71];
        int i;
        for (i = 0; i < 40; i++) memcpy(name + 2 * i, "\xC3\xA9", 2);
        name[80] = '\0';
        memset(id, 'i', 70);
        id[70] = '\0';
        s->dana = tl_platform_add_account(p, "dana", name);
        s->long_id = tl_platform_add_account(p, id, "Long");
    }
}

static inline tl_platform_result mock_init(void *ctx, tl_platform *p) {
    script *s = (script *)ctx;
    tl_platform_result r;
    s->inits++;
    s->state_at_init = (int)tl_platform_state_of(p);
    if (s->accounts) mock_register(s, p);
    r = TL_PLATFORM_OK;
    if (s->fail > 0) {
        s->fail--;
        r = tl_platform_report(p, TL_PLATFORM_INITIALIZATION_FAILED, s->native,
                               "the client is not running");
    } else if (s->pending > 0) {
        s->left = s->pending;
        r = TL_PLATFORM_PENDING;
    }
    return r;
}

static inline tl_platform_result mock_poll(void *ctx, tl_platform *p) {
    script *s = (script *)ctx;
    (void)p;
    s->polls++;
    return --s->left > 0 ? TL_PLATFORM_PENDING : TL_PLATFORM_OK;
}

/* The platform's account list changed: carol signed in (once), bob signed out. */
static inline tl_platform_result mock_refresh(void *ctx, tl_platform *p) {
    script *s = (script *)ctx;
    uint32_t i;
    if (s->refreshed++ == 0) (void)tl_platform_add_account(p, "carol", "Carol");
    for (i = 0; i < tl_platform_account_count(p); i++)
        if (strcmp(tl_platform_account_id(tl_platform_account_at(p, i)), "bob") == 0)
            (void)tl_platform_set_account_state(tl_platform_account_at(p, i), TL_PLATFORM_ACCOUNT_SIGNED_OUT);
    return TL_PLATFORM_OK;
}

static inline void mock_shutdown(void *ctx, tl_platform *p) {
    (void)p;
    ((script *)ctx)->shutdowns++;
}

static inline script *fx_module(fx *f, uint32_t platform, uint32_t distribution, const char *name) {
    script *s = &f->scripts[f->script_count++];
    memset(s, 0, sizeof *s);
    s->module.name = name;
    s->module.platform = platform;
    s->module.distribution = distribution;
    s->module.ctx = s;
    s->module.init = mock_init;
    s->module.poll = mock_poll;
    s->module.shutdown = mock_shutdown;
    return s;
}

/* A module with a refresh (set before fx_create, which copies the modules). */
static inline script *fx_module_refreshing(fx *f, uint32_t platform, uint32_t distribution, const char *name) {
    script *s = fx_module(f, platform, distribution, name);
    s->refreshes = true;
    s->accounts = true;
    s->module.refresh = mock_refresh;
    return s;
}

/* --- lifetime ----------------------------------------------------------------------------------- */

static inline fx *fx_new(void) {
    fx *f = (fx *)calloc(1, sizeof *f);
    const tl_platform_events events = TL_PLATFORM_EVENTS_NATIVE;
    f->logger.sink = fx_capture;
    f->logger.user = f;
    if (tl_events_init_table(&f->reg, 20, NULL, &f->logger) != TL_EVENTS_OK ||
        tl_events_subscribe(&f->reg, events.state_changed, TL_PLATFORM_SIG_PLATFORM, 0, TL_EVENTS_FN(fx_on_state), f) != TL_EVENTS_OK ||
        tl_events_subscribe(&f->reg, events.account_state_changed, TL_PLATFORM_SIG_ACCOUNT, 0,
                           TL_EVENTS_FN(fx_on_account), f) != TL_EVENTS_OK)
        abort();
    return f;
}

static inline void fx_create_args(fx *f, uint32_t platform, uint32_t distribution, int argc, char **argv) {
    tl_platform_module modules[FX_SCRIPTS];
    tl_platform_desc desc;
    int i;
    for (i = 0; i < f->script_count; i++) modules[i] = f->scripts[i].module;
    memset(&desc, 0, sizeof desc);
    desc.registry = &f->reg;
    desc.logger = &f->logger;
    desc.platform = platform;
    desc.distribution = distribution;
    desc.allowed = f->policy;
    desc.allowed_count = f->policy_count;
    desc.argc = argc;
    desc.argv = argv;
    desc.modules = modules;
    desc.module_count = (uint32_t)f->script_count;
    f->p = tl_platform_create(&desc);
    if (!f->p) abort();
    if (f->core && tl_glue_weave_platform(f->core, f->p) != TL_LIFECYCLE_OK) abort();
}

static inline void fx_create(fx *f, uint32_t platform, uint32_t distribution) {
    fx_create_args(f, platform, distribution, 0, NULL);
}

static inline void fx_destroy(fx *f) {
    tl_platform_destroy(f->p);
    f->p = NULL;
    f->core = NULL;
    f->records = 0;
    f->events = 0;
    f->account_events = 0;
}

static inline void fx_free(fx *f) {
    if (f->p && !f->core) tl_platform_destroy(f->p);
    tl_events_discard(&f->reg);
    free(f);
}

#endif
