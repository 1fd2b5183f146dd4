/* The pipeline as one library call: read -> model -> identity -> emit -> write. main.c is a thin
 * command line over this; tests call it directly. */
#ifndef TLG_GENERATE_H
#define TLG_GENERATE_H

#include "base/diag.h"

#include <stdio.h>

typedef enum gen_command {
    GEN_GENERATE, /* update manifests and the in-tree generated directory */
    GEN_HEADERS,  /* headers only, into another directory; manifests are read, never written */
    GEN_CHECK     /* would generate change anything? writes nothing */
} gen_command;

typedef struct gen_options {
    gen_command command;
    const char *config_path; /* default "threadlink.json" */
    const char *headers_dir; /* GEN_HEADERS: the output directory */
    bool quiet;              /* no summary */
    bool strict;             /* GEN_HEADERS: unrecorded entries are an error, not a warning */
    bool banner_without_version;
    /* Names this build of the generator (threadlink-gen passes TLG_BUILD_ID): outputs that
     * another build stamped are generated afresh, even with the same version. NULL: the version
     * alone names it. */
    const char *generator_build;
    const char *depfile;   /* write a Make/Ninja depfile here (absolute, or relative to the working directory) */
    const char *deptarget; /* its target; default: the first output */
    /* GEN_HEADERS: print the path of every output below -o DIR, one a line, in the order they are
     * written, and write nothing (a build system's list of outputs). */
    bool list_outputs;
    /* GEN_HEADERS: the outputs the build declares, relative to -o DIR; when any written output is
     * not among them or any of them is not written, each is an error and nothing is written. */
    bool expect_outputs_given;
    const char *const *expect_outputs;
    size_t expect_output_count;
    /* GEN_HEADERS: the list of outputs a build system reads when it configures (CMake's
     * threadlink_generate), one a line as list_outputs prints them; rewritten when the project's
     * outputs differ from it, so that the build configures again before its next run (absolute,
     * or relative to the working directory). No output is an error for being new to it. */
    const char *outputs_file;
    FILE *summary; /* default stdout */
    /* -C DIR as the caller gave it (NULL: none): messages that suggest a command name it. */
    const char *project_dir;
    /* When set, called for every file and directory the run read (paths as opened), also when
     * the run stopped on an error after reading them: what watch watches. */
    void (*on_input)(void *ctx, const char *path);
    void *on_input_ctx;
    /* GEN_GENERATE (watch sets it): also write each vault data file's binary image beside its
     * header, which development builds (TL_DEVELOPMENT) reload while they run. */
    bool vault_images;
    /* Threads that read and hash input files (asset trees; 0 or 1: the calling thread) and that
     * emit the domains' headers and manifests side by side (0: one per core). The outputs, the
     * order of the inputs and the diagnostics do not depend on it. */
    unsigned jobs;
    /* A command that runs the pipeline inside itself (pack) hands the content stage its session
     * here (content/content_stage.h: a --source override, the scans it has memoised, where the
     * resolved ids go); NULL: none. It lives in these options, never in the process. */
    const struct content_session *content;
    /* The stages resolve on every run, also when the stamp finds the outputs up to date (then
     * over the manifests as they are, writing nothing), so that what they hand on is never
     * skipped: pack sets it. */
    bool always_resolve;
    /* GEN_HEADERS: the build step's ids and nothing written: manifests read, identities merged in
     * memory, what they lack warned about (strict: an error), the stages resolved, then the run
     * stops (no -o DIR, which may be NULL; no stamp, no clean-up, no depfile). pack --build-step. */
    bool write_nothing;
    /* GEN_HEADERS: the domains whose entries not recorded in their manifest the run reports, and
     * the only warnings it reports (NULL: every domain, every warning; errors are always
     * reported). pack --build-step's pass names its profiles' domains: the build's headers step
     * says the rest of the project's warnings, so that each is said once a build. */
    const char *const *reported_domains;
    size_t reported_count;
} gen_options;

typedef struct gen_result {
    size_t outputs, changed; /* files produced, files that differ from what is on disk */
    size_t emitted;          /* files this run emitted (the up-to-date stamp vouched for the rest) */
    bool quick;              /* the quick stamp vouched for everything: nothing but the config was read */
} gen_result;

/* Returns the exit status: 0 ok (check: up to date), 1 input errors (check: stale). */
int gen_run(const gen_options *opt, gen_result *result);

#endif
