/* An in-memory file system behind tl_save_io, for crash tests (in the spirit of SQLite's test VFS).
 *
 * Every file keeps the bytes it has now and the bytes it had at its last sync; every folder keeps
 * its entries now and at its last sync. memfs_power_cut() throws away everything not synced: each
 * file goes back to its synced bytes and each folder to its synced entries (a file whose entry was
 * never synced is unreachable). That is the least a POSIX file system promises after a power cut.
 * Writes over an existing file's bytes (open_update, write_at) are lost the same way: until a sync,
 * the file's synced bytes are its old ones. memfs_power_cut_torn() models a write torn by the cut:
 * of the bytes not synced, some 16-byte sectors reached the disk and the others did not.
 *
 * Faults: with fail_after >= 0, the operation numbered fail_after + 1 (counting from ops = 0) and
 * every one after it fail with TL_SAVE_IO_FAILED (EIO, or fail_errno), as if the process had died
 * there: nothing of them happens. With fail_only >= 1, that one operation fails alike (nothing of it
 * happens: a sync that fails syncs nothing, a close that fails still closes) and the ones after it
 * work, as a disk error does. nospace makes every write fail with TL_SAVE_IO_NO_SPACE (ENOSPC);
 * capacity (bytes, 0: none) bounds what the reachable files hold together: a write that needs more
 * writes what fits, as a full disk does, and fails with TL_SAVE_IO_NO_SPACE (ENOSPC).
 *
 * The backend's root handle is the root folder's node; `dir` is a folder of it, `name` an entry
 * of that folder (tl_save_io). A folder where a file is expected, or the reverse, is
 * TL_SAVE_IO_FOREIGN.
 */
#ifndef TESTS_SAVE_MEMFS_H
#define TESTS_SAVE_MEMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <threadlink/save.h>

typedef struct memfs_entry {
    char name[96];
    int node;
} memfs_entry;

typedef struct memfs_node {
    bool is_dir;
    unsigned char *data, *synced;   /* files */
    size_t size, synced_size;
    memfs_entry *entries, *synced_entries; /* folders */
    size_t count, synced_count;
} memfs_node;

typedef struct memfs {
    memfs_node *nodes;
    int node_count, node_cap;
    long ops;        /* operations so far */
    long fail_after; /* -1: never */
    long fail_only;  /* -1: never; else the number (ops after it) of the one operation that fails */
    int fail_errno;     /* the native error of an injected fault; 0: EIO */
    const char *failed; /* the tl_save_io member the last injected fault failed ("sync", ...) */
    bool nospace;
    size_t capacity; /* 0: unlimited */
    long syncs;      /* sync and sync_dir calls that succeeded */
} memfs;

void memfs_init(memfs *fs);
void memfs_free(memfs *fs);
tl_save_io memfs_io(memfs *fs);
/* Everything not synced is lost. */
void memfs_power_cut(memfs *fs);
/* Sectors are 16 bytes. A power cut that keeps, of every file's unsynced bytes, the sectors the
   pattern picks and loses the others: TORN_EVEN, TORN_ODD (by sector index), TORN_FIRST_HALF,
   TORN_FIRST_SECTOR (only the first sector reached the disk), TORN_ALL_BUT_FIRST. Folders lose
   their unsynced entries as in memfs_power_cut. */
enum { TORN_EVEN, TORN_ODD, TORN_FIRST_HALF, TORN_FIRST_SECTOR, TORN_ALL_BUT_FIRST, TORN_PATTERNS };
void memfs_power_cut_torn(memfs *fs, int pattern);
/* Syncs every file and folder (test setup). */
void memfs_sync_all(memfs *fs);
/* The node at a path, -1 when missing. */
int memfs_lookup(const memfs *fs, const char *path);
/* Test helpers acting directly (no fault counting): replace a file's bytes (synced; a new file is
   created, its entry synced too), read them (NULL when missing), list names. */
bool memfs_put(memfs *fs, const char *path, const void *data, size_t size);
const unsigned char *memfs_get(const memfs *fs, const char *path, size_t *size);
size_t memfs_names(const memfs *fs, const char *dir, char names[][96], size_t cap);
/* The bytes the reachable files hold (what capacity counts). */
size_t memfs_used(const memfs *fs);
/* Creates a folder (not synced; false when its parent is missing or the name is taken). */
bool memfs_mkdir(memfs *fs, const char *path);
/* A hard link: path names the file `existing` names too (its folder synced). Opening a file with
   more than one name for writing is TL_SAVE_IO_LINKED (EMLINK), as in the POSIX backend. */
bool memfs_link(memfs *fs, const char *existing, const char *path);

#endif
