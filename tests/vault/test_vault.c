/* Generated vault code and runtime/threadlink/vault.h, over the committed golden output of
 * tests/vault/project (a schema with every type, and two authored instances): accessors, change
 * notification, generic access, baked data against the runtime's own collections, round trips,
 * byte-for-byte determinism, and every reading error with the vault left untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "icons.h"
#include "vaults/things_data.h"
#include "vaults/gear_data.h"
#include <threadlink/fp.h> /* the tl_fp functions (vault.h declares the types alone) */

typedef struct calls {
    int count;
    uint32_t last;
    void *vault;
} calls;

static void on_change(void *user, void *vault, uint32_t field_id)
{
    calls *c = (calls *)user;
    c->count++;
    c->last = field_id;
    c->vault = vault;
}

/* One listener to every field of v, in a set of its own (the previous one discarded). */
static tl_vault_listeners listeners;
static void listen_all(every_vault *v, calls *c)
{
    tl_vault_listeners_discard(&listeners);
    every_vault_listen(v, &listeners);
    assert_int_equal(tl_vault_subscribe_all(&listeners, v, on_change, c), TL_VAULT_OK);
}

static size_t serialise(const every_vault *v, unsigned char *out, size_t cap)
{
    size_t n = 0;
    assert_int_equal(tl_vault_write(&every_vault_desc, v, out, cap, &n), TL_VAULT_OK);
    assert_int_equal(n, tl_vault_serialised_size(&every_vault_desc, v));
    return n;
}

static void test_vault_data_lookups(void **state)
{
    (void)state;
    assert_int_equal(THINGS_COUNT, 2);
    assert_ptr_equal(things_by_name("first"), &things_instances[THINGS_INDEX_First]);
    assert_ptr_equal(things_by_name("SECOND"), &things_instances[THINGS_INDEX_Second]);
    assert_null(things_by_name("Third"));
    assert_null(things_by_name(NULL));
    assert_ptr_equal(things_by_id(THINGS_ID_Second), &things_instances[1]);
    assert_null(things_by_id(0));
    assert_ptr_equal(things_by_index(0), &things_instances[0]);
    assert_null(things_by_index(2));
    assert_string_equal(things_names[1], "Second");
    assert_int_equal(things_ids[0], THINGS_ID_First);

    const every_vault *first = things_by_name("First"), *second = things_by_name("Second");
    /* Authored values override, everything else is the schema's default. */
    assert_int_equal(first->Health, 5);
    assert_string_equal(first->Name, "first");
    assert_int_equal(second->Health, INT32_MIN);
    assert_string_equal(second->Name, "Nobody \"quoted\"?");
    assert_true(second->Damage.raw == -(INT64_C(1) << 31));         /* "-0.5" */
    assert_true(first->Damage.raw == tl_fp_from_fraction(1275, 100).raw); /* "12.75" */
    assert_true(first->Velocity.x.raw == tl_fp_from_fraction(1, 10).raw);
    assert_true(first->Velocity.y.raw == tl_fp_from_fraction(-1, 10).raw);
    assert_true(first->Point.z.raw == INT64_MIN);
    assert_true(first->Big == INT64_C(9007199254740993));
    assert_true(first->Speed == 1.5f && first->Precise == 0.1 && first->Alive);
    assert_true(first->Cell.x == 3 && first->Cell.y == -4);
    assert_true(first->Rot.w == 1.0f && first->Pos.z == 3.0f && first->Uv.x == 0.25f);
    /* AssetRef values are the ids of the catalog domain's entries. */
    assert_int_equal(first->Icon.id, (uint32_t)Game_Icons_Sword);
    tl_fp loot;
    tl_vault_asset_ref shield = {(uint32_t)Game_Icons_Shield};
    assert_true(every_vault_Loot_dict_const_try_get(every_vault_get_Loot(second), shield, &loot));
    assert_true(loot.raw == tl_fp_from_fraction(125, 100).raw);
    assert_int_equal(every_vault_Loot_dict_const_count(every_vault_get_Loot(second)), 1);
    assert_int_equal(every_vault_Seen_set_const_count(every_vault_get_Seen(first)), 3);
}

/* The generator lays collections out itself; the runtime's operations must give the same bytes. */
static void test_vault_baked_collections_match_runtime(void **state)
{
    (void)state;
    every_vault v;
    memset(&v, 0, sizeof v);
    every_vault_Seen_set seen = every_vault_edit_Seen(&v);
    for (int32_t k = 5; k <= 10; k++) assert_true(every_vault_Seen_set_add(seen, k));
    assert_memory_equal(v.Seen, every_vault_defaults.Seen, sizeof v.Seen);

    every_vault_Loot_dict loot = every_vault_edit_Loot(&v);
    tl_vault_asset_ref sword = {(uint32_t)Game_Icons_Sword}, shield = {(uint32_t)Game_Icons_Shield};
    assert_true(every_vault_Loot_dict_try_add(loot, sword, tl_fp_from_fraction(1, 2)));
    assert_true(every_vault_Loot_dict_try_add(loot, shield, tl_fp_from_int(2)));
    assert_memory_equal(v.Loot, every_vault_defaults.Loot, sizeof v.Loot);

    every_vault_Slots_array slots = every_vault_edit_Slots(&v);
    *every_vault_Slots_array_at(slots, 0) = 1;
    *every_vault_Slots_array_at(slots, 1) = 2;
    assert_memory_equal(v.Slots, every_vault_defaults.Slots, sizeof v.Slots);

    tl_fpv3 p = {{tl_fp_from_int(1).raw}, {tl_fp_from_int(2).raw}, {tl_fp_from_int(3).raw}};
    assert_true(every_vault_Tags_list_add(every_vault_edit_Tags(&v), p));
    assert_memory_equal(v.Tags, every_vault_defaults.Tags, sizeof v.Tags);

    every_vault_Queue_queue q = every_vault_edit_Queue(&v);
    assert_true(every_vault_Queue_queue_enqueue(q, true));
    assert_true(every_vault_Queue_queue_enqueue(q, false));
    assert_true(every_vault_Queue_queue_enqueue(q, true));
    assert_memory_equal(v.Queue, every_vault_defaults.Queue, sizeof v.Queue);

    /* An authored set, three keys in order. */
    memset(v.Seen, 0, sizeof v.Seen);
    for (int32_t k = 1; k <= 3; k++) assert_true(every_vault_Seen_set_add(seen, k));
    assert_memory_equal(v.Seen, things_instances[0].Seen, sizeof v.Seen);
}

