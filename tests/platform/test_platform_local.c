/* platform.h's Local module over save.h in a temporary folder: the implicit account, saves that
   survive the platform, achievements and progress that persist, and their atomicity: a backend
   that stops (as if the process died) after the k-th operation of an achievement's commit, for
   every k, and a reopen that must find exactly the old or exactly the new table; a failed commit
   leaves the table in memory as it was; a malformed table fails the platform's initialization and
   stays untouched. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <threadlink/threadlink.h>

/* A POSIX backend that fails every operation from the armed one on (a process that died there),
   or only the one numbered fail_only (a disk error: the others work). */
typedef struct faulty {
    tl_save_io posix;
    long count, fail_at, fail_only; /* fail_at, fail_only < 0: disarmed; counted from 0 */
} faulty;

static bool faulty_dead(faulty *f) {
    long n;
    if (f->fail_at < 0 && f->fail_only < 0) return false;
    n = f->count++;
    return (f->fail_at >= 0 && n >= f->fail_at) || n == f->fail_only;
}

#define FAULTY_OP(name, params, args) \
    static tl_save_io_status faulty_##name params { \
        faulty *f = (faulty *)user; \
        if (faulty_dead(f)) { *native = EIO; return TL_SAVE_IO_FAILED; } \
        return f->posix.name args; \
    }
FAULTY_OP(open_root, (void *user, const char *path, void **root, int *native), (f->posix.user, path, root, native))
FAULTY_OP(open_write, (void *user, void *root, const char *dir, const char *name, void **file, int *native),
          (f->posix.user, root, dir, name, file, native))
FAULTY_OP(write, (void *user, void *file, const void *data, size_t size, int *native),
          (f->posix.user, file, data, size, native))
FAULTY_OP(sync, (void *user, void *file, int *native), (f->posix.user, file, native))
FAULTY_OP(open_read,
          (void *user, void *root, const char *dir, const char *name, void **file, uint64_t *size, int *native),
          (f->posix.user, root, dir, name, file, size, native))
FAULTY_OP(read, (void *user, void *file, uint64_t offset, void *dst, size_t size, int *native),
          (f->posix.user, file, offset, dst, size, native))
FAULTY_OP(mkdir, (void *user, void *root, const char *name, int *native), (f->posix.user, root, name, native))
FAULTY_OP(sync_dir, (void *user, void *root, const char *dir, int *native), (f->posix.user, root, dir, native))
FAULTY_OP(rename, (void *user, void *root, const char *dir, const char *from, const char *to, int *native),
          (f->posix.user, root, dir, from, to, native))
FAULTY_OP(remove, (void *user, void *root, const char *dir, const char *name, int *native),
          (f->posix.user, root, dir, name, native))
FAULTY_OP(rmdir, (void *user, void *root, const char *name, int *native), (f->posix.user, root, name, native))
FAULTY_OP(list, (void *user, void *root, const char *dir, tl_save_io_entry_fn each, void *ctx, int *native),
          (f->posix.user, root, dir, each, ctx, native))
FAULTY_OP(open_update,
          (void *user, void *root, const char *dir, const char *name, void **file, uint64_t *size, int *native),
          (f->posix.user, root, dir, name, file, size, native))
FAULTY_OP(write_at, (void *user, void *file, uint64_t offset, const void *data, size_t size, int *native),
          (f->posix.user, file, offset, data, size, native))
FAULTY_OP(truncate, (void *user, void *file, uint64_t size, int *native), (f->posix.user, file, size, native))
/* A dead process closes nothing, but its files are closed all the same: close always happens. */
static tl_save_io_status faulty_close(void *user, void *file, int *native) {
    faulty *f = (faulty *)user;
    return f->posix.close(f->posix.user, file, native);
}
static void faulty_close_root(void *user, void *root) {
    faulty *f = (faulty *)user;
    f->posix.close_root(f->posix.user, root);
}

