/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/save.h -- crash-safe saves: transactions that publish a generation atomically,
   verified reads, atomic delete.

   WHAT
   ----
   A store keeps saves under one folder (the root). A save (a slot, a profile) is a set of files,
   opaque bytes each: serialisation stays the caller's (vault.h gives one; glue.h's
   tl_glue_save_write_vault / tl_glue_save_read_vault write and read a vault in one call). A
   transaction prepares a complete new
   generation of one save while the published one stays untouched; commit publishes it
   atomically; a failed or abandoned transaction leaves the published generation as it was.
   Whatever moment the process dies or the power goes, a reopened store reads every save as
   exactly its old generation or exactly its new one, never a mix, never nothing when something
   was committed before (tests/save: an interrupted commit at every operation, with and without
   losing what was not synced, and a child process killed with SIGKILL hundreds of times).

   INCLUDE
   -------
       #include <threadlink/save.h>           // everywhere
       #define TL_SAVE_IMPL                   // in exactly one C or C++ file, before the include
       #include <threadlink/save.h>
   TL_IMPLEMENTATION turns this switch on with every other module's. The switch emits save.h's
   own functions only: it logs through log.h and hashes with hash.h (XXH64, header-only). A
   service: the declarations include only the core (log.h, api.h).
   The POSIX backend needs POSIX.1-2008 (openat, unlinkat, renameat, fdopendir, O_NOFOLLOW), which
   glibc hides in strict ISO C modes (-std=c99): save.h then declares them itself, as it does
   fdatasync. 32-bit glibc builds need no -D_FILE_OFFSET_BITS=64: without it, folders are
   listed with readdir64, and a file whose fstat fails there (a 64-bit inode number) has its size
   taken with lseek, its other hard links then unseen; a compiler other than gcc or clang there
   stops with an #error asking for the flag.

   OVERRIDES (define before including; pairs or nothing)
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)   allocation (default malloc / free)
   TL_SAVE_MAX_FILES                files per generation (default 4096)
   TL_SAVE_MAX_MANIFEST_BYTES       largest manifest a reader accepts (default 1 MiB)

   USE
   ---
       tl_save_store_desc desc;
       memset(&desc, 0, sizeof desc);              // zero: defaults (see tl_save_store_desc)
       desc.root = "saves";
       tl_save_open_detail why;
       tl_save_store *store = tl_save_store_open(&desc, &why); // NULL: logged, why.result

       tl_save_txn txn;
       tl_save_result r = tl_save_begin(store, "slot-1", &txn);
       if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "player", bytes, size);
       if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "world", world, world_size);
       if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
       tl_save_txn_discard(&txn);                  // no-op after a commit; ends a failed one
       if (r != TL_SAVE_OK)
           show_error(tl_save_result_message(r), tl_save_last_native_error(store));

       size_t n;
       r = tl_save_read(store, "slot-1", "player", buf, sizeof buf, &n);
       void *all; r = tl_save_read_alloc(store, "slot-1", "world", &all, &n); ... tl_save_free(all);
       tl_save_info slots[16]; size_t count;
       r = tl_save_list(store, slots, 16, &count);  // sorted by id
       r = tl_save_delete(store, "slot-1");
       tl_save_store_close(store);                 // after every transaction has ended: it
                                                   // frees what an open tl_save_txn points into

   GUARANTEES
   ----------
   - Ids (of saves and of files) are 1 to 64 characters of a-z 0-9 _ - . ; they start with a
     letter or digit, do not end in '.', hold no "..", and are not a Windows device name (con,
     nul, com1, ...). Lower case only, so that two ids are two files on case-insensitive file
     systems too. Anything else is refused with TL_SAVE_INVALID_ID before any I/O.
   - A save is a folder holding two slot files, gen0 and gen1, written in alternation (as LMDB
     does with its two meta pages). A slot holds one whole generation: a header (generation
     number, length, and a checksum over the header and the manifest), the transaction's files,
     then a manifest naming each file with its offset, size and XXH64, the generation number, the
     caller's timestamp and the manifest's own XXH64 (the format note below). The manifest carries
     every file's hash, so the header's checksum covers every byte of the generation. Every read
     checks the size and the hash; the first access to a save in a store checks every file of
     both slots. The newest slot that verifies is the published generation; the other one is the
     previous generation.
   - Commit: the transaction's files are kept in memory until the commit (the buffer stays, for
     the next transaction, until the store closes), which writes the whole
     new generation with one write into the slot that does not hold the published generation,
     then syncs that one file (fdatasync on Linux; F_FULLFSYNC where the system has it; fsync
     elsewhere): one sync per commit, whatever its number of files. A write torn by a power cut
     damages only that slot, which then fails its checksum: the published generation in the
     other slot is never written while a commit runs. The first commit of a save creates its
     folder and gen0 (the generation written as `next` and renamed to gen0) and syncs the
     folder and the root; the first commit to an existing save after a store opens syncs its
     folder once too (its slot files may date from a crash). A slot file with other names (hard
     links: a backup made with `cp -al` or rsnapshot, a file outside the root) is never written in
     place: that commit writes the generation as `next`, syncs it, renames it over the slot and
     syncs the folder, and the other names keep the file as it was. tl_save_txn_commit returns
     TL_SAVE_OK only after that: a committed save survives a power cut. A save whose folder went
     away behind the store (a file manager, a sync client) is made again by its next commit, as
     a first commit (a generation is whole; its number goes on).
   - A commit that reports a failure has published nothing, whatever failed (a write, the sync,
     a close after the sync, a folder sync): reads in the store and after a reopen, also after a
     power cut, return the published generation. (After a failed sync the kernel may drop or keep
     the written pages, so the store does not leave them to chance.) Before it returns, the slot it
     wrote gets a header that holds no generation, and its former size back (a full disk gets its
     space back), synced; a failed first commit removes the files and the folder it made, synced.
     Should that undo fail too (logged), this store still reads the old generation; a reopened one
     may not. A delete that reports a failure leaves the save (its folder renamed back, synced).
     tests/save: each operation of each kind of commit and of a delete failing once.
   - A slot keeps the size of the largest generation it held: the header says where its
     generation ends, and bytes after that end are ignored (they never verify). A missing slot
     file was never written (a first commit makes gen0 alone; the second creates gen1, and syncs
     the folder once more for it); one whose header holds no generation is one a failed commit
     wrote: neither is damaged. An empty one was truncated by someone else after it was written:
     damaged, so the fallback below (or TL_SAVE_CORRUPT for a save's only slot), never a silent
     rollback. (A save committed once by an earlier version, which created gen1 empty, reads with
     the fallback warning until its next commit.)
   - The previous generation is kept until a commit starts writing over it. When the newest one
     is damaged (a hash or size mismatch, a bad manifest or header), reads fall back to the
     previous one with a warning (tl_save_info.from_previous tells), and the next commit writes
     over the damaged slot and keeps the good one. (A power cut during a commit can leave the
     slot it was writing looking like a damaged newer generation: then reads return the
     published one, with that warning.) A slot the store cannot read (an I/O error, no memory,
     permission) is not damaged: the read, stat or begin returns TL_SAVE_IO (TL_SAVE_DENIED,
     TL_SAVE_OUT_OF_MEMORY; logged) and nothing falls back to
     the previous generation or writes over the newest, until a later call reads it. A
     generation's number is one more than the newest number
     a slot whose header and manifest verify carries (a damaged generation whose manifest is
     unreadable cannot count). Numbers are compared modulo 2^64 (the newer of a and b is the one
     less than 2^63 ahead), and 0 is skipped when they wrap, so a counter never runs out.
   - Opening a store cleans what interrupted transactions and deletes left: a `next`, a save
     folder without a generation, a `.deleted.*` folder. It also migrates saves of the earlier
     layout (a folder with `current` and `previous` generation files, version 1 of the format):
     each becomes a slot (current in gen0, previous in gen1, the same bytes after a header), the
     slots and the folder are synced, then the old files are removed and the folder synced again.
     A migration that fails is logged and tried again at the next open.
   - A transaction is a full replacement: the new generation holds exactly the files written in
     it (writing one file id twice keeps the last bytes). It touches no file before its commit
     (a full disk is reported by the commit). One open transaction per save id; a
     second tl_save_begin on it is TL_SAVE_BUSY, and so is tl_save_delete.
   - tl_save_delete renames the save's folder to `.deleted.<id>`, syncs the root, then removes
     it: the save is there entirely or gone.
   - Confined to its root: the store opens the root once by the path given (a link there is the
     caller's choice, followed) and reaches every folder and file beneath it through that handle,
     never through a link (openat and O_NOFOLLOW, unlinkat). A link, a FIFO, a device or a folder
     where the store keeps its own folders and files is never followed, waited on, written or
     removed: a save folder that is a link is no save (TL_SAVE_FOREIGN, logged); a slot file that
     is one holds no generation anyone can tell, so reads return the other slot's with a warning
     that says so (not a fallback: tl_save_info.from_previous stays false), and commits to that
     save are TL_SAVE_FOREIGN until it is moved away. A slot file's other hard links are never
     written (above). It removes only what it makes (gen0, gen1, next, and the earlier layout's
     current and previous), and its folders once they hold nothing else: a deleted save whose
     folder holds other files leaves them in it, without a generation (logged).
   - Results never abort. Failures are logged once, where they are met, with the save, the file
     and the path (a save or file that is not there, and a buffer too small, at the info level).

   NOT GUARANTEED
   --------------
   - Two stores (two processes) on one root at once: nothing locks the root, and opening a store
     cleans up what looks interrupted, which may be another process's open transaction.
   - A disk that lies about flushes, or a file system without directory sync (EINVAL from fsync
     on a folder is taken as success, as SQLite does).
   - Windows: the interface (tl_save_io) takes a root handle and single UTF-8 names beneath it and
     has no POSIX-only operation (a Windows backend keeps the root's path as its handle and joins
     the names, opens with CreateFileW and FILE_FLAG_OPEN_REPARSE_POINT to refuse reparse points,
     maps open_update to OPEN_ALWAYS, TL_SAVE_IO_LINKED to GetFileInformationByHandle's
     nNumberOfLinks > 1, write_at to WriteFile with an OVERLAPPED offset, truncate to
     SetEndOfFile, sync to FlushFileBuffers, rename to MoveFileExW with
     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH), but only the POSIX backend is included;
     on Windows, give desc.io.
   - Reads while a save's files are changed behind the store's back: the first access verifies a
     generation; a later read that finds a wrong hash reports TL_SAVE_CORRUPT.

   ERRORS
   ------
   A function that can fail returns tl_save_result (TL_SAVE_OK = 0, tl_save_result_message); the
   store keeps it with the backend's errno (tl_save_last_result, tl_save_last_native_error).
   tl_save_store_open returns NULL, the reason in its tl_save_open_detail. docs/errors.md.

   Main thread only, like the rest of the runtime.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_SAVE_IMPL)
#define TL_SAVE_IMPL
#endif
#ifndef TL_SAVE_H
#define TL_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "log.h"

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/save.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifndef TL_SAVE_MAX_FILES
#define TL_SAVE_MAX_FILES 4096u
#endif
#ifndef TL_SAVE_MAX_MANIFEST_BYTES
#define TL_SAVE_MAX_MANIFEST_BYTES ((uint64_t)1 << 20)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL_SAVE_ID_MAX 64

/* --- results ------------------------------------------------------------------------------------ */

#define TL_SAVE_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(INVALID_ID, "invalid id: 1 to 64 characters of a-z 0-9 _ - . starting with a letter or " \
                  "digit, not ending in '.', without '..', not a device name") \
    X(NOT_FOUND, "no such save or file") \
    X(BUSY, "a transaction is open on this save") \
    X(STALE, "the transaction has ended") \
    X(ABORTED, "a write of this transaction failed: discard it") \
    X(TOO_SMALL, "the buffer is too small (size holds the file's size)") \
    X(TOO_LARGE, "the file is too large") \
    X(CORRUPT, "no intact generation of this save") \
    X(NO_SPACE, "no space left on the device") \
    X(IO, "input/output error") \
    X(VAULT, "the vault could not be written or read (tl_save_last_native_error holds vault.h's " \
             "result)") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(FOREIGN, "a file, a folder, a link, a FIFO or a device is where the store keeps its own: " \
               "left alone") \
    X(DENIED, "permission denied: the store's folder or files cannot be written or read (their " \
              "permissions, or a read-only disk)")

typedef enum tl_save_result {
    TL_SAVE_OK = 0,
#define TL__SAVE_RESULT_ENUM(id, message) TL_SAVE_##id,
    TL_SAVE_RESULTS(TL__SAVE_RESULT_ENUM) /* TL_SAVE_<id>, one per row from 1 */
#undef TL__SAVE_RESULT_ENUM
    TL_SAVE_RESULT_END_
} tl_save_result;

TL_API const char *tl_save_result_message(tl_save_result result);

/* --- diagnostics table (what is logged, beside the result) -------------------------------------- */

#define TL_SAVE_LOG_ITEMS(X) \
    X(OPEN_FAILED, TL_LOG_LEVEL_ERROR, "cannot open the save store %s: %s (native error %d)") \
    X(REFUSED, TL_LOG_LEVEL_ERROR, "%s: %s: %s") \
    X(IO_FAILED, TL_LOG_LEVEL_ERROR, "save %s: %s %s failed: %s (native error %d)") \
    X(FALLBACK, TL_LOG_LEVEL_WARNING, \
      "save %s: the newest generation is damaged (%s): reading the previous one, generation %llu") \
    X(DAMAGED, TL_LOG_LEVEL_ERROR, "save %s: %s: %s") \
    X(CLEANED, TL_LOG_LEVEL_INFO, "save %s: %s") \
    X(CLEANUP_FAILED, TL_LOG_LEVEL_WARNING, "cleaning %s failed: %s (native error %d)") \
    X(TXN_LEFT_OPEN, TL_LOG_LEVEL_WARNING, \
      "save %s: its transaction was still open when the store closed: discarded") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(FOREIGN, TL_LOG_LEVEL_WARNING, \
      "%s: not what the store keeps there (a file where its folder belongs, a link, a FIFO, a " \
      "device): not followed, left alone") \
    X(KEPT, TL_LOG_LEVEL_WARNING, "%s: holds files the store did not make: they and it stay") \
    X(UNDO_FAILED, TL_LOG_LEVEL_ERROR, \
      "save %s: the failed %s could not be undone on disk: %s (native error %d): this store " \
      "reads the old generation, a reopened one may not") \
    X(NOT_FOUND, TL_LOG_LEVEL_INFO, "%s: %s: no such save or file") \
    X(TOO_SMALL, TL_LOG_LEVEL_INFO, "%s: %s: %llu bytes, the buffer holds %llu") \
    X(SLOT_FOREIGN, TL_LOG_LEVEL_WARNING, \
      "save %s: a slot is not a regular file (%s: a folder, a link, a FIFO, a device?): left " \
      "alone; reads return generation %llu, the other slot's, and commits fail until it is " \
      "moved away")

#define TL_SAVE_LOG_BASE 0x500u
typedef enum tl_save_log_item {
    TL_SAVE_LOG_NONE_ = TL_SAVE_LOG_BASE - 1,
#define TL__SAVE_LOG_ENUM(id, level, message) TL_SAVE_LOG_##id,
    TL_SAVE_LOG_ITEMS(TL__SAVE_LOG_ENUM) /* TL_SAVE_LOG_<id>, one per row from the base */
#undef TL__SAVE_LOG_ENUM
    TL_SAVE_LOG_END_
} tl_save_log_item;

/* --- the I/O backend ------------------------------------------------------------------------------ */

/* What an operation tells the store; the native code (errno, GetLastError) goes to *native. */
typedef enum tl_save_io_status {
    TL_SAVE_IO_OK = 0,
    TL_SAVE_IO_NOT_FOUND = 1, /* no such file or folder */
    TL_SAVE_IO_EXISTS = 2,    /* mkdir of an existing name; rmdir of a folder not empty */
    TL_SAVE_IO_NO_SPACE = 3,  /* disk full or quota */
    TL_SAVE_IO_FAILED = 4,    /* anything else */
    TL_SAVE_IO_FOREIGN = 5,   /* a link, a FIFO, a device, or a file where a folder is expected
                                 (or the reverse): not opened through, written or removed */
    TL_SAVE_IO_DENIED = 6,    /* permission denied, a read-only disk */
    TL_SAVE_IO_LINKED = 7     /* open_write, open_update: a regular file with other names (hard
                                 links: a backup's, a file outside the root), not opened: writing
                                 it would change them too */
} tl_save_io_status;

typedef void (*tl_save_io_entry_fn)(void *ctx, const char *name);

