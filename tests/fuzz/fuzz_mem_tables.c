/* Fuzz target: inline collections over forged bytes. A frame restored from a save or from the
 * network holds hash sets, dictionaries, lists, queues and stacks whose bytes anyone can forge
 * (runtime/threadlink/mem.h). Whatever those bytes are, every operation must stay inside the
 * collection's memory (ASan checks it: the memory is an exact-size allocation) and return; an
 * add never reports success without the element being found afterwards.
 *
 * Input: byte 0 picks the key size, byte 1 the value size, bytes 2-3 the capacity (high bit of
 * byte 2: a table over 128 KiB, which takes the other lookup route); then the collection's bytes
 * (zero-filled where the input ends); then operations, one byte each followed by a key. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/collections.h>

#define MAX_OPS 512

typedef struct reader {
  const uint8_t *data;
  size_t size, at;
} reader;

static uint8_t next_byte(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }

static void next_bytes(reader *r, void *out, size_t n) {
  size_t have = r->at < r->size ? r->size - r->at : 0;
  if (have > n) have = n;
  memcpy(out, r->data + r->at, have);
  memset((uint8_t *)out + have, 0, n - have);
  r->at += have;
}

/* Reads every byte of an element the API handed out, so that ASan sees a pointer past the end. */
static volatile uint8_t sink;
static void touch(const void *p, size_t n) {
  const uint8_t *b = (const uint8_t *)p;
  size_t i;
  for (i = 0; i < n; i++) sink ^= b[i];
}

static void run_table(reader *r, uint32_t capacity, uint32_t key_size, uint32_t value_size) {
  const size_t bytes = TL_LAYOUT_DICT_BYTES(capacity, key_size, value_size);
  unsigned char *mem = (unsigned char *)malloc(bytes);
  tl_inline_dict d;
  tl_inline_hashset s;
  uint8_t key[24], value[24];
  int op;
  if (!mem) return;
  next_bytes(r, mem, bytes < 4096 ? bytes : 4096);
  if (bytes > 4096) memset(mem + 4096, 0, bytes - 4096);
  d = tl_inline_dict_view(mem, capacity, key_size, value_size);
  s = tl_inline_hashset_view(mem, capacity, key_size); /* the same bytes as a set when value_size is 0 */
  for (op = 0; op < MAX_OPS && r->at < r->size; op++) {
    const uint8_t kind = next_byte(r);
    next_bytes(r, key, key_size);
    memset(value, kind, sizeof value);
    switch (kind % 8) {
    case 0:
      (void)tl_inline_dict_contains_key(d, key);
      break;
    case 1: {
      void *p = tl_inline_dict_get(d, key);
      if (p) touch(p, value_size);
      (void)tl_inline_dict_try_get(d, key, value);
      break;
    }
    case 2:
      if (tl_inline_dict_try_add(d, key, value) && !tl_inline_dict_contains_key(d, key)) abort();
      break;
    case 3:
      (void)tl_inline_dict_remove(d, key);
      break;
    case 4: {
      bool added = false;
      void *p = tl_inline_dict_get_or_add(d, key, &added);
      if (p) touch(p, value_size);
      break;
    }
    case 5: {
      tl_inline_iter it = tl_inline_dict_iter(d);
      const void *k;
      void *v;
      while (tl_inline_dict_next(d, &it, &k, &v)) {
        touch(k, key_size);
        touch(v, value_size);
        if (((const uint8_t *)k)[0] & 1) (void)tl_inline_dict_iter_remove(d, &it);
      }
      break;
    }
    case 6:
      if (value_size == 0) {
        (void)tl_inline_hashset_add(s, key);
        (void)tl_inline_hashset_contains(s, key);
        (void)tl_inline_hashset_remove(s, key);
      } else {
        (void)tl_inline_dict_set(d, key, value);
      }
      break;
    default:
      if (key[0] == 0xC1) tl_inline_dict_clear(d);
      else if (key[0] & 1) tl_inline_dict_settle(d);
      break;
    }
  }
  free(mem);
}

static void run_sequences(reader *r, uint32_t capacity, uint32_t element_size) {
  const size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(capacity, element_size);
  unsigned char *mem = (unsigned char *)malloc(bytes);
  tl_inline_list l;
  tl_inline_queue q;
  tl_inline_stack st;
  uint8_t element[24];
  int op;
  if (!mem) return;
  next_bytes(r, mem, bytes);
  l = tl_inline_list_view(mem, capacity, element_size);
  q = tl_inline_queue_view(mem, capacity, element_size);
  st = tl_inline_stack_view(mem, capacity, element_size);
  for (op = 0; op < MAX_OPS && r->at < r->size; op++) {
    const uint8_t kind = next_byte(r);
    const uint32_t index = next_byte(r);
    void *p = NULL;
    memset(element, kind, sizeof element);
    switch (kind % 9) {
    case 0: (void)tl_inline_list_add(l, element); break;
    case 1: (void)tl_inline_list_remove_at(l, index); break;
    case 2: p = tl_inline_list_at(l, index); break;
    case 3: (void)tl_inline_queue_enqueue(q, element); break;
    case 4: (void)tl_inline_queue_dequeue(q, element); break;
    case 5: p = tl_inline_queue_at(q, index); break;
    case 6: (void)tl_inline_stack_push(st, element); break;
    case 7: (void)tl_inline_stack_pop(st, element); break;
    default: p = index & 1 ? tl_inline_queue_peek(q) : tl_inline_stack_peek(st); break;
    }
    if (p) touch(p, element_size);
  }
  free(mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t key_sizes[] = {4, 8, 1, 2, 3, 5, 12, 16, 24};
  reader r = {data, size, 0};
  const uint8_t pick = next_byte(&r);
  const uint32_t key_size = key_sizes[pick % sizeof key_sizes];
  const uint32_t value_size = next_byte(&r) % 25u;
  const uint8_t c0 = next_byte(&r), c1 = next_byte(&r);
  /* Up to 4,096 slots (at most 128 KiB), or (high bit) 2^17 and more: over 128 KiB for every
   * slot size. */
  const uint32_t capacity = c0 & 0x80 ? (1u << 17) + 1u + ((uint32_t)(c0 & 0x7F) << 8 | c1)
                                      : 1u + (((uint32_t)c0 << 8 | c1) & 0xFFFu);
  if (pick & 0x80)
    run_sequences(&r, capacity > 4096 ? 4096 : capacity, 1u + value_size % 24u);
  else
    run_table(&r, capacity, key_size, value_size);
  return 0;
}
