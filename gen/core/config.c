/* threadlink.json: parsed by jansson, validated key by key. Errors name the key path and, through
 * json_locate, the line and column of the offending value. Unknown keys are errors. */
#include "core/config.h"

#include "base/fsio.h"
#include "base/json_check.h"
#include "base/suggest.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <strings.h>

bool config_valid_domain_name(const char *name)
{
    bool at_word_start = true;
    if (!*name) return false;
    for (const char *p = name; *p; p++) {
        char c = *p;
        if (at_word_start) {
            if (!((c | 32) >= 'a' && (c | 32) <= 'z')) return false;
            at_word_start = false;
        } else if (c == '.') {
            at_word_start = true;
        } else if (!ascii_is_word((unsigned char)c)) {
            return false;
        }
    }
    return !at_word_start;
}

/* "name": a domain name. */
static void read_domain_name(json_checker *r, json_t *d, const char *path, domain_config *out)
{
    const char *name = NULL;
    if (!jc_require(r, d, path, "name", NULL) || !jc_get_string(r, d, path, "name", NULL, &name)) return;
    if (config_valid_domain_name(name)) {
        out->name = xstrdup(name);
        return;
    }
    char *sub = jc_key(path, "name");
    jc_error(r, sub, "\"%s\" is not a domain name (dot-separated words of letters, digits and '_', each starting with a letter)",
             name);
    free(sub);
}

/* One "includes" entry: a header path, without the quotes or angle brackets that are ours to write. */
static void read_include(json_checker *r, json_t *h, const char *item, domain_config *out)
{
    const char *s = json_is_string(h) ? json_string_value(h) : NULL;
    if (!s) {
        jc_error(r, item, "expected a string, got %s", jc_type_name(h));
    } else if (!s[0] || strpbrk(s, "\"<>\n\r")) {
        /* "<stdio.h>" or "\"x.h\"": the delimiters are ours to write */
        size_t n = strlen(s);
        bool wrapped = n > 2 && ((s[0] == '<' && s[n - 1] == '>') || (s[0] == '"' && s[n - 1] == '"'));
        for (size_t k = 1; wrapped && k + 1 < n; k++)
            if (strchr("\"<>\n\r", s[k])) wrapped = false;
        if (wrapped)
            jc_error(
                r, item,
                "\"%s\" is not a header name: give the path alone (\"%.*s\"), which the header includes as #include \"%.*s\" (that finds system headers too)",
                s, (int)(n - 2), s + 1, (int)(n - 2), s + 1);
        else
            jc_error(r, item, "\"%s\" is not a header name (a path such as \"game/types.h\", without quotes or angle brackets)",
                     s);
    } else {
        *vec_push(&out->includes) = xstrdup(s);
    }
}

static void read_domain(json_checker *r, json_t *d, size_t index, domain_config *out)
{
    static const char *const allowed[] = {"name", "output", "kind", "reserve_zero", "shell", "native", "includes", NULL};
    static const char *const kinds[] = {"identity", "ordinal", NULL}; /* in domain_kind's order */
    char *path = jc_index("domains", index);
    memset(out, 0, sizeof *out);
    out->loc = json_locate(r->file, r->text, r->len, path);
    if (!json_is_object(d)) {
        jc_error(r, path, "expected an object, got %s", jc_type_name(d));
        free(path);
        return;
    }
    jc_check_keys(r, path, d, allowed);
    read_domain_name(r, d, path, out);
    out->output = jc_output_path(r, d, "output", path, NULL, false);
    jc_require(r, d, path, "output", NULL);
    int kind = KIND_IDENTITY;
    jc_get_enum(r, d, path, "kind", kinds, &kind);
    out->kind = (domain_kind)kind;
    jc_get_bool(r, d, path, "reserve_zero", &out->reserve_zero);
    out->shell = jc_rel_path(r, d, "shell", path, NULL);
    out->native = jc_rel_path(r, d, "native", path, NULL);
    json_t *inc = jc_get_array(r, d, path, "includes", "an array of header names");
    size_t i;
    json_t *h;
    json_array_foreach(inc, i, h) {
        char *item = xasprintf("%s.includes[%zu]", path, i);
        read_include(r, h, item, out);
        free(item);
    }
    free(path);
}

/* ---- Path lengths ----------------------------------------------------------------------------
 *
 * A path the config names that the system cannot hold (a name over NAME_MAX, a path over PATH_MAX)
 * is reported at the key that names it, before anything is read or written: left to the file
 * system, it would surface as an error at the first file below it (a manifest, an entries file),
 * or as a missing directory when a parent is missing too. Each path is measured as the generator
 * opens it: joined to the project root, or to the generated directory for what is written there. */

/* base/rel within the limits, else reported at `key` (rel NULL: nothing to check). */
static bool path_fits(json_checker *r, const char *key, const char *base, const char *rel, const char *what)
{
    if (!rel) return true;
    char *full = path_join(base, rel);
    bool ok = jc_path_fits(r, key, full, what);
    free(full);
    return ok;
}

