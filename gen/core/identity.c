#include "core/identity.h"

#include "base/index_map.h"
#include "base/suggest.h"
#include "base/work_pool.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

uint32_t identity_hash(const char *key, size_t len, uint32_t seed_offset) { return XXH32(key, len, seed_offset); }

static uint32_t value_slot_hash(uint32_t v) { return v * 2654435761u; }

/* How many elements ahead of its use a table lookup is requested (index_map_prefetch). */
enum { LOOKAHEAD = 16 };

/* A names slot that holds an alias (an earlier name of a renamed entry) instead of an entry's
 * own name: NAME_ALIAS | its index in identity_index.aliases. */
#define NAME_ALIAS 0x80000000u

typedef struct alias_ref {
    uint32_t entry;
    const char *name;
    uint32_t len;
} alias_ref;

typedef struct identity_index {
    index_map keys, names, values;
    index_map old_keys;     /* entry index by each key it was renamed from */
    VEC(alias_ref) aliases; /* the alias names the names map holds */
} identity_index;

typedef struct probe {
    const manifest *m;
    const char *s;
    size_t len;
    uint32_t value;
    const identity_index *x; /* names: where alias slots point */
} probe;

static bool eq_key(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    const entry *e = &p->m->entries.items[i];
    return e->key_len == p->len && memcmp(e->key, p->s, p->len) == 0;
}

static bool eq_old_key(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    return manifest_renamed_from(&p->m->entries.items[i], p->s, p->len) != NULL;
}

/* The entry a names slot belongs to, and the name it holds there. */
static uint32_t slot_entry(const identity_index *x, uint32_t slot)
{
    return slot & NAME_ALIAS ? x->aliases.items[slot & ~NAME_ALIAS].entry : slot;
}

static const char *slot_name(const manifest *m, const identity_index *x, uint32_t slot, uint32_t *len)
{
    if (slot & NAME_ALIAS) {
        const alias_ref *r = &x->aliases.items[slot & ~NAME_ALIAS];
        *len = r->len;
        return r->name;
    }
    *len = m->entries.items[slot].name_len;
    return m->entries.items[slot].name;
}

static bool eq_name(const void *ctx, uint32_t slot)
{
    const probe *p = ctx;
    uint32_t len;
    const char *name = slot_name(p->m, p->x, slot, &len);
    return ascii_ieq(name, len, p->s, p->len);
}

/* The names slot that holds `name` (an entry's member name or an alias), or UINT32_MAX. */
static uint32_t find_name_hashed(const manifest *m, const identity_index *x, const char *name, size_t len, uint32_t hash)
{
    probe p = {m, name, len, 0, x};
    return index_map_find(&x->names, hash, eq_name, &p);
}

static uint32_t find_name(const manifest *m, const identity_index *x, const char *name, size_t len)
{
    return find_name_hashed(m, x, name, len, fnv1a_folded(name, len));
}

static void insert_alias_name(identity_index *x, uint32_t entry_index, const char *name, uint32_t len)
{
    *vec_push(&x->aliases) = (alias_ref){entry_index, name, len};
    index_map_insert(&x->names, fnv1a_folded(name, len), NAME_ALIAS | (uint32_t)(x->aliases.count - 1));
}

static bool eq_value(const void *ctx, uint32_t i)
{
    const probe *p = ctx;
    return p->m->entries.items[i].value == p->value;
}

bool identity_reserved_member(const domain *d, const char *name, size_t len)
{
    /* The sentinel, and, when a domain is spelled in lowercase so that its enumerators and its
     * helper functions share one prefix, the helpers' suffixes (none of other lengths). */
    if (len != 4 && len != 6 && len != 7 && len != 9) return false;
    if (d->reserve_zero && ascii_ieq(name, len, "None", 4)) return true;
    if (strcmp(d->c_name, d->lower_name) != 0) return false;
    return ascii_ieq(name, len, "name", 4) || ascii_ieq(name, len, "from_name", 9) || ascii_ieq(name, len, "_names", 6) ||
           ascii_ieq(name, len, "_values", 7);
}

static void index_free(identity_index *x)
{
    index_map_free(&x->keys);
    index_map_free(&x->names);
    index_map_free(&x->values);
    index_map_free(&x->old_keys);
    vec_free(&x->aliases);
}

/* A renamed entry's earlier key (renamed_from) names it alone: no entry has it as its key, and
 * no other record has it. */
static bool index_old_key(const manifest *m, identity_index *x, uint32_t i, const entry_alias *a, src_loc at)
{
    probe p = {m, a->key, a->key_len, 0, x};
    uint32_t h = model_hash(a->key, a->key_len);
    uint32_t other = index_map_find(&x->keys, h, eq_key, &p);
    bool as_key = other != UINT32_MAX;
    if (!as_key) other = index_map_find(&x->old_keys, h, eq_old_key, &p);
    if (other == UINT32_MAX) {
        index_map_insert(&x->old_keys, h, i);
        return true;
    }
    diag_error(at, "entry '%s' was renamed from '%s', which is also %s '%s' on line %u", m->entries.items[i].key, a->key,
               as_key ? "the key of" : "an earlier key of", m->entries.items[other].key, m->entries.items[other].line);
    return false;
}

/* An earlier name of a renamed entry is a member name like any other (the header keeps it as a
 * deprecated alias), unless it is the entry's own (a recorded move to another injector). */
static bool index_alias_name(const manifest *m, identity_index *x, uint32_t i, const entry_alias *a, src_loc at)
{
    const entry *e = &m->entries.items[i];
    if (!manifest_alias_named(e, a)) return true;
    uint32_t slot = find_name(m, x, a->name, a->name_len);
    if (slot != UINT32_MAX && slot_entry(x, slot) == i) return true; /* its own name in another case */
    if (slot != UINT32_MAX) {
        diag_error(at, "member name '%s' is used twice (an earlier name of '%s', and also on line %u)", a->name, e->key,
                   m->entries.items[slot_entry(x, slot)].line);
        return false;
    }
    insert_alias_name(x, i, a->name, a->name_len);
    return true;
}

/* Every entry's rename records, once its keys and names are indexed. */
static bool index_renames(const manifest *m, const char *path, identity_index *x)
{
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        for (uint32_t k = 0; k < e->renamed_count; k++) {
            src_loc at = loc_at(path, e->line, 0);
            if (!index_old_key(m, x, (uint32_t)i, &e->renamed_from[k], at) ||
                !index_alias_name(m, x, (uint32_t)i, &e->renamed_from[k], at))
                return false;
        }
    }
    return true;
}

/* The hashes an entry is indexed under: its key's, its folded member name's (kept in the entry)
 * and its value's. */
typedef struct entry_hashes {
    uint32_t key, name, value;
} entry_hashes;

/* Every entry's hashes, computed before any is indexed so that the slots an entry probes can be
 * requested LOOKAHEAD entries earlier: at 100,000 entries each table is megabytes, and its probes
 * missed the caches one after another. */
static entry_hashes *hash_entries(const manifest *m)
{
    entry_hashes *h = xmalloc((m->entries.count ? m->entries.count : 1) * sizeof *h);
    for (size_t i = 0; i < m->entries.count; i++) {
        entry *e = &m->entries.items[i];
        e->name_hash = fnv1a_folded(e->name, e->name_len);
        h[i] = (entry_hashes){model_hash(e->key, e->key_len), e->name_hash, value_slot_hash(e->value)};
    }
    return h;
}

TLG_PREFETCHER void prefetch_entry(const identity_index *x, const entry_hashes *h)
{
    index_map_prefetch(&x->keys, h->key);
    index_map_prefetch(&x->names, h->name);
    index_map_prefetch(&x->values, h->value);
}