/* A backend works beneath one folder, the store's root. open_root opens it by its path (UTF-8) and
   gives its handle; every other operation names, under that handle, a folder `dir` (NULL: the root
   itself; else a folder of the root) and an entry `name` of it: single names, without '/', never
   "." or "..", checked by the store first. Nothing beneath the root is reached through a link, and
   a link, a FIFO or a device where the store expects its own regular file or folder (or a folder
   where it expects a file, or the reverse) is TL_SAVE_IO_FOREIGN, never waited on, written through
   or removed (the POSIX backend: one descriptor for the root, every folder and file opened with
   openat, O_NOFOLLOW and O_NONBLOCK and checked with fstat, removals with unlinkat). open_write and
   open_update refuse a regular file with other names (st_nlink > 1) with TL_SAVE_IO_LINKED before
   changing a byte of it; the store then writes a new file and renames it over (a backend that
   cannot tell never returns it). Every operation is synchronous. A backend for another platform or
   for tests fills every member (open_update, write_at and truncate may be NULL together: a commit
   then rewrites its slot file with open_write and write, which costs the file system more at the
   sync); tl_save_io_posix() gives the default one, which a test wraps to count or fail calls.
   Interface version 0.3 (0.2 had no TL_SAVE_IO_LINKED; 0.1 took whole paths). */
typedef struct tl_save_io {
    void *user;
    /* Opens the root folder, creating it when missing (its parent must exist). */
    tl_save_io_status (*open_root)(void *user, const char *path, void **root, int *native);
    void (*close_root)(void *user, void *root);
    /* Creates a regular file, or empties an existing one, for writing; *file: its handle. One with
       other names is TL_SAVE_IO_LINKED, left as it is. */
    tl_save_io_status (*open_write)(void *user, void *root, const char *dir, const char *name,
                                    void **file, int *native);
    /* Appends all `size` bytes. */
    tl_save_io_status (*write)(void *user, void *file, const void *data, size_t size, int *native);
    /* Makes the file's data and size durable (fdatasync or fsync). */
    tl_save_io_status (*sync)(void *user, void *file, int *native);
    /* Opens a regular file for reading and stores its size. */
    tl_save_io_status (*open_read)(void *user, void *root, const char *dir, const char *name,
                                   void **file, uint64_t *size, int *native);
    /* Reads exactly `size` bytes at `offset` (a short read is TL_SAVE_IO_FAILED). */
    tl_save_io_status (*read)(void *user, void *file, uint64_t offset, void *dst, size_t size,
                              int *native);
    /* Closes a file from any open_* (a write error reported late counts). */
    tl_save_io_status (*close)(void *user, void *file, int *native);
    /* Creates a folder of the root. */
    tl_save_io_status (*mkdir)(void *user, void *root, const char *name, int *native);
    /* Makes the folder's entries durable (creations, renames, removals inside it). */
    tl_save_io_status (*sync_dir)(void *user, void *root, const char *dir, int *native);
    /* Renames a regular file (or, in the root, a folder) within dir, atomically replacing a file
       at `to`. */
    tl_save_io_status (*rename)(void *user, void *root, const char *dir, const char *from,
                                const char *to, int *native);
    /* Removes a regular file. */
    tl_save_io_status (*remove)(void *user, void *root, const char *dir, const char *name,
                                int *native);
    /* Removes an empty folder of the root. */
    tl_save_io_status (*rmdir)(void *user, void *root, const char *name, int *native);
    /* Calls each(ctx, name) for every entry of a folder except "." and "..". */
    tl_save_io_status (*list)(void *user, void *root, const char *dir, tl_save_io_entry_fn each,
                              void *ctx, int *native);
    /* Opens a regular file for writing at offsets, creating it when missing, never truncating;
       stores its size. One with other names is TL_SAVE_IO_LINKED. */
    tl_save_io_status (*open_update)(void *user, void *root, const char *dir, const char *name,
                                     void **file, uint64_t *size, int *native);
    /* Writes all `size` bytes at `offset` of a file from open_update. */
    tl_save_io_status (*write_at)(void *user, void *file, uint64_t offset, const void *data,
                                  size_t size, int *native);
    /* Sets the size of a file from open_update (bytes past it are given back to the disk). */
    tl_save_io_status (*truncate)(void *user, void *file, uint64_t size, int *native);
} tl_save_io;

#if !defined(_WIN32)
/* The POSIX backend (openat, write, fdatasync or fsync, renameat, unlinkat, fdopendir). */
TL_API tl_save_io tl_save_io_posix(void);
#endif

/* --- store, transactions, reads ------------------------------------------------------------------- */

typedef struct tl_save_store tl_save_store;

/* A transaction: a small value naming a slot of its store; stale once committed or discarded. */
typedef struct tl_save_txn {
    tl_save_store *store;
    uint32_t slot, gen;
} tl_save_txn;

/* Zero-initialised: defaults.
     root            required: the store's folder (created when missing; its parent must exist)
     io              the POSIX backend (required on Windows)
     logger          stderr, every level
     max_read_bytes  largest file tl_save_read_alloc allocates for: 1 GiB */
typedef struct tl_save_store_desc {
    const char *root;
    tl_save_io io;
    tl_logger logger;
    uint64_t max_read_bytes;
} tl_save_store_desc;

/* One save's published generation (the one reads return). */
typedef struct tl_save_info {
    char id[TL_SAVE_ID_MAX + 1];
    uint64_t generation; /* 1 for a save's first commit, one more for each commit after */
    uint64_t size;       /* bytes of all its files */
    int64_t timestamp;   /* the caller's (tl_save_txn_set_timestamp), 0 when not given */
    uint32_t file_count;
    bool from_previous; /* the newest generation is damaged: this is the previous one (not set
                           for a slot that is not a regular file: what it held is unknown) */
} tl_save_info;

/* Why tl_save_store_open made no store: it has no store to keep the reason in. */
typedef struct tl_save_open_detail {
    tl_save_result result; /* TL_SAVE_OK when the store was made */
    int native_error;      /* the backend's native error (errno) of the call that failed, or 0 */
} tl_save_open_detail;

/* NULL on failure (logged); detail (may be NULL) says why. */
TL_API tl_save_store *tl_save_store_open(const tl_save_store_desc *desc,
                                         tl_save_open_detail *detail);
/* Discards open transactions (a warning each) and frees the store: a tl_save_txn still open then
   points into freed memory, so end each one (commit or discard) before closing. */
TL_API void tl_save_store_close(tl_save_store *store);

/* Opens a transaction on save_id (new or existing) into *txn. */
TL_API tl_save_result tl_save_begin(tl_save_store *store, const char *save_id, tl_save_txn *txn);
/* Adds (or replaces) a file of the new generation. A failure makes the transaction unable to
   commit (TL_SAVE_ABORTED): discard it. */
TL_API tl_save_result tl_save_txn_write(tl_save_txn *txn, const char *file_id, const void *bytes,
                                        size_t size);
/* The caller's timestamp stored in the generation (any unit; 0 by default). */
TL_API tl_save_result tl_save_txn_set_timestamp(tl_save_txn *txn, int64_t timestamp);
/* Publishes the generation; the transaction ends whatever the outcome. */
TL_API tl_save_result tl_save_txn_commit(tl_save_txn *txn);
/* Ends the transaction without publishing; TL_SAVE_OK (nothing to do) on an ended one. It cannot
   fail and leaves tl_save_last_result as the transaction's last call set it. */
TL_API tl_save_result tl_save_txn_discard(tl_save_txn *txn);

/* Reads a file of the published generation into buf. *size is the file's size, also when the
   result is TL_SAVE_TOO_SMALL. */
TL_API tl_save_result tl_save_read(tl_save_store *store, const char *save_id, const char *file_id,
                                   void *buf, size_t cap, size_t *size);
/* The same into a new block (TL_MALLOC; free it with tl_save_free); *data is NULL on failure. */
TL_API tl_save_result tl_save_read_alloc(tl_save_store *store, const char *save_id,
                                         const char *file_id, void **data, size_t *size);
TL_API void tl_save_free(void *data);

TL_API tl_save_result tl_save_delete(tl_save_store *store, const char *save_id);
/* The published generation of one save. */
TL_API tl_save_result tl_save_stat(tl_save_store *store, const char *save_id, tl_save_info *info);
/* Every readable save, sorted by id: writes at most cap into out, *count is how many there are.
   A save with no intact generation is left out (and logged). */
TL_API tl_save_result tl_save_list(tl_save_store *store, tl_save_info *out, size_t cap,
                                   size_t *count);

/* The result of the store's last call that can fail (TL_SAVE_OK after a success), and the
   backend's native error (errno) of its failure, 0 when none (or vault.h's result for
   TL_SAVE_VAULT). A NULL store: TL_SAVE_INVALID_ARGUMENT and 0. */
TL_API tl_save_result tl_save_last_result(const tl_save_store *store);
TL_API int tl_save_last_native_error(const tl_save_store *store);
/* Records a failure met outside the store on its behalf (glue.h's vault calls: TL_SAVE_VAULT with
   vault.h's result as the native error), as the two above then tell; returns result. */
TL_API tl_save_result tl_save_set_last_result(tl_save_store *store, tl_save_result result,
                                              int native_error);

/* The logger the store reports through (its desc's copy), for glue.h's vault calls. */
TL_API const tl_logger *tl_save_store_logger(const tl_save_store *store);

/* Checks a whole slot file in memory (a copy of <root>/<save>/gen0 or gen1): its header, its
   manifest and every file's size and hash; fills *info (id left empty) when info is not NULL.
   Bytes after the generation's end are ignored. */
TL_API tl_save_result tl_save_pack_verify(const void *pack, size_t size, tl_save_info *info);

TL_API bool tl_save_id_valid(const char *id);

/* Slot file format (version 2; all integers of the header and the trailer little-endian):
     header, 32 bytes: "TLSAVE02", u64 generation (not 0), u64 body size,
                       u64 check: XXH64 of the header's first 24 bytes followed by the manifest
     body (body size bytes, offsets below count from its start), a version 1 generation file:
       the files' bytes, in the order they were written
       manifest, text lines ending in '\n':
         tlsave 1
         generation <decimal, the header's>
         timestamp <decimal, '-' allowed>
         files <count>
         file <offset> <size> <xxh64, 16 lower-case hex digits> <file id>   (count lines, ids
                                                                            strictly ascending)
         end <xxh64 of every manifest byte before this line>
       trailer, 24 bytes: u64 manifest offset, u64 manifest size, "TLSAVE01"
     then anything (what a longer generation left): ignored.
   Decimals have no sign (but the timestamp's), no leading zero, no overflow; every file lies
   before the manifest, which ends where the trailer starts, which ends the body. A header with
   generation 0, body size 0 and the check of its first 24 bytes alone holds no generation: what
   a failed commit leaves in the slot it wrote. Version 1 (the
   body alone, as `current` and `previous`) is only read to migrate it. */

#ifdef __cplusplus
}
#endif
#endif /* TL_SAVE_H */

/* ================================================================================================ */
#if defined(TL_SAVE_IMPL) && !defined(TL__SAVE_IMPLEMENTED)
#define TL__SAVE_IMPLEMENTED
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif
/* What the implementation uses (declarations only: their switches are their own). */
#include "hash.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TL__SAVE_TRAILER_BYTES 24u
#define TL__SAVE_MAGIC "TLSAVE01"
#define TL__SAVE_HEADER_BYTES 32u
#define TL__SAVE_HEADER_MAGIC "TLSAVE02"
#define TL__SAVE_CHUNK ((size_t)64 << 10)

typedef struct tl__save_entry {
    char id[TL_SAVE_ID_MAX + 1];
    uint64_t offset, size, hash; /* offset: from the start of the body */
} tl__save_entry;

typedef struct tl__save_manifest {
    uint64_t generation;
    int64_t timestamp;
    uint32_t count;
    tl__save_entry *entries; /* ascending ids */
} tl__save_manifest;

/* What a save's folder holds, as the store last found it. */
typedef struct tl__save_layout {
    uint64_t seen;   /* the newest generation number a verified header carries, 0: none */
    int8_t current;  /* the slot reads return (0 or 1), -1: none */
    bool exists[2];  /* whether gen0 and gen1 are there */
    bool dir_synced; /* this store synced the folder with both slot files in it */
} tl__save_layout;

typedef struct tl__save_cached {
    char id[TL_SAVE_ID_MAX + 1];
    tl__save_layout layout;
    bool from_previous; /* the newer slot is damaged: reads return the older one */
    tl__save_manifest manifest;
} tl__save_cached;

typedef struct tl__save_slot {
    uint32_t gen;
    bool active, failed;
    char id[TL_SAVE_ID_MAX + 1];
    tl__save_layout layout; /* the save's folder at begin */
    unsigned char *buf;     /* the slot file being built: header room, then the files' bytes */
    size_t buf_cap;         /* kept from one transaction to the next */
    uint64_t written;       /* bytes of files in buf after the header */
    tl__save_manifest manifest;
    uint32_t cap;
} tl__save_slot;

struct tl_save_store {
    tl_save_io io;
    tl_logger logger;
    uint64_t max_read_bytes;
    void *top;     /* the backend's handle of the root: every operation works beneath it */
    bool top_open; /* top holds an open handle */
    char *root;
    size_t root_len;
    char *path[2];        /* scratch paths for messages: root/id/name */
    unsigned char *chunk; /* TL__SAVE_CHUNK bytes for verification */
    tl__save_slot *slots;
    uint32_t slot_count;
    tl__save_cached *cache;
    uint32_t cache_count, cache_cap;
    tl_save_result last_result; /* of the last public call (tl_save_last_result) */
    int last_native;            /* its native error (tl_save_last_native_error) */
};

/* --- results and logging -------------------------------------------------------------------------- */

TL_RESULT_MESSAGE_FN(tl_save_result_message, tl_save_result, TL_SAVE_RESULTS)

/* A failure inside the store, with the backend's native error: the public calls return the code
   and keep both in the store (tl__save_done). */
typedef struct tl__save_status {
    tl_save_result code;
    int native;
} tl__save_status;

static tl__save_status tl__save_result(tl_save_result code, int native) {
    tl__save_status r;
    r.code = code;
    r.native = native;
    return r;
}

/* A public call's end: its status kept as the store's last result, its code returned. */
static tl_save_result tl__save_done(tl_save_store *s, tl__save_status r) {
    if (s) {
        s->last_result = r.code;
        s->last_native = r.native;
    }
    return r.code;
}

static tl__save_status tl__save_ok(void) { return tl__save_result(TL_SAVE_OK, 0); }

static tl_save_result tl__save_io_code(tl_save_io_status status) {
    switch (status) {
    case TL_SAVE_IO_OK: return TL_SAVE_OK;
    case TL_SAVE_IO_NOT_FOUND: return TL_SAVE_NOT_FOUND;
    case TL_SAVE_IO_NO_SPACE: return TL_SAVE_NO_SPACE;
    case TL_SAVE_IO_FOREIGN:
    case TL_SAVE_IO_LINKED: return TL_SAVE_FOREIGN;
    case TL_SAVE_IO_DENIED: return TL_SAVE_DENIED;
    case TL_SAVE_IO_EXISTS:
    case TL_SAVE_IO_FAILED:
    default: return TL_SAVE_IO;
    }
}

TL_LOG_TABLE_FN(tl__save_log, TL_SAVE_LOG_ITEMS, TL_SAVE_LOG_BASE, "Save")

/* What a log line says of a failed backend operation: its result's message, but for TL_SAVE_IO
   (anything else) the native error's own where the platform has one (errno: EINTR is not an
   input/output error). */
static const char *tl__save_io_message(tl_save_io_status status, int native) {
    tl_save_result code = tl__save_io_code(status);
#if !defined(_WIN32)
    if (code == TL_SAVE_IO && native > 0) return strerror(native);
#else
    (void)native; /* GetLastError's codes have no strerror */
#endif
    return tl_save_result_message(code);
}

/* Logs a failed backend operation and turns it into a result. */
static tl__save_status tl__save_io_fail(const tl_save_store *s, const char *save, const char *op,
                                        const char *path, tl_save_io_status status, int native) {
    tl__save_log(&s->logger, TL_SAVE_LOG_IO_FAILED, save, op, path,
                 tl__save_io_message(status, native), native);
    return tl__save_result(tl__save_io_code(status), native);
}

static tl__save_status tl__save_refuse(const tl_save_store *s, const char *call, const char *what,
                                       tl_save_result code) {
    tl__save_log(s ? &s->logger : NULL, TL_SAVE_LOG_REFUSED, call, what ? what : "(null)",
                 tl_save_result_message(code));
    return tl__save_result(code, 0);
}

/* A save or a file that is not there: an answer more than a fault (a game asks before its first
   save), so logged as information. */
static const char *tl__save_path(tl_save_store *s, int k, const char *save, const char *name);
static tl__save_status tl__save_missing(tl_save_store *s, const char *call, const char *save_id,
                                        const char *file_id) {
    tl__save_log(&s->logger, TL_SAVE_LOG_NOT_FOUND, call, tl__save_path(s, 0, save_id, file_id));
    return tl__save_result(TL_SAVE_NOT_FOUND, 0);
}

