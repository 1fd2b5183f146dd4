/* Benchmark of threadlink-gen pack on every core and of re-packing only what changed (issue 31).
 *   1. A 108 MB tree of 4,000 files packed with zstd (level 3) with --jobs 1, 2 and one per core,
 *      beside `tar cf - src | zstd -3 -T0` of the same tree in the same run.
 *   2. A 1 GB tree of 20,000 files: a full pack, then one-file edits (each a different file, one
 *      byte changed in place) each followed by a pack, with the peak resident memory of each; and
 *      what the first edit costs a player to download (issue 47): the new output's 1 MiB chunks
 *      found nowhere in the previous output, against the whole output's size.
 * The trees (and pack's cache folder) are made in a temporary folder, deleted at the end.
 * Medians of RUNS runs.
 *   bench_pack THREADLINK_GEN [RUNS] [SMALL_MB SMALL_FILES] [BIG_MB BIG_FILES] */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run_or_die(const char *cmd)
{
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_pack: failed: %s\n", cmd);
        exit(1);
    }
}

/* Runs `cmd` through sh; its wall time, its processor time (user + system, its children's
 * included) and its peak resident set (KiB, the largest process). */
static double timed(const char *cmd, long *peak_kib, double *cpu)
{
    double t = now();
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_pack: failed: %s\n", cmd);
        exit(1);
    }
    if (peak_kib) *peak_kib = ru.ru_maxrss;
    if (cpu)
        *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               (double)ru.ru_stime.tv_usec / 1e6;
    return now() - t;
}

typedef struct sample {
    double seconds, cpu; /* medians */
    long peak_kib;       /* the largest */
} sample;

/* Median of `runs` runs of cmd, each after `setup` (if any). */
static sample median(int runs, const char *setup, const char *cmd)
{
    double t[64], c[64];
    long peak = 0, p;
    for (int i = 0; i < runs; i++) {
        if (setup) run_or_die(setup);
        t[i] = timed(cmd, &p, &c[i]);
        if (p > peak) peak = p;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    qsort(c, (size_t)runs, sizeof *c, cmp_double);
    return (sample){t[runs / 2], c[runs / 2], peak};
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* As bench_content's tree: sizes spread around the mean, one file in three incompressible (like
 * PNG or Ogg data), the rest text-like; 40 zones of 7 sets. Returns the bytes written. */
static long long make_tree(const char *root, long mb, long files)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    long long total = 0, mean = mb * 1000000LL / files;
    char *data = malloc((size_t)mean * 2 + 16);
    static const char words[][8] = {"sprite ", "level  ", "enemy  ", "42,17; ", "tile=3 ", "door   "};
    for (long i = 0; i < files; i++) {
        size_t size = (size_t)(mean / 4 + (long long)(rng(&s) % (uint64_t)(mean * 3 / 2)));
        for (size_t b = 0; b < size; b++)
            data[b] = i % 3 == 0 ? (char)rng(&s) : words[(b / 7 + (rng(&s) % 5 == 0)) % 6][b % 7];
        char path[512];
        snprintf(path, sizeof path, "%s/src/Zone%02ld", root, i % 40);
        mkdir(path, 0777);
        snprintf(path + strlen(path), sizeof path - strlen(path), "/Set%ld", i % 7);
        mkdir(path, 0777);
        snprintf(path + strlen(path), sizeof path - strlen(path), "/asset_%05ld.bin", i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) exit(1);
        total += (long long)size;
    }
    free(data);
    return total;
}

static void make_project(const char *root, long mb, long files, double *total_mb)
{
    char path[512];
    snprintf(path, sizeof path, "%s", root);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/src", root);
    mkdir(path, 0777);
    *total_mb = (double)make_tree(root, mb, files) / 1e6;
    snprintf(path, sizeof path, "%s/threadlink.json", root);
    FILE *cfg = fopen(path, "w");
    fprintf(cfg, "{ \"content\": [ { \"profile\": \"Zstd\", \"source_root\": \"src\", \"output\": \"out/zstd\", \"compression\": \"zstd\" } ] }\n");
    fclose(cfg);
    printf("tree: %ld files, %.1f MB (%s)\n", files, *total_mb, root);
    fflush(stdout);
}

