/* The threadlink contestant of bench_content_load, compiled twice: tl_contestant_mapped with the
 * runtime's defaults (entries of TL_CONTENT_MAP_MIN_BYTES and more mapped from their archives,
 * smaller ones copied from their archive mapped whole) and tl_contestant_read with
 * TL_CONTENT_NO_MMAP (every entry read, nothing mapped) in its own static copy of content.h
 * (TL_STATIC), so that one run shows which path a game should get by default (issue 47). */
#ifndef BENCH_TL_CONTESTANT_H
#define BENCH_TL_CONTESTANT_H

#include <stddef.h>
#include <stdint.h>

typedef struct tl_contestant tl_contestant;

typedef struct tl_contestant_api {
    /* Mounts the packed directory `dir` and finds the assets `names` (exits when it cannot). */
    tl_contestant *(*open)(const char *dir, const char (*names)[32], uint32_t count);
    /* Every asset once through tl_scope_load (read, XXH64 verified, decoded) into a new scope,
       which keeps them; with `check`, each asset's bytes compared with check[i] (sizes[i]). */
    void (*load_all)(tl_contestant *c, unsigned char *const *check, const size_t *sizes);
    /* The round's assets released: the scope disposed and collected. */
    void (*release_all)(tl_contestant *c);
    void (*close)(tl_contestant *c);
} tl_contestant_api;

extern const tl_contestant_api tl_contestant_mapped, tl_contestant_read;

#endif
