/* File system reads: whole files, sorted directory listings, path joining. */
#ifndef TLG_FSIO_H
#define TLG_FSIO_H

#include "diag.h"

/* Reads a whole file and appends a NUL sentinel (data[len] == 0). false if it cannot be read
 * (errno tells why; ENOENT for a missing file). */
bool fs_read_file(const char *path, buf *out);

typedef enum fs_kind { FS_MISSING, FS_FILE, FS_DIR, FS_SYMLINK, FS_OTHER } fs_kind;
fs_kind fs_kind_of(const char *path); /* lstat: a symlink is reported as such */
fs_kind fs_kind_follow(const char *path); /* stat */

/* Names of the entries of a directory (no "." or ".."), sorted bytewise, so that every run sees
 * the same order whatever the file system returns. false if it cannot be opened. */
typedef VEC(char *) name_list;
bool fs_list_dir(const char *dir, name_list *out);
void name_list_free(name_list *l);
/* qsort and bsearch comparators over arrays of names (char *): bytewise, and ignoring ASCII case
 * (tl_cf_fold_compare's order). */
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

/* "a" + "b" -> "a/b"; "." + "b" -> "b"; an absolute second part is kept as it is. */
char *path_join(const char *a, const char *b);
/* The directory part: "a/b/c.txt" -> "a/b", "c.txt" -> ".". */
char *path_dirname(const char *path);
const char *path_basename(const char *path);

/* Whether `path` (relative, without '..') is the one spelling of what it names, as an output
 * path must be: no empty component ("a//b", a trailing '/' of a file) and no '.' component
 * ("./a", "a/./b", "a/."), and a file is not "." itself. A folder may be "." (the directory
 * itself) and end with one '/'. Returns NULL when it is, else the message to report, naming the
 * spelling to write (caller frees). */
char *path_spelling_problem(const char *path, bool folder);

#endif
