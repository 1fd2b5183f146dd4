/* Benchmark of threadlink/fp.h: ns per operation of tl_fp (Q32.32, rounded, saturating, <= 1 raw
 * unit) beside `double` (libm) and libfixmath (Q16.16, the C library users pick today), with the
 * ratios, in one run. Each pass times the three loops back to back over 32768 varied inputs
 * (throughput: independent operations, each result stored; built without auto-vectorisation so
 * that every side is scalar); the figures are medians over the passes, the ratios medians of the
 * per-pass ratios, so that a load that drifts during the run does not skew them. Never a
 * pass/fail test.
 *
 *   bench_fp [passes]       default 9 passes */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <threadlink/fp.h>

#ifdef TL_BENCH_HAVE_LIBFIXMATH
#include <libfixmath/fixmath.h>
#else /* no libfixmath: its column shows "-" */
typedef int32_t fix16_t;
static fix16_t fix16_from_dbl(double d) { return (fix16_t)(d * 65536.0); }
#endif

#define N 32768
#define REPEAT 8

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t rng_state;
static uint64_t next_u64(void) {
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(next_u64() >> 11) * 0x1p-53; }

/* Inputs per domain, in the three representations. */
typedef struct { double d[N], d2[N]; tl_fp f[N], f2[N]; fix16_t x[N], x2[N]; } inputs;
static inputs in;
static int64_t out_i[N];
static double out_d[N];
static volatile int64_t sink_i;
static volatile double sink_d;

static void fill(double lo, double hi, double lo2, double hi2) {
  int i;
  for (i = 0; i < N; i++) {
    in.d[i] = uniform(lo, hi); in.d2[i] = uniform(lo2, hi2);
    in.f[i] = tl_fp_from_double(in.d[i]); in.f2[i] = tl_fp_from_double(in.d2[i]);
    in.x[i] = fix16_from_dbl(in.d[i]); in.x2[i] = fix16_from_dbl(in.d2[i]);
  }
}

static int passes = 9;
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmp_double); return v[n / 2]; }

/* Time one loop: ns per element. */
#define LOOP(t, body, sink)                                                                    \
  do {                                                                                         \
    double t0_ = now_ns();                                                                     \
    int r_, i;                                                                                 \
    for (r_ = 0; r_ < REPEAT; r_++)                                                            \
      for (i = 0; i < N; i++) { body; }                                                        \
    sink;                                                                                      \
    t = (now_ns() - t0_) / ((double)N * REPEAT);                                               \
  } while (0)

#ifdef TL_BENCH_HAVE_LIBFIXMATH
#define HAVE_FIX 1
#define FIX_LOOP(t, body, sink) LOOP(t, body, sink)
#else
#define HAVE_FIX 0
#define FIX_LOOP(t, body, sink) (t = 0)
#endif

/* One row: each pass runs tl_fp, double and libfixmath back to back. */
#define ROW(name, fp_body, d_body, fix_body)                                                   \
  do {                                                                                         \
    double a_[64], b_[64], c_[64], rb_[64], rc_[64];                                           \
    int p_;                                                                                    \
    for (p_ = 0; p_ < passes; p_++) {                                                          \
      LOOP(a_[p_], fp_body, sink_i = out_i[N / 2]);                                            \
      LOOP(b_[p_], d_body, sink_d = out_d[N / 2]);                                             \
      FIX_LOOP(c_[p_], fix_body, sink_i = out_i[N / 2]);                                       \
      rb_[p_] = a_[p_] / b_[p_];                                                               \
      rc_[p_] = HAVE_FIX ? a_[p_] / c_[p_] : 0;                                                \
    }                                                                                          \
    print_row(name, median(a_, passes), median(b_, passes), median(rb_, passes),               \
              median(c_, passes), median(rc_, passes));                                        \
  } while (0)

static void print_row(const char *op, double ours, double dbl, double rd, double fix, double rf) {
  printf("%-14s %9.2f %9.2f %8.2fx", op, ours, dbl, rd);
  if (HAVE_FIX) printf(" %10.2f %8.2fx\n", fix, rf);
  else printf(" %10s %9s\n", "-", "-");
}

#ifdef TL_BENCH_HAVE_LIBFIXMATH
static fix16_t fix_normalize3(fix16_t x, fix16_t y, fix16_t z) {
  fix16_t m = fix16_sqrt(fix16_add(fix16_add(fix16_mul(x, x), fix16_mul(y, y)), fix16_mul(z, z)));
  return fix16_div(x, m) ^ fix16_div(y, m) ^ fix16_div(z, m);
}
#endif
static int64_t fp_normalize3(tl_fp x, tl_fp y, tl_fp z) {
  tl_fpv3 u = tl_fpv3_normalize(tl_fpv3_make(x, y, z));
  return u.x.raw ^ u.y.raw ^ u.z.raw;
}
static double d_normalize3(double x, double y, double z) {
  double m = sqrt(x * x + y * y + z * z);
  return x / m + y / m + z / m;
}

