/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/patch.h -- patch plans: what an updater downloads, keeps and deletes.

   WHAT
   ----
   A packed content folder (threadlink-gen pack, schemas/content-formats.md) is an archives.json
   index and archives named by their content. Given the folder a game has installed and the
   archives.json of a newer build (bytes from a download: untrusted), a plan says, for every
   archive the new index lists, whether the installed copy is kept or a download is needed; the
   bytes to fetch; and which installed files to delete once the new version is in place. No
   network code: the game (or examples/patcher, with libcurl) downloads, the plan decides.

   An archive is kept only when the installed folder holds a file of that name whose size and
   XXH64 (of the file's bytes) are the ones the new index records: the plan reads and hashes the
   file; a name alone never decides. Everything else is a download. So a plan reads every
   installed archive the new index names once (XXH64 runs at memory speed; the disk decides).

   INCLUDE
   -------
       #include <threadlink/patch.h>
       #define TL_PATCH_IMPL                   // in exactly one C or C++ file, before the include
       #include <threadlink/patch.h>
   TL_IMPLEMENTATION turns this switch on with every other module's. The implementation reads
   archives.json through content_format.h and hashes with hash.h (both static inline), and logs
   through log.h. The declarations include only api.h (log.h's tl_logger is named, not included).

   OVERRIDES (define before including; pairs or nothing)
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)   allocation (default malloc / free)
   TL_PATCH_MAX_INDEX_BYTES         largest archives.json read (installed) or accepted (new):
                                    default 16 MiB, as content.h's TL_CONTENT_MAX_INDEX_BYTES

   USE
   ---
       tl_patch_desc desc;
       memset(&desc, 0, sizeof desc);            // zero: defaults (see tl_patch_desc)
       desc.installed_dir = "content/Main";      // may not exist yet: a first install
       desc.index = downloaded_json; desc.index_size = downloaded_size;
       tl_patch_plan plan;
       tl_patch_detail why;                      // or NULL: the log line says it too
       tl_patch_result r = tl_patch_plan_make(&plan, &desc, &why);
       if (r != TL_PATCH_OK) { show_error(why.message); return; }   // plan is empty
       for (uint32_t i = 0; i < plan.archive_count; i++)
           if (plan.archives[i].action == TL_PATCH_DOWNLOAD) fetch(plan.archives[i].name, ...);
       ... stage, verify (tl_patch_verify_file), switch (below), then delete plan.deletes ...
       tl_patch_plan_free(&plan);

   APPLYING A PLAN (what examples/patcher does; a crash at any point leaves a loadable version)
   ---------------
   0. Lock the installed folder (an advisory lock: one updater at a time; a second waits, then
      makes its plan against what the first left). Two at once would stage over each other.
   1. Download every TL_PATCH_DOWNLOAD archive into a staging folder inside the installed folder
      (same file system, so renames are atomic), working below one descriptor of the folder and
      never through a link (openat with O_NOFOLLOW); name each staged file by its size and XXH64
      (within any file-name limit, whatever the archive's name: the plan refuses two archives
      with one size and XXH64). Bound what a server can make you store: the plan's
      download_bytes against the free space and a maximum before fetching, each transfer
      stopped past its archive's size. Resume a cut download (HTTP range; a server answering
      with the whole file starts it over); check each with tl_patch_verify_at against the
      plan's size and XXH64 and refuse (delete, retry) one that does not match. Write the new
      archives.json into the staging folder too.
   2. Mount the new version before switching to it: content.h over the folder as it will be
      (the kept archives, the staged ones under their names, the new archives.json), through an
      I/O backend; refuse a version that does not mount or whose new assets do not load.
   3. Rename each staged archive into the installed folder. The plan guarantees that no name the
      installed index lists gets other bytes (TL_PATCH_NAME_REUSED), so the installed version
      stays loadable: its index lists none of the new files.
   4. Rename the staged archives.json over the installed one: the switch. Before it the folder
      loads as the old version, after it as the new one.
   5. Only now delete plan.deletes (the old version's archives), then the staging folder. A
      crash before this step only leaves files behind: the next plan lists them again.

   RULES
   -----
   - The new index is parsed by tl_cf_index_parse (the reader content.h mounts folders with):
     anything it refuses is TL_PATCH_BAD_INDEX with its reason and where (tl_cf_index_parse_ex):
     "new archives.json, byte 197, archive 1 (Main.t-1.tlpk), key "size": not a valid archive
     index (archives.json)" (the byte where reading stopped, or where the archive at fault
     starts; the archive and the key when there is one); so is one larger than
     TL_PATCH_MAX_INDEX_BYTES. An archive name must also end in ".tlpk" and not start with '.'
     (so a forged index cannot overwrite archives.json, the marker or the staging folder), be
     one Windows can hold (no device name such as CON, none of : < > " | ? *: a build is served
     to every system), and share its comparison key (text.h's tl_text_name_key: letters' case
     and Unicode form ignored, as Windows' and macOS's file systems ignore them) with no other
     archive of the new index; the archive sizes must add up below 2^64, and no two
     archives may have one size and XXH64 (one archive's bytes under two names: a build stores
     each asset once, and an updater may name a staged download by its size and XXH64).
   - The installed folder's own archives.json is read when present (at most
     TL_PATCH_MAX_INDEX_BYTES). When it is valid, a new index of another profile is refused
     (TL_PATCH_OTHER_PROFILE), and so is one that lists an installed name with another size or
     XXH64, or one of its names in other case or Unicode form (TL_PATCH_NAME_REUSED: pack never
     does; replacing that file would break the installed version before the switch). When it is
     missing or invalid, the plan still keeps every file that verifies
     (plan.installed_index_found says which case it was).
   - plan.deletes: the archives the installed index lists that the new one does not, and (on
     POSIX systems) every other `<Profile>.*.tlpk` file in the folder the new index does not list
     (leftovers of an update interrupted after its switch). Never a file the new index lists.
   - Files are read only when they are regular files, opened without blocking (POSIX: O_NONBLOCK,
     then fstat): a FIFO, a device or a folder named like an archive or archives.json is a
     missing file (downloaded, or no installed index), never waited on. tl_patch_verify_file
     follows a link; tl_patch_verify_at (POSIX) checks a file below an open folder descriptor and
     never follows one, for an updater that works relative to its folder (examples/patcher).
   - A failed plan_make leaves the plan zeroed (plan_free on it is harmless) and reads, writes
     or deletes nothing on disk but reads of the installed folder. Main thread or any one thread
     per plan: no global state.

   ERRORS
   ------
   Every call that can fail returns tl_patch_result (TL_PATCH_OK = 0, tl_patch_result_message)
   and logs a failure once (desc.logger, or the logger argument; TL_PATCH_LOG_ITEMS) with its
   sentence; patch has no context object, so that sentence (the file, the byte) and the errno
   are the optional tl_patch_detail out-parameter's. docs/errors.md.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_PATCH_IMPL)
