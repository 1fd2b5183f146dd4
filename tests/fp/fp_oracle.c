/* MPFR oracle for threadlink/fp.h (see fp_oracle.h). Every input is an exact Q32.32 value, so
 * MPFR gives the true result (correctly rounded at the precision below); the test compares our raw
 * result with it. */
#include "fp_oracle.h"

#include <math.h>
#include <mpfr.h>
#include <string.h>

#include <threadlink/fp.h>

/* The reference's precision. The exactly rounded operations get 256 bits: their true values are
 * exact there (a product of two 64-bit values, a sum of three squares), so "correctly rounded" is
 * decided on the exact value. The approximated functions get 128: their bound is 1 raw unit (or
 * 2^-60 of the value), and a 128-bit result, at most 2^63 raw units, is within 2^-65 raw units of
 * the true value, far inside it (the share of correctly rounded results could change only for a
 * true value within 2^-65 of a half raw unit). MPFR at 128 bits takes a third less time. The
 * reference functions work at their output's precision, PREC(o). */
#define PREC_EXACT 256
#define PREC_APPROX 128
#define PREC(o) mpfr_get_prec(o)

/* ---- deterministic input generation ------------------------------------------------------ */

typedef struct { uint64_t s; } gen_rng;
static uint64_t gen_next(gen_rng *g) {
  uint64_t z = (g->s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static double gen_unit(gen_rng *g) { return (double)(gen_next(g) >> 11) * (1.0 / 9007199254740992.0); }
/* Uniform raw value in [lo, hi] (given as doubles, converted exactly enough for inputs). */
static int64_t gen_range(gen_rng *g, double lo, double hi) {
  return tl_fp_from_double(lo + (hi - lo) * gen_unit(g)).raw;
}
/* Log-uniform magnitude over every scale from 1 raw unit to 2^63, random sign. */
static int64_t gen_log(gen_rng *g, int allow_neg) {
  uint64_t v = gen_next(g) >> (gen_next(g) % 64);
  int64_t r = (int64_t)(v >> 1);
  if (allow_neg && (gen_next(g) & 1)) r = -r;
  return r;
}
static int64_t gen_any(gen_rng *g) { return (int64_t)gen_next(g); }
static int64_t gen_pick(gen_rng *g, const int64_t *v, size_t n) { return v[gen_next(g) % n]; }

#define ONE_RAW (INT64_C(1) << 32)
static const int64_t edges[] = {
  0, 1, -1, 2, -2, 3, INT64_C(0x7FFFFFFF), INT64_C(0x80000000), -INT64_C(0x80000000),
  ONE_RAW - 1, ONE_RAW, ONE_RAW + 1, -ONE_RAW + 1, -ONE_RAW, -ONE_RAW - 1,
  2 * ONE_RAW, -2 * ONE_RAW, 10 * ONE_RAW, 100 * ONE_RAW, -100 * ONE_RAW,
  INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, INT64_MAX / 2, INT64_MIN / 2,
  INT64_C(1) << 62, -(INT64_C(1) << 62), INT64_C(1000000) << 32, INT64_C(2000000000) << 32,
  -(INT64_C(2000000000) << 32), INT64_C(6746518852), INT64_C(13493037705), INT64_C(26986075409),
  -INT64_C(6746518852), INT64_C(11674931555), INT64_C(92233720368) /* ~21.47 */,
  INT64_C(92288000000), -INT64_C(98214000000), -INT64_C(99000000000)};
#define N_EDGES (sizeof edges / sizeof edges[0])

/* ---- the checked functions --------------------------------------------------------------- */

enum { BOUND_ULP, BOUND_REL, BOUND_EXACT };

typedef struct {
  const char *name;
  int arity;
  int bound;
  void (*gen)(gen_rng *g, int64_t *x, int64_t *y, int64_t *z);
  int64_t (*ours)(int64_t x, int64_t y, int64_t z);
  int (*ref)(mpfr_t out, int64_t x, int64_t y, int64_t z); /* 0: no reference, skip */
} fn_desc;

static void setx(mpfr_t v, int64_t raw) { mpfr_set_sj(v, raw, MPFR_RNDN); mpfr_mul_2si(v, v, -32, MPFR_RNDN); }

#define UNARY(fname, expr, mfun)                                                               \
  static int64_t ours_##fname(int64_t x, int64_t y, int64_t z) {                                 \
    (void)y; (void)z; return expr(tl_fp_from_raw(x)).raw; }                                    \
  static int ref_##fname(mpfr_t o, int64_t x, int64_t y, int64_t z) {                           \
    mpfr_t a; (void)y; (void)z; mpfr_init2(a, PREC(o)); setx(a, x); mfun(o, a, MPFR_RNDN);      \
    mpfr_clear(a); return 1; }
