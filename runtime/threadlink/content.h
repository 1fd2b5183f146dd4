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
                                    serves them on POSIX (default 64 KiB; see Loading)
   TL_CONTENT_NO_MMAP               the default I/O never maps entries: every load reads
   TL_CONTENT_LIVE                  development builds: profiles served from their source tree,
                                    held assets reloaded when their files change (content_live.h;
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
       tl_asset sword = tl_scope_load(level, Content_Main_Icons_sword);   // generated id
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
   - tl_content_unregister_dir refuses while assets from the directory are held (a count above
     zero, or loading for someone); with force it invalidates them: their objects are destroyed at
     once, handles to them go stale, and scopes that held them skip them quietly (count, dump,
     release). Unreferenced assets waiting for collect are released on the spot. The directory's
     ids and names are withdrawn before any destroy callback runs: a callback that loads one of
     its assets gets an invalid asset (logged: unknown asset).
   - Names: an asset's name (Icons/sword) is unique per profile, case-insensitively and under
     Unicode normalisation (pack and source serving refuse two files that are one name:
     tl_text_name_key), and looked up ASCII case-insensitively. When two registered profiles carry one name, the first registered
     answers lookups by name (an info line says so); ids are always distinct.

   Loading
   - tl_scope_load (and the other synchronous loads) read, verify (the entry's XXH64) and decode
     before returning; a failure is logged and returns an invalid asset, holding nothing.
   - Mapped entries (POSIX, the default I/O, packed directories): an entry of at least
     TL_CONTENT_MAP_MIN_BYTES is mapped from its archive (mmap, private and writable) instead of
     read into a new buffer: the page cache's pages, no copy and no allocation. A raw asset kept
     as its bytes points into its mapping until it is released; writes to it stay in that asset
     (copy on write) and never reach the archive or a later load. Its bytes start where the
     archive has them (no alignment is promised, as for every asset's bytes); a compressed entry
     is decoded from its mapping into a new buffer. Archives must not be changed in place while
     mounted (pack and the patcher replace files, they never rewrite one): an entry past the end
     of an archive truncated since it was mounted is read, and its load fails, but a page already
     mapped when its file is truncated raises SIGBUS when touched.
   - *_async variants return at once with an asset whose status is TL_ASSET_LOADING; the load
     runs in tl_content_update (at most max_loads_per_frame started per frame; with an I/O
     backend that has read_begin/read_poll, reads overlap frames). Poll tl_asset_get_status once
     per frame. A synchronous load of an asset that is loading completes it now (polling the backend
     until its read is done).
   - Cancellation: releasing a reference before its load completes (tl_scope_release, scope
     dispose, tl_content_dispose) returns the reference at once; the load finishes and its result
     is released at the next collect. An asynchronous load that fails leaves its holders with a
     TL_ASSET_FAILED asset; loading that key again in a scope that holds it retries.

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

/* --- diagnostics table ------------------------------------------------------------------------ */

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
    TL__CONTENT_LIVE_LOG_ITEMS(X)

/* Development builds (TL_CONTENT_LIVE, content_live.h): source trees and hot reload. */
#ifdef TL_CONTENT_LIVE
#define TL__CONTENT_LIVE_LOG_ITEMS(X) \
    X(RELOADED, TL_LOG_LEVEL_INFO, "reloaded %s") \
    X(RELOAD_FAILED, TL_LOG_LEVEL_ERROR, "reloading %s failed, the loaded object stays: %s") \
    X(SOURCE_SKIPPED, TL_LOG_LEVEL_WARNING, "%s skipped: %s") \
    X(SOURCE_REFUSED, TL_LOG_LEVEL_ERROR, \
      "source tree %s changed into one pack refuses; its previous names stay served: %s") \
    X(SOURCE_WATCH, TL_LOG_LEVEL_INFO, "%s: %s") \
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
    bool capture_origin;
    bool verify_xxh64;
    bool trust_asset_bytes;
    uint32_t max_loads_per_frame;
    tl_content_io io;
    tl_logger logger;
} tl_content_desc;

/* Zero: the context's defaults. */
typedef struct tl_content_dir_desc {
    bool verify_xxh64; /* check every archive's XXH64 against archives.json before mounting */
} tl_content_dir_desc;

/* --- context, directories, kinds ---------------------------------------------------------------- */

TL_API tl_content *tl_content_create(const tl_content_desc *desc); /* NULL desc: defaults */
TL_API void tl_content_shutdown(tl_content *ctx); /* frees ctx: no handle of it may be used after */

TL_API tl_content_dir tl_content_register_dir(tl_content *ctx, const char *path);
TL_API tl_content_dir tl_content_register_dir_ex(tl_content *ctx, const char *path,
                                                 const tl_content_dir_desc *desc);
TL_API bool tl_content_unregister_dir(tl_content_dir dir, bool force);
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

TL_API bool tl_content_register_kind(tl_content *ctx, const tl_content_kind_desc *kind);

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
TL_API tl_scope tl_scope_create(tl_scope parent, const char *name, tl_scope_kind kind);
TL_API tl_scope tl_scope_create_at(tl_scope parent, const char *name, tl_scope_kind kind,
                                   const char *file, int line);
/* Records where the scope was created (shown in leak warnings when capture_origin is on). */
#define TL_SCOPE_CREATE(parent, name, kind) \
    tl_scope_create_at((parent), (name), (kind), __FILE__, __LINE__)
TL_API bool tl_scope_dispose(tl_scope scope);
TL_API bool tl_scope_valid(tl_scope scope);

TL_API tl_asset tl_scope_load(tl_scope scope, uint32_t id);
TL_API tl_asset tl_scope_load_name(tl_scope scope, const char *name);
TL_API tl_asset tl_scope_load_async(tl_scope scope, uint32_t id);
TL_API tl_asset tl_scope_load_name_async(tl_scope scope, const char *name);
TL_API bool tl_scope_contains(tl_scope scope, uint32_t id);
TL_API bool tl_scope_release(tl_scope scope, uint32_t id);
TL_API bool tl_scope_share_to(tl_scope source, tl_scope target, uint32_t id);
TL_API bool tl_scope_adopt(tl_scope target, tl_asset asset);
TL_API bool tl_scope_attach(tl_scope scope, tl_content_handle handle);

TL_API uint32_t tl_scope_count(tl_scope scope); /* live keys held */
TL_API uint32_t tl_scope_peak(tl_scope scope);
TL_API tl_scope_kind tl_scope_get_kind(tl_scope scope);
TL_API const char *tl_scope_name(tl_scope scope);
TL_API tl_scope tl_scope_parent(tl_scope scope);
/* Moves a scope (and its subtree) under another parent of the same context, keeping every
   reference it holds: nothing is released or loaded (an entity moving to another level). False
   for the root, a stale scope or parent, another context, or a parent inside the scope's own
   subtree. */
TL_API bool tl_scope_reparent(tl_scope scope, tl_scope new_parent);
TL_API void tl_scope_set_warn_threshold(tl_scope scope, uint32_t threshold);
/* "Root/Field/Popup" into buf (snprintf-like: returns the full length, writes at most cap-1
   characters and a NUL when cap > 0). */
TL_API size_t tl_scope_path(tl_scope scope, char *buf, size_t cap);

/* --- raw handles ------------------------------------------------------------------------------------ */

TL_API tl_content_handle tl_content_acquire(tl_content *ctx, uint32_t id);
TL_API tl_content_handle tl_content_acquire_name(tl_content *ctx, const char *name);
TL_API tl_content_handle tl_content_acquire_async(tl_content *ctx, uint32_t id);
TL_API tl_content_handle tl_content_share(tl_content_handle handle);
TL_API bool tl_content_dispose(tl_content_handle handle);
TL_API bool tl_content_handle_valid(tl_content_handle handle);
TL_API tl_asset tl_content_handle_asset(tl_content_handle handle);

/* --- assets ----------------------------------------------------------------------------------------- */

TL_API bool tl_asset_valid(tl_asset asset); /* its slot is still the one it named */
TL_API tl_asset_status tl_asset_get_status(tl_asset asset);
TL_API void *tl_asset_object(tl_asset asset); /* NULL unless ready */
TL_API size_t tl_asset_size(tl_asset asset);
TL_API uint32_t tl_asset_id(tl_asset asset);
TL_API const char *tl_asset_name(tl_asset asset);
TL_API uint32_t tl_asset_count(tl_asset asset); /* references to its slot */

/* --- diagnostics ------------------------------------------------------------------------------------ */

typedef struct tl_content_stats {
    uint32_t live_assets; /* slots in use: held, loading, or waiting for collect */
    uint32_t held_assets; /* slots with a count above zero */
    uint32_t queued;      /* slots waiting in the release queue */
    uint32_t loading;     /* slots loading */
    uint32_t references;  /* live references: scope keys plus raw handles */
    uint32_t raw_handles;
    uint32_t scopes; /* including the root */
    uint32_t directories;
    uint64_t loads;    /* completed decodes since creation */
    uint64_t releases; /* slots released since creation */
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
#ifdef TL_CONTENT_LIVE
#define TL__CONTENT_DECLARING_LIVE
#include "content_live.h" /* development builds: source trees and hot reload */
#undef TL__CONTENT_DECLARING_LIVE
#endif
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
#define TL_CONTENT_MAP_MIN_BYTES ((uint64_t)64 << 10)
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
    bool alive, packed;
#ifdef TL_CONTENT_LIVE
    struct tl__content_source *source; /* served from a source tree (content_live.h), or NULL */
    struct tl__live_flat *flat;        /* a build (flat or packed) watched for its next pack */
#endif
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
#ifdef TL_CONTENT_LIVE
    uint64_t reloads;
#endif
    uint64_t page_size;     /* mapped entries start at a multiple of it */
    void *zstd_dctx;        /* one decompression context for every zstd entry (ZSTD_DCtx) */
    unsigned char *scratch; /* stored bytes of a compressed entry while it is decoded */
    size_t scratch_cap;
};

#ifdef TL_CONTENT_LIVE
/* content_live.h's hooks (defined at the end of this implementation). */
typedef struct tl__content_source tl__content_source;
static void tl__content_live_free(tl_content *ctx, tl__content_dirrec *d);
static void tl__content_live_watch_flat(tl_content *ctx, tl_content_dir dir);
static unsigned char *tl__content_live_read_stored(tl_content *ctx, tl__content_entry *e,
                                                   const char **why, uint64_t *hash, bool *hashed);
static const char *tl__content_live_deleted(const tl_content *ctx, const tl__content_entry *e);
static tl__content_entry *tl__content_live_miss(tl_content *ctx, const char *name);
static void tl__content_live_update(tl_content *ctx);
#endif

/* --- logging ------------------------------------------------------------------------------------- */

static const char *tl__content_message(uint32_t item, int *level) {
    switch (item) {
#define TL__CONTENT_LOG_CASE(id, lvl, message) \
    case TL_CONTENT_LOG_##id: *level = lvl; return message;
        TL_CONTENT_LOG_ITEMS(TL__CONTENT_LOG_CASE)
#undef TL__CONTENT_LOG_CASE
    default: *level = TL_LOG_LEVEL_ERROR; return "%s";
    }
}

static void tl__content_log(const tl_content *ctx, uint32_t item, ...) {
    int level;
    const char *fmt = tl__content_message(item, &level);
    va_list args;
    if (level < TL_LOG_MIN_LEVEL) return;
    va_start(args, item);
    tl_logv_table(ctx ? &ctx->logger : NULL, level, "Content", item, fmt, args);
    va_end(args);
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
#ifdef TL_CONTENT_LIVE
    if (!e) e = tl__content_live_miss(ctx, name);
#endif
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

static void tl__content_dir_free(tl_content *ctx, tl__content_dirrec *d) {
    uint32_t i;
#ifdef TL_CONTENT_LIVE
    if (d->source || d->flat) tl__content_live_free(ctx, d);
#endif
    for (i = 0; d->archives && i < d->archive_count; i++)
        if (d->archives[i]) ctx->io.close(ctx->io.user, d->archives[i]);
    TL_FREE(d->archives);
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    TL_FREE(d->path);
    d->archives = NULL;
    d->entries = NULL;
    d->categories = NULL;
    d->catalog = NULL;
    d->path = NULL;
    d->alive = false;
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
        else if (!tl__content_out_of_memory(*why))
            *why = "neither archives.json nor catalog.tlcat is readable: not a content directory";
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
        return none;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_register_dir");
        return none;
    }
    memset(&d, 0, sizeof d);
    d.path = tl__content_strdup(path);
    index_path = d.path ? tl__content_join(path, TL__CONTENT_INDEX_FILE, NULL) : NULL;
    if (!index_path) {
        TL_FREE(d.path);
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "directory");
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
#ifdef TL_CONTENT_LIVE
    if (none.ctx) tl__content_live_watch_flat(ctx, none); /* served again after a pack */
#endif
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
#ifdef TL_CONTENT_LIVE
        if (tl__content_live_deleted(dir.ctx, e)) continue; /* loads no more */
#endif
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
    s->buffer = NULL;
    s->request = s->file = NULL;
    s->kind = tl__content_kind_of(ctx, e);
    e->slot = index;
    ctx->live_slots++;
    return index;
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
#ifdef TL_CONTENT_LIVE
    if (d->source) return NULL;
#endif
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

static void tl__content_unmap(tl__content_map *map) {
#ifdef TL__CONTENT_MMAP
    if (map->base) munmap(map->base, map->len);
#endif
    map->base = NULL;
}

/* The XXH64 of bytes in memory, not in the CPU's caches (mapped pages, a large decoded
   buffer): the next page's lines prefetched while one page is hashed. XXH64 alone reads memory
   at half the speed a copy does (measured here: 100 MB mapped in 24-29 ms, prefetched 12.5). */
#define TL__CONTENT_HASH_STEP ((size_t)4096)
static uint64_t tl__content_hash_memory(const unsigned char *bytes, size_t size) {
#if defined(__GNUC__) || defined(__clang__)
    tl_hash64_state state;
    size_t at, line;
    if (size <= TL__CONTENT_HASH_STEP) return tl_hash64(bytes, size, 0);
    tl_hash64_reset(&state, 0);
    for (at = 0; at < size; at += TL__CONTENT_HASH_STEP) {
        size_t n = size - at < TL__CONTENT_HASH_STEP ? size - at : TL__CONTENT_HASH_STEP;
        for (line = at + n; line < at + n + TL__CONTENT_HASH_STEP && line < size; line += 64)
            __builtin_prefetch(bytes + line);
        tl_hash64_update(&state, bytes + at, n);
    }
    return tl_hash64_digest(&state);
#else
    return tl_hash64(bytes, size, 0);
#endif
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
        if (*hashed ? tl__content_read_hashing(ctx, d->archives[e->archive], e->offset, buf,
                                               (size_t)e->stored, hash)
                    : ctx->io.read(ctx->io.user, d->archives[e->archive], e->offset, buf,
                                   (size_t)e->stored))
            return true;
        *why = "archive read error";
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
    if (!ok) *why = size != e->stored ? "file size differs from the catalog" : "read error";
    return ok;
}

/* Reads an entry's stored bytes synchronously into a new buffer. */
static unsigned char *tl__content_read_stored(tl_content *ctx, const tl__content_entry *e,
                                              const char **why, uint64_t *hash, bool *hashed) {
    unsigned char *buf;
#ifdef TL_CONTENT_LIVE
    if (ctx->dirs[e->dir].source)
        return tl__content_live_read_stored(ctx, (tl__content_entry *)(uintptr_t)e, why, hash,
                                            hashed);
#endif
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
    *why = "stored bytes do not decode";
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
#ifdef TL_CONTENT_LIVE
    if (ctx->dirs[e->dir].source) return false;
#endif
    (void)ctx;
    return e->codec != TL_CF_CODEC_RAW;
}

/* A compressed entry read into the scratch buffer and decoded from there into a new buffer
   (NULL with *why). */
static unsigned char *tl__content_read_decoded(tl_content *ctx, const tl__content_entry *e,
                                               const char **why) {
    unsigned char *stored = tl__content_scratch(ctx, e->stored), *bytes = NULL;
    uint64_t hash = 0;
    bool hashed = false;
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
    if (bytes && !ctx->trust_bytes &&
        (hash ? *hash : tl__content_hash_memory(bytes, (size_t)e->size)) != e->xxh64) {
        tl__content_free_bytes(bytes, map);
        bytes = NULL;
        why = "XXH64 differs from the directory's record (corrupt content)";
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
            if (!object) why = "the decoder refused it";
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
        hash = ctx->trust_bytes ? 0 : tl__content_hash_memory(stored, (size_t)e->stored);
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
            why = "read error";
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
#ifdef TL_CONTENT_LIVE
    if (d->source) { /* a source file's size is known when it is opened: read it now */
        tl__content_load_now(ctx, index);
        return;
    }
#endif
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
            why = "file size differs from the catalog";
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

/* One more reference to the entry's slot, loading it when needed. A synchronous load that fails
   returns TL__CONTENT_NONE and holds nothing. */
static uint32_t tl__content_acquire_entry(tl_content *ctx, tl__content_entry *e, bool async) {
    uint32_t index = e->slot;
    tl__content_slot *s;
    bool start = false;
    if (ctx->shutting_down) {
        /* A destroy callback run by shutdown: a slot made now could sit where the release loop
           has passed, and its object would never be destroyed. */
        tl__content_log(ctx, TL_CONTENT_LOG_LOAD_FAILED, e->name, "the context is shutting down");
        return TL__CONTENT_NONE;
    }
#ifdef TL_CONTENT_LIVE
    {
        const char *deleted = tl__content_live_deleted(ctx, e);
        if (deleted && (index == TL__CONTENT_NONE || ctx->slots[index].state == TL__SLOT_FAILED)) {
            tl__content_log(ctx, TL_CONTENT_LOG_LOAD_FAILED, e->name, deleted);
            return TL__CONTENT_NONE;
        }
    }
#endif
    if (index == TL__CONTENT_NONE) {
        index = tl__content_slot_alloc(ctx, e);
        if (index == TL__CONTENT_NONE) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "slots");
            return TL__CONTENT_NONE;
        }
        start = true;
    }
    s = &ctx->slots[index];
    if (s->state == TL__SLOT_FAILED) {
        s->state = TL__SLOT_LOADING; /* a retry */
        start = true;
    }
    if (s->state == TL__SLOT_LOADING && s->decoding) {
        tl__content_log(ctx, TL_CONTENT_LOG_LOAD_FAILED, e->name,
                        "its decoder loads the asset itself");
        return TL__CONTENT_NONE;
    }
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
    tl__content_decref(ctx, index);
    return TL__CONTENT_NONE;
}

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

tl_content *tl_content_create(const tl_content_desc *desc) {
    tl_content_desc zero;
    tl_content *ctx;
    tl__content_scope *root;
    if (!desc) {
        memset(&zero, 0, sizeof zero);
        desc = &zero;
    }
    ctx = (tl_content *)tl__content_zalloc(sizeof *ctx);
    if (!ctx) return NULL;
    ctx->logger = desc->logger;
    ctx->io = desc->io;
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
#ifdef TL__CONTENT_MMAP
    if (sysconf(_SC_PAGESIZE) > 0) ctx->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
#endif
    ctx->scope_free = ctx->slot_free = ctx->ref_free = TL__CONTENT_NONE;
    if (tl__content_scope_alloc(ctx) != 0 || !(ctx->scopes[0].name = tl__content_strdup("Root"))) {
        TL_FREE(ctx->scopes);
        TL_FREE(ctx);
        return NULL;
    }
    root = &ctx->scopes[0];
    root->parent = TL__CONTENT_NONE;
    root->kind = TL_SCOPE_ROOT;
    root->alive = 1;
    return ctx;
}

bool tl_content_register_kind(tl_content *ctx, const tl_content_kind_desc *kind) {
    uint32_t i;
    tl__content_kind *k;
    if (!ctx || !kind || !kind->decode) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_content_register_kind");
        return false;
    }
    for (i = 0; i < ctx->kind_len; i++)
        if ((!kind->category && !ctx->kinds[i].category) ||
            (kind->category && ctx->kinds[i].category &&
             strcmp(kind->category, ctx->kinds[i].category) == 0)) {
            tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                            "tl_content_register_kind (that category has a kind)");
            return false;
        }
    if (!tl__content_grow((void **)&ctx->kinds, &ctx->kind_cap, sizeof *ctx->kinds,
                          ctx->kind_len + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "kinds");
        return false;
    }
    k = &ctx->kinds[ctx->kind_len];
    k->category = kind->category ? tl__content_strdup(kind->category) : NULL;
    if (kind->category && !k->category) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "kinds");
        return false;
    }
    k->decode = kind->decode;
    k->destroy = kind->destroy;
    k->user = kind->user;
    k->reload = kind->reload;
    ctx->kind_len++;
    return true;
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
#ifdef TL_CONTENT_LIVE
    tl__content_live_update(ctx);
