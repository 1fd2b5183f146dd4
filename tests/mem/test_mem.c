/* Unit tests of runtime/threadlink/mem.h: blocks, hashes, and every operation and edge of the
 * inline collections (full, empty, wrap-around, slot reuse after removal, removal during
 * iteration, misuse). Run again under ASan and UBSan by tests/run-all.sh: misuse must return
 * errors there too, never touch memory outside a collection. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

/* Allocation hooks: count calls, and fail on demand. */
static size_t hook_allocs, hook_frees;
static int hook_fail_next;
static void *hook_malloc(size_t bytes) {
  if (hook_fail_next) {
    hook_fail_next = 0;
    return NULL;
  }
  hook_allocs++;
  return malloc(bytes);
}
static void hook_free(void *p) {
  hook_frees++;
  free(p);
}
static int reported_count, reported_last = -1;
#define TL_MEM_MALLOC(bytes) hook_malloc(bytes)
#define TL_MEM_FREE(p) hook_free(p)
#define TL_MEM_REPORT(error, message) (reported_count++, reported_last = (int)(error), (void)(message))
#include <threadlink/collections.h>

#include "mem_test_util.h"
#include "xxh_lib.h"

#define PRIME32 2654435761U
#define PRIME64 11400714785074694797ULL

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* 8-aligned scratch memory for collections, poisoned around the collection by ASan's redzones
 * because each test allocates exactly the collection's bytes. */
static void *scratch(size_t bytes) {
  void *p = malloc(bytes);
  assert_non_null(p);
  memset(p, 0, bytes);
  return p;
}

/* ============================================================================================
 * Blocks
 * ========================================================================================== */

static void test_mem_alloc_zeroed_aligned(void **state) {
  static const size_t alignments[] = {1, 2, 4, 8, 16, 32, 64, 128, 4096, 65536};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof alignments / sizeof alignments[0]; i++) {
    size_t bytes = 1000 + i;
    tl_mem_result error = TL_MEM_ERROR_SIZE;
    unsigned char *p = (unsigned char *)tl_mem_alloc_zeroed_ex(bytes, alignments[i], &error);
    size_t k;
    assert_non_null(p);
    assert_int_equal(error, TL_MEM_OK);
    assert_int_equal((uintptr_t)p % alignments[i], 0);
    assert_int_equal((uintptr_t)p % 16, 0);
    for (k = 0; k < bytes; k++) assert_int_equal(p[k], 0);
    assert_int_equal(tl_mem_block_size(p), bytes);
    memset(p, 0xAB, bytes); /* the whole block is writable */
    tl_mem_free(p);
  }
  {
    unsigned char *p = (unsigned char *)tl_mem_alloc_zeroed(10, 0);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % TL_MEM_DEFAULT_ALIGNMENT, 0);
    tl_mem_free(p);
  }
}

static void test_mem_alloc_uses_hooks(void **state) {
  size_t allocs = hook_allocs, frees = hook_frees;
  void *p;
  (void)state;
  p = tl_mem_alloc_zeroed(64, 64);
  assert_int_equal(hook_allocs, allocs + 1);
  tl_mem_free(p);
  assert_int_equal(hook_frees, frees + 1);
  tl_mem_free(NULL); /* ignored */
  assert_int_equal(hook_frees, frees + 1);
}

static void test_mem_alloc_reports_errors(void **state) {
  /* The last: the largest power of two a size_t holds (2^63 or 2^31). */
  static const size_t bad_alignments[] = {3, 6, 12, 100, 131072, ~(SIZE_MAX >> 1)};
  tl_mem_result error = TL_MEM_OK;
  size_t i;
  int reports = reported_count;
  (void)state;
  for (i = 0; i < sizeof bad_alignments / sizeof bad_alignments[0]; i++) {
    assert_null(tl_mem_alloc_zeroed_ex(16, bad_alignments[i], &error));
    assert_int_equal(error, TL_MEM_ERROR_ALIGNMENT);
  }
  assert_null(tl_mem_alloc_zeroed_ex(0, 8, &error));
  assert_int_equal(error, TL_MEM_ERROR_SIZE);
  assert_null(tl_mem_alloc_zeroed_ex(SIZE_MAX, 8, &error));
  assert_int_equal(error, TL_MEM_ERROR_SIZE);
  assert_null(tl_mem_alloc_zeroed_ex(TL_MEM_MAX_BYTES + 1, 8, &error));
  assert_int_equal(error, TL_MEM_ERROR_SIZE);
  assert_null(tl_mem_alloc_zeroed(0, 0)); /* no out-parameter: still reported */
  hook_fail_next = 1;
  assert_null(tl_mem_alloc_zeroed_ex(128, 64, &error));
  assert_int_equal(error, TL_MEM_ERROR_OUT_OF_MEMORY);
  assert_int_equal(reported_last, TL_MEM_ERROR_OUT_OF_MEMORY);
  assert_int_equal(reported_count, reports + (int)(sizeof bad_alignments / sizeof bad_alignments[0]) + 5);
  assert_string_equal(tl_mem_result_message(TL_MEM_ERROR_OUT_OF_MEMORY), "allocation failed");
  assert_string_equal(tl_mem_result_message((tl_mem_result)999), "unknown result");
  assert_string_equal(tl_mem_result_message(TL_MEM_OK), "ok");
  assert_int_equal(TL_MEM_OK, 0);
  assert_int_equal(TL_MEM_ERROR_OVERLAP, 5); /* the values of 0.0: the rows keep their order */
  assert_int_equal(tl_mem_live_blocks(), 0); /* not tracked without TL_MEM_DEBUG */
  assert_int_equal(tl_mem_report_leaks(NULL, NULL), 0);
}

static void test_mem_copy_clear_equal(void **state) {
  unsigned char a[64], b[64];
  int reports;
  size_t i;
  (void)state;
  for (i = 0; i < sizeof a; i++) a[i] = (unsigned char)(i * 7 + 1);
  memset(b, 0, sizeof b);
  assert_false(tl_mem_equal(a, b, sizeof a));
  tl_mem_copy(b, a, sizeof a);
  assert_true(tl_mem_equal(a, b, sizeof a));
  assert_memory_equal(a, b, sizeof a);
  tl_mem_clear(b, 32);
  for (i = 0; i < 32; i++) assert_int_equal(b[i], 0);
  assert_int_equal(b[32], a[32]);
  assert_true(tl_mem_equal(a, b, 0));
  assert_true(tl_mem_equal(NULL, NULL, 0));
  tl_mem_copy(NULL, NULL, 0);
  tl_mem_clear(NULL, 0);
  /* Overlap: reported, then handled like memmove. */
  reports = reported_count;
  for (i = 0; i < sizeof a; i++) a[i] = (unsigned char)i;
  tl_mem_copy(a + 1, a, 10);
  assert_int_equal(reported_count, reports + 1);
  assert_int_equal(reported_last, TL_MEM_ERROR_OVERLAP);
  for (i = 0; i < 10; i++) assert_int_equal(a[i + 1], i);
  tl_mem_copy(a, a + 1, 10);
  for (i = 0; i < 10; i++) assert_int_equal(a[i], i);
}

/* ============================================================================================
 * Hashes
 * ========================================================================================== */

/* xxHash's sanity buffer: its published test vectors hash prefixes of it. */
static void fill_sanity_buffer(unsigned char *buffer, size_t length) {
  uint64_t generator = PRIME32;
  size_t i;
  for (i = 0; i < length; i++) {
    buffer[i] = (unsigned char)(generator >> 56);
    generator *= PRIME64;
  }
}

static void test_mem_hash_published_vectors(void **state) {
  static const struct { uint32_t length, seed, expected; } v32[] = {
    {0, 0, 0x02CC5D05u},   {0, PRIME32, 0x36B78AE7u},   {1, 0, 0xCF65B03Eu},
    {1, PRIME32, 0xB4545AA4u}, {14, 0, 0x1208E7E2u},    {14, PRIME32, 0x6AF1D1FEu},
    {222, 0, 0x5BD11DBDu}, {222, PRIME32, 0x58803C5Fu},
  };
  static const struct { uint32_t length; uint64_t seed, expected; } v64[] = {
    {0, 0, 0xEF46DB3751D8E999ull},   {0, PRIME32, 0xAC75FDA2929B17EFull},
    {1, 0, 0xE934A84ADB052768ull},   {1, PRIME32, 0x5014607643A9B4C3ull},
    {4, 0, 0x9136A0DCA57457EEull},   {14, 0, 0x8282DCC4994E35C8ull},
    {14, PRIME32, 0xC3BD6BF63DEB6DF0ull}, {222, 0, 0xB641AE8CB691C174ull},
    {222, PRIME32, 0x20CB8AB7AE10C14Aull},
  };
  unsigned char buffer[256];
  size_t i;
  (void)state;
  fill_sanity_buffer(buffer, sizeof buffer);
  for (i = 0; i < sizeof v32 / sizeof v32[0]; i++)
    assert_int_equal(tl_hash32(buffer, v32[i].length, v32[i].seed), v32[i].expected);
  for (i = 0; i < sizeof v64 / sizeof v64[0]; i++)
    assert_int_equal(tl_hash64(buffer, v64[i].length, v64[i].seed), v64[i].expected);
  /* The empty input may be given as NULL. */
  assert_int_equal(tl_hash64(NULL, 0, 0), 0xEF46DB3751D8E999ull);
  assert_int_equal(tl_hash32(NULL, 0, 0), 0x02CC5D05u);
}

static void test_mem_hash_matches_libxxhash(void **state) {
  unsigned char buffer[2048 + 16];
  int round;
  (void)state;
  for (round = 0; round < 4000; round++) {
    size_t length = (size_t)(rng_next() % 600);
    size_t offset = (size_t)(rng_next() % 8); /* unaligned inputs too */
    uint64_t seed64 = round % 3 == 0 ? 0 : rng_next();
    uint32_t seed32 = (uint32_t)seed64;
    size_t i;
    if (round % 100 == 0) length = 1024 + (size_t)(rng_next() % 1024);
    for (i = 0; i < length; i++) buffer[offset + i] = (unsigned char)rng_next();
    assert_int_equal(tl_hash64(buffer + offset, length, seed64),
                     xxh_lib_64(buffer + offset, length, seed64));
    assert_int_equal(tl_hash32(buffer + offset, length, seed32),
                     xxh_lib_32(buffer + offset, length, seed32));
  }
}

/* The streaming hash of fixed-width values equals XXH64 of their little-endian bytes, whatever
 * the mix of widths, across its buffer's boundary and with runs of bytes longer than it. */
