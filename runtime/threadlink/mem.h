/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/mem.h -- memory for state that is copied, hashed and saved as raw bytes.

   WHAT
   ----
   Long-lived simulation state (a frame) lives in plain blocks of bytes, so a rollback is a memcpy
   and a desync is a hash mismatch. This header gives:

     - blocks:  tl_mem_alloc_zeroed / tl_mem_free / tl_mem_copy / tl_mem_clear / tl_mem_equal;
     - hashes:  hash.h (included): tl_hash64 (exactly XXH64) and tl_hash32 (exactly XXH32) of
                raw memory, tl_hash64_stream, XXH64 of fixed-width values fed one at a time in
                little-endian order;
     - layout:  TL_LAYOUT_* constant expressions giving the exact byte size of each inline
                collection (the generator's gen/core/layout.c computes the same numbers);
     - inline collections (array, list, queue, stack, hashset, dict) are collections.h's, over this
       layout (that header includes this one).

   INCLUDE
   -------
   Header-only. Everything is `static inline`; no switch is needed unless you build with
   TL_MEM_DEBUG, whose live-block list needs one translation unit that does
       #define TL_MEM_IMPL
       #include <threadlink/mem.h>
   TL_IMPLEMENTATION does not turn it on: it is the core's only state, and two files implementing
   services (each with TL_IMPLEMENTATION) must link. Under TL_STATIC (api.h) the one file using
   the runtime holds the list without a switch.
   The hashes are hash.h's own XXH32 and XXH64: nothing to link, and no xxhash.h in the including
   file.

   OVERRIDES (define before including; pairs or nothing)
   ---------
   TL_MEM_MALLOC(size) / TL_MEM_FREE(ptr)   allocation hooks for blocks. Default: TL_MALLOC /
                                            TL_FREE when the project defines those, else
                                            malloc / free. Called only by tl_mem_alloc_zeroed
                                            and tl_mem_free; collections never allocate.
   TL_MEM_REPORT(error, message)            called for every reported error (tl_mem_result and a
                                            static string). Default: nothing, or a line on
                                            stderr under TL_MEM_DEBUG.
   TL_MEM_DEBUG                             track live blocks: tl_mem_live_blocks and
                                            tl_mem_report_leaks list blocks never freed, and
                                            tl_mem_free refuses (and reports) pointers it did not
                                            hand out, double frees included. Define it for the
                                            whole program (a compiler flag), never per file.
                                            Main thread only, like the rest of the runtime.
   TL_MEM_NO_SIMD                           hash tables read control bytes eight at a time in a
                                            64-bit word even where SSE2 (x86-64) or NEON (64-bit
                                            ARM) would read sixteen. The bytes a table holds are
                                            the same either way.

   ERRORS
   ------
   Results as docs/errors.md (TL_MEM_RESULTS, tl_mem_result, TL_MEM_OK = 0, tl_mem_result_message).
   Invalid sizes or alignments and allocation failure return NULL, store a tl_mem_result through
   the optional out-parameter of tl_mem_alloc_zeroed_ex and call TL_MEM_REPORT (mem.h has no
   logger: the report is its log line); nothing here is undefined behaviour for bad arguments.

   BYTE ORDER
   ----------
   Hashes are the same on every machine and endianness. Collection headers are stored
   little-endian and table control bytes are single bytes, so the bytes that this header writes
   are the same everywhere; keys and values are the caller's own bytes (give them no implicit
   padding, see collections.h). tests/cross checks this on 32-bit ARM, 64-bit ARM, big-endian
   s390x and 64-bit Windows: a fixed sequence of operations that stores its numbers as
   little-endian bytes leaves the same bytes, with the same XXH64, as on x86-64 Linux.

   USE
   ---
       TL_INLINE_LIST_TYPE(int_list, int32_t)          // once, at file scope

       size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(16, sizeof(int32_t));
       unsigned char *frame = (unsigned char *)tl_mem_alloc_zeroed(bytes, 0);
       int_list list = int_list_view(frame, 16);
       int_list_add(list, 42);
       uint64_t fingerprint = tl_hash64(frame, bytes, 0);  // same on every peer after the same ops
       tl_mem_free(frame);
