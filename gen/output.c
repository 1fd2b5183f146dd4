#include "output.h"

#include "fsio.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

out_file *output_begin(output_set *set, const char *path)
{
    out_file *o = xcalloc(1, sizeof *o);
    o->path = xstrdup(path);
    o->tmp_fd = -1;
    o->content = hasher_new();
    o->old_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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

static bool write_all(out_file *o, int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            diag_error(loc_file(o->path), "cannot write: %s", strerror(errno));
            o->failed = true;
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

/* The first difference: open the temporary file and copy the identical prefix into it. */
static bool start_temp(out_file *o, uint64_t prefix)
{
    char *dir = path_dirname(o->path);
    o->tmp_path = xasprintf("%s/.%s.XXXXXX", dir, path_basename(o->path));
    free(dir);
    o->tmp_fd = mkstemp(o->tmp_path);
    if (o->tmp_fd < 0) {
        diag_error(loc_file(o->path), "cannot create a temporary file beside it: %s", strerror(errno));
        free(o->tmp_path);
        o->tmp_path = NULL;
        o->failed = true;
        return false;
    }
    fchmod(o->tmp_fd, 0644);
    char scratch[1 << 16];
    for (uint64_t at = 0; at < prefix;) {
        size_t n = prefix - at < sizeof scratch ? (size_t)(prefix - at) : sizeof scratch;
        ssize_t got = pread(o->old_fd, scratch, n, (off_t)at);
        if (got <= 0) {
            diag_error(loc_file(o->path), "cannot read the previous output: %s", strerror(errno));
            o->failed = true;
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

bool output_end(out_file *o)
{
    out_flush(o);
    o->hash = hasher_digest(o->content);
    if (o->failed) return false;
    if (!o->differs && o->pos != o->old_size) {
        o->differs = true;
        if (o->tmp_fd != -2 && !start_temp(o, o->pos)) return false;
    }
    if (o->old_fd < 0 && o->pos == 0 && !o->differs) o->differs = true; /* a new empty file */
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
        if (!o->differs) continue;
        set->changed++;
        if (set->mode == OUTPUT_CHECK || !o->tmp_path) continue;
        close(o->tmp_fd);
        o->tmp_fd = -1;
        if (rename(o->tmp_path, o->path) != 0) {
            diag_error(loc_file(o->path), "cannot replace: %s", strerror(errno));
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
        if (!ok || last) break;
    }
    free(path);
    return ok;
}

bool output_make_dirs(const char *base, const char *relative_path)
{
    char *full = path_join(base, relative_path);
    bool ok = true;
    for (char *p = full + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(full, 0755) != 0 && errno != EEXIST) {
            diag_error(loc_file(full), "cannot create directory: %s", strerror(errno));
            ok = false;
        }
        *p = '/';
        if (!ok) break;
    }
    free(full);
    return ok;
}
