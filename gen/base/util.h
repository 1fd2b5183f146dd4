/* Small shared helpers of the generator: a growable byte buffer, an arena for strings that live
 * as long as a run, growable arrays, and ASCII helpers. Nothing here knows about threadlink. */
#ifndef TLG_UTIL_H
#define TLG_UTIL_H

#include <stdarg.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TLG_PRINTF(f, a) __attribute__((format(printf, f, a)))
/* For a function that only prefetches: it has no effect the compiler can see, and GCC drops a
 * call to one it did not inline (measured: the identity's lookups missed the cache again). */
#define TLG_PREFETCHER static inline __attribute__((always_inline))
#else
#define TLG_PRINTF(f, a)
#define TLG_PREFETCHER static inline
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* From now on, blocks of 256 KiB and more come from 2 MiB huge pages (util.c says why). */
void xmalloc_use_huge_pages(void);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) TLG_PRINTF(1, 2);

/* A growable byte buffer; `data` is always NUL-terminated when len > 0 or after buf_cstr. */
typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

/* memcpy for the short strings the outputs are made of (names, keys, scopes: mostly under 32
 * bytes), without a call into the C library: two overlapping loads and stores cover every length
 * of a size class. A call per name cost more than the copy (a million of them in a big domain). */
static inline void copy_short(void *dst, const void *src, size_t n)
{
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        uint64_t a, b, c, e;
        memcpy(&a, s, 8), memcpy(&b, s + 8, 8), memcpy(&c, s + n - 16, 8), memcpy(&e, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + 8, &b, 8), memcpy(d + n - 16, &c, 8), memcpy(d + n - 8, &e, 8);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4), memcpy(d + n - 4, &b, 4);
    } else if (n) {
        char a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a, d[n / 2] = b, d[n - 1] = c;
    }
}

void buf_grow(buf *b, size_t extra);
static inline void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra + 1 > b->cap) buf_grow(b, extra);
}
/* The emitters append millions of small pieces: these stay inline. */
static inline void buf_put(buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}
static inline void buf_puts(buf *b, const char *s) { buf_put(b, s, strlen(s)); }
static inline void buf_putc(buf *b, char c)
{
    buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = 0;
}
void buf_printf(buf *b, const char *fmt, ...) TLG_PRINTF(2, 3);
void buf_put_u64(buf *b, uint64_t v);
/* v in decimal at p, which has room for its digits (at most 20; 10 for a 32-bit v); returns the
 * end (no NUL written). */
char *put_decimal(char *p, uint64_t v);

/* put_decimal of a 32-bit number, inline: the emitters' numbers are 32-bit (values, indexes,
 * offsets), and most of a slot table's are single digits. */
extern const char tlg_digit_pairs[201];
/* Digits of v > 0: log10 from the bit length (1233/4096 ~ log10(2)), one comparison to correct. */
static inline unsigned decimal_width32(uint32_t v)
{
    static const uint32_t powers[] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u};
#if defined(__GNUC__)
    unsigned bits = 32u - (unsigned)__builtin_clz(v | 1u);
#else
    unsigned bits = 1;
    while (bits < 32 && (v >> bits)) bits++;
#endif
    unsigned t = (bits * 1233u) >> 12;
    return t + (v >= powers[t]);
}

static inline char *put_decimal32(char *p, uint32_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    char *end = p + decimal_width32(v), *q = end;
    while (v >= 100) {
        uint32_t r = v % 100;
        v /= 100;
        q -= 2;
        memcpy(q, tlg_digit_pairs + 2 * r, 2);
    }
    if (v >= 10) memcpy(q - 2, tlg_digit_pairs + 2 * v, 2);
    else q[-1] = (char)('0' + v);
    return end;
}
void buf_put_i64(buf *b, int64_t v);
const char *buf_cstr(buf *b);
/* Gives a finished buffer's spare room back, keeping it NUL-terminated: texts kept by the ten
 * thousand (a PO file's strings) would otherwise hold the 256 bytes a buffer starts with. */
void buf_fit(buf *b);
void buf_free(buf *b);

/* qsort, unless the array is in order already (one pass of `cmp`): tables that a walk or a
 * previous step leaves in order (tens of thousands of names a pack) are not sorted again. */
void sort_unless_sorted(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Arena: bump allocation of many small strings, freed at once. */
typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    size_t used, cap;
} arena;

void *arena_alloc(arena *a, size_t n, size_t align);
char *arena_strndup(arena *a, const char *s, size_t n);
/* Moves every block of `from` into `into` (strings made on another thread join the arena that
 * outlives them); `from` is left empty. */
void arena_adopt(arena *into, arena *from);
/* Threads of a work_pool each allocate from an arena of their own (workers_arenas(n): n empty
 * arenas, worker_arena(a, w) the one of worker w); at the end every one of them joins `into` and
 * the array is freed. */
arena *workers_arenas(unsigned workers);
void arena_adopt_workers(arena *into, arena *workers, unsigned count);
/* The arenas lie more than 128 bytes apart: every string a thread copies writes its arena's
 * `used`, and with two arenas in one cache line the threads took the line from each other at each
 * string (a full generate of 100,000 entries on 2 cores: 10% more CPU). */
enum { WORKER_ARENA_STRIDE = 128 / sizeof(arena) + 1 };
static inline arena *worker_arena(arena *workers, unsigned w) { return &workers[(size_t)w * WORKER_ARENA_STRIDE]; }
void arena_free(arena *a);

/* Growable array of fixed-size elements: VEC(T) x; vec_push(&x) returns a slot. */
#define VEC(T) \
    struct { \
        T *items; \
        size_t count, cap; \
    }
#define vec_grow(v) \
    ((v)->count == (v)->cap \
         ? ((v)->cap = (v)->cap ? (v)->cap * 2 : 16, (v)->items = xrealloc((v)->items, (v)->cap * sizeof *(v)->items)) \
         : (void *)0)
#define vec_push(v) (vec_grow(v), &(v)->items[(v)->count++])
#define vec_free(v) (free((v)->items), (v)->items = NULL, (v)->count = (v)->cap = 0)
/* A finished array's spare room given back (see buf_fit). */
#define vec_fit(v) \
    ((v)->count && (v)->count < (v)->cap \
         ? ((v)->items = xrealloc((v)->items, (v)->count * sizeof *(v)->items), (v)->cap = (v)->count, (void)0) \
         : (void)0)

static inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c; }
/* [A-Za-z0-9_], by table: the lexer runs it over every byte of a name. */
extern const bool ascii_word_bytes[256];
static inline bool ascii_is_word(unsigned char c) { return ascii_word_bytes[c]; }
bool ascii_ieq(const char *a, size_t alen, const char *b, size_t blen);
/* `s` is longer than `suffix` and ends with it; *stem (if not NULL) gets the length before it. */
bool str_has_suffix(const char *s, const char *suffix, size_t *stem);

/* n bytes of src into dst with every ASCII capital lowered (ascii_lower, 8 bytes at a time). */
void ascii_lower_copy(char *dst, const char *src, size_t n);
/* FNV-1a of the ASCII-lowercased bytes: the hash the generated name lookups use too. fnv1a is
 * the same over bytes already lowered. */
uint32_t fnv1a_folded(const char *s, size_t n);
uint32_t fnv1a(const char *s, size_t n);

/* "a" + "b" -> "a/b"; "." + "b" -> "b"; an absolute second part is kept as it is. */
char *path_join(const char *a, const char *b);

#endif
