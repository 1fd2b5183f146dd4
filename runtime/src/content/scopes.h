/* --- scopes ---------------------------------------------------------------------------------------------- */

static tl__content_scope *tl__content_scope_get(tl_scope scope, const char *what) {
    tl__content_scope *s;
    if (!scope.ctx) {
        tl__content_log(NULL, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        return NULL;
    }
    if (scope.index >= scope.ctx->scope_len || !(s = &scope.ctx->scopes[scope.index])->alive ||
        s->gen != scope.gen) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_STALE_SCOPE, what);
        tl__content_fail(scope.ctx, TL_CONTENT_STALE_SCOPE);
        return NULL;
    }
    return s;
}

/* The result of a call whose scope tl__content_scope_get refused. */
static tl_content_result tl__content_scope_refused(tl_scope scope) {
    return scope.ctx ? TL_CONTENT_STALE_SCOPE : TL_CONTENT_INVALID_ARGUMENT;
}

/* Drops references whose slot a forced unregister released. */
static void tl__content_purge(tl_content *ctx, tl__content_scope *s) {
    tl_inline_iter it;
    uint32_t key;
    tl__content_held *value;
    s->epoch = ctx->epoch;
    if (!s->held.mem) return;
    it = tl__content_heldmap_iter(s->held);
    while (tl__content_heldmap_next(s->held, &it, &key, &value))
        if (ctx->slots[value->slot].gen != value->gen)
            tl__content_heldmap_iter_remove(s->held, &it);
}

static tl__content_scope *tl__content_scope_live(tl_scope scope, const char *what) {
    tl__content_scope *s = tl__content_scope_get(scope, what);
    if (s && s->epoch != scope.ctx->epoch) tl__content_purge(scope.ctx, s);
    return s;
}

static uint32_t tl__content_threshold(const tl_content *ctx, const tl__content_scope *s) {
    uint32_t t = s->threshold ? s->threshold : ctx->warn_threshold;
    return t == TL_SCOPE_NO_THRESHOLD ? 0 : t;
}

/* Writes the path of a scope ("Root/Field/Popup") into a new string. */
static char *tl__content_path_alloc(const tl_content *ctx, uint32_t index) {
    size_t len = 0, at;
    uint32_t i;
    char *out;
    for (i = index; i != TL__CONTENT_NONE; i = ctx->scopes[i].parent)
        len += strlen(ctx->scopes[i].name) + 1;
    out = (char *)TL_MALLOC(len + 1);
    if (!out) return NULL;
    at = len ? len - 1 : 0; /* each name is followed by '/' or, the last, the NUL */
    out[at] = 0;
    for (i = index; i != TL__CONTENT_NONE; i = ctx->scopes[i].parent) {
        size_t n = strlen(ctx->scopes[i].name);
        at -= n;
        memcpy(out + at, ctx->scopes[i].name, n);
        if (at) out[--at] = '/';
    }
    return out;
}

static void tl__content_after_add(tl_content *ctx, uint32_t scope_index) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    uint32_t count = tl__content_held_count(s), t = tl__content_threshold(ctx, s);
    if (count > s->peak) s->peak = count;
    if (t && count > t && !s->warned) {
        char *path = tl__content_path_alloc(ctx, scope_index);
        s->warned = 1;
        tl__content_log(ctx, TL_CONTENT_LOG_SCOPE_THRESHOLD, path ? path : s->name, count, t);
        TL_FREE(path);
    }
}

static void tl__content_after_remove(tl_content *ctx, tl__content_scope *s) {
    uint32_t t = tl__content_threshold(ctx, s);
    if (!t || tl__content_held_count(s) <= t) s->warned = 0;
}

/* Adds (id -> slot) to a scope that does not hold id yet; the caller has taken the count. */
static bool tl__content_scope_add(tl_content *ctx, uint32_t scope_index, uint32_t id,
                                  uint32_t slot) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    tl__content_held h;
    if (!tl__content_held_reserve(s, tl__content_held_count(s) + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return false;
    }
    h.slot = slot;
    h.gen = ctx->slots[slot].gen;
    tl__content_heldmap_try_add(s->held, id, h);
    tl__content_after_add(ctx, scope_index);
    return true;
}

