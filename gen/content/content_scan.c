#include "content/content_scan.h"

#include "content/content_tree.h"
#include "content/content_write.h"
#include "base/fsio.h"
#include "base/index_map.h"
#include "core/model.h"
#include "base/stamp.h"
#include "base/work_pool.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- The memo of one command ------------------------------------------------------------ */

typedef struct memo_entry {
    char *path;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    uint64_t xxh64;
} memo_entry;

/* What a scan gave to the project besides its assets, in order: a folder listed or a file read
 * (both into p->inputs, files also into p->input_hash); replayed when a memoised scan serves
 * another pass. */
typedef struct scan_event {
    char *path;
    bool file;
    uint64_t xxh64;
} scan_event;

typedef VEC(scan_event) scan_log;

/* A whole scan: the same tree (root, category folders, naming rule) walked again within one
 * command gives the same answer, so pack's generate pass (every profile of the project) takes
 * the preflight's scans instead of walking and stat'ing every file once more per profile. */
typedef struct scan_memo {
    char *key;
    content_scan scan;
    scan_log log;
} scan_memo;

/* `pack` makes one for the span of its command, and hands it to its generate pass; generate
 * alone has none. */
struct content_memo {
    struct timespec started; /* the coarse clock file times come from, at content_memo_new */
    index_map by_path;       /* path -> entry */
    VEC(memo_entry) entries;
    VEC(char *) warned; /* paths already warned about: a second scan stays quiet */
    VEC(scan_memo) scans;
    void (*seeding)(void *ctx); /* content_memo_seeding: waited for before the first look */
    void *seeding_ctx;
};

void content_memo_seeding(content_memo *m, void (*wait)(void *ctx), void *ctx)
{
    m->seeding = wait;
    m->seeding_ctx = ctx;
}

/* Before anything reads or writes the memo's files: the seeding thread is done with them. */
static void memo_settle(content_memo *m)
{
    void (*wait)(void *) = m->seeding;
    m->seeding = NULL;
    if (wait) wait(m->seeding_ctx);
}

/* A warning about a path, once per command when the scan has a memo. */
static void scan_warning(content_memo *m, const char *path, const char *fmt, ...) TLG_PRINTF(3, 4);
static void scan_warning(content_memo *m, const char *path, const char *fmt, ...)
{
    if (m) {
        for (size_t i = 0; i < m->warned.count; i++)
            if (strcmp(m->warned.items[i], path) == 0) return;
        *vec_push(&m->warned) = xstrdup(path);
    }
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_warning(loc_file(path), "%s", message);
}

content_memo *content_memo_new(void)
{
    content_memo *m = xcalloc(1, sizeof *m);
    clock_gettime(CLOCK_REALTIME_COARSE, &m->started);
    index_map_init(&m->by_path, 1024);
    return m;
}

static void log_free(scan_log *log)
{
    for (size_t i = 0; i < log->count; i++) free(log->items[i].path);
    vec_free(log);
}

void content_memo_free(content_memo *m)
{
    if (!m) return;
    memo_settle(m);
    for (size_t i = 0; i < m->scans.count; i++) {
        free(m->scans.items[i].key);
        content_scan_free(&m->scans.items[i].scan);
        log_free(&m->scans.items[i].log);
    }
    vec_free(&m->scans);
    for (size_t i = 0; i < m->entries.count; i++) free(m->entries.items[i].path);
    vec_free(&m->entries);
    for (size_t i = 0; i < m->warned.count; i++) free(m->warned.items[i]);
    vec_free(&m->warned);
    index_map_free(&m->by_path);
    free(m);
}

