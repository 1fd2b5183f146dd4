/* Bad input: every error with its exact diagnostic, and the generated directory byte-for-byte
 * unchanged afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen_fixture.h"

/* A project that generated cleanly once; tests then break one thing. */
static char *good_project(fixture *f)
{
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\" }");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    fx_write("injectors/Iris.Events.User.txt", "OnStart\n");
    assert_int_equal(fx_generate(f), 0);
    f->diags.len = 0;
    f->diags.data[0] = 0;
    return fx_snapshot("generated");
}

static void test_errors_config_unknown_key_and_types(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("threadlink.json",
             "{\n"
             "  \"generated_dirr\": \"x\",\n"
             "  \"domains\": [\n"
             "    { \"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"kind\": \"hashed\" },\n"
             "    { \"name\": \"Iris.Events\", \"output\": 5, \"colour\": true, \"reserve_zero\": \"yes\", \"kind\": \"ordnial\" },\n"
             "    { \"name\": \"9bad\", \"output\": \"../escape.h\" }\n"
             "  ]\n"
             "}\n");
    fx_expect_failure(f, snap,
        "threadlink.json:2:3: error: generated_dirr: unknown key (did you mean \"generated_dir\"?)\n"
        "threadlink.json:4:51: error: domains[0].kind: expected \"identity\" or \"ordinal\", got \"hashed\"\n"
        "threadlink.json:5:43: error: domains[1].colour: unknown key\n"
        "threadlink.json:5:30: error: domains[1].output: expected a string (a relative path), got an integer\n"
        "threadlink.json:5:82: error: domains[1].kind: expected \"identity\" or \"ordinal\", got \"ordnial\" (did you mean \"ordinal\"?)\n"
        "threadlink.json:5:59: error: domains[1].reserve_zero: expected a boolean, got a string\n"
        "threadlink.json:6:7: error: domains[2].name: \"9bad\" is not a domain name (dot-separated words of letters, digits and '_', each starting with a letter)\n"
        "threadlink.json:6:23: error: domains[2].output: must not contain '..', got \"../escape.h\"\n");
}