#define TL_PATCH_IMPL
#endif
#ifndef TL_PATCH_H
#define TL_PATCH_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/patch.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifndef TL_PATCH_MAX_INDEX_BYTES
#define TL_PATCH_MAX_INDEX_BYTES ((uint64_t)16 << 20)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* log.h's logger, named without its declarations (the implementation includes log.h). */
struct tl_logger;

/* --- results ------------------------------------------------------------------------------------ */

#define TL_PATCH_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(BAD_INDEX, "the new archives.json is not a valid archive index") \
    X(OTHER_PROFILE, "the new archives.json is for another profile than the installed one") \
    X(NAME_REUSED, "the new archives.json gives an installed archive's name to other bytes") \
    X(MISSING, "the file is missing or unreadable") \
    X(WRONG_SIZE, "the file's size is not the recorded one") \
    X(WRONG_HASH, "the file's XXH64 is not the recorded one") \
    X(OUT_OF_MEMORY, "out of memory")

typedef enum tl_patch_result {
    TL_PATCH_OK = 0,
#define TL__PATCH_RESULT_ENUM(id, message) TL_PATCH_##id,
    TL_PATCH_RESULTS(TL__PATCH_RESULT_ENUM)
#undef TL__PATCH_RESULT_ENUM
        TL_PATCH_RESULT_END_
} tl_patch_result;

TL_API const char *tl_patch_result_message(tl_patch_result result);

#define TL_PATCH_MESSAGE_MAX 320
/* What one call met, for a caller that wants more than the result (patch has no context object
   to keep it in): give a tl_patch_detail * (or NULL) to the call. */
typedef struct tl_patch_detail {
    /* A sentence naming the problem and the file, and for a bad index the byte
       ("archive Main.t0-....tlpk: ..."); "ok" on success. The log line carries it too. */
    char message[TL_PATCH_MESSAGE_MAX];
    int native_error; /* errno of the read or open that failed, 0 when none */
} tl_patch_detail;

#define TL_PATCH_LOG_ITEMS(X) \
    X(PLAN_FAILED, TL_LOG_LEVEL_ERROR, "no plan for %s: %s (native error %d)") \
    X(VERIFY_FAILED, TL_LOG_LEVEL_ERROR, "%s (native error %d)")

#define TL_PATCH_LOG_BASE 0x900u
typedef enum tl_patch_log_item {
    TL_PATCH_LOG_NONE_ = TL_PATCH_LOG_BASE - 1,
#define TL__PATCH_LOG_ENUM(id, level, message) TL_PATCH_LOG_##id,
    TL_PATCH_LOG_ITEMS(TL__PATCH_LOG_ENUM) /* TL_PATCH_LOG_<id>, one per row from the base */
#undef TL__PATCH_LOG_ENUM
    TL_PATCH_LOG_END_
} tl_patch_log_item;

/* --- plans -------------------------------------------------------------------------------------- */

typedef enum tl_patch_action {
    TL_PATCH_KEEP = 1,    /* the installed file has this name, size and XXH64 */
    TL_PATCH_DOWNLOAD = 2 /* fetch it, verify it (tl_patch_verify_file), stage it */
} tl_patch_action;

typedef struct tl_patch_archive {
    const char *name; /* a plain file name, as the new index lists it */
    uint64_t size;    /* bytes */
    uint64_t xxh64;   /* of the file's bytes */
    bool is_catalog;
    tl_patch_action action;
} tl_patch_archive;

typedef struct tl_patch_plan {
    const char *profile;    /* the new index's profile */
    uint32_t archive_count; /* every archive of the new index, in its order */
    tl_patch_archive *archives;
    uint32_t download_count, keep_count;
    uint64_t download_bytes; /* the sum of the sizes to fetch */
    uint64_t keep_bytes;
    uint64_t total_bytes;  /* the new version's archives: download_bytes + keep_bytes */
    uint32_t delete_count; /* installed files to delete after the switch (names, sorted) */
    const char *const *deletes;
    bool installed_index_found; /* the folder held a valid archives.json of the same profile */
    void *storage_;             /* freed by tl_patch_plan_free */
} tl_patch_plan;