/* An entry agrees with its domain: its key starts with its scope, and its value is its key's hash
 * (identity) and not the sentinel's. */
/* How far past its entries an ordinal manifest's values may reach. Values are issued in order
 * and every one stays recorded (a removed entry as a tombstone), so a generator's manifest has
 * none past its count; the slack is for manifests whose removed entries were dropped. A value
 * beyond would make tables of that many rows (4294967295 wrapped the span to 0). */
enum { ORDINAL_SLACK = 65536 };

static bool check_entry(const domain *d, const entry *e, size_t count, src_loc at)
{
    size_t slen = strlen(e->scope);
    if (e->key_len <= slen || e->key[slen] != '.' || !ascii_ieq(e->key, slen, e->scope, slen)) {
        diag_error(at, "entry '%s': key does not start with its scope '%s'", e->key, e->scope);
        return false;
    }
    const char *hashed = e->issued_key ? e->issued_key : e->key;
    uint32_t hashed_len = e->issued_key ? e->issued_key_len : e->key_len;
    if (d->kind == KIND_IDENTITY && identity_hash(hashed, hashed_len, e->seed_offset) != e->value) {
        diag_error(
            at,
            "entry '%s': value %u is not the hash of its %s under seed offset %u (the manifest was edited by hand or corrupted)",
            e->key, e->value, e->issued_key ? "issued key" : "key", e->seed_offset);
        return false;
    }
    if (d->reserve_zero && e->value == 0) {
        diag_error(at, "entry '%s': value 0 is reserved for the sentinel in this domain", e->key);
        return false;
    }
    if (identity_reserved_member(d, e->name, e->name_len)) {
        if (d->reserve_zero && ascii_ieq(e->name, e->name_len, "None", 4))
            diag_error(
                at,
                "entry '%s' is named %s, a name this domain reserves (the sentinel %s_None with reserve_zero): rename it first ('NewName <- %s', then generate), then turn reserve_zero on",
                e->key, e->name, d->c_name, e->name);
        else
            diag_error(at, "entry '%s' is named %s, a name this domain reserves for its helpers: rename it ('NewName <- %s')",
                       e->key, e->name, e->name);
        return false;
    }
    uint64_t most = (uint64_t)count + d->reserve_zero + ORDINAL_SLACK - 1;
    if (d->kind == KIND_ORDINAL && e->value > most) {
        diag_error(
            at,
            "entry '%s': value %u is far past the %zu entr%s of this ordinal manifest (values are issued in order: at most %llu here; the manifest was edited by hand or corrupted)",
            e->key, e->value, count, count == 1 ? "y" : "ies", (unsigned long long)most);
        return false;
    }
    return true;
}

/* Entry i under its hashes, unless another entry has its key, member name or value. */
static bool index_entry(const manifest *m, identity_index *x, uint32_t i, const entry_hashes *h, src_loc at)
{
    const entry *e = &m->entries.items[i];
    probe p = {m, e->key, e->key_len, e->value, x};
    uint32_t dup = index_map_find(&x->keys, h->key, eq_key, &p);
    if (dup != UINT32_MAX) {
        diag_error(at, "entry '%s' appears twice (also on line %u)", e->key, m->entries.items[dup].line);
        return false;
    }
    index_map_insert(&x->keys, h->key, i);
    p.s = e->name;
    p.len = e->name_len;
    dup = index_map_find(&x->names, h->name, eq_name, &p);
    if (dup != UINT32_MAX) {
        diag_error(at, "member name '%s' is used twice (also on line %u)", e->name, m->entries.items[slot_entry(x, dup)].line);
        return false;
    }
    index_map_insert(&x->names, h->name, i);
    dup = index_map_find(&x->values, h->value, eq_value, &p);
    if (dup != UINT32_MAX) {
        diag_error(at, "value %u is issued twice ('%s' and '%s' on line %u)", e->value, e->key, m->entries.items[dup].key,
                   m->entries.items[dup].line);
        return false;
    }
    index_map_insert(&x->values, h->value, i);
    return true;
}

/* An ordinal manifest keeps its entries in the order their values were issued: a value not above
 * the one before it was swapped by hand or a bad merge (every dispatch index crossed). */
static bool in_issue_order(const domain *d, const manifest *m, size_t i, src_loc at)
{
    if (d->kind != KIND_ORDINAL || i == 0 || m->entries.items[i].value > m->entries.items[i - 1].value) return true;
    diag_error(
        at,
        "entry '%s': value %u after %u: an ordinal manifest keeps its entries in the order their values were issued (the manifest was edited by hand or corrupted)",
        m->entries.items[i].key, m->entries.items[i].value, m->entries.items[i - 1].value);
    return false;
}

/* Indexes a manifest by key, folded name and value (room for `extra` more entries), checking
 * that it is consistent with its domain on the way. */
static bool index_manifest(const domain *d, const manifest *m, const char *path, size_t extra, identity_index *x)
{
    size_t n = m->entries.count;
    index_map_init(&x->keys, n + extra);
    index_map_init(&x->names, n + extra);
    index_map_init(&x->values, n + extra);
    index_map_init(&x->old_keys, 16);
    memset(&x->aliases, 0, sizeof x->aliases);
    if (!m->domain) return true; /* no manifest yet */
    if (strcmp(m->domain, d->name) != 0) {
        if (ascii_ieq(m->domain, strlen(m->domain), d->name, strlen(d->name))) /* a case-insensitive file system */
            diag_error(
                loc_file(path),
                "manifest is for domain '%s', not '%s': the domain's name changed in case only, and this file system reaches the old manifest by the new name; rename it (git mv -f) and set its \"domain\" to \"%s\" to keep the domain's values",
                m->domain, d->name, d->name);
        else diag_error(loc_file(path), "manifest is for domain '%s', not '%s'", m->domain, d->name);
        return false;
    }
    if (m->kind != d->kind) {
        diag_error(
            loc_file(path),
            "manifest records domain '%s' as %s but the config declares it %s; changing the kind would change every value (restore the kind, or delete the manifest to start over)",
            d->name, m->kind == KIND_ORDINAL ? "ordinal" : "identity", d->kind == KIND_ORDINAL ? "ordinal" : "identity");
        return false;
    }
    entry_hashes *h = hash_entries(m);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        if (i + LOOKAHEAD < n) prefetch_entry(x, &h[i + LOOKAHEAD]);
        src_loc at = loc_at(path, m->entries.items[i].line, 0);
        ok = check_entry(d, &m->entries.items[i], n, at) && in_issue_order(d, m, i, at) &&
             index_entry(m, x, (uint32_t)i, &h[i], at);
    }
    free(h);
    return ok && index_renames(m, path, x);
}

