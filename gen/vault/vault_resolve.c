/* After identity: every schema field names an entry of Vault.Fields (by its member name, or by
 * Scope.Name), which gives the field its id; every AssetRef value names an entry of its catalog's
 * domain, which gives the value its id. A name that is not declared is an error naming the file,
 * the JSON path and the closest declared names. Tombstones are refused: their values stay
 * reserved, but a vault field cannot be built on a removed identifier. */
#include "base/index_map.h"
#include "base/suggest.h"
#include "vault/vault_model.h"

#include "core/config.h"

#include "base/json_check.h"

#include <stdarg.h>
#include <stdio.h>

/* Name and key lookups over one domain's manifest, case-insensitive. */
typedef struct name_index {
    const domain_result *r;
    uint32_t *slots; /* entry index + 1, 0 = empty */
    uint32_t mask;
} name_index;

static void index_put(name_index *x, const char *s, size_t n, uint32_t entry)
{
    uint32_t h = fnv1a_folded(s, n) & x->mask;
    while (x->slots[h]) h = (h + 1) & x->mask;
    x->slots[h] = entry + 1;
}

/* A key without its scope ("game.sprites/slime" -> "sprites/slime"): an asset's own name in its
 * catalog. NULL for a key without a scope. */
static const char *key_tail(const entry *e, size_t *len)
{
    const char *dot = memchr(e->key, '.', e->key_len);
    if (!dot) return NULL;
    *len = e->key_len - (size_t)(dot + 1 - e->key);
    return dot + 1;
}

/* Room for every name put below (three per entry and per rename record) at most half full: a
 * full table's probe would never end. */
static size_t index_capacity(const domain_result *r)
{
    size_t keys = 0, cap = 16;
    for (size_t i = 0; i < r->m->entries.count; i++) keys += 3 + 3 * (size_t)r->m->entries.items[i].renamed_count;
    while (cap < keys * 2) cap *= 2;
    return cap;
}

static void index_build(name_index *x, const domain_result *r)
{
    size_t n = r->m->entries.count, cap = index_capacity(r);
    x->r = r;
    x->mask = (uint32_t)cap - 1;
    x->slots = xcalloc(cap, sizeof *x->slots);
    for (size_t i = 0; i < n; i++) {
        const entry *e = &r->m->entries.items[i];
        index_put(x, e->name, e->name_len, (uint32_t)i);
        index_put(x, e->key, e->key_len, (uint32_t)i);
        for (uint32_t k = 0; k < e->renamed_count; k++) { /* earlier names of a renamed entry */
            const char *old_tail = memchr(e->renamed_from[k].key, '.', e->renamed_from[k].key_len);
            index_put(x, e->renamed_from[k].name, e->renamed_from[k].name_len, (uint32_t)i);
            index_put(x, e->renamed_from[k].key, e->renamed_from[k].key_len, (uint32_t)i);
            if (old_tail)
                index_put(x, old_tail + 1, e->renamed_from[k].key_len - (size_t)(old_tail + 1 - e->renamed_from[k].key),
                          (uint32_t)i);
        }
        size_t tail_len;
        const char *tail = key_tail(e, &tail_len);
        if (tail) index_put(x, tail, tail_len, (uint32_t)i);
    }
}

/* Whether `ref` is rename record a's name or key; its key's part after the scope (an asset's
 * earlier name). */
static bool alias_is(const entry_alias *a, const char *ref, size_t n)
{
    return ascii_ieq(a->name, a->name_len, ref, n) || ascii_ieq(a->key, a->key_len, ref, n);
}
static bool alias_tail_is(const entry_alias *a, const char *ref, size_t n)
{
    const char *dot = memchr(a->key, '.', a->key_len);
    return dot && ascii_ieq(dot + 1, a->key_len - (size_t)(dot + 1 - a->key), ref, n);
}

/* Whether `ref` is an earlier name or key of `e` (a rename record). */
static bool names_earlier(const entry *e, const char *ref, size_t n)
{
    for (uint32_t k = 0; k < e->renamed_count; k++)
        if (alias_is(&e->renamed_from[k], ref, n)) return true;
    return false;
}

/* The rename record of `e` that `ref` names (its name, key or the key's part after the scope),
 * else its newest one; NULL when it has none. */
static const entry_alias *earlier_alias(const entry *e, const char *ref)
{
    size_t n = strlen(ref);
    for (uint32_t k = 0; k < e->renamed_count; k++)
        if (alias_is(&e->renamed_from[k], ref, n) || alias_tail_is(&e->renamed_from[k], ref, n)) return &e->renamed_from[k];
    return e->renamed_count ? &e->renamed_from[e->renamed_count - 1] : NULL;
}

