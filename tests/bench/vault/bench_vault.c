/* Vault benchmark: typed getter vs direct struct access, generic get and set by id (generated
 * switch, descriptor, baseline), serialise and deserialise (the 23-field golden vault of
 * tests/vault/project, collections included, and a 32-field vault built on it for the issue's
 * target), and generation of 1,000 schemas with 10,000 data files. Prints medians of 9 runs and
 * ratios; the descriptor access and serialisation are also measured against vault_baseline.h (the
 * code before the issue 7 performance work) in the same run; the set path with no listener against
 * the one-listener code it replaced, as per-round ratios of interleaved rounds (RESULTS.md).
 * Generation runs on tmpfs (/dev/shm) and on the disk (/tmp), each beside the file system's floor (the same files created without
 * the generator), with the re-run over present outputs and the no-op run; wall, user and system
 * time of the child process.
 *   bench_vault [THREADLINK_GEN]   (without it: no generation) */
#define TL_IMPLEMENTATION
#include "vaults/things_data.h"
#include "vault_baseline.h"
#include "vault_set_baseline.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define RUNS 9
#define N 1024
static _Alignas(64) every_vault vaults[N]; /* on a cache line, as the arrays compared with it */
static volatile int64_t sink;

/* A 32-field vault for the target: every_vault's 23 fields and nine more scalars,
 * described by hand the way a tool would (ids spread like the Vault.Fields hashes). */
typedef struct wide_vault {
    every_vault base; /* the 23 fields at their offsets; its listener is the vault's */
    int32_t Armor, Level, Gold;
    float Reach, Weight;
    tl_fp Crit, Dodge;
    tl_vault_vector3 Spawn;
    int64_t Seed;
} wide_vault;
#define WIDE_FIELDS 32
static tl_vault_field_desc wide_fields[WIDE_FIELDS];
static uint16_t wide_order[WIDE_FIELDS];
static tl_vault_desc wide_desc;
static wide_vault wide_defaults, wide_source, wides[N];

static void wide_setup(void)
{
    static const struct { uint32_t tag, offset, size; } extra[9] = {
        {TL_VAULT_INTEGER, offsetof(wide_vault, Armor), 4}, {TL_VAULT_INTEGER, offsetof(wide_vault, Level), 4},
        {TL_VAULT_INTEGER, offsetof(wide_vault, Gold), 4}, {TL_VAULT_FLOAT, offsetof(wide_vault, Reach), 4},
        {TL_VAULT_FLOAT, offsetof(wide_vault, Weight), 4}, {TL_VAULT_FP, offsetof(wide_vault, Crit), 8},
        {TL_VAULT_FP, offsetof(wide_vault, Dodge), 8}, {TL_VAULT_VECTOR3D, offsetof(wide_vault, Spawn), 12},
        {TL_VAULT_LONG, offsetof(wide_vault, Seed), 8}};
    memcpy(wide_fields, every_vault_fields, sizeof every_vault_fields);
    for (int i = 0; i < 9; i++) {
        tl_vault_field_desc *f = &wide_fields[EVERY_VAULT_FIELD_COUNT + i];
        f->id = (uint32_t)(i + 1) * 2654435761u + 977u; /* Knuth's multiplicative spread */
        f->tag = extra[i].tag;
        f->offset = extra[i].offset;
        f->size = extra[i].size;
        f->capacity = 0;
        f->backing = TL_VAULT_SERIALISED;
        f->name = "extra";
    }
    for (int i = 0; i < WIDE_FIELDS; i++) { /* insertion sort of the indexes by id */
        int j = i;
        while (j > 0 && wide_fields[wide_order[j - 1]].id > wide_fields[i].id) {
            wide_order[j] = wide_order[j - 1];
            j--;
        }
        wide_order[j] = (uint16_t)i;
    }
    for (int i = 1; i < WIDE_FIELDS; i++)
        if (wide_fields[wide_order[i - 1]].id == wide_fields[wide_order[i]].id) abort();
    wide_desc.name = "Wide";
    wide_desc.id = 0x57494445u;
    wide_desc.size = (uint32_t)sizeof(wide_vault);
    wide_desc.field_count = WIDE_FIELDS;
    wide_desc.fields = wide_fields;
    wide_desc.order = wide_order;
    wide_desc.listener_offset = (uint32_t)offsetof(wide_vault, base.tl_listener);
    wide_desc.defaults = &wide_defaults;
    every_vault_init(&wide_defaults.base);
    wide_source = wide_defaults;
    wide_source.base = things_instances[0];
    wide_source.Armor = 12;
    wide_source.Level = 3;
    wide_source.Gold = 1000;
    wide_source.Reach = 2.5f;
    wide_source.Weight = 80.0f;
    wide_source.Crit = tl_fp_from_int(2);
    wide_source.Dodge = tl_fp_from_int(-1);
    wide_source.Spawn.x = 4.0f;
    wide_source.Seed = 1234567;
    for (int i = 0; i < N; i++) wides[i] = wide_defaults;
}