bool identity_check(const domain *d, const manifest *m, const char *path)
{
    identity_index x;
    bool ok = index_manifest(d, m, path, 0, &x);
    index_free(&x);
    return ok;
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

/* Long lists (duplicates warned about; the summary's likely renames and rescopes) an item a line
 * up to this many, then one line for the rest: a file pasted in twice, or an injector's 16,000
 * entries replaced, printed a line for each. */
enum { SHOWN_ONE_BY_ONE = 20 };

/* Declaration `di` takes the entry with its key: a key declared twice in one pass keeps the first
 * spelling (the second is warned about); a tombstone is revived. */
static void take_entry(const domain *d, manifest *m, uint32_t di, uint32_t found, identity_summary *sum)
{
    entry *e = &m->entries.items[found];
    const decl *dc = &d->decls.items[di];
    if (e->decl != UINT32_MAX) {
        const decl *first = &d->decls.items[e->decl];
        src_loc at = model_loc(d, first);
        if (sum->duplicates++ == SHOWN_ONE_BY_ONE) sum->duplicates_unshown = model_loc(d, dc);
        if (sum->duplicates > SHOWN_ONE_BY_ONE) return;
        diag_warning(model_loc(d, dc),
                     "duplicate entry '%.*s' ignored: '%.*s' is already declared at %s:%u:%u (names compare case-insensitively)",
                     (int)dc->name_len, dc->name, (int)first->name_len, first->name, at.file, at.line, at.col);
        return;
    }
    e->decl = di;
    if (e->tombstone) {
        e->tombstone = false;
        e->change = CHANGE_REVIVED;
        sum->revived++;
    }
    /* Written in another case than its member name (Gold as GOLD): the same key, so the same
     * entry, and its name is kept; say so rather than nothing. */
    size_t n = dc->name_len;
    if (e->name && strncmp(e->name, dc->name, n) != 0 && strncasecmp(e->name, dc->name, n) == 0 && e->name[n] == '\0')
        diag_warning(
            model_loc(d, dc),
            "'%.*s' is the entry %s: names compare case-insensitively and its member name is kept; write %s (a new name is a rename: 'NewName <- %s')",
            (int)n, dc->name, e->name, e->name, e->name);
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
    probe p = {m, spelled->data, spelled->len, 0, x};
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
        diag_warning(loc_file(file), "asset \"%s\" is spelled %.*s in C, a name the generated header reserves: it is named %.*s",
                     what, (int)dc->name_len, dc->name, (int)name->len, name->data);
        return;
    }
    const entry *o = &m->entries.items[owner];
    if (o->decl == UINT32_MAX)
        diag_warning(loc_file(file),
                     "asset \"%s\" is spelled %.*s in C, the member name of a removed asset (tombstone %u): it is named %.*s",
                     what, (int)dc->name_len, dc->name, o->value, (int)name->len, name->data);
    else
        diag_warning(loc_file(file), "asset \"%s\" is spelled %.*s in C, like \"%s\" (%s): it is named %.*s", what,
                     (int)dc->name_len, dc->name, d->asset_names[o->decl], d->asset_files[o->decl], (int)name->len, name->data);
}

/* The member name of a newcomer, into `name`: as declared, or qualified when taken (by scope for
 * injector entries, Combat_Health; by number for assets, button_pressed_2); the incumbent keeps
 * its name. `plain_hash` is the declared name's hash in the names index; returns the chosen one's. */
static uint32_t choose_member_name(const domain *d, const manifest *m, identity_index *x, uint32_t di, uint32_t plain_hash,
                                   buf *name, buf *collisions, identity_summary *sum)
{
    const decl *dc = &d->decls.items[di];
    const char *scope = model_scope(d, dc);
    name->len = 0;
    buf_put(name, dc->name, dc->name_len);
    uint32_t plain_owner = UINT32_MAX; /* who holds the plain name, when it is taken */
    const char *holder = NULL;         /* the name it holds it by (its own, or an earlier one) */
    uint32_t holder_len = 0;
    unsigned attempt = 0;
    uint32_t hash;
    for (;; attempt++) {
        hash = attempt ? fnv1a_folded(name->data, name->len) : plain_hash;
        uint32_t taken = find_name_hashed(m, x, name->data, name->len, hash);
        if (taken == UINT32_MAX && !identity_reserved_member(d, name->data, name->len)) break;
        if (attempt == 0 && taken != UINT32_MAX) plain_owner = slot_entry(x, taken), holder = slot_name(m, x, taken, &holder_len);
        name->len = 0;
        if (d->asset_names) {
            buf_printf(name, "%.*s_%u", (int)dc->name_len, dc->name, attempt + 2);
            continue;
        }
        buf_printf(name, "%s_%.*s", scope, (int)dc->name_len, dc->name);
        if (attempt > 0) buf_printf(name, "_%u", attempt + 1);
    }
    if (attempt == 0) return hash;
    sum->name_collisions++; /* reported with the name it ended up with */
    src_loc at = model_loc(d, dc);
    buf_printf(collisions, "  name collision: '%.*s' from %s (%s:%u:%u) is named '%.*s'%s%.*s%s\n", (int)dc->name_len, dc->name,
               scope, at.file, at.line, at.col, (int)name->len, name->data, holder ? " ('" : " (reserved name)", (int)holder_len,
               holder ? holder : "", holder ? "' has the plain name)" : "");
    if (d->asset_names) warn_asset_qualified(d, m, di, plain_owner, name);
    return hash;
}

/* A declaration's key and hashes, made once in a pass ahead of the lookups (which look each key
 * up twice and are prefetched ahead), side by side: the matching reads them all. */
typedef struct decl_keys {
    const char *text;     /* the key (in the manifest's strings: a new entry keeps it) */
    uint32_t len;         /* its length */
    uint32_t hash;        /* its model_hash */
    uint32_t first_value; /* (identity) its first value */
    uint32_t name_hash;   /* the plain name's hash in the names index */
    const char *name;     /* a new domain's: the plain name's copy in the manifest's strings */
} decl_keys;

/* One pass of identity_assign: the domain, its manifest, the index over it and the summary's
 * text in the making. */
typedef struct assign_ctx {
    const domain *d;
    manifest *m;
    identity_index x;
    identity_summary *sum;
    size_t old_count;
    uint32_t next_ordinal;
    buf collisions, name_buf, key, spelled, rewritten, upgraded, signatures, pairs, renamed;
    size_t spelling_cursor;
    const char *scope_of_source, *interned_scope; /* the last scope intern_scope was given, and its copy */
    decl_keys *keys;                              /* per declaration */
    uint32_t *rename_of; /* per declaration: its index in d->renames + 1, 0 for none (NULL: no renames) */
    /* A big domain's keys hashed in ranges on other threads while the matching goes on (NULL:
     * all hashed): the ranges waited for so far, and each worker's arena for its keys. */
    struct work_pool *hashing;
    size_t ranges_ready;
    struct key_ranges *ranges;
} assign_ctx;

/* A source's scope, as an entry keeps it: scopes repeat across thousands of entries (a source's
 * declarations one after another), so they share one copy of each. */
static const char *intern_scope(assign_ctx *c, const char *scope)
{
    if (scope == c->scope_of_source) return c->interned_scope;
    manifest *m = c->m;
    const char *copy = NULL;
    for (size_t i = m->entries.count; !copy && i-- > 0 && i + 64 > m->entries.count;)
        if (strcmp(m->entries.items[i].scope, scope) == 0) copy = m->entries.items[i].scope;
    c->scope_of_source = scope;
    return c->interned_scope = copy ? copy : arena_strndup(&m->strings, scope, strlen(scope));
}

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
    if (c->m->entries.cap < need) { /* once, on huge pages: a big domain's entries are megabytes */
        entry *items = xmalloc(need * sizeof *items);
        if (c->old_count) memcpy(items, c->m->entries.items, c->old_count * sizeof *items);
        free(c->m->entries.items);
        c->m->entries.items = items;
        c->m->entries.cap = need;
    }
}

/* An identity value for a new key: XXH32 under the first seed offset whose value is not issued
 * yet (nor 0 with reserve_zero); a collision is reported once. */
