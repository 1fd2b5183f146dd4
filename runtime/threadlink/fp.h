/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/fp.h -- deterministic Q32.32 fixed point, vectors and rotations.

   WHAT
   ----
   tl_fp is a Q32.32 fixed-point number: a signed 64-bit raw value with 32 integer and 32
   fractional bits, for a range of about +-2.1e9 at a uniform resolution of 2^-32 (2.3e-10).
   Every operation is integer arithmetic, so a result has the same bits on every machine,
   compiler and optimisation level. tl_fpv2, tl_fpv3 and tl_fpquat are plain structs of tl_fp.
   Header-only, no allocation, no global or cached state: a result never depends on earlier calls.

   INCLUDE
   -------
       #include <threadlink/fp.h>   (no implementation switch: everything is static inline)

   USE
   ---
       tl_fp speed = tl_fp_from_fraction(3, 2);            // 1.5, exact; tl_fp_from_int(n) too
       tl_fp dt = tl_fp_from_fraction(1, 50);               // a 50 Hz step
       tl_fp moved = tl_fp_mul(speed, dt);
       tl_fpv2 p = tl_fpv2_make(tl_fp_from_int(3), tl_fp_from_int(4));
       tl_fp r = tl_fpv2_magnitude(p);                      // 5, the same bits everywhere
       tl_fp s = tl_fp_sin(tl_fp_sqrt(r));
       printf("%f\n", tl_fp_to_double(tl_fp_add(moved, s))); // doubles for display only
   Authored data comes in as text or ints (tl_fp_from_double is for literals and tools); state
   stays tl_fp, and a tl_fp's raw value (.raw) is what a save or a replay stores.

   OVERRIDES
   ---------
   TL_FP_PORTABLE_128   define to force the portable 128-bit path (two 64-bit words) even where
                        the compiler has unsigned __int128 and bit-scan builtins. Both paths give
                        identical bits (tests/fp proves it over the whole test corpus); the
                        portable path is what compilers without __int128 (MSVC) always use.

   CONTRACT
   --------
   - add, sub, mul, div, mod, neg, from_fraction give the true result rounded to nearest with
     ties away from zero. Results beyond the range saturate at TL_FP_MIN / TL_FP_MAX instead of
     wrapping. Nothing traps: x/0 saturates toward the sign of x and 0/0 is 0; x % 0 is 0 and
     MIN % -1 is 0.
   - Rounding is symmetric, so (-a)*b == -(a*b) for results inside the range (and a other than
     TL_FP_MIN, whose negation saturates to TL_FP_MAX). The range itself is not symmetric:
     TL_FP_MIN is -TL_FP_MAX - 2^-32. When a*b saturates at TL_FP_MAX (the true product rounds
     above it), (-a)*b saturates at TL_FP_MIN, one raw unit below -(a*b) = -TL_FP_MAX. A product
     at or below TL_FP_MIN keeps the identity: its mirror saturates at TL_FP_MAX = neg(TL_FP_MIN).
   - sqrt is exact (the true root rounded to nearest). sin, cos, tan, asin, acos, atan, atan2,
     exp, log, log2 and pow are evaluated with at least 61 fractional bits (128-bit steps where
     cancellation needs them) and rounded once: at most 1 raw unit from the true value for sin,
     cos, asin, acos, atan, atan2, log, log2; for tan, exp and pow at most 1 raw unit or a
     relative error of 2^-60, whichever is larger. Trigonometric arguments are reduced exactly
     (a 128-bit 2/pi), so sin(2e9) is as accurate as sin(1).
   - Values outside a function's domain are documented beside it (sqrt of a negative is 0,
     log of 0 or of a negative is TL_FP_MIN, asin of 2 is pi/2, ...).
   - Conversions from double are for literals and authored data (nearest, saturating, NaN is 0);
     conversions to double/float are for presentation only and never flow back into state.

   Sections: 1 internal 128-bit arithmetic  2 tl_fp basics  3 rounding and helpers  4 sqrt
           5 trigonometry  6 exp, log, pow  7 vector helpers  8 tl_fpv2  9 tl_fpv3  10 tl_fpquat
*/
/* The types and constants come first under a guard of their own, so that a header whose
   declarations only name tl_fp (vault.h) can take them without the functions:
       #define TL__FP_TYPES_ONLY
       #include "fp.h"
       #undef TL__FP_TYPES_ONLY
   A later #include <threadlink/fp.h> still brings the functions. */
#ifndef TL_FP_TYPES_H
#define TL_FP_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int64_t raw;
} tl_fp;
typedef struct {
    tl_fp x, y;
} tl_fpv2;
typedef struct {
    tl_fp x, y, z;
} tl_fpv3;
typedef struct {
    tl_fp x, y, z, w;
} tl_fpquat;

/* Raw values of the constants, for static initialisers: `tl_fp half = { TL_FP_RAW_HALF };`. */
#define TL_FP_RAW_ZERO INT64_C(0)
#define TL_FP_RAW_ONE INT64_C(4294967296)
#define TL_FP_RAW_HALF INT64_C(2147483648)
#define TL_FP_RAW_PI INT64_C(13493037705)
#define TL_FP_RAW_TWO_PI INT64_C(26986075409)
#define TL_FP_RAW_HALF_PI INT64_C(6746518852)
#define TL_FP_RAW_E INT64_C(11674931555)
#define TL_FP_RAW_DEG2RAD INT64_C(74961321)
#define TL_FP_RAW_RAD2DEG INT64_C(246083499208)
#define TL_FP_RAW_EPSILON INT64_C(1)
#define TL_FP_RAW_MIN (-INT64_C(9223372036854775807) - 1)
#define TL_FP_RAW_MAX INT64_C(9223372036854775807)

/* The constants as values (each is the nearest Q32.32 value). */
#define TL_FP_ZERO tl_fp_from_raw(TL_FP_RAW_ZERO)
#define TL_FP_ONE tl_fp_from_raw(TL_FP_RAW_ONE)
#define TL_FP_HALF tl_fp_from_raw(TL_FP_RAW_HALF)
#define TL_FP_PI tl_fp_from_raw(TL_FP_RAW_PI)
#define TL_FP_TWO_PI tl_fp_from_raw(TL_FP_RAW_TWO_PI)
#define TL_FP_HALF_PI tl_fp_from_raw(TL_FP_RAW_HALF_PI)
#define TL_FP_E tl_fp_from_raw(TL_FP_RAW_E)
#define TL_FP_DEG2RAD tl_fp_from_raw(TL_FP_RAW_DEG2RAD)
#define TL_FP_RAD2DEG tl_fp_from_raw(TL_FP_RAW_RAD2DEG)
#define TL_FP_EPSILON tl_fp_from_raw(TL_FP_RAW_EPSILON)
#define TL_FP_MIN tl_fp_from_raw(TL_FP_RAW_MIN)
#define TL_FP_MAX tl_fp_from_raw(TL_FP_RAW_MAX)

#ifdef __cplusplus
}
#endif
#endif /* TL_FP_TYPES_H */

#if !defined(TL_FP_H) && !defined(TL__FP_TYPES_ONLY)
#define TL_FP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================
 * 1. Internal 128-bit arithmetic
 *
 * Every wide step goes through these few primitives on a two-word struct. With __int128 the
 * multiply and divide use it; otherwise (or with TL_FP_PORTABLE_128) they are done in 32-bit
 * halves. All are exact integer operations, so both paths give the same bits by construction;
 * the corpus test in tests/fp checks it anyway.
 * ============================================================================================ */

#if defined(__SIZEOF_INT128__) && !defined(TL_FP_PORTABLE_128)
#define TL__FP_INT128 1
__extension__ typedef unsigned __int128 tl__fp_nu128;
__extension__ typedef __int128 tl__fp_ns128;
#else
#define TL__FP_INT128 0
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(TL_FP_PORTABLE_128)
#define TL__FP_BUILTIN_CLZ 1
#else
#define TL__FP_BUILTIN_CLZ 0
#endif

typedef struct {
    uint64_t hi, lo;
} tl__u128; /* also a two's complement signed value */

static inline tl__u128 tl__u128_make(uint64_t hi, uint64_t lo) {
    tl__u128 r;
    r.hi = hi;
    r.lo = lo;
    return r;
}
static inline tl__u128 tl__u128_from64(uint64_t lo) { return tl__u128_make(0, lo); }
static inline tl__u128 tl__s128_from64(int64_t v) {
    return tl__u128_make(v < 0 ? ~UINT64_C(0) : 0, (uint64_t)v);
}
static inline tl__u128 tl__u128_add(tl__u128 a, tl__u128 b) {
    tl__u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}
static inline tl__u128 tl__u128_add64(tl__u128 a, uint64_t b) {
    tl__u128 r;
    r.lo = a.lo + b;
    r.hi = a.hi + (r.lo < b);
    return r;
}
static inline tl__u128 tl__u128_sub(tl__u128 a, tl__u128 b) {
    tl__u128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
    return r;
}
static inline tl__u128 tl__u128_neg(tl__u128 a) { return tl__u128_sub(tl__u128_make(0, 0), a); }
static inline int tl__u128_lt(tl__u128 a, tl__u128 b) {
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
static inline int tl__u128_is_zero(tl__u128 a) { return (a.hi | a.lo) == 0; }
static inline int tl__s128_is_neg(tl__u128 a) { return (a.hi >> 63) != 0; }
static inline tl__u128 tl__s128_abs(tl__u128 a) { return tl__s128_is_neg(a) ? tl__u128_neg(a) : a; }
static inline tl__u128 tl__u128_shl(tl__u128 a, unsigned n) { /* any n; 128 and more give 0 */
    if (n >= 128) return tl__u128_make(0, 0);
    if (n >= 64) return tl__u128_make(a.lo << (n - 64), 0);
    if (n == 0) return a;
    return tl__u128_make((a.hi << n) | (a.lo >> (64 - n)), a.lo << n);
}
static inline tl__u128 tl__u128_shr(tl__u128 a, unsigned n) { /* logical; any n */
    if (n >= 128) return tl__u128_make(0, 0);
    if (n >= 64) return tl__u128_make(0, a.hi >> (n - 64));
    if (n == 0) return a;
    return tl__u128_make(a.hi >> n, (a.lo >> n) | (a.hi << (64 - n)));
}
static inline tl__u128 tl__s128_sar(tl__u128 a, unsigned n) { /* arithmetic (floor) shift */
    if (!tl__s128_is_neg(a)) return tl__u128_shr(a, n);
    a = tl__u128_shr(tl__u128_make(~a.hi, ~a.lo), n); /* floor(a / 2^n) = ~(~a >> n) */
    return tl__u128_make(~a.hi, ~a.lo);
}

static inline int tl__clz64(uint64_t x) { /* x != 0 */
#if TL__FP_BUILTIN_CLZ
    return __builtin_clzll(x);
#else
    int n = 0;
    if (!(x >> 32)) {
        n += 32;
        x <<= 32;
    }
    if (!(x >> 48)) {
        n += 16;
        x <<= 16;
    }
    if (!(x >> 56)) {
        n += 8;
        x <<= 8;
    }
    if (!(x >> 60)) {
        n += 4;
        x <<= 4;
    }
    if (!(x >> 62)) {
        n += 2;
        x <<= 2;
    }
    if (!(x >> 63)) { n += 1; }
    return n;
#endif
}
static inline int tl__clz128(tl__u128 a) { /* 128 for zero */
    if (a.hi) return tl__clz64(a.hi);
    if (a.lo) return 64 + tl__clz64(a.lo);
    return 128;
}

/* Full 64x64 -> 128 product. */
static inline tl__u128 tl__mul64(uint64_t a, uint64_t b) {
#if TL__FP_INT128
    tl__fp_nu128 p = (tl__fp_nu128)a * b;
    return tl__u128_make((uint64_t)(p >> 64), (uint64_t)p);
#else
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    return tl__u128_make(hh + (lh >> 32) + (hl >> 32) + (mid >> 32),
                         (mid << 32) | (ll & 0xFFFFFFFFu));
#endif
}
static inline uint64_t tl__mulhi64(uint64_t a, uint64_t b) { return tl__mul64(a, b).hi; }

/* Signed 64x64 -> 128 product (two's complement). */
static inline tl__u128 tl__smul64(int64_t a, int64_t b) {
    tl__u128 p = tl__mul64((uint64_t)a, (uint64_t)b);
    if (a < 0) p.hi -= (uint64_t)b;
    if (b < 0) p.hi -= (uint64_t)a;
    return p;
}

/* floor(a * b / 2^64) for a 128-bit a and a 64-bit b (a 192-bit product's top 128 bits). */
static inline tl__u128 tl__mul128x64_hi(tl__u128 a, uint64_t b) {
    return tl__u128_add64(tl__mul64(a.hi, b), tl__mulhi64(a.lo, b));
}
/* floor(a * b / 2^128) for two 128-bit values. */
static inline tl__u128 tl__mul128_hi(tl__u128 a, tl__u128 b) {
    tl__u128 hh = tl__mul64(a.hi, b.hi), hl = tl__mul64(a.hi, b.lo), lh = tl__mul64(a.lo, b.hi);
    uint64_t ll_hi = tl__mulhi64(a.lo, b.lo);
    /* middle column: hl.lo + lh.lo + ll_hi, its carries go to the top */
    tl__u128 mid = tl__u128_add64(tl__u128_add64(tl__u128_from64(hl.lo), lh.lo), ll_hi);
    tl__u128 r = tl__u128_add(hh, tl__u128_from64(hl.hi));
    r = tl__u128_add64(r, lh.hi);
    return tl__u128_add64(r, mid.hi);
}

/* 128 / 64 division; requires n.hi < d (so the quotient fits in 64 bits). */
static inline uint64_t tl__div128(tl__u128 n, uint64_t d, uint64_t *rem) {
#if TL__FP_INT128
    tl__fp_nu128 nn = ((tl__fp_nu128)n.hi << 64) | n.lo;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t q, r;
    (void)nn;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(n.lo), "d"(n.hi), "rm"(d));
    *rem = r;
    return q;
#else
    uint64_t q = (uint64_t)(nn / d);
    *rem = (uint64_t)(nn - (tl__fp_nu128)q * d);
    return q;
#endif
#else
    /* Knuth's algorithm D with two 32-bit digits (Hacker's Delight, divlu). */
    const uint64_t b = UINT64_C(1) << 32;
    uint64_t un1, un0, vn1, vn0, q1, q0, un32, un21, un10, rhat;
    int s;
    if (n.hi == 0 && n.lo < d) {
        *rem = n.lo;
        return 0;
    }
    if (n.hi == 0) {
        *rem = n.lo % d;
        return n.lo / d;
    }
    s = tl__clz64(d);
    d <<= s;
    vn1 = d >> 32;
    vn0 = d & 0xFFFFFFFFu;
    un32 = s ? (n.hi << s) | (n.lo >> (64 - s)) : n.hi;
    un10 = n.lo << s;
    un1 = un10 >> 32;
    un0 = un10 & 0xFFFFFFFFu;
    q1 = un32 / vn1;
    rhat = un32 - q1 * vn1;
    while (q1 >= b || q1 * vn0 > b * rhat + un1) {
        q1--;
        rhat += vn1;
        if (rhat >= b) break;
    }
    un21 = un32 * b + un1 - q1 * d;
    q0 = un21 / vn1;
    rhat = un21 - q0 * vn1;
    while (q0 >= b || q0 * vn0 > b * rhat + un0) {
        q0--;
        rhat += vn1;
        if (rhat >= b) break;
    }
    *rem = (un21 * b + un0 - q0 * d) >> s;
    return q1 * b + q0;
#endif
}

