/* An allocator for the content runtime tests that counts (define before including content.h):
 * every TL_MALLOC's call and bytes, and the bytes still live (each block carries its size). */
#ifndef CONTENT_TEST_COUNT_ALLOC_H
#define CONTENT_TEST_COUNT_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

static size_t g_calls, g_bytes, g_live;

static void *count_malloc(size_t n) {
    size_t *p = (size_t *)malloc(n + sizeof(max_align_t));
    if (!p) return NULL;
    *p = n;
    g_calls++;
    g_bytes += n;
    g_live += n;
    return (char *)p + sizeof(max_align_t);
}

static void count_free(void *ptr) {
    size_t *p;
    if (!ptr) return;
    p = (size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    g_live -= *p;
    free(p);
}

#define TL_MALLOC(size) count_malloc(size)
#define TL_FREE(ptr) count_free(ptr)

#endif
