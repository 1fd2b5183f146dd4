/* threadlink-gen diff: every class of change, its exit status, the four formats, approvals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diff.h"
#include "gen_fixture.h"
#include "core/identity.h"

/* A manifest entry line with the right hash for identity domains. */
static char *entry_line(const char *key, const char *name, uint32_t seed, bool tomb, bool ordinal, uint32_t index)
{
    const char *dot = strchr(key, '.');
    char scope[64];
    snprintf(scope, sizeof scope, "%.*s", (int)(dot - key), key);
    scope[0] = (char)(scope[0] - 32); /* "user" -> "User" */
    uint32_t value = ordinal ? index : identity_hash(key, strlen(key), seed);
    return xasprintf("{\"key\": \"%s\", \"name\": \"%s\", \"scope\": \"%s\", \"value\": %u, \"seed_offset\": %u, \"tombstone\": %s}",
                     key, name, scope, value, seed, tomb ? "true" : "false");
}

static void write_manifest(const char *path, const char *domain, const char *kind, const char *const *lines, size_t n)
{
    buf b = {0};
    buf_printf(&b, "{\n  \"format\": 1,\n  \"domain\": \"%s\",\n  \"kind\": \"%s\",\n  \"entries\": [", domain, kind);
    for (size_t i = 0; i < n; i++) buf_printf(&b, "%s\n    %s", i ? "," : "", lines[i]);
    buf_puts(&b, "\n  ]\n}\n");
    fx_write(path, b.data);
    buf_free(&b);
}

static int run_diff(const char *old_path, const char *new_path, diff_format fmt, const char *allow, const char *allow_file, char **output)
{
    size_t size = 0;
    FILE *out = open_memstream(output, &size);
    diff_options opt = {.old_path = old_path, .new_path = new_path, .format = fmt, .out = out, .allow_file = allow_file};
    if (allow) *vec_push(&opt.allow) = allow;
    int rc = diff_run(&opt);
    vec_free(&opt.allow);
    fclose(out);
    return rc;
}

static void make_pair(void)
{
    char *a = entry_line("user.alpha", "Alpha", 0, false, false, 0);
    char *b = entry_line("user.beta", "Beta", 0, false, false, 0);
    char *c = entry_line("user.gamma", "Gamma", 0, true, false, 0);
    char *b_tomb = entry_line("user.beta", "Beta", 0, true, false, 0);
    char *c_live = entry_line("user.gamma", "Gamma", 0, false, false, 0);
    char *d = entry_line("mod.delta", "Delta", 0, false, false, 0); /* another injector than Beta's: no rename */
    const char *old_lines[] = {a, b, c};
    const char *new_lines[] = {a, b_tomb, c_live, d};
    write_manifest("old/Ids.manifest.json", "Ids", "identity", old_lines, 3);
    write_manifest("new/Ids.manifest.json", "Ids", "identity", new_lines, 4);
    free(a), free(b), free(c), free(b_tomb), free(c_live), free(d);
}

static void test_diff_compatible_changes(void **state)
{
    (void)state;
    make_pair();
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 0);
    assert_string_equal(out,
        "new/Ids.manifest.json:7: note: Ids: Beta (user.beta) tombstoned (removed)\n"
        "new/Ids.manifest.json:8: note: Ids: Gamma (user.gamma) revived\n"
        "new/Ids.manifest.json:9: note: Ids: Delta (mod.delta) added\n"
        "threadlink-gen diff: 0 breaking, 0 approved, 3 compatible changes\n");
    free(out);
}

