/* gettext PO files, as translators' tools (Poedit, Weblate, Crowdin) read and write them: the
 * lexer and parser (lex_po.re). Only what the text stage needs is kept: each entry's msgctxt,
 * msgid, msgid_plural and msgstr (or msgstr[n]) strings, decoded, with where every decoded byte
 * was written (so that a problem inside a string, a placeholder or the Plural-Forms expression,
 * is reported at its own file:line:col), and the fuzzy flag. Comments, references and obsolete
 * entries (#~) are skipped. */
#ifndef TLG_L10N_PO_H
#define TLG_L10N_PO_H

#include "base/diag.h"

typedef struct po_pos {
    uint32_t line, col; /* 1-based; col counts bytes */
} po_pos;

/* One keyword's string: the concatenation of its literals ("a" "b"), decoded. */
typedef struct po_string {
    buf text;       /* the decoded bytes (NUL-terminated once present) */
    VEC(po_pos) at; /* at.items[i]: where decoded byte i was written; one more for its end */
    po_pos keyword; /* where its keyword starts */
    bool present;
} po_string;

typedef struct po_entry {
    po_pos start; /* its first keyword */
    po_string ctxt, id, id_plural;
    VEC(po_string) str; /* msgstr, or msgstr[0..n-1] */
    bool indexed;       /* written msgstr[n] */
    bool fuzzy;         /* "#, fuzzy": a translation the tools mark for review (not used) */
    bool reported;      /* a keyword of it was out of order (said): no "has no msgstr" after that */
} po_entry;

typedef struct po_file {
    const char *path;
    VEC(po_entry) entries;
} po_file;

/* Parses `data` (len bytes, data[len] == 0). Every problem is reported as file:line:col (invalid
 * UTF-8, NUL, an unterminated string, an unknown escape or keyword, keywords out of order);
 * returns false if there was any. `path` must outlive the file. */
bool po_parse(const char *path, const char *data, size_t len, po_file *out);
void po_free(po_file *f);

/* Where a position of the file is, for diagnostics; a string's byte `i` (its end when past it). */
src_loc po_loc(const po_file *f, po_pos p);
src_loc po_string_loc(const po_file *f, const po_string *s, size_t i);

#endif
