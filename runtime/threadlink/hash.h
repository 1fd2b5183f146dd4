/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/hash.h -- XXH32 and XXH64 of raw memory, in one direction or streamed.

   WHAT
   ----
   The hashes every threadlink value is made of, exactly xxHash's XXH32 and XXH64 (xxHash stays
   the project's hash: identity values, asset ids, the fingerprints of frames and of content are
   xxHash digests), written out here in about a hundred lines so that no including file sees
   xxhash.h's thousands: tests/mem checks every length from 0 to 300 and large buffers against
   libxxhash, bit for bit, on every target of tests/cross.

     tl_hash64(data, n, seed)        XXH64 of n bytes
     tl_hash32(data, n, seed)        XXH32 of n bytes
     tl_hash32_4 / tl_hash32_8       XXH32 of exactly 4 / 8 bytes, unrolled for hash tables
     tl_hash64_state                 XXH64 fed in pieces: reset, update, digest
     tl_hash64_stream                fixed-width values fed in little-endian order (mem.h's frames)

   INCLUDE
   -------
       #include <threadlink/hash.h>   (no implementation switch: everything is static inline)

   USE
   ---
       uint64_t id = tl_hash64("Sword", 5, 0);              // XXH64 of 5 bytes, seed 0
       uint32_t key = 1234u;
       uint32_t slot = tl_hash32_4(&key, 0) & 1023u;        // a 4-byte key into 1024 slots
       tl_hash64_state h;
       tl_hash64_reset(&h, 0);
       tl_hash64_update(&h, "Swo", 3);                      // in pieces: the same as one call
       tl_hash64_update(&h, "rd", 2);
       if (tl_hash64_digest(&h) == id) printf("%u\n", (unsigned)slot);
   The same bytes give the same value on every machine and byte order.
*/
#ifndef TL_HASH_H
#define TL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TL__HASH_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TL__HASH_INLINE static __forceinline
#else
#define TL__HASH_INLINE static inline
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TL__HASH_LITTLE_ENDIAN 1
#elif defined(_MSC_VER) && \
    (defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64) || defined(_M_ARM))
#define TL__HASH_LITTLE_ENDIAN 1
#else
#define TL__HASH_LITTLE_ENDIAN 0 /* unknown or big-endian: assemble bytes, correct everywhere */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- little-endian loads ------------------------------------------------------------------------ */

TL__HASH_INLINE uint32_t tl__hash_le32(const unsigned char *p) {
#if TL__HASH_LITTLE_ENDIAN
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}

TL__HASH_INLINE uint64_t tl__hash_le64(const unsigned char *p) {
#if TL__HASH_LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint64_t)tl__hash_le32(p) | ((uint64_t)tl__hash_le32(p + 4) << 32);
#endif
}

TL__HASH_INLINE uint32_t tl__hash_rotl32(uint32_t x, unsigned r) {
    return (x << r) | (x >> (32 - r));
}
TL__HASH_INLINE uint64_t tl__hash_rotl64(uint64_t x, unsigned r) {
    return (x << r) | (x >> (64 - r));
}

/* --- XXH32 -------------------------------------------------------------------------------------- */

#define TL__XXH_PRIME32_1 0x9E3779B1u
#define TL__XXH_PRIME32_2 0x85EBCA77u
#define TL__XXH_PRIME32_3 0xC2B2AE3Du
#define TL__XXH_PRIME32_4 0x27D4EB2Fu
#define TL__XXH_PRIME32_5 0x165667B1u

TL__HASH_INLINE uint32_t tl__hash32_round(uint32_t acc, uint32_t input) {
    acc += input * TL__XXH_PRIME32_2;
    return tl__hash_rotl32(acc, 13) * TL__XXH_PRIME32_1;
}

/* One 4-byte lane of the tail. */
TL__HASH_INLINE uint32_t tl__hash32_lane(uint32_t h, uint32_t lane) {
    h += lane * TL__XXH_PRIME32_3;
    return tl__hash_rotl32(h, 17) * TL__XXH_PRIME32_4;
}

