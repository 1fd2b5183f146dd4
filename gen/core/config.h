/* The project config, threadlink.json (schema: schemas/threadlink.schema.json). */
#ifndef TLG_CONFIG_H
#define TLG_CONFIG_H

#include "base/diag.h"

typedef enum domain_kind { KIND_IDENTITY, KIND_ORDINAL } domain_kind;

typedef struct domain_config {
    char *name;   /* "Iris.Events" */
    char *output; /* relative to generated_dir */
    domain_kind kind;
    bool reserve_zero;
    char *shell;  /* project-relative path, NULL for the shipped shell */
    char *native; /* project-relative path of the native entries, or NULL */
    VEC(char *) includes;
    src_loc loc; /* where the domain is declared */
} domain_config;

typedef struct project_config {
    char *path;          /* the config file as opened */
    char *root;          /* its directory: every relative path in it starts here */
    char *generated_dir; /* project-relative */
    char *injector_dir;
    char *definitions_dir; /* NULL when absent */
    VEC(domain_config) domains;
    /* Sections owned by later stages, kept as parsed JSON (jansson) for them to validate:
     * "vaults" (vault schemas and data), "content" (content profiles), "input" (the action map,
     * gen/input) and "text" (localised text, gen/l10n). NULL when absent. */
    struct json_t *vaults;
    struct json_t *content;
    struct json_t *input;
    struct json_t *l10n; /* the "text" section */
    char *text;          /* the config's text, for json_locate in those stages' diagnostics */
    size_t text_len;
} project_config;

/* Reads and validates the config; every problem is reported with file:line:col and the key path.
 * Returns false (with *out freed) if there was any error. */
bool config_load(const char *path, project_config *out);
/* config_load, except that a config that parsed but failed validation stays in *out as far as it
 * was read (a key whose value was refused is NULL), with the later stages' sections and the text,
 * so that they can report their own errors in the same run (gen_stage.check_config).
 * config_free it either way. */
bool config_load_keeping_sections(const char *path, project_config *out);
void config_free(project_config *cfg);

/* Domain names: dot-separated words, each a letter followed by letters, digits or '_'. */
bool config_valid_domain_name(const char *name);

#endif
