/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/collections.h -- inline collections: views over a fixed number of slots in your memory.

   WHAT
   ----
   A view holds only a pointer to caller memory, a capacity and element sizes. Everything else
   (counts, the queue's head, the elements) lives in that memory, in the exact layout described in
   mem.h (TL_LAYOUT_*), so the memory can be copied, hashed, saved or rolled back freely and a
   view made over the copy sees the same collection. Zeroed memory is an empty collection.

     kind      bytes                                   operations
     array     TL_LAYOUT_ARRAY_BYTES(length, size)     length slots always present: at, get, set, clear
     list      TL_LAYOUT_SEQUENCE_BYTES(cap, size)     count, at, add, add_zeroed, remove_at (moves the
                                                       last element into the gap), clear
     queue     TL_LAYOUT_SEQUENCE_BYTES(cap, size)     FIFO ring: enqueue, dequeue, peek, at, clear
     stack     TL_LAYOUT_SEQUENCE_BYTES(cap, size)     push, pop, peek, at, clear
     hashset   TL_LAYOUT_SET_BYTES(cap, size)          contains, add, remove, settle, clear, iterate
     dict      TL_LAYOUT_DICT_BYTES(cap, ksize, vsize) contains_key, try_get, get (pointer), try_add,
                                                       get_or_add, set, remove, settle, clear,
                                                       iterate

   Making a view: tl_inline_<kind>_view(mem, capacity, sizes...). The memory must be 8-byte aligned
   and hold the bytes above; capacity is 1..TL_INLINE_MAX_CAPACITY and element/key sizes are
   1..TL_INLINE_MAX_ELEMENT_SIZE (a dictionary's value size may be 0). Bad arguments give an
   invalid view (tl_inline_<kind>_valid is false) on which every operation fails harmlessly.

   INCLUDE
   -------
       #include <threadlink/collections.h>   (no implementation switch: everything is static inline)
   It includes mem.h (the layout macros, the hashes). No allocation, no global state.

   RULES
   -----
   Errors: adding to a full collection, removing from an empty one or indexing past the count
   returns false / NULL / TL_INLINE_FULL and changes nothing; nothing ever writes outside the
   collection's bytes. These are answers, not failures (docs/errors.md): no logger, no log line.
   The _ex adds return tl_inline_result (TL_INLINE_RESULTS, tl_inline_result_message). Counts read from memory are clamped to the capacity, so even corrupted
   memory cannot send an operation out of bounds.

   Determinism: element order depends only on the operations performed, and slots that an
   operation vacates are zeroed (a hash table's last removal keeps its bytes until it is finished,
   see below), so the same operations give the same bytes on every machine.
   A dequeue that empties a queue resets its head to 0.

   Elements are raw bytes. Keys are hashed (XXH32, seed 0) and compared as raw bytes, never
   through anything that differs between machines. So give element, key and value types no implicit
   padding (declare explicit padding members and zero them): copying a struct need not copy its
   padding, and stray padding bytes would change both lookups and frame hashes.

   Hash sets and dictionaries: open addressing with linear probing over the fixed table (capacity
   is the table size, not a number of buckets). The home slot of a key is
   (tl_hash32(key) * capacity) >> 32. Entries of a run are kept in order of their home slot, equal
   homes in insertion order (Robin Hood order), which lets a lookup for an absent key stop early.
   Each slot's distance from its home and the low byte of its key's hash sit in two byte arrays
   before the slots (mem.h), so a lookup reads them for sixteen slots at once (SSE2 or NEON; eight
   in a 64-bit word elsewhere) and compares keys only where both fit: a miss seldom reads a slot at
   all. Removal moves the following displaced entries back by one slot (backward-shift deletion),
   so no marker is left to fill the table: churn never fills or slows it (the cost of an operation
   depends on the load, never on how many keys came and went). The last removal's move waits for
   the next add or remove: its entry stays in its slot, flagged in the header, and an add that
   passes or reaches that slot takes it, so removing a key and adding it back, or adding a key
   near it, moves little or nothing. Every step leaves each entry where moving at once would have,
   so once the pending removal is finished (by the next remove, an add that needs its slot, or
   tl_inline_dict_settle) a table holds exactly the bytes it would hold had the removed keys never
   been added.

   Recommended load (count / capacity): at most 0.75 for tables that change often, at most 0.9 for
   tables that are mostly read. A table may be filled to its capacity, but a fuller table probes
   further, and every add or remove moves the rest of its run by one slot: a removal moves about
   1 entry at load 0.5, 6 at 0.75 and 33 at 0.9 (an insertion 2, 9 and 41). Measured on a
   1,024-slot int64 table (tests/bench/mem/RESULTS.md, one run, SSE2): hits 5 / 6 / 6 ns, misses
   5 / 5 / 6 ns, removing a key and adding a new one 46 / 69 / 99 ns, and removing a key and
   adding it back 31 / 34 / 36 ns at those loads. Headroom costs less than growth does: 921 int64
   pairs in 2,048 slots take 36,872 bytes, where stb_ds takes 49,288.

   Pointers returned by at/get/peek/get_or_add point into the collection; any later operation
   that adds or removes may move elements, so re-fetch them afterwards.

   Iteration:
     array, list, stack:  for (i = 0; i < count; i++) at(i)  (stack: 0 is the bottom). To remove
                          during a list walk, call remove_at(i) and do not advance i (the last
                          element moved into slot i).
     queue:               at(i), i = 0 is the oldest element.
     hashset, dict:       tl_inline_iter it = tl_inline_dict_iter(d);
                          while (tl_inline_dict_next(d, &it, &key, &value)) {
                              if (expired(value)) tl_inline_dict_iter_remove(d, &it);
                          }
                          Every element present when the walk starts is visited exactly once,
                          also when tl_inline_*_iter_remove removes the current one. Removing any
                          other key, or adding, during the walk may skip or repeat elements.
                          The order is slot order starting at a run boundary, so it too depends
                          only on the bytes.

   USE
   ---
   Typed wrappers: TL_INLINE_ARRAY_TYPE(name, T), TL_INLINE_LIST_TYPE, TL_INLINE_QUEUE_TYPE,
   TL_INLINE_STACK_TYPE, TL_INLINE_HASHSET_TYPE(name, K) and TL_INLINE_DICT_TYPE(name, K, V)
   define a view type `name` (pointer and capacity only) with type-checked functions name_view,
   name_add, name_get ... whose sizes are compile-time constants, so hashing and comparison of 4- and
   8-byte keys inline completely, and a read-only view type `name_const` over const memory
   (name_const_view, name_as_const) with the reading functions: name_const_count, name_const_at,
   name_const_get, name_const_try_get, name_const_contains, name_const_iter/next ... Generated vault
   accessors call the same functions (a const vault's collection getter gives the read-only view).
*/
#ifndef TL_COLLECTIONS_H
#define TL_COLLECTIONS_H

#include "mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Result of adding to a hash set or dictionary (docs/errors.md's table form): TL_INLINE_OK (0)
   added, the collection changed; otherwise nothing changed. */
#define TL_INLINE_RESULTS(X) \
    X(EXISTS, "the key was already present") \
    X(FULL, "the collection is full (count == capacity)") \
    X(INVALID, "invalid view")

typedef enum tl_inline_result {
    TL_INLINE_OK = 0,
#define TL__INLINE_RESULT_ENUM(id, message) TL_INLINE_##id,
    TL_INLINE_RESULTS(TL__INLINE_RESULT_ENUM)
#undef TL__INLINE_RESULT_ENUM
        TL_INLINE_RESULT_END_
} tl_inline_result;

/* log.h's TL_RESULT_MESSAGE_FN, written out static inline: collections.h is core. */
#define TL__INLINE_RESULT_MESSAGE(id, message) message,
static inline const char *tl_inline_result_message(tl_inline_result result) {
    static const char *const messages[] = { "ok", TL_INLINE_RESULTS(TL__INLINE_RESULT_MESSAGE) };
    return (size_t)result < sizeof messages / sizeof messages[0] ? messages[result]
                                                                 : "unknown result";
}

/* Iteration state for hash sets and dictionaries. */
typedef struct tl_inline_iter {
    uint32_t start;   /* first slot of the walk: a run boundary */
    uint32_t next;    /* next slot to examine */
    uint32_t left;    /* slots not yet examined */
    uint32_t current; /* slot of the element last returned, or TL_INLINE_NONE */
} tl_inline_iter;

#define TL_INLINE_NONE 0xFFFFFFFFu

/* ---------------------------------------------------------------------------------------------
 * Shared checks
 * ------------------------------------------------------------------------------------------- */

TL__MEM_FORCE_INLINE bool tl__inline_memory_ok(const void *mem) {
    return mem != NULL && ((uintptr_t)mem & (uintptr_t)7) == 0;
}

TL__MEM_FORCE_INLINE bool tl__inline_size_ok(uint32_t size) {
    return size >= 1 && size <= TL_INLINE_MAX_ELEMENT_SIZE;
}

static inline bool tl__inline_bytes_ok(uint32_t capacity, uint64_t stride, uint64_t header) {
    return capacity >= 1 && capacity <= TL_INLINE_MAX_CAPACITY &&
           header + (uint64_t)capacity * stride <= (uint64_t)TL_MEM_MAX_BYTES;
}

/* Const memory handed to code that takes writable memory but only reads it (the typed read-only
 * views): through an integer, so that no qualifier is cast away in the caller's file. */
static inline unsigned char *tl__inline_reader(const void *mem) {
    return (unsigned char *)(uintptr_t)mem;
}

/* Count stored in a header, clamped to the capacity. */
TL__MEM_FORCE_INLINE uint32_t tl__inline_count(const unsigned char *mem, uint32_t capacity) {
    uint32_t count = tl__mem_load_le32(mem);
    return count <= capacity ? count : capacity;
}

/* ---------------------------------------------------------------------------------------------
 * Array: `length` slots always present, no header.
 * ------------------------------------------------------------------------------------------- */

typedef struct tl_inline_array {
    unsigned char *mem;
    uint32_t length;
    uint32_t element_size;
} tl_inline_array;

static inline tl_inline_array tl_inline_array_view(void *mem, uint32_t length,
                                                   uint32_t element_size) {
    tl_inline_array a;
    a.mem = NULL;
    a.length = 0;
    a.element_size = 0;
    if (tl__inline_memory_ok(mem) && tl__inline_size_ok(element_size) &&
        tl__inline_bytes_ok(length, TL_LAYOUT_ALIGN(element_size), 0)) {
        a.mem = (unsigned char *)mem;
        a.length = length;
        a.element_size = element_size;
    }
    return a;
}

static inline bool tl_inline_array_valid(tl_inline_array a) { return a.mem != NULL; }
static inline uint32_t tl_inline_array_length(tl_inline_array a) { return a.mem ? a.length : 0; }

TL__MEM_FORCE_INLINE void *tl__array_at(unsigned char *mem, uint32_t length, uint32_t element_size,
                                        uint32_t index) {
    if (!mem || index >= length) return NULL;
    return mem + (size_t)index * TL_LAYOUT_ALIGN(element_size);
}

/* The element at `index`, or NULL past the length. */
static inline void *tl_inline_array_at(tl_inline_array a, uint32_t index) {
    return tl__array_at(a.mem, a.length, a.element_size, index);
}

static inline bool tl_inline_array_get(tl_inline_array a, uint32_t index, void *out) {
    const void *p = tl_inline_array_at(a, index);
    if (!p || !out) return false;
    memcpy(out, p, a.element_size);
    return true;
}

static inline bool tl_inline_array_set(tl_inline_array a, uint32_t index, const void *value) {
    void *p = tl_inline_array_at(a, index);
    if (!p || !value) return false;
    memcpy(p, value, a.element_size);
    return true;
}

/* Zeroes every slot. */
static inline void tl_inline_array_clear(tl_inline_array a) {
    if (a.mem) memset(a.mem, 0, TL_LAYOUT_ARRAY_BYTES(a.length, a.element_size));
}

/* ---------------------------------------------------------------------------------------------
 * Sequences: list, queue, stack. Header: count (bytes 0-3), queue head (bytes 4-7).
 * ------------------------------------------------------------------------------------------- */

typedef struct tl_inline_list {
    unsigned char *mem;
    uint32_t capacity;
    uint32_t element_size;
} tl_inline_list;

typedef struct tl_inline_queue {
    unsigned char *mem;
    uint32_t capacity;
    uint32_t element_size;
} tl_inline_queue;

typedef struct tl_inline_stack {
    unsigned char *mem;
    uint32_t capacity;
    uint32_t element_size;
} tl_inline_stack;

static inline bool tl__sequence_args_ok(const void *mem, uint32_t capacity, uint32_t element_size) {
    return tl__inline_memory_ok(mem) && tl__inline_size_ok(element_size) &&
           tl__inline_bytes_ok(capacity, TL_LAYOUT_ALIGN(element_size), TL_LAYOUT_HEADER_BYTES);
}

TL__MEM_FORCE_INLINE unsigned char *tl__sequence_slot(unsigned char *mem, uint32_t element_size,
                                                      uint32_t slot) {
    return mem + TL_LAYOUT_HEADER_BYTES + (size_t)slot * TL_LAYOUT_ALIGN(element_size);
}

/* Copies one element in (value may be NULL: zeroes) and zeroes its padding up to the stride. */
TL__MEM_FORCE_INLINE void tl__sequence_write(unsigned char *slot, uint32_t element_size,
                                             const void *value) {
    if (value) {
        memcpy(slot, value, element_size);
        if (TL_LAYOUT_ALIGN(element_size) != element_size)
            memset(slot + element_size, 0, TL_LAYOUT_ALIGN(element_size) - element_size);
    } else {
        memset(slot, 0, TL_LAYOUT_ALIGN(element_size));
    }
}

/* Whole bytes of a sequence, header included. */
TL__MEM_FORCE_INLINE void tl__sequence_clear(unsigned char *mem, uint32_t capacity,
                                             uint32_t element_size) {
    if (mem) memset(mem, 0, TL_LAYOUT_SEQUENCE_BYTES(capacity, element_size));
}

/* --- list --- */

static inline tl_inline_list tl_inline_list_view(void *mem, uint32_t capacity,
                                                 uint32_t element_size) {
    tl_inline_list l;
    bool ok = tl__sequence_args_ok(mem, capacity, element_size);
    l.mem = ok ? (unsigned char *)mem : NULL;
    l.capacity = ok ? capacity : 0;
    l.element_size = ok ? element_size : 0;
    return l;
}

static inline bool tl_inline_list_valid(tl_inline_list l) { return l.mem != NULL; }
static inline uint32_t tl_inline_list_capacity(tl_inline_list l) { return l.mem ? l.capacity : 0; }

TL__MEM_FORCE_INLINE uint32_t tl__list_count(unsigned char *mem, uint32_t capacity) {
    return mem ? tl__inline_count(mem, capacity) : 0;
}

TL__MEM_FORCE_INLINE void *tl__list_at(unsigned char *mem, uint32_t capacity, uint32_t element_size,
                                       uint32_t index) {
    if (index >= tl__list_count(mem, capacity)) return NULL;
    return tl__sequence_slot(mem, element_size, index);
}

/* Appends a copy of *value (NULL: a zeroed element); returns a pointer to it, NULL when full. */
TL__MEM_FORCE_INLINE void *tl__list_add(unsigned char *mem, uint32_t capacity,
                                        uint32_t element_size, const void *value) {
    uint32_t count;
    unsigned char *slot;
    if (!mem) return NULL;
    count = tl__inline_count(mem, capacity);
    if (count >= capacity) return NULL;
    slot = tl__sequence_slot(mem, element_size, count);
    tl__sequence_write(slot, element_size, value);
    tl__mem_store_le32(mem, count + 1);
    return slot;
}

TL__MEM_FORCE_INLINE bool tl__list_remove_at(unsigned char *mem, uint32_t capacity,
                                             uint32_t element_size, uint32_t index) {
    uint32_t count = tl__list_count(mem, capacity);
    size_t stride = TL_LAYOUT_ALIGN(element_size);
    if (index >= count) return false;
    if (index != count - 1)
        memcpy(tl__sequence_slot(mem, element_size, index),
               tl__sequence_slot(mem, element_size, count - 1), stride);
    memset(tl__sequence_slot(mem, element_size, count - 1), 0, stride);
    tl__mem_store_le32(mem, count - 1);
    return true;
}

static inline uint32_t tl_inline_list_count(tl_inline_list l) {
    return tl__list_count(l.mem, l.capacity);
}
/* The element at `index` (< count), or NULL. */
static inline void *tl_inline_list_at(tl_inline_list l, uint32_t index) {
    return tl__list_at(l.mem, l.capacity, l.element_size, index);
}
/* Appends a copy of *value; false when full or invalid. */
static inline bool tl_inline_list_add(tl_inline_list l, const void *value) {
    return value != NULL && tl__list_add(l.mem, l.capacity, l.element_size, value) != NULL;
}
/* Appends a zeroed element and returns it; NULL when full or invalid. */
static inline void *tl_inline_list_add_zeroed(tl_inline_list l) {
    return tl__list_add(l.mem, l.capacity, l.element_size, NULL);
}
/* Removes the element at `index`, moving the last element into the gap; false past the count. */
static inline bool tl_inline_list_remove_at(tl_inline_list l, uint32_t index) {
    return tl__list_remove_at(l.mem, l.capacity, l.element_size, index);
}
static inline void tl_inline_list_clear(tl_inline_list l) {
    tl__sequence_clear(l.mem, l.capacity, l.element_size);
}

/* --- queue --- */

static inline tl_inline_queue tl_inline_queue_view(void *mem, uint32_t capacity,
                                                   uint32_t element_size) {
    tl_inline_queue q;
    bool ok = tl__sequence_args_ok(mem, capacity, element_size);
    q.mem = ok ? (unsigned char *)mem : NULL;
    q.capacity = ok ? capacity : 0;
    q.element_size = ok ? element_size : 0;
    return q;
}

static inline bool tl_inline_queue_valid(tl_inline_queue q) { return q.mem != NULL; }
static inline uint32_t tl_inline_queue_capacity(tl_inline_queue q) {
    return q.mem ? q.capacity : 0;
}

TL__MEM_FORCE_INLINE uint32_t tl__queue_head(const unsigned char *mem, uint32_t capacity) {
    uint32_t head = tl__mem_load_le32(mem + 4);
    return head < capacity ? head : 0;
}

/* Slot of the element `index` places after the head. */
TL__MEM_FORCE_INLINE uint32_t tl__queue_slot(uint32_t head, uint32_t index, uint32_t capacity) {
    uint32_t slot = head + index; /* head < capacity and index <= capacity: no wrap of uint32 */
    return slot >= capacity ? slot - capacity : slot;
}

TL__MEM_FORCE_INLINE bool tl__queue_enqueue(unsigned char *mem, uint32_t capacity,
                                            uint32_t element_size, const void *value) {
    uint32_t count, head;
    if (!mem) return false;
    count = tl__inline_count(mem, capacity);
    if (count >= capacity) return false;
    head = tl__queue_head(mem, capacity);
    tl__sequence_write(tl__sequence_slot(mem, element_size, tl__queue_slot(head, count, capacity)),
                       element_size, value);
    tl__mem_store_le32(mem, count + 1);
    return true;
}

TL__MEM_FORCE_INLINE bool tl__queue_dequeue(unsigned char *mem, uint32_t capacity,
                                            uint32_t element_size, void *out) {
    uint32_t count, head;
    unsigned char *slot;
    if (!mem) return false;
    count = tl__inline_count(mem, capacity);
    if (count == 0) return false;
    head = tl__queue_head(mem, capacity);
    slot = tl__sequence_slot(mem, element_size, head);
    if (out) memcpy(out, slot, element_size);
    memset(slot, 0, TL_LAYOUT_ALIGN(element_size));
    head = count == 1 ? 0 : (head + 1 == capacity ? 0 : head + 1);
    tl__mem_store_le32(mem, count - 1);
    tl__mem_store_le32(mem + 4, head);
    return true;
}

TL__MEM_FORCE_INLINE void *tl__queue_at(unsigned char *mem, uint32_t capacity,
                                        uint32_t element_size, uint32_t index) {
    if (!mem || index >= tl__inline_count(mem, capacity)) return NULL;
    return tl__sequence_slot(mem, element_size,
                             tl__queue_slot(tl__queue_head(mem, capacity), index, capacity));
}

static inline uint32_t tl_inline_queue_count(tl_inline_queue q) {
    return q.mem ? tl__inline_count(q.mem, q.capacity) : 0;
}
/* Adds a copy of *value at the back; false when full or invalid. */
static inline bool tl_inline_queue_enqueue(tl_inline_queue q, const void *value) {
    return value != NULL && tl__queue_enqueue(q.mem, q.capacity, q.element_size, value);
}
/* Removes the front element, copying it to *out unless out is NULL; false when empty. */
static inline bool tl_inline_queue_dequeue(tl_inline_queue q, void *out) {
    return tl__queue_dequeue(q.mem, q.capacity, q.element_size, out);
}
/* The front element, or NULL when empty. */
static inline void *tl_inline_queue_peek(tl_inline_queue q) {
    return tl__queue_at(q.mem, q.capacity, q.element_size, 0);
}
/* The element `index` places behind the front (0 = front), or NULL. */
static inline void *tl_inline_queue_at(tl_inline_queue q, uint32_t index) {
    return tl__queue_at(q.mem, q.capacity, q.element_size, index);
}
static inline void tl_inline_queue_clear(tl_inline_queue q) {
    tl__sequence_clear(q.mem, q.capacity, q.element_size);
}

/* --- stack --- */

static inline tl_inline_stack tl_inline_stack_view(void *mem, uint32_t capacity,
                                                   uint32_t element_size) {
    tl_inline_stack s;
    bool ok = tl__sequence_args_ok(mem, capacity, element_size);
    s.mem = ok ? (unsigned char *)mem : NULL;
    s.capacity = ok ? capacity : 0;
    s.element_size = ok ? element_size : 0;
    return s;
}

static inline bool tl_inline_stack_valid(tl_inline_stack s) { return s.mem != NULL; }
static inline uint32_t tl_inline_stack_capacity(tl_inline_stack s) {
    return s.mem ? s.capacity : 0;
}

TL__MEM_FORCE_INLINE bool tl__stack_pop(unsigned char *mem, uint32_t capacity,
                                        uint32_t element_size, void *out) {
    uint32_t count;
    unsigned char *slot;
    if (!mem) return false;
    count = tl__inline_count(mem, capacity);
    if (count == 0) return false;
    slot = tl__sequence_slot(mem, element_size, count - 1);
    if (out) memcpy(out, slot, element_size);
    memset(slot, 0, TL_LAYOUT_ALIGN(element_size));
    tl__mem_store_le32(mem, count - 1);
    return true;
}

TL__MEM_FORCE_INLINE void *tl__stack_peek(unsigned char *mem, uint32_t capacity,
                                          uint32_t element_size) {
    uint32_t count = tl__list_count(mem, capacity);
    return count ? tl__sequence_slot(mem, element_size, count - 1) : NULL;
}

static inline uint32_t tl_inline_stack_count(tl_inline_stack s) {
    return tl__list_count(s.mem, s.capacity);
}
/* Pushes a copy of *value; false when full or invalid. */
static inline bool tl_inline_stack_push(tl_inline_stack s, const void *value) {
    return value != NULL && tl__list_add(s.mem, s.capacity, s.element_size, value) != NULL;
}
/* Pops the top element, copying it to *out unless out is NULL; false when empty. */
static inline bool tl_inline_stack_pop(tl_inline_stack s, void *out) {
    return tl__stack_pop(s.mem, s.capacity, s.element_size, out);
}
/* The top element, or NULL when empty. */
static inline void *tl_inline_stack_peek(tl_inline_stack s) {
    return tl__stack_peek(s.mem, s.capacity, s.element_size);
}
/* The element at `index` from the bottom (0 = bottom), or NULL. */
static inline void *tl_inline_stack_at(tl_inline_stack s, uint32_t index) {
    return tl__list_at(s.mem, s.capacity, s.element_size, index);
}
static inline void tl_inline_stack_clear(tl_inline_stack s) {
    tl__sequence_clear(s.mem, s.capacity, s.element_size);
}

/* ---------------------------------------------------------------------------------------------
 * Hash tables: the engine shared by hashset (value_size 0) and dict.
 *
 * Bytes (see mem.h): an 8-byte header (count), the control array and the fragment array (one
 * byte per slot each, padded to 8), then the slots, stride = TL_LAYOUT_DICT_SLOT_BYTES(k, v): key,
 * then value. Control byte: 0 = empty; d + 1 for an entry d slots past its home (d <= 253);
 * 255 = d >= 254, whose exact distance comes from hashing its key (only very full or adversarial
 * tables have such entries). Fragment byte: tl_hash32(key) & 0xFF. Keeping both out of the slots
 * lets a lookup decide from 16 bytes in two cache lines which slots can hold its key, so a miss
 * seldom reads a slot, and makes a slot 8 bytes smaller than a state word would.
 * Invariants (checked by the tests): the control and fragment bytes match XXH32 of the slot's key;
 * the slots from an entry's home to the entry are occupied; along a run, distance from home grows
 * by at most one per slot (Robin Hood order), equal homes in insertion order; empty slots are zero.
 * ------------------------------------------------------------------------------------------- */

#define TL__TABLE_SATURATED 255u

TL__MEM_FORCE_INLINE size_t tl__table_stride(uint32_t key_size, uint32_t value_size) {
    return TL_LAYOUT_DICT_SLOT_BYTES(key_size, value_size);
}

TL__MEM_FORCE_INLINE unsigned char *tl__table_control(unsigned char *mem) {
    return mem + TL_LAYOUT_HEADER_BYTES;
}

/* Low byte of each occupied slot's key hash: a lookup compares keys only where it matches. */
TL__MEM_FORCE_INLINE unsigned char *tl__table_fragments(unsigned char *mem, uint32_t capacity) {
    return mem + TL_LAYOUT_HEADER_BYTES + TL_LAYOUT_ALIGN(capacity);
}

TL__MEM_FORCE_INLINE unsigned char *tl__table_slot(unsigned char *mem, uint32_t capacity,
                                                   size_t stride, uint32_t i) {
    return mem + TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity) + (size_t)i * stride;
}

/* Home slot of a hash: a multiply-shift range reduction (no division, any capacity). */
TL__MEM_FORCE_INLINE uint32_t tl__table_home(uint32_t hash, uint32_t capacity) {
    return (uint32_t)(((uint64_t)hash * capacity) >> 32);
}

/* XXH32 of a key, seed 0; the usual key sizes take the unrolled paths. */
TL__MEM_FORCE_INLINE uint32_t tl__table_hash(const void *key, uint32_t key_size) {
    if (key_size == 4) return tl_hash32_4(key, 0);
    if (key_size == 8) return tl_hash32_8(key, 0);
    return tl_hash32(key, key_size, 0);
}

TL__MEM_FORCE_INLINE bool tl__table_key_equal(const unsigned char *stored, const void *key,
                                              uint32_t key_size) {
    if (key_size == 4) {
        uint32_t a, b;
        memcpy(&a, stored, 4);
        memcpy(&b, key, 4);
        return a == b;
    }
    if (key_size == 8) {
        uint64_t a, b;
        memcpy(&a, stored, 8);
        memcpy(&b, key, 8);
        return a == b;
    }
    return memcmp(stored, key, key_size) == 0;
}

/* Control byte of an entry `distance` slots past its home. */
TL__MEM_FORCE_INLINE unsigned char tl__table_control_of(uint32_t distance) {
    return (unsigned char)(distance < TL__TABLE_SATURATED - 1u ? distance + 1u
                                                               : TL__TABLE_SATURATED);
}

TL__MEM_FORCE_INLINE uint32_t tl__table_next_index(uint32_t i, uint32_t capacity) {
    return i + 1 == capacity ? 0 : i + 1;
}

/* The slot `n` past slot `i`, and the slot `n` before it, wrapping (n < capacity). */
TL__MEM_FORCE_INLINE uint32_t tl__table_advance(uint32_t i, uint32_t n, uint32_t capacity) {
    return n < capacity - i ? i + n : n - (capacity - i);
}

TL__MEM_FORCE_INLINE uint32_t tl__table_back(uint32_t i, uint32_t n, uint32_t capacity) {
    return i >= n ? i - n : i + (capacity - n);
}

/* How many slots `to` lies past `from`, wrapping. */
TL__MEM_FORCE_INLINE uint32_t tl__table_gap(uint32_t from, uint32_t to, uint32_t capacity) {
    return to >= from ? to - from : to + (capacity - from);
}

/* Exact distance of the entry in occupied slot `i` from its home. */
static inline uint32_t tl__table_distance(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                          size_t stride, uint32_t i) {
    const unsigned char c = tl__table_control(mem)[i];
    uint32_t home;
    if (TL__MEM_LIKELY(c != TL__TABLE_SATURATED)) return (uint32_t)c - 1u;
    home = tl__table_home(tl__table_hash(tl__table_slot(mem, capacity, stride, i), key_size),
                          capacity);
    return tl__table_gap(home, i, capacity);
}

/* The pending removal (see "Removal" above tl__table_remove): header bytes 4-7 hold 1 + the slot
 * of the last removed entry while it still sits in its slot, 0 when none. Its fragment byte is
 * flipped, so that no probe takes it for its key, and its control byte and key stay as they were,
 * so that probes step over it as over any entry of its home. Foreign bytes that name a slot past
 * the table or an empty one name no pending removal. */
#define TL__TABLE_PENDING_FLIP 0x80u

TL__MEM_FORCE_INLINE uint32_t tl__table_pending(unsigned char *mem, uint32_t capacity) {
    const uint32_t stored = tl__mem_load_le32(mem + 4) - 1u;
    return stored < capacity && tl__table_control(mem)[stored] != 0 ? stored : TL_INLINE_NONE;
}

TL__MEM_FORCE_INLINE void tl__table_set_pending(unsigned char *mem, uint32_t index) {
    tl__mem_store_le32(mem + 4, index == TL_INLINE_NONE ? 0u : index + 1u);
}

/* Groups: the control (or fragment) bytes of TL__TABLE_GROUP consecutive slots, read at once.
 * With SSE2 (every x86-64 processor has it) or NEON (every 64-bit ARM one) a group is sixteen
 * slots in a vector register; elsewhere, or with TL_MEM_NO_SIMD defined, eight slots in a 64-bit
 * word. All answer every question alike, so a table's bytes never depend on which one ran (the
 * tests build each: NEON under qemu, tests/cross). A mask
 * flags lanes of a group; tl__table_mask_first gives the lowest flagged lane of a nonzero mask.
 * The probe questions take a `distance`: the distance from the key's home of the group's lane 0,
 * at most TL__TABLE_GROUPED_PROBE (so every compared byte stays below 128). */
#define TL__TABLE_GROUPED_PROBE 112u

/* Index of the lowest set bit of a nonzero mask without a compiler builtin (MSVC and others): the
 * lowest bit alone, times a de Bruijn sequence, puts a distinct 6-bit pattern in the top bits.
 * No loop: the word path's masks flag bit 7 of a byte, where a shifting loop takes 8 to 64 steps. */
TL__MEM_FORCE_INLINE uint32_t tl__table_ctz_portable(uint64_t mask) {
    static const unsigned char bit_of[64] = { 0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38,
                                              29, 17, 4,  62, 55, 59, 36, 53, 51, 43, 22, 45, 39,
                                              33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37,
                                              16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15,
                                              34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6 };
    return bit_of[((mask & (0 - mask)) * 0x03F79D71B4CB0A89ull) >> 58];
}

/* Index of the lowest set bit of a nonzero mask. */
TL__MEM_FORCE_INLINE uint32_t tl__table_ctz(uint64_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(mask);
#else
    return tl__table_ctz_portable(mask);
#endif
}

/* SSE2 (every x86-64 processor), through gcc's and clang's vector extensions: the compiler emits
 * the SSE2 instructions from plain operators, so no intrinsics header (thousands of lines) reaches
 * the including file; the one operation C cannot spell, the byte movemask, is their builtin. Other
 * compilers (MSVC) take the word path below. */
#if !defined(TL_MEM_NO_SIMD) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define TL__TABLE_SSE2 1
#endif

#ifdef TL__TABLE_SSE2

#define TL__TABLE_GROUP 16u
typedef unsigned char tl__table_group __attribute__((vector_size(16)));
typedef char tl__table_flags __attribute__((vector_size(16))); /* each byte 0 or -1 */
typedef uint32_t tl__table_mask;                               /* bit i: lane i */

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_load(const unsigned char *p) {
    tl__table_group g;
    memcpy(&g, p, sizeof g);
    return g;
}

TL__MEM_FORCE_INLINE void tl__table_group_store(unsigned char *p, tl__table_group g) {
    memcpy(p, &g, sizeof g);
}

TL__MEM_FORCE_INLINE uint32_t tl__table_mask_first(tl__table_mask mask) {
    return tl__table_ctz(mask);
}

/* The lanes of a comparison result (pmovmskb). */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_of(tl__table_flags flags) {
    return (tl__table_mask)__builtin_ia32_pmovmskb128(flags);
}

/* Every byte `byte`. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_splat(unsigned byte) {
    const tl__table_group zero = { 0 };
    return zero + (unsigned char)byte;
}

/* Byte i of the result: base + i. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_lanes(unsigned base) {
    const tl__table_group lanes = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    return lanes + (unsigned char)base;
}

/* Lanes whose control byte is at most `max` (0: empty; 1: empty or at its home). */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_at_most(tl__table_group control, unsigned max) {
    return tl__table_mask_of((tl__table_flags)(control <= tl__table_group_splat(max)));
}

/* Lanes holding an entry of the key's home (control byte distance + lane + 1) whose fragment
 * byte is the key's. */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_own(tl__table_group control,
                                                       tl__table_group fragments, uint32_t distance,
                                                       unsigned fragment) {
    return tl__table_mask_of((tl__table_flags)((control == tl__table_group_lanes(distance + 1u)) &
                                               (fragments == tl__table_group_splat(fragment))));
}

/* Lanes that end a probe: empty, or an entry nearer its home than the key would be. */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_stop(tl__table_group control,
                                                        uint32_t distance) {
    return tl__table_mask_of((tl__table_flags)(control <= tl__table_group_lanes(distance)));
}

/* All ones in lanes 0 .. lanes-1 (lanes <= 16). */
TL__MEM_FORCE_INLINE tl__table_group tl__table_lanes_mask(uint32_t lanes) {
    return (tl__table_group)(tl__table_group_lanes(0) < tl__table_group_splat(lanes));
}

/* Lanes 0 .. lanes-1 (lanes <= 16) of `control` that are saturated (255). */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_saturated(tl__table_group control,
                                                             uint32_t lanes) {
    const tl__table_mask full =
        tl__table_mask_of((tl__table_flags)(control == tl__table_group_splat(0xFF)));
    return full & (tl__table_mask)((1u << lanes) - 1u);
}

/* Control bytes 0 .. lanes-1 (lanes <= 16) one distance further from (up) or nearer to (down)
 * home; saturated bytes stay as they are. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_step(tl__table_group control, uint32_t lanes,
                                                          bool up) {
    const tl__table_group move =
        tl__table_lanes_mask(lanes) & ~(tl__table_group)(control == tl__table_group_splat(0xFF));
    return up ? control - move : control + move; /* move lanes are 0xFF: -1 */
}

/* Lanes 0 .. lanes-1 (lanes <= 16) from `low`, the others from `high`. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_blend(uint32_t lanes, tl__table_group low,
                                                           tl__table_group high) {
    const tl__table_group in = tl__table_lanes_mask(lanes);
    return (in & low) | (~in & high);
}

/* `g` with lane 0 replaced by `byte`. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_set_first(tl__table_group g, unsigned byte) {
    g[0] = (unsigned char)byte;
    return g;
}

#elif !defined(TL_MEM_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON) && \
    !defined(__AARCH64EB__)
/* 64-bit ARM: sixteen slots in a NEON register. NEON has no byte movemask; narrowing each 16-bit
 * lane by 4 packs a comparison into 64 bits, four per lane, and a mask keeps one of the four. */
#include <arm_neon.h>

#define TL__TABLE_GROUP 16u
typedef uint8x16_t tl__table_group;
typedef uint64_t tl__table_mask; /* bit 4i + 3: lane i */

#define TL__TABLE_NIBBLE_TOPS 0x8888888888888888ull

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_load(const unsigned char *p) {
    return vld1q_u8(p);
}

TL__MEM_FORCE_INLINE void tl__table_group_store(unsigned char *p, tl__table_group g) {
    vst1q_u8(p, g);
}

TL__MEM_FORCE_INLINE uint32_t tl__table_mask_first(tl__table_mask mask) {
    return tl__table_ctz(mask) >> 2;
}

/* The lanes of a comparison result (each byte all ones or all zeros). */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_of(uint8x16_t flags) {
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(flags), 4)), 0) &
           TL__TABLE_NIBBLE_TOPS;
}

