/* Crash consistency of save.h by fault injection (tests/save/memfs.h): a transaction of several
   files, and a delete, interrupted after their k-th backend operation for every k, once as if the
   process died there (what was written stays) and once as a power cut (what was not synced is
   lost, including the unsynced overwrites of a slot file, and once more as power cuts that tear
   those overwrites: some sectors written, the others not). After reopening, every save reads
   exactly its old or exactly its new generation, and a commit that returned TL_SAVE_OK is the new
   one even after the power cut. Also: the syncs a commit costs, slots that shrink, both slots
   damaged, the generation counter wrapping, and the migration of the version 1 layout
   (`current`, `previous`) interrupted at every operation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <threadlink/hash.h> /* tl_hash64, as the slot files use it */
#include <threadlink/save.h>

#include "memfs.h"

static void quiet(void *user, const tl_log_record *record) {
    (void)user;
    (void)record;
}

static tl_save_store *open_store(memfs *fs) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = "/saves";
    desc.io = memfs_io(fs);
    desc.logger.sink = quiet;
    return tl_save_store_open(&desc, NULL);
}

/* One generation of a save: file ids and their contents (NULL ends the list). */
typedef struct generation {
    const char *ids[4];
    const char *bytes[4];
} generation;

static const generation old_gen = { { "a", "b", "c", NULL }, { "old a", "old bb", "old ccc", NULL } };
static const generation new_gen = { { "a", "b", "d", NULL }, { "new a!", "new b", "new dddd", NULL } };
static const generation other_gen = { { "x", NULL }, { "other x", NULL } };

static tl_save_result commit(tl_save_store *store, const char *save, const generation *g, int64_t ts) {
    tl_save_txn txn;
    tl_save_result r = tl_save_begin(store, save, &txn);
    for (int i = 0; r == TL_SAVE_OK && g->ids[i]; i++)
        r = tl_save_txn_write(&txn, g->ids[i], g->bytes[i], strlen(g->bytes[i]));
    if (r == TL_SAVE_OK) r = tl_save_txn_set_timestamp(&txn, ts);
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    return r;
}

/* Whether the save reads back exactly as g: every file, no other file, the right count. */
static bool reads_as(tl_save_store *store, const char *save, const generation *g) {
    tl_save_info info;
    int count = 0;
    if (tl_save_stat(store, save, &info) != TL_SAVE_OK) return false;
    for (; g->ids[count]; count++) {
        char buf[64];
        size_t n = 0;
        if (tl_save_read(store, save, g->ids[count], buf, sizeof buf, &n) != TL_SAVE_OK) return false;
        if (n != strlen(g->bytes[count]) || memcmp(buf, g->bytes[count], n) != 0) return false;
    }
    return info.file_count == (uint32_t)count;
}

/* The same, and the generation is the one committed with timestamp ts (not a decoy of the same
   bytes). */
static bool reads_at(tl_save_store *store, const char *save, const generation *g, int64_t ts) {
    tl_save_info info;
    return reads_as(store, save, g) && tl_save_stat(store, save, &info) == TL_SAVE_OK &&
           info.timestamp == ts;
}

static bool is_gone(tl_save_store *store, const char *save) {
    tl_save_info info;
    char buf[8];
    size_t n;
    return tl_save_stat(store, save, &info) == TL_SAVE_NOT_FOUND &&
           tl_save_read(store, save, "a", buf, sizeof buf, &n) == TL_SAVE_NOT_FOUND;
}

/* A store with `slot` at generations 1 (new_gen's ids, as a decoy previous) and 2 (old_gen), and
   `other` at generation 1, committed through the store only (no test-side syncing). */
static void setup(memfs *fs, bool with_slot) {
    memfs_init(fs);
    assert_true(memfs_mkdir(fs, "/saves"));
    memfs_sync_all(fs); /* the root itself exists durably before the store is used */
    tl_save_store *store = open_store(fs);
    assert_non_null(store);
    if (with_slot) {
        assert_int_equal(commit(store, "slot", &new_gen, 1), TL_SAVE_OK);
        assert_int_equal(commit(store, "slot", &old_gen, 2), TL_SAVE_OK);
    }
    assert_int_equal(commit(store, "other", &other_gen, 3), TL_SAVE_OK);
    tl_save_store_close(store);
}

