/* content.h's default file I/O on archives past 2 GiB (size-split archives may be configured up
 * to max_archive_mb = 1,048,576). argv[1] is a scratch file path: the test makes it a sparse file
 * of 2 GiB + 64 KiB with marker bytes past 2 GiB, reads them through the default I/O and removes
 * it. Where a long has 32 bits outside Windows (32-bit POSIX), the default I/O cannot address the
 * file and must refuse to open it. Also run on Windows (Wine) and other processors by
 * tests/cross. */
#define _FILE_OFFSET_BITS 64 /* the test itself makes the file with fseeko on 32-bit POSIX */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#define TL_IMPLEMENTATION
#include <threadlink/content.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define LARGE_SIZE ((uint64_t)1 << 31 | (uint64_t)1 << 16)
#define MARKER_OFFSET (((uint64_t)1 << 31) + 100)

static const char *g_path;
static const unsigned char g_marker[8] = {'p', 'a', 's', 't', '2', 'G', 'i', 'B'};

/* The default I/O reaches the whole file where its positions have 64 bits. */
static bool default_io_has_64_bit_positions(void) {
#if defined(_WIN32)
    return true;
#else
    return sizeof(long) >= 8;
#endif
}

/* Writes the marker at MARKER_OFFSET and one byte at the end; the rest is a hole. */
static int make_sparse_file(void) {
    FILE *f = fopen(g_path, "wb");
    int ok;
    if (!f) return 0;
#if defined(_WIN32)
    ok = _fseeki64(f, (__int64)MARKER_OFFSET, SEEK_SET) == 0 &&
         fwrite(g_marker, 1, sizeof g_marker, f) == sizeof g_marker &&
         _fseeki64(f, (__int64)(LARGE_SIZE - 1), SEEK_SET) == 0 && fputc(0, f) == 0;
#else
    ok = fseeko(f, (off_t)MARKER_OFFSET, SEEK_SET) == 0 &&
         fwrite(g_marker, 1, sizeof g_marker, f) == sizeof g_marker &&
         fseeko(f, (off_t)(LARGE_SIZE - 1), SEEK_SET) == 0 && fputc(0, f) == 0;
#endif
    return fclose(f) == 0 && ok;
}

static void test_content_default_io_past_2_gib(void **state) {
    uint64_t size = 0;
    unsigned char got[sizeof g_marker], zeros[sizeof g_marker] = {0};
    void *file;
    (void)state;
    assert_true(make_sparse_file());
    file = tl__content_file_open(NULL, g_path, &size);
    if (!default_io_has_64_bit_positions()) {
        /* A clean refusal, never a wrapped size. */
        assert_null(file);
        return;
    }
    assert_non_null(file);
    assert_true(size == LARGE_SIZE);
    memset(got, 0xAA, sizeof got);
    assert_true(tl__content_file_read(NULL, file, MARKER_OFFSET, got, sizeof got));
    assert_memory_equal(got, g_marker, sizeof got);
    assert_true(tl__content_file_read(NULL, file, 100, got, sizeof got));
    assert_memory_equal(got, zeros, sizeof got); /* below 2 GiB: the hole */
    assert_true(tl__content_file_read(NULL, file, LARGE_SIZE - 1, got, 1));
    assert_false(tl__content_file_read(NULL, file, LARGE_SIZE - 1, got, 2)); /* past the end */
    tl__content_file_close(NULL, file);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_default_io_past_2_gib),
    };
    int failed;
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRATCH_FILE\n", argv[0]);
        return 2;
    }
    g_path = argv[1];
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    remove(g_path);
    return failed;
}
