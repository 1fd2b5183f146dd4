/* Saves survive schema changes: a vault written by schema v1 reads under v2 and the other way
 * round (tests/vault/evolution): unknown fields are skipped, missing ones keep their defaults,
 * larger capacities accept older data, and data that does not fit is refused whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "evo.h"

static evo_view sample(void)
{
    evo_view v;
    memset(&v, 0, sizeof v);
    v.health = 321;
    strcpy(v.name, "Zed");
    v.speed_raw = -5;
    v.removed = 123456789012345;
    v.added = 0.75;
    v.tag_count = 3;
    v.tags[0] = 4;
    v.tags[1] = -8;
    v.tags[2] = 15;
    v.mode = 6;
    return v;
}

static void test_vault_evolution_old_save_reads_under_new_schema(void **state)
{
    (void)state;
    unsigned char bytes[512];
    evo_view in = sample(), out;
    size_t n = evo_v1_write(&in, bytes, sizeof bytes);
    assert_true(n > 0);
    assert_int_equal(evo_v2_read(bytes, n, &out), 0);
    assert_int_equal(out.health, 321);
    assert_string_equal(out.name, "Zed");
    assert_true(out.speed_raw == -5);
    assert_true(out.added == 2.5);   /* absent from v1: v2's default */
    assert_true(out.mode == 0.5);    /* transient in v1, never written: v2's default */
    assert_int_equal(out.tag_count, 3);
    assert_int_equal(out.tags[1], -8);
}

static void test_vault_evolution_new_save_reads_under_old_schema(void **state)
{
    (void)state;
    unsigned char bytes[512];
    evo_view in = sample(), out;
    size_t n = evo_v2_write(&in, bytes, sizeof bytes);
    assert_true(n > 0);
    assert_int_equal(evo_v1_read(bytes, n, &out), 0);
    assert_int_equal(out.health, 321);
    assert_string_equal(out.name, "Zed");
    assert_true(out.removed == 77);  /* absent from v2: v1's default */
    assert_true(out.mode == 3);      /* v2's Mode is a Float; transient in v1: skipped */
    assert_int_equal(out.tag_count, 3);
    assert_int_equal(out.tags[2], 15);

    /* What v1 cannot hold is refused, and v1's vault keeps its defaults. */
    strcpy(in.name, "longer name");  /* 11 bytes: v1 holds 8 */
    n = evo_v2_write(&in, bytes, sizeof bytes);
    assert_int_equal(evo_v1_read(bytes, n, &out), 10 /* TL_VAULT_ERROR_CAPACITY */);
    assert_int_equal(out.health, 10);
    strcpy(in.name, "ok");
    in.tag_count = 6;                /* v1 holds 4 tags */
    n = evo_v2_write(&in, bytes, sizeof bytes);
    assert_int_equal(evo_v1_read(bytes, n, &out), 10);
    assert_string_equal(out.name, "unit");
}

static void test_vault_evolution_reordered_fields_give_the_same_values(void **state)
{
    (void)state;
    unsigned char a[512], b[512];
    evo_view in = sample(), out1, out2;
    in.tag_count = 2;
    size_t n1 = evo_v1_write(&in, a, sizeof a), n2 = evo_v2_write(&in, b, sizeof b);
    assert_int_equal(evo_v1_read(b, n2, &out1), 0);
    assert_int_equal(evo_v2_read(a, n1, &out2), 0);
    assert_int_equal(out1.health, out2.health);
    assert_string_equal(out1.name, out2.name);
    assert_true(out1.speed_raw == out2.speed_raw);
    assert_int_equal(out1.tag_count, out2.tag_count);
    assert_memory_equal(out1.tags, out2.tags, sizeof out1.tags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_evolution_old_save_reads_under_new_schema),
        cmocka_unit_test(test_vault_evolution_new_save_reads_under_old_schema),
        cmocka_unit_test(test_vault_evolution_reordered_fields_give_the_same_values),
    };
    return cmocka_run_group_tests_name("vault-evolution", tests, NULL, NULL);
}
