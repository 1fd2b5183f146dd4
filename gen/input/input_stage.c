/* The input stage of generate/headers/check (input/input_model.h):
 *
 *   "input": { "actions": "input/game.actions.json", "output": "input_map.h",
 *              "domain": "Dextra.Actions", "domain_output": "dextra_actions.h",
 *              "modes": "Dextra.InputModes" }
 *
 * actions (required) is the action map, relative to the config; output (default "input_map.h")
 * and domain_output (default "dextra_actions.h") are below the generated directory; modes names
 * the input-mode domain (it must be declared in "domains"); domain names the domain this stage
 * adds (it must not be).
 *
 *   load        the key and the action map (input_parse.c), modes matched to the modes domain's
 *               declarations
 *   add_domains Dextra.Actions: one declaration per action, scoped by its mode, so each action
 *               has an identity value that survives reordering and removal (a tombstone)
 *   resolve     the modes' and actions' values, the glyphs' assets in their catalog
 *   emit        the header: <stem>() returns the tl_input_map (const tables) */
#include "input/input_model.h"

#include "base/fsio.h"
#include "base/index_map.h"
#include "base/json_check.h"
#include "base/stamp.h"
#include "base/suggest.h"
#include "core/emit.h"
#include "tlg_version.h"

#include <threadlink/input.h>

#include <jansson.h>
#include <stdio.h>
#include <strings.h>

typedef struct input_state {
    project *p;
    input_map_model m;
    char *map_path; /* the action map, as opened */
    char *map_rel;  /* as the config names it (banners) */
    buf text;
    char *output, *domain_output;
    const char *domain_name, *modes_name;
    src_loc where; /* the "input" key */
} input_state;

/* ---- config ----------------------------------------------------------------------------------- */

static const domain *find_domain(const project *p, const char *name)
{
    for (size_t i = 0; i < p->domains.count; i++)
        if (strcmp(p->domains.items[i].name, name) == 0) return &p->domains.items[i];
    return NULL;
}

/* A domain name at input.<key> (default `fallback`), or NULL after an error. */
static const char *config_domain_name(input_state *st, json_checker *cj, json_t *cfg, const char *key, const char *fallback)
{
    const char *name = fallback;
    if (json_object_get(cfg, key) && !jc_get_string(cj, cfg, "input", key, "a domain name", &name)) return NULL;
    if (!config_valid_domain_name(name)) {
        char *sub = jc_key("input", key);
        jc_error(cj, sub, "\"%s\" is not a domain name", name);
        free(sub);
        return NULL;
    }
    return arena_strndup(&st->p->strings, name, strlen(name));
}

/* The modes domain must be declared; the actions domain must not be. */
static void check_domains(input_state *st, json_checker *cj)
{
    if (st->modes_name && !find_domain(st->p, st->modes_name))
        jc_error(cj, "input",
                 "the action map needs the %s domain: declare { \"name\": \"%s\", \"output\": \"input_modes.h\", "
                 "\"native\": \"threadlink:natives/Dextra.InputModes.Native.txt\" } in domains",
                 st->modes_name, st->modes_name);
    if (st->domain_name && find_domain(st->p, st->domain_name)) {
        char *sub = jc_key("input", "domain");
        jc_error(cj, json_object_get(st->p->cfg.input, "domain") ? sub : "input",
                 "%s is the input stage's own domain (its entries are the action map's actions): do not declare it in domains",
                 st->domain_name);
        free(sub);
    }
}

