/* Unit tests of threadlink/fp.h: exact arithmetic, rounding, saturation, no traps, documented
 * values outside each domain, the pitfalls of today's libraries, vectors and quaternions, and a
 * sample of the MPFR oracle (the full million-input oracle is the 'oracle' suite). Built twice:
 * as is and with TL_FP_PORTABLE_128. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>

#include <threadlink/fp.h>

#include "fp_oracle.h"

#define ONE TL_FP_RAW_ONE
#define R(x) tl_fp_from_raw(x)
#define I(n) tl_fp_from_int(n)
#define D(d) tl_fp_from_double(d)

static uint64_t test_rng = 0x5EED;
static uint64_t next_u64(void) {
  uint64_t z = (test_rng += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static int64_t any_raw(void) {
  uint64_t r = next_u64();
  switch (next_u64() % 4) {
    case 0: return (int64_t)r;
    case 1: return (int64_t)(r >> (next_u64() % 64)) * ((r & 1) ? -1 : 1);
    case 2: return (int64_t)(r % (UINT64_C(2000) << 32)) - (INT64_C(1000) << 32);
    default: return (int64_t)(r % 2000001) - 1000000;
  }
}

/* The correctly rounded raw value of an MPFR value (raw units), halves away, clamped. */
static int64_t mpfr_to_raw(mpfr_t v) {
  mpfr_t r;
  int64_t out;
  mpfr_init2(r, 256);
  mpfr_round(r, v);
  if (mpfr_cmp_d(r, 9223372036854775807.0) >= 0) out = INT64_MAX;
  else if (mpfr_cmp_d(r, -9223372036854775808.0) <= 0) out = INT64_MIN;
  else out = (int64_t)mpfr_get_sj(r, MPFR_RNDN);
  mpfr_clear(r);
  return out;
}
/* |raw - true| in raw units for a true value given in raw units. */
static double raw_error(int64_t raw, mpfr_t truth) {
  mpfr_t e;
  double d;
  mpfr_init2(e, 256);
  mpfr_set_sj(e, raw, MPFR_RNDN);
  mpfr_sub(e, e, truth, MPFR_RNDN);
  d = fabs(mpfr_get_d(e, MPFR_RNDN));
  mpfr_clear(e);
  return d;
}
static void set_raw(mpfr_t v, int64_t raw) { mpfr_set_sj(v, raw, MPFR_RNDN); }

/* ---- construction and constants ---------------------------------------------------------- */

static void test_fp_constants_are_nearest(void **state) {
  mpfr_t v;
  (void)state;
  mpfr_init2(v, 256);
  mpfr_const_pi(v, MPFR_RNDN); mpfr_mul_2si(v, v, 32, MPFR_RNDN);
  assert_int_equal(TL_FP_RAW_PI, mpfr_to_raw(v));
  mpfr_mul_2si(v, v, 1, MPFR_RNDN); assert_int_equal(TL_FP_RAW_TWO_PI, mpfr_to_raw(v));
  mpfr_mul_2si(v, v, -2, MPFR_RNDN); assert_int_equal(TL_FP_RAW_HALF_PI, mpfr_to_raw(v));
  mpfr_set_ui(v, 1, MPFR_RNDN); mpfr_exp(v, v, MPFR_RNDN); mpfr_mul_2si(v, v, 32, MPFR_RNDN);
  assert_int_equal(TL_FP_RAW_E, mpfr_to_raw(v));
  mpfr_const_pi(v, MPFR_RNDN); mpfr_div_ui(v, v, 180, MPFR_RNDN); mpfr_mul_2si(v, v, 32, MPFR_RNDN);
  assert_int_equal(TL_FP_RAW_DEG2RAD, mpfr_to_raw(v));
  mpfr_const_pi(v, MPFR_RNDN); mpfr_ui_div(v, 180, v, MPFR_RNDN); mpfr_mul_2si(v, v, 32, MPFR_RNDN);
  assert_int_equal(TL_FP_RAW_RAD2DEG, mpfr_to_raw(v));
  mpfr_clear(v);
  assert_int_equal(TL_FP_ONE.raw, ONE);
  assert_int_equal(TL_FP_HALF.raw, ONE / 2);
  assert_int_equal(TL_FP_EPSILON.raw, 1);
  assert_int_equal(TL_FP_MIN.raw, INT64_MIN);
  assert_int_equal(TL_FP_MAX.raw, INT64_MAX);
  {
    tl_fp half = {TL_FP_RAW_HALF}; /* usable in static initialisers */
    assert_int_equal(half.raw, TL_FP_HALF.raw);
  }
}

static void test_fp_from_int_and_fraction(void **state) {
  (void)state;
  assert_int_equal(I(3).raw, 3 * ONE);
  assert_int_equal(I(-2147483648LL).raw, INT64_MIN);
  assert_int_equal(I(2147483647).raw, 2147483647LL * ONE);
  assert_int_equal(I(2147483648LL).raw, INT64_MAX);   /* saturates */
  assert_int_equal(I(-2147483649LL).raw, INT64_MIN);
  /* 3/20: exactly the nearest value */
  assert_int_equal(tl_fp_from_fraction(3, 20).raw, 644245094);   /* 0.15 * 2^32 = 644245094.4 */
  assert_int_equal(tl_fp_from_fraction(-3, 20).raw, -644245094);
  assert_int_equal(tl_fp_from_fraction(1, 3).raw, 1431655765);
  assert_int_equal(tl_fp_from_fraction(2, 3).raw, 2863311531);   /* .67 rounds up */
  /* ties go away from zero */
  assert_int_equal(tl_fp_from_fraction(1, INT64_C(1) << 33).raw, 1);
  assert_int_equal(tl_fp_from_fraction(-1, INT64_C(1) << 33).raw, -1);
  assert_int_equal(tl_fp_from_fraction(3, INT64_C(1) << 33).raw, 2);
  /* zero denominators saturate toward the numerator's sign; 0/0 is 0 */
  assert_int_equal(tl_fp_from_fraction(5, 0).raw, INT64_MAX);
  assert_int_equal(tl_fp_from_fraction(-5, 0).raw, INT64_MIN);
  assert_int_equal(tl_fp_from_fraction(0, 0).raw, 0);
  assert_int_equal(tl_fp_from_fraction(INT64_MIN, -1).raw, INT64_MAX);
  assert_int_equal(tl_fp_from_fraction(INT64_MIN, INT64_MIN).raw, ONE);
  assert_int_equal(tl_fp_from_fraction(INT64_MAX, INT64_MIN).raw, -ONE);
}

