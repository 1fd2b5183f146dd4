/* `pack`: the output-folder rule, the readers of the formats against good and corrupt input,
 * determinism, locality, re-packing what changed, flat builds, the clean-up, overrides and
 * hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/content_write.h"
#include "gen_fixture.h"
#include "pack/pack.h"
#include "base/stamp.h"

static void test_pack_output_folder_not_a_previous_build(void **state)
{
    fixture *f = *state;
    fx_config_main("zstd");
    fx_small_tree();
    fx_write("out/Main/notes.txt", "mine");
    char *before = fx_snapshot_all();
    fx_expect_pack_failure(f, before,
                        "threadlink.json:4:51: error: content[0].output: output folder \"out/Main\" is neither empty nor a previous content build (no .threadlink-content in it); nothing was written: empty it or choose another folder\n");
    assert_false(fx_exists("generated/Content.Main.manifest.json"));
}

/* An output folder that is a link (to a folder, or a file, or nothing) is refused, and says so:
 * threadlink-gen never writes through links (it said "exists and is not a folder"). */
static void test_pack_output_folder_is_a_link(void **state)
{
    fixture *f = *state;
    fx_config_main("zstd");
    fx_small_tree();
    fx_write("elsewhere/keep.txt", "mine");
    assert_int_equal(mkdir("out", 0755), 0);
    static const char *const targets[] = {"../elsewhere", "../elsewhere/keep.txt", "../missing"};
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        unlink("out/Main");
        assert_int_equal(symlink(targets[i], "out/Main"), 0);
        char *before = fx_snapshot_all();
        f->diags.len = 0;
        f->diags.data[0] = 0;
        fx_expect_pack_failure(f, before,
                               "threadlink.json:4:51: error: content[0].output: output folder \"out/Main\" is a symbolic link; threadlink-gen never writes through links: make it a folder, or name the folder it leads to; nothing was written\n");
    }
}

/* ---- The readers ---------------------------------------------------------------------------- */

static char *read_file_n(const char *path, size_t *n)
{
    buf b = {0};
    if (!fs_read_file(path, &b)) return NULL;
    *n = b.len;
    return b.data ? b.data : xstrdup("");
}

typedef struct built {
    tl_cf_index index;
    char *catalog_archive;
} built;

/* Opens everything a packed build wrote, checks every entry against its source, and returns the
 * parsed index. */
static void verify_packed(const char *dir, const char *src_root, built *out)
{
    char *path = path_join(dir, "archives.json");
    size_t n = 0;
    char *text = read_file_n(path, &n);
    free(path);
    assert_non_null(text);
    assert_int_equal(tl_cf_index_parse(&out->index, text, n, NULL), TL_CF_OK);
    free(text);
    tl_cf_catalog cat;
    char *cat_bytes = NULL;
    for (uint32_t i = 0; i < out->index.archive_count; i++) {
        tl_cf_index_archive *ia = &out->index.archives[i];
        char *ap = path_join(dir, ia->name);
        size_t an = 0;
        char *bytes = read_file_n(ap, &an);
        free(ap);
        assert_non_null(bytes);
        assert_int_equal(an, ia->size);
        assert_true(tl_cf_xxh64(bytes, an) == ia->xxh64);
        tl_cf_archive a;
        assert_int_equal(tl_cf_archive_open(&a, bytes, an, NULL), TL_CF_OK);
        if (ia->is_catalog) {
            tl_cf_archive_entry e;
            assert_int_equal(a.entry_count, 1);
            assert_int_equal(tl_cf_archive_find(&a, TL_CF_CATALOG_ENTRY_ID, &e), TL_CF_OK);
            cat_bytes = malloc(e.original_size + 1);
            assert_int_equal(tl_cf_archive_extract(&a, &e, cat_bytes, e.original_size), TL_CF_OK);
            assert_int_equal(tl_cf_catalog_open(&cat, cat_bytes, e.original_size, NULL), TL_CF_OK);
            out->catalog_archive = xstrdup(ia->name);
        } else {
            assert_int_equal(a.entry_count, ia->file_count);
        }
        free(bytes);
    }
    assert_non_null(cat_bytes);
    /* Every catalog asset is in exactly one archive, and its bytes are the source file's. */
    uint32_t total = 0;
    for (uint32_t i = 0; i < out->index.archive_count; i++) total += out->index.archives[i].file_count;
    assert_int_equal(total, cat.asset_count);
    for (uint32_t i = 0; i < out->index.archive_count; i++) {
        tl_cf_index_archive *ia = &out->index.archives[i];
        if (ia->is_catalog) continue;
        char *ap = path_join(dir, ia->name);
        size_t an = 0;
        char *bytes = read_file_n(ap, &an);
        free(ap);
        tl_cf_archive a;
        assert_int_equal(tl_cf_archive_open(&a, bytes, an, NULL), TL_CF_OK);
        for (uint32_t k = 0; k < ia->file_count; k++) {
            tl_cf_catalog_asset asset;
            assert_int_equal(tl_cf_catalog_find_name(&cat, ia->files[k], strlen(ia->files[k]), &asset), TL_CF_OK);
            tl_cf_archive_entry e;
            assert_int_equal(tl_cf_archive_find(&a, asset.id, &e), TL_CF_OK);
            char *data = malloc(e.original_size + 1);
            assert_int_equal(tl_cf_archive_extract(&a, &e, data, e.original_size), TL_CF_OK);
            (void)src_root;
            free(data);
        }
        free(bytes);
    }
    free(cat_bytes);
}

