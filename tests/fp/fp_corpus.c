/* The fp/rng test corpus: every public function of fp.h and rng.h over edge cases and
 * deterministic random inputs, each result appended as raw 64-bit words. Compiled twice by
 * tests/fp/meson.build, once as is and once with TL_FP_PORTABLE_128 (the portable 128-bit path),
 * with FP_CORPUS_NAME naming the entry point; test_fp_portable compares the two word by word.
 * The determinism test hashes the same words at every compiler and optimisation level. */
#include <stddef.h>
#include <stdint.h>

#include <threadlink/fp.h>
#include <threadlink/rng.h>

#ifndef FP_CORPUS_NAME
#define FP_CORPUS_NAME fp_corpus_run
#endif

typedef struct { uint64_t *out; size_t cap, n; } sink;
static void put(sink *s, uint64_t v) { if (s->n < s->cap) s->out[s->n] = v; s->n++; }
static void putf(sink *s, tl_fp v) { put(s, (uint64_t)v.raw); }
static void put2(sink *s, tl_fpv2 v) { putf(s, v.x); putf(s, v.y); }
static void put3(sink *s, tl_fpv3 v) { putf(s, v.x); putf(s, v.y); putf(s, v.z); }
static void putq(sink *s, tl_fpquat q) { putf(s, q.x); putf(s, q.y); putf(s, q.z); putf(s, q.w); }

