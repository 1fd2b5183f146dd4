/* platform.h: the state machine and its event, the exact-pair registry, unsupported, capabilities,
   services and account services, account states and their event, the account list's refresh,
   retry, loss and its simulation, the distribution override (each source, their order, case,
   unknown and disallowed values, the seed's aliases), the core's deployment, and the native
   events file.
   Built twice (tests/platform/meson.build): TL_PLATFORM_DEVELOPMENT=1 (linked to the tests' POSIX
   runtime library, built so) runs everything; =0, a non-development build implementing the
   runtime itself (-DTL_IMPLEMENTATION), checks that the command line and the environment are
   not read.
   The Local module is in test_platform_local.c. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "platform_fixture.h"

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

#define LINUX TL_PLATFORM_MARKER_LINUX
#define WINDOWS TL_PLATFORM_MARKER_WINDOWS
#define LOCAL TL_PLATFORM_DISTRIBUTION_LOCAL
#define STEAM TL_PLATFORM_DISTRIBUTION_STEAM
#define GOG TL_PLATFORM_DISTRIBUTION_GOG

static int setup(void **state) {
    unsetenv("THREADLINK_PLATFORM_DISTRIBUTION");
    unsetenv("THREADLINK_SENTINEL_DISTRIBUTION");
    *state = fx_new();
    return 0;
}
static int teardown(void **state) {
    fx_free((fx *)*state);
    unsetenv("THREADLINK_PLATFORM_DISTRIBUTION");
    unsetenv("THREADLINK_SENTINEL_DISTRIBUTION");
    return 0;
}

#if TL_PLATFORM_DEVELOPMENT

/* --- state machine -------------------------------------------------------------------------------- */

static void test_platform_state_sequence_and_its_event(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    s->pending = 2;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_UNINITIALIZED);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_INITIALIZING);
    assert_int_equal(s->inits, 1);
    assert_int_equal(s->state_at_init, TL_PLATFORM_STATE_INITIALIZING);
    assert_int_equal(f->events, 0); /* not settled */
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_INITIALIZING);
    assert_int_equal(f->events, 0);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(s->polls, 2);
    assert_int_equal(f->events, 1);
    assert_int_equal(f->event_states[0], TL_PLATFORM_STATE_READY);
    /* The whole path, in the settle message. */
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_READY),
                           "Platform: info: Linux/Local ready (module 'Mock'): uninitialized -> resolving "
                           "platform -> resolving module -> initializing -> ready"));
    assert_int_equal(tl_platform_active_platform(f->p), LINUX);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_int_equal(tl_platform_initialization_result(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(f->events, 1); /* settled once */
    assert_int_equal(s->polls, 2);
}

static void test_platform_registry_wants_the_exact_pair(void **state) {
    fx *f = (fx *)*state;
    script *steam_linux = fx_module(f, LINUX, STEAM, "SteamLinux");
    script *local_windows = fx_module(f, WINDOWS, LOCAL, "LocalWindows");
    script *local_linux = fx_module(f, LINUX, LOCAL, "LocalLinux");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_register_module(f->p, &local_windows->module), TL_PLATFORM_DUPLICATE); /* the pair is taken */
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_DUPLICATE_MODULE),
                           "module 'LocalWindows': Windows/Local already has module 'LocalWindows'"));
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(local_linux->inits, 1);
    assert_int_equal(steam_linux->inits + local_windows->inits, 0);
}

/* docs/errors.md: a failure's result and message are the header's, the platform keeps it as its
   last result with the module's detail, and the log line names the failing call. */
static void test_platform_result_convention(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    s->fail = 1;
    s->native = 5;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_NOT_READY);
    assert_int_equal(tl_platform_last_result(f->p), TL_PLATFORM_NOT_READY);
    assert_string_equal(tl_platform_last_message(f->p), "the platform is not ready");
    assert_string_equal(tl_platform_result_message(TL_PLATFORM_NOT_READY), "the platform is not ready");
    assert_int_equal(fx_count(f, TL_PLATFORM_LOG_REFUSED), 1);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "tl_platform_refresh_accounts"));
    /* A module's failure: its own message and native error, reported with tl_platform_report. */
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(tl_platform_last_result(f->p), TL_PLATFORM_INITIALIZATION_FAILED);
    assert_int_equal(tl_platform_last_native_error(f->p), 5);
    assert_string_equal(tl_platform_last_message(f->p), "the client is not running");
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_FAILED), "the client is not running (native error 5)"));
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_last_result(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_last_native_error(f->p), 0);
    assert_string_equal(tl_platform_result_message(TL_PLATFORM_RESULT_END_), "unknown result");
    assert_int_equal(tl_platform_last_result(NULL), TL_PLATFORM_INVALID_ARGUMENT);
}