static bool same_stat(const memo_entry *m, const struct stat *st)
{
    return m->dev == st->st_dev && m->ino == st->st_ino && m->size == st->st_size && m->mtime.tv_sec == st->st_mtim.tv_sec &&
           m->mtime.tv_nsec == st->st_mtim.tv_nsec && m->ctime.tv_sec == st->st_ctim.tv_sec &&
           m->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

typedef struct path_probe {
    const content_memo *memo;
    const char *path;
} path_probe;

static bool memo_path_is(const void *ctx, uint32_t i)
{
    const path_probe *pp = ctx;
    return strcmp(pp->memo->entries.items[i].path, pp->path) == 0;
}

/* Through a hash set of paths: a pack reads thousands of files. */
static memo_entry *memo_find(content_memo *memo, const char *path)
{
    path_probe pp = {memo, path};
    uint32_t i = index_map_find(&memo->by_path, model_hash(path, strlen(path)), memo_path_is, &pp);
    return i == UINT32_MAX ? NULL : &memo->entries.items[i];
}

static memo_entry *memo_add(content_memo *memo, const char *path)
{
    memo_entry *m = memo_find(memo, path);
    if (m) return m;
    index_map_insert(&memo->by_path, model_hash(path, strlen(path)), (uint32_t)memo->entries.count);
    m = vec_push(&memo->entries);
    memset(m, 0, sizeof *m);
    m->path = xstrdup(path);
    return m;
}

bool content_memo_settled(content_memo *memo, const char *path, content_file_state *out)
{
    const memo_entry *m = memo ? memo_find(memo, path) : NULL;
    if (!m || m->ctime.tv_sec >= memo->started.tv_sec - CONTENT_SETTLED_SECONDS ||
        m->mtime.tv_sec >= memo->started.tv_sec - CONTENT_SETTLED_SECONDS)
        return false;
    *out = (content_file_state){(uint64_t)m->dev,         (uint64_t)m->ino, (uint64_t)m->size, (int64_t)m->mtime.tv_sec,
                                (int64_t)m->ctime.tv_sec, m->mtime.tv_nsec, m->ctime.tv_nsec,  m->xxh64};
    return true;
}

void content_memo_seed(content_memo *memo, const char *path, const content_file_state *st)
{
    if (!memo) return;
    memo_entry *m = memo_add(memo, path);
    m->dev = (dev_t)st->dev, m->ino = (ino_t)st->ino, m->size = (off_t)st->size, m->xxh64 = st->xxh64;
    m->mtime.tv_sec = (time_t)st->mtime_sec, m->mtime.tv_nsec = st->mtime_nsec;
    m->ctime.tv_sec = (time_t)st->ctime_sec, m->ctime.tv_nsec = st->ctime_nsec;
}

/* ---- Names -------------------------------------------------------------------------------- */

char *content_c_name(const char *name)
{
    buf b = {0};
    if (name[0] >= '0' && name[0] <= '9') buf_putc(&b, '_');
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if ((*p & 0xc0) == 0x80) continue;
        buf_putc(&b, ascii_is_word(*p) ? (char)*p : '_');
    }
    return b.data ? b.data : xstrdup("_");
}

/* ---- Walking ------------------------------------------------------------------------------ */

/* What the walk met, in order: a folder listed, or a file (an asset, by index) whose hash may
 * not be known yet. Given to the project (inputs, stamp hash, memo log) in this order once every
 * file is hashed, so that the order is the walk's however the hashing was shared out. */
typedef struct walk_event {
    char *path;
    size_t asset; /* SIZE_MAX: a folder */
} walk_event;

/* A file to hash: with the memo's answer missing, read on the scan's threads. */
typedef struct pending_hash {
    size_t asset;
    char *path;
    struct stat listed; /* as the walk saw it */
    bool ok;            /* read and unchanged while read (the worker's answer) */
    struct stat before;
    uint64_t size, xxh64;
} pending_hash;

typedef struct walker {
    struct project *p;
    const content_profile *pr;
    content_scan *out;
    char *real_root;        /* realpath of the source root */
    VEC(struct stat) stack; /* directories being walked, for loop detection */
    uint32_t category;
    bool ok;
    content_memo *memo; /* NULL: every file read */
    unsigned jobs;      /* threads that hash */
    scan_log *log;      /* with a memo: what the scan gives the project */
    VEC(walk_event) events;
    VEC(pending_hash) pending;
    unsigned char *failed; /* per asset, after hashing: dropped */
    content_tree tree;     /* the category folder being walked, listed ahead */
} walker;

