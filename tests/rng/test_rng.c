/* Unit tests of threadlink/rng.h: the pinned stream format (golden values: the format is part of
 * users' save files), the identity rules, samplers that draw the same whatever their arguments,
 * chi-square uniformity of range, chance, shuffle and weighted index, and a bias test that
 * catches a plain modulo. Built twice: as is and with TL_FP_PORTABLE_128. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <threadlink/rng.h>

#define GAMMA UINT64_C(0x9E3779B97F4A7C15)
#define ONE TL_FP_RAW_ONE

/* Pearson's chi-square of observed counts against expected ones. */
static double chi_square(const long *obs, const double *expected, int k) {
  double x = 0;
  int i;
  for (i = 0; i < k; i++) { double d = (double)obs[i] - expected[i]; x += d * d / expected[i]; }
  return x;
}
static double chi_square_uniform(const long *obs, int k, long total) {
  double e[64];
  int i;
  for (i = 0; i < k; i++) e[i] = (double)total / k;
  return chi_square(obs, e, k);
}

/* ---- the stream format --------------------------------------------------------------------- */

static void test_rng_is_splitmix64(void **state) {
  tl_rng r = tl_rng_create(1, 2);
  uint64_t s = r.id;
  int i;
  (void)state;
  /* SplitMix64 seeded with 0: its published first output */
  assert_int_equal(tl_rng_mix(GAMMA), UINT64_C(0xE220A8397B1DCDAF));
  assert_int_equal(tl_rng_mix(0), 0);
  for (i = 0; i < 100; i++) { s += GAMMA; assert_int_equal(tl_rng_next_u64(&r), tl_rng_mix(s)); }
}

static void test_rng_golden_values(void **state) {
  static const uint64_t zero[4] = {UINT64_C(0xea6ccfb023e8ae0b), UINT64_C(0x0c6344ff558124ff),
                                   UINT64_C(0xe7426b4c5b5d9f9f), UINT64_C(0xb9d0272a5dc5aec2)};
  static const uint64_t three[4] = {UINT64_C(0x5bfa89cd98e39c0d), UINT64_C(0xc242a5708bd9aab3),
                                    UINT64_C(0x411f13618b55d622), UINT64_C(0xd6fa6a86e3a68514)};
  static const int ranges[8] = {-3, -10, -5, 9, 5, -3, 4, 1};
  static const int64_t fps[4] = {INT64_C(4587517867), INT64_C(-3595111927), INT64_C(9263810003), INT64_C(-6868977161)};
  static const int chances[8] = {0, 0, 0, 1, 0, 0, 0, 0};
  static const int shuffled[6] = {5, 4, 3, 2, 1, 0};
  static const int weighted[8] = {2, 2, 2, 3, 2, 2, 2, 2};
  tl_rng r;
  int i, a[6] = {0, 1, 2, 3, 4, 5};
  tl_fp w[4];
  tl_fpv2 p;
  (void)state;
  r = tl_rng_create(0, 0);
  assert_int_equal(r.id, UINT64_C(0x1d5fb089a0e993c4));
  for (i = 0; i < 4; i++) assert_int_equal(tl_rng_next_u64(&r), zero[i]);
  r = tl_rng_create3(0x5EED, 0xDEADBEEFu, 42, 7, 3);
  assert_int_equal(r.id, UINT64_C(0x04dad8c702acb2d1));
  for (i = 0; i < 4; i++) assert_int_equal(tl_rng_next_u64(&r), three[i]);
  r = tl_rng_create1(12345, 0x80000001u, 99);
  for (i = 0; i < 8; i++) assert_int_equal(tl_rng_range(&r, -10, 10), ranges[i]);
  for (i = 0; i < 4; i++) assert_int_equal(tl_rng_range_fp(&r, tl_fp_from_int(-5), tl_fp_from_int(5)).raw, fps[i]);
  for (i = 0; i < 8; i++) assert_int_equal(tl_rng_chance_fp(&r, tl_fp_from_fraction(1, 3)), chances[i]);
  assert_int_equal(tl_rng_part("Loot"), UINT64_C(0x672963f0231ca50c));
  assert_int_equal(tl_rng_part(""), UINT64_C(0xf52a15e9a9b5e89b));
  tl_rng_shuffle(&r, a, 6, sizeof a[0]);
  for (i = 0; i < 6; i++) assert_int_equal(a[i], shuffled[i]);
  w[0] = tl_fp_from_raw(1); w[1] = TL_FP_ZERO; w[2] = tl_fp_from_int(3); w[3] = TL_FP_ONE;
  for (i = 0; i < 8; i++) assert_int_equal(tl_rng_weighted_index(&r, w, 4), weighted[i]);
  p = tl_rng_inside_unit_circle(&r);
  assert_int_equal(p.x.raw, 1311804346);
  assert_int_equal(p.y.raw, 1570928626);
}