static void test_errors_config_names_a_missing_directory(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    /* A misspelt injector directory would otherwise read as "no entries" and tombstone them all. */
    fx_write("threadlink.json",
             "{\n"
             "  \"injector_dir\": \"injector\",\n"
             "  \"definitions_dir\": \"definition\",\n"
             "  \"domains\": [{ \"name\": \"Test.Ids\", \"output\": \"test_ids.h\" }]\n"
             "}\n");
    fx_expect_failure(f, snap,
        "threadlink.json:2:3: error: injector_dir: directory \"injector\" does not exist: did you mean \"injectors\"? (or create it, or leave the key out)\n"
        "threadlink.json:3:3: error: definitions_dir: directory \"definition\" does not exist (create it, or leave the key out)\n");
    /* Spelt in another case: fine on macOS and Windows, refused here (and in CI), so say so. */
    f->diags.len = 0;
    f->diags.data[0] = 0;
    snap = fx_snapshot("generated");
    fx_write("threadlink.json",
             "{ \"injector_dir\": \"Injectors\",\n"
             "  \"domains\": [{ \"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"native\": \"injectors/test.ids.user.txt\" }] }\n");
    fx_expect_failure(f, snap,
        "threadlink.json:1:3: error: injector_dir: directory \"Injectors\" does not exist (create it, or leave the key out)\n"
        "threadlink.json:1:3: note: injectors exists: names differ in case here, though not on macOS or Windows\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    snap = fx_snapshot("generated");
    fx_write("threadlink.json",
             "{ \"domains\": [{ \"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"native\": \"injectors/test.ids.user.txt\" }] }\n");
    fx_remove("injectors/Iris.Events.User.txt");
    fx_expect_failure(f, snap,
        "injectors/test.ids.user.txt: error: cannot read this entries file: No such file or directory\n"
        "injectors/test.ids.user.txt: note: injectors/Test.Ids.User.txt exists: names differ in case here, though not on macOS or Windows\n");
}

static void test_errors_config_include_says_how_to_write_it(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("threadlink.json",
             "{\"domains\": [{ \"name\": \"Test.Ids\", \"output\": \"test_ids.h\",\n"
             "               \"includes\": [\"<stdio.h>\", \"a>b.h\"] }]}\n");
    fx_expect_failure(f, snap,
        "threadlink.json:2:29: error: domains[0].includes[0]: \"<stdio.h>\" is not a header name: give the path alone (\"stdio.h\"), which the header includes as #include \"stdio.h\" (that finds system headers too)\n"
        "threadlink.json:2:42: error: domains[0].includes[1]: \"a>b.h\" is not a header name (a path such as \"game/types.h\", without quotes or angle brackets)\n");
}

/* threadlink.json replaced by `text`: the run fails with exactly `error`, generated/ untouched. */
static void expect_config_error(fixture *f, const char *text, const char *error)
{
    f->diags.len = 0;
    f->diags.data[0] = 0;
    char *snap = fx_snapshot("generated");
    fx_write("threadlink.json", text);
    fx_expect_failure(f, snap, error);
}

static void test_errors_config_syntax(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    /* At the token where parsing stopped, not past it, and in words that name the fix. */
    expect_config_error(f, "{\n  \"domains\": [\n    { \"name\": \"Test.Ids\" \"output\": \"x.h\" }\n  ]\n}\n",
                        "threadlink.json:3:26: error: expected ',' or '}' before '\"output\"'\n");
    expect_config_error(f, "{\n  \"domains\": [\n    { \"name\": \"Test.Ids\", \"output\": \"x.h\", }\n  ]\n}\n",
                        "threadlink.json:3:44: error: a comma before '}': JSON allows none after the last member\n");
    /* Two slips of a first config: strings in single quotes, and an empty file. */
    expect_config_error(f, "{\"domains\": [{\"name\": 'Test.Ids', \"output\": \"x.h\"}]}\n",
                        "threadlink.json:1:23: error: a single quote: JSON strings take double quotes (\"...\")\n");
    expect_config_error(f, "\n", "threadlink.json: error: the file holds no JSON: it is empty (or only white space)\n");
    /* A UTF-8 byte order mark (Windows editors write one) is skipped, and columns count after it. */
    expect_config_error(f, "\xEF\xBB\xBF{ \"domains\": [ { \"name\": \"Test.Ids\" \"output\": \"x.h\" } ] }\n",
                        "threadlink.json:1:37: error: expected ',' or '}' before '\"output\"'\n");
    fx_write("threadlink.json", "\xEF\xBB\xBF{ \"domains\": [ { \"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"kind\": 7 } ] }\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_generate(f), 1);
    assert_string_equal(f->diags.data, "threadlink.json:1:62: error: domains[0].kind: expected \"identity\" or \"ordinal\", got an integer\n");
    fx_write("threadlink.json", "\xEF\xBB\xBF{ \"domains\": [ { \"name\": \"Test.Ids\", \"output\": \"test_ids.h\" } ] }\n");
    fx_remove("injectors/Iris.Events.User.txt");
    fx_remove("generated/events/Iris.Events.manifest.json");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
}

/* Two input files one name apart in case: a macOS or Windows checkout holds one of them and
 * would tombstone the other's entries without a word. An upper-case suffix is said to be ignored. */
static void test_errors_inputs_differing_only_in_case(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("injectors/Test.Ids.user.txt", "Gamma\n");
    fx_write("injectors/Test.Ids.Extra.TXT", "Shield\n");
    fx_expect_failure(f, snap,
        "injectors/Test.Ids.user.txt: error: injectors/Test.Ids.User.txt and injectors/Test.Ids.user.txt differ only in case: a checkout on macOS or Windows holds one of them and silently loses the other; merge them into one\n"
        "injectors/Test.Ids.Extra.TXT: warning: ignored: entries files end in \".txt\", in lower case\n");
}

static void test_errors_lexer_error_writes_nothing(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n4th\n");
    fx_expect_failure(f, snap, "injectors/Test.Ids.User.txt:4:1: error: identifier must start with a letter, not '4'\n");
}

static void test_errors_orphaned_and_multi_segment_injectors(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("injectors/Tset.Ids.User.txt", "Alpha\n"); /* a misspelt domain */
    fx_write("injectors/Audio.Sfx.User.txt", "Alpha\n"); /* a domain nowhere near a declared one */
    fx_write("injectors/Test.Ids.Mod.Extra.txt", "Alpha\n");
    fx_write("injectors/README.md", "not an injector: ignored\n");
    fx_write("injectors/Test.Ids.txt", "Alpha\n"); /* the injector part left out */
    fx_write("injectors/Test.Ids.\xC3\x9Cn.txt", "Alpha\n"); /* entries may be Unicode, injector names not */
    fx_expect_failure(f, snap,
        "injectors/Audio.Sfx.User.txt: error: orphaned injector: no declared domain matches 'Audio.Sfx.User' (expected <Domain>.<Injector>.txt for one of the domains in threadlink.json)\n"
        "injectors/Test.Ids.Mod.Extra.txt: error: injector name 'Mod.Extra' has more than one segment after the domain 'Test.Ids' (expected Test.Ids.<Injector>.txt)\n"
        "injectors/Test.Ids.txt: error: injector file 'Test.Ids.txt' names the domain but no injector: expected Test.Ids.<Injector>.txt (the project's own entries go in Test.Ids.User.txt)\n"
        "injectors/Test.Ids.\xC3\x9Cn.txt: error: injector name '\xC3\x9Cn' must start with an ASCII letter and contain only ASCII letters, digits and '_' (it names the scope of its entries' keys)\n"
        "injectors/Tset.Ids.User.txt: error: orphaned injector: no declared domain matches 'Tset.Ids.User' (did you mean 'Test.Ids.User.txt'?)\n");
}

static void test_errors_corrupt_manifest(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    char *m = fx_read("generated/Test.Ids.manifest.json");
    m[strlen(m) / 2] = 0; /* truncated */
    fx_write("generated/Test.Ids.manifest.json", m);
    free(m);
    char *truncated = fx_snapshot("generated");
    free(snap);
    fx_expect_failure(f, truncated,
        "generated/Test.Ids.manifest.json:6:82: error: expected an entry key, found end of file\n"
        "generated/Test.Ids.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Test.Ids)\n");
}

/* Two conflicted manifests after one merge: both are named in one run. */
static void test_errors_every_bad_manifest_reported(void **state)
{
    fixture *f = *state;
    fx_basic_config("{ \"name\": \"Test.More\", \"output\": \"more.h\" }");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    fx_write("injectors/Test.More.User.txt", "Beta\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("generated/Test.Ids.manifest.json", "<<<<<<< HEAD\n");
    fx_write("generated/Test.More.manifest.json", "<<<<<<< HEAD\n");
    char *snap = fx_snapshot("generated");
    fx_expect_failure(f, snap,
        "generated/Test.Ids.manifest.json:1:1: error: a merge conflict marker: resolve the conflict first (docs/concepts.md: \"Merge conflicts in manifests\")\n"
        "generated/Test.Ids.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Test.Ids)\n"
        "generated/Test.More.manifest.json:1:1: error: a merge conflict marker: resolve the conflict first (docs/concepts.md: \"Merge conflicts in manifests\")\n"
        "generated/Test.More.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Test.More)\n");
}

static void test_errors_tampered_manifest_value(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    char *m = fx_read("generated/Test.Ids.manifest.json");
    char *v = strstr(m, "\"value\": 4185941620");
    assert_non_null(v);
    memcpy(v + 9, "4185941621", 10);
    fx_write("generated/Test.Ids.manifest.json", m);
    free(m);
    free(snap);
    snap = fx_snapshot("generated");
    fx_expect_failure(f, snap,
        "generated/Test.Ids.manifest.json:6: error: entry 'user.alpha': value 4185941621 is not the hash of its key under seed offset 0 (the manifest was edited by hand or corrupted)\n"
        "generated/Test.Ids.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Test.Ids)\n");
}

/* An ordinal value far past the manifest's entries (values are issued in order) is refused: the
 * header's tables have a row per value up to the highest (4294967295 wrapped its span to 0, and
 * 2147483648 wrote gigabytes). A small gap (removed entries dropped from the manifest) is kept. */
static void test_errors_ordinal_value_far_past_the_entries(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    char *good = fx_read("generated/events/Iris.Events.manifest.json");
    char *v = strstr(good, "\"key\": \"user.onstart\"");
    assert_non_null(v);
    v = strstr(v, "\"value\": 0,");
    assert_non_null(v);
    static const char *const values[] = {"4294967295", "100000000", "65537", "65536"};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        char *edited = xasprintf("%.*s\"value\": %s,%s", (int)(v - good), good, values[i], v + strlen("\"value\": 0,"));
        fx_write("generated/events/Iris.Events.manifest.json", edited);
        free(edited);
        f->diags.len = 0;
        f->diags.data[0] = 0;
        if (i == 3) break; /* the highest value allowed: generated below */
        char *expected = xasprintf(
            "generated/events/Iris.Events.manifest.json:6: error: entry 'user.onstart': value %s is far past the 1 entry of this ordinal manifest (values are issued in order: at most 65536 here; the manifest was edited by hand or corrupted)\n"
            "generated/events/Iris.Events.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Iris.Events)\n",
            values[i]);
        fx_expect_failure(f, fx_snapshot("generated"), expected);
        free(expected);
    }
    assert_int_equal(fx_generate(f), 0);
    char *header = fx_read("generated/events/iris_events.h");
    assert_non_null(strstr(header, "#define IRIS_EVENTS_SPAN 65537\n"));
    free(header);
    free(good);
}

/* Rename records edited by hand: an earlier key that is another entry's key, an earlier name that
 * is another member's name, a renamed entry whose value is not the hash of its issued key. */
static void test_errors_tampered_rename_records(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nGamma <- Beta\n");
    assert_int_equal(fx_generate(f), 0);
    char *good = fx_read("generated/Test.Ids.manifest.json");
    static const char *const edits[][3] = {
        {"{\"key\": \"user.beta\", \"name\": \"Beta\"}", "{\"key\": \"user.alpha\", \"name\": \"Beta\"}",
         "generated/Test.Ids.manifest.json:7: error: entry 'user.gamma' was renamed from 'user.alpha', which is also the key of 'user.alpha' on line 6\n"},
        {"{\"key\": \"user.beta\", \"name\": \"Beta\"}", "{\"key\": \"user.beta\", \"name\": \"ALPHA\"}",
         "generated/Test.Ids.manifest.json:7: error: member name 'ALPHA' is used twice (an earlier name of 'user.gamma', and also on line 6)\n"},
        {"\"issued_key\": \"user.beta\", ", "",
         "generated/Test.Ids.manifest.json:7: error: entry 'user.gamma': value 52497432 is not the hash of its key under seed offset 0 (the manifest was edited by hand or corrupted)\n"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char *at = strstr(good, edits[i][0]);
        assert_non_null(at);
        char *edited = xasprintf("%.*s%s%s", (int)(at - good), good, edits[i][1], at + strlen(edits[i][0]));
        fx_write("generated/Test.Ids.manifest.json", edited);
        free(edited);
        f->diags.len = 0;
        f->diags.data[0] = 0;
        char *expected = xasprintf("%sgenerated/Test.Ids.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Test.Ids)\n", edits[i][2]);
        fx_expect_failure(f, fx_snapshot("generated"), expected);
        free(expected);
    }
    free(good);
}

static void test_errors_kind_change_refused(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\" }");
    fx_expect_failure(f, snap,
        "generated/events/Iris.Events.manifest.json: error: manifest records domain 'Iris.Events' as ordinal but the config declares it identity; changing the kind would change every value (restore the kind, or delete the manifest to start over)\n"
        "generated/events/Iris.Events.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Iris.Events)\n");
}

static void test_errors_two_domains_one_output(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"TEST_IDS.h\", \"kind\": \"ordinal\" }");
    fx_expect_failure(f, snap,
        "threadlink.json:4:5: error: domains 'Test.Ids' and 'Iris.Events' both write generated/TEST_IDS.h; nothing was written\n");
    /* Two paths, one include guard: a file including both would see only the first. */
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\" },\n"
                    "    { \"name\": \"Game.Items\", \"output\": \"test-ids.h\" }");
    fx_expect_failure(f, snap,
        "threadlink.json:5:5: error: generated/test_ids.h and generated/test-ids.h both get the include guard TLG_TEST_IDS_H_INCLUDED, so a file including both sees only one: rename one; nothing was written\n");
    /* Nor may an output be the generator's stamp, rewritten after every run. */
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \".Threadlink-Gen.stamp\", \"kind\": \"ordinal\" }");
    fx_expect_failure(f, snap,
        "threadlink.json:4:5: error: generated/.Threadlink-Gen.stamp is one of the generator's stamp files: choose another output; nothing was written\n");
    /* Nor its quick stamp (a silent generate's record of what it saw). */
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \".threadlink-gen.quick\", \"kind\": \"ordinal\" }");
    fx_expect_failure(f, snap,
        "threadlink.json:4:5: error: generated/.threadlink-gen.quick is one of the generator's stamp files: choose another output; nothing was written\n");
}