tl_scope tl_content_root(tl_content *ctx) {
    tl_scope root;
    memset(&root, 0, sizeof root);
    if (ctx && !ctx->shutting_down) {
        root.ctx = ctx;
        root.index = 0;
        root.gen = ctx->scopes[0].gen;
    }
    return root;
}

tl_scope tl_scope_create_at(tl_scope parent, const char *name, tl_scope_kind kind, const char *file,
                            int line) {
    tl_scope out;
    tl_content *ctx = parent.ctx;
    tl__content_scope *p = tl__content_scope_get(parent, "tl_scope_create");
    tl__content_scope *s;
    uint32_t index, pi = parent.index;
    memset(&out, 0, sizeof out);
    if (!p) return out;
    if (kind == TL_SCOPE_ROOT || (unsigned)kind > (unsigned)TL_SCOPE_OWNED) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_scope_create (kind)");
        tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
        return out;
    }
    if (!tl__content_grow((void **)&p->children, &p->child_cap, sizeof *p->children,
                          p->child_count + 1) ||
        (index = tl__content_scope_alloc(ctx)) == TL__CONTENT_NONE) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return out;
    }
    s = &ctx->scopes[index];
    s->name = tl__content_strdup(name && name[0] ? name : "Scope");
    if (!s->name) {
        s->next_free = ctx->scope_free;
        ctx->scope_free = index;
        ctx->live_scopes--;
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return out;
    }
    p = &ctx->scopes[pi];
    s->held.mem = NULL;
    s->held.capacity = 0;
    s->file = ctx->capture_origin ? file : NULL;
    s->line = ctx->capture_origin ? line : 0;
    s->children = NULL;
    s->child_count = s->child_cap = 0;
    s->parent = pi;
    s->child_pos = p->child_count;
    s->peak = s->threshold = 0;
    s->epoch = ctx->epoch;
    s->kind = (uint8_t)kind;
    s->alive = 1;
    s->warned = 0;
    p->children[p->child_count++] = index;
    ctx->last = TL_CONTENT_OK;
    out.ctx = ctx;
    out.index = index;
    out.gen = s->gen;
    return out;
}

tl_scope tl_scope_create(tl_scope parent, const char *name, tl_scope_kind kind) {
    return tl_scope_create_at(parent, name, kind, NULL, 0);
}

/* An explicit scope reclaimed by a level or by shutdown (the root) was forgotten; one ending with
   its explicit parent or an owner (entity, screen, owned) has had its normal lifetime. */
static bool tl__content_leaked(const tl_content *ctx, const tl__content_scope *s) {
    uint8_t parent;
    if (s->kind != TL_SCOPE_EXPLICIT || s->parent == TL__CONTENT_NONE) return false;
    parent = ctx->scopes[s->parent].kind;
    return parent == TL_SCOPE_LEVEL || parent == TL_SCOPE_ROOT;
}

static void tl__content_warn_leak(tl_content *ctx, uint32_t index) {
    const tl__content_scope *s = &ctx->scopes[index];
    char *path = tl__content_path_alloc(ctx, index);
    char *parent = s->parent ? tl__content_path_alloc(ctx, s->parent) : NULL;
    char origin[300], by[300];
    origin[0] = 0;
    if (s->file) snprintf(origin, sizeof origin, " (created at %s:%d)", s->file, s->line);
    if (s->parent)
        snprintf(by, sizeof by, "level scope %s", parent ? parent : ctx->scopes[s->parent].name);
    else snprintf(by, sizeof by, "shutdown");
    tl__content_log(ctx, TL_CONTENT_LOG_SCOPE_LEAKED, path ? path : s->name, by, origin);
    TL_FREE(path);
    TL_FREE(parent);
}

