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
        if (dir.ctx->live && dir.ctx->live->deleted(dir.ctx, e)) continue; /* loads no more */
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
    s->result = TL_CONTENT_OK;
    s->buffer = NULL;
    s->request = s->file = NULL;
    s->kind = tl__content_kind_of(ctx, e);
    e->slot = index;
    ctx->live_slots++;
    return index;
}
