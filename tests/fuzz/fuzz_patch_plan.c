/* Fuzz target: patch.h's plan over an untrusted new archives.json (it arrives by download)
 * against a fixed installed folder (made once under /tmp, removed at exit): three archives and
 * their index. No input may crash, read out of bounds or leak; an accepted plan adds up (every
 * archive kept or downloaded, the byte counts sum, a kept archive's file verifies, no deleted
 * name is one the new index lists, the deletes sorted and each once, no two archives with one
 * size and XXH64); a refused one is all zero with a message, and a refused index is located at
 * a byte of the input. The runtime: the tests' POSIX library (replay) or implemented here by
 * -DTL_IMPLEMENTATION (libFuzzer), meson.build. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <threadlink/log.h> /* the quiet logger (patch.h includes log.h in its implementation only) */
#include <threadlink/patch.h>

/* The installed version: names and bytes (the corpus's indexes refer to their XXH64). */
static const char *const fuzz_names[] = {"Main.catalog-1111111111111111.tlpk", "Main.t0-2222222222222222.tlpk",
                                         "Main.t1-3333333333333333.tlpk", "archives.json"};
static const char *const fuzz_bytes[] = {
    "catalog one", "archive zero, first build", "archive one, unchanged",
    "{\"format\": 1, \"profile\": \"Main\", \"archives\": ["
    "{\"name\": \"Main.catalog-1111111111111111.tlpk\", \"role\": \"catalog\", \"size\": 11, \"xxh64\": "
    "\"e74ffd83554038c0\", \"files\": []}, "
    "{\"name\": \"Main.t0-2222222222222222.tlpk\", \"role\": \"assets\", \"size\": 25, \"xxh64\": "
    "\"eefd0368a05d31ff\", \"files\": [\"a\"]}, "
    "{\"name\": \"Main.t1-3333333333333333.tlpk\", \"role\": \"assets\", \"size\": 22, \"xxh64\": "
    "\"02ee7c8656f85986\", \"files\": [\"b\"]}]}"};
static char fuzz_dir[64];

static void fuzz_remove_dir(void) {
    char path[128];
    size_t i;
    for (i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, fuzz_names[i]);
        unlink(path);
    }
    rmdir(fuzz_dir);
}

static void fuzz_make_dir(void) {
    char path[128];
    size_t i;
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/tl-fuzz-patch-XXXXXX");
    if (!mkdtemp(fuzz_dir)) abort();
    atexit(fuzz_remove_dir);
    for (i = 0; i < 4; i++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, fuzz_names[i]);
        f = fopen(path, "wb");
        if (!f || fwrite(fuzz_bytes[i], 1, strlen(fuzz_bytes[i]), f) != strlen(fuzz_bytes[i])) abort();
        fclose(f);
    }
}

static const tl_logger fuzz_quiet = { NULL, NULL, TL_LOG_LEVEL_NONE };

/* The deletes strictly ascending; no two archives with one size and XXH64 (small inputs: pairs). */
static void fuzz_check_unique(const tl_patch_plan *plan) {
    uint32_t i, k;
    for (k = 1; k < plan->delete_count; k++)
        if (strcmp(plan->deletes[k - 1], plan->deletes[k]) >= 0) abort();
    for (i = 0; i < plan->archive_count; i++)
        for (k = 0; k < i; k++)
            if (plan->archives[i].size == plan->archives[k].size && plan->archives[i].xxh64 == plan->archives[k].xxh64)
                abort();
}

/* "new archives.json, byte N...": N within the input. */
static void fuzz_check_located(tl_patch_result r, const tl_patch_detail *why, size_t size) {
    const char *head = "new archives.json, byte ";
    if (r != TL_PATCH_BAD_INDEX || strncmp(why->message, head, strlen(head)) != 0) return;
    if (strtoull(why->message + strlen(head), NULL, 10) > size) abort();
}

static void fuzz_check_plan(const tl_patch_plan *plan) {
    uint64_t keep = 0, download = 0;
    uint32_t i, k, kept = 0;
    char path[512];
    for (i = 0; i < plan->archive_count; i++) {
        const tl_patch_archive *a = &plan->archives[i];
        if (a->action == TL_PATCH_KEEP) {
            kept++;
            keep += a->size;
            snprintf(path, sizeof path, "%s/%s", fuzz_dir, a->name);
            if (tl_patch_verify_file(path, a->size, a->xxh64, &fuzz_quiet, NULL) != TL_PATCH_OK) abort();
        } else if (a->action == TL_PATCH_DOWNLOAD) {
            download += a->size;
        } else {
            abort();
        }
        for (k = 0; k < plan->delete_count; k++)
            if (strcmp(plan->deletes[k], a->name) == 0) abort();
    }
    if (plan->archive_count == 0 || kept != plan->keep_count || plan->keep_count + plan->download_count != plan->archive_count)
        abort();
    if (keep != plan->keep_bytes || download != plan->download_bytes || keep + download != plan->total_bytes) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so ASan sees any read past the end. */
    char *copy = (char *)malloc(size ? size : 1);
    tl_patch_desc desc;
    tl_patch_plan plan, zero;
    tl_patch_detail why;
    tl_patch_result r;
    if (!fuzz_dir[0]) fuzz_make_dir();
    if (size) memcpy(copy, data, size);
    memset(&desc, 0, sizeof desc);
    desc.installed_dir = fuzz_dir;
    desc.index = copy;
    desc.index_size = size;
    desc.logger = &fuzz_quiet; /* a refused index is the common case here: not printed */
    r = tl_patch_plan_make(&plan, &desc, &why);
    if (r == TL_PATCH_OK) {
        fuzz_check_plan(&plan);
        fuzz_check_unique(&plan);
    } else {
        fuzz_check_located(r, &why, size);
        memset(&zero, 0, sizeof zero);
        if (memcmp(&plan, &zero, sizeof plan) != 0 || !why.message[0] || strcmp(why.message, "ok") == 0) abort();
    }
    tl_patch_plan_free(&plan);
    free(copy);
    return 0;
}