/* ---- identity ------------------------------------------------------------------------------ */

static void test_rng_identity_rules(void **state) {
  uint64_t parts[3] = {11, 22, 33};
  tl_rng a, b, c;
  (void)state;
  /* same inputs, same numbers */
  a = tl_rng_create2(7, 9, 1, 2); b = tl_rng_create2(7, 9, 1, 2);
  assert_int_equal(tl_rng_next_u64(&a), tl_rng_next_u64(&b));
  /* order matters */
  assert_int_not_equal(tl_rng_create2(7, 9, 1, 2).id, tl_rng_create2(7, 9, 2, 1).id);
  /* equal parts do not cancel, and a part of zero still counts */
  assert_int_not_equal(tl_rng_create2(7, 9, 5, 5).id, tl_rng_create(7, 9).id);
  assert_int_not_equal(tl_rng_create2(7, 9, 5, 5).id, tl_rng_create1(7, 9, 5).id);
  assert_int_not_equal(tl_rng_create1(7, 9, 0).id, tl_rng_create(7, 9).id);
  assert_int_not_equal(tl_rng_create2(7, 9, 0, 0).id, tl_rng_create1(7, 9, 0).id);
  /* a zero seed with no parts is not degenerate */
  a = tl_rng_create(0, 0);
  assert_int_not_equal(a.id, 0);
  assert_int_not_equal(tl_rng_next_u64(&a), tl_rng_next_u64(&a));
  assert_int_not_equal(tl_rng_create(0, 0).id, tl_rng_create(1, 0).id);
  /* the whole 32-bit domain counts */
  assert_int_not_equal(tl_rng_create(7, 0x00000001u).id, tl_rng_create(7, 0x80000001u).id);
  assert_int_not_equal(tl_rng_create(7, 0x00010000u).id, tl_rng_create(7, 0x00000000u).id);
  assert_int_not_equal(tl_rng_create(7, 0xFFFFFFFFu).id, tl_rng_create(7, 0x7FFFFFFFu).id);
  /* an array of parts is the same identity as the fixed-arity forms */
  assert_int_equal(tl_rng_create_n(7, 9, parts, 3).id, tl_rng_create3(7, 9, 11, 22, 33).id);
  assert_int_equal(tl_rng_create_n(7, 9, parts, 2).id, tl_rng_create2(7, 9, 11, 22).id);
  assert_int_equal(tl_rng_create_n(7, 9, parts, 0).id, tl_rng_create(7, 9).id);
  /* fork: a finer identity, independent of the parent's draws */
  a = tl_rng_create2(7, 9, 11, 22);
  b = tl_rng_fork(&a, 33);
  assert_int_equal(b.id, tl_rng_create3(7, 9, 11, 22, 33).id);
  (void)tl_rng_next_u64(&a); (void)tl_rng_next_u64(&a);
  c = tl_rng_fork(&a, 33);
  assert_int_equal(tl_rng_next_u64(&b), tl_rng_next_u64(&c));
  /* parts from text */
  assert_int_equal(tl_rng_part("Loot"), tl_rng_part_bytes("Loot", 4));
  assert_int_not_equal(tl_rng_part("a"), tl_rng_part("b"));
  assert_int_not_equal(tl_rng_part("ab"), tl_rng_part("ba"));
}

/* ---- samplers -------------------------------------------------------------------------------- */