/* No leftovers: the save's folder holds its two slot files and nothing else. */
static void assert_clean(const memfs *fs) {
    char names[16][96];
    bool gen0 = false;
    size_t n = memfs_names(fs, "/saves/slot", names, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
        assert_true(strcmp(names[i], "gen0") == 0 || strcmp(names[i], "gen1") == 0);
        gen0 = gen0 || strcmp(names[i], "gen0") == 0;
    }
    assert_true(n == 0 || gen0);
    n = memfs_names(fs, "/saves", names, 16);
    for (size_t i = 0; i < n && i < 16; i++) assert_true(names[i][0] != '.');
}

typedef enum action { COMMIT_NEW, COMMIT_FIRST, DELETE, COMMIT_SHRINK, COMMIT_LINKED } action;

/* COMMIT_LINKED: both slot files also have a name outside the store's root (a hard-link backup,
   cp -al): the commit replaces the slot it writes instead of writing in place, and the backup
   keeps its bytes whatever happens. */
static const char *const backup_names[2] = { "/backup0", "/backup1" };
static unsigned char backup_bytes[2][1024];
static size_t backup_size[2];

static void link_backup(memfs *fs) {
    static const char *const slots[2] = { "/saves/slot/gen0", "/saves/slot/gen1" };
    for (int k = 0; k < 2; k++) {
        assert_true(memfs_link(fs, slots[k], backup_names[k]));
        const unsigned char *bytes = memfs_get(fs, backup_names[k], &backup_size[k]);
        assert_true(bytes && backup_size[k] <= sizeof backup_bytes[k]);
        memcpy(backup_bytes[k], bytes, backup_size[k]);
    }
}

static void assert_backup_kept(const memfs *fs, long k, int cut) {
    for (int i = 0; i < 2; i++) {
        size_t size = 0;
        const unsigned char *bytes = memfs_get(fs, backup_names[i], &size);
        if (!bytes || size != backup_size[i] || memcmp(bytes, backup_bytes[i], size) != 0)
            fail_msg("k=%ld cut=%d: the hard-linked backup %s was written", k, cut, backup_names[i]);
    }
}

/* How the interruption ends: the process dies (what was written stays), a power cut (what was
   not synced is lost), or a power cut that tears the unsynced writes with pattern cut - TORN. */
enum { DIES = -2, POWER_CUT = -1, TORN = 0 };

static const generation big_gen = {
    { "a", "b", "c", NULL },
    { "a big file that makes the slot long, long, long, long, long, long, long",
      "another one, as long, as long, as long, as long, as long, as long, as long",
      "and a third, so that a small generation leaves a tail of stale bytes", NULL } };

/* Runs the action with the process "dying" after operation k; returns whether it finished first.
   COMMIT_SHRINK commits new_gen over a slot that held the longer big_gen. */
static bool run_interrupted(action what, long k, int cut, long *ops_used) {
    memfs fs;
    setup(&fs, what != COMMIT_FIRST);
    tl_save_store *store = open_store(&fs);
    assert_non_null(store);
    if (what == COMMIT_SHRINK) { /* slot: big_gen in the older slot, old_gen the newest */
        assert_int_equal(commit(store, "slot", &big_gen, 3), TL_SAVE_OK);
        assert_int_equal(commit(store, "slot", &old_gen, 4), TL_SAVE_OK);
    }
    if (what == COMMIT_LINKED) link_backup(&fs);
    fs.ops = 0;
    fs.fail_after = k;
    tl_save_result r = what == DELETE ? tl_save_delete(store, "slot") : commit(store, "slot", &new_gen, 9);
    long used = fs.ops;
    tl_save_store_close(store);
    if (cut == POWER_CUT) memfs_power_cut(&fs);
    else if (cut >= TORN) memfs_power_cut_torn(&fs, cut - TORN);
    fs.fail_after = -1;

    store = open_store(&fs);
    assert_non_null(store);
    bool old_state = what == COMMIT_FIRST ? is_gone(store, "slot")
                                          : reads_at(store, "slot", &old_gen, what == COMMIT_SHRINK ? 4 : 2);
    bool new_state = what == DELETE ? is_gone(store, "slot") : reads_at(store, "slot", &new_gen, 9);
    if (!(old_state || new_state))
        fail_msg("k=%ld cut=%d action=%d: neither the old nor the new state", k, cut, what);
    if (r == TL_SAVE_OK && !new_state)
        fail_msg("k=%ld cut=%d action=%d: reported done, but the old state is back", k, cut, what);
    assert_true(reads_as(store, "other", &other_gen));
    assert_clean(&fs);
    /* The store goes on: a later commit publishes and reads back. */
    assert_int_equal(commit(store, "slot", &old_gen, 10), TL_SAVE_OK);
    assert_true(reads_at(store, "slot", &old_gen, 10));
    if (what == COMMIT_LINKED) assert_backup_kept(&fs, k, cut);
    tl_save_store_close(store);
    memfs_free(&fs);
    *ops_used = used;
    return r == TL_SAVE_OK;
}