static void issue_hash_value(assign_ctx *c, entry *ne, uint32_t first_value)
{
    probe p = {c->m, ne->key, ne->key_len, 0, &c->x};
    for (uint32_t seed = 0;; seed++) {
        uint32_t v = seed ? identity_hash(ne->key, ne->key_len, seed) : first_value;
        p.value = v;
        uint32_t clash =
            (c->d->reserve_zero && v == 0) ? UINT32_MAX - 1 : index_map_find(&c->x.values, value_slot_hash(v), eq_value, &p);
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
            buf_printf(&c->collisions, "  hash collision: '%s' hashes to %u, already issued to '%s'; rehashed\n", ne->key, v,
                       c->m->entries.items[clash].key);
    }
}

/* A declaration no entry matches: a new entry, its member name chosen once and its value issued. */
static void add_entry(assign_ctx *c, uint32_t di, uint32_t key_hash)
{
    const domain *d = c->d;
    manifest *m = c->m;
    const char *scope = intern_scope(c, model_scope(d, &d->decls.items[di]));
    uint32_t name_hash = choose_member_name(d, m, &c->x, di, c->keys[di].name_hash, &c->name_buf, &c->collisions, c->sum);
    const char *as_written = spelling_of(d, di, &c->spelling_cursor);
    if (as_written)
        list_add(&c->rewritten, &c->sum->rewritten, "%s \"%s\" -> %.*s", c->sum->rewritten ? "," : "", as_written,
                 (int)c->name_buf.len, c->name_buf.data);
    uint32_t index = (uint32_t)m->entries.count;
    /* The plain name kept (a qualified one is longer) is copied already, on a hashing thread. */
    bool plain = c->keys[di].name && c->name_buf.len == d->decls.items[di].name_len;
    entry *ne = vec_push(&m->entries); /* (in place: assign_prepare made room for every declaration) */
    *ne = (entry){.key = c->keys[di].text,
                  .key_len = c->keys[di].len,
                  .scope = scope,
                  .decl = di,
                  .change = CHANGE_ADDED,
                  .name = plain ? c->keys[di].name : arena_strndup(&m->strings, c->name_buf.data, c->name_buf.len),
                  .name_len = (uint32_t)c->name_buf.len,
                  .name_hash = name_hash};
    if (d->kind == KIND_ORDINAL) ne->value = c->next_ordinal++;
    else issue_hash_value(c, ne, c->keys[di].first_value);
    index_map_insert(&c->x.keys, key_hash, index);
    index_map_insert(&c->x.names, name_hash, index);
    index_map_insert(&c->x.values, value_slot_hash(ne->value), index);
    c->sum->added++;
}

/* Declarations di in [from, to): each one's key (into `strings`), its hashes and its plain name's
 * hash, and in a new domain (where every declaration is added) its name's copy. Touches only those
 * declarations' slots: ranges run side by side. */
static void hash_key_range(assign_ctx *c, size_t from, size_t to, arena *strings, buf *key)
{
    for (size_t di = from; di < to; di++) {
        const decl *dc = &c->d->decls.items[di];
        model_key(c->d, dc, key);
        /* (an injector's key ends with its name, lowered: model_spelling_key) */
        uint32_t name_hash =
            c->d->asset_names ? fnv1a_folded(dc->name, dc->name_len) : fnv1a(key->data + key->len - dc->name_len, dc->name_len);
        c->keys[di] = (decl_keys){arena_strndup(strings, key->data, key->len),
                                  (uint32_t)key->len,
                                  model_hash(key->data, key->len),
                                  identity_hash(key->data, key->len, 0),
                                  name_hash,
                                  c->old_count ? NULL : arena_strndup(strings, dc->name, dc->name_len)};
    }
}

/* Declarations per range: below this a thread costs more than it saves (~50 us to start one;
 * hashing 10,000 keys takes ~0.5 ms). */
enum { KEY_RANGE = 16384 };

typedef struct key_ranges {
    assign_ctx *c;
    arena *strings; /* per worker: its keys, adopted by the manifest's strings at the end */
    unsigned jobs;
} key_ranges;

static void hash_one_range(void *ctx, size_t item, unsigned worker)
{
    key_ranges *r = ctx;
    size_t n = r->c->d->decls.count, from = item * KEY_RANGE, to = n - from < KEY_RANGE ? n : from + KEY_RANGE;
    buf key = {0};
    hash_key_range(r->c, from, to, worker_arena(r->strings, worker), &key);
    buf_free(&key);
}

/* Every declaration's key, key hash, first value and name hash, ahead of the lookups (each key is
 * made once and kept in the manifest's strings, where a new entry points at it). A big domain's
 * are made in ranges on `jobs` threads, from now on: keys_ready says when a range is done. */
static void hash_declaration_keys(assign_ctx *c, unsigned jobs)
{
    size_t n = c->d->decls.count ? c->d->decls.count : 1;
    c->keys = xmalloc(n * sizeof *c->keys);
    size_t ranges = (c->d->decls.count + KEY_RANGE - 1) / KEY_RANGE;
    if (!jobs) jobs = work_pool_cores();
    if (jobs > ranges) jobs = (unsigned)ranges;
    if (jobs < 2) {
        hash_key_range(c, 0, c->d->decls.count, &c->m->strings, &c->key);
        return;
    }
    /* Every worker has an arena of its own, the calling one too: it adds entries to the
     * manifest's strings while it waits. */
    c->ranges = xmalloc(sizeof *c->ranges);
    *c->ranges = (key_ranges){c, workers_arenas(jobs), jobs};
    c->hashing = work_pool_start(jobs, ranges, hash_one_range, c->ranges, NULL, 0);
}

/* Declarations below `upto` have their keys and hashes (the ranges holding them are done). */
static void keys_ready(assign_ctx *c, size_t upto)
{
    while (c->hashing && c->ranges_ready * KEY_RANGE < upto) work_pool_wait(c->hashing, c->ranges_ready++);
}

/* Every declaration has its keys; their strings join the manifest's. */
static void keys_finish(assign_ctx *c)
{
    if (!c->hashing) return;
    keys_ready(c, c->d->decls.count);
    work_pool_finish(c->hashing);
    c->hashing = NULL;
    arena_adopt_workers(&c->m->strings, c->ranges->strings, c->ranges->jobs);
    free(c->ranges);
    c->ranges = NULL;
}

/* The slots that declaration di's lookups probe, a few declarations before it gets there: its key,
 * and for a newcomer its plain member name and its first hash value. */
TLG_PREFETCHER void prefetch_declaration(const assign_ctx *c, size_t di, bool newcomer)
{
    if (di >= c->d->decls.count) return;
    index_map_prefetch(&c->x.keys, c->keys[di].hash);
    if (!newcomer) return;
    index_map_prefetch(&c->x.names, c->keys[di].name_hash);
    if (c->d->kind == KIND_IDENTITY) index_map_prefetch(&c->x.values, value_slot_hash(c->keys[di].first_value));
}

/* The entry of the declaration's own key, if the manifest has one. */
static uint32_t find_own_entry(assign_ctx *c, uint32_t di, uint32_t *key_hash)
{
    probe p = {c->m, c->keys[di].text, c->keys[di].len, 0, &c->x};
    *key_hash = c->keys[di].hash;
    return index_map_find(&c->x.keys, *key_hash, eq_key, &p);
}

/* ---- renames: "Elixir <- Potion" -------------------------------------------------------------
 * A rename gives the old entry the declaration's key and member name; its value, seed offset and
 * (identity) issued key stay, and the old key and name are recorded (renamed_from): the header
 * keeps the old name as a deprecated alias, and the old key can name no other entry. Refused, at
 * the rename: an old name that is no entry, or that is still declared; a new name that is another
 * entry, another entry's earlier name or its member name; in one pass, two renames of one entry,
 * two renames to one name, and a chain (A <- B and B <- C). Renaming back to an earlier name of
 * the same entry is allowed (it leaves the records and becomes the member again). A tombstone may
 * be renamed: it is declared again under its new name, with its value. */

