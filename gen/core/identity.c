#include "core/identity.h"

#include "base/index_map.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint32_t identity_hash(const char *key, size_t len, uint32_t seed_offset)
{
    return XXH32(key, len, seed_offset);
}

static uint32_t value_slot_hash(uint32_t v) { return v * 2654435761u; }

typedef struct probe {
    const manifest *m;
    const char *s;
    size_t len;
    uint32_t value;
} probe;

static bool eq_key(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    const entry *e = &p->m->entries.items[i];
    return e->key_len == p->len && memcmp(e->key, p->s, p->len) == 0;
}

static bool eq_name(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    const entry *e = &p->m->entries.items[i];
    return ascii_ieq(e->name, e->name_len, p->s, p->len);
}

static bool eq_value(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    return p->m->entries.items[i].value == p->value;
}

bool identity_reserved_member(const domain *d, const char *name, size_t len)
{
    /* The sentinel, and, when a domain is spelled in lowercase so that its enumerators and its
     * helper functions share one prefix, the helpers' suffixes. */
    if (d->reserve_zero && ascii_ieq(name, len, "None", 4)) return true;
    if (strcmp(d->c_name, d->lower_name) != 0) return false;
    return ascii_ieq(name, len, "name", 4) || ascii_ieq(name, len, "from_name", 9) ||
           ascii_ieq(name, len, "_names", 6) || ascii_ieq(name, len, "_values", 7);
}

typedef struct identity_index {
    index_map keys, names, values;
} identity_index;

static void index_free(identity_index *x)
{
    index_map_free(&x->keys);
    index_map_free(&x->names);
    index_map_free(&x->values);
}

/* Indexes a manifest by key, folded name and value (room for `extra` more entries), checking
 * that it is consistent with its domain on the way. */
static bool index_manifest(const domain *d, const manifest *m, const char *path, size_t extra, identity_index *x)
{
    size_t n = m->entries.count;
    index_map_init(&x->keys, n + extra);
    index_map_init(&x->names, n + extra);
    index_map_init(&x->values, n + extra);
    if (!m->domain) return true; /* no manifest yet */
    if (strcmp(m->domain, d->name) != 0) {
        if (ascii_ieq(m->domain, strlen(m->domain), d->name, strlen(d->name))) /* a case-insensitive file system */
            diag_error(loc_file(path), "manifest is for domain '%s', not '%s': the domain's name changed in case only, and this file system reaches the old manifest by the new name; rename it (git mv -f) and set its \"domain\" to \"%s\" to keep the domain's values",
                       m->domain, d->name, d->name);
        else
            diag_error(loc_file(path), "manifest is for domain '%s', not '%s'", m->domain, d->name);
        return false;
    }
    if (m->kind != d->kind) {
        diag_error(loc_file(path), "manifest records domain '%s' as %s but the config declares it %s; changing the kind would change every value (restore the kind, or delete the manifest to start over)",
                   d->name, m->kind == KIND_ORDINAL ? "ordinal" : "identity", d->kind == KIND_ORDINAL ? "ordinal" : "identity");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const entry *e = &m->entries.items[i];
        src_loc at = loc_at(path, e->line, 0);
        size_t slen = strlen(e->scope);
        if (e->key_len <= slen || e->key[slen] != '.' || !ascii_ieq(e->key, slen, e->scope, slen)) {
            diag_error(at, "entry '%s': key does not start with its scope '%s'", e->key, e->scope);
            return false;
        }
        const char *hashed = e->issued_key ? e->issued_key : e->key;
        uint32_t hashed_len = e->issued_key ? e->issued_key_len : e->key_len;
        if (d->kind == KIND_IDENTITY && identity_hash(hashed, hashed_len, e->seed_offset) != e->value) {
            diag_error(at, "entry '%s': value %u is not the hash of its %s under seed offset %u (the manifest was edited by hand or corrupted)",
                       e->key, e->value, e->issued_key ? "issued key" : "key", e->seed_offset);
            return false;
        }
        if (d->reserve_zero && e->value == 0) {
            diag_error(at, "entry '%s': value 0 is reserved for the sentinel in this domain", e->key);
            return false;
        }
        probe p = {m, e->key, e->key_len, e->value};
        uint32_t hk = model_hash(e->key, e->key_len);
        uint32_t dup = index_map_find(&x->keys, hk, eq_key, &p);
        if (dup != UINT32_MAX) {
            diag_error(at, "entry '%s' appears twice (also on line %u)", e->key, m->entries.items[dup].line);
            return false;
        }
        index_map_insert(&x->keys, hk, (uint32_t)i);
        p.s = e->name;
        p.len = e->name_len;
        uint32_t hn = fnv1a_folded(e->name, e->name_len);
        dup = index_map_find(&x->names, hn, eq_name, &p);
        if (dup != UINT32_MAX) {
            diag_error(at, "member name '%s' is used twice (also on line %u)", e->name, m->entries.items[dup].line);
            return false;
        }
        index_map_insert(&x->names, hn, (uint32_t)i);
        uint32_t hv = value_slot_hash(e->value);
        dup = index_map_find(&x->values, hv, eq_value, &p);
        if (dup != UINT32_MAX) {
            diag_error(at, "value %u is issued twice ('%s' and '%s' on line %u)", e->value, e->key,
                       m->entries.items[dup].key, m->entries.items[dup].line);
            return false;
        }
        index_map_insert(&x->values, hv, (uint32_t)i);
    }
    return true;
}

