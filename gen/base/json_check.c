#include "base/json_check.h"

#include "base/fsio.h"
#include "base/json_positions.h"
#include "base/lex_json.h"
#include "base/suggest.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The token jansson quotes at the end of its message (" near 'TOKEN'"), or NULL. */
static const char *near_token(const char *message, size_t *len)
{
    const char *near = strstr(message, " near '");
    size_t n = near ? strlen(near + 7) : 0;
    if (!near || n == 0 || near[7 + n - 1] != '\'') return NULL;
    *len = n - 1;
    return near + 7;
}

/* What jansson says of a file that holds no JSON value at all. */
static const char no_json[] = "'[' or '{' expected near end of file";

/* jansson's commonest messages reworded, or NULL to keep its own. `token` is what it quoted. */
static char *reworded(const char *what, const char *token, size_t token_len, bool after_comma)
{
    if (token && token_len == 1 && *token == '\'') return xstrdup("a single quote: JSON strings take double quotes (\"...\")");
    if (strcmp(what, no_json) == 0) return xstrdup("the file holds no JSON: it is empty (or only white space)");
    if (token && after_comma && token_len == 1 && (*token == '}' || *token == ']'))
        return xasprintf("a comma before '%c': JSON allows none after the last %s", *token, *token == '}' ? "member" : "element");
    if (strncmp(what, "'}' expected near ", 18) == 0 || strncmp(what, "']' expected near ", 18) == 0)
        return xasprintf("expected ',' or '%c' before %s", what[1], what + 18);
    if (strncmp(what, "string or '}' expected near ", 28) == 0)
        return xasprintf("expected a key in double quotes or '}' before %s", what + 28);
    if (strncmp(what, "\\u0000 is not allowed", 21) == 0) return xstrdup("\\u0000 (a NUL character) is not allowed in a string");
    return NULL;
}

void jc_syntax_error(const char *file, const char *text, size_t len, const json_error_t *err)
{
    size_t token_len = 0;
    const char *token = near_token(err->text, &token_len);
    size_t end = err->position > 0 && (size_t)err->position <= len ? (size_t)err->position : 0;
    size_t start = token && token_len <= end ? end - token_len : end;
    /* The previous character that is not white space, to tell a trailing comma. */
    size_t before = start;
    while (before > 0 && strchr(" \t\r\n", text[before - 1])) before--;
    char *message = reworded(err->text, token, token_len, before > 0 && text[before - 1] == ',');
    /* Line and column of the token's start, counted in bytes as every other diagnostic is. */
    uint32_t line = 1, col = 1;
    for (size_t i = 0; i < start; i++) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    if (!token && end == 0) line = (uint32_t)(err->line > 0 ? err->line : 1), col = (uint32_t)(err->column > 0 ? err->column : 1);
    bool empty = strcmp(err->text, no_json) == 0; /* said of the whole file */
    diag_error(empty ? loc_file(file) : loc_at(file, line, col), "%s", message ? message : err->text);
    free(message);
}

/* Line and column of text[at], counted in bytes as every other diagnostic is. */
static src_loc loc_of_offset(const char *file, const char *text, size_t at)
{
    uint32_t line = 1, col = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    return loc_at(file, line, col);
}

/* The number literal at text[at] (JSON's grammar: its length, 0 if none) and whether a digit of
 * its mantissa is not 0. */
static size_t number_literal(const char *text, size_t len, size_t at, bool *nonzero)
{
    size_t i = at;
    *nonzero = false;
    if (i < len && text[i] == '-') i++;
    for (; i < len && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'); i++)
        *nonzero = *nonzero || (text[i] >= '1' && text[i] <= '9');
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < len && (text[i] == '+' || text[i] == '-')) i++;
        while (i < len && text[i] >= '0' && text[i] <= '9') i++;
    }
    return i - at;
}

/* A NUL byte, which jansson takes for the end of the text ("end of file" halfway through). */
static bool no_nul_byte(const char *file, const char *text, size_t len)
{
    const char *nul = memchr(text, 0, len);
    if (nul)
        diag_error(loc_of_offset(file, text, (size_t)(nul - text)),
                   "a NUL byte: a JSON text holds none (a binary file, or a bad copy?)");
    return !nul;
}

/* A number so close to 0 that jansson reads it as 0 without a word (1e-400: strtod underflows;
 * a value that small is a typo or a unit mistake, not a 0). Only a literal with a negative
 * exponent or hundreds of digits can: the others are not converted again. Reported at the
 * literal; false when found. */
static bool no_number_read_as_zero(const char *file, const char *text, size_t len)
{
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        if (c != '-' && (c < '0' || c > '9')) continue;
        bool nonzero;
        size_t n = number_literal(text, len, i, &nonzero);
        const char *e = memchr(text + i, 'e', n);
        if (!e) e = memchr(text + i, 'E', n);
        if (nonzero && ((e && e[1] == '-') || n > 300)) {
            char *literal = xstrndup(text + i, n);
            bool zero = strtod(literal, NULL) == 0.0;
            if (zero)
                diag_error(
                    loc_of_offset(file, text, i),
                    "%s is too close to 0 for any number type: it would read as 0 (the smallest a double holds is 4.9e-324)",
                    literal);
            free(literal);
            if (zero) return false;
        }
        i += n ? n - 1 : 0;
    }
    return true;
}

