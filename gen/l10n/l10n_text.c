/* Placeholders in texts, named and typed in the source string:
 *
 *   text        -> ( char | '{{' | '}}' | placeholder )*        '{{' and '}}' are one brace
 *   placeholder -> '{' name [ ':' type ] '}'                     type required in the source
 *   name        -> [A-Za-z_][A-Za-z0-9_]*
 *   type        -> 'int' | 'uint' | 'str'                        int64_t, uint64_t, const char *
 *
 * The source declares each key's parameters (one type per name, in order of first appearance);
 * a translation may use them in any order, leave one out, and may omit the type (if it gives
 * one, it must be the declared one). In a table a placeholder is the byte 0x01 and the byte
 * 1 + the parameter's index. No control character but tab and newline may appear in a text. */
#include "l10n/l10n_model.h"

#include "base/suggest.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[] = {NULL, "int", "uint", "str"};

const char *text_type_name(text_type t) { return t > TEXT_NONE && t <= TEXT_STR ? type_names[t] : "?"; }

bool text_is_key(const char *s, size_t n)
{
    if (n == 0 || n > TEXT_KEY_MAX || !((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z')) return false;
    for (size_t i = 1; i < n; i++)
        if (!ascii_is_word((unsigned char)s[i])) return false;
    return true;
}

/* One placeholder as written: its name and type (TEXT_NONE when not given), and its bytes. */
typedef struct placeholder {
    size_t start, end; /* '{' to past '}' */
    size_t name_at, name_len;
    text_type type;
} placeholder;

typedef struct text_scan {
    const po_file *f;
    const po_string *s;
    size_t at;
    bool ok;
} text_scan;

static void scan_error(text_scan *ts, size_t at, const char *fmt, const char *arg)
{
    diag_error(po_string_loc(ts->f, ts->s, at), fmt, arg);
    ts->ok = false;
}

/* ':' type at ts->at (the ':' known): the type, or reported. */
static text_type read_type(text_scan *ts)
{
    const char *t = ts->s->text.data;
    size_t start = ++ts->at;
    while (ascii_is_word((unsigned char)t[ts->at])) ts->at++;
    size_t n = ts->at - start;
    for (int k = TEXT_INT; k <= TEXT_STR; k++)
        if (strlen(type_names[k]) == n && memcmp(t + start, type_names[k], n) == 0) return (text_type)k;
    char word[40];
    snprintf(word, sizeof word, "%.*s", (int)(n < 32 ? n : 32), t + start);
    const char *near = suggest_nearest(word, strlen(word), type_names + 1, 3);
    char msg[160];
    snprintf(msg, sizeof msg, "unknown placeholder type '%%s' (int, uint or str)%s%s%s", near ? "; did you mean '" : "",
             near ? near : "", near ? "'?" : "");
    scan_error(ts, start, msg, word);
    return TEXT_NONE;
}

/* A placeholder from the '{' at ts->at: into *ph, or false (reported). */
static bool read_placeholder(text_scan *ts, placeholder *ph)
{
    const char *t = ts->s->text.data;
    memset(ph, 0, sizeof *ph);
    ph->start = ts->at++;
    ph->name_at = ts->at;
    if (!((t[ts->at] | 32) >= 'a' && (t[ts->at] | 32) <= 'z') && t[ts->at] != '_') {
        scan_error(ts, ph->start, "%s", "'{' starts a placeholder such as {score:int}: write '{{' for a brace");
        return false;
    }
    while (ascii_is_word((unsigned char)t[ts->at])) ts->at++;
    ph->name_len = ts->at - ph->name_at;
    if (t[ts->at] == ':' && (ph->type = read_type(ts)) == TEXT_NONE) return false;
    if (t[ts->at] != '}') {
        scan_error(ts, ts->at, "%s", "expected '}' to close the placeholder ({name} or {name:type})");
        return false;
    }
    ph->end = ++ts->at;
    return true;
}

/* The next piece of the text: a literal byte run into `literal` (braces undoubled), or a
 * placeholder (true, *ph). False at the end or after an error. */
static bool next_piece(text_scan *ts, buf *literal, placeholder *ph, bool *is_placeholder)
{
    const char *t = ts->s->text.data ? ts->s->text.data : "";
    *is_placeholder = false;
    if (!t[ts->at]) return false;
    unsigned char c = (unsigned char)t[ts->at];
    if ((c == '{' || c == '}') && t[ts->at + 1] == (char)c) {
        buf_putc(literal, (char)c);
        ts->at += 2;
    } else if (c == '{') {
        *is_placeholder = true;
        return read_placeholder(ts, ph);
    } else if (c == '}') {
        scan_error(ts, ts->at, "%s", "a lone '}': write '}}' for a brace");
        return false;
    } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
        char code[8];
        snprintf(code, sizeof code, "%02X", c);
        scan_error(ts, ts->at, "control character U+00%s in a text (only tab and newline may appear)", code);
        return false;
    } else {
        buf_putc(literal, (char)c);
        ts->at++;
    }
    return true;
}

static int find_param(const text_key *key, const char *name, size_t n)
{
    for (size_t i = 0; i < key->params.count; i++)
        if (strlen(key->params.items[i].name) == n && memcmp(key->params.items[i].name, name, n) == 0) return (int)i;
    return -1;
}

/* Names a generated function cannot take as a parameter: C and C++ keywords, and its own. */
static bool reserved_name(const char *name, size_t n)
{
    /* clang-format off */
    static const char *const words[] = {
        "text", "buf", "size", "args", "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool",
        "break", "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class", "compl", "concept", "const",
        "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
        "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
        "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
        "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
        "reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert",
        "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
        "typeid", "typename", "typeof", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
        "xor", "xor_eq"};
    /* clang-format on */
    if (name[0] == '_' || (n >= 2 && name[0] == 't' && name[1] == 'l' && (n == 2 || name[2] == '_'))) return true;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], name, n) == 0) return true;
    return false;
}