bool identity_check(const domain *d, const manifest *m, const char *path)
{
    identity_index x;
    bool ok = index_manifest(d, m, path, 0, &x);
    index_free(&x);
    return ok;
}

static const char *intern_scope(manifest *m, const char *scope)
{
    /* Scopes repeat across thousands of entries; share one copy of each. */
    for (size_t i = m->entries.count; i-- > 0 && i + 64 > m->entries.count;)
        if (strcmp(m->entries.items[i].scope, scope) == 0) return m->entries.items[i].scope;
    return arena_strndup(&m->strings, scope, strlen(scope));
}

/* The key without its scope: what a rescope keeps. */
static const char *unscoped(const entry *e, size_t *len)
{
    const char *dot = memchr(e->key, '.', e->key_len);
    *len = e->key_len - (size_t)(dot + 1 - e->key);
    return dot + 1;
}

static void list_names(buf *out, const char *what, const manifest *m, entry_change change, size_t count)
{
    if (!count) return;
    buf_printf(out, "  %zu %s:", count, what);
    size_t shown = 0;
    for (size_t i = 0; i < m->entries.count && shown < 8; i++)
        if (m->entries.items[i].change == change) {
            buf_printf(out, " %s", m->entries.items[i].name);
            shown++;
        }
    if (count > shown) buf_printf(out, " (and %zu more)", count - shown);
    buf_putc(out, '\n');
}

/* A name list of the summary: up to eight shown, then "(and N more)" (see finish_list). */
static void list_add(buf *out, size_t *count, const char *fmt, ...) TLG_PRINTF(3, 4);
static void list_add(buf *out, size_t *count, const char *fmt, ...)
{
    if ((*count)++ >= 8) return;
    va_list ap;
    va_start(ap, fmt);
    char item[1024];
    vsnprintf(item, sizeof item, fmt, ap);
    va_end(ap);
    buf_puts(out, item);
}

static void finish_list(buf *out, size_t count, const char *what, const char *what_plural, const buf *items, const char *sep_note)
{
    if (!count) return;
    buf_printf(out, "  %zu %s%s:%s", count, count == 1 ? what : what_plural, sep_note, items->data);
    if (count > 8) buf_printf(out, " (and %zu more)", count - 8);
    buf_putc(out, '\n');
}

/* Declaration `di` takes the entry with its key: a key declared twice in one pass keeps the first
 * spelling (the second is warned about); a tombstone is revived. */
static void take_entry(const domain *d, manifest *m, uint32_t di, uint32_t found, identity_summary *sum)
{
    entry *e = &m->entries.items[found];
    const decl *dc = &d->decls.items[di];
    if (e->decl != UINT32_MAX) {
        const decl *first = &d->decls.items[e->decl];
        src_loc at = model_loc(d, first);
        diag_warning(model_loc(d, dc), "duplicate entry '%.*s' ignored: '%.*s' is already declared at %s:%u:%u (names compare case-insensitively)",
                     (int)dc->name_len, dc->name, (int)first->name_len, first->name, at.file, at.line, at.col);
        return;
    }
    e->decl = di;
    if (e->tombstone) {
        e->tombstone = false;
        e->change = CHANGE_REVIVED;
        sum->revived++;
    }
}

