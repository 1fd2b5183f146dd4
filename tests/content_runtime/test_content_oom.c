/* runtime/threadlink/content.h out of memory: an allocator (TL_MALLOC / TL_FREE) that fails its
 * Nth allocation, for N = 1, 2, ... over one scenario (create a context, register a kind, register
 * a directory of tests/content_runtime/make_fixture.sh and a second one, load assets
 * synchronously and asynchronously, shut down) until a run meets no failure. In every run the
 * step that meets the failure must fail cleanly: return its documented failure, log the reason
 * "out of memory" (a directory refused for it names no archive, or one that exists), and leave
 * the context usable: the same step with the allocator healed succeeds and the scenario goes on.
 * Every run frees every block it allocated; freed blocks are overwritten first, so a message
 * built from freed memory shows (ASan, in build-san, reports the read itself).
 * argv[1] is the fixture project. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Blocks carry their size in a header; g_fail_at = N fails the Nth allocation (0: none). */
static size_t g_allocs, g_fail_at, g_live_blocks;
static int g_failed; /* the injected failure has happened in this run */
static void *fail_malloc(size_t n) {
    size_t *p;
    if (++g_allocs == g_fail_at) {
        g_failed = 1;
        return NULL;
    }
    p = (size_t *)malloc(n + sizeof(max_align_t));
    if (!p) return NULL;
    *p = n;
    g_live_blocks++;
    return (char *)p + sizeof(max_align_t);
}
static void fail_free(void *ptr) {
    size_t *p;
    if (!ptr) return;
    p = (size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    memset(ptr, 0xA5, *p); /* a read after free sees garbage, not the old text */
    g_live_blocks--;
    free(p);
}
#define TL_MALLOC(size) fail_malloc(size)
#define TL_FREE(ptr) fail_free(ptr)
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include "content_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <cmocka.h>

static const char *g_root;

/* A step failed: only because of the injected allocation, and its log says so. A directory
   refused with an archive named ("cannot register D: archive A: why") names a file of D. */
static void check_failed_cleanly(const char *what, const char *dir) {
    const char *at = strstr(g_log.text, ": archive ");
    if (!g_failed) fail_msg("%s failed with no allocation failed (N=%zu):\n%s", what, g_fail_at, g_log.text);
    if (!log_has("out of memory"))
        fail_msg("%s failed (allocation %zu) without saying out of memory:\n%s", what, g_fail_at, g_log.text);
    if (at && dir) {
        char path[1200], name[256];
        struct stat st;
        size_t n = strcspn(at + 10, ":\n");
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, at + 10, n);
        name[n] = 0;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (stat(path, &st) != 0) fail_msg("%s blames an archive that does not exist:\n%s", what, g_log.text);
    }
}

/* One step's outcome. On failure the allocator heals (no more failures in this run) and the
   caller repeats the step, which must then succeed. */
static int step_failed(int ok, const char *what, const char *dir) {
    if (ok) return 0;
    check_failed_cleanly(what, dir);
    g_fail_at = 0;
    log_reset();
    return 1;
}

static void dir_path(char *out, size_t cap, const char *profile_dir) {
    snprintf(out, cap, "%s/out/%s", g_root, profile_dir);
}

static tl_content_dir register_dir(tl_content *c, const char *profile_dir, int verify) {
    char dir[600];
    tl_content_dir_desc dd;
    tl_content_dir d;
    memset(&dd, 0, sizeof dd);
    dd.verify_xxh64 = verify != 0;
    dir_path(dir, sizeof dir, profile_dir);
    log_reset();
    d = tl_content_register_dir_ex(c, dir, &dd);
    if (step_failed(tl_content_dir_valid(d), "tl_content_register_dir", dir)) {
        d = tl_content_register_dir_ex(c, dir, &dd);
        assert_true(tl_content_dir_valid(d));
    }
    return d;
}

/* The asset's bytes, those of its source file (objects of the Levels kind: a decoded copy). */
static void check_bytes(tl_asset a, const char *name, const char *ext) {
    char path[700];
    size_t size = 0;
    unsigned char *want;
    const unsigned char *got = (const unsigned char *)tl_asset_object(a);
    snprintf(path, sizeof path, "%s/assets/%s.%s", g_root, name, ext);
    want = read_file(path, &size);
    assert_non_null(want);
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
    assert_int_equal(tl_asset_size(a), size);
    if (strncmp(name, "Levels/", 7) == 0) got = ((const decoded *)(const void *)got)->bytes;
    assert_memory_equal(got, want, size);
    free(want);
}

