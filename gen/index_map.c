#include "index_map.h"

#include <stdlib.h>

static void place(index_map *m, uint32_t hash, uint32_t index)
{
    size_t i = hash & m->mask;
    while (m->slots[i]) i = (i + 1) & m->mask;
    m->slots[i] = index + 1;
    m->count++;
}

static void allocate(index_map *m, size_t capacity)
{
    m->slots = xcalloc(capacity, sizeof *m->slots);
    m->mask = capacity - 1;
    m->count = 0;
}

void index_map_init(index_map *m, size_t expected, index_map_hash rehash, const void *ctx)
{
    size_t capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    m->rehash = rehash;
    m->ctx = ctx;
    allocate(m, capacity);
}

void index_map_free(index_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->mask = m->count = 0;
}

void index_map_insert(index_map *m, uint32_t hash, uint32_t index)
{
    if ((m->count + 1) * 2 > m->mask + 1) {
        uint32_t *old = m->slots;
        size_t old_capacity = m->mask + 1;
        allocate(m, old_capacity * 2);
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i]) place(m, m->rehash(m->ctx, old[i] - 1), old[i] - 1);
        free(old);
    }
    place(m, hash, index);
}
