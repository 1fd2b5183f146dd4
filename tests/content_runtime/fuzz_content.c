/* Fuzzing the directory readers: archives.json, the catalog (flat, and inside its archive) and
 * archive tables of contents, end to end through tl_content_register_dir over an in-memory
 * backend; a registered directory then loads every asset. The readers are threadlink/
 * content_format.h, shared with the generator: every input is also opened by them directly, as
 * a whole catalog or archive, and an accepted one must answer every lookup it lists.
 *
 * Built two ways:
 *   -DCONTENT_LIBFUZZER   LLVMFuzzerTestOneInput for libFuzzer (-Dfuzzing=true, clang)
 *   otherwise             a deterministic mutation run from the fixture's files, in every build:
 *                         fuzz_content FIXTURE_PROJECT [MUTATIONS_PER_SEED]
 * The first input byte chooses the target (0 index, 1 flat catalog, 2 asset archive,
 * 3 catalog archive); the rest is the file. */
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include <threadlink/content.h>

#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- an in-memory directory ------------------------------------------------------------------ */
typedef struct mem_file { char path[512]; const unsigned char *data; size_t size; } mem_file;
typedef struct mem_fs { mem_file files[16]; int count; } mem_fs;

static void *mem_open(void *user, const char *path, uint64_t *size) {
    mem_fs *fs = (mem_fs *)user;
    int i;
    for (i = 0; i < fs->count; i++)
        if (strcmp(fs->files[i].path, path) == 0) {
            *size = fs->files[i].size;
            return &fs->files[i];
        }
    return NULL;
}
static bool mem_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    mem_file *f = (mem_file *)file;
    (void)user;
    if (offset > f->size || size > f->size - offset) return false;
    if (size) memcpy(dst, f->data + offset, size);
    return true;
}
static void mem_close(void *user, void *file) {
    (void)user;
    (void)file;
}
static void mem_add(mem_fs *fs, const char *path, const unsigned char *data, size_t size) {
    mem_file *f = &fs->files[fs->count++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data = data;
    f->size = size;
}

static void quiet_sink(void *user, const tl_log_record *rec) {
    (void)user;
    (void)rec;
}

/* ---- the seeds' pieces: the fixture's Small (packed) and Extra (flat) directories ------------- */
typedef struct blob { unsigned char *data; size_t size; char name[300]; } blob;
static blob g_index, g_catalog_archive, g_asset_archive, g_flat_catalog, g_flat_files[2];
static int g_ready;

/* Registers what `fs` holds as directory "d" and loads everything it lists. */
static void exercise(mem_fs *fs) {
    tl_content_desc desc;
    tl_content *c;
    tl_content_dir dir;
    memset(&desc, 0, sizeof desc);
    desc.io.user = fs;
    desc.io.open = mem_open;
    desc.io.read = mem_read;
    desc.io.close = mem_close;
    desc.logger.sink = quiet_sink;
    desc.verify_xxh64 = fs->count & 1; /* both paths */
    c = tl_content_create(&desc);
    dir = tl_content_register_dir(c, "d");
    if (tl_content_dir_valid(dir)) {
        const tl__content_dirrec *d = &c->dirs[dir.index];
        tl_scope s = tl_scope_create(tl_content_root(c), "S", TL_SCOPE_LEVEL);
        tl_content_info info;
        uint32_t i, cursor = 0, listed = 0;
        /* The listing: every asset once, each carried by the directory under its id. */
        while (tl_content_dir_next_asset(dir, &cursor, &info)) {
            if (!tl_content_contains(c, info.id) || !info.name || !info.category) abort();
            listed++;
        }
        if (listed != d->entry_count) abort();
        for (i = 0; i < d->entry_count; i++) {
            tl_asset a = tl_scope_load(s, d->entries[i].id);
            if (tl_asset_valid(a) && tl_asset_size(a) != d->entries[i].size) abort();
            (void)tl_scope_load_name(s, d->entries[i].name);
        }
        tl_content_update(c);
    }
    tl_content_shutdown(c);
}

/* The shared readers on the whole input: what they accept holds together (every asset found by
   name and id, every member in range, every entry found by id), and reading an archive in two
   steps (as the runtime does) agrees with reading it whole. */
static void check_readers(int target, const unsigned char *data, size_t size) {
    if (target == 1 || target == 3) {
        tl_cf_catalog c;
        tl_cf_catalog_asset x, y;
        uint32_t i, k, m, first, count;
        const char *name;
        if (tl_cf_catalog_open(&c, data, size, NULL) == TL_CF_OK) {
            for (i = 0; i < c.asset_count; i++) {
                tl_cf_catalog_asset_at(&c, i, &x);
                if (tl_cf_catalog_find_name(&c, x.name, x.name_len, &y) != TL_CF_OK || y.id != x.id) abort();
                if (tl_cf_catalog_find_id(&c, x.id, &y) != TL_CF_OK || y.name != x.name) abort();
            }
            for (k = 0; k < c.category_count; k++) {
                tl_cf_catalog_category(&c, k, &name, &first, &count);
                for (m = first; m < first + count; m++)
                    if (tl_cf_catalog_member(&c, m) >= c.asset_count) abort();
            }
        }
    }
    if (target == 2 || target == 3) {
        tl_cf_archive a;
        tl_cf_archive_entry e, found;
        uint32_t count = 0, i;
        bool whole = tl_cf_archive_open(&a, data, size, NULL) == TL_CF_OK;
        bool steps = tl_cf_archive_read_header(data, size, &count, NULL) == TL_CF_OK &&
                     tl_cf_archive_check_toc(data, data + TL_CF_ARCHIVE_HEADER_SIZE, count, size, UINT64_MAX, NULL) == TL_CF_OK;
        if (whole != steps) abort();
        for (i = 0; whole && i < a.entry_count; i++) {
            tl_cf_archive_entry_at(&a, i, &e);
            if (tl_cf_archive_find(&a, e.id, &found) != TL_CF_OK || found.offset != e.offset) abort();
        }
    }
}

static void fuzz_one(const unsigned char *input, size_t len) {
    mem_fs fs;
    char index[4096];
    int target;
    const unsigned char *data;
    size_t size;
    if (len < 1 || !g_ready) return;
    target = input[0] % 4;
    data = input + 1;
    size = len - 1;
    check_readers(target, data, size);
    memset(&fs, 0, sizeof fs);
    if (target == 0) {
        char path[400];
        mem_add(&fs, "d/archives.json", data, size);
        snprintf(path, sizeof path, "d/%s", g_catalog_archive.name);
        mem_add(&fs, path, g_catalog_archive.data, g_catalog_archive.size);
        snprintf(path, sizeof path, "d/%s", g_asset_archive.name);
        mem_add(&fs, path, g_asset_archive.data, g_asset_archive.size);
    } else if (target == 1) {
        mem_add(&fs, "d/catalog.tlcat", data, size);
        mem_add(&fs, "d/assets/Icons/sword.txt", g_flat_files[0].data, g_flat_files[0].size);
        mem_add(&fs, "d/assets/Misc/note.txt", g_flat_files[1].data, g_flat_files[1].size);
    } else {
        /* An index that matches the input's size, so the tables are what gets checked. */
        const blob *cat = target == 3 ? NULL : &g_catalog_archive, *arc = target == 2 ? NULL : &g_asset_archive;
        snprintf(index, sizeof index,
                 "{\"format\": 1, \"profile\": \"Small\", \"archives\": [\n"
                 " {\"name\": \"c.tlpk\", \"role\": \"catalog\", \"size\": %zu, \"xxh64\": \"0000000000000000\"},\n"
                 " {\"name\": \"a.tlpk\", \"role\": \"assets\", \"size\": %zu, \"xxh64\": \"0000000000000000\"}]}",
                 cat ? cat->size : size, arc ? arc->size : size);
        mem_add(&fs, "d/archives.json", (const unsigned char *)index, strlen(index));
        mem_add(&fs, "d/c.tlpk", cat ? cat->data : data, cat ? cat->size : size);
        mem_add(&fs, "d/a.tlpk", arc ? arc->data : data, arc ? arc->size : size);
    }
    exercise(&fs);
}

/* Finds the fixture's files: Small's index and archives, Extra's catalog and files. */
static int load_seeds(const char *root) {
    char path[1000], *p;
    size_t n;
    snprintf(path, sizeof path, "%s/out/Small/archives.json", root);
    if (!(g_index.data = read_file(path, &g_index.size))) return 0;
    for (p = strstr((char *)g_index.data, "\"name\": \""); p; p = strstr(p + 1, "\"name\": \"")) {
        blob *b = strstr(p, "\"role\": \"catalog\"") == strstr(p, "\"role\"") ? &g_catalog_archive : &g_asset_archive;
        n = strcspn(p + 9, "\"");
        memcpy(b->name, p + 9, n);
        b->name[n] = 0;
        snprintf(path, sizeof path, "%s/out/Small/%s", root, b->name);
        if (!(b->data = read_file(path, &b->size))) return 0;
    }
    snprintf(path, sizeof path, "%s/out/Extra/catalog.tlcat", root);
    if (!(g_flat_catalog.data = read_file(path, &g_flat_catalog.size))) return 0;
    snprintf(path, sizeof path, "%s/out/Extra/assets/Icons/sword.txt", root);
    if (!(g_flat_files[0].data = read_file(path, &g_flat_files[0].size))) return 0;
    snprintf(path, sizeof path, "%s/out/Extra/assets/Misc/note.txt", root);
    if (!(g_flat_files[1].data = read_file(path, &g_flat_files[1].size))) return 0;
    g_ready = g_catalog_archive.data && g_asset_archive.data;
    return g_ready;
}

#ifdef CONTENT_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    if (!load_seeds(getenv("CONTENT_FIXTURE") ? getenv("CONTENT_FIXTURE") : "build/tests/content_runtime/fixture")) {
        fprintf(stderr, "set CONTENT_FIXTURE to the fixture project (tests/content_runtime/make_fixture.sh)\n");
        abort();
    }
    return 0;
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_one(data, size);
    return 0;
}
#else
static uint64_t g_rng = 0x1234567;
static uint64_t rnd(void) {
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* One random mutation; with the checksums fixed afterwards half of the time, so that mutations
   reach the tables behind them. */
static size_t mutate(int target, unsigned char *buf, size_t size, size_t cap) {
    static const uint64_t special[] = {0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff, 0xffffffffffffffffull};
    size_t at = size ? (size_t)(rnd() % size) : 0, k;
    switch (rnd() % 7) {
    case 0: if (size) buf[at] ^= (unsigned char)(1u << (rnd() % 8)); break;
    case 1: if (size) buf[at] = (unsigned char)special[rnd() % 5]; break;
    case 2: size = size ? (size_t)(rnd() % size) : 0; break;
    case 3: /* a little-endian field set to a special value or a nearby size */
        if (size >= 8) {
            uint64_t v = rnd() % 2 ? special[rnd() % 9] : (uint64_t)size + (rnd() % 64) - 32;
            at = (at & ~(size_t)3) % (size - 7);
            for (k = 0; k < (rnd() % 2 ? 4u : 8u); k++) buf[at + k] = (unsigned char)(v >> (8 * k));
        }
        break;
    case 4: /* grow */
        k = (size_t)(rnd() % 64);
        if (size + k <= cap) {
            for (; k; k--) buf[size++] = (unsigned char)rnd();
        }
        break;
    case 5: /* copy a region over another */
        if (size > 16) {
            size_t from = (size_t)(rnd() % (size - 8)), n = 1 + (size_t)(rnd() % 8);
            at = (size_t)(rnd() % (size - 8));
            memmove(buf + at, buf + from, n);
        }
        break;
    default: /* a JSON-ish token */
        if (target == 0 && size > 4) {
            static const char *tokens[] = {"\"", "\\u0000", "{", "[", "]", "}", ",", ":", "1e9", "-1", "null", "\\uD800"};
            const char *t = tokens[rnd() % 12];
            size_t n = strlen(t);
            if (at + n <= size) memcpy(buf + at, t, n);
        } else if (size) {
            buf[at] = (unsigned char)rnd();
        }
    }
    if (rnd() % 2) {
        if ((target == 1 || target == 3) && size >= TL_CF_CATALOG_HEADER_SIZE) {
            uint64_t h = tl_hash64(buf + TL_CF_CATALOG_HEADER_SIZE, size - TL_CF_CATALOG_HEADER_SIZE, 0);
            for (k = 0; k < 8; k++) buf[32 + k] = (unsigned char)(h >> (8 * k));
        }
        if (target == 2 && size >= TL_CF_ARCHIVE_HEADER_SIZE) {
            uint32_t n = tl_cf_get_u32(buf + 12);
            if (n && (uint64_t)n * TL_CF_ARCHIVE_ENTRY_SIZE <= size - TL_CF_ARCHIVE_HEADER_SIZE) {
                uint64_t h = tl_hash64(buf + TL_CF_ARCHIVE_HEADER_SIZE, (size_t)n * TL_CF_ARCHIVE_ENTRY_SIZE, 0);
                for (k = 0; k < 8; k++) buf[24 + k] = (unsigned char)(h >> (8 * k));
            }
        }
    }
    return size;
}

int main(int argc, char **argv) {
    unsigned long per_seed = 20000, i;
    int target;
    unsigned char *buf;
    if (argc < 2 || !load_seeds(argv[1])) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT [MUTATIONS_PER_SEED] (fixture files missing?)\n", argv[0]);
        return 2;
    }
    if (argc > 2) per_seed = strtoul(argv[2], NULL, 10);
    for (target = 0; target < 4; target++) {
        /* The catalog archive is mutated whole (target 3 reads it as the catalog archive). */
        const blob *seed = target == 0 ? &g_index : target == 1 ? &g_flat_catalog : target == 2 ? &g_asset_archive : &g_catalog_archive;
        size_t cap = seed->size + 4096, size;
        unsigned long accepted = 0;
        buf = (unsigned char *)malloc(cap + 1);
        if (!buf) return 1;
        for (i = 0; i < per_seed; i++) {
            unsigned rounds = 1 + (unsigned)(rnd() % 4), r;
            buf[0] = (unsigned char)target;
            memcpy(buf + 1, seed->data, seed->size);
            size = seed->size;
            for (r = 0; r < rounds; r++) size = mutate(target, buf + 1, size, cap - 1);
            fuzz_one(buf, size + 1);
            if (target == 1) {
                tl_cf_catalog c;
                accepted += tl_cf_catalog_open(&c, buf + 1, size, NULL) == TL_CF_OK;
            }
        }
        /* The unmutated seed registers (the run above would prove nothing otherwise). */
        buf[0] = (unsigned char)target;
        memcpy(buf + 1, seed->data, seed->size);
        check_readers(target, buf + 1, seed->size);
        printf("target %d: %lu mutations of a %zu-byte seed", target, per_seed, seed->size);
        if (target == 1) printf(", %lu of them still valid catalogs (checksums refreshed)", accepted);
        printf("\n");
        free(buf);
    }
    free(g_index.data);
    free(g_catalog_archive.data);
    free(g_asset_archive.data);
    free(g_flat_catalog.data);
    free(g_flat_files[0].data);
    free(g_flat_files[1].data);
    return 0;
}
#endif
