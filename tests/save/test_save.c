/* Behaviour of save.h over the POSIX backend in a temporary folder: transactions, reads, metadata,
   listing, delete, ids, one transaction per save, fallback to the previous generation when the
   newest is damaged (truncated or edited manifest, wrong file hash), a slot that shrinks, cleanup
   and migration of the version 1 layout at open, and tl_save_pack_verify. Crash consistency is in test_save_crash.c and test_save_kill.c. */
#define _GNU_SOURCE /* mkdtemp, nftw, setresuid, setgroups */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <grp.h>
#include <sys/wait.h>

#include <cmocka.h>

#include <threadlink/save.h>

typedef struct fixture {
    char root[256];
    char dir[240];
    int warnings, errors;
    uint32_t last_item;
    char last[TL_LOG_LINE_MAX];
    tl_save_store *store;
} fixture;

static void capture(void *user, const tl_log_record *record) {
    fixture *f = (fixture *)user;
    if (record->level == TL_LOG_LEVEL_WARNING) f->warnings++;
    if (record->level == TL_LOG_LEVEL_ERROR) f->errors++;
    f->last_item = record->item;
    snprintf(f->last, sizeof f->last, "%s", record->line);
}

static tl_save_store *open_store(fixture *f) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = f->root;
    desc.logger.sink = capture;
    desc.logger.user = f;
    return tl_save_store_open(&desc, NULL);
}

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/tl-save-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->root, sizeof f->root, "%s/saves", f->dir);
    f->store = open_store(f);
    *state = f;
    return f->store ? 0 : -1;
}

static int teardown(void **state) {
    fixture *f = *state;
    char cmd[300];
    tl_save_store_close(f->store);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0) return -1;
    free(f);
    return 0;
}

static void reopen(fixture *f) {
    tl_save_store_close(f->store);
    f->store = open_store(f);
    assert_non_null(f->store);
}

static tl_save_result commit2(tl_save_store *s, const char *save, const char *a, const char *b, int64_t ts) {
    tl_save_txn txn;
    tl_save_result r = tl_save_begin(s, save, &txn);
    if (r == TL_SAVE_OK && a) r = tl_save_txn_write(&txn, "a", a, strlen(a));
    if (r == TL_SAVE_OK && b) r = tl_save_txn_write(&txn, "b", b, strlen(b));
    if (r == TL_SAVE_OK) r = tl_save_txn_set_timestamp(&txn, ts);
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    return r;
}

static void assert_reads(tl_save_store *s, const char *save, const char *file, const char *expected) {
    char buf[256];
    size_t n = 0;
    tl_save_result r = tl_save_read(s, save, file, buf, sizeof buf, &n);
    assert_int_equal(r, TL_SAVE_OK);
    assert_int_equal(n, strlen(expected));
    assert_memory_equal(buf, expected, n);
}

static bool exists(const fixture *f, const char *rel) {
    char p[400];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", f->root, rel);
    return stat(p, &st) == 0;
}

static void *slurp(const fixture *f, const char *rel, size_t *size) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->root, rel);
    FILE *fp = fopen(p, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *size = (size_t)ftell(fp);
    rewind(fp);
    unsigned char *data = malloc(*size + 1);
    assert_int_equal(fread(data, 1, *size, fp), *size);
    data[*size] = 0;
    fclose(fp);
    return data;
}

static void spill(const fixture *f, const char *rel, const void *data, size_t size) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->root, rel);
    FILE *fp = fopen(p, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, size, fp), size);
    fclose(fp);
}

/* --- the API ---------------------------------------------------------------------------------- */