/* The entry a reference names: a member name ("Health") or a qualified one ("Combat.Health",
 * matched against the key), else an earlier name or key of a renamed entry (*renamed set then).
 * NULL if none. */
static const entry *index_find_renamed(const name_index *x, const char *ref, bool *renamed)
{
    size_t n = strlen(ref);
    const entry *earlier = NULL;
    *renamed = false;
    for (uint32_t h = fnv1a_folded(ref, n) & x->mask; x->slots[h]; h = (h + 1) & x->mask) {
        const entry *e = &x->r->m->entries.items[x->slots[h] - 1];
        if (ascii_ieq(e->name, e->name_len, ref, n) || ascii_ieq(e->key, e->key_len, ref, n)) return e;
        if (!earlier && names_earlier(e, ref, n)) earlier = e;
    }
    *renamed = earlier != NULL;
    return earlier;
}

/* A reference by an earlier name resolves, with a warning that names the current one. */
static void warn_renamed(const char *file, const char *text, size_t len, const char *path, const char *ref, const char *domain,
                         const char *now, size_t now_len)
{
    diag_warning(json_locate(file, text, len, path),
                 "%s: \"%s\" is an earlier name of %s's %.*s (renamed; its value is kept): write \"%.*s\"", path, ref, domain,
                 (int)now_len, now, (int)now_len, now);
}

/* Whether `ref` is an earlier asset name of a renamed (moved) asset entry `e`. */
static bool names_earlier_asset(const entry *e, const char *ref, size_t n)
{
    for (uint32_t k = 0; k < e->renamed_count; k++)
        if (alias_tail_is(&e->renamed_from[k], ref, n)) return true;
    return false;
}

/* The entry an asset reference names: as index_find, or else by the asset's name in its catalog
 * (the key without its scope: "Sprites/slime"), when exactly one entry has that name; *ambiguous
 * is set when several do (one name in two scopes of an injector-built catalog); else by an
 * earlier name of a moved asset (*renamed set). */
static const entry *index_find_asset(const name_index *x, const char *ref, bool *ambiguous, bool *renamed)
{
    bool by_earlier_name;
    const entry *named = index_find_renamed(x, ref, &by_earlier_name), *found = NULL, *earlier = NULL;
    size_t n = strlen(ref);
    *ambiguous = false;
    *renamed = false;
    if (named && !by_earlier_name) return named;
    for (uint32_t h = fnv1a_folded(ref, n) & x->mask; x->slots[h]; h = (h + 1) & x->mask) {
        const entry *e = &x->r->m->entries.items[x->slots[h] - 1];
        size_t tail_len;
        const char *tail = key_tail(e, &tail_len);
        if (!earlier && names_earlier_asset(e, ref, n)) earlier = e;
        if (!tail || !ascii_ieq(tail, tail_len, ref, n) || e == found) continue;
        if (found) {
            *ambiguous = true;
            return NULL;
        }
        found = e;
    }
    if (found) return found;
    *renamed = earlier || named;
    return earlier ? earlier : named;
}

/* How an entry is suggested: a content asset by its name ("Sprites/Slime", the form asset
 * references are written in), anything else by its member name. */
static const char *suggested_name(const domain_result *r, const entry *e, size_t *len)
{
    if (r->d->asset_names && e->decl != UINT32_MAX) {
        *len = strlen(r->d->asset_names[e->decl]);
        return r->d->asset_names[e->decl];
    }
    *len = e->name_len;
    return e->name;
}

/* "closest: A, B, C" among the live entries. */
static void closest_entries(buf *out, const domain_result *r, const char *want)
{
    const manifest *m = r->m;
    suggest_top top = {0};
    size_t len;
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        const char *name = suggested_name(r, e, &len);
        if (!e->tombstone) suggest_top_offer(&top, want, strlen(want), name, len, i);
    }
    for (size_t k = 0; k < top.count; k++) {
        const char *name = suggested_name(r, &m->entries.items[top.index[k]], &len);
        buf_printf(out, "%s%.*s", k ? ", " : "", (int)len, name);
    }
}

static void rerror(const char *file, const char *text, size_t len, const char *path, const char *fmt, ...) TLG_PRINTF(5, 6);
static void rerror(const char *file, const char *text, size_t len, const char *path, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_error(json_locate(file, text, len, path), "%s: %s", path, message);
}

