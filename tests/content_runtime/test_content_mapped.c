/* Mapped entries of runtime/threadlink/content.h (built with _GNU_SOURCE: the default I/O on
 * POSIX): an entry of a packed directory of at least TL_CONTENT_MAP_MIN_BYTES (64 KiB here, set by
 * meson.build below the default 2 MiB so that the fixture's entries are mapped; blob10 and
 * up of tests/content_runtime/make_fixture.sh) comes from its archive's mapping. A raw one is kept
 * there with no allocation, privately (writes never reach the archive or a later load) and until
 * it is released; a compressed one is decoded from it with no scratch buffer; a decoder reads it
 * there; an archive truncated since it was mounted fails the load instead of raising SIGBUS.
 * A compressed entry stored in under 64 KiB is decoded from its archive mapped whole and
 * read-only (once per archive, until the directory goes), with no scratch buffer either. /proc/self/maps shows the
 * mappings. Built a second time with TL_CONTENT_NO_MMAP, where every one of these loads reads
 * instead (one allocation, no mapping).
 * argv[1] is the fixture project. */
#include "count_alloc.h"
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include "content_test_util.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include <dirent.h>
#include <unistd.h>

#ifdef TL_CONTENT_NO_MMAP
#define MAPPED 0
#else
#define MAPPED 1
#endif
/* Archives mapped whole for their small entries: where pointers have 64 bits. */
#define WHOLE (MAPPED && UINTPTR_MAX > 0xffffffffu)

static char g_root[PATH_MAX]; /* the fixture project, resolved as /proc/self/maps names it */
static char g_tmp[PATH_MAX + 64];

/* Mappings of files in `dir` in this process. */
static int mappings_under(const char *dir) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 128], needle[PATH_MAX + 80];
    int n = 0;
    assert_non_null(f);
    snprintf(needle, sizeof needle, "%s/", dir);
    while (fgets(line, sizeof line, f))
        if (strstr(line, needle)) n++;
    fclose(f);
    return n;
}

static char *out_dir(const char *profile_dir) {
    static char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/out/%s", g_root, profile_dir);
    return path;
}

static unsigned char *blob_source(int i, size_t *size) {
    char path[PATH_MAX + 64];
    unsigned char *bytes;
    snprintf(path, sizeof path, "%s/assets/Blobs/blob%d.bin", g_root, i);
    bytes = read_file(path, size);
    assert_non_null(bytes);
    return bytes;
}

static tl_content *open_dir(const char *dir, tl_content_desc *desc) {
    tl_content_desc d;
    tl_content *c;
    if (!desc) {
        memset(&d, 0, sizeof d);
        desc = &d;
    }
    desc->logger = capture_logger();
    desc->manual_collect = true;
    desc->release_delay_frames = TL_CONTENT_NO_DELAY;
    log_reset();
    c = tl_content_create(desc);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
    return c;
}

/* The .tlpk files of `dir` (its archives and its catalog's). */
static int archives_in(const char *dir) {
    DIR *listing = opendir(dir);
    struct dirent *ent;
    int n = 0;
    assert_non_null(listing);
    while ((ent = readdir(listing)) != NULL) n += strstr(ent->d_name, ".tlpk") != NULL;
    closedir(listing);
    return n;
}

/* Loads Blobs/blob<i>, checks its bytes against the source file and returns the allocations the
   load made. */
static size_t load_blob(tl_scope s, int i, tl_asset *asset) {
    char name[32];
    size_t size = 0, calls = g_calls;
    unsigned char *want = blob_source(i, &size);
    snprintf(name, sizeof name, "Blobs/blob%d", i);
    *asset = tl_scope_load_name(s, name);
    calls = g_calls - calls;
    assert_int_equal(tl_asset_get_status(*asset), TL_ASSET_READY);
    assert_int_equal(tl_asset_size(*asset), size);
    assert_memory_equal(tl_asset_object(*asset), want, size);
    free(want);
    return calls;
}

static void release_blob(tl_content *c, tl_scope s, int i) {
    char name[32];
    snprintf(name, sizeof name, "Blobs/blob%d", i);
    assert_int_equal(tl_scope_release(s, tl_content_find(c, name)), TL_CONTENT_OK);
}

/* Every blob of the raw directory loaded twice (the first pass grows the tables): in the second,
   an entry past the threshold allocates nothing and adds a mapping, held until it is released;
   one under it allocates its buffer, copied from its archive mapped whole (one mapping per
   archive, kept when its entries are released, until the directory goes). Shutting down with
   assets held unmaps them too. */
