/* Allocations of runtime/threadlink/content.h's synchronous loads of compressed entries (lz4 and
 * zstd directories of tests/content_runtime/make_fixture.sh): their stored bytes go through one
 * scratch buffer per context, so a load allocates only the buffer the asset keeps; a scratch
 * buffer grown past TL_CONTENT_SCRATCH_KEEP_BYTES (here 128 KiB, below the largest blob's stored
 * size in both codecs) is freed after its load. Built with TL_CONTENT_NO_PREAD and
 * TL_CONTENT_NO_MMAP: every load reads with fseek + fread (Windows' path) however this program is
 * compiled; test_content_mapped.c counts the allocations of mapped entries.
 * argv[1] is the fixture project. */
#include "count_alloc.h"
#define TL_CONTENT_SCRATCH_KEEP_BYTES ((size_t)128 * 1024)
#define TL_CONTENT_NO_PREAD
#define TL_CONTENT_NO_MMAP
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include "content_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

static const char *g_root;

typedef struct counted { size_t calls, bytes; } counted;

/* Loads `name` into `s` from the dir, checks its bytes against the source file, and returns the
   runtime's allocations during the load. */
static counted load_counted(tl_scope s, const char *name) {
    char path[600];
    size_t size = 0;
    unsigned char *want;
    counted c;
    tl_asset a;
    size_t calls = g_calls, bytes = g_bytes;
    a = tl_scope_load_name(s, name);
    c.calls = g_calls - calls;
    c.bytes = g_bytes - bytes;
    snprintf(path, sizeof path, "%s/assets/%s.%s", g_root, name, strncmp(name, "Blobs/", 6) == 0 ? "bin" : "txt");
    want = read_file(path, &size);
    assert_non_null(want);
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
    assert_int_equal(tl_asset_size(a), size);
    assert_memory_equal(tl_asset_object(a), want, size);
    free(want);
    return c;
}

static tl_content *open_dir(const char *profile_dir) {
    char dir[600];
    tl_content_desc desc;
    tl_content *c;
    memset(&desc, 0, sizeof desc);
    desc.logger = capture_logger();
    desc.manual_collect = true;
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    log_reset();
    c = tl_content_create(&desc);
    snprintf(dir, sizeof dir, "%s/out/%s", g_root, profile_dir);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
    return c;
}

/* Blobs 1 to 12 (stored sizes up to ~100 KB), loaded once to grow the tables and the scratch
   buffer, released, loaded again: each second load allocates exactly the asset's buffer. */
static void check_one_allocation_per_load(const char *profile_dir) {
    tl_content *c = open_dir(profile_dir);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    char name[32];
    int pass, i;
    for (pass = 0; pass < 2; pass++) {
        for (i = 1; i <= 12; i++) {
            counted n;
            snprintf(name, sizeof name, "Blobs/blob%d", i);
            n = load_counted(s, name);
            if (pass == 1) {
                assert_int_equal(n.calls, 1);
                assert_int_equal(n.bytes, tl_asset_size(tl_scope_load_name(s, name)) + 1);
            }
        }
        for (i = 1; i <= 12; i++) {
            snprintf(name, sizeof name, "Blobs/blob%d", i);
            assert_int_equal(tl_scope_release(s, tl_content_find(c, name)), TL_CONTENT_OK);
        }
        tl_content_collect(c);
        assert_int_equal(tl_content_live_assets(c), 0);
    }
    tl_content_shutdown(c);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

static void test_scratch_lz4_loads_allocate_only_the_asset(void **state) {
    (void)state;
    check_one_allocation_per_load("Main");
}
static void test_scratch_zstd_loads_allocate_only_the_asset(void **state) {
    (void)state;
    check_one_allocation_per_load("MainZstd");
}

/* A small entry warms the scratch buffer; blob24 (stored past 128 KiB) grows it, and it is freed
   after that load: the next small entry allocates it again, the one after that does not. */
static void check_large_scratch_freed(const char *profile_dir) {
    tl_content *c = open_dir(profile_dir);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    size_t live;
    load_counted(s, "Levels/one");
    load_counted(s, "Blobs/blob3");
    assert_int_equal(load_counted(s, "Blobs/blob4").calls, 1);
    live = g_live;
    assert_int_equal(load_counted(s, "Blobs/blob24").calls, 2); /* the asset, a larger scratch */
    /* Only the asset stayed: the 128 KiB-or-less scratch was replaced, then the large one freed. */
    assert_true(g_live < live + tl_asset_size(tl_scope_load_name(s, "Blobs/blob24")) + 1);
    assert_int_equal(load_counted(s, "Blobs/blob5").calls, 2); /* the scratch again */
    assert_int_equal(load_counted(s, "Blobs/blob6").calls, 1);
    tl_content_shutdown(c);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

static void test_scratch_lz4_large_freed(void **state) {
    (void)state;
    check_large_scratch_freed("Main");
}
static void test_scratch_zstd_large_freed(void **state) {
    (void)state;
    check_large_scratch_freed("MainZstd");
}

/* Listing a directory's names allocates nothing: the strings are the directory's. */
static void test_scratch_listing_allocates_nothing(void **state) {
    tl_content *c = open_dir("Main");
    tl_content_dir d;
    tl_content_info info;
    uint32_t cursor = 0, n = 0;
    size_t calls;
    (void)state;
    d.ctx = c;
    d.index = 0;
    d.gen = 1;
    assert_true(tl_content_dir_valid(d));
    calls = g_calls;
    while (tl_content_dir_next_asset(d, &cursor, &info)) n++;
    assert_int_equal(g_calls, calls);
    assert_int_equal(n, tl_content_dir_asset_count(d));
    tl_content_shutdown(c);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scratch_lz4_loads_allocate_only_the_asset),
        cmocka_unit_test(test_scratch_zstd_loads_allocate_only_the_asset),
        cmocka_unit_test(test_scratch_lz4_large_freed),
        cmocka_unit_test(test_scratch_zstd_large_freed),
        cmocka_unit_test(test_scratch_listing_allocates_nothing),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT\n", argv[0]);
        return 2;
    }
    g_root = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