static bool read_config(input_state *st)
{
    static const char *const allowed[] = {"actions", "output", "domain", "domain_output", "modes", NULL};
    project *p = st->p;
    json_checker cj = {p->cfg.path, p->cfg.text, p->cfg.text_len, true, NULL, NULL};
    json_t *cfg = p->cfg.input;
    st->where = json_locate(p->cfg.path, p->cfg.text, p->cfg.text_len, "input");
    if (!json_is_object(cfg)) {
        jc_error(&cj, "input", "expected an object, got %s", jc_type_name(cfg));
        return false;
    }
    jc_check_keys(&cj, "input", cfg, allowed);
    jc_require(&cj, cfg, "input", "actions", "the action map, such as \"input/game.actions.json\"");
    st->map_rel = jc_rel_path(&cj, cfg, "actions", "input", NULL);
    st->output = jc_output_path(&cj, cfg, "output", "input", "input_map.h", false);
    st->domain_output = jc_output_path(&cj, cfg, "domain_output", "input", "dextra_actions.h", false);
    st->domain_name = config_domain_name(st, &cj, cfg, "domain", "Dextra.Actions");
    st->modes_name = config_domain_name(st, &cj, cfg, "modes", "Dextra.InputModes");
    check_domains(st, &cj);
    return cj.ok && st->map_rel && st->output && st->domain_output;
}

/* ---- load ------------------------------------------------------------------------------------- */

static void known_modes(input_state *st)
{
    const domain *d = find_domain(st->p, st->modes_name);
    for (size_t i = 0; d && i < d->decls.count; i++) {
        in_mode *k = vec_push(&st->m.known_modes);
        k->name = d->decls.items[i].name;
        k->scope = model_scope(d, &d->decls.items[i]);
        k->value = 0;
    }
}

static bool input_load(project *p, void **state, stage_outputs *outputs)
{
    *state = NULL;
    if (!p->cfg.input) return true;
    input_state *st = xcalloc(1, sizeof *st);
    st->p = p;
    *state = st;
    if (!read_config(st)) return false;
    st->map_path = path_join(p->cfg.root, st->map_rel);
    *vec_push(&p->inputs) = xstrdup(st->map_path);
    if (!fs_read_input(st->map_path, FS_INPUT_PROFILE, &st->text)) {
        diag_error(loc_file(st->map_path), "cannot read the action map: %s", fs_read_failure());
        return false;
    }
    hasher_add_file(p->input_hash, st->map_path, st->text.data, st->text.len);
    st->m.file = st->map_path;
    st->m.text = st->text.data;
    st->m.len = st->text.len;
    known_modes(st);
    if (!input_parse(&st->m)) return false;
    *vec_push(outputs) = (stage_output){.path = xstrdup(st->output), .build_output = true, .where = st->where};
    return true;
}

/* The actions domain: a source per mode the map uses (its scope the mode's name), a declaration
 * per action where its name is written. */
static bool input_add_domains(void *state, project *p)
{
    input_state *st = state;
    if (!st) return true;
    domain *d = model_add_domain(p, st->domain_name);
    d->declared_at = st->where;
    d->output = arena_strndup(&p->strings, st->domain_output, strlen(st->domain_output));
    char *dir = path_dirname(d->output), *base = xasprintf("%s.manifest.json", d->name);
    d->manifest = path_join(dir, base);
    free(dir);
    free(base);
    d->kind = KIND_IDENTITY;
    d->reserve_zero = true;                                                  /* 0 is "no action" */
    uint32_t *source = xcalloc(st->m.known_modes.count + 1, sizeof *source); /* mode -> source + 1 */
    for (size_t i = 0; i < st->m.actions.count; i++) {
        const in_action *a = &st->m.actions.items[i];
        if (!source[a->mode]) {
            decl_source *src = vec_push(&d->sources);
            src->path = arena_strndup(&p->strings, st->map_path, strlen(st->map_path));
            src->scope = st->m.known_modes.items[a->mode].name;
            source[a->mode] = (uint32_t)d->sources.count;
        }
        *vec_push(&d->decls) = (decl){a->name, (uint32_t)strlen(a->name), a->line, a->col, source[a->mode] - 1};
    }
    free(source);
    return true;
}

/* ---- resolve ---------------------------------------------------------------------------------- */

static const manifest *result_of(const domain_result *domains, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++)
        if (strcmp(domains[k].d->name, name) == 0) return domains[k].m;
    return NULL;
}

/* A manifest's live entries by key (fold(scope) "." fold(name)): one lookup per mode and action,
 * not a pass over the manifest each. */
typedef struct key_index {
    const manifest *m; /* NULL: none, nothing found */
    index_map map;
    buf query;
} key_index;

