/* Values as the runtime holds them in memory: scalars as their native bytes, inline collections
 * as the exact bytes the runtime's own operations (collections.h) leave after adding the elements
 * in order. Hash sets and dictionaries are placed by the same Robin Hood insertion; tests/vault
 * compares every baked collection with one built by the runtime. The target is little-endian
 * (the generated headers refuse big-endian targets where they hold baked collections). */
#include "vault/vault_model.h"

static void put_le(unsigned char *out, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) out[i] = (unsigned char)(v >> (8 * i));
}

void vault_scalar_bytes(vtype t, const vscalar *v, unsigned char *out)
{
    uint32_t n = vtype_components(t);
    for (uint32_t k = 0; k < n; k++) {
        switch (t) {
        case VT_INTEGER:
        case VT_INTEGER2D:
        case VT_ASSETREF:
        case VT_LOCALIZEDTEXT: put_le(out + 4 * k, (uint64_t)v->i[k], 4); break;
        case VT_LONG:
        case VT_FP:
        case VT_FPVECTOR2:
        case VT_FPVECTOR3:
        case VT_FPQUATERNION: put_le(out + 8 * k, (uint64_t)v->i[k], 8); break;
        case VT_BOOLEAN: out[k] = v->i[k] ? 1 : 0; break;
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
    case LAYOUT_LIST:
    case LAYOUT_QUEUE:
    case LAYOUT_STACK:
        /* count, then (queue) head 0, then the elements from slot 0 */
        put_le(out, count, 4);
        for (uint32_t i = 0; i < count; i++)
            vault_scalar_bytes(f->element, &v->keys.items[i], out + LAYOUT_HEADER_BYTES + i * stride);
        break;
    case LAYOUT_HASHSET:
    case LAYOUT_DICT:
        for (uint32_t i = 0; i < count; i++) {
            vault_scalar_bytes(f->element, &v->keys.items[i], key);
            if (vsize) vault_scalar_bytes(f->value, &v->values.items[i], value);
            /* The runtime's insertion rule, from its one copy in the generator (gen/core/layout.c). */
            layout_table_insert(out, f->capacity, esize, vsize, key, vsize ? value : NULL);
        }
        break;
    default: break;
    }
}