*/
#ifndef TL_MEM_H
#define TL_MEM_H

#include "api.h"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#if defined(TL_MEM_DEBUG)
#include <stdio.h>
#endif

#include "hash.h"

/* ---------------------------------------------------------------------------------------------
 * Configuration
 * ------------------------------------------------------------------------------------------- */

#if defined(TL_MEM_MALLOC) != defined(TL_MEM_FREE)
#error "threadlink/mem.h: define both TL_MEM_MALLOC and TL_MEM_FREE, or neither"
#endif
#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/mem.h: define both TL_MALLOC and TL_FREE, or neither"
#endif
#ifndef TL_MEM_MALLOC
#ifdef TL_MALLOC
#define TL_MEM_MALLOC(size) TL_MALLOC(size)
#define TL_MEM_FREE(ptr) TL_FREE(ptr)
#else
#define TL_MEM_MALLOC(size) malloc(size)
#define TL_MEM_FREE(ptr) free(ptr)
#endif
#endif

#ifndef TL_MEM_REPORT
#ifdef TL_MEM_DEBUG
#define TL_MEM_REPORT(error, message) \
    ((void)fprintf(stderr, "threadlink mem: error %d: %s\n", (int)(error), (message)))
#else
#define TL_MEM_REPORT(error, message) ((void)(error), (void)(message))
#endif
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TL__MEM_FORCE_INLINE static inline __attribute__((always_inline))
#define TL__MEM_UNUSED __attribute__((unused))
#define TL__MEM_NOINLINE __attribute__((noinline))
#define TL__MEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define TL__MEM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#elif defined(_MSC_VER)
#define TL__MEM_FORCE_INLINE static __forceinline
#define TL__MEM_UNUSED
#define TL__MEM_NOINLINE __declspec(noinline)
#define TL__MEM_LIKELY(x) (x)
#define TL__MEM_UNLIKELY(x) (x)
#else
#define TL__MEM_FORCE_INLINE static inline
#define TL__MEM_UNUSED
#define TL__MEM_NOINLINE
#define TL__MEM_LIKELY(x) (x)
#define TL__MEM_UNLIKELY(x) (x)
#endif

/* A hint to start fetching the cache line at `p`, for writing when `write` (a constant) is 1.
 * MSVC on x64 has no builtin but the SSE intrinsic, which is prefetcht0: what gcc and clang emit
 * for either kind on x86-64 unless told the processor has PREFETCHW. Elsewhere it is no hint. */
#if defined(__GNUC__) || defined(__clang__)
#define TL__MEM_PREFETCH(p, write) __builtin_prefetch((p), (write))
#elif defined(_MSC_VER) && defined(_M_X64) && !defined(_M_ARM64EC)
#include <xmmintrin.h>
#define TL__MEM_PREFETCH(p, write) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define TL__MEM_PREFETCH(p, write) ((void)(p))
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TL__MEM_LITTLE_ENDIAN 1
#elif defined(_MSC_VER) && \
    (defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64) || defined(_M_ARM))
#define TL__MEM_LITTLE_ENDIAN 1
#else
#define TL__MEM_LITTLE_ENDIAN 0 /* unknown or big-endian: assemble bytes, correct everywhere */
#endif

#include "cast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Results (docs/errors.md): one row per failure, id and message; TL_MEM_OK is 0.
 * ------------------------------------------------------------------------------------------- */

#define TL_MEM_RESULTS(X) \
    X(ERROR_SIZE, "block size is zero or larger than TL_MEM_MAX_BYTES") \
    X(ERROR_ALIGNMENT, "alignment is not a power of two or is larger than TL_MEM_MAX_ALIGNMENT") \
    X(ERROR_OUT_OF_MEMORY, "allocation failed") \
    X(ERROR_FOREIGN_BLOCK, \
      "tl_mem_free: not a live block from tl_mem_alloc_zeroed (double free?)") \
    X(ERROR_OVERLAP, "tl_mem_copy: ranges overlap (copied with memmove)")

