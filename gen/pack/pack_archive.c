/* The bytes of archives and catalogs (formats: schemas/content-formats.md). Everything here is
 * a function of its inputs: no times, no paths outside the profile, no dependence on order. */
#include "pack/pack_internal.h"

#include "content/content_write.h"
#include "content/content_scan.h"
#include "base/fsio.h"
#include "base/output.h"
#include "base/work_pool.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <lz4.h>
#include <lz4hc.h>
#include <string.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_literalCompressionMode (experimental in 1.5, since 1.4.5) */
#include <zstd.h>

/* By default zstd level 3 (the library's default: a good ratio at a build-friendly speed) and
 * lz4's fast compressor; lz4 levels 3-12 are LZ4 HC, whose output decodes faster. The level is
 * part of the format's determinism: the same library version and level give the same bytes. */
#define PACK_LZ4_HC_MIN 3

struct pack_codec {
    content_codec codec;
    int level; /* the profile's (content_codec_levels) */
    ZSTD_CCtx *z;
};

/* At the fast levels (up to the default) a zstd entry's literals are stored as they are, not
 * Huffman-coded, as zstd itself does at its negative levels: they decode at copy speed, which
 * matters most for small entries (a Huffman table to read and build per frame). Measured on the
 * load bench's mixed tree (2,666 text-like entries, 200 B-350 KB, level 3): decoding 85.6 ->
 * 81.5 ms, entries under 4 KB 9.4 -> 7.1 ms, stored 14.5 -> 15.6 MB; packing as fast. Levels
 * above the default are asked for size and keep their Huffman literals. */
#define PACK_ZSTD_RAW_LITERALS_MAX 3

