/* runtime/threadlink/vault.h beyond the golden tests: field lookup by id for every field and for
 * absent ids, with hashed ids (the generated descriptor) and with clustered ids (a hand-made
 * descriptor, where guessing the rank from the id is useless); reading inputs of more records
 * than the reader memoises (unknown and transient records first, fields in reverse order), and a
 * duplicate found after them. Built twice: linked to the runtime library, and with
 * TL_VAULT_PORTABLE_ENDIAN and TL_IMPLEMENTATION (implemented here: meson.build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "icons.h"
#include "vaults/things_data.h"

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_find(const tl_vault_desc *d)
{
    for (uint32_t i = 0; i < d->field_count; i++) {
        uint32_t id = d->fields[i].id;
        assert_int_equal(tl_vault_find(d, id), (int32_t)i);
        assert_true(tl_vault_has(d, id));
        for (int delta = -1; delta <= 1; delta += 2) {
            uint32_t other = id + (uint32_t)delta;
            bool present = false;
            for (uint32_t j = 0; j < d->field_count; j++) present |= d->fields[j].id == other;
            assert_int_equal(tl_vault_find(d, other) >= 0, present);
        }
    }
    assert_int_equal(tl_vault_find(d, 0) >= 0, d->fields[d->order[0]].id == 0);
    assert_int_equal(tl_vault_find(d, UINT32_MAX) >= 0, d->fields[d->order[d->field_count - 1]].id == UINT32_MAX);
}

static void test_find_hashed_ids(void **state)
{
    (void)state;
    check_find(&every_vault_desc);
    int64_t out[16];
    assert_true(tl_vault_try_get(&every_vault_desc, &things_instances[0], EVERY_VAULT_ID_Loot,
                                 every_vault_fields[22].tag, out));
    assert_memory_equal(out, things_instances[0].Loot, sizeof things_instances[0].Loot);
}

static void test_find_clustered_ids(void **state)
{
    (void)state;
    /* Ids 1..40 and 4294967255..4294967294 in a shuffled schema order: every rank guess from the
     * id is off, so the search does the work. */
    enum { COUNT = 80 };
    tl_vault_field_desc fields[COUNT];
    uint16_t order[COUNT];
    int32_t values[COUNT];
    memset(fields, 0, sizeof fields);
    for (uint32_t i = 0; i < COUNT; i++) {
        uint32_t k = (i * 37u) % COUNT; /* 37 is coprime with 80: a permutation */
        fields[i].id = k < 40 ? k + 1 : UINT32_MAX - 80 + k;
        fields[i].tag = TL_VAULT_INTEGER;
        fields[i].offset = (uint32_t)(i * sizeof(int32_t));
        fields[i].size = sizeof(int32_t);
        fields[i].name = "f";
        values[i] = (int32_t)(i * 3);
    }
    for (uint32_t i = 0; i < COUNT; i++) { /* indexes sorted by id */
        uint32_t j = i;
        while (j > 0 && fields[order[j - 1]].id > fields[i].id) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (uint16_t)i;
    }
    tl_vault_desc d;
    memset(&d, 0, sizeof d);
    d.name = "Clustered";
    d.size = sizeof values;
    d.field_count = COUNT;
    d.fields = fields;
    d.order = order;
    check_find(&d);
    for (uint32_t i = 0; i < COUNT; i++) {
        int32_t v = -1;
        assert_true(tl_vault_try_get_integer(&d, values, fields[i].id, &v));
        assert_int_equal(v, (int32_t)(i * 3));
    }
    assert_false(tl_vault_try_get_integer(&d, values, 41, &values[0]));
    assert_false(tl_vault_try_get_integer(&d, values, UINT32_MAX, &values[0]));
    d.field_count = 1;
    d.order = &order[0];
    assert_int_equal(tl_vault_find(&d, fields[order[0]].id), (int32_t)order[0]);
    assert_int_equal(tl_vault_find(&d, 0), -1);
    d.field_count = 0;
    assert_int_equal(tl_vault_find(&d, fields[order[0]].id), -1);
}

/* 70 unknown records, a transient one, then `src`'s records in reverse order; `extra` copies the
 * first real record once more at the end. Returns the size. */
static size_t build(const unsigned char *src, size_t n, unsigned char *out, bool extra)
{
    uint32_t records = get32(src + 12), count = 0;
    const unsigned char *starts[64];
    size_t lens[64];
    const unsigned char *p = src + TL_VAULT_HEADER_BYTES;
    assert_true(records <= 64);
    for (uint32_t r = 0; r < records; r++) {
        starts[r] = p;
        lens[r] = TL_VAULT_RECORD_BYTES + get32(p + 8);
        p += lens[r];
    }
    assert_true(p == src + n);
    memcpy(out, src, TL_VAULT_HEADER_BYTES);
    unsigned char *o = out + TL_VAULT_HEADER_BYTES;
    for (uint32_t i = 0; i < 70; i++, count++) {
        uint32_t id = 0x10000u + i * 7919u;
        assert_false(tl_vault_has(&every_vault_desc, id));
        put32(o, id);
        put32(o + 4, TL_VAULT_INTEGER);
        put32(o + 8, 4);
        put32(o + 12, i);
        o += 16;
    }
    put32(o, EVERY_VAULT_ID_Scratch); /* transient here: skipped */
    put32(o + 4, TL_VAULT_FLOAT);
    put32(o + 8, 4);
    float f = -9.0f;
    memcpy(o + 12, &f, 4);
    o += 16;
    count++;
    for (uint32_t r = records; r-- > 0; count++) {
        memcpy(o, starts[r], lens[r]);
        o += lens[r];
    }
    if (extra) {
        memcpy(o, starts[0], lens[0]);
        o += lens[0];
        count++;
    }
    put32(out + 12, count);
    return (size_t)(o - out);
}

static void test_read_more_records_than_memoised(void **state)
{
    (void)state;
    for (int which = 0; which < 2; which++) {
        unsigned char src[1024], input[4096], again[1024];
        size_t n = 0, m = 0;
        assert_int_equal(tl_vault_write(&every_vault_desc, &things_instances[which], src, sizeof src, &n), TL_VAULT_OK);
        size_t size = build(src, n, input, false);
        every_vault v;
        every_vault_init(&v);
        v.Scratch = 2.0f;
        assert_int_equal(tl_vault_read(&every_vault_desc, &v, input, size), TL_VAULT_OK);
        assert_true(v.Scratch == 2.0f);
        assert_int_equal(tl_vault_write(&every_vault_desc, &v, again, sizeof again, &m), TL_VAULT_OK);
        assert_int_equal(m, n);
        assert_memory_equal(again, src, n);

        /* The same with the first field once more at the end: refused, nothing changed. */
        size = build(src, n, input, true);
        every_vault w, before;
        every_vault_init(&w);
        memcpy(&before, &w, sizeof w);
        assert_int_equal(tl_vault_read(&every_vault_desc, &w, input, size), TL_VAULT_ERROR_DUPLICATE);
        assert_memory_equal(&w, &before, sizeof w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_hashed_ids),
        cmocka_unit_test(test_find_clustered_ids),
        cmocka_unit_test(test_read_more_records_than_memoised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
