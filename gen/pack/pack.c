/* threadlink-gen pack: profiles -> output folders.
 *
 *   preflight   config, profiles, overrides, output-folder rule, every tree scanned (each file
 *               read and hashed once; the scan memo gives the generate pass these scans whole,
 *               and the file hashes to any other profile over the same files) -- nothing written yet
 *   generate    the whole project through gen_run, with pack's session in its options (the
 *               --source override, the scan memo, the threads, and where each selected profile's
 *               ids go as the pass resolves them): generate records the names in the manifests;
 *               --build-step runs headers instead, which merges them in memory and writes nothing
 *   meanwhile   from before the scan, the previous build's archives hashed on the pool's
 *               threads against its archives.json, to know which may be kept
 *   per profile partition (checked), archives and catalog built
 *               (raw archives streamed to their temporary files in cache-sized pieces, compressed
 *               ones in memory; every input copied is checked against the scan's hash as it is
 *               copied), written atomically and only when changed, archives.json last, stale
 *               files of the previous build removed, post-build hooks run
 *
 * Output folder rule: a folder is written only if it is missing, empty, or holds the marker file
 * of a previous build (.threadlink-content); anything else is refused before anything is written.
 * A failed build leaves the previous output usable: new files are renamed into place only when
 * every one of them was produced, and archives.json, the entry point, is replaced last. Runs on
 * one output folder take turns (a lock on its parent, from the preflight to the clean-up:
 * pack_lock.h). The folder is opened once, never through a link, and everything after goes through
 * that descriptor (out_folder): a folder swapped for a link during the run is never followed. */
#include "pack/pack_internal.h"
#include "pack/pack_lock.h"

#include "content/content_renames.h"
#include "content/content_write.h"
#include "content/content_scan.h"
#include "content/content_stage.h"
#include "base/depfile.h"
#include "base/fsio.h"
#include "core/generate.h"
#include "core/model.h"
#include "base/output.h"
#include "base/stamp.h"
#include "base/suggest.h"
#include "base/work_pool.h"

/* The library's functions, not inlined copies: pack hashes only names and 20-byte records here,
 * and gcc's -Warray-bounds misreads the inlined XXH64_update on a buffer that small. */
#define XXH_STATIC_LINKING_ONLY /* the state type, for a state on the stack */
#include <xxhash.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARKER_FILE ".threadlink-content"
#define INDEX_FILE "archives.json"
#define FLAT_CATALOG "catalog.tlcat"
#define FLAT_ASSETS PACK_FLAT_ASSETS
#define SAME_BYTES_PIECE (256u << 10)

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(const char *fmt, const char *arg)
{
    fputs("threadlink-gen: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(run threadlink-gen pack --help for usage)\n", stderr);
    return 2;
}

/* ---- Progress and summary --------------------------------------------------------------------- */

typedef struct progress {
    bool on;
    double last;
    const char *profile;
    size_t done, total;
    uint64_t bytes;
} progress;

static void progress_show(progress *pg, bool force)
{
    if (!pg->on) return;
    double t = now_seconds();
    if (!force && t - pg->last < 0.1) return;
    pg->last = t;
    fprintf(stderr, "\r\033[Kpack %s: %zu/%zu files, %.1f MB", pg->profile, pg->done, pg->total, (double)pg->bytes / 1e6);
    fflush(stderr);
}

