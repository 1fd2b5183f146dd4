/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/content.h -- content directories, scopes and reference-counted asset slots.

   WHAT
   ----
   Every load belongs to a scope; when the scope ends, everything it holds is released. A release
   you forget costs a little peak memory, never correctness. Scopes form a tree under a root that
   ends at shutdown; an asset is held at most once per scope; one slot per asset carries the
   reference count and a generation number (stale handles are detected, never dereferenced, while
   the context lives: see tl_content_shutdown); a slot whose count reaches zero is released by
   tl_content_collect, once per frame, after `release_delay_frames`.

   Assets come from directories built by `threadlink-gen pack` (schemas/content-formats.md):
     flat    catalog.tlcat + the asset files at the paths it records (archive "none")
     packed  archives.json + <Profile>.<label>-<hash>.tlpk archives (archive "packed")
   Every table of contents, offset, size, string and checksum is validated before use (content
   arrives by download). The runtime never knows what a texture is: a decoder callback per kind
   (per catalog category) turns the bytes into the game's object, a destroy callback frees it.

   INCLUDE
   -------
       #include <threadlink/content.h>
       #define TL_CONTENT_IMPL                 // in exactly one C or C++ file, before the include
       #include <threadlink/content.h>
   Uses log.h (logging) and, in its implementation only, content_format.h (the readers of
   every format, with text.h, the text rules of names), collections.h and hash.h (static inline).
   A file including content.h sees log.h's declarations and its own, nothing of
   content_format.h or text.h.
   This one file is assembled from runtime/src/content/ by tools/amalgamate.py (flecs' and SQLite's
   model): api, live_api; impl, io, directories, slots, loading, context, scopes, shutdown, live.
   Edit the parts, then run the tool; a test fails while this file and the parts disagree.

   OVERRIDES (define before including; pairs or nothing)
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)   allocation (default malloc / free)
   TL_CONTENT_LZ4                   decode lz4 archive entries (include <lz4.h>, link liblz4)
   TL_CONTENT_ZSTD                  decode zstd archive entries (include <zstd.h>, link libzstd)
       Without the macro for a codec, registering a packed directory that stores any entry with
       it is refused with an error naming the archive, the codec and the macro to define. Raw
       (uncompressed) entries need neither. Define the macros for the implementation file.
   TL_CONTENT_MAX_INDEX_BYTES       largest archives.json accepted (default 16 MiB)
   TL_CONTENT_MAX_CATALOG_BYTES     largest catalog accepted (default 256 MiB)
   TL_CONTENT_MAX_ASSET_BYTES       largest asset (decoded size) accepted (default 1 GiB)
   TL_CONTENT_SCRATCH_KEEP_BYTES    compressed entries are read into one buffer per context,
                                    reused by every load; one grown past this size is freed
                                    after its load (default 4 MiB)
   TL_CONTENT_NO_PREAD              the default I/O reads with fseek + fread even where pread
                                    is declared (POSIX: one system call per read, no copy)
   TL_CONTENT_MAP_MIN_BYTES         entries of packed archives at least this large are mapped
                                    from their archive instead of read, where the default I/O
                                    serves them on POSIX (default 128 KiB; see Loading)
   TL_CONTENT_NO_MMAP               the default I/O never maps entries or archives: every load
                                    reads
   TL_CONTENT_LIVE                  development builds: profiles served from their source tree,
                                    held assets reloaded when their files change (its live part;
                                    define it for every file including this header). Without it
                                    none of that code exists.

   USE
   ---
       tl_content_desc desc;
       memset(&desc, 0, sizeof desc);            // zero: defaults (see tl_content_desc)
       tl_content *content = tl_content_create(&desc);
       tl_content_kind_desc tex;
       memset(&tex, 0, sizeof tex);
       tex.category = "Icons"; tex.decode = decode_png; tex.destroy = free_texture;
       tl_content_register_kind(content, &tex);
       tl_content_register_dir(content, "build/content/Main");

       tl_scope level = tl_scope_create(tl_content_root(content), "Field", TL_SCOPE_LEVEL);
       tl_asset sword = tl_scope_load(level, CONTENT_MAIN_U32(Content_Main_Icons_sword)); // generated id
       texture *t = (texture *)tl_asset_object(sword);
       ...
       for (;;) { game_frame(); tl_content_update(content); }   // polls loads, collects
       tl_scope_dispose(level);                  // everything the level held goes back
       tl_content_shutdown(content);

   RULES
   -----
   Directories
   - tl_content_register_dir reads archives.json (packed) or catalog.tlcat (flat). A packed
     directory is mounted only when every archive it lists exists with the recorded size (and,
     with verify_xxh64, the recorded XXH64), every header and table of contents is valid, the
     catalog inside the catalog archive is valid and every catalog asset is stored in exactly one
     archive; otherwise nothing is mounted and the error names the archive. Registering a profile
     already registered, or a directory with an asset id another directory has, is refused.
   - Only regular files are content: the default I/O opens every file (archives.json,
     catalog.tlcat, archives, flat asset files, source files) without blocking and refuses one
     that is a FIFO, a device, a socket or a folder, with a log line naming it (a FIFO would
     block the open for ever). The directory is then refused, or the load fails, saying so.
   - tl_content_unregister_dir refuses (TL_CONTENT_DIR_HELD) while assets from the directory are
     held (a count above zero, or loading for someone); with force it invalidates them: their
     objects are destroyed at once, handles to them go stale, and scopes that held them skip them
     quietly (count, dump, release). Unreferenced assets waiting for collect are released on the spot. The directory's
     ids and names are withdrawn before any destroy callback runs: a callback that loads one of
     its assets gets an invalid asset (logged: unknown asset).
   - Names: an asset's name (Icons/sword) is unique per profile, case-insensitively and under
     Unicode normalisation (pack and source serving refuse two files that are one name:
     tl_text_name_key), and looked up ASCII case-insensitively. When two registered profiles carry one name, the first registered
     answers lookups by name (an info line says so); ids are always distinct.

   Loading
   - tl_scope_load (and the other synchronous loads) read, verify (the entry's XXH64) and decode
     before returning; a failure is logged and returns an invalid asset, holding nothing
     (tl_content_last_result says why: TL_CONTENT_READ_FAILED, _CORRUPT, _DECODE_FAILED, ...).
   - Mapped entries (POSIX, the default I/O, packed directories): an entry of at least
     TL_CONTENT_MAP_MIN_BYTES is mapped from its archive (mmap, private and writable) instead of
     read into a new buffer: the page cache's pages, no copy and no allocation. A raw asset kept
     as its bytes points into its mapping until it is released; writes to it stay in that asset
     (copy on write) and never reach the archive or a later load. Its bytes start where the
     archive has them (no alignment is promised, as for every asset's bytes); a compressed entry
     is decoded from its mapping into a new buffer. Smaller entries come from their archive
     mapped whole (read-only, shared; 64-bit targets only, address space being scarce on
     32-bit ones, where they are read) at the first such load and kept mapped until its directory
     is unregistered or the context shuts down: a raw one stored in under
     TL_CONTENT_MAP_MIN_BYTES is copied from there into a new buffer (its XXH64 computed on the
     way), a compressed one stored in under 64 KiB is decoded from there; no read call per load
     (costs address space, the archives' size, and the page cache's pages it touched). A
     compressed entry of 64 KiB up to TL_CONTENT_MAP_MIN_BYTES is read, then decoded. Over a whole
     load-and-release cycle of 4,000 entries from 200 B to 1.5 MB, the default (128 KiB) took
     0.66-0.76x PhysFS's time here, everything read (TL_CONTENT_NO_MMAP) 0.93x
     (tests/bench/content_load/RESULTS.md). Archives must not be changed in place while mounted
     (pack and the patcher replace files, they never rewrite one): an entry past the end of an
     archive truncated since it was mounted is read, and its load fails, but a page already
     mapped when its file is truncated raises SIGBUS when touched.
   - *_async variants return at once with an asset whose status is TL_ASSET_LOADING; the load
     runs in tl_content_update (at most max_loads_per_frame started per frame; with an I/O
     backend that has read_begin/read_poll, reads overlap frames). Poll tl_asset_get_status once
     per frame. A synchronous load of an asset that is loading completes it now (polling the backend
     until its read is done).
   - Cancellation: releasing a reference before its load completes (tl_scope_release, scope
     dispose, tl_content_dispose) returns the reference at once; the load finishes and its result
     is released at the next collect. An asynchronous load that fails leaves its holders with a
     TL_ASSET_FAILED asset (tl_asset_result says why); loading that key again in a scope that
     holds it retries.

   Scopes
   - The root scope ends only in tl_content_shutdown. A scope ends by tl_scope_dispose or when its
     parent ends: children first, the last child first; then every reference it holds is
     released. An explicit scope (TL_SCOPE_EXPLICIT) reclaimed by a level scope or by shutdown
     (a child of the root) logs a leak warning with its path (Root/Field/ForgottenPopup) and,
     when capture_origin is on and it was made with TL_SCOPE_CREATE, where it was created. Any
     other scope ending through its parent, an explicit one too when that parent is explicit or
     an owner (entity, screen, owned), has had its normal lifetime and is quiet.
   - A key (asset id) is held at most once per scope: loading it again returns the same asset and
     never grows the scope. tl_scope_release returns it early (optional). tl_scope_share_to gives
     the target its own reference to a key the source holds; tl_scope_adopt gives the target a
     reference to an asset you have (a live tl_asset). tl_scope_attach hands a raw handle's
     reference to a scope (the handle is consumed; when the scope already holds the key the
     handle's reference is returned instead).
   - A scope holding more than its warning threshold (tl_content_desc.warn_threshold, or
     tl_scope_set_warn_threshold) logs a warning once per crossing.
   - Removing a scope from its parent moves the parent's last child into its place: children are
     listed (dump) in that order, not creation order.

   Slots and collect
   - One slot per loaded asset across all scopes and raw handles. When its count reaches zero it
     is queued with the frame number; tl_content_collect releases queued slots whose count is
     still zero, that are not loading, and that have waited release_delay_frames frames (calls to
     tl_content_update); a slot acquired again meanwhile just leaves the queue, so a release and
     re-acquire never reloads. Collect costs in proportion to what is queued. Releasing a slot
     moves its generation on, so every tl_asset to it is then detected as stale.
   - tl_content_update is the once-per-frame hook (after game code): it advances loads, collects
     when auto-collect is on (default; tl_content_set_auto_collect or desc.manual_collect turn it
     off, then call tl_content_collect yourself), and advances the frame number.
   - tl_content_shutdown disposes the tree (leak warnings as above), reports raw handles never
     disposed (one warning each, then a total), releases everything and unregisters every
     directory. Once it has begun, every load is refused (logged as a failed load): a destroy
     callback it runs gets an invalid asset or handle. It frees the context, which every handle
     points into: no scope, asset, raw handle or directory handle may be used after it (that is
     a use after free, not a stale handle the module can detect).

   ERRORS
   ------
   A function that can fail returns tl_content_result (TL_CONTENT_OK = 0,
   tl_content_result_message); one that makes something (a scope, a load, a raw handle, a
   directory) returns it, invalid on failure, the reason in tl_content_last_result(content); a
   failed asynchronous load's reason is tl_asset_result(asset). Every failure is logged once,
   where it is met, through desc.logger (TL_CONTENT_LOG_ITEMS). See docs/errors.md.

   Main thread only (callbacks run on it, from the call that loads or collects). Callbacks may
   call back into this module except to unregister directories or shut down (and loads fail
   during shutdown, above).
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_CONTENT_IMPL)
#define TL_CONTENT_IMPL
#endif
#ifndef TL_CONTENT_H
#define TL_CONTENT_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/content.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- results and diagnostics ----------------------------------------------------------------- */

/* What a call that can fail answers (docs/errors.md): TL_CONTENT_OK (0) or one of these rows,
   TL_CONTENT_<ID> in this order; tl_content_result_message gives the row's message. */
#define TL_CONTENT_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(STALE_SCOPE, "the scope has ended (stale scope handle)") \
    X(STALE_HANDLE, "stale raw handle (already disposed or attached)") \
    X(STALE_ASSET, "stale asset handle (its slot was released)") \
    X(STALE_DIR, "stale directory handle (unregistered)") \
    X(UNKNOWN_ASSET, "no registered directory holds the asset") \
    X(NOT_HELD, "the scope does not hold the asset") \
    X(READ_FAILED, \
      "the asset's bytes could not be read (missing, unreadable, not a regular file, or an " \
      "archive cut short since it was mounted)") \
    X(CORRUPT, \
      "the asset's bytes differ from the directory's record (size, XXH64 or compression)") \
    X(DECODE_FAILED, "the kind's decoder refused the asset") \
    X(GONE, \
      "the asset is no longer served (deleted from its source tree, or dropped by a new build)") \
    X(LOAD_CYCLE, "the asset's decoder loads the asset itself") \
    X(SHUTTING_DOWN, "the context is shutting down") \
    X(DIR_MISSING, \
      "not a content directory (neither archives.json nor catalog.tlcat can be read)") \
    X(DIR_REFUSED, \
      "the directory was refused (invalid, or its profile or an asset id is registered already)") \
    X(DIR_HELD, "assets from the directory are held or loading (force invalidates them)") \
    X(KIND_EXISTS, "the category has a kind already") \
    X(ROOT_DISPOSE, "the root scope ends only in tl_content_shutdown") \
    X(CALLBACK_REFUSED, "not allowed from inside a content callback")

typedef enum tl_content_result {
    TL_CONTENT_OK = 0,
#define TL__CONTENT_RESULT_ENUM(id, message) TL_CONTENT_##id,
    TL_CONTENT_RESULTS(TL__CONTENT_RESULT_ENUM)
#undef TL__CONTENT_RESULT_ENUM
        TL_CONTENT_RESULT_END_
} tl_content_result;

TL_API const char *tl_content_result_message(tl_content_result result);

/* One log line per failure or event, through desc.logger: the record's item is
   TL_CONTENT_LOG_<ID>. */

#define TL_CONTENT_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(STALE_SCOPE, TL_LOG_LEVEL_ERROR, "%s: the scope has ended (stale scope handle)") \
    X(STALE_HANDLE, TL_LOG_LEVEL_ERROR, "%s: stale raw handle (already disposed or attached)") \
    X(STALE_ASSET, TL_LOG_LEVEL_WARNING, "%s: stale asset handle (its slot was released)") \
    X(UNKNOWN_ASSET, TL_LOG_LEVEL_ERROR, "%s: no registered directory holds asset %s") \
    X(LOAD_FAILED, TL_LOG_LEVEL_ERROR, "loading %s failed: %s") \
    X(DIR_REFUSED, TL_LOG_LEVEL_ERROR, "cannot register %s: %s") \
    X(DIR_ARCHIVE, TL_LOG_LEVEL_ERROR, "cannot register %s: archive %s: %s") \
    X(DIR_HELD, TL_LOG_LEVEL_ERROR, \
      "cannot unregister %s: %u asset(s) from it are held or loading (force invalidates them)") \
    X(DIR_FORCED, TL_LOG_LEVEL_WARNING, "unregistered %s by force: %u held asset(s) invalidated") \
    X(NAME_SHADOWED, TL_LOG_LEVEL_INFO, \
      "%s: %u name(s) are already registered by an earlier directory; load those by id") \
    X(SCOPE_LEAKED, TL_LOG_LEVEL_WARNING, \
      "explicit scope %s was reclaimed by %s: dispose it yourself%s") \
    X(SCOPE_THRESHOLD, TL_LOG_LEVEL_WARNING, \
      "scope %s holds %u assets, more than its threshold %u") \
    X(ROOT_DISPOSE, TL_LOG_LEVEL_ERROR, "the root scope ends only in tl_content_shutdown") \
    X(RAW_LEFTOVER, TL_LOG_LEVEL_WARNING, "shutdown: a raw handle to %s was never disposed") \
    X(RAW_LEFTOVER_TOTAL, TL_LOG_LEVEL_WARNING, "shutdown: %u raw handle(s) were never disposed") \
    X(CALLBACK_REFUSED, TL_LOG_LEVEL_ERROR, "%s: not allowed from inside a content callback") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(NOT_A_FILE, TL_LOG_LEVEL_ERROR, \
      "%s is %s, not a regular file: content is read only from regular files") \
    X(NOT_HELD, TL_LOG_LEVEL_WARNING, "%s: scope %s does not hold asset %u") \
    TL__CONTENT_LIVE_LOG_ITEMS(X)

/* Development builds (TL_CONTENT_LIVE, the live part below): source trees and hot reload. */
#ifdef TL_CONTENT_LIVE
#define TL__CONTENT_LIVE_LOG_ITEMS(X) \
    X(RELOADED, TL_LOG_LEVEL_INFO, "reloaded %s") \
    X(RELOAD_FAILED, TL_LOG_LEVEL_ERROR, "reloading %s failed, the loaded object stays: %s") \
    X(SOURCE_SKIPPED, TL_LOG_LEVEL_WARNING, "%s: %s") \
    X(SOURCE_REFUSED, TL_LOG_LEVEL_ERROR, \
      "source tree %s changed into one pack refuses; its previous names stay served: %s") \
    X(SOURCE_WATCH, TL_LOG_LEVEL_INFO, "%s: %s") \
    X(SOURCE_ROOT_GONE, TL_LOG_LEVEL_WARNING, \
      "source root %s went away (deleted or moved): held assets stay, loads from it fail until a " \
      "folder is at its path again") \
    X(FLAT_REFUSED, TL_LOG_LEVEL_ERROR, \
      "%s was rebuilt, and its new catalog is not served (%s): the previous one stays") \
    X(PACKED_REFUSED, TL_LOG_LEVEL_ERROR, \
      "%s was packed again, and the new build is not served (%s): the previous one stays") \
    X(PACKED_ARCHIVE, TL_LOG_LEVEL_ERROR, \
      "%s was packed again, and the new build is not served (archive %s: %s): the previous one stays") \
    X(SOURCE_UNCATALOGUED, TL_LOG_LEVEL_WARNING, \
      "%s (profile %s) was loaded from its source tree and the generated catalog does not carry it yet") \
    X(SOURCE_UNCATALOGUED_TOTAL, TL_LOG_LEVEL_WARNING, \
      "%u asset(s) loaded from source trees need a threadlink-gen generate before they ship")
#else
#define TL__CONTENT_LIVE_LOG_ITEMS(X)
#endif

#define TL_CONTENT_LOG_BASE 0x400u
typedef enum tl_content_log_item {
    TL_CONTENT_LOG_NONE_ = TL_CONTENT_LOG_BASE - 1,
#define TL__CONTENT_LOG_ENUM(id, level, message) TL_CONTENT_LOG_##id,
    TL_CONTENT_LOG_ITEMS(TL__CONTENT_LOG_ENUM) /* TL_CONTENT_LOG_<id>, one per row from the base */
#undef TL__CONTENT_LOG_ENUM
    TL_CONTENT_LOG_END_
} tl_content_log_item;

/* --- handles (small values; all-zero is invalid) ---------------------------------------------- */

typedef struct tl_content tl_content;

typedef struct tl_scope {
    tl_content *ctx;
    uint32_t index, gen;
} tl_scope;
typedef struct tl_asset {
    tl_content *ctx;
    uint32_t slot, gen;
} tl_asset;
/* A raw reference: one count on an asset's slot, owned by whoever holds the handle. */
typedef struct tl_content_handle {
    tl_content *ctx;
    uint32_t ref, gen;
} tl_content_handle;
typedef struct tl_content_dir {
    tl_content *ctx;
    uint32_t index, gen;
} tl_content_dir;

typedef enum tl_scope_kind {
    TL_SCOPE_ROOT = 0,     /* the root (only) */
    TL_SCOPE_EXPLICIT = 1, /* you dispose it; a level or shutdown reclaiming it warns (a leak) */
    TL_SCOPE_LEVEL = 2,    /* owner kinds: ending with the parent is normal */
    TL_SCOPE_ENTITY = 3,
    TL_SCOPE_SCREEN = 4,
    TL_SCOPE_OWNED = 5 /* any other owner */
} tl_scope_kind;

typedef enum tl_asset_status {
    TL_ASSET_INVALID = 0, /* zero, stale or never loaded */
    TL_ASSET_LOADING = 1,
    TL_ASSET_READY = 2,
    TL_ASSET_FAILED = 3
} tl_asset_status;

/* Per-scope warning threshold meaning "never warn" (0 means: the context's default). */
#define TL_SCOPE_NO_THRESHOLD UINT32_MAX
/* release_delay_frames value meaning "no delay" (0 means the default, 1). */
#define TL_CONTENT_NO_DELAY (-1)

/* --- callbacks ---------------------------------------------------------------------------------- */

/* What a decoder or destroy callback is told about the asset (and what a listing of a directory
   gives for each of its assets). */
typedef struct tl_content_info {
    uint32_t id;          /* the catalog id (generated enum value) */
    const char *name;     /* "Icons/sword" */
    const char *category; /* the catalog category: the kind */
    const char *profile;  /* the directory's profile */
    uint64_t size;        /* decoded bytes */
    bool reload;          /* development builds (TL_CONTENT_LIVE): the decode, reload callback or
                             destroy of a held asset's reload (its new bytes, the old object
                             replaced); false for a first load and everywhere else */
} tl_content_info;

/* Turns bytes into the game's object (NULL: failure, logged). The bytes belong to the runtime
   and are freed after the call. destroy frees the object when the slot is released. */
typedef void *(*tl_content_decode_fn)(void *user, const tl_content_info *info, const void *bytes,
                                      size_t size);
typedef void (*tl_content_destroy_fn)(void *user, const tl_content_info *info, void *object);
/* Development builds (TL_CONTENT_LIVE): a held asset was reloaded in place. `new_object` is in
   the slot now; `old_object` is destroyed right after the call. Point what you kept at it. */
typedef void (*tl_content_reload_fn)(void *user, const tl_content_info *info, void *old_object,
                                     void *new_object);

typedef struct tl_content_kind_desc {
    const char *category;          /* the catalog category it decodes; NULL: every category
                                      without a kind of its own */
    tl_content_decode_fn decode;   /* required */
    tl_content_destroy_fn destroy; /* optional */
    void *user;
    tl_content_reload_fn reload; /* optional; called only in development builds (TL_CONTENT_LIVE) */
} tl_content_kind_desc;
/* An asset whose category has no kind is kept as its bytes: tl_asset_object points at them
   (tl_asset_size bytes), freed when the slot is released. */

/* The I/O backend. Zero: files through stdio. Paths are the directory path given to
   tl_content_register_dir joined with '/' and a relative path from the directory's index. */
#define TL_CONTENT_IO_PENDING 0
#define TL_CONTENT_IO_DONE 1
#define TL_CONTENT_IO_FAILED (-1)
typedef struct tl_content_io {
    void *user;
    /* Opens a file for reading and stores its size; NULL when it is missing or unreadable. */
    void *(*open)(void *user, const char *path, uint64_t *size);
    /* Reads exactly `size` bytes at `offset`; false on any error or short read. */
    bool (*read)(void *user, void *file, uint64_t offset, void *dst, size_t size);
    void (*close)(void *user, void *file);
    /* Optional asynchronous reads (both or neither). read_begin starts a read into dst (which
       stays valid until the request ends) and returns a request, NULL on failure; read_poll
       answers TL_CONTENT_IO_PENDING, _DONE or _FAILED and ends the request when not pending. */
    void *(*read_begin)(void *user, void *file, uint64_t offset, void *dst, size_t size);
    int (*read_poll)(void *user, void *request);
} tl_content_io;

/* Zero-initialised: defaults.
     release_delay_frames  1 (TL_CONTENT_NO_DELAY: released by the collect of the same frame)
     manual_collect        false: tl_content_update collects (auto-collect)
     warn_threshold        0: no per-scope warning unless a scope sets its own
     capture_origin        false: leak warnings without the creating file:line
     verify_xxh64          false: packed archives are checked by size; true: and by XXH64
     trust_asset_bytes     false: each asset's XXH64 is checked when it is loaded
     max_loads_per_frame   8 asynchronous loads started per tl_content_update
     io                    files (stdio; archives past 2 GiB need 64-bit file positions,
                           which Windows and 64-bit systems have and 32-bit POSIX lacks)
     logger                stderr, every level */
typedef struct tl_content_desc {
    int32_t release_delay_frames;
    bool manual_collect;
    uint32_t warn_threshold;
    bool capture_origin, verify_xxh64, trust_asset_bytes;
    uint32_t max_loads_per_frame;
    tl_content_io io;
    tl_logger logger;
} tl_content_desc;

/* Zero: the context's defaults. */
typedef struct tl_content_dir_desc {
    bool verify_xxh64; /* check every archive's XXH64 against archives.json before mounting */
} tl_content_dir_desc;

/* --- context, directories, kinds ---------------------------------------------------------------- */

/* NULL desc: defaults. NULL when out of memory (logged through desc->logger). */
TL_API tl_content *tl_content_create(const tl_content_desc *desc);
TL_API void tl_content_shutdown(tl_content *ctx); /* frees ctx: no handle of it may be used after */
/* Why the last call on ctx that made something (a scope, a load, a raw handle, a directory)
   returned an invalid one, TL_CONTENT_OK when it made it; a call that fails records its result
   here too. TL_CONTENT_INVALID_ARGUMENT for a NULL ctx. */
TL_API tl_content_result tl_content_last_result(const tl_content *ctx);

/* Makers: an invalid directory on failure (tl_content_last_result: TL_CONTENT_DIR_MISSING,
   _DIR_REFUSED, _OUT_OF_MEMORY, ...). */
TL_API tl_content_dir tl_content_register_dir(tl_content *ctx, const char *path);
TL_API tl_content_dir tl_content_register_dir_ex(tl_content *ctx, const char *path,
                                                 const tl_content_dir_desc *desc);
/* TL_CONTENT_DIR_HELD while assets from it are held or loading, unless force. */
TL_API tl_content_result tl_content_unregister_dir(tl_content_dir dir, bool force);
TL_API bool tl_content_dir_valid(tl_content_dir dir);
TL_API const char *tl_content_dir_profile(tl_content_dir dir);
TL_API uint32_t tl_content_dir_asset_count(tl_content_dir dir);
/* Lists a directory's assets: start with *cursor = 0; each call fills *info with the next one
   (its id, name, category, profile and size) and returns true, false at the end or for a stale
   directory. In the directory's own order (by id for built directories). No allocation: the
   strings are the directory's, valid until it is unregistered (or, in development builds, served
   again). Development builds skip what loads no more (a file deleted from a source tree, an asset
   the latest pack dropped while it was held). */
TL_API bool tl_content_dir_next_asset(tl_content_dir dir, uint32_t *cursor, tl_content_info *info);

/* TL_CONTENT_KIND_EXISTS when the category (or, for NULL, the fallback) has a kind. */
TL_API tl_content_result tl_content_register_kind(tl_content *ctx,
                                                  const tl_content_kind_desc *kind);

/* The id of a name (ASCII case-insensitive), 0 when no registered directory has it. */
TL_API uint32_t tl_content_find(tl_content *ctx, const char *name);
/* Whether a registered directory carries the id. */
TL_API bool tl_content_contains(tl_content *ctx, uint32_t id);

/* --- frame ---------------------------------------------------------------------------------------- */

TL_API void tl_content_update(tl_content *ctx);  /* once per frame, after game code */
TL_API void tl_content_collect(tl_content *ctx); /* release what has waited long enough */
TL_API void tl_content_set_auto_collect(tl_content *ctx, bool on);
TL_API uint64_t tl_content_frame(const tl_content *ctx);

/* --- scopes ---------------------------------------------------------------------------------------- */

TL_API tl_scope tl_content_root(tl_content *ctx);
/* Makers: an invalid scope on failure (tl_content_last_result). */
TL_API tl_scope tl_scope_create(tl_scope parent, const char *name, tl_scope_kind kind);
TL_API tl_scope tl_scope_create_at(tl_scope parent, const char *name, tl_scope_kind kind,
                                   const char *file, int line);
/* Records where the scope was created (shown in leak warnings when capture_origin is on). */
#define TL_SCOPE_CREATE(parent, name, kind) \
    tl_scope_create_at((parent), (name), (kind), __FILE__, __LINE__)
TL_API tl_content_result tl_scope_dispose(tl_scope scope);
TL_API bool tl_scope_valid(tl_scope scope);

/* Makers: an invalid asset on failure, the reason in tl_content_last_result (an asynchronous
   load that fails later: tl_asset_result). */
TL_API tl_asset tl_scope_load(tl_scope scope, uint32_t id);
TL_API tl_asset tl_scope_load_name(tl_scope scope, const char *name);
TL_API tl_asset tl_scope_load_async(tl_scope scope, uint32_t id);
TL_API tl_asset tl_scope_load_name_async(tl_scope scope, const char *name);
TL_API bool tl_scope_contains(tl_scope scope, uint32_t id);
/* TL_CONTENT_NOT_HELD when the scope does not hold the id (logged: a warning). */
TL_API tl_content_result tl_scope_release(tl_scope scope, uint32_t id);
/* TL_CONTENT_NOT_HELD when the source does not hold the id. */
TL_API tl_content_result tl_scope_share_to(tl_scope source, tl_scope target, uint32_t id);
TL_API tl_content_result tl_scope_adopt(tl_scope target, tl_asset asset);
TL_API tl_content_result tl_scope_attach(tl_scope scope, tl_content_handle handle);

TL_API uint32_t tl_scope_count(tl_scope scope); /* live keys held */
TL_API uint32_t tl_scope_peak(tl_scope scope);
TL_API tl_scope_kind tl_scope_get_kind(tl_scope scope);
TL_API const char *tl_scope_name(tl_scope scope);
TL_API tl_scope tl_scope_parent(tl_scope scope);
/* Moves a scope (and its subtree) under another parent of the same context, keeping every
   reference it holds: nothing is released or loaded (an entity moving to another level).
   TL_CONTENT_INVALID_ARGUMENT for the root, another context, or a parent inside the scope's own
   subtree; TL_CONTENT_STALE_SCOPE for a stale scope or parent. */
TL_API tl_content_result tl_scope_reparent(tl_scope scope, tl_scope new_parent);
TL_API tl_content_result tl_scope_set_warn_threshold(tl_scope scope, uint32_t threshold);
/* "Root/Field/Popup" into buf (snprintf-like: returns the full length, writes at most cap-1
   characters and a NUL when cap > 0). */
TL_API size_t tl_scope_path(tl_scope scope, char *buf, size_t cap);

/* --- raw handles ------------------------------------------------------------------------------------ */

/* Makers: an invalid handle on failure (tl_content_last_result). */
TL_API tl_content_handle tl_content_acquire(tl_content *ctx, uint32_t id);
TL_API tl_content_handle tl_content_acquire_name(tl_content *ctx, const char *name);
TL_API tl_content_handle tl_content_acquire_async(tl_content *ctx, uint32_t id);
TL_API tl_content_handle tl_content_share(tl_content_handle handle);
TL_API tl_content_result tl_content_dispose(tl_content_handle handle);
TL_API bool tl_content_handle_valid(tl_content_handle handle);
TL_API tl_asset tl_content_handle_asset(tl_content_handle handle);

/* --- assets ----------------------------------------------------------------------------------------- */

TL_API bool tl_asset_valid(tl_asset asset); /* its slot is still the one it named */
TL_API tl_asset_status tl_asset_get_status(tl_asset asset);
/* Why a TL_ASSET_FAILED asset failed (TL_CONTENT_READ_FAILED, _CORRUPT, _DECODE_FAILED, ...);
   TL_CONTENT_OK while it is loading or ready; TL_CONTENT_STALE_ASSET for a stale or zero asset
   (a synchronous load that failed returns a zero asset: its reason is tl_content_last_result). */
TL_API tl_content_result tl_asset_result(tl_asset asset);
TL_API void *tl_asset_object(tl_asset asset); /* NULL unless ready */
TL_API size_t tl_asset_size(tl_asset asset);
TL_API uint32_t tl_asset_id(tl_asset asset);
TL_API const char *tl_asset_name(tl_asset asset);
TL_API uint32_t tl_asset_count(tl_asset asset); /* references to its slot */

/* --- diagnostics ------------------------------------------------------------------------------------ */

/* Fields grouped so that a file including this header pays few lines for them (issue 42's size
   limit): live_assets, slots in use (held, loading, or waiting for collect); held_assets, slots
   with a count above zero; queued, slots waiting in the release queue; loading, slots loading. */
typedef struct tl_content_stats {
    uint32_t live_assets, held_assets, queued, loading;
    uint32_t references, raw_handles; /* live references (scope keys plus raw handles); raw ones */
    uint32_t scopes, directories;     /* scopes including the root */
    uint64_t loads;                   /* completed decodes since creation */
    uint64_t releases;                /* slots released since creation */
} tl_content_stats;
TL_API tl_content_stats tl_content_get_stats(tl_content *ctx);
TL_API uint32_t tl_content_live_assets(tl_content *ctx);

typedef struct tl_content_ref {
    tl_scope scope;           /* the holder; invalid (zero) for a raw handle */
    tl_content_handle handle; /* the raw handle; zero for a scope key */
    uint32_t id;
    const char *name;
    uint32_t count; /* references to the slot */
    tl_asset_status status;
} tl_content_ref;
/* Every live reference (scope keys, scope by scope, then raw handles); returns how many there
   are, writes at most cap. */
TL_API size_t tl_content_snapshot(tl_content *ctx, tl_content_ref *out, size_t cap);
/* Ids of the assets loading now; returns how many, writes at most cap. */
TL_API size_t tl_content_loading(tl_content *ctx, uint32_t *ids, size_t cap);
/* The scope tree, one scope per line, indented two spaces per level:
   "Field [Level] 2 (peak 3) : Icons/sword, Levels/one". snprintf-like (see tl_scope_path). */
TL_API size_t tl_content_dump_tree(tl_content *ctx, char *buf, size_t cap);
/* The same, one info line per scope through the logger. */
TL_API void tl_content_log_tree(tl_content *ctx);

TL_API const char *tl_scope_kind_name(tl_scope_kind kind);

#ifdef __cplusplus
}
#endif
