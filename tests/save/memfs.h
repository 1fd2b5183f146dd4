/* An in-memory file system behind tl_save_io, for crash tests (in the spirit of SQLite's test VFS).
 *
 * Every file keeps the bytes it has now and the bytes it had at its last sync; every folder keeps
 * its entries now and at its last sync. memfs_power_cut() throws away everything not synced: each
 * file goes back to its synced bytes and each folder to its synced entries (a file whose entry was
 * never synced is unreachable). That is the least a POSIX file system promises after a power cut.
 *
 * Faults: with fail_after >= 0, the operation numbered fail_after + 1 (counting from ops = 0) and
 * every one after it fail with TL_SAVE_IO_FAILED (EIO), as if the process had died there: nothing
 * of them happens. nospace makes every write fail with TL_SAVE_IO_NO_SPACE (ENOSPC).
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
    bool nospace;
    long syncs;      /* sync and sync_dir calls that succeeded */
} memfs;

void memfs_init(memfs *fs);
void memfs_free(memfs *fs);
tl_save_io memfs_io(memfs *fs);
/* Everything not synced is lost. */
void memfs_power_cut(memfs *fs);
/* Syncs every file and folder (test setup). */
void memfs_sync_all(memfs *fs);
/* The node at a path, -1 when missing. */
int memfs_lookup(const memfs *fs, const char *path);
/* Test helpers acting directly (no fault counting): replace a file's bytes (synced), list names. */
bool memfs_put(memfs *fs, const char *path, const void *data, size_t size);
size_t memfs_names(const memfs *fs, const char *dir, char names[][96], size_t cap);

#endif
