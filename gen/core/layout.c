/* gen/core/layout.c - byte layout of inline collections (see layout.h; the runtime's mem.h is the
 * reference). Plain C99, no dependencies, so any stage or test can link it. */
#include "core/layout.h"

#include <string.h>

#include <xxhash.h>

/* Collection sizes stay far below 2^63, so each product is checked against the limit before it is
 * formed: no intermediate can wrap. */
static uint64_t layout_total(uint64_t header, uint64_t capacity, uint64_t stride)
{
    if (capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return 0;
    if (stride == 0 || stride > LAYOUT_MAX_BYTES || header > LAYOUT_MAX_BYTES) return 0;
    if (capacity > (LAYOUT_MAX_BYTES - header) / stride) return 0;
    return header + capacity * stride;
}

static bool layout_size_ok(uint64_t size) { return size >= 1 && size <= LAYOUT_MAX_ELEMENT_SIZE; }

uint64_t layout_align(uint64_t size) { return (size + (LAYOUT_ALIGNMENT - 1)) & ~(uint64_t)(LAYOUT_ALIGNMENT - 1); }

uint64_t layout_array_bytes(uint64_t capacity, uint64_t element_size)
{
    if (!layout_size_ok(element_size)) return 0;
    return layout_total(0, capacity, layout_align(element_size));
}

uint64_t layout_sequence_bytes(uint64_t capacity, uint64_t element_size)
{
    if (!layout_size_ok(element_size)) return 0;
    return layout_total(LAYOUT_HEADER_BYTES, capacity, layout_align(element_size));
}

uint64_t layout_table_control_bytes(uint64_t capacity)
{
    if (capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return 0;
    return 2 * layout_align(capacity);
}

uint64_t layout_table_slots_offset(uint64_t capacity)
{
    const uint64_t control = layout_table_control_bytes(capacity);
    return control ? LAYOUT_HEADER_BYTES + control : 0;
}

uint64_t layout_set_slot_bytes(uint64_t element_size)
{
    if (!layout_size_ok(element_size)) return 0;
    return layout_align(element_size);
}

uint64_t layout_set_bytes(uint64_t capacity, uint64_t element_size)
{
    const uint64_t slots = layout_table_slots_offset(capacity);
    return slots ? layout_total(slots, capacity, layout_set_slot_bytes(element_size)) : 0;
}

uint64_t layout_dict_slot_bytes(uint64_t key_size, uint64_t value_size)
{
    if (!layout_size_ok(key_size) || value_size > LAYOUT_MAX_ELEMENT_SIZE) return 0;
    return layout_align(key_size) + layout_align(value_size);
}

uint64_t layout_dict_bytes(uint64_t capacity, uint64_t key_size, uint64_t value_size)
{
    const uint64_t slots = layout_table_slots_offset(capacity);
    return slots ? layout_total(slots, capacity, layout_dict_slot_bytes(key_size, value_size)) : 0;
}

uint64_t layout_dict_value_offset(uint64_t key_size)
{
    if (!layout_size_ok(key_size)) return 0;
    return layout_align(key_size);
}

uint64_t layout_collection_bytes(layout_kind kind, uint64_t capacity, uint64_t element_size, uint64_t value_size)
{
    switch (kind) {
    case LAYOUT_ARRAY: return layout_array_bytes(capacity, element_size);
    case LAYOUT_LIST:
    case LAYOUT_QUEUE:
    case LAYOUT_STACK: return layout_sequence_bytes(capacity, element_size);
    case LAYOUT_HASHSET: return layout_set_bytes(capacity, element_size);
    case LAYOUT_DICT: return layout_dict_bytes(capacity, element_size, value_size);
    case LAYOUT_KIND_COUNT: break;
    }
    return 0;
}

const char *layout_check(layout_kind kind, uint64_t capacity, uint64_t element_size, uint64_t value_size)
{
    if ((unsigned)kind >= (unsigned)LAYOUT_KIND_COUNT) return "unknown collection kind";
    if (capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return "capacity must be between 1 and 2147483647";
    if (!layout_size_ok(element_size))
        return kind == LAYOUT_DICT ? "key size must be between 1 and 1073741824 bytes"
                                   : "element size must be between 1 and 1073741824 bytes";
    if (kind == LAYOUT_DICT && value_size > LAYOUT_MAX_ELEMENT_SIZE) return "value size must be at most 1073741824 bytes";
    if (layout_collection_bytes(kind, capacity, element_size, value_size) == 0) return "collection larger than 1073741823 bytes";
    return NULL;
}

static const char *const layout_names[LAYOUT_KIND_COUNT] = {
    "InlineArray", "InlineList", "InlineQueue", "InlineStack", "InlineHashSet", "InlineDictionary",
};

static const char *const layout_prefixes[LAYOUT_KIND_COUNT] = {
    "tl_inline_array", "tl_inline_list", "tl_inline_queue", "tl_inline_stack", "tl_inline_hashset", "tl_inline_dict",
};

const char *layout_kind_name(layout_kind kind)
{
    return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT ? layout_names[kind] : NULL;
}

const char *layout_kind_runtime_prefix(layout_kind kind)
{
    return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT ? layout_prefixes[kind] : NULL;
}

bool layout_kind_from_name(const char *name, layout_kind *kind)
{
    int i;
    if (!name) return false;
    for (i = 0; i < (int)LAYOUT_KIND_COUNT; i++) {
        if (strcmp(name, layout_names[i]) == 0) {
            if (kind) *kind = (layout_kind)i;
            return true;
        }
    }
    return false;
}

bool layout_kind_has_header(layout_kind kind) { return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT && kind != LAYOUT_ARRAY; }

bool layout_kind_has_value(layout_kind kind) { return kind == LAYOUT_DICT; }

/* ---- table images: the runtime's insertion rule (collections.h, tl__table_insert) ---- */

static uint32_t layout_home(uint32_t hash, uint32_t capacity) { return (uint32_t)(((uint64_t)hash * capacity) >> 32); }

/* Control byte of an entry `distance` slots past its home: 0 is empty, 255 any distance >= 254. */
static unsigned char layout_control_of(uint32_t distance) { return (unsigned char)(distance < 254 ? distance + 1 : 255); }

bool layout_table_insert(unsigned char *mem, uint32_t capacity, uint32_t key_size, uint32_t value_size, const void *key,
                         const void *value)
{
    const size_t stride = (size_t)layout_dict_slot_bytes(key_size, value_size);
    unsigned char *const control = mem + LAYOUT_HEADER_BYTES;
    unsigned char *fragments, *slots, *slot;
    uint32_t hash, index, distance, count, end, steps;
    if (!mem || !key || stride == 0 || capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return false;
    fragments = control + layout_align(capacity);
    slots = mem + layout_table_slots_offset(capacity);
    hash = (uint32_t)XXH32(key, key_size, 0);
    count = (uint32_t)mem[0] | (uint32_t)mem[1] << 8 | (uint32_t)mem[2] << 16 | (uint32_t)mem[3] << 24;
    index = layout_home(hash, capacity);
    /* Walk from home: stop at a free slot, or before an entry closer to its home than this key
   * would be (the Robin Hood insertion point); a present key is refused on the way. Distances
   * come from the entries' hashes, so the saturated control byte needs no special case. */
    for (distance = 0; distance < capacity; distance++) {
        const unsigned char *at = slots + (size_t)index * stride;
        uint32_t home, resident;
        if (control[index] == 0) break;
        home = layout_home((uint32_t)XXH32(at, key_size, 0), capacity);
        resident = index >= home ? index - home : index + (capacity - home);
        if (resident < distance) break;
        if (resident == distance && memcmp(at, key, key_size) == 0) return false;
        index = index + 1 == capacity ? 0 : index + 1;
    }
    if (distance == capacity || count >= capacity) return false;
    /* The rest of the run, up to the next free slot, moves one slot on, each entry one slot
   * further from its home. */
    for (end = index, steps = 0; control[end] != 0; steps++) {
        if (steps == capacity) return false; /* the count said there was room, no slot is free */
        end = end + 1 == capacity ? 0 : end + 1;
    }
    while (end != index) {
        const uint32_t prev = end == 0 ? capacity - 1 : end - 1;
        memcpy(slots + (size_t)end * stride, slots + (size_t)prev * stride, stride);
        fragments[end] = fragments[prev];
        control[end] = layout_control_of(control[prev]); /* one slot further: distance + 1 */
        end = prev;
    }
    control[index] = layout_control_of(distance);
    fragments[index] = (unsigned char)(hash & 0xFFu);
    slot = slots + (size_t)index * stride;
    memset(slot, 0, stride);
    memcpy(slot, key, key_size);
    if (value && value_size) memcpy(slot + layout_align(key_size), value, value_size);
    count++;
    mem[0] = (unsigned char)count;
    mem[1] = (unsigned char)(count >> 8);
    mem[2] = (unsigned char)(count >> 16);
    mem[3] = (unsigned char)(count >> 24);
    return true;
}
