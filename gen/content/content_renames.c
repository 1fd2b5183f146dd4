/* Asset renames and likely moves.
 *
 * <source root>/.content-renames records renames of assets, one a line, in asset names:
 *
 *   file -> line*
 *   line -> ws* [ NEW ws* '<-' ws* OLD ws* ] [ ('//' | '#') any* ] '\n'
 *
 * A line belongs to the profile under one of whose categories NEW lies; NEW must be one of its
 * assets, and identity (gen/core/identity.c) gives it OLD's entry: its id, so vault AssetRef data
 * baked with it and saves holding it keep naming it. The records are kept beside the assets they
 * name, so that they move with them; the file is hidden, so never an asset itself.
 *
 * A likely move is reported, not applied: after a pass that removed an asset and added one with
 * the same bytes, whose previous size and hash the last catalog header lists. */
#include "content/content_renames.h"

#include "base/fsio.h"
#include "base/index_map.h"
#include "base/stamp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rename_line {
    const char *new_name, *old_name;
    size_t new_len, old_len;
    uint32_t line, old_col;
} rename_line;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* [s, e) without a comment ('//' or '#' at the start or after a blank) and surrounding blanks. */
static void trim_line(const char **s, const char **e)
{
    for (const char *q = *s; q < *e; q++)
        if ((q == *s || is_blank(q[-1])) && (*q == '#' || (*q == '/' && q + 1 < *e && q[1] == '/'))) {
            *e = q;
            break;
        }
    while (*s < *e && is_blank(**s)) ++*s;
    while (*e > *s && is_blank((*e)[-1])) --*e;
}

/* One line of the file: false (reported) when it is not "NEW <- OLD". */
static bool parse_line(const char *file, uint32_t line, const char *start, const char *s, const char *e, rename_line *out)
{
    const char *arrow = NULL;
    for (const char *q = s; q + 1 < e && !arrow; q++)
        if (q[0] == '<' && q[1] == '-') arrow = q;
    const char *ne = arrow, *os = arrow ? arrow + 2 : NULL;
    while (ne && ne > s && is_blank(ne[-1])) ne--;
    while (os && os < e && is_blank(*os)) os++;
    if (!arrow || ne == s || os == e) {
        diag_error(loc_at(file, line, (uint32_t)(s - start) + 1),
                   "expected 'New <- Old' (two asset names, as vault data writes them)");
        return false;
    }
    for (const char *q = os; q + 1 < e; q++)
        if (q[0] == '<' && q[1] == '-') {
            diag_error(loc_at(file, line, (uint32_t)(q - start) + 1), "a second '<-': one rename per line");
            return false;
        }
    *out = (rename_line){s, os, (size_t)(ne - s), (size_t)(e - os), line, (uint32_t)(os - start) + 1};
    return true;
}

/* Whether an asset name lies under one of the profile's categories. */
static bool in_profile(const content_profile *pr, const char *name, size_t len)
{
    for (size_t i = 0; i < pr->categories.count; i++) {
        const char *folder = pr->categories.items[i].folder;
        size_t n = strlen(folder);
        if (!n || (len > n && name[n] == '/' && ascii_ieq(name, n, folder, n))) return true;
    }
    return false;
}

static const char *asset_name(const void *sc, uint32_t i) { return ((const content_scan *)sc)->assets.items[i].name; }

/* The declaration (scan order) of the asset named `name`, any case, or UINT32_MAX. */
static uint32_t find_asset(const index_map *by_name, const content_scan *sc, const char *name, size_t len)
{
    return index_map_find_name(by_name, name, len, asset_name, sc);
}

/* The scan's assets by name, any case: a moved folder is a record for every asset under it. Only
 * the first of names equal but for case is held, the one a scan in order would find. */
static void index_asset_names(const content_scan *sc, index_map *out)
{
    index_map_init(out, sc->assets.count);
    for (size_t i = 0; i < sc->assets.count; i++) index_map_add_name(out, (uint32_t)i, asset_name, sc);
}

