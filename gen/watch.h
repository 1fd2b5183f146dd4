/* `threadlink-gen watch`: regenerate whenever an input changes (inotify), until SIGINT/SIGTERM. */
#ifndef TLG_WATCH_H
#define TLG_WATCH_H

#include "core/generate.h"

/* Runs one pass at once, then one after every burst of changes (debounced). Bad input is
 * reported and the watch goes on. Returns 0 when stopped by a signal, 1 if watching failed. */
int watch_run(const gen_options *opt);

#endif
