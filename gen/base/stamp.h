/* The up-to-date stamp: `.threadlink-gen.stamp` in the output directory records a hash of every
 * input and the size and hash of every output the last run produced. When the inputs hash the
 * same and every output is still byte-for-byte what was written, a run has nothing to do and
 * skips parsing manifests and emitting headers; when only the bytes of asset files differ (the
 * shape below is the same), generate reads the manifests and emits only the outputs made from
 * those bytes (the catalog headers), without assigning identities again. `check` shares this
 * stamp with generate (the outputs' bytes are verified against it, so a stale stamp cannot hide
 * a change); the quick stamp (stat only, QUICK_STAMP_FILE) is plain generate's alone. The stamp
 * holds only content hashes (no times, no paths outside the project), so it is deterministic; it
 * is still a cache: keep it out of version control. */
#ifndef TLG_STAMP_H
#define TLG_STAMP_H

#include "base/util.h"

#include <time.h>

#define STAMP_FILE ".threadlink-gen.stamp"

typedef struct hasher hasher; /* a streaming XXH3-64 */
hasher *hasher_new(void);
void hasher_add(hasher *h, const void *data, size_t len);
/* A file as an input: its name, its size and its bytes, so renames and moves count. */
void hasher_add_file(hasher *h, const char *name, const void *data, size_t len);
/* A file's name and content, read in pieces; false if it cannot be read. */
bool hasher_add_path(hasher *h, const char *path);
uint64_t hasher_digest(const hasher *h);
void hasher_free(hasher *h);

typedef struct stamp_output {
    char *path;
    uint64_t size, hash;
} stamp_output;

typedef struct stamp {
    uint64_t inputs;
    /* The inputs without the bytes of asset files (their names stay in): equal while inputs
     * differ means only asset bytes changed, and only the outputs made from them need emitting. */
    uint64_t shape;
    VEC(stamp_output) outputs;
} stamp;

/* false if there is no readable, well-formed stamp. */
bool stamp_read(const char *path, stamp *out);
/* Every recorded output exists with its recorded size and hash. */
bool stamp_outputs_intact(const stamp *s);
/* This one does (a regular file, not followed through a symbolic link). */
bool stamp_output_intact(const stamp_output *o);
void stamp_format(const stamp *s, buf *out);
void stamp_free(stamp *s);

/* The quick stamp: `.threadlink-gen.quick` beside the stamp records, after a silent `generate`
 * (no warning, no error) with no extra outputs asked for, the file system's view of every input
 * and output (size, times in nanoseconds, inode), and a digest of how the run was asked. While all
 * of them still stat the same, the next such run has nothing to do and returns before it reads
 * the config's injectors, the manifests or the outputs. An input changed during the run that
 * wrote it (its ctime not before the run began, so what was read may not be what is recorded)
 * leaves no quick stamp: the next run takes the full way. The outputs' directories are recorded
 * too (after the quick stamp itself is made in place), so that a killed run's temporary files
 * or a new manifest there are seen by a full run; a file made in a folder below them that holds
 * no output is not (an orphaned manifest there is warned about at the next full run). Outputs are recorded as the run left
 * them, so an edit to an output in the same clock tick, of the same size, in place, would go
 * unseen on a file system without fine-grained timestamps. It holds times: a cache, unlike the
 * stamp, never deterministic, never committed. */
#define QUICK_STAMP_FILE ".threadlink-gen.quick"

typedef struct quick_stamp {
    uint64_t options;
    struct timespec since; /* CLOCK_REALTIME_COARSE when the recording run began */
    bool settled;          /* every input added was last changed before `since` */
    size_t outputs;
    buf files;
} quick_stamp;

void quick_stamp_start(quick_stamp *q, uint64_t options, struct timespec since);
/* What a file is to the run: an input must be settled; outputs are counted; the stamp and the
 * outputs' directories (where a killed run leaves temporary files) are recorded as they are. */
typedef enum quick_role { QUICK_INPUT, QUICK_OUTPUT, QUICK_AS_IS } quick_role;
/* One file or directory as it stats now (a missing one as missing). */
void quick_stamp_add(quick_stamp *q, const char *path, quick_role role);
void quick_stamp_format(const quick_stamp *q, buf *out);
void quick_stamp_free(quick_stamp *q);
/* The quick stamp at `path` was written for these options and every file it names stats the
 * same; *outputs: how many outputs it vouches for. */
bool quick_stamp_holds(const char *path, uint64_t options, size_t *outputs);

#endif