static void test_fp_from_double_is_nearest_and_saturates(void **state) {
  (void)state;
  assert_int_equal(D(1.5).raw, ONE + ONE / 2);
  assert_int_equal(D(-0.25).raw, -ONE / 4);
  assert_int_equal(D(0.92).raw, 3951369912);               /* 0.92 * 2^32 = 3951369912.32 */
  assert_int_equal(D(0x1p-33).raw, 1);                     /* a tie, away from zero */
  assert_int_equal(D(-0x1p-33).raw, -1);
  assert_int_equal(D(0x1p-34).raw, 0);
  assert_int_equal(D(3.0 * 0x1p-33).raw, 2);
  assert_int_equal(D(2147483647.9999999).raw, INT64_MAX);
  assert_int_equal(D(1e300).raw, INT64_MAX);
  assert_int_equal(D(-1e300).raw, INT64_MIN);
  assert_int_equal(D(-2147483648.0).raw, INT64_MIN);
  assert_int_equal(D(INFINITY).raw, INT64_MAX);
  assert_int_equal(D(-INFINITY).raw, INT64_MIN);
  assert_int_equal(D(NAN).raw, 0);
  assert_true(tl_fp_to_double(D(1234.5)) == 1234.5);
  assert_true(tl_fp_to_float(D(-0.5)) == -0.5f);
}

/* ---- arithmetic ---------------------------------------------------------------------------- */

static void test_fp_add_sub_saturate(void **state) {
  (void)state;
  assert_int_equal(tl_fp_add(I(2), I(3)).raw, 5 * ONE);
  assert_int_equal(tl_fp_add(TL_FP_MAX, TL_FP_EPSILON).raw, INT64_MAX);
  assert_int_equal(tl_fp_add(TL_FP_MIN, R(-1)).raw, INT64_MIN);
  assert_int_equal(tl_fp_add(TL_FP_MAX, TL_FP_MAX).raw, INT64_MAX);
  assert_int_equal(tl_fp_add(TL_FP_MIN, TL_FP_MIN).raw, INT64_MIN);
  assert_int_equal(tl_fp_add(TL_FP_MAX, TL_FP_MIN).raw, -1);
  assert_int_equal(tl_fp_sub(TL_FP_MIN, TL_FP_EPSILON).raw, INT64_MIN);
  assert_int_equal(tl_fp_sub(TL_FP_MAX, R(-1)).raw, INT64_MAX);
  assert_int_equal(tl_fp_sub(R(0), TL_FP_MIN).raw, INT64_MAX);
  assert_int_equal(tl_fp_sub(R(-1), TL_FP_MIN).raw, INT64_MAX);
  assert_int_equal(tl_fp_neg(TL_FP_MIN).raw, INT64_MAX);
  assert_int_equal(tl_fp_abs(TL_FP_MIN).raw, INT64_MAX);
  assert_int_equal(tl_fp_abs(R(-5)).raw, 5);
}

static void test_fp_mul_rounds_to_nearest_ties_away(void **state) {
  int i;
  (void)state;
  assert_int_equal(tl_fp_mul(I(3), D(0.5)).raw, 3 * ONE / 2);
  assert_int_equal(tl_fp_mul(R(1), TL_FP_HALF).raw, 1);    /* 0.5 raw: away from zero */
  assert_int_equal(tl_fp_mul(R(-1), TL_FP_HALF).raw, -1);
  assert_int_equal(tl_fp_mul(R(3), TL_FP_HALF).raw, 2);    /* 1.5 raw */
  assert_int_equal(tl_fp_mul(R(-3), TL_FP_HALF).raw, -2);
  assert_int_equal(tl_fp_mul(R(1), R(ONE / 4)).raw, 0);
  /* sign symmetry: (-a) b == -(a b), and a b == b a, over random values */
  for (i = 0; i < 100000; i++) {
    tl_fp a = R(any_raw()), b = R(any_raw()), p = tl_fp_mul(a, b);
    if (a.raw == INT64_MIN || b.raw == INT64_MIN) continue;
    assert_int_equal(tl_fp_mul(b, a).raw, p.raw);
    if (p.raw != INT64_MIN && p.raw != INT64_MAX) /* saturation is not symmetric: MIN = -MAX - 1 */
      assert_int_equal(tl_fp_mul(tl_fp_neg(a), b).raw, tl_fp_neg(p).raw);
  }
}

static void test_fp_mul_saturates_instead_of_wrapping(void **state) {
  (void)state;
  assert_int_equal(tl_fp_mul(I(65536), I(65536)).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul(I(-65536), I(65536)).raw, INT64_MIN);
  assert_int_equal(tl_fp_mul(TL_FP_MIN, TL_FP_MIN).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul(TL_FP_MIN, I(-1)).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul(TL_FP_MIN, TL_FP_ONE).raw, INT64_MIN);
  assert_int_equal(tl_fp_mul(TL_FP_MAX, I(-1)).raw, -INT64_MAX);
  assert_int_equal(tl_fp_mul(I(46341), I(46341)).raw, INT64_MAX);   /* 2147488281 */
  assert_int_equal(tl_fp_mul(I(46340), I(46340)).raw, INT64_C(2147395600) * ONE);
  assert_int_equal(tl_fp_mul_int(I(1 << 30), 2).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul_int(I(-(1 << 30)), 2).raw, INT64_MIN);
  assert_int_equal(tl_fp_mul_int(I(-(1 << 30)), -3).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul_int(I(5), -3).raw, -15 * ONE);
}

/* The contract's qualification of (-a) b == -(a b): for a != MIN it fails only when a b saturates
 * at MAX, and then (-a) b is MIN, one raw unit below -(a b). */
