/* Partitioners: which files go into which archive. Both sort their input first, by keys that
 * order unique names totally, so the answer never depends on the order files were found in
 * (the tests pack shuffled scans to show it; the packer relies on it and asks once). */
#include "pack/pack_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct ordered {
    const pack_file *f;
    uint32_t index;
} ordered;

static int by_hash(const void *x, const void *y)
{
    const ordered *a = x, *b = y;
    if (a->f->name_hash != b->f->name_hash) return a->f->name_hash < b->f->name_hash ? -1 : 1;
    return strcmp(a->f->name, b->f->name);
}

static int by_name(const void *x, const void *y) { return strcmp(((const ordered *)x)->f->name, ((const ordered *)y)->f->name); }

static int by_index(const void *x, const void *y)
{
    uint32_t a = ((const ordered *)x)->index, b = ((const ordered *)y)->index;
    return a < b ? -1 : a > b;
}

/* Name order: when the files come in it already (a scan's are sorted by name), their index
 * order, compared without a strcmp. */
typedef int (*order_fn)(const void *, const void *);

static order_fn name_order(const pack_file *files, size_t count)
{
    for (size_t i = 1; i < count; i++)
        if (strcmp(files[i - 1].name, files[i].name) >= 0) return by_name;
    return by_index;
}

static pack_group *new_group(pack_partition *out, const char *label)
{
    pack_group *g = vec_push(out);
    memset(g, 0, sizeof *g);
    g->label = xstrdup(label);
    return g;
}

static void trie_split(const ordered *o, size_t lo, size_t hi, unsigned depth, char *bits, uint64_t limit, order_fn by_name_order,
                       pack_partition *out)
{
    if (lo == hi) return; /* an empty bucket makes no archive */
    uint64_t total = 0;
    for (size_t i = lo; i < hi; i++) total += o[i].f->size;
    if (total <= limit || depth == 64 || hi - lo == 1) {
        bits[depth] = 0;
        char label[70];
        snprintf(label, sizeof label, "t%s", bits);
        pack_group *g = new_group(out, label);
        ordered *sorted = xcalloc(hi - lo, sizeof *sorted);
        memcpy(sorted, o + lo, (hi - lo) * sizeof *sorted);
        qsort(sorted, hi - lo, sizeof *sorted, by_name_order);
        for (size_t i = 0; i < hi - lo; i++) *vec_push(&g->members) = sorted[i].index;
        free(sorted);
        return;
    }
    /* Sorted by hash: the files whose next bit is 0 come first. */
    uint64_t bit = (uint64_t)1 << (63 - depth);
    size_t mid = lo;
    while (mid < hi && !(o[mid].f->name_hash & bit)) mid++;
    bits[depth] = '0';
    trie_split(o, lo, mid, depth + 1, bits, limit, by_name_order, out);
    bits[depth] = '1';
    trie_split(o, mid, hi, depth + 1, bits, limit, by_name_order, out);
}

void pack_partition_trie(const pack_file *files, size_t count, uint64_t limit, pack_partition *out)
{
    memset(out, 0, sizeof *out);
    ordered *o = xcalloc(count ? count : 1, sizeof *o);
    size_t n = 0;
    /* Files above the limit first, alone, in name order. */
    ordered *big = xcalloc(count ? count : 1, sizeof *big);
    size_t nbig = 0;
    for (size_t i = 0; i < count; i++) {
        ordered e = {&files[i], (uint32_t)i};
        if (files[i].size > limit) big[nbig++] = e;
        else o[n++] = e;
    }
    order_fn by_name_order = name_order(files, count);
    qsort(big, nbig, sizeof *big, by_name_order);
    for (size_t i = 0; i < nbig; i++) {
        pack_group *g = new_group(out, "big");
        *vec_push(&g->members) = big[i].index;
    }
    qsort(o, n, sizeof *o, by_hash);
    char bits[66];
    trie_split(o, 0, n, 0, bits, limit, by_name_order, out);
    free(o);
    free(big);
}

void pack_partition_sequential(const pack_file *files, size_t count, uint64_t limit, pack_partition *out)
{
    memset(out, 0, sizeof *out);
    ordered *o = xcalloc(count ? count : 1, sizeof *o);
    for (size_t i = 0; i < count; i++) o[i] = (ordered){&files[i], (uint32_t)i};
    qsort(o, count, sizeof *o, name_order(files, count));
    pack_group *g = NULL;
    uint64_t fill = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t size = o[i].f->size;
        if (!g || (g->members.count && (fill + size > limit || size > limit))) {
            char label[32];
            snprintf(label, sizeof label, "s%04zu", out->count);
            g = new_group(out, label);
            fill = 0;
        }
        *vec_push(&g->members) = o[i].index;
        fill += size;
    }
    free(o);
}

bool pack_partition_check(const pack_partition *p, size_t count, const char **why)
{
    unsigned char *seen = xcalloc(count ? count : 1, 1);
    bool ok = true;
    *why = NULL;
    for (size_t g = 0; g < p->count && ok; g++) {
        const pack_group *gr = &p->items[g];
        if (!gr->members.count) *why = "an archive is empty", ok = false;
        for (size_t m = 0; m < gr->members.count && ok; m++) {
            uint32_t i = gr->members.items[m];
            if (i >= count || seen[i])
                *why = i >= count ? "an archive names a file that does not exist" : "a file is in two archives", ok = false;
            else seen[i] = 1;
        }
        /* Labels of asset archives repeat only for "big" (the content hash then tells them apart). */
        for (size_t k = 0; k < g && ok; k++)
            if (strcmp(gr->label, "big") != 0 && strcmp(gr->label, p->items[k].label) == 0)
                *why = "two archives share a name", ok = false;
    }
    for (size_t i = 0; i < count && ok; i++)
        if (!seen[i]) *why = "a file is in no archive", ok = false;
    free(seen);
    return ok;
}

void pack_partition_free(pack_partition *p)
{
    for (size_t i = 0; i < p->count; i++) {
        free(p->items[i].label);
        vec_free(&p->items[i].members);
    }
    vec_free(p);
}
