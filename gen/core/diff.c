/* Manifest comparison. Both sides are read with the manifest reader and checked like generate
 * checks them; domains are matched by name, entries by key.
 *
 *   change          breaking   when
 *   added           no         a key only NEW has
 *   tombstoned      no         identity: live in OLD, tombstone in NEW
 *   revived         no         tombstone in OLD, live in NEW
 *   rescoped        no         tombstoned in one scope, added in another (same unscoped name)
 *   renamed         no         a recorded rename ("New <- Old"): NEW's entry records OLD's key in
 *                              renamed_from; the value is kept (a rename to another injector too)
 *   unrecorded rename yes      a removal and an addition in one scope, no rename record: the old
 *                              value is gone for code (tombstone) or retired (ordinal); the report
 *                              names the injector line that would have kept it
 *   value changed   yes        identity: same key, other value
 *   ordinal moved   yes        ordinal: same key, other index
 *   ordinal removed yes        ordinal: live in OLD, retired or gone in NEW
 *   renamed member  yes        same key, other C name
 *   signature changed yes      event: live on both sides, other signature (when both record one)
 *   tombstone dropped yes      a key OLD has and NEW lacks
 *   kind changed    yes        the domain changed between identity and ordinal
 *   domain removed  yes        a domain only OLD has
 *   domain added    no         a domain only NEW has */
#include "core/diff.h"

#include "core/config.h"
#include "base/diag.h"
#include "base/fsio.h"
#include "core/identity.h"
#include "base/index_map.h"
#include "core/manifest.h"
#include "core/model.h"
#include "base/suggest.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

typedef struct side_manifest {
    char *path;
    manifest m;
    index_map keys;    /* entry index by key */
    index_map issued;  /* entry index by issued_key, for the entries that have one */
    index_map renamed; /* entry index by each key it was renamed from */
} side_manifest;

/* A file of an extra part (diff_extra) found below a side's directory. */
typedef struct extra_file {
    char *rel, *path; /* below the side's directory; as reached from here */
    size_t part;      /* index in diff_options.extras */
} extra_file;

/* One side of the comparison: its domain manifests, and the files of the extra parts. */
typedef struct side {
    side_manifest *items;
    size_t count, cap;
    VEC(extra_file) extras;
} side;

typedef diff_class change_kind;
#define CH_ADDED DIFF_ADDED
#define CH_TOMBSTONED DIFF_TOMBSTONED
#define CH_REVIVED DIFF_REVIVED
#define CH_RESCOPED DIFF_RESCOPED
#define CH_VALUE_CHANGED DIFF_VALUE_CHANGED
#define CH_ORDINAL_MOVED DIFF_ORDINAL_MOVED
#define CH_ORDINAL_REMOVED DIFF_ORDINAL_REMOVED
#define CH_RENAMED DIFF_MEMBER_RENAMED
#define CH_SIGNATURE_CHANGED DIFF_SIGNATURE_CHANGED
#define CH_TOMBSTONE_DROPPED DIFF_TOMBSTONE_DROPPED
#define CH_KIND_CHANGED DIFF_KIND_CHANGED
#define CH_DOMAIN_REMOVED DIFF_DOMAIN_REMOVED
#define CH_DOMAIN_ADDED DIFF_DOMAIN_ADDED
#define CH_RENAME_RECORDED DIFF_RENAME_RECORDED
#define CH_UNRECORDED_RENAME DIFF_UNRECORDED_RENAME

/* breaking: fails the check unless approved. Of the rest, a rescope is a warning: compatible (the
 * old value stays a tombstone), but a live entry's value changed, which a move rarely means to. */
static const struct {
    const char *id, *label;
    bool breaking;
} change_info[] = {
    {"added", "added", false},
    {"tombstoned", "tombstoned (removed)", false},
    {"revived", "revived", false},
    {"rescoped", "rescoped", false},
    {"value_changed", "value changed", true},
    {"ordinal_moved", "ordinal moved", true},
    {"ordinal_removed", "ordinal removed", true},
    {"renamed_member", "member renamed", true},
    {"signature_changed", "signature changed", true},
    {"tombstone_dropped", "tombstone dropped", true},
    {"kind_changed", "kind changed", true},
    {"domain_removed", "domain removed", true},
    {"domain_added", "domain added", false},
    {"renamed", "renamed (recorded: value kept)", false},
    {"unrecorded_rename", "removed while another entry was added in its scope (an unrecorded rename?)", true},
    {"vault_added", "vault added", false},
    {"vault_removed", "vault removed", true},
    {"vault_renamed", "vault renamed", true},
    {"field_added", "field added", false},
    {"field_removed", "field removed", true},
    {"field_renamed", "field renamed (its id kept)", false},
    {"field_type_changed", "field type changed", true},
    {"capacity_shrunk", "capacity shrunk", true},
    {"capacity_grown", "capacity grown", false},
    {"catalog_changed", "asset catalog changed", true},
    {"backing_to_transient", "backing changed to transient", true},
    {"backing_to_serialised", "backing changed to serialised", false},
    {"default_changed", "default changed", false},
    {"instance_added", "instance added", false},
    {"instance_removed", "instance removed", true},
    {"instance_key_removed", "instance's key entry removed", true},
    {"asset_missing", "asset reference to a removed asset", true},
};
_Static_assert(sizeof change_info / sizeof *change_info == DIFF_CLASS_COUNT, "a row per diff_class");

typedef struct change {
    change_kind kind;
    const char *domain;
    const char *key; /* NULL for domain-level changes */
    const entry *old_e, *new_e;
    const char *file; /* the manifest line the change points at */
    uint32_t line, col;
    bool approved;
    bool moved; /* a removal whose unscoped key was added in another scope: a rescope, no rename */
    char detail[320];
    const char *long_detail; /* a vault change's (in change_list.strings), else NULL */
    const char *name;        /* a vault change's field name, else NULL */
} change;

