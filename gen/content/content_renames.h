/* Asset renames and moves (issue 48): the rename records of a content source root, and the
 * likely moves a pass shows (an asset removed and another added with the same bytes). */
#ifndef TLG_CONTENT_RENAMES_H
#define TLG_CONTENT_RENAMES_H

#include "content/content_config.h"
#include "content/content_scan.h"
#include "core/manifest.h"
#include "core/model.h"

/* The file of rename records in a source root (hidden: never an asset). */
#define CONTENT_RENAMES_FILE ".content-renames"

/* Adds to domain `d` (profile `pr`, its assets declared in scan order) the renames its source
 * root's CONTENT_RENAMES_FILE records for assets under its categories. The file (or its absence)
 * is an input of the run. False after reporting a malformed line or a rename of no asset. */
bool content_add_renames(project *p, domain *d, const content_profile *pr, const content_scan *sc);

/* After identity: an asset added in this pass with the size and XXH64 an asset removed in this
 * pass had (the previous catalog header in the generated directory says) is reported as a likely
 * move, with the record that would have kept its id. */
void content_report_moves(const project *p, const content_profile *pr, const content_scan *sc, const manifest *m);

#endif