static void test_vault_setters_notify_on_change_only(void **state)
{
    (void)state;
    every_vault v;
    calls c = {0, 0, NULL};
    every_vault_init(&v);
    listen_all(&v, &c);
    every_vault_set_Health(&v, every_vault_get_Health(&v));
    assert_int_equal(c.count, 0);
    every_vault_set_Health(&v, 42);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.last, EVERY_VAULT_ID_Health);
    assert_ptr_equal(c.vault, &v);
    assert_int_equal(every_vault_get_Health(&v), 42);

    tl_fpv3 point = every_vault_get_Point(&v);
    every_vault_set_Point(&v, point);
    assert_int_equal(c.count, 1);
    point.x = tl_fp_from_int(9);
    every_vault_set_Point(&v, point);
    assert_int_equal(c.count, 2);
    assert_int_equal(c.last, EVERY_VAULT_ID_Point);

    assert_true(every_vault_set_Name(&v, "Nobody \"quoted\"?"));
    assert_int_equal(c.count, 2);
    assert_true(every_vault_set_Name(&v, "Ann"));
    assert_int_equal(c.count, 3);
    assert_string_equal(every_vault_get_Name(&v), "Ann");
    for (size_t i = 4; i < sizeof v.Name; i++) assert_int_equal(v.Name[i], 0); /* tail zeroed */
    assert_false(every_vault_set_Name(&v, "twenty-one bytes long"));  /* 21 > 20 */
    assert_string_equal(every_vault_get_Name(&v), "Ann");
    assert_int_equal(c.count, 3);

    /* Floats compare bitwise: -0.0 over 0.0 is a change. */
    every_vault_set_Scratch(&v, 0.0f);
    int before = c.count;
    every_vault_set_Scratch(&v, -0.0f);
    assert_int_equal(c.count, before + 1);

    every_vault_notify(&v, EVERY_VAULT_ID_Seen);
    assert_int_equal(c.last, EVERY_VAULT_ID_Seen);
    every_vault_listen(&v, NULL);
    every_vault_set_Health(&v, 1); /* nobody listens: nothing to call */
    assert_int_equal(c.last, EVERY_VAULT_ID_Seen);
}

static void test_vault_generic_access_by_id(void **state)
{
    (void)state;
    every_vault v;
    calls c = {0, 0, NULL};
    every_vault_init(&v);
    listen_all(&v, &c);
    int32_t health = 0;
    float speed = 0;
    assert_true(every_vault_has(EVERY_VAULT_ID_Loot));
    assert_false(every_vault_has(0));
    assert_false(every_vault_has(12345));
    assert_int_equal(every_vault_field_index(EVERY_VAULT_ID_Big), 1);
    assert_true(every_vault_try_get(&v, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &health));
    assert_int_equal(health, INT32_MIN);
    assert_false(every_vault_try_get(&v, EVERY_VAULT_ID_Health, TL_VAULT_FLOAT, &speed)); /* mismatch */
    assert_false(every_vault_try_get(&v, 12345, TL_VAULT_INTEGER, &health));              /* absent */
    health = 7;
    assert_true(every_vault_try_set(&v, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &health));
    assert_int_equal(c.count, 1);
    assert_true(every_vault_try_set(&v, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &health));
    assert_int_equal(c.count, 1);
    assert_false(every_vault_try_set(&v, EVERY_VAULT_ID_Speed, TL_VAULT_DOUBLE, &health));
    /* The generated setter checks Booleans as the runtime's does: 0 or 1, else nothing changes. */
    unsigned char two = 2, one = 1;
    c.count = 0;
    assert_false(every_vault_try_set(&v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &two));
    assert_int_equal(c.count, 0);
    assert_true(every_vault_try_set(&v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &one));
    assert_true(v.Alive);
    uint64_t queue[6] = {0};
    every_vault_Queue_queue q = every_vault_Queue_queue_view(queue, 5);
    assert_true(every_vault_Queue_queue_enqueue(q, true));
    *(unsigned char *)every_vault_Queue_queue_at(q, 0) = 2;
    assert_false(every_vault_try_set(&v, EVERY_VAULT_ID_Queue, every_vault_fields[every_vault_field_index(EVERY_VAULT_ID_Queue)].tag, queue));
    const char *name = NULL;
    assert_true(every_vault_try_get(&v, EVERY_VAULT_ID_Name, TL_VAULT_STRING, &name));
    assert_ptr_equal(name, v.Name);
    const char *bob = "Bob";
    assert_true(every_vault_try_set(&v, EVERY_VAULT_ID_Name, TL_VAULT_STRING, &bob));
    assert_string_equal(v.Name, "Bob");
    assert_int_equal(c.last, EVERY_VAULT_ID_Name);

    /* The same through the descriptor (binary search over the ids). */
    for (uint32_t i = 0; i < EVERY_VAULT_FIELD_COUNT; i++)
        assert_int_equal(tl_vault_find(&every_vault_desc, every_vault_fields[i].id), (int32_t)i);
    assert_int_equal(tl_vault_find(&every_vault_desc, 1), -1);
    tl_fp damage;
    assert_true(tl_vault_try_get_fp(&every_vault_desc, &v, EVERY_VAULT_ID_Damage, &damage));
    assert_true(damage.raw == tl_fp_from_fraction(1275, 100).raw);
    assert_false(tl_vault_try_get_long(&every_vault_desc, &v, EVERY_VAULT_ID_Damage, NULL));
    assert_true(tl_vault_try_set_fp(&every_vault_desc, &v, EVERY_VAULT_ID_Damage, tl_fp_from_int(3)));
    assert_int_equal(c.last, EVERY_VAULT_ID_Damage);
    assert_true(v.Damage.raw == tl_fp_from_int(3).raw);
    assert_true(tl_vault_try_set_string(&every_vault_desc, &v, EVERY_VAULT_ID_Name, "Cy"));
    assert_false(tl_vault_try_set_string(&every_vault_desc, &v, EVERY_VAULT_ID_Name, "much longer than twenty bytes"));
    assert_string_equal(v.Name, "Cy");
    uint64_t seen[sizeof v.Seen / 8];
    assert_true(tl_vault_try_get(&every_vault_desc, &v, EVERY_VAULT_ID_Seen, TL_VAULT_TAG(TL_VAULT_INLINE_HASHSET, TL_VAULT_INTEGER, 0), seen));
    assert_memory_equal(seen, v.Seen, sizeof seen);
    assert_false(tl_vault_try_get(&every_vault_desc, &v, EVERY_VAULT_ID_Seen, TL_VAULT_TAG(TL_VAULT_INLINE_LIST, TL_VAULT_INTEGER, 0), seen));

    /* tl_vault_init, like every_vault_init, leaves no listener: memory that held anything (here
     * a listener that must not be called) is safe to set through at once. */
    c.count = 0;
    tl_vault_init(&every_vault_desc, &v);
    assert_memory_equal(&v, &every_vault_defaults, sizeof v);
    health = 99;
    assert_true(every_vault_try_set(&v, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &health));
    assert_int_equal(c.count, 0);
}

