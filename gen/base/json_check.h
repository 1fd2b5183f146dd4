/* Validating JSON inputs read with jansson (the config, vault schemas and data, content
 * profiles): every error names its key path ("domains[1].kind") and, found again in the text by
 * json_locate, its line and column. */
#ifndef TLG_JSON_CHECK_H
#define TLG_JSON_CHECK_H

#include "base/diag.h"

#include <jansson.h>

typedef struct json_checker {
    const char *file; /* for diagnostics */
    const char *text; /* the JSON text the values came from */
    size_t len;
    bool ok;                                /* false once an error was reported */
    const char *top_name;                   /* names the empty path in messages ("(top level)"); NULL: nothing */
    const struct json_positions *positions; /* the text's positions found at once; NULL: each located */
} json_checker;

/* Where in a JSON text the value at a key path ("domains[1].kind") starts; line 0 if not found. */
src_loc json_locate(const char *file, const char *data, size_t len, const char *path);

/* Reports a JSON syntax error from json_loadb at the start of the token where parsing stopped
 * (jansson's own line and column point past it), with jansson's commonest messages reworded:
 * "'}' expected near '"b"'" becomes "expected ',' or '}' before '"b"'". */
void jc_syntax_error(const char *file, const char *text, size_t len, const json_error_t *err);
/* Parses a JSON input file's text (duplicate keys refused; a leading UTF-8 byte order mark, which
 * Windows editors write, skipped as lex_json skips it); NULL after reporting a syntax error. */
json_t *jc_load(const char *file, const char *text, size_t len);
/* Reports `path: message` at the value's position (`top_name: message` for the empty path). */
void jc_error(json_checker *c, const char *path, const char *fmt, ...) TLG_PRINTF(3, 4);
/* "an object", "a string", ... for messages. */
const char *jc_type_name(const json_t *v);
/* Reports every key of `obj` that is not in the NULL-terminated `allowed` list, and an allowed
 * "$schema" or "description" that is not a string (every schema says they are). */
void jc_check_keys(json_checker *c, const char *path, json_t *obj, const char *const *allowed);
/* The string at obj[key] as a relative path that stays inside the project (not empty, not
 * absolute, no backslash, no '..'); `fallback` (copied) when absent; NULL after an error. */
char *jc_rel_path(json_checker *c, json_t *obj, const char *key, const char *path, const char *fallback);
/* jc_rel_path for a path the generator writes to, which must also be the one spelling of its
 * file or `folder` (path_spelling_problem). */
char *jc_output_path(json_checker *c, json_t *obj, const char *key, const char *path, const char *fallback, bool folder);

/* Whether `path`, the file or folder a path-valued key names (joined to where that key's paths
 * start: the project root, the generated directory, a source root), passes the system's limits on
 * a name and a path (fs_path_length_problem); reported at the key otherwise (`what`, NULL for
 * "its path", names the path in the message), so that the run stops at the config, before anything
 * is written, rather than at the first file below it. */
bool jc_path_fits(json_checker *c, const char *key_path, const char *path, const char *what);

/* Key paths for messages: `path` + ".key" ("" + "key" is "key") and `path` + "[index]". Both
 * allocate; the caller frees. */
char *jc_key(const char *path, const char *key);
char *jc_index(const char *path, size_t index);

/* Typed getters for obj[key], where `path` names obj. Each returns true and sets *out only for a
 * present value of the right type and range; a wrong one is reported at the key's path (false,
 * *out untouched); an absent key is false without a report, so *out keeps its default. */
/* Reports "missing required key" at `path` (with `hint` in parentheses when not NULL) when obj
 * has no `key`; true when it has. */
bool jc_require(json_checker *c, json_t *obj, const char *path, const char *key, const char *hint);
/* A string; `what` names it in the message ("a domain name"; NULL: "a string"). */
bool jc_get_string(json_checker *c, json_t *obj, const char *path, const char *key, const char *what, const char **out);
bool jc_get_bool(json_checker *c, json_t *obj, const char *path, const char *key, bool *out);
/* An integer from lo to hi; `what` names it ("a whole number of megabytes"; NULL: "an integer"). */
bool jc_get_int(json_checker *c, json_t *obj, const char *path, const char *key, const char *what, long long lo, long long hi,
                long long *out);
/* One of the NULL-terminated `names`; *out is its index. A near miss is suggested. */
bool jc_get_enum(json_checker *c, json_t *obj, const char *path, const char *key, const char *const *names, int *out);
/* An array; `what` names it ("an array of header names"; NULL: "an array"). */
json_t *jc_get_array(json_checker *c, json_t *obj, const char *path, const char *key, const char *what);

#endif
