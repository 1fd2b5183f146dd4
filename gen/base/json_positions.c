#include "base/json_positions.h"

#include "base/index_map.h"
#include "base/json_check.h"
#include "base/lex_json.h"

#include <stdlib.h>

typedef struct position {
    size_t path; /* offset of the NUL-terminated key path in `paths` */
    src_loc loc;
} position;

struct json_positions {
    const char *file, *text;
    size_t len;
    buf paths;
    VEC(position) at;
    index_map index; /* by fnv1a of the path */
};

typedef struct walker {
    json_positions *p;
    json_lexer lx;
    buf path; /* the path of the value being walked */
} walker;

/* json_locate's answer for a path: a last key segment's key, a last index segment's value. */
static void record(walker *w, src_loc loc)
{
    json_positions *p = w->p;
    position *pos = vec_push(&p->at);
    pos->path = p->paths.len;
    pos->loc = loc;
    buf_put(&p->paths, w->path.data ? w->path.data : "", w->path.len + 1);
    index_map_insert(&p->index, fnv1a(w->path.data ? w->path.data : "", w->path.len), (uint32_t)(p->at.count - 1));
}

static void truncate_path(walker *w, size_t len)
{
    w->path.len = len;
    if (w->path.data) w->path.data[len] = 0;
}

static bool walk_value(walker *w, json_tok t, int depth);

static bool walk_object(walker *w, int depth)
{
    size_t base = w->path.len;
    json_tok k = json_next(&w->lx);
    if (k.kind == JT_RBRACE) return true;
    for (;;) {
        if (k.kind != JT_STRING) return false;
        if (base) buf_putc(&w->path, '.');
        buf_put(&w->path, k.text, k.len);
        record(w, k.loc);
        if (json_next(&w->lx).kind != JT_COLON || !walk_value(w, json_next(&w->lx), depth + 1)) return false;
        truncate_path(w, base);
        json_tok n = json_next(&w->lx);
        if (n.kind == JT_RBRACE) return true;
        if (n.kind != JT_COMMA) return false;
        k = json_next(&w->lx);
    }
}

static bool walk_array(walker *w, int depth)
{
    size_t base = w->path.len;
    for (size_t i = 0;; i++) {
        json_tok e = json_next(&w->lx);
        if (i == 0 && e.kind == JT_RBRACKET) return true;
        buf_printf(&w->path, "[%zu]", i);
        record(w, e.loc);
        if (!walk_value(w, e, depth + 1)) return false;
        truncate_path(w, base);
        json_tok n = json_next(&w->lx);
        if (n.kind == JT_RBRACKET) return true;
        if (n.kind != JT_COMMA) return false;
    }
}

static bool walk_value(walker *w, json_tok t, int depth)
{
    if (depth > 512) return false; /* json_locate's limit too; jansson's is lower */
    if (t.kind == JT_LBRACE) return walk_object(w, depth);
    if (t.kind == JT_LBRACKET) return walk_array(w, depth);
    return t.kind != JT_EOF && t.kind != JT_ERROR;
}

json_positions *json_positions_build(const char *file, const char *text, size_t len)
{
    json_positions *p = xcalloc(1, sizeof *p);
    p->file = file, p->text = text, p->len = len;
    index_map_init(&p->index, len / 16);
    walker w = {.p = p};
    json_lexer_init(&w.lx, file, text, len);
    json_tok first = json_next(&w.lx);
    record(&w, first.loc);
    walk_value(&w, first, 0);
    json_lexer_free(&w.lx);
    free(w.path.data);
    return p;
}

typedef struct lookup {
    const json_positions *p;
    const char *path;
} lookup;

static bool same_path(const void *ctx, uint32_t index)
{
    const lookup *l = ctx;
    return strcmp(l->p->paths.data + l->p->at.items[index].path, l->path) == 0;
}

src_loc json_positions_find(const json_positions *p, const char *path)
{
    lookup l = {p, path};
    uint32_t i = index_map_find(&p->index, fnv1a(path, strlen(path)), same_path, &l);
    if (i == UINT32_MAX) return json_locate(p->file, p->text, p->len, path); /* where its walk stops */
    src_loc loc = p->at.items[i].loc;
    loc.file = p->file;
    return loc;
}

void json_positions_free(json_positions *p)
{
    if (!p) return;
    free(p->paths.data);
    vec_free(&p->at);
    index_map_free(&p->index);
    free(p);
}
