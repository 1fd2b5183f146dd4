/* The "content" section: an array whose items are profile objects, or strings naming JSON files
 * that hold one profile object or an array of them (paths relative to the project root).
 *
 *   content  -> '[' ( profile | "path/to/profiles.json" ),* ']'
 *   profile  -> { "profile": name, "source_root": path, "output"?: path, "categories"?: [category],
 *                 "archive"?: "none"|"packed", "max_archive_mb"?: int >= 1, "compression"?:
 *                 "none"|"lz4"|"zstd", "compression_level"?: int (lz4 1-12, zstd 1-19),
 *                 "partitioner"?: "trie"|"sequential", "names"?: "stem"|"path",
 *                 "post_build"?: command | [command] }
 *   category -> { "name": C word, "folder": path | "" }
 */
#include "content/content_config.h"

#include <threadlink/content_format.h>
#include "base/json_check.h"

#include "base/fsio.h"
#include "core/model.h"
#include "base/stamp.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <string.h>

/* A generous bound that keeps byte counts far from overflow (1 TiB). */
#define MAX_ARCHIVE_MB_LIMIT (1u << 20)

typedef json_checker reader;

void content_profile_error(const content_profile *pr, const char *key, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    char *path = key && key[0] ? xasprintf("%s%s%s", pr->key_path, pr->key_path[0] ? "." : "", key) : xstrdup(pr->key_path);
    diag_error(json_locate(pr->file, pr->text, pr->text_len, path), "%s: %s", path[0] ? path : "(top level)", message);
    free(path);
}

const char *content_codec_name(content_codec c)
{
    return c == CONTENT_CODEC_NONE ? "none" : c == CONTENT_CODEC_LZ4 ? "lz4" : "zstd";
}
const char *content_archive_name(content_archive a) { return a == CONTENT_ARCHIVE_NONE ? "none" : "packed"; }
const char *content_partitioner_name(content_partitioner p) { return p == CONTENT_PART_TRIE ? "trie" : "sequential"; }

bool content_parse_codec(const char *s, content_codec *out)
{
    if (strcmp(s, "none") == 0) *out = CONTENT_CODEC_NONE;
    else if (strcmp(s, "lz4") == 0) *out = CONTENT_CODEC_LZ4;
    else if (strcmp(s, "zstd") == 0) *out = CONTENT_CODEC_ZSTD;
    else return false;
    return true;
}

bool content_parse_archive(const char *s, content_archive *out)
{
    if (strcmp(s, "none") == 0) *out = CONTENT_ARCHIVE_NONE;
    else if (strcmp(s, "packed") == 0) *out = CONTENT_ARCHIVE_PACKED;
    else return false;
    return true;
}

static bool is_dotdot(const char *s)
{
    size_t n = strlen(s);
    return strcmp(s, "..") == 0 || strncmp(s, "../", 3) == 0 || strstr(s, "/../") || (n >= 3 && strcmp(s + n - 3, "/..") == 0);
}

/* A relative, '/'-separated path without '..'. `what` names it in messages. */
static char *read_path(reader *r, json_t *obj, const char *key, const char *path, bool allow_empty, bool refuse_trailing)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return NULL;
    char *sub = jc_key(path, key);
    char *result = NULL;
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    size_t n = s ? strlen(s) : 0;
    if (!s) jc_error(r, sub, "expected a string (a relative path), got %s", jc_type_name(v));
    else if (!s[0] && !allow_empty) jc_error(r, sub, "must not be empty");
    else if (refuse_trailing && n > 0 && (s[n - 1] == '/' || s[n - 1] == '\\'))
        jc_error(r, sub, "\"%s\" ends with a path separator; write it without one", s);
    else if (s[0] == '/' || strchr(s, '\\') || (n >= 2 && s[1] == ':'))
        jc_error(r, sub, "must be a relative path with '/' separators, got \"%s\"", s);
    else if (is_dotdot(s)) jc_error(r, sub, "must not contain '..', got \"%s\"", s);
    else result = xstrdup(s);
    free(sub);
    return result;
}