static const decl_rename *rename_of(const assign_ctx *c, uint32_t di)
{
    return c->rename_of && c->rename_of[di] ? &c->d->renames.items[c->rename_of[di] - 1] : NULL;
}

/* Where a refusal about rename `r` points: the new name's line in an injector; the rename
 * record's line for an asset (whose declaration is a file, not a line). */
static src_loc rename_at(const assign_ctx *c, const decl_rename *r)
{
    return c->d->asset_names ? model_rename_loc(c->d, r) : model_loc(c->d, &c->d->decls.items[r->decl]);
}

/* How a rename's old entry is written: "Potion", or "Mod.Gamma" from another injector. */
static void old_name(const assign_ctx *c, const decl_rename *r, buf *out)
{
    out->len = 0;
    if (strcmp(r->scope, model_scope(c->d, &c->d->decls.items[r->decl])) != 0) buf_printf(out, "%s.", r->scope);
    buf_put(out, r->name, r->name_len);
}

static void rename_error(assign_ctx *c, src_loc at, const char *fmt, ...) TLG_PRINTF(3, 4);
static void rename_error(assign_ctx *c, src_loc at, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_error(at, "%s", message);
    c->sum->input_errors++;
}

typedef struct pass_rename {
    char *old_key, *new_key;
    size_t old_len, new_len;
} pass_rename;

typedef struct rename_probe {
    const pass_rename *list;
    const char *s;
    size_t len;
    bool old;
} rename_probe;

static bool eq_pass_rename(const void *ctx, uint32_t i)
{
    const rename_probe *p = ctx;
    const pass_rename *r = &p->list[i];
    return (p->old ? r->old_len : r->new_len) == p->len && memcmp(p->old ? r->old_key : r->new_key, p->s, p->len) == 0;
}

static uint32_t find_pass_rename(const index_map *map, const pass_rename *list, const char *key, size_t len, bool old)
{
    rename_probe p = {list, key, len, old};
    return index_map_find(map, model_hash(key, len), eq_pass_rename, &p);
}

/* Rename i against the earlier ones of this pass (by_old, by_new): not a change of case alone,
 * not a second rename of its entry, not a second rename to its name. */
static void check_one_rename(assign_ctx *c, const pass_rename *list, uint32_t i, index_map *by_old, index_map *by_new)
{
    const domain *d = c->d;
    const decl_rename *r = &d->renames.items[i];
    const decl *dc = &d->decls.items[r->decl];
    const pass_rename *pr = &list[i];
    src_loc at = model_rename_loc(d, r);
    old_name(c, r, &c->spelled);
    uint32_t j;
    if (pr->old_len == pr->new_len && memcmp(pr->old_key, pr->new_key, pr->old_len) == 0) {
        rename_error(
            c, at,
            "'%.*s' <- '%s' is no rename: names compare case-insensitively, so both are the key %s (a member name, once assigned, is kept)",
            (int)dc->name_len, dc->name, c->spelled.data, pr->old_key);
    } else if ((j = find_pass_rename(by_old, list, pr->old_key, pr->old_len, true)) != UINT32_MAX) {
        src_loc first = model_rename_loc(d, &d->renames.items[j]);
        rename_error(c, at, "two renames of one entry: '%s' is already renamed at %s:%u:%u", c->spelled.data, first.file,
                     first.line, first.col);
    } else if ((j = find_pass_rename(by_new, list, pr->new_key, pr->new_len, false)) != UINT32_MAX) {
        const decl_rename *rj = &d->renames.items[j];
        src_loc first = rename_at(c, rj);
        rename_error(c, at, "two renames to one name: '%.*s' already takes the value of '%.*s' at %s:%u:%u", (int)dc->name_len,
                     dc->name, (int)rj->name_len, rj->name, first.file, first.line, first.col);
    }
    index_map_insert(by_old, model_hash(pr->old_key, pr->old_len), i);
    index_map_insert(by_new, model_hash(pr->new_key, pr->new_len), i);
}

/* A chain in one pass: rename i's old entry is another rename's new name (X <- Y, Y <- Z). */
static void check_chain(assign_ctx *c, const pass_rename *list, uint32_t i, const index_map *by_new)
{
    const domain *d = c->d;
    uint32_t j = find_pass_rename(by_new, list, list[i].old_key, list[i].old_len, false);
    if (j == UINT32_MAX || j == i) return;
    const decl_rename *ri = &d->renames.items[i], *rj = &d->renames.items[j];
    const decl *xi = &d->decls.items[ri->decl];
    src_loc at = model_rename_loc(d, i > j ? ri : rj), other = model_rename_loc(d, i > j ? rj : ri);
    rename_error(
        c, at,
        "a chain of renames in one pass: '%.*s' is renamed to '%.*s' and takes the value of '%.*s' (also %s:%u:%u); one step per generate pass (an entry renamed twice: '%.*s <- %.*s')",
        (int)ri->name_len, ri->name, (int)xi->name_len, xi->name, (int)rj->name_len, rj->name, other.file, other.line, other.col,
        (int)xi->name_len, xi->name, (int)rj->name_len, rj->name);
}

/* This pass's renames: each declaration's (rename_of) and the checks among them. */
static bool prepare_renames(assign_ctx *c)
{
    const domain *d = c->d;
    size_t n = d->renames.count;
    if (!n) return true;
    size_t errors = c->sum->input_errors;
    c->rename_of = xcalloc(d->decls.count, sizeof *c->rename_of);
    pass_rename *list = xcalloc(n, sizeof *list);
    index_map by_old, by_new;
    index_map_init(&by_old, n);
    index_map_init(&by_new, n);
    for (size_t i = 0; i < n; i++) {
        const decl_rename *r = &d->renames.items[i];
        c->rename_of[r->decl] = (uint32_t)i + 1;
        model_rename_key(c->d, r, &c->key);
        list[i].old_key = xstrndup(c->key.data, list[i].old_len = c->key.len);
        model_key(d, &d->decls.items[r->decl], &c->key);
        list[i].new_key = xstrndup(c->key.data, list[i].new_len = c->key.len);
        check_one_rename(c, list, (uint32_t)i, &by_old, &by_new);
    }
    for (size_t i = 0; i < n; i++) check_chain(c, list, (uint32_t)i, &by_new);
    for (size_t i = 0; i < n; i++) free(list[i].old_key), free(list[i].new_key);
    free(list);
    index_map_free(&by_old);
    index_map_free(&by_new);
    return c->sum->input_errors == errors;
}

/* The entry with an earlier key `key` (renamed from it), or UINT32_MAX. */
static uint32_t find_old_key_hashed(const assign_ctx *c, const char *key, size_t len, uint32_t hash)
{
    probe p = {c->m, key, len, 0, &c->x};
    return index_map_find(&c->x.old_keys, hash, eq_old_key, &p);
}

static uint32_t find_old_key(const assign_ctx *c, const char *key, size_t len)
{
    return find_old_key_hashed(c, key, len, model_hash(key, len));
}

/* The member name of the scope's entry nearest to a rename's old name, or NULL. */
static const char *nearest_in_scope(const assign_ctx *c, const decl_rename *r)
{
    VEC(const char *) names = {0};
    for (size_t i = 0; i < c->m->entries.count; i++)
        if (ascii_ieq(c->m->entries.items[i].scope, strlen(c->m->entries.items[i].scope), r->scope, strlen(r->scope)))
            *vec_push(&names) = c->m->entries.items[i].name;
    const char *near = suggest_nearest(r->name, r->name_len, names.items, names.count);
    vec_free(&names);
    return near;
}

