/* The content stage (gen/stages.c lists it) and the session a command running it hands it. */
#ifndef TLG_CONTENT_STAGE_H
#define TLG_CONTENT_STAGE_H

#include "content/content_scan.h"
#include "core/stage.h"

extern const gen_stage content_stage;

/* Each profile the stage resolves, handed on: its profile, its scan with ids and member names,
 * and the path of the manifest they come from (all valid during the call). */
typedef void (*content_resolved_fn)(void *ctx, const content_profile *pr, const content_scan *sc, const char *manifest_path);

/* What a command that runs the pipeline inside itself (pack) hands the content stage for one
 * run, through gen_options.content (the project's `content`); a run without one reads every
 * profile as configured. Nothing of it outlives the run or touches another run in the process. */
typedef struct content_session {
    /* pack --source: profile `source_profile` reads its tree from `source_root` (project-
     * relative), so that the pass names the profile's assets and catalog against the tree pack
     * packs. NULL: as configured. */
    const char *source_profile, *source_root;
    /* Each profile resolved goes to `keep` (NULL: nowhere), so that pack takes the ids the pass
     * gave (generate: those it recorded; headers: those merged in memory) from the pass itself. */
    content_resolved_fn keep;
    void *keep_ctx;
    /* The scans and file hashes of pack's preflight, given again to the pass's scans. NULL: none. */
    content_memo *memo;
} content_session;

#endif