static bool add_rename(project *p, domain *d, const content_profile *pr, const content_scan *sc, const index_map *by_name,
                       const char *file, const rename_line *l)
{
    if (!in_profile(pr, l->new_name, l->new_len)) return true; /* another profile's */
    uint32_t di = find_asset(by_name, sc, l->new_name, l->new_len);
    if (di == UINT32_MAX) {
        diag_error(loc_at(file, l->line, 1),
                   "'%.*s' is no asset of profile %s: a rename record names the asset's new name first ('New <- Old')",
                   (int)l->new_len, l->new_name, pr->name);
        return false;
    }
    *vec_push(&d->renames) = (decl_rename){di,
                                           arena_strndup(&p->strings, pr->scope, strlen(pr->scope)),
                                           arena_strndup(&p->strings, l->old_name, l->old_len),
                                           (uint32_t)l->old_len,
                                           l->line,
                                           l->old_col,
                                           file};
    return true;
}

bool content_add_renames(project *p, domain *d, const content_profile *pr, const content_scan *sc)
{
    char *path = path_join(sc->root, CONTENT_RENAMES_FILE);
    const char *file = arena_strndup(&p->strings, path, strlen(path));
    free(path);
    buf text = {0};
    bool ok = true, exists = fs_kind_follow(file) != FS_MISSING;
    if (exists && !fs_read_input(file, FS_INPUT_ENTRIES, &text)) {
        diag_error(loc_file(file), "cannot read the content rename records: %s", fs_read_failure());
        ok = false;
    }
    /* Its bytes, or its absence, are an input: adding the file makes the next run read it. */
    hasher_add_file(p->input_hash, file, text.data ? text.data : "", text.len);
    if (exists) *vec_push(&p->inputs) = xstrdup(file);
    index_map by_name = {0}; /* left empty without records: a lookup in it finds nothing */
    if (text.len) index_asset_names(sc, &by_name);
    const char *s = text.data, *end = s ? s + text.len : NULL; /* (NULL + 0 is undefined in C) */
    for (uint32_t line = 1; s && s < end; line++) {            /* every bad line reported */
        const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end, *ts = s, *te = e;
        trim_line(&ts, &te);
        rename_line l;
        if (ts < te && !(parse_line(file, line, s, ts, te, &l) && add_rename(p, d, pr, sc, &by_name, file, &l))) ok = false;
        s = nl ? nl + 1 : NULL;
    }
    index_map_free(&by_name);
    buf_free(&text);
    return ok;
}

/* ---- likely moves ---------------------------------------------------------------------------- */

/* One asset of the previous catalog: its member name, its name, size and hash. */
typedef struct old_asset {
    char member[256], name[512];
    unsigned long long size, hash;
} old_asset;

/* A catalog line: `        {<member>, "<name>", <category>, UINT64_C(<size>), UINT64_C(0x<hash>)},`
 * (content_stage.c); names with escapes are skipped (their moves go unreported). */
static bool parse_catalog_line(const char *line, const char *prefix, old_asset *a)
{
    char fmt[160];
    int used = 0;
    snprintf(fmt, sizeof fmt,
             " {%s%%255[A-Za-z0-9_], \"%%511[^\"\\\\]\", %%*[A-Za-z0-9_], UINT64_C(%%llu), UINT64_C(0x%%llx)}%%n", prefix);
    return sscanf(line, fmt, a->member, a->name, &a->size, &a->hash, &used) == 4 && used > 0;
}

typedef VEC(old_asset) old_assets;

static void read_old_catalog(const char *path, const char *prefix, old_assets *out)
{
    buf text = {0};
    if (!fs_read_input(path, FS_INPUT_OWN, &text)) return; /* first run, or moved: nothing to compare */
    for (char *s = text.data, *nl; s && *s; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl) *nl = 0;
        old_asset a;
        if (parse_catalog_line(s, prefix, &a)) *vec_push(out) = a;
    }
    buf_free(&text);
}

typedef struct member_probe {
    const old_assets *olds;
    const char *member;
    size_t len;
} member_probe;

static bool old_has_member(const void *ctx, uint32_t i)
{
    const member_probe *mp = ctx;
    const char *member = mp->olds->items[i].member;
    return strlen(member) == mp->len && memcmp(member, mp->member, mp->len) == 0;
}

/* The first asset of the previous catalog with this member name, or NULL. */
static const old_asset *find_old(const index_map *by_member, const old_assets *olds, const char *member, size_t len)
{
    member_probe mp = {olds, member, len};
    uint32_t i = index_map_find(by_member, fnv1a(member, len), old_has_member, &mp);
    return i == UINT32_MAX ? NULL : &olds->items[i];
}