static uint64_t corpus_next(uint64_t *st) {
  uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
/* Inputs at every scale: full range, log-uniform, small, and edges. */
static int64_t corpus_value(uint64_t *st) {
  static const int64_t edges[] = {0, 1, -1, 2, INT64_C(1) << 32, -(INT64_C(1) << 32), (INT64_C(1) << 32) - 1,
                                  INT64_C(1) << 31, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
                                  INT64_C(6746518852), INT64_C(13493037705), -INT64_C(6746518852)};
  uint64_t k = corpus_next(st) % 8, r = corpus_next(st);
  switch (k) {
    case 0: return (int64_t)r;
    case 1: return (int64_t)(r >> (corpus_next(st) % 64)) * ((corpus_next(st) & 1) ? 1 : -1);
    case 2: return (int64_t)(r % (UINT64_C(64) << 32)) - (INT64_C(32) << 32);
    case 3: return edges[r % (sizeof edges / sizeof edges[0])];
    case 4: return (int64_t)(r % (UINT64_C(2) << 32)) - (INT64_C(1) << 32);
    default: return (int64_t)(r % (UINT64_C(2000) << 32)) - (INT64_C(1000) << 32);
  }
}

static void unary(sink *s, tl_fp x) {
  putf(s, tl_fp_neg(x)); putf(s, tl_fp_abs(x)); putf(s, tl_fp_floor(x)); putf(s, tl_fp_ceil(x));
  putf(s, tl_fp_round(x)); putf(s, tl_fp_trunc(x)); putf(s, tl_fp_frac(x)); putf(s, tl_fp_clamp01(x));
  put(s, (uint64_t)(int64_t)tl_fp_floor_to_int(x)); put(s, (uint64_t)(int64_t)tl_fp_ceil_to_int(x));
  put(s, (uint64_t)(int64_t)tl_fp_round_to_int(x)); put(s, (uint64_t)(int64_t)tl_fp_sign(x));
  putf(s, tl_fp_sqrt(x)); putf(s, tl_fp_sin(x)); putf(s, tl_fp_cos(x)); putf(s, tl_fp_tan(x));
  putf(s, tl_fp_asin(x)); putf(s, tl_fp_acos(x)); putf(s, tl_fp_atan(x)); putf(s, tl_fp_exp(x));
  putf(s, tl_fp_log(x)); putf(s, tl_fp_log2(x)); putf(s, tl_fp_deg_to_rad(x)); putf(s, tl_fp_rad_to_deg(x));
  putf(s, tl_fp_exp(tl_fp_from_raw(x.raw % (INT64_C(24) << 32))));
  putf(s, tl_fp_asin(tl_fp_from_raw(x.raw % (INT64_C(1) << 32))));
  putf(s, tl_fp_acos(tl_fp_from_raw(x.raw % (INT64_C(1) << 32))));
  put2(s, tl_fpv2_from_angle(x));
}
static void binary(sink *s, tl_fp a, tl_fp b) {
  putf(s, tl_fp_add(a, b)); putf(s, tl_fp_sub(a, b)); putf(s, tl_fp_mul(a, b)); putf(s, tl_fp_div(a, b));
  putf(s, tl_fp_mod(a, b)); putf(s, tl_fp_from_fraction(a.raw, b.raw)); putf(s, tl_fp_atan2(a, b));
  putf(s, tl_fp_pow(a, b)); putf(s, tl_fp_pow(a, tl_fp_from_raw(b.raw % (INT64_C(40) << 32))));
  putf(s, tl_fp_pow(tl_fp_abs(a), tl_fp_from_raw(b.raw % (INT64_C(3) << 32))));
  putf(s, tl_fp_min(a, b)); putf(s, tl_fp_max(a, b)); put(s, (uint64_t)(int64_t)tl_fp_cmp(a, b));
  putf(s, tl_fp_lerp(a, b, tl_fp_from_raw(b.raw & 0xFFFFFFFF)));
  putf(s, tl_fp_lerp_unclamped(a, b, tl_fp_from_raw(a.raw >> 20)));
  putf(s, tl_fp_inverse_lerp(a, b, tl_fp_from_raw(a.raw / 2 + b.raw / 3)));
  putf(s, tl_fp_move_towards(a, b, tl_fp_from_raw(b.raw >> 7)));
  putf(s, tl_fp_mul_int(a, b.raw >> 40));
}
static void vectors(sink *s, int64_t r0, int64_t r1, int64_t r2, int64_t r3, int64_t r4, int64_t r5) {
  tl_fpv2 a2 = tl_fpv2_make(tl_fp_from_raw(r0), tl_fp_from_raw(r1)), b2 = tl_fpv2_make(tl_fp_from_raw(r2), tl_fp_from_raw(r3));
  tl_fpv3 a3 = tl_fpv3_make(tl_fp_from_raw(r0), tl_fp_from_raw(r1), tl_fp_from_raw(r2));
  tl_fpv3 b3 = tl_fpv3_make(tl_fp_from_raw(r3), tl_fp_from_raw(r4), tl_fp_from_raw(r5));
  tl_fp t = tl_fp_from_raw(r4 & 0xFFFFFFFF), d = tl_fp_from_raw(r5 >> 8);
  tl_fpquat qa = tl_fpquat_from_axis_angle(a3, tl_fp_from_raw(r3)), qb = tl_fpquat_from_axis_angle(b3, tl_fp_from_raw(r1));
  put2(s, tl_fpv2_add(a2, b2)); put2(s, tl_fpv2_sub(a2, b2)); put2(s, tl_fpv2_scale(a2, t));
  putf(s, tl_fpv2_dot(a2, b2)); putf(s, tl_fpv2_cross(a2, b2)); putf(s, tl_fpv2_magnitude(a2));
  putf(s, tl_fpv2_sqr_magnitude(a2)); put2(s, tl_fpv2_normalize(a2)); putf(s, tl_fpv2_distance(a2, b2));
  put2(s, tl_fpv2_lerp(a2, b2, t)); put2(s, tl_fpv2_move_towards(a2, b2, d)); put2(s, tl_fpv2_clamp_magnitude(a2, d));
  put2(s, tl_fpv2_perpendicular(a2)); put2(s, tl_fpv2_rotate(a2, b2.x)); putf(s, tl_fpv2_angle(a2, b2));
  putf(s, tl_fpv2_signed_angle(a2, b2));
  put3(s, tl_fpv3_add(a3, b3)); put3(s, tl_fpv3_cross(a3, b3)); putf(s, tl_fpv3_dot(a3, b3));
  putf(s, tl_fpv3_magnitude(a3)); put3(s, tl_fpv3_normalize(a3)); putf(s, tl_fpv3_distance(a3, b3));
  put3(s, tl_fpv3_lerp(a3, b3, t)); put3(s, tl_fpv3_move_towards(a3, b3, d)); put3(s, tl_fpv3_clamp_magnitude(a3, d));
  putf(s, tl_fpv3_angle(a3, b3)); put3(s, tl_fpv3_project(a3, b3)); put3(s, tl_fpv3_project_on_plane(a3, b3));
  putq(s, qa); putq(s, tl_fpquat_multiply(qa, qb)); put3(s, tl_fpquat_rotate(qa, b3)); putq(s, tl_fpquat_inverse(qa));
  putq(s, tl_fpquat_nlerp(qa, qb, t)); putq(s, tl_fpquat_slerp(qa, qb, t)); putf(s, tl_fpquat_angle(qa, qb));
  putq(s, tl_fpquat_normalize(tl_fpquat_make(tl_fp_from_raw(r0), tl_fp_from_raw(r1), tl_fp_from_raw(r2), tl_fp_from_raw(r3))));
}
static void streams(sink *s, uint64_t seed, uint64_t p) {
  tl_rng r = tl_rng_create2(seed, (uint32_t)(p >> 32), p, seed ^ p);
  tl_fp w[5];
  int order[7] = {0, 1, 2, 3, 4, 5, 6}, i;
  unsigned char p_bytes[8];
  put(s, tl_rng_next_u64(&r)); put(s, (uint64_t)(int64_t)tl_rng_range(&r, -1000, (int32_t)(p & 0xFFFF)));
  put(s, (uint64_t)(int64_t)tl_rng_range(&r, INT32_MIN, INT32_MAX));
  putf(s, tl_rng_range_fp(&r, tl_fp_from_raw((int64_t)seed), tl_fp_from_raw((int64_t)p)));
  put(s, (uint64_t)tl_rng_chance(&r, 3, 7)); put(s, (uint64_t)tl_rng_chance_fp(&r, tl_fp_from_raw((int64_t)(p & 0xFFFFFFFF))));
  for (i = 0; i < 5; i++) w[i] = tl_fp_from_raw((int64_t)(corpus_next(&seed) >> (i * 12)));
  put(s, (uint64_t)tl_rng_weighted_index(&r, w, 5));
  tl_rng_shuffle(&r, order, 7, sizeof order[0]);
  for (i = 0; i < 7; i++) put(s, (uint64_t)order[i]);
  for (i = 0; i < 8; i++) p_bytes[i] = (unsigned char)(p >> (8 * i)); /* the same bytes everywhere */
  put2(s, tl_rng_inside_unit_circle(&r)); putf(s, tl_rng_value(&r)); put(s, tl_rng_part_bytes(p_bytes, 8));
  put(s, tl_rng_fork(&r, seed).id);
}

/* Fills out[0..cap) and returns the number of words the corpus has (which may exceed cap). */
size_t FP_CORPUS_NAME(uint64_t *out, size_t cap, long rounds);
size_t FP_CORPUS_NAME(uint64_t *out, size_t cap, long rounds) {
  sink s;
  uint64_t st = 20240901;
  long i;
  s.out = out; s.cap = cap; s.n = 0;
  for (i = 0; i < rounds; i++) {
    int64_t a = corpus_value(&st), b = corpus_value(&st), c = corpus_value(&st);
    int64_t d = corpus_value(&st), e = corpus_value(&st), f = corpus_value(&st);
    unary(&s, tl_fp_from_raw(a));
    binary(&s, tl_fp_from_raw(a), tl_fp_from_raw(b));
    vectors(&s, a, b, c, d, e, f);
    streams(&s, (uint64_t)a, (uint64_t)b);
  }
  return s.n;
}
