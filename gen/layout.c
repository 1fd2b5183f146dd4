/* gen/layout.c - byte layout of inline collections (see layout.h; the runtime's mem.h is the
 * reference). Plain C99, no dependencies, so any stage or test can link it. */
#include "layout.h"

#include <string.h>

#include <xxhash.h>

/* Collection sizes stay far below 2^63, so each product is checked against the limit before it is
 * formed: no intermediate can wrap. */
static uint64_t layout_total(uint64_t header, uint64_t capacity, uint64_t stride) {
  if (capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return 0;
  if (stride == 0 || stride > LAYOUT_MAX_BYTES) return 0;
  if (capacity > (LAYOUT_MAX_BYTES - header) / stride) return 0;
  return header + capacity * stride;
}

static bool layout_size_ok(uint64_t size) { return size >= 1 && size <= LAYOUT_MAX_ELEMENT_SIZE; }

uint64_t layout_align(uint64_t size) {
  return (size + (LAYOUT_ALIGNMENT - 1)) & ~(uint64_t)(LAYOUT_ALIGNMENT - 1);
}

uint64_t layout_array_bytes(uint64_t capacity, uint64_t element_size) {
  if (!layout_size_ok(element_size)) return 0;
  return layout_total(0, capacity, layout_align(element_size));
}

uint64_t layout_sequence_bytes(uint64_t capacity, uint64_t element_size) {
  if (!layout_size_ok(element_size)) return 0;
  return layout_total(LAYOUT_HEADER_BYTES, capacity, layout_align(element_size));
}

uint64_t layout_set_slot_bytes(uint64_t element_size) {
  if (!layout_size_ok(element_size)) return 0;
  return LAYOUT_STATE_BYTES + layout_align(element_size);
}

uint64_t layout_set_bytes(uint64_t capacity, uint64_t element_size) {
  return layout_total(LAYOUT_HEADER_BYTES, capacity, layout_set_slot_bytes(element_size));
}

uint64_t layout_dict_slot_bytes(uint64_t key_size, uint64_t value_size) {
  if (!layout_size_ok(key_size) || value_size > LAYOUT_MAX_ELEMENT_SIZE) return 0;
  return LAYOUT_STATE_BYTES + layout_align(key_size) + layout_align(value_size);
}

uint64_t layout_dict_bytes(uint64_t capacity, uint64_t key_size, uint64_t value_size) {
  return layout_total(LAYOUT_HEADER_BYTES, capacity, layout_dict_slot_bytes(key_size, value_size));
}

uint64_t layout_dict_value_offset(uint64_t key_size) {
  if (!layout_size_ok(key_size)) return 0;
  return LAYOUT_STATE_BYTES + layout_align(key_size);
}

uint64_t layout_collection_bytes(layout_kind kind, uint64_t capacity, uint64_t element_size,
                                 uint64_t value_size) {
  switch (kind) {
  case LAYOUT_ARRAY: return layout_array_bytes(capacity, element_size);
  case LAYOUT_LIST:
  case LAYOUT_QUEUE:
  case LAYOUT_STACK: return layout_sequence_bytes(capacity, element_size);
  case LAYOUT_HASHSET: return layout_set_bytes(capacity, element_size);
  case LAYOUT_DICT: return layout_dict_bytes(capacity, element_size, value_size);
  case LAYOUT_KIND_COUNT: break;
  }
  return 0;
}

const char *layout_check(layout_kind kind, uint64_t capacity, uint64_t element_size,
                         uint64_t value_size) {
  if ((unsigned)kind >= (unsigned)LAYOUT_KIND_COUNT) return "unknown collection kind";
  if (capacity == 0 || capacity > LAYOUT_MAX_CAPACITY)
    return "capacity must be between 1 and 2147483647";
  if (!layout_size_ok(element_size))
    return kind == LAYOUT_DICT ? "key size must be between 1 and 1073741824 bytes"
                               : "element size must be between 1 and 1073741824 bytes";
  if (kind == LAYOUT_DICT && value_size > LAYOUT_MAX_ELEMENT_SIZE)
    return "value size must be at most 1073741824 bytes";
  if (layout_collection_bytes(kind, capacity, element_size, value_size) == 0)
    return "collection larger than 1073741823 bytes";
  return NULL;
}

static const char *const layout_names[LAYOUT_KIND_COUNT] = {
  "InlineArray", "InlineList", "InlineQueue", "InlineStack", "InlineHashSet", "InlineDictionary",
};

static const char *const layout_prefixes[LAYOUT_KIND_COUNT] = {
  "tl_inline_array", "tl_inline_list",    "tl_inline_queue",
  "tl_inline_stack", "tl_inline_hashset", "tl_inline_dict",
};

const char *layout_kind_name(layout_kind kind) {
  return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT ? layout_names[kind] : NULL;
}

const char *layout_kind_runtime_prefix(layout_kind kind) {
  return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT ? layout_prefixes[kind] : NULL;
}

bool layout_kind_from_name(const char *name, layout_kind *kind) {
  int i;
  if (!name) return false;
  for (i = 0; i < (int)LAYOUT_KIND_COUNT; i++) {
    if (strcmp(name, layout_names[i]) == 0) {
      if (kind) *kind = (layout_kind)i;
      return true;
    }
  }
  return false;
}

bool layout_kind_has_header(layout_kind kind) {
  return (unsigned)kind < (unsigned)LAYOUT_KIND_COUNT && kind != LAYOUT_ARRAY;
}

bool layout_kind_has_value(layout_kind kind) { return kind == LAYOUT_DICT; }

/* ---- table images: the runtime's insertion rule (mem_inline.h, tl__table_insert) ---- */

static uint64_t layout_load_le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  int i;
  for (i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static void layout_store_le(unsigned char *p, uint64_t v, int bytes) {
  int i;
  for (i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t layout_home(uint32_t hash, uint32_t capacity) {
  return (uint32_t)(((uint64_t)hash * capacity) >> 32);
}

bool layout_table_insert(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                         uint32_t value_size, const void *key, const void *value) {
  const size_t stride = (size_t)layout_dict_slot_bytes(key_size, value_size);
  unsigned char *const slots = mem + LAYOUT_HEADER_BYTES;
  const uint32_t hash = (uint32_t)XXH32(key, key_size, 0);
  const uint64_t want = ((uint64_t)hash << 32) | 1u;
  uint32_t index, distance, count;
  int displace = 0;
  unsigned char *slot;
  if (!mem || !key || stride == 0 || capacity == 0 || capacity > LAYOUT_MAX_CAPACITY) return false;
  count = (uint32_t)layout_load_le(mem, 4);
  index = layout_home(hash, capacity);
  /* Walk from home: stop at a free slot, or before an entry closer to its home than this key
   * would be (the Robin Hood insertion point); a present key is refused on the way. */
  for (distance = 0; distance < capacity; distance++) {
    const unsigned char *at = slots + (size_t)index * stride;
    const uint64_t state = layout_load_le(at, 8);
    uint32_t home, resident;
    if ((state & 0xFFu) != 1u) break;
    if (state == want && memcmp(at + LAYOUT_STATE_BYTES, key, key_size) == 0) return false;
    home = layout_home((uint32_t)(state >> 32), capacity);
    resident = index >= home ? index - home : index + (capacity - home);
    if (resident < distance) {
      displace = 1;
      break;
    }
    index = index + 1 == capacity ? 0 : index + 1;
  }
  if (distance == capacity || count >= capacity) return false;
  if (displace) { /* the rest of the run moves one slot on, up to the next free slot */
    uint32_t end = index, j, steps;
    for (steps = 1; steps < capacity; steps++) {
      end = end + 1 == capacity ? 0 : end + 1;
      if ((slots[(size_t)end * stride] & 0xFFu) != 1u) break;
    }
    if (steps == capacity) return false; /* the count said there was room, no slot is free */
    for (j = end; j != index;) {
      uint32_t prev = j == 0 ? capacity - 1 : j - 1;
      memcpy(slots + (size_t)j * stride, slots + (size_t)prev * stride, stride);
      j = prev;
    }
  }
  slot = slots + (size_t)index * stride;
  memset(slot, 0, stride);
  layout_store_le(slot, want, 8);
  memcpy(slot + LAYOUT_STATE_BYTES, key, key_size);
  if (value && value_size) memcpy(slot + layout_dict_value_offset(key_size), value, value_size);
  layout_store_le(mem, count + 1, 4);
  return true;
}
