/* After identity: every schema field names an entry of Vault.Fields (by its member name, or by
 * Scope.Name), which gives the field its id; every AssetRef value names an entry of its catalog's
 * domain, which gives the value its id. A name that is not declared is an error naming the file,
 * the JSON path and the closest declared names. Tombstones are refused: their values stay
 * reserved, but a vault field cannot be built on a removed identifier. */
#include "suggest.h"
#include "vault_model.h"

#include "config.h"

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

static void index_build(name_index *x, const domain_result *r)
{
    size_t n = r->m->entries.count, cap = 16;
    while (cap < n * 4) cap *= 2;
    x->r = r;
    x->mask = (uint32_t)cap - 1;
    x->slots = xcalloc(cap, sizeof *x->slots);
    for (size_t i = 0; i < n; i++) {
        const entry *e = &r->m->entries.items[i];
        index_put(x, e->name, e->name_len, (uint32_t)i);
        index_put(x, e->key, e->key_len, (uint32_t)i);
        size_t tail_len;
        const char *tail = key_tail(e, &tail_len);
        if (tail) index_put(x, tail, tail_len, (uint32_t)i);
    }
}

/* The entry a reference names: a member name ("Health") or a qualified one ("Combat.Health",
 * matched against the key). NULL if none. */
static const entry *index_find(const name_index *x, const char *ref)
{
    size_t n = strlen(ref);
    uint32_t h = fnv1a_folded(ref, n) & x->mask;
    for (; x->slots[h]; h = (h + 1) & x->mask) {
        const entry *e = &x->r->m->entries.items[x->slots[h] - 1];
        if (ascii_ieq(e->name, e->name_len, ref, n) || ascii_ieq(e->key, e->key_len, ref, n)) return e;
    }
    return NULL;
}

/* The entry an asset reference names: as index_find, or else by the asset's name in its catalog
 * (the key without its scope: "Sprites/slime"), when exactly one entry has that name; *ambiguous
 * is set when several do (one name in two scopes of an injector-built catalog). */
