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
