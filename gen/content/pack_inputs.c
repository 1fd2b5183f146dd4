/* The record of input hashes a build leaves for the next one, so that it reads only the files
 * that changed since: one line per asset file whose state had settled (content_memo_settled),
 * sorted by path,
 *
 *   record -> "threadlink-gen input hashes 1\n" ( xxh64 size dev ino mtime ctime "\t" path "\n" )*
 *
 * (xxh64 16 hex digits; times as seconds.nanoseconds; path relative to the project, last, so
 * that it may hold spaces). A file is taken from the record only while its device, inode, size
 * and times are exactly as recorded; anything else, or a record that does not parse, is read
 * again. Device and inode numbers and times belong to this machine and this moment, so the
 * record is kept in the user's cache folder ($XDG_CACHE_HOME, else ~/.cache), one file per
 * output folder (named by a hash of its real path), never in the output folder, which stays the
 * same bytes wherever and whenever it is built. Without a cache folder there is no record, and
 * every run reads every file, as before. */
#include "content/pack_internal.h"

#include "content/content_scan.h"
#include "base/fsio.h"

#include <xxhash.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_HEADER "threadlink-gen input hashes 1\n"

/* Plain number formatting: the record has a line for every asset (tens of thousands). */
static void put_dec(buf *b, uint64_t v)
{
    char digits[24];
    size_t n = 0;
    do digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n) buf_putc(b, digits[--n]);
}

static void put_time(buf *b, int64_t sec, long nsec)
{
    if (sec < 0) buf_putc(b, '-');
    put_dec(b, sec < 0 ? (uint64_t)0 - (uint64_t)sec : (uint64_t)sec);
    char frac[16];
    snprintf(frac, sizeof frac, ".%09ld", nsec);
    buf_puts(b, frac);
}

static int by_path(const void *a, const void *b)
{
    return strcmp((*(const content_asset *const *)a)->path, (*(const content_asset *const *)b)->path);
}

static void put_line(buf *out, const content_file_state *st, const char *source_root, const char *path)
{
    static const char hex[] = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4) buf_putc(out, hex[(st->xxh64 >> shift) & 15]);
    const uint64_t nums[3] = {st->size, st->dev, st->ino};
    for (size_t k = 0; k < 3; k++) {
        buf_putc(out, ' ');
        put_dec(out, nums[k]);
    }
    buf_putc(out, ' ');
    put_time(out, st->mtime_sec, st->mtime_nsec);
    buf_putc(out, ' ');
    put_time(out, st->ctime_sec, st->ctime_nsec);
    buf_putc(out, '\t');
    if (source_root[0]) {
        buf_puts(out, source_root);
        buf_putc(out, '/');
    }
    buf_puts(out, path);
    buf_putc(out, '\n');
}

static void pack_inputs_record(const content_profile *pr, const content_scan *sc, buf *out)
{
    size_t n = sc->assets.count, root_len = strlen(sc->root);
    const content_asset **by = xcalloc(n ? n : 1, sizeof *by);
    for (size_t i = 0; i < n; i++) by[i] = &sc->assets.items[i];
    qsort(by, n, sizeof *by, by_path);
    out->len = 0;
    buf_puts(out, RECORD_HEADER);
    buf full = {0};
    for (size_t i = 0; i < n; i++) { /* the path as the scan opened it: path_join(sc->root, path) */
        full.len = 0;
        if (root_len && strcmp(sc->root, ".") != 0) {
            buf_put(&full, sc->root, root_len);
            if (sc->root[root_len - 1] != '/') buf_putc(&full, '/');
        }
        buf_puts(&full, by[i]->path);
        content_file_state st;
        if (content_memo_settled(full.data, &st)) put_line(out, &st, pr->source_root, by[i]->path);
    }
    buf_free(&full);
    free(by);
}

/* A whole number in `base` up to the next character, which must be `end`; false otherwise. */
static bool take_number(const char **at, int base, char end, uint64_t *out)
{
    const char *p = *at;
    char *stop;
    if (!((*p >= '0' && *p <= '9') || (base == 16 && ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))))) return false;
    errno = 0;
    *out = strtoull(p, &stop, base);
    if (errno || *stop != end) return false;
    *at = stop + 1;
    return true;
}