static void make_breaking(void)
{
    char *a = entry_line("user.alpha", "Alpha", 0, false, false, 0);
    char *a_rehashed = entry_line("user.alpha", "Alpha", 1, false, false, 0);
    char *b = entry_line("user.beta", "Beta", 0, false, false, 0);
    char *b_renamed = entry_line("user.beta", "BetaRenamed", 0, false, false, 0);
    char *c_tomb = entry_line("user.gamma", "Gamma", 0, true, false, 0);
    const char *old_lines[] = {a, b, c_tomb};
    const char *new_lines[] = {a_rehashed, b_renamed};
    write_manifest("old/Ids.manifest.json", "Ids", "identity", old_lines, 3);
    write_manifest("new/Ids.manifest.json", "Ids", "identity", new_lines, 2);
    char *e0 = entry_line("user.onstart", "OnStart", 0, false, true, 0);
    char *e1 = entry_line("user.onstop", "OnStop", 0, false, true, 1);
    char *e1_moved = entry_line("user.onstop", "OnStop", 0, false, true, 2);
    char *e0_retired = entry_line("user.onstart", "OnStart", 0, true, true, 0);
    const char *old_ev[] = {e0, e1};
    const char *new_ev[] = {e0_retired, e1_moved};
    write_manifest("old/Ev.manifest.json", "Ev", "ordinal", old_ev, 2);
    write_manifest("new/Ev.manifest.json", "Ev", "ordinal", new_ev, 2);
    write_manifest("old/Gone.manifest.json", "Gone", "identity", NULL, 0);
    write_manifest("old/Kind.manifest.json", "Kind", "identity", NULL, 0);
    write_manifest("new/Kind.manifest.json", "Kind", "ordinal", NULL, 0);
    free(a), free(a_rehashed), free(b), free(b_renamed), free(c_tomb), free(e0), free(e1), free(e1_moved), free(e0_retired);
}

static void test_diff_breaking_changes(void **state)
{
    (void)state;
    make_breaking();
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 1);
    assert_string_equal(out,
        "new/Ev.manifest.json:6: error: Ev: OnStart (user.onstart) ordinal removed [breaking]\n"
        "new/Ev.manifest.json:7: error: Ev: OnStop (user.onstop) ordinal moved (1 -> 2) [breaking]\n"
        "new/Ids.manifest.json:6: error: Ids: Alpha (user.alpha) value changed (4185941620 -> 1007530852) [breaking]\n"
        "new/Ids.manifest.json:7: error: Ids: Beta (user.beta) member renamed (Beta -> BetaRenamed) [breaking]\n"
        "old/Ids.manifest.json:8: error: Ids: Gamma (user.gamma) tombstone dropped [breaking]\n"
        "new/Kind.manifest.json: error: Kind: kind changed (from identity to ordinal) [breaking]\n"
        "old/Gone.manifest.json: error: Gone: domain removed [breaking]\n"
        "threadlink-gen diff: 7 breaking, 0 approved, 0 compatible changes\n"
        "threadlink-gen diff: an intended break is approved by its key: --allow Ev:user.onstart (or that line in the --allow-file); otherwise undo the change\n");
    free(out);
    /* The same pair in the github and markdown formats, exactly: tests/gen/golden/diff-breaking-*. */
    assert_int_equal(run_diff("old", "new", DIFF_JSON, NULL, NULL, &out), 1);
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "breaking")), 7);
    json_t *first = json_array_get(json_object_get(j, "changes"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "change")), "ordinal_removed");
    assert_int_equal(json_integer_value(json_object_get(first, "line")), 6);
    json_decref(j);
    free(out);
}

/* An event's signature: a change is breaking when both sides record one (listeners written for the
 * old one no longer compile); a base written before signatures were recorded reports nothing. */
static void test_diff_signature_changed(void **state)
{
    (void)state;
    const char *old_lines[] = {
        "{\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0, \"tombstone\": false, \"signature\": \"(int)\"}",
        "{\"key\": \"user.onquit\", \"name\": \"OnQuit\", \"scope\": \"User\", \"value\": 1, \"tombstone\": false}",
        "{\"key\": \"user.onold\", \"name\": \"OnOld\", \"scope\": \"User\", \"value\": 2, \"tombstone\": false, \"signature\": \"(int)\"}"};
    const char *new_lines[] = {
        "{\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0, \"tombstone\": false, \"signature\": \"(int, float)\"}",
        "{\"key\": \"user.onquit\", \"name\": \"OnQuit\", \"scope\": \"User\", \"value\": 1, \"tombstone\": false, \"signature\": \"()\"}",
        "{\"key\": \"user.onold\", \"name\": \"OnOld\", \"scope\": \"User\", \"value\": 2, \"tombstone\": true, \"signature\": \"(float)\"}"};
    write_manifest("old/Ev.manifest.json", "Ev", "ordinal", old_lines, 3);
    write_manifest("new/Ev.manifest.json", "Ev", "ordinal", new_lines, 3);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 1);
    assert_string_equal(out,
        "new/Ev.manifest.json:6: error: Ev: OnHit (user.onhit) signature changed (from (int) to (int, float)) [breaking]\n"
        "new/Ev.manifest.json:8: error: Ev: OnOld (user.onold) ordinal removed [breaking]\n"
        "threadlink-gen diff: 2 breaking, 0 approved, 0 compatible changes\n"
        "threadlink-gen diff: an intended break is approved by its key: --allow Ev:user.onhit (or that line in the --allow-file); otherwise undo the change\n");
    free(out);
    assert_int_equal(run_diff("old", "new", DIFF_JSON, "Ev:*", NULL, &out), 0);
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    assert_non_null(j);
    json_t *first = json_array_get(json_object_get(j, "changes"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "change")), "signature_changed");
    assert_true(json_is_true(json_object_get(first, "approved")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(first, "old_entry"), "signature")), "(int)");
    assert_string_equal(json_string_value(json_object_get(json_object_get(first, "new_entry"), "signature")), "(int, float)");
    json_decref(j);
    free(out);
}

