/* The PO lexer and parser. re2c does the byte-level work (keywords, string literals and their
 * escapes, UTF-8 validation); the entry grammar below is plain C.
 *
 *   file     -> BOM? ( blank | comment | keyword string+ )*          blank: spaces, tabs, \r, \n
 *   comment  -> '#' any* '\n'           "#," lists flags (fuzzy); "#~" obsolete entries: skipped
 *   keyword  -> 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr' | 'msgstr[' digit+ ']'
 *   string   -> '"' ( char | '\n' escape )* '"'     on one line; consecutive ones concatenate
 *   escape   -> '\' ( 'n' | 't' | '"' | '\' )
 *   entry    -> [ msgctxt ] msgid [ msgid_plural ] ( msgstr | msgstr[0] msgstr[1] ... )
 *
 * Every byte must be valid UTF-8 (no overlong forms, no surrogates), and no NUL. */
#include "l10n/po.h"

#include <string.h>

typedef enum po_token {
    TOK_CTXT,
    TOK_ID,
    TOK_ID_PLURAL,
    TOK_STR,
    TOK_STR_INDEXED, /* msgstr[n] */
    TOK_OTHER
} po_token;

typedef enum cp_kind { CP_OK, CP_NEWLINE, CP_NUL, CP_INVALID, CP_END } cp_kind;

typedef struct po_lexer {
    const char *path;
    const unsigned char *p, *limit, *line_start;
    uint32_t line;
    bool ok;
    po_file *out;
    po_entry *entry; /* the entry being read, or NULL */
    po_pos last_quote; /* the closing quote of the last string literal */
    bool fuzzy;      /* "#, fuzzy" seen since the last entry */
} po_lexer;

/* One code point at *cursor. */
static cp_kind next_cp(const unsigned char **cursor, const unsigned char *limit)
{
    const unsigned char *YYCURSOR = *cursor, *YYMARKER;
    cp_kind c;
    (void)YYMARKER;
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:flags:utf-8 = 1;

        scalar = [\x01-\U0010FFFF] \ [\uD800-\uDFFF];

        "\n"    { c = CP_NEWLINE; goto done; }
        "\x00"  { c = (YYCURSOR - 1 == limit) ? CP_END : CP_NUL; goto done; }
        scalar  { c = CP_OK; goto done; }
        *       { c = CP_INVALID; goto done; }
    */
done:
    if (c == CP_END) YYCURSOR = limit;
    *cursor = YYCURSOR;
    return c;
}

