/* Fuzz target: the injector lexer on arbitrary bytes, with and without event signatures, and each
 * signature it hands on through the signature parser; renames ("New <- Old") hand on an old name
 * and scope that are C-safe like any name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "core/event_sig.h"
#include "core/lex_injector.h"

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

static void check_line(void *ctx, const injector_line *line)
{
    (void)ctx;
    /* Every name the lexer hands on is a C identifier tail: ASCII letters, digits and '_'. */
    for (uint32_t i = 0; i < line->name_len; i++)
        if (!ascii_is_word((unsigned char)line->name[i])) abort();
    if (line->name_len == 0 || line->loc.line == 0 || line->loc.col == 0) abort();
    /* A rename's old name is such a name too, on the same line; its scope an ASCII word. */
    if (line->rename_name) {
        if (line->rename_name_len == 0 || line->rename_loc.line != line->loc.line || line->rename_loc.col <= line->loc.col) abort();
        for (uint32_t i = 0; i < line->rename_name_len; i++)
            if (!ascii_is_word((unsigned char)line->rename_name[i])) abort();
        for (uint32_t i = 0; line->rename_scope && i < line->rename_scope_len; i++)
            if (!ascii_is_word((unsigned char)line->rename_scope[i])) abort();
    } else if (line->rename_scope) {
        abort();
    }
    if (line->signature) {
        event_sig sig = {0};
        if (event_sig_parse(line->signature, line->signature_len, line->signature_loc, &sig)) {
            /* A signature that parses has normalised text, and a result only after "->". */
            if (!sig.text || sig.text[0] != '(') abort();
            if (sig.result && !strstr(sig.text, "->")) abort();
            event_sig_free(&sig);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = 0;
    diag_set_sink((diag_sink){ignore_diag, NULL});
    for (int signatures = 0; signatures < 2; signatures++) {
        arena a = {0};
        lex_injector("fuzz.txt", copy, size, signatures, &a, check_line, NULL);
        arena_free(&a);
    }
    free(copy);
    return 0;
}