#endif
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
            }
            tl__content_finish(ctx, req.slot, stored, "read error");
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
        return NULL;
    }
    return s;
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
        return out;
    }
    if (!tl__content_grow((void **)&p->children, &p->child_cap, sizeof *p->children,
                          p->child_count + 1) ||
        (index = tl__content_scope_alloc(ctx)) == TL__CONTENT_NONE) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        return out;
    }
    s = &ctx->scopes[index];
    s->name = tl__content_strdup(name && name[0] ? name : "Scope");
    if (!s->name) {
        s->next_free = ctx->scope_free;
        ctx->scope_free = index;
        ctx->live_scopes--;
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
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

bool tl_scope_dispose(tl_scope scope) {
    if (!tl__content_scope_get(scope, "tl_scope_dispose")) return false;
    if (scope.index == 0) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_ROOT_DISPOSE);
        return false;
    }
    tl__content_dispose_tree(scope.ctx, scope.index);
    return true;
}

bool tl_scope_valid(tl_scope scope) {
    return scope.ctx && scope.index < scope.ctx->scope_len &&
           scope.ctx->scopes[scope.index].alive && scope.ctx->scopes[scope.index].gen == scope.gen;
}

static tl_asset tl__content_asset(tl_content *ctx, uint32_t slot) {
    tl_asset a;
    a.ctx = ctx;
    a.slot = slot;
    a.gen = ctx->slots[slot].gen;
    return a;
}