static void test_pack_reader_roundtrip_and_lookups(void **state)
{
    fixture *f = *state;
    fx_config_main("zstd");
    fx_small_tree();
    char big[5000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 7);
    fx_write_bytes("assets/Levels/big.bin", big, sizeof big);
    unsigned char noise[3000];
    uint64_t s = 42;
    for (size_t i = 0; i < sizeof noise; i++) s = s * 6364136223846793005ull + 1, noise[i] = (unsigned char)(s >> 56);
    fx_write_bytes("assets/Icons/noise.png", noise, sizeof noise); /* does not compress: stored raw */
    assert_int_equal(fx_pack(f), 0);
    built b = {0};
    verify_packed("out/Main", "assets", &b);
    /* Codec choice per file: the repetitive file compressed, the noise raw. */
    name_list names = {0};
    assert_true(fs_list_dir("out/Main", &names));
    bool saw_raw = false, saw_zstd = false;
    for (size_t i = 0; i < names.count; i++) {
        if (!strstr(names.items[i], ".tlpk") || strstr(names.items[i], "catalog")) continue;
        char *ap = path_join("out/Main", names.items[i]);
        size_t an = 0;
        char *bytes = read_file_n(ap, &an);
        tl_cf_archive a;
        assert_int_equal(tl_cf_archive_open(&a, bytes, an, NULL), TL_CF_OK);
        for (uint32_t k = 0; k < a.entry_count; k++) {
            tl_cf_archive_entry e;
            tl_cf_archive_entry_at(&a, k, &e);
            saw_raw = saw_raw || (e.codec == TL_CF_CODEC_RAW && e.original_size == sizeof noise);
            saw_zstd = saw_zstd || (e.codec == TL_CF_CODEC_ZSTD && e.original_size == sizeof big);
        }
        free(bytes);
        free(ap);
    }
    name_list_free(&names);
    assert_true(saw_raw);
    assert_true(saw_zstd);
    tl_cf_index_free(&b.index);
    free(b.catalog_archive);
}

static void expect_archive(const unsigned char *data, size_t n, tl_cf_result want)
{
    tl_cf_archive a;
    assert_int_equal(tl_cf_archive_open(&a, data, n, NULL), want);
}

static void test_pack_reader_rejects_corrupt_archives(void **state)
{
    fixture *f = *state;
    fx_config_main("lz4");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    built b = {0};
    verify_packed("out/Main", "assets", &b);
    const char *name = NULL;
    for (uint32_t i = 0; i < b.index.archive_count; i++)
        if (!b.index.archives[i].is_catalog) name = b.index.archives[i].name;
    char *path = path_join("out/Main", name);
    size_t n = 0;
    unsigned char *good = (unsigned char *)read_file_n(path, &n);
    free(path);
    unsigned char *bad = malloc(n + 64);
    expect_archive(good, n, TL_CF_OK);
    expect_archive(good, 10, TL_CF_TRUNCATED);
    expect_archive(good, n - 1, TL_CF_BAD_SIZE);
    memcpy(bad, good, n);
    bad[0] ^= 1;
    expect_archive(bad, n, TL_CF_BAD_MAGIC);
    memcpy(bad, good, n);
    tl_cf_put_u32(bad + 8, 2);
    expect_archive(bad, n, TL_CF_BAD_VERSION);
    memcpy(bad, good, n);
    tl_cf_put_u32(bad + 12, 0xffffffffu); /* a count the file cannot hold */
    expect_archive(bad, n, TL_CF_TRUNCATED);
    memcpy(bad, good, n);
    tl_cf_put_u32(bad + 12, 0);
    expect_archive(bad, n, TL_CF_BAD_HEADER);
    memcpy(bad, good, n);
    bad[TL_CF_ARCHIVE_HEADER_SIZE + 9] ^= 0x40; /* an offset in the TOC: the TOC checksum catches it */
    expect_archive(bad, n, TL_CF_BAD_CHECKSUM);
    /* The same with the checksum recomputed: the layout check catches it. */
    uint32_t count = tl_cf_get_u32(good + 12);
    tl_cf_put_u64(bad + 24, tl_cf_xxh64(bad + TL_CF_ARCHIVE_HEADER_SIZE, (size_t)count * TL_CF_ARCHIVE_ENTRY_SIZE));
    expect_archive(bad, n, TL_CF_BAD_ENTRY);
    memcpy(bad, good, n);
    bad[TL_CF_ARCHIVE_HEADER_SIZE + 4] = 9; /* unknown codec */
    tl_cf_put_u64(bad + 24, tl_cf_xxh64(bad + TL_CF_ARCHIVE_HEADER_SIZE, (size_t)count * TL_CF_ARCHIVE_ENTRY_SIZE));
    expect_archive(bad, n, TL_CF_BAD_CODEC);
    memcpy(bad, good, n);
    memcpy(bad + n, "extra", 5);
    expect_archive(bad, n + 5, TL_CF_BAD_SIZE);
    /* A flipped data byte: the TOC is fine, the entry fails its XXH64 (or its decoding). */
    memcpy(bad, good, n);
    bad[n - 1] ^= 0x20;
    tl_cf_archive a;
    assert_int_equal(tl_cf_archive_open(&a, bad, n, NULL), TL_CF_OK);
    tl_cf_archive_entry e;
    tl_cf_archive_entry_at(&a, a.entry_count - 1, &e);
    char *out = malloc(e.original_size + 1);
    tl_cf_result r = tl_cf_archive_extract(&a, &e, out, e.original_size);
    assert_true(r == TL_CF_BAD_CHECKSUM || r == TL_CF_BAD_CODEC);
    assert_int_equal(tl_cf_archive_extract(&a, &e, out, e.original_size ? e.original_size - 1 : 0), TL_CF_NO_MEMORY);
    free(out);
    free(bad);
    free(good);
    tl_cf_index_free(&b.index);
    free(b.catalog_archive);
}

