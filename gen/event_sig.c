/*   signature  -> '(' [ params ] ')' [ '->' type ]
 *   params     -> 'void' | type { ',' type }
 *   type       -> WORD { WORD | '*' }          WORD -> [A-Za-z_][A-Za-z0-9_]*
 * White space separates WORDs and is otherwise insignificant. A type is normalised to its tokens
 * joined by one space, with nothing between consecutive '*'. `-> void` is refused: an event
 * without a result is a broadcast. */
#include "event_sig.h"

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

/* type -> WORD { WORD | '*' }, normalised into `out`; stops before ',' ')' or the end. */
static bool parse_type(sig_lexer *lx, buf *out, const char *what)
{
    out->len = 0;
    buf_cstr(out);
    skip_space(lx);
    if (lx->p >= lx->end || !is_word_start(*lx->p)) {
        diag_error(here(lx), "expected a %s type (a name such as 'float' or 'const scene_load *')", what);
        return false;
    }
    bool last_star = false;
    for (;;) {
        skip_space(lx);
        if (lx->p >= lx->end || *lx->p == ',' || *lx->p == ')') break;
        if (*lx->p == '*') {
            if (!last_star) buf_putc(out, ' ');
            buf_putc(out, '*');
            last_star = true;
            lx->p++;
        } else if (is_word_start(*lx->p)) {
            const char *w = lx->p;
            while (lx->p < lx->end && ascii_is_word((unsigned char)*lx->p)) lx->p++;
            if (out->len) buf_putc(out, ' ');
            buf_put(out, w, (size_t)(lx->p - w));
            last_star = false;
        } else {
            diag_error(here(lx), "unexpected '%c' in a type (arrays, function types and '...' need a typedef)", *lx->p);
            return false;
        }
    }
    return true;
}

bool event_sig_parse(const char *text, size_t len, src_loc at, event_sig *out)
{
    memset(out, 0, sizeof *out);
    sig_lexer lx = {text, text + len, text, at};
    buf type = {0}, norm = {0};
    bool ok = false;
    buf_puts(&norm, "(");
    if (!text || !len) goto done_ok;
    skip_space(&lx);
    if (lx.p >= lx.end || *lx.p != '(') {
        diag_error(here(&lx), "expected '(' to start the event's signature");
        goto done;
    }
    lx.p++;
    skip_space(&lx);
    if (lx.p < lx.end && *lx.p == ')') {
        lx.p++;
    } else {
        for (;;) {
            if (!parse_type(&lx, &type, "parameter")) goto done;
            if (strcmp(type.data, "void") == 0 && out->params.count == 0) {
                skip_space(&lx);
                if (lx.p < lx.end && *lx.p == ')') {
                    lx.p++;
                    break;
                }
                diag_error(here(&lx), "'void' must be the only parameter");
                goto done;
            }
            if (strcmp(type.data, "void") == 0) {
                diag_error(here(&lx), "'void' must be the only parameter");
                goto done;
            }
            if (out->params.count) buf_puts(&norm, ", ");
            buf_puts(&norm, type.data);
            *vec_push(&out->params) = xstrdup(type.data);
            skip_space(&lx);
            if (lx.p < lx.end && *lx.p == ',') {
                lx.p++;
                continue;
            }
            if (lx.p < lx.end && *lx.p == ')') {
                lx.p++;
                break;
            }
            diag_error(here(&lx), "expected ',' or ')' after a parameter type");
            goto done;
        }
    }
done_ok:
    buf_puts(&norm, ")");
    skip_space(&lx);
    if (lx.p < lx.end) {
        if (lx.end - lx.p >= 2 && lx.p[0] == '-' && lx.p[1] == '>') {
            lx.p += 2;
            if (!parse_type(&lx, &type, "result")) goto done;
            if (lx.p < lx.end) {
                diag_error(here(&lx), "unexpected '%c' after the result type", *lx.p);
                goto done;
            }
            if (strcmp(type.data, "void") == 0) {
                diag_error(here(&lx), "'-> void' is not a result: leave it out for an event without one");
                goto done;
            }
            buf_puts(&norm, "->");
            buf_puts(&norm, type.data);
            out->result = xstrdup(type.data);
        } else {
            diag_error(here(&lx), "unexpected '%c' after the parameters (a result is written '-> type')", *lx.p);
            goto done;
        }
    }
    out->text = xstrdup(norm.data);
    out->id = XXH32(norm.data, norm.len, 0);
    ok = true;
done:
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