static const entry *index_find_asset(const name_index *x, const char *ref, bool *ambiguous)
{
    const entry *found = index_find(x, ref);
    size_t n = strlen(ref);
    *ambiguous = false;
    if (found) return found;
    for (uint32_t h = fnv1a_folded(ref, n) & x->mask; x->slots[h]; h = (h + 1) & x->mask) {
        const entry *e = &x->r->m->entries.items[x->slots[h] - 1];
        size_t tail_len;
        const char *tail = key_tail(e, &tail_len);
        if (!tail || !ascii_ieq(tail, tail_len, ref, n) || e == found) continue;
        if (found) {
            *ambiguous = true;
            return NULL;
        }
        found = e;
    }
    return found;
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

/* Resolves one AssetRef scalar in place (i[0] = the asset's id; "" is 0, no asset). */
static bool resolve_asset(resolver *rv, const char *file, const char *text, size_t len, const char *path,
                          const vfield *f, vscalar *v)
{
    if (!v->s || !v->s[0]) {
        v->i[0] = 0;
        return true;
    }
    name_index *x = domain_index(rv, f->catalog);
    if (!x) return false; /* reported with the schema */
    bool ambiguous;
    const entry *e = index_find_asset(x, v->s, &ambiguous);
    if (!e || e->tombstone) {
        buf b = {0};
        closest_entries(&b, x->r, v->s);
        rerror(file, text, len, path, "\"%s\" is %s in %s%s%s%s", v->s,
               e ? "a removed entry (a tombstone)" : ambiguous ? "the name of more than one entry (give its member name)" : "not an asset",
               f->catalog, b.len ? " (closest: " : "", b.len ? b.data : "", b.len ? ")" : "");
        buf_free(&b);
        return false;
    }
    v->i[0] = e->value;
    return true;
}

static bool resolve_value(resolver *rv, const char *file, const char *text, size_t len, const char *path,
                          const vfield *f, vvalue *v)
{
    bool ok = true;
    if (!v->present) return true;
    if (f->type == VT_ASSETREF) return resolve_asset(rv, file, text, len, path, f, &v->one);
    if (f->type != VT_COLLECTION) return true;
    for (size_t i = 0; i < v->keys.count; i++) {
        char sub[300];
        if (f->element == VT_ASSETREF) {
            snprintf(sub, sizeof sub, f->kind == LAYOUT_DICT ? "%s[%zu][0]" : "%s[%zu]", path, i);
            ok = resolve_asset(rv, file, text, len, sub, f, &v->keys.items[i]) && ok;
        }
        if (f->kind == LAYOUT_DICT && f->value == VT_ASSETREF) {
            snprintf(sub, sizeof sub, "%s[%zu][1]", path, i);
            ok = resolve_asset(rv, file, text, len, sub, f, &v->values.items[i]) && ok;
        }
    }
    if (ok && (f->kind == LAYOUT_HASHSET || f->kind == LAYOUT_DICT) && f->element == VT_ASSETREF)
        for (size_t i = 0; i < v->keys.count; i++)
            for (size_t k = 0; k < i; k++)
                if (v->keys.items[i].i[0] == v->keys.items[k].i[0]) {
                    char sub[300];
                    snprintf(sub, sizeof sub, f->kind == LAYOUT_DICT ? "%s[%zu][0]" : "%s[%zu]", path, i);
                    rerror(file, text, len, sub, "names the same asset as element %zu", k);
                    ok = false;
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
    const char *fields_source = "injectors/Vault.Fields.User.txt";
    for (size_t i = 0; i < count; i++)
        if (strcmp(domains[i].d->name, "Vault.Fields") == 0 && domains[i].d->sources.count)
            fields_source = domains[i].d->sources.items[0].path;
    for (size_t si = 0; si < st->schemas.count; si++) {
        vschema *s = st->schemas.items[si];
        for (size_t fi = 0; fi < s->fields.count; fi++) {
            vfield *f = &s->fields.items[fi];
            char path[80];
            snprintf(path, sizeof path, "%s.field", f->path);
            const entry *e = index_find(fields, f->ref);
            if (!e) {
                buf b = {0};
                closest_entries(&b, fields->r, f->ref);
                rerror(s->file, s->text, s->text_len, path, "\"%s\" is not declared in Vault.Fields (closest: %s); declare it in %s",
                       f->ref, b.len ? b.data : "none, the domain is empty", fields_source);
                buf_free(&b);
                ok = false;
                continue;
            }
            if (e->tombstone) {
                rerror(s->file, s->text, s->text_len, path, "\"%s\" was removed from Vault.Fields (it is a tombstone); declare it again or drop the field", f->ref);
                ok = false;
                continue;
            }
            f->id = e->value;
            f->member = arena_strndup(&st->strings, e->name, e->name_len);
            if (strcmp(f->member, "tl_listener") == 0) {
                rerror(s->file, s->text, s->text_len, path, "the member name tl_listener is reserved for the vault's change listener");
                ok = false;
            }
            for (size_t k = 0; k < fi; k++)
                if (s->fields.items[k].member && s->fields.items[k].id == f->id) {
                    rerror(s->file, s->text, s->text_len, path, "\"%s\" is the same Vault.Fields entry (%s) as fields[%zu]",
                           f->ref, f->member, k);
                    ok = false;
                }
            if (f->catalog && !domain_index(&rv, f->catalog)) {
                VEC(const char *) names = {0};
                buf b = {0};
                size_t best = SIZE_MAX;
                for (size_t d = 0; d < count; d++) {
                    size_t dist = suggest_distance(f->catalog, strlen(f->catalog), domains[d].d->name, strlen(domains[d].d->name));
                    if (dist < best) {
                        best = dist;
                        b.len = 0;
                        buf_puts(&b, domains[d].d->name);
                    }
                }
                char cpath[80];
                snprintf(cpath, sizeof cpath, "%s.catalog", f->path);
                rerror(s->file, s->text, s->text_len, cpath, "no domain is named \"%s\"%s%s%s (an AssetRef's catalog is the identity domain of its assets)",
                       f->catalog, b.len ? " (closest: " : "", b.len ? b.data : "", b.len ? ")" : "");
                buf_free(&b);
                vec_free(&names);
                ok = false;
                f->catalog = NULL;
            }
        }
        if (!ok) continue;
        for (size_t fi = 0; fi < s->fields.count; fi++) {
            vfield *f = &s->fields.items[fi];
            char path[80];
            snprintf(path, sizeof path, "%s.default", f->path);
            ok = resolve_value(&rv, s->file, s->text, s->text_len, path, f, &f->def) && ok;
        }
    }
    for (size_t di = 0; ok && di < st->data.count; di++) {
        vdata *d = st->data.items[di];
        vschema *s = d->schema;
        for (size_t ii = 0; ii < d->instances.count; ii++) {
            vinstance *in = &d->instances.items[ii];
            for (size_t fi = 0; fi < s->fields.count; fi++) {
                char path[200];
                snprintf(path, sizeof path, "%s.values.%s", in->path, s->fields.items[fi].ref);
                ok = resolve_value(&rv, d->file, d->text, d->text_len, path, &s->fields.items[fi], &in->values[fi]) && ok;
            }
        }
    }
    for (size_t i = 0; i < count; i++) free(rv.indexes[i].slots);
    free(rv.indexes);
    return ok;
}
