#include "output.h"

#include "fsio.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Directories made in this run. Every output goes through output_make_dirs (its directory) and
 * then output_begin, thousands of them into one directory: output_make_dirs remembers in the set
 * the last directory it made or found, so the next output there costs no mkdir, and whether it
 * created that directory itself. A directory created in this run holds no output yet (outputs are
 * renamed into place only by output_commit), so output_begin hands the "nothing to compare with"
 * fact to the out_file and skips looking for the previous file; the outputs after it in the same
 * directory inherit it from their predecessor in the set. The memory lasts until the set is
 * committed, aborted or freed: a later run looks at the file system again. */
static void made_forget(output_set *set)
{
    free(set->made.dir);
    set->made.dir = NULL;
    set->made.created = set->made.handed = false;
}

/* Length of the directory part of `path` ("a/b/c.h" -> 3), 0 for none. */
static size_t dir_length(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

static bool same_dir(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* Was `path`'s directory created in this run, with nothing committed into it since? */
static bool in_fresh_dir(output_set *set, const char *path)
{
    size_t len = dir_length(path);
    if (!len) return false;
    if (set->files.count) { /* the previous output of this set, in the same directory */
        const out_file *prev = set->files.items[set->files.count - 1];
        if (prev->fresh_dir && same_dir(prev->path, dir_length(prev->path), path, len)) return true;
    }
    if (set->made.dir && set->made.created && !set->made.handed &&
        same_dir(set->made.dir, strlen(set->made.dir), path, len)) {
        set->made.handed = true; /* once: from here on the set's chain of outputs carries it */
        return true;
    }
    return false;
}

out_file *output_begin(output_set *set, const char *path)
{
    out_file *o = xcalloc(1, sizeof *o);
    o->path = xstrdup(path);
    o->tmp_fd = -1;
    o->content = hasher_new();
    o->fresh_dir = set->mode == OUTPUT_WRITE && in_fresh_dir(set, path);
    /* The permission bits a temporary file is given (0644, whatever the umask): read once per set. */
    if (set->files.count) {
        o->umask_bits = set->files.items[set->files.count - 1]->umask_bits;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        o->umask_bits = (unsigned)mask;
    }
    /* O_NONBLOCK: a FIFO where an output goes must not block the open (it is refused below). */
    o->old_fd = o->fresh_dir ? -1 : open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (o->old_fd >= 0) {
        struct stat st;
        if (fstat(o->old_fd, &st) == 0 && S_ISREG(st.st_mode)) {
            o->old_size = (uint64_t)st.st_size;
        } else {
            close(o->old_fd);
            o->old_fd = -1;
        }
    }
    *vec_push(&set->files) = o;
    if (set->mode == OUTPUT_CHECK) o->tmp_fd = -2; /* never written */
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

/* mkstemp with mode 0644: replaces the trailing XXXXXX of `templ` until a name is free. The
 * file is created 0644 directly, so the fchmod that mkstemp's 0600 needs happens only when the
 * umask takes away some of 0644. */
static int create_temp(char *templ, unsigned umask_bits)
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
    uint64_t v = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)templ ^ ((uint64_t)(uintptr_t)&ts << 32);
    for (int attempt = 0; attempt < 1000; attempt++) {
        v = v * 6364136223846793005u + 1442695040888963407u; /* an LCG step; the high bits are used */
        uint64_t r = v >> 16;
        for (size_t i = n - 6; i < n; i++, r /= 62) templ[i] = letters[r % 62];
        int fd = open(templ, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd >= 0) {
            if (umask_bits & 0644) fchmod(fd, 0644);
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

/* The first difference: open the temporary file and copy the identical prefix into it. */
static bool start_temp(out_file *o, uint64_t prefix)
{
    char *dir = path_dirname(o->path);
    /* Named after its output, unless that would pass the usual 255-byte limit on a name. */
    const char *base = path_basename(o->path);
    o->tmp_path = strlen(base) <= 200 ? xasprintf("%s/.%s.XXXXXX", dir, base) : xasprintf("%s/.tl-output.XXXXXX", dir);
    free(dir);
    o->tmp_fd = create_temp(o->tmp_path, o->umask_bits);
    if (o->tmp_fd < 0) {
        output_failed(o, "cannot create a temporary file beside it");
        free(o->tmp_path);
        o->tmp_path = NULL;
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

bool output_end(out_file *o)
{
    out_flush(o);
    o->hash = hasher_digest(o->content);
    if (o->failed) return false;
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
        if (o->tmp_fd >= 0) {
            close(o->tmp_fd);
            o->tmp_fd = -1;
            unlink(o->tmp_path);
            free(o->tmp_path);
            o->tmp_path = NULL;
        }
    }
    /* No fsync: the rename makes the replacement atomic for readers, which is what a build
     * needs; like compilers, the generator leaves durability to the file system. */
    buf_free(&o->chunk);
    return !o->failed;
}

bool output_commit(output_set *set)
{
    bool ok = true;
    made_forget(set); /* outputs land in the directories made so far */
    for (size_t i = 0; i < set->files.count; i++) {
        out_file *o = set->files.items[i];
        /* Done with the previous files: no handle stays open on what the run may yet rename. */
        if (o->old_fd >= 0) close(o->old_fd);
        o->old_fd = -1;
        if (!o->differs) continue;
        set->changed++;
        if (set->mode == OUTPUT_CHECK || !o->tmp_path) continue;
        close(o->tmp_fd);
        o->tmp_fd = -1;
        if (rename(o->tmp_path, o->path) != 0) {
            output_failed(o, "cannot replace");
            unlink(o->tmp_path);
            ok = false;
        }
        free(o->tmp_path);
        o->tmp_path = NULL;
    }
    return ok;
}

void output_abort(output_set *set)
{
    made_forget(set);
    for (size_t i = 0; i < set->files.count; i++) {
        out_file *o = set->files.items[i];
        if (o->tmp_fd >= 0) close(o->tmp_fd);
        o->tmp_fd = -1;
        if (o->tmp_path) unlink(o->tmp_path);
        free(o->tmp_path);
        o->tmp_path = NULL;
    }
}

void output_set_free(output_set *set)
{
    output_abort(set);
    for (size_t i = 0; i < set->files.count; i++) {
        out_file *o = set->files.items[i];
        if (o->old_fd >= 0) close(o->old_fd);
        free(o->path);
        buf_free(&o->chunk);
        buf_free(&o->whole);
        hasher_free(o->content);
        free(o);
    }
    vec_free(&set->files);
}

bool output_confined(const char *generated_dir, const char *relative, src_loc where)
{
    if (!relative[0] || relative[0] == '/' || strstr(relative, "..") == relative ||
        strstr(relative, "/../") || strcmp(path_basename(relative), "..") == 0) {
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
            diag_error(where, "output path '%s' goes through a symbolic link (%s); threadlink-gen never writes through links", relative, full);
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

bool output_make_dirs(output_set *set, const char *base, const char *relative_path)
{
    char *full = path_join(base, relative_path);
    size_t len = dir_length(full);
    if (!len) {
        free(full);
        return true;
    }
    full[len] = 0; /* the directory the output goes into */
    if (set->made.dir && strcmp(set->made.dir, full) == 0) { /* made or found already in this run */
        free(full);
        return true;
    }
    made_forget(set);
    /* Usually the parent exists: one mkdir. Otherwise every component from the top. */
    bool ok = true, created = mkdir(full, 0755) == 0;
    if (!created && errno == ENOENT) {
        for (char *p = full + 1;; p++) {
            if (*p != '/' && *p != 0) continue;
            char saved = *p;
            *p = 0;
            created = mkdir(full, 0755) == 0;
            if (!created && errno != EEXIST) {
                diag_error(loc_file(full), "cannot create directory: %s", strerror(errno));
                ok = false;
            }
            *p = saved;
            if (!ok || !saved) break;
        }
    } else if (!created && errno != EEXIST) {
        diag_error(loc_file(full), "cannot create directory: %s", strerror(errno));
        ok = false;
    }
    if (ok) {
        set->made.dir = full;
        set->made.created = created;
    } else {
        free(full);
    }
    return ok;
}
