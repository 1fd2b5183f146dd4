/* Fuzz target: the manifest reader (and the consistency check after it) on arbitrary bytes.
 * Manifests arrive in pull requests, so no input may crash, hang or read out of bounds. The reader
 * takes lines written as the generator writes them in one step: it must read every input as it
 * does token by token (the same entries, or the same error at the same place). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "core/identity.h"
#include "core/manifest.h"

static void record_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    diag_format(ctx, level, loc, message);
}

/* One read of text[size] as text: its result, its diagnostics and its entries. */
static bool read_described(const char *text, size_t size, bool shortcut, manifest *m, buf *out)
{
    diag_sink prev = diag_set_sink((diag_sink){record_diag, out});
    manifest_read_shortcut = shortcut;
    bool ok = manifest_read("fuzz.json", text, size, m);
    manifest_read_shortcut = true;
    diag_set_sink(prev);
    buf_puts(out, ok ? "\nok\n" : "\nrefused\n");
    for (size_t i = 0; ok && i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        buf_printf(out, "%s|%u|%s|%u|%s|%u|%u|%d|%u|%s|%s|%u\n", e->key, e->key_len, e->name, e->name_len, e->scope, e->value,
                   e->seed_offset, e->tombstone, e->line, e->issued_key ? e->issued_key : "-", e->signature ? e->signature : "-",
                   e->renamed_count);
    }
    return ok;
}

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = 0;
    buf plain = {0}, fast = {0};
    manifest m;
    if (read_described(copy, size, false, &m, &plain)) manifest_free(&m);
    bool ok = read_described(copy, size, true, &m, &fast);
    if (plain.len != fast.len || memcmp(plain.data, fast.data, plain.len) != 0) abort(); /* the two readings differ */
    buf_free(&plain);
    buf_free(&fast);
    diag_set_sink((diag_sink){ignore_diag, NULL});
    if (ok) {
        domain d;
        memset(&d, 0, sizeof d);
        d.name = m.domain;
        d.c_name = "Fuzz";
        d.lower_name = "fuzz";
        d.kind = m.kind;
        identity_summary s;
        if (identity_assign(&d, &m, "fuzz.json", 1, &s)) identity_summary_free(&s);
        manifest_free(&m);
    }
    free(copy);
    return 0;
}
