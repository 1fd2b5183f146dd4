#ifndef SCRIBE_FILTERED_H
#define SCRIBE_FILTERED_H
#include <threadlink/scribe.h>
int scribe_filtered_log(const tl_logger *logger, int *evaluations);
#endif