/* A rename whose old name is no entry: it may have been renamed already. */
static void report_missing_old(assign_ctx *c, const decl_rename *r)
{
    src_loc at = model_rename_loc(c->d, r);
    old_name(c, r, &c->spelled);
    model_rename_key(c->d, r, &c->name_buf);
    uint32_t to = find_old_key(c, c->name_buf.data, c->name_buf.len);
    if (to != UINT32_MAX) {
        const entry *e = &c->m->entries.items[to];
        rename_error(c, at, "'%s' was already renamed to '%s' (value %u): rename that one ('New <- %s')", c->spelled.data,
                     e->name, e->value, e->name);
        return;
    }
    if (!c->m->domain) { /* no manifest: nothing to rename, and the rename line says there was one */
        rename_error(
            c, at,
            "cannot rename '%s': %s has no manifest, so no entry to rename: restore %s.manifest.json from version control (a manifest rebuilt from the injectors forgets renamed and removed entries)",
            c->spelled.data, c->d->name, c->d->name);
        return;
    }
    const char *near = nearest_in_scope(c, r);
    rename_error(c, at, "cannot rename '%s': %s has no entry '%.*s' in %s, live or removed (%s%s%s)", c->spelled.data, c->d->name,
                 (int)r->name_len, r->name, r->scope,
                 near ? "did you mean '" : "an entry of another injector is written Scope.Name", near ? near : "",
                 near ? "'?" : "");
}

/* The declaration's name is free for entry `index`: no other entry has it, as member name or an
 * earlier name, and the header does not reserve it. */
static bool rename_name_free(assign_ctx *c, const decl_rename *r, uint32_t index)
{
    const decl *dc = &c->d->decls.items[r->decl];
    uint32_t slot = find_name(c->m, &c->x, dc->name, dc->name_len);
    src_loc at = rename_at(c, r);
    if (identity_reserved_member(c->d, dc->name, dc->name_len)) {
        rename_error(c, at, "cannot rename to '%.*s': the generated header reserves that name", (int)dc->name_len, dc->name);
        return false;
    }
    if (slot == UINT32_MAX || slot_entry(&c->x, slot) == index) return true;
    const entry *other = &c->m->entries.items[slot_entry(&c->x, slot)];
    uint32_t len;
    const char *held = slot_name(c->m, &c->x, slot, &len);
    rename_error(c, at,
                 "cannot rename to '%.*s': the member name %.*s is %s '%s' (%s, value %u), and renaming would collide with it",
                 (int)dc->name_len, dc->name, (int)len, held, slot & NAME_ALIAS ? "an earlier name of" : "taken by", other->name,
                 other->key, other->value);
    return false;
}

/* The declaration's key is no earlier key of another entry (its own: a rename back). */
static bool rename_key_free(assign_ctx *c, const decl_rename *r, uint32_t index)
{
    uint32_t holder = find_old_key(c, c->key.data, c->key.len);
    if (holder == UINT32_MAX || holder == index) return true;
    const decl *dc = &c->d->decls.items[r->decl];
    const entry *e = &c->m->entries.items[holder];
    rename_error(c, rename_at(c, r),
                 "cannot rename to '%.*s': it is an earlier name of '%s' (value %u), whose old key keeps naming it",
                 (int)dc->name_len, dc->name, e->name, e->value);
    return false;
}

/* Gives entry `index` the declaration's key, name and scope, recording the old key and name. */
static void record_rename(assign_ctx *c, const decl_rename *r, uint32_t index)
{
    const domain *d = c->d;
    const decl *dc = &d->decls.items[r->decl];
    entry *e = &c->m->entries.items[index];
    const entry_alias *back = manifest_renamed_from(e, c->key.data, c->key.len);
    if (back) manifest_drop_alias(e, (uint32_t)(back - e->renamed_from)); /* a rename back */
    manifest_add_alias(c->m, e, e->key, e->key_len, e->name, e->name_len);
    old_name(c, r, &c->spelled);
    if (d->asset_names) /* an asset by its names */
        list_add(&c->renamed, &c->sum->renamed, "%s %s%s -> %s", c->sum->renamed ? "," : "", c->spelled.data,
                 e->tombstone ? " (removed)" : "", d->asset_names[r->decl]);
    else
        list_add(&c->renamed, &c->sum->renamed, "%s %s%s -> %.*s", c->sum->renamed ? "," : "", c->spelled.data,
                 e->tombstone ? " (removed)" : "", (int)dc->name_len, dc->name);
    if (d->kind == KIND_IDENTITY && !e->issued_key) e->issued_key = e->key, e->issued_key_len = e->key_len;
    if (e->issued_key && e->issued_key_len == c->key.len && memcmp(e->issued_key, c->key.data, c->key.len) == 0)
        e->issued_key = NULL;
    index_map_insert(&c->x.old_keys, model_hash(e->key, e->key_len), index);
    const entry_alias *a = &e->renamed_from[e->renamed_count - 1];
    e->key = arena_strndup(&c->m->strings, c->key.data, c->key.len);
    e->key_len = (uint32_t)c->key.len;
    e->name = arena_strndup(&c->m->strings, dc->name, dc->name_len);
    e->name_len = dc->name_len;
    e->scope = intern_scope(c, model_scope(d, dc));
    index_map_insert(&c->x.keys, model_hash(e->key, e->key_len), index);
    e->name_hash = fnv1a_folded(e->name, e->name_len);
    index_map_insert(&c->x.names, e->name_hash, index);
    if (manifest_alias_named(e, a) && find_name(c->m, &c->x, a->name, a->name_len) == UINT32_MAX)
        insert_alias_name(&c->x, index, a->name, a->name_len);
    e->decl = r->decl;
    e->tombstone = false;
    e->change = CHANGE_RENAMED;
}

/* One rename whose declaration's key no entry has yet. */
static void apply_rename(assign_ctx *c, const decl_rename *r)
{
    model_rename_key(c->d, r, &c->spelled);
    probe p = {c->m, c->spelled.data, c->spelled.len, 0, &c->x};
    uint32_t index = index_map_find(&c->x.keys, model_hash(c->spelled.data, c->spelled.len), eq_key, &p);
    if (index == UINT32_MAX) {
        report_missing_old(c, r);
        return;
    }
    const entry *e = &c->m->entries.items[index];
    if (e->decl != UINT32_MAX) {
        src_loc at = model_loc(c->d, &c->d->decls.items[e->decl]);
        old_name(c, r, &c->spelled);
        rename_error(c, model_rename_loc(c->d, r),
                     "cannot rename '%s': it is still declared at %s:%u:%u (a rename replaces the old line)", c->spelled.data,
                     at.file, at.line, at.col);
        return;
    }
    model_key(c->d, &c->d->decls.items[r->decl], &c->key);
    if (rename_name_free(c, r, index) && rename_key_free(c, r, index)) record_rename(c, r, index);
}

/* A declaration whose key an entry has: it takes it. A rename is then already recorded (or its
 * new name is taken); a plain declaration may not take the old key of a renamed entry. */
