/* Benchmark of runtime/threadlink/content.h loading from disk (issue 31): every asset loaded once
 * through tl_scope_load from a directory packed by threadlink-gen (raw, lz4, lz4 HC level 3 and
 * zstd entries, each verified by its XXH64), against PhysFS reading the same files from a stored (uncompressed) zip
 * and from a deflated zip (what a PhysFS game with compressed assets pays: PhysFS inflates with
 * its bundled zlib), and against plain stdio (fopen/fread) from a directory, in one run, warm page
 * cache; threadlink twice, as a game gets it and built with TL_CONTENT_NO_MMAP (every entry read,
 * tl_contestant.h), so that each run says whether the default path is the faster one. Each
 * contestant's wall time and CPU time (the process's, user + system) are measured.
 *
 * Three trees: "small" (4,000 assets of 1 KB), "large" (24 of 4 MiB) and "mixed" (4,000 assets,
 * ~108 MB, sizes from 200 bytes to ~1.5 MB; one file in three incompressible). Each contestant
 * loads every asset of a tree into a buffer it keeps (threadlink: no kind registered, so the
 * asset is kept as its bytes; PhysFS and stdio: a malloc'd buffer per file), then everything is
 * released, inside the timing (issue 47: the whole cycle a game pays at a level change). Rounds rotate the contestants' order so host drift cancels out;
 * each figure is the median over rounds.
 *
 *   bench_content_load THREADLINK_GEN [ROUNDS]   (default 10; an even number, see measure_tree) */
#define _GNU_SOURCE
#include "tl_contestant.h"

#include <physfs.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS 31

static double clock_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
/* The process's CPU time: a shared host's other loads inflate wall times, much less this. */
static double cpu_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *v, int n) {
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static uint64_t rng(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void run(const char *cmd) {
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_content_load: failed: %s\n", cmd);
        exit(1);
    }
}

/* ---- the trees ------------------------------------------------------------------------------- */

typedef struct tree {
    const char *set;   /* small, large, mixed: src_<set>/ and <set>.zip */
    uint32_t count;
    char (*rel)[32];   /* D07/asset_00042.bin */
    char (*name)[32];  /* D07/asset_00042: the asset's name */
    size_t *size;
    double mb;
} tree;

/* A file of `size` bytes: incompressible (like PNG or Ogg data) or text-like. */
static void fill(unsigned char *data, size_t size, int random, uint64_t *s) {
    static const char words[][8] = {"sprite ", "level  ", "enemy  ", "42,17; ", "tile=3 ", "door   "};
    size_t b;
    for (b = 0; b < size; b++)
        data[b] = random ? (unsigned char)rng(s) : (unsigned char)words[(b / 7 + (rng(s) % 5 == 0)) % 6][b % 7];
}

/* Sizes of the mixed tree: mostly small, a tail of large ones, scaled to `total` bytes. */
static void mixed_sizes(size_t *size, uint32_t n, double total, uint64_t *s) {
    double sum = 0, *w = (double *)malloc(n * sizeof *w);
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint64_t r = rng(s) % 100;
        double u = (double)(rng(s) % 1000) / 1000.0;
        w[i] = r < 60 ? 1 + 15 * u : r < 90 ? 16 + 112 * u : 128 + 1400 * u; /* KB-ish weights */
        sum += w[i];
    }
    for (i = 0; i < n; i++) size[i] = (size_t)(w[i] / sum * total) + 200;
    free(w);
}

static void make_tree(tree *t, const char *set, uint32_t count, size_t fixed, uint64_t seed) {
    uint64_t s = seed;
    uint32_t i;
    size_t max = 0;
    unsigned char *data;
    char path[256];
    double total = 0;
    t->set = set;
    t->count = count;
    t->rel = (char (*)[32])calloc(count, sizeof *t->rel);
    t->name = (char (*)[32])calloc(count, sizeof *t->name);
    t->size = (size_t *)calloc(count, sizeof *t->size);
    if (fixed) {
        for (i = 0; i < count; i++) t->size[i] = fixed;
    } else {
        mixed_sizes(t->size, count, 108e6, &s);
    }
    for (i = 0; i < count; i++) max = t->size[i] > max ? t->size[i] : max;
    data = (unsigned char *)malloc(max);
    snprintf(path, sizeof path, "src_%s", set);
    mkdir(path, 0755);
    for (i = 0; i < 40 && i < count; i++) {
        snprintf(path, sizeof path, "src_%s/D%02u", set, i);
        mkdir(path, 0755);
    }
    for (i = 0; i < count; i++) {
        FILE *f;
        snprintf(t->name[i], sizeof t->name[i], "D%02u/asset_%05u", i % 40, i);
        snprintf(t->rel[i], sizeof t->rel[i], "%s.bin", t->name[i]);
        snprintf(path, sizeof path, "src_%s/%s", set, t->rel[i]);
        fill(data, t->size[i], i % 3 == 0, &s);
        f = fopen(path, "wb");
        if (!f || fwrite(data, 1, t->size[i], f) != t->size[i] || fclose(f) != 0) {
            fprintf(stderr, "bench_content_load: cannot write %s\n", path);
            exit(1);
        }
        total += (double)t->size[i];
    }
    t->mb = total / 1e6;
    free(data);
}