static tl_save_io faulty_io(faulty *f) {
    tl_save_io io;
    f->posix = tl_save_io_posix();
    f->count = 0;
    f->fail_at = -1;
    f->fail_only = -1;
    io = f->posix; /* an operation save.h adds later stays POSIX's, unwrapped (and uncounted) */
    io.user = f;
    io.open_root = faulty_open_root;
    io.close_root = faulty_close_root;
    io.open_write = faulty_open_write;
    io.write = faulty_write;
    io.sync = faulty_sync;
    io.open_read = faulty_open_read;
    io.read = faulty_read;
    io.close = faulty_close;
    io.mkdir = faulty_mkdir;
    io.sync_dir = faulty_sync_dir;
    io.rename = faulty_rename;
    io.remove = faulty_remove;
    io.rmdir = faulty_rmdir;
    io.list = faulty_list;
    io.open_update = faulty_open_update;
    io.write_at = faulty_write_at;
    io.truncate = faulty_truncate;
    return io;
}

typedef struct fixture {
    char dir[64];
    char root[128];
    tl_logger quiet;
    int errors;
    uint32_t last_item;           /* of the last error logged */
    char last[TL_LOG_LINE_MAX];   /* its line */
    faulty fault;
    tl_platform *p;
} fixture;

static void count_errors(void *user, const tl_log_record *record) {
    fixture *f = (fixture *)user;
    if (record->level != TL_LOG_LEVEL_ERROR) return;
    f->errors++;
    f->last_item = record->item;
    snprintf(f->last, sizeof f->last, "%s", record->line);
}

static int setup(void **state) {
    fixture *f = (fixture *)calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/tl-platform-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->root, sizeof f->root, "%s/saves", f->dir);
    f->quiet.sink = count_errors;
    f->quiet.user = f;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = (fixture *)*state;
    char cmd[128];
    tl_platform_destroy(f->p);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0) return -1;
    free(f);
    return 0;
}

/* A platform with the Local module on root (through the faulty backend when asked), deployed. */
static tl_platform_state local_platform(fixture *f, const char *root, bool faulty_backend, const char *name) {
    tl_platform_desc desc;
    tl_platform_local_desc local;
    tl_platform_destroy(f->p);
    memset(&desc, 0, sizeof desc);
    desc.logger = &f->quiet;
    f->p = tl_platform_create(&desc);
    assert_non_null(f->p);
    memset(&local, 0, sizeof local);
    local.root = root;
    local.account_name = name;
    if (faulty_backend) local.io = faulty_io(&f->fault);
    assert_int_equal(tl_platform_register_local(f->p, 0, &local), TL_PLATFORM_OK);
    return tl_platform_update(f->p);
}

static const tl_platform_achievements *achievements(fixture *f) {
    void *service = NULL;
    assert_true(tl_platform_account_service(tl_platform_primary_account(f->p), TL_PLATFORM_SERVICE_ACHIEVEMENTS,
                                            &service));
    return (const tl_platform_achievements *)service;
}

static tl_save_store *saves(fixture *f) {
    void *service = NULL;
    assert_true(tl_platform_account_service(tl_platform_primary_account(f->p), TL_PLATFORM_SERVICE_SAVES, &service));
    return (tl_save_store *)service;
}

static void test_local_one_implicit_account_and_its_capabilities(void **state) {
    fixture *f = (fixture *)*state;
    tl_platform_account *account;
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_active_distribution(f->p), TL_PLATFORM_DISTRIBUTION_LOCAL);
    assert_int_equal(tl_platform_account_count(f->p), 1);
    account = tl_platform_primary_account(f->p);
    assert_string_equal(tl_platform_account_id(account), "local");
    assert_string_equal(tl_platform_account_name(account), "Player");
    assert_int_equal(tl_platform_capabilities(f->p), TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_LOCAL_SAVES |
                                                         TL_PLATFORM_CAP_SAVE_TRANSACTIONS |
                                                         TL_PLATFORM_CAP_ACHIEVEMENTS);
    assert_false(tl_platform_has_capability(f->p, TL_PLATFORM_CAP_CLOUD_SAVES));
    assert_int_equal(local_platform(f, f->root, false, "Ada"), TL_PLATFORM_STATE_READY);
    assert_string_equal(tl_platform_account_name(tl_platform_primary_account(f->p)), "Ada");
}

