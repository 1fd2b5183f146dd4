/* The manifest reader on its own: what it accepts, and the exact error for what it does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "core/manifest.h"

static buf diags;

static void capture(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx;
    diag_format(&diags, level, loc, message);
    buf_putc(&diags, '\n');
}

static bool read_text(const char *text, manifest *m)
{
    diags.len = 0;
    buf_cstr(&diags);
    buf in = {0};
    buf_puts(&in, text);
    diag_sink prev = diag_set_sink((diag_sink){capture, NULL});
    bool ok = manifest_read("m.json", in.data, in.len, m);
    diag_set_sink(prev);
    buf_free(&in);
    return ok;
}

static void expect_error(const char *text, const char *error)
{
    manifest m;
    assert_false(read_text(text, &m));
    assert_string_equal(diags.data, error);
}

static void test_manifest_reads_entries(void **state)
{
    (void)state;
    manifest m;
    assert_true(read_text("{\"format\": 1, \"domain\": \"A.B\", \"kind\": \"identity\", \"future\": {\"x\": [1, 2]},\n"
                          " \"entries\": [\n"
                          "  {\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 4294967295, \"seed_offset\": 2, \"tombstone\": true},\n"
                          "  {\"key\": \"user.b\\u0021\", \"name\": \"B\", \"scope\": \"User\", \"value\": 0, \"signature\": \"(const char *)\"}\n"
                          "]}", &m));
    assert_string_equal(diags.data, "");
    assert_string_equal(m.domain, "A.B");
    assert_int_equal(m.kind, KIND_IDENTITY);
    assert_int_equal(m.entries.count, 2);
    assert_string_equal(m.entries.items[0].key, "user.a");
    assert_int_equal(m.entries.items[0].value, 4294967295u);
    assert_int_equal(m.entries.items[0].seed_offset, 2);
    assert_true(m.entries.items[0].tombstone);
    assert_int_equal(m.entries.items[0].line, 3);
    assert_null(m.entries.items[0].signature);
    assert_string_equal(m.entries.items[1].key, "user.b!");
    assert_false(m.entries.items[1].tombstone);
    assert_string_equal(m.entries.items[1].signature, "(const char *)");
    manifest_free(&m);
}

static void test_manifest_rejects_malformed(void **state)
{
    (void)state;
    expect_error("", "m.json:1:1: error: expected '{' (a manifest is a JSON object), found end of file\n");
    expect_error("[]", "m.json:1:1: error: expected '{' (a manifest is a JSON object), found '['\n");
    expect_error("{\"format\": 2}", "m.json:1:12: error: manifest format 2 is not supported (this threadlink-gen reads format 1)\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": []} x",
                 "m.json:1:65: error: unexpected character in JSON\n");
    expect_error("{\"format\": 1}", "m.json:1:1: error: manifest lacks \"domain\"\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"name\": \"A\", \"scope\": \"u\", \"value\": 4294967296}]}",
                 "m.json:1:113: error: \"value\" is out of range (0 to 4294967295)\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"name\": \"A\", \"scope\": \"u\", \"value\": -1}]}",
                 "m.json:1:113: error: \"value\" must be a whole number from 0 to 4294967295\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"name\": \"1A\", \"scope\": \"u\", \"value\": 1}]}",
                 "m.json:1:85: error: \"name\" must be a C identifier\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\"}]}",
                 "m.json:1:62: error: entry lacks \"name\"\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"U.A\", \"name\": \"A\", \"scope\": \"u\", \"value\": 1}]}",
                 "m.json:1:70: error: \"key\" must be lowercase\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"ordinal\", \"entries\": [{\"key\": \"u.a\", \"signature\": 7}]}",
                 "m.json:1:89: error: \"signature\" must be a string, found a number\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"ordinal\", \"entries\": [{\"key\": \"u.a\", \"signature\": \"int\"}]}",
                 "m.json:1:89: error: \"signature\" must be an event signature such as \"(int)\"\n");
    expect_error("{\"format\": 1, \"domain\": \"\xC0\xAF\"}", "m.json:1:25: error: unterminated or malformed string (raw control character, bad escape or invalid UTF-8)\n");
    expect_error("{\"format\": 1, \"x\": \"\\ud800\"}", "m.json:1:20: error: string contains an unpaired surrogate escape\n");
    expect_error("{\"format\": 1,}", "m.json:1:14: error: expected a key after ',', found '}'\n");
    expect_error("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"key\": \"u.b\", \"name\": \"A\", \"scope\": \"u\", \"value\": 1}]}",
                 "m.json:1:77: error: duplicate key \"key\" in an entry\n");
    expect_error("{\"format\": 1,\n<<<<<<< HEAD\n", "m.json:2:1: error: a merge conflict marker: resolve the conflict first (docs/concepts.md: \"Merge conflicts in manifests\")\n");
    expect_error("{\"format\": 1, <<<<<<<", "m.json:1:15: error: unexpected character in JSON\n");
}

/* A renamed entry's records: each earlier key and name, in order; unknown members skipped. */
static void test_manifest_reads_rename_records(void **state)
{
    (void)state;
    manifest m;
    assert_true(read_text("{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [\n"
                          "  {\"key\": \"user.c\", \"issued_key\": \"user.a\", \"name\": \"C\", \"scope\": \"User\", \"value\": 1, \"renamed_from\": "
                          "[{\"key\": \"user.a\", \"name\": \"A\", \"when\": [1]}, {\"name\": \"B\", \"key\": \"user.b\"}]},\n"
                          "  {\"key\": \"user.d\", \"name\": \"D\", \"scope\": \"User\", \"value\": 2, \"renamed_from\": []}\n"
                          "]}", &m));
    const entry *e = &m.entries.items[0];
    assert_int_equal(e->renamed_count, 2);
    assert_string_equal(e->renamed_from[0].key, "user.a");
    assert_string_equal(e->renamed_from[0].name, "A");
    assert_string_equal(e->renamed_from[1].key, "user.b");
    assert_int_equal(e->renamed_from[1].name_len, 1);
    assert_non_null(manifest_renamed_from(e, "user.b", 6));
    assert_null(manifest_renamed_from(e, "user.c", 6));
    assert_int_equal(m.entries.items[1].renamed_count, 0);
    manifest_free(&m);
#define ENTRY_WITH(renames) "{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"renamed_from\": " renames "}]}"
    expect_error(ENTRY_WITH("{}"), "m.json:1:93: error: \"renamed_from\" must be an array\n");
    expect_error(ENTRY_WITH("[7]"), "m.json:1:94: error: expected a \"renamed_from\" record, found a number\n");
    expect_error(ENTRY_WITH("[{\"key\": \"u.b\"}]"), "m.json:1:94: error: a \"renamed_from\" record lacks \"name\"\n");
    expect_error(ENTRY_WITH("[{\"key\": \"U.B\", \"name\": \"B\"}]"), "m.json:1:102: error: \"renamed_from.key\" must be lowercase\n");
    expect_error(ENTRY_WITH("[{\"key\": \"u.b\", \"name\": \"B-\"}]"), "m.json:1:117: error: \"renamed_from.name\" must be a C identifier\n");
    expect_error(ENTRY_WITH("[{\"key\": \"u.b\", \"name\": \"B\"} {}]"), "m.json:1:122: error: expected ',' or ']', found '{'\n");
    buf many = {0};
    buf_puts(&many, "{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"renamed_from\": [");
    for (int i = 0; i <= MANIFEST_MAX_RENAMES; i++) buf_printf(&many, "%s{\"key\": \"u.b%d\", \"name\": \"B%d\"}", i ? "," : "", i, i);
    buf_puts(&many, "]}]}");
    assert_false(read_text(many.data, &m));
    assert_non_null(strstr(diags.data, "error: more than 256 \"renamed_from\" records\n"));
    buf_free(&many);
#undef ENTRY_WITH
}

