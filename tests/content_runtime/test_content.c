/* Rules of runtime/threadlink/content.h against directories built by `threadlink-gen pack`
 * (tests/content_runtime/make_fixture.sh): argv[1] is the fixture project, its outputs in out/. */
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include "content_test_util.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *g_root; /* the fixture project */
static char g_tmp[512];    /* a scratch folder for corrupted copies */

static char *out_dir(const char *name) {
    static char buf[8][600];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 600, "%s/out/%s", g_root, name);
    return b;
}

/* Every asset of profile Main: its name and its source file. */
typedef struct fixture_asset { const char *name, *source; } fixture_asset;
static fixture_asset g_assets[32];
static int g_asset_count;
static void fixture_assets(void) {
    static char names[24][32], paths[24][32];
    static const fixture_asset fixed[] = {
        {"Icons/sword", "Icons/sword.png"}, {"Icons/Shield", "Icons/Shield.png"}, {"Icons/helmet", "Icons/helmet.png"},
        {"Levels/one", "Levels/one.txt"},   {"Levels/two", "Levels/two.txt"},
    };
    int i;
    g_asset_count = 0;
    for (i = 0; i < 5; i++) g_assets[g_asset_count++] = fixed[i];
    for (i = 0; i < 24; i++) {
        snprintf(names[i], sizeof names[i], "Blobs/blob%d", i + 1);
        snprintf(paths[i], sizeof paths[i], "Blobs/blob%d.bin", i + 1);
        g_assets[g_asset_count].name = names[i];
        g_assets[g_asset_count++].source = paths[i];
    }
}

static tl_content *make_ctx(tl_content_desc *desc) {
    tl_content_desc d;
    if (!desc) {
        memset(&d, 0, sizeof d);
        desc = &d;
    }
    desc->logger = capture_logger();
    log_reset();
    return tl_content_create(desc);
}

static uint32_t id_of(tl_content *c, const char *name) {
    uint32_t id = tl_content_find(c, name);
    assert_int_not_equal(id, 0);
    return id;
}

/* ---- directories ---------------------------------------------------------------------------- */

/* The directory's listing: every asset once, as the catalog names it, and nothing after the end
   (test_content_scratch.c counts its allocations: none). */
static void check_listing(tl_content_dir d) {
    uint32_t cursor = 0, n = 0;
    int i, seen[32];
    tl_content_info info;
    memset(seen, 0, sizeof seen);
    while (tl_content_dir_next_asset(d, &cursor, &info)) {
        for (i = 0; i < g_asset_count && strcmp(g_assets[i].name, info.name) != 0; i++) {}
        assert_true(i < g_asset_count);
        assert_int_equal(seen[i]++, 0);
        assert_int_equal(tl_content_find(d.ctx, info.name), info.id);
        assert_string_equal(info.profile, "Main");
        assert_string_equal(info.category, strncmp(info.name, "Icons/", 6) == 0    ? "Icons"
                                           : strncmp(info.name, "Levels/", 7) == 0 ? "Levels"
                                                                                   : "Blobs");
        assert_false(info.reload);
        n++;
    }
    assert_int_equal(n, g_asset_count);
    assert_false(tl_content_dir_next_asset(d, &cursor, &info));
    cursor = 0;
    assert_false(tl_content_dir_next_asset(d, NULL, &info));
    {
        tl_content_dir stale = d;
        stale.gen++;
        assert_false(tl_content_dir_next_asset(stale, &cursor, &info));
    }
}

static void check_every_asset(const char *dir) {
    tl_content *c = make_ctx(NULL);
    tl_content_dir d = tl_content_register_dir(c, dir);
    tl_scope s;
    int i;
    assert_true(tl_content_dir_valid(d));
    assert_string_equal(tl_content_dir_profile(d), "Main");
    assert_int_equal(tl_content_dir_asset_count(d), g_asset_count);
    s = tl_scope_create(tl_content_root(c), "All", TL_SCOPE_LEVEL);
    for (i = 0; i < g_asset_count; i++) {
        char path[600];
        size_t size = 0;
        unsigned char *want;
        tl_asset a = tl_scope_load_name(s, g_assets[i].name);
        snprintf(path, sizeof path, "%s/assets/%s", g_root, g_assets[i].source);
        want = read_file(path, &size);
        assert_non_null(want);
        assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
        assert_int_equal(tl_asset_size(a), size);
        assert_memory_equal(tl_asset_object(a), want, size);
        assert_string_equal(tl_asset_name(a), g_assets[i].name);
        free(want);
    }
    assert_int_equal(tl_scope_count(s), g_asset_count);
    assert_int_equal(tl_content_live_assets(c), g_asset_count);
    check_listing(d);
    tl_content_shutdown(c);
    assert_int_equal(g_log.counts[TL_CONTENT_LOG_LOAD_FAILED - TL_CONTENT_LOG_BASE], 0);
}

static void test_content_packed_lz4_loads_every_asset(void **state) { (void)state; check_every_asset(out_dir("Main")); }
static void test_content_packed_zstd_loads_every_asset(void **state) { (void)state; check_every_asset(out_dir("MainZstd")); }
static void test_content_packed_lz4_hc_loads_every_asset(void **state) { (void)state; check_every_asset(out_dir("MainHC")); }
static void test_content_packed_raw_loads_every_asset(void **state) { (void)state; check_every_asset(out_dir("MainRaw")); }
static void test_content_flat_loads_every_asset(void **state) { (void)state; check_every_asset(out_dir("MainFlat")); }

static void test_content_ids_are_the_catalog_ids(void **state) {
    /* The generated manifest records each asset's id; flat and packed builds carry the same. */
    tl_content *flat = make_ctx(NULL), *packed;
    char path[600], *text, *at;
    size_t size = 0;
    (void)state;
    assert_true(tl_content_dir_valid(tl_content_register_dir(flat, out_dir("MainFlat"))));
    packed = tl_content_create(NULL);
    assert_true(tl_content_dir_valid(tl_content_register_dir(packed, out_dir("MainRaw"))));
    snprintf(path, sizeof path, "%s/generated/Content.Main.manifest.json", g_root);
    text = (char *)read_file(path, &size);
    assert_non_null(text);
    at = strstr(text, "\"main.icons/sword\"");
    assert_non_null(at);
    at = strstr(at, "\"value\": ");
    assert_non_null(at);
    assert_int_equal(strtoul(at + 9, NULL, 10), tl_content_find(flat, "Icons/sword"));
    assert_int_equal(tl_content_find(flat, "ICONS/SWORD"), tl_content_find(packed, "icons/sword"));
    assert_int_equal(tl_content_find(flat, "Icons/nothing"), 0);
    assert_true(tl_content_contains(packed, tl_content_find(flat, "Levels/two")));
    free(text);
    tl_content_shutdown(flat);
    tl_content_shutdown(packed);
}

static void test_content_profile_once_and_shadowed_names(void **state) {
    tl_content *c = make_ctx(NULL), *e_only = tl_content_create(NULL);
    uint32_t extra_sword;
    tl_scope s;
    tl_asset a;
    (void)state;
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Main"))));
    assert_false(tl_content_dir_valid(tl_content_register_dir(c, out_dir("MainFlat"))));
    assert_true(log_has("profile is already registered"));
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Extra"))));
    assert_int_equal(log_count(TL_CONTENT_LOG_NAME_SHADOWED), 1);
    assert_true(tl_content_dir_valid(tl_content_register_dir(e_only, out_dir("Extra"))));
    extra_sword = tl_content_find(e_only, "Icons/sword");
    assert_int_not_equal(extra_sword, tl_content_find(c, "Icons/sword")); /* Main answers the name */
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    a = tl_scope_load(s, extra_sword); /* the shadowed one, by id */
    assert_int_equal(tl_asset_size(a), strlen("EXTRA SWORD (shadowed by Main)\n"));
    a = tl_scope_load_name(s, "Misc/note");
    assert_memory_equal(tl_asset_object(a), "a note\n", 7);
    tl_content_shutdown(c);
    tl_content_shutdown(e_only);
}

static void test_content_unregister_refuses_while_held_and_force_invalidates(void **state) {
    tl_content *c = make_ctx(NULL);
    tl_content_dir d = tl_content_register_dir(c, out_dir("Main")), e = tl_content_register_dir(c, out_dir("Extra"));
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    tl_asset sword = tl_scope_load_name(s, "Icons/sword"), note = tl_scope_load_name(s, "Misc/note");
    tl_content_handle h = tl_content_acquire_name(c, "Levels/one");
    char tree[4096];
    (void)state;
    assert_int_equal(tl_content_unregister_dir(d, false), TL_CONTENT_DIR_HELD);
    assert_int_equal(log_count(TL_CONTENT_LOG_DIR_HELD), 1);
    assert_true(tl_asset_valid(sword));
    /* Unheld assets do not block: release, and unregister takes them down at once. */
    assert_int_equal(tl_scope_release(s, tl_asset_id(note)), TL_CONTENT_OK);
    assert_int_equal(tl_content_unregister_dir(e, false), TL_CONTENT_OK);
    assert_false(tl_asset_valid(note));
    assert_false(tl_content_dir_valid(e));
    /* Forced: references die; scopes and handles skip them quietly. */
    log_reset();
    assert_int_equal(tl_content_unregister_dir(d, true), TL_CONTENT_OK);
    assert_int_equal(log_count(TL_CONTENT_LOG_DIR_FORCED), 1);
    assert_false(tl_asset_valid(sword));
    assert_null(tl_asset_object(sword));
    assert_false(tl_content_handle_valid(h));
    assert_int_equal(tl_scope_count(s), 0);
    assert_false(tl_scope_contains(s, tl_asset_id(sword)));
    tl_content_dump_tree(c, tree, sizeof tree);
    assert_null(strstr(tree, "Icons/sword"));
    assert_int_equal(tl_content_dispose(h), TL_CONTENT_OK);
    assert_int_equal(log_count(TL_CONTENT_LOG_STALE_HANDLE), 0);
    assert_int_equal(tl_content_live_assets(c), 0);
    tl_content_shutdown(c);
}