static void key_index_init(key_index *k, const manifest *m)
{
    *k = (key_index){.m = m};
    if (m) manifest_index_live_keys(m, &k->map);
}

/* The live entry with key fold(scope) "." fold(name), or NULL. */
static const entry *entry_by_key(key_index *k, const char *scope, const char *name)
{
    if (!k->m) return NULL;
    k->query.len = 0;
    buf_printf(&k->query, "%s.%s", scope, name);
    ascii_lower_copy(k->query.data, k->query.data, k->query.len);
    uint32_t e = manifest_find_live_key(&k->map, k->m, k->query.data, k->query.len);
    return e == UINT32_MAX ? NULL : &k->m->entries.items[e];
}

static void key_index_free(key_index *k)
{
    index_map_free(&k->map);
    buf_free(&k->query);
}

static bool resolve_modes_and_actions(input_state *st, const manifest *modes, const manifest *actions)
{
    bool ok = true;
    key_index mode_keys, action_keys;
    key_index_init(&mode_keys, modes);
    key_index_init(&action_keys, actions);
    for (size_t i = 0; i < st->m.known_modes.count; i++) {
        in_mode *k = &st->m.known_modes.items[i];
        const entry *e = entry_by_key(&mode_keys, k->scope, k->name);
        k->value = e ? e->value : 0;
    }
    for (size_t i = 0; i < st->m.actions.count; i++) {
        in_action *a = &st->m.actions.items[i];
        const in_mode *k = &st->m.known_modes.items[a->mode];
        const entry *e = entry_by_key(&action_keys, k->name, a->name);
        a->value = e ? e->value : 0;
        a->member = e ? e->name : NULL;
        if (!e || !k->value) {
            diag_error(loc_at(st->map_path, a->line, a->col), "action %s.%s has no live entry in its manifests; run %s", k->name,
                       a->name, diag_generate_command());
            ok = false;
        }
    }
    key_index_free(&mode_keys);
    key_index_free(&action_keys);
    return ok;
}

/* An asset's own name, as its catalog spells it (a content domain's declarations keep it), else
 * its key after the scope (folded). */
static const char *asset_name_of(const domain_result *r, const entry *x, size_t *len)
{
    const char *dot = memchr(x->key, '.', x->key_len);
    if (r->d->asset_names && x->decl != UINT32_MAX && x->decl < r->d->decls.count) {
        *len = strlen(r->d->asset_names[x->decl]);
        return r->d->asset_names[x->decl];
    }
    *len = dot ? x->key_len - (size_t)(dot + 1 - x->key) : x->key_len;
    return dot ? dot + 1 : x->key;
}

static void unknown_asset(input_state *st, json_checker *j, const in_glyph *g, const domain_result *r)
{
    suggest_top top = {0};
    size_t len;
    for (size_t e = 0; e < r->m->entries.count; e++) {
        const entry *x = &r->m->entries.items[e];
        const char *name = asset_name_of(r, x, &len);
        if (!x->tombstone) suggest_top_offer(&top, g->asset, strlen(g->asset), name, len, e);
    }
    buf near = {0};
    for (size_t i = 0; i < top.count; i++) {
        const char *name = asset_name_of(r, &r->m->entries.items[top.index[i]], &len);
        buf_printf(&near, "%s%.*s", i ? ", " : "", (int)len, name);
    }
    jc_error(j, g->path, "no asset \"%s\" in %s%s%s%s", g->asset, st->m.catalog, near.len ? " (closest: " : "",
             near.len ? near.data : "", near.len ? ")" : "");
    buf_free(&near);
}

static const domain_result *domain_of(const domain_result *domains, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++)
        if (strcmp(domains[k].d->name, name) == 0) return &domains[k];
    return NULL;
}

/* Each glyph's asset: a live entry of the catalog whose own name it is (ASCII case ignored). */
static uint32_t find_asset(const domain_result *r, const char *asset)
{
    size_t len, n = strlen(asset);
    for (size_t e = 0; e < r->m->entries.count; e++) {
        const entry *x = &r->m->entries.items[e];
        const char *name = asset_name_of(r, x, &len);
        if (!x->tombstone && len == n && strncasecmp(name, asset, n) == 0) return x->value;
    }
    return 0;
}

