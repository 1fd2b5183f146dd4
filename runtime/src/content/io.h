/* --- logging ------------------------------------------------------------------------------------- */

/* Every line through the desc's logger, as a row of TL_CONTENT_LOG_ITEMS (log.h's table
   function); tl__content_log(ctx, item, ...) names the context whose logger it is (NULL:
   stderr). */
TL_LOG_TABLE_FN(tl__content_log_to, TL_CONTENT_LOG_ITEMS, TL_CONTENT_LOG_BASE, "Content")
static const tl_logger *tl__content_logger(const tl_content *ctx) {
    return ctx ? &ctx->logger : NULL;
}
#define tl__content_log(ctx, ...) tl__content_log_to(tl__content_logger(ctx), __VA_ARGS__)

/* Records a failure's result in the context (tl_content_last_result) and returns it. */
static tl_content_result tl__content_fail(tl_content *ctx, tl_content_result result) {
    if (ctx) ctx->last = result;
    return result;
}

TL_RESULT_MESSAGE_FN(tl_content_result_message, tl_content_result, TL_CONTENT_RESULTS)

tl_content_result tl_content_last_result(const tl_content *ctx) {
    return ctx ? ctx->last : TL_CONTENT_INVALID_ARGUMENT;
}

/* --- small helpers ------------------------------------------------------------------------------ */