static void test_local_saves_go_through_save_h_and_survive_the_platform(void **state) {
    fixture *f = (fixture *)*state;
    char buf[32];
    size_t n = 0;
    tl_save_txn txn;
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_save_begin(saves(f), "slot-1", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "player", "hero:12", 7), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_save_read(saves(f), "slot-1", "player", buf, sizeof buf, &n), TL_SAVE_OK);
    assert_int_equal(n, 7);
    assert_memory_equal(buf, "hero:12", 7);
}

static void test_local_achievements_and_progress_persist(void **state) {
    fixture *f = (fixture *)*state;
    tl_platform_achievement a;
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "first-blood", &a), TL_PLATFORM_NOT_FOUND);
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "first-blood"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "collector", 3, 10), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "../etc"), TL_PLATFORM_INVALID_ARGUMENT);
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "x", 1, 0), TL_PLATFORM_INVALID_ARGUMENT);
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY); /* reopened */
    assert_int_equal(tl_platform_achievement_get(achievements(f), "first-blood", &a), TL_PLATFORM_OK);
    assert_true(a.unlocked);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "collector", &a), TL_PLATFORM_OK);
    assert_false(a.unlocked);
    assert_int_equal(a.current, 3);
    assert_int_equal(a.target, 10);
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "collector", 12, 10), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "collector", 2, 10), TL_PLATFORM_OK);
    assert_int_equal(local_platform(f, f->root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "collector", &a), TL_PLATFORM_OK);
    assert_true(a.unlocked); /* progress never locks it again */
    assert_int_equal(a.current, 2);
    assert_string_equal(a.id, "collector");
}

/* The old table: a unlocked, b at 1/4. The change: b to 3/4 and a new c. */
static void seed_table(fixture *f, const char *root) {
    assert_int_equal(local_platform(f, root, false, NULL), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "a"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "b", 1, 4), TL_PLATFORM_OK);
}

static bool table_is_old(fixture *f) {
    tl_platform_achievement a;
    return tl_platform_achievement_get(achievements(f), "b", &a) == TL_PLATFORM_OK && a.current == 1 &&
           tl_platform_achievement_get(achievements(f), "c", &a) == TL_PLATFORM_NOT_FOUND;
}

static void test_local_achievements_commit_atomically_at_every_stop(void **state) {
    fixture *f = (fixture *)*state;
    long k;
    int olds = 0, news = 0;
    for (k = 0; k < 200; k++) {
        char root[160];
        tl_platform_result r;
        tl_platform_achievement a;
        snprintf(root, sizeof root, "%s/k%ld", f->dir, k);
        seed_table(f, root);
        assert_int_equal(local_platform(f, root, true, NULL), TL_PLATFORM_STATE_READY);
        f->fault.count = 0;
        f->fault.fail_at = k; /* operations 0..k-1 happen, then the process is dead */
        r = tl_platform_achievement_progress(achievements(f), "c", 1, 2);
        if (r == TL_PLATFORM_OK) r = tl_platform_achievement_progress(achievements(f), "b", 3, 4);
        if (r == TL_PLATFORM_OK) break; /* k is past both commits */
        assert_int_equal(r, TL_PLATFORM_STORAGE);
        assert_int_equal(tl_platform_last_native_error(f->p), EIO);
        /* The table in memory is the one before the failed change. */
        assert_int_equal(tl_platform_achievement_get(achievements(f), "a", &a), TL_PLATFORM_OK);
        f->fault.fail_at = -1;
        /* Reopened over a sound backend: the old table, or the new one of each commit, never a mix. */
        assert_int_equal(local_platform(f, root, false, NULL), TL_PLATFORM_STATE_READY);
        assert_int_equal(tl_platform_achievement_get(achievements(f), "a", &a), TL_PLATFORM_OK);
        assert_true(a.unlocked);
        if (table_is_old(f)) olds++;
        else {
            assert_int_equal(tl_platform_achievement_get(achievements(f), "c", &a), TL_PLATFORM_OK);
            assert_int_equal(a.current, 1);
            assert_int_equal(tl_platform_achievement_get(achievements(f), "b", &a), TL_PLATFORM_OK);
            assert_true(a.current == 1 || a.current == 3);
            news++;
        }
    }
    assert_true(k < 200);
    assert_true(k > 4);      /* the commits took several operations, each one a stop */
    assert_true(olds > 0);
    assert_true(news > 0);   /* a stop after the first commit point */
}

