/* Timing loops that call the installed libxxhash (see bench_mem_lib.c). */
#ifndef TESTS_BENCH_MEM_LIB_H
#define TESTS_BENCH_MEM_LIB_H
#include <stddef.h>
#include <stdint.h>
/* ns for `calls` XXH64 calls of `length` bytes at offsets 0..63 of buffer, seeds 0..calls-1. */
double bench_lib_xxh64_loop(const unsigned char *buffer, size_t length, uint64_t calls, uint64_t *acc);
/* ns for `calls` XXH32 calls of `length` bytes at offsets 0..1023 of buffer, seed 0. */
double bench_lib_xxh32_loop(const unsigned char *buffer, size_t length, uint64_t calls, uint64_t *acc);
#endif
