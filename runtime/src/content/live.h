/* ================================================================================================ */
/* The implementation: emitted by content.h's, where its internals are in scope. */
#if defined(TL_CONTENT_LIVE) && defined(TL__CONTENT_IMPLEMENTED) && \
    !defined(TL__CONTENT_LIVE_IMPLEMENTED)
#define TL__CONTENT_LIVE_IMPLEMENTED
#if defined(_WIN32)
#error \
    "threadlink/content.h: TL_CONTENT_LIVE is POSIX only for now (serve packed directories on Windows)"
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/inotify.h>
#define TL__LIVE_INOTIFY 1
#endif
/* openat2 with RESOLVE_BENEATH (Linux 5.6) opens a source file in one call where the headers
   have it and syscall() is declared (_GNU_SOURCE or _DEFAULT_SOURCE); the walk of
   tl__live_open_beneath answers whenever it refuses or is missing. */
#if defined(__linux__) && (defined(_GNU_SOURCE) || defined(_DEFAULT_SOURCE)) && \
    defined(__has_include)
#if __has_include(<linux/openat2.h>) && __has_include(<sys/syscall.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#if defined(SYS_openat2)
#define TL__LIVE_OPENAT2 1
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__LIVE_DEFAULT_BUDGET 256u
#define TL__LIVE_DEFAULT_BUDGET_US 250u
#define TL__LIVE_WHY 1024

/* What identifies a file's contents without reading it. */
typedef struct tl__live_sig {
    int64_t mtime_ns, ctime_ns;
    uint64_t size, ino;
} tl__live_sig;

/* Which folder a path names (stat's device and inode): one deleted and made again at the path,
   or reached through a link that was replaced, is another. */
typedef struct tl__live_folder {
    uint64_t dev, ino;
} tl__live_folder;

/* Per entry of a source directory (parallel to its entries). */
typedef struct tl__live_file {
    tl__live_sig sig;
    uint8_t present, in_catalog, loaded, seen;
    uint8_t dirty; /* held, and its file changed: reloaded once additions are read */
} tl__live_file;

/* One file of a scan: its path under the root, the length of its name (a prefix), its category. */
typedef struct tl__live_found {
    char *rel;
    uint32_t name_len, category;
    tl__live_sig sig;
} tl__live_found;

typedef struct tl__live_scan {
    tl__live_found *files;
    uint32_t len, cap;
    char **dirs; /* every folder walked, under the root ("" for the root) */
    tl__live_sig *dir_sigs;
    uint32_t dir_len, dir_cap, dir_sig_cap;
    char *real_root;
    const tl_content *ctx;
    /* The entries skipped (under the root), each warned about once: those the previous reads
       skipped already are not warned about again. */
    char **skipped;
    uint32_t skipped_len, skipped_cap;
    char *const *warned;
    uint32_t warned_len;
    char why[TL__LIVE_WHY];
} tl__live_scan;

struct tl__content_source {
    char *scope; /* the identity scope: the profile as a C word */
    char **category_names, **folders;
    uint32_t category_count;
    tl_cf_names names;
    bool flat, poll, rescan, busy;
    uint32_t *dirty_ids; /* the ids of the files marked dirty, in the order they were */
    uint32_t dirty, dirty_cap;
    int64_t scanned_ns; /* the wall clock when the served tree's last read began */
    uint32_t (*catalog_id)(void *user, const char *name);
    void *catalog_user;
    tl__live_file *files;
    uint32_t entry_cap;
    char **dirs;
    tl__live_sig *dir_sigs;
    uint32_t dir_len, budget, budget_us, cursor;
    int fd;          /* inotify, or -1 */
    int *wds;        /* the watch of each folder (parallel to dirs) */
    int root_wd;     /* the watch of the root itself: it moved, or a folder was made in it */
    int parent_wd;   /* the watch of the folder holding it: the root deleted, or made again */
    int root_fd;     /* the source root: every file is read beneath it */
    char *real_root; /* its real path (realpath's), for absolute links into it */
    tl__live_folder root_id; /* the folder root_fd is */
    bool root_gone;          /* no folder at the root's path: a stat per update until there is */
    uint64_t refused;        /* the last refusal logged (a hash of it), 0 after a served read */
    char **skipped;          /* the entries the reads of the tree skipped, warned about already */
    uint32_t skipped_len, skipped_cap;
    char path[4096]; /* scratch: root/rel, for the poll's stat calls without allocating */
};

/* --- small helpers --------------------------------------------------------------------------- */

static tl__live_sig tl__live_sig_of(const struct stat *st) {
    tl__live_sig s;
#if defined(__APPLE__)
    s.mtime_ns = (int64_t)st->st_mtimespec.tv_sec * 1000000000 + st->st_mtimespec.tv_nsec;
    s.ctime_ns = (int64_t)st->st_ctimespec.tv_sec * 1000000000 + st->st_ctimespec.tv_nsec;
#else
    s.mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    s.ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
#endif
    s.size = (uint64_t)st->st_size;
    s.ino = (uint64_t)st->st_ino;
    return s;
}

static bool tl__live_sig_same(const tl__live_sig *a, const tl__live_sig *b) {
    return a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns && a->size == b->size &&
           a->ino == b->ino;
}

/* The folder at path now, or false when there is nothing there. */
static bool tl__live_folder_at(const char *path, tl__live_folder *out) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    return true;
}

/* Whether path still names the folder `was` (one stat). */
static bool tl__live_folder_is(const char *path, const tl__live_folder *was) {
    tl__live_folder now;
    return tl__live_folder_at(path, &now) && now.dev == was->dev && now.ino == was->ino;
}

#ifdef TL__LIVE_INOTIFY
/* The events that say a watched folder itself went away: deleted, moved, or its watch dropped. */
#define TL__LIVE_FOLDER_GONE (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)
#endif

/* root/rel in the source's scratch buffer; NULL when too long. */
static const char *tl__live_path(tl__content_source *src, const char *root, const char *rel) {
    size_t a = strlen(root), b = strlen(rel);
    if (a + b + 2 > sizeof src->path) return NULL;
    memcpy(src->path, root, a);
    src->path[a] = '/';
    memcpy(src->path + a + 1, rel, b + 1);
    if (!b) src->path[a] = 0;
    return src->path;
}

