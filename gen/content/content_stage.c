/* The content stage of generate/headers/check: each profile's asset names become an identity
 * domain of their own ("Content.<Profile>", scope: the profile), so asset ids get manifests,
 * tombstones, headers, check and diff like any domain, and a catalog header per profile adds what
 * the names stand for: per asset its name, category, size and XXH64, a name -> id lookup and the
 * assets of each category, and the profile's source description for tl_content_register_source
 * (development builds).
 *
 *   load        content_config_load, then every profile's tree scanned (content_scan)
 *   add_domains one domain per profile, one declaration per asset (its C-safe spelling; its key
 *               follows its own name)
 *   resolve     each asset's id and member name from the merged manifest
 *   emit        content_<profile>_catalog.h */
#include "content/content_stage.h"
#include "content/content_renames.h"

#include "base/index_map.h"

#include "core/emit.h"
#include "base/fsio.h"
#include "base/stamp.h"
#include "core/stage.h"
#include "tlg_version.h"

#include <threadlink/text.h>

#include <string.h>

typedef struct content_state {
    struct project *p;
    content_config cfg;
    VEC(content_scan) scans; /* one per profile, in profile order */
    VEC(const domain *) domains;
    bool resolved;
} content_state;

/* The session's --source, if any, into its profile. */
static void apply_source_override(content_config *cfg, const content_session *session)
{
    for (size_t i = 0; session && session->source_profile && i < cfg->profiles.count; i++) {
        content_profile *pr = &cfg->profiles.items[i];
        if (!pr->name || strcmp(pr->name, session->source_profile) != 0) continue;
        free(pr->source_root);
        pr->source_root = xstrdup(session->source_root);
    }
}

static bool content_load(project *p, void **state, stage_outputs *outputs)
{
    content_state *s = xcalloc(1, sizeof *s);
    *state = s;
    s->p = p;
    if (!content_config_load(p, &s->cfg)) return false;
    apply_source_override(&s->cfg, p->content);
    content_reader how = {p->content ? p->content->memo : NULL, p->jobs};
    bool ok = true;
    for (size_t i = 0; i < s->cfg.profiles.count; i++) {
        content_profile *pr = &s->cfg.profiles.items[i];
        content_scan *sc = vec_push(&s->scans);
        bool scanned =
            content_scan_provided_root(p, pr) ? content_scan_provided(p, pr, sc) : content_scan_profile(p, pr, &how, sc);
        if (!scanned) ok = false;
        stage_output *o = vec_push(outputs);
        o->path = xstrdup(pr->catalog_header);
        o->build_output = true;
        o->of_contents = true; /* the catalog lists each asset's size and XXH64 */
        o->where = pr->loc;
    }
    return ok;
}

/* Appends the profile's identity domain, one declaration per asset. */
static bool content_stage_add_domains(project *p, const content_profile *pr, const content_scan *sc)
{
    domain *d = model_add_domain(p, pr->domain);
    d->declared_at = pr->loc;
    d->output = arena_strndup(&p->strings, pr->header, strlen(pr->header));
    char *base = xasprintf("%s.manifest.json", d->name);
    char *dir = path_dirname(d->output);
    d->manifest = path_join(dir, base);
    free(base);
    free(dir);
    d->kind = KIND_IDENTITY;
    d->reserve_zero = true; /* 0 is "no asset" in every catalog and archive */
    decl_source *src = vec_push(&d->sources);
    src->path = arena_strndup(&p->strings, sc->root, strlen(sc->root));
    src->scope = arena_strndup(&p->strings, pr->scope, strlen(pr->scope));
    size_t n = sc->assets.count;
    d->asset_names = xcalloc(n ? n : 1, sizeof *d->asset_names);
    d->asset_files = xcalloc(n ? n : 1, sizeof *d->asset_files);
    for (size_t i = 0; i < n; i++) {
        const content_asset *a = &sc->assets.items[i];
        size_t len = strlen(a->c_name);
        *vec_push(&d->decls) = (decl){arena_strndup(&p->strings, a->c_name, len), (uint32_t)len, 0, 0, 0};
        d->asset_names[i] = arena_strndup(&p->strings, a->name, strlen(a->name));
        char *file = path_join(sc->root, a->path);
        d->asset_files[i] = arena_strndup(&p->strings, file, strlen(file));
        free(file);
    }
    return content_add_renames(p, d, pr, sc); /* content_renames.c: <source root>/.content-renames */
}

