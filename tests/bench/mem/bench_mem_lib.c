/* The same loops as bench_mem.c, calling libxxhash's exported XXH64 / XXH32 (this file does not
 * include threadlink/mem.h, whose inlined xxHash would otherwise take these names). */
#define _POSIX_C_SOURCE 200809L
#include <xxhash.h>

#include "bench_mem_lib.h"
#include "bench_util.h"

double bench_lib_xxh64_loop(const unsigned char *buffer, size_t length, uint64_t calls, uint64_t *acc) {
  uint64_t sum = 0, c;
  double t0 = now_ns();
  for (c = 0; c < calls; c++) sum += XXH64(buffer + (c & 63), length, c);
  t0 = now_ns() - t0;
  *acc = sum;
  return t0;
}

double bench_lib_xxh32_loop(const unsigned char *buffer, size_t length, uint64_t calls, uint64_t *acc) {
  uint64_t sum = 0, c;
  double t0 = now_ns();
  for (c = 0; c < calls; c++) sum += XXH32(buffer + (c & 1023), length, 0);
  t0 = now_ns() - t0;
  *acc = sum;
  return t0;
}