/* Manifests written before asset keys followed asset names key every asset by its C spelling
 * (model_spelling_key). An asset whose own key no entry has takes the entry with its spelling's
 * key, live or tombstoned, when no declaration of this pass took that entry as its own key (a
 * plain name, whose key is its spelling's) and no earlier asset (by name) took it. The entry keeps
 * its value, seed offset and member name; its key becomes the asset's, and the old key stays as
 * issued_key, the text its value is the hash of. So the claim is made once and kept. */
static bool claim_spelling_entry(const domain *d, manifest *m, identity_index *x, uint32_t di, const buf *own, buf *spelled,
                                 identity_summary *sum, buf *upgraded)
{
    model_spelling_key(d, &d->decls.items[di], spelled);
    if (spelled->len == own->len && memcmp(spelled->data, own->data, own->len) == 0) return false;
    probe p = {m, spelled->data, spelled->len, 0};
    uint32_t found = index_map_find(&x->keys, model_hash(spelled->data, spelled->len), eq_key, &p);
    if (found == UINT32_MAX) return false;
    entry *e = &m->entries.items[found];
    if (e->decl != UINT32_MAX || e->issued_key) return false;
    e->issued_key = e->key;
    e->issued_key_len = e->key_len;
    e->key = arena_strndup(&m->strings, own->data, own->len);
    e->key_len = (uint32_t)own->len;
    index_map_insert(&x->keys, model_hash(own->data, own->len), found); /* the old key's slot no longer matches */
    take_entry(d, m, di, found, sum);
    list_add(upgraded, &sum->upgraded, " %s", e->name);
    return true;
}

/* How declaration `di` was written when its C spelling differs, else NULL. `cursor` walks
 * d->spellings; calls come in increasing `di`. */
static const char *spelling_of(const domain *d, uint32_t di, size_t *cursor)
{
    if (d->asset_names) return model_asset_name_plain(d->asset_names[di]) ? NULL : d->asset_names[di];
    while (*cursor < d->spellings.count && d->spellings.items[*cursor].decl < di) ++*cursor;
    return *cursor < d->spellings.count && d->spellings.items[*cursor].decl == di ? d->spellings.items[*cursor].text : NULL;
}

/* A newcomer asset whose member name was taken: the warning names both files. */
static void warn_asset_qualified(const domain *d, const manifest *m, uint32_t di, uint32_t owner, const buf *name)
{
    const decl *dc = &d->decls.items[di];
    const char *what = d->asset_names[di], *file = d->asset_files[di];
    if (owner == UINT32_MAX) {
        diag_warning(loc_file(file), "asset \"%s\" is spelled %.*s in C, a name the generated header reserves: it is named %.*s", what,
                     (int)dc->name_len, dc->name, (int)name->len, name->data);
        return;
    }
    const entry *o = &m->entries.items[owner];
    if (o->decl == UINT32_MAX)
        diag_warning(loc_file(file), "asset \"%s\" is spelled %.*s in C, the member name of a removed asset (tombstone %u): it is named %.*s",
                     what, (int)dc->name_len, dc->name, o->value, (int)name->len, name->data);
    else
        diag_warning(loc_file(file), "asset \"%s\" is spelled %.*s in C, like \"%s\" (%s): it is named %.*s", what, (int)dc->name_len,
                     dc->name, d->asset_names[o->decl], d->asset_files[o->decl], (int)name->len, name->data);
}

/* The member name of a newcomer, into `name`: as declared, or qualified when taken (by scope for
 * injector entries, Combat_Health; by number for assets, button_pressed_2); the incumbent keeps
 * its name. */
