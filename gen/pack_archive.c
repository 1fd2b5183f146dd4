/* The bytes of archives and catalogs (formats: schemas/content-formats.md). Everything here is
 * a function of its inputs: no times, no paths outside the profile, no dependence on order. */
#include "pack.h"

#include "content_format.h"
#include "content_scan.h"
#include "fsio.h"
#include "output.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <lz4.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* zstd level 3 (the library's default): a good ratio at a build-friendly speed. The level is part
 * of the format's determinism: the same library version and level give the same bytes. */
#define PACK_ZSTD_LEVEL 3

struct pack_codec {
    content_codec codec;
    ZSTD_CCtx *z;
};

pack_codec *pack_codec_new(content_codec codec)
{
    pack_codec *c = xcalloc(1, sizeof *c);
    c->codec = codec;
    if (codec == CONTENT_CODEC_ZSTD) {
        c->z = ZSTD_createCCtx();
        if (!c->z) abort();
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_compressionLevel, PACK_ZSTD_LEVEL);
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_contentSizeFlag, 1);
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_checksumFlag, 0);
    }
    return c;
}

void pack_codec_free(pack_codec *c)
{
    if (!c) return;
    if (c->z) ZSTD_freeCCtx(c->z);
    free(c);
}

/* Appends the stored form of `src` to `out`; returns the codec used (raw when compression does
 * not make it smaller, as for PNG, JPEG or Ogg data). */
static tl_cf_codec compress_into(pack_codec *c, const char *src, size_t n, buf *out)
{
    size_t at = out->len;
    if (c->codec == CONTENT_CODEC_LZ4 && n > 0 && n <= (size_t)LZ4_MAX_INPUT_SIZE) {
        int bound = LZ4_compressBound((int)n);
        buf_reserve(out, (size_t)bound);
        int got = LZ4_compress_default(src, out->data + at, (int)n, bound);
        if (got > 0 && (size_t)got < n) {
            out->len = at + (size_t)got;
            return TL_CF_CODEC_LZ4;
        }
    } else if (c->codec == CONTENT_CODEC_ZSTD && n > 0) {
        size_t bound = ZSTD_compressBound(n);
        buf_reserve(out, bound);
        size_t got = ZSTD_compress2(c->z, out->data + at, bound, src, n);
        if (!ZSTD_isError(got) && got < n) {
            out->len = at + got;
            return TL_CF_CODEC_ZSTD;
        }
    }
    out->len = at;
    buf_put(out, src, n);
    return TL_CF_CODEC_RAW;
}

typedef struct member_ref {
    uint32_t id, index;
} member_ref;