static void test_platform_missing_module_is_unsupported(void **state) {
    fx *f = (fx *)*state;
    script *a = fx_module(f, WINDOWS, LOCAL, "LocalWindows");
    script *b = fx_module(f, LINUX, STEAM, "SteamLinux");
    tl_platform_result r;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    r = tl_platform_initialization_result(f->p);
    assert_int_equal(r, TL_PLATFORM_UNSUPPORTED);
    assert_string_equal(tl_platform_last_message(f->p), "no module is registered for: Linux/Local");
    assert_int_equal(a->inits + b->inits, 0);
    assert_int_equal(f->events, 1);
    assert_int_equal(f->event_states[0], TL_PLATFORM_STATE_FAILED);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_FAILED),
                           "Platform: error: Linux/Local failed: no module is registered for: Linux/Local "
                           "(native error 0): uninitialized -> resolving platform -> resolving module -> failed"));
    assert_false(tl_platform_service(f->p, 100, NULL));
    assert_null(tl_platform_primary_account(f->p));
}

static void test_platform_capabilities_answer_only_when_ready(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    s->module.capabilities = TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_ACHIEVEMENTS;
    s->pending = 1;
    fx_create(f, LINUX, LOCAL);
    (void)tl_platform_update(f->p);
    assert_int_equal(tl_platform_capabilities(f->p), 0); /* initializing */
    assert_false(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_ACCOUNTS));
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_capabilities(f->p), TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_ACHIEVEMENTS);
    assert_true(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_ACCOUNTS));
    assert_true(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_ACHIEVEMENTS));
    assert_false(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_CLOUD_SAVES));
    assert_false(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_FRIENDS));
    assert_int_equal(tl_platform_report_lost(f->p, 0, "gone"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_capabilities(f->p), 0);
}

static void test_platform_services_and_the_primary_accounts(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_platform_account *primary;
    void *service = NULL;
    s->accounts = true;
    s->primary_second = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_true(tl_platform_service(f->p, 100, &service));
    assert_ptr_equal(service, &s->platform_service);
    assert_false(tl_platform_service(f->p, 101, &service));
    assert_int_equal(tl_platform_account_count(f->p), 2);
    primary = tl_platform_primary_account(f->p);
    assert_non_null(primary);
    assert_string_equal(tl_platform_account_id(primary), "bob");
    assert_string_equal(tl_platform_account_name(primary), "Bob");
    assert_true(tl_platform_account_service(primary, TL_PLATFORM_SERVICE_SAVES, &service));
    assert_ptr_equal(service, &s->bob_saves);
    assert_false(tl_platform_account_service(primary, TL_PLATFORM_SERVICE_ACHIEVEMENTS, &service));
    assert_true(tl_platform_account_service(tl_platform_account_at(f->p, 0), TL_PLATFORM_SERVICE_SAVES, &service));
    assert_ptr_equal(service, &s->alice_saves);
    assert_int_equal(s->duplicate_refused, 1); /* a second service 100 during init */
    /* Only a module, while it initializes, registers. */
    assert_int_equal(tl_platform_add_service(f->p, 102, &s->platform_service), TL_PLATFORM_REFUSED);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "tl_platform_add_service: refused"));
    assert_null(tl_platform_add_account(f->p, "carol", NULL));
}

/* A store's display name longer than an account holds is cut between characters (the game shows
   it); an id too long to hold whole is refused (cut, two ids would be one). */
static void test_platform_long_account_names_and_ids(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    const char *name;
    s->accounts = true;
    s->long_names = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_non_null(s->dana);
    name = tl_platform_account_name(s->dana);
    assert_int_equal(strlen(name), 62); /* 31 whole characters: the 32nd would end at byte 64 */
    assert_memory_equal(name + 60, "\xC3\xA9", 2);
    assert_null(s->long_id);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_INVALID_ARGUMENT), "id: 1 to 63 bytes"));
    assert_int_equal(tl_platform_account_count(f->p), 3); /* alice, bob, dana */
}

