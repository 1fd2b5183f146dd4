/* Make/Ninja depfiles, as `generate`, `headers` and `pack` write them: one target, every input
 * it derives from, and an empty rule per input (as gcc -MP), so a deleted input does not break
 * Make. */
#ifndef TLG_DEPFILE_H
#define TLG_DEPFILE_H

#include "base/util.h"

#include <stdbool.h>
#include <stddef.h>

/* `path` made absolute (resolved when it exists): depfiles name files wherever the build runs. */
char *depfile_absolute(const char *path);
/* An input that may not exist yet (a manifest not written): the nearest existing directory
 * stands for it, absolute (its time changes when the file appears). Make would otherwise take
 * the missing file for a changed input and run the step on every build. */
char *depfile_existing_ancestor(const char *path);
/* Writes the depfile at `path` (reported on failure, as an error). */
bool depfile_write(const char *path, const char *target, char *const *inputs, size_t count);

#endif
