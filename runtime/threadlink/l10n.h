/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/l10n.h -- localised text: text tables, the locale switch, typed formatting (the seed's LocalizedText).

   WHAT
   ----
   A game's text in several languages. Every string the game shows is a key of a text domain
   (Text.Keys by default: an identity domain threadlink-gen makes from the source locale's PO
   file), and each locale's translations are one text table, a content asset threadlink-gen
   builds from that locale's PO file. This module holds the tables the game hands it (their
   bytes: the content assets stay loaded in their scope while added), switches the locale at run
   time (tl_l10n_set_locale publishes the native event OnLocaleChanged), and gives a key's text in
   the current locale by index, not by hashing a string. A locale's gaps are filled through a
   fallback chain: fr_CA, then fr, then the source locale.
   The generated header of the text stage (threadlink-gen, the "text" section of threadlink.json)
   gives each key a function (named with the "prefix", default text): text_Title(l10n) for a
   plain text, and for a text with placeholders a typed formatting function, so a wrong argument
   is a compile error in every language at once:
       "Score: {score:int}"   ->  text_Score(l10n, buf, size, score)
   Formatting writes into the caller's buffer (truncation reported, never an overflow, never a
   cut UTF-8 sequence). Nothing here reads a file or includes content.h: the game (or glue)
   loads the table assets and passes their bytes.

   INCLUDE
   -------
       #include <threadlink/l10n.h>
       #define TL_L10N_IMPL             // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/l10n.h>
   Uses the core only (log.h, events.h, hash.h).

   OVERRIDES
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)  the allocator (both or neither; default malloc / free).
   TL_L10N_MAX_TABLES              the tables a text set holds at once when the desc says 0
                                   (default 16).

   USE
   ---
       // generated: #include "text.h" gives text_keys_l10n(), TEXT_INDEX_<Key> and text_<Key>()
       tl_l10n_desc desc = {0};                      // zero: defaults (see tl_l10n_desc)
       desc.keys = text_keys_l10n();                 // the key layout of this build
       desc.registry = &registry;                    // OnLocaleChanged; NULL: no event
       tl_l10n *text = tl_l10n_create(&desc);
       tl_l10n_add_table(text, en_bytes, en_size);   // each table asset's bytes, kept by pointer
       tl_l10n_add_table(text, fr_bytes, fr_size);
       tl_l10n_set_locale(text, "fr_CA");            // fr_CA -> fr -> en
       puts(tl_l10n_text(text, TEXT_INDEX_Title));   // or text_Title(text)
       char line[64];
       tl_l10n_arg args[1];
       args[0] = tl_l10n_int(42);
       tl_l10n_format(text, TEXT_INDEX_Score, TL_L10N_NO_COUNT, args, 1, line, sizeof line,
                      NULL);                         // or text_Score(text, line, sizeof line, 42)
       tl_l10n_destroy(text);                        // then release the table assets

   LOCALES AND THE FALLBACK CHAIN
   ------------------------------
   A locale is the name the table carries (its PO file's stem: "en", "fr", "fr_CA", "sr@latin").
   Names compare ignoring ASCII case, with '-' and '_' alike ("fr-ca" is "fr_CA").
   tl_l10n_set_locale(name) makes the chain: the table of `name`, then of each shorter name made
   by cutting it at its last '_', '-' or '@' ("fr_CA" -> "fr"), then the source locale's table
   (desc.keys->source_locale), each once and only when added. It refuses (TL_L10N_UNKNOWN_LOCALE,
   the locale unchanged) a name none of whose own tables is added, unless the chain reaches the
   source locale by cutting (en_GB with source en). The chain is resolved then, for every key, so
   a lookup is one load: tl_l10n_text is a table read, tl_l10n_format a copy. A key no table in
   the chain has gives "" (tl_l10n_format: TL_L10N_MISSING_TEXT); set_locale logs how many there
   are. threadlink-gen makes the source locale's table complete, so with it added there are none.
   A table threadlink-gen did not build this run (a mod, a download, an older build of the same
   keys) may hold a text the game cannot use: placeholders in a key the source has as plain text,
   plural forms for a key the source has as one text, or a placeholder past the source's
   arguments. With the source locale's table added, such a text is passed over for the next
   table of the chain (the source's text at the latest) and set_locale logs how many were.
   A changed locale publishes OnLocaleChanged with the locale's name (the table's spelling) after
   the switch; setting the current locale again publishes nothing.
   Until a locale is set, adding the source locale's table sets it (OnLocaleChanged included), so
   texts show from the start. Tables may be added at any time; one of the current chain is refused removal
   (TL_L10N_TABLE_IN_USE): set another locale first. One that belongs in the current chain (of the
   name last set: fr_CA's pack added while fr shows, or the source's added late) joins it at once,
   as set_locale would (OnLocaleChanged included when the locale's table changes).

   FORMATTING
   ----------
   tl_l10n_format(text, index, count_arg, args, n, buf, size, &length) writes the key's text with
   its placeholders replaced by args (in the source string's order: the generated functions pass
   them so; a translation may use them in any order, or leave one out). A table records where
   each argument goes, not its type: this call refuses too few arguments (TL_L10N_BAD_ARGUMENTS)
   and writes what it is given; the generated functions are what checks the types (a wrong one
   does not compile), so call those where the key is known. Integers are written in
   decimal without grouping, strings as they are. The result is NUL-terminated whenever size > 0;
   *length (if not NULL) gets the length of the whole text, NUL excluded, as snprintf counts it.
   A text longer than size - 1 bytes is cut at the last whole UTF-8 character that fits and
   TL_L10N_TRUNCATED is returned. A plural key (count_arg is its counting argument, an integer:
   the generated function says which) picks its form by the table's plural rule (below) with the
   absolute value of that argument. Results of formatting are returned, not logged: they happen
   per frame.

   PLURAL RULES
   ------------
   Each table carries its PO file's Plural-Forms rule (nplurals and the expression over n),
   checked and compiled by threadlink-gen into a stack code the runtime validates when the table
   is added and runs here. The expression language is gettext's: n, unsigned integers,
   ( ), ! * / % + - < > <= >= == != && || ?: with C's precedence, in unsigned 64-bit arithmetic;
   a division or remainder by 0 is 0 and a form index at or past nplurals picks form 0, as
   gettext does. Code, one byte an operation (operands little-endian):
       0x01 n          0x02 u32 constant   0x03 !
       0x10 *  0x11 /  0x12 %  0x13 +  0x14 -
       0x20 <  0x21 >  0x22 <=  0x23 >=  0x24 ==  0x25 !=  0x30 &&  0x31 ||  0x40 ?: (c, a, b)
   valid when every operation has its operands, the stack never holds more than
   TL_L10N_PLURAL_STACK values, and one value is left.

   TABLE FORMAT, version 1 (what threadlink-gen writes: <locale>.tltext; little-endian)
   ------------
       offset  size     field
       0       8        magic "TLTEXT\0\x1A"
       8       u32      version 1
       12      u32      flags, 0
       16      u64      layout: the key layout it was built for (the generated TEXT_KEYS_LAYOUT)
       24      u32      K keys            28  u32  P plural forms (1..16)
       32      u32      F form offsets    36  u32  C plural code bytes
       40      u32      S string bytes    44  u32  locale: string offset
       48      u64      XXH64 (seed 0) of every byte after the header
       56      u32 x 2  reserved, 0
       64      K x 8    entries: u32 offset, u16 forms, u16 flags (bit 0: placeholders)
               F x 4    form offsets: string offsets of plural entries' forms
               C        plural code
               S        strings, each NUL-terminated UTF-8 (the last byte of S is a NUL)
   An entry with 0 forms is missing (the PO file has no translation for the key); 1 form: the
   offset is the text's string offset; P forms (P > 1): the offset is the index of its first
   form offset. In a text a placeholder is the byte 0x01 then the byte 1 + its argument's index
   (up to TL_L10N_MAX_ARGS arguments); no other byte below 0x20 but tab and newline appears.
   tl_l10n_add_table checks all of it (sizes, offsets, strings, code, checksum) and the layout
   against desc.keys->layout, before it keeps the table: a table of another build of the keys is
   refused (TL_L10N_LAYOUT_MISMATCH).

   NATIVE EVENTS (natives/Iris.Events.Native.txt)
   -------------
       OnLocaleChanged(const char *)   the locale's name, after a tl_l10n_set_locale changed it

   RULES
   -----
   No global state. tl_l10n_create allocates once (the table slots and one resolved entry per
   key); nothing else allocates, so lookups, formatting and locale switches never do. Main
   thread only.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_L10N_IMPL)
#define TL_L10N_IMPL
#endif
#ifndef TL_L10N_H
#define TL_L10N_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- results ---------------------------------------------------------------------------------- */

#define TL_L10N_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(NOT_A_TABLE, "not a text table (its magic, version or size is wrong)") \
    X(CORRUPT_TABLE, "the text table is corrupt") \
    X(LAYOUT_MISMATCH, \
      "the text table was built for other keys (generate the headers and the tables together)") \
    X(DUPLICATE_LOCALE, "a table of this locale is added already") \
    X(TOO_MANY_TABLES, "every table slot is taken") \
    X(NO_SUCH_TABLE, "no table of this locale is added") \
    X(TABLE_IN_USE, "the table is in the current locale's chain (set another locale first)") \
    X(UNKNOWN_LOCALE, "no table of this locale or of a shorter name of it is added") \
    X(MISSING_TEXT, "no table of the current chain has a text for this key") \
    X(BAD_ARGUMENTS, "the arguments do not match the text's placeholders") \
    X(TRUNCATED, "the text did not fit the buffer (cut after the last whole character)") \
    X(OUT_OF_MEMORY, "out of memory")

typedef enum tl_l10n_result {
    TL_L10N_OK = 0,
#define TL__L10N_RESULT_ENUM(id, message) TL_L10N_##id,
    TL_L10N_RESULTS(TL__L10N_RESULT_ENUM)
#undef TL__L10N_RESULT_ENUM
        TL_L10N_RESULT_END_
} tl_l10n_result;

TL_API const char *tl_l10n_result_message(tl_l10n_result result);

/* --- diagnostics ------------------------------------------------------------------------------ */

#define TL_L10N_LOG_ITEMS(X) \
    X(REFUSED, TL_LOG_LEVEL_ERROR, "%s: %s") \
    X(TABLE_REFUSED, TL_LOG_LEVEL_ERROR, "table %s refused: %s") \
    X(LOCALE_REFUSED, TL_LOG_LEVEL_ERROR, "locale \"%s\" refused: %s") \
    X(MISSING_TEXTS, TL_LOG_LEVEL_WARNING, \
      "locale %s: %u of %u keys have no text in its chain (is the source locale's table added?)") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(UNLIKE_SOURCE, TL_LOG_LEVEL_WARNING, \
      "locale %s: %u texts do not fit the source locale's (placeholders or plural forms): the " \
      "next table of the chain gives them")

#define TL_L10N_LOG_BASE 0xD00u
typedef enum tl_l10n_log_item {
    TL_L10N_LOG_NONE_ = TL_L10N_LOG_BASE - 1,
#define TL__L10N_LOG_ENUM(id, level, message) TL_L10N_LOG_##id,
    TL_L10N_LOG_ITEMS(TL__L10N_LOG_ENUM) /* TL_L10N_LOG_<id>, one per row from the base */
#undef TL__L10N_LOG_ENUM
    TL_L10N_LOG_END_
} tl_l10n_log_item;

/* --- native events ---------------------------------------------------------------------------- */

typedef struct tl_l10n_events {
    uint32_t locale_changed;
} tl_l10n_events;

#define TL_L10N_EVENTS_INIT(prefix) \
    { prefix##OnLocaleChanged }
/* Its native ordinal: after interface.h's (the position of its line in the natives file). */
#define TL_L10N_EVENTS_NATIVE \
    { 26 }

#define TL_L10N_SIG_LOCALE 0x30e0d037u /* "(const char *)" */
typedef void (*tl_l10n_locale_fn)(void *ctx, const char *locale);

/* --- the text set ----------------------------------------------------------------------------- */

#define TL_L10N_MAX_ARGS 31
#define TL_L10N_MAX_PLURALS 16
#define TL_L10N_PLURAL_STACK 32
#define TL_L10N_NO_COUNT UINT32_MAX /* tl_l10n_format's count_arg for a key without plurals */
#define TL_L10N_TABLE_HEADER 64

typedef struct tl_l10n tl_l10n;

/* The key layout of a build: the generated header gives it (text_keys_l10n()). Index i is the
   i-th key in the layout's order; values/indices map each key's domain value (what a
   LocalizedText vault field holds) to its index: values sorted ascending, indices[k] the index
   of values[k]. */
typedef struct tl_l10n_keys {
    uint32_t count;
    uint64_t layout;
    const uint32_t *values;
    const uint32_t *indices;
    const char *source_locale;
} tl_l10n_keys;

/* Zero-initialised but for keys: no events, native ordinals, stderr logging,
   TL_L10N_MAX_TABLES table slots. */
typedef struct tl_l10n_desc {
    const tl_l10n_keys *keys;     /* required; kept by pointer (static storage) */
    tl_events *registry;          /* OnLocaleChanged goes here; NULL: no event */
    const tl_l10n_events *events; /* NULL: TL_L10N_EVENTS_NATIVE */
    const tl_logger *logger;      /* NULL: stderr (copied) */
    uint32_t max_tables;          /* 0: TL_L10N_MAX_TABLES */
} tl_l10n_desc;

/* A formatting argument: tl_l10n_int, tl_l10n_uint or tl_l10n_str make one (a string argument
   whose pointer is NULL formats as "", as tl_l10n_str(NULL) does). */
typedef enum tl_l10n_arg_type {
    TL_L10N_ARG_INT = 1,
    TL_L10N_ARG_UINT = 2,
    TL_L10N_ARG_STR = 3
} tl_l10n_arg_type;

typedef struct tl_l10n_arg {
    tl_l10n_arg_type type;
    int64_t i;
    uint64_t u;
    const char *s;
} tl_l10n_arg;

static inline tl_l10n_arg tl_l10n_int(int64_t v) {
    tl_l10n_arg a;
    a.type = TL_L10N_ARG_INT;
    a.i = v;
    a.u = 0;
    a.s = TL__NULL;
    return a;
}
static inline tl_l10n_arg tl_l10n_uint(uint64_t v) {
    tl_l10n_arg a = tl_l10n_int(0);
    a.type = TL_L10N_ARG_UINT;
    a.u = v;
    return a;
}
static inline tl_l10n_arg tl_l10n_str(const char *v) {
    tl_l10n_arg a = tl_l10n_int(0);
    a.type = TL_L10N_ARG_STR;
    a.s = v ? v : "";
    return a;
}

/* `x` if it is an integer (TL_L10N_WANTS_INTEGER) or a char string (TL_L10N_WANTS_STRING), else a
   compile error that names what the placeholder wants. C converts a pointer to an integer (and a
   double to one) with a warning at most, so the generated formatting functions are also macros in
   C that pass each argument through these: a wrong argument does not compile whatever the flags.
   C++ refuses those conversions itself (but a floating value for an integer placeholder: enable
   -Wfloat-conversion). */
/* clang-format off */
#if !defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#define TL__L10N_INTEGER_CLASS(x) (__builtin_classify_type(x) >= 1 && __builtin_classify_type(x) <= 4)
#define TL_L10N_WANTS_INTEGER(x) \
    ((void)sizeof(struct { int placeholder_wants_an_integer : TL__L10N_INTEGER_CLASS(x) ? 1 : -1; }), (x))
/* 1 ? x : x decays an array as (x) + 0 did, without clang's null-pointer-arithmetic warning for a
   (const char *)0 argument. */
#define TL__L10N_CHAR_POINTER(x) \
    (__builtin_types_compatible_p(__typeof__(1 ? (x) : (x)), char *) || \
     __builtin_types_compatible_p(__typeof__(1 ? (x) : (x)), const char *))
#define TL_L10N_WANTS_STRING(x) \
    ((void)sizeof(struct { int placeholder_wants_a_char_string : TL__L10N_CHAR_POINTER(x) ? 1 : -1; }), (x))
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TL_L10N_WANTS_INTEGER(x) \
    _Generic((x), char: (x), signed char: (x), unsigned char: (x), short: (x), unsigned short: (x), \
                  int: (x), unsigned: (x), long: (x), unsigned long: (x), long long: (x), \
                  unsigned long long: (x), _Bool: (x))
#define TL_L10N_WANTS_STRING(x) _Generic((x), char *: (x), const char *: (x))
#endif
/* clang-format on */

/* NULL on a bad desc or no memory (logged). */
TL_API tl_l10n *tl_l10n_create(const tl_l10n_desc *desc);
TL_API void tl_l10n_destroy(tl_l10n *text);

/* The table's bytes are kept by pointer until it is removed or the text set destroyed. */
TL_API tl_l10n_result tl_l10n_add_table(tl_l10n *text, const void *bytes, size_t size);
TL_API tl_l10n_result tl_l10n_remove_table(tl_l10n *text, const char *locale);
TL_API tl_l10n_result tl_l10n_set_locale(tl_l10n *text, const char *locale);

/* The current locale's name ("" before the first set_locale), the added tables' locales (in the
   order added), and whether a name is one of them. */
TL_API const char *tl_l10n_locale(const tl_l10n *text);
TL_API uint32_t tl_l10n_locale_count(const tl_l10n *text);
TL_API const char *tl_l10n_locale_at(const tl_l10n *text, uint32_t i); /* NULL past the end */
TL_API bool tl_l10n_has_locale(const tl_l10n *text, const char *locale);

/* The text of key `index` in the current chain; "" when missing, out of range, or the key has
   placeholders (format those). Valid while its table is added. */
TL_API const char *tl_l10n_text(const tl_l10n *text, uint32_t index);
/* The index of a key's domain value (a LocalizedText field's), or UINT32_MAX. */
TL_API uint32_t tl_l10n_index_of(const tl_l10n *text, uint32_t key);
/* tl_l10n_text by domain value, with the signature of vault.h's tl_vault_text_fn, so a
   LocalizedText accessor reaches the current locale through it (ctx: the tl_l10n). */
TL_API const char *tl_l10n_text_of_key(void *text, uint32_t key);
/* See FORMATTING. count_arg: the plural count's index in args, TL_L10N_NO_COUNT for none. */
TL_API tl_l10n_result tl_l10n_format(const tl_l10n *text, uint32_t index, uint32_t count_arg,
                                     const tl_l10n_arg *args, uint32_t arg_count, char *buf,
                                     size_t size, size_t *length);
/* Runs a plural rule's code for n: *form gets the form it picks, before the nplurals clamp.
   TL_L10N_CORRUPT_TABLE when the code is not valid (see PLURAL RULES). */
TL_API tl_l10n_result tl_l10n_plural_run(const unsigned char *code, uint32_t length, uint64_t n,
                                         uint64_t *form);

#ifdef __cplusplus
}
#endif
#endif /* TL_L10N_H */

/* ---------------------------------------------------------------------------------------------- */
#if defined(TL_L10N_IMPL) && !defined(TL__L10N_IMPLEMENTED)
#define TL__L10N_IMPLEMENTED
#include "hash.h"
#include "log.h"
#include "events.h"
#include <string.h>
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
#ifndef TL_L10N_MAX_TABLES
#define TL_L10N_MAX_TABLES 16
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__L10N_MODULE "Text"
#define TL__L10N_LOCALE_MAX 63
#define TL__L10N_FLAG_ARGS 1u
#define TL__L10N_CHAIN_MAX 8 /* tables in a chain: far more than a name has parts */

TL_LOG_TABLE_FN(tl__l10n_log, TL_L10N_LOG_ITEMS, TL_L10N_LOG_BASE, TL__L10N_MODULE)

/* A table as added: its sections, found and checked once. */
typedef struct tl__l10n_table {
    const unsigned char *bytes, *entries, *forms, *code, *strings;
    uint32_t keys, plurals, form_count, code_length, string_bytes;
    const char *locale;
} tl__l10n_table;

/* A key's text in the current chain: one text, or a plural's forms in its table. */
typedef struct tl__l10n_pick {
    const char *text;           /* one form; NULL for a plural or a missing key */
    const unsigned char *forms; /* a plural's form offsets */
    const tl__l10n_table *table;
    uint32_t flags;
} tl__l10n_pick;

struct tl_l10n {
    const tl_l10n_keys *keys;
    tl_events *registry;
    tl_l10n_events events;
    tl_logger logger;
    tl__l10n_table *tables;
    uint32_t table_count, max_tables;
    const tl__l10n_table *chain[TL__L10N_CHAIN_MAX];
    uint32_t chain_length;
    tl__l10n_pick *picks;                /* one per key */
    const char *locale;                  /* the current locale's name, from its table; "" before */
    char asked[TL__L10N_LOCALE_MAX + 1]; /* the name set_locale was given: its chain's source */
};

TL_RESULT_MESSAGE_FN(tl_l10n_result_message, tl_l10n_result, TL_L10N_RESULTS)

static uint32_t tl__l10n_u16(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static uint32_t tl__l10n_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t tl__l10n_u64(const unsigned char *p) {
    return (uint64_t)tl__l10n_u32(p) | (uint64_t)tl__l10n_u32(p + 4) << 32;
}

/* --- plural code ------------------------------------------------------------------------------ */

/* How many values an operation takes and whether it is known; its operand bytes. */
static int tl__l10n_op_arity(unsigned char op, uint32_t *operand_bytes) {
    *operand_bytes = op == 0x02 ? 4 : 0;
    if (op == 0x01 || op == 0x02) return 0;
    if (op == 0x03) return 1;
    if ((op >= 0x10 && op <= 0x14) || (op >= 0x20 && op <= 0x25) || op == 0x30 || op == 0x31)
        return 2;
    return op == 0x40 ? 3 : -1;
}

static uint64_t tl__l10n_binary(unsigned char op, uint64_t a, uint64_t b) {
    switch (op) {
    case 0x10: return a * b;
    case 0x11: return b ? a / b : 0;
    case 0x12: return b ? a % b : 0;
    case 0x13: return a + b;
    case 0x14: return a - b;
    case 0x20: return a < b;
    case 0x21: return a > b;
    case 0x22: return a <= b;
    case 0x23: return a >= b;
    case 0x24: return a == b;
    case 0x25: return a != b;
    case 0x30: return a && b;
    default: return a || b; /* 0x31 */
    }
}

/* One operation on the stack (depth checked by the caller). */
static void tl__l10n_step(unsigned char op, const unsigned char *operand, uint64_t n,
                          uint64_t *stack, uint32_t *depth) {
    uint32_t d = *depth;
    if (op == 0x01) stack[d++] = n;
    else if (op == 0x02) stack[d++] = tl__l10n_u32(operand);
    else if (op == 0x03) stack[d - 1] = !stack[d - 1];
    else if (op == 0x40) {
        stack[d - 3] = stack[d - 3] ? stack[d - 2] : stack[d - 1];
        d -= 2;
    } else {
        stack[d - 2] = tl__l10n_binary(op, stack[d - 2], stack[d - 1]);
        d--;
    }
    *depth = d;
}

TL_API tl_l10n_result tl_l10n_plural_run(const unsigned char *code, uint32_t length, uint64_t n,
                                         uint64_t *form) {
    uint64_t stack[TL_L10N_PLURAL_STACK];
    uint32_t at = 0, depth = 0;
    if (!code || !form || length == 0) return TL_L10N_CORRUPT_TABLE;
    while (at < length) {
        uint32_t operand_bytes;
        int arity = tl__l10n_op_arity(code[at], &operand_bytes);
        if (arity < 0 || (uint32_t)arity > depth || length - at - 1 < operand_bytes)
            return TL_L10N_CORRUPT_TABLE;
        if (arity == 0 && depth == TL_L10N_PLURAL_STACK) return TL_L10N_CORRUPT_TABLE;
        tl__l10n_step(code[at], code + at + 1, n, stack, &depth);
        at += 1 + operand_bytes;
    }
    if (depth != 1) return TL_L10N_CORRUPT_TABLE;
    *form = stack[0];
    return TL_L10N_OK;
}

/* --- tables ----------------------------------------------------------------------------------- */

/* A locale name: 1..63 bytes of letters, digits, '_', '-', '@', '.'. */
static bool tl__l10n_locale_ok(const char *s) {
    size_t i;
    for (i = 0; s[i]; i++) {
        char c = s[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (i >= TL__L10N_LOCALE_MAX || !(letter || (c >= '0' && c <= '9') || strchr("_-@.", c)))
            return false;
    }
    return i > 0;
}

/* Two locale names, ASCII case ignored and '-' as '_', over their first `n` bytes of a (the
   whole of b). */
static bool tl__l10n_same_locale(const char *a, size_t n, const char *b) {
    size_t i;
    for (i = 0; i < n; i++) {
        char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
        if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (char)(y + 32);
        if (x != y || !y) return false;
    }
    return b[n] == '\0';
}

/* One UTF-8 sequence at s (within the string's NUL): its length, or 0 when invalid (overlong
   forms, surrogates and code points past U+10FFFF included). */
static size_t tl__l10n_utf8_length(const unsigned char *s) {
    unsigned char c = s[0];
    size_t n = c < 0x80                 ? 1
               : c >= 0xC2 && c <= 0xDF ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    size_t i;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)) return 0;
    if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90)) return 0;
    return n;
}