static tl_asset tl__content_scope_load(tl_scope scope, tl__content_entry *e, uint32_t id,
                                       bool async, const char *what) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_live(scope, what);
    tl__content_held *h;
    tl_asset none;
    uint32_t slot;
    memset(&none, 0, sizeof none);
    if (!s) return none;
    h = s->held.mem ? tl__content_heldmap_get(s->held, id) : NULL;
    if (h && ctx->slots[h->slot].gen != h->gen) {
        /* Killed by a forced unregister whose destroy callbacks are running (scopes drop such
           keys lazily): the slot may hold another asset by now. */
        tl__content_heldmap_remove(s->held, id);
        h = NULL;
    }
    if (h) {
        /* Held already: the same asset, the scope does not grow. */
        slot = h->slot;
        if (ctx->slots[slot].state == TL__SLOT_READY) return tl__content_asset(ctx, slot);
        if (ctx->slots[slot].state == TL__SLOT_LOADING) {
            if (!async && !ctx->slots[slot].decoding) tl__content_load_now(ctx, slot);
            if (async || ctx->slots[slot].state == TL__SLOT_READY)
                return tl__content_asset(ctx, slot);
        }
        /* Failed: give that reference back and load again. */
        tl__content_heldmap_remove(ctx->scopes[scope.index].held, id);
        tl__content_decref(ctx, slot);
    }
    if (!e) e = tl__content_entry_of(ctx, id);
    if (!e) {
        char text[16];
        snprintf(text, sizeof text, "%u", (unsigned)id);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, text);
        return none;
    }
    if (!tl__content_held_reserve(&ctx->scopes[scope.index],
                                  tl__content_held_count(&ctx->scopes[scope.index]) + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        return none;
    }
    slot = tl__content_acquire_entry(ctx, e, async);
    if (slot == TL__CONTENT_NONE) return none;
    /* A decoder may have loaded into this scope meanwhile, or ended it. */
    if (!tl_scope_valid(scope)) {
        tl__content_decref(ctx, slot);
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
        return none;
    }
    e = tl__content_entry_to_load(scope.ctx, name);
    if (!e) {
        if (tl__content_scope_get(scope, what))
            tl__content_log(scope.ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, name);
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

bool tl_scope_release(tl_scope scope, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_release");
    tl__content_held h;
    if (!s || !s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h)) return false;
    tl__content_heldmap_remove(s->held, id);
    tl__content_after_remove(scope.ctx, s);
    tl__content_decref(scope.ctx, h.slot);
    return true;
}

/* Gives the scope its own reference to a live slot (no growth when it holds the id). */
static bool tl__content_hold_slot(tl_content *ctx, uint32_t scope_index, uint32_t slot) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    uint32_t id = ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) return true;
    ctx->slots[slot].count++;
    if (!tl__content_scope_add(ctx, scope_index, id, slot)) {
        tl__content_decref(ctx, slot);
        return false;
    }
    return true;
}

