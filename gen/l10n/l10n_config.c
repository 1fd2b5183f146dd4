/* The "text" section of threadlink.json (schema: schemas/threadlink.schema.json, "text"):
 *
 *   "text": { "source": "text/en.po", "translations": "text", "domain": "Text.Keys",
 *             "header": "text_keys.h", "output": "text.h", "tables": "text",
 *             "prefix": "text", "missing": "warning" }
 *
 * source (required) is the source locale's PO file; translations the folder whose other *.po
 * files are the translations (default: the source's folder); domain the keys' identity domain;
 * header its enum header and output the typed functions' header, both below the generated
 * directory, as is tables, the folder of the locales' tables (<locale>.tltext); prefix names the
 * functions per key (text_Title()) and, upper-cased, their index macros; missing says
 * whether a missing translation is a warning (default) or an error (release builds). */
#include "l10n/l10n_model.h"

#include "base/fsio.h"
#include "base/json_check.h"

#include <jansson.h>
#include <string.h>

static void read_domain(json_checker *j, project *p, json_t *cfg, text_config *out)
{
    const char *name = TEXT_DEFAULT_DOMAIN;
    jc_get_string(j, cfg, "text", "domain", "a domain name", &name);
    out->domain = xstrdup(name);
    if (!config_valid_domain_name(name)) {
        jc_error(j, "text.domain",
                 "\"%s\" is not a domain name (dot-separated words of letters, digits and '_', each starting with a letter)",
                 name);
        return;
    }
    for (size_t i = 0; i < p->cfg.domains.count; i++) {
        const char *other = p->cfg.domains.items[i].name;
        if (!other || !ascii_ieq(other, strlen(other), name, strlen(name))) continue;
        char *at = xasprintf("domains[%zu].name", i);
        jc_error(
            j, at,
            "the text stage declares domain \"%s\" (text.domain) from its source file: remove this one, or set text.domain to another name",
            name);
        free(at);
    }
}

/* "prefix": a C identifier, the functions' (and, upper-cased, the index macros') prefix. */
static void read_prefix(json_checker *j, json_t *cfg, text_config *out)
{
    const char *prefix = "text";
    jc_get_string(j, cfg, "text", "prefix", "a C identifier", &prefix);
    out->prefix = xstrdup(prefix);
    if (!text_is_key(prefix, strlen(prefix)))
        jc_error(j, "text.prefix", "\"%s\" is not a C identifier (a letter, then letters, digits or '_')", prefix);
}

static void read_missing(json_checker *j, json_t *cfg, text_config *out)
{
    static const char *const modes[] = {"warning", "error", NULL};
    int mode = 0;
    jc_get_enum(j, cfg, "text", "missing", modes, &mode);
    out->missing_is_error = mode == 1;
}

/* The source file: a *.po path; the translations' folder defaults to its folder. */
static void read_source(json_checker *j, json_t *cfg, text_config *out)
{
    if (!jc_require(j, cfg, "text", "source", "the source locale's PO file, such as \"text/en.po\"")) return;
    out->source = jc_rel_path(j, cfg, "source", "text", NULL);
    if (out->source && !str_has_suffix(out->source, ".po", NULL)) {
        jc_error(j, "text.source", "\"%s\" is not a PO file (its name ends in .po: the stem names the source locale)",
                 out->source);
    }
    char *dir = out->source ? path_dirname(out->source) : NULL;
    out->translations = jc_rel_path(j, cfg, "translations", "text", dir);
    free(dir);
}

/* The outputs: two headers and a folder, below the generated directory. */
static void read_outputs(json_checker *j, json_t *cfg, text_config *out)
{
    out->header = jc_output_path(j, cfg, "header", "text", "text_keys.h", false);
    out->output = jc_output_path(j, cfg, "output", "text", "text.h", false);
    out->tables = jc_output_path(j, cfg, "tables", "text", "text", true);
    if (out->header && out->output && strcmp(out->header, out->output) == 0)
        jc_error(j, "text.output", "\"%s\" is the keys' header too (text.header): give each its own file", out->output);
}

bool text_config_load(project *p, text_config *out, bool *configured)
{
    static const char *const allowed[] = {"source", "translations", "domain",  "header", "output",
                                          "tables", "prefix",       "missing", NULL};
    memset(out, 0, sizeof *out);
    json_t *cfg = p->cfg.l10n;
    *configured = cfg != NULL;
    if (!cfg) return true;
    json_checker j = {p->cfg.path, p->cfg.text, p->cfg.text_len, true, NULL, NULL};
    out->loc = json_locate(p->cfg.path, p->cfg.text, p->cfg.text_len, "text");
    if (!json_is_object(cfg)) {
        jc_error(&j, "text", "expected an object, got %s", jc_type_name(cfg));
        return false;
    }
    jc_check_keys(&j, "text", cfg, allowed);
    read_source(&j, cfg, out);
    read_domain(&j, p, cfg, out);
    read_outputs(&j, cfg, out);
    read_prefix(&j, cfg, out);
    read_missing(&j, cfg, out);
    return j.ok;
}

void text_config_free(text_config *c)
{
    free(c->source);
    free(c->translations);
    free(c->domain);
    free(c->header);
    free(c->output);
    free(c->tables);
    free(c->prefix);
    memset(c, 0, sizeof *c);
}
