#include "content/content_tree.h"

#include "base/work_pool.h"

#include <threadlink/content_format.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `dir` "/" `name` (just `name` for "."), as path_join joins them, without printf: one per entry. */
static char *joined(const char *dir, size_t dir_len, const char *name, size_t *name_at)
{
    bool bare = dir_len == 0 || (dir_len == 1 && dir[0] == '.');
    size_t sep = bare || dir[dir_len - 1] == '/' ? 0 : 1, prefix = bare ? 0 : dir_len + sep, n = strlen(name);
    char *full = xmalloc(prefix + n + 1);
    if (!bare) memcpy(full, dir, dir_len);
    if (sep) full[dir_len] = '/';
    memcpy(full + prefix, name, n + 1);
    *name_at = prefix;
    return full;
}

static int by_name(const void *a, const void *b)
{
    const tree_entry *x = a, *y = b;
    return strcmp(x->full + x->name, y->full + y->name);
}

/* The folder's entries (no hidden ones), at the end of t->entries in name order (bytewise, as
 * fs_list_dir sorts); false with errno set. */
static bool list_folder(content_tree *t, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    size_t first = t->entries.count, dir_len = strlen(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (tl_cf_source_hidden(e->d_name)) continue; /* also "." and ".." */
        tree_entry *te = vec_push(&t->entries);
        memset(te, 0, sizeof *te);
        te->full = joined(dir, dir_len, e->d_name, &te->name);
        te->err = -1; /* not lstat'ed yet */
        te->type = e->d_type;
        te->folder = SIZE_MAX;
    }
    closedir(d);
    size_t n = t->entries.count - first;
    if (n) qsort(t->entries.items + first, n, sizeof *t->entries.items, by_name);
    return true;
}

typedef VEC(struct stat) folder_stack;

static bool being_read(const folder_stack *stack, const struct stat *st)
{
    for (size_t k = 0; k < stack->count; k++)
        if (stack->items[k].st_dev == st->st_dev && stack->items[k].st_ino == st->st_ino) return true;
    return false;
}

static void read_folder(content_tree *t, const char *dir, size_t folder, folder_stack *stack);

/* An entry a folder's listing gave: folders (and entries of unknown type) lstat'ed here, to be
 * followed; every other entry is left to the threads (err -1). */
static void list_entry(content_tree *t, size_t index, folder_stack *stack)
{
    tree_entry *e = &t->entries.items[index];
    if (e->type != DT_DIR && e->type != DT_UNKNOWN) return;
    e->err = lstat(e->full, &e->st) == 0 ? 0 : errno;
    if (e->err || !S_ISDIR(e->st.st_mode) || being_read(stack, &e->st)) return;
    size_t folder = t->folders.count;
    *vec_push(&t->folders) = (tree_folder){0, 0, 0};
    e->folder = folder;
    *vec_push(stack) = e->st;
    read_folder(t, e->full, folder, stack); /* the entries array may move meanwhile, not its strings */
    stack->count--;
}

/* The folder's entries, one after the other, then the folders below it in turn. */
static void read_folder(content_tree *t, const char *dir, size_t folder, folder_stack *stack)
{
    size_t first = t->entries.count;
    if (!list_folder(t, dir)) {
        t->folders.items[folder].err = errno;
        return;
    }
    size_t n = t->entries.count - first;
    t->folders.items[folder] = (tree_folder){first, n, 0};
    for (size_t i = 0; i < n; i++) list_entry(t, first + i, stack);
}

/* Entries are lstat'ed in runs of up to this many of one folder: one claim of the pool and one
 * open of the folder per run, and each entry looked up in its folder rather than from the root. */
#define STAT_RUN 128

typedef struct stat_run {
    size_t first, count; /* entries of one folder */
} stat_run;

typedef struct stat_work {
    content_tree *t;
    VEC(stat_run) runs;
} stat_work;

static void stat_entry(tree_entry *e, int dir_fd)
{
    if (e->err != -1) return; /* a folder, lstat'ed while listing */
    /* A path too long to open by stays lstat's ENAMETOOLONG, as the walk reported it before. */
    bool by_folder = dir_fd >= 0 && strlen(e->full) < PATH_MAX;
    int rc = by_folder ? fstatat(dir_fd, e->full + e->name, &e->st, AT_SYMLINK_NOFOLLOW) : lstat(e->full, &e->st);
    e->err = rc == 0 ? 0 : errno;
}

static void stat_item(void *ctx, size_t item, unsigned worker)
{
    stat_work *sw = ctx;
    (void)worker;
    const stat_run *r = &sw->runs.items[item];
    tree_entry *first = &sw->t->entries.items[r->first];
    /* The folder by its path as its entries name it (first->full without the name). */
    char *dir = xstrndup(first->full, first->name ? first->name - 1 : 0);
    int fd = first->name ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    for (size_t i = 0; i < r->count; i++) stat_entry(first + i, fd);
    if (fd >= 0) close(fd);
}

static void stat_entries(content_tree *t, unsigned jobs)
{
    stat_work sw = {t, {0}};
    for (size_t f = 0; f < t->folders.count; f++)
        for (size_t at = 0; at < t->folders.items[f].count; at += STAT_RUN) {
            size_t left = t->folders.items[f].count - at;
            *vec_push(&sw.runs) = (stat_run){t->folders.items[f].first + at, left < STAT_RUN ? left : STAT_RUN};
        }
    size_t n = sw.runs.count;
    work_pool *pool = work_pool_start(n > 1 ? jobs : 1, n, stat_item, &sw, NULL, 0);
    if (n) work_pool_wait(pool, n - 1);
    work_pool_finish(pool);
    vec_free(&sw.runs);
}

void content_tree_read(const char *root, const struct stat *root_st, unsigned jobs, content_tree *t)
{
    memset(t, 0, sizeof *t);
    *vec_push(&t->folders) = (tree_folder){0, 0, 0};
    folder_stack stack = {0};
    *vec_push(&stack) = *root_st;
    read_folder(t, root, 0, &stack);
    vec_free(&stack);
    stat_entries(t, jobs);
}

void content_tree_free(content_tree *t)
{
    for (size_t i = 0; i < t->entries.count; i++) free(t->entries.items[i].full);
    vec_free(&t->entries);
    vec_free(&t->folders);
}
