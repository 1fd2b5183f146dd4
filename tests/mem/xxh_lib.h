/* libxxhash, linked (see xxh_lib.c). */
#ifndef TESTS_MEM_XXH_LIB_H
#define TESTS_MEM_XXH_LIB_H
#include <stddef.h>
#include <stdint.h>
uint32_t xxh_lib_32(const void *data, size_t length, uint32_t seed);
uint64_t xxh_lib_64(const void *data, size_t length, uint64_t seed);
unsigned xxh_lib_version(void);
#endif