/* Generic access copies and compares exactly `size` bytes whatever the size (the constant-size
 * cases, the overlapping pieces of small collections, the plain call beyond): a hand-made
 * descriptor with one field of every size from 1 to 140 bytes. try_get writes nothing past the
 * field; try_set notices a difference in any single byte, stores it, notifies once, and a set of
 * the same bytes notifies nothing. */
#define SIZES 140
static void test_vault_generic_copies_every_size(void **state)
{
    (void)state;
    static unsigned char vault[sizeof(tl_vault_listeners *) + SIZES * (SIZES + 1) / 2];
    static tl_vault_field_desc fields[SIZES];
    static uint16_t order[SIZES];
    uint32_t at = (uint32_t)sizeof(tl_vault_listeners *);
    for (uint32_t i = 0; i < SIZES; i++) {
        fields[i].id = 1000u + i;
        fields[i].tag = TL_VAULT_TAG(TL_VAULT_INLINE_ARRAY, TL_VAULT_BOOLEAN, 0);
        fields[i].offset = at;
        fields[i].size = i + 1;
        fields[i].capacity = i + 1;
        fields[i].backing = TL_VAULT_SERIALISED;
        fields[i].name = "bytes";
        order[i] = (uint16_t)i;
        at += i + 1;
    }
    tl_vault_desc d = {"Bytes", 1u, at, SIZES, fields, order, 0, NULL};
    for (uint32_t k = 0; k < at - sizeof(tl_vault_listeners *); k++)
        vault[sizeof(tl_vault_listeners *) + k] = (unsigned char)(k * 131u + 7u);
    calls c = {0, 0, NULL};
    tl_vault_listeners set = {0};
    tl_vault_listeners *listener = &set;
    assert_int_equal(tl_vault_subscribe_all(&set, vault, on_change, &c), TL_VAULT_OK);
    memcpy(vault, &listener, sizeof listener);
    for (uint32_t i = 0; i < SIZES; i++) {
        const tl_vault_field_desc *f = &fields[i];
        unsigned char out[SIZES + 16], value[SIZES];
        memset(out, 0xA5, sizeof out);
        assert_true(tl_vault_try_get(&d, vault, f->id, f->tag, out));
        assert_memory_equal(out, vault + f->offset, f->size);
        for (size_t k = f->size; k < sizeof out; k++) assert_int_equal(out[k], 0xA5);
        for (uint32_t pos = 0; pos < f->size; pos++) {
            memcpy(value, vault + f->offset, f->size);
            value[pos] ^= 0x5A;
            int before = c.count;
            assert_true(tl_vault_try_set(&d, vault, f->id, f->tag, value));
            assert_int_equal(c.count, before + 1);
            assert_int_equal(c.last, f->id);
            assert_memory_equal(vault + f->offset, value, f->size);
            assert_true(tl_vault_try_set(&d, vault, f->id, f->tag, value));
            assert_int_equal(c.count, before + 1);
        }
        /* The neighbours are untouched: the field before ends, the one after starts as filled. */
        if (i + 1 < SIZES) assert_int_equal(vault[f->offset + f->size], (unsigned char)((f->offset + f->size - sizeof(tl_vault_listeners *)) * 131u + 7u));
    }
    tl_vault_listeners_discard(&set);
}
#undef SIZES

static void test_vault_reset_transient(void **state)
{
    (void)state;
    every_vault v;
    every_vault_init(&v);
    every_vault_set_Scratch(&v, 99.0f);
    every_vault_set_Health(&v, 1);
    every_vault_reset_transient(&v);
    assert_true(v.Scratch == 7.0f);
    assert_int_equal(v.Health, 1);
    v.Scratch = 5.0f;
    tl_vault_reset_transient(&every_vault_desc, &v);
    assert_true(v.Scratch == 7.0f);
}

