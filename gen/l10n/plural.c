/* Plural-Forms: the header value's grammar, an expression parser by precedence, evaluation and
 * compilation to the runtime's stack code.
 *
 *   value   -> ws 'nplurals' ws '=' ws NUMBER ws ';' ws 'plural' ws '=' ws expr ws [ ';' ws ]
 *   expr    -> or [ '?' expr ':' expr ]                  right-associative, as in C
 *   or      -> and { '||' and }
 *   and     -> eq { '&&' eq }
 *   eq      -> rel { ( '==' | '!=' ) rel }
 *   rel     -> add { ( '<' | '>' | '<=' | '>=' ) add }
 *   add     -> mul { ( '+' | '-' ) mul }
 *   mul     -> unary { ( '*' | '/' | '%' ) unary }
 *   unary   -> '!' unary | primary
 *   primary -> 'n' | NUMBER | '(' expr ')'              NUMBER: decimal, at most 4294967295 */
#include "l10n/plural.h"

#include <stdio.h>
#include <string.h>

typedef struct parser {
    const char *text;
    size_t len, at;
    plural_loc_fn loc;
    void *ctx;
    plural_rule *rule;
    unsigned depth;
    bool failed;
} parser;

static void fail_at(parser *ps, size_t offset, const char *fmt, const char *arg)
{
    if (ps->failed) return; /* the first problem only: the rest follows from it */
    diag_error(ps->loc(ps->ctx, offset), fmt, arg);
    ps->failed = true;
}

static char peek(const parser *ps) { return ps->at < ps->len ? ps->text[ps->at] : '\0'; }

static void skip_ws(parser *ps)
{
    while (ps->at < ps->len && strchr(" \t\r\n", ps->text[ps->at]) && ps->text[ps->at]) ps->at++;
}

/* The two-character operator `op` next (after white space): consumed. */
static bool take(parser *ps, const char *op)
{
    skip_ws(ps);
    size_t n = strlen(op);
    if (ps->len - ps->at < n || memcmp(ps->text + ps->at, op, n) != 0) return false;
    /* '<' is not the start of "<=", '!' not of "!=", '=' not of "==" */
    if (n == 1 && ps->at + 1 < ps->len && ps->text[ps->at + 1] == '=' && strchr("<>!=", op[0])) return false;
    ps->at += n;
    return true;
}

static uint32_t add_node(parser *ps, plural_op op, uint32_t a, uint32_t b, uint32_t c, uint64_t value)
{
    if (ps->rule->nodes.count >= PLURAL_MAX_NODES) { /* evaluation recurses once per level */
        fail_at(ps, ps->at, "%s", "the plural expression is too long (at most 1024 terms and operators)");
        return 0;
    }
    plural_node *nd = vec_push(&ps->rule->nodes);
    *nd = (plural_node){op, a, b, c, value};
    return (uint32_t)(ps->rule->nodes.count - 1);
}

/* NUMBER at ps->at: its value, or false (reported; `where` says whose: "in the plural expression"). */
static bool number(parser *ps, uint64_t *out, const char *where)
{
    size_t start = ps->at;
    uint64_t v = 0;
    while (ps->at < ps->len && ps->text[ps->at] >= '0' && ps->text[ps->at] <= '9') {
        v = v * 10 + (uint64_t)(ps->text[ps->at++] - '0');
        if (v > UINT32_MAX) {
            fail_at(ps, start, "number %s is too large (at most 4294967295)", where);
            return false;
        }
    }
    *out = v;
    return ps->at > start;
}

static uint32_t expr(parser *ps);

static uint32_t primary(parser *ps)
{
    skip_ws(ps);
    uint64_t v;
    char c = peek(ps);
    if (c == 'n' && !(ps->at + 1 < ps->len && ascii_is_word((unsigned char)ps->text[ps->at + 1]))) {
        ps->at++;
        return add_node(ps, POP_N, 0, 0, 0, 0);
    }
    if (c >= '0' && c <= '9') return number(ps, &v, "in the plural expression") ? add_node(ps, POP_NUM, 0, 0, 0, v) : 0;
    if (c == '(') {
        size_t open = ps->at++;
        uint32_t e = expr(ps);
        if (!take(ps, ")")) fail_at(ps, open, "%s", "this '(' is not closed (a ')' is missing)");
        return e;
    }
    if (c == '\0' || c == ';') fail_at(ps, ps->at, "%s", "the plural expression ends too early (expected n, a number or '(')");
    else
        fail_at(ps, ps->at, "unexpected '%s' in the plural expression (its terms are n, numbers and parentheses)",
                (char[]){c, 0});
    return 0;
}

static uint32_t unary(parser *ps)
{
    if (take(ps, "!")) {
        if (++ps->depth > PLURAL_MAX_DEPTH) {
            fail_at(ps, ps->at, "%s", "the plural expression is nested too deeply");
            return 0;
        }
        uint32_t a = unary(ps);
        ps->depth--;
        return add_node(ps, POP_NOT, a, 0, 0, 0);
    }
    return primary(ps);
}