UNARY(sin, tl_fp_sin, mpfr_sin)
UNARY(cos, tl_fp_cos, mpfr_cos)
UNARY(tan, tl_fp_tan, mpfr_tan)
UNARY(atan, tl_fp_atan, mpfr_atan)
UNARY(exp, tl_fp_exp, mpfr_exp)

static int64_t ours_asin(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_asin(tl_fp_from_raw(x)).raw; }
static int64_t ours_acos(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_acos(tl_fp_from_raw(x)).raw; }
static int ref_asin(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z;
  if (x > ONE_RAW || x < -ONE_RAW) return 0;
  mpfr_init2(a, PREC(o)); setx(a, x); mpfr_asin(o, a, MPFR_RNDN); mpfr_clear(a); return 1;
}
static int ref_acos(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z;
  if (x > ONE_RAW || x < -ONE_RAW) return 0;
  mpfr_init2(a, PREC(o)); setx(a, x); mpfr_acos(o, a, MPFR_RNDN); mpfr_clear(a); return 1;
}
static int64_t ours_log(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_log(tl_fp_from_raw(x)).raw; }
static int64_t ours_log2(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_log2(tl_fp_from_raw(x)).raw; }
static int ref_log(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z;
  if (x <= 0) return 0;
  mpfr_init2(a, PREC(o)); setx(a, x); mpfr_log(o, a, MPFR_RNDN); mpfr_clear(a); return 1;
}
static int ref_log2(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z;
  if (x <= 0) return 0;
  mpfr_init2(a, PREC(o)); setx(a, x); mpfr_log2(o, a, MPFR_RNDN); mpfr_clear(a); return 1;
}
static int64_t ours_atan2(int64_t x, int64_t y, int64_t z) { (void)z; return tl_fp_atan2(tl_fp_from_raw(x), tl_fp_from_raw(y)).raw; }
static int ref_atan2(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; (void)z;
  if (x == 0 && y == 0) return 0;
  mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0); setx(a, x); setx(b, y);
  mpfr_atan2(o, a, b, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}
static int64_t ours_pow(int64_t x, int64_t y, int64_t z) { (void)z; return tl_fp_pow(tl_fp_from_raw(x), tl_fp_from_raw(y)).raw; }
static int ref_pow(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; (void)z;
  if (x == 0 || y == 0) return 0;                          /* documented special cases */
  if (x < 0 && ((uint64_t)y & 0xFFFFFFFFu)) return 0;       /* negative base, non-integer y */
  mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0); setx(a, x); setx(b, y);
  mpfr_pow(o, a, b, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}

/* Exactly rounded operations. */
static int64_t ours_mul(int64_t x, int64_t y, int64_t z) { (void)z; return tl_fp_mul(tl_fp_from_raw(x), tl_fp_from_raw(y)).raw; }
static int ref_mul(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; (void)z; mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0); setx(a, x); setx(b, y);
  mpfr_mul(o, a, b, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}
static int64_t ours_div(int64_t x, int64_t y, int64_t z) { (void)z; return tl_fp_div(tl_fp_from_raw(x), tl_fp_from_raw(y)).raw; }
static int ref_div(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; (void)z;
  if (y == 0) return 0;
  mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0); setx(a, x); setx(b, y);
  mpfr_div(o, a, b, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}
