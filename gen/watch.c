/* The watcher watches directories, not files: editors save by writing a new file and renaming it
 * over the old one, which a watch on the old file would miss. It watches the config's directory,
 * the injector and definitions directories, and the directories of native files and shells. */
#include "watch.h"

#include "config.h"
#include "fsio.h"

#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

#define WATCH_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

typedef VEC(int) watch_list;

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

static void add_dir(int fd, watch_list *w, const char *dir)
{
    if (fs_kind_follow(dir) != FS_DIR) return;
    int wd = inotify_add_watch(fd, dir, WATCH_EVENTS);
    if (wd >= 0) *vec_push(w) = wd;
}

/* Re-reads the config (it may name other directories now) and watches what it names. */
static size_t rewatch(int fd, watch_list *w, const char *config_path)
{
    for (size_t i = 0; i < w->count; i++) inotify_rm_watch(fd, w->items[i]);
    w->count = 0;
    char *root = path_dirname(config_path);
    add_dir(fd, w, root);
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
            add_dir(fd, w, d);
            free(d);
        }
        for (size_t i = 0; i < cfg.domains.count; i++) {
            const char *files[] = {cfg.domains.items[i].native, cfg.domains.items[i].shell};
            for (size_t j = 0; j < 2; j++) {
                if (!files[j]) continue;
                char *f = path_join(root, files[j]);
                char *d = path_dirname(f);
                add_dir(fd, w, d);
                free(d);
                free(f);
            }
        }
        config_free(&cfg);
    }
    free(root);
    return w->count;
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

    int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (fd < 0) {
        diag_error(loc_file(config_path), "cannot watch: inotify: %s", strerror(errno));
        return 1;
    }
    watch_list watches = {0};
    FILE *out = opt->summary ? opt->summary : stdout;
    gen_options pass = *opt;
    pass.command = GEN_GENERATE;
    _Alignas(struct inotify_event) char events[8192];

    for (;;) {
        gen_run(&pass, NULL);
        size_t n = rewatch(fd, &watches, config_path);
        fprintf(out, "threadlink-gen: watching %zu director%s (Ctrl-C to stop)\n", n, n == 1 ? "y" : "ies");
        fflush(out);
        fflush(stderr);
        /* Wait for a change, then for 150 ms of quiet, so a burst of saves is one pass. */
        bool changed = false;
        while (!stop_requested) {
            struct pollfd p = {fd, POLLIN, 0};
            int r = poll(&p, 1, changed ? 150 : -1);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) break;
            if (r == 0) break; /* quiet after a change */
            while (read(fd, events, sizeof events) > 0) changed = true;
        }
        if (stop_requested) break;
    }
    for (size_t i = 0; i < watches.count; i++) inotify_rm_watch(fd, watches.items[i]);
    vec_free(&watches);
    close(fd);
    fprintf(out, "threadlink-gen: stopped watching\n");
    return 0;
}