/* ---- Generation: 1,000 schemas of 10 fields and 10,000 data files of 2 instances (11,000 vault
 * headers), timed as a child process (wall, user and system time from wait4). The file system's
 * floor is measured in the same run: creating the same number of files, of the same sizes, in the
 * same directory layout, in a fresh directory (plain open + write + close, no generator). ---- */

typedef struct run_time { double wall, user, sys; } run_time;

static double tv_seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6; }

/* Runs argv; false if it cannot be started or fails. */
static bool run_timed(char *const *args, run_time *t)
{
    pid_t pid;
    double t0 = now();
    if (posix_spawn(&pid, args[0], NULL, NULL, args, environ) != 0) return false;
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return false;
    t->wall = now() - t0;
    t->user = tv_seconds(ru.ru_utime);
    t->sys = tv_seconds(ru.ru_stime);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool remove_tree(const char *path)
{
    char *args[] = {"/bin/rm", "-rf", (char *)path, NULL};
    run_time t;
    return run_timed(args, &t);
}

/* The generated tree, as a list of directories and files with their sizes (relative paths). */
typedef struct tree_entry { char path[512]; long size; } tree_entry; /* size < 0: a directory */
typedef struct tree { tree_entry *items; size_t count, cap; } tree;

static void tree_walk(tree *t, const char *base, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s%s", base, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char child[512], full[600];
        snprintf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", base, child);
        struct stat st;
        if (lstat(full, &st) != 0) continue;
        if (t->count == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 1024;
            t->items = realloc(t->items, t->cap * sizeof *t->items);
            if (!t->items) abort();
        }
        tree_entry *te = &t->items[t->count++];
        snprintf(te->path, sizeof te->path, "%s", child);
        te->size = S_ISDIR(st.st_mode) ? -1 : (long)st.st_size;
        if (S_ISDIR(st.st_mode)) tree_walk(t, base, child);
    }
    closedir(d);
}

/* The floor: the same directories and files (same sizes) created under a fresh `dest`. */
static bool make_tree(const tree *t, const char *dest, run_time *rt)
{
    static char block[1 << 16];
    char path[1024];
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    double t0 = now();
    if (mkdir(dest, 0755) != 0) return false;
    for (size_t i = 0; i < t->count; i++) {
        snprintf(path, sizeof path, "%s/%s", dest, t->items[i].path);
        if (t->items[i].size < 0) {
            if (mkdir(path, 0755) != 0) return false;
            continue;
        }
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) return false;
        for (long left = t->items[i].size; left > 0;) {
            ssize_t n = write(fd, block, left < (long)sizeof block ? (size_t)left : sizeof block);
            if (n <= 0) return false;
            left -= n;
        }
        close(fd);
    }
    rt->wall = now() - t0;
    getrusage(RUSAGE_SELF, &r1);
    rt->user = tv_seconds(r1.ru_utime) - tv_seconds(r0.ru_utime);
    rt->sys = tv_seconds(r1.ru_stime) - tv_seconds(r0.ru_stime);
    return true;
}

