/* "Did you mean ...?": the nearest of a set of known names to a name that matched none of them,
 * for error messages about unknown keys, commands, options, types and domains. */
#ifndef TLG_SUGGEST_H
#define TLG_SUGGEST_H

#include <stddef.h>

/* Edits between two words, ASCII case ignored: insertions, deletions, substitutions and swaps
 * of two neighbouring characters count one each (optimal string alignment). Only the first
 * SUGGEST_MAX_LEN characters of each word count, so the work stays bounded on any input. */
#define SUGGEST_MAX_LEN 64
size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen);

/* The candidate nearest to `word`, or NULL when none is near enough to be a likely typo: at most
 * one edit per three characters of the word (at least one), and fewer edits than the word has
 * characters. Ties go to the earlier candidate, so the answer depends only on the inputs.
 * `candidates` may end early at a NULL entry. */
const char *suggest_nearest(const char *word, size_t word_len, const char *const *candidates, size_t count);

/* The SUGGEST_TOP candidates nearest to a word, nearest first, for lists such as
 * "closest: A, B, C" that name the nearest names even when none is a likely typo. Start from a
 * zeroed suggest_top and offer every candidate in order: a tie keeps the earlier one first. */
#define SUGGEST_TOP 3
typedef struct suggest_top {
    size_t count;              /* entries filled, at most SUGGEST_TOP */
    size_t index[SUGGEST_TOP]; /* the caller's index of each candidate, nearest first */
    size_t distance[SUGGEST_TOP];
} suggest_top;
void suggest_top_offer(suggest_top *top, const char *word, size_t word_len, const char *name, size_t name_len, size_t index);

#endif
