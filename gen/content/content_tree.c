#include "content/content_tree.h"

#include "base/work_pool.h"

#include <threadlink/content_format.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef VEC(unsigned char) type_list;

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
 * fs_list_dir sorts), each with readdir's d_type in `types` (DT_UNKNOWN where the file system
 * does not say); false with errno set. */
static bool list_folder(content_tree *t, const char *dir, type_list *types)
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
        te->err = (int)e->d_type; /* until sorted */
        te->folder = SIZE_MAX;
    }
    closedir(d);
    size_t n = t->entries.count - first;
    if (n) qsort(t->entries.items + first, n, sizeof *t->entries.items, by_name);
    types->count = 0;
    for (size_t i = 0; i < n; i++) {
        *vec_push(types) = (unsigned char)t->entries.items[first + i].err;
        t->entries.items[first + i].err = -1; /* not lstat'ed yet */
    }
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
static void list_entry(content_tree *t, size_t index, unsigned char type, folder_stack *stack)
{
    tree_entry *e = &t->entries.items[index];
    if (type != DT_DIR && type != DT_UNKNOWN) return;
    e->err = lstat(e->full, &e->st) == 0 ? 0 : errno;
    if (e->err || !S_ISDIR(e->st.st_mode) || being_read(stack, &e->st)) return;
    size_t folder = t->folders.count;
    *vec_push(&t->folders) = (tree_folder){0, 0, 0};
    t->entries.items[index].folder = folder;
    *vec_push(stack) = t->entries.items[index].st;
    char *full = xstrdup(t->entries.items[index].full); /* entries may move as the tree grows */
    read_folder(t, full, folder, stack);
    free(full);
    stack->count--;
}

/* The folder's entries, one after the other, then the folders below it in turn. */
static void read_folder(content_tree *t, const char *dir, size_t folder, folder_stack *stack)
{
    type_list types = {0};
    size_t first = t->entries.count;
    if (!list_folder(t, dir, &types)) {
        t->folders.items[folder].err = errno;
        return;
    }
    size_t n = t->entries.count - first;
    t->folders.items[folder] = (tree_folder){first, n, 0};
    for (size_t i = 0; i < n; i++) list_entry(t, first + i, types.items[i], stack);
    vec_free(&types);
}

/* Entries are lstat'ed in runs of this many: one claim of the pool per run. */
#define STAT_RUN 64

static void stat_run(void *ctx, size_t item, unsigned worker)
{
    content_tree *t = ctx;
    (void)worker;
    size_t end = (item + 1) * STAT_RUN < t->entries.count ? (item + 1) * STAT_RUN : t->entries.count;
    for (size_t i = item * STAT_RUN; i < end; i++) {
        tree_entry *e = &t->entries.items[i];
        if (e->err == -1) e->err = lstat(e->full, &e->st) == 0 ? 0 : errno;
    }
}

void content_tree_read(const char *root, const struct stat *root_st, unsigned jobs, content_tree *t)
{
    memset(t, 0, sizeof *t);
    *vec_push(&t->folders) = (tree_folder){0, 0, 0};
    folder_stack stack = {0};
    *vec_push(&stack) = *root_st;
    read_folder(t, root, 0, &stack);
    vec_free(&stack);
    size_t runs = (t->entries.count + STAT_RUN - 1) / STAT_RUN;
    work_pool *pool = work_pool_start(runs > 1 ? jobs : 1, runs, stat_run, t, NULL, 0);
    if (runs) work_pool_wait(pool, runs - 1);
    work_pool_finish(pool);
}

void content_tree_free(content_tree *t)
{
    for (size_t i = 0; i < t->entries.count; i++) free(t->entries.items[i].full);
    vec_free(&t->entries);
    vec_free(&t->folders);
}
