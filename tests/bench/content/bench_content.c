/* Benchmark of threadlink-gen pack (issue 8): a 200 MB tree of 5,000 files packed uncompressed
 * against `cat`-ing the same files to /dev/null in the same run, the fast codec's throughput
 * (lz4; zstd shown too), a no-op re-pack (must write nothing), and the trie partitioner's archive
 * count against a sequential fill with the mean archive fill. Medians of 3 runs.
 *   bench_content THREADLINK_GEN [MB] [FILES] */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static double timed(const char *cmd)
{
    double t = now();
    if (system(cmd) != 0) {
        fprintf(stderr, "failed: %s\n", cmd);
        exit(1);
    }
    return now() - t;
}

static double median3(const char *setup, const char *cmd)
{
    double t[3];
    for (int i = 0; i < 3; i++) {
        if (setup && system(setup) != 0) exit(1);
        t[i] = timed(cmd);
    }
    qsort(t, 3, sizeof *t, cmp_double);
    return t[1];
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* Every regular file under dir: (path, size, mtime ns, inode) lines, for "nothing was written". */
static void snapshot(const char *dir, FILE *out)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) snapshot(path, out);
        else fprintf(out, "%s %lld %lld.%09ld %llu\n", path, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                     (unsigned long long)st.st_ino);
    }
    closedir(d);
}

static char *snapshot_text(const char *dir)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    snapshot(dir, f);
    fclose(f);
    return text;
}