/* The changes found, and the strings of those found beyond identifier domains. */
typedef struct change_list {
    change *items;
    size_t count, cap;
    arena strings;
} change_list;

static const char *detail_of(const change *c) { return c->long_detail ? c->long_detail : c->detail; }
typedef VEC(char *) str_list;

/* One approval, from --allow or a line of the allow-file. */
typedef struct allow_entry {
    char *text;
    uint32_t line, col; /* where it sits in the allow-file; 0 for --allow */
    bool used;          /* it approved at least one breaking change */
} allow_entry;

typedef VEC(allow_entry) allow_list;

typedef struct key_probe {
    const manifest *m;
    const char *key;
    size_t len;
} key_probe;

static bool eq_key(const void *ctx, uint32_t i)
{
    const key_probe *p = ctx;
    const entry *e = &p->m->entries.items[i];
    return e->key_len == p->len && memcmp(e->key, p->key, p->len) == 0;
}

static bool eq_renamed(const void *ctx, uint32_t i)
{
    const key_probe *p = ctx;
    return manifest_renamed_from(&p->m->entries.items[i], p->key, p->len) != NULL;
}

static bool eq_issued(const void *ctx, uint32_t i)
{
    const key_probe *p = ctx;
    const entry *e = &p->m->entries.items[i];
    return e->issued_key_len == p->len && memcmp(e->issued_key, p->key, p->len) == 0;
}

/* Indexes a manifest by key (and by issued key), checking what the comparison relies on: every
 * key once, and every identity value the hash of its key, or of its issued key when it has one
 * (so a hand-edited value is an error, not a "change"). */
static bool index_keys(side_manifest *sm)
{
    const manifest *m = &sm->m;
    index_map_init(&sm->keys, m->entries.count);
    index_map_init(&sm->issued, 1);
    index_map_init(&sm->renamed, 1);
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        const char *hashed = e->issued_key ? e->issued_key : e->key;
        uint32_t hashed_len = e->issued_key ? e->issued_key_len : e->key_len;
        if (m->kind == KIND_IDENTITY && identity_hash(hashed, hashed_len, e->seed_offset) != e->value) {
            diag_error(
                loc_at(sm->path, e->line, 0),
                "entry '%s': value %u is not the hash of its %s under seed offset %u (the manifest was edited by hand or corrupted)",
                e->key, e->value, e->issued_key ? "issued key" : "key", e->seed_offset);
            return false;
        }
        if (e->issued_key) index_map_insert(&sm->issued, model_hash(e->issued_key, e->issued_key_len), (uint32_t)i);
        for (uint32_t k = 0; k < e->renamed_count; k++)
            index_map_insert(&sm->renamed, model_hash(e->renamed_from[k].key, e->renamed_from[k].key_len), (uint32_t)i);
        key_probe p = {m, e->key, e->key_len};
        uint32_t h = model_hash(e->key, e->key_len);
        uint32_t dup = index_map_find(&sm->keys, h, eq_key, &p);
        if (dup != UINT32_MAX) {
            diag_error(loc_at(sm->path, e->line, 0), "entry '%s' appears twice (also on line %u)", e->key,
                       m->entries.items[dup].line);
            return false;
        }
        index_map_insert(&sm->keys, h, (uint32_t)i);
    }
    return true;
}

static bool read_one(const char *path, side *out)
{
    int fd = fs_open_input(path, FS_INPUT_MANIFEST, NULL);
    if (fd < 0) {
        diag_error(loc_file(path), "cannot read: %s", fs_read_failure());
        return false;
    }
    side_manifest sm = {xstrdup(path), {0}, {0}, {0}, {0}};
    bool ok = manifest_read_fd(path, fd, 0, &sm.m);
    close(fd);
    if (ok && !index_keys(&sm)) {
        manifest_free(&sm.m);
        ok = false;
    }
    if (!ok) index_map_free(&sm.keys), index_map_free(&sm.issued), index_map_free(&sm.renamed);
    if (!ok) {
        free(sm.path);
        return false;
    }
    for (size_t i = 0; i < out->count; i++)
        if (strcmp(out->items[i].m.domain, sm.m.domain) == 0) {
            diag_error(loc_file(path), "a second manifest for domain '%s' (the first is %s)", sm.m.domain, out->items[i].path);
            manifest_free(&sm.m);
            index_map_free(&sm.keys);
            index_map_free(&sm.issued);
            index_map_free(&sm.renamed);
            free(sm.path);
            return false;
        }
    *vec_push(out) = sm;
    return true;
}

/* A file named like an extra part's: remembered with its path below the side's directory. */
static void note_extra(const diff_options *opt, const char *rel_dir, const char *name, const char *path, side *out)
{
    for (size_t k = 0; opt->extras && opt->extras[k]; k++)
        if (strcmp(name, opt->extras[k]->file_name) == 0)
            *vec_push(&out->extras) = (extra_file){rel_dir ? path_join(rel_dir, name) : xstrdup(name), xstrdup(path), k};
}

static bool read_dir(const diff_options *opt, const char *dir, const char *rel_dir, side *out, int depth)
{
    name_list names = {0};
    if (depth > 32) {
        diag_error(loc_file(dir), "directories nested more than 32 deep: not a manifest set");
        return false;
    }
    if (!fs_list_dir(dir, &names)) {
        diag_error(loc_file(dir), "cannot read the directory: %s", strerror(errno));
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < names.count && ok; i++) {
        char *path = path_join(dir, names.items[i]);
        char *rel = rel_dir ? path_join(rel_dir, names.items[i]) : xstrdup(names.items[i]);
        fs_kind k = fs_kind_of(path);
        if (k == FS_DIR && names.items[i][0] != '.') ok = read_dir(opt, path, rel, out, depth + 1);
        else if (k == FS_FILE && str_has_suffix(names.items[i], ".manifest.json", NULL)) ok = read_one(path, out);
        else if (k == FS_FILE) note_extra(opt, rel_dir, names.items[i], path, out);
        free(rel);
        free(path);
    }
    name_list_free(&names);
    return ok;
}