static void test_platform_retry_only_while_failed(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_platform_result r;
    s->fail = 1;
    s->native = 42;
    s->accounts = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    r = tl_platform_initialization_result(f->p);
    assert_int_equal(r, TL_PLATFORM_INITIALIZATION_FAILED);
    assert_string_equal(tl_platform_last_message(f->p), "the client is not running");
    assert_int_equal(tl_platform_last_native_error(f->p), 42);
    assert_int_equal(s->shutdowns, 1); /* what its init made is undone */
    assert_null(tl_platform_primary_account(f->p));
    /* The player starts the client: a retry, pending for one update. */
    s->pending = 1;
    r = tl_platform_retry(f->p);
    assert_int_equal(r, TL_PLATFORM_PENDING);
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_NOT_FAILED);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(s->inits, 2);
    assert_int_equal(f->events, 2);
    assert_int_equal(f->event_states[0], TL_PLATFORM_STATE_FAILED);
    assert_int_equal(f->event_states[1], TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_initialization_result(f->p), TL_PLATFORM_OK);
    assert_string_equal(tl_platform_account_id(tl_platform_primary_account(f->p)), "alice");
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_NOT_FAILED); /* ready */
    assert_int_equal(s->inits, 2);
}

static void test_platform_loss_publishes_at_once_and_tears_down_next_update(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_platform_result r;
    s->accounts = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    f->check_lost = true;
    assert_int_equal(tl_platform_report_lost(f->p, 7, "the client shut down"), TL_PLATFORM_OK);
    /* Published inside the call: the listener saw FAILED, no service, and the module not shut down. */
    assert_int_equal(f->events, 2);
    assert_int_equal(f->event_states[1], TL_PLATFORM_STATE_FAILED);
    assert_int_equal(f->lost_seen_services, 0);
    assert_int_equal(f->lost_seen_shutdowns, 0);
    assert_int_equal(s->shutdowns, 0);
    r = tl_platform_initialization_result(f->p);
    assert_int_equal(r, TL_PLATFORM_LOST);
    assert_string_equal(tl_platform_last_message(f->p), "the client shut down");
    assert_int_equal(tl_platform_last_native_error(f->p), 7);
    assert_int_equal(tl_platform_report_lost(f->p, 0, "again"), TL_PLATFORM_NOT_READY); /* not ready */
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(s->shutdowns, 1); /* torn down at the next update, once */
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(s->shutdowns, 1);
    assert_int_equal(f->events, 2);
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_OK);
    assert_int_equal(f->events, 3);
    assert_true(tl_platform_service(f->p, 100, NULL));
}

static void test_platform_retry_right_after_a_loss_tears_down_first(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_report_lost(f->p, 0, "gone"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_OK);
    assert_int_equal(s->shutdowns, 1);
    assert_int_equal(s->inits, 2);
}

static void test_platform_listeners_cannot_update_or_retry(void **state) {
    fx *f = (fx *)*state;
    (void)fx_module(f, LINUX, STEAM, "Mock");
    fx_create(f, LINUX, LOCAL);
    f->retry_in_listener = true;
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(f->listener_retry, TL_PLATFORM_REFUSED);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "called from a platform module or listener"));
}

/* --- accounts: states, their event, the list and its refresh ------------------------------------ */

static tl_platform_account *account_named(tl_platform *p, const char *id) {
    uint32_t i;
    for (i = 0; i < tl_platform_account_count(p); i++)
        if (strcmp(tl_platform_account_id(tl_platform_account_at(p, i)), id) == 0) return tl_platform_account_at(p, i);
    return NULL;
}

/* A module moves an account between signed in and suspended (its servers lost, then back): each
   change publishes OnAccountStateChanged(account) and is logged; no change, no event. */