static void test_local_failed_commit_keeps_the_table_in_memory(void **state) {
    fixture *f = (fixture *)*state;
    tl_platform_achievement a;
    seed_table(f, f->root);
    assert_int_equal(local_platform(f, f->root, true, NULL), TL_PLATFORM_STATE_READY);
    f->fault.count = 0;
    f->fault.fail_at = 0;
    assert_int_equal(tl_platform_achievement_progress(achievements(f), "b", 3, 4), TL_PLATFORM_STORAGE);
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "c"), TL_PLATFORM_STORAGE);
    assert_true(table_is_old(f));
    f->fault.fail_at = -1;
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "c"), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "c", &a), TL_PLATFORM_OK);
    assert_true(a.unlocked);
}

/* docs/errors.md: a store failure under an achievement is STORAGE (the header's message), its
   detail (save.h's message, the errno) reported to the platform, and one log line naming the
   save; a refused id is logged naming the call. */
static void test_local_result_convention(void **state) {
    fixture *f = (fixture *)*state;
    seed_table(f, f->root);
    assert_int_equal(local_platform(f, f->root, true, NULL), TL_PLATFORM_STATE_READY);
    f->fault.count = 0;
    f->fault.fail_at = 0;
    f->errors = 0;
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "c"), TL_PLATFORM_STORAGE);
    assert_string_equal(tl_platform_result_message(TL_PLATFORM_STORAGE),
                        "the save store failed (tl_platform_last_native_error holds its native error)");
    assert_int_equal(tl_platform_last_result(f->p), TL_PLATFORM_STORAGE);
    assert_int_equal(tl_platform_last_native_error(f->p), EIO);
    assert_string_equal(tl_platform_last_message(f->p), tl_save_result_message(TL_SAVE_IO));
    assert_int_equal(f->last_item, TL_PLATFORM_LOCAL_LOG_STORAGE);
    assert_non_null(strstr(f->last, "achievements in save 'threadlink.achievements'"));
    f->fault.fail_at = -1;
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "../etc"), TL_PLATFORM_INVALID_ARGUMENT);
    assert_int_equal(f->last_item, TL_PLATFORM_LOCAL_LOG_INVALID_ARGUMENT);
    assert_non_null(strstr(f->last, "achievement unlock"));
}

/* One operation of an unlock fails (a sync, a close, ...), the others work: when the unlock
   reports STORAGE, the achievement is locked in memory and after a restart; when it reports OK,
   unlocked in both. */
static void test_local_failed_unlock_is_locked_everywhere(void **state) {
    fixture *f = (fixture *)*state;
    long k;
    int failures = 0;
    for (k = 0; k < 200; k++) {
        char root[160];
        tl_platform_result r;
        tl_platform_achievement a;
        bool unlocked;
        snprintf(root, sizeof root, "%s/k%ld", f->dir, k);
        seed_table(f, root);
        assert_int_equal(local_platform(f, root, true, NULL), TL_PLATFORM_STATE_READY);
        f->fault.count = 0;
        f->fault.fail_only = k;
        r = tl_platform_achievement_unlock(achievements(f), "c");
        f->fault.fail_only = -1;
        if (r == TL_PLATFORM_OK && f->fault.count <= k) break; /* past the unlock's operations */
        if (r != TL_PLATFORM_OK) {
            assert_int_equal(r, TL_PLATFORM_STORAGE);
            failures++;
        }
        unlocked = tl_platform_achievement_get(achievements(f), "c", &a) == TL_PLATFORM_OK && a.unlocked;
        if (unlocked != (r == TL_PLATFORM_OK)) fail_msg("fault at operation %ld: memory disagrees with the result", k);
        assert_int_equal(local_platform(f, root, false, NULL), TL_PLATFORM_STATE_READY); /* a restart */
        unlocked = tl_platform_achievement_get(achievements(f), "c", &a) == TL_PLATFORM_OK && a.unlocked;
        if (unlocked != (r == TL_PLATFORM_OK))
            fail_msg("fault at operation %ld: %s, but after a restart the store has it %s", k,
                     r == TL_PLATFORM_OK ? "unlocked" : "STORAGE", unlocked ? "unlocked" : "locked");
        assert_true(table_is_old(f));
    }
    assert_true(k < 200);
    assert_true(failures >= 3);
}

