/* Event signatures: the normalised text and id iris.h specifies, and every syntax error with its
 * file:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "event_sig.h"
#include "gen_fixture.h"

static void expect_sig(const char *text, const char *normalised, uint32_t id)
{
    event_sig s;
    assert_true(event_sig_parse(text, strlen(text), loc_at("e.txt", 1, 8), &s));
    assert_string_equal(s.text, normalised);
    assert_int_equal(s.id, id);
    event_sig_free(&s);
}

static void test_events_normalised_text_and_ids(void **state)
{
    (void)state;
    /* The examples pinned in runtime/threadlink/iris.h. */
    expect_sig("()", "()", 0x12f682fdu);
    expect_sig("(void)", "()", 0x12f682fdu);
    expect_sig("", "()", 0x12f682fdu);
    expect_sig("( float )", "(float)", 0x810d49fau);
    expect_sig("(double)", "(double)", 0xc5c82766u);
    expect_sig("(tl_core*)", "(tl_core *)", 0x3da08952u);
    expect_sig("(const   scene_load*)", "(const scene_load *)", 0x2c1a5172u);
    expect_sig("() -> bool", "()->bool", 0x7bb02086u);
    event_sig s;
    assert_true(event_sig_parse("(char**, char*const*,int)->unsigned long", 40, loc_at("e.txt", 1, 1), &s));
    assert_string_equal(s.text, "(char **, char * const *, int)->unsigned long");
    assert_int_equal(s.params.count, 3);
    assert_string_equal(s.result, "unsigned long");
    event_sig_free(&s);
}

static void expect_error(fixture *f, const char *text, const char *diag)
{
    event_sig s;
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_false(event_sig_parse(text, strlen(text), loc_at("e.txt", 3, 6), &s));
    assert_string_equal(f->diags.data, diag);
}

static void test_events_syntax_errors(void **state)
{
    fixture *f = *state;
    expect_error(f, "(float", "e.txt:3:12: error: expected ',' or ')' after a parameter type\n");
    expect_error(f, "(int[4])", "e.txt:3:10: error: unexpected '[' in a type (arrays, function types and '...' need a typedef)\n");
    expect_error(f, "(int, ...)", "e.txt:3:12: error: expected a parameter type (a name such as 'float' or 'const scene_load *')\n");
    expect_error(f, "(void, int)", "e.txt:3:11: error: 'void' must be the only parameter\n");
    expect_error(f, "() -> void", "e.txt:3:16: error: '-> void' is not a result: leave it out for an event without one\n");
    expect_error(f, "() bool", "e.txt:3:9: error: unexpected 'b' after the parameters (a result is written '-> type')\n");
    expect_error(f, "(*p)", "e.txt:3:7: error: expected a parameter type (a name such as 'float' or 'const scene_load *')\n");
}

static void test_events_bad_signature_in_injector_writes_nothing(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_write("injectors/Iris.Events.User.txt", "OnA(float)\n");
    assert_int_equal(fx_generate(f), 0);
    char *before = fx_snapshot("generated");
    fx_write("injectors/Iris.Events.User.txt", "OnA(float)\n  OnB(int -> bool\n");
    assert_int_equal(fx_generate(f), 1);
    assert_string_equal(f->diags.data, "injectors/Iris.Events.User.txt:2:11: error: unexpected '-' in a type (arrays, function types and '...' need a typedef)\n");
    char *after = fx_snapshot("generated");
    assert_string_equal(before, after);
    free(before), free(after);
}

static void test_events_shipped_natives(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\","
                                " \"native\": \"threadlink:natives/Iris.Events.Native.txt\", \"includes\": [\"threadlink/initium.h\"]}]}");
    fx_write("injectors/Iris.Events.User.txt", "OnSceneLoaded(const char *)\n");
    assert_int_equal(fx_generate(f), 0);
    char *h = fx_read("generated/ev.h");
    /* The framework's nine native events come first, in their order (initium.h publishes them by
     * these values), then the project's. */
    assert_non_null(strstr(h, "    Iris_Events_OnCoreDeployed = 0,\n    Iris_Events_OnUpdate = 1,\n"));
    assert_non_null(strstr(h, "    Iris_Events_OnGameResumed = 8,\n    Iris_Events_OnSceneLoaded = 9\n"));
    assert_non_null(strstr(h, "typedef void (*Iris_Events_OnCoreDeployed_fn)(void *ctx, tl_core * a0);\n"));
    assert_non_null(strstr(h, " * Do not edit"));
    assert_non_null(strstr(h, "from threadlink.json, threadlink:natives/Iris.Events.Native.txt, injectors/Iris.Events.User.txt."));
    free(h);
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\","
                                " \"native\": \"threadlink:natives/Nope.txt\"}]}");
    f->diags.len = 0;
    assert_int_equal(fx_generate(f), 1);
    assert_string_equal(f->diags.data, "threadlink.json:1:14: error: 'threadlink:natives/Nope.txt' is not a file shipped with threadlink (known: threadlink:natives/Iris.Events.Native.txt)\n");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_normalised_text_and_ids),
        T(test_events_syntax_errors),
        T(test_events_bad_signature_in_injector_writes_nothing),
        T(test_events_shipped_natives),
    };
    return cmocka_run_group_tests_name("gen_events", tests, NULL, NULL);
}