static void test_platform_account_states_and_their_event(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_platform_account *alice;
    s->accounts = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    alice = account_named(f->p, "alice");
    assert_non_null(alice);
    assert_int_equal(tl_platform_account_state_of(alice), TL_PLATFORM_ACCOUNT_SIGNED_IN);
    assert_int_equal(f->account_events, 0); /* accounts registered at init come with their state */
    assert_int_equal(tl_platform_set_account_state(alice, TL_PLATFORM_ACCOUNT_SUSPENDED), TL_PLATFORM_OK);
    assert_int_equal(f->account_events, 1);
    assert_string_equal(f->account_event_ids[0], "alice");
    assert_int_equal(f->account_event_states[0], TL_PLATFORM_ACCOUNT_SUSPENDED);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_ACCOUNT_STATE),
                        "Platform: info: account 'alice': signed in -> suspended");
    assert_int_equal(tl_platform_set_account_state(alice, TL_PLATFORM_ACCOUNT_SUSPENDED), TL_PLATFORM_OK);
    assert_int_equal(f->account_events, 1); /* no change */
    assert_int_equal(tl_platform_set_account_state(alice, TL_PLATFORM_ACCOUNT_SIGNED_IN), TL_PLATFORM_OK);
    assert_int_equal(f->account_events, 2);
    assert_int_equal(f->account_event_states[1], TL_PLATFORM_ACCOUNT_SIGNED_IN);
    assert_int_equal(tl_platform_set_account_state(alice, (tl_platform_account_state)7), TL_PLATFORM_INVALID_ARGUMENT);
    assert_string_equal(tl_platform_account_state_name(TL_PLATFORM_ACCOUNT_SIGNED_OUT), "signed out");
    assert_int_equal(tl_platform_report_lost(f->p, 0, "gone"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_set_account_state(alice, TL_PLATFORM_ACCOUNT_SUSPENDED), TL_PLATFORM_NOT_READY); /* not ready */
    assert_int_equal(f->account_events, 2);
    assert_int_equal(tl_platform_account_state_of(NULL), TL_PLATFORM_ACCOUNT_SIGNED_OUT);
}

/* tl_platform_refresh_accounts asks the module for the platform's list again: it may add accounts
   (each published) and change states; without a refresh the list is always current. */
static void test_platform_account_list_and_its_refresh(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module_refreshing(f, LINUX, LOCAL, "Mock");
    (void)fx_module(f, LINUX, STEAM, "Plain");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_NOT_READY);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_account_count(f->p), 2);
    assert_null(tl_platform_add_account(f->p, "mallory", NULL)); /* only from the module */
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_OK);
    assert_int_equal(s->refreshed, 1);
    assert_int_equal(tl_platform_account_count(f->p), 3);
    assert_string_equal(tl_platform_account_id(tl_platform_account_at(f->p, 2)), "carol");
    assert_int_equal(tl_platform_account_state_of(account_named(f->p, "bob")), TL_PLATFORM_ACCOUNT_SIGNED_OUT);
    assert_int_equal(f->account_events, 2);
    assert_string_equal(f->account_event_ids[0], "carol");
    assert_int_equal(f->account_event_states[0], TL_PLATFORM_ACCOUNT_SIGNED_IN);
    assert_string_equal(f->account_event_ids[1], "bob");
    assert_int_equal(f->account_event_states[1], TL_PLATFORM_ACCOUNT_SIGNED_OUT);
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_OK); /* nothing new */
    assert_int_equal(tl_platform_account_count(f->p), 3);
    assert_int_equal(f->account_events, 2);
    assert_null(tl_platform_add_account(f->p, "mallory", NULL)); /* the refresh is over */
    fx_destroy(f);
    fx_create(f, LINUX, STEAM); /* a module without refresh: its list is always current */
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_refresh_accounts(NULL), TL_PLATFORM_INVALID_ARGUMENT);
}

/* SimulatePlatformLoss (development builds): the loss path, as a module's report would run it;
   and the servers' loss: every signed-in account suspended, then back. */
static void test_platform_simulated_loss_runs_the_loss_path(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_platform_result r;
    s->accounts = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_simulate_loss(f->p), TL_PLATFORM_NOT_READY); /* not ready yet */
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "tl_platform_simulate_loss: refused"));
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, true), TL_PLATFORM_OK);
    assert_int_equal(f->account_events, 2);
    assert_int_equal(f->account_event_states[0], TL_PLATFORM_ACCOUNT_SUSPENDED);
    assert_int_equal(f->account_event_states[1], TL_PLATFORM_ACCOUNT_SUSPENDED);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, false), TL_PLATFORM_OK);
    assert_int_equal(f->account_events, 4);
    assert_int_equal(tl_platform_account_state_of(account_named(f->p, "bob")), TL_PLATFORM_ACCOUNT_SIGNED_IN);
    f->check_lost = true;
    assert_int_equal(tl_platform_simulate_loss(f->p), TL_PLATFORM_OK);
    assert_int_equal(f->events, 2);
    assert_int_equal(f->event_states[1], TL_PLATFORM_STATE_FAILED);
    assert_int_equal(f->lost_seen_services, 0);
    r = tl_platform_initialization_result(f->p);
    assert_int_equal(r, TL_PLATFORM_LOST);
    assert_non_null(strstr(tl_platform_last_message(f->p), "simulated"));
    assert_int_equal(s->shutdowns, 0);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(s->shutdowns, 1);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, true), TL_PLATFORM_NOT_READY); /* not ready */
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_OK);
    assert_int_equal(s->inits, 2);
}