static void test_mem_hash64_stream_is_xxh64_of_little_endian_bytes(void **state) {
  unsigned char expected[4096];
  int round;
  (void)state;
  for (round = 0; round < 300; round++) {
    tl_hash64_stream s;
    uint64_t seed = round % 2 ? rng_next() : 0;
    size_t n = 0, k;
    tl_hash64_stream_reset(&s, seed);
    while (n < sizeof expected - 700) {
      uint64_t v = rng_next();
      switch (rng_next() % 4) {
      case 0:
        tl_hash64_stream_u32(&s, (uint32_t)v);
        for (k = 0; k < 4; k++) expected[n++] = (unsigned char)(v >> (8 * k));
        break;
      case 1:
        tl_hash64_stream_u64(&s, v);
        for (k = 0; k < 8; k++) expected[n++] = (unsigned char)(v >> (8 * k));
        break;
      default: { /* raw bytes: short, empty, or longer than the buffer */
        size_t length = (size_t)(rng_next() % (round % 10 == 0 ? 600 : 13));
        for (k = 0; k < length; k++) expected[n + k] = (unsigned char)rng_next();
        tl_hash64_stream_bytes(&s, expected + n, length);
        n += length;
        break;
      }
      }
      if (rng_next() % 50 == 0) /* a digest midway does not end the stream */
        assert_int_equal(tl_hash64_stream_digest(&s), xxh_lib_64(expected, n, seed));
    }
    assert_int_equal(tl_hash64_stream_digest(&s), xxh_lib_64(expected, n, seed));
  }
}

/* XXH64 fed in pieces of every size (hash.h's tl_hash64_state, which content.h hashes archives
 * with) equals libxxhash's one-shot digest, across stripe boundaries and for every length. */
static void test_mem_hash64_state_in_pieces_matches_libxxhash(void **state) {
  unsigned char buffer[1200];
  size_t length, i;
  (void)state;
  for (i = 0; i < sizeof buffer; i++) buffer[i] = (unsigned char)rng_next();
  for (length = 0; length <= sizeof buffer; length += 1 + length / 40) {
    uint64_t seed = length % 3 ? rng_next() : 0;
    tl_hash64_state s;
    size_t at = 0;
    tl_hash64_reset(&s, seed);
    while (at < length) {
      size_t piece = (size_t)(rng_next() % 70);
      if (piece > length - at) piece = length - at;
      tl_hash64_update(&s, buffer + at, piece);
      at += piece;
    }
    assert_int_equal(tl_hash64_digest(&s), xxh_lib_64(buffer, length, seed));
    assert_int_equal(tl_hash64(buffer, length, seed), xxh_lib_64(buffer, length, seed));
  }
}

/* A native struct walked field by field: on a little-endian machine its raw bytes' hash. */
static void test_mem_hash64_stream_walk_of_a_struct(void **state) {
  struct rec { uint32_t a; int32_t b; uint64_t c; int64_t d; } r = {0x01020304u, -5, 0x1122334455667788ull, -7};
  static const unsigned char le_bytes[24] = {
    4, 3, 2, 1, 0xfb, 0xff, 0xff, 0xff, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
    0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  tl_hash64_stream s;
  (void)state;
  tl_hash64_stream_reset(&s, 9);
  tl_hash64_stream_u32(&s, r.a);
  tl_hash64_stream_u32(&s, (uint32_t)r.b);
  tl_hash64_stream_u64(&s, r.c);
  tl_hash64_stream_u64(&s, (uint64_t)r.d);
  assert_int_equal(tl_hash64_stream_digest(&s), tl_hash64(le_bytes, sizeof le_bytes, 9));
  if (TL__MEM_LITTLE_ENDIAN) assert_int_equal(tl_hash64_stream_digest(&s), tl_hash64(&r, sizeof r, 9));
  tl_hash64_stream_reset(&s, 0); /* nothing fed: the empty input's hash */
  assert_int_equal(tl_hash64_stream_digest(&s), tl_hash64(NULL, 0, 0));
}

/* The unrolled key hashes against libxxhash, on every kind of key: random, small integers,
 * single bits, all-ones, at every alignment, with and without seed. */
static void test_mem_hash32_specialised_keys_match_libxxhash(void **state) {
  unsigned char buffer[16];
  uint32_t i;
  (void)state;
  for (i = 0; i < 300000; i++) {
    size_t offset = i % 8;
    uint32_t seed = (i & 1) ? (uint32_t)rng_next() : 0;
    uint64_t value;
    switch (i % 4) {
    case 0: value = rng_next(); break;
    case 1: value = i; break;
    case 2: value = (uint64_t)1 << (i % 64); break;
    default: value = ~(uint64_t)0 - i; break;
    }
    memcpy(buffer + offset, &value, 8);
    assert_int_equal(tl_hash32_4(buffer + offset, seed), xxh_lib_32(buffer + offset, 4, seed));
    assert_int_equal(tl_hash32_8(buffer + offset, seed), xxh_lib_32(buffer + offset, 8, seed));
    assert_int_equal(tl_hash32_4(buffer + offset, seed), tl_hash32(buffer + offset, 4, seed));
    assert_int_equal(tl_hash32_8(buffer + offset, seed), tl_hash32(buffer + offset, 8, seed));
  }
  assert_true(xxh_lib_version() >= 800);
}

/* ============================================================================================
 * Array, list, queue, stack
 * ========================================================================================== */

typedef struct rec12 { /* 12 bytes: a stride of 16, so padding bytes follow every element */
  uint32_t a, b, c;
} rec12;

static void test_mem_array_operations(void **state) {
  const uint32_t length = 5;
  size_t bytes = TL_LAYOUT_ARRAY_BYTES(length, sizeof(rec12));
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_array a = tl_inline_array_view(mem, length, sizeof(rec12));
  rec12 r = {1, 2, 3}, out;
  uint32_t i;
  (void)state;
  assert_int_equal(bytes, 5 * 16);
  assert_true(tl_inline_array_valid(a));
  assert_int_equal(tl_inline_array_length(a), length);
  for (i = 0; i < length; i++) { /* all slots present from the start, zeroed */
    rec12 *p = (rec12 *)tl_inline_array_at(a, i);
    assert_non_null(p);
    assert_int_equal(p->a, 0);
  }
  assert_null(tl_inline_array_at(a, length));
  assert_null(tl_inline_array_at(a, UINT32_MAX));
  assert_true(tl_inline_array_set(a, 4, &r));
  assert_false(tl_inline_array_set(a, 5, &r));
  assert_true(tl_inline_array_get(a, 4, &out));
  assert_memory_equal(&out, &r, sizeof r);
  assert_false(tl_inline_array_get(a, 5, &out));
  assert_ptr_equal(tl_inline_array_at(a, 4), mem + 4 * 16);
  tl_inline_array_clear(a);
  for (i = 0; i < bytes; i++) assert_int_equal(mem[i], 0);
  free(mem);
}

static void test_mem_list_operations(void **state) {
  const uint32_t cap = 4;
  size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(cap, sizeof(rec12));
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_list l = tl_inline_list_view(mem, cap, sizeof(rec12));
  rec12 r;
  uint32_t i;
  (void)state;
  assert_int_equal(bytes, 8 + 4 * 16);
  assert_int_equal(tl_inline_list_count(l), 0);
  assert_null(tl_inline_list_at(l, 0));
  assert_false(tl_inline_list_remove_at(l, 0));
  for (i = 0; i < cap; i++) {
    r.a = r.b = r.c = 10 + i;
    assert_true(tl_inline_list_add(l, &r));
  }
  r.a = 99;
  assert_false(tl_inline_list_add(l, &r)); /* full */
  assert_null(tl_inline_list_add_zeroed(l));
  assert_int_equal(tl_inline_list_count(l), cap);
  assert_int_equal(mem[0], cap); /* count in header bytes 0-3, little-endian */
  assert_int_equal(((rec12 *)tl_inline_list_at(l, 3))->a, 13);
  assert_null(tl_inline_list_at(l, cap));
  /* remove_at moves the last element into the gap and zeroes the vacated slot. */
  assert_true(tl_inline_list_remove_at(l, 1));
  assert_int_equal(tl_inline_list_count(l), 3);
  assert_int_equal(((rec12 *)tl_inline_list_at(l, 1))->a, 13);
  for (i = 0; i < 16; i++) assert_int_equal(mem[8 + 3 * 16 + i], 0);
  assert_true(tl_inline_list_remove_at(l, 2)); /* the last one: nothing moves */
  assert_int_equal(tl_inline_list_count(l), 2);
  assert_false(tl_inline_list_remove_at(l, 2));
  {
    rec12 *z = (rec12 *)tl_inline_list_add_zeroed(l);
    assert_non_null(z);
    assert_int_equal(z->a + z->b + z->c, 0);
  }
  /* Removal during a walk: remove_at(i) and do not advance. Remove every even element. */
  tl_inline_list_clear(l);
  for (i = 0; i < cap; i++) {
    r.a = i;
    assert_true(tl_inline_list_add(l, &r));
  }
  for (i = 0; i < tl_inline_list_count(l);) {
    if (((rec12 *)tl_inline_list_at(l, i))->a % 2 == 0) tl_inline_list_remove_at(l, i);
    else i++;
  }
  assert_int_equal(tl_inline_list_count(l), 2);
  assert_int_equal(((rec12 *)tl_inline_list_at(l, 0))->a, 3);
  assert_int_equal(((rec12 *)tl_inline_list_at(l, 1))->a, 1);
  tl_inline_list_clear(l);
  for (i = 0; i < bytes; i++) assert_int_equal(mem[i], 0);
  assert_false(tl_inline_list_add(l, NULL)); /* misuse: no value */
  free(mem);
}

static void test_mem_queue_wraps_around(void **state) {
  const uint32_t cap = 3;
  size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(cap, sizeof(uint32_t));
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_queue q = tl_inline_queue_view(mem, cap, sizeof(uint32_t));
  uint32_t v, out, next_in = 0, next_out = 0;
  int round;
  (void)state;
  assert_int_equal(bytes, 8 + 3 * 8);
  assert_null(tl_inline_queue_peek(q));
  assert_false(tl_inline_queue_dequeue(q, &out));
  /* Many rounds of partial fills: the head travels around the ring. */
  for (round = 0; round < 20; round++) {
    uint32_t n = (uint32_t)(round % 3) + 1, k;
    for (k = 0; k < n; k++) {
      v = next_in;
      if (tl_inline_queue_count(q) == cap) { /* full: refused, nothing changes */
        assert_false(tl_inline_queue_enqueue(q, &v));
        n = k;
        break;
      }
      assert_true(tl_inline_queue_enqueue(q, &v));
      next_in++;
    }
    for (k = 0; k < tl_inline_queue_count(q); k++)
      assert_int_equal(*(uint32_t *)tl_inline_queue_at(q, k), next_out + k);
    assert_null(tl_inline_queue_at(q, tl_inline_queue_count(q)));
    assert_int_equal(*(uint32_t *)tl_inline_queue_peek(q), next_out);
    for (k = 0; k + (round % 2) < n; k++) {
      assert_true(tl_inline_queue_dequeue(q, &out));
      assert_int_equal(out, next_out++);
    }
    if (tl_inline_queue_count(q) == 0) assert_int_equal(mem[4], 0); /* head reset */
  }
  while (tl_inline_queue_dequeue(q, NULL)) next_out++;
  assert_int_equal(next_in, next_out);
  {
    size_t i;
    for (i = 0; i < bytes; i++) assert_int_equal(mem[i], 0); /* emptied: all zero again */
  }
  /* Fill, wrap, and check the header's head field. */
  for (v = 0; v < 3; v++) assert_true(tl_inline_queue_enqueue(q, &v));
  assert_true(tl_inline_queue_dequeue(q, &out));
  assert_true(tl_inline_queue_dequeue(q, &out));
  v = 7;
  assert_true(tl_inline_queue_enqueue(q, &v)); /* goes to slot 0 */
  assert_int_equal(mem[0], 2);
  assert_int_equal(mem[4], 2);
  assert_int_equal(*(uint32_t *)(mem + 8), 7);
  assert_int_equal(*(uint32_t *)tl_inline_queue_at(q, 1), 7);
  tl_inline_queue_clear(q);
  assert_int_equal(tl_inline_queue_count(q), 0);
  assert_false(tl_inline_queue_enqueue(q, NULL));
  free(mem);
}

static void test_mem_stack_operations(void **state) {
  const uint32_t cap = 3;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(cap, 8));
  tl_inline_stack s = tl_inline_stack_view(mem, cap, 8);
  uint64_t v, out;
  (void)state;
  assert_null(tl_inline_stack_peek(s));
  assert_false(tl_inline_stack_pop(s, &out));
  for (v = 1; v <= 3; v++) assert_true(tl_inline_stack_push(s, &v));
  assert_false(tl_inline_stack_push(s, &v));
  assert_int_equal(tl_inline_stack_count(s), 3);
  assert_int_equal(*(uint64_t *)tl_inline_stack_peek(s), 3);
  assert_int_equal(*(uint64_t *)tl_inline_stack_at(s, 0), 1);
  assert_null(tl_inline_stack_at(s, 3));
  assert_true(tl_inline_stack_pop(s, &out));
  assert_int_equal(out, 3);
  assert_true(tl_inline_stack_pop(s, NULL));
  assert_true(tl_inline_stack_pop(s, &out));
  assert_int_equal(out, 1);
  assert_false(tl_inline_stack_pop(s, &out));
  {
    size_t i;
    for (i = 0; i < TL_LAYOUT_SEQUENCE_BYTES(cap, 8); i++) assert_int_equal(mem[i], 0);
  }
  v = 5;
  assert_true(tl_inline_stack_push(s, &v));
  tl_inline_stack_clear(s);
  assert_int_equal(tl_inline_stack_count(s), 0);
  free(mem);
}

