/*   signature  -> '(' [ params ] ')' [ '->' type ]
 *   params     -> 'void' | type { ',' type }
 *   type       -> WORD { WORD | '*' }          WORD -> [A-Za-z_][A-Za-z0-9_]*
 * White space separates WORDs and is otherwise insignificant. A type is normalised to its tokens
 * joined by one space, with nothing between consecutive '*'. `-> void` is refused: an event
 * without a result is a broadcast.
 *
 * A type is a C type name (an abstract declarator), so it has no parameter name. C's rules tell a
 * name from a type without knowing the project's typedefs: builtin type keywords (void char short
 * int long float double signed unsigned _Bool _Complex _Imaginary bool) combine with each other,
 * qualifiers (const volatile restrict _Atomic) go anywhere, struct / union / enum is followed by
 * exactly one tag, and otherwise one other identifier (a typedef name) may appear, not together
 * with a builtin type keyword. So an identifier is a parameter name when it follows a '*', or when
 * the type already has a builtin type keyword, a typedef name or a tag: `int amount`,
 * `const scene_load *scene`, `struct foo bar`, `uint8_t count`; the error shows the type without
 * it. Other keywords (`register`) and identifiers reserved to the implementation (`__int128`,
 * `_Float128`, `__restrict`) are neither names nor typedef names; a reserved one may be a tag
 * (`struct _IO_FILE *`). The same rules refuse, at the injector line rather than in the compiled
 * header, a type with no specifier (`const`), a typedef name or tag with a builtin keyword
 * (`uint8_t int`) and builtin keywords C does not combine (`float int`, `long long double`).
 * The checks only refuse: a valid type's text and id are as before. */
#include "core/event_sig.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <string.h>

typedef struct sig_lexer {
    const char *p, *end, *start;
    src_loc at;
} sig_lexer;

static void skip_space(sig_lexer *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t')) lx->p++;
}

static src_loc here(const sig_lexer *lx)
{
    src_loc l = lx->at;
    l.col += (uint32_t)(lx->p - lx->start);
    return l;
}

static bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, w, n) == 0) return true;
    return false;
}

/* The builtin type keywords by kind (_Bool counts as bool, _Imaginary as _Complex): -1 for any
 * other word. */
enum { B_VOID, B_CHAR, B_SHORT, B_INT, B_LONG, B_FLOAT, B_DOUBLE, B_SIGNED, B_UNSIGNED, B_BOOL, B_COMPLEX, B_COUNT };
static const char *const builtin_names[B_COUNT] = {"void",   "char",   "short",    "int",  "long",    "float",
                                                   "double", "signed", "unsigned", "bool", "_Complex"};

static int builtin_index(const char *w, size_t n)
{
    for (int i = 0; i < B_COUNT; i++)
        if (strlen(builtin_names[i]) == n && memcmp(builtin_names[i], w, n) == 0) return i;
    if (n == 5 && memcmp(w, "_Bool", 5) == 0) return B_BOOL;
    if (n == 10 && memcmp(w, "_Imaginary", 10) == 0) return B_COMPLEX;
    return -1;
}

/* C's combinations of builtin type specifiers (C11 6.7.2), counted in any order: NULL when
 * `count` (indexed like `builtin_names`) is one of them, else why not. */
static const char *builtin_combination_error(const int *count)
{
    int total = 0;
    for (int i = 0; i < B_COUNT; i++) total += count[i];
    const int sign = count[B_SIGNED] + count[B_UNSIGNED];
    const int floating = count[B_FLOAT] + count[B_DOUBLE];
    if (sign > 1) return "'signed' and 'unsigned' go once, and not together";
    if (count[B_LONG] > 2) return "'long' goes at most twice";
    for (int i = 0; i < B_COUNT; i++)
        if (i != B_LONG && count[i] > 1) return "a type keyword other than 'long' goes once";
    if ((count[B_VOID] || count[B_BOOL]) && total > 1) return "'void' and 'bool' combine with no other type keyword";
    if (floating || count[B_COMPLEX]) { /* float, double, long double, each maybe _Complex */
        if (floating != 1 || sign || count[B_CHAR] || count[B_SHORT] || count[B_INT] || count[B_LONG] > count[B_DOUBLE])
            return "a floating type is 'float', 'double' or 'long double' (with '_Complex')";
        return NULL;
    }
    if (count[B_CHAR] && (count[B_SHORT] || count[B_INT] || count[B_LONG]))
        return "'char' combines only with 'signed' or 'unsigned'";
    if (count[B_SHORT] && count[B_LONG]) return "'short' and 'long' do not combine";
    return NULL;
}

