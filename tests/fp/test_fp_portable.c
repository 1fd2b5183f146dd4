/* The two 128-bit paths of fp.h (unsigned __int128 and the portable two-word path forced by
 * TL_FP_PORTABLE_128) give identical bits over the whole corpus: every public function of fp.h
 * and rng.h on edge cases and deterministic random inputs (fp_corpus.c, compiled once per path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

size_t fp_corpus_native(uint64_t *out, size_t cap, long rounds);
size_t fp_corpus_portable(uint64_t *out, size_t cap, long rounds);

static void test_fp_portable_path_is_bit_identical(void **state) {
  enum { CAP = 1 << 23 };
  uint64_t *a = (uint64_t *)malloc(CAP * sizeof *a), *b = (uint64_t *)malloc(CAP * sizeof *b);
  size_t na, nb, i, diffs = 0;
  (void)state;
  assert_non_null(a);
  assert_non_null(b);
  na = fp_corpus_native(a, CAP, 12000);
  nb = fp_corpus_portable(b, CAP, 12000);
  assert_int_equal(na, nb);
  assert_true(na <= CAP);
  for (i = 0; i < na; i++) {
    if (a[i] != b[i]) {
      if (diffs < 10) fprintf(stderr, "word %zu: native %016llx portable %016llx\n", i,
                              (unsigned long long)a[i], (unsigned long long)b[i]);
      diffs++;
    }
  }
  printf("compared %zu result words of the two 128-bit paths: %zu differ\n", na, diffs);
  assert_int_equal(diffs, 0);
  free(a);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_fp_portable_path_is_bit_identical)};
  return cmocka_run_group_tests_name("fp portable path", tests, NULL, NULL);
}
