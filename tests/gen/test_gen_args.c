/* Command-line options from a table: values in either spelling, operands, and the errors a
 * user sees for an unknown option, a missing value or a value given to a flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/args.h"

enum { OPT_DIR, OPT_CONFIG, OPT_QUIET, OPT_FORMAT };

static const args_option table[] = {
    {"-C", true, OPT_DIR},
    {"--config", true, OPT_CONFIG},
    {"--quiet", false, OPT_QUIET},
    {"--format", true, OPT_FORMAT},
    {NULL, false, 0},
};

/* A cursor over argv[1..] of a NULL-terminated list. */
static args_cursor cursor(char **argv)
{
    int argc = 0;
    while (argv[argc]) argc++;
    return (args_cursor){.argc = argc, .argv = argv, .next = 1, .options = table, .what = "option"};
}

/* The message of the error the single argument list ends in. */
static void assert_error(char **argv, const char *message)
{
    args_cursor c = cursor(argv);
    int id;
    while ((id = args_next(&c)) >= 0 || id == ARGS_OPERAND) {}
    assert_int_equal(id, ARGS_ERROR);
    assert_non_null(c.error);
    assert_string_equal(c.error, message);
    free(c.error);
}

static void test_args_reads_options_values_and_operands(void **state)
{
    (void)state;
    char *argv[] = {"gen", "-C", "dir", "--config=a.json", "--quiet", "old", "--format", "json",
                    "-", "--", "--quiet", NULL};
    args_cursor c = cursor(argv);
    assert_int_equal(args_next(&c), OPT_DIR);
    assert_string_equal(c.value, "dir");
    assert_int_equal(args_next(&c), OPT_CONFIG);
    assert_string_equal(c.value, "a.json");
    assert_int_equal(args_next(&c), OPT_QUIET);
    assert_null(c.value);
    assert_int_equal(args_next(&c), ARGS_OPERAND);
    assert_string_equal(c.value, "old");
    assert_int_equal(args_next(&c), OPT_FORMAT);
    assert_string_equal(c.value, "json");
    assert_int_equal(args_next(&c), ARGS_OPERAND); /* a lone "-" names standard input */
    assert_string_equal(c.value, "-");
    assert_int_equal(args_next(&c), ARGS_OPERAND); /* after "--", nothing is an option */
    assert_string_equal(c.value, "--quiet");
    assert_int_equal(args_next(&c), ARGS_END);
    assert_int_equal(args_next(&c), ARGS_END);
}

static void test_args_takes_the_next_argument_as_a_value_even_with_a_dash(void **state)
{
    (void)state;
    char *argv[] = {"gen", "--config", "--quiet", NULL};
    args_cursor c = cursor(argv);
    assert_int_equal(args_next(&c), OPT_CONFIG);
    assert_string_equal(c.value, "--quiet");
    assert_int_equal(args_next(&c), ARGS_END);
}

static void test_args_reports_missing_and_unexpected_values(void **state)
{
    (void)state;
    assert_error((char *[]){"gen", "--quiet", "--config", NULL}, "option '--config' needs a value");
    assert_error((char *[]){"gen", "--config=", NULL}, "option '--config' needs a value");
    assert_error((char *[]){"gen", "-C", NULL}, "option '-C' needs a value");
    assert_error((char *[]){"gen", "--quiet=yes", NULL}, "option '--quiet' takes no value");
    /* only a long option carries "=VALUE" */
    assert_error((char *[]){"gen", "-C=dir", NULL}, "option '-C' takes its value as the next argument ('-C dir')");
}

static void test_args_names_the_option_a_typo_meant(void **state)
{
    (void)state;
    assert_error((char *[]){"gen", "--quite", NULL}, "unknown option '--quite' (did you mean '--quiet'?)");
    assert_error((char *[]){"gen", "--formt=json", NULL}, "unknown option '--formt=json' (did you mean '--format'?)");
    assert_error((char *[]){"gen", "-config", "x", NULL}, "unknown option '-config' (did you mean '--config'?)");
    assert_error((char *[]){"gen", "-c", NULL}, "unknown option '-c' (did you mean '-C'?)");
    /* one letter is no evidence of a typo */
    assert_error((char *[]){"gen", "-x", NULL}, "unknown option '-x'");
    assert_error((char *[]){"gen", "--bogus", NULL}, "unknown option '--bogus'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args_reads_options_values_and_operands),
        cmocka_unit_test(test_args_takes_the_next_argument_as_a_value_even_with_a_dash),
        cmocka_unit_test(test_args_reports_missing_and_unexpected_values),
        cmocka_unit_test(test_args_names_the_option_a_typo_meant),
    };
    return cmocka_run_group_tests_name("gen_args", tests, NULL, NULL);
}
