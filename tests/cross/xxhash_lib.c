/* libxxhash for the target processor: xxHash's own source compiled as a library, standing in
 * for the shared library that tests/mem/xxh_lib.c calls in native builds. */
#define XXH_STATIC_LINKING_ONLY
#define XXH_IMPLEMENTATION
#include <xxhash.h>