/* Zero-initialised: defaults. installed_dir and index are required.
     installed_dir   the installed content folder (need not exist: then everything downloads)
     index           the new archives.json bytes (index_size of them; not NUL-terminated)
     logger          where a failure is logged: NULL, stderr */
typedef struct tl_patch_desc {
    const char *installed_dir;
    const char *index;
    size_t index_size;
    const struct tl_logger *logger;
} tl_patch_desc;

/* detail (may be NULL): the failure's sentence (the file, the byte) and native error. */
TL_API tl_patch_result tl_patch_plan_make(tl_patch_plan *plan, const tl_patch_desc *desc,
                                          tl_patch_detail *detail);
TL_API void tl_patch_plan_free(tl_patch_plan *plan);
/* OK when the file at path holds exactly `size` bytes whose XXH64 is `xxh64` (read in 64 KiB
   pieces; at most size + 1 bytes are read); MISSING, WRONG_SIZE or WRONG_HASH otherwise. A path
   that is not a regular file (a FIFO, a device, a folder) is MISSING, never waited on; a link is
   followed. A failure is logged through logger (NULL: stderr); detail (may be NULL) as above. */
TL_API tl_patch_result tl_patch_verify_file(const char *path, uint64_t size, uint64_t xxh64,
                                            const struct tl_logger *logger,
                                            tl_patch_detail *detail);
#if !defined(_WIN32)
/* The same for the file `name` in the open folder dir_fd (POSIX, openat), a symbolic link
   never followed (MISSING): what an updater that works below one folder descriptor uses. */
TL_API tl_patch_result tl_patch_verify_at(int dir_fd, const char *name, uint64_t size,
                                          uint64_t xxh64, const struct tl_logger *logger,
                                          tl_patch_detail *detail);
#endif

#ifdef __cplusplus
}
#endif
#endif /* TL_PATCH_H */

/* ================================================================================================
   Implementation
   ================================================================================================ */
#if defined(TL_PATCH_IMPL) && !defined(TL__PATCH_IMPLEMENTED)
#define TL__PATCH_IMPLEMENTED
#include "content_format.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
#include "hash.h"

#ifdef __cplusplus
extern "C" {
#endif

TL_RESULT_MESSAGE_FN(tl_patch_result_message, tl_patch_result, TL_PATCH_RESULTS)
TL_LOG_TABLE_FN(tl__patch_log, TL_PATCH_LOG_ITEMS, TL_PATCH_LOG_BASE, "Patch")

/* What a step met: the result, its sentence, the native error. The public calls return the
   result and hand the rest to their caller's tl_patch_detail and log line (tl__patch_report). */
typedef struct tl__patch_status {
    tl_patch_result code;
    int native;
    char message[TL_PATCH_MESSAGE_MAX];
} tl__patch_status;

/* A result whose message is the parts joined, truncated to fit (NULL parts are skipped). */
static tl__patch_status tl__patch_say(tl_patch_result code, const char *a, const char *b,
                                      const char *c) {
    tl__patch_status r;
    const char *parts[3];
    size_t used = 0, i;
    parts[0] = a;
    parts[1] = b;
    parts[2] = c;
    r.code = code;
    r.native = 0;
    for (i = 0; i < 3; i++) {
        size_t n = parts[i] ? strlen(parts[i]) : 0;
        if (n > sizeof r.message - 1 - used) n = sizeof r.message - 1 - used;
        if (n) memcpy(r.message + used, parts[i], n);
        used += n;
    }
    r.message[used] = '\0';
    return r;
}

static tl__patch_status tl__patch_code(tl_patch_result code) {
    return tl__patch_say(code, tl_patch_result_message(code), NULL, NULL);
}

/* Appends text to r's message, cut to fit. */
static void tl__patch_append(tl__patch_status *r, const char *text) {
    size_t used = strlen(r->message), n = strlen(text);
    if (n > sizeof r->message - 1 - used) n = sizeof r->message - 1 - used;
    memcpy(r->message + used, text, n);
    r->message[used + n] = '\0';
}

/* dir '/' name into buf; false when it does not fit. */
static bool tl__patch_join(char *buf, size_t cap, const char *dir, const char *name) {
    size_t d = strlen(dir), n = strlen(name);
    if (d + 1 + n + 1 > cap) return false;
    memcpy(buf, dir, d);
    buf[d] = '/';
    memcpy(buf + d + 1, name, n + 1);
    return true;
}

/* --- reading files ------------------------------------------------------------------------------ */

/* A file open for reading: on POSIX a descriptor, opened without blocking (a FIFO or a device
   named like an archive would otherwise wait for a writer forever) and refused unless it is a
   regular file; elsewhere a stdio stream. */
typedef struct tl__patch_reader {
#if !defined(_WIN32)
    int fd;
#else
    FILE *f;
#endif
} tl__patch_reader;

#define TL__PATCH_CWD (-100) /* tl__patch_open's dir_fd meaning "name is a path" */

#if !defined(_WIN32)
static int tl__patch_open_flags(bool follow) {
    int flags = O_RDONLY | O_NONBLOCK;
#ifdef O_CLOEXEC
    flags |= O_CLOEXEC;
#endif
#ifdef O_NOFOLLOW
    if (!follow) flags |= O_NOFOLLOW;
#endif
    (void)follow;
    return flags;
}

/* Opens `name` below the folder dir_fd (TL__PATCH_CWD: `name` is a path); `follow`: a link as
   the last component is followed. NULL, or why not (a system error, its errno in *native, or
   "not a regular file"). */
static const char *tl__patch_open(tl__patch_reader *r, int dir_fd, const char *name, bool follow,
                                  int *native) {
    struct stat st;
    *native = 0;
#if defined(AT_FDCWD)
    r->fd = openat(dir_fd == TL__PATCH_CWD ? AT_FDCWD : dir_fd, name, tl__patch_open_flags(follow));
#else
    if (dir_fd != TL__PATCH_CWD) return "openat is not declared (define _POSIX_C_SOURCE 200809L)";
    r->fd = open(name, tl__patch_open_flags(follow));
#endif
    if (r->fd < 0) {
        *native = errno;
        return errno == ELOOP ? "a symbolic link, never followed here" : strerror(errno);
    }
    if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode)) return NULL;
    close(r->fd);
    return "not a regular file";
}