/* ============================================================================================
 * Hash sets and dictionaries
 * ========================================================================================== */

#define home_of test_home_of

/* `count` keys of `key_size` (4 or 8) bytes whose home is `home`: counting up from `from`, each
 * key's bytes the counter's little-endian bytes (so 4-byte keys are distinct on every machine).
 * Returns where the count stopped. */
static uint64_t keys_with_home_sized(uint64_t *keys, int count, uint32_t key_size, uint32_t home,
                                     uint32_t capacity, uint64_t from) {
  int n = 0;
  uint64_t k;
  for (k = from; n < count; k++) {
    uint64_t bytes;
    tl__mem_store_le64(&bytes, k);
    if (home_of(&bytes, key_size, capacity) == home) keys[n++] = bytes;
  }
  return k;
}

/* The first `count` 8-byte keys at or after `from` whose home slot is `home`. */
static void keys_with_home(uint64_t *keys, int count, uint32_t home, uint32_t capacity, uint64_t from) {
  (void)keys_with_home_sized(keys, count, 8, home, capacity, from);
}

#define check_table test_check_table

static void test_mem_hashset_operations(void **state) {
  const uint32_t cap = 8;
  size_t bytes = TL_LAYOUT_SET_BYTES(cap, 8);
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  uint64_t k;
  (void)state;
  assert_int_equal(bytes, 8 + 2 * 8 + 8 * 8);
  for (k = 100; k < 108; k++) {
    assert_false(tl_inline_hashset_contains(s, &k));
    assert_true(tl_inline_hashset_add(s, &k));
    assert_false(tl_inline_hashset_add(s, &k)); /* unchanged */
    assert_int_equal(tl_inline_hashset_add_ex(s, &k), TL_INLINE_EXISTS);
    assert_true(tl_inline_hashset_contains(s, &k));
    check_table(mem, cap, 8, 0);
  }
  /* Full: a new key is refused, present keys are still found, a miss still terminates. */
  assert_int_equal(tl_inline_hashset_count(s), cap);
  k = 5;
  assert_int_equal(tl_inline_hashset_add_ex(s, &k), TL_INLINE_FULL);
  assert_false(tl_inline_hashset_add(s, &k));
  assert_false(tl_inline_hashset_contains(s, &k));
  assert_false(tl_inline_hashset_remove(s, &k));
  k = 103;
  assert_int_equal(tl_inline_hashset_add_ex(s, &k), TL_INLINE_EXISTS);
  /* Remove and reuse: the freed slot takes the next key. */
  assert_true(tl_inline_hashset_remove(s, &k));
  assert_false(tl_inline_hashset_remove(s, &k));
  assert_false(tl_inline_hashset_contains(s, &k));
  check_table(mem, cap, 8, 0);
  k = 5;
  assert_true(tl_inline_hashset_add(s, &k));
  assert_true(tl_inline_hashset_contains(s, &k));
  check_table(mem, cap, 8, 0);
  for (k = 100; k < 108; k++) assert_int_equal(tl_inline_hashset_contains(s, &k), k != 103);
  /* Empty it completely: once the last removal is settled, the bytes are all zero again. */
  for (k = 0; k < 200; k++) (void)tl_inline_hashset_remove(s, &k);
  assert_int_equal(tl_inline_hashset_count(s), 0);
  assert_int_not_equal(tl__mem_load_le32(mem + 4), 0);
  tl_inline_hashset_settle(s);
  {
    size_t i;
    for (i = 0; i < bytes; i++) assert_int_equal(mem[i], 0);
  }
  k = 1;
  assert_true(tl_inline_hashset_add(s, &k));
  tl_inline_hashset_clear(s);
  assert_int_equal(tl_inline_hashset_count(s), 0);
  assert_false(tl_inline_hashset_contains(s, &k));
  free(mem);
}

/* The byte format of a table, pinned: the count, the control byte (1: at its home) and the
 * fragment byte (the key's XXH32 & 0xFF), each array padded to 8, then the key, zero padding, the
 * value. */
static void test_mem_dict_slot_bytes(void **state) {
  const uint32_t cap = 1;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(cap, 3, 4));
  tl_inline_dict d = tl_inline_dict_view(mem, cap, 3, 4);
  const unsigned char key[3] = {'a', 'b', 'c'};
  const unsigned char value[4] = {0x44, 0x33, 0x22, 0x11};
  uint32_t h = tl_hash32(key, 3, 0);
  const unsigned char expected[8 + 16 + 16] = {
    1, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 0,
    (unsigned char)h, 0, 0, 0, 0, 0, 0, 0,
    'a', 'b', 'c', 0, 0, 0, 0, 0,
    0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0,
  };
  (void)state;
  assert_int_equal(TL_LAYOUT_DICT_BYTES(cap, 3, 4), sizeof expected);
  assert_true(tl_inline_dict_try_add(d, key, value));
  assert_memory_equal(mem, expected, sizeof expected);
  assert_int_equal(tl_inline_dict_try_add_ex(d, key, value), TL_INLINE_EXISTS);
  assert_int_equal(tl_inline_dict_try_add_ex(d, "xyz", value), TL_INLINE_FULL);
  /* The result table's messages (docs/errors.md): the rows in their order, "ok" for 0. */
  assert_string_equal(tl_inline_result_message(TL_INLINE_FULL),
                      "the collection is full (count == capacity)");
  assert_string_equal(tl_inline_result_message(TL_INLINE_OK), "ok");
  assert_string_equal(tl_inline_result_message(TL_INLINE_RESULT_END_), "unknown result");
  assert_int_equal(TL_INLINE_INVALID, 3);
  free(mem);
}

static void test_mem_dict_operations(void **state) {
  const uint32_t cap = 16;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(cap, 4, 12));
  tl_inline_dict d = tl_inline_dict_view(mem, cap, 4, 12);
  uint32_t key;
  rec12 v, out;
  bool added = false;
  (void)state;
  for (key = 0; key < 12; key++) {
    v.a = key * 10;
    v.b = key;
    v.c = 7;
    assert_true(tl_inline_dict_try_add(d, &key, &v));
    v.a = 1;
    assert_false(tl_inline_dict_try_add(d, &key, &v)); /* present: value untouched */
  }
  check_table(mem, cap, 4, 12);
  for (key = 0; key < 12; key++) {
    rec12 *p = (rec12 *)tl_inline_dict_get(d, &key);
    assert_true(tl_inline_dict_contains_key(d, &key));
    assert_non_null(p);
    assert_int_equal(p->a, key * 10);
    assert_true(tl_inline_dict_try_get(d, &key, &out));
    assert_int_equal(out.b, key);
    p->c = 8; /* by pointer */
  }
  key = 3;
  assert_true(tl_inline_dict_try_get(d, &key, &out));
  assert_int_equal(out.c, 8);
  assert_true(tl_inline_dict_try_get(d, &key, NULL));
  key = 50;
  assert_false(tl_inline_dict_contains_key(d, &key));
  assert_null(tl_inline_dict_get(d, &key));
  assert_false(tl_inline_dict_try_get(d, &key, &out));
  /* get_or_add: a new key gets a zeroed value; an old key its own. */
  {
    rec12 *p = (rec12 *)tl_inline_dict_get_or_add(d, &key, &added);
    assert_non_null(p);
    assert_true(added);
    assert_int_equal(p->a + p->b + p->c, 0);
    p->a = 500;
    p = (rec12 *)tl_inline_dict_get_or_add(d, &key, &added);
    assert_false(added);
    assert_int_equal(p->a, 500);
  }
  /* set: replaces, or adds. */
  v.a = 42;
  assert_true(tl_inline_dict_set(d, &key, &v));
  assert_int_equal(((rec12 *)tl_inline_dict_get(d, &key))->a, 42);
  key = 51;
  assert_true(tl_inline_dict_set(d, &key, NULL));
  assert_int_equal(((rec12 *)tl_inline_dict_get(d, &key))->a, 0);
  assert_int_equal(tl_inline_dict_count(d), 14);
  check_table(mem, cap, 4, 12);
  /* Fill to capacity, then every add is refused, but set/get_or_add of present keys work. */
  for (key = 100; tl_inline_dict_count(d) < cap; key++) assert_true(tl_inline_dict_try_add(d, &key, &v));
  assert_int_equal(tl_inline_dict_try_add_ex(d, &key, &v), TL_INLINE_FULL);
  assert_false(tl_inline_dict_set(d, &key, &v));
  assert_null(tl_inline_dict_get_or_add(d, &key, &added));
  assert_false(added);
  key = 3;
  assert_true(tl_inline_dict_set(d, &key, &v));
  assert_non_null(tl_inline_dict_get_or_add(d, &key, &added));
  check_table(mem, cap, 4, 12);
  /* Remove everything. */
  for (key = 0; key < 200; key++) {
    bool present = tl_inline_dict_contains_key(d, &key);
    assert_int_equal(tl_inline_dict_remove(d, &key), present);
    assert_false(tl_inline_dict_contains_key(d, &key));
  }
  assert_int_equal(tl_inline_dict_count(d), 0);
  check_table(mem, cap, 4, 12);
  free(mem);
}