static bool take_own_entry(assign_ctx *c, uint32_t di)
{
    uint32_t hk, found = find_own_entry(c, di, &hk);
    const decl_rename *r = rename_of(c, di);
    const decl *dc = &c->d->decls.items[di];
    if (found != UINT32_MAX && r) {
        const entry *e = &c->m->entries.items[found];
        model_rename_key(c->d, r, &c->spelled);
        if (manifest_renamed_from(e, c->spelled.data, c->spelled.len)) return take_entry(c->d, c->m, di, found, c->sum), true;
        old_name(c, r, &c->spelled);
        /* The usual way here: generate recorded the new name as an entry of its own before the rename
         * line was written (CI's advice after an unrecorded rename); the base's manifest undoes it. */
        buf undo = {0};
        if (!e->tombstone)
            buf_printf(
                &undo,
                ", or, if this change added '%s' and it has not shipped, restore %s.manifest.json from the base branch and run generate again",
                e->name, c->d->name);
        rename_error(c, rename_at(c, r),
                     "cannot rename '%s' to '%.*s': %s already has the entry '%s' (value %u%s); pick another name%s",
                     c->spelled.data, (int)dc->name_len, dc->name, c->d->name, e->name, e->value, e->tombstone ? ", removed" : "",
                     undo.len ? undo.data : "");
        buf_free(&undo);
        return true;
    }
    if (found != UINT32_MAX) return take_entry(c->d, c->m, di, found, c->sum), true;
    if (r) return false;
    uint32_t to = find_old_key_hashed(c, c->keys[di].text, c->keys[di].len, hk);
    if (to == UINT32_MAX) return false;
    const entry *e = &c->m->entries.items[to];
    rename_error(
        c, model_loc(c->d, dc),
        "'%.*s' was renamed to '%s' (value %u), and its old key names no other entry: declare %s, or rename it back ('%.*s <- %s')",
        (int)dc->name_len, dc->name, e->name, e->value, e->name, (int)dc->name_len, dc->name, e->name);
    return true;
}

/* An asset declaration claims the entry issued to its C spelling, if one was. */
static bool claim_own_spelling(assign_ctx *c, uint32_t di)
{
    c->key.len = 0;
    buf_put(&c->key, c->keys[di].text, c->keys[di].len);
    return claim_spelling_entry(c->d, c->m, &c->x, di, &c->key, &c->spelled, c->sum, &c->upgraded);
}

/* The last pass of match_declarations: each declaration not taken yet takes the entry of its key
 * (a duplicate's), claims its spelling's (an asset) or is added. */
static void match_the_rest(assign_ctx *c, const bool *taken)
{
    const domain *d = c->d;
    size_t n = d->decls.count;
    uint32_t hk;
    for (size_t di = 0; di < n; di++) {
        keys_ready(c, di + LOOKAHEAD + 1 < n ? di + LOOKAHEAD + 1 : n); /* (a new domain's are still being made) */
        if (di + LOOKAHEAD < n && !taken[di + LOOKAHEAD]) prefetch_declaration(c, di + LOOKAHEAD, true);
        if (taken[di]) continue;
        uint32_t found = find_own_entry(c, (uint32_t)di, &hk);
        if (found != UINT32_MAX) take_entry(d, c->m, (uint32_t)di, found, c->sum);
        else if (!d->asset_names || !claim_own_spelling(c, (uint32_t)di)) add_entry(c, (uint32_t)di, hk);
    }
}

/* The rule: a declaration takes the entry of its key (kept, or revived from a tombstone); a rename
 * takes its old entry; an asset may claim an entry issued to its C spelling before keys followed
 * asset names; anything else is added. Assets take the entries of their own keys first, so that an
 * entry is claimed by spelling only when no asset has it as its own key; renames come before
 * additions, so that a new name is not taken by the rename's own line. Old entries nothing took
 * become tombstones. */
static void match_declarations(assign_ctx *c)
{
    const domain *d = c->d;
    size_t n = d->decls.count;
    bool *taken = xcalloc(n ? n : 1, sizeof *taken);
    uint32_t hk;
    /* Without old entries (a new domain) no declaration has an entry yet: the first two passes
     * would find nothing. */
    size_t with_entries = c->old_count ? n : 0;
    for (size_t di = 0; d->asset_names && di < with_entries; di++) {
        prefetch_declaration(c, di + LOOKAHEAD, false);
        uint32_t found = find_own_entry(c, (uint32_t)di, &hk);
        if (found != UINT32_MAX) take_entry(d, c->m, (uint32_t)di, found, c->sum), taken[di] = true;
    }
    for (size_t di = 0; di < with_entries; di++) {
        prefetch_declaration(c, di + LOOKAHEAD, false);
        if (!taken[di]) taken[di] = take_own_entry(c, (uint32_t)di);
    }
    for (size_t i = 0; i < d->renames.count; i++)
        if (!taken[d->renames.items[i].decl]) apply_rename(c, &d->renames.items[i]), taken[d->renames.items[i].decl] = true;
    match_the_rest(c, taken);
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
 * the native), code written for the native's name, such as levels.h's TL_LEVELS_EVENTS_INIT, gets
 * the project's entry. */