/* Byte i of the result: base + i. */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_lanes(unsigned base) {
    static const uint8_t lanes[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    return vaddq_u8(vld1q_u8(lanes), vdupq_n_u8((uint8_t)base));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_at_most(tl__table_group control, unsigned max) {
    return tl__table_mask_of(vcleq_u8(control, vdupq_n_u8((uint8_t)max)));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_own(tl__table_group control,
                                                       tl__table_group fragments, uint32_t distance,
                                                       unsigned fragment) {
    return tl__table_mask_of(vandq_u8(vceqq_u8(control, tl__table_group_lanes(distance + 1u)),
                                      vceqq_u8(fragments, vdupq_n_u8((uint8_t)fragment))));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_stop(tl__table_group control,
                                                        uint32_t distance) {
    return tl__table_mask_of(vcleq_u8(control, tl__table_group_lanes(distance)));
}

/* All ones in lanes 0 .. lanes-1 (lanes <= 16). */
TL__MEM_FORCE_INLINE uint8x16_t tl__table_lanes_mask(uint32_t lanes) {
    return vcgtq_u8(vdupq_n_u8((uint8_t)lanes), tl__table_group_lanes(0));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_saturated(tl__table_group control,
                                                             uint32_t lanes) {
    return tl__table_mask_of(
        vandq_u8(vceqq_u8(control, vdupq_n_u8(0xFF)), tl__table_lanes_mask(lanes)));
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_step(tl__table_group control, uint32_t lanes,
                                                          bool up) {
    const uint8x16_t move =
        vbicq_u8(tl__table_lanes_mask(lanes), vceqq_u8(control, vdupq_n_u8(0xFF)));
    return up ? vsubq_u8(control, move) : vaddq_u8(control, move); /* move lanes are all ones: -1 */
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_blend(uint32_t lanes, tl__table_group low,
                                                           tl__table_group high) {
    return vbslq_u8(tl__table_lanes_mask(lanes), low, high);
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_set_first(tl__table_group g, unsigned byte) {
    return vsetq_lane_u8((uint8_t)byte, g, 0);
}

#else /* eight slots in a 64-bit word; a mask flags bit 7 of each flagged lane's byte */

#define TL__TABLE_GROUP 8u
typedef uint64_t tl__table_group;
typedef uint64_t tl__table_mask;

#define TL__TABLE_LANES_LOW 0x0101010101010101ull
#define TL__TABLE_LANES_HIGH 0x8080808080808080ull

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_load(const unsigned char *p) {
    return tl__mem_load_le64(p);
}

TL__MEM_FORCE_INLINE void tl__table_group_store(unsigned char *p, tl__table_group g) {
    tl__mem_store_le64(p, g);
}

TL__MEM_FORCE_INLINE uint32_t tl__table_mask_first(tl__table_mask mask) {
    return tl__table_ctz(mask) >> 3;
}

/* Byte i of the result: base + i (base <= 248). */
TL__MEM_FORCE_INLINE tl__table_group tl__table_group_lanes(unsigned base) {
    return 0x0706050403020100ull + TL__TABLE_LANES_LOW * base;
}

/* Bit 7 of each byte of `x` that is zero; exact per byte (no carries between bytes). */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_zero_bytes(uint64_t x) {
    const uint64_t low7 = ~TL__TABLE_LANES_HIGH;
    return ~(((x & low7) + low7) | x | low7);
}

/* Bit 7 of each byte of `x` below the matching byte of `limits` (every limit 1..127); bytes of
 * 128 and more are never below: (byte | 0x80) - limit keeps bit 7 iff byte >= limit. */
TL__MEM_FORCE_INLINE tl__table_mask tl__table_bytes_below(uint64_t x, uint64_t limits) {
    return ~((x | TL__TABLE_LANES_HIGH) - limits) & ~x & TL__TABLE_LANES_HIGH;
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_at_most(tl__table_group control, unsigned max) {
    return tl__table_bytes_below(control, TL__TABLE_LANES_LOW * (max + 1u));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_own(tl__table_group control,
                                                       tl__table_group fragments, uint32_t distance,
                                                       unsigned fragment) {
    return tl__table_zero_bytes((control ^ tl__table_group_lanes(distance + 1u)) |
                                (fragments ^ (TL__TABLE_LANES_LOW * fragment)));
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_stop(tl__table_group control,
                                                        uint32_t distance) {
    return tl__table_bytes_below(control, tl__table_group_lanes(distance + 1u));
}

TL__MEM_FORCE_INLINE uint64_t tl__table_lanes_mask(uint32_t lanes) {
    return lanes >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * lanes)) - 1);
}

TL__MEM_FORCE_INLINE tl__table_mask tl__table_mask_saturated(tl__table_group control,
                                                             uint32_t lanes) {
    return tl__table_zero_bytes(~control) & tl__table_lanes_mask(lanes);
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_step(tl__table_group control, uint32_t lanes,
                                                          bool up) {
    const uint64_t move =
        (~tl__table_zero_bytes(~control) & tl__table_lanes_mask(lanes) & TL__TABLE_LANES_HIGH) >> 7;
    return up ? control + move : control - move; /* no carries: moved bytes are 1..254 */
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_blend(uint32_t lanes, tl__table_group low,
                                                           tl__table_group high) {
    const uint64_t in = tl__table_lanes_mask(lanes);
    return (low & in) | (high & ~in);
}

TL__MEM_FORCE_INLINE tl__table_group tl__table_group_set_first(tl__table_group g, unsigned byte) {
    return (g & ~(uint64_t)0xFF) | byte;
}

#endif

/* Tables whose slots take more than this have a hit's slot read go past the first-level cache,
 * so a lookup starts it early (see tl__table_probe_key). */
#define TL__TABLE_LARGE_BYTES (128u << 10)

/* Where a probe for a key ends. */
typedef struct tl__table_probe {
    unsigned char *slot; /* the key's slot when found */
    uint32_t index;      /* slot of the key when found, else where it belongs */
    uint32_t distance;   /* of that slot from the key's home */
    unsigned fragment;   /* low byte of the key's hash */
    bool found;          /* not found with distance == capacity: no slot left to probe */
} tl__table_probe;

/* The probe slot by slot from slot `index`, `distance` past home; any key size, any table. */
static TL__MEM_NOINLINE TL__MEM_UNUSED tl__table_probe
tl__table_probe_slow(unsigned char *mem, uint32_t capacity, uint32_t key_size, size_t stride,
                     const void *key, unsigned fragment, uint32_t index, uint32_t distance) {
    const unsigned char *const control = tl__table_control(mem);
    const unsigned char *const fragments = tl__table_fragments(mem, capacity);
    tl__table_probe p;
    p.fragment = fragment;
    p.found = false;
    for (; distance < capacity; distance++) {
        const unsigned char c = control[index];
        uint32_t d;
        if (c == 0) break;
        d = tl__table_distance(mem, capacity, key_size, stride, index);
        if (d < distance) break;
        if (d == distance && fragments[index] == fragment &&
            tl__table_key_equal(tl__table_slot(mem, capacity, stride, index), key, key_size)) {
            p.slot = tl__table_slot(mem, capacity, stride, index);
            p.found = true;
            break;
        }
        index = tl__table_next_index(index, capacity);
    }
    p.index = index;
    p.distance = distance;
    return p;
}

/* One group of a probe: slots at .. at + TL__TABLE_GROUP - 1, `distance` and on past the key's
 * home. Returns true when the probe ends there, *p telling where. */
TL__MEM_FORCE_INLINE bool tl__table_probe_group(unsigned char *mem, uint32_t capacity,
                                                uint32_t key_size, size_t stride, const void *key,
                                                unsigned fragment, uint32_t at, uint32_t distance,
                                                tl__table_probe *p) {
    const tl__table_group group = tl__table_group_load(tl__table_control(mem) + at);
    /* Slots whose entry shares the key's home and hash fragment. Any of them holding the key is
   * the key's slot, so they need not be cut at the end of the run. */
    tl__table_mask own = tl__table_mask_own(
        group, tl__table_group_load(tl__table_fragments(mem, capacity) + at), distance, fragment);
    tl__table_mask stop;
    while (own) {
        const uint32_t lane = tl__table_mask_first(own);
        unsigned char *const slot = tl__table_slot(mem, capacity, stride, at + lane);
        if (TL__MEM_LIKELY(tl__table_key_equal(slot, key, key_size))) {
            p->slot = slot;
            p->found = true;
            p->index = at + lane;
            p->distance = distance + lane;
            return true;
        }
        own &= own - 1;
    }
    /* Slots that end the probe: empty, or an entry closer to its home than the key would be to
   * its own (in Robin Hood order the key would have been placed before it). */
    stop = tl__table_mask_stop(group, distance);
    if (TL__MEM_LIKELY(stop != 0)) {
        const uint32_t lane = tl__table_mask_first(stop);
        p->found = false;
        p->index = at + lane;
        p->distance = distance + lane;
        return true;
    }
    return false;
}

/* Probes for `key`. A probe reads the control and fragment bytes of a group of slots at once and
 * compares keys only in slots whose entries share the key's home and hash fragment, so a miss
 * seldom reads a slot and a hit compares one key (but for 1 in 256). Probes that start less than
 * a group before the table's end, or go on past TL__TABLE_GROUPED_PROBE, go slot by slot. */
TL__MEM_FORCE_INLINE tl__table_probe tl__table_probe_key(unsigned char *mem, uint32_t capacity,
                                                         uint32_t key_size, size_t stride,
                                                         const void *key, bool inserting) {
    const uint32_t hash = tl__table_hash(key, key_size);
    const uint32_t home = tl__table_home(hash, capacity);
    const unsigned fragment = hash & 0xFFu;
    const bool large = (uint64_t)capacity * stride > TL__TABLE_LARGE_BYTES;
    tl__table_probe p;
    p.fragment = fragment;
    /* In a table past the first-level cache, fetch the home slot's line while the control bytes
   * arrive: a hit mostly reads its key there, and an insertion writes near it. Hits at 1,048,576
   * slots: 56 -> 51 ns at load 0.5, 106 -> 85 ns at 0.9 (misses 15 -> 19 ns at 0.5). At 16,384
   * and 131,072 slots (load 0.5) hits took 0.81x-0.85x the time without it, inserts and churn
   * 0.90x-0.99x, misses 1.14x-1.34x (a miss seldom reads the line). At 8,192 slots it no longer
   * paid: hits 0.96x, misses 1.13x. */
    if (large) {
        const unsigned char *const home_slot = tl__table_slot(mem, capacity, stride, home);
        if (inserting) TL__MEM_PREFETCH(home_slot, 1); /* the access kind must be a constant */
        else TL__MEM_PREFETCH(home_slot, 0);
    }
    /* Signed: one compare against a bound that does not depend on the key, false for capacities
   * below a group. (Hits: 1.05x-1.07x faster than an unsigned capacity - home >= group.) */
    if (TL__MEM_LIKELY((int64_t)home <= (int64_t)capacity - (int64_t)TL__TABLE_GROUP)) {
        uint32_t at = home, distance = 0;
        /* The first group apart, so that its lane constants fold. */
        if (TL__MEM_LIKELY(tl__table_probe_group(mem, capacity, key_size, stride, key, fragment,
                                                 home, 0, &p))) {
            return p;
        }
        for (;;) {
            at += TL__TABLE_GROUP;
            distance += TL__TABLE_GROUP;
            if (at == capacity) at = 0;
            if (distance > TL__TABLE_GROUPED_PROBE || capacity - at < TL__TABLE_GROUP) {
                return tl__table_probe_slow(mem, capacity, key_size, stride, key, fragment, at,
                                            distance);
            }
            if (tl__table_probe_group(mem, capacity, key_size, stride, key, fragment, at, distance,
                                      &p)) {
                return p;
            }
        }
    }
    return tl__table_probe_slow(mem, capacity, key_size, stride, key, fragment, home, 0);
}

/* The slot holding `key` (and its index in *index_out), or NULL. */
TL__MEM_FORCE_INLINE unsigned char *tl__table_find(unsigned char *mem, uint32_t capacity,
                                                   uint32_t key_size, uint32_t value_size,
                                                   const void *key, uint32_t *index_out) {
    const size_t stride = tl__table_stride(key_size, value_size);
    const tl__table_probe p = tl__table_probe_key(mem, capacity, key_size, stride, key, false);
    if (index_out) *index_out = p.found ? p.index : TL_INLINE_NONE;
    return p.found ? p.slot : NULL;
}

/* Moves `n` elements of a ring of `capacity` elements of `size` bytes one place on: elements
 * from index `from` (wrapping) go to from + 1 ... from + n. */
static inline void tl__table_ring_forward(unsigned char *base, size_t size, uint32_t capacity,
                                          uint32_t from, uint32_t n) {
    if ((uint64_t)from + n < capacity) {
        memmove(base + (size_t)(from + 1) * size, base + (size_t)from * size, (size_t)n * size);
    } else {
        const uint32_t wrapped = from + n - capacity; /* elements 0 .. wrapped-1 */
        memmove(base + size, base, (size_t)wrapped * size);
        memcpy(base, base + (size_t)(capacity - 1) * size, size);
        memmove(base + (size_t)(from + 1) * size, base + (size_t)from * size,
                (size_t)(capacity - 1 - from) * size);
    }
}

/* Moves `n` elements one place back: elements from index `to` + 1 (wrapping) go to to ... to+n-1. */
static inline void tl__table_ring_back(unsigned char *base, size_t size, uint32_t capacity,
                                       uint32_t to, uint32_t n) {
    if ((uint64_t)to + n < capacity) {
        memmove(base + (size_t)to * size, base + (size_t)(to + 1) * size, (size_t)n * size);
    } else {
        const uint32_t tail = capacity - 1 - to; /* elements to+1 .. capacity-1 */
        memmove(base + (size_t)to * size, base + (size_t)(to + 1) * size, (size_t)tail * size);
        memcpy(base + (size_t)(capacity - 1) * size, base, size);
        memmove(base, base + size, (size_t)(n - tail - 1) * size);
    }
}

/* Control byte of an entry moved one slot on (up) or back; a saturated byte stays. */
TL__MEM_FORCE_INLINE unsigned char tl__table_control_step(unsigned char c, bool up) {
    return c == TL__TABLE_SATURATED ? c : (unsigned char)(up ? c + 1u : c - 1u);
}

/* Removal's move of the bytes: the control and fragment bytes of the entries after slot `index`
 * (wrapping) up to the first empty slot or entry at its home go one slot back, their distances one
 * nearer home, a group at a time as the run is read. Returns how many entries moved (at most
 * capacity - 1); the last one's old bytes stay for the caller to clear. Sets *saturated when a
 * moved byte is saturated (left at 255: its exact distance must be worked out after the move). */
static inline uint32_t tl__table_pull_back(unsigned char *control, unsigned char *fragments,
                                           uint32_t capacity, uint32_t index, bool *saturated) {
    uint32_t to = index, n = 0; /* the next entry moves from slot to + 1 into slot to */
    for (;;) {
        uint32_t from;
        unsigned char c;
        while (capacity - to > TL__TABLE_GROUP && capacity - n > TL__TABLE_GROUP) {
            const tl__table_group group = tl__table_group_load(control + to + 1);
            const tl__table_mask stop = tl__table_mask_at_most(group, 1); /* empty or at home */
            if (stop) {
                const uint32_t lanes = tl__table_mask_first(stop);
                *saturated |= tl__table_mask_saturated(group, lanes) != 0;
                tl__table_group_store(
                    control + to,
                    tl__table_group_blend(lanes, tl__table_group_step(group, lanes, false),
                                          tl__table_group_load(control + to)));
                tl__table_group_store(
                    fragments + to,
                    tl__table_group_blend(lanes, tl__table_group_load(fragments + to + 1),
                                          tl__table_group_load(fragments + to)));
                return n + lanes;
            }
            *saturated |= tl__table_mask_saturated(group, TL__TABLE_GROUP) != 0;
            tl__table_group_store(control + to,
                                  tl__table_group_step(group, TL__TABLE_GROUP, false));
            tl__table_group_store(fragments + to, tl__table_group_load(fragments + to + 1));
            to += TL__TABLE_GROUP;
            n += TL__TABLE_GROUP;
        }
        /* One slot at a time near the table's end and round it. */
        if (n + 1 >= capacity) return n;
        from = tl__table_next_index(to, capacity);
        c = control[from];
        if (c <= 1) return n;
        if (c == TL__TABLE_SATURATED) *saturated = true;
        control[to] = tl__table_control_step(c, false);
        fragments[to] = fragments[from];
        n++;
        to = from;
    }
}

/* Insertion's move of the bytes: the control and fragment bytes of the entries from occupied
 * slot `index` (wrapping) up to the first empty slot go one slot on, their distances one further
 * from home, a group at a time as the run is read (each group is loaded before the store of the
 * group below overwrites its first byte). Returns how many entries moved, or TL_INLINE_NONE when
 * no slot is empty (only foreign bytes can claim room and have none; they may be left moved). */
static inline uint32_t tl__table_push_on(unsigned char *control, unsigned char *fragments,
                                         uint32_t capacity, uint32_t index) {
    uint32_t from = index, n = 0;
    /* The bytes slot `from` held before the move, which go to the next slot. */
    unsigned char c = control[index], f = fragments[index];
    for (;;) {
        uint32_t to;
        unsigned char next_c, next_f;
        /* A group at a time while slots from .. from + TL__TABLE_GROUP lie before the table's end. */
        if (capacity - from > TL__TABLE_GROUP && capacity - n > TL__TABLE_GROUP) {
            tl__table_group gc = tl__table_group_set_first(tl__table_group_load(control + from), c);
            tl__table_group gf =
                tl__table_group_set_first(tl__table_group_load(fragments + from), f);
            for (;;) {
                const tl__table_mask stop = tl__table_mask_at_most(gc, 0); /* empty */
                const uint32_t next = from + TL__TABLE_GROUP;
                bool more;
                tl__table_group next_gc = gc, next_gf = gf;
                if (stop) {
                    const uint32_t lanes = tl__table_mask_first(stop);
                    const tl__table_group moved = tl__table_group_step(gc, lanes, true);
                    tl__table_group_store(
                        control + from + 1,
                        tl__table_group_blend(lanes, moved,
                                              tl__table_group_load(control + from + 1)));
                    tl__table_group_store(
                        fragments + from + 1,
                        tl__table_group_blend(lanes, gf,
                                              tl__table_group_load(fragments + from + 1)));
                    return n + lanes;
                }
                /* The store below overwrites slot `next`: read its bytes first. */
                more = capacity - next > TL__TABLE_GROUP && capacity - n > 2 * TL__TABLE_GROUP;
                if (more) {
                    next_gc = tl__table_group_load(control + next);
                    next_gf = tl__table_group_load(fragments + next);
                } else {
                    c = control[next];
                    f = fragments[next];
                }
                tl__table_group_store(control + from + 1,
                                      tl__table_group_step(gc, TL__TABLE_GROUP, true));
                tl__table_group_store(fragments + from + 1, gf);
                from = next;
                n += TL__TABLE_GROUP;
                if (!more) break;
                gc = next_gc;
                gf = next_gf;
            }
        }
        /* One slot at a time near the table's end and round it. */
        if (c == 0) return n;
        if (n + 1 >= capacity) return TL_INLINE_NONE;
        to = tl__table_next_index(from, capacity);
        next_c = control[to];
        next_f = fragments[to];
        control[to] = tl__table_control_step(c, true);
        fragments[to] = f;
        c = next_c;
        f = next_f;
        from = to;
        n++;
    }
}

/* Exact control bytes for the `n` slots from `index` (wrapping) after a move that left saturated
 * bytes saturated: a distance that dropped below 254 is worked out from the key's hash. */
static TL__MEM_NOINLINE TL__MEM_UNUSED void
tl__table_resolve_saturated(unsigned char *mem, uint32_t capacity, uint32_t key_size, size_t stride,
                            uint32_t index, uint32_t n) {
    unsigned char *const control = tl__table_control(mem);
    uint32_t k;
    for (k = 0; k < n; k++, index = tl__table_next_index(index, capacity)) {
        if (control[index] == TL__TABLE_SATURATED) {
            control[index] =
                tl__table_control_of(tl__table_distance(mem, capacity, key_size, stride, index));
        }
    }
}

/* Empties slot `index` and moves the displaced entries that follow it back by one slot. Returns
 * how many moved: those from slot index + 1 to index + n (wrapping) are now one slot earlier. The
 * count is the caller's. */
TL__MEM_FORCE_INLINE uint32_t tl__table_vacate(unsigned char *mem, uint32_t capacity,
                                               uint32_t key_size, size_t stride, uint32_t index) {
    unsigned char *const control = tl__table_control(mem);
    unsigned char *const fragments = tl__table_fragments(mem, capacity);
    bool saturated = false;
    /* The run to move back ends at an empty slot or at an entry that sits at its home; its
   * distances drop by one on the way. */
    const uint32_t n = tl__table_pull_back(control, fragments, capacity, index, &saturated);
    uint32_t last = index;
    if (n > 0) {
        tl__table_ring_back(tl__table_slot(mem, capacity, stride, 0), stride, capacity, index, n);
        if (TL__MEM_UNLIKELY(saturated)) {
            tl__table_resolve_saturated(mem, capacity, key_size, stride, index, n);
        }
        last = tl__table_advance(index, n, capacity);
    }
    control[last] = 0;
    fragments[last] = 0;
    memset(tl__table_slot(mem, capacity, stride, last), 0, stride);
    return n;
}

/* Finishes the pending removal `pending` (tl__table_pending; TL_INLINE_NONE: none). Returns the
 * slot the entry that was in slot `index` is in now, so callers holding a slot index can follow
 * its entry. */
TL__MEM_FORCE_INLINE uint32_t tl__table_settle(unsigned char *mem, uint32_t capacity,
                                               uint32_t key_size, size_t stride, uint32_t pending,
                                               uint32_t index) {
    uint32_t n, gap;
    if (pending == TL_INLINE_NONE) return index;
    n = tl__table_vacate(mem, capacity, key_size, stride, pending);
    tl__table_set_pending(mem, TL_INLINE_NONE);
    gap = tl__table_gap(pending, index, capacity);
    return gap >= 1 && gap <= n ? tl__table_back(index, 1, capacity) : index;
}

/* Moves the `n` entries after slot `to` (wrapping) one slot back, into slots to .. to + n - 1,
 * one nearer their homes: the run between a pending removal and an insertion's place. Returns
 * false, moving nothing, when one of them has a saturated control byte (an entry 254 or more
 * slots from home, or foreign bytes): the caller then finishes the removal the usual way, which
 * works out such distances again. */
static inline bool tl__table_shift_back(unsigned char *mem, uint32_t capacity, size_t stride,
                                        uint32_t to, uint32_t n) {
    unsigned char *const control = tl__table_control(mem);
    unsigned char *const fragments = tl__table_fragments(mem, capacity);
    uint32_t i = to, k;
    for (k = 0; k < n; k++) {
        i = tl__table_next_index(i, capacity);
        if (control[i] == TL__TABLE_SATURATED) return false;
    }
    for (i = to, k = 0; k < n; k++) {
        const uint32_t from = tl__table_next_index(i, capacity);
        control[i] = (unsigned char)(control[from] - 1u);
        fragments[i] = fragments[from];
        i = from;
    }
    tl__table_ring_back(tl__table_slot(mem, capacity, stride, 0), stride, capacity, to, n);
    return true;
}

/* An insertion's rare way: finish the pending removal, then probe again. Out of line, so that the
 * insertion inlined into a caller's loop holds one probe, not two (inserts into a 1,048,576-slot
 * table took 1.16x-1.22x the time with both inline). */
static TL__MEM_NOINLINE TL__MEM_UNUSED tl__table_probe
tl__table_settle_and_probe(unsigned char *mem, uint32_t capacity, uint32_t key_size, size_t stride,
                           uint32_t pending, const void *key) {
    (void)tl__table_settle(mem, capacity, key_size, stride, pending, 0);
    return tl__table_probe_key(mem, capacity, key_size, stride, key, true);
}

/* Finds `key` or inserts it (its value zeroed). Returns its slot index and sets *result to
 * TL_INLINE_OK (inserted) or TL_INLINE_EXISTS; returns TL_INLINE_NONE with TL_INLINE_FULL when
 * there is no room. */
TL__MEM_FORCE_INLINE uint32_t tl__table_insert(unsigned char *mem, uint32_t capacity,
                                               uint32_t key_size, uint32_t value_size,
                                               const void *key, tl_inline_result *result) {
    const size_t stride = tl__table_stride(key_size, value_size);
    unsigned char *const control = tl__table_control(mem);
    unsigned char *const fragments = tl__table_fragments(mem, capacity);
    tl__table_probe p = tl__table_probe_key(mem, capacity, key_size, stride, key, true);
    const uint32_t count = tl__inline_count(mem, capacity);
    uint32_t pending;
    bool shifted = false;
    unsigned char *slot;
    if (p.found) {
        *result = TL_INLINE_EXISTS;
        return p.index;
    }
    if (count >= capacity) {
        *result = TL_INLINE_FULL;
        return TL_INLINE_NONE;
    }
    pending = tl__table_pending(mem, capacity);
    if (pending != TL_INLINE_NONE) {
        /* When the key takes the last free slot, every slot holds an entry: finish the removal
     * first, so that the key goes where it would had the removal been done at once (a full
     * table's order depends on which slot was left free). */
        bool settle = count + 1u >= capacity || p.distance >= capacity;
        const uint32_t home = tl__table_back(p.index, p.distance, capacity);
        const uint32_t past_home = tl__table_gap(home, pending, capacity);
        if (!settle && past_home < p.distance) {
            /* The pending slot lies on the probe's way: the entries between it and the key's place move
       * back into it, and the key takes the slot before its place (when a removed key comes back,
       * nothing moves). */
            const uint32_t n = p.distance - past_home - 1u;
            if (tl__table_shift_back(mem, capacity, stride, pending, n)) {
                p.index = tl__table_advance(pending, n, capacity);
                p.distance--;
                tl__table_set_pending(mem, TL_INLINE_NONE);
                pending = TL_INLINE_NONE;
                shifted = true;
            } else {
                settle = true;
            }
        }
        if (settle) {
            p = tl__table_settle_and_probe(mem, capacity, key_size, stride, pending, key);
            pending = TL_INLINE_NONE;
        }
    }
    if (p.distance >= capacity) {
        *result = TL_INLINE_FULL;
        return TL_INLINE_NONE;
    }
    if (!shifted && control[p.index] != 0) {
        /* Move the rest of the run, up to the next empty slot or the pending removal's slot, one slot
     * on; reaching the pending slot fills it. */
        unsigned char pending_control = 0;
        uint32_t n;
        if (pending != TL_INLINE_NONE) {
            pending_control = control[pending];
            control[pending] = 0;
        }
        n = tl__table_push_on(control, fragments, capacity, p.index);
        if (pending != TL_INLINE_NONE) {
            if (n != TL_INLINE_NONE && tl__table_gap(p.index, pending, capacity) == n) {
                tl__table_set_pending(mem, TL_INLINE_NONE);
            } else {
                control[pending] = pending_control;
            }
        }
        if (n == TL_INLINE_NONE) { /* the count said there was room but no slot is free */
            *result = TL_INLINE_FULL;
            return TL_INLINE_NONE;
        }
        tl__table_ring_forward(tl__table_slot(mem, capacity, stride, 0), stride, capacity, p.index,
                               n);
    }
    control[p.index] = tl__table_control_of(p.distance);
    fragments[p.index] = (unsigned char)p.fragment;
    slot = tl__table_slot(mem, capacity, stride, p.index);
    memcpy(slot, key, key_size);
    memset(slot + key_size, 0, stride - key_size);
    tl__mem_store_le32(mem, count + 1);
    *result = TL_INLINE_OK;
    return p.index;
}

/* Removal. A removal leaves its entry in its slot, pending, and the entry moves out when the next
 * insertion needs the slot or the next removal comes: an insertion whose probe passes the slot
 * moves the entries between it and the key's place back into it (none when a removed key comes
 * back, unless keys of its home follow it), and one whose run reaches the slot stops there. Each
 * step leaves every entry where moving the removed one out at once would have (tests/mem's model
 * test compares the bytes); a removal only waits. While pending, the slot keeps the removed key
 * and value, its fragment byte flipped. */
TL__MEM_FORCE_INLINE bool tl__table_remove(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                           uint32_t value_size, const void *key) {
    const size_t stride = tl__table_stride(key_size, value_size);
    uint32_t index, pending, count;
    if (!mem || !key) return false;
    if (!tl__table_find(mem, capacity, key_size, value_size, key, &index)) return false;
    count = tl__inline_count(mem, capacity);
    pending = tl__table_pending(mem, capacity);
    if (TL__MEM_UNLIKELY(index == pending)) {
        /* Only foreign bytes name a slot that a probe finds: move it out now. */
        (void)tl__table_settle(mem, capacity, key_size, stride, pending, index);
    } else {
        index = tl__table_settle(mem, capacity, key_size, stride, pending, index);
        tl__table_fragments(mem, capacity)[index] ^= TL__TABLE_PENDING_FLIP;
        tl__table_set_pending(mem, index);
    }
    tl__mem_store_le32(mem, count ? count - 1 : 0);
    return true;
}

/* Finishes the pending removal of a table (see tl_inline_dict_settle). */
static inline void tl__table_settle_all(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                        uint32_t value_size) {
    if (mem) {
        (void)tl__table_settle(mem, capacity, key_size, tl__table_stride(key_size, value_size),
                               tl__table_pending(mem, capacity), 0);
    }
}

/* First slot that is empty or holds an entry at its home: no removal ever moves an entry across
 * the boundary before it, so a walk starting there visits each element once even when the walk
 * removes. A table built by insertions always has one; 0 is only a guard for foreign bytes. */
static inline uint32_t tl__table_walk_start(unsigned char *mem, uint32_t capacity) {
    const unsigned char *const control = tl__table_control(mem);
    uint32_t i = 0;
    for (; capacity - i >= TL__TABLE_GROUP; i += TL__TABLE_GROUP) {
        const tl__table_mask boundary =
            tl__table_mask_at_most(tl__table_group_load(control + i), 1);
        if (boundary) return i + tl__table_mask_first(boundary);
    }
    for (; i < capacity; i++) {
        if (control[i] <= 1) return i;
    }
    return 0;
}

static inline tl_inline_iter tl__table_iter(unsigned char *mem, uint32_t capacity) {
    tl_inline_iter it;
    it.start = mem ? tl__table_walk_start(mem, capacity) : 0;
    it.next = it.start;
    it.left = mem ? capacity : 0;
    it.current = TL_INLINE_NONE;
    return it;
}

/* The next occupied slot of the walk, or TL_INLINE_NONE at the end. */
TL__MEM_FORCE_INLINE uint32_t tl__table_next(unsigned char *mem, uint32_t capacity,
                                             tl_inline_iter *it) {
    uint32_t pending;
    if (!mem || !it) return TL_INLINE_NONE;
    pending = tl__table_pending(mem, capacity);
    while (it->left > 0) {
        const uint32_t i = it->next < capacity ? it->next : 0;
        it->next = i + 1 == capacity ? 0 : i + 1;
        it->left--;
        if (tl__table_control(mem)[i] != 0 && i != pending) {
            it->current = i;
            return i;
        }
    }
    it->current = TL_INLINE_NONE;
    return TL_INLINE_NONE;
}

static inline bool tl__table_iter_remove(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                         uint32_t value_size, tl_inline_iter *it) {
    const size_t stride = tl__table_stride(key_size, value_size);
    uint32_t current, pending, settled, count;
    if (!mem || !it || it->current >= capacity) return false;
    current = it->current;
    pending = tl__table_pending(mem, capacity);
    if (tl__table_control(mem)[current] == 0 || current == pending) return false;
    /* A walk removes at once, so that it knows where everything went: first the pending removal,
   * which may move the current entry one slot back (with those after it), then the entry. */
    settled = tl__table_settle(mem, capacity, key_size, stride, pending, current);
    count = tl__inline_count(mem, capacity);
    (void)tl__table_vacate(mem, capacity, key_size, stride, settled);
    tl__mem_store_le32(mem, count ? count - 1 : 0);
    it->current = TL_INLINE_NONE;
    if (settled == it->start) {
        /* The walk's first element is gone, and with it everything visited: start afresh, since the
     * boundary may have moved. */
        *it = tl__table_iter(mem, capacity);
    } else {
        /* A displaced successor may have moved into this slot: examine it again. */
        it->next = settled;
        it->left += settled == current ? 1u : 2u;
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------
 * Hash set
 * ------------------------------------------------------------------------------------------- */

typedef struct tl_inline_hashset {
    unsigned char *mem;
    uint32_t capacity;
    uint32_t element_size;
} tl_inline_hashset;

static inline tl_inline_hashset tl_inline_hashset_view(void *mem, uint32_t capacity,
                                                       uint32_t element_size) {
    tl_inline_hashset s;
    bool ok = tl__inline_memory_ok(mem) && tl__inline_size_ok(element_size) &&
              tl__inline_bytes_ok(capacity, TL_LAYOUT_SET_SLOT_BYTES(element_size),
                                  TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity));
    s.mem = ok ? (unsigned char *)mem : NULL;
    s.capacity = ok ? capacity : 0;
    s.element_size = ok ? element_size : 0;
    return s;
}

static inline bool tl_inline_hashset_valid(tl_inline_hashset s) { return s.mem != NULL; }
static inline uint32_t tl_inline_hashset_capacity(tl_inline_hashset s) {
    return s.mem ? s.capacity : 0;
}
static inline uint32_t tl_inline_hashset_count(tl_inline_hashset s) {
    return s.mem ? tl__inline_count(s.mem, s.capacity) : 0;
}

static inline bool tl_inline_hashset_contains(tl_inline_hashset s, const void *element) {
    return s.mem && element &&
           tl__table_find(s.mem, s.capacity, s.element_size, 0, element, NULL) != NULL;
}

/* Adds an element: TL_INLINE_OK, TL_INLINE_EXISTS, TL_INLINE_FULL or TL_INLINE_INVALID. */
static inline tl_inline_result tl_inline_hashset_add_ex(tl_inline_hashset s, const void *element) {
    tl_inline_result result;
    if (!s.mem || !element) return TL_INLINE_INVALID;
    (void)tl__table_insert(s.mem, s.capacity, s.element_size, 0, element, &result);
    return result;
}

/* Adds an element; true when the set changed (false: present, full or invalid). */
static inline bool tl_inline_hashset_add(tl_inline_hashset s, const void *element) {
    return tl_inline_hashset_add_ex(s, element) == TL_INLINE_OK;
}

/* Removes an element; true when the set changed. */
static inline bool tl_inline_hashset_remove(tl_inline_hashset s, const void *element) {
    return tl__table_remove(s.mem, s.capacity, s.element_size, 0, element);
}

/* Finishes the last removal now (see tl_inline_dict_settle). */
static inline void tl_inline_hashset_settle(tl_inline_hashset s) {
    tl__table_settle_all(s.mem, s.capacity, s.element_size, 0);
}

static inline void tl_inline_hashset_clear(tl_inline_hashset s) {
    if (s.mem) memset(s.mem, 0, TL_LAYOUT_SET_BYTES(s.capacity, s.element_size));
}

static inline tl_inline_iter tl_inline_hashset_iter(tl_inline_hashset s) {
    return tl__table_iter(s.mem, s.capacity);
}

/* Advances the walk; on true, *element (if not NULL) points at the element. */
static inline bool tl_inline_hashset_next(tl_inline_hashset s, tl_inline_iter *it,
                                          const void **element) {
    const size_t stride = TL_LAYOUT_SET_SLOT_BYTES(s.element_size);
    uint32_t i = tl__table_next(s.mem, s.capacity, it);
    if (i == TL_INLINE_NONE) return false;
    if (element) *element = tl__table_slot(s.mem, s.capacity, stride, i);
    return true;
}

/* Removes the element the walk is on; the walk goes on with every other element. */
static inline bool tl_inline_hashset_iter_remove(tl_inline_hashset s, tl_inline_iter *it) {
    return tl__table_iter_remove(s.mem, s.capacity, s.element_size, 0, it);
}

/* ---------------------------------------------------------------------------------------------
 * Dictionary
 * ------------------------------------------------------------------------------------------- */

typedef struct tl_inline_dict {
    unsigned char *mem;
    uint32_t capacity;
    uint32_t key_size;
    uint32_t value_size;
} tl_inline_dict;

static inline tl_inline_dict tl_inline_dict_view(void *mem, uint32_t capacity, uint32_t key_size,
                                                 uint32_t value_size) {
    tl_inline_dict d;
    bool ok = tl__inline_memory_ok(mem) && tl__inline_size_ok(key_size) &&
              value_size <= TL_INLINE_MAX_ELEMENT_SIZE &&
              tl__inline_bytes_ok(capacity, TL_LAYOUT_DICT_SLOT_BYTES(key_size, value_size),
                                  TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity));
    d.mem = ok ? (unsigned char *)mem : NULL;
    d.capacity = ok ? capacity : 0;
    d.key_size = ok ? key_size : 0;
    d.value_size = ok ? value_size : 0;
    return d;
}

static inline bool tl_inline_dict_valid(tl_inline_dict d) { return d.mem != NULL; }
static inline uint32_t tl_inline_dict_capacity(tl_inline_dict d) { return d.mem ? d.capacity : 0; }
static inline uint32_t tl_inline_dict_count(tl_inline_dict d) {
    return d.mem ? tl__inline_count(d.mem, d.capacity) : 0;
}

TL__MEM_FORCE_INLINE void *tl__dict_value(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                          uint32_t value_size, uint32_t index) {
    return tl__table_slot(mem, capacity, tl__table_stride(key_size, value_size), index) +
           TL_LAYOUT_SLOT_VALUE_OFFSET(key_size);
}

/* Pointer to the value of `key`, or NULL when absent. */
TL__MEM_FORCE_INLINE void *tl__dict_get(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                        uint32_t value_size, const void *key) {
    unsigned char *slot;
    if (!mem || !key) return NULL;
    slot = tl__table_find(mem, capacity, key_size, value_size, key, NULL);
    return slot ? slot + TL_LAYOUT_SLOT_VALUE_OFFSET(key_size) : NULL;
}

/* Pointer to the value of `key`, adding the key with a zeroed value when absent (*added tells
 * which, when not NULL); NULL when full or invalid. */
TL__MEM_FORCE_INLINE void *tl__dict_get_or_add(unsigned char *mem, uint32_t capacity,
                                               uint32_t key_size, uint32_t value_size,
                                               const void *key, tl_inline_result *result) {
    uint32_t index;
    if (!mem || !key) {
        *result = TL_INLINE_INVALID;
        return NULL;
    }
    index = tl__table_insert(mem, capacity, key_size, value_size, key, result);
    return index == TL_INLINE_NONE ? NULL
                                   : tl__dict_value(mem, capacity, key_size, value_size, index);
}

TL__MEM_FORCE_INLINE tl_inline_result tl__dict_try_add(unsigned char *mem, uint32_t capacity,
                                                       uint32_t key_size, uint32_t value_size,
                                                       const void *key, const void *value) {
    tl_inline_result result;
    void *slot = tl__dict_get_or_add(mem, capacity, key_size, value_size, key, &result);
    if (result == TL_INLINE_OK && slot && value && value_size) memcpy(slot, value, value_size);
    return result;
}

TL__MEM_FORCE_INLINE bool tl__dict_set(unsigned char *mem, uint32_t capacity, uint32_t key_size,
                                       uint32_t value_size, const void *key, const void *value) {
    tl_inline_result result;
    void *slot = tl__dict_get_or_add(mem, capacity, key_size, value_size, key, &result);
    if (!slot) return false;
    if (value_size) {
        if (value) memcpy(slot, value, value_size);
        else memset(slot, 0, value_size);
    }
    return true;
}

static inline bool tl_inline_dict_contains_key(tl_inline_dict d, const void *key) {
    return tl__dict_get(d.mem, d.capacity, d.key_size, d.value_size, key) != NULL;
}

/* Copies the value of `key` to *value_out (unless NULL); false when absent. */
static inline bool tl_inline_dict_try_get(tl_inline_dict d, const void *key, void *value_out) {
    const void *value = tl__dict_get(d.mem, d.capacity, d.key_size, d.value_size, key);
    if (!value) return false;
    if (value_out && d.value_size) memcpy(value_out, value, d.value_size);
    return true;
}

/* Pointer to the value of `key`, or NULL when absent. */
static inline void *tl_inline_dict_get(tl_inline_dict d, const void *key) {
    return tl__dict_get(d.mem, d.capacity, d.key_size, d.value_size, key);
}

/* Adds key and a copy of *value (NULL: zeroed): TL_INLINE_OK, TL_INLINE_EXISTS (value untouched),
 * TL_INLINE_FULL or TL_INLINE_INVALID. */
static inline tl_inline_result tl_inline_dict_try_add_ex(tl_inline_dict d, const void *key,
                                                         const void *value) {
    return tl__dict_try_add(d.mem, d.capacity, d.key_size, d.value_size, key, value);
}

/* Adds key and value; true when the dictionary changed (false: present, full or invalid). */
static inline bool tl_inline_dict_try_add(tl_inline_dict d, const void *key, const void *value) {
    return tl_inline_dict_try_add_ex(d, key, value) == TL_INLINE_OK;
}

/* Pointer to the value of `key`, adding it with a zeroed value when absent; *added (when not
 * NULL) tells whether it was added. NULL when full or invalid. */
static inline void *tl_inline_dict_get_or_add(tl_inline_dict d, const void *key, bool *added) {
    tl_inline_result result;
    void *value = tl__dict_get_or_add(d.mem, d.capacity, d.key_size, d.value_size, key, &result);
    if (added) *added = result == TL_INLINE_OK;
    return value;
}

/* Adds or replaces the value of `key`; false only when full or invalid. */
static inline bool tl_inline_dict_set(tl_inline_dict d, const void *key, const void *value) {
    return tl__dict_set(d.mem, d.capacity, d.key_size, d.value_size, key, value);
}

/* Removes `key`; true when the dictionary changed. */
static inline bool tl_inline_dict_remove(tl_inline_dict d, const void *key) {
    return tl__table_remove(d.mem, d.capacity, d.key_size, d.value_size, key);
}

/* Finishes the last removal now: its entry leaves its slot and the entries after it move back,
 * which the next add or remove would otherwise do. Afterwards the bytes are those of a table that
 * never held the removed keys (the surviving entries added in the same order), for code that
 * compares or saves a table's bytes against one rebuilt from its entries. Lookups, counts and
 * walks never need it. */
static inline void tl_inline_dict_settle(tl_inline_dict d) {
    tl__table_settle_all(d.mem, d.capacity, d.key_size, d.value_size);
}

static inline void tl_inline_dict_clear(tl_inline_dict d) {
    if (d.mem) memset(d.mem, 0, TL_LAYOUT_DICT_BYTES(d.capacity, d.key_size, d.value_size));
}

static inline tl_inline_iter tl_inline_dict_iter(tl_inline_dict d) {
    return tl__table_iter(d.mem, d.capacity);
}

/* Advances the walk; on true, *key and *value (each if not NULL) point at the entry. */
static inline bool tl_inline_dict_next(tl_inline_dict d, tl_inline_iter *it, const void **key,
                                       void **value) {
    const size_t stride = tl__table_stride(d.key_size, d.value_size);
    uint32_t i = tl__table_next(d.mem, d.capacity, it);
    if (i == TL_INLINE_NONE) return false;
    if (key) *key = tl__table_slot(d.mem, d.capacity, stride, i);
    if (value)
        *value =
            tl__table_slot(d.mem, d.capacity, stride, i) + TL_LAYOUT_SLOT_VALUE_OFFSET(d.key_size);
    return true;
}

/* Removes the entry the walk is on; the walk goes on with every other entry. */
static inline bool tl_inline_dict_iter_remove(tl_inline_dict d, tl_inline_iter *it) {
    return tl__table_iter_remove(d.mem, d.capacity, d.key_size, d.value_size, it);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---------------------------------------------------------------------------------------------
 * Typed wrappers. Each defines `name` (pointer + capacity) and functions over it whose element
 * sizes are constants. Give T, K and V no implicit padding (see the top of this file).
 * ------------------------------------------------------------------------------------------- */

/* Functions that a wrapper defines but a program may not use: no unused-function warnings. Not
 * __attribute__((unused)) where there is another way, since clang's -Wused-but-marked-unused
 * reports every call of a function so marked (in the program's own file, where the wrapper
 * expands): C++17's [[maybe_unused]]; in C under clang (which warns of an unused static inline
 * function of the main file) the wrapper's definitions sit between a push and a pop of
 * -Wunused-function; elsewhere (gcc warns of none) the attribute. */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define TL__INLINE_MAYBE_UNUSED [[maybe_unused]]
#define TL__INLINE_UNUSED_BEGIN
#define TL__INLINE_UNUSED_END
#elif defined(__clang__) && !defined(__cplusplus)
#define TL__INLINE_MAYBE_UNUSED
#define TL__INLINE_UNUSED_BEGIN \
    _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wunused-function\"")
#define TL__INLINE_UNUSED_END _Pragma("clang diagnostic pop")
#else
#define TL__INLINE_MAYBE_UNUSED TL__MEM_UNUSED
#define TL__INLINE_UNUSED_BEGIN
#define TL__INLINE_UNUSED_END
#endif
#define TL__INLINE_TYPED_FN TL__INLINE_MAYBE_UNUSED static inline
/* Lookups inline into the caller: with constant sizes, hashing and comparing 4- and 8-byte keys
 * then take a few dozen instructions and no call. */
#define TL__INLINE_TYPED_LOOKUP TL__INLINE_MAYBE_UNUSED TL__MEM_FORCE_INLINE

/* Each typed view `name` comes with a read-only one, `name_const`, over const memory (a const
 * frame, a generated static const instance): name_const_view(mem, capacity) or
 * name_as_const(view), and name_const_* for the operations that only read. */
#define TL__INLINE_TYPED_VIEW(name, view_fn, ...) \
    typedef struct name { \
        unsigned char *mem; \
        uint32_t capacity; \
    } name; \
    typedef struct name##_const { \
        const unsigned char *mem; \
        uint32_t capacity; \
    } name##_const; \
    TL__INLINE_TYPED_FN name name##_view(void *mem, uint32_t capacity) { \
        name v; \
        v.mem = view_fn(mem, capacity, __VA_ARGS__).mem; \
        v.capacity = v.mem ? capacity : 0; \
        return v; \
    } \
    TL__INLINE_TYPED_FN bool name##_valid(name v) { return v.mem != TL__NULL; } \
    TL__INLINE_TYPED_FN uint32_t name##_capacity(name v) { return v.capacity; } \
    TL__INLINE_TYPED_FN name##_const name##_as_const(name v) { \
        name##_const c; \
        c.mem = v.mem; \
        c.capacity = v.capacity; \
        return c; \
    } \
    TL__INLINE_TYPED_FN name##_const name##_const_view(const void *mem, uint32_t capacity) { \
        return name##_as_const(name##_view(tl__inline_reader(mem), capacity)); \
    } \
    TL__INLINE_TYPED_FN bool name##_const_valid(name##_const v) { return v.mem != TL__NULL; } \
    TL__INLINE_TYPED_FN uint32_t name##_const_capacity(name##_const v) { return v.capacity; } \
    /* The reading operations of a const view go through the writable ones, which they never ask \
   * to write. */ \
    TL__INLINE_TYPED_FN name name##_reading(name##_const c) { \
        name v; \
        v.mem = tl__inline_reader(c.mem); \
        v.capacity = c.capacity; \
        return v; \
    }

#define TL_INLINE_ARRAY_TYPE(name, T) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_array_view, TL__CAST(uint32_t, sizeof(T))) \
    TL__INLINE_TYPED_FN uint32_t name##_length(name a) { return a.capacity; } \
    TL__INLINE_TYPED_FN T *name##_at(name a, uint32_t index) { \
        return TL__CAST(T *, \
                        tl__array_at(a.mem, a.capacity, TL__CAST(uint32_t, sizeof(T)), index)); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name a) { \
        if (a.mem) memset(a.mem, 0, TL_LAYOUT_ARRAY_BYTES(a.capacity, sizeof(T))); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_length(name##_const a) { return a.capacity; } \
    TL__INLINE_TYPED_FN const T *name##_const_at(name##_const a, uint32_t index) { \
        return name##_at(name##_reading(a), index); \
    } \
    TL__INLINE_UNUSED_END

#define TL_INLINE_LIST_TYPE(name, T) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_list_view, TL__CAST(uint32_t, sizeof(T))) \
    TL__INLINE_TYPED_FN uint32_t name##_count(name l) { \
        return tl__list_count(l.mem, l.capacity); \
    } \
    TL__INLINE_TYPED_FN T *name##_at(name l, uint32_t index) { \
        return TL__CAST(T *, \
                        tl__list_at(l.mem, l.capacity, TL__CAST(uint32_t, sizeof(T)), index)); \
    } \
    TL__INLINE_TYPED_FN bool name##_add(name l, T value) { \
        return tl__list_add(l.mem, l.capacity, TL__CAST(uint32_t, sizeof(T)), &value) != TL__NULL; \
    } \
    TL__INLINE_TYPED_FN T *name##_add_zeroed(name l) { \
        return TL__CAST(T *, \
                        tl__list_add(l.mem, l.capacity, TL__CAST(uint32_t, sizeof(T)), TL__NULL)); \
    } \
    TL__INLINE_TYPED_FN bool name##_remove_at(name l, uint32_t index) { \
        return tl__list_remove_at(l.mem, l.capacity, TL__CAST(uint32_t, sizeof(T)), index); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name l) { \
        tl__sequence_clear(l.mem, l.capacity, TL__CAST(uint32_t, sizeof(T))); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_count(name##_const l) { \
        return name##_count(name##_reading(l)); \
    } \
    TL__INLINE_TYPED_FN const T *name##_const_at(name##_const l, uint32_t index) { \
        return name##_at(name##_reading(l), index); \
    } \
    TL__INLINE_UNUSED_END