static void test_errors_symlink_in_generated_dir(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("outside/keep.txt", "precious\n");
    assert_int_equal(symlink("../outside", "generated/linked"), 0);
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"linked/iris_events.h\", \"kind\": \"ordinal\" }");
    free(snap);
    snap = fx_snapshot("generated");
    char *outside = fx_snapshot("outside");
    fx_expect_failure(f, snap,
        "threadlink.json:4:5: error: output path 'linked/iris_events.h' goes through a symbolic link (generated/linked); threadlink-gen never writes through links\n"
        "threadlink.json:4:5: error: output path 'linked/Iris.Events.manifest.json' goes through a symbolic link (generated/linked); threadlink-gen never writes through links\n");
    char *outside2 = fx_snapshot("outside");
    assert_string_equal(outside, outside2);
    free(outside), free(outside2);
}

static void test_errors_shell_without_entries_token(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("my.shell.h", "/* no token here */\n");
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\", \"shell\": \"my.shell.h\" }");
    fx_expect_failure(f, snap, "my.shell.h: error: shell has no {DOMAIN_ENTRIES} token: the entries would have nowhere to go\n");
}

static void test_errors_missing_shell_points_at_its_key(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\", \"shell\": \"nope.h\" }");
    fx_expect_failure(f, snap, "threadlink.json:4:83: error: domains[1].shell: cannot read the shell nope.h: No such file or directory\n");
}

