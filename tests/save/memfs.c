/* The in-memory file system of memfs.h. */
#include "memfs.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *dup_bytes(const void *src, size_t n) {
    void *p = malloc(n ? n : 1);
    if (n) memcpy(p, src, n);
    return p;
}

static int new_node(memfs *fs, bool is_dir) {
    if (fs->node_count == fs->node_cap) {
        fs->node_cap = fs->node_cap ? fs->node_cap * 2 : 64;
        fs->nodes = realloc(fs->nodes, (size_t)fs->node_cap * sizeof *fs->nodes);
    }
    memset(&fs->nodes[fs->node_count], 0, sizeof fs->nodes[0]);
    fs->nodes[fs->node_count].is_dir = is_dir;
    return fs->node_count++;
}

void memfs_init(memfs *fs) {
    memset(fs, 0, sizeof *fs);
    fs->fail_after = -1;
    fs->fail_only = -1;
    new_node(fs, true); /* node 0: "/", always there */
}

void memfs_free(memfs *fs) {
    for (int i = 0; i < fs->node_count; i++) {
        free(fs->nodes[i].data);
        free(fs->nodes[i].synced);
        free(fs->nodes[i].entries);
        free(fs->nodes[i].synced_entries);
    }
    free(fs->nodes);
    memset(fs, 0, sizeof *fs);
}

static int find_entry(const memfs_node *dir, const char *name) {
    for (size_t i = 0; i < dir->count; i++)
        if (strcmp(dir->entries[i].name, name) == 0) return (int)i;
    return -1;
}

/* Splits a path into its parent folder's node and its last name; -1 when the parent is missing. */
static int parent_of(const memfs *fs, const char *path, char leaf[96]) {
    int node = 0;
    const char *p = path;
    while (*p == '/') p++;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || n >= 96) return -1;
        memcpy(leaf, p, n);
        leaf[n] = '\0';
        if (!slash) return node;
        int e = find_entry(&fs->nodes[node], leaf);
        if (e < 0 || !fs->nodes[fs->nodes[node].entries[e].node].is_dir) return -1;
        node = fs->nodes[node].entries[e].node;
        p = slash + 1;
    }
}

int memfs_lookup(const memfs *fs, const char *path) {
    char leaf[96];
    int parent = parent_of(fs, path, leaf);
    if (parent < 0) return -1;
    int e = find_entry(&fs->nodes[parent], leaf);
    return e < 0 ? -1 : fs->nodes[parent].entries[e].node;
}

static void add_entry(memfs *fs, int dir, const char *name, int node) {
    memfs_node *d = &fs->nodes[dir];
    int e = find_entry(d, name);
    if (e >= 0) {
        d->entries[e].node = node;
        return;
    }
    d->entries = realloc(d->entries, (d->count + 1) * sizeof *d->entries);
    snprintf(d->entries[d->count].name, sizeof d->entries[0].name, "%s", name);
    d->entries[d->count].node = node;
    d->count++;
}

static void drop_entry(memfs *fs, int dir, int e) {
    memfs_node *d = &fs->nodes[dir];
    d->entries[e] = d->entries[d->count - 1];
    d->count--;
}

void memfs_power_cut(memfs *fs) {
    for (int i = 0; i < fs->node_count; i++) {
        memfs_node *n = &fs->nodes[i];
        free(n->data);
        n->data = dup_bytes(n->synced, n->synced_size);
        n->size = n->synced_size;
        free(n->entries);
        n->entries = dup_bytes(n->synced_entries, n->synced_count * sizeof *n->entries);
        n->count = n->synced_count;
    }
}

static bool torn_keeps(int pattern, size_t sector, size_t sectors) {
    switch (pattern) {
    case TORN_EVEN: return sector % 2 == 0;
    case TORN_ODD: return sector % 2 == 1;
    case TORN_FIRST_HALF: return sector < (sectors + 1) / 2;
    case TORN_FIRST_SECTOR: return sector == 0;
    default: return sector != 0;
    }
}

