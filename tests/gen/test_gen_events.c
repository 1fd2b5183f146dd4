/* Event signatures: the normalised text and id events.h specifies, and every syntax error with its
 * file:line:col. The exact header the shipped natives give is a golden case
 * (tests/gen/golden/events-shipped-natives). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/event_sig.h"
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
    /* The examples pinned in runtime/threadlink/events.h. */
    expect_sig("()", "()", 0x12f682fdu);
    expect_sig("(void)", "()", 0x12f682fdu);
    expect_sig("", "()", 0x12f682fdu);
    expect_sig("( float )", "(float)", 0x810d49fau);
    expect_sig("(double)", "(double)", 0xc5c82766u);
    expect_sig("(tl_lifecycle*)", "(tl_lifecycle *)", 0xfe445e4eu);
    expect_sig("(const   scene_load*)", "(const scene_load *)", 0x2c1a5172u);
    expect_sig("() -> bool", "()->bool", 0x7bb02086u);
    event_sig s;
    assert_true(event_sig_parse("(char**, char*const*,int)->unsigned long", 40, loc_at("e.txt", 1, 1), &s));
    assert_string_equal(s.text, "(char **, char * const *, int)->unsigned long");
    assert_int_equal(s.params.count, 3);
    assert_string_equal(s.result, "unsigned long");
    event_sig_free(&s);
}

/* C's type names, which the parameter-name check must leave alone. Their text and id are what the
 * parser gave before it had that check (ids are persisted). */
static void test_events_type_names_accepted(void **state)
{
    (void)state;
    expect_sig("(unsigned)", "(unsigned)", 0x7444dd42u);
    expect_sig("(long long, long double)", "(long long, long double)", 0xb05b7d36u);
    expect_sig("(signed char,unsigned long long int)", "(signed char, unsigned long long int)", 0xbcf982f2u);
    expect_sig("(const char *const *)", "(const char * const *)", 0xa9261dbeu);
    expect_sig("(struct foo *, enum color, union u)", "(struct foo *, enum color, union u)", 0x4eca225au);
    expect_sig("(const struct foo *restrict)", "(const struct foo * restrict)", 0xb5391018u);
    expect_sig("(struct _IO_FILE *)", "(struct _IO_FILE *)", 0x00b3e540u);
    expect_sig("(uint32_t, const tl_fp *, scene_load const *volatile)", "(uint32_t, const tl_fp *, scene_load const * volatile)", 0xc95371f0u);
    expect_sig("(void *, void **)", "(void *, void **)", 0x3a8021f4u);
    expect_sig("(unsigned __int128, _Bool, double _Complex, _Atomic int)", "(unsigned __int128, _Bool, double _Complex, _Atomic int)", 0x6f93c95eu);
    expect_sig("(void) -> const char *", "()->const char *", 0x4ef9b890u);
    expect_sig("(int) -> uint8_t", "(int)->uint8_t", 0x154185e2u);
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
    expect_error(f, "() -> void", "e.txt:3:9: error: '-> void' is not a result: leave it out for an event without one\n");
    expect_error(f, "() ->  void   ", "e.txt:3:9: error: '-> void' is not a result: leave it out for an event without one\n");
    expect_error(f, "() bool", "e.txt:3:9: error: unexpected 'b' after the parameters (a result is written '-> type')\n");
    expect_error(f, "(*p)", "e.txt:3:7: error: expected a parameter type (a name such as 'float' or 'const scene_load *')\n");
}

