/* Fuzz target: the whole generator front end (`threadlink-gen check`) on a project in which one
 * input file is replaced by the fuzz bytes. Byte 0 chooses the file, the rest is its text:
 *   0 threadlink.json   (domains, vault folders and a content profile)
 *   1 a vault schema    2 vault data    3 an injector    4 a manifest
 * The project is the vault test project (tests/vault/project) plus a small content tree, copied
 * once into a temporary folder. Config, schemas, data and injectors are what users (and pull
 * requests) hand the generator: no input may crash, hang or read out of bounds; bad ones are
 * reported (exit 1) and nothing is written. */
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
#include "base/fsio.h"
#include "core/generate.h"

#ifndef TL_FUZZ_TEMPLATE
#error "TL_FUZZ_TEMPLATE must name tests/vault/project"
#endif

static const char base_config[] =
    "{ \"domains\": [\n"
    "    { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true },\n"
    "    { \"name\": \"Game.Icons\", \"output\": \"icons.h\" } ],\n"
    "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" },\n"
    "  \"content\": [ { \"profile\": \"Fuzz\", \"source_root\": \"assets\", \"output\": \"build/Fuzz\",\n"
    "                 \"categories\": [ { \"name\": \"Sprites\", \"folder\": \"Sprites\" } ] } ] }\n";

static const char *const targets[] = {"threadlink.json", "vaults/Every.vault.json",
                                      "vaultdata/things.vaultdata.json",
                                      "injectors/Vault.Fields.User.txt",
                                      "generated/Vault.Fields.manifest.json"};
#define TARGET_COUNT (sizeof targets / sizeof targets[0])

static char root[64];
static buf originals[TARGET_COUNT];

static void put_file(const char *rel, const void *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
}

/* TL_FUZZ_VERBOSE=1 prints each run's diagnostics and exit status (for triaging a corpus). */
static bool verbose;

static void print_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level;
    if (verbose) fprintf(stderr, "  %s:%u:%u: %s\n", loc.file ? loc.file : "", loc.line, loc.col, message);
}

static void tear_down(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "fuzz_project: could not remove %s\n", root);
    for (size_t i = 0; i < TARGET_COUNT; i++) buf_free(&originals[i]);
}

static void set_up(void)
{
    char cmd[512];
    snprintf(root, sizeof root, "/tmp/tl-fuzz-project-XXXXXX");
    if (!mkdtemp(root)) abort();
    snprintf(cmd, sizeof cmd, "cp -r '%s'/. '%s'/ && mkdir -p '%s'/assets/Sprites", TL_FUZZ_TEMPLATE, root, root);
    if (system(cmd) != 0) abort();
    put_file("threadlink.json", base_config, sizeof base_config - 1);
    put_file("assets/Sprites/hero.txt", "hero\n", 5);
    put_file("assets/Sprites/slime.txt", "slime\n", 6);
    for (size_t i = 0; i < TARGET_COUNT; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", root, targets[i]);
        if (!fs_read_file(path, &originals[i])) abort();
    }
    verbose = getenv("TL_FUZZ_VERBOSE") != NULL;
    diag_set_sink((diag_sink){print_diag, NULL});
    atexit(tear_down);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!root[0]) set_up();
    if (size == 0) return 0;
    size_t which = data[0] % TARGET_COUNT;
    put_file(targets[which], data + 1, size - 1);

    char config[128];
    snprintf(config, sizeof config, "%s/threadlink.json", root);
    FILE *out = fopen("/dev/null", "w");
    gen_options opt = {.command = GEN_CHECK, .config_path = config, .quiet = true, .summary = out};
    gen_result result;
    int rc = gen_run(&opt, &result);
    fclose(out);
    if (rc < 0 || rc > 2) abort();
    if (verbose) fprintf(stderr, "%s: exit %d\n", targets[which], rc);

    put_file(targets[which], originals[which].data, originals[which].len);
    return 0;
}
