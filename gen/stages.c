/* Every stage the pipeline runs after identifier domains, in order. */
#include "stage.h"

extern const gen_stage vault_stage;

const gen_stage *const tlg_stages[] = {
    &vault_stage, /* gen/vault_*.c: vault schemas and data */
    NULL,
};