/* What a read gives: its result, its diagnostics and every entry, as text. */
static void describe_read(const char *text, bool shortcut, buf *out)
{
    manifest m;
    manifest_read_shortcut = shortcut;
    bool ok = read_text(text, &m);
    manifest_read_shortcut = true;
    buf_printf(out, "%s\n%s", ok ? "ok" : "refused", diags.data);
    for (size_t i = 0; ok && i < m.entries.count; i++) {
        const entry *e = &m.entries.items[i];
        buf_printf(out, "%s|%u|%s|%u|%s|%u|%u|%d|line %u|%u|%s|%s|%u\n", e->key, e->key_len, e->name, e->name_len, e->scope,
                   e->value, e->seed_offset, e->tombstone, e->line, e->decl, e->issued_key ? e->issued_key : "-",
                   e->signature ? e->signature : "-", e->renamed_count);
    }
    if (ok) manifest_free(&m);
}

/* Entry lines in the shape the generator writes are read in one step; anything near that shape
 * must give what reading it token by token gives: the same entries, or the same error at the
 * same place. */
static void test_manifest_written_lines_read_alike(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 3116521811, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 0, \"seed_offset\": 65535, \"tombstone\": true}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 4294967295, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 4294967296, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 65536, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 01, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": -1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1.5, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1e3, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"User.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"usera\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"1A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A-b\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.\\u0061\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        ("{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"\xC3\x9C" "ber\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}"), /* (parentheses: -Wstring-concatenation) */
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"Us\ter\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false, \"x\": 1}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": fals}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": null}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0}",
        "{\"key\": \"user.a\", \"scope\": \"User\", \"name\": \"A\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\" : \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false}}",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": tr",
        "{\"key\": \"user.a\", \"name\": \"A\", \"scope\": \"User\", \"value\": 1, \"seed_offset\": 0, \"tombstone\": false} 7",
    };
    buf text = {0}, plain = {0}, fast = {0};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        for (int where = 0; where < 3; where++) { /* the only entry; the third of four; one with a very long scope */
            text.len = plain.len = fast.len = 0;
            buf_puts(&text, "{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [\n");
            if (where == 1) buf_puts(&text, "  {\"key\": \"b.b\", \"name\": \"B\", \"scope\": \"B\", \"value\": 2, \"seed_offset\": 0, \"tombstone\": false},\n"
                                       "  {\"key\": \"c.c\", \"name\": \"C\", \"scope\": \"C\", \"value\": 3, \"seed_offset\": 1, \"tombstone\": true},\n  ");
            if (where == 2) {
                buf_puts(&text, "  {\"key\": \"b.b\", \"name\": \"B\", \"scope\": \"");
                for (int k = 0; k < 4097; k++) buf_putc(&text, k == 4096 && i % 2 ? '"' : 'S'); /* 4,096 bytes (the most), or 4,097 */
                buf_puts(&text, i % 2 ? "" : "\"");
                buf_puts(&text, ", \"value\": 2, \"seed_offset\": 0, \"tombstone\": false},\n  ");
            }
            buf_puts(&text, lines[i]);
            buf_puts(&text, where == 1 ? ",\n  {\"key\": \"d.d\", \"name\": \"D\", \"scope\": \"D\", \"value\": 4, \"seed_offset\": 0, \"tombstone\": false}\n]}\n" : "\n]}\n");
            describe_read(text.data, false, &plain);
            describe_read(text.data, true, &fast);
            if (strcmp(plain.data, fast.data) != 0) fail_msg("line %zu, case %d:\n%s\ntoken by token:\n%s\nat once:\n%s", i, where, text.data, plain.data, fast.data);
        }
    }
    buf_free(&text);
    buf_free(&plain);
    buf_free(&fast);
}

