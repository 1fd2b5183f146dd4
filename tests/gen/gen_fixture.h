/* Shared fixture of the generator tests: a throw-away project directory, files written into it,
 * diagnostics captured as text, and snapshots of the generated directory. */
#ifndef TEST_GEN_FIXTURE_H
#define TEST_GEN_FIXTURE_H

#include "base/diag.h"
#include "base/fsio.h"
#include "core/generate.h"
#include "base/util.h"
#include "pack/pack.h"

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

/* ---- Content projects and pack (tests/content, tests/pack) -------------------------------------- */

/* Writes `n` bytes to `path`, creating directories. */
void fx_write_bytes(const char *path, const void *data, size_t n);
/* Runs pack with `opt` (a version-free banner, its summary into f->summary); returns its status. */
int fx_pack_with(fixture *f, pack_options opt);
int fx_pack(fixture *f);
/* Forgets the diagnostics and summary gathered so far. */
void fx_clear(fixture *f);
/* threadlink.json with profile Main (assets -> out/Main, categories Icons and Levels, archives of
 * at most 1 MB compressed with `codec`), and a small tree of three assets for it. */
void fx_config_main(const char *codec);
void fx_small_tree(void);
/* Snapshots of generated/ and out/ together, to show that a failed run left both as they were. */
char *fx_snapshot_all(void);
/* Profile Main packed from the small tree: the snapshot of that good build. */
char *fx_good_build(fixture *f);
/* pack fails (exit 1) with exactly `diagnostics`, leaving everything as `before` (freed here). */
void fx_expect_pack_failure(fixture *f, char *before, const char *diagnostics);
/* After a good build, a config of the profiles `profile_json` makes pack fail that way. */
void fx_expect_config_error(fixture *f, const char *profile_json, const char *diagnostics);

#endif