typedef enum tl_mem_result {
    TL_MEM_OK = 0,
#define TL__MEM_RESULT_ENUM(id, message) TL_MEM_##id,
    TL_MEM_RESULTS(TL__MEM_RESULT_ENUM) /* TL_MEM_<id>, one per row from 1 */
#undef TL__MEM_RESULT_ENUM
    TL_MEM_RESULT_END_
} tl_mem_result;

/* log.h's TL_RESULT_MESSAGE_FN, written out static inline: mem.h is core (no implementation). */
#define TL__MEM_RESULT_MESSAGE(id, message) message,
static inline const char *tl_mem_result_message(tl_mem_result result) {
    static const char *const messages[] = { "ok", TL_MEM_RESULTS(TL__MEM_RESULT_MESSAGE) };
    return (size_t)result < sizeof messages / sizeof messages[0] ? messages[result]
                                                                 : "unknown result";
}

/* ---------------------------------------------------------------------------------------------
 * Byte order helpers (little-endian loads and stores; plain moves on little-endian targets)
 * ------------------------------------------------------------------------------------------- */

TL__MEM_FORCE_INLINE uint32_t tl__mem_load_le32(const void *p) {
#if TL__MEM_LITTLE_ENDIAN
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    const unsigned char *b = (const unsigned char *)p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
#endif
}

TL__MEM_FORCE_INLINE uint64_t tl__mem_load_le64(const void *p) {
#if TL__MEM_LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    const unsigned char *b = (const unsigned char *)p;
    return (uint64_t)tl__mem_load_le32(b) | ((uint64_t)tl__mem_load_le32(b + 4) << 32);
#endif
}

TL__MEM_FORCE_INLINE void tl__mem_store_le32(void *p, uint32_t v) {
#if TL__MEM_LITTLE_ENDIAN
    memcpy(p, &v, sizeof v);
#else
    unsigned char *b = (unsigned char *)p;
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
#endif
}

TL__MEM_FORCE_INLINE void tl__mem_store_le64(void *p, uint64_t v) {
#if TL__MEM_LITTLE_ENDIAN
    memcpy(p, &v, sizeof v);
#else
    tl__mem_store_le32(p, (uint32_t)v);
    tl__mem_store_le32((unsigned char *)p + 4, (uint32_t)(v >> 32));
#endif
}

/* ---------------------------------------------------------------------------------------------
 * Blocks
 * ------------------------------------------------------------------------------------------- */

/* A cache line: what tl_mem_alloc_zeroed uses when asked for alignment 0. */
#define TL_MEM_DEFAULT_ALIGNMENT ((size_t)64)
/* Larger alignments are refused rather than silently over-allocating. */
#define TL_MEM_MAX_ALIGNMENT ((size_t)65536)
/* The largest block: half the address space, so that size arithmetic can never wrap. */
#define TL_MEM_MAX_BYTES ((size_t)(PTRDIFF_MAX / 2))

/* Stored just before every block. Its size is a multiple of 8 and blocks are at least 16-aligned,
 * so the header itself is always 8-aligned. */
typedef struct tl__mem_header {
#ifdef TL_MEM_DEBUG
    struct tl__mem_header *prev;
    struct tl__mem_header *next;
    uint64_t serial;
#endif
    void *raw;
    size_t bytes;
} tl__mem_header;

