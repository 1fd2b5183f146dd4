/* Fuzz target: `diff` of two manifests taken from one input (split at the first NUL, or in the
 * middle), and, after a second NUL, an allow-file. Manifests and allow-files in pull requests are
 * untrusted: no input may crash, hang or read out of bounds; unreadable ones exit 2. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/diag.h"
#include "core/diff.h"

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
    const uint8_t *rest = data + split + (nul != NULL);
    size_t rest_size = size - split - (nul != NULL);
    const uint8_t *nul2 = nul ? memchr(rest, 0, rest_size) : NULL;
    size_t new_size = nul2 ? (size_t)(nul2 - rest) : rest_size;
    char old_path[64], new_path[64], allow_path[64];
    int a = as_file(data, split, old_path, sizeof old_path);
    int b = as_file(rest, new_size, new_path, sizeof new_path);
    int c = nul2 ? as_file(nul2 + 1, rest_size - new_size - 1, allow_path, sizeof allow_path) : -1;
    diag_set_sink((diag_sink){ignore_diag, NULL});
    FILE *out = fopen("/dev/null", "w");
    diff_options opt = {.old_path = old_path, .new_path = new_path, .format = (diff_format)(size % 4), .out = out,
                        .allow_file = nul2 ? allow_path : NULL};
    int rc = diff_run(&opt);
    if (rc < 0 || rc > 2) abort();
    fclose(out);
    if (c >= 0) close(c);
    close(a);
    close(b);
    return 0;
}
