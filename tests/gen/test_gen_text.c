/* The text the emitters print fastest: decimal numbers (put_decimal, buf_put_u64/i64) and JSON
 * strings (emit_json_string), each against a plain reference written from the format's rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "core/emit.h"

static uint64_t next_random(uint64_t *x) /* xorshift64: the same draws on every machine */
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void expect_decimal(uint64_t v)
{
    char ours[24], theirs[24];
    char *end = put_decimal(ours, v);
    *end = 0;
    snprintf(theirs, sizeof theirs, "%llu", (unsigned long long)v);
    assert_string_equal(ours, theirs);
}

static void test_put_decimal_matches_printf(void **state)
{
    (void)state;
    static const uint64_t edges[] = {0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999999,
                                     1000000000, 2147483647, 2147483648u, 4294967295u, 4294967296u,
                                     9999999999u, 10000000000u, 999999999999999999u, 1000000000000000000u,
                                     UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) expect_decimal(edges[i]);
    for (uint64_t power = 10;; power *= 10) {
        expect_decimal(power - 1), expect_decimal(power), expect_decimal(power + 1); /* every width's edges */
        if (power > UINT64_MAX / 10) break;
    }
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_random(&x);
        expect_decimal(r >> (r & 63)); /* every width, 1 to 20 digits */
    }
}

static void test_buf_numbers_append(void **state)
{
    (void)state;
    buf b = {0};
    buf_puts(&b, "v=");
    buf_put_u64(&b, 4294967295u);
    buf_putc(&b, ',');
    buf_put_i64(&b, INT64_MIN);
    buf_putc(&b, ',');
    buf_put_i64(&b, -7);
    assert_string_equal(b.data, "v=4294967295,-9223372036854775808,-7");
    assert_int_equal(b.len, strlen(b.data));
    buf_free(&b);
}

/* RFC 8259's rules as the manifest applies them: '"' and '\' escaped with a backslash, control
 * bytes as \u00xx (lower-case hex), every other byte (UTF-8 included) as it is. */
static void reference_json_string(buf *b, const char *s, size_t n)
{
    buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') buf_printf(b, "\\%c", c);
        else if (c < 0x20) buf_printf(b, "\\u%04x", c);
        else buf_putc(b, (char)c);
    }
    buf_putc(b, '"');
}

static void expect_json_string(const char *s, size_t n)
{
    buf ours = {0}, theirs = {0};
    buf_puts(&ours, "x"); /* appended after what the buffer holds */
    emit_json_string(&ours, s, n);
    buf_puts(&theirs, "x");
    reference_json_string(&theirs, s, n);
    assert_int_equal(ours.len, theirs.len);
    assert_memory_equal(ours.data, theirs.data, theirs.len);
    assert_int_equal(ours.data[ours.len], 0);
    buf_free(&ours);
    buf_free(&theirs);
}

static void test_json_string_escapes_what_json_needs(void **state)
{
    (void)state;
    expect_json_string("", 0);
    expect_json_string("user.entry0name", 15);
    expect_json_string("a\"b\\c", 5);
    expect_json_string("tab\there\nnew\x01\x1f end", 19);
    expect_json_string("caf\xc3\xa9 \xe2\x82\xac \x7f", 11);
    expect_json_string("0123456789abcdef\"", 17);  /* an escape after two plain words */
    expect_json_string("01234567\\", 9);           /* at the start of a word */
    expect_json_string("0123456\x1f" "89", 10);    /* at the end of a word */
    expect_json_string("\x20\x21\x23\x5b\x5d\x80\xff", 7); /* neighbours of the escaped bytes */
    static const char alphabet[] = "aZ09_.\"\\\x01\x1f\x20\x7f\x80\xc3\xa9\xff";
    uint64_t x = 0x9e3779b97f4a7c15u;
    char s[40];
    for (int i = 0; i < 100000; i++) {
        size_t n = next_random(&x) % sizeof s;
        for (size_t k = 0; k < n; k++) s[k] = alphabet[next_random(&x) % (sizeof alphabet - 1)];
        expect_json_string(s, n);
    }
}

/* ascii_lower_copy is ascii_lower byte by byte, for every byte value at every position of a word
 * and in the tail; fnv1a over lowered bytes is fnv1a_folded over the originals. */
static void test_lowering_matches_byte_by_byte(void **state)
{
    (void)state;
    static const char mix[] = "aZ@[`{09_.\x80\xff"; /* the range's neighbours, digits, high bytes */
    char src[24], want[24], got[24];
    for (int b = 0; b < 256; b++)
        for (size_t at = 0; at < sizeof src; at++) {
            for (size_t k = 0; k < sizeof src; k++) src[k] = mix[(k * 7 + (size_t)b) % (sizeof mix - 1)];
            src[at] = (char)b;
            for (size_t n = at + 1; n <= sizeof src; n += 5) {
                for (size_t k = 0; k < n; k++) want[k] = ascii_lower(src[k]);
                memset(got, '#', sizeof got);
                ascii_lower_copy(got, src, n);
                assert_memory_equal(got, want, n);
                if (n < sizeof got) assert_int_equal(got[n], '#'); /* nothing written past n */
                assert_int_equal(fnv1a(want, n), fnv1a_folded(src, n));
            }
        }
}

/* copy_short copies exactly n bytes, whatever the size class, and writes nothing around them. */
static void test_copy_short_copies_exactly(void **state)
{
    (void)state;
    char src[48], dst[64];
    for (size_t k = 0; k < sizeof src; k++) src[k] = (char)('a' + k % 26);
    for (size_t n = 0; n <= sizeof src; n++) {
        memset(dst, '#', sizeof dst);
        copy_short(dst + 8, src, n);
        assert_memory_equal(dst + 8, src, n);
        for (size_t k = 0; k < sizeof dst; k++)
            if (k < 8 || k >= 8 + n) assert_int_equal(dst[k], '#');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_decimal_matches_printf),
        cmocka_unit_test(test_buf_numbers_append),
        cmocka_unit_test(test_json_string_escapes_what_json_needs),
        cmocka_unit_test(test_lowering_matches_byte_by_byte),
        cmocka_unit_test(test_copy_short_copies_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