/* Up to n bytes (fewer only at the end of the file); (size_t)-1 on a read error. */
static size_t tl__patch_read(tl__patch_reader *r, void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(r->fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return (size_t)-1;
        if (k == 0) break;
        got += (size_t)k;
    }
    return got;
}

static void tl__patch_close(tl__patch_reader *r) { close(r->fd); }
#else
static const char *tl__patch_open(tl__patch_reader *r, int dir_fd, const char *name, bool follow,
                                  int *native) {
    (void)follow;
    *native = 0;
    if (dir_fd != TL__PATCH_CWD) return "no folder descriptors on this system";
    r->f = fopen(name, "rb");
    if (!r->f) *native = errno;
    return r->f ? NULL : "cannot be opened";
}

static size_t tl__patch_read(tl__patch_reader *r, void *buf, size_t n) {
    size_t got = fread(buf, 1, n, r->f);
    return ferror(r->f) ? (size_t)-1 : got;
}

static void tl__patch_close(tl__patch_reader *r) { fclose(r->f); }
#endif

/* The size and XXH64 of an open file against the recorded ones (at most size + 1 bytes read). */
static tl__patch_status tl__patch_verify_open(tl__patch_reader *r, const char *label, uint64_t size,
                                              uint64_t xxh64) {
    unsigned char buf[65536];
    tl_hash64_state state;
    uint64_t total = 0;
    size_t got, want;
    tl_hash64_reset(&state, 0);
    do {
        want = sizeof buf;
        if (size - total < want) want = (size_t)(size - total) + 1; /* one more tells "longer" */
        got = tl__patch_read(r, buf, want);
        if (got == (size_t)-1) {
            int native = errno;
            tl__patch_status failed = tl__patch_say(TL_PATCH_MISSING, label, ": ", "read error");
            failed.native = native;
            return failed;
        }
        total += got;
        if (total > size) break;
        tl_hash64_update(&state, buf, got);
    } while (got == want);
    if (total != size)
        return tl__patch_say(TL_PATCH_WRONG_SIZE, label, ": ",
                             tl_patch_result_message(TL_PATCH_WRONG_SIZE));
    if (tl_hash64_digest(&state) != xxh64)
        return tl__patch_say(TL_PATCH_WRONG_HASH, label, ": ",
                             tl_patch_result_message(TL_PATCH_WRONG_HASH));
    return tl__patch_code(TL_PATCH_OK);
}

static tl__patch_status tl__patch_verify(int dir_fd, const char *name, bool follow, uint64_t size,
                                         uint64_t xxh64) {
    tl__patch_reader r;
    tl__patch_status res;
    const char *why;
    char reason[TL_PATCH_MESSAGE_MAX];
    int native;
    if (!name) return tl__patch_code(TL_PATCH_INVALID_ARGUMENT);
    why = tl__patch_open(&r, dir_fd, name, follow, &native);
    if (why) {
        snprintf(reason, sizeof reason, "%s (%s)", tl_patch_result_message(TL_PATCH_MISSING), why);
        res = tl__patch_say(TL_PATCH_MISSING, name, ": ", reason);
        res.native = native;
        return res;
    }
    res = tl__patch_verify_open(&r, name, size, xxh64);
    tl__patch_close(&r);
    return res;
}

/* A public call's end: the status into the caller's detail, a failure logged (naming the file,
   with the native error), the result returned. `what`: the plan's folder, or NULL for a check. */
static tl_patch_result tl__patch_report(const tl_logger *logger, const char *what,
                                        const tl__patch_status *r, tl_patch_detail *detail) {
    if (detail) {
        memcpy(detail->message, r->message, sizeof detail->message);
        detail->native_error = r->native;
    }
    if (r->code != TL_PATCH_OK && what)
        tl__patch_log(logger, TL_PATCH_LOG_PLAN_FAILED, what, r->message, r->native);
    else if (r->code != TL_PATCH_OK)
        tl__patch_log(logger, TL_PATCH_LOG_VERIFY_FAILED, r->message, r->native);
    return r->code;
}

static tl__patch_status tl__patch_verify_file_status(const char *path, uint64_t size,
                                                     uint64_t xxh64) {
    return tl__patch_verify(TL__PATCH_CWD, path, true, size, xxh64);
}

tl_patch_result tl_patch_verify_file(const char *path, uint64_t size, uint64_t xxh64,
                                     const tl_logger *logger, tl_patch_detail *detail) {
    tl__patch_status r = tl__patch_verify_file_status(path, size, xxh64);
    return tl__patch_report(logger, NULL, &r, detail);
}