/* The zips for PhysFS (python3's zipfile): <set>.zip stored, <set>_deflate.zip deflated at zlib's
   default level (6, as `zip -6`). */
static void make_zip(const tree *t, int deflate) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd src_%s && python3 -c \"import os, zipfile\n"
             "z = zipfile.ZipFile('../%s%s.zip', 'w', zipfile.%s, compresslevel=%s)\n"
             "for d, _, fs in sorted(os.walk('.')):\n"
             "    for f in sorted(fs): z.write(os.path.join(d, f)[2:])\n"
             "z.close()\"",
             t->set, t->set, deflate ? "_deflate" : "", deflate ? "ZIP_DEFLATED" : "ZIP_STORED",
             deflate ? "6" : "None");
    run(cmd);
}

/* ---- the contestants ------------------------------------------------------------------------- */

/* lz4hc: lz4 entries packed at level 3 (LZ4 HC), which decode faster than the fast compressor's. */
#define CODECS 4
static const char *const codecs[CODECS] = {"raw", "lz4", "lz4hc", "zstd"};
static const char *const codec_json[CODECS] = {"\"none\"", "\"lz4\"", "\"lz4\", \"compression_level\": 3", "\"zstd\""};

static void free_all(unsigned char **bufs, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) free(bufs[i]);
}

/* PhysFS: openRead + fileLength + readBytes into a malloc'd buffer per file, from the stored zip
   (mounted at <set>/) or the deflated one (<set>_deflate/). */
static double physfs_load_all(const tree *t, unsigned char **bufs, int deflated) {
    char path[64];
    double t0 = now_ms();
    uint32_t i;
    for (i = 0; i < t->count; i++) {
        PHYSFS_File *f;
        PHYSFS_sint64 n;
        snprintf(path, sizeof path, "%s%s/%s", t->set, deflated ? "_deflate" : "", t->rel[i]);
        f = PHYSFS_openRead(path);
        if (!f || (n = PHYSFS_fileLength(f)) < 0 || !(bufs[i] = (unsigned char *)malloc((size_t)n + 1)) ||
            PHYSFS_readBytes(f, bufs[i], (PHYSFS_uint64)n) != n) {
            fprintf(stderr, "bench_content_load: PhysFS: %s: %s\n", path, PHYSFS_getErrorByCode(PHYSFS_getLastErrorCode()));
            exit(1);
        }
        PHYSFS_close(f);
    }
    return now_ms() - t0;
}

/* stdio: fopen + size + fread into a malloc'd buffer per file. */
static double stdio_load_all(const tree *t, unsigned char **bufs) {
    char path[64];
    double t0 = now_ms();
    uint32_t i;
    for (i = 0; i < t->count; i++) {
        FILE *f;
        long n;
        snprintf(path, sizeof path, "src_%s/%s", t->set, t->rel[i]);
        f = fopen(path, "rb");
        if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
            !(bufs[i] = (unsigned char *)malloc((size_t)n + 1)) || fread(bufs[i], 1, (size_t)n, f) != (size_t)n)
            exit(1);
        fclose(f);
    }
    return now_ms() - t0;
}

/* ---- main ------------------------------------------------------------------------------------ */

static void write_config(const tree *trees, int n) {
    FILE *cfg = fopen("threadlink.json", "w");
    int i, k;
    fprintf(cfg, "{ \"content\": [\n");
    for (i = 0; i < n; i++)
        for (k = 0; k < CODECS; k++)
            fprintf(cfg, "  { \"profile\": \"%c%s%c%s\", \"source_root\": \"src_%s\", \"output\": \"out/%s_%s\", \"compression\": %s }%s\n",
                    trees[i].set[0] - 32, trees[i].set + 1, codecs[k][0] - 32, codecs[k] + 1, trees[i].set, trees[i].set,
                    codecs[k], codec_json[k], i == n - 1 && k == CODECS - 1 ? "" : ",");
    fprintf(cfg, "] }\n");
    fclose(cfg);
}

/* The contestants, and each one's wall and CPU times per tree, codec and round: threadlink as a
   game gets it (TL) and with nothing mapped (TL_READ, tl_contestant.h), PhysFS from the stored
   and the deflated zip, stdio. Rounds rotate this order (see measure_tree). */
enum { TL, PF, TL_READ, PFZ, IO, CONTESTANTS };
typedef struct times {
    double wall[3][CODECS][CONTESTANTS][MAX_ROUNDS], cpu[3][CODECS][CONTESTANTS][MAX_ROUNDS];
} times;

/* The two threadlink builds, in the order of their contexts in tl_pair. */
#define TL_BUILDS 2
static const tl_contestant_api *const tl_builds[TL_BUILDS] = {&tl_contestant_mapped, &tl_contestant_read};

/* Both threadlink contestants' contexts for one tree and codec (tl_builds' order). */
typedef struct tl_pair {
    tl_contestant *c[TL_BUILDS];
} tl_pair;

/* The whole cycle a game pays for a level's assets: every asset loaded (and its bytes read), then
   all of them released, inside each contestant's window. */
static void time_one(times *tm, int i, int k, int r, int who, tree *t, const tl_pair *p, unsigned char **bufs) {
    double cpu0 = cpu_ms(), wall0 = now_ms();
    if (who == TL || who == TL_READ) {
        int b = who == TL_READ;
        tl_builds[b]->load_all(p->c[b], NULL, NULL);
        tl_builds[b]->release_all(p->c[b]);
    } else {
        if (who == IO) (void)stdio_load_all(t, bufs);
        else (void)physfs_load_all(t, bufs, who == PFZ);
        free_all(bufs, t->count);
    }
    tm->wall[i][k][who][r] = now_ms() - wall0;
    tm->cpu[i][k][who][r] = cpu_ms() - cpu0;
}

/* Both threadlink contestants on out/<set>_<codec>, loaded once and checked against `check`. */
static void tl_pair_open(tl_pair *p, const tree *t, int codec, unsigned char *const *check) {
    char path[256];
    int b;
    snprintf(path, sizeof path, "out/%s_%s", t->set, codecs[codec]);
    for (b = 0; b < TL_BUILDS; b++) {
        p->c[b] = tl_builds[b]->open(path, (const char (*)[32])t->name, t->count);
        tl_builds[b]->load_all(p->c[b], check, t->size);
        tl_builds[b]->release_all(p->c[b]);
    }
}

/* Warm-up (page cache, allocator), a check that every contestant reads the same bytes, then
   `rounds` rounds per codec with the contestants' order rotated. */
static void measure_tree(times *tm, int i, tree *t, int rounds) {
    unsigned char **bufs = (unsigned char **)calloc(t->count, sizeof *bufs);
    unsigned char **check = (unsigned char **)calloc(t->count, sizeof *check);
    tl_pair pairs[CODECS];
    uint32_t j;
    int k, r, z;
    stdio_load_all(t, check);
    for (z = 0; z < 2; z++) {
        physfs_load_all(t, bufs, z);
        for (j = 0; j < t->count; j++)
            if (memcmp(bufs[j], check[j], t->size[j]) != 0) exit(1);
        free_all(bufs, t->count);
    }
    for (k = 0; k < CODECS; k++) tl_pair_open(&pairs[k], t, k, check);
    free_all(check, t->count);
    /* The two threadlink contestants never run one after the other, or the second would find the
       archives' pages the first just read in the CPU's caches (the same code measured 16-20 %
       faster in second place on the small set); they trade places every other round, so that
       each follows stdio as often as PhysFS. */
    for (r = 0; r < rounds; r++)
        for (k = 0; k < CODECS; k++) {
            int c, turn = (r + k) % CONTESTANTS;
            for (c = 0; c < CONTESTANTS; c++) {
                int who = (turn + c) % CONTESTANTS;
                if (r % 2 && (who == TL || who == TL_READ)) who = who == TL ? TL_READ : TL;
                time_one(tm, i, k, r, who, t, &pairs[k], bufs);
            }
        }
    for (k = 0; k < CODECS; k++)
        for (z = 0; z < TL_BUILDS; z++) tl_builds[z]->close(pairs[k].c[z]);
    free(bufs);
    free(check);
}

