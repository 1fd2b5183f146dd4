/* Fuzz target: reading a serialised vault (saves arrive from disk and the network). Any input must
 * give an error or a vault, never a crash or an out-of-bounds access; a rejected input leaves the
 * vault exactly as it was; an accepted one writes back to bytes that read again to the same vault.
 * The runtime: the linked library (replay), or implemented here by -DTL_IMPLEMENTATION (libFuzzer). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icons.h"
#include "vaults/every_vault.h"

/* Reads every byte of each record handed over (the sanitizers check its bounds). */
static void on_mismatch(void *ctx, void *vault, const tl_vault_mismatch *m)
{
    unsigned *sum = ctx;
    (void)vault;
    if (m->reason != TL_VAULT_ERROR_TYPE && m->reason != TL_VAULT_ERROR_CAPACITY) abort();
    for (uint32_t i = 0; i < m->length; i++) *sum += ((const unsigned char *)m->payload)[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    every_vault v, before;
    every_vault_init(&v);
    memcpy(&before, &v, sizeof v);
    /* With on_mismatch, whatever tl_vault_read accepts is read the same, and a type change or a
     * capacity cut is all it lets pass besides. */
    unsigned sum = 0;
    tl_vault_read_options options = {on_mismatch, &sum};
    every_vault lenient;
    every_vault_init(&lenient);
    tl_vault_result le = tl_vault_read_with(&every_vault_desc, &lenient, data, size, &options, NULL);
    tl_vault_result e = tl_vault_read(&every_vault_desc, &v, data, size);
    if (e == TL_VAULT_OK && (le != TL_VAULT_OK || memcmp(&v, &lenient, sizeof v) != 0)) abort();
    /* Refused with options only for what is refused without, and for the same reason unless
     * that was one the options let pass. */
    if (le != TL_VAULT_OK && e == TL_VAULT_OK) abort();
    if (e != TL_VAULT_OK && e != TL_VAULT_ERROR_TYPE && e != TL_VAULT_ERROR_CAPACITY && le != e) abort();
    if (e != TL_VAULT_OK) {
        if (memcmp(&before, &v, sizeof v) != 0) abort(); /* a failed read changed the vault */
        if (le != TL_VAULT_OK && memcmp(&before, &lenient, sizeof v) != 0) abort();
        return 0;
    }
    size_t n = tl_vault_serialised_size(&every_vault_desc, &v), written = 0;
    uint8_t *bytes = malloc(n ? n : 1);
    if (tl_vault_write(&every_vault_desc, &v, bytes, n, &written) != TL_VAULT_OK || written != n) abort();
    every_vault w;
    every_vault_init(&w);
    if (tl_vault_read(&every_vault_desc, &w, bytes, n) != TL_VAULT_OK) abort();
    size_t m = tl_vault_serialised_size(&every_vault_desc, &w);
    uint8_t *again = malloc(m ? m : 1);
    if (m != n || tl_vault_write(&every_vault_desc, &w, again, m, &written) != TL_VAULT_OK || written != m ||
        memcmp(bytes, again, n) != 0)
        abort();
    free(bytes);
    free(again);
    return 0;
}
