/* The cmocka subset must fail what cmocka fails: the native build runs this (test
 * cross-shim-selftest) and requires exactly the two failing tests below to be reported, or it
 * trusts none of its runs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static void passes(void **state) {
  (void)state;
  assert_int_equal(2 + 2, 4);
  assert_memory_equal("abc", "abc", 3);
}

static void fails_int(void **state) {
  (void)state;
  assert_int_equal(2 + 2, 5);
}

static void fails_memory(void **state) {
  (void)state;
  assert_memory_equal("abc", "abd", 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(passes),
      cmocka_unit_test(fails_int),
      cmocka_unit_test(fails_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