/* --- ids ------------------------------------------------------------------------------------------- */

static bool tl__save_id_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* con, prn, aux, nul, com0-9, lpt0-9, alone or before a '.': Windows opens a device for them. */
static bool tl__save_device_name(const char *id, size_t n) {
    static const char *const names[] = { "con", "prn", "aux", "nul" };
    size_t stem = 0, i;
    while (stem < n && id[stem] != '.') stem++;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (stem == 3 && memcmp(id, names[i], 3) == 0) return true;
    return stem == 4 && (memcmp(id, "com", 3) == 0 || memcmp(id, "lpt", 3) == 0) && id[3] >= '0' &&
           id[3] <= '9';
}

bool tl_save_id_valid(const char *id) {
    size_t n = 0;
    if (!id) return false;
    while (n <= TL_SAVE_ID_MAX && id[n]) {
        if (!tl__save_id_char(id[n])) return false;
        if (id[n] == '.' && n > 0 && id[n - 1] == '.') return false;
        n++;
    }
    if (n == 0 || n > TL_SAVE_ID_MAX) return false;
    if (id[0] == '.' || id[0] == '_' || id[0] == '-' || id[n - 1] == '.') return false;
    return !tl__save_device_name(id, n);
}

/* --- memory ----------------------------------------------------------------------------------------- */

static void *tl__save_alloc(size_t size) { return TL_MALLOC(size ? size : 1); }

void tl_save_free(void *data) {
    if (data) TL_FREE(data);
}

static void tl__save_manifest_free(tl__save_manifest *m) {
    if (m->entries) TL_FREE(m->entries);
    memset(m, 0, sizeof *m);
}

