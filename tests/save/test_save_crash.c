/* Crash consistency of save.h by fault injection (tests/save/memfs.h): a transaction of several
   files, and a delete, interrupted after their k-th backend operation for every k, once as if the
   process died there (what was written stays) and once as a power cut (what was not synced is
   lost). After reopening, every save reads exactly its old or exactly its new generation, and a
   commit that returned TL_SAVE_OK is the new one even after the power cut. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define TL_IMPLEMENTATION
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
    return tl_save_store_open(&desc);
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
    for (int i = 0; r.code == TL_SAVE_OK && g->ids[i]; i++)
        r = tl_save_txn_write(&txn, g->ids[i], g->bytes[i], strlen(g->bytes[i]));
    if (r.code == TL_SAVE_OK) r = tl_save_txn_set_timestamp(&txn, ts);
    if (r.code == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    return r;
}

/* Whether the save reads back exactly as g: every file, no other file, the right count. */
static bool reads_as(tl_save_store *store, const char *save, const generation *g) {
    tl_save_info info;
    int count = 0;
    if (tl_save_stat(store, save, &info).code != TL_SAVE_OK) return false;
    for (; g->ids[count]; count++) {
        char buf[64];
        size_t n = 0;
        if (tl_save_read(store, save, g->ids[count], buf, sizeof buf, &n).code != TL_SAVE_OK) return false;
        if (n != strlen(g->bytes[count]) || memcmp(buf, g->bytes[count], n) != 0) return false;
    }
    return info.file_count == (uint32_t)count;
}

static bool is_gone(tl_save_store *store, const char *save) {
    tl_save_info info;
    char buf[8];
    size_t n;
    return tl_save_stat(store, save, &info).code == TL_SAVE_NOT_FOUND &&
           tl_save_read(store, save, "a", buf, sizeof buf, &n).code == TL_SAVE_NOT_FOUND;
}

/* A store with `slot` at generations 1 (new_gen's ids, as a decoy previous) and 2 (old_gen), and
   `other` at generation 1, committed through the store only (no test-side syncing). */
static void setup(memfs *fs, bool with_slot) {
    memfs_init(fs);
    int native = 0;
    tl_save_io io = memfs_io(fs);
    assert_int_equal(io.mkdir(fs, "/saves", &native), TL_SAVE_IO_OK);
    memfs_sync_all(fs); /* the root itself exists durably before the store is used */
    tl_save_store *store = open_store(fs);
    assert_non_null(store);
    if (with_slot) {
        assert_int_equal(commit(store, "slot", &new_gen, 1).code, TL_SAVE_OK);
        assert_int_equal(commit(store, "slot", &old_gen, 2).code, TL_SAVE_OK);
    }
    assert_int_equal(commit(store, "other", &other_gen, 3).code, TL_SAVE_OK);
    tl_save_store_close(store);
}

/* No leftovers: the save's folder holds `current` and maybe `previous` (a commit stopped between
   its two renames has its previous generation made current again). */
static void assert_clean(const memfs *fs) {
    char names[16][96];
    bool current = false;
    size_t n = memfs_names(fs, "/saves/slot", names, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
        assert_true(strcmp(names[i], "current") == 0 || strcmp(names[i], "previous") == 0);
        current = current || strcmp(names[i], "current") == 0;
    }
    assert_true(n == 0 || current);
    n = memfs_names(fs, "/saves", names, 16);
    for (size_t i = 0; i < n && i < 16; i++) assert_true(names[i][0] != '.');
}

typedef enum action { COMMIT_NEW, COMMIT_FIRST, DELETE } action;