/* The bytes a torn cut leaves of one file: per sector, the new bytes or the synced ones. */
static void tear_file(memfs_node *n, int pattern) {
    size_t size = n->size > n->synced_size ? n->size : n->synced_size, sectors = (size + 15) / 16;
    unsigned char *out = calloc(size ? size : 1, 1);
    size_t kept_end = n->synced_size;
    for (size_t i = 0; i < sectors; i++) {
        size_t at = i * 16, len = size - at < 16 ? size - at : 16;
        bool keep = torn_keeps(pattern, i, sectors) && at < n->size;
        for (size_t j = 0; j < len; j++) {
            size_t b = at + j;
            if (keep && b < n->size) out[b] = n->data[b];
            else if (b < n->synced_size) out[b] = n->synced[b];
        }
        if (keep && at + len > kept_end) kept_end = at + len < n->size ? at + len : n->size;
    }
    free(n->data);
    n->data = out;
    n->size = kept_end; /* the file is as long as its last byte that reached the disk */
}

void memfs_power_cut_torn(memfs *fs, int pattern) {
    for (int i = 0; i < fs->node_count; i++) {
        memfs_node *n = &fs->nodes[i];
        if (!n->is_dir && (n->size != n->synced_size || (n->size && memcmp(n->data, n->synced, n->size) != 0)))
            tear_file(n, pattern);
        if (n->is_dir) {
            free(n->entries);
            n->entries = dup_bytes(n->synced_entries, n->synced_count * sizeof *n->entries);
            n->count = n->synced_count;
        }
    }
    /* What reached the disk is what a later sync-free read sees: make it the synced state. */
    for (int i = 0; i < fs->node_count; i++)
        if (!fs->nodes[i].is_dir) {
            free(fs->nodes[i].synced);
            fs->nodes[i].synced = dup_bytes(fs->nodes[i].data, fs->nodes[i].size);
            fs->nodes[i].synced_size = fs->nodes[i].size;
        }
}

static void sync_file(memfs_node *n) {
    free(n->synced);
    n->synced = dup_bytes(n->data, n->size);
    n->synced_size = n->size;
}

static void sync_dir(memfs_node *n) {
    free(n->synced_entries);
    n->synced_entries = dup_bytes(n->entries, n->count * sizeof *n->entries);
    n->synced_count = n->count;
}

void memfs_sync_all(memfs *fs) {
    for (int i = 0; i < fs->node_count; i++) {
        if (fs->nodes[i].is_dir) sync_dir(&fs->nodes[i]);
        else sync_file(&fs->nodes[i]);
    }
}

bool memfs_put(memfs *fs, const char *path, const void *data, size_t size) {
    int node = memfs_lookup(fs, path);
    if (node < 0) {
        char leaf[96];
        int parent = parent_of(fs, path, leaf);
        if (parent < 0) return false;
        node = new_node(fs, false);
        add_entry(fs, parent, leaf, node);
        sync_dir(&fs->nodes[parent]);
    }
    if (fs->nodes[node].is_dir) return false;
    free(fs->nodes[node].data);
    fs->nodes[node].data = dup_bytes(data, size);
    fs->nodes[node].size = size;
    sync_file(&fs->nodes[node]);
    return true;
}

const unsigned char *memfs_get(const memfs *fs, const char *path, size_t *size) {
    int node = memfs_lookup(fs, path);
    if (node < 0 || fs->nodes[node].is_dir) return NULL;
    *size = fs->nodes[node].size;
    return fs->nodes[node].data;
}

size_t memfs_names(const memfs *fs, const char *dir, char names[][96], size_t cap) {
    int node = strcmp(dir, "/") == 0 ? 0 : memfs_lookup(fs, dir);
    if (node < 0 || !fs->nodes[node].is_dir) return 0;
    const memfs_node *d = &fs->nodes[node];
    for (size_t i = 0; i < d->count && i < cap; i++) memcpy(names[i], d->entries[i].name, 96);
    return d->count;
}

/* The bytes of the files reachable from node (their current sizes). */
static size_t used_below(const memfs *fs, int node) {
    const memfs_node *n = &fs->nodes[node];
    size_t total = 0;
    if (!n->is_dir) return n->size;
    for (size_t i = 0; i < n->count; i++) total += used_below(fs, n->entries[i].node);
    return total;
}

size_t memfs_used(const memfs *fs) { return used_below(fs, 0); }

/* How many of `growth` new bytes the disk has room for (all of them without a capacity). */
static size_t room_for(const memfs *fs, size_t growth) {
    size_t used;
    if (!fs->capacity) return growth;
    used = memfs_used(fs);
    if (used >= fs->capacity) return 0;
    return growth < fs->capacity - used ? growth : fs->capacity - used;
}

