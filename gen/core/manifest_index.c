#include "core/manifest.h"

#include <string.h>

typedef struct key_probe {
    const manifest *m;
    const char *key;
    size_t len;
} key_probe;

static bool live_with_key(const void *ctx, uint32_t e)
{
    const key_probe *p = ctx;
    const entry *en = &p->m->entries.items[e];
    return !en->tombstone && en->key_len == p->len && memcmp(en->key, p->key, p->len) == 0;
}

void manifest_index_live_keys(const manifest *m, index_map *out)
{
    index_map_init(out, m->entries.count);
    for (size_t e = 0; e < m->entries.count; e++)
        if (!m->entries.items[e].tombstone)
            index_map_insert(out, fnv1a(m->entries.items[e].key, m->entries.items[e].key_len), (uint32_t)e);
}

uint32_t manifest_find_live_key(const index_map *by_key, const manifest *m, const char *key, size_t len)
{
    key_probe p = {m, key, len};
    return index_map_find(by_key, fnv1a(key, len), live_with_key, &p);
}

typedef struct value_probe {
    const manifest *m;
    uint32_t value;
} value_probe;

static bool with_value(const void *ctx, uint32_t e)
{
    const value_probe *p = ctx;
    return p->m->entries.items[e].value == p->value;
}

void manifest_index_values(const manifest *m, index_map *out)
{
    index_map_init(out, m ? m->entries.count : 0);
    for (size_t e = 0; m && e < m->entries.count; e++) {
        uint32_t value = m->entries.items[e].value;
        if (manifest_find_value(out, m, value) == UINT32_MAX) index_map_insert(out, value, (uint32_t)e); /* the first */
    }
}

uint32_t manifest_find_value(const index_map *by_value, const manifest *m, uint32_t value)
{
    value_probe p = {m, value};
    return m ? index_map_find(by_value, value, with_value, &p) : UINT32_MAX;
}
