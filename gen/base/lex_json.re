/* The JSON tokenizer. Strings must be valid UTF-8 without raw control characters; escapes are
 * decoded (\uXXXX with surrogate pairs to UTF-8). Numbers follow the JSON grammar exactly. */
#include "base/lex_json.h"

#include <string.h>

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define WINDOW_SIZE (4u * JSON_MAX_TOKEN)

void json_lexer_init(json_lexer *lx, const char *file, const char *data, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->fd = -1;
    lx->eof = true;
    lx->cur = lx->base = (const unsigned char *)data;
    lx->limit = lx->cur + len;
    lx->line = 1;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) lx->cur += 3, lx->line_start = 3;
}

/* Keeps at least JSON_MAX_TOKEN bytes ahead of the cursor in the window (or the rest of the file). */
static void refill(json_lexer *lx)
{
    if (lx->eof || (size_t)(lx->limit - lx->cur) >= JSON_MAX_TOKEN) return;
    size_t keep = (size_t)(lx->limit - lx->cur);
    lx->window_offset += (uint64_t)(lx->cur - lx->window);
    memmove(lx->window, lx->cur, keep);
    size_t len = keep;
    while (len < WINDOW_SIZE) {
        ssize_t n = read(lx->fd, lx->window + len, WINDOW_SIZE - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0) diag_error(loc_file(lx->file), "cannot read: %s", strerror(errno));
            lx->eof = true;
            break;
        }
        len += (size_t)n;
    }
    lx->window[len] = 0;
    lx->cur = lx->base = lx->window;
    lx->limit = lx->window + len;
}

void json_lexer_init_fd(json_lexer *lx, const char *file, int fd)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->fd = fd;
    lx->line = 1;
    lx->window = xmalloc(WINDOW_SIZE + 1);
    lx->cur = lx->limit = lx->base = lx->window;
    refill(lx);
    if (lx->limit - lx->cur >= 3 && memcmp(lx->cur, "\xEF\xBB\xBF", 3) == 0) lx->cur += 3, lx->line_start = 3;
}

void json_lexer_free(json_lexer *lx)
{
    buf_free(&lx->decoded);
    free(lx->window);
    lx->window = NULL;
}

static uint64_t offset_of(const json_lexer *lx, const unsigned char *p)
{
    return lx->window_offset + (uint64_t)(p - lx->base);
}

