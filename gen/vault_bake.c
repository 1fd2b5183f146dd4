/* Values as the runtime holds them in memory: scalars as their native bytes, inline collections
 * as the exact bytes the runtime's own operations (mem_inline.h) leave after adding the elements
 * in order. Hash sets and dictionaries are placed by the same Robin Hood insertion; tests/vault
 * compares every baked collection with one built by the runtime. The target is little-endian
 * (the generated headers refuse big-endian targets where they hold baked collections). */
#include "vault_model.h"

#include <xxhash.h>

static void put_le(unsigned char *out, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) out[i] = (unsigned char)(v >> (8 * i));
}

void vault_scalar_bytes(vtype t, const vscalar *v, unsigned char *out)
{
    uint32_t n = vtype_components(t);
    for (uint32_t k = 0; k < n; k++) {
        switch (t) {
        case VT_INTEGER: case VT_INTEGER2D: case VT_ASSETREF:
            put_le(out + 4 * k, (uint64_t)v->i[k], 4);
            break;
        case VT_LONG: case VT_FP: case VT_FPVECTOR2: case VT_FPVECTOR3: case VT_FPQUATERNION:
            put_le(out + 8 * k, (uint64_t)v->i[k], 8);
            break;
        case VT_BOOLEAN:
            out[k] = v->i[k] ? 1 : 0;
            break;
        case VT_DOUBLE: {
            uint64_t bits;
            memcpy(&bits, &v->d[k], 8);
            put_le(out + 8 * k, bits, 8);
            break;
        }
        default: { /* float components */
            float f = (float)v->d[k];
            uint32_t bits;
            memcpy(&bits, &f, 4);
            put_le(out + 4 * k, bits, 4);
            break;
        }
        }
    }
}

static uint64_t get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static uint32_t home_of(uint32_t hash, uint32_t capacity) { return (uint32_t)(((uint64_t)hash * capacity) >> 32); }

/* tl__table_insert of mem_inline.h, for a key known to be absent and a table known to have room. */
static void table_insert(unsigned char *mem, uint32_t capacity, uint32_t key_size, uint32_t value_size,
                         const unsigned char *key, const unsigned char *value)
{
    const size_t stride = (size_t)layout_dict_slot_bytes(key_size, value_size);
    unsigned char *slots = mem + LAYOUT_HEADER_BYTES;
    const uint32_t hash = XXH32(key, key_size, 0);
    uint32_t index = home_of(hash, capacity);
    bool displace = false;
    for (uint32_t distance = 0; distance < capacity; distance++) {
        uint64_t state = get_le64(slots + index * stride);
        if ((state & 0xFF) != 1) break;
        uint32_t home = home_of((uint32_t)(state >> 32), capacity);
        uint32_t d = index >= home ? index - home : index + (capacity - home);
        if (d < distance) {
            displace = true;
            break;
        }
        index = index + 1 == capacity ? 0 : index + 1;
    }
    if (displace) {
        /* The rest of the run moves one slot on, up to the next free slot. */
        uint32_t end = index;
        do end = end + 1 == capacity ? 0 : end + 1;
        while ((get_le64(slots + end * stride) & 0xFF) == 1);
        for (uint32_t j = end; j != index;) {
            uint32_t prev = j == 0 ? capacity - 1 : j - 1;
            memcpy(slots + j * stride, slots + prev * stride, stride);
            j = prev;
        }
    }
    unsigned char *slot = slots + index * stride;
    memset(slot, 0, stride);
    put_le(slot, ((uint64_t)hash << 32) | 1, 8);
    memcpy(slot + LAYOUT_STATE_BYTES, key, key_size);
    if (value_size) memcpy(slot + layout_dict_value_offset(key_size), value, value_size);
    uint32_t count = (uint32_t)mem[0] | (uint32_t)mem[1] << 8 | (uint32_t)mem[2] << 16 | (uint32_t)mem[3] << 24;
    put_le(mem, count + 1, 4);
}

void vault_bake_collection(const vfield *f, const vvalue *v, unsigned char *out)
{
    uint32_t esize = vtype_size(f->element), vsize = f->kind == LAYOUT_DICT ? vtype_size(f->value) : 0;
    uint64_t total = layout_collection_bytes(f->kind, f->capacity, esize, vsize);
    memset(out, 0, (size_t)total);
    unsigned char key[32], value[32];
    uint32_t count = (uint32_t)v->keys.count;
    size_t stride = (size_t)layout_align(esize);
    switch (f->kind) {
    case LAYOUT_ARRAY:
        for (uint32_t i = 0; i < count; i++) vault_scalar_bytes(f->element, &v->keys.items[i], out + i * stride);
        break;
    case LAYOUT_LIST: case LAYOUT_QUEUE: case LAYOUT_STACK:
        /* count, then (queue) head 0, then the elements from slot 0 */
        put_le(out, count, 4);
        for (uint32_t i = 0; i < count; i++)
            vault_scalar_bytes(f->element, &v->keys.items[i], out + LAYOUT_HEADER_BYTES + i * stride);
        break;
    case LAYOUT_HASHSET: case LAYOUT_DICT:
        for (uint32_t i = 0; i < count; i++) {
            vault_scalar_bytes(f->element, &v->keys.items[i], key);
            if (vsize) vault_scalar_bytes(f->value, &v->values.items[i], value);
            table_insert(out, f->capacity, esize, vsize, key, value);
        }
        break;
    default:
        break;
    }
}