static void progress_clear(progress *pg)
{
    if (!pg->on) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* ---- The output folder ------------------------------------------------------------------------- */

/* A profile's output folder, opened once, at the preflight (or when the build makes it), never
 * through a link: everything the run reads, writes and removes in it goes through this descriptor
 * (openat, O_NOFOLLOW below it, renameat, unlinkat), so that a folder moved away or swapped for a
 * link during the run is never written or cleaned up through its path. Before the commit and
 * after the clean-up the run checks that its path still names the folder it opened, and fails
 * naming it if not (before the commit: nothing replaced). */
typedef struct out_folder {
    char *path; /* as the build names it: messages, and the output set's base */
    int fd;     /* -1: missing at the preflight, until the build makes it */
    bool made;  /* made by this run */
    char *real; /* its real path when opened: the key of its record of input hashes (NULL: none) */
} out_folder;

static void folder_close(out_folder *of)
{
    if (of->fd >= 0) close(of->fd);
    free(of->path);
    free(of->real);
    memset(of, 0, sizeof *of);
    of->fd = -1;
}

/* Is the folder at of->path still the one open as of->fd? */
static bool folder_in_place(const out_folder *of)
{
    struct stat here, opened;
    return of->fd >= 0 && fstat(of->fd, &opened) == 0 && lstat(of->path, &here) == 0 && S_ISDIR(here.st_mode) &&
           here.st_dev == opened.st_dev && here.st_ino == opened.st_ino;
}

/* Its real path, if its path still names it. */
static void folder_note_real(out_folder *of)
{
    free(of->real);
    of->real = realpath(of->path, NULL);
    if (of->real && !folder_in_place(of)) free(of->real), of->real = NULL;
}

static bool folder_check_in_place(const out_folder *of, const char *outcome)
{
    if (folder_in_place(of)) return true;
    diag_error(loc_file(of->path),
               "the output folder was replaced during the run (moved away, or swapped for a link); "
               "threadlink-gen never writes through links: %s",
               outcome);
    return false;
}

static void report_not_a_folder(const content_profile *pr, const out_folder *of)
{
    struct stat st;
    if (lstat(of->path, &st) == 0 && S_ISLNK(st.st_mode))
        content_profile_error(pr, "output",
                              "output folder \"%s\" is a symbolic link; threadlink-gen never writes through links: make it "
                              "a folder, or name the folder it leads to; nothing was written",
                              pr->output);
    else content_profile_error(pr, "output", "output folder \"%s\" exists and is not a folder; nothing was written", pr->output);
}

/* Opens the output folder at the preflight: false after reporting one that is not a folder (a
 * link is not one); a missing one is no error (fd -1). */
static bool folder_open(const content_profile *pr, out_folder *of)
{
    of->fd = open(of->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int err = errno;
    struct stat st;
    if (of->fd >= 0) folder_note_real(of);
    else if (err != ENOENT && lstat(of->path, &st) == 0) {
        if (err == ENOTDIR || err == ELOOP) report_not_a_folder(pr, of);
        else content_profile_error(pr, "output", "cannot open the output folder \"%s\": %s", pr->output, strerror(err));
        return false;
    }
    return true;
}

/* Missing, empty, or a previous build. */
static bool output_folder_usable(const content_profile *pr, const out_folder *of)
{
    name_list names = {0};
    if (of->fd < 0) return true;
    if (!fs_list_dir_fd(of->fd, &names)) {
        content_profile_error(pr, "output", "cannot read the output folder \"%s\": %s", pr->output, strerror(errno));
        return false;
    }
    bool empty = names.count == 0, marked = false;
    for (size_t i = 0; i < names.count; i++) marked = marked || strcmp(names.items[i], MARKER_FILE) == 0;
    name_list_free(&names);
    if (!empty && !marked) {
        content_profile_error(pr, "output",
                              "output folder \"%s\" is neither empty nor a previous content build (no %s in it); "
                              "nothing was written: empty it or choose another folder",
                              pr->output, MARKER_FILE);
        return false;
    }
    return true;
}

/* Makes the output folder that was missing at the preflight (and its parents). One that appeared
 * meanwhile is checked as the preflight checks. false after reporting. */
static bool folder_make(const content_profile *pr, out_folder *of)
{
    unsigned errors = diag_error_count();
    of->fd = output_open_dir(of->path, true, &of->made);
    int err = errno;
    if (of->fd < 0 && diag_error_count() == errors) {
        if (err == ENOTDIR || err == ELOOP) report_not_a_folder(pr, of);
        else content_profile_error(pr, "output", "cannot open the output folder \"%s\": %s", pr->output, strerror(err));
    }
    if (of->fd < 0) return false;
    folder_note_real(of);
    return of->made || output_folder_usable(pr, of);
}

/* Clean-up goes through directory descriptors, as the writes do (output.h): each folder is opened
 * below its parent with O_NOFOLLOW, so a folder swapped for a link meanwhile is removed as a link
 * (unlinkat), never walked into. */
static int open_subdir(int parent_fd, const char *name)
{
    return openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Removes the entry `name` of the folder `parent_fd`, and everything in it if it is a folder. */
static void remove_tree_at(int parent_fd, const char *name)
{
    int fd = open_subdir(parent_fd, name);
    if (fd < 0) { /* a file, or a link: the entry itself */
        unlinkat(parent_fd, name, 0);
        return;
    }
    name_list names = {0};
    if (fs_list_dir_fd(fd, &names))
        for (size_t i = 0; i < names.count; i++) remove_tree_at(fd, names.items[i]);
    name_list_free(&names);
    close(fd);
    unlinkat(parent_fd, name, AT_REMOVEDIR);
}

/* A stale file goes; one a killed run left (its temporary name) is named as generate names it. */
static void remove_stale_file(int dir_fd, const char *path, const char *name)
{
    size_t len;
    if (unlinkat(dir_fd, name, 0) == 0 && output_is_temp_name(name, &len))
        diag_warning(loc_file(path), "removed left-over temporary file of a killed run");
}

/* What clean-up keeps: paths relative to the output folder, sorted bytewise (`paths`) and, the
 * same pointers, in ASCII-case-folded order (`folded`). */
typedef struct keep_set {
    char **paths, **folded;
    size_t n;
} keep_set;

/* The kept path equal to `rel` ignoring ASCII case, or with `prefix` one below a folder so named
 * (starting with rel + '/'), spelled as kept; NULL if none. */
static const char *kept_ignoring_case(const keep_set *ks, const char *rel, bool prefix)
{
    char *key = prefix ? xasprintf("%s/", rel) : xstrdup(rel);
    size_t n = strlen(key), lo = 0, hi = ks->n;
    while (lo < hi) { /* the first kept path not before `key` in folded order */
        size_t mid = lo + (hi - lo) / 2;
        if (tl_text_fold_compare(ks->folded[mid], strlen(ks->folded[mid]), key, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    const char *k = lo < ks->n ? ks->folded[lo] : NULL;
    size_t kn = k ? strlen(k) : 0;
    bool match = k && (prefix ? kn > n && ascii_ieq(k, n, key, n) : ascii_ieq(k, kn, key, n));
    free(key);
    return match ? k : NULL;
}

/* Respells the entry `name` of the folder `rel` (open as here_fd) as `kept` (the first `kept_len`
 * bytes of a kept path: rel, '/', then another spelling of name) spells it: fs_respell_at. false
 * when kept spells the folders above it otherwise (they were walked as spelled: two folders). */
static bool respell_entry(int here_fd, const char *rel, const char *name, const char *kept, size_t kept_len)
{
    size_t n = strlen(rel), at = n ? n + 1 : 0;
    if (kept_len <= at || (n && (strncmp(kept, rel, n) != 0 || kept[n] != '/')) || memchr(kept + at, '/', kept_len - at))
        return false;
    char *want = xstrndup(kept + at, kept_len - at);
    bool ok = fs_respell_at(here_fd, name, want);
    free(want);
    return ok;
}

/* Removes everything under dir/rel that is not kept; a directory that ends up empty goes too,
 * unless it is dir itself. Links are never followed.
 *
 * An entry kept only ignoring case is first respelled (fs_respell_at): on a case-insensitive file
 * system (macOS, Windows), after a case-only rename (an asset hero.txt -> Hero.txt, a category
 * folder or profile spelled in another case) the build reused the old entry, which keeps its old
 * spelling, and deleting that spelling would delete what the build has just written. Respelled as
 * kept, it stays (a folder is then walked as the kept folder); two entries (a case-sensitive file
 * system) are two files, and the stale one goes as before. */
static void remove_stale_in(int here_fd, const char *dir, const char *rel, const keep_set *ks);

/* The stale content of dir/sub_rel, a folder (entry `name` of `here_fd`, the folder dir/rel). */
static void remove_stale_folder(int here_fd, const char *dir, const char *rel, const char *sub_rel, const char *name,
                                const keep_set *ks)
{
    /* A folder that still holds kept files is walked; otherwise it goes whole. */
    size_t n = strlen(sub_rel);
    bool holds = false;
    for (size_t k = 0; k < ks->n && !holds; k++) holds = strncmp(ks->paths[k], sub_rel, n) == 0 && ks->paths[k][n] == '/';
    const char *kept = holds ? NULL : kept_ignoring_case(ks, sub_rel, true);
    char *want_rel = kept && respell_entry(here_fd, rel, name, kept, n) ? xstrndup(kept, n) : NULL;
    if (holds || want_rel) {
        const char *walk_rel = want_rel ? want_rel : sub_rel;
        int fd = open_subdir(here_fd, path_basename(walk_rel));
        if (fd >= 0) {
            remove_stale_in(fd, dir, walk_rel, ks);
            close(fd);
            unlinkat(here_fd, path_basename(walk_rel), AT_REMOVEDIR); /* fails (harmlessly) when not empty */
        }
    } else {
        remove_tree_at(here_fd, name);
    }
    free(want_rel);
}

static void remove_stale_in(int here_fd, const char *dir, const char *rel, const keep_set *ks)
{
    name_list names = {0};
    if (fs_list_dir_fd(here_fd, &names)) {
        for (size_t i = 0; i < names.count; i++) {
            const char *name = names.items[i];
            char *sub_rel = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
            struct stat st;
            if (names_hold(ks->paths, ks->n, sub_rel)) {
                /* kept */
            } else if (fstatat(here_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
                remove_stale_folder(here_fd, dir, rel, sub_rel, name, ks);
            } else {
                const char *kept = kept_ignoring_case(ks, sub_rel, false);
                if (!kept || !respell_entry(here_fd, rel, name, kept, strlen(kept))) {
                    char *sub = path_join(dir, sub_rel);
                    remove_stale_file(here_fd, sub, name);
                    free(sub);
                }
            }
            free(sub_rel);
        }
    }
    name_list_free(&names);
}

/* ---- JSON output --------------------------------------------------------------------------------- */

static void json_string(buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') buf_putc(b, '\\'), buf_putc(b, (char)*p);
        else if (*p < 0x20) buf_printf(b, "\\u%04x", *p);
        else buf_putc(b, (char)*p);
    }
    buf_putc(b, '"');
}

/* ---- One profile ------------------------------------------------------------------------------- */

typedef struct archive_out {
    char *name;
    bool catalog;
    bool written; /* this build wrote it (not kept, nor rebuilt to the same bytes) */
    uint64_t size, input_bytes, xxh64;
    VEC(const char *) files; /* sorted by name */
} archive_out;

typedef VEC(archive_out) archive_list;

typedef struct build_stats {
    size_t files, written, unchanged, archives;
    uint64_t bytes_in, bytes_out;
} build_stats;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int by_asset_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int by_archive_name(const void *a, const void *b)
{
    return strcmp(((const archive_out *)a)->name, ((const archive_out *)b)->name);
}

/* The file `name` in the folder open as `dir_fd` is `size` bytes with XXH64 `xxh64`: read in
 * pieces, never held whole. Reports nothing and touches no shared state (any thread may run it). */
static bool same_bytes(int dir_fd, const char *name, uint64_t size, uint64_t xxh64)
{
    struct stat st;
    int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) return false;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    XXH64_state_t h;
    XXH64_reset(&h, 0);
    uint64_t got = 0;
    char *piece = xcalloc(1, SAME_BYTES_PIECE);
    while (ok) {
        ssize_t n = read(fd, piece, SAME_BYTES_PIECE);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        XXH64_update(&h, piece, (size_t)n);
        got += (uint64_t)n;
    }
    free(piece);
    close(fd);
    return ok && got == size && XXH64_digest(&h) == xxh64;
}

/* The previous index's entry for an archive of this name, if any: its name carries the hash of
 * everything that decides its bytes, so it may be kept if its bytes still hash as recorded. */
static const tl_cf_index_archive *previous_archive(const tl_cf_index *prev, const char *name)
{
    for (uint32_t i = 0; prev && i < prev->archive_count; i++)
        if (strcmp(prev->archives[i].name, name) == 0) return &prev->archives[i];
    return NULL;
}

/* Name: <Profile>.<label>-<16 hex digits>.tlpk, the hash over the format version, the codec, a
 * level other than its default, and each entry's id, name, size and XXH64 (or the catalog's
 * bytes). */
static char *archive_name(const content_profile *pr, const char *label, const content_scan *sc, const uint32_t *members, size_t n,
                          const buf *catalog)
{
    XXH64_state_t *st = XXH64_createState();
    XXH64_reset(st, 0);
    unsigned char head[8] = {'t',
                             'l',
                             'p',
                             'k',
                             (unsigned char)TL_CF_ARCHIVE_VERSION,
                             (unsigned char)pr->compression,
                             (unsigned char)content_codec_level(pr),
                             0};
    XXH64_update(st, head, sizeof head);
    if (catalog) XXH64_update(st, catalog->data, catalog->len);
    for (size_t i = 0; i < n; i++) {
        const content_asset *a = &sc->assets.items[members[i]];
        unsigned char rec[20];
        tl_cf_put_u32(rec, a->id);
        tl_cf_put_u64(rec + 4, a->size);
        tl_cf_put_u64(rec + 12, a->xxh64);
        XXH64_update(st, rec, sizeof rec);
        XXH64_update(st, a->name, strlen(a->name) + 1);
    }
    uint64_t h = XXH64_digest(st);
    XXH64_freeState(st);
    return xasprintf("%s.%s-%016llx.tlpk", pr->name, label, (unsigned long long)h);
}

/* The previous builds' archives, checked from the start of the run: an archive is kept only
 * while its bytes hash as archives.json records, and reading them is most of what a one-file
 * edit reads. The check needs nothing of this build, so it runs on the pool's threads from
 * before the scan, beside the walk and the generate pass on the calling thread; a build waits
 * only for its own archives' answers (find_kept). Item 0, before the archives, reads the
 * previous records of input hashes into the scan memo (the scans wait for it before their first
 * look): on the same threads, so that the calling thread never shares a core with more work than
 * the machine has cores for. */
typedef struct prior_build {
    const out_folder *folder;
    tl_cf_index index;
    int level;    /* its "compression_level" (0: none, the codec's default) */
    bool have;    /* archives.json was read and parsed */
    size_t first; /* its first archive's item in the check */
} prior_build;

typedef struct prior_check {
    content_memo *memo; /* the run's scan memo, which item 0 seeds */
    const char *project_root;
    name_list seed_dirs;     /* real paths of the output folders whose records seed the memo (item 0) */
    VEC(prior_build) builds; /* per selected profile, in order */
    size_t items;            /* item 0, then every build's archives, one after the other */
    bool *intact;            /* per item: the archive's bytes hash as recorded */
    work_pool *pool;
} prior_check;

typedef struct pack_ctx {
    const pack_options *opt;
    project *p;
    progress pg;
    const double *scan_seconds; /* per selected profile: its preflight scan */
    prior_check *prior;
    size_t profile;                      /* the selected profile being built */
    out_folder *folders;                 /* per selected profile */
    const struct resolved_ids *resolved; /* per selected profile: the generate pass's ids */
} pack_ctx;

/* Tests: the step reached (pack_options.at_step). */
static void at_step(const pack_ctx *ctx, pack_step step)
{
    if (ctx->opt->at_step) ctx->opt->at_step(ctx->opt->at_step_ctx, step);
}

/* Writes `content` as the file `name` in the output folder `dir` (swapping buffers, not copying);
 * *changed (if not NULL) says whether its bytes differ from the file's. */
static bool write_buf(output_set *set, const char *dir, const char *name, buf *content, bool *changed)
{
    out_file *o = output_begin_below(set, dir, name);
    buf tmp = o->chunk;
    o->chunk = *content;
    *content = tmp;
    bool ok = output_end(o);
    if (changed) *changed = o->differs;
    return ok;
}

/* The partition of the profile's assets into archives; the partitioner must give a valid one.
 * It must also give the same one for the same files in any order: the built-in partitioners
 * (the only ones) do by construction, sorting their input first by keys that order unique names
 * totally (pack_partition.c), which the tests check by packing shuffled scans (shuffle_seed); it
 * is not asked twice per build (that cost every edit a second partition of every file). */
static bool partition_assets(const content_profile *pr, const content_scan *sc, pack_partition *part)
{
    size_t n = sc->assets.count;
    pack_file *files = xcalloc(n ? n : 1, sizeof *files);
    for (size_t i = 0; i < n; i++) {
        const content_asset *a = &sc->assets.items[i];
        files[i] = (pack_file){a->name, a->size, XXH64(a->name, strlen(a->name), 0)};
    }
    uint64_t limit = (uint64_t)pr->max_archive_mb << 20;
    if (pr->partitioner == CONTENT_PART_TRIE) pack_partition_trie(files, n, limit, part);
    else pack_partition_sequential(files, n, limit, part);
    const char *why = NULL;
    bool ok = pack_partition_check(part, n, &why);
    if (!ok)
        content_profile_error(pr, "partitioner", "the %s partitioner gave an invalid partition: %s",
                              content_partitioner_name(pr->partitioner), why);
    free(files);
    return ok;
}

/* What one packed build writes: every archive described first (catalog first), then those the
 * previous build left intact are kept, checked on every core, and the others built on every core. */
typedef struct packed_build {
    pack_ctx *ctx;
    const content_profile *pr;
    content_scan *sc;
    const char *dir;
    output_set *set;
    build_stats *stats;
    const pack_partition *part;
    archive_list *archives;           /* [0] the catalog, then one per group */
    const tl_cf_index_archive **prev; /* per archive: the previous build's, if its name is listed */
    bool *kept;                       /* per archive: the previous build's file is right and stays */
    buf catalog;
} packed_build;

/* Names, files and input bytes of every archive. */
static void describe_archives(packed_build *pb)
{
    const content_scan *sc = pb->sc;
    for (size_t g = 0; g <= pb->part->count; g++) {
        const pack_group *grp = g ? &pb->part->items[g - 1] : NULL;
        const uint32_t *members = grp ? grp->members.items : NULL;
        size_t count = grp ? grp->members.count : 0;
        archive_out *a = vec_push(pb->archives);
        memset(a, 0, sizeof *a);
        a->catalog = !grp;
        a->name = archive_name(pb->pr, grp ? grp->label : "catalog", sc, members, count, grp ? NULL : &pb->catalog);
        for (size_t i = 0; i < count; i++) {
            *vec_push(&a->files) = sc->assets.items[members[i]].name;
            a->input_bytes += sc->assets.items[members[i]].size;
        }
        if (!grp) a->input_bytes = pb->catalog.len;
        if (a->files.count) qsort(a->files.items, a->files.count, sizeof *a->files.items, by_asset_name);
    }
}

/* Which previous archives stay: those this build names whose bytes the early check found
 * intact (waited for here, one by one). */
static void find_kept(packed_build *pb)
{
    const prior_check *pc = pb->ctx->prior;
    const prior_build *b = &pc->builds.items[pb->ctx->profile];
    const tl_cf_index *prev = b->have ? &b->index : NULL;
    size_t n = pb->archives->count;
    for (size_t g = 0; g < n; g++) {
        pb->prev[g] = previous_archive(prev, pb->archives->items[g].name);
        if (!pb->prev[g]) continue;
        size_t item = b->first + (size_t)(pb->prev[g] - prev->archives);
        work_pool_wait(pc->pool, item);
        pb->kept[g] = pc->intact[item];
    }
    for (size_t g = 0; g < n; g++) {
        archive_out *a = &pb->archives->items[g];
        if (!pb->kept[g]) continue;
        a->size = pb->prev[g]->size;
        a->xxh64 = pb->prev[g]->xxh64;
        pb->ctx->pg.done += a->files.count;
        pb->ctx->pg.bytes += a->catalog ? 0 : a->input_bytes;
    }
}

/* The catalog archive, one small entry: built here. */
static bool write_catalog_archive(packed_build *pb, archive_out *a)
{
    pack_codec *codec = pack_codec_new(pb->pr->compression, content_codec_level(pb->pr));
    buf bytes = {0};
    uint64_t in = 0;
    bool ok = pack_build_archive(pb->sc, NULL, 0, &pb->catalog, codec, &bytes, &in);
    pack_codec_free(codec);
    a->size = bytes.len;
    a->xxh64 = XXH64(bytes.data, bytes.len, 0);
    ok = ok && write_buf(pb->set, pb->dir, a->name, &bytes, &a->written);
    buf_free(&bytes);
    return ok;
}

typedef struct built_progress {
    packed_build *pb;
    const size_t *archive_of; /* per job: its archive */
} built_progress;

static void archive_built(void *ctx, size_t job)
{
    built_progress *bp = ctx;
    progress *pg = &bp->pb->ctx->pg;
    const archive_out *a = &bp->pb->archives->items[bp->archive_of[job]];
    pg->done += a->files.count;
    pg->bytes += a->input_bytes;
    progress_show(pg, pg->done == pg->total);
}

/* The previous build's archives that this one does not keep but that are intact (the one that
 * held an edited file, under its old name): the entries of the archives built again may be
 * copied from them (pack_find_reusable), not compressed again. Their names, in *paths. */
typedef VEC(char *) path_list;

static void reusable_sources(packed_build *pb, path_list *paths)
{
    const prior_check *pc = pb->ctx->prior;
    const prior_build *b = &pc->builds.items[pb->ctx->profile];
    if (!b->have) return;
    bool *kept = xcalloc(b->index.archive_count ? b->index.archive_count : 1, sizeof *kept);
    for (size_t g = 0; g < pb->archives->count; g++)
        if (pb->kept[g]) kept[pb->prev[g] - b->index.archives] = true;
    for (uint32_t i = 0; i < b->index.archive_count; i++) {
        if (kept[i] || b->index.archives[i].is_catalog) continue;
        work_pool_wait(pc->pool, b->first + i);
        if (pc->intact[b->first + i]) *vec_push(paths) = xstrdup(b->index.archives[i].name);
    }
    free(kept);
}

/* Per asset: where its stored bytes may be copied from (NULL when nothing is built again). */
static pack_entry_source *find_reusable(packed_build *pb, const pack_archive_job *list, size_t count, path_list *paths)
{
    const prior_build *b = &pb->ctx->prior->builds.items[pb->ctx->profile];
    /* Entries of another level are not this build's bytes (the codec is checked per archive). */
    if (!count || pb->pr->compression == CONTENT_CODEC_NONE || b->level != content_codec_level(pb->pr)) return NULL;
    reusable_sources(pb, paths);
    if (!paths->count) return NULL;
    VEC(uint32_t) members = {0};
    for (size_t j = 0; j < count; j++)
        for (size_t i = 0; i < list[j].count; i++) *vec_push(&members) = list[j].members[i];
    pack_entry_source *reuse = xcalloc(pb->sc->assets.count, sizeof *reuse);
    pack_find_reusable(pb->sc, pb->pr->compression, b->folder->fd, b->folder->path, (const char *const *)paths->items,
                       paths->count, members.items, members.count, reuse);
    vec_free(&members);
    return reuse;
}

/* Every asset archive not kept, built on every core. */
static bool write_asset_archives(packed_build *pb, unsigned jobs)
{
    size_t n = pb->archives->count, count = 0;
    pack_archive_job *list = xcalloc(n ? n : 1, sizeof *list);
    size_t *archive_of = xcalloc(n ? n : 1, sizeof *archive_of);
    for (size_t g = 1; g < n; g++) {
        if (pb->kept[g]) continue;
        const pack_group *grp = &pb->part->items[g - 1];
        archive_of[count] = g;
        list[count++] = (pack_archive_job){pb->archives->items[g].name, grp->members.items, grp->members.count, 0, 0, false};
    }
    built_progress bp = {pb, archive_of};
    path_list sources = {0};
    pack_entry_source *reuse = find_reusable(pb, list, count, &sources);
    bool ok = pack_build_archives(pb->sc, pb->pr->compression, content_codec_level(pb->pr), jobs, list, count, pb->set, pb->dir,
                                  reuse, archive_built, &bp);
    free(reuse);
    for (size_t i = 0; i < sources.count; i++) free(sources.items[i]);
    vec_free(&sources);
    for (size_t j = 0; ok && j < count; j++) {
        archive_out *a = &pb->archives->items[archive_of[j]];
        a->size = list[j].size, a->xxh64 = list[j].xxh64, a->written = list[j].written;
    }
    free(list);
    free(archive_of);
    return ok;
}

static void count_archives(packed_build *pb)
{
    for (size_t g = 0; g < pb->archives->count; g++) {
        const archive_out *a = &pb->archives->items[g];
        pb->stats->archives++;
        pb->stats->bytes_out += a->size;
        pb->stats->written += a->written;
        pb->stats->unchanged += pb->kept[g];
    }
}

/* The "archives" array of archives.json (sorted by name), with each one's "written" flag too for
 * the post-build result; `indent` is the array's own. */
static void archives_json(buf *json, const archive_list *archives, bool with_written, const char *indent)
{
    buf_puts(json, "[");
    for (size_t i = 0; i < archives->count; i++) {
        const archive_out *a = &archives->items[i];
        buf_printf(json, "%s\n%s  {\"name\": ", i ? "," : "", indent);
        json_string(json, a->name);
        buf_printf(json, ", \"role\": \"%s\", \"size\": %llu, \"input_bytes\": %llu, \"xxh64\": \"%016llx\",",
                   a->catalog ? "catalog" : "assets", (unsigned long long)a->size, (unsigned long long)a->input_bytes,
                   (unsigned long long)a->xxh64);
        if (with_written) buf_printf(json, " \"written\": %s,", a->written ? "true" : "false");
        buf_printf(json, "\n%s   \"files\": [", indent);
        for (size_t f = 0; f < a->files.count; f++) {
            buf_printf(json, "%s%s     ", f ? ",\n" : "\n", indent);
            json_string(json, a->files.items[f]);
        }
        buf_printf(json, a->files.count ? "\n%s   ]}" : "]}", indent);
    }
    buf_printf(json, "\n%s]", indent);
}

/* "compression_level" when the profile gives one other than its codec's default. */
static void put_level(buf *json, const content_profile *pr)
{
    if (content_codec_level(pr)) buf_printf(json, "\n  \"compression_level\": %d,", content_codec_level(pr));
}

/* archives.json: every archive by name, with its role, sizes, XXH64 and files. */
static bool write_index(const content_profile *pr, archive_list *archives, output_set *set, const char *dir)
{
    qsort(archives->items, archives->count, sizeof *archives->items, by_archive_name);
    buf json = {0};
    buf_puts(&json, "{\n  \"format\": 1,\n  \"profile\": ");
    json_string(&json, pr->name);
    buf_printf(&json, ",\n  \"compression\": \"%s\",", content_codec_name(pr->compression));
    put_level(&json, pr);
    buf_printf(&json, "\n  \"partitioner\": \"%s\",\n  \"max_archive_mb\": %u,\n  \"archives\": ",
               content_partitioner_name(pr->partitioner), pr->max_archive_mb);
    archives_json(&json, archives, false, "  ");
    buf_puts(&json, "\n}\n");
    bool ok = write_buf(set, dir, INDEX_FILE, &json, NULL);
    buf_free(&json);
    return ok;
}

static void catalog_item(void *ctx, size_t item, unsigned worker)
{
    packed_build *pb = ctx;
    (void)item, (void)worker;
    pack_build_catalog(pb->pr, pb->sc, false, &pb->catalog);
}

static bool build_packed(pack_ctx *ctx, const content_profile *pr, content_scan *sc, const char *dir, output_set *set,
                         build_stats *stats, archive_list *archives)
{
    pack_partition part;
    unsigned jobs = ctx->opt->jobs ? ctx->opt->jobs : work_pool_cores();
    packed_build pb = {ctx, pr, sc, dir, set, stats, &part, archives, NULL, NULL, {0}};
    /* The catalog (names and ids) on the pool's thread while the partition runs here. */
    work_pool *catalog = work_pool_start(jobs, 1, catalog_item, &pb, NULL, 0);
    bool ok = partition_assets(pr, sc, &part);
    work_pool_wait(catalog, 0);
    work_pool_finish(catalog);
    if (ok) {
        describe_archives(&pb);
        pb.prev = xcalloc(archives->count, sizeof *pb.prev);
        pb.kept = xcalloc(archives->count, sizeof *pb.kept);
        find_kept(&pb);
        ok = (pb.kept[0] || write_catalog_archive(&pb, &archives->items[0])) && write_asset_archives(&pb, jobs);
    }
    if (ok) count_archives(&pb);
    free(pb.prev);
    free(pb.kept);
    buf_free(&pb.catalog);
    if (ok) ok = write_index(pr, archives, set, dir);
    pack_partition_free(&part);
    return ok;
}

/* A flat build copies each asset under its path, and the runtime mounts only paths whose
 * components are names every platform can hold as files (tl_cf_flat_file_name: no ':' < > " | ? *,
 * no control character, no trailing '.' or space, no Windows device name such as CON or aux.txt).
 * Refused here, before anything is written, rather than by the game on Windows. A folder's problem
 * is reported once, at its first file. */
static bool flat_paths_portable(const content_profile *pr, const content_scan *sc)
{
    bool ok = true;
    if (pr->archive != CONTENT_ARCHIVE_NONE) return true;
    char *reported = NULL; /* the last folder reported, with its '/' */
    for (size_t i = 0; i < sc->assets.count; i++) {
        const content_asset *a = &sc->assets.items[i];
        if (reported && strncmp(a->path, reported, strlen(reported)) == 0) continue;
        for (const char *p = a->path; *p;) {
            size_t n = strcspn(p, "/");
            const char *why = tl_text_windows_name_problem(p, n);
            if (why) {
                char *full = path_join(sc->root, a->path);
                if (p[n]) {
                    free(reported);
                    reported = xasprintf("%.*s/", (int)(p + n - a->path), a->path);
                    diag_error(loc_file(full),
                               "folder name \"%.*s\" %s; the runtime refuses it in the asset paths of a flat build "
                               "(\"archive\": \"none\"); rename it, or pack archives",
                               (int)n, p, why);
                } else {
                    diag_error(loc_file(full),
                               "file name %s; the runtime refuses it in the asset paths of a flat build "
                               "(\"archive\": \"none\"); rename it, or pack archives",
                               why);
                }
                free(full);
                ok = false;
                break;
            }
            p += n;
            if (*p) p++;
        }
    }
    free(reported);
    return ok;
}

static bool build_flat(pack_ctx *ctx, const content_profile *pr, content_scan *sc, const char *dir, output_set *set,
                       build_stats *stats)
{
    bool ok = true;
    for (size_t i = 0; i < sc->assets.count && ok; i++) {
        const content_asset *a = &sc->assets.items[i];
        char *src = path_join(sc->root, a->path);
        char *rel = xasprintf("%s/%s", FLAT_ASSETS, a->path);
        /* Streamed (checked against the scan as it is copied): an asset is never held whole. */
        out_file *o = output_begin_below(set, dir, rel);
        ok = !o->failed && pack_stream_asset(src, a->size, a->xxh64, o) && output_end(o);
        stats->written += o->differs;
        stats->unchanged += !o->differs;
        stats->bytes_out += a->size;
        free(src);
        free(rel);
        ctx->pg.done++;
        ctx->pg.bytes += a->size;
        progress_show(&ctx->pg, false);
    }
    if (ok) {
        buf catalog = {0};
        pack_build_catalog(pr, sc, true, &catalog);
        stats->bytes_out += catalog.len;
        ok = write_buf(set, dir, FLAT_CATALOG, &catalog, NULL);
        buf_free(&catalog);
    }
    return ok;
}

/* The ids the generate pass gave each selected profile's assets (its session's keep), over the
 * same assets as pack's scan of the profile, and the manifest they come from (a depfile input).
 * A profile whose files a stage provides (the text stage's tables) the pass does not take from
 * pack's scan: it is kept with its asset names, and pack reads its tree again after the pass (which
 * may have written it) to match them. */
typedef struct resolved_ids {
    bool have;
    bool provided; /* the pass's assets came from a stage: `names` are theirs */
    size_t count;  /* the profile's scan's assets (provided: the pass's) */
    uint32_t *ids; /* per asset */
    char **members;
    char **names, **paths; /* the pass's assets' */
    char *manifest_path;
} resolved_ids;

typedef VEC(size_t) profile_selection; /* indices into the config's profiles */

typedef struct resolved_keeper {
    const content_config *cc;
    const profile_selection *sel;
    const content_scan *scans; /* per selected profile */
    resolved_ids *resolved;    /* per selected profile */
} resolved_keeper;

static bool same_assets(const content_scan *a, const content_scan *b)
{
    if (a->assets.count != b->assets.count) return false;
    for (size_t i = 0; i < a->assets.count; i++)
        if (strcmp(a->assets.items[i].name, b->assets.items[i].name) != 0) return false;
    return true;
}

static void keep_resolved(void *ctx, const content_profile *pr, const content_scan *sc, const char *manifest_path)
{
    resolved_keeper *rk = ctx;
    for (size_t i = 0; i < rk->sel->count; i++) {
        const content_profile *mine = &rk->cc->profiles.items[rk->sel->items[i]];
        resolved_ids *r = &rk->resolved[i];
        if (r->have || !mine->name || !pr->name || strcmp(mine->name, pr->name) != 0) continue;
        if (!sc->provided && !same_assets(&rk->scans[i], sc)) continue;
        size_t n = sc->assets.count;
        r->ids = xcalloc(n ? n : 1, sizeof *r->ids);
        r->members = xcalloc(n ? n : 1, sizeof *r->members);
        r->names = xcalloc(n ? n : 1, sizeof *r->names);
        r->paths = xcalloc(n ? n : 1, sizeof *r->paths);
        for (size_t k = 0; k < n; k++) {
            r->ids[k] = sc->assets.items[k].id, r->members[k] = xstrdup(sc->assets.items[k].member);
            r->names[k] = xstrdup(sc->assets.items[k].name), r->paths[k] = xstrdup(sc->assets.items[k].path);
        }
        r->have = true, r->provided = sc->provided, r->count = n;
        r->manifest_path = xstrdup(manifest_path);
    }
}

static void resolved_free(resolved_ids *resolved, size_t count)
{
    for (size_t i = 0; resolved && i < count; i++) {
        for (size_t k = 0; k < resolved[i].count; k++)
            free(resolved[i].members[k]), free(resolved[i].names[k]), free(resolved[i].paths[k]);
        free(resolved[i].ids);
        free(resolved[i].members);
        free(resolved[i].names);
        free(resolved[i].paths);
        free(resolved[i].manifest_path);
    }
    free(resolved);
}

/* A provided profile's tree, as pack read it, against the files the stage gives: each file one
 * side lacks, in one error (the names of both are sorted bytewise). */
static bool provided_files_match(const content_profile *pr, const content_scan *sc, const resolved_ids *r)
{
    buf lacks = {0}, extra = {0};
    size_t i = 0, k = 0;
    while (i < sc->assets.count || k < r->count) {
        int order = i == sc->assets.count ? 1 : k == r->count ? -1 : strcmp(sc->assets.items[i].name, r->names[k]);
        if (order < 0) buf_printf(&extra, "%s%s", extra.len ? ", " : "", sc->assets.items[i].path);
        if (order > 0) buf_printf(&lacks, "%s%s", lacks.len ? ", " : "", r->paths[k]);
        i += order <= 0, k += order >= 0;
    }
    if (lacks.len)
        diag_error(pr->loc, "profile \"%s\": %s lacks %s, which the text stage gives now: run %s", pr->name, pr->source_root,
                   lacks.data, diag_generate_command());
    if (extra.len)
        diag_error(pr->loc, "profile \"%s\": %s holds %s, which the text stage does not give: remove it, or run %s", pr->name,
                   pr->source_root, extra.data, diag_generate_command());
    bool ok = !lacks.len && !extra.len;
    buf_free(&lacks);
    buf_free(&extra);
    return ok;
}

/* The asset ids as the generate pass resolved them (generate: recorded in the manifest; headers,
 * for --build-step: merged in memory). The pass resolves every profile over the scans pack made
 * (its memo), so a selected profile without ids is a fault of the run, reported as such. */
static bool resolve_ids(pack_ctx *ctx, const content_profile *pr, content_scan *sc)
{
    const resolved_ids *r = &ctx->resolved[ctx->profile];
    if (!r->have) {
        diag_error(pr->loc, "profile \"%s\": the generate pass gave no ids for the assets pack scanned; nothing was built",
                   pr->name);
        return false;
    }
    if (r->provided && !provided_files_match(pr, sc, r)) return false;
    for (size_t k = 0; k < sc->assets.count; k++) sc->assets.items[k].id = r->ids[k], sc->assets.items[k].member = r->members[k];
    return true;
}

/* Tests: the scanned inputs in another order, to show that nothing depends on it. */
static void shuffle_assets(content_scan *sc, uint64_t seed)
{
    for (size_t i = sc->assets.count; seed && i > 1; i--) {
        size_t j = (size_t)(splitmix(&seed) % i);
        content_asset t = sc->assets.items[i - 1];
        sc->assets.items[i - 1] = sc->assets.items[j];
        sc->assets.items[j] = t;
    }
}

/* Every file of the output folder as this build leaves it, relative to it, sorted bytewise. */
static void output_files(const content_profile *pr, const content_scan *sc, const archive_list *archives, name_list *keep)
{
    *vec_push(keep) = xstrdup(MARKER_FILE);
    if (pr->archive == CONTENT_ARCHIVE_PACKED) {
        *vec_push(keep) = xstrdup(INDEX_FILE);
        for (size_t i = 0; i < archives->count; i++) *vec_push(keep) = xstrdup(archives->items[i].name);
    } else {
        *vec_push(keep) = xstrdup(FLAT_CATALOG);
        for (size_t i = 0; i < sc->assets.count; i++) *vec_push(keep) = xasprintf("%s/%s", FLAT_ASSETS, sc->assets.items[i].path);
    }
    qsort(keep->items, keep->count, sizeof *keep->items, names_cmp);
}

/* Everything else in the folder belonged to the previous build. */
static void remove_all_but(const out_folder *of, const name_list *keep)
{
    keep_set ks = {keep->items, xcalloc(keep->count ? keep->count : 1, sizeof(char *)), keep->count};
    memcpy(ks.folded, keep->items, keep->count * sizeof(char *));
    qsort(ks.folded, ks.n, sizeof *ks.folded, names_cmp_ignoring_case);
    remove_stale_in(of->fd, of->path, "", &ks);
    free(ks.folded);
}

static void json_names(buf *json, const char *const *names, size_t n)
{
    buf_puts(json, "[");
    for (size_t i = 0; i < n; i++) {
        buf_puts(json, i ? ",\n    " : "\n    ");
        json_string(json, names[i]);
    }
    buf_puts(json, n ? "\n  ]" : "]");
}

/* What the post-build commands get: the profile and its settings, the files of the output folder,
 * the archives (as archives.json, with "written"), the names built, and the times taken. */
static void build_result_json(const content_profile *pr, const content_scan *sc, const name_list *files,
                              const archive_list *archives, const double times[3], buf *json)
{
    buf_puts(json, "{\n  \"format\": 1,\n  \"profile\": ");
    json_string(json, pr->name);
    const char *keys[] = {"output", "source_root"}, *values[] = {pr->output, pr->source_root};
    for (size_t k = 0; k < 2; k++) {
        buf_printf(json, ",\n  \"%s\": ", keys[k]);
        json_string(json, values[k]);
    }
    buf_printf(json, ",\n  \"archive\": \"%s\",\n  \"compression\": \"%s\",", content_archive_name(pr->archive),
               content_codec_name(pr->compression));
    put_level(json, pr);
    buf_printf(json, "\n  \"partitioner\": \"%s\",\n  \"max_archive_mb\": %u", content_partitioner_name(pr->partitioner),
               pr->max_archive_mb);
    buf_puts(json, ",\n  \"files\": ");
    json_names(json, (const char *const *)files->items, files->count);
    buf_puts(json, ",\n  \"archives\": ");
    archives_json(json, archives, true, "  ");
    const char **names = xcalloc(sc->assets.count + 1, sizeof *names);
    for (size_t i = 0; i < sc->assets.count; i++) names[i] = sc->assets.items[i].name;
    qsort(names, sc->assets.count, sizeof *names, by_asset_name);
    buf_puts(json, ",\n  \"built_names\": ");
    json_names(json, names, sc->assets.count);
    free(names);
    buf_printf(json, ",\n  \"timings\": {\"scan_ms\": %.3f, \"build_ms\": %.3f, \"total_ms\": %.3f}\n}\n", times[0] * 1e3,
               times[1] * 1e3, times[2] * 1e3);
}

static void print_summary(const pack_ctx *ctx, const content_profile *pr, const build_stats *stats, double secs)
{
    if (ctx->opt->quiet) return;
    FILE *out = ctx->opt->summary ? ctx->opt->summary : stdout;
    if (pr->archive == CONTENT_ARCHIVE_PACKED)
        fprintf(out, "pack %s: %zu files, %.1f MB in, %.1f MB out, %zu archives (%zu written, %zu unchanged), %.2f s\n", pr->name,
                stats->files, (double)stats->bytes_in / 1e6, (double)stats->bytes_out / 1e6, stats->archives, stats->written,
                stats->archives - stats->written, secs);
    else
        fprintf(out, "pack %s: %zu files, %.1f MB in, %.1f MB out, flat (%zu written, %zu unchanged), %.2f s\n", pr->name,
                stats->files, (double)stats->bytes_in / 1e6, (double)stats->bytes_out / 1e6, stats->written, stats->unchanged,
                secs);
}

/* The entries of the record of input hashes, made on the pool's thread while the build runs on
 * the calling one (pack_inputs_entries: reading only what the build does not change). */
typedef struct record_job {
    content_memo *memo;
    const content_profile *pr;
    const content_scan *sc;
    buf entries;
    work_pool *pool;
} record_job;

static void record_entries(void *ctx, size_t item, unsigned worker)
{
    record_job *rj = ctx;
    (void)item, (void)worker;
    pack_inputs_entries(rj->memo, rj->pr, rj->sc, &rj->entries);
}

/* The marker, then the archives and index (or the flat files), committed together into the
 * folder open as of->fd, if its path still names it. */
static bool commit_output(pack_ctx *ctx, const content_profile *pr, content_scan *sc, const out_folder *of, build_stats *stats,
                          archive_list *archives)
{
    output_set set = {.mode = OUTPUT_WRITE};
    if (!output_set_base(&set, of->path, of->fd, of->made)) {
        diag_error(loc_file(of->path), "cannot open the output folder: %s", strerror(errno));
        return false;
    }
    buf marker = {0};
    buf_printf(&marker,
               "threadlink-gen content build of profile %s. threadlink-gen pack owns this folder and replaces "
               "everything in it.\n",
               pr->name);
    at_step(ctx, PACK_STEP_WRITE);
    bool ok = write_buf(&set, of->path, MARKER_FILE, &marker, NULL);
    buf_free(&marker);
    if (ok)
        ok = pr->archive == CONTENT_ARCHIVE_PACKED ? build_packed(ctx, pr, sc, of->path, &set, stats, archives)
                                                   : build_flat(ctx, pr, sc, of->path, &set, stats);
    progress_clear(&ctx->pg);
    if (ok) at_step(ctx, PACK_STEP_COMMIT);
    ok = ok && folder_check_in_place(of, "nothing was replaced") && output_commit(&set);
    if (!ok) output_abort(&set);
    output_set_free(&set);
    return ok;
}

/* The build into the output folder (made now if it was missing); a failed first build takes its
 * folders with it (left without the marker, which lands with the rest, they would make the
 * folder look like someone else's next time). */
static bool write_output(pack_ctx *ctx, const content_profile *pr, content_scan *sc, out_folder *of, build_stats *stats,
                         archive_list *archives, record_job *record)
{
    if (of->fd < 0 && !folder_make(pr, of)) return false;
    name_list before = {0};
    const bool first = of->made || (fs_list_dir_fd(of->fd, &before) && before.count == 0);
    name_list_free(&before);
    bool ok = commit_output(ctx, pr, sc, of, stats, archives);
    if (!ok && first) {
        remove_stale_in(of->fd, of->path, "", &(keep_set){0}); /* everything in it, */
        if (of->made && folder_in_place(of)) rmdir(of->path);  /* and the folder itself if this run made it */
    }
    if (ok && of->real) {
        work_pool_wait(record->pool, 0);
        pack_inputs_save(of->real, &record->entries);
    }
    return ok;
}

static bool pack_profile(pack_ctx *ctx, content_profile *pr, content_scan *sc, out_locks *locks, size_t index)
{
    double start = now_seconds();
    bool ok = resolve_ids(ctx, pr, sc);
    if (ok) shuffle_assets(sc, ctx->opt->shuffle_seed);
    out_folder *of = &ctx->folders[index];
    build_stats stats = {0};
    archive_list archives = {0};
    ctx->pg = (progress){ctx->pg.on, ctx->pg.last, pr->name, 0, sc->assets.count, 0};
    for (size_t i = 0; i < sc->assets.count; i++) stats.bytes_in += sc->assets.items[i].size;
    stats.files = sc->assets.count;
    record_job record = {ctx->prior->memo, pr, sc, {0}, NULL};
    if (ok) {
        record.pool = work_pool_start(ctx->opt->jobs ? ctx->opt->jobs : work_pool_cores(), 1, record_entries, &record, NULL, 0);
        ok = write_output(ctx, pr, sc, of, &stats, &archives, &record);
        work_pool_finish(record.pool);
    }
    buf_free(&record.entries);
    name_list files = {0};
    if (ok) output_files(pr, sc, &archives, &files);
    if (ok) at_step(ctx, PACK_STEP_CLEAN_UP);
    if (ok) remove_all_but(of, &files);
    if (ok) ok = folder_check_in_place(of, "the build went into the folder it opened, wherever that is now");
    /* Built and cleaned up: another run may have the folder now (hooks run unlocked). */
    if (ok) pack_locks_release_after(locks, index);
    if (ok && pr->post_build.count) {
        buf result = {0};
        double times[3] = {ctx->scan_seconds[index], now_seconds() - start, 0};
        times[2] = times[0] + times[1];
        build_result_json(pr, sc, &files, &archives, times, &result);
        ok = pack_run_hooks(pr, ctx->p->cfg.root, &result);
        buf_free(&result);
    }
    if (ok) print_summary(ctx, pr, &stats, now_seconds() - start);
    name_list_free(&files);
    for (size_t i = 0; i < archives.count; i++) {
        free(archives.items[i].name);
        vec_free(&archives.items[i].files);
    }
    vec_free(&archives);
    return ok;
}

/* ---- The command ------------------------------------------------------------------------------------ */

/* The output folder of a profile, as the build writes it. */
static char *output_dir_of(const project *p, const content_profile *pr)
{
    return pr->output[0] == '/' ? xstrdup(pr->output) : path_join(p->cfg.root, pr->output);
}

/* --stamp: one line per profile built; written (its time renewed) on every successful run, so a
 * Make rule whose target it is settles after one run. */
static bool write_stamp(const char *path, const content_config *cc, const profile_selection *sel)
{
    output_set set = {.mode = OUTPUT_WRITE};
    out_file *o = output_begin(&set, path);
    for (size_t i = 0; i < sel->count; i++) {
        const content_profile *pr = &cc->profiles.items[sel->items[i]];
        buf_printf(&o->chunk, "threadlink-gen pack: profile %s into %s\n", pr->name, pr->output);
    }
    bool ok = output_end(o) && output_commit(&set); /* a failure is reported where met */
    output_set_free(&set);
    if (!ok) {
        diag_error(loc_file(path), "cannot write the stamp");
    } else if (utimensat(AT_FDCWD, path, NULL, 0) != 0) {
        diag_error(loc_file(path), "cannot renew the stamp's time: %s", strerror(errno));
        ok = false;
    }
    return ok;
}

/* What a selected profile's archives derive from besides its tree (which pack's own scan put
 * among the project's inputs): its rename records, which give an asset an earlier id, and its
 * manifest, which holds the ids (each, while not written, as its nearest existing folder). */
static void add_profile_inputs(path_list *inputs, const content_scan *sc, const resolved_ids *r)
{
    char *renames = path_join(sc->root, CONTENT_RENAMES_FILE);
    *vec_push(inputs) = depfile_existing_ancestor(renames);
    free(renames);
    *vec_push(inputs) = depfile_existing_ancestor(r->manifest_path);
}

/* --depfile: every file and folder the profiles' outputs derive from: the config, the asset trees
 * as pack scanned them (their folders too, so that an added asset re-runs pack), each profile's
 * rename records and manifest. A build step's pass writes nothing, so the rest of the project
 * (injectors, vaults, PO files, other profiles) changes none of its archives and is the headers
 * step's to follow; plain pack's pass is generate, which writes what a profile may pack (the text
 * stage's tables), so every input that pass read is named too. */
static bool write_depfile(const pack_options *opt, project *p, const content_config *cc, const profile_selection *sel,
                          const content_scan *scans, const resolved_ids *resolved, const name_list *pass_inputs)
{
    path_list inputs = {0};
    for (size_t i = 0; i < p->inputs.count; i++) *vec_push(&inputs) = depfile_existing_ancestor(p->inputs.items[i]);
    for (size_t i = 0; i < pass_inputs->count; i++) *vec_push(&inputs) = depfile_existing_ancestor(pass_inputs->items[i]);
    for (size_t i = 0; i < sel->count; i++) add_profile_inputs(&inputs, &scans[i], &resolved[i]);
    char *target;
    if (opt->deptarget) target = xstrdup(opt->deptarget);
    else if (opt->stamp) target = depfile_absolute(opt->stamp);
    else {
        const content_profile *pr = &cc->profiles.items[sel->items[0]];
        char *dir = output_dir_of(p, pr);
        char *index = path_join(dir, pr->archive == CONTENT_ARCHIVE_PACKED ? INDEX_FILE : FLAT_CATALOG);
        target = depfile_absolute(index);
        free(dir), free(index);
    }
    bool ok = depfile_write(opt->depfile, target, inputs.items, inputs.count);
    free(target);
    for (size_t i = 0; i < inputs.count; i++) free(inputs.items[i]);
    vec_free(&inputs);
    return ok;
}

static bool is_all(const char *name) { return ascii_ieq(name, strlen(name), "all", 3); }

/* An unknown --profile is an input error, as in the seed's builder: it names the profiles the
 * config declares (and the nearest one, for a typo). */
static void report_unknown_profile(const char *cfg_path, const content_config *cc, const char *name)
{
    buf known = {0};
    const char **names = xcalloc(cc->profiles.count + 1, sizeof *names);
    for (size_t i = 0; i < cc->profiles.count; i++) {
        names[i] = cc->profiles.items[i].name;
        buf_printf(&known, "%s%s", i ? ", " : "", names[i]);
    }
    const char *near = suggest_nearest(name, strlen(name), names, cc->profiles.count);
    char *hint = near ? xasprintf(" (did you mean '%s'?)", near) : xstrdup("");
    diag_error(loc_file(cfg_path), "unknown profile '%s'%s (profiles: %s, or all)", name, hint, known.data);
    free(hint);
    free(names);
    buf_free(&known);
}

/* --profile: the named one, all (in any case), or (none named) the only one or all. false after
 * reporting an unknown profile. */
static bool select_profiles(const pack_options *opt, const char *cfg_path, const content_config *cc, profile_selection *sel)
{
    if (!opt->profile && cc->profiles.count == 1) {
        *vec_push(sel) = 0;
        return true;
    }
    if (!opt->profile || is_all(opt->profile)) {
        for (size_t i = 0; i < cc->profiles.count; i++) *vec_push(sel) = i;
        return true;
    }
    for (size_t i = 0; i < cc->profiles.count; i++)
        if (strcmp(cc->profiles.items[i].name, opt->profile) == 0) *vec_push(sel) = i;
    if (!sel->count) report_unknown_profile(cfg_path, cc, opt->profile);
    return sel->count > 0;
}

static bool has_overrides(const pack_options *opt)
{
    return opt->output || opt->archive || opt->max_archive_mb || opt->compression || opt->compression_level || opt->source ||
           opt->partitioner || opt->post_build_count || opt->no_post_build;
}

/* A folder given on the command line, as the config would spell it ("out/" is "out"). */
static void override_folder(char **field, const char *value)
{
    free(*field);
    *field = xstrdup(value);
    size_t n = strlen(*field);
    while (n > 1 && (*field)[n - 1] == '/') (*field)[--n] = 0;
}

/* --post-build CMD... replaces the profile's commands; --no-post-build leaves none. */
static void override_hooks(const pack_options *opt, content_profile *pr)
{
    if (!opt->post_build_count && !opt->no_post_build) return;
    for (size_t i = 0; i < pr->post_build.count; i++) free(pr->post_build.items[i]);
    pr->post_build.count = 0;
    for (size_t i = 0; !opt->no_post_build && i < opt->post_build_count; i++)
        *vec_push(&pr->post_build) = xstrdup(opt->post_build[i]);
}

/* --compression and --compression-level: a level is the codec's, so a new codec starts from its
 * default. 0, or the usage error's status. */
static int override_codec(const pack_options *opt, content_profile *pr)
{
    int lo, hi, fallback;
    if (opt->compression && !content_parse_codec(opt->compression, &pr->compression))
        return usage("--compression takes none, lz4 or zstd, not '%s'", opt->compression);
    if (opt->compression) pr->compression_level = 0;
    if (!opt->compression_level) return 0;
    content_codec_levels(pr->compression, &lo, &hi, &fallback);
    if (pr->compression == CONTENT_CODEC_NONE) return usage("%s", "--compression-level needs lz4 or zstd compression");
    if ((int)opt->compression_level < lo || (int)opt->compression_level > hi) {
        char range[64];
        snprintf(range, sizeof range, "%s takes %d to %d", content_codec_name(pr->compression), lo, hi);
        return usage("--compression-level for %s", range);
    }
    pr->compression_level = (int)opt->compression_level;
    return 0;
}

/* --archive, --compression(-level), --partitioner, --max-archive-mb. 0, or the usage error's
 * status. */
static int override_settings(const pack_options *opt, content_profile *pr)
{
    if (opt->archive && !content_parse_archive(opt->archive, &pr->archive))
        return usage("--archive takes none or packed, not '%s'", opt->archive);
    int rc = override_codec(opt, pr);
    if (rc) return rc;
    if (opt->partitioner && strcmp(opt->partitioner, "trie") != 0 && strcmp(opt->partitioner, "sequential") != 0)
        return usage("--partitioner takes trie or sequential, not '%s'", opt->partitioner);
    if (opt->partitioner) pr->partitioner = strcmp(opt->partitioner, "trie") == 0 ? CONTENT_PART_TRIE : CONTENT_PART_SEQUENTIAL;
    if (opt->max_archive_mb) pr->max_archive_mb = opt->max_archive_mb;
    return 0;
}

/* The overrides into the one selected profile. 0, or the usage error's status; an --output or
 * --source folder the paths check refuses clears *paths_ok (reported, with everything the
 * preflight finds). */
static int apply_overrides(const pack_options *opt, project *p, content_config *cc, const profile_selection *sel,
                           content_session *session, bool *paths_ok)
{
    if (!has_overrides(opt)) return 0;
    if (sel->count != 1) {
        buf names = {0}; /* the profiles it could be: a build file gets one step per profile */
        for (size_t i = 0; i < sel->count; i++)
            buf_printf(&names, "%s%s", i ? (i + 1 == sel->count ? " and " : ", ") : "", cc->profiles.items[sel->items[i]].name);
        int rc = usage("overrides (--output, --source, --archive, --max-archive-mb, --compression(-level), --partitioner, "
                       "--post-build) apply to one profile: name it with --profile (this config has %s; a build runs one "
                       "pack --build-step per profile)",
                       buf_cstr(&names));
        buf_free(&names);
        return rc;
    }
    content_profile *pr = &cc->profiles.items[sel->items[0]];
    int rc = override_settings(opt, pr);
    if (rc) return rc;
    if ((opt->output && !opt->output[0]) || (opt->source && !opt->source[0]))
        return usage("%s", opt->output && !opt->output[0] ? "--output needs a folder" : "--source needs a folder");
    override_hooks(opt, pr);
    if (opt->output) override_folder(&pr->output, opt->output);
    if (opt->source) {
        override_folder(&pr->source_root, opt->source);
        session->source_profile = pr->name, session->source_root = pr->source_root; /* for the generate pass */
    }
    if (opt->output || opt->source) *paths_ok = content_check_paths(pr, p, cc);
    return 0;
}

/* No other run on these output folders from here until each one's build is cleaned up. */
static bool lock_outputs(const project *p, const content_config *cc, const profile_selection *sel, out_locks *locks)
{
    bool ok = true;
    for (size_t i = 0; i < sel->count; i++) {
        char *dir = output_dir_of(p, &cc->profiles.items[sel->items[i]]);
        if (!pack_locks_add(locks, dir, i)) ok = false;
        free(dir);
    }
    return pack_locks_take(locks) && ok;
}

static void check_prior_item(void *ctx, size_t item, unsigned worker)
{
    prior_check *pc = ctx;
    (void)worker;
    if (item == 0) {
        for (size_t i = 0; i < pc->seed_dirs.count; i++) pack_inputs_seed(pc->memo, pc->project_root, pc->seed_dirs.items[i]);
        return;
    }
    size_t b = pc->builds.count - 1;
    while (b && pc->builds.items[b].first > item) b--;
    const prior_build *pb = &pc->builds.items[b];
    const tl_cf_index_archive *pa = &pb->index.archives[item - pb->first];
    pc->intact[item] = same_bytes(pb->folder->fd, pa->name, pa->size, pa->xxh64);
}

/* The previous build's archives.json in the output folder, if it has one, as the next build. */
static void prior_add(prior_check *pc, const out_folder *of, bool usable)
{
    prior_build *b = vec_push(&pc->builds);
    memset(b, 0, sizeof *b);
    b->folder = of;
    b->first = pc->items;
    char *index_path = path_join(of->path, INDEX_FILE);
    buf text = {0};
    b->have = usable && of->fd >= 0 && fs_read_input_at(of->fd, INDEX_FILE, index_path, FS_INPUT_OWN, &text) &&
              tl_cf_index_parse(&b->index, text.data ? text.data : "", text.len, NULL) == TL_CF_OK;
    if (b->have) b->level = content_index_level(text.data, text.len);
    buf_free(&text);
    free(index_path);
    if (b->have) pc->items += b->index.archive_count;
}

static void memo_seeded(void *ctx)
{
    prior_check *pc = ctx;
    work_pool_wait(pc->pool, 0);
}

static void prior_start(prior_check *pc, unsigned jobs)
{
    pc->intact = xcalloc(pc->items, sizeof *pc->intact);
    pc->pool = work_pool_start(jobs, pc->items, check_prior_item, pc, NULL, 0);
    content_memo_seeding(pc->memo, memo_seeded, pc);
}

/* Checks not claimed yet are dropped; those running are waited for. */
static void prior_end(prior_check *pc)
{
    content_memo_seeding(pc->memo, NULL, NULL);
    if (pc->pool) work_pool_finish(pc->pool);
    name_list_free(&pc->seed_dirs);
    for (size_t i = 0; i < pc->builds.count; i++)
        if (pc->builds.items[i].have) tl_cf_index_free(&pc->builds.items[i].index);
    vec_free(&pc->builds);
    free(pc->intact);
}

/* Preflight: every selected profile's output folder and tree, before anything is written. */
typedef VEC(content_scan) scan_list;

static bool preflight(project *p, content_config *cc, const profile_selection *sel, out_folder *folders, scan_list *scans,
                      double *scan_seconds, prior_check *prior, unsigned jobs)
{
    bool ok = true;
    prior->project_root = p->cfg.root;
    prior->items = 1; /* item 0: the memo's seeding */
    for (size_t i = 0; i < sel->count; i++) {
        content_profile *pr = &cc->profiles.items[sel->items[i]];
        out_folder *of = &folders[i];
        of->path = output_dir_of(p, pr);
        bool usable = folder_open(pr, of) && output_folder_usable(pr, of);
        if (!usable) ok = false;
        else if (of->real) *vec_push(&prior->seed_dirs) = xstrdup(of->real);
        prior_add(prior, of, usable && pr->archive == CONTENT_ARCHIVE_PACKED);
    }
    prior_start(prior, jobs);
    content_reader how = {prior->memo, jobs};
    for (size_t i = 0; i < sel->count; i++) {
        content_profile *pr = &cc->profiles.items[sel->items[i]];
        content_scan *sc = vec_push(scans);
        double start = now_seconds();
        if (!content_scan_profile(p, pr, &how, sc) || !flat_paths_portable(pr, sc)) ok = false;
        scan_seconds[i] = now_seconds() - start;
    }
    return ok;
}

static void add_pass_input(void *ctx, const char *path) { *vec_push((name_list *)ctx) = xstrdup(path); }

/* Names into ids, the ids every catalog and archive records: the generate pass over the whole
 * project, the same gen_run as `generate` (--build-step: as `headers`, manifests read and merged
 * in memory, nothing written), with pack's session, whose keep takes each selected profile's ids
 * as the pass resolves them. Without --build-step, every input the pass read goes to *inputs (for
 * the depfile: write_depfile). */
static bool generate_pass(const pack_options *opt, const char *cfg_path, const content_session *session,
                          const char *const *packed_domains, size_t packed_count, unsigned jobs, name_list *inputs)
{
    gen_options g = {0};
    g.command = opt->build_step ? GEN_HEADERS : GEN_GENERATE;
    g.write_nothing = opt->build_step;
    g.strict = opt->build_step && opt->strict;
    g.always_resolve = true; /* the ids, also when the stamp finds the headers up to date */
    g.config_path = cfg_path;
    g.quiet = opt->quiet;
    g.banner_without_version = opt->banner_without_version;
    g.generator_build = opt->generator_build;
    g.summary = opt->summary;
    g.project_dir = opt->project_dir;
    g.jobs = jobs;
    g.content = session;
    if (opt->build_step) g.reported_domains = packed_domains, g.reported_count = packed_count; /* headers says the rest */
    if (opt->depfile && !opt->build_step) g.on_input = add_pass_input, g.on_input_ctx = inputs;
    return gen_run(&g, NULL) == 0;
}

/* The profiles whose files a stage provides, read again from their trees: the generate pass (not
 * --build-step's) has just written them, after pack's preflight read them. Not through the scan
 * memo, which would give the preflight's result again. */
static bool reread_provided(project *p, content_config *cc, const profile_selection *sel, const resolved_ids *resolved,
                            content_scan *scans, unsigned jobs)
{
    bool ok = true;
    content_reader how = {NULL, jobs};
    for (size_t i = 0; i < sel->count; i++) {
        if (!resolved[i].provided) continue;
        content_scan_free(&scans[i]);
        const content_profile *pr = &cc->profiles.items[sel->items[i]];
        if (!content_scan_profile(p, pr, &how, &scans[i]) || !flat_paths_portable(pr, &scans[i])) ok = false;
    }
    return ok;
}

/* Each selected profile built in turn, then the stamp and the depfile. */
static bool build_profiles(const pack_options *opt, project *p, content_config *cc, const profile_selection *sel,
                           out_folder *folders, content_scan *scans, const double *scan_seconds, out_locks *locks,
                           prior_check *prior, const resolved_ids *resolved, const name_list *pass_inputs)
{
    pack_ctx ctx = {opt, p, {false, 0, NULL, 0, 0, 0}, scan_seconds, prior, 0, folders, resolved};
    ctx.pg.on = opt->progress > 0 || (opt->progress < 0 && isatty(2));
    if (opt->before_build) opt->before_build(opt->before_build_ctx);
    for (size_t i = 0; i < sel->count; i++) {
        ctx.profile = i;
        if (!pack_profile(&ctx, &cc->profiles.items[sel->items[i]], &scans[i], locks, i)) return false;
    }
    if (opt->stamp && !write_stamp(opt->stamp, cc, sel)) return false;
    return !opt->depfile || write_depfile(opt, p, cc, sel, scans, resolved, pass_inputs);
}

/* The selected profiles, locked, checked, named and built (built only if `ok`: what the preflight
 * finds is reported either way): true when all went well. The output folders stay open from their
 * preflight to the end of the run. */
static bool pack_selected(const pack_options *opt, const char *cfg_path, project *p, content_config *cc,
                          const profile_selection *sel, bool ok, content_session *session, scan_list *scans, out_locks *locks)
{
    if (!lock_outputs(p, cc, sel, locks)) ok = false;
    unsigned jobs = opt->jobs ? opt->jobs : work_pool_cores();
    double *scan_seconds = xcalloc(sel->count ? sel->count : 1, sizeof *scan_seconds);
    out_folder *folders = xcalloc(sel->count ? sel->count : 1, sizeof *folders);
    for (size_t i = 0; i < sel->count; i++) folders[i].fd = -1;
    prior_check prior = {0};
    prior.memo = session->memo = content_memo_new();
    if (!preflight(p, cc, sel, folders, scans, scan_seconds, &prior, jobs)) ok = false;
    resolved_keeper keeper = {cc, sel, scans->items, xcalloc(sel->count ? sel->count : 1, sizeof(resolved_ids))};
    session->keep = keep_resolved, session->keep_ctx = &keeper;
    const char **packed = xcalloc(sel->count ? sel->count : 1, sizeof *packed);
    for (size_t i = 0; i < sel->count; i++) packed[i] = cc->profiles.items[sel->items[i]].domain;
    name_list pass_inputs = {0};
    ok = ok && generate_pass(opt, cfg_path, session, packed, sel->count, jobs, &pass_inputs) &&
         (opt->build_step || reread_provided(p, cc, sel, keeper.resolved, scans->items, jobs)) &&
         build_profiles(opt, p, cc, sel, folders, scans->items, scan_seconds, locks, &prior, keeper.resolved, &pass_inputs);
    name_list_free(&pass_inputs);
    free(packed);
    resolved_free(keeper.resolved, sel->count);
    prior_end(&prior);
    content_memo_free(session->memo);
    for (size_t i = 0; i < sel->count; i++) folder_close(&folders[i]);
    free(folders);
    free(scan_seconds);
    return ok;
}

int pack_run(const pack_options *opt)
{
    const char *cfg_path = opt->config_path ? opt->config_path : "threadlink.json";
    unsigned errors_before = diag_error_count();
    project p;
    memset(&p, 0, sizeof p);
    if (!config_load(cfg_path, &p.cfg)) return 1;
    p.input_hash = hasher_new();
    *vec_push(&p.inputs) = xstrdup(cfg_path);
    content_config cc;
    profile_selection sel = {0};
    scan_list scans = {0};
    out_locks locks = {0};
    content_session session = {0};
    if (!content_config_load(&p, &cc)) {
        model_free(&p);
        return 1;
    }
    int rc = 0;
    if (cc.profiles.count == 0) {
        diag_error(loc_file(cfg_path), "no content profiles to pack: add a \"content\" section");
        rc = 1;
    } else {
        rc = select_profiles(opt, cfg_path, &cc, &sel) ? 0 : 1;
    }
    bool ok = true;
    if (!rc) rc = apply_overrides(opt, &p, &cc, &sel, &session, &ok);
    if (!rc) rc = pack_selected(opt, cfg_path, &p, &cc, &sel, ok, &session, &scans, &locks) ? 0 : 1;

    pack_locks_end(&locks);
    for (size_t i = 0; i < scans.count; i++) content_scan_free(&scans.items[i]);
    vec_free(&scans);
    vec_free(&sel);
    content_config_free(&cc);
    model_free(&p); /* config and inputs */
    if (!rc && diag_error_count() != errors_before) rc = 1;
    return rc;
}
