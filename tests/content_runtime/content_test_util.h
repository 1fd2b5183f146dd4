/* Shared by the content runtime tests: a log capture, I/O backends (caching in memory, and
 * asynchronous with a chosen number of polls per read), a counting decoder (file helpers: test_files.h). Test
 * programs keep their state in globals (the runtime keeps none). */
#ifndef CONTENT_TEST_UTIL_H
#define CONTENT_TEST_UTIL_H

#include <threadlink/content.h>

#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- log capture ---------------------------------------------------------------------------- */
typedef struct log_capture {
    char text[65536];
    size_t len;
    unsigned counts[64]; /* per content log item */
    int echo;
} log_capture;

static log_capture g_log;

static inline void capture_sink(void *user, const tl_log_record *rec) {
    log_capture *c = (log_capture *)user;
    size_t n = strlen(rec->line);
    if (c->len + n + 2 < sizeof c->text) {
        memcpy(c->text + c->len, rec->line, n);
        c->len += n;
        c->text[c->len++] = '\n';
        c->text[c->len] = 0;
    }
    if (rec->item >= TL_CONTENT_LOG_BASE && rec->item < TL_CONTENT_LOG_BASE + 64) c->counts[rec->item - TL_CONTENT_LOG_BASE]++;
    if (c->echo) fprintf(stderr, "%s\n", rec->line);
}

static inline void log_reset(void) {
    int echo = g_log.echo;
    memset(&g_log, 0, sizeof g_log);
    g_log.echo = echo;
}
static inline unsigned log_count(tl_content_log_item item) { return g_log.counts[item - TL_CONTENT_LOG_BASE]; }
static inline int log_has(const char *s) { return strstr(g_log.text, s) != NULL; }

static inline tl_logger capture_logger(void) {
    tl_logger l;
    memset(&l, 0, sizeof l);
    l.sink = capture_sink;
    l.user = &g_log;
    return l;
}

/* ---- a caching backend: every file read once, then served from memory ------------------------ */
typedef struct cached_file { char *path; unsigned char *data; size_t size; } cached_file;
typedef struct cache_io { cached_file files[256]; int count; unsigned long opens, reads; } cache_io;

static inline void *cache_open(void *user, const char *path, uint64_t *size) {
    cache_io *c = (cache_io *)user;
    int i;
    c->opens++;
    for (i = 0; i < c->count; i++)
        if (strcmp(c->files[i].path, path) == 0) break;
    if (i == c->count) {
        size_t n = 0;
        unsigned char *d = read_file(path, &n);
        if (!d || c->count == 256) {
            free(d);
            return NULL;
        }
        c->files[i].path = (char *)malloc(strlen(path) + 1);
        if (!c->files[i].path) {
            free(d);
            return NULL;
        }
        strcpy(c->files[i].path, path);
        c->files[i].data = d;
        c->files[i].size = n;
        c->count++;
    }
    *size = c->files[i].size;
    return &c->files[i];
}
static inline bool cache_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    cached_file *f = (cached_file *)file;
    ((cache_io *)user)->reads++;
    if (offset > f->size || size > f->size - offset) return false;
    memcpy(dst, f->data + offset, size);
    return true;
}
static inline void cache_close(void *user, void *file) {
    (void)user;
    (void)file;
}
static inline void cache_free(cache_io *c) {
    int i;
    for (i = 0; i < c->count; i++) {
        free(c->files[i].path);
        free(c->files[i].data);
    }
    c->count = 0;
}
static inline tl_content_io cache_backend(cache_io *c) {
    tl_content_io io;
    memset(&io, 0, sizeof io);
    io.user = c;
    io.open = cache_open;
    io.read = cache_read;
    io.close = cache_close;
    return io;
}

/* ---- an asynchronous backend: stdio reads completed after `polls` read_poll calls ------------- */
typedef struct async_io { int polls, fail_next; unsigned long begun, live; } async_io;
typedef struct async_req { int left, ok; } async_req;

static inline void *async_open(void *user, const char *path, uint64_t *size) {
    FILE *f = fopen(path, "rb");
    (void)user;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = (uint64_t)ftell(f);
    return f;
}
static inline bool async_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    (void)user;
    if (fseek((FILE *)file, (long)offset, SEEK_SET) != 0) return false;
    return size == 0 || fread(dst, 1, size, (FILE *)file) == size;
}
static inline void async_close(void *user, void *file) {
    (void)user;
    fclose((FILE *)file);
}
static inline void *async_begin(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    async_io *a = (async_io *)user;
    async_req *r = (async_req *)malloc(sizeof *r);
    if (!r) return NULL;
    r->left = a->polls;
    r->ok = async_read(user, file, offset, dst, size) && !a->fail_next;
    a->fail_next = 0;
    a->begun++;
    a->live++;
    return r;
}
static inline int async_poll(void *user, void *request) {
    async_io *a = (async_io *)user;
    async_req *r = (async_req *)request;
    int ok;
    if (r->left-- > 0) return TL_CONTENT_IO_PENDING;
    ok = r->ok;
    free(r);
    a->live--;
    return ok ? TL_CONTENT_IO_DONE : TL_CONTENT_IO_FAILED;
}
static inline tl_content_io async_backend(async_io *a) {
    tl_content_io io;
    memset(&io, 0, sizeof io);
    io.user = a;
    io.open = async_open;
    io.read = async_read;
    io.close = async_close;
    io.read_begin = async_begin;
    io.read_poll = async_poll;
    return io;
}

/* ---- a counting kind: the object is a copy of the bytes behind a header ----------------------- */
typedef struct decoded {
    uint32_t id;
    size_t size;
    char category[32];
    unsigned char bytes[1];
} decoded;
typedef struct kind_counter { unsigned long decodes, destroys, fail_left; int live; } kind_counter;

static inline void *count_decode(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    kind_counter *k = (kind_counter *)user;
    decoded *d;
    if (k->fail_left) {
        k->fail_left--;
        return NULL;
    }
    d = (decoded *)malloc(sizeof *d + size);
    if (!d) return NULL;
    d->id = info->id;
    d->size = size;
    snprintf(d->category, sizeof d->category, "%s", info->category);
    memcpy(d->bytes, bytes, size);
    k->decodes++;
    k->live++;
    return d;
}
static inline void count_destroy(void *user, const tl_content_info *info, void *object) {
    kind_counter *k = (kind_counter *)user;
    (void)info;
    k->destroys++;
    k->live--;
    free(object);
}
static inline tl_content_kind_desc count_kind(const char *category, kind_counter *k) {
    tl_content_kind_desc d;
    memset(&d, 0, sizeof d);
    d.category = category;
    d.decode = count_decode;
    d.destroy = count_destroy;
    d.user = k;
    return d;
}

#endif