/* What a WORD is to C's type-name grammar. */
typedef enum word_kind {
    WORD_BUILTIN,   /* a builtin type specifier: combines with the others */
    WORD_QUALIFIER, /* goes anywhere, also after a '*' */
    WORD_TAG_KEY,   /* struct union enum: the next WORD is the tag */
    WORD_KEYWORD,   /* any other keyword: never a name */
    WORD_RESERVED,  /* __x or _X: the implementation's (__int128, __restrict); a tag, never a name */
    WORD_IDENT,     /* a typedef name, a tag or a parameter name */
} word_kind;

static word_kind classify_word(const char *w, size_t n)
{
    static const char *const qualifier[] = {"const", "volatile", "restrict", "_Atomic", NULL};
    static const char *const tag_key[] = {"struct", "union", "enum", NULL};
    /* The other keywords of C11 and C23 (those spelt _X are reserved identifiers anyway). */
    static const char *const keyword[] = {
        "auto",          "break",        "case",  "continue", "default",       "do",        "else",   "extern",
        "for",           "goto",         "if",    "inline",   "register",      "return",    "sizeof", "static",
        "switch",        "typedef",      "while", "alignas",  "alignof",       "constexpr", "false",  "nullptr",
        "static_assert", "thread_local", "true",  "typeof",   "typeof_unqual", NULL};
    if (builtin_index(w, n) >= 0) return WORD_BUILTIN;
    if (word_in(w, n, qualifier)) return WORD_QUALIFIER;
    if (word_in(w, n, tag_key)) return WORD_TAG_KEY;
    if (word_in(w, n, keyword)) return WORD_KEYWORD;
    if (n >= 2 && w[0] == '_' && (w[1] == '_' || (w[1] >= 'A' && w[1] <= 'Z'))) return WORD_RESERVED;
    return WORD_IDENT;
}

/* What parse_type has seen of a type so far. */
typedef struct type_state {
    buf *out; /* the type, normalised */
    bool last_star;
    bool pointer; /* a '*' seen: only qualifiers and '*' may follow */
    int builtins[B_COUNT];
    const char *named; /* the typedef name or tag, which takes no builtin keyword */
    const char *mixed; /* the first word that breaks the specifier rules */
    int mixed_len;
    const char *mixed_why;
    bool reserved;       /* an implementation's word (__int128, __m128): may be the type */
    bool specified;      /* a builtin type keyword, a typedef name or a tag seen */
    const char *tag_key; /* struct / union / enum waiting for its tag */
    int tag_key_len;
    const char *name; /* the first parameter name */
    int name_len;
    buf bare; /* the tokens that are not names, normalised like `out` */
    bool bare_star;
} type_state;

static void type_take_star(type_state *t)
{
    if (!t->last_star) buf_putc(t->out, ' ');
    buf_putc(t->out, '*');
    t->last_star = true;
    if (!t->bare_star) buf_putc(&t->bare, ' ');
    buf_putc(&t->bare, '*');
    t->bare_star = true;
    t->pointer = true;
}

