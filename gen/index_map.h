/* An open-addressing set of element indices of a caller's array, placed by a 32-bit hash of the
 * element; the caller confirms candidates (it owns the keys). Linear probing, load at most one
 * half. Only indices are stored (4 bytes a slot): a domain may hold a million entries. */
#ifndef TLG_INDEX_MAP_H
#define TLG_INDEX_MAP_H

#include "util.h"

typedef bool (*index_map_eq)(const void *ctx, uint32_t index);
/* An element's hash again, for when the table grows. */
typedef uint32_t (*index_map_hash)(const void *ctx, uint32_t index);

typedef struct index_map {
    uint32_t *slots; /* element index + 1; 0 marks an empty slot */
    size_t mask, count;
    index_map_hash rehash;
    const void *ctx;
} index_map;

/* Room for `expected` elements without growing. */
void index_map_init(index_map *m, size_t expected, index_map_hash rehash, const void *ctx);
void index_map_free(index_map *m);
void index_map_insert(index_map *m, uint32_t hash, uint32_t index);

/* The index of the first element with this hash that `eq` accepts, or UINT32_MAX. */
static inline uint32_t index_map_find(const index_map *m, uint32_t hash, index_map_eq eq, const void *ctx)
{
    if (!m->slots) return UINT32_MAX;
    for (size_t i = hash & m->mask;; i = (i + 1) & m->mask) {
        uint32_t s = m->slots[i];
        if (!s) return UINT32_MAX;
        if (eq(ctx, s - 1)) return s - 1;
    }
}

#endif