static char *tl__live_strndup(const char *s, size_t n) {
    char *d = (char *)TL_MALLOC(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* The last component of path (trailing slashes aside), and its length. */
static const char *tl__live_base(const char *path, size_t *len) {
    size_t end = strlen(path), start;
    while (end > 1 && path[end - 1] == '/') end--;
    for (start = end; start > 0 && path[start - 1] != '/'; start--) {}
    *len = end - start;
    return path + start;
}

/* Whether `name` is path's last component. */
static bool tl__live_is_base(const char *path, const char *name) {
    size_t len;
    const char *base = tl__live_base(path, &len);
    return strlen(name) == len && memcmp(name, base, len) == 0;
}

/* The folder that holds path's last component ("." for a bare name); NULL when out of memory. */
static char *tl__live_parent(const char *path) {
    size_t len, at = (size_t)(tl__live_base(path, &len) - path);
    if (at == 0) return tl__content_strdup(".");
    while (at > 1 && path[at - 1] == '/') at--;
    return tl__live_strndup(path, at);
}

/* The scan's refusal: up to four pieces of text joined (NULL: none). */
static void tl__live_why(tl__live_scan *sc, const char *a, const char *b, const char *c,
                         const char *d) {
    snprintf(sc->why, sizeof sc->why, "%s%s%s%s", a, b ? b : "", c ? c : "", d ? d : "");
}

/* --- the walk (pack's rules: content_format.h) ------------------------------------------------- */

typedef struct tl__live_chain {
    dev_t dev;
    ino_t ino;
    const struct tl__live_chain *up;
} tl__live_chain;

static void tl__live_scan_free(tl__live_scan *sc) {
    uint32_t i;
    for (i = 0; i < sc->len; i++) TL_FREE(sc->files[i].rel);
    for (i = 0; i < sc->dir_len; i++) TL_FREE(sc->dirs[i]);
    for (i = 0; i < sc->skipped_len; i++) TL_FREE(sc->skipped[i]);
    TL_FREE(sc->files);
    TL_FREE(sc->dirs);
    TL_FREE(sc->skipped);
    TL_FREE(sc->dir_sigs);
    free(sc->real_root); /* realpath's */
    sc->files = NULL;
    sc->dirs = NULL;
    sc->dir_sigs = NULL;
    sc->real_root = NULL;
    sc->skipped = NULL;
    sc->len = sc->dir_len = sc->cap = sc->dir_cap = sc->dir_sig_cap = 0;
    sc->skipped_len = sc->skipped_cap = 0;
}

static bool tl__live_inside(const char *root, const char *path) {
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 &&
           (path[n] == '/' || path[n] == 0 || strcmp(root, "/") == 0);
}

static int tl__live_by_strcmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible entries of a folder, sorted (as pack lists them); NULL when it cannot be read. */
static char **tl__live_list(const char *dir, uint32_t *count) {
    DIR *d = opendir(dir);
    struct dirent *ent;
    char **names = NULL;
    uint32_t n = 0, cap = 0;
    if (!d) return NULL;
    while ((ent = readdir(d)) != NULL) {
        if (tl_cf_source_hidden(ent->d_name)) continue; /* also "." and ".." */
        if (!tl__content_grow((void **)&names, &cap, sizeof *names, n + 1)) break;
        if (!(names[n] = tl__content_strdup(ent->d_name))) break;
        n++;
    }
    closedir(d);
    if (!names) names = (char **)tl__content_zalloc(sizeof *names);
    if (n > 1) qsort(names, n, sizeof *names, tl__live_by_strcmp);
    *count = n;
    return names;
}

static bool tl__live_add_dir(tl__live_scan *sc, const char *rel, const struct stat *st) {
    if (!tl__content_grow((void **)&sc->dirs, &sc->dir_cap, sizeof *sc->dirs, sc->dir_len + 1) ||
        !tl__content_grow((void **)&sc->dir_sigs, &sc->dir_sig_cap, sizeof *sc->dir_sigs,
                          sc->dir_len + 1))
        return false;
    if (!(sc->dirs[sc->dir_len] = tl__content_strdup(rel))) return false;
    sc->dir_sigs[sc->dir_len++] = tl__live_sig_of(st);
    return true;
}

/* A path pack refuses: not UTF-8 text, or (flat builds) a component Windows cannot hold. */
static bool tl__live_path_refused(const tl__content_source *src, tl__live_scan *sc,
                                  const char *full, const char *rel) {
    size_t len = strlen(rel), start = 0, i;
    const char *why = tl_cf_asset_path_problem(rel, len);
    if (why) {
        tl__live_why(sc, full, ": file name contains ", why, "; asset names must be UTF-8 text");
        return true;
    }
    for (i = 0; src->flat && i <= len; i++) {
        if (i < len && rel[i] != '/') continue;
        why = tl_text_windows_name_problem(rel + start, i - start);
        if (why) {
            tl__live_why(sc, full, ": name ", why,
                         "; a flat build (\"archive\": \"none\") refuses it");
            return true;
        }
        start = i + 1;
    }
    return false;
}

static bool tl__live_add_file(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                              const char *full, const char *rel, const struct stat *st) {
    tl__live_found *f;
    if (tl__live_path_refused(src, sc, full, rel)) return false;
    if (!tl__content_grow((void **)&sc->files, &sc->cap, sizeof *sc->files, sc->len + 1)) goto oom;
    f = &sc->files[sc->len];
    if (!(f->rel = tl__content_strdup(rel))) goto oom;
    f->name_len = (uint32_t)tl_cf_asset_name_len(rel, strlen(rel), src->names);
    f->category = category;
    f->sig = tl__live_sig_of(st);
    sc->len++;
    return true;
oom:
    tl__live_why(sc, full, ": out of memory", NULL, NULL);
    return false;
}

static bool tl__live_walk(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                          const char *dir, const char *rel, const tl__live_chain *up);

/* Whether a folder is one being read already: a link to it is a loop. */
static bool tl__live_in_chain(const tl__live_chain *up, const struct stat *st) {
    const tl__live_chain *c;
    for (c = up; c; c = c->up)
        if (c->dev == st->st_dev && c->ino == st->st_ino) return true;
    return false;
}

/* A folder below the root, unless it is one being read already (a link loop). */
static bool tl__live_walk_folder(const tl__content_source *src, tl__live_scan *sc,
                                 uint32_t category, const char *full, const char *rel,
                                 const struct stat *st, const tl__live_chain *up) {
    tl__live_chain here;
    if (tl__live_in_chain(up, st)) return true;
    here.dev = st->st_dev;
    here.ino = st->st_ino;
    here.up = up;
    return tl__live_add_dir(sc, rel, st) && tl__live_walk(src, sc, category, full, rel, &here);
}

static bool tl__live_listed(char *const *names, uint32_t n, const char *name) {
    uint32_t i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

/* An entry pack skips, warned about with pack's words the first time a read of the tree meets
   it (not at every read: the tree is read again after each change). */
static void tl__live_skipped(tl__live_scan *sc, const char *full, const char *rel,
                             const char *why) {
    bool seen = tl__live_listed(sc->warned, sc->warned_len, rel);
    char *copy = tl__content_strdup(rel);
    if (copy && tl__content_grow((void **)&sc->skipped, &sc->skipped_cap, sizeof *sc->skipped,
                                 sc->skipped_len + 1))
        sc->skipped[sc->skipped_len++] = copy;
    else TL_FREE(copy); /* out of memory: warned about again next time */
    if (!seen) tl__content_log(sc->ctx, TL_CONTENT_LOG_SOURCE_SKIPPED, full, why);
}

/* A symbolic link is followed only to a folder or a regular file inside the source root. */
static bool tl__live_walk_link(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                               const char *full, const char *rel, const tl__live_chain *up) {
    struct stat st;
    char *target = realpath(full, NULL), why[TL__LIVE_WHY];
    bool ok = true;
    if (!target || stat(full, &st) != 0) {
        tl__live_skipped(sc, full, rel, "broken symbolic link skipped");
    } else if (!tl__live_inside(sc->real_root, target)) {
        snprintf(why, sizeof why,
                 "symbolic link to %s skipped: it leads out of the source root and is never "
                 "followed",
                 target);
        tl__live_skipped(sc, full, rel, why);
    } else if (S_ISDIR(st.st_mode) && tl__live_in_chain(up, &st)) {
        tl__live_skipped(sc, full, rel,
                         "symbolic link skipped: it leads back into a folder being read (a loop)");
    } else if (S_ISDIR(st.st_mode)) {
        ok = tl__live_walk_folder(src, sc, category, full, rel, &st, up);
    } else if (S_ISREG(st.st_mode)) {
        ok = tl__live_add_file(src, sc, category, full, rel, &st);
    } else {
        tl__live_skipped(sc, full, rel,
                         "symbolic link to a special file skipped (only regular files are "
                         "content)");
    }
    free(target);
    return ok;
}

static bool tl__live_walk_entry(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                                const char *full, const char *rel, const tl__live_chain *up) {
    struct stat st;
    if (lstat(full, &st) != 0) return errno == ENOENT; /* vanished meanwhile: not there */
    if (S_ISLNK(st.st_mode)) return tl__live_walk_link(src, sc, category, full, rel, up);
    if (S_ISDIR(st.st_mode)) return tl__live_walk_folder(src, sc, category, full, rel, &st, up);
    if (S_ISREG(st.st_mode)) return tl__live_add_file(src, sc, category, full, rel, &st);
    tl__live_skipped(sc, full, rel, "special file skipped (only regular files are content)");
    return true;
}

static bool tl__live_walk(const tl__content_source *src, tl__live_scan *sc, uint32_t category,
                          const char *dir, const char *rel, const tl__live_chain *up) {
    uint32_t n = 0, i;
    char **names = tl__live_list(dir, &n);
    bool ok = names != NULL;
    if (!ok) tl__live_why(sc, dir, ": cannot read the folder", NULL, NULL);
    for (i = 0; ok && i < n; i++) {
        char *full = tl__content_join(dir, names[i], NULL);
        char *sub = rel[0] ? tl__content_join(rel, names[i], NULL) : tl__content_strdup(names[i]);
        ok = full && sub ? tl__live_walk_entry(src, sc, category, full, sub, up) : false;
        if (!full || !sub) tl__live_why(sc, dir, ": out of memory", NULL, NULL);
        TL_FREE(full);
        TL_FREE(sub);
    }
    for (i = 0; i < n; i++) TL_FREE(names[i]);
    TL_FREE(names);
    return ok;
}

/* One category: its folder must be a folder inside the root. */
static bool tl__live_walk_category(const tl__content_source *src, const char *root,
                                   tl__live_scan *sc, uint32_t k) {
    const char *folder = src->folders[k];
    char *dir = folder[0] ? tl__content_join(root, folder, NULL) : tl__content_strdup(root);
    char *real = dir ? realpath(dir, NULL) : NULL;
    struct stat st;
    bool ok = false;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        tl__live_why(sc, "category folder \"", folder, "\" is not a folder under ", root);
    else if (!real || !tl__live_inside(sc->real_root, real))
        tl__live_why(sc, "category folder \"", folder, "\" leads out of the source root", NULL);
    else ok = tl__live_walk_folder(src, sc, k, dir, folder, &st, NULL);
    free(real);
    TL_FREE(dir);
    return ok;
}

static int tl__live_by_name(const void *x, const void *y) {
    const tl__live_found *a = (const tl__live_found *)x, *b = (const tl__live_found *)y;
    int c = tl_text_fold_compare(a->rel, a->name_len, b->rel, b->name_len);
    return c ? c : strcmp(a->rel, b->rel);
}

/* Two files one name: b's refusal, naming a (pack's message). */
static void tl__live_same_name(tl__live_scan *sc, const char *profile, const char *root,
                               const tl__live_found *a, const tl__live_found *b, bool normalised) {
    char name[512];
    snprintf(name, sizeof name, "%.*s\" of profile \"%s", (int)b->name_len, b->rel, profile);
    snprintf(sc->why, sizeof sc->why, "%s/%s: asset name \"%s\" is also the name of %s/%s%s", root,
             b->rel, name, root, a->rel,
             normalised ? " under Unicode normalisation (names are unique per profile, "
                          "case-insensitively and whether their letters are composed or "
                          "decomposed: U+00E9 and e + U+0301 are one letter)"
                        : " (names are unique per profile, case-insensitively)");
}

/* A scanned name with a byte above ASCII, and its key (tl_text_name_key). */
typedef struct tl__live_keyed {
    const tl__live_found *f;
    char *key;
    size_t len;
} tl__live_keyed;

static int tl__live_by_key(const void *x, const void *y) {
    const tl__live_keyed *a = (const tl__live_keyed *)x, *b = (const tl__live_keyed *)y;
    int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return strcmp(a->f->rel, b->f->rel);
}

static bool tl__live_ascii(const char *s, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

/* The scanned file (sorted by folded name) whose folded name is `key`, or NULL. */
static const tl__live_found *tl__live_folded_as(const tl__live_scan *sc, const char *key,
                                                size_t len) {
    uint32_t lo = 0, hi = sc->len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = tl_text_fold_compare(sc->files[mid].rel, sc->files[mid].name_len, key, len);
        if (c == 0) return &sc->files[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The keys of the names with a byte above ASCII, into keys (*n of them); false with sc->why when
   out of memory or when a key that is all ASCII is another file's folded name (KELVIN SIGN is K). */
static bool tl__live_keys(const char *profile, const char *root, tl__live_scan *sc,
                          tl__live_keyed *keys, uint32_t *n) {
    uint32_t i;
    for (i = 0; i < sc->len; i++) {
        const tl__live_found *f = &sc->files[i], *same;
        tl__live_keyed *k = &keys[*n];
        if (tl__live_ascii(f->rel, f->name_len)) continue;
        k->f = f;
        k->key = (char *)TL_MALLOC(TL_TEXT_NAME_KEY_MAX(f->name_len) + 1);
        if (!k->key) {
            tl__live_why(sc, root, ": out of memory", NULL, NULL);
            return false;
        }
        k->len = tl_text_name_key(f->rel, f->name_len, k->key, TL_TEXT_NAME_KEY_MAX(f->name_len));
        (*n)++;
        same = tl__live_ascii(k->key, k->len) ? tl__live_folded_as(sc, k->key, k->len) : NULL;
        if (same) {
            tl__live_same_name(sc, profile, root, same, f, true);
            return false;
        }
    }
    return true;
}

/* Two files one name under Unicode normalisation though not under the ASCII fold alone (those
   tl__live_unique refuses): "café" composed and decomposed. Only names with a byte above ASCII
   can differ so; nothing is allocated for an all-ASCII tree. */
static bool tl__live_unique_normalised(const char *profile, const char *root, tl__live_scan *sc) {
    tl__live_keyed *keys;
    uint32_t i, n = 0, count = 0;
    bool ok;
    for (i = 0; i < sc->len; i++) count += !tl__live_ascii(sc->files[i].rel, sc->files[i].name_len);
    if (!count) return true;
    keys = (tl__live_keyed *)tl__content_zalloc(count * sizeof *keys);
    if (!keys) tl__live_why(sc, root, ": out of memory", NULL, NULL);
    ok = keys && tl__live_keys(profile, root, sc, keys, &n);
    if (ok && n > 1) qsort(keys, n, sizeof *keys, tl__live_by_key);
    for (i = 1; ok && i < n; i++) {
        const tl__live_keyed *a = &keys[i - 1], *b = &keys[i];
        if (a->len != b->len || memcmp(a->key, b->key, a->len) != 0 ||
            tl_text_fold_compare(a->f->rel, a->f->name_len, b->f->rel, b->f->name_len) == 0)
            continue;
        tl__live_same_name(sc, profile, root, a->f, b->f, true);
        ok = false;
    }
    for (i = 0; keys && i < n; i++) TL_FREE(keys[i].key);
    TL_FREE(keys);
    return ok;
}

/* Two files one name, case-insensitively or under Unicode normalisation: refused, both paths
   named (pack's message). */
static bool tl__live_unique(const char *profile, const char *root, tl__live_scan *sc) {
    uint32_t i;
    if (sc->len > 1) qsort(sc->files, sc->len, sizeof *sc->files, tl__live_by_name);
    for (i = 1; i < sc->len; i++) {
        const tl__live_found *a = &sc->files[i - 1], *b = &sc->files[i];
        if (tl_text_fold_compare(a->rel, a->name_len, b->rel, b->name_len) != 0) continue;
        tl__live_same_name(sc, profile, root, a, b, false);
        return false;
    }
    return tl__live_unique_normalised(profile, root, sc);
}

/* The whole tree as pack would read it; false with sc->why when pack would refuse it. */
static bool tl__live_scan_tree(const tl__content_source *src, const char *profile, const char *root,
                               tl__live_scan *sc) {
    struct stat st;
    uint32_t k;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        tl__live_why(sc, "source root ", root,
                     errno == ENOENT ? " does not exist" : " is not a directory", NULL);
        return false;
    }
    if (!(sc->real_root = realpath(root, NULL))) {
        tl__live_why(sc, "source root ", root, " cannot be resolved", NULL);
        return false;
    }
    for (k = 0; k < src->category_count; k++)
        if (!tl__live_walk_category(src, root, sc, k)) return false;
    return tl__live_unique(profile, root, sc);
}

/* --- the served entries ---------------------------------------------------------------------- */

static tl__content_source *tl__live_of(const tl_content *ctx, uint32_t dir) {
    return ctx->dirs[dir].alive ? ctx->dirs[dir].source : NULL;
}

static tl__live_file *tl__live_file_of(const tl_content *ctx, const tl__content_entry *e) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    return &d->source->files[e - d->entries];
}

/* Entry pointers that lie in [old, old + count) now point into `now`: the id and name tables
   and every slot. */
static void tl__live_rebase(tl_content *ctx, uintptr_t old, uint32_t count,
                            tl__content_entry *now) {
    uintptr_t end = old + (uintptr_t)count * sizeof *now;
    tl_inline_iter it;
    uint32_t id, i;
    uint64_t hash;
    tl__content_entry_ptr *v;
#define TL__LIVE_MOVE(p) \
    if ((uintptr_t)(p) >= old && (uintptr_t)(p) < end) \
    (p) = now + ((uintptr_t)(p)-old) / sizeof *now
    it = tl__content_idmap_iter(ctx->ids);
    while (ctx->ids.mem && tl__content_idmap_next(ctx->ids, &it, &id, &v)) TL__LIVE_MOVE(*v);
    it = tl__content_namemap_iter(ctx->names);
    while (ctx->names.mem && tl__content_namemap_next(ctx->names, &it, &hash, &v))
        TL__LIVE_MOVE(*v);
    for (i = 0; i < ctx->slot_len; i++) TL__LIVE_MOVE(ctx->slots[i].entry);
#undef TL__LIVE_MOVE
}

/* Room for `need` entries (and their live records), moving every pointer to them. */
static bool tl__live_reserve(tl_content *ctx, tl__content_dirrec *d, uint32_t need) {
    tl__content_source *src = d->source;
    uint32_t cap = src->entry_cap ? src->entry_cap : 64, files_cap = src->entry_cap;
    tl__content_entry *grown;
    if (need <= src->entry_cap) return true;
    while (cap < need) cap *= 2;
    grown = (tl__content_entry *)tl__content_zalloc((size_t)cap * sizeof *grown);
    if (!grown || !tl__content_grow((void **)&src->files, &files_cap, sizeof *src->files, cap)) {
        TL_FREE(grown);
        return false;
    }
    if (d->entry_count) memcpy(grown, d->entries, (size_t)d->entry_count * sizeof *grown);
    tl__live_rebase(ctx, (uintptr_t)d->entries, d->entry_count, grown);
    TL_FREE(d->entries);
    d->entries = grown;
    src->entry_cap = cap;
    return true;
}

/* The catalog's id for a new name, else the value identity would issue: XXH32 of its key under
   the first seed whose value is neither 0 nor registered. */
static uint32_t tl__live_new_id(const tl_content *ctx, const tl__content_source *src,
                                const char *name, bool *in_catalog) {
    char key[1024];
    size_t n = tl_cf_asset_key(src->scope, name, key, sizeof key);
    uint32_t id = src->catalog_id ? src->catalog_id(src->catalog_user, name) : 0, seed;
    *in_catalog = id != 0 && !tl__content_entry_of(ctx, id);
    if (*in_catalog) return id;
    if (n >= sizeof key) n = sizeof key - 1;
    for (seed = 0;; seed++) {
        id = tl_cf_identity_hash(key, n, seed);
        if (id && !tl__content_entry_of(ctx, id)) return id;
    }
}

/* A new entry for a scanned file (its name and path owned by the source). */
static tl__content_entry *tl__live_add_entry(tl_content *ctx, uint32_t dir,
                                             const tl__live_found *f) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_entry *e;
    tl__live_file *lf;
    char *name = tl__live_strndup(f->rel, f->name_len), *path = tl__content_strdup(f->rel);
    bool in_catalog = false;
    uint32_t count = d->entry_count;
    if (!name || !path || !tl__live_reserve(ctx, d, count + 1) ||
        !tl__content_ids_reserve(ctx, (ctx->ids.mem ? tl__content_idmap_count(ctx->ids) : 0) + 1) ||
        !tl__content_names_reserve(
            ctx, (ctx->names.mem ? tl__content_namemap_count(ctx->names) : 0) + 1)) {
        TL_FREE(name);
        TL_FREE(path);
        return NULL;
    }
    e = &d->entries[count];
    memset(e, 0, sizeof *e);
    e->id = tl__live_new_id(ctx, d->source, name, &in_catalog);
    e->dir = dir;
    e->slot = TL__CONTENT_NONE;
    e->archive = TL__CONTENT_NONE;
    e->codec = TL_CF_CODEC_RAW;
    e->name = name;
    e->path = path;
    e->size = e->stored = f->sig.size;
    lf = &d->source->files[count];
    memset(lf, 0, sizeof *lf);
    lf->in_catalog = in_catalog;
    d->entry_count++;
    tl__content_idmap_try_add(ctx->ids, e->id, e);
    (void)tl__content_namemap_try_add(ctx->names, tl__content_name_hash(name, f->name_len),
                                      e); /* first registered answers */
    return e;
}

/* This directory's entry of a scanned file's name, or NULL. */
static tl__content_entry *tl__live_find(const tl_content *ctx, uint32_t dir,
                                        const tl__live_found *f) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_entry_ptr *p =
        ctx->names.mem
            ? tl__content_namemap_get(ctx->names, tl__content_name_hash(f->rel, f->name_len))
            : NULL;
    uint32_t i;
    if (p && (*p)->dir == dir &&
        tl_text_fold_compare((*p)->name, strlen((*p)->name), f->rel, f->name_len) == 0)
        return *p;
    if (!p) return NULL;
    for (i = 0; i < d->entry_count; i++) /* another directory answers the name: look here */
        if (tl_text_fold_compare(d->entries[i].name, strlen(d->entries[i].name), f->rel,
                                 f->name_len) == 0)
            return &d->entries[i];
    return NULL;
}

static void tl__live_reload(tl_content *ctx, uint32_t slot);

/* A scanned file that has an entry: same name, maybe another path or category, maybe new bytes. */
static bool tl__live_update_entry(tl__content_entry *e, tl__live_file *lf,
                                  const tl__live_found *f) {
    bool changed =
        !lf->present || !tl__live_sig_same(&lf->sig, &f->sig) || strcmp(e->path, f->rel) != 0;
    if (strcmp(e->path, f->rel) != 0) {
        char *path = tl__content_strdup(f->rel);
        if (path) {
            TL_FREE((void *)(uintptr_t)e->path);
            e->path = path;
        }
    }
    e->category = f->category;
    lf->sig = f->sig;
    lf->present = lf->seen = 1;
    return changed;
}

/* Reloads what is held and changed; ids of the changed entries are gathered first, since a
   reload's callbacks may add entries (which moves them). */
static void tl__live_reload_ids(tl_content *ctx, const uint32_t *ids, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, ids[i]);
        if (e && e->slot != TL__CONTENT_NONE) tl__live_reload(ctx, e->slot);
    }
}

