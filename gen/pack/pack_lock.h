/* One pack run per output folder at a time. */
#ifndef TLG_PACK_LOCK_H
#define TLG_PACK_LOCK_H

#include "base/fsio.h"

#include <sys/types.h>

/* Two pack runs on one output folder at once (make -j starting two rules that pack, an editor's
 * build beside a terminal) would race: each one's clean-up deletes the other's temporary files,
 * so one fails, and on a first build the failing run, finding the folder it started with empty,
 * wipes the folder the other has just built and reported (exit 0). So runs are serialised: before
 * the first read of an old output (the preflight's look at the folder) a run takes an advisory
 * lock, flock(2) LOCK_EX, blocking, on the parent directory of each selected output folder, and
 * holds it until that profile's build and clean-up are done (its post-build hooks run after the
 * release, unless a later profile of the run shares the parent). A second run waits, then finds
 * the first's finished build as its previous output (nothing to write). The parent, not the
 * folder: a failed first build removes the folder, and a lock on a removed directory would not
 * exclude a run that creates it again; for the same reason a lock is taken again when the parent
 * was replaced while the run waited. A missing parent is created first (the build would create it
 * anyway; a run that builds nothing removes it again, if empty). Each directory is locked once,
 * in (device, inode) order, so runs whose folders share parents cannot deadlock. Where the file
 * system has no such locks (some network file systems: ENOLCK, EOPNOTSUPP) runs go unlocked. The
 * descriptors are close-on-exec: hooks do not inherit a lock. */
typedef struct out_lock {
    char *path; /* the parent directory */
    int fd;     /* open on it; -1 once released */
    dev_t dev;
    ino_t ino;
    size_t last; /* the index (in the run's selection) of the last profile whose folder is below it */
} out_lock;

typedef struct out_locks {
    VEC(out_lock) items;
    name_list created; /* directories made for them, in the order made */
} out_locks;

/* Registers the parent of output folder `dir` for profile number `index` of the run. */
bool pack_locks_add(out_locks *ls, const char *dir, size_t index);
/* Takes every lock, waiting as long as another run holds one. */
bool pack_locks_take(out_locks *ls);
/* Releases the locks profile number `index` is the last to need. */
void pack_locks_release_after(out_locks *ls, size_t index);
/* Removes the directories made for the locks that are now empty, then releases every lock. */
void pack_locks_end(out_locks *ls);

#endif