static void warn_native_namesake(const domain *d, const decl *pd, const decl *nd, const entry *mine, const entry *native)
{
    const char *what = d->kind == KIND_ORDINAL ? "event" : "entry";
    src_loc at = model_loc(d, nd);
    if (native && (native->name_len != nd->name_len || memcmp(native->name, nd->name, nd->name_len) != 0))
        diag_warning(model_loc(d, pd),
                     "%s '%.*s' has the name of a native %s (%s:%u:%u), which C therefore names %s_%.*s: code written "
                     "for the native (levels.h's TL_LEVELS_EVENTS_INIT) gets this %s instead; rename this one",
                     what, (int)pd->name_len, pd->name, what, at.file, at.line, at.col, d->c_name, (int)native->name_len,
                     native->name, what);
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

/* The end of a likely rename's line: the rename record that would have kept the value, as the
 * injector line writes it (assets have none). */
static void put_rename_hint(assign_ctx *c, const entry *added, const entry *removed)
{
    if (c->d->asset_names || added->decl == UINT32_MAX) {
        buf_puts(&c->pairs, ")\n");
        return;
    }
    const decl *dc = &c->d->decls.items[added->decl];
    bool same_scope = strcmp(added->scope, removed->scope) == 0;
    size_t len; /* the old entry as an injector names it: its member name, unless that was qualified */
    const char *old = unscoped(removed, &len);
    if (ascii_ieq(old, len, removed->name, removed->name_len)) old = removed->name;
    buf_printf(&c->pairs, "; to keep the %s instead, restore the manifest and write '%.*s <- %s%s%.*s')\n",
               c->d->kind == KIND_ORDINAL ? "index" : "value", (int)dc->name_len, dc->name, same_scope ? "" : removed->scope,
               same_scope ? "" : ".", (int)len, old);
}

/* An added entry whose unscoped key is a removed one's, in another scope. */
typedef struct moved_probe {
    const manifest *m;
    const entry *removed;
    const char *name;
    size_t len;
} moved_probe;

static bool eq_moved(const void *ctx, uint32_t j)
{
    const moved_probe *p = ctx;
    const entry *a = &p->m->entries.items[j];
    size_t alen;
    const char *aname = unscoped(a, &alen);
    return alen == p->len && memcmp(aname, p->name, alen) == 0 && strcmp(a->scope, p->removed->scope) != 0;
}

/* The added entries by unscoped key (a domain whose 16,000 entries were all replaced compared every
 * removal with every addition: 256 million comparisons). Sized so that it never grows: the first
 * match of a key in probe order is then the first added. */
static void index_added(const assign_ctx *c, index_map *added)
{
    index_map_init(added, c->m->entries.count - c->old_count);
    for (size_t j = c->old_count; j < c->m->entries.count; j++) {
        size_t len;
        const char *name = unscoped(&c->m->entries.items[j], &len);
        index_map_insert(added, fnv1a(name, len), (uint32_t)j);
    }
}

static bool pair_shown(const assign_ctx *c) { return c->sum->renames + c->sum->rescopes < SHOWN_ONE_BY_ONE; }

/* A removal whose unscoped name was added in another scope (the first such addition): a rescope,
 * for the summary. */
static bool report_rescope(assign_ctx *c, const index_map *added, const entry *r, const char *fate)
{
    moved_probe p = {c->m, r, NULL, 0};
    p.name = unscoped(r, &p.len);
    uint32_t j = index_map_find(added, fnv1a(p.name, p.len), eq_moved, &p);
    if (j == UINT32_MAX) return false;
    const entry *a = &c->m->entries.items[j];
    if (pair_shown(c)) {
        buf_printf(&c->pairs, "  rescope: '%s' moved from %s to %s (value %u -> %u; %s", r->name, r->scope, a->scope, r->value,
                   a->value, fate);
        put_rename_hint(c, a, r);
    }
    c->sum->rescopes++;
    return true;
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
    index_map added;
    index_added(c, &added);
    for (size_t i = 0; i < c->old_count; i++) {
        const entry *r = &c->m->entries.items[i];
        if (r->change != CHANGE_REMOVED || report_rescope(c, &added, r, fate)) continue;
        for (; next_added < c->m->entries.count; next_added++) {
            const entry *a = &c->m->entries.items[next_added];
            if (strcmp(a->scope, r->scope) != 0) continue;
            if (pair_shown(c)) {
                buf_printf(&c->pairs, "  likely rename in %s: '%s' -> '%s' (a rename is a removal plus an addition: %s", r->scope,
                           r->name, a->name, fate);
                put_rename_hint(c, a, r);
            }
            c->sum->renames++;
            next_added++;
            break;
        }
    }
    if (c->sum->renames + c->sum->rescopes > SHOWN_ONE_BY_ONE)
        buf_printf(&c->pairs, "  (and %zu more likely renames and rescopes)\n",
                   c->sum->renames + c->sum->rescopes - SHOWN_ONE_BY_ONE);
    index_map_free(&added);
}

/* The pass's summary: quiet when nothing changed. */
static void write_summary(assign_ctx *c)
{
    identity_summary *sum = c->sum;
    const domain *d = c->d;
    if (!(sum->added || sum->removed || sum->revived || sum->renamed || sum->upgraded || c->signatures.len || c->collisions.len))
        return;
    buf_printf(&sum->text, "%s: %zu added, %zu removed%s, %zu revived", d->name, sum->added, sum->removed,
               d->kind == KIND_ORDINAL ? "" : " (tombstoned)", sum->revived);
    if (sum->renamed) buf_printf(&sum->text, ", %zu renamed", sum->renamed);
    buf_putc(&sum->text, '\n');
    list_names(&sum->text, "added", c->m, CHANGE_ADDED, sum->added);
    list_names(&sum->text, d->kind == KIND_ORDINAL ? "removed" : "tombstoned", c->m, CHANGE_REMOVED, sum->removed);
    list_names(&sum->text, "revived", c->m, CHANGE_REVIVED, sum->revived);
    finish_list(&sum->text, sum->renamed, "renamed", "renamed", &c->renamed,
                d->kind == KIND_ORDINAL ? " (indices kept; each old name stays as a deprecated alias)"
                                        : " (values kept; each old name stays as a deprecated alias)");
    finish_list(&sum->text, sum->rewritten, "name rewritten for C", "names rewritten for C", &c->rewritten, "");
    finish_list(&sum->text, sum->upgraded, "key upgraded", "keys upgraded", &c->upgraded,
                " to asset names (ids and member names kept)");
    if (c->pairs.len) buf_put(&sum->text, c->pairs.data, c->pairs.len);
    if (c->signatures.len) buf_put(&sum->text, c->signatures.data, c->signatures.len);
    if (c->collisions.len) {
        buf_put(&sum->text, c->collisions.data, c->collisions.len);
        buf_put(&sum->collisions, c->collisions.data, c->collisions.len);
    }
}

static void assign_free(assign_ctx *c)
{
    buf *bufs[] = {&c->collisions, &c->name_buf,   &c->key,   &c->spelled, &c->rewritten,
                   &c->upgraded,   &c->signatures, &c->pairs, &c->renamed};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) buf_free(bufs[i]);
    free(c->rename_of);
    free(c->keys);
    index_free(&c->x);
}

bool identity_assign(const domain *d, manifest *m, const char *path, unsigned jobs, identity_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    assign_ctx c = {.d = d, .m = m, .sum = sum, .old_count = m->entries.count};
    if (!index_manifest(d, m, path, d->decls.count, &c.x)) {
        index_free(&c.x);
        return false;
    }
    assign_prepare(&c);
    hash_declaration_keys(&c, jobs);
    /* Only a new domain without renames is matched while its keys are made: the other passes
     * look any declaration up. */
    if (c.old_count || d->renames.count) keys_finish(&c);
    if (prepare_renames(&c)) match_declarations(&c);
    keys_finish(&c);
    if (sum->duplicates > SHOWN_ONE_BY_ONE)
        diag_warning(sum->duplicates_unshown,
                     "%zu more duplicate entries of %s ignored from here on (the first %d are warned about one by one)",
                     sum->duplicates - SHOWN_ONE_BY_ONE, d->name, (int)SHOWN_ONE_BY_ONE);
    if (sum->input_errors) {
        assign_free(&c);
        return false;
    }
    warn_native_namesakes(&c);
    record_signatures(&c);
    report_renames(&c);
    write_summary(&c);
    assign_free(&c);
    return true;
}

void identity_summary_free(identity_summary *s)
{
    buf_free(&s->text);
    buf_free(&s->collisions);
}

void identity_note_collisions(const identity_summary *sum, const char *manifest_path)
{
    const char *line = sum->collisions.data, *end = line + sum->collisions.len;
    while (line < end) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        while (n && *line == ' ') line++, n--;
        diag_note(loc_file(manifest_path), "%.*s", (int)n, line);
        line += n + 1;
    }
}

bool identity_report_unrecorded(const domain *d, const identity_summary *sum, const char *manifest_path, bool strict)
{
    if (!sum->added && !sum->removed && !sum->revived && !sum->signature_changes && !sum->renamed) return true;
    void (*report)(src_loc, const char *, ...) = strict ? diag_error : diag_warning;
    if (sum->renamed) {
        report(
            loc_file(manifest_path),
            "changes to %s not recorded in the manifest (%zu added, %zu removed, %zu revived, %zu renamed): run %s to record them",
            d->name, sum->added, sum->removed, sum->revived, sum->renamed, diag_generate_command());
    } else if (!sum->removed && !sum->revived && !sum->signature_changes) {
        report(loc_file(manifest_path), "%zu new entr%s of %s not recorded in the manifest: run %s to record %zu new entr%s",
               sum->added, sum->added == 1 ? "y" : "ies", d->name, diag_generate_command(), sum->added,
               sum->added == 1 ? "y" : "ies");
    } else {
        report(
            loc_file(manifest_path),
            "changes to %s not recorded in the manifest (%zu added, %zu removed, %zu revived, %zu signature%s changed): run %s to record them",
            d->name, sum->added, sum->removed, sum->revived, sum->signature_changes, sum->signature_changes == 1 ? "" : "s",
            diag_generate_command());
    }
    identity_note_collisions(sum, manifest_path);
    return !strict;
}
