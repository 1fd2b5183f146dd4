#include "base/fsio.h"

#include <threadlink/text.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

/* The caps of fs_input, with the plural that names the kind in "... are capped at". */
static const struct {
    const char *plural;
    uint64_t cap;
} input_kinds[] = {
    [FS_INPUT_CONFIG] = {"project configs", 16 * MIB},
    [FS_INPUT_PROFILE] = {"content profile files", 16 * MIB},
    [FS_INPUT_ENTRIES] = {"injectors, definitions, natives and content rename records", 256 * MIB},
    [FS_INPUT_SHELL] = {"shells", 16 * MIB},
    [FS_INPUT_VAULT] = {"vault schemas and data", 64 * MIB},
    [FS_INPUT_MANIFEST] = {"manifests", 256 * MIB},
    [FS_INPUT_PO] = {"PO files", 64 * MIB},
    [FS_INPUT_ALLOW] = {"allow-lists", 16 * MIB},
    [FS_INPUT_OWN] = {"the generator's own files", 256 * MIB},
    [FS_INPUT_ASSET] = {"content assets", UINT64_MAX},
};

/* The last refusal, for fs_read_failure. */
static struct {
    int err;
    mode_t mode;   /* of a file that is not regular */
    uint64_t size; /* of a file over its cap */
    fs_input kind;
    char *path;
} failure;

static int refuse(const char *path, fs_input kind, int err, mode_t mode, uint64_t size)
{
    free(failure.path);
    failure.path = xstrdup(path);
    failure.err = err, failure.mode = mode, failure.size = size, failure.kind = kind;
    errno = err;
    return -1;
}

/* fs_open_input and fs_open_input_at: `name` below `at`, `path` for messages; `nofollow`: a link
 * is refused (ELOOP), not followed. */
static int open_input(int at, const char *name, const char *path, bool nofollow, fs_input kind, struct stat *out_st)
{
    struct stat st;
    /* O_NONBLOCK: without it, opening a FIFO waits for a writer, for ever. Regular files ignore
     * the flag (open(2)), so the descriptor reads as usual. */
    int fd = openat(at, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        int e = errno;
        /* A socket cannot be opened at all (ENXIO): say what it is instead. */
        if (fstatat(at, name, &st, nofollow ? AT_SYMLINK_NOFOLLOW : 0) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
            !S_ISLNK(st.st_mode))
            return refuse(path, kind, EINVAL, st.st_mode, 0);
        return refuse(path, kind, e, 0, 0);
    }
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return refuse(path, kind, e, 0, 0);
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > input_kinds[kind].cap) {
        close(fd);
        if (!S_ISREG(st.st_mode)) return refuse(path, kind, S_ISDIR(st.st_mode) ? EISDIR : EINVAL, st.st_mode, 0);
        return refuse(path, kind, EFBIG, st.st_mode, (uint64_t)st.st_size);
    }
    if (out_st) *out_st = st;
    return fd;
}

int fs_open_input(const char *path, fs_input kind, struct stat *st) { return open_input(AT_FDCWD, path, path, false, kind, st); }

int fs_open_input_at(int dir_fd, const char *name, const char *path, fs_input kind, struct stat *st)
{
    return open_input(dir_fd, name, path, true, kind, st);
}

/* The whole input open as `fd` (closed here), as fs_read_input reads it. */
/* Appends the file's bytes to out (after out->len) and a NUL. */
static bool read_whole(int fd, uint64_t size, const char *path, fs_input kind, buf *out)
{
    /* Sized from fstat: a file is read in one call into a buffer of its size (no doubling to
     * 64 KiB + len, which made glibc mmap and munmap a fresh block for every small input). Reading
     * stops once the stat size was read; a file that reports 0 bytes (procfs and the like) or that
     * comes up short is read on until EOF. */
    size_t expect = (size_t)size, start = out->len;
    buf_reserve(out, expect + 1);
    for (;;) {
        if (expect && out->len - start == expect) break;
        if (out->cap - out->len - 1 == 0) buf_reserve(out, 65536);
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            out->len = start;
            refuse(path, kind, e, 0, 0);
            return false;
        }
        if (n == 0) break;
        out->len += (size_t)n;
    }
    close(fd);
    buf_cstr(out);
    return true;
}

bool fs_read_input(const char *path, fs_input kind, buf *out)
{
    out->len = 0;
    return fs_append_input(path, kind, out);
}