static void test_content_names_gone_after_unregister(void **state) {
    tl_content *c = make_ctx(NULL);
    tl_content_dir d = tl_content_register_dir(c, out_dir("Main"));
    uint32_t id = tl_content_find(c, "Icons/sword");
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    (void)state;
    assert_int_equal(tl_content_unregister_dir(d, false), TL_CONTENT_OK);
    assert_int_equal(tl_content_find(c, "Icons/sword"), 0);
    assert_false(tl_content_contains(c, id));
    assert_false(tl_asset_valid(tl_scope_load(s, id)));
    assert_int_equal(log_count(TL_CONTENT_LOG_UNKNOWN_ASSET), 1);
    /* Registered again: everything works again. */
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Main"))));
    assert_true(tl_asset_valid(tl_scope_load(s, id)));
    tl_content_shutdown(c);
}

/* ---- corrupt content --------------------------------------------------------------------------- */

static void copy_dir(const char *from, const char *to) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -R '%s' '%s'", to, from, to);
    assert_int_equal(system(cmd), 0);
}

/* The catalog archive's name, an asset archive's name and the first asset it stores. */
static void pick_archives(const char *dir, char *catalog, char *assets, char *first_asset) {
    char path[700], *text, *p;
    size_t size = 0;
    snprintf(path, sizeof path, "%s/archives.json", dir);
    text = (char *)read_file(path, &size);
    assert_non_null(text);
    catalog[0] = assets[0] = 0;
    for (p = strstr(text, "\"name\": \""); p; p = strstr(p + 1, "\"name\": \"")) {
        char name[300];
        size_t n = strcspn(p + 9, "\"");
        memcpy(name, p + 9, n);
        name[n] = 0;
        if (strstr(name, ".catalog-")) strcpy(catalog, name);
        else if (!assets[0]) {
            char *f = strstr(p, "\"files\": [");
            char *q = strchr(f + 10, '"');
            size_t m = strcspn(q + 1, "\"");
            strcpy(assets, name);
            memcpy(first_asset, q + 1, m);
            first_asset[m] = 0;
        }
    }
    free(text);
    assert_true(catalog[0] && assets[0]);
}

static void flip_byte(const char *path, long offset) {
    size_t size = 0;
    unsigned char *d = read_file(path, &size);
    assert_non_null(d);
    if (offset < 0) offset += (long)size;
    d[offset] ^= 0x5a;
    assert_true(write_file(path, d, size));
    free(d);
}

static void truncate_by(const char *path, size_t n) {
    size_t size = 0;
    unsigned char *d = read_file(path, &size);
    assert_non_null(d);
    assert_true(write_file(path, d, size - n));
    free(d);
}

static bool registers(const char *dir, bool verify) {
    tl_content *c;
    tl_content_desc desc;
    bool ok;
    memset(&desc, 0, sizeof desc);
    desc.verify_xxh64 = verify;
    c = make_ctx(&desc);
    ok = tl_content_dir_valid(tl_content_register_dir(c, dir));
    if (!ok) assert_int_equal(tl_content_live_assets(c), 0);
    tl_content_shutdown(c);
    return ok;
}

static void test_content_corrupt_archives_refused(void **state) {
    char dir[600], catalog[300], assets[300], first[300], path[1000];
    (void)state;
    snprintf(dir, sizeof dir, "%s/packed", g_tmp);
    copy_dir(out_dir("Small"), dir);
    pick_archives(dir, catalog, assets, first);
    assert_true(registers(dir, true));

    /* Missing archive: refused, naming it. */
    snprintf(path, sizeof path, "%s/%s", dir, assets);
    {
        char moved[1100];
        snprintf(moved, sizeof moved, "%s.away", path);
        assert_int_equal(rename(path, moved), 0);
        assert_false(registers(dir, false));
        assert_true(log_has(assets));
        assert_true(log_has("missing"));
        assert_int_equal(rename(moved, path), 0);
    }
    /* A size that differs from archives.json. */
    truncate_by(path, 1);
    assert_false(registers(dir, false));
    assert_true(log_has(assets) && log_has("different size"));
    copy_dir(out_dir("Small"), dir);

    /* Same-size corruption of an asset's bytes: caught by verify_xxh64, else when loaded. */
    flip_byte(path, -3);
    assert_false(registers(dir, true));
    assert_true(log_has(assets) && log_has("XXH64 differs"));
    {
        tl_content *c = make_ctx(NULL);
        tl_scope s;
        tl_asset a;
        int i, failed = 0;
        assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
        s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        for (i = 1; i <= 30; i++) {
            char name[32];
            snprintf(name, sizeof name, "Set%d/item%d", i % 3, i);
            a = tl_scope_load_name(s, name);
            failed += !tl_asset_valid(a);
        }
        assert_int_equal(failed, 1); /* the last asset of that archive */
        assert_true(log_has("corrupt content"));
        assert_int_equal(tl_scope_count(s), 29);
        tl_content_shutdown(c);
    }
    copy_dir(out_dir("Small"), dir);

    /* A table of contents byte (its checksum no longer matches). */
    flip_byte(path, 32 + 9);
    assert_false(registers(dir, false));
    assert_true(log_has(assets) && log_has("checksum"));
    copy_dir(out_dir("Small"), dir);
    /* The header's magic. */
    flip_byte(path, 1);
    assert_false(registers(dir, false));
    assert_true(log_has("bad magic"));
    copy_dir(out_dir("Small"), dir);

    /* The catalog inside its archive. */
    snprintf(path, sizeof path, "%s/%s", dir, catalog);
    flip_byte(path, -5);
    assert_false(registers(dir, false));
    assert_true(log_has(catalog));
    copy_dir(out_dir("Small"), dir);

    /* archives.json: not JSON, an unknown format, no catalog archive. */
    snprintf(path, sizeof path, "%s/archives.json", dir);
    assert_true(write_file(path, "{\"format\": 1, \"profile\": \"Small\", \"archives\": [", 47));
    assert_false(registers(dir, false));
    assert_true(log_has("not a valid archive index"));
    assert_true(write_file(path, "{\"format\": 2, \"profile\": \"Main\", \"archives\": []}", 48));
    assert_false(registers(dir, false));
    assert_true(log_has("newer format"));
    {
        const char *idx = "{\"format\": 1, \"profile\": \"Main\", \"archives\": [{\"name\": \"x.tlpk\", \"role\": \"assets\", "
                          "\"size\": 1, \"xxh64\": \"0000000000000000\"}]}";
        assert_true(write_file(path, idx, strlen(idx)));
        assert_false(registers(dir, false));
        assert_true(log_has("exactly one catalog"));
    }
    /* An archive name that leaves the directory. */
    {
        const char *idx = "{\"format\": 1, \"profile\": \"Main\", \"archives\": [{\"name\": \"../x.tlpk\", \"role\": \"catalog\", "
                          "\"size\": 1, \"xxh64\": \"0000000000000000\"}]}";
        assert_true(write_file(path, idx, strlen(idx)));
        assert_false(registers(dir, false));
    }
    /* Neither index nor catalog. */
    unlink(path);
    assert_false(registers(dir, false));
    assert_true(log_has("not a content directory"));
}

/* A byte of a raw entry read in several chunks (hashed as each chunk is read), mapped, or copied
   from its archive mapped whole in blocks (hashed as each block is copied), flipped in the archive
   where the blob's bytes at `at` are stored: the load fails as corrupt content. */
