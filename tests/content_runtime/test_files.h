/* Whole-file reading and writing for the content runtime tests; apart from the test globals of
 * content_test_util.h, so the fuzz target can use it too. */
#ifndef CONTENT_TEST_FILES_H
#define CONTENT_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

/* The file's bytes with a NUL after them (malloc), NULL when it cannot be read. */
static inline unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    long n;
    unsigned char *d;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    d = (unsigned char *)malloc((size_t)n + 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    if (d) {
        d[n] = 0;
        *size = (size_t)n;
    }
    return d;
}

static inline int write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f) return 0;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

#endif
