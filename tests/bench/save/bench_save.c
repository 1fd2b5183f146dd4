/* save.h benchmark: the commit of one save of 4 KiB, 64 KiB and 1 MiB with full durability and the
 * next read of it (a game reads back what it saved: on the next load), beside SQLite (Debian's
 * libsqlite3) storing the same bytes as one blob in one transaction with synchronous=FULL, in WAL
 * mode and with the rollback journal (journal_mode=DELETE), then selecting it; same run, same
 * file system (a folder under /tmp, or the folder given). Prints the median time of the whole job
 * (commit + next read) and of the commit alone for each engine, the ratios to save.h, and the
 * syncs each commit costs: save.h's counted in its backend,
 * and for every engine fsync + fdatasync calls counted by `strace -f -c` (the benchmark runs
 * itself under strace; without strace that column says so). Never pass/fail on time.
 *   bench_save [DIR]        bench_save --syncs ENGINE BYTES COMMITS DIR   (used under strace) */
#define TL_IMPLEMENTATION
#include <threadlink/save.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ENGINE_SAVE, ENGINE_WAL, ENGINE_ROLLBACK, ENGINES };
static const char *const engine_names[ENGINES] = { "save.h", "sqlite-wal", "sqlite-rollback" };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --- save.h, with a backend that counts syncs ---------------------------------------------------- */

static tl_save_io posix;
static long our_syncs;

static tl_save_io_status count_sync(void *user, void *file, int *native) {
    our_syncs++;
    return posix.sync(user, file, native);
}
static tl_save_io_status count_sync_dir(void *user, void *root, const char *dir, int *native) {
    our_syncs++;
    return posix.sync_dir(user, root, dir, native);
}

typedef struct engine {
    int kind;
    tl_save_store *store;
    sqlite3 *db;
    sqlite3_stmt *put, *get;
} engine;

static void die(const char *what) {
    fprintf(stderr, "bench_save: %s\n", what);
    exit(1);
}

