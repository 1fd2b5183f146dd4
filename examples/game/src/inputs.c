/* inputs.c - recorded inputs (see inputs.h).
 *
 * A recording replaces its file whole or not at all: it is written to a temporary file beside it,
 * flushed to the disk, then renamed over it (and the folder synced), as save.h and the patcher
 * write; a failure (a full disk) removes the temporary file and leaves an older recording as it
 * was. Something that is not a regular file (/dev/stdout, a FIFO) is written in place. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* fsync, fileno, fdopen */
#endif
#include "inputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(_WIN32)
#include <io.h> /* _commit */
#include <windows.h> /* MoveFileExA */
#else
#include <fcntl.h>
#include <unistd.h>
#endif

bool input_tape_init(input_tape *t, uint32_t capacity) {
    t->count = 0;
    t->capacity = capacity ? capacity : 1;
    t->frames = (uint32_t *)calloc(t->capacity, sizeof *t->frames);
    return t->frames != NULL;
}

bool input_tape_push(input_tape *t, uint32_t input) {
    if (t->count == t->capacity) {
        uint32_t *grown = (uint32_t *)realloc(t->frames, (size_t)t->capacity * 2 * sizeof *grown);
        if (!grown) return false;
        t->frames = grown;
        t->capacity *= 2;
    }
    t->frames[t->count++] = input;
    return true;
}

bool input_tape_read(input_tape *t, const char *path) {
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned line_no = 0;
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return false;
    }
    if (!input_tape_init(t, 4096)) {
        fclose(f);
        return false;
    }
    while (fgets(line, sizeof line, f)) {
        unsigned long count, mask;
        char extra;
        line_no++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%u:1: error: a line longer than %u bytes\n", path, line_no, (unsigned)sizeof line - 2);
            fclose(f);
            input_tape_free(t);
            return false;
        }
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%lu %lx %c", &count, &mask, &extra) != 2 || count == 0 || count > 1000000 || mask > 31) {
            fprintf(stderr, "%s:%u:1: error: expected \"COUNT MASK\" (MASK in hex, at most 1f)\n", path, line_no);
            fclose(f);
            input_tape_free(t);
            return false;
        }
        while (count--)
            if (!input_tape_push(t, (uint32_t)mask)) {
                fclose(f);
                return false;
            }
    }
    fclose(f);
    return true;
}

/* The recording's text: a '#' comment, then "COUNT MASK" runs. 0, or the errno of the write. */
static int write_lines(const input_tape *t, FILE *f, const char *comment) {
    uint32_t i = 0;
    errno = 0;
    fprintf(f, "# %s: %u frames, lines \"COUNT MASK\" (up 1, down 2, left 4, right 8, fire 10)\n", comment, t->count);
    while (i < t->count && !ferror(f)) {
        uint32_t j = i;
        while (j < t->count && t->frames[j] == t->frames[i]) j++;
        fprintf(f, "%u %x\n", j - i, t->frames[i]);
        i = j;
    }
    if (fflush(f) != 0 || ferror(f)) return errno ? errno : EIO;
    return 0;
}

/* ---- the platform's file calls: a fresh temporary file, its sync, the rename over the target ---- */
#if defined(_WIN32)
static FILE *create_beside(const char *path, char *tmp, size_t size) {
    snprintf(tmp, size, "%s.%lu.tmp", path, (unsigned long)GetCurrentProcessId());
    return fopen(tmp, "w");
}
static int sync_file(FILE *f) { return _commit(_fileno(f)) == 0 ? 0 : errno; }
static int replace_with(const char *tmp, const char *path) {
    return MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) ? 0 : EACCES;
}
static void sync_folder_of(const char *path) { (void)path; } /* MOVEFILE_WRITE_THROUGH did */
#else
/* A new file (O_EXCL: never one that exists, nor through a link) named after the target; its
   mode is what fopen would give (0666 less the umask). */
static FILE *create_beside(const char *path, char *tmp, size_t size) {
    unsigned n;
    for (n = 0; n < 100; n++) {
        int fd;
        snprintf(tmp, size, "%s.%ld-%u.tmp", path, (long)getpid(), n);
        FILE *f;
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) return NULL;
        if ((f = fdopen(fd, "w")) != NULL) return f;
        close(fd);
        remove(tmp);
        return NULL;
    }
    return NULL;
}
static int sync_file(FILE *f) { return fsync(fileno(f)) == 0 ? 0 : errno; }
static int replace_with(const char *tmp, const char *path) { return rename(tmp, path) == 0 ? 0 : errno; }
/* The rename is durable once the folder is synced. The recording is complete and in place by
   then, so a failed folder sync (rare) is not a failure to write it. */
static void sync_folder_of(const char *path) {
    const char *slash = strrchr(path, '/');
    char folder[4096];
    int fd;
    if (slash && (size_t)(slash - path) >= sizeof folder) return;
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - path + 1) : 1, slash ? path : ".");
    if ((fd = open(folder, O_RDONLY)) < 0) return;
    (void)fsync(fd);
    close(fd);
}
#endif

/* Something there that is not a regular file (a device, a FIFO): written in place. */
static bool writes_in_place(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int write_in_place(const input_tape *t, const char *path, const char *comment) {
    FILE *f = fopen(path, "w");
    int err;
    if (!f) return errno;
    err = write_lines(t, f, comment);
    if (fclose(f) != 0 && !err) err = errno;
    return err;
}

/* Written beside, synced, renamed over path: 0, or the errno of the step that failed (the
   temporary file then removed, an older recording untouched). */
static int write_replacing(const input_tape *t, const char *path, const char *comment) {
    size_t size = strlen(path) + 32;
    char *tmp = (char *)malloc(size);
    FILE *f = tmp ? create_beside(path, tmp, size) : NULL;
    int err = f ? write_lines(t, f, comment) : tmp ? errno : ENOMEM;
    if (f && !err) err = sync_file(f);
    if (f && fclose(f) != 0 && !err) err = errno;
    if (f && !err) err = replace_with(tmp, path);
    if (f && err) remove(tmp);
    if (!err) sync_folder_of(path);
    free(tmp);
    return err;
}

bool input_tape_write(const input_tape *t, const char *path, const char *comment) {
    int err = writes_in_place(path) ? write_in_place(t, path, comment) : write_replacing(t, path, comment);
    if (err) fprintf(stderr, "%s: the recording was not written: %s\n", path, strerror(err));
    return err == 0;
}

void input_tape_free(input_tape *t) {
    free(t->frames);
    t->frames = NULL;
    t->count = t->capacity = 0;
}