static void test_save_round_trip_and_metadata(void **state) {
    fixture *f = *state;
    tl_save_info info;
    void *data = NULL;
    size_t n = 0;
    assert_true(exists(f, "")); /* the root folder was created by open */
    assert_int_equal(commit2(f->store, "slot-1", "alpha", "beta!", 1234), TL_SAVE_OK);
    assert_reads(f->store, "slot-1", "a", "alpha");
    assert_reads(f->store, "slot-1", "b", "beta!");
    assert_int_equal(tl_save_read_alloc(f->store, "slot-1", "b", &data, &n), TL_SAVE_OK);
    assert_int_equal(n, 5);
    assert_memory_equal(data, "beta!", 5);
    tl_save_free(data);
    assert_int_equal(tl_save_stat(f->store, "slot-1", &info), TL_SAVE_OK);
    assert_string_equal(info.id, "slot-1");
    assert_int_equal(info.generation, 1);
    assert_int_equal(info.size, 10);
    assert_int_equal(info.timestamp, 1234);
    assert_int_equal(info.file_count, 2);
    assert_false(info.from_previous);
    assert_int_equal(commit2(f->store, "slot-1", "gamma", NULL, -7), TL_SAVE_OK);
    reopen(f); /* read from disk, not from what the store remembers */
    assert_int_equal(tl_save_stat(f->store, "slot-1", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 2);
    assert_int_equal(info.timestamp, -7);
    assert_int_equal(info.file_count, 1);
    assert_reads(f->store, "slot-1", "a", "gamma");
    /* A transaction is a full replacement: b was not written, so it is gone. */
    assert_int_equal(tl_save_read(f->store, "slot-1", "b", NULL, 0, &n), TL_SAVE_NOT_FOUND);
    assert_int_equal(tl_save_read(f->store, "nosuch", "a", NULL, 0, &n), TL_SAVE_NOT_FOUND);
    assert_true(exists(f, "slot-1/gen0") && exists(f, "slot-1/gen1") && !exists(f, "slot-1/next"));
}

/* A save's folder deleted behind the store (a file manager, a sync client) while the game runs:
   the next commit makes the save again, as a first commit does (every later commit failed with
   "no such save or file" until the store was reopened), and a reopened store reads it. */
static void test_save_commit_after_the_folder_went_away(void **state) {
    fixture *f = *state;
    char cmd[400];
    tl_save_info info;
    assert_int_equal(commit2(f->store, "slot-1", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "slot-1", "two", NULL, 2), TL_SAVE_OK);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/slot-1'", f->root);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(commit2(f->store, "slot-1", "three", "3", 3), TL_SAVE_OK);
    assert_reads(f->store, "slot-1", "a", "three");
    assert_int_equal(commit2(f->store, "slot-1", "four", NULL, 4), TL_SAVE_OK); /* and on */
    assert_int_equal(tl_save_stat(f->store, "slot-1", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 4); /* numbering goes on */
    reopen(f);
    assert_reads(f->store, "slot-1", "a", "four");
    assert_int_equal(tl_save_stat(f->store, "slot-1", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 4);
    assert_int_equal(info.timestamp, 4);
}

static void test_save_read_small_buffer_reports_size(void **state) {
    fixture *f = *state;
    char buf[3];
    size_t n = 0;
    assert_int_equal(commit2(f->store, "s", "0123456789", "", 0), TL_SAVE_OK);
    tl_save_result r = tl_save_read(f->store, "s", "a", buf, sizeof buf, &n);
    assert_int_equal(r, TL_SAVE_TOO_SMALL);
    assert_int_equal(n, 10);
    assert_reads(f->store, "s", "b", ""); /* an empty file is a file */
    void *data = (void *)1;
    assert_int_equal(tl_save_read_alloc(f->store, "s", "zz", &data, &n), TL_SAVE_NOT_FOUND);
    assert_null(data);
}

static void test_save_same_file_twice_keeps_last(void **state) {
    fixture *f = *state;
    tl_save_txn txn;
    assert_int_equal(tl_save_begin(f->store, "s", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", "first", 5), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", "second", 6), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    reopen(f);
    assert_reads(f->store, "s", "a", "second");
}

static void test_save_one_transaction_per_save(void **state) {
    fixture *f = *state;
    tl_save_txn one, two, other;
    assert_int_equal(commit2(f->store, "s", "old", NULL, 0), TL_SAVE_OK);
    assert_int_equal(tl_save_begin(f->store, "s", &one), TL_SAVE_OK);
    tl_save_result r = tl_save_begin(f->store, "s", &two);
    assert_int_equal(r, TL_SAVE_BUSY);
    assert_int_equal(tl_save_delete(f->store, "s"), TL_SAVE_BUSY);
    assert_int_equal(tl_save_begin(f->store, "t", &other), TL_SAVE_OK); /* another save: fine */
    assert_int_equal(tl_save_txn_write(&one, "a", "new", 3), TL_SAVE_OK);
    assert_reads(f->store, "s", "a", "old"); /* the published generation is untouched meanwhile */
    assert_false(exists(f, "s/next"));      /* nothing is written before the commit */
    assert_int_equal(tl_save_txn_discard(&one), TL_SAVE_OK);
    assert_false(exists(f, "s/next"));
    assert_reads(f->store, "s", "a", "old");
    /* Ended transactions are stale; discarding one again is harmless. */
    assert_int_equal(tl_save_txn_write(&one, "a", "x", 1), TL_SAVE_STALE);
    assert_int_equal(tl_save_txn_commit(&one), TL_SAVE_STALE);
    assert_int_equal(tl_save_txn_discard(&one), TL_SAVE_OK);
    assert_int_equal(tl_save_begin(f->store, "s", &two), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&two), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&two), TL_SAVE_STALE);
    /* Closing the store with an open transaction discards it with a warning. */
    f->warnings = 0;
    tl_save_store_close(f->store);
    f->store = NULL;
    assert_int_equal(f->warnings, 1);
    assert_int_equal(f->last_item, TL_SAVE_LOG_TXN_LEFT_OPEN);
    assert_false(exists(f, "t/next"));
    f->store = open_store(f);
    assert_false(exists(f, "t")); /* never committed: nothing left */
}

static void test_save_list_sorted_and_bounded(void **state) {
    fixture *f = *state;
    tl_save_info infos[2];
    size_t count = 0;
    assert_int_equal(commit2(f->store, "zeta", "z", NULL, 3), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "alpha", "aa", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "mid", "mmm", NULL, 2), TL_SAVE_OK);
    assert_int_equal(tl_save_list(f->store, infos, 2, &count), TL_SAVE_OK);
    assert_int_equal(count, 3);
    assert_string_equal(infos[0].id, "alpha");
    assert_int_equal(infos[0].size, 2);
    assert_string_equal(infos[1].id, "mid");
    assert_int_equal(infos[1].timestamp, 2);
    assert_int_equal(tl_save_delete(f->store, "mid"), TL_SAVE_OK);
    reopen(f);
    assert_int_equal(tl_save_list(f->store, infos, 2, &count), TL_SAVE_OK);
    assert_int_equal(count, 2);
    assert_string_equal(infos[1].id, "zeta");
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 2);
}

static void test_save_delete_is_whole(void **state) {
    fixture *f = *state;
    size_t n;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 0), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 0), TL_SAVE_OK);
    assert_int_equal(tl_save_delete(f->store, "s"), TL_SAVE_OK);
    assert_false(exists(f, "s"));
    assert_false(exists(f, ".deleted.s"));
    assert_int_equal(tl_save_read(f->store, "s", "a", NULL, 0, &n), TL_SAVE_NOT_FOUND);
    assert_int_equal(tl_save_delete(f->store, "s"), TL_SAVE_NOT_FOUND);
    /* A new save of that id starts again at generation 1. */
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "three", NULL, 0), TL_SAVE_OK);
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 1);
}

