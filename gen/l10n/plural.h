/* A PO file's Plural-Forms rule, "nplurals=2; plural=(n != 1);": parsed, checked, evaluated and
 * compiled into the stack code the runtime runs (threadlink/l10n.h, PLURAL RULES). The
 * expression language is gettext's (C's operators on unsigned integers): what it cannot
 * evaluate is refused with the location of the offending character. */
#ifndef TLG_L10N_PLURAL_H
#define TLG_L10N_PLURAL_H

#include "base/diag.h"

#define PLURAL_MAX_FORMS 16 /* TL_L10N_MAX_PLURALS */
#define PLURAL_MAX_STACK 32 /* TL_L10N_PLURAL_STACK */
#define PLURAL_MAX_DEPTH 64 /* nesting the parser follows */
#define PLURAL_MAX_NODES 1024
/* The rule is checked for every n from 0 to this, and for some large values. */
#define PLURAL_CHECK_UP_TO 1000

typedef enum plural_op {
    POP_N,
    POP_NUM,
    POP_NOT,
    POP_MUL,
    POP_DIV,
    POP_MOD,
    POP_ADD,
    POP_SUB,
    POP_LT,
    POP_GT,
    POP_LE,
    POP_GE,
    POP_EQ,
    POP_NE,
    POP_AND,
    POP_OR,
    POP_COND
} plural_op;

typedef struct plural_node {
    plural_op op;
    uint32_t a, b, c; /* operands: node indices */
    uint64_t value;   /* POP_NUM */
} plural_node;

typedef struct plural_rule {
    uint32_t nplurals;
    VEC(plural_node) nodes;
    uint32_t root;
    buf code; /* the runtime's stack code */
} plural_rule;

/* Where byte `offset` of the parsed text was written. */
typedef src_loc (*plural_loc_fn)(void *ctx, size_t offset);

/* Parses a Plural-Forms value ("nplurals=N; plural=EXPR;") of `len` bytes, checks it (forms in
 * range for every n it is checked at, no division by zero there, the runtime's stack large
 * enough) and compiles it. False after reporting at loc(ctx, offset). */
bool plural_parse(const char *text, size_t len, plural_loc_fn loc, void *ctx, plural_rule *out);
/* gettext's default rule, nplurals=2; plural=(n != 1), for a file without Plural-Forms. */
void plural_default(plural_rule *out);
/* The expression's value for n (division by 0 gives 0, as at run time); *divided_by_zero, if
 * not NULL, is set when a division or remainder by 0 happened. */
uint64_t plural_eval(const plural_rule *r, uint64_t n, bool *divided_by_zero);
void plural_free(plural_rule *r);

#endif