static bool resolve_glyphs(input_state *st, const domain_result *domains, size_t count)
{
    json_checker j = {st->map_path, st->text.data, st->text.len, true, "the action map", NULL};
    if (!st->m.glyphs.count && !st->m.catalog) return true;
    const domain_result *catalog = domain_of(domains, count, st->m.catalog);
    if (!catalog) {
        const char **names = xcalloc(count + 1, sizeof *names);
        for (size_t k = 0; k < count; k++) names[k] = domains[k].d->name;
        const char *near = suggest_nearest(st->m.catalog, strlen(st->m.catalog), names, count);
        jc_error(&j, "glyphs.catalog", "no domain is named \"%s\"%s%s%s (the glyphs' catalog is a content profile's domain)",
                 st->m.catalog, near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
        free(names);
        return false;
    }
    for (size_t i = 0; i < st->m.glyphs.count; i++) {
        in_glyph *g = &st->m.glyphs.items[i];
        g->asset_id = find_asset(catalog, g->asset);
        if (!g->asset_id) unknown_asset(st, &j, g, catalog);
    }
    return j.ok;
}

static bool input_resolve(void *state, const domain_result *domains, size_t count)
{
    input_state *st = state;
    if (!st) return true;
    bool ok =
        resolve_modes_and_actions(st, result_of(domains, count, st->modes_name), result_of(domains, count, st->domain_name));
    return resolve_glyphs(st, domains, count) && ok;
}

/* ---- emit ------------------------------------------------------------------------------------- */

static const char *const part_names[] = {"NONE", "NEGATIVE", "POSITIVE", "UP", "DOWN", "LEFT", "RIGHT"};
static const char *const kind_enum[] = {"BUTTON", "AXIS", "VECTOR"};

/* The domain header's include from the map header: up as many folders as the map is down. */
static void put_domain_include(buf *b, const input_state *st)
{
    buf_puts(b, "#include <threadlink/input.h>\n#include \"");
    for (const char *s = st->output; *s; s++)
        if (*s == '/') buf_puts(b, "../");
    buf_printf(b, "%s\"\n\n", st->domain_output);
}

static void put_float(buf *b, double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.9g", v);
    buf_puts(b, text);
    if (!strpbrk(text, ".e")) buf_puts(b, ".0");
    buf_putc(b, 'f');
}

static void emit_bindings(buf *b, const input_state *st)
{
    buf_printf(b, "    static const tl_input_binding_info bindings[%zu] = {\n", st->m.bindings.count ? st->m.bindings.count : 1);
    for (size_t a = 0; a < st->m.actions.count; a++) {
        const in_action *x = &st->m.actions.items[a];
        for (size_t i = x->first; i < x->first + x->count; i++) {
            const in_binding *bd = &st->m.bindings.items[i];
            char name[40];
            tl_input_control_name(bd->control, name, sizeof name);
            buf_printf(b, "        { 0x%05xu, TL_INPUT_PART_%s, ", (unsigned)bd->control, part_names[bd->part]);
            put_float(b, bd->threshold);
            buf_printf(b, " }, /* %s.%s: %s */\n", st->m.known_modes.items[x->mode].name, x->name, name);
        }
    }
    if (!st->m.bindings.count) buf_puts(b, "        { 0, TL_INPUT_PART_NONE, 0.0f },\n");
    buf_puts(b, "    };\n");
}

static void emit_actions(buf *b, const input_state *st, const char *c_name, const char *upper)
{
    buf_printf(b, "    static const tl_input_action_info actions[%zu] = {\n", st->m.actions.count ? st->m.actions.count : 1);
    for (size_t a = 0; a < st->m.actions.count; a++) {
        const in_action *x = &st->m.actions.items[a];
        const in_mode *k = &st->m.known_modes.items[x->mode];
        buf_printf(b, "        { %s_U32(%s_%s), 0x%08xu /* %s */, TL_INPUT_KIND_%s, %zu, %zu, \"%s.%s\" },\n", upper, c_name,
                   x->member, (unsigned)k->value, k->name, kind_enum[x->kind], x->first, x->count, k->name, x->name);
    }
    if (!st->m.actions.count) buf_puts(b, "        { 0, 0, 0, 0, 0, \"\" },\n");
    buf_puts(b, "    };\n");
}

static void emit_glyphs(buf *b, const input_state *st)
{
    static const char *const families[] = {"NONE", "MOUSE_AND_KEYBOARD", "XBOX", "PLAYSTATION", "SWITCH", "GAMEPAD"};
    buf_printf(b, "    static const tl_input_glyph_info glyphs[%zu] = {\n", st->m.glyphs.count ? st->m.glyphs.count : 1);
    for (size_t i = 0; i < st->m.glyphs.count; i++) {
        const in_glyph *g = &st->m.glyphs.items[i];
        char name[40];
        tl_input_control_name(g->control, name, sizeof name);
        buf_printf(b, "        { 0x%05xu, TL_INPUT_FAMILY_%s, 0x%08xu }, /* %s: ", (unsigned)g->control, families[g->family],
                   (unsigned)g->asset_id, name);
        for (const char *s = g->asset; *s; s++) buf_putc(b, (*s == '*' || (unsigned char)*s < 0x20) ? '_' : *s);
        buf_puts(b, " */\n");
    }
    if (!st->m.glyphs.count) buf_puts(b, "        { 0, 0, 0 },\n");
    buf_puts(b, "    };\n");
}

static void input_emit(void *state, size_t index, out_file *o, const emit_options *opt)
{
    input_state *st = state;
    buf *b = &o->chunk;
    (void)index;
    const char *slash = strrchr(st->output, '/');
    char *stem = xstrdup(slash ? slash + 1 : st->output), *c_name = xstrdup(st->domain_name), *upper = xstrdup(st->domain_name);
    for (char *s = stem; *s; s++) *s = ascii_is_word((unsigned char)*s) ? ascii_lower(*s) : '_';
    if (strlen(stem) > 2 && strcmp(stem + strlen(stem) - 2, "_h") == 0) stem[strlen(stem) - 2] = 0;
    for (char *s = c_name; *s; s++) *s = *s == '.' ? '_' : *s;
    for (char *s = upper; *s; s++) *s = *s == '.' ? '_' : (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s;
    buf_puts(b, "/* Generated by threadlink-gen");
    if (!opt->banner_without_version) buf_puts(b, " " TLG_VERSION);
    buf_printf(b,
               " from %s. Do not edit: change the action map and run threadlink-gen generate.\n"
               " * %s(): the action map for threadlink/input.h (tl_input_desc.map); the actions are %s. */\n",
               st->map_rel, stem, st->domain_name);
    buf_puts(b, "#ifndef ");
    emit_guard_name(b, st->output);
    buf_puts(b, "\n#define ");
    emit_guard_name(b, st->output);
    buf_puts(b, "\n\n");
    put_domain_include(b, st);
    buf_printf(b, "static inline const tl_input_map *%s(void)\n{\n", stem);
    emit_bindings(b, st);
    emit_actions(b, st, c_name, upper);
    emit_glyphs(b, st);
    buf_printf(b, "    static const tl_input_map map = { actions, %zu, bindings, %zu, glyphs, %zu, ", st->m.actions.count,
               st->m.bindings.count, st->m.glyphs.count);
    put_float(b, st->m.dead_zone);
    buf_puts(b, ", ");
    put_float(b, st->m.press_point);
    buf_puts(b, " };\n    return &map;\n}\n\n#endif\n");
    free(stem);
    free(c_name);
    free(upper);
}

static void input_free(void *state)
{
    input_state *st = state;
    if (!st) return;
    input_model_free(&st->m);
    free(st->map_path);
    free(st->map_rel);
    free(st->output);
    free(st->domain_output);
    buf_free(&st->text);
    free(st);
}

/* No check_config: the "input" key is read only once the rest of the config is. */
const gen_stage input_stage = {
    "input", input_load, input_add_domains, input_resolve, input_emit, input_free, NULL,
};