static bool read_side(const diff_options *opt, const char *path, side *out)
{
    fs_kind k = fs_kind_follow(path);
    if (k == FS_FILE && strcmp(path_basename(path), "vault-manifest.json") == 0) {
        diag_error(loc_file(path),
                   "a vault manifest is compared as part of its generated directory: give diff the two directories");
        return false;
    }
    if (k == FS_FILE || k == FS_OTHER) return read_one(path, out); /* a FIFO or the like: refused there, saying what it is */
    if (k != FS_DIR) {
        diag_error(loc_file(path), "no such manifest file or directory");
        return false;
    }
    if (!read_dir(opt, path, NULL, out, 0)) return false;
    /* On either side: an empty OLD would make every domain "added", so a wrong base path would pass
     * any change. A base without manifests is treated like a missing one, which is exit 2 too. */
    if (out->count == 0) {
        diag_error(loc_file(path), "no manifests in this directory (no *.manifest.json in it or below)");
        return false;
    }
    return true;
}

static void free_side(side *s)
{
    for (size_t i = 0; i < s->extras.count; i++) free(s->extras.items[i].rel), free(s->extras.items[i].path);
    vec_free(&s->extras);
    for (size_t i = 0; i < s->count; i++) {
        manifest_free(&s->items[i].m);
        index_map_free(&s->items[i].keys);
        index_map_free(&s->items[i].issued);
        index_map_free(&s->items[i].renamed);
        free(s->items[i].path);
    }
    vec_free(s);
}

static const entry *find_key(const manifest *m, const index_map *map, const char *key, size_t len)
{
    key_probe p = {m, key, len};
    uint32_t i = index_map_find(map, model_hash(key, len), eq_key, &p);
    return i == UINT32_MAX ? NULL : &m->entries.items[i];
}

/* The entry of `m` whose issued key is `key`: an asset entry whose key was upgraded to its name. */
static const entry *find_issued(const side_manifest *sm, const char *key, size_t len)
{
    key_probe p = {&sm->m, key, len};
    uint32_t i = index_map_find(&sm->issued, model_hash(key, len), eq_issued, &p);
    return i == UINT32_MAX ? NULL : &sm->m.entries.items[i];
}

/* The entry of NEW renamed from `key` (a rename record), or NULL. */
static const entry *find_renamed(const side_manifest *sm, const char *key, size_t len)
{
    key_probe p = {&sm->m, key, len};
    uint32_t i = index_map_find(&sm->renamed, model_hash(key, len), eq_renamed, &p);
    return i == UINT32_MAX ? NULL : &sm->m.entries.items[i];
}

/* What OLD entry `o` became in NEW: the entry issued for its key (upgraded since), or renamed
 * from it, else the one with its key. A newcomer may hold the old key of an upgraded entry; it is
 * not `o`. */
static const entry *match_new(const side_manifest *ns, const entry *o)
{
    const entry *n = find_issued(ns, o->key, o->key_len);
    if (!n) n = find_renamed(ns, o->key, o->key_len);
    return n ? n : find_key(&ns->m, &ns->keys, o->key, o->key_len);
}

/* Whether NEW entry `n` is the match of some OLD entry: by its key, its issued key, or a key it
 * was renamed from. */
static bool matched_in_old(const side_manifest *os, const side_manifest *ns, const entry *n)
{
    const entry *o = find_key(&os->m, &os->keys, n->key, n->key_len);
    if (o && match_new(ns, o) == n) return true;
    o = n->issued_key ? find_key(&os->m, &os->keys, n->issued_key, n->issued_key_len) : NULL;
    if (o && match_new(ns, o) == n) return true;
    for (uint32_t k = 0; k < n->renamed_count; k++) {
        o = find_key(&os->m, &os->keys, n->renamed_from[k].key, n->renamed_from[k].key_len);
        if (o && match_new(ns, o) == n) return true;
    }
    return false;
}

static change *add_change(change_list *out, change_kind kind, const char *domain, const entry *o, const entry *n,
                          const char *file, uint32_t line)
{
    change *c = vec_push(out);
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->domain = domain;
    c->key = n ? n->key : o ? o->key : NULL;
    c->old_e = o;
    c->new_e = n;
    c->file = file;
    c->line = line;
    return c;
}

static const char *unscoped_key(const entry *e) { return strchr(e->key, '.') + 1; }

typedef struct rescope_ctx {
    const change_list *changes;
    size_t first_added;
    const char *name;
} rescope_ctx;

static uint32_t added_name_hash(const void *ctx, uint32_t i)
{
    const rescope_ctx *rx = ctx;
    const char *n = unscoped_key(rx->changes->items[rx->first_added + i].new_e);
    return model_hash(n, strlen(n));
}

static bool added_name_eq(const void *ctx, uint32_t i)
{
    const rescope_ctx *rx = ctx;
    return strcmp(unscoped_key(rx->changes->items[rx->first_added + i].new_e), rx->name) == 0;
}

/* The changes between an old entry and the new entry it matched. */
static void compare_entry(const side_manifest *ns, bool ordinal, const entry *o, const entry *n, change_list *out)
{
    const char *dom = ns->m.domain;
    if (o->value != n->value) {
        change *c = add_change(out, ordinal ? CH_ORDINAL_MOVED : CH_VALUE_CHANGED, dom, o, n, ns->path, n->line);
        snprintf(c->detail, sizeof c->detail, "%u -> %u", o->value, n->value);
    }
    if (strcmp(o->key, n->key) != 0 && manifest_renamed_from(n, o->key, o->key_len)) {
        change *c = add_change(out, CH_RENAME_RECORDED, dom, o, n, ns->path, n->line);
        snprintf(c->detail, sizeof c->detail, "from %.60s, key %.80s", o->name, o->key);
    } else if (strcmp(o->name, n->name) != 0) {
        change *c = add_change(out, CH_RENAMED, dom, o, n, ns->path, n->line);
        snprintf(c->detail, sizeof c->detail, "%.70s -> %.70s", o->name, n->name);
    }
    if (!o->tombstone && !n->tombstone && o->signature && n->signature && strcmp(o->signature, n->signature) != 0) {
        change *c = add_change(out, CH_SIGNATURE_CHANGED, dom, o, n, ns->path, n->line);
        snprintf(c->detail, sizeof c->detail, "from %.70s to %.70s", o->signature, n->signature);
    }
    if (!o->tombstone && n->tombstone)
        add_change(out, ordinal ? CH_ORDINAL_REMOVED : CH_TOMBSTONED, dom, o, n, ns->path, n->line);
    else if (o->tombstone && !n->tombstone) add_change(out, CH_REVIVED, dom, o, n, ns->path, n->line);
}

