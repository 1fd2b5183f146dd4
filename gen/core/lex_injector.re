/* The injector lexer. re2c does the byte-level work (UTF-8 validation, Unicode categories); the
 * line grammar below is plain C.
 *
 *   file       -> BOM? line*
 *   line       -> ws* [ entry ws* ] [ '//' any* ] '\n'
 *   entry      -> identifier [ signature ] [ '<-' ws* old ]
 *   signature  -> '(' any*              ordinal domains only; ends before '<-' or '//'
 *   old        -> [ scope '.' ] identifier      scope: [A-Za-z][A-Za-z0-9_]* followed by '.' and a letter
 *   identifier -> letter cp*            letter: Unicode general category L; ends before '//' or '<-'
 *
 * So a comment may follow an entry: "Health // hit points" is the entry Health, where the
 * comment would otherwise become part of the name (Health____hit_points) and of its key.
 * "Elixir <- Potion" declares Elixir as the renamed form of the entry Potion (identity keeps
 * its value: core/identity.c); "Gamma <- Mod.Gamma" moves Gamma from the injector Mod. An old
 * name such as "Mr. Smith" or "v1.2" is a name (no letter right after the '.'); one such as
 * "A.B" is written with its scope, "User.A.B".
 * In the C name every code point other than ASCII letters, digits and '_' becomes one '_'.
 * Invalid UTF-8 (overlong forms and surrogates included) and NUL are errors. */
#include "core/lex_injector.h"

#include <string.h>

typedef enum cp_class {
    CP_WORD_RUN, /* one or more of [A-Za-z0-9_] */
    CP_LETTER,   /* a non-ASCII letter */
    CP_SPACE,
    CP_NEWLINE,
    CP_OPEN_PAREN,
    CP_COMMENT, /* "//" */
    CP_ARROW,   /* "<-": a rename */
    CP_OTHER, /* any other valid code point */
    CP_NUL,
    CP_INVALID,
    CP_END
} cp_class;

/*!include:re2c "unicode_categories.re" */

static cp_class next_cp(const unsigned char **cursor, const unsigned char *limit)
{
    const unsigned char *YYCURSOR = *cursor, *YYMARKER;
    cp_class c;
    (void)YYMARKER;
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:flags:utf-8 = 1;

        scalar = [\x01-\U0010FFFF] \ [\uD800-\uDFFF];

        [A-Za-z0-9_]+     { c = CP_WORD_RUN; goto done; }
        L                 { c = CP_LETTER; goto done; }
        [ \t\r\v\f]       { c = CP_SPACE; goto done; }
        "\n"              { c = CP_NEWLINE; goto done; }
        "("               { c = CP_OPEN_PAREN; goto done; }
        "//"              { c = CP_COMMENT; goto done; }
        "<-"              { c = CP_ARROW; goto done; }
        "\x00"            { c = (YYCURSOR - 1 == limit) ? CP_END : CP_NUL; goto done; }
        scalar            { c = CP_OTHER; goto done; }
        *                 { c = CP_INVALID; goto done; }
    */
done:
    if (c == CP_END) YYCURSOR = limit;
    *cursor = YYCURSOR;
    return c;
}

typedef struct line_state {
    const char *file;
    const unsigned char *base, *line_start, *limit;
    uint32_t line;
    bool ok;
} line_state;

static src_loc loc_of(const line_state *s, const unsigned char *at)
{
    return loc_at(s->file, s->line, (uint32_t)(at - s->line_start) + 1);
}

static void skip_to_eol(const unsigned char **p, const unsigned char *limit)
{
    const unsigned char *nl = memchr(*p, '\n', (size_t)(limit - *p));
    *p = nl ? nl : limit;
}

static bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
static bool is_ascii_letter(unsigned char c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }

/* What ended a name. */
typedef enum name_end { END_LINE, END_COMMENT, END_PAREN, END_ARROW } name_end;

/* One identifier as scanned: its C-safe spelling (name.data[0, trimmed)), where it was written
 * (start to spelled_end), and what follows it (at `stop`). */
typedef struct name_scan {
    buf name;
    size_t trimmed; /* name length up to the last non-space code point */
    const unsigned char *start, *spelled_end, *stop;
    name_end end;
} name_scan;

/* The first code point of an identifier must be a letter: false (reported) when it is not. */
static bool check_first(const line_state *s, const unsigned char *start)
{
    if (is_ascii_letter(*start)) return true; /* nearly every name: no need to classify its first run */
    const unsigned char *p = start;
    cp_class c = next_cp(&p, s->limit);
    src_loc at = loc_of(s, start);
    if (c == CP_WORD_RUN && !is_ascii_letter(*start)) diag_error(at, "identifier must start with a letter, not '%c'", *start);
    else if (c == CP_NUL) diag_error(at, "NUL byte in injector file");
    else if (c == CP_INVALID) diag_error(at, "invalid UTF-8 (byte 0x%02X)", *start);
    else if (c != CP_WORD_RUN && c != CP_LETTER)
        diag_error(at, "identifier must start with a letter, not '%.*s'", (int)(p - start), (const char *)start);
    else return true;
    return false;
}