TL__HASH_INLINE uint32_t tl__hash32_avalanche(uint32_t h) {
    h ^= h >> 15;
    h *= TL__XXH_PRIME32_2;
    h ^= h >> 13;
    h *= TL__XXH_PRIME32_3;
    h ^= h >> 16;
    return h;
}

/* tl_hash32(data, length, seed). Places keys in inline hash sets and dictionaries. */
static inline uint32_t tl_hash32(const void *data, size_t length, uint32_t seed) {
    const unsigned char *p = (const unsigned char *)data, *end = p + length;
    uint32_t h;
    if (length >= 16) {
        uint32_t v1 = seed + TL__XXH_PRIME32_1 + TL__XXH_PRIME32_2, v2 = seed + TL__XXH_PRIME32_2;
        uint32_t v3 = seed, v4 = seed - TL__XXH_PRIME32_1;
        for (; end - p >= 16; p += 16) {
            v1 = tl__hash32_round(v1, tl__hash_le32(p));
            v2 = tl__hash32_round(v2, tl__hash_le32(p + 4));
            v3 = tl__hash32_round(v3, tl__hash_le32(p + 8));
            v4 = tl__hash32_round(v4, tl__hash_le32(p + 12));
        }
        h = tl__hash_rotl32(v1, 1) + tl__hash_rotl32(v2, 7) + tl__hash_rotl32(v3, 12) +
            tl__hash_rotl32(v4, 18);
    } else {
        h = seed + TL__XXH_PRIME32_5;
    }
    h += (uint32_t)length;
    for (; end - p >= 4; p += 4) h = tl__hash32_lane(h, tl__hash_le32(p));
    for (; p < end; p++) h = tl__hash_rotl32(h + *p * TL__XXH_PRIME32_5, 11) * TL__XXH_PRIME32_1;
    return tl__hash32_avalanche(h);
}

/* XXH32 of exactly 4 bytes: equal to tl_hash32(data, 4, seed), small enough to inline into every
   lookup. */
TL__HASH_INLINE uint32_t tl_hash32_4(const void *data, uint32_t seed) {
    uint32_t h = seed + TL__XXH_PRIME32_5 + 4u;
    h = tl__hash32_lane(h, tl__hash_le32((const unsigned char *)data));
    return tl__hash32_avalanche(h);
}

/* XXH32 of exactly 8 bytes: equal to tl_hash32(data, 8, seed). */
TL__HASH_INLINE uint32_t tl_hash32_8(const void *data, uint32_t seed) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t h = seed + TL__XXH_PRIME32_5 + 8u;
    h = tl__hash32_lane(h, tl__hash_le32(p));
    h = tl__hash32_lane(h, tl__hash_le32(p + 4));
    return tl__hash32_avalanche(h);
}

/* --- XXH64 -------------------------------------------------------------------------------------- */

#define TL__XXH_PRIME64_1 UINT64_C(0x9E3779B185EBCA87)
#define TL__XXH_PRIME64_2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define TL__XXH_PRIME64_3 UINT64_C(0x165667B19E3779F9)
#define TL__XXH_PRIME64_4 UINT64_C(0x85EBCA77C2B2AE63)
#define TL__XXH_PRIME64_5 UINT64_C(0x27D4EB2F165667C5)

TL__HASH_INLINE uint64_t tl__hash64_round(uint64_t acc, uint64_t input) {
    acc += input * TL__XXH_PRIME64_2;
    return tl__hash_rotl64(acc, 31) * TL__XXH_PRIME64_1;
}

TL__HASH_INLINE uint64_t tl__hash64_merge(uint64_t h, uint64_t v) {
    h ^= tl__hash64_round(0, v);
    return h * TL__XXH_PRIME64_1 + TL__XXH_PRIME64_4;
}

