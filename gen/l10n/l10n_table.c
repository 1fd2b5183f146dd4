/* A locale's table, in the runtime's format (threadlink/l10n.h, TABLE FORMAT): a 64-byte header,
 * an entry per key in the keys' order, the plural entries' form offsets, the plural rule's code
 * and the strings (each distinct text once). The same inputs give the same bytes. The layout
 * hash ties a table to the header of the same keys: their names, in order, with each key's
 * plural flag, counting parameter and placeholder types. */
#include "l10n/l10n_model.h"

#include "base/index_map.h"

#include <xxhash.h>

#include <string.h>

#define TABLE_HEADER 64
#define FLAG_ARGS 1u

static void put_u16(buf *b, uint32_t v)
{
    buf_putc(b, (char)(v & 0xff));
    buf_putc(b, (char)(v >> 8 & 0xff));
}

static void put_u32(buf *b, uint32_t v)
{
    put_u16(b, v & 0xffff);
    put_u16(b, v >> 16);
}

static void put_u64(buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

uint64_t text_layout(const text_state *st)
{
    static const char types[] = "?ius";
    buf b = {0};
    buf_puts(&b, "tltext-layout 1\n");
    for (size_t k = 0; k < st->keys.count; k++) {
        const text_key *key = &st->keys.items[k];
        buf_put(&b, key->name, strlen(key->name) + 1);
        buf_putc(&b, key->plural ? 'p' : 's');
        buf_putc(&b, (char)(key->plural ? key->count_param : 0xff));
        for (size_t i = 0; i < key->params.count; i++) buf_putc(&b, types[key->params.items[i].type]);
        buf_putc(&b, '\n');
    }
    uint64_t h = XXH64(b.data, b.len, 0);
    buf_free(&b);
    return h;
}

/* The strings section: each distinct text once, NUL-terminated. */
typedef struct string_pool {
    buf bytes;
    VEC(uint32_t) offsets; /* of each distinct string, for the map */
    index_map map;
} string_pool;

typedef struct pool_probe {
    const string_pool *pool;
    const char *s;
    size_t n;
} pool_probe;

static bool pool_holds(const void *ctx, uint32_t i)
{
    const pool_probe *p = ctx;
    const char *at = p->pool->bytes.data + p->pool->offsets.items[i];
    return strlen(at) == p->n && memcmp(at, p->s, p->n) == 0;
}

static uint32_t pool_add(string_pool *pool, const char *s, size_t n)
{
    pool_probe probe = {pool, s, n};
    uint32_t h = XXH32(s, n, 0);
    uint32_t i = index_map_find(&pool->map, h, pool_holds, &probe);
    if (i != UINT32_MAX) return pool->offsets.items[i];
    uint32_t offset = (uint32_t)pool->bytes.len;
    buf_put(&pool->bytes, s, n);
    buf_putc(&pool->bytes, '\0');
    *vec_push(&pool->offsets) = offset;
    index_map_insert(&pool->map, h, (uint32_t)(pool->offsets.count - 1));
    return offset;
}

/* Entries and form offsets of every key, their strings into the pool. */
static void build_entries(const text_state *st, const text_locale *l, string_pool *pool, buf *entries, buf *forms)
{
    uint32_t form_count = 0;
    for (size_t k = 0; k < st->keys.count; k++) {
        const text_forms *t = &l->texts[k];
        uint32_t flags = st->keys.items[k].params.count ? FLAG_ARGS : 0;
        if (t->forms.count == 0) {
            put_u32(entries, 0), put_u16(entries, 0), put_u16(entries, 0);
            continue;
        }
        if (t->forms.count == 1) {
            put_u32(entries, pool_add(pool, t->forms.items[0].data, t->forms.items[0].len));
        } else {
            put_u32(entries, form_count);
            for (size_t f = 0; f < t->forms.count; f++)
                put_u32(forms, pool_add(pool, t->forms.items[f].data, t->forms.items[f].len));
            form_count += (uint32_t)t->forms.count;
        }
        put_u16(entries, (uint32_t)t->forms.count);
        put_u16(entries, flags);
    }
}

static void put_header(buf *out, const text_state *st, const text_locale *l, uint32_t forms, uint32_t strings, uint32_t locale,
                       uint64_t body_hash)
{
    buf_put(out, "TLTEXT\0\x1A", 8);
    put_u32(out, 1);
    put_u32(out, 0);
    put_u64(out, st->layout);
    put_u32(out, (uint32_t)st->keys.count);
    put_u32(out, l->plural.nplurals);
    put_u32(out, forms);
    put_u32(out, (uint32_t)l->plural.code.len);
    put_u32(out, strings);
    put_u32(out, locale);
    put_u64(out, body_hash);
    put_u32(out, 0);
    put_u32(out, 0);
}

void text_build_table(const text_state *st, text_locale *l)
{
    string_pool pool = {0};
    buf entries = {0}, forms = {0}, body = {0};
    index_map_init(&pool.map, st->keys.count * 2 + 1);
    uint32_t locale = pool_add(&pool, l->name, strlen(l->name));
    build_entries(st, l, &pool, &entries, &forms);
    buf_put(&body, entries.data ? entries.data : "", entries.len);
    buf_put(&body, forms.data ? forms.data : "", forms.len);
    buf_put(&body, l->plural.code.data ? l->plural.code.data : "", l->plural.code.len);
    buf_put(&body, pool.bytes.data, pool.bytes.len);
    l->table_bytes.len = 0;
    put_header(&l->table_bytes, st, l, (uint32_t)(forms.len / 4), (uint32_t)pool.bytes.len, locale,
               XXH64(body.data, body.len, 0));
    buf_put(&l->table_bytes, body.data, body.len);
    buf_free(&entries);
    buf_free(&forms);
    buf_free(&body);
    buf_free(&pool.bytes);
    vec_free(&pool.offsets);
    index_map_free(&pool.map);
}
