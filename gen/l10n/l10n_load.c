/* The text stage's inputs: the source locale's PO file (its keys, their texts and typed
 * placeholders) and every translation in the translations folder, checked against it before
 * anything is written:
 *   - a key is a C identifier in msgctxt, once per file (case-insensitively);
 *   - the header's charset is UTF-8 and its Plural-Forms a rule the generator can evaluate
 *     (gettext's nplurals=2; plural=(n != 1) without one);
 *   - a translation's key is one of the source's (else did-you-mean), plural when the source's
 *     is, with nplurals forms; its placeholders are the source's, of their types;
 *   - an empty or fuzzy translation is missing: a warning, or an error under "missing": "error";
 *     a msgid that differs from the source's says the translation may be stale (a warning).
 * The source's own text is its msgid (and msgid_plural); its msgstr is not read. */
#include "l10n/l10n_model.h"

#include "base/fsio.h"
#include "base/stamp.h"
#include "base/suggest.h"

#include <threadlink/text.h>

#include <errno.h>
#include <string.h>

#define MISSING_SHOWN 10 /* missing translations named one by one per locale; then a count */

/* ---- files ------------------------------------------------------------------------------------- */

static bool read_po(text_state *st, text_locale *l)
{
    *vec_push(&st->p->inputs) = xstrdup(l->path);
    if (!fs_read_input(l->path, FS_INPUT_PO, &l->data)) {
        diag_error(loc_file(l->path), "cannot read the PO file: %s", fs_read_failure());
        return false;
    }
    hasher_add_file(st->p->input_hash, l->path, l->data.data ? l->data.data : "", l->data.len);
    return po_parse(l->path, l->data.data ? l->data.data : "", l->data.len, &l->po);
}

/* A locale's name: its file's stem, as the runtime accepts it (letters, digits, _ - @ .). */
static bool locale_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63 || name[0] == '.') return false;
    for (size_t i = 0; i < n; i++)
        if (!ascii_is_word((unsigned char)name[i]) && !strchr("-@.", name[i])) return false;
    return true;
}

static text_locale *add_locale(text_state *st, const char *path, bool is_source)
{
    text_locale *l = vec_push(&st->locales);
    memset(l, 0, sizeof *l);
    size_t stem;
    const char *base = path_basename(path);
    str_has_suffix(base, ".po", &stem);
    l->name = xstrndup(base, stem);
    l->path = path_join(st->p->cfg.root, path);
    l->rel = xstrdup(path);
    l->is_source = is_source;
    l->table = xasprintf("%s/%s.tltext", st->cfg.tables, l->name);
    return l;
}

/* ---- the header -------------------------------------------------------------------------------- */

typedef struct header_field {
    size_t at, len; /* the value's bytes in the header's msgstr */
} header_field;

/* The value of "Name: value" lines of the header's text (the first such line). */
static bool header_field_of(const po_string *h, const char *name, header_field *out)
{
    const char *t = h->text.data ? h->text.data : "";
    size_t n = strlen(name);
    for (const char *line = t; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
        if (strncmp(line, name, n) != 0 || line[n] != ':') continue;
        const char *v = line + n + 1;
        while (*v == ' ' || *v == '\t') v++;
        out->at = (size_t)(v - t);
        out->len = strcspn(v, "\n");
        return true;
    }
    return false;
}

typedef struct header_loc {
    const po_file *f;
    const po_string *s;
    size_t base;
} header_loc;

static src_loc header_loc_at(void *ctx, size_t offset)
{
    const header_loc *h = ctx;
    return po_string_loc(h->f, h->s, h->base + offset);
}

/* The header entry: msgid "" without msgctxt. */
static const po_entry *header_of(const po_file *f)
{
    for (size_t i = 0; i < f->entries.count; i++) {
        const po_entry *e = &f->entries.items[i];
        if (!e->ctxt.present && e->id.text.len == 0 && e->str.count) return e;
    }
    return NULL;
}

