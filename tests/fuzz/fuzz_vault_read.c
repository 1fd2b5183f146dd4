/* Fuzz target: reading a serialised vault (saves arrive from disk and the network). Any input must
 * give an error or a vault, never a crash or an out-of-bounds access; a rejected input leaves the
 * vault exactly as it was; an accepted one writes back to bytes that read again to the same vault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_IMPLEMENTATION
#include "icons.h"
#include "vaults/every_vault.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    every_vault v, before;
    every_vault_init(&v);
    memcpy(&before, &v, sizeof v);
    tl_vault_error e = tl_vault_read(&every_vault_desc, &v, data, size);
    if (e != TL_VAULT_OK) {
        if (memcmp(&before, &v, sizeof v) != 0) abort(); /* a failed read changed the vault */
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