/* Whether the WORD `w` is a parameter name; updates what the type has seen. */
static bool type_word_is_name(type_state *t, const char *w, size_t n, word_kind k)
{
    if (t->tag_key) {
        if (t->specified && !t->mixed)
            t->mixed = t->tag_key, t->mixed_len = t->tag_key_len, t->mixed_why = "a tagged type takes no other type";
        t->tag_key = NULL; /* this WORD is the tag */
        t->specified = true;
        t->named = w;
    } else if (k == WORD_TAG_KEY) {
        t->tag_key = w;
        t->tag_key_len = (int)n;
    } else if (k == WORD_BUILTIN) {
        t->specified = true;
        t->builtins[builtin_index(w, n)]++; /* a WORD_BUILTIN has one */
        const char *why =
            t->named ? "a typedef name or tag takes no builtin type keyword" : builtin_combination_error(t->builtins);
        if (why && !t->mixed) t->mixed = w, t->mixed_len = (int)n, t->mixed_why = why;
    } else if (k == WORD_IDENT) {
        if (t->pointer || t->specified) return true;
        t->specified = true; /* the typedef name */
        t->named = w;
    } else if (k == WORD_RESERVED) {
        t->reserved = true;
    }
    return false;
}

static void type_take_word(type_state *t, const char *w, size_t n, word_kind k)
{
    if (t->out->len) buf_putc(t->out, ' ');
    buf_put(t->out, w, n);
    t->last_star = false;
    if (!type_word_is_name(t, w, n, k)) {
        if (t->bare.len) buf_putc(&t->bare, ' ');
        buf_put(&t->bare, w, n);
        t->bare_star = false;
    } else if (!t->name) {
        t->name = w;
        t->name_len = (int)n;
    }
}

/* The whole type read: a parameter name, words that do not combine, or no type at all. */
static bool type_check(type_state *t, const sig_lexer *lx, const char *start)
{
    src_loc l = lx->at;
    if (t->name) {
        l.col += (uint32_t)(t->name - lx->start);
        diag_error(l, "'%.*s' looks like a parameter name: a signature lists types only (write '%s')", t->name_len, t->name,
                   buf_cstr(&t->bare));
        return false;
    }
    if (t->mixed) {
        l.col += (uint32_t)(t->mixed - lx->start);
        diag_error(l, "'%.*s' does not combine with the rest of '%s': %s", t->mixed_len, t->mixed, buf_cstr(t->out),
                   t->mixed_why);
        return false;
    }
    if (!t->specified && !t->reserved) { /* only qualifiers and keywords: `const`, `volatile *` */
        l.col += (uint32_t)(start - lx->start);
        diag_error(l, "'%s' names no type: a qualifier needs one (as in 'const float')", buf_cstr(t->out));
        return false;
    }
    return true;
}

/* Reads the type's tokens up to ',' ')' or the end; false (reported) on a token no type holds. */
static bool type_read_tokens(type_state *t, sig_lexer *lx)
{
    for (;;) {
        skip_space(lx);
        bool at_end = lx->p >= lx->end || *lx->p == ',' || *lx->p == ')';
        size_t n = 0;
        if (!at_end && is_word_start(*lx->p))
            while (lx->p + n < lx->end && ascii_is_word((unsigned char)lx->p[n])) n++;
        word_kind k = n ? classify_word(lx->p, n) : WORD_KEYWORD;
        if (t->tag_key && k != WORD_IDENT && k != WORD_RESERVED) {
            diag_error(here(lx), "expected a tag name after '%.*s' (as in '%.*s foo *')", t->tag_key_len, t->tag_key,
                       t->tag_key_len, t->tag_key);
            return false;
        }
        if (at_end) return true;
        if (*lx->p == '*') {
            type_take_star(t);
            lx->p++;
        } else if (n) {
            const char *w = lx->p;
            lx->p += n;
            type_take_word(t, w, n, k);
        } else {
            diag_error(here(lx), "unexpected '%c' in a type (arrays, function types and '...' need a typedef)", *lx->p);
            return false;
        }
    }
}

/* type -> WORD { WORD | '*' }, normalised into `out`; stops before ',' ')' or the end. A WORD C
 * would read as a parameter name is reported once the whole type has been read (a syntax error
 * further on comes first), with the type to write instead: the same tokens without the names. */
