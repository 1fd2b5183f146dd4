/* Builds the model from the config and the file system:
 *   domains   <- threadlink.json "domains" + definitions/<Name>.txt
 *   sources   <- native file, definitions file, injectors/<Domain>.<Injector>.txt
 *   decls     <- each source lexed in merge order, duplicates within a scope dropped (warned) */
#include "core/model.h"
#include "core/stage.h"

#include <threadlink/content_format.h>
#include "base/fsio.h"
#include "base/json_check.h"
#include "core/event_sig.h"
#include "core/lex_injector.h"
#include "base/stamp.h"
#include "base/suggest.h"
#include "base/work_pool.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint32_t model_hash(const char *s, size_t n) { return (uint32_t)XXH3_64bits(s, n); }

/* Files shipped with threadlink, compiled into the generator by gen/embed.py. */
extern const char tlg_native_iris_events[];
extern const char tlg_native_input_modes[];

const char *tlg_shipped_file(const char *name)
{
    if (strcmp(name, "natives/Iris.Events.Native.txt") == 0) return tlg_native_iris_events;
    if (strcmp(name, "natives/Dextra.InputModes.Native.txt") == 0) return tlg_native_input_modes;
    return NULL;
}

const char *model_scope(const domain *d, const decl *dc) { return d->sources.items[dc->source].scope; }

const decl_signature *model_find_signature(const domain *d, uint32_t decl_index)
{
    size_t lo = 0, hi = d->signatures.count; /* in declaration order */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->signatures.items[mid].decl < decl_index) lo = mid + 1;
        else hi = mid;
    }
    return lo < d->signatures.count && d->signatures.items[lo].decl == decl_index ? &d->signatures.items[lo] : NULL;
}

const char *model_signature(const domain *d, uint32_t decl_index)
{
    const decl_signature *s = model_find_signature(d, decl_index);
    return s ? s->sig.text : "()";
}

src_loc model_loc(const domain *d, const decl *dc) { return loc_at(d->sources.items[dc->source].path, dc->line, dc->col); }

bool model_asset_name_plain(const char *name)
{
    if (!(((name[0] | 32) >= 'a' && (name[0] | 32) <= 'z') || name[0] == '_')) return false;
    for (const char *p = name; *p; p++)
        if (!ascii_is_word((unsigned char)*p) && *p != '/') return false;
    return true;
}

void model_asset_key(const char *scope, const char *name, buf *out)
{
    size_t n = tl_cf_asset_key(scope, name, NULL, 0);
    out->len = 0;
    buf_reserve(out, n + 1);
    tl_cf_asset_key(scope, name, out->data, n + 1);
    out->len = n;
}

void model_key(const domain *d, const decl *dc, buf *out)
{
    if (d->asset_names) model_asset_key(model_scope(d, dc), d->asset_names[dc - d->decls.items], out);
    else model_spelling_key(d, dc, out);
}

/* fold(scope) "." fold(name) into `out`. */
static void scoped_key(const char *scope, const char *name, size_t name_len, buf *out)
{
    size_t slen = strlen(scope);
    out->len = 0;
    buf_reserve(out, slen + 1 + name_len);
    char *k = out->data;
    ascii_lower_copy(k, scope, slen);
    k[slen] = '.';
    ascii_lower_copy(k + slen + 1, name, name_len);
    out->len = slen + 1 + name_len;
    k[out->len] = 0;
}

void model_spelling_key(const domain *d, const decl *dc, buf *out)
{
    scoped_key(model_scope(d, dc), dc->name, dc->name_len, out);
}

void model_rename_key(const domain *d, const decl_rename *r, buf *out)
{
    if (d->asset_names) model_asset_key(r->scope, r->name, out);
    else scoped_key(r->scope, r->name, r->name_len, out);
}

src_loc model_rename_loc(const domain *d, const decl_rename *r)
{
    return loc_at(r->file ? r->file : d->sources.items[d->decls.items[r->decl].source].path, r->line, r->col);
}