static void corrupt_raw_blob_at(const char *dir, const unsigned char *blob, size_t blob_size, size_t at) {
    char path[1000];
    DIR *listing = opendir(dir);
    struct dirent *ent;
    bool done = false;
    assert_non_null(listing);
    while (!done && (ent = readdir(listing)) != NULL) {
        size_t size = 0, i;
        unsigned char *d;
        if (!strstr(ent->d_name, ".tlpk")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        d = read_file(path, &size);
        assert_non_null(d);
        for (i = 0; size >= blob_size && i + blob_size <= size && !done; i++)
            if (memcmp(d + i, blob, blob_size) == 0) {
                d[i + at] ^= 0x5a;
                assert_true(write_file(path, d, size));
                done = true;
            }
        free(d);
    }
    closedir(listing);
    assert_true(done);
}

/* blob24 (~470 KB: read in 128 KiB chunks, or mapped from TL_CONTENT_MAP_MIN_BYTES) and blob12
   (~110 KB: copied from its archive in 512-byte blocks where the default I/O maps archives), each
   corrupted at its start, its middle and in its last, partial block or chunk. */
static void check_raw_blob_corrupted(int blob_index) {
    char dir[600], path[1000], name[32], neighbour[32];
    size_t blob_size = 0, at[3];
    unsigned char *blob;
    int k;
    snprintf(path, sizeof path, "%s/assets/Blobs/blob%d.bin", g_root, blob_index);
    snprintf(name, sizeof name, "Blobs/blob%d", blob_index);
    snprintf(neighbour, sizeof neighbour, "Blobs/blob%d", blob_index - 1);
    blob = read_file(path, &blob_size);
    assert_non_null(blob);
    at[0] = 5;
    at[1] = blob_size / 2;
    at[2] = blob_size - 3;
    snprintf(dir, sizeof dir, "%s/raw", g_tmp);
    for (k = 0; k < 3; k++) {
        tl_content *c;
        tl_scope s;
        tl_asset a;
        copy_dir(out_dir("MainRaw"), dir);
        c = make_ctx(NULL);
        assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
        s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        a = tl_scope_load_name(s, name);
        assert_true(tl_asset_valid(a) && tl_asset_size(a) == blob_size);
        assert_memory_equal(tl_asset_object(a), blob, blob_size);
        tl_content_shutdown(c);
        corrupt_raw_blob_at(dir, blob, blob_size, at[k]);
        c = make_ctx(NULL);
        assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
        s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        assert_false(tl_asset_valid(tl_scope_load_name(s, name)));
        assert_true(log_has("corrupt content"));
        assert_true(tl_asset_valid(tl_scope_load_name(s, neighbour)));
        tl_content_shutdown(c);
    }
    free(blob);
}

static void test_content_corrupt_raw_entry_in_any_chunk_fails(void **state) {
    (void)state;
    check_raw_blob_corrupted(24);
}
static void test_content_corrupt_small_raw_entry_in_any_block_fails(void **state) {
    (void)state;
    check_raw_blob_corrupted(12);
}

/* The table-of-contents record of entry `id` in one of dir's archives (format:
   schemas/content-formats.md): the archive's bytes, to change and write back. */
typedef struct toc_record {
    char path[1000];
    unsigned char *data;
    size_t size, at; /* the record's offset in data */
} toc_record;
static uint64_t get_le(const unsigned char *p, int n) {
    uint64_t v = 0;
    while (n-- > 0) v = v << 8 | p[n];
    return v;
}
static void find_record(const char *dir, uint32_t id, toc_record *r) {
    DIR *listing = opendir(dir);
    struct dirent *ent;
    assert_non_null(listing);
    r->data = NULL;
    while (!r->data && (ent = readdir(listing)) != NULL) {
        size_t count, i;
        if (!strstr(ent->d_name, ".tlpk")) continue;
        snprintf(r->path, sizeof r->path, "%s/%s", dir, ent->d_name);
        r->data = read_file(r->path, &r->size);
        assert_non_null(r->data);
        count = (size_t)get_le(r->data + 12, 4);
        for (i = 0; i < count && get_le(r->data + 32 + i * 40, 4) != id; i++) {}
        r->at = 32 + i * 40;
        if (i == count) {
            free(r->data);
            r->data = NULL;
        }
    }
    closedir(listing);
    assert_non_null(r->data);
}

/* blob24 (~470 KB decoded: several zstd blocks, several read chunks) in a compressed directory,
   corrupted three ways: a stored byte in the middle, one near the end, and the index's XXH64 of
   it (the table's checksum recomputed, so only the entry's hash check can see it). Each load of
   it fails, naming it, as corrupt content or as bytes that do not decode; its neighbour loads. */
static void check_large_compressed_entry_corrupted(const char *profile, uint32_t codec) {
    char dir[600];
    int k;
    snprintf(dir, sizeof dir, "%s/large-%s", g_tmp, profile);
    for (k = 0; k < 3; k++) {
        tl_content *c;
        tl_scope s;
        toc_record r;
        uint32_t id;
        uint64_t offset, stored;
        copy_dir(out_dir(profile), dir);
        c = make_ctx(NULL);
        assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
        id = id_of(c, "Blobs/blob24");
        tl_content_shutdown(c);
        find_record(dir, id, &r);
        assert_int_equal(get_le(r.data + r.at + 4, 4), codec);
        assert_true(get_le(r.data + r.at + 24, 8) > 3 * 128 * 1024);
        offset = get_le(r.data + r.at + 8, 8);
        stored = get_le(r.data + r.at + 16, 8);
        if (k < 2) {
            r.data[offset + (k == 0 ? stored / 2 : stored - 3)] ^= 0x5a;
        } else {
            uint64_t sum;
            int b;
            r.data[r.at + 32] ^= 0x01;
            sum = tl_hash64(r.data + 32, (size_t)get_le(r.data + 12, 4) * 40, 0);
            for (b = 0; b < 8; b++) r.data[24 + b] = (unsigned char)(sum >> (8 * b));
        }
        assert_true(write_file(r.path, r.data, r.size));
        free(r.data);
        c = make_ctx(NULL);
        assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
        s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        assert_false(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob24")));
        assert_true(log_has("Blobs/blob24"));
        assert_true(k == 2 ? log_has("corrupt content") : log_has("corrupt content") || log_has("do not decode"));
        log_reset();
        assert_false(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob24"))); /* a retry too */
        assert_true(log_has("Blobs/blob24"));
        assert_true(tl_asset_valid(tl_scope_load_name(s, "Blobs/blob23")));
        tl_content_shutdown(c);
    }
}

static void test_content_corrupt_large_lz4_entry_fails(void **state) {
    (void)state;
    check_large_compressed_entry_corrupted("Main", TL_CF_CODEC_LZ4);
}
static void test_content_corrupt_large_zstd_entry_fails(void **state) {
    (void)state;
    check_large_compressed_entry_corrupted("MainZstd", TL_CF_CODEC_ZSTD);
}

static void test_content_corrupt_flat_files_fail_to_load(void **state) {
    char dir[600], path[1000];
    tl_content *c;
    tl_scope s;
    (void)state;
    snprintf(dir, sizeof dir, "%s/flat", g_tmp);
    copy_dir(out_dir("MainFlat"), dir);
    snprintf(path, sizeof path, "%s/assets/Icons/helmet.png", dir);
    assert_true(write_file(path, "HELMET!!", 8)); /* a different size */
    snprintf(path, sizeof path, "%s/assets/Icons/sword.png", dir);
    flip_byte(path, 0); /* same size, other bytes */
    snprintf(path, sizeof path, "%s/assets/Levels/one.txt", dir);
    unlink(path);
    c = make_ctx(NULL);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Icons/helmet")));
    assert_int_equal(tl_content_last_result(c), TL_CONTENT_CORRUPT);
    assert_true(log_has("size differs from the catalog"));
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Icons/sword")));
    assert_int_equal(tl_content_last_result(c), TL_CONTENT_CORRUPT);
    assert_true(log_has("corrupt content"));
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Levels/one")));
    assert_int_equal(tl_content_last_result(c), TL_CONTENT_READ_FAILED);
    assert_true(log_has("missing"));
    assert_true(tl_asset_valid(tl_scope_load_name(s, "Levels/two")));
    assert_int_equal(tl_scope_count(s), 1); /* failures hold nothing */
    tl_content_update(c);
    tl_content_update(c);
    assert_int_equal(tl_content_live_assets(c), 1);
    /* The catalog itself: its checksum. */
    snprintf(path, sizeof path, "%s/catalog.tlcat", dir);
    flip_byte(path, -2);
    assert_false(registers(dir, false));
    assert_true(log_has("checksum"));
    tl_content_shutdown(c);
}

/* A FIFO where the directory has a file: opened without blocking, refused as not a regular file
   (one log line naming it), never waited on. SIGALRM ends the run if an open blocks again. */
static void make_fifo_at(const char *dir, const char *rel, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", dir, rel);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
}

static void check_fifo_refused(const char *from, const char *rel) {
    char dir[600], path[1000], line[1100];
    snprintf(dir, sizeof dir, "%s/fifo", g_tmp);
    copy_dir(from, dir);
    make_fifo_at(dir, rel, path, sizeof path);
    assert_false(registers(dir, false));
    snprintf(line, sizeof line, "%s is a FIFO (named pipe), not a regular file", path);
    assert_true(log_has(line));
}

static void test_content_fifos_refused_without_blocking(void **state) {
    char dir[600], path[1000], catalog[300], assets[300], first[300], line[1100];
    tl_content *c;
    tl_scope s;
    (void)state;
    alarm(30);
    check_fifo_refused(out_dir("Small"), "archives.json");
    assert_true(log_has("archives.json is not a regular file"));
    snprintf(dir, sizeof dir, "%s/fifo", g_tmp);
    copy_dir(out_dir("Small"), dir);
    pick_archives(dir, catalog, assets, first);
    check_fifo_refused(out_dir("Small"), assets);
    assert_true(log_has(assets) && log_has("is not a regular file"));
    check_fifo_refused(out_dir("MainFlat"), "catalog.tlcat");
    assert_true(log_has("catalog.tlcat is not a regular file"));
    /* A flat asset's file: its load fails, saying why; the others load. */
    copy_dir(out_dir("MainFlat"), dir);
    make_fifo_at(dir, "assets/Icons/helmet.png", path, sizeof path);
    c = make_ctx(NULL);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, dir)));
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    assert_false(tl_asset_valid(tl_scope_load_name(s, "Icons/helmet")));
    snprintf(line, sizeof line, "%s is a FIFO (named pipe), not a regular file", path);
    assert_true(log_has(line));
    assert_true(log_has("loading Icons/helmet failed: its file is not a regular file"));
    assert_true(tl_asset_valid(tl_scope_load_name(s, "Icons/sword")));
    tl_content_shutdown(c);
    alarm(0);
}

