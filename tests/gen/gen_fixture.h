/* Shared fixture of the generator tests: a throw-away project directory, files written into it,
 * diagnostics captured as text, and snapshots of the generated directory. */
#ifndef TEST_GEN_FIXTURE_H
#define TEST_GEN_FIXTURE_H

#include "base/diag.h"
#include "base/fsio.h"
#include "core/generate.h"
#include "base/util.h"

typedef struct fixture {
    char dir[64];   /* the project root (tests run with it as the working directory) */
    char old_cwd[4096];
    buf diags;      /* every diagnostic, one per line, as printed */
    buf summary;    /* what the run printed on stdout */
    diag_sink prev_sink;
} fixture;

int fixture_setup(void **state);
int fixture_teardown(void **state);

/* Writes `text` to `path` (relative to the project), creating directories. */
void fx_write(const char *path, const char *text);
/* The content of `path`, or NULL if it does not exist (caller frees). */
char *fx_read(const char *path);
bool fx_exists(const char *path);
void fx_remove(const char *path);

/* Runs a command over ./threadlink.json; returns its exit status. Diagnostics and summary are
 * appended to the fixture's buffers. */
int fx_run(fixture *f, gen_command cmd);
int fx_generate(fixture *f);

/* A snapshot of every file under `dir` ("path\n<content>\n" for each, sorted), to prove a failed
 * run left everything byte-for-byte unchanged. */
char *fx_snapshot(const char *dir);
/* Asserts that generate fails (exit 1) with exactly `diagnostics` and leaves "generated" as
 * `snapshot` (an fx_snapshot taken before; freed here). */
void fx_expect_failure(fixture *f, char *snapshot, const char *diagnostics);

/* A minimal project: one identity domain "Test.Ids" (test_ids.h) plus whatever the test adds. */
void fx_basic_config(const char *extra_domains);

#endif
