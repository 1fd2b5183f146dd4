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