/* Ends one scope without children: warns when reclaimed, releases what it holds, unlinks it. */
static void tl__content_scope_end(tl_content *ctx, uint32_t index, bool reclaimed) {
    tl__content_scope *s = &ctx->scopes[index];
    tl_inline_iter it;
    uint32_t key;
    tl__content_held *value;
    if (reclaimed && tl__content_leaked(ctx, s)) tl__content_warn_leak(ctx, index);
    s->alive = 0;
    if (s->held.mem) {
        /* The slots are gathered first and visited with a prefetch a few ahead: a large scope's
           slots lie all over the table, and their cache misses would otherwise add up. */
        uint32_t n = tl__content_heldmap_count(s->held), k = 0, i;
        tl__content_held *list =
            n > 64 ? (tl__content_held *)TL_MALLOC((size_t)n * sizeof *list) : NULL;
        it = tl__content_heldmap_iter(s->held);
        while (tl__content_heldmap_next(s->held, &it, &key, &value)) {
            if (list) {
                list[k++] = *value;
            } else if (ctx->slots[value->slot].gen == value->gen) {
                tl__content_decref(ctx, value->slot);
            }
        }
        for (i = 0; i < k; i++) {
            if (i + 8 < k) TL__MEM_PREFETCH(&ctx->slots[list[i + 8].slot], 1);
            if (ctx->slots[list[i].slot].gen == list[i].gen) tl__content_decref(ctx, list[i].slot);
        }
        TL_FREE(list);
        TL_FREE(s->held.mem);
    }
    s->held.mem = NULL;
    s->held.capacity = 0;
    if (s->parent != TL__CONTENT_NONE) {
        tl__content_scope *p = &ctx->scopes[s->parent];
        uint32_t last = p->children[--p->child_count];
        if (last != index) {
            p->children[s->child_pos] = last;
            ctx->scopes[last].child_pos = s->child_pos;
        }
    }
    TL_FREE(s->children);
    TL_FREE(s->name);
    s->children = NULL;
    s->name = NULL;
    if (++s->gen == 0) s->gen = 1;
    s->next_free = ctx->scope_free;
    ctx->scope_free = index;
    ctx->live_scopes--;
}

/* Ends a scope and its subtree, children first, the last child first; no recursion. */
static void tl__content_dispose_tree(tl_content *ctx, uint32_t top) {
    uint32_t cur = top;
    for (;;) {
        tl__content_scope *s = &ctx->scopes[cur];
        uint32_t parent;
        if (s->child_count > 0) {
            cur = s->children[s->child_count - 1];
            continue;
        }
        parent = s->parent;
        tl__content_scope_end(ctx, cur, cur != top);
        if (cur == top) break;
        cur = parent;
    }
}

tl_content_result tl_scope_dispose(tl_scope scope) {
    if (!tl__content_scope_get(scope, "tl_scope_dispose")) return tl__content_scope_refused(scope);
    if (scope.index == 0) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_ROOT_DISPOSE);
        return tl__content_fail(scope.ctx, TL_CONTENT_ROOT_DISPOSE);
    }
    tl__content_dispose_tree(scope.ctx, scope.index);
    return TL_CONTENT_OK;
}

bool tl_scope_valid(tl_scope scope) {
    return scope.ctx && scope.index < scope.ctx->scope_len &&
           scope.ctx->scopes[scope.index].alive && scope.ctx->scopes[scope.index].gen == scope.gen;
}

/* The asset of a slot a maker returns: the call succeeded (tl_content_last_result). */
static tl_asset tl__content_asset(tl_content *ctx, uint32_t slot) {
    tl_asset a;
    ctx->last = TL_CONTENT_OK;
    a.ctx = ctx;
    a.slot = slot;
    a.gen = ctx->slots[slot].gen;
    return a;
}

/* The slot of a key the scope holds already (the same asset: the scope does not grow), loading
   it now for a synchronous load; TL__CONTENT_NONE when it does not hold the key, or held one that
   failed (that reference is given back, to load again). */
