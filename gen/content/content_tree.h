/* A source folder listed and lstat'ed ahead of the scan's walk (content_scan.c), the stats on
 * every core: a one-file edit of a large tree spends most of its scan in lstat. The walk then
 * takes each folder's names and each entry's lstat from here, in its own order, and reports what
 * it always reported, at the same place in its order (a folder that cannot be listed, an entry
 * that vanished). Folders are followed as the walk follows them: plain folders only (symbolic
 * links are the walk's), each one not already being read (a bind mount of a parent, by device
 * and inode), hidden entries (tl_cf_source_hidden) left out. */
#ifndef TLG_CONTENT_TREE_H
#define TLG_CONTENT_TREE_H

#include "base/util.h"

#include <stddef.h>
#include <sys/stat.h>

typedef struct tree_entry {
    char *full;         /* its folder's path, '/', its name (as path_join joins them) */
    size_t name;        /* the name's offset in full */
    int err;            /* 0: st is lstat's answer; else lstat's errno */
    unsigned char type; /* readdir's d_type (DT_UNKNOWN where the file system does not say) */
    struct stat st;
    size_t folder; /* a folder listed here too: its index in folders; SIZE_MAX otherwise */
} tree_entry;

typedef struct tree_folder {
    size_t first, count; /* its entries in entries, in name order (bytewise) */
    int err;             /* 0, or the errno of a folder that could not be listed */
} tree_folder;

typedef struct content_tree {
    VEC(tree_entry) entries;
    VEC(tree_folder) folders; /* folders[0] is the root */
} content_tree;

/* Lists `root` (whose lstat is `root_st`) and the plain folders below it, and lstats every entry
 * on `jobs` threads. Reports nothing: the walk reports from what it finds here. */
void content_tree_read(const char *root, const struct stat *root_st, unsigned jobs, content_tree *t);
void content_tree_free(content_tree *t);

#endif