static bool hash_file(walker *w, const char *path, const struct stat *listed, uint64_t *size, uint64_t *xxh)
{
    if (w->memo) {
        memo_settle(w->memo);
        memo_entry *m = memo_find(w->memo, path);
        struct stat st;
        if (m && stat(path, &st) == 0 && same_stat(m, &st)) {
            *size = (uint64_t)m->size;
            *xxh = m->xxh64;
            return true;
        }
    }
    struct stat before, after;
    int fd = fs_open_input(path, FS_INPUT_ASSET, &before);
    if (fd < 0) {
        if (errno == ENOENT) diag_error(loc_file(path), "file vanished while the source tree was read");
        else diag_error(loc_file(path), "cannot read: %s", fs_read_failure());
        return false;
    }
    bool ok = true;
    XXH64_state_t *st = XXH64_createState();
    XXH64_reset(st, 0);
    uint64_t total = 0;
    static char chunk[1 << 20];
    /* Up to the size fstat gave: a file that grows meanwhile shows in the second fstat below (no
     * read just to see the end of the file). */
    while (ok && total < (uint64_t)before.st_size) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            diag_error(loc_file(path), "cannot read: %s", strerror(errno));
            ok = false;
            break;
        }
        if (n == 0) break;
        XXH64_update(st, chunk, (size_t)n);
        total += (uint64_t)n;
    }
    *xxh = XXH64_digest(st);
    XXH64_freeState(st);
    if (ok && (fstat(fd, &after) != 0 || after.st_size != before.st_size || total != (uint64_t)before.st_size ||
               after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec ||
               (listed && (listed->st_ino != before.st_ino || listed->st_size != before.st_size)))) {
        diag_error(loc_file(path), "file changed while it was read; run again when it is written");
        ok = false;
    }
    close(fd);
    *size = total;
    if (ok && w->memo) {
        memo_entry *m = memo_add(w->memo, path);
        m->dev = before.st_dev, m->ino = before.st_ino, m->size = before.st_size;
        m->mtime = before.st_mtim, m->ctime = before.st_ctim, m->xxh64 = *xxh;
    }
    return ok;
}

/* ---- Hashing on every core ------------------------------------------------------------- */

#define HASH_PIECE (1u << 20)

/* hash_file's reading, reporting nothing and touching no shared state (any thread may run it):
 * false for anything hash_file would report, which then reads the file again, for the message. */
static void hash_quietly(pending_hash *ph, char *piece)
{
    int fd = open(ph->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat after;
    if (fd < 0) return;
    bool ok = fstat(fd, &ph->before) == 0 && S_ISREG(ph->before.st_mode);
    XXH64_state_t st;
    XXH64_reset(&st, 0);
    uint64_t total = 0;
    while (ok && total < (uint64_t)ph->before.st_size) {
        ssize_t n = read(fd, piece, HASH_PIECE);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        XXH64_update(&st, piece, (size_t)n);
        total += (uint64_t)n;
    }
    ok = ok && fstat(fd, &after) == 0 && after.st_size == ph->before.st_size && total == (uint64_t)ph->before.st_size &&
         after.st_mtim.tv_sec == ph->before.st_mtim.tv_sec && after.st_mtim.tv_nsec == ph->before.st_mtim.tv_nsec &&
         ph->listed.st_ino == ph->before.st_ino && ph->listed.st_size == ph->before.st_size;
    close(fd);
    ph->size = total, ph->xxh64 = XXH64_digest(&st), ph->ok = ok;
}

typedef struct hash_work {
    walker *w;
    char **pieces; /* per worker */
} hash_work;

static void hash_item(void *ctx, size_t item, unsigned worker)
{
    hash_work *hw = ctx;
    hash_quietly(&hw->w->pending.items[item], hw->pieces[worker]);
}

static void remember(content_memo *memo, const pending_hash *ph)
{
    if (!memo) return;
    memo_entry *m = memo_add(memo, ph->path);
    m->dev = ph->before.st_dev, m->ino = ph->before.st_ino, m->size = ph->before.st_size;
    m->mtime = ph->before.st_mtim, m->ctime = ph->before.st_ctim, m->xxh64 = ph->xxh64;
}

/* Every file the memo could not answer for, hashed on the scan's threads; one a worker could not
 * read is read again here by hash_file, which reports it (in walk order). */
static void hash_pending(walker *w)
{
    size_t n = w->pending.count;
    unsigned jobs = n > 1 ? w->jobs : 1;
    hash_work hw = {w, xcalloc(jobs, sizeof(char *))};
    for (unsigned j = 0; j < jobs; j++) hw.pieces[j] = xcalloc(1, HASH_PIECE);
    work_pool *pool = work_pool_start(jobs, n, hash_item, &hw, NULL, 0);
    if (n) work_pool_wait(pool, n - 1);
    work_pool_finish(pool);
    for (unsigned j = 0; j < jobs; j++) free(hw.pieces[j]);
    free(hw.pieces);
    w->failed = xcalloc(w->out->assets.count + 1, 1);
    for (size_t i = 0; i < n; i++) {
        pending_hash *ph = &w->pending.items[i];
        content_asset *a = &w->out->assets.items[ph->asset];
        if (ph->ok) {
            a->size = ph->size, a->xxh64 = ph->xxh64;
            remember(w->memo, ph);
        } else if (!hash_file(w, ph->path, &ph->listed, &a->size, &a->xxh64)) {
            w->failed[ph->asset] = 1;
            w->ok = false;
        }
        free(ph->path);
    }
    vec_free(&w->pending);
}

/* An asset file into the stamp's inputs: its name into input_hash and the hash of its bytes into
 * contents_hash (both into input_hash for a project that does not keep them apart). */
static void hash_asset(struct project *p, const char *path, uint64_t xxh)
{
    unsigned char digest[8];
    tl_cf_put_u64(digest, xxh);
    if (!p->contents_hash) {
        hasher_add_file(p->input_hash, path, digest, sizeof digest);
        return;
    }
    hasher_add(p->input_hash, path, strlen(path) + 1);
    hasher_add_file(p->contents_hash, path, digest, sizeof digest);
}

/* The walk's folders and files, in its order, into the project's inputs and stamp hash (and the
 * memo's log); assets that could not be read are dropped. */
static void give_events(walker *w)
{
    for (size_t i = 0; i < w->events.count; i++) {
        walk_event *ev = &w->events.items[i];
        bool file = ev->asset != SIZE_MAX;
        uint64_t xxh = file ? w->out->assets.items[ev->asset].xxh64 : 0;
        if (!(file && w->failed[ev->asset])) {
            if (w->p && file) hash_asset(w->p, ev->path, xxh);      /* names and content hashes decide the outputs */
            if (w->p) *vec_push(&w->p->inputs) = xstrdup(ev->path); /* an edited asset re-runs the build step */
            if (w->log) *vec_push(w->log) = (scan_event){xstrdup(ev->path), file, xxh};
        }
        free(ev->path);
    }
    vec_free(&w->events);
    size_t kept = 0;
    for (size_t i = 0; i < w->out->assets.count; i++) {
        content_asset *a = &w->out->assets.items[i];
        if (!w->failed[i]) w->out->assets.items[kept++] = *a;
        else free(a->name), free(a->path), free(a->c_name);
    }
    w->out->assets.count = kept;
    free(w->failed);
}

static bool inside(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == 0 || strcmp(root, "/") == 0);
}