static void on_account(void *ctx, tl_platform_account *account) {
    uint32_t *states = (uint32_t *)ctx;
    states[++states[0]] = (uint32_t)tl_platform_account_state_of(account);
}

/* SimulatePlatformLoss with the Local module (a development build): the loss path (failed, its
   store closed at the next update), a retry that finds the saves and achievements again; and the
   servers' loss: its one account suspended, then signed in again, each change published. */
static void test_local_simulated_losses(void **state) {
    fixture *f = (fixture *)*state;
    tl_events reg;
    const tl_platform_events events = TL_PLATFORM_EVENTS_NATIVE;
    uint32_t states[8] = { 0 };
    tl_platform_desc desc;
    tl_platform_local_desc local;
    tl_platform_achievement a;
    tl_platform_account *me;
    tl_save_txn txn;
    size_t n = 0;
    char buf[8];
    assert_int_equal(tl_events_init_table(&reg, 20, NULL, &f->quiet), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&reg, events.account_state_changed, TL_PLATFORM_SIG_ACCOUNT, 0,
                                  TL_EVENTS_FN(on_account), states), TL_EVENTS_OK);
    memset(&desc, 0, sizeof desc);
    desc.logger = &f->quiet;
    desc.registry = &reg;
    f->p = tl_platform_create(&desc);
    memset(&local, 0, sizeof local);
    local.root = f->root;
    assert_int_equal(tl_platform_register_local(f->p, 0, &local), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_READY);
    me = tl_platform_primary_account(f->p);
    assert_int_equal(tl_platform_account_state_of(me), TL_PLATFORM_ACCOUNT_SIGNED_IN);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, true), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_account_state_of(me), TL_PLATFORM_ACCOUNT_SUSPENDED);
    assert_int_equal(tl_platform_simulate_server_loss(f->p, false), TL_PLATFORM_OK);
    assert_int_equal(states[0], 2);
    assert_int_equal(states[1], TL_PLATFORM_ACCOUNT_SUSPENDED);
    assert_int_equal(states[2], TL_PLATFORM_ACCOUNT_SIGNED_IN);
    assert_int_equal(tl_platform_refresh_accounts(f->p), TL_PLATFORM_OK); /* one implicit account */
    assert_int_equal(tl_platform_account_count(f->p), 1);
    assert_int_equal(tl_platform_achievement_unlock(achievements(f), "first"), TL_PLATFORM_OK);
    assert_int_equal(tl_save_begin(saves(f), "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", "kept", 4), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    assert_int_equal(tl_platform_simulate_loss(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(tl_platform_initialization_result(f->p), TL_PLATFORM_LOST);
    assert_null(tl_platform_primary_account(f->p));
    assert_int_equal(tl_platform_update(f->p), TL_PLATFORM_STATE_FAILED); /* the store closes */
    assert_int_equal(tl_platform_retry(f->p), TL_PLATFORM_OK);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "first", &a), TL_PLATFORM_OK);
    assert_true(a.unlocked);
    assert_int_equal(tl_save_read(saves(f), "slot", "a", buf, sizeof buf, &n), TL_SAVE_OK);
    assert_int_equal(n, 4);
    tl_platform_destroy(f->p);
    f->p = NULL;
    tl_events_discard(&reg);
}

/* A table put in the store (as a player editing the save would: its hash is a checksum), then
   the platform deployed on it. */