/* A flat catalog whose asset path names a file Windows cannot hold (as pack refuses to write it):
   refused at mount, the same rule (tl_cf_flat_file_name) as the generator's. */
/* A catalog's body XXH64 (header offset 32), after an edit of its body. */
static void put_body_hash(unsigned char *d, size_t size) {
    uint64_t h = tl_hash64(d + 48, size - 48, 0);
    int b;
    for (b = 0; b < 8; b++) d[32 + b] = (unsigned char)(h >> (8 * b));
}

static void test_content_flat_windows_names_refused(void **state) {
    static const char *const bad[] = {"swor?.png", "CON.x.png", "sword.pn.", "lpt1.abcd", "sw|rd.png"};
    char dir[600], path[1000];
    size_t i;
    (void)state;
    snprintf(dir, sizeof dir, "%s/flatwin", g_tmp);
    copy_dir(out_dir("MainFlat"), dir);
    snprintf(path, sizeof path, "%s/catalog.tlcat", dir);
    assert_true(registers(dir, false));
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t size = 0, k, at = 0;
        unsigned char *d = read_file(path, &size);
        assert_non_null(d);
        for (k = 48; k + 22 <= size && !at; k++)
            if (memcmp(d + k, "assets/Icons/sword.png", 22) == 0) at = k + 13;
        assert_true(at != 0);
        memcpy(d + at, bad[i], 9); /* the same length: only the name changes */
        put_body_hash(d, size);
        assert_true(write_file(path, d, size));
        assert_false(registers(dir, false));
        assert_true(log_has("names a file Windows cannot hold"));
        memcpy(d + at, "sword.png", 9);
        put_body_hash(d, size);
        assert_true(write_file(path, d, size));
        assert_true(registers(dir, false));
        free(d);
    }
}

/* ---- scopes ------------------------------------------------------------------------------------- */

typedef struct world {
    tl_content *c;
    kind_counter icons, levels, other;
    uint32_t sword, shield, helmet, one, two, blob1;
} world;

static void world_init(world *w, tl_content_desc *desc) {
    tl_content_kind_desc k;
    memset(w, 0, sizeof *w);
    w->c = make_ctx(desc);
    k = count_kind("Icons", &w->icons);
    assert_int_equal(tl_content_register_kind(w->c, &k), TL_CONTENT_OK);
    k = count_kind("Levels", &w->levels);
    assert_int_equal(tl_content_register_kind(w->c, &k), TL_CONTENT_OK);
    k = count_kind(NULL, &w->other);
    assert_int_equal(tl_content_register_kind(w->c, &k), TL_CONTENT_OK);
    assert_int_equal(tl_content_register_kind(w->c, &k), TL_CONTENT_KIND_EXISTS); /* one kind per category */
    assert_true(tl_content_dir_valid(tl_content_register_dir(w->c, out_dir("Main"))));
    w->sword = id_of(w->c, "Icons/sword");
    w->shield = id_of(w->c, "Icons/Shield");
    w->helmet = id_of(w->c, "Icons/helmet");
    w->one = id_of(w->c, "Levels/one");
    w->two = id_of(w->c, "Levels/two");
    w->blob1 = id_of(w->c, "Blobs/blob1");
}

static void world_end(world *w) {
    tl_content_shutdown(w->c);
    assert_int_equal(w->icons.live, 0);
    assert_int_equal(w->levels.live, 0);
    assert_int_equal(w->other.live, 0);
}

static unsigned long decodes(const world *w) { return w->icons.decodes + w->levels.decodes + w->other.decodes; }

static void test_content_kinds_decode_and_destroy(void **state) {
    world w;
    tl_scope s;
    decoded *d;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    d = (decoded *)tl_asset_object(tl_scope_load(s, w.sword));
    assert_non_null(d);
    assert_string_equal(d->category, "Icons");
    assert_int_equal(d->id, w.sword);
    assert_memory_equal(d->bytes, "SWORD", 5);
    d = (decoded *)tl_asset_object(tl_scope_load(s, w.blob1));
    assert_string_equal(d->category, "Blobs"); /* the default kind */
    assert_int_equal(w.other.decodes, 1);
    d = (decoded *)tl_asset_object(tl_scope_load(s, w.one));
    assert_string_equal(d->category, "Levels");
    tl_scope_dispose(s);
    assert_int_equal(w.icons.destroys, 0); /* not before collect */
    tl_content_update(w.c);
    assert_int_equal(w.icons.destroys, 0); /* release_delay_frames = 1 */
    tl_content_update(w.c);
    assert_int_equal(w.icons.destroys + w.levels.destroys + w.other.destroys, 3);
    /* A decoder that fails: an invalid asset, nothing held, logged. */
    s = tl_scope_create(tl_content_root(w.c), "T", TL_SCOPE_LEVEL);
    w.icons.fail_left = 1;
    assert_false(tl_asset_valid(tl_scope_load(s, w.shield)));
    assert_true(log_has("decoder refused"));
    assert_false(tl_scope_contains(s, w.shield));
    assert_int_equal(tl_scope_count(s), 0);
    tl_content_update(w.c);
    tl_content_update(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    assert_true(tl_asset_valid(tl_scope_load(s, w.shield))); /* and loads when it can */
    world_end(&w);
}

static void test_content_dedupe_per_scope(void **state) {
    world w;
    tl_scope s, t;
    tl_asset a, b;
    int i;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    t = tl_scope_create(tl_content_root(w.c), "T", TL_SCOPE_LEVEL);
    a = tl_scope_load(s, w.sword);
    for (i = 0; i < 1000; i++) {
        b = tl_scope_load(s, w.sword);
        assert_memory_equal(&a, &b, sizeof a);
        b = tl_scope_load_name(s, "icons/Sword");
        assert_memory_equal(&a, &b, sizeof a);
        tl_content_update(w.c); /* every frame */
    }
    assert_int_equal(tl_scope_count(s), 1);
    assert_int_equal(tl_scope_peak(s), 1);
    assert_int_equal(tl_asset_count(a), 1);
    assert_int_equal(decodes(&w), 1);
    /* One slot across scopes: another scope shares it and counts once. */
    b = tl_scope_load(t, w.sword);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(tl_asset_count(a), 2);
    assert_int_equal(decodes(&w), 1);
    assert_true(tl_scope_contains(s, w.sword));
    assert_false(tl_scope_contains(s, w.shield));
    world_end(&w);
}

static void test_content_release_collect_and_generation(void **state) {
    world w;
    tl_scope s;
    tl_asset a, b;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    a = tl_scope_load(s, w.sword);
    assert_int_equal(tl_scope_release(s, w.sword), TL_CONTENT_OK);
    assert_int_equal(tl_scope_release(s, w.sword), TL_CONTENT_NOT_HELD); /* not held any more */
    assert_false(tl_scope_contains(s, w.sword));
    assert_true(tl_asset_valid(a)); /* queued, not yet released */
    assert_int_equal(tl_content_get_stats(w.c).queued, 1);
    tl_content_update(w.c); /* frame of the release: waits one frame */
    assert_true(tl_asset_valid(a));
    tl_content_update(w.c);
    assert_false(tl_asset_valid(a)); /* the generation moved on: detected */
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_INVALID);
    log_reset();
    assert_null(tl_asset_object(a));
    assert_int_equal(log_count(TL_CONTENT_LOG_STALE_ASSET), 1);
    assert_int_equal(tl_asset_id(a), 0);
    /* The slot is reused by another asset: the old handle still does not resolve. */
    b = tl_scope_load(s, w.shield);
    assert_int_equal(b.slot, a.slot);
    assert_int_not_equal(b.gen, a.gen);
    assert_false(tl_asset_valid(a));
    assert_true(tl_asset_valid(b));
    /* Release and re-acquire within a frame, or before collect: never reloads. */
    assert_int_equal(tl_scope_release(s, w.shield), TL_CONTENT_OK);
    assert_true(tl_asset_valid(tl_scope_load(s, w.shield)));
    tl_content_update(w.c);
    assert_int_equal(tl_scope_release(s, w.shield), TL_CONTENT_OK);
    tl_content_update(w.c);
    assert_true(tl_asset_valid(tl_scope_load(s, w.shield)));
    tl_content_update(w.c);
    tl_content_update(w.c);
    assert_int_equal(w.icons.decodes, 2); /* sword once, shield once */
    assert_int_equal(tl_content_get_stats(w.c).queued, 0);
    world_end(&w);
}

