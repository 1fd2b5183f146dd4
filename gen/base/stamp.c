#include "base/stamp.h"

#include "base/fsio.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#ifdef TLG_XXH3_DISPATCH
/* The library's XXH3 picks SSE2, AVX2 or AVX-512 when the program starts (the copy inlined here
 * is built for the baseline, SSE2): the same hash, about three times faster over the megabytes of
 * a big output. Declared here: xxh_x86dispatch.h would include xxhash.h again, without the
 * inlined copy's names (the state is the same structure either way). */
XXH_errorcode XXH3_64bits_update_dispatch(XXH3_state_t *state, const void *input, size_t len);
#define xxh3_update XXH3_64bits_update_dispatch
#else
#define xxh3_update XXH3_64bits_update
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hasher {
    XXH3_state_t state;
};

hasher *hasher_new(void)
{
    hasher *h = (hasher *)XXH3_createState();
    if (!h) abort();
    XXH3_64bits_reset(&h->state);
    return h;
}

void hasher_add(hasher *h, const void *data, size_t len) { xxh3_update(&h->state, data, len); }

void hasher_add_file(hasher *h, const char *name, const void *data, size_t len)
{
    uint64_t n = len;
    hasher_add(h, name, strlen(name) + 1);
    hasher_add(h, &n, sizeof n);
    hasher_add(h, data, len);
}

uint64_t hasher_digest(const hasher *h) { return XXH3_64bits_digest(&h->state); }
void hasher_free(hasher *h) { XXH3_freeState((XXH3_state_t *)h); }

bool hasher_add_path(hasher *h, const char *path)
{
    int fd = fs_open_input(path, FS_INPUT_OWN, NULL);
    if (fd < 0) return false;
    hasher_add(h, path, strlen(path) + 1);
    static char chunk[1 << 16];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) hasher_add(h, chunk, (size_t)n);
    close(fd);
    return n == 0;
}

/* Format: "threadlink-gen-stamp 1\ninputs HEX\n" then "output SIZE HEX PATH\n" per output. */
bool stamp_read(const char *path, stamp *out)
{
    memset(out, 0, sizeof *out);
    buf text = {0};
    if (!fs_read_file(path, &text)) {
        buf_free(&text);
        return false;
    }
    bool ok = false;
    char *p = text.data, *end = p ? p + text.len : NULL;
    if (strncmp(p, "threadlink-gen-stamp 2\ninputs ", 30) != 0) goto done;
    p += 30;
    out->inputs = strtoull(p, &p, 16);
    if (*p++ != '\n' || strncmp(p, "shape ", 6) != 0) goto done;
    out->shape = strtoull(p + 6, &p, 16);
    if (*p++ != '\n') goto done;
    while (p < end) {
        if (strncmp(p, "output ", 7) != 0) goto done;
        p += 7;
        stamp_output o = {0};
        o.size = strtoull(p, &p, 10);
        if (*p++ != ' ') goto done;
        o.hash = strtoull(p, &p, 16);
        if (*p++ != ' ') goto done;
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl || nl == p) goto done;
        o.path = xstrndup(p, (size_t)(nl - p));
        *vec_push(&out->outputs) = o;
        p = nl + 1;
    }
    ok = out->outputs.count > 0;
done:
    buf_free(&text);
    if (!ok) stamp_free(out);
    return ok;
}

/* Hashes a file in small pieces, so checking a large output costs no memory. */
static bool file_matches(const char *path, uint64_t size, uint64_t hash)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK); /* a FIFO must not block */
    if (fd < 0) return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    if (ok) {
        XXH3_state_t state;
        XXH3_64bits_reset(&state);
        static char chunk[1 << 16];
        ssize_t n;
        while ((n = read(fd, chunk, sizeof chunk)) > 0) xxh3_update(&state, chunk, (size_t)n);
        ok = n == 0 && XXH3_64bits_digest(&state) == hash;
    }
    close(fd);
    return ok;
}

bool stamp_output_intact(const stamp_output *o) { return file_matches(o->path, o->size, o->hash); }

bool stamp_outputs_intact(const stamp *s)
{
    for (size_t i = 0; i < s->outputs.count; i++)
        if (!stamp_output_intact(&s->outputs.items[i])) return false;
    return true;
}

void stamp_format(const stamp *s, buf *out)
{
    buf_printf(out, "threadlink-gen-stamp 2\ninputs %016" PRIx64 "\nshape %016" PRIx64 "\n", s->inputs, s->shape);
    for (size_t i = 0; i < s->outputs.count; i++) {
        const stamp_output *o = &s->outputs.items[i];
        buf_printf(out, "output %" PRIu64 " %016" PRIx64 " %s\n", o->size, o->hash, o->path);
    }
}

