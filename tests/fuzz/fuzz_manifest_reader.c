/* Fuzz target: the manifest reader (and the consistency check after it) on arbitrary bytes.
 * Manifests arrive in pull requests, so no input may crash, hang or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "core/identity.h"
#include "core/manifest.h"

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
    diag_set_sink((diag_sink){ignore_diag, NULL});
    manifest m;
    if (manifest_read("fuzz.json", copy, size, &m)) {
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
