/* save.h with vault.h: a vault written into a transaction and read back in one call each, over
   the in-memory file system; the save's manifest checks the bytes the vault format has no
   checksum for. Uses the golden test vault of tests/vault/project. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "icons.h"
#include "vaults/every_vault.h"
#include <threadlink/save.h>
#include <threadlink/glue.h>

#include "memfs.h"

static void quiet(void *user, const tl_log_record *record) {
    (void)user;
    (void)record;
}

static tl_save_store *open_store(memfs *fs) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = "/saves"; /* created by the store when missing */
    desc.io = memfs_io(fs);
    desc.logger.sink = quiet;
    return tl_save_store_open(&desc, NULL);
}

static void test_save_vault_round_trip(void **state) {
    memfs fs;
    every_vault v, back;
    tl_save_txn txn;
    (void)state;
    memfs_init(&fs);
    tl_save_store *store = open_store(&fs);
    every_vault_init(&v);
    every_vault_set_Health(&v, 77);
    every_vault_set_Big(&v, -5000000000LL);
    every_vault_set_Precise(&v, 0.125);
    assert_int_equal(tl_save_begin(store, "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_glue_save_write_vault(&txn, "vault", &every_vault_desc, &v), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    tl_save_store_close(store);
    store = open_store(&fs);
    every_vault_init(&back);
    assert_int_equal(tl_glue_save_read_vault(store, "slot", "vault", &every_vault_desc, &back), TL_SAVE_OK);
    assert_int_equal(every_vault_get_Health(&back), 77);
    assert_int_equal(every_vault_get_Big(&back), -5000000000LL);
    assert_true(every_vault_get_Precise(&back) == 0.125);
    /* The stored bytes are exactly tl_vault_write's. */
    unsigned char expected[4096], got[4096];
    size_t n = 0, m = 0;
    assert_int_equal(tl_vault_write(&every_vault_desc, &v, expected, sizeof expected, &n), TL_VAULT_OK);
    assert_int_equal(tl_save_read(store, "slot", "vault", got, sizeof got, &m), TL_SAVE_OK);
    assert_int_equal(m, n);
    assert_memory_equal(got, expected, n);
    tl_save_store_close(store);
    memfs_free(&fs);
}

/* A vault whose bytes changed on disk is caught by the save's hash (the vault reader alone would
   take a flipped integer as a value); one that is not a vault is TL_SAVE_VAULT. Either way the
   vault read into is untouched. */
static void test_save_vault_damage_is_caught(void **state) {
    memfs fs;
    every_vault v, back, before;
    tl_save_txn txn;
    (void)state;
    memfs_init(&fs);
    tl_save_store *store = open_store(&fs);
    every_vault_init(&v);
    every_vault_set_Health(&v, 1234);
    assert_int_equal(tl_save_begin(store, "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_glue_save_write_vault(&txn, "vault", &every_vault_desc, &v), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "notes", "not a vault", 11), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    tl_save_store_close(store);

    int node = memfs_lookup(&fs, "/saves/slot/gen0");
    assert_true(node >= 0);
    unsigned char *bytes = fs.nodes[node].data;
    /* the first record's payload: header 16 bytes, record header 12: flip a bit of the value */
    size_t at = 0;
    for (; at + 4 <= fs.nodes[node].size; at++)
        if (memcmp(bytes + at, "TLVT", 4) == 0) break;
    unsigned char *copy = malloc(fs.nodes[node].size);
    memcpy(copy, bytes, fs.nodes[node].size);
    copy[at + 16 + 12] ^= 0x01;
    assert_true(memfs_put(&fs, "/saves/slot/gen0", copy, fs.nodes[node].size));
    free(copy);

    store = open_store(&fs);
    every_vault_init(&back);
    every_vault_set_Health(&back, 5);
    memcpy(&before, &back, sizeof back);
    tl_save_result r = tl_glue_save_read_vault(store, "slot", "vault", &every_vault_desc, &back);
    assert_int_equal(r, TL_SAVE_CORRUPT); /* no previous generation to fall back to */
    assert_memory_equal(&back, &before, sizeof back);
    tl_save_store_close(store);
    memfs_free(&fs);

    memfs_init(&fs);
    store = open_store(&fs);
    assert_int_equal(tl_save_begin(store, "slot", &txn), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_write(&txn, "notes", "not a vault", 11), TL_SAVE_OK);
    assert_int_equal(tl_save_txn_commit(&txn), TL_SAVE_OK);
    r = tl_glue_save_read_vault(store, "slot", "notes", &every_vault_desc, &back);
    assert_int_equal(r, TL_SAVE_VAULT);
    assert_int_equal(tl_save_last_native_error(store), TL_VAULT_ERROR_MAGIC);
    assert_memory_equal(&back, &before, sizeof back);
    tl_save_store_close(store);
    memfs_free(&fs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_vault_round_trip),
        cmocka_unit_test(test_save_vault_damage_is_caught),
    };
    return cmocka_run_group_tests_name("save-vault", tests, NULL, NULL);
}