/* A C programmer writes parameter names; C's rules tell them from typedef names (see event_sig.c). */
static void test_events_parameter_names(void **state)
{
    fixture *f = *state;
    expect_error(f, "(int amount, float scale)",
                 "e.txt:3:11: error: 'amount' looks like a parameter name: a signature lists types only (write 'int')\n");
    expect_error(f, "(int, float scale)",
                 "e.txt:3:18: error: 'scale' looks like a parameter name: a signature lists types only (write 'float')\n");
    expect_error(f, "(const scene_load *scene)",
                 "e.txt:3:25: error: 'scene' looks like a parameter name: a signature lists types only (write 'const scene_load *')\n");
    expect_error(f, "(struct foo bar)",
                 "e.txt:3:18: error: 'bar' looks like a parameter name: a signature lists types only (write 'struct foo')\n");
    expect_error(f, "(uint8_t count)",
                 "e.txt:3:15: error: 'count' looks like a parameter name: a signature lists types only (write 'uint8_t')\n");
    expect_error(f, "() -> bool ok",
                 "e.txt:3:17: error: 'ok' looks like a parameter name: a signature lists types only (write 'bool')\n");
    expect_error(f, "(unsigned long n)",
                 "e.txt:3:21: error: 'n' looks like a parameter name: a signature lists types only (write 'unsigned long')\n");
    expect_error(f, "(const char*const*argv)",
                 "e.txt:3:24: error: 'argv' looks like a parameter name: a signature lists types only (write 'const char * const *')\n");
    expect_error(f, "(void *p)",
                 "e.txt:3:13: error: 'p' looks like a parameter name: a signature lists types only (write 'void *')\n");
    expect_error(f, "(register int x)",
                 "e.txt:3:20: error: 'x' looks like a parameter name: a signature lists types only (write 'register int')\n");
    /* struct / union / enum take exactly one tag. */
    expect_error(f, "(struct *)", "e.txt:3:14: error: expected a tag name after 'struct' (as in 'struct foo *')\n");
    expect_error(f, "(enum)", "e.txt:3:11: error: expected a tag name after 'enum' (as in 'enum foo *')\n");
    expect_error(f, "(union const u)", "e.txt:3:13: error: expected a tag name after 'union' (as in 'union foo *')\n");
    /* A syntax error further on says more about what the name declared. */
    expect_error(f, "(int amount[4])", "e.txt:3:17: error: unexpected '[' in a type (arrays, function types and '...' need a typedef)\n");
}

/* What C would refuse when the header is compiled is refused at the injector line instead: a
 * qualifier with no type, a typedef name or tag with a builtin keyword, builtin keywords that do
 * not combine. (e.txt:3:6 is the signature's '('.) */
