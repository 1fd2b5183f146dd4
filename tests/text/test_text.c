/* Unit tests of threadlink/text.h: UTF-8 validation (shortest forms, no surrogates, nothing above
 * U+10FFFF, no control characters), ASCII case folding and its order, plain and portable file
 * names, the names Windows cannot hold, with the phrase that says why, and the names' comparison
 * key (canonical decomposition and order, then the ASCII fold). With --keys, it reads lines of
 * hex-encoded bytes on stdin and prints each one's key, hex-encoded: tests/text/unicode_oracle.py
 * compares them with Python's unicodedata. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/text.h>

static bool utf8_ok(const char *s) { return tl_text_utf8_ok((const unsigned char *)s, strlen(s)); }

static void test_text_utf8_accepts_well_formed_text(void **state) {
    (void)state;
    assert_true(tl_text_utf8_ok((const unsigned char *)"", 0));
    assert_true(utf8_ok("plain ASCII ~"));
    assert_true(utf8_ok("caf\xc3\xa9"));            /* U+00E9, two bytes */
    assert_true(utf8_ok("\xc2\x80"));               /* U+0080, the smallest two-byte form */
    assert_true(utf8_ok("\xe0\xa0\x80"));           /* U+0800 */
    assert_true(utf8_ok("\xed\x9f\xbf\xee\x80\x80")); /* U+D7FF, U+E000: around the surrogates */
    assert_true(utf8_ok("\xef\xbf\xbf"));           /* U+FFFF */
    assert_true(utf8_ok("\xf0\x90\x80\x80"));       /* U+10000 */
    assert_true(utf8_ok("\xf4\x8f\xbf\xbf"));       /* U+10FFFF, the largest */
}

static void test_text_utf8_refuses_malformed_text_and_controls(void **state) {
    static const char *const refused[] = {
        "\x1f", "a\tb", "\x7f", "a\nb",          /* control characters */
        "\x80", "a\xbf",                         /* a continuation byte without a lead */
        "\xc0\x80", "\xc1\xbf",                  /* overlong two-byte forms (C0, C1 leads) */
        "\xe0\x80\x80", "\xe0\x9f\xbf",          /* overlong three-byte forms */
        "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",  /* overlong four-byte forms */
        "\xed\xa0\x80", "\xed\xbf\xbf",          /* surrogates U+D800, U+DFFF */
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",  /* above U+10FFFF */
        "\xff", "\xfe",                          /* never in UTF-8 */
        "\xc3", "\xe2\x82", "\xf0\x9f\x98",      /* cut short */
        "\xc3(", "\xe2\x28\xa1", "\xf0\x9f\x98\x28", /* a continuation byte missing */
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof refused / sizeof *refused; i++)
        if (utf8_ok(refused[i])) fail_msg("refused[%zu] was accepted", i);
    /* The length given is what is read: a sequence cut by it is refused, a NUL inside counts. */
    assert_false(tl_text_utf8_ok((const unsigned char *)"\xc3\xa9", 1));
    assert_false(tl_text_utf8_ok((const unsigned char *)"a\0b", 3));
}

static void test_text_fold_and_its_order(void **state) {
    (void)state;
    assert_int_equal(tl_text_fold('A'), 'a');
    assert_int_equal(tl_text_fold('Z'), 'z');
    assert_int_equal(tl_text_fold('@'), '@');
    assert_int_equal(tl_text_fold('['), '[');
    assert_int_equal(tl_text_fold(0xc9), 0xc9); /* only ASCII folds */
    assert_int_equal(tl_text_fold_compare("Hero", 4, "hERO", 4), 0);
    assert_int_equal(tl_text_fold_compare("apple", 5, "Banana", 6), -1);
    assert_int_equal(tl_text_fold_compare("Banana", 6, "apple", 5), 1);
    assert_int_equal(tl_text_fold_compare("ab", 2, "ABC", 3), -1); /* a prefix comes first */
    assert_int_equal(tl_text_fold_compare("ABC", 3, "ab", 2), 1);
    assert_int_equal(tl_text_fold_compare("", 0, "", 0), 0);
    /* Folded bytes compare unsigned: '_' (0x5f) after 'Z' folds to 'z' (0x7a), so before it. */
    assert_int_equal(tl_text_fold_compare("_", 1, "Z", 1), -1);
    assert_int_equal(tl_text_fold_compare("\xc3\xa9", 2, "z", 1), 1);
}

static void test_text_file_names(void **state) {
    char long_name[257];
    (void)state;
    assert_true(tl_text_valid_file_name("a", 1));
    assert_true(tl_text_valid_file_name("..a", 3));
    assert_true(tl_text_valid_file_name("caf\xc3\xa9", 5));
    assert_false(tl_text_valid_file_name("", 0));
    assert_false(tl_text_valid_file_name(".", 1));
    assert_false(tl_text_valid_file_name("..", 2));
    assert_false(tl_text_valid_file_name("a/b", 3));
    assert_false(tl_text_valid_file_name("a\\b", 3));
    assert_false(tl_text_valid_file_name("a\tb", 3));
    assert_false(tl_text_valid_file_name("\xc3", 1));
    memset(long_name, 'x', sizeof long_name);
    assert_true(tl_text_valid_file_name(long_name, 255));
    assert_false(tl_text_valid_file_name(long_name, 256));
    /* The names of a packed build: only ':' beyond a valid file name. */
    assert_true(tl_text_portable_file_name("CON", 3));
    assert_true(tl_text_portable_file_name("a?", 2));
    assert_false(tl_text_portable_file_name("a:b", 3));
    assert_false(tl_text_portable_file_name("..", 2));
}

