/* Content formats: the binary catalog, the packed archive container and the archives.json index
 * (spec: schemas/content-formats.md, schemas/archives.schema.json). Readers that validate every
 * offset, size and count before trusting it, and the little-endian encoders the writer uses.
 *
 * Plain C99 with no generator dependency (no util.h, no jansson, no allocation except where a
 * function says so, through TL_CF_MALLOC/TL_CF_FREE), so the runtime loader can reuse it. The
 * codecs (lz4, zstd) are only needed by tl_cf_archive_extract, in content_format_codec.c.
 *
 * Every reader takes the whole file as one buffer (data, size) and answers TL_CF_OK or the first
 * problem it finds; tl_cf_error_text names it. Nothing is read outside [data, data + size). */
#ifndef TL_CONTENT_FORMAT_H
#define TL_CONTENT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TL_CF_MALLOC) != defined(TL_CF_FREE)
#error "define TL_CF_MALLOC and TL_CF_FREE together"
#endif
#ifndef TL_CF_MALLOC
#include <stdlib.h>
#define TL_CF_MALLOC(n) malloc(n)
#define TL_CF_FREE(p) free(p)
#endif

typedef enum tl_cf_result {
    TL_CF_OK = 0,
    TL_CF_TRUNCATED,        /* shorter than its header or its tables say */
    TL_CF_BAD_MAGIC,
    TL_CF_BAD_VERSION,
    TL_CF_BAD_HEADER,       /* a reserved field is not 0, a flag is unknown, a count is out of bounds */
    TL_CF_BAD_SIZE,         /* the file size is not exactly what the header adds up to */
    TL_CF_BAD_CHECKSUM,     /* a recorded XXH64 does not match */
    TL_CF_BAD_ENTRY,        /* a table entry is out of bounds, out of order or inconsistent */
    TL_CF_BAD_STRING,       /* a string is out of bounds, not NUL-terminated or not UTF-8 */
    TL_CF_BAD_CODEC,        /* unknown codec, or the stored bytes do not decode to the original */
    TL_CF_NOT_FOUND,
    TL_CF_NO_MEMORY,
    TL_CF_BAD_JSON          /* archives.json: not JSON, or not the documented shape */
} tl_cf_result;

const char *tl_cf_error_text(tl_cf_result r);

/* XXH64 (seed 0) of a byte range: the checksum every format records. */
uint64_t tl_cf_xxh64(const void *data, size_t size);

/* ---- Little-endian encoding ------------------------------------------------------------- */
static inline uint32_t tl_cf_get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tl_cf_get_u64(const unsigned char *p)
{
    return (uint64_t)tl_cf_get_u32(p) | (uint64_t)tl_cf_get_u32(p + 4) << 32;
}
static inline void tl_cf_put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}
static inline void tl_cf_put_u64(unsigned char *p, uint64_t v)
{
    tl_cf_put_u32(p, (uint32_t)v);
    tl_cf_put_u32(p + 4, (uint32_t)(v >> 32));
}

/* ---- Packed archive (.tlpk) ------------------------------------------------------------- */
#define TL_CF_ARCHIVE_MAGIC "TLPKARC\x1a"
#define TL_CF_ARCHIVE_VERSION 1u
#define TL_CF_ARCHIVE_HEADER_SIZE 32u
#define TL_CF_ARCHIVE_ENTRY_SIZE 40u
/* Entry id 0 is never an asset (asset ids are reserve_zero identity values): it is the
 * catalog, in the catalog archive. */
#define TL_CF_CATALOG_ENTRY_ID 0u

typedef enum tl_cf_codec { TL_CF_CODEC_RAW = 0, TL_CF_CODEC_LZ4 = 1, TL_CF_CODEC_ZSTD = 2 } tl_cf_codec;

typedef struct tl_cf_archive_entry {
    uint32_t id;            /* asset id (catalog value), or TL_CF_CATALOG_ENTRY_ID */
    uint32_t codec;         /* tl_cf_codec */
    uint64_t offset;        /* from the start of the file */
    uint64_t stored_size;   /* bytes at offset */
    uint64_t original_size; /* bytes after decoding */
    uint64_t xxh64;         /* of the original bytes */
} tl_cf_archive_entry;