json_t *jc_load(const char *file, const char *text, size_t len)
{
    if (!text) text = "", len = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) text += 3, len -= 3;
    if (!no_nul_byte(file, text, len)) return NULL;
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) jc_syntax_error(file, text, len, &err);
    else if (!no_number_read_as_zero(file, text, len)) json_decref(root), root = NULL;
    return root;
}

void jc_error(json_checker *c, const char *path, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    src_loc loc = c->positions ? json_positions_find(c->positions, path) : json_locate(c->file, c->text, c->len, path);
    const char *name = path[0] || !c->top_name ? path : c->top_name;
    diag_error(loc, "%s%s%s", name, name[0] ? ": " : "", message);
    c->ok = false;
}

const char *jc_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

void jc_check_keys(json_checker *c, const char *path, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        bool known = false;
        for (const char *const *a = allowed; *a; a++) known = known || strcmp(*a, key) == 0;
        bool text = strcmp(key, "$schema") == 0 || strcmp(key, "description") == 0;
        if (known && (!text || json_is_string(value))) continue;
        char *sub = path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key);
        const char *near = known ? NULL : suggest_nearest(key, strlen(key), allowed, SIZE_MAX);
        if (known) jc_error(c, sub, "expected a string, got %s", jc_type_name(value));
        else if (near) jc_error(c, sub, "unknown key (did you mean \"%s\"?)", near);
        else jc_error(c, sub, "unknown key");
        free(sub);
    }
}

char *jc_rel_path(json_checker *c, json_t *obj, const char *key, const char *path, const char *fallback)
{
    json_t *v = json_object_get(obj, key);
    char *sub = path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key);
    char *result = NULL;
    if (!v) {
        result = fallback ? xstrdup(fallback) : NULL;
    } else if (!json_is_string(v)) {
        jc_error(c, sub, "expected a string (a relative path), got %s", jc_type_name(v));
    } else {
        const char *s = json_string_value(v);
        size_t n = strlen(s);
        bool dotdot =
            strcmp(s, "..") == 0 || strncmp(s, "../", 3) == 0 || strstr(s, "/../") || (n >= 3 && strcmp(s + n - 3, "/..") == 0);
        if (!s[0]) jc_error(c, sub, "must not be empty");
        else if (s[0] == '/' || strchr(s, '\\')) jc_error(c, sub, "must be a relative path with '/' separators, got \"%s\"", s);
        else if (dotdot) jc_error(c, sub, "must not contain '..', got \"%s\"", s);
        else result = xstrdup(s);
    }
    free(sub);
    return result;
}

char *jc_output_path(json_checker *c, json_t *obj, const char *key, const char *path, const char *fallback, bool folder)
{
    char *result = jc_rel_path(c, obj, key, path, fallback);
    char *problem = result ? path_spelling_problem(result, folder) : NULL;
    if (problem) {
        char *sub = path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key);
        jc_error(c, sub, "%s", problem);
        free(sub);
        free(problem);
        free(result);
        result = NULL;
    }
    return result;
}

bool jc_path_fits(json_checker *c, const char *key_path, const char *path, const char *what)
{
    const char *why = fs_path_length_problem(path, what ? what : "its path");
    if (why) jc_error(c, key_path, "%s", why);
    return !why;
}

char *jc_key(const char *path, const char *key) { return path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key); }

char *jc_index(const char *path, size_t index) { return xasprintf("%s[%zu]", path, index); }

