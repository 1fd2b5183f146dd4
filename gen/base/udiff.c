/* Common leading and trailing lines are matched first; the differing middle is aligned by a
 * longest-common-subsequence table when it is small enough, and otherwise split by Myers's
 * O(ND) search until its parts are. */
#include "base/udiff.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    const char *text;
    size_t len; /* without the newline */
} line;

typedef VEC(line) lines;

static void split(const char *s, size_t n, lines *out)
{
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        *vec_push(out) = (line){s, len};
        s += len + (nl != NULL);
    }
}

static bool same(const line *x, const line *y) { return x->len == y->len && memcmp(x->text, y->text, x->len) == 0; }

enum { OP_EQ, OP_DEL, OP_INS };
typedef struct op {
    unsigned char kind;
    size_t a, b;
} op; /* line indices in a and b */
typedef VEC(op) ops;

/* The LCS table of a small region: the alignment diff(1) would print, removals first. */
static void align_by_table(const lines *A, size_t a0, size_t a1, const lines *B, size_t b0, size_t b1, ops *out)
{
    size_t n = a1 - a0, m = b1 - b0;
    /* lcs[i][j]: LCS length of A[a0+i..a1) and B[b0+j..b1). */
    uint32_t *lcs = xcalloc((n + 1) * (m + 1), sizeof *lcs);
#define L(i, j) lcs[(i) * (m + 1) + (j)]
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            L(i, j) = same(&A->items[a0 + i], &B->items[b0 + j]) ? L(i + 1, j + 1) + 1
                      : L(i + 1, j) >= L(i, j + 1)               ? L(i + 1, j)
                                                                 : L(i, j + 1);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && same(&A->items[a0 + i], &B->items[b0 + j])) {
            *vec_push(out) = (op){OP_EQ, a0 + i++, b0 + j++};
        } else if (i < n && (j == m || L(i + 1, j) >= L(i, j + 1))) {
            *vec_push(out) = (op){OP_DEL, a0 + i++, b0 + j}; /* removals before additions, as diff(1) */
        } else {
            *vec_push(out) = (op){OP_INS, a0 + i, b0 + j++};
        }
    }
#undef L
    free(lcs);
}

static void replace_block(size_t a0, size_t a1, size_t b0, size_t b1, ops *out)
{
    for (size_t i = a0; i < a1; i++) *vec_push(out) = (op){OP_DEL, i, b0};
    for (size_t j = b0; j < b1; j++) *vec_push(out) = (op){OP_INS, a1, j};
}

/* A large region is split where Myers's forward and backward searches for the shortest edit
 * script meet (the middle snake, in linear space), until its parts are small enough for the
 * table. Line comparisons are budgeted: past the budget a region is shown replaced whole, which
 * is still a correct diff. */
typedef struct search {
    const lines *A, *B;
    ptrdiff_t *fwd, *bwd; /* furthest x on each diagonal, offset by `mid` */
    ptrdiff_t mid;
    size_t budget; /* line comparisons left */
    bool gave_up;  /* a region was shown replaced whole for want of budget */
} search;

static bool eq_at(search *s, ptrdiff_t x, ptrdiff_t y)
{
    if (s->budget) s->budget--;
    return same(&s->A->items[x], &s->B->items[y]);
}

typedef struct point {
    ptrdiff_t x, y;
} point;

/* One more step of the forward search, edit cost d: true when it meets the backward one; *from
 * and *to then bound a snake of the shortest script. */
static bool forward_step(search *s, point lo, point hi, ptrdiff_t d, point *from, point *to)
{
    ptrdiff_t delta = (hi.x - lo.x) - (hi.y - lo.y);
    for (ptrdiff_t k = d; k >= -d; k -= 2) {
        ptrdiff_t *f = s->fwd + s->mid, *b = s->bwd + s->mid;
        ptrdiff_t px, x = k == -d || (k != d && f[k - 1] < f[k + 1]) ? (px = f[k + 1]) : (px = f[k - 1]) + 1;
        ptrdiff_t y = lo.y + (x - lo.x) - k, py = d == 0 || x != px ? y : y - 1;
        while (x < hi.x && y < hi.y && eq_at(s, x, y)) x++, y++;
        f[k] = x;
        ptrdiff_t c = k - delta;
        if ((delta & 1) && c >= -(d - 1) && c <= d - 1 && y >= b[c]) {
            *from = (point){px, py}, *to = (point){x, y};
            return true;
        }
    }
    return false;
}

static bool backward_step(search *s, point lo, point hi, ptrdiff_t d, point *from, point *to)
{
    ptrdiff_t delta = (hi.x - lo.x) - (hi.y - lo.y);
    for (ptrdiff_t c = d; c >= -d; c -= 2) {
        ptrdiff_t *f = s->fwd + s->mid, *b = s->bwd + s->mid;
        ptrdiff_t py, y = c == -d || (c != d && b[c - 1] > b[c + 1]) ? (py = b[c + 1]) : (py = b[c - 1]) - 1;
        ptrdiff_t k = c + delta, x = lo.x + (y - lo.y) + k, px = d == 0 || y != py ? x : x + 1;
        while (x > lo.x && y > lo.y && eq_at(s, x - 1, y - 1)) x--, y--;
        b[c] = y;
        if (!(delta & 1) && k >= -d && k <= d && x <= f[k]) {
            *from = (point){x, y}, *to = (point){px, py};
            return true;
        }
    }
    return false;
}

