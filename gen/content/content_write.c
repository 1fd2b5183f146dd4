/* The writer's encoders (content_write.h), and tl_cf_archive_extract over the runtime's readers
 * (both codecs: content_write.h turns them on). */
#include "content/content_write.h"

#include <string.h>

void tl_cf_archive_put_header(unsigned char out[TL_CF_ARCHIVE_HEADER_SIZE], uint32_t entry_count, uint64_t data_size,
                              uint64_t toc_xxh64)
{
    memcpy(out, TL_CF_ARCHIVE_MAGIC, 8);
    tl_cf_put_u32(out + 8, TL_CF_ARCHIVE_VERSION);
    tl_cf_put_u32(out + 12, entry_count);
    tl_cf_put_u64(out + 16, data_size);
    tl_cf_put_u64(out + 24, toc_xxh64);
}

void tl_cf_archive_put_entry(unsigned char out[TL_CF_ARCHIVE_ENTRY_SIZE], const tl_cf_archive_entry *e)
{
    tl_cf_put_u32(out, e->id);
    out[4] = (unsigned char)e->codec;
    out[5] = out[6] = out[7] = 0;
    tl_cf_put_u64(out + 8, e->offset);
    tl_cf_put_u64(out + 16, e->stored_size);
    tl_cf_put_u64(out + 24, e->original_size);
    tl_cf_put_u64(out + 32, e->xxh64);
}