#if !defined(_WIN32)
tl_patch_result tl_patch_verify_at(int dir_fd, const char *name, uint64_t size, uint64_t xxh64,
                                   const tl_logger *logger, tl_patch_detail *detail) {
    tl__patch_status r = dir_fd < 0 ? tl__patch_code(TL_PATCH_INVALID_ARGUMENT)
                                    : tl__patch_verify(dir_fd, name, false, size, xxh64);
    return tl__patch_report(logger, NULL, &r, detail);
}
#endif

/* --- the plan's storage ------------------------------------------------------------------------- */

typedef struct tl__patch_store {
    tl_cf_index index; /* the new index: the plan's names point into it */
    tl_patch_archive *archives;
    const tl_cf_index_archive **sorted; /* the new index's archives by name, for lookups */
    char **deletes;
    uint32_t delete_count, delete_cap;
} tl__patch_store;

static int tl__patch_compare_archives(const void *a, const void *b) {
    return strcmp((*(const tl_cf_index_archive *const *)a)->name,
                  (*(const tl_cf_index_archive *const *)b)->name);
}

static int tl__patch_compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Pointers to x's archives sorted by name (NULL when out of memory). */
static const tl_cf_index_archive **tl__patch_sort(const tl_cf_index *x) {
    const tl_cf_index_archive **s =
        (const tl_cf_index_archive **)TL_MALLOC((x->archive_count + 1u) * sizeof *s);
    uint32_t i;
    if (!s) return NULL;
    for (i = 0; i < x->archive_count; i++) s[i] = &x->archives[i];
    qsort((void *)s, x->archive_count, sizeof *s, tl__patch_compare_archives);
    return s;
}

