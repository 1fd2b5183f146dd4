/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* The patcher example: updates an installed packed content folder to the build published at a
 * URL (an ordinary HTTP server or CDN serving a `threadlink-gen pack` output folder), fetching
 * only the archives it does not have, so that the game always finds a complete, loadable version.
 *
 *   patcher [OPTION]... DIR URL   update DIR to URL/archives.json (exit 0 updated or up to date,
 *                                 1 failed with DIR still the version it was, 2 usage)
 *   patcher --verify DIR          mount DIR through content.h (every archive's XXH64 checked) and
 *                                 load every asset it lists (each entry's XXH64 checked): exit 0 or 1
 * Options (what a hostile or broken server may cost; defaults in brackets):
 *   --max-download BYTES     the most one update downloads [64 GiB]; the file system must also
 *                            have the room (statvfs), checked before anything is fetched
 *   --min-rate BYTES         a transfer slower than this many bytes a second ...  [1024]
 *   --rate-window SECONDS    ... for this long is cut and tried again (resumed)   [30]
 *   --deadline SECONDS       an archive not complete this long after its first try (every try
 *                            counted) is given up [3600]
 *
 * How (patch.h's "APPLYING A PLAN"):
 *   1. DIR is opened once and locked (flock: a second patcher on it waits its turn, then finds it
 *      up to date); GET URL/archives.json; tl_patch_plan_make says what to download, keep and
 *      delete. Everything below happens relative to that descriptor (openat, renameat,
 *      unlinkat), never through a symbolic link: the staging folder DIR/.threadlink-patch is
 *      reached with O_NOFOLLOW | O_DIRECTORY, every file in it with O_NOFOLLOW, and nothing that
 *      is not a regular file is opened, replaced or deleted. The bytes to download must fit the
 *      file system and --max-download.
 *   2. Each archive to download goes to .threadlink-patch/XXH64-SIZE.part (named by its recorded
 *      XXH64 and size, so within any file-name limit whatever the archive's name). A transfer cut
 *      by the network is resumed with an HTTP range from the part's size; a server answering the
 *      range with the whole file (200) is followed from byte 0; a transfer that passes the size
 *      the index announces is stopped and its part deleted. A complete part is checked (size,
 *      XXH64): a wrong one is refused, deleted and fetched again (at most PATCHER_ATTEMPTS times),
 *      a right one is synced and renamed XXH64-SIZE.staged. A redirect is refused (none is
 *      followed), and so is a local write failure (a full disk: its cause said at once, never
 *      retried). The new archives.json is staged too. Nothing in DIR itself has changed yet.
 *   3. The mount check: the new version, as DIR will be after the switch (its kept archives, the
 *      staged ones under their names, the new archives.json), is mounted by content.h on a fresh
 *      context (through an I/O backend that serves those files) and every asset of the downloaded
 *      archives is loaded (each entry's XXH64 checked). A version that does not mount or load is
 *      refused: DIR stays the version it was.
 *   4. The switch, one step at a time (TL_PATCHER_CRASH_AFTER=k stops the process with _exit
 *      right after step k, as a kill would, for the tests):
 *        rename every staged archive into DIR under its name (new names: the installed index
 *        lists none of them), sync DIR; rename the staged archives.json over DIR/archives.json
 *        (the switch), sync DIR; then delete each file the plan lists (the old version's
 *        archives); remove the staging folder. A process killed anywhere leaves DIR loadable as
 *        the old or the new version; the next run picks up staged files and deletes leftovers.
 * Giving up: what a transfer cut by the network left (a part, the archives staged so far) stays
 * for the next run to resume; after any other failure the patcher removes what it staged. It
 * only ever deletes the files it names (XXH64-SIZE.part and .staged, archives.json, and the
 * NAME.tlpk and NAME.tlpk.part of patchers before it) and keeps a staging folder holding others.
 *
 * Built by the project when libcurl is found (Debian: libcurl4-gnutls-dev or
 * libcurl4-openssl-dev); tested by tests/integration/patch_http.sh against a loopback server. */
#define _POSIX_C_SOURCE 200809L /* openat, renameat, unlinkat, fstatat, pwrite */
#define TL_IMPLEMENTATION
#include <threadlink/content.h>
#include <threadlink/patch.h>

#include <curl/curl.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define PATCHER_ATTEMPTS 5
#define PATCHER_STAGING ".threadlink-patch"
#define PATCHER_INDEX "archives.json"
#define PATCHER_PATH_MAX 4096
#define PATCHER_NAME_MAX 64 /* a staging name: 16 hex digits, '-', a size, a suffix */

typedef struct limits {
    uint64_t max_download; /* --max-download */
    long min_rate;         /* --min-rate: bytes a second ... */
    long rate_window;      /* --rate-window: ... for this many seconds */
    long deadline;         /* --deadline: seconds per archive, every try counted */
} limits;

typedef struct patcher {
    const char *dir, *url;
    char staging[PATCHER_PATH_MAX]; /* DIR/.threadlink-patch, for messages */
    int dir_fd, stage_fd;           /* -1 until opened */
    int created_dir;                /* DIR was made by this run (removed again if still empty) */
    CURL *curl;
    limits limits;
    tl_patch_plan plan;
    const tl_patch_archive **by_name;    /* the archives to download, sorted by name */
    const tl_patch_archive **by_content; /* ... sorted by XXH64 and size */
    uint32_t download_count;
    char *index; /* the new archives.json */
    size_t index_size;
    tl_cf_index new_index; /* it, parsed: the asset names of each archive */
    uint64_t received; /* body bytes received, every attempt counted */
    uint32_t fetched;  /* archives downloaded (verified) */
    int switch_steps, crash_after;
} patcher;

/* How a step ended. */
typedef enum outcome {
    DONE,
    RETRY,       /* the network failed: try again, resuming from the part */
    RETRY_FRESH, /* the bytes were wrong: the part is deleted, try again from byte 0 */
    GIVE_UP_KEEP, /* stop; what is staged stays for the next run (cut by the network, deadline) */
    GIVE_UP      /* stop and remove what was staged (a local failure, a broken server, a refusal) */
} outcome;

/* ---- small helpers -------------------------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The staging names of an archive: XXH64-SIZE plus ".part" or ".staged". */
static void stage_name(const tl_patch_archive *a, const char *suffix, char out[PATCHER_NAME_MAX]) {
    snprintf(out, PATCHER_NAME_MAX, "%016llx-%llu%s", (unsigned long long)a->xxh64, (unsigned long long)a->size,
             suffix);
}

/* Counts one switch step; stops the process after step TL_PATCHER_CRASH_AFTER. */
static void switch_step(patcher *p, const char *what) {
    p->switch_steps++;
    if (p->crash_after > 0 && p->switch_steps == p->crash_after) {
        fprintf(stderr, "patcher: stopped after switch step %d (%s): TL_PATCHER_CRASH_AFTER\n", p->switch_steps, what);
        _exit(99);
    }
}

/* 0 when `name` below the folder `at` is absent or a regular file; otherwise says why, naming it
   as label/name, and returns -1 (a link, a FIFO, a folder: never replaced, written or deleted). */
static int regular_or_absent(int at, const char *label, const char *name) {
    struct stat st;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return 0;
        fprintf(stderr, "patcher: %s/%s: %s\n", label, name, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode)) return 0;
    fprintf(stderr, "patcher: %s/%s: %s (the patcher never writes, replaces or deletes one): remove it\n", label,
            name, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
    return -1;
}

/* Opens `name` below `at` for writing without following a link or blocking on a FIFO: a regular
   file, created when missing (truncated with `truncate`); -1 with errno set (ELOOP for a link). */
static int open_write(int at, const char *name, int truncate) {
    struct stat st;
    int fd = openat(at, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0644);
    if (fd < 0) return -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return fd;
    close(fd);
    errno = EINVAL;
    return -1;
}

/* Reads the regular file `name` below `at` (no link followed, no FIFO waited on), at most max
   bytes, into a malloc'd block; NULL when missing, not regular, larger or unreadable. */
static char *read_whole_at(int at, const char *name, size_t max, size_t *len) {
    struct stat st;
    char *buf = NULL;
    ssize_t got = 0;
    int fd = openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max &&
        (buf = (char *)malloc((size_t)st.st_size + 1)) != NULL)
        got = pread(fd, buf, (size_t)st.st_size, 0);
    close(fd);
    if (buf && got != (ssize_t)st.st_size) {
        free(buf);
        buf = NULL;
    }
    if (buf) *len = (size_t)got;
    return buf;
}

/* ---- HTTP ----------------------------------------------------------------------------------- */

/* One GET: into a part file (an archive) or into memory (archives.json). */
typedef struct transfer {
    const char *label; /* the archive's name, or the index's URL */
    int fd;            /* the part file, or -1 */
    char *buf;         /* memory, `limit` bytes */
    uint64_t from;     /* the range asked for: bytes the part already has */
    uint64_t at;       /* bytes of the result so far */
    uint64_t limit;    /* the size the index announces (the most the result may have) */
    long status;       /* of the answer, 0 until its status line */
    char location[512];
    uint64_t range_start;
    int range_seen, headers_done;
    int write_errno; /* a write to the part failed: its errno */
    int too_long, redirected, bad_range;
} transfer;

static void header_value(const char *line, size_t n, const char *name, char *out, size_t cap) {
    size_t k = strlen(name);
    if (n <= k || strncasecmp(line, name, k) != 0) return;
    line += k;
    n -= k;
    while (n && (*line == ' ' || *line == '\t')) line++, n--;
    while (n && (line[n - 1] == '\r' || line[n - 1] == '\n' || line[n - 1] == ' ')) n--;
    if (n >= cap) n = cap - 1;
    memcpy(out, line, n);
    out[n] = '\0';
}

/* The answer's headers are in: a redirect is refused, a 200 to a range starts the part over, a
   206 must start where it was asked to. Returns 0 to stop the transfer. */
static int headers_done(transfer *t) {
    t->headers_done = 1;
    if (t->status >= 300 && t->status < 400) {
        t->redirected = 1;
        return 0;
    }
    if (t->status == 206 && (!t->from || !t->range_seen || t->range_start != t->from)) {
        t->bad_range = 1;
        return 0;
    }
    if (t->from && t->status == 200) {
        fprintf(stderr, "patcher: %s: the server ignored the range (HTTP 200): starting again from byte 0\n", t->label);
        t->from = t->at = 0;
        if (t->fd >= 0 && ftruncate(t->fd, 0) != 0) {
            t->write_errno = errno;
            return 0;
        }
    } else if (t->status == 206) {
        fprintf(stderr, "patcher: %s: resumed at byte %llu of %llu\n", t->label, (unsigned long long)t->from,
                (unsigned long long)t->limit);
    }
    return 1;
}

static size_t on_header(char *line, size_t one, size_t n, void *user) {
    transfer *t = (transfer *)user;
    char value[64] = "";
    (void)one;
    if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) { /* a status line: a new answer (1xx first) */
        const char *sp = memchr(line, ' ', n);
        t->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        t->range_seen = 0;
        t->location[0] = '\0';
        return n;
    }
    header_value(line, n, "location:", t->location, sizeof t->location);
    header_value(line, n, "content-range:", value, sizeof value);
    if (value[0] && strncmp(value, "bytes ", 6) == 0) {
        t->range_start = strtoull(value + 6, NULL, 10);
        t->range_seen = 1;
    }
    if ((n == 2 && line[0] == '\r') || (n == 1 && line[0] == '\n'))
        if (t->status >= 200 && !headers_done(t)) return 0;
    return n;
}

/* Writes all n bytes at the part's offset `at`; 0 with errno set on failure. */
static int write_at(int fd, const char *data, size_t n, uint64_t at) {
    while (n) {
        ssize_t k = pwrite(fd, data, n, (off_t)at);
        if (k < 0 && errno == EINTR) continue;
        if (k == 0) errno = EIO;
        if (k <= 0) return 0;
        data += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 1;
}

static size_t on_body(char *data, size_t one, size_t n, void *user) {
    transfer *t = (transfer *)user;
    (void)one;
    if (!t->headers_done && !headers_done(t)) return 0;
    if (n > t->limit - t->at) {
        t->too_long = 1;
        return 0; /* more than the index says: stop the transfer */
    }
    if (t->fd < 0) memcpy(t->buf + t->at, data, n);
    else if (!write_at(t->fd, data, n, t->at)) {
        t->write_errno = errno;
        return 0;
    }
    t->at += n;
    return n;
}

/* GET url into the transfer, from byte t->from (a range) when it is not 0, stopped after
   `seconds` (the deadline left) or when slower than the minimum rate. */
static CURLcode http_get(patcher *p, const char *url, transfer *t, double seconds, char *error) {
    char range[32];
    long ms = seconds * 1000.0 < 1.0 ? 1L : (long)(seconds * 1000.0);
    error[0] = '\0';
    curl_easy_reset(p->curl);
    curl_easy_setopt(p->curl, CURLOPT_URL, url);
    curl_easy_setopt(p->curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(p->curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(p->curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(p->curl, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(p->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(p->curl, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(p->curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(p->curl, CURLOPT_LOW_SPEED_LIMIT, p->limits.min_rate);
    curl_easy_setopt(p->curl, CURLOPT_LOW_SPEED_TIME, p->limits.rate_window);
    curl_easy_setopt(p->curl, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(p->curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->limit);
    curl_easy_setopt(p->curl, CURLOPT_NOSIGNAL, 1L);
    if (t->from) {
        snprintf(range, sizeof range, "%llu-", (unsigned long long)t->from);
        curl_easy_setopt(p->curl, CURLOPT_RANGE, range);
    }
    return curl_easy_perform(p->curl);
}

/* URL/name, the name escaped for a URL. */
static int url_of(patcher *p, const char *name, char *buf) {
    char *escaped = curl_easy_escape(p->curl, name, 0);
    size_t n = strlen(p->url);
    int ok = escaped && snprintf(buf, PATCHER_PATH_MAX, "%s%s%s", p->url, n && p->url[n - 1] == '/' ? "" : "/",
                                 escaped) < PATCHER_PATH_MAX;
    curl_free(escaped);
    return ok;
}

/* " (have X of Y bytes)" for an archive; "" for the index, whose size nothing announces. */
static const char *progress(const transfer *t, char *buf, size_t cap) {
    buf[0] = '\0';
    if (t->fd >= 0)
        snprintf(buf, cap, " (have %llu of %llu bytes)", (unsigned long long)t->at, (unsigned long long)t->limit);
    return buf;
}

/* The answers that no retry can mend, or that need the part deleted; DONE when none applies. */
static outcome judge_answer(const transfer *t, CURLcode rc) {
    if (t->write_errno) {
        fprintf(stderr, "patcher: %s: cannot write its part in the staging folder: %s\n", t->label, strerror(t->write_errno));
        return GIVE_UP;
    }
    if (t->redirected) {
        fprintf(stderr,
                "patcher: %s: the server redirected (HTTP %ld) to %s: the patcher follows no redirect (publish the "
                "folder at its final address)\n",
                t->label, t->status, t->location[0] ? t->location : "(no Location)");
        return GIVE_UP;
    }
    if (t->too_long || rc == CURLE_FILESIZE_EXCEEDED) {
        fprintf(stderr, "patcher: %s: longer than the %llu bytes %s\n", t->label, (unsigned long long)t->limit,
                t->fd >= 0 ? "the index says" : "an index may have (TL_PATCH_MAX_INDEX_BYTES)");
        return RETRY_FRESH;
    }
    if (t->bad_range) {
        fprintf(stderr, "patcher: %s: the server answered another range than bytes %llu- (HTTP %ld)\n", t->label,
                (unsigned long long)t->from, t->status);
        return RETRY_FRESH;
    }
    return DONE;
}

/* What a finished transfer means, said on stderr (nothing when it is DONE). `deadline_at`: when
   the archive's time is up. */
static outcome judge(const transfer *t, CURLcode rc, const char *error, double deadline_at, const limits *l) {
    char have[64];
    outcome o = judge_answer(t, rc);
    if (o != DONE) return o;
    progress(t, have, sizeof have);
    if (rc == CURLE_OPERATION_TIMEDOUT && now_seconds() >= deadline_at - 0.05) {
        fprintf(stderr, "patcher: %s: not complete after --deadline %ld s%s\n", t->label, l->deadline, have);
        return GIVE_UP_KEEP;
    }
    if (rc == CURLE_OPERATION_TIMEDOUT && t->status) { /* answering, too slowly */
        fprintf(stderr, "patcher: %s: slower than %ld bytes/s for %ld s%s\n", t->label, l->min_rate, l->rate_window,
                have);
        return RETRY;
    }
    if (rc != CURLE_OK) {
        fprintf(stderr, "patcher: %s: %s%s\n", t->label, error[0] ? error : curl_easy_strerror(rc), have);
        return RETRY;
    }
    if (t->fd >= 0 && t->at != t->limit) {
        fprintf(stderr, "patcher: %s: the transfer ended after %llu of %llu bytes\n", t->label,
                (unsigned long long)t->at, (unsigned long long)t->limit);
        return RETRY;
    }
    return DONE;
}

static int fetch_index(patcher *p) {
    char url[PATCHER_PATH_MAX], error[CURL_ERROR_SIZE];
    double deadline_at;
    transfer t;
    CURLcode rc;
    memset(&t, 0, sizeof t);
    t.fd = -1;
    t.limit = TL_PATCH_MAX_INDEX_BYTES;
    t.buf = (char *)malloc((size_t)t.limit);
    if (!t.buf || !url_of(p, PATCHER_INDEX, url)) {
        free(t.buf);
        return 0;
    }
    t.label = url;
    deadline_at = now_seconds() + (double)p->limits.deadline;
    rc = http_get(p, url, &t, (double)p->limits.deadline, error);
    p->received += t.at;
    if (judge(&t, rc, error, deadline_at, &p->limits) != DONE) {
        free(t.buf);
        return 0;
    }
    p->index = t.buf;
    p->index_size = (size_t)t.at;
    return 1;
}

/* ---- the archives to download: sorted, for lookups by name and by content --------------------- */

static int by_name_order(const void *a, const void *b) {
    return strcmp((*(const tl_patch_archive *const *)a)->name, (*(const tl_patch_archive *const *)b)->name);
}

static int by_content_order(const void *a, const void *b) {
    const tl_patch_archive *x = *(const tl_patch_archive *const *)a, *y = *(const tl_patch_archive *const *)b;
    if (x->xxh64 != y->xxh64) return x->xxh64 < y->xxh64 ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

static int list_downloads(patcher *p) {
    uint32_t i, n = 0;
    p->by_name = (const tl_patch_archive **)malloc((p->plan.archive_count + 1u) * sizeof *p->by_name);
    p->by_content = (const tl_patch_archive **)malloc((p->plan.archive_count + 1u) * sizeof *p->by_content);
    if (!p->by_name || !p->by_content) return 0;
    for (i = 0; i < p->plan.archive_count; i++)
        if (p->plan.archives[i].action == TL_PATCH_DOWNLOAD) p->by_name[n] = p->by_content[n] = &p->plan.archives[i], n++;
    p->download_count = n;
    qsort((void *)p->by_name, n, sizeof *p->by_name, by_name_order);
    qsort((void *)p->by_content, n, sizeof *p->by_content, by_content_order);
    return 1;
}

/* The archive to download named `name`, or NULL. */
static const tl_patch_archive *download_named(const patcher *p, const char *name) {
    tl_patch_archive key;
    const tl_patch_archive *k = &key, **hit;
    key.name = name;
    hit = (const tl_patch_archive **)bsearch(&k, p->by_name, p->download_count, sizeof *p->by_name, by_name_order);
    return hit ? *hit : NULL;
}

/* Whether the staging file `name` is XXH64-SIZE.part or .staged of an archive to download. */
static int staged_for_plan(const patcher *p, const char *name) {
    tl_patch_archive key;
    const tl_patch_archive *k = &key;
    char *end;
    if (strlen(name) < 18 || name[16] != '-') return 0;
    key.xxh64 = strtoull(name, &end, 16);
    if (end != name + 16) return 0;
    key.size = strtoull(name + 17, &end, 10);
    if (strcmp(end, ".part") != 0 && strcmp(end, ".staged") != 0) return 0;
    return bsearch(&k, p->by_content, p->download_count, sizeof *p->by_content, by_content_order) != NULL;
}

/* ---- the staging folder --------------------------------------------------------------------- */

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), k = strlen(tail);
    return n > k && strcmp(s + n - k, tail) == 0;
}

/* A name the patcher gives files in its staging folder: XXH64-SIZE.part or .staged, the staged
   archives.json, and the NAME.tlpk and NAME.tlpk.part of patchers before this one. */
static int patcher_name(const char *name) {
    size_t i;
    if (strcmp(name, PATCHER_INDEX) == 0 || ends_with(name, ".tlpk") || ends_with(name, ".tlpk.part")) return 1;
    for (i = 0; i < 16; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return 0;
    return name[16] == '-' && (ends_with(name, ".part") || ends_with(name, ".staged"));
}

/* Deletes the regular files of the staging folder that the patcher names (all of them, or with
   `keep_plan` those that do not belong to this plan). Links and other files stay. */
static void clean_staging(const patcher *p, int keep_plan) {
    int fd = dup(p->stage_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    struct stat st;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    rewinddir(d); /* the duplicate shares the folder's read position with stage_fd */
    while ((e = readdir(d)) != NULL) {
        if (!patcher_name(e->d_name) || (keep_plan && (staged_for_plan(p, e->d_name) || !strcmp(e->d_name, PATCHER_INDEX))))
            continue;
        if (fstatat(p->stage_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            unlinkat(p->stage_fd, e->d_name, 0);
    }
    closedir(d);
}

/* Opens DIR/.threadlink-patch (made with `create`) never through a link: its descriptor, or -1
   (said, unless it is simply missing and not to be made). */
static int open_staging(patcher *p, int create) {
    if (create && mkdirat(p->dir_fd, PATCHER_STAGING, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "patcher: cannot make %s: %s\n", p->staging, strerror(errno));
        return -1;
    }
    p->stage_fd = openat(p->dir_fd, PATCHER_STAGING, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (p->stage_fd >= 0 || (!create && errno == ENOENT)) return p->stage_fd;
    if (errno == ELOOP || errno == ENOTDIR) {
        struct stat st;
        int link = fstatat(p->dir_fd, PATCHER_STAGING, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
        fprintf(stderr, "patcher: %s: %s, not the patcher's staging folder (it never works through links): remove it\n",
                p->staging, link ? "a symbolic link" : "not a folder");
    } else
        fprintf(stderr, "patcher: cannot open %s: %s\n", p->staging, strerror(errno));
    return -1;
}

/* Removes what the patcher staged, then the staging folder unless it holds other files. */
static void remove_staging(patcher *p) {
    if (p->stage_fd < 0 && open_staging(p, 0) < 0) return;
    clean_staging(p, 0);
    close(p->stage_fd);
    p->stage_fd = -1;
    if (unlinkat(p->dir_fd, PATCHER_STAGING, AT_REMOVEDIR) != 0 && (errno == ENOTEMPTY || errno == EEXIST))
        fprintf(stderr, "patcher: %s: kept: it holds files the patcher did not make\n", p->staging);
}

/* The staging folder, emptied of what an earlier run for another version left there. */
static int prepare_staging(patcher *p) {
    if (open_staging(p, 1) < 0) return 0;
    clean_staging(p, 1);
    return 1;
}

/* Writes the new archives.json into the staging folder, synced. */
static int write_staged_index(patcher *p) {
    int fd, ok;
    if (regular_or_absent(p->stage_fd, p->staging, PATCHER_INDEX) != 0) return 0;
    fd = open_write(p->stage_fd, PATCHER_INDEX, 1);
    ok = fd >= 0 && write_at(fd, p->index, p->index_size, 0) && fsync(fd) == 0;
    if (!ok) fprintf(stderr, "patcher: cannot write %s/%s: %s\n", p->staging, PATCHER_INDEX, strerror(errno));
    if (fd >= 0) close(fd);
    return ok;
}

/* ---- staging one archive -------------------------------------------------------------------- */

/* Opens (or makes) the archive's part file; its descriptor and the bytes it holds, -1 said. */
static int open_part(patcher *p, const tl_patch_archive *a, const char *part, uint64_t *have) {
    struct stat st;
    int fd = open_write(p->stage_fd, part, 0);
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "patcher: %s/%s (part of %s): %s\n", p->staging, part, a->name,
                errno == ELOOP ? "a symbolic link (the patcher never writes through one)" : strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    *have = (uint64_t)st.st_size;
    if (*have > a->size && ftruncate(fd, 0) == 0) *have = 0; /* longer than announced: start over */
    return fd;
}

/* One transfer into the part, resumed from its size. */
static outcome transfer_once(patcher *p, const tl_patch_archive *a, const char *part, double deadline_at) {
    char url[PATCHER_PATH_MAX], error[CURL_ERROR_SIZE];
    transfer t;
    CURLcode rc;
    outcome o;
    memset(&t, 0, sizeof t);
    t.label = a->name;
    t.limit = a->size;
    if ((t.fd = open_part(p, a, part, &t.from)) < 0) return GIVE_UP;
    t.at = t.from;
    if (t.from == a->size) { /* complete in an earlier run, never checked */
        close(t.fd);
        return DONE;
    }
    rc = url_of(p, a->name, url) ? http_get(p, url, &t, deadline_at - now_seconds(), error) : CURLE_URL_MALFORMAT;
    p->received += t.at - t.from;
    if (!t.write_errno && fsync(t.fd) != 0) t.write_errno = errno;
    close(t.fd);
    o = judge(&t, rc, error, deadline_at, &p->limits);
    if (o == RETRY_FRESH) unlinkat(p->stage_fd, part, 0);
    return o;
}

/* A complete part checked, then renamed to its staged name; RETRY_FRESH when refused. */
static outcome accept_part(patcher *p, const tl_patch_archive *a, const char *part, const char *staged, int attempt) {
    tl_patch_detail why;
    tl_patch_result r = tl_patch_verify_at(p->stage_fd, part, a->size, a->xxh64, NULL, &why);
    if (r != TL_PATCH_OK) {
        fprintf(stderr, "patcher: refused %s (attempt %d of %d): %s\n", a->name, attempt, PATCHER_ATTEMPTS, why.message);
        unlinkat(p->stage_fd, part, 0);
        return RETRY_FRESH;
    }
    if (renameat(p->stage_fd, part, p->stage_fd, staged) != 0 || fsync(p->stage_fd) != 0) {
        fprintf(stderr, "patcher: cannot stage %s in %s: %s\n", a->name, p->staging, strerror(errno));
        return GIVE_UP;
    }
    p->fetched++;
    return DONE;
}

/* Downloads one archive into the staging folder, verified (size and XXH64) before it gets its
   staged name; a refused download is deleted and fetched again. */
static outcome stage_archive(patcher *p, const tl_patch_archive *a) {
    char staged[PATCHER_NAME_MAX], part[PATCHER_NAME_MAX];
    double deadline_at = now_seconds() + (double)p->limits.deadline;
    outcome o = RETRY;
    int attempt;
    stage_name(a, ".staged", staged);
    stage_name(a, ".part", part);
    if (regular_or_absent(p->stage_fd, p->staging, staged) != 0 || regular_or_absent(p->stage_fd, p->staging, part) != 0)
        return GIVE_UP;
    tl_logger quiet = {0};
    quiet.min_level = TL_LOG_LEVEL_NONE; /* a question here: no staged file is no failure */
    if (tl_patch_verify_at(p->stage_fd, staged, a->size, a->xxh64, &quiet, NULL) == TL_PATCH_OK) return DONE; /* an earlier run's */
    for (attempt = 1; attempt <= PATCHER_ATTEMPTS; attempt++) {
        if (attempt > 1) {
            struct timespec pause = {0, 100000000L * attempt};
            nanosleep(&pause, NULL);
        }
        o = transfer_once(p, a, part, deadline_at);
        if (o == DONE) o = accept_part(p, a, part, staged, attempt);
        if (o == DONE || o == GIVE_UP || o == GIVE_UP_KEEP) return o;
    }
    fprintf(stderr, "patcher: %s: giving up after %d attempts\n", a->name, PATCHER_ATTEMPTS);
    return o == RETRY ? GIVE_UP_KEEP : GIVE_UP;
}

/* ---- before downloading: targets and room --------------------------------------------------- */

/* Every archive to download may take its name in DIR: nothing there, or a regular file. */
static int targets_writable(const patcher *p) {
    uint32_t i;
    for (i = 0; i < p->download_count; i++)
        if (regular_or_absent(p->dir_fd, p->dir, p->by_name[i]->name) != 0) return 0;
    return 1;
}

/* The bytes still to store: every archive to download, less what the staging folder has of it. */
static uint64_t bytes_to_store(const patcher *p, int stage_fd) {
    uint64_t need = p->index_size;
    uint32_t i;
    for (i = 0; i < p->download_count; i++) {
        const tl_patch_archive *a = p->by_name[i];
        char name[PATCHER_NAME_MAX];
        struct stat st;
        uint64_t have = 0;
        stage_name(a, ".staged", name);
        if (stage_fd >= 0 && fstatat(stage_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) have = a->size;
        stage_name(a, ".part", name);
        if (!have && stage_fd >= 0 && fstatat(stage_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (uint64_t)st.st_size <= a->size)
            have = (uint64_t)st.st_size;
        need += a->size - have;
    }
    return need;
}

/* What the server announces must fit the file system (statvfs) and --max-download. */
static int room_for_download(patcher *p) {
    struct statvfs fs;
    int stage_fd = openat(p->dir_fd, PATCHER_STAGING, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    uint64_t need = bytes_to_store(p, stage_fd), room;
    if (stage_fd >= 0) close(stage_fd);
    if (fstatvfs(p->dir_fd, &fs) != 0) {
        fprintf(stderr, "patcher: %s: statvfs: %s\n", p->dir, strerror(errno));
        return 0;
    }
    room = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
    if (need > room) {
        fprintf(stderr, "patcher: the update needs %llu bytes in %s, its file system has %llu bytes free\n",
                (unsigned long long)need, p->staging, (unsigned long long)room);
        return 0;
    }
    if (p->plan.download_bytes > p->limits.max_download) {
        fprintf(stderr, "patcher: the update needs %llu bytes, more than --max-download %llu\n",
                (unsigned long long)p->plan.download_bytes, (unsigned long long)p->limits.max_download);
        return 0;
    }
    return 1;
}

/* ---- the mount check: the new version as content.h will see it ------------------------------ */

/* The I/O backend of the check: DIR as it will be after the switch. archives.json is the staged
   one, an archive to download its staged file (never through a link), any other name DIR's own
   (a kept archive, read as the runtime reads it: the plan kept it through a link too); each a
   regular file opened below the patcher's descriptors. */
static void *view_open(void *user, const char *path, uint64_t *size) {
    patcher *p = (patcher *)user;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const tl_patch_archive *a = download_named(p, name);
    char staged[PATCHER_NAME_MAX];
    struct stat st;
    int at = p->dir_fd, fd;
    if (strcmp(name, PATCHER_INDEX) == 0) at = p->stage_fd;
    if (a) {
        stage_name(a, ".staged", staged);
        name = staged;
        at = p->stage_fd;
    }
    fd = openat(at, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (at == p->stage_fd ? O_NOFOLLOW : 0));
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return (void *)(intptr_t)(fd + 1);
}

static bool view_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    int fd = (int)(intptr_t)file - 1;
    char *to = (char *)dst;
    (void)user;
    while (size) {
        ssize_t k = pread(fd, to, size, (off_t)offset);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        to += k;
        size -= (size_t)k;
        offset += (uint64_t)k;
    }
    return true;
}

static void view_close(void *user, void *file) {
    (void)user;
    close((int)(intptr_t)file - 1);
}

/* The runtime's lines, kept for the verdict (the first error) and shown. */
typedef struct check_log {
    char first_error[512];
} check_log;

static void check_sink(void *user, const tl_log_record *record) {
    check_log *log = (check_log *)user;
    if (record->level >= TL_LOG_LEVEL_ERROR && !log->first_error[0])
        snprintf(log->first_error, sizeof log->first_error, "%s", record->message);
    fprintf(stderr, "patcher: check: %s\n", record->line);
}

/* Loads every asset of the downloaded archives (each entry's XXH64 checked); the failures, of
   *total, the first failed name in first_failed. */
static uint32_t load_downloaded(patcher *p, tl_content *content, uint32_t *total, const char **first_failed) {
    tl_scope scope = tl_scope_create(tl_content_root(content), "check", TL_SCOPE_EXPLICIT);
    uint32_t i, k, failed = 0;
    *total = 0;
    *first_failed = NULL;
    for (i = 0; i < p->new_index.archive_count; i++) {
        const tl_cf_index_archive *x = &p->new_index.archives[i];
        if (!download_named(p, x->name)) continue;
        for (k = 0; k < x->file_count; k++) {
            tl_asset asset = tl_scope_load_name(scope, x->files[k]);
            ++*total;
            if (tl_asset_get_status(asset) != TL_ASSET_READY && !failed++) *first_failed = x->files[k];
            tl_scope_release(scope, tl_asset_id(asset));
            tl_content_collect(content); /* one asset in memory at a time */
        }
    }
    tl_scope_dispose(scope);
    return failed;
}

/* Mounts the new version through content.h and loads the downloaded assets: 1 when it can be
   switched to; otherwise says why (DIR is untouched). */
static int mount_check(patcher *p) {
    tl_content_desc desc;
    tl_content *content;
    tl_content_dir dir;
    check_log log;
    uint32_t failed = 0, total = 0;
    const char *first = NULL;
    int ok;
    memset(&desc, 0, sizeof desc);
    memset(&log, 0, sizeof log);
    desc.io.user = p;
    desc.io.open = view_open;
    desc.io.read = view_read;
    desc.io.close = view_close;
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    desc.logger.sink = check_sink;
    desc.logger.user = &log;
    content = tl_content_create(&desc);
    if (!content) return 0;
    dir = tl_content_register_dir(content, p->dir);
    ok = tl_content_dir_valid(dir);
    if (!ok)
        fprintf(stderr, "patcher: the new version does not mount (%s): %s stays the version it was\n",
                log.first_error[0] ? log.first_error : "refused", p->dir);
    if (ok && (failed = load_downloaded(p, content, &total, &first)) != 0)
        fprintf(stderr, "patcher: the new version does not load: %u of %u assets of the downloaded archives fail (%s first): %s stays the version it was\n",
                failed, total, first, p->dir);
    if (ok) tl_content_unregister_dir(dir, true);
    tl_content_shutdown(content);
    return ok && failed == 0;
}

/* ---- the switch ----------------------------------------------------------------------------- */

/* Deletes an old archive the plan lists (a regular file only), after the switch. */
static void delete_old(patcher *p, const char *name) {
    struct stat st;
    if (fstatat(p->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (!S_ISREG(st.st_mode))
        fprintf(stderr, "patcher: %s/%s: not deleted: not a regular file\n", p->dir, name);
    else if (unlinkat(p->dir_fd, name, 0) != 0 && errno != ENOENT)
        fprintf(stderr, "patcher: cannot delete %s/%s: %s\n", p->dir, name, strerror(errno));
}

static int switch_version(patcher *p) {
    char staged[PATCHER_NAME_MAX];
    uint32_t i;
    for (i = 0; i < p->plan.archive_count; i++) {
        const tl_patch_archive *a = &p->plan.archives[i];
        if (a->action != TL_PATCH_DOWNLOAD) continue;
        stage_name(a, ".staged", staged);
        if (renameat(p->stage_fd, staged, p->dir_fd, a->name) != 0) return 0;
        switch_step(p, a->name);
    }
    if (fsync(p->dir_fd) != 0) return 0;
    if (renameat(p->stage_fd, PATCHER_INDEX, p->dir_fd, PATCHER_INDEX) != 0 || fsync(p->dir_fd) != 0) return 0;
    switch_step(p, PATCHER_INDEX);
    /* The new version is in place: only now does the old one go. */
    for (i = 0; i < p->plan.delete_count; i++) {
        delete_old(p, p->plan.deletes[i]);
        switch_step(p, p->plan.deletes[i]);
    }
    remove_staging(p);
    switch_step(p, PATCHER_STAGING);
    return 1;
}

/* ---- an update ------------------------------------------------------------------------------ */

/* The installed archives.json has exactly these bytes and nothing is to be done. */
static int up_to_date(const patcher *p) {
    size_t n = 0;
    char *old;
    int same;
    if (p->plan.download_count || p->plan.delete_count) return 0;
    old = read_whole_at(p->dir_fd, PATCHER_INDEX, p->index_size, &n);
    same = old && n == p->index_size && memcmp(old, p->index, n) == 0;
    free(old);
    return same;
}

/* Opens DIR once (made when missing: a first install). */
static int open_dir(patcher *p) {
    p->dir_fd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (p->dir_fd < 0 && errno == ENOENT && mkdir(p->dir, 0777) == 0) {
        p->created_dir = 1;
        p->dir_fd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (p->dir_fd < 0) fprintf(stderr, "patcher: cannot open %s: %s\n", p->dir, strerror(errno));
    return p->dir_fd >= 0;
}

/* One patcher at a time on DIR (a launcher's automatic update and a manual one): the second waits
   for the first's lock on the folder, held until exit, then plans against what the first left.
   Two at once would stage under the same names and remove each other's parts. */
static int lock_dir(patcher *p) {
    int r;
    if (flock(p->dir_fd, LOCK_EX | LOCK_NB) == 0) return 1;
    if (errno == EWOULDBLOCK) {
        fprintf(stderr, "patcher: another patcher is updating %s: waiting for it\n", p->dir);
        while ((r = flock(p->dir_fd, LOCK_EX)) != 0 && errno == EINTR) {}
        if (r == 0) return 1;
    }
    fprintf(stderr, "patcher: cannot lock %s: %s\n", p->dir, strerror(errno));
    return 0;
}

/* The new index fetched and planned against DIR; said and 0 when refused. */
static int make_plan(patcher *p) {
    tl_patch_desc desc;
    tl_patch_detail why;
    tl_patch_result r;
    if (!fetch_index(p)) return 0;
    memset(&desc, 0, sizeof desc);
    desc.installed_dir = p->dir;
    desc.index = p->index;
    desc.index_size = p->index_size;
    r = tl_patch_plan_make(&p->plan, &desc, &why);
    if (r != TL_PATCH_OK) {
        fprintf(stderr, "patcher: %s/%s: %s\n", p->url, PATCHER_INDEX, why.message);
        return 0;
    }
    if (tl_cf_index_parse(&p->new_index, p->index, p->index_size, NULL) != TL_CF_OK || !list_downloads(p)) return 0;
    printf("patcher: plan: download %u of %u archives (%llu of %llu bytes), keep %u, delete %u after the switch\n",
           p->plan.download_count, p->plan.archive_count, (unsigned long long)p->plan.download_bytes,
           (unsigned long long)p->plan.total_bytes, p->plan.keep_count, p->plan.delete_count);
    return 1;
}

/* Steps 2 and 3: every archive staged, the index staged, the mount check passed. GIVE_UP_KEEP
   or GIVE_UP otherwise. */
static outcome stage_version(patcher *p) {
    uint32_t i;
    if (!prepare_staging(p)) return GIVE_UP_KEEP; /* never ours to remove */
    for (i = 0; i < p->plan.archive_count; i++) {
        outcome o;
        if (p->plan.archives[i].action != TL_PATCH_DOWNLOAD) continue;
        o = stage_archive(p, &p->plan.archives[i]);
        if (o != DONE) return o;
    }
    if (!write_staged_index(p) || !mount_check(p)) return GIVE_UP;
    return DONE;
}

static int update(patcher *p) {
    outcome o;
    if (snprintf(p->staging, sizeof p->staging, "%s/%s", p->dir, PATCHER_STAGING) >= (int)sizeof p->staging ||
        !open_dir(p) || !lock_dir(p) || !make_plan(p))
        return 1;
    if (up_to_date(p)) {
        remove_staging(p); /* an earlier run stopped after its switch */
        printf("patcher: %s is up to date\n", p->dir);
        return 0;
    }
    if (!targets_writable(p) || !room_for_download(p)) return 1;
    o = stage_version(p);
    if (o == GIVE_UP) remove_staging(p);
    if (o != DONE) return 1;
    if (!switch_version(p)) {
        fprintf(stderr, "patcher: switching %s failed: %s\n", p->dir, strerror(errno));
        return 1;
    }
    printf("patcher: updated %s to profile %s: received %llu bytes, %u archives downloaded, %u kept, %u deleted\n",
           p->dir, p->plan.profile, (unsigned long long)p->received, p->fetched, p->plan.keep_count, p->plan.delete_count);
    return 0;
}

/* ---- --verify ------------------------------------------------------------------------------- */

static int load_every_asset(tl_content *content, const tl_cf_index *index) {
    tl_scope scope = tl_scope_create(tl_content_root(content), "verify", TL_SCOPE_EXPLICIT);
    uint32_t i, k, loaded = 0;
    int ok = 1;
    for (i = 0; i < index->archive_count; i++)
        for (k = 0; k < index->archives[i].file_count; k++) {
            tl_asset asset = tl_scope_load_name(scope, index->archives[i].files[k]);
            if (tl_asset_get_status(asset) == TL_ASSET_READY) loaded++;
            else ok = 0;
            tl_scope_release(scope, tl_asset_id(asset));
            tl_content_collect(content); /* one asset in memory at a time */
        }
    tl_scope_dispose(scope);
    printf("patcher: verified: %u assets loaded\n", loaded);
    return ok;
}

/* DIR/archives.json parsed, for the names of its assets; false (said, located) when unreadable. */
static int read_index(const char *dir, tl_cf_index *index) {
    tl_cf_index_fault at;
    const char *why = "not a regular file, or unreadable";
    size_t n = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char *text = fd >= 0 ? read_whole_at(fd, PATCHER_INDEX, (size_t)TL_PATCH_MAX_INDEX_BYTES, &n) : NULL;
    int ok = text && tl_cf_index_parse_ex(index, text, n, &why, &at) == TL_CF_OK;
    if (fd >= 0) close(fd);
    if (!ok && text)
        fprintf(stderr, "patcher: %s/%s, byte %llu%s%s: %s\n", dir, PATCHER_INDEX, (unsigned long long)at.offset,
                at.key[0] ? ", key " : "", at.key, why);
    else if (!ok)
        fprintf(stderr, "patcher: %s/%s: %s\n", dir, PATCHER_INDEX, why);
    free(text);
    return ok;
}

static int verify(const char *dir) {
    tl_content_desc desc;
    tl_content *content;
    tl_cf_index index;
    int ok;
    if (!read_index(dir, &index)) return 1;
    memset(&desc, 0, sizeof desc);
    desc.verify_xxh64 = true; /* every archive's XXH64 at mount, every entry's at load */
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    content = tl_content_create(&desc);
    ok = content && tl_content_dir_valid(tl_content_register_dir(content, dir)) && load_every_asset(content, &index);
    printf("patcher: %s: profile %s, %u archives: %s\n", dir, index.profile, index.archive_count, ok ? "loadable" : "NOT loadable");
    if (content) tl_content_shutdown(content);
    tl_cf_index_free(&index);
    return ok ? 0 : 1;
}

/* ---- the command line ----------------------------------------------------------------------- */

/* A whole number from 1 to max, nothing else; 0 otherwise. */
static uint64_t positive(const char *text, uint64_t max) {
    char *end;
    unsigned long long v;
    if (!text || text[0] < '0' || text[0] > '9') return 0;
    errno = 0;
    v = strtoull(text, &end, 10);
    return *end || errno || v > max ? 0 : (uint64_t)v;
}

/* The options before DIR URL; the index of DIR, or 0 on a usage error. */
static int parse_options(int argc, char **argv, limits *l) {
    int i;
    l->max_download = (uint64_t)64 << 30;
    l->min_rate = 1024;
    l->rate_window = 30;
    l->deadline = 3600;
    for (i = 1; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        uint64_t v = positive(argv[i + 1], strcmp(argv[i], "--max-download") == 0 ? UINT64_MAX : 1000000000u);
        if (!v) return 0;
        if (strcmp(argv[i], "--max-download") == 0) l->max_download = v;
        else if (strcmp(argv[i], "--min-rate") == 0) l->min_rate = (long)v;
        else if (strcmp(argv[i], "--rate-window") == 0) l->rate_window = (long)v;
        else if (strcmp(argv[i], "--deadline") == 0) l->deadline = (long)v;
        else return 0;
    }
    return argc - i == 2 && argv[i][0] != '-' ? i : 0;
}

int main(int argc, char **argv) {
    patcher p;
    int rc, at;
    const char *crash = getenv("TL_PATCHER_CRASH_AFTER");
    if (argc == 3 && strcmp(argv[1], "--verify") == 0) return verify(argv[2]);
    memset(&p, 0, sizeof p);
    if ((at = parse_options(argc, argv, &p.limits)) == 0) {
        fprintf(stderr, "usage: patcher [--max-download BYTES] [--min-rate BYTES] [--rate-window SECONDS] "
                        "[--deadline SECONDS] DIR URL | patcher --verify DIR\n");
        return 2;
    }
    p.dir = argv[at];
    p.url = argv[at + 1];
    p.dir_fd = p.stage_fd = -1;
    p.crash_after = crash ? atoi(crash) : 0;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(p.curl = curl_easy_init())) return 1;
    rc = update(&p);
    if (p.stage_fd >= 0) close(p.stage_fd);
    if (p.created_dir && rc != 0) rmdir(p.dir); /* a first install that got nowhere: only if empty */
    if (p.dir_fd >= 0) close(p.dir_fd);
    tl_cf_index_free(&p.new_index);
    tl_patch_plan_free(&p.plan);
    free(p.by_name);
    free(p.by_content);
    free(p.index);
    curl_easy_cleanup(p.curl);
    curl_global_cleanup();
    return rc;
}
