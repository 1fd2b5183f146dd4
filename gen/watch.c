/* The watcher watches directories, not files: editors save by writing a new file and renaming it
 * over the old one, which a watch on the old file would miss. It watches the directory of every
 * input the last pass read (injectors, definitions, natives, shells, vault schemas and data,
 * content folders), the directory of the file an input links to, and those the config names, so
 * a pass that stopped early on bad input still wakes up when the input is fixed. Watches are only ever added: removing one queues an
 * IN_IGNORED event, which would wake the next pass and loop for ever. The config's directories are
 * watched before the first pass; an input the pass read is watched once it has run, so an input
 * changed meanwhile (its ctime past the pass's start) runs another pass at once. */
#include "watch.h"

#include "core/config.h"
#include "base/fsio.h"

#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

#define WATCH_EVENTS \
    (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

typedef struct watcher {
    int fd;
    VEC(int) wds;             /* distinct watch descriptors, for the count shown */
    struct timespec began;    /* the pass's start */
    bool changed_during_pass; /* an input's ctime is past it */
} watcher;

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

static void add_dir(watcher *w, const char *dir)
{
    if (fs_kind_follow(dir) != FS_DIR) return;
    int wd = inotify_add_watch(w->fd, dir, WATCH_EVENTS); /* the same directory gives the same wd */
    if (wd < 0) return;
    for (size_t i = 0; i < w->wds.count; i++)
        if (w->wds.items[i] == wd) return;
    *vec_push(&w->wds) = wd;
}

/* An input reached through a link is watched where its file is too: an edit of a file shared
 * between projects makes no event in the folder that links it. */
static void add_link_target(watcher *w, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return;
    char *real = realpath(path, NULL);
    if (!real) return;
    char *dir = path_dirname(real);
    add_dir(w, dir);
    free(dir);
    free(real);
}

/* gen_options.on_input: a directory is watched itself, a file through its directory. */
static void add_input(void *ctx, const char *path)
{
    watcher *w = ctx;
    struct stat st;
    bool there = stat(path, &st) == 0; /* (one stat: its time and its kind) */
    if (there &&
        (st.st_ctim.tv_sec > w->began.tv_sec || (st.st_ctim.tv_sec == w->began.tv_sec && st.st_ctim.tv_nsec > w->began.tv_nsec)))
        w->changed_during_pass = true;
    if (there && S_ISDIR(st.st_mode)) {
        add_dir(w, path);
        return;
    }
    char *dir = path_dirname(path);
    add_dir(w, dir);
    free(dir);
    add_link_target(w, path);
}

/* The directories the config names, read afresh (it may name others now). */
static void add_config_dirs(watcher *w, const char *config_path)
{
    char *root = path_dirname(config_path);
    add_dir(w, root);
    project_config cfg;
    /* Quietly: the pass before reported whatever is wrong with the config. */
    diag_sink saved = diag_set_sink((diag_sink){ignore_diag, NULL});
    bool loaded = config_load(config_path, &cfg);
    diag_set_sink(saved);
    if (loaded) {
        const char *dirs[] = {cfg.injector_dir, cfg.definitions_dir};
        for (size_t i = 0; i < 2; i++) {
            if (!dirs[i]) continue;
            char *d = path_join(root, dirs[i]);
            add_dir(w, d);
            free(d);
        }
        for (size_t i = 0; i < cfg.domains.count; i++) {
            const char *files[] = {cfg.domains.items[i].native, cfg.domains.items[i].shell};
            for (size_t j = 0; j < 2; j++) {
                if (!files[j]) continue;
                char *f = path_join(root, files[j]);
                add_input(w, f);
                free(f);
            }
        }
        config_free(&cfg);
    }
    free(root);
}

/* Reads the queued events; true when one of them is a change (not a watch going away). */
static bool drain_events(watcher *w)
{
    _Alignas(struct inotify_event) char events[8192];
    bool changed = false;
    ssize_t len;
    while ((len = read(w->fd, events, sizeof events)) > 0) {
        for (char *p = events; p < events + len;) {
            const struct inotify_event *ev = (const struct inotify_event *)(void *)p;
            if (ev->mask & IN_IGNORED) { /* its directory is gone: forget the descriptor */
                for (size_t i = 0; i < w->wds.count; i++)
                    if (w->wds.items[i] == ev->wd) w->wds.items[i] = w->wds.items[--w->wds.count];
            } else {
                changed = true;
            }
            p += sizeof *ev + ev->len;
        }
    }
    return changed;
}

int watch_run(const gen_options *opt)
{
    const char *config_path = opt->config_path ? opt->config_path : "threadlink.json";
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: poll returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    watcher w = {inotify_init1(IN_CLOEXEC | IN_NONBLOCK), {0}, {0, 0}, false};
    if (w.fd < 0) {
        diag_error(loc_file(config_path), "cannot watch: inotify: %s", strerror(errno));
        return 1;
    }
    FILE *out = opt->summary ? opt->summary : stdout;
    gen_options pass = *opt;
    pass.command = GEN_GENERATE;
    pass.vault_images = true; /* development builds reload vault data from them */
    pass.on_input = add_input;
    pass.on_input_ctx = &w;

    add_config_dirs(&w, config_path);
    for (;;) {
        clock_gettime(CLOCK_REALTIME, &w.began); /* (fine: a file saved before it is never past it) */
        w.changed_during_pass = false;
        gen_run(&pass, NULL);
        add_config_dirs(&w, config_path);
        size_t n = w.wds.count;
        fprintf(out, "threadlink-gen: watching %zu director%s (Ctrl-C to stop)\n", n, n == 1 ? "y" : "ies");
        fflush(out);
        fflush(stderr);
        /* Wait for a change, then for 150 ms of quiet, so a burst of saves is one pass. */
        bool changed = w.changed_during_pass;
        while (!stop_requested) {
            struct pollfd p = {w.fd, POLLIN, 0};
            int r = poll(&p, 1, changed ? 150 : -1);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) break;
            if (r == 0) break; /* quiet after a change */
            if (drain_events(&w)) changed = true;
        }
        if (stop_requested) break;
    }
    vec_free(&w.wds);
    close(w.fd); /* closing removes every watch */
    fprintf(out, "threadlink-gen: stopped watching\n");
    return 0;
}
