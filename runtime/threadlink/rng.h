/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/rng.h -- stateless random streams: a stream is a pure function of its identity.

   WHAT
   ----
   The one source of random numbers for gameplay, simulation, procedural generation and
   presentation. A stream is a pure function of a world seed, a domain (what the numbers are
   for: a 32-bit value, such as an entry of a generated identity domain you declare for it) and
   identity parts (whose and when: an entity, a tick, a map cell). The same inputs give the
   same numbers on every machine, compiler and thread, however many draws happen elsewhere.
   Nothing is shared or advanced globally: a tl_rng is a small value that you create where you
   roll, one per purpose, entity and tick. Not for secrets or unique ids.

   INCLUDE
   -------
       #include <threadlink/rng.h>  (static inline, no implementation switch; includes fp.h)

   USE
   ---
       // One stream per purpose, entity and tick: the same numbers whatever else was drawn.
       tl_rng loot = tl_rng_create2(world_seed, GAME_ROLLS_U32(Game_Rolls_Loot), enemy_id, tick);
       int32_t gold = tl_rng_range(&loot, 10, 20);          // 10..19
       if (tl_rng_chance(&loot, 1, 20)) drop_rare(enemy_id); // 5 %
       tl_fp spread = tl_rng_range_fp(&loot, tl_fp_from_int(-1), tl_fp_from_int(1));
       tl_rng shot = tl_rng_fork(&loot, tl_rng_part("muzzle")); // a sub-stream, by name
   world_seed is the game's (a save keeps it); Game_Rolls_Loot an entry of an identity domain
   declared for the purposes, as uint32_t through its GAME_ROLLS_U32 (any fixed 32-bit value
   works); the parts say whose and when.

   OVERRIDES
   ---------
   None (TL_FP_PORTABLE_128 of fp.h applies to the wide multiplies here too).

   FORMAT (pinned by golden values in tests/rng: it is part of users' save files)
   ------
   mix(z)      SplitMix64's finalizer: z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
               z *= 0x94D049BB133111EB; z ^= z >> 31.
   fold(h, p)  mix(h ^ mix(p + GAMMA)), GAMMA = 0x9E3779B97F4A7C15: each part is mixed on its
               own first, so order matters and equal parts do not cancel.
   identity    h = mix(seed ^ 0x243F6A8885A308D3) (a zero seed is not degenerate), then
               h = fold(h, domain) with the whole 32-bit domain, then h = fold(h, part) for
               each part in order. tl_rng_fork(&s, p) is fold(s.id, p): forking a stream made
               from parts (a, b) with c gives the stream made from (a, b, c).
   draws       state starts at the identity; each 64-bit draw is state += GAMMA; mix(state)
               (a SplitMix64 sequence).
   samplers    range: Lemire's multiply-shift on a 64-bit draw, redrawing the rare biased
               case; chance(p) compares the top 32 bits of a draw with p's raw value. A sampler of
               one value makes one draw (plus the rare redraw) whatever its arguments'
               values; tl_rng_shuffle makes count - 1 range draws (each with its rare redraw)
               when count >= 2 and size > 0, and none otherwise (count 0 or 1, or size 0:
               nothing to move); tl_rng_inside_unit_circle makes two per try of its rejection
               loop.
   tl_rng_part(text): FNV-1a 64 over the bytes, then mix.
*/
#ifndef TL_RNG_H
#define TL_RNG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t id;    /* the stream's identity: what tl_rng_fork derives from */
    uint64_t state; /* advances with each draw */
} tl_rng;

#define TL__RNG_GAMMA UINT64_C(0x9E3779B97F4A7C15)
#define TL__RNG_SEED_KEY UINT64_C(0x243F6A8885A308D3)

/* SplitMix64's finalizer: a bijection of 64-bit values. */
static inline uint64_t tl_rng_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static inline uint64_t tl__rng_fold(uint64_t h, uint64_t part) {
    return tl_rng_mix(h ^ tl_rng_mix(part + TL__RNG_GAMMA));
}
static inline tl_rng tl__rng_from_id(uint64_t id) {
    tl_rng r;
    r.id = id;
    r.state = id;
    return r;
}

/* A part from bytes or from a NUL-terminated string (hash fixed strings once, not per roll). */
static inline uint64_t tl_rng_part_bytes(const void *data, size_t len) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    size_t i;
    for (i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001B3);
    }
    return tl_rng_mix(h);
}
static inline uint64_t tl_rng_part(const char *text) {
    return tl_rng_part_bytes(text, text ? strlen(text) : 0);
}