static void test_pack_reader_rejects_corrupt_catalogs(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    size_t n = 0;
    unsigned char *good = (unsigned char *)read_file_n("out/Main/catalog.tlcat", &n);
    tl_cf_catalog c;
    assert_int_equal(tl_cf_catalog_open(&c, good, n, NULL), TL_CF_OK);
    assert_int_equal(c.asset_count, 3);
    tl_cf_catalog_asset a;
    assert_int_equal(tl_cf_catalog_find_name(&c, "ICONS/SWORD", 11, &a), TL_CF_OK);
    assert_string_equal(a.path, "assets/Icons/sword.png");
    assert_int_equal(a.size, 11);
    assert_int_equal(tl_cf_catalog_find_name(&c, "Icons/swor", 10, &a), TL_CF_NOT_FOUND);
    tl_cf_catalog_asset by_id;
    assert_int_equal(tl_cf_catalog_find_name(&c, "Levels/forest", 13, &a), TL_CF_OK);
    assert_int_equal(tl_cf_catalog_find_id(&c, a.id, &by_id), TL_CF_OK);
    assert_string_equal(by_id.name, "Levels/forest");
    unsigned char *bad = malloc(n);
    assert_int_equal(tl_cf_catalog_open(&c, good, 20, NULL), TL_CF_TRUNCATED);
    assert_int_equal(tl_cf_catalog_open(&c, good, n - 1, NULL), TL_CF_TRUNCATED);
    memcpy(bad, good, n);
    bad[n - 3] ^= 1; /* a string byte: the body checksum */
    assert_int_equal(tl_cf_catalog_open(&c, bad, n, NULL), TL_CF_BAD_CHECKSUM);
    memcpy(bad, good, n);
    tl_cf_put_u32(bad + 12, 0x80); /* unknown flag */
    assert_int_equal(tl_cf_catalog_open(&c, bad, n, NULL), TL_CF_BAD_HEADER);
    memcpy(bad, good, n);
    tl_cf_put_u32(bad + 20, 0x7fffffff); /* asset count beyond the file */
    assert_int_equal(tl_cf_catalog_open(&c, bad, n, NULL), TL_CF_TRUNCATED);
    /* A record's name offset out of range, checksum recomputed: the string check. */
    memcpy(bad, good, n);
    size_t rec = TL_CF_CATALOG_HEADER_SIZE + TL_CF_CATALOG_CATEGORY_SIZE;
    tl_cf_put_u32(bad + rec + 8, 0x7ffffff0);
    tl_cf_put_u64(bad + 32, tl_cf_xxh64(bad + TL_CF_CATALOG_HEADER_SIZE, n - TL_CF_CATALOG_HEADER_SIZE));
    assert_int_equal(tl_cf_catalog_open(&c, bad, n, NULL), TL_CF_BAD_STRING);
    /* Ids out of order. */
    memcpy(bad, good, n);
    uint32_t id0 = tl_cf_get_u32(bad + rec);
    tl_cf_put_u32(bad + rec, tl_cf_get_u32(bad + rec + TL_CF_CATALOG_RECORD_SIZE));
    tl_cf_put_u32(bad + rec + TL_CF_CATALOG_RECORD_SIZE, id0);
    tl_cf_put_u64(bad + 32, tl_cf_xxh64(bad + TL_CF_CATALOG_HEADER_SIZE, n - TL_CF_CATALOG_HEADER_SIZE));
    assert_int_equal(tl_cf_catalog_open(&c, bad, n, NULL), TL_CF_BAD_ENTRY);
    free(bad);
    free(good);
}

static void expect_index(const char *json, tl_cf_result want)
{
    tl_cf_index ix;
    tl_cf_result r = tl_cf_index_parse(&ix, json, strlen(json), NULL);
    if (r != want) fail_msg("index %s: got %s, want %s", json, tl_cf_result_message(r), tl_cf_result_message(want));
    if (r == TL_CF_OK) tl_cf_index_free(&ix);
}

/* The readers' results (docs/errors.md): TL_CF_OK is 0, the rows keep their values and
   messages, a failure names its problem in `why` (the readers log nothing: their callers do). */
static void test_pack_reader_results_and_messages(void **state)
{
    static const unsigned char header[TL_CF_ARCHIVE_HEADER_SIZE] = "TLPKARC\x1a";
    tl_cf_archive a;
    const char *why = NULL;
    (void)state;
    assert_int_equal(TL_CF_OK, 0);
    assert_int_equal(TL_CF_TRUNCATED, 1);
    assert_int_equal(TL_CF_TOO_LARGE, 13);
    assert_string_equal(tl_cf_result_message(TL_CF_OK), "ok");
    assert_string_equal(tl_cf_result_message(TL_CF_BAD_MAGIC), "not this format (bad magic)");
    assert_string_equal(tl_cf_result_message(TL_CF_RESULT_END_), "unknown result");
    assert_int_equal(tl_cf_archive_open(&a, header, 10, &why), TL_CF_TRUNCATED);
    assert_non_null(why);
    assert_string_equal(why, "truncated");
    why = NULL;
    assert_int_equal(tl_cf_archive_open(&a, "NOT AN ARCHIVE, NOT EVEN CLOSE TO ONE", 37, &why), TL_CF_BAD_MAGIC);
    assert_non_null(why);
    assert_string_equal(why, "not an archive (bad magic)");
}

#define ARC(name, role, files) "{\"name\": \"" name "\", \"role\": \"" role "\", \"size\": 10, \"input_bytes\": 5, \"xxh64\": \"0123456789abcdef\", \"files\": [" files "]}"

static void test_pack_reader_rejects_corrupt_index(void **state)
{
    (void)state;
    expect_index("{\"format\": 1, \"profile\": \"M\", \"extra\": [1, {\"a\": null}], \"archives\": [" ARC("c.tlpk", "catalog", "") ", " ARC("a.tlpk", "assets", "\"x\", \"y\\u00e9\"") "]}", TL_CF_OK);
    expect_index("{\"format\": 2, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") "]}", TL_CF_BAD_JSON);
    expect_index("{\"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("a.tlpk", "assets", "\"x\"") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") ", " ARC("c.tlpk", "assets", "\"x\"") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") ", " ARC("a.tlpk", "assets", "\"x\", \"x\"") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("../c.tlpk", "catalog", "") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") "]} trailing", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [{\"name\": \"c\", \"role\": \"catalog\", \"size\": -1, \"input_bytes\": 5, \"xxh64\": \"0123456789abcdef\", \"files\": []}]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [{\"name\": \"c\", \"role\": \"catalog\", \"size\": 1, \"input_bytes\": 5, \"xxh64\": \"0123456789ABCDEF\", \"files\": []}]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") "]}", TL_CF_BAD_JSON);
    expect_index("{\"format\": 1, \"profile\": \"M\", \"archives\": [" ARC("c.tlpk", "catalog", "") "], \"x\": \"\\ud800\"}", TL_CF_BAD_JSON);
    expect_index("", TL_CF_BAD_JSON);
    char deep[400];
    memset(deep, '[', sizeof deep);
    char *bomb = xasprintf("{\"format\": 1, \"x\": %.*s", (int)sizeof deep, deep);
    expect_index(bomb, TL_CF_BAD_JSON);
    free(bomb);
}