static void test_save_ids_outside_the_alphabet_are_refused(void **state) {
    fixture *f = *state;
    static const char *const bad[] = {
        "", "..", "../x", "a/b", "/abs", "a..b", ".hidden", "end.", "Upper", "sp ace", "tab\t",
        "-dash", "_under", "con", "nul.txt", "com1", "lpt9.sav", "back\\slash", "é",
        "0123456789012345678901234567890123456789012345678901234567890123x", /* 65 */
    };
    static const char *const good[] = { "a", "slot-1", "slot_2.bak", "9", "console", "com10",
        "0123456789012345678901234567890123456789012345678901234567890123" };
    tl_save_txn txn;
    size_t n;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(tl_save_id_valid(bad[i]));
        f->errors = 0;
        tl_save_result r = tl_save_begin(f->store, bad[i], &txn);
        assert_int_equal(r, TL_SAVE_INVALID_ID);
        assert_int_equal(f->errors, 1); /* logged, naming the id */
        assert_int_equal(tl_save_read(f->store, bad[i], "a", NULL, 0, &n), TL_SAVE_INVALID_ID);
        assert_int_equal(tl_save_delete(f->store, bad[i]), TL_SAVE_INVALID_ID);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) assert_true(tl_save_id_valid(good[i]));
    assert_false(tl_save_id_valid(NULL));
    assert_int_equal(tl_save_begin(f->store, "ok", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "../x", "x", 1), TL_SAVE_INVALID_ID);
    assert_int_equal(tl_save_txn_write(&txn, "a/b", "x", 1), TL_SAVE_INVALID_ID);
    tl_save_txn_discard(&txn);
    /* Nothing was created outside the root, nor for the refused ids inside it. */
    char names[300];
    snprintf(names, sizeof names, "%s/x", f->dir);
    assert_int_equal(access(names, F_OK), -1);
    size_t count = 9;
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 0);
}

static void test_save_bad_arguments(void **state) {
    fixture *f = *state;
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.logger.sink = capture;
    desc.logger.user = f;
    f->errors = 0;
    assert_null(tl_save_store_open(&desc, NULL));
    assert_int_equal(f->errors, 1);
    assert_non_null(strstr(f->last, "desc.root is required"));
    char missing[300];
    snprintf(missing, sizeof missing, "%s/no/such/parent", f->dir);
    desc.root = missing;
    assert_null(tl_save_store_open(&desc, NULL));
    assert_non_null(strstr(f->last, "cannot create the folder"));
    tl_save_txn txn;
    assert_int_equal(tl_save_begin(NULL, "a", &txn), TL_SAVE_INVALID_ARGUMENT);
    assert_int_equal(tl_save_begin(f->store, "a", NULL), TL_SAVE_INVALID_ARGUMENT);
    memset(&txn, 0, sizeof txn);
    assert_int_equal(tl_save_txn_write(&txn, "a", "x", 1), TL_SAVE_INVALID_ARGUMENT);
    assert_int_equal(tl_save_txn_write(NULL, "a", "x", 1), TL_SAVE_INVALID_ARGUMENT);
    assert_int_equal(tl_save_begin(f->store, "a", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "f", NULL, 3), TL_SAVE_INVALID_ARGUMENT);
    tl_save_txn_discard(&txn);
    assert_string_equal(tl_save_result_message(TL_SAVE_BUSY), "a transaction is open on this save");
}

/* docs/errors.md: a failure's result and message are the header's, the store keeps it with its
   errno, the log line names what failed; a store that cannot open says why through its detail. */
static void test_save_result_convention(void **state) {
    fixture *f = *state;
    tl_save_store_desc desc;
    tl_save_open_detail why;
    char missing[300], buf[4];
    size_t n = 0;
    memset(&desc, 0, sizeof desc);
    desc.logger.sink = capture;
    desc.logger.user = f;
    snprintf(missing, sizeof missing, "%s/no/such/parent", f->dir);
    desc.root = missing;
    assert_null(tl_save_store_open(&desc, &why));
    assert_int_equal(why.result, TL_SAVE_NOT_FOUND);
    assert_int_equal(why.native_error, ENOENT);
    assert_non_null(strstr(f->last, missing));
    char native[32];
    snprintf(native, sizeof native, "(native error %d)", ENOENT);
    assert_non_null(strstr(f->last, native));

    assert_int_equal(commit2(f->store, "slot", "aa", NULL, 1), TL_SAVE_OK);
    assert_int_equal(tl_save_last_result(f->store), TL_SAVE_OK);
    assert_int_equal(tl_save_read(f->store, "slot", "zz", buf, sizeof buf, &n), TL_SAVE_NOT_FOUND);
    assert_int_equal(tl_save_last_result(f->store), TL_SAVE_NOT_FOUND);
    assert_int_equal(tl_save_last_native_error(f->store), 0);
    assert_string_equal(tl_save_result_message(TL_SAVE_NOT_FOUND), "no such save or file");
    assert_int_equal(f->last_item, TL_SAVE_LOG_NOT_FOUND);
    assert_non_null(strstr(f->last, "tl_save_read"));
    assert_non_null(strstr(f->last, "/slot/zz"));
    assert_int_equal(tl_save_read(f->store, "slot", "a", buf, 1, &n), TL_SAVE_TOO_SMALL);
    assert_int_equal(f->last_item, TL_SAVE_LOG_TOO_SMALL);
    assert_non_null(strstr(f->last, "2 bytes, the buffer holds 1"));
    tl_save_info info;
    assert_int_equal(tl_save_stat(f->store, "nothing", &info), TL_SAVE_NOT_FOUND);
    assert_non_null(strstr(f->last, "tl_save_stat"));
    assert_non_null(strstr(f->last, "/nothing"));
    assert_string_equal(tl_save_result_message(TL_SAVE_RESULT_END_), "unknown result");
    assert_string_equal(tl_save_result_message(TL_SAVE_OK), "ok");
    assert_int_equal(tl_save_last_result(NULL), TL_SAVE_INVALID_ARGUMENT);
}

/* --- damage: fallback to the previous generation ------------------------------------------------- */

/* Two generations of "s" (1 in gen0, 2 in gen1); then `edit` damages gen1 on disk; a fresh store
   must read the old generation with a warning and say so (an emptied slot too: it was written). */
