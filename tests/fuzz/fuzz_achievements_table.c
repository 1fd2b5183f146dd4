/* Fuzz target: platform.h's Local achievements table ("tlach 1" then one line per achievement),
 * read back from a save that a player may have edited (save.h's hash guards the bytes, not their
 * meaning). Input: the table's bytes, from an allocation of exactly their size. An accepted table
 * holds only valid, distinct ids and the states the module writes (current <= target, and below
 * it while locked), and parsing it again gives the same entries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_IMPLEMENTATION
#include <threadlink/platform_local.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    tl__local *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    if (size) memcpy(copy, data, size);
    if (tl__local_parse(a, copy, size)) {
        for (uint32_t i = 0; i < a->count; i++) {
            const tl_platform_achievement *e = &a->entries[i];
            if (!tl_save_id_valid(e->id) || e->current > e->target) abort();
            if (!e->unlocked && e->current == e->target) abort();
            for (uint32_t k = 0; k < i; k++)
                if (strcmp(a->entries[k].id, a->entries[i].id) == 0) abort();
        }
        if (!tl__local_parse(b, copy, size) || b->count != a->count) abort();
        for (uint32_t i = 0; i < a->count; i++)
            if (memcmp(&a->entries[i], &b->entries[i], sizeof a->entries[i]) != 0) abort();
    }
    TL_FREE(a->entries);
    TL_FREE(b->entries);
    free(a);
    free(b);
    free(copy);
    return 0;
}