static int cmp_run(const void *a, const void *b)
{
    double x = ((const run_time *)a)->wall, y = ((const run_time *)b)->wall;
    return x < y ? -1 : x > y;
}

#define GEN_RUNS 3

static bool write_project(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/injectors", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/vaults", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/vaultdata", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/threadlink.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fputs("{ \"domains\": [ { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } ],\n"
          "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" } }\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/injectors/Vault.Fields.User.txt", dir);
    f = fopen(path, "w");
    if (!f) return false;
    for (int i = 0; i < 100; i++) fprintf(f, "Field%d\n", i);
    fclose(f);
    static const char *const types[5] = {"\"Integer\", \"default\": 3", "\"FP\", \"default\": \"1.25\"", "\"Float\"",
                                         "\"String\", \"capacity\": 15", "\"InlineList\", \"element\": \"Integer\", \"capacity\": 4"};
    for (int s = 0; s < 1000; s++) {
        snprintf(path, sizeof path, "%s/vaults/V%d.vault.json", dir, s);
        f = fopen(path, "w");
        if (!f) return false;
        fprintf(f, "{ \"name\": \"V%d\", \"fields\": [\n", s);
        for (int k = 0; k < 10; k++)
            fprintf(f, "  { \"field\": \"Field%d\", \"type\": %s }%s\n", (s + k * 7) % 100, types[k % 5], k < 9 ? "," : "");
        fputs("] }\n", f);
        fclose(f);
    }
    static const char *const values[5] = {"7", "\"-2.5\"", "0.5", "\"name\"", "[1, 2, 3]"};
    for (int d = 0; d < 10000; d++) {
        int s = d % 1000;
        snprintf(path, sizeof path, "%s/vaultdata/d%d.vaultdata.json", dir, d);
        f = fopen(path, "w");
        if (!f) return false;
        fprintf(f, "{ \"vault\": \"V%d\", \"instances\": [\n", s);
        for (int i = 0; i < 2; i++) {
            fprintf(f, "  { \"name\": \"I%d\", \"values\": {", i);
            for (int k = 0; k < 10; k += 2)
                fprintf(f, "%s \"Field%d\": %s", k ? "," : "", (s + k * 7) % 100, values[k % 5]);
            fprintf(f, " } }%s\n", i ? "" : ",");
        }
        fputs("] }\n", f);
        fclose(f);
    }
    return true;
}

static void print_run(const char *what, const run_time *r)
{
    printf("  %-44s %6.3f s  (user %6.3f s, sys %6.3f s)\n", what, r->wall, r->user, r->sys);
}

/* Fresh generation (no generated directory; its removal untimed) against the floor, then a re-run
 * over present outputs with the stamp removed (every output emitted and compared, none written),
 * then the no-op run (stamp up to date). Medians of GEN_RUNS by wall time. */
