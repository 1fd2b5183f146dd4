/* The text stage of generate/headers/check (gen/stages.c lists it):
 *
 *   load        the "text" section, the source PO file's keys and every translation, checked;
 *               each locale's table built (it depends on the PO files alone) and offered to the
 *               content stage as the files of its tables folder (core/model.h, provided_files)
 *   add_domains the keys' identity domain (Text.Keys), one declaration per key, scope "Text"
 *   resolve     each key's value and member name from the merged manifest
 *   emit        the typed functions' header, then each locale's table (<tables>/<locale>.tltext) */
#include "l10n/l10n_model.h"

#include "base/fsio.h"
#include "base/index_map.h"

#include <string.h>

#define TEXT_SCOPE "Text"

static void plan_outputs(text_state *st, stage_outputs *outputs)
{
    stage_output *o = vec_push(outputs);
    *o = (stage_output){xstrdup(st->cfg.output), true, false, st->cfg.loc};
    /* The tables are not compiled: generate writes them where the Text profile packs them, and a
     * build step (headers) only says when they are stale (a build system such as Meson could not
     * declare them as outputs in a folder anyway). */
    for (size_t i = 0; i < st->locales.count; i++) {
        o = vec_push(outputs);
        *o = (stage_output){xstrdup(st->locales.items[i].table), false, false, st->cfg.loc};
    }
}

/* Whether a table generate wrote is built for the keys the PO files give now: its header's layout
 * (l10n.h, TABLE FORMAT: the u64 at offset 16) is the one the header this build writes carries. */
static bool table_fits_keys(const buf *table, const text_locale *l)
{
    return table->len >= 24 && l->table_bytes.len >= 24 && memcmp(table->data + 16, l->table_bytes.data + 16, 8) == 0;
}

/* The build step: a table generate wrote that differs from what the PO files give now is packed
 * as it was (pack reads generated/, never the PO files). Built for other keys (one added to the
 * source, removed, retyped), the game would refuse it against the header written now: the build
 * fails, naming the source. Only its texts changed: say so, as for entries not recorded. */
static bool report_stale_tables(const text_state *st)
{
    bool ok = true;
    buf old = {0}, other_keys = {0};
    for (size_t i = 0; i < st->locales.count; i++) {
        const text_locale *l = &st->locales.items[i];
        char *path = path_join(st->p->cfg.generated_dir, l->table);
        bool written = fs_read_file(path, &old);
        bool same = written && old.len == l->table_bytes.len && memcmp(old.data, l->table_bytes.data, old.len) == 0;
        if (written && !table_fits_keys(&old, l)) {
            buf_printf(&other_keys, "%s%s", other_keys.len ? ", " : "", path);
        } else if (!same) {
            (st->p->strict ? diag_error : diag_warning)(
                loc_file(path),
                written ? "stale: %s changed since generate wrote it; the content build packs it as it is: run %s"
                        : "not written yet (generate writes it from %s, and the content build packs it): run %s",
                l->path, diag_generate_command());
            ok = !st->p->strict && ok;
        }
        free(path);
    }
    if (other_keys.len) {
        diag_error(loc_file(st->locales.items[0].path),
                   "its keys changed since generate wrote the tables %s: the game would refuse them (they are built for other "
                   "keys than the text header this build writes): run %s",
                   other_keys.data, diag_generate_command());
        ok = false;
    }
    buf_free(&other_keys);
    buf_free(&old);
    return ok;
}

/* The tables, as the files of "<generated_dir>/<tables>", for a content profile that packs them. */
static void provide_tables(text_state *st)
{
    char *folder = path_join(st->p->cfg.generated_dir, st->cfg.tables);
    for (size_t i = 0; i < st->locales.count; i++) {
        const text_locale *l = &st->locales.items[i];
        provided_file *f = vec_push(&st->p->provided);
        f->folder = xstrdup(folder);
        f->name = xasprintf("%s.tltext", l->name);
        f->bytes = xmalloc(l->table_bytes.len ? l->table_bytes.len : 1);
        memcpy(f->bytes, l->table_bytes.data, l->table_bytes.len);
        f->size = l->table_bytes.len;
    }
    free(folder);
}

static bool text_load(project *p, void **state, stage_outputs *outputs)
{
    text_state *st = xcalloc(1, sizeof *st);
    *state = st;
    st->p = p;
    if (!text_config_load(p, &st->cfg, &st->configured)) return false;
    if (!st->configured) return true;
    if (!text_load_locales(st)) return false;
    st->layout = text_layout(st);
    for (size_t i = 0; i < st->locales.count; i++) text_build_table(st, &st->locales.items[i]);
    provide_tables(st);
    plan_outputs(st, outputs);
    return !st->p->build_step || report_stale_tables(st);
}

