/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/content_format.h -- the one validating reader of the content formats.

   WHAT
   ----
   The binary catalog (.tlcat), the packed archive container (.tlpk: header and table of
   contents) and the archives.json index (spec: schemas/content-formats.md and
   schemas/archives.schema.json). content.h mounts directories through these readers and
   threadlink-gen reads its previous archives.json (and its tests read everything back) through
   them, so there is one definition of a valid file and one attack surface to fuzz.

   Every reader takes bytes it does not trust: every count, offset, size and string is checked
   before it is used, nothing is read outside [data, data + size), and a reader answers TL_CF_OK
   or the class of the first problem it finds. When `why` is not NULL it also gets a sentence
   naming the problem ("catalog: invalid name index"); tl_cf_result_message names a class.

   INCLUDE
   -------
       #include <threadlink/content_format.h>   (no implementation switch: static inline)
   The readers of content.h's and patch.h's implementations (and the generator's): being static
   inline, any number of files use them and none implements them. They check names with text.h
   and hash with hash.h, both static inline too.

   OVERRIDES (define before including; pairs or nothing)
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)   allocation (default malloc / free); only tl_cf_index_parse(_ex)
                                    allocates (one block, freed by tl_cf_index_free)
   TL_CONTENT_LZ4                   tl_cf_decode reads lz4 entries (include <lz4.h>, link liblz4)
   TL_CONTENT_ZSTD                  tl_cf_decode reads zstd entries (include <zstd.h>, link libzstd)
       Define the codec macros where content.h is implemented; without them, tl_cf_decode
       refuses entries stored with that codec (tl_cf_codec_built says which are there).

   ERRORS
   ------
   A reader that can fail returns tl_cf_result (TL_CF_OK = 0, tl_cf_result_message; the rows of
   TL_CF_RESULTS), the sentence naming the problem in its optional `why` out-parameter. A reader
   has no context and no logger: its caller (content.h, patch.h, the generator) logs the failure,
   with that sentence and the file it read. See docs/errors.md.
*/
#ifndef TL_CONTENT_FORMAT_H
#define TL_CONTENT_FORMAT_H

#include "api.h"
#include "text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/content_format.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A reader's answer (docs/errors.md): TL_CF_OK (0) or one of these rows, TL_CF_<ID> in this
   order; tl_cf_result_message gives the row's message. */
#define TL_CF_RESULTS(X) \
    X(TRUNCATED, "truncated") /* shorter than its header or its tables say */ \
    X(BAD_MAGIC, "not this format (bad magic)") \
    X(BAD_VERSION, "unsupported format version") \
    X(BAD_HEADER, "invalid header") /* a reserved field not 0, unknown flag, count too large */ \
    X(BAD_SIZE, "file size does not match the header") /* not what the header adds up to */ \
    X(BAD_CHECKSUM, "checksum mismatch")               /* a recorded XXH64 does not match */ \
    X(BAD_ENTRY, "invalid table entry") /* out of bounds, out of order or inconsistent */ \
    X(BAD_STRING, "invalid string")     /* out of bounds, not NUL-terminated or not UTF-8 */ \
    X(BAD_CODEC, "unknown codec or undecodable data") /* or not decoding to the original */ \
    X(NOT_FOUND, "not found") \
    X(NO_MEMORY, "out of memory") \
    X(BAD_JSON, "not a valid archive index") /* archives.json: not JSON or not its shape */ \
    X(TOO_LARGE, "an entry is larger than accepted") /* larger than the caller accepts */

typedef enum tl_cf_result {
    TL_CF_OK = 0,
#define TL__CF_RESULT_ENUM(id, message) TL_CF_##id,
    TL_CF_RESULTS(TL__CF_RESULT_ENUM)
#undef TL__CF_RESULT_ENUM
        TL_CF_RESULT_END_
} tl_cf_result;

/* The row's message; "ok" for TL_CF_OK, "unknown result" outside the table. */
static inline const char *tl_cf_result_message(tl_cf_result result);

/* XXH64 (seed 0) of a byte range: the checksum every format records. */
static inline uint64_t tl_cf_xxh64(const void *data, size_t size);

static inline uint32_t tl_cf_get_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tl_cf_get_u64(const unsigned char *p) {
    return (uint64_t)tl_cf_get_u32(p) | (uint64_t)tl_cf_get_u32(p + 4) << 32;
}

/* Names follow text.h's rules (UTF-8, case folding, file names). A name a flat build ("archive":
   "none") may hold as each component of an asset's path, which it writes as a file on every
   platform: tl_text_portable_file_name and no tl_text_windows_name_problem. Only
   flat paths are checked so: a packed build's asset names are lookup keys, not file names. */
static inline bool tl_cf_flat_file_name(const char *s, size_t len);

/* ---- Source trees: the rules `pack` reads a profile's source tree by --------------------
   One definition for threadlink-gen's scan and content.h's development mode (profiles served from
   their source tree, TL_CONTENT_LIVE), so that a name that works in development works in the
   build. The walk itself (folders in sorted order, links followed only inside the root, special
   files skipped) is each side's; what an entry is called and whether it may be content is here. */
typedef enum tl_cf_names {
    TL_CF_NAMES_STEM = 0, /* "names": "stem" (default): the last segment's extension dropped */
    TL_CF_NAMES_PATH = 1  /* "names": "path": the relative path as it is */
} tl_cf_names;
/* A folder entry that is not content: a name starting with '.' (version control, editor state). */
static inline bool tl_cf_source_hidden(const char *entry_name);
/* The length of the asset name of the file at `rel` (its path under the source root,
   '/'-separated, `len` bytes): `len`, or with TL_CF_NAMES_STEM the length without the last
   segment's extension (from its last '.', unless that '.' starts the segment). */
static inline size_t tl_cf_asset_name_len(const char *rel, size_t len, tl_cf_names names);
/* Why the path `rel` cannot name an asset, as what it contains ("a control character",
   "a backslash", "invalid UTF-8"), or NULL when it can. */
static inline const char *tl_cf_asset_path_problem(const char *rel, size_t len);
/* Two category folders overlap when one is the other or lies inside it; "" is the whole root.
   `fold`: comparing ASCII case-insensitively (as a case-insensitive file system does). */
static inline bool tl_cf_folders_overlap(const char *a, const char *b, bool fold);
/* The identity scope of a profile's keys: its name as a C word (every byte other than ASCII
   letters, digits and '_' becomes '_', one per UTF-8 code point; a 'P' in front unless it starts
   with a letter). Writes at most cap bytes with the NUL; returns the length it needs. */
static inline size_t tl_cf_profile_scope(const char *profile, char *out, size_t cap);
/* An asset's identity key: the scope, '.', and the name, ASCII-lowercased ("game.sprites/slime").
   Writes at most cap bytes with the NUL; returns the length it needs. */
static inline size_t tl_cf_asset_key(const char *scope, const char *name, char *out, size_t cap);
/* The identity value of a key under a seed offset: tl_hash32(key, seed) (identity's hash). */
static inline uint32_t tl_cf_identity_hash(const char *key, size_t len, uint32_t seed);

/* ---- Packed archive (.tlpk) ------------------------------------------------------------- */
#define TL_CF_ARCHIVE_MAGIC "TLPKARC\x1a"
#define TL_CF_ARCHIVE_VERSION 1u
#define TL_CF_ARCHIVE_HEADER_SIZE 32u
#define TL_CF_ARCHIVE_ENTRY_SIZE 40u
/* Entry id 0 is never an asset (asset ids are reserve_zero identity values): it is the
   catalog, in the catalog archive. */
#define TL_CF_CATALOG_ENTRY_ID 0u

typedef enum tl_cf_codec {
    TL_CF_CODEC_RAW = 0,
    TL_CF_CODEC_LZ4 = 1,
    TL_CF_CODEC_ZSTD = 2
} tl_cf_codec;

typedef struct tl_cf_archive_entry {
    uint32_t id;            /* asset id (catalog value), or TL_CF_CATALOG_ENTRY_ID */
    uint32_t codec;         /* tl_cf_codec */
    uint64_t offset;        /* from the start of the file */
    uint64_t stored_size;   /* bytes at offset */
    uint64_t original_size; /* bytes after decoding */
    uint64_t xxh64;         /* of the original bytes */
} tl_cf_archive_entry;

typedef struct tl_cf_archive {
    const unsigned char *data; /* the whole file; NULL when only the tables were read */
    uint64_t size;             /* of the file */
    uint32_t entry_count;
    uint64_t data_size;
    const unsigned char *toc; /* entry_count * TL_CF_ARCHIVE_ENTRY_SIZE bytes */
} tl_cf_archive;