/* A recorded rename (and a recorded move to another injector) keeps the value: compatible, its own
 * class. A removal and an addition in one scope without a record is breaking, and names the line
 * that would have kept the value; it is approved by the old key. */
static void test_diff_renames(void **state)
{
    (void)state;
    char *alpha = entry_line("user.alpha", "Alpha", 0, false, false, 0);
    char *potion = entry_line("user.potion", "Potion", 0, false, false, 0);
    char *gamma = entry_line("mod.gamma", "Gamma", 0, false, false, 0);
    char *beta = entry_line("user.beta", "Beta", 0, false, false, 0);
    char *beta_tomb = entry_line("user.beta", "Beta", 0, true, false, 0);
    char *betta = entry_line("user.betta", "Betta", 0, false, false, 0);
    char *elixir = xasprintf("{\"key\": \"user.elixir\", \"issued_key\": \"user.potion\", \"name\": \"Elixir\", \"scope\": \"User\", \"value\": %u, "
                             "\"seed_offset\": 0, \"tombstone\": false, \"renamed_from\": [{\"key\": \"user.potion\", \"name\": \"Potion\"}]}",
                             identity_hash("user.potion", 11, 0));
    char *gamma_moved = xasprintf("{\"key\": \"user.gamma\", \"issued_key\": \"mod.gamma\", \"name\": \"Gamma\", \"scope\": \"User\", \"value\": %u, "
                                  "\"seed_offset\": 0, \"tombstone\": false, \"renamed_from\": [{\"key\": \"mod.gamma\", \"name\": \"Gamma\"}]}",
                                  identity_hash("mod.gamma", 9, 0));
    const char *old_lines[] = {alpha, potion, gamma, beta};
    const char *new_lines[] = {alpha, elixir, gamma_moved, beta_tomb, betta};
    write_manifest("old/Ids.manifest.json", "Ids", "identity", old_lines, 4);
    write_manifest("new/Ids.manifest.json", "Ids", "identity", new_lines, 5);
    const char *old_ev[] = {"{\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0}"};
    const char *new_ev[] = {"{\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0, \"tombstone\": true}",
                            "{\"key\": \"user.onstrike\", \"name\": \"OnStrike\", \"scope\": \"User\", \"value\": 1}"};
    write_manifest("old/Ev.manifest.json", "Ev", "ordinal", old_ev, 1);
    write_manifest("new/Ev.manifest.json", "Ev", "ordinal", new_ev, 2);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 1);
    assert_string_equal(out,
        "new/Ev.manifest.json:6: error: Ev: OnHit (user.onhit) removed while another entry was added in its scope (an unrecorded rename?) (OnStrike added; a rename record keeps the index: restore the base's manifest, write 'OnStrike <- OnHit', run generate) [breaking]\n"
        "new/Ev.manifest.json:7: note: Ev: OnStrike (user.onstrike) added\n"
        "new/Ids.manifest.json:7: note: Ids: Elixir (user.elixir) renamed (recorded: value kept) (from Potion, key user.potion)\n"
        "new/Ids.manifest.json:8: note: Ids: Gamma (user.gamma) renamed (recorded: value kept) (from Gamma, key mod.gamma)\n"
        "new/Ids.manifest.json:9: error: Ids: Beta (user.beta) removed while another entry was added in its scope (an unrecorded rename?) (Betta added; a rename record keeps the value: restore the base's manifest, write 'Betta <- Beta', run generate) [breaking]\n"
        "new/Ids.manifest.json:10: note: Ids: Betta (user.betta) added\n"
        "threadlink-gen diff: 2 breaking, 0 approved, 4 compatible changes\n"
        "threadlink-gen diff: an intended break is approved by its key: --allow Ev:user.onhit (or that line in the --allow-file); otherwise undo the change\n");
    free(out);
    /* Approved by the old key; a removal whose scope gained nothing stays a plain tombstone. */
    assert_int_equal(run_diff("old", "new", DIFF_JSON, "user.beta", NULL, &out), 1);
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    json_t *first = json_array_get(json_object_get(j, "changes"), 0), *rename = json_array_get(json_object_get(j, "changes"), 2);
    assert_string_equal(json_string_value(json_object_get(first, "change")), "unrecorded_rename");
    assert_true(json_is_true(json_object_get(first, "breaking")));
    assert_string_equal(json_string_value(json_object_get(rename, "change")), "renamed");
    assert_false(json_is_true(json_object_get(rename, "breaking")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(rename, "old_entry"), "name")), "Potion");
    assert_string_equal(json_string_value(json_object_get(json_object_get(rename, "new_entry"), "name")), "Elixir");
    assert_int_equal(json_integer_value(json_object_get(j, "breaking")), 1);
    json_decref(j);
    free(out);
    free(alpha), free(potion), free(gamma), free(beta), free(beta_tomb), free(betta), free(elixir), free(gamma_moved);
}