/* Exact integer square root with remainder of N >= 2^126 (Zimmermann's Karatsuba square root,
 * three levels on a 256-byte first guess). Returns s = floor(sqrt(N)) and r = N - s^2 <= 2s. */
static inline uint32_t tl__isqrt16(uint32_t a, uint32_t *r) { /* 2^14 <= a < 2^16 */
    static const uint8_t t[192] = {
        /* floor(sqrt(i * 256)) for i = 64..255 */
        128, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144,
        144, 145, 146, 147, 148, 149, 150, 150, 151, 152, 153, 154, 155, 155, 156, 157, 158, 159,
        160, 160, 161, 162, 163, 163, 164, 165, 166, 167, 167, 168, 169, 170, 170, 171, 172, 173,
        173, 174, 175, 176, 176, 177, 178, 178, 179, 180, 181, 181, 182, 183, 183, 184, 185, 185,
        186, 187, 187, 188, 189, 189, 190, 191, 192, 192, 193, 193, 194, 195, 195, 196, 197, 197,
        198, 199, 199, 200, 201, 201, 202, 203, 203, 204, 204, 205, 206, 206, 207, 208, 208, 209,
        209, 210, 211, 211, 212, 212, 213, 214, 214, 215, 215, 216, 217, 217, 218, 218, 219, 219,
        220, 221, 221, 222, 222, 223, 224, 224, 225, 225, 226, 226, 227, 227, 228, 229, 229, 230,
        230, 231, 231, 232, 232, 233, 234, 234, 235, 235, 236, 236, 237, 237, 238, 238, 239, 240,
        240, 241, 241, 242, 242, 243, 243, 244, 244, 245, 245, 246, 246, 247, 247, 248, 248, 249,
        249, 250, 250, 251, 251, 252, 252, 253, 253, 254, 254, 255
    };
    uint32_t s = t[(a >> 8) - 64];
    if ((s + 1) * (s + 1) <= a) s++;
    *r = a - s * s;
    return s;
}
static inline uint64_t tl__isqrt32(uint64_t a, uint64_t *r) { /* 2^30 <= a < 2^32 */
    uint32_t r1, s1 = tl__isqrt16((uint32_t)(a >> 16), &r1);
    uint64_t num = ((uint64_t)r1 << 8) | ((a >> 8) & 0xFF);
    uint64_t q = num / (2u * s1), u = num - q * 2u * s1;
    uint64_t s = ((uint64_t)s1 << 8) + q;
    int64_t rr = (int64_t)((u << 8) | (a & 0xFF)) - (int64_t)(q * q);
    if (rr < 0) {
        rr += (int64_t)(2 * s - 1);
        s--;
    }
    *r = (uint64_t)rr;
    return s;
}
static inline uint64_t tl__isqrt64(uint64_t a, uint64_t *r) { /* 2^62 <= a */
    uint64_t r1, s1 = tl__isqrt32(a >> 32, &r1);
    uint64_t num = (r1 << 16) | ((a >> 16) & 0xFFFF);
    uint64_t q = num / (2 * s1), u = num - q * 2 * s1;
    uint64_t s = (s1 << 16) + q;
    /* u < 2^17 and q <= 2^16, so this stays well inside 64 bits */
    int64_t rr = (int64_t)((u << 16) | (a & 0xFFFF)) - (int64_t)(q * q);
    if (rr < 0) {
        rr += (int64_t)(2 * s - 1);
        s--;
    }
    *r = (uint64_t)rr;
    return s;
}
static inline uint64_t tl__isqrt128(tl__u128 n, tl__u128 *rem) { /* 2^126 <= n */
    uint64_t r1, s1 = tl__isqrt64(n.hi, &r1);                    /* s1 < 2^32, r1 <= 2 s1 < 2^33 */
    uint64_t a1 = n.lo >> 32, a0 = n.lo & 0xFFFFFFFFu;
    uint64_t half = (r1 << 31) | (a1 >> 1);      /* floor((r1 * 2^32 + a1) / 2) */
    uint64_t q = half / s1;                      /* = floor((r1 2^32 + a1) / (2 s1)), <= 2^32 */
    uint64_t u = 2 * (half - q * s1) + (a1 & 1); /* < 2 s1 */
    tl__u128 s = tl__u128_add64(tl__u128_make(s1 >> 32, s1 << 32), q);
    tl__u128 r = tl__u128_sub(tl__u128_add64(tl__u128_make(u >> 32, u << 32), a0), tl__mul64(q, q));
    if (tl__s128_is_neg(r)) {
        r = tl__u128_add(r, tl__u128_sub(tl__u128_shl(s, 1), tl__u128_from64(1)));
        s = tl__u128_sub(s, tl__u128_from64(1));
    }
    *rem = r;
    return s.lo;
}
/* round(sqrt(n)) for any 128-bit n, as a 128-bit value (it can be 2^64). */
static inline tl__u128 tl__sqrt128_round(tl__u128 n) {
    int lz = tl__clz128(n);
    unsigned h;
    tl__u128 rem;
    uint64_t s;
    if (lz == 128) return tl__u128_from64(0);
    h = (unsigned)lz / 2;
    s = tl__isqrt128(tl__u128_shl(n, 2 * h), &rem);
    if (h == 0) /* round up when n - s^2 > s, i.e. n >= (s + 1/2)^2 */
        return tl__u128_add64(tl__u128_from64(s), (uint64_t)tl__u128_lt(tl__u128_from64(s), rem));
    /* s = floor(sqrt(n) 2^h), so floor(s / 2^(h-1)) = floor(2 sqrt(n)); round = (that + 1) / 2 */
    return tl__u128_from64((s >> h) + ((s >> (h - 1)) & 1));
}

/* round(mag / 2^shift), halves away from zero, with the sign applied, saturated to int64.
 * mag < 2^127, 1 <= shift. */
static inline int64_t tl__fp_round_sat(tl__u128 mag, unsigned shift, int neg) {
    tl__u128 q =
        tl__u128_shr(tl__u128_add(mag, tl__u128_shl(tl__u128_from64(1), shift - 1)), shift);
    if (neg) {
        if (q.hi || q.lo > (UINT64_C(1) << 63)) return TL_FP_RAW_MIN;
        return (int64_t)(0 - q.lo);
    }
    if (q.hi || q.lo > (uint64_t)TL_FP_RAW_MAX) return TL_FP_RAW_MAX;
    return (int64_t)q.lo;
}
/* The same for a two's complement signed 128-bit value (|v| < 2^127). */
static inline int64_t tl__fp_round_s128(tl__u128 v, unsigned shift) {
    int neg = tl__s128_is_neg(v);
    return tl__fp_round_sat(neg ? tl__u128_neg(v) : v, shift, neg);
}
static inline uint64_t tl__uabs64(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }
static inline int64_t tl__sat64(uint64_t mag, int neg) {
    if (neg) return mag >= (UINT64_C(1) << 63) ? TL_FP_RAW_MIN : -(int64_t)mag;
    return mag > (uint64_t)TL_FP_RAW_MAX ? TL_FP_RAW_MAX : (int64_t)mag;
}

/* ============================================================================================
 * 2. tl_fp basics: construction, conversion, arithmetic
 * ============================================================================================ */

static inline tl_fp tl_fp_from_raw(int64_t raw) {
    tl_fp r;
    r.raw = raw;
    return r;
}
static inline int64_t tl_fp_to_raw(tl_fp a) { return a.raw; }
/* An integer, exactly; beyond +-2^31 it saturates. */
static inline tl_fp tl_fp_from_int(int64_t n) {
    if (n >= INT64_C(2147483648)) return TL_FP_MAX;
    if (n < -INT64_C(2147483648)) return TL_FP_MIN;
    return tl_fp_from_raw((int64_t)((uint64_t)n << 32));
}
/* num / den as a raw quotient: round(num * 2^shift / den) with ties away from zero, saturated.
 * den == 0 saturates toward the sign of num; 0/0 is 0. */
static inline int64_t tl__fp_divide(int64_t num, int64_t den, unsigned shift) {
    int neg = (num < 0) != (den < 0);
    uint64_t un = tl__uabs64(num), ud = tl__uabs64(den), q, r;
    tl__u128 n;
    if (ud == 0) return num > 0 ? TL_FP_RAW_MAX : num < 0 ? TL_FP_RAW_MIN : 0;
    if (shift == 32 && un < (UINT64_C(1) << 31)) { /* fits in 64 bits: the common case */
        uint64_t nn = un << 32;
        q = nn / ud;
        r = nn - q * ud;
    } else {
        n = tl__u128_shl(tl__u128_from64(un), shift);
        if (n.hi >= ud) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
        q = tl__div128(n, ud, &r);
    }
    if (r >= ud - r) { /* 2r >= d: round the magnitude up (ties away from zero) */
        if (q == ~UINT64_C(0)) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
        q++;
    }
    return tl__sat64(q, neg);
}
/* The nearest value to num / den (ties away from zero); den == 0 saturates toward num's sign. */
static inline tl_fp tl_fp_from_fraction(int64_t num, int64_t den) {
    return tl_fp_from_raw(tl__fp_divide(num, den, 32));
}
/* For literals and authored data: the nearest value, ties away from zero; beyond the range it
 * saturates; NaN is 0. Exact: the scaling by 2^32 is exact in binary floating point. */
static inline tl_fp tl_fp_from_double(double d) {
    double y, f;
    int64_t t;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits); /* a NaN test that -ffast-math cannot remove */
    if ((bits & UINT64_C(0x7FF0000000000000)) == UINT64_C(0x7FF0000000000000) &&
        (bits & UINT64_C(0x000FFFFFFFFFFFFF)))
        return TL_FP_ZERO;
    y = d * 4294967296.0;
    if (y >= 9223372036854775808.0) return TL_FP_MAX;
    if (y <= -9223372036854775808.0) return TL_FP_MIN;
    t = (int64_t)y;    /* truncation, |y| < 2^63 */
    f = y - (double)t; /* exact: the fraction bits of y */
    if (f >= 0.5) t++;
    else if (f <= -0.5) t--;
    return tl_fp_from_raw(t);
}
/* Presentation only: never feed the result back into simulated state. */
static inline double tl_fp_to_double(tl_fp a) { return (double)a.raw * (1.0 / 4294967296.0); }
static inline float tl_fp_to_float(tl_fp a) { return (float)tl_fp_to_double(a); }

