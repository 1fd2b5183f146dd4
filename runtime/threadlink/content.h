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
/* ---- runtime/src/content/live_api.h ---- */
/* LIVE RELOAD (TL_CONTENT_LIVE, development builds): a profile served from its source tree, with
   hot reload of the assets a game holds. The live part reaches content only through the hooks
   table tl__content_live_hooks (see the implementation), which content calls at six points.

   WHAT
   ----
   tl_content_register_source registers a profile straight from its source tree, as it is on
   disk now: no `threadlink-gen pack`, nothing written. Names are resolved with exactly pack's
   rules (content_format.h shares them with the generator): each category's folder walked, names
   starting with '.' skipped, links followed only inside the root, special files skipped, names
   "stem" (extension dropped) or "path", and two files with one name (ASCII case-insensitively,
   or under Unicode normalisation: tl_text_name_key) refused, naming both paths. So a name that
   works in development works in the build. What it skips (a link out of the root, a broken
   link, a special file) is logged with pack's warning the first time a read of the tree meets
   it, at registration or after a change: once per entry, not at every read.

   Files are read beneath the root's descriptor, never by their path: openat2 with
   RESOLVE_BENEATH on Linux where the headers have it (and syscall() is declared), else one
   openat with O_NOFOLLOW per path component. A file or category folder swapped for a link out of
   the root, or for a FIFO or a device, is never read through, whenever the swap happens: the load
   or reload fails saying so, and a held asset keeps its object. A link inside the root is
   followed when it resolves beneath the root, as pack follows it: a relative target component by
   component (".." never above the root), an absolute one when its real path is in the root's.
   Source files are read with POSIX calls, not through tl_content_io.

   While the game runs, tl_content_update notices edits: inotify on Linux (one read() per update
   when nothing changed), elsewhere (or with watch = TL_CONTENT_WATCH_POLL) a stat poll spread
   over frames, `poll_budget` files and folders per update. A held asset whose file changed is
   reloaded in place: the kind's decoder runs on the new bytes (info->reload tells it so; false at
   a first load), the object is swapped, the kind's
   `reload` callback gets (old object, new object), then the old object is destroyed. Every
   tl_asset, raw handle and scope reference stays valid (same slot, same generation). A reload
   whose read or decoder fails keeps the old object and logs why. A deleted file leaves held
   assets as they are, and new loads of it fail saying it was deleted; an added file resolves at
   its first load (a name no directory answers is looked for in its folder); a renamed file
   is the old name deleted and the new one added. An update reads additions before it reloads:
   a decoder or reload callback that loads a file added just before (a sprite added, then the
   level that uses it saved) finds it; with the poll, a changed held file makes that update stat
   every folder of the tree, and read it again first when one changed (or changed within two
   seconds of the last read, where a file system's clock may not show an add). A tree that changes into one pack refuses (a
   duplicate name, say) is logged (once while the reason stays) and the previous names stay
   served. The root is the folder at its path, whichever it is now: one deleted and made again
   (an exporter that clears its output folder) is read from and watched; while no folder is
   there, held assets stay, loads fail saying the root went away (logged once), and each update
   looks for it with one stat.

   Flat builds too: a flat directory ("archive": "none") registered with tl_content_register_dir
   in a development build has its catalog.tlcat watched (inotify on the folder, one stat after
   an event in it; elsewhere one stat per update); when a `pack` rewrites it, the directory
   serves the new catalog (new names resolve) and the held assets whose bytes changed are
   reloaded in place, checked against their new records. A rebuild that drops a held asset, or
   is another profile, is logged and the previous catalog stays.

   Packed builds too: a packed directory registered in a development build has its archives.json
   watched the same way (an output folder removed and made again is followed, and so is a link
   to a build replaced by a link to another: ln -s; mv -T). pack writes every
   archive first and archives.json last, each renamed into place; when archives.json changed,
   the directory is mounted again from it and verified whole (every archive's size and XXH64, as
   with verify_xxh64). Verified, the new build is served: new names resolve, held assets whose
   bytes changed are reloaded in place (same slot and generation, the kind's reload callback,
   the old object kept when the decoder fails), held assets the new build drops stay as they are
   while held and new loads of them fail saying so (names it drops without a holder are
   unknown). A build that fails verification or is another profile is logged and the previous
   one stays served; it is looked at again once its folder changes (an archives.json copied
   before its archives is served when they are there). While an asset of the directory is loading, the new build waits for the
   next update.

   Ids: a name the generated catalog carries gets the catalog's id (through `catalog_id`, e.g. a
   wrapper of content_<profile>_find); a name it does not carry yet gets the id identity would
   give it (XXH32 of its key, the next seed on a collision) and loads by name.
   tl_content_source_report (and shutdown) lists what was loaded from source that the catalog
   does not carry yet: the assets that need a `generate` before they ship.

   INCLUDE
   -------
   Define TL_CONTENT_LIVE (for every file that includes content.h, e.g. -DTL_CONTENT_LIVE in a
   development build) to get this; content.h then includes this header. Without it (shipped
   builds) none of this code exists and content.h behaves exactly as documented there: packed or
   flat directories, verified, no file watching. The implementation needs POSIX with the XSI
   declarations (Linux, macOS, the BSDs): compile it with -std=gnu11, or define _XOPEN_SOURCE
   700 before the first include.
*/

#if defined(TL_CONTENT_LIVE)

#ifdef __cplusplus
extern "C" {
#endif

/* One category as threadlink.json declares it: its name and its folder under the source root
   ("" for the whole root). */
typedef struct tl_content_source_category {
    const char *name;
    const char *folder;
} tl_content_source_category;

typedef enum tl_content_watch {
    TL_CONTENT_WATCH_AUTO = 0, /* inotify where available (Linux), else the poll */
    TL_CONTENT_WATCH_POLL = 1  /* the budgeted stat poll (also on Linux: for tests) */
} tl_content_watch;

/* The profile's keys from threadlink.json (the generated catalog header's
   content_<profile>_source_desc() fills them as threadlink.json declares the profile: categories,
   names_path, flat and catalog_id); zero means the defaults:
     names        "stem" (false); true: "names": "path"
     flat         false; true for "archive": "none": paths Windows cannot hold are refused, as
                  pack refuses them in a flat build
     catalog_id   NULL: no name is taken to be in the catalog (ids from the names, as identity
                  issues them, and every loaded name is reported)
     watch        TL_CONTENT_WATCH_AUTO
     poll_budget  256 stat calls per tl_content_update at most
     poll_budget_us  250: and at most this many microseconds of them (a stat costs from under
                  a microsecond to tens of them, depending on the system) */
typedef struct tl_content_source_desc {
    const tl_content_source_category *categories; /* required, at least one */
    uint32_t category_count;
    bool names_path;
    bool flat;
    uint32_t (*catalog_id)(void *user, const char *name); /* the catalog's id, 0: none */
    void *catalog_user;
    tl_content_watch watch;
    uint32_t poll_budget;
    uint32_t poll_budget_us;
} tl_content_source_desc;

/* Registers `profile` served from `source_root`. Refused (logged, an invalid directory, nothing
   registered, the reason in tl_content_last_result) when the profile is registered already, the root or a category folder is missing,
   categories overlap, or the tree holds what pack refuses. */
TL_API tl_content_dir tl_content_register_source(tl_content *ctx, const char *profile,
                                                 const char *source_root,
                                                 const tl_content_source_desc *desc);
/* Logs each asset loaded from a source tree that the catalog does not carry (and a total);
   returns their number. Shutdown runs it too. */
TL_API uint32_t tl_content_source_report(tl_content *ctx);
/* Reloads done so far (objects swapped), for tests and tools. */
TL_API uint64_t tl_content_source_reloads(tl_content *ctx);

#ifdef __cplusplus
}
#endif
#endif /* TL_CONTENT_LIVE */
/* ---- runtime/src/content/impl.h ---- */
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
/* ---- runtime/src/content/io.h ---- */
/* --- logging ------------------------------------------------------------------------------------- */

/* Every line through the desc's logger, as a row of TL_CONTENT_LOG_ITEMS (log.h's table
   function); tl__content_log(ctx, item, ...) names the context whose logger it is (NULL:
   stderr). */
TL_LOG_TABLE_FN(tl__content_log_to, TL_CONTENT_LOG_ITEMS, TL_CONTENT_LOG_BASE, "Content")
static const tl_logger *tl__content_logger(const tl_content *ctx) {
    return ctx ? &ctx->logger : NULL;
}
#define tl__content_log(ctx, ...) tl__content_log_to(tl__content_logger(ctx), __VA_ARGS__)

/* Records a failure's result in the context (tl_content_last_result) and returns it. */
static tl_content_result tl__content_fail(tl_content *ctx, tl_content_result result) {
    if (ctx) ctx->last = result;
    return result;
}

TL_RESULT_MESSAGE_FN(tl_content_result_message, tl_content_result, TL_CONTENT_RESULTS)

tl_content_result tl_content_last_result(const tl_content *ctx) {
    return ctx ? ctx->last : TL_CONTENT_INVALID_ARGUMENT;
}

/* --- small helpers ------------------------------------------------------------------------------ */

static void *tl__content_zalloc(size_t bytes) {
    void *p = TL_MALLOC(bytes ? bytes : 1);
    if (p) memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* Grows *array (elements of `size` bytes) to hold at least `need`; new elements are zeroed. */
static bool tl__content_grow(void **array, uint32_t *cap, size_t size, uint32_t need) {
    uint32_t n;
    unsigned char *grown;
    if (need <= *cap) return true;
    if (need > 0x7FFFFFFFu) return false;
    n = *cap ? *cap : 8;
    while (n < need) n = n > 0x3FFFFFFFu ? need : n * 2;
    if ((uint64_t)n * size > (uint64_t)SIZE_MAX / 2) return false;
    grown = (unsigned char *)TL_MALLOC((size_t)n * size);
    if (!grown) return false;
    if (*cap) memcpy(grown, *array, (size_t)*cap * size);
    memset(grown + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    TL_FREE(*array);
    *array = grown;
    *cap = n;
    return true;
}

static char *tl__content_strdup(const char *s) {
    size_t n = strlen(s);
    char *d = (char *)TL_MALLOC(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static char *tl__content_join(const char *a, const char *b, const char *c) {
    size_t na = strlen(a), nb = strlen(b), nc = c ? strlen(c) : 0;
    char *d = (char *)TL_MALLOC(na + nb + nc + 2);
    if (!d) return NULL;
    memcpy(d, a, na);
    d[na] = '/';
    memcpy(d + na + 1, b, nb);
    if (nc) memcpy(d + na + 1 + nb, c, nc);
    d[na + 1 + nb + nc] = 0;
    return d;
}

/* XXH64 of the ASCII-lowercased name: the key of the name table. */
static uint64_t tl__content_name_hash(const char *name, size_t len) {
    unsigned char chunk[128];
    tl_hash64_state state;
    size_t i, k;
    if (len <= sizeof chunk) {
        for (i = 0; i < len; i++) chunk[i] = tl_text_fold((unsigned char)name[i]);
        return tl_hash64(chunk, len, 0);
    }
    tl_hash64_reset(&state, 0);
    for (i = 0; i < len; i += k) {
        size_t j;
        k = len - i < sizeof chunk ? len - i : sizeof chunk;
        for (j = 0; j < k; j++) chunk[j] = tl_text_fold((unsigned char)name[i + j]);
        tl_hash64_update(&state, chunk, k);
    }
    return tl_hash64_digest(&state);
}

/* A relative path inside the directory (flat asset paths): '/'-separated components, each a
   plain file name that every platform can hold (tl_cf_flat_file_name, as pack checks before it
   writes a flat build); no absolute path, no '..', no backslash. */
static bool tl__content_rel_path_ok(const char *s, size_t len) {
    size_t start = 0, i;
    if (len == 0 || len > 4096) return false;
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '/') {
            if (!tl_cf_flat_file_name(s + start, i - start)) return false;
            start = i + 1;
        }
    }
    return true;
}

/* --- codecs --------------------------------------------------------------------------------------- */

static const char *tl__content_codec_missing(uint32_t codec) {
    return codec == TL_CF_CODEC_LZ4
               ? "stores entries compressed with lz4, and this runtime was built without lz4 "
                 "(define TL_CONTENT_LZ4 and link liblz4)"
               : "stores entries compressed with zstd, and this runtime was built without zstd "
                 "(define TL_CONTENT_ZSTD and link libzstd)";
}

/* --- default I/O: stdio --------------------------------------------------------------------------- */

/* File positions past 2 GiB: fseek and ftell take a long, which has 32 bits on Windows (and on
   32-bit POSIX systems), so Windows uses _fseeki64/_ftelli64. Elsewhere a 32-bit long limits the
   default I/O to files under 2 GiB; larger ones fail to open (give tl_content_io callbacks). */
#if defined(_WIN32)
typedef __int64 tl__content_file_pos;
#define TL__CONTENT_FSEEK _fseeki64
#define TL__CONTENT_FTELL _ftelli64
#define TL__CONTENT_FILE_POS_MAX INT64_MAX
#else
typedef long tl__content_file_pos;
#define TL__CONTENT_FSEEK fseek
#define TL__CONTENT_FTELL ftell
#define TL__CONTENT_FILE_POS_MAX LONG_MAX
#endif

/* Reads go through pread on the stream's descriptor where the headers declare it (POSIX, not in
   strict ISO C modes on glibc or musl): one system call per read and no copy through stdio's
   buffer; the stream's own position is never used. Elsewhere (Windows) fseek + fread. */
#if defined(_WIN32)
#elif defined(__GLIBC__) \
    ? (defined(__USE_UNIX98) || defined(__USE_XOPEN2K8)) \
    : (defined(__APPLE__) || !defined(__STRICT_ANSI__) || defined(_XOPEN_SOURCE) || \
       defined(_GNU_SOURCE) || (defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L))
#define TL__CONTENT_POSIX_IO 1
#include <errno.h>
#include <unistd.h>
#endif
#if defined(TL__CONTENT_POSIX_IO) && !defined(TL_CONTENT_NO_PREAD)
#define TL__CONTENT_PREAD 1
#endif
#if defined(TL__CONTENT_POSIX_IO) && !defined(TL_CONTENT_NO_MMAP)
#define TL__CONTENT_MMAP 1
#include <sys/mman.h>
#include <sys/stat.h>
#endif

/* The default I/O opens only regular files, and opens them without blocking: a FIFO would block
   the open until a writer came (for ever), a device would be read for ever. POSIX: open with
   O_NONBLOCK, fstat, refuse what is not a regular file (logged, naming it), then read through a
   stream on that descriptor. Strict ISO C modes on POSIX systems, which declare no fdopen: the
   path is opened and checked the same way, then opened again by fopen (a swap in between is not
   caught there). */
#if defined(TL__CONTENT_POSIX_IO) || (!defined(_WIN32) && (defined(__unix__) || defined(__APPLE__)))
#define TL__CONTENT_CHECK_KIND 1
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef O_CLOEXEC
#define TL__CONTENT_O_CLOEXEC O_CLOEXEC
#else
#define TL__CONTENT_O_CLOEXEC 0
#endif

/* What a file that is not a regular one is, as a phrase ("a FIFO (named pipe)"). */
static const char *tl__content_kind_phrase(unsigned long mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
#ifdef S_ISSOCK
    if (S_ISSOCK(mode)) return "a socket";
#endif
    return "a special file";
}

/* A descriptor of the regular file at path (read only, not blocking), or -1: missing, or not a
   regular file (logged, and remembered for the caller's message). A socket cannot be opened at
   all (ENXIO): stat says what it is. */
static int tl__content_open_regular(tl_content *ctx, const char *path, struct stat *st) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | TL__CONTENT_O_CLOEXEC);
    if (fd < 0) {
        if (stat(path, st) != 0 || S_ISREG(st->st_mode)) return -1;
    } else if (fstat(fd, st) != 0 || S_ISREG(st->st_mode)) {
        return fd;
    } else {
        close(fd);
    }
    if (ctx) {
        ctx->open_refused = true;
        tl__content_log(ctx, TL_CONTENT_LOG_NOT_A_FILE, path,
                        tl__content_kind_phrase((unsigned long)st->st_mode));
    }
    return -1;
}
#endif

static void *tl__content_file_open(void *user, const char *path, uint64_t *size) {
    FILE *f;
    tl__content_file_pos n;
#ifdef TL__CONTENT_CHECK_KIND
    struct stat st;
    int fd = tl__content_open_regular((tl_content *)user, path, &st);
    if (fd < 0) return NULL;
#ifdef TL__CONTENT_POSIX_IO
    if ((uint64_t)st.st_size > (uint64_t)TL__CONTENT_FILE_POS_MAX || !(f = fdopen(fd, "rb"))) {
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
#else
    close(fd);
#endif
#else
    (void)user;
#endif
    if (!(f = fopen(path, "rb"))) return NULL;
    if (TL__CONTENT_FSEEK(f, 0, SEEK_END) != 0 || (n = TL__CONTENT_FTELL(f)) < 0) {
        fclose(f);
        return NULL;
    }
    *size = (uint64_t)n;
    return f;
}

static bool tl__content_file_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    FILE *f = (FILE *)file;
    (void)user;
    if (offset > (uint64_t)TL__CONTENT_FILE_POS_MAX) return false;
#ifdef TL__CONTENT_PREAD
    {
        unsigned char *at = (unsigned char *)dst;
        int fd = fileno(f);
        while (size > 0) {
            ssize_t n = pread(fd, at, size, (off_t)offset);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            at += n;
            size -= (size_t)n;
            offset += (uint64_t)n;
        }
        return true;
    }
#else
    if (TL__CONTENT_FSEEK(f, (tl__content_file_pos)offset, SEEK_SET) != 0) return false;
    return size == 0 || fread(dst, 1, size, f) == size;
#endif
}

static void tl__content_file_close(void *user, void *file) {
    (void)user;
    fclose((FILE *)file);
}

/* True when a reason (a *why) is running out of memory: a caller that words failures its own way
   keeps that one, so that the log says what to fix. */
static bool tl__content_out_of_memory(const char *why) {
    return why && strcmp(why, "out of memory") == 0;
}

/* Opens a file of a directory through the backend; NULL when it cannot, with *special true when
   it is there but not a regular file (refused by the default I/O, which logged it). */
static void *tl__content_open(tl_content *ctx, const char *path, uint64_t *size, bool *special) {
    void *f;
    ctx->open_refused = false;
    f = ctx->io.open(ctx->io.user, path, size);
    *special = !f && ctx->open_refused;
    return f;
}

#define TL__CONTENT_NOT_REGULAR "not a regular file"

/* Reads a whole (small) file: archives.json, catalog.tlcat. */
static unsigned char *tl__content_read_whole(tl_content *ctx, const char *path, uint64_t max,
                                             uint64_t *size, const char **why) {
    uint64_t n = 0;
    unsigned char *data;
    bool special;
    void *f = tl__content_open(ctx, path, &n, &special);
    if (!f) {
        *why = special ? TL__CONTENT_NOT_REGULAR : "missing or unreadable";
        return NULL;
    }
    if (n > max) {
        ctx->io.close(ctx->io.user, f);
        *why = "larger than this runtime accepts";
        return NULL;
    }
    data = (unsigned char *)TL_MALLOC((size_t)n + 1);
    if (!data || !ctx->io.read(ctx->io.user, f, 0, data, (size_t)n)) {
        ctx->io.close(ctx->io.user, f);
        *why = data ? "read error" : "out of memory";
        if (data) TL_FREE(data);
        return NULL;
    }
    ctx->io.close(ctx->io.user, f);
    data[n] = 0;
    *size = n;
    return data;
}
/* ---- runtime/src/content/directories.h ---- */
/* --- hash tables (mem.h inline dictionaries, rebuilt twice as large when 3/4 full) ------------ */

/* Makes room for `need` entries in the dictionary at *mem (capacity *capacity, entries of
 * key_size + value_size bytes): a table of at least `first` slots, doubled until `need` fills
 * at most 3/4 of it, with every entry moved over. False (the table as it was) when out of memory. */
static bool tl__content_dict_reserve(unsigned char **mem, uint32_t *capacity, uint32_t key_size,
                                     uint32_t value_size, uint32_t need, uint32_t first) {
    uint32_t n;
    tl_inline_dict old, grown;
    tl_inline_iter it;
    const void *key;
    void *value;
    void *block;
    if ((uint64_t)need * 4 <= (uint64_t)*capacity * 3) return true;
    n = *capacity ? *capacity * 2 : first;
    while ((uint64_t)need * 4 > (uint64_t)n * 3) n *= 2;
    block = tl__content_zalloc(TL_LAYOUT_DICT_BYTES(n, key_size, value_size));
    if (!block) return false;
    grown = tl_inline_dict_view(block, n, key_size, value_size);
    if (*capacity) {
        old = tl_inline_dict_view(*mem, *capacity, key_size, value_size);
        it = tl_inline_dict_iter(old);
        while (tl_inline_dict_next(old, &it, &key, &value))
            (void)tl_inline_dict_try_add(grown, key, value);
        TL_FREE(*mem);
    }
    *mem = grown.mem;
    *capacity = n;
    return true;
}

static bool tl__content_ids_reserve(tl_content *ctx, uint32_t need) {
    return tl__content_dict_reserve(&ctx->ids.mem, &ctx->ids.capacity, sizeof(uint32_t),
                                    sizeof(tl__content_entry_ptr), need, 64);
}

static bool tl__content_names_reserve(tl_content *ctx, uint32_t need) {
    return tl__content_dict_reserve(&ctx->names.mem, &ctx->names.capacity, sizeof(uint64_t),
                                    sizeof(tl__content_entry_ptr), need, 64);
}

static bool tl__content_held_reserve(tl__content_scope *s, uint32_t need) {
    return tl__content_dict_reserve(&s->held.mem, &s->held.capacity, sizeof(uint32_t),
                                    sizeof(tl__content_held), need, 8);
}

static uint32_t tl__content_held_count(const tl__content_scope *s) {
    return s->held.mem ? tl__content_heldmap_count(s->held) : 0;
}

/* The entry of an id among registered directories, or NULL. */
static tl__content_entry *tl__content_entry_of(const tl_content *ctx, uint32_t id) {
    tl__content_entry_ptr *e;
    if (!ctx->ids.mem) return NULL;
    e = tl__content_idmap_get(ctx->ids, id);
    return e ? *e : NULL;
}

static tl__content_entry *tl__content_entry_named(const tl_content *ctx, const char *name) {
    size_t len;
    tl__content_entry_ptr *e;
    if (!name || !ctx->names.mem) return NULL;
    len = strlen(name);
    e = tl__content_namemap_get(ctx->names, tl__content_name_hash(name, len));
    if (!e || tl_text_fold_compare((*e)->name, strlen((*e)->name), name, len) != 0) return NULL;
    return *e;
}

/* A lookup by name for a load: in development builds a name no directory answers may be a file
   added to a source tree since it was last read. */
static tl__content_entry *tl__content_entry_to_load(tl_content *ctx, const char *name) {
    tl__content_entry *e = tl__content_entry_named(ctx, name);
    if (!e && ctx->live) e = ctx->live->miss(ctx, name);
    return e;
}

/* Names of every live directory, in registration (index) order: the first registered answers. */
static uint32_t tl__content_add_names(tl_content *ctx, tl__content_dirrec *d) {
    uint32_t i, shadowed = 0;
    for (i = 0; i < d->entry_count; i++) {
        tl__content_entry *e = &d->entries[i];
        if (!tl__content_namemap_try_add(ctx->names,
                                         tl__content_name_hash(e->name, strlen(e->name)), e))
            shadowed++;
    }
    return shadowed;
}

/* `skip`: a directory being unregistered (still alive until freed), or TL__CONTENT_NONE. */
static void tl__content_rebuild_names(tl_content *ctx, uint32_t skip) {
    uint32_t i, total = 0;
    if (ctx->names.mem) tl__content_namemap_clear(ctx->names);
    for (i = 0; i < ctx->dir_len; i++)
        if (ctx->dirs[i].alive && i != skip) total += ctx->dirs[i].entry_count;
    if (!tl__content_names_reserve(ctx, total)) return; /* names stay unavailable; ids work */
    for (i = 0; i < ctx->dir_len; i++)
        if (ctx->dirs[i].alive && i != skip) tl__content_add_names(ctx, &ctx->dirs[i]);
}

/* --- directories ---------------------------------------------------------------------------------- */

/* Closes a packed directory's archives and unmaps the ones mapped whole. */
static void tl__content_archives_close(tl_content *ctx, tl__content_dirrec *d) {
    uint32_t i;
    for (i = 0; d->archives && i < d->archive_count; i++)
        if (d->archives[i]) ctx->io.close(ctx->io.user, d->archives[i]);
#ifdef TL__CONTENT_MMAP
    for (i = 0; d->archive_maps && i < d->archive_count; i++)
        if (d->archive_maps[i].base) munmap(d->archive_maps[i].base, d->archive_maps[i].len);
#endif
    TL_FREE(d->archives);
    TL_FREE(d->archive_maps);
    d->archives = NULL;
    d->archive_maps = NULL;
}

static void tl__content_dir_free(tl_content *ctx, tl__content_dirrec *d) {
    if (ctx->live && (d->source || d->flat)) ctx->live->free(ctx, d);
    tl__content_archives_close(ctx, d);
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    TL_FREE(d->path);
    d->entries = NULL;
    d->categories = NULL;
    d->catalog = NULL;
    d->path = NULL;
    d->alive = false;
}

/* The result a refused registration records, from its reason. */
static tl_content_result tl__content_dir_result(const char *why) {
    if (tl__content_out_of_memory(why)) return TL_CONTENT_OUT_OF_MEMORY;
    return why == tl__content_why_no_dir ? TL_CONTENT_DIR_MISSING : TL_CONTENT_DIR_REFUSED;
}

/* Fills entries and categories from a validated catalog. */
static bool tl__content_dir_from_catalog(tl__content_dirrec *d, const tl_cf_catalog *c) {
    uint32_t i, first, count;
    d->entries =
        (tl__content_entry *)tl__content_zalloc((size_t)c->asset_count * sizeof *d->entries);
    d->categories =
        (const char **)tl__content_zalloc((size_t)c->category_count * sizeof *d->categories);
    if (!d->entries || !d->categories) return false;
    d->entry_count = c->asset_count;
    d->category_count = c->category_count;
    d->profile = c->profile;
    for (i = 0; i < c->category_count; i++)
        tl_cf_catalog_category(c, i, &d->categories[i], &first, &count);
    for (i = 0; i < c->asset_count; i++) {
        tl_cf_catalog_asset a;
        tl__content_entry *e = &d->entries[i];
        tl_cf_catalog_asset_at(c, i, &a);
        e->id = a.id;
        e->category = a.category;
        e->name = a.name;
        e->path = a.path;
        e->size = a.size;
        e->xxh64 = a.xxh64;
        e->stored = e->size;
        e->codec = TL_CF_CODEC_RAW;
        e->archive = TL__CONTENT_NONE;
        e->slot = TL__CONTENT_NONE;
    }
    return true;
}

static bool tl__content_mount_flat(tl_content *ctx, tl__content_dirrec *d, const char **why) {
    char *path = tl__content_join(d->path, TL__CONTENT_FLAT_CATALOG, NULL);
    uint64_t size = 0;
    tl_cf_catalog c;
    uint32_t i;
    if (!path) {
        *why = "out of memory";
        return false;
    }
    d->catalog = tl__content_read_whole(ctx, path, TL_CONTENT_MAX_CATALOG_BYTES, &size, why);
    TL_FREE(path);
    if (!d->catalog) {
        if (strcmp(*why, TL__CONTENT_NOT_REGULAR) == 0)
            *why = "catalog.tlcat is not a regular file";
        else if (!tl__content_out_of_memory(*why)) *why = tl__content_why_no_dir;
        return false;
    }
    if (tl_cf_catalog_open(&c, d->catalog, (size_t)size, why) != TL_CF_OK) return false;
    if ((c.flags & (TL_CF_CATALOG_FLAG_FLAT_PATHS | TL_CF_CATALOG_FLAG_CONTENT_INFO)) !=
        (TL_CF_CATALOG_FLAG_FLAT_PATHS | TL_CF_CATALOG_FLAG_CONTENT_INFO)) {
        *why = "catalog.tlcat is not a flat build's catalog (no paths)";
        return false;
    }
    for (i = 0; i < c.asset_count; i++) {
        tl_cf_catalog_asset a;
        tl_cf_catalog_asset_at(&c, i, &a);
        if (!tl__content_rel_path_ok(a.path, a.path_len)) {
            *why =
                "catalog: an asset path leaves the directory, is not a plain relative path, or names a file Windows cannot hold";
            return false;
        }
        if (a.size > TL_CONTENT_MAX_ASSET_BYTES) {
            *why = "catalog: an asset is larger than this runtime accepts";
            return false;
        }
    }
    if (!tl__content_dir_from_catalog(d, &c)) {
        *why = "out of memory";
        return false;
    }
    return true;
}

