/* Fuzz target: `diff` of two manifests taken from one input (split at the first NUL, or in the
 * middle). Manifests in pull requests are untrusted: no input may crash, hang or read out of
 * bounds; unreadable ones exit 2. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "diff.h"

static void ignore_diag(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

static int as_file(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("manifest", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) abort();
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t split = nul ? (size_t)(nul - data) : size / 2;
    char old_path[64], new_path[64];
    int a = as_file(data, split, old_path, sizeof old_path);
    int b = as_file(data + split + (nul != NULL), size - split - (nul != NULL), new_path, sizeof new_path);
    diag_set_sink((diag_sink){ignore_diag, NULL});
    FILE *out = fopen("/dev/null", "w");
    diff_options opt = {.old_path = old_path, .new_path = new_path, .format = (diff_format)(size % 4), .out = out};
    int rc = diff_run(&opt);
    if (rc < 0 || rc > 2) abort();
    fclose(out);
    close(a);
    close(b);
    return 0;
}