/* A shut-down platform says so: SHUT_DOWN for good, not the UNINITIALIZED of a platform that has
   not started, whether it was READY or still waiting for a module that never settles (a hung SDK:
   shutting down is the game's way out). No event: the game made the call. */
static void test_platform_shutdown_is_a_state_of_its_own(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    void *service = NULL;
    s->pending = 1000000;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_INITIALIZING);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_INITIALIZING);
    tl_platform_shutdown(f->p);
    assert_int_equal(s->shutdowns, 1);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_SHUT_DOWN);
    assert_string_equal(tl_platform_state_name(tl_platform_state_of(f->p)), "shut down");
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_SHUT_DOWN);
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_REFUSED);
    assert_int_equal(f->events, 0);
    assert_false(tl_platform_service(f->p, TL_PLATFORM_SERVICE_SAVES, &service));

    fx_free(f);
    f = (fx *)(*state = fx_new());
    s = fx_module(f, LINUX, LOCAL, "Mock");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(f->events, 1);
    tl_platform_shutdown(f->p);
    assert_int_equal(s->shutdowns, 1);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_SHUT_DOWN);
    assert_int_equal(f->events, 1);
    tl_platform_shutdown(f->p); /* twice: nothing more */
    assert_int_equal(s->shutdowns, 1);
}

/* --- the distribution override ------------------------------------------------------------------- */

static void test_platform_override_by_code(void **state) {
    fx *f = (fx *)*state;
    script *steam = fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, LOCAL, "Local");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "Steam"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM);
    assert_int_equal(steam->inits, 1);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED),
                        "Platform: info: distribution override from code: Steam (configured: Local)");
    assert_int_equal(tl_platform_set_distribution_override(f->p, "Local"), TL_PLATFORM_REFUSED); /* deployed */
}

static void test_platform_override_from_the_command_line(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"GOG", NULL};
    (void)fx_module(f, LINUX, GOG, "GOG");
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED),
                        "Platform: info: distribution override from the command line: GOG (configured: Local)");
}

static void test_platform_override_from_the_environment(void **state) {
    fx *f = (fx *)*state;
    (void)fx_module(f, LINUX, STEAM, "Steam");
    setenv("THREADLINK_PLATFORM_DISTRIBUTION", "Steam", 1);
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED),
                           "override from the environment (THREADLINK_PLATFORM_DISTRIBUTION): Steam"));
}

/* Code, then the command line, then the environment: each given a different value. */
static void test_platform_override_sources_in_order(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"GOG"};
    (void)fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, GOG, "GOG");
    (void)fx_module(f, LINUX, LOCAL, "Local");
    setenv("THREADLINK_PLATFORM_DISTRIBUTION", "Local", 1);
    fx_create_args(f, LINUX, STEAM, 3, argv);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "Steam"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM); /* code wins */
    fx_destroy(f);
    fx_create_args(f, LINUX, STEAM, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG); /* then the command line */
    fx_destroy(f);
    fx_create(f, LINUX, STEAM);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL); /* then the environment */
    fx_destroy(f);
    unsetenv("THREADLINK_PLATFORM_DISTRIBUTION");
    fx_create(f, LINUX, STEAM);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM); /* then the configured one */
    assert_int_equal(fx_count(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED), 0);
}

static void test_platform_override_names_are_case_insensitive(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"gOg"};
    (void)fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, GOG, "GOG");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "STEAM"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM);
    fx_destroy(f);
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG);
    assert_int_equal(tl_platform_distribution_from_name("microsoftstore"), TL_PLATFORM_DISTRIBUTION_MICROSOFT_STORE);
    assert_int_equal(tl_platform_distribution_from_name("Microsoft"), 0);
}

/* An unknown or disallowed value is ignored with a warning, as if its source gave none: the next
   source, or the configured distribution, applies. */
static void test_platform_override_unknown_value_is_ignored_with_a_warning(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"Stem"};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    (void)fx_module(f, LINUX, STEAM, "Steam");
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_UNKNOWN),
                        "Platform: warning: distribution override from the command line: 'Stem' names no "
                        "distribution: ignored");
    assert_int_equal(fx_count(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED), 0);
    fx_destroy(f);
    setenv("THREADLINK_PLATFORM_DISTRIBUTION", "steam", 1);
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM); /* the next source */
    assert_int_equal(fx_count(f, TL_PLATFORM_LOG_OVERRIDE_UNKNOWN), 1);
}