static void test_errors_missing_manifest_regenerated_with_warning(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_remove("generated/Test.Ids.manifest.json");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data,
        "generated/Test.Ids.manifest.json: warning: manifest missing although generated/test_ids.h exists: values are issued again from the injectors (restore the manifest from version control to keep renamed and removed entries)\n");
    char *after = fx_snapshot("generated");
    assert_string_equal(snap, after); /* same injectors, same values */
    free(snap), free(after);
}

static void test_errors_moved_output_finds_the_old_manifest(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    /* The output moves up a directory, its manifest would too: issuing afresh would renumber the
     * ordinal domain, so the run stops and says where the manifest is. */
    fx_basic_config("{ \"name\": \"Iris.Events\", \"output\": \"iris_events.h\", \"kind\": \"ordinal\" }");
    fx_expect_failure(f, snap,
        "generated/Iris.Events.manifest.json: error: the manifest of Iris.Events is at generated/events/Iris.Events.manifest.json, not here where its output 'iris_events.h' puts it: move it here (git mv) to keep the domain's values, and delete the old header\n");
}

/* A domain renamed in case only is the same domain: its values must not be issued afresh (an
 * ordinal domain would be renumbered), so the run says how to carry the manifest over. */
static void test_errors_domain_renamed_in_case_keeps_its_manifest(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_basic_config("{ \"name\": \"Iris.events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\" }");
    fx_remove("injectors/Iris.Events.User.txt");
    fx_write("injectors/Iris.events.User.txt", "OnStart\n");
    fx_expect_failure(f, snap,
        "generated/events/Iris.events.manifest.json: error: the manifest of Iris.events is generated/events/Iris.Events.manifest.json, named for the domain's old spelling: rename it (git mv) and set its \"domain\" to \"Iris.events\" to keep the domain's values\n");
    /* On a case-insensitive file system the new name opens the old manifest (a copy stands in). */
    char *old = fx_read("generated/events/Iris.Events.manifest.json");
    fx_write("generated/events/Iris.events.manifest.json", old);
    fx_remove("generated/events/Iris.Events.manifest.json");
    free(old);
    f->diags.len = 0;
    f->diags.data[0] = 0;
    snap = fx_snapshot("generated");
    fx_expect_failure(f, snap,
        "generated/events/Iris.events.manifest.json: error: manifest is for domain 'Iris.Events', not 'Iris.events': the domain's name changed in case only, and this file system reaches the old manifest by the new name; rename it (git mv -f) and set its \"domain\" to \"Iris.events\" to keep the domain's values\n"
        "generated/events/Iris.events.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Iris.events)\n");
}