/* Text from the inputs reaches a log escaped: a newline there would start a line of the input's
 * choosing (a CI runner acts on a line starting with "::"), an ESC sequence would rewrite the
 * terminal. A manifest key holding both, in the error that names it. */
static void test_manifest_text_in_diagnostics_is_escaped(void **state)
{
    (void)state;
    buf out = {0};
    diag_format(&out, DIAG_ERROR, loc_at("m.json", 7, 3), "entry 'user.b\n::error file=x::forged\r\x1b[2J\x7f\tok'");
    assert_string_equal(out.data, "m.json:7:3: error: entry 'user.b\\n::error file=x::forged\\r\\x1b[2J\\x7f\tok'");
    out.len = 0;
    diag_put_terminal_text(&out, "a\nb\x1b", true);
    assert_string_equal(out.data, "a\nb\\x1b");
    buf_free(&out);
}

/* Read from a file (in a window of the lexer's longest token): a well-formed string longer than a
 * token may be is said so, not called malformed. */
static void test_manifest_string_longer_than_a_token_is_said(void **state)
{
    (void)state;
    buf text = {0};
    buf_puts(&text, "{\"format\": 1, \"domain\": \"A\", \"kind\": \"identity\", \"entries\": [{\"key\": \"u.a\", \"name\": \"");
    for (int i = 0; i < 1 << 20; i++) buf_putc(&text, 'n');
    buf_puts(&text, "\", \"scope\": \"u\", \"value\": 1}]}\n");
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(text.data, 1, text.len, f), text.len);
    fflush(f);
    rewind(f);
    diags.len = 0;
    buf_cstr(&diags);
    diag_sink prev = diag_set_sink((diag_sink){capture, NULL});
    manifest m;
    assert_false(manifest_read_fd("m.json", fileno(f), 0, &m));
    diag_set_sink(prev);
    fclose(f);
    buf_free(&text);
    assert_string_equal(diags.data, "m.json:1:85: error: a string longer than 262144 bytes, the most a token may be here\n");
}

static void test_manifest_nesting_is_bounded(void **state)
{
    (void)state;
    buf deep = {0};
    buf_puts(&deep, "{\"x\": ");
    for (int i = 0; i < 100000; i++) buf_putc(&deep, '[');
    expect_error(deep.data, "m.json:1:71: error: nesting deeper than 64 levels\n");
    buf_free(&deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest_reads_entries),
        cmocka_unit_test(test_manifest_rejects_malformed),
        cmocka_unit_test(test_manifest_reads_rename_records),
        cmocka_unit_test(test_manifest_written_lines_read_alike),
        cmocka_unit_test(test_manifest_nesting_is_bounded),
        cmocka_unit_test(test_manifest_string_longer_than_a_token_is_said),
        cmocka_unit_test(test_manifest_text_in_diagnostics_is_escaped),
    };
    int rc = cmocka_run_group_tests_name("gen_manifest", tests, NULL, NULL);
    buf_free(&diags);
    return rc;
}
