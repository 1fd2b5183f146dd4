/* Manifests, {Domain}.manifest.json: the identity store of a domain (schema:
 * schemas/manifest.schema.json). Every entry ever issued, in the order it was issued. */
#ifndef TLG_MANIFEST_H
#define TLG_MANIFEST_H

#include "base/index_map.h"
#include "core/config.h"

typedef enum entry_change {
    CHANGE_NONE,    /* as the manifest had it */
    CHANGE_ADDED,   /* issued in this pass */
    CHANGE_REMOVED, /* declared no more: tombstoned in this pass */
    CHANGE_REVIVED, /* a tombstone declared again: same value, same name */
    CHANGE_RENAMED  /* renamed in this pass ("Elixir <- Potion"): same value, new key and name */
} entry_change;

/* An earlier key of an entry and the member name it had then, kept by a rename
 * ("Elixir <- Potion" records {"user.potion", "Potion"}): the old name stays in the header as a
 * deprecated alias, and the old key can name no other entry. */
typedef struct entry_alias {
    const char *key, *name;
    uint32_t key_len, name_len;
} entry_alias;

/* At most this many renames are recorded per entry (a bound for manifests from pull requests). */
#define MANIFEST_MAX_RENAMES 256

typedef struct entry {
    const char *key, *name, *scope;
    uint32_t key_len, name_len;
    uint32_t name_hash; /* fnv1a_folded(name), set by identity_assign for every entry it leaves */
    /* The key the value was issued for (hashed from), when the key was rewritten since: an asset
     * entry of a manifest written before keys followed asset names, or a renamed identity entry.
     * NULL: the key itself. */
    const char *issued_key;
    uint32_t issued_key_len;
    uint32_t value; /* identity: XXH32(key, seed_offset); ordinal: the index */
    uint32_t seed_offset;
    const char *signature;     /* ordinal (event) domains: the normalised signature, NULL if unrecorded */
    entry_alias *renamed_from; /* earlier keys and names, oldest first (renamed_count of them) */
    uint32_t renamed_count;
    bool tombstone;
    uint8_t change; /* entry_change */
    uint32_t decl;  /* index of this pass's declaration, or UINT32_MAX */
    uint32_t line;  /* line in the manifest it was read from (0: new) */
} entry;

typedef struct manifest {
    char *domain;
    domain_kind kind;
    VEC(entry) entries;
    arena strings;
} manifest;

/* Parses a manifest; data[len] must be 0. Syntax, types and field values are checked here
 * (consistency with the domain is identity_check's job). false and a diagnostic on any error. */
bool manifest_read(const char *file, const char *data, size_t len, manifest *out);
/* The same from an open file, read through a small window (a manifest is never held whole), with
 * room for `more` entries after those read (identity adds a domain's new ones). */
bool manifest_read_fd(const char *file, int fd, size_t more, manifest *out);
void manifest_free(manifest *m);
/* Whether the readers take an entry line written as the generator writes it in one step (true,
 * the default) rather than token by token: the tests compare the two. */
extern bool manifest_read_shortcut;

/* A member name: a letter or '_' first, then letters, digits or '_'. */
bool manifest_valid_member(const char *s, size_t n);

/* Whether `e` was renamed from `key` (one of its renamed_from records). */
const entry_alias *manifest_renamed_from(const entry *e, const char *key, size_t len);
/* Appends a rename record to `e` (its arrays live in m->strings). */
void manifest_add_alias(manifest *m, entry *e, const char *key, size_t key_len, const char *name, size_t name_len);
/* Removes record `i` of `e` (a rename back to a name the entry had). */
void manifest_drop_alias(entry *e, uint32_t i);
/* Whether alias `a` of `e` is a C name of its own: it differs from the entry's member name (a
 * recorded move to another injector keeps the name, and records no alias). */
bool manifest_alias_named(const entry *e, const entry_alias *a);

/* Lookups over a manifest's entries through an index_map built once (a stage resolving thousands
 * of names or values one by one would otherwise scan the manifest for each). Keys are lowercase
 * ASCII (manifest_read refuses others): a key folded as identity folds it finds its entry. */
void manifest_index_live_keys(const manifest *m, index_map *out);
/* The live entry with this key, or UINT32_MAX. */
uint32_t manifest_find_live_key(const index_map *by_key, const manifest *m, const char *key, size_t len);
/* Every entry by value, the first of each (what a scan from the start finds); m may be NULL. */
void manifest_index_values(const manifest *m, index_map *out);
/* The first entry with this value, or UINT32_MAX (m NULL: none). */
uint32_t manifest_find_value(const index_map *by_value, const manifest *m, uint32_t value);

#endif