/* The four accumulators over whole 32-byte stripes from p; returns where the stripes end. */
TL__HASH_INLINE const unsigned char *tl__hash64_stripes(uint64_t v[4], const unsigned char *p,
                                                        size_t stripes) {
    uint64_t v1 = v[0], v2 = v[1], v3 = v[2], v4 = v[3];
    for (; stripes; stripes--, p += 32) {
        v1 = tl__hash64_round(v1, tl__hash_le64(p));
        v2 = tl__hash64_round(v2, tl__hash_le64(p + 8));
        v3 = tl__hash64_round(v3, tl__hash_le64(p + 16));
        v4 = tl__hash64_round(v4, tl__hash_le64(p + 24));
    }
    v[0] = v1;
    v[1] = v2;
    v[2] = v3;
    v[3] = v4;
    return p;
}

TL__HASH_INLINE void tl__hash64_start(uint64_t v[4], uint64_t seed) {
    v[0] = seed + TL__XXH_PRIME64_1 + TL__XXH_PRIME64_2;
    v[1] = seed + TL__XXH_PRIME64_2;
    v[2] = seed;
    v[3] = seed - TL__XXH_PRIME64_1;
}

TL__HASH_INLINE uint64_t tl__hash64_converge(const uint64_t v[4]) {
    uint64_t h = tl__hash_rotl64(v[0], 1) + tl__hash_rotl64(v[1], 7) + tl__hash_rotl64(v[2], 12) +
                 tl__hash_rotl64(v[3], 18);
    h = tl__hash64_merge(h, v[0]);
    h = tl__hash64_merge(h, v[1]);
    h = tl__hash64_merge(h, v[2]);
    return tl__hash64_merge(h, v[3]);
}

/* The tail (fewer than 32 bytes) and the avalanche. */
static inline uint64_t tl__hash64_finish(uint64_t h, const unsigned char *p, size_t left) {
    for (; left >= 8; left -= 8, p += 8)
        h = tl__hash_rotl64(h ^ tl__hash64_round(0, tl__hash_le64(p)), 27) * TL__XXH_PRIME64_1 +
            TL__XXH_PRIME64_4;
    if (left >= 4) {
        h ^= (uint64_t)tl__hash_le32(p) * TL__XXH_PRIME64_1;
        h = tl__hash_rotl64(h, 23) * TL__XXH_PRIME64_2 + TL__XXH_PRIME64_3;
        left -= 4;
        p += 4;
    }
    for (; left; left--, p++)
        h = tl__hash_rotl64(h ^ (*p * TL__XXH_PRIME64_5), 11) * TL__XXH_PRIME64_1;
    h ^= h >> 33;
    h *= TL__XXH_PRIME64_2;
    h ^= h >> 29;
    h *= TL__XXH_PRIME64_3;
    return h ^ (h >> 32);
}

/* tl_hash64(data, length, seed): fingerprints whole blocks (a simulation frame, an asset) to detect
   divergence or damage. */
static inline uint64_t tl_hash64(const void *data, size_t length, uint64_t seed) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t h;
    if (length >= 32) {
        uint64_t v[4];
        tl__hash64_start(v, seed);
        p = tl__hash64_stripes(v, p, length / 32);
        h = tl__hash64_converge(v);
    } else {
        h = seed + TL__XXH_PRIME64_5;
    }
    return tl__hash64_finish(h + (uint64_t)length, p, length % 32);
}

/* XXH64 fed in pieces of any size: the digest equals tl_hash64 of the pieces one after another.

       tl_hash64_state s;
       tl_hash64_reset(&s, 0);
       tl_hash64_update(&s, chunk, n);          // as often as needed
       uint64_t digest = tl_hash64_digest(&s);  // may be fed on afterwards */
typedef struct tl_hash64_state {
    uint64_t v[4], seed, total;
    unsigned char buffer[32];
    uint32_t used; /* bytes waiting in buffer, fewer than 32 */
} tl_hash64_state;

static inline void tl_hash64_reset(tl_hash64_state *s, uint64_t seed) {
    tl__hash64_start(s->v, seed);
    s->seed = seed;
    s->total = 0;
    s->used = 0;
}