static bool check_charset(const po_file *f, const po_string *h)
{
    header_field ct;
    if (!header_field_of(h, "Content-Type", &ct)) return true;
    const char *v = h->text.data + ct.at, *cs = strstr(v, "charset=");
    if (!cs || (size_t)(cs - v) >= ct.len) return true;
    cs += 8;
    size_t n = strcspn(cs, "; \t\n");
    if ((n == 5 && ascii_ieq(cs, 5, "UTF-8", 5)) || (n == 4 && ascii_ieq(cs, 4, "UTF8", 4))) return true;
    diag_error(po_string_loc(f, h, (size_t)(cs - h->text.data)),
               "charset %.*s: threadlink reads PO files in UTF-8 (save the file as UTF-8 and say charset=UTF-8)", (int)n, cs);
    return false;
}

/* The header's charset and Plural-Forms into l->plural (gettext's default without one). */
static bool read_header(text_locale *l)
{
    const po_entry *e = header_of(&l->po);
    const po_string *h = e ? &e->str.items[0] : NULL;
    header_field pf;
    if (!h || !header_field_of(h, "Plural-Forms", &pf)) {
        plural_default(&l->plural);
        return !h || check_charset(&l->po, h);
    }
    header_loc hl = {&l->po, h, pf.at};
    bool ok = check_charset(&l->po, h);
    return plural_parse(h->text.data + pf.at, pf.len, header_loc_at, &hl, &l->plural) && ok;
}

/* ---- the source's keys ------------------------------------------------------------------------- */

static int by_folded_name(const void *a, const void *b)
{
    const text_key *x = a, *y = b;
    return tl_text_fold_compare(x->name, strlen(x->name), y->name, strlen(y->name));
}

/* The key an entry names in msgctxt, or NULL (reported). */
static const char *entry_key(const po_file *f, const po_entry *e)
{
    if (!e->ctxt.present) {
        diag_error(po_loc(f, e->start), "entry without msgctxt: each entry's msgctxt is its key (msgctxt \"Title\")");
        return NULL;
    }
    const buf *k = &e->ctxt.text;
    if (text_is_key(k->data ? k->data : "", k->len)) return k->data;
    diag_error(po_loc(f, e->ctxt.keyword),
               "msgctxt \"%.*s\" is not a key: a key is a C identifier (a letter, then letters, digits or '_'; at most %d bytes)",
               (int)(k->len < 80 ? k->len : 80), k->data ? k->data : "", TEXT_KEY_MAX);
    return NULL;
}

/* One source entry as a key: its name, placeholders and plural. */
static bool declare_key(text_state *st, const po_file *f, const po_entry *e)
{
    const char *name = entry_key(f, e);
    if (!name) return false;
    text_key *k = vec_push(&st->keys);
    memset(k, 0, sizeof *k);
    k->name = arena_strndup(&st->strings, name, strlen(name));
    k->loc = po_loc(f, e->ctxt.keyword);
    k->entry = e;
    k->plural = e->id_plural.present;
    k->count_param = UINT32_MAX;
    bool ok = text_declare_params(f, &e->id, k, &st->strings);
    if (k->plural) ok = text_declare_params(f, &e->id_plural, k, &st->strings) && ok;
    for (uint32_t i = 0; k->plural && i < k->params.count && k->count_param == UINT32_MAX; i++)
        if (k->params.items[i].type != TEXT_STR) k->count_param = i;
    if (ok && k->plural && k->count_param == UINT32_MAX) {
        diag_error(po_loc(f, e->id_plural.keyword),
                   "the plural text of %s has no integer placeholder to count: its first {name:int} (or uint) picks the form",
                   k->name);
        ok = false;
    }
    return ok;
}

/* Keys given twice (ASCII case ignored: keys are identity keys), once sorted. */
static bool check_unique_keys(text_state *st)
{
    bool ok = true;
    for (size_t i = 1; i < st->keys.count; i++) {
        const text_key *a = &st->keys.items[i - 1], *b = &st->keys.items[i];
        if (by_folded_name(a, b) != 0) continue;
        const text_key *later = a->loc.line > b->loc.line ? a : b, *first = later == a ? b : a;
        diag_error(later->loc, "key %s is declared twice (first at line %u%s)", later->name, first->loc.line,
                   strcmp(a->name, b->name) ? ", in another case: keys ignore case" : "");
        ok = false;
    }
    return ok;
}