static int by_id(const void *x, const void *y)
{
    const member_ref *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Reads one input onto the end of `dst` in pieces small enough to stay in cache while they are
 * hashed (its own XXH64, checked against the scan's, and the archive's when `archive` is given)
 * and handed on to `o` when `dst` is that output's chunk, so that every byte is touched once
 * after the read. The bytes kept are exactly the bytes hashed: a file that differs in any way
 * from what the scan hashed (edited, replaced, grown, shrunk or gone) fails here, and the caller
 * abandons the whole build. */
#define PACK_COPY_PIECE (128u << 10)

static bool copy_checked(const char *path, uint64_t size, uint64_t xxh64, buf *dst, out_file *o, XXH64_state_t *archive)
{
    int fd = fs_open_input(path, FS_INPUT_ASSET, NULL);
    if (fd < 0) {
        if (errno == ENOENT) diag_error(loc_file(path), "file vanished while the content was packed");
        else diag_error(loc_file(path), "cannot read: %s", fs_read_failure());
        return false;
    }
    buf_reserve(dst, o ? 0 : (size_t)size); /* a buffer of its own gets the whole file's room at once */
    XXH64_state_t own;
    XXH64_reset(&own, 0);
    uint64_t got = 0;
    bool grew = false;
    while (got < size) {
        size_t want = size - got < PACK_COPY_PIECE ? (size_t)(size - got) : PACK_COPY_PIECE;
        /* The last piece asks for one byte more: a file that grew gives it (no read just to
         * see the end of the file). */
        size_t ask = want + (got + want == size);
        buf_reserve(dst, ask);
        char *at = dst->data + dst->len;
        ssize_t n = read(fd, at, ask);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            diag_error(loc_file(path), "cannot read: %s", strerror(errno));
            close(fd);
            return false;
        }
        if (n == 0) break; /* shrunk */
        if ((size_t)n > want) {
            grew = true;
            break;
        }
        XXH64_update(&own, at, (size_t)n);
        if (archive) XXH64_update(archive, at, (size_t)n);
        dst->len += (size_t)n;
        got += (uint64_t)n;
        if (o) out_maybe_flush(o);
    }
    if (size == 0) { /* nothing to copy: only the end to see */
        char probe;
        ssize_t extra;
        while ((extra = read(fd, &probe, 1)) < 0 && errno == EINTR) {
        }
        grew = extra > 0;
    }
    close(fd);
    dst->data[dst->len] = 0;
    if (got != size || grew || XXH64_digest(&own) != xxh64) {
        diag_error(loc_file(path), "file changed while the content was packed; run again when it is written");
        return false;
    }
    return true;
}

bool pack_build_archive(const content_scan *sc, const uint32_t *members, size_t count, const buf *catalog, pack_codec *codec,
                        buf *out, uint64_t *input_bytes)
{
    size_t n = catalog ? 1 : count;
    member_ref *order = xcalloc(n ? n : 1, sizeof *order);
    for (size_t i = 0; i < count && !catalog; i++) order[i] = (member_ref){sc->assets.items[members[i]].id, members[i]};
    if (!catalog) qsort(order, n, sizeof *order, by_id);
    size_t toc_size = n * TL_CF_ARCHIVE_ENTRY_SIZE;
    size_t data_start = TL_CF_ARCHIVE_HEADER_SIZE + toc_size;
    out->len = 0;
    buf_reserve(out, data_start);
    memset(out->data, 0, data_start);
    out->len = data_start;
    tl_cf_archive_entry *entries = xcalloc(n ? n : 1, sizeof *entries);
    buf data = {0};
    bool ok = true;
    *input_bytes = 0;
    for (size_t i = 0; i < n && ok; i++) {
        const char *src;
        size_t len;
        tl_cf_archive_entry *e = &entries[i];
        e->offset = out->len;
        if (catalog) {
            src = catalog->data;
            len = catalog->len;
            e->id = TL_CF_CATALOG_ENTRY_ID;
            e->xxh64 = tl_cf_xxh64(src, len);
            e->codec = (uint32_t)compress_into(codec, src, len, out);
        } else {
            const content_asset *a = &sc->assets.items[order[i].index];
            char *path = path_join(sc->root, a->path);
            e->id = a->id;
            e->xxh64 = a->xxh64; /* copy_checked checks the bytes still hash to it */
            data.len = 0;
            ok = copy_checked(path, a->size, a->xxh64, &data, NULL, NULL);
            if (ok) e->codec = (uint32_t)compress_into(codec, data.data ? data.data : "", data.len, out);
            free(path);
            if (!ok) break;
            len = (size_t)a->size;
        }
        e->original_size = len;
        e->stored_size = out->len - e->offset;
        *input_bytes += len;
    }
    if (ok) {
        for (size_t i = 0; i < n; i++)
            tl_cf_archive_put_entry((unsigned char *)out->data + TL_CF_ARCHIVE_HEADER_SIZE + i * TL_CF_ARCHIVE_ENTRY_SIZE, &entries[i]);
        uint64_t toc_hash = tl_cf_xxh64(out->data + TL_CF_ARCHIVE_HEADER_SIZE, toc_size);
        tl_cf_archive_put_header((unsigned char *)out->data, (uint32_t)n, out->len - data_start, toc_hash);
    }
    buf_free(&data);
    free(entries);
    free(order);
    return ok;
}