static void every_k(action what, int cut) {
    long used = 0, k;
    for (k = 0; k < 1000; k++)
        if (run_interrupted(what, k, cut, &used) && used <= k) break;
    assert_true(k < 1000);
    /* Several operations each: the loop reached every point of the action. */
    assert_true(k >= (what == DELETE ? 4 : what == COMMIT_FIRST ? 8 : 3));
    print_message("action %d, cut %d: %ld interruption points\n", what, cut, k);
}

static void every_k_torn(action what) {
    for (int pattern = 0; pattern < TORN_PATTERNS; pattern++) every_k(what, TORN + pattern);
}

/* --- one operation fails, the rest work (a disk error): a failure reported is no change ---------- */

/* A commit of new_gen into a store that has just committed to slot once more (ts 4), so that no
   folder sync is due: the steady state. */
enum { COMMIT_STEADY = COMMIT_LINKED + 1, FIRST_READ };

/* The store as run_faulted's action finds it. */
static tl_save_store *prepare(memfs *fs, int what) {
    setup(fs, what != COMMIT_FIRST);
    tl_save_store *store = open_store(fs);
    assert_non_null(store);
    if (what == COMMIT_SHRINK) assert_int_equal(commit(store, "slot", &big_gen, 3), TL_SAVE_OK);
    if (what == COMMIT_SHRINK || what == COMMIT_STEADY)
        assert_int_equal(commit(store, "slot", &old_gen, 4), TL_SAVE_OK);
    if (what == COMMIT_LINKED) link_backup(fs);
    return store;
}

static bool in_old_state(tl_save_store *store, int what) {
    if (what == COMMIT_FIRST) return is_gone(store, "slot");
    return reads_at(store, "slot", &old_gen, what == COMMIT_SHRINK || what == COMMIT_STEADY ? 4 : 2);
}

static bool in_new_state(tl_save_store *store, int what) {
    if (what == FIRST_READ) return in_old_state(store, what); /* a read changes nothing */
    return what == DELETE ? is_gone(store, "slot") : reads_at(store, "slot", &new_gen, 9);
}

/* The action of run_faulted. A read that succeeds returns the published generation's bytes: a
   slot it could not read (an I/O error) is not a damaged one to fall back from. */
static tl_save_result act(tl_save_store *store, int what, long k) {
    char buf[64];
    size_t n = 0;
    tl_save_result r;
    if (what == DELETE) return tl_save_delete(store, "slot");
    if (what != FIRST_READ) return commit(store, "slot", &new_gen, 9);
    r = tl_save_read(store, "slot", "a", buf, sizeof buf, &n);
    if (r == TL_SAVE_OK && (n != 5 || memcmp(buf, "old a", 5) != 0))
        fail_msg("fault at operation %ld: a read returned %.*s, not the published generation", k + 1, (int)n, buf);
    return r;
}

/* A result reported is what reads return: the old state after a failure, the new one after OK. */
static void expect_reported(tl_save_store *store, int what, bool failed, long k, int cut, const char *when) {
    if (failed && !in_old_state(store, what))
        fail_msg("action %d, fault at operation %ld, cut %d: failure reported, but %s the save is not its old state",
                 what, k + 1, cut, when);
    if (!failed && !in_new_state(store, what))
        fail_msg("action %d, fault at operation %ld, cut %d: success reported, but %s the save is not its new state",
                 what, k + 1, cut, when);
}

/* The action with its operation k + 1 failing (EIO) and every other one working; cut: DIES (no
   cut, a reopen), POWER_CUT or TORN + pattern, after the store closed. Returns whether the action
   reported success; *ops_used: the operations it made. */