static bool generation_bench(const char *gen, const char *root)
{
    char dir[256], generated[300], stamp[340], floor_dir[300];
    snprintf(dir, sizeof dir, "%s/tl-vault-bench-XXXXXX", root);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_vault: cannot create a directory under %s: %s\n", root, strerror(errno));
        return false;
    }
    snprintf(generated, sizeof generated, "%s/generated", dir);
    snprintf(stamp, sizeof stamp, "%s/.threadlink-gen.stamp", generated);
    snprintf(floor_dir, sizeof floor_dir, "%s/floor", dir);
    bool ok = write_project(dir);
    char *args[] = {(char *)gen, "generate", "--quiet", "-C", dir, NULL};
    run_time fresh[GEN_RUNS], floor_run[GEN_RUNS], rerun[GEN_RUNS], noop[GEN_RUNS];
    tree t = {0};
    for (int r = 0; ok && r < GEN_RUNS; r++) {
        ok = remove_tree(generated) && run_timed(args, &fresh[r]);
        if (ok && r == 0) tree_walk(&t, generated, "");
        ok = ok && remove_tree(floor_dir) && make_tree(&t, floor_dir, &floor_run[r]);
    }
    for (int r = 0; ok && r < GEN_RUNS; r++) ok = unlink(stamp) == 0 && run_timed(args, &rerun[r]);
    for (int r = 0; ok && r < GEN_RUNS; r++) ok = run_timed(args, &noop[r]);
    if (!ok) {
        fprintf(stderr, "bench_vault: the generation benchmark failed under %s\n", dir);
    } else {
        size_t files = 0;
        long bytes = 0;
        for (size_t i = 0; i < t.count; i++)
            if (t.items[i].size >= 0) files++, bytes += t.items[i].size;
        qsort(fresh, GEN_RUNS, sizeof *fresh, cmp_run);
        qsort(floor_run, GEN_RUNS, sizeof *floor_run, cmp_run);
        qsort(rerun, GEN_RUNS, sizeof *rerun, cmp_run);
        qsort(noop, GEN_RUNS, sizeof *noop, cmp_run);
        printf("generate 1,000 schemas + 10,000 data files on %s (%zu files, %.1f MB written), medians of %d:\n", root, files,
               (double)bytes / 1e6, GEN_RUNS);
        const run_time *g = &fresh[GEN_RUNS / 2], *fl = &floor_run[GEN_RUNS / 2];
        print_run("fresh (no outputs)", g);
        print_run("floor: create the same files, no generator", fl);
        printf("  %-44s %6.3f s  ratio %.2f  (target: fresh < 2 s)\n", "generator beyond the floor", g->wall - fl->wall,
               g->wall / fl->wall);
        print_run("re-run, outputs present, stamp removed", &rerun[GEN_RUNS / 2]);
        print_run("no-op run (stamp up to date)", &noop[GEN_RUNS / 2]);
    }
    free(t.items);
    return remove_tree(dir) && ok;
}

/* ---- The set path with no listener: the generated typed setters (Health, Damage, Cell in turn)
 * and the generated try_set switch, each storing the other of two values every pass (so every
 * set changes the field and checks for listeners), over every_vault (a listener-set pointer) and
 * over today's code before it (vault_set_baseline.h: a {fn, user} listener, 8 bytes more).
 *
 * The struct sizes differ (568 and 576 bytes), and over many vaults the stride alone moves the
 * figure: 576 is nine cache lines, so every vault's Health, Cell and Damage sit at the same place
 * in its lines; at 568 they drift, some vaults spread those three fields over three lines
 * instead of two and Cell (8 bytes, 4-aligned) straddles two lines in two vaults of eight. So
 * ours runs twice: in its real array, and padded to the old stride (same code, same addresses
 * as the old code's array): the second ratio is the code's, the first the code's and the
 * layout's. All arrays start on a cache line. See RESULTS.md. ---- */
typedef struct padded_vault {
    every_vault v;
    unsigned char pad[sizeof(tlb_every_vault) - sizeof(every_vault)];
} padded_vault;
static _Alignas(64) tlb_every_vault today[N];
static _Alignas(64) padded_vault padded[N];
#define SET_HOT 32 /* vaults that stay in L1: the code's cost, not the memory's */

static const int32_t set_h[2] = {1, 2};
static const tl_fp set_d[2] = {{1}, {2}};
static const tl_vault_int2 set_c[2] = {{1, 1}, {2, 2}};

static double per_set(double t0, double t1, double sets) { return (t1 - t0) / sets * 1e9; }

/* One timed pass of the typed setters or of the switch over vaults 0..n-1 of an array; `at(i)`
 * names vault i, PREFIX is the vault type's function prefix. */
#define SET_TYPED_LOOP(name, at, PREFIX)                                      \
    static double name(int n, int reps)                                       \
    {                                                                         \
        double t0 = now();                                                    \
        for (int k = 0; k < reps; k++)                                        \
            for (int i = 0; i < n; i++) {                                     \
                PREFIX##_set_Health(at(i), set_h[k & 1]);                     \
                PREFIX##_set_Damage(at(i), set_d[k & 1]);                     \
                PREFIX##_set_Cell(at(i), set_c[k & 1]);                       \
            }                                                                 \
        return per_set(t0, now(), (double)reps * n * 3);                      \
    }