bool tl_scope_share_to(tl_scope source, tl_scope target, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(source, "tl_scope_share_to");
    tl__content_held h;
    if (!s || !tl__content_scope_live(target, "tl_scope_share_to")) return false;
    if (source.ctx != target.ctx) {
        tl__content_log(source.ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_scope_share_to (two contexts)");
        return false;
    }
    if (!s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h)) return false;
    return tl__content_hold_slot(target.ctx, target.index, h.slot);
}

static tl__content_slot *tl__content_slot_get(tl_asset asset) {
    tl__content_slot *s;
    if (!asset.ctx || asset.slot >= asset.ctx->slot_len) return NULL;
    s = &asset.ctx->slots[asset.slot];
    return s->gen == asset.gen && s->state != TL__SLOT_FREE ? s : NULL;
}

bool tl_scope_adopt(tl_scope target, tl_asset asset) {
    if (!tl__content_scope_live(target, "tl_scope_adopt")) return false;
    if (asset.ctx != target.ctx || !tl__content_slot_get(asset)) {
        tl__content_log(target.ctx, TL_CONTENT_LOG_STALE_ASSET, "tl_scope_adopt");
        return false;
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

bool tl_scope_reparent(tl_scope scope, tl_scope new_parent) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_reparent");
    tl__content_scope *np = tl__content_scope_get(new_parent, "tl_scope_reparent");
    tl__content_scope *old;
    uint32_t last;
    if (!s || !np) return false;
    if (new_parent.ctx != ctx || s->parent == TL__CONTENT_NONE ||
        tl__content_scope_within(ctx, new_parent.index, scope.index)) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_scope_reparent");
        return false;
    }
    if (s->parent == new_parent.index) return true;
    if (!tl__content_grow((void **)&np->children, &np->child_cap, sizeof *np->children,
                          np->child_count + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        return false;
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
    return true;
}

void tl_scope_set_warn_threshold(tl_scope scope, uint32_t threshold) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_set_warn_threshold");
    if (s) {
        s->threshold = threshold;
        s->warned = 0;
        tl__content_after_add(scope.ctx, scope.index);
    }
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
        return none;
    }
    handle.ctx->slots[r->slot].count++;
    return tl__content_new_ref(handle.ctx, r->slot);
}