static bool content_add_domains(void *state, project *p)
{
    content_state *s = state;
    for (size_t i = 0; i < s->cfg.profiles.count; i++)
        if (!content_stage_add_domains(p, &s->cfg.profiles.items[i], &s->scans.items[i])) return false;
    return true;
}

/* Sets each asset's id and member name from the domain's merged manifest; false (reported) when
 * an asset has no live entry. */
static bool content_stage_resolve(const content_profile *pr, content_scan *sc, const manifest *m)
{
    /* Keys as identity builds them (model_asset_key); found through a hash set of the manifest's
     * keys (a profile may hold many thousands of assets). */
    buf key = {0};
    bool ok = true;
    index_map by_key;
    manifest_index_live_keys(m, &by_key);
    for (size_t i = 0; i < sc->assets.count; i++) {
        content_asset *a = &sc->assets.items[i];
        model_asset_key(pr->scope, a->name, &key);
        a->id = 0;
        a->member = NULL;
        uint32_t e = manifest_find_live_key(&by_key, m, key.data, key.len);
        if (e != UINT32_MAX) {
            a->id = m->entries.items[e].value;
            a->member = m->entries.items[e].name;
        }
        if (!a->member) {
            diag_error(pr->loc, "asset \"%s\" has no live entry in the manifest of %s; run %s", a->name, pr->domain,
                       diag_generate_command());
            ok = false;
        }
    }
    buf_free(&key);
    index_map_free(&by_key);
    return ok;
}

static bool content_resolve(void *state, const domain_result *domains, size_t count)
{
    content_state *s = state;
    bool ok = true;
    for (size_t i = 0; i < s->cfg.profiles.count; i++) {
        content_profile *pr = &s->cfg.profiles.items[i];
        const domain_result *r = NULL;
        for (size_t k = 0; k < count; k++)
            if (strcmp(domains[k].d->name, pr->domain) == 0) r = &domains[k];
        const manifest *m = r ? r->m : NULL;
        const content_session *session = s->p->content;
        if (!m || !content_stage_resolve(pr, &s->scans.items[i], m)) ok = false;
        else if (session && session->keep) session->keep(session->keep_ctx, pr, &s->scans.items[i], r->manifest_path);
        if (m) content_report_moves(s->p, pr, &s->scans.items[i], m); /* content_renames.c */
    }
    s->resolved = ok;
    return ok;
}

/* A C string literal: printable ASCII as is, everything else (and " \ ?) as octal escapes, so
 * no name can end a comment, form a trigraph or break the literal. */
static void put_c_string(buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '?') buf_putc(b, (char)*p);
        else buf_printf(b, "\\%03o", *p);
    }
    buf_putc(b, '"');
}

/* A catalog header in the making: the profile's names in the forms the emitters use, and its
 * assets in folded-name order (the order the lookup searches). */
typedef struct catalog_out {
    out_file *o;
    buf *b;
    const content_profile *pr;
    char *lower, *upper, *c_name;
    size_t n, ncat;
    const content_asset **sorted;
} catalog_out;

#define CATALOG_LOCALS(c) \
    buf *b = (c)->b; \
    const content_profile *pr = (c)->pr; \
    const char *lower = (c)->lower; \
    const char *upper = (c)->upper; \
    size_t n = (c)->n, ncat = (c)->ncat; \
    const content_asset *const *sorted = (c)->sorted; \
    (void)b, (void)pr, (void)lower, (void)upper, (void)n, (void)ncat, (void)sorted