#define TL_INLINE_QUEUE_TYPE(name, T) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_queue_view, TL__CAST(uint32_t, sizeof(T))) \
    TL__INLINE_TYPED_FN uint32_t name##_count(name q) { \
        return q.mem ? tl__inline_count(q.mem, q.capacity) : 0; \
    } \
    TL__INLINE_TYPED_FN bool name##_enqueue(name q, T value) { \
        return tl__queue_enqueue(q.mem, q.capacity, TL__CAST(uint32_t, sizeof(T)), &value); \
    } \
    TL__INLINE_TYPED_FN bool name##_dequeue(name q, T *out) { \
        return tl__queue_dequeue(q.mem, q.capacity, TL__CAST(uint32_t, sizeof(T)), out); \
    } \
    TL__INLINE_TYPED_FN T *name##_peek(name q) { \
        return TL__CAST(T *, tl__queue_at(q.mem, q.capacity, TL__CAST(uint32_t, sizeof(T)), 0)); \
    } \
    TL__INLINE_TYPED_FN T *name##_at(name q, uint32_t index) { \
        return TL__CAST(T *, \
                        tl__queue_at(q.mem, q.capacity, TL__CAST(uint32_t, sizeof(T)), index)); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name q) { \
        tl__sequence_clear(q.mem, q.capacity, TL__CAST(uint32_t, sizeof(T))); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_count(name##_const q) { \
        return name##_count(name##_reading(q)); \
    } \
    TL__INLINE_TYPED_FN const T *name##_const_peek(name##_const q) { \
        return name##_peek(name##_reading(q)); \
    } \
    TL__INLINE_TYPED_FN const T *name##_const_at(name##_const q, uint32_t index) { \
        return name##_at(name##_reading(q), index); \
    } \
    TL__INLINE_UNUSED_END

