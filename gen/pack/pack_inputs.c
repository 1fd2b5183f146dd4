/* The record of input hashes a build leaves for the next one, so that it reads only the files
 * that changed since: one line per asset file whose state had settled (content_memo_settled),
 * sorted by path,
 *
 *   record -> "threadlink-gen input hashes 2\n" "folder " folder "\n"
 *             ( xxh64 size dev ino mtime ctime "\t" path "\n" )* "end " xxh64 "\n"
 *
 * (xxh64 16 hex digits; times as seconds.nanoseconds; path relative to the project, last, so
 * that it may hold spaces; folder the output folder's real path; the last line's XXH64 is that
 * of every byte before it). A file is taken from the record only while its device, inode, size
 * and times are exactly as recorded; anything else is read again. The record is read from disk,
 * where a crash, another version or a hand edit may leave anything, and a hash it gives wrongly
 * would go into the catalog and fail the build at every run: so it is taken whole or not at all
 * (its version, its folder, its hash, every line). Device and inode numbers and times belong to
 * this machine and this moment, so the record is kept in the user's cache folder
 * ($XDG_CACHE_HOME, else ~/.cache), one file per output folder (named by a hash of its real
 * path), never in the output folder, which stays the same bytes wherever and whenever it is
 * built. Without a cache folder there is no record, and every run reads every file, as before. */
#include "pack/pack_internal.h"

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

#define RECORD_HEADER "threadlink-gen input hashes 2\n"
#define RECORD_FOLDER "folder "
#define RECORD_END "end "
#define RECORD_END_LEN (sizeof RECORD_END - 1 + 16 + 1)

/* Plain number formatting into a line's buffer (the record has a line for every asset: tens
 * of thousands), no printf. Each returns the end of what it wrote. */
static char *put_dec(char *at, uint64_t v)
{
    char digits[24];
    size_t n = 0;
    do digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n) *at++ = digits[--n];
    return at;
}

/* Seconds, '.', nanoseconds in 9 digits. */
static char *put_time(char *at, int64_t sec, long nsec)
{
    if (sec < 0) *at++ = '-';
    at = put_dec(at, sec < 0 ? (uint64_t)0 - (uint64_t)sec : (uint64_t)sec);
    if (nsec < 0 || nsec > 999999999) /* not a time a file has: as printf spells it */
        return at + snprintf(at, 24, ".%09ld", nsec);
    *at++ = '.';
    unsigned long ns = (unsigned long)nsec;
    for (int i = 8; i >= 0; i--, ns /= 10) at[i] = (char)('0' + ns % 10);
    return at + 9;
}

static char *put_hex(char *at, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4) *at++ = hex[(v >> shift) & 15];
    return at;
}

static int by_path(const void *a, const void *b)
{
    return strcmp((*(const content_asset *const *)a)->path, (*(const content_asset *const *)b)->path);
}

static void put_line(buf *out, const content_file_state *st, const char *source_root, const char *path)
{
    char line[192]; /* 16 hex digits, three numbers of up to 20 digits, two times of up to 45, spaces */
    char *at = put_hex(line, st->xxh64);
    const uint64_t nums[3] = {st->size, st->dev, st->ino};
    for (size_t k = 0; k < 3; k++) {
        *at++ = ' ';
        at = put_dec(at, nums[k]);
    }
    *at++ = ' ';
    at = put_time(at, st->mtime_sec, st->mtime_nsec);
    *at++ = ' ';
    at = put_time(at, st->ctime_sec, st->ctime_nsec);
    *at++ = '\t';
    buf_put(out, line, (size_t)(at - line));
    if (source_root[0]) {
        buf_puts(out, source_root);
        buf_putc(out, '/');
    }
    buf_puts(out, path);
    buf_putc(out, '\n');
}

void pack_inputs_begin(buf *out, const char *folder)
{
    out->len = 0;
    buf_puts(out, RECORD_HEADER);
    buf_puts(out, RECORD_FOLDER);
    buf_puts(out, folder);
    buf_putc(out, '\n');
}