static void expect_fallback(fixture *f, void (*edit)(unsigned char *data, size_t *size),
                            uint64_t third_generation) {
    size_t size;
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "good-a", "good-b", 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "newer-a", "newer-b", 2), TL_SAVE_OK);
    unsigned char *data = slurp(f, "s/gen1", &size);
    edit(data, &size);
    spill(f, "s/gen1", data, size);
    free(data);
    reopen(f);
    f->warnings = 0;
    assert_reads(f->store, "s", "a", "good-a");
    assert_reads(f->store, "s", "b", "good-b");
    assert_int_equal(f->warnings, 1);
    assert_int_equal(f->last_item, TL_SAVE_LOG_FALLBACK);
    assert_non_null(strstr(f->last, "save s: the newest generation is damaged"));
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_true(info.from_previous);
    assert_int_equal(info.generation, 1);
    /* The next commit keeps the good generation as its previous one, not the damaged one. */
    assert_int_equal(commit2(f->store, "s", "third", NULL, 3), TL_SAVE_OK);
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    /* Numbers follow the highest readable manifest: past a damaged generation whose manifest is
       intact (3), after the previous one when the damaged manifest cannot be read (2). */
    assert_int_equal(info.generation, third_generation);
    assert_true(exists(f, "s/gen0") && exists(f, "s/gen1") && !exists(f, "s/next"));
    data = slurp(f, "s/gen1", &size); /* the third went over the damaged slot: damage it again */
    data[0] ^= 1;
    spill(f, "s/gen1", data, size);
    free(data);
    reopen(f);
    assert_reads(f->store, "s", "a", "good-a");
}

static void truncate_manifest(unsigned char *data, size_t *size) { (void)data; *size -= 30; }
static void edit_manifest(unsigned char *data, size_t *size) {
    /* "generation 2" -> "generation 3": well-formed, but the manifest checksum no longer matches */
    unsigned char *g = (unsigned char *)strstr((char *)data + 32 + 10, "generation 2");
    (void)size;
    assert_non_null(g);
    g[11] = '3';
}
static void flip_file_byte(unsigned char *data, size_t *size) { (void)size; data[32 + 2] ^= 0x20; }
static void empty_file(unsigned char *data, size_t *size) { (void)data; *size = 0; }

static void test_save_truncated_manifest_falls_back(void **state) { expect_fallback(*state, truncate_manifest, 2); }
static void test_save_edited_manifest_falls_back(void **state) { expect_fallback(*state, edit_manifest, 2); }
static void test_save_wrong_file_hash_falls_back(void **state) { expect_fallback(*state, flip_file_byte, 3); }
static void test_save_empty_generation_falls_back(void **state) { expect_fallback(*state, empty_file, 2); }

/* A save's only slot truncated to 0 bytes by someone else: corrupt, not "no such save". */
static void test_save_emptied_only_slot_is_corrupt(void **state) {
    fixture *f = *state;
    size_t n;
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    spill(f, "s/gen0", "", 0);
    reopen(f);
    f->errors = 0;
    assert_int_equal(tl_save_read(f->store, "s", "a", NULL, 0, &n), TL_SAVE_CORRUPT);
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_CORRUPT);
    assert_true(f->errors >= 1);
    assert_non_null(strstr(f->last, "empty"));
    assert_true(exists(f, "s/gen0")); /* kept for the record: only a commit writes over it */
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    reopen(f);
    assert_reads(f->store, "s", "a", "two");
}

/* Three generations (gen0: 3, gen1: 2): the newest emptied falls back to generation 2, warned. */
static void test_save_emptied_newest_slot_is_not_a_silent_rollback(void **state) {
    fixture *f = *state;
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "three", NULL, 3), TL_SAVE_OK);
    spill(f, "s/gen0", "", 0);
    reopen(f);
    f->warnings = 0;
    assert_reads(f->store, "s", "a", "two");
    assert_int_equal(f->warnings, 1);
    assert_int_equal(f->last_item, TL_SAVE_LOG_FALLBACK);
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_true(info.from_previous);
    assert_int_equal(info.generation, 2);
}

static void test_save_no_intact_generation_is_corrupt(void **state) {
    fixture *f = *state;
    size_t size, n;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    for (int i = 0; i < 2; i++) {
        const char *name = i ? "s/gen1" : "s/gen0";
        unsigned char *data = slurp(f, name, &size);
        data[32 + 1] ^= 1; /* a byte of file a: headers and manifests intact */
        spill(f, name, data, size);
        free(data);
    }
    reopen(f);
    f->errors = 0;
    tl_save_result r = tl_save_read(f->store, "s", "a", NULL, 0, &n);
    assert_int_equal(r, TL_SAVE_CORRUPT);
    assert_string_equal(tl_save_result_message(r), "no intact generation of this save");
    assert_int_equal(f->errors, 1);
    assert_non_null(strstr(f->last, "a file's hash does not match"));
    size_t count = 9;
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 0);
    /* The damaged save can still be overwritten (and deleted). */
    assert_int_equal(commit2(f->store, "s", "fresh", NULL, 3), TL_SAVE_OK);
    reopen(f);
    assert_reads(f->store, "s", "a", "fresh");
    tl_save_info info;
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 3);
}

/* --- cleanup at open ---------------------------------------------------------------------------- */

/* A version 1 generation file from a slot file: its body, without the 32-byte header. */
static void slot_to_legacy(const fixture *f, const char *slot, const char *legacy) {
    size_t size;
    unsigned char *data = slurp(f, slot, &size);
    spill(f, legacy, data + 32, size - 32);
    free(data);
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->root, slot);
    assert_int_equal(unlink(p), 0);
}