/* Keys whose home is the last slot run over the end of the table into slot 0 and on. */
static void test_mem_hashset_wraps_around(void **state) {
  const uint32_t cap = 16;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(cap, 8));
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  uint64_t last[4], first[2];
  int i;
  (void)state;
  keys_with_home(last, 4, cap - 1, cap, 0);
  keys_with_home(first, 2, 0, cap, 0);
  for (i = 0; i < 2; i++) assert_true(tl_inline_hashset_add(s, &first[i]));
  for (i = 0; i < 4; i++) assert_true(tl_inline_hashset_add(s, &last[i]));
  check_table(mem, cap, 8, 0);
  /* Robin Hood order: the wrapped entries (farther from home) come before slot 0's own keys. */
  assert_memory_equal(mem + 40 + 15 * 8, &last[0], 8);
  assert_memory_equal(mem + 40 + 0 * 8, &last[1], 8);
  assert_memory_equal(mem + 40 + 2 * 8, &last[3], 8);
  assert_memory_equal(mem + 40 + 3 * 8, &first[0], 8);
  assert_memory_equal(mem + 40 + 4 * 8, &first[1], 8);
  for (i = 0; i < 4; i++) assert_true(tl_inline_hashset_contains(s, &last[i]));
  /* Removing the entry in the last slot, once settled, pulls the wrapped run back across the end. */
  assert_true(tl_inline_hashset_remove(s, &last[0]));
  check_table(mem, cap, 8, 0);
  tl_inline_hashset_settle(s);
  check_table(mem, cap, 8, 0);
  assert_memory_equal(mem + 40 + 15 * 8, &last[1], 8);
  assert_memory_equal(mem + 40 + 2 * 8, &first[0], 8);
  for (i = 1; i < 4; i++) assert_true(tl_inline_hashset_contains(s, &last[i]));
  for (i = 0; i < 2; i++) assert_true(tl_inline_hashset_contains(s, &first[i]));
  /* Adding it back shifts the run forward across the end again. */
  assert_true(tl_inline_hashset_add(s, &last[0]));
  check_table(mem, cap, 8, 0);
  free(mem);
}

/* After any removal, once settled, the bytes equal those of a table that never held the key: no
 * marker, and churn with new keys leaves no trace. */
static void test_mem_hashset_removal_leaves_no_trace(void **state) {
  const uint32_t cap = 64;
  size_t bytes = TL_LAYOUT_SET_BYTES(cap, 8);
  unsigned char *a = (unsigned char *)scratch(bytes), *b = (unsigned char *)scratch(bytes);
  tl_inline_hashset sa = tl_inline_hashset_view(a, cap, 8), sb = tl_inline_hashset_view(b, cap, 8);
  uint64_t keys[56];
  int i, turn;
  (void)state;
  for (i = 0; i < 56; i++) keys[i] = rng_next();
  /* a: 56 keys, then 8 turnovers of churn with new keys; b: only the survivors, in order. */
  for (i = 0; i < 56; i++) assert_true(tl_inline_hashset_add(sa, &keys[i]));
  for (turn = 0; turn < 8 * 56; turn++) {
    int victim = (int)(rng_next() % 56);
    assert_true(tl_inline_hashset_remove(sa, &keys[victim]));
    memmove(&keys[victim], &keys[victim + 1], (size_t)(55 - victim) * sizeof keys[0]);
    keys[55] = rng_next();
    assert_true(tl_inline_hashset_add(sa, &keys[55]));
  }
  for (i = 0; i < 56; i++) assert_true(tl_inline_hashset_add(sb, &keys[i]));
  check_table(a, cap, 8, 0);
  tl_inline_hashset_settle(sa);
  check_table(a, cap, 8, 0);
  assert_memory_equal(a, b, bytes);
  free(a);
  free(b);
}

/* Iteration visits each element exactly once, with or without removal of the current one,
 * including tables whose runs wrap around the end and completely full tables. */
static void check_walk(uint32_t cap, uint32_t count, int remove_mode, uint64_t seed) {
  size_t bytes = TL_LAYOUT_DICT_BYTES(cap, 8, 8);
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_dict d = tl_inline_dict_view(mem, cap, 8, 8);
  uint64_t *keys = (uint64_t *)calloc(count, sizeof(uint64_t));
  unsigned char *seen = (unsigned char *)calloc(count, 1);
  tl_inline_iter it;
  const void *kp;
  void *vp;
  uint32_t i, visited = 0, removed = 0;
  uint64_t salt = seed;
  assert_non_null(keys);
  assert_non_null(seen);
  /* Half the keys crowd into the last slots so that runs wrap. */
  for (i = 0; i < count; i++) {
    uint64_t k = seed * 1000003u + i, index = i;
    if (i % 2) keys_with_home(&k, 1, cap - 1 - (i % 3) % cap, cap, k);
    keys[i] = k;
    if (!tl_inline_dict_try_add(d, &keys[i], &index)) { /* a duplicate from keys_with_home */
      keys[i] = UINT64_MAX - i;
      assert_true(tl_inline_dict_try_add(d, &keys[i], &index));
    }
  }
  assert_int_equal(tl_inline_dict_count(d), count);
  it = tl_inline_dict_iter(d);
  while (tl_inline_dict_next(d, &it, &kp, &vp)) {
    uint32_t index = (uint32_t)*(const uint64_t *)vp;
    uint64_t k;
    memcpy(&k, kp, 8);
    assert_true(index < count);
    assert_int_equal(keys[index], k);
    assert_int_equal(seen[index], 0);
    seen[index] = 1;
    visited++;
    salt = salt * 6364136223846793005ull + 1442695040888963407ull;
    if (remove_mode == 1 || (remove_mode == 2 && (salt >> 60) % 2 == 0)) {
      assert_true(tl_inline_dict_iter_remove(d, &it));
      assert_false(tl_inline_dict_iter_remove(d, &it)); /* only once per element */
      assert_false(tl_inline_dict_contains_key(d, &k));
      removed++;
      check_table(mem, cap, 8, 8);
    }
  }
  assert_int_equal(visited, count);
  assert_int_equal(tl_inline_dict_count(d), count - removed);
  assert_false(tl_inline_dict_next(d, &it, &kp, &vp)); /* stays finished */
  assert_false(tl_inline_dict_iter_remove(d, &it));
  for (i = 0; i < count; i++) assert_int_equal(seen[i], 1);
  free(keys);
  free(seen);
  free(mem);
}

static void test_mem_dict_iteration_with_removal(void **state) {
  static const uint32_t caps[] = {1, 2, 3, 5, 8, 16, 33, 100};
  size_t c;
  uint64_t seed;
  (void)state;
  for (c = 0; c < sizeof caps / sizeof caps[0]; c++) {
    uint32_t cap = caps[c], count;
    for (count = 0; count <= cap; count++) {
      for (seed = 1; seed <= 6; seed++) {
        check_walk(cap, count, 0, seed);
        check_walk(cap, count, 1, seed);
        check_walk(cap, count, 2, seed);
      }
    }
  }
}

static void test_mem_hashset_iteration(void **state) {
  const uint32_t cap = 32;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(cap, 4));
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 4);
  tl_inline_iter it;
  const void *e;
  uint32_t k, sum = 0, n = 0;
  (void)state;
  it = tl_inline_hashset_iter(s);
  assert_false(tl_inline_hashset_next(s, &it, &e)); /* empty */
  for (k = 1; k <= 20; k++) assert_true(tl_inline_hashset_add(s, &k));
  it = tl_inline_hashset_iter(s);
  while (tl_inline_hashset_next(s, &it, &e)) {
    uint32_t v;
    memcpy(&v, e, 4);
    sum += v;
    n++;
    if (v % 3 == 0) assert_true(tl_inline_hashset_iter_remove(s, &it));
  }
  assert_int_equal(n, 20);
  assert_int_equal(sum, 210);
  assert_int_equal(tl_inline_hashset_count(s), 14);
  for (k = 1; k <= 20; k++) assert_int_equal(tl_inline_hashset_contains(s, &k), k % 3 != 0);
  check_table(mem, cap, 4, 0);
  free(mem);
}

/* Odd key sizes (1, 3, 12, 17 bytes) and value size 0 take the generic hash and compare. */
static void test_mem_dict_odd_sizes(void **state) {
  static const uint32_t key_sizes[] = {1, 2, 3, 5, 12, 17, 64};
  size_t ks;
  (void)state;
  for (ks = 0; ks < sizeof key_sizes / sizeof key_sizes[0]; ks++) {
    uint32_t ksize = key_sizes[ks], cap = 40, i;
    unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(cap, ksize, 0));
    tl_inline_dict d = tl_inline_dict_view(mem, cap, ksize, 0);
    unsigned char key[64];
    uint32_t distinct = ksize == 1 ? 30 : 36;
    assert_true(tl_inline_dict_valid(d));
    for (i = 0; i < distinct; i++) {
      memset(key, (int)i, sizeof key);
      assert_true(tl_inline_dict_try_add(d, key, NULL));
      assert_false(tl_inline_dict_try_add(d, key, NULL));
      assert_true(tl_inline_dict_try_get(d, key, NULL));
    }
    check_table(mem, cap, ksize, 0);
    for (i = 0; i < distinct; i += 2) {
      memset(key, (int)i, sizeof key);
      assert_true(tl_inline_dict_remove(d, key));
    }
    check_table(mem, cap, ksize, 0);
    for (i = 0; i < distinct; i++) {
      memset(key, (int)i, sizeof key);
      assert_int_equal(tl_inline_dict_contains_key(d, key), i % 2 == 1);
    }
    free(mem);
  }
}

