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
#include "pack.h"

#include "content_scan.h"
#include "fsio.h"

#include <xxhash.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_HEADER "threadlink-gen input hashes 1\n"

static int by_line(const void *a, const void *b)
{
    const char *x = strrchr(*(const char *const *)a, '\t'), *y = strrchr(*(const char *const *)b, '\t');
    return strcmp(x, y);
}

static void pack_inputs_record(const content_profile *pr, const content_scan *sc, buf *out)
{
    VEC(char *) lines = {0};
    for (size_t i = 0; i < sc->assets.count; i++) {
        const content_asset *a = &sc->assets.items[i];
        char *full = path_join(sc->root, a->path);
        content_file_state st;
        if (content_memo_settled(full, &st)) {
            char *rel = path_join(pr->source_root, a->path);
            *vec_push(&lines) = xasprintf("%016" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 ".%09ld %" PRId64 ".%09ld\t%s\n",
                                          st.xxh64, st.size, st.dev, st.ino, st.mtime_sec, st.mtime_nsec, st.ctime_sec, st.ctime_nsec, rel);
            free(rel);
        }
        free(full);
    }
    if (lines.count) qsort(lines.items, lines.count, sizeof *lines.items, by_line);
    out->len = 0;
    buf_puts(out, RECORD_HEADER);
    for (size_t i = 0; i < lines.count; i++) {
        buf_puts(out, lines.items[i]);
        free(lines.items[i]);
    }
    vec_free(&lines);
}

/* One line into *st and the path's offset; false when it does not parse. */
static bool parse_line(const char *line, content_file_state *st, const char **path)
{
    const char *tab = strchr(line, '\t');
    if (!tab || !tab[1]) return false;
    int used = 0;
    if (sscanf(line, "%16" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 ".%9ld %" SCNd64 ".%9ld%n", &st->xxh64, &st->size,
               &st->dev, &st->ino, &st->mtime_sec, &st->mtime_nsec, &st->ctime_sec, &st->ctime_nsec, &used) != 8 ||
        line + used != tab)
        return false;
    *path = tab + 1;
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