static void test_content_release_delay_and_manual_collect(void **state) {
    world w;
    tl_content_desc desc;
    tl_scope s;
    int f;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.release_delay_frames = 3;
    world_init(&w, &desc);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    tl_scope_load(s, w.sword);
    tl_scope_release(s, w.sword);
    for (f = 0; f < 3; f++) {
        tl_content_update(w.c);
        assert_int_equal(tl_content_live_assets(w.c), 1);
    }
    tl_content_update(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    world_end(&w);

    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    world_init(&w, &desc);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    tl_scope_load(s, w.sword);
    tl_scope_release(s, w.sword);
    tl_content_update(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    world_end(&w);

    desc.release_delay_frames = 0;
    desc.manual_collect = true;
    world_init(&w, &desc);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    tl_scope_load(s, w.sword);
    tl_scope_release(s, w.sword);
    for (f = 0; f < 5; f++) tl_content_update(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 1); /* auto-collect is off */
    tl_content_collect(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    tl_scope_load(s, w.sword);
    tl_scope_release(s, w.sword);
    tl_content_set_auto_collect(w.c, true);
    tl_content_update(w.c);
    tl_content_update(w.c);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    world_end(&w);
}

static void test_content_share_adopt_attach(void **state) {
    world w;
    tl_scope s, t, u;
    tl_asset a;
    tl_content_handle h, h2, h3;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    t = tl_scope_create(tl_content_root(w.c), "T", TL_SCOPE_SCREEN);
    u = tl_scope_create(tl_content_root(w.c), "U", TL_SCOPE_ENTITY);
    a = tl_scope_load(s, w.sword);
    assert_int_equal(tl_scope_share_to(s, t, w.shield), TL_CONTENT_NOT_HELD); /* the source does not hold it */
    assert_int_equal(tl_scope_share_to(s, t, w.sword), TL_CONTENT_OK);
    assert_int_equal(tl_scope_share_to(s, t, w.sword), TL_CONTENT_OK); /* once per scope */
    assert_int_equal(tl_asset_count(a), 2);
    assert_int_equal(tl_scope_adopt(u, a), TL_CONTENT_OK);
    assert_int_equal(tl_scope_adopt(u, a), TL_CONTENT_OK);
    assert_int_equal(tl_asset_count(a), 3);
    tl_scope_dispose(s); /* the others keep it */
    tl_content_update(w.c);
    tl_content_update(w.c);
    assert_true(tl_asset_valid(a));
    assert_int_equal(tl_asset_count(a), 2);

    /* Raw handles: acquire, share, dispose, attach. */
    h = tl_content_acquire(w.c, w.helmet);
    assert_true(tl_content_handle_valid(h));
    h2 = tl_content_share(h);
    assert_int_equal(tl_asset_count(tl_content_handle_asset(h)), 2);
    assert_int_equal(tl_content_dispose(h), TL_CONTENT_OK);
    log_reset();
    assert_int_equal(tl_content_dispose(h), TL_CONTENT_STALE_HANDLE); /* twice: detected */
    assert_int_equal(log_count(TL_CONTENT_LOG_STALE_HANDLE), 1);
    assert_false(tl_content_handle_valid(tl_content_share(h)));
    assert_int_equal(tl_scope_attach(t, h2), TL_CONTENT_OK); /* the scope owns it now */
    assert_false(tl_content_handle_valid(h2));
    assert_true(tl_scope_contains(t, w.helmet));
    assert_int_equal(tl_asset_count(tl_scope_load(t, w.helmet)), 1);
    h3 = tl_content_acquire(w.c, w.helmet);
    assert_int_equal(tl_scope_attach(t, h3), TL_CONTENT_OK); /* held already: the reference goes back */
    assert_int_equal(tl_asset_count(tl_scope_load(t, w.helmet)), 1);
    assert_int_equal(tl_scope_count(t), 2);
    assert_int_equal(tl_scope_attach(t, h3), TL_CONTENT_STALE_HANDLE);
    h = tl_content_acquire_async(w.c, w.two);
    assert_int_equal(tl_asset_get_status(tl_content_handle_asset(h)), TL_ASSET_LOADING);
    tl_content_update(w.c);
    assert_int_equal(tl_asset_get_status(tl_content_handle_asset(h)), TL_ASSET_READY);
    assert_int_equal(tl_content_dispose(h), TL_CONTENT_OK);
    world_end(&w);
}

static void test_content_scope_tree_and_leak_warnings(void **state) {
    world w;
    tl_content_desc desc;
    tl_scope field, a, b, cc, npc, popup, npc_menu, stale;
    const char *pa, *pb, *pc;
    char path[256];
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.capture_origin = true;
    world_init(&w, &desc);
    field = tl_scope_create(tl_content_root(w.c), "Field", TL_SCOPE_LEVEL);
    a = tl_scope_create(field, "A", TL_SCOPE_EXPLICIT);
    b = TL_SCOPE_CREATE(field, "B", TL_SCOPE_EXPLICIT);
    assert_true(tl_scope_valid(b));
    cc = tl_scope_create(field, "C", TL_SCOPE_EXPLICIT);
    npc = tl_scope_create(field, "Npc", TL_SCOPE_ENTITY);
    popup = tl_scope_create(a, "ChildPopup", TL_SCOPE_EXPLICIT);
    npc_menu = tl_scope_create(npc, "Menu", TL_SCOPE_EXPLICIT);
    assert_int_equal(tl_scope_path(popup, path, sizeof path), strlen("Root/Field/A/ChildPopup"));
    assert_string_equal(path, "Root/Field/A/ChildPopup");
    assert_int_equal(tl_scope_path(popup, path, 5), strlen("Root/Field/A/ChildPopup"));
    assert_string_equal(path, "Root");
    tl_scope_load(npc, w.sword);
    tl_scope_load(popup, w.sword);
    tl_scope_load(npc_menu, w.one);
    tl_scope_load(cc, w.one);
    /* Disposing a scope yourself is quiet. */
    stale = tl_scope_create(field, "Quiet", TL_SCOPE_EXPLICIT);
    assert_int_equal(tl_scope_dispose(stale), TL_CONTENT_OK);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_LEAKED), 0);
    assert_false(tl_scope_valid(stale));
    assert_int_equal(tl_scope_dispose(stale), TL_CONTENT_STALE_SCOPE);
    assert_int_equal(log_count(TL_CONTENT_LOG_STALE_SCOPE), 1);
    assert_false(tl_asset_valid(tl_scope_load(stale, w.sword)));
    log_reset();
    assert_int_equal(tl_scope_dispose(field), TL_CONTENT_OK);
    /* Children first, the last child first. Only the explicit scopes the level itself reclaims
       warn: one ending with its explicit parent (A/ChildPopup) or with an entity (Npc/Menu) has
       had its normal lifetime. */
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_LEAKED), 3);
    pc = strstr(g_log.text, "Root/Field/C ");
    pb = strstr(g_log.text, "Root/Field/B ");
    pa = strstr(g_log.text, "Root/Field/A ");
    assert_true(pc && pb && pa && pc < pb && pb < pa);
    assert_null(strstr(g_log.text, "ChildPopup"));
    assert_null(strstr(g_log.text, "Menu"));
    assert_true(log_has("Root/Field/B was reclaimed by level scope Root/Field: dispose it yourself (created at "));
    assert_true(log_has("test_content.c:"));
    assert_null(strstr(g_log.text, "Npc"));
    assert_false(tl_scope_valid(npc));
    assert_false(tl_scope_valid(npc_menu));
    assert_false(tl_scope_valid(popup));
    assert_int_equal(tl_content_get_stats(w.c).scopes, 1);
    assert_int_equal(tl_content_get_stats(w.c).held_assets, 0);
    /* The root ends only at shutdown. */
    assert_int_equal(tl_scope_dispose(tl_content_root(w.c)), TL_CONTENT_ROOT_DISPOSE);
    assert_int_equal(log_count(TL_CONTENT_LOG_ROOT_DISPOSE), 1);
    world_end(&w);
}

/* Scopes of every owner kind end their explicit children quietly; shutdown reclaiming an
   explicit scope of the root warns, as a level does. */
static void test_content_scope_leak_warnings_by_parent_kind(void **state) {
    world w;
    tl_scope root, screen, owned, entity, explicit_parent;
    (void)state;
    world_init(&w, NULL);
    root = tl_content_root(w.c);
    screen = tl_scope_create(root, "Hud", TL_SCOPE_SCREEN);
    owned = tl_scope_create(root, "Pool", TL_SCOPE_OWNED);
    entity = tl_scope_create(root, "Player", TL_SCOPE_ENTITY);
    explicit_parent = tl_scope_create(root, "Stage", TL_SCOPE_EXPLICIT);
    tl_scope_create(screen, "Tooltip", TL_SCOPE_EXPLICIT);
    tl_scope_create(owned, "Cell", TL_SCOPE_EXPLICIT);
    tl_scope_create(entity, "Inventory", TL_SCOPE_EXPLICIT);
    tl_scope_create(explicit_parent, "Popup", TL_SCOPE_EXPLICIT);
    tl_scope_create(root, "Forgotten", TL_SCOPE_EXPLICIT);
    assert_int_equal(tl_scope_dispose(screen), TL_CONTENT_OK);
    assert_int_equal(tl_scope_dispose(owned), TL_CONTENT_OK);
    assert_int_equal(tl_scope_dispose(entity), TL_CONTENT_OK);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_LEAKED), 0);
    world_end(&w);
    /* Stage and Forgotten (reclaimed by shutdown); not Stage/Popup (its explicit parent ended). */
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_LEAKED), 2);
    assert_true(log_has("explicit scope Root/Stage was reclaimed by shutdown: dispose it yourself"));
    assert_true(log_has("explicit scope Root/Forgotten was reclaimed by shutdown"));
    assert_null(strstr(g_log.text, "Popup"));
}

/* An entity scope moved to another level keeps what it holds (no release, no second decode)
   and ends with its new level, not its old one. */