void stamp_free(stamp *s)
{
    for (size_t i = 0; i < s->outputs.count; i++) free(s->outputs.items[i].path);
    vec_free(&s->outputs);
    memset(s, 0, sizeof *s);
}

/* ---- The quick stamp ------------------------------------------------------------------------
 * Format: "threadlink-gen-quick 1\noptions HEX\noutputs N\n", then a line per file, "file MODE
 * SIZE MTIME CTIME INODE DEVICE PATH" (times as SECONDS.NANOSECONDS) or "missing PATH", then
 * "end\n": a file cut short by a concurrent writer is no stamp. A file holds when it stats to the
 * same line. */

static const char quick_magic[] = "threadlink-gen-quick 1\noptions ";

static void put_file_line(buf *out, const struct stat *st, const char *path)
{
    buf_printf(out, "file %o %lld %lld.%09ld %lld.%09ld %llu %llu %s\n", (unsigned)st->st_mode, (long long)st->st_size,
               (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec, (long)st->st_ctim.tv_nsec,
               (unsigned long long)st->st_ino, (unsigned long long)st->st_dev, path);
}

static bool before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

void quick_stamp_start(quick_stamp *q, uint64_t options, struct timespec since)
{
    memset(q, 0, sizeof *q);
    q->options = options;
    q->since = since;
    q->settled = true;
}

void quick_stamp_add(quick_stamp *q, const char *path, quick_role role)
{
    struct stat st;
    q->outputs += role == QUICK_OUTPUT;
    if (strchr(path, '\n')) q->settled = false; /* a name the line format cannot hold */
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) q->settled = false;
        buf_printf(&q->files, "missing %s\n", path);
        return;
    }
    /* Changed since the run began: what it read may not be what stat shows now. */
    if (role == QUICK_INPUT && !before(st.st_ctim, q->since)) q->settled = false;
    put_file_line(&q->files, &st, path);
}

void quick_stamp_format(const quick_stamp *q, buf *out)
{
    buf_printf(out, "%s%016" PRIx64 "\noutputs %zu\n", quick_magic, q->options, q->outputs);
    buf_put(out, q->files.data, q->files.len);
    buf_puts(out, "end\n");
}

void quick_stamp_free(quick_stamp *q) { buf_free(&q->files); }

/* One line of a quick stamp (without its newline) against the file system now. */
static bool quick_line_holds(const char *line, size_t len, buf *scratch)
{
    if (len > 8 && memcmp(line, "missing ", 8) == 0) {
        char *path = xstrndup(line + 8, len - 8);
        struct stat st;
        bool gone = stat(path, &st) != 0 && errno == ENOENT;
        free(path);
        return gone;
    }
    const char *path = line;
    for (int field = 0; field < 7 && path; field++) { /* "file" and six numbers before the path */
        path = memchr(path, ' ', len - (size_t)(path - line));
        if (path) path++;
    }
    if (!path || len < 5 || memcmp(line, "file ", 5) != 0) return false;
    char *name = xstrndup(path, len - (size_t)(path - line));
    struct stat st;
    scratch->len = 0;
    bool same = stat(name, &st) == 0;
    if (same) put_file_line(scratch, &st, name);
    free(name);
    return same && scratch->len == len + 1 && memcmp(scratch->data, line, len) == 0;
}

/* The header's "options HEX\noutputs N\n" for these options: where the lines of files start. */
static const char *quick_header_end(const buf *text, uint64_t options, size_t *outputs)
{
    size_t magic = sizeof quick_magic - 1;
    if (text->len < magic + 32 || memcmp(text->data, quick_magic, magic) != 0) return NULL;
    char *p;
    if (strtoull(text->data + magic, &p, 16) != options || strncmp(p, "\noutputs ", 9) != 0) return NULL;
    *outputs = (size_t)strtoull(p + 9, &p, 10);
    return *p == '\n' ? p + 1 : NULL;
}

bool quick_stamp_holds(const char *path, uint64_t options, size_t *outputs)
{
    buf text = {0}, scratch = {0};
    const char *p = fs_read_file(path, &text) ? quick_header_end(&text, options, outputs) : NULL;
    const char *end = p ? text.data + text.len - 4 : NULL;
    bool ok = p && p <= end && memcmp(end, "end\n", 4) == 0;
    while (ok && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        ok = nl && quick_line_holds(p, (size_t)(nl - p), &scratch);
        p = nl ? nl + 1 : end;
    }
    buf_free(&text);
    buf_free(&scratch);
    return ok;
}