typedef struct resolver {
    const domain_result *domains;
    size_t count;
    name_index *indexes; /* built on first use, one per domain */
    arena *strings;
} resolver;

static name_index *domain_index(resolver *rv, const char *name)
{
    for (size_t i = 0; i < rv->count; i++)
        if (strcmp(rv->domains[i].d->name, name) == 0) {
            if (!rv->indexes[i].slots) index_build(&rv->indexes[i], &rv->domains[i]);
            return &rv->indexes[i];
        }
    return NULL;
}

/* Whether f's named entries are text keys (LocalizedText), not assets. */
static bool is_text_field(const vfield *f)
{
    return f->type == VT_LOCALIZEDTEXT ||
           (f->type == VT_COLLECTION && (f->element == VT_LOCALIZEDTEXT || f->value == VT_LOCALIZEDTEXT));
}

/* Resolves one AssetRef or LocalizedText scalar in place (i[0] = the asset's id; "" is 0, no asset). */
static bool resolve_asset(resolver *rv, const char *file, const char *text, size_t len, const char *path, const vfield *f,
                          vscalar *v)
{
    if (!v->s || !v->s[0]) {
        v->i[0] = 0;
        return true;
    }
    name_index *x = domain_index(rv, f->catalog);
    if (!x) return false; /* reported with the schema */
    bool ambiguous, renamed;
    const entry *e = index_find_asset(x, v->s, &ambiguous, &renamed);
    if (e && !e->tombstone && renamed) {
        size_t now_len;
        const char *now = suggested_name(x->r, e, &now_len); /* an asset by its name */
        warn_renamed(file, text, len, path, v->s, f->catalog, now, now_len);
    }
    if (!e || e->tombstone) {
        buf b = {0};
        closest_entries(&b, x->r, v->s);
        rerror(file, text, len, path, "\"%s\" is %s in %s%s%s%s", v->s,
               e                                ? "a removed entry (a tombstone)"
               : ambiguous                      ? "the name of more than one entry (give its member name)"
               : f->catalog && is_text_field(f) ? "not a text key"
                                                : "not an asset",
               f->catalog, b.len ? " (closest: " : "", b.len ? b.data : "", b.len ? ")" : "");
        buf_free(&b);
        return false;
    }
    v->i[0] = e->value;
    return true;
}

/* Element i of a collection value at `path`; a dictionary's key (part 0) or value (part 1). */
static char *key_path(const vfield *f, const char *path, size_t i, int part)
{
    return f->kind == LAYOUT_DICT ? xasprintf("%s[%zu][%d]", path, i, part) : xasprintf("%s[%zu]", path, i);
}

/* An element's resolved id (an asset's, a text key's) against one of the earlier elements. */
typedef struct resolved_probe {
    const vscalar *keys;
    int64_t id;
} resolved_probe;

static bool same_resolved_key(const void *ctx, uint32_t index)
{
    const resolved_probe *p = ctx;
    return p->keys[index].i[0] == p->id;
}

static bool resolve_value(resolver *rv, const char *file, const char *text, size_t len, const char *path, const vfield *f,
                          vvalue *v)
{
    bool ok = true;
    if (!v->present) return true;
    if (vtype_names_entry(f->type)) return resolve_asset(rv, file, text, len, path, f, &v->one);
    if (f->type != VT_COLLECTION) return true;
    for (size_t i = 0; i < v->keys.count; i++) {
        char *sub = key_path(f, path, i, 0);
        if (vtype_names_entry(f->element)) ok = resolve_asset(rv, file, text, len, sub, f, &v->keys.items[i]) && ok;
        free(sub);
        if (f->kind == LAYOUT_DICT && vtype_names_entry(f->value)) {
            sub = key_path(f, path, i, 1);
            ok = resolve_asset(rv, file, text, len, sub, f, &v->values.items[i]) && ok;
            free(sub);
        }
    }
    if (ok && (f->kind == LAYOUT_HASHSET || f->kind == LAYOUT_DICT) && vtype_names_entry(f->element)) {
        index_map seen;
        index_map_init(&seen, v->keys.count);
        for (size_t i = 0; i < v->keys.count; i++) {
            resolved_probe probe = {v->keys.items, v->keys.items[i].i[0]};
            uint32_t id = (uint32_t)probe.id ^ (uint32_t)((uint64_t)probe.id >> 32);
            uint32_t k = index_map_find(&seen, id, same_resolved_key, &probe);
            if (k == UINT32_MAX) {
                index_map_insert(&seen, id, (uint32_t)i);
                continue;
            }
            char *sub = key_path(f, path, i, 0);
            rerror(file, text, len, sub, "names the same %s as element %u", f->element == VT_LOCALIZEDTEXT ? "key" : "asset",
                   (unsigned)k);
            free(sub);
            ok = false;
        }
        index_map_free(&seen);
    }
    return ok;
}