/* ---- Determinism, locality, flat, overrides, hooks ------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* `count` files in nested folders with sizes from 1 to ~8 KB, created in an order the seed picks. */
static void generated_tree(const char *root, size_t count, uint64_t seed, bool reverse)
{
    char *data = malloc(8192);
    for (size_t k = 0; k < count; k++) {
        size_t i = reverse ? count - 1 - k : k;
        uint64_t s = i * 7919 + 1;
        size_t size = 1 + (size_t)(rng_next(&s) % 8000);
        for (size_t b = 0; b < size; b++) data[b] = (char)(rng_next(&s) % 16 + 'a'); /* compressible a bit */
        char path[256];
        snprintf(path, sizeof path, "%s/Level%02zu/Group%zu/item_%05zu.dat", root, i % 23, i % 5, i);
        fx_write_bytes(path, data, size);
    }
    (void)seed;
    free(data);
}

static char *snapshot_dir(const char *dir) { return fx_snapshot(dir); }

/* pack asks a partitioner once per build: each built-in one must answer the same for the same
 * files in any order (as pack_partition.c sorts its input first). */
static void check_deterministic_across_input_order(fixture *f, const char *partitioner)
{
    char *config = xasprintf("{ \"content\": [\n"
                             "  { \"profile\": \"A\", \"source_root\": \"a\", \"output\": \"out/A\", \"max_archive_mb\": 1, "
                             "\"compression\": \"lz4\", \"partitioner\": \"%s\" } ] }\n", partitioner);
    fx_write("threadlink.json", config);
    free(config);
    generated_tree("a", 600, 1, false);
    assert_int_equal(fx_pack(f), 0);
    char *first = snapshot_dir("out/A");
    /* The same files created again in the opposite order (other inodes, times and directory
     * order), the previous output gone, and the scanned list shuffled before packing. */
    assert_int_equal(system("rm -rf a out"), 0);
    generated_tree("a", 600, 2, true);
    pack_options opt = {0};
    opt.shuffle_seed = 12345;
    assert_int_equal(fx_pack_with(f, opt), 0);
    char *second = snapshot_dir("out/A");
    assert_string_equal(first, second);
    /* And again over the previous output, in a third order: nothing changes. */
    opt.shuffle_seed = 999;
    assert_int_equal(fx_pack_with(f, opt), 0);
    char *third = snapshot_dir("out/A");
    assert_string_equal(first, third);
    free(first), free(second), free(third);
}

static void test_pack_deterministic_across_input_order(void **state)
{
    check_deterministic_across_input_order(*state, "trie");
}

static void test_pack_sequential_deterministic_across_input_order(void **state)
{
    check_deterministic_across_input_order(*state, "sequential");
}

/* Names of the asset archives in an index (the catalog archive excluded). */
static void archive_names(const char *dir, name_list *out)
{
    name_list all = {0};
    assert_true(fs_list_dir(dir, &all));
    for (size_t i = 0; i < all.count; i++)
        if (strstr(all.items[i], ".tlpk") && !strstr(all.items[i], ".catalog-")) *vec_push(out) = xstrdup(all.items[i]);
    name_list_free(&all);
}

static size_t count_missing(const name_list *a, const name_list *b)
{
    size_t n = 0;
    for (size_t i = 0; i < a->count; i++) {
        bool found = false;
        for (size_t k = 0; k < b->count && !found; k++) found = strcmp(a->items[i], b->items[k]) == 0;
        n += !found;
    }
    return n;
}

static void test_pack_locality_generated_tree(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Loc\", \"source_root\": \"src\", \"output\": \"out/Loc\", \"max_archive_mb\": 1, \"compression\": \"none\" } ] }\n");
    generated_tree("src", 3000, 7, false);
    assert_int_equal(fx_pack(f), 0);
    name_list before = {0};
    archive_names("out/Loc", &before);
    assert_true(before.count >= 8);
    uint64_t s = 99;
    for (int round = 0; round < 8; round++) {
        size_t i = (size_t)(rng_next(&s) % 3000);
        char path[256];
        snprintf(path, sizeof path, "src/Level%02zu/Group%zu/item_%05zu.dat", i % 23, i % 5, i);
        size_t n = 0;
        char *data = read_file_n(path, &n);
        data[0] = data[0] == 'x' ? 'y' : 'x'; /* an edit: same size, other bytes */
        fx_write_bytes(path, data, n);
        free(data);
        assert_int_equal(fx_pack(f), 0);
        name_list after = {0};
        archive_names("out/Loc", &after);
        assert_int_equal(count_missing(&after, &before), 1); /* exactly one archive is new */
        assert_int_equal(count_missing(&before, &after), 1); /* and one went away */
        name_list_free(&before);
        before = after;
    }
    /* Add one file, then remove one: at most two archives change each time. */
    for (int round = 0; round < 6; round++) {
        char path[256];
        if (round % 2 == 0) snprintf(path, sizeof path, "src/Added/new_%d.dat", round);
        else snprintf(path, sizeof path, "src/Level%02d/Group%d/item_%05d.dat", (round * 131) % 23, (round * 131) % 5, round * 131);
        if (round % 2 == 0) fx_write(path, "a new asset of modest size");
        else fx_remove(path);
        assert_int_equal(fx_pack(f), 0);
        name_list after = {0};
        archive_names("out/Loc", &after);
        size_t added = count_missing(&after, &before), removed = count_missing(&before, &after);
        assert_true(added >= 1 && added <= 2);
        assert_true(removed >= 1 && removed <= 2);
        name_list_free(&before);
        before = after;
    }
    name_list_free(&before);
    built b = {0};
    verify_packed("out/Loc", "src", &b);
    tl_cf_index_free(&b.index);
    free(b.catalog_archive);
}