/* One level of left-associative binary operators: ops[i] gives node kinds[i]. */
typedef uint32_t (*level_fn)(parser *ps);

static uint32_t binary_level(parser *ps, level_fn next, const char *const *ops, const plural_op *kinds, size_t n)
{
    uint32_t left = next(ps);
    for (;;) {
        size_t k = 0;
        while (k < n && !take(ps, ops[k])) k++;
        if (k == n || ps->failed) return left;
        uint32_t right = next(ps);
        left = add_node(ps, kinds[k], left, right, 0, 0);
    }
}

static uint32_t mul(parser *ps)
{
    static const char *const ops[] = {"*", "/", "%"};
    static const plural_op kinds[] = {POP_MUL, POP_DIV, POP_MOD};
    return binary_level(ps, unary, ops, kinds, 3);
}

static uint32_t add(parser *ps)
{
    static const char *const ops[] = {"+", "-"};
    static const plural_op kinds[] = {POP_ADD, POP_SUB};
    return binary_level(ps, mul, ops, kinds, 2);
}

static uint32_t rel(parser *ps)
{
    static const char *const ops[] = {"<=", ">=", "<", ">"};
    static const plural_op kinds[] = {POP_LE, POP_GE, POP_LT, POP_GT};
    return binary_level(ps, add, ops, kinds, 4);
}

static uint32_t eq(parser *ps)
{
    static const char *const ops[] = {"==", "!="};
    static const plural_op kinds[] = {POP_EQ, POP_NE};
    return binary_level(ps, rel, ops, kinds, 2);
}

static uint32_t and_(parser *ps)
{
    static const char *const ops[] = {"&&"};
    static const plural_op kinds[] = {POP_AND};
    return binary_level(ps, eq, ops, kinds, 1);
}

static uint32_t or_(parser *ps)
{
    static const char *const ops[] = {"||"};
    static const plural_op kinds[] = {POP_OR};
    return binary_level(ps, and_, ops, kinds, 1);
}

static uint32_t expr(parser *ps)
{
    if (++ps->depth > PLURAL_MAX_DEPTH) {
        fail_at(ps, ps->at, "%s", "the plural expression is nested too deeply");
        return 0;
    }
    uint32_t c = or_(ps);
    if (!ps->failed && take(ps, "?")) {
        uint32_t a = expr(ps);
        if (!ps->failed && !take(ps, ":")) fail_at(ps, ps->at, "%s", "expected ':' of the '?:' in the plural expression");
        uint32_t b = ps->failed ? 0 : expr(ps);
        c = add_node(ps, POP_COND, c, a, b, 0);
    }
    ps->depth--;
    return c;
}

/* ---- evaluation and code ----------------------------------------------------------------------- */

static uint64_t apply(plural_op op, uint64_t a, uint64_t b, bool *div0)
{
    switch (op) {
    case POP_MUL: return a * b;
    case POP_DIV: *div0 |= b == 0; return b ? a / b : 0;
    case POP_MOD: *div0 |= b == 0; return b ? a % b : 0;
    case POP_ADD: return a + b;
    case POP_SUB: return a - b;
    case POP_LT: return a < b;
    case POP_GT: return a > b;
    case POP_LE: return a <= b;
    case POP_GE: return a >= b;
    case POP_EQ: return a == b;
    case POP_NE: return a != b;
    case POP_AND: return a && b;
    default: return a || b; /* POP_OR */
    }
}

/* Every operand is evaluated (no short cut), as the runtime's stack code does: the expression
 * has no side effects, and a division by zero is 0 either way, but a check should see it. */
static uint64_t eval_node(const plural_rule *r, uint32_t i, uint64_t n, bool *div0)
{
    const plural_node *nd = &r->nodes.items[i];
    switch (nd->op) {
    case POP_N: return n;
    case POP_NUM: return nd->value;
    case POP_NOT: return !eval_node(r, nd->a, n, div0);
    case POP_COND: {
        uint64_t c = eval_node(r, nd->a, n, div0), x = eval_node(r, nd->b, n, div0), y = eval_node(r, nd->c, n, div0);
        return c ? x : y;
    }
    default: {
        uint64_t a = eval_node(r, nd->a, n, div0), b = eval_node(r, nd->b, n, div0);
        return apply(nd->op, a, b, div0);
    }
    }
}

uint64_t plural_eval(const plural_rule *r, uint64_t n, bool *divided_by_zero)
{
    bool div0 = false;
    uint64_t v = eval_node(r, r->root, n, &div0);
    if (divided_by_zero) *divided_by_zero = div0;
    return v;
}

