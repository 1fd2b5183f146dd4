/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* Benchmark of threadlink/l10n.h against gettext (issue 46): the same 1,000 French texts (600
 * plain, 250 with an integer, 100 with a string and an integer in the other order, 50 plurals)
 * looked up and formatted by the generated functions over the tables threadlink-gen built, and
 * by glibc's dgettext/dngettext + snprintf over the .mo msgfmt compiled from the same strings
 * (make_bench.py writes both, and the call sites). A plain text is looked up only (a game draws it
 * from the pointer); a text with arguments is written into a buffer. Before timing, every key's
 * output of both sides is compared: they must be the same bytes (so gettext did translate).
 * ns per key, medians of interleaved passes and of the per-pass ratios; then the tables' sizes
 * against the .mo's. Never a pass/fail test on time.
 *   bench_l10n [passes]       default 15 passes */
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TL_IMPLEMENTATION
#include <threadlink/l10n.h>

#include "text.h"

#define KEYS 1000
#define ROUNDS 200
#define MAX_PASSES 64

static unsigned long sink_acc;
static int recording; /* the check: each sink stores its text at record[recorded++] */
static char record[KEYS][128];
static int recorded;

static void sink(const char *s) {
    if (recording) {
        if (recorded < KEYS) snprintf(record[recorded], sizeof record[0], "%s", s);
        recorded++;
    }
    sink_acc += (unsigned char)s[0];
}

#include "bench_calls.h"

/* Every key, in order, on each side. */
static void run_threadlink(const tl_l10n *l10n, char *buf, size_t size, int64_t v, const char *name) {
#define TL__BENCH_RUN_OURS(kind, count, what) threadlink_##kind(l10n, buf, size, v, name);
    BENCH_KINDS(TL__BENCH_RUN_OURS)
}
static void run_gettext(char *buf, size_t size, int v, const char *name) {
#define TL__BENCH_RUN_THEIRS(kind, count, what) gettext_##kind(buf, size, v, name);
    BENCH_KINDS(TL__BENCH_RUN_THEIRS)
}
typedef void (*ours_fn)(const tl_l10n *, char *, size_t, int64_t, const char *);
typedef void (*theirs_fn)(char *, size_t, int, const char *);

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return v[n / 2];
}

static void *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    void *bytes;
    long length;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "bench_l10n: cannot read %s\n", path);
        exit(1);
    }
    bytes = malloc((size_t)length);
    if (!bytes || fread(bytes, 1, (size_t)length, f) != (size_t)length) exit(1);
    fclose(f);
    *size = (size_t)length;
    return bytes;
}

static tl_l10n *open_tables(void **en, void **fr, size_t *en_size, size_t *fr_size) {
    tl_l10n_desc desc = {0};
    tl_l10n *l10n;
    desc.keys = text_keys_l10n();
    l10n = tl_l10n_create(&desc);
    *en = read_file(TABLES_DIR "/en.tltext", en_size);
    *fr = read_file(TABLES_DIR "/fr.tltext", fr_size);
    if (!l10n || tl_l10n_add_table(l10n, *en, *en_size) != TL_L10N_OK ||
        tl_l10n_add_table(l10n, *fr, *fr_size) != TL_L10N_OK || tl_l10n_set_locale(l10n, "fr") != TL_L10N_OK) {
        fprintf(stderr, "bench_l10n: the tables were refused\n");
        exit(1);
    }
    return l10n;
}

static void open_gettext(void) {
    /* glibc ignores LANGUAGE in the C locale; C.UTF-8 is not "C" for it and is always there. */
    setenv("LANGUAGE", "fr", 1);
    if (!setlocale(LC_ALL, "C.UTF-8")) {
        fprintf(stderr, "bench_l10n: no C.UTF-8 locale\n");
        exit(1);
    }
    bindtextdomain("bench", GETTEXT_DIR);
    bind_textdomain_codeset("bench", "UTF-8");
}

/* Every key's output of both sides, compared: the count of keys that differ (0 expected). */
static int compare_outputs(const tl_l10n *l10n, char *buf, size_t size) {
    static char ours[KEYS][128];
    int i, differ = 0;
    recording = 1;
    recorded = 0;
    run_threadlink(l10n, buf, size, 7, "Ann");
    memcpy(ours, record, sizeof ours);
    recorded = 0;
    run_gettext(buf, size, 7, "Ann");
    recording = 0;
    for (i = 0; i < KEYS; i++) {
        if (strcmp(ours[i], record[i]) == 0) continue;
        if (differ++ < 3) printf("differ at key %d: \"%s\" (threadlink) \"%s\" (gettext)\n", i, ours[i], record[i]);
    }
    printf("outputs compared: %d keys, %d differ; key 950 gives \"%s\"\n", KEYS, differ, ours[950]);
    return differ;
}

