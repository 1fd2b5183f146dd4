/* Writing outputs: atomic (temporary file + rename) and write-if-changed, streamed so that a
 * million-entry header is never held in memory whole. Every output of a run is prepared first
 * and renamed into place only when all of them were produced (output_commit); a failure leaves
 * every existing file as it was (output_abort). In check mode nothing is written: each output is
 * kept in memory so the caller can diff it against the file. */
#ifndef TLG_OUTPUT_H
#define TLG_OUTPUT_H

#include "base/diag.h"

typedef enum output_mode { OUTPUT_WRITE, OUTPUT_CHECK } output_mode;

typedef struct out_file {
    char *path;       /* as opened: relative to the working directory (messages, the stamp) */
    char *base;       /* the directory it is below, reached as the user spelled it ... */
    char *dir_rel;    /* ... and its directory below that ("" for base itself), never a link */
    const char *name; /* its file name (in path) */
    struct output_set *set;
    buf chunk;  /* the emitter appends here; out_flush moves it on */
    int old_fd; /* the existing file, or -1 */
    uint64_t old_size, pos;
    bool differs, failed;
    int tmp_fd;
    char *tmp_name;         /* the temporary file, in the same directory */
    buf whole;              /* check mode: the complete new content */
    struct hasher *content; /* XXH3 of everything emitted */
    uint64_t hash;          /* after output_end: the content hash; pos is the size */
    bool fresh_dir;         /* its directory was created in this run: no previous file to compare */
    unsigned umask_bits;    /* the process's umask when the set began */
    /* Text (headers, manifests): a previous file that differs only in line endings, CRLF where
     * this run writes LF, is the same output and stays as it is. Set before output_end. */
    bool text;
    /* An output the run can do without (the stamp, a cache): an I/O failure is left for the caller
     * to report (output_end or output_commit returns false) instead of being an error. */
    bool optional;
} out_file;

/* Every file operation goes through directory descriptors: the base directory is opened once,
 * each directory below it is reached one component at a time with O_NOFOLLOW (made with mkdirat
 * where missing), and the temporary file is created, renamed and removed relative to its
 * directory's descriptor. A component swapped for a symbolic link during the run is an error,
 * never a way out of the base. */
typedef struct output_set {
    output_mode mode;
    /* The most a text output (header, manifest, table) may hold: what the generator reads its own
     * files back with (FS_INPUT_OWN's cap; 0 means that). Over it, output_end fails the output. */
    uint64_t text_cap;
    VEC(out_file *) files;
    size_t changed;
    struct {
        char *path; /* NULL: not open */
        int fd;
        bool created; /* made by this run: everything below it is new */
    } base;
    struct {
        char *rel; /* the directory last walked to, below base; NULL: none */
        int fd;
        bool fresh; /* made by this run, nothing committed into it yet */
    } dir;
} output_set;

/* A directory that later sets write below, opened once for a whole run (pack's output folder), so
 * that a run never follows a link that replaces it meanwhile: opened as the user spelled it but
 * never through a link in its last component; with `create`, made first when missing, parents
 * included (*created: this call made it; a failure to make it is reported). -1 with errno set. */
int output_open_dir(const char *path, bool create, bool *created);
/* Gives the set the directory open as `fd` (a duplicate is kept until the commit or abort) as its
 * base for outputs below `path`, instead of opening `path` again; `created`: made by this run.
 * false (errno set, nothing reported) when no descriptor is left for the duplicate. */
bool output_set_base(output_set *set, const char *path, int fd, bool created);

/* An output whose directory is the user's (the stamp, a depfile): path's directory must exist. */
out_file *output_begin(output_set *set, const char *path);
/* An output at base/relative: in write mode the directories of `relative` are made as needed
 * (base itself included). A failure (a symbolic link on the way) is reported and the output is
 * returned failed: output_end returns false. */
out_file *output_begin_below(output_set *set, const char *base, const char *relative);
void out_flush(out_file *o);
/* Hands the chunk on when it is large (call after each small append); cheap otherwise. 256 KiB
 * a write: a 14 MB header is written in 2.0 ms that way, 3.2 ms in 64 KiB writes (Linux 6.18,
 * ext4: larger page-cache folios). */
static inline void out_maybe_flush(out_file *o)
{
    if (o->chunk.len >= 1 << 18) out_flush(o);
}
/* Finishes one output; false (with a diagnostic) on an I/O error. */
bool output_end(out_file *o);
/* Renames every changed output into place; returns false on an I/O error. */
bool output_commit(output_set *set);
/* Removes every temporary file; existing outputs stay as they were. */
void output_abort(output_set *set);
void output_set_free(output_set *set);

/* Refuses output paths that would leave the generated directory: '..', absolute paths, and
 * symlinks or non-directories on the way (checked on the real file system; the writes check
 * again, through descriptors). */
bool output_confined(const char *generated_dir, const char *relative, src_loc where);

/* Deletes the file base/relative, reaching its directory as the writes do (no link followed
 * below base); false with errno set if it could not. */
bool output_unlink_below(const char *base, const char *relative);

/* A temporary file's name: "." + the output's name (or "tl-output") + "." + 6 letters or digits.
 * Sets *name_len to the length of the output's name, which starts at name + 1. */
bool output_is_temp_name(const char *name, size_t *name_len);

/* Temporary files that a killed run left beside the outputs base/relatives[i] (named for one of
 * them, or .tl-output.XXXXXX beside one with a long name), not held by a live run: removed with
 * a warning (`remove`), else each reported as an error. Returns how many were found. */
size_t output_leftovers(const char *base, char *const *relatives, size_t count, bool remove);

#endif
