/* Emitters: a domain's header (through its shell) and its manifest. */
#ifndef TLG_EMIT_H
#define TLG_EMIT_H

#include "core/manifest.h"
#include "core/model.h"
#include "base/output.h"

#include <string.h>

typedef struct emit_options {
    bool banner_without_version; /* golden tests pin output across versions */
} emit_options;

/* Expands `shell` (NUL-terminated template text) for domain `d` with entries `m`.
 * `inputs` are the project-relative names of the files the header derives from. */
void emit_header(out_file *o, const char *shell, const domain *d, const manifest *m, const char *const *inputs,
                 size_t input_count, const emit_options *opt);

void emit_manifest(out_file *o, const domain *d, const manifest *m);
/* `n` bytes of `s` as a JSON string, quoted and escaped (the manifests' writer). */
void emit_json_string(buf *b, const char *s, size_t n);

/* The shipped shells (templates/, compiled in). */
extern const char tlg_shell_domain[];
extern const char tlg_shell_custom_domain[];

/* Appends the include guard of a header written to `output` (its path below the generated
 * directory): TLG_, the path upper-cased with every other byte than a letter, digit or '_' made
 * '_', then _INCLUDED. Two outputs may map to one guard: generate refuses that. */
void emit_guard_name(buf *b, const char *output);

/* TL_DEPRECATED_ENTRY(msg), defined unless it is (after `comment`, one line): the attribute a
 * deprecated enumerator (a tombstone, an earlier name) or accessor carries. */
void emit_deprecation_macro(buf *b, const char *comment);

/* A line per entry, hundreds of thousands in a big domain: each is written at a cursor after one
 * reserve for its longest form, then closed (length and NUL) once. */
static inline char *line_start(buf *b, size_t most)
{
    buf_reserve(b, most);
    return b->data + b->len;
}

static inline void line_end(buf *b, char *end)
{
    b->len = (size_t)(end - b->data);
    b->data[b->len] = 0;
}

static inline char *put_text(char *p, const char *s, size_t n)
{
#if defined(__GNUC__)
    if (__builtin_constant_p(n)) return (char *)memcpy(p, s, n) + n; /* (the compiler's own copy) */
#endif
    copy_short(p, s, n);
    return p + n;
}

/* The longest JSON string of n bytes, quotes and escapes included. */
static inline size_t json_string_room(size_t n) { return 6 * n + 2; }
/* `n` bytes of `s` as a JSON string at p, which has json_string_room(n) bytes; returns the end. */
char *put_json_string(char *p, const char *s, size_t n);

/* Slot tables of the generated lookups; the generated C code computes the same. */
static inline uint32_t emit_value_slot(uint32_t value, unsigned shift) { return (uint32_t)(value * 2654435761u) >> shift; }

#endif
