/* The part of cmocka's API that the runtime's unit tests use, in one header, for builds where
 * cmocka is not installed for the target processor: a cross build (tests/cross/host) compiles
 * the unit tests with a cross compiler against this header and runs them under qemu-user or Wine.
 * A failed check prints file:line and ends its test (longjmp), the run goes on with the next
 * test, and cmocka_run_group_tests returns the number of failed tests, as cmocka's does. Like
 * cmocka, the including file includes <stdarg.h>, <stddef.h>, <stdint.h> and <setjmp.h> first. */
#ifndef TL_CROSS_CMOCKA_SHIM_H
#define TL_CROSS_CMOCKA_SHIM_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef uintmax_t LargestIntegralType;

struct CMUnitTest {
  const char *name;
  void (*test_func)(void **state);
  int (*setup_func)(void **state);
  int (*teardown_func)(void **state);
  void *initial_state;
};

#define cmocka_unit_test(f) {#f, f, NULL, NULL, NULL}
#define cmocka_unit_test_setup_teardown(f, setup, teardown) {#f, f, setup, teardown, NULL}

static jmp_buf tl_shim_test_exit;

static inline void tl_shim_fail(const char *file, int line, const char *what) {
  printf("%s:%d: error: %s\n", file, line, what);
  longjmp(tl_shim_test_exit, 1);
}

static inline void tl_shim_int_equal(LargestIntegralType a, LargestIntegralType b, int equal,
                              const char *file, int line) {
  char what[128];
  if ((a == b) == equal) return;
  snprintf(what, sizeof what, "0x%" PRIxMAX " %s 0x%" PRIxMAX, a, equal ? "!=" : "==", b);
  tl_shim_fail(file, line, what);
}

#define tl_shim_check(cond, what) \
  do { if (!(cond)) tl_shim_fail(__FILE__, __LINE__, what); } while (0)

#define assert_true(c) tl_shim_check((c), #c " is false")
#define assert_false(c) tl_shim_check(!(c), #c " is true")
#define assert_null(p) tl_shim_check((p) == NULL, #p " is not NULL")
#define assert_non_null(p) tl_shim_check((p) != NULL, #p " is NULL")
#define assert_ptr_equal(a, b) \
  tl_shim_check((const void *)(a) == (const void *)(b), #a " != " #b)
#define assert_int_equal(a, b) \
  tl_shim_int_equal((LargestIntegralType)(a), (LargestIntegralType)(b), 1, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) \
  tl_shim_int_equal((LargestIntegralType)(a), (LargestIntegralType)(b), 0, __FILE__, __LINE__)
#define assert_string_equal(a, b) tl_shim_check(strcmp((a), (b)) == 0, #a " != " #b)
#define assert_memory_equal(a, b, n) tl_shim_check(memcmp((a), (b), (n)) == 0, #a " != " #b)
#define print_message(...) printf(__VA_ARGS__)
#define fail_msg(...) \
  do { printf(__VA_ARGS__); printf("\n"); tl_shim_fail(__FILE__, __LINE__, "fail_msg"); } while (0)

static inline int tl_shim_teardown_ok(const struct CMUnitTest *test, void **state) {
  return !test->teardown_func || test->teardown_func(state) == 0;
}

/* Runs one test; returns 1 when it passed. Nothing the test changes lives in a register across
 * the longjmp: the state is in memory (its address is taken). */
static inline int tl_shim_run_one(const struct CMUnitTest *test, void *group_state) {
  void *state = test->initial_state ? test->initial_state : group_state;
  if (test->setup_func && test->setup_func(&state) != 0) return 0;
  if (setjmp(tl_shim_test_exit) != 0) {
    (void)tl_shim_teardown_ok(test, &state);
    return 0;
  }
  test->test_func(&state);
  return tl_shim_teardown_ok(test, &state);
}

static inline int tl_shim_run(const char *group, const struct CMUnitTest *tests, size_t count,
                       int (*group_setup)(void **), int (*group_teardown)(void **)) {
  void *group_state = NULL;
  size_t i;
  int failed = 0;
  printf("[==========] %s: running %u test(s).\n", group, (unsigned)count);
  if (group_setup && group_setup(&group_state) != 0) {
    printf("[  ERROR   ] %s: group setup failed\n", group);
    return (int)count;
  }
  for (i = 0; i < count; i++) {
    const int ok = tl_shim_run_one(&tests[i], group_state);
    printf("[ %s ] %s\n", ok ? "      OK" : " FAILED ", tests[i].name);
    failed += !ok;
  }
  if (group_teardown) group_teardown(&group_state);
  printf("[  PASSED  ] %u test(s).\n", (unsigned)(count - (size_t)failed));
  if (failed) printf("[  FAILED  ] %d test(s).\n", failed);
  return failed;
}

#define cmocka_run_group_tests_name(name, tests, setup, teardown) \
  tl_shim_run(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#define cmocka_run_group_tests(tests, setup, teardown) \
  tl_shim_run(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#endif /* TL_CROSS_CMOCKA_SHIM_H */
