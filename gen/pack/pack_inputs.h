/* The record of input hashes (pack_inputs.c): what pack keeps between builds so that the next
 * one reads only the files that changed. Its own header, apart from pack_internal.h, because the
 * record is read back from disk and its reader has a fuzz target (tests/fuzz/fuzz_pack_inputs.c). */
#ifndef TLG_PACK_INPUTS_H
#define TLG_PACK_INPUTS_H

#include "content/content_config.h"
#include "content/content_scan.h"

/* Per output folder, in the user's cache folder: each asset file's hash with the state (device,
 * inode, size, times) it was read in, so that the next build reads only what changed. */
/* This build's entries of the record: its inputs (files settled before the run:
 * content_memo_settled in the run's memo), sorted by path. Reads only the scan and the memo,
 * which changes only in scans (all done before any build), so it may be made on another thread
 * while a build runs. */
void pack_inputs_entries(content_memo *memo, const content_profile *pr, const content_scan *sc, buf *out);
/* The record of the output folder whose real path is `folder` (taken once, when the run opened
 * it: pack never reaches the folder by path again) with these entries, after the build's commit. */
void pack_inputs_save(const char *folder, const buf *entries);
/* The previous build's record for the output folder whose real path is `folder`, if any, handed
 * to the run's scan memo. */
void pack_inputs_seed(content_memo *memo, const char *project_root, const char *folder);
/* The record as text (pack_inputs.c gives the format): begun for output folder `folder` (its
 * real path), an entry per file (its path relative to the project), ended by the hash of it all. */
void pack_inputs_begin(buf *out, const char *folder);
void pack_inputs_add(buf *out, const char *path, const content_file_state *st);
void pack_inputs_end(buf *out);
/* Reads a record (`len` bytes of anything) written for `folder`: each entry goes to `each`, its
 * path (`len` bytes, no NUL or newline, not empty) relative to the project. A record that is not
 * whole (its version, its folder, the hash of its last line, every line) gives nothing: false. */
typedef void (*pack_inputs_fn)(void *ctx, const char *path, size_t len, const content_file_state *st);
bool pack_inputs_read(const char *text, size_t len, const char *folder, pack_inputs_fn each, void *ctx);

#endif
