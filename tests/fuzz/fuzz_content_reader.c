/* Fuzz target: the content readers (threadlink/content_format.h, shared by the runtime and the
 * generator; built here as the generator builds them) on arbitrary bytes: a packed archive
 * (header, table of contents, every entry decoded and checked), a binary catalog (with lookups),
 * and archives.json. Archives arrive by download, so no input may crash, hang, allocate without
 * bound or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/content_format.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The readers never look past `size`: give them an exact-size copy so ASan sees any slip. */
    unsigned char *copy = malloc(size ? size : 1);
    if (size) memcpy(copy, data, size);
    tl_cf_archive a;
    if (tl_cf_archive_open(&a, copy, size, NULL) == TL_CF_OK) {
        for (uint32_t i = 0; i < a.entry_count; i++) {
            tl_cf_archive_entry e, found;
            tl_cf_archive_entry_at(&a, i, &e);
            if (tl_cf_archive_find(&a, e.id, &found) != TL_CF_OK || found.offset != e.offset) abort();
            if (e.original_size > (1u << 20)) continue; /* the caller bounds what it allocates */
            void *out = malloc(e.original_size ? (size_t)e.original_size : 1);
            (void)tl_cf_archive_extract(&a, &e, out, (size_t)e.original_size);
            free(out);
        }
    }
    tl_cf_catalog c;
    if (tl_cf_catalog_open(&c, copy, size, NULL) == TL_CF_OK) {
        for (uint32_t i = 0; i < c.asset_count; i++) {
            tl_cf_catalog_asset x, y;
            tl_cf_catalog_asset_at(&c, i, &x);
            if (tl_cf_catalog_find_name(&c, x.name, x.name_len, &y) != TL_CF_OK || y.id != x.id) abort();
            if (tl_cf_catalog_find_id(&c, x.id, &y) != TL_CF_OK) abort();
        }
        for (uint32_t k = 0; k < c.category_count; k++) {
            const char *name;
            uint32_t first, count;
            tl_cf_catalog_category(&c, k, &name, &first, &count);
            for (uint32_t m = first; m < first + count; m++)
                if (tl_cf_catalog_member(&c, m) >= c.asset_count) abort();
        }
    }
    tl_cf_index ix;
    if (tl_cf_index_parse(&ix, (const char *)copy, size, NULL) == TL_CF_OK) {
        for (uint32_t i = 0; i < ix.archive_count; i++)
            for (uint32_t f = 0; f < ix.archives[i].file_count; f++)
                if (!ix.archives[i].files[f][0]) abort();
        tl_cf_index_free(&ix);
    }
    free(copy);
    return 0;
}