bool pack_stream_asset(const char *path, uint64_t size, uint64_t xxh64, out_file *o)
{
    return copy_checked(path, size, xxh64, &o->chunk, o, NULL);
}

bool pack_stream_raw_archive(const content_scan *sc, const uint32_t *members, size_t count, out_file *o, uint64_t *archive_xxh64)
{
    member_ref *order = xcalloc(count ? count : 1, sizeof *order);
    for (size_t i = 0; i < count; i++) order[i] = (member_ref){sc->assets.items[members[i]].id, members[i]};
    qsort(order, count, sizeof *order, by_id);
    /* Stored raw, every entry's place and size is known before a byte is read: header and table
     * of contents first, as pack_build_archive lays them out. */
    size_t toc_size = count * TL_CF_ARCHIVE_ENTRY_SIZE, data_start = TL_CF_ARCHIVE_HEADER_SIZE + toc_size;
    unsigned char *head = xcalloc(data_start, 1);
    uint64_t at = data_start;
    for (size_t i = 0; i < count; i++) {
        const content_asset *a = &sc->assets.items[order[i].index];
        tl_cf_archive_entry e = {a->id, TL_CF_CODEC_RAW, at, a->size, a->size, a->xxh64};
        tl_cf_archive_put_entry(head + TL_CF_ARCHIVE_HEADER_SIZE + i * TL_CF_ARCHIVE_ENTRY_SIZE, &e);
        at += a->size;
    }
    tl_cf_archive_put_header(head, (uint32_t)count, at - data_start, tl_cf_xxh64(head + TL_CF_ARCHIVE_HEADER_SIZE, toc_size));
    XXH64_state_t archive;
    XXH64_reset(&archive, 0);
    XXH64_update(&archive, head, data_start);
    buf_put(&o->chunk, head, data_start);
    out_maybe_flush(o);
    free(head);
    bool ok = true;
    for (size_t i = 0; i < count && ok; i++) {
        const content_asset *a = &sc->assets.items[order[i].index];
        char *path = path_join(sc->root, a->path);
        ok = copy_checked(path, a->size, a->xxh64, &o->chunk, o, &archive);
        free(path);
    }
    *archive_xxh64 = XXH64_digest(&archive);
    free(order);
    return ok;
}

/* ---- Catalog ------------------------------------------------------------------------------- */

typedef struct str_ref {
    uint32_t off, len;
} str_ref;

static str_ref add_string(buf *strings, const char *s)
{
    str_ref r = {(uint32_t)strings->len, (uint32_t)strlen(s)};
    buf_put(strings, s, r.len + 1); /* with its NUL */
    return r;
}

typedef struct name_ref {
    const char *name;
    uint32_t record;
    uint32_t category;
} name_ref;

static int by_folded(const void *x, const void *y)
{
    const name_ref *a = x, *b = y;
    return tl_cf_fold_compare(a->name, strlen(a->name), b->name, strlen(b->name));
}

static int by_category_then_folded(const void *x, const void *y)
{
    const name_ref *a = x, *b = y;
    if (a->category != b->category) return a->category < b->category ? -1 : 1;
    return by_folded(x, y);
}

