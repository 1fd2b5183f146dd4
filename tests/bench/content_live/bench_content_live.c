/* Benchmark of content.h's live part (TL_CONTENT_LIVE): a profile of 10,000 files served from its source
 * tree in a temporary folder (removed at the end).
 *
 *   bench_content_live [--quick]
 *
 * Figures (issue 30): the cost of tl_content_update when nothing changed, with inotify (goal
 * under 5 us) and with the budgeted stat poll (goal under 0.5 ms), each beside its baseline (an
 * update with no source registered; a full stat sweep of the tree, what an unbudgeted poll would
 * cost); the time from a file's write to the reloaded object under each watcher; and what
 * registering and re-reading the tree cost. Prints figures; never a pass/fail on time. */
#define TL_IMPLEMENTATION
#include "../../content_live/live_util.h"

#define N_FILES 10000
#define N_FOLDERS 100

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void make_tree(void) {
    int i;
    char rel[64];
    for (i = 0; i < N_FILES; i++) {
        snprintf(rel, sizeof rel, "Sprites/f%02d/s%05d.txt", i % N_FOLDERS, i);
        live_write(rel, "sprite");
    }
}

static const tl_content_source_category k_categories[] = {{"Sprites", "Sprites"}};

static tl_content *make_ctx(text_kind *k) {
    tl_content_desc desc;
    tl_content_kind_desc kd = text_kind_desc(k);
    tl_content *c;
    memset(&desc, 0, sizeof desc);
    desc.logger.min_level = TL_LOG_LEVEL_ERROR; /* no line per reload, no report */
    c = tl_content_create(&desc);
    tl_content_register_kind(c, &kd);
    return c;
}

static double register_source(tl_content *c, tl_content_watch watch, uint32_t budget) {
    tl_content_source_desc d;
    double t0;
    memset(&d, 0, sizeof d);
    d.categories = k_categories;
    d.category_count = 1;
    d.watch = watch;
    d.poll_budget = budget;
    t0 = live_now();
    if (!tl_content_dir_valid(tl_content_register_source(c, "Bench", g_root, &d))) abort();
    return live_now() - t0;
}

/* One tl_content_update with nothing changed, timed one by one: the median, and the mean (on a
   shared machine a few updates are preempted, which the mean shows and the median does not). */
static double update_cost(tl_content *c, int n, double *mean) {
    double *v = (double *)malloc((size_t)n * sizeof *v), total = 0, m;
    int i;
    for (i = 0; i < n; i++) {
        double t0 = live_now();
        tl_content_update(c);
        v[i] = live_now() - t0;
        total += v[i];
    }
    *mean = total / n;
    m = median(v, n);
    free(v);
    return m;
}

/* A full stat sweep of every file: what a poll without a budget costs per update. */
static double sweep_cost(int rounds) {
    double v[31];
    int r, i;
    char rel[64];
    struct stat st;
    for (r = 0; r < rounds; r++) {
        double t0 = live_now();
        for (i = 0; i < N_FILES; i++) {
            snprintf(rel, sizeof rel, "Sprites/f%02d/s%05d.txt", i % N_FOLDERS, i);
            if (stat(live_path(rel), &st) != 0) abort();
        }
        v[r] = live_now() - t0;
    }
    return median(v, rounds);
}

/* From a held asset's file written (closed) to its reloaded object: updates run back to back (the
 * time) and counted (at 60 frames a second, each is 16.7 ms of a game's time). */
static void write_to_reload(tl_content *c, text_kind *k, int edits, double *seconds, double *updates) {
    double t[31], u[31];
    int e;
    char text[32];
    tl_asset a = tl_scope_load_name(tl_content_root(c), "Sprites/f07/s00007");
    if (!tl_asset_valid(a)) abort();
    for (e = 0; e < edits; e++) {
        int before = k->reloads, n = 0;
        double t0;
        snprintf(text, sizeof text, "edit %d%s", e, e % 2 ? "!" : "");
        live_write("Sprites/f07/s00007.txt", text); /* written and closed: the clock starts */
        t0 = live_now();
        while (k->reloads == before && n < 1000000) {
            tl_content_update(c);
            n++;
        }
        t[e] = live_now() - t0;
        u[e] = n;
        if (strcmp((const char *)tl_asset_object(a), text) != 0) abort();
    }
    *seconds = median(t, edits);
    *updates = median(u, edits);
}

/* An added file: the update that notices it reads the tree again. */
static double rescan_cost(tl_content *c) {
    double t0;
    live_write("Sprites/f00/added.txt", "new");
    t0 = live_now();
    tl_content_update(c);
    tl_content_find(c, "Sprites/f00/added");
    live_remove("Sprites/f00/added.txt");
    return live_now() - t0;
}

int main(int argc, char **argv) {
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int rounds = quick ? 5 : 11, edits = quick ? 5 : 11;
    text_kind k1, k2, k0;
    tl_content *empty, *ino, *poll;
    double base, t_ino, t_poll, m_base, m_ino, m_poll, sweep, reg_ino, reg_poll, w_ino, u_ino, w_poll, u_poll, rescan;
    memset(&k0, 0, sizeof k0);
    memset(&k1, 0, sizeof k1);
    memset(&k2, 0, sizeof k2);
    if (!live_tree()) return 1;
    make_tree();
    empty = make_ctx(&k0);
    ino = make_ctx(&k1);
    poll = make_ctx(&k2);
    reg_ino = register_source(ino, TL_CONTENT_WATCH_AUTO, 0);
    reg_poll = register_source(poll, TL_CONTENT_WATCH_POLL, 0);
    base = update_cost(empty, 100000, &m_base);
    t_ino = update_cost(ino, 100000, &m_ino);
    t_poll = update_cost(poll, quick ? 500 : 2000, &m_poll);
    sweep = sweep_cost(rounds);
    write_to_reload(ino, &k1, edits, &w_ino, &u_ino);
    write_to_reload(poll, &k2, edits, &w_poll, &u_poll);
    rescan = rescan_cost(ino);
    printf("content_live: %d files in %d folders, served from %s\n\n", N_FILES, N_FOLDERS, g_root);
    printf("| operation | content_live | baseline | ratio | goal |\n|---|---|---|---|---|\n");
    printf("| update, nothing changed, inotify: median (mean) | %.3f us (%.3f us) | update, no source: %.3f us (%.3f us) | %.0f | < 5 us |\n",
           t_ino * 1e6, m_ino * 1e6, base * 1e6, m_base * 1e6, t_ino / base);
    printf("| update, nothing changed, poll (budget: 256 stats, 250 us): median (mean) | %.3f ms (%.3f ms) | full stat sweep: %.3f ms | %.4f | < 0.5 ms |\n",
           t_poll * 1e3, m_poll * 1e3, sweep * 1e3, t_poll / sweep);
    printf("| write to reloaded object, inotify | %.1f us (%.0f update) | | | |\n", w_ino * 1e6, u_ino);
    printf("| write to reloaded object, poll | %.2f ms (%.0f updates: %.0f ms at 60 fps) | | | |\n", w_poll * 1e3, u_poll, u_poll * 1000.0 / 60);
    printf("| register the source (scan %d files), inotify / poll | %.1f ms / %.1f ms | | | |\n", N_FILES, reg_ino * 1e3, reg_poll * 1e3);
    printf("| the update that notices an added file (reads the tree again) | %.1f ms | | | |\n", rescan * 1e3);
    tl_content_shutdown(empty);
    tl_content_shutdown(ino);
    tl_content_shutdown(poll);
    live_tree_remove();
    return 0;
}