static uint32_t tl__content_held_slot(tl_content *ctx, uint32_t scope_index, uint32_t id,
                                      bool async) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    tl__content_held *h = s->held.mem ? tl__content_heldmap_get(s->held, id) : NULL;
    uint32_t slot;
    if (!h) return TL__CONTENT_NONE;
    slot = h->slot;
    if (ctx->slots[slot].gen != h->gen) {
        /* Killed by a forced unregister whose destroy callbacks are running (scopes drop such
           keys lazily): the slot may hold another asset by now. */
        tl__content_heldmap_remove(s->held, id);
        return TL__CONTENT_NONE;
    }
    if (ctx->slots[slot].state == TL__SLOT_LOADING && !async && !ctx->slots[slot].decoding)
        tl__content_load_now(ctx, slot);
    if (ctx->slots[slot].state == TL__SLOT_READY ||
        (ctx->slots[slot].state == TL__SLOT_LOADING && async))
        return slot;
    tl__content_heldmap_remove(ctx->scopes[scope_index].held, id);
    tl__content_decref(ctx, slot);
    return TL__CONTENT_NONE;
}

static tl_asset tl__content_scope_load(tl_scope scope, tl__content_entry *e, uint32_t id,
                                       bool async, const char *what) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_live(scope, what);
    tl_asset none;
    uint32_t slot;
    memset(&none, 0, sizeof none);
    if (!s) return none;
    slot = tl__content_held_slot(ctx, scope.index, id, async);
    if (slot != TL__CONTENT_NONE) return tl__content_asset(ctx, slot);
    if (!e) e = tl__content_entry_of(ctx, id);
    if (!e) {
        char text[16];
        snprintf(text, sizeof text, "%u", (unsigned)id);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, text);
        tl__content_fail(ctx, TL_CONTENT_UNKNOWN_ASSET);
        return none;
    }
    if (!tl__content_held_reserve(&ctx->scopes[scope.index],
                                  tl__content_held_count(&ctx->scopes[scope.index]) + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
        return none;
    }
    slot = tl__content_acquire_entry(ctx, e, async);
    if (slot == TL__CONTENT_NONE) return none;
    /* A decoder may have loaded into this scope meanwhile, or ended it. */
    if (!tl_scope_valid(scope)) {
        tl__content_decref(ctx, slot);
        tl__content_log(ctx, TL_CONTENT_LOG_STALE_SCOPE, what);
        tl__content_fail(ctx, TL_CONTENT_STALE_SCOPE);
        return none;
    }
    s = &ctx->scopes[scope.index];
    if (tl__content_heldmap_get(s->held, id)) {
        tl__content_decref(ctx, slot);
        return tl__content_asset(ctx, slot);
    }
    if (!tl__content_scope_add(ctx, scope.index, id, slot)) {
        tl__content_decref(ctx, slot);
        return none;
    }
    return tl__content_asset(ctx, slot);
}

tl_asset tl_scope_load(tl_scope scope, uint32_t id) {
    return tl__content_scope_load(scope, NULL, id, false, "tl_scope_load");
}
tl_asset tl_scope_load_async(tl_scope scope, uint32_t id) {
    return tl__content_scope_load(scope, NULL, id, true, "tl_scope_load_async");
}