/* An archive read in two steps (the runtime reads the header, then the table, never the data):
   the header of a file of file_size bytes, giving the entry count; then the table of contents
   that follows it: checksum, ids strictly ascending, data contiguous in table order from the
   end of the table to the end of the file, codecs known, stored sizes consistent with the
   codec, original sizes at most max_entry_size (TL_CF_TOO_LARGE). */
static inline tl_cf_result
tl_cf_archive_read_header(const unsigned char header[TL_CF_ARCHIVE_HEADER_SIZE], uint64_t file_size,
                          uint32_t *count, const char **why);
static inline tl_cf_result
tl_cf_archive_check_toc(const unsigned char header[TL_CF_ARCHIVE_HEADER_SIZE],
                        const unsigned char *toc, uint32_t count, uint64_t file_size,
                        uint64_t max_entry_size, const char **why);
/* Both steps over a whole file in memory (no size limit); fills *a on success. */
static inline tl_cf_result tl_cf_archive_open(tl_cf_archive *a, const void *data, size_t size,
                                              const char **why);
static inline void tl_cf_archive_entry_at(const tl_cf_archive *a, uint32_t index,
                                          tl_cf_archive_entry *out);
/* Binary search by id; TL_CF_NOT_FOUND when absent. */
static inline tl_cf_result tl_cf_archive_find(const tl_cf_archive *a, uint32_t id,
                                              tl_cf_archive_entry *out);
/* Decodes `stored` bytes into dst, exactly `size` bytes (false: unknown or unbuilt codec, or the
   bytes do not decode to exactly that size). */
static inline bool tl_cf_decode(uint32_t codec, const unsigned char *src, uint64_t stored,
                                unsigned char *dst, uint64_t size);
static inline bool tl_cf_codec_built(uint32_t codec);
/* Decodes one entry of a whole-file archive into out (out_capacity >= original_size) and
   checks its XXH64. */
static inline tl_cf_result tl_cf_archive_extract(const tl_cf_archive *a,
                                                 const tl_cf_archive_entry *e, void *out,
                                                 size_t out_capacity);

/* ---- Binary catalog (.tlcat) ------------------------------------------------------------ */
#define TL_CF_CATALOG_MAGIC "TLCATLG\x1a"
#define TL_CF_CATALOG_VERSION 1u
#define TL_CF_CATALOG_HEADER_SIZE 48u
#define TL_CF_CATALOG_CATEGORY_SIZE 16u
#define TL_CF_CATALOG_RECORD_SIZE 40u
#define TL_CF_CATALOG_FLAG_CONTENT_INFO 1u /* records carry size and XXH64 (flat builds) */
#define TL_CF_CATALOG_FLAG_FLAT_PATHS 2u   /* records carry the file's path in the output folder */
#define TL_CF_CATALOG_FLAGS_KNOWN 3u

typedef struct tl_cf_catalog_asset {
    uint32_t id, category;
    const char *name; /* NUL-terminated UTF-8 inside the catalog buffer */
    uint32_t name_len;
    const char *path; /* flat builds: relative path in the output folder; "" otherwise */
    uint32_t path_len;
    uint64_t size, xxh64; /* 0 unless TL_CF_CATALOG_FLAG_CONTENT_INFO */
} tl_cf_catalog_asset;

typedef struct tl_cf_catalog {
    const unsigned char *data;
    uint64_t size;
    uint32_t flags, category_count, asset_count, string_bytes;
    const char *profile;
    uint32_t profile_len;
    const unsigned char *categories, *records, *name_index, *members, *strings;
} tl_cf_catalog;

/* Validates everything before anything is used: sizes, checksum, every string, ids strictly
   ascending and non-zero, the name index a permutation sorted by folded name without
   duplicates, category ranges covering the members exactly. */
static inline tl_cf_result tl_cf_catalog_open(tl_cf_catalog *c, const void *data, size_t size,
                                              const char **why);
static inline void tl_cf_catalog_asset_at(const tl_cf_catalog *c, uint32_t index,
                                          tl_cf_catalog_asset *out);
/* Case-insensitive (ASCII) lookup by name; binary search over the name index. */
static inline tl_cf_result tl_cf_catalog_find_name(const tl_cf_catalog *c, const char *name,
                                                   size_t len, tl_cf_catalog_asset *out);
static inline tl_cf_result tl_cf_catalog_find_id(const tl_cf_catalog *c, uint32_t id,
                                                 tl_cf_catalog_asset *out);
/* A category's name and its members (record indices, sorted by name). */
static inline void tl_cf_catalog_category(const tl_cf_catalog *c, uint32_t index, const char **name,
                                          uint32_t *first, uint32_t *count);
static inline uint32_t tl_cf_catalog_member(const tl_cf_catalog *c, uint32_t position);

/* ---- archives.json ---------------------------------------------------------------------- */
#define TL_CF_INDEX_MAX_ARCHIVES 65536u

typedef struct tl_cf_index_archive {
    char *name;
    uint64_t size, input_bytes, xxh64;
    bool is_catalog;
    uint32_t file_count;
    char **files;
} tl_cf_index_archive;

typedef struct tl_cf_index {
    char *profile;
    uint32_t archive_count;
    tl_cf_index_archive *archives;
    void *storage_; /* one allocation holds everything; freed by tl_cf_index_free */
} tl_cf_index;

/* Parses and validates archives.json (format 1), RFC 8259 JSON nested at most 32 deep:
     index   -> '{' member (',' member)* '}'   "format": 1, "profile": name, "archives": [archive]
     archive -> '{' member (',' member)* '}'   "name": name, "role": "catalog"|"assets",
                                               "size": uint, "xxh64": 16 lowercase hex digits,
                                               optional "input_bytes": uint, "files": [string]
   Names are portable file names, archive names unique, exactly one catalog archive, at most
   TL_CF_INDEX_MAX_ARCHIVES archives, every listed file non-empty and listed once; integers
   below 2^53; other keys are skipped (a newer writer may add some), each key once. Allocates
   (TL_MALLOC) on success only. */
static inline tl_cf_result tl_cf_index_parse(tl_cf_index *out, const char *text, size_t len,
                                             const char **why);
/* Where an index was found invalid, for a message that points at it. */
typedef struct tl_cf_index_fault {
    uint64_t offset;  /* the byte where reading stopped; for a rule broken by a whole archive
                         (a name or a file twice, a second catalog), where that archive starts */
    uint32_t archive; /* its position in "archives" from 0; UINT32_MAX: not inside an archive */
    char key[32];     /* the key whose value is at fault ("size"), cut to fit; "" when none */
    char name[256];   /* the archive's name when it was read; "" otherwise */
} tl_cf_index_fault;
/* tl_cf_index_parse that also fills *fault (when not NULL) on a TL_CF_BAD_JSON result. */
static inline tl_cf_result tl_cf_index_parse_ex(tl_cf_index *out, const char *text, size_t len,
                                                const char **why, tl_cf_index_fault *fault);
static inline void tl_cf_index_free(tl_cf_index *index);

/* Again here, for the documented order (include, define TL_IMPLEMENTATION, include), where the
   first include saw no switch: text.h emits its implementation if its own switch is on. */
#include "text.h"
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
#ifdef TL_CONTENT_LZ4
#include <lz4.h>
#endif
#ifdef TL_CONTENT_ZSTD
#include <zstd.h>
#endif
#include "hash.h"

/* Indexed by tl_cf_result, built from the same rows as log.h's TL_RESULT_MESSAGE_FN builds a
   service's (static inline here: the readers have no implementation switch). */
#define TL__CF_RESULT_MESSAGE(id, message) message,
static inline const char *tl_cf_result_message(tl_cf_result result) {
    static const char *const messages[] = { "ok", TL_CF_RESULTS(TL__CF_RESULT_MESSAGE) };
    unsigned index = (unsigned)result;
    return index < sizeof messages / sizeof messages[0] ? messages[index] : "unknown result";
}
#undef TL__CF_RESULT_MESSAGE

/* The class of a problem, and its sentence for callers that asked for one. */
static inline tl_cf_result tl__cf_fail(tl_cf_result r, const char *text, const char **why) {
    if (why) *why = text;
    return r;
}

static inline uint64_t tl_cf_xxh64(const void *data, size_t size) {
    return tl_hash64(data, size, 0);
}

/* ---- names (the text rules are text.h's) ---------------------------------------------------- */

