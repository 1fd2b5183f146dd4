/* A long mixed computation over fp.h and rng.h, hashed: the corpus (every function over edge and
 * random inputs) and a chained simulation whose every step feeds the next. Built by
 * fp_determinism.sh with gcc and clang at -O0, -O2 and -O3 and with the portable 128-bit path;
 * every build must print the hash pinned there. Prints "<hash> <words>". */
#include <stdio.h>
#include <stdlib.h>

#include "fp_corpus.c"

static uint64_t fnv(uint64_t h, uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) { h ^= (v >> (8 * i)) & 0xFF; h *= UINT64_C(0x100000001B3); }
  return h;
}

int main(void) {
  enum { CAP = 1 << 22 };
  uint64_t *words = (uint64_t *)malloc(CAP * sizeof *words), h = UINT64_C(0xCBF29CE484222325);
  size_t n = fp_corpus_run(words, CAP, 4000), i;
  tl_fpv3 pos = tl_fpv3_make(TL_FP_ONE, TL_FP_HALF, tl_fp_from_int(3)), vel = tl_fpv3_zero();
  tl_fpquat rot = tl_fpquat_identity();
  tl_fp x = tl_fp_from_fraction(1, 3);
  if (!words || n > CAP) { fprintf(stderr, "corpus too large\n"); return 2; }
  for (i = 0; i < n; i++) h = fnv(h, words[i]);
  /* chained: a body tumbling under a field, each step depending on the previous ones */
  for (i = 0; i < 20000; i++) {
    tl_rng r = tl_rng_create1(42, 7, (uint64_t)i);
    tl_fpv3 force = tl_fpv3_make(tl_fp_sin(x), tl_fp_cos(tl_fp_mul(x, pos.y)), tl_fp_atan2(pos.x, pos.z));
    tl_fp dt = tl_fp_from_fraction(1, 60);
    force = tl_fpv3_add(force, tl_fpv3_scale(tl_fpv3_normalize(pos), tl_fp_neg(tl_fp_exp(tl_fp_from_raw(x.raw % (INT64_C(3) << 32))))));
    vel = tl_fpv3_clamp_magnitude(tl_fpv3_add(vel, tl_fpv3_scale(force, dt)), tl_fp_from_int(50));
    rot = tl_fpquat_normalize(tl_fpquat_multiply(rot, tl_fpquat_from_axis_angle(vel, tl_fp_mul(dt, tl_fp_sqrt(tl_fpv3_magnitude(vel))))));
    pos = tl_fpv3_add(pos, tl_fpquat_rotate(rot, tl_fpv3_scale(vel, dt)));
    x = tl_fp_add(tl_fp_mod(tl_fp_add(x, tl_fp_log(tl_fp_add(tl_fp_abs(pos.x), TL_FP_ONE))), tl_fp_from_int(100)),
                  tl_fp_mul(tl_rng_range_fp(&r, tl_fp_neg(TL_FP_HALF), TL_FP_HALF), tl_fp_pow(TL_FP_HALF, tl_fp_abs(pos.y))));
    h = fnv(h, (uint64_t)x.raw); h = fnv(h, (uint64_t)pos.x.raw); h = fnv(h, (uint64_t)pos.y.raw);
    h = fnv(h, (uint64_t)pos.z.raw); h = fnv(h, (uint64_t)rot.w.raw);
  }
  printf("%016llx %lu\n", (unsigned long long)h, (unsigned long)n);
  free(words);
  return 0;
}
