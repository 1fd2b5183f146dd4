/* Readers (and the small encoders) of the content formats; see content_format.h and
 * schemas/content-formats.md. Every bound is checked before a byte is read. */
#include "content_format.h"

#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t tl_cf_xxh64(const void *data, size_t size) { return XXH64(data, size, 0); }

const char *tl_cf_error_text(tl_cf_result r)
{
    switch (r) {
    case TL_CF_OK: return "ok";
    case TL_CF_TRUNCATED: return "truncated";
    case TL_CF_BAD_MAGIC: return "not this format (bad magic)";
    case TL_CF_BAD_VERSION: return "unsupported format version";
    case TL_CF_BAD_HEADER: return "invalid header";
    case TL_CF_BAD_SIZE: return "file size does not match the header";
    case TL_CF_BAD_CHECKSUM: return "checksum mismatch";
    case TL_CF_BAD_ENTRY: return "invalid table entry";
    case TL_CF_BAD_STRING: return "invalid string";
    case TL_CF_BAD_CODEC: return "unknown codec or undecodable data";
    case TL_CF_NOT_FOUND: return "not found";
    case TL_CF_NO_MEMORY: return "out of memory";
    case TL_CF_BAD_JSON: return "not a valid archive index";
    }
    return "unknown error";
}

/* ---- Archive ------------------------------------------------------------------------------ */

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

void tl_cf_archive_entry_at(const tl_cf_archive *a, uint32_t index, tl_cf_archive_entry *out)
{
    const unsigned char *p = a->toc + (size_t)index * TL_CF_ARCHIVE_ENTRY_SIZE;
    out->id = tl_cf_get_u32(p);
    out->codec = p[4];
    out->offset = tl_cf_get_u64(p + 8);
    out->stored_size = tl_cf_get_u64(p + 16);
    out->original_size = tl_cf_get_u64(p + 24);
    out->xxh64 = tl_cf_get_u64(p + 32);
}

tl_cf_result tl_cf_archive_open(tl_cf_archive *a, const void *data, size_t size)
{
    const unsigned char *d = data;
    memset(a, 0, sizeof *a);
    if (size < TL_CF_ARCHIVE_HEADER_SIZE) return TL_CF_TRUNCATED;
    if (memcmp(d, TL_CF_ARCHIVE_MAGIC, 8) != 0) return TL_CF_BAD_MAGIC;
    if (tl_cf_get_u32(d + 8) != TL_CF_ARCHIVE_VERSION) return TL_CF_BAD_VERSION;
    uint32_t count = tl_cf_get_u32(d + 12);
    uint64_t data_size = tl_cf_get_u64(d + 16);
    uint64_t toc_hash = tl_cf_get_u64(d + 24);
    /* Bounded before multiplying: a count the file cannot hold is refused. */
    uint64_t room = (uint64_t)size - TL_CF_ARCHIVE_HEADER_SIZE;
    if (count == 0 || count > room / TL_CF_ARCHIVE_ENTRY_SIZE) return count == 0 ? TL_CF_BAD_HEADER : TL_CF_TRUNCATED;
    uint64_t toc_size = (uint64_t)count * TL_CF_ARCHIVE_ENTRY_SIZE;
    if (data_size != room - toc_size) return TL_CF_BAD_SIZE;
    const unsigned char *toc = d + TL_CF_ARCHIVE_HEADER_SIZE;
    if (tl_cf_xxh64(toc, (size_t)toc_size) != toc_hash) return TL_CF_BAD_CHECKSUM;
    a->data = d;
    a->size = size;
    a->entry_count = count;
    a->data_size = data_size;
    a->toc = toc;
    /* Entries: ids strictly ascending, data contiguous in TOC order from the end of the TOC to
     * the end of the file, codec known, stored sizes consistent with the codec. */
    uint64_t expect = TL_CF_ARCHIVE_HEADER_SIZE + toc_size;
    for (uint32_t i = 0; i < count; i++) {
        tl_cf_archive_entry e;
        tl_cf_archive_entry_at(a, i, &e);
        const unsigned char *p = toc + (size_t)i * TL_CF_ARCHIVE_ENTRY_SIZE;
        if (p[5] || p[6] || p[7]) return TL_CF_BAD_ENTRY;
        if (i > 0 && tl_cf_get_u32(p - TL_CF_ARCHIVE_ENTRY_SIZE) >= e.id) return TL_CF_BAD_ENTRY;
        if (e.offset != expect || e.stored_size > (uint64_t)size - e.offset) return TL_CF_BAD_ENTRY;
        if (e.codec > TL_CF_CODEC_ZSTD) return TL_CF_BAD_CODEC;
        if (e.codec == TL_CF_CODEC_RAW ? e.stored_size != e.original_size
                                       : (e.stored_size >= e.original_size || e.stored_size == 0))
            return TL_CF_BAD_ENTRY;
        expect = e.offset + e.stored_size;
    }
    if (expect != size) return TL_CF_BAD_SIZE;
    return TL_CF_OK;
}