static int64_t ours_fraction(int64_t x, int64_t y, int64_t z) { (void)z; return tl_fp_from_fraction(x, y).raw; }
static int ref_fraction(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; (void)z;
  if (y == 0) return 0;
  mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0); mpfr_set_sj(a, x, MPFR_RNDN); mpfr_set_sj(b, y, MPFR_RNDN);
  mpfr_div(o, a, b, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}
static int64_t ours_sqrt(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_sqrt(tl_fp_from_raw(x)).raw; }
static int ref_sqrt(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z;
  if (x < 0) return 0;
  mpfr_init2(a, PREC(o)); setx(a, x); mpfr_sqrt(o, a, MPFR_RNDN); mpfr_clear(a); return 1;
}
static int64_t ours_d2r(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_deg_to_rad(tl_fp_from_raw(x)).raw; }
static int ref_d2r(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z; mpfr_init2(a, PREC(o)); setx(a, x);
  mpfr_const_pi(o, MPFR_RNDN); mpfr_mul(o, o, a, MPFR_RNDN); mpfr_div_ui(o, o, 180, MPFR_RNDN);
  mpfr_clear(a); return 1;
}
static int64_t ours_r2d(int64_t x, int64_t y, int64_t z) { (void)y; (void)z; return tl_fp_rad_to_deg(tl_fp_from_raw(x)).raw; }
static int ref_r2d(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a; (void)y; (void)z; mpfr_init2(a, PREC(o)); setx(a, x);
  mpfr_const_pi(o, MPFR_RNDN); mpfr_ui_div(o, 180, o, MPFR_RNDN); mpfr_mul(o, o, a, MPFR_RNDN);
  mpfr_clear(a); return 1;
}
static int64_t ours_v2mag(int64_t x, int64_t y, int64_t z) {
  tl_fpv2 v; (void)z; v.x = tl_fp_from_raw(x); v.y = tl_fp_from_raw(y); return tl_fpv2_magnitude(v).raw;
}
static int64_t ours_v3mag(int64_t x, int64_t y, int64_t z) {
  tl_fpv3 v; v.x = tl_fp_from_raw(x); v.y = tl_fp_from_raw(y); v.z = tl_fp_from_raw(z); return tl_fpv3_magnitude(v).raw;
}
static int ref_mag(mpfr_t o, int64_t x, int64_t y, int64_t z) {
  mpfr_t a, b; mpfr_inits2(PREC(o), a, b, (mpfr_ptr)0);
  setx(a, x); mpfr_sqr(o, a, MPFR_RNDN);
  setx(b, y); mpfr_sqr(b, b, MPFR_RNDN); mpfr_add(o, o, b, MPFR_RNDN);
  setx(b, z); mpfr_sqr(b, b, MPFR_RNDN); mpfr_add(o, o, b, MPFR_RNDN);
  mpfr_sqrt(o, o, MPFR_RNDN); mpfr_clears(a, b, (mpfr_ptr)0); return 1;
}

/* ---- generators -------------------------------------------------------------------------- */