static void choose_member_name(const domain *d, const manifest *m, identity_index *x, uint32_t di, buf *name, buf *collisions,
                               identity_summary *sum)
{
    const decl *dc = &d->decls.items[di];
    const char *scope = model_scope(d, dc);
    name->len = 0;
    buf_put(name, dc->name, dc->name_len);
    uint32_t plain_owner = UINT32_MAX; /* who holds the plain name, when it is taken */
    unsigned attempt = 0;
    for (;; attempt++) {
        probe p = {m, name->data, name->len, 0};
        uint32_t taken = index_map_find(&x->names, fnv1a_folded(p.s, p.len), eq_name, &p);
        if (taken == UINT32_MAX && !identity_reserved_member(d, p.s, p.len)) break;
        if (attempt == 0) plain_owner = taken;
        name->len = 0;
        if (d->asset_names) {
            buf_printf(name, "%.*s_%u", (int)dc->name_len, dc->name, attempt + 2);
            continue;
        }
        buf_printf(name, "%s_%.*s", scope, (int)dc->name_len, dc->name);
        if (attempt > 0) buf_printf(name, "_%u", attempt + 1);
    }
    if (attempt == 0) return;
    sum->name_collisions++; /* reported with the name it ended up with */
    buf_printf(collisions, "  name collision: '%.*s' from %s is named '%.*s'%s%s%s\n", (int)dc->name_len, dc->name, scope, (int)name->len,
               name->data, plain_owner != UINT32_MAX ? " ('" : " (reserved name)",
               plain_owner != UINT32_MAX ? m->entries.items[plain_owner].name : "", plain_owner != UINT32_MAX ? "' has the plain name)" : "");
    if (d->asset_names) warn_asset_qualified(d, m, di, plain_owner, name);
}

/* One pass of identity_assign: the domain, its manifest, the index over it and the summary's
 * text in the making. */
typedef struct assign_ctx {
    const domain *d;
    manifest *m;
    identity_index x;
    identity_summary *sum;
    size_t old_count;
    uint32_t next_ordinal;
    buf collisions, name_buf, key, spelled, rewritten, upgraded, signatures, pairs;
    size_t spelling_cursor;
} assign_ctx;

/* Every old entry starts unclaimed; ordinals continue after the highest issued. */
static void assign_prepare(assign_ctx *c)
{
    c->next_ordinal = c->d->reserve_zero ? 1 : 0;
    for (size_t i = 0; i < c->old_count; i++) {
        entry *e = &c->m->entries.items[i];
        e->decl = UINT32_MAX;
        e->change = CHANGE_NONE;
        if (e->value >= c->next_ordinal) c->next_ordinal = e->value + 1;
    }
    size_t need = c->old_count + c->d->decls.count;
    if (c->m->entries.cap < need) {
        c->m->entries.cap = need;
        c->m->entries.items = xrealloc(c->m->entries.items, need * sizeof *c->m->entries.items);
    }
}

/* An identity value for a new key: XXH32 under the first seed offset whose value is not issued
 * yet (nor 0 with reserve_zero); a collision is reported once. */
static void issue_hash_value(assign_ctx *c, entry *ne)
{
    probe p = {c->m, ne->key, ne->key_len, 0};
    for (uint32_t seed = 0;; seed++) {
        uint32_t v = identity_hash(ne->key, ne->key_len, seed);
        p.value = v;
        uint32_t clash = (c->d->reserve_zero && v == 0) ? UINT32_MAX - 1
                                                         : index_map_find(&c->x.values, value_slot_hash(v), eq_value, &p);
        if (clash == UINT32_MAX) {
            ne->value = v;
            ne->seed_offset = seed;
            return;
        }
        if (seed != 0) continue;
        c->sum->hash_collisions++;
        if (clash == UINT32_MAX - 1)
            buf_printf(&c->collisions, "  hash collision: '%s' hashes to 0, the reserved sentinel value; rehashed\n", ne->key);
        else
            buf_printf(&c->collisions, "  hash collision: '%s' hashes to %u, already issued to '%s'; rehashed\n",
                       ne->key, v, c->m->entries.items[clash].key);
    }
}

