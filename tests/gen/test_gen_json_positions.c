/* json_positions (every value's position found in one walk) against json_locate (one walk per
 * path), which the checkers used before: for every key path of each text, as a checker spells it
 * (jc_key, jc_index, walked down jansson's tree), and for paths that lead nowhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/json_check.h"
#include "base/json_positions.h"

typedef struct compared {
    const char *text;
    const json_positions *p;
    size_t paths;
} compared;

static void expect_same(compared *c, const char *path)
{
    src_loc slow = json_locate("t.json", c->text, strlen(c->text), path);
    src_loc fast = json_positions_find(c->p, path);
    if (slow.line != fast.line || slow.col != fast.col || strcmp(fast.file, "t.json") != 0)
        fail_msg("%s: json_locate %u:%u, json_positions %u:%u", path, slow.line, slow.col, fast.line, fast.col);
    c->paths++;
}

static void compare_below(compared *c, const char *path, json_t *v)
{
    expect_same(c, path);
    if (json_is_object(v)) {
        const char *key;
        json_t *member;
        json_object_foreach(v, key, member) {
            char *sub = jc_key(path, key);
            compare_below(c, sub, member);
            free(sub);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *element;
        json_array_foreach(v, i, element) {
            char *sub = jc_index(path, i);
            compare_below(c, sub, element);
            free(sub);
        }
    }
}

/* Every path of `text` (its whole tree), then `missing` ones; returns how many were compared. */
static size_t compare_all(const char *text, const char *const *missing)
{
    const char *tree_text = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text; /* (jansson takes no BOM) */
    json_t *root = json_loads(tree_text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
    assert_non_null(root);
    json_positions *p = json_positions_build("t.json", text, strlen(text));
    compared c = {text, p, 0};
    compare_below(&c, "", root);
    for (; missing && *missing; missing++) expect_same(&c, *missing);
    json_positions_free(p);
    json_decref(root);
    return c.paths;
}

static void test_positions_match_locate_on_an_action_map(void **state)
{
    (void)state;
    const char *text = "{\n  \"dead_zone\": 0.25,\n  \"modes\": [\n"
                       "    { \"mode\": \"Gameplay\", \"actions\": [\n"
                       "      { \"action\": \"Fire\", \"kind\": \"button\",\n"
                       "        \"bindings\": [ \"keyboard/Space\", { \"control\": \"gamepad/righttrigger\", \"threshold\": 0.5 } ] },\n"
                       "      { \"action\": \"Move\", \"kind\": \"vector\", \"bindings\": [ { \"up\": \"keyboard/W\" }, [], {} ] }\n"
                       "    ] } ],\n  \"glyphs\": { \"Xbox\": { \"gamepad/a\": \"Glyphs/xbox_a\" } }\n}\n";
    static const char *const missing[] = {"modes[7]", "modes[0].actions[1].bindings[9].up", "nothing", "glyphs.Xbox.b", NULL};
    assert_int_equal(compare_all(text, missing), 29);
}

static void test_positions_match_locate_on_escapes_nesting_and_a_bom(void **state)
{
    (void)state;
    /* keys with escapes and non-ASCII, a bare value at the top of an array, nested empties */
    assert_int_equal(compare_all("[1, \"two\", {\"k\\u00e9y\": [[], [{}], {\"\\\"q\\\"\": null}]}, true]", NULL), 11);
    assert_int_equal(compare_all("\xEF\xBB\xBF{\"a\": {\"b\": {\"c\": [0, 1, 2]}}}", NULL), 7);
    assert_int_equal(compare_all("\"just a string\"", NULL), 1);
}

static void test_positions_of_a_deep_text(void **state)
{
    (void)state;
    buf text = {0};
    for (int i = 0; i < 200; i++) buf_puts(&text, "{\"d\": [");
    buf_puts(&text, "0");
    for (int i = 0; i < 200; i++) buf_puts(&text, "]}");
    assert_int_equal(compare_all(text.data, NULL), 401);
    buf_free(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positions_match_locate_on_an_action_map),
        cmocka_unit_test(test_positions_match_locate_on_escapes_nesting_and_a_bom),
        cmocka_unit_test(test_positions_of_a_deep_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