static bool take_time(const char **at, char end, int64_t *sec, long *nsec)
{
    bool negative = **at == '-';
    if (negative) (*at)++;
    uint64_t s, ns;
    if (!take_number(at, 10, '.', &s) || !take_number(at, 10, end, &ns) || ns > 999999999 || s > INT64_MAX) return false;
    *sec = negative ? -(int64_t)s : (int64_t)s;
    *nsec = (long)ns;
    return true;
}

/* One line into *st and the path's offset; false when it does not parse. */
static bool parse_line(const char *line, content_file_state *st, const char **path)
{
    const char *at = line;
    if (!take_number(&at, 16, ' ', &st->xxh64) || !take_number(&at, 10, ' ', &st->size) || !take_number(&at, 10, ' ', &st->dev) ||
        !take_number(&at, 10, ' ', &st->ino) || !take_time(&at, ' ', &st->mtime_sec, &st->mtime_nsec) ||
        !take_time(&at, '\t', &st->ctime_sec, &st->ctime_nsec) || !*at)
        return false;
    *path = at;
    return true;
}

/* $XDG_CACHE_HOME/threadlink-gen (or ~/.cache/threadlink-gen), or NULL without either. */
static char *cache_folder(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') return path_join(xdg, "threadlink-gen");
    if (home && home[0] == '/') return xasprintf("%s/.cache/threadlink-gen", home);
    return NULL;
}

/* The record's path for output folder `dir` (which must exist), or NULL. */
static char *record_path(const char *dir)
{
    char *folder = cache_folder(), *real = realpath(dir, NULL);
    char *path = folder && real ? xasprintf("%s/pack-%016llx.inputs", folder, (unsigned long long)XXH64(real, strlen(real), 0)) : NULL;
    free(folder);
    free(real);
    return path;
}

/* Written whole under a temporary name and renamed, unless it holds these bytes already. */
static void replace_file(const char *path, const buf *text)
{
    buf old = {0};
    bool same = fs_read_file(path, &old) && old.len == text->len && memcmp(old.data, text->data, text->len) == 0;
    buf_free(&old);
    if (same) return;
    char *folder = path_dirname(path), *parent = path_dirname(folder);
    mkdir(parent, 0777), mkdir(folder, 0777);
    char *tmp = xasprintf("%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    bool ok = fd >= 0;
    for (size_t at = 0; ok && at < text->len;) {
        ssize_t n = write(fd, text->data + at, text->len - at);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        at += ok ? (size_t)n : 0;
    }
    if (fd >= 0 && close(fd) != 0) ok = false;
    if (fd >= 0 && (!ok || rename(tmp, path) != 0)) unlink(tmp);
    free(tmp), free(folder), free(parent);
}

void pack_inputs_save(const content_profile *pr, const content_scan *sc, const char *dir)
{
    char *path = record_path(dir);
    if (!path) return;
    buf text = {0};
    pack_inputs_record(pr, sc, &text);
    replace_file(path, &text);
    buf_free(&text);
    free(path);
}

void pack_inputs_seed(const char *project_root, const char *dir)
{
    char *path = record_path(dir);
    if (!path) return;
    buf text = {0};
    bool ok = fs_read_file(path, &text) && text.len >= strlen(RECORD_HEADER) && memcmp(text.data, RECORD_HEADER, strlen(RECORD_HEADER)) == 0;
    for (char *line = ok ? text.data + strlen(RECORD_HEADER) : NULL; line && *line;) {
        char *end = strchr(line, '\n');
        if (!end) break; /* a torn last line */
        *end = 0;
        content_file_state st;
        const char *rel;
        if (parse_line(line, &st, &rel)) {
            char *full = path_join(project_root, rel);
            content_memo_seed(full, &st);
            free(full);
        }
        line = end + 1;
    }
    buf_free(&text);
    free(path);
}