static tl_asset tl__content_scope_load_name(tl_scope scope, const char *name, bool async,
                                            const char *what) {
    tl__content_entry *e;
    tl_asset none;
    memset(&none, 0, sizeof none);
    if (!scope.ctx || !name) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        tl__content_fail(scope.ctx, TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    e = tl__content_entry_to_load(scope.ctx, name);
    if (!e) {
        if (tl__content_scope_get(scope, what)) {
            tl__content_log(scope.ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, name);
            tl__content_fail(scope.ctx, TL_CONTENT_UNKNOWN_ASSET);
        }
        return none;
    }
    return tl__content_scope_load(scope, e, e->id, async, what);
}

tl_asset tl_scope_load_name(tl_scope scope, const char *name) {
    return tl__content_scope_load_name(scope, name, false, "tl_scope_load_name");
}
tl_asset tl_scope_load_name_async(tl_scope scope, const char *name) {
    return tl__content_scope_load_name(scope, name, true, "tl_scope_load_name_async");
}

bool tl_scope_contains(tl_scope scope, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_contains");
    return s && s->held.mem && tl__content_heldmap_get(s->held, id) != NULL;
}

/* Logs that the scope does not hold `id` (a failure of `what`) and records it. */
static tl_content_result tl__content_not_held(tl_scope scope, uint32_t id, const char *what) {
    char *path = tl__content_path_alloc(scope.ctx, scope.index);
    tl__content_log(scope.ctx, TL_CONTENT_LOG_NOT_HELD, what,
                    path ? path : scope.ctx->scopes[scope.index].name, (unsigned)id);
    TL_FREE(path);
    return tl__content_fail(scope.ctx, TL_CONTENT_NOT_HELD);
}

tl_content_result tl_scope_release(tl_scope scope, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_release");
    tl__content_held h;
    if (!s) return tl__content_scope_refused(scope);
    if (!s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h))
        return tl__content_not_held(scope, id, "tl_scope_release");
    tl__content_heldmap_remove(s->held, id);
    tl__content_after_remove(scope.ctx, s);
    tl__content_decref(scope.ctx, h.slot);
    return TL_CONTENT_OK;
}

/* Gives the scope its own reference to a live slot (no growth when it holds the id). */
static tl_content_result tl__content_hold_slot(tl_content *ctx, uint32_t scope_index,
                                               uint32_t slot) {
    tl__content_scope *s = &ctx->scopes[scope_index];
    uint32_t id = ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) return TL_CONTENT_OK;
    ctx->slots[slot].count++;
    if (!tl__content_scope_add(ctx, scope_index, id, slot)) {
        tl__content_decref(ctx, slot);
        return TL_CONTENT_OUT_OF_MEMORY;
    }
    return TL_CONTENT_OK;
}

tl_content_result tl_scope_share_to(tl_scope source, tl_scope target, uint32_t id) {
    tl__content_scope *s = tl__content_scope_live(source, "tl_scope_share_to");
    tl__content_held h;
    if (!s) return tl__content_scope_refused(source);
    if (!tl__content_scope_live(target, "tl_scope_share_to"))
        return tl__content_scope_refused(target);
    if (source.ctx != target.ctx) {
        tl__content_log(source.ctx, TL_CONTENT_LOG_INVALID_ARGUMENT,
                        "tl_scope_share_to (two contexts)");
        return tl__content_fail(source.ctx, TL_CONTENT_INVALID_ARGUMENT);
    }
    if (!s->held.mem || !tl__content_heldmap_try_get(s->held, id, &h))
        return tl__content_not_held(source, id, "tl_scope_share_to");
    return tl__content_hold_slot(target.ctx, target.index, h.slot);
}

static tl__content_slot *tl__content_slot_get(tl_asset asset) {
    tl__content_slot *s;
    if (!asset.ctx || asset.slot >= asset.ctx->slot_len) return NULL;
    s = &asset.ctx->slots[asset.slot];
    return s->gen == asset.gen && s->state != TL__SLOT_FREE ? s : NULL;
}

tl_content_result tl_scope_adopt(tl_scope target, tl_asset asset) {
    if (!tl__content_scope_live(target, "tl_scope_adopt")) return tl__content_scope_refused(target);
    if (asset.ctx != target.ctx || !tl__content_slot_get(asset)) {
        tl__content_log(target.ctx, TL_CONTENT_LOG_STALE_ASSET, "tl_scope_adopt");
        return tl__content_fail(target.ctx, TL_CONTENT_STALE_ASSET);
    }
    return tl__content_hold_slot(target.ctx, target.index, asset.slot);
}

