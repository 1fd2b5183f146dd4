/* Golden program: one fixed sequence of operations on every inline collection, laid out in one
 * zeroed block. Prints the block's XXH64 and writes the block to argv[1]; golden.sh builds this
 * with gcc and clang, as C and C++, at -O0 and -O2 and compares every build with a pinned hash:
 * the bytes must not depend on compiler, language or optimisation, nor on the processor:
 * golden.sh also runs it on 32-bit ARM, 64-bit ARM and big-endian s390x. So every number goes
 * into the collections as its little-endian bytes (le() below), the same bytes on every machine.
 * Written in the common subset of C99 and C++17. */
#include <stdio.h>
#include <string.h>

#include <threadlink/collections.h>

typedef struct unit {
  int32_t x, y;
  uint16_t kind;
  uint16_t flags;
  uint32_t pad; /* explicit and zero: no implicit padding anywhere */
} unit;

TL_INLINE_ARRAY_TYPE(unit_array, unit)
TL_INLINE_LIST_TYPE(unit_list, unit)
TL_INLINE_QUEUE_TYPE(u16_queue, uint16_t)
TL_INLINE_STACK_TYPE(i64_stack, int64_t)
TL_INLINE_HASHSET_TYPE(u64_set, uint64_t)
TL_INLINE_DICT_TYPE(u32_unit_dict, uint32_t, unit)
TL_INLINE_DICT_TYPE(i64_dict, int64_t, int64_t)

/* Offsets of each collection in the block: each starts on an 8-byte boundary by construction. */
#define ARRAY_OFF 0
#define LIST_OFF (ARRAY_OFF + TL_LAYOUT_ARRAY_BYTES(6, sizeof(unit)))
#define QUEUE_OFF (LIST_OFF + TL_LAYOUT_SEQUENCE_BYTES(12, sizeof(unit)))
#define STACK_OFF (QUEUE_OFF + TL_LAYOUT_SEQUENCE_BYTES(5, sizeof(uint16_t)))
#define SET_OFF (STACK_OFF + TL_LAYOUT_SEQUENCE_BYTES(7, sizeof(int64_t)))
#define UDICT_OFF (SET_OFF + TL_LAYOUT_SET_BYTES(40, sizeof(uint64_t)))
#define IDICT_OFF (UDICT_OFF + TL_LAYOUT_DICT_BYTES(24, sizeof(uint32_t), sizeof(unit)))
#define GENERIC_OFF (IDICT_OFF + TL_LAYOUT_DICT_BYTES(64, sizeof(int64_t), sizeof(int64_t)))
#define BLOCK_BYTES (GENERIC_OFF + TL_LAYOUT_DICT_BYTES(16, 3, 5))

/* A constant expression, checked at compile time in C and C++ alike. */
typedef char golden_block_size_check[BLOCK_BYTES == 2904 ? 1 : -1];