/* A text at `offset` of the strings: in bounds, valid UTF-8, placeholders well formed. */
static bool tl__l10n_text_ok(const tl__l10n_table *t, uint32_t offset, bool args) {
    const unsigned char *s = t->strings + offset;
    if (offset >= t->string_bytes) return false;
    while (*s) { /* the last byte of the strings is a NUL: every walk ends */
        size_t n = tl__l10n_utf8_length(s);
        if (*s == 0x01 && args && s[1] >= 1 && s[1] <= TL_L10N_MAX_ARGS) n = 2;
        else if (*s < 0x20 && *s != '\t' && *s != '\n') n = 0;
        if (n == 0) return false;
        s += n;
    }
    return true;
}

/* One entry: its text or its P forms in bounds and valid. */
static bool tl__l10n_entry_ok(const tl__l10n_table *t, uint32_t key) {
    const unsigned char *e = t->entries + (size_t)key * 8;
    uint32_t offset = tl__l10n_u32(e), forms = tl__l10n_u16(e + 4), flags = tl__l10n_u16(e + 6);
    uint32_t f;
    if (flags & ~TL__L10N_FLAG_ARGS) return false;
    if (forms == 0) return offset == 0 && flags == 0;
    if (forms == 1) return tl__l10n_text_ok(t, offset, flags != 0);
    if (forms != t->plurals || offset > t->form_count || t->form_count - offset < forms)
        return false;
    for (f = 0; f < forms; f++)
        if (!tl__l10n_text_ok(t, tl__l10n_u32(t->forms + (size_t)(offset + f) * 4), flags != 0))
            return false;
    return true;
}

/* The header's counts against the size, then the sections' places. */
static tl_l10n_result tl__l10n_read_header(tl__l10n_table *t, const unsigned char *b, size_t size) {
    static const unsigned char magic[8] = { 'T', 'L', 'T', 'E', 'X', 'T', 0, 0x1A };
    uint64_t body;
    if (size < TL_L10N_TABLE_HEADER || memcmp(b, magic, 8) != 0 || tl__l10n_u32(b + 8) != 1)
        return TL_L10N_NOT_A_TABLE;
    t->keys = tl__l10n_u32(b + 24);
    t->plurals = tl__l10n_u32(b + 28);
    t->form_count = tl__l10n_u32(b + 32);
    t->code_length = tl__l10n_u32(b + 36);
    t->string_bytes = tl__l10n_u32(b + 40);
    body = (uint64_t)t->keys * 8 + (uint64_t)t->form_count * 4 + t->code_length + t->string_bytes;
    if (tl__l10n_u32(b + 12) != 0 || tl__l10n_u32(b + 56) != 0 || tl__l10n_u32(b + 60) != 0 ||
        body != (uint64_t)size - TL_L10N_TABLE_HEADER)
        return TL_L10N_NOT_A_TABLE;
    if (tl_hash64(b + TL_L10N_TABLE_HEADER, size - TL_L10N_TABLE_HEADER, 0) != tl__l10n_u64(b + 48))
        return TL_L10N_CORRUPT_TABLE;
    t->bytes = b;
    t->entries = b + TL_L10N_TABLE_HEADER;
    t->forms = t->entries + (size_t)t->keys * 8;
    t->code = t->forms + (size_t)t->form_count * 4;
    t->strings = t->code + t->code_length;
    return TL_L10N_OK;
}

/* Every section of a table whose header was read. */
static tl_l10n_result tl__l10n_check_body(tl__l10n_table *t) {
    uint32_t k, locale = tl__l10n_u32(t->bytes + 44);
    uint64_t form;
    if (t->plurals < 1 || t->plurals > TL_L10N_MAX_PLURALS || t->string_bytes == 0 ||
        t->strings[t->string_bytes - 1] != 0 || locale >= t->string_bytes)
        return TL_L10N_CORRUPT_TABLE;
    t->locale = (const char *)t->strings + locale;
    if (!tl__l10n_locale_ok(t->locale)) return TL_L10N_CORRUPT_TABLE;
    if (tl_l10n_plural_run(t->code, t->code_length, 0, &form) != TL_L10N_OK)
        return TL_L10N_CORRUPT_TABLE;
    for (k = 0; k < t->keys; k++)
        if (!tl__l10n_entry_ok(t, k)) return TL_L10N_CORRUPT_TABLE;
    return TL_L10N_OK;
}

static tl__l10n_table *tl__l10n_find_table(const tl_l10n *text, const char *locale, size_t n) {
    uint32_t i;
    for (i = 0; i < text->table_count; i++)
        if (tl__l10n_same_locale(locale, n, text->tables[i].locale)) return &text->tables[i];
    return TL__NULL;
}

static tl_l10n_result tl__l10n_refuse_table(tl_l10n *text, const char *what,
                                            tl_l10n_result result) {
    tl__l10n_log(&text->logger, TL_L10N_LOG_TABLE_REFUSED, what, tl_l10n_result_message(result));
    return result;
}

/* Whether a table of `locale` is in the chain of the locale asked: a shorter name of it (cut at
   '_', '-' or '@'), itself, or the source locale. */
static size_t tl__l10n_shorter(const char *locale, size_t n);
static bool tl__l10n_belongs(const tl_l10n *text, const char *locale) {
    size_t n = strlen(text->asked);
    const char *source = text->keys->source_locale;
    if (source && tl__l10n_same_locale(locale, strlen(locale), source)) return true;
    for (; n > 0; n = tl__l10n_shorter(text->asked, n))
        if (tl__l10n_same_locale(text->asked, n, locale)) return true;
    return false;
}

TL_API tl_l10n_result tl_l10n_add_table(tl_l10n *text, const void *bytes, size_t size) {
    tl__l10n_table t;
    tl_l10n_result r;
    if (!text || !bytes) return TL_L10N_INVALID_ARGUMENT;
    memset(&t, 0, sizeof t);
    r = tl__l10n_read_header(&t, (const unsigned char *)bytes, size);
    if (r == TL_L10N_OK) r = tl__l10n_check_body(&t);
    if (r != TL_L10N_OK) return tl__l10n_refuse_table(text, "(unnamed)", r);
    if (t.keys != text->keys->count || tl__l10n_u64(t.bytes + 16) != text->keys->layout)
        return tl__l10n_refuse_table(text, t.locale, TL_L10N_LAYOUT_MISMATCH);
    if (tl__l10n_find_table(text, t.locale, strlen(t.locale)))
        return tl__l10n_refuse_table(text, t.locale, TL_L10N_DUPLICATE_LOCALE);
    if (text->table_count == text->max_tables)
        return tl__l10n_refuse_table(text, t.locale, TL_L10N_TOO_MANY_TABLES);
    text->tables[text->table_count++] = t;
    /* The source locale's table, added while no locale is set, is the first locale: texts show
       from the start, not "" until tl_l10n_set_locale. A table that belongs in the current
       chain (a language pack downloaded for the locale asked, the source's added late) joins it
       at once. */
    if (!text->chain_length && text->keys->source_locale &&
        tl__l10n_same_locale(t.locale, strlen(t.locale), text->keys->source_locale))
        return tl_l10n_set_locale(text, t.locale);
    if (text->chain_length && tl__l10n_belongs(text, t.locale))
        return tl_l10n_set_locale(text, text->asked);
    return TL_L10N_OK;
}

/* --- the chain -------------------------------------------------------------------------------- */

/* Whether table `t` is in the current chain. */
static bool tl__l10n_in_chain(const tl_l10n *text, const tl__l10n_table *t) {
    uint32_t i;
    for (i = 0; i < text->chain_length; i++)
        if (text->chain[i] == t) return true;
    return false;
}

TL_API tl_l10n_result tl_l10n_remove_table(tl_l10n *text, const char *locale) {
    tl__l10n_table *t;
    uint32_t i;
    if (!text || !locale) return TL_L10N_INVALID_ARGUMENT;
    t = tl__l10n_find_table(text, locale, strlen(locale));
    if (!t) return tl__l10n_refuse_table(text, locale, TL_L10N_NO_SUCH_TABLE);
    if (tl__l10n_in_chain(text, t))
        return tl__l10n_refuse_table(text, locale, TL_L10N_TABLE_IN_USE);
    /* Tables of the chain stay where they are: only ones after it move, and none is in it. */
    for (i = (uint32_t)(t - text->tables); i + 1 < text->table_count; i++)
        text->tables[i] = text->tables[i + 1];
    text->table_count--;
    for (i = 0; i < text->chain_length; i++)
        if (text->chain[i] > t) text->chain[i]--;
    for (i = 0; i < text->keys->count; i++)
        if (text->picks[i].table > t) text->picks[i].table--;
    return TL_L10N_OK;
}

/* The length of the next shorter name: up to the last '_', '-' or '@' before `n`; 0 if none. */
static size_t tl__l10n_shorter(const char *locale, size_t n) {
    while (n > 0) {
        n--;
        if (locale[n] == '_' || locale[n] == '-' || locale[n] == '@') return n;
    }
    return 0;
}

/* The chain of `locale` into chain[]; its length, 0 when the locale is unknown. */
static uint32_t tl__l10n_make_chain(const tl_l10n *text, const char *locale,
                                    const tl__l10n_table **chain) {
    const char *source = text->keys->source_locale ? text->keys->source_locale : "";
    size_t n = strlen(locale);
    uint32_t length = 0, i;
    bool known = false;
    const tl__l10n_table *source_table = tl__l10n_find_table(text, source, strlen(source));
    for (; n > 0; n = tl__l10n_shorter(locale, n)) {
        const tl__l10n_table *t = tl__l10n_find_table(text, locale, n);
        if (source[0] && tl__l10n_same_locale(locale, n, source)) known = true;
        if (!t) continue;
        known = true;
        for (i = 0; i < length && chain[i] != t; i++) {}
        if (i == length && length < TL__L10N_CHAIN_MAX - 1) chain[length++] = t;
    }
    if (!known) return 0;
    for (i = 0; i < length && chain[i] != source_table; i++) {}
    if (source_table && i == length) chain[length++] = source_table;
    return length;
}

/* One more than the highest argument index a text's placeholders use (0: none). */
static uint32_t tl__l10n_text_args(const tl__l10n_table *t, uint32_t offset) {
    const char *s = (const char *)t->strings + offset;
    uint32_t limit = 0;
    while ((s = strchr(s, 0x01)) != TL__NULL) { /* checked when added: an index byte follows */
        uint32_t arg = (uint32_t)(unsigned char)s[1];
        if (arg > limit) limit = arg;
        s += 2;
    }
    return limit;
}

/* The same over every form of key k's entry. */
static uint32_t tl__l10n_entry_args(const tl__l10n_table *t, uint32_t k) {
    const unsigned char *e = t->entries + (size_t)k * 8;
    uint32_t offset = tl__l10n_u32(e), forms = tl__l10n_u16(e + 4), f, limit = 0;
    if (!(tl__l10n_u16(e + 6) & TL__L10N_FLAG_ARGS)) return 0;
    if (forms == 1) return tl__l10n_text_args(t, offset);
    for (f = 0; f < forms; f++) {
        uint32_t n = tl__l10n_text_args(t, tl__l10n_u32(t->forms + (size_t)(offset + f) * 4));
        if (n > limit) limit = n;
    }
    return limit;
}

/* Whether table t's entry of key k is a text the game can use as the source's entry is used:
   no placeholders where the source has plain text, one text where the source (with plurals in
   its rule) has one, no placeholder past the source's arguments. Without the source's entry
   there is nothing to hold it to. */
static bool tl__l10n_fits_source(const tl__l10n_table *t, const tl__l10n_table *source,
                                 uint32_t k) {
    const unsigned char *e = t->entries + (size_t)k * 8, *se;
    if (!source || source == t) return true;
    se = source->entries + (size_t)k * 8;
    if (tl__l10n_u16(se + 4) == 0) return true;
    if ((tl__l10n_u16(e + 6) & TL__L10N_FLAG_ARGS) && !(tl__l10n_u16(se + 6) & TL__L10N_FLAG_ARGS))
        return false;
    if (source->plurals > 1 && tl__l10n_u16(se + 4) == 1 && tl__l10n_u16(e + 4) > 1) return false;
    return tl__l10n_entry_args(t, k) <= tl__l10n_entry_args(source, k);
}

