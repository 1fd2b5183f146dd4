/* Fuzz target: `diff` of two vault manifests (vault-manifest.json, gen/vault/vault_diff.c) taken
 * from one input (split at the first NUL, or in the middle), each in a directory beside one domain
 * manifest (Game.Kinds, whose entries the data's keys and asset ids are checked against). Vault
 * manifests come from pull requests: no input may crash, hang or read out of bounds; unreadable
 * ones exit 2. The directories are made once per process and their files rewritten per input. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "core/diff.h"

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

static const char kinds_manifest[] =
    "{\"format\": 1, \"domain\": \"Game.Kinds\", \"kind\": \"ordinal\", \"entries\": [\n"
    "  {\"key\": \"user.slime\", \"name\": \"Slime\", \"scope\": \"User\", \"value\": 1, \"tombstone\": false},\n"
    "  {\"key\": \"user.bat\", \"name\": \"Bat\", \"scope\": \"User\", \"value\": 2, \"tombstone\": true}\n]}\n";

static void put(const char *dir, const char *name, const void *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) abort();
    fclose(f);
}

static char root[64];

/* The directories go when the process ends (the replay runs in every build). */
static void remove_sides(void)
{
    static const char *const files[] = {"old/vaults/vault-manifest.json", "new/vaults/vault-manifest.json",
                                        "old/Game.Kinds.manifest.json", "new/Game.Kinds.manifest.json",
                                        "old/vaults", "new/vaults", "old", "new", ""};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        remove(path);
    }
}

/* <tmp>/{old,new}/Game.Kinds.manifest.json and <tmp>/{old,new}/vaults/. */
static const char *sides(void)
{
    if (root[0]) return root;
    snprintf(root, sizeof root, "/tmp/tl-fuzz-vault-diff-XXXXXX");
    if (!mkdtemp(root)) abort();
    atexit(remove_sides);
    static const char *const dirs[] = {"old", "new", "old/vaults", "new/vaults"};
    for (size_t i = 0; i < 4; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        if (mkdir(path, 0700) != 0) abort();
    }
    char path[128];
    snprintf(path, sizeof path, "%s/old", root);
    put(path, "Game.Kinds.manifest.json", kinds_manifest, sizeof kinds_manifest - 1);
    snprintf(path, sizeof path, "%s/new", root);
    put(path, "Game.Kinds.manifest.json", kinds_manifest, sizeof kinds_manifest - 1);
    return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *root = sides();
    const uint8_t *nul = memchr(data, 0, size);
    size_t split = nul ? (size_t)(nul - data) : size / 2;
    char old_dir[128], new_dir[128], old_vaults[128], new_vaults[128];
    snprintf(old_dir, sizeof old_dir, "%s/old", root);
    snprintf(new_dir, sizeof new_dir, "%s/new", root);
    snprintf(old_vaults, sizeof old_vaults, "%s/old/vaults", root);
    snprintf(new_vaults, sizeof new_vaults, "%s/new/vaults", root);
    put(old_vaults, "vault-manifest.json", data, split);
    put(new_vaults, "vault-manifest.json", data + split + (nul != NULL), size - split - (nul != NULL));
    diag_set_sink((diag_sink){ignore_diag, NULL});
    FILE *out = fopen("/dev/null", "w");
    diff_options opt = {.old_path = old_dir, .new_path = new_dir, .format = (diff_format)(size % 4), .out = out,
                        .extras = tlg_diff_extras};
    int rc = diff_run(&opt);
    if (rc < 0 || rc > 2) abort();
    fclose(out);
    return 0;
}
