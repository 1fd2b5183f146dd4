/* Fuzz target: vault.h's live-data image reader (development builds reload the `.vaultimage`
 * files threadlink-gen watch writes; an editor or a crash can leave one of any shape). Input: an
 * image of the golden test project's "things" data file, from an allocation of exactly its size.
 * The reader fills a scratch copy of the instances (which the caller stores only when the whole
 * image was read): any input is read or refused, never a crash or an access outside the image,
 * and a refusal always says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_DEVELOPMENT
#define TL_IMPLEMENTATION
#include "icons.h"
#include "vaults/every_vault.h"
#include "vaults/things_data.h"

static void quiet(void *user, const tl_log_record *record)
{
    (void)user;
    (void)record;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t bytes = (size_t)things_live.count * things_live.desc->size;
    unsigned char *copy = malloc(size ? size : 1), *scratch = malloc(bytes);
    tl__vault_live_entry e = {&things_live, (char *)"fuzz.vaultimage", 0, 0, 0, false};
    tl_vault_live live;
    tl_vault_live_desc desc = {0};
    char why[256] = "";
    tl_logger logger = {quiet, NULL, 0};
    desc.logger = &logger;
    if (tl_vault_live_init(&live, &desc) != TL_VAULT_OK) abort();
    if (size) memcpy(copy, data, size);
    memcpy(scratch, things_live.instances, bytes);
    if (!tl__vault_live_parse(&live, &e, copy, size, scratch, why, sizeof why) && !why[0]) abort();
    tl_vault_live_discard(&live);
    free(copy);
    free(scratch);
    return 0;
}