static bool run_faulted(int what, long k, int cut, long *ops_used) {
    memfs fs;
    tl_save_store *store = prepare(&fs, what);
    if (what == FIRST_READ) { /* a store that has not looked at the save yet */
        tl_save_store_close(store);
        store = open_store(&fs);
    }
    fs.ops = 0;
    fs.fail_only = k + 1;
    tl_save_result r = act(store, what, k);
    *ops_used = fs.ops;
    fs.fail_only = -1;
    bool failed = r != TL_SAVE_OK;
    expect_reported(store, what, failed, k, cut, "in the same store");
    tl_save_store_close(store);
    if (cut == POWER_CUT) memfs_power_cut(&fs);
    else if (cut >= TORN) memfs_power_cut_torn(&fs, cut - TORN);
    store = open_store(&fs);
    assert_non_null(store);
    expect_reported(store, what, failed, k, cut, cut == DIES ? "after a reopen" : "after a power cut");
    assert_true(reads_as(store, "other", &other_gen));
    assert_clean(&fs);
    assert_int_equal(commit(store, "slot", &old_gen, 10), TL_SAVE_OK);
    assert_true(reads_at(store, "slot", &old_gen, 10));
    if (what == COMMIT_LINKED) assert_backup_kept(&fs, k, cut);
    tl_save_store_close(store);
    memfs_free(&fs);
    return !failed;
}

/* Every operation of the action fails once, each run then checked with no cut, a power cut and
   the torn cuts. */
static void every_fault(int what) {
    long k, used = 0, failures = 0;
    for (k = 0; k < 1000; k++) {
        bool done = true;
        for (int cut = DIES; cut < TORN + TORN_PATTERNS; cut++) {
            done = run_faulted(what, k, cut, &used);
            if (!done && cut == DIES) failures++;
        }
        if (done && used <= k) break;
    }
    assert_true(k < 1000);
    assert_true(failures >= 3);
    print_message("action %d: %ld operations failed one at a time, %ld reported failures\n", what, k, failures);
}

static void test_save_crash_failed_commit_never_publishes(void **state) {
    (void)state;
    every_fault(COMMIT_NEW);
    every_fault(COMMIT_STEADY);
    every_fault(COMMIT_SHRINK);
    every_fault(COMMIT_LINKED);
}
static void test_save_crash_failed_first_commit_leaves_no_save(void **state) {
    (void)state;
    every_fault(COMMIT_FIRST);
}
static void test_save_crash_failed_delete_keeps_the_save(void **state) {
    (void)state;
    every_fault(DELETE);
}
static void test_save_crash_read_error_is_not_damage(void **state) {
    (void)state;
    every_fault(FIRST_READ);
}

static void test_save_crash_commit_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_NEW, DIES);
}
static void test_save_crash_commit_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_NEW, POWER_CUT);
}
static void test_save_crash_commit_torn_at_every_operation(void **state) {
    (void)state;
    every_k_torn(COMMIT_NEW);
}
static void test_save_crash_shrinking_commit_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_SHRINK, DIES);
    every_k(COMMIT_SHRINK, POWER_CUT);
    every_k_torn(COMMIT_SHRINK);
}
static void test_save_crash_linked_commit_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_LINKED, DIES);
    every_k(COMMIT_LINKED, POWER_CUT);
    every_k_torn(COMMIT_LINKED);
}
static void test_save_crash_first_commit_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_FIRST, DIES);
}
static void test_save_crash_first_commit_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_FIRST, POWER_CUT);
    every_k_torn(COMMIT_FIRST);
}
static void test_save_crash_delete_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(DELETE, DIES);
}
static void test_save_crash_delete_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(DELETE, POWER_CUT);
}