/* One file, one spelling: an output path with an empty or '.' component, or a file's path that
 * ends with '/' or is ".", is a located config error (it would otherwise fail at the rename, or
 * write one file under two names); folders may be "." and end with one '/'. */
static void test_errors_output_spellings(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("threadlink.json",
             "{\n"
             "  \"generated_dir\": \"./generated\",\n"
             "  \"domains\": [\n"
             "    { \"name\": \"Test.Ids\", \"output\": \".\" },\n"
             "    { \"name\": \"Iris.Events\", \"output\": \"x.h/\" },\n"
             "    { \"name\": \"A.B\", \"output\": \"sub//x.h\" },\n"
             "    { \"name\": \"A.C\", \"output\": \"sub/./x.h\" },\n"
             "    { \"name\": \"A.D\", \"output\": \"./x.h\" },\n"
             "    { \"name\": \"A.E\", \"output\": \"sub/.\" },\n"
             "    { \"name\": \"A.F\", \"output\": \"a;b.h\" }\n"
             "  ]\n"
             "}\n");
    fx_expect_failure(f, snap,
        "threadlink.json:2:3: error: generated_dir: \"./generated\" has a '.' component: write it \"generated\" (one file, one spelling)\n"
        "threadlink.json:4:27: error: domains[0].output: \".\" names no file: write the header's file name\n"
        "threadlink.json:5:30: error: domains[1].output: \"x.h/\" ends with '/', which a file's path does not: write it \"x.h\" (one file, one spelling)\n"
        "threadlink.json:6:22: error: domains[2].output: \"sub//x.h\" has an empty component: write it \"sub/x.h\" (one file, one spelling)\n"
        "threadlink.json:7:22: error: domains[3].output: \"sub/./x.h\" has a '.' component: write it \"sub/x.h\" (one file, one spelling)\n"
        "threadlink.json:8:22: error: domains[4].output: \"./x.h\" has a '.' component: write it \"x.h\" (one file, one spelling)\n"
        "threadlink.json:9:22: error: domains[5].output: \"sub/.\" has a '.' component: write it \"sub\" (one file, one spelling)\n"
        "threadlink.json:10:22: error: domains[6].output: \"a;b.h\" has a ';', which CMake reads as a list separator in the build step's outputs: choose another name\n");

    /* A stage's output folder: the vaults' (config errors above stop before the stages load). */
    fx_write("threadlink.json",
             "{\n"
             "  \"domains\": [{ \"name\": \"Test.Ids\", \"output\": \"test_ids.h\" },\n"
             "    { \"name\": \"Iris.Events\", \"output\": \"events/iris_events.h\", \"kind\": \"ordinal\" },\n"
             "    { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true }],\n"
             "  \"vaults\": { \"output\": \"v//w\" }\n"
             "}\n");
    f->diags.len = 0;
    assert_int_equal(fx_generate(f), 1);
    assert_string_equal(f->diags.data,
        "threadlink.json:5:15: error: vaults.output: \"v//w\" has an empty component: write it \"v/w\" (one file, one spelling)\n");
}