static inline tl_fp tl_fp_add(tl_fp a, tl_fp b) {
    uint64_t s = (uint64_t)a.raw + (uint64_t)b.raw;
    /* overflow iff both operands have the same sign and the sum's sign differs */
    if (((~((uint64_t)a.raw ^ (uint64_t)b.raw)) & ((uint64_t)a.raw ^ s)) >> 63)
        return a.raw < 0 ? TL_FP_MIN : TL_FP_MAX;
    return tl_fp_from_raw((int64_t)s);
}
static inline tl_fp tl_fp_sub(tl_fp a, tl_fp b) {
    uint64_t s = (uint64_t)a.raw - (uint64_t)b.raw;
    if ((((uint64_t)a.raw ^ (uint64_t)b.raw) & ((uint64_t)a.raw ^ s)) >> 63)
        return a.raw < 0 ? TL_FP_MIN : TL_FP_MAX;
    return tl_fp_from_raw((int64_t)s);
}
static inline tl_fp tl_fp_neg(tl_fp a) {
    return tl_fp_from_raw(a.raw == TL_FP_RAW_MIN ? TL_FP_RAW_MAX : -a.raw);
}
static inline tl_fp tl_fp_abs(tl_fp a) { return a.raw < 0 ? tl_fp_neg(a) : a; }
static inline tl_fp tl_fp_mul(tl_fp a, tl_fp b) {
#if TL__FP_INT128
    /* ties away from zero: add 2^31 to the magnitude, i.e. 2^31 - 1 below zero before a floor */
    tl__fp_ns128 p = (tl__fp_ns128)a.raw * b.raw;
    /* the product is negative only when the signs differ (a zero product rounds to 0 either way);
   * computed without a branch, which random signs would mispredict */
    p += (tl__fp_ns128)(UINT64_C(0x80000000) - (((uint64_t)a.raw ^ (uint64_t)b.raw) >> 63));
    p >>= 32;
    if (p != (int64_t)p) return p < 0 ? TL_FP_MIN : TL_FP_MAX;
    return tl_fp_from_raw((int64_t)p);
#else
    int neg = (a.raw < 0) != (b.raw < 0);
    return tl_fp_from_raw(
        tl__fp_round_sat(tl__mul64(tl__uabs64(a.raw), tl__uabs64(b.raw)), 32, neg));
#endif
}
static inline tl_fp tl_fp_div(tl_fp a, tl_fp b) {
    return tl_fp_from_raw(tl__fp_divide(a.raw, b.raw, 32));
}
/* Remainder of the truncated quotient, with the sign of a (exact). a % 0 is 0; MIN % -1 is 0. */
static inline tl_fp tl_fp_mod(tl_fp a, tl_fp b) {
    if (b.raw == 0 || b.raw == -1) return TL_FP_ZERO;
    return tl_fp_from_raw(a.raw % b.raw);
}
/* Integer multiply, saturating. */
static inline tl_fp tl_fp_mul_int(tl_fp a, int64_t n) {
    tl__u128 p = tl__smul64(a.raw, n);
    if (tl__s128_is_neg(p) ? (p.hi != ~UINT64_C(0) || !(p.lo >> 63)) : (p.hi != 0 || (p.lo >> 63)))
        return tl__s128_is_neg(p) ? TL_FP_MIN : TL_FP_MAX;
    return tl_fp_from_raw((int64_t)p.lo);
}

/* Comparisons. */
static inline int tl_fp_eq(tl_fp a, tl_fp b) { return a.raw == b.raw; }
static inline int tl_fp_ne(tl_fp a, tl_fp b) { return a.raw != b.raw; }
static inline int tl_fp_lt(tl_fp a, tl_fp b) { return a.raw < b.raw; }
static inline int tl_fp_le(tl_fp a, tl_fp b) { return a.raw <= b.raw; }
static inline int tl_fp_gt(tl_fp a, tl_fp b) { return a.raw > b.raw; }
static inline int tl_fp_ge(tl_fp a, tl_fp b) { return a.raw >= b.raw; }
static inline int tl_fp_cmp(tl_fp a, tl_fp b) { return (a.raw > b.raw) - (a.raw < b.raw); }

/* ============================================================================================
 * 3. Rounding and helpers
 * ============================================================================================ */

#define TL__FP_FRAC_MASK UINT64_C(0xFFFFFFFF)

