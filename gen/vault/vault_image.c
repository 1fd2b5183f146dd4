/* A data file's binary image, for development builds that reload vault data while the game runs
 * (threadlink-gen watch writes one per data file; runtime/threadlink/vault.h reads it). The
 * format is vault.h's "Image format": a "TLVI" header, then per instance its id and the instance
 * as a vault save ("TLVT"), every serialised field with the value the data header bakes.
 *
 * Collections are written element by element in authored order, a hash set's or dictionary's
 * too: the runtime reads them into an emptied table in that order, which is the insertion the
 * baked bytes come from (vault_bake.c), so an unchanged value reads back as the same bytes and
 * fires no change event. */
#include "vault/vault_model.h"

static void put_u32(buf *b, uint32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    buf_put(b, le, 4);
}

/* Overwrites 4 bytes at `at` (a length known once its payload is written). */
static void patch_u32(buf *b, size_t at, uint32_t v)
{
    for (int k = 0; k < 4; k++) b->data[at + (size_t)k] = (char)(unsigned char)(v >> (8 * k));
}

static void put_scalar_wire(buf *b, vtype t, const vscalar *v)
{
    unsigned char bytes[32];
    vault_scalar_bytes(t, v, bytes);
    buf_put(b, bytes, vtype_size(t));
}

/* u32 count, then each element (a dictionary: key, value); an array has all its slots, those
 * past the authored ones zero. */
static void put_collection_wire(buf *b, const vfield *f, const vvalue *v)
{
    static const vscalar zero;
    uint32_t authored = v->present ? (uint32_t)v->keys.count : 0;
    uint32_t count = f->kind == LAYOUT_ARRAY ? f->capacity : authored;
    put_u32(b, count);
    for (uint32_t i = 0; i < count; i++) {
        put_scalar_wire(b, f->element, i < authored ? &v->keys.items[i] : &zero);
        if (f->kind == LAYOUT_DICT) put_scalar_wire(b, f->value, &v->values.items[i]);
    }
}

static void put_payload(buf *b, const vfield *f, const vvalue *v)
{
    static const vscalar zero;
    if (f->type == VT_COLLECTION) {
        put_collection_wire(b, f, v);
    } else if (f->type == VT_STRING) {
        if (v->present && v->one.s) buf_puts(b, v->one.s);
    } else {
        put_scalar_wire(b, f->type, v->present ? &v->one : &zero);
    }
}

/* One instance as tl_vault_write would write it: header, then a record per serialised field. */
static void put_save(buf *b, const vschema *s, const vvalue *values)
{
    size_t records_at;
    uint32_t records = 0;
    buf_put(b, "TLVT", 4);
    put_u32(b, 1); /* version 1, flags 0 */
    put_u32(b, s->vault_id);
    records_at = b->len;
    put_u32(b, 0);
    for (size_t i = 0; i < s->fields.count; i++) {
        const vfield *f = &s->fields.items[i];
        if (f->transient) continue;
        const vvalue *v = values[i].present ? &values[i] : &f->def;
        put_u32(b, f->id);
        put_u32(b, vfield_tag(f));
        size_t len_at = b->len;
        put_u32(b, 0);
        put_payload(b, f, v);
        patch_u32(b, len_at, (uint32_t)(b->len - len_at - 4));
        records++;
    }
    patch_u32(b, records_at, records);
}

void vault_emit_image(const vdata *d, out_file *o)
{
    buf *b = &o->chunk;
    buf_put(b, "TLVI", 4);
    put_u32(b, 1); /* version 1, flags 0 */
    put_u32(b, d->schema->vault_id);
    put_u32(b, (uint32_t)d->instances.count);
    for (size_t i = 0; i < d->instances.count; i++) {
        put_u32(b, d->instances.items[i].id);
        size_t len_at = b->len;
        put_u32(b, 0);
        put_save(b, d->schema, d->instances.items[i].values);
        patch_u32(b, len_at, (uint32_t)(b->len - len_at - 4));
    }
}