static bool load_keys(text_state *st, const text_locale *src)
{
    bool ok = true;
    for (size_t i = 0; i < src->po.entries.count; i++) {
        const po_entry *e = &src->po.entries.items[i];
        if (e == header_of(&src->po)) continue;
        if (!declare_key(st, &src->po, e)) ok = false;
    }
    if (st->keys.count > 1) qsort(st->keys.items, st->keys.count, sizeof *st->keys.items, by_folded_name);
    return check_unique_keys(st) && ok;
}

/* ---- texts ------------------------------------------------------------------------------------- */

static void add_form(text_forms *t, const buf *b)
{
    buf *f = vec_push(&t->forms);
    memset(f, 0, sizeof *f);
    buf_put(f, b->data ? b->data : "", b->len);
    buf_fit(f);
    vec_fit(&t->forms); /* a text has one to six forms */
}

/* The source locale's texts: msgid, and msgid_plural for the second of its two forms. */
static bool source_texts(text_state *st, text_locale *l)
{
    bool ok = true;
    buf enc = {0};
    for (size_t k = 0; k < st->keys.count; k++) {
        const text_key *key = &st->keys.items[k];
        if (key->plural && l->plural.nplurals != 2) {
            diag_error(
                po_loc(&l->po, key->entry->id_plural.keyword),
                "the source text of %s has two forms (msgid, msgid_plural), but the source's Plural-Forms says nplurals=%u",
                key->name, l->plural.nplurals);
            ok = false;
            continue;
        }
        ok = text_encode(&l->po, &key->entry->id, key, &enc) && ok;
        add_form(&l->texts[k], &enc);
        if (!key->plural) continue;
        ok = text_encode(&l->po, &key->entry->id_plural, key, &enc) && ok;
        add_form(&l->texts[k], &enc);
    }
    buf_free(&enc);
    return ok;
}

static const text_key *find_key(const text_state *st, const char *name, size_t *index)
{
    text_key probe = {0};
    probe.name = name;
    const text_key *k = st->keys.count ? bsearch(&probe, st->keys.items, st->keys.count, sizeof probe, by_folded_name) : NULL;
    if (k) *index = (size_t)(k - st->keys.items);
    return k;
}

static void unknown_key(const text_state *st, const po_file *f, const po_entry *e, const char *name)
{
    const char **names = xcalloc(st->keys.count ? st->keys.count : 1, sizeof *names);
    for (size_t i = 0; i < st->keys.count; i++) names[i] = st->keys.items[i].name;
    const char *near = suggest_nearest(name, strlen(name), names, st->keys.count);
    diag_error(po_loc(f, e->ctxt.keyword), "key %s is not in the source file%s%s%s", name, near ? "; did you mean " : "",
               near ? near : "", near ? "?" : "");
    free(names);
}

/* A translation's entry fits its key: plural as the source's, with nplurals forms, all given or
 * none. Sets *missing when none is given. */
static bool entry_fits(const text_locale *l, const po_entry *e, const text_key *key, bool *missing)
{
    size_t filled = 0;
    for (size_t i = 0; i < e->str.count; i++) filled += e->str.items[i].text.len > 0;
    *missing = filled == 0 || e->fuzzy;
    if (key->plural != e->id_plural.present) {
        diag_error(po_loc(&l->po, e->id.keyword), "%s is %s in the source file: give it %s", key->name,
                   key->plural ? "plural" : "not plural",
                   key->plural ? "msgid_plural and msgstr[0], msgstr[1], ..." : "one msgstr (no msgid_plural)");
        return false;
    }
    if (key->plural && e->str.count != l->plural.nplurals) {
        diag_error(po_loc(&l->po, e->str.items[0].keyword),
                   "%s has %zu plural form%s here, but this file's Plural-Forms says nplurals=%u", key->name, e->str.count,
                   e->str.count == 1 ? "" : "s", l->plural.nplurals);
        return false;
    }
    if (filled && filled != e->str.count && !e->fuzzy) {
        diag_error(po_loc(&l->po, e->str.items[0].keyword),
                   "%s: some plural forms are empty and some are not (translate all of them, or none)", key->name);
        return false;
    }
    return true;
}