/* A declaration no entry matches: a new entry, its member name chosen once and its value issued. */
static void add_entry(assign_ctx *c, uint32_t di, uint32_t key_hash)
{
    const domain *d = c->d;
    manifest *m = c->m;
    entry ne = {0};
    ne.key = arena_strndup(&m->strings, c->key.data, c->key.len);
    ne.key_len = (uint32_t)c->key.len;
    ne.scope = intern_scope(m, model_scope(d, &d->decls.items[di]));
    ne.decl = di;
    ne.change = CHANGE_ADDED;
    choose_member_name(d, m, &c->x, di, &c->name_buf, &c->collisions, c->sum);
    const char *as_written = spelling_of(d, di, &c->spelling_cursor);
    if (as_written)
        list_add(&c->rewritten, &c->sum->rewritten, "%s \"%s\" -> %.*s", c->sum->rewritten ? "," : "", as_written,
                 (int)c->name_buf.len, c->name_buf.data);
    ne.name = arena_strndup(&m->strings, c->name_buf.data, c->name_buf.len);
    ne.name_len = (uint32_t)c->name_buf.len;
    if (d->kind == KIND_ORDINAL) ne.value = c->next_ordinal++;
    else issue_hash_value(c, &ne);
    uint32_t index = (uint32_t)m->entries.count;
    *vec_push(&m->entries) = ne;
    index_map_insert(&c->x.keys, key_hash, index);
    index_map_insert(&c->x.names, fnv1a_folded(ne.name, ne.name_len), index);
    index_map_insert(&c->x.values, value_slot_hash(ne.value), index);
    c->sum->added++;
}

/* The entry of the declaration's own key, if the manifest has one. */
static uint32_t find_own_entry(assign_ctx *c, uint32_t di, uint32_t *key_hash)
{
    model_key(c->d, &c->d->decls.items[di], &c->key);
    probe p = {c->m, c->key.data, c->key.len, 0};
    *key_hash = model_hash(c->key.data, c->key.len);
    return index_map_find(&c->x.keys, *key_hash, eq_key, &p);
}

/* The rule: a declaration takes the entry of its key (kept, or revived from a tombstone); an asset
 * may claim an entry issued to its C spelling before keys followed asset names; anything else is
 * added. Assets take the entries of their own keys first, so that an entry is claimed by spelling
 * only when no asset has it as its own key. Old entries nothing took become tombstones. */
static void match_declarations(assign_ctx *c)
{
    const domain *d = c->d;
    size_t n = d->decls.count;
    bool *taken = xcalloc(n ? n : 1, sizeof *taken);
    uint32_t hk;
    for (size_t di = 0; d->asset_names && di < n; di++) {
        uint32_t found = find_own_entry(c, (uint32_t)di, &hk);
        if (found != UINT32_MAX) take_entry(d, c->m, (uint32_t)di, found, c->sum), taken[di] = true;
    }
    for (size_t di = 0; di < n; di++) {
        if (taken[di]) continue;
        uint32_t found = find_own_entry(c, (uint32_t)di, &hk);
        if (found != UINT32_MAX) take_entry(d, c->m, (uint32_t)di, found, c->sum);
        else if (!d->asset_names || !claim_spelling_entry(d, c->m, &c->x, (uint32_t)di, &c->key, &c->spelled, c->sum, &c->upgraded))
            add_entry(c, (uint32_t)di, hk);
    }
    free(taken);
    for (size_t i = 0; i < c->old_count; i++) {
        entry *e = &c->m->entries.items[i];
        if (e->decl == UINT32_MAX && !e->tombstone) {
            e->tombstone = true;
            e->change = CHANGE_REMOVED;
            c->sum->removed++;
        }
    }
}

/* Native declarations come first (model.c's merge order): how many there are. */
static size_t native_decl_count(const domain *d)
{
    size_t n = 0;
    while (n < d->decls.count && strcmp(model_scope(d, &d->decls.items[n]), "Native") == 0) n++;
    return n;
}

typedef struct decl_probe {
    const domain *d;
    const char *s;
    size_t len;
} decl_probe;

static bool eq_decl_name(const void *ctx, uint32_t i)
{
    const decl_probe *p = ctx;
    const decl *dc = &p->d->decls.items[i];
    return ascii_ieq(dc->name, dc->name_len, p->s, p->len);
}

/* One project declaration named like native `nd`: the warning at the project's declaration says
 * which of the two C names plainly. When the project's has the plain name (it was there before
 * the native), code written for the native's name, such as nexus.h's TL_NEXUS_EVENTS_INIT, gets
 * the project's entry. */