#if defined(TL_MEM_DEBUG) && defined(TL_STATIC)
/* TL_STATIC: the one file using the runtime holds the list (C++ has no tentative definitions). */
#if defined(__GNUC__) || defined(__clang__)
#define TL__MEM_UNUSED __attribute__((unused))
#else
#define TL__MEM_UNUSED
#endif
static TL__MEM_UNUSED tl__mem_header *tl__mem_live_head = NULL;
static TL__MEM_UNUSED size_t tl__mem_live_count = 0;
static TL__MEM_UNUSED uint64_t tl__mem_next_serial = 0;
#elif defined(TL_MEM_DEBUG)
/* Defined once, in the file that defines TL_MEM_IMPL. */
TL_API tl__mem_header *tl__mem_live_head;
TL_API size_t tl__mem_live_count;
TL_API uint64_t tl__mem_next_serial;
#endif

static inline void *tl__mem_fail(tl_mem_result error, tl_mem_result *error_out) {
    if (error_out) *error_out = error;
    TL_MEM_REPORT(error, tl_mem_result_message(error));
    return NULL;
}

/* A zeroed block of `bytes` bytes aligned to `alignment` (a power of two up to
 * TL_MEM_MAX_ALIGNMENT; 0 means TL_MEM_DEFAULT_ALIGNMENT). Zeroing is never skipped: a block that is
 * hashed whole must not carry leftover bytes. On failure returns NULL, stores the reason in
 * *error (when error is not NULL) and calls TL_MEM_REPORT. */
static inline void *tl_mem_alloc_zeroed_ex(size_t bytes, size_t alignment, tl_mem_result *error) {
    size_t align;
    unsigned char *raw;
    unsigned char *base;
    unsigned char *block;
    size_t misalign;
    tl__mem_header *header;

    if (alignment == 0) alignment = TL_MEM_DEFAULT_ALIGNMENT;
    if ((alignment & (alignment - 1)) != 0 || alignment > TL_MEM_MAX_ALIGNMENT)
        return tl__mem_fail(TL_MEM_ERROR_ALIGNMENT, error);
    if (bytes == 0 || bytes > TL_MEM_MAX_BYTES) return tl__mem_fail(TL_MEM_ERROR_SIZE, error);

    align = alignment < 16 ? 16 : alignment;
    raw = (unsigned char *)TL_MEM_MALLOC(sizeof(tl__mem_header) + align + bytes);
    if (!raw) return tl__mem_fail(TL_MEM_ERROR_OUT_OF_MEMORY, error);

    base = raw + sizeof(tl__mem_header);
    misalign = (size_t)((uintptr_t)base & (uintptr_t)(align - 1));
    block = base + (misalign ? align - misalign : 0);
    header = (tl__mem_header *)(void *)(block - sizeof(tl__mem_header));
    header->raw = raw;
    header->bytes = bytes;
#ifdef TL_MEM_DEBUG
    header->serial = tl__mem_next_serial++;
    header->prev = NULL;
    header->next = tl__mem_live_head;
    if (tl__mem_live_head) tl__mem_live_head->prev = header;
    tl__mem_live_head = header;
    tl__mem_live_count++;
#endif
    memset(block, 0, bytes);
    if (error) *error = TL_MEM_OK;
    return block;
}

/* tl_mem_alloc_zeroed_ex without the error out-parameter. */
static inline void *tl_mem_alloc_zeroed(size_t bytes, size_t alignment) {
    return tl_mem_alloc_zeroed_ex(bytes, alignment, NULL);
}

/* Frees a block from tl_mem_alloc_zeroed. NULL is ignored. */
static inline void tl_mem_free(void *block) {
    tl__mem_header *header;
    if (!block) return;
    header = (tl__mem_header *)(void *)((unsigned char *)block - sizeof(tl__mem_header));
#ifdef TL_MEM_DEBUG
    {
        /* Compare addresses only, so a foreign or freed pointer is never dereferenced; unlink the
     * list's own pointer. */
        tl__mem_header *live = tl__mem_live_head;
        while (live && live != header) live = live->next;
        if (!live) {
            (void)tl__mem_fail(TL_MEM_ERROR_FOREIGN_BLOCK, NULL);
            return;
        }
        if (live->prev) live->prev->next = live->next;
        else tl__mem_live_head = live->next;
        if (live->next) live->next->prev = live->prev;
        tl__mem_live_count--;
        header = live;
    }
#endif
    TL_MEM_FREE(header->raw);
}