/* --- the backend ------------------------------------------------------------------------------- */

/* Counts the operation (`member`: its tl_save_io member); false when the process is "dead"
   (fail_after) or this one operation is the injected fault (fail_only). */
static bool alive(memfs *fs, const char *member, int *native) {
    fs->ops++;
    if ((fs->fail_after >= 0 && fs->ops > fs->fail_after) || fs->ops == fs->fail_only) {
        *native = fs->fail_errno ? fs->fail_errno : EIO;
        fs->failed = member;
        return false;
    }
    return true;
}

#define HANDLE(node) ((void *)(intptr_t)((node) + 1))
#define NODE(handle) ((int)((intptr_t)(handle) - 1))

/* The folder `dir` beneath the root handle (the root for NULL): its node, or a status. */
static tl_save_io_status dir_node(const memfs *fs, void *root, const char *dir, int *node, int *native) {
    int top = NODE(root);
    if (!dir) {
        *node = top;
        return TL_SAVE_IO_OK;
    }
    int e = find_entry(&fs->nodes[top], dir);
    if (e < 0) { *native = ENOENT; return TL_SAVE_IO_NOT_FOUND; }
    *node = fs->nodes[top].entries[e].node;
    if (!fs->nodes[*node].is_dir) { *native = ENOTDIR; return TL_SAVE_IO_FOREIGN; }
    return TL_SAVE_IO_OK;
}

