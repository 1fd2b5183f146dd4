/* Shared by the source-tree tests and benchmark: a scratch tree in a temporary folder (removed at
 * the end), files written and renamed in it, and a kind whose objects are the file's text. */
#ifndef CONTENT_LIVE_UTIL_H
#define CONTENT_LIVE_UTIL_H

#include <threadlink/content.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char g_root[256];

static inline int live_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* A fresh scratch tree under TMPDIR. */
static inline const char *live_tree(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(g_root, sizeof g_root, "%s/tl-live-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    return mkdtemp(g_root);
}

static inline void live_tree_remove(void) {
    if (g_root[0]) nftw(g_root, live_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    g_root[0] = 0;
}

static inline const char *live_path(const char *rel) {
    static char path[2][512];
    static int turn;
    turn ^= 1;
    snprintf(path[turn], sizeof path[turn], "%s/%s", g_root, rel);
    return path[turn];
}

/* Writes `text` at rel (folders made as needed). */
static inline void live_write(const char *rel, const char *text) {
    char dir[512];
    char *slash;
    FILE *f;
    snprintf(dir, sizeof dir, "%s", live_path(rel));
    for (slash = strchr(dir + strlen(g_root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        mkdir(dir, 0755);
        *slash = '/';
    }
    f = fopen(live_path(rel), "wb");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

/* The way editors save: a temporary file renamed over the old one. */
static inline void live_write_atomic(const char *rel, const char *text) {
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.~tmp", rel);
    live_write(tmp, text);
    if (rename(live_path(tmp), live_path(rel)) != 0) abort();
}

static inline void live_rename(const char *from, const char *to) {
    char a[512];
    snprintf(a, sizeof a, "%s", live_path(from));
    if (rename(a, live_path(to)) != 0) abort();
}

static inline void live_remove(const char *rel) { remove(live_path(rel)); }

static inline double live_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void live_sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

/* ---- a kind whose object is the file's text (NULL, a refusal, when it starts with "bad") ---- */
typedef struct text_kind {
    int live, decodes, destroys, reloads;
    int first_decodes, reload_decodes; /* decodes told a first load, told a reload */
    const char *last_old, *last_new; /* the reload callback's arguments, as texts */
    char last_old_text[64], last_new_text[64];
} text_kind;

static inline void *text_decode(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    text_kind *k = (text_kind *)user;
    char *t;
    if (info->reload) k->reload_decodes++;
    else k->first_decodes++;
    if (size >= 3 && memcmp(bytes, "bad", 3) == 0) return NULL;
    t = (char *)malloc(size + 1);
    if (!t) return NULL;
    memcpy(t, bytes, size);
    t[size] = 0;
    k->live++;
    k->decodes++;
    return t;
}

static inline void text_destroy(void *user, const tl_content_info *info, void *object) {
    text_kind *k = (text_kind *)user;
    (void)info;
    k->live--;
    k->destroys++;
    free(object);
}

static inline void text_reload(void *user, const tl_content_info *info, void *old_object, void *new_object) {
    text_kind *k = (text_kind *)user;
    (void)info;
    k->reloads++;
    snprintf(k->last_old_text, sizeof k->last_old_text, "%s", (const char *)old_object);
    snprintf(k->last_new_text, sizeof k->last_new_text, "%s", (const char *)new_object);
}

static inline tl_content_kind_desc text_kind_desc(text_kind *k) {
    tl_content_kind_desc d;
    memset(&d, 0, sizeof d);
    d.category = NULL; /* every category */
    d.decode = text_decode;
    d.destroy = text_destroy;
    d.reload = text_reload;
    d.user = k;
    return d;
}

#endif