/* One translation entry into l->texts (checked; untouched when missing). */
static bool translate_entry(text_state *st, text_locale *l, const po_entry *e, buf *enc)
{
    const char *name = entry_key(&l->po, e);
    size_t k;
    if (!name) return false;
    const text_key *key = find_key(st, name, &k);
    if (!key) {
        unknown_key(st, &l->po, e, name);
        return false;
    }
    if (l->texts[k].seen) {
        diag_error(po_loc(&l->po, e->ctxt.keyword), "key %s is translated twice in this file", name);
        return false;
    }
    bool missing;
    if (!entry_fits(l, e, key, &missing)) return false;
    l->texts[k].seen = true;
    if (!e->fuzzy && e->id.text.len && strcmp(e->id.text.data, key->entry->id.text.data ? key->entry->id.text.data : "") != 0)
        diag_warning(
            po_loc(&l->po, e->id.keyword),
            "the msgid of %s differs from the source's: the source text changed since this translation (review it, then copy the new msgid)",
            name);
    bool ok = true;
    for (size_t i = 0; !missing && i < e->str.count; i++) {
        ok = text_encode(&l->po, &e->str.items[i], key, enc) && ok;
        add_form(&l->texts[k], enc);
    }
    return ok;
}

/* The locale a shorter name of l's names ("fr" for "fr_CA": cut at the last '_', '-' or '@'),
 * other than the source, or NULL. */
static const text_locale *parent_locale(const text_state *st, const text_locale *l)
{
    size_t n = strlen(l->name);
    while (n > 0) {
        n--;
        if (!strchr("_-@", l->name[n])) continue;
        for (size_t i = 0; i < st->locales.count; i++) {
            const text_locale *p = &st->locales.items[i];
            if (!p->is_source && strlen(p->name) == n && ascii_ieq(p->name, n, l->name, n)) return p;
        }
    }
    return NULL;
}

/* Whether the locale or a parent of it (fr for fr_CA) translates key k: what the runtime's
 * fallback chain shows before the source text. */
static bool translated(const text_state *st, const text_locale *l, size_t k)
{
    for (; l; l = parent_locale(st, l))
        if (l->texts && l->texts[k].forms.count) return true;
    return false;
}

/* Keys neither the locale nor its parents translate: warnings (or errors), the first few by
 * name, then a count. */
static bool report_missing(const text_state *st, const text_locale *l)
{
    size_t missing = 0;
    for (size_t k = 0; k < st->keys.count; k++) {
        if (translated(st, l, k)) continue;
        if (++missing > MISSING_SHOWN) continue;
        const char *what = "no translation of %s (the source text is shown instead)";
        if (st->cfg.missing_is_error) diag_error(loc_file(l->path), what, st->keys.items[k].name);
        else diag_warning(loc_file(l->path), what, st->keys.items[k].name);
    }
    if (missing > MISSING_SHOWN) {
        const char *what = "%zu more keys have no translation (%zu of %zu in all)";
        if (st->cfg.missing_is_error) diag_error(loc_file(l->path), what, missing - MISSING_SHOWN, missing, st->keys.count);
        else diag_warning(loc_file(l->path), what, missing - MISSING_SHOWN, missing, st->keys.count);
    }
    return !missing || !st->cfg.missing_is_error;
}

static bool translation_texts(text_state *st, text_locale *l)
{
    bool ok = true;
    buf enc = {0};
    const po_entry *header = header_of(&l->po);
    for (size_t i = 0; i < l->po.entries.count; i++)
        if (&l->po.entries.items[i] != header && !translate_entry(st, l, &l->po.entries.items[i], &enc)) ok = false;
    buf_free(&enc);
    return ok;
}

/* ---- locales ----------------------------------------------------------------------------------- */

/* Whether a file of the translations folder is a locale's: `<locale>.po`. One that looks meant to
 * be and is not is said, since its translation would otherwise vanish without a word (`de.PO`),
 * or ship as a locale no game asks for (`fr.bak.po`, a backup: a stem with a '.'). */
static bool is_translation_file(const char *folder, const char *name)
{
    size_t len = strlen(name), stem = len - 3;
    if (name[0] == '.' || len <= 3 || !ascii_ieq(name + stem, 3, ".po", 3)) return false;
    const char *why = strcmp(name + stem, ".po") != 0 ? "translations end in \".po\", in lower case"
                      : memchr(name, '.', stem) != NULL
                          ? "its stem has a '.', which no locale name has (a backup?): name it <locale>.po to ship it"
                          : NULL;
    if (why) {
        char *path = strcmp(folder, ".") == 0 ? xstrdup(name) : path_join(folder, name);
        diag_warning(loc_file(path), "ignored: %s", why);
        free(path);
    }
    return why == NULL;
}

