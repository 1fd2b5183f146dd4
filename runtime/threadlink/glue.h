/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/glue.h -- the bridges between services: each service alone, joined here.

   WHAT
   ----
   No service header includes another (sokol's rule): where one service works with another, it
   takes function pointers ("hooks") in its desc, and this header fills them from the other
   service, as sokol_glue.h does for sokol_app and sokol_gfx. Each bridge is a few static inline
   lines; include the services you join before this header, or let it include them:

     tl_glue_weave_time(lc, time)      time.h into lifecycle.h: the clock as the first native
                                       subsystem, so it stops at the lifecycle's discard, last

   INCLUDE
   -------
       #include <threadlink/glue.h>   (no implementation switch: everything is static inline)
   It includes the services it joins (declarations only); their implementations are their own
   switches, as ever (TL_IMPLEMENTATION in a file turns on those of the headers it includes).
*/
#ifndef TL_GLUE_H
#define TL_GLUE_H

#include "lifecycle.h"
#include "time.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- time.h into lifecycle.h ------------------------------------------------------------------- */

static inline void tl__glue_time_discard(void *self, tl_lifecycle *lifecycle) {
    (void)lifecycle;
    tl_time_discard((tl_time *)self);
}

/* The time service as a subsystem type (each file that includes this header has its own copy: keep
   your tl_time's address rather than finding it with tl_lifecycle_find). */
static const tl_lifecycle_subsystem tl_glue_time_subsystem = { "Time", TL__NULL, TL__NULL, TL__NULL,
                                                               tl__glue_time_discard };

/* Weaves `time` into the lifecycle's native tier: weave it before anything else, and it is
   discarded last, when every subsystem that read the clock is gone. False as
   tl_lifecycle_weave_native is. */
static inline bool tl_glue_weave_time(tl_lifecycle *lifecycle, tl_time *time) {
    return tl_lifecycle_weave_native(lifecycle, &tl_glue_time_subsystem, time);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_GLUE_H */