/* The previous catalog's assets by member name, the first of each. */
static void index_old_members(const old_assets *olds, index_map *out)
{
    index_map_init(out, olds->count);
    for (size_t i = 0; i < olds->count; i++) {
        const char *member = olds->items[i].member;
        size_t len = strlen(member);
        if (!find_old(out, olds, member, len)) index_map_insert(out, fnv1a(member, len), (uint32_t)i);
    }
}

/* Whether the first entry of `m` with value `id` was added in this pass. */
static bool added_in_pass(const index_map *by_value, const manifest *m, uint32_t id)
{
    uint32_t i = manifest_find_value(by_value, m, id);
    return i != UINT32_MAX && m->entries.items[i].change == CHANGE_ADDED;
}

static uint32_t bytes_hash(uint64_t size, uint64_t xxh64)
{
    uint64_t h = xxh64 ^ (size * 0x9e3779b97f4a7c15u);
    return (uint32_t)(h ^ (h >> 32));
}

typedef struct bytes_probe {
    const content_scan *sc;
    uint64_t size, xxh64;
} bytes_probe;

static bool asset_has_bytes(const void *ctx, uint32_t i)
{
    const bytes_probe *bp = ctx;
    const content_asset *a = &bp->sc->assets.items[i];
    return a->size == bp->size && a->xxh64 == bp->xxh64;
}

/* The asset (scan order) in `by_bytes` with this size and hash, or UINT32_MAX. */
static uint32_t find_bytes(const index_map *by_bytes, const content_scan *sc, uint64_t size, uint64_t xxh64)
{
    bytes_probe bp = {sc, size, xxh64};
    return index_map_find(by_bytes, bytes_hash(size, xxh64), asset_has_bytes, &bp);
}

/* The assets added in this pass by their size and hash, the first in scan order of each: where a
 * removed asset's bytes went. */
static void index_added_bytes(const content_scan *sc, const manifest *m, index_map *out)
{
    index_map by_value;
    manifest_index_values(m, &by_value);
    index_map_init(out, sc->assets.count);
    for (size_t k = 0; k < sc->assets.count; k++) {
        const content_asset *a = &sc->assets.items[k];
        if (added_in_pass(&by_value, m, a->id) && find_bytes(out, sc, a->size, a->xxh64) == UINT32_MAX)
            index_map_insert(out, bytes_hash(a->size, a->xxh64), (uint32_t)k);
    }
    index_map_free(&by_value);
}

static void report_move(const content_scan *sc, const content_asset *a, const old_asset *o, const entry *removed, uint32_t id)
{
    char *file = path_join(sc->root, a->path);
    diag_warning(
        loc_file(file),
        "\"%s\" has the bytes of \"%s\", removed in this pass: a likely move, which gave it a new id (%u, was %u); to keep the id, restore the manifest and add '%s <- %s' to %s/%s",
        a->name, o->name, id, removed->value, a->name, o->name, sc->root, CONTENT_RENAMES_FILE);
    free(file);
}

/* Each entry removed in this pass that the previous catalog lists, whose bytes an asset added in
 * this pass has: in manifest order, the first such asset in scan order. */
static void report_moves_from(const content_scan *sc, const manifest *m, const old_assets *olds)
{
    index_map by_member, added;
    index_old_members(olds, &by_member);
    index_added_bytes(sc, m, &added);
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *r = &m->entries.items[i];
        const old_asset *o = r->change == CHANGE_REMOVED ? find_old(&by_member, olds, r->name, r->name_len) : NULL;
        uint32_t k = o ? find_bytes(&added, sc, o->size, o->hash) : UINT32_MAX;
        if (k != UINT32_MAX) report_move(sc, &sc->assets.items[k], o, r, sc->assets.items[k].id);
    }
    index_map_free(&by_member);
    index_map_free(&added);
}

void content_report_moves(const project *p, const content_profile *pr, const content_scan *sc, const manifest *m)
{
    bool removed_any = false;
    for (size_t i = 0; i < m->entries.count && !removed_any; i++) removed_any = m->entries.items[i].change == CHANGE_REMOVED;
    if (!removed_any) return;
    old_assets olds = {0};
    char *gen_dir = path_join(p->cfg.root, p->cfg.generated_dir);
    char *path = path_join(gen_dir, pr->catalog_header), *prefix = xasprintf("%s_", pr->domain);
    free(gen_dir);
    for (char *c = prefix; *c; c++)
        if (*c == '.') *c = '_';
    read_old_catalog(path, prefix, &olds);
    if (olds.count) report_moves_from(sc, m, &olds);
    vec_free(&olds);
    free(path);
    free(prefix);
}