/* Makes the directory what the scan found: known names updated, new ones added, missing ones
   marked deleted (held assets stay); then the held assets whose files changed are reloaded. */
static void tl__live_apply(tl_content *ctx, uint32_t dir, const tl__live_scan *sc) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0,
                *changed = (uint32_t *)tl__content_zalloc((size_t)(sc->len + 1) * sizeof *changed);
    for (i = 0; i < d->entry_count; i++) d->source->files[i].seen = 0;
    for (i = 0; i < sc->len; i++) {
        const tl__live_found *f = &sc->files[i];
        tl__content_entry *e = tl__live_find(ctx, dir, f);
        if (!e && (e = tl__live_add_entry(ctx, dir, f)) == NULL) {
            tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "source tree");
            continue;
        }
        d = &ctx->dirs[dir];
        if (tl__live_update_entry(e, tl__live_file_of(ctx, e), f) && changed &&
            e->slot != TL__CONTENT_NONE)
            changed[n++] = e->id;
    }
    for (i = 0; i < d->entry_count; i++)
        if (!d->source->files[i].seen) d->source->files[i].present = 0;
    tl__live_reload_ids(ctx, changed, n);
    TL_FREE(changed);
}

/* --- the root: the folder at its path --------------------------------------------------------- */

/* The root is the folder at the source's path, whichever it is now: an exporter that clears its
   output folder deletes the root and makes another. Its descriptor (every read goes beneath it)
   is checked against the path when the tree is read again and when a read fails, so a root made
   again is read from; while no folder is there, loads say the root went away. */
enum { TL__LIVE_ROOT_SAME, TL__LIVE_ROOT_NEW, TL__LIVE_ROOT_GONE };
#define TL__LIVE_ROOT_GONE_WHY \
    "its source root went away (deleted or moved; served again once a folder is at its path)"

static void tl__live_unwatch(tl__content_source *src);

/* The folder at path opened as the root: its descriptor, real path and identity; false (the
   root as it was) when there is none. */
static bool tl__live_root_open(tl__content_source *src, const char *path) {
    struct stat st;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char *real = fd >= 0 ? realpath(path, NULL) : NULL;
    if (!real || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        free(real);
        return false;
    }
    if (src->root_fd >= 0) close(src->root_fd);
    free(src->real_root); /* realpath's */
    src->root_fd = fd;
    src->real_root = real;
    src->root_id.dev = (uint64_t)st.st_dev;
    src->root_id.ino = (uint64_t)st.st_ino;
    return true;
}

/* Whether the root's descriptor is the folder at its path still (one stat): another folder there
   is opened in its place (NEW), none marks the source gone (GONE, said once; the watches of the
   folders deleted dropped). Leaving GONE or opening another root asks for the tree to be read. */
static int tl__live_root_follow(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    bool was_gone = src->root_gone;
    if (tl__live_folder_is(d->path, &src->root_id)) {
        src->root_gone = false;
        src->rescan = src->rescan || was_gone;
        if (was_gone)
            tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                            "the source root is back: served from it again");
        return TL__LIVE_ROOT_SAME;
    }
    if (!tl__live_root_open(src, d->path)) {
        src->root_gone = true;
        if (was_gone) return TL__LIVE_ROOT_GONE;
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_ROOT_GONE, d->path);
        tl__live_unwatch(src);
        return TL__LIVE_ROOT_GONE;
    }
    src->root_gone = false;
    src->rescan = true;
    tl__live_unwatch(src); /* the watches were of the folders deleted */
    tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                    "the source root is another folder now (deleted and made again?): served "
                    "from it");
    return TL__LIVE_ROOT_NEW;
}

/* --- reading and reloading ------------------------------------------------------------------- */

/* --- reading beneath the root ------------------------------------------------------------------- */

/* Every source file is read beneath the root's descriptor, never by its path: a file or folder
   swapped for a link out of the root (or for a FIFO) is refused, whenever the swap happened. A
   link inside the root is followed when it resolves beneath the root: relative targets component
   by component (".." never above the root), an absolute one only when its real path is in the
   root's. Linux: openat2 with RESOLVE_BENEATH first; the walk otherwise, and for its refusals. */
#define TL__LIVE_MAX_LINKS 40
#define TL__LIVE_OUT \
    "its path leads out of the source root through a symbolic link (links are followed only inside the root)"
#define TL__LIVE_MISSING "its file is missing or unreadable (deleted or renamed meanwhile?)"

typedef struct tl__live_beneath {
    const tl__content_source *src;
    int *fds; /* the folders walked into below the root, innermost last */
    uint32_t depth, cap;
    char *path; /* the path being walked, '/'-separated; `at` is where its unwalked rest begins */
    size_t at;
    unsigned links;
    const char *why;
} tl__live_beneath;

static int tl__live_here(const tl__live_beneath *b) {
    return b->depth ? b->fds[b->depth - 1] : b->src->root_fd;
}

static void tl__live_up(tl__live_beneath *b) { close(b->fds[--b->depth]); }

/* The next component of the path into name (empty ones and "." skipped); false at its end, and
   for one longer than any file name (why: missing; never cut to a name that may exist). */
static bool tl__live_next(tl__live_beneath *b, char *name, size_t cap) {
    for (;;) {
        const char *p = b->path + b->at;
        size_t n = strcspn(p, "/");
        if (!*p) return false;
        b->at += n + (p[n] == '/');
        if (n == 0 || (n == 1 && p[0] == '.')) continue;
        if (n >= cap) {
            b->why = TL__LIVE_MISSING;
            return false;
        }
        memcpy(name, p, n);
        name[n] = 0;
        return true;
    }
}

static bool tl__live_last(const tl__live_beneath *b) {
    const char *p = b->path + b->at;
    while (*p == '/' || (p[0] == '.' && (p[1] == '/' || !p[1]))) p++;
    return !*p;
}

/* The rest of the path becomes `target` then the rest (a link's target, spliced in). */
static bool tl__live_splice(tl__live_beneath *b, const char *target) {
    size_t t = strlen(target), r = strlen(b->path + b->at);
    char *joined = (char *)TL_MALLOC(t + r + 2);
    if (!joined) return false;
    memcpy(joined, target, t);
    joined[t] = '/';
    memcpy(joined + t + 1, b->path + b->at, r + 1);
    TL_FREE(b->path);
    b->path = joined;
    b->at = 0;
    return true;
}