/* ============================================================================================
 * Typed wrappers
 * ========================================================================================== */

typedef struct vec3 {
  int32_t x, y, z, pad; /* explicit padding, zeroed */
} vec3;

TL_INLINE_ARRAY_TYPE(vec3_array, vec3)
TL_INLINE_LIST_TYPE(vec3_list, vec3)
TL_INLINE_QUEUE_TYPE(u16_queue, uint16_t)
TL_INLINE_STACK_TYPE(i64_stack, int64_t)
TL_INLINE_HASHSET_TYPE(u32_set, uint32_t)
TL_INLINE_DICT_TYPE(i64_dict, int64_t, int64_t)
TL_INLINE_DICT_TYPE(u32_vec3_dict, uint32_t, vec3)

/* Every typed view has a read-only one over const memory that reads what the writable one
 * wrote: same counts, elements, lookups and walk, through const pointers. */
static void test_mem_typed_const_views(void **state) {
  unsigned char *arr = (unsigned char *)scratch(TL_LAYOUT_ARRAY_BYTES(4, sizeof(vec3)));
  unsigned char *lst = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(4, sizeof(vec3)));
  unsigned char *que = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(3, sizeof(uint16_t)));
  unsigned char *stk = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(2, sizeof(int64_t)));
  unsigned char *set = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(8, sizeof(uint32_t)));
  unsigned char *dic = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(8, 8, 8));
  vec3 v = {1, 2, 3, 0};
  const void *const_arr = arr, *const_set = set;
  vec3_array_const ca;
  vec3_list_const cl;
  u16_queue_const cq;
  i64_stack_const cs;
  u32_set_const chs;
  i64_dict_const cd;
  tl_inline_iter it;
  const int64_t *found;
  int64_t key, value, sum = 0;
  uint32_t element, total = 0;
  (void)state;
  *vec3_array_at(vec3_array_view(arr, 4), 2) = v;
  ca = vec3_array_const_view(const_arr, 4);
  assert_true(vec3_array_const_valid(ca));
  assert_int_equal(vec3_array_const_length(ca), 4);
  assert_int_equal(vec3_array_const_capacity(ca), 4);
  assert_int_equal(vec3_array_const_at(ca, 2)->z, 3);
  assert_null(vec3_array_const_at(ca, 4));
  assert_false(vec3_array_const_valid(vec3_array_const_view(NULL, 4)));

  assert_true(vec3_list_add(vec3_list_view(lst, 4), v));
  cl = vec3_list_as_const(vec3_list_view(lst, 4));
  assert_int_equal(vec3_list_const_count(cl), 1);
  assert_int_equal(vec3_list_const_at(cl, 0)->y, 2);
  assert_null(vec3_list_const_at(cl, 1));

  assert_true(u16_queue_enqueue(u16_queue_view(que, 3), 7));
  assert_true(u16_queue_enqueue(u16_queue_view(que, 3), 8));
  cq = u16_queue_as_const(u16_queue_view(que, 3));
  assert_int_equal(u16_queue_const_count(cq), 2);
  assert_int_equal(*u16_queue_const_peek(cq), 7);
  assert_int_equal(*u16_queue_const_at(cq, 1), 8);

  assert_true(i64_stack_push(i64_stack_view(stk, 2), -4));
  cs = i64_stack_as_const(i64_stack_view(stk, 2));
  assert_int_equal(i64_stack_const_count(cs), 1);
  assert_int_equal(*i64_stack_const_peek(cs), -4);
  assert_int_equal(*i64_stack_const_at(cs, 0), -4);

  assert_true(u32_set_add(u32_set_view(set, 8), 10));
  assert_true(u32_set_add(u32_set_view(set, 8), 11));
  chs = u32_set_const_view(const_set, 8);
  assert_int_equal(u32_set_const_count(chs), 2);
  assert_true(u32_set_const_contains(chs, 11));
  assert_false(u32_set_const_contains(chs, 12));
  it = u32_set_const_iter(chs);
  while (u32_set_const_next(chs, &it, &element)) total += element;
  assert_int_equal(total, 21);

  for (key = 1; key <= 5; key++) assert_true(i64_dict_try_add(i64_dict_view(dic, 8), key, key * 10));
  assert_true(i64_dict_remove(i64_dict_view(dic, 8), 3)); /* pending: no walk or lookup sees it */
  cd = i64_dict_as_const(i64_dict_view(dic, 8));
  assert_int_equal(i64_dict_const_count(cd), 4);
  found = i64_dict_const_get(cd, 4);
  assert_non_null(found);
  assert_int_equal(*found, 40);
  assert_null(i64_dict_const_get(cd, 3));
  assert_true(i64_dict_const_contains_key(cd, 5));
  assert_true(i64_dict_const_try_get(cd, 2, &value));
  assert_int_equal(value, 20);
  assert_false(i64_dict_const_try_get(cd, 3, &value));
  it = i64_dict_const_iter(cd);
  while (i64_dict_const_next(cd, &it, &key, &found)) sum += key + *found;
  assert_int_equal(sum, (1 + 2 + 4 + 5) * 11);
  free(arr);
  free(lst);
  free(que);
  free(stk);
  free(set);
  free(dic);
}

/* The typed wrappers of the sequences: array, list, queue and stack. */
static void test_mem_typed_sequences(void **state) {
  unsigned char *arr = (unsigned char *)scratch(TL_LAYOUT_ARRAY_BYTES(4, sizeof(vec3)));
  unsigned char *lst = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(4, sizeof(vec3)));
  unsigned char *que = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(2, sizeof(uint16_t)));
  unsigned char *stk = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(2, sizeof(int64_t)));
  vec3_array a = vec3_array_view(arr, 4);
  vec3_list l = vec3_list_view(lst, 4);
  u16_queue q = u16_queue_view(que, 2);
  i64_stack s = i64_stack_view(stk, 2);
  vec3 v = {1, 2, 3, 0};
  uint16_t q_out;
  int64_t s_out;
  (void)state;

  assert_true(vec3_array_valid(a));
  assert_int_equal(vec3_array_length(a), 4);
  vec3_array_at(a, 3)->y = 9;
  assert_null(vec3_array_at(a, 4));
  vec3_array_clear(a);
  assert_int_equal(vec3_array_at(a, 3)->y, 0);

  assert_true(vec3_list_add(l, v));
  assert_int_equal(vec3_list_at(l, 0)->z, 3);
  assert_non_null(vec3_list_add_zeroed(l));
  assert_int_equal(vec3_list_count(l), 2);
  assert_true(vec3_list_remove_at(l, 0));
  assert_int_equal(vec3_list_at(l, 0)->z, 0);
  vec3_list_clear(l);
  assert_int_equal(vec3_list_count(l), 0);

  assert_true(u16_queue_enqueue(q, 5));
  assert_true(u16_queue_enqueue(q, 6));
  assert_false(u16_queue_enqueue(q, 7));
  assert_int_equal(*u16_queue_peek(q), 5);
  assert_int_equal(*u16_queue_at(q, 1), 6);
  assert_true(u16_queue_dequeue(q, &q_out));
  assert_int_equal(q_out, 5);
  assert_int_equal(u16_queue_count(q), 1);
  u16_queue_clear(q);

  assert_true(i64_stack_push(s, -1));
  assert_true(i64_stack_push(s, -2));
  assert_false(i64_stack_push(s, -3));
  assert_int_equal(*i64_stack_peek(s), -2);
  assert_int_equal(*i64_stack_at(s, 0), -1);
  assert_true(i64_stack_pop(s, &s_out));
  assert_int_equal(s_out, -2);
  assert_int_equal(i64_stack_count(s), 1);
  i64_stack_clear(s);
  free(arr);
  free(lst);
  free(que);
  free(stk);
}

/* The typed wrappers of the hash set, iteration and removal during it included. */
static void test_mem_typed_set(void **state) {
  unsigned char *set = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(8, sizeof(uint32_t)));
  u32_set hs = u32_set_view(set, 8);
  tl_inline_iter it;
  (void)state;

  assert_true(u32_set_add(hs, 10));
  assert_int_equal(u32_set_add_ex(hs, 10), TL_INLINE_EXISTS);
  assert_true(u32_set_contains(hs, 10));
  assert_true(u32_set_add(hs, 11));
  {
    uint32_t e, total = 0;
    it = u32_set_iter(hs);
    while (u32_set_next(hs, &it, &e)) {
      total += e;
      if (e == 10) assert_true(u32_set_iter_remove(hs, &it));
    }
    assert_int_equal(total, 21);
  }
  assert_int_equal(u32_set_count(hs), 1);
  assert_true(u32_set_remove(hs, 11));
  assert_false(u32_set_remove(hs, 11));
  u32_set_clear(hs);
  free(set);
}

