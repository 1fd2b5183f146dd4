#include "index_map.h"

#include <stdlib.h>

static void rebuild(index_map *m, size_t capacity)
{
    index_map old = *m;
    m->hashes = xcalloc(capacity, sizeof *m->hashes);
    m->slots = xcalloc(capacity, sizeof *m->slots);
    m->mask = capacity - 1;
    m->count = 0;
    if (old.slots) {
        for (size_t i = 0; i <= old.mask; i++)
            if (old.slots[i]) index_map_insert(m, old.hashes[i], old.slots[i] - 1);
        free(old.hashes);
        free(old.slots);
    }
}

void index_map_init(index_map *m, size_t expected)
{
    size_t capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    m->hashes = NULL;
    m->slots = NULL;
    rebuild(m, capacity);
}

void index_map_free(index_map *m)
{
    free(m->hashes);
    free(m->slots);
    m->hashes = m->slots = NULL;
    m->mask = m->count = 0;
}

void index_map_insert(index_map *m, uint32_t hash, uint32_t index)
{
    if (!m->slots) index_map_init(m, 8);
    if ((m->count + 1) * 2 > m->mask + 1) rebuild(m, (m->mask + 1) * 2);
    size_t i = hash & m->mask;
    while (m->slots[i]) i = (i + 1) & m->mask;
    m->hashes[i] = hash;
    m->slots[i] = index + 1;
    m->count++;
}