/* Part 1: pack on 1, 2 and every core against tar | zstd -T0 at zstd's level 3 (pack's). */
static void bench_cores(const char *gen, const char *dir, int runs, long mb, long files)
{
    char root[600], cmd[2048], setup[1024];
    double total_mb;
    snprintf(root, sizeof root, "%s/small", dir);
    make_project(root, mb, files, &total_mb);
    snprintf(cmd, sizeof cmd, "cd %s && cat src/*/*/* > /dev/null && %s pack --quiet --no-progress > /dev/null", root, gen);
    run_or_die(cmd); /* warm cache, manifests written */
    /* Interleaved (tar, jobs 1, jobs 2, every core; again ...), so that a machine whose speed
     * drifts during the run slows them alike. */
    char cmds[4][1024];
    snprintf(cmds[0], sizeof cmds[0], "cd %s && tar cf - src | zstd -3 -T0 -q > tar.zst", root);
    snprintf(setup, sizeof setup, "rm -rf %s/out", root);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs[3] = {1, 2, (int)cores};
    for (int k = 0; k < 3; k++) snprintf(cmds[k + 1], sizeof cmds[k + 1], "cd %s && exec %s pack --quiet --no-progress --jobs %d", root, gen, jobs[k]);
    double t[4][64], c[4][64];
    long peak[4] = {0};
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < 4; k++) {
            long p;
            if (k) run_or_die(setup);
            t[k][r] = timed(cmds[k], &p, &c[k][r]);
            if (p > peak[k]) peak[k] = p;
        }
    }
    sample all[4];
    for (int k = 0; k < 4; k++) {
        qsort(t[k], (size_t)runs, sizeof t[k][0], cmp_double);
        qsort(c[k], (size_t)runs, sizeof c[k][0], cmp_double);
        all[k] = (sample){t[k][runs / 2], c[k][runs / 2], peak[k]};
    }
    sample tar = all[0], *s = all + 1;
    printf("%-40s %10s %10s %9s\n", "operation (zstd level 3)", "ours", "baseline", "ratio");
    for (int k = 0; k < 3; k++) {
        char name[64];
        snprintf(name, sizeof name, "pack --jobs %d vs tar | zstd -T0", jobs[k]);
        printf("%-40s %8.3f s %8.3f s %8.2fx  (%.0f MB/s; baseline / ours, >= 1 is faster; cpu %.2f s vs %.2f s)\n", name,
               s[k].seconds, tar.seconds, tar.seconds / s[k].seconds, total_mb / s[k].seconds, s[k].cpu, tar.cpu);
    }
    printf("%-40s %8.3f s %8.3f s %8.2fx  (jobs 1 / jobs 2)\n", "scaling: pack --jobs 2 vs --jobs 1", s[1].seconds, s[0].seconds,
           s[0].seconds / s[1].seconds);
    printf("%-40s %8ld KiB  (%.0f MB tree, --jobs %d)\n", "peak RSS, full pack", s[2].peak_kib, total_mb, jobs[2]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    run_or_die(cmd);
}

/* ---- delta delivery: 1 MiB chunks of an output folder ---------------------------------------- */
#define CHUNK (1u << 20)
typedef struct chunk_set {
    uint64_t *hash;
    size_t count, cap;
    long long bytes, new_bytes; /* every chunk's bytes; those of chunks not in `known` */
    const struct chunk_set *known;
} chunk_set;
static chunk_set *g_chunks; /* nftw has no context argument */

static uint64_t fnv64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h ^ n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int add_file_chunks(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (type != FTW_F) return 0;
    static unsigned char buf[CHUNK];
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f) return 1;
    while ((n = fread(buf, 1, CHUNK, f)) > 0) {
        uint64_t h = fnv64(buf, n);
        chunk_set *c = g_chunks;
        if (c->count == c->cap) c->hash = realloc(c->hash, (c->cap = c->cap * 2 + 64) * sizeof *c->hash);
        c->hash[c->count++] = h;
        c->bytes += (long long)n;
        if (c->known && !bsearch(&h, c->known->hash, c->known->count, sizeof h, cmp_u64)) c->new_bytes += (long long)n;
    }
    fclose(f);
    return 0;
}