/* An absolute link target: followed from the root when its real path is in the root's. */
static bool tl__live_follow_absolute(tl__live_beneath *b, const char *target) {
    char *real = realpath(target, NULL);
    size_t n = strlen(b->src->real_root);
    bool inside = real && tl__live_inside(b->src->real_root, real);
    if (inside) {
        while (b->depth) tl__live_up(b);
        inside = tl__live_splice(b, real[n] == '/' ? real + n + 1 : real + n);
        if (!inside) b->why = "out of memory";
    } else {
        b->why = real ? TL__LIVE_OUT : "its path has a broken symbolic link";
    }
    free(real);
    return inside;
}

/* `name` in the current folder, when it is a link: its target spliced in. False with why
   when it is no link (why: missing), leads out, or links too many times (a loop). */
static bool tl__live_follow(tl__live_beneath *b, const char *name) {
    char target[4096];
    struct stat st;
    ssize_t n;
    b->why = TL__LIVE_MISSING;
    if (fstatat(tl__live_here(b), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
        return false;
    n = readlinkat(tl__live_here(b), name, target, sizeof target - 1);
    if (n <= 0) return false;
    target[n] = 0;
    if (++b->links > TL__LIVE_MAX_LINKS) {
        b->why = "its path has too many symbolic links (a loop?)";
        return false;
    }
    if (target[0] == '/') return tl__live_follow_absolute(b, target);
    if (tl__live_splice(b, target)) return true;
    b->why = "out of memory";
    return false;
}

/* One step: into a folder (pushed), up (".."; never above the root), or the file (returned). */
static int tl__live_step(tl__live_beneath *b, const char *name, bool *done) {
    bool last = tl__live_last(b);
    int fd;
    *done = false;
    if (strcmp(name, "..") == 0) {
        *done = b->depth == 0;
        if (*done) b->why = TL__LIVE_OUT;
        else tl__live_up(b);
        return -1;
    }
    fd = openat(tl__live_here(b), name,
                O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
    if (fd < 0) {
        *done = !tl__live_follow(b, name);
        return -1;
    }
    *done = last;
    if (last) return fd;
    if (!tl__content_grow((void **)&b->fds, &b->cap, sizeof *b->fds, b->depth + 1)) {
        close(fd);
        b->why = "out of memory";
        *done = true;
        return -1;
    }
    b->fds[b->depth++] = fd;
    return -1;
}

/* The walk: every component opened with O_NOFOLLOW beneath the root, links resolved by hand. */
static int tl__live_walk_beneath(const tl__content_source *src, const char *rel, const char **why) {
    tl__live_beneath b;
    char name[256];
    bool done = false;
    int fd = -1;
    memset(&b, 0, sizeof b);
    b.src = src;
    b.why = TL__LIVE_MISSING;
    b.path = tl__content_strdup(rel);
    if (!b.path) b.why = "out of memory";
    while (b.path && !done && tl__live_next(&b, name, sizeof name))
        fd = tl__live_step(&b, name, &done);
    while (b.depth) tl__live_up(&b);
    TL_FREE(b.fds);
    TL_FREE(b.path);
    *why = b.why;
    return fd;
}

/* A descriptor of the regular file at rel beneath the root, or -1 with *why (a file that is not
   regular is logged, naming it). */
static int tl__live_open_beneath(tl_content *ctx, const tl__content_dirrec *d, const char *rel,
                                 const char **why) {
    struct stat st;
    int fd = -1;
#ifdef TL__LIVE_OPENAT2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    fd = (int)syscall(SYS_openat2, d->source->root_fd, rel, &how, sizeof how);
#endif
    if (fd < 0) fd = tl__live_walk_beneath(d->source, rel, why);
    if (fd < 0) return -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return fd;
    close(fd);
    *why = "its file is " TL__CONTENT_NOT_REGULAR;
    {
        char *path = tl__content_join(d->path, rel, NULL);
        tl__content_log(ctx, TL_CONTENT_LOG_NOT_A_FILE, path ? path : rel,
                        tl__content_kind_phrase((unsigned long)st.st_mode));
        TL_FREE(path);
    }
    return -1;
}

/* Reads size bytes from fd into buf (from its start); false on an error or a short read. */
static bool tl__live_read_fd(int fd, unsigned char *buf, size_t size) {
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        got += (size_t)n;
    }
    return true;
}

/* A source file's bytes as they are now, read beneath the root's descriptor. */
static unsigned char *tl__live_read_beneath(tl_content *ctx, const tl__content_entry *e,
                                            uint64_t *size, const char **why) {
    struct stat st;
    unsigned char *buf = NULL;
    int fd = tl__live_open_beneath(ctx, &ctx->dirs[e->dir], e->path, why);
    if (fd < 0) return NULL;
    *why = "read error";
    if (fstat(fd, &st) == 0) {
        *size = (uint64_t)st.st_size;
        *why = "larger than this runtime accepts";
        if (*size <= TL_CONTENT_MAX_ASSET_BYTES)
            buf = (unsigned char *)TL_MALLOC((size_t)*size + 1);
        if (buf && !tl__live_read_fd(fd, buf, (size_t)*size)) {
            TL_FREE(buf);
            buf = NULL;
            *why = "read error";
        }
    }
    close(fd);
    return buf;
}

/* A source file's bytes as they are now (its size read from the file, not the record). A read
   that fails looks at the root: made again, the file is read from the new one; gone, the load
   says so (not that the file is missing). */
static unsigned char *tl__live_read_source(tl_content *ctx, const tl__content_entry *e,
                                           uint64_t *size, const char **why) {
    const tl__content_source *src = ctx->dirs[e->dir].source;
    int root = src->root_gone ? tl__live_root_follow(ctx, e->dir) : TL__LIVE_ROOT_SAME;
    unsigned char *buf =
        root == TL__LIVE_ROOT_GONE ? NULL : tl__live_read_beneath(ctx, e, size, why);
    if (!buf && root == TL__LIVE_ROOT_SAME &&
        (root = tl__live_root_follow(ctx, e->dir)) == TL__LIVE_ROOT_NEW)
        buf = tl__live_read_beneath(ctx, e, size, why);
    if (!buf && root == TL__LIVE_ROOT_GONE) *why = TL__LIVE_ROOT_GONE_WHY;
    return buf;
}

/* A flat build's file, through the context's I/O (its size read from the file). */
static unsigned char *tl__live_read(tl_content *ctx, const tl__content_entry *e, uint64_t *size,
                                    const char **why) {
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    char *path = tl__content_join(d->path, e->path, NULL);
    bool special = false;
    void *f = path ? tl__content_open(ctx, path, size, &special) : NULL;
    unsigned char *buf = NULL;
    TL_FREE(path);
    *why = special ? "its file is " TL__CONTENT_NOT_REGULAR : TL__LIVE_MISSING;
    if (!f) return NULL;
    *why = "larger than this runtime accepts";
    if (*size <= TL_CONTENT_MAX_ASSET_BYTES) {
        buf = (unsigned char *)TL_MALLOC((size_t)*size + 1);
        *why = "read error";
        if (buf && !ctx->io.read(ctx->io.user, f, 0, buf, (size_t)*size)) {
            TL_FREE(buf);
            buf = NULL;
        }
    }
    ctx->io.close(ctx->io.user, f);
    return buf;
}

/* content.h's read of a source entry: the record takes the file's size and XXH64. */
static unsigned char *tl__content_live_read_stored(tl_content *ctx, tl__content_entry *e,
                                                   const char **why, uint64_t *hash, bool *hashed) {
    uint64_t size = 0;
    unsigned char *buf;
    if (!tl__live_file_of(ctx, e)->present) {
        *why = "its file was deleted from the source tree";
        return NULL;
    }
    buf = tl__live_read_source(ctx, e, &size, why);
    if (!buf) {
        ctx->dirs[e->dir].source->rescan = true; /* the tree changed under us: look again */
        return NULL;
    }
    e->size = e->stored = size;
    e->xxh64 = *hash = tl_hash64(buf, (size_t)size, 0);
    *hashed = true;
    tl__live_file_of(ctx, e)->loaded = 1;
    return buf;
}

/* Decodes new bytes for a slot's kind (NULL with *why on failure); takes the bytes. */
static void *tl__live_decode(tl_content *ctx, uint32_t slot, uint32_t kind, unsigned char *bytes,
                             uint64_t size, const char **why) {
    tl_content_info info;
    void *object;
    if (kind == TL__CONTENT_NONE) return bytes;
    tl__content_info(ctx, ctx->slots[slot].entry, &info);
    info.size = size;
    info.reload = true;
    ctx->in_callback++;
    object = ctx->kinds[kind].decode(ctx->kinds[kind].user, &info, bytes, (size_t)size);
    ctx->in_callback--;
    TL_FREE(bytes);
    *why = "the decoder refused it";
    return object;
}

/* The object swapped in the slot, the kind told (old, new), the old object destroyed; the
   entry's record is the caller's. */
static void tl__live_swap_object(tl_content *ctx, uint32_t slot, uint32_t kind, void *object,
                                 uint64_t size) {
    tl__content_slot *s = &ctx->slots[slot];
    tl__content_entry *e = s->entry;
    void *old = s->object;
    tl__content_map old_map = s->map;
    uint32_t old_kind = s->kind;
    tl_content_info info;
    s->object = object;
    s->map.base = NULL; /* new bytes are read, never mapped */
    s->size = size;
    s->kind = kind;
    ctx->reloads++;
    tl__content_info(ctx, e, &info);
    info.reload = true;
    tl__content_log(ctx, TL_CONTENT_LOG_RELOADED, e->name);
    ctx->in_callback++;
    if (kind != TL__CONTENT_NONE && ctx->kinds[kind].reload)
        ctx->kinds[kind].reload(ctx->kinds[kind].user, &info, old, object);
    if (old_kind == TL__CONTENT_NONE) tl__content_free_bytes(old, &old_map);
    else if (ctx->kinds[old_kind].destroy)
        ctx->kinds[old_kind].destroy(ctx->kinds[old_kind].user, &info, old);
    ctx->in_callback--;
}

/* A source or flat entry's new bytes: its record takes their size and XXH64, then the swap. */
static void tl__live_swap(tl_content *ctx, uint32_t slot, uint32_t kind, void *object,
                          uint64_t size, uint64_t hash) {
    tl__content_entry *e = ctx->slots[slot].entry;
    e->size = e->stored = size;
    e->xxh64 = hash;
    tl__live_swap_object(ctx, slot, kind, object, size);
}

/* A held, ready asset whose file changed: new bytes decoded and swapped in, or the old object
   kept (logged) when they cannot be read or decoded. Unchanged bytes (a touch) do nothing. */
static void tl__live_reload(tl_content *ctx, uint32_t slot) {
    tl__content_slot *s = &ctx->slots[slot];
    tl__content_entry *e = s->entry;
    uint64_t size = 0, hash;
    const char *why = NULL;
    uint32_t kind;
    unsigned char *bytes;
    void *object;
    if (s->state != TL__SLOT_READY || s->count == 0) return;
    bytes = tl__live_read_source(ctx, e, &size, &why);
    if (!bytes) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name, why);
        return;
    }
    hash = tl_hash64(bytes, (size_t)size, 0);
    if (hash == e->xxh64 && size == e->size) {
        TL_FREE(bytes);
        return;
    }
    kind = tl__content_kind_of(ctx, e);
    object = tl__live_decode(ctx, slot, kind, bytes, size, &why);
    if (!object) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
        return;
    }
    tl__live_swap(ctx, slot, kind, object, size, hash);
}

/* --- watching ---------------------------------------------------------------------------------- */

static void tl__live_unwatch(tl__content_source *src) {
#ifdef TL__LIVE_INOTIFY
    if (src->fd >= 0) close(src->fd);
#endif
    src->fd = src->root_wd = src->parent_wd = -1;
    TL_FREE(src->wds);
    src->wds = NULL;
}

#ifdef TL__LIVE_INOTIFY
#define TL__LIVE_FOLDER_EVENTS \
    (IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
     IN_DELETE_SELF | IN_MOVE_SELF)
/* The root's own: it moved (its path may name another folder now), or an entry was made in it
   (a category folder, back). The root as a category's folder has both. Its deletion is heard in
   the folder that holds it: the root's descriptor, open, holds back its IN_DELETE_SELF. */
