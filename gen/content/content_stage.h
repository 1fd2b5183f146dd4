/* The content stage (gen/stages.c lists it) and the pieces `pack` shares with it. */
#ifndef TLG_CONTENT_STAGE_H
#define TLG_CONTENT_STAGE_H

#include "content/content_scan.h"
#include "core/emit.h"
#include "core/manifest.h"
#include "core/stage.h"

extern const gen_stage content_stage;

/* Appends the profile's identity domain, one declaration per asset. */
bool content_stage_add_domains(struct project *p, const content_profile *pr, const content_scan *sc);
/* Sets each asset's id and member name from the domain's merged manifest; false (reported) when
 * an asset has no live entry. */
bool content_stage_resolve(const content_profile *pr, content_scan *sc, const manifest *m);
/* pack --source: from now on in this process, profile `profile` reads its tree from
 * `source_root` (project-relative), so that the generate pass pack runs names the profile's
 * assets and catalog against the tree it packs. (NULL, NULL): as configured again. */
void content_stage_override_source(const char *profile, const char *source_root);
/* pack: while set, each profile the generate pass resolves is handed to `keep` (its profile and
 * its scan with ids and member names, valid during the call), so that pack takes the ids the
 * pass gave instead of reading the manifest it wrote again. (NULL, NULL): none. */
typedef void (*content_resolved_fn)(void *ctx, const content_profile *pr, const content_scan *sc);
void content_stage_keep_resolved(content_resolved_fn keep, void *ctx);
void content_emit_catalog_header(out_file *o, const content_profile *pr, const content_scan *sc, const char *config_name,
                                 const emit_options *opt);

#endif