/* One table (wall or CPU medians): times, threadlink / each baseline; against the deflated zip
   only for compressed entries (raw ones are compared with stored files). "tl read" is threadlink
   built with TL_CONTENT_NO_MMAP: below 1 in "/tl read", the default path is the faster one. */
static void report(const times *tm, int cpu, const tree *trees, int rounds) {
    int i, k, w;
    printf("\n%s, median of %d rounds\n", cpu ? "CPU time (process, user + system)" : "wall time", rounds);
    printf("%-6s %-5s %11s %11s %11s %11s %11s %9s %9s %9s %9s %10s\n", "set", "codec", "threadlink", "tl read",
           "PhysFS", "PhysFS-z", "stdio", "/tl read", "/PhysFS", "/PhysFS-z", "/stdio", "tl MB/s");
    for (i = 0; i < 3; i++)
        for (k = 0; k < CODECS; k++) {
            double m[CONTESTANTS];
            char z[16] = "        -";
            for (w = 0; w < CONTESTANTS; w++) m[w] = median(cpu ? tm->cpu[i][k][w] : tm->wall[i][k][w], rounds);
            if (k != 0) snprintf(z, sizeof z, "%9.3f", m[TL] / m[PFZ]);
            printf("%-6s %-5s %8.2f ms %8.2f ms %8.2f ms %8.2f ms %8.2f ms %9.3f %9.3f %9s %9.3f %10.0f\n", trees[i].set,
                   codecs[k], m[TL], m[TL_READ], m[PF], m[PFZ], m[IO], m[TL] / m[TL_READ], m[TL] / m[PF], z,
                   m[TL] / m[IO], trees[i].mb / m[TL] * 1e3);
        }
}

int main(int argc, char **argv) {
    char dir[] = "/tmp/tl-bench-content-load-XXXXXX", cmd[1024], *gen;
    int rounds = argc > 2 ? atoi(argv[2]) : 10, i, z;
    tree trees[3];
    static times tm;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_content_load THREADLINK_GEN [ROUNDS]\n");
        return 2;
    }
    if (rounds < 1 || rounds > MAX_ROUNDS) rounds = 10;
    if (!(gen = realpath(argv[1], NULL))) {
        fprintf(stderr, "bench_content_load: %s: not found\n", argv[1]);
        return 2;
    }
    if (!mkdtemp(dir) || chdir(dir) != 0) return 1;
#ifdef __GLIBC__
    /* glibc's default thresholds, fixed: otherwise each free of a large block moves them, and
       whether a round's buffers come back as fresh pages (a page fault each, for every
       contestant) depends on what was freed before, not on the contestant. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
    make_tree(&trees[0], "small", 4000, 1024, 0x9e3779b97f4a7c15ull);
    make_tree(&trees[1], "large", 24, 4u << 20, 0x2545f4914f6cdd1dull);
    make_tree(&trees[2], "mixed", 4000, 0, 0x853c49e6748fea9bull);
    write_config(trees, 3);
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile all > /dev/null", gen);
    run(cmd);
    if (!PHYSFS_init(argv[0])) return 1;
    for (i = 0; i < 3; i++)
        for (z = 0; z < 2; z++) {
            char zip[80], mount[64];
            make_zip(&trees[i], z);
            snprintf(mount, sizeof mount, "%s%s", trees[i].set, z ? "_deflate" : "");
            snprintf(zip, sizeof zip, "%s.zip", mount);
            if (!PHYSFS_mount(zip, mount, 1)) return 1;
        }
    printf("threadlink content load benchmark (%s), PhysFS %d.%d, median of %d rounds, warm page cache\n", dir,
           PHYSFS_VER_MAJOR, PHYSFS_VER_MINOR, rounds);
    for (i = 0; i < 3; i++) printf("  %-5s %5u assets, %7.1f MB\n", trees[i].set, trees[i].count, trees[i].mb);
    for (i = 0; i < 3; i++) measure_tree(&tm, i, &trees[i], rounds);
    printf("\nratios are threadlink / baseline (below 1: threadlink is faster); PhysFS reads the stored zip,\n"
           "PhysFS-z the deflated one (zlib level 6), stdio the plain directory, whatever threadlink's entries are\n");
    report(&tm, 0, trees, rounds);
    report(&tm, 1, trees, rounds);
    PHYSFS_deinit();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run(cmd);
    free(gen);
    return 0;
}