static inline bool tl_cf_flat_file_name(const char *s, size_t len) {
    return tl_text_portable_file_name(s, len) && tl_text_windows_name_problem(s, len) == NULL;
}

/* ---- source trees ----------------------------------------------------------------------------- */

static inline bool tl_cf_source_hidden(const char *entry_name) { return entry_name[0] == '.'; }

static inline size_t tl_cf_asset_name_len(const char *rel, size_t len, tl_cf_names names) {
    size_t base = len, dot = len;
    if (names == TL_CF_NAMES_PATH) return len;
    while (base && rel[base - 1] != '/') base--;
    while (dot > base && rel[dot - 1] != '.') dot--;
    /* dot - 1: the last '.' of the segment; none, or the segment's first byte: no extension. */
    return dot > base + 1 ? dot - 1 : len;
}

static inline const char *tl_cf_asset_path_problem(const char *rel, size_t len) {
    size_t i, start = 0;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)rel[i];
        if (c < 0x20 || c == 0x7f) return "a control character";
        if (c == '\\') return "a backslash";
    }
    /* The reader's UTF-8 rule, through a file-name check of each segment. */
    for (i = 0; i <= len; i++) {
        if (i < len && rel[i] != '/') continue;
        if (i > start && !tl_text_valid_file_name(rel + start, i - start > 255 ? 255 : i - start))
            return "invalid UTF-8";
        start = i + 1;
    }
    return NULL;
}

static inline bool tl_cf_folders_overlap(const char *a, const char *b, bool fold) {
    size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
    if (!la || !lb) return true;
    if (fold ? tl_text_fold_compare(a, n, b, n) != 0 : memcmp(a, b, n) != 0) return false;
    return la == lb || (la < lb ? b[la] : a[lb]) == '/';
}

static inline bool tl__cf_word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static inline size_t tl_cf_profile_scope(const char *profile, char *out, size_t cap) {
    size_t n = 0;
    const unsigned char *p;
    if (!(((unsigned char)profile[0] | 32) >= 'a' && ((unsigned char)profile[0] | 32) <= 'z')) {
        if (n + 1 < cap) out[n] = 'P';
        n++;
    }
    for (p = (const unsigned char *)profile; *p; p++) {
        if ((*p & 0xc0) == 0x80) continue; /* one '_' per code point */
        if (n + 1 < cap) out[n] = tl__cf_word_byte(*p) ? (char)*p : '_';
        n++;
    }
    if (cap) out[n < cap ? n : cap - 1] = 0;
    return n;
}

static inline size_t tl_cf_asset_key(const char *scope, const char *name, char *out, size_t cap) {
    size_t n = 0;
    const char *p;
    for (p = scope; *p; p++, n++)
        if (n + 1 < cap) out[n] = (char)tl_text_fold((unsigned char)*p);
    if (n + 1 < cap) out[n] = '.';
    n++;
    for (p = name; *p; p++, n++)
        if (n + 1 < cap) out[n] = (char)tl_text_fold((unsigned char)*p);
    if (cap) out[n < cap ? n : cap - 1] = 0;
    return n;
}

static inline uint32_t tl_cf_identity_hash(const char *key, size_t len, uint32_t seed) {
    return tl_hash32(key, len, seed);
}

/* ---- archives --------------------------------------------------------------------------------- */

static inline void tl_cf_archive_entry_at(const tl_cf_archive *a, uint32_t index,
                                          tl_cf_archive_entry *out) {
    const unsigned char *p = a->toc + (size_t)index * TL_CF_ARCHIVE_ENTRY_SIZE;
    out->id = tl_cf_get_u32(p);
    out->codec = p[4];
    out->offset = tl_cf_get_u64(p + 8);
    out->stored_size = tl_cf_get_u64(p + 16);
    out->original_size = tl_cf_get_u64(p + 24);
    out->xxh64 = tl_cf_get_u64(p + 32);
}

static inline tl_cf_result
tl_cf_archive_read_header(const unsigned char header[TL_CF_ARCHIVE_HEADER_SIZE], uint64_t file_size,
                          uint32_t *count, const char **why) {
    uint32_t n;
    uint64_t room;
    if (file_size < TL_CF_ARCHIVE_HEADER_SIZE)
        return tl__cf_fail(TL_CF_TRUNCATED, "truncated", why);
    if (memcmp(header, TL_CF_ARCHIVE_MAGIC, 8) != 0)
        return tl__cf_fail(TL_CF_BAD_MAGIC, "not an archive (bad magic)", why);
    if (tl_cf_get_u32(header + 8) != TL_CF_ARCHIVE_VERSION)
        return tl__cf_fail(TL_CF_BAD_VERSION, "unsupported archive version", why);
    n = tl_cf_get_u32(header + 12);
    room = file_size - TL_CF_ARCHIVE_HEADER_SIZE;
    if (n == 0) return tl__cf_fail(TL_CF_BAD_HEADER, "invalid header (no entries)", why);
    /* Bounded before multiplying: a count the file cannot hold is refused. */
    if (n > room / TL_CF_ARCHIVE_ENTRY_SIZE)
        return tl__cf_fail(TL_CF_TRUNCATED, "truncated (more entries than the file can hold)", why);
    if (tl_cf_get_u64(header + 16) != room - (uint64_t)n * TL_CF_ARCHIVE_ENTRY_SIZE)
        return tl__cf_fail(TL_CF_BAD_SIZE, "data size does not match the header", why);
    *count = n;
    return TL_CF_OK;
}

static inline tl_cf_result
tl_cf_archive_check_toc(const unsigned char header[TL_CF_ARCHIVE_HEADER_SIZE],
                        const unsigned char *toc, uint32_t count, uint64_t file_size,
                        uint64_t max_entry_size, const char **why) {
    uint64_t expect = TL_CF_ARCHIVE_HEADER_SIZE + (uint64_t)count * TL_CF_ARCHIVE_ENTRY_SIZE;
    tl_cf_archive a;
    uint32_t i;
    if (tl_hash64(toc, (size_t)count * TL_CF_ARCHIVE_ENTRY_SIZE, 0) != tl_cf_get_u64(header + 24))
        return tl__cf_fail(TL_CF_BAD_CHECKSUM, "table of contents checksum mismatch", why);
    a.toc = toc;
    for (i = 0; i < count; i++) {
        const unsigned char *p = toc + (size_t)i * TL_CF_ARCHIVE_ENTRY_SIZE;
        tl_cf_archive_entry e;
        tl_cf_archive_entry_at(&a, i, &e);
        if (p[5] || p[6] || p[7] ||
            (i > 0 && tl_cf_get_u32(p - TL_CF_ARCHIVE_ENTRY_SIZE) >= e.id) || e.offset != expect ||
            e.stored_size > file_size - e.offset)
            return tl__cf_fail(TL_CF_BAD_ENTRY, "invalid table of contents entry", why);
        if (e.codec > TL_CF_CODEC_ZSTD) return tl__cf_fail(TL_CF_BAD_CODEC, "unknown codec", why);
        if (e.codec == TL_CF_CODEC_RAW ? e.stored_size != e.original_size
                                       : (e.stored_size >= e.original_size || e.stored_size == 0))
            return tl__cf_fail(TL_CF_BAD_ENTRY, "invalid table of contents entry", why);
        if (e.original_size > max_entry_size)
            return tl__cf_fail(TL_CF_TOO_LARGE, "an entry is larger than this runtime accepts",
                               why);
        expect = e.offset + e.stored_size;
    }
    if (expect != file_size)
        return tl__cf_fail(TL_CF_BAD_SIZE, "size does not match its table of contents", why);
    return TL_CF_OK;
}

static inline tl_cf_result tl_cf_archive_open(tl_cf_archive *a, const void *data, size_t size,
                                              const char **why) {
    const unsigned char *d = (const unsigned char *)data;
    uint32_t count = 0;
    tl_cf_result r;
    memset(a, 0, sizeof *a);
    r = tl_cf_archive_read_header(d, size, &count, why);
    if (r == TL_CF_OK)
        r = tl_cf_archive_check_toc(d, d + TL_CF_ARCHIVE_HEADER_SIZE, count, size, UINT64_MAX, why);
    if (r != TL_CF_OK) return r;
    a->data = d;
    a->size = size;
    a->entry_count = count;
    a->data_size = tl_cf_get_u64(d + 16);
    a->toc = d + TL_CF_ARCHIVE_HEADER_SIZE;
    return TL_CF_OK;
}