#define TL__LIVE_ROOT_EVENTS (IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
#define TL__LIVE_PARENT_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

/* A watch of path into *wd: false when inotify refuses it (the watch limit, say); a folder gone
   since the tree was read is left unwatched (-1) and the tree read again. */
static bool tl__live_add_watch(tl__content_source *src, int *wd, const char *path, uint32_t mask) {
    *wd = path ? inotify_add_watch(src->fd, path, mask) : -1;
    if (*wd >= 0 || !path || (errno != ENOENT && errno != ENOTDIR)) return *wd >= 0;
    src->rescan = true;
    return true;
}
#endif

/* inotify: a watch of the root, then (with `folders`) one of each folder of the tree, renewed
   after every read of it; the poll otherwise. Without `folders` (a new root whose tree is
   refused) the root's watch says when a category folder is made in it. */
static void tl__live_watch(tl_content *ctx, tl__content_dirrec *d, bool folders) {
    tl__content_source *src = d->source;
    tl__live_unwatch(src);
#ifdef TL__LIVE_INOTIFY
    if (!src->poll) {
        uint32_t i;
        char *parent = tl__live_parent(d->path);
        bool ok;
        src->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        src->wds = (int *)tl__content_zalloc((size_t)(src->dir_len + 1) * sizeof *src->wds);
        /* The root's folder is watched where it may be (not always readable); the root must be. */
        if (src->fd >= 0 && parent)
            src->parent_wd = inotify_add_watch(src->fd, parent, TL__LIVE_PARENT_EVENTS);
        TL_FREE(parent);
        ok = src->fd >= 0 && src->wds &&
             tl__live_add_watch(src, &src->root_wd, d->path, TL__LIVE_ROOT_EVENTS);
        for (i = 0; ok && i < src->dir_len; i++) {
            src->wds[i] = -1;
            if (folders)
                ok =
                    tl__live_add_watch(src, &src->wds[i], tl__live_path(src, d->path, src->dirs[i]),
                                       TL__LIVE_FOLDER_EVENTS);
        }
        if (ok) return;
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                        "inotify is not available (watch limit?): polling instead");
        tl__live_unwatch(src);
        src->poll = true;
    }
#else
    (void)ctx;
    (void)folders;
    src->poll = true;
#endif
}

static void tl__live_take_dirs(tl__content_source *src, tl__live_scan *sc) {
    uint32_t i;
    for (i = 0; i < src->dir_len; i++) TL_FREE(src->dirs[i]);
    TL_FREE(src->dirs);
    TL_FREE(src->dir_sigs);
    src->dirs = sc->dirs;
    src->dir_sigs = sc->dir_sigs;
    src->dir_len = sc->dir_len;
    sc->dirs = NULL;
    sc->dir_sigs = NULL;
    sc->dir_len = 0;
}

/* What a read of the tree skipped, remembered as warned about: in place of the last list after
   a whole read, added to it after one that stopped at a refusal (it may not have gone on to them). */
static void tl__live_take_skipped(tl__content_source *src, tl__live_scan *sc, bool whole) {
    uint32_t i;
    if (whole) {
        for (i = 0; i < src->skipped_len; i++) TL_FREE(src->skipped[i]);
        TL_FREE(src->skipped);
        src->skipped = sc->skipped;
        src->skipped_len = sc->skipped_len;
        src->skipped_cap = sc->skipped_cap;
        sc->skipped = NULL;
        sc->skipped_len = sc->skipped_cap = 0;
        return;
    }
    for (i = 0; i < sc->skipped_len; i++) {
        if (tl__live_listed(src->skipped, src->skipped_len, sc->skipped[i]) ||
            !tl__content_grow((void **)&src->skipped, &src->skipped_cap, sizeof *src->skipped,
                              src->skipped_len + 1))
            continue;
        src->skipped[src->skipped_len++] = sc->skipped[i];
        sc->skipped[i] = NULL;
    }
}

/* Folder time stamps this close before a read of the tree may hide a file added after it: the
   add can fall in the clock tick of the folder's last change (a jiffy on Linux, a second on
   HFS+ or ext3), leaving its time stamp as it was (git's "racy" entries). */
#define TL__LIVE_RACY_NS ((int64_t)2000000000)

static int64_t tl__live_wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A read of the tree refused: logged (not again while the reason stays the one logged: the poll
   reads a refused tree at every update). A root made again whose tree is refused (its category
   folders not there yet) has its inotify watch armed for them. */
static void tl__live_refused(tl_content *ctx, uint32_t dir, const char *why) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint64_t said = tl_hash64(why, strlen(why), 0) | 1;
    if (said != src->refused)
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_REFUSED, ctx->dirs[dir].path, why);
    src->refused = said;
    if (src->fd < 0 && !src->poll) tl__live_watch(ctx, &ctx->dirs[dir], false);
}

/* The tree read again and served as it is now; a tree pack would refuse keeps the old names. */
static void tl__live_rescan(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    tl__live_scan sc;
    int64_t started = tl__live_wall_ns();
    bool whole;
    src->rescan = false;
    if (tl__live_root_follow(ctx, dir) == TL__LIVE_ROOT_GONE) return; /* read once it is back */
    memset(&sc, 0, sizeof sc);
    sc.ctx = ctx;
    sc.warned = src->skipped;
    sc.warned_len = src->skipped_len;
    src->busy = true;
    whole = tl__live_scan_tree(src, ctx->dirs[dir].profile, ctx->dirs[dir].path, &sc);
    tl__live_take_skipped(ctx->dirs[dir].source, &sc, whole);
    if (whole) {
        src->refused = 0;
        src->scanned_ns = started;
        tl__live_apply(ctx, dir, &sc);
        tl__live_take_dirs(ctx->dirs[dir].source, &sc);
        tl__live_watch(ctx, &ctx->dirs[dir], true);
    } else {
        tl__live_refused(ctx, dir, sc.why);
    }
    tl__live_scan_free(&sc);
    ctx->dirs[dir].source->busy = false;
}

/* A file whose contents may have changed: its signature compared; a held asset is marked for its
   reload, which waits until the additions of this update are read (tl__live_notice). */
static void tl__live_check_file(tl_content *ctx, uint32_t dir, uint32_t i) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    const char *path = tl__live_path(src, d->path, d->entries[i].path);
    struct stat st;
    tl__live_sig sig;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        src->rescan = true; /* gone, or no longer a file */
        return;
    }
    sig = tl__live_sig_of(&st);
    if (tl__live_sig_same(&sig, &src->files[i].sig)) return;
    src->files[i].sig = sig;
    if (d->entries[i].slot == TL__CONTENT_NONE || src->files[i].dirty) return;
    if (!tl__content_grow((void **)&src->dirty_ids, &src->dirty_cap, sizeof *src->dirty_ids,
                          src->dirty + 1)) {
        tl__content_log(ctx, TL_CONTENT_LOG_OUT_OF_MEMORY, "source reloads");
        tl__live_reload(ctx, d->entries[i].slot); /* now, then */
        return;
    }
    src->files[i].dirty = 1;
    src->dirty_ids[src->dirty++] = d->entries[i].id;
}

/* The held assets marked dirty and still in the tree, reloaded by id (a reload's callbacks may
   add entries, which moves them). */
static void tl__live_reload_dirty(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint32_t *ids = src->dirty_ids, n = src->dirty, i, kept = 0;
    if (!n) return;
    src->dirty_ids = NULL;
    src->dirty = src->dirty_cap = 0;
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, ids[i]);
        tl__live_file *lf = e && e->dir == dir ? tl__live_file_of(ctx, e) : NULL;
        if (!lf) continue;
        lf->dirty = 0;
        if (lf->present) ids[kept++] = ids[i]; /* the tree read since may have dropped it */
    }
    tl__live_reload_ids(ctx, ids, kept);
    TL_FREE(ids);
}

static void tl__live_check_dir(tl_content *ctx, uint32_t dir, uint32_t i) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    const char *path = tl__live_path(src, d->path, src->dirs[i]);
    struct stat st;
    tl__live_sig sig;
    if (!path || stat(path, &st) != 0) {
        src->rescan = true;
        return;
    }
    sig = tl__live_sig_of(&st);
    if (!tl__live_sig_same(&sig, &src->dir_sigs[i]))
        src->rescan = true; /* added, removed or renamed */
}

static int64_t tl__live_clock_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The poll: at most `budget` stat calls and `budget_us` microseconds per update (the clock read
   every 8 calls), files then folders, round after round. */
static void tl__live_poll(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    int64_t until = tl__live_clock_us() + src->budget_us;
    uint32_t k;
    for (k = 0;
         k < src->budget && !src->rescan && ((k & 7) || k == 0 || tl__live_clock_us() < until);
         k++) {
        uint32_t files = ctx->dirs[dir].entry_count, total = files + src->dir_len, c;
        if (!total) return;
        c = src->cursor++ % total;
        if (src->cursor >= total) src->cursor = 0;
        if (c >= files) tl__live_check_dir(ctx, dir, c - files);
        else if (src->files[c].present) tl__live_check_file(ctx, dir, c);
    }
}

#ifdef TL__LIVE_INOTIFY
/* The entry whose file is folder `wd`'s `name`, or NONE. */
static uint32_t tl__live_entry_at(const tl_content *ctx, uint32_t dir, int wd, const char *name) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    const tl__content_source *src = d->source;
    uint32_t f, i;
    size_t n;
    for (f = 0; f < src->dir_len && src->wds[f] != wd; f++) {}
    if (f == src->dir_len) return TL__CONTENT_NONE;
    n = strlen(src->dirs[f]);
    for (i = 0; i < d->entry_count; i++) {
        const char *p = d->entries[i].path;
        if (!d->source->files[i].present || strncmp(p, src->dirs[f], n) != 0) continue;
        if (n) {
            if (p[n] != '/') continue;
            p += n + 1;
        }
        if (strcmp(p, name) == 0) return i;
    }
    return TL__CONTENT_NONE;
}

/* One event: a write or touch of a known file checks that file; anything else (a file added,
   deleted or renamed, a folder's change, lost events) reads the tree again. */
static void tl__live_event(tl_content *ctx, uint32_t dir, const struct inotify_event *ev) {
    tl__content_source *src = ctx->dirs[dir].source;
    uint32_t i;
    if (ev->wd == src->parent_wd && ev->wd != src->root_wd) { /* the root's entry, not others */
        if (ev->len && tl__live_is_base(ctx->dirs[dir].path, ev->name)) src->rescan = true;
        return;
    }
    if (ev->len && tl_cf_source_hidden(ev->name)) return; /* editor swap files and the like */
    if (!(ev->mask & IN_ISDIR) && (ev->mask & (IN_CLOSE_WRITE | IN_ATTRIB)) && ev->len &&
        (i = tl__live_entry_at(ctx, dir, ev->wd, ev->name)) != TL__CONTENT_NONE) {
        /* Written: reloaded even when the time stamp did not move (writes within one clock tick);
           unchanged bytes are recognised by their hash. */
        if (ev->mask & IN_CLOSE_WRITE) ctx->dirs[dir].source->files[i].sig.mtime_ns--;
        tl__live_check_file(ctx, dir, i);
        return;
    }
    /* A folder's watch removed (renewed after each scan); the root's: it went away */
    if ((ev->mask & IN_IGNORED) && ev->wd != ctx->dirs[dir].source->root_wd) return;
    ctx->dirs[dir].source->rescan = true;
}

/* Every pending event; when nothing changed, one read() that finds none. */
static void tl__live_drain_events(tl_content *ctx, uint32_t dir) {
    union {
        struct inotify_event ev;
        char bytes[8192];
    } buf;
    for (;;) {
        ssize_t n = read(ctx->dirs[dir].source->fd, buf.bytes, sizeof buf.bytes);
        char *p = buf.bytes;
        if (n <= 0) return;
        while (p < buf.bytes + n) {
            struct inotify_event ev;
            memcpy(&ev, p, sizeof ev);
            if (ev.mask & IN_Q_OVERFLOW) ctx->dirs[dir].source->rescan = true;
            else tl__live_event(ctx, dir, (const struct inotify_event *)(void *)p);
            p += sizeof ev + ev.len;
        }
    }
}
#endif

