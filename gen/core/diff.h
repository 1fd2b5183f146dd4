/* `threadlink-gen diff OLD NEW`: compares two manifest sets and classifies every change, so CI
 * can refuse a change that would alter a shipped identifier. */
#ifndef TLG_DIFF_H
#define TLG_DIFF_H

#include "base/util.h"

#include <stdio.h>

typedef enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_MARKDOWN, DIFF_GITHUB } diff_format;

typedef struct diff_options {
    const char *old_path, *new_path; /* manifest files, or directories searched for *.manifest.json */
    diff_format format;
    VEC(const char *) allow;         /* approved "key", "Domain:key" or "Domain:*" */
    const char *allow_file;          /* one approval a line; '#' or '//' comments */
    FILE *out;                       /* default stdout */
} diff_options;

/* Exit status: 0 compatible (or every break approved), 1 breaking changes, 2 usage or unreadable input. */
int diff_run(const diff_options *opt);

#endif
