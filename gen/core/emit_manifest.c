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

char *put_json_string(char *p, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    /* Keys and names almost never need escapes: the plain prefix in one copy, then the rest byte
     * by byte. */
    *p++ = '"';
    size_t plain = plain_prefix(s, n);
    copy_short(p, s, plain);
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
    return p;
}

void emit_json_string(buf *b, const char *s, size_t n) { line_end(b, put_json_string(line_start(b, json_string_room(n)), s, n)); }

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

/* An entry's line, written at a cursor after one reserve for its longest form (its strings all
 * escaped, its numbers 10 digits); renames, rare, after it. */
static void put_entry_line(buf *b, const domain *d, const entry *e, size_t scope_len, bool first)
{
    bool signature = e->signature && d->kind == KIND_ORDINAL;
    size_t signature_len = signature ? strlen(e->signature) : 0;
    size_t strings = e->key_len + (e->issued_key ? e->issued_key_len : 0) + e->name_len + scope_len + signature_len;
    char *p = line_start(b, json_string_room(strings) + 8 + 200);
    p = first ? put_text(p, "\n    {\"key\": ", 13) : put_text(p, ",\n    {\"key\": ", 14);
    p = put_json_string(p, e->key, e->key_len);
    if (e->issued_key) {
        p = put_text(p, ", \"issued_key\": ", 16);
        p = put_json_string(p, e->issued_key, e->issued_key_len);
    }
    p = put_text(p, ", \"name\": ", 10);
    p = put_json_string(p, e->name, e->name_len);
    p = put_text(p, ", \"scope\": ", 11);
    p = put_json_string(p, e->scope, scope_len);
    p = put_text(p, ", \"value\": ", 11);
    p = put_decimal32(p, e->value);
    p = put_text(p, ", \"seed_offset\": ", 17);
    p = put_decimal32(p, e->seed_offset);
    p = e->tombstone ? put_text(p, ", \"tombstone\": true", 19) : put_text(p, ", \"tombstone\": false", 20);
    if (signature) {
        p = put_text(p, ", \"signature\": ", 15);
        p = put_json_string(p, e->signature, signature_len);
    }
    line_end(b, p);
    if (e->renamed_count) put_renames(b, e);
    buf_putc(b, '}');
}

void emit_manifest(out_file *o, const domain *d, const manifest *m)
{
    buf *b = &o->chunk;
    buf_puts(b, "{\n  \"format\": 1,\n  \"domain\": ");
    emit_json_string(b, d->name, strlen(d->name));
    buf_printf(b, ",\n  \"kind\": \"%s\",\n  \"entries\": [", d->kind == KIND_ORDINAL ? "ordinal" : "identity");
    const char *scope = NULL;
    size_t scope_len = 0;
    for (size_t i = 0; i < m->entries.count; i++) {
        const entry *e = &m->entries.items[i];
        if (e->scope != scope) scope = e->scope, scope_len = strlen(scope); /* shared by the entries of a scope */
        put_entry_line(&o->chunk, d, e, scope_len, i == 0);
        out_maybe_flush(o);
    }
    buf_puts(&o->chunk, m->entries.count ? "\n  ]\n}\n" : "]\n}\n");
}