static bool c_word(const char *s)
{
    if (!((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z')) return false;
    for (const char *p = s; *p; p++)
        if (!ascii_is_word((unsigned char)*p)) return false;
    return true;
}

/* The profile name as a C word: every other byte becomes '_', and a name that does not start
 * with a letter gets a 'P' in front ("2D" -> "P2D"). */
static char *profile_word(const char *name)
{
    size_t n = tl_cf_profile_scope(name, NULL, 0);
    char *word = xmalloc(n + 1);
    tl_cf_profile_scope(name, word, n + 1);
    return word;
}

/* Folders overlap when one is the other or lies inside it; "" is the whole root. `fold`: ignoring
 * ASCII case, as a case-insensitive file system (macOS, Windows) compares names. */
static bool folders_overlap_as(const char *a, const char *b, bool fold) { return tl_cf_folders_overlap(a, b, fold); }

static bool folders_overlap(const char *a, const char *b) { return folders_overlap_as(a, b, false); }

/* Whether category `name` (folder `folder`) clashes with one declared before it in the profile:
 * the same name in any case, or overlapping folders. `at` is the category's key path. */
static bool category_clashes(reader *r, const content_profile *pr, const char *at, const char *name, const char *folder)
{
    bool clash = false;
    for (size_t k = 0; k < pr->categories.count; k++) {
        const content_category *o = &pr->categories.items[k];
        const char *key = ascii_ieq(o->name, strlen(o->name), name, strlen(name)) ? "name"
                          : folders_overlap(o->folder, folder)                    ? "folder"
                                                                                  : NULL;
        if (!key) continue;
        char *sub = jc_key(at, key);
        char *list = xstrndup(at, strrchr(at, '[') - at);
        if (key[0] == 'n') jc_error(r, sub, "category \"%s\" is already declared as %s[%zu]", name, list, k);
        else
            jc_error(r, sub, "folder \"%s\" overlaps category \"%s\" (folder \"%s\"): a file would be in two catalogs", folder,
                     o->name, o->folder);
        free(list);
        free(sub);
        clash = true;
    }
    return clash;
}

/* One of "categories": { "name": a C word, "folder": a relative path, "" for the whole root }. */
static void read_category(reader *r, json_t *c, const char *at, content_profile *pr)
{
    static const char *const allowed[] = {"name", "folder", NULL};
    if (!json_is_object(c)) {
        jc_error(r, at, "expected an object with \"name\" and \"folder\", got %s", jc_type_name(c));
        return;
    }
    jc_check_keys(r, at, c, allowed);
    const char *name = NULL;
    if (jc_require(r, c, at, "name", NULL) && jc_get_string(r, c, at, "name", NULL, &name) && !c_word(name)) {
        char *sub = jc_key(at, "name");
        jc_error(r, sub, "\"%s\" is not a category name (a letter, then letters, digits or '_')", name);
        free(sub);
        name = NULL;
    }
    jc_require(r, c, at, "folder", "\"\" for the whole source root");
    char *folder = read_path(r, c, "folder", at, true, true);
    if (name && folder) {
        /* Folders are compared without "./" prefixes. */
        const char *f = folder;
        while (strncmp(f, "./", 2) == 0) f += 2;
        if (strcmp(f, ".") == 0) f = "";
        if (!category_clashes(r, pr, at, name, f)) {
            content_category *cat = vec_push(&pr->categories);
            cat->name = xstrdup(name);
            cat->folder = xstrdup(f);
            cat->loc = json_locate(r->file, r->text, r->len, at);
        }
    }
    free(folder);
}

/* "categories": at least one; absent, one category "All" over the whole source root. */
static void read_categories(reader *r, json_t *obj, const char *path, content_profile *pr)
{
    if (!json_object_get(obj, "categories")) {
        content_category *c = vec_push(&pr->categories);
        c->name = xstrdup("All");
        c->folder = xstrdup("");
        c->loc = pr->loc;
        return;
    }
    json_t *cats = jc_get_array(r, obj, path, "categories", "an array of categories");
    char *sub = jc_key(path, "categories");
    if (cats && json_array_size(cats) == 0) jc_error(r, sub, "expected at least one category");
    size_t i;
    json_t *c;
    json_array_foreach(cats, i, c) {
        char *at = jc_index(sub, i);
        read_category(r, c, at, pr);
        free(at);
    }
    free(sub);
}

/* The longest profile name: an archive's name adds 30 bytes to it (".catalog-<16 hex>.tlpk"), its
 * domain's manifest 22 ("Content." and ".manifest.json"), and a file name holds 255. */
#define PROFILE_NAME_MAX 200

/* "profile": a name usable in file names (no path characters, control characters, "." or "..",
 * nothing Windows cannot hold in a file name, at most PROFILE_NAME_MAX bytes). */
static char *read_profile_name(reader *r, json_t *obj, const char *path)
{
    const char *ns = NULL;
    if (!jc_require(r, obj, path, "profile", "the profile's name") || !jc_get_string(r, obj, path, "profile", NULL, &ns))
        return NULL;
    char *np = jc_key(path, "profile");
    char *out = NULL;
    if (!ns[0]) jc_error(r, np, "must not be empty");
    else if (strpbrk(ns, "/\\:*?\"<>|")) {
        char bad = *strpbrk(ns, "/\\:*?\"<>|");
        jc_error(
            r, np,
            "profile name \"%s\" contains the path character '%c' (names go into file names; / \\ : * ? \" < > | are refused)",
            ns, bad);
    } else {
        bool ctrl = false;
        for (const char *p = ns; *p; p++) ctrl = ctrl || (unsigned char)*p < 0x20 || *p == 0x7f;
        /* Every archive ("<profile>.catalog-<hash>.tlpk"), the default output folder and the
         * domain's manifest are named from it: a name Windows cannot hold, or too long to fit a
         * file name with those additions, fails later (pack, a patch's plan, a Windows player). */
        const char *windows = tl_text_windows_name_problem(ns, strlen(ns));
        if (ctrl || strcmp(ns, ".") == 0 || strcmp(ns, "..") == 0)
            jc_error(r, np, "profile name \"%s\" is not usable in a file name", ns);
        else if (windows) jc_error(r, np, "profile name \"%s\" %s; archive and folder names are made from it", ns, windows);
        else if (strlen(ns) > PROFILE_NAME_MAX)
            jc_error(r, np,
                     "profile name of %zu bytes: at most %d (archive and manifest names made from it must fit a file name's 255)",
                     strlen(ns), PROFILE_NAME_MAX);
        else out = xstrdup(ns);
    }
    free(np);
    return out;
}

/* "source_root" (required) and "output" (default build/content/<profile>, one spelling). */
static void read_profile_folders(reader *r, json_t *obj, const char *path, content_profile *pr)
{
    jc_require(r, obj, path, "source_root", NULL);
    pr->source_root = read_path(r, obj, "source_root", path, false, true);
    pr->output = read_path(r, obj, "output", path, false, false);
    if (!pr->output && !json_object_get(obj, "output") && pr->name) pr->output = xasprintf("build/content/%s", pr->name);
    char *output_problem = pr->output ? path_spelling_problem(pr->output, true) : NULL;
    if (output_problem) {
        char *sub = jc_key(path, "output");
        jc_error(r, sub, "%s", output_problem);
        free(sub);
        free(output_problem);
        free(pr->output);
        pr->output = NULL;
    }
    if (pr->output) { /* "out/" and "out" are one folder */
        size_t n = strlen(pr->output);
        while (n > 1 && pr->output[n - 1] == '/') pr->output[--n] = 0;
    }
}

void content_codec_levels(content_codec c, int *lo, int *hi, int *fallback)
{
    *lo = 1;
    *hi = c == CONTENT_CODEC_LZ4 ? 12 : c == CONTENT_CODEC_ZSTD ? 19 : 0;
    *fallback = c == CONTENT_CODEC_ZSTD ? 3 : 1;
}

int content_codec_level(const content_profile *pr)
{
    int lo, hi, fallback;
    content_codec_levels(pr->compression, &lo, &hi, &fallback);
    return pr->compression_level == fallback ? 0 : pr->compression_level;
}

int content_index_level(const char *text, size_t len)
{
    json_t *root = json_loadb(text ? text : "", len, 0, NULL);
    json_t *level = json_object_get(root, "compression_level");
    int n = json_is_integer(level) ? (int)json_integer_value(level) : 0;
    json_decref(root);
    return n;
}

/* "compression_level": within the profile's codec's levels (none has none). */
static void read_profile_level(reader *r, json_t *obj, const char *path, content_profile *pr)
{
    int lo, hi, fallback;
    long long level = 0;
    content_codec_levels(pr->compression, &lo, &hi, &fallback);
    if (!json_object_get(obj, "compression_level")) return;
    if (pr->compression == CONTENT_CODEC_NONE) {
        char *key = jc_key(path, "compression_level");
        jc_error(r, key, "needs \"compression\": \"lz4\" or \"zstd\" (this profile stores its files uncompressed)");
        free(key);
        return;
    }
    if (jc_get_int(r, obj, path, "compression_level", pr->compression == CONTENT_CODEC_LZ4 ? "an lz4 level" : "a zstd level", lo,
                   hi, &level))
        pr->compression_level = (int)level;
}

/* "archive", "compression", "compression_level", "partitioner", "names", "max_archive_mb", with
 * their defaults. */
static void read_profile_build(reader *r, json_t *obj, const char *path, content_profile *pr)
{
    static const char *const archives[] = {"none", "packed", NULL};
    static const char *const codecs[] = {"none", "lz4", "zstd", NULL};
    static const char *const parts[] = {"trie", "sequential", NULL};
    static const char *const names[] = {"stem", "path", NULL};
    int v = CONTENT_ARCHIVE_PACKED;
    jc_get_enum(r, obj, path, "archive", archives, &v);
    pr->archive = (content_archive)v;
    v = CONTENT_CODEC_ZSTD;
    jc_get_enum(r, obj, path, "compression", codecs, &v);
    pr->compression = (content_codec)v;
    read_profile_level(r, obj, path, pr);
    v = CONTENT_PART_TRIE;
    jc_get_enum(r, obj, path, "partitioner", parts, &v);
    pr->partitioner = (content_partitioner)v;
    v = CONTENT_NAMES_STEM;
    jc_get_enum(r, obj, path, "names", names, &v);
    pr->names = (content_names)v;
    long long mb = 20;
    jc_get_int(r, obj, path, "max_archive_mb", "a whole number of megabytes", 1, MAX_ARCHIVE_MB_LIMIT, &mb);
    pr->max_archive_mb = (uint32_t)mb;
}

/* "post_build": a command or an array of commands, none empty. */
static void read_profile_hooks(reader *r, json_t *obj, const char *path, content_profile *pr)
{
    json_t *hooks = json_object_get(obj, "post_build");
    if (!hooks) return;
    char *hp = jc_key(path, "post_build");
    if (json_is_string(hooks)) {
        if (!json_string_value(hooks)[0]) jc_error(r, hp, "must not be empty");
        else *vec_push(&pr->post_build) = xstrdup(json_string_value(hooks));
    } else if (json_is_array(hooks)) {
        size_t i;
        json_t *h;
        json_array_foreach(hooks, i, h) {
            char *ip = xasprintf("%s[%zu]", hp, i);
            if (!json_is_string(h) || !json_string_value(h)[0])
                jc_error(r, ip, "expected a command (a non-empty string), got %s", jc_type_name(h));
            else *vec_push(&pr->post_build) = xstrdup(json_string_value(h));
            free(ip);
        }
    } else {
        jc_error(r, hp, "expected a command or an array of commands, got %s", jc_type_name(hooks));
    }
    free(hp);
}

/* The names a profile gives: its scope, domain Content.<Word> and its two headers. */
static void name_profile(content_profile *pr)
{
    char *word = profile_word(pr->name);
    pr->scope = word;
    pr->domain = xasprintf("Content.%s", word);
    char *lower = xstrdup(word);
    for (char *p = lower; *p; p++) *p = ascii_lower(*p);
    pr->header = xasprintf("content_%s.h", lower);
    pr->catalog_header = xasprintf("content_%s_catalog.h", lower);
    free(lower);
}

/* profile -> { "profile", "source_root", "output"?, "categories", "archive"?, "max_archive_mb"?,
 *              "compression"?, "compression_level"?, "partitioner"?, "names"?, "post_build"? } */
static void read_profile(reader *r, json_t *obj, const char *path, content_config *out)
{
    static const char *const allowed[] = {"profile",     "source_root",    "output",      "categories",
                                          "archive",     "max_archive_mb", "compression", "compression_level",
                                          "partitioner", "names",          "post_build",  NULL};
    if (!json_is_object(obj)) {
        jc_error(r, path, "expected a profile object (or a string naming a profile file), got %s", jc_type_name(obj));
        return;
    }
    content_profile pr;
    memset(&pr, 0, sizeof pr);
    pr.file = r->file;
    pr.text = r->text;
    pr.text_len = r->len;
    pr.key_path = xstrdup(path);
    pr.loc = json_locate(r->file, r->text, r->len, path);
    bool before = r->ok;
    r->ok = true;
    jc_check_keys(r, path, obj, allowed);
    pr.name = read_profile_name(r, obj, path);
    read_profile_folders(r, obj, path, &pr);
    read_categories(r, obj, path, &pr);
    read_profile_build(r, obj, path, &pr);
    read_profile_hooks(r, obj, path, &pr);
    if (pr.name) name_profile(&pr);
    bool good = r->ok;
    r->ok = before && good;
    *vec_push(&out->profiles) = pr;
    if (!good) out->profiles.items[out->profiles.count - 1].name = (free(pr.name), NULL); /* not selectable */
}

static bool normalise_equal_prefix(const char *a, const char *b) { return folders_overlap(a, b); }

/* "./a//b/" -> "a/b"; "." -> "". */
static char *normalise(const char *path)
{
    buf b = {0};
    buf_cstr(&b);
    const char *p = path;
    while (*p) {
        const char *end = p + strcspn(p, "/");
        size_t n = (size_t)(end - p);
        if (n && !(n == 1 && p[0] == '.')) {
            if (b.len) buf_putc(&b, '/');
            buf_put(&b, p, n);
        }
        p = *end ? end + 1 : end;
    }
    return b.data;
}

/* A folder or file the project reads or generates, which no output folder may overlap: pack
 * deletes what it did not write in its output folder. */
typedef struct reserved_path {
    char *rel;        /* as the config spells it, for messages and the textual comparison */
    char *full;       /* as reached from the working directory */
    const char *what; /* "the generated directory" */
    char *suffix;     /* " (generated_dir)", " of profile \"Art\"" */
} reserved_path;

typedef VEC(reserved_path) reserved_list;

/* `full` and `suffix` are taken over. */
static void reserve_as(reserved_list *l, const char *rel, char *full, const char *what, char *suffix)
{
    reserved_path *r = vec_push(l);
    r->rel = xstrdup(rel);
    r->full = full;
    r->what = what;
    r->suffix = suffix;
}

static void reserve(reserved_list *l, const char *root, const char *rel, const char *what, char *suffix)
{
    reserve_as(l, rel, path_join(root, rel), what, suffix);
}

static void reserve_vault_dir(reserved_list *l, const project *p, const char *key, const char *fallback, const char *what)
{
    if (!json_is_object(p->cfg.vaults)) return;
    json_t *v = json_object_get(p->cfg.vaults, key);
    if (v && !json_is_string(v)) return; /* reported by the vault stage */
    reserve(l, p->cfg.root, v ? json_string_value(v) : fallback, what, xasprintf(" (vaults.%s)", key));
}

/* Everything of the project an output folder of `pr` must keep apart from, in the order reported. */
static reserved_list reserved_paths(const content_profile *pr, const project *p, const content_config *cc)
{
    reserved_list l = {0};
    const char *root = p->cfg.root;
    size_t root_len = strlen(root);
    reserve_as(&l, path_basename(p->cfg.path), xstrdup(p->cfg.path), "the project config", xstrdup(""));
    for (size_t i = 0; cc && i < cc->files.count; i++) {
        const char *f = cc->files.items[i]; /* the root joined to the name the config gives */
        bool under_root = strcmp(root, ".") != 0 && strncmp(f, root, root_len) == 0 && f[root_len] == '/';
        reserve_as(&l, under_root ? f + root_len + 1 : f, xstrdup(f), "the profile file", xstrdup(""));
    }
    reserve(&l, root, p->cfg.generated_dir, "the generated directory", xstrdup(" (generated_dir)"));
    reserve(&l, root, p->cfg.injector_dir, "the injector directory", xstrdup(" (injector_dir)"));
    if (p->cfg.definitions_dir)
        reserve(&l, root, p->cfg.definitions_dir, "the definitions directory", xstrdup(" (definitions_dir)"));
    reserve_vault_dir(&l, p, "schemas", "vaults", "the vault schema directory");
    reserve_vault_dir(&l, p, "data", "vaultdata", "the vault data directory");
    for (size_t i = 0; cc && i < cc->profiles.count; i++) {
        const content_profile *o = &cc->profiles.items[i];
        if (o != pr && o->name && o->source_root)
            reserve(&l, root, o->source_root, "the source root", xasprintf(" of profile \"%s\"", o->name));
    }
    return l;
}

static void reserved_free(reserved_list *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->items[i].rel), free(l->items[i].full), free(l->items[i].suffix);
    vec_free(l);
}

/* How an output folder lies to a project path: first as the config spells both (neither need
 * exist yet), then through the file system (links, case-insensitive mounts). */
static fs_relation output_relation(const char *output, const char *output_full, const reserved_path *r)
{
    if (output[0] != '/') {
        char *a = normalise(output), *b = normalise(r->rel);
        size_t la = strlen(a), lb = strlen(b);
        fs_relation rel = !folders_overlap(a, b) ? FS_APART : la == lb ? FS_SAME : la > lb ? FS_INSIDE : FS_CONTAINS;
        free(a), free(b);
        if (rel != FS_APART) return rel;
    }
    return fs_relation_of(output_full, r->full);
}

static bool check_source_root(const content_profile *pr, const char *project_root)
{
    char *src = normalise(pr->source_root), *outp = normalise(pr->output);
    bool ok = true;
    /* Textually first, then through the file system (links, case-insensitive mounts). */
    bool overlap = pr->output[0] != '/' && normalise_equal_prefix(src, outp);
    if (!overlap) {
        char *sp = path_join(project_root, pr->source_root), *op = path_join(project_root, pr->output);
        overlap = fs_relation_of(op, sp) != FS_APART;
        free(sp), free(op);
    }
    if (overlap) {
        size_t ls = strlen(src), lo = strlen(outp);
        const char *how = ls == lo ? "is the source root" : lo > ls ? "is inside the source root" : "contains the source root";
        content_profile_error(pr, "output", "output folder \"%s\" %s \"%s\"; the build would read its own output", pr->output,
                              how, pr->source_root);
        ok = false;
    }
    free(src);
    free(outp);
    return ok;
}

/* The source root is not the generated directory itself: the run's own headers and manifests
 * would be assets of the next run, which then refuses to write over its inputs (a folder below
 * it, as the text stage's tables are, is fine). */
static bool check_source_not_generated(const content_profile *pr, const project *p)
{
    char *src = normalise(pr->source_root), *gen = normalise(p->cfg.generated_dir);
    bool same = strcmp(src, gen) == 0;
    if (!same) {
        char *sp = path_join(p->cfg.root, pr->source_root), *gp = path_join(p->cfg.root, p->cfg.generated_dir);
        same = fs_relation_of(sp, gp) == FS_SAME;
        free(sp), free(gp);
    }
    if (same)
        content_profile_error(
            pr, "source_root",
            "source root \"%s\" is the generated directory (generated_dir): the run's own headers would be its assets; "
            "pack a folder below it (as the text stage's tables are packed)",
            pr->source_root);
    free(src), free(gen);
    return !same;
}

/* base/rel within the system's limits, else reported at the profile's `key`. */
static bool folder_fits(const content_profile *pr, const char *key, const char *base, const char *rel)
{
    char *full = path_join(base, rel);
    const char *why = fs_path_length_problem(full, "its path");
    if (why) content_profile_error(pr, key, "%s", why);
    free(full);
    return !why;
}

/* The source root, the output folder and every category folder, each measured as pack and the
 * scan open it (joined to the project root, a category's to the source root): one the system
 * cannot hold is reported at its key, before anything is read or written, rather than at the first
 * file below it, or as missing when a parent is missing too. */
static bool profile_paths_fit(const content_profile *pr, const char *root)
{
    bool source_ok = folder_fits(pr, "source_root", root, pr->source_root);
    bool ok = folder_fits(pr, "output", root, pr->output) && source_ok;
    char *src = path_join(root, pr->source_root);
    for (size_t k = 0; source_ok && k < pr->categories.count; k++) {
        char key[64];
        snprintf(key, sizeof key, "categories[%zu].folder", k);
        ok = folder_fits(pr, key, src, pr->categories.items[k].folder) && ok;
    }
    free(src);
    return ok;
}

bool content_check_paths(const content_profile *pr, const struct project *p, const content_config *cc)
{
    if (!pr->source_root || !pr->output) return false;
    if (!profile_paths_fit(pr, p->cfg.root) || !check_source_root(pr, p->cfg.root) || !check_source_not_generated(pr, p))
        return false;
    reserved_list reserved = reserved_paths(pr, p, cc);
    char *output_full = path_join(p->cfg.root, pr->output);
    bool ok = true;
    for (size_t i = 0; i < reserved.count && ok; i++) {
        const reserved_path *r = &reserved.items[i];
        fs_relation rel = output_relation(pr->output, output_full, r);
        if (rel == FS_APART) continue;
        const char *how = rel == FS_SAME ? "is" : rel == FS_INSIDE ? "is inside" : "contains";
        content_profile_error(pr, "output", "output folder \"%s\" %s %s \"%s\"%s; %s: choose a folder of its own", pr->output,
                              how, r->what, r->rel, r->suffix,
                              rel == FS_INSIDE ? "pack's files would mix with the project's there"
                                               : "pack deletes every file there that it did not write");
        ok = false;
    }
    free(output_full);
    reserved_free(&reserved);
    return ok;
}

static void read_entry(reader *r, json_t *v, const char *path, struct project *p, content_config *out);

/* A string item names a JSON file holding one profile or an array of them. */
static void read_file_item(reader *r, const char *rel, const char *path, struct project *p, content_config *out)
{
    char *item_path = xstrdup(path);
    if (!rel[0] || rel[0] == '/' || strchr(rel, '\\') || is_dotdot(rel)) {
        jc_error(r, item_path, "a profile file must be a relative path with '/' separators and no '..', got \"%s\"", rel);
        free(item_path);
        return;
    }
    char *full = path_join(p->cfg.root, rel);
    for (size_t i = 0; i < out->files.count; i++)
        if (strcmp(out->files.items[i], full) == 0) {
            jc_error(r, item_path, "profile file \"%s\" is named twice", rel);
            free(full);
            free(item_path);
            return;
        }
    *vec_push(&p->inputs) = xstrdup(full);
    buf text = {0};
    if (!fs_read_input(full, FS_INPUT_PROFILE, &text)) {
        jc_error(r, item_path, "cannot read the profile file \"%s\": %s", rel, fs_read_failure());
        buf_free(&text);
        free(full);
        free(item_path);
        return;
    }
    hasher_add_file(p->input_hash, full, text.data, text.len);
    *vec_push(&out->files) = full;
    *vec_push(&out->texts) = text.data ? text.data : xstrdup("");
    *vec_push(&out->text_lens) = text.len;
    json_t *root = jc_load(full, text.data, text.len);
    if (!root) {
        r->ok = false;
    } else {
        reader fr = {full, out->texts.items[out->texts.count - 1], text.len, true, "(top level)", NULL};
        if (json_is_array(root)) {
            size_t i;
            json_t *v;
            json_array_foreach(root, i, v) {
                char *ip = xasprintf("[%zu]", i);
                if (json_is_string(v)) jc_error(&fr, ip, "a profile file holds profile objects, not file names");
                else read_entry(&fr, v, ip, p, out);
                free(ip);
            }
        } else {
            read_entry(&fr, root, "", p, out);
        }
        r->ok = r->ok && fr.ok;
        json_decref(root);
    }
    free(item_path);
}

static void read_entry(reader *r, json_t *v, const char *path, struct project *p, content_config *out)
{
    if (json_is_string(v)) read_file_item(r, json_string_value(v), path, p, out);
    else read_profile(r, v, path, out);
}

bool content_config_load(struct project *p, content_config *out)
{
    memset(out, 0, sizeof *out);
    json_t *content = p->cfg.content;
    if (!content) return true;
    reader r = {p->cfg.path, p->cfg.text, p->cfg.text_len, true, "(top level)", NULL};
    if (!json_is_array(content)) {
        jc_error(&r, "content", "expected an array of profiles, got %s", jc_type_name(content));
        return false;
    }
    size_t i;
    json_t *v;
    json_array_foreach(content, i, v) {
        char *path = xasprintf("content[%zu]", i);
        read_entry(&r, v, path, p, out);
        free(path);
    }
    /* Across profiles: unique names (case-insensitively; they name files), unique domains,
     * distinct output folders, and outputs apart from every source root. */
    for (size_t a = 0; a < out->profiles.count; a++) {
        content_profile *pa = &out->profiles.items[a];
        if (!pa->name) continue;
        for (size_t b = 0; b < a; b++) {
            content_profile *pb = &out->profiles.items[b];
            if (!pb->name) continue;
            if (ascii_ieq(pa->name, strlen(pa->name), pb->name, strlen(pb->name))) {
                content_profile_error(pa, "profile", "profile \"%s\" is already declared (%s:%u)", pa->name, pb->loc.file,
                                      pb->loc.line);
                r.ok = false;
            } else if (ascii_ieq(pa->domain, strlen(pa->domain), pb->domain, strlen(pb->domain))) {
                content_profile_error(pa, "profile", "profiles \"%s\" and \"%s\" would share the domain %s; rename one", pb->name,
                                      pa->name, pa->domain);
                r.ok = false;
            } else if (pa->output && pb->output) {
                char *oa = normalise(pa->output), *ob = normalise(pb->output);
                if (folders_overlap(oa, ob)) {
                    content_profile_error(pa, "output", "output folder \"%s\" overlaps the output of profile \"%s\" (\"%s\")",
                                          pa->output, pb->name, pb->output);
                    r.ok = false;
                } else if (folders_overlap_as(oa, ob, true)) {
                    /* One folder where names are compared ignoring case: one build would replace the other's. */
                    content_profile_error(pa, "output",
                                          "output folder \"%s\" overlaps the output of profile \"%s\" (\"%s\") when case is "
                                          "ignored, as on macOS and Windows; choose folders whose names differ in more than case",
                                          pa->output, pb->name, pb->output);
                    r.ok = false;
                }
                free(oa), free(ob);
            }
        }
        for (size_t d = 0; d < p->cfg.domains.count; d++) {
            const char *dn = p->cfg.domains.items[d].name;
            if (dn && ascii_ieq(dn, strlen(dn), pa->domain, strlen(pa->domain))) {
                content_profile_error(pa, "profile", "the domain of profile \"%s\", %s, is already declared in \"domains\"",
                                      pa->name, pa->domain);
                r.ok = false;
            }
        }
        if (pa->output && pa->source_root && !content_check_paths(pa, p, out)) r.ok = false;
    }
    if (!r.ok) content_config_free(out);
    return r.ok;
}

void content_config_free(content_config *c)
{
    for (size_t i = 0; i < c->profiles.count; i++) {
        content_profile *pr = &c->profiles.items[i];
        free(pr->name);
        free(pr->source_root);
        free(pr->output);
        for (size_t k = 0; k < pr->categories.count; k++) {
            free(pr->categories.items[k].name);
            free(pr->categories.items[k].folder);
        }
        vec_free(&pr->categories);
        for (size_t k = 0; k < pr->post_build.count; k++) free(pr->post_build.items[k]);
        vec_free(&pr->post_build);
        free(pr->domain);
        free(pr->scope);
        free(pr->header);
        free(pr->catalog_header);
        free(pr->key_path);
    }
    vec_free(&c->profiles);
    for (size_t i = 0; i < c->files.count; i++) free(c->files.items[i]);
    for (size_t i = 0; i < c->texts.count; i++) free(c->texts.items[i]);
    vec_free(&c->files);
    vec_free(&c->texts);
    vec_free(&c->text_lens);
    memset(c, 0, sizeof *c);
}