tl_cf_result tl_cf_archive_find(const tl_cf_archive *a, uint32_t id, tl_cf_archive_entry *out)
{
    uint32_t lo = 0, hi = a->entry_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t v = tl_cf_get_u32(a->toc + (size_t)mid * TL_CF_ARCHIVE_ENTRY_SIZE);
        if (v == id) {
            tl_cf_archive_entry_at(a, mid, out);
            return TL_CF_OK;
        }
        if (v < id) lo = mid + 1;
        else hi = mid;
    }
    return TL_CF_NOT_FOUND;
}

/* ---- Catalog ------------------------------------------------------------------------------ */

static unsigned char fold(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c; }

int tl_cf_fold_compare(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = fold((unsigned char)a[i]), y = fold((unsigned char)b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return alen == blen ? 0 : alen < blen ? -1 : 1;
}

/* Well-formed UTF-8 without control characters (names and paths). */
static int valid_utf8_text(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x20 || c == 0x7f) return 0;
        if (c < 0x80) { i++; continue; }
        size_t len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07;
        else return 0;
        if (n - i < len) return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        i += len;
    }
    return 1;
}

/* A string reference (offset, length) into the string area: in bounds, NUL right after it. */
static int string_ok(const tl_cf_catalog *c, uint32_t off, uint32_t len, int allow_empty)
{
    if (off >= c->string_bytes || len >= c->string_bytes - off) return 0;
    if (c->strings[off + len] != 0 || (!allow_empty && len == 0)) return 0;
    if (memchr(c->strings + off, 0, len)) return 0;
    return valid_utf8_text(c->strings + off, len);
}

void tl_cf_catalog_asset_at(const tl_cf_catalog *c, uint32_t index, tl_cf_catalog_asset *out)
{
    const unsigned char *p = c->records + (size_t)index * TL_CF_CATALOG_RECORD_SIZE;
    out->id = tl_cf_get_u32(p);
    out->category = tl_cf_get_u32(p + 4);
    out->name = (const char *)c->strings + tl_cf_get_u32(p + 8);
    out->name_len = tl_cf_get_u32(p + 12);
    out->path = (const char *)c->strings + tl_cf_get_u32(p + 16);
    out->path_len = tl_cf_get_u32(p + 20);
    out->size = tl_cf_get_u64(p + 24);
    out->xxh64 = tl_cf_get_u64(p + 32);
}

void tl_cf_catalog_category(const tl_cf_catalog *c, uint32_t index, const char **name, uint32_t *first, uint32_t *count)
{
    const unsigned char *p = c->categories + (size_t)index * TL_CF_CATALOG_CATEGORY_SIZE;
    *name = (const char *)c->strings + tl_cf_get_u32(p);
    *first = tl_cf_get_u32(p + 8);
    *count = tl_cf_get_u32(p + 12);
}

uint32_t tl_cf_catalog_member(const tl_cf_catalog *c, uint32_t position) { return tl_cf_get_u32(c->members + (size_t)position * 4); }

static uint32_t name_index_at(const tl_cf_catalog *c, uint32_t i) { return tl_cf_get_u32(c->name_index + (size_t)i * 4); }