typedef struct tl_cf_archive {
    const unsigned char *data;
    uint64_t size;
    uint32_t entry_count;
    uint64_t data_size;
    const unsigned char *toc; /* entry_count * TL_CF_ARCHIVE_ENTRY_SIZE bytes */
} tl_cf_archive;

/* Validates header, table of contents and layout (not the data bytes: tl_cf_archive_extract
 * checks each entry's XXH64 when it is read). */
tl_cf_result tl_cf_archive_open(tl_cf_archive *a, const void *data, size_t size);
void tl_cf_archive_entry_at(const tl_cf_archive *a, uint32_t index, tl_cf_archive_entry *out);
/* Binary search by id; TL_CF_NOT_FOUND when absent. */
tl_cf_result tl_cf_archive_find(const tl_cf_archive *a, uint32_t id, tl_cf_archive_entry *out);
/* Decodes one entry into out (out_capacity >= original_size) and checks its XXH64. */
tl_cf_result tl_cf_archive_extract(const tl_cf_archive *a, const tl_cf_archive_entry *e, void *out, size_t out_capacity);

/* Encodes a header and a TOC entry (the writer). */
void tl_cf_archive_put_header(unsigned char out[TL_CF_ARCHIVE_HEADER_SIZE], uint32_t entry_count, uint64_t data_size,
                              uint64_t toc_xxh64);
void tl_cf_archive_put_entry(unsigned char out[TL_CF_ARCHIVE_ENTRY_SIZE], const tl_cf_archive_entry *e);

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
    const char *name;   /* NUL-terminated UTF-8 inside the catalog buffer */
    uint32_t name_len;
    const char *path;   /* flat builds: relative path in the output folder; "" otherwise */
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

/* Validates everything: checksum, tables, every string, ids strictly ascending, the name index
 * sorted by folded name without duplicates, category ranges covering the members exactly. */
tl_cf_result tl_cf_catalog_open(tl_cf_catalog *c, const void *data, size_t size);
void tl_cf_catalog_asset_at(const tl_cf_catalog *c, uint32_t index, tl_cf_catalog_asset *out);
/* Case-insensitive (ASCII) lookup by name; binary search over the name index. */
tl_cf_result tl_cf_catalog_find_name(const tl_cf_catalog *c, const char *name, size_t len, tl_cf_catalog_asset *out);
tl_cf_result tl_cf_catalog_find_id(const tl_cf_catalog *c, uint32_t id, tl_cf_catalog_asset *out);
/* A category's name and its members (record indices, sorted by name). */
void tl_cf_catalog_category(const tl_cf_catalog *c, uint32_t index, const char **name, uint32_t *first, uint32_t *count);
uint32_t tl_cf_catalog_member(const tl_cf_catalog *c, uint32_t position);

/* Bytewise order of ASCII-lowercased strings: the catalog's name index order. */
int tl_cf_fold_compare(const char *a, size_t alen, const char *b, size_t blen);

/* ---- archives.json ---------------------------------------------------------------------- */
typedef struct tl_cf_index_archive {
    char *name;
    uint64_t size, input_bytes, xxh64;
    int is_catalog;
    uint32_t file_count;
    char **files;
} tl_cf_index_archive;

typedef struct tl_cf_index {
    char *profile;
    uint32_t archive_count;
    tl_cf_index_archive *archives;
    void *storage_; /* one allocation holds everything; freed by tl_cf_index_free */
} tl_cf_index;

/* Parses and validates archives.json (format 1): every required key with its type, archive
 * names that are plain file names and unique, xxh64 as 16 lowercase hex digits, exactly one
 * catalog archive, every file listed once. Allocates (TL_CF_MALLOC) on success only. */
tl_cf_result tl_cf_index_parse(tl_cf_index *out, const char *text, size_t len);
void tl_cf_index_free(tl_cf_index *index);

/* A plain archive file name: not empty, at most 255 bytes, no '/', '\\', control characters,
 * and not "." or "..". */
int tl_cf_valid_file_name(const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif
