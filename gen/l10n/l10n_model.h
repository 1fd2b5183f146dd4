/* The text stage: localised text from gettext PO files (threadlink.json's "text" section).
 *   lex_po.re        the PO lexer and parser (po.h)
 *   plural.c         Plural-Forms: parsed, checked, evaluated, compiled (plural.h)
 *   l10n_config.c    the "text" section
 *   l10n_text.c      placeholders ("{score:int}") found, checked and encoded for the tables
 *   l10n_load.c      the source locale's keys and each translation, checked against them
 *   l10n_table.c     a locale's table: the runtime's format (threadlink/l10n.h, TABLE FORMAT)
 *   l10n_emit.c      the header of typed functions per key (text.h)
 *   l10n_stage.c     the stage: load, the keys' domain (Text.Keys), resolve, emit
 *
 * The source locale's PO file declares the keys: each entry's msgctxt is a key (a C identifier),
 * its msgid (and msgid_plural) the source text, whose placeholders are typed. Every other *.po of
 * the translations folder is a locale named by its file's stem, whose entries give the same keys
 * (msgctxt) their msgstr. The keys form an identity domain, so a removed key is a tombstone; the
 * tables index keys in the order of their names, so a table depends only on the PO files. */
#ifndef TLG_L10N_MODEL_H
#define TLG_L10N_MODEL_H

#include "core/stage.h"
#include "l10n/plural.h"
#include "l10n/po.h"

#define TEXT_DEFAULT_DOMAIN "Text.Keys"
#define TEXT_KEY_MAX 128   /* bytes of a key: it becomes part of C names */
#define TEXT_MAX_PARAMS 31 /* TL_L10N_MAX_ARGS */

typedef struct text_config {
    char *source;       /* project-relative path of the source locale's PO file */
    char *translations; /* project-relative folder of the translations' PO files */
    char *domain;       /* "Text.Keys" */
    char *header;       /* the domain's header, below the generated directory */
    char *output;       /* the typed functions' header */
    char *tables;       /* the folder of the tables, below the generated directory */
    char *prefix;       /* of the functions per key: "text" gives text_Title() */
    bool missing_is_error;
    src_loc loc; /* the "text" key */
} text_config;

typedef enum text_type { TEXT_NONE, TEXT_INT, TEXT_UINT, TEXT_STR } text_type;

typedef struct text_param {
    const char *name;
    text_type type;
} text_param;

typedef struct text_key {
    const char *name;       /* as written in msgctxt: a C identifier */
    src_loc loc;            /* its msgctxt */
    const po_entry *entry;  /* its entry in the source file */
    VEC(text_param) params; /* in the order they first appear in msgid, then msgid_plural */
    uint32_t count_param;   /* a plural key's counting parameter (its first integer); else UINT32_MAX */
    bool plural;
    uint32_t value; /* after resolve: its Text.Keys value and member name */
    const char *member;
} text_key;

/* One locale: its PO file, plural rule, and per key the encoded text of each form (forms.count
 * 0: missing). */
typedef struct text_forms {
    VEC(buf) forms;
    bool seen; /* a translation's entry named the key (a second one is a duplicate) */
} text_forms;

typedef struct text_locale {
    char *name; /* the file's stem: "fr", "fr_CA" */
    char *path; /* as opened */
    char *rel;  /* project-relative, for banners */
    buf data;
    po_file po;
    plural_rule plural;
    bool is_source;
    text_forms *texts; /* one per key, in the keys' order */
    char *table;       /* its table's path below the generated directory */
    buf table_bytes;
} text_locale;

typedef struct text_state {
    project *p;
    text_config cfg;
    bool configured;
    arena strings;
    VEC(text_key) keys;       /* sorted by name: the tables' index order */
    VEC(text_locale) locales; /* the source first, then the others by name */
    uint64_t layout;
    const domain *d; /* the keys' domain, once added */
} text_state;

/* l10n_config.c: the "text" section of p->cfg (false after reporting; *configured false and
 * true returned when there is none). */
bool text_config_load(project *p, text_config *out, bool *configured);
void text_config_free(text_config *c);

/* l10n_text.c. The placeholders of a source string declared into key->params (types required,
 * one type per name); false after reporting. */
bool text_declare_params(const po_file *f, const po_string *s, text_key *key, arena *strings);
/* A string of a locale checked against the key's params and encoded for its table into `out`
 * (placeholders as 0x01, 1 + index); false after reporting. */
bool text_encode(const po_file *f, const po_string *s, const text_key *key, buf *out);
const char *text_type_name(text_type t);
/* Whether `s` (n bytes) is a key: a C identifier of at most TEXT_KEY_MAX bytes. */
bool text_is_key(const char *s, size_t n);

/* l10n_load.c: the source file, its keys, and every translation. */
bool text_load_locales(text_state *st);
void text_locale_free(text_locale *l, size_t keys);

/* l10n_table.c: each locale's table bytes, and the layout of the keys. */
uint64_t text_layout(const text_state *st);
void text_build_table(const text_state *st, text_locale *l);

/* l10n_emit.c: the typed functions' header. */
void text_emit_header(const text_state *st, out_file *o, const emit_options *opt);

extern const gen_stage text_stage;

#endif
