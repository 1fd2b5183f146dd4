/* Benchmark of threadlink/rng.h: ns per draw of the samplers against a bare SplitMix64 loop (the
 * same generator with nothing around it), with the ratio, in one run. Never a pass/fail test.
 *   bench_rng [passes]       default 9 passes */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <threadlink/rng.h>

#define DRAWS 4000000

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static volatile uint64_t sink;
static int passes = 9;

/* One timed loop of DRAWS iterations: ns per iteration. */
#define LOOP(t, setup, body)                                                                   \
  do {                                                                                         \
    uint64_t acc = 0;                                                                          \
    long i;                                                                                    \
    double t0_;                                                                                \
    setup;                                                                                     \
    t0_ = now_ns();                                                                            \
    for (i = 0; i < DRAWS; i++) { body; }                                                      \
    t = (now_ns() - t0_) / DRAWS;                                                              \
    sink = acc;                                                                                \
  } while (0)

/* The baseline: a bare SplitMix64 loop. */
#define BARE_SPLITMIX(t)                                                                       \
  LOOP(t, uint64_t s = seed, {                                                                 \
    uint64_t z = (s += UINT64_C(0x9E3779B97F4A7C15));                                          \
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);                                        \
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);                                        \
    acc += z ^ (z >> 31);                                                                      \
  })

/* Each pass times the sampler and the bare loop back to back; medians of times and of the
 * per-pass ratios, so that a drifting load does not skew the ratio. */
#define ROW(name, body)                                                                        \
  do {                                                                                         \
    double a_[64], b_[64], r_[64];                                                             \
    int p_;                                                                                    \
    for (p_ = 0; p_ < passes; p_++) {                                                          \
      LOOP(a_[p_], tl_rng r = tl_rng_create1(seed, 7, 1), body);                               \
      BARE_SPLITMIX(b_[p_]);                                                                   \
      r_[p_] = a_[p_] / b_[p_];                                                                \
    }                                                                                          \
    printf("%-36s %9.3f %9.3f %8.2fx\n", name, median(a_), median(b_), median(r_));             \
  } while (0)

static double median(double *v) { qsort(v, (size_t)passes, sizeof v[0], cmp_double); return v[passes / 2]; }

int main(int argc, char **argv) {
  uint64_t seed;
  if (argc > 1) passes = atoi(argv[1]);
  if (passes < 1) passes = 1;
  if (passes > 64) passes = 64;
  seed = (uint64_t)argc * UINT64_C(0x1234567);
  printf("threadlink rng benchmark: ns per draw, medians of %d passes of %d draws\n", passes, DRAWS);
  printf("%-36s %9s %9s %9s\n", "sampler", "tl_rng", "splitmix", "ratio");
  ROW("next_u64", acc += tl_rng_next_u64(&r));
  ROW("range(0, 6)", acc += (uint64_t)tl_rng_range(&r, 0, 6));
  ROW("range(-1000, 1000000)", acc += (uint64_t)tl_rng_range(&r, -1000, 1000000));
  ROW("range(INT32_MIN, INT32_MAX)", acc += (uint64_t)tl_rng_range(&r, INT32_MIN, INT32_MAX));
  ROW("range_fp(-5, 5)", acc += (uint64_t)tl_rng_range_fp(&r, tl_fp_from_int(-5), tl_fp_from_int(5)).raw);
  ROW("value [0, 1)", acc += (uint64_t)tl_rng_value(&r).raw);
  ROW("chance(3, 10)", acc += (uint64_t)tl_rng_chance(&r, 3, 10));
  ROW("chance_fp(0.15)", acc += (uint64_t)tl_rng_chance_fp(&r, tl_fp_from_fraction(3, 20)));
  ROW("inside_unit_circle", { tl_fpv2 p = tl_rng_inside_unit_circle(&r); acc += (uint64_t)p.x.raw; });
  ROW("fork + range(0, 100) (per entity)", { tl_rng s = tl_rng_fork(&r, (uint64_t)i); acc += (uint64_t)tl_rng_range(&s, 0, 100); });
  ROW("create2 + range(0, 100) (per tick)",
      { tl_rng s = tl_rng_create2(seed, 7, 42, (uint64_t)i); (void)r; acc += (uint64_t)tl_rng_range(&s, 0, 100); });
  printf("ratio: tl_rng time / bare SplitMix64 loop time, median of the per-pass ratios\n");
  return 0;
}
