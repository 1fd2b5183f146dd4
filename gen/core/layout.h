/* gen/core/layout.h - byte layout of inline collections, as the generator computes it.
 *
 * The runtime's TL_LAYOUT_* macros (runtime/threadlink/mem.h) and these functions must agree on
 * every size: a vault schema that declares an InlineList of 16 Vector3D is emitted as a field of
 * layout_sequence_bytes(16, 24) bytes, and the generated header statically asserts that this equals
 * TL_LAYOUT_SEQUENCE_BYTES(16, sizeof(tl_fpv3)). tests/mem/test_mem_layout.c checks the two over a
 * table of capacities and element sizes.
 *
 * The rules (the runtime's documentation in mem.h is the reference):
 *   - every header, slot and value starts on an 8-byte boundary: layout_align rounds up to 8;
 *   - a list, queue, stack, hash set or dictionary starts with an 8-byte header (count; a queue
 *     also its head); an array has none;
 *   - array, list, queue and stack elements follow one another every layout_align(size) bytes;
 *   - a hash set or dictionary is its header, then two arrays of one byte per slot, each padded
 *     to 8 (control: 0 empty, else 1 + the entry's distance from its home slot, 255 for 254 and
 *     more; fragment: the low byte of the key's XXH32), then its slots: the key, then the value.
 *
 * Sizes are computed in 64 bits. Every function returns 0 for arguments the runtime would refuse
 * (capacity 0 or above LAYOUT_MAX_CAPACITY, element or key size 0 or above
 * LAYOUT_MAX_ELEMENT_SIZE, a total that does not fit LAYOUT_MAX_BYTES), so 0 always means invalid:
 * no valid collection has 0 bytes. layout_check explains why.
 */
#ifndef THREADLINK_GEN_LAYOUT_H
#define THREADLINK_GEN_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define LAYOUT_ALIGNMENT 8u
#define LAYOUT_HEADER_BYTES 8u
#define LAYOUT_MAX_CAPACITY 0x7FFFFFFFu     /* = TL_INLINE_MAX_CAPACITY */
#define LAYOUT_MAX_ELEMENT_SIZE 0x40000000u /* = TL_INLINE_MAX_ELEMENT_SIZE */
/* The largest collection the generator emits: the runtime's limit on 32-bit targets
 * (TL_MEM_MAX_BYTES there), so that a schema is portable to every target. */
#define LAYOUT_MAX_BYTES ((uint64_t)0x3FFFFFFFu)

/* The collection kinds, in the order and spelling of vault schemas. */
typedef enum layout_kind {
    LAYOUT_ARRAY,
    LAYOUT_LIST,
    LAYOUT_QUEUE,
    LAYOUT_STACK,
    LAYOUT_HASHSET,
    LAYOUT_DICT,
    LAYOUT_KIND_COUNT
} layout_kind;

uint64_t layout_align(uint64_t size);

uint64_t layout_array_bytes(uint64_t capacity, uint64_t element_size);
uint64_t layout_sequence_bytes(uint64_t capacity, uint64_t element_size);
/* Bytes of a set's or dictionary's control and fragment arrays, and where its slots start. */
uint64_t layout_table_control_bytes(uint64_t capacity);
uint64_t layout_table_slots_offset(uint64_t capacity);
uint64_t layout_set_slot_bytes(uint64_t element_size);
uint64_t layout_set_bytes(uint64_t capacity, uint64_t element_size);
uint64_t layout_dict_slot_bytes(uint64_t key_size, uint64_t value_size);
uint64_t layout_dict_bytes(uint64_t capacity, uint64_t key_size, uint64_t value_size);
/* Offset of the value inside a dictionary slot (the key is at 0). */
uint64_t layout_dict_value_offset(uint64_t key_size);

/* Bytes of any kind: value_size is used by LAYOUT_DICT only (and may be 0 there). */
uint64_t layout_collection_bytes(layout_kind kind, uint64_t capacity, uint64_t element_size, uint64_t value_size);

/* Bakes one entry into a hash set or dictionary table image (`mem` holds
 * layout_dict_bytes(capacity, key_size, value_size) bytes, zeroed to start with) exactly as the
 * runtime's tl_inline_dict_try_add / tl_inline_hashset_add would: the home slot is
 * (XXH32(key) * capacity) >> 32, the slot's control byte 1 + its distance from home (255 from 254
 * on), its fragment byte XXH32(key) & 0xFF, and runs are kept in Robin Hood order (by home
 * slot, equal homes in insertion order). value may be NULL (zeroed) and must be NULL or ignored
 * when value_size is 0. Returns false, changing nothing, when the key is already present or the
 * table is full. tests/mem proves the bytes equal the runtime's. */
bool layout_table_insert(unsigned char *mem, uint32_t capacity, uint32_t key_size, uint32_t value_size, const void *key,
                         const void *value);

/* NULL when the runtime accepts these arguments, else a message for a diagnostic
 * ("capacity must be between 1 and 2147483647", ...). */
const char *layout_check(layout_kind kind, uint64_t capacity, uint64_t element_size, uint64_t value_size);

/* Vault schema spelling ("InlineArray" ... "InlineDictionary") and runtime prefix
 * ("tl_inline_array" ... "tl_inline_dict"). */
const char *layout_kind_name(layout_kind kind);
const char *layout_kind_runtime_prefix(layout_kind kind);
/* Parses a vault schema spelling (exact, case-sensitive); false when unknown. */
bool layout_kind_from_name(const char *name, layout_kind *kind);
/* Whether the kind has a count header (all but arrays) / a value per entry (dictionaries). */
bool layout_kind_has_header(layout_kind kind);
bool layout_kind_has_value(layout_kind kind);

#endif /* THREADLINK_GEN_LAYOUT_H */