/* Hashes a whole archive through the backend, 64 KiB at a time (false with *why). */
static bool tl__content_hash_file(tl_content *ctx, void *f, uint64_t size, uint64_t *out,
                                  const char **why) {
    size_t chunk = (size_t)64 << 10;
    unsigned char *buf = (unsigned char *)TL_MALLOC(chunk);
    tl_hash64_state state;
    uint64_t at = 0;
    *why = "out of memory";
    if (!buf) return false;
    *why = "cannot be read";
    tl_hash64_reset(&state, 0);
    while (at < size) {
        size_t n = size - at < chunk ? (size_t)(size - at) : chunk;
        if (!ctx->io.read(ctx->io.user, f, at, buf, n)) {
            TL_FREE(buf);
            return false;
        }
        tl_hash64_update(&state, buf, n);
        at += n;
    }
    TL_FREE(buf);
    *out = tl_hash64_digest(&state);
    return true;
}

static int tl__content_find_record(const tl__content_dirrec *d, uint32_t id) {
    uint32_t lo = 0, hi = d->entry_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->entries[mid].id == id) return (int)mid;
        if (d->entries[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* A packed directory being mounted: its index, each archive's table of contents (the data stays
   on disk), and the catalog archive's index and entry. */
typedef struct tl__content_packing {
    tl_cf_index index;
    tl_cf_archive *tables;
    uint32_t catalog_at;
    tl_cf_archive_entry catalog;
} tl__content_packing;

/* Opens archive i of the index through the backend (into d->archives[i], its size in *size):
   present, with the recorded size and, with verify, the recorded XXH64. */
static bool tl__content_archive_open(tl_content *ctx, tl__content_dirrec *d, uint32_t i,
                                     const tl_cf_index_archive *a, bool verify, uint64_t *size,
                                     const char **why) {
    char *path = tl__content_join(d->path, a->name, NULL);
    uint64_t hash = 0;
    bool special;
    *why = "out of memory";
    if (!path) return false;
    d->archives[i] = tl__content_open(ctx, path, size, &special);
    TL_FREE(path);
    *why = special ? "is not a regular file" : "is missing or unreadable";
    if (!d->archives[i]) return false;
    *why = "has a different size on disk than archives.json records";
    if (*size != a->size) return false;
    if (verify) {
        if (!tl__content_hash_file(ctx, d->archives[i], *size, &hash, why)) return false;
        *why = "XXH64 differs from archives.json";
        if (hash != a->xxh64) return false;
    }
    return true;
}

/* Reads an archive's header and table of contents into t and checks them: entries no larger
   than this runtime accepts, every codec built in. */
static bool tl__content_archive_toc(tl_content *ctx, void *f, uint64_t size, tl_cf_archive *t,
                                    const char **why) {
    unsigned char head[TL_CF_ARCHIVE_HEADER_SIZE], *toc;
    tl_cf_archive_entry e;
    uint32_t k;
    *why = "cannot be read";
    if (size >= TL_CF_ARCHIVE_HEADER_SIZE && !ctx->io.read(ctx->io.user, f, 0, head, sizeof head))
        return false;
    if (tl_cf_archive_read_header(head, size, &t->entry_count, why) != TL_CF_OK) return false;
    t->size = size;
    t->toc = toc = (unsigned char *)TL_MALLOC((size_t)t->entry_count * TL_CF_ARCHIVE_ENTRY_SIZE);
    *why = "out of memory";
    if (!toc) return false;
    *why = "cannot be read";
    if (!ctx->io.read(ctx->io.user, f, TL_CF_ARCHIVE_HEADER_SIZE, toc,
                      (size_t)t->entry_count * TL_CF_ARCHIVE_ENTRY_SIZE))
        return false;
    if (tl_cf_archive_check_toc(head, toc, t->entry_count, size,
                                TL_CONTENT_MAX_ASSET_BYTES < (uint64_t)SIZE_MAX / 2
                                    ? TL_CONTENT_MAX_ASSET_BYTES
                                    : (uint64_t)SIZE_MAX / 2,
                                why) != TL_CF_OK)
        return false;
    for (k = 0; k < t->entry_count; k++) {
        tl_cf_archive_entry_at(t, k, &e);
        if (!tl_cf_codec_built(e.codec)) {
            *why = tl__content_codec_missing(e.codec);
            return false;
        }
    }
    return true;
}

/* Archive i's role: the catalog archive holds exactly the catalog (entry id 0; remembered),
   the others no entry with that id. */
static bool tl__content_archive_role(tl__content_packing *pk, uint32_t i, const char **why) {
    tl_cf_archive_entry e;
    tl_cf_archive_entry_at(&pk->tables[i], 0, &e);
    if (pk->index.archives[i].is_catalog) {
        pk->catalog_at = i;
        pk->catalog = e;
        *why = "is the catalog archive but does not hold exactly the catalog";
        return pk->tables[i].entry_count == 1 && e.id == TL_CF_CATALOG_ENTRY_ID;
    }
    *why = "holds an entry with id 0 (reserved for the catalog)";
    return e.id != TL_CF_CATALOG_ENTRY_ID;
}

/* Every archive: present, the recorded size (and hash), a valid header and table, its role. */
static bool tl__content_mount_archives(tl_content *ctx, tl__content_dirrec *d,
                                       tl__content_packing *pk, bool verify, const char **why,
                                       const char **bad_archive) {
    uint32_t i;
    for (i = 0; i < pk->index.archive_count; i++) {
        uint64_t size = 0;
        *bad_archive = pk->index.archives[i].name;
        if (!tl__content_archive_open(ctx, d, i, &pk->index.archives[i], verify, &size, why) ||
            !tl__content_archive_toc(ctx, d->archives[i], size, &pk->tables[i], why) ||
            !tl__content_archive_role(pk, i, why))
            return false;
    }
    return true;
}

/* The catalog's bytes (into d->catalog), from the catalog archive: read, decoded, its XXH64
   the one its table of contents records. */
static bool tl__content_catalog_bytes(tl_content *ctx, tl__content_dirrec *d,
                                      const tl__content_packing *pk, const char **why) {
    const tl_cf_archive_entry *ce = &pk->catalog;
    unsigned char *stored;
    bool ok;
    *why = "the catalog is larger than this runtime accepts";
    if (ce->original_size > TL_CONTENT_MAX_CATALOG_BYTES) return false;
    stored = (unsigned char *)TL_MALLOC((size_t)ce->stored_size + 1);
    d->catalog = (unsigned char *)TL_MALLOC((size_t)ce->original_size + 1);
    *why = "out of memory";
    ok = stored && d->catalog;
    if (ok) {
        *why = "cannot be read";
        ok = ctx->io.read(ctx->io.user, d->archives[pk->catalog_at], ce->offset, stored,
                          (size_t)ce->stored_size);
    }
    if (ok) {
        *why = "the catalog does not decode";
        ok = tl_cf_decode(ce->codec, stored, ce->stored_size, d->catalog, ce->original_size);
    }
    if (ok) {
        *why = "the catalog's XXH64 differs from its table of contents";
        ok = tl_hash64(d->catalog, (size_t)ce->original_size, 0) == ce->xxh64;
    }
    TL_FREE(stored);
    return ok;
}

/* The catalog: a valid packed build's catalog of the index's profile; the directory's entries
   are made from it. */
static bool tl__content_mount_catalog(tl_content *ctx, tl__content_dirrec *d,
                                      const tl__content_packing *pk, const char **why) {
    tl_cf_catalog c;
    if (!tl__content_catalog_bytes(ctx, d, pk, why)) return false;
    if (tl_cf_catalog_open(&c, d->catalog, (size_t)pk->catalog.original_size, why) != TL_CF_OK)
        return false;
    *why = "the catalog is a flat build's catalog";
    if (c.flags & TL_CF_CATALOG_FLAG_FLAT_PATHS) return false;
    *why = "the catalog's profile differs from archives.json";
    if (strcmp(c.profile, pk->index.profile) != 0) return false;
    *why = "out of memory";
    return tl__content_dir_from_catalog(d, &c);
}

/* Every catalog asset stored in exactly one archive, every stored asset in the catalog: each
   entry gets its archive, codec, offset, sizes and XXH64 from the table that stores it. */
static bool tl__content_place_entries(tl__content_dirrec *d, const tl__content_packing *pk,
                                      const char **why, const char **bad_archive) {
    uint32_t i, k;
    for (i = 0; i < pk->index.archive_count; i++) {
        if (pk->index.archives[i].is_catalog) continue;
        *bad_archive = pk->index.archives[i].name;
        for (k = 0; k < pk->tables[i].entry_count; k++) {
            tl_cf_archive_entry e;
            int r;
            tl_cf_archive_entry_at(&pk->tables[i], k, &e);
            r = tl__content_find_record(d, e.id);
            *why = "stores an asset the catalog does not list";
            if (r < 0) return false;
            *why = "stores an asset another archive stores too";
            if (d->entries[r].archive != TL__CONTENT_NONE) return false;
            d->entries[r].archive = i;
            d->entries[r].codec = e.codec;
            d->entries[r].offset = e.offset;
            d->entries[r].stored = e.stored_size;
            d->entries[r].size = e.original_size;
            d->entries[r].xxh64 = e.xxh64;
        }
    }
    *bad_archive = pk->index.archives[pk->catalog_at].name;
    for (i = 0; i < d->entry_count; i++) {
        *why = "lists an asset that no archive stores";
        if (d->entries[i].archive == TL__CONTENT_NONE) return false;
    }
    return true;
}

/* The name of the archive to blame must outlive the index: it moves into the (failed)
   directory's path buffer, after the path. */
static void tl__content_keep_archive_name(tl__content_dirrec *d, const char **bad_archive) {
    size_t n = strlen(*bad_archive), p = strlen(d->path);
    char *both = (char *)TL_MALLOC(p + n + 2);
    if (both) {
        memcpy(both, d->path, p + 1);
        memcpy(both + p + 1, *bad_archive, n + 1);
        TL_FREE(d->path);
        d->path = both;
        *bad_archive = both + p + 1;
    } else {
        *bad_archive = "?";
    }
}

/* Mounts a packed directory from its archives.json (`text`): the archives, then the catalog
   they hold, then every asset placed in the archive that stores it. On failure *why says what
   is wrong and *bad_archive, when not NULL, names the archive it is wrong with. */
static bool tl__content_mount_packed(tl_content *ctx, tl__content_dirrec *d,
                                     const unsigned char *text, uint64_t len, bool verify,
                                     const char **why, const char **bad_archive) {
    tl__content_packing pk;
    uint32_t count, i;
    bool ok = false;
    memset(&pk, 0, sizeof pk);
    if (tl_cf_index_parse(&pk.index, (const char *)text, (size_t)len, why) != TL_CF_OK)
        return false;
    count = pk.index.archive_count;
    d->archives = (void **)tl__content_zalloc((size_t)count * sizeof(void *));
    pk.tables = (tl_cf_archive *)tl__content_zalloc((size_t)count * sizeof *pk.tables);
    *why = "out of memory";
    if (d->archives && pk.tables) {
        d->archive_count = count;
        ok = tl__content_mount_archives(ctx, d, &pk, verify, why, bad_archive);
        if (ok) {
            *bad_archive = pk.index.archives[pk.catalog_at].name;
            ok = tl__content_mount_catalog(ctx, d, &pk, why) &&
                 tl__content_place_entries(d, &pk, why, bad_archive);
        }
    }
    /* The index's names are freed below: a failure keeps the one it blames, a mounted directory
       blames none (tl__content_dir_add may still refuse it, for reasons of its own). */
    if (!ok && *bad_archive) tl__content_keep_archive_name(d, bad_archive);
    else *bad_archive = NULL;
    for (i = 0; pk.tables && i < count; i++) TL_FREE((void *)(uintptr_t)pk.tables[i].toc);
    TL_FREE(pk.tables);
    tl_cf_index_free(&pk.index);
    d->packed = true;
    return ok;
}

/* Installs a mounted directory (ok) or frees it, logging why not (with the archive `bad` when
   one is to blame): one profile once, ids unique across directories. */
static tl_content_dir tl__content_dir_add(tl_content *ctx, tl__content_dirrec *d, const char *path,
                                          bool ok, const char *why, const char *bad) {
    tl_content_dir none;
    uint32_t i, index, shadowed;
    memset(&none, 0, sizeof none);
    /* One profile once; ids unique across directories. */
    for (i = 0; ok && i < ctx->dir_len; i++)
        if (ctx->dirs[i].alive && strcmp(ctx->dirs[i].profile, d->profile) == 0) {
            ok = false;
            bad = NULL;
            why = "its profile is already registered";
        }
    for (i = 0; ok && i < d->entry_count; i++)
        if (tl__content_entry_of(ctx, d->entries[i].id)) {
            ok = false;
            bad = NULL;
            why = "an asset id of it is already registered by another directory";
        }
    if (ok &&
        (!tl__content_ids_reserve(ctx, tl__content_idmap_count(ctx->ids) + d->entry_count) ||
         !tl__content_names_reserve(
             ctx, (ctx->names.mem ? tl__content_namemap_count(ctx->names) : 0) + d->entry_count))) {
        ok = false;
        why = "out of memory";
    }
    index = ctx->dir_len;
    for (i = 0; i < ctx->dir_len; i++)
        if (!ctx->dirs[i].alive) {
            index = i;
            break;
        }
    if (ok && index == ctx->dir_len &&
        !tl__content_grow((void **)&ctx->dirs, &ctx->dir_cap, sizeof *ctx->dirs, index + 1)) {
        ok = false;
        why = "out of memory";
    }
    if (!ok) {
        if (bad) tl__content_log(ctx, TL_CONTENT_LOG_DIR_ARCHIVE, path, bad, why);
        else tl__content_log(ctx, TL_CONTENT_LOG_DIR_REFUSED, path, why ? why : "invalid");
        tl__content_dir_free(ctx, d);
        tl__content_fail(ctx, tl__content_dir_result(why));
        return none;
    }
    if (index == ctx->dir_len) ctx->dir_len++;
    d->gen = ctx->dirs[index].gen + 1;
    if (d->gen == 0) d->gen = 1;
    d->alive = true;
    for (i = 0; i < d->entry_count; i++) d->entries[i].dir = index;
    ctx->dirs[index] = *d;
    for (i = 0; i < d->entry_count; i++)
        tl__content_idmap_try_add(ctx->ids, d->entries[i].id, &ctx->dirs[index].entries[i]);
    /* A reused (lower) index would answer names before later directories: rebuild in order. */
    if (index + 1 < ctx->dir_len) {
        tl__content_rebuild_names(ctx, TL__CONTENT_NONE);
        shadowed = 0;
        for (i = 0; i < d->entry_count; i++)
            if (tl__content_entry_named(ctx, d->entries[i].name) != &ctx->dirs[index].entries[i])
                shadowed++;
    } else {
        shadowed = tl__content_add_names(ctx, &ctx->dirs[index]);
    }
    if (shadowed) tl__content_log(ctx, TL_CONTENT_LOG_NAME_SHADOWED, path, shadowed);
    ctx->last = TL_CONTENT_OK;
    none.ctx = ctx;
    none.index = index;
    none.gen = d->gen;
    return none;
}

tl_content_dir tl_content_register_dir_ex(tl_content *ctx, const char *path,
                                          const tl_content_dir_desc *desc) {
    tl_content_dir none;
    tl__content_dirrec d;
    const char *why = NULL, *bad = NULL;
    char *index_path;
    unsigned char *text;
    uint64_t len = 0;
    bool ok;
    memset(&none, 0, sizeof none);
    if (!ctx || !path || !path[0]) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_content_register_dir");
        tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_register_dir");
        tl__content_fail(ctx, TL_CONTENT_CALLBACK_REFUSED);
        return none;
    }
    memset(&d, 0, sizeof d);
    d.path = tl__content_strdup(path);
    index_path = d.path ? tl__content_join(path, TL__CONTENT_INDEX_FILE, NULL) : NULL;
    if (!index_path) {
        TL_FREE(d.path);
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "directory");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return none;
    }
    /* archives.json present: packed; otherwise a flat build's catalog.tlcat. */
    text = tl__content_read_whole(ctx, index_path, TL_CONTENT_MAX_INDEX_BYTES, &len, &why);
    TL_FREE(index_path);
    if (!text && strcmp(why, "missing or unreadable") != 0) {
        ok = false; /* an index that exists but cannot be used: never fall back to flat */
        if (strcmp(why, TL__CONTENT_NOT_REGULAR) == 0) why = "archives.json is not a regular file";
        else if (!tl__content_out_of_memory(why))
            why = "archives.json is too large or cannot be read";
    } else if (text) {
        ok = tl__content_mount_packed(
            ctx, &d, text, len, (desc && desc->verify_xxh64) || ctx->verify_xxh64, &why, &bad);
        TL_FREE(text);
    } else {
        ok = tl__content_mount_flat(ctx, &d, &why);
    }
    none = tl__content_dir_add(ctx, &d, path, ok, why, bad);
    if (none.ctx && ctx->live) ctx->live->watch_flat(ctx, none); /* served again after a pack */
    return none;
}

tl_content_dir tl_content_register_dir(tl_content *ctx, const char *path) {
    return tl_content_register_dir_ex(ctx, path, NULL);
}

static tl__content_dirrec *tl__content_dir_get(tl_content_dir dir) {
    tl__content_dirrec *d;
    if (!dir.ctx || dir.index >= dir.ctx->dir_len) return NULL;
    d = &dir.ctx->dirs[dir.index];
    return d->alive && d->gen == dir.gen ? d : NULL;
}

bool tl_content_dir_valid(tl_content_dir dir) { return tl__content_dir_get(dir) != NULL; }
const char *tl_content_dir_profile(tl_content_dir dir) {
    tl__content_dirrec *d = tl__content_dir_get(dir);
    return d ? d->profile : NULL;
}
uint32_t tl_content_dir_asset_count(tl_content_dir dir) {
    tl__content_dirrec *d = tl__content_dir_get(dir);
    return d ? d->entry_count : 0;
}
/* ---- runtime/src/content/slots.h ---- */
/* --- slots ------------------------------------------------------------------------------------------ */

static void tl__content_info(const tl_content *ctx, const tl__content_entry *e,
                             tl_content_info *info) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    info->id = e->id;
    info->name = e->name;
    info->category = d->categories[e->category];
    info->profile = d->profile;
    info->size = e->size;
    info->reload = false;
}

bool tl_content_dir_next_asset(tl_content_dir dir, uint32_t *cursor, tl_content_info *info) {
    tl__content_dirrec *d = tl__content_dir_get(dir);
    if (!d || !cursor || !info) return false;
    while (*cursor < d->entry_count) {
        const tl__content_entry *e = &d->entries[(*cursor)++];
        if (dir.ctx->live && dir.ctx->live->deleted(dir.ctx, e)) continue; /* loads no more */
        tl__content_info(dir.ctx, e, info);
        return true;
    }
    return false;
}

static uint32_t tl__content_kind_of(const tl_content *ctx, const tl__content_entry *e) {
    const char *category = ctx->dirs[e->dir].categories[e->category];
    uint32_t i, fallback = TL__CONTENT_NONE;
    for (i = 0; i < ctx->kind_len; i++) {
        if (!ctx->kinds[i].category) fallback = i;
        else if (strcmp(ctx->kinds[i].category, category) == 0) return i;
    }
    return fallback;
}

static void tl__content_queue(tl_content *ctx, uint32_t index, uint64_t eligible) {
    tl__content_slot *s = &ctx->slots[index];
    s->eligible = eligible;
    if (s->queued) return;
    if (!tl__content_grow((void **)&ctx->queue, &ctx->queue_cap, sizeof *ctx->queue,
                          ctx->queue_len + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "release queue");
        return; /* the slot stays loaded: a little peak memory, never a wrong release */
    }
    ctx->slots[index].queued = 1;
    ctx->queue[ctx->queue_len++] = index;
}

static void tl__content_decref(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    if (s->count == 0) return;
    if (--s->count == 0 && s->state != TL__SLOT_LOADING)
        tl__content_queue(ctx, index, ctx->frame + ctx->delay);
}

static uint32_t tl__content_slot_alloc(tl_content *ctx, tl__content_entry *e) {
    uint32_t index;
    tl__content_slot *s;
    if (ctx->slot_free != TL__CONTENT_NONE) {
        index = ctx->slot_free;
        ctx->slot_free = ctx->slots[index].next_free;
    } else {
        if (!tl__content_grow((void **)&ctx->slots, &ctx->slot_cap, sizeof *ctx->slots,
                              ctx->slot_len + 1))
            return TL__CONTENT_NONE;
        index = ctx->slot_len++;
        ctx->slots[index].gen = 1;
    }
    s = &ctx->slots[index];
    s->entry = e;
    s->object = NULL;
    s->map.base = NULL;
    s->size = 0;
    s->count = 0;
    s->state = TL__SLOT_LOADING;
    s->queued = s->pending = s->in_flight = s->decoding = 0;
    s->result = TL_CONTENT_OK;
    s->buffer = NULL;
    s->request = s->file = NULL;
    s->kind = tl__content_kind_of(ctx, e);
    e->slot = index;
    ctx->live_slots++;
    return index;
}
/* ---- runtime/src/content/loading.h ---- */
/* The result of a load whose bytes could not be had, from its reason. */
static tl_content_result tl__content_read_result(const char *why) {
    if (tl__content_out_of_memory(why)) return TL_CONTENT_OUT_OF_MEMORY;
    if (why == tl__content_why_size || why == tl__content_why_undecodable)
        return TL_CONTENT_CORRUPT;
    return TL_CONTENT_READ_FAILED;
}

/* Why a packed entry's bytes could not be read, naming its archive (by its place in
   archives.json) and, with the default I/O, whether it is shorter than the entry needs: cut since
   the directory was mounted (an interrupted copy, another tool), where packing or downloading it
   again is the cure. Valid until the next load. */
static const char *tl__content_archive_why(tl_content *ctx, const tl__content_entry *e) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    bool cut = false;
#ifdef TL__CONTENT_POSIX_IO
    struct stat st;
    if (ctx->io.open == tl__content_file_open && d->archives && d->archives[e->archive])
        cut = fstat(fileno((FILE *)d->archives[e->archive]), &st) == 0 &&
              (uint64_t)st.st_size < e->offset + e->stored;
#endif
    snprintf(ctx->why_text, sizeof ctx->why_text,
             cut ? "archive %u of archives.json in %s is shorter than when it was mounted (cut "
                   "since: pack or download it again)"
                 : "archive %u of archives.json in %s could not be read",
             (unsigned)e->archive, d->path);
    return ctx->why_text;
}

/* --- mapped entries ----------------------------------------------------------------------------- */

/* Maps entry `e` from its archive (private, writable: writes stay in this mapping) and returns
   its first byte; NULL when it is not mapped (another I/O backend, a flat or source directory,
   an entry under TL_CONTENT_MAP_MIN_BYTES, or mmap refusing): the caller reads it instead. */
static unsigned char *tl__content_map_entry(tl_content *ctx, const tl__content_entry *e,
                                            tl__content_map *map) {
#ifdef TL__CONTENT_MMAP
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    uint64_t skip = e->offset % ctx->page_size;
    struct stat st;
    void *base;
    int fd;
    if (ctx->io.open != tl__content_file_open || !d->packed ||
        e->stored < TL_CONTENT_MAP_MIN_BYTES || e->stored > (uint64_t)SIZE_MAX / 2 ||
        e->offset - skip > (uint64_t)TL__CONTENT_FILE_POS_MAX)
        return NULL;
    if (d->source) return NULL;
    fd = fileno((FILE *)d->archives[e->archive]);
    /* A page past the file's end raises SIGBUS when touched: an archive truncated since it was
       mounted is read instead, and the read fails. */
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < e->offset + e->stored) return NULL;
    base = mmap(NULL, (size_t)(skip + e->stored), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
                (off_t)(e->offset - skip));
    if (base == MAP_FAILED) return NULL;
    map->base = base;
    map->len = (size_t)(skip + e->stored);
#ifdef MADV_POPULATE_READ
    /* Every byte is read next (hashed or decoded): its pages mapped in one call instead of a
       fault every 16 pages, and the prefetches of tl__content_hash_memory find them mapped. */
    (void)madvise(base, map->len, MADV_POPULATE_READ);
#endif
    return (unsigned char *)base + skip;
#else
    (void)ctx, (void)e, (void)map;
    return NULL;
#endif
}

/* Archive `i` of `d` mapped whole and read-only (`st`: its file now), once: the mapping stays
   until the directory goes (tl__content_archives_close). NULL when it cannot be mapped. */
#ifdef TL__CONTENT_MMAP
static const tl__content_map *tl__content_archive_map(tl__content_dirrec *d, uint32_t i, int fd,
                                                      const struct stat *st) {
    tl__content_map *m;
    void *base;
    if (!d->archive_maps)
        d->archive_maps = (tl__content_map *)tl__content_zalloc((size_t)d->archive_count *
                                                                sizeof *d->archive_maps);
    if (!d->archive_maps) return NULL;
    m = &d->archive_maps[i];
    if (m->base) return m;
    if ((uint64_t)st->st_size > (uint64_t)SIZE_MAX / 2) return NULL;
    base = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return NULL;
    m->base = base;
    m->len = (size_t)st->st_size;
    return m;
}
#endif

/* The stored bytes of entry `e` (under `limit`) in its archive's mapping, or NULL (a larger entry,
   another I/O backend, a flat or source directory, Windows, TL_CONTENT_NO_MMAP, mmap refusing):
   the caller reads them. A compressed entry under TL__CONTENT_ARCHIVE_MAP_MAX is decoded from
   there: no read system call and no copy into the scratch buffer per load (mixed set of
   tests/bench/content_load, zstd: ~5 % of a load). A larger one is read first: decoders reading
   the page cache's pages in place stall at every page (4 KiB, scattered: the hardware prefetch
   stops there), large lz4 entries (1.6 MB stored) decoded 5-15 % slower so than read. A raw entry
   under TL_CONTENT_MAP_MIN_BYTES is copied from there, hashed on the way
   (tl__content_copy_from_archive). An archive truncated since it was mounted is read instead, and
   the load fails (fstat each time: a page past the file's end raises SIGBUS when touched). Only
   where pointers have 64 bits: an archive mapped whole stays mapped until its directory goes,
   address space the size of every archive touched, which a 32-bit process cannot spare for a
   game's gigabytes. */
#define TL__CONTENT_ARCHIVE_MAP_MAX ((uint64_t)64 * 1024)
static const unsigned char *tl__content_archive_bytes(tl_content *ctx, const tl__content_entry *e,
                                                      uint64_t limit) {
#ifdef TL__CONTENT_MMAP
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    const tl__content_map *m;
    struct stat st;
    int fd;
    if (sizeof(void *) < 8 || ctx->io.open != tl__content_file_open || !d->packed || d->source ||
        e->stored >= limit)
        return NULL;
    fd = fileno((FILE *)d->archives[e->archive]);
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < e->offset + e->stored) return NULL;
    m = tl__content_archive_map(d, e->archive, fd, &st);
    if (!m || e->offset + e->stored > (uint64_t)m->len) return NULL;
    return (const unsigned char *)m->base + e->offset;
#else
    (void)ctx, (void)e, (void)limit;
    return NULL;
#endif
}

static void tl__content_unmap(tl__content_map *map) {
#ifdef TL__CONTENT_MMAP
    if (map->base) munmap(map->base, map->len);
#endif
    map->base = NULL;
}

