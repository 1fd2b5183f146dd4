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