/* Asset archives of an index and their mean input bytes. */
static void index_stats(const char *path, int *count, double *mean_input)
{
    FILE *f = fopen(path, "rb");
    if (!f) exit(1);
    char line[65536];
    long long sum = 0;
    *count = 0;
    while (fgets(line, sizeof line, f)) {
        char *r = strstr(line, "\"role\": \"assets\"");
        if (!r) continue;
        char *ib = strstr(line, "\"input_bytes\": ");
        sum += atoll(ib + 15);
        (*count)++;
    }
    fclose(f);
    *mean_input = *count ? (double)sum / *count : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_content THREADLINK_GEN [MB] [FILES]\n");
        return 2;
    }
    /* The tree is built in a temporary folder and the commands run there: the generator's path
     * made absolute first, so that a relative one (build/gen/threadlink-gen) still works. */
    char *gen = realpath(argv[1], NULL);
    if (!gen) {
        fprintf(stderr, "bench_content: %s: not found\n", argv[1]);
        return 2;
    }
    long mb = argc > 2 ? atol(argv[2]) : 200, files = argc > 3 ? atol(argv[3]) : 5000;
    char dir[] = "/tmp/tl-bench-content-XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0) return 1;

    /* The tree: sizes spread around the mean, one file in three incompressible (like PNG or
     * Ogg data), the rest text-like. */
    uint64_t s = 0x9e3779b97f4a7c15ull;
    long long total = 0, mean = mb * 1000000LL / files;
    char *data = malloc((size_t)mean * 2 + 16);
    for (long i = 0; i < files; i++) {
        size_t size = (size_t)(mean / 4 + (long long)(rng(&s) % (uint64_t)(mean * 3 / 2)));
        if (i % 3 == 0) {
            for (size_t b = 0; b < size; b++) data[b] = (char)rng(&s);
        } else {
            static const char words[][8] = {"sprite ", "level  ", "enemy  ", "42,17; ", "tile=3 ", "door   "};
            for (size_t b = 0; b < size; b++) data[b] = words[(b / 7 + (rng(&s) % 5 == 0)) % 6][b % 7];
        }
        char path[256];
        snprintf(path, sizeof path, "src/Zone%02ld/Set%ld", i % 40, i % 7);
        char cmd[300];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", path);
        struct stat st;
        if (stat(path, &st) != 0 && system(cmd) != 0) return 1;
        snprintf(path + strlen(path), sizeof path - strlen(path), "/asset_%05ld.bin", i);
        FILE *f = fopen(path, "wb");
        fwrite(data, 1, size, f);
        fclose(f);
        total += (long long)size;
    }
    free(data);
    FILE *cfg = fopen("threadlink.json", "w");
    fprintf(cfg, "{ \"content\": [\n"
                 "  { \"profile\": \"Raw\", \"source_root\": \"src\", \"output\": \"out/raw\", \"compression\": \"none\" },\n"
                 "  { \"profile\": \"Lz4\", \"source_root\": \"src\", \"output\": \"out/lz4\", \"compression\": \"lz4\" },\n"
                 "  { \"profile\": \"Zstd\", \"source_root\": \"src\", \"output\": \"out/zstd\", \"compression\": \"zstd\" },\n"
                 "  { \"profile\": \"Seq\", \"source_root\": \"src\", \"output\": \"out/seq\", \"compression\": \"none\", \"partitioner\": \"sequential\" } ] }\n");
    fclose(cfg);
    double total_mb = (double)total / 1e6;
    printf("tree: %ld files, %.1f MB (%s)\n", files, total_mb, dir);
    /* Warm the page cache and the manifests (the first pack issues every id). */
    if (system("cat src/*/*/* > /dev/null") != 0) return 1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile all > /dev/null", gen);
    if (system(cmd) != 0) return 1;

    double cat_t = median3(NULL, "find src -type f -print0 | xargs -0 cat > /dev/null");
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile Raw", gen);
    double raw_t = median3("rm -rf out/raw", cmd);
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile Lz4", gen);
    double lz4_t = median3("rm -rf out/lz4", cmd);
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile Zstd", gen);
    double zstd_t = median3("rm -rf out/zstd", cmd);

    printf("%-34s %10s %10s %10s\n", "operation", "ours", "baseline", "ratio");
    printf("%-34s %8.1f MB/s %6.1f MB/s %9.2fx  (target >= 0.50x of cat)\n", "pack uncompressed vs cat", total_mb / raw_t,
           total_mb / cat_t, cat_t / raw_t);
    printf("%-34s %8.1f MB/s %6.1f MB/s %9.2fx  (target >= 200 MB/s)\n", "pack lz4 (fast codec) vs cat", total_mb / lz4_t,
           total_mb / cat_t, cat_t / lz4_t);
    printf("%-34s %8.1f MB/s %6.1f MB/s %9.2fx\n", "pack zstd (default codec) vs cat", total_mb / zstd_t, total_mb / cat_t,
           cat_t / zstd_t);

    /* No-op re-pack: the same command again writes nothing. */
    char *before = snapshot_text("out/raw");
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile Raw", gen);
    double noop_t = median3(NULL, cmd);
    char *after = snapshot_text("out/raw");
    int same = strcmp(before, after) == 0;
    printf("%-34s %8.3f s   %6.3f s   %9.2fx  (files rewritten: %s)\n", "no-op re-pack vs first pack", noop_t, raw_t, raw_t / noop_t,
           same ? "none" : "SOME");
    free(before);
    free(after);

    int trie_n, seq_n;
    double trie_mean, seq_mean;
    if (system("rm -rf out/seq") != 0) return 1;
    snprintf(cmd, sizeof cmd, "%s pack --quiet --no-progress --profile Seq", gen);
    timed(cmd);
    index_stats("out/raw/archives.json", &trie_n, &trie_mean);
    index_stats("out/seq/archives.json", &seq_n, &seq_mean);
    double limit = 20.0 * 1048576.0;
    printf("%-34s %8d     %6d     %9.2fx  (asset archives, trie vs sequential fill)\n", "archive count", trie_n, seq_n,
           (double)trie_n / seq_n);
    printf("%-34s %8.2f     %6.2f     (mean input bytes / 20 MiB limit)\n", "mean archive fill", trie_mean / limit, seq_mean / limit);

    if (chdir("/") != 0) return 1;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(gen);
    return system(cmd) == 0 && same ? 0 : 1;
}