static const tl__save_entry *tl__save_manifest_find(const tl__save_manifest *m, const char *id) {
    uint32_t lo = 0, hi = m->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->entries[mid].id, id);
        if (c == 0) return &m->entries[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* --- the manifest: parse (the grammar is in the format note of the header part) ------------------- */

typedef struct tl__save_cursor {
    const char *at, *end;
} tl__save_cursor;

static bool tl__save_take(tl__save_cursor *c, const char *literal) {
    size_t n = strlen(literal);
    if ((size_t)(c->end - c->at) < n || memcmp(c->at, literal, n) != 0) return false;
    c->at += n;
    return true;
}

/* decimal -> '0' | [1-9][0-9]* (at most UINT64_MAX) */
static bool tl__save_take_u64(tl__save_cursor *c, uint64_t *out) {
    uint64_t v = 0;
    const char *start = c->at;
    while (c->at < c->end && *c->at >= '0' && *c->at <= '9') {
        uint64_t d = (uint64_t)(*c->at - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
        c->at++;
    }
    if (c->at == start || (*start == '0' && c->at - start > 1)) return false;
    *out = v;
    return true;
}

static bool tl__save_take_i64(tl__save_cursor *c, int64_t *out) {
    bool negative = tl__save_take(c, "-");
    uint64_t v;
    if (!tl__save_take_u64(c, &v)) return false;
    if (negative) {
        if (v == 0 || v > (uint64_t)INT64_MAX + 1) return false;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX) return false;
        *out = (int64_t)v;
    }
    return true;
}

static bool tl__save_take_hex64(tl__save_cursor *c, uint64_t *out) {
    uint64_t v = 0;
    int i;
    if (c->end - c->at < 16) return false;
    for (i = 0; i < 16; i++) {
        char ch = *c->at++;
        uint64_t d;
        if (ch >= '0' && ch <= '9') d = (uint64_t)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') d = (uint64_t)(ch - 'a' + 10);
        else return false;
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

/* An id up to the end of the line (the '\n' is consumed). */
static bool tl__save_take_id_line(tl__save_cursor *c, char out[TL_SAVE_ID_MAX + 1]) {
    size_t n = 0;
    while (c->at < c->end && *c->at != '\n') {
        if (n == TL_SAVE_ID_MAX) return false;
        out[n++] = *c->at++;
    }
    out[n] = '\0';
    return c->at < c->end && *c->at++ == '\n' && tl_save_id_valid(out);
}

/* file <offset> <size> <hash> <id>\n, inside [0, data_end), after the previous id. */
static bool tl__save_take_entry(tl__save_cursor *c, uint64_t data_end, tl__save_entry *e,
                                const tl__save_entry *prev) {
    if (!tl__save_take(c, "file ") || !tl__save_take_u64(c, &e->offset) || !tl__save_take(c, " ") ||
        !tl__save_take_u64(c, &e->size) || !tl__save_take(c, " ") ||
        !tl__save_take_hex64(c, &e->hash) || !tl__save_take(c, " ") ||
        !tl__save_take_id_line(c, e->id))
        return false;
    if (e->offset > data_end || e->size > data_end - e->offset) return false;
    return !prev || strcmp(prev->id, e->id) < 0;
}

/* Parses a manifest whose files must lie in [0, data_end). On failure *why says what is wrong and
   out holds nothing to free. */
static bool tl__save_manifest_parse(const char *text, size_t size, uint64_t data_end,
                                    tl__save_manifest *out, const char **why) {
    tl__save_cursor c;
    uint64_t count, hash;
    uint32_t i;
    const char *end_line;
    memset(out, 0, sizeof *out);
    c.at = text;
    c.end = text + size;
    *why = "malformed manifest header";
    if (!tl__save_take(&c, "tlsave 1\ngeneration ") || !tl__save_take_u64(&c, &out->generation) ||
        out->generation == 0 || !tl__save_take(&c, "\ntimestamp ") ||
        !tl__save_take_i64(&c, &out->timestamp) || !tl__save_take(&c, "\nfiles ") ||
        !tl__save_take_u64(&c, &count) || !tl__save_take(&c, "\n"))
        return false;
    if (count > TL_SAVE_MAX_FILES || count > size / 24) {
        *why = "too many files in the manifest";
        return false;
    }
    out->count = (uint32_t)count;
    out->entries = (tl__save_entry *)tl__save_alloc((size_t)count * sizeof *out->entries);
    if (!out->entries) {
        *why = "out of memory";
        return false;
    }
    *why = "malformed file line in the manifest";
    for (i = 0; i < out->count; i++)
        if (!tl__save_take_entry(&c, data_end, &out->entries[i], i ? &out->entries[i - 1] : NULL))
            goto fail;
    end_line = c.at;
    if (!tl__save_take(&c, "end ") || !tl__save_take_hex64(&c, &hash) || !tl__save_take(&c, "\n") ||
        c.at != c.end)
        goto fail;
    if (hash != tl_hash64(text, (size_t)(end_line - text), 0)) {
        *why = "the manifest's checksum does not match";
        goto fail;
    }
    return true;
fail:
    tl__save_manifest_free(out);
    return false;
}

static uint64_t tl__save_le64(const unsigned char *p) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void tl__save_put64(unsigned char *p, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Where the manifest is, from the trailer of a file of `size` bytes. */
static bool tl__save_trailer(const unsigned char trailer[TL__SAVE_TRAILER_BYTES], uint64_t size,
                             uint64_t *offset, uint64_t *length, const char **why) {
    *why = "not a save generation (bad trailer)";
    if (size < TL__SAVE_TRAILER_BYTES || memcmp(trailer + 16, TL__SAVE_MAGIC, 8) != 0) return false;
    *offset = tl__save_le64(trailer);
    *length = tl__save_le64(trailer + 8);
    if (*length > TL_SAVE_MAX_MANIFEST_BYTES || *offset > size - TL__SAVE_TRAILER_BYTES ||
        *length != size - TL__SAVE_TRAILER_BYTES - *offset) {
        *why = "the trailer's manifest range is wrong";
        return false;
    }
    return true;
}

/* The manifest of `m`'s entries followed by the trailer, for a file whose data ends at data_end. */
static char *tl__save_manifest_write(const tl__save_manifest *m, uint64_t data_end, size_t *size) {
    size_t cap = 160 + (size_t)m->count * (TL_SAVE_ID_MAX + 72) + TL__SAVE_TRAILER_BYTES, n;
    char *text = (char *)tl__save_alloc(cap);
    uint32_t i;
    int w;
    if (!text) return NULL;
    w = snprintf(text, cap, "tlsave 1\ngeneration %llu\ntimestamp %lld\nfiles %u\n",
                 (unsigned long long)m->generation, (long long)m->timestamp, (unsigned)m->count);
    n = (size_t)w;
    for (i = 0; i < m->count; i++) {
        const tl__save_entry *e = &m->entries[i];
        w = snprintf(text + n, cap - n, "file %llu %llu %016llx %s\n",
                     (unsigned long long)e->offset, (unsigned long long)e->size,
                     (unsigned long long)e->hash, e->id);
        n += (size_t)w;
    }
    w = snprintf(text + n, cap - n, "end %016llx\n", (unsigned long long)tl_hash64(text, n, 0));
    n += (size_t)w;
    tl__save_put64((unsigned char *)text + n, data_end);
    tl__save_put64((unsigned char *)text + n + 8, (uint64_t)n);
    memcpy(text + n + 16, TL__SAVE_MAGIC, 8);
    *size = n + TL__SAVE_TRAILER_BYTES;
    return text;
}

static void tl__save_fill_info(tl_save_info *info, const tl__save_manifest *m) {
    uint32_t i;
    memset(info, 0, sizeof *info);
    info->generation = m->generation;
    info->timestamp = m->timestamp;
    info->file_count = m->count;
    for (i = 0; i < m->count; i++) info->size += m->entries[i].size;
}

/* The check of a slot header: XXH64 of its first 24 bytes, then the manifest text. */
static uint64_t tl__save_header_check(const unsigned char *header, const void *manifest,
                                      size_t size) {
    tl_hash64_state state;
    tl_hash64_reset(&state, 0);
    tl_hash64_update(&state, header, 24);
    tl_hash64_update(&state, manifest, size);
    return tl_hash64_digest(&state);
}

/* Fills a slot header for a body of `body` bytes whose manifest is `manifest`. */
static void tl__save_header_put(unsigned char *header, uint64_t generation, uint64_t body,
                                const void *manifest, size_t size) {
    memcpy(header, TL__SAVE_HEADER_MAGIC, 8);
    tl__save_put64(header + 8, generation);
    tl__save_put64(header + 16, body);
    tl__save_put64(header + 24, tl__save_header_check(header, manifest, size));
}

/* A slot header's generation and body size, the body lying within the `room` bytes after it. */
static bool tl__save_header_get(const unsigned char *header, uint64_t room, uint64_t *generation,
                                uint64_t *body, const char **why) {
    *why = "not a save slot (bad header)";
    if (memcmp(header, TL__SAVE_HEADER_MAGIC, 8) != 0) return false;
    *generation = tl__save_le64(header + 8);
    *body = tl__save_le64(header + 16);
    if (*generation == 0 || *body < TL__SAVE_TRAILER_BYTES) return false;
    *why = "the slot is shorter than its header says (truncated)";
    return *body <= room;
}

/* A manifest read from a slot agrees with its header (number and check). */
static bool tl__save_header_matches(const unsigned char *header, const tl__save_manifest *m,
                                    const void *manifest, size_t size, const char **why) {
    *why = "the slot's header does not match its manifest";
    return m->generation == tl__save_le64(header + 8) &&
           tl__save_le64(header + 24) == tl__save_header_check(header, manifest, size);
}

/* The header a failed commit leaves in the slot it wrote: generation 0 (never a generation's),
   body 0, its check over the first 24 bytes. Such a slot holds no generation; it is not damaged. */
static void tl__save_blank_put(unsigned char *header) {
    memcpy(header, TL__SAVE_HEADER_MAGIC, 8);
    tl__save_put64(header + 8, 0);
    tl__save_put64(header + 16, 0);
    tl__save_put64(header + 24, tl__save_header_check(header, "", 0));
}

static bool tl__save_blank(const unsigned char *header) {
    return memcmp(header, TL__SAVE_HEADER_MAGIC, 8) == 0 && tl__save_le64(header + 8) == 0 &&
           tl__save_le64(header + 16) == 0 &&
           tl__save_le64(header + 24) == tl__save_header_check(header, "", 0);
}

/* Parses the manifest of a body in memory, checked against the slot's header. */
static bool tl__save_body_manifest(const unsigned char *header, const unsigned char *body,
                                   uint64_t size, tl__save_manifest *m, const char **why) {
    uint64_t offset, length;
    if (!tl__save_trailer(body + size - TL__SAVE_TRAILER_BYTES, size, &offset, &length, why))
        return false;
    if (!tl__save_manifest_parse((const char *)body + offset, (size_t)length, offset, m, why))
        return false;
    if (tl__save_header_matches(header, m, body + offset, (size_t)length, why)) return true;
    tl__save_manifest_free(m);
    return false;
}

tl_save_result tl_save_pack_verify(const void *pack, size_t size, tl_save_info *info) {
    const unsigned char *p = (const unsigned char *)pack;
    uint64_t generation, body;
    tl__save_manifest m;
    const char *why;
    uint32_t i;
    if (!pack && size) return TL_SAVE_INVALID_ARGUMENT;
    if (size < TL__SAVE_HEADER_BYTES ||
        !tl__save_header_get(p, size - TL__SAVE_HEADER_BYTES, &generation, &body, &why) ||
        !tl__save_body_manifest(p, p + TL__SAVE_HEADER_BYTES, body, &m, &why))
        return TL_SAVE_CORRUPT;
    for (i = 0; i < m.count; i++) {
        const tl__save_entry *e = &m.entries[i];
        if (tl_hash64(p + TL__SAVE_HEADER_BYTES + e->offset, (size_t)e->size, 0) != e->hash) {
            tl__save_manifest_free(&m);
            return TL_SAVE_CORRUPT;
        }
    }
    if (info) tl__save_fill_info(info, &m);
    tl__save_manifest_free(&m);
    return TL_SAVE_OK;
}

/* --- paths -------------------------------------------------------------------------------------------- */

/* root/save/name into scratch path k (save or name may be NULL). Ids are validated first, so
   this never overflows: each buffer has room for the root, two ids and a separator each. */
static const char *tl__save_path(tl_save_store *s, int k, const char *save, const char *name) {
    char *p = s->path[k];
    size_t n = s->root_len;
    memcpy(p, s->root, n);
    if (save) {
        size_t l = strlen(save);
        p[n++] = '/';
        memcpy(p + n, save, l);
        n += l;
    }
    if (name) {
        size_t l = strlen(name);
        p[n++] = '/';
        memcpy(p + n, name, l);
        n += l;
    }
    p[n] = '\0';
    return p;
}

static const char *tl__save_slot_name(int slot) { return slot ? "gen1" : "gen0"; }

/* Generation numbers modulo 2^64: a is newer than b when it is less than 2^63 ahead. */
static bool tl__save_newer(uint64_t a, uint64_t b) { return a != b && a - b < ((uint64_t)1 << 63); }

/* The number after g (0 is never a generation). */
static uint64_t tl__save_next_generation(uint64_t g) { return g + 1 ? g + 1 : 1; }

/* --- folder listing and removal -------------------------------------------------------------------- */

typedef struct tl__save_names {
    char **names;
    size_t count, cap;
    bool failed;
} tl__save_names;

static void tl__save_names_add(void *ctx, const char *name) {
    tl__save_names *l = (tl__save_names *)ctx;
    size_t n = strlen(name);
    char *copy;
    if (l->failed) return;
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **grown = (char **)tl__save_alloc(cap * sizeof *grown);
        if (!grown) {
            l->failed = true;
            return;
        }
        if (l->count) memcpy(grown, l->names, l->count * sizeof *grown);
        if (l->names) TL_FREE(l->names);
        l->names = grown;
        l->cap = cap;
    }
    copy = (char *)tl__save_alloc(n + 1);
    if (!copy) {
        l->failed = true;
        return;
    }
    memcpy(copy, name, n + 1);
    l->names[l->count++] = copy;
}

static void tl__save_names_free(tl__save_names *l) {
    size_t i;
    for (i = 0; i < l->count; i++) TL_FREE(l->names[i]);
    if (l->names) TL_FREE(l->names);
    memset(l, 0, sizeof *l);
}

static int tl__save_names_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The entries of a folder (NULL: the root), sorted. */
static tl_save_io_status tl__save_list(tl_save_store *s, const char *dir, tl__save_names *out,
                                       int *native) {
    tl_save_io_status st;
    memset(out, 0, sizeof *out);
    st = s->io.list(s->io.user, s->top, dir, tl__save_names_add, out, native);
    if (st == TL_SAVE_IO_OK && out->failed) st = TL_SAVE_IO_FAILED;
    if (st != TL_SAVE_IO_OK) tl__save_names_free(out);
    else if (out->count > 1) qsort(out->names, out->count, sizeof *out->names, tl__save_names_cmp);
    return st;
}

/* The names the store makes in a save's folder (the earlier layout's too): the only ones it
   removes. */
static bool tl__save_own_file(const char *name) {
    static const char *const own[] = { "gen0", "gen1", "next", "current", "previous" };
    size_t i;
    for (i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(name, own[i]) == 0) return true;
    return false;
}

/* Removes a folder of the root that the store made: its own files (it never nests folders
   deeper), then the folder. Anything else stays, and so does the folder (TL_SAVE_IO_EXISTS); a
   link is never followed (TL_SAVE_IO_FOREIGN). */
static tl_save_io_status tl__save_remove_folder(tl_save_store *s, const char *dir, int *native) {
    tl__save_names names;
    size_t i;
    tl_save_io_status st = tl__save_list(s, dir, &names, native);
    if (st != TL_SAVE_IO_OK) return st;
    for (i = 0; i < names.count && st == TL_SAVE_IO_OK; i++) {
        if (!tl__save_own_file(names.names[i])) continue;
        st = s->io.remove(s->io.user, s->top, dir, names.names[i], native);
        if (st == TL_SAVE_IO_NOT_FOUND || st == TL_SAVE_IO_FOREIGN) st = TL_SAVE_IO_OK;
    }
    tl__save_names_free(&names);
    return st == TL_SAVE_IO_OK ? s->io.rmdir(s->io.user, s->top, dir, native) : st;
}

/* --- loading and verifying a generation -------------------------------------------------------------- */

/* Hashes [offset, offset + size) of an open file, a chunk at a time. */
static tl_save_io_status tl__save_hash_range(tl_save_store *s, void *f, uint64_t offset,
                                             uint64_t size, uint64_t *hash, int *native) {
    tl_hash64_state state;
    tl_hash64_reset(&state, 0);
    while (size) {
        size_t n = size < TL__SAVE_CHUNK ? (size_t)size : TL__SAVE_CHUNK;
        tl_save_io_status st = s->io.read(s->io.user, f, offset, s->chunk, n, native);
        if (st != TL_SAVE_IO_OK) return st;
        tl_hash64_update(&state, s->chunk, n);
        offset += n;
        size -= n;
    }
    *hash = tl_hash64_digest(&state);
    return TL_SAVE_IO_OK;
}

/* Reads and parses the manifest of the body at `base` (`size` bytes) of an open file; with a slot
   header, also checks the manifest against it. */
static tl_save_result tl__save_read_manifest(tl_save_store *s, void *f, uint64_t base,
                                             uint64_t size, const unsigned char *header,
                                             tl__save_manifest *m, const char **why, int *native) {
    unsigned char trailer[TL__SAVE_TRAILER_BYTES];
    uint64_t offset, length;
    char *text;
    bool ok;
    tl_save_io_status st;
    *why = "not a save generation (too short)";
    if (size < TL__SAVE_TRAILER_BYTES) return TL_SAVE_CORRUPT;
    st = s->io.read(s->io.user, f, base + size - TL__SAVE_TRAILER_BYTES, trailer, sizeof trailer,
                    native);
    if (st != TL_SAVE_IO_OK) {
        *why = "cannot read the trailer";
        return tl__save_io_code(st);
    }
    if (!tl__save_trailer(trailer, size, &offset, &length, why)) return TL_SAVE_CORRUPT;
    text = (char *)tl__save_alloc((size_t)length);
    if (!text) {
        *why = "out of memory";
        return TL_SAVE_OUT_OF_MEMORY;
    }
    st = s->io.read(s->io.user, f, base + offset, text, (size_t)length, native);
    if (st != TL_SAVE_IO_OK) {
        TL_FREE(text);
        *why = "cannot read the manifest";
        return tl__save_io_code(st);
    }
    ok = tl__save_manifest_parse(text, (size_t)length, offset, m, why);
    if (ok && header && !tl__save_header_matches(header, m, text, (size_t)length, why)) {
        tl__save_manifest_free(m);
        ok = false;
    }
    TL_FREE(text);
    return ok ? TL_SAVE_OK : TL_SAVE_CORRUPT;
}

/* Reads a slot's header and its manifest (checked against each other) from an open file. */
static tl_save_result tl__save_read_slot(tl_save_store *s, void *f, uint64_t size,
                                         tl__save_manifest *m, const char **why, int *native) {
    unsigned char header[TL__SAVE_HEADER_BYTES];
    uint64_t generation, body;
    tl_save_io_status st;
    *why = "not a save slot (too short)";
    if (size < TL__SAVE_HEADER_BYTES) return TL_SAVE_CORRUPT;
    st = s->io.read(s->io.user, f, 0, header, sizeof header, native);
    if (st != TL_SAVE_IO_OK) {
        *why = "cannot read the header";
        return tl__save_io_code(st);
    }
    *why = "it holds no generation (a failed commit's, undone)";
    if (tl__save_blank(header)) return TL_SAVE_NOT_FOUND;
    if (!tl__save_header_get(header, size - TL__SAVE_HEADER_BYTES, &generation, &body, why))
        return TL_SAVE_CORRUPT;
    return tl__save_read_manifest(s, f, TL__SAVE_HEADER_BYTES, body, header, m, why, native);
}

/* Loads slot k of a save and checks every file's hash. *exists: the file is there (a missing one
   was never written, and one whose header holds no generation was undone: TL_SAVE_NOT_FOUND; an
   empty one was truncated: TL_SAVE_CORRUPT). *number: its generation number when its header and
   manifest verify, good files or not; else 0. *failed_native: the backend's native error of the
   operation that failed, 0 when none did. */
static tl_save_result tl__save_load(tl_save_store *s, const char *save, int k, tl__save_manifest *m,
                                    uint64_t *number, bool *exists, const char **why,
                                    int *failed_native) {
    void *f = NULL;
    uint64_t size = 0, hash;
    int native = 0, closing = 0;
    uint32_t i;
    tl_save_result code;
    tl_save_io_status st;
    memset(m, 0, sizeof *m);
    *number = 0;
    st = s->io.open_read(s->io.user, s->top, save, tl__save_slot_name(k), &f, &size, &native);
    *exists = st != TL_SAVE_IO_NOT_FOUND;
    *why = st == TL_SAVE_IO_FOREIGN
               ? "not a regular file in a folder of the store (a link, a FIFO?)"
               : "cannot open it";
    *failed_native = native;
    if (st != TL_SAVE_IO_OK) return tl__save_io_code(st);
    *why = "the slot is empty (truncated after it was written)";
    code = size ? tl__save_read_slot(s, f, size, m, why, &native) : TL_SAVE_CORRUPT;
    if (code == TL_SAVE_OK) *number = m->generation;
    for (i = 0; code == TL_SAVE_OK && i < m->count; i++) {
        st = tl__save_hash_range(s, f, TL__SAVE_HEADER_BYTES + m->entries[i].offset,
                                 m->entries[i].size, &hash, &native);
        if (st != TL_SAVE_IO_OK) {
            *why = "cannot read a file";
            code = tl__save_io_code(st);
        } else if (hash != m->entries[i].hash) {
            *why = "a file's hash does not match";
            code = TL_SAVE_CORRUPT;
        }
    }
    if (code != TL_SAVE_OK) tl__save_manifest_free(m);
    *failed_native = code == TL_SAVE_OK ? 0 : native;
    (void)s->io.close(s->io.user, f, &closing); /* (a read-only file: nothing to lose) */
    return code;
}

static tl__save_cached *tl__save_cache_find(tl_save_store *s, const char *id) {
    uint32_t i;
    for (i = 0; i < s->cache_count; i++)
        if (strcmp(s->cache[i].id, id) == 0) return &s->cache[i];
    return NULL;
}

static void tl__save_cache_drop(tl_save_store *s, const char *id) {
    tl__save_cached *c = tl__save_cache_find(s, id);
    if (!c) return;
    tl__save_manifest_free(&c->manifest);
    *c = s->cache[--s->cache_count];
}

/* Records what reads of a save return (takes the manifest); NULL when out of memory. */
static tl__save_cached *tl__save_cache_put(tl_save_store *s, const char *id,
                                           const tl__save_layout *layout, bool from_previous,
                                           tl__save_manifest *m) {
    tl__save_cached *c;
    tl__save_cache_drop(s, id);
    if (s->cache_count == s->cache_cap) {
        uint32_t cap = s->cache_cap ? s->cache_cap * 2 : 8;
        tl__save_cached *grown = (tl__save_cached *)tl__save_alloc(cap * sizeof *grown);
        if (!grown) {
            tl__save_manifest_free(m);
            return NULL;
        }
        if (s->cache_count) memcpy(grown, s->cache, s->cache_count * sizeof *grown);
        if (s->cache) TL_FREE(s->cache);
        s->cache = grown;
        s->cache_cap = cap;
    }
    c = &s->cache[s->cache_count++];
    memcpy(c->id, id, strlen(id) + 1);
    c->layout = *layout;
    c->from_previous = from_previous;
    c->manifest = *m;
    memset(m, 0, sizeof *m);
    return c;
}

/* The slot reads return when both were loaded with these results: the newer intact one. */
static int tl__save_pick(const tl_save_result code[2], const tl__save_manifest m[2]) {
    if (code[0] == TL_SAVE_OK && code[1] == TL_SAVE_OK)
        return tl__save_newer(m[1].generation, m[0].generation) ? 1 : 0;
    if (code[0] == TL_SAVE_OK) return 0;
    return code[1] == TL_SAVE_OK ? 1 : -1;
}

/* Why no slot of a save verifies (both were read): NOT_FOUND (none written), FOREIGN (its folder
   is not one: a link, a file), else CORRUPT, logged. */
static tl_save_result tl__save_unreadable(tl_save_store *s, const char *save,
                                          const tl_save_result code[2], const char *const why[2]) {
    int k = code[0] == TL_SAVE_NOT_FOUND ? 1 : 0;
    if (code[0] == TL_SAVE_NOT_FOUND && code[1] == TL_SAVE_NOT_FOUND) return TL_SAVE_NOT_FOUND;
    if (code[0] == TL_SAVE_FOREIGN && code[1] == TL_SAVE_FOREIGN) {
        tl__save_log(&s->logger, TL_SAVE_LOG_FOREIGN, tl__save_path(s, 0, save, NULL));
        return TL_SAVE_FOREIGN;
    }
    tl__save_log(&s->logger, TL_SAVE_LOG_DAMAGED, save, "no intact generation", why[k]);
    return TL_SAVE_CORRUPT;
}

static bool tl__save_unsure(tl_save_result code) {
    return code == TL_SAVE_IO || code == TL_SAVE_DENIED || code == TL_SAVE_OUT_OF_MEMORY;
}

/* A slot the store could not read (an I/O error, no memory) is not a damaged one: the save cannot
   be read for now (logged), and nothing is cached, fallen back to or written over. */
static tl__save_status tl__save_unread(tl_save_store *s, const char *save,
                                       const tl_save_result code[2], tl__save_manifest m[2],
                                       const char *const why[2], const int native[2]) {
    int k = tl__save_unsure(code[0]) ? 0 : 1;
    if (code[0] == TL_SAVE_OK) tl__save_manifest_free(&m[0]);
    if (code[1] == TL_SAVE_OK) tl__save_manifest_free(&m[1]);
    tl__save_log(&s->logger, TL_SAVE_LOG_DAMAGED, save,
                 "a slot cannot be read now (not taken as damage)", why[k]);
    return tl__save_result(code[k], native[k]);
}

/* Finds the generation reads of a save return: the newer slot that verifies; when the other one
   is damaged and may be newer, the older one with a warning. *layout: what the folder holds (also
   when the result is not TL_SAVE_OK; the native error with TL_SAVE_IO). */
static tl__save_status tl__save_resolve(tl_save_store *s, const char *save, tl__save_cached **out,
                                        tl__save_layout *layout) {
    tl__save_manifest m[2];
    const char *why[2] = { "", "" };
    int native[2];
    tl_save_result code[2];
    uint64_t number[2];
    int k, other;
    bool damaged_newer;
    *out = tl__save_cache_find(s, save);
    if (*out) {
        *layout = (*out)->layout;
        return tl__save_ok();
    }
    memset(layout, 0, sizeof *layout);
    for (k = 0; k < 2; k++) {
        code[k] =
            tl__save_load(s, save, k, &m[k], &number[k], &layout->exists[k], &why[k], &native[k]);
        if (number[k] && (!layout->seen || tl__save_newer(number[k], layout->seen)))
            layout->seen = number[k];
    }
    if (tl__save_unsure(code[0]) || tl__save_unsure(code[1]))
        return tl__save_unread(s, save, code, m, why, native);
    k = tl__save_pick(code, m);
    layout->current = (int8_t)k;
    if (k < 0) return tl__save_result(tl__save_unreadable(s, save, code, why), 0);
    other = 1 - k;
    if (code[other] == TL_SAVE_OK) tl__save_manifest_free(&m[other]);
    /* damaged, and either its number is unknown or newer than the intact one's; a slot that is
       not a regular file (a folder, a link, a FIFO) held what no one can tell: said as such, no
       fallback claimed */
    damaged_newer = code[other] != TL_SAVE_OK && code[other] != TL_SAVE_NOT_FOUND &&
                    code[other] != TL_SAVE_FOREIGN &&
                    (!number[other] || tl__save_newer(number[other], m[k].generation));
    if (damaged_newer)
        tl__save_log(&s->logger, TL_SAVE_LOG_FALLBACK, save, why[other],
                     (unsigned long long)m[k].generation);
    else if (code[other] == TL_SAVE_FOREIGN)
        tl__save_log(&s->logger, TL_SAVE_LOG_SLOT_FOREIGN, save,
                     tl__save_path(s, 0, save, tl__save_slot_name(other)),
                     (unsigned long long)m[k].generation);
    *out = tl__save_cache_put(s, save, layout, damaged_newer, &m[k]);
    if (*out) return tl__save_ok();
    tl__save_log(&s->logger, TL_SAVE_LOG_OUT_OF_MEMORY, "the store's cache of saves");
    return tl__save_result(TL_SAVE_OUT_OF_MEMORY, 0);
}

/* --- POSIX backend --------------------------------------------------------------------------------- */
#if !defined(_WIN32)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(__linux__) && defined(__GLIBC__) && !defined(__USE_POSIX199309)
int fdatasync(int fd); /* glibc declares it only for POSIX.1b and later */
#endif

/* Strict ISO C modes on glibc (-std=c99 without a feature macro) hide POSIX.1-2008: the *at
   functions, fdopendir, ftruncate, and the O_NOFOLLOW, O_DIRECTORY, O_CLOEXEC and AT_REMOVEDIR
   flags that keep the backend beneath its root. They are declared here with their POSIX
   prototypes, the flags taken from glibc's own names for them (AT_REMOVEDIR is 0x200 on every
   Linux architecture); ftruncate is glibc's ftruncate64 where off_t is 64-bit. */
#if defined(__GLIBC__) && !defined(__USE_ATFILE)
int openat(int dirfd, const char *path, int flags, ...);
int mkdirat(int dirfd, const char *path, mode_t mode);
int unlinkat(int dirfd, const char *path, int flags);
int renameat(int from_dirfd, const char *from, int to_dirfd, const char *to);
#endif
#if defined(__GLIBC__) && !defined(__USE_XOPEN2K8)
DIR *fdopendir(int fd);
#endif
#if defined(__GLIBC__) && !defined(__USE_POSIX199309) && !defined(__USE_XOPEN_EXTENDED) && \
    defined(__USE_FILE_OFFSET64)
#if defined(__GNUC__)
extern int tl__save_ftruncate64(int fd, int64_t size) __asm__("ftruncate64");
#define TL__SAVE_FTRUNCATE(fd, size) tl__save_ftruncate64(fd, (int64_t)(size))
#else
#error "threadlink/save.h: compile with _POSIX_C_SOURCE=200809L (ftruncate is hidden)"
#endif
#elif defined(__GLIBC__) && !defined(__USE_POSIX199309) && !defined(__USE_XOPEN_EXTENDED)
int ftruncate(int fd, off_t size);
#endif
#ifndef TL__SAVE_FTRUNCATE
#define TL__SAVE_FTRUNCATE(fd, size) ftruncate(fd, (off_t)(size))
#endif
#if defined(O_NOFOLLOW)
#define TL__SAVE_O_NOFOLLOW O_NOFOLLOW
#elif defined(__O_NOFOLLOW)
#define TL__SAVE_O_NOFOLLOW __O_NOFOLLOW
#else
#error "threadlink/save.h: the POSIX backend needs O_NOFOLLOW (POSIX.1-2008)"
#endif
#if defined(O_DIRECTORY)
#define TL__SAVE_O_DIRECTORY O_DIRECTORY
#elif defined(__O_DIRECTORY)
#define TL__SAVE_O_DIRECTORY __O_DIRECTORY
#else
#error "threadlink/save.h: the POSIX backend needs O_DIRECTORY (POSIX.1-2008)"
#endif
#if defined(O_CLOEXEC)
#define TL__SAVE_O_CLOEXEC O_CLOEXEC
#elif defined(__O_CLOEXEC)
#define TL__SAVE_O_CLOEXEC __O_CLOEXEC
#else
#define TL__SAVE_O_CLOEXEC 0
#endif
#if defined(AT_REMOVEDIR)
#define TL__SAVE_AT_REMOVEDIR AT_REMOVEDIR
#elif defined(__linux__)
#define TL__SAVE_AT_REMOVEDIR 0x200
#else
#error "threadlink/save.h: the POSIX backend needs AT_REMOVEDIR (POSIX.1-2008)"
#endif

/* 32-bit glibc without -D_FILE_OFFSET_BITS=64 (the program's flags, fixed by its own system
   headers before this one): readdir and fstat fail with EOVERFLOW on an inode number or a folder
   offset past 32 bits (XFS, btrfs, NFS, overlayfs; ext4's offsets under qemu-user). Folders are
   then listed with readdir64, which glibc exports in every build (declared here when its headers
   do not: its struct is the same on every Linux architecture), and a file whose fstat
   overflows has its size from lseek. */
#if defined(__GLIBC__) && !defined(__USE_FILE_OFFSET64) && \
    !(defined(__INO_T_MATCHES_INO64_T) && defined(__OFF_T_MATCHES_OFF64_T))
#define TL__SAVE_NARROW_FILES 1
#if defined(__USE_LARGEFILE64)
typedef struct dirent64 tl__save_dirent;
#define TL__SAVE_READDIR readdir64
#elif defined(__GNUC__)
typedef struct tl__save_dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
} tl__save_dirent;
extern tl__save_dirent *tl__save_readdir64(DIR *dir) __asm__("readdir64");
#define TL__SAVE_READDIR tl__save_readdir64
#else
#error \
    "threadlink/save.h: on 32-bit glibc, compile with -D_FILE_OFFSET_BITS=64 (or _LARGEFILE64_SOURCE): readdir fails on 64-bit inode numbers"
#endif
#else
typedef struct dirent tl__save_dirent;
#define TL__SAVE_READDIR readdir
#endif

static tl_save_io_status tl__save_posix_status(int err, int *native) {
    *native = err;
    switch (err) {
    case 0: return TL_SAVE_IO_OK;
    case ENOENT: return TL_SAVE_IO_NOT_FOUND;
    case EEXIST:
#if defined(ENOTEMPTY) && ENOTEMPTY != EEXIST
    case ENOTEMPTY:
#endif
        return TL_SAVE_IO_EXISTS;
    case ENOSPC:
#if defined(EDQUOT) && EDQUOT != ENOSPC
    case EDQUOT:
#endif
        return TL_SAVE_IO_NO_SPACE;
    case EACCES:
    case EPERM:
    case EROFS: return TL_SAVE_IO_DENIED;
    case ELOOP:   /* O_NOFOLLOW met a link */
    case ENOTDIR: /* a file (or a link) where a folder is expected */
    case EISDIR:  /* a folder where a file is expected */
    case ENXIO:   /* a FIFO without a reader, a device without its driver */
#if defined(EFTYPE)
    case EFTYPE: /* BSDs: O_NOFOLLOW met a link */
#endif
        return TL_SAVE_IO_FOREIGN;
    default: return TL_SAVE_IO_FAILED;
    }
}

/* Handles are fd + 1, so that no handle is NULL (for files and for the root). */
static int tl__save_posix_fd(void *file) { return (int)((intptr_t)file - 1); }
static void *tl__save_posix_handle(int fd) { return (void *)((intptr_t)fd + 1); }

/* openat, retried on EINTR; never through a link, never inherited by a child. */
static int tl__save_posix_openat(int at, const char *name, int flags) {
    int fd;
    do fd = openat(at, name, flags | TL__SAVE_O_NOFOLLOW | TL__SAVE_O_CLOEXEC, 0666);
    while (fd < 0 && errno == EINTR);
    return fd;
}

/* The descriptor of `dir` beneath the root (the root's own for NULL: tl__save_posix_leave keeps
   it open), or -1 with errno: a link there is ELOOP, a file ENOTDIR. */
static int tl__save_posix_enter(void *root, const char *dir) {
    int top = tl__save_posix_fd(root);
    return dir ? tl__save_posix_openat(top, dir, O_RDONLY | TL__SAVE_O_DIRECTORY) : top;
}
static void tl__save_posix_leave(void *root, int fd) {
    if (fd >= 0 && fd != tl__save_posix_fd(root)) close(fd);
}

/* What fstat tells of an open file: its size when it is a regular file; FOREIGN for anything else
   (a FIFO, a device, a folder); LINKED for one opened to be written (not `readable`) that has
   other names: a hard link's other name is a backup's or a file outside the root, which a write in
   place would change too. */
static tl_save_io_status tl__save_posix_check(const struct stat *st, bool readable, uint64_t *size,
                                              int *native) {
    if (!S_ISREG(st->st_mode) || st->st_size < 0) {
        *native = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
        return TL_SAVE_IO_FOREIGN;
    }
    if (!readable && st->st_nlink > 1) {
        *native = EMLINK;
        return TL_SAVE_IO_LINKED;
    }
    *size = (uint64_t)st->st_size;
    return TL_SAVE_IO_OK;
}

/* The size of an open regular file, or FOREIGN, or LINKED (above). */
#ifdef TL__SAVE_NARROW_FILES
/* fstat fails (EOVERFLOW) on a 64-bit inode number or size (above): then the size from lseek (a
   file past 2 GiB fails, as it would with fstat), a FIFO or a socket refused by it (ESPIPE), a
   folder by a read of no bytes (EISDIR on Linux; only a descriptor open for reading can tell),
   and other names cannot be told. Reads seek before they read. */
static tl_save_io_status tl__save_posix_regular(int fd, bool readable, uint64_t *size,
                                                int *native) {
    struct stat st;
    char none;
    off_t end;
    if (fstat(fd, &st) == 0) return tl__save_posix_check(&st, readable, size, native);
    if (errno != EOVERFLOW) return tl__save_posix_status(errno, native);
    if (readable && read(fd, &none, 0) < 0) /* first: lseek on a folder may overflow too */
        return tl__save_posix_status(errno, native);
    end = lseek(fd, 0, SEEK_END);
    if (end < 0) return tl__save_posix_status(errno == ESPIPE ? ENXIO : errno, native);
    *size = (uint64_t)end;
    return TL_SAVE_IO_OK;
}
#else
static tl_save_io_status tl__save_posix_regular(int fd, bool readable, uint64_t *size,
                                                int *native) {
    struct stat st;
    if (fstat(fd, &st) != 0) return tl__save_posix_status(errno, native);
    return tl__save_posix_check(&st, readable, size, native);
}
#endif

/* A regular file's descriptor in blocking mode again (O_NONBLOCK only kept the open from
   waiting on a FIFO). */
static tl_save_io_status tl__save_posix_blocking(int fd, int *native) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        return tl__save_posix_status(errno, native);
    return TL_SAVE_IO_OK;
}

/* Opens name in dir beneath the root as a regular file (flags: the access mode and creation);
   *size: its size. O_NONBLOCK, then fstat: a FIFO is refused, never waited on (as the generator
   opens its inputs, gen/base/fsio.c). */
static tl_save_io_status tl__save_posix_open(void *root, const char *dir, const char *name,
                                             int flags, void **file, uint64_t *size, int *native) {
    tl_save_io_status st;
    uint64_t ignored;
    int at = tl__save_posix_enter(root, dir), fd;
    if (at < 0) return tl__save_posix_status(errno, native);
    fd = tl__save_posix_openat(at, name, flags | O_NONBLOCK);
    st = fd < 0 ? tl__save_posix_status(errno, native) : TL_SAVE_IO_OK;
    tl__save_posix_leave(root, at);
    if (st == TL_SAVE_IO_OK)
        st = tl__save_posix_regular(fd, (flags & (O_WRONLY | O_RDWR)) == 0, size ? size : &ignored,
                                    native);
    if (st == TL_SAVE_IO_OK) st = tl__save_posix_blocking(fd, native);
    if (st == TL_SAVE_IO_OK) *file = tl__save_posix_handle(fd);
    else if (fd >= 0) close(fd);
    return st;
}

static tl_save_io_status tl__save_posix_truncate(void *user, void *file, uint64_t size,
                                                 int *native);

/* Emptied only once it is known to have no other name (O_TRUNC would empty every name's file). */
static tl_save_io_status tl__save_posix_open_write(void *user, void *root, const char *dir,
                                                   const char *name, void **file, int *native) {
    uint64_t size = 0;
    tl_save_io_status st =
        tl__save_posix_open(root, dir, name, O_WRONLY | O_CREAT, file, &size, native);
    if (st != TL_SAVE_IO_OK || size == 0) return st;
    st = tl__save_posix_truncate(user, *file, 0, native);
    if (st != TL_SAVE_IO_OK) close(tl__save_posix_fd(*file));
    return st;
}

static tl_save_io_status tl__save_posix_open_update(void *user, void *root, const char *dir,
                                                    const char *name, void **file, uint64_t *size,
                                                    int *native) {
    (void)user;
    return tl__save_posix_open(root, dir, name, O_WRONLY | O_CREAT, file, size, native);
}

static tl_save_io_status tl__save_posix_open_read(void *user, void *root, const char *dir,
                                                  const char *name, void **file, uint64_t *size,
                                                  int *native) {
    (void)user;
    return tl__save_posix_open(root, dir, name, O_RDONLY, file, size, native);
}

static tl_save_io_status tl__save_posix_write(void *user, void *file, const void *data, size_t size,
                                              int *native) {
    const char *p = (const char *)data;
    (void)user;
    while (size) {
        ssize_t n = write(tl__save_posix_fd(file), p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return tl__save_posix_status(n < 0 ? errno : EIO, native);
        p += n;
        size -= (size_t)n;
    }
    return TL_SAVE_IO_OK;
}

static tl_save_io_status tl__save_posix_fsync(int fd, int *native) {
#ifdef F_FULLFSYNC
    if (fcntl(fd, F_FULLFSYNC) == 0) return TL_SAVE_IO_OK; /* macOS: through the disk's cache */
#endif
    if (fsync(fd) == 0) return TL_SAVE_IO_OK;
    return tl__save_posix_status(errno, native);
}

/* The data and the size, not the times (no inode write for an overwrite in place, on Linux). */
static tl_save_io_status tl__save_posix_sync(void *user, void *file, int *native) {
    int fd = tl__save_posix_fd(file);
    (void)user;
#if defined(__linux__) && !defined(F_FULLFSYNC)
    if (fdatasync(fd) == 0) return TL_SAVE_IO_OK;
    return tl__save_posix_status(errno, native);
#else
    return tl__save_posix_fsync(fd, native);
#endif
}

static tl_save_io_status tl__save_posix_write_at(void *user, void *file, uint64_t offset,
                                                 const void *data, size_t size, int *native) {
    int fd = tl__save_posix_fd(file);
    if ((uint64_t)(off_t)offset != offset || lseek(fd, (off_t)offset, SEEK_SET) < 0)
        return tl__save_posix_status(errno ? errno : EINVAL, native);
    return tl__save_posix_write(user, file, data, size, native);
}

static tl_save_io_status tl__save_posix_truncate(void *user, void *file, uint64_t size,
                                                 int *native) {
    (void)user;
    if ((uint64_t)(off_t)size != size) return tl__save_posix_status(EINVAL, native);
    while (TL__SAVE_FTRUNCATE(tl__save_posix_fd(file), size) != 0)
        if (errno != EINTR) return tl__save_posix_status(errno, native);
    return TL_SAVE_IO_OK;
}

static tl_save_io_status tl__save_posix_read(void *user, void *file, uint64_t offset, void *dst,
                                             size_t size, int *native) {
    int fd = tl__save_posix_fd(file);
    char *p = (char *)dst;
    (void)user;
    if ((uint64_t)(off_t)offset != offset || lseek(fd, (off_t)offset, SEEK_SET) < 0)
        return tl__save_posix_status(errno ? errno : EINVAL, native);
    while (size) {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return tl__save_posix_status(n < 0 ? errno : EIO, native);
        p += n;
        size -= (size_t)n;
    }
    return TL_SAVE_IO_OK;
}

static tl_save_io_status tl__save_posix_close(void *user, void *file, int *native) {
    (void)user;
    if (close(tl__save_posix_fd(file)) == 0 || errno == EINTR) return TL_SAVE_IO_OK;
    return tl__save_posix_status(errno, native);
}

/* The root by its path (a link there is the caller's choice, followed once): created when
   missing, then held open; everything else is reached beneath this descriptor. */
static tl_save_io_status tl__save_posix_open_root(void *user, const char *path, void **root,
                                                  int *native) {
    int fd;
    (void)user;
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return tl__save_posix_status(errno, native);
    do fd = open(path, O_RDONLY | TL__SAVE_O_DIRECTORY | TL__SAVE_O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return tl__save_posix_status(errno, native);
    *root = tl__save_posix_handle(fd);
    return TL_SAVE_IO_OK;
}

static void tl__save_posix_close_root(void *user, void *root) {
    (void)user;
    close(tl__save_posix_fd(root));
}

static tl_save_io_status tl__save_posix_mkdir(void *user, void *root, const char *name,
                                              int *native) {
    (void)user;
    return mkdirat(tl__save_posix_fd(root), name, 0777) == 0 ? TL_SAVE_IO_OK
                                                             : tl__save_posix_status(errno, native);
}

static tl_save_io_status tl__save_posix_sync_dir(void *user, void *root, const char *dir,
                                                 int *native) {
    tl_save_io_status st;
    int fd = tl__save_posix_enter(root, dir);
    (void)user;
    if (fd < 0) return tl__save_posix_status(errno, native);
    st = tl__save_posix_fsync(fd, native);
    if (st != TL_SAVE_IO_OK && *native == EINVAL) st = TL_SAVE_IO_OK; /* no directory sync here */
    tl__save_posix_leave(root, fd);
    return st;
}

/* Whether name in the folder `at` is the kind of entry the store makes there: a folder (in the
   root) or a regular file (in a save's folder); never a link, a FIFO or a device. */
static tl_save_io_status tl__save_posix_own(int at, const char *name, bool folder, int *native) {
    uint64_t size;
    tl_save_io_status st;
    int fd =
        tl__save_posix_openat(at, name, O_RDONLY | (folder ? TL__SAVE_O_DIRECTORY : O_NONBLOCK));
    if (fd < 0) return tl__save_posix_status(errno, native);
    st = folder ? TL_SAVE_IO_OK : tl__save_posix_regular(fd, true, &size, native);
    close(fd);
    return st;
}

static tl_save_io_status tl__save_posix_rename(void *user, void *root, const char *dir,
                                               const char *from, const char *to, int *native) {
    tl_save_io_status st;
    int at = tl__save_posix_enter(root, dir);
    (void)user;
    if (at < 0) return tl__save_posix_status(errno, native);
    st = tl__save_posix_own(at, from, dir == NULL, native);
    if (st == TL_SAVE_IO_OK && renameat(at, from, at, to) != 0)
        st = tl__save_posix_status(errno, native);
    tl__save_posix_leave(root, at);
    return st;
}

static tl_save_io_status tl__save_posix_remove(void *user, void *root, const char *dir,
                                               const char *name, int *native) {
    tl_save_io_status st;
    int at = tl__save_posix_enter(root, dir);
    (void)user;
    if (at < 0) return tl__save_posix_status(errno, native);
    st = tl__save_posix_own(at, name, false, native);
    if (st == TL_SAVE_IO_OK && unlinkat(at, name, 0) != 0)
        st = tl__save_posix_status(errno, native);
    tl__save_posix_leave(root, at);
    return st;
}

/* unlinkat never follows a link: one is ENOTDIR (FOREIGN). */
static tl_save_io_status tl__save_posix_rmdir(void *user, void *root, const char *name,
                                              int *native) {
    (void)user;
    return unlinkat(tl__save_posix_fd(root), name, TL__SAVE_AT_REMOVEDIR) == 0
               ? TL_SAVE_IO_OK
               : tl__save_posix_status(errno, native);
}

static tl_save_io_status tl__save_posix_list(void *user, void *root, const char *dir,
                                             tl_save_io_entry_fn each, void *ctx, int *native) {
    int fd = tl__save_posix_openat(tl__save_posix_fd(root), dir ? dir : ".",
                                   O_RDONLY | TL__SAVE_O_DIRECTORY);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    tl__save_dirent *e;
    (void)user;
    if (!d) {
        int err = errno;
        if (fd >= 0) close(fd);
        return tl__save_posix_status(err, native);
    }
    errno = 0;
    while ((e = TL__SAVE_READDIR(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) each(ctx, e->d_name);
        errno = 0;
    }
    if (errno) {
        int err = errno;
        closedir(d);
        return tl__save_posix_status(err, native);
    }
    closedir(d);
    return TL_SAVE_IO_OK;
}

tl_save_io tl_save_io_posix(void) {
    tl_save_io io;
    memset(&io, 0, sizeof io);
    io.open_root = tl__save_posix_open_root;
    io.close_root = tl__save_posix_close_root;
    io.open_write = tl__save_posix_open_write;
    io.write = tl__save_posix_write;
    io.sync = tl__save_posix_sync;
    io.open_read = tl__save_posix_open_read;
    io.read = tl__save_posix_read;
    io.close = tl__save_posix_close;
    io.mkdir = tl__save_posix_mkdir;
    io.sync_dir = tl__save_posix_sync_dir;
    io.rename = tl__save_posix_rename;
    io.remove = tl__save_posix_remove;
    io.rmdir = tl__save_posix_rmdir;
    io.list = tl__save_posix_list;
    io.open_update = tl__save_posix_open_update;
    io.write_at = tl__save_posix_write_at;
    io.truncate = tl__save_posix_truncate;
    return io;
}
#endif /* !_WIN32 */

/* --- opening: cleanup of interrupted transactions and deletes ------------------------------------ */

/* Every member, open_update, write_at and truncate aside (all three or none). */
static bool tl__save_io_complete(const tl_save_io *io) {
    bool update = io->open_update && io->write_at && io->truncate;
    return io->open_root && io->close_root && io->open_write && io->write && io->sync &&
           io->open_read && io->read && io->close && io->mkdir && io->sync_dir && io->rename &&
           io->remove && io->rmdir && io->list &&
           (update || (!io->open_update && !io->write_at && !io->truncate));
}

static bool tl__save_names_has(const tl__save_names *l, const char *name) {
    size_t i;
    for (i = 0; i < l->count; i++)
        if (strcmp(l->names[i], name) == 0) return true;
    return false;
}

static void tl__save_cleanup_failed(tl_save_store *s, const char *path, tl_save_io_status st,
                                    int native) {
    tl__save_log(&s->logger, TL_SAVE_LOG_CLEANUP_FAILED, path, tl__save_io_message(st, native),
                 native);
}

/* What a cleanup step left, logged: a link or a special file (not followed), a folder holding
   someone else's files (they stay), or a failure. */
static void tl__save_cleanup_report(tl_save_store *s, const char *dir, const char *name,
                                    tl_save_io_status st, int native) {
    const char *path = tl__save_path(s, 0, dir, name);
    if (st == TL_SAVE_IO_OK || st == TL_SAVE_IO_NOT_FOUND) return;
    if (st == TL_SAVE_IO_FOREIGN) tl__save_log(&s->logger, TL_SAVE_LOG_FOREIGN, path);
    else if (st == TL_SAVE_IO_EXISTS) tl__save_log(&s->logger, TL_SAVE_LOG_KEPT, path);
    else tl__save_cleanup_failed(s, path, st, native);
}

/* Writes `bytes` into an open file (at its start with write_at when `at`, else appended), syncs
   and closes it; *op: the step that failed, for the log line. */
static tl_save_io_status tl__save_fill(tl_save_store *s, void *f, bool at, const void *bytes,
                                       size_t size, const char **op, int *native) {
    int closing = 0;
    tl_save_io_status st = TL_SAVE_IO_OK;
    *op = "write";
    if (size)
        st = at ? s->io.write_at(s->io.user, f, 0, bytes, size, native)
                : s->io.write(s->io.user, f, bytes, size, native);
    if (st == TL_SAVE_IO_OK) {
        *op = "sync";
        st = s->io.sync(s->io.user, f, native);
    }
    if (st == TL_SAVE_IO_OK) {
        *op = "close";
        return s->io.close(s->io.user, f, native);
    }
    (void)s->io.close(s->io.user, f, &closing);
    return st;
}

/* Writes `bytes` as the whole file name of dir (created or emptied) and syncs it; *op (op may be
   NULL): the step that failed. */
static tl_save_io_status tl__save_write_file(tl_save_store *s, const char *dir, const char *name,
                                             const void *bytes, size_t size, const char **op,
                                             int *native) {
    void *f = NULL;
    const char *step = "open";
    tl_save_io_status st = s->io.open_write(s->io.user, s->top, dir, name, &f, native);
    if (st == TL_SAVE_IO_OK) st = tl__save_fill(s, f, false, bytes, size, &step, native);
    if (op) *op = step;
    return st;
}

/* `next` written whole and synced. One with other names (a hard link put there) is removed, never
   written through: that removes only its name here. */
static tl_save_io_status tl__save_write_next(tl_save_store *s, const char *dir, const void *bytes,
                                             size_t size, const char **op, int *native) {
    tl_save_io_status st = tl__save_write_file(s, dir, "next", bytes, size, op, native);
    if (st != TL_SAVE_IO_LINKED) return st;
    *op = "remove";
    st = s->io.remove(s->io.user, s->top, dir, "next", native);
    return st == TL_SAVE_IO_OK ? tl__save_write_file(s, dir, "next", bytes, size, op, native) : st;
}

/* A version 1 generation file's bytes (`current`, `previous`) behind a slot header: the header
   verifies when its manifest does; a damaged one keeps a header that never verifies (its bytes
   stay for the record). *slot: a new block (TL_FREE), *size its bytes. */
static tl_save_io_status tl__save_migrate_read(tl_save_store *s, const char *id, const char *name,
                                               unsigned char **slot, size_t *total, int *native) {
    tl__save_manifest m;
    const char *why;
    uint64_t size = 0, offset, length;
    void *f = NULL;
    unsigned char *body;
    tl_save_io_status st = s->io.open_read(s->io.user, s->top, id, name, &f, &size, native);
    if (st != TL_SAVE_IO_OK) return st;
    *slot = size < s->max_read_bytes
                ? (unsigned char *)tl__save_alloc((size_t)size + TL__SAVE_HEADER_BYTES)
                : NULL;
    body = *slot ? *slot + TL__SAVE_HEADER_BYTES : NULL;
    st = body ? (size ? s->io.read(s->io.user, f, 0, body, (size_t)size, native) : TL_SAVE_IO_OK)
              : TL_SAVE_IO_FAILED;
    (void)s->io.close(s->io.user, f, native);
    if (st != TL_SAVE_IO_OK) return st;
    memset(*slot, 0, TL__SAVE_HEADER_BYTES);
    if (size >= TL__SAVE_TRAILER_BYTES &&
        tl__save_trailer(body + size - TL__SAVE_TRAILER_BYTES, size, &offset, &length, &why) &&
        tl__save_manifest_parse((const char *)body + offset, (size_t)length, offset, &m, &why)) {
        tl__save_header_put(*slot, m.generation, size, body + offset, (size_t)length);
        tl__save_manifest_free(&m);
    }
    *total = (size_t)size + TL__SAVE_HEADER_BYTES;
    return TL_SAVE_IO_OK;
}

/* A version 1 generation file rewritten as slot k. */
static tl_save_io_status tl__save_migrate_file(tl_save_store *s, const char *id, const char *name,
                                               int k, int *native) {
    unsigned char *slot = NULL;
    size_t total = 0;
    tl_save_io_status st = tl__save_migrate_read(s, id, name, &slot, &total, native);
    if (st == TL_SAVE_IO_OK)
        st = tl__save_write_file(s, id, tl__save_slot_name(k), slot, total, NULL, native);
    if (slot) TL_FREE(slot);
    return st;
}

/* A save folder of the version 1 layout becomes two slots. The old files go only once both slots
   and the folder are synced, `previous` first: a migration stopped anywhere is done again from
   what is left (a `current` still there is rewritten to gen0, a `previous` to gen1). */
static tl_save_io_status tl__save_migrate(tl_save_store *s, const char *id,
                                          const tl__save_names *names, int *native) {
    static const char *const old[2] = { "current", "previous" };
    tl_save_io_status st = TL_SAVE_IO_OK;
    int k;
    for (k = 0; k < 2 && st == TL_SAVE_IO_OK; k++)
        if (tl__save_names_has(names, old[k])) st = tl__save_migrate_file(s, id, old[k], k, native);
    if (st == TL_SAVE_IO_OK) st = s->io.sync_dir(s->io.user, s->top, id, native);
    for (k = 1; k >= 0 && st == TL_SAVE_IO_OK; k--) {
        if (tl__save_names_has(names, old[k]))
            st = s->io.remove(s->io.user, s->top, id, old[k], native);
    }
    if (st == TL_SAVE_IO_OK) st = s->io.sync_dir(s->io.user, s->top, id, native);
    return st;
}

/* Whether a save folder holds a generation: gen0 (only a finished first commit renames it in) or
   a gen1 with bytes. */
static bool tl__save_has_slots(tl_save_store *s, const char *id, const tl__save_names *names) {
    void *f = NULL;
    uint64_t size = 0;
    int native = 0;
    if (tl__save_names_has(names, "gen0")) return true;
    if (!tl__save_names_has(names, "gen1") ||
        s->io.open_read(s->io.user, s->top, id, "gen1", &f, &size, &native) != TL_SAVE_IO_OK)
        return false;
    (void)s->io.close(s->io.user, f, &native);
    return size > 0;
}

/* One save folder after a crash: drop `next`; migrate the version 1 layout; a folder with no
   generation goes (what the store did not make in it stays, and so does the folder, quietly: a
   folder of someone's files). A link or a file named like a save is logged, never followed. */
static void tl__save_cleanup_save(tl_save_store *s, const char *id) {
    tl__save_names names;
    int native = 0;
    tl_save_io_status st = tl__save_list(s, id, &names, &native);
    if (st != TL_SAVE_IO_OK) {
        tl__save_cleanup_report(s, id, NULL, st, native);
        return;
    }
    if (tl__save_names_has(&names, "next")) {
        st = s->io.remove(s->io.user, s->top, id, "next", &native);
        if (st == TL_SAVE_IO_OK)
            tl__save_log(&s->logger, TL_SAVE_LOG_CLEANED, id, "removed an interrupted transaction");
        tl__save_cleanup_report(s, id, "next", st, native);
    }
    if (tl__save_names_has(&names, "current") || tl__save_names_has(&names, "previous")) {
        st = tl__save_migrate(s, id, &names, &native);
        if (st == TL_SAVE_IO_OK)
            tl__save_log(&s->logger, TL_SAVE_LOG_CLEANED, id, "migrated to the two-slot layout");
        tl__save_cleanup_report(s, id, NULL, st, native);
    } else if (!tl__save_has_slots(s, id, &names)) {
        st = tl__save_remove_folder(s, id, &native);
        if (st != TL_SAVE_IO_EXISTS) tl__save_cleanup_report(s, id, NULL, st, native);
    }
    tl__save_names_free(&names);
}

/* The root after a crash: interrupted deletes (`.deleted.*`) and every save folder. */
static tl__save_status tl__save_cleanup(tl_save_store *s) {
    tl__save_names names;
    int native = 0;
    size_t i;
    tl_save_io_status st = tl__save_list(s, NULL, &names, &native);
    if (st != TL_SAVE_IO_OK) return tl__save_result(tl__save_io_code(st), native);
    for (i = 0; i < names.count; i++) {
        const char *name = names.names[i];
        if (strncmp(name, ".deleted.", 9) == 0) {
            st = tl__save_remove_folder(s, name, &native);
            tl__save_cleanup_report(s, name, NULL, st, native);
        } else if (tl_save_id_valid(name)) {
            tl__save_cleanup_save(s, name);
        }
    }
    tl__save_names_free(&names);
    return tl__save_ok();
}

static void tl__save_store_free(tl_save_store *s) {
    uint32_t i;
    for (i = 0; i < s->cache_count; i++) tl__save_manifest_free(&s->cache[i].manifest);
    for (i = 0; i < s->slot_count; i++) {
        tl__save_manifest_free(&s->slots[i].manifest);
        if (s->slots[i].buf) TL_FREE(s->slots[i].buf);
    }
    if (s->top_open) s->io.close_root(s->io.user, s->top);
    if (s->cache) TL_FREE(s->cache);
    if (s->slots) TL_FREE(s->slots);
    if (s->chunk) TL_FREE(s->chunk);
    if (s->path[0]) TL_FREE(s->path[0]);
    if (s->path[1]) TL_FREE(s->path[1]);
    if (s->root) TL_FREE(s->root);
    TL_FREE(s);
}

/* The store with its defaults applied (tl_save_store_desc lists them); NULL when out of memory. */
static tl_save_store *tl__save_store_new(const tl_save_store_desc *desc) {
    tl_save_store *s = (tl_save_store *)tl__save_alloc(sizeof *s);
    size_t n = strlen(desc->root);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->logger = desc->logger;
    s->io = desc->io;
#if !defined(_WIN32)
    if (!tl__save_io_complete(&s->io)) s->io = tl_save_io_posix();
#endif
    s->max_read_bytes = desc->max_read_bytes ? desc->max_read_bytes : (uint64_t)1 << 30;
    while (n > 1 && desc->root[n - 1] == '/') n--;
    s->root_len = n;
    s->root = (char *)tl__save_alloc(n + 1);
    s->path[0] = (char *)tl__save_alloc(n + 2 * (TL_SAVE_ID_MAX + 16));
    s->path[1] = (char *)tl__save_alloc(n + 2 * (TL_SAVE_ID_MAX + 16));
    s->chunk = (unsigned char *)tl__save_alloc(TL__SAVE_CHUNK);
    if (!s->root || !s->path[0] || !s->path[1] || !s->chunk) {
        tl__save_store_free(s);
        return NULL;
    }
    memcpy(s->root, desc->root, n);
    s->root[n] = '\0';
    return s;
}

/* tl_save_store_open's failure: logged, told through its detail; NULL. */
static tl_save_store *tl__save_open_failed(tl_save_open_detail *detail, tl_save_result result,
                                           int native) {
    if (detail) {
        detail->result = result;
        detail->native_error = native;
    }
    return NULL;
}

tl_save_store *tl_save_store_open(const tl_save_store_desc *desc, tl_save_open_detail *detail) {
    tl_save_store *s;
    tl__save_status r;
    int native = 0;
    tl_save_io_status st;
    const tl_logger *logger = desc ? &desc->logger : NULL;
    if (detail) memset(detail, 0, sizeof *detail);
    if (!desc || !desc->root || !desc->root[0]) {
        tl__save_log(logger, TL_SAVE_LOG_OPEN_FAILED, "(no root)", "desc.root is required", 0);
        return tl__save_open_failed(detail, TL_SAVE_INVALID_ARGUMENT, 0);
    }
#if defined(_WIN32)
    if (!tl__save_io_complete(&desc->io)) {
        tl__save_log(logger, TL_SAVE_LOG_OPEN_FAILED, desc->root,
                     "no built-in backend on Windows: give desc.io (every member)", 0);
        return tl__save_open_failed(detail, TL_SAVE_INVALID_ARGUMENT, 0);
    }
#endif
    s = tl__save_store_new(desc);
    if (!s) {
        tl__save_log(logger, TL_SAVE_LOG_OUT_OF_MEMORY, "store");
        return tl__save_open_failed(detail, TL_SAVE_OUT_OF_MEMORY, 0);
    }
    st = s->io.open_root(s->io.user, s->root, &s->top, &native);
    if (st != TL_SAVE_IO_OK) {
        tl__save_log(logger, TL_SAVE_LOG_OPEN_FAILED, desc->root,
                     "cannot create the folder (or open it)", native);
        tl__save_store_free(s);
        return tl__save_open_failed(detail, tl__save_io_code(st), native);
    }
    s->top_open = true;
    r = tl__save_cleanup(s);
    if (r.code != TL_SAVE_OK) {
        tl__save_log(logger, TL_SAVE_LOG_OPEN_FAILED, desc->root, "cannot list the folder",
                     r.native);
        tl__save_store_free(s);
        return tl__save_open_failed(detail, r.code, r.native);
    }
    return s;
}

/* --- transactions -------------------------------------------------------------------------------------- */

static tl__save_slot *tl__save_slot_of(const tl_save_txn *txn) {
    tl__save_slot *slot;
    if (!txn || !txn->store || txn->slot >= txn->store->slot_count) return NULL;
    slot = &txn->store->slots[txn->slot];
    return slot->active && slot->gen == txn->gen ? slot : NULL;
}

static bool tl__save_busy(const tl_save_store *s, const char *id) {
    uint32_t i;
    for (i = 0; i < s->slot_count; i++)
        if (s->slots[i].active && strcmp(s->slots[i].id, id) == 0) return true;
    return false;
}

/* A free slot (growing the table); NULL when out of memory. */
static tl__save_slot *tl__save_slot_new(tl_save_store *s) {
    uint32_t i, cap;
    tl__save_slot *grown;
    for (i = 0; i < s->slot_count; i++)
        if (!s->slots[i].active) return &s->slots[i];
    cap = s->slot_count ? s->slot_count * 2 : 4;
    grown = (tl__save_slot *)tl__save_alloc(cap * sizeof *grown);
    if (!grown) return NULL;
    memset(grown, 0, cap * sizeof *grown);
    if (s->slot_count) memcpy(grown, s->slots, s->slot_count * sizeof *grown);
    if (s->slots) TL_FREE(s->slots);
    s->slots = grown;
    i = s->slot_count;
    s->slot_count = cap;
    return &s->slots[i];
}

/* Ends a transaction (its buffer stays for the slot's next one). */
static void tl__save_slot_end(tl__save_slot *slot) {
    tl__save_manifest_free(&slot->manifest);
    slot->active = false;
    slot->cap = 0;
    slot->gen++;
}

static tl__save_status tl__save_begin_status(tl_save_store *store, const char *save_id,
                                             tl_save_txn *txn) {
    tl__save_slot *slot;
    tl__save_cached *cached;
    tl__save_layout layout;
    tl__save_status resolved;
    if (txn) memset(txn, 0, sizeof *txn);
    if (!store || !txn)
        return tl__save_refuse(store, "tl_save_begin", save_id, TL_SAVE_INVALID_ARGUMENT);
    if (!tl_save_id_valid(save_id))
        return tl__save_refuse(store, "tl_save_begin", save_id, TL_SAVE_INVALID_ID);
    if (tl__save_busy(store, save_id))
        return tl__save_refuse(store, "tl_save_begin", save_id, TL_SAVE_BUSY);
    resolved = tl__save_resolve(store, save_id, &cached, &layout);
    if (tl__save_unsure(resolved.code) || resolved.code == TL_SAVE_FOREIGN) return resolved;
    slot = tl__save_slot_new(store);
    if (!slot) return tl__save_refuse(store, "tl_save_begin", save_id, TL_SAVE_OUT_OF_MEMORY);
    memcpy(slot->id, save_id, strlen(save_id) + 1);
    slot->layout = layout;
    slot->failed = false;
    slot->written = 0;
    memset(&slot->manifest, 0, sizeof slot->manifest);
    slot->manifest.generation = tl__save_next_generation(layout.seen);
    slot->active = true;
    txn->store = store;
    txn->slot = (uint32_t)(slot - store->slots);
    txn->gen = slot->gen;
    return tl__save_ok();
}

tl_save_result tl_save_begin(tl_save_store *store, const char *save_id, tl_save_txn *txn) {
    return tl__save_done(store, tl__save_begin_status(store, save_id, txn));
}

/* Room in the slot's buffer for `more` bytes after the header and the files it holds. */
static bool tl__save_slot_reserve(tl__save_slot *slot, uint64_t more) {
    uint64_t need = TL__SAVE_HEADER_BYTES + slot->written + more;
    size_t cap;
    unsigned char *grown;
    if (need <= slot->buf_cap) return true;
    if (need > (uint64_t)(SIZE_MAX / 2)) return false;
    cap = slot->buf_cap ? slot->buf_cap : 4096;
    while (cap < need) cap *= 2;
    grown = (unsigned char *)tl__save_alloc(cap);
    if (!grown) return false;
    if (slot->written) memcpy(grown, slot->buf, TL__SAVE_HEADER_BYTES + (size_t)slot->written);
    if (slot->buf) TL_FREE(slot->buf);
    slot->buf = grown;
    slot->buf_cap = cap;
    return true;
}

/* Room for one more entry in the slot's manifest (or the entry with that id). */
static tl__save_entry *tl__save_slot_entry(tl__save_slot *slot, const char *id) {
    tl__save_manifest *m = &slot->manifest;
    uint32_t i;
    for (i = 0; i < m->count; i++)
        if (strcmp(m->entries[i].id, id) == 0) return &m->entries[i];
    if (m->count == TL_SAVE_MAX_FILES) return NULL;
    if (m->count == slot->cap) {
        uint32_t cap = slot->cap ? slot->cap * 2 : 8;
        tl__save_entry *grown = (tl__save_entry *)tl__save_alloc(cap * sizeof *grown);
        if (!grown) return NULL;
        if (m->count) memcpy(grown, m->entries, m->count * sizeof *grown);
        if (m->entries) TL_FREE(m->entries);
        m->entries = grown;
        slot->cap = cap;
    }
    memcpy(m->entries[m->count].id, id, strlen(id) + 1);
    return &m->entries[m->count++];
}

static tl__save_status tl__save_txn_write_status(tl_save_txn *txn, const char *file_id,
                                                 const void *bytes, size_t size) {
    tl__save_slot *slot = tl__save_slot_of(txn);
    tl_save_store *s = txn ? txn->store : NULL;
    tl__save_entry *e;
    if (!slot)
        return tl__save_refuse(s, "tl_save_txn_write", file_id,
                               txn && txn->store ? TL_SAVE_STALE : TL_SAVE_INVALID_ARGUMENT);
    if (!tl_save_id_valid(file_id))
        return tl__save_refuse(s, "tl_save_txn_write", file_id, TL_SAVE_INVALID_ID);
    if (!bytes && size)
        return tl__save_refuse(s, "tl_save_txn_write", file_id, TL_SAVE_INVALID_ARGUMENT);
    if (slot->failed) return tl__save_refuse(s, "tl_save_txn_write", file_id, TL_SAVE_ABORTED);
    e = tl__save_slot_entry(slot, file_id);
    if (!e) {
        slot->failed = true;
        return tl__save_refuse(s, "tl_save_txn_write", file_id,
                               slot->manifest.count == TL_SAVE_MAX_FILES ? TL_SAVE_TOO_LARGE
                                                                         : TL_SAVE_OUT_OF_MEMORY);
    }
    if (!tl__save_slot_reserve(slot, (uint64_t)size)) {
        slot->failed = true;
        return tl__save_refuse(s, "tl_save_txn_write", file_id, TL_SAVE_OUT_OF_MEMORY);
    }
    if (size) memcpy(slot->buf + TL__SAVE_HEADER_BYTES + slot->written, bytes, size);
    e->offset = slot->written;
    e->size = (uint64_t)size;
    e->hash = tl_hash64(bytes, size, 0);
    slot->written += (uint64_t)size;
    return tl__save_ok();
}

tl_save_result tl_save_txn_write(tl_save_txn *txn, const char *file_id, const void *bytes,
                                 size_t size) {
    return tl__save_done(txn ? txn->store : NULL,
                         tl__save_txn_write_status(txn, file_id, bytes, size));
}

static tl__save_status tl__save_txn_set_timestamp_status(tl_save_txn *txn, int64_t timestamp) {
    tl__save_slot *slot = tl__save_slot_of(txn);
    if (!slot)
        return tl__save_refuse(txn ? txn->store : NULL, "tl_save_txn_set_timestamp", "",
                               txn && txn->store ? TL_SAVE_STALE : TL_SAVE_INVALID_ARGUMENT);
    slot->manifest.timestamp = timestamp;
    return tl__save_ok();
}

tl_save_result tl_save_txn_set_timestamp(tl_save_txn *txn, int64_t timestamp) {
    return tl__save_done(txn ? txn->store : NULL,
                         tl__save_txn_set_timestamp_status(txn, timestamp));
}

static int tl__save_entry_cmp(const void *a, const void *b) {
    return strcmp(((const tl__save_entry *)a)->id, ((const tl__save_entry *)b)->id);
}

/* Appends the manifest and the trailer to the slot's buffer and fills in the header; *total: the
   slot file's bytes. */
static tl__save_status tl__save_finish(const tl_save_store *s, tl__save_slot *slot, size_t *total) {
    size_t size = 0;
    char *text;
    unsigned char *at;
    if (slot->manifest.count > 1)
        qsort(slot->manifest.entries, slot->manifest.count, sizeof *slot->manifest.entries,
              tl__save_entry_cmp);
    text = tl__save_manifest_write(&slot->manifest, slot->written, &size);
    if (!text || !tl__save_slot_reserve(slot, (uint64_t)size)) {
        if (text) TL_FREE(text);
        return tl__save_refuse(s, "tl_save_txn_commit", slot->id, TL_SAVE_OUT_OF_MEMORY);
    }
    at = slot->buf + TL__SAVE_HEADER_BYTES + slot->written;
    memcpy(at, text, size);
    TL_FREE(text);
    tl__save_header_put(slot->buf, slot->manifest.generation, slot->written + size, at,
                        size - TL__SAVE_TRAILER_BYTES);
    *total = TL__SAVE_HEADER_BYTES + (size_t)slot->written + size;
    return tl__save_ok();
}

/* How far a commit got, for its undo: the slot written (k), the size it held, whether it was
   opened for writing (or replaced), whether the commit made the save's folder, whether it wrote
   `next` to replace the slot and renamed it in; for the log line, the step that failed and its
   file. */
typedef struct tl__save_progress {
    int k;
    uint64_t held;
    bool touched, created, fresh, replaced;
    const char *op, *file;
} tl__save_progress;

/* A slot file with other names (hard links: a backup's, a file outside the root) is never written
   in place: the generation goes whole into `next`, synced, renamed over the slot, which leaves the
   file the other names name as it was; the folder is synced after (replaced), as for a first
   commit. */
static tl_save_io_status tl__save_replace_slot(tl_save_store *s, const char *dir,
                                               tl__save_progress *p, const void *bytes, size_t size,
                                               int *native) {
    tl_save_io_status st;
    p->fresh = true;
    p->file = "next";
    st = tl__save_write_next(s, dir, bytes, size, &p->op, native);
    if (st != TL_SAVE_IO_OK) return st;
    p->op = "rename";
    st = s->io.rename(s->io.user, s->top, dir, "next", tl__save_slot_name(p->k), native);
    if (st == TL_SAVE_IO_OK) p->touched = p->replaced = true;
    /* `next` was just written there: its folder did not go away (tl__save_publish_over's gone) */
    return st == TL_SAVE_IO_NOT_FOUND ? TL_SAVE_IO_FAILED : st;
}

/* Writes a slot file's bytes over it in place and syncs them (without open_update, rewrites it);
   one with other names is replaced instead. */
static tl_save_io_status tl__save_write_slot(tl_save_store *s, const char *dir,
                                             tl__save_progress *p, const void *bytes, size_t size,
                                             int *native) {
    const char *name = tl__save_slot_name(p->k);
    void *f = NULL;
    tl_save_io_status st;
    p->file = name;
    if (!s->io.open_update) {
        st = tl__save_write_file(s, dir, name, bytes, size, &p->op, native);
        if (st == TL_SAVE_IO_LINKED) return tl__save_replace_slot(s, dir, p, bytes, size, native);
        p->touched = true; /* open_write empties it first */
        return st;
    }
    p->op = "open";
    st = s->io.open_update(s->io.user, s->top, dir, name, &f, &p->held, native);
    if (st == TL_SAVE_IO_LINKED) return tl__save_replace_slot(s, dir, p, bytes, size, native);
    if (st != TL_SAVE_IO_OK) return st; /* nothing written: nothing to undo */
    p->touched = true;
    return tl__save_fill(s, f, true, bytes, size, &p->op, native);
}

/* A save's first commit: the generation written whole as `next`, then renamed to gen0, so that
   gen0 is there complete or not at all. gen1 waits for the second commit. */
static tl__save_status tl__save_publish_first(tl_save_store *s, tl__save_slot *slot, size_t total) {
    int native = 0;
    const char *op = "write";
    tl_save_io_status st = tl__save_write_next(s, slot->id, slot->buf, total, &op, &native);
    if (st == TL_SAVE_IO_OK) {
        op = "rename";
        st = s->io.rename(s->io.user, s->top, slot->id, "next", "gen0", &native);
    }
    if (st == TL_SAVE_IO_OK) return tl__save_ok();
    return tl__save_io_fail(s, slot->id, op, tl__save_path(s, 0, slot->id, "next"), st, native);
}

/* Later commits: over slot k in place (created by the save's second commit). *gone: the save's
   folder went away behind the store (nothing written, nothing reported). */
static tl__save_status tl__save_publish_over(tl_save_store *s, tl__save_slot *slot,
                                             tl__save_progress *p, size_t total, bool *gone) {
    int native = 0;
    tl_save_io_status st = tl__save_write_slot(s, slot->id, p, slot->buf, total, &native);
    if (st == TL_SAVE_IO_OK) return tl__save_ok();
    /* (open_update makes a missing slot file: one that finds nothing found no folder) */
    *gone = st == TL_SAVE_IO_NOT_FOUND && !p->touched && slot->layout.dir_synced;
    if (*gone) return tl__save_ok();
    return tl__save_io_fail(s, slot->id, p->op, tl__save_path(s, 0, slot->id, p->file), st, native);
}

/* The save's folder synced, and the root when the commit made the folder. */
static tl__save_status tl__save_sync_folder(tl_save_store *s, const char *id, bool created) {
    int native = 0;
    tl_save_io_status st = s->io.sync_dir(s->io.user, s->top, id, &native);
    if (st == TL_SAVE_IO_OK && created) st = s->io.sync_dir(s->io.user, s->top, NULL, &native);
    if (st == TL_SAVE_IO_OK) return tl__save_ok();
    return tl__save_io_fail(s, id, "sync", tl__save_path(s, 0, id, NULL), st, native);
}

/* A later commit that failed after it opened slot k: the slot gets the blank header, so that
   nothing of the new generation that reached the disk ever verifies, and the size it held (a
   full disk's space comes back), synced. The published generation was never touched. */
static tl_save_io_status tl__save_abandon_slot(tl_save_store *s, const char *id,
                                               const tl__save_progress *p, int *native) {
    unsigned char blank[TL__SAVE_HEADER_BYTES];
    const char *name = tl__save_slot_name(p->k);
    uint64_t size = 0;
    void *f = NULL;
    tl_save_io_status st;
    tl__save_blank_put(blank);
    if (!s->io.open_update)
        return tl__save_write_file(s, id, name, blank, sizeof blank, NULL, native);
    st = s->io.open_update(s->io.user, s->top, id, name, &f, &size, native);
    if (st != TL_SAVE_IO_OK) return st;
    st = s->io.write_at(s->io.user, f, 0, blank, sizeof blank, native);
    if (st == TL_SAVE_IO_OK)
        st = s->io.truncate(s->io.user, f, p->held > sizeof blank ? p->held : sizeof blank, native);
    if (st == TL_SAVE_IO_OK) st = s->io.sync(s->io.user, f, native);
    if (st == TL_SAVE_IO_OK) return s->io.close(s->io.user, f, native);
    (void)s->io.close(s->io.user, f, native);
    return st;
}

/* A first commit that failed leaves no save: the files it made go (`next`, gen0 once renamed in),
   then the folder if it made it, the removals synced. */
static tl_save_io_status tl__save_undo_first(tl_save_store *s, const tl__save_slot *slot,
                                             const tl__save_progress *p, int *native) {
    static const char *const made[2] = { "next", "gen0" };
    tl_save_io_status st = TL_SAVE_IO_OK;
    int i;
    for (i = 0; i < 2 && st == TL_SAVE_IO_OK; i++) {
        st = s->io.remove(s->io.user, s->top, slot->id, made[i], native);
        if (st == TL_SAVE_IO_NOT_FOUND) st = TL_SAVE_IO_OK;
    }
    if (st == TL_SAVE_IO_OK && p->created) {
        st = s->io.rmdir(s->io.user, s->top, slot->id, native);
        return st == TL_SAVE_IO_OK ? s->io.sync_dir(s->io.user, s->top, NULL, native) : st;
    }
    return st == TL_SAVE_IO_OK ? s->io.sync_dir(s->io.user, s->top, slot->id, native) : st;
}

/* A slot's replacement that failed before its rename: the `next` it wrote goes (the slot itself
   was not touched). */
static tl_save_io_status tl__save_drop_next(tl_save_store *s, const char *id, int *native) {
    tl_save_io_status st = s->io.remove(s->io.user, s->top, id, "next", native);
    return st == TL_SAVE_IO_NOT_FOUND ? TL_SAVE_IO_OK : st;
}

/* After a failed commit, the disk made to hold the published generation again (logged when it
   cannot be: the store's cache still returns the old one). */
static void tl__save_undo(tl_save_store *s, const tl__save_slot *slot, const tl__save_progress *p,
                          bool first) {
    int native = 0;
    tl_save_io_status st = TL_SAVE_IO_OK;
    if (first) st = tl__save_undo_first(s, slot, p, &native);
    else if (p->touched) st = tl__save_abandon_slot(s, slot->id, p, &native);
    else if (p->fresh) st = tl__save_drop_next(s, slot->id, &native);
    if (st != TL_SAVE_IO_OK && st != TL_SAVE_IO_FOREIGN) /* a link there was never written */
        tl__save_log(&s->logger, TL_SAVE_LOG_UNDO_FAILED, slot->id, "commit",
                     tl__save_io_message(st, native), native);
}

/* The commit point: the new generation in the slot reads do not return, synced. Until this store
   has synced the save's folder once (a first commit, or the first since the store opened: the slot
   files may date from a crash), the folder is created if needed and synced after, and the root too
   when the folder is new; so is it when the commit creates its slot file (a save's first and second
   commits) or replaces it (one with other names). Any failure is undone before it is returned: the
   published generation stays the old one, on disk too. *target: the slot written. */
static tl__save_status tl__save_publish(tl_save_store *s, tl__save_slot *slot, size_t total,
                                        int *target) {
    tl__save_layout *l = &slot->layout;
    tl__save_progress p;
    int native = 0;
    bool first, gone = false;
    tl_save_io_status st;
    tl__save_status r = tl__save_ok();
    memset(&p, 0, sizeof p);
    p.k = *target = l->current < 0 ? 0 : 1 - l->current;
    first = p.k == 0 && !l->exists[0];
    if (!l->dir_synced) {
        st = s->io.mkdir(s->io.user, s->top, slot->id, &native);
        p.created = st == TL_SAVE_IO_OK;
        if (st != TL_SAVE_IO_OK && st != TL_SAVE_IO_EXISTS)
            return tl__save_io_fail(s, slot->id, "mkdir", tl__save_path(s, 0, slot->id, NULL), st,
                                    native);
    }
    r = first ? tl__save_publish_first(s, slot, total)
              : tl__save_publish_over(s, slot, &p, total, &gone);
    /* Deleted by a file manager, a sync client: a generation is whole, so it is committed as the
       save's first, its number going on. */
    if (gone) {
        l->current = -1;
        l->exists[0] = l->exists[1] = l->dir_synced = false;
        return tl__save_publish(s, slot, total, target);
    }
    if (r.code == TL_SAVE_OK && (!l->dir_synced || !l->exists[p.k] || p.replaced))
        r = tl__save_sync_folder(s, slot->id, p.created);
    if (r.code != TL_SAVE_OK) tl__save_undo(s, slot, &p, first);
    return r;
}

static tl__save_status tl__save_txn_commit_status(tl_save_txn *txn) {
    tl__save_slot *slot = tl__save_slot_of(txn);
    tl_save_store *s;
    tl__save_status r;
    size_t total = 0;
    int k = 0;
    if (!slot)
        return tl__save_refuse(txn ? txn->store : NULL, "tl_save_txn_commit", "",
                               txn && txn->store ? TL_SAVE_STALE : TL_SAVE_INVALID_ARGUMENT);
    s = txn->store;
    if (slot->failed) {
        tl__save_slot_end(slot);
        return tl__save_refuse(s, "tl_save_txn_commit", slot->id, TL_SAVE_ABORTED);
    }
    r = tl__save_finish(s, slot, &total);
    /* On failure the cache (if the save had a generation) keeps returning the published one. */
    if (r.code == TL_SAVE_OK) r = tl__save_publish(s, slot, total, &k);
    if (r.code == TL_SAVE_OK) {
        tl__save_layout published = slot->layout;
        published.current = (int8_t)k;
        published.exists[k] = true;
        published.dir_synced = true;
        published.seen = slot->manifest.generation;
        (void)tl__save_cache_put(s, slot->id, &published, false, &slot->manifest);
    }
    tl__save_slot_end(slot);
    return r;
}

tl_save_result tl_save_txn_commit(tl_save_txn *txn) {
    return tl__save_done(txn ? txn->store : NULL, tl__save_txn_commit_status(txn));
}

/* Cannot fail: leaves the store's last result alone, so that the result of a failed write or
   commit is still there after the discard that ends its transaction. */
tl_save_result tl_save_txn_discard(tl_save_txn *txn) {
    tl__save_slot *slot = tl__save_slot_of(txn);
    if (slot) tl__save_slot_end(slot);
    return TL_SAVE_OK;
}

void tl_save_store_close(tl_save_store *store) {
    uint32_t i;
    if (!store) return;
    for (i = 0; i < store->slot_count; i++) {
        if (!store->slots[i].active) continue;
        tl__save_log(&store->logger, TL_SAVE_LOG_TXN_LEFT_OPEN, store->slots[i].id);
        tl__save_slot_end(&store->slots[i]);
    }
    tl__save_store_free(store);
}

/* --- reads, listing, delete ------------------------------------------------------------------------------ */

/* The entry of a file of a save's published generation. */
static tl__save_status tl__save_find_file(tl_save_store *s, const char *call, const char *save_id,
                                          const char *file_id, tl__save_cached **cached,
                                          const tl__save_entry **entry) {
    tl__save_layout layout;
    tl__save_status resolved;
    if (!s) return tl__save_refuse(NULL, call, save_id, TL_SAVE_INVALID_ARGUMENT);
    if (!tl_save_id_valid(save_id)) return tl__save_refuse(s, call, save_id, TL_SAVE_INVALID_ID);
    if (!tl_save_id_valid(file_id)) return tl__save_refuse(s, call, file_id, TL_SAVE_INVALID_ID);
    resolved = tl__save_resolve(s, save_id, cached, &layout);
    if (resolved.code == TL_SAVE_NOT_FOUND) return tl__save_missing(s, call, save_id, NULL);
    if (resolved.code != TL_SAVE_OK) return resolved; /* logged where met */
    *entry = tl__save_manifest_find(&(*cached)->manifest, file_id);
    return *entry ? tl__save_ok() : tl__save_missing(s, call, save_id, file_id);
}

/* Reads an entry's bytes into dst and checks them against the manifest. */
static tl__save_status tl__save_read_entry(tl_save_store *s, const char *save_id,
                                           const tl__save_cached *cached, const tl__save_entry *e,
                                           void *dst) {
    const char *name = tl__save_slot_name(cached->layout.current);
    const char *path = tl__save_path(s, 0, save_id, name);
    void *f = NULL;
    uint64_t size = 0;
    int native = 0;
    tl_save_io_status st = s->io.open_read(s->io.user, s->top, save_id, name, &f, &size, &native);
    if (st != TL_SAVE_IO_OK) return tl__save_io_fail(s, save_id, "open", path, st, native);
    st = e->size ? s->io.read(s->io.user, f, TL__SAVE_HEADER_BYTES + e->offset, dst,
                              (size_t)e->size, &native)
                 : TL_SAVE_IO_OK;
    (void)s->io.close(s->io.user, f, &native);
    if (st != TL_SAVE_IO_OK) return tl__save_io_fail(s, save_id, "read", path, st, native);
    if (tl_hash64(dst, (size_t)e->size, 0) != e->hash) {
        tl__save_log(
            &s->logger, TL_SAVE_LOG_DAMAGED, save_id, e->id,
            "its hash no longer matches the manifest (changed since the store checked it)");
        return tl__save_result(TL_SAVE_CORRUPT, 0);
    }
    return tl__save_ok();
}

static tl__save_status tl__save_read_status(tl_save_store *store, const char *save_id,
                                            const char *file_id, void *buf, size_t cap,
                                            size_t *size) {
    tl__save_cached *cached = NULL;
    const tl__save_entry *e = NULL;
    tl__save_status r;
    if (size) *size = 0;
    if (!buf && cap)
        return tl__save_refuse(store, "tl_save_read", file_id, TL_SAVE_INVALID_ARGUMENT);
    r = tl__save_find_file(store, "tl_save_read", save_id, file_id, &cached, &e);
    if (r.code != TL_SAVE_OK) return r;
    if (e->size > (uint64_t)SIZE_MAX)
        return tl__save_refuse(store, "tl_save_read", file_id, TL_SAVE_TOO_LARGE);
    if (size) *size = (size_t)e->size;
    if (e->size > (uint64_t)cap) {
        tl__save_log(&store->logger, TL_SAVE_LOG_TOO_SMALL, "tl_save_read",
                     tl__save_path(store, 0, save_id, file_id), (unsigned long long)e->size,
                     (unsigned long long)cap);
        return tl__save_result(TL_SAVE_TOO_SMALL, 0);
    }
    return tl__save_read_entry(store, save_id, cached, e, buf);
}

tl_save_result tl_save_read(tl_save_store *store, const char *save_id, const char *file_id,
                            void *buf, size_t cap, size_t *size) {
    return tl__save_done(store, tl__save_read_status(store, save_id, file_id, buf, cap, size));
}

static tl__save_status tl__save_read_alloc_status(tl_save_store *store, const char *save_id,
                                                  const char *file_id, void **data, size_t *size) {
    tl__save_cached *cached = NULL;
    const tl__save_entry *e = NULL;
    tl__save_status r;
    if (size) *size = 0;
    if (!data)
        return tl__save_refuse(store, "tl_save_read_alloc", file_id, TL_SAVE_INVALID_ARGUMENT);
    *data = NULL;
    r = tl__save_find_file(store, "tl_save_read_alloc", save_id, file_id, &cached, &e);
    if (r.code != TL_SAVE_OK) return r;
    if (e->size > store->max_read_bytes || e->size >= (uint64_t)SIZE_MAX)
        return tl__save_refuse(store, "tl_save_read_alloc", file_id, TL_SAVE_TOO_LARGE);
    *data = tl__save_alloc((size_t)e->size);
    if (!*data) return tl__save_refuse(store, "tl_save_read_alloc", file_id, TL_SAVE_OUT_OF_MEMORY);
    r = tl__save_read_entry(store, save_id, cached, e, *data);
    if (r.code != TL_SAVE_OK) {
        TL_FREE(*data);
        *data = NULL;
        return r;
    }
    if (size) *size = (size_t)e->size;
    return r;
}

tl_save_result tl_save_read_alloc(tl_save_store *store, const char *save_id, const char *file_id,
                                  void **data, size_t *size) {
    return tl__save_done(store, tl__save_read_alloc_status(store, save_id, file_id, data, size));
}

static tl__save_status tl__save_stat_status(tl_save_store *store, const char *save_id,
                                            tl_save_info *info) {
    tl__save_cached *cached;
    tl__save_layout layout;
    tl__save_status resolved;
    if (!store || !info)
        return tl__save_refuse(store, "tl_save_stat", save_id, TL_SAVE_INVALID_ARGUMENT);
    memset(info, 0, sizeof *info);
    if (!tl_save_id_valid(save_id))
        return tl__save_refuse(store, "tl_save_stat", save_id, TL_SAVE_INVALID_ID);
    resolved = tl__save_resolve(store, save_id, &cached, &layout);
    if (resolved.code == TL_SAVE_NOT_FOUND)
        return tl__save_missing(store, "tl_save_stat", save_id, NULL);
    if (resolved.code != TL_SAVE_OK) return resolved; /* logged where met */
    tl__save_fill_info(info, &cached->manifest);
    info->from_previous = cached->from_previous;
    memcpy(info->id, save_id, strlen(save_id) + 1);
    return tl__save_ok();
}

tl_save_result tl_save_stat(tl_save_store *store, const char *save_id, tl_save_info *info) {
    return tl__save_done(store, tl__save_stat_status(store, save_id, info));
}

static tl__save_status tl__save_list_status(tl_save_store *store, tl_save_info *out, size_t cap,
                                            size_t *count) {
    tl__save_names names;
    int native = 0;
    size_t i, n = 0;
    tl_save_io_status st;
    if (count) *count = 0;
    if (!store || (!out && cap))
        return tl__save_refuse(store, "tl_save_list", "", TL_SAVE_INVALID_ARGUMENT);
    st = tl__save_list(store, NULL, &names, &native);
    if (st != TL_SAVE_IO_OK) return tl__save_io_fail(store, "", "list", store->root, st, native);
    for (i = 0; i < names.count; i++) {
        tl_save_info info;
        if (!tl_save_id_valid(names.names[i])) continue;
        if (tl__save_stat_status(store, names.names[i], &info).code != TL_SAVE_OK) continue;
        if (n < cap) out[n] = info;
        n++;
    }
    tl__save_names_free(&names);
    if (count) *count = n;
    return tl__save_ok();
}

tl_save_result tl_save_list(tl_save_store *store, tl_save_info *out, size_t cap, size_t *count) {
    return tl__save_done(store, tl__save_list_status(store, out, cap, count));
}

/* A deleted save's folder (`.deleted.<id>`) that still holds files the store did not make goes
   back to the save's id: those files stay where their owner put them, without a generation. */
static void tl__save_delete_finish(tl_save_store *s, const char *save_id, const char *trash) {
    int native = 0;
    tl_save_io_status st = tl__save_remove_folder(s, trash, &native);
    if (st == TL_SAVE_IO_EXISTS) {
        st = s->io.rename(s->io.user, s->top, NULL, trash, save_id, &native);
        if (st == TL_SAVE_IO_OK) st = s->io.sync_dir(s->io.user, s->top, NULL, &native);
        if (st == TL_SAVE_IO_OK) {
            tl__save_log(&s->logger, TL_SAVE_LOG_KEPT, tl__save_path(s, 0, save_id, NULL));
            return;
        }
    }
    tl__save_cleanup_report(s, trash, NULL, st, native);
}

/* A delete that failed before its rename was durable: the folder goes back to its id, synced. */
static void tl__save_delete_undo(tl_save_store *s, const char *save_id, const char *trash) {
    int native = 0;
    tl_save_io_status st = s->io.rename(s->io.user, s->top, NULL, trash, save_id, &native);
    if (st == TL_SAVE_IO_OK) st = s->io.sync_dir(s->io.user, s->top, NULL, &native);
    if (st != TL_SAVE_IO_OK)
        tl__save_log(&s->logger, TL_SAVE_LOG_UNDO_FAILED, save_id, "delete",
                     tl__save_io_message(st, native), native);
}

static tl__save_status tl__save_delete_status(tl_save_store *store, const char *save_id) {
    tl__save_cached *cached;
    tl__save_layout layout;
    int native = 0;
    tl_save_io_status st;
    tl__save_status resolved;
    char trash[TL_SAVE_ID_MAX + 10];
    if (!store) return tl__save_refuse(NULL, "tl_save_delete", save_id, TL_SAVE_INVALID_ARGUMENT);
    if (!tl_save_id_valid(save_id))
        return tl__save_refuse(store, "tl_save_delete", save_id, TL_SAVE_INVALID_ID);
    if (tl__save_busy(store, save_id))
        return tl__save_refuse(store, "tl_save_delete", save_id, TL_SAVE_BUSY);
    resolved = tl__save_resolve(store, save_id, &cached, &layout);
    if (resolved.code == TL_SAVE_NOT_FOUND)
        return tl__save_missing(store, "tl_save_delete", save_id, NULL);
    if (resolved.code == TL_SAVE_OUT_OF_MEMORY || resolved.code == TL_SAVE_FOREIGN)
        return resolved; /* logged where met */
    tl__save_cache_drop(store, save_id);
    memcpy(trash, ".deleted.", 9);
    memcpy(trash + 9, save_id, strlen(save_id) + 1);
    st = tl__save_remove_folder(store, trash, &native);
    if (st != TL_SAVE_IO_OK && st != TL_SAVE_IO_NOT_FOUND)
        return tl__save_io_fail(store, save_id, "remove", tl__save_path(store, 0, trash, NULL), st,
                                native);
    st = store->io.rename(store->io.user, store->top, NULL, save_id, trash, &native);
    if (st != TL_SAVE_IO_OK)
        return tl__save_io_fail(store, save_id, "rename", tl__save_path(store, 0, save_id, NULL),
                                st, native);
    st = store->io.sync_dir(store->io.user, store->top, NULL, &native);
    if (st != TL_SAVE_IO_OK) {
        tl__save_status r = tl__save_io_fail(store, save_id, "sync", store->root, st, native);
        tl__save_delete_undo(store, save_id, trash);
        return r;
    }
    tl__save_delete_finish(store, save_id, trash);
    return tl__save_ok();
}

tl_save_result tl_save_delete(tl_save_store *store, const char *save_id) {
    return tl__save_done(store, tl__save_delete_status(store, save_id));
}

tl_save_result tl_save_last_result(const tl_save_store *store) {
    return store ? store->last_result : TL_SAVE_INVALID_ARGUMENT;
}

int tl_save_last_native_error(const tl_save_store *store) { return store ? store->last_native : 0; }

tl_save_result tl_save_set_last_result(tl_save_store *store, tl_save_result result,
                                       int native_error) {
    return tl__save_done(store, tl__save_result(result, native_error));
}

const tl_logger *tl_save_store_logger(const tl_save_store *store) {
    return store ? &store->logger : NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_SAVE_IMPL */