tl_cf_result tl_cf_catalog_open(tl_cf_catalog *c, const void *data, size_t size)
{
    const unsigned char *d = data;
    memset(c, 0, sizeof *c);
    if (size < TL_CF_CATALOG_HEADER_SIZE) return TL_CF_TRUNCATED;
    if (memcmp(d, TL_CF_CATALOG_MAGIC, 8) != 0) return TL_CF_BAD_MAGIC;
    if (tl_cf_get_u32(d + 8) != TL_CF_CATALOG_VERSION) return TL_CF_BAD_VERSION;
    uint32_t flags = tl_cf_get_u32(d + 12);
    uint32_t ncat = tl_cf_get_u32(d + 16), nasset = tl_cf_get_u32(d + 20), nstr = tl_cf_get_u32(d + 24);
    if ((flags & ~TL_CF_CATALOG_FLAGS_KNOWN) || tl_cf_get_u32(d + 28) != 0) return TL_CF_BAD_HEADER;
    /* Counts are bounded by what the file can hold before anything is multiplied. */
    uint64_t room = (uint64_t)size - TL_CF_CATALOG_HEADER_SIZE;
    if (ncat == 0 || nstr == 0) return TL_CF_BAD_HEADER;
    if (ncat > room / TL_CF_CATALOG_CATEGORY_SIZE || nasset > room / (TL_CF_CATALOG_RECORD_SIZE + 8)) return TL_CF_TRUNCATED;
    uint64_t need = (uint64_t)ncat * TL_CF_CATALOG_CATEGORY_SIZE + (uint64_t)nasset * (TL_CF_CATALOG_RECORD_SIZE + 8) + nstr;
    if (need != room) return need > room ? TL_CF_TRUNCATED : TL_CF_BAD_SIZE;
    if (tl_cf_xxh64(d + TL_CF_CATALOG_HEADER_SIZE, (size_t)room) != tl_cf_get_u64(d + 32)) return TL_CF_BAD_CHECKSUM;
    c->data = d;
    c->size = size;
    c->flags = flags;
    c->category_count = ncat;
    c->asset_count = nasset;
    c->string_bytes = nstr;
    c->categories = d + TL_CF_CATALOG_HEADER_SIZE;
    c->records = c->categories + (size_t)ncat * TL_CF_CATALOG_CATEGORY_SIZE;
    c->name_index = c->records + (size_t)nasset * TL_CF_CATALOG_RECORD_SIZE;
    c->members = c->name_index + (size_t)nasset * 4;
    c->strings = c->members + (size_t)nasset * 4;
    uint32_t poff = tl_cf_get_u32(d + 40), plen = tl_cf_get_u32(d + 44);
    if (!string_ok(c, poff, plen, 0)) return TL_CF_BAD_STRING;
    c->profile = (const char *)c->strings + poff;
    c->profile_len = plen;
    if (c->strings[nstr - 1] != 0) return TL_CF_BAD_STRING;

    /* Records: ids strictly ascending and non-zero, category in range, strings valid. */
    for (uint32_t i = 0; i < nasset; i++) {
        const unsigned char *p = c->records + (size_t)i * TL_CF_CATALOG_RECORD_SIZE;
        uint32_t id = tl_cf_get_u32(p);
        if (id == 0 || (i > 0 && tl_cf_get_u32(p - TL_CF_CATALOG_RECORD_SIZE) >= id)) return TL_CF_BAD_ENTRY;
        if (tl_cf_get_u32(p + 4) >= ncat) return TL_CF_BAD_ENTRY;
        if (!string_ok(c, tl_cf_get_u32(p + 8), tl_cf_get_u32(p + 12), 0)) return TL_CF_BAD_STRING;
        int flat = (flags & TL_CF_CATALOG_FLAG_FLAT_PATHS) != 0;
        if (!string_ok(c, tl_cf_get_u32(p + 16), tl_cf_get_u32(p + 20), !flat)) return TL_CF_BAD_STRING;
        if (!flat && tl_cf_get_u32(p + 20) != 0) return TL_CF_BAD_ENTRY;
        if (!(flags & TL_CF_CATALOG_FLAG_CONTENT_INFO) && (tl_cf_get_u64(p + 24) || tl_cf_get_u64(p + 32))) return TL_CF_BAD_ENTRY;
    }
    /* Name index: a permutation of the records, sorted by folded name, no two names equal. */
    for (uint32_t i = 0; i < nasset; i++) {
        uint32_t r = name_index_at(c, i);
        if (r >= nasset) return TL_CF_BAD_ENTRY;
        if (i > 0) {
            tl_cf_catalog_asset a, b;
            tl_cf_catalog_asset_at(c, name_index_at(c, i - 1), &a);
            tl_cf_catalog_asset_at(c, r, &b);
            if (tl_cf_fold_compare(a.name, a.name_len, b.name, b.name_len) >= 0) return TL_CF_BAD_ENTRY;
        }
    }
    /* Categories: names valid, member ranges consecutive and covering every member once, each
     * member a record of that category (so every record appears exactly once). */
    uint32_t next = 0;
    for (uint32_t k = 0; k < ncat; k++) {
        const unsigned char *p = c->categories + (size_t)k * TL_CF_CATALOG_CATEGORY_SIZE;
        if (!string_ok(c, tl_cf_get_u32(p), tl_cf_get_u32(p + 4), 0)) return TL_CF_BAD_STRING;
        uint32_t first = tl_cf_get_u32(p + 8), count = tl_cf_get_u32(p + 12);
        if (first != next || count > nasset - first) return TL_CF_BAD_ENTRY;
        for (uint32_t m = first; m < first + count; m++) {
            uint32_t r = tl_cf_catalog_member(c, m);
            if (r >= nasset || tl_cf_get_u32(c->records + (size_t)r * TL_CF_CATALOG_RECORD_SIZE + 4) != k) return TL_CF_BAD_ENTRY;
            if (m > first) {
                tl_cf_catalog_asset a, b;
                tl_cf_catalog_asset_at(c, tl_cf_catalog_member(c, m - 1), &a);
                tl_cf_catalog_asset_at(c, r, &b);
                if (tl_cf_fold_compare(a.name, a.name_len, b.name, b.name_len) >= 0) return TL_CF_BAD_ENTRY;
            }
        }
        next = first + count;
    }
    if (next != nasset) return TL_CF_BAD_ENTRY;
    return TL_CF_OK;
}

