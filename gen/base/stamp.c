#include "base/stamp.h"

#include "base/fsio.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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

void hasher_add(hasher *h, const void *data, size_t len) { XXH3_64bits_update(&h->state, data, len); }

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
    char *p = text.data, *end = text.data + text.len;
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
        while ((n = read(fd, chunk, sizeof chunk)) > 0) XXH3_64bits_update(&state, chunk, (size_t)n);
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
