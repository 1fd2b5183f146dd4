/* The MPFR oracle over every checked function: the edge cases plus N deterministic random inputs
 * each (default 1,000,000). Prints, per function, the largest error in raw units and the share of
 * correctly rounded results; fails when a result is outside the contract's bound.
 *   test_fp_oracle [N] [function]        ends with "N passed, N failed" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp_oracle.h"

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  const char *const *f;
  int passed = 0, failed = 0;
#ifdef TL_FP_PORTABLE_128
  printf("fp oracle (portable 128-bit path), %ld random inputs per function plus edge cases\n", n);
#else
  printf("fp oracle, %ld random inputs per function plus edge cases\n", n);
#endif
  for (f = fp_oracle_functions; *f; f++) {
    fp_oracle_stats s;
    if (argc > 2 && strcmp(argv[2], *f) != 0) continue;
    if (fp_oracle_run(*f, n, UINT64_C(0x0123456789ABCDEF), &s)) failed++; else passed++;
    fp_oracle_print(stdout, &s);
    fflush(stdout);
  }
  printf("oracle: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
