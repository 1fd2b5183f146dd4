/* One kind of operation on a 1,024-slot int64 dictionary, repeated: what insns.sh counts.
 *   ops MODE N LOAD    MODE: none (the loop alone), hit, miss or churn (remove a present key and
 *                      add it back) */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include <threadlink/collections.h>

#include "bench_util.h"

TL_INLINE_DICT_TYPE(ops_dict, int64_t, int64_t)

int main(int argc, char **argv) {
  static int64_t keys[1024], absent[1 << 16];
  const char mode = argc > 1 ? argv[1][0] : 'n';
  const long n = argc > 2 ? atol(argv[2]) : 1000;
  const uint32_t count = (uint32_t)(1024 * (argc > 3 ? atof(argv[3]) : 0.5));
  void *mem = calloc(1, TL_LAYOUT_DICT_BYTES(1024, 8, 8));
  ops_dict d = ops_dict_view(mem, 1024);
  volatile int64_t sink = 0;
  long k;
  uint32_t i;
  if (!mem || count == 0 || count > 1024) return 2;
  for (i = 0; i < count; i++) (void)ops_dict_try_add(d, keys[i] = (int64_t)mix64(i + 1), i);
  for (k = 0; k < (1 << 16); k++) absent[k] = (int64_t)mix64((uint64_t)k + 1000000);
  for (k = 0; k < n; k++) {
    const int64_t key = keys[mix64((uint64_t)k) % count];
    int64_t *v;
    switch (mode) {
    case 'h': v = ops_dict_get(d, key); sink += v ? *v : 0; break;
    case 'm': v = ops_dict_get(d, absent[k & 0xFFFF]); sink += v ? *v : 0; break;
    case 'c': (void)ops_dict_remove(d, key); (void)ops_dict_try_add(d, key, k); break;
    default: sink += key + absent[k & 0xFFFF]; break;
    }
  }
  free(mem);
  return 0;
}