static tl_platform_state deploy_on_table(fixture *f, const char *table, size_t size) {
    tl_save_store_desc desc;
    tl_save_store *store;
    tl_save_txn txn;
    memset(&desc, 0, sizeof desc);
    desc.root = f->root;
    desc.logger = f->quiet;
    store = tl_save_store_open(&desc, NULL);
    assert_non_null(store);
    assert_int_equal(tl_save_begin(store, "threadlink.achievements", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "table", table, size), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    tl_save_store_close(store);
    f->last[0] = 0;
    f->last_item = 0;
    return local_platform(f, f->root, false, NULL);
}

/* The table as the store holds it now. */
static void assert_table_is(fixture *f, const char *table) {
    tl_save_store_desc desc;
    tl_save_store *store;
    char buf[64];
    size_t n = 0;
    memset(&desc, 0, sizeof desc);
    desc.root = f->root;
    desc.logger = f->quiet;
    store = tl_save_store_open(&desc, NULL);
    assert_non_null(store);
    assert_int_equal(tl_save_read(store, "threadlink.achievements", "table", buf, sizeof buf, &n), TL_SAVE_OK);
    assert_int_equal(n, strlen(table));
    assert_memory_equal(buf, table, n);
    tl_save_store_close(store);
}

/* Ready, the saves reachable, no achievements service, and the log naming the fault. */
static void assert_achievements_off(fixture *f, const char *fault) {
    void *service = NULL;
    tl_save_txn txn;
    char line[TL_LOG_LINE_MAX];
    assert_int_equal(tl_platform_state_of(f->p), TL_PLATFORM_STATE_READY);
    assert_false(tl_platform_account_service(tl_platform_primary_account(f->p), TL_PLATFORM_SERVICE_ACHIEVEMENTS,
                                             &service));
    assert_int_equal(tl_save_begin(saves(f), "slot-1", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "world", "w", 1), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    assert_int_equal(f->last_item, TL_PLATFORM_LOCAL_LOG_ACHIEVEMENTS_OFF);
    snprintf(line, sizeof line,
             "Platform: error: Local: achievements in save 'threadlink.achievements' are off: %s (the save is kept "
             "as it is; saves are unaffected)",
             fault);
    assert_string_equal(f->last, line);
}

/* A table this build cannot use turns achievements off, not the saves, and stays as it is (a
   newer build's table survives a rollback to this one). */
static void test_local_unusable_table_turns_achievements_off_not_saves(void **state) {
    fixture *f = (fixture *)*state;
    static const struct {
        const char *table, *fault;
    } cases[] = {
        {"tlach 1\na x 1 0\n", "line 2: expected \"<id> <current> <target> <0|1>\", numbers of 32 bits, one space apart"},
        {"tlach 2\na 1 2 0 extra\n", "written by a newer build (\"tlach 2\"; this build reads \"tlach 1\")"},
        {"tlach 1\nb 0 0 1\nA 0 0 1\n", "line 3: the id is not a save.h id (lower-case letters, digits, '.', '-', '_')"},
        {"tlach 1\na 0 0 1\na 0 0 1\n", "line 3: an id of an earlier line again"},
        {"tlach 1\na 0 0 2\n", "line 2: the last number is not 0 (locked) or 1 (unlocked)"},
        {"tlach 1\n\n", "line 2: no achievement id"},
        {"tlach1\n", "line 1: not \"tlach 1\""},
        {"", "line 1: not \"tlach 1\""},
    };
    size_t i;
    char path[192];
    FILE *slot;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        deploy_on_table(f, cases[i].table, strlen(cases[i].table));
        assert_achievements_off(f, cases[i].fault);
        tl_platform_destroy(f->p); /* and nothing was written over */
        f->p = NULL;
        assert_table_is(f, cases[i].table);
    }
    /* A save with no intact generation (both slots damaged on disk) likewise. */
    deploy_on_table(f, "tlach 1\na 0 0 1\n", 16);
    for (i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/threadlink.achievements/gen%u", f->root, (unsigned)i);
        assert_non_null(slot = fopen(path, "r+b"));
        assert_int_equal(fseek(slot, 40, SEEK_SET), 0);
        assert_int_equal(fputc('#', slot), '#');
        assert_int_equal(fclose(slot), 0);
    }
    f->last[0] = 0;
    local_platform(f, f->root, false, NULL);
    assert_achievements_off(f, tl_save_result_message(TL_SAVE_CORRUPT));
}

/* The parser takes the states unlock and progress make and nothing else, each id once (found by a
   sort, not by a comparison per pair of lines: 80,000 lines took 8 s before the platform was
   ready); lines as a player's editor may leave them ("\r\n", no end on the last). */
static void test_local_table_states_the_module_writes(void **state) {
    static const char *const accepted[] = {
        "tlach 1\n", "tlach 1\na 0 0 1\n", "tlach 1\r\na 0 0 1\r\nb 1 3 0", "tlach 1\na 3 10 0\nb 3 10 1\nc 10 10 1\n",
    };
    static const struct {
        const char *table, *fault;
    } refused[] = {
        {"tlach 1\na 20 10 0\n", "line 2: progress past its target"}, /* locked */
        {"tlach 1\na 0 0 0\n", "line 2: locked with its target reached"},
        {"tlach 1\na 10 10 0\n", "line 2: locked with its target reached"},
        {"tlach 1\na 11 10 1\n", "line 2: progress past its target"},
        {"tlach 1\na 0 0 1\nb 0 0 1\na 1 2 0\n", "line 4: an id of an earlier line again"},
        {"tlach 1\na 1 4294967296 0\n", "line 2: expected \"<id> <current> <target> <0|1>\", numbers of 32 bits, one space apart"},
    };
    fixture *f = (fixture *)*state;
    enum { LINES = 20000 };
    char *big = (char *)malloc(8 + (size_t)LINES * 16), *at = big;
    tl_platform_achievement a;
    size_t i;
    for (i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
        assert_int_equal(deploy_on_table(f, accepted[i], strlen(accepted[i])), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "c", &a), TL_PLATFORM_OK);
    assert_true(a.unlocked && a.current == 10 && a.target == 10);
    assert_int_equal(deploy_on_table(f, accepted[2], strlen(accepted[2])), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "b", &a), TL_PLATFORM_OK);
    assert_true(!a.unlocked && a.current == 1 && a.target == 3);
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        deploy_on_table(f, refused[i].table, strlen(refused[i].table));
        assert_achievements_off(f, refused[i].fault);
    }
    at += sprintf(at, "tlach 1\n");
    for (i = 0; i < LINES; i++) at += sprintf(at, "a%05u 0 0 1\n", (unsigned)i);
    assert_int_equal(deploy_on_table(f, big, (size_t)(at - big)), TL_PLATFORM_STATE_READY);
    assert_int_equal(tl_platform_achievement_get(achievements(f), "a19999", &a), TL_PLATFORM_OK);
    at += sprintf(at, "a00007 1 2 0\n"); /* an earlier id again, last */
    deploy_on_table(f, big, (size_t)(at - big));
    assert_achievements_off(f, "line 20002: an id of an earlier line again");
    free(big);
}

