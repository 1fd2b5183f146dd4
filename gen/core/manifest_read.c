/* The manifest reader: a streaming parser over lex_json tokens that builds entries directly, so a
 * million-entry manifest never becomes a JSON tree. Manifests come from pull requests too, so
 * everything is checked and bounded: unknown keys are skipped (a newer generator may add some)
 * with nesting limited, numbers range-checked, strings length-limited.
 *
 *   manifest -> '{' ( "format": 1 | "domain": str | "kind": str | "entries": '[' entry,* ']' | key: any ),* '}'
 *   entry    -> '{' ( "key" | "issued_key" | "name" | "scope" | "signature": str | "value" | "seed_offset": uint
 *                  | "tombstone": bool | "renamed_from": '[' alias,* ']'
 *                  | key: any ),* '}'
 *   alias    -> '{' ( "key" | "name": str | key: any ),* '}'      both required */
#include "core/manifest.h"

#include "base/lex_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 64
#define MAX_STRING 4096

typedef struct reader {
    json_lexer lx;
    manifest *m;
    uint64_t bytes; /* the manifest's size, when known (0: not) */
    size_t more;    /* entries the caller will add after reading */
    bool ok;
} reader;

static bool fail(reader *r, json_tok t, const char *fmt, ...) TLG_PRINTF(3, 4);
static bool fail(reader *r, json_tok t, const char *fmt, ...)
{
    if (!r->ok) return false; /* one error per manifest: the rest would be noise */
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (t.kind != JT_ERROR) diag_error(t.loc, "%s", message);
    r->ok = false;
    return false;
}

static bool expect(reader *r, json_tok_kind kind, const char *what, json_tok *out)
{
    json_tok t = json_next(&r->lx);
    if (out) *out = t;
    if (t.kind != kind) return fail(r, t, "expected %s, found %s", what, json_tok_describe(t.kind));
    return true;
}

static bool skip_value(reader *r, json_tok t, int depth)
{
    if (depth > MAX_DEPTH) return fail(r, t, "nesting deeper than %d levels", MAX_DEPTH);
    switch (t.kind) {
    case JT_STRING:
    case JT_NUMBER:
    case JT_TRUE:
    case JT_FALSE:
    case JT_NULL: return true;
    case JT_LBRACE:
    case JT_LBRACKET: {
        bool object = t.kind == JT_LBRACE;
        json_tok_kind close = object ? JT_RBRACE : JT_RBRACKET;
        json_tok n = json_next(&r->lx);
        if (n.kind == close) return true;
        for (;;) {
            if (object) {
                if (n.kind != JT_STRING) return fail(r, n, "expected a key, found %s", json_tok_describe(n.kind));
                if (!expect(r, JT_COLON, "':'", NULL)) return false;
                n = json_next(&r->lx);
            }
            if (!skip_value(r, n, depth + 1)) return false;
            n = json_next(&r->lx);
            if (n.kind == close) return true;
            if (n.kind != JT_COMMA)
                return fail(r, n, "expected ',' or %s, found %s", object ? "'}'" : "']'", json_tok_describe(n.kind));
            n = json_next(&r->lx);
        }
    }
    default: return fail(r, t, "expected a value, found %s", json_tok_describe(t.kind));
    }
}

static bool read_uint(reader *r, json_tok t, uint64_t max, const char *field, uint64_t *out)
{
    if (t.kind != JT_NUMBER) return fail(r, t, "\"%s\" must be a number, found %s", field, json_tok_describe(t.kind));
    uint64_t v = 0;
    for (size_t i = 0; i < t.len; i++) {
        char c = t.text[i];
        if (c < '0' || c > '9') return fail(r, t, "\"%s\" must be a whole number from 0 to %llu", field, (unsigned long long)max);
        v = v * 10 + (uint64_t)(c - '0');
        if (v > max) return fail(r, t, "\"%s\" is out of range (0 to %llu)", field, (unsigned long long)max);
    }
    *out = v;
    return true;
}