static void zstd_raw_literals(ZSTD_CCtx *z, int level)
{
#if ZSTD_VERSION_NUMBER >= 10501
    if (level <= PACK_ZSTD_RAW_LITERALS_MAX) ZSTD_CCtx_setParameter(z, ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
#elif ZSTD_VERSION_NUMBER >= 10405 /* the same setting under its older name */
    if (level <= PACK_ZSTD_RAW_LITERALS_MAX) ZSTD_CCtx_setParameter(z, ZSTD_c_literalCompressionMode, ZSTD_lcm_uncompressed);
#else
    (void)z, (void)level;
#endif
}

pack_codec *pack_codec_new(content_codec codec, int level)
{
    pack_codec *c = xcalloc(1, sizeof *c);
    int lo, hi, fallback;
    content_codec_levels(codec, &lo, &hi, &fallback);
    c->codec = codec;
    c->level = level ? level : fallback;
    if (codec == CONTENT_CODEC_ZSTD) {
        c->z = ZSTD_createCCtx();
        if (!c->z) abort();
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_compressionLevel, c->level);
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_contentSizeFlag, 1);
        ZSTD_CCtx_setParameter(c->z, ZSTD_c_checksumFlag, 0);
        zstd_raw_literals(c->z, c->level);
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
        int got = c->level >= PACK_LZ4_HC_MIN ? LZ4_compress_HC(src, out->data + at, (int)n, bound, c->level)
                                              : LZ4_compress_default(src, out->data + at, (int)n, bound);
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
        while ((extra = read(fd, &probe, 1)) < 0 && errno == EINTR) {}
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
            tl_cf_archive_put_entry((unsigned char *)out->data + TL_CF_ARCHIVE_HEADER_SIZE + i * TL_CF_ARCHIVE_ENTRY_SIZE,
                                    &entries[i]);
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

/* ---- Many archives, on every core --------------------------------------------------------- */

/* Reads one input whole onto `dst`, checked against the scan's size and XXH64, as copy_checked
 * does but reporting nothing and touching no shared state, so that any thread may run it. false
 * for anything copy_checked would report: the caller redoes the item there, for the message. */
static bool read_checked_quietly(const char *path, uint64_t size, uint64_t xxh64, buf *dst)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0) return false;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    dst->len = 0;
    if (ok) buf_reserve(dst, (size_t)size + 1);
    uint64_t got = 0;
    while (ok && got <= size) { /* one byte more than the size: a file that grew gives it */
        ssize_t n = read(fd, dst->data + got, (size_t)(size + 1 - got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        got += (uint64_t)n;
    }
    close(fd);
    dst->len = (size_t)got;
    return ok && got == size && XXH64(dst->data, dst->len, 0) == xxh64;
}

typedef struct stored_entry {
    buf bytes; /* the entry as stored in the archive */
    tl_cf_codec codec;
    bool ok; /* read and checked; false: redone on the writer's thread, which reports */
} stored_entry;

typedef struct parallel_build {
    const content_scan *sc;
    content_codec codec;
    const pack_entry_source *reuse; /* per asset, or NULL */
    uint32_t *assets;               /* per item: the asset, archives in job order, entries in id order */
    stored_entry *stored;           /* per item */
    pack_codec **codecs;            /* per worker */
    buf *scratch;                   /* per worker: the input before compression */
} parallel_build;

/* The previous archive an item's stored bytes are copied from, or NULL: compressed afresh. */
static const pack_entry_source *reused(const parallel_build *b, size_t item)
{
    const pack_entry_source *from = b->reuse ? &b->reuse[b->assets[item]] : NULL;
    return from && from->archive ? from : NULL;
}

static void store_item(void *ctx, size_t item, unsigned worker)
{
    parallel_build *b = ctx;
    const content_asset *a = &b->sc->assets.items[b->assets[item]];
    stored_entry *e = &b->stored[item];
    if (reused(b, item)) { /* copied from its previous archive as the archive is written */
        e->ok = true;
        return;
    }
    char *path = path_join(b->sc->root, a->path);
    if (b->codec == CONTENT_CODEC_NONE) {
        e->ok = read_checked_quietly(path, a->size, a->xxh64, &e->bytes);
        e->codec = TL_CF_CODEC_RAW;
    } else {
        buf *in = &b->scratch[worker];
        e->ok = read_checked_quietly(path, a->size, a->xxh64, in);
        if (e->ok) e->codec = compress_into(b->codecs[worker], in->data, in->len, &e->bytes);
    }
    free(path);
}

/* On the writer's thread, an item a worker could not do: read again with copy_checked, which
 * reports what is wrong; when it reads right this time, its bytes are the scan's, so they stand. */
static bool redo_item(parallel_build *b, size_t item)
{
    const content_asset *a = &b->sc->assets.items[b->assets[item]];
    stored_entry *e = &b->stored[item];
    char *path = path_join(b->sc->root, a->path);
    buf *in = &b->scratch[0];
    in->len = 0;
    e->bytes.len = 0;
    bool ok = copy_checked(path, a->size, a->xxh64, in, NULL, NULL);
    free(path);
    if (ok) e->codec = compress_into(b->codecs[0], in->data, in->len, &e->bytes);
    return e->ok = ok;
}

/* The result of `item` once done (redone if need be), or NULL after reporting. */
static stored_entry *take_item(parallel_build *b, work_pool *pool, size_t item)
{
    work_pool_wait(pool, item);
    stored_entry *e = &b->stored[item];
    return e->ok || redo_item(b, item) ? e : NULL;
}

static void drop_item(parallel_build *b, work_pool *pool, size_t item)
{
    buf_free(&b->stored[item].bytes);
    work_pool_release(pool, item);
}

/* Header and table of contents of an archive whose entries are known: the writer puts them
 * first, then the data (raw archives are streamed so: their sizes are known before a byte is read). */
static void put_layout(unsigned char *head, const tl_cf_archive_entry *entries, size_t n, uint64_t data_size)
{
    size_t toc_size = n * TL_CF_ARCHIVE_ENTRY_SIZE;
    for (size_t i = 0; i < n; i++)
        tl_cf_archive_put_entry(head + TL_CF_ARCHIVE_HEADER_SIZE + i * TL_CF_ARCHIVE_ENTRY_SIZE, &entries[i]);
    tl_cf_archive_put_header(head, (uint32_t)n, data_size, tl_cf_xxh64(head + TL_CF_ARCHIVE_HEADER_SIZE, toc_size));
}

/* Bytes of an archive being written: onto its output (handed on when large) and into its hash. */
static void put_archive_bytes(out_file *o, XXH64_state_t *hash, const void *data, size_t len)
{
    XXH64_update(hash, data, len);
    buf_put(&o->chunk, data, len);
    out_maybe_flush(o);
}

/* A raw archive streamed into its file as its entries come. */
static bool write_raw_archive(parallel_build *b, work_pool *pool, size_t first, pack_archive_job *job, output_set *set,
                              const char *dir)
{
    size_t n = job->count, data_start = TL_CF_ARCHIVE_HEADER_SIZE + n * TL_CF_ARCHIVE_ENTRY_SIZE;
    tl_cf_archive_entry *entries = xcalloc(n ? n : 1, sizeof *entries);
    uint64_t at = data_start;
    for (size_t i = 0; i < n; i++) {
        const content_asset *a = &b->sc->assets.items[b->assets[first + i]];
        entries[i] = (tl_cf_archive_entry){.id = a->id,
                                           .codec = TL_CF_CODEC_RAW,
                                           .offset = at,
                                           .stored_size = a->size,
                                           .original_size = a->size,
                                           .xxh64 = a->xxh64};
        at += a->size;
    }
    unsigned char *head = xcalloc(data_start, 1);
    put_layout(head, entries, n, at - data_start);
    free(entries);
    XXH64_state_t hash;
    XXH64_reset(&hash, 0);
    XXH64_update(&hash, head, data_start);
    out_file *o = output_begin_below(set, dir, job->name);
    buf_put(&o->chunk, head, data_start);
    free(head);
    bool ok = !o->failed;
    for (size_t i = 0; ok && i < n; i++) {
        stored_entry *e = take_item(b, pool, first + i);
        ok = e != NULL;
        if (ok) put_archive_bytes(o, &hash, e->bytes.data, e->bytes.len);
        drop_item(b, pool, first + i);
    }
    ok = ok && output_end(o);
    job->size = o->pos, job->xxh64 = XXH64_digest(&hash), job->written = o->differs;
    return ok;
}

/* Appends a reused entry's stored bytes, read from its previous archive in pieces, to the
 * output, hashing them; false if they cannot all be read (that archive hashed as recorded when
 * this run began: it changed since). */
static bool copy_reused(const pack_entry_source *from, out_file *o, XXH64_state_t *hash)
{
    int fd = openat(from->dir_fd, from->archive, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    uint64_t got = 0;
    while (fd >= 0 && got < from->stored_size) {
        size_t want = from->stored_size - got < (1u << 16) ? (size_t)(from->stored_size - got) : (1u << 16);
        buf_reserve(&o->chunk, want);
        ssize_t n = pread(fd, o->chunk.data + o->chunk.len, want, (off_t)(from->offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        XXH64_update(hash, o->chunk.data + o->chunk.len, (size_t)n);
        o->chunk.len += (size_t)n, got += (uint64_t)n;
        out_maybe_flush(o);
    }
    if (fd >= 0) close(fd);
    if (got != from->stored_size) {
        char *path = path_join(from->dir, from->archive);
        diag_error(loc_file(path), "changed while this build copied entries from it; run pack again");
        free(path);
    }
    return got == from->stored_size;
}

/* The table of contents: reused entries at their previous stored size and codec, the others as
 * compressed now (each waited for). false when an entry could not be read (reported). */
static bool lay_out(parallel_build *b, work_pool *pool, size_t first, size_t n, size_t data_start, tl_cf_archive_entry *entries,
                    uint64_t *data_size)
{
    uint64_t at = data_start;
    for (size_t i = 0; i < n; i++) {
        const content_asset *a = &b->sc->assets.items[b->assets[first + i]];
        const pack_entry_source *from = reused(b, first + i);
        stored_entry *e = from ? NULL : take_item(b, pool, first + i);
        if (!from && !e) return false;
        if (e) work_pool_release(pool, first + i); /* held until written, as the archive's bytes always were */
        uint64_t stored = from ? from->stored_size : e->bytes.len;
        entries[i] = (tl_cf_archive_entry){.id = a->id,
                                           .codec = from ? from->codec : (uint32_t)e->codec,
                                           .offset = at,
                                           .stored_size = stored,
                                           .original_size = a->size,
                                           .xxh64 = a->xxh64};
        at += stored;
    }
    *data_size = at - data_start;
    return true;
}

/* A compressed archive: the entries compressed now gathered first (at most the archive's size,
 * none in a one-file edit but the edited one), then the file streamed, header first, the reused
 * entries copied from their previous archives in pieces. */
static bool write_packed_archive(parallel_build *b, work_pool *pool, size_t first, pack_archive_job *job, output_set *set,
                                 const char *dir)
{
    size_t n = job->count, data_start = TL_CF_ARCHIVE_HEADER_SIZE + n * TL_CF_ARCHIVE_ENTRY_SIZE;
    tl_cf_archive_entry *entries = xcalloc(n ? n : 1, sizeof *entries);
    uint64_t data_size = 0;
    bool ok = lay_out(b, pool, first, n, data_start, entries, &data_size);
    out_file *o = output_begin_below(set, dir, job->name);
    XXH64_state_t hash;
    XXH64_reset(&hash, 0);
    if (ok) {
        buf_reserve(&o->chunk, data_start);
        put_layout((unsigned char *)o->chunk.data, entries, n, data_size);
        o->chunk.len = data_start;
        XXH64_update(&hash, o->chunk.data, data_start);
    }
    ok = ok && !o->failed;
    for (size_t i = 0; ok && i < n; i++) {
        const pack_entry_source *from = reused(b, first + i);
        stored_entry *e = &b->stored[first + i];
        if (from) ok = copy_reused(from, o, &hash);
        else put_archive_bytes(o, &hash, e->bytes.data, e->bytes.len);
        buf_free(&e->bytes);
    }
    free(entries);
    ok = ok && output_end(o);
    job->size = o->pos, job->xxh64 = XXH64_digest(&hash), job->written = o->differs;
    return ok;
}

/* Items: every job's members, job by job, each job's in id order (the archive's entry order). */
static size_t list_items(const content_scan *sc, const pack_archive_job *list, size_t n, uint32_t **assets, uint64_t **costs)
{
    size_t total = 0;
    for (size_t j = 0; j < n; j++) total += list[j].count;
    *assets = xcalloc(total ? total : 1, sizeof **assets);
    *costs = xcalloc(total ? total : 1, sizeof **costs);
    size_t at = 0;
    for (size_t j = 0; j < n; j++) {
        member_ref *order = xcalloc(list[j].count ? list[j].count : 1, sizeof *order);
        for (size_t i = 0; i < list[j].count; i++)
            order[i] = (member_ref){sc->assets.items[list[j].members[i]].id, list[j].members[i]};
        qsort(order, list[j].count, sizeof *order, by_id);
        for (size_t i = 0; i < list[j].count; i++, at++) {
            (*assets)[at] = order[i].index;
            (*costs)[at] = sc->assets.items[order[i].index].size;
        }
        free(order);
    }
    return total;
}

/* In-flight bytes: enough for every worker to read ahead a few large files, flat in the tree. */
#define PACK_IN_FLIGHT_PER_JOB (16u << 20)

bool pack_build_archives(const content_scan *sc, content_codec codec, int level, unsigned jobs, pack_archive_job *list, size_t n,
                         output_set *set, const char *dir, const pack_entry_source *reuse,
                         void (*on_built)(void *ctx, size_t job), void *ctx)
{
    parallel_build b = {sc, codec, reuse, NULL, NULL, NULL, NULL};
    uint64_t *costs;
    size_t items = list_items(sc, list, n, &b.assets, &costs);
    for (size_t i = 0; i < items; i++)
        if (reused(&b, i)) costs[i] = 0; /* nothing of it is held: it is copied as the archive is written */
    if (jobs < 1) jobs = 1;
    b.stored = xcalloc(items ? items : 1, sizeof *b.stored);
    b.codecs = xcalloc(jobs, sizeof *b.codecs);
    b.scratch = xcalloc(jobs, sizeof *b.scratch);
    for (unsigned w = 0; w < jobs; w++) b.codecs[w] = pack_codec_new(codec, level);
    work_pool *pool = work_pool_start(jobs, items, store_item, &b, costs, (uint64_t)jobs * PACK_IN_FLIGHT_PER_JOB);
    bool ok = true;
    for (size_t j = 0, first = 0; ok && j < n; first += list[j].count, j++) {
        ok = codec == CONTENT_CODEC_NONE ? write_raw_archive(&b, pool, first, &list[j], set, dir)
                                         : write_packed_archive(&b, pool, first, &list[j], set, dir);
        if (ok && on_built) on_built(ctx, j);
    }
    work_pool_finish(pool);
    for (size_t i = 0; i < items; i++) buf_free(&b.stored[i].bytes);
    for (unsigned w = 0; w < jobs; w++) pack_codec_free(b.codecs[w]), buf_free(&b.scratch[w]);
    free(b.codecs), free(b.scratch), free(b.stored), free(b.assets), free(costs);
    return ok;
}

/* ---- Entries of the previous build ------------------------------------------------------- */

typedef struct id_ref {
    uint32_t id, asset;
} id_ref;

static int by_ref_id(const void *x, const void *y)
{
    const id_ref *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The table of contents of the archive `name` in the folder open as `dir_fd`, checked as the
 * runtime checks it. */
static bool read_toc(int dir_fd, const char *name, tl_cf_archive *a, unsigned char **toc)
{
    int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    unsigned char head[TL_CF_ARCHIVE_HEADER_SIZE];
    uint32_t count = 0;
    bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
              tl_cf_archive_read_header(head, (uint64_t)st.st_size, &count, NULL) == TL_CF_OK;
    size_t toc_size = (size_t)count * TL_CF_ARCHIVE_ENTRY_SIZE;
    *toc = ok ? xmalloc(toc_size ? toc_size : 1) : NULL;
    ok = ok && pread(fd, *toc, toc_size, TL_CF_ARCHIVE_HEADER_SIZE) == (ssize_t)toc_size &&
         tl_cf_archive_check_toc(head, *toc, count, (uint64_t)st.st_size, UINT64_MAX, NULL) == TL_CF_OK;
    if (fd >= 0) close(fd);
    if (ok) *a = (tl_cf_archive){.data = NULL, .size = (uint64_t)st.st_size, .entry_count = count, .toc = *toc};
    return ok;
}

/* An archive written with `codec` holds entries of that codec, or raw ones that it did not
 * shrink; one with only raw entries may have been written without compression: not used. */
static bool written_with(const tl_cf_archive *a, tl_cf_codec codec)
{
    for (uint32_t i = 0; i < a->entry_count; i++) {
        tl_cf_archive_entry e;
        tl_cf_archive_entry_at(a, i, &e);
        if (e.codec == (uint32_t)codec) return true;
    }
    return false;
}

void pack_find_reusable(const content_scan *sc, content_codec codec, int dir_fd, const char *dir, const char *const *archives,
                        size_t narchives, const uint32_t *members, size_t nmembers, pack_entry_source *reuse)
{
    tl_cf_codec want = codec == CONTENT_CODEC_LZ4 ? TL_CF_CODEC_LZ4 : TL_CF_CODEC_ZSTD;
    if (codec == CONTENT_CODEC_NONE || !nmembers) return;
    id_ref *ids = xcalloc(nmembers, sizeof *ids);
    for (size_t i = 0; i < nmembers; i++) ids[i] = (id_ref){sc->assets.items[members[i]].id, members[i]};
    qsort(ids, nmembers, sizeof *ids, by_ref_id);
    for (size_t k = 0; k < narchives; k++) {
        tl_cf_archive a;
        unsigned char *toc;
        if (read_toc(dir_fd, archives[k], &a, &toc) && written_with(&a, want))
            for (uint32_t i = 0; i < a.entry_count; i++) {
                tl_cf_archive_entry e;
                tl_cf_archive_entry_at(&a, i, &e);
                id_ref key = {e.id, 0}, *hit = bsearch(&key, ids, nmembers, sizeof *ids, by_ref_id);
                const content_asset *as = hit ? &sc->assets.items[hit->asset] : NULL;
                if (as && as->size == e.original_size && as->xxh64 == e.xxh64 &&
                    (e.codec == (uint32_t)want || e.codec == TL_CF_CODEC_RAW))
                    reuse[hit->asset] = (pack_entry_source){archives[k], dir_fd, dir, e.offset, e.stored_size, e.codec};
            }
        free(toc);
    }
    free(ids);
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
    uint32_t len; /* strlen(name), once: tens of thousands of names are sorted */
    uint32_t record;
    uint32_t category;
} name_ref;

/* `names` (per record, in id order: `order`) into folded-name order: the scan's, not sorted again. */
static void folded_names(const content_scan *sc, const member_ref *order, name_ref *names)
{
    size_t n = sc->assets.count;
    uint32_t *folded = xcalloc(n ? n : 1, sizeof *folded), *record_of = xcalloc(n ? n : 1, sizeof *record_of);
    name_ref *by_record = xcalloc(n ? n : 1, sizeof *by_record);
    memcpy(by_record, names, n * sizeof *names);
    for (size_t r = 0; r < n; r++) record_of[order[r].index] = (uint32_t)r;
    content_scan_folded_order(sc, folded);
    for (size_t k = 0; k < n; k++) names[k] = by_record[record_of[folded[k]]];
    free(by_record);
    free(record_of);
    free(folded);
}

/* The members table: by category, then folded name. From names in folded order, a stable
 * placement by category gives that order without sorting again; *counts gets each category's. */
static void put_members(unsigned char *table, const name_ref *names, size_t n, size_t ncat, size_t *counts)
{
    size_t *next = xcalloc(ncat + 1, sizeof *next);
    for (size_t i = 0; i < n; i++) counts[names[i].category]++;
    for (size_t k = 1; k <= ncat; k++) next[k] = next[k - 1] + counts[k - 1];
    for (size_t i = 0; i < n; i++) tl_cf_put_u32(table + next[names[i].category]++ * 4, names[i].record);
    free(next);
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
        names[r] = (name_ref){a->name, name.len, (uint32_t)r, a->category};
    }
    folded_names(sc, order, names);
    for (size_t i = 0; i < n; i++) tl_cf_put_u32(tables + index_at + i * 4, names[i].record);
    size_t *counts = xcalloc(ncat + 1, sizeof *counts);
    put_members(tables + members_at, names, n, ncat, counts);
    size_t first = 0;
    for (size_t k = 0; k < ncat; k++) {
        size_t count = counts[k];
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
    tl_cf_put_u64((unsigned char *)out->data + 32,
                  tl_cf_xxh64(out->data + TL_CF_CATALOG_HEADER_SIZE, out->len - TL_CF_CATALOG_HEADER_SIZE));
    free(counts);
    free(names);
    free(tables);
    free(cat_names);
    free(order);
    buf_free(&strings);
}
