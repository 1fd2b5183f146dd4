/* "Did you mean ...?": the edit distance behind it and which names it offers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/suggest.h"

static size_t dist(const char *a, const char *b) { return suggest_distance(a, strlen(a), b, strlen(b)); }

static const char *nearest(const char *word, const char *const *names)
{
    return suggest_nearest(word, strlen(word), names, SIZE_MAX);
}

static void test_suggest_distance_counts_edits(void **state)
{
    (void)state;
    assert_int_equal(dist("", ""), 0);
    assert_int_equal(dist("", "abc"), 3);
    assert_int_equal(dist("abc", ""), 3);
    assert_int_equal(dist("kitten", "sitting"), 3);
    assert_int_equal(dist("output", "outptu"), 1); /* two neighbours swapped: one edit */
    assert_int_equal(dist("ab", "ba"), 1);
    assert_int_equal(dist("abc", "ca"), 3);      /* optimal string alignment, not full Damerau */
    assert_int_equal(dist("Output", "oUTPUT"), 0); /* ASCII case does not count */
    assert_int_equal(dist("generat", "generate"), 1);
    assert_int_equal(dist("Tset.Ids", "Test.Ids"), 1);
    assert_int_equal(dist("flaot", "float"), 1);
    assert_int_equal(dist("abcdef", "azcdxf"), 2);
}

static void test_suggest_distance_is_bounded_on_long_words(void **state)
{
    (void)state;
    char a[200], b[200];
    memset(a, 'a', sizeof a - 1);
    a[sizeof a - 1] = 0;
    memcpy(b, a, sizeof b);
    b[150] = 'b'; /* past SUGGEST_MAX_LEN: not compared */
    assert_int_equal(dist(a, b), 0);
    b[10] = 'b';
    assert_int_equal(dist(a, b), 1);
}

static void test_suggest_nearest_offers_likely_typos_only(void **state)
{
    (void)state;
    static const char *const keys[] = {"name", "output", "kind", "reserve_zero", "shell", "native", "includes", NULL};
    static const char *const commands[] = {"generate", "headers", "check", "diff", "pack", "watch", NULL};
    assert_string_equal(nearest("outptu", keys), "output");
    assert_string_equal(nearest("Output", keys), "output");
    assert_string_equal(nearest("reserve-zero", keys), "reserve_zero");
    assert_string_equal(nearest("include", keys), "includes");
    assert_null(nearest("colour", keys));      /* nothing within one edit per three characters */
    assert_null(nearest("frobnicate", commands));
    assert_string_equal(nearest("generat", commands), "generate");
    assert_string_equal(nearest("chekc", commands), "check");
    assert_null(nearest("x", commands));       /* a short word needs an exact (case-blind) match */
    assert_null(nearest("", commands));
}

static void test_suggest_nearest_prefers_nearer_then_earlier(void **state)
{
    (void)state;
    static const char *const names[] = {"alpha", "alphb", "alph", NULL};
    assert_string_equal(nearest("alphb", names), "alphb"); /* nearer wins over earlier */
    assert_string_equal(nearest("alphc", names), "alpha"); /* a tie goes to the earlier name */
    /* a count shorter than the list limits the candidates */
    assert_string_equal(suggest_nearest("alphb", 5, names, 1), "alpha");
    assert_null(suggest_nearest("alphb", 5, names, 0));
}

/* The nearest three of `names` to `word`, as indices into names, written to `out` as "i,j,k". */
static void top_of(const char *word, const char *const *names, char *out)
{
    suggest_top top = {0};
    for (size_t i = 0; names[i]; i++) suggest_top_offer(&top, word, strlen(word), names[i], strlen(names[i]), i);
    out[0] = '\0';
    for (size_t k = 0; k < top.count; k++) sprintf(out + strlen(out), "%s%zu", k ? "," : "", top.index[k]);
}

static void test_suggest_top_keeps_the_nearest_three_in_order(void **state)
{
    (void)state;
    char got[64];
    static const char *const names[] = {"zzzzzz", "speed", "spede", "sped", "speeds", "spud", NULL};
    top_of("speed", names, got);
    assert_string_equal(got, "1,2,3"); /* 0, then a tie of 1s keeps the earlier: spede before sped */
    top_of("xx", names, got);
    assert_string_equal(got, "3,5,1"); /* far from all, still three: sped, spud (4 edits), speed (5) */
    static const char *const two[] = {"beta", "alpha", NULL};
    top_of("alpha", two, got);
    assert_string_equal(got, "1,0"); /* fewer candidates than places */
    static const char *const none[] = {NULL};
    top_of("alpha", none, got);
    assert_string_equal(got, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suggest_distance_counts_edits),
        cmocka_unit_test(test_suggest_distance_is_bounded_on_long_words),
        cmocka_unit_test(test_suggest_nearest_offers_likely_typos_only),
        cmocka_unit_test(test_suggest_nearest_prefers_nearer_then_earlier),
        cmocka_unit_test(test_suggest_top_keeps_the_nearest_three_in_order),
    };
    return cmocka_run_group_tests_name("gen_suggest", tests, NULL, NULL);
}