/* Serialised fields compare equal one by one (a queue by its serialisation: its head may move). */
static void assert_same_serialised(const every_vault *a, const every_vault *b)
{
    unsigned char x[4096], y[4096];
    size_t n = serialise(a, x, sizeof x), m = serialise(b, y, sizeof y);
    assert_int_equal(n, m);
    assert_memory_equal(x, y, n);
}

static void test_vault_round_trips(void **state)
{
    (void)state;
    unsigned char bytes[4096], again[4096];
    for (uint32_t i = 0; i < THINGS_COUNT; i++) {
        const every_vault *src = things_by_index(i);
        size_t n = serialise(src, bytes, sizeof bytes);
        every_vault v;
        memset(&v, 0xA5, sizeof v); /* every serialised field must be overwritten */
        v.Scratch = 1.0f;
        assert_int_equal(tl_vault_read(&every_vault_desc, &v, bytes, n), TL_VAULT_OK);
        for (uint32_t f = 0; f < EVERY_VAULT_FIELD_COUNT; f++) {
            const tl_vault_field_desc *d = &every_vault_fields[f];
            if (d->backing == TL_VAULT_TRANSIENT) continue;
            assert_memory_equal((const unsigned char *)&v + d->offset, (const unsigned char *)src + d->offset, d->size);
        }
        assert_true(v.Scratch == 1.0f); /* transient: never written, never read */
        assert_int_equal(serialise(&v, again, sizeof again), n);
        assert_memory_equal(again, bytes, n);
    }
    /* A mutated vault: a queue whose head moved, a stack, removals from a table. */
    every_vault v, w;
    every_vault_init(&v);
    every_vault_Queue_queue q = every_vault_edit_Queue(&v);
    bool out;
    every_vault_Queue_queue_clear(q);
    for (int k = 0; k < 7; k++) {
        assert_true(every_vault_Queue_queue_enqueue(q, k % 2 == 0));
        if (k % 2) assert_true(every_vault_Queue_queue_dequeue(q, &out));
    }
    assert_true(every_vault_Undo_stack_push(every_vault_edit_Undo(&v), INT64_MIN));
    assert_true(every_vault_Undo_stack_push(every_vault_edit_Undo(&v), 4));
    assert_true(every_vault_Seen_set_remove(every_vault_edit_Seen(&v), 7));
    every_vault_set_Precise(&v, -1e300);
    every_vault_init(&w);
    size_t n = serialise(&v, bytes, sizeof bytes);
    assert_int_equal(tl_vault_read(&every_vault_desc, &w, bytes, n), TL_VAULT_OK);
    assert_same_serialised(&v, &w);
    assert_int_equal(every_vault_Queue_queue_const_count(every_vault_get_Queue(&w)), every_vault_Queue_queue_count(q));
    assert_true(*every_vault_Queue_queue_const_peek(every_vault_get_Queue(&w)) == *every_vault_Queue_queue_peek(q));
    assert_true(*every_vault_Undo_stack_const_peek(every_vault_get_Undo(&w)) == 4);
    assert_false(every_vault_Seen_set_const_contains(every_vault_get_Seen(&w), 7));
    assert_true(every_vault_Seen_set_const_contains(every_vault_get_Seen(&w), 8));
}