/* Index of the row whose leading u32 is `id` in a table of `count` rows of `stride` bytes sorted
   by that u32 (archive entries, catalog records), or `count` when there is none. */
static inline uint32_t tl__cf_find_u32(const unsigned char *rows, uint32_t count, size_t stride,
                                       uint32_t id) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t v = tl_cf_get_u32(rows + (size_t)mid * stride);
        if (v == id) return mid;
        if (v < id) lo = mid + 1;
        else hi = mid;
    }
    return count;
}

static inline tl_cf_result tl_cf_archive_find(const tl_cf_archive *a, uint32_t id,
                                              tl_cf_archive_entry *out) {
    uint32_t i = tl__cf_find_u32(a->toc, a->entry_count, TL_CF_ARCHIVE_ENTRY_SIZE, id);
    if (i == a->entry_count) return TL_CF_NOT_FOUND;
    tl_cf_archive_entry_at(a, i, out);
    return TL_CF_OK;
}

static inline bool tl_cf_codec_built(uint32_t codec) {
    switch (codec) {
    case TL_CF_CODEC_RAW: return true;
#ifdef TL_CONTENT_LZ4
    case TL_CF_CODEC_LZ4: return true;
#endif
#ifdef TL_CONTENT_ZSTD
    case TL_CF_CODEC_ZSTD: return true;
#endif
    default: return false;
    }
}

static inline bool tl_cf_decode(uint32_t codec, const unsigned char *src, uint64_t stored,
                                unsigned char *dst, uint64_t size) {
    switch (codec) {
    case TL_CF_CODEC_RAW:
        if (stored != size) return false;
        if (size) memcpy(dst, src, (size_t)size);
        return true;
#ifdef TL_CONTENT_LZ4
    case TL_CF_CODEC_LZ4: {
        int got;
        if (stored > (uint64_t)LZ4_MAX_INPUT_SIZE || size > (uint64_t)LZ4_MAX_INPUT_SIZE)
            return false;
        got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)stored, (int)size);
        return got >= 0 && (uint64_t)got == size;
    }
#endif
#ifdef TL_CONTENT_ZSTD
    case TL_CF_CODEC_ZSTD: {
        /* One frame whose declared content size is the original size exactly. */
        unsigned long long declared = ZSTD_getFrameContentSize(src, (size_t)stored);
        size_t frame, got;
        if (declared != (unsigned long long)size) return false;
        frame = ZSTD_findFrameCompressedSize(src, (size_t)stored);
        if (ZSTD_isError(frame) || frame != stored) return false;
        got = ZSTD_decompress(dst, (size_t)size, src, (size_t)stored);
        return !ZSTD_isError(got) && got == size;
    }
#endif
    default:
        (void)src;
        (void)dst;
        return false;
    }
}

static inline tl_cf_result tl_cf_archive_extract(const tl_cf_archive *a,
                                                 const tl_cf_archive_entry *e, void *out,
                                                 size_t out_capacity) {
    if (e->original_size > out_capacity) return TL_CF_NO_MEMORY;
    if (!a->data || e->offset > a->size || e->stored_size > a->size - e->offset)
        return TL_CF_BAD_ENTRY;
    if (e->codec == TL_CF_CODEC_RAW && e->stored_size != e->original_size) return TL_CF_BAD_ENTRY;
    if (!tl_cf_decode(e->codec, a->data + e->offset, e->stored_size, (unsigned char *)out,
                      e->original_size))
        return TL_CF_BAD_CODEC;
    if (tl_hash64(out, (size_t)e->original_size, 0) != e->xxh64) return TL_CF_BAD_CHECKSUM;
    return TL_CF_OK;
}

/* ---- catalog ---------------------------------------------------------------------------------- */

/* A string reference (offset, length) into the string area: in bounds, NUL right after it,
   none inside, UTF-8 text. */
static inline bool tl__cf_catalog_string_ok(const tl_cf_catalog *c, uint32_t off, uint32_t len,
                                            bool allow_empty) {
    if (off >= c->string_bytes || len >= c->string_bytes - off) return false;
    if (c->strings[off + len] != 0 || (!allow_empty && len == 0)) return false;
    if (memchr(c->strings + off, 0, len)) return false;
    return tl_text_utf8_ok(c->strings + off, len);
}

static const unsigned char *tl__cf_catalog_record(const tl_cf_catalog *c, uint32_t i) {
    return c->records + (size_t)i * TL_CF_CATALOG_RECORD_SIZE;
}

/* Folded-name order of two records. */
static inline int tl__cf_catalog_compare(const tl_cf_catalog *c, uint32_t a, uint32_t b) {
    const unsigned char *x = tl__cf_catalog_record(c, a), *y = tl__cf_catalog_record(c, b);
    return tl_text_fold_compare(
        (const char *)c->strings + tl_cf_get_u32(x + 8), tl_cf_get_u32(x + 12),
        (const char *)c->strings + tl_cf_get_u32(y + 8), tl_cf_get_u32(y + 12));
}

static inline void tl_cf_catalog_asset_at(const tl_cf_catalog *c, uint32_t index,
                                          tl_cf_catalog_asset *out) {
    const unsigned char *p = tl__cf_catalog_record(c, index);
    out->id = tl_cf_get_u32(p);
    out->category = tl_cf_get_u32(p + 4);
    out->name = (const char *)c->strings + tl_cf_get_u32(p + 8);
    out->name_len = tl_cf_get_u32(p + 12);
    out->path = (const char *)c->strings + tl_cf_get_u32(p + 16);
    out->path_len = tl_cf_get_u32(p + 20);
    out->size = tl_cf_get_u64(p + 24);
    out->xxh64 = tl_cf_get_u64(p + 32);
}

static inline void tl_cf_catalog_category(const tl_cf_catalog *c, uint32_t index, const char **name,
                                          uint32_t *first, uint32_t *count) {
    const unsigned char *p = c->categories + (size_t)index * TL_CF_CATALOG_CATEGORY_SIZE;
    *name = (const char *)c->strings + tl_cf_get_u32(p);
    *first = tl_cf_get_u32(p + 8);
    *count = tl_cf_get_u32(p + 12);
}

static inline uint32_t tl_cf_catalog_member(const tl_cf_catalog *c, uint32_t position) {
    return tl_cf_get_u32(c->members + (size_t)position * 4);
}

static inline uint32_t tl__cf_catalog_named(const tl_cf_catalog *c, uint32_t i) {
    return tl_cf_get_u32(c->name_index + (size_t)i * 4);
}

/* The header and layout; the tables are checked by tl__cf_catalog_check_tables. */
static inline tl_cf_result tl__cf_catalog_layout(tl_cf_catalog *c, const unsigned char *d,
                                                 uint64_t size, const char **why) {
    uint64_t room, need;
    uint32_t flags, ncat, nasset, nstr;
    if (size < TL_CF_CATALOG_HEADER_SIZE)
        return tl__cf_fail(TL_CF_TRUNCATED, "catalog: truncated", why);
    if (memcmp(d, TL_CF_CATALOG_MAGIC, 8) != 0)
        return tl__cf_fail(TL_CF_BAD_MAGIC, "catalog: not a catalog (bad magic)", why);
    if (tl_cf_get_u32(d + 8) != TL_CF_CATALOG_VERSION)
        return tl__cf_fail(TL_CF_BAD_VERSION, "catalog: unsupported format version", why);
    flags = tl_cf_get_u32(d + 12);
    ncat = tl_cf_get_u32(d + 16);
    nasset = tl_cf_get_u32(d + 20);
    nstr = tl_cf_get_u32(d + 24);
    if ((flags & ~(uint32_t)TL_CF_CATALOG_FLAGS_KNOWN) || tl_cf_get_u32(d + 28) != 0 || ncat == 0 ||
        nstr == 0)
        return tl__cf_fail(TL_CF_BAD_HEADER, "catalog: invalid header", why);
    /* Counts are bounded by what the file can hold before anything is multiplied. */
    room = size - TL_CF_CATALOG_HEADER_SIZE;
    if (ncat > room / TL_CF_CATALOG_CATEGORY_SIZE ||
        nasset > room / (TL_CF_CATALOG_RECORD_SIZE + 8))
        return tl__cf_fail(TL_CF_TRUNCATED, "catalog: truncated", why);
    need = (uint64_t)ncat * TL_CF_CATALOG_CATEGORY_SIZE +
           (uint64_t)nasset * (TL_CF_CATALOG_RECORD_SIZE + 8) + nstr;
    if (need > room) return tl__cf_fail(TL_CF_TRUNCATED, "catalog: truncated", why);
    if (need < room)
        return tl__cf_fail(TL_CF_BAD_SIZE, "catalog: size does not match its header", why);
    if (tl_hash64(d + TL_CF_CATALOG_HEADER_SIZE, (size_t)room, 0) != tl_cf_get_u64(d + 32))
        return tl__cf_fail(TL_CF_BAD_CHECKSUM, "catalog: checksum mismatch", why);
    c->data = d;
    c->size = size;
    c->flags = flags;
    c->category_count = ncat;
    c->asset_count = nasset;
    c->string_bytes = nstr;
    c->categories = d + TL_CF_CATALOG_HEADER_SIZE;
    c->records = c->categories + (size_t)ncat * TL_CF_CATALOG_CATEGORY_SIZE;
    c->name_index = c->records + (size_t)nasset * TL_CF_CATALOG_RECORD_SIZE;
    c->members = c->name_index + (size_t)nasset * 4;
    c->strings = c->members + (size_t)nasset * 4;
    return TL_CF_OK;
}

