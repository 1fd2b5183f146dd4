/* The generator's layout rules (gen/core/layout.c) give exactly the runtime's sizes (TL_LAYOUT_* in
 * runtime/threadlink/mem.h) over a table of capacities and element sizes, refuse what the runtime
 * refuses, bakes table images byte for byte as the runtime fills tables, and the runtime's macros
 * are constant expressions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <threadlink/collections.h>

#include "core/layout.h"
#include "mem_test_util.h"

/* Constant expressions: static assertions and array sizes, as generated code uses them. */
_Static_assert(TL_LAYOUT_ALIGN(0) == 0 && TL_LAYOUT_ALIGN(1) == 8 && TL_LAYOUT_ALIGN(8) == 8 &&
                   TL_LAYOUT_ALIGN(9) == 16,
               "TL_LAYOUT_ALIGN");
_Static_assert(TL_LAYOUT_ARRAY_BYTES(10, 4) == 80, "array");
_Static_assert(TL_LAYOUT_SEQUENCE_BYTES(16, 12) == 8 + 16 * 16, "sequence");
_Static_assert(TL_LAYOUT_TABLE_CONTROL_BYTES(32) == 2 * 32 && TL_LAYOUT_TABLE_CONTROL_BYTES(7) == 2 * 8,
               "control and fragment arrays");
_Static_assert(TL_LAYOUT_SET_SLOT_BYTES(8) == 8, "set slot");
_Static_assert(TL_LAYOUT_SET_BYTES(32, 3) == 8 + 2 * 32 + 32 * 8, "set");
_Static_assert(TL_LAYOUT_DICT_SLOT_BYTES(4, 12) == 8 + 16, "dict slot");
_Static_assert(TL_LAYOUT_DICT_BYTES(1024, 8, 8) == 8 + 2 * 1024 + 1024 * 16, "dict");
_Static_assert(TL_LAYOUT_DICT_BYTES(7, 5, 0) == TL_LAYOUT_SET_BYTES(7, 5), "a dict without values is a set");
_Static_assert(TL_LAYOUT_SLOT_VALUE_OFFSET(9) == 16, "value offset");
typedef unsigned char sized_by_layout[TL_LAYOUT_DICT_BYTES(4, sizeof(uint32_t), sizeof(uint64_t))]; /* a constant expression */
struct record_with_collections { /* how a generated vault record embeds collections */
  uint64_t list[TL_LAYOUT_SEQUENCE_BYTES(8, sizeof(uint32_t)) / 8];
  uint64_t set[TL_LAYOUT_SET_BYTES(16, sizeof(uint64_t)) / 8];
};
_Static_assert(sizeof(struct record_with_collections) == (8 + 8 * 8) + (8 + 2 * 16 + 16 * 8), "record");

static const uint64_t capacities[] = {
  1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, 1000, 1023, 1024,
  4096, 65535, 65536, 1000000, 1048576, 16777216, 0x7FFFFFF, 0x7FFFFFFFu,
};
static const uint64_t element_sizes[] = {
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 20, 23, 24, 25, 31, 32, 33, 40, 48, 63, 64,
  65, 100, 127, 128, 255, 256, 1000, 4095, 4096, 65536, 1048576, 0x40000000u,
};
static const uint64_t value_sizes[] = {0, 1, 3, 4, 7, 8, 12, 16, 24, 33, 100, 4096};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* gen's result equals the runtime macro whenever the collection is within the generator's limit;
 * beyond it gen says 0. Returns 1 when compared. */
static int same(uint64_t from_gen, uint64_t from_runtime) {
  if (from_runtime <= LAYOUT_MAX_BYTES) {
    assert_int_equal(from_gen, from_runtime);
    return 1;
  }
  assert_int_equal(from_gen, 0);
  return 0;
}

/* Whether every runtime macro result for these sizes fits a size_t: a bound worked out in 64 bits.
 * Always on 64-bit targets; on 32-bit ones the macros wrap past 4 GiB (no view accepts more than
 * TL_MEM_MAX_BYTES there), so those sizes are not compared. */
static int fits_size_t(uint64_t capacity, uint64_t element_size, uint64_t value_size) {
  return 8 + 2 * (capacity + 7) + capacity * (element_size + value_size + 14) <= (uint64_t)SIZE_MAX;
}

