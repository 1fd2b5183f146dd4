/* tl_cf_archive_extract: the one reader function that needs the codecs (liblz4, libzstd). */
#include "content_format.h"

#include <string.h>

#include <lz4.h>
#include <zstd.h>

tl_cf_result tl_cf_archive_extract(const tl_cf_archive *a, const tl_cf_archive_entry *e, void *out, size_t out_capacity)
{
    if (e->original_size > out_capacity) return TL_CF_NO_MEMORY;
    if (e->offset > a->size || e->stored_size > a->size - e->offset) return TL_CF_BAD_ENTRY;
    const unsigned char *src = a->data + e->offset;
    size_t n = (size_t)e->original_size;
    switch (e->codec) {
    case TL_CF_CODEC_RAW:
        if (e->stored_size != e->original_size) return TL_CF_BAD_ENTRY;
        if (n) memcpy(out, src, n);
        break;
    case TL_CF_CODEC_LZ4: {
        if (e->stored_size > (uint64_t)LZ4_MAX_INPUT_SIZE || n > (size_t)LZ4_MAX_INPUT_SIZE) return TL_CF_BAD_CODEC;
        int got = LZ4_decompress_safe((const char *)src, out, (int)e->stored_size, (int)n);
        if (got < 0 || (size_t)got != n) return TL_CF_BAD_CODEC;
        break;
    }
    case TL_CF_CODEC_ZSTD: {
        /* One frame whose declared content size is the original size exactly. */
        unsigned long long declared = ZSTD_getFrameContentSize(src, (size_t)e->stored_size);
        if (declared != (unsigned long long)n) return TL_CF_BAD_CODEC;
        size_t frame = ZSTD_findFrameCompressedSize(src, (size_t)e->stored_size);
        if (ZSTD_isError(frame) || frame != e->stored_size) return TL_CF_BAD_CODEC;
        size_t got = ZSTD_decompress(out, n, src, (size_t)e->stored_size);
        if (ZSTD_isError(got) || got != n) return TL_CF_BAD_CODEC;
        break;
    }
    default:
        return TL_CF_BAD_CODEC;
    }
    if (tl_cf_xxh64(out, n) != e->xxh64) return TL_CF_BAD_CHECKSUM;
    return TL_CF_OK;
}
