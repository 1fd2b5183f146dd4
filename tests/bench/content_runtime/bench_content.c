/* Benchmark of runtime/threadlink/content.h: the hot paths of scoped loading against the floor of a
 * name-keyed cache, a khash lookup (htslib's header-only khash.h; nothing of htslib is linked).
 *
 * The directory is synthesised in memory (a packed directory of N small uncompressed assets in
 * the formats of schemas/content-formats.md, served by an in-memory I/O backend), so the figures
 * measure the runtime, not the disk. Each figure is the median over rounds of the round's mean
 * time per operation.
 *
 *   bench_content [--quick]
 *
 * Targets (issue 9): dedupe hit < 30 ns; acquire+release+collect of a cached asset < 100 ns;
 * disposing a scope holding 100,000 assets < 10 ms; collect with nothing queued < 50 ns whatever
 * is loaded. */
#define _POSIX_C_SOURCE 200809L
#define TL_IMPLEMENTATION
#include <threadlink/content.h>

#include <htslib/khash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

KHASH_MAP_INIT_STR(kstr, uint32_t)
KHASH_MAP_INIT_INT(kint, uint32_t)

#define N_ASSETS 100000u
#define HOT 1024u

static volatile uint64_t g_sink;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the synthetic directory ------------------------------------------------------------------ */
static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}
static void put64(unsigned char *p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

typedef struct mem_file { const char *path; unsigned char *data; size_t size; } mem_file;
static mem_file g_files[3];
static char g_names[N_ASSETS][16];

static void *mem_open(void *user, const char *path, uint64_t *size) {
    int i;
    (void)user;
    for (i = 0; i < 3; i++)
        if (strcmp(g_files[i].path, path) == 0) {
            *size = g_files[i].size;
            return &g_files[i];
        }
    return NULL;
}
static bool mem_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    mem_file *f = (mem_file *)file;
    (void)user;
    if (offset > f->size || size > f->size - offset) return false;
    memcpy(dst, f->data + offset, size);
    return true;
}
static void mem_close(void *user, void *file) {
    (void)user;
    (void)file;
}

/* An archive of `count` raw entries with ids ids[i] and the given payloads. */
static unsigned char *make_archive(uint32_t count, const uint32_t *ids, const unsigned char *const *data, const size_t *sizes,
                                   size_t *out_size) {
    size_t toc = (size_t)count * 40, total = 32 + toc, at, i;
    unsigned char *a;
    for (i = 0; i < count; i++) total += sizes[i];
    a = (unsigned char *)calloc(1, total);
    memcpy(a, "TLPKARC\x1a", 8);
    put32(a + 8, 1);
    put32(a + 12, count);
    put64(a + 16, total - 32 - toc);
    at = 32 + toc;
    for (i = 0; i < count; i++) {
        unsigned char *e = a + 32 + i * 40;
        put32(e, ids[i]);
        put64(e + 8, at);
        put64(e + 16, sizes[i]);
        put64(e + 24, sizes[i]);
        put64(e + 32, tl_hash64(data[i], sizes[i], 0));
        memcpy(a + at, data[i], sizes[i]);
        at += sizes[i];
    }
    put64(a + 24, tl_hash64(a + 32, toc, 0));
    *out_size = total;
    return a;
}