/* The rule flat builds (content_format.h's tl_cf_flat_file_name) and content.h's flat catalogs
   follow, as pack checks it before it writes. */
static void test_text_windows_name_rule(void **state) {
    static const char *const refused[] = {
        "a:b", "a<b", "a>b", "a\"b", "a|b", "a?b", "a*b", "a\tb", "a.", "a ", "..x.", "CON", "con",
        "Con.txt", "PRN.a.b", "aux", "NUL.", "nul .txt", "COM1", "com9.x", "LPT1", "lpt9.tar.gz",
        "COM\xc2\xb9", "lpt\xc2\xb3.txt"};
    static const char *const allowed[] = {
        "a", "a.b", ".hidden", "CONX", "CON_", "xCON", "a.CON", "COM0", "COM10", "LPT", "COM",
        "caf\xc3\xa9.txt", "COM\xc2\xb4", " lead", "a b.c", "a'b", "#1%.x"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof refused / sizeof *refused; i++) {
        const char *n = refused[i];
        if (!tl_text_windows_name_problem(n, strlen(n))) fail_msg("\"%s\" should be refused", n);
    }
    for (i = 0; i < sizeof allowed / sizeof *allowed; i++) {
        const char *n = allowed[i];
        const char *why = tl_text_windows_name_problem(n, strlen(n));
        if (why) fail_msg("\"%s\" should be allowed, not refused: %s", n, why);
    }
    /* The phrase follows "file name" in the generator's and the runtime's messages. */
    assert_string_equal(tl_text_windows_name_problem("a?b", 3),
                        "contains '?', which Windows does not allow in file names");
    assert_string_equal(tl_text_windows_name_problem("a:b", 3),
                        "contains ':', a drive or stream separator on Windows");
    assert_string_equal(tl_text_windows_name_problem("a\x01", 2),
                        "contains a control character, which Windows does not allow in file names");
    assert_string_equal(tl_text_windows_name_problem("a.", 2),
                        "ends in '.', which Windows drops from file names");
    assert_string_equal(tl_text_windows_name_problem("a ", 2),
                        "ends in a space, which Windows drops from file names");
    assert_string_equal(tl_text_windows_name_problem("nul .txt", 8),
                        "is a Windows device name (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, with "
                        "or without an extension)");
    /* A byte the name may not hold is named before the end it may not have. */
    assert_string_equal(tl_text_windows_name_problem("a*.", 3),
                        "contains '*', which Windows does not allow in file names");
}

/* ---- the names' comparison key ---------------------------------------------------------------- */

/* The key of s (a C string) as a string (a static buffer), checked: within TL_TEXT_NAME_KEY_MAX,
   and its own key (the key is idempotent). */
static const char *key_of(const char *s) {
    static char out[4][256];
    static int turn;
    char again[256];
    char *k = out[turn++ % 4];
    size_t n = tl_text_name_key(s, strlen(s), k, sizeof out[0] - 1), m;
    assert_true(n != (size_t)-1);
    assert_true(n <= TL_TEXT_NAME_KEY_MAX(strlen(s)));
    k[n] = 0;
    m = tl_text_name_key(k, n, again, sizeof again);
    assert_int_equal(m, n);
    assert_memory_equal(again, k, n);
    return k;
}

static void test_text_key_equates_composed_and_decomposed(void **state) {
    (void)state;
    /* "café": U+00E9, or e + U+0301 (as macOS file systems store it): one key, decomposed. */
    assert_string_equal(key_of("caf\xc3\xa9"), "cafe\xcc\x81");
    assert_string_equal(key_of("cafe\xcc\x81"), "cafe\xcc\x81");
    /* Then the ASCII fold: É (E + U+0301) and é share a key too. */
    assert_string_equal(key_of("Caf\xc3\x89"), "cafe\xcc\x81");
    assert_string_equal(key_of("Icons/Sword"), "icons/sword");
    /* Decomposed all the way (U+1E69: s + U+0323 + U+0307; U+1F82: alpha and three marks). */
    assert_string_equal(key_of("\xe1\xb9\xa9"), "s\xcc\xa3\xcc\x87");
    assert_string_equal(key_of("\xe1\xbe\x82"), "\xce\xb1\xcc\x93\xcc\x80\xcd\x85");
    /* Singletons: KELVIN SIGN is K, OHM SIGN is omega. */
    assert_string_equal(key_of("\xe2\x84\xaa"), "k");
    assert_string_equal(key_of("\xe2\x84\xa6"), "\xce\xa9");
    /* Hangul syllables by arithmetic: U+D55C is U+1112 U+1161 U+11AB. */
    assert_string_equal(key_of("\xed\x95\x9c"), "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab");
    /* Beyond the BMP: U+1D15E is U+1D157 U+1D165. */
    assert_string_equal(key_of("\xf0\x9d\x85\x9e"), "\xf0\x9d\x85\x97\xf0\x9d\x85\xa5");
    /* Nothing else changes: other letters, other scripts, compatibility forms (U+FB01 fi). */
    assert_string_equal(key_of("\xc3\x9f\xe6\x97\xa5\xef\xac\x81"), "\xc3\x9f\xe6\x97\xa5\xef\xac\x81");
}