/* The memo's hash of a file whose state (`st`, as the walk just read it: lstat, or stat through
 * a link) is as recorded, without reading it. */
static bool memo_hash(content_memo *memo, const char *path, const struct stat *st, uint64_t *size, uint64_t *xxh)
{
    if (memo) memo_settle(memo);
    memo_entry *m = memo ? memo_find(memo, path) : NULL;
    if (!m || !same_stat(m, st)) return false;
    *size = (uint64_t)m->size;
    *xxh = m->xxh64;
    return true;
}

static void add_file(walker *w, const char *full, const char *rel, const struct stat *st)
{
    const char *why = tl_cf_asset_path_problem(rel, strlen(rel));
    if (why) {
        diag_error(loc_file(full), "file name contains %s; asset names must be UTF-8 text", why);
        w->ok = false;
        return;
    }
    content_asset a;
    memset(&a, 0, sizeof a);
    a.path = xstrdup(rel);
    a.name = xstrdup(rel);
    a.name[tl_cf_asset_name_len(rel, strlen(rel), w->pr->names == CONTENT_NAMES_PATH ? TL_CF_NAMES_PATH : TL_CF_NAMES_STEM)] = 0;
    a.category = w->category;
    a.c_name = content_c_name(a.name);
    size_t index = w->out->assets.count;
    if (!memo_hash(w->memo, full, st, &a.size, &a.xxh64)) {
        pending_hash *ph = vec_push(&w->pending);
        memset(ph, 0, sizeof *ph);
        ph->asset = index, ph->path = xstrdup(full), ph->listed = *st;
    }
    *vec_push(&w->out->assets) = a;
    *vec_push(&w->events) = (walk_event){xstrdup(full), index};
}

static void walk(walker *w, const char *dir, const char *rel, size_t listed);

/* A folder below the root, unless it is one being read already (a link loop). `listed`: its
 * listing in the tree read ahead, or SIZE_MAX (a folder behind a link is listed as it is met). */
static void walk_folder(walker *w, const char *full, const char *sub, const struct stat *st, bool linked, size_t listed)
{
    for (size_t k = 0; k < w->stack.count; k++)
        if (w->stack.items[k].st_dev == st->st_dev && w->stack.items[k].st_ino == st->st_ino) {
            if (linked) scan_warning(w->memo, full, "symbolic link skipped: it leads back into a folder being read (a loop)");
            return;
        }
    *vec_push(&w->stack) = *st;
    walk(w, full, sub, listed);
    w->stack.count--;
}