void pack_inputs_add(buf *out, const char *path, const content_file_state *st) { put_line(out, st, "", path); }

void pack_inputs_end(buf *out)
{
    uint64_t h = XXH64(out->data ? out->data : "", out->len, 0);
    char hex[16];
    put_hex(hex, h);
    buf_puts(out, RECORD_END);
    buf_put(out, hex, sizeof hex);
    buf_putc(out, '\n');
}

void pack_inputs_entries(content_memo *memo, const content_profile *pr, const content_scan *sc, buf *out)
{
    size_t n = sc->assets.count, root_len = strlen(sc->root);
    const content_asset **by = xcalloc(n ? n : 1, sizeof *by);
    for (size_t i = 0; i < n; i++) by[i] = &sc->assets.items[i];
    sort_unless_sorted(by, n, sizeof *by, by_path);
    out->len = 0;
    buf full = {0};
    for (size_t i = 0; i < n; i++) { /* the path as the scan opened it: path_join(sc->root, path) */
        full.len = 0;
        if (root_len && strcmp(sc->root, ".") != 0) {
            buf_put(&full, sc->root, root_len);
            if (sc->root[root_len - 1] != '/') buf_putc(&full, '/');
        }
        buf_puts(&full, by[i]->path);
        content_file_state st;
        if (content_memo_settled(memo, full.data, &st)) put_line(out, &st, pr->source_root, by[i]->path);
    }
    buf_free(&full);
    free(by);
}

/* A whole decimal number up to the next character, which must be `end`; false otherwise. The
 * text it reads ends in a newline, so it never reads past the line. */
static bool take_number(const char **at, char end, uint64_t *out)
{
    const char *p = *at;
    char *stop;
    if (*p < '0' || *p > '9') return false;
    errno = 0;
    *out = strtoull(p, &stop, 10);
    if (errno || *stop != end) return false;
    *at = stop + 1;
    return true;
}

/* Exactly 16 hex digits, as put_hex writes them, then `end`. */
static bool take_hex(const char **at, char end, uint64_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = (*at)[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v << 4 | (uint64_t)d;
    }
    if ((*at)[16] != end) return false;
    *at += 17;
    *out = v;
    return true;
}

/* Seconds (as put_time writes them: any int64_t) and nanoseconds. */
static bool take_time(const char **at, char end, int64_t *sec, long *nsec)
{
    bool negative = **at == '-';
    if (negative) (*at)++;
    uint64_t s, ns;
    if (!take_number(at, '.', &s) || !take_number(at, end, &ns) || ns > 999999999) return false;
    if (s > (negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) return false;
    *sec = !negative ? (int64_t)s : s == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)s;
    *nsec = (long)ns;
    return true;
}

/* One line (without its newline, `len` bytes) into *st and the path's offset; false when it
 * does not parse or its path is empty or holds a NUL. */
static bool parse_line(const char *line, size_t len, content_file_state *st, size_t *path_at)
{
    const char *at = line;
    if (!take_hex(&at, ' ', &st->xxh64) || !take_number(&at, ' ', &st->size) || !take_number(&at, ' ', &st->dev) ||
        !take_number(&at, ' ', &st->ino) || !take_time(&at, ' ', &st->mtime_sec, &st->mtime_nsec) ||
        !take_time(&at, '\t', &st->ctime_sec, &st->ctime_nsec))
        return false;
    *path_at = (size_t)(at - line);
    return *path_at < len && !memchr(at, 0, len - *path_at);
}

/* The record's entries between its folder line and its last line, if the record is whole and
 * this folder's: [*body, *body_end). */