/* Scans an identifier from `start` (its first code point known good) to what ends it: the line,
 * a comment, '(' (with signatures) or '<-'. Every code point other than [A-Za-z0-9_] becomes
 * one '_'; trailing white space is trimmed. False (reported) on NUL or invalid UTF-8. */
static bool scan_name(const line_state *s, const unsigned char *start, bool stop_at_paren, name_scan *n)
{
    const unsigned char *p = start;
    n->name.len = 0;
    n->trimmed = 0;
    n->start = n->spelled_end = start;
    for (;;) {
        const unsigned char *tok = p;
        if (p < s->limit && ascii_is_word(*p)) { /* next_cp's CP_WORD_RUN, without its UTF-8 automaton */
            while (++p < s->limit && ascii_is_word(*p)) {}
            buf_put(&n->name, tok, (size_t)(p - tok));
            n->trimmed = n->name.len;
            n->spelled_end = p;
            continue;
        }
        cp_class c = next_cp(&p, s->limit);
        n->stop = tok;
        if (c == CP_NEWLINE || c == CP_END) return n->end = END_LINE, true;
        if (c == CP_COMMENT) return n->end = END_COMMENT, true;
        if (c == CP_ARROW) return n->end = END_ARROW, true;
        if (c == CP_OPEN_PAREN && stop_at_paren) return n->end = END_PAREN, true;
        if (c == CP_NUL || c == CP_INVALID) {
            if (c == CP_NUL) diag_error(loc_of(s, tok), "NUL byte in injector file");
            else diag_error(loc_of(s, tok), "invalid UTF-8 (byte 0x%02X)", *tok);
            return false;
        }
        if (c == CP_SPACE) {
            buf_putc(&n->name, '_');
            continue;
        }
        buf_putc(&n->name, '_'); /* a non-ASCII letter, '(' without signatures, any other */
        n->trimmed = n->name.len;
        n->spelled_end = p;
    }
}

static bool check_length(const name_scan *n, src_loc at)
{
    if (n->trimmed <= INJECTOR_MAX_NAME) return true;
    diag_error(at, "identifier is %zu characters long: at most %d (it becomes part of C names and of the manifest key)",
               n->trimmed, INJECTOR_MAX_NAME);
    return false;
}

/* The signature from '(' at `paren` to the end of the line, a comment or '<-' (trimmed): into
 * `out`; *end is where it stopped. */
static bool scan_signature(const line_state *s, const unsigned char *paren, arena *strings, injector_line *out,
                           const unsigned char **end)
{
    const unsigned char *eol = paren;
    skip_to_eol(&eol, s->limit);
    const unsigned char *sig_end = paren;
    while (sig_end < eol && !(eol - sig_end >= 2 && ((sig_end[0] == '/' && sig_end[1] == '/') || (sig_end[0] == '<' && sig_end[1] == '-'))))
        sig_end++;
    *end = sig_end;
    while (sig_end > paren && (sig_end[-1] == ' ' || sig_end[-1] == '\t' || sig_end[-1] == '\r')) sig_end--;
    if (sig_end - paren > INJECTOR_MAX_SIGNATURE) {
        diag_error(loc_of(s, paren), "signature is %td bytes long: at most %d", sig_end - paren, INJECTOR_MAX_SIGNATURE);
        return false;
    }
    const unsigned char *nul = memchr(paren, 0, (size_t)(sig_end - paren));
    if (nul) {
        diag_error(loc_of(s, nul), "NUL byte in injector file");
        return false;
    }
    out->signature = arena_strndup(strings, (const char *)paren, (size_t)(sig_end - paren));
    out->signature_len = (uint32_t)(sig_end - paren);
    out->signature_loc = loc_of(s, paren);
    return true;
}

/* old -> [ scope '.' ] identifier: the length of the scope when the old name starts with one. */
static size_t scope_prefix(const unsigned char *p, const unsigned char *limit)
{
    if (p >= limit || !is_ascii_letter(*p)) return 0;
    const unsigned char *q = p;
    while (q < limit && ascii_is_word(*q)) q++;
    if (q + 1 >= limit || *q != '.') return 0;
    const unsigned char *after = q + 1;
    cp_class c = next_cp(&after, limit);
    return (c == CP_LETTER || (c == CP_WORD_RUN && is_ascii_letter(q[1]))) ? (size_t)(q - p) : 0;
}