uint32_t tl_scope_count(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_count");
    return s ? tl__content_held_count(s) : 0;
}
uint32_t tl_scope_peak(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_peak");
    return s ? s->peak : 0;
}
tl_scope_kind tl_scope_get_kind(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_get_kind");
    return s ? (tl_scope_kind)s->kind : TL_SCOPE_ROOT;
}
const char *tl_scope_name(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_name");
    return s ? s->name : NULL;
}
tl_scope tl_scope_parent(tl_scope scope) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_parent");
    tl_scope p;
    memset(&p, 0, sizeof p);
    if (s && s->parent != TL__CONTENT_NONE) {
        p.ctx = scope.ctx;
        p.index = s->parent;
        p.gen = scope.ctx->scopes[s->parent].gen;
    }
    return p;
}
/* True when `index` is `ancestor` or lies below it. */
static bool tl__content_scope_within(const tl_content *ctx, uint32_t index, uint32_t ancestor) {
    for (; index != TL__CONTENT_NONE; index = ctx->scopes[index].parent)
        if (index == ancestor) return true;
    return false;
}

tl_content_result tl_scope_reparent(tl_scope scope, tl_scope new_parent) {
    tl_content *ctx = scope.ctx;
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_reparent");
    tl__content_scope *np = tl__content_scope_get(new_parent, "tl_scope_reparent");
    tl__content_scope *old;
    uint32_t last;
    if (!s) return tl__content_scope_refused(scope);
    if (!np) return tl__content_scope_refused(new_parent);
    if (new_parent.ctx != ctx || s->parent == TL__CONTENT_NONE ||
        tl__content_scope_within(ctx, new_parent.index, scope.index)) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_scope_reparent");
        return tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
    }
    if (s->parent == new_parent.index) return TL_CONTENT_OK;
    if (!tl__content_grow((void **)&np->children, &np->child_cap, sizeof *np->children,
                          np->child_count + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "scope");
        return tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
    }
    old = &ctx->scopes[s->parent]; /* unlinked as an ending scope is: the last child moves in */
    last = old->children[--old->child_count];
    if (last != scope.index) {
        old->children[s->child_pos] = last;
        ctx->scopes[last].child_pos = s->child_pos;
    }
    s->parent = new_parent.index;
    s->child_pos = np->child_count;
    np->children[np->child_count++] = scope.index;
    return TL_CONTENT_OK;
}

tl_content_result tl_scope_set_warn_threshold(tl_scope scope, uint32_t threshold) {
    tl__content_scope *s = tl__content_scope_get(scope, "tl_scope_set_warn_threshold");
    if (!s) return tl__content_scope_refused(scope);
    s->threshold = threshold;
    s->warned = 0;
    tl__content_after_add(scope.ctx, scope.index);
    return TL_CONTENT_OK;
}

const char *tl_scope_kind_name(tl_scope_kind kind) {
    /* Indexed by tl_scope_kind (TL_SCOPE_ROOT = 0 ... TL_SCOPE_OWNED = 5); a table, as a switch over
       every kind cannot satisfy both -Wswitch-default and clang's -Wcovered-switch-default. */
    static const char *const names[] = { "Root", "Explicit", "Level", "Entity", "Screen", "Owned" };
    typedef char names_cover[sizeof names / sizeof names[0] == (size_t)TL_SCOPE_OWNED + 1 ? 1 : -1];
    unsigned i = (unsigned)kind;
    (void)sizeof(names_cover);
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

/* snprintf-like output. */
typedef struct tl__content_out {
    char *buf;
    size_t cap, len;
} tl__content_out;
static void tl__content_put(tl__content_out *o, const char *s, size_t n) {
    if (o->cap && o->len < o->cap - 1) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}
static void tl__content_puts(tl__content_out *o, const char *s) {
    tl__content_put(o, s, strlen(s));
}
static size_t tl__content_out_end(tl__content_out *o) {
    if (o->cap) o->buf[o->len < o->cap - 1 ? o->len : o->cap - 1] = 0;
    return o->len;
}

size_t tl_scope_path(tl_scope scope, char *buf, size_t cap) {
    tl__content_out o;
    char *path;
    o.buf = buf;
    o.cap = buf ? cap : 0;
    o.len = 0;
    if (tl__content_scope_get(scope, "tl_scope_path") &&
        (path = tl__content_path_alloc(scope.ctx, scope.index))) {
        tl__content_puts(&o, path);
        TL_FREE(path);
    }
    return tl__content_out_end(&o);
}

/* --- raw handles ------------------------------------------------------------------------------------------ */

static tl_content_handle tl__content_new_ref(tl_content *ctx, uint32_t slot) {
    tl_content_handle h;
    uint32_t index;
    tl__content_rawref *r;
    memset(&h, 0, sizeof h);
    if (ctx->ref_free != TL__CONTENT_NONE) {
        index = ctx->ref_free;
        ctx->ref_free = ctx->refs[index].next_free;
    } else {
        if (!tl__content_grow((void **)&ctx->refs, &ctx->ref_cap, sizeof *ctx->refs,
                              ctx->ref_len + 1)) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "raw handles");
            tl__content_fail(ctx, TL_CONTENT_OUT_OF_MEMORY);
            tl__content_decref(ctx, slot);
            return h;
        }
        index = ctx->ref_len++;
        ctx->refs[index].gen = 1;
    }
    r = &ctx->refs[index];
    r->slot = slot;
    r->slot_gen = ctx->slots[slot].gen;
    r->alive = true;
    ctx->live_refs++;
    ctx->last = TL_CONTENT_OK;
    h.ctx = ctx;
    h.ref = index;
    h.gen = r->gen;
    return h;
}

