/* Content profiles: the "content" section of threadlink.json, or the JSON files it names
 * (schema: schemas/content.schema.json). Validated key by key; errors name the key path and
 * point at the value with file:line:col. */
#ifndef TLG_CONTENT_CONFIG_H
#define TLG_CONTENT_CONFIG_H

#include "core/config.h"

struct project;

typedef enum content_archive { CONTENT_ARCHIVE_NONE, CONTENT_ARCHIVE_PACKED } content_archive;
typedef enum content_codec { CONTENT_CODEC_NONE, CONTENT_CODEC_LZ4, CONTENT_CODEC_ZSTD } content_codec;
typedef enum content_partitioner { CONTENT_PART_TRIE, CONTENT_PART_SEQUENTIAL } content_partitioner;
typedef enum content_names { CONTENT_NAMES_STEM, CONTENT_NAMES_PATH } content_names;

typedef struct content_category {
    char *name;   /* a C word: letters, digits, '_', starting with a letter */
    char *folder; /* relative to the source root, '/'-separated; "" for the whole root */
    src_loc loc;
} content_category;

typedef struct content_profile {
    char *name;        /* "Main" */
    char *source_root; /* project-relative */
    char *output;      /* project-relative */
    VEC(content_category) categories;
    content_archive archive;
    uint32_t max_archive_mb;
    content_codec compression;
    int compression_level; /* the codec's level; 0: its default (content_codec_level) */
    content_partitioner partitioner;
    content_names names;
    VEC(char *) post_build; /* shell commands run after packing, in order */
    char *domain;           /* the identity domain of its names: "Content.Main" */
    char *scope;            /* the scope of its keys: the profile name as a C word */
    char *header;           /* domain header, relative to the generated directory */
    char *catalog_header;
    /* Where it was declared: the file (threadlink.json or a named profile file), its text, and
     * the key path of the profile object within it, for json_locate. */
    const char *file;
    const char *text;
    size_t text_len;
    char *key_path;
    src_loc loc;
} content_profile;

typedef struct content_config {
    VEC(content_profile) profiles;
    VEC(char *) files; /* profile files read (owned), with their texts */
    VEC(char *) texts;
    VEC(size_t) text_lens;
} content_config;

/* Reads and validates p->cfg.content (NULL: no profiles). Files it names are added to
 * p->inputs and p->input_hash. false after reporting every problem. */
bool content_config_load(struct project *p, content_config *out);
void content_config_free(content_config *c);

const char *content_codec_name(content_codec c);
/* The levels a codec takes (lz4 1-12 as the lz4 command numbers them: 1-2 its fast compressor,
 * 3-12 LZ4 HC; zstd 1-19; none: none, *lo > *hi) and the one it uses when none is given. */
void content_codec_levels(content_codec c, int *lo, int *hi, int *fallback);
/* The profile's level for its codec, 0 when that is the codec's default: the one value archive
 * names, archives.json and re-packing compare. */
int content_codec_level(const content_profile *pr);
/* The "compression_level" an archives.json records (0: none; the runtime's parser skips it). */
int content_index_level(const char *text, size_t len);
const char *content_archive_name(content_archive a);
const char *content_partitioner_name(content_partitioner p);
bool content_parse_codec(const char *s, content_codec *out);
bool content_parse_archive(const char *s, content_archive *out);

/* An error about a profile's key (e.g. "output"), located in the file that declares it. */
void content_profile_error(const content_profile *pr, const char *key, const char *fmt, ...) TLG_PRINTF(3, 4);

/* Checks that depend on the profile's final settings (after command-line overrides too): the
 * output folder neither is, lies inside nor contains its source root, nor anything else the
 * project reads or generates (the config and profile files, generated_dir, injector_dir,
 * definitions_dir, the vault schema and data directories, other profiles' source roots). */
bool content_check_paths(const content_profile *pr, const struct project *p, const content_config *cc);

#endif