/* The typed wrappers of the dictionary: the generic one's bytes, lookups, iteration. */
static void test_mem_typed_dict(void **state) {
  unsigned char *dic = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(8, 8, 8));
  unsigned char *gen = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(8, 8, 8));
  unsigned char *vd = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(4, 4, sizeof(vec3)));
  i64_dict d = i64_dict_view(dic, 8);
  tl_inline_dict g = tl_inline_dict_view(gen, 8, 8, 8);
  u32_vec3_dict vdict = u32_vec3_dict_view(vd, 4);
  vec3 v = {1, 2, 3, 0};
  int64_t key, value;
  tl_inline_iter it;
  int64_t sum = 0;
  (void)state;

  /* The typed dictionary writes exactly the bytes of the generic one. */
  for (key = -20; key < -12; key++) {
    value = key * key;
    assert_true(i64_dict_try_add(d, key, value));
    assert_true(tl_inline_dict_try_add(g, &key, &value));
  }
  assert_memory_equal(dic, gen, TL_LAYOUT_DICT_BYTES(8, 8, 8));
  assert_int_equal(i64_dict_try_add_ex(d, 99, 1), TL_INLINE_FULL);
  assert_int_equal(i64_dict_try_add_ex(d, -20, 1), TL_INLINE_EXISTS);
  assert_true(i64_dict_contains_key(d, -15));
  assert_int_equal(*i64_dict_get(d, -15), 225);
  assert_true(i64_dict_try_get(d, -16, &value));
  assert_int_equal(value, 256);
  assert_true(i64_dict_set(d, -16, 1));
  assert_int_equal(*i64_dict_get(d, -16), 1);
  assert_true(i64_dict_remove(d, -16));
  assert_false(i64_dict_remove(d, -16));
  {
    bool added;
    int64_t *p = i64_dict_get_or_add(d, 7, &added);
    assert_true(added);
    assert_int_equal(*p, 0);
    *p = 70;
  }
  it = i64_dict_iter(d);
  {
    int64_t *vp;
    while (i64_dict_next(d, &it, &key, &vp)) {
      sum += key;
      if (key == 7) assert_int_equal(*vp, 70);
      if (key < -17) assert_true(i64_dict_iter_remove(d, &it));
    }
  }
  assert_int_equal(sum, (-20 - 19 - 18 - 17 - 15 - 14 - 13) + 7);
  assert_int_equal(i64_dict_count(d), 5);
  i64_dict_clear(d);
  assert_int_equal(i64_dict_count(d), 0);

  assert_true(u32_vec3_dict_try_add(vdict, 1, v));
  assert_int_equal(u32_vec3_dict_get(vdict, 1)->y, 2);
  assert_int_equal(u32_vec3_dict_capacity(vdict), 4);
  free(dic);
  free(gen);
  free(vd);
}

/* Invalid typed views fail harmlessly. */
static void test_mem_typed_invalid_views(void **state) {
  unsigned char *lst = (unsigned char *)scratch(TL_LAYOUT_SEQUENCE_BYTES(4, sizeof(vec3)));
  vec3 v = {1, 2, 3, 0};
  int64_t key;
  tl_inline_iter it;
  i64_dict bad = i64_dict_view(NULL, 8);
  (void)state;

  assert_false(i64_dict_valid(bad));
  assert_false(i64_dict_try_add(bad, 1, 1));
  assert_null(i64_dict_get(bad, 1));
  assert_false(i64_dict_remove(bad, 1));
  it = i64_dict_iter(bad);
  assert_false(i64_dict_next(bad, &it, &key, NULL));
  i64_dict_clear(bad);
  assert_false(vec3_list_add(vec3_list_view(lst + 4, 4), v)); /* misaligned */
  free(lst);
}

/* ============================================================================================
 * Misuse
 * ========================================================================================== */

static void test_mem_invalid_views_fail(void **state) {
  unsigned char *mem = (unsigned char *)scratch(64);
  uint64_t k = 1;
  tl_inline_iter it;
  (void)state;
  /* NULL, misaligned, zero or excessive capacity, zero or excessive sizes. */
  assert_false(tl_inline_array_valid(tl_inline_array_view(NULL, 4, 4)));
  assert_false(tl_inline_array_valid(tl_inline_array_view(mem + 1, 4, 4)));
  assert_false(tl_inline_array_valid(tl_inline_array_view(mem, 0, 4)));
  assert_false(tl_inline_array_valid(tl_inline_array_view(mem, 4, 0)));
  assert_false(tl_inline_list_valid(tl_inline_list_view(mem, TL_INLINE_MAX_CAPACITY + 1u, 4)));
  assert_false(tl_inline_list_valid(tl_inline_list_view(mem, 4, TL_INLINE_MAX_ELEMENT_SIZE + 1u)));
  assert_false(tl_inline_queue_valid(tl_inline_queue_view(mem + 4, 4, 4)));
  assert_false(tl_inline_stack_valid(tl_inline_stack_view(mem, 0, 4)));
  assert_false(tl_inline_hashset_valid(tl_inline_hashset_view(mem, 4, 0)));
  assert_false(tl_inline_dict_valid(tl_inline_dict_view(mem, 4, 0, 4)));
  assert_false(tl_inline_dict_valid(tl_inline_dict_view(mem, 4, 8, TL_INLINE_MAX_ELEMENT_SIZE + 1u)));
  assert_true(tl_inline_dict_valid(tl_inline_dict_view(mem, 2, 8, 0)));
  {
    tl_inline_array a = tl_inline_array_view(NULL, 4, 4);
    tl_inline_list l = tl_inline_list_view(NULL, 4, 8);
    tl_inline_queue q = tl_inline_queue_view(NULL, 4, 8);
    tl_inline_stack s = tl_inline_stack_view(NULL, 4, 8);
    tl_inline_hashset hs = tl_inline_hashset_view(NULL, 4, 8);
    tl_inline_dict d = tl_inline_dict_view(NULL, 4, 8, 8);
    bool added = true;
    assert_int_equal(tl_inline_array_length(a), 0);
    assert_null(tl_inline_array_at(a, 0));
    assert_false(tl_inline_array_set(a, 0, &k));
    tl_inline_array_clear(a);
    assert_false(tl_inline_list_add(l, &k));
    assert_null(tl_inline_list_add_zeroed(l));
    assert_null(tl_inline_list_at(l, 0));
    assert_false(tl_inline_list_remove_at(l, 0));
    assert_int_equal(tl_inline_list_count(l), 0);
    assert_int_equal(tl_inline_list_capacity(l), 0);
    tl_inline_list_clear(l);
    assert_false(tl_inline_queue_enqueue(q, &k));
    assert_false(tl_inline_queue_dequeue(q, &k));
    assert_null(tl_inline_queue_peek(q));
    assert_int_equal(tl_inline_queue_count(q), 0);
    tl_inline_queue_clear(q);
    assert_false(tl_inline_stack_push(s, &k));
    assert_false(tl_inline_stack_pop(s, &k));
    assert_null(tl_inline_stack_peek(s));
    tl_inline_stack_clear(s);
    assert_int_equal(tl_inline_hashset_add_ex(hs, &k), TL_INLINE_INVALID);
    assert_false(tl_inline_hashset_contains(hs, &k));
    assert_false(tl_inline_hashset_remove(hs, &k));
    it = tl_inline_hashset_iter(hs);
    assert_false(tl_inline_hashset_next(hs, &it, NULL));
    assert_false(tl_inline_hashset_iter_remove(hs, &it));
    tl_inline_hashset_clear(hs);
    assert_int_equal(tl_inline_dict_try_add_ex(d, &k, &k), TL_INLINE_INVALID);
    assert_false(tl_inline_dict_set(d, &k, &k));
    assert_null(tl_inline_dict_get_or_add(d, &k, &added));
    assert_false(added);
    assert_null(tl_inline_dict_get(d, &k));
    assert_false(tl_inline_dict_remove(d, &k));
    assert_int_equal(tl_inline_dict_count(d), 0);
    tl_inline_dict_clear(d);
  }
  /* A valid view with NULL keys or values. */
  {
    tl_inline_dict d = tl_inline_dict_view(mem, 2, 8, 8);
    tl_inline_hashset hs = tl_inline_hashset_view(mem, 2, 8);
    assert_int_equal(tl_inline_dict_try_add_ex(d, NULL, &k), TL_INLINE_INVALID);
    assert_false(tl_inline_dict_contains_key(d, NULL));
    assert_false(tl_inline_dict_remove(d, NULL));
    assert_false(tl_inline_hashset_add(hs, NULL));
    assert_false(tl_inline_hashset_contains(hs, NULL));
    it = tl_inline_dict_iter(d); /* iter_remove before next */
    assert_false(tl_inline_dict_iter_remove(d, &it));
    assert_false(tl_inline_dict_iter_remove(d, NULL));
    assert_false(tl_inline_dict_next(d, NULL, NULL, NULL));
  }
  free(mem);
}

/* Lookups read the control and fragment bytes of a group of slots at once (sixteen with SSE2,
 * eight in a word: this file is built both ways) and compare keys only where both match; in
 * tables over 128 KiB of slots they also prefetch the home slot. A probe goes on a group at a
 * time, and slot by slot where a group would read past the array. Every route must give the
 * same answers: runs of 1 to 19 keys with one home (inside either group size, at its edge and
 * beyond), near the start, the middle and the end of the table; an absent key whose probe
 * crosses the run; the zero key (whose bytes equal an empty slot's); and slots whose key bytes
 * match but whose control or fragment byte does not. */
static void test_mem_table_lookup_routes(void **state) {
  static const uint32_t key_sizes[] = {4, 8};
  /* 32 slots: a table in cache; 2^19 slots (4 MiB of slots): the large-table route. */
  static const uint32_t capacities[] = {32, 1u << 19};
  size_t ks, c, h;
  (void)state;
  for (ks = 0; ks < 2; ks++) {
    for (c = 0; c < 2; c++) {
      const uint32_t key_size = key_sizes[ks], cap = capacities[c];
      const size_t stride = TL_LAYOUT_SET_SLOT_BYTES(key_size);
      const uint32_t homes[] = {0,       1,       13,      cap / 2, cap - 17, cap - 16,
                                cap - 15, cap - 9, cap - 8, cap - 7, cap - 2,  cap - 1};
      unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(cap, key_size));
      unsigned char *control = mem + 8, *fragments = control + TL_LAYOUT_ALIGN(cap);
      assert_true((cap * stride > TL__TABLE_LARGE_BYTES) == (c == 1));
      for (h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        const uint32_t home = homes[h];
        tl_inline_hashset s = tl_inline_hashset_view(mem, cap, key_size);
        uint64_t keys[20], absent, zero = 0;
        uint32_t run, i, index;
        keys_with_home_sized(&absent, 1, key_size, home == 0 ? cap - 1 : home - 1, cap,
                             keys_with_home_sized(keys, 20, key_size, home, cap, 1));
        for (run = 1; run <= 19; run++) {
          const uint32_t last = (home + run - 1) % cap;
          assert_true(tl_inline_hashset_add(s, &keys[run - 1]));
          for (i = 0; i < run; i++) {
            unsigned char *slot = tl__table_find(mem, cap, key_size, 0, &keys[i], &index);
            assert_non_null(slot);
            assert_int_equal(index, (home + i) % cap); /* equal homes in insertion order */
            assert_ptr_equal(slot, mem + TL_LAYOUT_TABLE_SLOTS_OFFSET(cap) + index * stride);
          }
          assert_false(tl_inline_hashset_contains(s, &keys[run])); /* same home, never added */
          assert_false(tl_inline_hashset_contains(s, &absent));
          assert_null(tl__table_find(mem, cap, key_size, 0, &keys[run], &index));
          assert_int_equal(index, TL_INLINE_NONE);
          /* The zero key: absent although empty slots carry zero key bytes, then present. */
          assert_false(tl_inline_hashset_contains(s, &zero));
          assert_true(tl_inline_hashset_add(s, &zero));
          assert_true(tl_inline_hashset_contains(s, &zero));
          assert_true(tl_inline_hashset_remove(s, &zero));
          assert_false(tl_inline_hashset_contains(s, &zero));
          /* Key bytes in place, but a fragment or a distance that does not fit: not a match. */
          fragments[last] ^= 0x5A;
          assert_false(tl_inline_hashset_contains(s, &keys[run - 1]));
          fragments[last] ^= 0x5A;
          control[last]++;
          assert_false(tl_inline_hashset_contains(s, &keys[run - 1]));
          control[last]--;
          assert_true(tl_inline_hashset_contains(s, &keys[run - 1]));
        }
        check_table(mem, cap, key_size, 0);
        tl_inline_hashset_clear(s);
      }
      free(mem);
    }
  }
}