static bool text_add_domains(void *state, project *p)
{
    text_state *st = state;
    if (!st->configured) return true;
    domain *d = model_add_domain(p, st->cfg.domain);
    d->declared_at = st->cfg.loc;
    d->output = arena_strndup(&p->strings, st->cfg.header, strlen(st->cfg.header));
    char *dir = path_dirname(d->output), *base = xasprintf("%s.manifest.json", d->name);
    d->manifest = path_join(dir, base);
    free(dir);
    free(base);
    d->kind = KIND_IDENTITY;
    d->reserve_zero = true; /* 0 is "no key": a LocalizedText field that names none */
    decl_source *src = vec_push(&d->sources);
    const char *source = st->locales.items[0].path;
    src->path = arena_strndup(&p->strings, source, strlen(source));
    src->scope = TEXT_SCOPE;
    for (size_t k = 0; k < st->keys.count; k++) {
        const text_key *key = &st->keys.items[k];
        size_t n = strlen(key->name);
        *vec_push(&d->decls) = (decl){arena_strndup(&p->strings, key->name, n), (uint32_t)n, key->loc.line, key->loc.col, 0};
    }
    return true;
}

typedef struct member_probe {
    const text_state *st;
    const char *name;
} member_probe;

static bool same_member(const void *ctx, uint32_t k)
{
    const member_probe *p = ctx;
    return strcmp(p->st->keys.items[k].member, p->name) == 0;
}

/* What the keys' header (its domain's) already names `fn`: its type, an enumerator (Text_Keys_X,
 * for any key X or None), or a function; NULL when nothing. */
static const char *header_names(const text_state *st, const domain *d, const index_map *members, const char *fn)
{
    static const char *const own[] = {"_l10n", "_locales", "_name", "_name_of", "_from_name", "__names", "__values"};
    size_t cl = strlen(d->c_name);
    if (strcmp(fn, d->lower_name) == 0) return "the keys' enum type";
    if (strncmp(fn, d->c_name, cl) == 0 && fn[cl] == '_') {
        member_probe probe = {st, fn + cl + 1};
        if (strcmp(fn + cl + 1, "None") == 0 ||
            index_map_find(members, fnv1a(fn + cl + 1, strlen(fn + cl + 1)), same_member, &probe) != UINT32_MAX)
            return "an enumerator of the keys' enum";
    }
    size_t ll = strlen(d->lower_name);
    for (size_t i = 0; i < sizeof own / sizeof own[0] && strncmp(fn, d->lower_name, ll) == 0; i++)
        if (strcmp(fn + ll, own[i]) == 0) return "a function of the text headers";
    return NULL;
}

/* The function a key's member would give clashes with one of the headers' own names. */
static bool check_function_names(const text_state *st, const domain *d)
{
    bool ok = true;
    index_map members;
    index_map_init(&members, st->keys.count);
    for (size_t k = 0; k < st->keys.count; k++)
        index_map_insert(&members, fnv1a(st->keys.items[k].member, strlen(st->keys.items[k].member)), (uint32_t)k);
    for (size_t k = 0; k < st->keys.count; k++) {
        const text_key *key = &st->keys.items[k];
        char *fn = xasprintf("%s_%s", st->cfg.prefix, key->member);
        const char *what = header_names(st, d, &members, fn);
        if (what) {
            diag_error(key->loc, "key %s would give the function %s(), which is %s already: rename the key (or set text.prefix)",
                       key->name, fn, what);
            ok = false;
        }
        free(fn);
    }
    index_map_free(&members);
    return ok;
}

static bool text_resolve(void *state, const domain_result *domains, size_t count)
{
    text_state *st = state;
    if (!st->configured) return true;
    const domain_result *r = NULL;
    for (size_t i = 0; i < count && !r; i++)
        if (strcmp(domains[i].d->name, st->cfg.domain) == 0) r = &domains[i];
    if (!r) return false;
    st->d = r->d;
    buf key = {0};
    bool ok = true;
    index_map by_key;
    manifest_index_live_keys(r->m, &by_key);
    for (size_t k = 0; k < st->keys.count; k++) {
        text_key *tk = &st->keys.items[k];
        model_key(r->d, &r->d->decls.items[k], &key);
        uint32_t e = manifest_find_live_key(&by_key, r->m, key.data, key.len);
        tk->member = e == UINT32_MAX ? NULL : r->m->entries.items[e].name;
        tk->value = e == UINT32_MAX ? 0 : r->m->entries.items[e].value;
        if (!tk->member) {
            diag_error(tk->loc, "key %s has no live entry in the manifest of %s; run %s", tk->name, st->cfg.domain,
                       diag_generate_command());
            ok = false;
        }
    }
    index_map_free(&by_key);
    buf_free(&key);
    return ok && check_function_names(st, r->d);
}

static void text_emit(void *state, size_t index, out_file *o, const emit_options *opt)
{
    text_state *st = state;
    if (index == 0) {
        text_emit_header(st, o, opt);
        return;
    }
    const buf *t = &st->locales.items[index - 1].table_bytes;
    o->text = false; /* binary: no line-ending leniency */
    buf_put(&o->chunk, t->data, t->len);
}

static void text_free(void *state)
{
    text_state *st = state;
    for (size_t i = 0; i < st->locales.count; i++) text_locale_free(&st->locales.items[i], st->keys.count);
    vec_free(&st->locales);
    for (size_t k = 0; k < st->keys.count; k++) vec_free(&st->keys.items[k].params);
    vec_free(&st->keys);
    text_config_free(&st->cfg);
    arena_free(&st->strings);
    free(st);
}

const gen_stage text_stage = {
    "text",    text_load, text_add_domains, text_resolve, text_emit,
    text_free, NULL, /* check_config: the "text" section is checked only when the config's own part loads */
};