tl_cf_result tl_cf_catalog_find_name(const tl_cf_catalog *c, const char *name, size_t len, tl_cf_catalog_asset *out)
{
    uint32_t lo = 0, hi = c->asset_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        tl_cf_catalog_asset a;
        tl_cf_catalog_asset_at(c, name_index_at(c, mid), &a);
        int cmp = tl_cf_fold_compare(a.name, a.name_len, name, len);
        if (cmp == 0) {
            *out = a;
            return TL_CF_OK;
        }
        if (cmp < 0) lo = mid + 1;
        else hi = mid;
    }
    return TL_CF_NOT_FOUND;
}

tl_cf_result tl_cf_catalog_find_id(const tl_cf_catalog *c, uint32_t id, tl_cf_catalog_asset *out)
{
    uint32_t lo = 0, hi = c->asset_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t v = tl_cf_get_u32(c->records + (size_t)mid * TL_CF_CATALOG_RECORD_SIZE);
        if (v == id) {
            tl_cf_catalog_asset_at(c, mid, out);
            return TL_CF_OK;
        }
        if (v < id) lo = mid + 1;
        else hi = mid;
    }
    return TL_CF_NOT_FOUND;
}

/* ---- archives.json ------------------------------------------------------------------------ */

int tl_cf_valid_file_name(const char *s, size_t len)
{
    if (len == 0 || len > 255) return 0;
    if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) return 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/' || s[i] == '\\' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f) return 0;
    return valid_utf8_text((const unsigned char *)s, len);
}

/* A strict JSON reader (RFC 8259) over the text, writing decoded strings and the result into
 * one pre-sized block. Depth is bounded; unknown keys are skipped (a newer writer may add some). */
typedef struct jr {
    const char *p, *end;
    char *heap, *heap_end; /* bump allocation inside the block */
    int depth;
} jr;

static void *jr_alloc(jr *r, size_t n, size_t align)
{
    uintptr_t at = ((uintptr_t)r->heap + (align - 1)) & ~(uintptr_t)(align - 1);
    if (at > (uintptr_t)r->heap_end || n > (size_t)((uintptr_t)r->heap_end - at)) return NULL;
    r->heap = (char *)(at + n);
    return (void *)at;
}

