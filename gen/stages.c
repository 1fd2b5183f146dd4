/* Every stage the pipeline runs after identifier domains, in order. */
#include "core/stage.h"
#include "content/content_stage.h"

extern const gen_stage vault_stage;

const gen_stage *const tlg_stages[] = {
    &content_stage, /* content profiles: asset-name domains and catalog headers */
    &vault_stage, /* gen/vault_*.c: vault schemas and data */
    NULL,
};