bool jc_require(json_checker *c, json_t *obj, const char *path, const char *key, const char *hint)
{
    if (json_object_get(obj, key)) return true;
    jc_error(c, path, "missing required key \"%s\"%s%s%s", key, hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
    return false;
}

/* Reports `expected WHAT, got ...` at obj[key]'s path. */
static void wrong_value(json_checker *c, const char *path, const char *key, const char *fmt, ...) TLG_PRINTF(4, 5);
static void wrong_value(json_checker *c, const char *path, const char *key, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    char *sub = jc_key(path, key);
    jc_error(c, sub, "%s", message);
    free(sub);
}

bool jc_get_string(json_checker *c, json_t *obj, const char *path, const char *key, const char *what, const char **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return false;
    if (!json_is_string(v)) {
        wrong_value(c, path, key, "expected %s, got %s", what ? what : "a string", jc_type_name(v));
        return false;
    }
    *out = json_string_value(v);
    return true;
}

bool jc_get_bool(json_checker *c, json_t *obj, const char *path, const char *key, bool *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return false;
    if (!json_is_boolean(v)) {
        wrong_value(c, path, key, "expected a boolean, got %s", jc_type_name(v));
        return false;
    }
    *out = json_is_true(v);
    return true;
}

bool jc_get_int(json_checker *c, json_t *obj, const char *path, const char *key, const char *what, long long lo, long long hi,
                long long *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return false;
    what = what ? what : "an integer";
    if (!json_is_integer(v)) {
        wrong_value(c, path, key, "expected %s from %lld to %lld, got %s", what, lo, hi, jc_type_name(v));
        return false;
    }
    long long n = (long long)json_integer_value(v);
    if (n < lo || n > hi) {
        wrong_value(c, path, key, "expected %s from %lld to %lld, got %lld", what, lo, hi, n);
        return false;
    }
    *out = n;
    return true;
}

/* "\"a\", \"b\" or \"c\"" */
static void list_names(buf *b, const char *const *names)
{
    for (size_t i = 0; names[i]; i++) buf_printf(b, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
}

bool jc_get_enum(json_checker *c, json_t *obj, const char *path, const char *key, const char *const *names, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return false;
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    for (int i = 0; s && names[i]; i++)
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return true;
        }
    buf expected = {0};
    list_names(&expected, names);
    const char *near = s ? suggest_nearest(s, strlen(s), names, SIZE_MAX) : NULL;
    if (!s) wrong_value(c, path, key, "expected %s, got %s", expected.data, jc_type_name(v));
    else if (near) wrong_value(c, path, key, "expected %s, got \"%s\" (did you mean \"%s\"?)", expected.data, s, near);
    else wrong_value(c, path, key, "expected %s, got \"%s\"", expected.data, s);
    buf_free(&expected);
    return false;
}

json_t *jc_get_array(json_checker *c, json_t *obj, const char *path, const char *key, const char *what)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_array(v)) return v;
    wrong_value(c, path, key, "expected %s, got %s", what ? what : "an array", jc_type_name(v));
    return NULL;
}

/* json_locate walks the token stream, descending into the objects and arrays the path names. */
static bool skip_value(json_lexer *lx, json_tok t, int depth)
{
    if (depth > 512) return false;
    if (t.kind == JT_LBRACE || t.kind == JT_LBRACKET) {
        json_tok_kind close = t.kind == JT_LBRACE ? JT_RBRACE : JT_RBRACKET;
        for (;;) {
            json_tok n = json_next(lx);
            if (n.kind == close) return true;
            if (n.kind == JT_EOF || n.kind == JT_ERROR) return false;
            if (n.kind == JT_COMMA || n.kind == JT_COLON) continue;
            if (!skip_value(lx, n, depth + 1)) return false;
        }
    }
    return t.kind != JT_EOF && t.kind != JT_ERROR;
}

/* Steps from array token *t (when it is '[') to its element `index`: *t becomes that element's
 * first token. False when there is no such element. */
static bool enter_element(json_lexer *lx, json_tok *t, size_t index)
{
    if (t->kind != JT_LBRACKET) return false;
    for (size_t i = 0;; i++) {
        *t = json_next(lx);
        if (t->kind == JT_RBRACKET || t->kind == JT_EOF || t->kind == JT_ERROR) return false;
        if (i == index) return true;
        if (!skip_value(lx, *t, 0)) return false;
        *t = json_next(lx);
        if (t->kind != JT_COMMA) return false;
    }
}

/* Steps from object token *t (when it is '{') to the value of its member `key`: *t becomes the
 * value's first token and *key_loc the key's position. False when there is no such member. */
static bool enter_member(json_lexer *lx, json_tok *t, const char *key, size_t klen, src_loc *key_loc)
{
    if (t->kind != JT_LBRACE) return false;
    for (;;) {
        json_tok k = json_next(lx);
        if (k.kind != JT_STRING) return false;
        bool match = k.len == klen && memcmp(k.text, key, klen) == 0;
        if (json_next(lx).kind != JT_COLON) return false;
        *t = json_next(lx);
        if (match) {
            *key_loc = k.loc;
            return true;
        }
        if (!skip_value(lx, *t, 0)) return false;
        if (json_next(lx).kind != JT_COMMA) return false;
    }
}

/* Walks `path` down from token *t; the position found: a last key segment's key, a last index
 * segment's value. Line 0 when the path leads nowhere (*t is where the walk stopped). */
static src_loc walk_path(json_lexer *lx, json_tok *t, const char *p)
{
    src_loc none = {0};
    while (*p) {
        if (*p == '.') p++;
        if (*p == '[') {
            size_t index = strtoul(p + 1, (char **)&p, 10);
            if (*p == ']') p++;
            if (!enter_element(lx, t, index)) return none;
        } else {
            const char *end = p + strcspn(p, ".[");
            src_loc key_loc;
            if (!enter_member(lx, t, p, (size_t)(end - p), &key_loc)) return none;
            p = end;
            if (!*p) return key_loc; /* the last segment: point at its key */
        }
    }
    return t->loc;
}

src_loc json_locate(const char *file, const char *data, size_t len, const char *path)
{
    /* Called only on text jansson accepted, so the tokenizer reports nothing here. */
    json_lexer lx;
    json_lexer_init(&lx, file, data, len);
    json_tok t = json_next(&lx);
    src_loc found = walk_path(&lx, &t, path);
    json_lexer_free(&lx);
    found.file = file;
    if (!found.line) found = loc_at(file, t.loc.line ? t.loc.line : 1, t.loc.col ? t.loc.col : 1);
    return found;
}
