/* Every value's position in a JSON text by its key path ("modes[0].actions[3].action"), found in
 * one walk of the text. json_locate walks the text once per path asked, which a checker that
 * records or reports the positions of thousands of values (an action map's actions and their
 * errors) turns into time quadratic in the file's size. */
#ifndef TLG_JSON_POSITIONS_H
#define TLG_JSON_POSITIONS_H

#include "base/diag.h"

typedef struct json_positions json_positions;

/* Walks text[0..len) (text[len] is 0). A text with a syntax error is walked up to it, and the lexer
 * reports the error (hold the diagnostics to drop them): a path past it is found by the fallback. */
json_positions *json_positions_build(const char *file, const char *text, size_t len);
/* What json_locate(file, text, len, path) returns, without walking the text again (a path the walk
 * did not reach: json_locate's answer, walking it). */
src_loc json_positions_find(const json_positions *p, const char *path);
void json_positions_free(json_positions *p);

#endif
