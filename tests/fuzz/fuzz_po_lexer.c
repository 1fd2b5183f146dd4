/* Fuzz target: the text stage's PO lexer and parser (gen/l10n/lex_po.re) on arbitrary bytes, then
 * the placeholders of what it accepts (gen/l10n/l10n_text.c) as the stage uses them: each entry's
 * msgid (and msgid_plural) declared as a source text, each msgstr encoded against them.
 * Checked: false exactly when an error was reported, every report inside the file (line and column
 * within its bytes); an accepted file's strings are valid UTF-8 without NUL, one position per
 * decoded byte plus its end, positions in file order; an encoded text has no control byte but tab,
 * newline and a placeholder mark (0x01 then 1 + an index of a declared parameter). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "l10n/l10n_model.h"

typedef struct input_shape {
    uint32_t lines, longest;
    unsigned errors;
} input_shape;

static void check_report(void *ctx, diag_level level, src_loc loc, const char *message)
{
    input_shape *in = ctx;
    (void)message;
    if (level == DIAG_ERROR) in->errors++;
    if (loc.line > in->lines || (loc.line > 0 && loc.col > in->longest + 1)) abort();
}

static input_shape shape_of(const char *data, size_t size)
{
    input_shape in = {1, 0, 0};
    uint32_t col = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == '\n') in.lines++, col = 0;
        else if (++col > in.longest) in.longest = col;
    }
    return in;
}

static bool before(po_pos a, po_pos b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

/* RFC 3629 UTF-8 (no overlong forms, no surrogates, at most U+10FFFF) without NUL: the oracle. */
static void check_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1Fu : len == 3 ? c & 0x0Fu : c & 0x07u;
        if (len == 0 || c == 0 || i + len > n) abort();
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) abort();
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            abort();
        i += len;
    }
}

static void check_string(const po_string *s)
{
    if (!s->present) return;
    if (s->at.count != s->text.len + 1) abort();
    check_utf8((const unsigned char *)s->text.data, s->text.len);
    if (before(s->at.items[0], s->keyword)) abort();
    for (size_t i = 1; i < s->at.count; i++)
        if (before(s->at.items[i], s->at.items[i - 1])) abort();
}

static void check_encoded(const buf *out, const text_key *key)
{
    const unsigned char *t = (const unsigned char *)out->data;
    for (size_t i = 0; i < out->len; i++) {
        if (t[i] == 0x01) {
            if (i + 1 >= out->len || t[i + 1] < 1 || (size_t)(t[i + 1] - 1) >= key->params.count) abort();
            i++;
        } else if (t[i] < 0x20 && t[i] != '\t' && t[i] != '\n') {
            abort();
        }
    }
}

/* The entry as the stage treats a source text, then its msgstr as translations of it. */
static void check_placeholders(const po_file *f, const po_entry *e)
{
    arena strings = {0};
    text_key key = {0};
    key.count_param = UINT32_MAX;
    key.plural = e->id_plural.present;
    bool ok = e->id.present && text_declare_params(f, &e->id, &key, &strings);
    if (ok && key.plural) ok = text_declare_params(f, &e->id_plural, &key, &strings);
    if (key.params.count > TEXT_MAX_PARAMS) abort();
    for (size_t i = 0; ok && i < e->str.count; i++) {
        buf out = {0};
        if (e->str.items[i].present && text_encode(f, &e->str.items[i], &key, &out)) check_encoded(&out, &key);
        buf_free(&out);
    }
    vec_free(&key.params);
    arena_free(&strings);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = 0;
    input_shape in = shape_of(copy, size);
    diag_sink previous = diag_set_sink((diag_sink){check_report, &in});
    po_file f = {0};
    bool ok = po_parse("fuzz.po", copy, size, &f);
    if (ok != (in.errors == 0)) abort();
    for (size_t i = 0; ok && i < f.entries.count; i++) {
        const po_entry *e = &f.entries.items[i];
        check_string(&e->ctxt), check_string(&e->id), check_string(&e->id_plural);
        for (size_t j = 0; j < e->str.count; j++) check_string(&e->str.items[j]);
        check_placeholders(&f, e);
    }
    po_free(&f);
    diag_set_sink(previous);
    free(copy);
    return 0;
}
