/* File system reads: whole files, sorted directory listings, path joining. */
#ifndef TLG_FSIO_H
#define TLG_FSIO_H

#include "base/diag.h"

#include <sys/stat.h>

/* What an input is, for its size cap and for messages about it. The caps (docs/config.md, `threadlink.json`)
 * are far above any real input and low enough that a wrong file named like an input (a disk image,
 * a 5 GB sparse file) fails at once, from fstat, before anything is read or allocated. */
typedef enum fs_input {
    FS_INPUT_CONFIG,   /* threadlink.json: 16 MiB */
    FS_INPUT_PROFILE,  /* a content profile file: 16 MiB */
    FS_INPUT_ENTRIES,  /* an injector, definition or native entries file, content rename records: 256 MiB */
    FS_INPUT_SHELL,    /* 16 MiB */
    FS_INPUT_VAULT,    /* a vault schema or vault data file: 64 MiB */
    FS_INPUT_MANIFEST, /* 256 MiB */
    FS_INPUT_PO,       /* a PO translation file: 64 MiB (the text stage holds ~14 bytes a byte of it) */
    FS_INPUT_ALLOW,    /* a diff allow-list: 16 MiB */
    FS_INPUT_OWN,      /* what the generator wrote itself (stamp, archives.json, an output): 256 MiB */
    FS_INPUT_ASSET     /* a content asset: streamed, no cap */
} fs_input;

/* Opens an input for reading without blocking (a FIFO would block open for ever) and refuses what
 * is not a regular file or is over the cap of its kind. Symbolic links are followed. Returns the
 * descriptor, or -1 with errno set: EISDIR for a directory, EINVAL for another file that is not
 * regular (a FIFO, socket or device), EFBIG over the cap, else open's own. fs_read_failure() then
 * says why in words. `st` (may be NULL) receives fstat's answer. */
int fs_open_input(const char *path, fs_input kind, struct stat *st);
/* Reads a whole input through fs_open_input and appends a NUL sentinel (data[len] == 0). false if
 * it cannot be read (errno as for fs_open_input; ENOENT for a missing file). */
bool fs_read_input(const char *path, fs_input kind, buf *out);
/* The same, appending after out->len (many inputs in one buffer; out->len stays on failure). */
bool fs_append_input(const char *path, fs_input kind, buf *out);
/* The same for the entry `name` of the directory open as `dir_fd` (`path` names it in messages),
 * never through a link: a link there is refused (ELOOP). */
int fs_open_input_at(int dir_fd, const char *name, const char *path, fs_input kind, struct stat *st);
bool fs_read_input_at(int dir_fd, const char *name, const char *path, fs_input kind, buf *out);
/* The cap of a kind of input, in bytes; a size as messages give it ("5.0 GiB", `whole`: "256 MiB"). */
uint64_t fs_input_cap(fs_input kind);
void fs_format_size(char *out, size_t n, uint64_t size, bool whole);
/* fs_read_input for the generator's own files (FS_INPUT_OWN). */
bool fs_read_file(const char *path, buf *out);
/* Why the last fs_open_input or fs_read_input failed, to end a message ("cannot read the shell
 * x.h: %s"): "it is a FIFO (named pipe), not a regular file", "it is 5.0 GiB; shells are capped
 * at 16 MiB", "its path is 4434 bytes, longer than this system allows (4095 bytes)", else
 * strerror's text. Valid until the next call of either. */
const char *fs_read_failure(void);
/* The same words for an errno that another call on `path` gave (lstat, opendir). */
const char *fs_path_failure(const char *path, int err);
/* Whether `path` passes the system's limits, checked on the text alone (no file system call, so a
 * missing parent does not hide it): NULL when it does not, else the words, said of `what`
 * ("its path" -> "a name in its path is 300 bytes, longer than this system allows (255 bytes)").
 * Valid until the next call. */
const char *fs_path_length_problem(const char *path, const char *what);

