/* Injector files: one identifier per line, optionally the renamed form of an old one
 * ("Elixir <- Potion"); see lex_injector.re for the exact rules. */
#ifndef TLG_LEX_INJECTOR_H
#define TLG_LEX_INJECTOR_H

#include "base/diag.h"

/* Bounds that keep every manifest readable (its reader takes strings of up to 4,096 bytes: a key
 * is scope "." name) and generated names sane. */
#define INJECTOR_MAX_NAME 255       /* bytes of the C-safe spelling */
#define INJECTOR_MAX_SIGNATURE 1024 /* bytes from '(' to the end of the line */

typedef struct injector_line {
    const char *name; /* the C-safe spelling: ASCII letters, digits and '_' only */
    uint32_t name_len;
    src_loc loc; /* where the identifier starts */
    /* The identifier as written, when the C-safe spelling differs from it ("Big Axe"), else NULL. */
    const char *spelling;
    uint32_t spelling_len;
    /* With signatures on: the text from '(' to the end of the line (trimmed), else NULL. */
    const char *signature;
    uint32_t signature_len;
    src_loc signature_loc;
    /* A rename, "New <- Old" or "New <- Scope.Old": the old entry's C-safe name, its scope when
     * the line names one (else NULL: the line's own scope), and where the old name starts. */
    const char *rename_name;
    uint32_t rename_name_len;
    const char *rename_scope;
    uint32_t rename_scope_len;
    src_loc rename_loc;
} injector_line;

typedef void (*injector_line_fn)(void *ctx, const injector_line *line);

/* Lexes one injector file held in memory; data[len] must be 0 (a sentinel, not part of the input).
 * Calls `fn` for every identifier line, in order; names are allocated in `strings`.
 * Reports every problem as file:line:col and returns false if there was any error. */
bool lex_injector(const char *file, const char *data, size_t len, bool signatures, arena *strings, injector_line_fn fn,
                  void *ctx);

#endif
