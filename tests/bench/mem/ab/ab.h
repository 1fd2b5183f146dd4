/* Shared by the sides of the A/B benchmark (ab.sh). */
#ifndef TESTS_BENCH_MEM_AB_H
#define TESTS_BENCH_MEM_AB_H
#include <stdint.h>

enum { AB_CHURN_SAME, AB_CHURN_NEW, AB_HIT, AB_MISS, AB_INSERT, AB_OPS };

/* One round's keys, made by ab_main.c: n present keys, the same in a random order, n absent
 * keys and 8 * n fresh keys for churn with new keys. */
typedef struct ab_round {
  uint32_t capacity, n;
  const int64_t *keys, *order, *absent, *fresh;
} ab_round;

extern int64_t ab_sink;

double base_run(int op, const ab_round *r);
double work_run(int op, const ab_round *r);
double stb_run(int op, const ab_round *r);
#endif
