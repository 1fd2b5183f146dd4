/* One threadlink contestant of bench_content_load (tl_contestant.h), compiled twice by meson.build,
 * each time with its own static copy of the runtime (TL_STATIC): TL_CONTESTANT=tl_contestant_mapped
 * with the runtime's defaults, and TL_CONTESTANT=tl_contestant_read with TL_CONTENT_NO_MMAP. */
#define _GNU_SOURCE
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4
#define TL_CONTENT_ZSTD
#include <threadlink/content.h>

#include "tl_contestant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct tl_contestant {
    tl_content *content;
    uint32_t *ids, count;
    tl_scope scope; /* the round's */
    uint64_t loads; /* loads before the round */
};

static tl_contestant *contestant_open(const char *dir, const char (*names)[32], uint32_t count) {
    tl_contestant *c = (tl_contestant *)calloc(1, sizeof *c);
    tl_content_desc desc;
    uint32_t i;
    memset(&desc, 0, sizeof desc);
    desc.manual_collect = true;
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    c->content = tl_content_create(&desc);
    if (!tl_content_dir_valid(tl_content_register_dir(c->content, dir))) exit(1);
    c->count = count;
    c->ids = (uint32_t *)malloc(count * sizeof *c->ids);
    for (i = 0; i < count; i++)
        if ((c->ids[i] = tl_content_find(c->content, names[i])) == 0) {
            fprintf(stderr, "bench_content_load: %s: no asset %s\n", dir, names[i]);
            exit(1);
        }
    return c;
}

static void contestant_load_all(tl_contestant *c, unsigned char *const *check, const size_t *sizes) {
    uint64_t sum = 0;
    uint32_t i;
    c->loads = tl_content_get_stats(c->content).loads;
    c->scope = tl_scope_create(tl_content_root(c->content), "Round", TL_SCOPE_LEVEL);
    for (i = 0; i < c->count; i++) {
        tl_asset a = tl_scope_load(c->scope, c->ids[i]);
        const unsigned char *bytes = (const unsigned char *)tl_asset_object(a);
        if (!bytes) exit(1);
        sum += tl_asset_size(a) + bytes[0];
    }
    if (check)
        for (i = 0; i < c->count; i++)
            if (memcmp(tl_asset_object(tl_scope_load(c->scope, c->ids[i])), check[i], sizes[i]) != 0) {
                fprintf(stderr, "bench_content_load: asset %u differs\n", (unsigned)i);
                exit(1);
            }
    if (sum == 0) exit(1);
}

/* Inside the timing, as the other contestants' frees are: a game pays it at every level change. */
static void contestant_release_all(tl_contestant *c) {
    tl_scope_dispose(c->scope);
    tl_content_collect(c->content);
    if (tl_content_get_stats(c->content).loads != c->loads + c->count ||
        tl_content_live_assets(c->content) != 0) {
        fprintf(stderr, "bench_content_load: the round did not load every asset afresh\n");
        exit(1);
    }
}

static void contestant_close(tl_contestant *c) {
    tl_content_shutdown(c->content);
    free(c->ids);
    free(c);
}

const tl_contestant_api TL_CONTESTANT = {contestant_open, contestant_load_all, contestant_release_all,
                                         contestant_close};