/* The old name after '<-' at `arrow`, into out->rename_*; `n` is scratch. */
static bool scan_rename(const line_state *s, const unsigned char *arrow, bool signatures, arena *strings, name_scan *n,
                        injector_line *out)
{
    const unsigned char *p = arrow + 2;
    while (p < s->limit && is_blank(*p)) p++;
    if (p >= s->limit || *p == '\n' || (s->limit - p >= 2 && p[0] == '/' && p[1] == '/')) {
        diag_error(loc_of(s, arrow), "'<-' must be followed by the entry's old name (New <- Old)");
        return false;
    }
    out->rename_loc = loc_of(s, p);
    size_t scope = scope_prefix(p, s->limit);
    if (scope) {
        out->rename_scope = arena_strndup(strings, (const char *)p, scope);
        out->rename_scope_len = (uint32_t)scope;
        p += scope + 1;
    }
    if (!check_first(s, p) || !scan_name(s, p, signatures, n) || !check_length(n, out->rename_loc)) return false;
    if (n->end == END_ARROW) {
        diag_error(loc_of(s, n->stop), "a second '<-': one rename per line (a chain of renames takes one generate pass each)");
        return false;
    }
    if (n->end == END_PAREN) {
        diag_error(loc_of(s, n->stop), "the old name takes no signature: write it after the new name (%.*s(...) <- %.*s)",
                   (int)out->name_len, out->name, (int)n->trimmed, n->name.data);
        return false;
    }
    out->rename_name = arena_strndup(strings, n->name.data, n->trimmed);
    out->rename_name_len = (uint32_t)n->trimmed;
    return true;
}

/* The entry's own name, from the scan: its C spelling, and how it was written when that differs. */
static void set_name(const name_scan *n, arena *strings, injector_line *out)
{
    out->name = arena_strndup(strings, n->name.data, n->trimmed);
    out->name_len = (uint32_t)n->trimmed;
    size_t spelled = (size_t)(n->spelled_end - n->start);
    if (spelled != n->trimmed || memcmp(n->start, n->name.data, n->trimmed) != 0) {
        out->spelling = arena_strndup(strings, (const char *)n->start, spelled);
        out->spelling_len = (uint32_t)spelled;
    }
}

/* A '<' or '>' inside a name is far more often a mistyped rename arrow ("Elixir < Potion",
 * "Elixir -> Potion") than part of the name, which C would spell with a '_' for it: said at the
 * character, and the entry is declared as written. */
static void warn_arrow_like(const line_state *s, const name_scan *n)
{
    for (const unsigned char *p = n->start; p < n->spelled_end; p++)
        if (*p == '<' || *p == '>') {
            diag_warning(loc_of(s, p), "'%c' in the name '%.*s': a rename is written 'New <- Old'; this line declares %.*s",
                         *p, (int)(n->spelled_end - n->start), (const char *)n->start, (int)n->trimmed, n->name.data);
            return;
        }
}

/* One entry line from `start` (not blank, not a comment): its name, signature and rename into
 * `out`. False after reporting the line's first error. */
static bool lex_entry(const line_state *s, const unsigned char *start, bool signatures, arena *strings, name_scan *n,
                      injector_line *out)
{
    out->loc = loc_of(s, start);
    if (!check_first(s, start) || !scan_name(s, start, signatures, n) || !check_length(n, out->loc)) return false;
    set_name(n, strings, out);
    if (out->spelling) warn_arrow_like(s, n);
    const unsigned char *after = n->stop;
    if (n->end == END_PAREN && !scan_signature(s, n->stop, strings, out, &after)) return false;
    if (n->end == END_ARROW || (after < s->limit && after[0] == '<'))
        return scan_rename(s, after, signatures, strings, n, out);
    return true;
}

bool lex_injector(const char *file, const char *data, size_t len, bool signatures, arena *strings,
                  injector_line_fn fn, void *ctx)
{
    const unsigned char *p = (const unsigned char *)data, *limit = p + len;
    line_state s = {file, p, p, limit, 1, true};
    name_scan n = {0};

    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;

    s.line_start = p;
    while (p < limit) {
        while (p < limit && is_blank(*p)) p++; /* leading white space */
        if (p < limit && *p == '\n') {
            s.line_start = ++p;
            s.line++;
            continue;
        }
        if (p >= limit) break;
        if (limit - p >= 2 && p[0] == '/' && p[1] == '/') {
            skip_to_eol(&p, limit);
            continue;
        }
        if (p == s.line_start && limit - p >= 7 &&
            (memcmp(p, "<<<<<<<", 7) == 0 || memcmp(p, "=======", 7) == 0 || memcmp(p, ">>>>>>>", 7) == 0)) {
            diag_error(loc_of(&s, p), "a merge conflict marker: resolve the conflict first (keep the entries of both sides)");
            s.ok = false;
            skip_to_eol(&p, limit);
            continue;
        }
        injector_line out = {0};
        if (lex_entry(&s, p, signatures, strings, &n, &out)) fn(ctx, &out);
        else s.ok = false; /* one error per line is enough */
        skip_to_eol(&p, limit); /* the rest is a comment or white space */
    }
    buf_free(&n.name);
    return s.ok;
}
