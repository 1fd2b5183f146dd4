/* Common leading and trailing lines are matched first; the differing middle is aligned by a
 * longest-common-subsequence table when it is small enough, and otherwise shown as one block
 * replaced by another, which is still a correct diff. */
#include "base/udiff.h"

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

static void align_middle(const lines *A, size_t a0, size_t a1, const lines *B, size_t b0, size_t b1, ops *out)
{
    size_t n = a1 - a0, m = b1 - b0;
    if (n && m && n * m <= 4u * 1024 * 1024) {
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
        return;
    }
    for (size_t i = a0; i < a1; i++) *vec_push(out) = (op){OP_DEL, i, b0};
    for (size_t j = b0; j < b1; j++) *vec_push(out) = (op){OP_INS, a1, j};
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

void udiff(buf *out, const char *a_name, const char *a, size_t alen, const char *b_name, const char *b, size_t blen)
{
    if (alen == blen && memcmp(a, b, alen) == 0) return;
    lines A = {0}, B = {0};
    split(a, alen, &A);
    split(b, blen, &B);
    size_t pre = 0;
    while (pre < A.count && pre < B.count && same(&A.items[pre], &B.items[pre])) pre++;
    size_t suf = 0;
    while (suf < A.count - pre && suf < B.count - pre && same(&A.items[A.count - 1 - suf], &B.items[B.count - 1 - suf])) suf++;

    ops script = {0};
    for (size_t i = 0; i < pre; i++) *vec_push(&script) = (op){OP_EQ, i, i};
    align_middle(&A, pre, A.count - suf, &B, pre, B.count - suf, &script);
    for (size_t k = suf; k > 0; k--) *vec_push(&script) = (op){OP_EQ, A.count - k, B.count - k};

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
}