/* A symbolic link is followed only to a folder or a regular file inside the source root. */
static void walk_link(walker *w, const char *full, const char *sub, struct stat *st)
{
    char *target = realpath(full, NULL);
    if (!target || stat(full, st) != 0) scan_warning(w->memo, full, "broken symbolic link skipped");
    else if (!inside(w->real_root, target))
        scan_warning(w->memo, full, "symbolic link to %s skipped: it leads out of the source root and is never followed", target);
    else if (S_ISDIR(st->st_mode)) walk_folder(w, full, sub, st, true, SIZE_MAX);
    else if (S_ISREG(st->st_mode)) add_file(w, full, sub, st);
    else scan_warning(w->memo, full, "symbolic link to a special file skipped (only regular files are content)");
    free(target);
}

/* One entry of a folder: `full` its path, `sub` its path below the root, `err` and `st` its
 * lstat's answer, `listed` as for walk_folder. */
static void walk_entry(walker *w, const char *full, const char *sub, int err, struct stat st, size_t listed)
{
    if (err) {
        if (err == ENOENT) diag_error(loc_file(full), "file vanished while the source tree was read");
        else diag_error(loc_file(full), "%s", fs_path_failure(full, err));
        w->ok = false;
    } else if (S_ISLNK(st.st_mode)) {
        walk_link(w, full, sub, &st);
    } else if (S_ISDIR(st.st_mode)) {
        walk_folder(w, full, sub, &st, false, listed);
    } else if (S_ISREG(st.st_mode)) {
        add_file(w, full, sub, &st);
    } else {
        scan_warning(w->memo, full, "special file skipped (only regular files are content)");
    }
}

/* `rel` "/" `name` (just `name` at the root), without printf: one per file walked. */
static char *sub_path(const char *rel, const char *name)
{
    size_t r = strlen(rel), n = strlen(name);
    char *sub = xmalloc(r + 1 + n + 1), *at = sub;
    if (r) memcpy(at, rel, r), at += r, *at++ = '/';
    memcpy(at, name, n + 1);
    return sub;
}

static void cannot_list(walker *w, const char *dir, int err)
{
    diag_error(loc_file(dir), "cannot read the directory: %s", fs_path_failure(dir, err));
    w->ok = false;
}

/* A folder as it is met: listed and each entry lstat'ed here. */
static void walk_unlisted(walker *w, const char *dir, const char *rel)
{
    name_list names = {0};
    if (!fs_list_dir(dir, &names)) {
        cannot_list(w, dir, errno);
        return;
    }
    for (size_t i = 0; i < names.count; i++) {
        const char *n = names.items[i];
        if (tl_cf_source_hidden(n)) continue; /* version control, editor state */
        char *full = path_join(dir, n);
        char *sub = sub_path(rel, n);
        struct stat st;
        walk_entry(w, full, sub, lstat(full, &st) == 0 ? 0 : errno, st, SIZE_MAX);
        free(full);
        free(sub);
    }
    name_list_free(&names);
}

static void walk(walker *w, const char *dir, const char *rel, size_t listed)
{
    *vec_push(&w->events) = (walk_event){xstrdup(dir), SIZE_MAX};
    if (listed == SIZE_MAX) {
        walk_unlisted(w, dir, rel);
        return;
    }
    const tree_folder *f = &w->tree.folders.items[listed];
    if (f->err) cannot_list(w, dir, f->err);
    for (size_t i = 0; !f->err && i < f->count; i++) {
        const tree_entry *e = &w->tree.entries.items[f->first + i];
        char *sub = sub_path(rel, e->full + e->name);
        walk_entry(w, e->full, sub, e->err, e->st, e->folder);
        free(sub);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const content_asset *)a)->name, ((const content_asset *)b)->name);
}

typedef struct fold_ref {
    const content_asset *a;
    const char *key;
} fold_ref;

static int by_folded(const void *x, const void *y)
{
    const fold_ref *a = x, *b = y;
    int c = tl_text_fold_compare(a->key, strlen(a->key), b->key, strlen(b->key));
    return c ? c : strcmp(a->a->path, b->a->path);
}

