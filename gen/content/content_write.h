/* Writing the content formats: the writer's little-endian encoders and the archive header and
 * table-of-contents entry encoders (content_write.c), over the runtime's format definitions and
 * readers (threadlink/content_format.h, static inline: the generator and the runtime read with the
 * same code). Code that only reads the formats includes the runtime's header itself. */
#ifndef TLG_CONTENT_WRITE_H
#define TLG_CONTENT_WRITE_H

/* Both codecs, in every file that reads content (the readers are static inline: each file's copy
 * decodes what its own macros say). */
#ifndef TL_CONTENT_LZ4
#define TL_CONTENT_LZ4
#endif
#ifndef TL_CONTENT_ZSTD
#define TL_CONTENT_ZSTD
#endif
#include <threadlink/content_format.h>

static inline void tl_cf_put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}
static inline void tl_cf_put_u64(unsigned char *p, uint64_t v)
{
    tl_cf_put_u32(p, (uint32_t)v);
    tl_cf_put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Encodes an archive header and a table of contents entry. */
void tl_cf_archive_put_header(unsigned char out[TL_CF_ARCHIVE_HEADER_SIZE], uint32_t entry_count, uint64_t data_size,
                              uint64_t toc_xxh64);
void tl_cf_archive_put_entry(unsigned char out[TL_CF_ARCHIVE_ENTRY_SIZE], const tl_cf_archive_entry *e);

#endif
