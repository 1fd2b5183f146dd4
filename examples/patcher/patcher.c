/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* The patcher example: updates an installed packed content folder to the build published at a
 * URL (an ordinary HTTP server or CDN serving a `threadlink-gen pack` output folder), fetching
 * only the archives it does not have, so that the game always finds a complete, loadable version.
 *
 *   patcher DIR URL        update DIR to URL/archives.json (exit 0 updated or up to date, 1 failed
 *                          with DIR still the version it was, 2 usage)
 *   patcher --verify DIR   mount DIR through content.h (every archive's XXH64 checked) and load
 *                          every asset it lists (each entry's XXH64 checked): exit 0 or 1
 *
 * How (patch.h's "APPLYING A PLAN"):
 *   1. GET URL/archives.json; tl_patch_plan_make says what to download, keep and delete.
 *   2. Each archive to download goes to DIR/.threadlink-patch/NAME.part; a cut transfer is resumed
 *      with an HTTP range from the part's size; a complete part is checked (size, XXH64): a wrong
 *      one is refused, deleted and fetched again (at most PATCHER_ATTEMPTS times each), a right
 *      one is synced and renamed to DIR/.threadlink-patch/NAME. The new archives.json goes there
 *      too. Nothing in DIR itself has changed yet.
 *   3. The switch, one step at a time (TL_PATCHER_CRASH_AFTER=k stops the process with _exit
 *      right after step k, as a kill would, for the tests):
 *        rename every staged archive into DIR (new names: the installed index lists none of them),
 *        sync DIR; rename the staged archives.json over DIR/archives.json (the switch), sync DIR;
 *        then delete each file the plan lists (the old version's archives); remove the staging
 *        folder. A process killed anywhere leaves DIR loadable as the old or the new version;
 *        the next run picks up staged files and deletes leftovers.
 *
 * Built by the project when libcurl is found (Debian: libcurl4-gnutls-dev or
 * libcurl4-openssl-dev); tested by tests/integration/patch_http.sh against a loopback server. */
#define _POSIX_C_SOURCE 200809L /* fsync, fileno, ftruncate, mkdir */
#define TL_IMPLEMENTATION
#include <threadlink/content.h>
#include <threadlink/patch.h>

#include <curl/curl.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PATCHER_ATTEMPTS 5
#define PATCHER_STAGING ".threadlink-patch"
#define PATCHER_PATH_MAX 4096

typedef struct patcher {
    const char *dir, *url;
    char staging[PATCHER_PATH_MAX];
    CURL *curl;
    tl_patch_plan plan;
    char *index;          /* the new archives.json */
    size_t index_size;
    uint64_t received;    /* body bytes received, every attempt counted */
    uint32_t fetched;     /* archives downloaded (verified) */
    int switch_steps, crash_after;
} patcher;

/* ---- small file helpers --------------------------------------------------------------------- */

static int join(char *buf, const char *a, const char *b) {
    return snprintf(buf, PATCHER_PATH_MAX, "%s/%s", a, b) < PATCHER_PATH_MAX;
}

static int sync_path(const char *path, int directory) {
    int fd = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    int ok;
    if (fd < 0) return 0;
    ok = fsync(fd) == 0;
    close(fd);
    return ok;
}

static uint64_t file_size(const char *path, int *exists) {
    struct stat st;
    *exists = stat(path, &st) == 0;
    return *exists ? (uint64_t)st.st_size : 0;
}

/* Counts one switch step; stops the process after step TL_PATCHER_CRASH_AFTER. */
static void switch_step(patcher *p, const char *what) {
    p->switch_steps++;
    if (p->crash_after > 0 && p->switch_steps == p->crash_after) {
        fprintf(stderr, "patcher: stopped after switch step %d (%s): TL_PATCHER_CRASH_AFTER\n", p->switch_steps, what);
        _exit(99);
    }
}

/* ---- HTTP ----------------------------------------------------------------------------------- */

typedef struct sink {
    FILE *file;          /* a download into a part file, or */
    char *buf;           /* into memory (archives.json) */
    size_t buf_len;
    uint64_t offset;     /* where the transfer started in the file */
    uint64_t limit;      /* bytes the result may have at most */
    uint64_t written;
    int checked_status, too_long;
    CURL *curl;
} sink;

/* A server that ignores the range answers 200 with the whole file: start the part over. */
static int restart_if_whole(sink *s) {
    long status = 0;
    curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &status);
    s->checked_status = 1;
    if (s->offset == 0 || status != 200) return 1;
    s->offset = 0;
    return fflush(s->file) == 0 && ftruncate(fileno(s->file), 0) == 0 && fseek(s->file, 0, SEEK_SET) == 0;
}

static size_t on_body(char *data, size_t one, size_t n, void *user) {
    sink *s = (sink *)user;
    (void)one;
    if (!s->checked_status && s->file && !restart_if_whole(s)) return 0;
    if (s->offset + s->written + n > s->limit) {
        s->too_long = 1;
        return 0; /* more than the index says: abort the transfer */
    }
    if (s->file) {
        if (fwrite(data, 1, n, s->file) != n) return 0;
    } else {
        memcpy(s->buf + s->buf_len, data, n);
        s->buf_len += n;
    }
    s->written += n;
    return n;
}

/* GET url into the sink, from byte `from` (a range) when it is not 0. */
static CURLcode http_get(patcher *p, const char *url, sink *s, uint64_t from, char *error) {
    error[0] = '\0';
    s->curl = p->curl;
    curl_easy_reset(p->curl);
    curl_easy_setopt(p->curl, CURLOPT_URL, url);
    curl_easy_setopt(p->curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(p->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(p->curl, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(p->curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(p->curl, CURLOPT_LOW_SPEED_LIMIT, 1L); /* stalled for 15 s: give up this try */
    curl_easy_setopt(p->curl, CURLOPT_LOW_SPEED_TIME, 15L);
    curl_easy_setopt(p->curl, CURLOPT_NOSIGNAL, 1L);
    if (from) curl_easy_setopt(p->curl, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)from);
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

static int fetch_index(patcher *p) {
    char url[PATCHER_PATH_MAX], error[CURL_ERROR_SIZE];
    sink s;
    CURLcode rc;
    memset(&s, 0, sizeof s);
    s.limit = TL_PATCH_MAX_INDEX_BYTES;
    s.buf = (char *)malloc((size_t)s.limit);
    if (!s.buf || !url_of(p, "archives.json", url)) {
        free(s.buf);
        return 0;
    }
    rc = http_get(p, url, &s, 0, error);
    if (rc != CURLE_OK) {
        fprintf(stderr, "patcher: %s: %s\n", url, s.too_long ? "larger than 16 MiB" : error[0] ? error : curl_easy_strerror(rc));
        free(s.buf);
        return 0;
    }
    p->index = s.buf;
    p->index_size = s.buf_len;
    p->received += s.written;
    return 1;
}

/* ---- staging -------------------------------------------------------------------------------- */

/* One transfer into NAME.part, resumed from its size; 1 when the part then has `size` bytes. */
static int transfer(patcher *p, const tl_patch_archive *a, const char *part) {
    char url[PATCHER_PATH_MAX], error[CURL_ERROR_SIZE];
    int exists;
    uint64_t have = file_size(part, &exists);
    sink s;
    CURLcode rc;
    memset(&s, 0, sizeof s);
    if (have >= a->size) have = 0; /* complete but refused before, or longer: start over */
    s.file = fopen(part, have ? "ab" : "wb");
    s.offset = have;
    s.limit = a->size;
    if (!s.file || !url_of(p, a->name, url)) {
        if (s.file) fclose(s.file);
        fprintf(stderr, "patcher: cannot write %s\n", part);
        return 0;
    }
    rc = http_get(p, url, &s, have, error);
    p->received += s.written;
    if (fflush(s.file) != 0 || fsync(fileno(s.file)) != 0) rc = CURLE_WRITE_ERROR;
    fclose(s.file);
    if (have) fprintf(stderr, "patcher: %s: resumed at byte %llu\n", a->name, (unsigned long long)have);
    if (s.too_long) fprintf(stderr, "patcher: %s: longer than the %llu bytes the index says\n", a->name, (unsigned long long)a->size);
    else if (rc != CURLE_OK)
        fprintf(stderr, "patcher: %s: %s (have %llu of %llu bytes)\n", a->name, error[0] ? error : curl_easy_strerror(rc),
                (unsigned long long)(s.offset + s.written), (unsigned long long)a->size);
    if (s.too_long) unlink(part);
    return rc == CURLE_OK && s.offset + s.written == a->size;
}

/* Downloads one archive into the staging folder, verified (size and XXH64) before it gets its
   name there; a refused download is deleted and fetched again. */
static int stage_archive(patcher *p, const tl_patch_archive *a) {
    char staged[PATCHER_PATH_MAX], part[PATCHER_PATH_MAX], part_name[300];
    int attempt;
    snprintf(part_name, sizeof part_name, "%s.part", a->name);
    if (!join(staged, p->staging, a->name) || !join(part, p->staging, part_name)) return 0;
    if (tl_patch_verify_file(staged, a->size, a->xxh64).code == TL_PATCH_OK) return 1; /* an earlier run's */
    for (attempt = 1; attempt <= PATCHER_ATTEMPTS; attempt++) {
        tl_patch_result r;
        if (attempt > 1) {
            struct timespec pause = {0, 100000000L * attempt};
            nanosleep(&pause, NULL);
        }
        if (!transfer(p, a, part)) continue;
        r = tl_patch_verify_file(part, a->size, a->xxh64);
        if (r.code != TL_PATCH_OK) {
            fprintf(stderr, "patcher: refused %s (attempt %d of %d): %s\n", a->name, attempt, PATCHER_ATTEMPTS, r.message);
            unlink(part);
            continue;
        }
        if (rename(part, staged) != 0 || !sync_path(p->staging, 1)) break;
        p->fetched++;
        return 1;
    }
    fprintf(stderr, "patcher: %s: giving up after %d attempts\n", a->name, PATCHER_ATTEMPTS);
    return 0;
}

/* Whether the staging folder's file `name` belongs to this plan (a staged or part file). */
static int staged_for_plan(const patcher *p, const char *name) {
    uint32_t i;
    for (i = 0; i < p->plan.archive_count; i++) {
        const char *a = p->plan.archives[i].name;
        size_t n = strlen(a);
        if (p->plan.archives[i].action != TL_PATCH_DOWNLOAD || strncmp(name, a, n) != 0) continue;
        if (name[n] == '\0' || strcmp(name + n, ".part") == 0) return 1;
    }
    return 0;
}

/* Removes the staging folder and whatever an interrupted run left in it. */
static void remove_staging(const patcher *p) {
    DIR *d = opendir(p->staging);
    struct dirent *e;
    if (d) {
        while ((e = readdir(d)) != NULL) {
            char path[PATCHER_PATH_MAX];
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && join(path, p->staging, e->d_name)) unlink(path);
        }
        closedir(d);
    }
    rmdir(p->staging);
}

/* Makes the staging folder, emptied of what an earlier run for another version left there. */
static int prepare_staging(patcher *p) {
    DIR *d;
    struct dirent *e;
    if (mkdir(p->dir, 0777) != 0 && errno != EEXIST) return 0;
    if (mkdir(p->staging, 0777) != 0 && errno != EEXIST) return 0;
    d = opendir(p->staging);
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        char path[PATCHER_PATH_MAX];
        if (e->d_name[0] == '.' || staged_for_plan(p, e->d_name)) continue;
        if (join(path, p->staging, e->d_name)) unlink(path);
    }
    closedir(d);
    return 1;
}

static int write_staged_index(patcher *p) {
    char path[PATCHER_PATH_MAX];
    FILE *f;
    int ok;
    if (!join(path, p->staging, "archives.json")) return 0;
    f = fopen(path, "wb");
    if (!f) return 0;
    ok = fwrite(p->index, 1, p->index_size, f) == p->index_size;
    ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    return fclose(f) == 0 && ok;
}

/* ---- the switch ----------------------------------------------------------------------------- */

static int switch_version(patcher *p) {
    char from[PATCHER_PATH_MAX], to[PATCHER_PATH_MAX];
    uint32_t i;
    for (i = 0; i < p->plan.archive_count; i++) {
        const tl_patch_archive *a = &p->plan.archives[i];
        if (a->action != TL_PATCH_DOWNLOAD) continue;
        if (!join(from, p->staging, a->name) || !join(to, p->dir, a->name) || rename(from, to) != 0) return 0;
        switch_step(p, a->name);
    }
    if (!sync_path(p->dir, 1)) return 0;
    if (!join(from, p->staging, "archives.json") || !join(to, p->dir, "archives.json") || rename(from, to) != 0) return 0;
    if (!sync_path(p->dir, 1)) return 0;
    switch_step(p, "archives.json");
    /* The new version is in place: only now does the old one go. */
    for (i = 0; i < p->plan.delete_count; i++) {
        if (join(to, p->dir, p->plan.deletes[i]) && unlink(to) != 0 && errno != ENOENT)
            fprintf(stderr, "patcher: cannot delete %s: %s\n", to, strerror(errno));
        switch_step(p, p->plan.deletes[i]);
    }
    remove_staging(p);
    switch_step(p, PATCHER_STAGING);
    return 1;
}

/* The installed archives.json has exactly these bytes and nothing is to be done. */
static int up_to_date(const patcher *p) {
    char path[PATCHER_PATH_MAX], *old;
    FILE *f;
    size_t n;
    int same;
    if (p->plan.download_count || p->plan.delete_count || !join(path, p->dir, "archives.json")) return 0;
    f = fopen(path, "rb");
    if (!f) return 0;
    old = (char *)malloc(p->index_size + 1);
    n = old ? fread(old, 1, p->index_size + 1, f) : 0;
    fclose(f);
    same = old && n == p->index_size && memcmp(old, p->index, n) == 0;
    free(old);
    return same;
}

static int update(patcher *p) {
    tl_patch_desc desc;
    tl_patch_result r;
    uint32_t i;
    if (!join(p->staging, p->dir, PATCHER_STAGING) || !fetch_index(p)) return 1;
    memset(&desc, 0, sizeof desc);
    desc.installed_dir = p->dir;
    desc.index = p->index;
    desc.index_size = p->index_size;
    r = tl_patch_plan_make(&p->plan, &desc);
    if (r.code != TL_PATCH_OK) {
        fprintf(stderr, "patcher: %s/archives.json: %s\n", p->url, r.message);
        return 1;
    }
    printf("patcher: plan: download %u of %u archives (%llu of %llu bytes), keep %u, delete %u after the switch\n",
           p->plan.download_count, p->plan.archive_count, (unsigned long long)p->plan.download_bytes,
           (unsigned long long)p->plan.total_bytes, p->plan.keep_count, p->plan.delete_count);
    if (up_to_date(p)) {
        remove_staging(p); /* an earlier run stopped after its switch */
        printf("patcher: %s is up to date\n", p->dir);
        return 0;
    }
    if (!prepare_staging(p)) {
        fprintf(stderr, "patcher: cannot make %s: %s\n", p->staging, strerror(errno));
        return 1;
    }
    for (i = 0; i < p->plan.archive_count; i++)
        if (p->plan.archives[i].action == TL_PATCH_DOWNLOAD && !stage_archive(p, &p->plan.archives[i])) return 1;
    if (!write_staged_index(p) || !switch_version(p)) {
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
        }
    tl_scope_dispose(scope);
    printf("patcher: verified: %u assets loaded\n", loaded);
    return ok;
}

/* DIR/archives.json parsed, for the names of its assets; false (said) when unreadable. */
static int read_index(const char *dir, tl_cf_index *index) {
    char path[PATCHER_PATH_MAX], *text;
    FILE *f;
    size_t n = 0;
    int ok;
    if (!join(path, dir, "archives.json") || !(f = fopen(path, "rb"))) {
        fprintf(stderr, "patcher: cannot read %s/archives.json\n", dir);
        return 0;
    }
    text = (char *)malloc((size_t)TL_PATCH_MAX_INDEX_BYTES);
    if (text) n = fread(text, 1, (size_t)TL_PATCH_MAX_INDEX_BYTES, f);
    fclose(f);
    ok = text && tl_cf_index_parse(index, text, n, NULL) == TL_CF_OK;
    if (!ok) fprintf(stderr, "patcher: %s: not a valid archive index\n", path);
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
    content = tl_content_create(&desc);
    ok = content && tl_content_dir_valid(tl_content_register_dir(content, dir)) && load_every_asset(content, &index);
    printf("patcher: %s: profile %s, %u archives: %s\n", dir, index.profile, index.archive_count, ok ? "loadable" : "NOT loadable");
    if (content) tl_content_shutdown(content);
    tl_cf_index_free(&index);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    patcher p;
    int rc;
    const char *crash = getenv("TL_PATCHER_CRASH_AFTER");
    if (argc == 3 && strcmp(argv[1], "--verify") == 0) return verify(argv[2]);
    if (argc != 3 || argv[1][0] == '-') {
        fprintf(stderr, "usage: patcher DIR URL | patcher --verify DIR\n");
        return 2;
    }
    memset(&p, 0, sizeof p);
    p.dir = argv[1];
    p.url = argv[2];
    p.crash_after = crash ? atoi(crash) : 0;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(p.curl = curl_easy_init())) return 1;
    rc = update(&p);
    tl_patch_plan_free(&p.plan);
    free(p.index);
    curl_easy_cleanup(p.curl);
    curl_global_cleanup();
    return rc;
}
