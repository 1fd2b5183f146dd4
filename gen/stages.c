/* Every stage the pipeline runs after identifier domains, in order. */
#include "core/diff.h"
#include "core/stage.h"
#include "content/content_stage.h"
#include "input/input_model.h"

extern const gen_stage vault_stage;
extern const gen_stage text_stage;
extern const diff_extra vault_diff;

const gen_stage *const tlg_stages[] = {
    &text_stage,    /* gen/l10n: localised text; before content, which may pack its tables */
    &content_stage, /* content profiles: asset-name domains and catalog headers */
    &vault_stage,   /* gen/vault/vault_*.c: vault schemas and data */
    &input_stage,   /* gen/input/: the action map, Dextra.Actions and its binding tables */
    NULL,
};

/* What `diff` compares beyond identifier domains' manifests. */
const diff_extra *const tlg_diff_extras[] = {
    &vault_diff, /* gen/vault/vault_diff.c: vault-manifest.json */
    NULL,
};
