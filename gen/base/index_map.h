/* An open-addressing set of element indices of a caller's array, placed by a 32-bit hash of the
 * element; the caller confirms candidates (it owns the keys). Linear probing, load at most one
 * half. A slot is 8 bytes (hash and index): a domain may hold a million entries. */
#ifndef TLG_INDEX_MAP_H
#define TLG_INDEX_MAP_H

#include "base/util.h"

typedef bool (*index_map_eq)(const void *ctx, uint32_t index);

typedef struct index_slot {
    uint32_t hash;  /* the element's hash: most mismatches are refused without touching it */
    uint32_t index; /* element index + 1; 0 marks an empty slot */
} index_slot;

typedef struct index_map {
    index_slot *slots;
    size_t mask, count;
} index_map;

/* Room for `expected` elements without growing. */
void index_map_init(index_map *m, size_t expected);
void index_map_free(index_map *m);
void index_map_insert(index_map *m, uint32_t hash, uint32_t index);

/* Every hash goes through a finalizer (murmur3's fmix32) before it picks a slot, so hashes with
 * weak low bits (FNV of names that differ in their last digits) do not cluster. */
static inline uint32_t index_map_slot(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* Starts loading the slot `hash` probes first: a lookup issued a few elements ahead of its use
 * overlaps its cache miss with the work in between (a table of megabytes misses on every probe). */
TLG_PREFETCHER void index_map_prefetch(const index_map *m, uint32_t hash)
{
#if defined(__GNUC__)
    if (m->slots) __builtin_prefetch(&m->slots[index_map_slot(hash) & m->mask]);
#else
    (void)m, (void)hash;
#endif
}

/* The index of the first element with this hash that `eq` accepts, or UINT32_MAX. */
static inline uint32_t index_map_find(const index_map *m, uint32_t hash, index_map_eq eq, const void *ctx)
{
    if (!m->slots) return UINT32_MAX;
    for (size_t i = index_map_slot(hash) & m->mask;; i = (i + 1) & m->mask) {
        index_slot s = m->slots[i];
        if (!s.index) return UINT32_MAX;
        if (s.hash == hash && eq(ctx, s.index - 1)) return s.index - 1;
    }
}

/* Names, any ASCII case, placed by fnv1a_folded: name_of(ctx, i) gives element i's name. */
typedef const char *(*index_name_fn)(const void *ctx, uint32_t index);
/* The element named `name` (len bytes), any case, or UINT32_MAX. */
uint32_t index_map_find_name(const index_map *m, const char *name, size_t len, index_name_fn name_of, const void *ctx);
/* Element `index` under its name, unless one of that name (any case) is in already: the first
 * stays. The element held under the name. */
uint32_t index_map_add_name(index_map *m, uint32_t index, index_name_fn name_of, const void *ctx);

#endif