static void test_mem_layout_generator_matches_runtime(void **state) {
  size_t c, e, v;
  unsigned compared = 0;
  (void)state;
  for (e = 0; e < COUNT(element_sizes); e++) {
    uint64_t es = element_sizes[e];
    assert_int_equal(layout_align(es), TL_LAYOUT_ALIGN(es));
    assert_int_equal(layout_set_slot_bytes(es), TL_LAYOUT_SET_SLOT_BYTES(es));
    assert_int_equal(layout_dict_value_offset(es), TL_LAYOUT_SLOT_VALUE_OFFSET(es));
    for (v = 0; v < COUNT(value_sizes); v++)
      assert_int_equal(layout_dict_slot_bytes(es, value_sizes[v]),
                       TL_LAYOUT_DICT_SLOT_BYTES(es, value_sizes[v]));
    for (c = 0; c < COUNT(capacities); c++) {
      uint64_t cap = capacities[c];
      if (!fits_size_t(cap, es, 0)) continue;
      assert_int_equal(layout_table_control_bytes(cap), TL_LAYOUT_TABLE_CONTROL_BYTES(cap));
      assert_int_equal(layout_table_slots_offset(cap), TL_LAYOUT_TABLE_SLOTS_OFFSET(cap));
      compared += same(layout_array_bytes(cap, es), TL_LAYOUT_ARRAY_BYTES(cap, es));
      compared += same(layout_sequence_bytes(cap, es), TL_LAYOUT_SEQUENCE_BYTES(cap, es));
      compared += same(layout_set_bytes(cap, es), TL_LAYOUT_SET_BYTES(cap, es));
      compared += same(layout_collection_bytes(LAYOUT_ARRAY, cap, es, 0), TL_LAYOUT_ARRAY_BYTES(cap, es));
      compared += same(layout_collection_bytes(LAYOUT_LIST, cap, es, 0), TL_LAYOUT_SEQUENCE_BYTES(cap, es));
      compared += same(layout_collection_bytes(LAYOUT_QUEUE, cap, es, 0), TL_LAYOUT_SEQUENCE_BYTES(cap, es));
      compared += same(layout_collection_bytes(LAYOUT_STACK, cap, es, 0), TL_LAYOUT_SEQUENCE_BYTES(cap, es));
      compared += same(layout_collection_bytes(LAYOUT_HASHSET, cap, es, 0), TL_LAYOUT_SET_BYTES(cap, es));
      for (v = 0; v < COUNT(value_sizes); v++) {
        uint64_t vs = value_sizes[v];
        if (!fits_size_t(cap, es, vs)) continue;
        compared += same(layout_dict_bytes(cap, es, vs), TL_LAYOUT_DICT_BYTES(cap, es, vs));
        compared += same(layout_collection_bytes(LAYOUT_DICT, cap, es, vs),
                         TL_LAYOUT_DICT_BYTES(cap, es, vs));
      }
    }
  }
  print_message("compared %u sizes\n", compared);
  assert_true(compared > 10000);
}

/* Every collection the generator accepts is one the runtime accepts (a view over it is valid),
 * on every target: the generator's byte limit is the 32-bit runtime's. */
static void test_mem_layout_runtime_accepts_generated_sizes(void **state) {
  static uint64_t fake_memory[1]; /* views do not touch memory when made */
  size_t c, e;
  (void)state;
  assert_int_equal(LAYOUT_MAX_CAPACITY, TL_INLINE_MAX_CAPACITY);
  assert_int_equal(LAYOUT_MAX_ELEMENT_SIZE, TL_INLINE_MAX_ELEMENT_SIZE);
  assert_int_equal(LAYOUT_HEADER_BYTES, TL_LAYOUT_HEADER_BYTES);
  assert_int_equal(LAYOUT_ALIGNMENT, TL_LAYOUT_ALIGNMENT);
  assert_true(LAYOUT_MAX_BYTES <= (uint64_t)TL_MEM_MAX_BYTES);
  for (e = 0; e < COUNT(element_sizes); e++) {
    for (c = 0; c < COUNT(capacities); c++) {
      uint32_t cap = (uint32_t)capacities[c], es = (uint32_t)element_sizes[e];
      if (layout_sequence_bytes(cap, es))
        assert_true(tl_inline_list_valid(tl_inline_list_view(fake_memory, cap, es)));
      if (layout_array_bytes(cap, es))
        assert_true(tl_inline_array_valid(tl_inline_array_view(fake_memory, cap, es)));
      if (layout_set_bytes(cap, es))
        assert_true(tl_inline_hashset_valid(tl_inline_hashset_view(fake_memory, cap, es)));
      if (layout_dict_bytes(cap, es, 8))
        assert_true(tl_inline_dict_valid(tl_inline_dict_view(fake_memory, cap, es, 8)));
    }
  }
}

static void test_mem_layout_refuses_invalid(void **state) {
  (void)state;
  assert_int_equal(layout_array_bytes(0, 4), 0);
  assert_int_equal(layout_sequence_bytes((uint64_t)LAYOUT_MAX_CAPACITY + 1, 4), 0);
  assert_int_equal(layout_set_bytes(4, 0), 0);
  assert_int_equal(layout_set_slot_bytes(0), 0);
  assert_int_equal(layout_dict_bytes(4, 0, 4), 0);
  assert_int_equal(layout_dict_bytes(4, 4, (uint64_t)LAYOUT_MAX_ELEMENT_SIZE + 1), 0);
  assert_int_equal(layout_dict_slot_bytes((uint64_t)LAYOUT_MAX_ELEMENT_SIZE + 1, 0), 0);
  assert_int_equal(layout_sequence_bytes(UINT64_MAX, UINT64_MAX), 0);
  assert_int_equal(layout_dict_bytes(0x7FFFFFFFu, 0x40000000u, 0x40000000u), 0);
  assert_int_equal(layout_collection_bytes(LAYOUT_KIND_COUNT, 4, 4, 0), 0);
  assert_null(layout_check(LAYOUT_DICT, 16, 8, 0));
  assert_null(layout_check(LAYOUT_LIST, 1, 1, 0));
  assert_string_equal(layout_check(LAYOUT_LIST, 0, 4, 0), "capacity must be between 1 and 2147483647");
  assert_string_equal(layout_check(LAYOUT_DICT, 4, 0, 4), "key size must be between 1 and 1073741824 bytes");
  assert_string_equal(layout_check(LAYOUT_STACK, 4, 0, 0), "element size must be between 1 and 1073741824 bytes");
  assert_string_equal(layout_check(LAYOUT_DICT, 4, 4, 0x40000001u), "value size must be at most 1073741824 bytes");
  assert_string_equal(layout_check(LAYOUT_ARRAY, 0x7FFFFFFFu, 8, 0), "collection larger than 1073741823 bytes");
  assert_string_equal(layout_check((layout_kind)99, 4, 4, 0), "unknown collection kind");
}