/* A removal (out[first_removed, first_added)) and an addition (out[first_added, ...)) of one
 * unscoped name in different scopes is a rescope: the addition says so. */
static void find_rescopes(change_list *out, size_t first_removed, size_t first_added)
{
    rescope_ctx rx = {out, first_added, NULL};
    index_map added;
    index_map_init(&added, out->count - first_added);
    for (size_t a = first_added; a < out->count; a++)
        index_map_insert(&added, added_name_hash(&rx, (uint32_t)(a - first_added)), (uint32_t)(a - first_added));
    for (size_t r = first_removed; r < first_added; r++) {
        change *rc = &out->items[r];
        if (rc->kind != CH_TOMBSTONED && rc->kind != CH_ORDINAL_REMOVED) continue;
        rx.name = unscoped_key(rc->old_e);
        uint32_t a = index_map_find(&added, model_hash(rx.name, strlen(rx.name)), added_name_eq, &rx);
        if (a == UINT32_MAX) continue;
        change *ac = &out->items[first_added + a];
        if (strcmp(ac->new_e->scope, rc->old_e->scope) != 0 && !ac->detail[0]) {
            ac->kind = CH_RESCOPED;
            snprintf(
                ac->detail, sizeof ac->detail,
                "from %.40s, old key %.60s; its value changed: to keep it, restore the base's manifest and write '%.40s <- %.40s.%.40s'",
                rc->old_e->scope, rc->old_e->key, rc->old_e->name, rc->old_e->scope, rc->old_e->name);
            rc->moved = true;
        }
    }
    index_map_free(&added);
}

/* The first unpaired addition of one scope, and each addition's next one in that scope. */
typedef struct scope_head {
    const char *scope;
    size_t head; /* change index, SIZE_MAX for none left */
} scope_head;

typedef VEC(scope_head) scope_heads;

typedef struct scope_probe {
    const scope_heads *heads;
    const char *scope;
} scope_probe;

static bool eq_scope(const void *ctx, uint32_t i)
{
    const scope_probe *p = ctx;
    return strcmp(p->heads->items[i].scope, p->scope) == 0;
}

/* How an entry is named in an injector line: its member name, unless that was qualified for a
 * collision (then the key's name part). */
static const char *injector_name(const entry *e)
{
    const char *tail = unscoped_key(e);
    return ascii_ieq(tail, strlen(tail), e->name, e->name_len) ? e->name : tail;
}

/* A removal (tombstoned, or an ordinal removed) and an addition in one scope, without a rename
 * record between them: the removal becomes an unrecorded rename, breaking, paired with additions
 * in order, each addition once. The detail names the line that keeps the value. */
static void find_unrecorded_renames(change_list *out, size_t first_removed, size_t first_added)
{
    scope_heads heads = {0};
    index_map by_scope;
    index_map_init(&by_scope, 16);
    size_t *next = xmalloc((out->count - first_added + 1) * sizeof *next);
    for (size_t a = out->count; a-- > first_added;) {
        const change *ac = &out->items[a];
        if (ac->kind != CH_ADDED) continue;
        scope_probe p = {&heads, ac->new_e->scope};
        uint32_t h = model_hash(p.scope, strlen(p.scope)), i = index_map_find(&by_scope, h, eq_scope, &p);
        if (i == UINT32_MAX) {
            *vec_push(&heads) = (scope_head){ac->new_e->scope, SIZE_MAX};
            index_map_insert(&by_scope, h, i = (uint32_t)(heads.count - 1));
        }
        next[a - first_added] = heads.items[i].head;
        heads.items[i].head = a;
    }
    for (size_t r = first_removed; r < first_added && heads.count; r++) {
        change *rc = &out->items[r];
        if ((rc->kind != CH_TOMBSTONED && rc->kind != CH_ORDINAL_REMOVED) || rc->moved) continue;
        scope_probe p = {&heads, rc->old_e->scope};
        uint32_t i = index_map_find(&by_scope, model_hash(p.scope, strlen(p.scope)), eq_scope, &p);
        if (i == UINT32_MAX || heads.items[i].head == SIZE_MAX) continue;
        const entry *added = out->items[heads.items[i].head].new_e;
        heads.items[i].head = next[heads.items[i].head - first_added];
        bool ordinal = rc->kind == CH_ORDINAL_REMOVED;
        rc->kind = CH_UNRECORDED_RENAME;
        if (strncmp(rc->domain, "Content.", 8) == 0) /* a content profile's assets: their own names */
            snprintf(
                rc->detail, sizeof rc->detail,
                "%.30s added; '%.30s <- %.30s' in .content-renames keeps the id (restore the base's manifest, add the line, run generate)",
                added->name, unscoped_key(added), unscoped_key(rc->old_e));
        else /* generate recorded the new name as an entry of its own: the base's manifest undoes it */
            snprintf(
                rc->detail, sizeof rc->detail,
                "%.30s added; a rename record keeps the %s: restore the base's manifest, write '%.30s <- %.30s', run generate",
                added->name, ordinal ? "index" : "value", injector_name(added), injector_name(rc->old_e));
    }
    free(next);
    index_map_free(&by_scope);
    vec_free(&heads);
}