/* The archive named `name` among `count` sorted ones, or NULL. */
static const tl_cf_index_archive *tl__patch_find(const tl_cf_index_archive *const *sorted,
                                                 uint32_t count, const char *name) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(sorted[mid]->name, name);
        if (c == 0) return sorted[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static void tl__patch_store_free(tl__patch_store *s) {
    uint32_t i;
    if (!s) return;
    for (i = 0; i < s->delete_count; i++) TL_FREE(s->deletes[i]);
    if (s->deletes) TL_FREE(s->deletes);
    if (s->sorted) TL_FREE((void *)s->sorted);
    if (s->archives) TL_FREE(s->archives);
    tl_cf_index_free(&s->index);
    TL_FREE(s);
}

/* Adds a copy of name to the deletes (repeats are dropped once they are sorted). */
static bool tl__patch_add_delete(tl__patch_store *s, const char *name) {
    size_t n = strlen(name);
    if (s->delete_count == s->delete_cap) {
        uint32_t cap = s->delete_cap ? s->delete_cap * 2u : 16u;
        char **grown = (char **)TL_MALLOC(cap * sizeof *grown);
        if (!grown) return false;
        if (s->delete_count) memcpy(grown, s->deletes, s->delete_count * sizeof *grown);
        if (s->deletes) TL_FREE(s->deletes);
        s->deletes = grown;
        s->delete_cap = cap;
    }
    s->deletes[s->delete_count] = (char *)TL_MALLOC(n + 1);
    if (!s->deletes[s->delete_count]) return false;
    memcpy(s->deletes[s->delete_count++], name, n + 1);
    return true;
}

/* The deletes sorted by name, each once (sorting, then comparing neighbours: a name found both in
   the installed index and in the folder is listed once, without comparing every pair). */
static void tl__patch_sort_deletes(tl__patch_store *s) {
    uint32_t i, kept = 0;
    if (s->delete_count > 1)
        qsort(s->deletes, s->delete_count, sizeof *s->deletes, tl__patch_compare_names);
    for (i = 0; i < s->delete_count; i++) {
        if (kept && strcmp(s->deletes[kept - 1], s->deletes[i]) == 0) TL_FREE(s->deletes[i]);
        else s->deletes[kept++] = s->deletes[i];
    }
    s->delete_count = kept;
}

/* --- reading the indexes ------------------------------------------------------------------------ */

/* The whole file, at most max bytes, into a TL_MALLOC block; false when missing, not a regular
   file, larger or unreadable. */
static bool tl__patch_read_small_file(const char *path, uint64_t max, char **out, size_t *len) {
    tl__patch_reader r;
    size_t cap = 4096, used = 0;
    char *buf;
    bool ok;
    int native;
    if (tl__patch_open(&r, TL__PATCH_CWD, path, true, &native)) return false;
    buf = (char *)TL_MALLOC(cap);
    ok = buf != NULL;
    while (ok) {
        size_t got;
        if (used == cap) {
            char *grown = used > max ? NULL : (char *)TL_MALLOC(cap * 2);
            ok = grown != NULL;
            if (!ok) break;
            memcpy(grown, buf, used);
            TL_FREE(buf);
            buf = grown;
            cap *= 2;
        }
        got = tl__patch_read(&r, buf + used, cap - used);
        ok = got != (size_t)-1;
        if (!ok || got == 0) break;
        used += got;
    }
    tl__patch_close(&r);
    ok = ok && used <= max;
    if (!ok) {
        if (buf) TL_FREE(buf);
        return false;
    }
    *out = buf;
    *len = used;
    return true;
}

/* The installed folder's archives.json when present and valid (found false otherwise). */
static bool tl__patch_read_installed(const char *dir, tl_cf_index *old, bool *found) {
    char path[4096];
    char *text;
    size_t len;
    tl_cf_result r;
    memset(old, 0, sizeof *old);
    *found = false;
    if (!tl__patch_join(path, sizeof path, dir, "archives.json")) return true;
    if (!tl__patch_read_small_file(path, TL_PATCH_MAX_INDEX_BYTES, &text, &len)) return true;
    r = tl_cf_index_parse(old, text, len, NULL);
    TL_FREE(text);
    *found = r == TL_CF_OK;
    return r != TL_CF_NO_MEMORY;
}

/* A name the updater may write into the folder: "*.tlpk", not hidden, one every system can hold
   (a build is served to all of them; on Windows "CON.tlpk" opens the console). */
static bool tl__patch_archive_name_ok(const char *name) {
    size_t n = strlen(name);
    return n > 5 && name[0] != '.' && strcmp(name + n - 5, ".tlpk") == 0 &&
           tl_text_portable_file_name(name, n) && !tl_text_windows_name_problem(name, n);
}

/* What tl_cf_index_parse leaves to the plan: names it may write, sizes that add up. */
static tl__patch_status tl__patch_check_new(const tl_cf_index *x) {
    uint64_t total = 0;
    uint32_t i;
    for (i = 0; i < x->archive_count; i++) {
        const tl_cf_index_archive *a = &x->archives[i];
        const char *windows = tl_text_windows_name_problem(a->name, strlen(a->name));
        if (windows) {
            tl__patch_status r = tl__patch_say(TL_PATCH_BAD_INDEX,
                                               "new archives.json: archive name '", a->name, "' ");
            tl__patch_append(&r, windows);
            return r;
        }
        if (!tl__patch_archive_name_ok(a->name))
            return tl__patch_say(
                TL_PATCH_BAD_INDEX, "new archives.json: archive name '", a->name,
                "' is not an archive file name (<name>.tlpk, not starting with '.')");
        if (a->size > UINT64_MAX - total)
            return tl__patch_say(TL_PATCH_BAD_INDEX,
                                 "new archives.json: the archive sizes add up past 2^64", NULL,
                                 NULL);
        total += a->size;
    }
    return tl__patch_code(TL_PATCH_OK);
}

static int tl__patch_compare_contents(const void *a, const void *b) {
    const tl_cf_index_archive *x = *(const tl_cf_index_archive *const *)a;
    const tl_cf_index_archive *y = *(const tl_cf_index_archive *const *)b;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    if (x->xxh64 != y->xxh64) return x->xxh64 < y->xxh64 ? -1 : 1;
    return x < y ? -1 : x > y; /* index order among equals: the earlier name is named first */
}

/* No two archives with one size and XXH64 (sorted by them, neighbours compared): one archive's
   bytes under two names cannot be a build (each asset is stored once), and an updater may stage
   a download under its size and XXH64 alone. */
static tl__patch_status tl__patch_check_contents(const tl_cf_index *x) {
    const tl_cf_index_archive **by =
        (const tl_cf_index_archive **)TL_MALLOC((x->archive_count + 1u) * sizeof *by);
    tl__patch_status r = tl__patch_code(TL_PATCH_OK);
    uint32_t i;
    if (!by) return tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    for (i = 0; i < x->archive_count; i++) by[i] = &x->archives[i];
    qsort((void *)by, x->archive_count, sizeof *by, tl__patch_compare_contents);
    for (i = 1; i < x->archive_count && r.code == TL_PATCH_OK; i++)
        if (by[i - 1]->size == by[i]->size && by[i - 1]->xxh64 == by[i]->xxh64) {
            r = tl__patch_say(TL_PATCH_BAD_INDEX, "new archives.json: archives ", by[i - 1]->name,
                              NULL);
            tl__patch_append(&r, " and ");
            tl__patch_append(&r, by[i]->name);
            tl__patch_append(&r, " have one size and XXH64 (a build stores each asset once)");
        }
    TL_FREE((void *)by);
    return r;
}

/* --- names one file system takes for one -----------------------------------------------------
   Windows' and macOS's file systems ignore letters' case, and macOS's stores names in one Unicode
   form: two names with one key (text.h's tl_text_name_key) are one file there. A new archive whose
   name shares a key with another new one, or with an installed archive without being its name,
   would replace that file's bytes (the installed version broken before the switch, or the new
   one deleted after it): refused. Keys sorted, neighbours compared. */
typedef struct tl__patch_key {
    const char *key, *name;
    size_t len;
    bool installed;
} tl__patch_key;

static int tl__patch_compare_keys(const void *a, const void *b) {
    const tl__patch_key *x = (const tl__patch_key *)a, *y = (const tl__patch_key *)b;
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    if (x->installed != y->installed) return x->installed ? -1 : 1; /* the installed name first */
    return strcmp(x->name, y->name);
}

/* Each name's key, in one block: false when out of memory. */
static bool tl__patch_keys_make(tl__patch_key *keys, uint32_t count, char **block) {
    char scratch[TL_TEXT_NAME_KEY_MAX(256)];
    size_t total = 0, at = 0;
    uint32_t i;
    for (i = 0; i < count; i++) {
        size_t n = strlen(keys[i].name);
        keys[i].len = n <= 255 ? tl_text_name_key(keys[i].name, n, scratch, sizeof scratch) : n;
        total += keys[i].len;
    }
    *block = (char *)TL_MALLOC(total + 1u);
    if (!*block) return false;
    for (i = 0; i < count; i++) {
        size_t n = strlen(keys[i].name);
        if (n <= 255) (void)tl_text_name_key(keys[i].name, n, *block + at, keys[i].len + 1u);
        else memcpy(*block + at, keys[i].name, n);
        keys[i].key = *block + at;
        at += keys[i].len;
    }
    return true;
}

static tl__patch_status tl__patch_check_keys(const tl_cf_index *old, const tl_cf_index *now) {
    uint32_t count = (old ? old->archive_count : 0) + now->archive_count, i, k = 0;
    tl__patch_key *keys = (tl__patch_key *)TL_MALLOC((count + 1u) * sizeof *keys);
    tl__patch_status r = tl__patch_code(TL_PATCH_OK);
    char *block = NULL;
    if (!keys) return tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    for (i = 0; old && i < old->archive_count; i++) {
        keys[k].name = old->archives[i].name;
        keys[k++].installed = true;
    }
    for (i = 0; i < now->archive_count; i++) {
        keys[k].name = now->archives[i].name;
        keys[k++].installed = false;
    }
    if (!tl__patch_keys_make(keys, count, &block)) r = tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    if (r.code == TL_PATCH_OK) qsort(keys, count, sizeof *keys, tl__patch_compare_keys);
    for (i = 1; i < count && r.code == TL_PATCH_OK; i++) {
        const tl__patch_key *a = &keys[i - 1], *b = &keys[i];
        if (b->installed || a->len != b->len || memcmp(a->key, b->key, a->len) != 0 ||
            strcmp(a->name, b->name) == 0)
            continue;
        r = tl__patch_say(a->installed ? TL_PATCH_NAME_REUSED : TL_PATCH_BAD_INDEX,
                          "new archives.json: archive ", b->name,
                          a->installed ? " is the installed " : " and archive ");
        tl__patch_append(&r, a->name);
        tl__patch_append(
            &r, " on file systems that ignore case or Unicode form (Windows, macOS): one file");
    }
    TL_FREE(block);
    TL_FREE(keys);
    return r;
}

/* The installed index against the new one: same profile, no name given to other bytes. */
static tl__patch_status tl__patch_check_against(const tl_cf_index *old, const tl__patch_store *s) {
    uint32_t i;
    if (strcmp(old->profile, s->index.profile) != 0)
        return tl__patch_say(TL_PATCH_OTHER_PROFILE, "new archives.json: profile '",
                             s->index.profile, "' is not the installed folder's profile");
    for (i = 0; i < old->archive_count; i++) {
        const tl_cf_index_archive *was = &old->archives[i];
        const tl_cf_index_archive *now =
            tl__patch_find(s->sorted, s->index.archive_count, was->name);
        if (now && (now->size != was->size || now->xxh64 != was->xxh64 ||
                    now->is_catalog != was->is_catalog))
            return tl__patch_say(
                TL_PATCH_NAME_REUSED, "new archives.json: archive ", was->name,
                " is installed with another size or XXH64 (a new build must not reuse an archive name)");
    }
    return tl__patch_code(TL_PATCH_OK);
}

/* --- deciding ------------------------------------------------------------------------------------ */

/* Every archive of the new index: kept when the installed file verifies, downloaded otherwise. */
static void tl__patch_classify(tl_patch_plan *plan, tl__patch_store *s, const char *dir) {
    uint32_t i;
    char path[4096];
    for (i = 0; i < s->index.archive_count; i++) {
        const tl_cf_index_archive *a = &s->index.archives[i];
        tl_patch_archive *p = &s->archives[i];
        p->name = a->name;
        p->size = a->size;
        p->xxh64 = a->xxh64;
        p->is_catalog = a->is_catalog;
        p->action = TL_PATCH_DOWNLOAD;
        if (tl__patch_join(path, sizeof path, dir, a->name) &&
            tl__patch_verify_file_status(path, a->size, a->xxh64).code == TL_PATCH_OK)
            p->action = TL_PATCH_KEEP;
        if (p->action == TL_PATCH_KEEP) {
            plan->keep_count++;
            plan->keep_bytes += a->size;
        } else {
            plan->download_count++;
            plan->download_bytes += a->size;
        }
    }
    plan->total_bytes = plan->keep_bytes + plan->download_bytes;
}

#if !defined(_WIN32)
/* "<profile>." ... ".tlpk": a name pack gives this profile's archives. */
static bool tl__patch_profile_archive(const char *name, const char *profile) {
    size_t p = strlen(profile);
    return strncmp(name, profile, p) == 0 && name[p] == '.' && tl__patch_archive_name_ok(name);
}
#endif

/* Leftover archives of the profile in the folder that the new index does not list (POSIX: on
   Windows only the installed index's dropped archives are deleted). */
static bool tl__patch_scan_leftovers(tl__patch_store *s, const char *dir) {
#if !defined(_WIN32)
    DIR *d = opendir(dir);
    struct dirent *e;
    bool ok = true;
    if (!d) return true;
    while (ok && (e = readdir(d)) != NULL) {
        if (tl__patch_profile_archive(e->d_name, s->index.profile) &&
            !tl__patch_find(s->sorted, s->index.archive_count, e->d_name))
            ok = tl__patch_add_delete(s, e->d_name);
    }
    closedir(d);
    return ok;
#else
    (void)s;
    (void)dir;
    return true;
#endif
}

/* The installed index's archives the new one drops, then the folder's leftovers; sorted. */
static bool tl__patch_collect_deletes(tl__patch_store *s, const tl_cf_index *old, const char *dir) {
    uint32_t i;
    for (i = 0; i < old->archive_count; i++)
        if (!tl__patch_find(s->sorted, s->index.archive_count, old->archives[i].name) &&
            tl__patch_archive_name_ok(old->archives[i].name) &&
            !tl__patch_add_delete(s, old->archives[i].name))
            return false;
    if (!tl__patch_scan_leftovers(s, dir)) return false;
    tl__patch_sort_deletes(s);
    return true;
}

/* BAD_INDEX located: "new archives.json, byte 197, archive 1 (Main.t-1.tlpk), key "size": why". */
static tl__patch_status tl__patch_bad_index(const tl_cf_index_fault *at, const char *why) {
    tl__patch_status r = tl__patch_say(TL_PATCH_BAD_INDEX, "new archives.json, byte ", NULL, NULL);
    char number[24];
    snprintf(number, sizeof number, "%llu", (unsigned long long)at->offset);
    tl__patch_append(&r, number);
    if (at->archive != UINT32_MAX) {
        snprintf(number, sizeof number, "%lu", (unsigned long)at->archive);
        tl__patch_append(&r, ", archive ");
        tl__patch_append(&r, number);
        if (at->name[0]) {
            tl__patch_append(&r, " (");
            tl__patch_append(&r, at->name);
            tl__patch_append(&r, ")");
        }
    }
    if (at->key[0]) {
        tl__patch_append(&r, ", key \"");
        tl__patch_append(&r, at->key);
        tl__patch_append(&r, "\"");
    }
    tl__patch_append(&r, ": ");
    tl__patch_append(&r, why);
    return r;
}

/* Parses the new index into a fresh store (NULL with the reason in *r). */
static tl__patch_store *tl__patch_store_make(const tl_patch_desc *desc, tl__patch_status *r) {
    const char *why = NULL;
    tl_cf_index_fault fault;
    tl_cf_result cr;
    tl__patch_store *s = (tl__patch_store *)TL_MALLOC(sizeof *s);
    if (!s) {
        *r = tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    if (desc->index_size > TL_PATCH_MAX_INDEX_BYTES) { /* content.h would not mount it */
        *r = tl__patch_say(TL_PATCH_BAD_INDEX,
                           "new archives.json: larger than TL_PATCH_MAX_INDEX_BYTES",
                           " (16 MiB by default, as content.h's TL_CONTENT_MAX_INDEX_BYTES)", NULL);
        tl__patch_store_free(s);
        return NULL;
    }
    cr = tl_cf_index_parse_ex(&s->index, desc->index, desc->index_size, &why, &fault);
    if (cr != TL_CF_OK) {
        *r = cr == TL_CF_NO_MEMORY ? tl__patch_code(TL_PATCH_OUT_OF_MEMORY)
                                   : tl__patch_bad_index(&fault, why);
        tl__patch_store_free(s);
        return NULL;
    }
    *r = tl__patch_check_new(&s->index);
    if (r->code == TL_PATCH_OK) *r = tl__patch_check_contents(&s->index);
    if (r->code == TL_PATCH_OK) {
        s->archives = (tl_patch_archive *)TL_MALLOC(s->index.archive_count * sizeof *s->archives);
        s->sorted = tl__patch_sort(&s->index);
        if (!s->archives || !s->sorted) *r = tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    }
    if (r->code != TL_PATCH_OK) {
        tl__patch_store_free(s);
        return NULL;
    }
    return s;
}

static tl__patch_status tl__patch_plan_status(tl_patch_plan *plan, const tl_patch_desc *desc) {
    tl__patch_status r;
    tl_cf_index old;
    tl__patch_store *s;
    bool found = false;
    if (!plan)
        return tl__patch_say(TL_PATCH_INVALID_ARGUMENT, "tl_patch_plan_make: no plan", NULL, NULL);
    memset(plan, 0, sizeof *plan);
    if (!desc || !desc->installed_dir || !desc->index)
        return tl__patch_say(TL_PATCH_INVALID_ARGUMENT, "tl_patch_plan_make: ",
                             "desc, desc.installed_dir and desc.index are required", NULL);
    s = tl__patch_store_make(desc, &r);
    if (!s) return r;
    if (!tl__patch_read_installed(desc->installed_dir, &old, &found))
        r = tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    else if (found) r = tl__patch_check_against(&old, s);
    if (r.code == TL_PATCH_OK) r = tl__patch_check_keys(found ? &old : NULL, &s->index);
    if (r.code == TL_PATCH_OK) tl__patch_classify(plan, s, desc->installed_dir);
    if (r.code == TL_PATCH_OK && !tl__patch_collect_deletes(s, &old, desc->installed_dir))
        r = tl__patch_code(TL_PATCH_OUT_OF_MEMORY);
    tl_cf_index_free(&old);
    if (r.code != TL_PATCH_OK) {
        tl__patch_store_free(s);
        memset(plan, 0, sizeof *plan);
        return r;
    }
    plan->profile = s->index.profile;
    plan->archive_count = s->index.archive_count;
    plan->archives = s->archives;
    plan->delete_count = s->delete_count;
    plan->deletes = (const char *const *)s->deletes;
    plan->installed_index_found = found;
    plan->storage_ = s;
    return r;
}

tl_patch_result tl_patch_plan_make(tl_patch_plan *plan, const tl_patch_desc *desc,
                                   tl_patch_detail *detail) {
    tl__patch_status r = tl__patch_plan_status(plan, desc);
    const char *dir = desc && desc->installed_dir ? desc->installed_dir : "(no installed_dir)";
    return tl__patch_report(desc ? desc->logger : NULL, dir, &r, detail);
}

void tl_patch_plan_free(tl_patch_plan *plan) {
    if (!plan) return;
    tl__patch_store_free((tl__patch_store *)plan->storage_);
    memset(plan, 0, sizeof *plan);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_PATCH_IMPL */