/* The chunks of every file under dir (sorted), and how many bytes of them `known` lacks. */
static chunk_set chunks_of(const char *dir, const chunk_set *known)
{
    chunk_set c = {NULL, 0, 0, 0, 0, known};
    g_chunks = &c;
    if (nftw(dir, add_file_chunks, 16, FTW_PHYS) != 0) exit(1);
    qsort(c.hash, c.count, sizeof *c.hash, cmp_u64);
    return c;
}

/* Part 2: a one-file edit in a large tree against a full pack. */
static void bench_incremental(const char *gen, const char *dir, int runs, long mb, long files)
{
    char root[600], cmd[2048], setup[1024];
    double total_mb;
    snprintf(root, sizeof root, "%s/big", dir);
    make_project(root, mb, files, &total_mb);
    snprintf(cmd, sizeof cmd, "cd %s && %s pack --quiet --no-progress > /dev/null", root, gen);
    run_or_die(cmd);
    snprintf(setup, sizeof setup, "rm -rf %s/out", root);
    snprintf(cmd, sizeof cmd, "cd %s && exec %s pack --quiet --no-progress", root, gen);
    int full_runs = runs > 3 ? 3 : runs;
    sample full = median(full_runs, setup, cmd);
    double t[64], c[64];
    long peak = 0;
    char out[700];
    snprintf(out, sizeof out, "%s/out", root);
    chunk_set before = chunks_of(out, NULL), after = {0};
    for (int i = 0; i < runs; i++) {
        long n = (i * 7919L + 11) % files, p;
        snprintf(setup, sizeof setup, "printf 'E%d' | dd of=%s/src/Zone%02ld/Set%ld/asset_%05ld.bin bs=1 seek=5 conv=notrunc 2>/dev/null", i,
                 root, n % 40, n % 7, n);
        run_or_die(setup);
        t[i] = timed(cmd, &p, &c[i]);
        if (p > peak) peak = p;
        if (i == 0) after = chunks_of(out, &before);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    qsort(c, (size_t)runs, sizeof *c, cmp_double);
    printf("%-40s %8.3f s %8.3f s %8.2fx  (incremental / full; goal <= 0.10x; cpu %.2f s vs %.2f s)\n", "one-file edit vs full pack",
           t[runs / 2], full.seconds, t[runs / 2] / full.seconds, c[runs / 2], full.cpu);
    printf("%-40s %8ld KiB (full pack)  %ld KiB (one-file edit; %.0f MB tree)\n", "peak RSS", full.peak_kib, peak, total_mb);
    printf("%-40s %8.2f MB of %.1f MB  (%.4f of the output: 1 MiB chunks of the new output found nowhere in the old)\n",
           "delta delivery, one-file edit", (double)after.new_bytes / 1e6, (double)after.bytes / 1e6,
           after.bytes ? (double)after.new_bytes / (double)after.bytes : 0.0);
    free(before.hash);
    free(after.hash);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    run_or_die(cmd);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_pack THREADLINK_GEN [RUNS] [SMALL_MB SMALL_FILES] [BIG_MB BIG_FILES]\n");
        return 2;
    }
    char *gen = realpath(argv[1], NULL);
    if (!gen) {
        fprintf(stderr, "bench_pack: %s: not found\n", argv[1]);
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1 || runs > 64) runs = 5;
    long small_mb = argc > 4 ? atol(argv[3]) : 108, small_files = argc > 4 ? atol(argv[4]) : 4000;
    long big_mb = argc > 6 ? atol(argv[5]) : 1000, big_files = argc > 6 ? atol(argv[6]) : 20000;
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/tl-bench-pack-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) return 1;
    /* pack's record of input hashes (what makes an edit cheap) in the benchmark's own folder,
     * deleted with it, not in ~/.cache */
    char cache[600];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    printf("cores: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
    bench_cores(gen, dir, runs, small_mb, small_files);
    bench_incremental(gen, dir, runs, big_mb, big_files);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(gen);
    return system(cmd) == 0 ? 0 : 1;
}