/* A content profile's asset renamed without a .content-renames line: its record names that file. */
static void test_diff_content_unrecorded_rename_names_its_file(void **state)
{
    (void)state;
    char *hero = entry_line("ui.hero", "Hero", 0, false, false, 0);
    char *hero_tomb = entry_line("ui.hero", "Hero", 0, true, false, 0);
    char *heroine = entry_line("ui.heroine", "Heroine", 0, false, false, 0);
    const char *old_lines[] = {hero};
    const char *new_lines[] = {hero_tomb, heroine};
    write_manifest("old/Content.Main.manifest.json", "Content.Main", "identity", old_lines, 1);
    write_manifest("new/Content.Main.manifest.json", "Content.Main", "identity", new_lines, 2);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 1);
    assert_non_null(strstr(out, "(Heroine added; 'heroine <- hero' in .content-renames keeps the id (restore the base's manifest, add the line, run generate)) [breaking]\n"));
    free(out);
    free(hero), free(hero_tomb), free(heroine);
}

/* An entry moved to another injector while another was added where it was: a rescope
 * (compatible), as generate's summary says, not also an unrecorded rename of the one added (which
 * failed CI, and whose advice, 'Grotto <- Sky', would have given Grotto Sky's value). */
static void test_diff_rescope_is_not_a_rename(void **state)
{
    (void)state;
    char *meadow = entry_line("user.meadow", "Meadow", 0, false, false, 0);
    char *sky = entry_line("user.sky", "Sky", 0, false, false, 0);
    char *sky_tomb = entry_line("user.sky", "Sky", 0, true, false, 0);
    char *grotto = entry_line("user.grotto", "Grotto", 0, false, false, 0);
    char *moved = entry_line("extra.sky", "Extra_Sky", 0, false, false, 0);
    const char *old_lines[] = {meadow, sky};
    const char *new_lines[] = {meadow, sky_tomb, grotto, moved};
    write_manifest("old/Ids.manifest.json", "Ids", "identity", old_lines, 2);
    write_manifest("new/Ids.manifest.json", "Ids", "identity", new_lines, 4);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 0);
    assert_null(strstr(out, "unrecorded rename"));
    /* Compatible, but a live entry's value changed: a warning a reviewer sees, with the line that
     * would have kept the value. */
    assert_non_null(strstr(out, "new/Ids.manifest.json:9: warning: Ids: Extra_Sky (extra.sky) rescoped (from User, old key user.sky; "
                                "its value changed: to keep it, restore the base's manifest and write 'Sky <- User.Sky')\n"));
    assert_non_null(strstr(out, "new/Ids.manifest.json:8: note: Ids: Grotto (user.grotto) added\n"));
    assert_non_null(strstr(out, "threadlink-gen diff: 0 breaking, 0 approved, 3 compatible changes\n"));
    free(out);
    out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_GITHUB, NULL, NULL, &out), 0);
    assert_non_null(strstr(out, "::warning file=new/Ids.manifest.json,line=9::Ids: Extra_Sky (extra.sky) rescoped"));
    assert_non_null(strstr(out, "::notice file=new/Ids.manifest.json,line=8::Ids: Grotto"));
    free(out);
    free(meadow), free(sky), free(sky_tomb), free(grotto), free(moved);
}

