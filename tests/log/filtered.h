#ifndef SCRIBE_FILTERED_H
#define SCRIBE_FILTERED_H
#include <threadlink/log.h>
int log_filtered_log(const tl_logger *logger, int *evaluations);
#endif