/* The lowest-set-bit index that compilers without a builtin (MSVC) use: every single bit, and
 * random masks, against the builtin. */
static void test_mem_table_ctz_portable(void **state) {
  uint64_t rng = 0x0123456789ABCDEFull;
  uint32_t bit;
  int i;
  (void)state;
  for (bit = 0; bit < 64; bit++) {
    assert_int_equal(tl__table_ctz_portable((uint64_t)1 << bit), bit);
    assert_int_equal(tl__table_ctz_portable(~(uint64_t)0 << bit), bit);
  }
  for (i = 0; i < 100000; i++) {
    const uint64_t mask = test_splitmix64(&rng) >> (i % 64);
    if (mask) assert_int_equal(tl__table_ctz_portable(mask), __builtin_ctzll(mask));
  }
}

/* More than 254 keys with one home: the control bytes of the farthest saturate at 255, and their
 * exact distances come from their hashes. Every key is found while present, the invariants hold
 * after each removal (in a shuffled order, so entries move back across the saturation point),
 * and the emptied table is all zeros. */
static void test_mem_table_saturated_distances(void **state) {
  const uint32_t cap = 512, n = 300;
  const size_t bytes = TL_LAYOUT_SET_BYTES(cap, 8);
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  uint64_t keys[300], other[40];
  uint32_t i, saturated = 0;
  (void)state;
  keys_with_home_sized(other, 40, 8, 100, cap, keys_with_home_sized(keys, n, 8, 400, cap, 1));
  for (i = 0; i < n; i++) assert_true(tl_inline_hashset_add(s, &keys[i]));
  for (i = 0; i < 40; i++) assert_true(tl_inline_hashset_add(s, &other[i])); /* homes inside the run */
  check_table(mem, cap, 8, 0);
  for (i = 0; i < cap; i++) saturated += mem[8 + i] == 255;
  assert_int_equal(saturated, n - 254);
  for (i = 0; i < n; i++) assert_true(tl_inline_hashset_contains(s, &keys[i]));
  for (i = n; i > 1; i--) { /* shuffle */
    uint32_t j = (uint32_t)(rng_next() % i);
    uint64_t t = keys[i - 1];
    keys[i - 1] = keys[j];
    keys[j] = t;
  }
  for (i = 0; i < n; i++) {
    uint32_t j;
    assert_true(tl_inline_hashset_remove(s, &keys[i]));
    if (i % 16 == 0 || i > n - 50) check_table(mem, cap, 8, 0);
    for (j = i + 1; j < n; j += 7) assert_true(tl_inline_hashset_contains(s, &keys[j]));
    assert_false(tl_inline_hashset_contains(s, &keys[i]));
  }
  for (i = 0; i < 40; i++) assert_true(tl_inline_hashset_remove(s, &other[i]));
  tl_inline_hashset_settle(s);
  for (i = 0; i < bytes; i++) assert_int_equal(mem[i], 0);
  free(mem);
}

/* Both lookup routes over random keys at load 0.8, then after every third key is removed: each
 * key added is found exactly while present, in the slot the walk of the table shows. */
static void test_mem_table_lookup_routes_random(void **state) {
  static const uint32_t capacities[] = {1024, 1u << 18};
  size_t c;
  (void)state;
  for (c = 0; c < 2; c++) {
    const uint32_t cap = capacities[c], n = cap / 5 * 4;
    unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_DICT_BYTES(cap, 8, 8));
    tl_inline_dict d = tl_inline_dict_view(mem, cap, 8, 8);
    uint64_t *keys = (uint64_t *)malloc((size_t)n * 2 * sizeof(uint64_t));
    uint32_t i, index;
    assert_non_null(keys);
    for (i = 0; i < n * 2; i++) keys[i] = rng_next();
    for (i = 0; i < n; i++) assert_true(tl_inline_dict_try_add(d, &keys[i], &keys[i]));
    for (i = 0; i < n; i += 3) assert_true(tl_inline_dict_remove(d, &keys[i]));
    check_table(mem, cap, 8, 8);
    for (i = 0; i < n * 2; i++) {
      unsigned char *slot = tl__table_find(mem, cap, 8, 8, &keys[i], &index);
      if (i < n && i % 3 != 0) {
        assert_non_null(slot);
        assert_ptr_equal(slot, mem + TL_LAYOUT_TABLE_SLOTS_OFFSET(cap) + (size_t)index * 16);
        assert_memory_equal(slot, &keys[i], 8);
      } else {
        assert_null(slot);
      }
    }
    free(keys);
    free(mem);
  }
}


/* Header bytes 4-7 of a table: 1 + the slot of a removal still pending (0: none). */
static uint32_t pending_slot(const unsigned char *mem) { return tl__mem_load_le32(mem + 4); }

/* A table of 8-byte keys built from `keys` in order, to compare bytes with. */
static unsigned char *fresh_set(const uint64_t *keys, int n, uint32_t cap) {
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(cap, 8));
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  int i;
  for (i = 0; i < n; i++) assert_true(tl_inline_hashset_add(s, &keys[i]));
  return mem;
}

/* A removal stays pending in its slot: the slot keeps its key with the fragment byte flipped, no
 * lookup or walk sees it, and the next add takes it when the add passes or reaches it. */
static void test_mem_table_pending_removal(void **state) {
  const uint32_t cap = 16;
  const size_t bytes = TL_LAYOUT_SET_BYTES(cap, 8);
  unsigned char *mem = (unsigned char *)scratch(bytes), *before = (unsigned char *)scratch(bytes);
  unsigned char *fresh;
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  uint64_t a, b, c, same[3], p, q, r, t, u, v, order[6];
  const void *element;
  tl_inline_iter it;
  int seen;
  (void)state;
  keys_with_home(&a, 1, 3, cap, 0);
  keys_with_home(&b, 1, 4, cap, 0);
  keys_with_home(&c, 1, 5, cap, 0);
  assert_true(tl_inline_hashset_add(s, &a));
  assert_true(tl_inline_hashset_add(s, &b));
  assert_true(tl_inline_hashset_add(s, &c));
  memcpy(before, mem, bytes);
  /* Removing b leaves it in slot 4, flagged. */
  assert_true(tl_inline_hashset_remove(s, &b));
  assert_int_equal(pending_slot(mem), 4 + 1);
  assert_int_equal(tl_inline_hashset_count(s), 2);
  assert_memory_equal(mem + 40 + 4 * 8, &b, 8);
  assert_int_equal(mem[8 + 4], 1);
  assert_int_equal(mem[8 + 16 + 4], (tl_hash32(&b, 8, 0) & 0xFF) ^ 0x80);
  assert_false(tl_inline_hashset_contains(s, &b));
  assert_false(tl_inline_hashset_remove(s, &b));
  assert_true(tl_inline_hashset_contains(s, &a));
  assert_true(tl_inline_hashset_contains(s, &c));
  check_table(mem, cap, 8, 0);
  it = tl_inline_hashset_iter(s);
  seen = 0;
  while (tl_inline_hashset_next(s, &it, &element)) {
    assert_true(memcmp(element, &b, 8) != 0);
    seen++;
  }
  assert_int_equal(seen, 2);
  /* Adding b back takes its slot: the bytes are those before the removal, nothing moved. */
  assert_true(tl_inline_hashset_add(s, &b));
  assert_memory_equal(mem, before, bytes);

  /* Keys of one home stay in insertion order: a removed key that comes back goes after the
   * others, which move back into its slot. */
  tl_inline_hashset_clear(s);
  keys_with_home(same, 3, 9, cap, 0);
  for (seen = 0; seen < 3; seen++) assert_true(tl_inline_hashset_add(s, &same[seen]));
  assert_true(tl_inline_hashset_remove(s, &same[0]));
  assert_true(tl_inline_hashset_add(s, &same[0]));
  assert_int_equal(pending_slot(mem), 0);
  order[0] = same[1], order[1] = same[2], order[2] = same[0];
  fresh = fresh_set(order, 3, cap);
  assert_memory_equal(mem, fresh, bytes);
  free(fresh);

  /* An add whose run reaches the pending slot stops there: p q [r] _ u, remove r, add t (home 5)
   * gives p t q _ u. */
  tl_inline_hashset_clear(s);
  keys_with_home(&p, 1, 5, cap, 0);
  keys_with_home(&q, 1, 6, cap, 0);
  keys_with_home(&r, 1, 7, cap, 0);
  keys_with_home(&u, 1, 9, cap, 0);
  keys_with_home(&t, 1, 5, cap, p + 1);
  keys_with_home(&v, 1, 12, cap, 0);
  assert_true(tl_inline_hashset_add(s, &p));
  assert_true(tl_inline_hashset_add(s, &q));
  assert_true(tl_inline_hashset_add(s, &r));
  assert_true(tl_inline_hashset_add(s, &u));
  assert_true(tl_inline_hashset_remove(s, &r));
  assert_int_equal(pending_slot(mem), 7 + 1);
  /* An add elsewhere leaves the removal pending. */
  assert_true(tl_inline_hashset_add(s, &v));
  assert_int_equal(pending_slot(mem), 7 + 1);
  check_table(mem, cap, 8, 0);
  assert_true(tl_inline_hashset_add(s, &t));
  assert_int_equal(pending_slot(mem), 0);
  assert_memory_equal(mem + 40 + 5 * 8, &p, 8);
  assert_memory_equal(mem + 40 + 6 * 8, &t, 8);
  assert_memory_equal(mem + 40 + 7 * 8, &q, 8);
  assert_int_equal(mem[8 + 8], 0);
  order[0] = p, order[1] = q, order[2] = u, order[3] = v, order[4] = t;
  fresh = fresh_set(order, 5, cap);
  assert_memory_equal(mem, fresh, bytes);
  free(fresh);
  /* A second removal finishes the first: removing q then p leaves p pending and q gone. */
  assert_true(tl_inline_hashset_remove(s, &q));
  assert_true(tl_inline_hashset_remove(s, &p));
  assert_int_equal(pending_slot(mem), 5 + 1);
  assert_memory_equal(mem + 40 + 6 * 8, &t, 8);
  assert_int_equal(mem[8 + 7], 0);
  check_table(mem, cap, 8, 0);
  tl_inline_hashset_settle(s);
  order[0] = u, order[1] = v, order[2] = t;
  fresh = fresh_set(order, 3, cap);
  assert_memory_equal(mem, fresh, bytes);
  tl_inline_hashset_settle(s); /* nothing pending: no change */
  assert_memory_equal(mem, fresh, bytes);
  free(fresh);
  free(mem);
  free(before);
}