static void test_fp_mul_sign_symmetry_at_saturation(void **state) {
  int i, saturated = 0;
  (void)state;
  assert_int_equal(tl_fp_mul(I(100000), I(2000000)).raw, INT64_MAX);
  assert_int_equal(tl_fp_mul(I(-100000), I(2000000)).raw, INT64_MIN);
  assert_int_equal(tl_fp_neg(TL_FP_MAX).raw, INT64_MIN + 1);
  assert_int_equal(tl_fp_mul(I(-100000), I(-2000000)).raw, INT64_MAX); /* -(a b) == neg(MIN) */
  assert_int_equal(tl_fp_neg(tl_fp_mul(I(100000), I(-2000000))).raw, INT64_MAX);
  for (i = 0; i < 100000; i++) {
    tl_fp a = R(any_raw() >> (i % 40)), b = R(any_raw()), p = tl_fp_mul(a, b), q;
    if (a.raw == INT64_MIN) continue;
    q = tl_fp_mul(tl_fp_neg(a), b);
    if (q.raw == tl_fp_neg(p).raw) continue;
    assert_int_equal(p.raw, INT64_MAX);
    assert_int_equal(q.raw, INT64_MIN);
    saturated++;
  }
  assert_true(saturated > 0);
}

static void test_fp_div_never_traps(void **state) {
  (void)state;
  assert_int_equal(tl_fp_div(I(1), I(3)).raw, 1431655765);
  assert_int_equal(tl_fp_div(I(-1), I(3)).raw, -1431655765);
  assert_int_equal(tl_fp_div(I(7), I(0)).raw, INT64_MAX);
  assert_int_equal(tl_fp_div(I(-7), I(0)).raw, INT64_MIN);
  assert_int_equal(tl_fp_div(I(0), I(0)).raw, 0);
  assert_int_equal(tl_fp_div(TL_FP_MIN, R(-ONE)).raw, INT64_MAX);     /* MIN / -1 */
  assert_int_equal(tl_fp_div(TL_FP_MIN, R(-1)).raw, INT64_MAX);
  assert_int_equal(tl_fp_div(TL_FP_MIN, TL_FP_ONE).raw, INT64_MIN);
  assert_int_equal(tl_fp_div(TL_FP_MAX, TL_FP_EPSILON).raw, INT64_MAX);
  assert_int_equal(tl_fp_div(TL_FP_EPSILON, TL_FP_MAX).raw, 0);
  assert_int_equal(tl_fp_div(R(1), R(2 * ONE)).raw, 1);               /* 0.5 raw: away */
  assert_int_equal(tl_fp_div(R(-1), R(2 * ONE)).raw, -1);
  assert_int_equal(tl_fp_div(TL_FP_MIN, TL_FP_MIN).raw, ONE);
}

static void test_fp_mod_never_traps(void **state) {
  (void)state;
  assert_int_equal(tl_fp_mod(I(7), I(3)).raw, ONE);
  assert_int_equal(tl_fp_mod(I(-7), I(3)).raw, -ONE);                 /* sign of the dividend */
  assert_int_equal(tl_fp_mod(I(7), I(-3)).raw, ONE);
  assert_int_equal(tl_fp_mod(D(5.5), D(2.0)).raw, 3 * ONE / 2);
  assert_int_equal(tl_fp_mod(I(7), I(0)).raw, 0);                     /* x % 0 */
  assert_int_equal(tl_fp_mod(TL_FP_MIN, R(-1)).raw, 0);               /* MIN % -1 (raw) */
  assert_int_equal(tl_fp_mod(TL_FP_MIN, R(-ONE)).raw, 0);             /* MIN % -1.0 */
  assert_int_equal(tl_fp_mod(TL_FP_MIN, TL_FP_MIN).raw, 0);
  assert_int_equal(tl_fp_mod(TL_FP_MAX, TL_FP_MIN).raw, INT64_MAX);
}

/* ---- rounding and helpers ------------------------------------------------------------------ */

static void test_fp_rounding(void **state) {
  (void)state;
  assert_int_equal(tl_fp_floor(D(2.5)).raw, 2 * ONE);
  assert_int_equal(tl_fp_floor(D(-2.5)).raw, -3 * ONE);
  assert_int_equal(tl_fp_ceil(D(2.25)).raw, 3 * ONE);
  assert_int_equal(tl_fp_ceil(D(-2.25)).raw, -2 * ONE);
  assert_int_equal(tl_fp_ceil(TL_FP_MAX).raw, INT64_MAX);             /* 2^31 saturates */
  assert_int_equal(tl_fp_ceil(TL_FP_MIN).raw, INT64_MIN);
  assert_int_equal(tl_fp_round(D(2.5)).raw, 3 * ONE);                 /* halves away from zero */
  assert_int_equal(tl_fp_round(D(-2.5)).raw, -3 * ONE);
  assert_int_equal(tl_fp_round(D(2.4999999)).raw, 2 * ONE);
  assert_int_equal(tl_fp_round(TL_FP_MAX).raw, INT64_MAX);
  assert_int_equal(tl_fp_round(TL_FP_MIN).raw, INT64_MIN);
  assert_int_equal(tl_fp_trunc(D(-2.75)).raw, -2 * ONE);
  assert_int_equal(tl_fp_trunc(D(2.75)).raw, 2 * ONE);
  assert_int_equal(tl_fp_trunc(TL_FP_MIN).raw, INT64_MIN);
  assert_int_equal(tl_fp_frac(D(-2.75)).raw, ONE / 4);                /* x - floor(x) */
  assert_int_equal(tl_fp_frac(D(2.75)).raw, 3 * ONE / 4);
  assert_int_equal(tl_fp_floor_to_int(D(-0.5)), -1);
  assert_int_equal(tl_fp_floor_to_int(TL_FP_MIN), INT32_MIN);
  assert_int_equal(tl_fp_floor_to_int(TL_FP_MAX), INT32_MAX);
  assert_int_equal(tl_fp_ceil_to_int(D(-0.5)), 0);
  assert_int_equal(tl_fp_ceil_to_int(TL_FP_MAX), INT32_MAX);          /* saturates to int32 */
  assert_int_equal(tl_fp_round_to_int(D(-1.5)), -2);
  assert_int_equal(tl_fp_round_to_int(D(1.5)), 2);
  assert_int_equal(tl_fp_round_to_int(TL_FP_MAX), INT32_MAX);
  assert_int_equal(tl_fp_round_to_int(TL_FP_MIN), INT32_MIN);
}