static void test_save_open_cleans_interrupted_work(void **state) {
    fixture *f = *state;
    char p[400];
    size_t size;
    assert_int_equal(commit2(f->store, "kept", "k1", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "kept", "k2", NULL, 2), TL_SAVE_OK);
    tl_save_store_close(f->store);
    f->store = NULL;
    spill(f, "kept/next", "partial", 7);               /* a transaction interrupted */
    snprintf(p, sizeof p, "%s/fresh", f->root);        /* a first transaction interrupted */
    assert_int_equal(mkdir(p, 0777), 0);
    spill(f, "fresh/next", "partial", 7);
    spill(f, "fresh/gen1", "", 0);
    snprintf(p, sizeof p, "%s/.deleted.gone", f->root); /* a delete interrupted */
    assert_int_equal(mkdir(p, 0777), 0);
    spill(f, ".deleted.gone/gen0", "x", 1);
    spill(f, "not an id", "user file", 9);            /* not ours: left alone */
    f->store = open_store(f);
    assert_non_null(f->store);
    assert_false(exists(f, "kept/next"));
    assert_false(exists(f, "fresh"));
    assert_false(exists(f, ".deleted.gone"));
    assert_true(exists(f, "not an id"));
    assert_reads(f->store, "kept", "a", "k2");
    free(slurp(f, "not an id", &size));
}

/* Saves of the version 1 layout (`current`, `previous`; one stopped between its two renames, with
   `previous` only) become slots at open, and read back as they were, fallback included. */
static void test_save_open_migrates_version_1(void **state) {
    fixture *f = *state;
    tl_save_info info;
    assert_int_equal(commit2(f->store, "old", "o1", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "old", "o2", "b2", 2), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "halfway", "h1", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "halfway", "h2", NULL, 2), TL_SAVE_OK);
    tl_save_store_close(f->store);
    f->store = NULL;
    slot_to_legacy(f, "old/gen1", "old/current");
    slot_to_legacy(f, "old/gen0", "old/previous");
    spill(f, "old/next", "partial", 7);
    slot_to_legacy(f, "halfway/gen1", "halfway/previous");
    slot_to_legacy(f, "halfway/gen0", "halfway/unrelated");
    f->store = open_store(f);
    assert_non_null(f->store);
    assert_false(exists(f, "old/current") || exists(f, "old/previous") || exists(f, "old/next"));
    assert_true(exists(f, "old/gen0") && exists(f, "old/gen1"));
    assert_false(exists(f, "halfway/previous"));
    assert_reads(f->store, "old", "a", "o2");
    assert_reads(f->store, "old", "b", "b2");
    assert_reads(f->store, "halfway", "a", "h2");
    assert_int_equal(tl_save_stat(f->store, "old", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 2);
    assert_false(info.from_previous);
    /* The migrated previous generation is there behind it. */
    size_t size;
    unsigned char *data = slurp(f, "old/gen0", &size);
    data[33] ^= 1;
    spill(f, "old/gen0", data, size);
    free(data);
    reopen(f);
    assert_reads(f->store, "old", "a", "o1");
    assert_int_equal(commit2(f->store, "old", "o3", NULL, 3), TL_SAVE_OK);
    reopen(f);
    assert_reads(f->store, "old", "a", "o3");
    assert_int_equal(tl_save_stat(f->store, "old", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 3);
}

/* A slot that held a longer generation keeps its stale tail, which never counts: the header says
   where the generation ends. */
static void test_save_shrinking_slot_ignores_its_tail(void **state) {
    fixture *f = *state;
    static char big[4000];
    size_t size, small_size;
    tl_save_info info;
    memset(big, 'x', sizeof big - 1);
    assert_int_equal(commit2(f->store, "s", big, big, 1), TL_SAVE_OK);     /* gen0 */
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);  /* gen1 */
    assert_int_equal(commit2(f->store, "s", "three", NULL, 3), TL_SAVE_OK); /* gen0 again */
    unsigned char *data = slurp(f, "s/gen0", &size);
    assert_true(size > 2 * 3999);           /* the tail of generation 1 is still there */
    assert_int_equal(tl_save_pack_verify(data, size, &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 3);
    assert_int_equal(info.size, 5);
    small_size = 32;
    while (small_size < size && data[small_size] != 'x') small_size++;
    assert_int_equal(tl_save_pack_verify(data, small_size, NULL), TL_SAVE_OK); /* no tail */
    data[size - 1] ^= 1;                     /* damage in the tail: harmless */
    data[size - 30] ^= 1;
    spill(f, "s/gen0", data, size);
    free(data);
    reopen(f);
    f->warnings = 0;
    assert_reads(f->store, "s", "a", "three");
    assert_int_equal(f->warnings, 0);
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 3);
}

static void test_save_pack_verify_checks_a_copy(void **state) {
    fixture *f = *state;
    size_t size;
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "abc", "de", 77), TL_SAVE_OK);
    unsigned char *data = slurp(f, "s/gen0", &size);
    assert_int_equal(tl_save_pack_verify(data, size, &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 1);
    assert_int_equal(info.size, 5);
    assert_int_equal(info.timestamp, 77);
    assert_int_equal(info.file_count, 2);
    /* The manifest is readable text, sorted by file id. */
    assert_memory_equal(data, "TLSAVE02", 8);
    assert_non_null(strstr((char *)data + 32, "tlsave 1\ngeneration 1\ntimestamp 77\nfiles 2\nfile 0 3 "));
    for (size_t i = 0; i < size; i++) {
        data[i] ^= 0x01;
        assert_int_equal(tl_save_pack_verify(data, size, NULL), TL_SAVE_CORRUPT);
        data[i] ^= 0x01;
    }
    for (size_t cut = 0; cut < size; cut++)
        assert_int_equal(tl_save_pack_verify(data, cut, NULL), TL_SAVE_CORRUPT);
    free(data);
}

/* --- confinement: nothing beneath the root is reached through a link -------------------------- */

/* path under the fixture's folder (not the root): "outside/..." */
static void make_dir(const fixture *f, const char *rel) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->dir, rel);
    assert_int_equal(mkdir(p, 0777), 0);
}

static void put_outside_bytes(const fixture *f, const char *rel, const void *data, size_t size) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->dir, rel);
    FILE *fp = fopen(p, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, size, fp), size);
    fclose(fp);
}