/* A domain's header and its manifest beside it (in the generated directory `gen_dir`, NULL when
 * that is already refused), its shell and native file, and the headers it includes. */
static void domain_paths_fit(json_checker *r, size_t index, const domain_config *d, const char *root, const char *gen_dir)
{
    char *at = jc_index("domains", index), *key = jc_key(at, "output");
    if (gen_dir && d->output && path_fits(r, key, gen_dir, d->output, NULL) && d->name) {
        char *dir = path_dirname(d->output), *name = xasprintf("%s.manifest.json", d->name), *manifest = path_join(dir, name);
        path_fits(r, key, gen_dir, manifest, "the path of its manifest");
        free(dir), free(name), free(manifest);
    }
    free(key);
    const char *keys[] = {"shell", "native"}, *values[] = {d->shell, d->native};
    for (size_t k = 0; k < 2; k++) {
        key = jc_key(at, keys[k]);
        path_fits(r, key, root, values[k], NULL);
        free(key);
    }
    for (size_t i = 0; i < d->includes.count; i++) {
        key = xasprintf("%s.includes[%zu]", at, i);
        jc_path_fits(r, key, d->includes.items[i], NULL); /* as the header spells it: the compiler finds it */
        free(key);
    }
    free(at);
}

/* The vault stage's folders (vaults.schemas and vaults.data below the project root, vaults.output
 * below the generated directory), when they are strings: their other checks are that stage's. */
static void vault_paths_fit(json_checker *r, json_t *vaults, const char *root, const char *gen_dir)
{
    static const char *const keys[] = {"schemas", "data", "output"};
    for (size_t k = 0; json_is_object(vaults) && k < 3; k++) {
        json_t *v = json_object_get(vaults, keys[k]);
        const char *base = k < 2 ? root : gen_dir;
        if (!json_is_string(v) || !base) continue;
        char *key = jc_key("vaults", keys[k]);
        path_fits(r, key, base, json_string_value(v), NULL);
        free(key);
    }
}

/* Every path-valued key of the config but the directories it reads (require_dir) and those of
 * the content section (content_config.c). */
static void config_paths_fit(json_checker *r, json_t *root, const project_config *cfg)
{
    char *gen_dir = cfg->generated_dir ? path_join(cfg->root, cfg->generated_dir) : NULL;
    if (gen_dir && !jc_path_fits(r, "generated_dir", gen_dir, NULL)) free(gen_dir), gen_dir = NULL;
    for (size_t i = 0; i < cfg->domains.count; i++) domain_paths_fit(r, i, &cfg->domains.items[i], cfg->root, gen_dir);
    vault_paths_fit(r, json_object_get(root, "vaults"), cfg->root, gen_dir);
    free(gen_dir);
}

/* The folder beside a missing one whose name is a likely typo of its name (injector for
 * injectors), or NULL. */
static char *nearest_sibling_dir(const char *dir)
{
    char *parent = path_dirname(dir), *found = NULL;
    const char *name = path_basename(dir);
    name_list names = {0};
    if (fs_list_dir(parent, &names)) {
        size_t dirs = 0;
        for (size_t i = 0; i < names.count; i++) {
            char *p = path_join(parent, names.items[i]);
            if (fs_kind_follow(p) == FS_DIR) names.items[dirs++] = names.items[i];
            else free(names.items[i]);
            free(p);
        }
        names.count = dirs;
        const char *near = suggest_nearest(name, strlen(name), (const char *const *)names.items, names.count);
        if (near && strcasecmp(near, name) != 0) found = xstrdup(near); /* a case variant has its own note */
    }
    name_list_free(&names);
    free(parent);
    return found;
}

static void require_dir(json_checker *r, json_t *root, const char *key, const char *project_root, const char *rel)
{
    if (!rel || !json_object_get(root, key) || !path_fits(r, key, project_root, rel, NULL)) return;
    char *dir = path_join(project_root, rel);
    fs_kind k = fs_kind_follow(dir);
    if (k == FS_MISSING && errno == ENAMETOOLONG) {
        jc_error(r, key, "%s", fs_path_failure(dir, errno));
    } else if (k == FS_MISSING) {
        char *near = nearest_sibling_dir(dir);
        const char *slash = strrchr(rel, '/');
        if (near)
            jc_error(r, key, "directory \"%s\" does not exist: did you mean \"%.*s%s\"? (or create it, or leave the key out)",
                     rel, slash ? (int)(slash - rel + 1) : 0, rel, near);
        else jc_error(r, key, "directory \"%s\" does not exist (create it, or leave the key out)", rel);
        free(near);
        fs_note_case_variant(json_locate(r->file, r->text, r->len, key), dir);
    } else if (k != FS_DIR) {
        jc_error(r, key, "\"%s\" is not a directory", rel);
    }
    free(dir);
}

static bool config_read(const char *path, project_config *out, bool keep_sections);