static void test_platform_override_disallowed_value_is_ignored_with_a_warning(void **state) {
    fx *f = (fx *)*state;
    static const tl_platform_pair policy[] = {{TL_PLATFORM_MARKER_LINUX, TL_PLATFORM_DISTRIBUTION_LOCAL},
                                              {TL_PLATFORM_MARKER_WINDOWS, TL_PLATFORM_DISTRIBUTION_STEAM}};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    (void)fx_module(f, LINUX, STEAM, "Steam");
    f->policy = policy;
    f->policy_count = 2;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "Steam"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_DISALLOWED),
                        "Platform: warning: distribution override from code: Steam is not allowed on Linux: ignored");
    fx_destroy(f);
    /* The default policy: no Microsoft Store on Linux. */
    f->policy = NULL;
    (void)fx_module(f, LINUX, TL_PLATFORM_DISTRIBUTION_MICROSOFT_STORE, "Store");
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "MicrosoftStore"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_int_equal(fx_count(f, TL_PLATFORM_LOG_OVERRIDE_DISALLOWED), 1);
}

static void test_platform_override_argument_without_a_value(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution"};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    fx_create_args(f, LINUX, LOCAL, 2, argv);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_NO_VALUE),
                        "Platform: warning: command line: -threadlink-platform-distribution needs a value: ignored");
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
}

/* The seed's spellings (Sentinel's) are aliases of the documented ones: the same source each, the
   documented variable first when both are set. */
static void test_platform_override_seed_names_are_aliases(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-sentinel-distribution", (char *)"GOG"};
    char *bare[] = {(char *)"game", (char *)"-threadlink-sentinel-distribution"};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    (void)fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, GOG, "GOG");
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED),
                        "Platform: info: distribution override from the command line: GOG (configured: Local)");
    fx_destroy(f);
    setenv("THREADLINK_SENTINEL_DISTRIBUTION", "steam", 1);
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_APPLIED),
                           "override from the environment (THREADLINK_SENTINEL_DISTRIBUTION): Steam"));
    fx_destroy(f);
    setenv("THREADLINK_PLATFORM_DISTRIBUTION", "GOG", 1); /* both: the documented name wins */
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG);
    fx_destroy(f);
    fx_create_args(f, LINUX, LOCAL, 2, bare);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_NO_VALUE),
                        "Platform: warning: command line: -threadlink-sentinel-distribution needs a value: ignored");
}

/* What a call with no platform writes to the default logger (stderr), captured. */
static void null_platform_line(char *line, size_t cap) {
    FILE *tmp = tmpfile();
    int saved = dup(2);
    size_t n;
    assert_non_null(tmp);
    fflush(stderr);
    assert_int_equal(dup2(fileno(tmp), 2), 2);
    assert_null(tl_platform_add_account(NULL, "x", "y"));
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    rewind(tmp);
    n = fread(line, 1, cap - 1, tmp);
    line[n] = 0;
    fclose(tmp);
}

/* With no platform, tl_platform_add_account is an invalid argument, as every other call says:
   not "refused (only a module ...)". */
static void test_platform_add_account_without_a_platform(void **state) {
    char line[256];
    (void)state;
    null_platform_line(line, sizeof line);
    assert_non_null(strstr(line, "tl_platform_add_account: invalid argument"));
}

/* On the command line too the documented spelling comes first, whatever the order (a launcher
   appends flags); an empty value is said, not dropped; a value is logged with its control bytes
   and non-ASCII bytes as '?' (a newline in it forged a log line). */
static void test_platform_override_command_line_documented_first(void **state) {
    fx *f = (fx *)*state;
    char *both[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"steam",
                    (char *)"-threadlink-sentinel-distribution", (char *)"gog"};
    char *empty[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)""};
    char *hostile[] = {(char *)"game", (char *)"-threadlink-platform-distribution",
                       (char *)"x\nPlatform: info: \x1b[31m\xff"};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    (void)fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, GOG, "GOG");
    fx_create_args(f, LINUX, LOCAL, 5, both);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), STEAM);
    fx_destroy(f);
    fx_create_args(f, LINUX, LOCAL, 3, empty);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_UNKNOWN),
                        "Platform: warning: distribution override from the command line: '' names no "
                        "distribution: ignored");
    fx_destroy(f);
    fx_create_args(f, LINUX, LOCAL, 3, hostile);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_string_equal(fx_line(f, TL_PLATFORM_LOG_OVERRIDE_UNKNOWN),
                        "Platform: warning: distribution override from the command line: 'x?Platform: info: ?[31m?' "
                        "names no distribution: ignored");
}