static void jr_ws(jr *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int jr_lit(jr *r, char c)
{
    jr_ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 1;
    }
    return 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int read_hex4(jr *r, uint32_t *out)
{
    if (r->end - r->p < 4) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(r->p[i]);
        if (h < 0) return 0;
        v = v << 4 | (uint32_t)h;
    }
    r->p += 4;
    *out = v;
    return 1;
}

/* Decodes a string into the block when `out` is given (NUL-terminated), else only checks it. */
static int jr_string(jr *r, char **out, size_t *out_len)
{
    jr_ws(r);
    if (r->p >= r->end || *r->p != '"') return 0;
    r->p++;
    const char *start = r->p;
    char *dst = NULL;
    if (out) {
        /* Decoded text is never longer than its source. */
        const char *q = start;
        while (q < r->end && *q != '"') q += (*q == '\\' && q + 1 < r->end) ? 2 : 1;
        dst = jr_alloc(r, (size_t)(q - start) + 1, 1);
        if (!dst) return 0;
        *out = dst;
    }
    size_t n = 0;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p++;
        if (c < 0x20) return 0;
        if (c != '\\') {
            if (dst) dst[n] = (char)c;
            n++;
            continue;
        }
        if (r->p >= r->end) return 0;
        char e = *r->p++;
        uint32_t cp;
        switch (e) {
        case '"': case '\\': case '/': cp = (uint32_t)e; break;
        case 'b': cp = 8; break;
        case 'f': cp = 12; break;
        case 'n': cp = 10; break;
        case 'r': cp = 13; break;
        case 't': cp = 9; break;
        case 'u':
            if (!read_hex4(r, &cp)) return 0;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                uint32_t lo;
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') return 0;
                r->p += 2;
                if (!read_hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff) return 0;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                return 0;
            }
            break;
        default: return 0;
        }
        /* An escape of up to 12 source bytes decodes to at most 4: the bound above holds. */
        unsigned char enc[4];
        size_t k;
        if (cp < 0x80) enc[0] = (unsigned char)cp, k = 1;
        else if (cp < 0x800) enc[0] = (unsigned char)(0xc0 | cp >> 6), enc[1] = (unsigned char)(0x80 | (cp & 0x3f)), k = 2;
        else if (cp < 0x10000)
            enc[0] = (unsigned char)(0xe0 | cp >> 12), enc[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)),
            enc[2] = (unsigned char)(0x80 | (cp & 0x3f)), k = 3;
        else
            enc[0] = (unsigned char)(0xf0 | cp >> 18), enc[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f)),
            enc[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)), enc[3] = (unsigned char)(0x80 | (cp & 0x3f)), k = 4;
        if (dst) memcpy(dst + n, enc, k);
        n += k;
    }
    if (r->p >= r->end) return 0;
    r->p++;
    if (dst) {
        dst[n] = 0;
        /* The raw bytes must be UTF-8 too (control characters are refused separately). */
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)dst[i] >= 0x80) {
                size_t j = i;
                while (j < n && (unsigned char)dst[j] >= 0x80) j++;
                if (!valid_utf8_text((const unsigned char *)dst + i, j - i)) return 0;
                i = j;
            }
    }
    if (out_len) *out_len = n;
    return 1;
}

/* A non-negative integer without fraction or exponent, below 2^53 (exact in every JSON reader). */
static int jr_uint(jr *r, uint64_t *out)
{
    jr_ws(r);
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return 0;
    if (*r->p == '0' && r->p + 1 < r->end && r->p[1] >= '0' && r->p[1] <= '9') return 0;
    uint64_t v = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        v = v * 10 + (uint64_t)(*r->p++ - '0');
        if (v >= (uint64_t)1 << 53) return 0;
    }
    if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E')) return 0;
    *out = v;
    return 1;
}