/* Banner, guard, includes, TL_GENERATED_NULL, the category enum and the asset struct. */
static void emit_catalog_prologue(const catalog_out *c, const char *config_name, const emit_options *opt)
{
    CATALOG_LOCALS(c);
    buf_puts(b, "/* Generated by threadlink-gen");
    if (!opt->banner_without_version) buf_puts(b, " " TLG_VERSION);
    buf_printf(b, " from %s, %s/.\n * Do not edit: change the content and run threadlink-gen generate (or pack). */\n",
               config_name, pr->source_root);
    buf_puts(b, "#ifndef ");
    emit_guard_name(b, pr->catalog_header);
    buf_puts(b, "\n#define ");
    emit_guard_name(b, pr->catalog_header);
    buf_puts(b, "\n\n#include <stddef.h>\n#include <stdint.h>\n\n");
    buf_printf(b, "#include \"%s\"\n\n", path_basename(pr->header));
    /* The lookups' null pointer: C++ (-Wzero-as-null-pointer-constant) wants nullptr. The casts
     * use the enum header's TL_GENERATED_CAST. */
    buf_puts(b, "#ifndef TL_GENERATED_NULL\n"
                "#if defined(__cplusplus) && __cplusplus >= 201103L\n"
                "#define TL_GENERATED_NULL nullptr\n"
                "#else\n"
                "#define TL_GENERATED_NULL NULL\n"
                "#endif\n"
                "#endif\n\n");

    buf_printf(b,
               "/* The catalog of content profile %s: its categories, and per asset its id (%s), name,\n"
               " * category, size in bytes and XXH64 (seed 0) of its bytes. */\n",
               pr->scope, lower);
    buf_printf(b, "typedef enum %s_category {\n", lower);
    for (size_t k = 0; k < ncat; k++)
        buf_printf(b, "    %s_CATEGORY_%s = %zu%s\n", upper, pr->categories.items[k].name, k, k + 1 < ncat ? "," : "");
    buf_printf(b, "} %s_category;\n\n", lower);
    buf_printf(b, "#define %s_CATEGORY_COUNT %zu\n#define %s_ASSET_COUNT %zu\n\n", upper, ncat, upper, n);
    buf_printf(b,
               "typedef struct %s_asset {\n    %s id;\n    const char *name;\n    %s_category category;\n"
               "    uint64_t size;\n    uint64_t xxh64;\n} %s_asset;\n\n",
               lower, lower, lower, lower);
}

/* <profile>_assets(): every asset, sorted by folded name. */
static void emit_catalog_assets(const catalog_out *c)
{
    CATALOG_LOCALS(c);
    out_file *o = c->o;
    const char *c_name = c->c_name;
    buf_printf(b,
               "/* Every asset, sorted by name with ASCII letters folded to lower case. */\n"
               "static inline const %s_asset *%s_assets(void)\n{\n    static const %s_asset assets[%zu] = {\n",
               lower, lower, lower, n ? n : 1);
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) { /* plain appends, not printf: a line per asset, every generate */
        const content_asset *a = sorted[i];
        buf_puts(b, "        {");
        buf_puts(b, c_name);
        buf_putc(b, '_');
        buf_puts(b, a->member ? a->member : a->c_name);
        buf_puts(b, ", ");
        put_c_string(b, a->name);
        buf_puts(b, ", ");
        buf_puts(b, upper);
        buf_puts(b, "_CATEGORY_");
        buf_puts(b, pr->categories.items[a->category].name);
        buf_puts(b, ", UINT64_C(");
        buf_put_u64(b, a->size);
        buf_puts(b, "), UINT64_C(0x");
        for (int shift = 60; shift >= 0; shift -= 4) buf_putc(b, hex[(a->xxh64 >> shift) & 15]);
        buf_puts(b, ")},\n");
        out_maybe_flush(o);
    }
    if (!n) buf_printf(b, "        {TL_GENERATED_CAST(%s, 0), \"\", TL_GENERATED_CAST(%s_category, 0), 0, 0},\n", lower, lower);
    buf_puts(b, "    };\n    return assets;\n}\n\n");
}

/* <profile>_find(name), by binary search over the folded names, and <profile>_info(id). */
static void emit_catalog_finds(const catalog_out *c)
{
    CATALOG_LOCALS(c);
    buf_printf(b,
               "static inline int %s__fold_compare(const char *a, const char *b)\n{\n"
               "    for (;; a++, b++) {\n"
               "        unsigned char x = TL_GENERATED_CAST(unsigned char, *a), y = TL_GENERATED_CAST(unsigned char, *b);\n"
               "        if (x >= 'A' && x <= 'Z') x = TL_GENERATED_CAST(unsigned char, x + 32);\n"
               "        if (y >= 'A' && y <= 'Z') y = TL_GENERATED_CAST(unsigned char, y + 32);\n"
               "        if (x != y || !x) return TL_GENERATED_CAST(int, x) - TL_GENERATED_CAST(int, y);\n"
               "    }\n}\n\n",
               lower);
    buf_printf(b,
               "/* The asset called `name` (ASCII case-insensitive, as the build compares names), or NULL. */\n"
               "static inline const %s_asset *%s_find(const char *name)\n{\n"
               "    const %s_asset *assets = %s_assets();\n"
               "    size_t lo = 0, hi = %s_ASSET_COUNT;\n"
               "    while (lo < hi) {\n"
               "        size_t mid = lo + (hi - lo) / 2;\n"
               "        int c = %s__fold_compare(assets[mid].name, name);\n"
               "        if (c == 0) return &assets[mid];\n"
               "        if (c < 0) lo = mid + 1;\n"
               "        else hi = mid;\n"
               "    }\n"
               "    return TL_GENERATED_NULL;\n}\n\n",
               lower, lower, lower, lower, upper, lower);
    if (n) {
        buf_printf(b,
                   "/* The asset with id `id`, or NULL. */\n"
                   "static inline const %s_asset *%s_info(%s id)\n{\n"
                   "    const %s_asset *assets = %s_assets();\n"
                   "    size_t i;\n"
                   "    for (i = 0; i < %s_ASSET_COUNT; i++)\n"
                   "        if (assets[i].id == id) return &assets[i];\n"
                   "    return TL_GENERATED_NULL;\n}\n\n",
                   lower, lower, lower, lower, lower, upper);
    } else { /* no loop over no assets: `i < 0` is a -Wtype-limits warning */
        buf_printf(b,
                   "/* The asset with id `id`, or NULL: this profile has no assets. */\n"
                   "static inline const %s_asset *%s_info(%s id)\n{\n"
                   "    (void)id;\n"
                   "    return TL_GENERATED_NULL;\n}\n\n",
                   lower, lower, lower);
    }
}

