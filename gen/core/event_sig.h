/* Event signatures of ordinal (event) domains: `OnSceneLoaded(const scene_load *)`,
 * `OnInteract() -> bool`. The grammar and the normalised text are the contract with
 * runtime/threadlink/events.h (see the comment at its top). */
#ifndef TLG_EVENT_SIG_H
#define TLG_EVENT_SIG_H

#include "base/diag.h"

typedef struct event_sig {
    char *text;         /* normalised: "(const scene_load *)", "()->bool" */
    VEC(char *) params; /* normalised parameter types */
    char *result;       /* single provider: the result type, else NULL */
    uint32_t id;        /* XXH32 (seed 0) of text */
} event_sig;

/* Parses `text` (from '(' to the end of the line; NULL or empty means "()"). Errors are
 * reported at `at` plus the offset of the offending token. */
bool event_sig_parse(const char *text, size_t len, src_loc at, event_sig *out);
void event_sig_free(event_sig *s);

#endif
