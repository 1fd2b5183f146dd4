/* A runtime built without TL_CONTENT_LZ4 / TL_CONTENT_ZSTD: compressed directories are refused
 * when registered, with an error naming the archive, the codec and the macro; uncompressed and
 * flat directories work; the content test every cross target runs, it also checks where small raw
 * entries come from there. argv[1] is the fixture project (make_fixture.sh). Included in the order
 * content.h's usage block shows (include, define, include), so that order is linked somewhere. */
#include <threadlink/content.h>
#define TL_IMPLEMENTATION
#include <threadlink/content.h>
#include "content_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static const char *g_root;

static bool try_register(const char *name) {
    char dir[600];
    tl_content_desc desc;
    tl_content *c;
    bool ok;
    tl_scope s;
    snprintf(dir, sizeof dir, "%s/out/%s", g_root, name);
    memset(&desc, 0, sizeof desc);
    desc.logger = capture_logger();
    log_reset();
    c = tl_content_create(&desc);
    ok = tl_content_dir_valid(tl_content_register_dir(c, dir));
    if (ok) {
        s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        assert_true(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob7")));
    } else {
        assert_int_equal(tl_content_live_assets(c), 0);
    }
    tl_content_shutdown(c);
    return ok;
}

static void test_content_nocodec_lz4_refused(void **state) {
    (void)state;
    assert_false(try_register("Main"));
    assert_true(log_has("compressed with lz4, and this runtime was built without lz4 (define TL_CONTENT_LZ4 and link liblz4)"));
    assert_true(log_has("archive Main."));
}

static void test_content_nocodec_zstd_refused(void **state) {
    (void)state;
    assert_false(try_register("MainZstd"));
    assert_true(log_has("(define TL_CONTENT_ZSTD and link libzstd)"));
}

static void test_content_nocodec_raw_and_flat_work(void **state) {
    (void)state;
    assert_true(try_register("MainRaw"));
    assert_true(try_register("MainFlat"));
}

/* Mappings of the fixture's MainRaw archives in this process; -1 where /proc/self/maps is not
   there (Windows under Wine). */
static int mappings_of_main_raw(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int n = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "/out/MainRaw/")) n++;
    fclose(f);
    return n;
}

/* A small raw entry (blob7, 34 KB) of the default I/O is copied from its archive mapped whole
   where the runtime maps (TL__CONTENT_MMAP: POSIX) and pointers have 64 bits, and read elsewhere:
   a 32-bit process keeps no archive mapped (address space). The cross targets run this on 32-bit
   ARM, 64-bit ARM, s390x and Windows. */
static void test_content_small_raw_archive_mapped_only_on_64_bit(void **state) {
    char path[600];
    tl_content_desc desc;
    tl_content *c;
    tl_scope s;
    int expect = 0;
    (void)state;
#ifdef TL__CONTENT_MMAP
    expect = sizeof(void *) >= 8;
#endif
    snprintf(path, sizeof path, "%s/out/MainRaw", g_root);
    memset(&desc, 0, sizeof desc);
    c = tl_content_create(&desc);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, path)));
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    assert_true(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob7")));
    if (mappings_of_main_raw() >= 0) assert_int_equal(mappings_of_main_raw(), expect);
    tl_content_shutdown(c);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_nocodec_lz4_refused),
        cmocka_unit_test(test_content_nocodec_zstd_refused),
        cmocka_unit_test(test_content_nocodec_raw_and_flat_work),
        cmocka_unit_test(test_content_small_raw_archive_mapped_only_on_64_bit),
    };
    if (argc < 2) return 2;
    g_root = argv[1];
    return cmocka_run_group_tests_name("content-nocodec", tests, NULL, NULL);
}