static void *tl__content_zalloc(size_t bytes) {
    void *p = TL_MALLOC(bytes ? bytes : 1);
    if (p) memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* Grows *array (elements of `size` bytes) to hold at least `need`; new elements are zeroed. */
static bool tl__content_grow(void **array, uint32_t *cap, size_t size, uint32_t need) {
    uint32_t n;
    unsigned char *grown;
    if (need <= *cap) return true;
    if (need > 0x7FFFFFFFu) return false;
    n = *cap ? *cap : 8;
    while (n < need) n = n > 0x3FFFFFFFu ? need : n * 2;
    if ((uint64_t)n * size > (uint64_t)SIZE_MAX / 2) return false;
    grown = (unsigned char *)TL_MALLOC((size_t)n * size);
    if (!grown) return false;
    if (*cap) memcpy(grown, *array, (size_t)*cap * size);
    memset(grown + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    TL_FREE(*array);
    *array = grown;
    *cap = n;
    return true;
}

static char *tl__content_strdup(const char *s) {
    size_t n = strlen(s);
    char *d = (char *)TL_MALLOC(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static char *tl__content_join(const char *a, const char *b, const char *c) {
    size_t na = strlen(a), nb = strlen(b), nc = c ? strlen(c) : 0;
    char *d = (char *)TL_MALLOC(na + nb + nc + 2);
    if (!d) return NULL;
    memcpy(d, a, na);
    d[na] = '/';
    memcpy(d + na + 1, b, nb);
    if (nc) memcpy(d + na + 1 + nb, c, nc);
    d[na + 1 + nb + nc] = 0;
    return d;
}

/* XXH64 of the ASCII-lowercased name: the key of the name table. */
static uint64_t tl__content_name_hash(const char *name, size_t len) {
    unsigned char chunk[128];
    tl_hash64_state state;
    size_t i, k;
    if (len <= sizeof chunk) {
        for (i = 0; i < len; i++) chunk[i] = tl_text_fold((unsigned char)name[i]);
        return tl_hash64(chunk, len, 0);
    }
    tl_hash64_reset(&state, 0);
    for (i = 0; i < len; i += k) {
        size_t j;
        k = len - i < sizeof chunk ? len - i : sizeof chunk;
        for (j = 0; j < k; j++) chunk[j] = tl_text_fold((unsigned char)name[i + j]);
        tl_hash64_update(&state, chunk, k);
    }
    return tl_hash64_digest(&state);
}

/* A relative path inside the directory (flat asset paths): '/'-separated components, each a
   plain file name that every platform can hold (tl_cf_flat_file_name, as pack checks before it
   writes a flat build); no absolute path, no '..', no backslash. */
static bool tl__content_rel_path_ok(const char *s, size_t len) {
    size_t start = 0, i;
    if (len == 0 || len > 4096) return false;
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '/') {
            if (!tl_cf_flat_file_name(s + start, i - start)) return false;
            start = i + 1;
        }
    }
    return true;
}

/* --- codecs --------------------------------------------------------------------------------------- */

static const char *tl__content_codec_missing(uint32_t codec) {
    return codec == TL_CF_CODEC_LZ4
               ? "stores entries compressed with lz4, and this runtime was built without lz4 "
                 "(define TL_CONTENT_LZ4 and link liblz4)"
               : "stores entries compressed with zstd, and this runtime was built without zstd "
                 "(define TL_CONTENT_ZSTD and link libzstd)";
}

/* --- default I/O: stdio --------------------------------------------------------------------------- */

/* File positions past 2 GiB: fseek and ftell take a long, which has 32 bits on Windows (and on
   32-bit POSIX systems), so Windows uses _fseeki64/_ftelli64. Elsewhere a 32-bit long limits the
   default I/O to files under 2 GiB; larger ones fail to open (give tl_content_io callbacks). */
#if defined(_WIN32)
typedef __int64 tl__content_file_pos;
#define TL__CONTENT_FSEEK _fseeki64
#define TL__CONTENT_FTELL _ftelli64
#define TL__CONTENT_FILE_POS_MAX INT64_MAX
#else
typedef long tl__content_file_pos;
#define TL__CONTENT_FSEEK fseek
#define TL__CONTENT_FTELL ftell
#define TL__CONTENT_FILE_POS_MAX LONG_MAX
#endif

/* Reads go through pread on the stream's descriptor where the headers declare it (POSIX, not in
   strict ISO C modes on glibc or musl): one system call per read and no copy through stdio's
   buffer; the stream's own position is never used. Elsewhere (Windows) fseek + fread. */
#if defined(_WIN32)
#elif defined(__GLIBC__) \
    ? (defined(__USE_UNIX98) || defined(__USE_XOPEN2K8)) \
    : (defined(__APPLE__) || !defined(__STRICT_ANSI__) || defined(_XOPEN_SOURCE) || \
       defined(_GNU_SOURCE) || (defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L))
#define TL__CONTENT_POSIX_IO 1
#include <errno.h>
#include <unistd.h>
#endif
#if defined(TL__CONTENT_POSIX_IO) && !defined(TL_CONTENT_NO_PREAD)
#define TL__CONTENT_PREAD 1
#endif
#if defined(TL__CONTENT_POSIX_IO) && !defined(TL_CONTENT_NO_MMAP)
#define TL__CONTENT_MMAP 1
#include <sys/mman.h>
#include <sys/stat.h>
#endif

/* The default I/O opens only regular files, and opens them without blocking: a FIFO would block
   the open until a writer came (for ever), a device would be read for ever. POSIX: open with
   O_NONBLOCK, fstat, refuse what is not a regular file (logged, naming it), then read through a
   stream on that descriptor. Strict ISO C modes on POSIX systems, which declare no fdopen: the
   path is opened and checked the same way, then opened again by fopen (a swap in between is not
   caught there). */
#if defined(TL__CONTENT_POSIX_IO) || (!defined(_WIN32) && (defined(__unix__) || defined(__APPLE__)))
#define TL__CONTENT_CHECK_KIND 1
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef O_CLOEXEC
#define TL__CONTENT_O_CLOEXEC O_CLOEXEC
#else
#define TL__CONTENT_O_CLOEXEC 0
#endif

/* What a file that is not a regular one is, as a phrase ("a FIFO (named pipe)"). */
static const char *tl__content_kind_phrase(unsigned long mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
#ifdef S_ISSOCK
    if (S_ISSOCK(mode)) return "a socket";
#endif
    return "a special file";
}

/* A descriptor of the regular file at path (read only, not blocking), or -1: missing, or not a
   regular file (logged, and remembered for the caller's message). A socket cannot be opened at
   all (ENXIO): stat says what it is. */
static int tl__content_open_regular(tl_content *ctx, const char *path, struct stat *st) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | TL__CONTENT_O_CLOEXEC);
    if (fd < 0) {
        if (stat(path, st) != 0 || S_ISREG(st->st_mode)) return -1;
    } else if (fstat(fd, st) != 0 || S_ISREG(st->st_mode)) {
        return fd;
    } else {
        close(fd);
    }
    if (ctx) {
        ctx->open_refused = true;
        tl__content_log(ctx, TL_CONTENT_LOG_NOT_A_FILE, path,
                        tl__content_kind_phrase((unsigned long)st->st_mode));
    }
    return -1;
}
#endif