typedef struct held_report {
    diag_hold *hold;
    const char *text;
    unsigned delay_us;
} held_report;

static void *report_held(void *arg)
{
    held_report *r = arg;
    diag_hold_begin(r->hold);
    usleep(r->delay_us);
    diag_error(loc_file("out.h"), "%s", r->text);
    diag_hold_end();
    return NULL;
}

/* Outputs written side by side report in plan order: what a thread reports while it holds is
 * neither counted nor printed until released, then comes out in release order, whichever thread
 * reported first. */
static void test_errors_held_reports_come_out_in_release_order(void **state)
{
    fixture *f = *state;
    diag_hold holds[2] = {{0}};
    held_report r[2] = {{&holds[0], "first", 50000}, {&holds[1], "second", 0}};
    pthread_t t[2];
    unsigned before = diag_error_count();
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, report_held, &r[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    assert_string_equal(f->diags.data, "");
    assert_int_equal(diag_error_count(), before);
    diag_release(&holds[0]);
    diag_release(&holds[1]);
    assert_string_equal(f->diags.data, "out.h: error: first\nout.h: error: second\n");
    assert_int_equal(diag_error_count(), before + 2);
    assert_int_equal(holds[0].count + holds[1].count, 0);
}

/* A run that says only part of what it finds (pack's build step) mutes warnings: each muted one
 * takes the notes after it along, uncounted; errors and their notes come out as ever. */
static void test_errors_muted_warnings_take_their_notes(void **state)
{
    fixture *f = *state;
    unsigned errors = diag_error_count(), warnings = diag_warning_count();
    assert_false(diag_mute_warnings(true));
    diag_warning(loc_file("a.po"), "muted");
    diag_note(loc_file("a.po"), "of the muted warning");
    diag_error(loc_file("b.json"), "said");
    diag_note(loc_file("b.json"), "of the error");
    diag_warning(loc_file("c.txt"), "muted too");
    assert_true(diag_mute_warnings(false));
    diag_note(loc_file("d.txt"), "after muting");
    diag_warning(loc_file("d.txt"), "said again");
    assert_string_equal(f->diags.data, "b.json: error: said\nb.json: note: of the error\nd.txt: note: after muting\n"
                                       "d.txt: warning: said again\n");
    assert_int_equal(diag_error_count(), errors + 1);
    assert_int_equal(diag_warning_count(), warnings + 1);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_errors_held_reports_come_out_in_release_order),
        T(test_errors_muted_warnings_take_their_notes),
        T(test_errors_config_unknown_key_and_types),
        T(test_errors_domain_renamed_in_case_keeps_its_manifest),
        T(test_errors_config_names_a_missing_directory),
        T(test_errors_config_include_says_how_to_write_it),
        T(test_errors_config_syntax),
        T(test_errors_inputs_differing_only_in_case),
        T(test_errors_lexer_error_writes_nothing),
        T(test_errors_orphaned_and_multi_segment_injectors),
        T(test_errors_corrupt_manifest),
        T(test_errors_every_bad_manifest_reported),
        T(test_errors_tampered_manifest_value),
        T(test_errors_ordinal_value_far_past_the_entries),
        T(test_errors_tampered_rename_records),
        T(test_errors_kind_change_refused),
        T(test_errors_two_domains_one_output),
        T(test_errors_symlink_in_generated_dir),
        T(test_errors_output_spellings),
        T(test_errors_shell_without_entries_token),
        T(test_errors_missing_shell_points_at_its_key),
        T(test_errors_missing_manifest_regenerated_with_warning),
        T(test_errors_moved_output_finds_the_old_manifest),
    };
    return cmocka_run_group_tests_name("gen_errors", tests, NULL, NULL);
}