/* Streams: a world seed, a domain and up to three parts, or an array of any length. */
static inline tl_rng tl_rng_create(uint64_t seed, uint32_t domain) {
    return tl__rng_from_id(tl__rng_fold(tl_rng_mix(seed ^ TL__RNG_SEED_KEY), domain));
}
static inline tl_rng tl_rng_create1(uint64_t seed, uint32_t domain, uint64_t p0) {
    return tl__rng_from_id(tl__rng_fold(tl_rng_create(seed, domain).id, p0));
}
static inline tl_rng tl_rng_create2(uint64_t seed, uint32_t domain, uint64_t p0, uint64_t p1) {
    return tl__rng_from_id(tl__rng_fold(tl_rng_create1(seed, domain, p0).id, p1));
}
static inline tl_rng tl_rng_create3(uint64_t seed, uint32_t domain, uint64_t p0, uint64_t p1,
                                    uint64_t p2) {
    return tl__rng_from_id(tl__rng_fold(tl_rng_create2(seed, domain, p0, p1).id, p2));
}
static inline tl_rng tl_rng_create_n(uint64_t seed, uint32_t domain, const uint64_t *parts,
                                     size_t count) {
    uint64_t h = tl_rng_create(seed, domain).id;
    size_t i;
    for (i = 0; i < count; i++) h = tl__rng_fold(h, parts[i]);
    return tl__rng_from_id(h);
}
/* A finer identity under this stream's: independent of how many draws it has made. */
static inline tl_rng tl_rng_fork(const tl_rng *stream, uint64_t part) {
    return tl__rng_from_id(tl__rng_fold(stream->id, part));
}

/* ---- samplers: each advances *r ---------------------------------------------------------- */

static inline uint64_t tl_rng_next_u64(tl_rng *r) { return tl_rng_mix(r->state += TL__RNG_GAMMA); }
static inline uint32_t tl_rng_next_u32(tl_rng *r) { return (uint32_t)(tl_rng_next_u64(r) >> 32); }

/* Lemire's nearly-divisionless method on one draw: accepted when the low word of x n is not in
 * the biased zone [0, 2^64 mod n). Exposed for tests, which feed it chosen draws. */
static inline int tl__rng_lemire_accept(uint64_t x, uint64_t n, uint64_t *out) {
    tl__u128 m = tl__mul64(x, n);
    *out = m.hi;
    if (m.lo < n) return m.lo >= (0 - n) % n; /* the remainder only in the rare low zone */
    return 1;
}
/* Uniform in [0, n); n == 0 means the whole 64-bit range. */
static inline uint64_t tl_rng_range_u64(tl_rng *r, uint64_t n) {
    uint64_t v;
    if (n == 0) return tl_rng_next_u64(r);
    while (!tl__rng_lemire_accept(tl_rng_next_u64(r), n, &v)) {}
    return v;
}
/* Uniform in [lo, hi), every value equally likely; hi <= lo gives lo (after one draw). */
static inline int32_t tl_rng_range(tl_rng *r, int32_t lo, int32_t hi) {
    uint64_t n = hi > lo ? (uint64_t)((int64_t)hi - lo) : 1;
    return (int32_t)((int64_t)lo + (int64_t)tl_rng_range_u64(r, n));
}
/* Uniform over the raw values in [lo, hi); hi <= lo gives lo (after one draw). */
static inline tl_fp tl_rng_range_fp(tl_rng *r, tl_fp lo, tl_fp hi) {
    uint64_t n = hi.raw > lo.raw ? (uint64_t)hi.raw - (uint64_t)lo.raw : 1;
    return tl_fp_from_raw((int64_t)((uint64_t)lo.raw + tl_rng_range_u64(r, n)));
}
/* Uniform in [0, 1) at the raw resolution. */
static inline tl_fp tl_rng_value(tl_rng *r) {
    return tl_fp_from_raw((int64_t)(tl_rng_next_u64(r) >> 32));
}
/* True with probability num/den exactly (false for num <= 0 or den <= 0, true for num >= den). */
static inline int tl_rng_chance(tl_rng *r, int32_t num, int32_t den) {
    uint64_t v = tl_rng_range_u64(r, den > 0 ? (uint64_t)den : 1);
    return den > 0 && num > 0 && v < (uint64_t)num;
}
/* True with probability p, exact to the raw unit: p.raw / 2^32 (p <= 0 never, p >= 1 always). */
static inline int tl_rng_chance_fp(tl_rng *r, tl_fp p) {
    uint64_t u = tl_rng_next_u64(r) >> 32;
    return p.raw > 0 && u < (uint64_t)p.raw;
}
/* An index drawn in proportion to the weights (negative weights count as zero); -1 when there
 * is no positive weight (after its one draw, like every sampler).
 * Precision: the positive raw weights are summed in 128 bits. While that sum is below 2^64 raw
 * (weights totalling less than 2^32), index i has probability exactly w[i].raw / sum. From 2^64
 * on, every weight is first shifted right by d bits, d = the bit length of (sum >> 64), at least
 * 1 and below the bit length of count: index i then has probability floor(w[i].raw / 2^d)
 * divided by the sum of those, and a positive weight below 2^d raw (2^d * 2^-32) can never be
 * picked. {TL_FP_MAX, TL_FP_MAX, TL_FP_MAX, 1 raw} has d = 1: index 3 never comes up. */