/* A source placeholder declared (or checked against its earlier declaration). */
static bool declare(text_scan *ts, const placeholder *ph, text_key *key, arena *strings)
{
    const char *name = ts->s->text.data + ph->name_at;
    int i = find_param(key, name, ph->name_len);
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s", (int)(ph->name_len < 64 ? ph->name_len : 64), name);
    if (reserved_name(name, ph->name_len)) {
        scan_error(
            ts, ph->start,
            "placeholder {%s} cannot be named so: its name becomes a parameter of a C function (not a keyword, text, buf, size, args, tl..., or _...)",
            shown);
    } else if (ph->type == TEXT_NONE) {
        scan_error(ts, ph->start, "placeholder {%s} of the source text needs its type: {name:int}, {name:uint} or {name:str}",
                   shown);
    } else if (i >= 0 && key->params.items[i].type != ph->type) {
        char msg[200];
        snprintf(msg, sizeof msg, "placeholder {%%s} is %s here but %s before (one type per name)", text_type_name(ph->type),
                 text_type_name(key->params.items[i].type));
        scan_error(ts, ph->start, msg, shown);
    } else if (i < 0 && key->params.count == TEXT_MAX_PARAMS) {
        scan_error(ts, ph->start, "placeholder {%s}: a text takes at most 31 placeholders", shown);
    } else if (i < 0) {
        *vec_push(&key->params) = (text_param){arena_strndup(strings, name, ph->name_len), ph->type};
    }
    return ts->ok;
}

bool text_declare_params(const po_file *f, const po_string *s, text_key *key, arena *strings)
{
    text_scan ts = {f, s, 0, true};
    buf literal = {0};
    placeholder ph;
    bool is_ph;
    while (next_piece(&ts, &literal, &ph, &is_ph))
        if (is_ph) declare(&ts, &ph, key, strings);
    buf_free(&literal);
    return ts.ok;
}

/* A placeholder of a locale's text: its parameter's index, or reported. */
static int use_param(text_scan *ts, const placeholder *ph, const text_key *key)
{
    const char *name = ts->s->text.data + ph->name_at;
    int i = find_param(key, name, ph->name_len);
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s", (int)(ph->name_len < 64 ? ph->name_len : 64), name);
    if (i < 0) {
        const char *names[TEXT_MAX_PARAMS];
        for (size_t k = 0; k < key->params.count; k++) names[k] = key->params.items[k].name;
        const char *near = suggest_nearest(shown, strlen(shown), names, key->params.count);
        char msg[256];
        snprintf(msg, sizeof msg, "placeholder {%%s} is not in the source text of %s%s%s%s", key->name,
                 near ? "; did you mean {" : "", near ? near : "", near ? "}?" : "");
        scan_error(ts, ph->start, msg, shown);
    } else if (ph->type != TEXT_NONE && ph->type != key->params.items[i].type) {
        char msg[200];
        snprintf(msg, sizeof msg, "placeholder {%%s} is %s in the source text, not %s", text_type_name(key->params.items[i].type),
                 text_type_name(ph->type));
        scan_error(ts, ph->start, msg, shown);
        i = -1;
    }
    return i;
}

bool text_encode(const po_file *f, const po_string *s, const text_key *key, buf *out)
{
    text_scan ts = {f, s, 0, true};
    placeholder ph;
    bool is_ph;
    out->len = 0;
    buf_reserve(out, s->text.len);
    while (next_piece(&ts, out, &ph, &is_ph)) {
        if (!is_ph) continue;
        int i = use_param(&ts, &ph, key);
        if (i < 0) continue;
        buf_putc(out, '\x01');
        buf_putc(out, (char)(1 + i));
    }
    buf_cstr(out);
    return ts.ok;
}