#define SET_SWITCH_LOOP(name, at, PREFIX, IDS)                                              \
    static double name(int n, int reps)                                                     \
    {                                                                                       \
        double t0 = now();                                                                  \
        for (int k = 0; k < reps; k++)                                                      \
            for (int i = 0; i < n; i++) {                                                   \
                PREFIX##_try_set(at(i), IDS##_ID_Health, TL_VAULT_INTEGER, &set_h[k & 1]);  \
                PREFIX##_try_set(at(i), IDS##_ID_Damage, TL_VAULT_FP, &set_d[k & 1]);       \
            }                                                                               \
        return per_set(t0, now(), (double)reps * n * 2);                                    \
    }
#define AT_OURS(i) (&vaults[i])
#define AT_PADDED(i) (&padded[i].v)
#define AT_TODAY(i) (&today[i])
SET_TYPED_LOOP(typed_ours, AT_OURS, every_vault)
SET_TYPED_LOOP(typed_padded, AT_PADDED, every_vault)
SET_TYPED_LOOP(typed_today, AT_TODAY, tlb_every_vault)
SET_SWITCH_LOOP(switch_ours, AT_OURS, every_vault, EVERY_VAULT)
SET_SWITCH_LOOP(switch_padded, AT_PADDED, every_vault, EVERY_VAULT)
SET_SWITCH_LOOP(switch_today, AT_TODAY, tlb_every_vault, TLB_EVERY_VAULT)

typedef double (*set_loop)(int n, int reps);
/* The pairs compared, ours against the old code: typed real, typed padded, switch real, switch padded. */
#define SET_PAIRS 4
static const set_loop set_ours[SET_PAIRS] = {typed_ours, typed_padded, switch_ours, switch_padded};
static const set_loop set_old[SET_PAIRS] = {typed_today, typed_today, switch_today, switch_today};
#define SET_ROUNDS 63
#define SET_SETS_PER_ROUND 200000 /* about 0.2 ms: a round is rarely cut by another process */

/* One run's figure per pair: the median over SET_ROUNDS rounds of ours / old, the two measured
 * back to back in each round, which one goes first alternating; and each one's fastest round in
 * ns. A slow moment of a shared machine spoils a round's pair, not one side of the comparison. */
typedef struct set_figures { double ratio[SET_PAIRS], ours[SET_PAIRS], old[SET_PAIRS]; } set_figures;

static void bench_set_path(set_figures *f, int n)
{
    double ratios[SET_ROUNDS];
    const int reps = SET_SETS_PER_ROUND / (n * 3) > 0 ? SET_SETS_PER_ROUND / (n * 3) : 1;
    for (int p = 0; p < SET_PAIRS; p++) {
        f->ours[p] = f->old[p] = 1e30;
        for (int k = 0; k < SET_ROUNDS; k++) {
            double a, b;
            if (k & 1) b = set_old[p](n, reps), a = set_ours[p](n, reps);
            else a = set_ours[p](n, reps), b = set_old[p](n, reps);
            ratios[k] = a / b;
            f->ours[p] = a < f->ours[p] ? a : f->ours[p];
            f->old[p] = b < f->old[p] ? b : f->old[p];
        }
        qsort(ratios, SET_ROUNDS, sizeof *ratios, cmp);
        f->ratio[p] = ratios[SET_ROUNDS / 2];
    }
}

static double median(double *t)
{
    qsort(t, RUNS, sizeof *t, cmp);
    return t[RUNS / 2];
}

/* Every run's figure of every measurement, in ns per operation; the report prints medians. */
typedef struct samples {
    double direct[RUNS], getter[RUNS], generic[RUNS], desc[RUNS], bdesc[RUNS], typed[RUNS], btyped[RUNS];
    double gset[RUNS], dset[RUNS], bset[RUNS];
    set_figures set_all[RUNS], set_hot[RUNS]; /* over N vaults and over SET_HOT */
    double ser[RUNS], de[RUNS], bser[RUNS], bde[RUNS], wser[RUNS], wde[RUNS], bwser[RUNS], bwde[RUNS];
    size_t wide_bytes;
} samples;