static void compare_domain(const side_manifest *os, const side_manifest *ns, change_list *out)
{
    const manifest *om = &os->m, *nm = &ns->m;
    const char *dom = nm->domain;
    if (om->kind != nm->kind) {
        change *c = add_change(out, CH_KIND_CHANGED, dom, NULL, NULL, ns->path, 0);
        snprintf(c->detail, sizeof c->detail, "from %s to %s", om->kind == KIND_ORDINAL ? "ordinal" : "identity",
                 nm->kind == KIND_ORDINAL ? "ordinal" : "identity");
        return; /* every value means something else now: per-entry changes would be noise */
    }
    bool ordinal = nm->kind == KIND_ORDINAL;
    size_t first_removed = out->count;
    for (size_t i = 0; i < om->entries.count; i++) {
        const entry *o = &om->entries.items[i];
        const entry *n = match_new(ns, o);
        if (n) {
            compare_entry(ns, ordinal, o, n, out);
            continue;
        }
        change_kind k = o->tombstone || !ordinal ? CH_TOMBSTONE_DROPPED : CH_ORDINAL_REMOVED;
        add_change(out, k, dom, o, NULL, os->path, o->line);
    }
    size_t first_added = out->count;
    for (size_t i = 0; i < nm->entries.count; i++) {
        const entry *n = &nm->entries.items[i];
        if (!matched_in_old(os, ns, n)) add_change(out, CH_ADDED, dom, NULL, n, ns->path, n->line);
    }
    find_rescopes(out, first_removed, first_added);
    find_unrecorded_renames(out, first_removed, first_added);
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Where the entry of the line [p, e) ends: at a '#' or '//' that starts the line or follows a
 * blank (a comment), else at the line's end. */
static const char *entry_end(const char *p, const char *e)
{
    for (const char *s = p; s < e; s++)
        if ((s == p || is_blank(s[-1])) && (*s == '#' || (*s == '/' && s + 1 < e && s[1] == '/'))) return s;
    return e;
}

static void load_allow_file(const char *path, allow_list *out, bool *ok)
{
    buf text = {0};
    if (!fs_read_input(path, FS_INPUT_ALLOW, &text)) {
        diag_error(loc_file(path), "cannot read the allow-list: %s", fs_read_failure());
        *ok = false;
        buf_free(&text);
        return;
    }
    const char *p = text.data, *end = p ? p + text.len : NULL;
    const char *nul = p ? memchr(p, '\0', text.len) : NULL;
    if (nul) { /* a line cut there would approve what its reviewers cannot read */
        uint32_t line = 1, col = 1;
        for (const char *c = p; c < nul; c++) {
            if (*c == '\n') line++, col = 1;
            else col++;
        }
        diag_error(loc_at(path, line, col), "a NUL byte: an allow-file is text (one approval a line), as its reviewers read it");
        *ok = false;
        buf_free(&text);
        return;
    }
    for (uint32_t line = 1; p && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *s = p, *q = entry_end(p, nl ? nl : end);
        while (s < q && is_blank(*s)) s++;
        while (q > s && (is_blank(q[-1]) || q[-1] == '\r')) q--;
        if (q > s) *vec_push(out) = (allow_entry){xstrndup(s, (size_t)(q - s)), line, (uint32_t)(s - p) + 1, false};
        p = nl ? nl + 1 : NULL;
    }
    buf_free(&text);
}

/* The approvals by their text, "key" ones apart from "Domain:..." ones (a key may hold a colon),
 * each text once with its repeats chained: a change finds the approvals that cover it in three
 * lookups (each change against every approval took 1.4 s at 20,000 of each). */
typedef struct allow_index {
    const allow_list *allow;
    index_map bare, scoped;
    uint32_t *next_same; /* the next approval of the same text, or UINT32_MAX */
} allow_index;

typedef struct allow_probe {
    const allow_list *allow;
    const char *text;
    size_t len;
} allow_probe;

static bool allow_text_eq(const void *ctx, uint32_t i)
{
    const allow_probe *p = ctx;
    const char *t = p->allow->items[i].text;
    return strncmp(t, p->text, p->len) == 0 && t[p->len] == 0;
}

static uint32_t allow_find(const index_map *m, const allow_list *allow, const char *text, size_t len)
{
    allow_probe probe = {allow, text, len};
    return index_map_find(m, XXH32(text, len, 0), allow_text_eq, &probe);
}

static void allow_index_build(allow_index *ix, const allow_list *allow)
{
    ix->allow = allow;
    index_map_init(&ix->bare, allow->count);
    index_map_init(&ix->scoped, allow->count);
    ix->next_same = xmalloc((allow->count + 1) * sizeof *ix->next_same);
    for (size_t i = 0; i < allow->count; i++) {
        const char *t = allow->items[i].text;
        index_map *m = strchr(t, ':') ? &ix->scoped : &ix->bare;
        uint32_t first = allow_find(m, allow, t, strlen(t));
        ix->next_same[i] = first == UINT32_MAX ? UINT32_MAX : ix->next_same[first];
        if (first == UINT32_MAX) index_map_insert(m, XXH32(t, strlen(t), 0), (uint32_t)i);
        else ix->next_same[first] = (uint32_t)i;
    }
}

static void allow_index_free(allow_index *ix)
{
    index_map_free(&ix->bare);
    index_map_free(&ix->scoped);
    free(ix->next_same);
}

/* Marks the approvals of this text used, if any: whether there were. */
static bool mark_used(const allow_index *ix, const index_map *m, const char *text, size_t len)
{
    uint32_t i = allow_find(m, ix->allow, text, len);
    for (uint32_t k = i; k != UINT32_MAX; k = ix->next_same[k]) ix->allow->items[k].used = true;
    return i != UINT32_MAX;
}

/* Marks every approval that covers the change ("key", "Domain:key" or "Domain:*"), not only the
 * first, so none is reported unused. */
static bool approve(const change *c, const allow_index *ix)
{
    buf scoped = {0};
    buf_printf(&scoped, "%s:*", c->domain);
    bool any = mark_used(ix, &ix->scoped, scoped.data, scoped.len);
    if (c->key) {
        any |= mark_used(ix, &ix->bare, c->key, strlen(c->key));
        scoped.len -= 1;
        buf_puts(&scoped, c->key);
        any |= mark_used(ix, &ix->scoped, scoped.data, scoped.len);
    }
    buf_free(&scoped);
    return any;
}

/* The unapproved breaks in each form an approval takes: "key", "Domain:key", "Domain:*". */
typedef struct break_names {
    str_list forms[3];
} break_names;

static void break_names_build(break_names *n, const change_list *changes)
{
    *n = (break_names){0};
    for (size_t i = 0; i < changes->count; i++) {
        const change *c = &changes->items[i];
        if (!change_info[c->kind].breaking || c->approved) continue;
        *vec_push(&n->forms[2]) = xasprintf("%s:*", c->domain);
        if (!c->key) continue;
        *vec_push(&n->forms[0]) = xstrdup(c->key);
        *vec_push(&n->forms[1]) = xasprintf("%s:%s", c->domain, c->key);
    }
}

static void break_names_free(break_names *n)
{
    for (int f = 0; f < 3; f++) {
        for (size_t i = 0; i < n->forms[f].count; i++) free(n->forms[f].items[i]);
        vec_free(&n->forms[f]);
    }
}

/* The unapproved break an unused approval was probably meant for, written in the approval's own
 * form, or NULL when none is a likely typo of it. Each unused approval is compared with every
 * unapproved break: past a budget of comparisons the rest are reported without a hint (1,000
 * stale approvals against 20,000 breaks took 5.8 s, 4,000 took 24 s). */
static char *nearest_break(const char *a, const break_names *n, size_t *comparisons_left)
{
    const char *colon = strchr(a, ':');
    const str_list *names = &n->forms[!colon ? 0 : strcmp(colon + 1, "*") == 0 ? 2 : 1];
    if (names->count > *comparisons_left) return NULL;
    *comparisons_left -= names->count;
    const char *near = suggest_nearest(a, strlen(a), (const char *const *)names->items, names->count);
    return near ? xstrdup(near) : NULL;
}

/* An approval that approved nothing is most often a typo: say so, or the user is left with exit 1
 * and an approval they believe in. */
static void warn_unused(const diff_options *opt, const allow_list *allow, const change_list *changes)
{
    break_names names = {0};
    bool names_built = false;
    size_t comparisons_left = 2u * 1000 * 1000;
    for (size_t i = 0; i < allow->count; i++) {
        const allow_entry *a = &allow->items[i];
        if (a->used) continue;
        if (!names_built) break_names_build(&names, changes), names_built = true;
        char *near = nearest_break(a->text, &names, &comparisons_left);
        char *hint = near ? xasprintf(" (did you mean '%s'?)", near) : xstrdup("");
        if (a->line)
            diag_warning(loc_at(opt->allow_file, a->line, a->col),
                         "allow entry '%s' approves nothing: it matches no breaking change%s", a->text, hint);
        else diag_warning(loc_file(NULL), "--allow '%s' approves nothing: it matches no breaking change%s", a->text, hint);
        free(hint);
        free(near);
    }
    break_names_free(&names);
}

static void free_allow(allow_list *allow)
{
    for (size_t i = 0; i < allow->count; i++) free(allow->items[i].text);
    vec_free(allow);
}

static void describe(const change *c, buf *out)
{
    /* The member as the code names it, then its key: "Words: Beta (user.beta) tombstoned"; a
     * renamed one by its new name. */
    const entry *e = c->old_e && c->kind != CH_RENAME_RECORDED ? c->old_e : c->new_e;
    const char *name = e ? e->name : c->name;
    buf_printf(out, "%s: ", c->domain);
    if (c->key && name) buf_printf(out, "%s (%s) ", name, c->key);
    else if (c->key) buf_printf(out, "'%s' ", c->key);
    buf_puts(out, change_info[c->kind].label);
    if (detail_of(c)[0]) buf_printf(out, " (%s)", detail_of(c));
    if (change_info[c->kind].breaking) buf_puts(out, c->approved ? " [breaking, approved]" : " [breaking]");
}

static diag_level level_of(const change *c)
{
    if (change_info[c->kind].breaking) return c->approved ? DIAG_NOTE : DIAG_ERROR;
    return c->kind == CH_RESCOPED ? DIAG_WARNING : DIAG_NOTE;
}

static void put_entry_json(json_t *obj, const char *field, const entry *e)
{
    if (!e) return;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(e->name));
    json_object_set_new(j, "scope", json_string(e->scope));
    json_object_set_new(j, "value", json_integer(e->value));
    json_object_set_new(j, "seed_offset", json_integer(e->seed_offset));
    json_object_set_new(j, "tombstone", json_boolean(e->tombstone));
    if (e->signature) json_object_set_new(j, "signature", json_string(e->signature));
    json_object_set_new(obj, field, j);
}