/* The generator's table image (layout_table_insert, used to bake const vault data) holds exactly
 * the bytes the runtime writes for the same insertions, refusals included. */
static void test_mem_layout_table_image_matches_runtime(void **state) {
  static const struct { uint32_t capacity, key_size, value_size; } configs[] = {
    {1, 4, 4}, {2, 8, 0}, {7, 8, 8}, {16, 8, 0}, {31, 3, 5}, {64, 12, 20}, {100, 4, 8},
    {257, 1, 2}, {1000, 8, 8},
  };
  uint64_t rng = 0xBAD5EEDull;
  size_t c;
  (void)state;
  for (c = 0; c < COUNT(configs); c++) {
    const uint32_t cap = configs[c].capacity, ks = configs[c].key_size, vs = configs[c].value_size;
    const size_t bytes = TL_LAYOUT_DICT_BYTES(cap, ks, vs);
    unsigned char *runtime = (unsigned char *)calloc(1, bytes), *baked = (unsigned char *)calloc(1, bytes);
    tl_inline_dict d = tl_inline_dict_view(runtime, cap, ks, vs);
    uint32_t i, universe = ks == 1 ? 200 : cap * 2, added = 0, full_refusals = 0;
    assert_non_null(runtime);
    assert_non_null(baked);
    for (i = 0; i < 4 * cap + 8; i++) { /* past full, with repeated keys */
      unsigned char key[16], value[24];
      uint64_t pick = test_splitmix64(&rng) % universe, v = test_splitmix64(&rng);
      size_t b;
      for (b = 0; b < ks; b++) key[b] = (unsigned char)(pick >> (8 * (b % 8))) ^ (unsigned char)(b * 31);
      for (b = 0; b < vs; b++) value[b] = (unsigned char)(v >> (8 * (b % 8)));
      {
        bool full = tl_inline_dict_count(d) == cap;
        bool ok = tl_inline_dict_try_add(d, key, vs ? value : NULL);
        assert_int_equal(layout_table_insert(baked, cap, ks, vs, key, vs ? value : NULL), ok);
        added += ok;
        full_refusals += full;
      }
      assert_memory_equal(baked, runtime, bytes);
    }
    assert_int_equal(tl_inline_dict_count(d), added);
    if (cap <= 100) assert_true(full_refusals > 0); /* the small tables were filled */
    free(runtime);
    free(baked);
  }
}

static void test_mem_layout_kind_names(void **state) {
  static const char *const names[] = {"InlineArray", "InlineList", "InlineQueue", "InlineStack",
                                      "InlineHashSet", "InlineDictionary"};
  int k;
  layout_kind kind;
  (void)state;
  for (k = 0; k < (int)LAYOUT_KIND_COUNT; k++) {
    assert_string_equal(layout_kind_name((layout_kind)k), names[k]);
    assert_true(layout_kind_from_name(names[k], &kind));
    assert_int_equal(kind, k);
    assert_int_equal(layout_kind_has_header((layout_kind)k), k != LAYOUT_ARRAY);
    assert_int_equal(layout_kind_has_value((layout_kind)k), k == LAYOUT_DICT);
    assert_non_null(layout_kind_runtime_prefix((layout_kind)k));
  }
  assert_string_equal(layout_kind_runtime_prefix(LAYOUT_HASHSET), "tl_inline_hashset");
  assert_false(layout_kind_from_name("inlinelist", &kind));
  assert_false(layout_kind_from_name(NULL, &kind));
  assert_null(layout_kind_name(LAYOUT_KIND_COUNT));
  assert_int_equal(sizeof(sized_by_layout), 8 + 2 * 8 + 4 * 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_layout_generator_matches_runtime),
    cmocka_unit_test(test_mem_layout_runtime_accepts_generated_sizes),
    cmocka_unit_test(test_mem_layout_refuses_invalid),
    cmocka_unit_test(test_mem_layout_table_image_matches_runtime),
    cmocka_unit_test(test_mem_layout_kind_names),
  };
  return cmocka_run_group_tests_name("mem_layout", tests, NULL, NULL);
}
