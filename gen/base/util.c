#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static void out_of_memory(void)
{
    fputs("threadlink-gen: error: out of memory\n", stderr);
    exit(3);
}

/* Blocks of BIG_BLOCK bytes and more (the entries of a big domain, its indexes, the arena's blocks,
 * a growing array of declarations) are whole 2 MiB huge pages, aligned and advised as such: a
 * fresh 4 KiB page costs a page fault of microseconds (11 us each on the VMs we measured: 32 MiB
 * filled in 90 ms), a huge page about one fault per 2 MiB (the same 32 MiB in 2 ms). Advice
 * only: where it is refused the block is plain pages. Freed with free() like any other block.
 * Off until a command that runs once over a whole project turns it on (generate, headers, check,
 * diff): pack's many asset buffers of a few hundred KiB would each take 2 MiB. */
static bool huge_blocks;

void xmalloc_use_huge_pages(void) { huge_blocks = true; }

enum { BIG_BLOCK = 256u << 10 };

#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
enum { HUGE_PAGE = 2u << 20 };

static void *huge_block(size_t n)
{
    void *p = NULL;
    if (!huge_blocks || n > SIZE_MAX - HUGE_PAGE) return NULL;
    n = (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    if (posix_memalign(&p, HUGE_PAGE, n) != 0) return NULL;
    madvise(p, n, MADV_HUGEPAGE);
    return p;
}
#else
static void *huge_block(size_t n) { return (void)n, (void)huge_blocks, NULL; }
#endif

void *xmalloc(size_t n)
{
    void *p = n >= BIG_BLOCK ? huge_block(n) : NULL;
    if (!p) p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    if (size && n >= BIG_BLOCK / size && n <= SIZE_MAX / size) {
        void *p = huge_block(n * size);
        if (p) return memset(p, 0, n * size);
    }
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

/* A big block grows into a new huge-page block (its spare room, rounded up to 2 MiB, serves the
 * next growths without a copy). */
void *xrealloc(void *p, size_t n)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    if (huge_blocks && n >= BIG_BLOCK) {
        size_t have = p ? malloc_usable_size(p) : 0;
        if (have >= n) return p;
        void *q = huge_block(n);
        if (q) {
            if (p) memcpy(q, p, have);
            free(p);
            return q;
        }
    }
#endif
    p = realloc(p, n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...)
{
    buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    buf_reserve(&b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b.data, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return b.data;
}

void sort_unless_sorted(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    const char *at = base;
    for (size_t i = 1; i < n; i++)
        if (cmp(at + (i - 1) * size, at + i * size) > 0) {
            qsort(base, n, size, cmp);
            return;
        }
}

void buf_grow(buf *b, size_t extra)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Two digits a step: the emitters print millions of numbers. */
const char tlg_digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

char *put_decimal(char *p, uint64_t v)
{
    if (v <= UINT32_MAX) return put_decimal32(p, (uint32_t)v);
    uint64_t high = v / 1000000000u;
    uint32_t low = (uint32_t)(v % 1000000000u);
    p = put_decimal(p, high);
    /* the low nine digits, zero-padded */
    for (int i = 8; i >= 0; i--, low /= 10) p[i] = (char)('0' + low % 10);
    return p + 9;
}

void buf_put_u64(buf *b, uint64_t v)
{
    buf_reserve(b, 20);
    b->len = (size_t)(put_decimal(b->data + b->len, v) - b->data);
    b->data[b->len] = 0;
}

void buf_put_i64(buf *b, int64_t v)
{
    if (v < 0) {
        buf_putc(b, '-');
        buf_put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        buf_put_u64(b, (uint64_t)v);
    }
}

const char *buf_cstr(buf *b)
{
    buf_reserve(b, 0);
    b->data[b->len] = 0;
    return b->data;
}

void buf_fit(buf *b)
{
    buf_cstr(b);
    if (b->cap > b->len + 1) {
        b->data = xrealloc(b->data, b->len + 1);
        b->cap = b->len + 1;
    }
}

void buf_free(buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

struct arena_block {
    arena_block *next;
    size_t size;
    max_align_t data[];
};

void *arena_alloc(arena *a, size_t n, size_t align)
{
    size_t at = (a->used + align - 1) & ~(align - 1);
    if (!a->head || at + n > a->cap) {
        /* A first block of 60 KB (most projects need no more), then 4 MiB ones (whole huge pages,
         * see xmalloc): a million names fill few. */
        size_t size = a->head ? (4u << 20) - sizeof(arena_block) : 60000;
        if (size < n) size = n;
        arena_block *blk = xmalloc(sizeof *blk + size);
        blk->next = a->head;
        blk->size = size;
        a->head = blk;
        a->cap = size;
        at = 0;
    }
    a->used = at + n;
    return (char *)a->head->data + at;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1, 1);
    copy_short(d, s, n);
    d[n] = 0;
    return d;
}

void arena_adopt(arena *into, arena *from)
{
    if (!from->head) return;
    if (!into->head) {
        *into = *from;
    } else { /* behind into's current block, which stays the one allocated from */
        arena_block *tail = from->head;
        while (tail->next) tail = tail->next;
        tail->next = into->head->next;
        into->head->next = from->head;
    }
    from->head = NULL;
    from->used = from->cap = 0;
}

arena *workers_arenas(unsigned workers) { return xcalloc((size_t)(workers ? workers : 1) * WORKER_ARENA_STRIDE, sizeof(arena)); }

void arena_adopt_workers(arena *into, arena *workers, unsigned count)
{
    for (unsigned w = 0; w < count; w++) arena_adopt(into, worker_arena(workers, w));
    free(workers);
}

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = a->cap = 0;
}

const bool ascii_word_bytes[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1,
    ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
    ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1,
    ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
    ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1};

bool ascii_ieq(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen != blen) return false;
    for (size_t i = 0; i < alen; i++)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

bool str_has_suffix(const char *s, const char *suffix, size_t *stem)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n <= m || strcmp(s + n - m, suffix) != 0) return false;
    if (stem) *stem = n - m;
    return true;
}

void ascii_lower_copy(char *dst, const char *src, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, src + i, 8);
        /* Per byte, on its low seven bits (no carry crosses a byte): the high bit of `from_a` is
         * set from 'A' up, that of `past_z` above 'Z'; ~w keeps bytes below 0x80. */
        uint64_t low7 = w & ~highs, from_a = low7 + ones * (0x80 - 'A'), past_z = low7 + ones * (0x7f - 'Z');
        w |= (from_a & ~past_z & ~w & highs) >> 2;
        memcpy(dst + i, &w, 8);
    }
    for (; i < n; i++) dst[i] = ascii_lower(src[i]);
}

uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

uint32_t fnv1a_folded(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)ascii_lower(s[i]);
        h *= 16777619u;
    }
    return h;
}

char *path_join(const char *a, const char *b)
{
    if (b[0] == '/' || !a || !a[0] || strcmp(a, ".") == 0) return xstrdup(b);
    size_t n = strlen(a);
    return xasprintf("%s%s%s", a, a[n - 1] == '/' ? "" : "/", b);
}
