/* A save of an older schema read into a vault that was not initialised with the defaults (zeroed,
 * or a vault reused): a field the save lacks must get its schema default whatever the vault held
 * before (issue 43), as README's "missing fields keep their defaults" promises. Before the fix
 * tl_vault_read left such a field as it was (0 in a zeroed vault). Schema v1 and v2 are
 * tests/vault/evolution: v2 adds Added (Double, default 2.5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "evo.h"

static size_t v1_save(unsigned char *bytes, size_t cap)
{
    evo_view in;
    memset(&in, 0, sizeof in);
    in.health = 321;
    strcpy(in.name, "Zed");
    return evo_v1_write(&in, bytes, cap);
}

static void test_vault_defaults_missing_field_in_zeroed_vault(void **state)
{
    (void)state;
    unsigned char bytes[512];
    evo_view out;
    size_t n = v1_save(bytes, sizeof bytes);
    assert_true(n > 0);
    assert_int_equal(evo_v2_read_over(bytes, n, 0, &out), 0);
    assert_int_equal(out.health, 321);   /* in the save */
    assert_true(out.added == 2.5);       /* not in the save: v2's default, not 0 */
}

static void test_vault_defaults_missing_field_in_reused_vault(void **state)
{
    (void)state;
    unsigned char bytes[512];
    evo_view out;
    size_t n = v1_save(bytes, sizeof bytes);
    assert_int_equal(evo_v2_read_over(bytes, n, 0x41, &out), 0);
    assert_string_equal(out.name, "Zed");
    assert_true(out.added == 2.5);       /* not what the vault held before */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_defaults_missing_field_in_zeroed_vault),
        cmocka_unit_test(test_vault_defaults_missing_field_in_reused_vault),
    };
    return cmocka_run_group_tests_name("vault_defaults", tests, NULL, NULL);
}