/* The counts every report gives. */
typedef struct report_counts {
    size_t breaking, approved, compatible;
} report_counts;

/* How to approve an intended break, named by the first unapproved one; NULL with none. */
static char *approval_hint(const change_list *changes)
{
    for (size_t i = 0; i < changes->count; i++) {
        const change *c = &changes->items[i];
        if (!change_info[c->kind].breaking || c->approved) continue;
        return xasprintf(
            "an intended break is approved by its key: --allow %s:%s (or that line in the --allow-file); otherwise undo the change",
            c->domain, c->key ? c->key : "*");
    }
    return NULL;
}

static void report_text(const change_list *changes, report_counts n, FILE *out)
{
    buf line = {0};
    for (size_t i = 0; i < changes->count; i++) {
        const change *c = &changes->items[i];
        buf message = {0};
        describe(c, &message);
        line.len = 0;
        diag_format(&line, level_of(c), loc_at(c->file, c->line, c->col), message.data);
        fprintf(out, "%s\n", line.data);
        buf_free(&message);
    }
    fprintf(out, "threadlink-gen diff: %zu breaking, %zu approved, %zu compatible change%s\n", n.breaking, n.approved,
            n.compatible, n.compatible == 1 ? "" : "s");
    char *hint = approval_hint(changes);
    if (hint) fprintf(out, "threadlink-gen diff: %s\n", hint);
    free(hint);
    buf_free(&line);
}