static double per_op(double t0, double t1, double ops) { return (t1 - t0) / ops * 1e9; }

/* Generic access by id: a different field each time (Health, Cell, Loot, Damage), so the switch
 * is exercised. Loot has no scalar tag: its collection tag comes from the descriptor. */
static const uint32_t mix_ids[4] = {EVERY_VAULT_ID_Health, EVERY_VAULT_ID_Cell, EVERY_VAULT_ID_Loot, EVERY_VAULT_ID_Damage};
static uint32_t mix_tag(int i)
{
    static const uint32_t tags[4] = {TL_VAULT_INTEGER, TL_VAULT_INTEGER2D, 0, TL_VAULT_FP};
    return tags[i & 3] ? tags[i & 3] : every_vault_fields[22].tag;
}

static void reset_vaults(void)
{
    for (int i = 0; i < N; i++) {
        every_vault_init(&vaults[i]);
        vaults[i].Health = i;
    }
}

/* Reads: direct, getter, the generated switch, the descriptor, the typed wrappers; and the baseline's. */
static void bench_gets(samples *sm, int r, int reps)
{
    const double ops = (double)reps * N;
    int64_t s = 0;
    int64_t out[32]; /* the largest field, Loot, is 104 bytes */
    double t0 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) s += vaults[i].Health;
    double t1 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) s += every_vault_get_Health(&vaults[i]);
    double t2 = now();
    sink = s;
    sm->direct[r] = per_op(t0, t1, ops);
    sm->getter[r] = per_op(t1, t2, ops);
    t0 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) {
            s += every_vault_try_get(&vaults[i], mix_ids[i & 3], mix_tag(i), out);
            s += out[0];
        }
    t1 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) {
            s += tl_vault_try_get(&every_vault_desc, &vaults[i], mix_ids[i & 3], mix_tag(i), out);
            s += out[0];
        }
    t2 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) {
            s += tlb_vault_try_get(&every_vault_desc, &vaults[i], mix_ids[i & 3], mix_tag(i), out);
            s += out[0];
        }
    double t3 = now();
    /* The typed wrappers (Health and Damage alternately) against the baseline's generic get. */
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) {
            int32_t h = 0;
            tl_fp f = {0};
            if (i & 1) s += tl_vault_try_get_integer(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Health, &h);
            else s += tl_vault_try_get_fp(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Damage, &f);
            s += h + f.raw;
        }
    double t4 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) {
            int32_t h = 0;
            tl_fp f = {0};
            if (i & 1) s += tlb_vault_try_get(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &h);
            else s += tlb_vault_try_get(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Damage, TL_VAULT_FP, &f);
            s += h + f.raw;
        }
    double t5 = now();
    sink = s;
    sm->generic[r] = per_op(t0, t1, ops);
    sm->desc[r] = per_op(t1, t2, ops);
    sm->bdesc[r] = per_op(t2, t3, ops);
    sm->typed[r] = per_op(t3, t4, ops);
    sm->btyped[r] = per_op(t4, t5, ops);
}

/* Generic set by id, the same mix: each pass stores the other of two values (so every set
 * changes the field and checks the listener), through the generated switch, the descriptor and
 * the baseline; then the set path without listeners, over all vaults and over a hot few. */
static void bench_sets(samples *sm, int r, int reps, const void *const values[2][4])
{
    const double ops = (double)reps * N;
    int64_t s = 0;
    double u0 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++) s += every_vault_try_set(&vaults[i], mix_ids[i & 3], mix_tag(i), values[k & 1][i & 3]);
    double u1 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++)
            s += tl_vault_try_set(&every_vault_desc, &vaults[i], mix_ids[i & 3], mix_tag(i), values[k & 1][i & 3]);
    double u2 = now();
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < N; i++)
            s += tlb_vault_try_set(&every_vault_desc, &vaults[i], mix_ids[i & 3], mix_tag(i), values[k & 1][i & 3]);
    double u3 = now();
    sink = s;
    sm->gset[r] = per_op(u0, u1, ops);
    sm->dset[r] = per_op(u1, u2, ops);
    sm->bset[r] = per_op(u2, u3, ops);
    bench_set_path(&sm->set_all[r], N);
    bench_set_path(&sm->set_hot[r], SET_HOT);
    reset_vaults(); /* back to the state the serialisation runs expect */
}

