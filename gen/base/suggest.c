#include "base/suggest.h"

#include "base/util.h"

#include <stdint.h>
#include <string.h>

size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen)
{
    /* Three rows of the edit table: the one before last (for swaps), the last and the current. */
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    size_t *two = rows[0], *one = rows[1], *cur = rows[2];
    if (alen > SUGGEST_MAX_LEN) alen = SUGGEST_MAX_LEN;
    if (blen > SUGGEST_MAX_LEN) blen = SUGGEST_MAX_LEN;
    for (size_t j = 0; j <= blen; j++) one[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        const char ca = ascii_lower(a[i - 1]);
        cur[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            const char cb = ascii_lower(b[j - 1]);
            size_t best = one[j - 1] + (ca != cb);            /* substitute, or keep */
            if (one[j] + 1 < best) best = one[j] + 1;         /* delete */
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1; /* insert */
            if (i > 1 && j > 1 && ca == ascii_lower(b[j - 2]) && ascii_lower(a[i - 2]) == cb && two[j - 2] + 1 < best)
                best = two[j - 2] + 1; /* swap two neighbours */
            cur[j] = best;
        }
        size_t *spare = two;
        two = one;
        one = cur;
        cur = spare;
    }
    return one[blen];
}

const char *suggest_nearest(const char *word, size_t word_len, const char *const *candidates, size_t count)
{
    /* One edit per three characters, rounded up, and never the whole word. */
    const size_t limit = word_len ? ((word_len + 2) / 3 < word_len ? (word_len + 2) / 3 : word_len - 1) : 0;
    const char *best = NULL;
    size_t best_distance = SIZE_MAX;
    for (size_t i = 0; i < count && candidates[i]; i++) {
        const size_t len = strlen(candidates[i]);
        if ((len > word_len ? len - word_len : word_len - len) > limit) continue;
        const size_t d = suggest_distance(word, word_len, candidates[i], len);
        if (d <= limit && d < best_distance) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}

void suggest_top_offer(suggest_top *top, const char *word, size_t word_len, const char *name, size_t name_len, size_t index)
{
    const size_t d = suggest_distance(word, word_len, name, name_len);
    size_t at = top->count;
    while (at > 0 && d < top->distance[at - 1]) at--;
    if (at == SUGGEST_TOP) return;
    const size_t last = top->count < SUGGEST_TOP ? top->count : SUGGEST_TOP - 1;
    for (size_t k = last; k > at; k--) {
        top->index[k] = top->index[k - 1];
        top->distance[k] = top->distance[k - 1];
    }
    top->index[at] = index;
    top->distance[at] = d;
    if (top->count < SUGGEST_TOP) top->count++;
}