static void emit_catalog_categories(const catalog_out *c)
{
    CATALOG_LOCALS(c);
    /* Per category: indices into the asset table, in name order, and where each starts. */
    buf_printf(b,
               "/* The assets of a category (indices into %s_assets(), in name order); *count gets their number. */\n"
               "static inline const uint32_t *%s_category_assets(%s_category category, size_t *count)\n{\n"
               "    static const uint32_t members[%zu] = {",
               lower, lower, lower, n ? n : 1);
    size_t col = 0;
    for (size_t k = 0; k < ncat; k++)
        for (size_t i = 0; i < n; i++)
            if (sorted[i]->category == k) {
                buf_printf(b, "%s%zu,", col % 16 == 0 ? "\n        " : " ", i);
                col++;
            }
    if (!n) buf_puts(b, "0");
    buf_printf(b, "\n    };\n    static const uint32_t first[%zu] = {", ncat + 1);
    size_t at = 0;
    for (size_t k = 0; k <= ncat; k++) {
        buf_printf(b, "%s%zu", k ? ", " : "", at);
        if (k < ncat)
            for (size_t i = 0; i < n; i++) at += sorted[i]->category == k;
    }
    /* The category as a size_t variable first: compared with the count as a cast, g++ -Wconversion
     * narrows the count to the enum and warns when its range cannot hold it (4 categories: 0..3). */
    buf_printf(b,
               "};\n    size_t at = TL_GENERATED_CAST(size_t, category);\n"
               "    if (at >= %s_CATEGORY_COUNT) {\n        *count = 0;\n        return members;\n    }\n"
               "    *count = first[at + 1] - first[at];\n    return members + first[at];\n}\n\n",
               upper);
}

/* The profile as the config declares it, for tl_content_register_source (content.h, TL_CONTENT_LIVE): its name
 * and source root as macros; in development builds (TL_CONTENT_LIVE), <profile>_source_desc(),
 * its categories and folders, naming rule, archive mode and the catalog's ids, ready to register. */