/* GitHub places an annotation only on a file of the pull request, and OLD is the base's copy (a
 * temporary folder in CI): a change found on OLD's side (a dropped entry, a removed domain) goes on
 * NEW's file of the same name where there is one, else on no file; its old place joins the text. */
static const char *github_place(const diff_options *opt, const change *c, buf *mapped)
{
    size_t n = strlen(opt->old_path), m = strlen(opt->new_path);
    while (n > 1 && opt->old_path[n - 1] == '/') n--;
    while (m > 1 && opt->new_path[m - 1] == '/') m--;
    if (!c->file || strncmp(c->file, opt->old_path, n) != 0 || c->file[n] != '/') return c->file;
    mapped->len = 0;
    buf_printf(mapped, "%.*s%s", (int)m, opt->new_path, c->file + n);
    return fs_kind_of(mapped->data) == FS_FILE ? mapped->data : NULL;
}

/* Workflow commands, escaped as the diagnostics are (a path with ',' or ':', a key with '%'). */
static void report_github(const diff_options *opt, const change_list *changes, FILE *out)
{
    static const char *const command[] = {[DIAG_NOTE] = "notice", [DIAG_WARNING] = "warning", [DIAG_ERROR] = "error"};
    buf line = {0}, cmd = {0}, mapped = {0};
    for (size_t i = 0; i < changes->count; i++) {
        const change *c = &changes->items[i];
        const char *file = github_place(opt, c, &mapped);
        line.len = cmd.len = 0;
        describe(c, &line);
        if (file != c->file && c->line) buf_printf(&line, " (base: %s:%u)", c->file, c->line);
        else if (file != c->file) buf_printf(&line, " (base: %s)", c->file);
        buf_printf(&cmd, "::%s", command[level_of(c)]);
        if (file) {
            buf_puts(&cmd, " file=");
            diag_put_github_text(&cmd, file, true);
        }
        if (file == c->file && c->line) buf_printf(&cmd, ",line=%u", c->line);
        if (file == c->file && c->line && c->col) buf_printf(&cmd, ",col=%u", c->col);
        buf_puts(&cmd, "::");
        diag_put_github_text(&cmd, line.data, false);
        fprintf(out, "%s\n", cmd.data);
    }
    char *hint = approval_hint(changes);
    if (hint) {
        cmd.len = 0;
        buf_puts(&cmd, "::notice::");
        diag_put_github_text(&cmd, hint, false);
        fprintf(out, "%s\n", cmd.data);
    }
    free(hint);
    buf_free(&line);
    buf_free(&cmd);
    buf_free(&mapped);
}

/* A table cell's text: '|' escaped, a line break a space (asset names may hold both). */
static void put_markdown_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputs("\\|", out);
        else fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
}

/* A code span in a table cell: fenced with two backticks when the text holds one. */
static void put_markdown_code(FILE *out, const char *s)
{
    bool tick = strchr(s, '`') != NULL;
    fputs(tick ? "`` " : "`", out);
    put_markdown_text(out, s);
    fputs(tick ? " ``" : "`", out);
}

static void report_markdown(const change_list *changes, report_counts n, FILE *out)
{
    fprintf(out, "### threadlink identifier changes\n\n%zu breaking, %zu approved, %zu compatible\n\n", n.breaking, n.approved,
            n.compatible);
    if (!changes->count) return;
    fputs("| | domain | key | change | old | new |\n|---|---|---|---|---|---|\n", out);
    for (size_t i = 0; i < changes->count; i++) {
        const change *c = &changes->items[i];
        const char *mark = !change_info[c->kind].breaking ? "" : c->approved ? "approved" : "**breaking**";
        fprintf(out, "| %s | %s | ", mark, c->domain);
        put_markdown_code(out, c->key ? c->key : "");
        fprintf(out, " | %s%s", change_info[c->kind].label, detail_of(c)[0] ? ": " : "");
        put_markdown_text(out, detail_of(c));
        fputs(" | ", out);
        if (c->old_e) fprintf(out, "`%s` = %u%s", c->old_e->name, c->old_e->value, c->old_e->tombstone ? " (tombstone)" : "");
        fputs(" | ", out);
        if (c->new_e) fprintf(out, "`%s` = %u%s", c->new_e->name, c->new_e->value, c->new_e->tombstone ? " (tombstone)" : "");
        fputs(" |\n", out);
    }
}

static json_t *change_json(const change *c)
{
    json_t *j = json_object();
    json_object_set_new(j, "domain", json_string(c->domain));
    json_object_set_new(j, "key", c->key ? json_string(c->key) : json_null());
    json_object_set_new(j, "change", json_string(change_info[c->kind].id));
    json_object_set_new(j, "breaking", json_boolean(change_info[c->kind].breaking));
    json_object_set_new(j, "approved", json_boolean(c->approved));
    if (detail_of(c)[0]) json_object_set_new(j, "detail", json_string(detail_of(c)));
    json_object_set_new(j, "file", json_string(c->file));
    json_object_set_new(j, "line", json_integer(c->line));
    if (c->col) json_object_set_new(j, "column", json_integer(c->col));
    put_entry_json(j, "old_entry", c->old_e);
    put_entry_json(j, "new_entry", c->new_e);
    return j;
}

static void report_json(const diff_options *opt, const change_list *changes, report_counts n, FILE *out)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_integer(1));
    json_object_set_new(root, "old", json_string(opt->old_path));
    json_object_set_new(root, "new", json_string(opt->new_path));
    json_object_set_new(root, "breaking", json_integer((json_int_t)n.breaking));
    json_object_set_new(root, "approved", json_integer((json_int_t)n.approved));
    json_object_set_new(root, "compatible", json_integer((json_int_t)n.compatible));
    json_t *list = json_array();
    for (size_t i = 0; i < changes->count; i++) json_array_append_new(list, change_json(&changes->items[i]));
    json_object_set_new(root, "changes", list);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(out, "%s\n", text);
    free(text);
    json_decref(root);
}