static char *derive_name(const char *domain, int mode) /* 0 as is, 1 lower, 2 upper */
{
    char *s = xstrdup(domain);
    for (char *p = s; *p; p++) {
        if (*p == '.') *p = '_';
        else if (mode == 1) *p = ascii_lower(*p);
        else if (mode == 2 && *p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
    }
    return s;
}

domain *model_add_domain(project *p, const char *name)
{
    domain *d = vec_push(&p->domains);
    memset(d, 0, sizeof *d);
    d->name = arena_strndup(&p->strings, name, strlen(name));
    d->c_name = derive_name(name, 0);
    d->lower_name = derive_name(name, 1);
    d->upper_name = derive_name(name, 2);
    return d;
}

static domain *find_domain(project *p, const char *name, size_t len)
{
    for (size_t i = 0; i < p->domains.count; i++) {
        domain *d = &p->domains.items[i];
        if (strlen(d->name) == len && memcmp(d->name, name, len) == 0) return d;
    }
    return NULL;
}

static void set_manifest_path(domain *d)
{
    char *dir = path_dirname(d->output);
    char *base = xasprintf("%s.manifest.json", d->name);
    d->manifest = path_join(dir, base);
    free(dir);
    free(base);
}

/* One source file of a domain: its path (project-relative, for reading) and its scope. */
typedef struct source {
    char *path;
    const char *scope;
    bool optional_missing_ok;
} source;

/* One source file of the domain being lexed: its text, and what its lines declare. Files are
 * lexed side by side (lex_file touches only its own lexed_file, and worker w's names go into
 * arena w); declarations go straight into the domain's array at the file's own offset (room for
 * one a line), the rest is numbered from the file's first declaration until it is merged. */
typedef struct lexed_file {
    const char *text; /* in the domain's texts, NUL after it */
    size_t text_at, text_len, lines;
    bool read; /* false: reported and skipped */
    uint32_t source;
    const char *scope;
    decl *decls; /* the file's room in d->decls.items */
    size_t decl_count;
    VEC(decl_signature) signatures;
    VEC(decl_spelling) spellings;
    VEC(decl_rename) renames;
    diag_hold diagnostics;
    bool ok;
} lexed_file;

/* Every line becomes a declaration; two declarations of one key (a duplicate) are the identity
 * stage's to find, where keys are indexed anyway. */
static void on_line(void *ctx, const injector_line *line)
{
    lexed_file *f = ctx;
    uint32_t at = (uint32_t)f->decl_count;
    if (line->signature) {
        decl_signature *s = vec_push(&f->signatures);
        s->decl = at;
        s->text = line->signature;
        s->len = line->signature_len;
        s->col = line->signature_loc.col;
    }
    if (line->spelling) *vec_push(&f->spellings) = (decl_spelling){at, line->spelling};
    if (line->rename_name) {
        const char *scope = line->rename_scope ? line->rename_scope : f->scope;
        *vec_push(&f->renames) =
            (decl_rename){at, scope, line->rename_name, line->rename_name_len, line->rename_loc.line, line->rename_loc.col, NULL};
    }
    f->decls[f->decl_count++] = (decl){line->name, line->name_len, line->loc.line, line->loc.col, f->source};
}

/* Lines in a file: an upper bound of its declarations (a plain loop the compiler vectorises: a
 * memchr call per line cost a millisecond per 100,000 lines). */
static size_t count_lines(const char *text, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    return n;
}

/* Source i's text (a shipped file's, or the file's) appended to `texts` with a NUL, where f
 * finds it; its path recorded in d->sources. */
static bool read_source(project *p, domain *d, const source *src_in, buf *texts, lexed_file *f)
{
    /* Diagnostics name files as the user reaches them from the working directory. */
    char *path = path_join(p->cfg.root, src_in->path);
    decl_source *src = vec_push(&d->sources);
    src->path = arena_strndup(&p->strings, path, strlen(path));
    src->scope = src_in->scope;
    free(path);
    f->source = (uint32_t)(d->sources.count - 1);
    f->scope = src->scope;
    if (strncmp(src_in->path, "threadlink:", 11) == 0) { /* a file shipped with threadlink (compiled in) */
        src->path = arena_strndup(&p->strings, src_in->path, strlen(src_in->path));
        const char *shipped = tlg_shipped_file(src_in->path + 11);
        if (!shipped) {
            diag_error(model_domain_loc(d, p->cfg.path),
                       "'%s' is not a file shipped with threadlink (known: threadlink:natives/Iris.Events.Native.txt, "
                       "threadlink:natives/Dextra.InputModes.Native.txt)",
                       src_in->path);
            return false;
        }
        f->text_at = texts->len;
        buf_puts(texts, shipped);
    } else {
        *vec_push(&p->inputs) = xstrdup(src->path);
        f->text_at = texts->len;
        if (!fs_append_input(src->path, FS_INPUT_ENTRIES, texts)) {
            diag_error(loc_file(src->path), "cannot read this entries file: %s", fs_read_failure());
            fs_note_case_variant(loc_file(src->path), src->path);
            return false;
        }
    }
    f->text_len = texts->len - f->text_at;
    buf_putc(texts, '\0'); /* the lexer's sentinel, kept as the next file follows */
    return true;
}

typedef struct lexing {
    const domain *d;
    lexed_file *files;
    arena *strings; /* per worker: joins the project's at the end */
} lexing;

static void lex_file(void *ctx, size_t item, unsigned worker)
{
    lexing *lx = ctx;
    lexed_file *f = &lx->files[item];
    if (!f->read) return;
    diag_hold_begin(&f->diagnostics);
    f->ok = lex_injector(lx->d->sources.items[f->source].path, f->text, f->text_len, lx->d->kind == KIND_ORDINAL,
                         worker_arena(lx->strings, worker), on_line, f);
    diag_hold_end();
}

/* Appends file f's declarations (moved down to the end of the domain's) and what refers to them. */
static void merge_file(domain *d, lexed_file *f)
{
    uint32_t base = (uint32_t)d->decls.count;
    memmove(d->decls.items + base, f->decls, f->decl_count * sizeof *f->decls);
    d->decls.count += f->decl_count;
    for (size_t i = 0; i < f->signatures.count; i++) {
        f->signatures.items[i].decl += base;
        *vec_push(&d->signatures) = f->signatures.items[i];
    }
    for (size_t i = 0; i < f->spellings.count; i++) {
        f->spellings.items[i].decl += base;
        *vec_push(&d->spellings) = f->spellings.items[i];
    }
    for (size_t i = 0; i < f->renames.count; i++) {
        f->renames.items[i].decl += base;
        *vec_push(&d->renames) = f->renames.items[i];
    }
    vec_free(&f->signatures), vec_free(&f->spellings), vec_free(&f->renames);
}

/* Bytes of injector text below which the files are lexed on one thread (a thread costs ~50 us;
 * 256 KiB take ~1.5 ms to lex). */
enum { LEX_SIDE_BY_SIDE = 256 << 10 };

/* The read files' texts into the project's input hash (the stamp's), in file order. */
static void hash_texts(project *p, const domain *d, const lexed_file *files, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (files[i].read)
            hasher_add_file(p->input_hash, d->sources.items[files[i].source].path, files[i].text, files[i].text_len);
}

/* Gives each read file its text and its room in the domain's declarations; returns how many
 * threads to lex with. */
static unsigned place_files(domain *d, const buf *texts, lexed_file *files, size_t count, unsigned jobs)
{
    size_t room = 0, bytes = 0, offset = d->decls.count;
    for (size_t i = 0; i < count; i++) {
        if (!files[i].read) continue;
        files[i].text = texts->data + files[i].text_at;
        files[i].lines = count_lines(files[i].text, files[i].text_len);
        room += files[i].lines;
    }
    if (d->decls.cap < d->decls.count + room) {
        d->decls.cap = d->decls.count + room;
        d->decls.items = xrealloc(d->decls.items, d->decls.cap * sizeof *d->decls.items);
    }
    for (size_t i = 0; i < count; i++) {
        if (!files[i].read) continue;
        files[i].decls = d->decls.items + offset;
        offset += files[i].lines;
        bytes += files[i].text_len;
    }
    if (!jobs) jobs = work_pool_cores();
    return count < 2 || bytes < LEX_SIDE_BY_SIDE ? 1 : (jobs < count ? jobs : (unsigned)count);
}

/* Reads the domain's sources in order, lexes them side by side, and merges what they declare in
 * file order (diagnostics too): the same model for any number of threads. */
static bool lex_sources(project *p, domain *d, source *sources, size_t count, unsigned max_jobs)
{
    bool ok = true;
    lexed_file *files = xcalloc(count ? count : 1, sizeof *files);
    buf texts = {0}; /* every file's, one after the other: a big project's on few huge pages */
    for (size_t i = 0; i < count; i++)
        if (!(files[i].read = read_source(p, d, &sources[i], &texts, &files[i]))) ok = false;
    unsigned jobs = place_files(d, &texts, files, count, max_jobs);
    hash_texts(p, d, files, count);
    lexing lx = {d, files, workers_arenas(jobs)};
    work_pool *pool = work_pool_start(jobs, count, lex_file, &lx, NULL, 0);
    for (size_t i = 0; i < count; i++) {
        work_pool_wait(pool, i);
        diag_release(&files[i].diagnostics);
        if (files[i].read && !files[i].ok) ok = false;
        if (files[i].read) merge_file(d, &files[i]);
    }
    work_pool_finish(pool);
    arena_adopt_workers(&p->strings, lx.strings, jobs);
    free(files);
    buf_free(&texts);
    /* Event signatures are checked now, so that a bad one stops the run before anything is written. */
    for (size_t i = 0; i < d->signatures.count; i++) {
        decl_signature *s = &d->signatures.items[i];
        const decl *dc = &d->decls.items[s->decl];
        src_loc at = model_loc(d, dc);
        at.col = s->col;
        if (!event_sig_parse(s->text, s->len, at, &s->sig)) ok = false;
    }
    return ok;
}

static bool valid_word(const char *s, size_t n)
{
    if (!n || !((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z')) return false;
    for (size_t i = 1; i < n; i++)
        if (!ascii_is_word((unsigned char)s[i])) return false;
    return true;
}

static bool ends_with_txt(const char *name) { return name[0] != '.' && str_has_suffix(name, ".txt", NULL); }

/* Whether an entries file of the listing is the domain's: "<domain>.<Injector>.txt". */
static bool domain_has_injector(const char *domain, const name_list *files)
{
    size_t n = strlen(domain);
    for (size_t i = 0; i < files->count; i++)
        if (ends_with_txt(files->items[i]) && strncmp(files->items[i], domain, n) == 0 && files->items[i][n] == '.') return true;
    return false;
}

/* Whether the domain already issued values: its manifest is in the generated directory. */
static bool domain_has_manifest(project *p, const char *name)
{
    const domain *d = find_domain(p, name, strlen(name));
    if (!d || !d->manifest || !p->cfg.generated_dir) return false;
    char *dir = path_join(p->cfg.root, p->cfg.generated_dir), *path = path_join(dir, d->manifest);
    bool found = fs_kind_follow(path) == FS_FILE;
    free(dir), free(path);
    return found;
}

/* An injector near a declared domain that has no injector and no manifest of its own: the
 * declaration is the likelier typo (renaming the one right file to match it would spread the
 * typo), so the note points at it. */
static void report_misspelt_declaration(project *p, const char *path, const char *file, size_t len, size_t domain_len,
                                        const char *near)
{
    diag_error(loc_file(path), "orphaned injector: no declared domain matches '%.*s'", (int)len, file);
    const domain *d = find_domain(p, near, strlen(near));
    src_loc at = loc_file(p->cfg.path);
    char *def = NULL;
    if (d && d->cfg) {
        char key[48];
        snprintf(key, sizeof key, "domains[%zu].name", (size_t)(d->cfg - p->cfg.domains.items));
        at = json_locate(p->cfg.path, p->cfg.text, p->cfg.text_len, key);
    } else if (p->cfg.definitions_dir) {
        char *dir = path_join(p->cfg.root, p->cfg.definitions_dir), *base = xasprintf("%s.txt", near);
        at = loc_file(def = path_join(dir, base));
        free(dir), free(base);
    }
    diag_note(at, "domain '%s' declared here; did you mean '%.*s'?", near, (int)domain_len, file);
    free(def);
}

/* An injector whose name no declared domain prefixes: a hint when it is near one. */
static void report_orphan(project *p, const char *path, const char *file, size_t len, const name_list *files)
{
    /* A misspelt domain: what comes before the injector's segment is near a declared name. */
    size_t domain_len = len;
    const char *near = NULL;
    while (domain_len > 0 && file[domain_len - 1] != '.') domain_len--;
    if (domain_len > 1) {
        const char **names = xmalloc((p->domains.count + 1) * sizeof *names);
        for (size_t i = 0; i < p->domains.count; i++) names[i] = p->domains.items[i].name;
        near = suggest_nearest(file, domain_len - 1, names, p->domains.count);
        free(names);
    }
    /* A domain with other injectors, or with values issued (its manifest), is spelt right: the
     * file is the likelier typo. */
    if (near && (domain_has_injector(near, files) || domain_has_manifest(p, near)))
        diag_error(loc_file(path), "orphaned injector: no declared domain matches '%.*s' (did you mean '%s.%.*s.txt'?)", (int)len,
                   file, near, (int)(len - domain_len), file + domain_len);
    else if (near) report_misspelt_declaration(p, path, file, len, domain_len - 1, near);
    else
        diag_error(
            loc_file(path),
            "orphaned injector: no declared domain matches '%.*s' (expected <Domain>.<Injector>.txt for one of the domains in %s)",
            (int)len, file, p->cfg.path);
}

/* An injector file name is "<Domain>.<Injector>.txt": the longest declared domain that prefixes
 * the name wins, and what follows must be one segment. */
static bool classify_injector(project *p, const char *dir_path, const char *file, const name_list *files, domain **out_domain,
                              char **out_scope)
{
    size_t len = strlen(file) - 4; /* without ".txt" */
    domain *best = NULL;
    const domain *whole = NULL; /* a domain the whole name is: the injector part is missing */
    for (size_t i = 0; i < p->domains.count; i++) {
        domain *d = &p->domains.items[i];
        size_t n = strlen(d->name);
        if (n + 1 < len && memcmp(file, d->name, n) == 0 && file[n] == '.' && (!best || n > strlen(best->name))) best = d;
        if (n == len && memcmp(file, d->name, n) == 0) whole = d;
    }
    char *path = path_join(dir_path, file);
    bool ok = false;
    if (whole && !best) {
        diag_error(
            loc_file(path),
            "injector file '%s' names the domain but no injector: expected %s.<Injector>.txt (the project's own entries go in %s.User.txt)",
            file, whole->name, whole->name);
    } else if (!best) {
        report_orphan(p, path, file, len, files);
    } else {
        const char *inj = file + strlen(best->name) + 1;
        size_t inj_len = len - strlen(best->name) - 1;
        if (memchr(inj, '.', inj_len)) {
            diag_error(loc_file(path),
                       "injector name '%.*s' has more than one segment after the domain '%s' (expected %s.<Injector>.txt)",
                       (int)inj_len, inj, best->name, best->name);
        } else if (!valid_word(inj, inj_len)) {
            diag_error(
                loc_file(path),
                "injector name '%.*s' must start with an ASCII letter and contain only ASCII letters, digits and '_' (it names the scope of its entries' keys)",
                (int)inj_len, inj);
        } else {
            *out_domain = best;
            *out_scope = xstrndup(inj, inj_len);
            ok = true;
        }
    }
    free(path);
    return ok;
}

/* Whether a file of an entries directory is read: `Combat.TXT` is not, which is said, since its
 * entries would otherwise vanish without a word. */
static bool is_entries_file(const char *dir, const char *name)
{
    if (ends_with_txt(name)) return true;
    size_t len = strlen(name);
    if (name[0] != '.' && len > 4 && ascii_ieq(name + len - 4, 4, ".txt", 4)) {
        char *path = path_join(dir, name);
        diag_warning(loc_file(path), "ignored: entries files end in \".txt\", in lower case");
        free(path);
    }
    return false;
}

/* definitions/<Name>.txt declares a domain of its own (unless the config already declares it, in
 * which case the file is that domain's list). */
static bool load_definitions(project *p, name_list *files)
{
    bool ok = true;
    const char *dir = p->cfg.definitions_dir;
    char *full = path_join(p->cfg.root, dir);
    *vec_push(&p->inputs) = xstrdup(full);
    fs_kind k = fs_kind_follow(full);
    if (k == FS_MISSING) {
        free(full);
        return true; /* config_load found it; it went away since */
    }
    if (k != FS_DIR || !fs_list_dir(full, files)) {
        diag_error(loc_file(full), "cannot read the definitions directory: %s",
                   k == FS_DIR ? strerror(errno) : "not a directory");
        free(full);
        return false;
    }
    if (!fs_check_case_distinct(full, files, ".txt")) ok = false;
    for (size_t i = 0; i < files->count; i++) {
        const char *f = files->items[i];
        if (!is_entries_file(full, f)) continue;
        char *name = xstrndup(f, strlen(f) - 4);
        if (!config_valid_domain_name(name)) {
            char *path = path_join(full, f);
            diag_error(loc_file(path),
                       "'%s' is not a domain name (dot-separated words of letters, digits and '_', each starting with a letter)",
                       name);
            free(path);
            ok = false;
        } else if (!find_domain(p, name, strlen(name))) {
            domain *d = model_add_domain(p, name);
            char *out = xasprintf("%s.h", d->lower_name);
            d->output = arena_strndup(&p->strings, out, strlen(out));
            free(out);
            d->kind = KIND_IDENTITY;
            d->from_definition = true;
            set_manifest_path(d);
        } else {
            find_domain(p, name, strlen(name))->from_definition = true;
        }
        free(name);
    }
    free(full);
    return ok;
}

/* An injector file's domain and scope, and its path relative to the project. */
typedef struct injector {
    domain *d;
    char *scope;
    char *file;
} injector;
typedef VEC(injector) injector_list;

/* Every declared domain, with its options from the config. */
static void add_config_domains(project *p)
{
    for (size_t i = 0; i < p->cfg.domains.count; i++) {
        const domain_config *c = &p->cfg.domains.items[i];
        domain *d = model_add_domain(p, c->name);
        d->cfg = c;
        d->output = c->output;
        d->kind = c->kind;
        d->reserve_zero = c->reserve_zero;
        d->shell = c->shell;
        set_manifest_path(d);
    }
}

/* The injector directory's entries files, each classified by domain and scope; the listing is
 * sorted, so "other injectors in name order" falls out of it. */
static bool list_injectors(project *p, const char *inj_dir, name_list *inj_files, injector_list *out)
{
    bool ok = true;
    fs_kind k = fs_kind_follow(inj_dir);
    if (k == FS_DIR) {
        if (!fs_list_dir(inj_dir, inj_files)) {
            diag_error(loc_file(inj_dir), "cannot read the injector directory: %s", strerror(errno));
            ok = false;
        } else if (!fs_check_case_distinct(inj_dir, inj_files, ".txt")) {
            ok = false;
        }
    } else if (k != FS_MISSING) {
        diag_error(loc_file(inj_dir), "the injector directory is not a directory");
        ok = false;
    }
    for (size_t i = 0; i < inj_files->count; i++) {
        const char *f = inj_files->items[i];
        if (!is_entries_file(inj_dir, f)) continue;
        domain *d;
        char *scope;
        if (!classify_injector(p, inj_dir, f, inj_files, &d, &scope)) {
            ok = false;
            continue;
        }
        *vec_push(out) = (injector){d, scope, path_join(p->cfg.injector_dir, f)};
    }
    return ok;
}

typedef VEC(source) source_list;

/* A domain's sources in order: its native entries (from the config or <Domain>.Native.txt), its
 * definitions file, then its User injector, then the rest. */
static bool gather_sources(project *p, domain *d, const injector_list *injectors, source_list *sources)
{
    bool ok = true;
    if (d->cfg && d->cfg->native) *vec_push(sources) = (source){.path = xstrdup(d->cfg->native), .scope = "Native"};
    if (d->from_definition) {
        char *f = xasprintf("%s.txt", d->name);
        *vec_push(sources) = (source){.path = path_join(p->cfg.definitions_dir, f), .scope = "User"};
        free(f);
    }
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < injectors->count; i++) {
            const injector *inj = &injectors->items[i];
            int rank = strcmp(inj->scope, "Native") == 0 ? 0 : strcmp(inj->scope, "User") == 0 ? 1 : 2;
            if (inj->d != d || rank != pass) continue;
            if (rank == 0 && d->cfg && d->cfg->native) {
                char *path = path_join(p->cfg.root, inj->file);
                diag_error(loc_file(path), "domain '%s' already takes its native entries from %s (\"native\" in %s)", d->name,
                           d->cfg->native, p->cfg.path);
                free(path);
                ok = false;
                continue;
            }
            *vec_push(sources) =
                (source){.path = xstrdup(inj->file), .scope = arena_strndup(&p->strings, inj->scope, strlen(inj->scope))};
        }
    return ok;
}

/* A config that failed its own checks: each stage still checks its section of it. */
static void check_stage_sections(project_config *cfg)
{
    for (size_t s = 0; tlg_stages[s]; s++)
        if (tlg_stages[s]->check_config) tlg_stages[s]->check_config(cfg);
    config_free(cfg);
}

bool model_load(const char *config_path, unsigned jobs, project *out)
{
    memset(out, 0, sizeof *out);
    if (!config_load_keeping_sections(config_path, &out->cfg)) {
        check_stage_sections(&out->cfg);
        return false;
    }
    project *p = out;
    bool ok = true;
    *vec_push(&p->inputs) = xstrdup(config_path);
    p->input_hash = hasher_new();
    p->contents_hash = hasher_new();
    buf cfg_text = {0};
    if (fs_read_input(config_path, FS_INPUT_CONFIG, &cfg_text))
        hasher_add_file(p->input_hash, config_path, cfg_text.data, cfg_text.len);
    buf_free(&cfg_text);
    add_config_domains(p);

    name_list def_files = {0}, inj_files = {0};
    if (p->cfg.definitions_dir && !load_definitions(p, &def_files)) ok = false;
    char *inj_dir = path_join(p->cfg.root, p->cfg.injector_dir);
    *vec_push(&p->inputs) = xstrdup(inj_dir);
    injector_list injectors = {0};
    if (!list_injectors(p, inj_dir, &inj_files, &injectors)) ok = false;

    for (size_t di = 0; di < p->domains.count; di++) {
        domain *d = &p->domains.items[di];
        source_list sources = {0};
        if (!gather_sources(p, d, &injectors, &sources)) ok = false;
        if (!lex_sources(p, d, sources.items, sources.count, jobs)) ok = false;
        for (size_t i = 0; i < sources.count; i++) free(sources.items[i].path);
        vec_free(&sources);
    }

    for (size_t i = 0; i < injectors.count; i++) {
        free(injectors.items[i].scope);
        free(injectors.items[i].file);
    }
    vec_free(&injectors);
    name_list_free(&def_files);
    name_list_free(&inj_files);
    free(inj_dir);
    if (!ok) model_free(p);
    return ok;
}

void model_free(project *p)
{
    for (size_t i = 0; i < p->domains.count; i++) {
        domain *d = &p->domains.items[i];
        free(d->c_name);
        free(d->lower_name);
        free(d->upper_name);
        free(d->manifest);
        vec_free(&d->decls);
        vec_free(&d->sources);
        for (size_t k = 0; k < d->signatures.count; k++) event_sig_free(&d->signatures.items[k].sig);
        vec_free(&d->signatures);
        vec_free(&d->spellings);
        vec_free(&d->renames);
        free(d->asset_names);
        free(d->asset_files);
    }
    vec_free(&p->domains);
    for (size_t i = 0; i < p->inputs.count; i++) free(p->inputs.items[i]);
    vec_free(&p->inputs);
    for (size_t i = 0; i < p->provided.count; i++) {
        free(p->provided.items[i].folder);
        free(p->provided.items[i].name);
        free(p->provided.items[i].bytes);
    }
    vec_free(&p->provided);
    config_free(&p->cfg);
    arena_free(&p->strings);
    if (p->input_hash) hasher_free(p->input_hash);
    if (p->contents_hash) hasher_free(p->contents_hash);
    memset(p, 0, sizeof *p);
}
