/* One side of the A/B benchmark (ab.sh): the timing loops over one build of the runtime's inline
 * dictionary, or over stb_ds with -DAB_STB. Compiled once per side with -DAB_SIDE=name, so the
 * two runtimes' static inline functions live in separate translation units of one program. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "bench_util.h"

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)

#ifdef AB_STB
#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
typedef struct ab_entry {
  int64_t key, value;
} ab_entry;
typedef ab_entry *ab_map;
static ab_map ab_open(uint32_t capacity) {
  (void)capacity;
  return NULL;
}
#define AB_ADD(m, k, v) hmput(m, k, v)
#define AB_DEL(m, k) ((void)hmdel(m, k))
#define AB_GET(m, k) hmget(m, k)
#define AB_HAS(m, k) (hmgeti(m, k) >= 0)
#define AB_CLOSE(m) hmfree(m)
#else
#include <threadlink/collections.h>
TL_INLINE_DICT_TYPE(ab_dict, int64_t, int64_t)
typedef ab_dict ab_map;
static ab_map ab_open(uint32_t capacity) {
  return ab_dict_view(tl_mem_alloc_zeroed(TL_LAYOUT_DICT_BYTES(capacity, 8, 8), 64), capacity);
}
#define AB_ADD(m, k, v) ((void)ab_dict_try_add(m, k, v))
#define AB_DEL(m, k) ((void)ab_dict_remove(m, k))
#define AB_GET(m, k) (*ab_dict_get(m, k))
#define AB_HAS(m, k) (ab_dict_get(m, k) != NULL)
#define AB_CLOSE(m) tl_mem_free((m).mem)
#endif

double AB_CAT(AB_SIDE, _run)(int op, const ab_round *r) {
  ab_map m = ab_open(r->capacity);
  double t = 0, start;
  int64_t sum = 0;
  uint32_t i, turn;
  start = now_ns();
  for (i = 0; i < r->n; i++) AB_ADD(m, r->keys[i], (int64_t)i);
  if (op == AB_INSERT) t = now_ns() - start;
  start = now_ns();
  switch (op) {
  case AB_HIT:
    for (i = 0; i < r->n; i++) sum += AB_GET(m, r->order[i]);
    break;
  case AB_MISS:
    for (i = 0; i < r->n; i++) sum += AB_HAS(m, r->absent[i]);
    break;
  case AB_CHURN_SAME:
    for (i = 0; i < r->n; i++) {
      AB_DEL(m, r->order[i]);
      AB_ADD(m, r->order[i], (int64_t)i);
    }
    break;
  case AB_CHURN_NEW: /* eight turnovers; the time of the eighth */
    for (turn = 0; turn < 8; turn++) {
      const int64_t *gone = turn ? r->fresh + (size_t)(turn - 1) * r->n : r->keys;
      const int64_t *come = r->fresh + (size_t)turn * r->n;
      start = now_ns();
      for (i = 0; i < r->n; i++) {
        AB_DEL(m, gone[i]);
        AB_ADD(m, come[i], (int64_t)i);
      }
    }
    break;
  default:
    break;
  }
  if (op != AB_INSERT) t = now_ns() - start;
  AB_CLOSE(m);
  ab_sink += sum;
  return t / r->n;
}