/* Whether a folder of the tree may hold a file the last read of it did not see: every folder
   stat'ed, its signature changed or its time stamp racy (TL__LIVE_RACY_NS). */
static bool tl__live_folders_moved(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    tl__content_source *src = d->source;
    uint32_t i;
    for (i = 0; i < src->dir_len; i++) {
        const char *path = tl__live_path(src, d->path, src->dirs[i]);
        struct stat st;
        tl__live_sig sig;
        if (!path || stat(path, &st) != 0) return true;
        sig = tl__live_sig_of(&st);
        if (!tl__live_sig_same(&sig, &src->dir_sigs[i]) ||
            sig.mtime_ns >= src->scanned_ns - TL__LIVE_RACY_NS)
            return true;
    }
    return false;
}

/* What changed in one source directory since the last update: additions first, then reloads,
   so that a reload's decoder or callback finds a file added just before (a sprite added, then
   the level that uses it saved). inotify has queued every event by now; the poll, which may not
   have reached the new file's folder yet, stats every folder of the tree when a held file
   changed, and reads the tree again before it reloads when one moved. */
static void tl__live_notice(tl_content *ctx, uint32_t dir) {
    tl__content_source *src = ctx->dirs[dir].source;
    if (src->busy) return;
    if (src->root_gone && tl__live_root_follow(ctx, dir) == TL__LIVE_ROOT_GONE) return;
#ifdef TL__LIVE_INOTIFY
    if (src->fd >= 0) tl__live_drain_events(ctx, dir);
#endif
    if (src->poll) tl__live_poll(ctx, dir);
    if (src->poll && src->dirty && !src->rescan && tl__live_folders_moved(ctx, dir))
        src->rescan = true;
    if (ctx->dirs[dir].alive && ctx->dirs[dir].source->rescan) tl__live_rescan(ctx, dir);
    if (ctx->dirs[dir].alive) tl__live_reload_dirty(ctx, dir);
}

static void tl__live_flat_check(tl_content *ctx, uint32_t dir);
static void tl__live_packed_check(tl_content *ctx, uint32_t dir);

/* content.h's hook in tl_content_update. */
static void tl__content_live_update(tl_content *ctx) {
    uint32_t i;
    for (i = 0; i < ctx->dir_len; i++) {
        if (tl__live_of(ctx, i)) tl__live_notice(ctx, i);
        else if (ctx->dirs[i].alive && ctx->dirs[i].flat && ctx->dirs[i].packed)
            tl__live_packed_check(ctx, i);
        else if (ctx->dirs[i].alive && ctx->dirs[i].flat) tl__live_flat_check(ctx, i);
    }
}

/* Whether the folder a name would be in holds a file of that name now (one folder listed: the
   poll may not have reached it, and an add within the clock tick of the folder's last change
   leaves its time stamp as it was). */
static bool tl__live_may_exist(tl_content *ctx, uint32_t dir, const char *name) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    const char *slash = strrchr(name, '/');
    char *folder = slash ? tl__live_strndup(name, (size_t)(slash - name)) : tl__content_strdup("");
    const char *path = folder ? tl__live_path(d->source, d->path, folder) : NULL;
    uint32_t n = 0, i;
    char **names = path ? tl__live_list(path, &n) : NULL;
    bool found = false;
    for (i = 0; i < n; i++) {
        size_t len = strlen(names[i]), base = slash ? (size_t)(slash - name) + 1 : 0;
        size_t stem = tl_cf_asset_name_len(names[i], len, d->source->names);
        found =
            found || tl_text_fold_compare(names[i], stem, name + base, strlen(name + base)) == 0;
        TL_FREE(names[i]);
    }
    TL_FREE(names);
    TL_FREE(folder);
    return found;
}

/* content.h's hook for a name no directory answers: a file added since the tree was last read
   resolves now. inotify has queued its events already; the poll looks in the name's folder.
   Never from a callback. */
static tl__content_entry *tl__content_live_miss(tl_content *ctx, const char *name) {
    uint32_t i;
    bool again = false;
    if (!ctx || !name || ctx->in_callback || ctx->shutting_down) return NULL;
    for (i = 0; i < ctx->dir_len; i++) {
        tl__content_source *src = tl__live_of(ctx, i);
        if (!src || src->busy) continue;
        if (src->poll && tl__live_may_exist(ctx, i, name)) src->rescan = true;
#ifdef TL__LIVE_INOTIFY
        if (src->fd >= 0) tl__live_drain_events(ctx, i);
#endif
        if (!ctx->dirs[i].alive || !ctx->dirs[i].source->rescan) continue;
        tl__live_rescan(ctx, i);
        again = true;
    }
    return again ? tl__content_entry_named(ctx, name) : NULL;
}

static bool tl__live_ghost(const tl__content_dirrec *d, const tl__content_entry *e);
static void tl__live_unwatch_build(struct tl__live_flat *w);

/* content.h's hook before a load: why a deleted file's asset, or one the latest pack dropped,
   loads no more (a held one stays), or NULL. */
static const char *tl__content_live_deleted(const tl_content *ctx, const tl__content_entry *e) {
    const tl__content_dirrec *d = &ctx->dirs[e->dir];
    if (d->source && !tl__live_file_of(ctx, e)->present)
        return "its file was deleted from the source tree";
    if (tl__live_ghost(d, e)) return "the directory's latest pack does not have it";
    return NULL;
}

/* --- registering ---------------------------------------------------------------------------------- */

static void tl__live_source_free(tl__content_source *src) {
    uint32_t i;
    if (!src) return;
    tl__live_unwatch(src);
    if (src->root_fd >= 0) close(src->root_fd);
    free(src->real_root); /* realpath's */
    for (i = 0; i < src->category_count; i++) {
        if (src->category_names) TL_FREE(src->category_names[i]);
        if (src->folders) TL_FREE(src->folders[i]);
    }
    for (i = 0; i < src->dir_len; i++) TL_FREE(src->dirs[i]);
    for (i = 0; i < src->skipped_len; i++) TL_FREE(src->skipped[i]);
    TL_FREE(src->skipped);
    TL_FREE(src->category_names);
    TL_FREE(src->folders);
    TL_FREE(src->dirs);
    TL_FREE(src->dir_sigs);
    TL_FREE(src->files);
    TL_FREE(src->dirty_ids);
    TL_FREE(src->scope);
    TL_FREE(src);
}

/* content.h's hook in its directory free: what the source owns (names, paths, the watch). */
static void tl__content_live_free(tl_content *ctx, tl__content_dirrec *d) {
    uint32_t i;
    (void)ctx;
    if (d->flat) tl__live_unwatch_build(d->flat);
    TL_FREE(d->flat);
    d->flat = NULL;
    for (i = 0; i < d->entry_count; i++)
        if (tl__live_ghost(d, &d->entries[i])) TL_FREE((void *)(uintptr_t)d->entries[i].name);
    if (!d->source) return;
    for (i = 0; i < d->entry_count; i++) {
        TL_FREE((void *)(uintptr_t)d->entries[i].name);
        TL_FREE((void *)(uintptr_t)d->entries[i].path);
    }
    TL_FREE((void *)(uintptr_t)d->profile);
    d->profile = NULL;
    tl__live_source_free(d->source);
    d->source = NULL;
}

/* The categories copied; NULL with *why when threadlink.json would be refused for them. */
static bool tl__live_categories(tl__content_source *src, const tl_content_source_desc *desc,
                                const char **why) {
    uint32_t i, k;
    src->category_count = desc->category_count;
    src->category_names = (char **)tl__content_zalloc(desc->category_count * sizeof(char *));
    src->folders = (char **)tl__content_zalloc(desc->category_count * sizeof(char *));
    *why = "out of memory";
    if (!src->category_names || !src->folders) return false;
    for (i = 0; i < desc->category_count; i++) {
        const tl_content_source_category *c = &desc->categories[i];
        *why = "a category without a name or folder (\"\" is the whole root)";
        if (!c->name || !c->name[0] || !c->folder) return false;
        *why = "two categories overlap: a file would be in two catalogs";
        for (k = 0; k < i; k++)
            if (tl_cf_folders_overlap(desc->categories[k].folder, c->folder, false)) return false;
        src->category_names[i] = tl__content_strdup(c->name);
        src->folders[i] = tl__content_strdup(c->folder);
        *why = "out of memory";
        if (!src->category_names[i] || !src->folders[i]) return false;
    }
    return true;
}

static tl__content_source *
tl__live_source_new(const char *profile, const tl_content_source_desc *desc, const char **why) {
    tl__content_source *src = (tl__content_source *)tl__content_zalloc(sizeof *src);
    size_t n = tl_cf_profile_scope(profile, NULL, 0);
    if (!src) return NULL;
    src->fd = src->root_fd = src->root_wd = src->parent_wd = -1;
    src->names = desc->names_path ? TL_CF_NAMES_PATH : TL_CF_NAMES_STEM;
    src->flat = desc->flat;
    src->catalog_id = desc->catalog_id;
    src->catalog_user = desc->catalog_user;
    src->poll = desc->watch == TL_CONTENT_WATCH_POLL;
    src->budget = desc->poll_budget ? desc->poll_budget : TL__LIVE_DEFAULT_BUDGET;
    src->budget_us = desc->poll_budget_us ? desc->poll_budget_us : TL__LIVE_DEFAULT_BUDGET_US;
    src->scope = (char *)TL_MALLOC(n + 1);
    if (src->scope) tl_cf_profile_scope(profile, src->scope, n + 1);
    if (src->scope && tl__live_categories(src, desc, why)) return src;
    if (!src->scope) *why = "out of memory";
    tl__live_source_free(src);
    return NULL;
}

/* An empty directory record for the source, installed by content.h's tl__content_dir_add. */
static bool tl__live_record(tl__content_dirrec *d, tl__content_source *src, const char *profile,
                            const char *root) {
    uint32_t i;
    memset(d, 0, sizeof *d);
    d->path = tl__content_strdup(root);
    d->profile = tl__content_strdup(profile);
    d->categories = (const char **)tl__content_zalloc(src->category_count * sizeof(char *));
    d->category_count = src->category_count;
    d->source = src;
    for (i = 0; d->categories && i < src->category_count; i++)
        d->categories[i] = src->category_names[i];
    return d->path && d->profile && d->categories;
}

static tl_content_dir tl__live_register(tl_content *ctx, const char *profile, const char *root,
                                        tl__content_source *src) {
    tl__content_dirrec d;
    tl__live_scan sc;
    tl_content_dir dir;
    bool ok;
    memset(&sc, 0, sizeof sc);
    sc.ctx = ctx;
    ok = tl__live_record(&d, src, profile, root);
    src->scanned_ns = tl__live_wall_ns();
    if (ok && !tl__live_scan_tree(src, profile, root, &sc)) ok = false;
    if (ok && !tl__live_root_open(src, root)) {
        tl__live_why(&sc, "source root ", root, " cannot be opened", NULL);
        ok = false;
    }
    dir = tl__content_dir_add(ctx, &d, root, ok,
                              ok          ? NULL
                              : sc.why[0] ? sc.why
                                          : "out of memory",
                              NULL);
    if (dir.ctx) {
        tl__live_apply(ctx, dir.index, &sc);
        tl__live_take_dirs(ctx->dirs[dir.index].source, &sc);
        tl__live_take_skipped(ctx->dirs[dir.index].source, &sc, true);
        tl__live_watch(ctx, &ctx->dirs[dir.index], true);
    }
    tl__live_scan_free(&sc);
    return dir;
}

tl_content_dir tl_content_register_source(tl_content *ctx, const char *profile,
                                          const char *source_root,
                                          const tl_content_source_desc *desc) {
    tl_content_dir none;
    tl__content_source *src;
    const char *why = "out of memory";
    memset(&none, 0, sizeof none);
    if (!ctx || !profile || !tl_text_portable_file_name(profile, strlen(profile)) || !source_root ||
        !source_root[0] || !desc || !desc->categories || !desc->category_count) {
        tl__content_log(ctx, TL_CONTENT_LOG_INVALID_ARGUMENT, "tl_content_register_source");
        tl__content_fail(ctx, TL_CONTENT_INVALID_ARGUMENT);
        return none;
    }
    if (ctx->in_callback) {
        tl__content_log(ctx, TL_CONTENT_LOG_CALLBACK_REFUSED, "tl_content_register_source");
        tl__content_fail(ctx, TL_CONTENT_CALLBACK_REFUSED);
        return none;
    }
    src = tl__live_source_new(profile, desc, &why);
    if (!src) {
        tl__content_log(ctx, TL_CONTENT_LOG_DIR_REFUSED, source_root, why);
        tl__content_fail(ctx, tl__content_dir_result(why));
        return none;
    }
    return tl__live_register(ctx, profile, source_root, src);
}