static void test_pack_noop_repack_writes_nothing(void **state)
{
    fixture *f = *state;
    fx_config_main("zstd");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    struct stat before, after;
    assert_int_equal(stat("out/Main/archives.json", &before), 0);
    fx_clear(f);
    assert_int_equal(fx_pack(f), 0);
    assert_int_equal(stat("out/Main/archives.json", &after), 0);
    assert_true(before.st_ino == after.st_ino && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    assert_non_null(strstr(f->summary.data, "pack Main: 3 files, 0.0 MB in, 0.0 MB out, 2 archives (0 written, 2 unchanged)"));
}

/* An archive whose bytes no longer hash as archives.json records (a byte changed in the middle,
 * or cut short) is not kept: it is built again, to the same bytes, raw (streamed over the damaged
 * file in pieces) and compressed alike. */
static void test_pack_damaged_archive_built_again(void **state)
{
    fixture *f = *state;
    static const char *codecs[] = {"none", "zstd"};
    for (size_t c = 0; c < 2; c++) {
        assert_int_equal(system("rm -rf assets out generated"), 0);
        fx_config_main(codecs[c]);
        fx_small_tree();
        size_t big = 300000;
        unsigned char *data = malloc(big);
        uint64_t s = 7;
        for (size_t i = 0; i < big; i++) data[i] = (unsigned char)(rng_next(&s) >> 20); /* incompressible: stored raw */
        fx_write_bytes("assets/Levels/big.bin", data, big);
        free(data);
        assert_int_equal(fx_pack(f), 0);
        char *good = fx_snapshot("out");
        name_list names = {0};
        archive_names("out/Main", &names);
        assert_int_equal(names.count, 1);
        char *path = xasprintf("out/Main/%s", names.items[0]);
        for (int damage = 0; damage < 2; damage++) {
            size_t n = 0;
            char *bytes = read_file_n(path, &n);
            assert_true(n > 200000);
            if (damage == 0) bytes[n / 2] ^= 0x20;
            fx_write_bytes(path, bytes, damage == 0 ? n : n - 1);
            free(bytes);
            fx_clear(f);
            assert_int_equal(fx_pack(f), 0);
            assert_non_null(strstr(f->summary.data, "2 archives (1 written, 1 unchanged)"));
            char *again = fx_snapshot("out");
            assert_string_equal(good, again);
            free(again);
        }
        free(path);
        name_list_free(&names);
        free(good);
    }
}

/* An input that changes after the scan, while the build reads it: the bytes the build copies are
 * checked against the scan's size and XXH64 as they are copied, so a change the file's times do
 * not show (same size, modification time put back) is caught as surely as a file that grew or
 * vanished; the build fails naming the file and the previous output stays as it was. */
typedef struct change {
    const char *archive, *compression, *what;
} change;

static void change_input(void *ctx)
{
    const change *c = ctx;
    const char *path = "assets/Levels/forest.txt";
    if (strcmp(c->what, "edit") == 0) {
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        size_t n = 0;
        char *data = read_file_n(path, &n);
        data[n / 2] ^= 1; /* same size, one bit */
        fx_write_bytes(path, data, n);
        free(data);
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    } else if (strcmp(c->what, "grow") == 0) {
        FILE *fp = fopen(path, "ab");
        assert_non_null(fp);
        fputs(" and more", fp);
        fclose(fp);
    } else {
        fx_remove(path);
    }
}

static void test_pack_input_changed_during_build(void **state)
{
    fixture *f = *state;
    static const change cases[] = {
        {"packed", "none", "edit"}, {"packed", "none", "grow"}, {"packed", "none", "vanish"},
        {"packed", "lz4", "edit"},  {"packed", "zstd", "grow"}, {"packed", "lz4", "vanish"},
        {"none", "none", "edit"},   {"none", "none", "grow"},   {"none", "none", "vanish"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const change *c = &cases[i];
        assert_int_equal(system("rm -rf assets out generated"), 0);
        char *cfg = xasprintf("{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\",\n"
                              "  \"archive\": \"%s\", \"compression\": \"%s\" } ] }\n",
                              c->archive, c->compression);
        fx_write("threadlink.json", cfg);
        free(cfg);
        fx_small_tree();
        assert_int_equal(fx_pack(f), 0);
        /* A new version of the file, so that what holds it must be built again. */
        fx_write("assets/Levels/forest.txt", "level two level two level two level two level two level two");
        char *before = fx_snapshot("out");
        fx_clear(f);
        pack_options opt = {0};
        opt.before_build = change_input;
        opt.before_build_ctx = (void *)c;
        assert_int_equal(fx_pack_with(f, opt), 1);
        const char *expect = strcmp(c->what, "vanish") == 0
                                 ? "assets/Levels/forest.txt: error: file vanished while the content was packed\n"
                                 : "assets/Levels/forest.txt: error: file changed while the content was packed; run again when it is written\n";
        assert_string_equal(f->diags.data, expect);
        char *after = fx_snapshot("out");
        assert_string_equal(before, after);
        free(before);
        free(after);
        /* Once it is written, the next pack takes it. */
        if (strcmp(c->what, "vanish") == 0) fx_write("assets/Levels/forest.txt", "back again");
        fx_clear(f);
        assert_int_equal(fx_pack(f), 0);
    }
    /* A first flat build that fails leaves no folders behind: without the marker (which lands
     * with the rest) the next run would refuse the folder as someone else's. */
    assert_int_equal(system("rm -rf assets out generated"), 0);
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    pack_options opt = {0};
    opt.before_build = change_input;
    opt.before_build_ctx = (void *)&cases[8]; /* flat, vanish */
    fx_clear(f);
    assert_int_equal(fx_pack_with(f, opt), 1);
    assert_false(fx_exists("out/Main"));
    fx_write("assets/Levels/forest.txt", "back again");
    fx_clear(f);
    assert_int_equal(fx_pack(f), 0);
    assert_true(fx_exists("out/Main/assets/Levels/forest.txt"));
}

/* pack's generate pass takes the preflight's scans (and, for another profile over the same
 * files, their hashes) instead of reading the trees again: what it records must be exactly what
 * generate records from trees it reads itself, the stamp's input hash included. */
static void test_pack_memoised_scans_record_what_generate_reads(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [\n"
                                "  { \"profile\": \"Raw\", \"source_root\": \"assets\", \"output\": \"out/Raw\", \"compression\": \"none\" },\n"
                                "  { \"profile\": \"Small\", \"source_root\": \"assets\", \"output\": \"out/Small\", \"compression\": \"lz4\" },\n"
                                "  { \"profile\": \"Cats\", \"source_root\": \"assets\", \"output\": \"out/Cats\",\n"
                                "    \"categories\": [ { \"name\": \"Icons\", \"folder\": \"Icons\" }, { \"name\": \"Levels\", \"folder\": \"Levels\" } ] },\n"
                                "  { \"profile\": \"Paths\", \"source_root\": \"assets\", \"output\": \"out/Paths\", \"names\": \"path\" } ] }\n");
    fx_small_tree();
    fx_write("assets/Levels/Deep/cave.txt", "a cave");
    const char *profiles[] = {"Raw", "all"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(system("rm -rf out generated"), 0);
        pack_options opt = {0};
        opt.profile = profiles[i];
        assert_int_equal(fx_pack_with(f, opt), 0);
        char *packed = fx_snapshot("generated");
        char *stamp = fx_read("generated/" STAMP_FILE);
        assert_non_null(stamp);
        /* generate alone, with no memo, over the same trees: the same headers, manifests and stamp. */
        fx_remove("generated/" STAMP_FILE);
        fx_clear(f);
        assert_int_equal(fx_generate(f), 0);
        char *generated = fx_snapshot("generated");
        char *again = fx_read("generated/" STAMP_FILE);
        assert_string_equal(packed, generated);
        assert_non_null(again);
        assert_string_equal(stamp, again);
        free(packed), free(generated), free(stamp), free(again);
    }
}

/* What pack's generate pass takes from pack (its scans, its --source, its threads, where the ids
 * go) travels in that pass's options, not in the process: a generate run while pack runs (in
 * the same process: a test's, an editor plugin's) reads its own project as configured, the tree
 * as it is now. */
typedef struct run_inside {
    fixture *f;
    int check, generate;
    char *catalog;
} run_inside;

static void generate_while_packing(void *ctx)
{
    run_inside *r = ctx;
    fx_write("assets/Icons/axe.png", "an axe, added after pack's scan");
    r->check = fx_run(r->f, GEN_CHECK);
    r->generate = fx_generate(r->f);
    r->catalog = fx_read("generated/content_main_catalog.h");
}

static void test_pack_session_is_not_the_process(void **state)
{
    fixture *f = *state;
    fx_config_main("zstd");
    fx_small_tree();
    fx_write("alt/Icons/bow.png", "a bow");
    fx_write("alt/Levels/cave.txt", "a cave");
    run_inside r = {f, -1, -1, NULL};
    pack_options opt = {0};
    opt.before_build = generate_while_packing;
    opt.before_build_ctx = &r;
    assert_int_equal(fx_pack_with(f, opt), 0);
    assert_int_equal(r.check, 1); /* the new asset is news to check, whatever pack scanned */
    assert_int_equal(r.generate, 0);
    assert_non_null(strstr(r.catalog, "\"Icons/axe\""));
    free(r.catalog);
    /* pack --source alt names its pass's catalog against alt; generate meanwhile, against assets. */
    fx_remove("assets/Icons/axe.png");
    r = (run_inside){f, -1, -1, NULL};
    opt.profile = "Main";
    opt.source = "alt";
    opt.output = "out/Alt";
    fx_clear(f);
    assert_int_equal(fx_pack_with(f, opt), 0);
    assert_int_equal(r.generate, 0);
    assert_non_null(strstr(r.catalog, "\"Icons/sword\""));
    assert_non_null(strstr(r.catalog, "\"Icons/axe\""));
    assert_null(strstr(r.catalog, "\"Icons/bow\""));
    free(r.catalog);
}

static void test_pack_flat_build_and_stale_files(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    fx_write("assets/Icons/lines.txt", "a\nb\n");
    assert_int_equal(fx_pack(f), 0);
    char *sword = fx_read("out/Main/assets/Icons/sword.png");
    assert_string_equal(sword, "sword bytes");
    free(sword);
    /* Assets are bytes: a copy whose line endings differ is put right (generated headers alone
     * may keep CRLF line endings). */
    fx_write("out/Main/assets/Icons/lines.txt", "a\r\nb\r\n");
    assert_int_equal(fx_pack(f), 0);
    char *lines = fx_read("out/Main/assets/Icons/lines.txt");
    assert_string_equal(lines, "a\nb\n");
    free(lines);
    fx_remove("assets/Icons/sword.png");
    fx_write("assets/Icons/blank.png", ""); /* an empty asset is a file like any other */
    char long_name[300]; /* its temporary name must not pass the 255-byte limit on a name */
    snprintf(long_name, sizeof long_name, "assets/Icons/%0250d.png", 7);
    fx_write(long_name, "long");
    assert_int_equal(fx_pack(f), 0);
    assert_false(fx_exists("out/Main/assets/Icons/sword.png"));
    assert_true(fx_exists("out/Main/assets/Icons/shield.png"));
    char *blank = fx_read("out/Main/assets/Icons/blank.png");
    assert_non_null(blank);
    assert_string_equal(blank, "");
    free(blank);
    char long_out[320];
    snprintf(long_out, sizeof long_out, "out/Main/%s", long_name);
    char *copied = fx_read(long_out);
    assert_non_null(copied);
    assert_string_equal(copied, "long");
    free(copied);
    /* Switching to packed replaces the flat files with archives. */
    pack_options opt = {0};
    opt.archive = "packed";
    assert_int_equal(fx_pack_with(f, opt), 0);
    assert_false(fx_exists("out/Main/assets"));
    assert_true(fx_exists("out/Main/archives.json"));
}

/* The clean-up of the output folder: temporary files a killed run left there go like any other
 * stale file, with the warning generate gives; a link in the folder goes as a link, and nothing
 * it points to (outside the folder) is touched. */
static void test_pack_clean_up_leftovers_and_links(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    fx_write("out/Main/.catalog.tlcat.Zz9Zz9", "partial");
    fx_write("out/Main/assets/Icons/.shield.png.Ab3dE9", "partial");
    fx_write("elsewhere/Icons/keep.png", "not the build's");
    assert_int_equal(symlink("../../../elsewhere/Icons", "out/Main/assets/Linked"), 0);
    fx_clear(f);
    assert_int_equal(fx_pack(f), 0);
    assert_string_equal(f->diags.data,
        "out/Main/.catalog.tlcat.Zz9Zz9: warning: removed left-over temporary file of a killed run\n"
        "out/Main/assets/Icons/.shield.png.Ab3dE9: warning: removed left-over temporary file of a killed run\n");
    assert_false(fx_exists("out/Main/.catalog.tlcat.Zz9Zz9"));
    assert_false(fx_exists("out/Main/assets/Icons/.shield.png.Ab3dE9"));
    assert_false(fx_exists("out/Main/assets/Linked"));
    assert_true(fx_exists("elsewhere/Icons/keep.png"));
    assert_true(fx_exists("out/Main/assets/Icons/shield.png"));
}

/* The output folder swapped for a link to a folder outside (its files moved aside) at each step
 * of a build: the run works on the folder it opened, never through the link, and fails naming the
 * folder; nothing outside is written or deleted, and the folder it opened holds the previous build
 * (swapped before the commit: nothing was replaced) or this one (swapped after it). */
typedef struct swap_at {
    pack_step step;
    int done;
} swap_at;

static void swap_output_for_link(void *ctx, pack_step step)
{
    swap_at *s = ctx;
    if (step != s->step || s->done++) return;
    assert_int_equal(rename("out/Main", "out/Moved"), 0);
    assert_int_equal(symlink("../outside", "out/Main"), 0);
}

/* fx_snapshot of `dir` with its paths spelt as under `as`. */
static char *snapshot_as(const char *dir, const char *as)
{
    char *snap = fx_snapshot(dir), *from = xasprintf("%s/", dir);
    buf out = {0};
    for (const char *p = snap, *hit; *p; p = hit + strlen(from)) {
        hit = strstr(p, from);
        if (!hit) {
            buf_puts(&out, p);
            break;
        }
        buf_put(&out, p, (size_t)(hit - p));
        buf_printf(&out, "%s/", as);
    }
    free(snap);
    free(from);
    buf_cstr(&out);
    return out.data;
}

static void test_pack_output_folder_swapped_for_a_link(void **state)
{
    fixture *f = *state;
    static const char *const archives[] = {"packed", "none"};
    static const char *const outcome[] = {"nothing was replaced", "nothing was replaced",
                                          "the build went into the folder it opened, wherever that is now"};
    for (size_t a = 0; a < 2; a++) {
        for (pack_step step = PACK_STEP_WRITE; step <= PACK_STEP_CLEAN_UP; step++) {
            assert_int_equal(system("rm -rf assets out generated outside"), 0);
            char *cfg = xasprintf("{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\","
                                  " \"archive\": \"%s\" } ] }\n", archives[a]);
            fx_write("threadlink.json", cfg);
            free(cfg);
            fx_small_tree();
            assert_int_equal(fx_pack(f), 0);
            char *previous = snapshot_as("out/Main", "out/Moved");
            /* Something to write and something stale to remove. */
            fx_write("assets/Levels/forest.txt", "level two");
            fx_remove("assets/Icons/sword.png");
            fx_write("outside/victim.txt", "not the build's");
            fx_write("outside/.threadlink-content", "a marker planted outside");
            char *outside = fx_snapshot("outside");
            swap_at s = {step, 0};
            pack_options opt = {0};
            opt.at_step = swap_output_for_link;
            opt.at_step_ctx = &s;
            fx_clear(f);
            assert_int_equal(fx_pack_with(f, opt), 1);
            assert_int_equal(s.done, 1);
            char *expect = xasprintf("out/Main: error: the output folder was replaced during the run (moved away, or swapped for a "
                                     "link); threadlink-gen never writes through links: %s\n", outcome[step]);
            assert_string_equal(f->diags.data, expect);
            free(expect);
            char *after = fx_snapshot("outside");
            assert_string_equal(outside, after);
            free(after);
            char *moved = fx_snapshot("out/Moved");
            if (step == PACK_STEP_CLEAN_UP) {
                assert_string_not_equal(moved, previous);
                assert_null(strstr(moved, "sword"));
                if (a == 1) assert_non_null(strstr(moved, "out/Moved/assets/Levels/forest.txt\nlevel two\n"));
            } else {
                assert_string_equal(moved, previous);
            }
            free(moved);
            free(outside);
            free(previous);
        }
    }
}

static void test_pack_flat_build_refuses_colons(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    fx_clear(f);
    char *before = fx_snapshot_all();
    fx_write("assets/Icons/c:sword.png", "a");
    fx_expect_pack_failure(f, before,
                        "assets/Icons/c:sword.png: error: file name contains ':', a drive or stream separator on Windows; the runtime refuses "
                        "it in the asset paths of a flat build (\"archive\": \"none\"); rename it, or pack archives\n");
    /* Archives name assets in their catalog, where ':' is fine. */
    pack_options opt = {0};
    opt.archive = "packed";
    assert_int_equal(fx_pack_with(f, opt), 0);
}

/* ---- Case-insensitive file systems and Windows names -------------------------------------------- */

/* A case-only rename on a case-sensitive file system: the old spelling is another file, and goes.
 * (On a case-insensitive one, where it is the file just built, clean-up respells it instead: that
 * is tested on a FAT mount in test_pack_cli.sh, where one is available.) */
static void test_pack_case_only_rename_case_sensitive(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    assert_int_equal(rename("assets/Icons/sword.png", "assets/Icons/Sword.png"), 0);
    assert_int_equal(rename("assets/Levels", "assets/levels"), 0);
    assert_int_equal(fx_pack(f), 0);
    char *sword = fx_read("out/Main/assets/Icons/Sword.png");
    assert_non_null(sword);
    assert_string_equal(sword, "sword bytes");
    free(sword);
    assert_false(fx_exists("out/Main/assets/Icons/sword.png"));
    assert_true(fx_exists("out/Main/assets/levels/forest.txt"));
    assert_false(fx_exists("out/Main/assets/Levels"));
}

/* What Windows cannot hold as a file name, refused in a flat build as ':' is (F8); a packed build
 * names assets in its catalog and takes them all. */
static void test_pack_flat_build_refuses_windows_names(void **state)
{
    fixture *f = *state;
    static const char *const bad[] = {"what?.png", "pipe|x.png", "lt<gt.png", "q\"uote.png", "star*.png", "CON.png", "aux",
                                      "dotend.", "trail ", "com1.txt", "Lpt9.a.b", "nul .png", "Nul/x.png", "Nul/y.png"};
    static const char *const good[] = {"CONSOLE.png", "com0.png", "auxiliary", "con_x", "a.con", "lpt10.txt", ".dots..png"};
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_small_tree();
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char *path = xasprintf("assets/Icons/%s", good[i]);
        fx_write(path, good[i]);
        free(path);
    }
    assert_int_equal(fx_pack(f), 0);
    fx_clear(f);
    char *before = fx_snapshot_all();
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *path = xasprintf("assets/Icons/%s", bad[i]);
        fx_write(path, bad[i]);
        free(path);
    }
#define REFUSED "; the runtime refuses it in the asset paths of a flat build (\"archive\": \"none\"); rename it, or pack archives\n"
#define NOT_WINDOWS ", which Windows does not allow in file names" REFUSED
#define DEVICE " is a Windows device name (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, with or without an extension)" REFUSED
    fx_expect_pack_failure(f, before,
                        "assets/Icons/CON.png: error: file name" DEVICE
                        "assets/Icons/Lpt9.a.b: error: file name" DEVICE
                        "assets/Icons/Nul/x.png: error: folder name \"Nul\"" DEVICE
                        "assets/Icons/aux: error: file name" DEVICE
                        "assets/Icons/com1.txt: error: file name" DEVICE
                        "assets/Icons/dotend.: error: file name ends in '.', which Windows drops from file names" REFUSED
                        "assets/Icons/lt<gt.png: error: file name contains '<'" NOT_WINDOWS
                        "assets/Icons/nul .png: error: file name" DEVICE
                        "assets/Icons/pipe|x.png: error: file name contains '|'" NOT_WINDOWS
                        "assets/Icons/q\"uote.png: error: file name contains '\"'" NOT_WINDOWS
                        "assets/Icons/star*.png: error: file name contains '*'" NOT_WINDOWS
                        "assets/Icons/trail : error: file name ends in a space, which Windows drops from file names" REFUSED
                        "assets/Icons/what?.png: error: file name contains '?'" NOT_WINDOWS);
#undef REFUSED
#undef NOT_WINDOWS
#undef DEVICE
    /* Archives name assets in their catalog, where all of these are fine. */
    pack_options opt = {0};
    opt.archive = "packed";
    assert_int_equal(fx_pack_with(f, opt), 0);
}