/* sreps writes of `src` and reads into `dst` (dst_count of them), ours then the baseline's; the
 * two writers must give the same bytes. Figures in ser/de/bser/bde[r]; *bytes_out the size. */
static bool bench_serialise(const tl_vault_desc *desc, const void *const src[2], void *dst, size_t dst_size,
                            double *ser, double *de, double *bser, double *bde, size_t *bytes_out)
{
    const int sreps = 200000;
    unsigned char bytes[1024], bbytes[1024];
    size_t n = 0, bn = 0;
    int64_t s = 0;
    double t0 = now();
    for (int k = 0; k < sreps; k++) {
        tl_vault_write(desc, src[k & 1], bytes, sizeof bytes, &n);
        s += bytes[n - 1];
    }
    double t1 = now();
    for (int k = 0; k < sreps; k++) s += tl_vault_read(desc, (unsigned char *)dst + (size_t)(k & (N - 1)) * dst_size, bytes, n);
    double t2 = now();
    for (int k = 0; k < sreps; k++) {
        tlb_vault_write(desc, src[k & 1], bbytes, sizeof bbytes, &bn);
        s += bbytes[bn - 1];
    }
    double t3 = now();
    for (int k = 0; k < sreps; k++) s += tlb_vault_read(desc, (unsigned char *)dst + (size_t)(k & (N - 1)) * dst_size, bbytes, bn);
    double t4 = now();
    sink = s;
    *ser = per_op(t0, t1, sreps), *de = per_op(t1, t2, sreps), *bser = per_op(t2, t3, sreps), *bde = per_op(t3, t4, sreps);
    *bytes_out = n;
    return bn == n && memcmp(bytes, bbytes, n) == 0;
}

/* Both vaults' serialisation: the test vault (its two instances alternately) and the 32-field one. */
static bool bench_serialisations(samples *sm, int r)
{
    const void *const things[2] = {&things_instances[0], &things_instances[1]};
    const void *const wide[2] = {&wide_source, &wide_source};
    size_t n = 0;
    if (!bench_serialise(&every_vault_desc, things, vaults, sizeof vaults[0], &sm->ser[r], &sm->de[r], &sm->bser[r],
                         &sm->bde[r], &n)) {
        fprintf(stderr, "bench_vault: tl_vault_write and the baseline disagree\n");
        return false;
    }
    if (!bench_serialise(&wide_desc, wide, wides, sizeof wides[0], &sm->wser[r], &sm->wde[r], &sm->bwser[r], &sm->bwde[r],
                         &sm->wide_bytes) ||
        memcmp(&wides[0], &wide_source, sizeof wide_source) != 0) {
        fprintf(stderr, "bench_vault: the 32-field vault does not round-trip or disagrees with the baseline\n");
        return false;
    }
    return true;
}

/* The set path's pairs over n vaults: medians over the runs of each run's median ratio and of
 * each side's fastest round. */
static void report_set_path(const set_figures *f, int n)
{
    static const char *const what[SET_PAIRS] = {"typed setter", "typed setter", "try_set switch", "try_set switch"};
    static const char *const how[SET_PAIRS] = {"real structs (568 / 576 B)", "same stride (576 B)", "real structs (568 / 576 B)",
                                               "same stride (576 B)"};
    for (int p = 0; p < SET_PAIRS; p++) {
        double ratio[RUNS], ours[RUNS], old[RUNS];
        for (int r = 0; r < RUNS; r++) ratio[r] = f[r].ratio[p], ours[r] = f[r].ours[p], old[r] = f[r].old[p];
        printf("%-14s no listener %4d vaults, %-26s %6.3f ns  one-listener code %6.3f ns  ratio %.3f%s\n", what[p], n, how[p],
               median(ours), median(old), median(ratio), p & 1 ? "  (target <= 1.1)" : "");
    }
}

