/* Helpers shared by the mem tests (include after cmocka.h and threadlink/mem.h). */
#ifndef TESTS_MEM_TEST_UTIL_H
#define TESTS_MEM_TEST_UTIL_H

static inline uint64_t test_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline uint32_t test_home_of(const void *key, uint32_t key_size, uint32_t capacity) {
  return (uint32_t)(((uint64_t)tl_hash32(key, key_size, 0) * capacity) >> 32);
}

/* The table invariants, from the bytes alone: empty slots all zero, each occupied slot's control
 * byte 1 + its distance from home (255 from 254 on) and its fragment byte the key's XXH32 & 0xFF
 * (flipped by 0x80 in the slot of a pending removal, which header bytes 4-7 name as 1 + its
 * index), no hole between an entry and its home, Robin Hood order along runs, padding zero, the
 * count (entries but the pending one). */
static inline void test_check_table(const unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                    uint32_t value_size) {
  const size_t stride = TL_LAYOUT_DICT_SLOT_BYTES(key_size, value_size);
  const unsigned char *control = mem + TL_LAYOUT_HEADER_BYTES;
  const unsigned char *fragments = control + TL_LAYOUT_ALIGN(capacity);
  const unsigned char *slots = mem + TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity);
  const uint32_t pending = tl__mem_load_le32(mem + 4);
  uint32_t i, occupied = 0;
  assert_true(pending <= capacity);
  if (pending) assert_int_not_equal(control[pending - 1], 0);
  for (i = capacity; i < TL_LAYOUT_ALIGN(capacity); i++) {
    assert_int_equal(control[i], 0);
    assert_int_equal(fragments[i], 0);
  }
  for (i = 0; i < capacity; i++) {
    const unsigned char *slot = slots + i * stride;
    uint32_t home, distance, d;
    if (control[i] == 0) {
      size_t k;
      assert_int_equal(fragments[i], 0);
      for (k = 0; k < stride; k++) assert_int_equal(slot[k], 0);
      continue;
    }
    assert_int_equal(fragments[i], (tl_hash32(slot, key_size, 0) & 0xFF) ^ (i + 1 == pending ? 0x80 : 0));
    {
      size_t k; /* key padding is zero */
      for (k = key_size; k < TL_LAYOUT_ALIGN(key_size); k++) assert_int_equal(slot[k], 0);
    }
    home = test_home_of(slot, key_size, capacity);
    distance = (i + capacity - home) % capacity;
    assert_int_equal(control[i], distance < 254 ? distance + 1 : 255);
    for (d = 1; d <= distance; d++) assert_int_not_equal(control[(i + capacity - d) % capacity], 0);
    if (distance > 0) {
      const unsigned char *prev = slots + ((i + capacity - 1) % capacity) * stride;
      uint32_t prev_home = test_home_of(prev, key_size, capacity);
      uint32_t prev_distance = (i - 1 + capacity - prev_home) % capacity;
      assert_true(prev_distance + 1 >= distance);
    }
    if (i + 1 != pending) occupied++;
  }
  assert_int_equal(tl__mem_load_le32(mem), occupied);
}

#endif