static void test_rng_degenerate_arguments_draw_like_typical_calls(void **state) {
  tl_rng r = tl_rng_create(3, 4);
  uint64_t s = r.state;
  tl_fp zero_w[3];
  int a[1] = {5};
  (void)state;
  /* each of these makes exactly one draw, as a typical call does */
  assert_int_equal(tl_rng_chance(&r, 0, 10), 0);      s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance(&r, 10, 10), 1);     s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance(&r, 3, 0), 0);       s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance(&r, -3, -5), 0);     s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance_fp(&r, TL_FP_ZERO), 0); s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance_fp(&r, TL_FP_ONE), 1);  s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance_fp(&r, TL_FP_MAX), 1);  s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_chance_fp(&r, TL_FP_MIN), 0);  s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_range(&r, 5, 6), 5);        s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_range(&r, 7, 3), 7);        s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_range_fp(&r, TL_FP_ONE, TL_FP_ONE).raw, ONE); s += GAMMA; assert_int_equal(r.state, s);
  (void)tl_rng_range(&r, 0, 1000);                     s += GAMMA; assert_int_equal(r.state, s);
  zero_w[0] = zero_w[1] = TL_FP_ZERO; zero_w[2] = tl_fp_from_int(-1);
  assert_int_equal(tl_rng_weighted_index(&r, zero_w, 3), -1); s += GAMMA; assert_int_equal(r.state, s);
  assert_int_equal(tl_rng_weighted_index(&r, zero_w, 0), -1); s += GAMMA; assert_int_equal(r.state, s);
  tl_rng_shuffle(&r, a, 1, sizeof a[0]);              assert_int_equal(r.state, s); /* n - 1 draws */
}

static void test_rng_lemire_redraws_the_biased_zone(void **state) {
  uint64_t out;
  (void)state;
  /* n = 3: 2^64 mod 3 = 1, so the one low word 0 is rejected */
  assert_int_equal(tl__rng_lemire_accept(0, 3, &out), 0);
  assert_int_equal(tl__rng_lemire_accept(1, 3, &out), 1); assert_int_equal(out, 0);
  assert_int_equal(tl__rng_lemire_accept(~UINT64_C(0), 3, &out), 1); assert_int_equal(out, 2);
  /* n = 2^63 + 1: the zone is [0, 2^63 - 1), so x = 2 (low word 2) is redrawn and x = 1 is not */
  assert_int_equal(tl__rng_lemire_accept(2, (UINT64_C(1) << 63) + 1, &out), 0);
  assert_int_equal(tl__rng_lemire_accept(1, (UINT64_C(1) << 63) + 1, &out), 1); assert_int_equal(out, 0);
  /* powers of two have no biased zone */
  assert_int_equal(tl__rng_lemire_accept(0, 1024, &out), 1);
}

static void test_rng_ranges_stay_in_bounds(void **state) {
  tl_rng r = tl_rng_create(11, 12);
  int i;
  (void)state;
  for (i = 0; i < 100000; i++) {
    int32_t v = tl_rng_range(&r, -7, 13);
    tl_fp f = tl_rng_range_fp(&r, tl_fp_from_int(-2), TL_FP_HALF), u = tl_rng_value(&r);
    int32_t w = tl_rng_range(&r, INT32_MIN, INT32_MAX);
    assert_true(v >= -7 && v < 13);
    assert_true(f.raw >= -2 * ONE && f.raw < ONE / 2);
    assert_true(u.raw >= 0 && u.raw < ONE);
    assert_true(w < INT32_MAX);
  }
  {
    tl_fp f = tl_rng_range_fp(&r, TL_FP_MIN, TL_FP_MAX); /* the full span does not overflow */
    assert_true(f.raw < INT64_MAX);
  }
}

static void test_rng_chi_square_range(void **state) {
  long c10[10] = {0}, c7[7] = {0};
  int i;
  tl_rng r = tl_rng_create(2024, 1);
  (void)state;
  for (i = 0; i < 200000; i++) c10[tl_rng_range(&r, 0, 10)]++;
  /* one draw from each of many streams (the stateless way to roll) */
  for (i = 0; i < 140000; i++) { tl_rng s = tl_rng_create1(2024, 2, (uint64_t)i); c7[tl_rng_range(&s, -3, 4) + 3]++; }
  printf("range chi-square: 10 values %.2f (df 9), 7 values over streams %.2f (df 6)\n",
         chi_square_uniform(c10, 10, 200000), chi_square_uniform(c7, 7, 140000));
  assert_true(chi_square_uniform(c10, 10, 200000) < 27.88);  /* p = 0.001 */
  assert_true(chi_square_uniform(c7, 7, 140000) < 22.46);
}