#define TL_INLINE_STACK_TYPE(name, T) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_stack_view, TL__CAST(uint32_t, sizeof(T))) \
    TL__INLINE_TYPED_FN uint32_t name##_count(name s) { \
        return tl__list_count(s.mem, s.capacity); \
    } \
    TL__INLINE_TYPED_FN bool name##_push(name s, T value) { \
        return tl__list_add(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(T)), &value) != TL__NULL; \
    } \
    TL__INLINE_TYPED_FN bool name##_pop(name s, T *out) { \
        return tl__stack_pop(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(T)), out); \
    } \
    TL__INLINE_TYPED_FN T *name##_peek(name s) { \
        return TL__CAST(T *, tl__stack_peek(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(T)))); \
    } \
    TL__INLINE_TYPED_FN T *name##_at(name s, uint32_t index) { \
        return TL__CAST(T *, \
                        tl__list_at(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(T)), index)); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name s) { \
        tl__sequence_clear(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(T))); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_count(name##_const s) { \
        return name##_count(name##_reading(s)); \
    } \
    TL__INLINE_TYPED_FN const T *name##_const_peek(name##_const s) { \
        return name##_peek(name##_reading(s)); \
    } \
    TL__INLINE_TYPED_FN const T *name##_const_at(name##_const s, uint32_t index) { \
        return name##_at(name##_reading(s), index); \
    } \
    TL__INLINE_UNUSED_END