static void test_vault_serialisation_is_deterministic_and_pinned(void **state)
{
    (void)state;
    unsigned char a[4096], b[4096];
    size_t n = serialise(&things_instances[0], a, sizeof a);
    every_vault copy = things_instances[0];
    assert_int_equal(serialise(&copy, b, sizeof b), n);
    assert_memory_equal(a, b, n);
    /* Header: magic, version 1, flags 0, vault id, 22 records (Scratch is transient). */
    assert_memory_equal(a, "TLVT\x01\x00\x00\x00", 8);
    assert_int_equal(a[8] | a[9] << 8 | a[10] << 16 | (uint32_t)a[11] << 24, EVERY_VAULT_ID);
    assert_int_equal(a[12], 22);
    /* The first record: Health, tag 1, 4 bytes, 5 little-endian. */
    static const unsigned char health[] = {0xE6, 0xEF, 0x87, 0xFD, 1, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0};
    assert_int_equal(EVERY_VAULT_ID_Health, 0xFD87EFE6u);
    assert_memory_equal(a + 16, health, sizeof health);
    /* The whole format, pinned: a change here breaks every save. */
    assert_int_equal(n, 549);
    assert_true(tl_hash64(a, n, 0) == UINT64_C(0xe71cd7d995523e07));
    size_t small = 0;
    assert_int_equal(tl_vault_write(&every_vault_desc, &copy, a, n - 1, &small), TL_VAULT_ERROR_BUFFER);
    assert_int_equal(small, 0);
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Reading `bytes` fails with `want` and leaves the vault exactly as it was. */
static void expect_read_error(const unsigned char *bytes, size_t n, tl_vault_result want)
{
    every_vault v, before;
    every_vault_init(&v);
    v.Health = 1234;
    memcpy(&before, &v, sizeof v);
    assert_int_equal(tl_vault_read(&every_vault_desc, &v, bytes, n), want);
    assert_memory_equal(&v, &before, sizeof v);
}

/* The same through tl_vault_read_ex, which names the field whose record was refused (0: none). */
static void expect_read_error_at(const unsigned char *bytes, size_t n, tl_vault_result want, uint32_t field)
{
    every_vault v;
    uint32_t got = 12345;
    every_vault_init(&v);
    expect_read_error(bytes, n, want);
    assert_int_equal(tl_vault_read_ex(&every_vault_desc, &v, bytes, n, &got), want);
    assert_int_equal(got, field);
    assert_int_equal(tl_vault_read_ex(&every_vault_desc, &v, bytes, n, NULL), want);
}

/* A vault holding one record. */
static size_t one_record(unsigned char *out, uint32_t id, uint32_t tag, const void *payload, uint32_t len)
{
    memcpy(out, "TLVT\x01\x00\x00\x00", 8);
    put32(out + 8, EVERY_VAULT_ID);
    put32(out + 12, 1);
    put32(out + 16, id);
    put32(out + 20, tag);
    put32(out + 24, len);
    memcpy(out + 28, payload, len);
    return 28 + len;
}

static void test_vault_read_errors_leave_vault_untouched(void **state)
{
    (void)state;
    unsigned char good[4096], bad[4096];
    size_t n = serialise(&things_instances[1], good, sizeof good);
    expect_read_error(good, 3, TL_VAULT_ERROR_TRUNCATED);
    expect_read_error(good, n - 1, TL_VAULT_ERROR_TRUNCATED);
    memcpy(bad, good, n);
    bad[0] = 'X';
    expect_read_error(bad, n, TL_VAULT_ERROR_MAGIC);
    memcpy(bad, good, n);
    bad[4] = 2;
    expect_read_error(bad, n, TL_VAULT_ERROR_VERSION);
    memcpy(bad, good, n);
    bad[6] = 1;
    expect_read_error(bad, n, TL_VAULT_ERROR_FLAGS);
    memcpy(bad, good, n);
    bad[8] ^= 1;
    expect_read_error(bad, n, TL_VAULT_ERROR_VAULT);
    memcpy(bad, good, n);
    bad[n] = 0;
    expect_read_error_at(bad, n + 1, TL_VAULT_ERROR_TRAILING, 0);
    /* The last record is valid and complete, but Health's tag says Long: a type mismatch. */
    memcpy(bad, good, n);
    bad[20] = TL_VAULT_LONG;
    expect_read_error_at(bad, n, TL_VAULT_ERROR_TYPE, EVERY_VAULT_ID_Health);

    int32_t five = 5;
    size_t m = one_record(bad, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &five, 3);
    expect_read_error(bad, m, TL_VAULT_ERROR_LENGTH);
    m = one_record(bad, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, "\x02", 1);
    expect_read_error_at(bad, m, TL_VAULT_ERROR_VALUE, EVERY_VAULT_ID_Alive);
    m = one_record(bad, EVERY_VAULT_ID_Name, TL_VAULT_STRING, "a\0b", 3);
    expect_read_error(bad, m, TL_VAULT_ERROR_VALUE);
    m = one_record(bad, EVERY_VAULT_ID_Name, TL_VAULT_STRING, "twenty-one bytes long", 21);
    expect_read_error_at(bad, m, TL_VAULT_ERROR_CAPACITY, EVERY_VAULT_ID_Name);
    unsigned char list[4 + 4 * 4] = {4, 0, 0, 0};
    m = one_record(bad, EVERY_VAULT_ID_Slots, TL_VAULT_TAG(TL_VAULT_INLINE_ARRAY, TL_VAULT_INTEGER, 0), list, 4 + 4 * 4);
    assert_int_equal(tl_vault_read(&every_vault_desc, &(every_vault){0}, bad, m), TL_VAULT_OK); /* 4 fit */
    list[0] = 5;
    m = one_record(bad, EVERY_VAULT_ID_Slots, TL_VAULT_TAG(TL_VAULT_INLINE_ARRAY, TL_VAULT_INTEGER, 0), list, 4 + 4 * 4);
    expect_read_error(bad, m, TL_VAULT_ERROR_LENGTH);
    m = one_record(bad, EVERY_VAULT_ID_Slots, TL_VAULT_TAG(TL_VAULT_INLINE_ARRAY, TL_VAULT_INTEGER, 0), list, 2);
    expect_read_error(bad, m, TL_VAULT_ERROR_LENGTH);
    /* Two records for one field. */
    m = one_record(bad, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &five, 4);
    memcpy(bad + m, bad + 16, 16);
    put32(bad + 12, 2);
    expect_read_error_at(bad, m + 16, TL_VAULT_ERROR_DUPLICATE, EVERY_VAULT_ID_Health);
    /* A record longer than the input. */
    m = one_record(bad, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &five, 4);
    put32(bad + 24, 0xFFFFFFFFu);
    expect_read_error_at(bad, m, TL_VAULT_ERROR_TRUNCATED, 0);
    /* Unknown ids and transient fields are skipped whatever they hold; a serialised field the save
     * lacks gets its default, whatever the vault held (issue 43), a transient one keeps its value. */
    every_vault v, fresh;
    every_vault_init(&v);
    every_vault_init(&fresh);
    v.Health = fresh.Health + 99;
    m = one_record(bad, 0xDEADBEEFu, 200, "junk", 4);
    assert_int_equal(tl_vault_read(&every_vault_desc, &v, bad, m), TL_VAULT_OK);
    m = one_record(bad, EVERY_VAULT_ID_Scratch, TL_VAULT_DOUBLE, "12345678", 8);
    assert_int_equal(tl_vault_read(&every_vault_desc, &v, bad, m), TL_VAULT_OK);
    assert_int_equal(v.Health, fresh.Health);
    assert_true(v.Scratch == 7.0f);
    assert_int_equal(tl_vault_read(NULL, &v, bad, m), TL_VAULT_ERROR_ARGUMENT);
    assert_string_equal(tl_vault_result_message(TL_VAULT_ERROR_TYPE), "a field's type tag differs from the schema's");
}

/* Booleans hold 0 or 1 (the C type bool, and what tl_vault_read accepts): the generic setter
 * refuses any other byte, in a Boolean field or among a collection's elements, and leaves the
 * vault as it was. Before, it stored the byte: undefined behaviour to read, and a save that
 * tl_vault_read refused. */
#define QUEUE_TAG TL_VAULT_TAG(TL_VAULT_INLINE_QUEUE, TL_VAULT_BOOLEAN, 0)
/* Appends one record to a save built by one_record (or this), counting it in the header. */
static size_t add_record(unsigned char *out, size_t n, uint32_t id, uint32_t tag, const void *payload, uint32_t len)
{
    put32(out + 12, (uint32_t)(out[12] | out[13] << 8) + 1);
    put32(out + n, id);
    put32(out + n + 4, tag);
    put32(out + n + 8, len);
    memcpy(out + n + 12, payload, len);
    return n + 12 + len;
}

typedef struct mismatch_log {
    int calls;
    tl_vault_mismatch seen[4];
    int32_t health_when_called; /* what the vault held then: the records before were stored */
} mismatch_log;

/* Keeps what it is told, and converts an old Long Health into the Integer field, as a game would
 * migrate a type change. */
static void on_mismatch(void *ctx, void *vault, const tl_vault_mismatch *m)
{
    mismatch_log *log = ctx;
    every_vault *v = vault;
    log->health_when_called = v->Health;
    if (log->calls < 4) log->seen[log->calls] = *m;
    log->calls++;
    if (m->field_id == EVERY_VAULT_ID_Health && m->tag == TL_VAULT_LONG && m->length == 8) {
        const unsigned char *b = m->payload;
        v->Health = (int32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
    }
}

/* tl_vault_read_with and on_mismatch: a save whose fields changed type or lost capacity loads,
 * each such field at its default unless the callback converts the old record; any other
 * error still refuses the save, calling nothing. */
static void test_vault_read_with_lets_mismatched_fields_pass(void **state)
{
    (void)state;
    unsigned char save[4096];
    const unsigned char old_health[8] = {77}; /* a Long 77, little-endian */
    const unsigned char alive = 0;
    mismatch_log log = {0};
    tl_vault_read_options options = {on_mismatch, &log};
    every_vault v, before_read;
    uint32_t failed = 5;
    size_t n = one_record(save, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &alive, 1);
    n = add_record(save, n, EVERY_VAULT_ID_Name, TL_VAULT_STRING, "twenty-one bytes long", 21);
    n = add_record(save, n, EVERY_VAULT_ID_Health, TL_VAULT_LONG, old_health, 8);
    every_vault_init(&v);
    expect_read_error_at(save, n, TL_VAULT_ERROR_CAPACITY, EVERY_VAULT_ID_Name); /* without options */
    assert_int_equal(tl_vault_read_with(&every_vault_desc, &v, save, n, NULL, &failed), TL_VAULT_ERROR_CAPACITY);
    v.Health = 1234;
    assert_int_equal(tl_vault_read_with(&every_vault_desc, &v, save, n, &options, &failed), TL_VAULT_OK);
    assert_int_equal(failed, 0);
    assert_false(v.Alive);                             /* the record that fits is stored */
    assert_string_equal(v.Name, "Nobody \"quoted\"?"); /* the one that does not is at its default */
    assert_int_equal(v.Health, 77);                    /* converted by the callback */
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.seen[0].field_id, EVERY_VAULT_ID_Name);
    assert_int_equal(log.seen[0].reason, TL_VAULT_ERROR_CAPACITY);
    assert_int_equal(log.seen[0].tag, TL_VAULT_STRING);
    assert_int_equal(log.seen[0].length, 21);
    assert_memory_equal(log.seen[0].payload, "twenty-one bytes long", 21);
    assert_int_equal(log.seen[1].field_id, EVERY_VAULT_ID_Health);
    assert_int_equal(log.seen[1].reason, TL_VAULT_ERROR_TYPE);
    assert_int_equal(log.seen[1].tag, TL_VAULT_LONG);
    every_vault_init(&before_read);
    assert_int_equal(log.health_when_called, before_read.Health); /* the default, not the 1234 it held */

    /* Past the first 64 records (read without a memo of their fields), the same. */
    n = one_record(save, 0xDEADBEEFu, 200, "", 0);
    for (int i = 1; i < 70; i++) n = add_record(save, n, 0xDEAD0000u + (uint32_t)i, 200, "junk", 4);
    n = add_record(save, n, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &alive, 1);
    n = add_record(save, n, EVERY_VAULT_ID_Health, TL_VAULT_LONG, old_health, 8);
    n = add_record(save, n, EVERY_VAULT_ID_Name, TL_VAULT_STRING, "twenty-one bytes long", 21);
    every_vault_init(&v);
    memset(&log, 0, sizeof log);
    assert_int_equal(tl_vault_read_with(&every_vault_desc, &v, save, n, &options, NULL), TL_VAULT_OK);
    assert_false(v.Alive);
    assert_int_equal(v.Health, 77);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.seen[0].field_id, EVERY_VAULT_ID_Health);
    assert_int_equal(log.seen[1].reason, TL_VAULT_ERROR_CAPACITY);

    /* Every other error refuses the save before anything changes or is called. */
    n = add_record(save, n, EVERY_VAULT_ID_Slots, TL_VAULT_TAG(TL_VAULT_INLINE_ARRAY, TL_VAULT_INTEGER, 0), "ab", 2);
    every_vault_init(&v);
    every_vault before = v;
    memset(&log, 0, sizeof log);
    assert_int_equal(tl_vault_read_with(&every_vault_desc, &v, save, n, &options, &failed), TL_VAULT_ERROR_LENGTH);
    assert_int_equal(failed, EVERY_VAULT_ID_Slots);
    assert_memory_equal(&v, &before, sizeof v);
    assert_int_equal(log.calls, 0);
    /* A field given twice is a duplicate even when its records no longer fit. */
    n = one_record(save, EVERY_VAULT_ID_Health, TL_VAULT_LONG, old_health, 8);
    n = add_record(save, n, EVERY_VAULT_ID_Health, TL_VAULT_LONG, old_health, 8);
    assert_int_equal(tl_vault_read_with(&every_vault_desc, &v, save, n, &options, &failed), TL_VAULT_ERROR_DUPLICATE);
    assert_int_equal(log.calls, 0);
}

