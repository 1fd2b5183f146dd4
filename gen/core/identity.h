/* Identity: merges a domain's declarations with its manifest. Values once issued never change:
 * identity domains hash their key, ordinal domains count in source order; removed entries are
 * tombstoned (identity) or retired (ordinal); member names are assigned once. */
#ifndef TLG_IDENTITY_H
#define TLG_IDENTITY_H

#include "core/manifest.h"
#include "core/model.h"

/* The value of an identity key under a seed offset: XXH32 of the key bytes, seed = offset. */
uint32_t identity_hash(const char *key, size_t len, uint32_t seed_offset);

/* Checks an existing manifest against its domain: domain name, kind, unique keys, names and
 * values, identity values equal to their hash, scopes matching their keys. */
bool identity_check(const domain *d, const manifest *m, const char *manifest_path);

typedef struct identity_summary {
    size_t added, removed, revived, renames, rescopes, signature_changes, name_collisions, hash_collisions;
    size_t renamed;             /* recorded renames ("Elixir <- Potion"): value kept, new key and name */
    size_t input_errors;        /* declarations refused (a rename of nothing, to a taken name, ...) */
    size_t rewritten;           /* entries added with a name rewritten for C ("Big Axe" -> Big_Axe) */
    size_t upgraded;            /* asset entries whose key became the asset's own name (value and name kept) */
    size_t duplicates;          /* keys declared again, warned about one by one up to a bound (identity.c) */
    src_loc duplicates_unshown; /* the first duplicate past the bound */
    buf text;                   /* the human summary, empty when nothing changed */
    buf collisions;             /* its name and hash collision lines alone ("  name collision: ...\n") */
} identity_summary;

/* Merges this pass's declarations into `m` (which holds the old manifest, or nothing): existing
 * keys keep their value and name, new keys are issued values and names, a rename
 * ("Elixir <- Potion") gives the old entry its new key and name and records the old ones,
 * undeclared entries are tombstoned, a key declared twice is warned about and counted once.
 * Checks the manifest first (as identity_check) and returns false, changing nothing, if it is
 * inconsistent; returns false with summary->input_errors set after refusing a declaration. A big
 * domain's keys are made and hashed on up to `jobs` threads (0: one per core); the result is the
 * same for any job count. */
bool identity_assign(const domain *d, manifest *m, const char *manifest_path, unsigned jobs, identity_summary *summary);
void identity_summary_free(identity_summary *s);

/* Each collision line of the summary as a note: in a build step the header gains a qualified
 * name ('Loot_Sword') that nothing else there explains. */
void identity_note_collisions(const identity_summary *sum, const char *manifest_path);
/* The build steps (headers, pack --build-step) follow the declarations; the manifest, which diff
 * compares, does not until generate runs: changes it does not record yet are warned about
 * (strict: an error, and false), each name a collision gave a new entry in a note after it. */
bool identity_report_unrecorded(const domain *d, const identity_summary *sum, const char *manifest_path, bool strict);

/* Member names that a generated header already uses for something else. */
bool identity_reserved_member(const domain *d, const char *name, size_t len);

#endif