uint32_t tl_content_source_report(tl_content *ctx) {
    uint32_t i, k, total = 0;
    if (!ctx) return 0;
    for (i = 0; i < ctx->dir_len; i++) {
        const tl__content_dirrec *d = &ctx->dirs[i];
        if (!tl__live_of(ctx, i)) continue;
        for (k = 0; k < d->entry_count; k++) {
            if (!d->source->files[k].loaded || d->source->files[k].in_catalog) continue;
            tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_UNCATALOGUED, d->entries[k].name,
                            d->profile);
            total++;
        }
    }
    if (total) tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_UNCATALOGUED_TOTAL, total);
    return total;
}

uint64_t tl_content_source_reloads(tl_content *ctx) { return ctx ? ctx->reloads : 0; }

/* --- flat builds: reloaded after a pack ------------------------------------------------------------ */

/* A build directory registered in a development build: its catalog.tlcat (flat) or
   archives.json (packed) is watched, and when a pack has rewritten it the directory serves the
   new build and reloads the held assets whose bytes it changed. With inotify (Linux) the folder
   is watched and the file is looked at (one stat) only after an event in it; elsewhere, or when
   inotify refuses, one stat per update. */
struct tl__live_flat {
    tl__live_sig sig;
    int fd;              /* inotify on the directory, or -1: a stat every update */
    bool dirty;          /* events seen (or a check deferred): look at the file */
    bool rearm;          /* the folder was removed: watch the next one at the path */
    tl__live_folder dir; /* the folder watched */
    int link_wd; /* a path that is a link: the watch on its folder (the link replaced), or -1 */
    /* The last build file refused (an archive of it missing, say), and its folder then: looked
       at again once the folder changes (archives.json may arrive before its archives). */
    tl__live_sig refused, refused_in;
};

#ifdef TL__LIVE_INOTIFY
/* Whether an event of the watch on the link's folder names the link (the path's last component). */
static bool tl__live_names_link(const tl__content_dirrec *d, const struct inotify_event *ev,
                                const char *name) {
    return ev->wd == d->flat->link_wd && ev->len && tl__live_is_base(d->path, name);
}
#endif

/* Whether the build may have changed since the last look: inotify's events drained (none: no),
   or true without inotify. */
static bool tl__live_build_touched(tl__content_dirrec *d) {
    struct tl__live_flat *w = d->flat;
#ifdef TL__LIVE_INOTIFY
    union {
        struct inotify_event ev;
        char bytes[4096];
    } buf;
    ssize_t n;
    if (w->fd < 0) return true;
    while ((n = read(w->fd, buf.bytes, sizeof buf.bytes)) > 0) {
        char *p = buf.bytes;
        w->dirty = true;
        while (p < buf.bytes + n) {
            struct inotify_event ev;
            memcpy(&ev, p, sizeof ev);
            if (tl__live_names_link(d, &ev, p + sizeof ev)) ev.mask |= IN_MOVE_SELF; /* swapped */
            p += sizeof ev + ev.len;
            if (ev.wd == w->link_wd && !(ev.mask & IN_MOVE_SELF)) continue;
            if (!(ev.mask & TL__LIVE_FOLDER_GONE)) continue;
            close(w->fd); /* the folder itself went away or moved: stat until it is back */
            w->fd = -1;
            w->rearm = true;
            return true;
        }
    }
    return w->dirty;
#else
    (void)d;
    return true;
#endif
}

static void tl__live_unwatch_build(struct tl__live_flat *w) {
#ifdef TL__LIVE_INOTIFY
    if (w->fd >= 0) close(w->fd);
#endif
    w->fd = -1;
}

static bool tl__live_catalog_sig(const tl__content_dirrec *d, tl__live_sig *out) {
    char *path = tl__content_join(
        d->path, d->packed ? TL__CONTENT_INDEX_FILE : TL__CONTENT_FLAT_CATALOG, NULL);
    struct stat st;
    bool ok = path && stat(path, &st) == 0;
    if (ok) *out = tl__live_sig_of(&st);
    TL_FREE(path);
    return ok;
}

/* The directory watched with inotify where there is one (false: a stat every update), and
   which folder that is. */
static bool tl__live_watch_build(tl__content_dirrec *d) {
    struct tl__live_flat *w = d->flat;
    struct stat st;
    w->fd = w->link_wd = -1;
    if (!tl__live_folder_at(d->path, &w->dir)) return false;
#ifdef TL__LIVE_INOTIFY
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (w->fd >= 0 && inotify_add_watch(w->fd, d->path,
                                        IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE |
                                            IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) < 0)
        tl__live_unwatch_build(w);
    /* A build folder reached through a link is published by replacing the link (ln -s; mv -T),
       which the folder watched never hears of: the link's folder is watched for it too. */
    if (w->fd >= 0 && lstat(d->path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *parent = tl__live_parent(d->path);
        if (parent)
            w->link_wd = inotify_add_watch(w->fd, parent, IN_CREATE | IN_MOVED_TO | IN_DELETE);
        TL_FREE(parent);
        if (w->link_wd < 0) tl__live_unwatch_build(w); /* a stat every update, then */
    }
#endif
    return w->fd >= 0;
}

/* Whether the watch is on the folder at the directory's path still: one removed (and another
   made in its place) sends no word while an archive in it is open. */
static bool tl__live_watch_current(const tl__content_dirrec *d) {
    return tl__live_folder_is(d->path, &d->flat->dir);
}

/* Whether the build file changed, with its signature: false when nothing happened in the folder
   or the file is missing. A folder removed drops its watch: a stat every update until one is
   there again, then that one is watched. */
static bool tl__live_build_changed(tl__content_dirrec *d, tl__live_sig *sig) {
    struct tl__live_flat *w = d->flat;
    struct stat st;
    if (!tl__live_build_touched(d)) return false;
    w->dirty = false;
    if (w->fd >= 0 && !tl__live_watch_current(d)) {
        tl__live_unwatch_build(w);
        w->rearm = true;
    }
    if (w->rearm) w->rearm = !tl__live_watch_build(d);
    if (!tl__live_catalog_sig(d, sig) || tl__live_sig_same(sig, &w->sig)) return false;
    /* The build refused last time, its folder as it was then (inotify's events say it changed) */
    if (w->fd < 0 && tl__live_sig_same(sig, &w->refused) && stat(d->path, &st) == 0) {
        tl__live_sig in = tl__live_sig_of(&st);
        if (tl__live_sig_same(&in, &w->refused_in)) return false;
    }
    return true;
}

static void tl__content_live_watch_flat(tl_content *ctx, tl_content_dir dir) {
    tl__content_dirrec *d = &ctx->dirs[dir.index];
    d->flat = (struct tl__live_flat *)tl__content_zalloc(sizeof *d->flat);
    if (!d->flat) return;
    if (!tl__live_catalog_sig(d, &d->flat->sig)) memset(&d->flat->sig, 0, sizeof d->flat->sig);
#ifdef TL__LIVE_INOTIFY
    if (!tl__live_watch_build(d))
        tl__content_log(ctx, TL_CONTENT_LOG_SOURCE_WATCH, d->path,
                        "inotify is not available (watch limit?): one stat per update instead");
#else
    (void)tl__live_watch_build(d);
    (void)ctx;
#endif
}

/* Why the rebuilt catalog cannot replace the served one, or NULL: another profile, a held asset
   it dropped, an id another directory has. */
static const char *tl__live_flat_refusal(const tl_content *ctx, uint32_t dir,
                                         const tl__content_dirrec *now) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    if (strcmp(now->profile, d->profile) != 0) return "it is another profile's";
    for (i = 0; i < d->entry_count; i++)
        if (d->entries[i].slot != TL__CONTENT_NONE &&
            tl__content_find_record(now, d->entries[i].id) < 0)
            return "it drops an asset that is held; release it first";
    for (i = 0; i < now->entry_count; i++) {
        const tl__content_entry *e = tl__content_entry_of(ctx, now->entries[i].id);
        if (e && e->dir != dir) return "an asset id of it is registered by another directory";
    }
    return NULL;
}

/* The new catalog's records in place of the old ones: slots moved to them, tables rebuilt. The
   ids of held assets whose bytes changed are written to `changed`. */
static uint32_t tl__live_flat_swap(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                                   uint32_t *changed) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0;
    for (i = 0; i < d->entry_count; i++) {
        tl__content_entry *e = &d->entries[i], *ne;
        (void)tl__content_idmap_remove(ctx->ids, e->id);
        if (e->slot == TL__CONTENT_NONE) continue;
        ne = &now->entries[tl__content_find_record(now, e->id)];
        ne->slot = e->slot;
        ctx->slots[e->slot].entry = ne;
        if (changed && (ne->xxh64 != e->xxh64 || ne->size != e->size)) changed[n++] = e->id;
    }
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    d->entries = now->entries;
    d->entry_count = now->entry_count;
    d->categories = now->categories;
    d->category_count = now->category_count;
    d->catalog = now->catalog;
    d->profile = now->profile;
    for (i = 0; i < d->entry_count; i++) {
        d->entries[i].dir = dir;
        tl__content_idmap_try_add(ctx->ids, d->entries[i].id, &d->entries[i]);
    }
    tl__content_rebuild_names(ctx, TL__CONTENT_NONE);
    return n;
}

/* A held asset of a rebuilt flat directory: its new bytes, checked against the new record. */
static void tl__live_reload_flat(tl_content *ctx, uint32_t slot) {
    tl__content_entry *e = ctx->slots[slot].entry;
    uint64_t size = 0, hash;
    const char *why = NULL;
    uint32_t kind = ctx->slots[slot].kind;
    void *object;
    unsigned char *bytes = tl__live_read(ctx, e, &size, &why);
    if (ctx->slots[slot].state != TL__SLOT_READY) {
        TL_FREE(bytes);
        return;
    }
    if (!bytes) {
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name, why);
        return;
    }
    hash = tl_hash64(bytes, (size_t)size, 0);
    if (size != e->size || hash != e->xxh64) {
        TL_FREE(bytes);
        tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, e->name,
                        "its bytes differ from the rebuilt catalog's record");
        return;
    }
    object = tl__live_decode(ctx, slot, kind, bytes, size, &why);
    if (object) tl__live_swap(ctx, slot, kind, object, size, hash);
    else tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
}

static void tl__live_flat_check(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir], now;
    tl__live_sig sig;
    const char *why = NULL;
    uint32_t *changed, n, i;
    if (!tl__live_build_changed(d, &sig)) return;
    d->flat->sig = sig;
    memset(&now, 0, sizeof now);
    now.path = d->path; /* borrowed */
    if (tl__content_mount_flat(ctx, &now, &why)) why = tl__live_flat_refusal(ctx, dir, &now);
    if (!why && !tl__content_ids_reserve(ctx, tl__content_idmap_count(ctx->ids) + now.entry_count))
        why = "out of memory";
    if (why) {
        tl__content_log(ctx, TL_CONTENT_LOG_FLAT_REFUSED, d->path, why);
        TL_FREE(now.entries);
        TL_FREE((void *)now.categories);
        TL_FREE(now.catalog);
        return;
    }
    changed = (uint32_t *)tl__content_zalloc((size_t)(d->entry_count + 1) * sizeof *changed);
    n = tl__live_flat_swap(ctx, dir, &now, changed);
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, changed[i]);
        if (e && e->slot != TL__CONTENT_NONE && ctx->slots[e->slot].count > 0)
            tl__live_reload_flat(ctx, e->slot);
    }
    TL_FREE(changed);
}

/* --- packed builds: mounted again after a pack ------------------------------------------------------ */

/* A packed directory's entry the latest pack dropped while it was held (a ghost): kept, with its
   own copy of its name, so that its slot, handles and name stay valid; new loads of it fail.
   Every entry a pack mounts has an archive. */