static void test_mapped_raw_entries_allocate_nothing(void **state) {
    const char *dir = out_dir("MainRaw");
    tl_content *c = open_dir(dir, NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    int pass, i, large = 0, whole = 0;
    (void)state;
    for (pass = 0; pass < 2; pass++) {
        large = 0;
        for (i = 1; i <= 24; i++) {
            tl_asset a;
            size_t calls = load_blob(s, i, &a);
            bool big = tl_asset_size(a) >= TL_CONTENT_MAP_MIN_BYTES;
            large += big && MAPPED;
            if (pass == 1) assert_int_equal(calls, big && MAPPED ? 0 : 1);
            whole = mappings_under(dir) - large;
            assert_true(WHOLE ? whole >= 1 && whole < archives_in(dir) : whole == 0);
        }
        assert_true(!MAPPED || large >= 10); /* blob10 (~70 KB) to blob24 (~430 KB) */
        if (pass == 0) {
            for (i = 1; i <= 24; i++) release_blob(c, s, i);
            tl_content_collect(c);
            assert_int_equal(mappings_under(dir), whole);
        }
    }
    tl_content_shutdown(c);
    assert_int_equal(mappings_under(dir), 0);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

/* Writes to a mapped asset (blob24), or to one copied from its archive mapped whole (blob3), stay
   in it: released, collected and loaded again (its XXH64 checked again), the asset has its
   archive's bytes. */
static void test_mapped_writes_stay_in_the_asset(void **state) {
    tl_content *c = open_dir(out_dir("MainRaw"), NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    tl_asset a;
    int blobs[2] = {24, 3}, i;
    (void)state;
    for (i = 0; i < 2; i++) {
        load_blob(s, blobs[i], &a);
        memset(tl_asset_object(a), 0xA5, (size_t)tl_asset_size(a));
        release_blob(c, s, blobs[i]);
        tl_content_collect(c);
        load_blob(s, blobs[i], &a);
    }
    tl_content_shutdown(c);
    c = open_dir(out_dir("MainRaw"), NULL); /* and a new context, mapping the file afresh */
    load_blob(tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL), 24, &a);
    tl_content_shutdown(c);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

/* A large compressed entry is decoded from its own mapping: the load allocates only the asset
   (no scratch buffer for its stored bytes) and keeps no mapping of its own; read, it grows the
   scratch. */
static void check_compressed_decoded_from_mapping(const char *profile_dir) {
    tl_content *c = open_dir(out_dir(profile_dir), NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    tl_asset a;
    int archives;
    tl_scope_load_name(s, "Levels/one"); /* the tables (and, read, a scratch buffer) */
    load_blob(s, 3, &a);
    assert_int_equal(load_blob(s, 4, &a), 1);
    archives = mappings_under(out_dir(profile_dir)); /* the small entries' archives, mapped whole */
    assert_int_equal(load_blob(s, 24, &a), MAPPED ? 1 : 2);
    assert_int_equal(mappings_under(out_dir(profile_dir)), archives);
    tl_content_shutdown(c);
    assert_int_equal(mappings_under(out_dir(profile_dir)), 0);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

static void test_mapped_lz4_decoded_without_scratch(void **state) {
    (void)state;
    check_compressed_decoded_from_mapping("Main");
}
static void test_mapped_zstd_decoded_without_scratch(void **state) {
    (void)state;
    check_compressed_decoded_from_mapping("MainZstd");
}

/* Compressed entries stored in under 64 KiB (blob1 to blob9) are decoded from their
   archive, mapped whole and read-only at its first such load: one mapping per archive however
   many entries come from it, kept when they are released (the next loads use it: one allocation
   each, the asset's) until the directory goes. */
static void check_small_compressed_from_archive(const char *profile_dir) {
    const char *dir = out_dir(profile_dir);
    tl_content *c = open_dir(dir, NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    tl_asset a;
    int i, archives;
    load_blob(s, 3, &a);
    assert_int_equal(mappings_under(dir), WHOLE ? 1 : 0);
    for (i = 1; i <= 9; i++) load_blob(s, i, &a);
    archives = mappings_under(dir);
    assert_true(WHOLE ? archives >= 1 && archives < archives_in(dir) : archives == 0);
    for (i = 1; i <= 9; i++) release_blob(c, s, i);
    tl_content_collect(c);
    assert_int_equal(mappings_under(dir), archives);
    for (i = 1; i <= 9; i++) assert_int_equal(load_blob(s, i, &a), 1);
    assert_int_equal(mappings_under(dir), archives);
    tl_content_shutdown(c);
    assert_int_equal(mappings_under(dir), 0);
    assert_int_equal(g_live, 0);
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 0);
}

static void test_mapped_small_lz4_decoded_from_archive(void **state) {
    (void)state;
    check_small_compressed_from_archive("Main");
}
static void test_mapped_small_zstd_decoded_from_archive(void **state) {
    (void)state;
    check_small_compressed_from_archive("MainZstd");
}

/* A decoder gets the mapped bytes; the mapping is gone once it has returned. */
static void test_mapped_entry_handed_to_its_decoder(void **state) {
    tl_content *c = open_dir(out_dir("MainRaw"), NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    kind_counter k;
    tl_content_kind_desc kind;
    size_t size = 0;
    unsigned char *want = blob_source(24, &size);
    const decoded *d;
    (void)state;
    memset(&k, 0, sizeof k);
    kind = count_kind("Blobs", &k);
    assert_int_equal(tl_content_register_kind(c, &kind), TL_CONTENT_OK);
    d = (const decoded *)tl_asset_object(tl_scope_load_name(s, "Blobs/blob24"));
    assert_non_null(d);
    assert_int_equal(k.decodes, 1);
    assert_int_equal(d->size, size);
    assert_memory_equal(d->bytes, want, size);
    assert_int_equal(mappings_under(out_dir("MainRaw")), 0);
    tl_content_shutdown(c);
    assert_int_equal(k.destroys, 1);
    assert_int_equal(g_live, 0);
    free(want);
}

/* An asynchronous load with the default I/O completes in tl_content_update, mapped too. */
static void test_mapped_async_load(void **state) {
    tl_content *c = open_dir(out_dir("MainRaw"), NULL);
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    size_t size = 0;
    unsigned char *want = blob_source(20, &size);
    tl_asset a = tl_scope_load_async(s, tl_content_find(c, "Blobs/blob20"));
    int frames = 0;
    (void)state;
    while (tl_asset_get_status(a) == TL_ASSET_LOADING && frames++ < 10) tl_content_update(c);
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
    assert_memory_equal(tl_asset_object(a), want, size);
    assert_int_equal(mappings_under(out_dir("MainRaw")), MAPPED ? 1 : 0);
    tl_content_shutdown(c);
    free(want);
}

/* The archive (.tlpk) of `dir` that stores `bytes`, and their offset in it. */
static long find_in_archives(const char *dir, const unsigned char *bytes, size_t size, char *path,
                             size_t path_size) {
    DIR *listing = opendir(dir);
    struct dirent *ent;
    long at = -1;
    assert_non_null(listing);
    while (at < 0 && (ent = readdir(listing)) != NULL) {
        size_t n = 0;
        unsigned char *d, *hit;
        if (!strstr(ent->d_name, ".tlpk")) continue;
        snprintf(path, path_size, "%s/%s", dir, ent->d_name);
        d = read_file(path, &n);
        assert_non_null(d);
        hit = (unsigned char *)memmem(d, n, bytes, size);
        if (hit) at = (long)(hit - d);
        free(d);
    }
    closedir(listing);
    assert_true(at >= 0);
    return at;
}

/* The archive storing blob24 truncated inside it after the directory was mounted (the same file,
   changed in place): the load fails and is logged, the process goes on; blob23, stored before
   the cut or in another archive, still loads. */
static void test_mapped_archive_truncated_after_mount_fails_the_load(void **state) {
    char dir[PATH_MAX + 80], cmd[4 * PATH_MAX], archive[2 * PATH_MAX];
    size_t size = 0;
    unsigned char *blob = blob_source(24, &size);
    tl_content *c;
    tl_scope s;
    tl_asset a;
    long at;
    (void)state;
    snprintf(dir, sizeof dir, "%s/raw", g_tmp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -R '%s' '%s'", dir, out_dir("MainRaw"), dir);
    assert_int_equal(system(cmd), 0);
    at = find_in_archives(dir, blob, size, archive, sizeof archive);
    c = open_dir(dir, NULL);
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    assert_int_equal(truncate(archive, (off_t)(at + (long)size / 2)), 0);
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob24")));
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 1);
    assert_true(log_has("Blobs/blob24"));
    /* Which file to pack or download again, and why: not "missing or unreadable". */
    assert_true(log_has(" of archives.json in "));
    assert_true(log_has("is shorter than when it was mounted"));
    assert_int_equal(tl_content_last_result(c), TL_CONTENT_READ_FAILED);
    assert_int_equal(mappings_under(dir), 0);
    load_blob(s, 23, &a);
    tl_content_shutdown(c);
    assert_int_equal(g_live, 0);
    free(blob);
}

/* The file of the one mapping under `dir` (its archive mapped whole). */
static void mapped_file(const char *dir, char *path, size_t size) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 128], *at = NULL;
    assert_non_null(f);
    while (!at && fgets(line, sizeof line, f))
        if ((at = strstr(line, dir)) != NULL && at[strlen(dir)] != '/') at = NULL;
    fclose(f);
    assert_non_null(at);
    at[strcspn(at, "\n")] = '\0';
    snprintf(path, size, "%s", at);
}

/* An archive mapped whole (for a small compressed entry, or a raw one under the threshold), then
   truncated in place to nothing: its entries' loads fail (read instead of touched: no SIGBUS) and
   are logged; entries of the other archives still load. */
static void check_whole_archive_truncated(const char *profile_dir) {
    char copy[PATH_MAX + 80], dir[PATH_MAX], cmd[4 * PATH_MAX], archive[2 * PATH_MAX];
    tl_content *c;
    tl_scope s;
    tl_asset a;
    int i, loaded = 0;
    if (!WHOLE) skip();
    snprintf(copy, sizeof copy, "%s/%s", g_tmp, profile_dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -R '%s' '%s'", copy, out_dir(profile_dir), copy);
    assert_int_equal(system(cmd), 0);
    assert_non_null(realpath(copy, dir)); /* as /proc/self/maps names it */
    c = open_dir(dir, NULL);
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    load_blob(s, 3, &a);
    mapped_file(dir, archive, sizeof archive);
    release_blob(c, s, 3);
    tl_content_collect(c);
    assert_int_equal(truncate(archive, 0), 0);
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob3")));
    assert_int_equal(log_count(TL_CONTENT_LOG_LOAD_FAILED), 1);
    assert_true(log_has("Blobs/blob3"));
    assert_true(log_has("is shorter than when it was mounted"));
    for (i = 1; i <= 24; i++) {
        char name[32];
        snprintf(name, sizeof name, "Blobs/blob%d", i);
        loaded += tl_asset_valid(tl_scope_load_name(s, name));
    }
    assert_true(loaded >= 1 && loaded < 24);
    tl_content_shutdown(c);
    assert_int_equal(g_live, 0);
}

static void test_mapped_whole_archive_truncated_fails_the_load(void **state) {
    (void)state;
    check_whole_archive_truncated("MainZstd");
}
static void test_mapped_whole_raw_archive_truncated_fails_the_load(void **state) {
    (void)state;
    check_whole_archive_truncated("MainRaw");
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapped_raw_entries_allocate_nothing),
        cmocka_unit_test(test_mapped_writes_stay_in_the_asset),
        cmocka_unit_test(test_mapped_lz4_decoded_without_scratch),
        cmocka_unit_test(test_mapped_zstd_decoded_without_scratch),
        cmocka_unit_test(test_mapped_small_lz4_decoded_from_archive),
        cmocka_unit_test(test_mapped_small_zstd_decoded_from_archive),
        cmocka_unit_test(test_mapped_entry_handed_to_its_decoder),
        cmocka_unit_test(test_mapped_async_load),
        cmocka_unit_test(test_mapped_archive_truncated_after_mount_fails_the_load),
        cmocka_unit_test(test_mapped_whole_archive_truncated_fails_the_load),
        cmocka_unit_test(test_mapped_whole_raw_archive_truncated_fails_the_load),
    };
    char cmd[2 * PATH_MAX];
    int failed;
    if (argc < 2 || !realpath(argv[1], g_root)) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT\n", argv[0]);
        return 2;
    }
    snprintf(g_tmp, sizeof g_tmp, "%s/../content_rt_mapped_%ld", g_root, (long)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_tmp);
    if (system(cmd) != 0) return 2;
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) return 2;
    return failed;
}
