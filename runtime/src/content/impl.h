#endif /* TL_CONTENT_H */

/* ================================================================================================ */
#if defined(TL_CONTENT_IMPL) && !defined(TL__CONTENT_IMPLEMENTED)
#define TL__CONTENT_IMPLEMENTED
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
/* Again here, for the documented order (include, define TL_IMPLEMENTATION, include), where the
   first include saw no switch: each emits its implementation if its own switch is on. The
   readers (content_format.h) and mem.h (collections, XXH64) only serve the implementation, so the
   public section above does not include them. */
#include "content_format.h"
#include "collections.h"
#include "log.h"

#ifndef TL_CONTENT_MAX_INDEX_BYTES
#define TL_CONTENT_MAX_INDEX_BYTES ((uint64_t)16 << 20)
#endif
#ifndef TL_CONTENT_MAX_CATALOG_BYTES
#define TL_CONTENT_MAX_CATALOG_BYTES ((uint64_t)256 << 20)
#endif
#ifndef TL_CONTENT_MAX_ASSET_BYTES
#define TL_CONTENT_MAX_ASSET_BYTES ((uint64_t)1 << 30)
#endif
#ifndef TL_CONTENT_MAP_MIN_BYTES
/* 128 KiB, glibc's threshold for handing out fresh pages: a buffer that large costs a page fault
   and a cleared page for every 4 KiB before a copy can fill it, and a mapping costs less. The
   whole cycle (load, use, release) of the mixed set of tests/bench/content_load, smaller entries
   copied from their archive: 23.0 ms from 128 KiB, 23.3 from 64 KiB, 25.8 from 256 KiB, 29.0
   from 2 MiB (tests/bench/content_load/RESULTS.md, issue 47). */
#define TL_CONTENT_MAP_MIN_BYTES ((uint64_t)128 << 10)
#endif
#ifndef TL_CONTENT_SCRATCH_KEEP_BYTES
#define TL_CONTENT_SCRATCH_KEEP_BYTES ((size_t)4 << 20)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- a directory's files (their readers: content_format.h) ------------------------------------ */
#define TL__CONTENT_INDEX_FILE "archives.json"
#define TL__CONTENT_FLAT_CATALOG "catalog.tlcat"

/* Reasons a load or a registration fails that have a result of their own (beside
   TL_CONTENT_READ_FAILED or _DIR_REFUSED and running out of memory), known by their address:
   content not matching its record (TL_CONTENT_CORRUPT), no content directory at the path
   (TL_CONTENT_DIR_MISSING). */
static const char tl__content_why_size[] = "file size differs from the catalog";
static const char tl__content_why_undecodable[] = "stored bytes do not decode";
static const char tl__content_why_no_dir[] =
    "neither archives.json nor catalog.tlcat is readable: not a content directory";

#define TL__CONTENT_NONE 0xFFFFFFFFu
enum {
    TL__SLOT_FREE = 0,
    TL__SLOT_LOADING = TL_ASSET_LOADING,
    TL__SLOT_READY = TL_ASSET_READY,
    TL__SLOT_FAILED = TL_ASSET_FAILED
};

typedef struct tl__content_held {
    uint32_t slot, gen;
} tl__content_held;
typedef struct tl__content_entry tl__content_entry;
typedef tl__content_entry *tl__content_entry_ptr;
TL_INLINE_DICT_TYPE(tl__content_heldmap, uint32_t, tl__content_held)
TL_INLINE_DICT_TYPE(tl__content_idmap, uint32_t, tl__content_entry_ptr)
TL_INLINE_DICT_TYPE(tl__content_namemap, uint64_t, tl__content_entry_ptr)

/* One catalog record of a mounted directory. */
struct tl__content_entry {
    uint32_t id, dir, slot, category;
    const char *name; /* NUL-terminated, inside the directory's catalog bytes */
    const char *path; /* flat: relative to the directory ("assets/Icons/sword.png") */
    uint64_t offset, stored, size, xxh64;
    uint32_t archive, codec;
};

typedef struct tl__content_dirrec {
    char *path;
    unsigned char *catalog;
    const char *profile;
    const char **categories;
    uint32_t category_count, entry_count, archive_count, gen;
    tl__content_entry *entries;
    void **archives; /* open archive files (packed) */
    /* Each archive mapped whole and read-only at the first load that decodes from it (POSIX,
       the default I/O; NULL until then): compressed entries are decoded from its pages. */
    struct tl__content_map *archive_maps;
    bool alive, packed;
    /* Live reload's (development builds); NULL in shipped ones. */
    struct tl__content_source *source; /* served from a source tree, or NULL */
    struct tl__live_flat *flat;        /* a build (flat or packed) watched for its next pack */
} tl__content_dirrec;