/* The code of node i appended (operands first); its stack need returned. */
static uint32_t compile(plural_rule *r, uint32_t i)
{
    static const unsigned char opcode[] = {0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x20,
                                           0x21, 0x22, 0x23, 0x24, 0x25, 0x30, 0x31, 0x40};
    plural_node nd = r->nodes.items[i];
    uint32_t need = 1;
    if (nd.op == POP_NOT) need = compile(r, nd.a);
    if (nd.op >= POP_MUL && nd.op <= POP_OR) {
        uint32_t a = compile(r, nd.a), b = compile(r, nd.b) + 1;
        need = a > b ? a : b;
    }
    if (nd.op == POP_COND) {
        uint32_t c = compile(r, nd.a), a = compile(r, nd.b) + 1, b = compile(r, nd.c) + 2;
        need = c > a ? c : a;
        need = need > b ? need : b;
    }
    buf_putc(&r->code, (char)opcode[nd.op]);
    if (nd.op == POP_NUM)
        for (int k = 0; k < 4; k++) buf_putc(&r->code, (char)(nd.value >> (8 * k)));
    return need;
}

/* The forms of n = 0..PLURAL_CHECK_UP_TO and of some large n are below nplurals, with no
 * division by zero; a form no n picks is a warning (translators would fill it for nothing). */
static bool check_forms(parser *ps, size_t expr_at)
{
    static const uint64_t large[] = {1000000, 1000001, 1000011, 1000021, 4294967295u, UINT64_MAX};
    bool used[PLURAL_MAX_FORMS] = {0};
    for (size_t k = 0; k <= PLURAL_CHECK_UP_TO + sizeof large / sizeof large[0]; k++) {
        uint64_t n = k <= PLURAL_CHECK_UP_TO ? k : large[k - PLURAL_CHECK_UP_TO - 1];
        bool div0;
        uint64_t form = plural_eval(ps->rule, n, &div0);
        char what[96];
        if (div0 || form >= ps->rule->nplurals) {
            if (div0) snprintf(what, sizeof what, "divides by zero for n = %llu", (unsigned long long)n);
            else
                snprintf(what, sizeof what, "gives form %llu for n = %llu, but nplurals is %u", (unsigned long long)form,
                         (unsigned long long)n, ps->rule->nplurals);
            fail_at(ps, expr_at, "the plural expression %s", what);
            return false;
        }
        used[form] = true;
    }
    for (uint32_t f = 0; f < ps->rule->nplurals; f++)
        if (!used[f]) {
            diag_warning(ps->loc(ps->ctx, expr_at), "no n picks plural form %u (nplurals is %u): is nplurals right?", f,
                         ps->rule->nplurals);
            break;
        }
    return true;
}

/* 'name' ws '=' ws at ps->at: consumed, or reported. */
static bool field(parser *ps, const char *name)
{
    skip_ws(ps);
    size_t n = strlen(name);
    if (ps->len - ps->at < n || memcmp(ps->text + ps->at, name, n) != 0) {
        fail_at(ps, ps->at, "Plural-Forms must read \"nplurals=N; plural=EXPRESSION;\": expected '%s='", name);
        return false;
    }
    ps->at += n;
    if (!take(ps, "=")) {
        fail_at(ps, ps->at, "expected '=' after %s", name);
        return false;
    }
    skip_ws(ps);
    return true;
}

static bool read_nplurals(parser *ps)
{
    uint64_t v = 0;
    if (!field(ps, "nplurals")) return false;
    size_t at = ps->at;
    if (!number(ps, &v, "for nplurals")) {
        fail_at(ps, at, "%s", "nplurals must be a number");
        return false;
    }
    if (v < 1 || v > PLURAL_MAX_FORMS) {
        fail_at(ps, at, "nplurals must be 1 to 16, %s", "the forms a language has");
        return false;
    }
    ps->rule->nplurals = (uint32_t)v;
    if (!take(ps, ";")) fail_at(ps, ps->at, "%s", "expected ';' after nplurals=N");
    return !ps->failed;
}

bool plural_parse(const char *text, size_t len, plural_loc_fn loc, void *ctx, plural_rule *out)
{
    memset(out, 0, sizeof *out);
    parser ps = {text, len, 0, loc, ctx, out, 0, false};
    if (!read_nplurals(&ps) || !field(&ps, "plural")) return false;
    size_t expr_at = ps.at;
    out->root = expr(&ps);
    take(&ps, ";");
    skip_ws(&ps);
    if (!ps.failed && ps.at < len) fail_at(&ps, ps.at, "unexpected '%s' after the plural expression", (char[]){text[ps.at], 0});
    if (ps.failed || !check_forms(&ps, expr_at)) return false;
    if (compile(out, out->root) > PLURAL_MAX_STACK) {
        fail_at(&ps, expr_at, "%s", "the plural expression is too deep for the runtime (it evaluates with 32 values at most)");
        return false;
    }
    return true;
}

void plural_default(plural_rule *out)
{
    memset(out, 0, sizeof *out);
    out->nplurals = 2;
    *vec_push(&out->nodes) = (plural_node){POP_N, 0, 0, 0, 0};
    *vec_push(&out->nodes) = (plural_node){POP_NUM, 0, 0, 0, 1};
    *vec_push(&out->nodes) = (plural_node){POP_NE, 0, 1, 0, 0};
    out->root = 2;
    compile(out, out->root);
}

void plural_free(plural_rule *r)
{
    vec_free(&r->nodes);
    buf_free(&r->code);
    memset(r, 0, sizeof *r);
}