static void test_vault_generic_set_refuses_other_booleans(void **state)
{
    (void)state;
    every_vault v;
    calls c = {0, 0, NULL};
    unsigned char zero = 0, one = 1, two = 2, all = 0xFF;
    every_vault_init(&v);
    listen_all(&v, &c);
    assert_false(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &two));
    assert_false(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &all));
    assert_int_equal(c.count, 0);
    assert_true(v.Alive);
    assert_true(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &zero));
    assert_false(v.Alive);
    assert_true(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Alive, TL_VAULT_BOOLEAN, &one));
    assert_true(v.Alive);
    assert_int_equal(c.count, 2);

    /* A queue of Booleans: the element behind the front, after the head has moved. */
    uint64_t queue[sizeof v.Queue / 8], before[sizeof v.Queue / 8];
    memcpy(before, v.Queue, sizeof before);
    memcpy(queue, v.Queue, sizeof queue);
    tl_inline_queue q = tl_inline_queue_view(queue, 5, 1);
    tl_inline_queue_clear(q);
    assert_true(tl_inline_queue_enqueue(q, &one));
    assert_true(tl_inline_queue_dequeue(q, NULL));
    assert_true(tl_inline_queue_enqueue(q, &zero));
    assert_true(tl_inline_queue_enqueue(q, &two));
    assert_false(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Queue, QUEUE_TAG, queue));
    assert_memory_equal(v.Queue, before, sizeof before);
    assert_int_equal(c.count, 2);
    assert_true(tl_inline_queue_dequeue(q, NULL));
    assert_true(tl_inline_queue_dequeue(q, NULL));
    assert_true(tl_inline_queue_enqueue(q, &one));
    assert_true(tl_vault_try_set(&every_vault_desc, &v, EVERY_VAULT_ID_Queue, QUEUE_TAG, queue));
    assert_int_equal(c.count, 3);
    assert_int_equal(c.last, EVERY_VAULT_ID_Queue);
}