static void g_trig(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 6;
  *y = *z = 0;
  if (k == 0) *x = gen_any(g);                                    /* |x| up to 2^31 */
  else if (k == 1) *x = gen_range(g, -8.0, 8.0);
  else if (k == 2) *x = gen_log(g, 1);
  else if (k == 3) {                                              /* next to a multiple of pi/2 */
    double m = (double)(gen_next(g) % 1367130551u) - 683565275.0;
    int64_t base = tl_fp_from_double(m * 1.5707963267948966).raw;
    *x = base + (int64_t)(gen_next(g) % 4097) - 2048;
  } else if (k == 4) *x = gen_range(g, -2000.0, 2000.0);
  else *x = (int64_t)(gen_next(g) >> 1) - (int64_t)(gen_next(g) >> 1);
}
static void g_trig_small(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  /* tan near its poles: offsets of a few raw units from (k + 1/2) pi */
  uint64_t k = gen_next(g) % 3;
  *y = *z = 0;
  if (k == 0) {
    double m = (double)(gen_next(g) % 1000000u) + 0.5;
    int64_t base = tl_fp_from_double(m * 3.141592653589793).raw;
    *x = base + (int64_t)(gen_next(g) % 2000001) - 1000000;
    if (gen_next(g) & 1) *x = -*x;
  } else g_trig(g, x, y, z);
}
static void g_atan(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  *y = *z = 0;
  *x = (gen_next(g) & 3) ? gen_log(g, 1) : gen_range(g, -4.0, 4.0);
}
static void g_atan2(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 5;
  *z = 0;
  *x = gen_log(g, 1); *y = gen_log(g, 1);
  if (k == 0) *y = (gen_next(g) & 1) ? *x : -*x;
  else if (k == 1) { *x = gen_any(g); *y = gen_any(g); }
  else if (k == 2) *y = (*x >> 3) + (int64_t)(gen_next(g) % 1024);
  if (gen_next(g) % 64 == 0) { if (gen_next(g) & 1) *x = 0; else *y = 0; }
}
static void g_asin(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 4;
  *y = *z = 0;
  if (k == 0) *x = (int64_t)(gen_next(g) % (2 * (uint64_t)ONE_RAW + 1)) - ONE_RAW;
  else if (k == 1) *x = (gen_next(g) & 1 ? 1 : -1) * (ONE_RAW - (int64_t)(gen_next(g) >> (gen_next(g) % 32 + 32)));
  else if (k == 2) *x = (gen_next(g) & 1 ? 1 : -1) * (int64_t)((uint64_t)ONE_RAW >> (gen_next(g) % 33));
  else { *x = gen_log(g, 1); if (*x > ONE_RAW || *x < -ONE_RAW) *x /= INT64_C(1) << 31; }
}
static void g_exp(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 4;
  *y = *z = 0;
  if (k <= 1) *x = gen_range(g, -23.5, 22.5);
  else if (k == 2) *x = gen_range(g, 19.0, 21.5);
  else { *x = gen_log(g, 1); if (*x > (INT64_C(23) << 32) || *x < -(INT64_C(23) << 32)) *x >>= 27; }
}
static void g_log(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 4;
  *y = *z = 0;
  if (k <= 1) *x = gen_log(g, 0);
  else if (k == 2) *x = ONE_RAW + (int64_t)(gen_next(g) % 2000001) - 1000000;
  else *x = (int64_t)(gen_next(g) >> 1);
  if (*x <= 0) *x = 1;
}
static void g_pow(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 6;
  *z = 0;
  *x = gen_log(g, 0);
  if (*x <= 0) *x = 1;
  if (k == 0) *y = gen_range(g, -40.0, 40.0);
  else if (k <= 2) {               /* results across the whole range: y = t / log2(x) */
    double l2 = log2((double)*x) - 32.0, t = -34.0 + 66.0 * gen_unit(g);
    *y = (fabs(l2) < 1e-12) ? gen_range(g, -5.0, 5.0) : tl_fp_from_double(t / l2).raw;
  } else if (k == 3) {             /* x near 1, large y */
    *x = ONE_RAW + (int64_t)(gen_next(g) % 20001) - 10000;
    if (*x == ONE_RAW) *x += 1;
    *y = gen_range(g, -2e6, 2e6);
  } else if (k == 4) {             /* negative base, integer exponent */
    *x = -gen_range(g, 0.01, 100.0);
    *y = ((int64_t)(gen_next(g) % 41) - 20) * ONE_RAW;
    if (*x == 0) *x = -1;
  } else { *y = gen_log(g, 1); }
  if (*y == 0) *y = 1;
}
static void g_arith(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 3;
  *z = 0;
  if (k == 0) { *x = gen_any(g); *y = gen_any(g); }
  else if (k == 1) { *x = gen_log(g, 1); *y = gen_log(g, 1); }
  else { *x = gen_range(g, -1000.0, 1000.0); *y = gen_range(g, -1000.0, 1000.0); }
  if (*y == 0) *y = 1;
}
static void g_unary_any(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  *y = *z = 0;
  *x = (gen_next(g) & 1) ? gen_any(g) : gen_log(g, 1);
}
static void g_vec(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) {
  uint64_t k = gen_next(g) % 3;
  if (k == 0) { *x = gen_any(g); *y = gen_any(g); *z = gen_any(g); }
  else if (k == 1) { *x = gen_log(g, 1); *y = gen_log(g, 1); *z = gen_log(g, 1); }
  else { *x = (int64_t)(gen_next(g) % 7) - 3; *y = (int64_t)(gen_next(g) % 7) - 3; *z = (int64_t)(gen_next(g) % 7) - 3; }
}
static void g_vec2(gen_rng *g, int64_t *x, int64_t *y, int64_t *z) { g_vec(g, x, y, z); *z = 0; }