static void test_content_scope_reparent_keeps_references(void **state) {
    world w;
    tl_scope root, field, town, npc, child, sibling;
    tl_asset sword;
    char path[128];
    unsigned long before;
    (void)state;
    world_init(&w, NULL);
    root = tl_content_root(w.c);
    field = tl_scope_create(root, "Field", TL_SCOPE_LEVEL);
    town = tl_scope_create(root, "Town", TL_SCOPE_LEVEL);
    npc = tl_scope_create(field, "Npc", TL_SCOPE_ENTITY);
    sibling = tl_scope_create(field, "Tree", TL_SCOPE_ENTITY);
    child = tl_scope_create(npc, "Hat", TL_SCOPE_ENTITY);
    sword = tl_scope_load(npc, w.sword);
    tl_scope_load(child, w.one);
    before = decodes(&w);
    assert_int_equal(tl_scope_reparent(npc, town), TL_CONTENT_OK);
    tl_scope_path(child, path, sizeof path);
    assert_string_equal(path, "Root/Town/Npc/Hat");
    assert_int_equal(tl_scope_parent(npc).index, town.index);
    assert_int_equal(tl_scope_reparent(npc, town), TL_CONTENT_OK); /* already there: nothing changes */
    /* Refused: the root, a parent inside the scope's own subtree, the scope itself. */
    log_reset();
    assert_int_equal(tl_scope_reparent(root, town), TL_CONTENT_INVALID_ARGUMENT);
    assert_int_equal(tl_scope_reparent(npc, child), TL_CONTENT_INVALID_ARGUMENT);
    assert_int_equal(tl_scope_reparent(npc, npc), TL_CONTENT_INVALID_ARGUMENT);
    assert_int_equal(log_count(TL_CONTENT_LOG_INVALID_ARGUMENT), 3);
    assert_int_equal(tl_scope_dispose(field), TL_CONTENT_OK);
    tl_content_collect(w.c);
    assert_true(tl_scope_valid(npc));
    assert_true(tl_scope_valid(child));
    assert_false(tl_scope_valid(sibling));
    assert_int_equal(tl_asset_get_status(sword), TL_ASSET_READY);
    assert_int_equal(decodes(&w), before);
    assert_int_equal(tl_scope_dispose(town), TL_CONTENT_OK);
    assert_false(tl_scope_valid(child));
    assert_int_equal(tl_scope_reparent(npc, root), TL_CONTENT_STALE_SCOPE); /* stale */
    world_end(&w);
}

static void test_content_warn_threshold(void **state) {
    world w;
    tl_content_desc desc;
    tl_scope s, t;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.warn_threshold = 3;
    world_init(&w, &desc);
    s = tl_scope_create(tl_content_root(w.c), "Hoarder", TL_SCOPE_LEVEL);
    t = tl_scope_create(tl_content_root(w.c), "Small", TL_SCOPE_LEVEL);
    tl_scope_set_warn_threshold(t, 1);
    tl_scope_load(s, w.sword);
    tl_scope_load(s, w.shield);
    tl_scope_load(s, w.helmet);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 0);
    tl_scope_load(s, w.one);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 1);
    assert_true(log_has("scope Root/Hoarder holds 4 assets, more than its threshold 3"));
    tl_scope_load(s, w.two);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 1); /* once per crossing */
    tl_scope_release(s, w.two);
    tl_scope_release(s, w.one);
    tl_scope_load(s, w.one);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 2);
    tl_scope_load(t, w.sword);
    tl_scope_load(t, w.shield);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 3);
    tl_scope_set_warn_threshold(s, TL_SCOPE_NO_THRESHOLD);
    tl_scope_load(s, w.blob1);
    assert_int_equal(log_count(TL_CONTENT_LOG_SCOPE_THRESHOLD), 3);
    world_end(&w);
}

/* ---- asynchronous loads -------------------------------------------------------------------------- */

static void test_content_async_loads_polled_per_frame(void **state) {
    world w;
    tl_content_desc desc;
    tl_scope s;
    tl_asset a[5];
    uint32_t ids[8];
    int i, ready = 0;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.max_loads_per_frame = 2;
    world_init(&w, &desc);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    a[0] = tl_scope_load_async(s, w.sword);
    a[1] = tl_scope_load_async(s, w.shield);
    a[2] = tl_scope_load_async(s, w.helmet);
    a[3] = tl_scope_load_name_async(s, "Levels/one");
    a[4] = tl_scope_load_async(s, w.two);
    for (i = 0; i < 5; i++) assert_int_equal(tl_asset_get_status(a[i]), TL_ASSET_LOADING);
    assert_null(tl_asset_object(a[0]));
    assert_int_equal(tl_content_loading(w.c, ids, 8), 5);
    assert_int_equal(tl_scope_count(s), 5);
    {
        tl_asset again = tl_scope_load_async(s, w.sword); /* deduped */
        assert_memory_equal(&a[0], &again, sizeof again);
    }
    tl_content_update(w.c);
    for (i = 0; i < 5; i++) ready += tl_asset_get_status(a[i]) == TL_ASSET_READY;
    assert_int_equal(ready, 2);
    assert_int_equal(tl_content_loading(w.c, ids, 8), 3);
    /* A synchronous load of a loading asset completes it now. */
    assert_int_equal(tl_asset_get_status(tl_scope_load(s, w.two)), TL_ASSET_READY);
    tl_content_update(w.c);
    tl_content_update(w.c);
    for (i = 0; i < 5; i++) assert_int_equal(tl_asset_get_status(a[i]), TL_ASSET_READY);
    assert_int_equal(tl_content_loading(w.c, ids, 8), 0);
    assert_int_equal(decodes(&w), 5);
    world_end(&w);
}

static void test_content_cancelled_load_released_at_next_collect(void **state) {
    world w;
    tl_scope s;
    tl_asset a;
    tl_content_handle h;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "S", TL_SCOPE_LEVEL);
    a = tl_scope_load_async(s, w.sword);
    assert_int_equal(tl_scope_release(s, w.sword), TL_CONTENT_OK); /* cancelled: the reference returns at once */
    assert_int_equal(tl_asset_count(a), 0);
    assert_int_equal(tl_scope_count(s), 0);
    h = tl_content_acquire_async(w.c, w.shield);
    assert_int_equal(tl_content_dispose(h), TL_CONTENT_OK);
    tl_scope_load_async(s, w.helmet);
    tl_scope_dispose(s); /* a scope ending cancels its loads */
    assert_int_equal(tl_content_get_stats(w.c).loading, 3);
    tl_content_update(w.c); /* the loads finish and the same frame's collect releases them */
    assert_int_equal(w.icons.decodes, 3);
    assert_int_equal(w.icons.destroys, 3);
    assert_int_equal(tl_content_live_assets(w.c), 0);
    world_end(&w);
}

static void test_content_async_backend(void **state) {
    async_io io;
    tl_content_desc desc;
    tl_content *c;
    tl_scope s;
    tl_asset a, b, f;
    uint32_t sword;
    int frames = 0;
    (void)state;
    memset(&io, 0, sizeof io);
    io.polls = 3;
    memset(&desc, 0, sizeof desc);
    desc.io = async_backend(&io);
    c = make_ctx(&desc);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("MainZstd"))));
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Extra")))); /* flat: a file per read */
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    sword = id_of(c, "Icons/sword");
    a = tl_scope_load_async(s, sword);
    b = tl_scope_load_name_async(s, "Misc/note");
    while (tl_asset_get_status(a) == TL_ASSET_LOADING) {
        tl_content_update(c);
        frames++;
    }
    assert_int_equal(frames, 5); /* begun in the first update, pending for 3 polls, done at the 4th */
    assert_memory_equal(tl_asset_object(a), "SWORD", 5);
    assert_memory_equal(tl_asset_object(b), "a note", 6);
    /* A synchronous load of an asset whose read is in flight waits for it. */
    b = tl_scope_load_name_async(s, "Levels/two");
    tl_content_update(c);
    assert_int_equal(io.live, 1);
    assert_int_equal(tl_asset_get_status(tl_scope_load_name(s, "Levels/two")), TL_ASSET_READY);
    assert_int_equal(io.live, 0);
    /* A read that fails: the holders see FAILED; loading it again retries. */
    io.fail_next = 1;
    f = tl_scope_load_name_async(s, "Levels/one");
    while (tl_asset_get_status(f) == TL_ASSET_LOADING) tl_content_update(c);
    assert_int_equal(tl_asset_get_status(f), TL_ASSET_FAILED);
    assert_int_equal(tl_asset_result(f), TL_CONTENT_READ_FAILED); /* why, for its holders */
    assert_true(tl_scope_contains(s, tl_asset_id(f)));
    assert_int_equal(tl_asset_get_status(tl_scope_load_name(s, "Levels/one")), TL_ASSET_READY);
    /* Cancelled while in flight, then shutdown with a read in flight. */
    a = tl_scope_load_name_async(s, "Blobs/blob3");
    tl_content_update(c);
    tl_scope_release(s, tl_asset_id(a));
    tl_scope_load_name_async(s, "Blobs/blob4");
    tl_content_update(c);
    assert_int_equal(io.live, 2);
    tl_content_shutdown(c);
    assert_int_equal(io.live, 0);
}

/* ---- results (docs/errors.md) ----------------------------------------------------------------------- */

/* Each failure answers the result the header lists, with its message, and logs one line naming
   what failed; a maker that succeeds answers TL_CONTENT_OK. */