static void test_text_key_orders_marks_canonically(void **state) {
    const char *want = "a\xcc\xa3\xcc\x81"; /* a, dot below (class 220), acute (230) */
    (void)state;
    assert_string_equal(key_of("a\xcc\x81\xcc\xa3"), want);
    assert_string_equal(key_of("a\xcc\xa3\xcc\x81"), want);
    assert_string_equal(key_of("\xc3\xa1\xcc\xa3"), want);     /* á + dot below */
    assert_string_equal(key_of("\xe1\xba\xa1\xcc\x81"), want); /* ạ + acute */
    /* Marks of one class keep their order; a starter ends a run. */
    assert_string_equal(key_of("a\xcc\x81\xcc\x80"), "a\xcc\x81\xcc\x80");
    assert_string_equal(key_of("a\xcc\x81" "b\xcc\xa3"), "a\xcc\x81" "b\xcc\xa3");
    /* Marks before any starter are ordered too. */
    assert_string_equal(key_of("\xcc\x81\xcc\xa3"), "\xcc\xa3\xcc\x81");
}

static void test_text_key_keeps_bytes_that_are_not_utf8(void **state) {
    (void)state;
    assert_string_equal(key_of("A\xff"), "a\xff");
    assert_string_equal(key_of("\xc3" "A"), "\xc3" "a");              /* a lead without its byte */
    assert_string_equal(key_of("\xed\xa0\x80"), "\xed\xa0\x80");        /* a surrogate */
    assert_string_equal(key_of("\xe0\x80\xaf"), "\xe0\x80\xaf");        /* an overlong form */
    assert_string_equal(key_of("\xc3\xa9\xcc"), "e\xcc\x81\xcc");       /* cut short at the end */
    /* A byte that is not UTF-8 ends a run of marks: nothing moves across it. */
    assert_string_equal(key_of("a\xcc\x81\xff\xcc\xa3"), "a\xcc\x81\xff\xcc\xa3");
}

static void test_text_key_room(void **state) {
    char out[16];
    (void)state;
    assert_int_equal(TL_TEXT_NAME_KEY_MAX(5), 15);
    assert_int_equal(tl_text_name_key("", 0, out, 0), 0);
    /* "café" needs 6 bytes: refused in 5, written in 6. */
    assert_int_equal(tl_text_name_key("caf\xc3\xa9", 5, out, 5), (size_t)-1);
    assert_int_equal(tl_text_name_key("caf\xc3\xa9", 5, out, 6), 6);
    assert_memory_equal(out, "cafe\xcc\x81", 6);
    /* The most a name decomposes to: three times its bytes (U+0390, two bytes, is six). */
    assert_int_equal(tl_text_name_key("\xce\x90", 2, out, TL_TEXT_NAME_KEY_MAX(2)), 6);
    assert_memory_equal(out, "\xce\xb9\xcc\x88\xcc\x81", 6);
}

/* --keys: each line of stdin, hex-encoded bytes, answered with its key, hex-encoded. */
static int print_keys(void) {
    static char line[1 << 16], bytes[1 << 15], key[3 << 15];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = 0, k, i;
        while (line[2 * n] && line[2 * n] != '\n' && n < sizeof bytes) {
            unsigned v;
            if (sscanf(line + 2 * n, "%2x", &v) != 1) return 2;
            bytes[n++] = (char)v;
        }
        k = tl_text_name_key(bytes, n, key, sizeof key);
        if (k == (size_t)-1) return 3;
        for (i = 0; i < k; i++) printf("%02x", (unsigned char)key[i]);
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_utf8_accepts_well_formed_text),
        cmocka_unit_test(test_text_utf8_refuses_malformed_text_and_controls),
        cmocka_unit_test(test_text_fold_and_its_order),
        cmocka_unit_test(test_text_file_names),
        cmocka_unit_test(test_text_windows_name_rule),
        cmocka_unit_test(test_text_key_equates_composed_and_decomposed),
        cmocka_unit_test(test_text_key_orders_marks_canonically),
        cmocka_unit_test(test_text_key_keeps_bytes_that_are_not_utf8),
        cmocka_unit_test(test_text_key_room),
    };
    if (argc > 1 && strcmp(argv[1], "--keys") == 0) return print_keys();
    return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