/* Every *.po of the translations folder but the source, as locales (sorted by name). */
static bool find_translations(text_state *st)
{
    char *dir = path_join(st->p->cfg.root, st->cfg.translations);
    name_list names = {0};
    *vec_push(&st->p->inputs) = xstrdup(dir);
    bool ok = fs_list_dir(dir, &names);
    if (!ok)
        diag_error(st->cfg.loc, "text.translations: cannot list \"%s\": %s", st->cfg.translations, fs_path_failure(dir, errno));
    const char *source_base = path_basename(st->cfg.source);
    char *source_dir = path_dirname(st->cfg.source);
    bool same_dir =
        strcmp(source_dir, st->cfg.translations) == 0 || (strcmp(source_dir, ".") == 0 && strcmp(st->cfg.translations, ".") == 0);
    for (size_t i = 0; ok && i < names.count; i++) {
        if (!is_translation_file(st->cfg.translations, names.items[i])) continue;
        if (same_dir && strcmp(names.items[i], source_base) == 0) continue;
        char *rel =
            strcmp(st->cfg.translations, ".") == 0 ? xstrdup(names.items[i]) : path_join(st->cfg.translations, names.items[i]);
        add_locale(st, rel, false);
        free(rel);
    }
    free(source_dir);
    free(dir);
    name_list_free(&names);
    return ok;
}

/* Locale names usable and distinct as the runtime compares them (case and '-' vs '_'). */
static bool check_locale_names(const text_state *st)
{
    bool ok = true;
    for (size_t i = 0; i < st->locales.count; i++) {
        const text_locale *a = &st->locales.items[i];
        if (!locale_name_ok(a->name)) {
            diag_error(
                loc_file(a->path),
                "\"%s\" cannot name a locale: the file's stem names it (letters, digits, '_', '-', '@', '.'; at most 63 bytes)",
                a->name);
            ok = false;
        }
        for (size_t j = 0; j < i; j++) {
            const text_locale *b = &st->locales.items[j];
            bool same = strlen(a->name) == strlen(b->name);
            for (size_t c = 0; same && a->name[c]; c++)
                same = ascii_lower(a->name[c] == '-' ? '_' : a->name[c]) == ascii_lower(b->name[c] == '-' ? '_' : b->name[c]);
            if (same) {
                diag_error(loc_file(a->path), "locale %s is %s again (locale names ignore case, and '-' is '_')", a->name,
                           b->rel);
                ok = false;
            }
        }
    }
    return ok;
}

bool text_load_locales(text_state *st)
{
    text_locale *src = add_locale(st, st->cfg.source, true);
    if (!read_po(st, src)) return false;
    bool header_ok = read_header(src); /* the keys are checked even so: every problem in one run */
    if (!load_keys(st, src) || !header_ok) return false;
    if (!find_translations(st) || !check_locale_names(st)) return false;
    bool ok = true;
    for (size_t i = 0; i < st->locales.count; i++) {
        text_locale *l = &st->locales.items[i];
        l->texts = xcalloc(st->keys.count ? st->keys.count : 1, sizeof *l->texts);
        if (l->is_source) ok = source_texts(st, l) && ok;
        else if (read_po(st, l) && read_header(l)) ok = translation_texts(st, l) && ok;
        else ok = false;
    }
    bool read = ok;
    for (size_t i = 0; read && i < st->locales.count; i++) /* once every locale is read: parents fill gaps */
        if (!st->locales.items[i].is_source && !report_missing(st, &st->locales.items[i])) ok = false;
    return ok;
}

void text_locale_free(text_locale *l, size_t keys)
{
    for (size_t k = 0; l->texts && k < keys; k++) {
        for (size_t f = 0; f < l->texts[k].forms.count; f++) buf_free(&l->texts[k].forms.items[f]);
        vec_free(&l->texts[k].forms);
    }
    free(l->texts);
    free(l->name);
    free(l->path);
    free(l->rel);
    free(l->table);
    buf_free(&l->data);
    buf_free(&l->table_bytes);
    po_free(&l->po);
    plural_free(&l->plural);
}
