/* Scanning a profile's source tree: every category folder walked in sorted order, each file
 * named (path relative to the source root, '/'-separated, extension dropped unless the profile
 * says "names": "path"), read once for its size and XXH64, and the names checked: unique per
 * profile case-insensitively, valid UTF-8 without control characters, and distinct as identity
 * keys (model_asset_key: only a/b and a_b share one).
 *
 * Symlinks are followed only when they resolve inside the source root (a warning otherwise);
 * special files are skipped with a warning; a file that vanishes or changes while it is read is
 * an error. Hidden entries (names starting with '.') are not content and are skipped. */
#ifndef TLG_CONTENT_SCAN_H
#define TLG_CONTENT_SCAN_H

#include "content/content_config.h"

typedef struct content_asset {
    char *name;   /* "Icons/sword" */
    char *path;   /* relative to the source root: "Icons/sword.png" */
    char *c_name; /* the declaration's C-safe spelling: "Icons_sword" */
    uint32_t category;
    uint64_t size, xxh64;
    uint32_t id;          /* the identity value, once resolved */
    const char *member;   /* the enumerator's member name, once resolved */
    uint32_t folded_rank; /* its place in folded-name order, as the scan's uniqueness check sorted */
} content_asset;

typedef struct content_scan {
    VEC(content_asset) assets; /* sorted by name, bytewise */
    char *root;                /* the source root as opened (project root joined) */
    bool provided;             /* given by a stage in memory (content_scan_provided), not read from the tree */
} content_scan;

/* The scan memo of one command (below): NULL everywhere means none. */
typedef struct content_memo content_memo;

/* How scans read their trees: through `memo` (NULL: every file read), hashing on `jobs` threads
 * (0 or 1: the calling thread). The results, the order of the project's inputs and the
 * diagnostics do not depend on either. */
typedef struct content_reader {
    content_memo *memo;
    unsigned jobs;
} content_reader;

/* Scans a profile, as `how` says (NULL: no memo, one thread). Every file and directory read goes
 * to p->inputs, every file's name and XXH64 to p->input_hash (when p is given). false after
 * reporting errors. */
bool content_scan_profile(struct project *p, const content_profile *pr, const content_reader *how, content_scan *out);
void content_scan_free(content_scan *s);

/* A profile whose source root is a folder another stage writes in this run (the text stage's
 * tables: project.provided) is scanned from those files' bytes, not from the disk, so that its
 * catalog names what this run writes and the run never reads its own output. */
bool content_scan_provided_root(const struct project *p, const content_profile *pr);
bool content_scan_provided(const struct project *p, const content_profile *pr, content_scan *out);

/* The assets' indices in folded-name order (tl_text_fold_compare, the order catalogs search by):
 * order[k] is the k-th, `order` holding one per asset. The scan sorted them so once, to check
 * that names are unique; its ranks are reused here, not sorted again (sorted only when they are
 * not a permutation, for a scan that was not checked). */
void content_scan_folded_order(const content_scan *sc, uint32_t *order);

/* The C-safe spelling of a name: ASCII letters, digits and '_' kept, every other code point one
 * '_', and a '_' in front of a leading digit. */
char *content_c_name(const char *name);

/* Within one command, `pack` hashes each file once: through its memo, a file whose path, inode,
 * size and times are unchanged is not read again, and a tree scanned again (the same root,
 * category folders and naming rule, e.g. by the generate pass after pack's preflight) is given
 * the first scan's result without being walked: its assets, and its folders and file hashes
 * replayed into the project's inputs and stamp hash. Only scans that succeeded are kept, and a
 * warning about a path is given once. A memo belongs to the command that made it (pack's
 * session, handed to its generate pass in gen_options.content); scans without one (generate's)
 * read every time. */
content_memo *content_memo_new(void);
void content_memo_free(content_memo *m);

/* What the memo knows of a file: the hash is trusted while the file's device, inode, size and
 * modification and change times stay these. */
typedef struct content_file_state {
    uint64_t dev, ino, size;
    int64_t mtime_sec, ctime_sec;
    long mtime_nsec, ctime_nsec;
    uint64_t xxh64;
} content_file_state;

/* Across runs (pack's record of input hashes in the output folder): the state of a file the
 * memo's command hashed or was given, when it had settled before the command began, that is when
 * its last change (ctime) is more than CONTENT_SETTLED_SECONDS older than the command's start. A
 * file changed in the same instant as its read could have changed after it without its times
 * showing it (file systems keep times to 1 or 2 s, or to a clock tick), so such a file is left
 * out, and read again next time. */
#define CONTENT_SETTLED_SECONDS 2
bool content_memo_settled(content_memo *m, const char *path, content_file_state *out);
/* Gives the memo a state recorded by a previous run (it is used only while the file's stat
 * still matches it exactly). */
void content_memo_seed(content_memo *m, const char *path, const content_file_state *st);
/* The memo is being seeded on another thread (pack reads the previous builds' records while
 * its scans list and lstat the tree): a scan calls `wait` once, before its first look into the
 * memo; until then only that thread calls content_memo_seed. */
void content_memo_seeding(content_memo *m, void (*wait)(void *ctx), void *ctx);

#endif