static inline tl_fp tl_fp_floor(tl_fp a) {
    return tl_fp_from_raw((int64_t)((uint64_t)a.raw & ~TL__FP_FRAC_MASK));
}
/* ceil of a value above 2^31 - 1 saturates to TL_FP_MAX. */
static inline tl_fp tl_fp_ceil(tl_fp a) {
    if (((uint64_t)a.raw & TL__FP_FRAC_MASK) == 0) return a;
    if (a.raw > TL_FP_RAW_MAX - (int64_t)TL__FP_FRAC_MASK) return TL_FP_MAX;
    return tl_fp_from_raw((int64_t)(((uint64_t)a.raw & ~TL__FP_FRAC_MASK) + (UINT64_C(1) << 32)));
}
static inline tl_fp tl_fp_trunc(tl_fp a) {
    tl_fp f = tl_fp_floor(a);
    return (a.raw < 0 && f.raw != a.raw) ? tl_fp_from_raw(f.raw + (INT64_C(1) << 32)) : f;
}
/* Nearest integer, halves away from zero; beyond 2^31 - 1/2 it saturates. */
static inline tl_fp tl_fp_round(tl_fp a) {
    uint64_t m = tl__uabs64(a.raw) + (UINT64_C(1) << 31);
    m &= ~TL__FP_FRAC_MASK;
    return tl_fp_from_raw(tl__sat64(m, a.raw < 0));
}
/* a - floor(a): always in [0, 1). */
static inline tl_fp tl_fp_frac(tl_fp a) {
    return tl_fp_from_raw((int64_t)((uint64_t)a.raw & TL__FP_FRAC_MASK));
}
static inline int32_t tl__fp_int32_sat(int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
static inline int32_t tl_fp_floor_to_int(tl_fp a) {
    return (int32_t)(tl_fp_floor(a).raw / (INT64_C(1) << 32));
}
static inline int32_t tl_fp_ceil_to_int(tl_fp a) {
    int64_t f = tl_fp_floor(a).raw / (INT64_C(1) << 32);
    return tl__fp_int32_sat(f + (((uint64_t)a.raw & TL__FP_FRAC_MASK) != 0));
}
static inline int32_t tl_fp_round_to_int(tl_fp a) {
    uint64_t m = (tl__uabs64(a.raw) + (UINT64_C(1) << 31)) >> 32; /* <= 2^31 */
    return tl__fp_int32_sat(a.raw < 0 ? -(int64_t)m : (int64_t)m);
}
/* -1, 0 or 1. */
static inline int tl_fp_sign(tl_fp a) { return (a.raw > 0) - (a.raw < 0); }
static inline tl_fp tl_fp_min(tl_fp a, tl_fp b) { return a.raw <= b.raw ? a : b; }
static inline tl_fp tl_fp_max(tl_fp a, tl_fp b) { return a.raw >= b.raw ? a : b; }
/* lo when v < lo, hi when v > hi; lo when lo > hi, whatever v (bounds read from data may cross). */
static inline tl_fp tl_fp_clamp(tl_fp v, tl_fp lo, tl_fp hi) {
    tl_fp below_hi = v.raw > hi.raw ? hi : v;
    return below_hi.raw < lo.raw ? lo : below_hi;
}
static inline tl_fp tl_fp_clamp01(tl_fp v) { return tl_fp_clamp(v, TL_FP_ZERO, TL_FP_ONE); }
/* a + (b - a) t with t unclamped, exact and rounded once, saturating. */
static inline tl_fp tl_fp_lerp_unclamped(tl_fp a, tl_fp b, tl_fp t) {
    uint64_t d = (uint64_t)b.raw - (uint64_t)a.raw; /* b - a modulo 2^64 */
    int dneg = b.raw < a.raw;
    uint64_t dm = dneg ? 0 - d : d; /* |b - a| <= 2^64 - 1 */
    int pneg = dneg != (t.raw < 0);
    tl__u128 p = tl__mul64(dm, tl__uabs64(t.raw)), s;
    if (p.hi >> 62) return pneg ? TL_FP_MIN : TL_FP_MAX; /* |p| >= 2^126 dwarfs a */
    s = tl__u128_add(tl__u128_shl(tl__s128_from64(a.raw), 32), pneg ? tl__u128_neg(p) : p);
    return tl_fp_from_raw(tl__fp_round_s128(s, 32));
}
/* a + (b - a) clamp01(t): lerp(a, b, 0) == a and lerp(a, b, 1) == b exactly. */
static inline tl_fp tl_fp_lerp(tl_fp a, tl_fp b, tl_fp t) {
    return tl_fp_lerp_unclamped(a, b, tl_fp_clamp01(t));
}
/* (v - a) / (b - a) clamped to [0, 1], exact and rounded once; 0 when a == b. */
static inline tl_fp tl_fp_inverse_lerp(tl_fp a, tl_fp b, tl_fp v) {
    int dneg = b.raw < a.raw, nneg = v.raw < a.raw;
    uint64_t dm = dneg ? (uint64_t)a.raw - (uint64_t)b.raw : (uint64_t)b.raw - (uint64_t)a.raw;
    uint64_t nm = nneg ? (uint64_t)a.raw - (uint64_t)v.raw : (uint64_t)v.raw - (uint64_t)a.raw;
    uint64_t q, r;
    if (dm == 0 || nm == 0 || dneg != nneg) return TL_FP_ZERO;
    if (nm >= dm) return TL_FP_ONE;
    q = tl__div128(tl__u128_make(nm >> 32, nm << 32), dm, &r);
    if (r >= dm - r) q++;
    return tl_fp_from_raw((int64_t)q);
}
/* current moved toward target by at most max_delta (a negative max_delta moves away). */
static inline tl_fp tl_fp_move_towards(tl_fp current, tl_fp target, tl_fp max_delta) {
    int dneg = target.raw < current.raw;
    uint64_t dm = dneg ? (uint64_t)current.raw - (uint64_t)target.raw
                       : (uint64_t)target.raw - (uint64_t)current.raw;
    if (max_delta.raw >= 0 && dm <= (uint64_t)max_delta.raw) return target;
    if (dm == 0) return current;
    return dneg ? tl_fp_sub(current, max_delta) : tl_fp_add(current, max_delta);
}

/* ============================================================================================
 * 4. Square root
 * ============================================================================================ */

/* The true root rounded to nearest. sqrt of a negative value is 0. */
static inline tl_fp tl_fp_sqrt(tl_fp a) {
    if (a.raw <= 0) return TL_FP_ZERO;
    /* sqrt(raw / 2^32) * 2^32 = sqrt(raw * 2^32) */
    return tl_fp_from_raw(
        (int64_t)tl__sqrt128_round(tl__u128_make((uint64_t)a.raw >> 32, (uint64_t)a.raw << 32)).lo);
}

/* ============================================================================================
 * 5. Trigonometry
 *
 * Reduction: t = |x| 2/pi with a 128-bit 2/pi (the product's error is below 2^-95 for every
 * input), k = round(t), f = t - k exact to 2^-95, r = f pi/2 in [-pi/4, pi/4]. Then Taylor
 * series of sin and cos on r (Horner in 64-bit words, error about 2^-62). tan divides the two
 * in a floating form so that its relative error stays below 2^-61 near the poles.
 * ============================================================================================ */

#define TL__FP_TWO_OVER_PI_HI UINT64_C(0xA2F9836E4E441529)
#define TL__FP_TWO_OVER_PI_LO UINT64_C(0xFC2757D1F534DDC0)
#define TL__FP_PIO2_Q63 UINT64_C(0xC90FDAA22168C235) /* pi/2 * 2^63 */
#define TL__FP_PIO4_Q64 UINT64_C(0xC90FDAA22168C235) /* pi/4 * 2^64 */

typedef struct {
    int quadrant; /* k mod 4 */
    int rneg;     /* sign of r */
    uint64_t r;   /* |r| * 2^64 (Q0.64), |r| <= pi/4 */
    tl__u128 f;   /* |f| * 2^96, f = r / (pi/2) */
} tl__fp_reduced;

/* Reduce x = X * 2^-(32 + extra) (extra is 0 or 1). */
static inline tl__fp_reduced tl__fp_reduce(int64_t X, unsigned extra) {
    tl__fp_reduced o;
    uint64_t ax = tl__uabs64(X);
    /* U = floor(ax * P / 2^64) where P = 2/pi * 2^128, so U = t * 2^96 (t < 2^31) */
    tl__u128 U = tl__u128_add64(tl__mul64(ax, TL__FP_TWO_OVER_PI_HI),
                                tl__mulhi64(ax, TL__FP_TWO_OVER_PI_LO));
    tl__u128 F; /* |f| * 2^96 */
    uint64_t k, frac_hi;
    if (extra) U = tl__u128_shr(U, extra);
    k = U.hi >> 32;
    frac_hi = U.hi & 0xFFFFFFFFu; /* f's top 32 of 96 bits */
    F = tl__u128_make(frac_hi, U.lo);
    if (frac_hi >> 31) { /* f >= 1/2: round k up, f becomes negative */
        k++;
        F = tl__u128_sub(tl__u128_make(UINT64_C(1) << 32, 0), F);
        o.rneg = 1;
    } else {
        o.rneg = 0;
    }
    o.quadrant = (int)(k & 3);
    /* Q0.64 |r| = (|f| Q0.64) * (pi/2 Q1.63) / 2^63 */
    {
        uint64_t f64 = (F.hi << 32) | (F.lo >> 32);
        tl__u128 p = tl__mul64(f64, TL__FP_PIO2_Q63);
        o.r = (p.hi << 1) | (p.lo >> 63);
    }
    o.f = F;
    return o;
}
/* |r| as a normalised mantissa, |r| = m 2^-e, keeping its relative precision however small r
 * is (for tan near its poles); m = 0 when r == 0. */
static inline uint64_t tl__fp_reduced_mantissa(const tl__fp_reduced *o, int *e) {
    int lz = tl__clz128(o->f);
    uint64_t fm, m;
    if (lz == 128) {
        *e = 0;
        return 0;
    }
    /* fm = F 2^(lz - 64) = |f| 2^(32 + lz); m = fm (pi/2) 2^63 / 2^64 = |r| 2^(31 + lz) */
    fm = tl__u128_shl(o->f, (unsigned)lz).hi;
    m = tl__mulhi64(fm, TL__FP_PIO2_Q63);
    *e = lz + 31;
    if (!(m >> 63)) {
        m <<= 1;
        (*e)++;
    } /* m >= 2^62.6 always: one shift normalises */
    return m;
}

/* The series from w = r^2 (Q0.64): sin r = r (1 - sin_poly(w)), cos r = 1 - cos_poly(w), both
 * results Q0.64; every Horner term stays positive, so unsigned words suffice. */
static inline uint64_t tl__fp_sin_poly(uint64_t w) {
    uint64_t t = UINT64_C(0x0000000000000098);            /* 1/19! */
    t = UINT64_C(0x000000000000CA96) - tl__mulhi64(w, t); /* 1/17! */
    t = UINT64_C(0x0000000000D73F9F) - tl__mulhi64(w, t); /* 1/15! */
    t = UINT64_C(0x00000000B092309D) - tl__mulhi64(w, t); /* 1/13! */
    t = UINT64_C(0x0000006B99159FD5) - tl__mulhi64(w, t); /* 1/11! */
    t = UINT64_C(0x00002E3BC74AAD8E) - tl__mulhi64(w, t); /* 1/9!  */
    t = UINT64_C(0x000D00D00D00D00D) - tl__mulhi64(w, t); /* 1/7!  */
    t = UINT64_C(0x0222222222222222) - tl__mulhi64(w, t); /* 1/5!  */
    t = UINT64_C(0x2AAAAAAAAAAAAAAB) - tl__mulhi64(w, t); /* 1/3!  */
    return tl__mulhi64(w, t);                             /* sin(r) = r (1 - this) */
}
static inline uint64_t tl__fp_cos_poly(uint64_t w) {
    uint64_t t = UINT64_C(0x0000000000000008);            /* 1/20! */
    t = UINT64_C(0x0000000000000B41) - tl__mulhi64(w, t); /* 1/18! */
    t = UINT64_C(0x00000000000D73FA) - tl__mulhi64(w, t); /* 1/16! */
    t = UINT64_C(0x000000000C9CBA54) - tl__mulhi64(w, t); /* 1/14! */
    t = UINT64_C(0x00000008F76C77FC) - tl__mulhi64(w, t); /* 1/12! */
    t = UINT64_C(0x0000049F93EDDE28) - tl__mulhi64(w, t); /* 1/10! */
    t = UINT64_C(0x0001A01A01A01A02) - tl__mulhi64(w, t); /* 1/8!  */
    t = UINT64_C(0x005B05B05B05B05B) - tl__mulhi64(w, t); /* 1/6!  */
    t = UINT64_C(0x0AAAAAAAAAAAAAAB) - tl__mulhi64(w, t); /* 1/4!  */
    t = UINT64_C(0x8000000000000000) - tl__mulhi64(w, t); /* 1/2!  */
    return tl__mulhi64(w, t);                             /* cos(r) = 1 - this */
}
/* sin of the reduced argument as a signed raw Q32.32, or cos (which = 1 picks). */
static inline int64_t tl__fp_sincos_out(const tl__fp_reduced *o, int want_cos, int neg) {
    uint64_t w = tl__mulhi64(o->r, o->r);
    if (!want_cos) {
        uint64_t s = o->r - tl__mulhi64(o->r, tl__fp_sin_poly(w)); /* sin|r| * 2^64 */
        return tl__fp_round_sat(tl__u128_from64(s), 32, neg != o->rneg);
    } else {
        uint64_t d = tl__fp_cos_poly(w);
        tl__u128 c = tl__u128_sub(tl__u128_make(1, 0), tl__u128_from64(d)); /* cos r * 2^64 */
        return tl__fp_round_sat(c, 32, neg);
    }
}
/* sin(x * 2^-extra), cos(...) as raw values. */
static inline int64_t tl__fp_sin_raw(int64_t X, unsigned extra) {
    tl__fp_reduced o = tl__fp_reduce(X, extra);
    int neg = X < 0;
    switch (o.quadrant) {
    case 0: return tl__fp_sincos_out(&o, 0, neg);
    case 1: return tl__fp_sincos_out(&o, 1, neg);
    case 2: return tl__fp_sincos_out(&o, 0, !neg);
    default: return tl__fp_sincos_out(&o, 1, !neg);
    }
}
static inline int64_t tl__fp_cos_raw(int64_t X, unsigned extra) {
    tl__fp_reduced o = tl__fp_reduce(X, extra);
    switch (o.quadrant) { /* cos is even: the sign of x does not matter */
    case 0: return tl__fp_sincos_out(&o, 1, 0);
    case 1: {
        tl__fp_reduced p = o;
        p.rneg = !o.rneg;
        return tl__fp_sincos_out(&p, 0, 0);
    }
    case 2: return tl__fp_sincos_out(&o, 1, 1);
    default: return tl__fp_sincos_out(&o, 0, 0);
    }
}
static inline tl_fp tl_fp_sin(tl_fp x) { return tl_fp_from_raw(tl__fp_sin_raw(x.raw, 0)); }
static inline tl_fp tl_fp_cos(tl_fp x) { return tl_fp_from_raw(tl__fp_cos_raw(x.raw, 0)); }

/* Round m * 2^-e (m a 64-bit mantissa, e may be negative) to a raw value, saturating. */
static inline int64_t tl__fp_round_mant(uint64_t m, int e, int neg) {
    /* result raw = m * 2^(32 - e) */
    int sh = e - 32;
    if (sh <= 0) {
        if (m == 0) return 0;
        if (-sh >= 64 || (m >> (63 + sh)) != 0) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
        return tl__sat64(m << -sh, neg);
    }
    if (sh > 65) return 0;
    return tl__fp_round_sat(tl__u128_from64(m), (unsigned)sh, neg);
}
/* tan: x in a pole's neighbourhood gives a large value with relative error below 2^-61;
 * beyond the range it saturates, with the sign of the side of the pole. */
static inline tl_fp tl_fp_tan(tl_fp x) {
    tl__fp_reduced o = tl__fp_reduce(x.raw, 0);
    uint64_t w = tl__mulhi64(o.r, o.r), sm, cm, nm, dm, q, rem, rm;
    int se, ce, ne, de, e, neg, rexp;
    rm = tl__fp_reduced_mantissa(&o, &rexp);
    if (rm == 0) { /* x == 0 (f is never exactly 0 otherwise) */
        if (o.quadrant & 1) return x.raw < 0 ? TL_FP_MIN : TL_FP_MAX;
        return TL_FP_ZERO;
    }
    /* sin|r| = rm (1 - w T) * 2^-rexp, normalised */
    sm = rm - tl__mulhi64(rm, tl__fp_sin_poly(w));
    se = rexp;
    if (!(sm >> 63)) {
        sm <<= 1;
        se++;
    }
    /* cos r = 1 - d */
    {
        uint64_t d = tl__fp_cos_poly(w);
        if (d == 0) {
            cm = UINT64_C(1) << 63;
            ce = 63;
        } else {
            cm = 0 - d;
            ce = 64;
        }
    }
    if (o.quadrant & 1) {
        nm = cm;
        ne = ce;
        dm = sm;
        de = se;
    } /* -cot r */
    else {
        nm = sm;
        ne = se;
        dm = cm;
        de = ce;
    } /* tan r */
    /* q = nm 2^63 / dm in (2^62, 2^64); value = q * 2^-(63 + ne - de) */
    q = tl__div128(tl__u128_make(nm >> 1, nm << 63), dm, &rem);
    e = 63 + ne - de;
    neg = (x.raw < 0) != (o.rneg != ((o.quadrant & 1) != 0));
    return tl_fp_from_raw(tl__fp_round_mant(q, e, neg));
}

/* atan of t = T 2^-64 in [0, 1) as Q0.64, through a 17-entry table of atan(j/16) and the
 * series on u = (t - j/16) / (1 + t j/16), |u| <= 1/32. */
static inline uint64_t tl__fp_atan_q64(uint64_t T) {
    static const uint64_t tab[17] = {
        UINT64_C(0x0000000000000000), UINT64_C(0x0FFAADDB967EF4E3), UINT64_C(0x1FD5BA9AAC2F6DC6),
        UINT64_C(0x2F72F6979CB6044D), UINT64_C(0x3EB6EBF25901BAC5), UINT64_C(0x4D89DCDC1FAF2F35),
        UINT64_C(0x5BD86507937BC23A), UINT64_C(0x6993BB0F308FF2DB), UINT64_C(0x76B19C1586ED3DA3),
        UINT64_C(0x832BF4A6D9867E2A), UINT64_C(0x8F005D5EF7F59F9B), UINT64_C(0x9A2F80E671BDDA20),
        UINT64_C(0xA4BC7D1934F70924), UINT64_C(0xAEAC4C38B4D8C080), UINT64_C(0xB8053E2BC2319E74),
        UINT64_C(0xC0CE85B8AC526641), UINT64_C(0xC90FDAA22168C235)
    };
    uint64_t j = (T >> 60) + ((T >> 59) & 1); /* round(16 t) in 0..16 */
    int64_t num = (int64_t)(T - (j << 60));   /* (t - j/16) 2^64, exact modulo 2^64 */
    uint64_t den =
        (UINT64_C(1) << 62) + (tl__u128_shr(tl__mul64(T, j), 6)).lo; /* (1 + t j/16) 2^62 */
    uint64_t an = tl__uabs64(num), rem, u, w, p, a;
    /* |u| 2^64 = |num| 2^62 / den */
    u = tl__div128(tl__u128_make(an >> 2, an << 62), den, &rem);
    w = tl__mulhi64(u, u);
    p = UINT64_C(0x1745D1745D1745D1);                     /* 1/11 */
    p = UINT64_C(0x1C71C71C71C71C72) - tl__mulhi64(w, p); /* 1/9 */
    p = UINT64_C(0x2492492492492492) - tl__mulhi64(w, p); /* 1/7 */
    p = UINT64_C(0x3333333333333333) - tl__mulhi64(w, p); /* 1/5 */
    p = UINT64_C(0x5555555555555555) - tl__mulhi64(w, p); /* 1/3 */
    a = u - tl__mulhi64(u, tl__mulhi64(w, p));            /* atan|u| */
    return num < 0 ? tab[j] - a : tab[j] + a;
}
/* atan2 of magnitudes (ay, ax) as Q?.64 in a 128-bit value, in [0, pi/2]. */
static inline tl__u128 tl__fp_atan2_mag(uint64_t ay, uint64_t ax) {
    const tl__u128 pio2 = tl__u128_make(1, UINT64_C(0x921FB54442D1846A));
    uint64_t lo = ay < ax ? ay : ax, hi = ay < ax ? ax : ay, rem, a;
    if (hi == 0) return tl__u128_from64(0);
    if (lo == hi) return tl__u128_from64(TL__FP_PIO4_Q64);
    a = tl__div128(tl__u128_make(lo, 0), hi, &rem);
    /* An exact ratio t lies on the 2^-64 grid, and a tiny one can sit exactly on a rounding tie of
   * the result, which atan(t) < t then rounds down: nudge exact ratios down by 2^-64. */
    if (rem == 0 && a > 0) a--;
    a = tl__fp_atan_q64(a);
    return ay > ax ? tl__u128_sub(pio2, tl__u128_from64(a)) : tl__u128_from64(a);
}
/* The full atan2 from magnitudes and signs, rounded to raw. */
static inline int64_t tl__fp_atan2_out(uint64_t ay, int yneg, uint64_t ax, int xneg) {
    const tl__u128 pi = tl__u128_make(3, UINT64_C(0x243F6A8885A308D3));
    tl__u128 a = tl__fp_atan2_mag(ay, ax);
    if (xneg) a = tl__u128_sub(pi, a);
    return tl__fp_round_sat(a, 32, yneg);
}
/* The angle of (x, y) in [-pi, pi]. atan2(0, 0) is 0; atan2(0, x < 0) is pi. No intermediate
 * value can overflow: the ratio is formed from magnitudes in 128 bits. */
static inline tl_fp tl_fp_atan2(tl_fp y, tl_fp x) {
    return tl_fp_from_raw(
        tl__fp_atan2_out(tl__uabs64(y.raw), y.raw < 0, tl__uabs64(x.raw), x.raw < 0));
}
static inline tl_fp tl_fp_atan(tl_fp x) {
    return tl_fp_from_raw(tl__fp_atan2_out(tl__uabs64(x.raw), x.raw < 0, UINT64_C(1) << 32, 0));
}
/* sqrt(1 - x^2) * 2^63 for |X| <= 2^32. */
static inline uint64_t tl__fp_cosine_side(uint64_t ax) {
    tl__u128 w = tl__u128_sub(tl__u128_make(1, 0), tl__mul64(ax, ax)); /* (1 - x^2) 2^64 */
    tl__u128 rem;
    int lz;
    unsigned h;
    uint64_t s;
    if (tl__u128_is_zero(w)) return 0;
    /* floor(sqrt(w 2^62)): normalise w 2^62 by an even shift */
    w = tl__u128_shl(w, 62);
    lz = tl__clz128(w);
    h = (unsigned)lz / 2;
    s = tl__isqrt128(tl__u128_shl(w, 2 * h), &rem);
    return s >> h;
}
/* asin in [-pi/2, pi/2]; |x| > 1 is clamped to the edge (asin(2) = pi/2). */
static inline tl_fp tl_fp_asin(tl_fp x) {
    uint64_t ax = tl__uabs64(x.raw);
    if (ax >= (UINT64_C(1) << 32)) return x.raw < 0 ? tl_fp_neg(TL_FP_HALF_PI) : TL_FP_HALF_PI;
    return tl_fp_from_raw(tl__fp_atan2_out(ax << 31, x.raw < 0, tl__fp_cosine_side(ax), 0));
}
/* acos in [0, pi]; |x| > 1 is clamped to the edge (acos(2) = 0, acos(-2) = pi). */
static inline tl_fp tl_fp_acos(tl_fp x) {
    uint64_t ax = tl__uabs64(x.raw);
    if (ax >= (UINT64_C(1) << 32)) return x.raw < 0 ? TL_FP_PI : TL_FP_ZERO;
    return tl_fp_from_raw(tl__fp_atan2_out(tl__fp_cosine_side(ax), 0, ax << 31, x.raw < 0));
}

/* ============================================================================================
 * 6. exp, log, log2, pow
 *
 * log2 is computed to about 2^-70 relative: x = 2^e m with m in [1/sqrt2, sqrt2],
 * s = (m - 1)/(m + 1) to 128 bits, ln m = 2 atanh s = 2 s (1 + s^2/3 + s^4/5 + ...), the leading
 * terms in 128-bit words. pow multiplies it by y exactly, so pow keeps 2^-64 relative accuracy
 * even for large exponents. exp and pow share one core: x = k ln2 + r, |r| <= ln2/2 (r to 128
 * bits), exp(r) from a table of exp(j/32) and a short series, scaled by 2^k and rounded once.
 * ============================================================================================ */

#define TL__FP_LN2_HI UINT64_C(0xB17217F7D1CF79AB) /* ln2 * 2^128, floor */
#define TL__FP_LN2_LO UINT64_C(0xC9E3B39803F2F6AF)
#define TL__FP_LOG2E_Q63 UINT64_C(0xB8AA3B295C17F0BC)

/* exp(r) * 2^126 for |r| < 0.39 given as a signed Q0.128 value: exp(r) = exp(j/32) exp(r')
 * with j = round(32 r), |r'| <= 1/64, a 128-bit table of exp(j/32) and
 * exp(r') = 1 + r' + r'^2 P(r') with P in 64-bit words; relative error about 2^-76. */
static inline tl__u128 tl__fp_exp_core(tl__u128 r) {
    static const uint64_t tab[25][2] = {
        /* exp(j/32) 2^126, j = -12..12 */
        { UINT64_C(0x2BFC8C2BD31D1D54), UINT64_C(0xF636E01308909DD1) },
        { UINT64_C(0x2D61FEE5BD7139C4), UINT64_C(0xA814D147E7FC3B16) },
        { UINT64_C(0x2ED2CA5BE45EFC26), UINT64_C(0x88BEEA89C1DEE153) },
        { UINT64_C(0x304F4AC3112E2BD2), UINT64_C(0x9A2A939FBE7E94C2) },
        { UINT64_C(0x31D7DF3D590415D0), UINT64_C(0xD0572F2758DA3CEE) },
        { UINT64_C(0x336CE9F1E5E7AF57), UINT64_C(0x2012276B7B5E6BAF) },
        { UINT64_C(0x350ED025810EF780), UINT64_C(0xB27764148AEF9708) },
        { UINT64_C(0x36BDFA53E4984C4F), UINT64_C(0x57F5F5C297B55D5F) },
        { UINT64_C(0x387AD449DB04430F), UINT64_C(0x0FAC49A7CBD752BF) },
        { UINT64_C(0x3A45CD4032F80566), UINT64_C(0xA8C21287774E274C) },
        { UINT64_C(0x3C1F57F78E05479C), UINT64_C(0xBC63FC0C126B1760) },
        { UINT64_C(0x3E07EAD5116BAF22), UINT64_C(0x960157F2EEC4E6BA) },
        { UINT64_C(0x4000000000000000), UINT64_C(0x0000000000000000) },
        { UINT64_C(0x42081580449FB263), UINT64_C(0x82F420EAEA0325EA) },
        { UINT64_C(0x4420AD5DF4D3B5F5), UINT64_C(0x6C68067889726A54) },
        { UINT64_C(0x464A4DC1D38335A2), UINT64_C(0x4F46336EA03AAF0A) },
        { UINT64_C(0x48858116DBD733E7), UINT64_C(0x3B5A20E1381AE351) },
        { UINT64_C(0x4AD2D62CDCB1E540), UINT64_C(0x4DD9F031675F64D3) },
        { UINT64_C(0x4D32E05C2D60D4B5), UINT64_C(0x3831232DF19924D1) },
        { UINT64_C(0x4FA637AA84772EA8), UINT64_C(0xDDEF7010301455B6) },
        { UINT64_C(0x522D78F0FA06199D), UINT64_C(0x9EF0EDA6EAAF94D4) },
        { UINT64_C(0x54C946033EB3DDB2), UINT64_C(0x8B660A648DA7ED94) },
        { UINT64_C(0x577A45D8117FD4ED), UINT64_C(0x44C9194C5D5100F1) },
        { UINT64_C(0x5A4124B2FE50CB3F), UINT64_C(0x6BE604148DE9D2CC) },
        { UINT64_C(0x5D1E944F6FBDA988), UINT64_C(0xD1E2D966C2490171) }
    };
    static const uint64_t c[9] = {
        /* 1/k! * 2^64, k = 10 down to 2 */
        UINT64_C(0x0000049F93EDDE28), UINT64_C(0x00002E3BC74AAD8E), UINT64_C(0x0001A01A01A01A02),
        UINT64_C(0x000D00D00D00D00D), UINT64_C(0x005B05B05B05B05B), UINT64_C(0x0222222222222222),
        UINT64_C(0x0AAAAAAAAAAAAAAB), UINT64_C(0x2AAAAAAAAAAAAAAB), UINT64_C(0x8000000000000000)
    };
    tl__u128 jj =
        tl__s128_sar(tl__u128_add(r, tl__u128_make(UINT64_C(1) << 58, 0)), 123); /* round(32 r) */
    tl__u128 rp = tl__u128_sub(r, tl__u128_shl(jj, 123));                        /* |r'| <= 2^-6 */
    int j = (int)(int64_t)jj.lo, neg = tl__s128_is_neg(rp), i;
    tl__u128 ar = neg ? tl__u128_neg(rp) : rp, e;
    uint64_t rh = ar.hi, p = c[0];
    if (neg)
        for (i = 1; i < 9; i++) p = c[i] - tl__mulhi64(rh, p);
    else
        for (i = 1; i < 9; i++) p = c[i] + tl__mulhi64(rh, p);
    e = tl__u128_shr(tl__mul128x64_hi(tl__mul128_hi(ar, ar), p), 1); /* r'^2 P(r') 2^127 */
    e = tl__u128_add(e, tl__u128_make(UINT64_C(1) << 63, 0));
    ar = tl__u128_shr(ar, 1);
    e = neg ? tl__u128_sub(e, ar) : tl__u128_add(e, ar); /* exp(r') 2^127 */
    return tl__u128_shl(tl__mul128_hi(tl__u128_make(tab[j + 12][0], tab[j + 12][1]), e), 1);
}
/* exp(r) 2^k rounded to raw, r a signed Q0.128, negated when neg, saturating. */
static inline int64_t tl__fp_exp_scale(tl__u128 r, int k, int neg) {
    tl__u128 e;
    if (k > 32) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
    if (k < -40) return 0;
    e = tl__fp_exp_core(r);                              /* exp(r) 2^126 */
    return tl__fp_round_sat(e, (unsigned)(94 - k), neg); /* raw = e 2^(k + 32 - 126) */
}
/* e^x; it saturates at TL_FP_MAX from x ~ 21.49 and is 0 below x ~ -22.87. */
static inline tl_fp tl_fp_exp(tl_fp x) {
    int64_t X = x.raw, k;
    uint64_t a;
    int64_t A;
    tl__u128 r;
    if (X >= INT64_C(22) << 32) return TL_FP_MAX;
    if (X <= -(INT64_C(23) << 32)) return TL_FP_ZERO;
    /* k = round(x / ln2), through |x| log2(e) 2^31 */
    a = tl__mulhi64(tl__uabs64(X), TL__FP_LOG2E_Q63);
    k = (int64_t)((a + (UINT64_C(1) << 30)) >> 31);
    if (X < 0) k = -k;
    /* r = x - k ln2 as Q0.128: A = (x - k ln2_hi) 2^64 fits in 64 bits, computed modulo 2^64 */
    A = (int64_t)(((uint64_t)X << 32) - (uint64_t)k * TL__FP_LN2_HI);
    r = tl__u128_make((uint64_t)A, 0);
    {
        tl__u128 kl = tl__mul64(tl__uabs64(k), TL__FP_LN2_LO); /* then r -= k ln2_lo */
        r = k < 0 ? tl__u128_add(r, kl) : tl__u128_sub(r, kl);
    }
    return tl_fp_from_raw(tl__fp_exp_scale(r, (int)k, 0));
}

/* log2(x) for X > 0 as a signed Q8.120 value (|log2 x| < 33), relative error ~2^-70.
 * Also returns ln(m) (Q0.128 magnitude, sign) and e - 32 for tl_fp_log. */
typedef struct {
    tl__u128 lm;
    int lmneg;
    int e;
} tl__fp_logm;
static inline tl__fp_logm tl__fp_log_m(uint64_t X) {
    static const uint64_t c[12] = {
        /* 1/(2n + 5) * 2^64, n = 11 down to 0 */
        UINT64_C(0x097B425ED097B426), UINT64_C(0x0A3D70A3D70A3D71), UINT64_C(0x0B21642C8590B216),
        UINT64_C(0x0C30C30C30C30C31), UINT64_C(0x0D79435E50D79436), UINT64_C(0x0F0F0F0F0F0F0F0F),
        UINT64_C(0x1111111111111111), UINT64_C(0x13B13B13B13B13B1), UINT64_C(0x1745D1745D1745D1),
        UINT64_C(0x1C71C71C71C71C72), UINT64_C(0x2492492492492492), UINT64_C(0x3333333333333333)
    };
    const tl__u128 third =
        tl__u128_make(UINT64_C(0x5555555555555555), UINT64_C(0x5555555555555555));
    tl__fp_logm o;
    int e = 63 - tl__clz64(X);
    uint64_t P, num, den, q1, q0, rem, R;
    tl__u128 S, w, c2;
    int i;
    if ((X << tl__clz64(X)) > UINT64_C(0xB504F333F9DE6484)) e++; /* m > sqrt2: anchor at 2^(e+1) */
    P = UINT64_C(1) << e;                                        /* e <= 63: X + P < 2^64 */
    o.e = e - 32;
    o.lmneg = X < P;
    num = X < P ? P - X : X - P;
    den = X + P;
    if (num == 0) {
        o.lm = tl__u128_from64(0);
        return o;
    }
    /* S = num / den * 2^128 */
    q1 = tl__div128(tl__u128_make(num, 0), den, &rem);
    q0 = tl__div128(tl__u128_make(rem, 0), den, &rem);
    S = tl__u128_make(q1, q0);
    w = tl__mul128_hi(S, S); /* s^2, <= 0.0295 */
    R = c[0];
    for (i = 1; i < 12; i++) R = c[i] + tl__mulhi64(w.hi, R);
    c2 = tl__mul128_hi(w, tl__u128_add(third, tl__mul128x64_hi(w, R))); /* s^2/3 + s^4/5 + ... */
    o.lm = tl__u128_shl(tl__u128_add(S, tl__mul128_hi(S, c2)), 1);      /* 2 atanh s */
    return o;
}
#define TL__FP_LOG2E_Q127_HI UINT64_C(0xB8AA3B295C17F0BB)
#define TL__FP_LOG2E_Q127_LO UINT64_C(0xBE87FED0691D3E89)
#define TL__FP_LN2_Q120_HI UINT64_C(0x00B17217F7D1CF79)
#define TL__FP_LN2_Q120_LO UINT64_C(0xABC9E3B39803F2F7)
static inline tl__u128 tl__fp_log2_q120(uint64_t X) {
    tl__fp_logm o = tl__fp_log_m(X);
    tl__u128 l =
        tl__mul128_hi(o.lm, tl__u128_make(TL__FP_LOG2E_Q127_HI, TL__FP_LOG2E_Q127_LO)); /* Q0.127 */
    tl__u128 v = tl__u128_shr(l, 7);
    tl__u128 ip = tl__u128_shl(tl__s128_from64(o.e), 120);
    return o.lmneg ? tl__u128_sub(ip, v) : tl__u128_add(ip, v);
}
/* Natural logarithm; log of 0 or of a negative value is TL_FP_MIN. */
static inline tl_fp tl_fp_log(tl_fp x) {
    tl__fp_logm o;
    tl__u128 v, ip;
    if (x.raw <= 0) return TL_FP_MIN;
    o = tl__fp_log_m((uint64_t)x.raw);
    v = tl__u128_shr(o.lm, 8); /* Q8.120 */
    ip = tl__mul64(tl__uabs64(o.e), TL__FP_LN2_Q120_LO);
    ip.hi += tl__uabs64(o.e) * TL__FP_LN2_Q120_HI;
    if (o.e < 0) ip = tl__u128_neg(ip);
    v = o.lmneg ? tl__u128_sub(ip, v) : tl__u128_add(ip, v);
    return tl_fp_from_raw(tl__fp_round_s128(v, 88));
}
/* Base-2 logarithm (exact at powers of two); log2 of 0 or of a negative value is TL_FP_MIN. */
static inline tl_fp tl_fp_log2(tl_fp x) {
    if (x.raw <= 0) return TL_FP_MIN;
    return tl_fp_from_raw(tl__fp_round_s128(tl__fp_log2_q120((uint64_t)x.raw), 88));
}
/* 2^t for t a signed Q8.120 value, rounded to raw (negated when neg). */
static inline int64_t tl__fp_exp2_q120(tl__u128 t, int neg) {
    tl__u128 kk =
        tl__s128_sar(tl__u128_add(t, tl__u128_make(UINT64_C(1) << 55, 0)), 120); /* round(t) */
    int64_t k = (int64_t)kk.lo;
    tl__u128 f = tl__u128_sub(t, tl__u128_shl(kk, 120)); /* in [-1/2, 1/2) Q0.120 */
    int fneg = tl__s128_is_neg(f);
    tl__u128 af = fneg ? tl__u128_neg(f) : f;
    tl__u128 r = tl__mul128_hi(tl__u128_shl(af, 8),
                               tl__u128_make(TL__FP_LN2_HI, TL__FP_LN2_LO)); /* |f| ln2 Q0.128 */
    return tl__fp_exp_scale(fneg ? tl__u128_neg(r) : r, (int)k, neg);
}
/* x^y. x > 0: exp2(y log2 x), with 2^-64 relative accuracy before the final rounding.
 * x == 0: 0 for y > 0, 1 for y == 0, TL_FP_MAX for y < 0. x < 0: |x|^y with the sign of
 * (-1)^y when y is an integer, 0 otherwise. y == 0 gives 1 for every x. */
static inline tl_fp tl_fp_pow(tl_fp x, tl_fp y) {
    int neg = 0;
    uint64_t ax, ay;
    tl__u128 l2, lo, hi, t;
    int lneg, tneg;
    if (y.raw == 0) return TL_FP_ONE;
    if (x.raw == 0) return y.raw > 0 ? TL_FP_ZERO : TL_FP_MAX;
    if (x.raw < 0) {
        if ((uint64_t)y.raw & TL__FP_FRAC_MASK) return TL_FP_ZERO;
        neg = (int)(((uint64_t)y.raw >> 32) & 1);
    }
    ax = tl__uabs64(x.raw);
    ay = tl__uabs64(y.raw);
    l2 = tl__fp_log2_q120(ax);
    lneg = tl__s128_is_neg(l2);
    if (lneg) l2 = tl__u128_neg(l2);
    tneg = lneg != (y.raw < 0);
    /* t = y log2 x = ay * l2 / 2^32, a 192-bit product */
    lo = tl__mul64(ay, l2.lo);
    hi = tl__u128_add64(tl__mul64(ay, l2.hi), lo.hi); /* product = hi 2^64 + lo.lo */
    if (hi.hi >> 30)                                  /* |t| >= 64 */
        return tl_fp_from_raw(tneg ? 0 : neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX);
    t = tl__u128_make((hi.hi << 32) | (hi.lo >> 32), (hi.lo << 32) | (lo.lo >> 32));
    return tl_fp_from_raw(tl__fp_exp2_q120(tneg ? tl__u128_neg(t) : t, neg));
}

/* Degrees to radians and back, exact products with 128-bit constants, rounded once. */
static inline tl_fp tl_fp_deg_to_rad(tl_fp deg) {
    const tl__u128 c = tl__u128_make(UINT64_C(0x0477D1A894A74E45),
                                     UINT64_C(0x70762FB374A42E26)); /* pi/180 2^128 */
    return tl_fp_from_raw(
        tl__fp_round_sat(tl__mul128x64_hi(c, tl__uabs64(deg.raw)), 64, deg.raw < 0));
}
static inline tl_fp tl_fp_rad_to_deg(tl_fp rad) {
    const tl__u128 c = tl__u128_make(UINT64_C(0x394BB834C783EF70),
                                     UINT64_C(0xC2A5D4DFD03495F5)); /* 180/pi 2^120 */
    return tl_fp_from_raw(
        tl__fp_round_sat(tl__mul128x64_hi(c, tl__uabs64(rad.raw)), 56, rad.raw < 0));
}

/* ============================================================================================
 * 7. Shared vector helpers: exact sums of products, exact lengths, exact normalisation
 * ============================================================================================ */

/* A sum of 128-bit products kept as floor(p / 2^32) and p mod 2^32, so that no sum of up to
 * four products can overflow; rounded once at the end (ties away from zero), saturating. */
typedef struct {
    tl__u128 h;
    uint64_t l;
} tl__fp_acc;
static inline tl__fp_acc tl__fp_acc_zero(void) {
    tl__fp_acc a;
    a.h = tl__u128_from64(0);
    a.l = 0;
    return a;
}
static inline void tl__fp_acc_add(tl__fp_acc *acc, int64_t a, int64_t b) {
    tl__u128 p = tl__smul64(a, b);
    acc->h = tl__u128_add(acc->h, tl__s128_sar(p, 32));
    acc->l += p.lo & TL__FP_FRAC_MASK;
}
static inline void tl__fp_acc_sub(tl__fp_acc *acc, int64_t a, int64_t b) {
    tl__u128 p = tl__u128_neg(tl__smul64(a, b));
    acc->h = tl__u128_add(acc->h, tl__s128_sar(p, 32));
    acc->l += p.lo & TL__FP_FRAC_MASK;
}
static inline tl_fp tl__fp_acc_round(tl__fp_acc acc) {
    tl__u128 h = tl__u128_add64(acc.h, acc.l >> 32);
    uint64_t l = acc.l & TL__FP_FRAC_MASK;
    int neg = tl__s128_is_neg(h);
    /* value = h + l / 2^32 with 0 <= l < 2^32: up on more than half, and on exactly half when
   * the value is positive (a tie goes away from zero) */
    if (neg ? l > (UINT64_C(1) << 31) : l >= (UINT64_C(1) << 31)) h = tl__u128_add64(h, 1);
    if (tl__s128_is_neg(h)) {
        if (h.hi != ~UINT64_C(0) || !(h.lo >> 63)) return TL_FP_MIN;
    } else if (h.hi != 0 || (h.lo >> 63)) return TL_FP_MAX;
    return tl_fp_from_raw((int64_t)h.lo);
}
/* round(a b / c) with ties away from zero, saturating; c == 0 saturates toward a b's sign. */
static inline int64_t tl__fp_muldiv(int64_t a, int64_t b, int64_t c) {
    int neg = (a < 0) != (b < 0);
    tl__u128 p = tl__mul64(tl__uabs64(a), tl__uabs64(b));
    uint64_t uc = tl__uabs64(c), q, r;
    if (tl__u128_is_zero(p)) return 0;
    if (c < 0) neg = !neg;
    if (uc == 0 || p.hi >= uc) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
    q = tl__div128(p, uc, &r);
    if (r >= uc - r) {
        if (q == ~UINT64_C(0)) return neg ? TL_FP_RAW_MIN : TL_FP_RAW_MAX;
        q++;
    }
    return tl__sat64(q, neg);
}
/* The true length of n raw components (n <= 3, or any n when every |a_i| < 2^62), rounded once. */
static inline tl_fp tl__fp_length(const int64_t *a, int n) {
    tl__u128 s = tl__u128_from64(0), r;
    int i;
    for (i = 0; i < n; i++) {
        uint64_t m = tl__uabs64(a[i]);
        s = tl__u128_add(s, tl__mul64(m, m));
    }
    r = tl__sqrt128_round(s);
    return tl_fp_from_raw(r.hi || (r.lo >> 63) ? TL_FP_RAW_MAX : (int64_t)r.lo);
}
/* Unit vector of n <= 4 raw components: the components are scaled by a power of two (exactly)
 * until the sum of squares fills 126 bits, its root taken, and each a_i 2^32 / |a| rounded once.
 * A zero vector stays zero. */
static inline void tl__fp_normalize_n(const int64_t *a, int64_t *out, int n) {
    tl__u128 s = tl__u128_from64(0), rem;
    uint64_t m = 0, L;
    unsigned down, h;
    int i, lz, E;
    for (i = 0; i < n; i++)
        if (tl__uabs64(a[i]) > m) m = tl__uabs64(a[i]);
    if (m == 0) {
        for (i = 0; i < n; i++) out[i] = 0;
        return;
    }
    down = (m >> 62) ? 2 : 0; /* squares of 2^62 and more: sum them divided by 4 */
    for (i = 0; i < n; i++) {
        uint64_t u = tl__uabs64(a[i]);
        s = tl__u128_add(s, tl__u128_shr(tl__mul64(u, u), down));
    }
    lz = tl__clz128(s);
    h = (unsigned)lz / 2;
    L = tl__isqrt128(tl__u128_shl(s, 2 * h), &rem); /* floor(|a| 2^(h - down/2)) */
    E = 32 + (int)h - (int)(down / 2);
    for (i = 0; i < n; i++) {
        uint64_t u = tl__uabs64(a[i]), q, r;
        q = tl__div128(tl__u128_shl(tl__u128_from64(u), (unsigned)E), L, &r);
        if (r >= L - r) q++;
        out[i] = a[i] < 0 ? -(int64_t)q : (int64_t)q;
    }
}
/* atan2 of two signed 128-bit values (scaled together so the larger fits in 64 bits). */
static inline tl_fp tl__fp_atan2_s128(tl__u128 y, tl__u128 x) {
    int yneg = tl__s128_is_neg(y), xneg = tl__s128_is_neg(x);
    tl__u128 ay = yneg ? tl__u128_neg(y) : y, ax = xneg ? tl__u128_neg(x) : x;
    int lz = tl__clz128(tl__u128_lt(ay, ax) ? ax : ay);
    unsigned sh = lz >= 64 ? 0 : (unsigned)(64 - lz);
    return tl_fp_from_raw(
        tl__fp_atan2_out(tl__u128_shr(ay, sh).lo, yneg, tl__u128_shr(ax, sh).lo, xneg));
}
/* Exact sum of two or three 128-bit products, halved (so it cannot overflow). */
static inline tl__u128 tl__fp_half_products(int64_t a0, int64_t b0, int64_t a1, int64_t b1,
                                            int sub1) {
    tl__u128 p0 = tl__s128_sar(tl__smul64(a0, b0), 1), p1 = tl__s128_sar(tl__smul64(a1, b1), 1);
    return sub1 ? tl__u128_sub(p0, p1) : tl__u128_add(p0, p1);
}

/* ============================================================================================
 * 8. tl_fpv2 (x right, y up; positive angles turn x toward y)
 * ============================================================================================ */

static inline tl_fpv2 tl_fpv2_make(tl_fp x, tl_fp y) {
    tl_fpv2 v;
    v.x = x;
    v.y = y;
    return v;
}
static inline tl_fpv2 tl_fpv2_zero(void) { return tl_fpv2_make(TL_FP_ZERO, TL_FP_ZERO); }
static inline int tl_fpv2_eq(tl_fpv2 a, tl_fpv2 b) {
    return a.x.raw == b.x.raw && a.y.raw == b.y.raw;
}
static inline tl_fpv2 tl_fpv2_add(tl_fpv2 a, tl_fpv2 b) {
    return tl_fpv2_make(tl_fp_add(a.x, b.x), tl_fp_add(a.y, b.y));
}
static inline tl_fpv2 tl_fpv2_sub(tl_fpv2 a, tl_fpv2 b) {
    return tl_fpv2_make(tl_fp_sub(a.x, b.x), tl_fp_sub(a.y, b.y));
}
static inline tl_fpv2 tl_fpv2_neg(tl_fpv2 a) {
    return tl_fpv2_make(tl_fp_neg(a.x), tl_fp_neg(a.y));
}
static inline tl_fpv2 tl_fpv2_scale(tl_fpv2 a, tl_fp s) {
    return tl_fpv2_make(tl_fp_mul(a.x, s), tl_fp_mul(a.y, s));
}
static inline tl_fpv2 tl_fpv2_div(tl_fpv2 a, tl_fp s) {
    return tl_fpv2_make(tl_fp_div(a.x, s), tl_fp_div(a.y, s));
}
/* a.b, exact and rounded once. */
static inline tl_fp tl_fpv2_dot(tl_fpv2 a, tl_fpv2 b) {
    tl__fp_acc acc = tl__fp_acc_zero();
    tl__fp_acc_add(&acc, a.x.raw, b.x.raw);
    tl__fp_acc_add(&acc, a.y.raw, b.y.raw);
    return tl__fp_acc_round(acc);
}
/* The z of the 3D cross product, a.x b.y - a.y b.x: positive when b is counter-clockwise of a. */
static inline tl_fp tl_fpv2_cross(tl_fpv2 a, tl_fpv2 b) {
    tl__fp_acc acc = tl__fp_acc_zero();
    tl__fp_acc_add(&acc, a.x.raw, b.y.raw);
    tl__fp_acc_sub(&acc, a.y.raw, b.x.raw);
    return tl__fp_acc_round(acc);
}
static inline tl_fp tl_fpv2_sqr_magnitude(tl_fpv2 a) { return tl_fpv2_dot(a, a); }
/* The true length rounded once (a 128-bit sum of squares and an exact root). */
static inline tl_fp tl_fpv2_magnitude(tl_fpv2 a) {
    int64_t c[2];
    c[0] = a.x.raw;
    c[1] = a.y.raw;
    return tl__fp_length(c, 2);
}
/* Unit vector in a's direction (zero stays zero); as good for one raw unit as for 1e6. */
static inline tl_fpv2 tl_fpv2_normalize(tl_fpv2 a) {
    int64_t c[2], o[2];
    c[0] = a.x.raw;
    c[1] = a.y.raw;
    tl__fp_normalize_n(c, o, 2);
    return tl_fpv2_make(tl_fp_from_raw(o[0]), tl_fp_from_raw(o[1]));
}
/* |b - a| from the exact differences. */
static inline tl_fp tl_fpv2_distance(tl_fpv2 a, tl_fpv2 b) {
    int64_t c[2];
    uint64_t dx = b.x.raw < a.x.raw ? (uint64_t)a.x.raw - (uint64_t)b.x.raw
                                    : (uint64_t)b.x.raw - (uint64_t)a.x.raw;
    uint64_t dy = b.y.raw < a.y.raw ? (uint64_t)a.y.raw - (uint64_t)b.y.raw
                                    : (uint64_t)b.y.raw - (uint64_t)a.y.raw;
    if ((dx | dy) >> 63) return TL_FP_MAX;
    c[0] = (int64_t)dx;
    c[1] = (int64_t)dy;
    return tl__fp_length(c, 2);
}
static inline tl_fpv2 tl_fpv2_lerp(tl_fpv2 a, tl_fpv2 b, tl_fp t) {
    return tl_fpv2_make(tl_fp_lerp(a.x, b.x, t), tl_fp_lerp(a.y, b.y, t));
}
static inline tl_fpv2 tl_fpv2_lerp_unclamped(tl_fpv2 a, tl_fpv2 b, tl_fp t) {
    return tl_fpv2_make(tl_fp_lerp_unclamped(a.x, b.x, t), tl_fp_lerp_unclamped(a.y, b.y, t));
}
/* current moved toward target by at most max_delta (target itself when it is that close). */
static inline tl_fpv2 tl_fpv2_move_towards(tl_fpv2 current, tl_fpv2 target, tl_fp max_delta) {
    tl_fpv2 d = tl_fpv2_sub(target, current);
    tl_fp dist = tl_fpv2_magnitude(d);
    if (dist.raw == 0 || (max_delta.raw >= 0 && dist.raw <= max_delta.raw)) return target;
    return tl_fpv2_add(
        current, tl_fpv2_make(tl_fp_from_raw(tl__fp_muldiv(d.x.raw, max_delta.raw, dist.raw)),
                              tl_fp_from_raw(tl__fp_muldiv(d.y.raw, max_delta.raw, dist.raw))));
}
/* a, or a scaled down to length max_length when it is longer. */
static inline tl_fpv2 tl_fpv2_clamp_magnitude(tl_fpv2 a, tl_fp max_length) {
    tl_fp m = tl_fpv2_magnitude(a);
    if (m.raw <= max_length.raw) return a;
    if (max_length.raw <= 0) return tl_fpv2_zero();
    return tl_fpv2_make(tl_fp_from_raw(tl__fp_muldiv(a.x.raw, max_length.raw, m.raw)),
                        tl_fp_from_raw(tl__fp_muldiv(a.y.raw, max_length.raw, m.raw)));
}
/* a turned 90 degrees counter-clockwise: (-y, x). */
static inline tl_fpv2 tl_fpv2_perpendicular(tl_fpv2 a) { return tl_fpv2_make(tl_fp_neg(a.y), a.x); }
/* a turned counter-clockwise by angle radians, each component rounded once. */
static inline tl_fpv2 tl_fpv2_rotate(tl_fpv2 a, tl_fp angle) {
    tl_fp c = tl_fp_cos(angle), s = tl_fp_sin(angle);
    tl__fp_acc x = tl__fp_acc_zero(), y = tl__fp_acc_zero();
    tl__fp_acc_add(&x, a.x.raw, c.raw);
    tl__fp_acc_sub(&x, a.y.raw, s.raw);
    tl__fp_acc_add(&y, a.x.raw, s.raw);
    tl__fp_acc_add(&y, a.y.raw, c.raw);
    return tl_fpv2_make(tl__fp_acc_round(x), tl__fp_acc_round(y));
}
/* (cos angle, sin angle). */
static inline tl_fpv2 tl_fpv2_from_angle(tl_fp angle) {
    return tl_fpv2_make(tl_fp_cos(angle), tl_fp_sin(angle));
}
/* The unsigned angle between a and b in [0, pi] (radians), from the exact cross and dot
 * products; 0 when either is zero. */
static inline tl_fp tl_fpv2_angle(tl_fpv2 a, tl_fpv2 b) {
    tl__u128 cr = tl__fp_half_products(a.x.raw, b.y.raw, a.y.raw, b.x.raw, 1);
    tl__u128 dt = tl__fp_half_products(a.x.raw, b.x.raw, a.y.raw, b.y.raw, 0);
    return tl__fp_atan2_s128(tl__s128_abs(cr), dt);
}
/* The angle from a to b in [-pi, pi], positive counter-clockwise. */
static inline tl_fp tl_fpv2_signed_angle(tl_fpv2 a, tl_fpv2 b) {
    tl__u128 cr = tl__fp_half_products(a.x.raw, b.y.raw, a.y.raw, b.x.raw, 1);
    tl__u128 dt = tl__fp_half_products(a.x.raw, b.x.raw, a.y.raw, b.y.raw, 0);
    return tl__fp_atan2_s128(cr, dt);
}

/* ============================================================================================
 * 9. tl_fpv3 (x right, y up, z forward: cross(right, up) == forward, as in common engines)
 * ============================================================================================ */

static inline tl_fpv3 tl_fpv3_make(tl_fp x, tl_fp y, tl_fp z) {
    tl_fpv3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static inline tl_fpv3 tl_fpv3_zero(void) {
    return tl_fpv3_make(TL_FP_ZERO, TL_FP_ZERO, TL_FP_ZERO);
}
static inline tl_fpv3 tl_fpv3_right(void) {
    return tl_fpv3_make(TL_FP_ONE, TL_FP_ZERO, TL_FP_ZERO);
}
static inline tl_fpv3 tl_fpv3_up(void) { return tl_fpv3_make(TL_FP_ZERO, TL_FP_ONE, TL_FP_ZERO); }
static inline tl_fpv3 tl_fpv3_forward(void) {
    return tl_fpv3_make(TL_FP_ZERO, TL_FP_ZERO, TL_FP_ONE);
}
static inline int tl_fpv3_eq(tl_fpv3 a, tl_fpv3 b) {
    return a.x.raw == b.x.raw && a.y.raw == b.y.raw && a.z.raw == b.z.raw;
}
static inline tl_fpv3 tl_fpv3_add(tl_fpv3 a, tl_fpv3 b) {
    return tl_fpv3_make(tl_fp_add(a.x, b.x), tl_fp_add(a.y, b.y), tl_fp_add(a.z, b.z));
}
static inline tl_fpv3 tl_fpv3_sub(tl_fpv3 a, tl_fpv3 b) {
    return tl_fpv3_make(tl_fp_sub(a.x, b.x), tl_fp_sub(a.y, b.y), tl_fp_sub(a.z, b.z));
}
static inline tl_fpv3 tl_fpv3_neg(tl_fpv3 a) {
    return tl_fpv3_make(tl_fp_neg(a.x), tl_fp_neg(a.y), tl_fp_neg(a.z));
}
static inline tl_fpv3 tl_fpv3_scale(tl_fpv3 a, tl_fp s) {
    return tl_fpv3_make(tl_fp_mul(a.x, s), tl_fp_mul(a.y, s), tl_fp_mul(a.z, s));
}
static inline tl_fpv3 tl_fpv3_div(tl_fpv3 a, tl_fp s) {
    return tl_fpv3_make(tl_fp_div(a.x, s), tl_fp_div(a.y, s), tl_fp_div(a.z, s));
}
static inline tl_fp tl_fpv3_dot(tl_fpv3 a, tl_fpv3 b) {
    tl__fp_acc acc = tl__fp_acc_zero();
    tl__fp_acc_add(&acc, a.x.raw, b.x.raw);
    tl__fp_acc_add(&acc, a.y.raw, b.y.raw);
    tl__fp_acc_add(&acc, a.z.raw, b.z.raw);
    return tl__fp_acc_round(acc);
}
static inline tl_fpv3 tl_fpv3_cross(tl_fpv3 a, tl_fpv3 b) {
    tl__fp_acc x = tl__fp_acc_zero(), y = tl__fp_acc_zero(), z = tl__fp_acc_zero();
    tl__fp_acc_add(&x, a.y.raw, b.z.raw);
    tl__fp_acc_sub(&x, a.z.raw, b.y.raw);
    tl__fp_acc_add(&y, a.z.raw, b.x.raw);
    tl__fp_acc_sub(&y, a.x.raw, b.z.raw);
    tl__fp_acc_add(&z, a.x.raw, b.y.raw);
    tl__fp_acc_sub(&z, a.y.raw, b.x.raw);
    return tl_fpv3_make(tl__fp_acc_round(x), tl__fp_acc_round(y), tl__fp_acc_round(z));
}
static inline tl_fp tl_fpv3_sqr_magnitude(tl_fpv3 a) { return tl_fpv3_dot(a, a); }
static inline tl_fp tl_fpv3_magnitude(tl_fpv3 a) {
    int64_t c[3];
    c[0] = a.x.raw;
    c[1] = a.y.raw;
    c[2] = a.z.raw;
    return tl__fp_length(c, 3);
}
static inline tl_fpv3 tl_fpv3_normalize(tl_fpv3 a) {
    int64_t c[3], o[3];
    c[0] = a.x.raw;
    c[1] = a.y.raw;
    c[2] = a.z.raw;
    tl__fp_normalize_n(c, o, 3);
    return tl_fpv3_make(tl_fp_from_raw(o[0]), tl_fp_from_raw(o[1]), tl_fp_from_raw(o[2]));
}
static inline tl_fp tl_fpv3_distance(tl_fpv3 a, tl_fpv3 b) {
    int64_t c[3];
    uint64_t d[3];
    int i;
    int64_t av[3], bv[3];
    av[0] = a.x.raw;
    av[1] = a.y.raw;
    av[2] = a.z.raw;
    bv[0] = b.x.raw;
    bv[1] = b.y.raw;
    bv[2] = b.z.raw;
    for (i = 0; i < 3; i++) {
        d[i] =
            bv[i] < av[i] ? (uint64_t)av[i] - (uint64_t)bv[i] : (uint64_t)bv[i] - (uint64_t)av[i];
        if (d[i] >> 63) return TL_FP_MAX;
        c[i] = (int64_t)d[i];
    }
    return tl__fp_length(c, 3);
}
static inline tl_fpv3 tl_fpv3_lerp(tl_fpv3 a, tl_fpv3 b, tl_fp t) {
    return tl_fpv3_make(tl_fp_lerp(a.x, b.x, t), tl_fp_lerp(a.y, b.y, t), tl_fp_lerp(a.z, b.z, t));
}
static inline tl_fpv3 tl_fpv3_lerp_unclamped(tl_fpv3 a, tl_fpv3 b, tl_fp t) {
    return tl_fpv3_make(tl_fp_lerp_unclamped(a.x, b.x, t), tl_fp_lerp_unclamped(a.y, b.y, t),
                        tl_fp_lerp_unclamped(a.z, b.z, t));
}
static inline tl_fpv3 tl_fpv3_move_towards(tl_fpv3 current, tl_fpv3 target, tl_fp max_delta) {
    tl_fpv3 d = tl_fpv3_sub(target, current);
    tl_fp dist = tl_fpv3_magnitude(d);
    if (dist.raw == 0 || (max_delta.raw >= 0 && dist.raw <= max_delta.raw)) return target;
    return tl_fpv3_add(
        current, tl_fpv3_make(tl_fp_from_raw(tl__fp_muldiv(d.x.raw, max_delta.raw, dist.raw)),
                              tl_fp_from_raw(tl__fp_muldiv(d.y.raw, max_delta.raw, dist.raw)),
                              tl_fp_from_raw(tl__fp_muldiv(d.z.raw, max_delta.raw, dist.raw))));
}
static inline tl_fpv3 tl_fpv3_clamp_magnitude(tl_fpv3 a, tl_fp max_length) {
    tl_fp m = tl_fpv3_magnitude(a);
    if (m.raw <= max_length.raw) return a;
    if (max_length.raw <= 0) return tl_fpv3_zero();
    return tl_fpv3_make(tl_fp_from_raw(tl__fp_muldiv(a.x.raw, max_length.raw, m.raw)),
                        tl_fp_from_raw(tl__fp_muldiv(a.y.raw, max_length.raw, m.raw)),
                        tl_fp_from_raw(tl__fp_muldiv(a.z.raw, max_length.raw, m.raw)));
}
/* The unsigned angle between a and b in [0, pi] (radians): atan2(|u x v|, u.v) on the unit
 * vectors, with the cross and dot products exact; 0 when either is zero. */
static inline tl_fp tl_fpv3_angle(tl_fpv3 a, tl_fpv3 b) {
    tl_fpv3 u = tl_fpv3_normalize(a), v = tl_fpv3_normalize(b);
    tl__u128 c[3], dt, s = tl__u128_from64(0);
    int i;
    if (tl_fpv3_eq(u, tl_fpv3_zero()) || tl_fpv3_eq(v, tl_fpv3_zero())) return TL_FP_ZERO;
    /* unit components are at most 2^32 raw, so products and their /4 sums fit easily */
    c[0] = tl__fp_half_products(u.y.raw, v.z.raw, u.z.raw, v.y.raw, 1);
    c[1] = tl__fp_half_products(u.z.raw, v.x.raw, u.x.raw, v.z.raw, 1);
    c[2] = tl__fp_half_products(u.x.raw, v.y.raw, u.y.raw, v.x.raw, 1);
    dt = tl__u128_add(tl__fp_half_products(u.x.raw, v.x.raw, u.y.raw, v.y.raw, 0),
                      tl__s128_sar(tl__smul64(u.z.raw, v.z.raw), 1));
    for (i = 0; i < 3; i++) {
        uint64_t m = tl__s128_abs(c[i]).lo; /* < 2^64 */
        s = tl__u128_add(s, tl__mul64(m, m));
    }
    return tl__fp_atan2_s128(tl__sqrt128_round(s), dt);
}
/* a projected on the line of onto (zero when onto is zero); within a few raw units. */
static inline tl_fpv3 tl_fpv3_project(tl_fpv3 a, tl_fpv3 onto) {
    tl_fpv3 u = tl_fpv3_normalize(onto);
    return tl_fpv3_scale(u, tl_fpv3_dot(a, u));
}
/* a minus its projection on normal: the part of a in the plane through the origin. */
static inline tl_fpv3 tl_fpv3_project_on_plane(tl_fpv3 a, tl_fpv3 normal) {
    return tl_fpv3_sub(a, tl_fpv3_project(a, normal));
}

/* ============================================================================================
 * 10. tl_fpquat: unit quaternions (x, y, z, w) for rotations, Hamilton product
 * ============================================================================================ */

static inline tl_fpquat tl_fpquat_make(tl_fp x, tl_fp y, tl_fp z, tl_fp w) {
    tl_fpquat q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    return q;
}
static inline tl_fpquat tl_fpquat_identity(void) {
    return tl_fpquat_make(TL_FP_ZERO, TL_FP_ZERO, TL_FP_ZERO, TL_FP_ONE);
}
static inline int tl_fpquat_eq(tl_fpquat a, tl_fpquat b) {
    return a.x.raw == b.x.raw && a.y.raw == b.y.raw && a.z.raw == b.z.raw && a.w.raw == b.w.raw;
}
static inline tl_fp tl_fpquat_dot(tl_fpquat a, tl_fpquat b) {
    tl__fp_acc acc = tl__fp_acc_zero();
    tl__fp_acc_add(&acc, a.x.raw, b.x.raw);
    tl__fp_acc_add(&acc, a.y.raw, b.y.raw);
    tl__fp_acc_add(&acc, a.z.raw, b.z.raw);
    tl__fp_acc_add(&acc, a.w.raw, b.w.raw);
    return tl__fp_acc_round(acc);
}
static inline tl_fpquat tl_fpquat_normalize(tl_fpquat q) {
    int64_t c[4], o[4];
    c[0] = q.x.raw;
    c[1] = q.y.raw;
    c[2] = q.z.raw;
    c[3] = q.w.raw;
    tl__fp_normalize_n(c, o, 4);
    if (o[0] == 0 && o[1] == 0 && o[2] == 0 && o[3] == 0) return tl_fpquat_identity();
    return tl_fpquat_make(tl_fp_from_raw(o[0]), tl_fp_from_raw(o[1]), tl_fp_from_raw(o[2]),
                          tl_fp_from_raw(o[3]));
}
/* The rotation of angle radians about axis (normalised here; a zero axis gives the identity).
 * A positive angle about up turns forward toward right. */
static inline tl_fpquat tl_fpquat_from_axis_angle(tl_fpv3 axis, tl_fp angle) {
    tl_fpv3 n = tl_fpv3_normalize(axis);
    tl_fp s = tl_fp_from_raw(tl__fp_sin_raw(angle.raw, 1)),
          c = tl_fp_from_raw(tl__fp_cos_raw(angle.raw, 1)); /* of angle/2 */
    if (tl_fpv3_eq(n, tl_fpv3_zero())) return tl_fpquat_identity();
    return tl_fpquat_make(tl_fp_mul(n.x, s), tl_fp_mul(n.y, s), tl_fp_mul(n.z, s), c);
}
/* a then b applied as one rotation: rotate(multiply(a, b), v) == rotate(a, rotate(b, v)). */
static inline tl_fpquat tl_fpquat_multiply(tl_fpquat a, tl_fpquat b) {
    tl__fp_acc x = tl__fp_acc_zero(), y = tl__fp_acc_zero(), z = tl__fp_acc_zero(),
               w = tl__fp_acc_zero();
    tl__fp_acc_add(&w, a.w.raw, b.w.raw);
    tl__fp_acc_sub(&w, a.x.raw, b.x.raw);
    tl__fp_acc_sub(&w, a.y.raw, b.y.raw);
    tl__fp_acc_sub(&w, a.z.raw, b.z.raw);
    tl__fp_acc_add(&x, a.w.raw, b.x.raw);
    tl__fp_acc_add(&x, a.x.raw, b.w.raw);
    tl__fp_acc_add(&x, a.y.raw, b.z.raw);
    tl__fp_acc_sub(&x, a.z.raw, b.y.raw);
    tl__fp_acc_add(&y, a.w.raw, b.y.raw);
    tl__fp_acc_sub(&y, a.x.raw, b.z.raw);
    tl__fp_acc_add(&y, a.y.raw, b.w.raw);
    tl__fp_acc_add(&y, a.z.raw, b.x.raw);
    tl__fp_acc_add(&z, a.w.raw, b.z.raw);
    tl__fp_acc_add(&z, a.x.raw, b.y.raw);
    tl__fp_acc_sub(&z, a.y.raw, b.x.raw);
    tl__fp_acc_add(&z, a.z.raw, b.w.raw);
    return tl_fpquat_make(tl__fp_acc_round(x), tl__fp_acc_round(y), tl__fp_acc_round(z),
                          tl__fp_acc_round(w));
}
static inline tl_fpquat tl_fpquat_conjugate(tl_fpquat q) {
    return tl_fpquat_make(tl_fp_neg(q.x), tl_fp_neg(q.y), tl_fp_neg(q.z), q.w);
}
/* conjugate / |q|^2 (the conjugate for a unit quaternion); a zero quaternion gives the identity. */
static inline tl_fpquat tl_fpquat_inverse(tl_fpquat q) {
    tl_fp n2 = tl_fpquat_dot(q, q);
    tl_fpquat c = tl_fpquat_conjugate(q);
    if (n2.raw == 0) return tl_fpquat_identity();
    if (n2.raw == TL_FP_RAW_ONE) return c;
    return tl_fpquat_make(tl_fp_div(c.x, n2), tl_fp_div(c.y, n2), tl_fp_div(c.z, n2),
                          tl_fp_div(c.w, n2));
}
/* v rotated by the unit quaternion q: v + 2w (q x v) + 2 q x (q x v). */
static inline tl_fpv3 tl_fpquat_rotate(tl_fpquat q, tl_fpv3 v) {
    tl_fpv3 u = tl_fpv3_make(q.x, q.y, q.z);
    tl_fpv3 t = tl_fpv3_cross(u, v);
    t = tl_fpv3_make(tl_fp_mul_int(t.x, 2), tl_fp_mul_int(t.y, 2), tl_fp_mul_int(t.z, 2));
    return tl_fpv3_add(tl_fpv3_add(v, tl_fpv3_scale(t, q.w)), tl_fpv3_cross(u, t));
}
/* Normalised lerp along the shorter arc, t clamped to [0, 1]. */
static inline tl_fpquat tl_fpquat_nlerp(tl_fpquat a, tl_fpquat b, tl_fp t) {
    t = tl_fp_clamp01(t);
    if (tl_fpquat_dot(a, b).raw < 0)
        b = tl_fpquat_make(tl_fp_neg(b.x), tl_fp_neg(b.y), tl_fp_neg(b.z), tl_fp_neg(b.w));
    return tl_fpquat_normalize(
        tl_fpquat_make(tl_fp_lerp_unclamped(a.x, b.x, t), tl_fp_lerp_unclamped(a.y, b.y, t),
                       tl_fp_lerp_unclamped(a.z, b.z, t), tl_fp_lerp_unclamped(a.w, b.w, t)));
}
/* Spherical interpolation at constant angular speed along the shorter arc, t clamped to [0, 1];
 * nearly equal rotations fall back to nlerp. The result is normalised. */
static inline tl_fpquat tl_fpquat_slerp(tl_fpquat a, tl_fpquat b, tl_fp t) {
    tl_fp d, theta, s, wa, wb;
    tl__fp_acc x = tl__fp_acc_zero(), y = tl__fp_acc_zero(), z = tl__fp_acc_zero(),
               w = tl__fp_acc_zero();
    t = tl_fp_clamp01(t);
    d = tl_fpquat_dot(a, b);
    if (d.raw < 0) {
        b = tl_fpquat_make(tl_fp_neg(b.x), tl_fp_neg(b.y), tl_fp_neg(b.z), tl_fp_neg(b.w));
        d = tl_fp_neg(d);
    }
    if (d.raw > TL_FP_RAW_ONE - (INT64_C(1) << 16)) return tl_fpquat_nlerp(a, b, t);
    theta = tl_fp_acos(d);
    s = tl_fp_sin(theta);
    wa = tl_fp_div(tl_fp_sin(tl_fp_mul(tl_fp_sub(TL_FP_ONE, t), theta)), s);
    wb = tl_fp_div(tl_fp_sin(tl_fp_mul(t, theta)), s);
    tl__fp_acc_add(&x, a.x.raw, wa.raw);
    tl__fp_acc_add(&x, b.x.raw, wb.raw);
    tl__fp_acc_add(&y, a.y.raw, wa.raw);
    tl__fp_acc_add(&y, b.y.raw, wb.raw);
    tl__fp_acc_add(&z, a.z.raw, wa.raw);
    tl__fp_acc_add(&z, b.z.raw, wb.raw);
    tl__fp_acc_add(&w, a.w.raw, wa.raw);
    tl__fp_acc_add(&w, b.w.raw, wb.raw);
    return tl_fpquat_normalize(tl_fpquat_make(tl__fp_acc_round(x), tl__fp_acc_round(y),
                                              tl__fp_acc_round(z), tl__fp_acc_round(w)));
}
/* The angle in [0, pi] of the rotation taking a to b: 2 atan2(|r.xyz|, |r.w|), r = a* b. */
static inline tl_fp tl_fpquat_angle(tl_fpquat a, tl_fpquat b) {
    tl_fpquat r = tl_fpquat_multiply(tl_fpquat_conjugate(a), b);
    tl_fp h = tl_fp_atan2(tl_fpv3_magnitude(tl_fpv3_make(r.x, r.y, r.z)), tl_fp_abs(r.w));
    return tl_fp_mul_int(h, 2);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_FP_H */
