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