/* Every key's text in the chain; the number of keys none of its tables has, and in *unlike the
   texts passed over for not fitting the source's. */
static uint32_t tl__l10n_resolve(tl_l10n *text, uint32_t *unlike) {
    const char *name = text->keys->source_locale ? text->keys->source_locale : "";
    const tl__l10n_table *source = tl__l10n_find_table(text, name, strlen(name));
    uint32_t k, c, missing = 0;
    *unlike = 0;
    for (k = 0; k < text->keys->count; k++) {
        tl__l10n_pick *p = &text->picks[k];
        memset(p, 0, sizeof *p);
        for (c = 0; c < text->chain_length && !p->table; c++) {
            const tl__l10n_table *t = text->chain[c];
            const unsigned char *e = t->entries + (size_t)k * 8;
            uint32_t offset = tl__l10n_u32(e), forms = tl__l10n_u16(e + 4);
            if (forms == 0) continue;
            if (!tl__l10n_fits_source(t, source, k)) {
                ++*unlike;
                continue;
            }
            p->table = t;
            p->flags = tl__l10n_u16(e + 6);
            if (forms == 1) p->text = (const char *)t->strings + offset;
            else p->forms = t->forms + (size_t)offset * 4;
        }
        missing += !p->table;
    }
    return missing;
}

TL_API tl_l10n_result tl_l10n_set_locale(tl_l10n *text, const char *locale) {
    const tl__l10n_table *chain[TL__L10N_CHAIN_MAX];
    const char *before;
    uint32_t length, missing, unlike;
    if (!text || !locale || !tl__l10n_locale_ok(locale)) {
        if (text)
            tl__l10n_log(&text->logger, TL_L10N_LOG_REFUSED, "tl_l10n_set_locale",
                         tl_l10n_result_message(TL_L10N_INVALID_ARGUMENT));
        return TL_L10N_INVALID_ARGUMENT;
    }
    length = tl__l10n_make_chain(text, locale, chain);
    if (length == 0) {
        tl__l10n_log(&text->logger, TL_L10N_LOG_LOCALE_REFUSED, locale,
                     tl_l10n_result_message(TL_L10N_UNKNOWN_LOCALE));
        return TL_L10N_UNKNOWN_LOCALE;
    }
    before = text->locale;
    if (locale != text->asked) memcpy(text->asked, locale, strlen(locale) + 1); /* checked: short */
    memcpy(text->chain, chain, sizeof chain[0] * length);
    text->chain_length = length;
    text->locale = chain[0]->locale;
    missing = tl__l10n_resolve(text, &unlike);
    if (unlike)
        tl__l10n_log(&text->logger, TL_L10N_LOG_UNLIKE_SOURCE, text->locale, (unsigned)unlike);
    if (missing)
        tl__l10n_log(&text->logger, TL_L10N_LOG_MISSING_TEXTS, text->locale, (unsigned)missing,
                     (unsigned)text->keys->count);
    if (text->registry && before != text->locale)
        TL_EVENTS_PUBLISH(text->registry, text->events.locale_changed, TL_L10N_SIG_LOCALE,
                          tl_l10n_locale_fn, text->locale);
    return TL_L10N_OK;
}

/* --- lookups ---------------------------------------------------------------------------------- */

TL_API const char *tl_l10n_locale(const tl_l10n *text) { return text ? text->locale : ""; }
TL_API uint32_t tl_l10n_locale_count(const tl_l10n *text) { return text ? text->table_count : 0; }
TL_API const char *tl_l10n_locale_at(const tl_l10n *text, uint32_t i) {
    return text && i < text->table_count ? text->tables[i].locale : TL__NULL;
}
TL_API bool tl_l10n_has_locale(const tl_l10n *text, const char *locale) {
    return text && locale && tl__l10n_find_table(text, locale, strlen(locale)) != TL__NULL;
}

TL_API const char *tl_l10n_text(const tl_l10n *text, uint32_t index) {
    const tl__l10n_pick *p;
    if (!text || index >= text->keys->count) return "";
    p = &text->picks[index];
    return p->text && !(p->flags & TL__L10N_FLAG_ARGS) ? p->text : "";
}