/* A commit that returned OK survives a power cut right after it (the folder sync after the rename). */
static void test_save_crash_committed_survives_power_cut(void **state) {
    memfs fs;
    (void)state;
    setup(&fs, true);
    tl_save_store *store = open_store(&fs);
    assert_int_equal(commit(store, "slot", &new_gen, 9), TL_SAVE_OK);
    memfs_power_cut(&fs);
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_at(store, "slot", &new_gen, 9));
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* ENOSPC from the backend: a clear result with the native error, the old generation intact. */
static void test_save_crash_disk_full_keeps_old_generation(void **state) {
    memfs fs;
    tl_save_txn txn;
    (void)state;
    setup(&fs, true);
    tl_save_store *store = open_store(&fs);
    fs.nospace = true;
    assert_int_equal(tl_save_begin(store, "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", "bytes", 5), TL_SAVE_OK); /* in memory */
    tl_save_result r = tl_save_txn_commit(&txn);
    assert_int_equal(r, TL_SAVE_NO_SPACE);
    assert_int_equal(tl_save_last_native_error(store), 28 /* ENOSPC on Linux */);
    assert_string_equal(tl_save_result_message(r), "no space left on the device");
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_STALE);
    fs.nospace = false;
    assert_true(reads_as(store, "slot", &old_gen));
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_as(store, "slot", &old_gen));
    assert_clean(&fs);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* A read the backend fails (EIO at each of a stat's operations in turn): TL_SAVE_IO with the
   backend's errno kept for tl_save_last_native_error (it was lost), and the save readable once
   the disk is. */
static void test_save_crash_read_error_keeps_native_error(void **state) {
    memfs fs;
    tl_save_info info;
    int failed = 0;
    (void)state;
    setup(&fs, true);
    for (long k = 1; k <= 16; k++) {
        tl_save_store *store = open_store(&fs);
        fs.fail_only = fs.ops + k;
        tl_save_result r = tl_save_stat(store, "slot", &info);
        fs.fail_only = -1;
        if (r != TL_SAVE_OK) { /* (a failed close of a file read whole loses nothing) */
            failed++;
            assert_int_equal(r, TL_SAVE_IO);
            assert_int_equal(tl_save_last_native_error(store), 5 /* EIO */);
        }
        assert_true(reads_as(store, "slot", &old_gen));
        tl_save_store_close(store);
    }
    assert_true(failed >= 3); /* the slots' opens and reads */
    memfs_free(&fs);
}

typedef struct log_count {
    int fallbacks, warnings;
} log_count;

static void count_log(void *user, const tl_log_record *record) {
    log_count *c = user;
    if (record->item == TL_SAVE_LOG_FALLBACK) c->fallbacks++;
    if (record->level == TL_LOG_LEVEL_WARNING) c->warnings++;
}

static tl_save_store *open_counted(memfs *fs, log_count *c) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = "/saves";
    desc.io = memfs_io(fs);
    desc.logger.sink = count_log;
    desc.logger.user = c;
    return tl_save_store_open(&desc, NULL);
}

/* The published generation, intact and not reported damaged. */
static void expect_intact_old(tl_save_store *store, const log_count *c) {
    tl_save_info info;
    assert_true(reads_at(store, "slot", &old_gen, 2));
    assert_int_equal(tl_save_stat(store, "slot", &info), TL_SAVE_OK);
    assert_false(info.from_previous);
    assert_int_equal(info.generation, 2);
    assert_int_equal(c->fallbacks, 0);
}

/* A full disk (memfs capacity): a commit larger than the room left fails with TL_SAVE_NO_SPACE,
   gives back what it took (a 10 KB save fits after it), and the published generation stays as it
   was, not reported damaged: in the store, after a reopen, after a power cut. */
