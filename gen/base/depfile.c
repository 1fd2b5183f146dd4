#include "base/depfile.h"

#include "base/diag.h"
#include "base/fsio.h"
#include "base/index_map.h"
#include "base/output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A path as Make and Ninja read depfiles (and gcc -MD writes them): a space, tab, '#' or ':' gets a
 * backslash, and the backslashes right before it (or at the end of the path, where a separator
 * follows) are doubled; '$' is doubled; any other backslash stands as it is. */
static void put_make_path(buf *b, const char *path)
{
    for (const char *p = path;; p++) {
        if (*p == ' ' || *p == '\t' || *p == '#' || *p == ':' || *p == '\0') {
            for (const char *q = p; q > path && q[-1] == '\\'; q--) buf_putc(b, '\\');
            if (*p == '\0') return;
            buf_putc(b, '\\');
        }
        if (*p == '$') buf_putc(b, '$');
        buf_putc(b, *p);
    }
}

char *depfile_absolute(const char *path)
{
    char *real = realpath(path, NULL);
    if (real) return real;
    char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
    if (!cwd) return xstrdup(path);
    char *joined = path_join(cwd, path);
    free(cwd);
    return joined;
}

char *depfile_existing_ancestor(const char *path)
{
    char *p = depfile_absolute(path);
    while (fs_kind_follow(p) == FS_MISSING && strcmp(p, "/") != 0) {
        char *parent = path_dirname(p);
        free(p);
        p = parent;
    }
    return p;
}

typedef struct input_probe {
    char *const *inputs;
    const char *path;
} input_probe;

static bool same_input(const void *ctx, uint32_t i)
{
    const input_probe *p = ctx;
    return strcmp(p->inputs[i], p->path) == 0;
}

/* The inputs in order, each once (several manifests not written yet share one folder), through
 * a hash set: a content profile can name many thousands of files. */
static size_t unique_inputs(char *const *inputs, size_t count, const char **out)
{
    index_map seen;
    index_map_init(&seen, count);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        input_probe probe = {inputs, inputs[i]};
        uint32_t h = fnv1a_folded(inputs[i], strlen(inputs[i]));
        if (index_map_find(&seen, h, same_input, &probe) != UINT32_MAX) continue;
        index_map_insert(&seen, h, (uint32_t)i);
        out[n++] = inputs[i];
    }
    index_map_free(&seen);
    return n;
}

bool depfile_write(const char *path, const char *target, char *const *inputs, size_t count)
{
    const char **unique = xcalloc(count ? count : 1, sizeof *unique);
    size_t n = unique_inputs(inputs, count, unique);
    buf b = {0};
    put_make_path(&b, target);
    buf_putc(&b, ':');
    for (size_t i = 0; i < n; i++) {
        buf_puts(&b, " \\\n  ");
        put_make_path(&b, unique[i]);
    }
    buf_putc(&b, '\n');
    for (size_t i = 0; i < n; i++) {
        buf_putc(&b, '\n');
        put_make_path(&b, unique[i]);
        buf_puts(&b, ":\n");
    }
    free(unique);
    output_set set = {.mode = OUTPUT_WRITE};
    out_file *o = output_begin(&set, path);
    buf_put(&o->chunk, b.data, b.len);
    bool ok = output_end(o) && output_commit(&set);
    if (!ok) diag_error(loc_file(path), "cannot write the depfile");
    output_set_free(&set);
    buf_free(&b);
    return ok;
}