/* The XXH64 of bytes in memory, not in the CPU's caches (mapped pages, a large decoded buffer),
   copied to `copy` on the way when it is not NULL: each 512-byte block's lines are requested
   TL__CONTENT_HASH_AHEAD bytes before it is hashed, so that the loads of memory overlap the
   hashing instead of following it, and a block copied is copied from the L1 cache just after it
   is hashed. XXH64 alone reads memory at half the speed a copy does; 108 MB not in any cache,
   here: 22.8 ms plain, 16.4 with a page's lines requested a page ahead at once (the previous
   scheme), 11.8 with 8 lines every block. */
#define TL__CONTENT_HASH_BLOCK ((size_t)512)
#define TL__CONTENT_HASH_AHEAD ((size_t)4096)
static uint64_t tl__content_hash_memory(const unsigned char *bytes, size_t size,
                                        unsigned char *copy) {
    tl_hash64_state state;
    size_t at;
    if (size <= TL__CONTENT_HASH_AHEAD) {
        if (copy) memcpy(copy, bytes, size);
        return tl_hash64(bytes, size, 0);
    }
    tl_hash64_reset(&state, 0);
    for (at = 0; at + TL__CONTENT_HASH_BLOCK <= size; at += TL__CONTENT_HASH_BLOCK) {
#if defined(__GNUC__) || defined(__clang__)
        size_t line, ahead = at + TL__CONTENT_HASH_AHEAD;
        for (line = ahead; line < ahead + TL__CONTENT_HASH_BLOCK && line < size; line += 64)
            __builtin_prefetch(bytes + line);
#endif
        tl_hash64_update(&state, bytes + at, TL__CONTENT_HASH_BLOCK);
        if (copy) memcpy(copy + at, bytes + at, TL__CONTENT_HASH_BLOCK);
    }
    tl_hash64_update(&state, bytes + at, size - at);
    if (copy) memcpy(copy + at, bytes + at, size - at);
    return tl_hash64_digest(&state);
}

/* Maps the pages of a large new buffer in one call before it is written (Linux), instead of a
   page fault for each: the faults of 24 x 4 MiB took 28 ms here, populated 14 ms. Memory a large
   malloc returns is fresh pages; for memory already mapped the call only walks its pages. */
#define TL__CONTENT_PREFAULT_MIN ((size_t)256 * 1024)
static void tl__content_prefault(const tl_content *ctx, unsigned char *bytes, size_t size) {
#if defined(TL__CONTENT_MMAP) && defined(MADV_POPULATE_WRITE)
    uintptr_t first = ((uintptr_t)bytes + ctx->page_size - 1) & ~(uintptr_t)(ctx->page_size - 1);
    uintptr_t end = ((uintptr_t)bytes + size) & ~(uintptr_t)(ctx->page_size - 1);
    if (size >= TL__CONTENT_PREFAULT_MIN && end > first)
        (void)madvise((void *)first, end - first, MADV_POPULATE_WRITE);
#else
    (void)ctx, (void)bytes, (void)size;
#endif
}

/* Frees bytes the runtime holds: unmapped when `map` has their mapping, freed otherwise. */
static void tl__content_free_bytes(void *bytes, tl__content_map *map) {
    if (map && map->base) tl__content_unmap(map);
    else TL_FREE(bytes);
}

/* Frees the slot (its generation moves on) and then destroys its object: the slot is already
   gone when the destroy callback runs, so the callback may load anything, that asset too. */
static void tl__content_slot_release(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    tl__content_entry *e = s->entry;
    void *object = s->object;
    tl__content_map map = s->map;
    uint32_t kind = s->kind;
    bool ready = s->state == TL__SLOT_READY;
    tl_content_info info;
    if (s->buffer) TL_FREE(s->buffer);
    if (s->file) ctx->io.close(ctx->io.user, s->file);
    if (e) e->slot = TL__CONTENT_NONE;
    s->entry = NULL;
    s->object = NULL;
    s->map.base = NULL;
    s->buffer = NULL;
    s->file = s->request = NULL;
    s->count = 0;
    s->state = TL__SLOT_FREE;
    s->queued = s->pending = s->in_flight = 0;
    if (++s->gen == 0) s->gen = 1;
    s->next_free = ctx->slot_free;
    ctx->slot_free = index;
    ctx->live_slots--;
    ctx->stat_releases++;
    if (!ready) return;
    if (kind == TL__CONTENT_NONE) {
        tl__content_free_bytes(object, &map);
    } else if (ctx->kinds[kind].destroy) {
        tl__content_info(ctx, e, &info);
        ctx->in_callback++;
        ctx->kinds[kind].destroy(ctx->kinds[kind].user, &info, object);
        ctx->in_callback--;
    }
}

/* Reads `size` bytes at `offset` in chunks that fit the L2 cache, hashing each chunk (XXH64) right
   after it is read, while its bytes are still in the cache: a second pass over a large asset
   would fetch it all from memory again. */
#define TL__CONTENT_READ_CHUNK ((size_t)128 * 1024)
static bool tl__content_read_hashing(tl_content *ctx, void *file, uint64_t offset,
                                     unsigned char *dst, size_t size, uint64_t *hash) {
    tl_hash64_state state;
    size_t at = 0;
    if (size <= TL__CONTENT_READ_CHUNK) {
        if (!ctx->io.read(ctx->io.user, file, offset, dst, size)) return false;
        *hash = tl_hash64(dst, size, 0);
        return true;
    }
    tl_hash64_reset(&state, 0);
    while (at < size) {
        size_t n = size - at < TL__CONTENT_READ_CHUNK ? size - at : TL__CONTENT_READ_CHUNK;
        if (!ctx->io.read(ctx->io.user, file, offset + at, dst + at, n)) return false;
        tl_hash64_update(&state, dst + at, n);
        at += n;
    }
    *hash = tl_hash64_digest(&state);
    return true;
}

/* Decompresses an entry's stored bytes into `bytes` (e->size of them). zstd entries share the
   context's decompression context: ZSTD_decompress would allocate and free one (~100 KB) per
   call, which costs more than decoding a small asset. */
static bool tl__content_decode_entry(tl_content *ctx, const tl__content_entry *e,
                                     const unsigned char *stored, unsigned char *bytes) {
#ifdef TL_CONTENT_ZSTD
    if (e->codec == TL_CF_CODEC_ZSTD) {
        size_t got;
        /* One frame whose declared content size is the original size exactly (as tl_cf_decode). */
        if (ZSTD_getFrameContentSize(stored, (size_t)e->stored) != (unsigned long long)e->size)
            return false;
        got = ZSTD_findFrameCompressedSize(stored, (size_t)e->stored);
        if (ZSTD_isError(got) || got != e->stored) return false;
        if (!ctx->zstd_dctx && !(ctx->zstd_dctx = ZSTD_createDCtx())) return false;
        got = ZSTD_decompressDCtx((ZSTD_DCtx *)ctx->zstd_dctx, bytes, (size_t)e->size, stored,
                                  (size_t)e->stored);
        return !ZSTD_isError(got) && got == e->size;
    }
#endif
    (void)ctx;
    return tl_cf_decode(e->codec, stored, e->stored, bytes, e->size);
}

/* A raw entry stored in under TL_CONTENT_MAP_MIN_BYTES copied into buf from its archive mapped
   whole, its XXH64 computed on the way into *hash (NULL: not wanted); false when it is not mapped
   (the caller reads it). No read system call per load, and the bytes come from memory once: the
   3,707 entries under 128 KiB of tests/bench/content_load's mixed set (35 MB, not in any cache),
   11.5 ms against 14.3 read with pread in 128 KiB chunks and hashed from the L2 cache. */
static bool tl__content_copy_from_archive(tl_content *ctx, const tl__content_entry *e,
                                          unsigned char *buf, uint64_t *hash) {
    const unsigned char *mapped = e->codec == TL_CF_CODEC_RAW
                                      ? tl__content_archive_bytes(ctx, e, TL_CONTENT_MAP_MIN_BYTES)
                                      : NULL;
    if (!mapped) return false;
    if (hash) *hash = tl__content_hash_memory(mapped, (size_t)e->stored, buf);
    else memcpy(buf, mapped, (size_t)e->stored);
    return true;
}

/* Reads an entry's stored bytes into buf (e->stored of them): a packed entry from its open archive
   (a raw one hashed as it is read, then *hashed is true), a flat one from its own file, checked
   against the catalog's size. */
static bool tl__content_read_into(tl_content *ctx, const tl__content_entry *e, unsigned char *buf,
                                  const char **why, uint64_t *hash, bool *hashed) {
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    char *path;
    uint64_t size = 0;
    void *f;
    bool ok, special = false;
    if (d->packed) {
        *hashed = e->codec == TL_CF_CODEC_RAW && !ctx->trust_bytes;
        if (tl__content_copy_from_archive(ctx, e, buf, *hashed ? hash : NULL)) return true;
        if (*hashed ? tl__content_read_hashing(ctx, d->archives[e->archive], e->offset, buf,
                                               (size_t)e->stored, hash)
                    : ctx->io.read(ctx->io.user, d->archives[e->archive], e->offset, buf,
                                   (size_t)e->stored))
            return true;
        *why = tl__content_archive_why(ctx, e);
        return false;
    }
    path = tl__content_join(d->path, e->path, NULL);
    f = path ? tl__content_open(ctx, path, &size, &special) : NULL;
    *why = !path     ? "out of memory"
           : special ? "its file is " TL__CONTENT_NOT_REGULAR
                     : "file missing or unreadable";
    TL_FREE(path);
    if (!f) return false;
    ok = size == e->stored && ctx->io.read(ctx->io.user, f, 0, buf, (size_t)e->stored);
    ctx->io.close(ctx->io.user, f);
    if (!ok) *why = size != e->stored ? tl__content_why_size : "read error";
    return ok;
}

/* Reads an entry's stored bytes synchronously into a new buffer. */
static unsigned char *tl__content_read_stored(tl_content *ctx, const tl__content_entry *e,
                                              const char **why, uint64_t *hash, bool *hashed) {
    unsigned char *buf;
    if (ctx->dirs[e->dir].source)
        return ctx->live->read(ctx, (tl__content_entry *)(uintptr_t)e, why, hash, hashed);
    buf = (unsigned char *)TL_MALLOC((size_t)e->stored + 1);
    if (!buf) {
        *why = "out of memory";
        return NULL;
    }
    if (tl__content_read_into(ctx, e, buf, why, hash, hashed)) return buf;
    TL_FREE(buf);
    return NULL;
}

/* Decodes a compressed entry's stored bytes into a new buffer of e->size bytes (and one more);
   NULL with *why when out of memory or when they do not decode. */
static unsigned char *tl__content_decode_new(tl_content *ctx, const tl__content_entry *e,
                                             const unsigned char *stored, const char **why) {
    unsigned char *bytes = (unsigned char *)TL_MALLOC((size_t)e->size + 1);
    if (!bytes) {
        *why = "out of memory";
        return NULL;
    }
    tl__content_prefault(ctx, bytes, (size_t)e->size);
    if (tl__content_decode_entry(ctx, e, stored, bytes)) return bytes;
    TL_FREE(bytes);
    *why = tl__content_why_undecodable;
    return NULL;
}

/* The context's buffer for the stored bytes of a compressed entry while a synchronous load
   decodes them: one allocation reused by every load instead of one per load, grown by doubling.
   Past TL_CONTENT_SCRATCH_KEEP_BYTES it is freed after its load, so that a context does not hold
   its largest entry's room for ever. */
#define TL__CONTENT_SCRATCH_KEEP ((size_t)TL_CONTENT_SCRATCH_KEEP_BYTES)
#define TL__CONTENT_SCRATCH_MIN \
    (TL__CONTENT_SCRATCH_KEEP < (size_t)65536 ? TL__CONTENT_SCRATCH_KEEP : (size_t)65536)
static unsigned char *tl__content_scratch(tl_content *ctx, uint64_t stored) {
    size_t need = (size_t)stored + 1, n;
    if (need <= ctx->scratch_cap) return ctx->scratch;
    n = need < ctx->scratch_cap * 2 && ctx->scratch_cap * 2 <= TL__CONTENT_SCRATCH_KEEP
            ? ctx->scratch_cap * 2
            : need;
    n = n < TL__CONTENT_SCRATCH_MIN ? TL__CONTENT_SCRATCH_MIN : n;
    TL_FREE(ctx->scratch);
    ctx->scratch = (unsigned char *)TL_MALLOC(n);
    ctx->scratch_cap = ctx->scratch ? n : 0;
    return ctx->scratch;
}

static void tl__content_scratch_trim(tl_content *ctx) {
    if (ctx->scratch_cap <= TL__CONTENT_SCRATCH_KEEP) return;
    TL_FREE(ctx->scratch);
    ctx->scratch = NULL;
    ctx->scratch_cap = 0;
}

/* True when a synchronous load of `e` reads its stored bytes into the scratch buffer: a
   compressed entry (raw ones are read into the buffer the asset keeps), not from a source tree. */
static bool tl__content_decodes_from_scratch(const tl_content *ctx, const tl__content_entry *e) {
    if (ctx->dirs[e->dir].source) return false;
    (void)ctx;
    return e->codec != TL_CF_CODEC_RAW;
}

/* A compressed entry decoded into a new buffer from its archive's mapping, or else read into the
   scratch buffer and decoded from there (NULL with *why). */
static unsigned char *tl__content_read_decoded(tl_content *ctx, const tl__content_entry *e,
                                               const char **why) {
    const unsigned char *mapped = tl__content_archive_bytes(ctx, e, TL__CONTENT_ARCHIVE_MAP_MAX);
    unsigned char *stored, *bytes = NULL;
    uint64_t hash = 0;
    bool hashed = false;
    if (mapped) return tl__content_decode_new(ctx, e, mapped, why);
    stored = tl__content_scratch(ctx, e->stored);
    if (!stored) *why = "out of memory";
    else if (tl__content_read_into(ctx, e, stored, why, &hash, &hashed))
        bytes = tl__content_decode_new(ctx, e, stored, why);
    tl__content_scratch_trim(ctx);
    return bytes;
}

/* Completes a load from its stored bytes (NULL: the read failed with `why`): decompress, check
   the XXH64, decode. The slot is READY or FAILED afterwards; with no references left it is
   queued, so the next collect releases it. Takes ownership of `stored`. */
static void tl__content_finish_hashed(tl_content *ctx, uint32_t index, unsigned char *stored,
                                      const char *why, const uint64_t *hash);
static void tl__content_finish(tl_content *ctx, uint32_t index, unsigned char *stored,
                               const char *why) {
    tl__content_finish_hashed(ctx, index, stored, why, NULL);
}

/* Completes a load from its decoded bytes (NULL: the read or the decompression failed with
   `why`): check the XXH64 (`hash`: already computed, NULL: not yet), decode. Takes ownership of
   `bytes`. */
static void tl__content_finish_bytes(tl_content *ctx, uint32_t index, unsigned char *bytes,
                                     const char *why, const uint64_t *hash, tl__content_map *map) {
    tl__content_slot *s = &ctx->slots[index];
    tl__content_entry *e = s->entry;
    void *object = NULL;
    uint32_t kind = s->kind;
    tl_content_result result = bytes ? TL_CONTENT_OK : tl__content_read_result(why);
    if (bytes && !ctx->trust_bytes &&
        (hash ? *hash : tl__content_hash_memory(bytes, (size_t)e->size, NULL)) != e->xxh64) {
        tl__content_free_bytes(bytes, map);
        bytes = NULL;
        why = "XXH64 differs from the directory's record (corrupt content)";
        result = TL_CONTENT_CORRUPT;
    }
    if (bytes) {
        if (kind == TL__CONTENT_NONE) {
            object = bytes;
            if (map) s->map = *map;
        } else {
            tl_content_info info;
            tl__content_info(ctx, e, &info);
            s->decoding = 1;
            ctx->in_callback++;
            object = ctx->kinds[kind].decode(ctx->kinds[kind].user, &info, bytes, (size_t)e->size);
            ctx->in_callback--;
            s = &ctx->slots[index]; /* the callback may have grown the slot table */
            s->decoding = 0;
            tl__content_free_bytes(bytes, map);
            if (!object) {
                why = "the decoder refused it";
                result = TL_CONTENT_DECODE_FAILED;
            }
        }
    }
    s->in_flight = 0;
    s->request = NULL;
    if (object) {
        s->object = object;
        s->size = e->size;
        s->state = TL__SLOT_READY;
        ctx->stat_loads++;
    } else {
        s->state = TL__SLOT_FAILED;
        s->result = (uint8_t)result;
        tl__content_log(ctx, TL_CONTENT_LOG_LOAD_FAILED, e->name, why ? why : "unknown error");
    }
    if (s->count == 0) tl__content_queue(ctx, index, ctx->frame);
}

/* tl__content_finish with the XXH64 of the decoded bytes already computed (NULL: not yet). */
static void tl__content_finish_hashed(tl_content *ctx, uint32_t index, unsigned char *stored,
                                      const char *why, const uint64_t *hash) {
    const tl__content_entry *e = ctx->slots[index].entry;
    unsigned char *bytes = stored;
    if (stored && e->codec != TL_CF_CODEC_RAW) {
        bytes = tl__content_decode_new(ctx, e, stored, &why);
        TL_FREE(stored);
    }
    tl__content_finish_bytes(ctx, index, bytes, why, hash, NULL);
}

/* Completes a load from the entry's mapping: a raw entry is checked there and kept in it (or
   handed to its decoder from it); a compressed one is decoded from it into a new buffer. */
static void tl__content_finish_mapped(tl_content *ctx, uint32_t index, unsigned char *stored,
                                      tl__content_map *map) {
    const tl__content_entry *e = ctx->slots[index].entry;
    const char *why = NULL;
    unsigned char *bytes;
    uint64_t hash;
    if (e->codec == TL_CF_CODEC_RAW) {
        hash = ctx->trust_bytes ? 0 : tl__content_hash_memory(stored, (size_t)e->stored, NULL);
        tl__content_finish_bytes(ctx, index, stored, NULL, &hash, map);
        return;
    }
    bytes = tl__content_decode_new(ctx, e, stored, &why);
    tl__content_unmap(map);
    tl__content_finish_bytes(ctx, index, bytes, why, NULL, NULL);
}

/* Completes a loading slot now: its read in flight is polled to the end, or it is read. */
static void tl__content_load_now(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    const char *why = NULL;
    unsigned char *stored;
    uint64_t hash = 0;
    bool hashed = false;
    tl__content_map map;
    if (s->in_flight) {
        int r;
        while ((r = ctx->io.read_poll(ctx->io.user, s->request)) == TL_CONTENT_IO_PENDING) {}
        s = &ctx->slots[index];
        stored = s->buffer;
        s->buffer = NULL;
        if (s->file) ctx->io.close(ctx->io.user, s->file);
        s->file = NULL;
        if (r != TL_CONTENT_IO_DONE) {
            TL_FREE(stored);
            stored = NULL;
            why = ctx->dirs[s->entry->dir].packed ? tl__content_archive_why(ctx, s->entry)
                                                  : "read error";
        }
    } else if ((stored = tl__content_map_entry(ctx, s->entry, &map)) != NULL) {
        tl__content_finish_mapped(ctx, index, stored, &map);
        return;
    } else if (tl__content_decodes_from_scratch(ctx, s->entry)) {
        unsigned char *bytes = tl__content_read_decoded(ctx, s->entry, &why);
        tl__content_finish_bytes(ctx, index, bytes, why, NULL, NULL);
        return;
    } else {
        stored = tl__content_read_stored(ctx, s->entry, &why, &hash, &hashed);
    }
    tl__content_finish_hashed(ctx, index, stored, why, hashed ? &hash : NULL);
}

/* Starts an asynchronous read through the backend; false when it could not start (the slot is
   then FAILED). */
static void tl__content_begin(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    const tl__content_entry *e = s->entry;
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    void *file;
    uint64_t offset = 0, size = 0;
    const char *why = "read error";
    if (d->source) { /* a source file's size is known when it is opened: read it now */
        tl__content_load_now(ctx, index);
        return;
    }
    s->buffer = (unsigned char *)TL_MALLOC((size_t)e->stored + 1);
    if (!s->buffer) {
        tl__content_finish(ctx, index, NULL, "out of memory");
        return;
    }
    if (d->packed) {
        file = d->archives[e->archive];
        offset = e->offset;
    } else {
        char *path = tl__content_join(d->path, e->path, NULL);
        bool special = false;
        file = path ? tl__content_open(ctx, path, &size, &special) : NULL;
        why = !path     ? "out of memory"
              : special ? "its file is " TL__CONTENT_NOT_REGULAR
                        : "file missing or unreadable";
        TL_FREE(path);
        if (file && size != e->stored) {
            ctx->io.close(ctx->io.user, file);
            file = NULL;
            why = tl__content_why_size;
        }
        s->file = file;
    }
    s->request =
        file ? ctx->io.read_begin(ctx->io.user, file, offset, s->buffer, (size_t)e->stored) : NULL;
    if (s->request) {
        s->in_flight = 1;
        return;
    }
    TL_FREE(s->buffer);
    s->buffer = NULL;
    if (s->file) ctx->io.close(ctx->io.user, s->file);
    s->file = NULL;
    tl__content_finish(ctx, index, NULL, why);
}

static bool tl__content_push_load(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    if (s->pending) return true;
    if (!tl__content_grow((void **)&ctx->loads, &ctx->load_cap, sizeof *ctx->loads,
                          ctx->load_len + 1))
        return false;
    s->pending = 1;
    ctx->loads[ctx->load_len].slot = index;
    ctx->loads[ctx->load_len].gen = s->gen;
    ctx->load_len++;
    return true;
}

/* Logs a load of `e` that failed before it started and records why (TL__CONTENT_NONE). */
static uint32_t tl__content_refuse_load(tl_content *ctx, const tl__content_entry *e,
                                        tl_content_result result, const char *why) {
    tl__content_log(ctx, TL_CONTENT_LOG_LOAD_FAILED, e->name, why);
    tl__content_fail(ctx, result);
    return TL__CONTENT_NONE;
}

/* One more reference to the entry's slot, loading it when needed. A synchronous load that fails
   returns TL__CONTENT_NONE and holds nothing (tl_content_last_result says why). */
static uint32_t tl__content_acquire_entry(tl_content *ctx, tl__content_entry *e, bool async) {
    uint32_t index = e->slot;
    tl__content_slot *s;
    bool start = false;
    if (ctx->shutting_down) {
        /* A destroy callback run by shutdown: a slot made now could sit where the release loop
           has passed, and its object would never be destroyed. */
        return tl__content_refuse_load(ctx, e, TL_CONTENT_SHUTTING_DOWN,
                                       "the context is shutting down");
    }
    if (ctx->live) {
        const char *deleted = ctx->live->deleted(ctx, e);
        if (deleted && (index == TL__CONTENT_NONE || ctx->slots[index].state == TL__SLOT_FAILED))
            return tl__content_refuse_load(ctx, e, TL_CONTENT_GONE, deleted);
    }
    if (index == TL__CONTENT_NONE) {
        index = tl__content_slot_alloc(ctx, e);
        if (index == TL__CONTENT_NONE) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "slots");
            tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
            return TL__CONTENT_NONE;
        }
        start = true;
    }
    s = &ctx->slots[index];
    if (s->state == TL__SLOT_FAILED) {
        s->state = TL__SLOT_LOADING; /* a retry */
        s->result = TL_CONTENT_OK;
        start = true;
    }
    if (s->state == TL__SLOT_LOADING && s->decoding)
        return tl__content_refuse_load(ctx, e, TL_CONTENT_LOAD_CYCLE,
                                       "its decoder loads the asset itself");
    s->count++;
    if (s->state != TL__SLOT_LOADING) return index;
    if (async) {
        if (start && !tl__content_push_load(ctx, index)) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "load queue");
            tl__content_finish(ctx, index, NULL, "out of memory");
        }
        return index;
    }
    tl__content_load_now(ctx, index);
    s = &ctx->slots[index];
    if (s->state == TL__SLOT_READY) return index;
    tl__content_fail(ctx, (tl_content_result)s->result);
    tl__content_decref(ctx, index);
    return TL__CONTENT_NONE;
}
/* ---- runtime/src/content/context.h ---- */
/* --- context ---------------------------------------------------------------------------------------- */

static uint32_t tl__content_scope_alloc(tl_content *ctx) {
    uint32_t index;
    if (ctx->scope_free != TL__CONTENT_NONE) {
        index = ctx->scope_free;
        ctx->scope_free = ctx->scopes[index].next_free;
    } else {
        if (!tl__content_grow((void **)&ctx->scopes, &ctx->scope_cap, sizeof *ctx->scopes,
                              ctx->scope_len + 1))
            return TL__CONTENT_NONE;
        index = ctx->scope_len++;
        ctx->scopes[index].gen = 1;
    }
    ctx->live_scopes++;
    return index;
}

/* The desc's I/O backend, or files through stdio when it lacks open, read or close. */
static void tl__content_set_io(tl_content *ctx, const tl_content_io *io) {
    ctx->io = *io;
    if (!ctx->io.open || !ctx->io.read || !ctx->io.close) {
        ctx->io.user = ctx; /* its refusals are logged */
        ctx->io.open = tl__content_file_open;
        ctx->io.read = tl__content_file_read;
        ctx->io.close = tl__content_file_close;
        ctx->io.read_begin = NULL;
        ctx->io.read_poll = NULL;
    }
    if (!ctx->io.read_begin || !ctx->io.read_poll) {
        ctx->io.read_begin = NULL;
        ctx->io.read_poll = NULL;
    }
}

tl_content *tl_content_create(const tl_content_desc *desc) {
    tl_content_desc zero;
    tl_content *ctx;
    tl__content_scope *root;
    if (!desc) {
        memset(&zero, 0, sizeof zero);
        desc = &zero;
    }
    ctx = (tl_content *)tl__content_zalloc(sizeof *ctx);
    if (!ctx) {
        tl__content_log_to(&desc->logger, TL_CONTENT_LOG_OUT_OF_MEMORY, "the content context");
        return NULL;
    }
    ctx->logger = desc->logger;
    tl__content_set_io(ctx, &desc->io);
    ctx->delay = desc->release_delay_frames < 0    ? 0
                 : desc->release_delay_frames == 0 ? 1
                                                   : (uint64_t)desc->release_delay_frames;
    ctx->auto_collect = !desc->manual_collect;
    ctx->warn_threshold = desc->warn_threshold;
    ctx->capture_origin = desc->capture_origin;
    ctx->verify_xxh64 = desc->verify_xxh64;
    ctx->trust_bytes = desc->trust_asset_bytes;
    ctx->max_loads = desc->max_loads_per_frame ? desc->max_loads_per_frame : 8;
    ctx->page_size = 4096;
#ifdef TL_CONTENT_LIVE
    ctx->live = tl__content_live_hooks_table(); /* the live part's seam (development builds) */
#endif
#ifdef TL__CONTENT_MMAP
    if (sysconf(_SC_PAGESIZE) > 0) ctx->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
#endif
    ctx->scope_free = ctx->slot_free = ctx->ref_free = TL__CONTENT_NONE;
    if (tl__content_scope_alloc(ctx) != 0 || !(ctx->scopes[0].name = tl__content_strdup("Root"))) {
        TL_FREE(ctx->scopes);
        TL_FREE(ctx);
        tl__content_log_to(&desc->logger, TL_CONTENT_LOG_OUT_OF_MEMORY, "the content context");
        return NULL;
    }
    root = &ctx->scopes[0];
    root->parent = TL__CONTENT_NONE;
    root->kind = TL_SCOPE_ROOT;
    root->alive = 1;
    return ctx;
}

/* Whether the kinds have one for `category` (NULL: the fallback kind). */
static bool tl__content_kind_exists(const tl_content *ctx, const char *category) {
    uint32_t i;
    for (i = 0; i < ctx->kind_len; i++)
        if ((!category && !ctx->kinds[i].category) ||
            (category && ctx->kinds[i].category && strcmp(category, ctx->kinds[i].category) == 0))
            return true;
    return false;
}

