/* Fuzz target: pack's record of input hashes (gen/pack/pack_inputs.c), read back from the user's cache
 * folder, where a crash, another version or a hand edit may leave any bytes. Input: a record, from
 * an allocation of exactly its size. It is read as it is, and again with its last line replaced by
 * the right hash of the rest (so that mutations reach the lines past the record's own check).
 * An accepted record gives only well-formed entries (a path that is not empty and holds no NUL
 * or newline, nanoseconds below a second), and those entries, written as a record again, read
 * back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_scan.h"
#include "pack/pack_inputs.h"
#include "base/util.h"

#define FOLDER "/fuzz/out/Main" /* the corpus's records were written for it */

typedef struct entry {
    char *path;
    content_file_state st;
} entry;

typedef VEC(entry) entry_list;

static void collect(void *ctx, const char *path, size_t len, const content_file_state *st)
{
    entry_list *list = ctx;
    if (len == 0 || memchr(path, '\n', len) || memchr(path, 0, len)) abort();
    if (st->mtime_nsec < 0 || st->mtime_nsec > 999999999 || st->ctime_nsec < 0 || st->ctime_nsec > 999999999) abort();
    entry *e = vec_push(list);
    e->path = xstrndup(path, len);
    e->st = *st;
}

static bool same_state(const content_file_state *a, const content_file_state *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_sec == b->mtime_sec && a->ctime_sec == b->ctime_sec &&
           a->mtime_nsec == b->mtime_nsec && a->ctime_nsec == b->ctime_nsec && a->xxh64 == b->xxh64;
}

static void free_entries(entry_list *list)
{
    for (size_t i = 0; i < list->count; i++) free(list->items[i].path);
    vec_free(list);
}

/* Reads `size` bytes from an allocation of exactly that size; an accepted record round-trips. */
static void read_exactly(const char *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (size) memcpy(copy, data, size);
    entry_list first = {0}, again = {0};
    if (pack_inputs_read(copy, size, FOLDER, collect, &first)) {
        buf text = {0};
        pack_inputs_begin(&text, FOLDER);
        for (size_t i = 0; i < first.count; i++) pack_inputs_add(&text, first.items[i].path, &first.items[i].st);
        pack_inputs_end(&text);
        if (!pack_inputs_read(text.data, text.len, FOLDER, collect, &again) || again.count != first.count) abort();
        for (size_t i = 0; i < first.count; i++)
            if (strcmp(first.items[i].path, again.items[i].path) != 0 || !same_state(&first.items[i].st, &again.items[i].st)) abort();
        buf_free(&text);
    }
    free_entries(&first);
    free_entries(&again);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    read_exactly(text, size);
    size_t cut = size && text[size - 1] == '\n' ? size - 1 : size; /* the last line starts after the newline before it */
    while (cut && text[cut - 1] != '\n') cut--;
    buf rehashed = {0};
    buf_put(&rehashed, text, cut);
    pack_inputs_end(&rehashed);
    read_exactly(rehashed.data, rehashed.len);
    buf_free(&rehashed);
    return 0;
}