static void test_save_crash_full_disk_gives_the_space_back(void **state) {
    static char big[64 * 1024], small[10 * 1024];
    memfs fs;
    log_count c = { 0, 0 };
    tl_save_txn txn;
    (void)state;
    memset(big, 'b', sizeof big);
    memset(small, 's', sizeof small);
    setup(&fs, true);
    tl_save_store *store = open_counted(&fs, &c);
    expect_intact_old(store, &c);
    fs.capacity = memfs_used(&fs) + 24 * 1024;
    assert_int_equal(tl_save_begin(store, "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", big, sizeof big), TL_SAVE_OK);
    tl_save_result r = tl_save_txn_commit(&txn);
    assert_int_equal(r, TL_SAVE_NO_SPACE);
    assert_int_equal(tl_save_last_native_error(store), 28 /* ENOSPC */);
    assert_true(memfs_used(&fs) + 20 * 1024 <= fs.capacity); /* the room is back */
    expect_intact_old(store, &c);
    assert_int_equal(tl_save_begin(store, "fresh", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", small, sizeof small), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    tl_save_store_close(store);
    store = open_counted(&fs, &c);
    expect_intact_old(store, &c);
    tl_save_store_close(store);
    memfs_power_cut(&fs);
    store = open_counted(&fs, &c);
    expect_intact_old(store, &c);
    assert_int_equal(c.warnings, 0);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* Syncs per commit: a first commit 3 (the slot, the folder, the root); the second 2 (it creates
   gen1: the folder once more); then 1 each; the first commit to a save after the store opens
   syncs the folder once more (2). */
static void test_save_crash_one_sync_per_commit(void **state) {
    memfs fs;
    (void)state;
    setup(&fs, false);
    tl_save_store *store = open_store(&fs);
    fs.syncs = 0;
    assert_int_equal(commit(store, "slot", &old_gen, 1), TL_SAVE_OK);
    assert_int_equal(fs.syncs, 3);
    for (int i = 0; i < 4; i++) {
        fs.syncs = 0;
        assert_int_equal(commit(store, "slot", i % 2 ? &old_gen : &new_gen, 2 + i), TL_SAVE_OK);
        assert_int_equal(fs.syncs, i == 0 ? 2 : 1);
    }
    tl_save_store_close(store);
    store = open_store(&fs);
    fs.syncs = 0;
    assert_int_equal(commit(store, "slot", &new_gen, 9), TL_SAVE_OK);
    assert_int_equal(fs.syncs, 2);
    fs.syncs = 0;
    assert_int_equal(commit(store, "slot", &old_gen, 10), TL_SAVE_OK);
    assert_int_equal(fs.syncs, 1);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* The error line of a steady commit whose operation k fails names that operation (a failed sync is
   "sync", not "write") and the errno's own message: EINTR is not "input/output error". */
static char error_line[TL_LOG_LINE_MAX];

static void keep_error(void *user, const tl_log_record *record) {
    (void)user;
    if (record->level == TL_LOG_LEVEL_ERROR) snprintf(error_line, sizeof error_line, "%s", record->line);
}

static void test_save_crash_failed_step_is_named_in_the_log(void **state) {
    static const char *const steps[][2] = {
        { "open_update", "open /saves/slot/gen1 failed" }, { "write_at", "write /saves/slot/gen1 failed" },
        { "sync", "sync /saves/slot/gen1 failed" },       { "close", "close /saves/slot/gen1 failed" } };
    int named = 0;
    (void)state;
    for (long k = 1; k < 20; k++) {
        memfs fs;
        tl_save_store_desc desc;
        setup(&fs, true);
        memset(&desc, 0, sizeof desc);
        desc.root = "/saves";
        desc.io = memfs_io(&fs);
        desc.logger.sink = keep_error;
        tl_save_store *store = tl_save_store_open(&desc, NULL);
        assert_int_equal(commit(store, "slot", &old_gen, 4), TL_SAVE_OK); /* steady: gen1 is next */
        error_line[0] = '\0';
        fs.fail_only = fs.ops + k;
        fs.fail_errno = 4; /* EINTR */
        fs.failed = NULL;
        tl_save_result r = commit(store, "slot", &new_gen, 9);
        const char *failed = fs.failed;
        fs.fail_only = -1;
        tl_save_store_close(store);
        memfs_free(&fs);
        if (r == TL_SAVE_OK) break;
        assert_int_equal(r, TL_SAVE_IO);
        assert_non_null(failed);
        assert_null(strstr(error_line, "input/output error"));
        assert_non_null(strstr(error_line, strerror(4)));
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            if (strcmp(failed, steps[i][0]) != 0) continue;
            if (!strstr(error_line, steps[i][1])) fail_msg("%s failed, the log says: %s", failed, error_line);
            named++;
        }
    }
    assert_int_equal(named, 4);
}

/* A steady-state commit (its one sync) that returned OK survives a power cut, plain or torn. */
static void test_save_crash_steady_commit_survives_power_cut(void **state) {
    (void)state;
    for (int cut = POWER_CUT; cut < TORN + TORN_PATTERNS; cut++) {
        memfs fs;
        setup(&fs, true);
        tl_save_store *store = open_store(&fs);
        assert_int_equal(commit(store, "slot", &big_gen, 8), TL_SAVE_OK);
        assert_int_equal(commit(store, "slot", &new_gen, 9), TL_SAVE_OK);
        tl_save_store_close(store);
        if (cut == POWER_CUT) memfs_power_cut(&fs);
        else memfs_power_cut_torn(&fs, cut - TORN);
        store = open_store(&fs);
        if (!reads_at(store, "slot", &new_gen, 9)) fail_msg("cut %d: the committed generation is lost", cut);
        tl_save_store_close(store);
        memfs_free(&fs);
    }
}

/* A slot file in the documented format (save.h's format note), built here independently. */
static size_t build_slot(unsigned char *out, uint64_t g, const generation *gen) {
    char manifest[512];
    size_t data = 0, n;
    int count = 0;
    for (; gen->ids[count]; count++) {
        memcpy(out + 32 + data, gen->bytes[count], strlen(gen->bytes[count]));
        data += strlen(gen->bytes[count]);
    }
    n = (size_t)snprintf(manifest, sizeof manifest, "tlsave 1\ngeneration %llu\ntimestamp 0\nfiles %d\n",
                         (unsigned long long)g, count);
    for (int i = 0, at = 0; i < count; at += (int)strlen(gen->bytes[i]), i++)
        n += (size_t)snprintf(manifest + n, sizeof manifest - n, "file %d %zu %016llx %s\n", at,
                              strlen(gen->bytes[i]),
                              (unsigned long long)tl_hash64(gen->bytes[i], strlen(gen->bytes[i]), 0), gen->ids[i]);
    n += (size_t)snprintf(manifest + n, sizeof manifest - n, "end %016llx\n", (unsigned long long)tl_hash64(manifest, n, 0));
    memcpy(out + 32 + data, manifest, n);
    unsigned char *t = out + 32 + data + n;
    for (int i = 0; i < 8; i++) {
        t[i] = (unsigned char)((uint64_t)data >> (8 * i));
        t[8 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    memcpy(t + 16, "TLSAVE01", 8);
    uint64_t body = data + n + 24;
    memcpy(out, "TLSAVE02", 8);
    for (int i = 0; i < 8; i++) {
        out[8 + i] = (unsigned char)(g >> (8 * i));
        out[16 + i] = (unsigned char)(body >> (8 * i));
    }
    unsigned char check_input[24 + 512];
    memcpy(check_input, out, 24);
    memcpy(check_input + 24, manifest, n);
    uint64_t check = tl_hash64(check_input, 24 + n, 0);
    for (int i = 0; i < 8; i++) out[24 + i] = (unsigned char)(check >> (8 * i));
    return 32 + (size_t)body;
}

/* Numbers compare modulo 2^64: after UINT64_MAX comes 1, which is newer. */
static void test_save_crash_generation_counter_wraps(void **state) {
    static const generation older = { { "a", NULL }, { "older", NULL } };
    static const generation newest = { { "a", NULL }, { "newest", NULL } };
    static const generation after = { { "a", NULL }, { "after the wrap", NULL } };
    unsigned char buf[1024];
    memfs fs;
    tl_save_info info;
    (void)state;
    setup(&fs, false);
    assert_true(memfs_mkdir(&fs, "/saves/slot"));
    assert_true(memfs_put(&fs, "/saves/slot/gen0", buf, build_slot(buf, UINT64_MAX - 1, &older)));
    assert_true(memfs_put(&fs, "/saves/slot/gen1", buf, build_slot(buf, UINT64_MAX, &newest)));
    assert_int_equal(tl_save_pack_verify(buf, build_slot(buf, UINT64_MAX, &newest), &info), TL_SAVE_OK);
    tl_save_store *store = open_store(&fs);
    assert_true(reads_as(store, "slot", &newest));
    assert_int_equal(tl_save_stat(store, "slot", &info), TL_SAVE_OK);
    assert_true(info.generation == UINT64_MAX);
    assert_int_equal(commit(store, "slot", &after, 1), TL_SAVE_OK);
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_as(store, "slot", &after));
    assert_int_equal(tl_save_stat(store, "slot", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 1); /* 0 is skipped */
    assert_false(info.from_previous);
    assert_int_equal(commit(store, "slot", &older, 2), TL_SAVE_OK);
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_as(store, "slot", &older));
    assert_int_equal(tl_save_stat(store, "slot", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 2);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* Both slots damaged: TL_SAVE_CORRUPT, nothing listed, and a commit starts the save again. */
static void test_save_crash_both_slots_damaged(void **state) {
    memfs fs;
    size_t size, n;
    char buf[16];
    (void)state;
    setup(&fs, true);
    for (int k = 0; k < 2; k++) {
        const char *path = k ? "/saves/slot/gen1" : "/saves/slot/gen0";
        unsigned char copy[1024];
        const unsigned char *bytes = memfs_get(&fs, path, &size);
        assert_non_null(bytes);
        memcpy(copy, bytes, size);
        copy[32 + 1] ^= 1; /* a byte of the first file */
        assert_true(memfs_put(&fs, path, copy, size));
    }
    tl_save_store *store = open_store(&fs);
    assert_int_equal(tl_save_read(store, "slot", "a", buf, sizeof buf, &n), TL_SAVE_CORRUPT);
    size_t count = 9;
    tl_save_info infos[4];
    assert_int_equal(tl_save_list(store, infos, 4, &count), TL_SAVE_OK);
    assert_int_equal(count, 1); /* "other" only */
    assert_int_equal(commit(store, "slot", &new_gen, 9), TL_SAVE_OK);
    tl_save_store_close(store);
    memfs_power_cut(&fs);
    store = open_store(&fs);
    assert_true(reads_at(store, "slot", &new_gen, 9));
    assert_int_equal(tl_save_stat(store, "slot", &infos[0]), TL_SAVE_OK);
    assert_int_equal(infos[0].generation, 3);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* A store of the version 1 layout: slot has `current` (old_gen, generation 2), `previous`
   (new_gen, 1) and an interrupted `next`; other is a save of the new layout. */
static void setup_legacy(memfs *fs) {
    unsigned char buf[1024];
    size_t n;
    setup(fs, false);
    assert_true(memfs_mkdir(fs, "/saves/slot"));
    memfs_sync_all(fs);
    n = build_slot(buf, 2, &old_gen); /* version 1 is a slot's body */
    assert_true(memfs_put(fs, "/saves/slot/current", buf + 32, n - 32));
    n = build_slot(buf, 1, &new_gen);
    assert_true(memfs_put(fs, "/saves/slot/previous", buf + 32, n - 32));
    assert_true(memfs_put(fs, "/saves/slot/next", "partial", 7));
}

/* Migration, interrupted at every operation of the open that does it, dying or losing power:
   the reopened store reads the old current generation, with its old previous behind it. */
static void test_save_crash_migration_at_every_operation(void **state) {
    (void)state;
    for (int cut = DIES; cut <= POWER_CUT; cut++) {
        long k;
        for (k = 0; k < 1000; k++) {
            memfs fs;
            setup_legacy(&fs);
            fs.ops = 0;
            fs.fail_after = k;
            tl_save_store *store = open_store(&fs);
            long used = fs.ops;
            bool opened = store != NULL;
            if (store) tl_save_store_close(store);
            if (cut == POWER_CUT) memfs_power_cut(&fs);
            fs.fail_after = -1;
            store = open_store(&fs);
            assert_non_null(store);
            if (!reads_as(store, "slot", &old_gen)) fail_msg("k=%ld cut=%d: not the current generation", k, cut);
            assert_true(reads_as(store, "other", &other_gen));
            assert_clean(&fs);
            tl_save_info info;
            assert_int_equal(tl_save_stat(store, "slot", &info), TL_SAVE_OK);
            assert_int_equal(info.generation, 2);
            tl_save_store_close(store);
            /* The previous generation came along: damage the current one, read the previous. */
            size_t size;
            unsigned char copy[1024];
            const unsigned char *bytes = memfs_get(&fs, "/saves/slot/gen0", &size);
            memcpy(copy, bytes, size);
            copy[40] ^= 1;
            memfs_put(&fs, "/saves/slot/gen0", copy, size);
            store = open_store(&fs);
            assert_true(reads_at(store, "slot", &new_gen, 0));
            tl_save_store_close(store);
            memfs_free(&fs);
            if (opened && used <= k) break;
        }
        assert_true(k > 8 && k < 1000);
        print_message("migration, cut %d: %ld interruption points\n", cut, k);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_crash_commit_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_commit_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_commit_torn_at_every_operation),
        cmocka_unit_test(test_save_crash_shrinking_commit_at_every_operation),
        cmocka_unit_test(test_save_crash_linked_commit_at_every_operation),
        cmocka_unit_test(test_save_crash_first_commit_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_first_commit_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_delete_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_delete_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_committed_survives_power_cut),
        cmocka_unit_test(test_save_crash_disk_full_keeps_old_generation),
        cmocka_unit_test(test_save_crash_read_error_keeps_native_error),
        cmocka_unit_test(test_save_crash_one_sync_per_commit),
        cmocka_unit_test(test_save_crash_failed_step_is_named_in_the_log),
        cmocka_unit_test(test_save_crash_steady_commit_survives_power_cut),
        cmocka_unit_test(test_save_crash_generation_counter_wraps),
        cmocka_unit_test(test_save_crash_both_slots_damaged),
        cmocka_unit_test(test_save_crash_migration_at_every_operation),
        cmocka_unit_test(test_save_crash_failed_commit_never_publishes),
        cmocka_unit_test(test_save_crash_failed_first_commit_leaves_no_save),
        cmocka_unit_test(test_save_crash_failed_delete_keeps_the_save),
        cmocka_unit_test(test_save_crash_read_error_is_not_damage),
        cmocka_unit_test(test_save_crash_full_disk_gives_the_space_back),
    };
    return cmocka_run_group_tests_name("save-crash", tests, NULL, NULL);
}
