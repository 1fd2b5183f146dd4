/* save.h on the POSIX backend in a build without -D_FILE_OFFSET_BITS=64 (save_32bit.sh builds it
 * for 32-bit ARM, where off_t and ino_t are then 32 bits): open a store in argv[1], commit two
 * generations of two saves, reopen it (opening lists the root and each save's folder), list,
 * read back, delete one, list again. Prints "ok" and exits 0 when everything matched. The user's
 * own system headers come first, as in a game's source file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#ifdef _FILE_OFFSET_BITS
#error "save_lfs.c is the build without _FILE_OFFSET_BITS"
#endif

#define TL_IMPLEMENTATION
#include <threadlink/save.h>

static int g_failures;

static void expect(const tl_save_store *s, int ok, const char *what, tl_save_result r) {
    if (ok) return;
    printf("FAIL: %s: %s (native error %d)\n", what, tl_save_result_message(r),
           tl_save_last_native_error(s));
    g_failures++;
}

static tl_save_store *open_store(const char *root) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = root;
    return tl_save_store_open(&desc, NULL);
}

static void commit(tl_save_store *s, const char *save, const char *text) {
    tl_save_txn txn;
    tl_save_result r = tl_save_begin(s, save, &txn);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "player", text, strlen(text));
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "world", save, strlen(save));
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    expect(s, r == TL_SAVE_OK, "commit", r);
}

static void check_read(tl_save_store *s, const char *save, const char *text) {
    char buf[64];
    size_t n = 0;
    tl_save_result r = tl_save_read(s, save, "player", buf, sizeof buf, &n);
    expect(s, r == TL_SAVE_OK && n == strlen(text) && memcmp(buf, text, n) == 0, "read", r);
}

static void check_list(tl_save_store *s, size_t want, const char *first, uint64_t generation) {
    tl_save_info info[4];
    size_t count = 0;
    tl_save_result r = tl_save_list(s, info, 4, &count);
    expect(s, r == TL_SAVE_OK && count == want, "list", r);
    if (r == TL_SAVE_OK && count == want)
        expect(s, strcmp(info[0].id, first) == 0 && info[0].generation == generation, "list order", r);
}

int main(int argc, char **argv) {
    tl_save_store *s;
    tl_save_result r;
    if (argc != 2) {
        fprintf(stderr, "usage: %s FOLDER\n", argv[0]);
        return 2;
    }
    if (!(s = open_store(argv[1]))) {
        printf("FAIL: the store does not open\n");
        return 1;
    }
    commit(s, "slot-1", "first");
    commit(s, "slot-1", "second");
    commit(s, "slot-2", "other");
    tl_save_store_close(s);
    if (!(s = open_store(argv[1]))) {
        printf("FAIL: the store does not open again\n");
        return 1;
    }
    check_list(s, 2, "slot-1", 2);
    check_read(s, "slot-1", "second");
    check_read(s, "slot-2", "other");
    r = tl_save_delete(s, "slot-2");
    expect(s, r == TL_SAVE_OK, "delete", r);
    check_list(s, 1, "slot-1", 2);
    tl_save_store_close(s);
    if (g_failures) return 1;
    printf("ok\n");
    return 0;
}