/* --- the core's deployment ----------------------------------------------------------------------- */

typedef struct user_subsystem {
    fx *f;
    int state_at_preload, state_at_discard_shutdowns;
    script *s;
} user_subsystem;

static tl_lifecycle_status user_preload(void *self, tl_lifecycle *core) {
    user_subsystem *u = (user_subsystem *)self;
    (void)core;
    u->state_at_preload = (int)tl_platform_state_of(u->f->p);
    return TL_LIFECYCLE_DONE;
}
static void user_discard(void *self, tl_lifecycle *core) {
    user_subsystem *u = (user_subsystem *)self;
    (void)core;
    u->state_at_discard_shutdowns = u->s->shutdowns;
}
static const tl_lifecycle_subsystem user_type = {"Game", user_preload, NULL, NULL, user_discard};

static void test_platform_deploys_in_the_cores_native_tier(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    user_subsystem user;
    tl_lifecycle_desc desc;
    tl_lifecycle core;
    memset(&desc, 0, sizeof desc);
    desc.logger = &f->logger;
    desc.registry = &f->reg;
    assert_int_equal(tl_lifecycle_init(&core, &desc), TL_LIFECYCLE_OK);
    s->pending = 2;
    f->core = &core;
    fx_create(f, LINUX, LOCAL);
    memset(&user, 0, sizeof user);
    user.f = f;
    user.s = s;
    user.state_at_preload = -1;
    assert_int_equal(tl_lifecycle_weave(&core, &user_type, &user), TL_LIFECYCLE_OK);
    assert_int_equal(tl_lifecycle_deploy(&core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_INITIALIZING);
    assert_int_equal(user.state_at_preload, -1); /* the user tier waits for the native one */
    assert_int_equal(tl_lifecycle_deploy(&core), TL_LIFECYCLE_DEPLOY_PENDING);
    assert_int_equal(tl_lifecycle_deploy(&core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_int_equal(user.state_at_preload, TL_PLATFORM_STATE_READY);
    assert_int_equal(f->events, 1);
    tl_platform_destroy(f->p); /* refused: the core still has it */
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "tl_lifecycle_discard first"));
    tl_lifecycle_discard(&core);
    assert_int_equal(user.state_at_discard_shutdowns, 0); /* user subsystems go first */
    assert_int_equal(s->shutdowns, 1);
    fx_destroy(f);
}

static void test_platform_failure_does_not_fail_the_core(void **state) {
    fx *f = (fx *)*state;
    tl_lifecycle_desc desc;
    tl_lifecycle core;
    memset(&desc, 0, sizeof desc);
    desc.logger = &f->logger;
    assert_int_equal(tl_lifecycle_init(&core, &desc), TL_LIFECYCLE_OK);
    f->core = &core;
    fx_create(f, LINUX, LOCAL); /* no module at all */
    assert_int_equal(tl_lifecycle_deploy(&core), TL_LIFECYCLE_DEPLOY_DONE);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_FAILED);
    tl_lifecycle_discard(&core);
    fx_destroy(f);
}

static void test_platform_core_never_deployed(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    tl_lifecycle_desc desc;
    tl_lifecycle core;
    memset(&desc, 0, sizeof desc);
    desc.logger = &f->logger;
    assert_int_equal(tl_lifecycle_init(&core, &desc), TL_LIFECYCLE_OK);
    f->core = &core;
    fx_create(f, LINUX, LOCAL);
    tl_lifecycle_discard(&core);
    fx_destroy(f); /* no leak, no call */
    assert_int_equal(s->inits + s->shutdowns, 0);
}

/* --- the native events file: platform.h's rows follow levels.h's ---------------------------------- */

static void test_platform_native_events_file_matches_the_runtime(void **state) {
    const tl_platform_events native = TL_PLATFORM_EVENTS_NATIVE;
    char line[256];
    int n = 0;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        if (n == 20) break;     /* input.h's and interface.h's follow (tests/input checks them) */
        if (n++ < 18) continue; /* lifecycle.h's and levels.h's */
        if (n == 19) {
            assert_string_equal(line, "OnPlatformStateChanged(tl_platform *)");
            assert_int_equal(tl_hash32("(tl_platform *)", 15, 0), TL_PLATFORM_SIG_PLATFORM);
            assert_int_equal(native.state_changed, (uint32_t)(n - 1));
        } else if (n == 20) {
            assert_string_equal(line, "OnAccountStateChanged(tl_platform_account *)");
            assert_int_equal(tl_hash32("(tl_platform_account *)", 23, 0), TL_PLATFORM_SIG_ACCOUNT);
            assert_int_equal(native.account_state_changed, (uint32_t)(n - 1));
        }
    }
    fclose(file);
    assert_true(n >= 20); /* later modules' rows follow (l10n.h's) */
}