static void put_outside(const fixture *f, const char *rel, const char *text) {
    put_outside_bytes(f, rel, text, strlen(text));
}

static bool outside_exists(const fixture *f, const char *rel) {
    char p[400];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", f->dir, rel);
    return lstat(p, &st) == 0;
}

/* root/name -> target (relative to the root) */
static void link_in_root(const fixture *f, const char *target, const char *name) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", f->root, name);
    assert_int_equal(symlink(target, p), 0);
}

/* A folder outside the root that looks like a save: the slot files of a real one and a note. */
static void fake_save_outside(fixture *f, const char *rel) {
    static const char *const slots[2] = { "gen0", "gen1" };
    char p[200];
    size_t size;
    assert_int_equal(commit2(f->store, "model", "m1", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "model", "m2", NULL, 2), TL_SAVE_OK);
    make_dir(f, rel);
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "model/%s", slots[k]);
        unsigned char *data = slurp(f, p, &size);
        snprintf(p, sizeof p, "%s/%s", rel, slots[k]);
        put_outside_bytes(f, p, data, size);
        free(data);
    }
    snprintf(p, sizeof p, "%s/notes.txt", rel);
    put_outside(f, p, "the player's own notes");
}

static void test_save_delete_never_follows_a_linked_save_folder(void **state) {
    fixture *f = *state;
    make_dir(f, "outside");
    fake_save_outside(f, "outside/album");
    link_in_root(f, "../outside/album", "album");
    reopen(f);
    f->warnings = f->errors = 0;
    tl_save_result r = tl_save_delete(f->store, "album");
    assert_int_not_equal(r, TL_SAVE_OK);
    assert_true(f->warnings + f->errors >= 1); /* logged */
    assert_true(outside_exists(f, "outside/album/gen0"));
    assert_true(outside_exists(f, "outside/album/gen1"));
    assert_true(outside_exists(f, "outside/album/notes.txt"));
    assert_true(exists(f, "album")); /* the link itself is left where it was */
    assert_false(exists(f, ".deleted.album"));
}

static void test_save_open_never_deletes_through_links(void **state) {
    fixture *f = *state;
    make_dir(f, "outside");
    make_dir(f, "outside/photos");
    put_outside(f, "outside/photos/next", "a file named like the store's own");
    put_outside(f, "outside/photos/holiday.jpg", "pixels");
    make_dir(f, "outside/docs");
    put_outside(f, "outside/docs/gen0", "not a save");
    put_outside(f, "outside/docs/report.txt", "words");
    link_in_root(f, "../outside/photos", "photos");
    link_in_root(f, "../outside/docs", ".deleted.x");
    f->warnings = 0;
    reopen(f);
    assert_true(f->warnings >= 2); /* each link is logged, not followed */
    assert_true(outside_exists(f, "outside/photos/next"));
    assert_true(outside_exists(f, "outside/photos/holiday.jpg"));
    assert_true(outside_exists(f, "outside/docs/gen0"));
    assert_true(outside_exists(f, "outside/docs/report.txt"));
    assert_true(exists(f, "photos") && exists(f, ".deleted.x")); /* the links stay */
    size_t count = 9, n;
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 0);
    assert_int_not_equal(tl_save_read(f->store, "photos", "a", NULL, 0, &n), TL_SAVE_OK);
}

static void test_save_commit_never_writes_through_a_linked_save_folder(void **state) {
    fixture *f = *state;
    make_dir(f, "outside");
    make_dir(f, "outside/linked");
    link_in_root(f, "../outside/linked", "linked");
    reopen(f);
    tl_save_result r = commit2(f->store, "linked", "a", "b", 1);
    assert_int_not_equal(r, TL_SAVE_OK);
    assert_false(outside_exists(f, "outside/linked/gen0"));
    assert_false(outside_exists(f, "outside/linked/gen1"));
    assert_false(outside_exists(f, "outside/linked/next"));
    /* A slot file that is a link (in a real save folder) is not written through either. */
    assert_int_equal(commit2(f->store, "real", "one", NULL, 1), TL_SAVE_OK);
    put_outside(f, "outside/target", "keep me");
    char p[400];
    snprintf(p, sizeof p, "%s/real/gen1", f->root); /* the slot the next commit writes */
    assert_int_equal(symlink("../../outside/target", p), 0);
    reopen(f);
    r = commit2(f->store, "real", "two", NULL, 2);
    assert_int_not_equal(r, TL_SAVE_OK);
    size_t size;
    char full[400];
    snprintf(full, sizeof full, "%s/outside/target", f->dir);
    FILE *fp = fopen(full, "rb");
    assert_non_null(fp);
    char buf[32] = { 0 };
    size = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    assert_int_equal(size, 7);
    assert_string_equal(buf, "keep me");
    assert_reads(f->store, "real", "a", "one");
}

/* --- hard links: a slot file with other names is replaced, never written in place ------------------- */

/* The bytes of a file under the fixture's folder (not the root). */
static void *slurp_outside(const fixture *f, const char *rel, size_t *size) {
    char p[400];
    snprintf(p, sizeof p, "../%s", rel);
    return slurp(f, p, size); /* slurp is relative to the root, one level down */
}

static void hard_link(const fixture *f, const char *from_in_root, const char *to_outside) {
    char from[400], to[400];
    snprintf(from, sizeof from, "%s/%s", f->root, from_in_root);
    snprintf(to, sizeof to, "%s/%s", f->dir, to_outside);
    assert_int_equal(link(from, to), 0);
}

static ino_t inode_of(const fixture *f, const char *rel) {
    char p[400];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", f->root, rel);
    assert_int_equal(stat(p, &st), 0);
    return st.st_ino;
}

/* A backup of the saves made with hard links (cp -al, rsnapshot) keeps the generation it was
   taken at, whatever the game commits after it; the store reads its own newest one. Once each
   slot has been replaced, commits write in place again (the slot keeps its inode). */