static bool tl__live_ghost(const tl__content_dirrec *d, const tl__content_entry *e) {
    return d->packed && e->archive == TL__CONTENT_NONE;
}

/* Whether an asset of the directory is loading: its read may be in flight in an archive that
   the new build closes, so the new build waits for the next update. */
static bool tl__live_dir_loading(const tl_content *ctx, uint32_t dir) {
    uint32_t i;
    for (i = 0; i < ctx->slot_len; i++)
        if (ctx->slots[i].entry && ctx->slots[i].entry->dir == dir &&
            ctx->slots[i].state == TL__SLOT_LOADING)
            return true;
    return false;
}

static uint32_t tl__live_category_in(const tl__content_dirrec *d, const char *name) {
    uint32_t i;
    for (i = 0; i < d->category_count; i++)
        if (strcmp(d->categories[i], name) == 0) return i;
    return TL__CONTENT_NONE;
}

/* Why the new build cannot replace the served one, or NULL: another profile, an id another
   directory has, a held asset it drops whose category it drops too. *ghosts: the held assets it
   drops. */
static const char *tl__live_packed_refusal(const tl_content *ctx, uint32_t dir,
                                           const tl__content_dirrec *now, uint32_t *ghosts) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    *ghosts = 0;
    if (strcmp(now->profile, d->profile) != 0) return "it is another profile's";
    for (i = 0; i < now->entry_count; i++) {
        const tl__content_entry *e = tl__content_entry_of(ctx, now->entries[i].id);
        if (e && e->dir != dir) return "an asset id of it is registered by another directory";
    }
    for (i = 0; i < d->entry_count; i++) {
        const tl__content_entry *e = &d->entries[i];
        if (e->slot == TL__CONTENT_NONE || tl__content_find_record(now, e->id) >= 0) continue;
        if (tl__live_category_in(now, d->categories[e->category]) == TL__CONTENT_NONE)
            return "it drops a held asset's category; release the asset first";
        (*ghosts)++;
    }
    return NULL;
}

/* Mounts the directory's build as it is now into `now` (its own path), verified whole: every
   archive's size and XXH64 as archives.json records them. pack writes archives.json last and
   renames every file into place, so a verified index names complete archives. */
static bool tl__live_mount_again(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                                 uint32_t *ghosts, const char **why, const char **bad) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    char *index_path = tl__content_join(d->path, TL__CONTENT_INDEX_FILE, NULL);
    uint64_t len = 0;
    unsigned char *text = NULL;
    bool ok;
    memset(now, 0, sizeof *now);
    now->path = tl__content_strdup(d->path);
    *why = "out of memory";
    if (index_path && now->path)
        text = tl__content_read_whole(ctx, index_path, TL_CONTENT_MAX_INDEX_BYTES, &len, why);
    TL_FREE(index_path);
    if (!text && now->path) *why = "archives.json is missing, too large or unreadable";
    if (!text) return false;
    ok = tl__content_mount_packed(ctx, now, text, len, true, why, bad);
    TL_FREE(text);
    if (!ok) return false;
    *bad = NULL;
    if ((*why = tl__live_packed_refusal(ctx, dir, now, ghosts)) != NULL) return false;
    *why = "out of memory";
    return tl__content_ids_reserve(ctx,
                                   tl__content_idmap_count(ctx->ids) + now->entry_count + *ghosts);
}

/* The old entry `e` kept as a ghost in the new build (its category found there by name). */
static void tl__live_keep_ghost(tl__content_entry *ghost, const tl__content_dirrec *d,
                                const tl__content_entry *e, const tl__content_dirrec *now) {
    *ghost = *e;
    if (!tl__live_ghost(d, e)) ghost->name = tl__content_strdup(e->name);
    if (!ghost->name) ghost->name = ""; /* out of memory: nameless while held */
    ghost->path = NULL;
    ghost->archive = TL__CONTENT_NONE;
    ghost->category = tl__live_category_in(now, d->categories[e->category]);
}

/* The new build's records and the ghosts (held assets it drops) in one table sorted by id, the
   order tl__content_find_record searches; a ghost no longer held is dropped with its name. */
static tl__content_entry *tl__live_merge(const tl__content_dirrec *d, const tl__content_dirrec *now,
                                         uint32_t ghosts) {
    tl__content_entry *all = (tl__content_entry *)tl__content_zalloc(
        (size_t)(now->entry_count + ghosts + 1) * sizeof *all);
    uint32_t i = 0, j = 0, n = 0;
    if (!all) return NULL;
    while (i < now->entry_count || j < d->entry_count) {
        const tl__content_entry *e = j < d->entry_count ? &d->entries[j] : NULL;
        bool ghost = e && e->slot != TL__CONTENT_NONE && tl__content_find_record(now, e->id) < 0;
        if (e && !ghost) {
            j++;
            continue;
        }
        if (e && (i == now->entry_count || e->id < now->entries[i].id)) {
            tl__live_keep_ghost(&all[n++], d, e, now);
            j++;
        } else {
            all[n++] = now->entries[i++];
        }
    }
    return all;
}

/* Each held slot moved to its record in the new table `all` (a ghost's is its own copy); the
   held ids whose bytes changed are written to `changed` (when not NULL). */
static uint32_t tl__live_move_slots(tl_content *ctx, uint32_t dir, tl__content_entry *all,
                                    uint32_t count, uint32_t *changed) {
    const tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i, n = 0;
    for (i = 0; i < count; i++) {
        int old = tl__content_find_record(d, all[i].id);
        const tl__content_entry *e = old >= 0 ? &d->entries[old] : NULL;
        all[i].dir = dir;
        if (!e || e->slot == TL__CONTENT_NONE) continue;
        all[i].slot = e->slot;
        ctx->slots[e->slot].entry = &all[i];
        if (changed && !tl__live_ghost(d, &all[i]) &&
            (all[i].xxh64 != e->xxh64 || all[i].size != e->size))
            changed[n++] = all[i].id;
    }
    return n;
}

/* The new build in place of the served one: its archives, catalog and the table `all` (records
   and ghosts); the old ids withdrawn (and the names of ghosts not kept freed), the new ones and
   every name entered. */
static void tl__live_install(tl_content *ctx, uint32_t dir, tl__content_dirrec *now,
                             tl__content_entry *all, uint32_t count) {
    tl__content_dirrec *d = &ctx->dirs[dir];
    uint32_t i;
    for (i = 0; i < d->entry_count; i++) {
        tl__content_entry *e = &d->entries[i];
        (void)tl__content_idmap_remove(ctx->ids, e->id);
        if (tl__live_ghost(d, e) &&
            (e->slot == TL__CONTENT_NONE || tl__content_find_record(now, e->id) >= 0))
            TL_FREE((void *)(uintptr_t)e->name);
    }
    tl__content_archives_close(ctx, d);
    TL_FREE(d->entries);
    TL_FREE((void *)d->categories);
    TL_FREE(d->catalog);
    d->archives = now->archives;
    d->archive_maps = now->archive_maps;
    d->archive_count = now->archive_count;
    d->catalog = now->catalog;
    d->categories = now->categories;
    d->category_count = now->category_count;
    d->profile = now->profile;
    d->entries = all;
    d->entry_count = count;
    TL_FREE(now->entries);
    TL_FREE(now->path);
    for (i = 0; i < count; i++) tl__content_idmap_try_add(ctx->ids, all[i].id, &all[i]);
    tl__content_rebuild_names(ctx, TL__CONTENT_NONE);
}

/* A packed entry's bytes from its (new) archive, decompressed and checked against its record. */
static unsigned char *tl__live_read_packed(tl_content *ctx, const tl__content_entry *e,
                                           const char **why) {
    tl__content_dirrec *d = &ctx->dirs[e->dir];
    unsigned char *stored = (unsigned char *)TL_MALLOC((size_t)e->stored + 1), *bytes = stored;
    *why = "out of memory";
    if (!stored) return NULL;
    if (!ctx->io.read(ctx->io.user, d->archives[e->archive], e->offset, stored,
                      (size_t)e->stored)) {
        TL_FREE(stored);
        *why = tl__content_archive_why(ctx, e);
        return NULL;
    }
    if (e->codec != TL_CF_CODEC_RAW) {
        bytes = (unsigned char *)TL_MALLOC((size_t)e->size + 1);
        *why = bytes ? "stored bytes do not decode" : "out of memory";
        if (bytes && !tl_cf_decode(e->codec, stored, e->stored, bytes, e->size)) {
            TL_FREE(bytes);
            bytes = NULL;
        }
        TL_FREE(stored);
        if (!bytes) return NULL;
    }
    *why = "XXH64 differs from the new build's record (corrupt content)";
    if (tl_hash64(bytes, (size_t)e->size, 0) == e->xxh64) return bytes;
    TL_FREE(bytes);
    return NULL;
}

/* A held asset whose bytes the new build changed: decoded and swapped in, or the old object kept
   (logged) when they cannot be read or decoded. */
static void tl__live_reload_packed(tl_content *ctx, uint32_t slot) {
    tl__content_entry *e = ctx->slots[slot].entry;
    const char *why = NULL;
    unsigned char *bytes = tl__live_read_packed(ctx, e, &why);
    uint32_t kind = tl__content_kind_of(ctx, e);
    void *object = bytes ? tl__live_decode(ctx, slot, kind, bytes, e->size, &why) : NULL;
    if (object) tl__live_swap_object(ctx, slot, kind, object, e->size);
    else tl__content_log(ctx, TL_CONTENT_LOG_RELOAD_FAILED, ctx->slots[slot].entry->name, why);
}

/* archives.json rewritten: the directory mounted again from it, verified; served in place of
   the old build (held assets moved to their new records, those whose bytes changed reloaded,
   those it drops kept as ghosts), or refused, logged, with the old build still served. */
static void tl__live_packed_check(tl_content *ctx, uint32_t dir) {
    tl__content_dirrec *d = &ctx->dirs[dir], now;
    tl__live_sig sig;
    const char *why = NULL, *bad = NULL;
    tl__content_entry *all = NULL;
    uint32_t ghosts = 0, *changed, n, i;
    struct stat st;
    if (!tl__live_build_changed(d, &sig)) return;
    if (tl__live_dir_loading(ctx, dir)) {
        d->flat->dirty = true; /* looked at again next update */
        return;
    }
    if (tl__live_mount_again(ctx, dir, &now, &ghosts, &why, &bad) &&
        !(all = tl__live_merge(d, &now, ghosts)))
        why = "out of memory";
    if (!all) {
        if (bad) tl__content_log(ctx, TL_CONTENT_LOG_PACKED_ARCHIVE, d->path, bad, why);
        else tl__content_log(ctx, TL_CONTENT_LOG_PACKED_REFUSED, d->path, why);
        tl__content_dir_free(ctx, &now);
        d->flat->refused = sig; /* looked at again once the folder changes */
        if (stat(d->path, &st) == 0) d->flat->refused_in = tl__live_sig_of(&st);
        return;
    }
    d->flat->sig = sig;
    changed = (uint32_t *)tl__content_zalloc((size_t)(d->entry_count + 1) * sizeof *changed);
    n = tl__live_move_slots(ctx, dir, all, now.entry_count + ghosts, changed);
    tl__live_install(ctx, dir, &now, all, now.entry_count + ghosts);
    for (i = 0; i < n; i++) {
        tl__content_entry *e = tl__content_entry_of(ctx, changed[i]);
        if (e && e->slot != TL__CONTENT_NONE && ctx->slots[e->slot].state == TL__SLOT_READY)
            tl__live_reload_packed(ctx, e->slot);
    }
    TL_FREE(changed);
}

/* --- the seam: what content calls (tl__content_live_hooks) ------------------------------------- */

static void tl__content_live_report(tl_content *ctx) { (void)tl_content_source_report(ctx); }

static const tl__content_live_hooks *tl__content_live_hooks_table(void) {
    static const tl__content_live_hooks table = {
        tl__content_live_miss,       tl__content_live_deleted, tl__content_live_read_stored,
        tl__content_live_watch_flat, tl__content_live_free,    tl__content_live_update,
        tl__content_live_report
    };
    return &table;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_CONTENT_LIVE implementation */