static bool middle_snake(search *s, point lo, point hi, point *from, point *to)
{
    ptrdiff_t most = ((hi.x - lo.x) + (hi.y - lo.y) + 1) / 2;
    s->fwd[s->mid + 1] = lo.x;
    s->bwd[s->mid + 1] = hi.y;
    for (ptrdiff_t d = 0; d <= most && d < s->mid - 1 && s->budget; d++)
        if (forward_step(s, lo, hi, d, from, to) || backward_step(s, lo, hi, d, from, to)) return true;
    return false;
}

static void align_middle(search *s, size_t a0, size_t a1, size_t b0, size_t b1, ops *out)
{
    const lines *A = s->A, *B = s->B;
    size_t pre = 0, suf = 0;
    while (a0 + pre < a1 && b0 + pre < b1 && same(&A->items[a0 + pre], &B->items[b0 + pre])) pre++;
    while (a0 + pre + suf < a1 && b0 + pre + suf < b1 && same(&A->items[a1 - 1 - suf], &B->items[b1 - 1 - suf])) suf++;
    for (size_t i = 0; i < pre; i++) *vec_push(out) = (op){OP_EQ, a0 + i, b0 + i};
    a0 += pre, b0 += pre, a1 -= suf, b1 -= suf;
    size_t n = a1 - a0, m = b1 - b0;
    point from, to;
    if (n && m && n * m <= 4u * 1024 * 1024) {
        align_by_table(A, a0, a1, B, b0, b1, out);
    } else if (n && m &&
               middle_snake(s, (point){(ptrdiff_t)a0, (ptrdiff_t)b0}, (point){(ptrdiff_t)a1, (ptrdiff_t)b1}, &from, &to)) {
        align_middle(s, a0, (size_t)from.x, b0, (size_t)from.y, out);
        align_middle(s, (size_t)from.x, (size_t)to.x, (size_t)from.y, (size_t)to.y, out);
        align_middle(s, (size_t)to.x, a1, (size_t)to.y, b1, out);
    } else {
        if (n && m) s->gave_up = true;
        replace_block(a0, a1, b0, b1, out);
    }
    for (size_t k = suf; k > 0; k--) *vec_push(out) = (op){OP_EQ, a1 + suf - k, b1 + suf - k};
}

static void put_line(buf *out, char mark, const line *l)
{
    buf_putc(out, mark);
    buf_put(out, l->text, l->len);
    buf_putc(out, '\n');
}

/* The end of the hunk whose first change is script[k]: `context` lines after the last change
 * that is no more than 2*context equal lines from the next. */
static size_t hunk_end(const ops *script, size_t k, size_t context)
{
    size_t end = k, run = 0;
    for (size_t i = k; i < script->count; i++) {
        if (script->items[i].kind == OP_EQ) {
            if (++run > 2 * context) break;
        } else {
            run = 0;
            end = i + 1;
        }
    }
    return end + context < script->count ? end + context : script->count;
}

/* One hunk, script[start, end): its header and lines. */
static void put_hunk(buf *out, const ops *script, size_t start, size_t end, const lines *A, const lines *B)
{
    size_t a_start = script->items[start].a, b_start = script->items[start].b, a_len = 0, b_len = 0;
    for (size_t i = start; i < end; i++) {
        a_len += script->items[i].kind != OP_INS;
        b_len += script->items[i].kind != OP_DEL;
    }
    buf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", a_len ? a_start + 1 : a_start, a_len, b_len ? b_start + 1 : b_start, b_len);
    for (size_t i = start; i < end; i++) {
        const op *o = &script->items[i];
        if (o->kind == OP_EQ) put_line(out, ' ', &A->items[o->a]);
        else if (o->kind == OP_DEL) put_line(out, '-', &A->items[o->a]);
        else put_line(out, '+', &B->items[o->b]);
    }
}

bool udiff(buf *out, const char *a_name, const char *a, size_t alen, const char *b_name, const char *b, size_t blen)
{
    if (alen == blen && memcmp(a, b, alen) == 0) return true;
    lines A = {0}, B = {0};
    split(a, alen, &A);
    split(b, blen, &B);
    /* Searches of edit cost up to 4,096 per split, and 64 comparisons per line in all. */
    size_t most_d = 4096;
    search s = {&A,
                &B,
                xcalloc(2 * most_d + 3, sizeof(ptrdiff_t)),
                xcalloc(2 * most_d + 3, sizeof(ptrdiff_t)),
                (ptrdiff_t)most_d + 1,
                64 * (A.count + B.count) + 4u * 1024 * 1024,
                false};
    ops script = {0};
    align_middle(&s, 0, A.count, 0, B.count, &script);
    free(s.fwd), free(s.bwd);

    buf_printf(out, "--- %s\n+++ %s\n", a_name, b_name);
    const size_t context = 3;
    size_t k = 0;
    while (k < script.count) {
        while (k < script.count && script.items[k].kind == OP_EQ) k++;
        if (k == script.count) break;
        size_t start = k >= context ? k - context : 0, end = hunk_end(&script, k, context);
        put_hunk(out, &script, start, end, &A, &B);
        k = end;
    }
    vec_free(&script);
    vec_free(&A);
    vec_free(&B);
    return !s.gave_up;
}
