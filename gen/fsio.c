#include "fsio.h"

#include "content_format.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool fs_read_file(const char *path, buf *out)
{
    out->len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        errno = e;
        return false;
    }
    /* Sized from fstat: a file is read in one call into a buffer of its size (no doubling to
     * 64 KiB + len, which made glibc mmap and munmap a fresh block for every small input). Reading
     * stops once the stat size was read; a file that reports 0 bytes (procfs and the like) or that
     * comes up short is read on until EOF. */
    size_t expect = (size_t)st.st_size;
    buf_reserve(out, expect + 1);
    for (;;) {
        if (expect && out->len == expect) break;
        if (out->cap - out->len - 1 == 0) buf_reserve(out, 65536);
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            errno = e;
            return false;
        }
        if (n == 0) break;
        out->len += (size_t)n;
    }
    close(fd);
    buf_cstr(out);
    return true;
}

static fs_kind kind_of_mode(mode_t m)
{
    if (S_ISREG(m)) return FS_FILE;
    if (S_ISDIR(m)) return FS_DIR;
    if (S_ISLNK(m)) return FS_SYMLINK;
    return FS_OTHER;
}

fs_kind fs_kind_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) != 0 ? FS_MISSING : kind_of_mode(st.st_mode);
}

fs_kind fs_kind_follow(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 ? FS_MISSING : kind_of_mode(st.st_mode);
}

int names_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int names_cmp_ignoring_case(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return tl_cf_fold_compare(x, strlen(x), y, strlen(y));
}

bool names_hold(char *const *names, size_t n, const char *name)
{
    return n && bsearch(&name, names, n, sizeof *names, names_cmp) != NULL;
}

bool fs_list_dir(const char *dir, name_list *out)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        *vec_push(out) = xstrdup(e->d_name);
    }
    closedir(d);
    if (out->count) qsort(out->items, out->count, sizeof *out->items, names_cmp);
    return true;
}

void name_list_free(name_list *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->items[i]);
    vec_free(l);
}

bool fs_check_case_distinct(const char *dir, const name_list *names, const char *suffix)
{
    VEC(char *) picked = {0};
    size_t slen = strlen(suffix);
    for (size_t i = 0; i < names->count; i++) {
        const char *n = names->items[i];
        size_t len = strlen(n);
        if (len >= slen && ascii_ieq(n + len - slen, slen, suffix, slen)) *vec_push(&picked) = names->items[i];
    }
    if (picked.count > 1) qsort(picked.items, picked.count, sizeof *picked.items, names_cmp_ignoring_case);
    bool ok = true;
    for (size_t i = 1; i < picked.count; i++) {
        if (names_cmp_ignoring_case(&picked.items[i - 1], &picked.items[i]) != 0) continue;
        char *a = path_join(dir, picked.items[i - 1]), *b = path_join(dir, picked.items[i]);
        diag_error(loc_file(b), "%s and %s differ only in case: a checkout on macOS or Windows holds one of them and "
                   "silently loses the other; merge them into one", a, b);
        free(a), free(b);
        ok = false;
    }
    vec_free(&picked);
    return ok;
}

char *fs_case_variant(const char *path)
{
    buf found = {0};
    bool differs = false;
    const char *p = path;
    if (*p == '/') buf_putc(&found, '/'), p++;
    while (*p) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *part = xstrndup(p, n);
        const char *dir = found.len ? buf_cstr(&found) : ".";
        name_list entries = {0};
        const char *match = NULL;
        if (strcmp(part, ".") == 0 || strcmp(part, "..") == 0 || n == 0) {
            match = part;
        } else if (fs_list_dir(dir, &entries)) {
            for (size_t i = 0; i < entries.count && !match; i++)
                if (strcmp(entries.items[i], part) == 0) match = entries.items[i];
            for (size_t i = 0; i < entries.count && !match; i++)
                if (ascii_ieq(entries.items[i], strlen(entries.items[i]), part, n)) match = entries.items[i], differs = true;
        }
        if (match) buf_puts(&found, match);
        name_list_free(&entries);
        free(part);
        if (!match) {
            buf_free(&found);
            return NULL;
        }
        if (!end) break;
        buf_putc(&found, '/');
        p = end + 1;
    }
    if (!differs) {
        buf_free(&found);
        return NULL;
    }
    buf_cstr(&found);
    return found.data;
}