/* The size that a live block was allocated with (0 for NULL). */
static inline size_t tl_mem_block_size(const void *block) {
    if (!block) return 0;
    return ((const tl__mem_header *)(const void *)((const unsigned char *)block -
                                                   sizeof(tl__mem_header)))
        ->bytes;
}

/* Copies `bytes` bytes between non-overlapping ranges. Overlap is reported (TL_MEM_ERROR_OVERLAP)
 * and then handled as memmove would, never undefined behaviour. */
static inline void tl_mem_copy(void *destination, const void *source, size_t bytes) {
    uintptr_t d = (uintptr_t)destination, s = (uintptr_t)source;
    if (bytes == 0 || destination == source) return;
    if ((d < s && s - d < bytes) || (s < d && d - s < bytes)) {
        (void)tl__mem_fail(TL_MEM_ERROR_OVERLAP, NULL);
        memmove(destination, source, bytes);
        return;
    }
    memcpy(destination, source, bytes);
}

/* Zeroes a range. */
static inline void tl_mem_clear(void *block, size_t bytes) {
    if (bytes) memset(block, 0, bytes);
}

/* Whether two ranges hold the same bytes (true for zero bytes). */
static inline bool tl_mem_equal(const void *a, const void *b, size_t bytes) {
    return bytes == 0 || a == b || memcmp(a, b, bytes) == 0;
}

/* Blocks allocated and not yet freed: always 0 without TL_MEM_DEBUG. */
static inline size_t tl_mem_live_blocks(void) {
#ifdef TL_MEM_DEBUG
    return tl__mem_live_count;
#else
    return 0;
#endif
}

/* Called once per block never freed: its address, size and allocation serial number (0, 1, 2 ...
 * in allocation order, so a leak can be traced back with a conditional breakpoint). */
typedef void (*tl_mem_leak_fn)(void *user, const void *block, size_t bytes, uint64_t serial);

/* Reports every live block, newest first, through `fn` (or one line each on stderr when fn is
 * NULL) and returns how many there are. Without TL_MEM_DEBUG, nothing is tracked: returns 0. */
static inline size_t tl_mem_report_leaks(tl_mem_leak_fn fn, void *user) {
#ifdef TL_MEM_DEBUG
    const tl__mem_header *h;
    for (h = tl__mem_live_head; h; h = h->next) {
        const void *block = (const unsigned char *)h + sizeof(tl__mem_header);
        if (fn) fn(user, block, h->bytes, h->serial);
        else
            fprintf(stderr, "threadlink mem: leaked block %p, %zu bytes, allocation #%llu\n", block,
                    h->bytes, (unsigned long long)h->serial);
    }
    return tl__mem_live_count;
#else
    (void)fn;
    (void)user;
    return 0;
#endif
}

/* ---------------------------------------------------------------------------------------------
 * Layout of inline collections. A layout generator must produce exactly these sizes
 * (gen/core/layout.c does; tests/mem proves it).
 *
 *   - Every header, slot and value starts on an 8-byte boundary: TL_LAYOUT_ALIGN rounds up to 8.
 *   - A list, queue, stack, hash set or dictionary starts with an 8-byte header: bytes 0-3 hold
 *     its count (little-endian); a queue's bytes 4-7 hold its head (the slot of the oldest
 *     element), a hash set's or dictionary's 1 + the slot of its pending removal (0: none; see
 *     collections.h), a list's or stack's zero. An array has no header.
 *   - Elements of an array, list, queue or stack follow one another every TL_LAYOUT_ALIGN(size)
 *     bytes.
 *   - A hash set or dictionary is its header, then a control array and a fragment array of one
 *     byte per slot, each padded to 8 bytes (together TL_LAYOUT_TABLE_CONTROL_BYTES), then its
 *     slots. A slot is the key, then (dictionary) the value, each starting on an 8-byte boundary.
 *     Control byte i is 0 when slot i is empty; otherwise d + 1, where d is how far slot i lies
 *     past its key's home slot ((tl_hash32(key, seed 0) * capacity) >> 32, wrapping), with 255
 *     standing for any d >= 254. Fragment byte i is tl_hash32(key, seed 0) & 0xFF of the key in slot
 *     i. An empty slot, its control and its fragment byte are all zeros. The slot of a pending
 *     removal keeps its control byte, key and value; its fragment byte is flipped (XOR 0x80) and
 *     it is not counted.
 *
 * Every macro is an integer constant expression when its arguments are (usable in static
 * assertions and array sizes); results have type size_t, so on a 32-bit target a size past 4 GiB
 * wraps (no view accepts more than TL_MEM_MAX_BYTES, 1 GiB there).
 * ------------------------------------------------------------------------------------------- */