static bool parse_type(sig_lexer *lx, buf *out, const char *what)
{
    out->len = 0;
    buf_cstr(out);
    skip_space(lx);
    if (lx->p >= lx->end || !is_word_start(*lx->p)) {
        diag_error(here(lx), "expected a %s type (a name such as 'float' or 'const scene_load *')", what);
        return false;
    }
    const char *start = lx->p;
    type_state t;
    memset(&t, 0, sizeof t);
    t.out = out;
    buf_cstr(&t.bare);
    bool ok = type_read_tokens(&t, lx) && type_check(&t, lx, start);
    buf_free(&t.bare);
    return ok;
}

/* The parameter list after '(' up to and with ')': "()", "(void)" or types separated by ','.
 * Each type goes to out->params and, normalised, to `norm`. */
static bool parse_params(sig_lexer *lx, buf *type, buf *norm, event_sig *out)
{
    skip_space(lx);
    if (lx->p < lx->end && *lx->p == ')') {
        lx->p++;
        return true;
    }
    for (;;) {
        if (!parse_type(lx, type, "parameter")) return false;
        bool is_void = strcmp(type->data, "void") == 0;
        if (is_void && out->params.count == 0) {
            skip_space(lx);
            if (lx->p < lx->end && *lx->p == ')') {
                lx->p++;
                return true;
            }
        }
        if (is_void) {
            diag_error(here(lx), "'void' must be the only parameter");
            return false;
        }
        if (out->params.count) buf_puts(norm, ", ");
        buf_puts(norm, type->data);
        *vec_push(&out->params) = xstrdup(type->data);
        skip_space(lx);
        if (lx->p < lx->end && (*lx->p == ',' || *lx->p == ')')) {
            if (*lx->p++ == ')') return true;
            continue;
        }
        diag_error(here(lx), "expected ',' or ')' after a parameter type");
        return false;
    }
}

/* What may follow the parameters: nothing, or "-> type" (not void) to the end. */
static bool parse_result(sig_lexer *lx, buf *type, buf *norm, event_sig *out)
{
    skip_space(lx);
    if (lx->p >= lx->end) return true;
    if (lx->end - lx->p < 2 || lx->p[0] != '-' || lx->p[1] != '>') {
        diag_error(here(lx), "unexpected '%c' after the parameters (a result is written '-> type')", *lx->p);
        return false;
    }
    const char *arrow = lx->p;
    lx->p += 2;
    if (!parse_type(lx, type, "result")) return false;
    if (lx->p < lx->end) {
        diag_error(here(lx), "unexpected '%c' after the result type", *lx->p);
        return false;
    }
    if (strcmp(type->data, "void") == 0) {
        lx->p = arrow;
        diag_error(here(lx), "'-> void' is not a result: leave it out for an event without one");
        return false;
    }
    buf_puts(norm, "->");
    buf_puts(norm, type->data);
    out->result = xstrdup(type->data);
    return true;
}

bool event_sig_parse(const char *text, size_t len, src_loc at, event_sig *out)
{
    memset(out, 0, sizeof *out);
    sig_lexer lx = {text, text ? text + len : NULL, text, at}; /* no signature: text may be NULL */
    buf type = {0}, norm = {0};
    bool ok = true;
    buf_puts(&norm, "(");
    if (text && len) {
        skip_space(&lx);
        ok = lx.p < lx.end && *lx.p == '(';
        if (!ok) diag_error(here(&lx), "expected '(' to start the event's signature");
        else lx.p++;
        ok = ok && parse_params(&lx, &type, &norm, out);
    }
    if (ok) buf_puts(&norm, ")");
    ok = ok && parse_result(&lx, &type, &norm, out);
    if (ok) {
        out->text = xstrdup(norm.data);
        out->id = XXH32(norm.data, norm.len, 0);
    }
    buf_free(&type);
    buf_free(&norm);
    if (!ok) event_sig_free(out);
    return ok;
}

void event_sig_free(event_sig *s)
{
    for (size_t i = 0; i < s->params.count; i++) free(s->params.items[i]);
    vec_free(&s->params);
    free(s->text);
    free(s->result);
    memset(s, 0, sizeof *s);
}