static void load_checked(tl_scope s, const char *name, const char *ext) {
    tl_asset a;
    log_reset();
    a = tl_scope_load_name(s, name);
    if (step_failed(tl_asset_valid(a), name, NULL)) a = tl_scope_load_name(s, name);
    check_bytes(a, name, ext);
}

/* An asynchronous load that fails leaves a FAILED asset (out of memory logged); loading it
   again retries. */
static void load_async_checked(tl_content *c, tl_scope s, const char *name, const char *ext) {
    tl_asset a;
    int ok;
    log_reset();
    a = tl_scope_load_name_async(s, name);
    ok = tl_asset_valid(a);
    if (ok) {
        tl_content_update(c);
        ok = tl_asset_get_status(a) == TL_ASSET_READY;
        if (!ok) assert_int_equal(tl_asset_get_status(a), TL_ASSET_FAILED);
    }
    if (step_failed(ok, name, NULL)) a = tl_scope_load_name(s, name);
    check_bytes(a, name, ext);
}

/* The whole scenario under the current g_fail_at. */
static void scenario(const char *profile_dir, int verify) {
    tl_content_desc desc;
    tl_content *c;
    kind_counter levels;
    tl_content_kind_desc kd;
    tl_scope level;
    size_t live = g_live_blocks; /* blocks a failed test before this one left behind */
    memset(&desc, 0, sizeof desc);
    memset(&levels, 0, sizeof levels);
    desc.logger = capture_logger();
    desc.manual_collect = true;
    c = tl_content_create(&desc);
    if (!c) { /* documented: NULL when out of memory */
        assert_true(g_failed);
        assert_int_equal(g_live_blocks, live);
        return;
    }
    kd = count_kind("Levels", &levels);
    log_reset();
    if (step_failed(tl_content_register_kind(c, &kd) == TL_CONTENT_OK, "tl_content_register_kind", NULL))
        assert_int_equal(tl_content_register_kind(c, &kd), TL_CONTENT_OK);
    register_dir(c, profile_dir, verify);
    register_dir(c, "Extra", 0);
    log_reset();
    level = tl_scope_create(tl_content_root(c), "Level", TL_SCOPE_LEVEL);
    if (step_failed(tl_scope_valid(level), "tl_scope_create", NULL))
        level = tl_scope_create(tl_content_root(c), "Level", TL_SCOPE_LEVEL);
    assert_true(tl_scope_valid(level));
    load_checked(level, "Levels/one", "txt");
    load_checked(level, "Blobs/blob3", "bin");
    load_checked(level, "Blobs/blob24", "bin");
    load_async_checked(c, level, "Icons/sword", "png");
    load_async_checked(c, level, "Levels/two", "txt");
    assert_int_equal(tl_scope_dispose(level), TL_CONTENT_OK);
    tl_content_collect(c);
    tl_content_shutdown(c);
    assert_int_equal(levels.live, 0);
    assert_int_equal(g_live_blocks, live);
}

/* N = 1, 2, ... until a run meets no failure (at most 10,000 runs). */
static void run_failing_each_allocation(const char *profile_dir, int verify) {
    size_t n, total = 0;
    for (n = 1; n < 10000; n++) {
        g_allocs = 0;
        g_failed = 0;
        g_fail_at = n;
        scenario(profile_dir, verify);
        if (!g_failed) {
            total = g_allocs;
            break;
        }
    }
    g_fail_at = 0;
    print_message("%s: %zu allocations, each failed once\n", profile_dir, total);
    assert_true(total > 0);
    assert_int_equal(n, total + 1); /* every allocation of the scenario was failed once */
}

static void test_oom_packed_lz4(void **state) {
    (void)state;
    run_failing_each_allocation("Main", 0);
}
static void test_oom_packed_zstd_verified(void **state) {
    (void)state;
    run_failing_each_allocation("MainZstd", 1);
}
static void test_oom_packed_raw(void **state) {
    (void)state;
    run_failing_each_allocation("MainRaw", 0);
}
static void test_oom_flat(void **state) {
    (void)state;
    run_failing_each_allocation("MainFlat", 0);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oom_packed_lz4),
        cmocka_unit_test(test_oom_packed_zstd_verified),
        cmocka_unit_test(test_oom_packed_raw),
        cmocka_unit_test(test_oom_flat),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT\n", argv[0]);
        return 2;
    }
    g_root = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