/* An entry's bytes mapped from its archive (base NULL: none). */
typedef struct tl__content_map {
    void *base;
    size_t len;
} tl__content_map;

typedef struct tl__content_slot {
    tl__content_entry *entry; /* NULL when free */
    void *object;
    tl__content_map map; /* the mapping an object kept as its bytes points into */
    uint64_t size, eligible;
    unsigned char *buffer; /* an asynchronous read in flight: its destination */
    void *request, *file;
    uint32_t gen, count, next_free, kind;
    uint8_t state, queued, pending, in_flight, decoding;
    uint8_t result; /* a FAILED slot's tl_content_result (tl_asset_result) */
} tl__content_slot;

typedef struct tl__content_scope {
    tl__content_heldmap held;
    char *name;
    const char *file;
    int line;
    uint32_t *children;
    uint32_t child_count, child_cap;
    uint32_t gen, parent, child_pos, peak, threshold, epoch, next_free;
    uint8_t kind, alive, warned;
} tl__content_scope;

typedef struct tl__content_rawref {
    uint32_t slot, slot_gen, gen, next_free;
    bool alive;
} tl__content_rawref;
typedef struct tl__content_kind {
    char *category;
    tl_content_decode_fn decode;
    tl_content_destroy_fn destroy;
    void *user;
    tl_content_reload_fn reload;
} tl__content_kind;
typedef struct tl__content_loadreq {
    uint32_t slot, gen;
} tl__content_loadreq;

struct tl_content {
    tl_logger logger;
    tl_content_result last; /* tl_content_last_result */
    tl_content_io io;
    uint64_t frame, delay;
    uint32_t warn_threshold, max_loads;
    bool auto_collect, capture_origin, verify_xxh64, trust_bytes, shutting_down;
    bool open_refused; /* the default I/O's last open met a file that is not a regular one */
    int in_callback;
    uint32_t epoch;
    tl__content_scope *scopes;
    uint32_t scope_len, scope_cap, scope_free, live_scopes;
    tl__content_slot *slots;
    uint32_t slot_len, slot_cap, slot_free, live_slots;
    tl__content_rawref *refs;
    uint32_t ref_len, ref_cap, ref_free, live_refs;
    tl__content_dirrec *dirs;
    uint32_t dir_len, dir_cap;
    tl__content_kind *kinds;
    uint32_t kind_len, kind_cap;
    tl__content_idmap ids;
    tl__content_namemap names;
    uint32_t *queue;
    uint32_t queue_len, queue_cap;
    tl__content_loadreq *loads;
    uint32_t load_len, load_cap;
    uint64_t stat_loads, stat_releases;
    uint64_t reloads;                          /* by live reload */
    const struct tl__content_live_hooks *live; /* NULL: no live reload (a shipped build) */
    uint64_t page_size;                        /* mapped entries start at a multiple of it */
    void *zstd_dctx;        /* one decompression context for every zstd entry (ZSTD_DCtx) */
    unsigned char *scratch; /* stored bytes of a compressed entry while it is decoded */
    size_t scratch_cap;
    char why_text[384]; /* a load's reason that names a file (tl__content_archive_why) */
};

/* The seam between content and its live reload (the live part, development builds). Content
   calls these at six documented points and knows nothing else of the live part; a shipped build
   (no TL_CONTENT_LIVE) has no table and the same code runs without them:
     miss        a name no registered directory holds: a source tree may have it now
     deleted     a source file gone since its entry was listed: why it loads no more, else NULL
     read        a source directory's entry: its bytes, read beneath the source root
     watch_flat  a build just mounted: watched for its next pack
     free        a directory unregistered: its source or watch state goes
     update      tl_content_update: file changes seen, additions first, then reloads
     report      shutdown: what was loaded from source that no catalog carries yet */
typedef struct tl__content_source tl__content_source;
typedef struct tl__content_live_hooks {
    tl__content_entry *(*miss)(tl_content *ctx, const char *name);
    const char *(*deleted)(const tl_content *ctx, const tl__content_entry *e);
    unsigned char *(*read)(tl_content *ctx, tl__content_entry *e, const char **why, uint64_t *hash,
                           bool *hashed);
    void (*watch_flat)(tl_content *ctx, tl_content_dir dir);
    void (*free)(tl_content *ctx, tl__content_dirrec *d);
    void (*update)(tl_content *ctx);
    void (*report)(tl_content *ctx);
} tl__content_live_hooks;

#ifdef TL_CONTENT_LIVE
static const tl__content_live_hooks *tl__content_live_hooks_table(void);
#endif