TL_API uint32_t tl_l10n_index_of(const tl_l10n *text, uint32_t key) {
    const uint32_t *values;
    uint32_t lo = 0, hi;
    if (!text || !text->keys->values || !text->keys->indices) return UINT32_MAX;
    values = text->keys->values;
    hi = text->keys->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (values[mid] == key) return text->keys->indices[mid];
        if (values[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return UINT32_MAX;
}

TL_API const char *tl_l10n_text_of_key(void *text, uint32_t key) {
    const tl_l10n *t = (const tl_l10n *)text;
    return tl_l10n_text(t, tl_l10n_index_of(t, key));
}

/* --- formatting ------------------------------------------------------------------------------- */

/* Output into the caller's buffer: what fits is written, everything is counted. */
typedef struct tl__l10n_out {
    char *buf;
    size_t size, length;
} tl__l10n_out;

static void tl__l10n_put(tl__l10n_out *o, const char *s, size_t n) {
    size_t room = o->size && o->length < o->size - 1 ? o->size - 1 - o->length : 0;
    /* No room (a NULL buffer of size 0 asks for the length only): nothing is copied or addressed. */
    if (room) memcpy(o->buf + o->length, s, n < room ? n : room);
    o->length += n;
}

static void tl__l10n_put_u64(tl__l10n_out *o, uint64_t v, bool negative) {
    char digits[24];
    size_t n = sizeof digits;
    do digits[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    if (negative) digits[--n] = '-';
    tl__l10n_put(o, digits + n, sizeof digits - n);
}

static void tl__l10n_put_arg(tl__l10n_out *o, const tl_l10n_arg *a) {
    if (a->type == TL_L10N_ARG_STR) {
        if (a->s) tl__l10n_put(o, a->s, strlen(a->s)); /* a NULL one filled by hand: "" */
    } else if (a->type == TL_L10N_ARG_UINT) tl__l10n_put_u64(o, a->u, false);
    else tl__l10n_put_u64(o, a->i < 0 ? 0 - (uint64_t)a->i : (uint64_t)a->i, a->i < 0);
}

/* Ends the text: NUL-terminated, cut after the last whole UTF-8 character that fits. */
static tl_l10n_result tl__l10n_finish(tl__l10n_out *o) {
    size_t end = o->length, lead;
    if (o->size == 0) return end ? TL_L10N_TRUNCATED : TL_L10N_OK;
    if (end < o->size) {
        o->buf[end] = '\0';
        return TL_L10N_OK;
    }
    end = o->size - 1;
    lead = end;
    while (lead > 0 && ((unsigned char)o->buf[lead - 1] & 0xC0) == 0x80) lead--;
    if (lead > 0 && (unsigned char)o->buf[lead - 1] >= 0xC0) {
        unsigned char c = (unsigned char)o->buf[lead - 1];
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (end - (lead - 1) < need) end = lead - 1;
    }
    o->buf[end] = '\0';
    return TL_L10N_TRUNCATED;
}

/* The form a plural pick takes for args[count_arg]. */
static const char *tl__l10n_plural_text(const tl__l10n_pick *p, const tl_l10n_arg *count) {
    const tl__l10n_table *t = p->table;
    uint64_t n, form = 0;
    if (count->type == TL_L10N_ARG_STR) return TL__NULL;
    n = count->type == TL_L10N_ARG_UINT ? count->u
        : count->i < 0                  ? 0 - (uint64_t)count->i
                                        : (uint64_t)count->i;
    if (tl_l10n_plural_run(t->code, t->code_length, n, &form) != TL_L10N_OK || form >= t->plurals)
        form = 0;
    return (const char *)t->strings + tl__l10n_u32(p->forms + form * 4);
}

/* The text of a pick with these arguments into o; false on a placeholder past them. */
static bool tl__l10n_expand(tl__l10n_out *o, const char *s, const tl_l10n_arg *args,
                            uint32_t arg_count) {
    for (;;) {
        const char *marker = strchr(s, 0x01);
        size_t run = marker ? (size_t)(marker - s) : strlen(s);
        uint32_t arg;
        tl__l10n_put(o, s, run);
        if (!marker) return true;
        arg = (uint32_t)(unsigned char)marker[1] - 1;
        if (arg >= arg_count) return false;
        tl__l10n_put_arg(o, &args[arg]);
        s = marker + 2;
    }
}

/* The text to write for key `index` (a plural's form for its count), or NULL with *r set. */
static const char *tl__l10n_pick_text(const tl_l10n *text, uint32_t index, uint32_t count_arg,
                                      const tl_l10n_arg *args, uint32_t arg_count,
                                      tl_l10n_result *r) {
    const tl__l10n_pick *p = &text->picks[index];
    const char *s;
    if (!p->table) {
        *r = TL_L10N_MISSING_TEXT;
        return TL__NULL;
    }
    if (!p->forms) return p->text;
    s = count_arg < arg_count ? tl__l10n_plural_text(p, &args[count_arg]) : TL__NULL;
    if (!s) *r = TL_L10N_BAD_ARGUMENTS;
    return s;
}

TL_API tl_l10n_result tl_l10n_format(const tl_l10n *text, uint32_t index, uint32_t count_arg,
                                     const tl_l10n_arg *args, uint32_t arg_count, char *buf,
                                     size_t size, size_t *length) {
    tl__l10n_out o;
    const char *s = TL__NULL;
    tl_l10n_result r = TL_L10N_OK;
    o.buf = buf;
    o.size = size;
    o.length = 0;
    if (!text || (!buf && size) || (arg_count && !args) || index >= text->keys->count)
        r = TL_L10N_INVALID_ARGUMENT;
    else s = tl__l10n_pick_text(text, index, count_arg, args, arg_count, &r);
    if (s && !tl__l10n_expand(&o, s, args, arg_count)) r = TL_L10N_BAD_ARGUMENTS;
    if (length) *length = r == TL_L10N_OK ? o.length : 0;
    if (r == TL_L10N_OK) return tl__l10n_finish(&o);
    if (size && buf) buf[0] = '\0';
    return r;
}

/* --- the text set ----------------------------------------------------------------------------- */

static tl_l10n *tl__l10n_allocate(const tl_l10n_desc *desc, const tl_logger *logger) {
    uint32_t max_tables = desc->max_tables ? desc->max_tables : TL_L10N_MAX_TABLES;
    size_t keys = desc->keys->count ? desc->keys->count : 1;
    tl_l10n *text = (tl_l10n *)TL_MALLOC(sizeof *text);
    if (text) {
        memset(text, 0, sizeof *text);
        text->tables = (tl__l10n_table *)TL_MALLOC(sizeof *text->tables * max_tables);
        text->picks = (tl__l10n_pick *)TL_MALLOC(sizeof *text->picks * keys);
        text->max_tables = max_tables;
    }
    if (text && text->tables && text->picks) {
        memset(text->picks, 0, sizeof *text->picks * keys);
        return text;
    }
    tl__l10n_log(logger, TL_L10N_LOG_OUT_OF_MEMORY, "tl_l10n_create");
    if (text) {
        TL_FREE(text->tables);
        TL_FREE(text->picks);
        TL_FREE(text);
    }
    return TL__NULL;
}

TL_API tl_l10n *tl_l10n_create(const tl_l10n_desc *desc) {
    static const tl_l10n_events native = TL_L10N_EVENTS_NATIVE;
    const tl_logger *logger = desc ? desc->logger : TL__NULL;
    tl_l10n *text;
    if (!desc || !desc->keys || (desc->keys->count && desc->keys->count > UINT32_MAX / 8)) {
        tl__l10n_log(logger, TL_L10N_LOG_REFUSED, "tl_l10n_create",
                     tl_l10n_result_message(TL_L10N_INVALID_ARGUMENT));
        return TL__NULL;
    }
    text = tl__l10n_allocate(desc, logger);
    if (!text) return TL__NULL;
    text->keys = desc->keys;
    text->registry = desc->registry;
    text->events = desc->events ? *desc->events : native;
    if (!desc->events && !tl_events_natives_declared(text->registry, 26u, 26u, "Text"))
        text->registry = NULL;
    if (desc->logger) text->logger = *desc->logger;
    text->locale = "";
    return text;
}

TL_API void tl_l10n_destroy(tl_l10n *text) {
    if (!text) return;
    TL_FREE(text->tables);
    TL_FREE(text->picks);
    TL_FREE(text);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_L10N_IMPL */