/* tl_vault_write never writes a save tl_vault_read refuses: a member filled by hand with a
 * Boolean byte other than 0 or 1, or a String with no NUL within its buffer, is refused and
 * nothing is written. Before, both wrote (TL_VAULT_OK) what the reader then refused. */
static void test_vault_write_refuses_what_read_would_refuse(void **state)
{
    (void)state;
    every_vault v, back;
    unsigned char out[4096], two = 2;
    size_t n = 1;
    every_vault_init(&v);
    memcpy(&v.Alive, &two, 1);
    memset(out, 0xEE, sizeof out);
    assert_int_equal(tl_vault_write(&every_vault_desc, &v, out, sizeof out, &n), TL_VAULT_ERROR_VALUE);
    assert_int_equal(n, 0);
    assert_int_equal(out[0], 0xEE);

    every_vault_init(&v);
    tl_inline_queue q = tl_inline_queue_view(v.Queue, 5, 1);
    assert_true(tl_inline_queue_enqueue(q, &two));
    assert_int_equal(tl_vault_write(&every_vault_desc, &v, out, sizeof out, &n), TL_VAULT_ERROR_VALUE);

    every_vault_init(&v);
    memcpy(v.Name, "twenty-one bytes long", sizeof v.Name); /* strncpy-style: no terminator */
    assert_int_equal(tl_vault_write(&every_vault_desc, &v, out, sizeof out, &n), TL_VAULT_ERROR_CAPACITY);
    assert_int_equal(n, 0);
    assert_int_equal(out[0], 0xEE);
    v.Name[20] = '\0'; /* exactly the capacity: fine, and it reads back */
    n = serialise(&v, out, sizeof out);
    every_vault_init(&back);
    assert_int_equal(tl_vault_read(&every_vault_desc, &back, out, n), TL_VAULT_OK);
    assert_string_equal(back.Name, "twenty-one bytes lon");
}

/* The same for Boolean keys and values of sets and dictionaries, and list elements, over a
 * hand-made descriptor (the test project has no such fields). */
typedef struct flags_vault {
    uint64_t list[TL_LAYOUT_SEQUENCE_BYTES(4, 1) / 8];
    uint64_t set[TL_LAYOUT_SET_BYTES(2, 1) / 8];
    uint64_t dict[TL_LAYOUT_DICT_BYTES(4, 4, 1) / 8];
    tl_vault_listeners *listener;
} flags_vault;
#define FLAGS_LIST TL_VAULT_TAG(TL_VAULT_INLINE_LIST, TL_VAULT_BOOLEAN, 0)
#define FLAGS_SET TL_VAULT_TAG(TL_VAULT_INLINE_HASHSET, TL_VAULT_BOOLEAN, 0)
#define FLAGS_DICT TL_VAULT_TAG(TL_VAULT_INLINE_DICT, TL_VAULT_INTEGER, TL_VAULT_BOOLEAN)
static const tl_vault_field_desc flags_fields[] = {
    {10, FLAGS_LIST, offsetof(flags_vault, list), sizeof(((flags_vault *)0)->list), 4, TL_VAULT_SERIALISED, "list"},
    {20, FLAGS_SET, offsetof(flags_vault, set), sizeof(((flags_vault *)0)->set), 2, TL_VAULT_SERIALISED, "set"},
    {30, FLAGS_DICT, offsetof(flags_vault, dict), sizeof(((flags_vault *)0)->dict), 4, TL_VAULT_SERIALISED, "dict"},
};
static const uint16_t flags_order[] = {0, 1, 2};
static const flags_vault flags_defaults;
static const tl_vault_desc flags_desc = {"Flags", 0x1234u, sizeof(flags_vault), 3, flags_fields, flags_order,
                                         offsetof(flags_vault, listener), &flags_defaults};

