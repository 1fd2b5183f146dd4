/* `threadlink-gen diff OLD NEW`: compares two manifest sets and classifies every change, so CI
 * can refuse a change that would alter a shipped identifier. */
#ifndef TLG_DIFF_H
#define TLG_DIFF_H

#include "base/util.h"

#include <stdio.h>

typedef enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_MARKDOWN, DIFF_GITHUB } diff_format;

/* Every class of change, identifier domains' and vaults'; diff.c's table gives each its id, its
 * label and whether it breaks. */
typedef enum diff_class {
    DIFF_ADDED,
    DIFF_TOMBSTONED,
    DIFF_REVIVED,
    DIFF_RESCOPED,
    DIFF_VALUE_CHANGED,
    DIFF_ORDINAL_MOVED,
    DIFF_ORDINAL_REMOVED,
    DIFF_MEMBER_RENAMED,
    DIFF_SIGNATURE_CHANGED,
    DIFF_TOMBSTONE_DROPPED,
    DIFF_KIND_CHANGED,
    DIFF_DOMAIN_REMOVED,
    DIFF_DOMAIN_ADDED,
    DIFF_RENAME_RECORDED,
    DIFF_UNRECORDED_RENAME,
    /* vault schemas and designer data (gen/vault/vault_diff.c) */
    DIFF_VAULT_ADDED,
    DIFF_VAULT_REMOVED,
    DIFF_VAULT_RENAMED,
    DIFF_FIELD_ADDED,
    DIFF_FIELD_REMOVED,
    DIFF_FIELD_RENAMED,
    DIFF_FIELD_TYPE_CHANGED,
    DIFF_CAPACITY_SHRUNK,
    DIFF_CAPACITY_GROWN,
    DIFF_CATALOG_CHANGED,
    DIFF_BACKING_TO_TRANSIENT,
    DIFF_BACKING_TO_SERIALISED,
    DIFF_DEFAULT_CHANGED,
    DIFF_INSTANCE_ADDED,
    DIFF_INSTANCE_REMOVED,
    DIFF_INSTANCE_KEY_REMOVED,
    DIFF_ASSET_MISSING,
    DIFF_CLASS_COUNT
} diff_class;

/* A change found by a part of the comparison beyond identifier domains (vault manifests);
 * diff_add_found copies every string. */
typedef struct diff_found {
    diff_class kind;
    const char *domain; /* "Vaults.Enemy", "VaultData.enemies": the first half of an approval */
    const char *key;    /* NULL for a change of the whole vault */
    const char *name;   /* what code calls it (a field's member name), NULL: the key says it */
    const char *detail; /* NULL: none */
    const char *file;   /* where it points */
    uint32_t line, col; /* 0: the whole file, or no column */
} diff_found;

typedef struct diff_extra_ctx diff_extra_ctx;
void diff_add_found(diff_extra_ctx *ctx, const diff_found *f);
struct manifest;
/* The manifest of domain `name` on the NEW (or OLD) side, or NULL when that side has none. */
const struct manifest *diff_side_manifest(const diff_extra_ctx *ctx, bool new_side, const char *name);

/* A part of the comparison: files of one name found below OLD and NEW (directories), compared
 * pairwise by their path below each; either path is NULL when only one side has the file. */
typedef struct diff_extra {
    const char *file_name;
    /* false after reporting unreadable input (diff exits 2) */
    bool (*compare)(diff_extra_ctx *ctx, const char *old_path, const char *new_path);
} diff_extra;

/* The parts the command line runs (gen/stages.c: vault manifests), NULL-terminated. */
extern const diff_extra *const tlg_diff_extras[];

typedef struct diff_options {
    const char *old_path, *new_path; /* manifest files, or directories searched for *.manifest.json */
    diff_format format;
    VEC(const char *) allow;         /* approved "key", "Domain:key" or "Domain:*" */
    const char *allow_file;          /* one approval a line; '#' or '//' comments */
    FILE *out;                       /* default stdout */
    const diff_extra *const *extras; /* NULL-terminated; NULL: identifier domains only */
} diff_options;

/* Exit status: 0 compatible (or every break approved), 1 breaking changes, 2 usage or unreadable input. */
int diff_run(const diff_options *opt);

#endif