static tl__content_rawref *tl__content_ref_get(tl_content_handle h) {
    tl__content_rawref *r;
    if (!h.ctx || h.ref >= h.ctx->ref_len) return NULL;
    r = &h.ctx->refs[h.ref];
    return r->alive && r->gen == h.gen ? r : NULL;
}

static void tl__content_ref_free(tl_content *ctx, uint32_t index) {
    tl__content_rawref *r = &ctx->refs[index];
    r->alive = false;
    if (++r->gen == 0) r->gen = 1;
    r->next_free = ctx->ref_free;
    ctx->ref_free = index;
    ctx->live_refs--;
}

static tl_content_handle tl__content_acquire(tl_content *ctx, tl__content_entry *e, uint32_t id,
                                             bool async, const char *what) {
    tl_content_handle none;
    uint32_t slot;
    memset(&none, 0, sizeof none);
    if (!ctx) {
        tl__content_log(NULL, TL_CONTENT_LOG_INVALID_ARGUMENT, what);
        return none;
    }
    if (!e) e = tl__content_entry_of(ctx, id);
    if (!e) {
        char text[16];
        snprintf(text, sizeof text, "%u", (unsigned)id);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, what, text);
        tl__content_fail(ctx, TL_CONTENT_UNKNOWN_ASSET);
        return none;
    }
    slot = tl__content_acquire_entry(ctx, e, async);
    if (slot == TL__CONTENT_NONE) return none;
    return tl__content_new_ref(ctx, slot);
}