tl_content_result tl_content_register_kind(tl_content *ctx, const tl_content_kind_desc *kind) {
    tl__content_kind *k;
    if (!ctx || !kind || !kind->decode) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_content_register_kind");
        return tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
    }
    if (tl__content_kind_exists(ctx, kind->category)) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_content_register_kind (that category has a kind)");
        return tl__content_fail(ctx, TL_CONTENT_KIND_EXISTS);
    }
    if (!tl__content_grow((void **)&ctx->kinds, &ctx->kind_cap, sizeof *ctx->kinds,
                          ctx->kind_len + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "kinds");
        return tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
    }
    k = &ctx->kinds[ctx->kind_len];
    k->category = kind->category ? tl__content_strdup(kind->category) : NULL;
    if (kind->category && !k->category) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "kinds");
        return tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
    }
    k->decode = kind->decode;
    k->destroy = kind->destroy;
    k->user = kind->user;
    k->reload = kind->reload;
    ctx->kind_len++;
    return TL_CONTENT_OK;
}

uint32_t tl_content_find(tl_content *ctx, const char *name) {
    tl__content_entry *e = ctx && name ? tl__content_entry_to_load(ctx, name) : NULL;
    return e ? e->id : 0;
}

bool tl_content_contains(tl_content *ctx, uint32_t id) {
    return ctx && tl__content_entry_of(ctx, id) != NULL;
}

uint64_t tl_content_frame(const tl_content *ctx) { return ctx ? ctx->frame : 0; }
void tl_content_set_auto_collect(tl_content *ctx, bool on) {
    if (ctx) ctx->auto_collect = on;
}

/* --- collect and the frame ---------------------------------------------------------------------------- */

void tl_content_collect(tl_content *ctx) {
    uint32_t n, i, w = 0;
    if (!ctx) return;
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_collect");
        return;
    }
    if (ctx->queue_len == 0) return;
    n = ctx->queue_len;
    for (i = 0; i < n; i++) {
        uint32_t index = ctx->queue[i];
        tl__content_slot *s = &ctx->slots[index];
        if (i + 8 < n) TL__MEM_PREFETCH(&ctx->slots[ctx->queue[i + 8]], 1);
        if (!s->queued) continue;
        if (s->count > 0 || s->state == TL__SLOT_LOADING) {
            s->queued = 0; /* acquired again (stays), or loading (its completion queues it) */
            continue;
        }
        if (s->eligible > ctx->frame) {
            ctx->queue[w++] = index;
            continue;
        }
        s->queued = 0;
        tl__content_slot_release(ctx, index); /* destroy callbacks may queue more: kept below */
    }
    for (i = n; i < ctx->queue_len; i++) ctx->queue[w++] = ctx->queue[i];
    ctx->queue_len = w;
}

void tl_content_update(tl_content *ctx) {
    uint32_t n, i, w = 0, started = 0;
    if (!ctx) return;
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_update");
        return;
    }
    if (ctx->live) ctx->live->update(ctx);
    n = ctx->load_len;
    for (i = 0; i < n; i++) {
        tl__content_loadreq req = ctx->loads[i];
        tl__content_slot *s = &ctx->slots[req.slot];
        if (s->gen != req.gen) continue; /* released (forced unregister) */
        if (s->state != TL__SLOT_LOADING) {
            s->pending = 0; /* completed synchronously meanwhile */
            continue;
        }
        if (s->in_flight) {
            int r = ctx->io.read_poll(ctx->io.user, s->request);
            unsigned char *stored;
            const char *why = NULL;
            if (r == TL_CONTENT_IO_PENDING) {
                ctx->loads[w++] = req;
                continue;
            }
            s->pending = 0;
            stored = s->buffer;
            s->buffer = NULL;
            if (s->file) ctx->io.close(ctx->io.user, s->file);
            s->file = NULL;
            if (r != TL_CONTENT_IO_DONE) {
                TL_FREE(stored);
                stored = NULL;
                why = ctx->dirs[s->entry->dir].packed ? tl__content_archive_why(ctx, s->entry)
                                                      : "read error";
            }
            tl__content_finish(ctx, req.slot, stored, why);
            continue;
        }
        if (started >= ctx->max_loads) {
            ctx->loads[w++] = req;
            continue;
        }
        started++;
        if (ctx->io.read_begin) {
            tl__content_begin(ctx, req.slot);
            if (ctx->slots[req.slot].in_flight) {
                ctx->loads[w++] = req;
                continue;
            }
        } else {
            s->pending = 0;
            tl__content_load_now(ctx, req.slot);
        }
        ctx->slots[req.slot].pending = 0;
    }
    for (i = n; i < ctx->load_len; i++) ctx->loads[w++] = ctx->loads[i];
    ctx->load_len = w;
    if (ctx->auto_collect) tl_content_collect(ctx);
    ctx->frame++;
}
/* ---- runtime/src/content/scopes.h ---- */
/* --- scopes ---------------------------------------------------------------------------------------------- */

static tl__content_scope *tl__content_scope_get(tl_scope scope, const char *what) {
    tl__content_scope *s;
    if (!scope.ctx) {
        tl__content_log(NULL, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        return NULL;
    }
    if (scope.index >= scope.ctx->scope_len || !(s = &scope.ctx->scopes[scope.index])->alive ||
        s->gen != scope.gen) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_STALE_SCOPE, what);
        tl__content_fail(scope.ctx, TL_CONTENT_STALE_SCOPE);
        return NULL;
    }
    return s;
}

/* The result of a call whose scope tl__content_scope_get refused. */
static tl_content_result tl__content_scope_refused(tl_scope scope) {
    return scope.ctx ? TL_CONTENT_STALE_SCOPE : TL_CONTENT_INVALID_ARGUMENT;
}

/* Drops references whose slot a forced unregister released. */
static void tl__content_purge(tl_content *ctx, tl__content_scope *s) {
    tl_inline_iter it;
    uint32_t key;
    tl__content_held *value;
    s->epoch = ctx->epoch;
    if (!s->held.mem) return;
    it = tl__content_heldmap_iter(s->held);
    while (tl__content_heldmap_next(s->held, &it, &key, &value))
        if (ctx->slots[value->slot].gen != value->gen)
            tl__content_heldmap_iter_remove(s->held, &it);
}

static tl__content_scope *tl__content_scope_live(tl_scope scope, const char *what) {
    tl__content_scope *s = tl__content_scope_get(scope, what);
    if (s && s->epoch != scope.ctx->epoch) tl__content_purge(scope.ctx, s);
    return s;
}

static uint32_t tl__content_threshold(const tl_content *ctx, const tl__content_scope *s) {
    uint32_t t = s->threshold ? s->threshold : ctx->warn_threshold;
    return t == TL_SCOPE_NO_THRESHOLD ? 0 : t;
}

/* Writes the path of a scope ("Root/Field/Popup") into a new string. */
static char *tl__content_path_alloc(const tl_content *ctx, uint32_t index) {
    size_t len = 0, at;
    uint32_t i;
    char *out;
    for (i = index; i != TL__CONTENT_NONE; i = ctx->scopes[i].parent)
        len += strlen(ctx->scopes[i].name) + 1;
    out = (char *)TL_MALLOC(len + 1);
    if (!out) return NULL;
    at = len ? len - 1 : 0; /* each name is followed by '/' or, the last, the NUL */
    out[at] = 0;
    for (i = index; i != TL__CONTENT_NONE; i = ctx->scopes[i].parent) {
        size_t n = strlen(ctx->scopes[i].name);
        at -= n;
        memcpy(out + at, ctx->scopes[i].name, n);
        if (at) out[--at] = '/';
    }
    return out;
}

static void tl__content_after_add(tl_content *ctx, uint32_t scope_index) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    uint32_t count = tl__content_held_count(s), t = tl__content_threshold(ctx, s);
    if (count > s->peak) s->peak = count;
    if (t && count > t && !s->warned) {
        char *path = tl__content_path_alloc(ctx, scope_index);
        s->warned = 1;
        tl__content_log(ctx, TL_CONTENT_LOG_SCOPE_THRESHOLD, path ? path : s->name, count, t);
        TL_FREE(path);
    }
}

static void tl__content_after_remove(tl_content *ctx, tl__content_scope *s) {
    uint32_t t = tl__content_threshold(ctx, s);
    if (!t || tl__content_held_count(s) <= t) s->warned = 0;
}

/* Adds (id -> slot) to a scope that does not hold id yet; the caller has taken the count. */
static bool tl__content_scope_add(tl_content *ctx, uint32_t scope_index, uint32_t id,
                                  uint32_t slot) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    tl__content_held h;
    if (!tl__content_held_reserve(s, tl__content_held_count(s) + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return false;
    }
    h.slot = slot;
    h.gen = ctx->slots[slot].gen;
    tl__content_heldmap_try_add(s->held, id, h);
    tl__content_after_add(ctx, scope_index);
    return true;
}

tl_scope tl_content_root(tl_content *ctx) {
    tl_scope root;
    memset(&root, 0, sizeof root);
    if (ctx && !ctx->shutting_down) {
        root.ctx = ctx;
        root.index = 0;
        root.gen = ctx->scopes[0].gen;
    }
    return root;
}

tl_scope tl_scope_create_at(tl_scope parent, const char *name, tl_scope_kind kind, const char *file,
                            int line) {
    tl_scope out;
    tl_content *ctx = parent.ctx;
    tl__content_scope *p = tl__content_scope_get(parent, "tl_scope_create");
    tl__content_scope *s;
    uint32_t index, pi = parent.index;
    memset(&out, 0, sizeof out);
    if (!p) return out;
    if (kind == TL_SCOPE_ROOT || (unsigned)kind > (unsigned)TL_SCOPE_OWNED) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_scope_create (kind)");
        tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
        return out;
    }
    if (!tl__content_grow((void **)&p->children, &p->child_cap, sizeof *p->children,
                          p->child_count + 1) ||
        (index = tl__content_scope_alloc(ctx)) == TL__CONTENT_NONE) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return out;
    }
    s = &ctx->scopes[index];
    s->name = tl__content_strdup(name && name[0] ? name : "Scope");
    if (!s->name) {
        s->next_free = ctx->scope_free;
        ctx->scope_free = index;
        ctx->live_scopes--;
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return out;
    }
    p = &ctx->scopes[pi];
    s->held.mem = NULL;
    s->held.capacity = 0;
    s->file = ctx->capture_origin ? file : NULL;
    s->line = ctx->capture_origin ? line : 0;
    s->children = NULL;
    s->child_count = s->child_cap = 0;
    s->parent = pi;
    s->child_pos = p->child_count;
    s->peak = s->threshold = 0;
    s->epoch = ctx->epoch;
    s->kind = (uint8_t)kind;
    s->alive = 1;
    s->warned = 0;
    p->children[p->child_count++] = index;
    ctx->last = TL_CONTENT_OK;
    out.ctx = ctx;
    out.index = index;
    out.gen = s->gen;
    return out;
}

tl_scope tl_scope_create(tl_scope parent, const char *name, tl_scope_kind kind) {
    return tl_scope_create_at(parent, name, kind, NULL, 0);
}

/* An explicit scope reclaimed by a level or by shutdown (the root) was forgotten; one ending with
   its explicit parent or an owner (entity, screen, owned) has had its normal lifetime. */
static bool tl__content_leaked(const tl_content *ctx, const tl__content_scope *s) {
    uint8_t parent;
    if (s->kind != TL_SCOPE_EXPLICIT || s->parent == TL__CONTENT_NONE) return false;
    parent = ctx->scopes[s->parent].kind;
    return parent == TL_SCOPE_LEVEL || parent == TL_SCOPE_ROOT;
}

static void tl__content_warn_leak(tl_content *ctx, uint32_t index) {
    const tl__content_scope *s = &ctx->scopes[index];
    char *path = tl__content_path_alloc(ctx, index);
    char *parent = s->parent ? tl__content_path_alloc(ctx, s->parent) : NULL;
    char origin[300], by[300];
    origin[0] = 0;
    if (s->file) snprintf(origin, sizeof origin, " (created at %s:%d)", s->file, s->line);
    if (s->parent)
        snprintf(by, sizeof by, "level scope %s", parent ? parent : ctx->scopes[s->parent].name);
    else snprintf(by, sizeof by, "shutdown");
    tl__content_log(ctx, TL_CONTENT_LOG_SCOPE_LEAKED, path ? path : s->name, by, origin);
    TL_FREE(path);
    TL_FREE(parent);
}

/* Ends one scope without children: warns when reclaimed, releases what it holds, unlinks it. */
static void tl__content_scope_end(tl_content *ctx, uint32_t index, bool reclaimed) {
    tl__content_scope *s = &ctx->scopes[index];
    tl_inline_iter it;
    uint32_t key;
    tl__content_held *value;
    if (reclaimed && tl__content_leaked(ctx, s)) tl__content_warn_leak(ctx, index);
    s->alive = 0;
    if (s->held.mem) {
        /* The slots are gathered first and visited with a prefetch a few ahead: a large scope's
           slots lie all over the table, and their cache misses would otherwise add up. */
        uint32_t n = tl__content_heldmap_count(s->held), k = 0, i;
        tl__content_held *list =
            n > 64 ? (tl__content_held *)TL_MALLOC((size_t)n * sizeof *list) : NULL;
        it = tl__content_heldmap_iter(s->held);
        while (tl__content_heldmap_next(s->held, &it, &key, &value)) {
            if (list) {
                list[k++] = *value;
            } else if (ctx->slots[value->slot].gen == value->gen) {
                tl__content_decref(ctx, value->slot);
            }
        }
        for (i = 0; i < k; i++) {
            if (i + 8 < k) TL__MEM_PREFETCH(&ctx->slots[list[i + 8].slot], 1);
            if (ctx->slots[list[i].slot].gen == list[i].gen) tl__content_decref(ctx, list[i].slot);
        }
        TL_FREE(list);
        TL_FREE(s->held.mem);
    }
    s->held.mem = NULL;
    s->held.capacity = 0;
    if (s->parent != TL__CONTENT_NONE) {
        tl__content_scope *p = &ctx->scopes[s->parent];
        uint32_t last = p->children[--p->child_count];
        if (last != index) {
            p->children[s->child_pos] = last;
            ctx->scopes[last].child_pos = s->child_pos;
        }
    }
    TL_FREE(s->children);
    TL_FREE(s->name);
    s->children = NULL;
    s->name = NULL;
    if (++s->gen == 0) s->gen = 1;
    s->next_free = ctx->scope_free;
    ctx->scope_free = index;
    ctx->live_scopes--;
}

/* Ends a scope and its subtree, children first, the last child first; no recursion. */
static void tl__content_dispose_tree(tl_content *ctx, uint32_t top) {
    uint32_t cur = top;
    for (;;) {
        tl__content_scope *s = &ctx->scopes[cur];
        uint32_t parent;
        if (s->child_count > 0) {
            cur = s->children[s->child_count - 1];
            continue;
        }
        parent = s->parent;
        tl__content_scope_end(ctx, cur, cur != top);
        if (cur == top) break;
        cur = parent;
    }
}

tl_content_result tl_scope_dispose(tl_scope scope) {
    if (!tl__content_scope_get(scope, "tl_scope_dispose")) return tl__content_scope_refused(scope);
    if (scope.index == 0) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_ROOT_DISPOSE);
        return tl__content_fail(scope.ctx, TL_CONTENT_ROOT_DISPOSE);
    }
    tl__content_dispose_tree(scope.ctx, scope.index);
    return TL_CONTENT_OK;
}

bool tl_scope_valid(tl_scope scope) {
    return scope.ctx && scope.index < scope.ctx->scope_len &&
           scope.ctx->scopes[scope.index].alive && scope.ctx->scopes[scope.index].gen == scope.gen;
}

/* The asset of a slot a maker returns: the call succeeded (tl_content_last_result). */
static tl_asset tl__content_asset(tl_content *ctx, uint32_t slot) {
    tl_asset a;
    ctx->last = TL_CONTENT_OK;
    a.ctx = ctx;
    a.slot = slot;
    a.gen = ctx->slots[slot].gen;
    return a;
}

/* The slot of a key the scope holds already (the same asset: the scope does not grow), loading
   it now for a synchronous load; TL__CONTENT_NONE when it does not hold the key, or held one that
   failed (that reference is given back, to load again). */
static uint32_t tl__content_held_slot(tl_content *ctx, uint32_t scope_index, uint32_t id,
                                      bool async) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    tl__content_held *h = s->held.mem ? tl__content_heldmap_get(s->held, id) : NULL;
    uint32_t slot;
    if (!h) return TL__CONTENT_NONE;
    slot = h->slot;
    if (ctx->slots[slot].gen != h->gen) {
        /* Killed by a forced unregister whose destroy callbacks are running (scopes drop such
           keys lazily): the slot may hold another asset by now. */
        tl__content_heldmap_remove(s->held, id);
        return TL__CONTENT_NONE;
    }
    if (ctx->slots[slot].state == TL__SLOT_LOADING && !async && !ctx->slots[slot].decoding)
        tl__content_load_now(ctx, slot);
    if (ctx->slots[slot].state == TL__SLOT_READY ||
        (ctx->slots[slot].state == TL__SLOT_LOADING && async))
        return slot;
    tl__content_heldmap_remove(ctx->scopes[scope_index].held, id);
    tl__content_decref(ctx, slot);
    return TL__CONTENT_NONE;
}

static tl_asset tl__content_scope_load(tl_scope scope, tl__content_entry *e, uint32_t id,
                                       bool async, const char *what) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_live(scope, what);
    tl_asset none;
    uint32_t slot;
    memset(&none, 0, sizeof none);
    if (!s) return none;
    slot = tl__content_held_slot(ctx, scope.index, id, async);
    if (slot != TL__CONTENT_NONE) return tl__content_asset(ctx, slot);
    if (!e) e = tl__content_entry_of(ctx, id);
    if (!e) {
        char text[16];
        snprintf(text, sizeof text, "%u", (unsigned)id);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, text);
        tl__content_fail(ctx, TL_CONTENT_UNKNOWN_ASSET);
        return none;
    }
    if (!tl__content_held_reserve(&ctx->scopes[scope.index],
                                  tl__content_held_count(&ctx->scopes[scope.index]) + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return none;
    }
    slot = tl__content_acquire_entry(ctx, e, async);
    if (slot == TL__CONTENT_NONE) return none;
    /* A decoder may have loaded into this scope meanwhile, or ended it. */
    if (!tl_scope_valid(scope)) {
        tl__content_decref(ctx, slot);
        tl__content_log(ctx, TL_CONTENT_LOG_STALE_SCOPE, what);
        tl__content_fail(ctx, TL_CONTENT_STALE_SCOPE);
        return none;
    }
    s = &ctx->scopes[scope.index];
    if (tl__content_heldmap_get(s->held, id)) {
        tl__content_decref(ctx, slot);
        return tl__content_asset(ctx, slot);
    }
    if (!tl__content_scope_add(ctx, scope.index, id, slot)) {
        tl__content_decref(ctx, slot);
        return none;
    }
    return tl__content_asset(ctx, slot);
}

tl_asset tl_scope_load(tl_scope scope, uint32_t id) {
    return tl__content_scope_load(scope, NULL, id, false, "tl_scope_load");
}
tl_asset tl_scope_load_async(tl_scope scope, uint32_t id) {
    return tl__content_scope_load(scope, NULL, id, true, "tl_scope_load_async");
}

static tl_asset tl__content_scope_load_name(tl_scope scope, const char *name, bool async,
                                            const char *what) {
    tl__content_entry *e;
    tl_asset none;
    memset(&none, 0, sizeof none);
    if (!scope.ctx || !name) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        tl__content_fail(scope.ctx, TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    e = tl__content_entry_to_load(scope.ctx, name);
    if (!e) {
        if (tl__content_scope_get(scope, what)) {
            tl__content_log(scope.ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, name);
            tl__content_fail(scope.ctx, TL_CONTENT_UNKNOWN_ASSET);
        }
        return none;
    }
    return tl__content_scope_load(scope, e, e->id, async, what);
}

tl_asset tl_scope_load_name(tl_scope scope, const char *name) {
    return tl__content_scope_load_name(scope, name, false, "tl_scope_load_name");
}
tl_asset tl_scope_load_name_async(tl_scope scope, const char *name) {
    return tl__content_scope_load_name(scope, name, true, "tl_scope_load_name_async");
}

bool tl_scope_contains(tl_scope scope, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_contains");
    return s && s->held.mem && tl__content_heldmap_get(s->held, id) != NULL;
}

/* Logs that the scope does not hold `id` (a failure of `what`) and records it. */
static tl_content_result tl__content_not_held(tl_scope scope, uint32_t id, const char *what) {
    char *path = tl__content_path_alloc(scope.ctx, scope.index);
    tl__content_log(scope.ctx, TL_CONTENT_LOG_NOT_HELD, what,
                    path ? path : scope.ctx->scopes[scope.index].name, (unsigned)id);
    TL_FREE(path);
    return tl__content_fail(scope.ctx, TL_CONTENT_NOT_HELD);
}

tl_content_result tl_scope_release(tl_scope scope, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_release");
    tl__content_held h;
    if (!s) return tl__content_scope_refused(scope);
    if (!s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h))
        return tl__content_not_held(scope, id, "tl_scope_release");
    tl__content_heldmap_remove(s->held, id);
    tl__content_after_remove(scope.ctx, s);
    tl__content_decref(scope.ctx, h.slot);
    return TL_CONTENT_OK;
}

/* Gives the scope its own reference to a live slot (no growth when it holds the id). */
static tl_content_result tl__content_hold_slot(tl_content *ctx, uint32_t scope_index,
                                               uint32_t slot) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    uint32_t id = ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) return TL_CONTENT_OK;
    ctx->slots[slot].count++;
    if (!tl__content_scope_add(ctx, scope_index, id, slot)) {
        tl__content_decref(ctx, slot);
        return TL_CONTENT_OUT_OF_MEMORY;
    }
    return TL_CONTENT_OK;
}

tl_content_result tl_scope_share_to(tl_scope source, tl_scope target, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(source, "tl_scope_share_to");
    tl__content_held h;
    if (!s) return tl__content_scope_refused(source);
    if (!tl__content_scope_live(target, "tl_scope_share_to"))
        return tl__content_scope_refused(target);
    if (source.ctx != target.ctx) {
        tl__content_log(source.ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_scope_share_to (two contexts)");
        return tl__content_fail(source.ctx, TL_CONTENT_INVALID_ARGUMENT);
    }
    if (!s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h))
        return tl__content_not_held(source, id, "tl_scope_share_to");
    return tl__content_hold_slot(target.ctx, target.index, h.slot);
}

static tl__content_slot *tl__content_slot_get(tl_asset asset) {
    tl__content_slot *s;
    if (!asset.ctx || asset.slot >= asset.ctx->slot_len) return NULL;
    s = &asset.ctx->slots[asset.slot];
    return s->gen == asset.gen && s->state != TL__SLOT_FREE ? s : NULL;
}

tl_content_result tl_scope_adopt(tl_scope target, tl_asset asset) {
    if (!tl__content_scope_live(target, "tl_scope_adopt")) return tl__content_scope_refused(target);
    if (asset.ctx != target.ctx || !tl__content_slot_get(asset)) {
        tl__content_log(target.ctx, TL_CONTENT_LOG_STALE_ASSET, "tl_scope_adopt");
        return tl__content_fail(target.ctx, TL_CONTENT_STALE_ASSET);
    }
    return tl__content_hold_slot(target.ctx, target.index, asset.slot);
}

uint32_t tl_scope_count(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_count");
    return s ? tl__content_held_count(s) : 0;
}
uint32_t tl_scope_peak(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_peak");
    return s ? s->peak : 0;
}
tl_scope_kind tl_scope_get_kind(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_get_kind");
    return s ? (tl_scope_kind)s->kind : TL_SCOPE_ROOT;
}
const char *tl_scope_name(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_name");
    return s ? s->name : NULL;
}
tl_scope tl_scope_parent(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_parent");
    tl_scope p;
    memset(&p, 0, sizeof p);
    if (s && s->parent != TL__CONTENT_NONE) {
        p.ctx = scope.ctx;
        p.index = s->parent;
        p.gen = scope.ctx->scopes[s->parent].gen;
    }
    return p;
}
/* True when `index` is `ancestor` or lies below it. */
static bool tl__content_scope_within(const tl_content *ctx, uint32_t index, uint32_t ancestor) {
    for (; index != TL__CONTENT_NONE; index = ctx->scopes[index].parent)
        if (index == ancestor) return true;
    return false;
}

tl_content_result tl_scope_reparent(tl_scope scope, tl_scope new_parent) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_reparent");
    tl__content_scope *np = tl__content_scope_get(new_parent, "tl_scope_reparent");
    tl__content_scope *old;
    uint32_t last;
    if (!s) return tl__content_scope_refused(scope);
    if (!np) return tl__content_scope_refused(new_parent);
    if (new_parent.ctx != ctx || s->parent == TL__CONTENT_NONE ||
        tl__content_scope_within(ctx, new_parent.index, scope.index)) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_scope_reparent");
        return tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
    }
    if (s->parent == new_parent.index) return TL_CONTENT_OK;
    if (!tl__content_grow((void **)&np->children, &np->child_cap, sizeof *np->children,
                          np->child_count + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        return tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
    }
    old = &ctx->scopes[s->parent]; /* unlinked as an ending scope is: the last child moves in */
    last = old->children[--old->child_count];
    if (last != scope.index) {
        old->children[s->child_pos] = last;
        ctx->scopes[last].child_pos = s->child_pos;
    }
    s->parent = new_parent.index;
    s->child_pos = np->child_count;
    np->children[np->child_count++] = scope.index;
    return TL_CONTENT_OK;
}

tl_content_result tl_scope_set_warn_threshold(tl_scope scope, uint32_t threshold) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_set_warn_threshold");
    if (!s) return tl__content_scope_refused(scope);
    s->threshold = threshold;
    s->warned = 0;
    tl__content_after_add(scope.ctx, scope.index);
    return TL_CONTENT_OK;
}

const char *tl_scope_kind_name(tl_scope_kind kind) {
    /* Indexed by tl_scope_kind (TL_SCOPE_ROOT = 0 ... TL_SCOPE_OWNED = 5); a table, as a switch over
       every kind cannot satisfy both -Wswitch-default and clang's -Wcovered-switch-default. */
    static const char *const names[] = { "Root", "Explicit", "Level", "Entity", "Screen", "Owned" };
    typedef char names_cover[sizeof names / sizeof names[0] == (size_t)TL_SCOPE_OWNED + 1 ? 1 : -1];
    unsigned i = (unsigned)kind;
    (void)sizeof(names_cover);
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

/* snprintf-like output. */
typedef struct tl__content_out {
    char *buf;
    size_t cap, len;
} tl__content_out;
static void tl__content_put(tl__content_out *o, const char *s, size_t n) {
    if (o->cap && o->len < o->cap - 1) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}
static void tl__content_puts(tl__content_out *o, const char *s) {
    tl__content_put(o, s, strlen(s));
}
static size_t tl__content_out_end(tl__content_out *o) {
    if (o->cap) o->buf[o->len < o->cap - 1 ? o->len : o->cap - 1] = 0;
    return o->len;
}

size_t tl_scope_path(tl_scope scope, char *buf, size_t cap) {
    tl__content_out o;
    char *path;
    o.buf = buf;
    o.cap = buf ? cap : 0;
    o.len = 0;
    if (tl__content_scope_get(scope, "tl_scope_path") &&
        (path = tl__content_path_alloc(scope.ctx, scope.index))) {
        tl__content_puts(&o, path);
        TL_FREE(path);
    }
    return tl__content_out_end(&o);
}

/* --- raw handles ------------------------------------------------------------------------------------------ */

static tl_content_handle tl__content_new_ref(tl_content *ctx, uint32_t slot) {
    tl_content_handle h;
    uint32_t index;
    tl__content_rawref *r;
    memset(&h, 0, sizeof h);
    if (ctx->ref_free != TL__CONTENT_NONE) {
        index = ctx->ref_free;
        ctx->ref_free = ctx->refs[index].next_free;
    } else {
        if (!tl__content_grow((void **)&ctx->refs, &ctx->ref_cap, sizeof *ctx->refs,
                              ctx->ref_len + 1)) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "raw handles");
            tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
            tl__content_decref(ctx, slot);
            return h;
        }
        index = ctx->ref_len++;
        ctx->refs[index].gen = 1;
    }
    r = &ctx->refs[index];
    r->slot = slot;
    r->slot_gen = ctx->slots[slot].gen;
    r->alive = true;
    ctx->live_refs++;
    ctx->last = TL_CONTENT_OK;
    h.ctx = ctx;
    h.ref = index;
    h.gen = r->gen;
    return h;
}