/* Records: ids strictly ascending and non-zero, category in range, paths only in flat builds,
   sizes and hashes only with content info, strings valid. */
static inline tl_cf_result tl__cf_catalog_check_records(const tl_cf_catalog *c, const char **why) {
    bool flat = (c->flags & TL_CF_CATALOG_FLAG_FLAT_PATHS) != 0,
         info = (c->flags & TL_CF_CATALOG_FLAG_CONTENT_INFO) != 0;
    uint32_t i;
    for (i = 0; i < c->asset_count; i++) {
        const unsigned char *p = tl__cf_catalog_record(c, i);
        uint32_t id = tl_cf_get_u32(p);
        if (id == 0 || (i > 0 && tl_cf_get_u32(p - TL_CF_CATALOG_RECORD_SIZE) >= id) ||
            tl_cf_get_u32(p + 4) >= c->category_count || (!flat && tl_cf_get_u32(p + 20) != 0) ||
            (!info && (tl_cf_get_u64(p + 24) || tl_cf_get_u64(p + 32))))
            return tl__cf_fail(TL_CF_BAD_ENTRY, "catalog: invalid record", why);
        if (!tl__cf_catalog_string_ok(c, tl_cf_get_u32(p + 8), tl_cf_get_u32(p + 12), false) ||
            !tl__cf_catalog_string_ok(c, tl_cf_get_u32(p + 16), tl_cf_get_u32(p + 20), !flat))
            return tl__cf_fail(TL_CF_BAD_STRING, "catalog: invalid string", why);
    }
    return TL_CF_OK;
}

/* Name index: a permutation of the records, sorted by folded name, no two names equal. */
static inline tl_cf_result tl__cf_catalog_check_names(const tl_cf_catalog *c, const char **why) {
    uint32_t i;
    for (i = 0; i < c->asset_count; i++) {
        uint32_t r = tl__cf_catalog_named(c, i);
        if (r >= c->asset_count ||
            (i > 0 && tl__cf_catalog_compare(c, tl__cf_catalog_named(c, i - 1), r) >= 0))
            return tl__cf_fail(TL_CF_BAD_ENTRY, "catalog: invalid name index", why);
    }
    return TL_CF_OK;
}

/* Categories: names valid, member ranges consecutive and covering every member once, each
   member a record of that category (so every record appears exactly once), by name. */
static inline tl_cf_result tl__cf_catalog_check_categories(const tl_cf_catalog *c,
                                                           const char **why) {
    uint32_t k, next = 0;
    for (k = 0; k < c->category_count; k++) {
        const unsigned char *p = c->categories + (size_t)k * TL_CF_CATALOG_CATEGORY_SIZE;
        uint32_t first = tl_cf_get_u32(p + 8), count = tl_cf_get_u32(p + 12), m;
        if (!tl__cf_catalog_string_ok(c, tl_cf_get_u32(p), tl_cf_get_u32(p + 4), false) ||
            first != next || count > c->asset_count - first)
            return tl__cf_fail(TL_CF_BAD_ENTRY, "catalog: invalid category", why);
        for (m = first; m < first + count; m++) {
            uint32_t r = tl_cf_catalog_member(c, m);
            if (r >= c->asset_count || tl_cf_get_u32(tl__cf_catalog_record(c, r) + 4) != k ||
                (m > first && tl__cf_catalog_compare(c, tl_cf_catalog_member(c, m - 1), r) >= 0))
                return tl__cf_fail(TL_CF_BAD_ENTRY, "catalog: invalid category", why);
        }
        next = first + count;
    }
    if (next != c->asset_count)
        return tl__cf_fail(TL_CF_BAD_ENTRY, "catalog: invalid category", why);
    return TL_CF_OK;
}

/* The profile string, then the records, the name index and the categories, in that order. */
static inline tl_cf_result tl__cf_catalog_check_tables(tl_cf_catalog *c, const char **why) {
    uint32_t poff = tl_cf_get_u32(c->data + 40), plen = tl_cf_get_u32(c->data + 44);
    tl_cf_result r;
    if (!tl__cf_catalog_string_ok(c, poff, plen, false) || c->strings[c->string_bytes - 1] != 0)
        return tl__cf_fail(TL_CF_BAD_STRING, "catalog: invalid string", why);
    c->profile = (const char *)c->strings + poff;
    c->profile_len = plen;
    r = tl__cf_catalog_check_records(c, why);
    if (r == TL_CF_OK) r = tl__cf_catalog_check_names(c, why);
    if (r == TL_CF_OK) r = tl__cf_catalog_check_categories(c, why);
    return r;
}

static inline tl_cf_result tl_cf_catalog_open(tl_cf_catalog *c, const void *data, size_t size,
                                              const char **why) {
    tl_cf_result r;
    memset(c, 0, sizeof *c);
    r = tl__cf_catalog_layout(c, (const unsigned char *)data, size, why);
    if (r == TL_CF_OK) r = tl__cf_catalog_check_tables(c, why);
    return r;
}

static inline tl_cf_result tl_cf_catalog_find_name(const tl_cf_catalog *c, const char *name,
                                                   size_t len, tl_cf_catalog_asset *out) {
    uint32_t lo = 0, hi = c->asset_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        tl_cf_catalog_asset a;
        int cmp;
        tl_cf_catalog_asset_at(c, tl__cf_catalog_named(c, mid), &a);
        cmp = tl_text_fold_compare(a.name, a.name_len, name, len);
        if (cmp == 0) {
            *out = a;
            return TL_CF_OK;
        }
        if (cmp < 0) lo = mid + 1;
        else hi = mid;
    }
    return TL_CF_NOT_FOUND;
}

static inline tl_cf_result tl_cf_catalog_find_id(const tl_cf_catalog *c, uint32_t id,
                                                 tl_cf_catalog_asset *out) {
    uint32_t i = tl__cf_find_u32(c->records, c->asset_count, TL_CF_CATALOG_RECORD_SIZE, id);
    if (i == c->asset_count) return TL_CF_NOT_FOUND;
    tl_cf_catalog_asset_at(c, i, out);
    return TL_CF_OK;
}

/* ---- archives.json: a strict JSON reader ------------------------------------------------------
   Decoded strings and the result go into one block sized from the text before parsing (a bump
   allocator inside it), so a failed parse frees one pointer and a hostile text cannot make it
   allocate more than a small multiple of its own length. */

typedef struct tl__cf_json {
    const char *p, *end;
    char *heap, *heap_end;
    int depth;
    /* archives.json only: where the reader is, for tl_cf_index_fault. */
    const char *text; /* its first byte */
    uint32_t archive; /* the archive being read (UINT32_MAX: none) */
    const char *key;  /* the key whose value is being read (NULL: none), key_len bytes */
    size_t key_len;
    size_t *starts;                    /* where each archive's object starts */
    const tl_cf_index_archive *blamed; /* the archive a whole-index rule blames */
    bool too_many;                     /* more than TL_CF_INDEX_MAX_ARCHIVES archives */
} tl__cf_json;

static inline void *tl__cf_json_alloc(tl__cf_json *j, size_t n, size_t align) {
    uintptr_t at = ((uintptr_t)j->heap + (align - 1)) & ~(uintptr_t)(align - 1);
    if (at > (uintptr_t)j->heap_end || n > (size_t)((uintptr_t)j->heap_end - at)) return NULL;
    j->heap = (char *)(at + n);
    return (void *)at;
}

static inline void tl__cf_json_ws(tl__cf_json *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static inline bool tl__cf_json_lit(tl__cf_json *j, char c) {
    tl__cf_json_ws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return true;
    }
    return false;
}