static void test_fp_helpers(void **state) {
  (void)state;
  assert_int_equal(tl_fp_sign(D(-0.1)), -1);
  assert_int_equal(tl_fp_sign(TL_FP_ZERO), 0);
  assert_int_equal(tl_fp_sign(TL_FP_EPSILON), 1);
  assert_int_equal(tl_fp_min(I(1), I(2)).raw, ONE);
  assert_int_equal(tl_fp_max(I(1), I(2)).raw, 2 * ONE);
  assert_int_equal(tl_fp_clamp(I(5), I(0), I(3)).raw, 3 * ONE);
  assert_int_equal(tl_fp_clamp(I(-5), I(0), I(3)).raw, 0);
  for (int v = 0; v <= 6; v++) assert_int_equal(tl_fp_clamp(I(v), I(3), I(1)).raw, 3 * ONE); /* lo wins */
  assert_int_equal(tl_fp_clamp01(D(1.5)).raw, ONE);
  assert_int_equal(tl_fp_clamp01(D(-1.5)).raw, 0);
  assert_true(tl_fp_lt(I(1), I(2)) && tl_fp_le(I(2), I(2)) && tl_fp_gt(I(3), I(2)) && tl_fp_ge(I(2), I(2)));
  assert_true(tl_fp_eq(I(2), I(2)) && tl_fp_ne(I(2), I(3)) && tl_fp_cmp(I(1), I(2)) == -1);
}

static void test_fp_lerp_is_exact_and_saturates(void **state) {
  int i;
  (void)state;
  assert_int_equal(tl_fp_lerp(I(10), I(20), D(0.25)).raw, 25 * ONE / 2);
  assert_int_equal(tl_fp_lerp(I(10), I(20), D(2.0)).raw, 20 * ONE);       /* clamped */
  assert_int_equal(tl_fp_lerp_unclamped(I(10), I(20), D(2.0)).raw, 30 * ONE);
  assert_int_equal(tl_fp_lerp_unclamped(I(10), I(20), D(-1.0)).raw, 0);
  assert_int_equal(tl_fp_lerp(TL_FP_MIN, TL_FP_MAX, TL_FP_ONE).raw, INT64_MAX); /* no overflow of b - a */
  assert_int_equal(tl_fp_lerp(TL_FP_MIN, TL_FP_MAX, TL_FP_ZERO).raw, INT64_MIN);
  assert_int_equal(tl_fp_lerp(TL_FP_MIN, TL_FP_MAX, TL_FP_HALF).raw, -1);   /* -0.5 raw rounds away */
  assert_int_equal(tl_fp_lerp_unclamped(TL_FP_MIN, TL_FP_MAX, I(3)).raw, INT64_MAX);
  assert_int_equal(tl_fp_lerp_unclamped(TL_FP_MAX, TL_FP_MIN, I(3)).raw, INT64_MIN);
  assert_int_equal(tl_fp_lerp_unclamped(TL_FP_ZERO, TL_FP_MAX, TL_FP_MIN).raw, INT64_MIN);
  /* against MPFR: a + (b - a) t, rounded once */
  {
    mpfr_t a, b, t;
    mpfr_inits2(256, a, b, t, (mpfr_ptr)0);
    for (i = 0; i < 20000; i++) {
      int64_t ra = any_raw(), rb = any_raw(), rt = (int64_t)(next_u64() % (3 * (uint64_t)ONE)) - ONE;
      tl_fp got = tl_fp_lerp_unclamped(R(ra), R(rb), R(rt));
      set_raw(a, ra); set_raw(b, rb); set_raw(t, rt);
      mpfr_sub(b, b, a, MPFR_RNDN); mpfr_mul(b, b, t, MPFR_RNDN); mpfr_mul_2si(b, b, -32, MPFR_RNDN);
      mpfr_add(b, b, a, MPFR_RNDN);
      assert_int_equal(got.raw, mpfr_to_raw(b));
    }
    mpfr_clears(a, b, t, (mpfr_ptr)0);
  }
  /* endpoints exact everywhere */
  for (i = 0; i < 10000; i++) {
    tl_fp a = R(any_raw()), b = R(any_raw());
    assert_int_equal(tl_fp_lerp(a, b, TL_FP_ZERO).raw, a.raw);
    assert_int_equal(tl_fp_lerp(a, b, TL_FP_ONE).raw, b.raw);
  }
}

static void test_fp_inverse_lerp_and_move_towards(void **state) {
  (void)state;
  assert_int_equal(tl_fp_inverse_lerp(I(10), I(20), I(15)).raw, ONE / 2);
  assert_int_equal(tl_fp_inverse_lerp(I(10), I(20), I(25)).raw, ONE);
  assert_int_equal(tl_fp_inverse_lerp(I(10), I(20), I(5)).raw, 0);
  assert_int_equal(tl_fp_inverse_lerp(I(20), I(10), I(12)).raw, 4 * ONE / 5 + 1); /* 0.8 rounds up */
  assert_int_equal(tl_fp_inverse_lerp(I(3), I(3), I(3)).raw, 0);
  assert_int_equal(tl_fp_inverse_lerp(TL_FP_MIN, TL_FP_MAX, TL_FP_ZERO).raw, ONE / 2);
  assert_int_equal(tl_fp_move_towards(I(0), I(10), I(3)).raw, 3 * ONE);
  assert_int_equal(tl_fp_move_towards(I(0), I(-10), I(3)).raw, -3 * ONE);
  assert_int_equal(tl_fp_move_towards(I(0), I(2), I(3)).raw, 2 * ONE);
  assert_int_equal(tl_fp_move_towards(I(5), I(5), I(3)).raw, 5 * ONE);
  assert_int_equal(tl_fp_move_towards(I(0), I(10), I(-3)).raw, -3 * ONE);  /* away */
  assert_int_equal(tl_fp_move_towards(TL_FP_MIN, TL_FP_MAX, TL_FP_MAX).raw, -1);
}

/* ---- sqrt and the transcendental functions ------------------------------------------------- */

static void test_fp_sqrt_exact(void **state) {
  int i;
  (void)state;
  assert_int_equal(tl_fp_sqrt(I(4)).raw, 2 * ONE);
  assert_int_equal(tl_fp_sqrt(I(-4)).raw, 0);                         /* documented */
  assert_int_equal(tl_fp_sqrt(TL_FP_MIN).raw, 0);
  assert_int_equal(tl_fp_sqrt(TL_FP_ZERO).raw, 0);
  assert_int_equal(tl_fp_sqrt(TL_FP_EPSILON).raw, 65536);             /* sqrt(2^-32) = 2^-16 */
  assert_int_equal(tl_fp_sqrt(TL_FP_MAX).raw, INT64_C(199032864766430)); /* round(sqrt(2^95 - 2^32)) */
  for (i = 0; i < 100000; i++) { /* sqrt(m^2 raw) = m 2^-16 exactly */
    int64_t m = (int64_t)(next_u64() % UINT64_C(3037000499));
    assert_int_equal(tl_fp_sqrt(R(m * m)).raw, m << 16);
  }
}

