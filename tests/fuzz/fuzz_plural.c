/* Fuzz target: the Plural-Forms rule ("nplurals=N; plural=EXPR;") as the text stage parses, checks,
 * evaluates and compiles it (gen/l10n/plural.c) on arbitrary bytes, and the compiled stack code as
 * the runtime runs it (tl_l10n_plural_run, threadlink/l10n.h). Checked: false exactly when an error
 * was reported, each at an offset inside the text; an accepted rule has 1..16 forms, picks a form
 * below nplurals without dividing by zero for every n the parser promises (0..1000), and its code
 * runs and gives the parser's value for those n, for large ones and for n taken from the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_L10N_IMPL
#include <threadlink/l10n.h>

#include "base/diag.h"
#include "l10n/plural.h"

typedef struct reports {
    size_t len;
    unsigned errors;
} reports;

static void count_report(void *ctx, diag_level level, src_loc loc, const char *message)
{
    reports *r = ctx;
    (void)loc, (void)message;
    if (level == DIAG_ERROR) r->errors++;
}

static src_loc offset_loc(void *ctx, size_t offset)
{
    const reports *r = ctx;
    if (offset > r->len) abort();
    return loc_at("fuzz.po", 1, (uint32_t)offset + 1);
}

/* The parser's value and the compiled code's agree for n. */
static void check_agrees(const plural_rule *rule, uint64_t n)
{
    uint64_t form = UINT64_MAX;
    if (tl_l10n_plural_run((const unsigned char *)rule->code.data, (uint32_t)rule->code.len, n, &form) != TL_L10N_OK)
        abort();
    if (form != plural_eval(rule, n, NULL)) abort();
}

static void check_rule(const plural_rule *rule, const uint8_t *data, size_t size)
{
    static const uint64_t large[] = {1001, 0x7fffffffu, 0xffffffffu, 0x100000000u, UINT64_C(0x8000000000000000),
                                     UINT64_MAX - 1, UINT64_MAX};
    if (rule->nplurals < 1 || rule->nplurals > PLURAL_MAX_FORMS || rule->code.len == 0) abort();
    for (uint64_t n = 0; n <= PLURAL_CHECK_UP_TO; n++) {
        bool divided_by_zero = false;
        if (plural_eval(rule, n, &divided_by_zero) >= rule->nplurals || divided_by_zero) abort();
        check_agrees(rule, n);
    }
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++) check_agrees(rule, large[i]);
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t n;
        memcpy(&n, data + i, 8);
        check_agrees(rule, n);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = 0;
    reports r = {size, 0};
    diag_sink previous = diag_set_sink((diag_sink){count_report, &r});
    plural_rule rule;
    memset(&rule, 0, sizeof rule);
    bool ok = plural_parse(copy, size, offset_loc, &r, &rule);
    if (ok != (r.errors == 0)) abort();
    if (ok) check_rule(&rule, data, size);
    plural_free(&rule); /* also after a refusal: the parser may have built nodes */
    diag_set_sink(previous);
    free(copy);
    return 0;
}