static const fn_desc fns[] = {
  {"sin", 1, BOUND_ULP, g_trig, ours_sin, ref_sin},
  {"cos", 1, BOUND_ULP, g_trig, ours_cos, ref_cos},
  {"tan", 1, BOUND_REL, g_trig_small, ours_tan, ref_tan},
  {"asin", 1, BOUND_ULP, g_asin, ours_asin, ref_asin},
  {"acos", 1, BOUND_ULP, g_asin, ours_acos, ref_acos},
  {"atan", 1, BOUND_ULP, g_atan, ours_atan, ref_atan},
  {"atan2", 2, BOUND_ULP, g_atan2, ours_atan2, ref_atan2},
  {"exp", 1, BOUND_REL, g_exp, ours_exp, ref_exp},
  {"log", 1, BOUND_ULP, g_log, ours_log, ref_log},
  {"log2", 1, BOUND_ULP, g_log, ours_log2, ref_log2},
  {"pow", 2, BOUND_REL, g_pow, ours_pow, ref_pow},
  {"mul", 2, BOUND_EXACT, g_arith, ours_mul, ref_mul},
  {"div", 2, BOUND_EXACT, g_arith, ours_div, ref_div},
  {"from_fraction", 2, BOUND_EXACT, g_arith, ours_fraction, ref_fraction},
  {"sqrt", 1, BOUND_EXACT, g_unary_any, ours_sqrt, ref_sqrt},
  {"deg_to_rad", 1, BOUND_EXACT, g_unary_any, ours_d2r, ref_d2r},
  {"rad_to_deg", 1, BOUND_EXACT, g_unary_any, ours_r2d, ref_r2d},
  {"v2_magnitude", 2, BOUND_EXACT, g_vec2, ours_v2mag, ref_mag},
  {"v3_magnitude", 3, BOUND_EXACT, g_vec, ours_v3mag, ref_mag},
};
#define N_FNS (sizeof fns / sizeof fns[0])

const char *const fp_oracle_functions[] = {
  "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp", "log", "log2", "pow",
  "mul", "div", "from_fraction", "sqrt", "deg_to_rad", "rad_to_deg", "v2_magnitude",
  "v3_magnitude", NULL};

/* ---- checking ---------------------------------------------------------------------------- */

typedef struct { mpfr_t t, c, e, r, lim; } work;

/* Checks one input; returns 0 when the function has no reference value there (outside its
 * domain: those values are unit-tested instead). */