static void test_fp_domain_edges_documented(void **state) {
  (void)state;
  assert_int_equal(tl_fp_log(TL_FP_ZERO).raw, INT64_MIN);
  assert_int_equal(tl_fp_log(I(-3)).raw, INT64_MIN);
  assert_int_equal(tl_fp_log2(TL_FP_ZERO).raw, INT64_MIN);
  assert_int_equal(tl_fp_log2(I(-1)).raw, INT64_MIN);
  assert_int_equal(tl_fp_log(TL_FP_ONE).raw, 0);
  assert_int_equal(tl_fp_log2(I(1024)).raw, 10 * ONE);                /* exact at powers of two */
  assert_int_equal(tl_fp_log2(TL_FP_EPSILON).raw, -32 * ONE);
  assert_int_equal(tl_fp_log2(I(1 << 30)).raw, 30 * ONE);
  assert_int_equal(tl_fp_asin(I(2)).raw, TL_FP_RAW_HALF_PI);         /* clamped to the edge */
  assert_int_equal(tl_fp_asin(I(-2)).raw, -TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fp_acos(I(2)).raw, 0);
  assert_int_equal(tl_fp_acos(I(-2)).raw, TL_FP_RAW_PI);
  assert_int_equal(tl_fp_asin(TL_FP_ONE).raw, TL_FP_RAW_HALF_PI);    /* exactly at +-1 */
  assert_int_equal(tl_fp_asin(I(-1)).raw, -TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fp_acos(TL_FP_ONE).raw, 0);
  assert_int_equal(tl_fp_acos(I(-1)).raw, TL_FP_RAW_PI);
  assert_int_equal(tl_fp_asin(TL_FP_MIN).raw, -TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fp_atan2(TL_FP_ZERO, TL_FP_ZERO).raw, 0);
  assert_int_equal(tl_fp_atan2(TL_FP_ZERO, I(-1)).raw, TL_FP_RAW_PI);
  assert_int_equal(tl_fp_atan2(I(1), TL_FP_ZERO).raw, TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fp_atan2(I(-1), TL_FP_ZERO).raw, -TL_FP_RAW_HALF_PI);
  /* no intermediate overflow (libfixmath forms x + |y|) */
  assert_int_equal(tl_fp_atan2(TL_FP_MAX, TL_FP_MAX).raw, 3373259426);      /* pi/4 */
  assert_int_equal(tl_fp_atan2(TL_FP_MIN, TL_FP_MIN).raw, -10119778278);    /* -3pi/4 */
  assert_int_equal(tl_fp_atan2(TL_FP_MAX, TL_FP_MIN).raw, 10119778278);
  assert_int_equal(tl_fp_atan(TL_FP_MAX).raw, TL_FP_RAW_HALF_PI - 2);   /* pi/2 - 2^-31 */
  assert_int_equal(tl_fp_atan(TL_FP_MIN).raw, -TL_FP_RAW_HALF_PI + 2);
  assert_int_equal(tl_fp_exp(TL_FP_ZERO).raw, ONE);
  assert_int_equal(tl_fp_exp(I(22)).raw, INT64_MAX);
  assert_int_equal(tl_fp_exp(TL_FP_MAX).raw, INT64_MAX);
  assert_int_equal(tl_fp_exp(I(-23)).raw, 0);
  assert_int_equal(tl_fp_exp(TL_FP_MIN).raw, 0);
  assert_int_equal(tl_fp_exp(I(-22)).raw, 1);                          /* 2.79e-10: one raw unit */
  assert_int_equal(tl_fp_sin(TL_FP_ZERO).raw, 0);
  assert_int_equal(tl_fp_cos(TL_FP_ZERO).raw, ONE);
  assert_int_equal(tl_fp_tan(TL_FP_ZERO).raw, 0);
  /* pi/2 = 6746518852.23 raw: HALF_PI is just below the pole, one raw unit more is past it */
  assert_int_equal(tl_fp_tan(TL_FP_HALF_PI).raw, INT64_MAX);
  assert_int_equal(tl_fp_tan(R(TL_FP_RAW_HALF_PI + 1)).raw, INT64_MIN);
  assert_int_equal(tl_fp_tan(R(-TL_FP_RAW_HALF_PI)).raw, INT64_MIN);
  assert_true(tl_fp_tan(R(TL_FP_RAW_HALF_PI - 4)).raw > (INT64_C(1) << 61));   /* 1.015e9, finite */
  assert_true(tl_fp_tan(R(TL_FP_RAW_HALF_PI - 4)).raw < INT64_MAX);
}

static void test_fp_pow_special_cases(void **state) {
  int i;
  (void)state;
  assert_int_equal(tl_fp_pow(I(2), I(10)).raw, 1024 * ONE);
  assert_int_equal(tl_fp_pow(I(10), I(2)).raw, 100 * ONE);
  assert_int_equal(tl_fp_pow(I(4), TL_FP_HALF).raw, 2 * ONE);
  assert_int_equal(tl_fp_pow(I(2), I(-1)).raw, ONE / 2);
  assert_int_equal(tl_fp_pow(I(2), I(31)).raw, INT64_MAX);             /* saturates */
  assert_int_equal(tl_fp_pow(I(2), I(-33)).raw, 1);                    /* 2^-33 is a tie: 1 raw */
  assert_int_equal(tl_fp_pow(I(2), I(-34)).raw, 0);
  assert_int_equal(tl_fp_pow(I(2), I(-32)).raw, 1);
  assert_int_equal(tl_fp_pow(TL_FP_ZERO, TL_FP_ZERO).raw, ONE);
  assert_int_equal(tl_fp_pow(TL_FP_ZERO, I(3)).raw, 0);
  assert_int_equal(tl_fp_pow(TL_FP_ZERO, I(-3)).raw, INT64_MAX);
  assert_int_equal(tl_fp_pow(I(-2), I(3)).raw, -8 * ONE);
  assert_int_equal(tl_fp_pow(I(-2), I(2)).raw, 4 * ONE);
  assert_int_equal(tl_fp_pow(I(-2), I(31)).raw, INT64_MIN);            /* -2^31 exactly */
  assert_int_equal(tl_fp_pow(I(-2), I(33)).raw, INT64_MIN);
  assert_int_equal(tl_fp_pow(I(-2), TL_FP_HALF).raw, 0);               /* documented */
  assert_int_equal(tl_fp_pow(I(-7), TL_FP_ZERO).raw, ONE);
  assert_int_equal(tl_fp_pow(TL_FP_EPSILON, I(-1)).raw, INT64_MAX);
  for (i = 0; i < 20000; i++) {                                          /* x^1 == x, 1^y == 1 */
    tl_fp x = R((int64_t)(next_u64() >> 1));
    assert_int_equal(tl_fp_pow(x, TL_FP_ONE).raw, x.raw);
    assert_int_equal(tl_fp_pow(TL_FP_ONE, R(any_raw())).raw, ONE);
  }
}

