/* TL_MEM_DEBUG (set for this whole program by meson): live blocks are tracked, leaks are
 * reported, and tl_mem_free refuses pointers it did not hand out, without touching them (so ASan
 * stays quiet too). This file also holds the one TL_MEM_IMPL the debug build needs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

static int reports, last_report = -1;
#define TL_MEM_REPORT(error, message) (reports++, last_report = (int)(error), (void)(message))
#define TL_MEM_IMPL
#include <threadlink/mem.h>

#ifndef TL_MEM_DEBUG
#error "build this test with -DTL_MEM_DEBUG"
#endif

typedef struct leak_log {
  size_t count, bytes;
  uint64_t serials[8];
} leak_log;

static void on_leak(void *user, const void *block, size_t bytes, uint64_t serial) {
  leak_log *log = (leak_log *)user;
  assert_non_null(block);
  if (log->count < 8) log->serials[log->count] = serial;
  log->count++;
  log->bytes += bytes;
}

static void test_mem_debug_reports_leaks(void **state) {
  void *a, *b, *c;
  leak_log log = {0, 0, {0}};
  uint64_t first;
  (void)state;
  assert_int_equal(tl_mem_live_blocks(), 0);
  a = tl_mem_alloc_zeroed(10, 0);
  b = tl_mem_alloc_zeroed(20, 8);
  c = tl_mem_alloc_zeroed(30, 4096);
  assert_int_equal(tl_mem_live_blocks(), 3);
  tl_mem_free(b);
  assert_int_equal(tl_mem_live_blocks(), 2);
  assert_int_equal(tl_mem_report_leaks(on_leak, &log), 2);
  assert_int_equal(log.count, 2);
  assert_int_equal(log.bytes, 40);
  first = log.serials[1]; /* newest first: c, then a */
  assert_int_equal(log.serials[0], first + 2);
  assert_int_equal(tl_mem_report_leaks(NULL, NULL), 2); /* to stderr */
  tl_mem_free(a);
  tl_mem_free(c);
  assert_int_equal(tl_mem_live_blocks(), 0);
  assert_int_equal(tl_mem_report_leaks(on_leak, &log), 0);
}

static void test_mem_debug_refuses_foreign_and_double_free(void **state) {
  void *mine = tl_mem_alloc_zeroed(64, 64);
  unsigned char *foreign = (unsigned char *)malloc(64);
  int before = reports;
  (void)state;
  assert_non_null(foreign);
  tl_mem_free(foreign + 32); /* never handed out */
  assert_int_equal(reports, before + 1);
  assert_int_equal(last_report, TL_MEM_ERROR_FOREIGN_BLOCK);
  tl_mem_free(mine);
  tl_mem_free(mine); /* double free: refused, reported */
  assert_int_equal(reports, before + 2);
  assert_int_equal(tl_mem_live_blocks(), 0);
  tl_mem_free(NULL); /* still ignored */
  assert_int_equal(reports, before + 2);
  free(foreign);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_debug_reports_leaks),
    cmocka_unit_test(test_mem_debug_refuses_foreign_and_double_free),
  };
  return cmocka_run_group_tests_name("mem_debug", tests, NULL, NULL);
}