static tl__content_rawref *tl__content_ref_get(tl_content_handle h) {
    tl__content_rawref *r;
    if (!h.ctx || h.ref >= h.ctx->ref_len) return NULL;
    r = &h.ctx->refs[h.ref];
    return r->alive && r->gen == h.gen ? r : NULL;
}

static void tl__content_ref_free(tl_content *ctx, uint32_t index) {
    tl__content_rawref *r = &ctx->refs[index];
    r->alive = false;
    if (++r->gen == 0) r->gen = 1;
    r->next_free = ctx->ref_free;
    ctx->ref_free = index;
    ctx->live_refs--;
}

static tl_content_handle tl__content_acquire(tl_content *ctx, tl__content_entry *e, uint32_t id,
                                             bool async, const char *what) {
    tl_content_handle none;
    uint32_t slot;
    memset(&none, 0, sizeof none);
    if (!ctx) {
        tl__content_log(NULL, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        return none;
    }
    if (!e) e = tl__content_entry_of(ctx, id);
    if (!e) {
        char text[16];
        snprintf(text, sizeof text, "%u", (unsigned)id);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, text);
        tl__content_fail(ctx, TL_CONTENT_UNKNOWN_ASSET);
        return none;
    }
    slot = tl__content_acquire_entry(ctx, e, async);
    if (slot == TL__CONTENT_NONE) return none;
    return tl__content_new_ref(ctx, slot);
}

tl_content_handle tl_content_acquire(tl_content *ctx, uint32_t id) {
    return tl__content_acquire(ctx, NULL, id, false, "tl_content_acquire");
}
tl_content_handle tl_content_acquire_async(tl_content *ctx, uint32_t id) {
    return tl__content_acquire(ctx, NULL, id, true, "tl_content_acquire_async");
}
tl_content_handle tl_content_acquire_name(tl_content *ctx, const char *name) {
    tl__content_entry *e = ctx && name ? tl__content_entry_to_load(ctx, name) : NULL;
    tl_content_handle none;
    if (!e) {
        memset(&none, 0, sizeof none);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, "tl_content_acquire_name",
                        name ? name : "(null)");
        tl__content_fail(ctx, name ? TL_CONTENT_UNKNOWN_ASSET : TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    return tl__content_acquire(ctx, e, e->id, false, "tl_content_acquire_name");
}

/* A live raw reference whose slot is still the one it took. */
static tl__content_rawref *tl__content_ref_live(tl_content_handle h) {
    tl__content_rawref *r = tl__content_ref_get(h);
    return r && h.ctx->slots[r->slot].gen == r->slot_gen ? r : NULL;
}

tl_content_handle tl_content_share(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_live(handle);
    tl_content_handle none;
    if (!r) {
        memset(&none, 0, sizeof none);
        tl__content_log(handle.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_content_share");
        tl__content_fail(handle.ctx, TL_CONTENT_STALE_HANDLE);
        return none;
    }
    handle.ctx->slots[r->slot].count++;
    return tl__content_new_ref(handle.ctx, r->slot);
}

tl_content_result tl_content_dispose(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_get(handle);
    if (!r) {
        tl__content_log(handle.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_content_dispose");
        return tl__content_fail(handle.ctx, TL_CONTENT_STALE_HANDLE);
    }
    /* A reference a forced unregister invalidated is dropped quietly. */
    if (handle.ctx->slots[r->slot].gen == r->slot_gen) tl__content_decref(handle.ctx, r->slot);
    tl__content_ref_free(handle.ctx, handle.ref);
    return TL_CONTENT_OK;
}

bool tl_content_handle_valid(tl_content_handle handle) {
    return tl__content_ref_live(handle) != NULL;
}

tl_asset tl_content_handle_asset(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_live(handle);
    tl_asset a;
    memset(&a, 0, sizeof a);
    if (r) {
        a.ctx = handle.ctx;
        a.slot = r->slot;
        a.gen = r->slot_gen;
    }
    return a;
}

tl_content_result tl_scope_attach(tl_scope scope, tl_content_handle handle) {
    tl__content_rawref *r;
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_attach");
    uint32_t slot, id;
    if (!s) return tl__content_scope_refused(scope);
    r = tl__content_ref_live(handle);
    if (!r || handle.ctx != scope.ctx) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_scope_attach");
        return tl__content_fail(scope.ctx, TL_CONTENT_STALE_HANDLE);
    }
    slot = r->slot;
    id = scope.ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) {
        tl__content_decref(scope.ctx, slot); /* held already: the handle's reference goes back */
    } else if (!tl__content_scope_add(scope.ctx, scope.index, id, slot)) {
        return TL_CONTENT_OUT_OF_MEMORY; /* the handle stays yours */
    }
    tl__content_ref_free(scope.ctx, handle.ref);
    return TL_CONTENT_OK;
}

/* --- assets --------------------------------------------------------------------------------------------------- */

bool tl_asset_valid(tl_asset asset) { return tl__content_slot_get(asset) != NULL; }

tl_asset_status tl_asset_get_status(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? (tl_asset_status)s->state : TL_ASSET_INVALID;
}

tl_content_result tl_asset_result(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    if (!s) return TL_CONTENT_STALE_ASSET;
    return s->state == TL__SLOT_FAILED ? (tl_content_result)s->result : TL_CONTENT_OK;
}

void *tl_asset_object(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    if (!s) {
        if (asset.ctx && asset.gen)
            tl__content_log(asset.ctx, TL_CONTENT_LOG_STALE_ASSET, "tl_asset_object");
        return NULL;
    }
    return s->state == TL__SLOT_READY ? s->object : NULL;
}

size_t tl_asset_size(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s && s->state == TL__SLOT_READY ? (size_t)s->size : 0;
}
uint32_t tl_asset_id(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->entry->id : 0;
}
const char *tl_asset_name(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->entry->name : NULL;
}
uint32_t tl_asset_count(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->count : 0;
}
/* ---- runtime/src/content/shutdown.h ---- */
/* --- unregister and shutdown ------------------------------------------------------------------------------------ */

/* Waits for a read in flight (the backend owns its buffer until then) and drops its result. */
static void tl__content_drain(tl_content *ctx, uint32_t index) {
    tl__content_slot *s = &ctx->slots[index];
    if (!s->in_flight) return;
    while (ctx->io.read_poll(ctx->io.user, s->request) == TL_CONTENT_IO_PENDING) {}
    s->in_flight = 0;
    s->request = NULL;
}

static void tl__content_drop_queue_entries(tl_content *ctx) {
    uint32_t i, w = 0;
    for (i = 0; i < ctx->queue_len; i++)
        if (ctx->slots[ctx->queue[i]].queued) ctx->queue[w++] = ctx->queue[i];
    ctx->queue_len = w;
}

/* Takes a directory's ids and names out of the lookup tables; its entries stay (destroy
   callbacks are told their names) until tl__content_dir_free. */
static void tl__content_unlist(tl_content *ctx, uint32_t index) {
    tl__content_dirrec *d = &ctx->dirs[index];
    uint32_t i;
    for (i = 0; i < d->entry_count; i++) tl__content_idmap_remove(ctx->ids, d->entries[i].id);
    tl__content_rebuild_names(ctx, index);
}

tl_content_result tl_content_unregister_dir(tl_content_dir dir, bool force) {
    tl_content *ctx = dir.ctx;
    tl__content_dirrec *d = tl__content_dir_get(dir);
    uint32_t i, held = 0;
    if (!d) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_content_unregister_dir (stale directory)");
        return ctx ? tl__content_fail(ctx, TL_CONTENT_STALE_DIR) : TL_CONTENT_INVALID_ARGUMENT;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_unregister_dir");
        return tl__content_fail(ctx, TL_CONTENT_CALLBACK_REFUSED);
    }
    for (i = 0; i < d->entry_count; i++) {
        uint32_t slot = d->entries[i].slot;
        if (slot != TL__CONTENT_NONE && ctx->slots[slot].count > 0) held++;
    }
    if (held && !force) {
        tl__content_log(ctx, TL_CONTENT_LOG_DIR_HELD, d->path, held);
        return tl__content_fail(ctx, TL_CONTENT_DIR_HELD);
    }
    /* Unlisted before any destroy callback runs: one that loads from this directory finds an
       unknown asset, not a slot on the entries freed below. */
    tl__content_unlist(ctx, dir.index);
    for (i = 0; i < d->entry_count; i++) {
        uint32_t slot = ctx->dirs[dir.index].entries[i].slot;
        if (slot == TL__CONTENT_NONE) continue;
        tl__content_drain(ctx, slot);
        ctx->slots[slot].queued = 0;
        tl__content_slot_release(ctx, slot);
    }
    tl__content_drop_queue_entries(ctx);
    if (held) {
        ctx->epoch++; /* scopes drop their killed references lazily */
        tl__content_log(ctx, TL_CONTENT_LOG_DIR_FORCED, ctx->dirs[dir.index].path, held);
    }
    tl__content_dir_free(ctx, &ctx->dirs[dir.index]); /* keeps gen: old handles stay stale */
    return TL_CONTENT_OK;
}

void tl_content_shutdown(tl_content *ctx) {
    uint32_t i, leftover = 0;
    if (!ctx) return;
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_shutdown");
        return;
    }
    if (ctx->live) ctx->live->report(ctx);
    ctx->shutting_down = true;
    tl__content_dispose_tree(ctx, 0);
    for (i = 0; i < ctx->ref_len; i++) {
        tl__content_rawref *r = &ctx->refs[i];
        if (!r->alive) continue;
        leftover++;
        if (ctx->slots[r->slot].gen == r->slot_gen) {
            tl__content_log(ctx, TL_CONTENT_LOG_RAW_LEFTOVER, ctx->slots[r->slot].entry->name);
            tl__content_decref(ctx, r->slot);
        } else {
            tl__content_log(ctx, TL_CONTENT_LOG_RAW_LEFTOVER,
                            "an asset invalidated by a forced unregister");
        }
        tl__content_ref_free(ctx, i);
    }
    if (leftover) tl__content_log(ctx, TL_CONTENT_LOG_RAW_LEFTOVER_TOTAL, leftover);
    /* Everything left is unreferenced now: loads in flight end, every slot is released. */
    for (i = 0; i < ctx->slot_len; i++) {
        if (ctx->slots[i].state == TL__SLOT_FREE) continue;
        tl__content_drain(ctx, i);
        ctx->slots[i].queued = 0;
        tl__content_slot_release(ctx, i);
    }
    for (i = 0; i < ctx->dir_len; i++)
        if (ctx->dirs[i].alive) tl__content_dir_free(ctx, &ctx->dirs[i]);
    for (i = 0; i < ctx->kind_len; i++) TL_FREE(ctx->kinds[i].category);
    TL_FREE(ctx->kinds);
    TL_FREE(ctx->dirs);
    TL_FREE(ctx->ids.mem);
    TL_FREE(ctx->names.mem);
    TL_FREE(ctx->queue);
    TL_FREE(ctx->loads);
    TL_FREE(ctx->refs);
    TL_FREE(ctx->slots);
    TL_FREE(ctx->scopes);
#ifdef TL_CONTENT_ZSTD
    ZSTD_freeDCtx((ZSTD_DCtx *)ctx->zstd_dctx);
#endif
    TL_FREE(ctx->scratch);
    TL_FREE(ctx);
}

/* --- diagnostics ---------------------------------------------------------------------------------------------------- */

tl_content_stats tl_content_get_stats(tl_content *ctx) {
    tl_content_stats st;
    uint32_t i;
    memset(&st, 0, sizeof st);
    if (!ctx) return st;
    st.live_assets = ctx->live_slots;
    for (i = 0; i < ctx->slot_len; i++) {
        const tl__content_slot *s = &ctx->slots[i];
        if (s->state == TL__SLOT_FREE) continue;
        st.held_assets += s->count > 0;
        st.queued += s->queued;
        st.loading += s->state == TL__SLOT_LOADING;
    }
    for (i = 0; i < ctx->scope_len; i++) {
        tl__content_scope *s = &ctx->scopes[i];
        if (!s->alive) continue;
        if (s->epoch != ctx->epoch) tl__content_purge(ctx, s);
        st.references += tl__content_held_count(s);
    }
    for (i = 0; i < ctx->ref_len; i++)
        if (ctx->refs[i].alive && ctx->slots[ctx->refs[i].slot].gen == ctx->refs[i].slot_gen)
            st.raw_handles++;
    st.references += st.raw_handles;
    st.scopes = ctx->live_scopes;
    for (i = 0; i < ctx->dir_len; i++) st.directories += ctx->dirs[i].alive;
    st.loads = ctx->stat_loads;
    st.releases = ctx->stat_releases;
    return st;
}

uint32_t tl_content_live_assets(tl_content *ctx) { return ctx ? ctx->live_slots : 0; }

size_t tl_content_snapshot(tl_content *ctx, tl_content_ref *out, size_t cap) {
    size_t n = 0;
    uint32_t i;
    if (!ctx) return 0;
    for (i = 0; i < ctx->scope_len; i++) {
        tl__content_scope *s = &ctx->scopes[i];
        tl_inline_iter it;
        uint32_t key;
        tl__content_held *value;
        if (!s->alive || !s->held.mem) continue;
        if (s->epoch != ctx->epoch) tl__content_purge(ctx, s);
        it = tl__content_heldmap_iter(s->held);
        while (tl__content_heldmap_next(s->held, &it, &key, &value)) {
            if (n < cap) {
                tl_content_ref *r = &out[n];
                memset(r, 0, sizeof *r);
                r->scope.ctx = ctx;
                r->scope.index = i;
                r->scope.gen = s->gen;
                r->id = key;
                r->name = ctx->slots[value->slot].entry->name;
                r->count = ctx->slots[value->slot].count;
                r->status = (tl_asset_status)ctx->slots[value->slot].state;
            }
            n++;
        }
    }
    for (i = 0; i < ctx->ref_len; i++) {
        const tl__content_rawref *rr = &ctx->refs[i];
        if (!rr->alive || ctx->slots[rr->slot].gen != rr->slot_gen) continue;
        if (n < cap) {
            tl_content_ref *r = &out[n];
            memset(r, 0, sizeof *r);
            r->handle.ctx = ctx;
            r->handle.ref = i;
            r->handle.gen = rr->gen;
            r->id = ctx->slots[rr->slot].entry->id;
            r->name = ctx->slots[rr->slot].entry->name;
            r->count = ctx->slots[rr->slot].count;
            r->status = (tl_asset_status)ctx->slots[rr->slot].state;
        }
        n++;
    }
    return n;
}

size_t tl_content_loading(tl_content *ctx, uint32_t *ids, size_t cap) {
    size_t n = 0;
    uint32_t i;
    if (!ctx) return 0;
    for (i = 0; i < ctx->slot_len; i++)
        if (ctx->slots[i].state == TL__SLOT_LOADING) {
            if (n < cap) ids[n] = ctx->slots[i].entry->id;
            n++;
        }
    return n;
}

size_t tl_content_dump_tree(tl_content *ctx, char *buf, size_t cap) {
    tl__content_out o;
    uint32_t *stack, *depth, top = 0;
    o.buf = buf;
    o.cap = buf ? cap : 0;
    o.len = 0;
    if (!ctx || ctx->live_scopes == 0) return tl__content_out_end(&o);
    stack = (uint32_t *)TL_MALLOC((size_t)ctx->live_scopes * 2 * sizeof *stack);
    if (!stack) return tl__content_out_end(&o);
    depth = stack + ctx->live_scopes;
    stack[top] = 0;
    depth[top++] = 0;
    while (top) {
        uint32_t index = stack[--top], d = depth[top], k, shown = 0;
        tl__content_scope *s = &ctx->scopes[index];
        char num[64];
        if (s->epoch != ctx->epoch) tl__content_purge(ctx, s);
        for (k = 0; k < d; k++) tl__content_puts(&o, "  ");
        tl__content_puts(&o, s->name);
        snprintf(num, sizeof num, " [%s] %u (peak %u)", tl_scope_kind_name((tl_scope_kind)s->kind),
                 (unsigned)tl__content_held_count(s), (unsigned)s->peak);
        tl__content_puts(&o, num);
        if (s->held.mem) {
            tl_inline_iter it = tl__content_heldmap_iter(s->held);
            uint32_t key;
            tl__content_held *value;
            while (tl__content_heldmap_next(s->held, &it, &key, &value)) {
                tl__content_puts(&o, shown++ ? ", " : " : ");
                tl__content_puts(&o, ctx->slots[value->slot].entry->name);
            }
        }
        tl__content_puts(&o, "\n");
        /* Children in the order the scope holds them: pushed last to first. */
        for (k = s->child_count; k-- > 0;) {
            stack[top] = s->children[k];
            depth[top++] = d + 1;
        }
    }
    TL_FREE(stack);
    return tl__content_out_end(&o);
}

void tl_content_log_tree(tl_content *ctx) {
    size_t n = tl_content_dump_tree(ctx, NULL, 0);
    char *text = (char *)TL_MALLOC(n + 1), *line, *nl;
    if (!text) return;
    tl_content_dump_tree(ctx, text, n + 1);
    for (line = text; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) break;
        *nl = 0;
        tl_log(&ctx->logger, TL_LOG_LEVEL_INFO, "Content", "%s", line);
    }
    TL_FREE(text);
}

#ifdef __cplusplus
}
#endif
/* ---- runtime/src/content/live.h ---- */
/* ================================================================================================ */
/* The implementation: emitted by content.h's, where its internals are in scope. */
#if defined(TL_CONTENT_LIVE) && defined(TL__CONTENT_IMPLEMENTED) && \
    !defined(TL__CONTENT_LIVE_IMPLEMENTED)
#define TL__CONTENT_LIVE_IMPLEMENTED
#if defined(_WIN32)
#error \
    "threadlink/content.h: TL_CONTENT_LIVE is POSIX only for now (serve packed directories on Windows)"
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/inotify.h>
#define TL__LIVE_INOTIFY 1
#endif
/* openat2 with RESOLVE_BENEATH (Linux 5.6) opens a source file in one call where the headers
   have it and syscall() is declared (_GNU_SOURCE or _DEFAULT_SOURCE); the walk of
   tl__live_open_beneath answers whenever it refuses or is missing. */
#if defined(__linux__) && (defined(_GNU_SOURCE) || defined(_DEFAULT_SOURCE)) && \
    defined(__has_include)
#if __has_include(<linux/openat2.h>) && __has_include(<sys/syscall.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#if defined(SYS_openat2)
#define TL__LIVE_OPENAT2 1
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__LIVE_DEFAULT_BUDGET 256u
#define TL__LIVE_DEFAULT_BUDGET_US 250u
#define TL__LIVE_WHY 1024

/* What identifies a file's contents without reading it. */
typedef struct tl__live_sig {
    int64_t mtime_ns, ctime_ns;
    uint64_t size, ino;
} tl__live_sig;

/* Which folder a path names (stat's device and inode): one deleted and made again at the path,
   or reached through a link that was replaced, is another. */
typedef struct tl__live_folder {
    uint64_t dev, ino;
} tl__live_folder;

/* Per entry of a source directory (parallel to its entries). */
typedef struct tl__live_file {
    tl__live_sig sig;
    uint8_t present, in_catalog, loaded, seen;
    uint8_t dirty; /* held, and its file changed: reloaded once additions are read */
} tl__live_file;

/* One file of a scan: its path under the root, the length of its name (a prefix), its category. */
typedef struct tl__live_found {
    char *rel;
    uint32_t name_len, category;
    tl__live_sig sig;
} tl__live_found;

typedef struct tl__live_scan {
    tl__live_found *files;
    uint32_t len, cap;
    char **dirs; /* every folder walked, under the root ("" for the root) */
    tl__live_sig *dir_sigs;
    uint32_t dir_len, dir_cap, dir_sig_cap;
    char *real_root;
    const tl_content *ctx;
    /* The entries skipped (under the root), each warned about once: those the previous reads
       skipped already are not warned about again. */
    char **skipped;
    uint32_t skipped_len, skipped_cap;
    char *const *warned;
    uint32_t warned_len;
    char why[TL__LIVE_WHY];
} tl__live_scan;

struct tl__content_source {
    char *scope; /* the identity scope: the profile as a C word */
    char **category_names, **folders;
    uint32_t category_count;
    tl_cf_names names;
    bool flat, poll, rescan, busy;
    uint32_t *dirty_ids; /* the ids of the files marked dirty, in the order they were */
    uint32_t dirty, dirty_cap;
    int64_t scanned_ns; /* the wall clock when the served tree's last read began */
    uint32_t (*catalog_id)(void *user, const char *name);
    void *catalog_user;
    tl__live_file *files;
    uint32_t entry_cap;
    char **dirs;
    tl__live_sig *dir_sigs;
    uint32_t dir_len, budget, budget_us, cursor;
    int fd;          /* inotify, or -1 */
    int *wds;        /* the watch of each folder (parallel to dirs) */
    int root_wd;     /* the watch of the root itself: it moved, or a folder was made in it */
    int parent_wd;   /* the watch of the folder holding it: the root deleted, or made again */
    int root_fd;     /* the source root: every file is read beneath it */
    char *real_root; /* its real path (realpath's), for absolute links into it */
    tl__live_folder root_id; /* the folder root_fd is */
    bool root_gone;          /* no folder at the root's path: a stat per update until there is */
    uint64_t refused;        /* the last refusal logged (a hash of it), 0 after a served read */
    char **skipped;          /* the entries the reads of the tree skipped, warned about already */
    uint32_t skipped_len, skipped_cap;
    char path[4096]; /* scratch: root/rel, for the poll's stat calls without allocating */
};

/* --- small helpers --------------------------------------------------------------------------- */

static tl__live_sig tl__live_sig_of(const struct stat *st) {
    tl__live_sig s;
#if defined(__APPLE__)
    s.mtime_ns = (int64_t)st->st_mtimespec.tv_sec * 1000000000 + st->st_mtimespec.tv_nsec;
    s.ctime_ns = (int64_t)st->st_ctimespec.tv_sec * 1000000000 + st->st_ctimespec.tv_nsec;
#else
    s.mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    s.ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
#endif
    s.size = (uint64_t)st->st_size;
    s.ino = (uint64_t)st->st_ino;
    return s;
}

static bool tl__live_sig_same(const tl__live_sig *a, const tl__live_sig *b) {
    return a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns && a->size == b->size &&
           a->ino == b->ino;
}

/* The folder at path now, or false when there is nothing there. */
static bool tl__live_folder_at(const char *path, tl__live_folder *out) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    return true;
}

/* Whether path still names the folder `was` (one stat). */
static bool tl__live_folder_is(const char *path, const tl__live_folder *was) {
    tl__live_folder now;
    return tl__live_folder_at(path, &now) && now.dev == was->dev && now.ino == was->ino;
}

#ifdef TL__LIVE_INOTIFY
/* The events that say a watched folder itself went away: deleted, moved, or its watch dropped. */
#define TL__LIVE_FOLDER_GONE (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)
#endif

/* root/rel in the source's scratch buffer; NULL when too long. */
static const char *tl__live_path(tl__content_source *src, const char *root, const char *rel) {
    size_t a = strlen(root), b = strlen(rel);
    if (a + b + 2 > sizeof src->path) return NULL;
    memcpy(src->path, root, a);
    src->path[a] = '/';
    memcpy(src->path + a + 1, rel, b + 1);
    if (!b) src->path[a] = 0;
    return src->path;
}