static void test_content_results_say_why(void **state) {
    world w;
    tl_scope s;
    tl_asset a;
    char nowhere[600];
    (void)state;
    assert_string_equal(tl_content_result_message(TL_CONTENT_OK), "ok");
    assert_string_equal(tl_content_result_message(TL_CONTENT_NOT_HELD), "the scope does not hold the asset");
    assert_string_equal(tl_content_result_message(TL_CONTENT_RESULT_END_), "unknown result");
    assert_int_equal(tl_content_last_result(NULL), TL_CONTENT_INVALID_ARGUMENT);
    world_init(&w, NULL);
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_OK);
    /* Directories: nothing there, and a profile registered twice. */
    snprintf(nowhere, sizeof nowhere, "%s/nowhere", g_tmp);
    log_reset();
    assert_false(tl_content_dir_valid(tl_content_register_dir(w.c, nowhere)));
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_DIR_MISSING);
    assert_int_equal(log_count(TL_CONTENT_LOG_DIR_REFUSED), 1);
    assert_true(log_has(nowhere));
    assert_false(tl_content_dir_valid(tl_content_register_dir(w.c, out_dir("Main"))));
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_DIR_REFUSED);
    assert_true(log_has("its profile is already registered"));
    /* A maker that succeeds says so. */
    s = tl_scope_create(tl_content_root(w.c), "Field", TL_SCOPE_LEVEL);
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_OK);
    /* An id no directory holds. */
    log_reset();
    assert_false(tl_asset_valid(tl_scope_load(s, 74565u)));
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_UNKNOWN_ASSET);
    assert_int_equal(log_count(TL_CONTENT_LOG_UNKNOWN_ASSET), 1);
    assert_true(log_has("tl_scope_load: no registered directory holds asset 74565"));
    /* Releasing what the scope does not hold: a result and a warning naming scope and id. */
    log_reset();
    assert_int_equal(tl_scope_release(s, w.sword), TL_CONTENT_NOT_HELD);
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_NOT_HELD);
    assert_int_equal(log_count(TL_CONTENT_LOG_NOT_HELD), 1);
    snprintf(nowhere, sizeof nowhere, "tl_scope_release: scope Root/Field does not hold asset %u", (unsigned)w.sword);
    assert_true(log_has(nowhere));
    /* A decoder that refuses: synchronously the maker's result, asynchronously the asset's. */
    log_reset();
    w.icons.fail_left = 1;
    assert_false(tl_asset_valid(tl_scope_load(s, w.shield)));
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_DECODE_FAILED);
    assert_true(log_has("loading Icons/Shield failed: the decoder refused it"));
    w.icons.fail_left = 1;
    a = tl_scope_load_async(s, w.helmet);
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_OK); /* made: it loads later */
    assert_int_equal(tl_asset_result(a), TL_CONTENT_OK);          /* loading */
    while (tl_asset_get_status(a) == TL_ASSET_LOADING) tl_content_update(w.c);
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_FAILED);
    assert_int_equal(tl_asset_result(a), TL_CONTENT_DECODE_FAILED);
    assert_true(log_has("loading Icons/helmet failed: the decoder refused it"));
    a = tl_scope_load(s, w.helmet); /* a retry that works clears it */
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
    assert_int_equal(tl_asset_result(a), TL_CONTENT_OK);
    memset(&a, 0, sizeof a);
    assert_int_equal(tl_asset_result(a), TL_CONTENT_STALE_ASSET);
    /* Stale handles and the root. */
    assert_int_equal(tl_scope_dispose(tl_content_root(w.c)), TL_CONTENT_ROOT_DISPOSE);
    assert_int_equal(tl_scope_dispose(s), TL_CONTENT_OK);
    assert_int_equal(tl_scope_dispose(s), TL_CONTENT_STALE_SCOPE);
    assert_int_equal(tl_scope_set_warn_threshold(s, 3), TL_CONTENT_STALE_SCOPE);
    world_end(&w);
}

/* ---- diagnostics and shutdown ---------------------------------------------------------------------- */

static void test_content_dump_snapshot_stats(void **state) {
    world w;
    tl_scope lobby, hold, boss;
    tl_content_ref refs[16];
    tl_content_stats st;
    tl_content_handle h;
    char tree[1024];
    size_t n;
    const char *want = "Root [Root] 0 (peak 0)\n"
                       "  Lobby [Level] 0 (peak 0)\n"
                       "    Hold [Explicit] 1 (peak 1) : Icons/sword\n"
                       "    Boss [Entity] 1 (peak 2) : Icons/Shield\n";
    (void)state;
    world_init(&w, NULL);
    lobby = tl_scope_create(tl_content_root(w.c), "Lobby", TL_SCOPE_LEVEL);
    hold = tl_scope_create(lobby, "Hold", TL_SCOPE_EXPLICIT);
    boss = tl_scope_create(lobby, "Boss", TL_SCOPE_ENTITY);
    tl_scope_load(hold, w.sword);
    tl_scope_load(boss, w.shield);
    tl_scope_load(boss, w.helmet);
    tl_scope_release(boss, w.helmet);
    n = tl_content_dump_tree(w.c, tree, sizeof tree);
    assert_int_equal(n, strlen(want));
    assert_string_equal(tree, want);
    assert_int_equal(tl_content_dump_tree(w.c, tree, 10), strlen(want));
    assert_int_equal(strlen(tree), 9);
    log_reset();
    tl_content_log_tree(w.c);
    assert_true(log_has("Content: info:     Hold [Explicit] 1 (peak 1) : Icons/sword\n"));
    h = tl_content_acquire(w.c, w.sword);
    assert_int_equal(tl_content_snapshot(w.c, refs, 16), 3);
    assert_int_equal(tl_content_snapshot(w.c, NULL, 0), 3);
    assert_string_equal(refs[0].name, "Icons/sword");
    assert_string_equal(tl_scope_name(refs[0].scope), "Hold");
    assert_int_equal(refs[0].count, 2);
    assert_string_equal(refs[1].name, "Icons/Shield");
    assert_true(tl_content_handle_valid(refs[2].handle));
    assert_false(tl_scope_valid(refs[2].scope));
    assert_int_equal(refs[2].id, w.sword);
    assert_int_equal(refs[2].status, TL_ASSET_READY);
    st = tl_content_get_stats(w.c);
    assert_int_equal(st.live_assets, 3);
    assert_int_equal(st.held_assets, 2);
    assert_int_equal(st.queued, 1);
    assert_int_equal(st.references, 3);
    assert_int_equal(st.raw_handles, 1);
    assert_int_equal(st.scopes, 4);
    assert_int_equal(st.directories, 1);
    assert_int_equal(st.loads, 3);
    assert_int_equal(tl_scope_get_kind(boss), TL_SCOPE_ENTITY);
    assert_string_equal(tl_scope_name(tl_scope_parent(boss)), "Lobby");
    tl_content_dispose(h);
    world_end(&w);
}

static void test_content_shutdown_reports_raw_handles(void **state) {
    world w;
    tl_scope s;
    (void)state;
    world_init(&w, NULL);
    s = tl_scope_create(tl_content_root(w.c), "Popup", TL_SCOPE_EXPLICIT);
    tl_scope_load(s, w.one);
    tl_content_acquire(w.c, w.sword);
    tl_content_acquire(w.c, w.shield);
    tl_content_share(tl_content_acquire(w.c, w.helmet));
    log_reset();
    world_end(&w);
    assert_int_equal(log_count(TL_CONTENT_LOG_RAW_LEFTOVER), 4);
    assert_true(log_has("a raw handle to Icons/sword was never disposed"));
    assert_true(log_has("shutdown: 4 raw handle(s) were never disposed"));
    assert_true(log_has("explicit scope Root/Popup was reclaimed"));
    assert_int_equal(w.icons.destroys, 3);
}

/* ---- callbacks ------------------------------------------------------------------------------------- */

typedef struct dep_kind { tl_scope deps; uint32_t dep; tl_content *c; int refused; } dep_kind;
static void *dep_decode(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    dep_kind *k = (dep_kind *)user;
    (void)info;
    (void)bytes;
    /* A level loads what it needs into a scope of its own; collect is refused here. */
    if (!tl_asset_valid(tl_scope_load(k->deps, k->dep))) return NULL;
    tl_content_collect(k->c);
    tl_content_update(k->c);
    k->refused = (int)log_count(TL_CONTENT_LOG_CALLBACK_REFUSED);
    return malloc(size + 1);
}
static void dep_destroy(void *user, const tl_content_info *info, void *object) {
    (void)user;
    (void)info;
    free(object);
}

static void test_content_callbacks_may_load(void **state) {
    tl_content *c = make_ctx(NULL);
    dep_kind k;
    tl_content_kind_desc kd;
    tl_scope s;
    (void)state;
    memset(&kd, 0, sizeof kd);
    kd.category = "Levels";
    kd.decode = dep_decode;
    kd.destroy = dep_destroy;
    kd.user = &k;
    assert_int_equal(tl_content_register_kind(c, &kd), TL_CONTENT_OK);
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Main"))));
    k.c = c;
    k.deps = tl_scope_create(tl_content_root(c), "Deps", TL_SCOPE_OWNED);
    k.dep = id_of(c, "Blobs/blob2");
    s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    assert_true(tl_asset_valid(tl_scope_load_name(s, "Levels/one")));
    assert_int_equal(k.refused, 2);
    assert_true(tl_scope_contains(k.deps, k.dep));
    assert_true(tl_asset_valid(tl_scope_load_name_async(s, "Levels/two")));
    tl_content_update(c);
    assert_int_equal(tl_asset_get_status(tl_scope_load_name(s, "Levels/two")), TL_ASSET_READY);
    tl_content_shutdown(c);
}

