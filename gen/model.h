/* The model: a project's domains and, for each, its declarations in merge order (native, the
 * project's User injector or definitions file, then every other injector by name). */
#ifndef TLG_MODEL_H
#define TLG_MODEL_H

#include "config.h"

typedef struct decl {
    const char *name;  /* C-safe spelling, first spelling of the entry */
    const char *key;   /* identity key: "<scope>.<name>", ASCII-lowercased */
    const char *scope; /* interned, as the injector file spells it */
    const char *signature; /* event signature text from '(' on, or NULL */
    uint32_t name_len, key_len, signature_len;
    src_loc loc;
    uint32_t signature_col;
} decl;

typedef struct domain {
    const char *name;        /* "Iris.Events" */
    char *c_name;            /* "Iris_Events": enumerator prefix */
    char *lower_name;        /* "iris_events": type and function names */
    char *upper_name;        /* "IRIS_EVENTS": macros */
    const char *output;      /* relative to the generated directory */
    char *manifest;          /* "<dir of output>/<name>.manifest.json", relative likewise */
    domain_kind kind;
    bool reserve_zero;
    bool from_definition;    /* declared by definitions/<name>.txt */
    const char *shell;       /* project-relative path, NULL for the shipped shell */
    const domain_config *cfg; /* NULL for a definitions-only domain */
    VEC(decl) decls;
    VEC(char *) sources;     /* every input file read for this domain, in merge order */
} domain;

typedef struct project {
    project_config cfg;
    VEC(domain) domains;
    VEC(char *) inputs;      /* every file and directory the run depends on (for depfiles) */
    arena strings;
} project;

/* Loads the config, finds every source and lexes it. Reports every problem; false on any error
 * (the project is then freed). */
bool model_load(const char *config_path, project *out);
void model_free(project *p);

/* The identity key of a declaration: fold(scope) "." fold(name). */
char *model_make_key(arena *a, const char *scope, const char *name, size_t name_len, uint32_t *len);

uint32_t model_hash(const char *s, size_t n);

#endif