/* libfixmath caches sin/exp/atan2 results globally (its exp cache keys on |x|): results here
 * never depend on earlier calls. */
static void test_fp_results_do_not_depend_on_earlier_calls(void **state) {
  int64_t first[64];
  int i;
  (void)state;
  for (i = 0; i < 64; i++) first[i] = tl_fp_exp(R(-(int64_t)i * 123456789)).raw;
  for (i = 0; i < 64; i++) (void)tl_fp_exp(R((int64_t)i * 123456789));  /* the |x| twins */
  for (i = 63; i >= 0; i--) assert_int_equal(tl_fp_exp(R(-(int64_t)i * 123456789)).raw, first[i]);
  for (i = 0; i < 64; i++) first[i] = tl_fp_sin(R((int64_t)i << 30)).raw ^ tl_fp_atan2(R(i), R(64 - i)).raw;
  for (i = 63; i >= 0; i--)
    assert_int_equal(tl_fp_sin(R((int64_t)i << 30)).raw ^ tl_fp_atan2(R(i), R(64 - i)).raw, first[i]);
}

/* Argument reduction with a rounded pi loses accuracy as |x| grows, and computing through
 * double is inexact above 2^21: both miss the 1 raw unit contract for these inputs; we do not. */
static void test_fp_large_arguments_and_the_double_route(void **state) {
  mpfr_t x, t;
  int i, double_bad = 0;
  (void)state;
  mpfr_inits2(256, x, t, (mpfr_ptr)0);
  for (i = 0; i < 2000; i++) {
    int64_t raw = (int64_t)(next_u64() >> 1) | (INT64_C(1) << 61);       /* about 0.5e9 .. 2.1e9 */
    double route = sin(tl_fp_to_double(R(raw))) * 4294967296.0;
    set_raw(x, raw); mpfr_mul_2si(x, x, -32, MPFR_RNDN);
    mpfr_sin(t, x, MPFR_RNDN); mpfr_mul_2si(t, t, 32, MPFR_RNDN);
    assert_true(raw_error(tl_fp_sin(R(raw)).raw, t) <= 0.5001);
    if (fabs(route - mpfr_get_d(t, MPFR_RNDN)) > 1.0) double_bad++;
  }
  assert_true(double_bad > 1000);   /* the double route is off by more than a raw unit */
  /* a rounded pi (as a Q32.32 constant) reduces sin(2e9) to nonsense */
  {
    int64_t raw = INT64_C(2000000000) << 32;
    tl_fp naive = tl_fp_sin(tl_fp_mod(R(raw), TL_FP_TWO_PI));
    set_raw(x, raw); mpfr_mul_2si(x, x, -32, MPFR_RNDN);
    mpfr_sin(t, x, MPFR_RNDN); mpfr_mul_2si(t, t, 32, MPFR_RNDN);
    assert_true(raw_error(naive.raw, t) > 1000.0);
    assert_true(raw_error(tl_fp_sin(R(raw)).raw, t) <= 0.5001);
  }
  mpfr_clears(x, t, (mpfr_ptr)0);
}

static void test_fp_oracle_sample(void **state) {
  const char *const *f;
  (void)state;
  for (f = fp_oracle_functions; *f; f++) {
    fp_oracle_stats s;
    int rc = fp_oracle_run(*f, 3000, 77, &s);
    fp_oracle_print(stdout, &s);
    assert_int_equal(rc, 0);
    assert_int_equal(s.over_bound, 0);
  }
}

/* ---- vectors and quaternions -------------------------------------------------------------- */

static tl_fpv3 V3(double x, double y, double z) { return tl_fpv3_make(D(x), D(y), D(z)); }
static int near3(tl_fpv3 a, tl_fpv3 b, int64_t tol) {
  int64_t dx = a.x.raw - b.x.raw, dy = a.y.raw - b.y.raw, dz = a.z.raw - b.z.raw;
  return dx <= tol && dx >= -tol && dy <= tol && dy >= -tol && dz <= tol && dz >= -tol;
}