static void make_directory(void) {
    /* Catalog: one category, N records (ids 1..N, names Bench/a000000.. in id order, which is
       also folded-name order), name index and members the identity permutation. */
    uint32_t n = N_ASSETS, i;
    size_t strings = 0, at, head = 48, cats = 16, recs = (size_t)n * 40, idx = (size_t)n * 4;
    unsigned char *cat, *s;
    static unsigned char payload[N_ASSETS][8];
    const unsigned char **datas = (const unsigned char **)malloc(n * sizeof *datas);
    size_t *sizes = (size_t *)malloc(n * sizeof *sizes), cat_size, arc_size;
    uint32_t *ids = (uint32_t *)malloc(n * sizeof *ids), zero = 0;
    const unsigned char *cat_data;
    char index[1024];
    for (i = 0; i < n; i++) snprintf(g_names[i], sizeof g_names[i], "Bench/a%06u", i);
    strings = 6 + 6; /* "Bench\0" profile, "Bench\0" category name (shared below) */
    strings += (size_t)n * 14;
    cat_size = head + cats + recs + idx * 2 + strings;
    cat = (unsigned char *)calloc(1, cat_size);
    memcpy(cat, "TLCATLG\x1a", 8);
    put32(cat + 8, 1);
    put32(cat + 12, 0);
    put32(cat + 16, 1);
    put32(cat + 20, n);
    put32(cat + 24, (uint32_t)strings);
    s = cat + head + cats + recs + idx * 2;
    memcpy(s, "Bench\0Bench\0", 12);
    put32(cat + 40, 0);
    put32(cat + 44, 5);
    put32(cat + head, 6);
    put32(cat + head + 4, 5);
    put32(cat + head + 8, 0);
    put32(cat + head + 12, n);
    at = 12;
    for (i = 0; i < n; i++) {
        unsigned char *r = cat + head + cats + (size_t)i * 40;
        put32(r, i + 1);
        put32(r + 4, 0);
        put32(r + 8, (uint32_t)at);
        put32(r + 12, 13);
        put32(r + 16, 5); /* the profile's NUL: an empty path */
        put32(r + 20, 0);
        memcpy(s + at, g_names[i], 14);
        at += 14;
        put32(cat + head + cats + recs + (size_t)i * 4, i);
        put32(cat + head + cats + recs + idx + (size_t)i * 4, i);
        ids[i] = i + 1;
        put64(payload[i], (uint64_t)i * 0x9e3779b97f4a7c15ull);
        datas[i] = payload[i];
        sizes[i] = 8;
    }
    put64(cat + 32, tl_hash64(cat + head, cat_size - head, 0));
    cat_data = cat;
    g_files[1].path = "bench/cat.tlpk";
    g_files[1].data = make_archive(1, &zero, &cat_data, &cat_size, &g_files[1].size);
    g_files[2].path = "bench/a.tlpk";
    g_files[2].data = make_archive(n, ids, datas, sizes, &arc_size);
    g_files[2].size = arc_size;
    snprintf(index, sizeof index,
             "{\"format\": 1, \"profile\": \"Bench\", \"archives\": [\n"
             " {\"name\": \"cat.tlpk\", \"role\": \"catalog\", \"size\": %zu, \"xxh64\": \"%016llx\", \"files\": []},\n"
             " {\"name\": \"a.tlpk\", \"role\": \"assets\", \"size\": %zu, \"xxh64\": \"%016llx\", \"files\": []}]}\n",
             g_files[1].size, (unsigned long long)tl_hash64(g_files[1].data, g_files[1].size, 0), g_files[2].size,
             (unsigned long long)tl_hash64(g_files[2].data, g_files[2].size, 0));
    g_files[0].path = "bench/archives.json";
    g_files[0].size = strlen(index);
    g_files[0].data = (unsigned char *)malloc(g_files[0].size);
    memcpy(g_files[0].data, index, g_files[0].size);
    free(cat);
    free(datas);
    free(sizes);
    free(ids);
}