/* A full table but for a pending removal: an add moves the removal out first, so the table ends
 * as if the removal had been done at once; the next add is refused. */
static void test_mem_table_pending_removal_when_full(void **state) {
  static const uint32_t capacities[] = {1, 2, 8, 16, 33};
  size_t c;
  (void)state;
  for (c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
    const uint32_t cap = capacities[c];
    const size_t bytes = TL_LAYOUT_SET_BYTES(cap, 8);
    unsigned char *mem = (unsigned char *)scratch(bytes), *fresh;
    tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
    uint64_t keys[34], extra;
    uint32_t i, victim;
    for (i = 0; i < cap; i++) {
      keys[i] = rng_next();
      assert_true(tl_inline_hashset_add(s, &keys[i]));
    }
    victim = (uint32_t)(rng_next() % cap);
    assert_true(tl_inline_hashset_remove(s, &keys[victim]));
    assert_int_not_equal(pending_slot(mem), 0);
    memmove(&keys[victim], &keys[victim + 1], (cap - 1 - victim) * sizeof keys[0]);
    extra = rng_next();
    keys[cap - 1] = extra;
    assert_true(tl_inline_hashset_add(s, &extra));
    assert_int_equal(pending_slot(mem), 0);
    check_table(mem, cap, 8, 0);
    fresh = fresh_set(keys, (int)cap, cap);
    assert_memory_equal(mem, fresh, bytes);
    extra = rng_next();
    assert_int_equal(tl_inline_hashset_add_ex(s, &extra), TL_INLINE_FULL);
    for (i = 0; i < cap; i++) assert_true(tl_inline_hashset_contains(s, &keys[i]));
    free(fresh);
    free(mem);
  }
}

/* A walk that removes entries after a pending removal in the same run: finishing the pending one
 * moves the current entry and those after it one slot back, and the walk follows them. */
static void test_mem_table_walk_removal_after_pending(void **state) {
  const uint32_t cap = 16;
  unsigned char *mem = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(cap, 8));
  tl_inline_hashset s = tl_inline_hashset_view(mem, cap, 8);
  uint64_t keys[7], other;
  int visits[7] = {0}, i, other_visits = 0;
  const void *element;
  tl_inline_iter it;
  (void)state;
  keys_with_home(keys, 7, 2, cap, 0);
  keys_with_home(&other, 1, 4, cap, 0); /* inside the run, nearer its home */
  for (i = 0; i < 7; i++) assert_true(tl_inline_hashset_add(s, &keys[i]));
  assert_true(tl_inline_hashset_add(s, &other));
  assert_true(tl_inline_hashset_remove(s, &keys[1]));
  it = tl_inline_hashset_iter(s);
  while (tl_inline_hashset_next(s, &it, &element)) {
    int k = -1;
    for (i = 0; i < 7; i++) if (memcmp(element, &keys[i], 8) == 0) k = i;
    if (k < 0) {
      assert_memory_equal(element, &other, 8);
      other_visits++;
      continue;
    }
    visits[k]++;
    if (k == 2 || k == 3 || k == 5) assert_true(tl_inline_hashset_iter_remove(s, &it));
  }
  for (i = 0; i < 7; i++) assert_int_equal(visits[i], i == 1 ? 0 : 1);
  assert_int_equal(other_visits, 1);
  assert_int_equal(pending_slot(mem), 0);
  check_table(mem, cap, 8, 0);
  assert_int_equal(tl_inline_hashset_count(s), 4);
  for (i = 0; i < 7; i++)
    assert_int_equal(tl_inline_hashset_contains(s, &keys[i]), i == 0 || i == 4 || i == 6);
  free(mem);
}

/* Garbage in the header (a count past the capacity, a head past the end) cannot push an
 * operation out of bounds: ASan would report it here. */
static void test_mem_corrupt_headers_stay_in_bounds(void **state) {
  const uint32_t cap = 4;
  size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(cap, 8);
  unsigned char *mem = (unsigned char *)scratch(bytes);
  tl_inline_list l = tl_inline_list_view(mem, cap, 8);
  tl_inline_queue q = tl_inline_queue_view(mem, cap, 8);
  tl_inline_stack s = tl_inline_stack_view(mem, cap, 8);
  uint64_t v = 1;
  uint32_t i;
  (void)state;
  tl__mem_store_le32(mem, 1000);
  tl__mem_store_le32(mem + 4, 1000);
  assert_int_equal(tl_inline_list_count(l), cap);
  assert_false(tl_inline_list_add(l, &v));
  for (i = 0; i < cap + 3; i++) (void)tl_inline_list_at(l, i);
  assert_true(tl_inline_list_remove_at(l, 0));
  tl__mem_store_le32(mem, 1000);
  assert_false(tl_inline_queue_enqueue(q, &v));
  for (i = 0; i < cap + 3; i++) (void)tl_inline_queue_at(q, i);
  assert_true(tl_inline_queue_dequeue(q, &v));
  tl__mem_store_le32(mem, 1000);
  assert_true(tl_inline_stack_pop(s, &v));
  assert_non_null(tl_inline_stack_peek(s));
  free(mem);
  /* A table whose count claims room although every slot is taken: refused, not overrun. */
  {
    unsigned char *t = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(2, 8));
    tl_inline_hashset hs = tl_inline_hashset_view(t, 2, 8);
    uint64_t k;
    for (k = 0; k < 2; k++) assert_true(tl_inline_hashset_add(hs, &k));
    tl__mem_store_le32(t, 0);
    for (k = 2; k < 40; k++) assert_false(tl_inline_hashset_add(hs, &k));
    free(t);
  }
  /* A pending removal named by foreign bytes: past the table or at an empty slot it is none; at a
   * live entry whose fragment byte is not flipped, that entry is found, skipped by walks, and
   * removed at once. */
  {
    const uint32_t tcap = 8;
    unsigned char *t = (unsigned char *)scratch(TL_LAYOUT_SET_BYTES(tcap, 8));
    tl_inline_hashset hs = tl_inline_hashset_view(t, tcap, 8);
    uint64_t keys[4], k, *named = NULL;
    uint32_t slot, empty = 0, live = 0;
    int seen;
    tl_inline_iter it;
    const void *element;
    for (k = 0; k < 4; k++) {
      keys[k] = rng_next();
      assert_true(tl_inline_hashset_add(hs, &keys[k]));
    }
    while (t[8 + empty] != 0) empty++;
    while (t[8 + live] == 0) live++;
    for (slot = 0; slot < 3; slot++) {
      tl__mem_store_le32(t + 4, slot == 0 ? 0xFFFFFFFFu : slot == 1 ? empty + 1 : live + 1);
      seen = 0;
      it = tl_inline_hashset_iter(hs);
      while (tl_inline_hashset_next(hs, &it, &element)) seen++;
      assert_int_equal(seen, slot == 2 ? 3 : 4);
      for (k = 0; k < 4; k++) assert_true(tl_inline_hashset_contains(hs, &keys[k]));
    }
    for (k = 0; k < 4; k++) {
      if (memcmp(t + 8 + 2 * 8 + live * 8, &keys[k], 8) == 0) named = &keys[k];
    }
    assert_non_null(named);
    assert_true(tl_inline_hashset_remove(hs, named));
    assert_int_equal(tl__mem_load_le32(t + 4), 0);
    assert_int_equal(tl_inline_hashset_count(hs), 3);
    check_table(t, tcap, 8, 0);
    for (k = 0; k < 4; k++) assert_int_equal(tl_inline_hashset_contains(hs, &keys[k]), &keys[k] != named);
    free(t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_alloc_zeroed_aligned),
    cmocka_unit_test(test_mem_alloc_uses_hooks),
    cmocka_unit_test(test_mem_alloc_reports_errors),
    cmocka_unit_test(test_mem_copy_clear_equal),
    cmocka_unit_test(test_mem_hash_published_vectors),
    cmocka_unit_test(test_mem_hash_matches_libxxhash),
    cmocka_unit_test(test_mem_hash32_specialised_keys_match_libxxhash),
    cmocka_unit_test(test_mem_hash64_stream_is_xxh64_of_little_endian_bytes),
    cmocka_unit_test(test_mem_hash64_stream_walk_of_a_struct),
      cmocka_unit_test(test_mem_hash64_state_in_pieces_matches_libxxhash),
    cmocka_unit_test(test_mem_array_operations),
    cmocka_unit_test(test_mem_list_operations),
    cmocka_unit_test(test_mem_queue_wraps_around),
    cmocka_unit_test(test_mem_stack_operations),
    cmocka_unit_test(test_mem_hashset_operations),
    cmocka_unit_test(test_mem_dict_slot_bytes),
    cmocka_unit_test(test_mem_dict_operations),
    cmocka_unit_test(test_mem_hashset_wraps_around),
    cmocka_unit_test(test_mem_hashset_removal_leaves_no_trace),
    cmocka_unit_test(test_mem_dict_iteration_with_removal),
    cmocka_unit_test(test_mem_hashset_iteration),
    cmocka_unit_test(test_mem_dict_odd_sizes),
    cmocka_unit_test(test_mem_typed_sequences),
    cmocka_unit_test(test_mem_typed_set),
    cmocka_unit_test(test_mem_typed_dict),
    cmocka_unit_test(test_mem_typed_invalid_views),
    cmocka_unit_test(test_mem_typed_const_views),
    cmocka_unit_test(test_mem_invalid_views_fail),
    cmocka_unit_test(test_mem_table_lookup_routes),
    cmocka_unit_test(test_mem_table_lookup_routes_random),
    cmocka_unit_test(test_mem_table_ctz_portable),
    cmocka_unit_test(test_mem_table_saturated_distances),
    cmocka_unit_test(test_mem_table_pending_removal),
    cmocka_unit_test(test_mem_table_pending_removal_when_full),
    cmocka_unit_test(test_mem_table_walk_removal_after_pending),
    cmocka_unit_test(test_mem_corrupt_headers_stay_in_bounds),
  };
  return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
