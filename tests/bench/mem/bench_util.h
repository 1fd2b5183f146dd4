/* Helpers shared by the mem benchmarks (bench_mem and ab/). Header-only; each includer needs
 * _POSIX_C_SOURCE (or _GNU_SOURCE) defined before its first system header for clock_gettime. */
#ifndef TESTS_BENCH_MEM_BENCH_UTIL_H
#define TESTS_BENCH_MEM_BENCH_UTIL_H
#include <stdint.h>
#include <time.h>

static inline double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline uint64_t mix64(uint64_t z) { /* a bijection: distinct inputs give distinct keys */
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline int compare_double(const void *a, const void *b) { /* for qsort */
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
#endif