void pack_build_catalog(const content_profile *pr, const content_scan *sc, bool flat, buf *out)
{
    size_t n = sc->assets.count, ncat = pr->categories.count;
    /* Records in id order. */
    member_ref *order = xcalloc(n ? n : 1, sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = (member_ref){sc->assets.items[i].id, (uint32_t)i};
    qsort(order, n, sizeof *order, by_id);
    buf strings = {0};
    str_ref profile = add_string(&strings, pr->name);
    str_ref *cat_names = xcalloc(ncat, sizeof *cat_names);
    for (size_t k = 0; k < ncat; k++) cat_names[k] = add_string(&strings, pr->categories.items[k].name);

    size_t records_at = TL_CF_CATALOG_HEADER_SIZE + ncat * TL_CF_CATALOG_CATEGORY_SIZE;
    size_t index_at = records_at + n * TL_CF_CATALOG_RECORD_SIZE;
    size_t members_at = index_at + n * 4;
    size_t strings_at = members_at + n * 4;
    unsigned char *tables = xcalloc(strings_at, 1);
    name_ref *names = xcalloc(n ? n : 1, sizeof *names);
    for (size_t r = 0; r < n; r++) {
        const content_asset *a = &sc->assets.items[order[r].index];
        str_ref name = add_string(&strings, a->name);
        str_ref path = {0, 0};
        if (flat) {
            char *rel = xasprintf("%s/%s", PACK_FLAT_ASSETS, a->path);
            path = add_string(&strings, rel);
            free(rel);
        }
        if (!flat) path.off = profile.off + profile.len; /* the profile name's NUL: an empty string */
        unsigned char *p = tables + records_at + r * TL_CF_CATALOG_RECORD_SIZE;
        tl_cf_put_u32(p, a->id);
        tl_cf_put_u32(p + 4, a->category);
        tl_cf_put_u32(p + 8, name.off);
        tl_cf_put_u32(p + 12, name.len);
        tl_cf_put_u32(p + 16, path.off);
        tl_cf_put_u32(p + 20, path.len);
        tl_cf_put_u64(p + 24, flat ? a->size : 0);
        tl_cf_put_u64(p + 32, flat ? a->xxh64 : 0);
        names[r] = (name_ref){a->name, (uint32_t)r, a->category};
    }
    qsort(names, n, sizeof *names, by_folded);
    for (size_t i = 0; i < n; i++) tl_cf_put_u32(tables + index_at + i * 4, names[i].record);
    qsort(names, n, sizeof *names, by_category_then_folded);
    for (size_t i = 0; i < n; i++) tl_cf_put_u32(tables + members_at + i * 4, names[i].record);
    size_t first = 0;
    for (size_t k = 0; k < ncat; k++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++) count += names[i].category == k;
        unsigned char *p = tables + TL_CF_CATALOG_HEADER_SIZE + k * TL_CF_CATALOG_CATEGORY_SIZE;
        tl_cf_put_u32(p, cat_names[k].off);
        tl_cf_put_u32(p + 4, cat_names[k].len);
        tl_cf_put_u32(p + 8, (uint32_t)first);
        tl_cf_put_u32(p + 12, (uint32_t)count);
        first += count;
    }
    memcpy(tables, TL_CF_CATALOG_MAGIC, 8);
    tl_cf_put_u32(tables + 8, TL_CF_CATALOG_VERSION);
    tl_cf_put_u32(tables + 12, flat ? TL_CF_CATALOG_FLAG_CONTENT_INFO | TL_CF_CATALOG_FLAG_FLAT_PATHS : 0);
    tl_cf_put_u32(tables + 16, (uint32_t)ncat);
    tl_cf_put_u32(tables + 20, (uint32_t)n);
    tl_cf_put_u32(tables + 24, (uint32_t)strings.len);
    tl_cf_put_u32(tables + 28, 0);
    tl_cf_put_u32(tables + 40, profile.off);
    tl_cf_put_u32(tables + 44, profile.len);
    out->len = 0;
    buf_put(out, tables, strings_at);
    buf_put(out, strings.data, strings.len);
    tl_cf_put_u64((unsigned char *)out->data + 32, tl_cf_xxh64(out->data + TL_CF_CATALOG_HEADER_SIZE, out->len - TL_CF_CATALOG_HEADER_SIZE));
    free(names);
    free(tables);
    free(cat_names);
    free(order);
    buf_free(&strings);
}