tl_content_handle tl_content_acquire(tl_content *ctx, uint32_t id) {
    return tl__content_acquire(ctx, NULL, id, false, "tl_content_acquire");
}
tl_content_handle tl_content_acquire_async(tl_content *ctx, uint32_t id) {
    return tl__content_acquire(ctx, NULL, id, true, "tl_content_acquire_async");
}
tl_content_handle tl_content_acquire_name(tl_content *ctx, const char *name) {
    tl__content_entry *e = ctx && name ? tl__content_entry_to_load(ctx, name) : NULL;
    tl_content_handle none;
    if (!e) {
        memset(&none, 0, sizeof none);
        tl__content_log(ctx, TL_CONTENT_LOG_UNKNOWN_ASSET, "tl_content_acquire_name",
                        name ? name : "(null)");
        tl__content_fail(ctx, name ? TL_CONTENT_UNKNOWN_ASSET : TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    return tl__content_acquire(ctx, e, e->id, false, "tl_content_acquire_name");
}

/* A live raw reference whose slot is still the one it took. */
static tl__content_rawref *tl__content_ref_live(tl_content_handle h) {
    tl__content_rawref *r = tl__content_ref_get(h);
    return r && h.ctx->slots[r->slot].gen == r->slot_gen ? r : NULL;
}

tl_content_handle tl_content_share(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_live(handle);
    tl_content_handle none;
    if (!r) {
        memset(&none, 0, sizeof none);
        tl__content_log(handle.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_content_share");
        tl__content_fail(handle.ctx, TL_CONTENT_STALE_HANDLE);
        return none;
    }
    handle.ctx->slots[r->slot].count++;
    return tl__content_new_ref(handle.ctx, r->slot);
}

tl_content_result tl_content_dispose(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_get(handle);
    if (!r) {
        tl__content_log(handle.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_content_dispose");
        return tl__content_fail(handle.ctx, TL_CONTENT_STALE_HANDLE);
    }
    /* A reference a forced unregister invalidated is dropped quietly. */
    if (handle.ctx->slots[r->slot].gen == r->slot_gen) tl__content_decref(handle.ctx, r->slot);
    tl__content_ref_free(handle.ctx, handle.ref);
    return TL_CONTENT_OK;
}

bool tl_content_handle_valid(tl_content_handle handle) {
    return tl__content_ref_live(handle) != NULL;
}

tl_asset tl_content_handle_asset(tl_content_handle handle) {
    tl__content_rawref *r = tl__content_ref_live(handle);
    tl_asset a;
    memset(&a, 0, sizeof a);
    if (r) {
        a.ctx = handle.ctx;
        a.slot = r->slot;
        a.gen = r->slot_gen;
    }
    return a;
}

tl_content_result tl_scope_attach(tl_scope scope, tl_content_handle handle) {
    tl__content_rawref *r;
    tl__content_scope *s = tl__content_scope_live(scope, "tl_scope_attach");
    uint32_t slot, id;
    if (!s) return tl__content_scope_refused(scope);
    r = tl__content_ref_live(handle);
    if (!r || handle.ctx != scope.ctx) {
        tl__content_log(scope.ctx, TL_CONTENT_LOG_STALE_HANDLE, "tl_scope_attach");
        return tl__content_fail(scope.ctx, TL_CONTENT_STALE_HANDLE);
    }
    slot = r->slot;
    id = scope.ctx->slots[slot].entry->id;
    if (s->held.mem && tl__content_heldmap_get(s->held, id)) {
        tl__content_decref(scope.ctx, slot); /* held already: the handle's reference goes back */
    } else if (!tl__content_scope_add(scope.ctx, scope.index, id, slot)) {
        return TL_CONTENT_OUT_OF_MEMORY; /* the handle stays yours */
    }
    tl__content_ref_free(scope.ctx, handle.ref);
    return TL_CONTENT_OK;
}

/* --- assets --------------------------------------------------------------------------------------------------- */

bool tl_asset_valid(tl_asset asset) { return tl__content_slot_get(asset) != NULL; }

tl_asset_status tl_asset_get_status(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? (tl_asset_status)s->state : TL_ASSET_INVALID;
}

tl_content_result tl_asset_result(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    if (!s) return TL_CONTENT_STALE_ASSET;
    return s->state == TL__SLOT_FAILED ? (tl_content_result)s->result : TL_CONTENT_OK;
}

void *tl_asset_object(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    if (!s) {
        if (asset.ctx && asset.gen)
            tl__content_log(asset.ctx, TL_CONTENT_LOG_STALE_ASSET, "tl_asset_object");
        return NULL;
    }
    return s->state == TL__SLOT_READY ? s->object : NULL;
}

size_t tl_asset_size(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s && s->state == TL__SLOT_READY ? (size_t)s->size : 0;
}
uint32_t tl_asset_id(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->entry->id : 0;
}
const char *tl_asset_name(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->entry->name : NULL;
}
uint32_t tl_asset_count(tl_asset asset) {
    tl__content_slot *s = tl__content_slot_get(asset);
    return s ? s->count : 0;
}