static void test_events_type_specifiers(void **state)
{
    fixture *f = *state;
    expect_error(f, "(const)", "e.txt:3:7: error: 'const' names no type: a qualifier needs one (as in 'const float')\n");
    expect_error(f, "(int, volatile *)", "e.txt:3:12: error: 'volatile *' names no type: a qualifier needs one (as in 'const float')\n");
    expect_error(f, "(uint8_t int)",
                 "e.txt:3:15: error: 'int' does not combine with the rest of 'uint8_t int': a typedef name or tag takes no builtin type keyword\n");
    expect_error(f, "(struct foo long)",
                 "e.txt:3:18: error: 'long' does not combine with the rest of 'struct foo long': a typedef name or tag takes no builtin type keyword\n");
    expect_error(f, "(int struct foo)",
                 "e.txt:3:11: error: 'struct' does not combine with the rest of 'int struct foo': a tagged type takes no other type\n");
    expect_error(f, "(float int)",
                 "e.txt:3:13: error: 'int' does not combine with the rest of 'float int': a floating type is 'float', 'double' or 'long double' (with '_Complex')\n");
    expect_error(f, "(long long double)",
                 "e.txt:3:17: error: 'double' does not combine with the rest of 'long long double': a floating type is 'float', 'double' or 'long double' (with '_Complex')\n");
    expect_error(f, "(unsigned signed)",
                 "e.txt:3:16: error: 'signed' does not combine with the rest of 'unsigned signed': 'signed' and 'unsigned' go once, and not together\n");
    expect_error(f, "(long long long)", "e.txt:3:17: error: 'long' does not combine with the rest of 'long long long': 'long' goes at most twice\n");
    expect_error(f, "(int int)", "e.txt:3:11: error: 'int' does not combine with the rest of 'int int': a type keyword other than 'long' goes once\n");
    expect_error(f, "(void int)", "e.txt:3:12: error: 'int' does not combine with the rest of 'void int': 'void' and 'bool' combine with no other type keyword\n");
    expect_error(f, "(char short)", "e.txt:3:12: error: 'short' does not combine with the rest of 'char short': 'char' combines only with 'signed' or 'unsigned'\n");
    expect_error(f, "(short long)", "e.txt:3:13: error: 'long' does not combine with the rest of 'short long': 'short' and 'long' do not combine\n");
    expect_error(f, "() -> const", "e.txt:3:12: error: 'const' names no type: a qualifier needs one (as in 'const float')\n");
    /* Every C combination, in any order, and the implementation's own types. */
    static const char *const fine[] = {
        "(char, signed char, char unsigned, short, short int, signed short int, unsigned short)",
        "(int, signed, signed int, unsigned, unsigned int, int unsigned)",
        "(long, long int, signed long, unsigned long int, long long, long long int, int long long unsigned)",
        "(float, double, long double, double long, float _Complex, long double _Complex, double _Imaginary)",
        "(bool, _Bool, void *, const volatile int, uint8_t const, __int128, unsigned __int128, __m128)",
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        event_sig s;
        f->diags.len = 0;
        assert_true(event_sig_parse(fine[i], strlen(fine[i]), loc_at("e.txt", 3, 6), &s));
        event_sig_free(&s);
    }
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

static void test_events_parameter_name_in_injector_writes_nothing(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_write("injectors/Iris.Events.User.txt", "OnDamage(int)\n");
    assert_int_equal(fx_generate(f), 0);
    char *before = fx_snapshot("generated");
    fx_write("injectors/Iris.Events.User.txt", "OnDamage(int amount)\n");
    f->diags.len = 0;
    assert_int_equal(fx_generate(f), 1);
    assert_string_equal(f->diags.data, "injectors/Iris.Events.User.txt:1:14: error: 'amount' looks like a parameter name: "
                                       "a signature lists types only (write 'int')\n");
    char *after = fx_snapshot("generated");
    assert_string_equal(before, after);
    free(before), free(after);
}

/* A project event with a native event's name (compared case-insensitively) is warned about at
 * the project's declaration on every pass that reads the inputs, saying which of the two C gives
 * the plain name: when the project's event had it first (the manifest keeps it), code written for
 * the native gets the project's event. Other events draw nothing. */
static void test_events_native_namesake_warned(void **state)
{
    fixture *f = *state;
    static const char with_natives[] =
        "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\","
        " \"native\": \"threadlink:natives/Iris.Events.Native.txt\", \"includes\": [\"threadlink/lifecycle.h\"]}]}";
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Iris.Events\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_write("injectors/Iris.Events.User.txt", "OnPlaytimeTick(float)\n  OnSceneLoaded(const char *)\n");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
    /* The natives arrive after the project's event took the plain name. */
    fx_write("threadlink.json", with_natives);
    assert_int_equal(fx_generate(f), 0);
    const char *taken =
        "injectors/Iris.Events.User.txt:2:3: warning: event 'OnSceneLoaded' has the name of a native event"
        " (threadlink:natives/Iris.Events.Native.txt:25:1), which C therefore names Iris_Events_Native_OnSceneLoaded:"
        " code written for the native (levels.h's TL_LEVELS_EVENTS_INIT) gets this event instead; rename this one\n";
    /* This pass's exact diagnostics, header and summary: tests/gen/golden/events-native-namesake-taken. */
    f->diags.len = 0;
    f->diags.data[0] = 0;
    /* Every pass that reads the inputs, until renamed (not only the one that assigned the names). */
    fx_remove("generated/.threadlink-gen.stamp");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, taken);
    /* A fresh project: the native keeps its name, the project's is qualified. */
    fx_remove("generated/Iris.Events.manifest.json");
    fx_write("injectors/Iris.Events.User.txt", "onscenePresented(int)\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_generate(f), 0); /* exactly: tests/gen/golden/events-native-namesake-qualified */
    /* A renamed event draws nothing. */
    fx_write("injectors/Iris.Events.User.txt", "OnMapPresented(int)\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_null(strstr(f->diags.data, "native event"));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_normalised_text_and_ids),
        cmocka_unit_test(test_events_type_names_accepted),
        T(test_events_syntax_errors),
        T(test_events_parameter_names),
        T(test_events_type_specifiers),
        T(test_events_bad_signature_in_injector_writes_nothing),
        T(test_events_parameter_name_in_injector_writes_nothing),
        T(test_events_native_namesake_warned),
    };
    return cmocka_run_group_tests_name("gen_events", tests, NULL, NULL);
}