static bool read_string(reader *r, json_tok t, const char *field, const char **out, uint32_t *len)
{
    if (t.kind != JT_STRING) return fail(r, t, "\"%s\" must be a string, found %s", field, json_tok_describe(t.kind));
    if (t.len > MAX_STRING) return fail(r, t, "\"%s\" is longer than %d bytes", field, MAX_STRING);
    if (memchr(t.text, 0, t.len)) return fail(r, t, "\"%s\" contains a NUL character", field);
    *out = arena_strndup(&r->m->strings, t.text, t.len);
    if (len) *len = (uint32_t)t.len;
    return true;
}

static bool key_has_scope(const char *s, size_t n) { return n && memchr(s, '.', n); }

static bool key_is_lowercase(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 'A' && s[i] <= 'Z') return false;
    return true;
}

/* A key: "<scope>.<name>", lowercase (ASCII). */
static bool read_key(reader *r, json_tok v, const char *field, const char **out, uint32_t *len)
{
    if (!read_string(r, v, field, out, len)) return false;
    if (!key_has_scope(*out, *len)) return fail(r, v, "\"%s\" must be \"<scope>.<name>\"", field);
    if (!key_is_lowercase(*out, *len)) return fail(r, v, "\"%s\" must be lowercase", field);
    return true;
}

