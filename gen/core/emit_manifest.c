/* The manifest: one entry per line, keys in a fixed order, entries in the order they were
 * issued, so adding or removing one entry is a one-line diff. */
#include "core/emit.h"

#include <string.h>

/* Bytes a JSON string cannot hold as they are: controls, '"' and '\\'. */
static bool json_escaped(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

/* Whether any of 8 bytes needs an escape: a byte below 0x20, or equal to '"' or '\\' (the
 * classic "has a zero byte" tests over the word; bytes of 0x80 and up never match). */
static bool word_needs_escape(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    uint64_t below_space = (w - ones * 0x20) & ~w;
    uint64_t is_quote = (quote - ones) & ~quote, is_backslash = (backslash - ones) & ~backslash;
    return ((below_space | is_quote | is_backslash) & highs) != 0;
}

/* The length of the prefix of s that needs no escape, 8 bytes at a time (a string of 8 bytes or
 * more ends with its last 8, overlapping what was checked: no byte-by-byte tail). */
static size_t plain_prefix(const char *s, size_t n)
{
    size_t i = 0;
    uint64_t w;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        if (word_needs_escape(w)) break;
    }
    if (i < n && n >= 8 && i + 8 > n) {
        memcpy(&w, s + n - 8, 8);
        if (!word_needs_escape(w)) return n;
    }
    while (i < n && !json_escaped((unsigned char)s[i])) i++;
    return i;
}

void emit_json_string(buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    /* Keys and names almost never need escapes: room for the worst case, the plain prefix in one
     * copy, then the rest byte by byte. */
    buf_reserve(b, 6 * n + 2);
    char *p = b->data + b->len;
    *p++ = '"';
    size_t plain = plain_prefix(s, n);
    memcpy(p, s, plain);
    p += plain;
    for (size_t i = plain; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!json_escaped(c)) {
            *p++ = (char)c;
        } else if (c >= 0x20) {
            *p++ = '\\';
            *p++ = (char)c;
        } else {
            memcpy(p, "\\u00", 4);
            p[4] = hex[c >> 4], p[5] = hex[c & 15];
            p += 6;
        }
    }
    *p++ = '"';
    b->len = (size_t)(p - b->data);
    b->data[b->len] = 0;
}

/* A renamed entry's earlier keys and names, on its line: a rename is a one-line diff. */
static void put_renames(buf *b, const entry *e)
{
    buf_puts(b, ", \"renamed_from\": [");
    for (uint32_t i = 0; i < e->renamed_count; i++) {
        buf_puts(b, i ? ", {\"key\": " : "{\"key\": ");
        emit_json_string(b, e->renamed_from[i].key, e->renamed_from[i].key_len);
        buf_puts(b, ", \"name\": ");
        emit_json_string(b, e->renamed_from[i].name, e->renamed_from[i].name_len);
        buf_putc(b, '}');
    }
    buf_putc(b, ']');
}

void emit_manifest(out_file *o, const domain *d, const manifest *m)
{
    buf *b = &o->chunk;
    buf_puts(b, "{\n  \"format\": 1,\n  \"domain\": ");
    emit_json_string(b, d->name, strlen(d->name));
    buf_printf(b, ",\n  \"kind\": \"%s\",\n  \"entries\": [", d->kind == KIND_ORDINAL ? "ordinal" : "identity");
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        b = &o->chunk;
        buf_put(b, i ? ",\n    {\"key\": " : "\n    {\"key\": ", i ? 14 : 13);
        emit_json_string(b, e->key, e->key_len);
        if (e->issued_key) {
            buf_puts(b, ", \"issued_key\": ");
            emit_json_string(b, e->issued_key, e->issued_key_len);
        }
        buf_puts(b, ", \"name\": ");
        emit_json_string(b, e->name, e->name_len);
        buf_puts(b, ", \"scope\": ");
        emit_json_string(b, e->scope, strlen(e->scope));
        buf_puts(b, ", \"value\": ");
        buf_put_u64(b, e->value);
        buf_puts(b, ", \"seed_offset\": ");
        buf_put_u64(b, e->seed_offset);
        buf_puts(b, e->tombstone ? ", \"tombstone\": true" : ", \"tombstone\": false");
        if (e->signature && d->kind == KIND_ORDINAL) {
            buf_puts(b, ", \"signature\": ");
            emit_json_string(b, e->signature, strlen(e->signature));
        }
        if (e->renamed_count) put_renames(b, e);
        buf_putc(b, '}');
        out_maybe_flush(o);
    }
    buf_puts(&o->chunk, m->entries.count ? "\n  ]\n}\n" : "]\n}\n");
}