static void report_same_name(const content_profile *pr, const content_scan *s, const content_asset *a, const content_asset *b,
                             bool normalised)
{
    char *pa = path_join(s->root, a->path), *pb = path_join(s->root, b->path);
    if (normalised)
        diag_error(loc_file(pb),
                   "asset name \"%s\" of profile \"%s\" is also the name of %s under Unicode normalisation (names are unique per "
                   "profile, case-insensitively and whether their letters are composed or decomposed: U+00E9 and e + U+0301 "
                   "are one letter)",
                   b->name, pr->name, pa);
    else
        diag_error(
            loc_file(pb),
            "asset name \"%s\" of profile \"%s\" is also the name of %s (names are unique per profile, case-insensitively)",
            b->name, pr->name, pa);
    free(pa), free(pb);
}

/* A name with a byte above ASCII: one whose key (tl_text_name_key) may differ from its fold. */
typedef struct key_ref {
    const content_asset *a;
    char *key;
    size_t len;
} key_ref;

static int by_key(const void *x, const void *y)
{
    const key_ref *a = x, *b = y;
    int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return strcmp(a->a->path, b->a->path);
}

static bool ascii_only(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

/* The name among `refs` (sorted by folded name) whose fold is `key`, or NULL. */
static const content_asset *folded_as(const fold_ref *refs, size_t n, const char *key, size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = tl_text_fold_compare(refs[mid].key, strlen(refs[mid].key), key, len);
        if (c == 0) return refs[mid].a;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* Two assets one name under Unicode normalisation though not under the ASCII fold alone (those
 * check_unique reports): "café" composed and decomposed, as macOS stores names. Only a name with
 * a byte above ASCII can differ so: their keys are compared with each other, and a key that is
 * all ASCII (KELVIN SIGN is K) with the folded names. Nothing is done for an all-ASCII tree. */
static bool check_unique_normalised(const content_profile *pr, const content_scan *s, const fold_ref *refs, size_t n)
{
    VEC(key_ref) keys = {0};
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        const char *name = refs[i].key;
        size_t len = strlen(name);
        if (ascii_only(name, len)) continue;
        key_ref *k = vec_push(&keys);
        k->a = refs[i].a;
        k->key = xmalloc(TL_TEXT_NAME_KEY_MAX(len) + 1);
        k->len = tl_text_name_key(name, len, k->key, TL_TEXT_NAME_KEY_MAX(len) + 1);
        const content_asset *same = ascii_only(k->key, k->len) ? folded_as(refs, n, k->key, k->len) : NULL;
        if (same) report_same_name(pr, s, same, k->a, true), ok = false;
    }
    if (keys.count > 1) qsort(keys.items, keys.count, sizeof *keys.items, by_key);
    for (size_t i = 1; i < keys.count; i++) {
        const key_ref *a = &keys.items[i - 1], *b = &keys.items[i];
        if (a->len != b->len || memcmp(a->key, b->key, a->len) != 0) continue;
        if (tl_text_fold_compare(a->a->name, strlen(a->a->name), b->a->name, strlen(b->a->name)) == 0) continue;
        report_same_name(pr, s, a->a, b->a, true);
        ok = false;
    }
    for (size_t i = 0; i < keys.count; i++) free(keys.items[i].key);
    vec_free(&keys);
    return ok;
}

/* Two assets one name, case-insensitively or under Unicode normalisation: both paths named.
 * (Names that differ otherwise, if only in characters C cannot spell, have distinct keys;
 * identity disambiguates their member names.) */
static bool check_unique(const content_profile *pr, content_scan *s)
{
    size_t n = s->assets.count;
    fold_ref *refs = xcalloc(n ? n : 1, sizeof *refs);
    for (size_t i = 0; i < n; i++) refs[i] = (fold_ref){&s->assets.items[i], s->assets.items[i].name};
    sort_unless_sorted(refs, n, sizeof *refs, by_folded);
    for (size_t i = 0; i < n; i++) s->assets.items[refs[i].a - s->assets.items].folded_rank = (uint32_t)i;
    bool ok = true;
    for (size_t i = 1; i < n; i++) {
        if (tl_text_fold_compare(refs[i - 1].key, strlen(refs[i - 1].key), refs[i].key, strlen(refs[i].key)) != 0) continue;
        report_same_name(pr, s, refs[i - 1].a, refs[i].a, false);
        ok = false;
    }
    if (!check_unique_normalised(pr, s, refs, n)) ok = false;
    free(refs);
    return ok;
}

void content_scan_folded_order(const content_scan *sc, uint32_t *order)
{
    size_t n = sc->assets.count;
    unsigned char *placed = xcalloc(n ? n : 1, 1);
    bool whole = true;
    for (size_t i = 0; i < n && whole; i++) {
        uint32_t r = sc->assets.items[i].folded_rank;
        whole = r < n && !placed[r];
        if (whole) placed[r] = 1, order[r] = (uint32_t)i;
    }
    free(placed);
    if (whole) return;
    fold_ref *refs = xcalloc(n ? n : 1, sizeof *refs);
    for (size_t i = 0; i < n; i++) refs[i] = (fold_ref){&sc->assets.items[i], sc->assets.items[i].name};
    qsort(refs, n, sizeof *refs, by_folded);
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)(refs[i].a - sc->assets.items);
    free(refs);
}