static int check_one(const fn_desc *f, work *w, int64_t x, int64_t y, int64_t z, fp_oracle_stats *s) {
  int64_t ours = f->ours(x, y, z);
  double err, bound = 1.0;
  int correct;
  if (!f->ref(w->t, x, y, z)) return 0;
  s->count++;
  mpfr_mul_2si(w->t, w->t, 32, MPFR_RNDN);                       /* true value in raw units */
  mpfr_set(w->c, w->t, MPFR_RNDN);                                /* clamped to the range */
  mpfr_set_sj(w->lim, INT64_MAX, MPFR_RNDN);
  if (mpfr_cmp(w->c, w->lim) > 0) mpfr_set(w->c, w->lim, MPFR_RNDN);
  mpfr_set_sj(w->lim, INT64_MIN, MPFR_RNDN);
  if (mpfr_cmp(w->c, w->lim) < 0) mpfr_set(w->c, w->lim, MPFR_RNDN);
  mpfr_round(w->r, w->c);                                         /* halves away from zero */
  mpfr_set_sj(w->e, ours, MPFR_RNDN);
  correct = mpfr_cmp(w->r, w->e) == 0;
  mpfr_sub(w->e, w->e, w->c, MPFR_RNDN);
  err = fabs(mpfr_get_d(w->e, MPFR_RNDN));
  if (f->bound == BOUND_REL) {
    double mag = fabs(mpfr_get_d(w->t, MPFR_RNDN));
    if (mag * 0x1p-60 > bound) bound = mag * 0x1p-60;
  }
  if (f->bound == BOUND_EXACT) bound = 0.5;
  if (correct) s->correct++;
  if ((f->bound == BOUND_EXACT && !correct) || err > bound) {
    if (s->over_bound < 5)
      fprintf(stderr, "fp oracle: %s(%lld, %lld, %lld) = %lld, correctly rounded %lld, error %.3f raw units\n",
              f->name, (long long)x, (long long)y, (long long)z, (long long)ours,
              (long long)mpfr_get_sj(w->r, MPFR_RNDN), err);
    s->over_bound++;
  }
  if (err > s->max_err) s->max_err = err;
  if (err / bound > s->max_ratio) { s->max_ratio = err / bound; s->worst_x = x; s->worst_y = y; }
  return 1;
}

int fp_oracle_run(const char *function, long random_count, uint64_t seed, fp_oracle_stats *out) {
  const fn_desc *f = NULL;
  work w;
  gen_rng g;
  size_t i, j;
  long n, checked = 0;
  for (i = 0; i < N_FNS; i++) if (strcmp(fns[i].name, function) == 0) f = &fns[i];
  memset(out, 0, sizeof *out);
  out->name = function;
  if (!f) { fprintf(stderr, "fp oracle: unknown function %s\n", function); out->over_bound = 1; return 1; }
  out->name = f->name;
  mpfr_inits2(f->bound == BOUND_EXACT ? PREC_EXACT : PREC_APPROX, w.t, w.c, w.e, w.r, w.lim, (mpfr_ptr)0);
  /* edge cases: every edge value, and for two-argument functions every pair */
  for (i = 0; i < N_EDGES; i++) {
    if (f->arity == 1) check_one(f, &w, edges[i], 0, 0, out);
    else for (j = 0; j < N_EDGES; j++) {
      check_one(f, &w, edges[i], edges[j], 0, out);
      if (f->arity == 3) check_one(f, &w, edges[i], edges[j], edges[(i + j) % N_EDGES], out);
    }
  }
  g.s = seed ^ (uint64_t)strlen(function) * UINT64_C(0x9E3779B97F4A7C15);
  /* random_count inputs inside the domain (generated inputs outside it are drawn again) */
  for (n = 0; checked < random_count && n < 4 * random_count; n++) {
    int64_t x, y, z;
    f->gen(&g, &x, &y, &z);
    if (n % 97 == 0 && f->arity >= 2) y = gen_pick(&g, edges, N_EDGES);
    checked += check_one(f, &w, x, y, z, out);
  }
  mpfr_clears(w.t, w.c, w.e, w.r, w.lim, (mpfr_ptr)0);
  mpfr_free_cache();
  return out->over_bound != 0;
}

void fp_oracle_print(FILE *f, const fp_oracle_stats *s) {
  fprintf(f, "%-14s %9ld inputs  max error %.4f raw units (%.3f of the bound)  correctly rounded %.5f%%  over bound %ld\n",
          s->name, s->count, s->max_err, s->max_ratio,
          s->count ? 100.0 * (double)s->correct / (double)s->count : 0.0, s->over_bound);
}