static void emit_catalog_source(const catalog_out *c, const char *config_name)
{
    CATALOG_LOCALS(c);
    buf_printf(b,
               "/* Profile %s as %s declares it, for a development build (TL_CONTENT_LIVE) that serves it\n"
               " * from its source tree (threadlink/content.h with TL_CONTENT_LIVE; the root is relative to the folder of %s):\n"
               " *     tl_content_source_desc src = %s_source_desc();\n"
               " *     tl_content_register_source(content, %s_PROFILE, %s_SOURCE_ROOT, &src);\n"
               " * %s_source_desc() gives its categories and folders, naming rule, archive mode and this\n"
               " * catalog's ids; the watch and the poll budgets are the defaults (set them on the copy). */\n",
               pr->scope, config_name, config_name, lower, upper, upper, lower);
    buf_printf(b, "#define %s_PROFILE ", upper);
    put_c_string(b, pr->name);
    buf_printf(b, "\n#define %s_SOURCE_ROOT ", upper);
    put_c_string(b, pr->source_root);
    buf_printf(b, "\n\n#ifdef TL_CONTENT_LIVE\n#include <string.h>\n\n#include <threadlink/content.h>\n\n");
    buf_printf(b,
               "/* This catalog's id of an asset name, 0 when it does not carry it (the source description's catalog_id). */\n"
               "static inline uint32_t %s_source_catalog_id(void *user, const char *name)\n{\n"
               "    const %s_asset *a = %s_find(name);\n"
               "    (void)user;\n"
               "    return a ? %s_U32(a->id) : 0u;\n}\n\n",
               lower, lower, lower, upper);
    buf_printf(b,
               "static inline tl_content_source_desc %s_source_desc(void)\n{\n"
               "    static const tl_content_source_category categories[%zu] = {\n",
               lower, ncat);
    for (size_t k = 0; k < ncat; k++) {
        buf_puts(b, "        {");
        put_c_string(b, pr->categories.items[k].name);
        buf_puts(b, ", ");
        put_c_string(b, pr->categories.items[k].folder);
        buf_puts(b, "},\n");
    }
    buf_printf(b,
               "    };\n    tl_content_source_desc desc;\n    memset(&desc, 0, sizeof desc);\n"
               "    desc.categories = categories;\n    desc.category_count = %zu;\n"
               "    desc.names_path = %s;\n    desc.flat = %s;\n    desc.catalog_id = %s_source_catalog_id;\n"
               "    return desc;\n}\n#endif /* TL_CONTENT_LIVE */\n\n",
               ncat, pr->names == CONTENT_NAMES_PATH ? "true" : "false", pr->archive == CONTENT_ARCHIVE_NONE ? "true" : "false",
               lower);
}

static void content_emit_catalog_header(out_file *o, const content_profile *pr, const content_scan *sc, const char *config_name,
                                        const emit_options *opt)
{
    catalog_out c = {
        o,   &o->chunk, pr, xstrdup(pr->domain), xstrdup(pr->domain), xstrdup(pr->domain), sc->assets.count, pr->categories.count,
        NULL};
    for (char *l = c.lower, *u = c.upper, *cn = c.c_name; *l; l++, u++, cn++) {
        if (*l == '.') *l = *u = *cn = '_';
        *l = ascii_lower(*l);
        if (*u >= 'a' && *u <= 'z') *u = (char)(*u - 32);
    }
    c.sorted = xcalloc(c.n ? c.n : 1, sizeof *c.sorted);
    uint32_t *folded = xcalloc(c.n ? c.n : 1, sizeof *folded);
    content_scan_folded_order(sc, folded); /* sorted once, by the scan */
    for (size_t i = 0; i < c.n; i++) c.sorted[i] = &sc->assets.items[folded[i]];
    free(folded);
    emit_catalog_prologue(&c, config_name, opt);
    emit_catalog_assets(&c);
    emit_catalog_finds(&c);
    emit_catalog_categories(&c);
    emit_catalog_source(&c, config_name);
    buf_puts(c.b, "#endif /* ");
    emit_guard_name(c.b, pr->catalog_header);
    buf_puts(c.b, " */\n");
    free(c.sorted);
    free(c.lower);
    free(c.upper);
    free(c.c_name);
}

static void content_emit(void *state, size_t index, out_file *o, const emit_options *opt)
{
    content_state *s = state;
    const char *cfg = path_basename(s->p->cfg.path);
    content_emit_catalog_header(o, &s->cfg.profiles.items[index], &s->scans.items[index], cfg, opt);
}

static void content_free(void *state)
{
    content_state *s = state;
    for (size_t i = 0; i < s->scans.count; i++) content_scan_free(&s->scans.items[i]);
    vec_free(&s->scans);
    vec_free(&s->domains);
    content_config_free(&s->cfg);
    free(s);
}

/* The content section of a config whose own part failed: read as a load reads it, against a
 * project of that config alone (a refused directory key at its default), then dropped. */
static void content_check_config(const project_config *cfg)
{
    project p = {.cfg = *cfg, .input_hash = hasher_new()};
    if (!p.cfg.generated_dir) p.cfg.generated_dir = (char *)"generated";
    if (!p.cfg.injector_dir) p.cfg.injector_dir = (char *)"injectors";
    content_config cc;
    if (content_config_load(&p, &cc)) content_config_free(&cc);
    for (size_t i = 0; i < p.inputs.count; i++) free(p.inputs.items[i]);
    vec_free(&p.inputs);
    hasher_free(p.input_hash);
}

const gen_stage content_stage = {
    "content", content_load, content_add_domains, content_resolve, content_emit, content_free, content_check_config,
};