static char *tl__live_strndup(const char *s, size_t n) {
    char *d = (char *)TL_MALLOC(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* The last component of path (trailing slashes aside), and its length. */
static const char *tl__live_base(const char *path, size_t *len) {
    size_t end = strlen(path), start;
    while (end > 1 && path[end - 1] == '/') end--;
    for (start = end; start > 0 && path[start - 1] != '/'; start--) {}
    *len = end - start;
    return path + start;
}

/* Whether `name` is path's last component. */
static bool tl__live_is_base(const char *path, const char *name) {
    size_t len;
    const char *base = tl__live_base(path, &len);
    return strlen(name) == len && memcmp(name, base, len) == 0;
}

/* The folder that holds path's last component ("." for a bare name); NULL when out of memory. */
static char *tl__live_parent(const char *path) {
    size_t len, at = (size_t)(tl__live_base(path, &len) - path);
    if (at == 0) return tl__content_strdup(".");
    while (at > 1 && path[at - 1] == '/') at--;
    return tl__live_strndup(path, at);
}

/* The scan's refusal: up to four pieces of text joined (NULL: none). */
static void tl__live_why(tl__live_scan *sc, const char *a, const char *b, const char *c,
                         const char *d) {
    snprintf(sc->why, sizeof sc->why, "%s%s%s%s", a, b ? b : "", c ? c : "", d ? d : "");
}

/* --- the walk (pack's rules: content_format.h) ------------------------------------------------- */

typedef struct tl__live_chain {
    dev_t dev;
    ino_t ino;
    const struct tl__live_chain *up;
} tl__live_chain;

static void tl__live_scan_free(tl__live_scan *sc) {
    uint32_t i;
    for (i = 0; i < sc->len; i++) TL_FREE(sc->files[i].rel);
    for (i = 0; i < sc->dir_len; i++) TL_FREE(sc->dirs[i]);
    for (i = 0; i < sc->skipped_len; i++) TL_FREE(sc->skipped[i]);
    TL_FREE(sc->files);
    TL_FREE(sc->dirs);
    TL_FREE(sc->skipped);
    TL_FREE(sc->dir_sigs);
    free(sc->real_root); /* realpath's */
    sc->files = NULL;
    sc->dirs = NULL;
    sc->dir_sigs = NULL;
    sc->real_root = NULL;
    sc->skipped = NULL;
    sc->len = sc->dir_len = sc->cap = sc->dir_cap = sc->dir_sig_cap = 0;
    sc->skipped_len = sc->skipped_cap = 0;
}

static bool tl__live_inside(const char *root, const char *path) {
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 &&
           (path[n] == '/' || path[n] == 0 || strcmp(root, "/") == 0);
}

static int tl__live_by_strcmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible entries of a folder, sorted (as pack lists them); NULL when it cannot be read. */
static char **tl__live_list(const char *dir, uint32_t *count) {
    DIR *d = opendir(dir);
    struct dirent *ent;
    char **names = NULL;
    uint32_t n = 0, cap = 0;
    if (!d) return NULL;
    while ((ent = readdir(d)) != NULL) {
        if (tl_cf_source_hidden(ent->d_name)) continue; /* also "." and ".." */
        if (!tl__content_grow((void **)&names, &cap, sizeof *names, n + 1)) break;
        if (!(names[n] = tl__content_strdup(ent->d_name))) break;
        n++;
    }
    closedir(d);
    if (!names) names = (char **)tl__content_zalloc(sizeof *names);
    if (n > 1) qsort(names, n, sizeof *names, tl__live_by_strcmp);
    *count = n;
    return names;
}

static bool tl__live_add_dir(tl__live_scan *sc, const char *rel, const struct stat *st) {
    if (!tl__content_grow((void **)&sc->dirs, &sc->dir_cap, sizeof *sc->dirs, sc->dir_len + 1) ||
        !tl__content_grow((void **)&sc->dir_sigs, &sc->dir_sig_cap, sizeof *sc->dir_sigs,
                          sc->dir_len + 1))
        return false;
    if (!(sc->dirs[sc->dir_len] = tl__content_strdup(rel))) return false;
    sc->dir_sigs[sc->dir_len++] = tl__live_sig_of(st);
    return true;
}

/* A path pack refuses: not UTF-8 text, or (flat builds) a component Windows cannot hold. */
static bool tl__live_path_refused(const tl__content_source *src, tl__live_scan *sc,
                                  const char *full, const char *rel) {
    size_t len = strlen(rel), start = 0, i;
    const char *why = tl_cf_asset_path_problem(rel, len);
    if (why) {
        tl__live_why(sc, full, ": file name contains ", why, "; asset names must be UTF-8 text");
        return true;
    }
    for (i = 0; src->flat && i <= len; i++) {
        if (i < len && rel[i] != '/') continue;
        why = tl_text_windows_name_problem(rel + start, i - start);
        if (why) {
            tl__live_why(sc, full, ": name ", why,
                         "; a flat build (\"archive\": \"none\") refuses it");
            return true;
        }
        start = i + 1;
    }
    return false;
}

static bool tl__live_add_file(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                              const char *full, const char *rel, const struct stat *st) {
    tl__live_found *f;
    if (tl__live_path_refused(src, sc, full, rel)) return false;
    if (!tl__content_grow((void **)&sc->files, &sc->cap, sizeof *sc->files, sc->len + 1)) goto oom;
    f = &sc->files[sc->len];
    if (!(f->rel = tl__content_strdup(rel))) goto oom;
    f->name_len = (uint32_t)tl_cf_asset_name_len(rel, strlen(rel), src->names);
    f->category = category;
    f->sig = tl__live_sig_of(st);
    sc->len++;
    return true;
oom:
    tl__live_why(sc, full, ": out of memory", NULL, NULL);
    return false;
}

static bool tl__live_walk(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                          const char *dir, const char *rel, const tl__live_chain *up);

/* Whether a folder is one being read already: a link to it is a loop. */
static bool tl__live_in_chain(const tl__live_chain *up, const struct stat *st) {
    const tl__live_chain *c;
    for (c = up; c; c = c->up)
        if (c->dev == st->st_dev && c->ino == st->st_ino) return true;
    return false;
}

/* A folder below the root, unless it is one being read already (a link loop). */
static bool tl__live_walk_folder(const tl__content_source *src, tl__live_scan *sc,
                                 uint32_t category, const char *full, const char *rel,
                                 const struct stat *st, const tl__live_chain *up) {
    tl__live_chain here;
    if (tl__live_in_chain(up, st)) return true;
    here.dev = st->st_dev;
    here.ino = st->st_ino;
    here.up = up;
    return tl__live_add_dir(sc, rel, st) && tl__live_walk(src, sc, category, full, rel, &here);
}

static bool tl__live_listed(char *const *names, uint32_t n, const char *name) {
    uint32_t i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

/* An entry pack skips, warned about with pack's words the first time a read of the tree meets
   it (not at every read: the tree is read again after each change). */
static void tl__live_skipped(tl__live_scan *sc, const char *full, const char *rel,
                             const char *why) {
    bool seen = tl__live_listed(sc->warned, sc->warned_len, rel);
    char *copy = tl__content_strdup(rel);
    if (copy && tl__content_grow((void **)&sc->skipped, &sc->skipped_cap, sizeof *sc->skipped,
                                 sc->skipped_len + 1))
        sc->skipped[sc->skipped_len++] = copy;
    else TL_FREE(copy); /* out of memory: warned about again next time */
    if (!seen) tl__content_log(sc->ctx, TL_CONTENT_LOG_SOURCE_SKIPPED, full, why);
}

/* A symbolic link is followed only to a folder or a regular file inside the source root. */
static bool tl__live_walk_link(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                               const char *full, const char *rel, const tl__live_chain *up) {
    struct stat st;
    char *target = realpath(full, NULL), why[TL__LIVE_WHY];
    bool ok = true;
    if (!target || stat(full, &st) != 0) {
        tl__live_skipped(sc, full, rel, "broken symbolic link skipped");
    } else if (!tl__live_inside(sc->real_root, target)) {
        snprintf(why, sizeof why,
                 "symbolic link to %s skipped: it leads out of the source root and is never "
                 "followed",
                 target);
        tl__live_skipped(sc, full, rel, why);
    } else if (S_ISDIR(st.st_mode) && tl__live_in_chain(up, &st)) {
        tl__live_skipped(sc, full, rel,
                         "symbolic link skipped: it leads back into a folder being read (a loop)");
    } else if (S_ISDIR(st.st_mode)) {
        ok = tl__live_walk_folder(src, sc, category, full, rel, &st, up);
    } else if (S_ISREG(st.st_mode)) {
        ok = tl__live_add_file(src, sc, category, full, rel, &st);
    } else {
        tl__live_skipped(sc, full, rel,
                         "symbolic link to a special file skipped (only regular files are "
                         "content)");
    }
    free(target);
    return ok;
}

static bool tl__live_walk_entry(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                                const char *full, const char *rel, const tl__live_chain *up) {
    struct stat st;
    if (lstat(full, &st) != 0) return errno == ENOENT; /* vanished meanwhile: not there */
    if (S_ISLNK(st.st_mode)) return tl__live_walk_link(src, sc, category, full, rel, up);
    if (S_ISDIR(st.st_mode)) return tl__live_walk_folder(src, sc, category, full, rel, &st, up);
    if (S_ISREG(st.st_mode)) return tl__live_add_file(src, sc, category, full, rel, &st);
    tl__live_skipped(sc, full, rel, "special file skipped (only regular files are content)");
    return true;
}

static bool tl__live_walk(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                          const char *dir, const char *rel, const tl__live_chain *up) {
    uint32_t n = 0, i;
    char **names = tl__live_list(dir, &n);
    bool ok = names != NULL;
    if (!ok) tl__live_why(sc, dir, ": cannot read the folder", NULL, NULL);
    for (i = 0; ok && i < n; i++) {
        char *full = tl__content_join(dir, names[i], NULL);
        char *sub = rel[0] ? tl__content_join(rel, names[i], NULL) : tl__content_strdup(names[i]);
        ok = full && sub ? tl__live_walk_entry(src, sc, category, full, sub, up) : false;
        if (!full || !sub) tl__live_why(sc, dir, ": out of memory", NULL, NULL);
        TL_FREE(full);
        TL_FREE(sub);
    }
    for (i = 0; i < n; i++) TL_FREE(names[i]);
    TL_FREE(names);
    return ok;
}

/* One category: its folder must be a folder inside the root. */
static bool tl__live_walk_category(const tl__content_source *src, const char *root,
                                   tl__live_scan *sc, uint32_t k) {
    const char *folder = src->folders[k];
    char *dir = folder[0] ? tl__content_join(root, folder, NULL) : tl__content_strdup(root);
    char *real = dir ? realpath(dir, NULL) : NULL;
    struct stat st;
    bool ok = false;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        tl__live_why(sc, "category folder \"", folder, "\" is not a folder under ", root);
    else if (!real || !tl__live_inside(sc->real_root, real))
        tl__live_why(sc, "category folder \"", folder, "\" leads out of the source root", NULL);
    else ok = tl__live_walk_folder(src, sc, k, dir, folder, &st, NULL);
    free(real);
    TL_FREE(dir);
    return ok;
}

static int tl__live_by_name(const void *x, const void *y) {
    const tl__live_found *a = (const tl__live_found *)x, *b = (const tl__live_found *)y;
    int c = tl_text_fold_compare(a->rel, a->name_len, b->rel, b->name_len);
    return c ? c : strcmp(a->rel, b->rel);
}

/* Two files one name: b's refusal, naming a (pack's message). */
static void tl__live_same_name(tl__live_scan *sc, const char *profile, const char *root,
                               const tl__live_found *a, const tl__live_found *b, bool normalised) {
    char name[512];
    snprintf(name, sizeof name, "%.*s\" of profile \"%s", (int)b->name_len, b->rel, profile);
    snprintf(sc->why, sizeof sc->why, "%s/%s: asset name \"%s\" is also the name of %s/%s%s", root,
             b->rel, name, root, a->rel,
             normalised ? " under Unicode normalisation (names are unique per profile, "
                          "case-insensitively and whether their letters are composed or "
                          "decomposed: U+00E9 and e + U+0301 are one letter)"
                        : " (names are unique per profile, case-insensitively)");
}

/* A scanned name with a byte above ASCII, and its key (tl_text_name_key). */
typedef struct tl__live_keyed {
    const tl__live_found *f;
    char *key;
    size_t len;
} tl__live_keyed;

static int tl__live_by_key(const void *x, const void *y) {
    const tl__live_keyed *a = (const tl__live_keyed *)x, *b = (const tl__live_keyed *)y;
    int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return strcmp(a->f->rel, b->f->rel);
}

static bool tl__live_ascii(const char *s, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

/* The scanned file (sorted by folded name) whose folded name is `key`, or NULL. */
static const tl__live_found *tl__live_folded_as(const tl__live_scan *sc, const char *key,
                                                size_t len) {
    uint32_t lo = 0, hi = sc->len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = tl_text_fold_compare(sc->files[mid].rel, sc->files[mid].name_len, key, len);
        if (c == 0) return &sc->files[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The keys of the names with a byte above ASCII, into keys (*n of them); false with sc->why when
   out of memory or when a key that is all ASCII is another file's folded name (KELVIN SIGN is K). */
static bool tl__live_keys(const char *profile, const char *root, tl__live_scan *sc,
                          tl__live_keyed *keys, uint32_t *n) {
    uint32_t i;
    for (i = 0; i < sc->len; i++) {
        const tl__live_found *f = &sc->files[i], *same;
        tl__live_keyed *k = &keys[*n];
        if (tl__live_ascii(f->rel, f->name_len)) continue;
        k->f = f;
        k->key = (char *)TL_MALLOC(TL_TEXT_NAME_KEY_MAX(f->name_len) + 1);
        if (!k->key) {
            tl__live_why(sc, root, ": out of memory", NULL, NULL);
            return false;
        }
        k->len = tl_text_name_key(f->rel, f->name_len, k->key, TL_TEXT_NAME_KEY_MAX(f->name_len));
        (*n)++;
        same = tl__live_ascii(k->key, k->len) ? tl__live_folded_as(sc, k->key, k->len) : NULL;
        if (same) {
            tl__live_same_name(sc, profile, root, same, f, true);
            return false;
        }
    }
    return true;
}

/* Two files one name under Unicode normalisation though not under the ASCII fold alone (those
   tl__live_unique refuses): "café" composed and decomposed. Only names with a byte above ASCII
   can differ so; nothing is allocated for an all-ASCII tree. */
static bool tl__live_unique_normalised(const char *profile, const char *root, tl__live_scan *sc) {
    tl__live_keyed *keys;
    uint32_t i, n = 0, count = 0;
    bool ok;
    for (i = 0; i < sc->len; i++) count += !tl__live_ascii(sc->files[i].rel, sc->files[i].name_len);
    if (!count) return true;
    keys = (tl__live_keyed *)tl__content_zalloc(count * sizeof *keys);
    if (!keys) tl__live_why(sc, root, ": out of memory", NULL, NULL);
    ok = keys && tl__live_keys(profile, root, sc, keys, &n);
    if (ok && n > 1) qsort(keys, n, sizeof *keys, tl__live_by_key);
    for (i = 1; ok && i < n; i++) {
        const tl__live_keyed *a = &keys[i - 1], *b = &keys[i];
        if (a->len != b->len || memcmp(a->key, b->key, a->len) != 0 ||
            tl_text_fold_compare(a->f->rel, a->f->name_len, b->f->rel, b->f->name_len) == 0)
            continue;
        tl__live_same_name(sc, profile, root, a->f, b->f, true);
        ok = false;
    }
    for (i = 0; keys && i < n; i++) TL_FREE(keys[i].key);
    TL_FREE(keys);
    return ok;
}

/* Two files one name, case-insensitively or under Unicode normalisation: refused, both paths
   named (pack's message). */
static bool tl__live_unique(const char *profile, const char *root, tl__live_scan *sc) {
    uint32_t i;
    if (sc->len > 1) qsort(sc->files, sc->len, sizeof *sc->files, tl__live_by_name);
    for (i = 1; i < sc->len; i++) {
        const tl__live_found *a = &sc->files[i - 1], *b = &sc->files[i];
        if (tl_text_fold_compare(a->rel, a->name_len, b->rel, b->name_len) != 0) continue;
        tl__live_same_name(sc, profile, root, a, b, false);
        return false;
    }
    return tl__live_unique_normalised(profile, root, sc);
}

/* The whole tree as pack would read it; false with sc->why when pack would refuse it. */
static bool tl__live_scan_tree(const tl__content_source *src, const char *profile, const char *root,
                               tl__live_scan *sc) {
    struct stat st;
    uint32_t k;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        tl__live_why(sc, "source root ", root,
                     errno == ENOENT ? " does not exist" : " is not a directory", NULL);
        return false;
    }
    if (!(sc->real_root = realpath(root, NULL))) {
        tl__live_why(sc, "source root ", root, " cannot be resolved", NULL);
        return false;
    }
    for (k = 0; k < src->category_count; k++)
        if (!tl__live_walk_category(src, root, sc, k)) return false;
    return tl__live_unique(profile, root, sc);
}

/* --- the served entries ---------------------------------------------------------------------- */

static tl__content_source *tl__live_of(const tl_content *ctx, uint32_t dir) {
    return ctx->dirs[dir].alive ? ctx->dirs[dir].source : NULL;
}

static tl__live_file *tl__live_file_of(const tl_content *ctx, const tl__content_entry *e) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    return &d->source->files[e - d->entries];
}

/* Entry pointers that lie in [old, old + count) now point into `now`: the id and name tables
   and every slot. */
static void tl__live_rebase(tl_content *ctx, uintptr_t old, uint32_t count,
                            tl__content_entry *now) {
    uintptr_t end = old + (uintptr_t)count * sizeof *now;
    tl_inline_iter it;
    uint32_t id, i;
    uint64_t hash;
    tl__content_entry_ptr *v;
#define TL__LIVE_MOVE(p) \
    if ((uintptr_t)(p) >= old && (uintptr_t)(p) < end) \
    (p) = now + ((uintptr_t)(p)-old) / sizeof *now
    it = tl__content_idmap_iter(ctx->ids);
    while (ctx->ids.mem && tl__content_idmap_next(ctx->ids, &it, &id, &v)) TL__LIVE_MOVE(*v);
    it = tl__content_namemap_iter(ctx->names);
    while (ctx->names.mem && tl__content_namemap_next(ctx->names, &it, &hash, &v))
        TL__LIVE_MOVE(*v);
    for (i = 0; i < ctx->slot_len; i++) TL__LIVE_MOVE(ctx->slots[i].entry);
#undef TL__LIVE_MOVE
}

/* Room for `need` entries (and their live records), moving every pointer to them. */
static bool tl__live_reserve(tl_content *ctx, tl__content_dirrec *d, uint32_t need) {
    tl__content_source *src = d->source;
    uint32_t cap = src->entry_cap ? src->entry_cap : 64, files_cap = src->entry_cap;
    tl__content_entry *grown;
    if (need <= src->entry_cap) return true;
    while (cap < need) cap *= 2;
    grown = (tl__content_entry *)tl__content_zalloc((size_t)cap * sizeof *grown);
    if (!grown || !tl__content_grow((void **)&src->files, &files_cap, sizeof *src->files, cap)) {
        TL_FREE(grown);
        return false;
    }
    if (d->entry_count) memcpy(grown, d->entries, (size_t)d->entry_count * sizeof *grown);
    tl__live_rebase(ctx, (uintptr_t)d->entries, d->entry_count, grown);
    TL_FREE(d->entries);
    d->entries = grown;
    src->entry_cap = cap;
    return true;
}

/* The catalog's id for a new name, else the value identity would issue: XXH32 of its key under
   the first seed whose value is neither 0 nor registered. */
static uint32_t tl__live_new_id(const tl_content *ctx, const tl__content_source *src,
                                const char *name, bool *in_catalog) {
    char key[1024];
    size_t n = tl_cf_asset_key(src->scope, name, key, sizeof key);
    uint32_t id = src->catalog_id ? src->catalog_id(src->catalog_user, name) : 0, seed;
    *in_catalog = id != 0 && !tl__content_entry_of(ctx, id);
    if (*in_catalog) return id;
    if (n >= sizeof key) n = sizeof key - 1;
    for (seed = 0;; seed++) {
        id = tl_cf_identity_hash(key, n, seed);
        if (id && !tl__content_entry_of(ctx, id)) return id;
    }
}

/* A new entry for a scanned file (its name and path owned by the source). */
static tl__content_entry *tl__live_add_entry(tl_content *ctx, uint32_t dir,
                                             const tl__live_found *f) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_entry *e;
    tl__live_file *lf;
    char *name = tl__live_strndup(f->rel, f->name_len), *path = tl__content_strdup(f->rel);
    bool in_catalog = false;
    uint32_t count = d->entry_count;
    if (!name || !path || !tl__live_reserve(ctx, d, count + 1) ||
        !tl__content_ids_reserve(ctx, (ctx->ids.mem ? tl__content_idmap_count(ctx->ids) : 0) + 1) ||
        !tl__content_names_reserve(
            ctx, (ctx->names.mem ? tl__content_namemap_count(ctx->names) : 0) + 1)) {
        TL_FREE(name);
        TL_FREE(path);
        return NULL;
    }
    e = &d->entries[count];
    memset(e, 0, sizeof *e);
    e->id = tl__live_new_id(ctx, d->source, name, &in_catalog);
    e->dir = dir;
    e->slot = TL__CONTENT_NONE;
    e->archive = TL__CONTENT_NONE;
    e->codec = TL_CF_CODEC_RAW;
    e->name = name;
    e->path = path;
    e->size = e->stored = f->sig.size;
    lf = &d->source->files[count];
    memset(lf, 0, sizeof *lf);
    lf->in_catalog = in_catalog;
    d->entry_count++;
    tl__content_idmap_try_add(ctx->ids, e->id, e);
    (void)tl__content_namemap_try_add(ctx->names, tl__content_name_hash(name, f->name_len),
                                      e); /* first registered answers */
    return e;
}

/* This directory's entry of a scanned file's name, or NULL. */
static tl__content_entry *tl__live_find(const tl_content *ctx, uint32_t dir,
                                        const tl__live_found *f) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_entry_ptr *p =
        ctx->names.mem
            ? tl__content_namemap_get(ctx->names, tl__content_name_hash(f->rel, f->name_len))
            : NULL;
    uint32_t i;
    if (p && (*p)->dir == dir &&
        tl_text_fold_compare((*p)->name, strlen((*p)->name), f->rel, f->name_len) == 0)
        return *p;
    if (!p) return NULL;
    for (i = 0; i < d->entry_count; i++) /* another directory answers the name: look here */
        if (tl_text_fold_compare(d->entries[i].name, strlen(d->entries[i].name), f->rel,
                                 f->name_len) == 0)
            return &d->entries[i];
    return NULL;
}

static void tl__live_reload(tl_content *ctx, uint32_t slot);

/* A scanned file that has an entry: same name, maybe another path or category, maybe new bytes. */
static bool tl__live_update_entry(tl__content_entry *e, tl__live_file *lf,
                                  const tl__live_found *f) {
    bool changed =
        !lf->present || !tl__live_sig_same(&lf->sig, &f->sig) || strcmp(e->path, f->rel) != 0;
    if (strcmp(e->path, f->rel) != 0) {
        char *path = tl__content_strdup(f->rel);
        if (path) {
            TL_FREE((void *)(uintptr_t)e->path);
            e->path = path;
        }
    }
    e->category = f->category;
    lf->sig = f->sig;
    lf->present = lf->seen = 1;
    return changed;
}

/* Reloads what is held and changed; ids of the changed entries are gathered first, since a
   reload's callbacks may add entries (which moves them). */
static void tl__live_reload_ids(tl_content *ctx, const uint32_t *ids, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, ids[i]);
        if (e && e->slot != TL__CONTENT_NONE) tl__live_reload(ctx, e->slot);
    }
}

/* Makes the directory what the scan found: known names updated, new ones added, missing ones
   marked deleted (held assets stay); then the held assets whose files changed are reloaded. */
static void tl__live_apply(tl_content *ctx, uint32_t dir, const tl__live_scan *sc) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0,
                *changed = (uint32_t *)tl__content_zalloc((size_t)(sc->len + 1) * sizeof *changed);
    for (i = 0; i < d->entry_count; i++) d->source->files[i].seen = 0;
    for (i = 0; i < sc->len; i++) {
        const tl__live_found *f = &sc->files[i];
        tl__content_entry *e = tl__live_find(ctx, dir, f);
        if (!e && (e = tl__live_add_entry(ctx, dir, f)) == NULL) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "source tree");
            continue;
        }
        d = &ctx->dirs[dir];
        if (tl__live_update_entry(e, tl__live_file_of(ctx, e), f) && changed &&
            e->slot != TL__CONTENT_NONE)
            changed[n++] = e->id;
    }
    for (i = 0; i < d->entry_count; i++)
        if (!d->source->files[i].seen) d->source->files[i].present = 0;
    tl__live_reload_ids(ctx, changed, n);
    TL_FREE(changed);
}

/* --- the root: the folder at its path --------------------------------------------------------- */

/* The root is the folder at the source's path, whichever it is now: an exporter that clears its
   output folder deletes the root and makes another. Its descriptor (every read goes beneath it)
   is checked against the path when the tree is read again and when a read fails, so a root made
   again is read from; while no folder is there, loads say the root went away. */
enum { TL__LIVE_ROOT_SAME, TL__LIVE_ROOT_NEW, TL__LIVE_ROOT_GONE };
#define TL__LIVE_ROOT_GONE_WHY \
    "its source root went away (deleted or moved; served again once a folder is at its path)"

static void tl__live_unwatch(tl__content_source *src);

/* The folder at path opened as the root: its descriptor, real path and identity; false (the
   root as it was) when there is none. */
static bool tl__live_root_open(tl__content_source *src, const char *path) {
    struct stat st;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char *real = fd >= 0 ? realpath(path, NULL) : NULL;
    if (!real || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        free(real);
        return false;
    }
    if (src->root_fd >= 0) close(src->root_fd);
    free(src->real_root); /* realpath's */
    src->root_fd = fd;
    src->real_root = real;
    src->root_id.dev = (uint64_t)st.st_dev;
    src->root_id.ino = (uint64_t)st.st_ino;
    return true;
}

/* Whether the root's descriptor is the folder at its path still (one stat): another folder there
   is opened in its place (NEW), none marks the source gone (GONE, said once; the watches of the
   folders deleted dropped). Leaving GONE or opening another root asks for the tree to be read. */
static int tl__live_root_follow(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    bool was_gone = src->root_gone;
    if (tl__live_folder_is(d->path, &src->root_id)) {
        src->root_gone = false;
        src->rescan = src->rescan || was_gone;
        if (was_gone)
            tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                            "the source root is back: served from it again");
        return TL__LIVE_ROOT_SAME;
    }
    if (!tl__live_root_open(src, d->path)) {
        src->root_gone = true;
        if (was_gone) return TL__LIVE_ROOT_GONE;
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_ROOT_GONE, d->path);
        tl__live_unwatch(src);
        return TL__LIVE_ROOT_GONE;
    }
    src->root_gone = false;
    src->rescan = true;
    tl__live_unwatch(src); /* the watches were of the folders deleted */
    tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                    "the source root is another folder now (deleted and made again?): served "
                    "from it");
    return TL__LIVE_ROOT_NEW;
}

/* --- reading and reloading ------------------------------------------------------------------- */

/* --- reading beneath the root ------------------------------------------------------------------- */

/* Every source file is read beneath the root's descriptor, never by its path: a file or folder
   swapped for a link out of the root (or for a FIFO) is refused, whenever the swap happened. A
   link inside the root is followed when it resolves beneath the root: relative targets component
   by component (".." never above the root), an absolute one only when its real path is in the
   root's. Linux: openat2 with RESOLVE_BENEATH first; the walk otherwise, and for its refusals. */
#define TL__LIVE_MAX_LINKS 40
#define TL__LIVE_OUT \
    "its path leads out of the source root through a symbolic link (links are followed only inside the root)"
#define TL__LIVE_MISSING "its file is missing or unreadable (deleted or renamed meanwhile?)"

typedef struct tl__live_beneath {
    const tl__content_source *src;
    int *fds; /* the folders walked into below the root, innermost last */
    uint32_t depth, cap;
    char *path; /* the path being walked, '/'-separated; `at` is where its unwalked rest begins */
    size_t at;
    unsigned links;
    const char *why;
} tl__live_beneath;

static int tl__live_here(const tl__live_beneath *b) {
    return b->depth ? b->fds[b->depth - 1] : b->src->root_fd;
}

static void tl__live_up(tl__live_beneath *b) { close(b->fds[--b->depth]); }

/* The next component of the path into name (empty ones and "." skipped); false at its end, and
   for one longer than any file name (why: missing; never cut to a name that may exist). */
static bool tl__live_next(tl__live_beneath *b, char *name, size_t cap) {
    for (;;) {
        const char *p = b->path + b->at;
        size_t n = strcspn(p, "/");
        if (!*p) return false;
        b->at += n + (p[n] == '/');
        if (n == 0 || (n == 1 && p[0] == '.')) continue;
        if (n >= cap) {
            b->why = TL__LIVE_MISSING;
            return false;
        }
        memcpy(name, p, n);
        name[n] = 0;
        return true;
    }
}

static bool tl__live_last(const tl__live_beneath *b) {
    const char *p = b->path + b->at;
    while (*p == '/' || (p[0] == '.' && (p[1] == '/' || !p[1]))) p++;
    return !*p;
}

/* The rest of the path becomes `target` then the rest (a link's target, spliced in). */
static bool tl__live_splice(tl__live_beneath *b, const char *target) {
    size_t t = strlen(target), r = strlen(b->path + b->at);
    char *joined = (char *)TL_MALLOC(t + r + 2);
    if (!joined) return false;
    memcpy(joined, target, t);
    joined[t] = '/';
    memcpy(joined + t + 1, b->path + b->at, r + 1);
    TL_FREE(b->path);
    b->path = joined;
    b->at = 0;
    return true;
}

/* An absolute link target: followed from the root when its real path is in the root's. */
static bool tl__live_follow_absolute(tl__live_beneath *b, const char *target) {
    char *real = realpath(target, NULL);
    size_t n = strlen(b->src->real_root);
    bool inside = real && tl__live_inside(b->src->real_root, real);
    if (inside) {
        while (b->depth) tl__live_up(b);
        inside = tl__live_splice(b, real[n] == '/' ? real + n + 1 : real + n);
        if (!inside) b->why = "out of memory";
    } else {
        b->why = real ? TL__LIVE_OUT : "its path has a broken symbolic link";
    }
    free(real);
    return inside;
}

/* `name` in the current folder, when it is a link: its target spliced in. False with why
   when it is no link (why: missing), leads out, or links too many times (a loop). */