const char *json_tok_describe(json_tok_kind kind)
{
    static const char *const names[] = {"end of file", "'{'", "'}'", "'['", "']'", "':'", "','",
                                        "a string", "a number", "true", "false", "null", "an error"};
    return names[kind];
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c |= 32;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static uint32_t read_hex4(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v = v * 16 + (uint32_t)hex_value(p[i]);
    return v;
}

static void put_utf8(buf *b, uint32_t cp)
{
    char tmp[4];
    size_t n;
    if (cp < 0x80) tmp[0] = (char)cp, n = 1;
    else if (cp < 0x800) tmp[0] = (char)(0xC0 | cp >> 6), tmp[1] = (char)(0x80 | (cp & 63)), n = 2;
    else if (cp < 0x10000)
        tmp[0] = (char)(0xE0 | cp >> 12), tmp[1] = (char)(0x80 | ((cp >> 6) & 63)),
        tmp[2] = (char)(0x80 | (cp & 63)), n = 3;
    else
        tmp[0] = (char)(0xF0 | cp >> 18), tmp[1] = (char)(0x80 | ((cp >> 12) & 63)),
        tmp[2] = (char)(0x80 | ((cp >> 6) & 63)), tmp[3] = (char)(0x80 | (cp & 63)), n = 4;
    buf_put(b, tmp, n);
}

/* Decodes the escapes of a string token whose syntax re2c already checked; false on a lone
 * surrogate. */
static bool decode_string(json_lexer *lx, const unsigned char *s, const unsigned char *e, src_loc loc)
{
    buf *b = &lx->decoded;
    b->len = 0;
    while (s < e) {
        const unsigned char *bs = memchr(s, '\\', (size_t)(e - s));
        if (!bs) {
            buf_put(b, s, (size_t)(e - s));
            break;
        }
        buf_put(b, s, (size_t)(bs - s));
        unsigned char c = bs[1];
        s = bs + 2;
        switch (c) {
        case 'b': buf_putc(b, '\b'); break;
        case 'f': buf_putc(b, '\f'); break;
        case 'n': buf_putc(b, '\n'); break;
        case 'r': buf_putc(b, '\r'); break;
        case 't': buf_putc(b, '\t'); break;
        case 'u': {
            uint32_t cp = read_hex4(s);
            s += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && e - s >= 6 && s[0] == '\\' && s[1] == 'u') {
                uint32_t lo = read_hex4(s + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    s += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                diag_error(loc, "string contains an unpaired surrogate escape");
                return false;
            }
            put_utf8(b, cp);
            break;
        }
        default: buf_putc(b, (char)c); break; /* " \ / */
        }
    }
    buf_cstr(b);
    return true;
}

/* Moves the cursor past white space, in a plain loop (most tokens follow a space), refilling the
 * window from a file as it goes. */
static void skip_space(json_lexer *lx)
{
    for (;;) {
        if (lx->fd >= 0 && !lx->eof && (size_t)(lx->limit - lx->cur) < JSON_MAX_TOKEN) refill(lx);
        const unsigned char *p = lx->cur;
        for (;; p++) {
            if (*p == ' ' || *p == '\t' || *p == '\r') continue;
            if (*p != '\n') break;
            lx->line++;
            lx->line_start = offset_of(lx, p + 1);
        }
        bool window_end = p != lx->cur && p == lx->limit && lx->fd >= 0 && !lx->eof; /* more spaces may follow */
        lx->cur = p;
        if (!window_end) return;
    }
}

const char *json_peek(json_lexer *lx)
{
    skip_space(lx);
    return (const char *)lx->cur;
}

void json_advance(json_lexer *lx, size_t n) { lx->cur += n; }

json_tok json_next(json_lexer *lx)
{
    json_tok t = {JT_ERROR, NULL, 0, {lx->file, 0, 0}};
    const unsigned char *YYCURSOR, *YYMARKER, *YYLIMIT = lx->limit, *start;
    (void)YYLIMIT;
again:
    skip_space(lx);
    /* Strings of plain ASCII without escapes (every key and name a manifest holds) are taken
     * here; anything else goes through the full grammar below. */
    if (*lx->cur == '"') {
        const unsigned char *p = lx->cur + 1;
        while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
        if (*p == '"' && p < lx->limit) {
            t.loc.line = lx->line;
            t.loc.col = (uint32_t)(offset_of(lx, lx->cur) - lx->line_start) + 1;
            t.kind = JT_STRING;
            t.text = (const char *)lx->cur + 1;
            t.len = (size_t)(p - lx->cur - 1);
            lx->cur = p + 1;
            return t;
        }
    }
    YYLIMIT = lx->limit;
    YYCURSOR = lx->cur;
    start = YYCURSOR;
    t.loc.line = lx->line;
    t.loc.col = (uint32_t)(offset_of(lx, start) - lx->line_start) + 1;
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:flags:utf-8 = 1;

        scalar  = [\x20-\U0010FFFF] \ [\uD800-\uDFFF];
        hex     = [0-9a-fA-F];
        escape  = "\\" ( ["\\/bfnrt] | "u" hex{4} );
        char    = scalar \ ["\\];
        number  = "-"? ("0" | [1-9][0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?;

        [ \t\r]+  { lx->cur = YYCURSOR; goto again; }
        "\n"      { lx->cur = YYCURSOR; lx->line++; lx->line_start = offset_of(lx, YYCURSOR); goto again; }
        "{"       { t.kind = JT_LBRACE; goto done; }
        "}"       { t.kind = JT_RBRACE; goto done; }
        "["       { t.kind = JT_LBRACKET; goto done; }
        "]"       { t.kind = JT_RBRACKET; goto done; }
        ":"       { t.kind = JT_COLON; goto done; }
        ","       { t.kind = JT_COMMA; goto done; }
        "true"    { t.kind = JT_TRUE; goto done; }
        "false"   { t.kind = JT_FALSE; goto done; }
        "null"    { t.kind = JT_NULL; goto done; }
        number    { t.kind = JT_NUMBER; goto done; }
        ["] (char | escape)* ["] {
            lx->cur = YYCURSOR;
            if (memchr(start + 1, '\\', (size_t)(YYCURSOR - start - 2))) {
                if (!decode_string(lx, start + 1, YYCURSOR - 1, t.loc)) return t;
                t.text = lx->decoded.data;
                t.len = lx->decoded.len;
            } else {
                t.text = (const char *)start + 1;
                t.len = (size_t)(YYCURSOR - start - 2);
            }
            t.kind = JT_STRING;
            return t;
        }
        "\x00" {
            if (YYCURSOR - 1 == lx->limit && lx->eof) { lx->cur = lx->limit; t.kind = JT_EOF; return t; }
            if (YYCURSOR - 1 == lx->limit) {
                diag_error(t.loc, "token longer than %u bytes", JSON_MAX_TOKEN);
                return t;
            }
            diag_error(t.loc, "NUL byte in JSON");
            return t;
        }
        ["] {
            /* Read from a file, the window holds JSON_MAX_TOKEN bytes past the token's start: a
               string with no quote in them is too long, whatever it holds beyond. */
            if (lx->fd >= 0 && !lx->eof && (size_t)(lx->limit - start) >= JSON_MAX_TOKEN &&
                !memchr(start + 1, '"', (size_t)(lx->limit - start - 1))) {
                diag_error(t.loc, "a string longer than %u bytes, the most a token may be here", JSON_MAX_TOKEN);
                return t;
            }
            diag_error(t.loc, "unterminated or malformed string (raw control character, bad escape or invalid UTF-8)");
            return t;
        }
        "<<<<<<<" | "=======" | ">>>>>>>" {
            if (t.loc.col == 1) diag_error(t.loc, "a merge conflict marker: resolve the conflict first (docs/concepts.md: \"Merge conflicts in manifests\")");
            else diag_error(t.loc, "unexpected character in JSON");
            return t;
        }
        * {
            diag_error(t.loc, "unexpected character in JSON");
            return t;
        }
    */
done:
    lx->cur = YYCURSOR;
    t.text = (const char *)start;
    t.len = (size_t)(YYCURSOR - start);
    return t;
}
