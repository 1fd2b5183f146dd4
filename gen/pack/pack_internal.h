/* What the pack files (pack.c, pack_archive.c, pack_hooks.c, pack_inputs.c, pack_partition.c)
 * share among themselves: post-build commands, partitioning and the bytes of catalogs and
 * archives (the record of input hashes has its own header, pack_inputs.h, which its fuzz target
 * includes too). Nothing outside them includes it (tests/style/include_layers.py);
 * the command's API is pack.h. */
#ifndef TLG_PACK_INTERNAL_H
#define TLG_PACK_INTERNAL_H

#include "content/content_config.h"
#include "pack/pack.h"
#include "pack/pack_inputs.h"

/* ---- Post-build commands (pack_hooks.c) -------------------------------------------------- */

/* Runs the profile's post_build commands in order in the project root, each given `result` (the
 * build's result as JSON: profile and settings, "files" in the output folder, "archives" as in
 * archives.json with "written", "built_names", "timings") on its standard input and in the file
 * TL_CONTENT_RESULT names. false (reported) at the first that fails or cannot start. */
bool pack_run_hooks(const content_profile *pr, const char *project_root, const buf *result);

/* ---- Partitioning (pack_partition.c) ----------------------------------------------------- */

typedef struct pack_file {
    const char *name;
    uint64_t size;      /* input bytes: what max_archive_mb limits */
    uint64_t name_hash; /* XXH64 of the name: the trie's bits */
} pack_file;

typedef struct pack_group {
    char *label;           /* "t0110", "big", "s0003": the name before the content hash */
    VEC(uint32_t) members; /* indices into the input array */
} pack_group;

typedef VEC(pack_group) pack_partition;

/* Trie: a file above the limit alone ("big"), the rest bucketed by the bits of their name hash,
 * a bucket over the limit split on the next bit. Sequential: name order, filled to the limit. */
void pack_partition_trie(const pack_file *files, size_t count, uint64_t limit, pack_partition *out);
void pack_partition_sequential(const pack_file *files, size_t count, uint64_t limit, pack_partition *out);
/* Every file exactly once, no empty group, unique labels; false with the reason in *why. */
bool pack_partition_check(const pack_partition *p, size_t count, const char **why);
void pack_partition_free(pack_partition *p);

/* ---- Bytes (pack_archive.c) ---------------------------------------------------------------- */

struct content_scan;
/* Flat builds put each asset at <output>/assets/<its path under the source root>. */
#define PACK_FLAT_ASSETS "assets"
typedef struct pack_codec pack_codec; /* reusable compression state */
/* level: the profile's for the codec (content_codec_level), 0: the codec's default. */
pack_codec *pack_codec_new(content_codec codec, int level);
void pack_codec_free(pack_codec *c);

/* The binary catalog of a profile (schemas/content-formats.md). `flat`: records carry each
 * asset's size, XXH64 and path in the output folder; packed catalogs leave them out, so that
 * editing an asset changes only the archive that holds it. */
void pack_build_catalog(const content_profile *pr, const struct content_scan *sc, bool flat, buf *out);

/* One archive: the given assets (indices into sc->assets) read, checked against the scan,
 * compressed each on its own (raw when that does not shrink it) and laid out in id order. When
 * `catalog` is given it is the only entry (id 0). false after reporting a read error. */
bool pack_build_archive(const struct content_scan *sc, const uint32_t *members, size_t count, const buf *catalog,
                        pack_codec *codec, buf *out, uint64_t *input_bytes);

struct out_file;
struct output_set;
/* An asset archive to build: its name in the output folder and its assets (indices into
 * sc->assets); after the build its size, XXH64 and whether its bytes differ from the file's. */
typedef struct pack_archive_job {
    const char *name;
    const uint32_t *members;
    size_t count;
    uint64_t size, xxh64;
    bool written;
} pack_archive_job;

/* Where an entry's stored bytes may be copied from instead of its file read and compressed
 * again: an archive of the previous build, intact (its bytes hash as its archives.json says),
 * written with this codec, holding the asset's id with the scan's size and XXH64, so that its
 * stored bytes are what compressing the file again gives. */
typedef struct pack_entry_source {
    const char *archive; /* the previous archive's name, or NULL: read and compress the file */
    int dir_fd;          /* the output folder it is in, open (never reached by path) */
    const char *dir;     /* that folder's path, for messages */
    uint64_t offset, stored_size;
    uint32_t codec; /* tl_cf_codec */
} pack_entry_source;

/* Every job's archive below `dir` in `set`, in job order. The entries are read, checked against
 * the scan's size and XXH64, and compressed (raw when that does not shrink them; or, for an
 * asset `reuse` (per asset, or NULL) gives a source, copied from it as stored) on `jobs`
 * threads, in id order within each archive and archive after archive, with the bytes in flight
 * bounded (a few large files per job), so that the archives are the same bytes for any job
 * count and memory stays flat in the tree's size (a compressed archive's entries compressed now
 * are held until its table of contents can be written: at most its size; entries from `reuse` are
 * copied as it is written; a raw archive is streamed). on_built (if given) is called after
 * each archive. false after reporting the first problem, in archive and entry order (a file that
 * changed or went away since the scan; `set` then holds part of an archive: the caller aborts it). */
bool pack_build_archives(const struct content_scan *sc, content_codec codec, int level, unsigned jobs, pack_archive_job *list,
                         size_t n, struct output_set *set, const char *dir, const pack_entry_source *reuse,
                         void (*on_built)(void *ctx, size_t job), void *ctx);

/* Fills reuse[asset] (per asset of the scan, zeroed by the caller) for the `members` (assets)
 * that one of the `archives` (names of intact previous archives in the output folder open as
 * `dir_fd`, whose path is `dir`) holds as described above. Compressed codecs only: a raw entry
 * costs a copy either way. */
void pack_find_reusable(const struct content_scan *sc, content_codec codec, int dir_fd, const char *dir,
                        const char *const *archives, size_t narchives, const uint32_t *members, size_t nmembers,
                        pack_entry_source *reuse);
/* One input streamed into `o` the same way (flat builds): false after reporting. */
bool pack_stream_asset(const char *path, uint64_t size, uint64_t xxh64, struct out_file *o);

#endif