static void engine_open(engine *e, int kind, const char *dir) {
    char path[512];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    if (kind == ENGINE_SAVE) {
        tl_save_store_desc desc;
        memset(&desc, 0, sizeof desc);
        snprintf(path, sizeof path, "%s/store", dir);
        posix = tl_save_io_posix();
        desc.io = posix;
        desc.io.sync = count_sync;
        desc.io.sync_dir = count_sync_dir;
        desc.root = path;
        if (!(e->store = tl_save_store_open(&desc, NULL))) die("cannot open the store");
        return;
    }
    snprintf(path, sizeof path, "%s/%s.db", dir, engine_names[kind]);
    if (sqlite3_open(path, &e->db) != SQLITE_OK) die("sqlite3_open");
    const char *setup = kind == ENGINE_WAL
        ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
        : "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;";
    if (sqlite3_exec(e->db, setup, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(e->db, "CREATE TABLE IF NOT EXISTS saves(id TEXT PRIMARY KEY, data BLOB)", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(e->db, "INSERT OR REPLACE INTO saves VALUES('slot-1', ?)", -1, &e->put, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(e->db, "SELECT data FROM saves WHERE id = 'slot-1'", -1, &e->get, NULL) != SQLITE_OK)
        die(sqlite3_errmsg(e->db));
}

static void engine_close(engine *e) {
    if (e->store) tl_save_store_close(e->store);
    if (e->put) sqlite3_finalize(e->put);
    if (e->get) sqlite3_finalize(e->get);
    if (e->db) sqlite3_close(e->db);
}

/* One durable commit of `size` bytes as the save "slot-1". */
static void engine_commit(engine *e, const void *bytes, size_t size) {
    if (e->kind == ENGINE_SAVE) {
        tl_save_txn txn;
        tl_save_result r = tl_save_begin(e->store, "slot-1", &txn);
        if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "data", bytes, size);
        if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
        if (r != TL_SAVE_OK) die(tl_save_result_message(r));
        return;
    }
    if (sqlite3_exec(e->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) die(sqlite3_errmsg(e->db));
    sqlite3_bind_blob(e->put, 1, bytes, (int)size, SQLITE_STATIC);
    if (sqlite3_step(e->put) != SQLITE_DONE) die(sqlite3_errmsg(e->db));
    sqlite3_reset(e->put);
    if (sqlite3_exec(e->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die(sqlite3_errmsg(e->db));
}

/* The next read of the save, into the game's own buffer (`out`, `size` bytes), checked whole. */
static void engine_read(engine *e, unsigned char *out, const unsigned char *expect, size_t size) {
    size_t n = 0;
    if (e->kind == ENGINE_SAVE) {
        tl_save_result r = tl_save_read(e->store, "slot-1", "data", out, size, &n);
        if (r != TL_SAVE_OK) die(tl_save_result_message(r));
    } else {
        if (sqlite3_step(e->get) != SQLITE_ROW) die(sqlite3_errmsg(e->db));
        n = (size_t)sqlite3_column_bytes(e->get, 0);
        if (n == size) memcpy(out, sqlite3_column_blob(e->get, 0), n);
        sqlite3_reset(e->get);
    }
    if (n != size || memcmp(out, expect, size) != 0) die("the next read did not give the committed bytes");
}

static unsigned char *payload(size_t size, unsigned seed) {
    unsigned char *p = malloc(size);
    for (size_t i = 0; i < size; i++) p[i] = (unsigned char)((i * 2654435761u + seed) >> 13);
    return p;
}

/* --- sync counts under strace ------------------------------------------------------------------- */

/* `--syncs` mode: open, one warm-up commit, then `commits` more. */
static int syncs_mode(int kind, size_t size, int commits, const char *dir) {
    engine e;
    unsigned char *p = payload(size, 1);
    engine_open(&e, kind, dir);
    engine_commit(&e, p, size);
    for (int i = 0; i < commits; i++) engine_commit(&e, p, size);
    engine_close(&e);
    free(p);
    return 0;
}

/* fsync + fdatasync calls of `self --syncs ...` under strace; -1 without strace. */
static long strace_syncs(const char *self, int kind, size_t size, int commits, const char *dir) {
    char cmd[2048], out[600], line[256];
    snprintf(out, sizeof out, "%s/strace.txt", dir);
    snprintf(cmd, sizeof cmd,
             "strace -f -c -e trace=fsync,fdatasync -o '%s' '%s' --syncs %d %zu %d '%s/strace-run' >/dev/null 2>&1",
             out, self, kind, size, commits, dir);
    char mk[700];
    snprintf(mk, sizeof mk, "rm -rf '%s/strace-run' && mkdir '%s/strace-run'", dir, dir);
    if (system(mk) != 0 || system(cmd) != 0) return -1;
    FILE *f = fopen(out, "r");
    long total = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        double pct, secs;
        long usecs, calls;
        char name[64];
        if (sscanf(line, " %lf %lf %ld %ld %63s", &pct, &secs, &usecs, &calls, name) == 5 ||
            sscanf(line, " %lf %lf %ld %ld %*d %63s", &pct, &secs, &usecs, &calls, name) == 5)
            if (strcmp(name, "fsync") == 0 || strcmp(name, "fdatasync") == 0) total += calls;
    }
    fclose(f);
    return total;
}

/* --- the benchmark ------------------------------------------------------------------------------ */

/* Median time of each engine at one size: of the commit and its next read (whole), and of the
   commit alone. The engines take turns, one commit and read each per round, so that a machine whose
   load changes during the run slows them alike. */
static void median_commits(const char *dir, size_t size, int runs, double whole[ENGINES],
                           double commit[ENGINES], long *our_syncs_per_commit) {
    engine e[ENGINES];
    static double t[ENGINES][128], c[ENGINES][128];
    unsigned char *p = payload(size, 7), *back = malloc(size);
    long before = 0;
    for (int k = 0; k < ENGINES; k++) {
        engine_open(&e[k], k, dir);
        engine_commit(&e[k], p, size); /* warm-up: the table, the save's folder */
    }
    for (int i = 0; i < runs; i++)
        for (int k = 0; k < ENGINES; k++) {
            p[i % size] ^= 1;
            if (k == ENGINE_SAVE) before = our_syncs;
            double start = now();
            engine_commit(&e[k], p, size);
            double committed = now();
            engine_read(&e[k], back, p, size);
            t[k][i] = now() - start;
            c[k][i] = committed - start;
            if (k == ENGINE_SAVE && i == runs - 1) *our_syncs_per_commit = our_syncs - before;
        }
    for (int k = 0; k < ENGINES; k++) {
        engine_close(&e[k]);
        qsort(t[k], (size_t)runs, sizeof t[k][0], cmp);
        qsort(c[k], (size_t)runs, sizeof c[k][0], cmp);
        whole[k] = t[k][runs / 2];
        commit[k] = c[k][runs / 2];
    }
    free(back);
    free(p);
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--syncs") == 0)
        return syncs_mode(atoi(argv[2]), (size_t)strtoull(argv[3], NULL, 10), atoi(argv[4]), argv[5]);
    char dir[512];
    if (argc > 1) snprintf(dir, sizeof dir, "%s/bench-save-XXXXXX", argv[1]);
    else snprintf(dir, sizeof dir, "/tmp/bench-save-XXXXXX");
    if (!mkdtemp(dir)) die("mkdtemp");
    static const size_t sizes[3] = { 4u << 10, 64u << 10, 1u << 20 };
    static const char *const size_names[3] = { "4 KiB", "64 KiB", "1 MiB" };
    static const int runs[3] = { 61, 61, 31 };
    printf("commit of one save with full durability and its next read, median of %d (4 KiB), %d (64 KiB) "
           "and %d (1 MiB) rounds, engines taking turns, in %s\n", runs[0], runs[1], runs[2], dir);
    printf("%-10s %-16s %14s %10s %12s %10s %13s %15s\n", "size", "engine", "commit+read ms", "vs save.h",
           "commit ms", "vs save.h", "syncs (ours)", "syncs (strace)");
    for (int s = 0; s < 3; s++) {
        double whole[ENGINES], commit[ENGINES];
        long counted = -1;
        median_commits(dir, sizes[s], runs[s], whole, commit, &counted);
        for (int k = 0; k < ENGINES; k++) {
            long a = strace_syncs(argv[0], k, sizes[s], 0, dir), b = strace_syncs(argv[0], k, sizes[s], 10, dir);
            char traced[32], ours[32];
            if (a < 0 || b < 0) snprintf(traced, sizeof traced, "no strace");
            else snprintf(traced, sizeof traced, "%.1f", (double)(b - a) / 10.0);
            if (k != ENGINE_SAVE) snprintf(ours, sizeof ours, "-");
            else snprintf(ours, sizeof ours, "%ld", counted);
            printf("%-10s %-16s %14.3f %9.2fx %12.3f %9.2fx %13s %15s\n", size_names[s], engine_names[k],
                   whole[k] * 1e3, whole[k] / whole[ENGINE_SAVE], commit[k] * 1e3,
                   commit[k] / commit[ENGINE_SAVE], ours, traced);
        }
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
