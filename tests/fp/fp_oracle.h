/* MPFR oracle for threadlink/fp.h: deterministic inputs, the true value (MPFR at 256 bits for the
 * exactly rounded operations, 128 for the others: fp_oracle.c), the contract's error bound, and
 * the share of correctly rounded results. Test-only (libmpfr). */
#ifndef TL_TEST_FP_ORACLE_H
#define TL_TEST_FP_ORACLE_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  const char *name;
  long count;          /* inputs checked */
  long over_bound;     /* results outside the contract's bound */
  long correct;        /* results equal to the correctly rounded value */
  double max_err;      /* largest error in raw units */
  double max_ratio;    /* largest error / bound (the bound: 1 raw unit, or 2^-60 |value| for
                          tan, exp and pow when larger; 1/2 raw unit for the exact operations) */
  int64_t worst_x, worst_y; /* the inputs of the largest error / bound */
} fp_oracle_stats;

/* Names of the checked functions, NULL-terminated: sin cos tan asin acos atan atan2 exp log log2
 * pow, and the exactly rounded ones (mul div from_fraction sqrt lerp inverse_lerp deg_to_rad
 * rad_to_deg v2_magnitude v3_magnitude), which must be correctly rounded every time. */
extern const char *const fp_oracle_functions[];

/* Check `function` on the edge cases plus `random_count` deterministic inputs from `seed` (inside
 * the function's domain; values outside it are unit-tested).
 * Returns 0 when every result is within the bound. */
int fp_oracle_run(const char *function, long random_count, uint64_t seed, fp_oracle_stats *out);

/* One report line. */
void fp_oracle_print(FILE *f, const fp_oracle_stats *s);

#endif