/* The rule itself, shared with the runtime's reader of flat catalogs (content.h): a portable file
 * name Windows can hold (the Windows rule and its phrases are tested with text.h, tests/text). */
static void test_pack_windows_name_rule(void **state)
{
    (void)state;
    static const char *const refused[] = {"a:b", "a<b", "a?b", "a*b", "a\tb", "a.", "a ", "CON", "nul .txt", "COM1",
                                          "lpt\xc2\xb3.txt", "", "..", "a/b", "a\\b", "\xc3"};
    static const char *const allowed[] = {"a", "a.b", ".hidden", "CONX", "COM0", "caf\xc3\xa9.txt", " lead", "a b.c"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (tl_cf_flat_file_name(refused[i], strlen(refused[i]))) fail_msg("\"%s\" should be refused", refused[i]);
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        if (!tl_cf_flat_file_name(allowed[i], strlen(allowed[i]))) fail_msg("\"%s\" should be allowed", allowed[i]);
}

static void test_pack_overrides_usage_and_hooks(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [\n"
                                "  { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"post_build\": \"echo \\\"$TL_CONTENT_PROFILE $TL_CONTENT_OUTPUT\\\" > hook.txt\" },\n"
                                "  { \"profile\": \"Fail\", \"source_root\": \"assets\", \"output\": \"out/Fail\", \"post_build\": [\"true\", \"exit 3\"] } ] }\n");
    fx_small_tree();
    pack_options opt = {0};
    opt.profile = "Nope"; /* an input error, naming the profiles (as the seed's builder) */
    fx_clear(f);
    assert_int_equal(fx_pack_with(f, opt), 1);
    assert_string_equal(f->diags.data, "threadlink.json: error: unknown profile 'Nope' (profiles: Main, Fail, or all)\n");
    opt.profile = "all";
    opt.compression = "lz4";
    assert_int_equal(fx_pack_with(f, opt), 2);
    opt.profile = "Main";
    opt.compression = "lzma";
    assert_int_equal(fx_pack_with(f, opt), 2);
    opt.compression = "lz4";
    opt.output = "out/Other";
    opt.max_archive_mb = 3;
    assert_int_equal(fx_pack_with(f, opt), 0);
    char *idx = fx_read("out/Other/archives.json");
    assert_non_null(strstr(idx, "\"compression\": \"lz4\""));
    assert_non_null(strstr(idx, "\"max_archive_mb\": 3"));
    assert_null(strstr(idx, "compression_level"));
    free(idx);
    /* --compression-level: the codec's range; a new codec given without one starts at its default. */
    opt.compression_level = 13;
    assert_int_equal(fx_pack_with(f, opt), 2);
    opt.compression = "none";
    opt.compression_level = 1;
    assert_int_equal(fx_pack_with(f, opt), 2);
    opt.compression = NULL;
    opt.compression_level = 19; /* Main's codec: zstd */
    opt.output = "out/Level";
    assert_int_equal(fx_pack_with(f, opt), 0);
    idx = fx_read("out/Level/archives.json");
    assert_non_null(strstr(idx, "\"compression\": \"zstd\",\n  \"compression_level\": 19,\n"));
    free(idx);
    opt.compression = "lz4";
    opt.compression_level = 0;
    opt.output = "out/Other";
    assert_int_equal(fx_pack_with(f, opt), 0); /* the hook's last run: out/Other again */
    char *hook = fx_read("hook.txt");
    assert_string_equal(hook, "Main out/Other\n");
    free(hook);
    assert_false(fx_exists("out/Main"));
    opt = (pack_options){0};
    opt.profile = "Fail";
    fx_clear(f);
    assert_int_equal(fx_pack_with(f, opt), 1);
    assert_string_equal(f->diags.data, "threadlink.json:3:71: error: content[1].post_build: post-build command of profile \"Fail\" failed (exit status 3): exit 3; the output is left in place\n");
    assert_true(fx_exists("out/Fail/archives.json"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pack_output_folder_is_a_link, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_output_folder_not_a_previous_build, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_reader_roundtrip_and_lookups, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_reader_rejects_corrupt_archives, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_reader_rejects_corrupt_catalogs, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_reader_rejects_corrupt_index, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_pack_reader_results_and_messages),
        cmocka_unit_test_setup_teardown(test_pack_deterministic_across_input_order, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_sequential_deterministic_across_input_order, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_locality_generated_tree, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_noop_repack_writes_nothing, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_damaged_archive_built_again, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_input_changed_during_build, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_memoised_scans_record_what_generate_reads, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_session_is_not_the_process, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_flat_build_refuses_colons, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_flat_build_and_stale_files, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_clean_up_leftovers_and_links, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_output_folder_swapped_for_a_link, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_case_only_rename_case_sensitive, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_flat_build_refuses_windows_names, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_windows_name_rule, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_overrides_usage_and_hooks, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("pack", tests, NULL, NULL);
}