static void copy_scan(const content_scan *from, content_scan *to)
{
    memset(to, 0, sizeof *to);
    to->root = xstrdup(from->root);
    for (size_t i = 0; i < from->assets.count; i++) {
        const content_asset *a = &from->assets.items[i];
        content_asset *b = vec_push(&to->assets);
        *b = *a;
        b->name = xstrdup(a->name);
        b->path = xstrdup(a->path);
        b->c_name = xstrdup(a->c_name);
        b->id = 0;
        b->member = NULL;
    }
}

/* The tree a profile's scan reads: its root, naming rule and category folders in order, each
 * string length-prefixed so that no two trees share a key. */
static char *scan_key(const char *root, const content_profile *pr)
{
    buf key = {0};
    buf_printf(&key, "%zu:%s %d", strlen(root), root, (int)pr->names);
    for (size_t k = 0; k < pr->categories.count; k++)
        buf_printf(&key, " %zu:%s", strlen(pr->categories.items[k].folder), pr->categories.items[k].folder);
    return key.data;
}

static bool scan_profile(struct project *p, const content_profile *pr, const content_reader *how, content_scan *out,
                         scan_log *log);

bool content_scan_profile(struct project *p, const content_profile *pr, const content_reader *how, content_scan *out)
{
    static const content_reader alone = {NULL, 1};
    if (!how) how = &alone;
    content_memo *memo = how->memo;
    if (!memo) return scan_profile(p, pr, how, out, NULL);
    char *root = path_join(p ? p->cfg.root : ".", pr->source_root);
    char *key = scan_key(root, pr);
    free(root);
    for (size_t i = 0; i < memo->scans.count; i++) {
        const scan_memo *m = &memo->scans.items[i];
        if (strcmp(m->key, key) != 0) continue;
        free(key);
        copy_scan(&m->scan, out);
        for (size_t e = 0; p && e < m->log.count; e++) {
            const scan_event *ev = &m->log.items[e];
            *vec_push(&p->inputs) = xstrdup(ev->path);
            if (ev->file) hash_asset(p, ev->path, ev->xxh64);
        }
        return true;
    }
    scan_log log = {0};
    bool ok = scan_profile(p, pr, how, out, &log);
    if (!ok) {
        free(key);
        log_free(&log);
        return false;
    }
    scan_memo *m = vec_push(&memo->scans);
    m->key = key;
    m->log = log;
    copy_scan(out, &m->scan);
    return true;
}

