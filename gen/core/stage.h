/* Stages beyond identifier domains (vault accessors, asset catalogs) plug into generate, headers
 * and check through this interface and so share the pipeline's guarantees: every input error is
 * reported before anything is written, outputs are atomic and written only when they change, the
 * up-to-date stamp and the depfile cover them. A stage lives in its own files
 * (gen/<layer>/<stage>_*.c) and is listed once in gen/stages.c. */
#ifndef TLG_STAGE_H
#define TLG_STAGE_H

#include "core/emit.h"
#include "core/manifest.h"
#include "core/model.h"
#include "base/output.h"

typedef struct stage_output {
    char *path;        /* relative to the generated directory (to -o DIR for headers) */
    bool build_output; /* compiled code: `headers` writes it too (otherwise only generate/check) */
    /* Made from the bytes of asset files (their sizes and hashes), not only from their names:
     * when only those bytes changed since the stamp, generate emits just the outputs so marked. */
    bool of_contents;
    src_loc where; /* what declared it, for confinement and collision errors */
} stage_output;

typedef VEC(stage_output) stage_outputs;

typedef struct domain_result {
    const domain *d;
    const manifest *m;         /* after identity: every entry with its value and member name */
    const char *manifest_path; /* where that manifest is (headers: read; generate: written) */
} domain_result;

typedef struct gen_stage {
    const char *name;
    /* Reads and validates the stage's inputs and plans its outputs. Every file and directory read
     * goes into p->inputs (depfiles) and every byte read into p->input_hash (hasher_add_file), so
     * the stamp notices a change. Returns false after reporting input errors. */
    bool (*load)(project *p, void **state, stage_outputs *outputs);
    /* Optional (NULL): right after load, a stage may append domains of its own to p->domains
     * (with their declarations, e.g. an asset catalog's names); they then get manifests,
     * identity, headers, check and diff exactly like declared domains. */
    bool (*add_domains)(void *state, project *p);
    /* After identity, with every domain's merged manifest (e.g. to resolve Vault.Fields names).
     * Returns false after reporting errors; nothing has been written then. */
    bool (*resolve)(void *state, const domain_result *domains, size_t count);
    /* Emits planned output `index` (the order of `outputs`). */
    void (*emit)(void *state, size_t index, out_file *o, const emit_options *opt);
    void (*free)(void *state);
    /* Optional (NULL): when the config's own part failed (so no stage loads), reports the errors
     * of the stage's section of it, so that one run names every error in the file (a typo in
     * "content" is not held back until a typo in "domains" is fixed). `cfg` is what
     * config_load_keeping_sections read: a key whose value was refused is NULL. */
    void (*check_config)(const project_config *cfg);
} gen_stage;

/* The registered stages, NULL-terminated (gen/stages.c). */
extern const gen_stage *const tlg_stages[];

#endif