int main(int argc, char **argv) {
  if (argc > 1) passes = atoi(argv[1]);
  if (passes < 1) passes = 1;
  if (passes > 64) passes = 64;
  rng_state = (uint64_t)argc; /* fixed inputs, opaque to the optimiser */

  printf("threadlink fp benchmark: ns per operation, medians of %d passes over %d inputs\n", passes, N);
  printf("%-14s %9s %9s %9s %10s %9s\n", "op", "tl_fp", "double", "ratio", "libfixmath", "ratio");

  fill(-1000.0, 1000.0, -1000.0, 1000.0);
  ROW("add", out_i[i] = tl_fp_add(in.f[i], in.f2[i]).raw, out_d[i] = in.d[i] + in.d2[i],
      out_i[i] = fix16_add(in.x[i], in.x2[i]));
  fill(-100.0, 100.0, -100.0, 100.0);
  ROW("mul", out_i[i] = tl_fp_mul(in.f[i], in.f2[i]).raw, out_d[i] = in.d[i] * in.d2[i],
      out_i[i] = fix16_mul(in.x[i], in.x2[i]));
  fill(-1000.0, 1000.0, 0.5, 100.0);
  ROW("div", out_i[i] = tl_fp_div(in.f[i], in.f2[i]).raw, out_d[i] = in.d[i] / in.d2[i],
      out_i[i] = fix16_div(in.x[i], in.x2[i]));
  fill(0.0, 30000.0, 0, 0);
  ROW("sqrt", out_i[i] = tl_fp_sqrt(in.f[i]).raw, out_d[i] = sqrt(in.d[i]), out_i[i] = fix16_sqrt(in.x[i]));
  fill(-30000.0, 30000.0, 0, 0);
  ROW("sin", out_i[i] = tl_fp_sin(in.f[i]).raw, out_d[i] = sin(in.d[i]), out_i[i] = fix16_sin(in.x[i]));
  ROW("cos", out_i[i] = tl_fp_cos(in.f[i]).raw, out_d[i] = cos(in.d[i]), out_i[i] = fix16_cos(in.x[i]));
  fill(-1.5, 1.5, 0, 0);
  ROW("tan", out_i[i] = tl_fp_tan(in.f[i]).raw, out_d[i] = tan(in.d[i]), out_i[i] = fix16_tan(in.x[i]));
  fill(-1.0, 1.0, 0, 0);
  ROW("asin", out_i[i] = tl_fp_asin(in.f[i]).raw, out_d[i] = asin(in.d[i]), out_i[i] = fix16_asin(in.x[i]));
  fill(-1000.0, 1000.0, -1000.0, 1000.0);
  ROW("atan2", out_i[i] = tl_fp_atan2(in.f[i], in.f2[i]).raw, out_d[i] = atan2(in.d[i], in.d2[i]),
      out_i[i] = fix16_atan2(in.x[i], in.x2[i]));
  fill(-10.0, 10.0, 0, 0);
  ROW("exp", out_i[i] = tl_fp_exp(in.f[i]).raw, out_d[i] = exp(in.d[i]), out_i[i] = fix16_exp(in.x[i]));
  fill(0.001, 30000.0, 0, 0);
  ROW("log", out_i[i] = tl_fp_log(in.f[i]).raw, out_d[i] = log(in.d[i]), out_i[i] = fix16_log(in.x[i]));
  ROW("log2", out_i[i] = tl_fp_log2(in.f[i]).raw, out_d[i] = log2(in.d[i]), out_i[i] = fix16_log2(in.x[i]));
  /* pow: libfixmath has none; its users write exp(y log x) */
  fill(0.1, 10.0, -3.0, 3.0);
  ROW("pow", out_i[i] = tl_fp_pow(in.f[i], in.f2[i]).raw, out_d[i] = pow(in.d[i], in.d2[i]),
      out_i[i] = fix16_exp(fix16_mul(in.x2[i], fix16_log(in.x[i]))));
  fill(-100.0, 100.0, -100.0, 100.0);
  ROW("v3 normalize", out_i[i] = fp_normalize3(in.f[i], in.f2[i], in.f[i ^ 1]),
      out_d[i] = d_normalize3(in.d[i], in.d2[i], in.d[i ^ 1]),
      out_i[i] = fix_normalize3(in.x[i], in.x2[i], in.x[i ^ 1]));
  printf("ratio: tl_fp time / baseline time, median of the per-pass ratios (below 1: faster)\n");
  return 0;
}
