/* The record of input hashes a build leaves in its output folder (PACK_INPUTS_FILE), so that
 * the next build reads only the files that changed since: one line per asset file whose state
 * had settled (content_memo_settled), sorted by path,
 *
 *   record -> "threadlink-gen input hashes 1\n" ( xxh64 size dev ino mtime ctime path "\n" )*
 *
 * (xxh64 16 hex digits; times as seconds.nanoseconds; path relative to the project, last, so
 * that it may hold spaces). A file is taken from the record only while its device, inode, size
 * and times are exactly as recorded; anything else, or a record that does not parse, is read
 * again. The record is a cache, not content: no archive, catalog or index depends on it. */
#include "pack.h"

#include "content_scan.h"
#include "fsio.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_HEADER "threadlink-gen input hashes 1\n"

static int by_line(const void *a, const void *b)
{
    const char *x = strrchr(*(const char *const *)a, '\t'), *y = strrchr(*(const char *const *)b, '\t');
    return strcmp(x, y);
}

void pack_inputs_record(const content_profile *pr, const content_scan *sc, buf *out)
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

void pack_inputs_seed(const char *project_root, const char *dir)
{
    char *path = path_join(dir, PACK_INPUTS_FILE);
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