static void test_fpv_magnitude_and_normalize_are_exact(void **state) {
  int i;
  mpfr_t s, c;
  (void)state;
  assert_int_equal(tl_fpv2_magnitude(tl_fpv2_make(R(1), R(0))).raw, 1);
  assert_int_equal(tl_fpv2_magnitude(tl_fpv2_make(I(3), I(4))).raw, 5 * ONE);
  assert_int_equal(tl_fpv3_magnitude(tl_fpv3_make(TL_FP_MIN, TL_FP_MIN, TL_FP_MIN)).raw, INT64_MAX);
  assert_int_equal(tl_fpv2_magnitude(tl_fpv2_make(R(1), R(1))).raw, 1);   /* 1.414 raw */
  assert_true(tl_fpv2_eq(tl_fpv2_normalize(tl_fpv2_make(R(1), R(0))), tl_fpv2_make(TL_FP_ONE, TL_FP_ZERO)));
  assert_true(tl_fpv3_eq(tl_fpv3_normalize(tl_fpv3_make(R(0), R(-1), R(0))), tl_fpv3_make(R(0), R(-ONE), R(0))));
  assert_true(tl_fpv3_eq(tl_fpv3_normalize(tl_fpv3_zero()), tl_fpv3_zero()));
  /* one raw unit long normalizes exactly as well as a million units long */
  assert_true(tl_fpv3_eq(tl_fpv3_normalize(tl_fpv3_make(R(1), R(1), R(1))),
                         tl_fpv3_normalize(V3(1e6, 1e6, 1e6))));
  assert_true(tl_fpv3_eq(tl_fpv3_normalize(tl_fpv3_make(R(1), R(2), R(2))),
                         tl_fpv3_make(R(1431655765), R(2863311531), R(2863311531))));
  assert_true(tl_fpv3_eq(tl_fpv3_normalize(tl_fpv3_make(TL_FP_MIN, TL_FP_MIN, TL_FP_ZERO)),
                         tl_fpv3_normalize(tl_fpv3_make(R(-1), R(-1), R(0)))));
  /* each component correctly rounded (MPFR), over every scale */
  mpfr_inits2(256, s, c, (mpfr_ptr)0);
  for (i = 0; i < 20000; i++) {
    int64_t a[3];
    tl_fpv3 u;
    int k;
    for (k = 0; k < 3; k++) a[k] = any_raw() >> (next_u64() % 60);
    u = tl_fpv3_normalize(tl_fpv3_make(R(a[0]), R(a[1]), R(a[2])));
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (k = 0; k < 3; k++) { set_raw(c, a[k]); mpfr_sqr(c, c, MPFR_RNDN); mpfr_add(s, s, c, MPFR_RNDN); }
    if (mpfr_zero_p(s)) continue;
    mpfr_sqrt(s, s, MPFR_RNDN);
    set_raw(c, a[0]); mpfr_div(c, c, s, MPFR_RNDN); mpfr_mul_2si(c, c, 32, MPFR_RNDN);
    assert_true(raw_error(u.x.raw, c) <= 0.5001);
    set_raw(c, a[2]); mpfr_div(c, c, s, MPFR_RNDN); mpfr_mul_2si(c, c, 32, MPFR_RNDN);
    assert_true(raw_error(u.z.raw, c) <= 0.5001);
  }
  mpfr_clears(s, c, (mpfr_ptr)0);
}

static void test_fpv_products_do_not_overflow(void **state) {
  tl_fpv3 m = tl_fpv3_make(TL_FP_MIN, TL_FP_MIN, TL_FP_MIN);
  (void)state;
  assert_int_equal(tl_fpv3_dot(m, m).raw, INT64_MAX);
  assert_int_equal(tl_fpv3_dot(m, tl_fpv3_neg(m)).raw, INT64_MIN);
  assert_int_equal(tl_fpv2_dot(tl_fpv2_make(TL_FP_MIN, TL_FP_MIN), tl_fpv2_make(TL_FP_MIN, TL_FP_MIN)).raw, INT64_MAX);
  assert_int_equal(tl_fpv2_cross(tl_fpv2_make(R(1), R(0)), tl_fpv2_make(R(0), TL_FP_HALF)).raw, 1); /* 0.5 raw */
  assert_int_equal(tl_fpv2_cross(tl_fpv2_make(R(0), TL_FP_HALF), tl_fpv2_make(R(1), R(0))).raw, -1);
  assert_int_equal(tl_fpv2_dot(tl_fpv2_make(I(2), I(3)), tl_fpv2_make(I(4), I(-5))).raw, -7 * ONE);
  assert_int_equal(tl_fpv2_distance(tl_fpv2_make(TL_FP_MIN, TL_FP_ZERO), tl_fpv2_make(TL_FP_MAX, TL_FP_ZERO)).raw, INT64_MAX);
  assert_int_equal(tl_fpv3_distance(V3(1, 2, 3), V3(4, 6, 3)).raw, 5 * ONE);
  assert_int_equal(tl_fpv2_angle(tl_fpv2_make(TL_FP_MIN, TL_FP_MIN), tl_fpv2_make(TL_FP_MIN, TL_FP_MIN)).raw, 0);
}

static void test_fpv_axes_and_rotations(void **state) {
  tl_fpquat q;
  (void)state;
  assert_true(tl_fpv3_eq(tl_fpv3_cross(tl_fpv3_right(), tl_fpv3_up()), tl_fpv3_forward()));
  assert_true(tl_fpv2_eq(tl_fpv2_perpendicular(tl_fpv2_make(I(1), I(0))), tl_fpv2_make(I(0), I(1))));
  assert_true(tl_fpv2_eq(tl_fpv2_rotate(tl_fpv2_make(I(2), I(0)), TL_FP_HALF_PI), tl_fpv2_make(R(0), I(2))) ||
              tl_fpv2_distance(tl_fpv2_rotate(tl_fpv2_make(I(2), I(0)), TL_FP_HALF_PI), tl_fpv2_make(R(0), I(2))).raw <= 2);
  assert_true(tl_fpv2_distance(tl_fpv2_from_angle(TL_FP_PI), tl_fpv2_make(I(-1), I(0))).raw <= 1);
  assert_int_equal(tl_fpv2_angle(tl_fpv2_make(I(1), I(0)), tl_fpv2_make(I(0), I(5))).raw, TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fpv2_signed_angle(tl_fpv2_make(I(1), I(0)), tl_fpv2_make(I(0), I(-5))).raw, -TL_FP_RAW_HALF_PI);
  assert_int_equal(tl_fpv2_angle(tl_fpv2_make(I(1), I(0)), tl_fpv2_make(I(-3), I(0))).raw, TL_FP_RAW_PI);
  assert_int_equal(tl_fpv2_angle(tl_fpv2_zero(), tl_fpv2_make(I(-3), I(0))).raw, 0);
  assert_true(llabs(tl_fpv3_angle(V3(1, 0, 0), V3(1, 1, 0)).raw - TL_FP_RAW_PI / 4) <= 2);
  assert_true(llabs(tl_fpv3_angle(V3(0, 0, 1e-9), V3(0, 0, -5e5)).raw - TL_FP_RAW_PI) <= 2);
  /* a positive quarter turn about up takes forward to right */
  q = tl_fpquat_from_axis_angle(tl_fpv3_up(), TL_FP_HALF_PI);
  assert_true(near3(tl_fpquat_rotate(q, tl_fpv3_forward()), tl_fpv3_right(), 2));
  assert_true(near3(tl_fpquat_rotate(q, V3(0, 0, 1000)), V3(1000, 0, 0), 400));
  assert_true(near3(tl_fpquat_rotate(tl_fpquat_multiply(q, q), tl_fpv3_forward()), tl_fpv3_make(I(0), I(0), I(-1)), 4));
  assert_true(near3(tl_fpquat_rotate(tl_fpquat_inverse(q), tl_fpv3_right()), tl_fpv3_forward(), 2));
  assert_true(tl_fpquat_eq(tl_fpquat_conjugate(q), tl_fpquat_make(tl_fp_neg(q.x), tl_fp_neg(q.y), tl_fp_neg(q.z), q.w)));
  assert_true(llabs(tl_fpquat_angle(tl_fpquat_identity(), q).raw - TL_FP_RAW_HALF_PI) <= 4);
  assert_true(tl_fpquat_eq(tl_fpquat_from_axis_angle(tl_fpv3_zero(), TL_FP_ONE), tl_fpquat_identity()));
  /* composition: rotate(a b, v) == rotate(a, rotate(b, v)) */
  {
    tl_fpquat a = tl_fpquat_from_axis_angle(V3(1, 2, 3), D(0.7)), b = tl_fpquat_from_axis_angle(V3(-2, 0.5, 1), D(2.1));
    tl_fpv3 v = V3(3, -4, 5);
    assert_true(near3(tl_fpquat_rotate(tl_fpquat_multiply(a, b), v), tl_fpquat_rotate(a, tl_fpquat_rotate(b, v)), 16));
    /* slerp: endpoints and the halfway rotation has half the angle */
    assert_true(tl_fpquat_eq(tl_fpquat_slerp(a, b, TL_FP_ZERO), tl_fpquat_normalize(a)));
    assert_true(llabs(tl_fpquat_angle(tl_fpquat_slerp(a, b, TL_FP_ONE), b).raw) <= 64);
    assert_true(llabs(tl_fpquat_angle(a, tl_fpquat_slerp(a, b, TL_FP_HALF)).raw - tl_fpquat_angle(a, b).raw / 2) <= 64);
    assert_true(llabs(tl_fpquat_angle(tl_fpquat_nlerp(a, b, TL_FP_ONE), b).raw) <= 64);
  }
}