static void *tl__content_file_open(void *user, const char *path, uint64_t *size) {
    FILE *f;
    tl__content_file_pos n;
#ifdef TL__CONTENT_CHECK_KIND
    struct stat st;
    int fd = tl__content_open_regular((tl_content *)user, path, &st);
    if (fd < 0) return NULL;
#ifdef TL__CONTENT_POSIX_IO
    if ((uint64_t)st.st_size > (uint64_t)TL__CONTENT_FILE_POS_MAX || !(f = fdopen(fd, "rb"))) {
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
#else
    close(fd);
#endif
#else
    (void)user;
#endif
    if (!(f = fopen(path, "rb"))) return NULL;
    if (TL__CONTENT_FSEEK(f, 0, SEEK_END) != 0 || (n = TL__CONTENT_FTELL(f)) < 0) {
        fclose(f);
        return NULL;
    }
    *size = (uint64_t)n;
    return f;
}

static bool tl__content_file_read(void *user, void *file, uint64_t offset, void *dst, size_t size) {
    FILE *f = (FILE *)file;
    (void)user;
    if (offset > (uint64_t)TL__CONTENT_FILE_POS_MAX) return false;
#ifdef TL__CONTENT_PREAD
    {
        unsigned char *at = (unsigned char *)dst;
        int fd = fileno(f);
        while (size > 0) {
            ssize_t n = pread(fd, at, size, (off_t)offset);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            at += n;
            size -= (size_t)n;
            offset += (uint64_t)n;
        }
        return true;
    }
#else
    if (TL__CONTENT_FSEEK(f, (tl__content_file_pos)offset, SEEK_SET) != 0) return false;
    return size == 0 || fread(dst, 1, size, f) == size;
#endif
}

static void tl__content_file_close(void *user, void *file) {
    (void)user;
    fclose((FILE *)file);
}

/* True when a reason (a *why) is running out of memory: a caller that words failures its own way
   keeps that one, so that the log says what to fix. */
static bool tl__content_out_of_memory(const char *why) {
    return why && strcmp(why, "out of memory") == 0;
}

/* Opens a file of a directory through the backend; NULL when it cannot, with *special true when
   it is there but not a regular file (refused by the default I/O, which logged it). */
static void *tl__content_open(tl_content *ctx, const char *path, uint64_t *size, bool *special) {
    void *f;
    ctx->open_refused = false;
    f = ctx->io.open(ctx->io.user, path, size);
    *special = !f && ctx->open_refused;
    return f;
}

#define TL__CONTENT_NOT_REGULAR "not a regular file"

/* Reads a whole (small) file: archives.json, catalog.tlcat. */
static unsigned char *tl__content_read_whole(tl_content *ctx, const char *path, uint64_t max,
                                             uint64_t *size, const char **why) {
    uint64_t n = 0;
    unsigned char *data;
    bool special;
    void *f = tl__content_open(ctx, path, &n, &special);
    if (!f) {
        *why = special ? TL__CONTENT_NOT_REGULAR : "missing or unreadable";
        return NULL;
    }
    if (n > max) {
        ctx->io.close(ctx->io.user, f);
        *why = "larger than this runtime accepts";
        return NULL;
    }
    data = (unsigned char *)TL_MALLOC((size_t)n + 1);
    if (!data || !ctx->io.read(ctx->io.user, f, 0, data, (size_t)n)) {
        ctx->io.close(ctx->io.user, f);
        *why = data ? "read error" : "out of memory";
        if (data) TL_FREE(data);
        return NULL;
    }
    ctx->io.close(ctx->io.user, f);
    data[n] = 0;
    *size = n;
    return data;
}
