#include "base/output.h"

#include "base/fsio.h"
#include "base/stamp.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- Directories, through descriptors ------------------------------------------------------------
 *
 * A set opens its base directory once (as the user spelled it: links there are the user's own),
 * then reaches each output's directory below it with openat(O_DIRECTORY | O_NOFOLLOW), one
 * component at a time, as systemd's chase() does: a component that is, or has just become, a
 * symbolic link fails the open instead of being followed. The descriptor of the directory walked
 * to last is kept (thousands of outputs go into one directory: one walk for all of them), and the
 * temporary file, the rename and the unlink go through it.
 *
 * A directory made in this run holds no output yet (outputs are renamed into place only by
 * output_commit), so an output there has no previous file to compare with or to look for. */

static void dir_forget(output_set *set)
{
    if (set->dir.rel) close(set->dir.fd);
    free(set->dir.rel);
    set->dir.rel = NULL;
    set->dir.fresh = false;
}

static void base_forget(output_set *set)
{
    dir_forget(set);
    if (set->base.path) close(set->base.fd);
    free(set->base.path);
    set->base.path = NULL;
    set->base.created = false;
}

/* mkdir -p through the user's path; *created says whether the last component was made. */
static bool make_base(const char *path, bool *created)
{
    char *full = xstrdup(path);
    bool ok = true;
    *created = false;
    for (char *p = full + 1; ok; p++) {
        if (*p != '/' && *p != 0) continue;
        char saved = *p;
        *p = 0;
        *created = mkdir(full, 0755) == 0;
        if (!*created && errno != EEXIST) {
            diag_error(loc_file(full), "cannot create directory: %s", strerror(errno));
            ok = false;
        }
        *p = saved;
        if (!saved) break;
    }
    free(full);
    return ok;
}

/* The set's base directory as a descriptor; made first (create) when missing. Reports nothing
 * unless it was asked to make it: -1 with errno set. */
static int open_base(output_set *set, const char *base, bool create)
{
    if (set->base.path && strcmp(set->base.path, base) == 0) return set->base.fd;
    base_forget(set);
    int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    bool created = false;
    if (fd < 0 && errno == ENOENT && create) {
        if (!make_base(base, &created)) return -1;
        fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (fd < 0) {
        if (create) diag_error(loc_file(base), "cannot open the directory: %s", strerror(errno));
        return -1;
    }
    set->base.path = xstrdup(base);
    set->base.fd = fd;
    set->base.created = created;
    return fd;
}

int output_open_dir(const char *path, bool create, bool *created)
{
    const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, flags);
    *created = false;
    if (fd < 0 && errno == ENOENT && create) {
        if (!make_base(path, created)) return -1;
        fd = open(path, flags);
    }
    return fd;
}

bool output_set_base(output_set *set, const char *path, int fd, bool created)
{
    base_forget(set);
    set->base.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (set->base.fd < 0) return false;
    set->base.path = xstrdup(path);
    set->base.created = created;
    return true;
}

/* The next component of `rel` below the directory `at`, never through a link; with `create`,
 * made when missing (*created). -1 with errno set otherwise. */
static int open_component(int at, const char *comp, bool create, bool *created)
{
    if (!comp[0] || strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
        errno = EINVAL;
        return -1;
    }
    int fd = openat(at, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
        if (mkdirat(at, comp, 0755) == 0) *created = true;
        else if (errno != EEXIST) return -1;
        fd = openat(at, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    return fd;
}

/* Opens directory `rel` below `base_fd`: a new descriptor, or -1 with errno set and *stop at the
 * end of the component that failed. *created says whether a directory was made on the way. */
static int walk_below(int base_fd, const char *rel, bool create, bool *created, size_t *stop)
{
    int fd = fcntl(base_fd, F_DUPFD_CLOEXEC, 0);
    char comp[256];
    for (const char *p = rel; fd >= 0 && *p;) {
        size_t n = strcspn(p, "/");
        *stop = (size_t)(p - rel) + n;
        if (n >= sizeof comp) {
            close(fd);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(comp, p, n);
        comp[n] = 0;
        int next = open_component(fd, comp, create, created);
        int saved = errno;
        close(fd);
        errno = saved;
        fd = next;
        p += n + (p[n] == '/');
    }
    return fd;
}

/* Why the walk to base/rel stopped at rel[0..stop): reported at that directory. */
static void report_walk_failure(int base_fd, const char *base, const char *rel, size_t stop, int err, const char *outcome)
{
    char *part = xstrndup(rel, stop), *full = path_join(base, part);
    struct stat st;
    if (fstatat(base_fd, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        diag_error(loc_file(full),
                   "a symbolic link where a directory of outputs goes: threadlink-gen never writes through links; %s", outcome);
    else if ((err == ENOTDIR || err == ELOOP) && fstatat(base_fd, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
        diag_error(loc_file(full),
                   "was swapped for a link or a file during the run: threadlink-gen never writes through links; %s", outcome);
    else if (err == ENOTDIR || err == ELOOP)
        diag_error(loc_file(full), "not a directory, where a directory of outputs goes; %s", outcome);
    else diag_error(loc_file(full), "cannot %s directory: %s", err == ENOENT ? "open the" : "create", strerror(err));
    free(part);
    free(full);
}

enum { DIR_CREATE = 1, DIR_REPORT = 2, DIR_COMMITTING = 4 };

/* The directory of `o` as a descriptor the set keeps until its next walk; -1 (errno set) if it
 * cannot be reached. DIR_CREATE: made as needed; DIR_REPORT: a failure to reach it reported (as
 * a failure to replace the output with DIR_COMMITTING: other outputs may be in place already). */
static int set_dir(output_set *set, const out_file *o, unsigned how)
{
    bool create = how & DIR_CREATE;
    int base_fd = open_base(set, o->base, create);
    if (base_fd < 0) return -1;
    if (set->dir.rel && strcmp(set->dir.rel, o->dir_rel) == 0) return set->dir.fd;
    dir_forget(set);
    bool created = false;
    size_t stop = 0;
    int fd = walk_below(base_fd, o->dir_rel, create, &created, &stop);
    if (fd < 0) {
        int err = errno;
        if (how & DIR_REPORT) {
            char *outcome = how & DIR_COMMITTING ? xasprintf("%s was not replaced", o->path) : xstrdup("nothing was written");
            report_walk_failure(base_fd, o->base, o->dir_rel, stop, err, outcome);
            free(outcome);
        }
        errno = err;
        return -1;
    }
    set->dir.rel = xstrdup(o->dir_rel);
    set->dir.fd = fd;
    set->dir.fresh = create && (set->base.created || created);
    return fd;
}

static out_file *begin(output_set *set, char *path, const char *base, const char *relative)
{
    out_file *o = xcalloc(1, sizeof *o);
    o->path = path;
    o->base = xstrdup(base);
    const char *slash = strrchr(relative, '/');
    o->dir_rel = slash ? xstrndup(relative, (size_t)(slash - relative)) : xstrdup("");
    o->name = path_basename(o->path);
    o->set = set;
    o->tmp_fd = -1;
    o->old_fd = -1;
    o->content = hasher_new();
    /* The permission bits a temporary file is given (0644, whatever the umask): read once per set. */
    if (set->files.count) {
        o->umask_bits = set->files.items[set->files.count - 1]->umask_bits;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        o->umask_bits = (unsigned)mask;
    }
    *vec_push(&set->files) = o;
    if (set->mode == OUTPUT_CHECK) o->tmp_fd = -2; /* never written */
    return o;
}

/* The previous file, if there is one to compare with. */
static void open_old(out_file *o, int dir_fd)
{
    if (dir_fd < 0 || o->fresh_dir) return;
    /* O_NONBLOCK: a FIFO where an output goes must not block the open (it is refused below). */
    o->old_fd = openat(dir_fd, o->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (o->old_fd < 0) return;
    struct stat st;
    if (fstat(o->old_fd, &st) == 0 && S_ISREG(st.st_mode)) {
        o->old_size = (uint64_t)st.st_size;
    } else {
        close(o->old_fd);
        o->old_fd = -1;
    }
}

out_file *output_begin(output_set *set, const char *path)
{
    char *dir = path_dirname(path);
    out_file *o = begin(set, xstrdup(path), dir, path_basename(path));
    free(dir);
    open_old(o, set_dir(set, o, 0)); /* a failure is the temporary file's, when it is made */
    return o;
}

out_file *output_begin_below(output_set *set, const char *base, const char *relative)
{
    out_file *o = begin(set, path_join(base, relative), base, relative);
    bool write = set->mode == OUTPUT_WRITE;
    int dir_fd = set_dir(set, o, write ? DIR_CREATE | DIR_REPORT : 0);
    if (dir_fd < 0 && write) o->failed = true;
    o->fresh_dir = write && dir_fd >= 0 && set->dir.fresh;
    open_old(o, dir_fd);
    return o;
}

/* An I/O failure of one output: reported, unless the caller reports it (o->optional). */
static void output_failed(out_file *o, const char *what)
{
    if (!o->optional) diag_error(loc_file(o->path), "%s: %s", what, strerror(errno));
    o->failed = true;
}

static bool write_all(out_file *o, int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            output_failed(o, "cannot write");
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Compares `len` bytes at o->pos of the old file with `data`. */
static bool old_matches(out_file *o, const char *data, size_t len)
{
    if (o->old_fd < 0 || o->pos + len > o->old_size) return false;
    char scratch[1 << 16];
    uint64_t at = o->pos;
    while (len) {
        size_t n = len < sizeof scratch ? len : sizeof scratch;
        ssize_t got = pread(o->old_fd, scratch, n, (off_t)at);
        if (got != (ssize_t)n || memcmp(scratch, data, n) != 0) return false;
        data += n;
        len -= n;
        at += n;
    }
    return true;
}

/* mkstemp with mode 0644 in the directory `dir_fd`: replaces the trailing XXXXXX of `templ` until
 * a name is free. The file is created 0644 directly, so the fchmod that mkstemp's 0600 needs
 * happens only when the umask takes away some of 0644. It is locked while this run has it open,
 * so that another run's clean-up (output_leftovers) knows it is not a killed run's. */
static int create_temp(int dir_fd, char *templ, unsigned umask_bits)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t n = strlen(templ);
    if (n < 6 || strcmp(templ + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* Seeded from the clock and an address (no getpid: not cached by glibc, a system call each).
     * Only the chance of a first-try hit depends on it: O_EXCL makes every name safe. */
    uint64_t v =
        ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)templ ^ ((uint64_t)(uintptr_t)&ts << 32);
    for (int attempt = 0; attempt < 1000; attempt++) {
        v = v * 6364136223846793005u + 1442695040888963407u; /* an LCG step; the high bits are used */
        uint64_t r = v >> 16;
        for (size_t i = n - 6; i < n; i++, r /= 62) templ[i] = letters[r % 62];
        int fd = openat(dir_fd, templ, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd >= 0) {
            if (umask_bits & 0644) fchmod(fd, 0644);
            /* Waits while another run's clean-up probes it (an instant: it leaves a file this
             * young alone, see left_alone); EINTR aside, flock on a new file does not fail. */
            while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {}
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

/* The first difference: open the temporary file and copy the identical prefix into it. */
/* A set's files may be emitted on several threads at once (generate.c's emit_all), each into its
 * own out_file; the one thing they share is the set's open directory (set_dir), which a
 * temporary file is made and removed through: under this lock. */
static pthread_mutex_t set_dir_lock = PTHREAD_MUTEX_INITIALIZER;

/* An output is written by renaming a new file over it: a device, a FIFO, a folder or a link where
 * one the user names goes (--depfile /dev/null in a container run as root) would be replaced, so
 * anything but a regular file there is refused (reported unless the output is optional). */
static bool special_in_the_way(out_file *o, int dir_fd)
{
    struct stat st;
    if (dir_fd < 0 || fstatat(dir_fd, o->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(st.st_mode)) return false;
    if (!o->optional)
        diag_error(
            loc_file(o->path),
            "exists and is %s, not a regular file: threadlink-gen replaces this file when it writes it, so it leaves it alone (name a file, or leave the option out)",
            S_ISLNK(st.st_mode)    ? "a symbolic link"
            : S_ISDIR(st.st_mode)  ? "a folder"
            : S_ISFIFO(st.st_mode) ? "a FIFO"
                                   : "a device or socket");
    o->failed = true;
    return true;
}

static bool start_temp(out_file *o, uint64_t prefix)
{
    /* Named after its output, unless that would pass the usual 255-byte limit on a name. */
    o->tmp_name = strlen(o->name) <= 200 ? xasprintf(".%s.XXXXXX", o->name) : xstrdup(".tl-output.XXXXXX");
    pthread_mutex_lock(&set_dir_lock);
    int dir_fd = set_dir(o->set, o, 0);
    bool in_the_way = special_in_the_way(o, dir_fd);
    o->tmp_fd = dir_fd < 0 || in_the_way ? -1 : create_temp(dir_fd, o->tmp_name, o->umask_bits);
    pthread_mutex_unlock(&set_dir_lock);
    if (in_the_way) {
        free(o->tmp_name);
        o->tmp_name = NULL;
        return false;
    }
    if (o->tmp_fd < 0) {
        output_failed(o, "cannot create a temporary file beside it");
        free(o->tmp_name);
        o->tmp_name = NULL;
        return false;
    }
    char scratch[1 << 16];
    for (uint64_t at = 0; at < prefix;) {
        size_t n = prefix - at < sizeof scratch ? (size_t)(prefix - at) : sizeof scratch;
        ssize_t got = pread(o->old_fd, scratch, n, (off_t)at);
        if (got <= 0) {
            output_failed(o, "cannot read the previous output");
            return false;
        }
        if (!write_all(o, o->tmp_fd, scratch, (size_t)got)) return false;
        at += (uint64_t)got;
    }
    return true;
}

void out_flush(out_file *o)
{
    const char *data = o->chunk.data;
    size_t len = o->chunk.len;
    o->chunk.len = 0;
    if (!len || o->failed) return;
    hasher_add(o->content, data, len);
    if (o->tmp_fd == -2) { /* check mode */
        buf_put(&o->whole, data, len);
        if (!o->differs && !old_matches(o, data, len)) o->differs = true;
        o->pos += len;
        return;
    }
    if (!o->differs) {
        if (old_matches(o, data, len)) {
            o->pos += len;
            return;
        }
        o->differs = true;
        if (!start_temp(o, o->pos)) return;
    }
    write_all(o, o->tmp_fd, data, len);
    o->pos += len;
}

/* Adds text to `h` with every CR that comes before an LF left out; *held_cr carries a CR that
 * ended the previous piece (the caller adds it at the end if none follows). */
static void hash_text(hasher *h, const char *p, size_t n, bool *held_cr)
{
    if (*held_cr && n) {
        if (*p != '\n') hasher_add(h, "\r", 1);
        *held_cr = false;
    }
    while (n) {
        const char *cr = memchr(p, '\r', n);
        if (!cr) {
            hasher_add(h, p, n);
            return;
        }
        hasher_add(h, p, (size_t)(cr - p));
        n -= (size_t)(cr - p) + 1;
        p = cr + 1;
        if (!n) *held_cr = true;
        else if (*p != '\n') hasher_add(h, "\r", 1);
    }
}

/* XXH3 of the text read through `fd` with CRs before LFs left out, and (raw_hash not NULL) of its
 * bytes as they are. */
static bool hash_text_fd(int fd, uint64_t *text_hash, uint64_t *raw_hash)
{
    hasher *text = hasher_new(), *raw = raw_hash ? hasher_new() : NULL;
    char scratch[1 << 16];
    bool held_cr = false;
    ssize_t got;
    for (off_t at = 0; (got = pread(fd, scratch, sizeof scratch, at)) > 0; at += got) {
        hash_text(text, scratch, (size_t)got, &held_cr);
        if (raw) hasher_add(raw, scratch, (size_t)got);
    }
    if (held_cr) hasher_add(text, "\r", 1);
    *text_hash = hasher_digest(text);
    if (raw) *raw_hash = hasher_digest(raw);
    hasher_free(text);
    if (raw) hasher_free(raw);
    return got == 0;
}

/* Git for Windows checks text files out with CRLF line endings (core.autocrlf), and so does
 * an editor set to them: an output that is the same text but for that is not out of date. The
 * old file is then kept, and o->pos and o->hash describe it, so the stamp matches the file. */
static bool old_is_same_text(out_file *o)
{
    uint64_t old_text, old_raw, new_text;
    if (!hash_text_fd(o->old_fd, &old_text, &old_raw)) return false;
    if (o->tmp_fd == -2) {
        hasher *h = hasher_new();
        bool held_cr = false;
        hash_text(h, o->whole.data, o->whole.len, &held_cr);
        if (held_cr) hasher_add(h, "\r", 1);
        new_text = hasher_digest(h);
        hasher_free(h);
    } else if (!hash_text_fd(o->tmp_fd, &new_text, NULL)) {
        return false;
    }
    if (old_text != new_text) return false;
    o->pos = o->old_size;
    o->hash = old_raw;
    return true;
}

/* Closes and deletes the temporary file of `o` (through its directory's descriptor: a directory
 * swapped since leaves it there, for the next run to clean up). */
static void remove_temp(out_file *o)
{
    if (o->tmp_fd >= 0) close(o->tmp_fd);
    o->tmp_fd = -1;
    pthread_mutex_lock(&set_dir_lock);
    int dir_fd = o->tmp_name ? set_dir(o->set, o, 0) : -1;
    if (dir_fd >= 0) unlinkat(dir_fd, o->tmp_name, 0);
    pthread_mutex_unlock(&set_dir_lock);
    free(o->tmp_name);
    o->tmp_name = NULL;
}

/* A text output over what the generator reads back: refused (a manifest it could not read again
 * would leave the project's identity store unreadable). */
static bool within_read_back_cap(out_file *o)
{
    uint64_t cap = o->set->text_cap ? o->set->text_cap : fs_input_cap(FS_INPUT_OWN);
    if (!o->text || o->pos <= cap) return true;
    char size[32], limit[32];
    fs_format_size(size, sizeof size, o->pos, false);
    fs_format_size(limit, sizeof limit, cap, true);
    diag_error(
        loc_file(o->path),
        "it would be %s, over the %s the generator reads its own files back with (check, the next run): split what makes it (a domain's entries over several domains); nothing was written",
        size, limit);
    o->failed = true;
    return false;
}

bool output_end(out_file *o)
{
    out_flush(o);
    o->hash = hasher_digest(o->content);
    if (o->failed || !within_read_back_cap(o)) return false;
    if (!o->differs && o->pos != o->old_size) {
        o->differs = true;
        if (o->tmp_fd != -2 && !start_temp(o, o->pos)) return false;
    }
    if (o->old_fd < 0 && o->pos == 0 && !o->differs) { /* a new empty file: created like any other */
        o->differs = true;
        if (o->tmp_fd != -2 && !start_temp(o, 0)) return false;
    }
    if (o->differs && o->text && o->old_fd >= 0 && o->old_size > o->pos && old_is_same_text(o)) {
        o->differs = false;
        if (o->tmp_fd >= 0) remove_temp(o);
    }
    /* No fsync: the rename makes the replacement atomic for readers, which is what a build
     * needs; like compilers, the generator leaves durability to the file system. */
    buf_free(&o->chunk);
    return !o->failed;
}

bool output_commit(output_set *set)
{
    bool ok = true;
    for (size_t i = 0; i < set->files.count; i++) {
        out_file *o = set->files.items[i];
        /* Done with the previous files: no handle stays open on what the run may yet rename. */
        if (o->old_fd >= 0) close(o->old_fd);
        o->old_fd = -1;
        if (!o->differs) continue;
        set->changed++;
        if (set->mode == OUTPUT_CHECK || !o->tmp_name) continue;
        close(o->tmp_fd);
        o->tmp_fd = -1;
        /* In the directory the set holds, where the temporary file was made (wherever it is
         * now), or walked to again: a component that became a link since fails the rename. */
        int dir_fd = set_dir(set, o, o->optional ? 0 : DIR_REPORT | DIR_COMMITTING);
        if (dir_fd < 0) {
            o->failed = true;
            ok = false;
        } else if (renameat(dir_fd, o->tmp_name, dir_fd, o->name) != 0) {
            output_failed(o, "cannot replace");
            remove_temp(o);
            ok = false;
        }
        free(o->tmp_name);
        o->tmp_name = NULL;
    }
    base_forget(set); /* a later set looks at the file system again */
    return ok;
}

void output_abort(output_set *set)
{
    for (size_t i = 0; i < set->files.count; i++) remove_temp(set->files.items[i]);
    base_forget(set);
}

void output_set_free(output_set *set)
{
    output_abort(set);
    for (size_t i = 0; i < set->files.count; i++) {
        out_file *o = set->files.items[i];
        if (o->old_fd >= 0) close(o->old_fd);
        free(o->path);
        free(o->base);
        free(o->dir_rel);
        buf_free(&o->chunk);
        buf_free(&o->whole);
        hasher_free(o->content);
        free(o);
    }
    vec_free(&set->files);
}

bool output_confined(const char *generated_dir, const char *relative, src_loc where)
{
    if (!relative[0] || relative[0] == '/' || strstr(relative, "..") == relative || strstr(relative, "/../") ||
        strcmp(path_basename(relative), "..") == 0) {
        diag_error(where, "output path '%s' leaves the generated directory", relative);
        return false;
    }
    /* Walk every existing component below the generated directory. */
    char *path = xstrdup(relative);
    bool ok = true;
    for (char *p = path;; p++) {
        if (*p != '/' && *p != 0) continue;
        char saved = *p;
        *p = 0;
        char *full = path_join(generated_dir, path);
        fs_kind k = fs_kind_of(full);
        bool last = saved == 0;
        if (k == FS_SYMLINK) {
            diag_error(where, "output path '%s' goes through a symbolic link (%s); threadlink-gen never writes through links",
                       relative, full);
            ok = false;
        } else if (!last && k != FS_MISSING && k != FS_DIR) {
            diag_error(where, "output path '%s': %s is not a directory", relative, full);
            ok = false;
        } else if (last && k != FS_MISSING && k != FS_FILE) {
            diag_error(where, "output path '%s': %s exists and is not a regular file", relative, full);
            ok = false;
        }
        free(full);
        *p = saved;
        /* Below a missing component everything is missing too: nothing there can be a link. */
        if (!ok || last || k == FS_MISSING) break;
    }
    free(path);
    return ok;
}

bool output_unlink_below(const char *base, const char *relative)
{
    int base_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (base_fd < 0) return false;
    const char *slash = strrchr(relative, '/');
    char *dir = slash ? xstrndup(relative, (size_t)(slash - relative)) : xstrdup("");
    bool created = false;
    size_t stop = 0;
    int dir_fd = walk_below(base_fd, dir, false, &created, &stop);
    bool ok = dir_fd >= 0 && unlinkat(dir_fd, slash ? slash + 1 : relative, 0) == 0;
    int err = errno;
    if (dir_fd >= 0) close(dir_fd);
    close(base_fd);
    free(dir);
    errno = err;
    return ok;
}

/* ---- Left-overs of a killed run ------------------------------------------------------------------ */

bool output_is_temp_name(const char *name, size_t *name_len)
{
    size_t n = strlen(name);
    if (n < 9 || name[0] != '.' || name[n - 7] != '.') return false;
    for (size_t i = n - 6; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9')))
            return false;
    *name_len = n - 8;
    return true;
}

/* An output of one directory: its name, for the search by name. */
typedef struct dir_output {
    const char *dir; /* relative to base, up to dir_len */
    size_t dir_len;
    const char *name;
} dir_output;

static int by_dir_then_name(const void *pa, const void *pb)
{
    const dir_output *a = pa, *b = pb;
    size_t n = a->dir_len < b->dir_len ? a->dir_len : b->dir_len;
    int c = memcmp(a->dir, b->dir, n);
    if (c || a->dir_len != b->dir_len) return c ? c : a->dir_len < b->dir_len ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Is the temporary file `entry` one of these outputs' (an output named entry[1..1+len))? */
static bool names_an_output(const dir_output *outs, size_t count, const char *entry, size_t len)
{
    bool long_name = false;
    for (size_t i = 0; i < count; i++) {
        if (strlen(outs[i].name) == len && memcmp(outs[i].name, entry + 1, len) == 0) return true;
        long_name = long_name || strlen(outs[i].name) > 200;
    }
    return long_name && len == 9 && memcmp(entry + 1, "tl-output", 9) == 0;
}

/* A temporary file made this recently may be a live run's between its creation and its lock. */
#define TEMP_SETTLE_SECONDS 10

/* Held by a live run (its create_temp lock), or too young to tell? Then it is no left-over: a
 * killed run's are removed by a run at least TEMP_SETTLE_SECONDS later. */
static bool left_alone(int dir_fd, const char *entry)
{
    int fd = openat(dir_fd, entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return true; /* gone meanwhile, or not ours to judge */
    struct stat st;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    /* Its last write: a killed run's stays old, a live one's is fresh (a clock set back aside). */
    bool young = fstat(fd, &st) != 0 || (st.st_mtime > now.tv_sec - TEMP_SETTLE_SECONDS && st.st_mtime <= now.tv_sec + 1);
    bool held = young || (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK);
    close(fd);
    return held;
}

/* The left-overs in one directory (its outputs outs[0..count)), in name order; returns how many. */
static size_t leftovers_in(int dir_fd, const char *base, const dir_output *outs, size_t count, bool remove)
{
    int list_fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
    DIR *d = list_fd < 0 ? NULL : fdopendir(list_fd);
    if (!d) {
        if (list_fd >= 0) close(list_fd);
        return 0;
    }
    name_list found = {0};
    for (struct dirent *e; (e = readdir(d));) {
        size_t len;
        if (output_is_temp_name(e->d_name, &len) && names_an_output(outs, count, e->d_name, len) &&
            !left_alone(dir_fd, e->d_name))
            *vec_push(&found) = xstrdup(e->d_name);
    }
    closedir(d);
    if (found.count > 1) qsort(found.items, found.count, sizeof *found.items, names_cmp);
    char *dir = xstrndup(outs[0].dir, outs[0].dir_len);
    size_t n = 0;
    for (size_t i = 0; i < found.count; i++) {
        char *rel = path_join(dir, found.items[i]), *path = path_join(base, rel);
        if (!remove) {
            diag_error(loc_file(path), "left-over temporary file of a killed run: run %s to remove it; do not commit it",
                       diag_generate_command());
            n++;
        } else if (unlinkat(dir_fd, found.items[i], 0) == 0) {
            diag_warning(loc_file(path), "removed left-over temporary file of a killed run");
            n++;
        }
        free(rel);
        free(path);
    }
    free(dir);
    name_list_free(&found);
    return n;
}

size_t output_leftovers(const char *base, char *const *relatives, size_t count, bool remove)
{
    int base_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (base_fd < 0) return 0;
    dir_output *outs = xcalloc(count ? count : 1, sizeof *outs);
    for (size_t i = 0; i < count; i++) {
        const char *slash = strrchr(relatives[i], '/');
        outs[i] = (dir_output){relatives[i], slash ? (size_t)(slash - relatives[i]) : 0, slash ? slash + 1 : relatives[i]};
    }
    qsort(outs, count, sizeof *outs, by_dir_then_name);
    size_t found = 0;
    for (size_t i = 0, j; i < count; i = j) {
        for (j = i + 1;
             j < count && outs[j].dir_len == outs[i].dir_len && memcmp(outs[j].dir, outs[i].dir, outs[i].dir_len) == 0;)
            j++;
        char *dir = xstrndup(outs[i].dir, outs[i].dir_len);
        bool created = false;
        size_t stop = 0;
        int dir_fd = walk_below(base_fd, dir, false, &created, &stop);
        if (dir_fd >= 0) {
            found += leftovers_in(dir_fd, base, outs + i, j - i, remove);
            close(dir_fd);
        }
        free(dir);
    }
    free(outs);
    close(base_fd);
    return found;
}
