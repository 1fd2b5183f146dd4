#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void out_of_memory(void)
{
    fputs("threadlink-gen: error: out of memory\n", stderr);
    exit(3);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xmalloc_large(size_t n)
{
    enum { HUGE_PAGE = 2u << 20 };
#ifdef MADV_HUGEPAGE
    void *p = NULL;
    if (n >= HUGE_PAGE && posix_memalign(&p, HUGE_PAGE, n) == 0) {
        madvise(p, n, MADV_HUGEPAGE); /* advice only: refused, the block is plain pages */
        return p;
    }
#endif
    return xmalloc(n);
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

void buf_put_u64(buf *b, uint64_t v)
{
    /* Two digits a step: the emitters print millions of numbers. */
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    char tmp[24];
    int i = 24;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        tmp[--i] = pairs[2 * r + 1];
        tmp[--i] = pairs[2 * r];
    }
    if (v >= 10) {
        tmp[--i] = pairs[2 * v + 1];
        tmp[--i] = pairs[2 * v];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    buf_put(b, tmp + i, (size_t)(24 - i));
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
        /* Blocks double up to 4 MiB (from 2 MiB on huge pages): a million names fill few. */
        size_t size = a->head ? 2 * a->head->size : 60000;
        if (size > (4u << 20)) size = 4u << 20;
        if (size < n) size = n;
        arena_block *blk = xmalloc_large(sizeof *blk + size);
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
    memcpy(d, s, n);
    d[n] = 0;
    return d;
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