static bool tl__live_follow(tl__live_beneath *b, const char *name) {
    char target[4096];
    struct stat st;
    ssize_t n;
    b->why = TL__LIVE_MISSING;
    if (fstatat(tl__live_here(b), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
        return false;
    n = readlinkat(tl__live_here(b), name, target, sizeof target - 1);
    if (n <= 0) return false;
    target[n] = 0;
    if (++b->links > TL__LIVE_MAX_LINKS) {
        b->why = "its path has too many symbolic links (a loop?)";
        return false;
    }
    if (target[0] == '/') return tl__live_follow_absolute(b, target);
    if (tl__live_splice(b, target)) return true;
    b->why = "out of memory";
    return false;
}

/* One step: into a folder (pushed), up (".."; never above the root), or the file (returned). */
static int tl__live_step(tl__live_beneath *b, const char *name, bool *done) {
    bool last = tl__live_last(b);
    int fd;
    *done = false;
    if (strcmp(name, "..") == 0) {
        *done = b->depth == 0;
        if (*done) b->why = TL__LIVE_OUT;
        else tl__live_up(b);
        return -1;
    }
    fd = openat(tl__live_here(b), name,
                O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
    if (fd < 0) {
        *done = !tl__live_follow(b, name);
        return -1;
    }
    *done = last;
    if (last) return fd;
    if (!tl__content_grow((void **)&b->fds, &b->cap, sizeof *b->fds, b->depth + 1)) {
        close(fd);
        b->why = "out of memory";
        *done = true;
        return -1;
    }
    b->fds[b->depth++] = fd;
    return -1;
}

/* The walk: every component opened with O_NOFOLLOW beneath the root, links resolved by hand. */
static int tl__live_walk_beneath(const tl__content_source *src, const char *rel, const char **why) {
    tl__live_beneath b;
    char name[256];
    bool done = false;
    int fd = -1;
    memset(&b, 0, sizeof b);
    b.src = src;
    b.why = TL__LIVE_MISSING;
    b.path = tl__content_strdup(rel);
    if (!b.path) b.why = "out of memory";
    while (b.path && !done && tl__live_next(&b, name, sizeof name))
        fd = tl__live_step(&b, name, &done);
    while (b.depth) tl__live_up(&b);
    TL_FREE(b.fds);
    TL_FREE(b.path);
    *why = b.why;
    return fd;
}

/* A descriptor of the regular file at rel beneath the root, or -1 with *why (a file that is not
   regular is logged, naming it). */
static int tl__live_open_beneath(tl_content *ctx, const tl__content_dirrec *d, const char *rel,
                                 const char **why) {
    struct stat st;
    int fd = -1;
#ifdef TL__LIVE_OPENAT2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    fd = (int)syscall(SYS_openat2, d->source->root_fd, rel, &how, sizeof how);
#endif
    if (fd < 0) fd = tl__live_walk_beneath(d->source, rel, why);
    if (fd < 0) return -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return fd;
    close(fd);
    *why = "its file is " TL__CONTENT_NOT_REGULAR;
    {
        char *path = tl__content_join(d->path, rel, NULL);
        tl__content_log(ctx, TL_CONTENT_LOG_NOT_A_FILE, path ? path : rel,
                        tl__content_kind_phrase((unsigned long)st.st_mode));
        TL_FREE(path);
    }
    return -1;
}

/* Reads size bytes from fd into buf (from its start); false on an error or a short read. */
static bool tl__live_read_fd(int fd, unsigned char *buf, size_t size) {
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        got += (size_t)n;
    }
    return true;
}

/* A source file's bytes as they are now, read beneath the root's descriptor. */
static unsigned char *tl__live_read_beneath(tl_content *ctx, const tl__content_entry *e,
                                            uint64_t *size, const char **why) {
    struct stat st;
    unsigned char *buf = NULL;
    int fd = tl__live_open_beneath(ctx, &ctx->dirs[e->dir], e->path, why);
    if (fd < 0) return NULL;
    *why = "read error";
    if (fstat(fd, &st) == 0) {
        *size = (uint64_t)st.st_size;
        *why = "larger than this runtime accepts";
        if (*size <= TL_CONTENT_MAX_ASSET_BYTES)
            buf = (unsigned char *)TL_MALLOC((size_t)*size + 1);
        if (buf && !tl__live_read_fd(fd, buf, (size_t)*size)) {
            TL_FREE(buf);
            buf = NULL;
            *why = "read error";
        }
    }
    close(fd);
    return buf;
}

/* A source file's bytes as they are now (its size read from the file, not the record). A read
   that fails looks at the root: made again, the file is read from the new one; gone, the load
   says so (not that the file is missing). */
static unsigned char *tl__live_read_source(tl_content *ctx, const tl__content_entry *e,
                                           uint64_t *size, const char **why) {
    const tl__content_source *src = ctx->dirs[e->dir].source;
    int root = src->root_gone ? tl__live_root_follow(ctx, e->dir) : TL__LIVE_ROOT_SAME;
    unsigned char *buf =
        root == TL__LIVE_ROOT_GONE ? NULL : tl__live_read_beneath(ctx, e, size, why);
    if (!buf && root == TL__LIVE_ROOT_SAME &&
        (root = tl__live_root_follow(ctx, e->dir)) == TL__LIVE_ROOT_NEW)
        buf = tl__live_read_beneath(ctx, e, size, why);
    if (!buf && root == TL__LIVE_ROOT_GONE) *why = TL__LIVE_ROOT_GONE_WHY;
    return buf;
}

/* A flat build's file, through the context's I/O (its size read from the file). */
static unsigned char *tl__live_read(tl_content *ctx, const tl__content_entry *e, uint64_t *size,
                                    const char **why) {
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    char *path = tl__content_join(d->path, e->path, NULL);
    bool special = false;
    void *f = path ? tl__content_open(ctx, path, size, &special) : NULL;
    unsigned char *buf = NULL;
    TL_FREE(path);
    *why = special ? "its file is " TL__CONTENT_NOT_REGULAR : TL__LIVE_MISSING;
    if (!f) return NULL;
    *why = "larger than this runtime accepts";
    if (*size <= TL_CONTENT_MAX_ASSET_BYTES) {
        buf = (unsigned char *)TL_MALLOC((size_t)*size + 1);
        *why = "read error";
        if (buf && !ctx->io.read(ctx->io.user, f, 0, buf, (size_t)*size)) {
            TL_FREE(buf);
            buf = NULL;
        }
    }
    ctx->io.close(ctx->io.user, f);
    return buf;
}

/* content.h's read of a source entry: the record takes the file's size and XXH64. */
static unsigned char *tl__content_live_read_stored(tl_content *ctx, tl__content_entry *e,
                                                   const char **why, uint64_t *hash, bool *hashed) {
    uint64_t size = 0;
    unsigned char *buf;
    if (!tl__live_file_of(ctx, e)->present) {
        *why = "its file was deleted from the source tree";
        return NULL;
    }
    buf = tl__live_read_source(ctx, e, &size, why);
    if (!buf) {
        ctx->dirs[e->dir].source->rescan = true; /* the tree changed under us: look again */
        return NULL;
    }
    e->size = e->stored = size;
    e->xxh64 = *hash = tl_hash64(buf, (size_t)size, 0);
    *hashed = true;
    tl__live_file_of(ctx, e)->loaded = 1;
    return buf;
}

/* Decodes new bytes for a slot's kind (NULL with *why on failure); takes the bytes. */
static void *tl__live_decode(tl_content *ctx, uint32_t slot, uint32_t kind, unsigned char *bytes,
                             uint64_t size, const char **why) {
    tl_content_info info;
    void *object;
    if (kind == TL__CONTENT_NONE) return bytes;
    tl__content_info(ctx, ctx->slots[slot].entry, &info);
    info.size = size;
    info.reload = true;
    ctx->in_callback++;
    object = ctx->kinds[kind].decode(ctx->kinds[kind].user, &info, bytes, (size_t)size);
    ctx->in_callback--;
    TL_FREE(bytes);
    *why = "the decoder refused it";
    return object;
}

/* The object swapped in the slot, the kind told (old, new), the old object destroyed; the
   entry's record is the caller's. */
static void tl__live_swap_object(tl_content *ctx, uint32_t slot, uint32_t kind, void *object,
                                 uint64_t size) {
    tl__content_slot *s = &ctx->slots[slot];
    tl__content_entry *e = s->entry;
    void *old = s->object;
    tl__content_map old_map = s->map;
    uint32_t old_kind = s->kind;
    tl_content_info info;
    s->object = object;
    s->map.base = NULL; /* new bytes are read, never mapped */
    s->size = size;
    s->kind = kind;
    ctx->reloads++;
    tl__content_info(ctx, e, &info);
    info.reload = true;
    tl__content_log(ctx, TL_CONTENT_LOG_RELOADED, e->name);
    ctx->in_callback++;
    if (kind != TL__CONTENT_NONE && ctx->kinds[kind].reload)
        ctx->kinds[kind].reload(ctx->kinds[kind].user, &info, old, object);
    if (old_kind == TL__CONTENT_NONE) tl__content_free_bytes(old, &old_map);
    else if (ctx->kinds[old_kind].destroy)
        ctx->kinds[old_kind].destroy(ctx->kinds[old_kind].user, &info, old);
    ctx->in_callback--;
}

/* A source or flat entry's new bytes: its record takes their size and XXH64, then the swap. */
static void tl__live_swap(tl_content *ctx, uint32_t slot, uint32_t kind, void *object,
                          uint64_t size, uint64_t hash) {
    tl__content_entry *e = ctx->slots[slot].entry;
    e->size = e->stored = size;
    e->xxh64 = hash;
    tl__live_swap_object(ctx, slot, kind, object, size);
}

/* A held, ready asset whose file changed: new bytes decoded and swapped in, or the old object
   kept (logged) when they cannot be read or decoded. Unchanged bytes (a touch) do nothing. */
static void tl__live_reload(tl_content *ctx, uint32_t slot) {
    tl__content_slot *s = &ctx->slots[slot];
    tl__content_entry *e = s->entry;
    uint64_t size = 0, hash;
    const char *why = NULL;
    uint32_t kind;
    unsigned char *bytes;
    void *object;
    if (s->state != TL__SLOT_READY || s->count == 0) return;
    bytes = tl__live_read_source(ctx, e, &size, &why);
    if (!bytes) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name, why);
        return;
    }
    hash = tl_hash64(bytes, (size_t)size, 0);
    if (hash == e->xxh64 && size == e->size) {
        TL_FREE(bytes);
        return;
    }
    kind = tl__content_kind_of(ctx, e);
    object = tl__live_decode(ctx, slot, kind, bytes, size, &why);
    if (!object) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
        return;
    }
    tl__live_swap(ctx, slot, kind, object, size, hash);
}

/* --- watching ---------------------------------------------------------------------------------- */

static void tl__live_unwatch(tl__content_source *src) {
#ifdef TL__LIVE_INOTIFY
    if (src->fd >= 0) close(src->fd);
#endif
    src->fd = src->root_wd = src->parent_wd = -1;
    TL_FREE(src->wds);
    src->wds = NULL;
}

#ifdef TL__LIVE_INOTIFY
#define TL__LIVE_FOLDER_EVENTS \
    (IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
     IN_DELETE_SELF | IN_MOVE_SELF)
/* The root's own: it moved (its path may name another folder now), or an entry was made in it
   (a category folder, back). The root as a category's folder has both. Its deletion is heard in
   the folder that holds it: the root's descriptor, open, holds back its IN_DELETE_SELF. */
#define TL__LIVE_ROOT_EVENTS (IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
#define TL__LIVE_PARENT_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

/* A watch of path into *wd: false when inotify refuses it (the watch limit, say); a folder gone
   since the tree was read is left unwatched (-1) and the tree read again. */
static bool tl__live_add_watch(tl__content_source *src, int *wd, const char *path, uint32_t mask) {
    *wd = path ? inotify_add_watch(src->fd, path, mask) : -1;
    if (*wd >= 0 || !path || (errno != ENOENT && errno != ENOTDIR)) return *wd >= 0;
    src->rescan = true;
    return true;
}
#endif

/* inotify: a watch of the root, then (with `folders`) one of each folder of the tree, renewed
   after every read of it; the poll otherwise. Without `folders` (a new root whose tree is
   refused) the root's watch says when a category folder is made in it. */
static void tl__live_watch(tl_content *ctx, tl__content_dirrec *d, bool folders) {
    tl__content_source *src = d->source;
    tl__live_unwatch(src);
#ifdef TL__LIVE_INOTIFY
    if (!src->poll) {
        uint32_t i;
        char *parent = tl__live_parent(d->path);
        bool ok;
        src->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        src->wds = (int *)tl__content_zalloc((size_t)(src->dir_len + 1) * sizeof *src->wds);
        /* The root's folder is watched where it may be (not always readable); the root must be. */
        if (src->fd >= 0 && parent)
            src->parent_wd = inotify_add_watch(src->fd, parent, TL__LIVE_PARENT_EVENTS);
        TL_FREE(parent);
        ok = src->fd >= 0 && src->wds &&
             tl__live_add_watch(src, &src->root_wd, d->path, TL__LIVE_ROOT_EVENTS);
        for (i = 0; ok && i < src->dir_len; i++) {
            src->wds[i] = -1;
            if (folders)
                ok =
                    tl__live_add_watch(src, &src->wds[i], tl__live_path(src, d->path, src->dirs[i]),
                                       TL__LIVE_FOLDER_EVENTS);
        }
        if (ok) return;
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                        "inotify is not available (watch limit?): polling instead");
        tl__live_unwatch(src);
        src->poll = true;
    }
#else
    (void)ctx;
    (void)folders;
    src->poll = true;
#endif
}

static void tl__live_take_dirs(tl__content_source *src, tl__live_scan *sc) {
    uint32_t i;
    for (i = 0; i < src->dir_len; i++) TL_FREE(src->dirs[i]);
    TL_FREE(src->dirs);
    TL_FREE(src->dir_sigs);
    src->dirs = sc->dirs;
    src->dir_sigs = sc->dir_sigs;
    src->dir_len = sc->dir_len;
    sc->dirs = NULL;
    sc->dir_sigs = NULL;
    sc->dir_len = 0;
}

/* What a read of the tree skipped, remembered as warned about: in place of the last list after
   a whole read, added to it after one that stopped at a refusal (it may not have gone on to them). */
static void tl__live_take_skipped(tl__content_source *src, tl__live_scan *sc, bool whole) {
    uint32_t i;
    if (whole) {
        for (i = 0; i < src->skipped_len; i++) TL_FREE(src->skipped[i]);
        TL_FREE(src->skipped);
        src->skipped = sc->skipped;
        src->skipped_len = sc->skipped_len;
        src->skipped_cap = sc->skipped_cap;
        sc->skipped = NULL;
        sc->skipped_len = sc->skipped_cap = 0;
        return;
    }
    for (i = 0; i < sc->skipped_len; i++) {
        if (tl__live_listed(src->skipped, src->skipped_len, sc->skipped[i]) ||
            !tl__content_grow((void **)&src->skipped, &src->skipped_cap, sizeof *src->skipped,
                              src->skipped_len + 1))
            continue;
        src->skipped[src->skipped_len++] = sc->skipped[i];
        sc->skipped[i] = NULL;
    }
}

/* Folder time stamps this close before a read of the tree may hide a file added after it: the
   add can fall in the clock tick of the folder's last change (a jiffy on Linux, a second on
   HFS+ or ext3), leaving its time stamp as it was (git's "racy" entries). */
#define TL__LIVE_RACY_NS ((int64_t)2000000000)

static int64_t tl__live_wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A read of the tree refused: logged (not again while the reason stays the one logged: the poll
   reads a refused tree at every update). A root made again whose tree is refused (its category
   folders not there yet) has its inotify watch armed for them. */
static void tl__live_refused(tl_content *ctx, uint32_t dir, const char *why) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint64_t said = tl_hash64(why, strlen(why), 0) | 1;
    if (said != src->refused)
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_REFUSED, ctx->dirs[dir].path, why);
    src->refused = said;
    if (src->fd < 0 && !src->poll) tl__live_watch(ctx, &ctx->dirs[dir], false);
}

/* The tree read again and served as it is now; a tree pack would refuse keeps the old names. */
static void tl__live_rescan(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    tl__live_scan sc;
    int64_t started = tl__live_wall_ns();
    bool whole;
    src->rescan = false;
    if (tl__live_root_follow(ctx, dir) == TL__LIVE_ROOT_GONE) return; /* read once it is back */
    memset(&sc, 0, sizeof sc);
    sc.ctx = ctx;
    sc.warned = src->skipped;
    sc.warned_len = src->skipped_len;
    src->busy = true;
    whole = tl__live_scan_tree(src, ctx->dirs[dir].profile, ctx->dirs[dir].path, &sc);
    tl__live_take_skipped(ctx->dirs[dir].source, &sc, whole);
    if (whole) {
        src->refused = 0;
        src->scanned_ns = started;
        tl__live_apply(ctx, dir, &sc);
        tl__live_take_dirs(ctx->dirs[dir].source, &sc);
        tl__live_watch(ctx, &ctx->dirs[dir], true);
    } else {
        tl__live_refused(ctx, dir, sc.why);
    }
    tl__live_scan_free(&sc);
    ctx->dirs[dir].source->busy = false;
}

/* A file whose contents may have changed: its signature compared; a held asset is marked for its
   reload, which waits until the additions of this update are read (tl__live_notice). */
static void tl__live_check_file(tl_content *ctx, uint32_t dir, uint32_t i) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    const char *path = tl__live_path(src, d->path, d->entries[i].path);
    struct stat st;
    tl__live_sig sig;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        src->rescan = true; /* gone, or no longer a file */
        return;
    }
    sig = tl__live_sig_of(&st);
    if (tl__live_sig_same(&sig, &src->files[i].sig)) return;
    src->files[i].sig = sig;
    if (d->entries[i].slot == TL__CONTENT_NONE || src->files[i].dirty) return;
    if (!tl__content_grow((void **)&src->dirty_ids, &src->dirty_cap, sizeof *src->dirty_ids,
                          src->dirty + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "source reloads");
        tl__live_reload(ctx, d->entries[i].slot); /* now, then */
        return;
    }
    src->files[i].dirty = 1;
    src->dirty_ids[src->dirty++] = d->entries[i].id;
}

/* The held assets marked dirty and still in the tree, reloaded by id (a reload's callbacks may
   add entries, which moves them). */
static void tl__live_reload_dirty(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint32_t *ids = src->dirty_ids, n = src->dirty, i, kept = 0;
    if (!n) return;
    src->dirty_ids = NULL;
    src->dirty = src->dirty_cap = 0;
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, ids[i]);
        tl__live_file *lf = e && e->dir == dir ? tl__live_file_of(ctx, e) : NULL;
        if (!lf) continue;
        lf->dirty = 0;
        if (lf->present) ids[kept++] = ids[i]; /* the tree read since may have dropped it */
    }
    tl__live_reload_ids(ctx, ids, kept);
    TL_FREE(ids);
}

static void tl__live_check_dir(tl_content *ctx, uint32_t dir, uint32_t i) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    const char *path = tl__live_path(src, d->path, src->dirs[i]);
    struct stat st;
    tl__live_sig sig;
    if (!path || stat(path, &st) != 0) {
        src->rescan = true;
        return;
    }
    sig = tl__live_sig_of(&st);
    if (!tl__live_sig_same(&sig, &src->dir_sigs[i]))
        src->rescan = true; /* added, removed or renamed */
}

static int64_t tl__live_clock_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The poll: at most `budget` stat calls and `budget_us` microseconds per update (the clock read
   every 8 calls), files then folders, round after round. */
static void tl__live_poll(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    int64_t until = tl__live_clock_us() + src->budget_us;
    uint32_t k;
    for (k = 0;
         k < src->budget && !src->rescan && ((k & 7) || k == 0 || tl__live_clock_us() < until);
         k++) {
        uint32_t files = ctx->dirs[dir].entry_count, total = files + src->dir_len, c;
        if (!total) return;
        c = src->cursor++ % total;
        if (src->cursor >= total) src->cursor = 0;
        if (c >= files) tl__live_check_dir(ctx, dir, c - files);
        else if (src->files[c].present) tl__live_check_file(ctx, dir, c);
    }
}

#ifdef TL__LIVE_INOTIFY
/* The entry whose file is folder `wd`'s `name`, or NONE. */
static uint32_t tl__live_entry_at(const tl_content *ctx, uint32_t dir, int wd, const char *name) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    const tl__content_source *src = d->source;
    uint32_t f, i;
    size_t n;
    for (f = 0; f < src->dir_len && src->wds[f] != wd; f++) {}
    if (f == src->dir_len) return TL__CONTENT_NONE;
    n = strlen(src->dirs[f]);
    for (i = 0; i < d->entry_count; i++) {
        const char *p = d->entries[i].path;
        if (!d->source->files[i].present || strncmp(p, src->dirs[f], n) != 0) continue;
        if (n) {
            if (p[n] != '/') continue;
            p += n + 1;
        }
        if (strcmp(p, name) == 0) return i;
    }
    return TL__CONTENT_NONE;
}

/* One event: a write or touch of a known file checks that file; anything else (a file added,
   deleted or renamed, a folder's change, lost events) reads the tree again. */
static void tl__live_event(tl_content *ctx, uint32_t dir, const struct inotify_event *ev) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint32_t i;
    if (ev->wd == src->parent_wd && ev->wd != src->root_wd) { /* the root's entry, not others */
        if (ev->len && tl__live_is_base(ctx->dirs[dir].path, ev->name)) src->rescan = true;
        return;
    }
    if (ev->len && tl_cf_source_hidden(ev->name)) return; /* editor swap files and the like */
    if (!(ev->mask & IN_ISDIR) && (ev->mask & (IN_CLOSE_WRITE | IN_ATTRIB)) && ev->len &&
        (i = tl__live_entry_at(ctx, dir, ev->wd, ev->name)) != TL__CONTENT_NONE) {
        /* Written: reloaded even when the time stamp did not move (writes within one clock tick);
           unchanged bytes are recognised by their hash. */
        if (ev->mask & IN_CLOSE_WRITE) ctx->dirs[dir].source->files[i].sig.mtime_ns--;
        tl__live_check_file(ctx, dir, i);
        return;
    }
    /* A folder's watch removed (renewed after each scan); the root's: it went away */
    if ((ev->mask & IN_IGNORED) && ev->wd != ctx->dirs[dir].source->root_wd) return;
    ctx->dirs[dir].source->rescan = true;
}

/* Every pending event; when nothing changed, one read() that finds none. */
static void tl__live_drain_events(tl_content *ctx, uint32_t dir) {
    union {
        struct inotify_event ev;
        char bytes[8192];
    } buf;
    for (;;) {
        ssize_t n = read(ctx->dirs[dir].source->fd, buf.bytes, sizeof buf.bytes);
        char *p = buf.bytes;
        if (n <= 0) return;
        while (p < buf.bytes + n) {
            struct inotify_event ev;
            memcpy(&ev, p, sizeof ev);
            if (ev.mask & IN_Q_OVERFLOW) ctx->dirs[dir].source->rescan = true;
            else tl__live_event(ctx, dir, (const struct inotify_event *)(void *)p);
            p += sizeof ev + ev.len;
        }
    }
}
#endif

/* Whether a folder of the tree may hold a file the last read of it did not see: every folder
   stat'ed, its signature changed or its time stamp racy (TL__LIVE_RACY_NS). */
static bool tl__live_folders_moved(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    uint32_t i;
    for (i = 0; i < src->dir_len; i++) {
        const char *path = tl__live_path(src, d->path, src->dirs[i]);
        struct stat st;
        tl__live_sig sig;
        if (!path || stat(path, &st) != 0) return true;
        sig = tl__live_sig_of(&st);
        if (!tl__live_sig_same(&sig, &src->dir_sigs[i]) ||
            sig.mtime_ns >= src->scanned_ns - TL__LIVE_RACY_NS)
            return true;
    }
    return false;
}

/* What changed in one source directory since the last update: additions first, then reloads,
   so that a reload's decoder or callback finds a file added just before (a sprite added, then
   the level that uses it saved). inotify has queued every event by now; the poll, which may not
   have reached the new file's folder yet, stats every folder of the tree when a held file
   changed, and reads the tree again before it reloads when one moved. */
static void tl__live_notice(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    if (src->busy) return;
    if (src->root_gone && tl__live_root_follow(ctx, dir) == TL__LIVE_ROOT_GONE) return;
#ifdef TL__LIVE_INOTIFY
    if (src->fd >= 0) tl__live_drain_events(ctx, dir);
#endif
    if (src->poll) tl__live_poll(ctx, dir);
    if (src->poll && src->dirty && !src->rescan && tl__live_folders_moved(ctx, dir))
        src->rescan = true;
    if (ctx->dirs[dir].alive && ctx->dirs[dir].source->rescan) tl__live_rescan(ctx, dir);
    if (ctx->dirs[dir].alive) tl__live_reload_dirty(ctx, dir);
}

static void tl__live_flat_check(tl_content *ctx, uint32_t dir);
static void tl__live_packed_check(tl_content *ctx, uint32_t dir);

/* content.h's hook in tl_content_update. */
static void tl__content_live_update(tl_content *ctx) {
    uint32_t i;
    for (i = 0; i < ctx->dir_len; i++) {
        if (tl__live_of(ctx, i)) tl__live_notice(ctx, i);
        else if (ctx->dirs[i].alive && ctx->dirs[i].flat && ctx->dirs[i].packed)
            tl__live_packed_check(ctx, i);
        else if (ctx->dirs[i].alive && ctx->dirs[i].flat) tl__live_flat_check(ctx, i);
    }
}

/* Whether the folder a name would be in holds a file of that name now (one folder listed: the
   poll may not have reached it, and an add within the clock tick of the folder's last change
   leaves its time stamp as it was). */
static bool tl__live_may_exist(tl_content *ctx, uint32_t dir, const char *name) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    const char *slash = strrchr(name, '/');
    char *folder = slash ? tl__live_strndup(name, (size_t)(slash - name)) : tl__content_strdup("");
    const char *path = folder ? tl__live_path(d->source, d->path, folder) : NULL;
    uint32_t n = 0, i;
    char **names = path ? tl__live_list(path, &n) : NULL;
    bool found = false;
    for (i = 0; i < n; i++) {
        size_t len = strlen(names[i]), base = slash ? (size_t)(slash - name) + 1 : 0;
        size_t stem = tl_cf_asset_name_len(names[i], len, d->source->names);
        found =
            found || tl_text_fold_compare(names[i], stem, name + base, strlen(name + base)) == 0;
        TL_FREE(names[i]);
    }
    TL_FREE(names);
    TL_FREE(folder);
    return found;
}

/* content.h's hook for a name no directory answers: a file added since the tree was last read
   resolves now. inotify has queued its events already; the poll looks in the name's folder.
   Never from a callback. */
static tl__content_entry *tl__content_live_miss(tl_content *ctx, const char *name) {
    uint32_t i;
    bool again = false;
    if (!ctx || !name || ctx->in_callback || ctx->shutting_down) return NULL;
    for (i = 0; i < ctx->dir_len; i++) {
        tl__content_source *src = tl__live_of(ctx, i);
        if (!src || src->busy) continue;
        if (src->poll && tl__live_may_exist(ctx, i, name)) src->rescan = true;
#ifdef TL__LIVE_INOTIFY
        if (src->fd >= 0) tl__live_drain_events(ctx, i);
#endif
        if (!ctx->dirs[i].alive || !ctx->dirs[i].source->rescan) continue;
        tl__live_rescan(ctx, i);
        again = true;
    }
    return again ? tl__content_entry_named(ctx, name) : NULL;
}

static bool tl__live_ghost(const tl__content_dirrec *d, const tl__content_entry *e);
static void tl__live_unwatch_build(struct tl__live_flat *w);

/* content.h's hook before a load: why a deleted file's asset, or one the latest pack dropped,
   loads no more (a held one stays), or NULL. */
static const char *tl__content_live_deleted(const tl_content *ctx, const tl__content_entry *e) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    if (d->source && !tl__live_file_of(ctx, e)->present)
        return "its file was deleted from the source tree";
    if (tl__live_ghost(d, e)) return "the directory's latest pack does not have it";
    return NULL;
}

/* --- registering ---------------------------------------------------------------------------------- */

static void tl__live_source_free(tl__content_source *src) {
    uint32_t i;
    if (!src) return;
    tl__live_unwatch(src);
    if (src->root_fd >= 0) close(src->root_fd);
    free(src->real_root); /* realpath's */
    for (i = 0; i < src->category_count; i++) {
        if (src->category_names) TL_FREE(src->category_names[i]);
        if (src->folders) TL_FREE(src->folders[i]);
    }
    for (i = 0; i < src->dir_len; i++) TL_FREE(src->dirs[i]);
    for (i = 0; i < src->skipped_len; i++) TL_FREE(src->skipped[i]);
    TL_FREE(src->skipped);
    TL_FREE(src->category_names);
    TL_FREE(src->folders);
    TL_FREE(src->dirs);
    TL_FREE(src->dir_sigs);
    TL_FREE(src->files);
    TL_FREE(src->dirty_ids);
    TL_FREE(src->scope);
    TL_FREE(src);
}

/* content.h's hook in its directory free: what the source owns (names, paths, the watch). */
static void tl__content_live_free(tl_content *ctx, tl__content_dirrec *d) {
    uint32_t i;
    (void)ctx;
    if (d->flat) tl__live_unwatch_build(d->flat);
    TL_FREE(d->flat);
    d->flat = NULL;
    for (i = 0; i < d->entry_count; i++)
        if (tl__live_ghost(d, &d->entries[i])) TL_FREE((void *)(uintptr_t)d->entries[i].name);
    if (!d->source) return;
    for (i = 0; i < d->entry_count; i++) {
        TL_FREE((void *)(uintptr_t)d->entries[i].name);
        TL_FREE((void *)(uintptr_t)d->entries[i].path);
    }
    TL_FREE((void *)(uintptr_t)d->profile);
    d->profile = NULL;
    tl__live_source_free(d->source);
    d->source = NULL;
}