static void warn_native_namesake(const domain *d, const decl *pd, const decl *nd, const entry *mine, const entry *native)
{
    const char *what = d->kind == KIND_ORDINAL ? "event" : "entry";
    src_loc at = model_loc(d, nd);
    if (native && (native->name_len != nd->name_len || memcmp(native->name, nd->name, nd->name_len) != 0))
        diag_warning(model_loc(d, pd), "%s '%.*s' has the name of a native %s (%s:%u:%u), which C therefore names %s_%.*s: code written "
                     "for the native (nexus.h's TL_NEXUS_EVENTS_INIT) gets this %s instead; rename this one",
                     what, (int)pd->name_len, pd->name, what, at.file, at.line, at.col, d->c_name, (int)native->name_len, native->name, what);
    else if (mine)
        diag_warning(model_loc(d, pd), "%s '%.*s' has the name of a native %s (%s:%u:%u), so C names it %s_%.*s; rename it", what,
                     (int)pd->name_len, pd->name, what, at.file, at.line, at.col, d->c_name, (int)mine->name_len, mine->name);
}

/* A project's declaration named like a native one (case-insensitively) is warned about on every
 * pass (a no-op run the stamp skips reads nothing): one of the two is qualified in C, and which
 * depends on the manifest's history. */
static void warn_native_namesakes(assign_ctx *c)
{
    const domain *d = c->d;
    size_t natives = native_decl_count(d), n = d->decls.count;
    if (!natives || natives == n) return;
    index_map by_name;
    index_map_init(&by_name, natives);
    for (size_t i = 0; i < natives; i++)
        index_map_insert(&by_name, fnv1a_folded(d->decls.items[i].name, d->decls.items[i].name_len), (uint32_t)i);
    uint32_t *entry_of = NULL; /* declaration -> entry + 1, built at the first namesake */
    for (size_t di = natives; di < n; di++) {
        const decl *pd = &d->decls.items[di];
        decl_probe p = {d, pd->name, pd->name_len};
        uint32_t nd = index_map_find(&by_name, fnv1a_folded(pd->name, pd->name_len), eq_decl_name, &p);
        if (nd == UINT32_MAX) continue;
        if (!entry_of) {
            entry_of = xcalloc(n, sizeof *entry_of);
            for (size_t i = 0; i < c->m->entries.count; i++)
                if (c->m->entries.items[i].decl != UINT32_MAX) entry_of[c->m->entries.items[i].decl] = (uint32_t)i + 1;
        }
        const entry *mine = entry_of[di] ? &c->m->entries.items[entry_of[di] - 1] : NULL;
        const entry *native = entry_of[nd] ? &c->m->entries.items[entry_of[nd] - 1] : NULL;
        warn_native_namesake(d, pd, &d->decls.items[nd], mine, native);
    }
    free(entry_of);
    index_map_free(&by_name);
}

/* Event signatures: each live event records the one it was declared with; a change is named
 * in the summary (listeners written for the old one no longer compile, and code subscribing
 * through the untyped API with the old id is refused at run time). */
static void record_signatures(assign_ctx *c)
{
    if (c->d->kind != KIND_ORDINAL) return;
    for (size_t i = 0; i < c->m->entries.count; i++) {
        entry *e = &c->m->entries.items[i];
        if (e->decl == UINT32_MAX) continue; /* a retired event keeps the one it had */
        const char *sig = model_signature(c->d, e->decl);
        if (e->signature && strcmp(e->signature, sig) == 0) continue;
        if (e->signature && e->change != CHANGE_REVIVED) {
            buf_printf(&c->signatures, "  signature changed: %s from %s to %s\n", e->name, e->signature, sig);
            c->sum->signature_changes++;
        }
        e->signature = arena_strndup(&c->m->strings, sig, strlen(sig));
    }
}

/* A removal whose unscoped name was added in another scope: a rescope, for the summary. */
static bool report_rescope(assign_ctx *c, const entry *r, const char *fate)
{
    size_t rlen, alen;
    const char *rname = unscoped(r, &rlen);
    for (size_t j = c->old_count; j < c->m->entries.count; j++) {
        const entry *a = &c->m->entries.items[j];
        const char *aname = unscoped(a, &alen);
        if (alen == rlen && memcmp(aname, rname, rlen) == 0 && strcmp(a->scope, r->scope) != 0) {
            buf_printf(&c->pairs, "  rescope: '%s' moved from %s to %s (value %u -> %u; %s)\n",
                       r->name, r->scope, a->scope, r->value, a->value, fate);
            c->sum->rescopes++;
            return true;
        }
    }
    return false;
}

/* Likely renames (a removal and an addition in one scope) and rescopes (one unscoped key
 * removed from a scope and added in another), for the summary only. */