static void report(samples *sm)
{
    double d = median(sm->direct), g = median(sm->getter);
    printf("typed getter          %6.3f ns  direct struct access %6.3f ns  ratio %.3f (target <= 1.05)\n", g, d, g / d);
    printf("generic try_get by id %6.3f ns  (generated switch; target < 5 ns)\n", median(sm->generic));
    double ty = median(sm->typed), bty = median(sm->btyped);
    printf("tl_vault_try_get_integer/_fp %6.3f ns  baseline %6.3f ns  ratio %.3f  (typed wrappers by id; target < 5 ns)\n",
           ty, bty, ty / bty);
    double dd = median(sm->desc), bd = median(sm->bdesc);
    printf("tl_vault_try_get      %6.3f ns  baseline %6.3f ns  ratio %.3f  (descriptor; target < 5 ns)\n", dd, bd, dd / bd);
    double gs = median(sm->gset), ds = median(sm->dset), bs0 = median(sm->bset);
    printf("generic try_set by id %6.3f ns  (generated switch)\n", gs);
    printf("tl_vault_try_set      %6.3f ns  baseline %6.3f ns  ratio %.3f  (descriptor; target < 5 ns)\n", ds, bs0, ds / bs0);
    report_set_path(sm->set_hot, SET_HOT);
    report_set_path(sm->set_all, N);
    size_t n0 = tl_vault_serialised_size(&every_vault_desc, &things_instances[0]);
    size_t n1 = tl_vault_serialised_size(&every_vault_desc, &things_instances[1]);
    double sr = median(sm->ser), bs = median(sm->bser), dr = median(sm->de), bdr = median(sm->bde);
    printf("serialise   (%2d fields, %zu/%zu bytes) %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           EVERY_VAULT_FIELD_COUNT, n0, n1, sr, bs, sr / bs);
    printf("deserialise (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           EVERY_VAULT_FIELD_COUNT, n1, dr, bdr, dr / bdr);
    double ws = median(sm->wser), bws = median(sm->bwser), wd = median(sm->wde), bwd = median(sm->bwde);
    printf("serialise   (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           WIDE_FIELDS, sm->wide_bytes, ws, bws, ws / bws);
    printf("deserialise (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           WIDE_FIELDS, sm->wide_bytes, wd, bwd, wd / bwd);
}

int main(int argc, char **argv)
{
    static samples sm;
    reset_vaults();
    for (int i = 0; i < N; i++) tlb_every_vault_init(&today[i]), every_vault_init(&padded[i].v);
    /* Two values for each field of the mix (Health, Cell, Loot, Damage), all different. */
    static every_vault set_a, set_b;
    every_vault_init(&set_a);
    set_b = things_instances[1]; /* "Second": its Loot differs from the default */
    set_b.Health = set_a.Health + 1;
    set_b.Cell.x = set_a.Cell.x + 1;
    set_b.Damage.raw = set_a.Damage.raw + 1;
    if (memcmp(&set_a.Loot, &set_b.Loot, sizeof set_a.Loot) == 0) {
        fprintf(stderr, "bench_vault: the two Loot values for try_set are equal\n");
        return 1;
    }
    const void *const set_values[2][4] = {{&set_a.Health, &set_a.Cell, &set_a.Loot, &set_a.Damage},
                                          {&set_b.Health, &set_b.Cell, &set_b.Loot, &set_b.Damage}};
    wide_setup();
    const int reps = 2000;
    for (int r = 0; r < RUNS; r++) {
        bench_gets(&sm, r, reps);
        bench_sets(&sm, r, reps, set_values);
        if (!bench_serialisations(&sm, r)) return 1;
    }
    report(&sm);

    if (argc < 2) return 0;
    /* Generation on tmpfs (/dev/shm) and on the disk (/tmp), each against the file system's floor. */
    static const char *const roots[2] = {"/dev/shm", "/tmp"};
    for (int k = 0; k < 2; k++)
        if (!generation_bench(argv[1], roots[k])) return 1;
    return 0;
}