static inline void tl_hash64_update(tl_hash64_state *s, const void *data, size_t length) {
    const unsigned char *p = (const unsigned char *)data;
    s->total += length;
    if (s->used) {
        size_t take = 32 - s->used < length ? 32 - s->used : length;
        memcpy(s->buffer + s->used, p, take);
        s->used += (uint32_t)take;
        p += take;
        length -= take;
        if (s->used < 32) return;
        (void)tl__hash64_stripes(s->v, s->buffer, 1);
        s->used = 0;
    }
    p = tl__hash64_stripes(s->v, p, length / 32);
    if (length % 32) memcpy(s->buffer, p, length % 32);
    s->used = (uint32_t)(length % 32);
}

static inline uint64_t tl_hash64_digest(const tl_hash64_state *s) {
    uint64_t h = s->total >= 32 ? tl__hash64_converge(s->v) : s->seed + TL__XXH_PRIME64_5;
    return tl__hash64_finish(h + s->total, s->buffer, s->used);
}

/* XXH64 of fixed-width values fed one at a time in little-endian byte order: the digest equals
   tl_hash64 of the bytes the values have when stored little-endian one after another, on every
   machine. For state whose own fields are native integers (a frame block's structs): walk its
   fields once, and its fingerprint is the same on big- and little-endian machines.

       tl_hash64_stream s;
       tl_hash64_stream_reset(&s, 0);
       tl_hash64_stream_u32(&s, header->frame);
       tl_hash64_stream_u64(&s, (uint64_t)header->position.raw);
       tl_hash64_stream_bytes(&s, list_memory, 8);              // bytes already in their order
       uint64_t fingerprint = tl_hash64_stream_digest(&s);

   Values gather in the stream's buffer and are hashed in runs of TL_HASH64_STREAM_BUFFER bytes,
   so a field costs a store, not a call. */
#define TL_HASH64_STREAM_BUFFER 256

typedef struct tl_hash64_stream {
    tl_hash64_state state;
    size_t used; /* bytes waiting in buffer */
    unsigned char buffer[TL_HASH64_STREAM_BUFFER];
} tl_hash64_stream;

static inline void tl_hash64_stream_reset(tl_hash64_stream *s, uint64_t seed) {
    tl_hash64_reset(&s->state, seed);
    s->used = 0;
}

static inline void tl__hash64_stream_flush(tl_hash64_stream *s) {
    tl_hash64_update(&s->state, s->buffer, s->used);
    s->used = 0;
}

/* Bytes hashed as they are (text, or bytes whose order is already fixed). */
static inline void tl_hash64_stream_bytes(tl_hash64_stream *s, const void *data, size_t length) {
    if (length > TL_HASH64_STREAM_BUFFER - s->used) {
        tl__hash64_stream_flush(s);
        if (length >= TL_HASH64_STREAM_BUFFER) {
            tl_hash64_update(&s->state, data, length);
            return;
        }
    }
    if (length) memcpy(s->buffer + s->used, data, length);
    s->used += length;
}

static inline void tl_hash64_stream_u16(tl_hash64_stream *s, uint16_t value) {
    unsigned char b[2];
    b[0] = (unsigned char)value;
    b[1] = (unsigned char)(value >> 8);
    tl_hash64_stream_bytes(s, b, 2);
}

static inline void tl_hash64_stream_u32(tl_hash64_stream *s, uint32_t value) {
    unsigned char b[4];
    unsigned i;
    for (i = 0; i < 4; i++) b[i] = (unsigned char)(value >> (8 * i));
    tl_hash64_stream_bytes(s, b, 4);
}

static inline void tl_hash64_stream_u64(tl_hash64_stream *s, uint64_t value) {
    unsigned char b[8];
    unsigned i;
    for (i = 0; i < 8; i++) b[i] = (unsigned char)(value >> (8 * i));
    tl_hash64_stream_bytes(s, b, 8);
}

/* The hash of everything fed since the reset; the stream may be fed on afterwards. */
static inline uint64_t tl_hash64_stream_digest(tl_hash64_stream *s) {
    tl__hash64_stream_flush(s);
    return tl_hash64_digest(&s->state);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_HASH_H */