/* The entry `name` of `dir`: its node (-1 when missing, with its folder's node in *parent). */
static tl_save_io_status entry_node(const memfs *fs, void *root, const char *dir, const char *name,
                                    int *parent, int *node, int *native) {
    tl_save_io_status st = dir_node(fs, root, dir, parent, native);
    if (st != TL_SAVE_IO_OK) return st;
    int e = find_entry(&fs->nodes[*parent], name);
    *node = e < 0 ? -1 : fs->nodes[*parent].entries[e].node;
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_open_root(void *user, const char *path, void **root, int *native) {
    memfs *fs = user;
    char leaf[96];
    if (!alive(fs, "open_root", native)) return TL_SAVE_IO_FAILED;
    int node = memfs_lookup(fs, path);
    if (node < 0) {
        int parent = parent_of(fs, path, leaf);
        if (parent < 0) { *native = ENOENT; return TL_SAVE_IO_NOT_FOUND; }
        node = new_node(fs, true);
        add_entry(fs, parent, leaf, node);
    }
    if (!fs->nodes[node].is_dir) { *native = ENOTDIR; return TL_SAVE_IO_FOREIGN; }
    *root = HANDLE(node);
    return TL_SAVE_IO_OK;
}

static void m_close_root(void *user, void *root) {
    (void)user;
    (void)root;
}

/* The entries (of every folder) naming a node: its hard links. */
static int links_to(const memfs *fs, int node) {
    int links = 0;
    for (int i = 0; i < fs->node_count; i++)
        for (size_t e = 0; e < fs->nodes[i].count; e++) links += fs->nodes[i].entries[e].node == node;
    return links;
}

/* Opens (or creates) a regular file for writing, as the POSIX backend does: one with other names
   is TL_SAVE_IO_LINKED, untouched; truncate: empties it (O_TRUNC). */
static tl_save_io_status open_file(memfs *fs, void *root, const char *dir, const char *name,
                                   bool truncate, void **file, uint64_t *size, int *native) {
    int parent, node;
    if (!alive(fs, truncate ? "open_write" : "open_update", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = entry_node(fs, root, dir, name, &parent, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    if (node < 0) {
        node = new_node(fs, false);
        add_entry(fs, parent, name, node);
    }
    if (fs->nodes[node].is_dir) { *native = EISDIR; return TL_SAVE_IO_FOREIGN; }
    if (links_to(fs, node) > 1) { *native = EMLINK; return TL_SAVE_IO_LINKED; }
    if (truncate) fs->nodes[node].size = 0;
    if (size) *size = fs->nodes[node].size;
    *file = HANDLE(node);
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_open_write(void *user, void *root, const char *dir, const char *name,
                                      void **file, int *native) {
    return open_file(user, root, dir, name, true, file, NULL, native);
}

static tl_save_io_status m_open_update(void *user, void *root, const char *dir, const char *name,
                                       void **file, uint64_t *size, int *native) {
    return open_file(user, root, dir, name, false, file, size, native);
}

/* Appends what the disk has room for; ENOSPC when that is not all of it (a partial write). */
static tl_save_io_status m_write(void *user, void *file, const void *data, size_t size, int *native) {
    memfs *fs = user;
    if (!alive(fs, "write", native)) return TL_SAVE_IO_FAILED;
    if (fs->nospace) { *native = ENOSPC; return TL_SAVE_IO_NO_SPACE; }
    memfs_node *n = &fs->nodes[NODE(file)];
    size_t fit = room_for(fs, size);
    n->data = realloc(n->data, n->size + fit + 1);
    memcpy(n->data + n->size, data, fit);
    n->size += fit;
    if (fit < size) { *native = ENOSPC; return TL_SAVE_IO_NO_SPACE; }
    return TL_SAVE_IO_OK;
}

/* Overwrites (and extends) a file's bytes; until a sync, a power cut gives the old ones back. */
static tl_save_io_status m_write_at(void *user, void *file, uint64_t offset, const void *data,
                                    size_t size, int *native) {
    memfs *fs = user;
    if (!alive(fs, "write_at", native)) return TL_SAVE_IO_FAILED;
    if (fs->nospace) { *native = ENOSPC; return TL_SAVE_IO_NO_SPACE; }
    memfs_node *n = &fs->nodes[NODE(file)];
    size_t end = (size_t)offset + size, want = end, fit;
    if (end > n->size) { /* the file grows as far as the disk has room, as a real one does */
        end = n->size + room_for(fs, end - n->size);
        n->data = realloc(n->data, end + 1);
        memset(n->data + n->size, 0, end - n->size);
        n->size = end;
    }
    fit = end > offset ? end - (size_t)offset : 0;
    memcpy(n->data + offset, data, fit < size ? fit : size);
    if (end < want) { *native = ENOSPC; return TL_SAVE_IO_NO_SPACE; }
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_truncate(void *user, void *file, uint64_t size, int *native) {
    memfs *fs = user;
    if (!alive(fs, "truncate", native)) return TL_SAVE_IO_FAILED;
    memfs_node *n = &fs->nodes[NODE(file)];
    if (size > n->size) {
        n->data = realloc(n->data, (size_t)size + 1);
        memset(n->data + n->size, 0, (size_t)size - n->size);
    }
    n->size = (size_t)size;
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_sync(void *user, void *file, int *native) {
    memfs *fs = user;
    if (!alive(fs, "sync", native)) return TL_SAVE_IO_FAILED;
    sync_file(&fs->nodes[NODE(file)]);
    fs->syncs++;
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_open_read(void *user, void *root, const char *dir, const char *name,
                                     void **file, uint64_t *size, int *native) {
    memfs *fs = user;
    int parent, node;
    if (!alive(fs, "open_read", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = entry_node(fs, root, dir, name, &parent, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    if (node < 0) { *native = ENOENT; return TL_SAVE_IO_NOT_FOUND; }
    if (fs->nodes[node].is_dir) { *native = EISDIR; return TL_SAVE_IO_FOREIGN; }
    *size = fs->nodes[node].size;
    *file = HANDLE(node);
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_read(void *user, void *file, uint64_t offset, void *dst, size_t size,
                                int *native) {
    memfs *fs = user;
    if (!alive(fs, "read", native)) return TL_SAVE_IO_FAILED;
    memfs_node *n = &fs->nodes[NODE(file)];
    if (offset > n->size || size > n->size - offset) { *native = EIO; return TL_SAVE_IO_FAILED; }
    memcpy(dst, n->data + offset, size);
    return TL_SAVE_IO_OK;
}

/* A close that fails (fail_only) still closes: only its result says it failed. */
static tl_save_io_status m_close(void *user, void *file, int *native) {
    (void)file;
    return alive(user, "close", native) ? TL_SAVE_IO_OK : TL_SAVE_IO_FAILED;
}

static tl_save_io_status m_mkdir(void *user, void *root, const char *name, int *native) {
    memfs *fs = user;
    int parent, node;
    if (!alive(fs, "mkdir", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = entry_node(fs, root, NULL, name, &parent, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    if (node >= 0) { *native = EEXIST; return TL_SAVE_IO_EXISTS; }
    add_entry(fs, parent, name, new_node(fs, true));
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_sync_dir(void *user, void *root, const char *dir, int *native) {
    memfs *fs = user;
    int node;
    if (!alive(fs, "sync_dir", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = dir_node(fs, root, dir, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    sync_dir(&fs->nodes[node]);
    fs->syncs++;
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_rename(void *user, void *root, const char *dir, const char *from,
                                  const char *to, int *native) {
    memfs *fs = user;
    int parent, node, target;
    if (!alive(fs, "rename", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = entry_node(fs, root, dir, from, &parent, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    if (node < 0) { *native = ENOENT; return TL_SAVE_IO_NOT_FOUND; }
    (void)entry_node(fs, root, dir, to, &parent, &target, native);
    if (target >= 0 && fs->nodes[target].is_dir) {
        *native = EEXIST; /* the store never renames onto a folder */
        return TL_SAVE_IO_EXISTS;
    }
    drop_entry(fs, parent, find_entry(&fs->nodes[parent], from));
    add_entry(fs, parent, to, node);
    return TL_SAVE_IO_OK;
}

static tl_save_io_status remove_entry(memfs *fs, void *root, const char *dir, const char *name,
                                      bool folder, int *native) {
    int parent, node;
    if (!alive(fs, folder ? "rmdir" : "remove", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = entry_node(fs, root, dir, name, &parent, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    if (node < 0) { *native = ENOENT; return TL_SAVE_IO_NOT_FOUND; }
    const memfs_node *n = &fs->nodes[node];
    if (n->is_dir != folder) { *native = folder ? ENOTDIR : EISDIR; return TL_SAVE_IO_FOREIGN; }
    if (folder && n->count) { *native = ENOTEMPTY; return TL_SAVE_IO_EXISTS; }
    drop_entry(fs, parent, find_entry(&fs->nodes[parent], name)); /* the node stays: an unsynced removal can come back */
    return TL_SAVE_IO_OK;
}

static tl_save_io_status m_remove(void *user, void *root, const char *dir, const char *name,
                                  int *native) {
    return remove_entry(user, root, dir, name, false, native);
}

static tl_save_io_status m_rmdir(void *user, void *root, const char *name, int *native) {
    return remove_entry(user, root, NULL, name, true, native);
}

static tl_save_io_status m_list(void *user, void *root, const char *dir, tl_save_io_entry_fn each,
                                void *ctx, int *native) {
    memfs *fs = user;
    int node;
    if (!alive(fs, "list", native)) return TL_SAVE_IO_FAILED;
    tl_save_io_status st = dir_node(fs, root, dir, &node, native);
    if (st != TL_SAVE_IO_OK) return st;
    for (size_t i = 0; i < fs->nodes[node].count; i++) each(ctx, fs->nodes[node].entries[i].name);
    return TL_SAVE_IO_OK;
}

tl_save_io memfs_io(memfs *fs) {
    tl_save_io io;
    memset(&io, 0, sizeof io);
    io.user = fs;
    io.open_root = m_open_root;
    io.close_root = m_close_root;
    io.open_write = m_open_write;
    io.write = m_write;
    io.sync = m_sync;
    io.open_read = m_open_read;
    io.read = m_read;
    io.close = m_close;
    io.mkdir = m_mkdir;
    io.sync_dir = m_sync_dir;
    io.rename = m_rename;
    io.remove = m_remove;
    io.rmdir = m_rmdir;
    io.list = m_list;
    io.open_update = m_open_update;
    io.write_at = m_write_at;
    io.truncate = m_truncate;
    return io;
}

bool memfs_mkdir(memfs *fs, const char *path) {
    char leaf[96];
    int parent = parent_of(fs, path, leaf);
    if (parent < 0 || find_entry(&fs->nodes[parent], leaf) >= 0) return false;
    add_entry(fs, parent, leaf, new_node(fs, true));
    return true;
}

bool memfs_link(memfs *fs, const char *existing, const char *path) {
    char leaf[96];
    int node = memfs_lookup(fs, existing), parent = parent_of(fs, path, leaf);
    if (node < 0 || fs->nodes[node].is_dir || parent < 0 || find_entry(&fs->nodes[parent], leaf) >= 0)
        return false;
    add_entry(fs, parent, leaf, node);
    sync_dir(&fs->nodes[parent]);
    return true;
}