static void test_fpv_helpers(void **state) {
  tl_fpv3 a = V3(1, 2, 2), b = V3(4, 6, 2);
  (void)state;
  assert_true(tl_fpv3_eq(tl_fpv3_lerp(a, b, TL_FP_HALF), V3(2.5, 4, 2)));
  assert_true(tl_fpv3_eq(tl_fpv3_move_towards(a, b, I(10)), b));
  assert_true(tl_fpv3_eq(tl_fpv3_move_towards(a, b, I(1)), V3(1.6, 2.8, 2)) ||
              near3(tl_fpv3_move_towards(a, b, I(1)), V3(1.6, 2.8, 2), 1));
  assert_true(tl_fpv3_eq(tl_fpv3_clamp_magnitude(a, I(6)), a));
  assert_true(near3(tl_fpv3_clamp_magnitude(a, I(1)), V3(1.0 / 3, 2.0 / 3, 2.0 / 3), 1));
  assert_true(near3(tl_fpv3_project(V3(3, 4, 5), V3(0, 2, 0)), V3(0, 4, 0), 2));
  assert_true(near3(tl_fpv3_project_on_plane(V3(3, 4, 5), V3(0, 2, 0)), V3(3, 0, 5), 2));
  assert_true(tl_fpv3_eq(tl_fpv3_project(V3(3, 4, 5), tl_fpv3_zero()), tl_fpv3_zero()));
  assert_true(tl_fpv2_eq(tl_fpv2_clamp_magnitude(tl_fpv2_make(I(3), I(4)), I(10)), tl_fpv2_make(I(3), I(4))));
  assert_true(tl_fpv2_eq(tl_fpv2_clamp_magnitude(tl_fpv2_make(I(3), I(4)), I(1)), tl_fpv2_make(D(0.6), D(0.8))));
  assert_true(tl_fpv2_eq(tl_fpv2_move_towards(tl_fpv2_make(I(0), I(0)), tl_fpv2_make(I(3), I(4)), I(1)), tl_fpv2_make(D(0.6), D(0.8))));
  assert_int_equal(tl_fp_deg_to_rad(I(180)).raw, TL_FP_RAW_PI);
  assert_int_equal(tl_fp_rad_to_deg(I(1)).raw, 246083499208);           /* 180/pi, rounded once */
  assert_true(llabs(tl_fp_rad_to_deg(TL_FP_PI).raw - 180 * ONE) <= 29);  /* pi itself is rounded */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fp_constants_are_nearest),
    cmocka_unit_test(test_fp_from_int_and_fraction),
    cmocka_unit_test(test_fp_from_double_is_nearest_and_saturates),
    cmocka_unit_test(test_fp_add_sub_saturate),
    cmocka_unit_test(test_fp_mul_rounds_to_nearest_ties_away),
    cmocka_unit_test(test_fp_mul_saturates_instead_of_wrapping),
    cmocka_unit_test(test_fp_div_never_traps),
    cmocka_unit_test(test_fp_mod_never_traps),
    cmocka_unit_test(test_fp_rounding),
    cmocka_unit_test(test_fp_helpers),
    cmocka_unit_test(test_fp_lerp_is_exact_and_saturates),
    cmocka_unit_test(test_fp_inverse_lerp_and_move_towards),
    cmocka_unit_test(test_fp_sqrt_exact),
    cmocka_unit_test(test_fp_domain_edges_documented),
    cmocka_unit_test(test_fp_pow_special_cases),
    cmocka_unit_test(test_fp_results_do_not_depend_on_earlier_calls),
    cmocka_unit_test(test_fp_large_arguments_and_the_double_route),
    cmocka_unit_test(test_fp_oracle_sample),
    cmocka_unit_test(test_fpv_magnitude_and_normalize_are_exact),
    cmocka_unit_test(test_fpv_products_do_not_overflow),
    cmocka_unit_test(test_fpv_axes_and_rotations),
    cmocka_unit_test(test_fpv_helpers),
    cmocka_unit_test(test_fp_mul_sign_symmetry_at_saturation), /* last: it draws from any_raw */
  };
#ifdef TL_FP_PORTABLE_128
  return cmocka_run_group_tests_name("fp (portable 128-bit path)", tests, NULL, NULL);
#else
  return cmocka_run_group_tests_name("fp", tests, NULL, NULL);
#endif
}