#else /* a non-development build */

/* SimulatePlatformLoss and the servers' loss exist in development builds only: refused, logged. */
static void test_platform_simulations_refused_outside_development_builds(void **state) {
    fx *f = (fx *)*state;
    script *s = fx_module(f, LINUX, LOCAL, "Mock");
    s->accounts = true;
    fx_create(f, LINUX, LOCAL);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_simulate_loss(f->p), TL_PLATFORM_REFUSED);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, true), TL_PLATFORM_REFUSED);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(f->account_events, 0);
    assert_non_null(strstr(fx_line(f, TL_PLATFORM_LOG_REFUSED), "development builds only"));
    /* The result's message, which a game shows, covers this refusal too. */
    assert_non_null(strstr(tl_platform_result_message(tl_platform_last_result(f->p)), "shipping build"));
}

/* The command line and the environment are not read at all; code still overrides. */
static void test_platform_override_ignored_outside_development_builds(void **state) {
    fx *f = (fx *)*state;
    char *argv[] = {(char *)"game", (char *)"-threadlink-platform-distribution", (char *)"Steam"};
    (void)fx_module(f, LINUX, LOCAL, "Local");
    (void)fx_module(f, LINUX, STEAM, "Steam");
    (void)fx_module(f, LINUX, GOG, "GOG");
    setenv("THREADLINK_PLATFORM_DISTRIBUTION", "Steam", 1);
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_int_equal(f->records, 1); /* the ready line alone: no override, no warning */
    fx_destroy(f);
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_set_distribution_override(f->p, "gog"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), GOG);
    fx_destroy(f);
    /* Nor the seed's spellings of them. */
    argv[1] = (char *)"-threadlink-sentinel-distribution";
    unsetenv("THREADLINK_PLATFORM_DISTRIBUTION");
    setenv("THREADLINK_SENTINEL_DISTRIBUTION", "Steam", 1);
    fx_create_args(f, LINUX, LOCAL, 3, argv);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), LOCAL);
    assert_int_equal(f->records, 1);
}

#endif

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
#if TL_PLATFORM_DEVELOPMENT
        T(test_platform_state_sequence_and_its_event),
        T(test_platform_registry_wants_the_exact_pair),
        T(test_platform_missing_module_is_unsupported),
        T(test_platform_result_convention),
        T(test_platform_capabilities_answer_only_when_ready),
        T(test_platform_services_and_the_primary_accounts),
        T(test_platform_long_account_names_and_ids),
        T(test_platform_retry_only_while_failed),
        T(test_platform_shutdown_is_a_state_of_its_own),
        T(test_platform_loss_publishes_at_once_and_tears_down_next_update),
        T(test_platform_retry_right_after_a_loss_tears_down_first),
        T(test_platform_listeners_cannot_update_or_retry),
        T(test_platform_account_states_and_their_event),
        T(test_platform_account_list_and_its_refresh),
        T(test_platform_simulated_loss_runs_the_loss_path),
        T(test_platform_override_by_code),
        T(test_platform_override_from_the_command_line),
        T(test_platform_override_from_the_environment),
        T(test_platform_override_sources_in_order),
        T(test_platform_override_names_are_case_insensitive),
        T(test_platform_override_unknown_value_is_ignored_with_a_warning),
        T(test_platform_override_disallowed_value_is_ignored_with_a_warning),
        T(test_platform_override_argument_without_a_value),
        T(test_platform_override_seed_names_are_aliases),
        T(test_platform_override_command_line_documented_first),
        T(test_platform_add_account_without_a_platform),
        T(test_platform_deploys_in_the_cores_native_tier),
        T(test_platform_failure_does_not_fail_the_core),
        T(test_platform_core_never_deployed),
        T(test_platform_native_events_file_matches_the_runtime),
#else
        T(test_platform_override_ignored_outside_development_builds),
        T(test_platform_simulations_refused_outside_development_builds),
#endif
    };
    return cmocka_run_group_tests_name(TL_PLATFORM_DEVELOPMENT ? "platform" : "platform-release", tests, NULL,
                                       NULL);
}
