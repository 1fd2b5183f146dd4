/* The up-to-date stamp: `.threadlink-gen.stamp` in the output directory records a hash of every
 * input and the size and hash of every output the last run produced. When the inputs hash the
 * same and every output is still byte-for-byte what was written, a run has nothing to do and
 * skips parsing manifests and emitting headers; when only the bytes of asset files differ (the
 * shape below is the same), generate reads the manifests and emits only the outputs made from
 * those bytes (the catalog headers), without assigning identities again. `check` never trusts it. The stamp holds only
 * content hashes (no times, no paths outside the project), so it is deterministic; it is still
 * a cache: keep it out of version control. */
#ifndef TLG_STAMP_H
#define TLG_STAMP_H

#include "base/util.h"

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

#endif