static void test_local_store_that_cannot_open_fails_initialization(void **state) {
    fixture *f = (fixture *)*state;
    char root[160];
    snprintf(root, sizeof root, "%s/missing/parent", f->dir);
    assert_int_equal(local_platform(f, root, false, NULL), TL_PLATFORM_STATE_FAILED);
    assert_int_equal(tl_platform_initialization_result(f->p), TL_PLATFORM_INITIALIZATION_FAILED);
    assert_int_equal(tl_platform_register_local(f->p, 0, NULL), TL_PLATFORM_INVALID_ARGUMENT);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_local_one_implicit_account_and_its_capabilities),
        T(test_local_saves_go_through_save_h_and_survive_the_platform),
        T(test_local_achievements_and_progress_persist),
        T(test_local_achievements_commit_atomically_at_every_stop),
        T(test_local_failed_commit_keeps_the_table_in_memory),
        T(test_local_result_convention),
        T(test_local_failed_unlock_is_locked_everywhere),
        T(test_local_simulated_losses),
        T(test_local_unusable_table_turns_achievements_off_not_saves),
        T(test_local_table_states_the_module_writes),
        T(test_local_store_that_cannot_open_fails_initialization),
    };
    return cmocka_run_group_tests_name("platform-local", tests, NULL, NULL);
}
