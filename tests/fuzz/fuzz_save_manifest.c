/* Fuzz target: save.h's generation reader (a save file comes from a disk that may have been
 * edited, truncated, torn or damaged). Input: a whole slot file (header, body, maybe a stale
 * tail), checked by tl_save_pack_verify
 * from an allocation of exactly its size (the sanitizers check every access); and the same bytes
 * as a bare manifest text, which the parser must either refuse or accept only in the exact form
 * the writer produces (parse then write gives the input back). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_IMPLEMENTATION
#include <threadlink/save.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    tl_save_info info;
    tl__save_manifest m;
    const char *why = NULL;
    if (size) memcpy(copy, data, size);
    if (tl_save_pack_verify(copy, size, &info) == TL_SAVE_OK && info.size > size) abort();
    if (tl__save_manifest_parse((const char *)copy, size, UINT64_MAX, &m, &why)) {
        size_t written = 0;
        char *text = tl__save_manifest_write(&m, 0, &written);
        if (!text || written != size + TL__SAVE_TRAILER_BYTES || memcmp(text, copy, size) != 0) abort();
        free(text);
        tl__save_manifest_free(&m);
    } else if (!why) {
        abort(); /* a refusal always says why */
    }
    free(copy);
    return 0;
}