/* The github and markdown reports escape what they print: a path with ',' or ':' (GitHub read
 * "file=new,x:y/..." as file "new"), a key with '%', '|' or a backtick (a row or a code span broken). */
static void test_diff_reports_escape_what_they_print(void **state)
{
    (void)state;
    char *a = entry_line("user.a", "A", 0, false, false, 0);
    char *odd = entry_line("user.x%0a|`y", "X_0a__y", 0, false, false, 0);
    const char *old_lines[] = {a};
    const char *new_lines[] = {a, odd};
    write_manifest("old/Ids.manifest.json", "Ids", "identity", old_lines, 1);
    write_manifest("new,x:y/Ids.manifest.json", "Ids", "identity", new_lines, 2);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new,x:y", DIFF_GITHUB, NULL, NULL, &out), 0);
    assert_string_equal(out, "::notice file=new%2Cx%3Ay/Ids.manifest.json,line=7::Ids: X_0a__y (user.x%250a|`y) added\n");
    free(out);
    assert_int_equal(run_diff("old", "new,x:y", DIFF_MARKDOWN, NULL, NULL, &out), 0);
    assert_non_null(strstr(out, "|  | Ids | `` user.x%0a\\|`y `` | added |  | `X_0a__y` = "));
    free(out);
    free(a), free(odd);
}

/* Two vault-manifest.json files: compared as part of their directories, which the message says
 * (it said 'manifest lacks "domain"', as if the file were damaged). */
static void test_diff_vault_manifest_files(void **state)
{
    fixture *f = *state;
    fx_write("old/vault-manifest.json", "{}");
    fx_write("new/vault-manifest.json", "{}");
    char *out = NULL;
    assert_int_equal(run_diff("old/vault-manifest.json", "new/vault-manifest.json", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data,
        "old/vault-manifest.json: error: a vault manifest is compared as part of its generated directory: give diff the two directories\n"
        "new/vault-manifest.json: error: a vault manifest is compared as part of its generated directory: give diff the two directories\n");
    free(out);
}

static void test_diff_approvals(void **state)
{
    fixture *f = *state;
    make_breaking();
    fx_write("allow.txt", "# approved in review\nuser.alpha\nIds:user.beta\n// the whole domain\nEv:*\nKind:*\nGone:*\nuser.gamma\n");
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, "allow.txt", &out), 0);
    assert_non_null(strstr(out, "new/Ids.manifest.json:7: note: Ids: Beta (user.beta) member renamed (Beta -> BetaRenamed) [breaking, approved]\n"));
    assert_non_null(strstr(out, "threadlink-gen diff: 0 breaking, 7 approved, 0 compatible changes\n"));
    free(out);
    /* One approval on the command line leaves the rest breaking. */
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, "user.alpha", NULL, &out), 1);
    assert_non_null(strstr(out, "threadlink-gen diff: 6 breaking, 1 approved, 0 compatible changes\n"));
    free(out);
    /* Every approval approved something (Ids:* overlaps three lines of the file): no warning. */
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, "Ids:*", "allow.txt", &out), 0);
    free(out);
    assert_int_equal(f->diags.len, 0);
    /* An approval written twice, and one change approved in three forms: each approval used. */
    fx_write("allow.txt", "user.alpha\nIds:user.alpha\nuser.alpha\nIds:*\nEv:*\nKind:*\nGone:*\nuser.gamma\n");
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, "allow.txt", &out), 0);
    assert_non_null(strstr(out, "threadlink-gen diff: 0 breaking, 7 approved, 0 compatible changes\n"));
    free(out);
    assert_int_equal(f->diags.len, 0);
}

static void test_diff_unused_allow(void **state)
{
    fixture *f = *state;
    make_breaking();
    char *out = NULL;
    /* A typo on the command line: the break stays unapproved, and the warning names the entry. */
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, "Ids:user.alpah", NULL, &out), 1);
    assert_string_equal(f->diags.data, "threadlink-gen: warning: --allow 'Ids:user.alpah' approves nothing: it matches no breaking change (did you mean 'Ids:user.alpha'?)\n");
    assert_non_null(strstr(out, "threadlink-gen diff: 7 breaking, 0 approved, 0 compatible changes\n"));
    free(out);
    /* In an allow-file: file:line:col and the entry as written; a hint only for a likely typo. */
    f->diags.len = 0;
    fx_write("allow.txt", "user.alpha\n  Ev:user.onstrat   # retired on purpose\nKind:*\nuser.unrelated\n");
    assert_int_equal(run_diff("old", "new", DIFF_JSON, NULL, "allow.txt", &out), 1);
    assert_string_equal(f->diags.data,
        "allow.txt:2:3: warning: allow entry 'Ev:user.onstrat' approves nothing: it matches no breaking change (did you mean 'Ev:user.onstart'?)\n"
        "allow.txt:4:1: warning: allow entry 'user.unrelated' approves nothing: it matches no breaking change\n");
    /* The warnings are diagnostics: stdout stays one JSON document. */
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "approved")), 2);
    json_decref(j);
    free(out);
}

