/* The model: a project's domains and, for each, its declarations in merge order (native, the
 * project's User injector or definitions file, then every other injector by name). */
#ifndef TLG_MODEL_H
#define TLG_MODEL_H

#include "core/config.h"
#include "core/event_sig.h"

/* One declared entry. Kept small: a domain may hold a million of them. */
typedef struct decl {
    const char *name; /* C-safe spelling, first spelling of the entry */
    uint32_t name_len;
    uint32_t line, col;
    uint32_t source; /* index into the domain's sources: the file and the scope */
} decl;

typedef struct decl_source {
    char *path;        /* as the user reaches it from the working directory */
    const char *scope; /* the injector name: "Native", "User", a module's name */
} decl_source;

/* An event signature: the text from '(' to the end of its line (ordinal domains only). */
typedef struct decl_signature {
    uint32_t decl;
    const char *text;
    uint32_t len, col;
    event_sig sig; /* parsed, once the model has loaded */
} decl_signature;

/* A declaration whose C spelling differs from how it was written ("Big Axe" -> Big_Axe). */
typedef struct decl_spelling {
    uint32_t decl;
    const char *text;
} decl_spelling;

/* A rename, "Elixir <- Potion": declaration `decl` is the renamed form of the entry with the key
 * fold(scope) "." fold(name), which keeps its value (core/identity.c). */
typedef struct decl_rename {
    uint32_t decl;
    const char *scope; /* the old entry's scope: the line's "Scope." or the declaration's own */
    const char *name;  /* the old entry's C-safe name; an asset's own name in content domains */
    uint32_t name_len;
    uint32_t line, col; /* where the old name is written */
    const char *file;   /* where the rename is written; NULL: the declaration's own file */
} decl_rename;

typedef struct domain {
    const char *name;   /* "Iris.Events" */
    char *c_name;       /* "Iris_Events": enumerator prefix */
    char *lower_name;   /* "iris_events": type and function names */
    char *upper_name;   /* "IRIS_EVENTS": macros */
    const char *output; /* relative to the generated directory */
    char *manifest;     /* "<dir of output>/<name>.manifest.json", relative likewise */
    domain_kind kind;
    bool reserve_zero;
    bool from_definition;     /* declared by definitions/<name>.txt */
    const char *shell;        /* project-relative path, NULL for the shipped shell */
    const domain_config *cfg; /* NULL for a definitions-only domain */
    src_loc declared_at;      /* a stage's domain: its content profile, "text" or "input" section */
    VEC(decl) decls;
    VEC(decl_source) sources; /* every input file read for this domain, in merge order */
    VEC(decl_signature) signatures;
    VEC(decl_spelling) spellings; /* in declaration order; only the rewritten ones */
    VEC(decl_rename) renames;     /* in declaration order */
    /* Content domains (Content.<Profile>), per declaration: the asset's own name, which its key
     * follows (model_asset_key), and its file. NULL in every other domain. */
    const char **asset_names;
    const char **asset_files;
} domain;

/* A file this run writes that a later stage reads as an input: the text stage's tables, which a
 * content profile may pack. A stage listed before its reader provides it during load, with the
 * bytes this run writes, so that the reader takes them instead of the older copy on disk (an
 * output is never an input of the run that writes it). */
typedef struct provided_file {
    char *folder; /* project-relative, as the config names folders */
    char *name;   /* its name in the folder */
    unsigned char *bytes;
    size_t size;
} provided_file;

typedef struct project {
    project_config cfg;
    VEC(domain) domains;
    VEC(char *) inputs;        /* every file and directory the run depends on (for depfiles) */
    struct hasher *input_hash; /* every byte read, with file names (stamp.h) */
    /* The bytes of asset files (their names go to input_hash): apart, so that the stamp tells a
     * change of asset bytes alone from any other. NULL: they go to input_hash too. */
    struct hasher *contents_hash;
    bool vault_images; /* watch: also each vault data file's binary image */
    bool build_step;   /* headers (not pack's pass): what generate alone writes is only compared */
    bool strict;       /* --strict: what is not recorded yet is an error, not a warning */
    /* What the run's options hand the stages (gen_options.jobs and .content): threads that read
     * and hash input files (0 or 1: the calling thread), and pack's session for the content
     * stage (content/content_stage.h; NULL: none). */
    unsigned jobs;
    const struct content_session *content;
    VEC(provided_file) provided; /* by the stages' loads, in order */
    arena strings;
} project;

/* Loads the config, finds every source and lexes it (a domain's big injector files on up to
 * `jobs` threads, 0: one per core; the model is the same for any job count). Reports every
 * problem; false on any error (the project is then freed). */
bool model_load(const char *config_path, unsigned jobs, project *out);
/* A new domain named `name` (copied) with its C, lower and upper spellings, the rest zero. */
domain *model_add_domain(project *p, const char *name);
/* Where a domain is declared, for messages about it: its config entry, else what a stage declared
 * it from (declared_at), else the config file. */
static inline src_loc model_domain_loc(const domain *d, const char *config_path)
{
    return d->cfg ? d->cfg->loc : d->declared_at.file ? d->declared_at : loc_file(config_path);
}
void model_free(project *p);

/* The identity key of a declaration, fold(scope) "." fold(name), into `out` (replacing it); an
 * asset's is model_asset_key of its own name. */
void model_key(const domain *d, const decl *dc, buf *out);
/* fold(scope) "." fold(C spelling): the key of every entry, asset entries included, that
 * manifests written before keys followed asset names hold. */
void model_spelling_key(const domain *d, const decl *dc, buf *out);
/* An asset name that C spells as it is but for '/' (a letter or '_' first, then letters, digits,
 * '_' or '/'): not a name "rewritten for C" in the summary. */
bool model_asset_name_plain(const char *name);
/* The identity key of an asset: fold(scope) "." fold(name), its own name (a manifest written
 * before keys followed names keyed it by its C spelling; identity upgrades such entries). */
void model_asset_key(const char *scope, const char *name, buf *out);
const char *model_scope(const domain *d, const decl *dc);
/* The old entry's key of a rename, fold(scope) "." fold(name) (an asset's: model_asset_key),
 * into `out` (replacing it). */
void model_rename_key(const domain *d, const decl_rename *r, buf *out);
src_loc model_rename_loc(const domain *d, const decl_rename *r);
/* The signature declaration `decl_index` gave (ordinal domains), NULL when it gave none. */
const decl_signature *model_find_signature(const domain *d, uint32_t decl_index);
/* Its normalised text: "()" for an event declared without one. */
const char *model_signature(const domain *d, uint32_t decl_index);
src_loc model_loc(const domain *d, const decl *dc);

uint32_t model_hash(const char *s, size_t n);

/* A file shipped with threadlink by its name after "threadlink:" (a config may name
 * "threadlink:natives/Iris.Events.Native.txt" or "threadlink:natives/Dextra.InputModes.Native.txt"
 * as a domain's native entries), or NULL. */
const char *tlg_shipped_file(const char *name);

#endif
