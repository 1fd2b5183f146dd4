/* threadlink-gen pack: builds content profiles into their output folders (catalog, archives,
 * archives.json, or flat files). The command's API: main.c is a thin parser over pack_run, and
 * tests run it directly. What the pack files share among themselves is in pack_internal.h. */
#ifndef TLG_PACK_H
#define TLG_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The steps pack_options.at_step is called at, in this order for each profile. */
typedef enum pack_step {
    PACK_STEP_WRITE,   /* the output folder checked, nothing of the build written into it yet */
    PACK_STEP_COMMIT,  /* every new file written beside its place, none renamed into it yet */
    PACK_STEP_CLEAN_UP /* the new files in place, the previous build's stale files not removed yet */
} pack_step;

typedef struct pack_options {
    const char *config_path; /* default "threadlink.json" */
    const char *profile;     /* a profile name, "all", or NULL: the only profile, else all */
    /* Overrides of the selected profile (one profile only), in memory: the config is not written. */
    const char *output;
    const char *archive;           /* "none" | "packed" */
    uint32_t max_archive_mb;       /* 0: as configured */
    const char *compression;       /* "none" | "lz4" | "zstd" */
    uint32_t compression_level;    /* 0: as configured (the codec's default when --compression is given) */
    const char *source;            /* the source root, project-relative; the generate pass names the catalog against it */
    const char *partitioner;       /* "trie" | "sequential" */
    const char *const *post_build; /* replaces the profile's post-build commands (post_build_count of them) */
    size_t post_build_count;
    bool no_post_build; /* run none of them */
    /* Threads that read, hash and compress (0: one per core). Any count gives the same bytes. */
    unsigned jobs;
    /* The build step: the pass is `headers`' (gen_options.write_nothing), not generate's:
     * manifests are read, never written, and nothing else is written into the source tree; an
     * asset a manifest lacks gets the id generate will record, with headers' warning (strict: an
     * error), and what headers refuses is refused. */
    bool build_step;
    bool strict;
    const char *depfile;   /* write a Make/Ninja depfile here (absolute, or relative to the working directory) */
    const char *deptarget; /* its target; default: the stamp, else the first profile's index file */
    const char *stamp;     /* written (its time renewed) after every successful run: a build's target */
    bool quiet;            /* no summary lines */
    int progress;          /* 1 on, 0 off, -1 (default 0 for a zeroed struct: off) */
    bool banner_without_version;
    const char *generator_build; /* as gen_options.generator_build */
    FILE *summary;               /* default stdout */
    const char *project_dir;     /* -C DIR as given (NULL: none): messages suggesting a command name it */
    /* Tests: shuffle the scanned inputs with this seed before partitioning and packing, to show
     * that nothing depends on input order (0: as scanned). */
    uint64_t shuffle_seed;
    /* Tests: called once every tree is scanned and the manifests are up to date, before the
     * first archive or flat file is built, so that a test can change an input in between. */
    void (*before_build)(void *ctx);
    void *before_build_ctx;
    /* Tests: called at each step of each profile's build (pack_step), so that a test can change
     * the tree at that moment (swap the output folder for a link) without racing the run. */
    void (*at_step)(void *ctx, pack_step step);
    void *at_step_ctx;
} pack_options;

/* 0 ok, 1 input or build errors (nothing half-written: a failed build leaves the previous output
 * usable; an unknown profile too, named with the known ones), 2 usage (overrides with several
 * profiles, bad override value). */
int pack_run(const pack_options *opt);

#endif