void fs_note_case_variant(src_loc at, const char *path)
{
    char *variant = fs_case_variant(path);
    if (variant) diag_note(at, "%s exists: names differ in case here, though not on macOS or Windows", variant);
    free(variant);
}

bool fs_respell(const char *stale, const char *wanted)
{
    size_t len = strlen(stale);
    if (strlen(wanted) != len || !ascii_ieq(stale, len, wanted, len) || fs_kind_of(wanted) == FS_MISSING) return false;
    char *path = xstrdup(stale); /* respelled component by component */
    bool ok = true;
    for (size_t start = 0; ok && start < len;) {
        size_t end = start;
        while (end < len && stale[end] != '/') end++;
        if (memcmp(path + start, wanted + start, end - start) != 0) {
            /* Which spelling the directory holds: a listing, not a lookup, which finds either. */
            char *parent = start ? xstrndup(path, start - 1) : xstrdup(".");
            char *have = xstrndup(path + start, end - start), *want = xstrndup(wanted + start, end - start);
            name_list entries = {0};
            ok = fs_list_dir(parent, &entries) && names_hold(entries.items, entries.count, have) != names_hold(entries.items, entries.count, want);
            if (ok && names_hold(entries.items, entries.count, have)) {
                char *from = path_join(parent, have), *to = path_join(parent, want);
                char *tmp = xasprintf("%s/.tl-respell-%ld", parent, (long)getpid());
                /* Through a temporary name: renaming an entry to another spelling of itself may do nothing. */
                ok = rename(from, tmp) == 0;
                if (ok && rename(tmp, to) != 0) ok = false, rename(tmp, from);
                free(from), free(to), free(tmp);
            }
            if (ok) memcpy(path + start, wanted + start, end - start);
            name_list_free(&entries);
            free(parent), free(have), free(want);
        }
        start = end + 1;
    }
    free(path);
    return ok;
}

char *path_join(const char *a, const char *b)
{
    if (b[0] == '/' || !a || !a[0] || strcmp(a, ".") == 0) return xstrdup(b);
    size_t n = strlen(a);
    return xasprintf("%s%s%s", a, a[n - 1] == '/' ? "" : "/", b);
}

char *path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

const char *path_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* `path` without its empty and '.' components ("./a//b/." -> "a/b"). */
static char *path_tidied(const char *path)
{
    buf out = {0};
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n && !(n == 1 && *p == '.')) buf_printf(&out, "%s%.*s", out.len ? "/" : "", (int)n, p);
        p += n + (p[n] == '/');
    }
    return (char *)buf_cstr(&out);
}

char *path_spelling_problem(const char *path, bool folder)
{
    size_t n = strlen(path);
    if (strcmp(path, ".") == 0) return folder ? NULL : xasprintf("\"%s\" names no file: write the header's file name", path);
    const char *why = NULL;
    bool trailing = n && path[n - 1] == '/';
    size_t check = folder && trailing && n > 1 && path[n - 2] != '/' ? n - 1 : n; /* a folder's one '/' */
    for (size_t i = 0; i < check && !why;) {
        size_t len = strcspn(path + i, "/");
        if (i + len > check) len = check - i;
        if (len == 1 && path[i] == '.') why = "has a '.' component";
        else if (len == 0 && i + len < check) why = "has an empty component";
        i += len + 1;
    }
    if (!why && !folder && trailing) why = "ends with '/', which a file's path does not";
    if (!why) return NULL;
    char *tidy = path_tidied(path);
    char *message = tidy[0] ? xasprintf("\"%s\" %s: write it \"%s\" (one file, one spelling)", path, why, tidy)
                            : xasprintf("\"%s\" %s: write it \".\"", path, why);
    free(tidy);
    return message;
}