static void test_rng_chi_square_chance(void **state) {
  long odds[2] = {0}, fp[2] = {0};
  double e_odds[2] = {70000.0, 30000.0}, e_fp[2];
  int i;
  tl_rng r = tl_rng_create(99, 3);
  (void)state;
  for (i = 0; i < 100000; i++) odds[tl_rng_chance(&r, 3, 10)]++;
  for (i = 0; i < 100000; i++) fp[tl_rng_chance_fp(&r, tl_fp_from_fraction(1, 3))]++;
  e_fp[1] = 100000.0 * (double)tl_fp_from_fraction(1, 3).raw / 4294967296.0; e_fp[0] = 100000.0 - e_fp[1];
  printf("chance chi-square: 3/10 %.2f, 1/3 (tl_fp) %.2f (df 1)\n", chi_square(odds, e_odds, 2), chi_square(fp, e_fp, 2));
  assert_true(chi_square(odds, e_odds, 2) < 10.83);
  assert_true(chi_square(fp, e_fp, 2) < 10.83);
}

static void test_rng_chi_square_shuffle_all_orders_of_four(void **state) {
  long counts[24] = {0};
  int i;
  tl_rng r = tl_rng_create(5, 6);
  (void)state;
  for (i = 0; i < 240000; i++) {
    int a[4] = {0, 1, 2, 3}, k, j, code = 0, used = 0;
    tl_rng_shuffle(&r, a, 4, sizeof a[0]);
    /* Lehmer code of the permutation: 0..23 */
    for (k = 0; k < 4; k++) {
      int smaller = 0;
      for (j = 0; j < a[k]; j++) if (!(used & (1 << j))) smaller++;
      used |= 1 << a[k];
      code = code * (4 - k) + smaller;
    }
    counts[code]++;
  }
  printf("shuffle chi-square over the 24 orders of 4: %.2f (df 23)\n", chi_square_uniform(counts, 24, 240000));
  assert_true(chi_square_uniform(counts, 24, 240000) < 49.73);
  for (i = 0; i < 24; i++) assert_true(counts[i] > 0);
  {
    /* elements of any size */
    struct big { char bytes[100]; } items[5];
    int k;
    for (k = 0; k < 5; k++) memset(items[k].bytes, 'a' + k, sizeof items[k].bytes);
    tl_rng_shuffle(&r, items, 5, sizeof items[0]);
    for (k = 0; k < 5; k++) assert_int_equal(items[k].bytes[0], items[k].bytes[99]);
  }
}

static void test_rng_chi_square_weighted_index(void **state) {
  tl_fp w[5];
  uint32_t wu[4] = {1, 2, 3, 4};
  tl_fp huge[3];
  long c[5] = {0}, cu[4] = {0}, ch[3] = {0};
  double e[4], eu[4];
  int i;
  tl_rng r = tl_rng_create(8, 9);
  (void)state;
  w[0] = TL_FP_ONE; w[1] = tl_fp_from_int(2); w[2] = TL_FP_ZERO; w[3] = tl_fp_from_int(3); w[4] = tl_fp_from_int(4);
  for (i = 0; i < 100000; i++) c[tl_rng_weighted_index(&r, w, 5)]++;
  for (i = 0; i < 100000; i++) cu[tl_rng_weighted_index_u32(&r, wu, 4)]++;
  assert_int_equal(c[2], 0); /* a zero weight is never picked */
  c[2] = c[3]; c[3] = c[4];
  for (i = 0; i < 4; i++) { e[i] = 100000.0 * (i + 1) / 10.0; eu[i] = e[i]; }
  printf("weighted chi-square: tl_fp %.2f, u32 %.2f (df 3)\n", chi_square(c, e, 4), chi_square(cu, eu, 4));
  assert_true(chi_square(c, e, 4) < 16.27);
  assert_true(chi_square(cu, eu, 4) < 16.27);
  /* weights whose sum exceeds 2^64 raw */
  huge[0] = huge[1] = huge[2] = TL_FP_MAX;
  for (i = 0; i < 30000; i++) ch[tl_rng_weighted_index(&r, huge, 3)]++;
  assert_true(chi_square_uniform(ch, 3, 30000) < 13.82);
}

/* What the header documents about draw counts and the weighted index's precision (results are
 * unchanged: these pin the documentation to the code). */