/* An error at schema `s`'s key `key` of field `f` ("fields[3].field"). */
static void field_error(const vschema *s, const vfield *f, const char *key, const char *fmt, ...) TLG_PRINTF(4, 5);
static void field_error(const vschema *s, const vfield *f, const char *key, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    char *path = jc_key(f->path, key);
    rerror(s->file, s->text, s->text_len, path, "%s", message);
    free(path);
}

/* The file a new Vault.Fields entry is declared in, for messages. */
static const char *fields_source(const domain_result *domains, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(domains[i].d->name, "Vault.Fields") == 0 && domains[i].d->sources.count)
            return domains[i].d->sources.items[0].path;
    return "injectors/Vault.Fields.User.txt";
}

/* The Vault.Fields entry field `fi` of `s` names: its id and member name, or false after an error. */
static bool resolve_field_ref(resolver *rv, vault_state *st, const name_index *fields, vschema *s, size_t fi)
{
    vfield *f = &s->fields.items[fi];
    bool renamed;
    const entry *e = index_find_renamed(fields, f->ref, &renamed);
    if (e && renamed) {
        char *path = jc_key(f->path, "field");
        warn_renamed(s->file, s->text, s->text_len, path, f->ref, "Vault.Fields", e->name, e->name_len);
        free(path);
        const entry_alias *a = earlier_alias(e, f->ref);
        if (a && (a->name_len != e->name_len || memcmp(a->name, e->name, e->name_len) != 0))
            f->earlier = arena_strndup(&st->strings, a->name, a->name_len);
    }
    if (!e) {
        buf b = {0};
        closest_entries(&b, fields->r, f->ref);
        field_error(s, f, "field", "\"%s\" is not declared in Vault.Fields (closest: %s); declare it in %s", f->ref,
                    b.len ? b.data : "none, the domain is empty", fields_source(rv->domains, rv->count));
        buf_free(&b);
        return false;
    }
    if (e->tombstone) {
        field_error(s, f, "field", "\"%s\" was removed from Vault.Fields (it is a tombstone); declare it again or drop the field",
                    f->ref);
        return false;
    }
    f->id = e->value;
    f->member = arena_strndup(&st->strings, e->name, e->name_len);
    f->key = arena_strndup(&st->strings, e->key, e->key_len);
    bool ok = true;
    if (strcmp(f->member, "tl_listener") == 0) {
        field_error(s, f, "field", "the member name tl_listener is reserved for the vault's change listener");
        ok = false;
    }
    for (size_t k = 0; k < fi; k++)
        if (s->fields.items[k].member && s->fields.items[k].id == f->id) {
            field_error(s, f, "field", "\"%s\" is the same Vault.Fields entry (%s) as fields[%zu]", f->ref, f->member, k);
            ok = false;
        }
    return ok;
}

/* The closest domain names to `want`, for an error. */
static void closest_domain(buf *b, const resolver *rv, const char *want)
{
    size_t best = SIZE_MAX;
    for (size_t d = 0; d < rv->count; d++) {
        const char *name = rv->domains[d].d->name;
        size_t dist = suggest_distance(want, strlen(want), name, strlen(name));
        if (dist < best) {
            best = dist;
            b->len = 0;
            buf_puts(b, name);
        }
    }
}

/* An AssetRef field's catalog must name a domain (a LocalizedText's: the text stage's, declared in
 * threadlink.json's "text"); false (and no catalog) after an error. */
static bool resolve_field_catalog(resolver *rv, const vschema *s, vfield *f)
{
    if (!f->catalog) return true;
    for (size_t d = 0; d < rv->count; d++) {
        if (strcmp(rv->domains[d].d->name, f->catalog) != 0 || rv->domains[d].d->kind != KIND_ORDINAL) continue;
        /* Its values count from 0, and 0 is the empty reference: its first entry would be none. */
        field_error(s, f, "catalog", "\"%s\" is an ordinal domain (its values count from 0, which %s holds as none): %s",
                    f->catalog, is_text_field(f) ? "a LocalizedText" : "an AssetRef",
                    "a catalog is an identity domain (a content profile's Content.<Profile>, or one of ids)");
        f->catalog = NULL;
        return false;
    }
    if (domain_index(rv, f->catalog)) return true;
    buf b = {0};
    closest_domain(&b, rv, f->catalog);
    field_error(s, f, "catalog", "no domain is named \"%s\"%s%s%s (%s)", f->catalog, b.len ? " (closest: " : "",
                b.len ? b.data : "", b.len ? ")" : "",
                is_text_field(f) ? "a LocalizedText's keys are the text stage's domain: declare threadlink.json's \"text\""
                                 : "an AssetRef's catalog is the identity domain of its assets");
    buf_free(&b);
    f->catalog = NULL;
    return false;
}