#define TL_INLINE_HASHSET_TYPE(name, K) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_hashset_view, TL__CAST(uint32_t, sizeof(K))) \
    TL__INLINE_TYPED_FN uint32_t name##_count(name s) { \
        return s.mem ? tl__inline_count(s.mem, s.capacity) : 0; \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_contains(name s, K element) { \
        return s.mem && tl__table_find(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(K)), 0, \
                                       &element, TL__NULL) != TL__NULL; \
    } \
    TL__INLINE_TYPED_FN tl_inline_result name##_add_ex(name s, K element) { \
        tl_inline_result result; \
        if (!s.mem) return TL_INLINE_INVALID; \
        (void)tl__table_insert(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(K)), 0, &element, \
                               &result); \
        return result; \
    } \
    TL__INLINE_TYPED_FN bool name##_add(name s, K element) { \
        return name##_add_ex(s, element) == TL_INLINE_OK; \
    } \
    TL__INLINE_TYPED_FN bool name##_remove(name s, K element) { \
        return tl__table_remove(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(K)), 0, &element); \
    } \
    TL__INLINE_TYPED_FN void name##_settle(name s) { \
        tl__table_settle_all(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(K)), 0); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name s) { \
        if (s.mem) memset(s.mem, 0, TL_LAYOUT_SET_BYTES(s.capacity, sizeof(K))); \
    } \
    TL__INLINE_TYPED_FN tl_inline_iter name##_iter(name s) { \
        return tl__table_iter(s.mem, s.capacity); \
    } \
    TL__INLINE_TYPED_FN bool name##_next(name s, tl_inline_iter *it, K *element) { \
        const size_t stride = TL_LAYOUT_SET_SLOT_BYTES(sizeof(K)); \
        uint32_t i = tl__table_next(s.mem, s.capacity, it); \
        if (i == TL_INLINE_NONE) return false; \
        if (element) memcpy(element, tl__table_slot(s.mem, s.capacity, stride, i), sizeof(K)); \
        return true; \
    } \
    TL__INLINE_TYPED_FN bool name##_iter_remove(name s, tl_inline_iter *it) { \
        return tl__table_iter_remove(s.mem, s.capacity, TL__CAST(uint32_t, sizeof(K)), 0, it); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_count(name##_const s) { \
        return name##_count(name##_reading(s)); \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_const_contains(name##_const s, K element) { \
        return name##_contains(name##_reading(s), element); \
    } \
    TL__INLINE_TYPED_FN tl_inline_iter name##_const_iter(name##_const s) { \
        return name##_iter(name##_reading(s)); \
    } \
    TL__INLINE_TYPED_FN bool name##_const_next(name##_const s, tl_inline_iter *it, K *element) { \
        return name##_next(name##_reading(s), it, element); \
    } \
    TL__INLINE_UNUSED_END