static bool scan_profile(struct project *p, const content_profile *pr, const content_reader *how, content_scan *out,
                         scan_log *log)
{
    memset(out, 0, sizeof *out);
    const char *proot = p ? p->cfg.root : ".";
    out->root = path_join(proot, pr->source_root);
    walker w = {p, pr, out, NULL, {0}, 0, true, how->memo, how->jobs ? how->jobs : 1, log, {0}, {0}, NULL, {{0}, {0}}};
    struct stat st;
    int root_err = stat(out->root, &st) != 0 ? errno : 0;
    if (root_err || !S_ISDIR(st.st_mode)) {
        if (root_err == ENAMETOOLONG) content_profile_error(pr, "source_root", "%s", fs_path_failure(out->root, root_err));
        else
            content_profile_error(pr, "source_root", "source root \"%s\" %s", pr->source_root,
                                  root_err ? "does not exist" : "is not a directory");
        if (p) *vec_push(&p->inputs) = xstrdup(out->root);
        return false;
    }
    w.real_root = realpath(out->root, NULL);
    int real_root_err = w.real_root ? 0 : errno;
    for (size_t k = 0; k < pr->categories.count; k++) {
        const content_category *c = &pr->categories.items[k];
        char *dir = c->folder[0] ? path_join(out->root, c->folder) : xstrdup(out->root);
        w.category = (uint32_t)k;
        char key[64];
        snprintf(key, sizeof key, "categories[%zu].folder", k);
        struct stat cs;
        int folder_err = stat(dir, &cs) != 0 ? errno : 0;
        if (folder_err || !S_ISDIR(cs.st_mode)) {
            if (pr->categories.count == 1 && !c->folder[0])
                content_profile_error(pr, "source_root", "cannot read the source root");
            else if (folder_err == ENAMETOOLONG) content_profile_error(pr, key, "%s", fs_path_failure(dir, folder_err));
            else content_profile_error(pr, key, "category folder \"%s\" is not a folder under %s", c->folder, out->root);
            if (p) *vec_push(&p->inputs) = xstrdup(dir);
            w.ok = false;
        } else {
            char *real = realpath(dir, NULL);
            int real_err = !w.real_root ? real_root_err : real ? 0 : errno;
            if (real_err == ENAMETOOLONG) { /* a project deeper than the system resolves */
                content_profile_error(
                    pr, key,
                    "category folder \"%s\": its absolute path is longer than the system resolves (%d bytes); move the project to a shorter path",
                    c->folder, PATH_MAX);
                w.ok = false;
            } else if (real_err) {
                content_profile_error(pr, key, "category folder \"%s\": %s", c->folder, strerror(real_err));
                w.ok = false;
            } else if (!inside(w.real_root, real)) {
                content_profile_error(pr, key, "category folder \"%s\" leads out of the source root", c->folder);
                w.ok = false;
            } else {
                *vec_push(&w.stack) = cs;
                content_tree_read(dir, &cs, w.jobs, &w.tree);
                walk(&w, dir, c->folder, 0);
                content_tree_free(&w.tree);
                w.stack.count = 0;
            }
            free(real);
        }
        free(dir);
    }
    free(w.real_root);
    vec_free(&w.stack);
    hash_pending(&w);
    give_events(&w);
    sort_unless_sorted(out->assets.items, out->assets.count, sizeof *out->assets.items, by_name);
    if (w.ok && !check_unique(pr, out)) w.ok = false;
    return w.ok;
}

/* A folder spelt without "./" and trailing '/' ("." for the root): how two config paths compare. */
static char *plain_folder(const char *path)
{
    while (path[0] == '.' && path[1] == '/') path += 2;
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    return n ? xstrndup(path, n) : xstrdup(".");
}

bool content_scan_provided_root(const struct project *p, const content_profile *pr)
{
    char *root = plain_folder(pr->source_root);
    bool found = false;
    for (size_t i = 0; !found && i < p->provided.count; i++) {
        char *folder = plain_folder(p->provided.items[i].folder);
        found = strcmp(folder, root) == 0;
        free(folder);
    }
    free(root);
    return found;
}

/* The provided files of the profile's root, as its assets: only a category over the whole root
 * ("") holds them, as a walk of the folder would find them. */
bool content_scan_provided(const struct project *p, const content_profile *pr, content_scan *out)
{
    memset(out, 0, sizeof *out);
    out->root = path_join(p->cfg.root, pr->source_root);
    out->provided = true;
    char *root = plain_folder(pr->source_root);
    for (size_t k = 0; k < pr->categories.count; k++) {
        if (pr->categories.items[k].folder[0]) continue;
        for (size_t i = 0; i < p->provided.count; i++) {
            const provided_file *f = &p->provided.items[i];
            char *folder = plain_folder(f->folder);
            bool mine = strcmp(folder, root) == 0;
            free(folder);
            if (!mine) continue;
            content_asset a;
            memset(&a, 0, sizeof a);
            a.path = xstrdup(f->name);
            a.name = xstrdup(f->name);
            a.name[tl_cf_asset_name_len(f->name, strlen(f->name),
                                        pr->names == CONTENT_NAMES_PATH ? TL_CF_NAMES_PATH : TL_CF_NAMES_STEM)] = 0;
            a.category = (uint32_t)k;
            a.c_name = content_c_name(a.name);
            a.size = f->size;
            a.xxh64 = XXH64(f->bytes, f->size, 0);
            *vec_push(&out->assets) = a;
        }
        break; /* one category over the root takes every file */
    }
    free(root);
    sort_unless_sorted(out->assets.items, out->assets.count, sizeof *out->assets.items, by_name);
    return check_unique(pr, out);
}

void content_scan_free(content_scan *s)
{
    for (size_t i = 0; i < s->assets.count; i++) {
        free(s->assets.items[i].name);
        free(s->assets.items[i].path);
        free(s->assets.items[i].c_name);
    }
    vec_free(&s->assets);
    free(s->root);
    memset(s, 0, sizeof *s);
}