static void test_diff_allow_file_trailing_comment(void **state)
{
    fixture *f = *state;
    make_breaking();
    fx_write("allow.txt", "user.alpha   # rehashed on purpose\nIds:user.beta\t// renamed\nEv:* # retired\nKind:*\nGone:*  #\r\nuser.gamma\n");
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, "allow.txt", &out), 0);
    assert_non_null(strstr(out, "threadlink-gen diff: 0 breaking, 7 approved, 0 compatible changes\n"));
    free(out);
    assert_int_equal(f->diags.len, 0);
    /* Only after a blank: a '#' inside an entry is part of it. */
    fx_write("allow.txt", "user.alpha#1\n");
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, "allow.txt", &out), 1);
    assert_non_null(strstr(f->diags.data, "allow.txt:1:1: warning: allow entry 'user.alpha#1' approves nothing"));
    free(out);
}

/* An allow-file is text reviewed like code: a NUL (which GitHub shows as a binary file, and which
 * cut the line there: "Ids:*" approved every break) is refused at its place; nothing approved. */
static void test_diff_allow_file_with_a_nul_is_refused(void **state)
{
    fixture *f = *state;
    make_breaking();
    FILE *file = fopen("allow.txt", "wb");
    assert_non_null(file);
    fwrite("user.alpha\nIds:*\0 approves nothing really\n", 1, 42, file);
    fclose(file);
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, "allow.txt", &out), 2);
    assert_string_equal(f->diags.data, "allow.txt:2:6: error: a NUL byte: an allow-file is text (one approval a line), as its reviewers read it\n");
    free(out);
}

static void test_diff_unreadable_input(void **state)
{
    fixture *f = *state;
    make_pair();
    fx_write("new/Ids.manifest.json", "{\"format\": 1, \"domain\": ");
    char *out = NULL;
    assert_int_equal(run_diff("old", "new", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data, "new/Ids.manifest.json:1:25: error: \"domain\" must be a string, found end of file\n");
    free(out);
    f->diags.len = 0;
    assert_int_equal(run_diff("old", "missing", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data, "missing: error: no such manifest file or directory\n");
    free(out);
}

static void test_diff_no_manifests(void **state)
{
    fixture *f = *state;
    fx_write("injectors/Game.Ids.User.txt", "Alpha\n");
    fx_write("injectors/sub/notes.txt", "not a manifest\n");
    char *out = NULL;
    assert_int_equal(run_diff("injectors", "injectors", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data,
        "injectors: error: no manifests in this directory (no *.manifest.json in it or below)\n"
        "injectors: error: no manifests in this directory (no *.manifest.json in it or below)\n");
    free(out);
    /* Either side: an empty base would make every domain "added" and pass any change. */
    make_pair();
    f->diags.len = 0;
    assert_int_equal(run_diff("injectors", "new", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data, "injectors: error: no manifests in this directory (no *.manifest.json in it or below)\n");
    free(out);
    f->diags.len = 0;
    assert_int_equal(run_diff("old", "injectors", DIFF_TEXT, NULL, NULL, &out), 2);
    assert_string_equal(f->diags.data, "injectors: error: no manifests in this directory (no *.manifest.json in it or below)\n");
    free(out);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_diff_compatible_changes),
        T(test_diff_breaking_changes),
        T(test_diff_signature_changed),
        T(test_diff_renames),
        T(test_diff_content_unrecorded_rename_names_its_file),
        T(test_diff_approvals),
        T(test_diff_vault_manifest_files),
        T(test_diff_reports_escape_what_they_print),
        T(test_diff_rescope_is_not_a_rename),
        T(test_diff_unreadable_input),
        T(test_diff_unused_allow),
        T(test_diff_allow_file_trailing_comment),
        T(test_diff_allow_file_with_a_nul_is_refused),
        T(test_diff_no_manifests),
    };
    return cmocka_run_group_tests_name("gen_diff", tests, NULL, NULL);
}