#define TL_INLINE_DICT_TYPE(name, K, V) \
    TL__INLINE_UNUSED_BEGIN \
    TL__INLINE_TYPED_VIEW(name, tl_inline_dict_view, TL__CAST(uint32_t, sizeof(K)), \
                          TL__CAST(uint32_t, sizeof(V))) \
    TL__INLINE_TYPED_FN uint32_t name##_count(name d) { \
        return d.mem ? tl__inline_count(d.mem, d.capacity) : 0; \
    } \
    TL__INLINE_TYPED_LOOKUP V *name##_get(name d, K key) { \
        return TL__CAST(V *, tl__dict_get(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                          TL__CAST(uint32_t, sizeof(V)), &key)); \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_contains_key(name d, K key) { \
        return name##_get(d, key) != TL__NULL; \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_try_get(name d, K key, V *out) { \
        const V *value = name##_get(d, key); \
        if (!value) return false; \
        if (out) memcpy(out, value, sizeof(V)); \
        return true; \
    } \
    TL__INLINE_TYPED_FN tl_inline_result name##_try_add_ex(name d, K key, V value) { \
        return tl__dict_try_add(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                TL__CAST(uint32_t, sizeof(V)), &key, &value); \
    } \
    TL__INLINE_TYPED_FN bool name##_try_add(name d, K key, V value) { \
        return name##_try_add_ex(d, key, value) == TL_INLINE_OK; \
    } \
    TL__INLINE_TYPED_FN V *name##_get_or_add(name d, K key, bool *added) { \
        tl_inline_result result; \
        V *value = \
            TL__CAST(V *, tl__dict_get_or_add(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                              TL__CAST(uint32_t, sizeof(V)), &key, &result)); \
        if (added) *added = result == TL_INLINE_OK; \
        return value; \
    } \
    TL__INLINE_TYPED_FN bool name##_set(name d, K key, V value) { \
        return tl__dict_set(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                            TL__CAST(uint32_t, sizeof(V)), &key, &value); \
    } \
    TL__INLINE_TYPED_FN bool name##_remove(name d, K key) { \
        return tl__table_remove(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                TL__CAST(uint32_t, sizeof(V)), &key); \
    } \
    TL__INLINE_TYPED_FN void name##_settle(name d) { \
        tl__table_settle_all(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                             TL__CAST(uint32_t, sizeof(V))); \
    } \
    TL__INLINE_TYPED_FN void name##_clear(name d) { \
        if (d.mem) memset(d.mem, 0, TL_LAYOUT_DICT_BYTES(d.capacity, sizeof(K), sizeof(V))); \
    } \
    TL__INLINE_TYPED_FN tl_inline_iter name##_iter(name d) { \
        return tl__table_iter(d.mem, d.capacity); \
    } \
    TL__INLINE_TYPED_FN bool name##_next(name d, tl_inline_iter *it, K *key, V **value) { \
        const size_t stride = TL_LAYOUT_DICT_SLOT_BYTES(sizeof(K), sizeof(V)); \
        uint32_t i = tl__table_next(d.mem, d.capacity, it); \
        if (i == TL_INLINE_NONE) return false; \
        if (key) memcpy(key, tl__table_slot(d.mem, d.capacity, stride, i), sizeof(K)); \
        if (value) \
            *value = \
                TL__CAST(V *, tl__dict_value(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                             TL__CAST(uint32_t, sizeof(V)), i)); \
        return true; \
    } \
    TL__INLINE_TYPED_FN bool name##_iter_remove(name d, tl_inline_iter *it) { \
        return tl__table_iter_remove(d.mem, d.capacity, TL__CAST(uint32_t, sizeof(K)), \
                                     TL__CAST(uint32_t, sizeof(V)), it); \
    } \
    TL__INLINE_TYPED_FN uint32_t name##_const_count(name##_const d) { \
        return name##_count(name##_reading(d)); \
    } \
    TL__INLINE_TYPED_LOOKUP const V *name##_const_get(name##_const d, K key) { \
        return name##_get(name##_reading(d), key); \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_const_contains_key(name##_const d, K key) { \
        return name##_contains_key(name##_reading(d), key); \
    } \
    TL__INLINE_TYPED_LOOKUP bool name##_const_try_get(name##_const d, K key, V *out) { \
        return name##_try_get(name##_reading(d), key, out); \
    } \
    TL__INLINE_TYPED_FN tl_inline_iter name##_const_iter(name##_const d) { \
        return name##_iter(name##_reading(d)); \
    } \
    TL__INLINE_TYPED_FN bool name##_const_next(name##_const d, tl_inline_iter *it, K *key, \
                                               const V **value) { \
        V *v = TL__NULL; \
        const bool more = name##_next(name##_reading(d), it, key, value ? &v : TL__NULL); \
        if (value) *value = v; \
        return more; \
    } \
    TL__INLINE_UNUSED_END

#endif /* TL_COLLECTIONS_H */