bool config_load(const char *path, project_config *out) { return config_read(path, out, false); }
bool config_load_keeping_sections(const char *path, project_config *out) { return config_read(path, out, true); }

/* The folder above the working one that holds `name` (a project config by its default name), as
 * "..", "../.." and so on up to 8 levels, or NULL: a command run from a project's subfolder. */
static char *config_above(const char *name)
{
    if (strchr(name, '/')) return NULL;
    buf up = {0};
    char *found = NULL;
    for (int level = 1; level <= 8 && !found; level++) {
        buf_puts(&up, level == 1 ? ".." : "/..");
        char *candidate = xasprintf("%s/%s", up.data, name);
        if (fs_kind_of(candidate) == FS_FILE) found = xstrdup(up.data);
        free(candidate);
    }
    buf_free(&up);
    return found;
}

static void report_no_config(const char *path)
{
    char *above = config_above(path);
    if (above)
        diag_error(loc_file(path), "no project config here; the project is in %s (%s/%s): run there, or pass -C %s", above, above,
                   path, above);
    else
        diag_error(
            loc_file(path),
            "no project config here: start a project with threadlink-gen init [--build meson|cmake|make] DIR, or run in a project's folder (-C DIR)");
    free(above);
}

static bool config_read(const char *path, project_config *out, bool keep_sections)
{
    static const char *const allowed[] = {
        "$schema", "generated_dir", "injector_dir", "definitions_dir", "domains", "vaults", "content", "input", "text", NULL};
    memset(out, 0, sizeof *out);
    buf text = {0};
    if (!fs_read_input(path, FS_INPUT_CONFIG, &text)) {
        if (fs_kind_of(path) == FS_MISSING && errno == ENOENT) report_no_config(path);
        else diag_error(loc_file(path), "cannot read the project config: %s", fs_read_failure());
        buf_free(&text);
        return false;
    }
    json_checker r = {path, text.data, text.len, true, NULL, NULL};
    json_t *root = jc_load(path, text.data, text.len);
    if (!root) {
        buf_free(&text);
        return false;
    }
    out->path = xstrdup(path);
    out->root = path_dirname(path);
    if (!json_is_object(root)) {
        jc_error(&r, "", "the project config must be a JSON object, got %s", jc_type_name(root));
    } else {
        jc_check_keys(&r, "", root, allowed);
        out->generated_dir = jc_output_path(&r, root, "generated_dir", "", "generated", true);
        out->injector_dir = jc_rel_path(&r, root, "injector_dir", "", "injectors");
        out->definitions_dir = jc_rel_path(&r, root, "definitions_dir", "", NULL);
        /* A directory the config names must exist: a misspelt one would read as "no entries" and
         * turn every entry of its domains into a tombstone. */
        require_dir(&r, root, "injector_dir", out->root, out->injector_dir);
        require_dir(&r, root, "definitions_dir", out->root, out->definitions_dir);
        json_t *domains = jc_get_array(&r, root, "", "domains", NULL);
        if (domains) {
            size_t i;
            json_t *d;
            json_array_foreach(domains, i, d) read_domain(&r, d, i, vec_push(&out->domains));
            /* One domain, one declaration. */
            for (size_t a = 0; a < out->domains.count; a++)
                for (size_t b = 0; b < a; b++) {
                    const char *na = out->domains.items[a].name, *nb = out->domains.items[b].name;
                    if (na && nb && ascii_ieq(na, strlen(na), nb, strlen(nb))) {
                        char *p = xasprintf("domains[%zu].name", a);
                        jc_error(&r, p, "domain \"%s\" is already declared as domains[%zu]", na, b);
                        free(p);
                    }
                }
        }
        config_paths_fit(&r, root, out);
    }
    if ((r.ok || keep_sections) && json_is_object(root)) {
        out->vaults = json_incref(json_object_get(root, "vaults"));
        out->content = json_incref(json_object_get(root, "content"));
        out->input = json_incref(json_object_get(root, "input"));
        out->l10n = json_incref(json_object_get(root, "text"));
        out->text = xstrndup(text.data, text.len);
        out->text_len = text.len;
    } else if (!r.ok) {
        config_free(out);
    }
    json_decref(root);
    buf_free(&text);
    return r.ok;
}

void config_free(project_config *cfg)
{
    for (size_t i = 0; i < cfg->domains.count; i++) {
        domain_config *d = &cfg->domains.items[i];
        free(d->name);
        free(d->output);
        free(d->shell);
        free(d->native);
        for (size_t j = 0; j < d->includes.count; j++) free(d->includes.items[j]);
        vec_free(&d->includes);
    }
    vec_free(&cfg->domains);
    free(cfg->path);
    free(cfg->root);
    free(cfg->generated_dir);
    free(cfg->injector_dir);
    free(cfg->definitions_dir);
    json_decref(cfg->vaults);
    json_decref(cfg->content);
    json_decref(cfg->input);
    json_decref(cfg->l10n);
    free(cfg->text);
    memset(cfg, 0, sizeof *cfg);
}
