/* Every stage the pipeline runs after identifier domains, in order. */
#include "stage.h"

const gen_stage *const tlg_stages[] = {
    NULL,
};