bool fs_append_input(const char *path, fs_input kind, buf *out)
{
    struct stat st;
    int fd = fs_open_input(path, kind, &st);
    return fd >= 0 && read_whole(fd, (uint64_t)st.st_size, path, kind, out);
}

bool fs_read_input_at(int dir_fd, const char *name, const char *path, fs_input kind, buf *out)
{
    out->len = 0;
    struct stat st;
    int fd = fs_open_input_at(dir_fd, name, path, kind, &st);
    return fd >= 0 && read_whole(fd, (uint64_t)st.st_size, path, kind, out);
}

bool fs_read_file(const char *path, buf *out) { return fs_read_input(path, FS_INPUT_OWN, out); }

static const char *mode_name(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISDIR(m)) return "a directory";
    return "a special file";
}

uint64_t fs_input_cap(fs_input kind) { return input_kinds[kind].cap; }

/* 5368709120 -> "5.0 GiB"; `whole` for the caps ("256 MiB"). */
void fs_format_size(char *out, size_t n, uint64_t size, bool whole)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (size < 1024) {
        snprintf(out, n, "%llu bytes", (unsigned long long)size);
        return;
    }
    double v = (double)size / 1024;
    unsigned u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof *units) v /= 1024, u++;
    snprintf(out, n, whole ? "%.0f %s" : "%.1f %s", v, units[u]);
}

static size_t longest_name(const char *path)
{
    size_t longest = 0;
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, "/");
        if (len > longest) longest = len;
        p += len;
        if (*p) p++;
    }
    return longest;
}

/* Which limit the path passes, a name in it (NAME_MAX) or the whole (PATH_MAX), said of `what`
 * ("its path"); NULL when it passes neither. */
static const char *too_long(char *out, size_t n, const char *path, const char *what)
{
    size_t longest = longest_name(path);
    if (longest > NAME_MAX)
        snprintf(out, n, "a name in %s is %zu bytes, longer than this system allows (%d bytes)", what, longest, NAME_MAX);
    else if (strlen(path) > PATH_MAX - 1)
        snprintf(out, n, "%s is %zu bytes, longer than this system allows (%d bytes)", what, strlen(path), PATH_MAX - 1);
    else return NULL;
    return out;
}

const char *fs_path_failure(const char *path, int err)
{
    static char text[160];
    const char *why = err == ENAMETOOLONG ? too_long(text, sizeof text, path, "its path") : NULL;
    return why ? why : strerror(err);
}

const char *fs_path_length_problem(const char *path, const char *what)
{
    static char text[200];
    return too_long(text, sizeof text, path, what);
}

