#include "base/index_map.h"

#include <stdlib.h>
#include <string.h>

static void place(index_map *m, uint32_t hash, uint32_t index)
{
    size_t i = index_map_slot(hash) & m->mask;
    while (m->slots[i].index) i = (i + 1) & m->mask;
    m->slots[i].hash = hash;
    m->slots[i].index = index + 1;
    m->count++;
}

static void allocate(index_map *m, size_t capacity)
{
    /* A table of megabytes is probed at random: huge pages spare a TLB miss per probe, and
     * filling it costs a few page faults. */
    m->slots = xcalloc(capacity, sizeof *m->slots);
    m->mask = capacity - 1;
    m->count = 0;
}

void index_map_init(index_map *m, size_t expected)
{
    size_t capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    allocate(m, capacity);
}

void index_map_free(index_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->mask = m->count = 0;
}

typedef struct name_probe {
    index_name_fn name_of;
    const void *ctx;
    const char *name;
    size_t len;
} name_probe;

static bool is_named(const void *ctx, uint32_t index)
{
    const name_probe *p = ctx;
    const char *name = p->name_of(p->ctx, index);
    return ascii_ieq(name, strlen(name), p->name, p->len);
}

uint32_t index_map_find_name(const index_map *m, const char *name, size_t len, index_name_fn name_of, const void *ctx)
{
    name_probe probe = {name_of, ctx, name, len};
    return index_map_find(m, fnv1a_folded(name, len), is_named, &probe);
}

uint32_t index_map_add_name(index_map *m, uint32_t index, index_name_fn name_of, const void *ctx)
{
    const char *name = name_of(ctx, index);
    size_t len = strlen(name);
    uint32_t held = index_map_find_name(m, name, len, name_of, ctx);
    if (held != UINT32_MAX) return held;
    index_map_insert(m, fnv1a_folded(name, len), index);
    return index;
}

void index_map_insert(index_map *m, uint32_t hash, uint32_t index)
{
    if ((m->count + 1) * 2 > m->mask + 1) {
        index_slot *old = m->slots;
        size_t old_capacity = m->mask + 1;
        allocate(m, old_capacity * 2);
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i].index) place(m, old[i].hash, old[i].index - 1);
        free(old);
    }
    place(m, hash, index);
}
