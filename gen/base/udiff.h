/* Unified diffs of two texts, line by line, for `check`: what generate would change. */
#ifndef TLG_UDIFF_H
#define TLG_UDIFF_H

#include "base/util.h"

/* Appends a unified diff (3 lines of context) turning `a` into `b`; nothing when equal. false when
 * the comparisons' budget ran out and a region is shown replaced whole (still a correct diff, not
 * the shortest). */
bool udiff(buf *out, const char *a_name, const char *a, size_t alen, const char *b_name, const char *b, size_t blen);

#endif
