/* The A/B benchmark's driver (see ab.sh): every round makes new keys and times each operation
 * on the base runtime, the working tree's and stb_ds in turn, so that host noise falls on all
 * three alike, base and work swapping places every round; prints medians over pairs of rounds and
 * ratios. Never fails on time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "ab.h"
#include "bench_util.h"

int64_t ab_sink;

int main(int argc, char **argv) {
  static const char *const names[AB_OPS] = {"churn-same", "churn-new 8th", "hit", "miss", "insert"};
  double (*const run[3])(int, const ab_round *) = {base_run, work_run, stb_run};
  const uint32_t capacity = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1024;
  const double load = argc > 2 ? atof(argv[2]) : 0.9;
  const int rounds = argc > 3 ? atoi(argv[3]) : 102; /* pairs: see below */
  const uint32_t n = (uint32_t)(capacity * load);
  int64_t *pool = malloc(sizeof(int64_t) * (size_t)n * 11);
  double *times = malloc(sizeof(double) * (size_t)rounds * 3 * AB_OPS);
  ab_round r;
  int op, round, side;
  if (!pool || !times || n == 0 || rounds < 2) return 1;
  r.capacity = capacity;
  r.n = n;
  r.keys = pool;
  r.order = pool + n;
  r.absent = pool + 2 * (size_t)n;
  r.fresh = pool + 3 * (size_t)n;
  for (round = 0; round < rounds; round++) {
    const uint64_t salt = (uint64_t)(round + 1) << 40;
    uint32_t i;
    for (i = 0; i < n; i++) pool[i] = (int64_t)mix64(salt + i);
    for (i = 0; i < n; i++) pool[n + i] = pool[i];
    for (i = n; i > 1; i--) { /* shuffle the lookup order */
      const uint32_t j = (uint32_t)(mix64(salt ^ (0x5bd1e995ull * i)) % i);
      const int64_t x = pool[n + i - 1];
      pool[n + i - 1] = pool[n + j];
      pool[n + j] = x;
    }
    for (i = 0; i < 9 * n; i++) pool[2 * (size_t)n + i] = (int64_t)mix64(salt + n + i);
    /* Base and work swap places every round: the side that runs second got up to 1.6x faster
     * inserts in an A/A run at 1,048,576 slots (it gets memory the first one freed). */
    for (op = 0; op < AB_OPS; op++)
      for (side = 0; side < 3; side++) {
        const int which = side == 2 ? 2 : (side ^ (round & 1));
        times[((size_t)op * 3 + which) * rounds + round] = run[which](op, &r);
      }
  }
  printf("capacity %u, load %.2f, %d rounds; ns per operation (medians of the means of round "
         "pairs)\n", capacity, load, rounds);
  printf("%-14s %9s %9s %9s %10s %10s\n", "operation", "base", "work", "stb_ds", "work/base",
         "work/stb");
  for (op = 0; op < AB_OPS; op++) {
    double m[3];
    for (side = 0; side < 3; side++) {
      /* A pair of rounds has each order once, so a pair's mean does not depend on the order. */
      double *v = times + ((size_t)op * 3 + side) * rounds;
      const int pairs = rounds / 2;
      int k;
      for (k = 0; k < pairs; k++) v[k] = (v[2 * k] + v[2 * k + 1]) / 2;
      qsort(v, (size_t)pairs, sizeof *v, compare_double);
      m[side] = pairs % 2 ? v[pairs / 2] : (v[pairs / 2 - 1] + v[pairs / 2]) / 2;
    }
    printf("%-14s %9.2f %9.2f %9.2f %10.3f %10.3f\n", names[op], m[0], m[1], m[2], m[1] / m[0],
           m[1] / m[2]);
  }
  free(pool);
  free(times);
  return ab_sink == 42 ? 2 : 0;
}