static void test_save_hard_linked_backup_stays_as_it_was(void **state) {
    fixture *f = *state;
    size_t size[2], now;
    void *before[2];
    static const char *const slots[2] = { "backup/gen0", "backup/gen1" };
    assert_int_equal(commit2(f->store, "s", "A", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "B", NULL, 2), TL_SAVE_OK);
    make_dir(f, "backup");
    hard_link(f, "s/gen0", slots[0]);
    hard_link(f, "s/gen1", slots[1]);
    for (int k = 0; k < 2; k++) before[k] = slurp_outside(f, slots[k], &size[k]);
    assert_int_equal(commit2(f->store, "s", "C", NULL, 3), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "D", NULL, 4), TL_SAVE_OK);
    for (int k = 0; k < 2; k++) {
        void *after = slurp_outside(f, slots[k], &now);
        assert_int_equal(now, size[k]);
        assert_memory_equal(after, before[k], now);
        free(after);
        free(before[k]);
    }
    assert_reads(f->store, "s", "a", "D");
    reopen(f);
    assert_reads(f->store, "s", "a", "D");
    ino_t slot = inode_of(f, "s/gen0");
    assert_int_equal(commit2(f->store, "s", "E", NULL, 5), TL_SAVE_OK);
    assert_int_equal(inode_of(f, "s/gen0"), slot);
    assert_reads(f->store, "s", "a", "E");
}

/* A slot that is a hard link to a file outside the root (the one the next commit writes): the
   commit puts a new slot file in its place and the outside file keeps its bytes. */
static void test_save_slot_linked_outside_the_root_is_not_written(void **state) {
    fixture *f = *state;
    char p[400];
    size_t size;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    make_dir(f, "outside");
    put_outside(f, "outside/notes.txt", "precious notes");
    snprintf(p, sizeof p, "%s/s/gen0", f->root); /* the older slot: the next commit's */
    assert_int_equal(unlink(p), 0);
    char target[400];
    snprintf(target, sizeof target, "%s/outside/notes.txt", f->dir);
    assert_int_equal(link(target, p), 0);
    reopen(f);
    assert_int_equal(commit2(f->store, "s", "three", NULL, 3), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "four", NULL, 4), TL_SAVE_OK);
    char *notes = slurp_outside(f, "outside/notes.txt", &size);
    assert_string_equal(notes, "precious notes");
    free(notes);
    assert_false(exists(f, "s/next"));
    assert_reads(f->store, "s", "a", "four");
    reopen(f);
    assert_reads(f->store, "s", "a", "four");
}

/* A slot that is a folder (a sync client's conflict copy, a hostile tree) is TL_SAVE_FOREIGN for
   commits, as a FIFO or a link is, not an input/output error. It held the older generation here:
   reads return the newest, and neither the log nor tl_save_info claims a fallback. */
static void test_save_folder_slot_is_foreign_and_no_fallback(void **state) {
    fixture *f = *state;
    char p[400];
    tl_save_info info;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    snprintf(p, sizeof p, "%s/s/gen0", f->root);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(mkdir(p, 0777), 0);
    reopen(f);
    f->warnings = 0;
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_int_equal(info.generation, 2);
    assert_false(info.from_previous);
    assert_int_equal(f->warnings, 1);
    assert_int_not_equal(f->last_item, TL_SAVE_LOG_FALLBACK);
    assert_non_null(strstr(f->last, "a slot is not a regular file"));
    assert_null(strstr(f->last, "damaged"));
    assert_reads(f->store, "s", "a", "two");
    assert_int_equal(commit2(f->store, "s", "three", NULL, 3), TL_SAVE_FOREIGN);
    assert_int_equal(tl_save_last_native_error(f->store), EISDIR);
    assert_true(exists(f, "s/gen0")); /* left alone */
    assert_reads(f->store, "s", "a", "two");
}

/* The store removes only what it creates: a save folder's other files stay. */
static void test_save_never_deletes_what_it_did_not_create(void **state) {
    fixture *f = *state;
    size_t n;
    assert_int_equal(commit2(f->store, "mine", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "mine", "two", NULL, 2), TL_SAVE_OK);
    spill(f, "mine/notes.txt", "keep", 4);
    assert_int_equal(tl_save_delete(f->store, "mine"), TL_SAVE_OK);
    assert_int_equal(tl_save_read(f->store, "mine", "a", NULL, 0, &n), TL_SAVE_NOT_FOUND);
    assert_true(exists(f, "mine/notes.txt"));
    assert_false(exists(f, "mine/gen0") || exists(f, "mine/gen1"));
    assert_false(exists(f, ".deleted.mine"));
    /* An interrupted delete's folder and a folder with no generation keep what is not the store's. */
    char p[400];
    snprintf(p, sizeof p, "%s/.deleted.old", f->root);
    assert_int_equal(mkdir(p, 0777), 0);
    spill(f, ".deleted.old/gen0", "x", 1);
    spill(f, ".deleted.old/diary.txt", "dear diary", 10);
    reopen(f);
    assert_false(exists(f, ".deleted.old/gen0"));
    assert_true(exists(f, ".deleted.old/diary.txt"));
    assert_true(exists(f, "mine/notes.txt"));
    /* And the id can be saved again beside the note. */
    assert_int_equal(commit2(f->store, "mine", "three", NULL, 3), TL_SAVE_OK);
    reopen(f);
    assert_reads(f->store, "mine", "a", "three");
    assert_true(exists(f, "mine/notes.txt"));
}

/* --- special files named like the store's: never opened in a way that blocks ------------------------- */

static void stop_hanging(int sig) {
    (void)sig;
    static const char msg[] = "test_save: blocked on a FIFO (alarm)\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(2);
}