bool tl_content_dispose(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_get(handle);
    if (!r) {
        tl__content_log(handle.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_content_dispose");
        return false;
    }
    /* A reference a forced unregister invalidated is dropped quietly. */
    if (handle.ctx->slots[r->slot].gen == r->slot_gen) tl__content_decref(handle.ctx, r->slot);
    tl__content_ref_free(handle.ctx, handle.ref);
    return true;
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

bool tl_scope_attach(tl_scope scope, tl_content_handle handle) {
    tl__content_rawref *r;
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_attach");
    uint32_t slot, id;
    if (!s) return false;
    r = tl__content_ref_live(handle);
    if (!r || handle.ctx != scope.ctx) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_scope_attach");
        return false;
    }
    slot = r->slot;
    id = scope.ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) {
        tl__content_decref(scope.ctx, slot); /* held already: the handle's reference goes back */
    } else if (!tl__content_scope_add(scope.ctx, scope.index, id, slot)) {
        return false; /* the handle stays yours */
    }
    tl__content_ref_free(scope.ctx, handle.ref);
    return true;
}

/* --- assets --------------------------------------------------------------------------------------------------- */

bool tl_asset_valid(tl_asset asset) { return tl__content_slot_get(asset) != NULL; }

tl_asset_status tl_asset_get_status(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? (tl_asset_status)s->state : TL_ASSET_INVALID;
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

bool tl_content_unregister_dir(tl_content_dir dir, bool force) {
    tl_content *ctx = dir.ctx;
    tl__content_dirrec *d = tl__content_dir_get(dir);
    uint32_t i, held = 0;
    if (!d) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_content_unregister_dir (stale directory)");
        return false;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_unregister_dir");
        return false;
    }
    for (i = 0; i < d->entry_count; i++) {
        uint32_t slot = d->entries[i].slot;
        if (slot != TL__CONTENT_NONE && ctx->slots[slot].count > 0) held++;
    }
    if (held && !force) {
        tl__content_log(ctx, TL_CONTENT_LOG_DIR_HELD, d->path, held);
        return false;
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
    return true;
}

void tl_content_shutdown(tl_content *ctx) {
    uint32_t i, leftover = 0;
    if (!ctx) return;
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_shutdown");
        return;
    }
#ifdef TL_CONTENT_LIVE
    tl_content_source_report(ctx);
#endif
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
#ifdef TL_CONTENT_LIVE
#include "content_live.h" /* its implementation: part of this one */
#endif
#endif /* TL_CONTENT_IMPL */