static void test_vault_booleans_in_collections_are_0_or_1(void **state)
{
    (void)state;
    flags_vault v = flags_defaults, back = flags_defaults;
    uint64_t value[TL_LAYOUT_DICT_BYTES(4, 4, 1) / 8];
    unsigned char zero = 0, one = 1, two = 2, out[512];
    int32_t key = 7;
    size_t n;

    memset(value, 0, sizeof value);
    tl_inline_list l = tl_inline_list_view(value, 4, 1);
    assert_true(tl_inline_list_add(l, &one));
    assert_true(tl_inline_list_add(l, &two));
    assert_false(tl_vault_try_set(&flags_desc, &v, 10, FLAGS_LIST, value));
    assert_true(tl_inline_list_remove_at(l, 1));
    assert_true(tl_vault_try_set(&flags_desc, &v, 10, FLAGS_LIST, value));

    memset(value, 0, sizeof value);
    tl_inline_hashset s = tl_inline_hashset_view(value, 2, 1);
    assert_true(tl_inline_hashset_add(s, &zero));
    assert_true(tl_inline_hashset_add(s, &two));
    assert_false(tl_vault_try_set(&flags_desc, &v, 20, FLAGS_SET, value));
    assert_true(tl_inline_hashset_remove(s, &two));
    assert_true(tl_inline_hashset_add(s, &one));
    assert_true(tl_vault_try_set(&flags_desc, &v, 20, FLAGS_SET, value));

    memset(value, 0, sizeof value);
    tl_inline_dict d = tl_inline_dict_view(value, 4, 4, 1);
    assert_true(tl_inline_dict_try_add(d, &key, &one));
    key = 2; /* an Integer key of 2 is fine: only the Boolean values are checked */
    assert_true(tl_inline_dict_try_add(d, &key, &two));
    assert_false(tl_vault_try_set(&flags_desc, &v, 30, FLAGS_DICT, value));
    assert_true(tl_inline_dict_set(d, &key, &zero));
    assert_true(tl_vault_try_set(&flags_desc, &v, 30, FLAGS_DICT, value));

    assert_int_equal(tl_vault_write(&flags_desc, &v, out, sizeof out, &n), TL_VAULT_OK);
    assert_int_equal(tl_vault_read(&flags_desc, &back, out, n), TL_VAULT_OK);
    assert_int_equal(tl_inline_list_count(tl_inline_list_view(back.list, 4, 1)), 1);
    assert_int_equal(*(const unsigned char *)tl_inline_list_at(tl_inline_list_view(back.list, 4, 1), 0), 1);
    tl_inline_hashset back_set = tl_inline_hashset_view(back.set, 2, 1);
    assert_true(tl_inline_hashset_contains(back_set, &zero) && tl_inline_hashset_contains(back_set, &one));
    tl_inline_dict back_dict = tl_inline_dict_view(back.dict, 4, 4, 1);
    assert_int_equal(*(const unsigned char *)tl_inline_dict_get(back_dict, &key), 0);

    /* Filled by hand, behind the setter's back: the writer refuses. */
    tl_inline_dict member = tl_inline_dict_view(v.dict, 4, 4, 1);
    assert_true(tl_inline_dict_set(member, &key, &two));
    assert_int_equal(tl_vault_write(&flags_desc, &v, out, sizeof out, &n), TL_VAULT_ERROR_VALUE);
    assert_true(tl_inline_dict_set(member, &key, &one));
    tl_inline_list list = tl_inline_list_view(v.list, 4, 1);
    assert_true(tl_inline_list_add(list, &two));
    assert_int_equal(tl_vault_write(&flags_desc, &v, out, sizeof out, &n), TL_VAULT_ERROR_VALUE);
}

/* A data file with "keys" (gear.vaultdata.json, keyed by Game.Icons): each instance is found by its
 * domain value, whatever the order of the file and the domain. */
static void test_vault_data_keyed_by_domain(void **state)
{
    (void)state;
    assert_int_equal(gear_keys[GEAR_INDEX_Shield], GAME_ICONS_U32(Game_Icons_Shield));
    assert_int_equal(gear_keys[GEAR_INDEX_Sword], GAME_ICONS_U32(Game_Icons_Sword));
    assert_int_equal(gear_index_by_key(GAME_ICONS_U32(Game_Icons_Sword)), GEAR_INDEX_Sword);
    assert_ptr_equal(gear_by_key(GAME_ICONS_U32(Game_Icons_Shield)), gear_by_index(GEAR_INDEX_Shield));
    assert_int_equal(every_vault_get_Health(gear_by_key(GAME_ICONS_U32(Game_Icons_Sword))), 7);
    assert_int_equal(gear_index_by_key(0), GEAR_COUNT);
    assert_null(gear_by_key(GEAR_ID_Sword)); /* an instance id is not a key */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_data_lookups),
        cmocka_unit_test(test_vault_data_keyed_by_domain),
        cmocka_unit_test(test_vault_baked_collections_match_runtime),
        cmocka_unit_test(test_vault_setters_notify_on_change_only),
        cmocka_unit_test(test_vault_generic_access_by_id),
        cmocka_unit_test(test_vault_generic_copies_every_size),
        cmocka_unit_test(test_vault_reset_transient),
        cmocka_unit_test(test_vault_round_trips),
        cmocka_unit_test(test_vault_serialisation_is_deterministic_and_pinned),
        cmocka_unit_test(test_vault_read_errors_leave_vault_untouched),
        cmocka_unit_test(test_vault_read_with_lets_mismatched_fields_pass),
        cmocka_unit_test(test_vault_generic_set_refuses_other_booleans),
        cmocka_unit_test(test_vault_write_refuses_what_read_would_refuse),
        cmocka_unit_test(test_vault_booleans_in_collections_are_0_or_1),
    };
    int failed = cmocka_run_group_tests_name("vault", tests, NULL, NULL);
    tl_vault_listeners_discard(&listeners);
    return failed;
}