static void test_rng_documented_shuffle_draws_and_weight_precision(void **state) {
  tl_rng r = tl_rng_create(5, 6);
  uint64_t s = r.state;
  int a[5] = {1, 2, 3, 4, 5};
  tl_fp w[4];
  int i;
  (void)state;
  tl_rng_shuffle(&r, a, 0, sizeof a[0]);    assert_int_equal(r.state, s); /* count 0: none */
  tl_rng_shuffle(&r, NULL, 0, sizeof a[0]); assert_int_equal(r.state, s);
  tl_rng_shuffle(&r, a, 5, 0);              assert_int_equal(r.state, s); /* size 0: none */
  tl_rng_shuffle(&r, a, 5, sizeof a[0]);    s += 4 * GAMMA; assert_int_equal(r.state, s);
  /* Sum 3 * 2^63 - 2 raw: d = 1, so the 1-raw weight scales to 0 and is never picked. */
  w[0] = w[1] = w[2] = TL_FP_MAX;
  w[3] = tl_fp_from_raw(1);
  for (i = 0; i < 20000; i++) assert_true(tl_rng_weighted_index(&r, w, 4) < 3);
}

/* The bias test: over a span of 3 * 2^62, a plain modulo x % n makes the first third of the span
 * twice as likely as the rest (1/2 instead of 1/3). Lemire's method with redraw is exact. */
static void test_rng_bias_test_catches_plain_modulo(void **state) {
  const uint64_t n = UINT64_C(3) << 62;
  long ours = 0, modulo = 0;
  int i;
  tl_rng r = tl_rng_create(31337, 5), m = r;
  (void)state;
  for (i = 0; i < 100000; i++) {
    if (tl_rng_range_u64(&r, n) < n / 3) ours++;
    if (tl_rng_next_u64(&m) % n < n / 3) modulo++;
  }
  printf("share of the first third of [0, 3 2^62): lemire %.4f, plain modulo %.4f (fair 0.3333)\n",
         ours / 100000.0, modulo / 100000.0);
  assert_true(ours > 32667 && ours < 34000);      /* within 0.0067 (4.5 sigma) of 1/3 */
  assert_false(modulo > 32667 && modulo < 34000); /* the same check rejects a plain modulo */
  /* the same through tl_fp ranges: [MIN, MIN + 3 2^62) */
  ours = 0;
  for (i = 0; i < 100000; i++)
    if (tl_rng_range_fp(&r, TL_FP_MIN, tl_fp_from_raw(INT64_C(1) << 62)).raw < INT64_MIN + (INT64_C(1) << 62)) ours++;
  assert_true(ours > 32667 && ours < 34000);
}

static void test_rng_inside_unit_circle(void **state) {
  long quadrant[4] = {0}, inner = 0;
  int i;
  tl_rng r = tl_rng_create(4, 4);
  (void)state;
  for (i = 0; i < 100000; i++) {
    tl_fpv2 p = tl_rng_inside_unit_circle(&r);
    tl_fp d = tl_fpv2_sqr_magnitude(p);
    assert_true(tl_fpv2_magnitude(p).raw <= ONE);
    quadrant[(p.x.raw < 0) * 2 + (p.y.raw < 0)]++;
    if (d.raw < ONE / 4) inner++; /* radius below 1/2: a quarter of the area */
  }
  assert_true(chi_square_uniform(quadrant, 4, 100000) < 16.27);
  assert_true(inner > 24300 && inner < 25700);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_rng_is_splitmix64),
    cmocka_unit_test(test_rng_golden_values),
    cmocka_unit_test(test_rng_identity_rules),
    cmocka_unit_test(test_rng_degenerate_arguments_draw_like_typical_calls),
    cmocka_unit_test(test_rng_lemire_redraws_the_biased_zone),
    cmocka_unit_test(test_rng_ranges_stay_in_bounds),
    cmocka_unit_test(test_rng_chi_square_range),
    cmocka_unit_test(test_rng_chi_square_chance),
    cmocka_unit_test(test_rng_chi_square_shuffle_all_orders_of_four),
    cmocka_unit_test(test_rng_chi_square_weighted_index),
    cmocka_unit_test(test_rng_documented_shuffle_draws_and_weight_precision),
    cmocka_unit_test(test_rng_bias_test_catches_plain_modulo),
    cmocka_unit_test(test_rng_inside_unit_circle),
  };
#ifdef TL_FP_PORTABLE_128
  return cmocka_run_group_tests_name("rng (portable 128-bit path)", tests, NULL, NULL);
#else
  return cmocka_run_group_tests_name("rng", tests, NULL, NULL);
#endif
}