/* Runs the action with the process "dying" after operation k; returns whether it finished first. */
static bool run_interrupted(action what, long k, bool power_cut, long *ops_used) {
    memfs fs;
    setup(&fs, what != COMMIT_FIRST);
    tl_save_store *store = open_store(&fs);
    assert_non_null(store);
    fs.ops = 0;
    fs.fail_after = k;
    tl_save_result r = what == DELETE ? tl_save_delete(store, "slot") : commit(store, "slot", &new_gen, 9);
    long used = fs.ops;
    tl_save_store_close(store);
    if (power_cut) memfs_power_cut(&fs);
    fs.fail_after = -1;

    store = open_store(&fs);
    assert_non_null(store);
    bool old_state = what == COMMIT_FIRST ? is_gone(store, "slot") : reads_as(store, "slot", &old_gen);
    bool new_state = what == DELETE ? is_gone(store, "slot") : reads_as(store, "slot", &new_gen);
    if (!(old_state || new_state))
        fail_msg("k=%ld power_cut=%d action=%d: neither the old nor the new state", k, power_cut, what);
    if (r.code == TL_SAVE_OK && !new_state)
        fail_msg("k=%ld power_cut=%d action=%d: reported done, but the old state is back", k, power_cut, what);
    assert_true(reads_as(store, "other", &other_gen));
    assert_clean(&fs);
    /* The store goes on: a later commit publishes and reads back. */
    assert_int_equal(commit(store, "slot", &old_gen, 10).code, TL_SAVE_OK);
    assert_true(reads_as(store, "slot", &old_gen));
    tl_save_store_close(store);
    memfs_free(&fs);
    *ops_used = used;
    return r.code == TL_SAVE_OK;
}

static void every_k(action what, bool power_cut) {
    long used = 0, k;
    for (k = 0; k < 1000; k++)
        if (run_interrupted(what, k, power_cut, &used) && used <= k) break;
    assert_true(k < 1000);
    /* Several operations each: the loop reached every point of the action. */
    assert_true(k >= (what == DELETE ? 4 : 8));
    print_message("action %d, power cut %d: %ld interruption points\n", what, power_cut, k);
}

static void test_save_crash_commit_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_NEW, false);
}
static void test_save_crash_commit_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_NEW, true);
}
static void test_save_crash_first_commit_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_FIRST, false);
}
static void test_save_crash_first_commit_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(COMMIT_FIRST, true);
}
static void test_save_crash_delete_stopped_at_every_operation(void **state) {
    (void)state;
    every_k(DELETE, false);
}
static void test_save_crash_delete_power_cut_at_every_operation(void **state) {
    (void)state;
    every_k(DELETE, true);
}

/* A commit that returned OK survives a power cut right after it (the folder sync after the rename). */
static void test_save_crash_committed_survives_power_cut(void **state) {
    memfs fs;
    (void)state;
    setup(&fs, true);
    tl_save_store *store = open_store(&fs);
    assert_int_equal(commit(store, "slot", &new_gen, 9).code, TL_SAVE_OK);
    memfs_power_cut(&fs);
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_as(store, "slot", &new_gen));
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
    assert_int_equal(tl_save_begin(store, "slot", &txn).code, TL_SAVE_OK);
    tl_save_result r = tl_save_txn_write(&txn, "a", "bytes", 5);
    assert_int_equal(r.code, TL_SAVE_NO_SPACE);
    assert_int_equal(r.native_error, 28 /* ENOSPC on Linux */);
    assert_string_equal(r.message, "no space left on the device");
    assert_int_equal(tl_save_txn_write(&txn, "b", "x", 1).code, TL_SAVE_ABORTED);
    assert_int_equal(tl_save_txn_commit(&txn).code, TL_SAVE_ABORTED);
    fs.nospace = false;
    assert_true(reads_as(store, "slot", &old_gen));
    tl_save_store_close(store);
    store = open_store(&fs);
    assert_true(reads_as(store, "slot", &old_gen));
    assert_clean(&fs);
    tl_save_store_close(store);
    memfs_free(&fs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_crash_commit_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_commit_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_first_commit_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_first_commit_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_delete_stopped_at_every_operation),
        cmocka_unit_test(test_save_crash_delete_power_cut_at_every_operation),
        cmocka_unit_test(test_save_crash_committed_survives_power_cut),
        cmocka_unit_test(test_save_crash_disk_full_keeps_old_generation),
    };
    return cmocka_run_group_tests_name("save-crash", tests, NULL, NULL);
}
