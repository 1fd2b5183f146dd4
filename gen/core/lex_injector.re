/* The injector lexer. re2c does the byte-level work (UTF-8 validation, Unicode categories); the
 * line grammar below is plain C.
 *
 *   file       -> BOM? line*
 *   line       -> ws* [ identifier ws* ] [ '//' any* ] '\n'
 *   identifier -> letter cp*          letter: Unicode general category L; ends before '//'
 *
 * So a comment may follow an entry: "Health // hit points" is the entry Health, where the
 * comment would otherwise become part of the name (Health____hit_points) and of its key.
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
    const unsigned char *base, *line_start;
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

bool lex_injector(const char *file, const char *data, size_t len, bool signatures, arena *strings,
                  injector_line_fn fn, void *ctx)
{
    const unsigned char *p = (const unsigned char *)data, *limit = p + len;
    line_state s = {file, p, p, 1, true};
    buf name = {0};

    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;

    s.line_start = p;
    while (p < limit) {
        /* Leading white space. */
        while (p < limit && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')) p++;
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
        const unsigned char *start = p, *tok = p;
        cp_class c = next_cp(&p, limit);
        out.loc = loc_of(&s, start);
        bool line_ok = true;
        if (c == CP_WORD_RUN && !((*start | 32) >= 'a' && (*start | 32) <= 'z')) {
            diag_error(out.loc, "identifier must start with a letter, not '%c'", *start);
            line_ok = false;
        } else if (c == CP_NUL) {
            diag_error(out.loc, "NUL byte in injector file");
            line_ok = false;
        } else if (c == CP_INVALID) {
            diag_error(out.loc, "invalid UTF-8 (byte 0x%02X)", *start);
            line_ok = false;
        } else if (c != CP_WORD_RUN && c != CP_LETTER) {
            diag_error(out.loc, "identifier must start with a letter, not '%.*s'",
                       (int)(p - start), (const char *)start);
            line_ok = false;
        }

        name.len = 0;
        size_t trimmed = 0; /* name length up to the last non-space code point */
        const unsigned char *spelled_end = start; /* where that code point ends in the text */
        const unsigned char *paren = NULL;
        /* Scan again from the identifier start, now that the first code point is known good. */
        p = start;
        while (line_ok) {
            tok = p;
            c = next_cp(&p, limit);
            if (c == CP_NEWLINE || c == CP_END) {
                p = tok;
                break;
            }
            if (c == CP_COMMENT) {
                p = tok;
                skip_to_eol(&p, limit);
                break;
            }
            if (c == CP_WORD_RUN) {
                buf_put(&name, tok, (size_t)(p - tok));
                trimmed = name.len;
                spelled_end = p;
            } else if (c == CP_SPACE) {
                buf_putc(&name, '_');
            } else if (c == CP_OPEN_PAREN && signatures) {
                paren = tok;
                break;
            } else if (c == CP_LETTER || c == CP_OTHER || c == CP_OPEN_PAREN) {
                buf_putc(&name, '_');
                trimmed = name.len;
                spelled_end = p;
            } else if (c == CP_NUL) {
                diag_error(loc_of(&s, tok), "NUL byte in injector file");
                line_ok = false;
            } else {
                diag_error(loc_of(&s, tok), "invalid UTF-8 (byte 0x%02X)", *tok);
                line_ok = false;
            }
        }

        if (line_ok && trimmed > INJECTOR_MAX_NAME) {
            diag_error(out.loc, "identifier is %zu characters long: at most %d (it becomes part of C names and of the manifest key)",
                       trimmed, INJECTOR_MAX_NAME);
            line_ok = false;
        }
        if (line_ok && paren) {
            /* The signature runs to the end of the line or to a comment; its own parser checks it. */
            const unsigned char *end = p;
            skip_to_eol(&end, limit);
            const unsigned char *sig_end = paren;
            while (sig_end < end && !(end - sig_end >= 2 && sig_end[0] == '/' && sig_end[1] == '/')) sig_end++;
            while (sig_end > paren && (sig_end[-1] == ' ' || sig_end[-1] == '\t' || sig_end[-1] == '\r'))
                sig_end--;
            if (sig_end - paren > INJECTOR_MAX_SIGNATURE) {
                diag_error(loc_of(&s, paren), "signature is %td bytes long: at most %d", sig_end - paren, INJECTOR_MAX_SIGNATURE);
                line_ok = false;
            }
            for (const unsigned char *q = paren; line_ok && q < sig_end; q++) {
                if (*q == 0) {
                    diag_error(loc_of(&s, q), "NUL byte in injector file");
                    line_ok = false;
                    break;
                }
            }
            out.signature = arena_strndup(strings, (const char *)paren, (size_t)(sig_end - paren));
            out.signature_len = (uint32_t)(sig_end - paren);
            out.signature_loc = loc_of(&s, paren);
            p = end;
        }

        if (line_ok) {
            out.name = arena_strndup(strings, name.data, trimmed);
            out.name_len = (uint32_t)trimmed;
            size_t spelled = (size_t)(spelled_end - start);
            if (spelled != trimmed || memcmp(start, name.data, trimmed) != 0) {
                out.spelling = arena_strndup(strings, (const char *)start, spelled);
                out.spelling_len = (uint32_t)spelled;
            }
            fn(ctx, &out);
        } else {
            s.ok = false;
            skip_to_eol(&p, limit); /* one error per line is enough */
        }
    }
    buf_free(&name);
    return s.ok;
}