static void report(const diff_options *opt, const change_list *changes, size_t breaking, size_t approved_count, FILE *out)
{
    report_counts n = {breaking, approved_count, changes->count - breaking - approved_count};
    switch (opt->format) {
    case DIFF_TEXT: report_text(changes, n, out); break;
    case DIFF_GITHUB: report_github(opt, changes, out); break;
    case DIFF_MARKDOWN: report_markdown(changes, n, out); break;
    case DIFF_JSON: report_json(opt, changes, n, out); break;
    }
}

/* Every domain of NEW against OLD's of the same name; domains only one side has. */
static void compare_domains(const side *old_side, const side *new_side, change_list *changes)
{
    for (size_t i = 0; i < new_side->count; i++) {
        const side_manifest *ns = &new_side->items[i];
        const side_manifest *os = NULL;
        for (size_t j = 0; j < old_side->count && !os; j++)
            if (strcmp(old_side->items[j].m.domain, ns->m.domain) == 0) os = &old_side->items[j];
        if (os) compare_domain(os, ns, changes);
        else add_change(changes, CH_DOMAIN_ADDED, ns->m.domain, NULL, NULL, ns->path, 0);
    }
    for (size_t j = 0; j < old_side->count; j++) {
        bool found = false;
        for (size_t i = 0; i < new_side->count && !found; i++)
            found = strcmp(old_side->items[j].m.domain, new_side->items[i].m.domain) == 0;
        if (!found) add_change(changes, CH_DOMAIN_REMOVED, old_side->items[j].m.domain, NULL, NULL, old_side->items[j].path, 0);
    }
}

struct diff_extra_ctx {
    change_list *changes;
    const side *old_side, *new_side;
};

static const char *copy_or_null(change_list *changes, const char *s)
{
    return s ? arena_strndup(&changes->strings, s, strlen(s)) : NULL;
}

void diff_add_found(diff_extra_ctx *ctx, const diff_found *f)
{
    change_list *out = ctx->changes;
    change *c = add_change(out, f->kind, copy_or_null(out, f->domain), NULL, NULL, copy_or_null(out, f->file), f->line);
    c->key = copy_or_null(out, f->key);
    c->col = f->col;
    c->long_detail = copy_or_null(out, f->detail);
    c->name = copy_or_null(out, f->name);
}

const struct manifest *diff_side_manifest(const diff_extra_ctx *ctx, bool new_side, const char *name)
{
    const side *s = new_side ? ctx->new_side : ctx->old_side;
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i].m.domain, name) == 0) return &s->items[i].m;
    return NULL;
}

static const extra_file *find_extra(const side *s, const extra_file *like)
{
    for (size_t i = 0; i < s->extras.count; i++)
        if (s->extras.items[i].part == like->part && strcmp(s->extras.items[i].rel, like->rel) == 0) return &s->extras.items[i];
    return NULL;
}

/* Each extra part's files, NEW's with OLD's at the same path, then OLD's that NEW lacks. */
static bool compare_extras(const diff_options *opt, const side *old_side, const side *new_side, change_list *changes)
{
    diff_extra_ctx ctx = {changes, old_side, new_side};
    bool ok = true;
    for (size_t i = 0; i < new_side->extras.count; i++) {
        const extra_file *n = &new_side->extras.items[i], *o = find_extra(old_side, n);
        if (!opt->extras[n->part]->compare(&ctx, o ? o->path : NULL, n->path)) ok = false;
    }
    for (size_t i = 0; i < old_side->extras.count; i++) {
        const extra_file *o = &old_side->extras.items[i];
        if (!find_extra(new_side, o) && !opt->extras[o->part]->compare(&ctx, o->path, NULL)) ok = false;
    }
    return ok;
}

/* Approves what the allow-list covers; the counts of breaking and approved changes. */
static void approve_all(change_list *changes, allow_list *allow, size_t *breaking, size_t *approved_count)
{
    allow_index ix;
    allow_index_build(&ix, allow);
    for (size_t i = 0; i < changes->count; i++) {
        change *c = &changes->items[i];
        if (!change_info[c->kind].breaking) continue;
        c->approved = approve(c, &ix);
        if (c->approved) ++*approved_count;
        else ++*breaking;
    }
    allow_index_free(&ix);
}

int diff_run(const diff_options *opt)
{
    FILE *out = opt->out ? opt->out : stdout;
    side old_side = {0}, new_side = {0};
    allow_list allow = {0};
    change_list changes = {0};
    bool old_ok = read_side(opt, opt->old_path, &old_side);
    bool new_ok = read_side(opt, opt->new_path, &new_side); /* read either way: both sides' problems in one run */
    bool ok = old_ok && new_ok;
    for (size_t i = 0; i < opt->allow.count; i++) *vec_push(&allow) = (allow_entry){xstrdup(opt->allow.items[i]), 0, 0, false};
    if (opt->allow_file) load_allow_file(opt->allow_file, &allow, &ok);
    if (ok) {
        compare_domains(&old_side, &new_side, &changes);
        ok = compare_extras(opt, &old_side, &new_side, &changes);
    }
    size_t breaking = 0, approved_count = 0;
    if (ok) {
        approve_all(&changes, &allow, &breaking, &approved_count);
        report(opt, &changes, breaking, approved_count, out);
        fflush(out); /* the warnings (stderr) follow the report in a merged log */
        warn_unused(opt, &allow, &changes);
    }
    vec_free(&changes);
    arena_free(&changes.strings);
    free_allow(&allow);
    free_side(&old_side);
    free_side(&new_side);
    return !ok ? 2 : breaking ? 1 : 0;
}
