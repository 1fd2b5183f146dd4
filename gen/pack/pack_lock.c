#include "pack/pack_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p, recording what it made. */
static bool make_parent_dirs(out_locks *ls, const char *path)
{
    if (fs_kind_follow(path) == FS_DIR) return true;
    char *full = xstrdup(path);
    bool ok = true;
    for (char *p = full + 1; ok; p++) {
        if (*p != '/' && *p != 0) continue;
        char saved = *p;
        *p = 0;
        if (mkdir(full, 0755) == 0) *vec_push(&ls->created) = xstrdup(full);
        else if (errno != EEXIST) diag_error(loc_file(full), "cannot create directory: %s", strerror(errno)), ok = false;
        *p = saved;
        if (!saved) break;
    }
    free(full);
    return ok;
}

static int open_dir_fd(out_locks *ls, const char *path, struct stat *st)
{
    if (!make_parent_dirs(ls, path)) return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, st) != 0) {
        diag_error(loc_file(path), "cannot open the folder to lock it (so that two pack runs do not build into it at once): %s",
                   strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

static int by_dev_ino(const void *a, const void *b)
{
    const out_lock *x = a, *y = b;
    if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Registers the parent of output folder `dir` for profile number `index`. */
bool pack_locks_add(out_locks *ls, const char *dir, size_t index)
{
    char *parent = path_dirname(dir);
    struct stat st;
    int fd = open_dir_fd(ls, parent, &st);
    if (fd < 0) {
        free(parent);
        return false;
    }
    for (size_t i = 0; i < ls->items.count; i++) {
        out_lock *l = &ls->items.items[i];
        if (l->dev == st.st_dev && l->ino == st.st_ino) {
            l->last = index;
            close(fd);
            free(parent);
            return true;
        }
    }
    *vec_push(&ls->items) = (out_lock){parent, fd, st.st_dev, st.st_ino, index};
    return true;
}

/* Takes every lock, waiting as long as another run holds one. */
bool pack_locks_take(out_locks *ls)
{
    if (ls->items.count > 1) qsort(ls->items.items, ls->items.count, sizeof *ls->items.items, by_dev_ino);
    for (size_t i = 0; i < ls->items.count; i++) {
        out_lock *l = &ls->items.items[i];
        for (;;) {
            int r;
            while ((r = flock(l->fd, LOCK_EX)) != 0 && errno == EINTR) {}
            if (r != 0) {
                if (errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOSYS) break; /* not serialised here */
                diag_error(loc_file(l->path), "cannot lock the folder (so that two pack runs do not build into it at once): %s",
                           strerror(errno));
                return false;
            }
            /* The directory locked must still be the one at its path (a run that failed its first
             * build may have removed it while this one waited). */
            struct stat now;
            if (stat(l->path, &now) == 0 && now.st_dev == l->dev && now.st_ino == l->ino) break;
            close(l->fd);
            struct stat st;
            l->fd = open_dir_fd(ls, l->path, &st);
            if (l->fd < 0) return false;
            l->dev = st.st_dev;
            l->ino = st.st_ino;
        }
    }
    return true;
}

/* Releases the locks profile number `index` is the last to need. */
void pack_locks_release_after(out_locks *ls, size_t index)
{
    for (size_t i = 0; i < ls->items.count; i++) {
        out_lock *l = &ls->items.items[i];
        if (l->fd >= 0 && l->last == index) close(l->fd), l->fd = -1;
    }
}

/* Removes the directories made for the locks that are now empty (a run that built nothing there),
 * then releases every lock. */
void pack_locks_end(out_locks *ls)
{
    for (size_t i = ls->created.count; i-- > 0;) rmdir(ls->created.items[i]);
    for (size_t i = 0; i < ls->items.count; i++) {
        if (ls->items.items[i].fd >= 0) close(ls->items.items[i].fd);
        free(ls->items.items[i].path);
    }
    vec_free(&ls->items);
    name_list_free(&ls->created);
}