static inline ptrdiff_t tl_rng_weighted_index(tl_rng *r, const tl_fp *weights, size_t count) {
    tl__u128 total = tl__u128_from64(0);
    uint64_t t = 0, pick, cum = 0;
    unsigned down = 0;
    size_t i;
    for (i = 0; i < count; i++)
        if (weights[i].raw > 0) total = tl__u128_add64(total, (uint64_t)weights[i].raw);
    if (total.hi) down = (unsigned)(64 - tl__clz64(total.hi));
    for (i = 0; i < count; i++)
        if (weights[i].raw > 0) t += (uint64_t)weights[i].raw >> down;
    pick = tl_rng_range_u64(r, t ? t : 1);
    if (t == 0) return -1;
    for (i = 0; i < count; i++) {
        if (weights[i].raw <= 0) continue;
        cum += (uint64_t)weights[i].raw >> down;
        if (pick < cum) return (ptrdiff_t)i;
    }
    return -1; /* not reached */
}
/* The same with integer weights. */
static inline ptrdiff_t tl_rng_weighted_index_u32(tl_rng *r, const uint32_t *weights,
                                                  size_t count) {
    uint64_t t = 0, pick, cum = 0;
    size_t i;
    for (i = 0; i < count; i++) t += weights[i]; /* < 2^64 for any count below 2^32 */
    pick = tl_rng_range_u64(r, t ? t : 1);
    if (t == 0) return -1;
    for (i = 0; i < count; i++) {
        cum += weights[i];
        if (pick < cum) return (ptrdiff_t)i;
    }
    return -1;
}
/* Fisher-Yates: every order of the count elements of size bytes equally likely. count - 1 range
 * draws, none when count < 2 or size == 0 (see "samplers" above). */
static inline void tl_rng_shuffle(tl_rng *r, void *base, size_t count, size_t size) {
    unsigned char *p = (unsigned char *)base, tmp[64];
    size_t i;
    if (count < 2 || size == 0) return;
    for (i = count - 1; i > 0; i--) {
        size_t j = (size_t)tl_rng_range_u64(r, (uint64_t)i + 1), off;
        if (j == i) continue;
        for (off = 0; off < size; off += sizeof tmp) {
            size_t n = size - off < sizeof tmp ? size - off : sizeof tmp;
            memcpy(tmp, p + i * size + off, n);
            memcpy(p + i * size + off, p + j * size + off, n);
            memcpy(p + j * size + off, tmp, n);
        }
    }
}
/* A point strictly inside the unit circle, uniform at the raw resolution (rejection sampling on
 * the square, exact test in 128 bits: two draws per try, 4/pi tries on average). */
static inline tl_fpv2 tl_rng_inside_unit_circle(tl_rng *r) {
    for (;;) {
        int64_t x = (int64_t)(tl_rng_next_u64(r) >> 31) - (INT64_C(1) << 32); /* [-2^32, 2^32) */
        int64_t y = (int64_t)(tl_rng_next_u64(r) >> 31) - (INT64_C(1) << 32);
        tl__u128 s = tl__u128_add(tl__mul64(tl__uabs64(x), tl__uabs64(x)),
                                  tl__mul64(tl__uabs64(y), tl__uabs64(y)));
        if (s.hi == 0)
            return tl_fpv2_make(tl_fp_from_raw(x), tl_fp_from_raw(y)); /* x^2 + y^2 < 1 */
    }
}

#ifdef __cplusplus
}
#endif
#endif /* TL_RNG_H */