/* ---- measurements ------------------------------------------------------------------------------- */
static uint32_t g_order[HOT]; /* a shuffled walk over the hot ids */

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int rounds = quick ? 5 : 11, r;
    long iters = quick ? 2000000 : 10000000;
    double t_dedupe[16], t_dedupe_name[16], t_cycle[16], t_scope_cycle[16], t_dispose[16], t_collect_empty[16],
        t_collect_loaded[16], t_collect_release[16], t_kstr[16], t_kint[16];
    tl_content_desc desc;
    tl_content *c;
    tl_scope hot, big, other;
    khash_t(kstr) *ks = kh_init(kstr);
    khash_t(kint) *ki = kh_init(kint);
    uint32_t i;
    uint64_t x = 88172645463325252ull;
    make_directory();
    memset(&desc, 0, sizeof desc);
    desc.io.open = mem_open;
    desc.io.read = mem_read;
    desc.io.close = mem_close;
    desc.manual_collect = true;
    c = tl_content_create(&desc);
    if (!tl_content_dir_valid(tl_content_register_dir(c, "bench"))) return 1;
    for (i = 0; i < HOT; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        g_order[i] = (uint32_t)(x % N_ASSETS);
    }
    for (i = 0; i < N_ASSETS; i++) {
        int absent;
        khiter_t k = kh_put(kstr, ks, g_names[i], &absent);
        kh_value(ks, k) = i + 1;
        k = kh_put(kint, ki, i + 1, &absent);
        kh_value(ki, k) = i;
    }
    hot = tl_scope_create(tl_content_root(c), "Hot", TL_SCOPE_LEVEL);
    other = tl_scope_create(tl_content_root(c), "Other", TL_SCOPE_LEVEL);
    for (i = 0; i < HOT; i++) tl_scope_load(hot, g_order[i] + 1);

    for (r = 0; r < rounds; r++) {
        double t0;
        long k;
        uint64_t sum = 0;
        /* Dedupe hit: a held asset loaded again, by id and by name. */
        t0 = now_ns();
        for (k = 0; k < iters; k++) sum += tl_scope_load(hot, g_order[k & (HOT - 1)] + 1).slot;
        t_dedupe[r] = (now_ns() - t0) / (double)iters;
        t0 = now_ns();
        for (k = 0; k < iters / 4; k++) sum += tl_scope_load_name(hot, g_names[g_order[k & (HOT - 1)]]).slot;
        t_dedupe_name[r] = (now_ns() - t0) / (double)(iters / 4);
        /* khash: the floor of a name-keyed cache (string key), and of an id-keyed one. */
        t0 = now_ns();
        for (k = 0; k < iters / 4; k++) {
            khiter_t it = kh_get(kstr, ks, g_names[g_order[k & (HOT - 1)]]);
            sum += kh_value(ks, it);
        }
        t_kstr[r] = (now_ns() - t0) / (double)(iters / 4);
        t0 = now_ns();
        for (k = 0; k < iters; k++) {
            khiter_t it = kh_get(kint, ki, g_order[k & (HOT - 1)] + 1);
            sum += kh_value(ki, it);
        }
        t_kint[r] = (now_ns() - t0) / (double)iters;
        /* Acquire + release + collect of a cached asset (its slot alive: the hot scope holds it). */
        t0 = now_ns();
        for (k = 0; k < iters; k++) {
            tl_content_handle h = tl_content_acquire(c, g_order[k & (HOT - 1)] + 1);
            tl_content_dispose(h);
            tl_content_collect(c);
        }
        t_cycle[r] = (now_ns() - t0) / (double)iters;
        t0 = now_ns();
        for (k = 0; k < iters; k++) {
            uint32_t id = g_order[k & (HOT - 1)] + 1;
            sum += tl_scope_load(other, id).slot;
            tl_scope_release(other, id);
            tl_content_collect(c);
        }
        t_scope_cycle[r] = (now_ns() - t0) / (double)iters;
        /* Collect with nothing queued, with 1,024 and then 100,000 assets loaded. */
        tl_content_update(c);
        tl_content_update(c);
        tl_content_collect(c);
        if (tl_content_get_stats(c).queued != 0) return 1;
        t0 = now_ns();
        for (k = 0; k < iters; k++) tl_content_collect(c);
        t_collect_empty[r] = (now_ns() - t0) / (double)iters;
        big = tl_scope_create(tl_content_root(c), "Big", TL_SCOPE_LEVEL);
        for (i = 0; i < N_ASSETS; i++) tl_scope_load(big, i + 1);
        t0 = now_ns();
        for (k = 0; k < iters; k++) tl_content_collect(c);
        t_collect_loaded[r] = (now_ns() - t0) / (double)iters;
        /* Disposing a scope that holds 100,000 assets, then the collect that releases them. */
        t0 = now_ns();
        tl_scope_dispose(big);
        t_dispose[r] = (now_ns() - t0) / 1e6;
        tl_content_update(c);
        tl_content_update(c);
        t0 = now_ns();
        tl_content_collect(c); /* the release delay has passed: every unheld slot goes */
        t_collect_release[r] = (now_ns() - t0) / 1e6;
        g_sink += sum;
        if (tl_content_live_assets(c) != tl_scope_count(hot)) {
            fprintf(stderr, "bench_content: %u live assets, expected %u\n", tl_content_live_assets(c), tl_scope_count(hot));
            return 1;
        }
    }
    printf("threadlink content benchmark (%s): %u assets, %u held in the hot scope, median of %d rounds\n", quick ? "quick" : "full",
           N_ASSETS, HOT, rounds);
    printf("ratios are threadlink / baseline (below 1: threadlink is faster)\n\n");
    printf("%-48s %10s %12s %8s %10s %s\n", "operation", "threadlink", "baseline", "ratio", "target", "");
    {
        double d = median(t_dedupe, rounds), dn = median(t_dedupe_name, rounds), ks_ = median(t_kstr, rounds),
               ki_ = median(t_kint, rounds), cy = median(t_cycle, rounds), sc = median(t_scope_cycle, rounds),
               ce = median(t_collect_empty, rounds), cl = median(t_collect_loaded, rounds), dp = median(t_dispose, rounds),
               cr = median(t_collect_release, rounds);
        printf("%-48s %8.2f ns %9.2f ns %8.3f %7s ns %s\n", "dedupe hit, by id (vs khash u32 lookup)", d, ki_, d / ki_, "< 30",
               d < 30 ? "met" : "NOT MET");
        printf("%-48s %8.2f ns %9.2f ns %8.3f %7s ns %s\n", "dedupe hit, by id (vs khash string lookup)", d, ks_, d / ks_, "< 30",
               d < 30 ? "met" : "NOT MET");
        printf("%-48s %8.2f ns %9.2f ns %8.3f %10s\n", "dedupe hit, by name (vs khash string lookup)", dn, ks_, dn / ks_, "");
        printf("%-48s %8.2f ns %9.2f ns %8.3f %7s ns %s\n", "acquire + dispose + collect, cached (vs khash str)", cy, ks_,
               cy / ks_, "< 100", cy < 100 ? "met" : "NOT MET");
        printf("%-48s %8.2f ns %9.2f ns %8.3f %10s\n", "scope load + release + collect, cached (vs khash str)", sc, ks_, sc / ks_,
               "");
        printf("%-48s %8.2f ns %12s %8s %7s ns %s\n", "collect, nothing queued, 1,024 loaded", ce, "-", "-", "< 50",
               ce < 50 ? "met" : "NOT MET");
        printf("%-48s %8.2f ns %12s %8s %7s ns %s\n", "collect, nothing queued, 100,000 loaded", cl, "-", "-", "< 50",
               cl < 50 ? "met" : "NOT MET");
        printf("%-48s %8.3f ms %12s %8s %7s ms %s\n", "dispose a scope holding 100,000 assets", dp, "-", "-", "< 10",
               dp < 10 ? "met" : "NOT MET");
        printf("%-48s %8.3f ms %12s %8s %10s\n", "collect releasing those 100,000 slots", cr, "-", "-", "");
    }
    tl_content_shutdown(c);
    kh_destroy(kstr, ks);
    kh_destroy(kint, ki);
    for (i = 0; i < 3; i++) free(g_files[i].data);
    return 0;
}