#define TL_LAYOUT_ALIGNMENT 8
#define TL_LAYOUT_HEADER_BYTES TL__CAST(size_t, 8)

#define TL_LAYOUT_ALIGN(size) \
    ((TL__CAST(size_t, size) + TL__CAST(size_t, 7)) & ~TL__CAST(size_t, 7))
#define TL_LAYOUT_ARRAY_BYTES(capacity, element_size) \
    (TL__CAST(size_t, capacity) * TL_LAYOUT_ALIGN(element_size))
#define TL_LAYOUT_SEQUENCE_BYTES(capacity, element_size) \
    (TL_LAYOUT_HEADER_BYTES + TL__CAST(size_t, capacity) * TL_LAYOUT_ALIGN(element_size))
#define TL_LAYOUT_TABLE_CONTROL_BYTES(capacity) (2 * TL_LAYOUT_ALIGN(capacity))
/* Offset of a set's or dictionary's first slot. */
#define TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity) \
    (TL_LAYOUT_HEADER_BYTES + TL_LAYOUT_TABLE_CONTROL_BYTES(capacity))
#define TL_LAYOUT_SET_SLOT_BYTES(element_size) TL_LAYOUT_ALIGN(element_size)
#define TL_LAYOUT_SET_BYTES(capacity, element_size) \
    (TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity) + \
     TL__CAST(size_t, capacity) * TL_LAYOUT_SET_SLOT_BYTES(element_size))
#define TL_LAYOUT_DICT_SLOT_BYTES(key_size, value_size) \
    (TL_LAYOUT_ALIGN(key_size) + TL_LAYOUT_ALIGN(value_size))
#define TL_LAYOUT_DICT_BYTES(capacity, key_size, value_size) \
    (TL_LAYOUT_TABLE_SLOTS_OFFSET(capacity) + \
     TL__CAST(size_t, capacity) * TL_LAYOUT_DICT_SLOT_BYTES(key_size, value_size))
/* Offset of the value inside a dictionary slot (the key is at 0). */
#define TL_LAYOUT_SLOT_VALUE_OFFSET(key_size) TL_LAYOUT_ALIGN(key_size)

/* Limits of the collection views (the generator refuses larger schemas with the same numbers). */
#define TL_INLINE_MAX_CAPACITY 0x7FFFFFFFu
#define TL_INLINE_MAX_ELEMENT_SIZE 0x40000000u

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TL_MEM_H */

/* The live-block list of TL_MEM_DEBUG, defined once (under TL_STATIC, above). */
#if defined(TL_MEM_IMPL) && defined(TL_MEM_DEBUG) && !defined(TL_STATIC) && \
    !defined(TL__MEM_IMPLEMENTED)
#define TL__MEM_IMPLEMENTED
#ifdef __cplusplus
extern "C" {
#endif
tl__mem_header *tl__mem_live_head = NULL;
size_t tl__mem_live_count = 0;
uint64_t tl__mem_next_serial = 0;
#ifdef __cplusplus
}
#endif
#endif /* TL_MEM_IMPL */
