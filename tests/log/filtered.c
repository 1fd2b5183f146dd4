/* A translation unit compiled with TL_LOG_MIN_LEVEL = warning: its info logging must vanish,
   arguments unevaluated. */
#define TL_LOG_MIN_LEVEL TL_LOG_LEVEL_WARNING
#include <threadlink/log.h>

#include "filtered.h"

int log_filtered_log(const tl_logger *logger, int *evaluations) {
    TL_LOG_INFO(logger, "Filtered", "info %d", ++*evaluations);
    TL_LOG_WARNING(logger, "Filtered", "warning %d", ++*evaluations);
    TL_LOG_ERROR(logger, "Filtered", "error %d", ++*evaluations);
    return *evaluations;
}