static inline int tl__cf_hex(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static inline bool tl__cf_json_hex4(tl__cf_json *j, uint32_t *out) {
    uint32_t v = 0;
    int i;
    if (j->end - j->p < 4) return false;
    for (i = 0; i < 4; i++) {
        int h = tl__cf_hex(j->p[i]);
        if (h < 0) return false;
        v = v << 4 | (uint32_t)h;
    }
    j->p += 4;
    *out = v;
    return true;
}

/* The bytes a string's decoded text may need (j->p just after its opening quote), allocated:
   its source length up to the closing quote, which decoding never exceeds, and the NUL. */
static inline char *tl__cf_json_string_room(tl__cf_json *j) {
    const char *q = j->p;
    while (q < j->end && *q != '"') q += (*q == '\\' && q + 1 < j->end) ? 2 : 1;
    return (char *)tl__cf_json_alloc(j, (size_t)(q - j->p) + 1, 1);
}

/* \uXXXX (j->p after the 'u'): a high surrogate only with its low one ("\ud83d\ude00"), never
   a lone low one. */
static inline bool tl__cf_json_unicode_escape(tl__cf_json *j, uint32_t *out) {
    uint32_t cp, lo;
    if (!tl__cf_json_hex4(j, &cp)) return false;
    if (cp >= 0xdc00 && cp <= 0xdfff) return false;
    if (cp < 0xd800 || cp > 0xdbff) {
        *out = cp;
        return true;
    }
    if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u') return false;
    j->p += 2;
    if (!tl__cf_json_hex4(j, &lo) || lo < 0xdc00 || lo > 0xdfff) return false;
    *out = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    return true;
}

/* The escape after a backslash (j->p after it) as a code point: \" \\ \/ \b \f \n \r \t or
   \uXXXX; false for anything else. */
static inline bool tl__cf_json_escape(tl__cf_json *j, uint32_t *cp) {
    if (j->p >= j->end) return false;
    switch (*j->p++) {
    case '"': *cp = '"'; return true;
    case '\\': *cp = '\\'; return true;
    case '/': *cp = '/'; return true;
    case 'b': *cp = 8; return true;
    case 'f': *cp = 12; return true;
    case 'n': *cp = 10; return true;
    case 'r': *cp = 13; return true;
    case 't': *cp = 9; return true;
    case 'u': return tl__cf_json_unicode_escape(j, cp);
    default: return false;
    }
}

/* The UTF-8 bytes of a code point (at most U+10FFFF) into enc; returns their count. */
static inline size_t tl__cf_utf8_put(uint32_t cp, unsigned char enc[4]) {
    if (cp < 0x80) {
        enc[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        enc[0] = (unsigned char)(0xc0 | cp >> 6);
        enc[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        enc[0] = (unsigned char)(0xe0 | cp >> 12);
        enc[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        enc[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    enc[0] = (unsigned char)(0xf0 | cp >> 18);
    enc[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    enc[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    enc[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Whether every run of non-ASCII bytes of a decoded string (raw bytes and escapes together) is
   UTF-8. Control characters are refused later where they matter (names). */
static inline bool tl__cf_json_decoded_utf8(const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && (unsigned char)s[i] >= 0x80) i++;
        if (i > start && !tl_text_utf8_ok((const unsigned char *)s + start, i - start))
            return false;
        while (i < n && (unsigned char)s[i] < 0x80) i++;
    }
    return true;
}

/* A string, decoded into the block (NUL-terminated, raw and escaped bytes together UTF-8) when
   out is given, else only checked. */
static inline bool tl__cf_json_string(tl__cf_json *j, char **out, size_t *out_len) {
    char *dst = NULL;
    size_t n = 0;
    tl__cf_json_ws(j);
    if (j->p >= j->end || *j->p != '"') return false;
    j->p++;
    if (out) {
        dst = tl__cf_json_string_room(j);
        if (!dst) return false;
        *out = dst;
    }
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p++, enc[4];
        uint32_t cp;
        size_t k;
        if (c < 0x20) return false;
        if (c != '\\') {
            if (dst) dst[n] = (char)c;
            n++;
            continue;
        }
        if (!tl__cf_json_escape(j, &cp)) return false;
        /* An escape of up to 12 source bytes decodes to at most 4: the room holds. */
        k = tl__cf_utf8_put(cp, enc);
        if (dst) memcpy(dst + n, enc, k);
        n += k;
    }
    if (j->p >= j->end) return false;
    j->p++;
    if (dst) {
        dst[n] = 0;
        if (!tl__cf_json_decoded_utf8(dst, n)) return false;
    }
    if (out_len) *out_len = n;
    return true;
}

/* A non-negative integer below 2^53 (exact in every JSON reader), without fraction or exponent. */
static inline bool tl__cf_json_uint(tl__cf_json *j, uint64_t *out) {
    uint64_t v = 0;
    tl__cf_json_ws(j);
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return false;
    if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9') return false;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        v = v * 10 + (uint64_t)(*j->p++ - '0');
        if (v >= (uint64_t)1 << 53) return false;
    }
    if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')) return false;
    *out = v;
    return true;
}

static inline bool tl__cf_json_digits(tl__cf_json *j) {
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return false;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    return true;
}

static inline bool tl__cf_json_skip(tl__cf_json *j);

/* An object or an array, j->p at its opening byte `open`: members (and keys) checked. */
static inline bool tl__cf_json_skip_container(tl__cf_json *j, char open) {
    char close = open == '{' ? '}' : ']';
    j->p++;
    if (tl__cf_json_lit(j, close)) return true;
    do {
        if (open == '{' && (!tl__cf_json_string(j, NULL, NULL) || !tl__cf_json_lit(j, ':')))
            return false;
        if (!tl__cf_json_skip(j)) return false;
    } while (tl__cf_json_lit(j, ','));
    return tl__cf_json_lit(j, close);
}

/* true, false or null, j->p at its first byte `c`. */
static inline bool tl__cf_json_skip_word(tl__cf_json *j, char c) {
    const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return false;
    j->p += n;
    return true;
}

/* number -> '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?   (j->p at its start) */
static inline bool tl__cf_json_skip_number(tl__cf_json *j) {
    if (*j->p == '-') j->p++;
    if (j->p < j->end && *j->p == '0') j->p++;
    else if (!tl__cf_json_digits(j)) return false;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!tl__cf_json_digits(j)) return false;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (!tl__cf_json_digits(j)) return false;
    }
    return true;
}

/* Any value (checked, not kept), nested at most 32 deep. A failure fails the whole parse, so the
   depth is only kept right on success. */
static inline bool tl__cf_json_skip(tl__cf_json *j) {
    bool ok;
    char c;
    tl__cf_json_ws(j);
    if (j->p >= j->end || ++j->depth > 32) return false;
    c = *j->p;
    if (c == '"') ok = tl__cf_json_string(j, NULL, NULL);
    else if (c == '{' || c == '[') ok = tl__cf_json_skip_container(j, c);
    else if (c == 't' || c == 'f' || c == 'n') ok = tl__cf_json_skip_word(j, c);
    else if (c == '-' || (c >= '0' && c <= '9')) ok = tl__cf_json_skip_number(j);
    else ok = false;
    j->depth--;
    return ok;
}

static inline bool tl__cf_key_is(const char *k, size_t n, const char *want) {
    return strlen(want) == n && memcmp(k, want, n) == 0;
}

/* "files": counted (and checked) first, so the array is allocated at its exact size. */
static inline bool tl__cf_index_files(tl__cf_json *j, tl_cf_index_archive *a) {
    const char *items;
    uint32_t n = 0, i;
    if (!tl__cf_json_lit(j, '[')) return false;
    items = j->p;
    if (!tl__cf_json_lit(j, ']')) {
        do {
            if (!tl__cf_json_string(j, NULL, NULL)) return false;
            n++;
        } while (tl__cf_json_lit(j, ','));
        if (!tl__cf_json_lit(j, ']')) return false;
    }
    j->p = items;
    a->files = (char **)tl__cf_json_alloc(j, (n ? n : 1) * sizeof *a->files, sizeof(void *));
    if (!a->files) return false;
    for (i = 0; i < n; i++) {
        size_t len;
        if ((i && !tl__cf_json_lit(j, ',')) || !tl__cf_json_string(j, &a->files[i], &len) ||
            len == 0)
            return false;
    }
    a->file_count = n;
    return tl__cf_json_lit(j, ']');
}

/* The keys of an archive object and of the index object, one bit each (each key once). */
enum {
    TL__CF_ARCHIVE_NAME = 1,
    TL__CF_ARCHIVE_SIZE = 2,
    TL__CF_ARCHIVE_HASH = 4,
    TL__CF_ARCHIVE_ROLE = 8,
    TL__CF_ARCHIVE_INPUT = 16,
    TL__CF_ARCHIVE_FILES = 32,
    TL__CF_ARCHIVE_REQUIRED =
        TL__CF_ARCHIVE_NAME | TL__CF_ARCHIVE_SIZE | TL__CF_ARCHIVE_HASH | TL__CF_ARCHIVE_ROLE,
    TL__CF_INDEX_FORMAT = 1,
    TL__CF_INDEX_PROFILE = 2,
    TL__CF_INDEX_ARCHIVES = 4,
    TL__CF_INDEX_REQUIRED = TL__CF_INDEX_FORMAT | TL__CF_INDEX_PROFILE | TL__CF_INDEX_ARCHIVES
};

/* "xxh64": 16 lowercase hex digits. */
static inline bool tl__cf_index_hash(tl__cf_json *j, uint64_t *out) {
    char *text;
    size_t vlen;
    int i;
    if (!tl__cf_json_string(j, &text, &vlen) || vlen != 16) return false;
    for (i = 0; i < 16; i++) {
        int v = tl__cf_hex(text[i]);
        if (v < 0 || (text[i] >= 'A' && text[i] <= 'F')) return false;
        *out = *out << 4 | (uint64_t)v;
    }
    return true;
}

/* "role": "catalog" or "assets". */
static inline bool tl__cf_index_role(tl__cf_json *j, bool *is_catalog) {
    char *text;
    size_t vlen;
    if (!tl__cf_json_string(j, &text, &vlen)) return false;
    if (tl__cf_key_is(text, vlen, "catalog")) *is_catalog = true;
    else if (!tl__cf_key_is(text, vlen, "assets")) return false;
    return true;
}

/* The value of one member of an archive object, its key read: checked and kept; *bit says which
   key it was (0: another one, skipped). */
static inline bool tl__cf_index_archive_member(tl__cf_json *j, tl_cf_index_archive *a,
                                               const char *key, size_t klen, unsigned *bit) {
    size_t vlen;
    *bit = 0;
    if (tl__cf_key_is(key, klen, "name")) {
        char *name;
        *bit = TL__CF_ARCHIVE_NAME;
        if (!tl__cf_json_string(j, &name, &vlen)) return false;
        a->name = name; /* kept only once decoded whole (NUL-terminated): a fault may name it */
        return tl_text_portable_file_name(name, vlen);
    }
    if (tl__cf_key_is(key, klen, "size")) {
        *bit = TL__CF_ARCHIVE_SIZE;
        return tl__cf_json_uint(j, &a->size);
    }
    if (tl__cf_key_is(key, klen, "input_bytes")) {
        *bit = TL__CF_ARCHIVE_INPUT;
        return tl__cf_json_uint(j, &a->input_bytes);
    }
    if (tl__cf_key_is(key, klen, "xxh64")) {
        *bit = TL__CF_ARCHIVE_HASH;
        return tl__cf_index_hash(j, &a->xxh64);
    }
    if (tl__cf_key_is(key, klen, "role")) {
        *bit = TL__CF_ARCHIVE_ROLE;
        return tl__cf_index_role(j, &a->is_catalog);
    }
    if (tl__cf_key_is(key, klen, "files")) {
        *bit = TL__CF_ARCHIVE_FILES;
        return tl__cf_index_files(j, a);
    }
    return tl__cf_json_skip(j);
}

static inline bool tl__cf_index_archive(tl__cf_json *j, tl_cf_index_archive *a) {
    unsigned seen = 0;
    memset(a, 0, sizeof *a);
    if (!tl__cf_json_lit(j, '{') || tl__cf_json_lit(j, '}')) return false;
    do {
        char *key;
        size_t klen;
        unsigned bit;
        if (!tl__cf_json_string(j, &key, &klen) || !tl__cf_json_lit(j, ':')) return false;
        j->key = key;
        j->key_len = klen;
        if (!tl__cf_index_archive_member(j, a, key, klen, &bit)) return false;
        if (seen & bit) return false; /* a key twice */
        seen |= bit;
        j->key = NULL;
    } while (tl__cf_json_lit(j, ','));
    return tl__cf_json_lit(j, '}') && (seen & TL__CF_ARCHIVE_REQUIRED) == TL__CF_ARCHIVE_REQUIRED;
}

static inline int tl__cf_compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline int tl__cf_compare_archive_names(const void *a, const void *b) {
    return strcmp((*(const tl_cf_index_archive *const *)a)->name,
                  (*(const tl_cf_index_archive *const *)b)->name);
}

/* One of the archives named like an earlier one (the later of the two), or NULL: sorted by name,
   each compared with the next (a check of every pair took 13 s of CPU for 65,536 archives). */
static const tl_cf_index_archive *tl__cf_index_name_twice(const tl_cf_index_archive **sorted,
                                                          const tl_cf_index *x) {
    uint32_t i;
    for (i = 0; i < x->archive_count; i++) sorted[i] = &x->archives[i];
    if (x->archive_count > 1)
        qsort((void *)sorted, x->archive_count, sizeof *sorted, tl__cf_compare_archive_names);
    for (i = 1; i < x->archive_count; i++)
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0)
            return sorted[i - 1] > sorted[i] ? sorted[i - 1] : sorted[i];
    return NULL;
}

/* The archive listing a file that an earlier archive (or itself) listed already, or NULL: every
   file sorted, neighbours compared; the repeated name is then looked up (once, on failure). */
static const tl_cf_index_archive *tl__cf_index_file_twice(char **all, size_t total,
                                                          const tl_cf_index *x) {
    const char *twice = NULL;
    uint32_t i, k, seen = 0;
    size_t n;
    if (total > 1) qsort(all, total, sizeof *all, tl__cf_compare_strings);
    for (n = 1; n < total && !twice; n++)
        if (strcmp(all[n - 1], all[n]) == 0) twice = all[n];
    for (i = 0; twice && i < x->archive_count; i++)
        for (k = 0; k < x->archives[i].file_count; k++)
            if (strcmp(x->archives[i].files[k], twice) == 0 && ++seen == 2) return &x->archives[i];
    return NULL;
}

/* The second catalog archive, or NULL. */
static const tl_cf_index_archive *tl__cf_index_second_catalog(const tl_cf_index *x) {
    uint32_t i, catalogs = 0;
    for (i = 0; i < x->archive_count; i++)
        if (x->archives[i].is_catalog && ++catalogs == 2) return &x->archives[i];
    return NULL;
}

/* A rule broken by a whole archive `a` (key `key`): blamed in j for tl_cf_index_fault. */
static inline tl_cf_result tl__cf_index_blame(tl__cf_json *j, const tl_cf_index_archive *a,
                                              const char *key, const char *text, const char **why) {
    j->blamed = a;
    j->key = key;
    j->key_len = key ? strlen(key) : 0;
    return tl__cf_fail(TL_CF_BAD_JSON, text, why);
}

/* Unique archive names, exactly one catalog archive, every listed file in one archive once. */
static inline tl_cf_result tl__cf_index_check(tl__cf_json *j, const tl_cf_index *x,
                                              const char **why) {
    const char *invalid = "not a valid archive index (archives.json)";
    const tl_cf_index_archive *bad, **sorted;
    uint32_t catalogs = 0, i, k;
    size_t total = 0;
    char **all;
    sorted = (const tl_cf_index_archive **)tl__cf_json_alloc(
        j, (x->archive_count + 1u) * sizeof *sorted, sizeof(void *));
    if (!sorted) return tl__cf_fail(TL_CF_BAD_JSON, invalid, why);
    for (i = 0; i < x->archive_count; i++) {
        catalogs += x->archives[i].is_catalog;
        total += x->archives[i].file_count;
    }
    if ((bad = tl__cf_index_name_twice(sorted, x)) != NULL)
        return tl__cf_index_blame(j, bad, "name", "archives.json gives two archives this name",
                                  why);
    if (catalogs != 1)
        return tl__cf_index_blame(j, tl__cf_index_second_catalog(x), catalogs ? "role" : NULL,
                                  "archives.json must list exactly one catalog archive", why);
    all = (char **)tl__cf_json_alloc(j, (total ? total : 1) * sizeof *all, sizeof(void *));
    if (!all) return tl__cf_fail(TL_CF_BAD_JSON, invalid, why);
    total = 0;
    for (i = 0; i < x->archive_count; i++)
        for (k = 0; k < x->archives[i].file_count; k++) all[total++] = x->archives[i].files[k];
    if ((bad = tl__cf_index_file_twice(all, total, x)) != NULL)
        return tl__cf_index_blame(j, bad, "files", "archives.json lists a file twice", why);
    return TL_CF_OK;
}

/* The size of the one block a parse of `text` allocates, and the most archives it may hold;
   0 when len is too large to size. Everything decoded fits: strings shrink (each gains a NUL),
   there are at most quotes/2 of them (file pointers, listed twice), each archive object takes at
   least 60 source bytes; their names are sorted once and their starts kept (a pointer and a size
   each); plus alignment. */
static inline size_t tl__cf_index_block_size(const char *text, size_t len, size_t *max_archives) {
    size_t quotes = 0, strings, i;
    for (i = 0; i < len; i++) quotes += text[i] == '"';
    strings = quotes / 2 + 2;
    *max_archives = len / 60 + 1;
    if (*max_archives > TL_CF_INDEX_MAX_ARCHIVES) *max_archives = TL_CF_INDEX_MAX_ARCHIVES;
    if (len > ((size_t)-1 - 64) / 16) return 0;
    return len + strings + 2 * strings * sizeof(char *) +
           *max_archives * (sizeof(tl_cf_index_archive) + sizeof(char *) + sizeof(size_t)) +
           8 * (*max_archives + 4) + 64;
}

/* "archives": '[' archive (',' archive)* ']', at most max of them; `again`: the key was seen. */
static inline bool tl__cf_index_archives(tl__cf_json *j, tl_cf_index *out, size_t max, bool again) {
    bool ok;
    out->archives =
        (tl_cf_index_archive *)tl__cf_json_alloc(j, max * sizeof *out->archives, sizeof(void *));
    j->starts = (size_t *)tl__cf_json_alloc(j, max * sizeof *j->starts, sizeof(size_t));
    ok =
        !again && out->archives && j->starts && tl__cf_json_lit(j, '[') && !tl__cf_json_lit(j, ']');
    while (ok) {
        const char *outer_key = j->key;
        size_t outer_len = j->key_len;
        ok = out->archive_count < max;
        j->too_many = !ok && max == TL_CF_INDEX_MAX_ARCHIVES;
        if (!ok) break;
        tl__cf_json_ws(j);
        j->archive = out->archive_count;
        j->starts[j->archive] = (size_t)(j->p - j->text);
        ok = tl__cf_index_archive(j, &out->archives[out->archive_count]);
        if (!ok) break;
        j->key = outer_key;
        j->key_len = outer_len;
        out->archive_count++;
        if (!tl__cf_json_lit(j, ',')) {
            j->archive = UINT32_MAX;
            return tl__cf_json_lit(j, ']');
        }
    }
    return false;
}

/* The value of one member of the index object, its key read: checked and kept (the format in
   *format, even when it is not 1); *bit says which key it was (0: another one, skipped). */
static inline bool tl__cf_index_member(tl__cf_json *j, tl_cf_index *out, const char *key,
                                       size_t klen, size_t max_archives, uint64_t *format,
                                       unsigned seen, unsigned *bit) {
    size_t vlen;
    *bit = 0;
    if (tl__cf_key_is(key, klen, "format")) {
        *bit = TL__CF_INDEX_FORMAT;
        return tl__cf_json_uint(j, format) && *format == 1;
    }
    if (tl__cf_key_is(key, klen, "profile")) {
        *bit = TL__CF_INDEX_PROFILE;
        return tl__cf_json_string(j, &out->profile, &vlen) &&
               tl_text_portable_file_name(out->profile, vlen);
    }
    if (tl__cf_key_is(key, klen, "archives")) {
        *bit = TL__CF_INDEX_ARCHIVES;
        return tl__cf_index_archives(j, out, max_archives, (seen & TL__CF_INDEX_ARCHIVES) != 0);
    }
    return tl__cf_json_skip(j);
}

/* index -> '{' member (',' member)* '}', each known key once; *seen: the keys read. */
static inline bool tl__cf_index_object(tl__cf_json *j, tl_cf_index *out, size_t max_archives,
                                       uint64_t *format, unsigned *seen) {
    if (!tl__cf_json_lit(j, '{') || tl__cf_json_lit(j, '}')) return false;
    for (;;) {
        char *key;
        size_t klen;
        unsigned bit;
        if (!tl__cf_json_string(j, &key, &klen) || !tl__cf_json_lit(j, ':')) return false;
        j->key = key;
        j->key_len = klen;
        if (!tl__cf_index_member(j, out, key, klen, max_archives, format, *seen, &bit) ||
            (*seen & bit))
            return false;
        *seen |= bit;
        j->key = NULL;
        if (!tl__cf_json_lit(j, ',')) return tl__cf_json_lit(j, '}');
    }
}

/* Copies at most cap - 1 bytes of s (n of them) and a NUL; control bytes become '?' (the copy
   goes into messages). */
static inline void tl__cf_copy_cut(char *dst, size_t cap, const char *s, size_t n) {
    size_t i;
    if (n > cap - 1) n = cap - 1;
    for (i = 0; i < n; i++) dst[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    dst[n] = 0;
}

/* Where the parse in j stopped (or the archive a whole-index rule blamed), into *fault. */
static inline void tl__cf_index_locate(const tl__cf_json *j, const tl_cf_index *x,
                                       tl_cf_index_fault *fault) {
    const tl_cf_index_archive *a = NULL;
    memset(fault, 0, sizeof *fault);
    fault->offset = (uint64_t)(j->p - j->text);
    fault->archive = UINT32_MAX;
    if (j->blamed) {
        a = j->blamed;
        fault->archive = (uint32_t)(a - x->archives);
        fault->offset = j->starts[fault->archive];
    } else if (j->archive != UINT32_MAX && x->archives) {
        a = &x->archives[j->archive];
        fault->archive = j->archive;
    }
    if (j->key) tl__cf_copy_cut(fault->key, sizeof fault->key, j->key, j->key_len);
    if (a && a->name) tl__cf_copy_cut(fault->name, sizeof fault->name, a->name, strlen(a->name));
}

static inline tl_cf_result tl_cf_index_parse(tl_cf_index *out, const char *text, size_t len,
                                             const char **why) {
    return tl_cf_index_parse_ex(out, text, len, why, NULL);
}

static inline tl_cf_result tl_cf_index_parse_ex(tl_cf_index *out, const char *text, size_t len,
                                                const char **why, tl_cf_index_fault *fault) {
    const char *invalid = "not a valid archive index (archives.json)";
    tl__cf_json j;
    size_t max_archives, block;
    char *storage;
    unsigned seen = 0;
    uint64_t format = 0;
    bool ok;
    tl_cf_result r;
    memset(out, 0, sizeof *out);
    block = tl__cf_index_block_size(text, len, &max_archives);
    if (!block) return tl__cf_fail(TL_CF_NO_MEMORY, "out of memory", why);
    storage = (char *)TL_MALLOC(block);
    if (!storage) return tl__cf_fail(TL_CF_NO_MEMORY, "out of memory", why);
    memset(&j, 0, sizeof j);
    j.p = j.text = text;
    j.end = text + len;
    j.heap = storage;
    j.heap_end = storage + block;
    j.archive = UINT32_MAX;
    ok = tl__cf_index_object(&j, out, max_archives, &format, &seen);
    tl__cf_json_ws(&j);
    ok = ok && j.p == j.end && seen == TL__CF_INDEX_REQUIRED;
    r = ok ? tl__cf_index_check(&j, out, why)
           : tl__cf_fail(
                 TL_CF_BAD_JSON,
                 format > 1 ? "archives.json has a newer format than this runtime reads"
                 : j.too_many
                     ? "archives.json lists more than 65,536 archives (TL_CF_INDEX_MAX_ARCHIVES)"
                     : invalid,
                 why);
    if (r != TL_CF_OK) {
        if (fault) tl__cf_index_locate(&j, out, fault);
        TL_FREE(storage);
        memset(out, 0, sizeof *out);
        return r;
    }
    out->storage_ = storage;
    return TL_CF_OK;
}

static inline void tl_cf_index_free(tl_cf_index *index) {
    if (index->storage_) TL_FREE(index->storage_);
    memset(index, 0, sizeof *index);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_CONTENT_FORMAT_H */

/* ================================================================================================ */