/* A destroy callback that loads (once each: an id by raw handle, a name into the root). */
typedef struct reload_kind {
    tl_content *c;
    uint32_t id;
    const char *name;
    tl_scope scope; /* and, after the name, `scope_id` into this scope */
    uint32_t scope_id;
    tl_content_handle got;
    tl_asset got_named, got_scoped;
    int got_valid, decodes, destroys;
} reload_kind;
static void *reload_decode(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    (void)info;
    (void)bytes;
    ((reload_kind *)user)->decodes++;
    return malloc(size + 1);
}
static void reload_destroy(void *user, const tl_content_info *info, void *object) {
    reload_kind *k = (reload_kind *)user;
    (void)info;
    free(object);
    k->destroys++;
    if (k->id) {
        k->got = tl_content_acquire(k->c, k->id);
        k->got_valid = tl_content_handle_valid(k->got);
        k->id = 0;
    }
    if (k->name) {
        k->got_named = tl_scope_load_name(tl_content_root(k->c), k->name);
        k->name = NULL;
    }
    if (k->scope_id) {
        k->got_scoped = tl_scope_load(k->scope, k->scope_id);
        k->scope_id = 0;
    }
}
static tl_content *reload_ctx(reload_kind *k) {
    tl_content_kind_desc kd;
    memset(k, 0, sizeof *k);
    memset(&kd, 0, sizeof kd);
    kd.decode = reload_decode;
    kd.destroy = reload_destroy;
    kd.user = k;
    k->c = make_ctx(NULL);
    assert_int_equal(tl_content_register_kind(k->c, &kd), TL_CONTENT_OK);
    return k->c;
}

static void test_content_destroy_loading_from_unregistered_dir(void **state) {
    /* The directory's ids and names go before its destroy callbacks run: loading one of its
       assets from there fails as unknown, instead of making a slot on entries about to be freed. */
    reload_kind k;
    tl_content *c = reload_ctx(&k);
    tl_content_dir d = tl_content_register_dir(c, out_dir("Main"));
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    uint32_t sword = id_of(c, "Icons/sword");
    tl_content_ref refs[4];
    tl_content_stats st;
    char tree[4096];
    (void)state;
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Extra"))));
    assert_true(tl_asset_valid(tl_scope_load(s, sword)));
    tl_scope_dispose(s); /* the sword waits for collect: unregister releases it on the spot */
    k.id = id_of(c, "Levels/one");
    k.name = "Icons/sword"; /* Main's until now; Extra's once Main is going */
    log_reset();
    assert_int_equal(tl_content_unregister_dir(d, false), TL_CONTENT_OK);
    /* What reads every live slot's entry first (freed memory before the fix). */
    tl_content_dump_tree(c, tree, sizeof tree);
    assert_int_equal(tl_content_snapshot(c, refs, 4), 1);
    assert_string_equal(refs[0].name, "Icons/sword");
    assert_non_null(strstr(tree, "Icons/sword"));
    assert_int_equal(k.destroys, 1);
    assert_false(k.got_valid);
    assert_int_equal(log_count(TL_CONTENT_LOG_UNKNOWN_ASSET), 1);
    assert_true(tl_asset_valid(k.got_named)); /* other directories still load */
    assert_int_not_equal(tl_asset_id(k.got_named), sword);
    assert_string_equal(tl_asset_name(k.got_named), "Icons/sword");
    assert_int_equal(tl_asset_size(k.got_named), strlen("EXTRA SWORD (shadowed by Main)\n"));
    assert_int_equal(tl_content_live_assets(c), 1);
    st = tl_content_get_stats(c);
    assert_int_equal(st.references, 1);
    assert_int_equal(st.directories, 1);
    tl_content_shutdown(c);
    assert_int_equal(k.decodes, k.destroys);
}

static void test_content_forced_unregister_stale_key_in_callback(void **state) {
    /* A forced unregister frees the held asset's slot before its destroy callback runs; a load
       there reuses the slot. The scope that held the asset must not answer its old key with the
       newcomer: the key's generation no longer matches. */
    reload_kind k;
    tl_content *c = reload_ctx(&k);
    tl_content_dir d = tl_content_register_dir(c, out_dir("Main"));
    tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
    uint32_t sword = id_of(c, "Icons/sword");
    (void)state;
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Extra"))));
    assert_true(tl_asset_valid(tl_scope_load(s, sword)));
    k.name = "Icons/sword"; /* Extra's, once Main is going: it takes the freed slot */
    k.scope = s;
    k.scope_id = sword;
    assert_int_equal(tl_content_unregister_dir(d, true), TL_CONTENT_OK);
    assert_true(tl_asset_valid(k.got_named));
    assert_int_not_equal(tl_asset_id(k.got_named), sword);
    assert_false(tl_asset_valid(k.got_scoped)); /* Main's sword is gone, not Extra's in its place */
    assert_int_equal(tl_scope_count(s), 0);
    tl_scope_dispose(s);
    tl_content_shutdown(c);
    assert_int_equal(k.decodes, k.destroys);
}

static void test_content_shutdown_refuses_loads(void **state) {
    /* A destroy callback run by shutdown that loads would make a slot the release loop may have
       passed (never destroyed): loads are refused once shutdown has begun. */
    reload_kind k;
    tl_content *c = reload_ctx(&k);
    (void)state;
    assert_true(tl_content_dir_valid(tl_content_register_dir(c, out_dir("Main"))));
    assert_true(tl_asset_valid(tl_scope_load_name(tl_content_root(c), "Icons/sword")));
    assert_true(tl_asset_valid(tl_scope_load_name(tl_content_root(c), "Icons/Shield")));
    k.id = id_of(c, "Icons/sword"); /* the first slot released: its own asset again */
    log_reset();
    tl_content_shutdown(c);
    assert_false(k.got_valid);
    assert_int_equal(k.destroys, 2);
    assert_int_equal(k.decodes, k.destroys);
    assert_true(log_has("loading Icons/sword failed: the context is shutting down"));
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_packed_lz4_loads_every_asset),
        cmocka_unit_test(test_content_packed_zstd_loads_every_asset),
        cmocka_unit_test(test_content_packed_lz4_hc_loads_every_asset),
        cmocka_unit_test(test_content_packed_raw_loads_every_asset),
        cmocka_unit_test(test_content_flat_loads_every_asset),
        cmocka_unit_test(test_content_ids_are_the_catalog_ids),
        cmocka_unit_test(test_content_profile_once_and_shadowed_names),
        cmocka_unit_test(test_content_unregister_refuses_while_held_and_force_invalidates),
        cmocka_unit_test(test_content_names_gone_after_unregister),
        cmocka_unit_test(test_content_results_say_why),
        cmocka_unit_test(test_content_corrupt_archives_refused),
        cmocka_unit_test(test_content_corrupt_flat_files_fail_to_load),
        cmocka_unit_test(test_content_fifos_refused_without_blocking),
        cmocka_unit_test(test_content_corrupt_raw_entry_in_any_chunk_fails),
        cmocka_unit_test(test_content_corrupt_small_raw_entry_in_any_block_fails),
        cmocka_unit_test(test_content_corrupt_large_lz4_entry_fails),
        cmocka_unit_test(test_content_corrupt_large_zstd_entry_fails),
        cmocka_unit_test(test_content_flat_windows_names_refused),
        cmocka_unit_test(test_content_kinds_decode_and_destroy),
        cmocka_unit_test(test_content_dedupe_per_scope),
        cmocka_unit_test(test_content_release_collect_and_generation),
        cmocka_unit_test(test_content_release_delay_and_manual_collect),
        cmocka_unit_test(test_content_share_adopt_attach),
        cmocka_unit_test(test_content_scope_tree_and_leak_warnings),
        cmocka_unit_test(test_content_scope_leak_warnings_by_parent_kind),
        cmocka_unit_test(test_content_scope_reparent_keeps_references),
        cmocka_unit_test(test_content_warn_threshold),
        cmocka_unit_test(test_content_async_loads_polled_per_frame),
        cmocka_unit_test(test_content_cancelled_load_released_at_next_collect),
        cmocka_unit_test(test_content_async_backend),
        cmocka_unit_test(test_content_dump_snapshot_stats),
        cmocka_unit_test(test_content_shutdown_reports_raw_handles),
        cmocka_unit_test(test_content_callbacks_may_load),
        cmocka_unit_test(test_content_destroy_loading_from_unregistered_dir),
        cmocka_unit_test(test_content_forced_unregister_stale_key_in_callback),
        cmocka_unit_test(test_content_shutdown_refuses_loads),
    };
    char cmd[600];
    int rc;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT\n", argv[0]);
        return 2;
    }
    g_root = argv[1];
    g_log.echo = getenv("CONTENT_TEST_ECHO") != NULL;
    fixture_assets();
    snprintf(g_tmp, sizeof g_tmp, "%s/../content_rt_scratch_%ld", g_root, (long)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_tmp);
    if (system(cmd) != 0) return 2;
    rc = cmocka_run_group_tests_name("content", tests, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
