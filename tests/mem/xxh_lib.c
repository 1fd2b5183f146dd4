/* The installed libxxhash, called through its shared library: the oracle that tl_hash32,
 * tl_hash32_4/8 and tl_hash64 (xxHash inlined) must match. Kept in its own translation unit
 * because mem.h renames XXH32/XXH64 to the inlined copies wherever it is included. */
#include <xxhash.h>

#include "xxh_lib.h"

uint32_t xxh_lib_32(const void *data, size_t length, uint32_t seed) {
  return (uint32_t)XXH32(data, length, seed);
}

uint64_t xxh_lib_64(const void *data, size_t length, uint64_t seed) {
  return (uint64_t)XXH64(data, length, seed);
}

unsigned xxh_lib_version(void) { return XXH_versionNumber(); }