static uint64_t rng = 12345;
static uint64_t next_random(void) {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void put_le(unsigned char *out, uint64_t x, size_t bytes) {
  size_t i;
  for (i = 0; i < bytes; i++) out[i] = (unsigned char)(x >> (8 * i));
}

/* The value whose bytes in memory are x's little-endian bytes (x itself on a little-endian
 * machine, x byte-swapped on a big-endian one); le(le(x)) == x. */
static uint64_t le(uint64_t x, size_t bytes) {
  unsigned char b[8];
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  put_le(b, x, bytes);
  switch (bytes) {
  case 2: memcpy(&u16, b, 2); return u16;
  case 4: memcpy(&u32, b, 4); return u32;
  default: memcpy(&u64, b, 8); return u64;
  }
}
#define LE16(x) ((uint16_t)le((uint64_t)(x), 2))
#define LE32(x) ((uint32_t)le((uint64_t)(x), 4))
#define LE64(x) ((int64_t)le((uint64_t)(x), 8))

/* tl_hash64_stream fed the array's units field by field, as numbers, must give the hash of the
 * array's little-endian bytes: what a frame whose fields are native integers hashes with. */
static int array_stream_hash_matches(unit_array arr, const unsigned char *bytes) {
  tl_hash64_stream s;
  uint32_t i;
  tl_hash64_stream_reset(&s, 0);
  for (i = 0; i < 6; i++) {
    const unit *u = unit_array_at(arr, i);
    tl_hash64_stream_u32(&s, LE32(u->x));
    tl_hash64_stream_u32(&s, LE32(u->y));
    tl_hash64_stream_u16(&s, LE16(u->kind));
    tl_hash64_stream_u16(&s, LE16(u->flags));
    tl_hash64_stream_u32(&s, LE32(u->pad));
  }
  if (tl_hash64_stream_digest(&s) == tl_hash64(bytes, TL_LAYOUT_ARRAY_BYTES(6, sizeof(unit)), 0)) return 1;
  fprintf(stderr, "tl_hash64_stream of the array's fields differs from its bytes' hash\n");
  return 0;
}

int main(int argc, char **argv) {
  unsigned char *block = (unsigned char *)tl_mem_alloc_zeroed(BLOCK_BYTES, 64);
  unit_array arr;
  unit_list list;
  u16_queue queue;
  i64_stack stack;
  u64_set set;
  u32_unit_dict udict;
  i64_dict idict;
  tl_inline_dict generic;
  int step;
  uint64_t hash;
  const uint16_t probe = LE16(1);
  if (!block) return 1;
  arr = unit_array_view(block + ARRAY_OFF, 6);
  list = unit_list_view(block + LIST_OFF, 12);
  queue = u16_queue_view(block + QUEUE_OFF, 5);
  stack = i64_stack_view(block + STACK_OFF, 7);
  set = u64_set_view(block + SET_OFF, 40);
  udict = u32_unit_dict_view(block + UDICT_OFF, 24);
  idict = i64_dict_view(block + IDICT_OFF, 64);
  generic = tl_inline_dict_view(block + GENERIC_OFF, 16, 3, 5);

  for (step = 0; step < 20000; step++) {
    uint64_t r = next_random();
    unit u;
    unsigned char key3[3], value5[5];
    memset(&u, 0, sizeof u);
    u.x = (int32_t)LE32((int32_t)(r & 0xFFFF) - 30000);
    u.y = (int32_t)LE32(r >> 48);
    u.kind = LE16(step % 7);
    u.flags = LE16(r >> 20);
    switch (r % 16) {
    case 0: *unit_array_at(arr, (uint32_t)(r >> 8) % 6) = u; break;
    case 1: (void)unit_list_add(list, u); break;
    case 2: (void)unit_list_remove_at(list, (uint32_t)(r >> 8) % 13); break;
    case 3: (void)u16_queue_enqueue(queue, LE16(r)); break;
    case 4: (void)u16_queue_dequeue(queue, NULL); break;
    case 5: (void)i64_stack_push(stack, LE64(r)); break;
    case 6: (void)i64_stack_pop(stack, NULL); break;
    case 7: (void)u64_set_add(set, (uint64_t)LE64((r >> 8) % 64)); break;
    case 8: (void)u64_set_remove(set, (uint64_t)LE64((r >> 8) % 64)); break;
    case 9: (void)u32_unit_dict_set(udict, LE32((uint32_t)(r >> 8) % 40), u); break;
    case 10: (void)u32_unit_dict_remove(udict, LE32((uint32_t)(r >> 8) % 40)); break;
    case 11: {
      int64_t *v = i64_dict_get_or_add(idict, LE64((int64_t)((r >> 8) % 100) - 50), NULL);
      if (v) *v = LE64(LE64(*v) + step);
      break;
    }
    case 12: (void)i64_dict_remove(idict, LE64((int64_t)((r >> 8) % 100) - 50)); break;
    case 13: {
      put_le(key3, r, 3);
      key3[0] %= 4;
      put_le(value5, r >> 24, 5);
      if ((r >> 40) & 1) (void)tl_inline_dict_set(generic, key3, value5);
      else (void)tl_inline_dict_remove(generic, key3);
      break;
    }
    case 14: { /* a walk that removes every entry with an odd value */
      tl_inline_iter it = i64_dict_iter(idict);
      int64_t key;
      int64_t *value;
      while (i64_dict_next(idict, &it, &key, &value))
        if (LE64(*value) & 1) (void)i64_dict_iter_remove(idict, &it);
      break;
    }
    default:
      if (step % 3000 == 2999) {
        unit_list_clear(list);
        (void)u16_queue_enqueue(queue, probe);
      }
      break;
    }
  }
  hash = tl_hash64(block, BLOCK_BYTES, 0);
  if (!array_stream_hash_matches(arr, block + ARRAY_OFF)) return 1;
  fprintf(stderr, "list %u, queue %u, stack %u, set %u, unit dict %u, int dict %u, generic dict %u\n",
          unit_list_count(list), u16_queue_count(queue), i64_stack_count(stack), u64_set_count(set),
          u32_unit_dict_count(udict), i64_dict_count(idict), tl_inline_dict_count(generic));
  printf("%016llx %s\n", (unsigned long long)hash, TL__MEM_LITTLE_ENDIAN ? "little-endian" : "other");
  if (argc > 1) {
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(block, 1, BLOCK_BYTES, f) != BLOCK_BYTES || fclose(f) != 0) return 1;
  }
  tl_mem_free(block);
  return 0;
}