static void report_renames(assign_ctx *c)
{
    if (!c->sum->removed || !c->sum->added) return;
    /* An identity tombstone stays in the enum, deprecated; a retired ordinal leaves it. */
    const char *fate = c->d->kind == KIND_ORDINAL ? "the old index is retired, and its enumerator is gone"
                                                  : "the old value stays as a deprecated tombstone";
    size_t next_added = c->old_count;
    for (size_t i = 0; i < c->old_count; i++) {
        const entry *r = &c->m->entries.items[i];
        if (r->change != CHANGE_REMOVED || report_rescope(c, r, fate)) continue;
        for (; next_added < c->m->entries.count; next_added++) {
            const entry *a = &c->m->entries.items[next_added];
            if (strcmp(a->scope, r->scope) != 0) continue;
            buf_printf(&c->pairs, "  likely rename in %s: '%s' -> '%s' (a rename is a removal plus an addition: %s)\n",
                       r->scope, r->name, a->name, fate);
            c->sum->renames++;
            next_added++;
            break;
        }
    }
}

/* The pass's summary: quiet when nothing changed. */
static void write_summary(assign_ctx *c)
{
    identity_summary *sum = c->sum;
    const domain *d = c->d;
    if (!(sum->added || sum->removed || sum->revived || sum->upgraded || c->signatures.len || c->collisions.len)) return;
    buf_printf(&sum->text, "%s: %zu added, %zu removed%s, %zu revived\n", d->name, sum->added, sum->removed,
               d->kind == KIND_ORDINAL ? "" : " (tombstoned)", sum->revived);
    list_names(&sum->text, "added", c->m, CHANGE_ADDED, sum->added);
    list_names(&sum->text, d->kind == KIND_ORDINAL ? "removed" : "tombstoned", c->m, CHANGE_REMOVED, sum->removed);
    list_names(&sum->text, "revived", c->m, CHANGE_REVIVED, sum->revived);
    finish_list(&sum->text, sum->rewritten, "name rewritten for C", "names rewritten for C", &c->rewritten, "");
    finish_list(&sum->text, sum->upgraded, "key upgraded", "keys upgraded", &c->upgraded,
                " to asset names (ids and member names kept)");
    if (c->pairs.len) buf_put(&sum->text, c->pairs.data, c->pairs.len);
    if (c->signatures.len) buf_put(&sum->text, c->signatures.data, c->signatures.len);
    if (c->collisions.len) buf_put(&sum->text, c->collisions.data, c->collisions.len);
}

static void assign_free(assign_ctx *c)
{
    buf *bufs[] = {&c->collisions, &c->name_buf, &c->key, &c->spelled, &c->rewritten, &c->upgraded, &c->signatures, &c->pairs};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) buf_free(bufs[i]);
    index_free(&c->x);
}

bool identity_assign(const domain *d, manifest *m, const char *path, identity_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    assign_ctx c = {.d = d, .m = m, .sum = sum, .old_count = m->entries.count};
    if (!index_manifest(d, m, path, d->decls.count, &c.x)) {
        index_free(&c.x);
        return false;
    }
    assign_prepare(&c);
    match_declarations(&c);
    warn_native_namesakes(&c);
    record_signatures(&c);
    report_renames(&c);
    write_summary(&c);
    assign_free(&c);
    return true;
}

void identity_summary_free(identity_summary *s) { buf_free(&s->text); }

bool identity_report_unrecorded(const domain *d, const identity_summary *sum, const char *manifest_path, bool strict)
{
    if (!sum->added && !sum->removed && !sum->revived && !sum->signature_changes) return true;
    void (*report)(src_loc, const char *, ...) = strict ? diag_error : diag_warning;
    if (!sum->removed && !sum->revived && !sum->signature_changes) {
        report(loc_file(manifest_path), "%zu new entr%s of %s not recorded in the manifest: run threadlink-gen generate to record %zu new entr%s",
               sum->added, sum->added == 1 ? "y" : "ies", d->name, sum->added, sum->added == 1 ? "y" : "ies");
    } else {
        report(loc_file(manifest_path), "changes to %s not recorded in the manifest (%zu added, %zu removed, %zu revived, %zu signature%s changed): run threadlink-gen generate to record them",
               d->name, sum->added, sum->removed, sum->revived, sum->signature_changes, sum->signature_changes == 1 ? "" : "s");
    }
    return !strict;
}