typedef enum fs_kind { FS_MISSING, FS_FILE, FS_DIR, FS_SYMLINK, FS_OTHER } fs_kind;
/* FS_MISSING leaves stat's errno: ENOENT, or ENAMETOOLONG for a path too long (fs_path_failure). */
fs_kind fs_kind_of(const char *path);     /* lstat: a symlink is reported as such */
fs_kind fs_kind_follow(const char *path); /* stat */

/* Names of the entries of a directory (no "." or ".."), sorted bytewise, so that every run sees
 * the same order whatever the file system returns. false if it cannot be opened. */
typedef VEC(char *) name_list;
bool fs_list_dir(const char *dir, name_list *out);
/* The same for the directory open as `dir_fd` (which stays open; it may be listed again). */
bool fs_list_dir_fd(int dir_fd, name_list *out);
void name_list_free(name_list *l);
/* qsort and bsearch comparators over arrays of names (char *): bytewise, and ignoring ASCII case
 * (tl_text_fold_compare's order). */
int names_cmp(const void *a, const void *b);
int names_cmp_ignoring_case(const void *a, const void *b);
/* Whether `names` (n of them, sorted by names_cmp, as fs_list_dir lists) holds `name`. */
bool names_hold(char *const *names, size_t n, const char *name);

/* Reports an error at each entry of `names` (a listing of `dir`) ending in `suffix` (in any case)
 * that differs from another only in ASCII case: a checkout on macOS or Windows holds only one of
 * the two, silently. false if any. */
bool fs_check_case_distinct(const char *dir, const name_list *names, const char *suffix);

/* For a path that does not exist: the path as the file system spells an existing entry that
 * differs from it only in ASCII case ("Injectors" -> "injectors"), for a hint (Linux refuses what
 * macOS and Windows accept); NULL when there is none. Caller frees. */
char *fs_case_variant(const char *path);
/* After an error about `path` not existing: a note at `at` naming fs_case_variant's spelling, if any. */
void fs_note_case_variant(src_loc at, const char *path);

/* `stale` and `wanted` are paths that differ in ASCII case only. When they name one entry (a
 * case-insensitive file system, as on macOS and Windows, where the entry keeps the spelling it was
 * created with), respells that entry, and any folder on the way, as `wanted` and returns true: a
 * case-only rename carried out on disk, where deleting `stale` would delete `wanted`. Returns
 * false, changing nothing, when the directory holds both spellings (two files) or neither. */
bool fs_respell(const char *stale, const char *wanted);
/* The same for two spellings of one entry's name (no '/') in the directory open as `dir_fd`, the
 * rename made through it: a directory that is replaced meanwhile is never reached by path. */
bool fs_respell_at(int dir_fd, const char *stale, const char *wanted);

/* The directory part: "a/b/c.txt" -> "a/b", "c.txt" -> ".". */
char *path_dirname(const char *path);
const char *path_basename(const char *path);

/* The path, absolute, with "." components and repeated '/' dropped and every symbolic link in its
 * longest existing prefix resolved (realpath); the rest, which does not exist, is kept as spelt.
 * With `keep_last`, the last component is not resolved: the entry itself (a link is named, not
 * followed), as a write that renames over it would replace it. Caller frees. */
char *fs_resolve(const char *path, bool keep_last);

/* How two paths lie on the file system: one folder, one inside the other, or apart. Compared as
 * fs_resolve spells them, then by device and inode (a case-insensitive mount spells one folder
 * two ways), so "./generated", "generated/" and a link to it are one. */
typedef enum fs_relation { FS_APART, FS_SAME, FS_INSIDE, FS_CONTAINS } fs_relation;
fs_relation fs_relation_of(const char *a, const char *b); /* FS_INSIDE: a is inside b */
/* Whether `path` (relative, without '..') is the one spelling of what it names, as an output
 * path must be: no empty component ("a//b", a trailing '/' of a file) and no '.' component
 * ("./a", "a/./b", "a/."), and a file is not "." itself. A folder may be "." (the directory
 * itself) and end with one '/'. No ';' (CMake's list separator, in the list of outputs). Returns
 * NULL when it is, else the message to report, naming the spelling to write (caller frees). */
char *path_spelling_problem(const char *path, bool folder);

#endif
