/* Diagnostics: every message the generator prints about its inputs goes through here, as
 * GNU-style `file:line:col: error|warning|note: message` on stderr, so editors and CI parse them.
 * Tests redirect the sink to a buffer. Locations travel with every token and model element. */
#ifndef TLG_DIAG_H
#define TLG_DIAG_H

#include "base/util.h"

typedef struct src_loc {
    const char *file;   /* as the user would open it: relative to the working directory or -C */
    uint32_t line, col; /* 1-based; 0 when the message is about the whole file */
} src_loc;

typedef enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_level;

typedef struct diag_sink {
    void (*emit)(void *ctx, diag_level level, src_loc loc, const char *message);
    void *ctx;
} diag_sink;

/* The sink used from now on (NULL: stderr). Returns the previous one. */
diag_sink diag_set_sink(diag_sink sink);

void diag_error(src_loc loc, const char *fmt, ...) TLG_PRINTF(2, 3);
void diag_warning(src_loc loc, const char *fmt, ...) TLG_PRINTF(2, 3);
void diag_note(src_loc loc, const char *fmt, ...) TLG_PRINTF(2, 3);

/* Work that runs side by side on several threads reports in a fixed order: while a thread holds
 * its reports (diag_hold_begin), what it reports is kept in `h` (neither counted nor printed);
 * diag_release, on any thread, reports them as they were made and empties `h`. */
typedef struct diag_held {
    diag_level level;
    src_loc loc;
    char *message;
} diag_held;
typedef VEC(diag_held) diag_hold;
void diag_hold_begin(diag_hold *h);
void diag_hold_end(void);
void diag_release(diag_hold *h);

/* While on, warnings are neither printed nor counted, nor are the notes that follow one (they
 * belong to it); errors and their notes are reported as ever. For a run that says only part of
 * what it finds (pack's build step: the build's headers step says the rest). Returns the previous
 * setting. */
bool diag_mute_warnings(bool on);

/* Errors reported since the last reset; callers compare counts before and after a stage. */
unsigned diag_error_count(void);
unsigned diag_warning_count(void);
void diag_reset_counts(void);
/* Puts the counts back as they were (a silent probe whose reports the full run repeats). */
void diag_restore_counts(unsigned error_count, unsigned warning_count);

/* How diagnostics are printed: `file:line:col: error: m` (gcc, the default), `file(line,col):
 * error: m` (msvc), one JSON object a line (json), or workflow commands (github). */
typedef enum diag_style { DIAG_GCC, DIAG_MSVC, DIAG_JSON, DIAG_GITHUB } diag_style;
void diag_set_style(diag_style style);
/* Relative file names in diagnostics are shown below `dir` (the -C directory); NULL: as they are. */
void diag_set_file_prefix(const char *dir);
/* The command messages tell the user to run for `generate` (record new entries, rewrite stale
 * files): "threadlink-gen generate" (with the -C DIR of diag_set_file_prefix), or the one a build
 * integration gives (--generate-command:
 * `cmake --build build --target generate`, which a CMake build with threadlink inside it has where
 * it has no threadlink-gen on the PATH). NULL: the default again. */
void diag_set_generate_command(const char *command);
const char *diag_generate_command(void);
/* Text from the inputs on a terminal or a CI log, as the text and msvc diagnostics print their
 * messages: an ASCII control character shown escaped (\n, \r, \xHH; a tab as it is), since an ESC
 * sequence rewrites the terminal and a newline starts a line of the input's choosing (a CI runner
 * acts on a line starting with "::"). `keep_newlines`: for text whose lines are the printer's own
 * (a summary of names). */
void diag_put_terminal_text(buf *out, const char *s, bool keep_newlines);
/* GitHub workflow-command text: %, CR and LF escaped; a property value (file=) also ':' and ','. */
void diag_put_github_text(buf *out, const char *s, bool property);
bool diag_parse_style(const char *name, diag_style *out);

/* Formats one diagnostic the way the default sink prints it (without the newline). */
void diag_format(buf *out, diag_level level, src_loc loc, const char *message);

static inline src_loc loc_file(const char *file)
{
    src_loc l = {file, 0, 0};
    return l;
}
static inline src_loc loc_at(const char *file, uint32_t line, uint32_t col)
{
    src_loc l = {file, line, col};
    return l;
}

#endif