/* A FIFO where a slot is: reads, open and commits return (within the alarm) and leave it be. */
static void test_save_fifo_named_like_a_slot_never_blocks(void **state) {
    fixture *f = *state;
    char p[400];
    tl_save_info info;
    size_t n;
    signal(SIGALRM, stop_hanging);
    alarm(20);
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "two", NULL, 2), TL_SAVE_OK);
    snprintf(p, sizeof p, "%s/s/gen1", f->root);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(mkfifo(p, 0644), 0);
    snprintf(p, sizeof p, "%s/lone", f->root); /* a folder whose only slot is a FIFO */
    assert_int_equal(mkdir(p, 0777), 0);
    snprintf(p, sizeof p, "%s/lone/gen1", f->root);
    assert_int_equal(mkfifo(p, 0644), 0);
    f->warnings = 0;
    reopen(f); /* the cleanup looks into lone */
    assert_reads(f->store, "s", "a", "one"); /* the other slot's generation */
    assert_int_equal(tl_save_stat(f->store, "s", &info), TL_SAVE_OK);
    assert_false(info.from_previous); /* what a FIFO held is unknown: no fallback is claimed */
    assert_true(f->warnings >= 1);
    assert_int_not_equal(tl_save_read(f->store, "lone", "a", NULL, 0, &n), TL_SAVE_OK);
    assert_int_equal(commit2(f->store, "s", "three", NULL, 3), TL_SAVE_FOREIGN);
    assert_reads(f->store, "s", "a", "one");
    size_t count = 9;
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 1);
    assert_true(exists(f, "s/gen1") && exists(f, "lone/gen1")); /* not the store's: left there */
    alarm(0);
}

/* A player's own file in the save folder (readme.txt) is no save: listed without it, left alone,
   and the warning says what it is (a file where a save's folder belongs), not "a link, a FIFO". */
static void test_save_plain_file_in_the_root_is_said_as_such(void **state) {
    fixture *f = *state;
    char p[400];
    size_t count = 9;
    FILE *fp;
    assert_int_equal(commit2(f->store, "s", "one", NULL, 1), TL_SAVE_OK);
    snprintf(p, sizeof p, "%s/readme.txt", f->root);
    fp = fopen(p, "w");
    assert_non_null(fp);
    fputs("notes\n", fp);
    fclose(fp);
    reopen(f);
    f->warnings = 0;
    assert_int_equal(tl_save_list(f->store, NULL, 0, &count), TL_SAVE_OK);
    assert_int_equal(count, 1);
    assert_int_equal(f->warnings, 1);
    assert_non_null(strstr(f->last, "readme.txt: not what the store keeps there (a file where its folder belongs"));
    assert_true(exists(f, "readme.txt"));
}

/* In a child process (as "nobody" when the tests run as root, whom permissions do not stop): a
   store on a folder the game may read but not write. A commit fails as DENIED with the errno and a
   line that says so, not as an input/output error (which reads as a failing disk), and the store
   keeps reading what is there. Returns 0, or the number of the check that failed. */
static int commit_into_read_only_folder(const char *root) {
    tl_save_store_desc desc;
    tl_save_store *store;
    tl_save_txn txn;
    fixture f;
    char buf[8];
    size_t n = 0;
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
                           setresuid(65534, 65534, 65534) != 0))
        return 77; /* root that may not become another user (a container without CAP_SETUID) */
    memset(&f, 0, sizeof f);
    memset(&desc, 0, sizeof desc);
    desc.root = root;
    desc.logger.sink = capture;
    desc.logger.user = &f;
    if (!(store = tl_save_store_open(&desc, NULL))) return 2;
    if (tl_save_read(store, "kept", "a", buf, sizeof buf, &n) != TL_SAVE_OK || n != 4) return 3;
    if (tl_save_begin(store, "slot", &txn) != TL_SAVE_OK) return 4;
    if (tl_save_txn_write(&txn, "a", "data", 4) != TL_SAVE_OK) return 5;
    if (tl_save_txn_commit(&txn) != TL_SAVE_DENIED) return 6;
    if (tl_save_last_native_error(store) != EACCES) return 7;
    if (!strstr(f.last, "permission denied")) return 8;
    if (tl_save_read(store, "kept", "a", buf, sizeof buf, &n) != TL_SAVE_OK) return 9;
    tl_save_store_close(store);
    return 0;
}

static void test_save_read_only_folder_is_denied(void **state) {
    fixture *f = *state;
    tl_save_txn txn;
    pid_t child;
    int status = -1;
    char cmd[600];
    assert_int_equal(tl_save_begin(f->store, "kept", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "a", "kept", 4), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    snprintf(cmd, sizeof cmd, "chmod -R a+rX '%s' && chmod 0555 '%s'", f->dir, f->root); /* any umask */
    assert_int_equal(system(cmd), 0);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) _exit(commit_into_read_only_folder(f->root));
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_int_equal(chmod(f->root, 0755), 0);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_save_round_trip_and_metadata, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_commit_after_the_folder_went_away, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_read_small_buffer_reports_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_same_file_twice_keeps_last, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_one_transaction_per_save, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_list_sorted_and_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_delete_is_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_ids_outside_the_alphabet_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_bad_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_result_convention, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_truncated_manifest_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_edited_manifest_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_wrong_file_hash_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_empty_generation_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_no_intact_generation_is_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_emptied_only_slot_is_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_emptied_newest_slot_is_not_a_silent_rollback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_open_cleans_interrupted_work, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_open_migrates_version_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_shrinking_slot_ignores_its_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_pack_verify_checks_a_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_delete_never_follows_a_linked_save_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_open_never_deletes_through_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_commit_never_writes_through_a_linked_save_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_hard_linked_backup_stays_as_it_was, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_slot_linked_outside_the_root_is_not_written, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_folder_slot_is_foreign_and_no_fallback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_never_deletes_what_it_did_not_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_fifo_named_like_a_slot_never_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_plain_file_in_the_root_is_said_as_such, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_read_only_folder_is_denied, setup, teardown),
    };
    return cmocka_run_group_tests_name("save", tests, NULL, NULL);
}