/* The categories copied; NULL with *why when threadlink.json would be refused for them. */
static bool tl__live_categories(tl__content_source *src, const tl_content_source_desc *desc,
                                const char **why) {
    uint32_t i, k;
    src->category_count = desc->category_count;
    src->category_names = (char **)tl__content_zalloc(desc->category_count * sizeof(char *));
    src->folders = (char **)tl__content_zalloc(desc->category_count * sizeof(char *));
    *why = "out of memory";
    if (!src->category_names || !src->folders) return false;
    for (i = 0; i < desc->category_count; i++) {
        const tl_content_source_category *c = &desc->categories[i];
        *why = "a category without a name or folder (\"\" is the whole root)";
        if (!c->name || !c->name[0] || !c->folder) return false;
        *why = "two categories overlap: a file would be in two catalogs";
        for (k = 0; k < i; k++)
            if (tl_cf_folders_overlap(desc->categories[k].folder, c->folder, false)) return false;
        src->category_names[i] = tl__content_strdup(c->name);
        src->folders[i] = tl__content_strdup(c->folder);
        *why = "out of memory";
        if (!src->category_names[i] || !src->folders[i]) return false;
    }
    return true;
}

static tl__content_source *
tl__live_source_new(const char *profile, const tl_content_source_desc *desc, const char **why) {
    tl__content_source *src = (tl__content_source *)tl__content_zalloc(sizeof *src);
    size_t n = tl_cf_profile_scope(profile, NULL, 0);
    if (!src) return NULL;
    src->fd = src->root_fd = src->root_wd = src->parent_wd = -1;
    src->names = desc->names_path ? TL_CF_NAMES_PATH : TL_CF_NAMES_STEM;
    src->flat = desc->flat;
    src->catalog_id = desc->catalog_id;
    src->catalog_user = desc->catalog_user;
    src->poll = desc->watch == TL_CONTENT_WATCH_POLL;
    src->budget = desc->poll_budget ? desc->poll_budget : TL__LIVE_DEFAULT_BUDGET;
    src->budget_us = desc->poll_budget_us ? desc->poll_budget_us : TL__LIVE_DEFAULT_BUDGET_US;
    src->scope = (char *)TL_MALLOC(n + 1);
    if (src->scope) tl_cf_profile_scope(profile, src->scope, n + 1);
    if (src->scope && tl__live_categories(src, desc, why)) return src;
    if (!src->scope) *why = "out of memory";
    tl__live_source_free(src);
    return NULL;
}

/* An empty directory record for the source, installed by content.h's tl__content_dir_add. */
static bool tl__live_record(tl__content_dirrec *d, tl__content_source *src, const char *profile,
                            const char *root) {
    uint32_t i;
    memset(d, 0, sizeof *d);
    d->path = tl__content_strdup(root);
    d->profile = tl__content_strdup(profile);
    d->categories = (const char **)tl__content_zalloc(src->category_count * sizeof(char *));
    d->category_count = src->category_count;
    d->source = src;
    for (i = 0; d->categories && i < src->category_count; i++)
        d->categories[i] = src->category_names[i];
    return d->path && d->profile && d->categories;
}

static tl_content_dir tl__live_register(tl_content *ctx, const char *profile, const char *root,
                                        tl__content_source *src) {
    tl__content_dirrec d;
    tl__live_scan sc;
    tl_content_dir dir;
    bool ok;
    memset(&sc, 0, sizeof sc);
    sc.ctx = ctx;
    ok = tl__live_record(&d, src, profile, root);
    src->scanned_ns = tl__live_wall_ns();
    if (ok && !tl__live_scan_tree(src, profile, root, &sc)) ok = false;
    if (ok && !tl__live_root_open(src, root)) {
        tl__live_why(&sc, "source root ", root, " cannot be opened", NULL);
        ok = false;
    }
    dir = tl__content_dir_add(ctx, &d, root, ok,
                              ok          ? NULL
                              : sc.why[0] ? sc.why
                                          : "out of memory",
                              NULL);
    if (dir.ctx) {
        tl__live_apply(ctx, dir.index, &sc);
        tl__live_take_dirs(ctx->dirs[dir.index].source, &sc);
        tl__live_take_skipped(ctx->dirs[dir.index].source, &sc, true);
        tl__live_watch(ctx, &ctx->dirs[dir.index], true);
    }
    tl__live_scan_free(&sc);
    return dir;
}

tl_content_dir tl_content_register_source(tl_content *ctx, const char *profile,
                                          const char *source_root,
                                          const tl_content_source_desc *desc) {
    tl_content_dir none;
    tl__content_source *src;
    const char *why = "out of memory";
    memset(&none, 0, sizeof none);
    if (!ctx || !profile || !tl_text_portable_file_name(profile, strlen(profile)) || !source_root ||
        !source_root[0] || !desc || !desc->categories || !desc->category_count) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_content_register_source");
        tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_register_source");
        tl__content_fail(ctx, TL_CONTENT_CALLBACK_REFUSED);
        return none;
    }
    src = tl__live_source_new(profile, desc, &why);
    if (!src) {
        tl__content_log(ctx, TL_CONTENT_LOG_DIR_REFUSED, source_root, why);
        tl__content_fail(ctx, tl__content_dir_result(why));
        return none;
    }
    return tl__live_register(ctx, profile, source_root, src);
}

uint32_t tl_content_source_report(tl_content *ctx) {
    uint32_t i, k, total = 0;
    if (!ctx) return 0;
    for (i = 0; i < ctx->dir_len; i++) {
        const tl__content_dirrec *d = &ctx->dirs[i];
        if (!tl__live_of(ctx, i)) continue;
        for (k = 0; k < d->entry_count; k++) {
            if (!d->source->files[k].loaded || d->source->files[k].in_catalog) continue;
            tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_UNCATALOGUED, d->entries[k].name,
                            d->profile);
            total++;
        }
    }
    if (total) tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_UNCATALOGUED_TOTAL, total);
    return total;
}

uint64_t tl_content_source_reloads(tl_content *ctx) { return ctx ? ctx->reloads : 0; }

/* --- flat builds: reloaded after a pack ------------------------------------------------------------ */

/* A build directory registered in a development build: its catalog.tlcat (flat) or
   archives.json (packed) is watched, and when a pack has rewritten it the directory serves the
   new build and reloads the held assets whose bytes it changed. With inotify (Linux) the folder
   is watched and the file is looked at (one stat) only after an event in it; elsewhere, or when
   inotify refuses, one stat per update. */
struct tl__live_flat {
    tl__live_sig sig;
    int fd;              /* inotify on the directory, or -1: a stat every update */
    bool dirty;          /* events seen (or a check deferred): look at the file */
    bool rearm;          /* the folder was removed: watch the next one at the path */
    tl__live_folder dir; /* the folder watched */
    int link_wd; /* a path that is a link: the watch on its folder (the link replaced), or -1 */
    /* The last build file refused (an archive of it missing, say), and its folder then: looked
       at again once the folder changes (archives.json may arrive before its archives). */
    tl__live_sig refused, refused_in;
};

#ifdef TL__LIVE_INOTIFY
/* Whether an event of the watch on the link's folder names the link (the path's last component). */
static bool tl__live_names_link(const tl__content_dirrec *d, const struct inotify_event *ev,
                                const char *name) {
    return ev->wd == d->flat->link_wd && ev->len && tl__live_is_base(d->path, name);
}
#endif

/* Whether the build may have changed since the last look: inotify's events drained (none: no),
   or true without inotify. */
static bool tl__live_build_touched(tl__content_dirrec *d) {
    struct tl__live_flat *w = d->flat;
#ifdef TL__LIVE_INOTIFY
    union {
        struct inotify_event ev;
        char bytes[4096];
    } buf;
    ssize_t n;
    if (w->fd < 0) return true;
    while ((n = read(w->fd, buf.bytes, sizeof buf.bytes)) > 0) {
        char *p = buf.bytes;
        w->dirty = true;
        while (p < buf.bytes + n) {
            struct inotify_event ev;
            memcpy(&ev, p, sizeof ev);
            if (tl__live_names_link(d, &ev, p + sizeof ev)) ev.mask |= IN_MOVE_SELF; /* swapped */
            p += sizeof ev + ev.len;
            if (ev.wd == w->link_wd && !(ev.mask & IN_MOVE_SELF)) continue;
            if (!(ev.mask & TL__LIVE_FOLDER_GONE)) continue;
            close(w->fd); /* the folder itself went away or moved: stat until it is back */
            w->fd = -1;
            w->rearm = true;
            return true;
        }
    }
    return w->dirty;
#else
    (void)d;
    return true;
#endif
}

static void tl__live_unwatch_build(struct tl__live_flat *w) {
#ifdef TL__LIVE_INOTIFY
    if (w->fd >= 0) close(w->fd);
#endif
    w->fd = -1;
}

static bool tl__live_catalog_sig(const tl__content_dirrec *d, tl__live_sig *out) {
    char *path = tl__content_join(
        d->path, d->packed ? TL__CONTENT_INDEX_FILE : TL__CONTENT_FLAT_CATALOG, NULL);
    struct stat st;
    bool ok = path && stat(path, &st) == 0;
    if (ok) *out = tl__live_sig_of(&st);
    TL_FREE(path);
    return ok;
}

/* The directory watched with inotify where there is one (false: a stat every update), and
   which folder that is. */
static bool tl__live_watch_build(tl__content_dirrec *d) {
    struct tl__live_flat *w = d->flat;
    struct stat st;
    w->fd = w->link_wd = -1;
    if (!tl__live_folder_at(d->path, &w->dir)) return false;
#ifdef TL__LIVE_INOTIFY
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (w->fd >= 0 && inotify_add_watch(w->fd, d->path,
                                        IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE |
                                            IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) < 0)
        tl__live_unwatch_build(w);
    /* A build folder reached through a link is published by replacing the link (ln -s; mv -T),
       which the folder watched never hears of: the link's folder is watched for it too. */
    if (w->fd >= 0 && lstat(d->path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *parent = tl__live_parent(d->path);
        if (parent)
            w->link_wd = inotify_add_watch(w->fd, parent, IN_CREATE | IN_MOVED_TO | IN_DELETE);
        TL_FREE(parent);
        if (w->link_wd < 0) tl__live_unwatch_build(w); /* a stat every update, then */
    }
#endif
    return w->fd >= 0;
}

/* Whether the watch is on the folder at the directory's path still: one removed (and another
   made in its place) sends no word while an archive in it is open. */
static bool tl__live_watch_current(const tl__content_dirrec *d) {
    return tl__live_folder_is(d->path, &d->flat->dir);
}

/* Whether the build file changed, with its signature: false when nothing happened in the folder
   or the file is missing. A folder removed drops its watch: a stat every update until one is
   there again, then that one is watched. */
static bool tl__live_build_changed(tl__content_dirrec *d, tl__live_sig *sig) {
    struct tl__live_flat *w = d->flat;
    struct stat st;
    if (!tl__live_build_touched(d)) return false;
    w->dirty = false;
    if (w->fd >= 0 && !tl__live_watch_current(d)) {
        tl__live_unwatch_build(w);
        w->rearm = true;
    }
    if (w->rearm) w->rearm = !tl__live_watch_build(d);
    if (!tl__live_catalog_sig(d, sig) || tl__live_sig_same(sig, &w->sig)) return false;
    /* The build refused last time, its folder as it was then (inotify's events say it changed) */
    if (w->fd < 0 && tl__live_sig_same(sig, &w->refused) && stat(d->path, &st) == 0) {
        tl__live_sig in = tl__live_sig_of(&st);
        if (tl__live_sig_same(&in, &w->refused_in)) return false;
    }
    return true;
}

static void tl__content_live_watch_flat(tl_content *ctx, tl_content_dir dir) {
    tl__content_dirrec *d = &ctx->dirs[dir.index];
    d->flat = (struct tl__live_flat *)tl__content_zalloc(sizeof *d->flat);
    if (!d->flat) return;
    if (!tl__live_catalog_sig(d, &d->flat->sig)) memset(&d->flat->sig, 0, sizeof d->flat->sig);
#ifdef TL__LIVE_INOTIFY
    if (!tl__live_watch_build(d))
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                        "inotify is not available (watch limit?): one stat per update instead");
#else
    (void)tl__live_watch_build(d);
    (void)ctx;
#endif
}

/* Why the rebuilt catalog cannot replace the served one, or NULL: another profile, a held asset
   it dropped, an id another directory has. */
static const char *tl__live_flat_refusal(const tl_content *ctx, uint32_t dir,
                                         const tl__content_dirrec *now) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    if (strcmp(now->profile, d->profile) != 0) return "it is another profile's";
    for (i = 0; i < d->entry_count; i++)
        if (d->entries[i].slot != TL__CONTENT_NONE &&
            tl__content_find_record(now, d->entries[i].id) < 0)
            return "it drops an asset that is held; release it first";
    for (i = 0; i < now->entry_count; i++) {
        const tl__content_entry *e = tl__content_entry_of(ctx, now->entries[i].id);
        if (e && e->dir != dir) return "an asset id of it is registered by another directory";
    }
    return NULL;
}

/* The new catalog's records in place of the old ones: slots moved to them, tables rebuilt. The
   ids of held assets whose bytes changed are written to `changed`. */
static uint32_t tl__live_flat_swap(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                                   uint32_t *changed) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0;
    for (i = 0; i < d->entry_count; i++) {
        tl__content_entry *e = &d->entries[i], *ne;
        (void)tl__content_idmap_remove(ctx->ids, e->id);
        if (e->slot == TL__CONTENT_NONE) continue;
        ne = &now->entries[tl__content_find_record(now, e->id)];
        ne->slot = e->slot;
        ctx->slots[e->slot].entry = ne;
        if (changed && (ne->xxh64 != e->xxh64 || ne->size != e->size)) changed[n++] = e->id;
    }
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    d->entries = now->entries;
    d->entry_count = now->entry_count;
    d->categories = now->categories;
    d->category_count = now->category_count;
    d->catalog = now->catalog;
    d->profile = now->profile;
    for (i = 0; i < d->entry_count; i++) {
        d->entries[i].dir = dir;
        tl__content_idmap_try_add(ctx->ids, d->entries[i].id, &d->entries[i]);
    }
    tl__content_rebuild_names(ctx, TL__CONTENT_NONE);
    return n;
}

/* A held asset of a rebuilt flat directory: its new bytes, checked against the new record. */
static void tl__live_reload_flat(tl_content *ctx, uint32_t slot) {
    tl__content_entry *e = ctx->slots[slot].entry;
    uint64_t size = 0, hash;
    const char *why = NULL;
    uint32_t kind = ctx->slots[slot].kind;
    void *object;
    unsigned char *bytes = tl__live_read(ctx, e, &size, &why);
    if (ctx->slots[slot].state != TL__SLOT_READY) {
        TL_FREE(bytes);
        return;
    }
    if (!bytes) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name, why);
        return;
    }
    hash = tl_hash64(bytes, (size_t)size, 0);
    if (size != e->size || hash != e->xxh64) {
        TL_FREE(bytes);
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name,
                        "its bytes differ from the rebuilt catalog's record");
        return;
    }
    object = tl__live_decode(ctx, slot, kind, bytes, size, &why);
    if (object) tl__live_swap(ctx, slot, kind, object, size, hash);
    else tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
}

static void tl__live_flat_check(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir], now;
    tl__live_sig sig;
    const char *why = NULL;
    uint32_t *changed, n, i;
    if (!tl__live_build_changed(d, &sig)) return;
    d->flat->sig = sig;
    memset(&now, 0, sizeof now);
    now.path = d->path; /* borrowed */
    if (tl__content_mount_flat(ctx, &now, &why)) why = tl__live_flat_refusal(ctx, dir, &now);
    if (!why && !tl__content_ids_reserve(ctx, tl__content_idmap_count(ctx->ids) + now.entry_count))
        why = "out of memory";
    if (why) {
        tl__content_log(ctx, TL_CONTENT_LOG_FLAT_REFUSED, d->path, why);
        TL_FREE(now.entries);
        TL_FREE((void *)now.categories);
        TL_FREE(now.catalog);
        return;
    }
    changed = (uint32_t *)tl__content_zalloc((size_t)(d->entry_count + 1) * sizeof *changed);
    n = tl__live_flat_swap(ctx, dir, &now, changed);
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, changed[i]);
        if (e && e->slot != TL__CONTENT_NONE && ctx->slots[e->slot].count > 0)
            tl__live_reload_flat(ctx, e->slot);
    }
    TL_FREE(changed);
}

/* --- packed builds: mounted again after a pack ------------------------------------------------------ */

/* A packed directory's entry the latest pack dropped while it was held (a ghost): kept, with its
   own copy of its name, so that its slot, handles and name stay valid; new loads of it fail.
   Every entry a pack mounts has an archive. */
static bool tl__live_ghost(const tl__content_dirrec *d, const tl__content_entry *e) {
    return d->packed && e->archive == TL__CONTENT_NONE;
}

/* Whether an asset of the directory is loading: its read may be in flight in an archive that
   the new build closes, so the new build waits for the next update. */
static bool tl__live_dir_loading(const tl_content *ctx, uint32_t dir) {
    uint32_t i;
    for (i = 0; i < ctx->slot_len; i++)
        if (ctx->slots[i].entry && ctx->slots[i].entry->dir == dir &&
            ctx->slots[i].state == TL__SLOT_LOADING)
            return true;
    return false;
}

static uint32_t tl__live_category_in(const tl__content_dirrec *d, const char *name) {
    uint32_t i;
    for (i = 0; i < d->category_count; i++)
        if (strcmp(d->categories[i], name) == 0) return i;
    return TL__CONTENT_NONE;
}

/* Why the new build cannot replace the served one, or NULL: another profile, an id another
   directory has, a held asset it drops whose category it drops too. *ghosts: the held assets it
   drops. */
static const char *tl__live_packed_refusal(const tl_content *ctx, uint32_t dir,
                                           const tl__content_dirrec *now, uint32_t *ghosts) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    *ghosts = 0;
    if (strcmp(now->profile, d->profile) != 0) return "it is another profile's";
    for (i = 0; i < now->entry_count; i++) {
        const tl__content_entry *e = tl__content_entry_of(ctx, now->entries[i].id);
        if (e && e->dir != dir) return "an asset id of it is registered by another directory";
    }
    for (i = 0; i < d->entry_count; i++) {
        const tl__content_entry *e = &d->entries[i];
        if (e->slot == TL__CONTENT_NONE || tl__content_find_record(now, e->id) >= 0) continue;
        if (tl__live_category_in(now, d->categories[e->category]) == TL__CONTENT_NONE)
            return "it drops a held asset's category; release the asset first";
        (*ghosts)++;
    }
    return NULL;
}

/* Mounts the directory's build as it is now into `now` (its own path), verified whole: every
   archive's size and XXH64 as archives.json records them. pack writes archives.json last and
   renames every file into place, so a verified index names complete archives. */
static bool tl__live_mount_again(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                                 uint32_t *ghosts, const char **why, const char **bad) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    char *index_path = tl__content_join(d->path, TL__CONTENT_INDEX_FILE, NULL);
    uint64_t len = 0;
    unsigned char *text = NULL;
    bool ok;
    memset(now, 0, sizeof *now);
    now->path = tl__content_strdup(d->path);
    *why = "out of memory";
    if (index_path && now->path)
        text = tl__content_read_whole(ctx, index_path, TL_CONTENT_MAX_INDEX_BYTES, &len, why);
    TL_FREE(index_path);
    if (!text && now->path) *why = "archives.json is missing, too large or unreadable";
    if (!text) return false;
    ok = tl__content_mount_packed(ctx, now, text, len, true, why, bad);
    TL_FREE(text);
    if (!ok) return false;
    *bad = NULL;
    if ((*why = tl__live_packed_refusal(ctx, dir, now, ghosts)) != NULL) return false;
    *why = "out of memory";
    return tl__content_ids_reserve(ctx,
                                   tl__content_idmap_count(ctx->ids) + now->entry_count + *ghosts);
}

/* The old entry `e` kept as a ghost in the new build (its category found there by name). */
static void tl__live_keep_ghost(tl__content_entry *ghost, const tl__content_dirrec *d,
                                const tl__content_entry *e, const tl__content_dirrec *now) {
    *ghost = *e;
    if (!tl__live_ghost(d, e)) ghost->name = tl__content_strdup(e->name);
    if (!ghost->name) ghost->name = ""; /* out of memory: nameless while held */
    ghost->path = NULL;
    ghost->archive = TL__CONTENT_NONE;
    ghost->category = tl__live_category_in(now, d->categories[e->category]);
}

/* The new build's records and the ghosts (held assets it drops) in one table sorted by id, the
   order tl__content_find_record searches; a ghost no longer held is dropped with its name. */
static tl__content_entry *tl__live_merge(const tl__content_dirrec *d, const tl__content_dirrec *now,
                                         uint32_t ghosts) {
    tl__content_entry *all = (tl__content_entry *)tl__content_zalloc(
        (size_t)(now->entry_count + ghosts + 1) * sizeof *all);
    uint32_t i = 0, j = 0, n = 0;
    if (!all) return NULL;
    while (i < now->entry_count || j < d->entry_count) {
        const tl__content_entry *e = j < d->entry_count ? &d->entries[j] : NULL;
        bool ghost = e && e->slot != TL__CONTENT_NONE && tl__content_find_record(now, e->id) < 0;
        if (e && !ghost) {
            j++;
            continue;
        }
        if (e && (i == now->entry_count || e->id < now->entries[i].id)) {
            tl__live_keep_ghost(&all[n++], d, e, now);
            j++;
        } else {
            all[n++] = now->entries[i++];
        }
    }
    return all;
}

/* Each held slot moved to its record in the new table `all` (a ghost's is its own copy); the
   held ids whose bytes changed are written to `changed` (when not NULL). */
static uint32_t tl__live_move_slots(tl_content *ctx, uint32_t dir, tl__content_entry *all,
                                    uint32_t count, uint32_t *changed) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0;
    for (i = 0; i < count; i++) {
        int old = tl__content_find_record(d, all[i].id);
        const tl__content_entry *e = old >= 0 ? &d->entries[old] : NULL;
        all[i].dir = dir;
        if (!e || e->slot == TL__CONTENT_NONE) continue;
        all[i].slot = e->slot;
        ctx->slots[e->slot].entry = &all[i];
        if (changed && !tl__live_ghost(d, &all[i]) &&
            (all[i].xxh64 != e->xxh64 || all[i].size != e->size))
            changed[n++] = all[i].id;
    }
    return n;
}

/* The new build in place of the served one: its archives, catalog and the table `all` (records
   and ghosts); the old ids withdrawn (and the names of ghosts not kept freed), the new ones and
   every name entered. */
static void tl__live_install(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                             tl__content_entry *all, uint32_t count) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    for (i = 0; i < d->entry_count; i++) {
        tl__content_entry *e = &d->entries[i];
        (void)tl__content_idmap_remove(ctx->ids, e->id);
        if (tl__live_ghost(d, e) &&
            (e->slot == TL__CONTENT_NONE || tl__content_find_record(now, e->id) >= 0))
            TL_FREE((void *)(uintptr_t)e->name);
    }
    tl__content_archives_close(ctx, d);
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    d->archives = now->archives;
    d->archive_maps = now->archive_maps;
    d->archive_count = now->archive_count;
    d->catalog = now->catalog;
    d->categories = now->categories;
    d->category_count = now->category_count;
    d->profile = now->profile;
    d->entries = all;
    d->entry_count = count;
    TL_FREE(now->entries);
    TL_FREE(now->path);
    for (i = 0; i < count; i++) tl__content_idmap_try_add(ctx->ids, all[i].id, &all[i]);
    tl__content_rebuild_names(ctx, TL__CONTENT_NONE);
}

/* A packed entry's bytes from its (new) archive, decompressed and checked against its record. */
static unsigned char *tl__live_read_packed(tl_content *ctx, const tl__content_entry *e,
                                           const char **why) {
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    unsigned char *stored = (unsigned char *)TL_MALLOC((size_t)e->stored + 1), *bytes = stored;
    *why = "out of memory";
    if (!stored) return NULL;
    if (!ctx->io.read(ctx->io.user, d->archives[e->archive], e->offset, stored,
                      (size_t)e->stored)) {
        TL_FREE(stored);
        *why = tl__content_archive_why(ctx, e);
        return NULL;
    }
    if (e->codec != TL_CF_CODEC_RAW) {
        bytes = (unsigned char *)TL_MALLOC((size_t)e->size + 1);
        *why = bytes ? "stored bytes do not decode" : "out of memory";
        if (bytes && !tl_cf_decode(e->codec, stored, e->stored, bytes, e->size)) {
            TL_FREE(bytes);
            bytes = NULL;
        }
        TL_FREE(stored);
        if (!bytes) return NULL;
    }
    *why = "XXH64 differs from the new build's record (corrupt content)";
    if (tl_hash64(bytes, (size_t)e->size, 0) == e->xxh64) return bytes;
    TL_FREE(bytes);
    return NULL;
}

/* A held asset whose bytes the new build changed: decoded and swapped in, or the old object kept
   (logged) when they cannot be read or decoded. */
static void tl__live_reload_packed(tl_content *ctx, uint32_t slot) {
    tl__content_entry *e = ctx->slots[slot].entry;
    const char *why = NULL;
    unsigned char *bytes = tl__live_read_packed(ctx, e, &why);
    uint32_t kind = tl__content_kind_of(ctx, e);
    void *object = bytes ? tl__live_decode(ctx, slot, kind, bytes, e->size, &why) : NULL;
    if (object) tl__live_swap_object(ctx, slot, kind, object, e->size);
    else tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
}

/* archives.json rewritten: the directory mounted again from it, verified; served in place of
   the old build (held assets moved to their new records, those whose bytes changed reloaded,
   those it drops kept as ghosts), or refused, logged, with the old build still served. */
static void tl__live_packed_check(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir], now;
    tl__live_sig sig;
    const char *why = NULL, *bad = NULL;
    tl__content_entry *all = NULL;
    uint32_t ghosts = 0, *changed, n, i;
    struct stat st;
    if (!tl__live_build_changed(d, &sig)) return;
    if (tl__live_dir_loading(ctx, dir)) {
        d->flat->dirty = true; /* looked at again next update */
        return;
    }
    if (tl__live_mount_again(ctx, dir, &now, &ghosts, &why, &bad) &&
        !(all = tl__live_merge(d, &now, ghosts)))
        why = "out of memory";
    if (!all) {
        if (bad) tl__content_log(ctx, TL_CONTENT_LOG_PACKED_ARCHIVE, d->path, bad, why);
        else tl__content_log(ctx, TL_CONTENT_LOG_PACKED_REFUSED, d->path, why);
        tl__content_dir_free(ctx, &now);
        d->flat->refused = sig; /* looked at again once the folder changes */
        if (stat(d->path, &st) == 0) d->flat->refused_in = tl__live_sig_of(&st);
        return;
    }
    d->flat->sig = sig;
    changed = (uint32_t *)tl__content_zalloc((size_t)(d->entry_count + 1) * sizeof *changed);
    n = tl__live_move_slots(ctx, dir, all, now.entry_count + ghosts, changed);
    tl__live_install(ctx, dir, &now, all, now.entry_count + ghosts);
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, changed[i]);
        if (e && e->slot != TL__CONTENT_NONE && ctx->slots[e->slot].state == TL__SLOT_READY)
            tl__live_reload_packed(ctx, e->slot);
    }
    TL_FREE(changed);
}

/* --- the seam: what content calls (tl__content_live_hooks) ------------------------------------- */

static void tl__content_live_report(tl_content *ctx) { (void)tl_content_source_report(ctx); }

static const tl__content_live_hooks *tl__content_live_hooks_table(void) {
    static const tl__content_live_hooks table = {
        tl__content_live_miss,       tl__content_live_deleted, tl__content_live_read_stored,
        tl__content_live_watch_flat, tl__content_live_free,    tl__content_live_update,
        tl__content_live_report
    };
    return &table;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_CONTENT_LIVE implementation */
/* ---- runtime/src/content/end.h ---- */
#endif /* TL_CONTENT_IMPL */