static int jr_skip(jr *r)
{
    jr_ws(r);
    if (r->p >= r->end || ++r->depth > 64) return 0;
    int ok = 1;
    char c = *r->p;
    if (c == '"') {
        ok = jr_string(r, NULL, NULL);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->p++;
        if (!jr_lit(r, close)) {
            do {
                if (c == '{' && (!jr_string(r, NULL, NULL) || !jr_lit(r, ':'))) return 0;
                if (!jr_skip(r)) return 0;
            } while (jr_lit(r, ','));
            ok = jr_lit(r, close);
        }
    } else if (c == 't' || c == 'f' || c == 'n') {
        const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(w);
        ok = (size_t)(r->end - r->p) >= n && memcmp(r->p, w, n) == 0;
        if (ok) r->p += n;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (c == '-') r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return 0;
        if (*r->p == '0') r->p++;
        else while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        if (r->p < r->end && *r->p == '.') {
            r->p++;
            if (r->p >= r->end || *r->p < '0' || *r->p > '9') return 0;
            while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        }
        if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
            r->p++;
            if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
            if (r->p >= r->end || *r->p < '0' || *r->p > '9') return 0;
            while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        }
    } else {
        ok = 0;
    }
    r->depth--;
    return ok;
}

static int key_is(const char *k, size_t n, const char *want) { return strlen(want) == n && memcmp(k, want, n) == 0; }