/* The keyword at *cursor (advanced past it); for msgstr[n], *index = n (UINT32_MAX if too large). */
static po_token next_keyword(const unsigned char **cursor, uint32_t *index)
{
    const unsigned char *YYCURSOR = *cursor, *YYMARKER, *digits;
    po_token t;
    /*!stags:re2c format = 'const unsigned char *@@;\n'; */
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:flags:tags = 1;

        end = [ \t\r\n"] | "\x00";

        "msgctxt" / end                       { t = TOK_CTXT; goto done; }
        "msgid" / end                         { t = TOK_ID; goto done; }
        "msgid_plural" / end                  { t = TOK_ID_PLURAL; goto done; }
        "msgstr" / end                        { t = TOK_STR; goto done; }
        "msgstr[" @digits [0-9]+ "]" / end    { t = TOK_STR_INDEXED; goto indexed; }
        *                                     { t = TOK_OTHER; goto done; }
    */
indexed:
    *index = 0;
    for (const unsigned char *d = digits; *d != ']'; d++)
        *index = *index > 100000 ? UINT32_MAX : *index * 10 + (uint32_t)(*d - '0');
done:
    (void)YYMARKER;
    if (t != TOK_OTHER) *cursor = YYCURSOR;
    return t;
}

static po_pos pos_of(const po_lexer *lx, const unsigned char *at)
{
    po_pos p = {lx->line, (uint32_t)(at - lx->line_start) + 1};
    return p;
}

src_loc po_loc(const po_file *f, po_pos p) { return loc_at(f->path, p.line, p.col); }

src_loc po_string_loc(const po_file *f, const po_string *s, size_t i)
{
    if (s->at.count == 0) return po_loc(f, s->keyword);
    return po_loc(f, s->at.items[i < s->at.count ? i : s->at.count - 1]);
}

static void lex_error(po_lexer *lx, const unsigned char *at, const char *what)
{
    diag_error(loc_at(lx->path, lx->line, (uint32_t)(at - lx->line_start) + 1), "%s", what);
    lx->ok = false;
}

/* A code point that is not one: reported. */
static void bad_cp(po_lexer *lx, const unsigned char *at, cp_kind c)
{
    if (c == CP_NUL) lex_error(lx, at, "NUL byte in a PO file");
    else {
        diag_error(loc_at(lx->path, lx->line, (uint32_t)(at - lx->line_start) + 1), "invalid UTF-8 (byte 0x%02X)", *at);
        lx->ok = false;
    }
}

/* Past the end of the line (its bytes checked as UTF-8), onto the next. */
static void skip_line(po_lexer *lx)
{
    for (;;) {
        const unsigned char *at = lx->p;
        cp_kind c = next_cp(&lx->p, lx->limit);
        if (c == CP_END) return;
        if (c == CP_NEWLINE) {
            lx->line++;
            lx->line_start = lx->p;
            return;
        }
        if (c == CP_NUL || c == CP_INVALID) bad_cp(lx, at, c);
    }
}

static bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static void skip_blanks(po_lexer *lx)
{
    while (lx->p < lx->limit && is_blank(*lx->p)) lx->p++;
}

/* "#, fuzzy, c-format": whether the flags name fuzzy. */
static bool flags_say_fuzzy(const unsigned char *p, const unsigned char *limit)
{
    const unsigned char *eol = memchr(p, '\n', (size_t)(limit - p));
    if (!eol) eol = limit;
    for (const unsigned char *w = p; w + 5 <= eol; w++)
        if (memcmp(w, "fuzzy", 5) == 0 && (w == p || w[-1] == ' ' || w[-1] == ',') &&
            (w + 5 == eol || w[5] == ',' || is_blank(w[5])))
            return true;
    return false;
}

/* ---- strings ----------------------------------------------------------------------------------- */

static void put_byte(po_string *s, char c, po_pos at)
{
    buf_putc(&s->text, c);
    *vec_push(&s->at) = at;
}

/* An escape after the backslash at `at`: its byte into s, or reported. */
static void read_escape(po_lexer *lx, const unsigned char *at, po_string *s)
{
    static const char from[] = "nt\"\\", to[] = "\n\t\"\\";
    const char *k = at[1] ? strchr(from, at[1]) : NULL;
    if (k) {
        put_byte(s, to[k - from], pos_of(lx, at));
        lx->p = at + 2;
        return;
    }
    diag_error(loc_at(lx->path, lx->line, (uint32_t)(at - lx->line_start) + 1),
               "escape '\\%c' is not supported in PO strings here (\\n, \\t, \\\" and \\\\ are)", at[1] >= 0x20 && at[1] < 0x7f ? at[1] : '?');
    lx->ok = false;
    lx->p = at + (at[1] && at[1] != '\n' ? 2 : 1);
}

/* One literal from the '"' at lx->p, appended to s. False (reported) when it does not end on
 * its line. */
static bool read_literal(po_lexer *lx, po_string *s)
{
    const unsigned char *open = lx->p++;
    for (;;) {
        const unsigned char *at = lx->p;
        if (*at == '"') {
            lx->last_quote = pos_of(lx, at);
            lx->p++;
            return true;
        }
        if (*at == '\\') {
            read_escape(lx, at, s);
            continue;
        }
        cp_kind c = next_cp(&lx->p, lx->limit);
        if (c == CP_NEWLINE || c == CP_END) {
            lx->p = at;
            lex_error(lx, open, "string not closed on its line (a '\"' is missing)");
            return false;
        }
        if (c == CP_NUL || c == CP_INVALID) bad_cp(lx, at, c);
        for (const unsigned char *b = at; b < lx->p; b++) put_byte(s, (char)*b, pos_of(lx, b));
    }
}

/* The next line's first non-blank byte is '"': the string goes on there. */
static bool continues_on_next_line(po_lexer *lx)
{
    const unsigned char *q = lx->p;
    if (q >= lx->limit || *q != '\n') return false;
    q++;
    while (q < lx->limit && is_blank(*q)) q++;
    if (q >= lx->limit || *q != '"') return false;
    lx->line++;
    lx->line_start = lx->p + 1;
    lx->p = q;
    return true;
}

/* The strings after a keyword (at least one), into s. */
static bool read_strings(po_lexer *lx, const unsigned char *keyword, po_string *s)
{
    s->present = true;
    s->keyword = pos_of(lx, keyword);
    skip_blanks(lx);
    if (lx->p >= lx->limit || *lx->p != '"') {
        lex_error(lx, keyword, "a keyword must be followed by a string (\"...\")");
        return false;
    }
    do {
        if (!read_literal(lx, s)) return false;
        skip_blanks(lx);
    } while ((lx->p < lx->limit && *lx->p == '"') || continues_on_next_line(lx));
    *vec_push(&s->at) = lx->last_quote; /* "the end of the string": its closing quote */
    buf_fit(&s->text);
    vec_fit(&s->at);
    return true;
}

/* ---- entries ----------------------------------------------------------------------------------- */

static void entry_free(po_entry *e);

static void finish_entry(po_lexer *lx)
{
    po_entry *e = lx->entry;
    lx->entry = NULL;
    if (e) vec_fit(&e->str);
    if (!e || e->str.count || e->reported) return;
    diag_error(po_loc(lx->out, e->start), "entry has no msgstr (every msgid needs one, \"\" when untranslated)");
    lx->ok = false;
}

static po_entry *start_entry(po_lexer *lx, const unsigned char *at)
{
    finish_entry(lx);
    po_entry *e = vec_push(&lx->out->entries);
    memset(e, 0, sizeof *e);
    e->start = pos_of(lx, at);
    e->fuzzy = lx->fuzzy;
    lx->fuzzy = false;
    lx->entry = e;
    return e;
}

/* Where the keyword's string goes in the entry being read (a new one where it starts one), or
 * NULL (reported) when the keyword is out of order. */
static po_string *slot_for(po_lexer *lx, po_token t, uint32_t index, const unsigned char *at)
{
    po_entry *e = lx->entry;
    bool has_str = e && e->str.count;
    const char *problem = NULL;
    /* A keyword given again before the entry's msgstr is the entry's mistake, not a new entry
     * (which would leave this one "without msgstr"). */
    bool open = e && !has_str;
    if (t == TOK_CTXT && open && (e->ctxt.present || e->id.present))
        problem = e->id.present ? "comes before the msgid (msgctxt, msgid, msgstr)" : "is given twice";
    else if (t == TOK_CTXT) return &start_entry(lx, at)->ctxt;
    else if (t == TOK_ID && open && e->id.present) problem = "is given twice";
    else if (t == TOK_ID) return (!e || has_str) ? &start_entry(lx, at)->id : &e->id;
    else if (!e || !e->id.present) problem = "needs a msgid before it";
    else if (t == TOK_ID_PLURAL && (has_str || e->id_plural.present)) problem = "must follow the msgid, once";
    else if (t == TOK_STR && has_str) problem = "is given twice";
    else if (t == TOK_STR && e->id_plural.present) problem = "of a plural entry is written msgstr[0], msgstr[1], ...";
    else if (t == TOK_STR_INDEXED && !e->id_plural.present) problem = "needs a msgid_plural (a plain entry has one msgstr)";
    else if (t == TOK_STR_INDEXED && (index != e->str.count || (has_str && !e->indexed))) problem = "is out of order (msgstr[0], msgstr[1], ... each once)";
    if (problem) {
        static const char *const names[] = {"msgctxt", "msgid", "msgid_plural", "msgstr", "msgstr[n]"};
        diag_error(loc_at(lx->path, lx->line, (uint32_t)(at - lx->line_start) + 1), "%s %s", names[t], problem);
        lx->ok = false;
        if (e) e->reported = true;
        return NULL;
    }
    if (t == TOK_ID_PLURAL) return &e->id_plural;
    e->indexed = t == TOK_STR_INDEXED;
    po_string *s = vec_push(&e->str);
    memset(s, 0, sizeof *s);
    return s;
}

/* A keyword line from lx->p: the keyword and its strings. */
static void read_keyword(po_lexer *lx)
{
    const unsigned char *at = lx->p;
    uint32_t index = 0;
    po_token t = next_keyword(&lx->p, &index);
    if (t == TOK_OTHER) {
        lex_error(lx, at, "expected a keyword (msgctxt, msgid, msgid_plural, msgstr, msgstr[n]), a string or a comment");
        skip_line(lx);
        return;
    }
    po_string *s = slot_for(lx, t, index, at);
    po_string scratch = {0};
    if (!read_strings(lx, at, s ? s : &scratch)) skip_line(lx);
    buf_free(&scratch.text);
    vec_free(&scratch.at);
}

/* One line's start: blank, comment, keyword or stray string. */
static void read_line_item(po_lexer *lx)
{
    const unsigned char *at = lx->p;
    if (*at == '\n') {
        lx->p++;
        lx->line++;
        lx->line_start = lx->p;
    } else if (*at == '#') {
        if (at[1] == ',' && flags_say_fuzzy(at + 2, lx->limit)) lx->fuzzy = true;
        if (at[1] == '~') finish_entry(lx); /* obsolete entries end the one before */
        skip_line(lx);
    } else if (*at == '"') {
        lex_error(lx, at, "a string must follow a keyword (or continue the strings of the line before)");
        skip_line(lx);
    } else {
        read_keyword(lx);
    }
}

bool po_parse(const char *path, const char *data, size_t len, po_file *out)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    po_lexer lx = {path, (const unsigned char *)data, (const unsigned char *)data + len, (const unsigned char *)data, 1, true, out, NULL, {0, 0}, false};
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) lx.p += 3;
    lx.line_start = lx.p;
    for (;;) {
        skip_blanks(&lx);
        if (lx.p >= lx.limit) break;
        if (*lx.p == 0) {
            lex_error(&lx, lx.p, "NUL byte in a PO file");
            skip_line(&lx);
            continue;
        }
        read_line_item(&lx);
    }
    finish_entry(&lx);
    return lx.ok;
}

static void string_free(po_string *s)
{
    buf_free(&s->text);
    vec_free(&s->at);
}

static void entry_free(po_entry *e)
{
    string_free(&e->ctxt);
    string_free(&e->id);
    string_free(&e->id_plural);
    for (size_t i = 0; i < e->str.count; i++) string_free(&e->str.items[i]);
    vec_free(&e->str);
}

void po_free(po_file *f)
{
    for (size_t i = 0; i < f->entries.count; i++) entry_free(&f->entries.items[i]);
    vec_free(&f->entries);
}