/* A schema's fields, then (when they all resolved) their defaults. */
static bool resolve_schema(resolver *rv, vault_state *st, const name_index *fields, vschema *s)
{
    bool ok = true;
    for (size_t fi = 0; fi < s->fields.count; fi++) {
        if (!resolve_field_ref(rv, st, fields, s, fi)) {
            ok = false;
            continue;
        }
        ok = resolve_field_catalog(rv, s, &s->fields.items[fi]) && ok;
    }
    for (size_t fi = 0; ok && fi < s->fields.count; fi++) {
        vfield *f = &s->fields.items[fi];
        char *path = jc_key(f->path, "default");
        ok = resolve_value(rv, s->file, s->text, s->text_len, path, f, &f->def) && ok;
        free(path);
    }
    return ok;
}

/* "keys": every instance's name is an entry of the domain (not a tombstone); its value becomes
 * the instance's key. */
static bool resolve_data_keys(resolver *rv, vdata *d)
{
    if (!d->keys) return true;
    name_index *x = domain_index(rv, d->keys);
    if (!x) {
        buf b = {0};
        closest_domain(&b, rv, d->keys);
        rerror(d->file, d->text, d->text_len, "keys", "no domain is named \"%s\"%s%s%s", d->keys, b.len ? " (closest: " : "",
               b.len ? b.data : "", b.len ? ")" : "");
        buf_free(&b);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < d->instances.count; i++) {
        vinstance *in = &d->instances.items[i];
        bool renamed;
        const entry *e = index_find_renamed(x, in->name, &renamed);
        char *path = jc_key(in->path, "name");
        if (e && renamed && !e->tombstone)
            warn_renamed(d->file, d->text, d->text_len, path, in->name, d->keys, e->name, e->name_len);
        if (!e || e->tombstone) {
            buf b = {0};
            closest_entries(&b, x->r, in->name);
            rerror(d->file, d->text, d->text_len, path, "\"%s\" is %s of %s, whose entries key this file's instances%s%s%s",
                   in->name, e ? "a removed entry (a tombstone)" : "not an entry", d->keys, b.len ? " (closest: " : "",
                   b.len ? b.data : "", b.len ? ")" : "");
            buf_free(&b);
            ok = false;
        } else {
            in->key = e->value;
        }
        free(path);
    }
    return ok;
}

/* Every AssetRef value of a data file's instances, and its keys. */
static bool resolve_data(resolver *rv, vdata *d)
{
    bool ok = resolve_data_keys(rv, d);
    const vschema *s = d->schema;
    for (size_t ii = 0; ii < d->instances.count; ii++) {
        const vinstance *in = &d->instances.items[ii];
        for (size_t fi = 0; fi < s->fields.count; fi++) {
            char *path = xasprintf("%s.values.%s", in->path, s->fields.items[fi].ref);
            ok = resolve_value(rv, d->file, d->text, d->text_len, path, &s->fields.items[fi], &in->values[fi]) && ok;
            free(path);
        }
    }
    return ok;
}

bool vault_resolve(void *state, const domain_result *domains, size_t count)
{
    vault_state *st = state;
    if (!st) return true;
    resolver rv = {domains, count, xcalloc(count ? count : 1, sizeof(name_index)), &st->strings};
    bool ok = true;
    name_index *fields = domain_index(&rv, "Vault.Fields");
    if (!fields) {
        free(rv.indexes);
        return false; /* load reported it */
    }
    /* A schema whose fields fail is reported, and the next schema is still checked. */
    for (size_t si = 0; si < st->schemas.count; si++) ok = resolve_schema(&rv, st, fields, st->schemas.items[si]) && ok;
    for (size_t di = 0; ok && di < st->data.count; di++) ok = resolve_data(&rv, st->data.items[di]);
    for (size_t i = 0; i < count; i++) free(rv.indexes[i].slots);
    free(rv.indexes);
    return ok;
}