bool manifest_valid_member(const char *s, size_t n)
{
    if (!n || !(((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z') || s[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!ascii_is_word((unsigned char)s[i])) return false;
    return true;
}

typedef enum field_id {
    F_OTHER,
    F_KEY,
    F_ISSUED_KEY,
    F_NAME,
    F_SCOPE,
    F_VALUE,
    F_SEED_OFFSET,
    F_TOMBSTONE,
    F_SIGNATURE,
    F_RENAMED_FROM
} field_id;

static field_id entry_field(const char *s, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)
    switch (n) {
    case 3: return IS("key") ? F_KEY : F_OTHER;
    case 4: return IS("name") ? F_NAME : F_OTHER;
    case 5: return IS("scope") ? F_SCOPE : IS("value") ? F_VALUE : F_OTHER;
    case 9: return IS("tombstone") ? F_TOMBSTONE : IS("signature") ? F_SIGNATURE : F_OTHER;
    case 10: return IS("issued_key") ? F_ISSUED_KEY : F_OTHER;
    case 11: return IS("seed_offset") ? F_SEED_OFFSET : F_OTHER;
    case 12: return IS("renamed_from") ? F_RENAMED_FROM : F_OTHER;
    default: return F_OTHER;
    }
#undef IS
}

/* A member name: a C identifier. */
static bool read_member_name(reader *r, json_tok v, const char *field, const char **out, uint32_t *len)
{
    if (!read_string(r, v, field, out, len)) return false;
    if (!manifest_valid_member(*out, *len)) return fail(r, v, "\"%s\" must be a C identifier", field);
    return true;
}

/* alias -> '{' ( "key" | "name": str | key: any ),* '}' */
static bool read_alias(reader *r, json_tok open, entry_alias *a)
{
    bool have_key = false, have_name = false;
    json_tok t = json_next(&r->lx);
    while (t.kind != JT_RBRACE) {
        if (t.kind != JT_STRING)
            return fail(r, t, "expected a key of a \"renamed_from\" record, found %s", json_tok_describe(t.kind));
        bool is_key = t.len == 3 && memcmp(t.text, "key", 3) == 0, is_name = t.len == 4 && memcmp(t.text, "name", 4) == 0;
        if (!expect(r, JT_COLON, "':'", NULL)) return false;
        json_tok v = json_next(&r->lx);
        if (is_key && !(have_key = read_key(r, v, "renamed_from.key", &a->key, &a->key_len))) return false;
        if (is_name && !(have_name = read_member_name(r, v, "renamed_from.name", &a->name, &a->name_len))) return false;
        if (!is_key && !is_name && !skip_value(r, v, 3)) return false;
        t = json_next(&r->lx);
        if (t.kind == JT_RBRACE) break;
        if (t.kind != JT_COMMA) return fail(r, t, "expected ',' or '}', found %s", json_tok_describe(t.kind));
        t = json_next(&r->lx);
    }
    if (!have_key || !have_name) return fail(r, open, "a \"renamed_from\" record lacks %s", have_key ? "\"name\"" : "\"key\"");
    return true;
}

/* "renamed_from": '[' alias,* ']' (at most MANIFEST_MAX_RENAMES), into the entry. */
static bool read_renames(reader *r, json_tok v, entry *e)
{
    if (v.kind != JT_LBRACKET) return fail(r, v, "\"renamed_from\" must be an array");
    VEC(entry_alias) list = {0};
    json_tok t = json_next(&r->lx);
    bool ok = true;
    while (ok && t.kind != JT_RBRACKET) {
        if (t.kind != JT_LBRACE) ok = fail(r, t, "expected a \"renamed_from\" record, found %s", json_tok_describe(t.kind));
        else if (list.count == MANIFEST_MAX_RENAMES)
            ok = fail(r, t, "more than %d \"renamed_from\" records", MANIFEST_MAX_RENAMES);
        else ok = read_alias(r, t, vec_push(&list));
        if (!ok) break;
        t = json_next(&r->lx);
        if (t.kind == JT_COMMA) t = json_next(&r->lx);
        else if (t.kind != JT_RBRACKET) ok = fail(r, t, "expected ',' or ']', found %s", json_tok_describe(t.kind));
    }
    if (ok && list.count) {
        e->renamed_from = arena_alloc(&r->m->strings, list.count * sizeof *list.items, _Alignof(entry_alias));
        memcpy(e->renamed_from, list.items, list.count * sizeof *list.items);
        e->renamed_count = (uint32_t)list.count;
    }
    vec_free(&list);
    return ok;
}

/* The value v of one entry member; `seen` gains the field's bit. */
static bool read_entry_field(reader *r, field_id field, json_tok v, entry *e, unsigned *seen)
{
    uint64_t n;
    *seen |= 1u << field;
    switch (field) {
    case F_KEY: return read_key(r, v, "key", &e->key, &e->key_len);
    case F_ISSUED_KEY: return read_key(r, v, "issued_key", &e->issued_key, &e->issued_key_len);
    case F_NAME: return read_member_name(r, v, "name", &e->name, &e->name_len);
    case F_RENAMED_FROM: return read_renames(r, v, e);
    case F_SCOPE: return read_string(r, v, "scope", &e->scope, NULL);
    case F_VALUE:
        if (!read_uint(r, v, UINT32_MAX, "value", &n)) return false;
        e->value = (uint32_t)n;
        return true;
    case F_SEED_OFFSET:
        if (!read_uint(r, v, 65535, "seed_offset", &n)) return false;
        e->seed_offset = (uint32_t)n;
        return true;
    case F_SIGNATURE:
        if (!read_string(r, v, "signature", &e->signature, NULL)) return false;
        /* Compared as text by diff and the summary; the generator writes it normalised. */
        if (e->signature[0] != '(') return fail(r, v, "\"signature\" must be an event signature such as \"(int)\"");
        return true;
    case F_TOMBSTONE:
        if (v.kind != JT_TRUE && v.kind != JT_FALSE) return fail(r, v, "\"tombstone\" must be true or false");
        e->tombstone = v.kind == JT_TRUE;
        return true;
    default: return skip_value(r, v, 2);
    }
}

static bool read_entry(reader *r, json_tok open)
{
    entry e = {0};
    e.decl = UINT32_MAX;
    e.line = open.loc.line;
    unsigned seen = 0;
    json_tok t = json_next(&r->lx);
    while (t.kind != JT_RBRACE) {
        if (t.kind != JT_STRING) return fail(r, t, "expected an entry key, found %s", json_tok_describe(t.kind));
        /* Eight known keys, a million entries: compare by length first. */
        field_id field = entry_field(t.text, t.len);
        /* A bad merge that repeats a member would otherwise take its last value, unsaid. */
        if (field != F_OTHER && (seen & (1u << field)))
            return fail(r, t, "duplicate key \"%.*s\" in an entry", (int)t.len, t.text);
        if (!expect(r, JT_COLON, "':'", NULL)) return false;
        if (!read_entry_field(r, field, json_next(&r->lx), &e, &seen)) return false;
        t = json_next(&r->lx);
        if (t.kind == JT_RBRACE) break;
        if (t.kind != JT_COMMA) return fail(r, t, "expected ',' or '}', found %s", json_tok_describe(t.kind));
        t = json_next(&r->lx);
    }
    static const field_id required[] = {F_KEY, F_NAME, F_SCOPE, F_VALUE};
    static const char *const required_names[] = {"\"key\"", "\"name\"", "\"scope\"", "\"value\""};
    for (size_t i = 0; i < 4; i++)
        if (!(seen & (1u << required[i]))) return fail(r, open, "entry lacks %s", required_names[i]);
    *vec_push(&r->m->entries) = e;
    return true;
}

static bool read_manifest(reader *rp);

bool manifest_read(const char *file, const char *data, size_t len, manifest *out)
{
    memset(out, 0, sizeof *out);
    reader r = {.m = out, .bytes = len, .ok = true};
    json_lexer_init(&r.lx, file, data, len);
    return read_manifest(&r);
}

bool manifest_read_fd(const char *file, int fd, size_t more, manifest *out)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    reader r = {.m = out, .bytes = fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0, .more = more, .ok = true};
    json_lexer_init_fd(&r.lx, file, fd);
    return read_manifest(&r);
}

/* The top-level keys a manifest must have, as they are read. */
typedef struct manifest_keys {
    bool format, domain, kind, entries;
} manifest_keys;

/* ---- The generator's own entry lines, read at once ------------------------------------------ */

bool manifest_read_shortcut = true;

/* p past `text` (no NUL in it) when the text at p starts with it, else NULL. Byte by byte: the
 * NUL that ends what the lexer holds stops it, where memcmp could read past the buffer. */
static inline const char *after(const char *p, const char *text, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        if (p[i] != text[i]) return NULL;
    return p ? p + n : NULL;
}
#define AFTER(p, text) after(p, text, sizeof text - 1)

/* A string of printable ASCII without escapes, at most MAX_STRING bytes, whose opening quote is
 * just before p: p past its closing quote, or NULL. */
static const char *plain_string(const char *p, const char **s, uint32_t *len)
{
    const char *q = p;
    if (!p) return NULL;
    while ((unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80 && *q != '"' && *q != '\\') q++;
    if (*q != '"' || q - p > MAX_STRING) return NULL;
    *s = p;
    *len = (uint32_t)(q - p);
    return q + 1;
}

/* Digits without a leading zero (JSON's whole numbers), at most `max`: p past them, or NULL. */
static const char *plain_uint(const char *p, uint64_t max, uint32_t *out)
{
    uint64_t v = 0;
    if (!p || *p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9')) return NULL;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((v = v * 10 + (uint64_t)(*p - '0')) > max) return NULL;
    *out = (uint32_t)v;
    return p;
}

/* An entry line as the generator writes it (a manifest is almost nothing else), read without the
 * tokenizer and checked as read_entry checks it:
 *   {"key": "user.potion", "name": "Potion", "scope": "User", "value": 1, "seed_offset": 0, "tombstone": false}
 * Any other text, or a field read_entry would refuse, is left unread (false): read_entry reads it
 * and says what is wrong where. */
static bool read_written_entry(reader *r)
{
    const char *start = json_peek(&r->lx), *key = NULL, *name = NULL, *scope = NULL, *p;
    entry e = {0};
    uint32_t scope_len = 0;
    p = plain_string(AFTER(start, "{\"key\": \""), &key, &e.key_len);
    p = plain_string(AFTER(p, ", \"name\": \""), &name, &e.name_len);
    p = plain_string(AFTER(p, ", \"scope\": \""), &scope, &scope_len);
    p = plain_uint(AFTER(p, ", \"value\": "), UINT32_MAX, &e.value);
    p = plain_uint(AFTER(p, ", \"seed_offset\": "), 65535, &e.seed_offset);
    p = AFTER(p, ", \"tombstone\": ");
    e.tombstone = AFTER(p, "true}") != NULL;
    p = e.tombstone ? AFTER(p, "true}") : AFTER(p, "false}");
    if (!p || !key_has_scope(key, e.key_len) || !key_is_lowercase(key, e.key_len) || !manifest_valid_member(name, e.name_len))
        return false;
    e.key = arena_strndup(&r->m->strings, key, e.key_len);
    e.name = arena_strndup(&r->m->strings, name, e.name_len);
    e.scope = arena_strndup(&r->m->strings, scope, scope_len);
    e.decl = UINT32_MAX;
    e.line = r->lx.line;
    *vec_push(&r->m->entries) = e;
    json_advance(&r->lx, (size_t)(p - start));
    return true;
}

/* The next entry, from its '{' to its '}'. */
static bool read_next_entry(reader *r)
{
    if (manifest_read_shortcut && read_written_entry(r)) return true;
    json_tok open = json_next(&r->lx);
    if (open.kind != JT_LBRACE) return fail(r, open, "expected an entry object, found %s", json_tok_describe(open.kind));
    return read_entry(r, open);
}

/* Room for the entries a manifest of r->bytes can hold, at the shortest line the generator writes
 * (a one-letter name in a one-letter scope: some 95 bytes), and for r->more: a large manifest's
 * entries are then not copied at each doubling of their array, nor again when identity adds its
 * entries (into fresh huge pages, xmalloc). Unused room is address space, not memory; bounded all
 * the same (a file of spaces). */
static void reserve_entries(reader *r)
{
    uint64_t n = (r->bytes / 95 < (1u << 22) ? r->bytes / 95 : (1u << 22)) + r->more;
    if (n <= r->m->entries.cap) return;
    r->m->entries.cap = (size_t)n;
    r->m->entries.items = xrealloc(r->m->entries.items, r->m->entries.cap * sizeof *r->m->entries.items);
}

/* entries -> '[' [ entry { ',' entry } ] ']' */
static bool read_entries(reader *r, json_tok v)
{
    if (v.kind != JT_LBRACKET) return fail(r, v, "\"entries\" must be an array");
    reserve_entries(r);
    if (*json_peek(&r->lx) == ']') {
        json_next(&r->lx);
        return true;
    }
    for (;;) {
        if (!read_next_entry(r)) return false;
        json_tok t = json_next(&r->lx);
        if (t.kind == JT_RBRACKET) return true;
        if (t.kind != JT_COMMA) return fail(r, t, "expected ',' or ']', found %s", json_tok_describe(t.kind));
    }
}

/* One top-level member, `key` (named `field`, "" when longer than any known one): `v` (its
 * value's first token); unknown keys are skipped. */
static bool read_member(reader *r, json_tok key, const char *field, json_tok v, manifest_keys *have)
{
    manifest *out = r->m;
    uint64_t n;
    if (strcmp(field, "format") == 0) {
        if (!read_uint(r, v, UINT32_MAX, "format", &n)) return false;
        if (n != 1)
            return fail(r, v, "manifest format %llu is not supported (this threadlink-gen reads format 1)",
                        (unsigned long long)n);
        return have->format = true;
    }
    if (strcmp(field, "domain") == 0) {
        const char *s;
        if (have->domain) return fail(r, key, "duplicate key \"domain\"");
        if (!read_string(r, v, "domain", &s, NULL)) return false;
        out->domain = xstrdup(s);
        return have->domain = true;
    }
    if (strcmp(field, "kind") == 0) {
        if (v.kind == JT_STRING && v.len == 8 && memcmp(v.text, "identity", 8) == 0) out->kind = KIND_IDENTITY;
        else if (v.kind == JT_STRING && v.len == 7 && memcmp(v.text, "ordinal", 7) == 0) out->kind = KIND_ORDINAL;
        else return fail(r, v, "\"kind\" must be \"identity\" or \"ordinal\"");
        return have->kind = true;
    }
    if (strcmp(field, "entries") == 0) {
        if (have->entries) return fail(r, key, "duplicate key \"entries\"");
        return have->entries = read_entries(r, v);
    }
    return skip_value(r, v, 1);
}

/* manifest -> '{' member { ',' member } '}' EOF, with "format", "domain", "kind" and "entries" */
static bool read_members(reader *r)
{
    manifest_keys have = {false, false, false, false};
    json_tok open;
    if (!expect(r, JT_LBRACE, "'{' (a manifest is a JSON object)", &open)) return false;
    json_tok t = json_next(&r->lx);
    while (t.kind != JT_RBRACE) {
        if (t.kind != JT_STRING) return fail(r, t, "expected a key, found %s", json_tok_describe(t.kind));
        json_tok key = t;
        /* The key's text lives in the lexer's buffer until the next token: copied before the value. */
        char field[16] = "";
        if (key.len < sizeof field) memcpy(field, key.text, key.len);
        if (!expect(r, JT_COLON, "':'", NULL) || !read_member(r, key, field, json_next(&r->lx), &have)) return false;
        t = json_next(&r->lx);
        if (t.kind == JT_COMMA) {
            t = json_next(&r->lx);
            if (t.kind != JT_STRING) return fail(r, t, "expected a key after ',', found %s", json_tok_describe(t.kind));
        } else if (t.kind != JT_RBRACE) {
            return fail(r, t, "expected ',' or '}', found %s", json_tok_describe(t.kind));
        }
    }
    t = json_next(&r->lx);
    if (t.kind != JT_EOF) return fail(r, t, "unexpected %s after the manifest", json_tok_describe(t.kind));
    if (!have.format || !have.domain || !have.kind || !have.entries)
        return fail(r, open, "manifest lacks %s",
                    !have.format   ? "\"format\""
                    : !have.domain ? "\"domain\""
                    : !have.kind   ? "\"kind\""
                                   : "\"entries\"");
    return true;
}

static bool read_manifest(reader *rp)
{
    reader r = *rp;
    read_members(&r);
    json_lexer_free(&r.lx);
    if (!r.ok) manifest_free(r.m);
    *rp = r;
    return r.ok;
}

const entry_alias *manifest_renamed_from(const entry *e, const char *key, size_t len)
{
    for (uint32_t i = 0; i < e->renamed_count; i++)
        if (e->renamed_from[i].key_len == len && memcmp(e->renamed_from[i].key, key, len) == 0) return &e->renamed_from[i];
    return NULL;
}

void manifest_add_alias(manifest *m, entry *e, const char *key, size_t key_len, const char *name, size_t name_len)
{
    entry_alias *grown = arena_alloc(&m->strings, (e->renamed_count + 1) * sizeof *grown, _Alignof(entry_alias));
    if (e->renamed_count) memcpy(grown, e->renamed_from, e->renamed_count * sizeof *grown);
    grown[e->renamed_count] = (entry_alias){arena_strndup(&m->strings, key, key_len), arena_strndup(&m->strings, name, name_len),
                                            (uint32_t)key_len, (uint32_t)name_len};
    e->renamed_from = grown;
    e->renamed_count++;
}

void manifest_drop_alias(entry *e, uint32_t i)
{
    memmove(&e->renamed_from[i], &e->renamed_from[i + 1], (e->renamed_count - i - 1) * sizeof *e->renamed_from);
    e->renamed_count--;
}

bool manifest_alias_named(const entry *e, const entry_alias *a)
{
    return a->name_len != e->name_len || memcmp(a->name, e->name, a->name_len) != 0;
}

void manifest_free(manifest *m)
{
    free(m->domain);
    vec_free(&m->entries);
    arena_free(&m->strings);
    memset(m, 0, sizeof *m);
}