const char *fs_read_failure(void)
{
    static char text[200];
    if (failure.err == EFBIG && failure.size) {
        char size[32], cap[32];
        fs_format_size(size, sizeof size, failure.size, false);
        fs_format_size(cap, sizeof cap, input_kinds[failure.kind].cap, true);
        snprintf(text, sizeof text, "it is %s; %s are capped at %s", size, input_kinds[failure.kind].plural, cap);
        return text;
    }
    if ((failure.err == EINVAL || failure.err == EISDIR) && failure.mode) {
        snprintf(text, sizeof text, "it is %s, not a regular file", mode_name(failure.mode));
        return text;
    }
    return fs_path_failure(failure.path ? failure.path : "", failure.err);
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

int names_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int names_cmp_ignoring_case(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return tl_text_fold_compare(x, strlen(x), y, strlen(y));
}

bool names_hold(char *const *names, size_t n, const char *name)
{
    return n && bsearch(&name, names, n, sizeof *names, names_cmp) != NULL;
}

/* The entries of the open directory `d` (closed here), sorted. */
static bool list_entries(DIR *d, name_list *out)
{
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

bool fs_list_dir(const char *dir, name_list *out) { return list_entries(opendir(dir), out); }

bool fs_list_dir_fd(int dir_fd, name_list *out)
{
    /* A descriptor of its own (fdopendir takes it), reading from the start: a duplicate would
     * share the position, and a second listing would find nothing. */
    int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d && fd >= 0) close(fd);
    return list_entries(d, out);
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
        diag_error(loc_file(b),
                   "%s and %s differ only in case: a checkout on macOS or Windows holds one of them and "
                   "silently loses the other; merge them into one",
                   a, b);
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
            ok = fs_list_dir(parent, &entries) &&
                 names_hold(entries.items, entries.count, have) != names_hold(entries.items, entries.count, want);
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

bool fs_respell_at(int dir_fd, const char *stale, const char *wanted)
{
    size_t len = strlen(stale);
    struct stat st;
    if (strlen(wanted) != len || !ascii_ieq(stale, len, wanted, len) || strchr(stale, '/') || strchr(wanted, '/') ||
        fstatat(dir_fd, wanted, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return false;
    /* Which spelling the directory holds: a listing, not a lookup, which finds either. */
    name_list entries = {0};
    bool ok = fs_list_dir_fd(dir_fd, &entries);
    bool have = ok && names_hold(entries.items, entries.count, stale),
         want = ok && names_hold(entries.items, entries.count, wanted);
    name_list_free(&entries);
    if (!ok || have == want) return false;
    if (!have) return true;
    char tmp[64];
    snprintf(tmp, sizeof tmp, ".tl-respell-%ld", (long)getpid());
    /* Through a temporary name: renaming an entry to another spelling of itself may do nothing. */
    if (renameat(dir_fd, stale, dir_fd, tmp) != 0) return false;
    if (renameat(dir_fd, tmp, dir_fd, wanted) == 0) return true;
    renameat(dir_fd, tmp, dir_fd, stale);
    return false;
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

/* "a//./b/" -> "a/b", keeping a leading '/'. */
static char *normalise_slashes(const char *path)
{
    buf b = {0};
    if (path[0] == '/') buf_putc(&b, '/');
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n && !(n == 1 && p[0] == '.')) {
            if (b.len && b.data[b.len - 1] != '/') buf_putc(&b, '/');
            buf_put(&b, p, n);
        }
        p += n;
        while (*p == '/') p++;
    }
    if (!b.len) buf_putc(&b, '.');
    return (char *)buf_cstr(&b);
}

char *fs_resolve(const char *path, bool keep_last)
{
    char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
    char *joined = cwd ? path_join(cwd, path) : xstrdup(path);
    char *full = normalise_slashes(joined);
    free(cwd);
    free(joined);
    /* The longest prefix that exists, resolved; the tail appended as it is. */
    size_t cut = strlen(full);
    if (keep_last) cut = (size_t)(strrchr(full, '/') - full);
    for (;;) {
        char *prefix = cut ? xstrndup(full, cut) : xstrdup("/");
        char *real = realpath(prefix, NULL);
        free(prefix);
        if (real || cut == 0) {
            const char *tail = full + cut;
            char *result = real ? xasprintf("%s%s", strcmp(real, "/") == 0 && *tail == '/' ? "" : real, tail) : xstrdup(full);
            free(real);
            free(full);
            return result;
        }
        while (cut > 0 && full[cut - 1] != '/') cut--;
        if (cut > 0) cut--; /* before the '/' */
    }
}

static bool same_inode(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether `inner` or a folder above it is `outer` (by inode). */
static bool below_by_inode(const char *inner, const char *outer)
{
    struct stat so;
    if (stat(outer, &so) != 0) return false;
    char *p = xstrdup(inner);
    bool found = false;
    while (!found && strcmp(p, "/") != 0 && strcmp(p, ".") != 0) {
        struct stat sp;
        found = stat(p, &sp) == 0 && sp.st_dev == so.st_dev && sp.st_ino == so.st_ino;
        char *up = path_dirname(p);
        free(p);
        p = up;
    }
    free(p);
    return found;
}

/* `inner` is `outer` or lies inside it, compared as strings. */
static bool path_below(const char *inner, const char *outer)
{
    size_t n = strlen(outer);
    if (strncmp(inner, outer, n) != 0) return false;
    return inner[n] == 0 || inner[n] == '/' || (n && outer[n - 1] == '/');
}

fs_relation fs_relation_of(const char *a, const char *b)
{
    char *ra = fs_resolve(a, false), *rb = fs_resolve(b, false);
    fs_relation r = FS_APART;
    if (strcmp(ra, rb) == 0 || same_inode(ra, rb)) r = FS_SAME;
    else if (path_below(ra, rb) || below_by_inode(ra, rb)) r = FS_INSIDE;
    else if (path_below(rb, ra) || below_by_inode(rb, ra)) r = FS_CONTAINS;
    free(ra);
    free(rb);
    return r;
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
    /* CMake reads the list of outputs (headers --outputs-file) as a ';'-separated list. */
    if (strchr(path, ';'))
        return xasprintf(
            "\"%s\" has a ';', which CMake reads as a list separator in the build step's outputs: choose another name", path);
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