static int parse_archive(jr *r, tl_cf_index_archive *a)
{
    enum { NAME = 1, SIZE = 2, INPUT = 4, HASH = 8, FILES = 16, ROLE = 32 };
    unsigned seen = 0;
    memset(a, 0, sizeof *a);
    if (!jr_lit(r, '{')) return 0;
    if (jr_lit(r, '}')) return 0;
    do {
        char *key;
        size_t klen, vlen;
        unsigned bit = 0;
        if (!jr_string(r, &key, &klen) || !jr_lit(r, ':')) return 0;
        if (key_is(key, klen, "name")) {
            bit = NAME;
            if (!jr_string(r, &a->name, &vlen) || !tl_cf_valid_file_name(a->name, vlen)) return 0;
        } else if (key_is(key, klen, "size")) {
            bit = SIZE;
            if (!jr_uint(r, &a->size)) return 0;
        } else if (key_is(key, klen, "input_bytes")) {
            bit = INPUT;
            if (!jr_uint(r, &a->input_bytes)) return 0;
        } else if (key_is(key, klen, "xxh64")) {
            char *h;
            bit = HASH;
            if (!jr_string(r, &h, &vlen) || vlen != 16) return 0;
            a->xxh64 = 0;
            for (int i = 0; i < 16; i++) {
                int v = hexval(h[i]);
                if (v < 0 || (h[i] >= 'A' && h[i] <= 'F')) return 0;
                a->xxh64 = a->xxh64 << 4 | (uint64_t)v;
            }
        } else if (key_is(key, klen, "role")) {
            char *role;
            bit = ROLE;
            if (!jr_string(r, &role, &vlen)) return 0;
            if (key_is(role, vlen, "catalog")) a->is_catalog = 1;
            else if (!key_is(role, vlen, "assets")) return 0;
        } else if (key_is(key, klen, "files")) {
            bit = FILES;
            /* Counted (and checked) first, so the array is allocated at its exact size. */
            if (!jr_lit(r, '[')) return 0;
            const char *items = r->p;
            uint32_t n = 0;
            if (!jr_lit(r, ']')) {
                do {
                    if (!jr_string(r, NULL, NULL)) return 0;
                    n++;
                } while (jr_lit(r, ','));
                if (!jr_lit(r, ']')) return 0;
            }
            r->p = items;
            a->files = jr_alloc(r, (n ? n : 1) * sizeof *a->files, sizeof(void *));
            if (!a->files) return 0;
            for (uint32_t i = 0; i < n; i++) {
                size_t flen;
                if (i && !jr_lit(r, ',')) return 0;
                if (!jr_string(r, &a->files[i], &flen) || flen == 0) return 0;
            }
            if (!jr_lit(r, ']')) return 0;
            a->file_count = n;
        } else if (!jr_skip(r)) {
            return 0;
        }
        if (seen & bit) return 0; /* a key twice */
        seen |= bit;
    } while (jr_lit(r, ','));
    if (!jr_lit(r, '}')) return 0;
    if ((seen & (NAME | SIZE | INPUT | HASH | FILES | ROLE)) != (NAME | SIZE | INPUT | HASH | FILES | ROLE)) return 0;
    /* The catalog archive holds the catalog only; every other archive holds assets. */
    if (a->is_catalog ? a->file_count != 0 : a->file_count == 0) return 0;
    return 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

tl_cf_result tl_cf_index_parse(tl_cf_index *out, const char *text, size_t len)
{
    memset(out, 0, sizeof *out);
    /* Everything decoded fits this bound: strings shrink, each array slot costs at least two
     * source bytes ("x",), each archive object at least 60. */
    size_t slots = len / 2 + 2;
    size_t max_archives = len / 60 + 1;
    if (len > ((size_t)-1 - 64) / 16) return TL_CF_NO_MEMORY;
    size_t block = len + slots + 2 * slots * sizeof(char *) + max_archives * sizeof(tl_cf_index_archive) +
                   8 * (max_archives + 4) + 64;
    char *storage = TL_CF_MALLOC(block);
    if (!storage) return TL_CF_NO_MEMORY;
    jr r = {text, text + len, storage, storage + block, 0};
    enum { FORMAT = 1, PROFILE = 2, ARCHIVES = 4 };
    unsigned seen = 0;
    int ok = jr_lit(&r, '{') && !jr_lit(&r, '}');
    while (ok) {
        char *key;
        size_t klen, vlen;
        unsigned bit = 0;
        ok = jr_string(&r, &key, &klen) && jr_lit(&r, ':');
        if (!ok) break;
        if (key_is(key, klen, "format")) {
            uint64_t f;
            bit = FORMAT;
            ok = jr_uint(&r, &f) && f == 1;
        } else if (key_is(key, klen, "profile")) {
            bit = PROFILE;
            ok = jr_string(&r, &out->profile, &vlen) && tl_cf_valid_file_name(out->profile, vlen);
        } else if (key_is(key, klen, "archives")) {
            bit = ARCHIVES;
            out->archives = jr_alloc(&r, max_archives * sizeof *out->archives, sizeof(void *));
            ok = out->archives && jr_lit(&r, '[') && !jr_lit(&r, ']');
            while (ok) {
                tl_cf_index_archive tmp;
                ok = out->archive_count < max_archives && parse_archive(&r, &tmp);
                if (ok) out->archives[out->archive_count++] = tmp;
                if (ok && !jr_lit(&r, ',')) {
                    ok = jr_lit(&r, ']');
                    break;
                }
            }
        } else {
            ok = jr_skip(&r);
        }
        if (!ok || (seen & bit)) {
            ok = 0;
            break;
        }
        seen |= bit;
        if (!jr_lit(&r, ',')) {
            ok = jr_lit(&r, '}');
            break;
        }
    }
    jr_ws(&r);
    ok = ok && r.p == r.end && seen == (FORMAT | PROFILE | ARCHIVES);
    /* Semantics: unique archive names, exactly one catalog archive, every file in one archive. */
    if (ok) {
        uint32_t catalogs = 0;
        size_t total = 0;
        for (uint32_t i = 0; i < out->archive_count; i++) {
            catalogs += out->archives[i].is_catalog != 0;
            total += out->archives[i].file_count;
            for (uint32_t j = 0; j < i && ok; j++) ok = strcmp(out->archives[i].name, out->archives[j].name) != 0;
        }
        ok = ok && catalogs == 1;
        char **all = ok ? jr_alloc(&r, (total ? total : 1) * sizeof *all, sizeof(void *)) : NULL;
        if (ok && !all) ok = 0;
        if (ok) {
            size_t k = 0;
            for (uint32_t i = 0; i < out->archive_count; i++)
                for (uint32_t j = 0; j < out->archives[i].file_count; j++) all[k++] = out->archives[i].files[j];
            qsort(all, total, sizeof *all, cmp_str);
            for (size_t i = 1; i < total && ok; i++) ok = strcmp(all[i - 1], all[i]) != 0;
        }
    }
    if (!ok) {
        TL_CF_FREE(storage);
        memset(out, 0, sizeof *out);
        return TL_CF_BAD_JSON;
    }
    out->storage_ = storage;
    return TL_CF_OK;
}

void tl_cf_index_free(tl_cf_index *index)
{
    if (index->storage_) TL_CF_FREE(index->storage_);
    memset(index, 0, sizeof *index);
}