static double time_threadlink(ours_fn run, int keys, const tl_l10n *l10n, char *buf, size_t size, int64_t v) {
    double t0 = now_ns();
    int r;
    for (r = 0; r < ROUNDS; r++) run(l10n, buf, size, v + r, "Ann");
    return (now_ns() - t0) / ((double)ROUNDS * keys);
}

static double time_gettext(theirs_fn run, int keys, char *buf, size_t size, int v) {
    double t0 = now_ns();
    int r;
    for (r = 0; r < ROUNDS; r++) run(buf, size, v + r, "Ann");
    return (now_ns() - t0) / ((double)ROUNDS * keys);
}

/* One row: interleaved passes, the first-timed side alternating; medians of each side and of the
   per-pass ratios (so that a drifting load does not skew the ratio). */
static void measure(const char *what, ours_fn ours_run, theirs_fn theirs_run, int keys, const tl_l10n *l10n,
                    int passes) {
    double ours[MAX_PASSES], theirs[MAX_PASSES], ratio[MAX_PASSES];
    char buf[128];
    int p;
    time_threadlink(ours_run, keys, l10n, buf, sizeof buf, 3); /* warm both (gettext caches found texts) */
    time_gettext(theirs_run, keys, buf, sizeof buf, 3);
    for (p = 0; p < passes; p++) {
        if (p % 2 == 0) {
            ours[p] = time_threadlink(ours_run, keys, l10n, buf, sizeof buf, p);
            theirs[p] = time_gettext(theirs_run, keys, buf, sizeof buf, p);
        } else {
            theirs[p] = time_gettext(theirs_run, keys, buf, sizeof buf, p);
            ours[p] = time_threadlink(ours_run, keys, l10n, buf, sizeof buf, p);
        }
        ratio[p] = ours[p] / theirs[p];
    }
    printf("%4d %-44s %10.1f %10.1f %7.3fx\n", keys, what, median(ours, passes), median(theirs, passes),
           median(ratio, passes));
}

static void measure_all(const tl_l10n *l10n, int passes) {
    printf("keys %-44s %10s %10s %8s\n", "ns per key, French", "threadlink", "gettext", "ratio");
    measure("all (the issue's figure)", run_threadlink, run_gettext, KEYS, l10n, passes);
#define TL__BENCH_ROW(kind, count, what) measure(what, threadlink_##kind, gettext_##kind, count, l10n, passes);
    BENCH_KINDS(TL__BENCH_ROW)
}

static long file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (f) fclose(f);
    return n;
}

static void sizes(size_t en_size, size_t fr_size) {
    long mo = file_size(GETTEXT_DIR "/fr/LC_MESSAGES/bench.mo");
    printf("     %-44s %10s %10s %8s\n", "bytes", "threadlink", "gettext", "ratio");
    printf("     %-44s %10zu %10ld %7.3fx\n", "French table (fr.tltext) vs fr .mo", fr_size, mo, (double)fr_size / (double)mo);
    printf("     %-44s %10zu %10ld %7.3fx\n", "French + English tables vs fr .mo", fr_size + en_size, mo,
           (double)(fr_size + en_size) / (double)mo);
}

int main(int argc, char **argv) {
    int passes = argc > 1 ? atoi(argv[1]) : 15;
    void *en, *fr;
    size_t en_size, fr_size;
    char buf[128];
    tl_l10n *l10n;
    if (passes < 1) passes = 1;
    if (passes > MAX_PASSES) passes = MAX_PASSES;
    l10n = open_tables(&en, &fr, &en_size, &fr_size);
    open_gettext();
    printf("threadlink l10n benchmark: %d passes of %d rounds\n", passes, ROUNDS);
    if (compare_outputs(l10n, buf, sizeof buf) != 0) return 1;
    measure_all(l10n, passes);
    sizes(en_size, fr_size);
    tl_l10n_destroy(l10n);
    free(en);
    free(fr);
    return sink_acc == 0; /* keeps the sinks */
}
