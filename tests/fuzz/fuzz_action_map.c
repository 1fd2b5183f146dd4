/* Fuzz target: the input stage's action map parser (gen/input/input_parse.c) on arbitrary bytes,
 * with the three native modes and one injected. Action maps arrive in pull requests, so no input
 * may crash, hang or read out of bounds; a refused one is reported, never half accepted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "input/input_model.h"

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const modes[][2] = {{"Gameplay", "Native"}, {"Menu", "Native"}, {"Cutscene", "Native"}, {"Vehicle", "User"}};
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = 0;
    diag_set_sink((diag_sink){ignore_diag, NULL});
    input_map_model m;
    memset(&m, 0, sizeof m);
    m.file = "fuzz.actions.json";
    m.text = copy;
    m.len = size;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) *vec_push(&m.known_modes) = (in_mode){modes[i][0], modes[i][1], 0};
    if (input_parse(&m) && m.actions.count) {
        /* Accepted: every action's bindings lie inside the table. */
        const in_action *last = &m.actions.items[m.actions.count - 1];
        if (last->first + last->count > m.bindings.count) abort();
    }
    input_model_free(&m);
    free(copy);
    return 0;
}