static bool record_whole(const char *text, size_t len, const char *folder, size_t *body, size_t *body_end)
{
    size_t head = strlen(RECORD_HEADER), flen = strlen(folder), pre = strlen(RECORD_FOLDER);
    if (len < head + pre + flen + 1 + RECORD_END_LEN || memcmp(text, RECORD_HEADER, head) != 0 ||
        memcmp(text + head, RECORD_FOLDER, pre) != 0 || memcmp(text + head + pre, folder, flen) != 0 ||
        text[head + pre + flen] != '\n')
        return false;
    const char *end = text + len - RECORD_END_LEN, *at = end + strlen(RECORD_END);
    uint64_t recorded;
    if (memcmp(end, RECORD_END, strlen(RECORD_END)) != 0 || !take_hex(&at, '\n', &recorded) ||
        XXH64(text, (size_t)(end - text), 0) != recorded)
        return false;
    *body = head + pre + flen + 1;
    *body_end = (size_t)(end - text);
    return *body == *body_end || text[*body_end - 1] == '\n';
}

typedef struct parsed_line {
    size_t path, len; /* the path's offset in the text and its length */
    content_file_state st;
} parsed_line;

bool pack_inputs_read(const char *text, size_t len, const char *folder, pack_inputs_fn each, void *ctx)
{
    size_t at, end;
    if (!record_whole(text, len, folder, &at, &end)) return false;
    VEC(parsed_line) lines = {0}; /* every line parsed once, and checked before any is given */
    bool ok = true;
    for (size_t line = at; ok && line < end;) {
        const char *nl = memchr(text + line, '\n', end - line);
        size_t n = (size_t)(nl - (text + line)), path_at = 0;
        parsed_line *pl = vec_push(&lines);
        ok = parse_line(text + line, n, &pl->st, &path_at);
        pl->path = line + path_at, pl->len = n - path_at;
        line += n + 1;
    }
    for (size_t i = 0; ok && i < lines.count; i++) each(ctx, text + lines.items[i].path, lines.items[i].len, &lines.items[i].st);
    vec_free(&lines);
    return ok;
}

/* $XDG_CACHE_HOME/threadlink-gen (or ~/.cache/threadlink-gen), or NULL without either. */
static char *cache_folder(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') return path_join(xdg, "threadlink-gen");
    if (home && home[0] == '/') return xasprintf("%s/.cache/threadlink-gen", home);
    return NULL;
}

/* The record's path for the output folder whose real path is `real`, or NULL. */
static char *record_path(const char *real)
{
    char *folder = cache_folder();
    char *path = folder ? xasprintf("%s/pack-%016llx.inputs", folder, (unsigned long long)XXH64(real, strlen(real), 0)) : NULL;
    free(folder);
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

void pack_inputs_save(const char *folder, const buf *entries)
{
    char *path = record_path(folder);
    if (path && !strchr(folder, '\n')) {
        buf text = {0};
        pack_inputs_begin(&text, folder);
        buf_put(&text, entries->data ? entries->data : "", entries->len);
        pack_inputs_end(&text);
        replace_file(path, &text);
        buf_free(&text);
    }
    free(path);
}

/* An entry for the memo, its path joined to the project root in one reused buffer. */
typedef struct seeding {
    content_memo *memo;
    buf full;
    size_t root_len;
} seeding;

static void seed_entry(void *ctx, const char *path, size_t len, const content_file_state *st)
{
    seeding *sd = ctx;
    sd->full.len = path[0] == '/' ? 0 : sd->root_len; /* as path_join */
    buf_put(&sd->full, path, len);
    buf_putc(&sd->full, 0);
    content_memo_seed(sd->memo, sd->full.data, st);
}

void pack_inputs_seed(content_memo *memo, const char *project_root, const char *folder)
{
    char *path = record_path(folder);
    buf text = {0};
    if (path && fs_read_file(path, &text)) {
        seeding sd = {memo, {0}, 0};
        if (strcmp(project_root, ".") != 0 && project_root[0]) {
            buf_puts(&sd.full, project_root);
            if (project_root[strlen(project_root) - 1] != '/') buf_putc(&sd.full, '/');
        }
        sd.root_len = sd.full.len;
        pack_inputs_read(text.data ? text.data : "", text.len, folder, seed_entry, &sd);
        buf_free(&sd.full);
    }
    buf_free(&text);
    free(path);
}
